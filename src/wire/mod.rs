//! The wire view: the exact A2A v1.0 JSON-RPC 2.0 / SSE exchange a v1.0
//! client and agent would have had for an [`Experiment`], ProtoJSON encoded
//! (lowerCamelCase names, enum names as strings, defaults omitted, no `kind`,
//! `final` or `index`). Pure: no clock, no randomness; the caller passes the
//! wall-clock start (`start_ms`, Unix epoch ms) and the same experiment always
//! yields byte-identical messages.
//!
//! Rules (the A2A v1.0 specification and its `a2a.proto`; where they leave a
//! choice, as said):
//! - Every task is driven over `SendStreamingMessage`. Its SSE stream opens with
//!   the `task` snapshot and carries one `statusUpdate` per agent transition.
//!   It closes after a terminal state and after INPUT_REQUIRED, and stays open
//!   through AUTH_REQUIRED (the spec's sections disagree on INPUT_REQUIRED;
//!   §7.6.1 says a stream SHOULD stay open through AUTH_REQUIRED; a2a-js does
//!   both; a2a-sdk 1.3.0's blocking `SendMessage` returns at either).
//!   A `SubscribeToTask` stream opened on a live task stays open until the
//!   task reaches a terminal state, INPUT_REQUIRED included (the spec's rule
//!   for subscriptions; a2a-sdk 1.3.0 does the same in one process, and
//!   across replicas ends it at an interrupted state too).
//! - Worked seconds carry nothing on the wire. By default the artifact is
//!   streamed only at completion: one `artifactUpdate` with `lastChunk:true`
//!   just before the COMPLETED `statusUpdate`, so a failed or canceled task
//!   never had one. With `artifact_per_unit` each finished unit streams a
//!   chunk (`append:true` from the second on), the completion the summary
//!   with `lastChunk:true`; the `Task` a store answers with carries the parts
//!   streamed so far, a failed or canceled task's included.
//! - INPUT_REQUIRED, AUTH_REQUIRED, FAILED and REJECTED carry an agent status
//!   `message` explaining them.
//! - The clarification is a new `SendStreamingMessage` with the task's `taskId`
//!   and `contextId`; its stream starts with the `task` as the agent stores
//!   it on receipt (INPUT_REQUIRED, the question moved from `status` to
//!   `history`, the clarification after it), then the WORKING
//!   `statusUpdate`, which a subscription opened at INPUT_REQUIRED receives
//!   too.
//!   Authorization is out of band: only the agent's WORKING `statusUpdate`
//!   on the still-open stream shows it.
//! - `CancelTask` returns the bare `Task` (CANCELED; an open stream also gets
//!   the CANCELED `statusUpdate`), or `TaskNotCancelableError` (-32002) when the
//!   worker refuses or the task is terminal, a CANCELED one included (spec
//!   §3.1.5 and §3.3.2, as a2a-python answers; a2a-js returns the task).
//! - A message to a terminal task, or a subscription to one, is answered with
//!   `UnsupportedOperationError` (-32004) whose message names the terminal
//!   state, as a2a-sdk 1.3.0 answers. Every error is a plain JSON-RPC
//!   response, to a streaming request (`SendStreamingMessage`,
//!   `SubscribeToTask`) too: the agent refuses it before a stream opens, as
//!   a2a-sdk 1.3.0 does (a2a-js sends an SSE `event: error` frame instead).
//! - Refusals the wire never sees (Step, Authorize, empty text, read-only
//!   task, follow-up too early) produce no messages.
//! - JSON-RPC ids are trace sequence numbers (a stream's frames carry the id of
//!   the request that opened it); on-demand requests carry string ids of
//!   their own (`get-task-N`, `subscribe-N`, `list-tasks-N`,
//!   `get-unknown-task-N`). *Get unknown
//!   task* asks for a task id this agent never issued and is answered with
//!   `TaskNotFoundError` (-32001).
//!   Message ids are `msg-<seq>-user-<clientId>` / `msg-<seq>-agent-<contextId>`,
//!   each side's own: the client's first message goes out before the agent
//!   has created the context id, so the client uses a UUID of its own
//!   ([`Experiment::client_id`], drawn from the same seed). A seq is not used
//!   again within a context and both ids are UUIDs, so an agent that detects
//!   duplicates by `messageId` never takes one experiment's message for
//!   another's.
//! - Timestamps: `start_ms` plus the task's active and waiting seconds, each
//!   task offset by the earlier tasks' time, and at least 1 ms after the
//!   previous trace entry, so they strictly increase through the transcript.
//!   A pause's lease (`pausedUntil`) is its `pausedAt` plus its timeout, and
//!   the timeout's entry is stamped no earlier than that.
//! - A request tried on an earlier recorded state (a refusal or no-op made
//!   while viewing the past) is answered as of that state; [`transcript`]
//!   leaves it out, as no real client can send it there.
//!
//! The proposed pause lifecycle (Harn's `TASK_STATE_PAUSED` RFC, raised as A2A
//! discussion #1858; not A2A v1.0) appears only for experiments whose config sets `pause_proposal`,
//! in one of two [`PauseEncoding`]s:
//! - `ProposedCore`, the RFC's shapes verbatim, every such message's
//!   payloadType prefixed `proposal:`. `PauseTask` params are
//!   `{taskId, reason, mode}` and its result `{taskId, state, pause}` (not a
//!   `Task`), as the RFC shows them. A pending pause (`finish_step` mid-unit,
//!   `wait_for_completion`): the RFC has no "pause requested" state, so the
//!   result says `TASK_STATE_WORKING` without `pause`, and the PAUSED
//!   `statusUpdate` follows on the stream once it takes effect. A repeated
//!   pause returns the current pause and nothing on the stream (a request the
//!   model did not record carries no `reason`). The self-park is the RFC's
//!   `AwaitTaskResumption`, which it labels peer → client: the agent's
//!   request, the client's answer in PauseTask's result shape (with the
//!   agent's resume token and times, which the request did not carry: the
//!   RFC does not say how the client learns them, and the Wire panel says
//!   so), then its PAUSED `statusUpdate` with
//!   `initiatedBy` AGENT and `conditions {onEvent, timeout {durationMinutes,
//!   onTimeout}}`. `resumeMode` is set on self-parks only (EXTERNAL_EVENT with
//!   an event, TIMEOUT with only a timeout that resumes the task, else
//!   CLIENT_MESSAGE: a timeout that fails it resumes nothing); an agent
//!   pause's `reason` is generated. `ResumeTask` returns the `Task` (WORKING);
//!   the resumed `statusUpdate` carries the RFC's `metadata` (`cause`
//!   explicit_resume / condition_fired / timeout). Errors -32010 / -32011
//!   (proposed), ErrorInfo reasons `PAUSE_NOT_ALLOWED` / `RESUME_TOKEN_INVALID`.
//!   A refused or idempotent request shows the texts it was sent with
//!   (reason, resume token, input), kept by the model for the wire.
//! - `V1Extension`, what a v1.0 peer may send today: the state stays WORKING;
//!   the pause and the resume detail travel in `metadata` under
//!   [`PAUSE_EXTENSION`], which the client activates on every request it
//!   sends (`A2A-Extensions`, see [`http_request`]), so the agent may use
//!   it on any stream or reply (`{"pause": TaskPause}` on a Task or statusUpdate, the
//!   RFC's resume metadata on the resumed statusUpdate, without
//!   `previousState`: the task was WORKING throughout); PauseTask and
//!   ResumeTask are `SendMessage`s whose message lists the extension and
//!   carries `{method, params}` (the RFC's params) under it, answered with the
//!   `Task`, and kept in its `history` like any accepted message. v1.0 has no
//!   pause error codes: a wrong resume token is `InvalidParamsError`
//!   (-32602), other refusals `UnsupportedOperationError` (-32004, as for a
//!   message to a terminal task, with a2a-sdk's terminal-state message
//!   there); the one ErrorInfo of either carries the proposal's reason and
//!   code in its `metadata` (`extension`, `proposedReason`, `proposedCode`).
//!   Every message is plain v1.0; [`explain`] still calls each one
//!   that carries the extension the proposal's.

mod time;

pub use time::timestamp;

use crate::model::{
    a2a_error, extension_code, short_id, A2aError, Action, Artifact, Event, Experiment, Initiator,
    OnTimeout, Outcome, ResumeCause, Snapshot, TaskState, TraceEntry, NEVER_ISSUED_ID,
    PAUSE_NOT_ALLOWED, RESUME_TOKEN_INVALID, SIMULATOR_DOMAIN, TASK_NOT_CANCELABLE, TASK_NOT_FOUND,
    UNSUPPORTED_OPERATION,
};
use serde_json::Value;

/// A JSON object from `"key" => value` pairs, each value through `Value::from`:
/// smaller in wasm than `json!`, which serializes every value generically.
macro_rules! obj {
    ($($k:literal => $v:expr),* $(,)?) => {
        obj(vec![$(($k, Value::from($v))),*])
    };
}

/// Who sent a wire message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    /// The last frame of its SSE stream: the agent closes the stream after
    /// it (v1.0 has no `final` field; the closing is the only sign).
    pub closes_stream: bool,
    /// The pause proposal's, in this encoding, though its JSON may be plain
    /// v1.0 (its payloadType then keeps no `proposal:` prefix, and the
    /// strict check reads it): part of a PauseTask or ResumeTask exchange
    /// (the `Task` a resume answers with does not name the extension), or a
    /// transition only the pause lifecycle makes: a pause's timeout failing
    /// the task, the completion a `wait_for_completion` resume lets happen,
    /// a paused task canceled.
    pub of_pause: Option<PauseEncoding>,
}

/// How the proposed pause lifecycle goes on the wire (see the module docs).
/// Experiments without the proposal look the same in both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PauseEncoding {
    /// The RFC's proposed core: TASK_STATE_PAUSED, `status.pause`, PauseTask,
    /// ResumeTask; payloadTypes prefixed `proposal:`.
    #[default]
    ProposedCore,
    /// A v1.0 extension: WORKING plus metadata under [`PAUSE_EXTENSION`].
    V1Extension,
}

impl PauseEncoding {
    /// Its name in an exported line's `pauseProposal`: `core` or `extension`.
    pub const fn as_str(self) -> &'static str {
        match self {
            PauseEncoding::ProposedCore => "core",
            PauseEncoding::V1Extension => "extension",
        }
    }

    /// The encoding named `name` as [`PauseEncoding::as_str`] names it.
    pub fn named(name: &str) -> Option<PauseEncoding> {
        [PauseEncoding::ProposedCore, PauseEncoding::V1Extension]
            .into_iter()
            .find(|e| e.as_str() == name)
    }

    /// The encoding that is not this one.
    pub const fn other(self) -> PauseEncoding {
        match self {
            PauseEncoding::ProposedCore => PauseEncoding::V1Extension,
            PauseEncoding::V1Extension => PauseEncoding::ProposedCore,
        }
    }
}

/// The URI of the pause extension (v1.0 encoding of the proposal).
pub const PAUSE_EXTENSION: &str = "https://a2a-control-room.example/extensions/pause/v1";

/// The exchange of the trace entry `seq` (empty if it has none on the wire).
pub fn entry_messages(exp: &Experiment, seq: u32, start_ms: i64) -> Vec<WireMessage> {
    entry_messages_in(exp, seq, start_ms, PauseEncoding::ProposedCore)
}

/// [`entry_messages`] with the pause proposal in `enc`.
pub fn entry_messages_in(
    exp: &Experiment,
    seq: u32,
    start_ms: i64,
    enc: PauseEncoding,
) -> Vec<WireMessage> {
    let mut w = Walk::new(exp, start_ms, enc);
    for e in exp.trace() {
        if e.seq == seq {
            return w.entry(e, true);
        }
        w.entry(e, false);
    }
    Vec::new()
}

/// The whole run: every task's exchange, in trace order. A request tried
/// on an earlier recorded state is left out: a real client reaches the task
/// only as it is now (see [`Experiment::tried_on_earlier_state`]).
pub fn transcript(exp: &Experiment, start_ms: i64) -> Vec<WireMessage> {
    transcript_in(exp, start_ms, PauseEncoding::ProposedCore)
}

/// [`transcript`] with the pause proposal in `enc`.
pub fn transcript_in(exp: &Experiment, start_ms: i64, enc: PauseEncoding) -> Vec<WireMessage> {
    let mut w = Walk::new(exp, start_ms, enc);
    exp.trace()
        .iter()
        .flat_map(|e| w.entry(e, !exp.tried_on_earlier_state(e)))
        .collect()
}

/// `GetTask` for the viewed task, answered with the task at the viewed state
/// (see `Walk::task_in_full`), with the pause proposal in `enc`. Its
/// JSON-RPC id (`get-task-N`) is a string no request of the run uses.
pub fn get_task(exp: &Experiment, start_ms: i64, enc: PauseEncoding) -> Vec<WireMessage> {
    get_task_with_history(exp, start_ms, enc, None)
}

/// [`get_task`] with the request's `historyLength`
/// (`GetTaskRequest.history_length`, an optional int32): unset, the
/// client imposes no limit and gets the whole history; 0 asks for no
/// messages, and the answer leaves `history` out (as the spec says it
/// SHOULD); n gets the n most recent messages.
pub fn get_task_with_history(
    exp: &Experiment,
    start_ms: i64,
    enc: PauseEncoding,
    history_length: Option<u32>,
) -> Vec<WireMessage> {
    let (w, n, ti, rec) = on_demand(exp, start_ms, enc);
    let id = format!("get-task-{n}");
    // 0: the task without its history, as a SendMessage that asks for none.
    let upto = (history_length != Some(0)).then_some(u32::MAX);
    let mut task = w.task_answered(ti, rec, upto);
    let mut params = obj!("id" => task_id(exp, ti));
    if let Some(limit) = history_length {
        params["historyLength"] = limit.into();
        if let Some(Value::Array(history)) = task.get_mut("history") {
            let older = history.len().saturating_sub(limit as usize);
            history.drain(..older);
        }
    }
    let ty = proposal_if(&task, "Task", "proposal:Task");
    let mut answer = reply(id.as_str(), Transport::JsonRpc, ty, task);
    answer.of_pause = w.set_by_pause_timeout(&[w.status_since(ti, rec)]);
    vec![request(id, "GetTask", params), answer]
}

/// `GetTask` for [`NEVER_ISSUED_ID`], answered with `TaskNotFoundError`
/// (-32001), as a2a-sdk 1.3.0 answers an id its task store does not hold.
/// The JSON-RPC id is `get-unknown-task-N`, apart from [`get_task`]'s
/// `get-task-N` at the same state.
pub fn get_unknown_task(exp: &Experiment) -> Vec<WireMessage> {
    let id = format!("get-unknown-task-{}", next_seq(exp));
    vec![
        request(id.as_str(), "GetTask", obj!("id" => NEVER_ISSUED_ID)),
        error(id, TASK_NOT_FOUND, NEVER_ISSUED_ID),
    ]
}

/// The tasks a `ListTasks` page holds when the request names no `pageSize`
/// (a2a.proto `ListTasksRequest.page_size`).
pub const LIST_TASKS_PAGE_SIZE: usize = 50;

/// The `nextPageToken` of a first `ListTasks` page that is not the last: an
/// opaque cursor, as the agent chooses.
pub const LIST_TASKS_NEXT_PAGE: &str = "page-2";

/// `ListTasks` for the context. At the newest state of the viewed task (an
/// earlier task included: it is terminal, as it is now), every task of the
/// context as it is now. At an earlier recorded state, as of then, as every
/// on-demand request: the viewed task at that state, the tasks before it
/// (terminal by then) as they ended, none created later. Newest status
/// first. It asks for
/// no history (`historyLength` 0) and, by default, gets no artifacts. It
/// names no `pageSize`, so it gets the first page of
/// [`LIST_TASKS_PAGE_SIZE`] (a2a.proto's default): `nextPageToken` is "" when
/// that is all of them, else [`LIST_TASKS_NEXT_PAGE`]. The pause proposal is
/// in `enc`; the JSON-RPC id is `list-tasks-N`.
pub fn list_tasks(exp: &Experiment, start_ms: i64, enc: PauseEncoding) -> Vec<WireMessage> {
    let (w, n, viewed, rec) = on_demand(exp, start_ms, enc);
    let id = format!("list-tasks-{n}");
    let last = if exp.later_count() == 0 {
        exp.current_task_index()
    } else {
        viewed
    };
    let total = last + 1;
    // Newest status first: each task of a context starts after the one before
    // it has ended, so that is the reverse of their order.
    let listed: Vec<(usize, u32)> = exp.tasks()[..=last]
        .iter()
        .enumerate()
        .rev()
        .take(LIST_TASKS_PAGE_SIZE)
        .map(|(ti, t)| {
            let at = if ti == viewed {
                rec
            } else {
                t.records().last().map_or(rec, |r| r.id)
            };
            (ti, at)
        })
        .collect();
    let tasks: Vec<Value> = listed.iter().map(|&(ti, at)| w.task_at(ti, at)).collect();
    let set_at: Vec<u32> = listed
        .iter()
        .map(|&(ti, at)| w.status_since(ti, at))
        .collect();
    let ty = if tasks.iter().any(shows_pause) {
        "proposal:ListTasksResponse"
    } else {
        "ListTasksResponse"
    };
    let next = if total > LIST_TASKS_PAGE_SIZE {
        LIST_TASKS_NEXT_PAGE
    } else {
        ""
    };
    let result = obj!(
        "tasks" => tasks, "nextPageToken" => next,
        "pageSize" => LIST_TASKS_PAGE_SIZE, "totalSize" => total,
    );
    let mut answer = reply(id.as_str(), Transport::JsonRpc, ty, result);
    answer.of_pause = w.set_by_pause_timeout(&set_at);
    vec![
        request(
            id,
            "ListTasks",
            obj!("contextId" => exp.context_id(), "historyLength" => 0),
        ),
        answer,
    ]
}

/// Whether the agent closes a task's stream once the task is in `state`:
/// after a terminal state and after INPUT_REQUIRED (the client answers with
/// a new streaming message), not through AUTH_REQUIRED, whose authorization
/// comes out of band.
fn stream_ends_at(state: TaskState) -> bool {
    state.is_terminal() || state == TaskState::InputRequired
}

/// `SubscribeToTask` for the viewed task: the first frame (the `task`), or
/// `UnsupportedOperationError` (-32004) when the viewed state is terminal.
/// The stream stays open after that frame, at INPUT_REQUIRED too, until a
/// terminal state (the spec's rule for subscriptions; a2a-sdk 1.3.0 keeps
/// it open as long in one process): later frames reach it as they reach the task's stream.
/// The pause proposal is in `enc`; the JSON-RPC id is `subscribe-N`.
pub fn subscribe(exp: &Experiment, start_ms: i64, enc: PauseEncoding) -> Vec<WireMessage> {
    let (w, n, ti, rec) = on_demand(exp, start_ms, enc);
    let id = format!("subscribe-{n}");
    let tid = task_id(exp, ti);
    let answer = if exp.snapshot().state.is_terminal() {
        terminal_error(id.as_str(), tid, exp.snapshot().state)
    } else {
        let task = w.task_in_full(ti, rec, u32::MAX);
        let mut f = frame(id.as_str(), obj!("task" => task));
        f.of_pause = w.set_by_pause_timeout(&[w.status_since(ti, rec)]);
        f.payload_type = proposal_if(
            &f.message["result"]["task"],
            f.payload_type,
            "proposal:StreamResponse",
        );
        f
    };
    vec![request(id, "SubscribeToTask", obj!("id" => tid)), answer]
}

/// Where the simulated agent's card says it takes JSON-RPC requests.
pub const AGENT_URL: &str = "https://agent.example/a2a";

/// The HTTP request a client request travels in (JSON-RPC over HTTP): its
/// method and URL, then the headers, `A2A-Version: 1.0` first (v1.0 clients
/// MUST send it; an agent reads its absence as 0.3), and `A2A-Extensions`
/// when the client has activated the pause extension (a proposal): with
/// `extension_active` (see [`activates_pause_extension`]) on every request,
/// so that the agent may put a pause in the metadata of any stream or reply,
/// a pause it takes itself included; and on a request that uses it.
/// `None` for what the agent sends.
pub fn http_request(m: &WireMessage, extension_active: bool) -> Option<HttpHead> {
    if m.from != Party::Client {
        return None;
    }
    let method = m.message["method"].as_str()?;
    let accept = match method {
        "SendStreamingMessage" | "SubscribeToTask" => "text/event-stream",
        _ => "application/json",
    };
    let http = format!(
        "POST {AGENT_URL} · A2A-Version: 1.0 · Content-Type: application/json · Accept: {accept}"
    );
    let extensions = &m.message["params"]["message"]["extensions"];
    let uses = extensions
        .as_array()
        .is_some_and(|a| a.iter().any(|x| x == PAUSE_EXTENSION));
    Some(with_extension(http, extension_active || uses))
}

/// The head of an HTTP request or response, as one line of its start and
/// headers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpHead {
    /// The start line and headers, separated by ` · `.
    pub line: String,
    /// Whether `A2A-Extensions` names the pause extension (a proposal): the
    /// header alone makes the message the proposal's, not plain v1.0.
    pub pause_extension: bool,
}

/// `http` with the pause extension in `A2A-Extensions`, when `active`.
fn with_extension(http: String, active: bool) -> HttpHead {
    let line = if active {
        http + " · A2A-Extensions: " + PAUSE_EXTENSION
    } else {
        http
    };
    HttpHead {
        line,
        pause_extension: active,
    }
}

/// The HTTP response an agent's answer starts: a JSON-RPC response, error
/// or result (JSON-RPC says an error in its body, so the status is 200), or
/// the first frame of an SSE stream, the `task` every stream opens with;
/// with `extension_active`, echoing the activated extension in
/// `A2A-Extensions` as an agent SHOULD. `None` for a stream's later frames
/// and for what the client sends.
pub fn http_response(m: &WireMessage, extension_active: bool) -> Option<HttpHead> {
    if m.from != Party::Agent || m.message.get("method").is_some() {
        return None;
    }
    let content = match m.transport {
        Transport::JsonRpc => "application/json",
        Transport::Sse if m.message["result"].get("task").is_some() => "text/event-stream",
        Transport::Sse => return None,
    };
    Some(with_extension(
        format!("HTTP 200 OK · Content-Type: {content}"),
        extension_active,
    ))
}

/// Whether trace entry `t` of `exp` puts nothing on the wire: a tick (an
/// agent's second or minute that changes no state), unless it finishes a
/// unit whose chunk of the artifact the agent streams
/// ([`crate::model::Config::artifact_per_unit`]).
pub fn sends_nothing(exp: &Experiment, t: &TraceEntry) -> bool {
    let chunk = exp.config().artifact_per_unit
        && matches!(
            t.event,
            Event::Worked {
                unit_done: true,
                ..
            }
        );
    t.is_tick() && !chunk
}

/// The `data:` line a frame of an SSE stream travels in (one server-sent
/// event: that line, holding the JSON-RPC response on one line, then a
/// blank line), abridged to the member the frame carries (`statusUpdate`,
/// `artifactUpdate`, `task`). `None` for what is not a frame.
pub fn sse_event(m: &WireMessage) -> Option<String> {
    if m.transport != Transport::Sse || m.from != Party::Agent {
        return None;
    }
    let id = &m.message["id"];
    let member = m.message["result"]
        .as_object()
        .and_then(|r| r.keys().next())
        .map_or("…".to_string(), |k| format!("{{\"{k}\":…}}"));
    Some(format!(
        "data: {{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{member}}}"
    ))
}

/// Whether a client of an experiment activates the pause extension on every
/// request it sends: with the proposal on, in the v1.0 extension encoding
/// (an extension is active only when the client asks for it).
pub fn activates_pause_extension(pause_on: bool, enc: PauseEncoding) -> bool {
    pause_on && enc == PauseEncoding::V1Extension
}

/// The simulated agent's v1.0 `AgentCard`.
pub fn agent_card() -> Value {
    agent_card_in(false, PauseEncoding::ProposedCore)
}

/// The agent card; with `pause_on` it declares the pause proposal: the RFC's
/// `capabilities.supportsPause` / `supportsAwaitResumption` / `resumeCauses`
/// (proposed core), or the extension in `capabilities.extensions` (not
/// required; those flags as its `params`).
pub fn agent_card_in(pause_on: bool, enc: PauseEncoding) -> Value {
    let strings = |v: &[&str]| Value::from(v.to_vec());
    let mut card = obj!(
        "name" => "A2A Task Control Room agent",
        "description" => "A simulated A2A v1.0 agent: it works through N units of S seconds and, as configured, asks for clarification or authorization, fails, rejects the task or refuses cancellation.",
        "supportedInterfaces" => vec![obj!(
            "url" => AGENT_URL,
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
            "description" => "Runs the configured work units and returns one text artifact: whole when it completes or, as configured, a chunk as each unit finishes.",
            "tags" => strings(&["simulation", "task-lifecycle"]),
        )],
    );
    if pause_on {
        let causes = [
            ResumeCause::ExplicitResume,
            ResumeCause::ConditionFired,
            ResumeCause::Timeout,
        ];
        let flags = obj!(
            "supportsPause" => true, "supportsAwaitResumption" => true,
            "resumeCauses" => causes.map(ResumeCause::name).to_vec(),
        );
        let caps = &mut card["capabilities"];
        if enc == PauseEncoding::ProposedCore {
            for (k, v) in flags.as_object().into_iter().flatten() {
                caps[k] = v.clone();
            }
        } else {
            caps["extensions"] = vec![obj!(
                "uri" => PAUSE_EXTENSION,
                "description" => "Pause/resume (the TASK_STATE_PAUSED proposal, not A2A v1.0): the state stays TASK_STATE_WORKING; the pause travels in metadata under this URI, and PauseTask / ResumeTask travel as SendMessage with their params in the message's metadata under it.",
                "params" => flags,
            )]
            .into();
        }
    }
    card
}

/// One JSON line per message: `{"seq","from","transport","payloadType","message"}`,
/// and `"pauseProposal"` (`core` or `extension`) last on a line the pause
/// proposal has a part in (see [`pause_part`]): its JSON may be plain v1.0.
pub fn to_jsonl(messages: &[WireMessage]) -> String {
    let mut out = String::new();
    for (i, m) in messages.iter().enumerate() {
        let mut line = obj!(
            "seq" => i + 1, "from" => m.from.as_str(), "transport" => m.transport.as_str(),
            "payloadType" => m.payload_type, "message" => m.message.clone(),
        );
        if let Some(enc) = pause_part(m) {
            line["pauseProposal"] = Value::from(enc.as_str());
        }
        out += &line.to_string();
        out.push('\n');
    }
    out
}

/// Whether the pause proposal has a part in `m`, and in which encoding:
/// a `proposal:` payloadType, or plain v1.0 JSON that only the pause
/// lifecycle sends (see [`WireMessage::of_pause`]), in the RFC's core
/// encoding; plain v1.0 carrying the pause extension (in a message,
/// metadata, history or error detail) or answering its call, in the
/// extension's. `None`: A2A v1.0's alone. The Wire panel labels each line
/// by it, and the export marks each line with it (`pauseProposal`).
pub fn pause_part(m: &WireMessage) -> Option<PauseEncoding> {
    if m.payload_type.starts_with("proposal:") || m.of_pause == Some(PauseEncoding::ProposedCore) {
        Some(PauseEncoding::ProposedCore)
    } else if m.of_pause.is_some() || m.message.to_string().contains(PAUSE_EXTENSION) {
        Some(PauseEncoding::V1Extension)
    } else {
        None
    }
}

/// What the agent answered, from the last message of an on-demand request's
/// exchange: "the task, in TASK_STATE_WORKING", "a stream that opens with the
/// task, in …", "2 tasks: …, …", or the error's name and code.
pub fn answer(m: &WireMessage) -> String {
    let r = &m.message["result"];
    // Said as the page says states: the proposal's PAUSED labelled so.
    let state = |task: &Value| match task["status"]["state"].as_str() {
        Some(s) if s == TaskState::Paused.name() => TaskState::Paused.to_string(),
        s => s.unwrap_or("?").to_string(),
    };
    if let Some(error) = m.message["error"]["code"].as_i64().and_then(a2a_error) {
        format!("{} ({})", error.name, error.code)
    } else if let Some(task) = r.get("task") {
        format!("a stream that opens with the task, in {}", state(task))
    } else if let Some(tasks) = r["tasks"].as_array() {
        let states: Vec<String> = tasks.iter().map(state).collect();
        let s = if tasks.len() == 1 { "" } else { "s" };
        format!("{} task{s}: {}", tasks.len(), states.join(", "))
    } else {
        format!("the task, in {}", state(r))
    }
}

/// One friendly line, e.g. `agent → client (SSE): statusUpdate
/// TASK_STATE_INPUT_REQUIRED — “Please clarify …”`.
pub fn explain(m: &WireMessage) -> String {
    let v = &m.message;
    let quote = |s: &Value| {
        s.as_str().map_or(String::new(), |t| {
            format!(" — “{}”", crate::model::isolated(t))
        })
    };
    let state = |s: &Value| s["status"]["state"].as_str().unwrap_or("?").to_string();
    let what = if let Some(method) = v["method"].as_str() {
        let p = &v["params"];
        let q = if p.get("message").is_some() {
            &p["message"]["parts"][0]["text"]
        } else {
            &p["reason"]
        };
        // The id that ties the request to a task: a message continuing a
        // task names it in taskId, a follow-up in referenceTaskIds.
        let msg = &p["message"];
        let tied = [
            ("taskId", &msg["taskId"]),
            ("referenceTaskIds", &msg["referenceTaskIds"][0]),
            ("id", &p["id"]),
        ]
        .into_iter()
        .find_map(|(field, id)| Some(format!(" ({field} {}…)", short_id(id.as_str()?))))
        .unwrap_or_default();
        method.to_string() + &tied + &quote(q)
    } else if let Some(err) = v.get("error") {
        let known = err["code"].as_i64().and_then(a2a_error);
        let name = known.map_or("error", |e| e.name);
        // The proposal names its errors' codes alone.
        let whose = match known {
            Some(e) if e.domain == SIMULATOR_DOMAIN => {
                " (the proposal gives only the code: the name, message and reason are this simulator's)"
            }
            _ => "",
        };
        format!(
            "error {} {name}{}{whose}",
            err["code"],
            quote(&err["message"])
        )
    } else {
        let r = &v["result"];
        if let Some(u) = r.get("statusUpdate") {
            let text = quote(&u["status"]["message"]["parts"][0]["text"]);
            let m = &u["metadata"];
            let m = m.get(PAUSE_EXTENSION).unwrap_or(m);
            let note = if m.get("pause").is_some() {
                " (paused)"
            } else if let Some(c) = m["cause"].as_str() {
                match c {
                    "explicit_resume" => " (resumed by ResumeTask)",
                    "condition_fired" => " (resumed: its event fired)",
                    "timeout" => " (resumed: its timeout)",
                    _ => " (resumed)",
                }
            } else {
                ""
            };
            format!("statusUpdate {}{note}{text}", state(u))
        } else if let Some(a) = r.get("artifactUpdate") {
            let last = match (a["append"] == true, a["lastChunk"] == true) {
                (false, false) => " (first chunk)",
                (true, false) => " (appended chunk)",
                (false, true) => " (last chunk)",
                (true, true) => " (appended, last chunk)",
            };
            format!(
                "artifactUpdate {}{last}",
                a["artifact"]["artifactId"].as_str().unwrap_or("?")
            )
        } else if let Some(t) = r.get("task") {
            format!("task {}", state(t))
        } else if let Some(tasks) = r["tasks"].as_array() {
            let states: Vec<&str> = tasks
                .iter()
                .map(|t| t["status"]["state"].as_str().unwrap_or("?"))
                .collect();
            let more = match r["totalSize"].as_u64() {
                Some(total) if total > tasks.len() as u64 => {
                    format!(" (of {total}; the rest on later pages)")
                }
                _ => String::new(),
            };
            format!(
                "ListTasks result: {}{more} — {}",
                tasks.len(),
                states.join(", ")
            )
        } else if let Some(s) = r["state"].as_str() {
            // PauseTaskResponse or AwaitTaskResumptionResponse (proposal).
            let call = m.payload_type.trim_start_matches("proposal:");
            format!("{} result {s}", call.trim_end_matches("Response"))
        } else {
            format!("Task {}", state(r))
        }
    };
    let dir = match m.from {
        Party::Client => "client → agent",
        Party::Agent => "agent → client",
    };
    let proposal = match pause_part(m) {
        Some(PauseEncoding::ProposedCore) => ", proposal",
        Some(PauseEncoding::V1Extension) => ", pause extension, a proposal",
        None => "",
    };
    // Said before what it carries: a long status message may be cut where
    // the heading has two lines.
    let closes = if m.closes_stream {
        ", the stream's last frame"
    } else {
        ""
    };
    format!("{dir} ({}{proposal}{closes}): {what}", m.transport.label())
}

// ---- internals -------------------------------------------------------------

/// The `messageId` of the client's message at trace entry `seq`, unique
/// beyond this context (see the module docs). The client makes it from its
/// own id: its first message goes out before any context id exists.
fn user_message_id(exp: &Experiment, seq: u32) -> String {
    format!("msg-{seq}-user-{}", exp.client_id())
}

/// The `messageId` of the agent's message at trace entry `seq`, made from
/// the context id the agent created.
fn agent_message_id(exp: &Experiment, seq: u32) -> String {
    format!("msg-{seq}-agent-{}", exp.context_id())
}

/// The state carried along the trace: entry times and the open stream.
struct Walk<'a> {
    exp: &'a Experiment,
    enc: PauseEncoding,
    start_ms: i64,
    /// Seconds before each task's clock: the earlier tasks' active and
    /// waiting time (waiting time exists only with the pause proposal).
    base_s: Vec<i64>,
    /// `(seq, ms)` of every entry walked, in trace (= seq) order.
    times: Vec<(u32, i64)>,
    /// JSON-RPC id of the open SSE stream.
    stream: Option<u32>,
    /// In the extension: the accepted PauseTask and ResumeTask calls that
    /// changed nothing, found once per walk for the tasks' histories.
    no_op_calls: Vec<&'a TraceEntry>,
    /// By task: how many of its records [`Walk::message_records`] has read,
    /// and the ids of those that may put a message in its history.
    said: std::cell::RefCell<Vec<(usize, Vec<u32>)>>,
}

impl<'a> Walk<'a> {
    fn new(exp: &'a Experiment, start_ms: i64, enc: PauseEncoding) -> Self {
        let mut acc = 0;
        let base_s = exp
            .tasks()
            .iter()
            .map(|t| {
                let b = acc;
                let s = t.latest().snap;
                acc += i64::from(s.active_s + s.waiting_s);
                b
            })
            .collect();
        Walk {
            exp,
            enc,
            start_ms,
            base_s,
            times: Vec::with_capacity(exp.trace().len()),
            stream: None,
            said: Default::default(),
            no_op_calls: match enc {
                PauseEncoding::ProposedCore => Vec::new(),
                PauseEncoding::V1Extension => exp
                    .trace()
                    .iter()
                    .filter(|e| {
                        matches!(e.outcome, Outcome::Unchanged(_))
                            && matches!(
                                e.event,
                                Event::PauseRequested { .. } | Event::ResumeRequested { .. }
                            )
                    })
                    .collect(),
            },
        }
    }

    fn time(&self, seq: u32) -> i64 {
        match self.times.binary_search_by_key(&seq, |x| x.0) {
            Ok(i) => self.times[i].1,
            Err(_) => self.start_ms,
        }
    }

    /// The encoding of the pause proposal when a task status set at one of
    /// the recorded states `at` (see [`Walk::status_since`]) was set by a
    /// pause's timeout (a task the
    /// proposal's self-park failed, or resumed): an answer carrying it is
    /// the proposal's, though its shapes are plain v1.0.
    fn set_by_pause_timeout(&self, at: &[u32]) -> Option<PauseEncoding> {
        at.iter()
            .any(|&seq| {
                self.exp
                    .trace_entry(seq)
                    .is_some_and(|e| e.event == Event::TimedOut)
            })
            .then_some(self.enc)
    }

    /// Walks one entry; returns its messages when `build` is set.
    fn entry(&mut self, e: &TraceEntry, build: bool) -> Vec<WireMessage> {
        let mut own = self.start_ms.saturating_add(
            1000 * (self.base_s[e.task as usize] + i64::from(e.active_s + e.waiting_s)),
        );
        // A timeout fires when the lease the agent announced ends, not before.
        if e.event == Event::TimedOut {
            let records = self.exp.tasks()[e.task as usize].records();
            let before = records[..records.partition_point(|r| r.id < e.seq)].last();
            if let Some(until) = before.and_then(|r| self.paused_until(e.task as usize, r.id)) {
                own = own.max(until);
            }
        }
        let t = self
            .times
            .last()
            .map_or(own, |&(_, last)| own.max(last.saturating_add(1)));
        self.times.push((e.seq, t));
        let open = self.stream;
        let done = e.outcome == Outcome::Done;
        match e.event {
            Event::Created { .. } | Event::Clarified if done => self.stream = Some(e.seq),
            _ if done && stream_ends_at(e.after) => self.stream = None,
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
                out.push(match e.event {
                    _ if !done => terminal_error(seq, tid, e.after),
                    Event::Clarified => frame(seq, obj!("task" => self.clarified(ti, e))),
                    _ => frame(seq, obj!("task" => self.task_in_full(ti, seq, seq))),
                });
                // The move back to WORKING is the agent's event, as any other:
                // a subscription opened at INPUT_REQUIRED receives it too.
                if done && e.event == Event::Clarified {
                    out.push(frame(seq, self.status_update(ti, seq)));
                }
            }
            Event::CancelRequested if done => {
                out.push(request(seq, "CancelTask", obj!("id" => tid)));
                out.push(reply(
                    seq,
                    Transport::JsonRpc,
                    "Task",
                    self.task_in_full(ti, seq, seq),
                ));
                if open.is_some() {
                    out.push(frame(sid, self.status_update(ti, seq)));
                }
            }
            Event::CancelRequested if refused(TASK_NOT_CANCELABLE) => {
                out.push(request(seq, "CancelTask", obj!("id" => tid)));
                // a2a-python's words (its request handler's
                // TaskNotCancelableError): the state the task stays in.
                let mut m = error(seq, TASK_NOT_CANCELABLE, tid);
                let state = self.status(seq)["state"].take();
                m.message["error"]["message"] = format!(
                    "{} - current state: {}",
                    error_text(TASK_NOT_CANCELABLE).message,
                    state.as_str().unwrap_or_default()
                )
                .into();
                // Its words name the proposal's PAUSED (core encoding only).
                if state == TaskState::Paused.name() {
                    m.payload_type = "proposal:error";
                }
                out.push(m);
            }
            Event::Worked { .. } | Event::CompletedAfterResume
                if done && e.after == TaskState::Completed =>
            {
                out.extend(self.artifact_update(ti, e).map(|u| frame(sid, u)));
                out.push(frame(sid, self.status_update(ti, seq)));
            }
            // A unit's chunk, when the agent streams the result unit by unit.
            Event::Worked {
                unit_done: true, ..
            } if done => out.extend(self.artifact_update(ti, e).map(|u| frame(sid, u))),
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
            Event::PauseRequested { .. } | Event::ResumeRequested { .. } if e.outcome.on_wire() => {
                out = self.client_proposal(e, open.is_some(), sid);
            }
            Event::SelfParked { .. } if done && self.core() => {
                out.extend(self.await_resumption(ti, seq));
                out.push(self.pframe(sid, self.status_update(ti, seq)))
            }
            Event::PauseTookEffect { .. } | Event::SelfParked { .. } if done => {
                out.push(self.pframe(sid, self.status_update(ti, seq)))
            }
            Event::EventFired | Event::TimedOut if done && e.after == TaskState::Working => {
                let cause = if e.event == Event::EventFired {
                    ResumeCause::ConditionFired
                } else {
                    ResumeCause::Timeout
                };
                out.push(self.pframe(sid, self.resumed(ti, seq, cause, false, true)))
            }
            Event::TimedOut if done => out.push(frame(sid, self.status_update(ti, seq))),
            _ => {}
        }
        // The pause proposal's, in plain v1.0 shapes or not (see `of_pause`).
        let of_pause = match e.event {
            Event::PauseRequested { .. } | Event::ResumeRequested { .. } => true,
            Event::TimedOut | Event::CompletedAfterResume => true,
            Event::CancelRequested => e.before == Some(TaskState::Paused),
            _ => false,
        };
        for m in &mut out {
            m.entry = Some(seq);
            if of_pause {
                m.of_pause = Some(self.enc);
            }
        }
        if open.is_some() && self.stream.is_none() {
            let last = out.iter_mut().rev().find(|m| m.transport == Transport::Sse);
            if let Some(m) = last {
                m.closes_stream = true;
            }
        }
        out
    }

    /// The task `ti` at its recorded state `rec` (a trace seq).
    fn task_at(&self, ti: usize, rec: u32) -> Value {
        let task = obj!(
            "id" => task_id(self.exp, ti),
            "contextId" => self.exp.context_id(),
            "status" => self.status(self.status_since(ti, rec)),
        );
        self.with_pause(task, ti, rec)
    }

    /// The task at its recorded state `rec` as a store of it answers (GetTask,
    /// CancelTask, the `task` that opens a stream, the `Task` a PauseTask or
    /// ResumeTask returns): [`Walk::task_at`], its
    /// artifact when completed, and its `history`. The history holds its
    /// messages up to `rec`, sent by trace entry `upto`: the client's, in the extension its accepted
    /// PauseTask (a repeated one too) and ResumeTask messages, and the agent's once a later status
    /// replaces the one that carries it (the current status message is in
    /// `status` only, as a2a-sdk's task store keeps it).
    fn task_in_full(&self, ti: usize, rec: u32, upto: u32) -> Value {
        self.task_answered(ti, rec, Some(upto))
    }

    /// [`Walk::task_in_full`], without its `history` when `upto` is `None`:
    /// the client asked for none (`historyLength` 0).
    fn task_answered(&self, ti: usize, rec: u32, upto: Option<u32>) -> Value {
        let mut task = self.task_at(ti, rec);
        if let Some(a) = self.artifact_at(ti, rec) {
            task["artifacts"] = vec![a].into();
        }
        if let Some(upto) = upto {
            task["history"] = self.history(ti, rec, upto).into();
        }
        // The pause's `metadata` (field 6) after `artifacts` and `history`,
        // in the proto's field order, as a ProtoJSON writer prints them.
        if let Some(o) = task.as_object_mut() {
            if let Some(m) = o.shift_remove("metadata") {
                o.insert("metadata".into(), m);
            }
        }
        task
    }

    /// The `history` of task `ti` at its recorded state `rec`, sent by trace
    /// entry `upto` (see [`Walk::task_in_full`]).
    fn history(&self, ti: usize, rec: u32, upto: u32) -> Vec<Value> {
        let current = self.status_since(ti, rec);
        let records = self.exp.tasks()[ti].records();
        let kept = |at: u32| at <= rec && records.binary_search_by_key(&at, |r| r.id).is_ok();
        let mut entries: Vec<&TraceEntry> = self
            .message_records(ti, rec)
            .into_iter()
            .filter_map(|id| self.exp.trace_entry(id))
            .collect();
        // In the extension, an accepted PauseTask that changed nothing (the
        // task already paused) is a message all the same: kept with the
        // others sent from the states up to `rec`, by entry `upto` (the one
        // answered), in the run's order (not one tried on an earlier state,
        // unless it is the one answered).
        if !self.core() {
            entries.extend(self.no_op_calls.iter().copied().filter(|e| {
                usize::from(e.task) == ti
                    && e.seq <= upto
                    && kept(e.at)
                    && (e.seq == upto || !self.exp.tried_on_earlier_state(e))
                    && self.proposal_call(e).is_some()
            }));
            entries.sort_by_key(|e| e.seq);
        }
        entries
            .into_iter()
            .filter_map(|e| {
                (self.client_message(e, true))
                    .or_else(|| self.kept_call(e))
                    .or_else(|| (e.seq != current).then(|| self.agent_message(e)).flatten())
            })
            .collect()
    }

    /// The ids of task `ti`'s records up to `rec` whose entries may put a
    /// message in its history (see [`Walk::history`]). Found once per walk:
    /// a run of many pauses and resumes answers with its history again and
    /// again.
    fn message_records(&self, ti: usize, rec: u32) -> Vec<u32> {
        let records = self.exp.tasks()[ti].records();
        let mut said = self.said.borrow_mut();
        if said.len() <= ti {
            said.resize_with(ti + 1, Default::default);
        }
        let (scanned, ids) = &mut said[ti];
        let end = records.partition_point(|r| r.id <= rec);
        for r in records.get(*scanned..end).unwrap_or_default() {
            let e = self.exp.trace_entry(r.id);
            if e.is_some_and(|e| {
                self.client_message(e, true).is_some()
                    || self.kept_call(e).is_some()
                    || self.agent_message(e).is_some()
            }) {
                ids.push(r.id);
            }
        }
        *scanned = (*scanned).max(end);
        ids[..ids.partition_point(|&id| id <= rec)].to_vec()
    }

    /// The `task` that opens a clarification's stream: the task as the agent
    /// stores the clarification `e` on receiving it, as a2a-sdk 1.3.0's task
    /// manager does: still INPUT_REQUIRED, its question moved from `status`
    /// to `history`, the clarification after it. The WORKING `statusUpdate`
    /// follows, as creation's SUBMITTED `task` is followed by one.
    fn clarified(&self, ti: usize, e: &TraceEntry) -> Value {
        let records = self.exp.tasks()[ti].records();
        let before = records[..records.partition_point(|r| r.id < e.seq)].last();
        let Some(before) = before else {
            return self.task_in_full(ti, e.seq, e.seq);
        };
        let mut task = self.task_in_full(ti, before.id, e.seq);
        let question = task["status"]
            .as_object_mut()
            .and_then(|s| s.shift_remove("message"));
        if let Some(h) = task["history"].as_array_mut() {
            h.extend(question);
            h.extend(self.client_message(e, true));
        }
        task
    }

    /// The recorded state whose status the task of `rec` still has: the
    /// last one up to `rec` that changed its state or pause. Worked and
    /// waited seconds, and a pause still pending, send no status, so they
    /// do not move `TaskStatus.timestamp`.
    fn status_since(&self, ti: usize, rec: u32) -> u32 {
        let records = self.exp.tasks()[ti].records();
        let token = |i: usize| records[i].snap.pause.map(|p| p.token);
        let Ok(mut i) = records.binary_search_by_key(&rec, |r| r.id) else {
            return rec;
        };
        while i > 0
            && records[i].snap.state == records[i - 1].snap.state
            && token(i) == token(i - 1)
        {
            i -= 1;
        }
        records[i].id
    }

    fn status_update(&self, ti: usize, rec: u32) -> Value {
        let update = obj!(
            "taskId" => task_id(self.exp, ti),
            "contextId" => self.exp.context_id(),
            "status" => self.status(rec),
        );
        obj!("statusUpdate" => self.with_pause(update, ti, rec))
    }

    fn core(&self) -> bool {
        self.enc == PauseEncoding::ProposedCore
    }

    /// The `TaskStatus` of the recorded state made by trace entry `rec`.
    /// Its members in the proto's field order, as a ProtoJSON writer prints
    /// them: `state`, `message`, `timestamp`.
    fn status(&self, rec: u32) -> Value {
        let mut s = obj!();
        if let Some(e) = self.exp.trace_entry(rec) {
            let state = match e.after {
                TaskState::Paused if !self.core() => TaskState::Working,
                s => s,
            };
            s["state"] = state.name().into();
            if let Some(m) = self.agent_message(e) {
                s["message"] = m;
            }
        }
        s["timestamp"] = timestamp(self.time(rec)).into();
        s
    }

    /// The agent's status message explaining INPUT_REQUIRED, AUTH_REQUIRED,
    /// FAILED or REJECTED, made by entry `e`.
    fn agent_message(&self, e: &TraceEntry) -> Option<Value> {
        let n = self.exp.config().work_units;
        let text = match e.event {
            Event::AskedInput { unit } => asked_input(unit, n),
            Event::AskedAuth { unit } => asked_auth(unit, n),
            // Streamed unit by unit, the units done before it keep their chunks.
            Event::Failed { unit, second } => match unit - 1 {
                1 if self.exp.config().artifact_per_unit => format!(
                    "Unit {unit} failed at its second {second}; the task has no final result, and keeps the chunk of unit 1, done before it."
                ),
                done @ 2.. if self.exp.config().artifact_per_unit => format!(
                    "Unit {unit} failed at its second {second}; the task has no final result, and keeps the chunks of the {done} units done before it."
                ),
                _ => format!("Unit {unit} failed at its second {second}; the task has no result."),
            },
            Event::Rejected => "The agent rejected the task before doing any work.".into(),
            Event::TimedOut if e.after == TaskState::Failed => format!(
                "The self-park timed out after {}; the task failed.",
                self.exp.config().timeout_words().unwrap_or_default()
            ),
            _ => return None,
        };
        Some(obj!(
            "messageId" => agent_message_id(self.exp, e.seq), "contextId" => self.exp.context_id(),
            "taskId" => task_id(self.exp, e.task as usize), "role" => "ROLE_AGENT",
            "parts" => text_parts(&text),
        ))
    }

    /// The client's message of a creation or clarification entry, as sent
    /// (or, `stored`, as kept in the task's history: with both ids).
    fn client_message(&self, e: &TraceEntry, stored: bool) -> Option<Value> {
        let exp = self.exp;
        let task = &exp.tasks()[e.task as usize];
        let c = exp.config();
        let (units, s) = (c.units(), c.seconds_per_unit);
        let text = match e.event {
            Event::Created { .. } if task.reference_task_id.is_some() => {
                format!("Follow-up to the earlier task: run {units} of {s} s each.")
            }
            Event::Created { .. } => format!("Run {units} of {s} s each."),
            Event::Clarified => {
                let rec = task.records().iter().find(|r| r.id == e.seq);
                let text = rec.and_then(|r| exp.clarification(&r.snap));
                let sent = match exp.sent(e.seq) {
                    Some(Action::SupplyClarification(t)) => Some(t.as_str()),
                    _ => None,
                };
                text.or(sent).unwrap_or_default().to_string()
            }
            _ => return None,
        };
        // In the proto's field order, as a ProtoJSON writer prints them.
        let mut m = obj!("messageId" => user_message_id(exp, e.seq));
        if stored || e.event == Event::Clarified || task.reference_task_id.is_some() {
            m["contextId"] = exp.context_id().into();
        }
        if stored || e.event == Event::Clarified {
            m["taskId"] = task.id.as_str().into();
        }
        m["role"] = "ROLE_USER".into();
        m["parts"] = text_parts(&text);
        if let (Event::Created { .. }, Some(r)) = (e.event, &task.reference_task_id) {
            m["referenceTaskIds"] = vec![r.as_str()].into();
        }
        Some(m)
    }

    /// The snapshot of the recorded state `rec` of task `ti`.
    fn snap(&self, ti: usize, rec: u32) -> Option<&'a Snapshot> {
        let r = self.exp.tasks()[ti].records();
        let i = r.binary_search_by_key(&rec, |r| r.id).ok()?;
        Some(&r[i].snap)
    }

    /// A Task or statusUpdate of the state `rec` with the pause it is in:
    /// `status.pause`, or `metadata` under the extension URI.
    fn with_pause(&self, mut v: Value, ti: usize, rec: u32) -> Value {
        if let Some(p) = self.pause(ti, rec) {
            if self.core() {
                v["status"]["pause"] = p;
            } else {
                v["metadata"] = ext(obj!("pause" => p));
            }
        }
        v
    }

    /// The proposed `TaskPause` of the recorded state `rec`, if it is paused.
    fn pause(&self, ti: usize, rec: u32) -> Option<Value> {
        let (exp, s) = (self.exp, self.snap(ti, rec)?);
        let (p, c) = (s.pause?, exp.config());
        let at = self.time(self.pause_start(ti, rec, p.token).unwrap_or(rec));
        let agent = p.by == Initiator::Agent;
        let by = if agent { "AGENT" } else { "CLIENT" };
        let mut v = obj!("initiatedBy" => format!("PAUSE_INITIATOR_{by}"));
        if let Some(reason) = exp.pause_reason_of(s) {
            v["reason"] = reason.into();
        }
        v["pausedAt"] = timestamp(at).into();
        if let Some(until) = self.paused_until(ti, rec) {
            v["pausedUntil"] = timestamp(until).into();
        }
        let minutes = p.timeout_minutes();
        v["resumeToken"] = p
            .token
            .and_then(|t| text(exp, t))
            .unwrap_or_default()
            .into();
        v["resumable"] = true.into();
        if agent {
            let mut cond = obj!();
            if p.event {
                cond["onEvent"] = c.resume_event.as_str().into();
            }
            if let Some(m) = minutes {
                cond["timeout"] = obj!("durationMinutes" => m, "onTimeout" => c.on_timeout.name());
            }
            if p.event || minutes.is_some() {
                v["conditions"] = cond;
            }
            // How it comes back to WORKING: a timeout that fails the task
            // resumes nothing, so then only the client's ResumeTask does.
            let resumes = c.on_timeout == OnTimeout::ResumeWithSummary;
            let mode = match (p.event, minutes) {
                (true, _) => "EXTERNAL_EVENT",
                (false, Some(_)) if resumes => "TIMEOUT",
                _ => "CLIENT_MESSAGE",
            };
            v["resumeMode"] = format!("RESUME_MODE_{mode}").into();
        }
        Some(v)
    }

    /// When the lease of the pause at recorded state `rec` ends (ms): its
    /// `pausedAt` plus its timeout, exactly. Its timeout fires then.
    fn paused_until(&self, ti: usize, rec: u32) -> Option<i64> {
        let p = self.snap(ti, rec)?.pause?;
        let d = p.deadline_s?;
        Some(self.time(self.pause_start(ti, rec, p.token)?) + 1000 * i64::from(d - p.since_s))
    }

    /// The recorded state where the pause with this token, in place at
    /// `rec`, began: found from `rec` back, as a pause's states follow one
    /// another (a run of many pauses asks again and again).
    fn pause_start(&self, ti: usize, rec: u32, token: Option<u32>) -> Option<u32> {
        token?;
        let records = self.exp.tasks()[ti].records();
        let carries = |i: usize| records[i].snap.pause.is_some_and(|q| q.token == token);
        let mut i = records.partition_point(|r| r.id <= rec);
        let mut start = None;
        while i > 0 && carries(i - 1) {
            i -= 1;
            start = Some(records[i].id);
        }
        start.or_else(|| {
            (0..records.len())
                .find(|&i| carries(i))
                .map(|i| records[i].id)
        })
    }

    /// The resumed `statusUpdate` of entry `seq`, with the RFC's metadata.
    /// The extension leaves out `previousState`: on its wire the task was
    /// WORKING throughout, and the pause gone from `metadata` says it resumed.
    fn resumed(&self, ti: usize, seq: u32, cause: ResumeCause, input: bool, cont: bool) -> Value {
        let mut meta = obj!(
            "cause" => cause.name(),
            "hadResumeInput" => input, "continueTranscript" => cont,
            "resumedAt" => timestamp(self.time(seq)),
        );
        let mut u = self.status_update(ti, seq);
        u["statusUpdate"]["metadata"] = if self.core() {
            meta["previousState"] = "TASK_STATE_PAUSED".into();
            meta
        } else {
            ext(meta)
        };
        u
    }

    /// An SSE frame carrying a proposal shape (plain in the extension).
    fn pframe(&self, id: u32, result: Value) -> WireMessage {
        let mut m = frame(id, result);
        if self.core() {
            m.payload_type = "proposal:StreamResponse";
        }
        m
    }

    /// The RFC's `AwaitTaskResumption` (peer → client) for a self-park at
    /// recorded state `seq`, and its answer with the pause. Its JSON-RPC id is
    /// the agent's own (ids are matched per sender), the trace seq.
    fn await_resumption(&self, ti: usize, seq: u32) -> Vec<WireMessage> {
        let task = self.task_at(ti, seq);
        let pause = &task["status"]["pause"];
        let tid = task_id(self.exp, ti);
        let mut params = obj!("taskId" => tid, "reason" => pause["reason"].clone());
        if let Some(c) = pause.get("conditions") {
            params["conditions"] = c.clone();
        }
        params["summary"] = format!(
            "Paused before unit {} of {}.",
            self.snap(ti, seq).map_or(0, |s| s.completed_units + 1),
            self.exp.config().work_units
        )
        .into();
        let ask = call(
            seq,
            Party::Agent,
            "proposal:AwaitTaskResumptionRequest",
            "AwaitTaskResumption",
            params,
        );
        let result = obj!(
            "taskId" => tid, "state" => "TASK_STATE_PAUSED", "pause" => pause.clone(),
        );
        let answer = envelope(
            seq,
            Party::Client,
            Transport::JsonRpc,
            "proposal:AwaitTaskResumptionResponse",
            "result",
            result,
        );
        vec![ask, answer]
    }

    /// PauseTask or ResumeTask (recorded, idempotent or refused with a code):
    /// the request, its answer and, when it paused or resumed the task, the
    /// `statusUpdate` on the open stream `sid`.
    fn client_proposal(&self, e: &TraceEntry, open: bool, sid: u32) -> Vec<WireMessage> {
        let (exp, ti, seq) = (self.exp, e.task as usize, e.seq);
        let tid = task_id(exp, ti);
        let done = e.outcome == Outcome::Done;
        let code = match e.outcome {
            Outcome::Refused(r) => r.code(),
            _ => None,
        };
        let rec = if done { seq } else { e.at };
        let Some(call) = self.proposal_call(e) else {
            return Vec::new();
        };
        let (method, resume) = (call.method, call.resume);
        let mut out = vec![if self.core() {
            let mut m = request(seq, method, call.params);
            m.payload_type = if resume.is_some() {
                "proposal:ResumeTaskRequest"
            } else {
                "proposal:PauseTaskRequest"
            };
            m
        } else {
            // Non-blocking: a task paused through metadata stays WORKING, so a
            // blocking SendMessage would not be answered until the task ends.
            // With no history: each pause and resume is a message the task
            // keeps, so every answer would repeat all those before it.
            request(
                seq,
                "SendMessage",
                obj!(
                    "message" => self.ext_message(e, call),
                    "configuration" => obj!("historyLength" => 0, "returnImmediately" => true),
                ),
            )
        }];
        if let Some(code) = code {
            let mut m = error(seq, code, tid);
            if !self.core() {
                // A plain SendMessage: refused at a terminal task as any
                // message is, otherwise with the v1.0 code for the proposed one.
                m = if e.after.is_terminal() {
                    terminal_error(seq, tid, e.after)
                } else {
                    // In the proposed code's words: the v1.0 code's own
                    // ("This operation is not supported") would hide that
                    // the task's state or the token refused it.
                    let mut m = error(seq, extension_code(code), tid);
                    m.message["error"]["message"] = error_text(code).message.into();
                    m
                };
                // One ErrorInfo per error (AIP-193): the proposal's reason
                // and code go in the metadata of the A2A one.
                if let Some(meta) = m.message["error"]["data"][0]["metadata"].as_object_mut() {
                    meta.insert("extension".into(), PAUSE_EXTENSION.into());
                    meta.insert("proposedReason".into(), error_text(code).reason.into());
                    meta.insert("proposedCode".into(), code.to_string().into());
                }
            }
            out.push(m);
            return out;
        }
        // The extension's client asks for no history (above); PauseTask's
        // answer in the proposed core reads only the status.
        let task = match (self.core(), resume.is_some()) {
            (true, true) => self.task_in_full(ti, rec, seq),
            (true, false) => self.task_at(ti, rec),
            (false, _) => self.task_answered(ti, rec, None),
        };
        out.push(if !self.core() {
            reply(
                seq,
                Transport::JsonRpc,
                "SendMessageResponse",
                obj!("task" => task),
            )
        } else if resume.is_some() {
            reply(seq, Transport::JsonRpc, "proposal:Task", task)
        } else {
            let status = &task["status"];
            let mut r = obj!("taskId" => tid, "state" => status["state"].clone());
            if let Some(p) = status.get("pause") {
                r["pause"] = p.clone();
            }
            reply(seq, Transport::JsonRpc, "proposal:PauseTaskResponse", r)
        });
        if done && open {
            out.push(match resume {
                Some((input, cont)) => {
                    let u = self.resumed(ti, seq, ResumeCause::ExplicitResume, input, cont);
                    self.pframe(sid, u)
                }
                None if e.after == TaskState::Paused => {
                    self.pframe(sid, self.status_update(ti, seq))
                }
                None => return out,
            });
        }
        out
    }

    /// The PauseTask or ResumeTask call of entry `e`: its method, its params
    /// (the texts as sent, or as the model kept them for an accepted one), the
    /// words of the extension's message, and, for a resume, its
    /// `(hadResumeInput, continueTranscript)`.
    fn proposal_call(&self, e: &TraceEntry) -> Option<ProposalCall> {
        let (exp, ti, seq) = (self.exp, e.task as usize, e.seq);
        let done = e.outcome == Outcome::Done;
        let rec = if done { seq } else { e.at };
        let snap = self.snap(ti, rec);
        let mut params = obj!("taskId" => task_id(exp, ti));
        let (method, words, resume) = match e.event {
            Event::PauseRequested { mode } => {
                let reason = match exp.sent(seq) {
                    Some(Action::PauseTask { reason, .. }) => Some(reason.as_str()),
                    _ => snap
                        .filter(|_| done)
                        .and_then(|s| {
                            s.pause
                                .and_then(|p| p.reason)
                                .or(s.pending.map(|p| p.reason))
                        })
                        .and_then(|i| text(exp, i)),
                };
                let reason = reason.filter(|r| !r.is_empty());
                if let Some(r) = reason {
                    params["reason"] = r.into();
                }
                params["mode"] = mode.name().into();
                let why =
                    reason.map_or(String::new(), |r| format!(": {}", r.trim_end_matches('.')));
                let words = format!("Pause this task ({}){why}.", mode.name());
                ("PauseTask", words, None)
            }
            Event::ResumeRequested {
                had_input,
                continue_transcript,
            } => {
                // The token and input given: a refused request's as sent;
                // an accepted one's, the pause's token and the input kept.
                let (token, input) = match exp.sent(seq) {
                    Some(Action::ResumeTask { token, input, .. }) => {
                        (Some(token.as_str()), input.as_deref())
                    }
                    _ => {
                        let records = exp.tasks()[ti].records().iter().rev();
                        let last = records.filter(|r| r.id < seq).find_map(|r| r.snap.pause);
                        let token = last.and_then(|p| text(exp, p.token?));
                        (
                            token,
                            snap.and_then(|s| exp.resume_input(s)).filter(|_| had_input),
                        )
                    }
                };
                params["resumeToken"] = token.unwrap_or_default().into();
                if let Some(i) = input {
                    params["input"] = i.into();
                }
                params["continueTranscript"] = continue_transcript.into();
                let words = input.map_or("Resume this task.".into(), |i| {
                    format!("Resume this task with this input: {i}")
                });
                let r = Some((had_input, continue_transcript));
                ("ResumeTask", words, r)
            }
            _ => return None,
        };
        Some(ProposalCall {
            method,
            words,
            params,
            resume,
        })
    }

    /// In the extension, the message of an accepted PauseTask or ResumeTask,
    /// which the task's history keeps like any other (the proposed core's
    /// calls are methods, not messages).
    fn kept_call(&self, e: &TraceEntry) -> Option<Value> {
        if self.core() {
            return None;
        }
        self.proposal_call(e).map(|c| self.ext_message(e, c))
    }

    /// The v1.0 extension's `Message` carrying a PauseTask or ResumeTask call
    /// (as sent, and as the task's history keeps it).
    fn ext_message(&self, e: &TraceEntry, call: ProposalCall) -> Value {
        obj!(
            "messageId" => user_message_id(self.exp, e.seq), "contextId" => self.exp.context_id(),
            "taskId" => task_id(self.exp, e.task as usize), "role" => "ROLE_USER",
            "parts" => text_parts(&call.words),
            "metadata" => ext(obj!("method" => call.method, "params" => call.params)),
            "extensions" => vec![PAUSE_EXTENSION],
        )
    }

    /// The `artifactUpdate` trace entry `e` of task `ti` streams, if any:
    /// the parts of the artifact at its state that the state before it did
    /// not have, marked `append` when some came before, and `lastChunk` at
    /// completion. (Off [`crate::model::Config::artifact_per_unit`], the one chunk at
    /// completion, whole.)
    fn artifact_update(&self, ti: usize, e: &TraceEntry) -> Option<Value> {
        let records = self.exp.tasks()[ti].records();
        let at = |i: usize| {
            records
                .get(i)
                .and_then(|r| self.exp.artifact_of(ti, &r.snap))
        };
        let i = records.binary_search_by_key(&e.seq, |r| r.id).ok()?;
        let mut now = at(i)?;
        let sent = i.checked_sub(1).and_then(at).map_or(0, |a| a.parts.len());
        if now.parts.len() <= sent {
            return None;
        }
        now.parts.drain(..sent);
        let mut update = obj!(
            "taskId" => task_id(self.exp, ti), "contextId" => self.exp.context_id(),
            "artifact" => artifact(now),
        );
        if sent > 0 {
            update["append"] = true.into();
        }
        if e.after == TaskState::Completed {
            update["lastChunk"] = true.into();
        }
        Some(obj!("artifactUpdate" => update))
    }

    /// The artifact at the recorded state `rec` of task `ti`.
    fn artifact_at(&self, ti: usize, rec: u32) -> Option<Value> {
        let records = self.exp.tasks().get(ti)?.records();
        let r = &records[records.binary_search_by_key(&rec, |r| r.id).ok()?];
        self.exp.artifact_of(ti, &r.snap).map(artifact)
    }
}

/// The walk up to the end, the next trace seq, and the viewed task and record.
fn on_demand(exp: &Experiment, start_ms: i64, enc: PauseEncoding) -> (Walk<'_>, u32, usize, u32) {
    let mut w = Walk::new(exp, start_ms, enc);
    for e in exp.trace() {
        w.entry(e, false);
    }
    (
        w,
        next_seq(exp),
        exp.viewed_task_index(),
        exp.viewed_record().id,
    )
}

/// The trace seq the next entry will take: an on-demand request's number.
fn next_seq(exp: &Experiment) -> u32 {
    exp.trace().last().map_or(1, |e| e.seq + 1)
}

fn obj(pairs: Vec<(&str, Value)>) -> Value {
    // Inserted one by one: collecting into the map would link a sort.
    let mut map = serde_json::Map::new();
    for (k, v) in pairs {
        map.insert(k.into(), v);
    }
    Value::Object(map)
}

/// `v` under the pause extension's URI (a metadata `Struct`).
fn ext(v: Value) -> Value {
    obj(vec![(PAUSE_EXTENSION, v)])
}

/// `proposal` when the task or task-bearing value shows a proposed pause.
fn proposal_if(task: &Value, plain: &'static str, proposal: &'static str) -> &'static str {
    if shows_pause(task) {
        proposal
    } else {
        plain
    }
}

/// Whether a task (or a task-bearing value) shows the proposal's `status.pause`.
fn shows_pause(task: &Value) -> bool {
    task["status"].get("pause").is_some()
}

/// Text at index `i` of the experiment's text table, which clarifications,
/// pause reasons, resume tokens and resume inputs share.
fn text(exp: &Experiment, i: u32) -> Option<&str> {
    exp.stored_text(i)
}

fn text_parts(text: &str) -> Value {
    vec![obj!("text" => text)].into()
}

fn task_id(exp: &Experiment, ti: usize) -> &str {
    &exp.tasks()[ti].id
}

fn artifact(a: Artifact) -> Value {
    let parts: Vec<Value> = a.parts.iter().map(|t| obj!("text" => t.as_str())).collect();
    obj!("artifactId" => a.artifact_id, "name" => a.name, "parts" => parts)
}

fn envelope(
    id: impl Into<Value>,
    from: Party,
    transport: Transport,
    ty: &'static str,
    key: &str,
    body: Value,
) -> WireMessage {
    let mut message = obj!("jsonrpc" => "2.0", "id" => id.into());
    message[key] = body;
    WireMessage {
        entry: None,
        from,
        transport,
        payload_type: ty,
        message,
        closes_stream: false,
        of_pause: None,
    }
}

/// A client request; `payloadType` is the method's params type.
fn request(id: impl Into<Value>, method: &'static str, params: Value) -> WireMessage {
    let ty = match method {
        "GetTask" => "GetTaskRequest",
        "CancelTask" => "CancelTaskRequest",
        "SubscribeToTask" => "SubscribeToTaskRequest",
        "ListTasks" => "ListTasksRequest",
        _ => "SendMessageRequest",
    };
    call(id, Party::Client, ty, method, params)
}

/// A JSON-RPC request from `from`, its members in the order JSON-RPC 2.0
/// lists them: `jsonrpc`, `id`, `method`, `params`.
fn call(
    id: impl Into<Value>,
    from: Party,
    ty: &'static str,
    method: &'static str,
    params: Value,
) -> WireMessage {
    let mut m = envelope(id, from, Transport::JsonRpc, ty, "method", method.into());
    m.message["params"] = params;
    m
}

fn reply(
    id: impl Into<Value>,
    transport: Transport,
    ty: &'static str,
    result: Value,
) -> WireMessage {
    envelope(id, Party::Agent, transport, ty, "result", result)
}

/// An SSE frame of the stream opened by request `id`.
fn frame(id: impl Into<Value>, result: Value) -> WireMessage {
    reply(id, Transport::Sse, "StreamResponse", result)
}

/// A JSON-RPC error response with its `google.rpc.ErrorInfo`, the code's
/// default message (see [`terminal_error`]). It is a plain response to a
/// streaming request too, as a2a-sdk 1.3.0 answers an error it finds before
/// the stream opens. The proposed codes -32010 / -32011 are `proposal:error`.
fn error(id: impl Into<Value>, code: i32, task_id: &str) -> WireMessage {
    let e = error_text(code);
    let info = obj!(
        "@type" => ERROR_INFO,
        "reason" => e.reason, "domain" => e.domain,
        "metadata" => obj!("taskId" => task_id),
    );
    let err = obj!("code" => code, "message" => e.message, "data" => vec![info]);
    let ty = match code {
        PAUSE_NOT_ALLOWED | RESUME_TOKEN_INVALID => "proposal:error",
        _ => "error",
    };
    envelope(id, Party::Agent, Transport::JsonRpc, ty, "error", err)
}

/// The -32004 of a request to a terminal task, with a2a-sdk 1.3.0's message.
fn terminal_error(id: impl Into<Value>, task_id: &str, state: TaskState) -> WireMessage {
    let mut m = error(id, UNSUPPORTED_OPERATION, task_id);
    m.message["error"]["message"] =
        format!("Task {task_id} is in terminal state: {}", state.name()).into();
    m
}

const ERROR_INFO: &str = "type.googleapis.com/google.rpc.ErrorInfo";

/// An error code's entry in the model's table. Every code the model refuses
/// with has one (a test checks them all, and a debug build stops at one that
/// has none); a release build would answer an unknown one with -32004's
/// words rather than stop the page.
fn error_text(code: i32) -> &'static A2aError {
    let entry = a2a_error(i64::from(code));
    debug_assert!(entry.is_some(), "no table entry for error code {code}");
    entry
        .or_else(|| a2a_error(i64::from(UNSUPPORTED_OPERATION)))
        .expect("the table has UnsupportedOperationError")
}

/// A PauseTask or ResumeTask call (see `Walk::proposal_call`).
struct ProposalCall {
    method: &'static str,
    words: String,
    params: Value,
    resume: Option<(bool, bool)>,
}

/// The question the agent's status message asks at TASK_STATE_INPUT_REQUIRED
/// before `unit` of `n`.
pub fn asked_input(unit: u8, n: u8) -> String {
    format!("Please clarify how to proceed before unit {unit} of {n}.")
}

/// What the agent's status message says at TASK_STATE_AUTH_REQUIRED before
/// `unit` of `n`.
pub fn asked_auth(unit: u8, n: u8) -> String {
    format!("Authorization is needed before unit {unit} of {n}; grant it out of band.")
}
