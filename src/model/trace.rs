//! The transition trace: one entry per step and per action, refusals included.

use super::action::Refusal;
use super::pause::PauseMode;
use super::state::TaskState;
use std::fmt;

/// Who acted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Actor {
    /// The A2A client (the user of the page).
    Client,
    /// The simulated A2A agent (the worker).
    Agent,
    /// Outside the A2A exchange: a Step asked of the simulation (refused),
    /// credentials that arrive out of band, an external event (proposal).
    /// Nothing of it is an A2A message.
    Simulator,
}

impl Actor {
    pub const fn label(self) -> &'static str {
        match self {
            Actor::Client => "client",
            Actor::Agent => "agent",
            Actor::Simulator => "simulator",
        }
    }
}

/// What happened in one trace entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// The client sent the first message and the task was created (SUBMITTED).
    /// `follow_up` is set when it references an earlier task of the context.
    Created { follow_up: bool },
    /// The agent started work (SUBMITTED → WORKING, no active time).
    Started,
    /// The agent rejected the task before any work.
    Rejected,
    /// One active second of `unit`; `second` is 1-based within the unit.
    /// When it finishes the unit, `unit_done` is set; when it finishes the
    /// last unit, the task completes in the same entry, unless a pause asked
    /// to wait for completion (proposal) is pending: the task then stays
    /// WORKING, pauses, and completes on the first Step after the resume
    /// ([`Event::CompletedAfterResume`]).
    Worked {
        unit: u8,
        second: u8,
        unit_done: bool,
    },
    /// The task failed inside `unit` at `second`; the unit is not counted.
    Failed { unit: u8, second: u8 },
    /// The agent asked for clarification before starting `unit`.
    AskedInput { unit: u8 },
    /// The agent asked for authorization before starting `unit`.
    AskedAuth { unit: u8 },
    /// The client supplied clarification.
    Clarified,
    /// Authorization arrived, out of band (the simulator stands in for it).
    Authorized,
    /// The client requested cancellation.
    CancelRequested,
    /// The client asked for a follow-up task (recorded on the new task's
    /// creation; a refused request is traced on the task it was asked of).
    FollowUpRequested,
    /// A Step of the simulation was asked for and refused.
    StepRequested,
    /// Proposal: the client sent PauseTask (the task pauses now, or once the
    /// in-flight unit or the whole work is done).
    PauseRequested { mode: PauseMode },
    /// Proposal: a pending pause took effect.
    PauseTookEffect { mode: PauseMode },
    /// Proposal: the agent self-parked before `unit` (AwaitTaskResumption).
    SelfParked { unit: u8 },
    /// Proposal: one minute passed on the waiting clock while paused.
    Waited,
    /// Proposal: the client sent ResumeTask.
    ResumeRequested {
        had_input: bool,
        continue_transcript: bool,
    },
    /// Proposal: an external event was fired, by the simulator (it wakes the
    /// task only if it matches).
    EventFired,
    /// Proposal: the self-park timed out (failing the task or resuming it).
    TimedOut,
    /// Proposal: a task paused with all its units done completed on the first
    /// Step after the resume.
    CompletedAfterResume,
}

/// Why an accepted request changed nothing (all in the pause/resume
/// proposal, where these requests are idempotent).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoChange {
    /// PauseTask on a task already PAUSED: the current pause is returned.
    AlreadyPaused,
    /// PauseTask while an earlier pause waits to take effect (its unit to
    /// finish, or, `wait_for_completion`, every unit): the pending one stays,
    /// its mode unchanged.
    PauseAlreadyRequested,
    /// An event that no paused task waits for.
    NoTaskWaitsForEvent,
}

/// How an entry ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// It happened and recorded a new state.
    Done,
    /// It was accepted but changed nothing, for this reason.
    Unchanged(NoChange),
    /// It was refused; nothing changed.
    Refused(Refusal),
}

impl Outcome {
    /// For a client request, whether it reached the agent: accepted, or
    /// refused by the agent with an A2A error. A refusal without a code is
    /// the page's own (a full run, an empty text…): nothing was sent. The
    /// simulator's own moves (Step, Authorize, an event) send no request
    /// either way.
    pub const fn on_wire(self) -> bool {
        match self {
            Outcome::Refused(r) => r.code().is_some(),
            Outcome::Done | Outcome::Unchanged(_) => true,
        }
    }
}

/// One line of the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceEntry {
    /// Sequence number, unique and increasing across the whole experiment.
    pub seq: u32,
    /// Index of the task (in the context's task list) it belongs to.
    pub task: u16,
    /// The recorded state this entry produced (`Done`) or was evaluated at.
    pub at: u32,
    /// The task's active seconds after the entry.
    pub active_s: u32,
    /// The task's waiting seconds after the entry.
    pub waiting_s: u32,
    pub actor: Actor,
    pub event: Event,
    /// State before; `None` for the creation of a task.
    pub before: Option<TaskState>,
    pub after: TaskState,
    pub outcome: Outcome,
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Event::Created { follow_up: false } => f.write_str("send message: task created"),
            Event::Created { follow_up: true } => {
                f.write_str("send follow-up message: new task in the same context")
            }
            Event::Started => f.write_str("start work"),
            Event::Rejected => f.write_str("reject before execution"),
            Event::Worked {
                unit,
                second,
                unit_done,
            } => {
                write!(f, "work unit {unit}, second {second}")?;
                if unit_done {
                    write!(f, " — unit {unit} done")?;
                }
                Ok(())
            }
            Event::Failed { unit, second } => {
                write!(f, "fail during unit {unit} at its second {second}")
            }
            Event::AskedInput { unit } => write!(f, "ask for clarification before unit {unit}"),
            Event::AskedAuth { unit } => write!(f, "ask for authorization before unit {unit}"),
            Event::Clarified => f.write_str("supply clarification"),
            Event::Authorized => f.write_str("authorize"),
            Event::CancelRequested => f.write_str("request cancellation"),
            Event::FollowUpRequested => f.write_str("request follow-up task"),
            Event::StepRequested => f.write_str("step"),
            Event::PauseRequested { mode } => write!(f, "PauseTask {} (proposal)", mode.name()),
            Event::PauseTookEffect { mode } => {
                write!(f, "pause takes effect: {} (proposal)", mode.name())
            }
            Event::SelfParked { unit } => {
                write!(
                    f,
                    "AwaitTaskResumption: self-park before unit {unit} (proposal)"
                )
            }
            Event::Waited => f.write_str("wait one minute while paused (proposal)"),
            Event::ResumeRequested { .. } => f.write_str("ResumeTask (proposal)"),
            Event::EventFired => f.write_str("fire event (proposal)"),
            Event::TimedOut => f.write_str("self-park timeout (proposal)"),
            Event::CompletedAfterResume => f.write_str("complete after resume (proposal)"),
        }
    }
}

impl TraceEntry {
    /// The agent's own second of work or minute of waiting that changes no
    /// state: nothing goes on the wire for it, and a reader may hide it to
    /// see the transitions.
    pub fn is_tick(&self) -> bool {
        self.before == Some(self.after)
            && self.actor == Actor::Agent
            && self.outcome == Outcome::Done
    }

    /// What happened, for people: the event, except that a clarification
    /// sent to a terminal task is a message to it (*Message to terminal task*).
    pub fn what(&self) -> String {
        match (self.event, self.before) {
            (Event::Clarified, Some(s)) if s.is_terminal() => {
                "send message to a terminal task".into()
            }
            (event, _) => event.to_string(),
        }
    }

    /// The outcome as one line of text: "ok" (a granted cancellation says
    /// so), "unchanged (idempotent)", "no effect: …" for an event nothing
    /// waits for, or "refused: …" with the refusal.
    pub fn outcome_text(&self) -> String {
        match self.outcome {
            // The client asked; the agent made the change.
            Outcome::Done if self.event == Event::CancelRequested => {
                "ok: the agent granted the request".into()
            }
            Outcome::Done => "ok".into(),
            // An event nothing waits for is not a repeat of anything.
            Outcome::Unchanged(NoChange::NoTaskWaitsForEvent) => {
                "no effect: nothing waits for this event".into()
            }
            Outcome::Unchanged(_) => "unchanged (idempotent)".into(),
            // A refusal the agent answers names its error and code itself.
            Outcome::Refused(r) => format!("refused: {r}"),
        }
    }
}
