//! What a user can ask of the simulator, and why a request may be refused.

use super::pause::PauseMode;
use super::state::TaskState;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The longest clarification text accepted, in characters (also a pause
/// reason's and a resume input's).
pub const MAX_CLARIFICATION_CHARS: usize = 500;

/// Whether `text` shows a reader nothing: empty, or only white space,
/// control characters and invisible format characters (a zero-width space,
/// joiner or non-joiner, the word joiner and invisible operators, a
/// byte-order mark, a soft hyphen, the Mongolian vowel separator, the
/// direction marks, embeddings, overrides and isolates, the combining
/// grapheme joiner, variation selectors, tag characters, the Hangul fillers
/// and the blank Braille pattern). A clarification or an event name made of
/// them would be sent, traced and written into the artifact as nothing
/// anyone can read.
pub fn blank(text: &str) -> bool {
    text.chars().all(invisible)
}

/// Whether `c` is one of the characters [`blank`] reads as nothing.
fn invisible(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{2800}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{E0000}'..='\u{E007F}'
                | '\u{E0100}'..='\u{E01EF}'
        )
}

/// `text` as it goes between quotes in a longer text: isolated (U+2068 …
/// U+2069) when it holds explicit direction controls, so that an override
/// or embedding it leaves open ends with it, and does not reverse the
/// closing quote and what follows; as it is otherwise.
pub fn isolated(text: &str) -> std::borrow::Cow<'_, str> {
    let directs = |c: char| matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
    match text.contains(directs) {
        true => format!("\u{2068}{text}\u{2069}").into(),
        false => text.into(),
    }
}

/// Whether `text` is longer than [`MAX_CLARIFICATION_CHARS`]: `Some` of its
/// length in characters if so.
pub fn too_long(text: &str) -> Option<usize> {
    let chars = text.chars().count();
    (chars > MAX_CLARIFICATION_CHARS).then_some(chars)
}

/// A request to the simulator. Every request goes through
/// [`Experiment::legality`](super::Experiment::legality) first.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Run the zero-time transitions due (a gate, a rejection, a self-park),
    /// then at most one active second; while paused (proposal), one minute
    /// of waiting instead.
    Step,
    /// Answer INPUT_REQUIRED with a text that reaches the final artifact.
    SupplyClarification(String),
    /// Answer AUTH_REQUIRED with out-of-band authorization.
    Authorize,
    /// Ask the worker to cancel (A2A `CancelTask`).
    RequestCancellation,
    /// Start a new task in the same context that references a terminal one.
    FollowUp,
    /// Proposal (not A2A v1.0): `PauseTask` with a mode and a reason.
    PauseTask { mode: PauseMode, reason: String },
    /// Proposal (not A2A v1.0): `ResumeTask` with the resume token, optional
    /// input (it reaches the artifact) and `continueTranscript`.
    ResumeTask {
        token: String,
        input: Option<String>,
        continue_transcript: bool,
    },
    /// Proposal (not A2A v1.0): an external event; only the name a
    /// self-parked task waits for wakes it.
    FireEvent(String),
}

/// `text` with each readable character replaced by `x` and each other by a
/// space: as blank, and as long, as it was (so that [`blank`] and
/// [`too_long`] answer as they did), and saying nothing of what was
/// written (invisible characters can carry words too).
pub fn masked(text: &str) -> String {
    text.chars()
        .map(|c| if invisible(c) { ' ' } else { 'x' })
        .collect()
}

impl Action {
    /// Whether the action carries words a user wrote (a clarification, a
    /// pause reason, a resume input, an event's name).
    pub fn carries_words(&self) -> bool {
        match self {
            Action::SupplyClarification(_) | Action::FireEvent(_) => true,
            Action::PauseTask { reason, .. } => !reason.is_empty(),
            Action::ResumeTask { input, .. } => input.is_some(),
            _ => false,
        }
    }

    /// The action with the words a user wrote [`masked`]: legal, refused
    /// or idempotent exactly where the action itself is. An event's name is
    /// kept when it is `resume_event`, the one a self-parked task waits for
    /// (the settings say it); another becomes as many `x` as its trimmed
    /// bytes (its limit counts them), or `y` where that would be
    /// `resume_event`; a blank one, none.
    pub fn with_words_masked(self, resume_event: &str) -> Action {
        match self {
            Action::FireEvent(name) if name.trim() == resume_event => Action::FireEvent(name),
            Action::FireEvent(name) if blank(&name) => Action::FireEvent(String::new()),
            Action::FireEvent(name) => {
                let n = name.trim().len();
                let x = "x".repeat(n);
                Action::FireEvent(if x == resume_event { "y".repeat(n) } else { x })
            }
            Action::SupplyClarification(text) => Action::SupplyClarification(masked(&text)),
            Action::PauseTask { mode, reason } => Action::PauseTask {
                mode,
                reason: masked(&reason),
            },
            Action::ResumeTask {
                token,
                input,
                continue_transcript,
            } => Action::ResumeTask {
                token,
                input: input.as_deref().map(masked),
                continue_transcript,
            },
            action => action,
        }
    }

    /// The length in characters of the text the action carries, when the
    /// agent would read it ([`Action::normalized`]: nothing readable is none)
    /// and it is over [`MAX_CLARIFICATION_CHARS`].
    pub fn over_limit(&self) -> Option<usize> {
        self.bounded_text().filter(|t| !blank(t)).and_then(too_long)
    }

    /// The action as the agent reads it: a pause reason or a resume input of
    /// nothing readable ([`blank`]) is none, so that it neither shows as an
    /// empty reason nor replaces a readable input in the artifact.
    pub fn normalized(self) -> Action {
        match self {
            Action::PauseTask { mode, reason } if blank(&reason) => Action::PauseTask {
                mode,
                reason: String::new(),
            },
            Action::ResumeTask {
                token,
                input: Some(input),
                continue_transcript,
            } if blank(&input) => Action::ResumeTask {
                token,
                input: None,
                continue_transcript,
            },
            action => action,
        }
    }

    /// Who asks it, for the trace: a Step is asked of the simulation (the
    /// agent's work it then does is the agent's), credentials and an external
    /// event come from outside the A2A exchange; the rest is the client's.
    pub const fn actor(&self) -> super::trace::Actor {
        match self {
            Action::Step | Action::Authorize | Action::FireEvent(_) => {
                super::trace::Actor::Simulator
            }
            _ => super::trace::Actor::Client,
        }
    }

    /// The text typed for it that [`MAX_CLARIFICATION_CHARS`] bounds: a
    /// clarification, a pause reason, a resume input.
    pub fn bounded_text(&self) -> Option<&str> {
        match self {
            Action::SupplyClarification(text) | Action::PauseTask { reason: text, .. } => {
                Some(text)
            }
            Action::ResumeTask { input, .. } => input.as_deref(),
            _ => None,
        }
    }

    /// The button label of this action on the page.
    pub const fn label(&self) -> &'static str {
        match self {
            Action::Step => "Step",
            Action::SupplyClarification(_) => "Supply clarification",
            Action::Authorize => "Authorize",
            Action::RequestCancellation => "Request cancellation",
            Action::FollowUp => "New follow-up task",
            Action::PauseTask { .. } => "Pause task",
            Action::ResumeTask { .. } => "Resume task",
            Action::FireEvent(_) => "Fire event",
        }
    }

    /// Whether this is one of the pause proposal's actions (not A2A v1.0).
    pub const fn is_proposal(&self) -> bool {
        matches!(
            self,
            Action::PauseTask { .. } | Action::ResumeTask { .. } | Action::FireEvent(_)
        )
    }

    /// The action as the page's status lines and alerts name it: its
    /// [`label`](Action::label), a pause proposal's labelled so.
    pub const fn said(&self) -> &'static str {
        match self {
            Action::PauseTask { .. } => "Pause task (proposal)",
            Action::ResumeTask { .. } => "Resume task (proposal)",
            Action::FireEvent(_) => "Fire event (proposal)",
            _ => self.label(),
        }
    }
}

/// Why an action was not carried out. Every refusal is a value, traced with
/// its A2A error code where the wire would carry one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// The viewed task is an earlier task of the context: read-only.
    ReadOnly,
    /// Step while INPUT_REQUIRED or AUTH_REQUIRED: the task waits for the client.
    Interrupted(TaskState),
    /// Step on a terminal task.
    Terminal(TaskState),
    /// Supply clarification outside INPUT_REQUIRED.
    NotInputRequired(TaskState),
    /// Authorize outside AUTH_REQUIRED.
    NotAuthRequired(TaskState),
    /// The clarification text is empty.
    EmptyClarification,
    /// The clarification text is longer than [`MAX_CLARIFICATION_CHARS`].
    ClarificationTooLong,
    /// Proposal: the pause reason is longer than [`MAX_CLARIFICATION_CHARS`].
    ReasonTooLong,
    /// Proposal: the resume input is longer than [`MAX_CLARIFICATION_CHARS`].
    ResumeInputTooLong,
    /// Cancel on a terminal task, a canceled one included (`TaskNotCancelableError`).
    NotCancelable(TaskState),
    /// The worker declined the cancellation request (`TaskNotCancelableError`).
    WorkerRefusedCancellation,
    /// Follow-up before the task reached a terminal state.
    NotTerminal(TaskState),
    /// A pause action while the experiment does not run the proposal.
    ProposalOff,
    /// Proposal: PauseTask in a state that does not allow it (-32010).
    NotPausable(TaskState),
    /// Proposal: ResumeTask on a task that is not paused (-32010).
    NotPaused(TaskState),
    /// Proposal: a wrong or already used resume token (-32011), on a task
    /// that is not terminal.
    BadResumeToken,
    /// Proposal: an event without a name.
    EmptyEventName,
    /// Proposal: an event name longer than
    /// [`MAX_EVENT_BYTES`](super::MAX_EVENT_BYTES) bytes, which no task can
    /// wait for.
    EventNameTooLong,
    /// The run holds [`MAX_TRACE_ENTRIES`](super::MAX_TRACE_ENTRIES) trace
    /// entries, the most one run keeps.
    RunFull,
    /// The run has taken [`MAX_APPLIED`](super::MAX_APPLIED) Steps and
    /// actions (discarded branches included), the most one run may.
    RunTooLong,
}

/// A2A `TaskNotFoundError` (a task id the agent does not know: never
/// issued, not this client's, or purged).
pub const TASK_NOT_FOUND: i32 = -32001;
/// A2A `TaskNotCancelableError`.
pub const TASK_NOT_CANCELABLE: i32 = -32002;
/// A2A `UnsupportedOperationError`: a message sent to, or a subscription
/// to, a terminal task; and, for the pause carried as a v1.0 extension, a
/// pause or resume the task's state does not allow ([`extension_code`]).
pub const UNSUPPORTED_OPERATION: i32 = -32004;
/// JSON-RPC `InvalidParamsError`: a v1.0 peer answers a wrong resume token
/// carried in the pause extension with it (the token is a bad parameter).
pub const INVALID_PARAMS: i32 = -32602;
/// Proposal (not A2A v1.0): the task's state does not allow pause or resume.
pub const PAUSE_NOT_ALLOWED: i32 = -32010;
/// Proposal (not A2A v1.0): the resume token does not match.
pub const RESUME_TOKEN_INVALID: i32 = -32011;

/// A message made to follow a colon: its first word in lower case (unless it
/// is a name such as "A2A"). The model's messages are English.
pub fn after_colon(message: impl fmt::Display) -> String {
    let mut s = message.to_string();
    let b = s.as_bytes();
    if b.len() > 1 && b[0].is_ascii_uppercase() && !b[1].is_ascii_uppercase() {
        s[..1].make_ascii_lowercase();
    }
    s
}

impl Refusal {
    /// Whether what is refused is the text a user typed for the request (a
    /// clarification, a pause reason, a resume input, an event's name), not
    /// the request in the task's state.
    pub const fn is_about_text(self) -> bool {
        matches!(
            self,
            Refusal::EmptyClarification
                | Refusal::ClarificationTooLong
                | Refusal::ReasonTooLong
                | Refusal::ResumeInputTooLong
                | Refusal::EmptyEventName
                | Refusal::EventNameTooLong
        )
    }

    /// The A2A JSON-RPC error code the wire would carry, if any.
    pub const fn code(self) -> Option<i32> {
        match self {
            Refusal::NotCancelable(_) | Refusal::WorkerRefusedCancellation => {
                Some(TASK_NOT_CANCELABLE)
            }
            // A message to a terminal task. Authorization is out of band:
            // no request carries it, so no error answers it.
            Refusal::NotInputRequired(s) if s.is_terminal() => Some(UNSUPPORTED_OPERATION),
            Refusal::NotPausable(_) | Refusal::NotPaused(_) => Some(PAUSE_NOT_ALLOWED),
            Refusal::BadResumeToken => Some(RESUME_TOKEN_INVALID),
            _ => None,
        }
    }
}

/// An error the simulated agent answers with: its JSON-RPC code, its name,
/// the error's `message` and its `google.rpc.ErrorInfo` `reason` and
/// `domain`. The RFC proposes only the codes -32010 / -32011: their reasons
/// are this simulator's, in its own domain, not A2A's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct A2aError {
    pub code: i32,
    pub name: &'static str,
    pub message: &'static str,
    pub reason: &'static str,
    pub domain: &'static str,
}

/// The `ErrorInfo.domain` of A2A's own errors.
pub const A2A_DOMAIN: &str = "a2a-protocol.org";
/// The `ErrorInfo.domain` of what this simulator adds (the proposal's errors).
pub const SIMULATOR_DOMAIN: &str = "a2a-control-room.example";

/// The errors of the simulated agent, one table for the trace, the wire and
/// its explanations. The last two are proposals, not A2A v1.0.
pub const A2A_ERRORS: [A2aError; 6] = [
    // The message is a2a-sdk 1.3.0's and the spec's example's.
    A2aError {
        code: TASK_NOT_FOUND,
        name: "TaskNotFoundError",
        message: "Task not found",
        reason: "TASK_NOT_FOUND",
        domain: A2A_DOMAIN,
    },
    A2aError {
        code: TASK_NOT_CANCELABLE,
        name: "TaskNotCancelableError",
        message: "Task cannot be canceled",
        reason: "TASK_NOT_CANCELABLE",
        domain: A2A_DOMAIN,
    },
    A2aError {
        code: UNSUPPORTED_OPERATION,
        name: "UnsupportedOperationError",
        message: "This operation is not supported",
        reason: "UNSUPPORTED_OPERATION",
        domain: A2A_DOMAIN,
    },
    // A standard JSON-RPC code; its reason is a2a-sdk 1.3.0's, its message
    // the spec's (§9.5).
    A2aError {
        code: INVALID_PARAMS,
        name: "InvalidParamsError",
        message: "Invalid parameters",
        reason: "INVALID_PARAMS",
        domain: A2A_DOMAIN,
    },
    A2aError {
        code: PAUSE_NOT_ALLOWED,
        name: "PauseNotAllowedError (proposal)",
        message: "Task is in a state that does not allow pause or resume",
        reason: "PAUSE_NOT_ALLOWED",
        domain: SIMULATOR_DOMAIN,
    },
    A2aError {
        code: RESUME_TOKEN_INVALID,
        name: "ResumeTokenInvalidError (proposal)",
        message: "Resume token is wrong or already used",
        reason: "RESUME_TOKEN_INVALID",
        domain: SIMULATOR_DOMAIN,
    },
];

/// The simulated agent's error with this code, if it has one.
pub fn a2a_error(code: i64) -> Option<&'static A2aError> {
    A2A_ERRORS.iter().find(|e| i64::from(e.code) == code)
}

/// The v1.0 code a peer that carries the proposal as an extension answers
/// for a proposed one: a wrong resume token is a bad parameter, a pause or
/// resume the task's state does not allow an operation refused. Other codes
/// are v1.0's own.
pub const fn extension_code(code: i32) -> i32 {
    match code {
        RESUME_TOKEN_INVALID => INVALID_PARAMS,
        PAUSE_NOT_ALLOWED => UNSUPPORTED_OPERATION,
        code => code,
    }
}

/// How a refusal's text names the error the wire carries: "Name (code)" for
/// a v1.0 error; for a proposed one its code, then what the v1.0 extension
/// encoding answers instead.
struct WireError(i32);

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |code| a2a_error(i64::from(code)).map_or("", |e| e.name);
        match extension_code(self.0) {
            v1 if v1 == self.0 => write!(f, "{} ({})", name(v1), v1),
            v1 => write!(
                f,
                "proposed error {}; {} {} in the v1.0 extension encoding",
                self.0,
                name(v1),
                v1
            ),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::ReadOnly => f.write_str(
                "You are viewing an earlier task of this context; it is read-only. View the latest task to act.",
            ),
            Refusal::Interrupted(TaskState::InputRequired) => f.write_str(
                "The task is waiting for clarification (TASK_STATE_INPUT_REQUIRED): supply it to continue.",
            ),
            Refusal::Interrupted(s) => write!(
                f,
                "The task is waiting for authorization ({s}): authorize it to continue."
            ),
            Refusal::Terminal(s) => write!(
                f,
                "The task is terminal ({s}) and cannot run again; start a follow-up task instead."
            ),
            Refusal::NotInputRequired(s) if s.is_terminal() => write!(
                f,
                "The task is terminal ({s}) and accepts no more messages: {}.",
                WireError(UNSUPPORTED_OPERATION)
            ),
            // The page's own limit, not the agent's: at AUTH_REQUIRED an
            // agent SHOULD take messages too (§7.6), as Authorize's line says.
            Refusal::NotInputRequired(s) => write!(
                f,
                "This page sends clarification only in TASK_STATE_INPUT_REQUIRED; the task is {s}."
            ),
            Refusal::NotAuthRequired(s) => write!(
                f,
                "Authorization is only accepted in TASK_STATE_AUTH_REQUIRED; the task is {s}."
            ),
            Refusal::EmptyClarification => f.write_str(
                "The clarification text is empty (or only spaces and invisible characters).",
            ),
            Refusal::ClarificationTooLong => write!(
                f,
                "The clarification text is longer than {MAX_CLARIFICATION_CHARS} characters."
            ),
            Refusal::NotCancelable(s) => {
                write!(
                    f,
                    "The task is terminal ({s}): a CancelTask now gets {}",
                    WireError(TASK_NOT_CANCELABLE)
                )?;
                // Where the SDKs part ways (the Wire panel's note says more).
                if *s == TaskState::Canceled {
                    f.write_str(", as §3.1.5 says (§3.3.1 calls cancel idempotent; the JavaScript SDK, a2a-js, returns the canceled task)")?;
                }
                f.write_str(".")
            }
            Refusal::WorkerRefusedCancellation => write!(
                f,
                "The worker refused the cancellation with {}; the task stays in the state it was in.",
                WireError(TASK_NOT_CANCELABLE)
            ),
            Refusal::NotTerminal(s) => write!(
                f,
                "Follow-ups here wait for a terminal task (A2A itself lets one context hold several tasks at once); the task is {s}."
            ),
            Refusal::ProposalOff => f.write_str(
                "Pause and resume are a proposal, not part of A2A v1.0; switch on the proposal to try them.",
            ),
            Refusal::NotPausable(TaskState::Submitted) => write!(
                f,
                "A task in TASK_STATE_SUBMITTED cannot be paused: the proposal pauses WORKING tasks only ({}).",
                WireError(PAUSE_NOT_ALLOWED)
            ),
            Refusal::NotPausable(s) => write!(
                f,
                "A task in {s} cannot be paused ({}).",
                WireError(PAUSE_NOT_ALLOWED)
            ),
            Refusal::NotPaused(s) => write!(
                f,
                "The task is {s}, not paused, so there is nothing to resume ({}).",
                WireError(PAUSE_NOT_ALLOWED)
            ),
            Refusal::BadResumeToken => write!(
                f,
                "The resume token is wrong or already used ({}).",
                WireError(RESUME_TOKEN_INVALID)
            ),
            Refusal::ReasonTooLong => write!(
                f,
                "The pause reason is longer than {MAX_CLARIFICATION_CHARS} characters."
            ),
            Refusal::ResumeInputTooLong => write!(
                f,
                "The resume input is longer than {MAX_CLARIFICATION_CHARS} characters."
            ),
            Refusal::EmptyEventName => f.write_str(
                "The event has no name (or only spaces and invisible characters).",
            ),
            Refusal::EventNameTooLong => write!(
                f,
                "The event name is longer than {} bytes, so no task waits for it.",
                super::MAX_EVENT_BYTES
            ),
            Refusal::RunFull => write!(
                f,
                "This run holds {} trace entries, the most one run keeps: go back to an earlier state of the latest task to branch from it, or restart.",
                super::experiment::MAX_TRACE_ENTRIES
            ),
            Refusal::RunTooLong => write!(
                f,
                "This run has taken {} Steps and actions, the most one run may: restart to begin a new one.",
                super::experiment::MAX_APPLIED
            ),
        }
    }
}
