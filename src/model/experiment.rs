//! The experiment: one context of tasks, its recorded timeline and its trace.

use super::action::{blank, too_long, Action, Refusal};
use super::config::{Config, ConfigError};
use super::ids::IdSource;
use super::pause::{EventName, Initiator, OnTimeout, PauseMode, PendingPause};
use super::run::{SavedRun, ScriptOp};
use super::state::TaskState;
use super::task::{Artifact, Record, Snapshot, Task};
use super::trace::{Actor, Event, NoChange, Outcome, TraceEntry};
use std::fmt;

/// The most trace entries one run keeps (a paused task could step forever).
/// At the newest state of a full run every action is refused with
/// [`Refusal::RunFull`]; from an earlier state, acting discards the later
/// ones first, so the run can branch. A Step may add a few entries past it.
pub const MAX_TRACE_ENTRIES: usize = 20_000;

// A trace entry names its task by a `u16`: a task takes at least two
// entries (created, then ended) before a follow-up may start, so a full run
// has at most MAX_TRACE_ENTRIES / 2 + 1 tasks.
const _: () = assert!(MAX_TRACE_ENTRIES / 2 + 1 < u16::MAX as usize);

/// The most Steps and actions one run may take, discarded branches
/// included: a run is replayed from its script, so this bounds the work of
/// opening any run (a few bytes of link could otherwise ask for billions).
pub const MAX_APPLIED: u64 = 1_000_000;

/// What an accepted action did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applied {
    /// It recorded this many new states (after discarding `discarded` later ones).
    Recorded { states: usize, discarded: usize },
    /// It was accepted and changed nothing, for this reason (proposal).
    Unchanged(NoChange),
}

/// A seek outside the recorded states or the task list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeekError {
    NoSuchState { position: usize, count: usize },
    NoSuchTask { index: usize, count: usize },
}

impl fmt::Display for SeekError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeekError::NoSuchState { position, count } => write!(
                f,
                "There is no recorded state {} (this task has {count}).",
                // Counted from 1; a crafted run's huge index must not wrap.
                *position as u128 + 1
            ),
            SeekError::NoSuchTask { index, count } => write!(
                f,
                "There is no task {} (this context has {count}).",
                *index as u128 + 1
            ),
        }
    }
}

impl std::error::Error for SeekError {}

/// Why a terminal-task request (a message, a cancellation or, proposal, a
/// pause sent to a terminal task to see the agent's error) cannot be sent
/// from the viewed state (see [`Experiment::terminal_request_legality`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TerminalRequestStop {
    /// The viewed task is not terminal in the viewed state, nor later.
    NotTerminal,
    /// The viewed state is not terminal, but the task has ended since:
    /// a client reaches a task only as it is now.
    EndedSince,
    /// The request itself is refused by the page (see [`Experiment::sends`]).
    Refused(Refusal),
}

/// Why Play has nothing to run from the viewed state (see
/// [`Experiment::play_legality`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayStop {
    /// Step itself is refused.
    Step(Refusal),
    /// Proposal: the task is paused with no timeout; only a resume wakes
    /// it, or its event too when `event`.
    WaitsForResume { event: bool },
}

impl PlayStop {
    /// What can wake a task paused with no timeout, if that is the stop.
    pub const fn wakers(self) -> Option<&'static str> {
        match self {
            PlayStop::WaitsForResume { event: true } => Some("a resume or its event"),
            PlayStop::WaitsForResume { event: false } => Some("a resume"),
            PlayStop::Step(_) => None,
        }
    }
}

impl fmt::Display for PlayStop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self, self.wakers()) {
            (PlayStop::Step(r), _) => r.fmt(f),
            (_, wakers) => write!(
                f,
                "The task is paused and only {} wakes it (proposal).",
                wakers.unwrap_or_default()
            ),
        }
    }
}

/// A running experiment: a context id, its tasks (the last is the current
/// one; earlier ones are read-only, except for the message, cancellation or,
/// with the proposal, PauseTask a client may still send a terminal task, which
/// the agent refuses), the trace of every step and action, and the recorded
/// state being viewed.
///
/// Recorded states: every accepted step and action appends one recorded state
/// (a Step appends one per transition it runs: start, gate, second of work).
/// Refusals, and actions accepted that change nothing, are traced but record
/// nothing and discard nothing: they change no state. Acting while an earlier
/// recorded state is viewed first discards every later state of that task,
/// with their trace entries.
///
/// The experiment keeps its own script — every action with whether it was
/// accepted, every seek and view — so that [`Experiment::saved_run`] is
/// always a run that replays to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Experiment {
    config: Config,
    /// The id source as it was given, before the experiment drew from it.
    first_ids: IdSource,
    ids: IdSource,
    context_id: String,
    tasks: Vec<Task>,
    trace: Vec<TraceEntry>,
    /// The texts a client sent (clarifications; with the proposal, pause
    /// reasons, resume tokens and resume inputs), referenced by index.
    texts: Vec<String>,
    viewed_task: usize,
    position: usize,
    next_seq: u32,
    /// Steps and actions taken so far, accepted or refused.
    applied: u64,
    /// The requests with a text (clarification, pause reason, resume token
    /// and input) that were traced without recording a state, by trace
    /// seq: what the client sent, for the wire.
    sent: Vec<(u32, Action)>,
    /// What was done, as a run's script says it (see [`ScriptOp`]).
    script: Vec<ScriptOp>,
    /// The script's actions that carry a user's words, with where their
    /// effects are: what an action from an earlier state masks once it
    /// discards them all (see [`Experiment::discard_later`]).
    worded: Vec<WordedOp>,
}

/// An action of the script that carries a user's words.
#[derive(Clone, Debug, PartialEq, Eq)]
struct WordedOp {
    /// Its index in the script.
    op: usize,
    /// The sequence number of its trace entry.
    seq: u32,
    /// The texts its states stored in the table, from and to.
    texts: (u32, u32),
}

impl Experiment {
    /// A fresh experiment: a new context with one SUBMITTED task.
    pub fn new(config: Config, ids: IdSource) -> Result<Experiment, ConfigError> {
        config.validate()?;
        Ok(Experiment::fresh(config, ids))
    }

    /// A fresh experiment from an already validated config.
    fn fresh(config: Config, mut ids: IdSource) -> Experiment {
        let first_ids = ids.clone();
        let context_id = ids.next_id();
        let mut exp = Experiment {
            config,
            first_ids,
            ids,
            context_id,
            tasks: Vec::new(),
            trace: Vec::new(),
            texts: Vec::new(),
            viewed_task: 0,
            position: 0,
            next_seq: 1,
            applied: 0,
            sent: Vec::new(),
            script: Vec::new(),
            worded: Vec::new(),
        };
        exp.create_task(None);
        exp
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The settings the viewed task runs with (see [`Config::for_task`]).
    pub fn task_config(&self) -> Config {
        self.config.for_task(self.viewed_task_index())
    }

    pub fn ids(&self) -> &IdSource {
        &self.ids
    }

    /// What was done so far: every action, accepted or refused, and every
    /// seek and view, consecutive Steps folded into one op.
    pub fn script(&self) -> &[ScriptOp] {
        &self.script
    }

    /// This experiment as a run to store, share or replay, its wire
    /// timestamps counted from `started_ms`.
    pub fn saved_run(&self, started_ms: i64) -> SavedRun {
        SavedRun {
            script: self.script.clone(),
            ..SavedRun::new(self.config, self.first_ids.clone(), started_ms)
        }
    }

    /// Adds `op` to the script: a Step after Steps counts one more; only
    /// where viewing ended matters, so a seek replaces the seeks just before
    /// it, and a view (which picks the state too) the seeks and views.
    fn write(&mut self, op: ScriptOp) {
        if let (Some(ScriptOp::Steps(n)), ScriptOp::Steps(1)) = (self.script.last_mut(), &op) {
            *n = n.saturating_add(1);
            return;
        }
        let replaced = |last: &ScriptOp| match op {
            ScriptOp::Seek(_) => matches!(last, ScriptOp::Seek(_)),
            ScriptOp::View(_) => matches!(last, ScriptOp::Seek(_) | ScriptOp::View(_)),
            _ => false,
        };
        while self.script.last().is_some_and(replaced) {
            self.script.pop();
        }
        self.script.push(op);
    }

    pub fn context_id(&self) -> &str {
        &self.context_id
    }

    /// The simulated client's own id, drawn from the experiment's seed
    /// apart from the agent's ids (see [`IdSource::client_id`]).
    pub fn client_id(&self) -> String {
        self.first_ids.client_id()
    }

    /// Every task of the context, oldest first.
    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }

    /// The whole trace, oldest first.
    pub fn trace(&self) -> &[TraceEntry] {
        &self.trace
    }

    /// The trace entry with sequence number `seq` (the trace is in seq order).
    pub fn trace_entry(&self, seq: u32) -> Option<&TraceEntry> {
        let i = self.trace.binary_search_by_key(&seq, |t| t.seq).ok()?;
        Some(&self.trace[i])
    }

    /// Index of the current (latest, actionable) task.
    pub fn current_task_index(&self) -> usize {
        self.tasks.len() - 1
    }

    /// Index of the task being viewed.
    pub fn viewed_task_index(&self) -> usize {
        self.viewed_task
    }

    pub fn viewed_task(&self) -> &Task {
        &self.tasks[self.viewed_task]
    }

    /// Position (0-based) of the viewed recorded state in the viewed task.
    pub fn position(&self) -> usize {
        self.position
    }

    pub fn viewed_record(&self) -> &Record {
        &self.viewed_task().records[self.position]
    }

    /// The viewed snapshot: what the page shows and what actions act on.
    pub fn snapshot(&self) -> &Snapshot {
        &self.viewed_record().snap
    }

    /// Whether the viewed task is an earlier task of the context: read-only,
    /// except as [`Experiment::legality`] says.
    pub fn is_read_only(&self) -> bool {
        self.viewed_task != self.current_task_index()
    }

    /// Whether an earlier state or an earlier task is viewed, rather than
    /// the newest state of the current task.
    pub fn views_the_past(&self) -> bool {
        self.later_count() > 0 || self.is_read_only()
    }

    /// How many recorded states come after the viewed one in its task.
    pub fn later_count(&self) -> usize {
        self.viewed_task().records.len() - 1 - self.position
    }

    /// How many later recorded states an action from the viewed state would
    /// discard: none in a read-only view, from which nothing acts.
    pub fn discarded_by_acting(&self) -> usize {
        if self.is_read_only() {
            0
        } else {
            self.later_count()
        }
    }

    /// Total recorded states over all tasks.
    pub fn total_records(&self) -> usize {
        self.tasks.iter().map(|t| t.records.len()).sum()
    }

    /// The text of a snapshot's clarification, if one was supplied.
    pub fn clarification(&self, snap: &Snapshot) -> Option<&str> {
        self.stored_text(snap.clarification?)
    }

    /// Views another recorded state of the viewed task; changes nothing
    /// else (the script says it was viewed).
    pub fn seek(&mut self, position: usize) -> Result<(), SeekError> {
        let count = self.viewed_task().records.len();
        if position >= count {
            return Err(SeekError::NoSuchState { position, count });
        }
        self.position = position;
        self.write(ScriptOp::Seek(position as u32));
        Ok(())
    }

    /// Views another task of the context, at its latest recorded state.
    pub fn view_task(&mut self, index: usize) -> Result<(), SeekError> {
        let count = self.tasks.len();
        if index >= count {
            return Err(SeekError::NoSuchTask { index, count });
        }
        self.viewed_task = index;
        self.position = self.tasks[index].records.len() - 1;
        self.write(ScriptOp::View(index as u32));
        Ok(())
    }

    /// Describes a recorded state of the viewed task, e.g.
    /// "7 of 12 — TASK_STATE_INPUT_REQUIRED at 3 s" (PAUSED with
    /// "(proposal)", and "at 6 s active, 2 min waiting" once a pause has
    /// counted waiting time): the slider's value in words and the line
    /// under it.
    pub fn timeline_label(&self, position: usize) -> String {
        let records = &self.viewed_task().records;
        let pos = position.min(records.len() - 1);
        let snap = &records[pos].snap;
        let waiting = match snap.waiting_s {
            0 => String::new(),
            s => format!(" active, {} waiting", super::waiting_words(s)),
        };
        format!(
            "{} of {} — {} at {} s{waiting}",
            pos + 1,
            records.len(),
            snap.state,
            snap.active_s
        )
    }

    /// Whether asking `action` of the viewed state reaches the agent, or the
    /// page's own refusal: it does when [`legality`] allows it or the agent
    /// answers it with an A2A error (see [`Outcome::on_wire`]). Whether that
    /// takes a request depends on the action: a Step is the agent's own
    /// work, an authorization travels out of band.
    ///
    /// [`legality`]: Experiment::legality
    pub fn sends(&self, action: &Action) -> Result<(), Refusal> {
        match self.legality(action) {
            Err(r) if !Outcome::Refused(r).on_wire() => Err(r),
            _ => Ok(()),
        }
    }

    /// Whether `action`, sent on purpose to a terminal task to see the
    /// agent's error, can be sent from the viewed state: only once the
    /// viewed task is terminal there and the request reaches the agent.
    pub fn terminal_request_legality(&self, action: &Action) -> Result<(), TerminalRequestStop> {
        let sent = self.sends(action);
        if sent == Err(Refusal::ReadOnly) || self.snapshot().state.is_terminal() {
            return sent.map_err(TerminalRequestStop::Refused);
        }
        if self.viewed_task().latest().snap.state.is_terminal() {
            Err(TerminalRequestStop::EndedSince)
        } else {
            Err(TerminalRequestStop::NotTerminal)
        }
    }

    /// Whether `action` may be asked of the viewed state, or why not. The
    /// model refuses with this and the page disables buttons with it. An
    /// action allowed here may still be answered with a refusal by the
    /// worker (a cancellation it declines: see `effect`), which is the
    /// agent's answer on the wire, not a disabled button.
    /// A cancellation request is allowed on any non-terminal task (the worker
    /// may still refuse it). On a terminal one, a canceled one included, it
    /// is refused with `TaskNotCancelableError`, as the spec's CancelTask
    /// section (§3.1.5) and its error table (§3.3.2) say.
    /// An earlier task is read-only, except that, seen as it is now (its
    /// terminal last state), it can still be sent what a client may send any
    /// terminal task: a message, a cancellation or (proposal) a pause, which
    /// the agent refuses.
    pub fn legality(&self, action: &Action) -> Result<(), Refusal> {
        if self.is_read_only() {
            let as_it_is_now = self.later_count() == 0 && self.snapshot().state.is_terminal();
            let asks_the_agent = matches!(
                action,
                Action::SupplyClarification(_)
                    | Action::RequestCancellation
                    | Action::PauseTask { .. }
            );
            if !(as_it_is_now && asks_the_agent) {
                return Err(Refusal::ReadOnly);
            }
        }
        if self.applied >= MAX_APPLIED {
            return Err(Refusal::RunTooLong);
        }
        if self.trace.len() >= MAX_TRACE_ENTRIES && self.later_count() == 0 {
            return Err(Refusal::RunFull);
        }
        let state = self.snapshot().state;
        match action {
            Action::Step => match state {
                // While PAUSED (proposal), a Step runs the waiting clock.
                TaskState::Submitted | TaskState::Working | TaskState::Paused => Ok(()),
                s if s.is_interrupted() => Err(Refusal::Interrupted(s)),
                s => Err(Refusal::Terminal(s)),
            },
            // The text is checked before a terminal state: a message to a
            // terminal task is sent (and refused by the agent), so it must be
            // one the page would send at INPUT_REQUIRED.
            Action::SupplyClarification(text) => {
                if state != TaskState::InputRequired && !state.is_terminal() {
                    Err(Refusal::NotInputRequired(state))
                } else if blank(text) {
                    Err(Refusal::EmptyClarification)
                } else if too_long(text).is_some() {
                    Err(Refusal::ClarificationTooLong)
                } else if state != TaskState::InputRequired {
                    Err(Refusal::NotInputRequired(state))
                } else {
                    Ok(())
                }
            }
            Action::Authorize if state != TaskState::AuthRequired => {
                Err(Refusal::NotAuthRequired(state))
            }
            Action::Authorize => Ok(()),
            Action::RequestCancellation if state.is_terminal() => {
                Err(Refusal::NotCancelable(state))
            }
            Action::RequestCancellation => Ok(()),
            Action::FollowUp if !state.is_terminal() => Err(Refusal::NotTerminal(state)),
            Action::FollowUp => Ok(()),
            a if a.is_proposal() && !self.config.pause_proposal => Err(Refusal::ProposalOff),
            // The RFC pauses WORKING tasks only (PR #1277 would also have
            // paused SUBMITTED ones).
            Action::PauseTask { .. } => match state {
                // A reason of nothing readable is none, whatever its length.
                _ if action.over_limit().is_some() => Err(Refusal::ReasonTooLong),
                TaskState::Working | TaskState::Paused => Ok(()),
                s => Err(Refusal::NotPausable(s)),
            },
            Action::ResumeTask { token, .. } => {
                if action.over_limit().is_some() {
                    return Err(Refusal::ResumeInputTooLong);
                }
                match self.resume_token() {
                    Some(current) if current == token => Ok(()),
                    Some(_) => Err(Refusal::BadResumeToken),
                    // No token resumes a terminal task, its last one included.
                    None if state.is_terminal() => Err(Refusal::NotPaused(state)),
                    // A token this task issued before is a used one.
                    None if self.issued_tokens().any(|t| t == token) => {
                        Err(Refusal::BadResumeToken)
                    }
                    None => Err(Refusal::NotPaused(state)),
                }
            }
            Action::FireEvent(name) if blank(name) => Err(Refusal::EmptyEventName),
            Action::FireEvent(name) if EventName::new(name).is_err() => {
                Err(Refusal::EventNameTooLong)
            }
            Action::FireEvent(_) => Ok(()),
        }
    }

    /// A text of the experiment's table (clarifications, pause reasons,
    /// resume tokens and inputs), by the index a snapshot holds.
    pub fn stored_text(&self, index: u32) -> Option<&str> {
        self.texts.get(index as usize).map(String::as_str)
    }

    /// Whether trace entry `e` was tried on an earlier state of its task than
    /// the newest one: a refusal or a no-op made while viewing the past (an
    /// accepted action there would have branched, discarding what came
    /// after). Its answer is as of that state, so it has no place in the
    /// run's order on the wire.
    pub fn tried_on_earlier_state(&self, e: &TraceEntry) -> bool {
        if e.outcome == Outcome::Done {
            return false;
        }
        let Some(task) = self.tasks.get(usize::from(e.task)) else {
            return false;
        };
        let later = task.records.partition_point(|r| r.id <= e.at);
        task.records.get(later).is_some_and(|r| r.id < e.seq)
    }

    /// The request of trace entry `seq` as sent, when it carried a text and
    /// recorded no state (a refused or idempotent clarification, PauseTask
    /// or ResumeTask whose answer is on the wire).
    pub fn sent(&self, seq: u32) -> Option<&Action> {
        let i = self.sent.binary_search_by_key(&seq, |s| s.0).ok()?;
        Some(&self.sent[i].1)
    }

    /// Proposal: the resume token of the viewed PAUSED state, if any.
    pub fn resume_token(&self) -> Option<&str> {
        self.stored_text(self.snapshot().pause?.token?)
    }

    /// Proposal: the reason of the viewed pause (see [`Self::pause_reason_of`]).
    pub fn pause_reason(&self) -> Option<String> {
        self.pause_reason_of(self.snapshot())
    }

    /// Proposal: the reason of a snapshot's pause, as `TaskPause.reason`
    /// carries it: the client's, if it gave one, or the agent's own when it
    /// parked itself.
    pub fn pause_reason_of(&self, snap: &Snapshot) -> Option<String> {
        let p = snap.pause?;
        if p.by == Initiator::Client {
            let given = p
                .reason
                .and_then(|r| self.stored_text(r))
                .filter(|r| !r.is_empty());
            return given.map(str::to_string);
        }
        let (u, n) = (snap.completed_units + 1, self.config.work_units);
        let wait = if p.event {
            let event = self.config.resume_event;
            format!("Waiting for {} before unit {u} of {n}", event.as_str())
        } else {
            format!("Parked before unit {u} of {n} until resumed")
        };
        Some(match self.config.timeout_words() {
            None => format!("{wait}."),
            Some(t) => {
                let then = match self.config.on_timeout {
                    OnTimeout::Fail => "the task fails",
                    OnTimeout::ResumeWithSummary => "it resumes on its own (resume_with_summary)",
                };
                format!("{wait}; after {t}, {then}.")
            }
        })
    }

    /// Proposal: the text of a snapshot's resume input, if one was given.
    pub fn resume_input(&self, snap: &Snapshot) -> Option<&str> {
        self.stored_text(snap.resume_input?)
    }

    /// Every resume token the viewed task issued up to the viewed state.
    fn issued_tokens(&self) -> impl Iterator<Item = &str> {
        self.viewed_task().records[..=self.position]
            .iter()
            .filter_map(|r| r.snap.pause)
            .filter_map(|p| self.stored_text(p.token?))
    }

    /// Whether `action` would record new states (`Ok(None)`), be accepted
    /// without change (`Ok(Some(why))`), or be refused.
    fn effect(&self, action: &Action) -> Result<Option<NoChange>, Refusal> {
        self.legality(action)?;
        let snap = self.snapshot();
        Ok(match action {
            Action::RequestCancellation if !self.config.worker_accepts_cancellation => {
                return Err(Refusal::WorkerRefusedCancellation)
            }
            // Pausing a paused task returns the current pause: idempotent.
            // So does pausing one whose pause is already pending, whatever
            // the mode: the first request stands until it takes effect or
            // lapses (the RFC does not say; the simulator's reading).
            Action::PauseTask { .. } if snap.state == TaskState::Paused => {
                Some(NoChange::AlreadyPaused)
            }
            Action::PauseTask { .. } if snap.pending.is_some() => {
                Some(NoChange::PauseAlreadyRequested)
            }
            Action::FireEvent(name)
                if !snap.pause.is_some_and(|p| {
                    p.event && self.config.resume_event.as_str() == name.trim()
                }) =>
            {
                Some(NoChange::NoTaskWaitsForEvent)
            }
            _ => None,
        })
    }

    /// Why `action`, taken now, would be accepted and change nothing
    /// (`None` when it would record a state, or be refused).
    pub fn unchanged_by(&self, action: &Action) -> Option<NoChange> {
        self.effect(action).ok().flatten()
    }

    /// Whether `action`, taken now, would record a new state (neither
    /// refused nor accepted without change).
    pub fn would_record(&self, action: &Action) -> bool {
        matches!(self.effect(action), Ok(None))
    }

    /// Carries out `action` on the viewed state, tracing it whatever happens
    /// (while the trace has room: see [`MAX_TRACE_ENTRIES`]).
    pub fn apply(&mut self, action: Action) -> Result<Applied, Refusal> {
        // Recorded, carried out and put on the wire as the agent reads it.
        let action = action.normalized();
        let op = match action {
            Action::Step => None,
            _ => Some(action.clone()),
        };
        let (seq, texts) = (self.next_seq, self.texts.len() as u32);
        let result = self.carry_out(action);
        if op.as_ref().is_some_and(Action::carries_words) {
            self.worded.push(WordedOp {
                op: self.script.len(),
                seq,
                texts: (texts, self.texts.len() as u32),
            });
        }
        self.write(match (op, result.is_ok()) {
            (None, true) => ScriptOp::Steps(1),
            (None, false) => ScriptOp::Act {
                action: Action::Step,
                ok: false,
            },
            (Some(action), ok) => ScriptOp::Act { action, ok },
        });
        result
    }

    /// [`Experiment::apply`], but for the script.
    fn carry_out(&mut self, action: Action) -> Result<Applied, Refusal> {
        let effect = self.effect(&action);
        self.applied = self.applied.saturating_add(1);
        let room = self.trace.len() < MAX_TRACE_ENTRIES;
        match effect {
            Err(refusal) => {
                if room {
                    self.trace_only(action, Outcome::Refused(refusal));
                }
                Err(refusal)
            }
            Ok(Some(why)) => {
                if room {
                    self.trace_only(action, Outcome::Unchanged(why));
                }
                Ok(Applied::Unchanged(why))
            }
            Ok(None) => {
                let discarded = self.discard_later();
                // Each recorded state takes one sequence number.
                let before = self.next_seq;
                self.perform(action);
                Ok(Applied::Recorded {
                    states: (self.next_seq - before) as usize,
                    discarded,
                })
            }
        }
    }

    /// The artifact of the viewed state: see [`Experiment::artifact_of`].
    pub fn viewed_artifact(&self) -> Option<Artifact> {
        self.artifact_of(self.viewed_task_index(), self.snapshot())
    }

    /// The chunk the agent streams as `unit` finishes, with
    /// [`Config::artifact_per_unit`].
    pub fn unit_chunk(&self, unit: u8) -> String {
        format!("Unit {unit} of {} done.", self.config.work_units)
    }

    /// The artifact of task `task` (an index into [`Experiment::tasks`]) at
    /// its recorded state `snap`: whole when that state is COMPLETED (its
    /// summary the last part); with [`Config::artifact_per_unit`], the
    /// chunks of the units done so far before that, kept when the task fails
    /// or is canceled. `None` when nothing was streamed.
    pub fn artifact_of(&self, task: usize, snap: &Snapshot) -> Option<Artifact> {
        let mut parts: Vec<String> = match self.config.artifact_per_unit {
            true => (1..=snap.completed_units)
                .map(|k| self.unit_chunk(k))
                .collect(),
            false => Vec::new(),
        };
        if snap.state == TaskState::Completed {
            parts.push(self.summary(snap));
        }
        if parts.is_empty() {
            return None;
        }
        // A follow-up refines the result: same name, its own artifactId.
        Some(Artifact {
            artifact_id: format!("result-{}", task + 1),
            name: "result".into(),
            parts,
        })
    }

    /// The summary a completed task's artifact ends with.
    fn summary(&self, snap: &Snapshot) -> String {
        let mut text = format!(
            "Result of {} of {} ({} s of active work).",
            self.config.work_units,
            self.config.units(),
            snap.active_s
        );
        // A quoted sentence keeps its own full stop (“… EUR.”); none is added
        // after the closing quote.
        let quoted = |q: &str| {
            let end = if q.ends_with(['.', '!', '?']) {
                ""
            } else {
                "."
            };
            format!("“{}”{end}", super::action::isolated(q))
        };
        if let Some(c) = self.clarification(snap) {
            text.push_str(&format!(" Clarification applied: {}", quoted(c)));
        }
        if snap.authorized {
            text.push_str(" Authorization received out of band.");
        }
        if let Some(i) = self.resume_input(snap) {
            text.push_str(&format!(" Resume input: {}", quoted(i)));
        }
        text
    }

    /// What the viewed state's artifact is short of: the rest to come, or,
    /// ended, that the task keeps what it streamed (`None` when whole).
    pub fn partial_artifact_note(&self) -> Option<String> {
        let snap = self.snapshot();
        let (n, done) = (self.config.work_units, snap.completed_units);
        match snap.state {
            TaskState::Completed => None,
            _ if self.viewed_artifact().is_none() => None,
            s if s.is_terminal() => Some(format!(
                "Partial: the chunks of the {done} / {n} units done, which the {} task keeps (nothing in A2A v1.0 stops an agent keeping a partial artifact).",
                if s == TaskState::Failed { "failed" } else { "canceled" }
            )),
            _ => Some(format!(
                "So far: the chunks of {done} / {n} units; the summary comes at completion."
            )),
        }
    }

    /// Why the viewed state has no artifact (`None` when it has one).
    pub fn no_artifact_reason(&self) -> Option<String> {
        let snap = self.snapshot();
        let n = self.config.work_units;
        let done = snap.completed_units;
        if self.viewed_artifact().is_some() {
            return None;
        }
        let streams = match self.config.artifact_per_unit {
            true => "this agent streams a chunk as each unit finishes, and none had finished",
            false => "this agent streams its artifact only at completion",
        };
        Some(match snap.state {
            TaskState::Completed => return None,
            TaskState::Submitted => "Not yet: the task has not started.".into(),
            TaskState::Working => format!("Not yet: {done} / {n} units done."),
            TaskState::InputRequired => {
                format!("Not yet: waiting for clarification ({done} / {n} units done).")
            }
            TaskState::AuthRequired => {
                format!("Not yet: waiting for authorization ({done} / {n} units done).")
            }
            TaskState::Failed => match self.failed_unit() {
                Some(unit) => format!(
                    "None: the task failed during unit {unit}; a failed unit is not counted, and {streams} (nothing in A2A v1.0 stops an agent keeping a partial artifact on a failed task)."
                ),
                None => format!(
                    "None: the pause timed out and the task failed ({done} / {n} units done) (proposal); {streams}."
                ),
            },
            TaskState::Canceled if done == 0 => {
                "None: the task was canceled before any unit was done.".into()
            }
            TaskState::Canceled => format!(
                "None: {done} / {n} units were done, but {streams} (nothing in A2A v1.0 stops an agent keeping a partial artifact on a canceled task)."
            ),
            TaskState::Rejected => "None: the agent rejected the task before any work.".into(),
            TaskState::Paused => {
                format!("Not yet: the task is paused (proposal), {done} / {n} units done.")
            }
        })
    }

    /// Whether Play (one Step per tick) has something to run from the viewed
    /// state: where Step is allowed, unless the task is paused with no
    /// timeout (proposal), where Steps would only add waiting minutes and
    /// just a resume (or its event) wakes it. Playback stops there.
    pub fn play_legality(&self) -> Result<(), PlayStop> {
        self.legality(&Action::Step).map_err(PlayStop::Step)?;
        match self.snapshot().pause {
            Some(p) if p.deadline_s.is_none() => Err(PlayStop::WaitsForResume { event: p.event }),
            _ => Ok(()),
        }
    }

    /// How often the viewed task went back to work after an interruption
    /// (or a pause, proposal) up to the viewed state: each time under the
    /// same task id, its completed units kept.
    pub fn resumes(&self) -> usize {
        self.resumes_from(TaskState::is_waiting)
    }

    /// Of [`Experiment::resumes`], those from a pause (proposal).
    pub fn resumes_from_pause(&self) -> usize {
        self.resumes_from(|s| s == TaskState::Paused)
    }

    /// How often the viewed task went from a state `from` accepts back to
    /// work, up to the viewed state.
    fn resumes_from(&self, from: impl Fn(TaskState) -> bool) -> usize {
        self.viewed_task().records()[..=self.position]
            .windows(2)
            .filter(|w| from(w[0].snap.state) && w[1].snap.state == TaskState::Working)
            .count()
    }

    /// Whether the viewed state is a failure that ended a pause (the
    /// proposal's timeout with `fail`) rather than a failed unit.
    fn failed_from_pause(&self) -> bool {
        let records = self.viewed_task().records();
        self.snapshot().state == TaskState::Failed
            && self
                .position()
                .checked_sub(1)
                .is_some_and(|p| records[p].snap.state == TaskState::Paused)
    }

    /// The unit the viewed task failed on, if it is FAILED by a unit's work
    /// (the next after its completed units, which a failed unit is not
    /// among); a pause that timed out (proposal) failed no unit.
    pub fn failed_unit(&self) -> Option<u8> {
        let snap = self.snapshot();
        (snap.state == TaskState::Failed && !self.failed_from_pause())
            .then_some(snap.completed_units + 1)
    }

    // ---- internals -------------------------------------------------------

    fn perform(&mut self, action: Action) {
        let snap = *self.snapshot();
        let config = self.task_config();
        match action {
            Action::Step => {
                snap.step(&config, |before, next, event| {
                    self.record_agent(event, before, next)
                });
            }
            Action::SupplyClarification(text) => {
                // Legal only at INPUT_REQUIRED, which `answered` answers.
                let next = Snapshot {
                    clarification: Some(self.text(text)),
                    ..snap.answered().unwrap_or(snap)
                };
                self.record(Actor::Client, Event::Clarified, Some(snap.state), next);
            }
            Action::Authorize => {
                // Legal only at AUTH_REQUIRED, which `answered` answers.
                let next = snap.answered().unwrap_or(snap);
                self.record(action.actor(), Event::Authorized, Some(snap.state), next);
            }
            Action::RequestCancellation => {
                let next = Snapshot {
                    state: TaskState::Canceled,
                    pause: None,
                    pending: None,
                    ..snap
                };
                self.record(
                    Actor::Client,
                    Event::CancelRequested,
                    Some(snap.state),
                    next,
                );
            }
            Action::FollowUp => {
                let reference = self.tasks[self.current_task_index()].id.clone();
                self.create_task(Some(reference));
            }
            Action::PauseTask { mode, reason } => {
                let reason = self.text(reason);
                let event = Event::PauseRequested { mode };
                let now = mode == PauseMode::InterruptImmediate
                    || (mode == PauseMode::FinishStep && snap.seconds_into_unit(&config) == 0);
                let mut next = if now {
                    snap.paused(&config, Initiator::Client, mode, Some(reason))
                } else {
                    Snapshot {
                        pending: Some(PendingPause { mode, reason }),
                        ..snap
                    }
                };
                self.issue_token(&mut next);
                self.record(Actor::Client, event, Some(snap.state), next);
            }
            Action::ResumeTask {
                input,
                continue_transcript,
                ..
            } => {
                let had_input = input.is_some();
                let mut next = snap.resumed();
                if let Some(input) = input {
                    next.resume_input = Some(self.text(input));
                }
                let event = Event::ResumeRequested {
                    had_input,
                    continue_transcript,
                };
                self.record(Actor::Client, event, Some(snap.state), next);
            }
            Action::FireEvent(_) => {
                self.record(
                    action.actor(),
                    Event::EventFired,
                    Some(snap.state),
                    snap.resumed(),
                );
            }
        }
    }

    /// Stores a text in the experiment's table, returning its index.
    fn text(&mut self, text: String) -> u32 {
        self.texts.push(text);
        (self.texts.len() - 1) as u32
    }

    /// Gives a snapshot that has just paused its resume token.
    fn issue_token(&mut self, snap: &mut Snapshot) {
        if let Some(pause) = snap.pause.as_mut().filter(|p| p.token.is_none()) {
            let token = self.ids.next_id();
            pause.token = Some(self.text(token));
        }
    }

    /// Records an agent transition, issuing a resume token when it pauses.
    fn record_agent(&mut self, event: Event, before: TaskState, mut next: Snapshot) {
        self.issue_token(&mut next);
        self.record(Actor::Agent, event, Some(before), next);
    }

    fn create_task(&mut self, reference_task_id: Option<String>) {
        let follow_up = reference_task_id.is_some();
        self.tasks.push(Task {
            id: self.ids.next_id(),
            reference_task_id,
            records: Vec::new(),
        });
        self.viewed_task = self.tasks.len() - 1;
        self.record(
            Actor::Client,
            Event::Created { follow_up },
            None,
            Snapshot::SUBMITTED,
        );
    }

    /// Appends a recorded state to the viewed (current) task and its trace entry.
    fn record(&mut self, actor: Actor, event: Event, before: Option<TaskState>, snap: Snapshot) {
        let seq = self.take_seq();
        let task = &mut self.tasks[self.viewed_task];
        task.records.push(Record { id: seq, snap });
        self.position = task.records.len() - 1;
        self.trace.push(TraceEntry {
            seq,
            task: self.viewed_task as u16,
            at: seq,
            active_s: snap.active_s,
            waiting_s: snap.waiting_s,
            actor,
            event,
            before,
            after: snap.state,
            outcome: Outcome::Done,
        });
    }

    /// Traces an action that recorded nothing (a client request, or one of
    /// the simulator's moves), keeping the texts a request carried when its
    /// answer is on the wire.
    fn trace_only(&mut self, action: Action, outcome: Outcome) {
        let (event, actor) = (requested_event(&action), action.actor());
        let seq = self.take_seq();
        let on_wire = outcome.on_wire();
        let texts = matches!(
            action,
            Action::SupplyClarification(_) | Action::PauseTask { .. } | Action::ResumeTask { .. }
        );
        if on_wire && texts {
            self.sent.push((seq, action));
        }
        let rec = *self.viewed_record();
        self.trace.push(TraceEntry {
            seq,
            task: self.viewed_task as u16,
            at: rec.id,
            active_s: rec.snap.active_s,
            waiting_s: rec.snap.waiting_s,
            actor,
            event,
            before: Some(rec.snap.state),
            after: rec.snap.state,
            outcome,
        });
    }

    fn take_seq(&mut self) -> u32 {
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }

    /// Drops every recorded state after the viewed one, and the trace entries
    /// made at them. Returns how many states went.
    fn discard_later(&mut self) -> usize {
        let gone = self.later_count();
        if gone == 0 {
            return 0;
        }
        let task = &mut self.tasks[self.viewed_task];
        let keep_id = task.records[self.position].id;
        // Every entry traced before the first discarded state was made is
        // kept: only the entries after it need filtering.
        let first_gone = task.records[self.position + 1].id;
        task.records.truncate(self.position + 1);
        let current = self.viewed_task as u16;
        let from = self.trace.partition_point(|e| e.seq < first_gone);
        let tail: Vec<TraceEntry> = self
            .trace
            .drain(from..)
            .filter(|e| e.task != current || e.at <= keep_id)
            .collect();
        self.trace.extend(tail);
        let trace = &self.trace[from..];
        let s = self.sent.partition_point(|(seq, _)| *seq < first_gone);
        let sent: Vec<(u32, Action)> = self
            .sent
            .drain(s..)
            .filter(|(seq, _)| trace.binary_search_by_key(seq, |e| e.seq).is_ok())
            .collect();
        self.sent.extend(sent);
        // What a discarded action's user wrote is gone with its effects: a
        // run the page keeps, shares or saves says nothing of it. Its script
        // op stays, masked, so that the run still replays to the same entry
        // numbers and ids.
        let event = self.config.resume_event;
        let w = self.worded.partition_point(|w| w.seq < first_gone);
        let later: Vec<WordedOp> = self.worded.drain(w..).collect();
        for w in later {
            if self.trace.binary_search_by_key(&w.seq, |e| e.seq).is_ok() {
                self.worded.push(w);
                continue;
            }
            if let Some(ScriptOp::Act { action, .. }) = self.script.get_mut(w.op) {
                *action = std::mem::replace(action, Action::Step).with_words_masked(event.as_str());
            }
            let (from, to) = (w.texts.0 as usize, w.texts.1 as usize);
            for text in self.texts.get_mut(from..to).into_iter().flatten() {
                *text = super::action::masked(text);
            }
        }
        gone
    }
}

fn requested_event(action: &Action) -> Event {
    match action {
        Action::Step => Event::StepRequested,
        Action::SupplyClarification(_) => Event::Clarified,
        Action::Authorize => Event::Authorized,
        Action::RequestCancellation => Event::CancelRequested,
        Action::FollowUp => Event::FollowUpRequested,
        Action::PauseTask { mode, .. } => Event::PauseRequested { mode: *mode },
        Action::ResumeTask {
            input,
            continue_transcript,
            ..
        } => Event::ResumeRequested {
            had_input: input.is_some(),
            continue_transcript: *continue_transcript,
        },
        Action::FireEvent(_) => Event::EventFired,
    }
}
