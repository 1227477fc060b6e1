//! The pure A2A v1.0 task model.
//!
//! Nothing here knows of Leptos, the DOM, clocks or ambient randomness: time
//! advances only by [`Action::Step`], ids come from an injected [`IdSource`],
//! and every rule is a plain function of the configuration and the recorded
//! state. The page, the tests and the benchmarks all drive this one model.

mod action;
mod config;
mod experiment;
mod ids;
mod lifecycle;
mod pause;
mod run;
mod state;
mod task;
mod trace;

pub use action::{
    a2a_error, after_colon, blank, extension_code, isolated, too_long, A2aError, Action, Refusal,
    A2A_DOMAIN, A2A_ERRORS, INVALID_PARAMS, MAX_CLARIFICATION_CHARS, PAUSE_NOT_ALLOWED,
    RESUME_TOKEN_INVALID, SIMULATOR_DOMAIN, TASK_NOT_CANCELABLE, TASK_NOT_FOUND,
    UNSUPPORTED_OPERATION,
};
pub use config::{Config, ConfigError, Setting, Switch};
pub use experiment::{
    Applied, Experiment, PlayStop, SeekError, TerminalRequestStop, MAX_APPLIED, MAX_TRACE_ENTRIES,
};
pub use ids::{short_id, IdSource, MAX_PORTABLE_SEED, NEVER_ISSUED_ID, WRONG_RESUME_TOKEN};
pub use lifecycle::{
    Ahead, Mark, PlanMark, PossibleMove, Segment, Span, TimeBar, Transition, FORBIDDEN, GAP_UNITS,
    MAX_GAP_UNITS, TRANSITIONS,
};
pub use pause::{
    waiting_words, BadEventName, EventName, Initiator, OnTimeout, Pause, PauseFate, PauseMode,
    PendingPause, ResumeCause, MAX_EVENT_BYTES, WAIT_STEP_S,
};
pub use run::{
    RunError, SavedRun, ScriptOp, MAX_RUN_BYTES, MAX_STARTED_MS, RUN_FORMAT, RUN_VERSION,
};
pub use state::{Answer, TaskState};
pub use task::{Artifact, Record, Snapshot, Task};
pub use trace::{Actor, Event, NoChange, Outcome, TraceEntry};
