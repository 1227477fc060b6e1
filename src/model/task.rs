//! One task: its recorded states and the pure rules that advance it.
//!
//! ```text
//!             reject before execution
//!  SUBMITTED ───────────────────────▶ REJECTED
//!      │ start (0 s)
//!      ▼            input gate k (0 s)       supply clarification
//!   WORKING ───────────────────────▶ INPUT_REQUIRED ─────────────▶ WORKING
//!      │            auth gate k (0 s)        authorize
//!      ├───────────────────────────▶ AUTH_REQUIRED  ─────────────▶ WORKING
//!      ├── fail during unit k ─────▶ FAILED    (unit k not counted)
//!      ├── last second of unit N ──▶ COMPLETED (final artifact)
//!  any non-terminal ── cancel, worker accepts ─▶ CANCELED (no final artifact)
//!                      cancel, worker refuses ─▶ unchanged, refusal traced
//! ```
//!
//! Gates fire when the task is about to start unit k, so a gate at unit 1
//! fires right after the start, before any work. When both gates name the
//! same unit, the input gate fires first; the authorization gate fires once
//! the clarification is supplied. A failure at unit k happens at second
//! ⌈S/2⌉ of that unit (see [`Config::fail_second_in_unit`]); that second counts
//! as active time, the unit does not count as completed.
//!
//! A [`Snapshot`]'s transitions are the crate's own: they assume the move is
//! legal, which [`Experiment::legality`](super::Experiment::legality) decides
//! (the one function the page's buttons also ask). Outside the crate a
//! snapshot can be read (or built), but no snapshot enters an experiment
//! except through its actions.

use super::config::Config;
use super::pause::{
    Initiator, OnTimeout, Pause, PauseFate, PauseMode, PendingPause, SECS_PER_MINUTE, WAIT_STEP_S,
};
use super::state::{Answer, TaskState};
use super::trace::Event;

/// Everything that defines a task at one recorded moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Snapshot {
    pub state: TaskState,
    /// Units finished; never decreases, never exceeds N, never counts a failed unit.
    pub completed_units: u8,
    /// Active seconds: advances one per worked second, only while WORKING.
    pub active_s: u32,
    /// Waiting seconds on the simulated waiting clock. An INPUT_REQUIRED or
    /// AUTH_REQUIRED interruption waits for the user, and this clock stands
    /// still meanwhile, so it stays 0 in the v1.0 lifecycle.
    pub waiting_s: u32,
    /// The input gate has been answered.
    pub input_supplied: bool,
    /// The authorization gate has been answered.
    pub authorized: bool,
    /// Index of the supplied clarification text in the experiment's text table.
    pub clarification: Option<u32>,
    /// Proposal: active seconds whose work was lost to `interrupt_immediate`
    /// (they stay active time; the unit is redone).
    pub lost_s: u32,
    /// Proposal: the pause the task is in (set exactly when PAUSED).
    pub pause: Option<Pause>,
    /// Proposal: a pause asked for that takes effect later.
    pub pending: Option<PendingPause>,
    /// Proposal: the agent has self-parked (it does so once per task).
    pub parked: bool,
    /// Proposal: index of the last input given with a ResumeTask (a later
    /// ResumeTask without input keeps it: the artifact quotes it).
    pub resume_input: Option<u32>,
}

impl Snapshot {
    /// A freshly created task.
    pub const SUBMITTED: Snapshot = Snapshot {
        state: TaskState::Submitted,
        completed_units: 0,
        active_s: 0,
        waiting_s: 0,
        input_supplied: false,
        authorized: false,
        clarification: None,
        lost_s: 0,
        pause: None,
        pending: None,
        parked: false,
        resume_input: None,
    };

    /// Seconds already worked in the unit in progress.
    /// Zero for a snapshot the model never makes (more units done than seconds
    /// worked), since the fields are public.
    pub fn seconds_into_unit(&self, config: &Config) -> u32 {
        self.active_s
            .saturating_sub(self.lost_s)
            .saturating_sub(u32::from(self.completed_units) * u32::from(config.seconds_per_unit))
    }

    /// Proposal: the pending pause that takes effect now, between units (a
    /// `wait_for_completion` one only once every unit is done).
    fn due_pause(&self, config: &Config) -> Option<PendingPause> {
        let all_done = self.completed_units == config.work_units;
        self.pending.filter(|p| {
            self.seconds_into_unit(config) == 0
                && (p.mode != PauseMode::WaitForCompletion || all_done)
        })
    }

    /// Proposal: what becomes of the client's pending pause (`None` without
    /// one) if the task runs on, whatever waits for the client answered and
    /// a self-park resumed, as the time bar's plan draws it: the task's own
    /// moves, run ahead until the pause takes effect or the task ends.
    pub fn pending_pause_fate(&self, config: &Config) -> Option<PauseFate> {
        self.pending?;
        // The run ahead resumes a self-park, as the client may; one whose
        // timeout fails the task fails it first if nobody does.
        let park_fails = |s: &Snapshot| {
            config.on_timeout == OnTimeout::Fail
                && s.pause
                    .is_some_and(|p| p.by == Initiator::Agent && p.deadline_s.is_some())
        };
        let mut unless_park_fails = park_fails(self);
        for (i, (_, next, event)) in self.run_ahead(config).enumerate() {
            match event {
                Event::PauseTookEffect { .. } => {
                    return Some(PauseFate::TakesEffect {
                        now: i == 0,
                        unless_park_fails,
                    })
                }
                Event::Failed { unit, .. } => return Some(PauseFate::LapsesAtFailure { unit }),
                _ if next.state.is_terminal() => return Some(PauseFate::LapsesAtCompletion),
                _ => unless_park_fails |= park_fails(&next),
            }
        }
        None
    }

    /// The task's own moves from here ([`Snapshot::advance`]), as if the
    /// client answered at once whatever waits for it (a self-park resumed
    /// too) and did nothing else: each as the state it leaves, the next
    /// and its event, until the task ends. What the time bar's plan draws
    /// and what a pending pause's fate is read from.
    pub fn run_ahead(&self, config: &Config) -> impl Iterator<Item = (Snapshot, Snapshot, Event)> {
        let config = *config;
        let mut snap = Some(self.answered().unwrap_or(*self));
        // One move per second of work, gate or pause: far fewer than this.
        let most = 4 * usize::from(config.work_units) * (usize::from(config.seconds_per_unit) + 2);
        std::iter::from_fn(move || {
            let cur = snap.take()?;
            let (next, event) = cur.advance(&config)?;
            snap = Some(next.answered().unwrap_or(next));
            Some((cur, next, event))
        })
        .take(most)
    }

    /// This snapshot paused now by `by` (the resume token is issued by the
    /// experiment). `interrupt_immediate` loses the in-flight unit's work.
    /// A client pause consumes the pending one; the agent parking itself
    /// keeps it (an accepted `wait_for_completion` still follows later).
    pub(crate) fn paused(
        &self,
        config: &Config,
        by: Initiator,
        mode: PauseMode,
        reason: Option<u32>,
    ) -> Snapshot {
        let mut next = *self;
        if mode == PauseMode::InterruptImmediate {
            next.lost_s += self.seconds_into_unit(config);
        }
        let agent = by == Initiator::Agent;
        next.state = TaskState::Paused;
        if !agent {
            next.pending = None;
        }
        next.pause = Some(Pause {
            by,
            mode,
            since_s: self.waiting_s,
            deadline_s: (agent && config.self_park_timeout > 0)
                .then(|| self.waiting_s + u32::from(config.self_park_timeout) * SECS_PER_MINUTE),
            event: agent && !config.resume_event.is_empty(),
            token: None,
            reason,
        });
        next
    }

    /// This snapshot once the client has answered what it waits for: the
    /// input (its text aside), the authorization, or a resume. `None` when
    /// it waits for nothing.
    pub(crate) fn answered(&self) -> Option<Snapshot> {
        match self.state.awaits()? {
            Answer::Clarification => Some(Snapshot {
                state: TaskState::Working,
                input_supplied: true,
                ..*self
            }),
            Answer::Authorization => Some(Snapshot {
                state: TaskState::Working,
                authorized: true,
                ..*self
            }),
            Answer::Resume => Some(self.resumed()),
            // A follow-up is another task.
            Answer::FollowUp => None,
        }
    }

    /// This snapshot resumed: WORKING again, the pause gone.
    pub(crate) fn resumed(&self) -> Snapshot {
        Snapshot {
            state: TaskState::Working,
            pause: None,
            ..*self
        }
    }

    /// The agent's next move from SUBMITTED or WORKING (one zero-time
    /// transition or one active second) or from PAUSED (one minute of the
    /// waiting clock, which may time out). `None` in any other state.
    /// A move into a terminal state drops any pending pause.
    pub(crate) fn advance(&self, config: &Config) -> Option<(Snapshot, Event)> {
        let (mut next, event) = self.next_move(config)?;
        if next.state.is_terminal() {
            next.pending = None;
        }
        Some((next, event))
    }

    fn next_move(&self, config: &Config) -> Option<(Snapshot, Event)> {
        let mut next = *self;
        match self.state {
            TaskState::Submitted if config.reject_before_execution => {
                next.state = TaskState::Rejected;
                Some((next, Event::Rejected))
            }
            TaskState::Submitted => {
                next.state = TaskState::Working;
                Some((next, Event::Started))
            }
            TaskState::Paused => {
                next.waiting_s += WAIT_STEP_S;
                let pause = self.pause?;
                if pause.deadline_s.is_some_and(|d| next.waiting_s >= d) {
                    next = match config.on_timeout {
                        OnTimeout::Fail => Snapshot {
                            state: TaskState::Failed,
                            pause: None,
                            ..next
                        },
                        OnTimeout::ResumeWithSummary => next.resumed(),
                    };
                    return Some((next, Event::TimedOut));
                }
                Some((next, Event::Waited))
            }
            TaskState::Working => {
                let unit = self.completed_units + 1;
                let into = self.seconds_into_unit(config);
                let all_done = self.completed_units == config.work_units;
                if let Some(p) = self.due_pause(config) {
                    let next = self.paused(config, Initiator::Client, p.mode, Some(p.reason));
                    return Some((next, Event::PauseTookEffect { mode: p.mode }));
                }
                if all_done {
                    next.state = TaskState::Completed;
                    return Some((next, Event::CompletedAfterResume));
                }
                if into == 0 && config.input_gate == unit && !self.input_supplied {
                    next.state = TaskState::InputRequired;
                    return Some((next, Event::AskedInput { unit }));
                }
                if into == 0 && config.auth_gate == unit && !self.authorized {
                    next.state = TaskState::AuthRequired;
                    return Some((next, Event::AskedAuth { unit }));
                }
                if into == 0
                    && config.pause_proposal
                    && config.self_park_before == unit
                    && !self.parked
                {
                    let mut next =
                        self.paused(config, Initiator::Agent, PauseMode::FinishStep, None);
                    next.parked = true;
                    return Some((next, Event::SelfParked { unit }));
                }
                let second = (into + 1) as u8;
                next.active_s += 1;
                if config.fail_during == unit && second == config.fail_second_in_unit() {
                    next.state = TaskState::Failed;
                    return Some((next, Event::Failed { unit, second }));
                }
                let unit_done = second == config.seconds_per_unit;
                let waits_to_pause = self
                    .pending
                    .is_some_and(|p| p.mode == PauseMode::WaitForCompletion);
                if unit_done {
                    next.completed_units += 1;
                    if next.completed_units == config.work_units && !waits_to_pause {
                        next.state = TaskState::Completed;
                    }
                }
                Some((
                    next,
                    Event::Worked {
                        unit,
                        second,
                        unit_done,
                    },
                ))
            }
            _ => None,
        }
    }
}

impl Snapshot {
    /// The agent's moves in one Step from this snapshot, each passed to
    /// `record(before, next, event)`: zero-time transitions (start, a gate, a
    /// pending pause) run until one second has passed on the active or the
    /// waiting clock, or the task stops being SUBMITTED/WORKING. A pause that
    /// is due once a unit is done takes effect in the same Step.
    pub(crate) fn step(&self, config: &Config, mut record: impl FnMut(TaskState, Snapshot, Event)) {
        let mut cur = *self;
        while let Some((next, event)) = cur.advance(config) {
            record(cur.state, next, event);
            let timed = next.active_s > cur.active_s || next.waiting_s > cur.waiting_s;
            let pause_due = next.state == TaskState::Working && next.due_pause(config).is_some();
            if (timed && !pause_due) || next.state != TaskState::Working {
                break;
            }
            cur = next;
        }
    }
}

/// One recorded state: a stable id and the snapshot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Stable id: the sequence number of the trace entry that produced it.
    /// Never reused, even after its branch is discarded.
    pub id: u32,
    pub snap: Snapshot,
}

/// One task of the context, with its own recorded history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    pub id: String,
    /// The earlier task this follow-up references (`referenceTaskIds`).
    pub reference_task_id: Option<String>,
    pub(crate) records: Vec<Record>,
}

impl Task {
    /// The recorded states, oldest first.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The latest recorded state.
    pub fn latest(&self) -> &Record {
        self.records
            .last()
            .expect("a task always has its creation record")
    }
}

/// The task's result: whole when it completed; with
/// [`Config::artifact_per_unit`](super::Config::artifact_per_unit), the
/// chunks streamed so far before that.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Artifact {
    pub artifact_id: String,
    pub name: String,
    /// Its text parts, in the order they were streamed.
    pub parts: Vec<String>,
}

impl Artifact {
    /// Its parts, one a line.
    pub fn text(&self) -> String {
        self.parts.join("\n")
    }
}
