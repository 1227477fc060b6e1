//! The A2A v1.0 `TaskState` values the simulator can be in.

use std::fmt;

/// A task's lifecycle state, named and numbered exactly as `lf.a2a.v1.TaskState`
/// in `a2a.proto` (v1.0.1). `TASK_STATE_UNSPECIFIED` (0) is the enum's default
/// and never a real state, so it has no variant here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TaskState {
    Submitted,
    Working,
    Completed,
    Failed,
    Canceled,
    InputRequired,
    Rejected,
    AuthRequired,
    /// `TASK_STATE_PAUSED` (9): **proposal, not part of A2A v1.0** (the
    /// pause/resume RFC). Reached only when the experiment enables the proposal.
    Paused,
}

/// What a task that waits for the client is answered with (see [`TaskState::awaits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Clarification,
    Authorization,
    /// Proposal (not A2A v1.0): ResumeTask.
    Resume,
    FollowUp,
}

impl TaskState {
    /// Every A2A v1.0 state, in enum-number order (the proposed PAUSED is not one).
    pub const ALL: [TaskState; 8] = [
        TaskState::Submitted,
        TaskState::Working,
        TaskState::Completed,
        TaskState::Failed,
        TaskState::Canceled,
        TaskState::InputRequired,
        TaskState::Rejected,
        TaskState::AuthRequired,
    ];

    /// The ProtoJSON name, e.g. `TASK_STATE_INPUT_REQUIRED`.
    pub const fn name(self) -> &'static str {
        match self {
            TaskState::Submitted => "TASK_STATE_SUBMITTED",
            TaskState::Working => "TASK_STATE_WORKING",
            TaskState::Completed => "TASK_STATE_COMPLETED",
            TaskState::Failed => "TASK_STATE_FAILED",
            TaskState::Canceled => "TASK_STATE_CANCELED",
            TaskState::InputRequired => "TASK_STATE_INPUT_REQUIRED",
            TaskState::Rejected => "TASK_STATE_REJECTED",
            TaskState::AuthRequired => "TASK_STATE_AUTH_REQUIRED",
            TaskState::Paused => "TASK_STATE_PAUSED",
        }
    }

    /// The proto enum number.
    pub const fn number(self) -> i32 {
        match self {
            TaskState::Submitted => 1,
            TaskState::Working => 2,
            TaskState::Completed => 3,
            TaskState::Failed => 4,
            TaskState::Canceled => 5,
            TaskState::InputRequired => 6,
            TaskState::Rejected => 7,
            TaskState::AuthRequired => 8,
            TaskState::Paused => 9,
        }
    }

    /// A short human label, e.g. "Input required" (shown beside the name,
    /// whose Display says "(proposal)" where it applies).
    pub const fn label(self) -> &'static str {
        match self {
            TaskState::Submitted => "Submitted",
            TaskState::Working => "Working",
            TaskState::Completed => "Completed",
            TaskState::Failed => "Failed",
            TaskState::Canceled => "Canceled",
            TaskState::InputRequired => "Input required",
            TaskState::Rejected => "Rejected",
            TaskState::AuthRequired => "Authorization required",
            TaskState::Paused => "Paused",
        }
    }

    /// COMPLETED, FAILED, CANCELED and REJECTED are final: nothing leaves them.
    pub const fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskState::Completed | TaskState::Failed | TaskState::Canceled | TaskState::Rejected
        )
    }

    /// What the client answers a task in this state with to move it on: the
    /// clarification, the authorization (out of band), a ResumeTask
    /// (proposal), or, once it is terminal, a follow-up task. `None` while
    /// the agent works.
    pub const fn awaits(self) -> Option<Answer> {
        match self {
            TaskState::InputRequired => Some(Answer::Clarification),
            TaskState::AuthRequired => Some(Answer::Authorization),
            TaskState::Paused => Some(Answer::Resume),
            s if s.is_terminal() => Some(Answer::FollowUp),
            _ => None,
        }
    }

    /// INPUT_REQUIRED and AUTH_REQUIRED wait for the client and resume the same task.
    pub const fn is_interrupted(self) -> bool {
        matches!(self, TaskState::InputRequired | TaskState::AuthRequired)
    }

    /// Whether the task waits in this state: an interruption, or a pause
    /// (proposal).
    pub const fn is_waiting(self) -> bool {
        self.is_interrupted() || matches!(self, TaskState::Paused)
    }

    /// Whether the state exists only in the pause/resume proposal.
    pub const fn is_proposal(self) -> bool {
        matches!(self, TaskState::Paused)
    }

    /// The state family, used for one accent colour per family.
    pub const fn family(self) -> &'static str {
        if self.is_proposal() {
            "paused"
        } else if self.is_terminal() {
            "terminal"
        } else if self.is_interrupted() {
            "interrupted"
        } else {
            "active"
        }
    }
}

/// The name for people: the ProtoJSON name, marked "(proposal)" for PAUSED.
/// The wire uses [`TaskState::name`].
impl fmt::Display for TaskState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        if self.is_proposal() {
            f.write_str(" (proposal)")?;
        }
        Ok(())
    }
}
