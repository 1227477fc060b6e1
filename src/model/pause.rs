//! The proposed pause/resume lifecycle — **a proposal, not part of A2A v1.0**
//! (the `TASK_STATE_PAUSED` RFC: `PauseTask`, `AwaitTaskResumption`,
//! `ResumeTask`). An experiment runs it only when its config sets
//! `pause_proposal`; otherwise every pause action is refused and nothing of it
//! appears.
//!
//! ```text
//!  WORKING ── PauseTask (client) ──────────────▶ PAUSED ── ResumeTask(token) ──▶ WORKING
//!  WORKING ── AwaitTaskResumption (agent) ─────▶ PAUSED ── matching event ─────▶ WORKING
//!                                                 PAUSED ── timeout: resume ─────▶ WORKING
//!                                                 PAUSED ── timeout: fail ───────▶ FAILED
//!                                                 PAUSED ── cancel, accepted ────▶ CANCELED
//!  SUBMITTED / INPUT_REQUIRED / AUTH_REQUIRED / terminal ── PauseTask ──▶ refused (-32010)
//! ```
//!
//! - `finish_step` (default): a pause asked mid-unit is pending until the
//!   in-flight unit completes, then the task pauses before the next unit. A
//!   pause asked at a unit boundary takes effect at once. If the in-flight
//!   unit is the last one, the task completes instead (nothing is left to pause).
//! - `interrupt_immediate`: the task pauses now; the in-flight unit's partial
//!   work is lost and redone after the resume. The lost seconds stay active time.
//! - `wait_for_completion`: the pause is pending until every unit is done; the
//!   task then parks in PAUSED with all its work finished instead of completing,
//!   and completes (with its final artifact) on the first Step after the resume.
//!   An agent self-park on the way keeps the client's pending pause.
//! - The agent self-parks when about to start the configured unit, after any
//!   input or authorization gate of that unit. Its conditions: an event name
//!   (only that name wakes it) and a timeout on the waiting clock; with
//!   neither, only an explicit resume wakes it.
//! - Every pause issues a fresh resume token. A resume with the right token
//!   wakes the task (cause `explicit_resume`) and consumes the token; a wrong or
//!   used token is refused with -32011; resuming a task that is not paused is
//!   refused with -32010, and so is every resume of a terminal task, its last
//!   token included. Pausing a paused task returns the current pause.
//! - While PAUSED a Step advances the waiting clock by one simulated minute
//!   ([`WAIT_STEP_S`]); active time never advances while paused.
//! - INPUT_REQUIRED and PAUSED are never adjacent: a pause is refused in
//!   INPUT_REQUIRED, and a gate fires only from WORKING.

use serde::{Deserialize, Serialize};

/// Seconds in a minute of the waiting clock: a self-park's timeout is set
/// in minutes.
pub const SECS_PER_MINUTE: u32 = 60;
/// Seconds of the waiting clock one Step advances while the task is paused:
/// one minute.
pub const WAIT_STEP_S: u32 = SECS_PER_MINUTE;
/// The longest resume event name, in bytes.
pub const MAX_EVENT_BYTES: usize = 64;

/// Proposed `PauseTask.mode`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PauseMode {
    #[default]
    FinishStep,
    InterruptImmediate,
    WaitForCompletion,
}

impl PauseMode {
    pub const ALL: [PauseMode; 3] = [
        PauseMode::FinishStep,
        PauseMode::InterruptImmediate,
        PauseMode::WaitForCompletion,
    ];

    /// The wire value, e.g. `finish_step`.
    pub const fn name(self) -> &'static str {
        match self {
            PauseMode::FinishStep => "finish_step",
            PauseMode::InterruptImmediate => "interrupt_immediate",
            PauseMode::WaitForCompletion => "wait_for_completion",
        }
    }
}

/// Who paused the task (`pause.initiatedBy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Initiator {
    Client,
    Agent,
}

/// What a self-parked task does when its timeout expires.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OnTimeout {
    /// → TASK_STATE_FAILED.
    #[default]
    Fail,
    /// → TASK_STATE_WORKING, cause `timeout`.
    ResumeWithSummary,
}

impl OnTimeout {
    pub const fn name(self) -> &'static str {
        match self {
            OnTimeout::Fail => "fail",
            OnTimeout::ResumeWithSummary => "resume_with_summary",
        }
    }
}

/// Why a paused task woke (the resumed `statusUpdate`'s `cause`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResumeCause {
    ExplicitResume,
    ConditionFired,
    Timeout,
}

impl ResumeCause {
    pub const fn name(self) -> &'static str {
        match self {
            ResumeCause::ExplicitResume => "explicit_resume",
            ResumeCause::ConditionFired => "condition_fired",
            ResumeCause::Timeout => "timeout",
        }
    }
}

/// A resume event name: at most [`MAX_EVENT_BYTES`] bytes, kept inline so
/// that [`Config`](super::Config) stays `Copy`. Empty means "no event condition".
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct EventName {
    len: u8,
    bytes: [u8; MAX_EVENT_BYTES],
}

/// A resume event name nothing could fire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadEventName {
    /// Longer than [`MAX_EVENT_BYTES`] bytes.
    TooLong,
    /// Made only of spaces and invisible characters (see
    /// [`blank`](super::action::blank)), which Fire event refuses as empty.
    Invisible,
}

impl std::fmt::Display for BadEventName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadEventName::TooLong => write!(
                f,
                "The resume event name (proposal) is longer than {MAX_EVENT_BYTES} bytes."
            ),
            BadEventName::Invisible => write!(
                f,
                "The resume event name (proposal) is only spaces and invisible characters, which Fire event refuses as empty."
            ),
        }
    }
}

impl EventName {
    /// No event condition.
    pub const NONE: EventName = EventName {
        len: 0,
        bytes: [0; MAX_EVENT_BYTES],
    };

    /// The name, trimmed (spaces alone are no name: no event condition);
    /// refused when longer than [`MAX_EVENT_BYTES`] bytes, or when made of
    /// invisible characters, which Fire event would refuse.
    pub fn new(name: &str) -> Result<EventName, BadEventName> {
        let name = name.trim();
        if name.len() > MAX_EVENT_BYTES {
            return Err(BadEventName::TooLong);
        }
        if !name.is_empty() && super::action::blank(name) {
            return Err(BadEventName::Invisible);
        }
        let mut bytes = [0; MAX_EVENT_BYTES];
        bytes[..name.len()].copy_from_slice(name.as_bytes());
        Ok(EventName {
            len: name.len() as u8,
            bytes,
        })
    }

    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or_default()
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Default for EventName {
    fn default() -> Self {
        EventName::NONE
    }
}

impl std::fmt::Debug for EventName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_str().fmt(f)
    }
}

impl Serialize for EventName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for EventName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        EventName::new(&name).map_err(serde::de::Error::custom)
    }
}

/// The pause a PAUSED snapshot is in (`TaskStatus.pause` in the proposal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pause {
    pub by: Initiator,
    pub mode: PauseMode,
    /// Waiting-clock second at which it paused.
    pub since_s: u32,
    /// Waiting-clock second at which a self-park times out.
    pub deadline_s: Option<u32>,
    /// Whether a named event wakes it.
    pub event: bool,
    /// Index of the resume token in the experiment's text table: `None`
    /// only until the experiment issues it, in the step that paused.
    pub token: Option<u32>,
    /// Index of the client's reason in the experiment's text table; `None`
    /// for a self-park (the agent's reason is made from the settings).
    pub reason: Option<u32>,
}

impl Pause {
    /// The self-park's timeout, in minutes of waiting from this pause.
    pub fn timeout_minutes(&self) -> Option<u32> {
        self.deadline_s
            .map(|d| d.saturating_sub(self.since_s) / SECS_PER_MINUTE)
    }
}

/// A pause asked for while WORKING that takes effect later.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PendingPause {
    pub mode: PauseMode,
    pub reason: u32,
}

/// What becomes of a pending pause if the task runs on, whatever waits for
/// the client answered (see [`Snapshot::pending_pause_fate`](super::Snapshot::pending_pause_fate)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PauseFate {
    /// It takes effect; `now` when the task's very next move is the pause (a
    /// unit just done). `unless_park_fails` when the agent is self-parked, or
    /// will self-park before the pause is due, with a timeout that fails the
    /// task: unless the client resumes that self-park in time, the task fails
    /// first and the pause lapses.
    TakesEffect { now: bool, unless_park_fails: bool },
    /// It lapses: the task fails during `unit` before the pause is due.
    LapsesAtFailure { unit: u8 },
    /// It lapses: the task completes first, with nothing left to pause.
    LapsesAtCompletion,
}

/// A waiting time as the time bar, the trace, the recorded states and
/// Inspect count it, in minutes (hours past an hour): "0 min", "5 min",
/// "10 h 20 min"; seconds only where the wait is not whole minutes.
pub fn waiting_words(seconds: u32) -> String {
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let mut parts = Vec::new();
    if h > 0 {
        parts.push(format!("{h} h"));
    }
    if m > 0 {
        parts.push(format!("{m} min"));
    }
    if s > 0 {
        parts.push(format!("{s} s"));
    }
    if parts.is_empty() {
        parts.push("0 min".to_string());
    }
    parts.join(" ")
}
