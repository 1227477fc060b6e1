//! The wire view: the exact A2A v1.0 JSON-RPC 2.0 / SSE exchange a v1.0
//! client and agent would have had for an [`Experiment`], ProtoJSON encoded
//! (lowerCamelCase names, enum names as strings, defaults omitted, no `kind`,
//! `final` or `index`). Pure: no clock, no randomness; the caller passes the
//! wall-clock start (`start_ms`, Unix epoch ms) and the same experiment always
//! yields byte-identical messages.
//!
//! Rules (see `shared/spec/A2A-NOTES.md`):
//! - Every task is driven over `SendStreamingMessage`. Its SSE stream opens with
//!   the `task` snapshot and carries one `statusUpdate` per agent transition.
//!   It closes after a terminal state and after INPUT_REQUIRED, and stays open
//!   through AUTH_REQUIRED (known inconsistency 1, suggested default).
//! - Worked seconds carry nothing on the wire. The artifact is streamed only at
//!   completion: one `artifactUpdate` with `lastChunk:true` just before the
//!   COMPLETED `statusUpdate`, so a failed or canceled task never had one.
//! - INPUT_REQUIRED, AUTH_REQUIRED, FAILED and REJECTED carry an agent status
//!   `message` explaining them.
//! - The clarification is a new `SendStreamingMessage` with the task's `taskId`
//!   and `contextId`; its stream starts with the `task` snapshot (WORKING).
//!   Authorization is out of band: only the agent's WORKING `statusUpdate`
//!   on the still-open stream shows it.
//! - `CancelTask` returns the bare `Task` (CANCELED; an open stream also gets
//!   the CANCELED `statusUpdate`), or `TaskNotCancelableError` (-32002) when the
//!   worker refuses or the task is terminal. A repeated cancel of a CANCELED
//!   task returns the task (spec: idempotent; a2a-python answers -32002).
//! - A message to a terminal task, or a subscription to one, is answered with
//!   `UnsupportedOperationError` (-32004; a2a-sdk 1.3.0 agrees). An error to a
//!   streaming request (`SendStreamingMessage`, `SubscribeToTask`) comes as an
//!   SSE frame, as both SDKs send it (`event: error`). The model keeps no text
//!   of a refused clarification, so its request carries a placeholder text.
//! - Refusals the wire never sees (Step, Authorize, empty text, read-only
//!   task, follow-up too early) produce no messages.
//! - JSON-RPC ids are trace sequence numbers (a stream's frames carry the id of
//!   the request that opened it); on-demand requests use the next free one.
//!   Message ids are `msg-<seq>-user` / `msg-<seq>-agent`.
//! - Timestamps: `start_ms` plus the task's active seconds, each task offset
//!   by the earlier tasks' active time, and at least 1 ms after the previous
//!   trace entry, so they strictly increase through the transcript.

mod time;

pub use time::timestamp;

use crate::model::{
    Artifact, Event, Experiment, Outcome, TaskState, TraceEntry, TASK_NOT_CANCELABLE,
    UNSUPPORTED_OPERATION,
};
use serde::Serialize;
use serde_json::Value;

/// A JSON object from `"key" => value` pairs, each value through `Value::from`:
/// smaller in wasm than `json!`, which serializes every value generically.
macro_rules! obj {
    ($($k:literal => $v:expr),* $(,)?) => {
        obj(vec![$(($k, Value::from($v))),*])
    };
}

/// Who sent a wire message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Party {
    Client,
    Agent,
}

impl Party {
    pub const fn as_str(self) -> &'static str {
        match self {
            Party::Client => "client",
            Party::Agent => "agent",
        }
    }
}

/// How it travelled: a JSON-RPC request/response, or an SSE frame of a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    JsonRpc,
    Sse,
}

impl Transport {
    pub const fn as_str(self) -> &'static str {
        match self {
            Transport::JsonRpc => "jsonrpc",
            Transport::Sse => "sse",
        }
    }

    pub const fn label(self) -> &'static str {
        match self {
            Transport::JsonRpc => "JSON-RPC",
            Transport::Sse => "SSE",
        }
    }
}

/// One JSON-RPC message (request, response or error) or SSE `data:` frame.
#[derive(Clone, Debug, PartialEq)]
pub struct WireMessage {
    /// The trace seq it belongs to; `None` for on-demand requests.
    pub entry: Option<u32>,
    pub from: Party,
    pub transport: Transport,
    /// The proto message name `message` carries (params or result type), or "error".
    pub payload_type: &'static str,
    pub message: Value,
}

/// The exchange of the trace entry `seq` (empty if it has none on the wire).
pub fn entry_messages(exp: &Experiment, seq: u32, start_ms: i64) -> Vec<WireMessage> {
    let mut w = Walk::new(exp, start_ms);
    for e in exp.trace() {
        if e.seq == seq {
            return w.entry(e, true);
        }
        w.entry(e, false);
    }
    Vec::new()
}

/// The whole run: every task's exchange, in trace order.
pub fn transcript(exp: &Experiment, start_ms: i64) -> Vec<WireMessage> {
    let mut w = Walk::new(exp, start_ms);
    exp.trace().iter().flat_map(|e| w.entry(e, true)).collect()
}

/// `GetTask` for the viewed task, answered with the task at the viewed state
/// (status, artifacts when completed, history of its messages).
pub fn get_task(exp: &Experiment, start_ms: i64) -> Vec<WireMessage> {
    let (w, id, ti, rec) = on_demand(exp, start_ms);
    let mut task = w.task_at(ti, rec);
    if let Some(a) = exp.final_artifact() {
        task["artifacts"] = vec![artifact(a)].into();
    }
    let records = &exp.viewed_task().records()[..=exp.position()];
    let history: Vec<Value> = records
        .iter()
        .filter_map(|r| w.trace_entry(r.id))
        .filter_map(|e| w.client_message(e, true).or_else(|| w.agent_message(e)))
        .collect();
    task["history"] = history.into();
    vec![
        request(id, "GetTask", obj!("id" => task_id(exp, ti))),
        reply(id, Transport::JsonRpc, "Task", task),
    ]
}

/// `SubscribeToTask` for the viewed task: the first frame (the `task`), or
/// `UnsupportedOperationError` (-32004) when the viewed state is terminal.
pub fn subscribe(exp: &Experiment, start_ms: i64) -> Vec<WireMessage> {
    let (w, id, ti, rec) = on_demand(exp, start_ms);
    let tid = task_id(exp, ti);
    let answer = if exp.snapshot().state.is_terminal() {
        error(id, Transport::Sse, UNSUPPORTED_OPERATION, tid)
    } else {
        frame(id, obj!("task" => w.task_at(ti, rec)))
    };
    vec![request(id, "SubscribeToTask", obj!("id" => tid)), answer]
}

/// `SendMessage` to the viewed task when it is terminal: -32004 (spec §3.1.1).
/// Empty when the viewed state is not terminal.
pub fn message_to_terminal(exp: &Experiment, start_ms: i64) -> Vec<WireMessage> {
    let (_, id, ti, _) = on_demand(exp, start_ms);
    if !exp.snapshot().state.is_terminal() {
        return Vec::new();
    }
    let tid = task_id(exp, ti);
    let message = obj!(
        "messageId" => format!("msg-{id}-user"), "role" => "ROLE_USER",
        "parts" => text_parts("One more thing about this task."),
        "taskId" => tid, "contextId" => exp.context_id(),
    );
    vec![
        request(id, "SendMessage", obj!("message" => message)),
        error(id, Transport::JsonRpc, UNSUPPORTED_OPERATION, tid),
    ]
}

/// `CancelTask` on the viewed task when it is terminal: -32002, or the task
/// itself when it is CANCELED (cancel is idempotent). Empty when not terminal.
pub fn cancel_terminal(exp: &Experiment, start_ms: i64) -> Vec<WireMessage> {
    let (w, id, ti, rec) = on_demand(exp, start_ms);
    let state = exp.snapshot().state;
    if !state.is_terminal() {
        return Vec::new();
    }
    let tid = task_id(exp, ti);
    let answer = if state == TaskState::Canceled {
        reply(id, Transport::JsonRpc, "Task", w.task_at(ti, rec))
    } else {
        error(id, Transport::JsonRpc, TASK_NOT_CANCELABLE, tid)
    };
    vec![request(id, "CancelTask", obj!("id" => tid)), answer]
}

/// The simulated agent's v1.0 `AgentCard`.
pub fn agent_card() -> Value {
    let strings = |v: &[&str]| Value::from(v.to_vec());
    obj!(
        "name" => "A2A Task Control Room agent",
        "description" => "A simulated A2A v1.0 agent: it works through N units of S seconds and, as configured, asks for clarification or authorization, fails, rejects the task or refuses cancellation.",
        "supportedInterfaces" => vec![obj!(
            "url" => "https://agent.example/a2a",
            "protocolBinding" => "JSONRPC",
            "protocolVersion" => "1.0",
        )],
        "version" => env!("CARGO_PKG_VERSION"),
        "capabilities" => obj!("streaming" => true, "pushNotifications" => false),
        "defaultInputModes" => strings(&["text/plain"]),
        "defaultOutputModes" => strings(&["text/plain"]),
        "skills" => vec![obj!(
            "id" => "simulated-work",
            "name" => "Simulated work",
            "description" => "Runs the configured work units and returns one text artifact when it completes.",
            "tags" => strings(&["simulation", "task-lifecycle"]),
        )],
    )
}

/// One JSON line per message: `{"seq","from","transport","payloadType","message"}`.
pub fn to_jsonl(messages: &[WireMessage]) -> String {
    let mut out = String::new();
    for (i, m) in messages.iter().enumerate() {
        out += &format!(
            "{{\"seq\":{},\"from\":\"{}\",\"transport\":\"{}\",\"payloadType\":{},\"message\":{}}}\n",
            i + 1,
            m.from.as_str(),
            m.transport.as_str(),
            Value::from(m.payload_type),
            m.message
        );
    }
    out
}

/// One friendly line, e.g. `agent → client (SSE): statusUpdate
/// TASK_STATE_INPUT_REQUIRED — “Please clarify …”`.
pub fn explain(m: &WireMessage) -> String {
    let v = &m.message;
    let quote = |s: &Value| s.as_str().map_or(String::new(), |t| format!(" — “{t}”"));
    let state = |s: &Value| s["status"]["state"].as_str().unwrap_or("?").to_string();
    let what = if let Some(method) = v["method"].as_str() {
        method.to_string() + &quote(&v["params"]["message"]["parts"][0]["text"])
    } else if let Some(err) = v.get("error") {
        let name = match err["code"].as_i64() {
            Some(-32002) => "TaskNotCancelableError",
            Some(-32004) => "UnsupportedOperationError",
            _ => "error",
        };
        format!("error {} {name}{}", err["code"], quote(&err["message"]))
    } else {
        let r = &v["result"];
        if let Some(u) = r.get("statusUpdate") {
            let text = quote(&u["status"]["message"]["parts"][0]["text"]);
            format!("statusUpdate {}{text}", state(u))
        } else if let Some(a) = r.get("artifactUpdate") {
            let last = if a["lastChunk"] == true {
                " (last chunk)"
            } else {
                ""
            };
            format!(
                "artifactUpdate {}{last}",
                a["artifact"]["artifactId"].as_str().unwrap_or("?")
            )
        } else if let Some(t) = r.get("task") {
            format!("task {}", state(t))
        } else {
            format!("Task {}", state(r))
        }
    };
    let dir = match m.from {
        Party::Client => "client → agent",
        Party::Agent => "agent → client",
    };
    format!("{dir} ({}): {what}", m.transport.label())
}

// ---- internals -------------------------------------------------------------

/// The state carried along the trace: entry times and the open stream.
struct Walk<'a> {
    exp: &'a Experiment,
    start_ms: i64,
    /// Seconds before each task's clock: the earlier tasks' active time.
    base_s: Vec<i64>,
    /// `(seq, ms)` of every entry walked, in trace (= seq) order.
    times: Vec<(u32, i64)>,
    /// JSON-RPC id of the open SSE stream.
    stream: Option<u32>,
    /// A copy to seek in, for the artifact of a completing entry.
    scratch: Option<Experiment>,
}

impl<'a> Walk<'a> {
    fn new(exp: &'a Experiment, start_ms: i64) -> Self {
        let mut acc = 0;
        let base_s = exp
            .tasks()
            .iter()
            .map(|t| {
                let b = acc;
                acc += i64::from(t.latest().snap.active_s);
                b
            })
            .collect();
        Walk {
            exp,
            start_ms,
            base_s,
            times: Vec::with_capacity(exp.trace().len()),
            stream: None,
            scratch: None,
        }
    }

    fn time(&self, seq: u32) -> i64 {
        match self.times.binary_search_by_key(&seq, |x| x.0) {
            Ok(i) => self.times[i].1,
            Err(_) => self.start_ms,
        }
    }

    fn trace_entry(&self, seq: u32) -> Option<&'a TraceEntry> {
        let trace = self.exp.trace();
        let i = trace.binary_search_by_key(&seq, |e| e.seq).ok()?;
        Some(&trace[i])
    }

    /// Walks one entry; returns its messages when `build` is set.
    fn entry(&mut self, e: &TraceEntry, build: bool) -> Vec<WireMessage> {
        let own = self.start_ms + 1000 * (self.base_s[e.task as usize] + i64::from(e.active_s));
        let t = self
            .times
            .last()
            .map_or(own, |&(_, last)| own.max(last + 1));
        self.times.push((e.seq, t));
        let open = self.stream;
        let done = e.outcome == Outcome::Done;
        match e.event {
            Event::Created { .. } | Event::Clarified if done => self.stream = Some(e.seq),
            _ if done && (e.after.is_terminal() || e.after == TaskState::InputRequired) => {
                self.stream = None
            }
            _ => {}
        }
        if !build {
            return Vec::new();
        }
        let (ti, seq) = (e.task as usize, e.seq);
        let tid = task_id(self.exp, ti);
        let sid = open.unwrap_or(seq);
        let refused = |code| matches!(e.outcome, Outcome::Refused(r) if r.code() == Some(code));
        let mut out = Vec::new();
        match e.event {
            Event::Created { .. } | Event::Clarified if done || refused(UNSUPPORTED_OPERATION) => {
                let params = obj!("message" => self.client_message(e, false));
                out.push(request(seq, "SendStreamingMessage", params));
                out.push(if done {
                    frame(seq, obj!("task" => self.task_at(ti, seq)))
                } else {
                    error(seq, Transport::Sse, UNSUPPORTED_OPERATION, tid)
                });
            }
            Event::CancelRequested if e.outcome == Outcome::Unchanged || done => {
                out.push(request(seq, "CancelTask", obj!("id" => tid)));
                let rec = if done { seq } else { e.at };
                out.push(reply(
                    seq,
                    Transport::JsonRpc,
                    "Task",
                    self.task_at(ti, rec),
                ));
                if done && open.is_some() {
                    out.push(frame(sid, self.status_update(ti, seq)));
                }
            }
            Event::CancelRequested if refused(TASK_NOT_CANCELABLE) => {
                out.push(request(seq, "CancelTask", obj!("id" => tid)));
                out.push(error(seq, Transport::JsonRpc, TASK_NOT_CANCELABLE, tid));
            }
            Event::Worked { .. } if done && e.after == TaskState::Completed => {
                if let Some(a) = self.artifact_at(ti, seq) {
                    let update = obj!(
                        "taskId" => tid, "contextId" => self.exp.context_id(),
                        "artifact" => a, "lastChunk" => true,
                    );
                    out.push(frame(sid, obj!("artifactUpdate" => update)));
                }
                out.push(frame(sid, self.status_update(ti, seq)));
            }
            Event::Started
            | Event::Rejected
            | Event::Failed { .. }
            | Event::AskedInput { .. }
            | Event::AskedAuth { .. }
            | Event::Authorized
                if done =>
            {
                out.push(frame(sid, self.status_update(ti, seq)))
            }
            _ => {}
        }
        for m in &mut out {
            m.entry = Some(seq);
        }
        out
    }

    /// The task `ti` at its recorded state `rec` (a trace seq).
    fn task_at(&self, ti: usize, rec: u32) -> Value {
        obj!(
            "id" => task_id(self.exp, ti),
            "contextId" => self.exp.context_id(),
            "status" => self.status(rec),
        )
    }

    fn status_update(&self, ti: usize, rec: u32) -> Value {
        let update = obj!(
            "taskId" => task_id(self.exp, ti),
            "contextId" => self.exp.context_id(),
            "status" => self.status(rec),
        );
        obj!("statusUpdate" => update)
    }

    /// The `TaskStatus` of the recorded state made by trace entry `rec`.
    fn status(&self, rec: u32) -> Value {
        let mut s = obj!("timestamp" => timestamp(self.time(rec)));
        if let Some(e) = self.trace_entry(rec) {
            s["state"] = e.after.name().into();
            if let Some(m) = self.agent_message(e) {
                s["message"] = m;
            }
        }
        s
    }

    /// The agent's status message explaining INPUT_REQUIRED, AUTH_REQUIRED,
    /// FAILED or REJECTED, made by entry `e`.
    fn agent_message(&self, e: &TraceEntry) -> Option<Value> {
        let n = self.exp.config().work_units;
        let text = match e.event {
            Event::AskedInput { unit } => {
                format!("Please clarify how to proceed before unit {unit} of {n}.")
            }
            Event::AskedAuth { unit } => {
                format!("Authorization is needed before unit {unit} of {n}; grant it out of band.")
            }
            Event::Failed { unit, second } => {
                format!("Unit {unit} failed at its second {second}; the task has no result.")
            }
            Event::Rejected => "The agent rejected the task before doing any work.".into(),
            _ => return None,
        };
        Some(obj!(
            "messageId" => format!("msg-{}-agent", e.seq), "role" => "ROLE_AGENT",
            "parts" => text_parts(&text),
            "taskId" => task_id(self.exp, e.task as usize), "contextId" => self.exp.context_id(),
        ))
    }

    /// The client's message of a creation or clarification entry, as sent
    /// (or, `stored`, as kept in the task's history: with both ids).
    fn client_message(&self, e: &TraceEntry, stored: bool) -> Option<Value> {
        let exp = self.exp;
        let task = &exp.tasks()[e.task as usize];
        let c = exp.config();
        let (n, s) = (c.work_units, c.seconds_per_unit);
        let text = match e.event {
            Event::Created { .. } if task.reference_task_id.is_some() => {
                format!("Follow-up to the earlier task: run {n} work units of {s} s each.")
            }
            Event::Created { .. } => format!("Run {n} work units of {s} s each."),
            Event::Clarified => {
                let rec = task.records().iter().find(|r| r.id == e.seq);
                let text = rec.and_then(|r| exp.clarification(&r.snap));
                text.unwrap_or("Here is the clarification.").to_string()
            }
            _ => return None,
        };
        let mut m = obj!(
            "messageId" => format!("msg-{}-user", e.seq), "role" => "ROLE_USER",
            "parts" => text_parts(&text),
        );
        if stored || e.event == Event::Clarified || task.reference_task_id.is_some() {
            m["contextId"] = exp.context_id().into();
        }
        if stored || e.event == Event::Clarified {
            m["taskId"] = task.id.as_str().into();
        }
        if let (Event::Created { .. }, Some(r)) = (e.event, &task.reference_task_id) {
            m["referenceTaskIds"] = vec![r.as_str()].into();
        }
        Some(m)
    }

    /// The final artifact at the recorded state `rec` of task `ti`.
    fn artifact_at(&mut self, ti: usize, rec: u32) -> Option<Value> {
        let exp = self.exp;
        let s = self.scratch.get_or_insert_with(|| exp.clone());
        s.view_task(ti).ok()?;
        let pos = s.viewed_task().records().iter().position(|r| r.id == rec)?;
        s.seek(pos).ok()?;
        s.final_artifact().map(artifact)
    }
}

/// The walk up to the end, a fresh JSON-RPC id, and the viewed task and record.
fn on_demand(exp: &Experiment, start_ms: i64) -> (Walk<'_>, u32, usize, u32) {
    let mut w = Walk::new(exp, start_ms);
    for e in exp.trace() {
        w.entry(e, false);
    }
    let id = exp.trace().last().map_or(1, |e| e.seq + 1);
    (w, id, exp.viewed_task_index(), exp.viewed_record().id)
}

fn obj(pairs: Vec<(&str, Value)>) -> Value {
    // Inserted one by one: collecting into the map would link a sort.
    let mut map = serde_json::Map::new();
    for (k, v) in pairs {
        map.insert(k.into(), v);
    }
    Value::Object(map)
}

fn text_parts(text: &str) -> Value {
    vec![obj!("text" => text)].into()
}

fn task_id(exp: &Experiment, ti: usize) -> &str {
    &exp.tasks()[ti].id
}

fn artifact(a: Artifact) -> Value {
    obj!("artifactId" => a.artifact_id, "name" => a.name, "parts" => text_parts(&a.text))
}

fn envelope(
    id: u32,
    from: Party,
    transport: Transport,
    ty: &'static str,
    key: &str,
    body: Value,
) -> WireMessage {
    let mut message = obj!("jsonrpc" => "2.0", "id" => id);
    message[key] = body;
    WireMessage {
        entry: None,
        from,
        transport,
        payload_type: ty,
        message,
    }
}

/// A client request; `payloadType` is the method's params type.
fn request(id: u32, method: &'static str, params: Value) -> WireMessage {
    let ty = match method {
        "GetTask" => "GetTaskRequest",
        "CancelTask" => "CancelTaskRequest",
        "SubscribeToTask" => "SubscribeToTaskRequest",
        _ => "SendMessageRequest",
    };
    let mut m = envelope(id, Party::Client, Transport::JsonRpc, ty, "params", params);
    m.message["method"] = method.into();
    m
}

fn reply(id: u32, transport: Transport, ty: &'static str, result: Value) -> WireMessage {
    envelope(id, Party::Agent, transport, ty, "result", result)
}

/// An SSE frame of the stream opened by request `id`.
fn frame(id: u32, result: Value) -> WireMessage {
    reply(id, Transport::Sse, "StreamResponse", result)
}

/// A JSON-RPC error envelope with its `google.rpc.ErrorInfo` (messages as in
/// a2a-python). Errors to a streaming method travel as an SSE frame (both SDKs
/// send them as `event: error`).
fn error(id: u32, transport: Transport, code: i32, task_id: &str) -> WireMessage {
    let (message, reason) = if code == TASK_NOT_CANCELABLE {
        ("Task cannot be canceled", "TASK_NOT_CANCELABLE")
    } else {
        ("This operation is not supported", "UNSUPPORTED_OPERATION")
    };
    let info = obj!(
        "@type" => "type.googleapis.com/google.rpc.ErrorInfo",
        "reason" => reason, "domain" => "a2a-protocol.org",
        "metadata" => obj!("taskId" => task_id),
    );
    let err = obj!("code" => code, "message" => message, "data" => vec![info]);
    envelope(id, Party::Agent, transport, "error", "error", err)
}
