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
use serde_json::{json, Value};

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
        task["artifacts"] = json!([artifact(a)]);
    }
    let records = &exp.viewed_task().records()[..=exp.position()];
    let history: Vec<Value> = records
        .iter()
        .filter_map(|r| w.trace_entry(r.id))
        .filter_map(|e| w.client_message(e, true).or_else(|| w.agent_message(e)))
        .collect();
    task["history"] = history.into();
    vec![
        request(
            id,
            "GetTask",
            json!({ "id": task_id(exp, ti) }),
            "GetTaskRequest",
        ),
        reply(id, Transport::JsonRpc, "Task", task),
    ]
}

/// `SubscribeToTask` for the viewed task: the first frame (the `task`), or
/// `UnsupportedOperationError` (-32004) when the viewed state is terminal.
pub fn subscribe(exp: &Experiment, start_ms: i64) -> Vec<WireMessage> {
    let (w, id, ti, rec) = on_demand(exp, start_ms);
    let params = json!({ "id": task_id(exp, ti) });
    let answer = if exp.snapshot().state.is_terminal() {
        error(id, Transport::Sse, UNSUPPORTED_OPERATION, task_id(exp, ti))
    } else {
        frame(id, json!({ "task": w.task_at(ti, rec) }))
    };
    vec![
        request(id, "SubscribeToTask", params, "SubscribeToTaskRequest"),
        answer,
    ]
}

/// `SendMessage` to the viewed task when it is terminal: -32004 (spec §3.1.1).
/// Empty when the viewed state is not terminal.
pub fn message_to_terminal(exp: &Experiment, start_ms: i64) -> Vec<WireMessage> {
    let (_, id, ti, _) = on_demand(exp, start_ms);
    if !exp.snapshot().state.is_terminal() {
        return Vec::new();
    }
    let tid = task_id(exp, ti);
    let message = json!({
        "messageId": format!("msg-{id}-user"), "role": "ROLE_USER",
        "parts": [{ "text": "One more thing about this task." }],
        "taskId": tid, "contextId": exp.context_id(),
    });
    vec![
        request(
            id,
            "SendMessage",
            json!({ "message": message }),
            "SendMessageRequest",
        ),
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
    vec![
        request(id, "CancelTask", json!({ "id": tid }), "CancelTaskRequest"),
        answer,
    ]
}

/// The simulated agent's v1.0 `AgentCard`.
pub fn agent_card() -> Value {
    json!({
        "name": "A2A Task Control Room agent",
        "description": "A simulated A2A v1.0 agent: it works through N units of S seconds and, as configured, asks for clarification or authorization, fails, rejects the task or refuses cancellation.",
        "supportedInterfaces": [{
            "url": "https://agent.example/a2a",
            "protocolBinding": "JSONRPC",
            "protocolVersion": "1.0",
        }],
        "version": env!("CARGO_PKG_VERSION"),
        "capabilities": { "streaming": true, "pushNotifications": false },
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{
            "id": "simulated-work",
            "name": "Simulated work",
            "description": "Runs the configured work units and returns one text artifact when it completes.",
            "tags": ["simulation", "task-lifecycle"],
        }],
    })
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
    let what = if let Some(method) = v["method"].as_str() {
        format!(
            "{method}{}",
            quote(&v["params"]["message"]["parts"][0]["text"])
        )
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
            let s = &u["status"];
            format!(
                "statusUpdate {}{}",
                s["state"].as_str().unwrap_or("?"),
                quote(&s["message"]["parts"][0]["text"])
            )
        } else if let Some(a) = r.get("artifactUpdate") {
            format!(
                "artifactUpdate {}{}",
                a["artifact"]["artifactId"].as_str().unwrap_or("?"),
                if a["lastChunk"] == true {
                    " (last chunk)"
                } else {
                    ""
                }
            )
        } else {
            let (label, t) = match r.get("task") {
                Some(t) => ("task", t),
                None => ("Task", r),
            };
            format!("{label} {}", t["status"]["state"].as_str().unwrap_or("?"))
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
        trace
            .binary_search_by_key(&seq, |e| e.seq)
            .ok()
            .map(|i| &trace[i])
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
        let ti = e.task as usize;
        let sid = open.unwrap_or(e.seq);
        let mut out = Vec::new();
        match (e.event, e.outcome) {
            (Event::Created { .. } | Event::Clarified, Outcome::Done) => {
                let params = json!({ "message": self.client_message(e, false) });
                out.push(request(
                    e.seq,
                    "SendStreamingMessage",
                    params,
                    "SendMessageRequest",
                ));
                out.push(frame(e.seq, json!({ "task": self.task_at(ti, e.seq) })));
            }
            (Event::Clarified, Outcome::Refused(r)) if r.code() == Some(UNSUPPORTED_OPERATION) => {
                let params = json!({ "message": self.client_message(e, false) });
                out.push(request(
                    e.seq,
                    "SendStreamingMessage",
                    params,
                    "SendMessageRequest",
                ));
                let tid = task_id(self.exp, ti);
                out.push(error(e.seq, Transport::Sse, UNSUPPORTED_OPERATION, tid));
            }
            (Event::CancelRequested, Outcome::Done | Outcome::Unchanged) => {
                let params = json!({ "id": task_id(self.exp, ti) });
                out.push(request(e.seq, "CancelTask", params, "CancelTaskRequest"));
                let rec = if done { e.seq } else { e.at };
                out.push(reply(
                    e.seq,
                    Transport::JsonRpc,
                    "Task",
                    self.task_at(ti, rec),
                ));
                if done && open.is_some() {
                    out.push(frame(sid, self.status_update(ti, e.seq)));
                }
            }
            (Event::CancelRequested, Outcome::Refused(r))
                if r.code() == Some(TASK_NOT_CANCELABLE) =>
            {
                let params = json!({ "id": task_id(self.exp, ti) });
                out.push(request(e.seq, "CancelTask", params, "CancelTaskRequest"));
                let tid = task_id(self.exp, ti);
                out.push(error(e.seq, Transport::JsonRpc, TASK_NOT_CANCELABLE, tid));
            }
            (Event::Worked { .. }, Outcome::Done) if e.after == TaskState::Completed => {
                if let Some(a) = self.artifact_at(ti, e.seq) {
                    let update = json!({
                        "taskId": task_id(self.exp, ti), "contextId": self.exp.context_id(),
                        "artifact": a, "lastChunk": true,
                    });
                    out.push(frame(sid, json!({ "artifactUpdate": update })));
                }
                out.push(frame(sid, self.status_update(ti, e.seq)));
            }
            (
                Event::Started
                | Event::Rejected
                | Event::Failed { .. }
                | Event::AskedInput { .. }
                | Event::AskedAuth { .. }
                | Event::Authorized,
                Outcome::Done,
            ) => out.push(frame(sid, self.status_update(ti, e.seq))),
            _ => {}
        }
        for m in &mut out {
            m.entry = Some(e.seq);
        }
        out
    }

    /// The task `ti` at its recorded state `rec` (a trace seq).
    fn task_at(&self, ti: usize, rec: u32) -> Value {
        json!({
            "id": task_id(self.exp, ti),
            "contextId": self.exp.context_id(),
            "status": self.status(rec),
        })
    }

    fn status_update(&self, ti: usize, rec: u32) -> Value {
        json!({ "statusUpdate": {
            "taskId": task_id(self.exp, ti),
            "contextId": self.exp.context_id(),
            "status": self.status(rec),
        }})
    }

    /// The `TaskStatus` of the recorded state made by trace entry `rec`.
    fn status(&self, rec: u32) -> Value {
        let mut s = json!({ "timestamp": timestamp(self.time(rec)) });
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
        Some(json!({
            "messageId": format!("msg-{}-agent", e.seq), "role": "ROLE_AGENT",
            "parts": [{ "text": text }],
            "taskId": task_id(self.exp, e.task as usize), "contextId": self.exp.context_id(),
        }))
    }

    /// The client's message of a creation or clarification entry, as sent
    /// (or, `stored`, as kept in the task's history: with both ids).
    fn client_message(&self, e: &TraceEntry, stored: bool) -> Option<Value> {
        let exp = self.exp;
        let task = &exp.tasks()[e.task as usize];
        let c = exp.config();
        let (n, s) = (c.work_units, c.seconds_per_unit);
        let mut m = json!({ "messageId": format!("msg-{}-user", e.seq), "role": "ROLE_USER" });
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
        m["parts"] = json!([{ "text": text }]);
        if stored || e.event == Event::Clarified || task.reference_task_id.is_some() {
            m["contextId"] = exp.context_id().into();
        }
        if stored || e.event == Event::Clarified {
            m["taskId"] = task.id.as_str().into();
        }
        if let (Event::Created { .. }, Some(r)) = (e.event, &task.reference_task_id) {
            m["referenceTaskIds"] = json!([r]);
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

fn task_id(exp: &Experiment, ti: usize) -> &str {
    &exp.tasks()[ti].id
}

fn artifact(a: Artifact) -> Value {
    json!({ "artifactId": a.artifact_id, "name": a.name, "parts": [{ "text": a.text }] })
}

fn wire(
    from: Party,
    transport: Transport,
    payload_type: &'static str,
    message: Value,
) -> WireMessage {
    WireMessage {
        entry: None,
        from,
        transport,
        payload_type,
        message,
    }
}

fn request(id: u32, method: &str, params: Value, ty: &'static str) -> WireMessage {
    let m = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
    wire(Party::Client, Transport::JsonRpc, ty, m)
}

fn reply(id: u32, transport: Transport, ty: &'static str, result: Value) -> WireMessage {
    let m = json!({ "jsonrpc": "2.0", "id": id, "result": result });
    wire(Party::Agent, transport, ty, m)
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
    let m = json!({ "jsonrpc": "2.0", "id": id, "error": {
        "code": code, "message": message,
        "data": [{
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": reason, "domain": "a2a-protocol.org",
            "metadata": { "taskId": task_id },
        }],
    }});
    wire(Party::Agent, transport, "error", m)
}
