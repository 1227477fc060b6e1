//! The lifecycle as a graph and as a time line, derived from the model for
//! the page's state diagram and time bar.
//!
//! [`TRANSITIONS`] lists every edge the diagram draws: the A2A v1.0 ones
//! (marked `simulated` where this simulator can take them) and, marked
//! `proposal`, those of the pause/resume proposal (not part of A2A v1.0). [`FORBIDDEN`] is the pair the proposal rules out.
//! [`Experiment::taken_transitions`] and [`Experiment::possible_transitions`]
//! say which edges the viewed task has taken and which one action could take
//! now; the second asks [`Experiment::legality`], the same function that
//! enables the page's buttons. [`TimeBar`] lays the viewed task's recorded
//! states out along active time, with waiting drawn as gaps.

use super::action::Action;
use super::config::Config;
use super::experiment::Experiment;
use super::pause::PauseMode;
use super::state::TaskState;
use super::task::Snapshot;
use super::trace::Event;
use std::cmp::Ordering;

use TaskState::{
    AuthRequired, Canceled, Completed, Failed, InputRequired, Paused, Rejected, Submitted, Working,
};

/// One edge of the lifecycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transition {
    pub from: TaskState,
    pub to: TaskState,
    /// What causes it, e.g. "client clarifies".
    pub label: &'static str,
    /// Only in the pause/resume proposal (not part of A2A v1.0).
    pub proposal: bool,
    /// Whether this simulator ever takes it (v1.0 allows some it never does).
    pub simulated: bool,
}

const fn t(from: TaskState, to: TaskState, label: &'static str) -> Transition {
    Transition {
        from,
        to,
        label,
        proposal: from.is_proposal() || to.is_proposal(),
        simulated: true,
    }
}

/// Every transition of the lifecycle, v1.0 first, then the proposal's. A2A
/// v1.0 publishes no transition table; these follow its specification's rules:
/// a terminal state is final, any non-terminal task may be canceled, an
/// interruption resumes the same task, and REJECTED may come "at creation or
/// later" (this simulator only rejects at creation). The proposal's edges are
/// the RFC's: it pauses WORKING tasks only.
pub const TRANSITIONS: [Transition; 17] = [
    t(Submitted, Working, "agent starts"),
    t(Submitted, Rejected, "agent rejects"),
    Transition {
        simulated: false,
        ..t(Working, Rejected, "agent rejects later")
    },
    t(Submitted, Canceled, "cancel accepted"),
    t(Working, InputRequired, "agent asks for input"),
    t(InputRequired, Working, "client clarifies"),
    t(Working, AuthRequired, "agent asks for authorization"),
    t(AuthRequired, Working, "authorized out of band"),
    t(Working, Completed, "last unit done"),
    t(Working, Failed, "failure"),
    t(Working, Canceled, "cancel accepted"),
    t(InputRequired, Canceled, "cancel accepted"),
    t(AuthRequired, Canceled, "cancel accepted"),
    t(Working, Paused, "PauseTask or agent self-parks"),
    t(Paused, Working, "ResumeTask, event or timeout"),
    t(Paused, Failed, "timeout, then fail"),
    t(Paused, Canceled, "cancel accepted"),
];

/// The proposal's forbidden pair: INPUT_REQUIRED and PAUSED are never adjacent.
pub const FORBIDDEN: (TaskState, TaskState) = (InputRequired, Paused);

impl Transition {
    /// The edge from `from` to `to`, if the lifecycle has one.
    pub fn between(from: TaskState, to: TaskState) -> Option<&'static Transition> {
        TRANSITIONS.iter().find(|e| e.from == from && e.to == to)
    }
}

impl Experiment {
    /// The distinct transitions the viewed task took up to the viewed state,
    /// in the order first taken. A Step's zero-time moves (start, a gate) are
    /// each an edge, as the trace shows them.
    pub fn taken_transitions(&self) -> Vec<(TaskState, TaskState)> {
        let records = &self.viewed_task().records()[..=self.position()];
        let mut taken = Vec::new();
        for pair in records.windows(2) {
            let edge = (pair[0].snap.state, pair[1].snap.state);
            if edge.0 != edge.1 && !taken.contains(&edge) {
                taken.push(edge);
            }
        }
        taken
    }

    /// The transitions one action could take from the viewed state now: each
    /// action the model would accept here (the worker's answer to a
    /// cancellation included) with the state it leads to. For a Step, the
    /// first change of state it would make (a pending pause included).
    pub fn possible_transitions(&self) -> Vec<(TaskState, TaskState)> {
        self.possible_moves().into_iter().map(|m| m.edge).collect()
    }

    /// [`Experiment::possible_transitions`], each with what could cause it
    /// now: the actions, in words, that lead along it from here (not every
    /// cause its edge has: an agent that has self-parked once does not again).
    pub fn possible_moves(&self) -> Vec<PossibleMove> {
        let snap = *self.snapshot();
        let from = snap.state;
        let mut stepped = None;
        let mut by = None;
        snap.step(&self.task_config(), |before, next, event| {
            if stepped.is_none() && next.state != before {
                stepped = Some(next.state);
                by = Some(event);
            }
        });
        // What a Step would cause, in the words of its edge, or narrower
        // where the edge has more than one cause: a pending pause may wait
        // (for completion) while the agent self-parks first.
        let step_cause = match (from, stepped) {
            (Working, Some(Paused)) if matches!(by, Some(Event::SelfParked { .. })) => {
                "agent self-parks"
            }
            (Working, Some(Paused)) => "the pending pause takes effect",
            (Paused, Some(Working)) => "timeout, then resume",
            (f, Some(t)) => Transition::between(f, t).map_or("a Step", |e| e.label),
            (_, None) => "a Step",
        };
        let token = self.resume_token().unwrap_or_default().to_string();
        let candidates = [
            (Action::Step, None, step_cause),
            (
                Action::SupplyClarification("x".into()),
                Some(Working),
                "client clarifies",
            ),
            (Action::Authorize, Some(Working), "authorized out of band"),
            (
                Action::RequestCancellation,
                Some(Canceled),
                "cancel accepted",
            ),
            (
                Action::PauseTask {
                    mode: PauseMode::InterruptImmediate,
                    reason: String::new(),
                },
                Some(Paused),
                "PauseTask",
            ),
            (
                Action::ResumeTask {
                    token,
                    input: None,
                    continue_transcript: false,
                },
                Some(Working),
                "ResumeTask",
            ),
            (
                Action::FireEvent(self.config().resume_event.as_str().to_string()),
                Some(Working),
                "its event",
            ),
        ];
        let mut possible: Vec<PossibleMove> = Vec::new();
        for (action, to, cause) in candidates {
            if !self.would_record(&action) {
                continue;
            }
            let Some(to) = to.or(stepped).filter(|&to| to != from) else {
                continue;
            };
            match possible.iter_mut().find(|m| m.edge == (from, to)) {
                Some(m) => m.causes.push(cause),
                None => possible.push(PossibleMove {
                    edge: (from, to),
                    causes: vec![cause],
                }),
            }
        }
        possible
    }
}

/// A transition one action could take now, and what could cause it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PossibleMove {
    pub edge: (TaskState, TaskState),
    /// In words (`PauseTask`, `agent self-parks`), in the order of the
    /// Act panel's controls, a Step first.
    pub causes: Vec<&'static str>,
}

/// What a stretch of the time bar shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Span {
    /// Active seconds of one work unit (1-based). `lost` marks work that
    /// counts for no unit: thrown away by an `interrupt_immediate` pause
    /// (proposal), or done on the unit in flight when the task failed or
    /// was canceled.
    Work { unit: u8, lost: bool },
    /// Waiting in an interruption or a pause, until the task moved on.
    /// `minutes` is the waiting clock's advance (0 for INPUT_REQUIRED and
    /// AUTH_REQUIRED, whose waiting the simulated clock does not count).
    Wait { state: TaskState, minutes: u32 },
    /// Planned work not done: still to come, or `abandoned` because the task
    /// ended first (failed, canceled or rejected).
    Planned { abandoned: bool },
}

/// One stretch of the time bar, in bar units (one unit = one active second).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    pub x: u32,
    pub w: u32,
    pub span: Span,
}

/// A point event on the time bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    pub x: u32,
    /// The state the task entered there (FAILED, CANCELED, COMPLETED, REJECTED).
    pub state: TaskState,
}

/// What the plan still holds, drawn on its outline ahead of the task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ahead {
    /// A unit not started yet starts here.
    Unit(u8),
    /// The input gate, before its unit: the task will ask for input.
    Input,
    /// The authorization gate, before its unit.
    Auth,
    /// The configured failure, inside its unit.
    Failure,
    /// The configured rejection, before any work.
    Rejection,
    /// The agent's self-park, before its unit (proposal).
    SelfPark,
    /// A pause the client asked for, where it takes effect (proposal).
    Pause,
}

/// A point of the plan ahead of the task, in bar units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlanMark {
    pub x: u32,
    pub what: Ahead,
}

/// The narrowest a waiting gap is drawn, in bar units. A gap is one unit
/// wider per recorded state inside it (each minute of a pause), up to
/// [`MAX_GAP_UNITS`], so each of them has its own place on the bar.
pub const GAP_UNITS: u32 = 3;
/// The widest a waiting gap is drawn, however long it lasts.
pub const MAX_GAP_UNITS: u32 = 12;

/// The viewed task laid out along active time: worked seconds per unit,
/// waiting as gaps, terminal events as marks, and where each recorded state
/// sits so the bar can follow and drive seeking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeBar {
    pub segments: Vec<Segment>,
    pub marks: Vec<Mark>,
    /// Unit starts, gates and the failure still ahead, on the planned outline.
    pub ahead: Vec<PlanMark>,
    /// Where each recorded state of the viewed task sits (record index → x).
    pub record_x: Vec<u32>,
    /// The bar's whole width in bar units.
    pub width: u32,
    /// The viewed record's x: the cursor.
    pub cursor: u32,
    /// The viewed state is one of a wait's (INPUT_REQUIRED, AUTH_REQUIRED or
    /// PAUSED): the cursor is in that wait's gap, maybe at its very start,
    /// where the state before the wait sits too.
    pub in_wait: bool,
}

impl TimeBar {
    /// Lays out the viewed task's whole branch (later states included, so the
    /// cursor can move over them).
    pub fn of(exp: &Experiment) -> TimeBar {
        let config = exp.config();
        let records = exp.viewed_task().records();
        let mut bar = TimeBar {
            segments: Vec::new(),
            marks: Vec::new(),
            ahead: Vec::new(),
            record_x: vec![0; records.len()],
            width: 0,
            cursor: 0,
            in_wait: false,
        };
        let mut x = 0;
        // The wait in progress: its state, minutes so far, and its first record.
        let mut wait: Option<(TaskState, u32, usize)> = None;
        for (i, pair) in records.windows(2).enumerate() {
            let (a, b) = (pair[0].snap, pair[1].snap);
            if a.state.is_waiting() {
                let w = wait.get_or_insert((a.state, 0, i));
                w.1 += (b.waiting_s - a.waiting_s) / super::pause::SECS_PER_MINUTE;
                if b.state != Paused || a.state != Paused {
                    x = bar.close_wait(x, *w, i + 1);
                    wait = None;
                }
            }
            if b.active_s > a.active_s {
                let unit = a.completed_units + 1;
                bar.push(x, b.active_s - a.active_s, Span::Work { unit, lost: false });
                x += b.active_s - a.active_s;
            }
            if b.lost_s > a.lost_s {
                bar.mark_lost(b.lost_s - a.lost_s);
            }
            if matches!(b.state, TaskState::Failed | TaskState::Canceled) && !a.state.is_terminal()
            {
                bar.mark_uncounted(a.completed_units + 1);
            }
            if b.state.is_terminal() && !a.state.is_terminal() {
                bar.marks.push(Mark { x, state: b.state });
            }
            bar.record_x[i + 1] = x;
        }
        let last = records[records.len() - 1].snap;
        if last.state.is_waiting() {
            // Still waiting at the branch's end: an open gap.
            let w = wait.unwrap_or((last.state, 0, records.len() - 1));
            x = bar.close_wait(x, w, records.len());
        }
        let planned = config.active_path_seconds();
        let left = planned.saturating_sub(last.active_s - last.lost_s);
        if left > 0 && last.state != TaskState::Completed {
            let abandoned = last.state.is_terminal();
            if !abandoned {
                bar.ahead = plan_ahead(&exp.task_config(), &last, x);
            }
            // A plan that fails or is rejected ends there: the work after
            // it is never reached, drawn as a failed or rejected task's is.
            let reached = match bar.ahead.last() {
                Some(&PlanMark {
                    x: at,
                    what: Ahead::Failure | Ahead::Rejection,
                }) => (at - x).min(left),
                _ => left,
            };
            if reached > 0 {
                bar.push(x, reached, Span::Planned { abandoned });
            }
            if left > reached {
                bar.push(
                    x + reached,
                    left - reached,
                    Span::Planned { abandoned: true },
                );
            }
            x += left;
        }
        bar.width = x.max(1);
        bar.cursor = bar.record_x[exp.position()];
        bar.in_wait = records[exp.position()].snap.state.is_waiting();
        bar
    }

    /// Where a segment lies from the viewed state: `Less` before it,
    /// `Greater` after it, `Equal` when the cursor is in it (work it splits,
    /// or the wait the viewed state is one of).
    pub fn side(&self, seg: &Segment) -> Ordering {
        let end = seg.x + seg.w;
        match seg.span {
            Span::Wait { .. } if self.in_wait && (seg.x..end).contains(&self.cursor) => {
                Ordering::Equal
            }
            _ if end <= self.cursor => Ordering::Less,
            _ if seg.x >= self.cursor => Ordering::Greater,
            _ => Ordering::Equal,
        }
    }

    /// Draws the gap of a wait whose records run from `first` up to (not
    /// including) `end`, spreading those records across it; returns the x after it.
    fn close_wait(
        &mut self,
        x: u32,
        (state, minutes, first): (TaskState, u32, usize),
        end: usize,
    ) -> u32 {
        let inside = (end - first) as u32;
        let w = (inside + 1).clamp(GAP_UNITS, MAX_GAP_UNITS);
        // Each state waited in gets a slot of the gap, at its middle.
        for (j, rx) in self.record_x[first..end].iter_mut().enumerate() {
            *rx = x + (2 * j as u32 + 1) * w / (2 * inside);
        }
        self.push(x, w, Span::Wait { state, minutes });
        x + w
    }

    /// Appends a segment, merging it into the previous one of the same span.
    fn push(&mut self, x: u32, w: u32, span: Span) {
        match self.segments.last_mut() {
            Some(last)
                if last.span == span
                    && last.x + last.w == x
                    && !matches!(span, Span::Wait { .. }) =>
            {
                last.w += w;
            }
            _ => self.segments.push(Segment { x, w, span }),
        }
    }

    /// Marks the last `seconds` of work as lost (redone after the resume).
    /// They are the in-flight unit's work since its last resume, so they all
    /// lie in the newest work segment.
    fn mark_lost(&mut self, seconds: u32) {
        let Some(seg) = self.segments.last_mut() else {
            return;
        };
        if let Span::Work { unit, lost: false } = seg.span {
            let take = seconds.min(seg.w);
            seg.w -= take;
            let x = seg.x + seg.w;
            if seg.w == 0 {
                self.segments.pop();
            }
            self.segments.push(Segment {
                x,
                w: take,
                span: Span::Work { unit, lost: true },
            });
        }
    }

    /// Marks the work done on `unit`, the one in flight when the task failed
    /// or was canceled, as lost: it counts for no unit. It is the newest
    /// work, after any wait (none when the task ended between units).
    fn mark_uncounted(&mut self, unit: u8) {
        for seg in self.segments.iter_mut().rev() {
            match &mut seg.span {
                Span::Work { unit: u, lost } if *u == unit => *lost = true,
                _ => break,
            }
        }
    }

    /// The recorded state nearest to a point of the bar, given in thousandths
    /// of a bar unit (a click); among states at the same place, the latest.
    pub fn record_near(&self, milli: u64) -> usize {
        let xs = &self.record_x;
        let at = |i: usize| u64::from(xs[i]) * 1000;
        let last_at = |x: u32| xs.partition_point(|&r| r <= x) - 1;
        let after = xs.partition_point(|&r| u64::from(r) * 1000 <= milli);
        match after {
            0 => last_at(xs[0]),
            n if n == xs.len() => n - 1,
            n if milli - at(n - 1) < at(n) - milli => n - 1,
            n => last_at(xs[n]),
        }
    }
}

/// The plan still ahead of a task at `last`, whose planned outline starts
/// at `x0`: where each unit starts, and the gates, pauses and failure it
/// will meet if the client answers each at once and does nothing else.
/// Found by running the agent's own moves ([`Snapshot::advance`]) on.
fn plan_ahead(config: &Config, last: &Snapshot, x0: u32) -> Vec<PlanMark> {
    let done = last.active_s - last.lost_s;
    let at = |s: &Snapshot| x0 + (s.active_s - s.lost_s).saturating_sub(done);
    let mut ahead = Vec::new();
    // What waits for the client now has its gap drawn: it is answered.
    let first = last.answered().unwrap_or(*last);
    let mut numbered = first.completed_units + u8::from(first.seconds_into_unit(config) > 0);
    for (snap, next, event) in last.run_ahead(config) {
        if snap.state == TaskState::Working
            && snap.completed_units == numbered
            && numbered < config.work_units
        {
            numbered += 1;
            ahead.push(PlanMark {
                x: at(&snap),
                what: Ahead::Unit(numbered),
            });
        }
        let what = match event {
            Event::AskedInput { .. } => Some(Ahead::Input),
            Event::AskedAuth { .. } => Some(Ahead::Auth),
            Event::SelfParked { .. } => Some(Ahead::SelfPark),
            Event::PauseTookEffect { .. } => Some(Ahead::Pause),
            Event::Failed { .. } => Some(Ahead::Failure),
            Event::Rejected => Some(Ahead::Rejection),
            _ => None,
        };
        if let Some(what) = what {
            ahead.push(PlanMark { x: at(&next), what });
        }
    }
    ahead
}
