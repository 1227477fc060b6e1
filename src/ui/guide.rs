//! "Your experiment": the four experiments the page teaches, and a fifth on
//! the proposed pause lifecycle, one click each to set up; and, under Play,
//! where the viewed task stands in the experiment set up ([`guided_step`]).

use super::store::Store;
use crate::model::{
    Config, Event, EventName, Experiment, OnTimeout, Outcome, Refusal, Setting, Snapshot, Switch,
    TaskState,
};
use leptos::prelude::*;

/// Starts a fresh experiment with `config` (experiment `guided`, named
/// `what` in the notice), then on to Play: in view and focused, so that
/// Space plays. The notice names what the experiment changed (the settings
/// are far below, out of view); what to do, step by step, is said under
/// Play ([`guided_step`]).
fn set_up(store: Store, config: Result<Config, String>, what: &str, guided: Guided) {
    let config = match config {
        Ok(config) => config,
        Err(why) => return store.raise(format!("{what}: {why}.")),
    };
    let changes = config.changes_from(&Config::default());
    // Two at most: a notice of six (experiment 5) would fill a phone's
    // screen.
    let changes = match changes.as_slice() {
        [] => "the default settings".to_string(),
        [first, second, more @ ..] if !more.is_empty() => {
            format!(
                "{first}; {second}; and {} more settings, under Configure",
                more.len()
            )
        }
        _ => changes.join(", "),
    };
    store.set_up(config, format!("{what} set up ({changes})."), guided);
    // Once the page shows the new run: Play may be off until then (a
    // task that waited or ended), and a button that is off takes no focus.
    request_animation_frame(|| super::playback::go_to("play"));
}

/// The unit [`set_up_input_gate`] puts the input gate before.
pub fn input_gate_unit(config: &Config) -> u8 {
    config.work_units.min(2)
}

/// Experiment 1's gate, asked for beside Play: the settings in use (which
/// the user may have changed) with an input gate before unit 2, or unit 1
/// of a one-unit task.
pub fn set_up_input_gate(store: Store) {
    let config = store.config.get_untracked();
    let unit = input_gate_unit(&config);
    set_up(
        store,
        config
            .with(Setting::InputGate, i64::from(unit))
            .map_err(|e| e.to_string()),
        &Guided::Resume.title(),
        Guided::Resume,
    );
}

/// One of the page's experiments, set up with one click; while it is the
/// run on the page, the Playback panel says where the viewed task stands in
/// it and what to do next ([`guided_step`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Guided {
    Resume,
    FollowUp,
    Cancel,
    Authorization,
    Failure,
    Rejection,
    Pause,
}

impl Guided {
    /// In the guide's order.
    pub const ALL: [Guided; 7] = [
        Guided::Resume,
        Guided::FollowUp,
        Guided::Cancel,
        Guided::Authorization,
        Guided::Failure,
        Guided::Rejection,
        Guided::Pause,
    ];

    /// Its name, as the guide's link ends: "experiment 4: failure".
    pub fn name(self) -> &'static str {
        match self {
            Guided::Resume => "experiment 1",
            Guided::FollowUp => "experiment 2",
            Guided::Cancel => "experiment 3",
            Guided::Authorization => "experiment 4: authorization",
            Guided::Failure => "experiment 4: failure",
            Guided::Rejection => "experiment 4: rejection",
            Guided::Pause => "experiment 5",
        }
    }

    /// Whether a run of settings `config` can be this experiment, its steps
    /// holding: settings whose task stops where the experiment's does and
    /// nowhere else, whatever the units, seconds and switches (experiment 1
    /// is also set up beside Play, on the settings in use; experiment 3
    /// goes on with cancellation accepted, and invites streaming the result).
    pub fn fits(self, config: &Config) -> bool {
        // The task reaches unit `k` (a gate, a failure, a self-park) and
        // nothing but `without` stops it.
        let stops_only_at = |k: u8, without: Config| {
            (1..=config.work_units).contains(&k) && without.runs_straight_through()
        };
        let c = *config;
        match self {
            Guided::Resume => stops_only_at(c.input_gate, Config { input_gate: 0, ..c }),
            Guided::FollowUp | Guided::Cancel => c.runs_straight_through(),
            Guided::Authorization => stops_only_at(c.auth_gate, Config { auth_gate: 0, ..c }),
            Guided::Failure => stops_only_at(
                c.fail_during,
                Config {
                    fail_during: 0,
                    ..c
                },
            ),
            Guided::Rejection => c.reject_before_execution,
            Guided::Pause => {
                c.pause_proposal
                    && stops_only_at(
                        c.self_park_before,
                        Config {
                            self_park_before: 0,
                            ..c
                        },
                    )
            }
        }
    }

    /// Its name at the start of a sentence: "Experiment 4 (failure)".
    pub fn title(self) -> String {
        match self.name().split_once(": ") {
            Some((number, what)) => format!("E{} ({what})", &number[1..]),
            None => format!("E{}", &self.name()[1..]),
        }
    }

    /// Whether the experiment asks the user to see `refusal`: experiment 3's
    /// cancellation, which the worker refuses.
    pub fn asks_for(self, refusal: Refusal) -> bool {
        matches!(
            (self, refusal),
            (Guided::Cancel, Refusal::WorkerRefusedCancellation)
        )
    }

    /// The experiment after this one in the guide.
    pub fn after(self) -> Option<Guided> {
        let i = Guided::ALL.iter().position(|g| *g == self)?;
        Guided::ALL.get(i + 1).copied()
    }

    /// Its settings.
    pub fn config(self) -> Result<Config, String> {
        // The default settings with `setting` at unit 2.
        let at_unit_2 = |setting| {
            Config::default()
                .with(setting, 2)
                .map_err(|e| e.to_string())
        };
        match self {
            Guided::Resume => at_unit_2(Setting::InputGate),
            Guided::FollowUp => Ok(Config::default()),
            Guided::Cancel => Ok(Config {
                worker_accepts_cancellation: false,
                ..Config::default()
            }),
            Guided::Authorization => at_unit_2(Setting::AuthGate),
            Guided::Failure => at_unit_2(Setting::FailDuring),
            Guided::Rejection => Ok(Config {
                reject_before_execution: true,
                ..Config::default()
            }),
            Guided::Pause => {
                let event = EventName::new("pr.merged").map_err(|e| e.to_string())?;
                Ok(Config {
                    pause_proposal: true,
                    self_park_before: 3,
                    resume_event: event,
                    self_park_timeout: 5,
                    on_timeout: OnTimeout::ResumeWithSummary,
                    ..Config::default()
                })
            }
        }
    }
}

/// Sets up experiment `g` (the guide's links, and the link to the next
/// experiment when one is done).
pub fn set_up_guided(store: Store, g: Guided) {
    set_up(store, g.config(), &g.title(), g);
}

/// Where the viewed task stands in an experiment: its `step` of `of` (0 when
/// the task has left the experiment's path) and what to do now.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GuidedStep {
    pub step: u8,
    pub of: u8,
    pub text: String,
    /// The experiment is done; `text` says what it showed.
    pub done: bool,
    /// The control the step asks for, where it is not Play's or one a Go to
    /// under Play already reaches: its element id and the link's words.
    pub go: Option<(&'static str, &'static str)>,
}

/// Where the viewed task of `e` stands in experiment `g`, read from its
/// recorded states and trace alone, so that it follows seek and branching.
/// Every experiment but experiment 2 is on Task 1: viewing a follow-up, the
/// line says where Task 1 ended.
pub fn guided_step(g: Guided, e: &Experiment) -> GuidedStep {
    let first = e.tasks()[0].latest();
    // Task 1 once a follow-up came is read-only: where it ended, whatever
    // state of it is viewed (worked out only where it is needed: the line
    // is read again at every Step).
    let task_1 = || step_at(g, e, first.snap, first.id);
    if e.viewed_task_index() == 0 {
        if e.is_read_only() {
            return task_1();
        }
        let viewed = e.viewed_record();
        let mut at = step_at(g, e, viewed.snap, viewed.id);
        if e.discarded_by_acting() > 0 && !at.done {
            at.text.push_str(
                " You are viewing an earlier state: acting here discards the later ones.",
            );
        }
        return at;
    }
    let task_1 = task_1();
    match g {
        _ if task_1.done => task_1,
        Guided::FollowUp if first.snap.state == TaskState::Completed => GuidedStep::at(3, 4, "The follow-up: a new task id, the same context id, and Task 1 referenced (Inspect shows them). Now press Task 1, in Tasks in this context, below Inspect.").go(super::tasks::TASK_1_ROW, "Go to Task 1"),
        Guided::FollowUp => off_path(first.snap.state),
        _ => GuidedStep::at(0, 0, "You are viewing a follow-up; the experiment is on Task 1 (press it in Tasks in this context, below Inspect)."),
    }
}

/// Where Task 1, viewed at its newest state, will stand in experiment `g`
/// at each of Play's stops from here on (a question, a pause, the end) and
/// just after each answer: the line keeps room for the longest of these
/// while Play runs, so that nothing moves when they come.
pub fn guided_ahead(g: Guided, e: &Experiment) -> Vec<GuidedStep> {
    let viewed = e.viewed_record();
    if e.viewed_task_index() != 0 || e.views_the_past() || viewed.snap.state.is_terminal() {
        return Vec::new();
    }
    let stops = |n: &Snapshot| {
        n.state.is_terminal() || n.state.awaits().is_some() || n.state == TaskState::Paused
    };
    let mut ahead: Vec<GuidedStep> = Vec::new();
    let mut answered = stops(&viewed.snap);
    for (cur, next, _) in viewed.snap.run_ahead(e.config()) {
        let seen = [(answered, cur), (stops(&next), next)];
        answered = stops(&next);
        for (_, snap) in seen.into_iter().filter(|(keep, _)| *keep) {
            let step = step_at(g, e, snap, viewed.id);
            if !ahead.contains(&step) {
                ahead.push(step);
            }
        }
    }
    ahead
}

impl GuidedStep {
    /// Step `step` of `of` (0 of 0: off the experiment's path), `text` saying
    /// what to do.
    fn at(step: u8, of: u8, text: impl Into<String>) -> GuidedStep {
        GuidedStep {
            step,
            of,
            text: text.into(),
            done: false,
            go: None,
        }
    }

    /// The step, with a link to the control `id` it asks for.
    fn go(self, id: &'static str, words: &'static str) -> GuidedStep {
        GuidedStep {
            go: Some((id, words)),
            ..self
        }
    }

    /// The last of `of` steps, done: `text` says what the experiment showed.
    fn done(of: u8, text: impl Into<String>) -> GuidedStep {
        GuidedStep {
            step: of,
            of,
            text: text.into(),
            done: true,
            go: None,
        }
    }

    /// The words before the step's own: "Experiment 1, step 2 of 4: ".
    pub fn label(&self, g: Guided) -> String {
        match (self.done, self.step) {
            (true, _) => format!("{} done: ", g.title()),
            (false, 0) => format!("{}: ", g.title()),
            (false, k) => format!("{}, step {k} of {}: ", g.title(), self.of),
        }
    }
}

/// A task that ended where its experiment does not lead.
fn off_path(state: TaskState) -> GuidedStep {
    GuidedStep::at(
        0,
        0,
        format!(
            "The task ended in {}, off the experiment's path: Restart experiment tries again.",
            state.name()
        ),
    )
}

/// Where Task 1, in state `s` (its record `id`), stands in experiment `g`.
fn step_at(g: Guided, e: &Experiment, s: Snapshot, id: u32) -> GuidedStep {
    let state = s.state;
    let config = e.config();
    let units = |k: u8| match k {
        1 => "1 unit".to_string(),
        k => format!("{k} units"),
    };
    let (at, done) = (GuidedStep::at, GuidedStep::done);
    // Task 1's client requests of `events` the agent refused, at or before
    // the state in view, and after trace entry `since`.
    let refused = |events: &[Event], since: u32| {
        e.trace().iter().any(|x| {
            x.task == 0
                && x.seq > since
                && x.at <= id
                && events.contains(&x.event)
                && matches!(x.outcome, Outcome::Refused(_))
        })
    };
    // Experiment 2 asks for its message once a follow-up has come.
    let follow_up = e.tasks().get(1).map(|t| t.records()[0].id);
    let cancel_late = || {
        at(0, 0, "The task completed before you asked to cancel: Restart experiment, then Play or Step, and Request cancellation, in Act, while it works.".into())
    };
    match g {
        Guided::Resume => match state {
            TaskState::InputRequired => at(2, 4, format!("Note the task id, the context id and {} done (Inspect shows them); then Supply clarification, in Act.", units(s.completed_units))),
            TaskState::Completed => done(4, "One task id and one context id throughout, and no unit worked twice: interrupted, not ended.".into()),
            _ if state.is_terminal() => off_path(state),
            _ if s.input_supplied => at(3, 4, match config.input_gate.saturating_sub(1) {
                0 => "Press Play again: the task id and the context id stay as they were (no unit was done before the question).".into(),
                k => format!("Press Play again: the task id, the context id and the {} done before the question stay as they were.", units(k)),
            }),
            _ => at(1, 4, format!("Press Play: the task stops at TASK_STATE_INPUT_REQUIRED before unit {}.", config.input_gate)),
        },
        Guided::FollowUp => match (state, e.tasks().len()) {
            (TaskState::Completed, _) if follow_up.is_some_and(|since| refused(&[Event::Clarified, Event::CancelRequested], since)) => done(4, "The agent refused the request to Task 1, as the Wire panel shows: a terminal task is final, and more work goes in a follow-up.".into()),
            (TaskState::Completed, 1) => at(2, 4, "Press New follow-up task, in Act: a new task in the same context.".into()),
            (TaskState::Completed, _) => at(4, 4, "Task 1 is terminal for good: press Message to terminal task, in the Wire panel, and see the agent refuse it.".into()).go("wire-message-terminal", "Go to Message to terminal task"),
            _ if state.is_terminal() => off_path(state),
            _ => at(1, 4, "Press Play: the task runs to TASK_STATE_COMPLETED.".into()),
        },
        Guided::Cancel if config.worker_accepts_cancellation => match state {
            TaskState::Canceled => done(5, "TASK_STATE_CANCELED, final. The units done leave no artifact unless Stream the result unit by unit is on.".into()),
            TaskState::Completed => cancel_late(),
            _ if state.is_terminal() => off_path(state),
            _ => at(4, 5, "Press Play or Step, then Request cancellation, in Act: this time the worker accepts it.".into()),
        },
        Guided::Cancel => {
            let asked = refused(&[Event::CancelRequested], 0);
            match state {
                TaskState::Completed if asked => at(3, 5, "Now switch Worker accepts cancellation on, under Configure, and try again.".into())
                    .go(super::configure::switch_id(Switch::WorkerAcceptsCancellation), "Go to Worker accepts cancellation"),
                TaskState::Completed => cancel_late(),
                _ if state.is_terminal() => off_path(state),
                _ if asked => at(2, 5, "Refused: TaskNotCancelableError (-32002), as the Wire panel shows. Press Play: the task goes on to TASK_STATE_COMPLETED.".into()),
                _ => at(1, 5, "Press Play or Step, then Request cancellation, in Act, while the task is TASK_STATE_WORKING.".into()),
            }
        }
        Guided::Authorization => match state {
            TaskState::AuthRequired => at(2, 4, "Press Authorize, in Act: it stands for credentials that reach the agent out of band.".into()),
            TaskState::Completed => done(4, "The same task went on after the authorization, its stream open all along (see the Wire panel).".into()),
            _ if state.is_terminal() => off_path(state),
            _ if s.authorized => at(3, 4, match config.auth_gate.saturating_sub(1) {
                0 => "Press Play again: the same task goes on (no unit was done before the authorization).".into(),
                k => format!("Press Play again: the same task, its {} done before the authorization kept.", units(k)),
            }),
            _ => at(1, 4, format!("Press Play: the task stops at TASK_STATE_AUTH_REQUIRED before unit {}.", config.auth_gate)),
        },
        Guided::Failure => match state {
            TaskState::Failed => done(2, format!("TASK_STATE_FAILED, final, with {} done; the failed unit is not counted.", units(s.completed_units))),
            _ if state.is_terminal() => off_path(state),
            _ => at(1, 2, format!("Press Play: the task fails during unit {}.", config.fail_during)),
        },
        Guided::Rejection => match state {
            TaskState::Rejected => done(2, "TASK_STATE_REJECTED, final, before any work: no unit, no artifact.".into()),
            _ if state.is_terminal() => off_path(state),
            _ => at(1, 2, "Press Play: the agent rejects the task before any work.".into()),
        },
        Guided::Pause => match state {
            TaskState::Paused => at(2, 4, "Open Compare, at the foot of the Wire panel; then Fire event or Resume task, in Act's Pause and resume box (proposal).".into()).go("wire-compare-open", "Go to Compare"),
            TaskState::Completed => done(4, "Paused (proposal) and resumed, the same task throughout.".into()),
            _ if state.is_terminal() => off_path(state),
            _ if s.parked => at(3, 4, "Press Play again: the task goes on to TASK_STATE_COMPLETED.".into()),
            _ => at(1, 4, format!("Press Play: the agent pauses itself before unit {}, in TASK_STATE_PAUSED (proposal).", config.self_park_before)),
        },
    }
}

#[component]
pub fn GuidePanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let experiment = move |g: Guided| move |_| set_up_guided(store, g);
    let resume = experiment(Guided::Resume);
    let follow_up = experiment(Guided::FollowUp);
    let cancel = experiment(Guided::Cancel);
    // Experiment 4: the other ways a task stops, one set-up each.
    let authorization = experiment(Guided::Authorization);
    let failure = experiment(Guided::Failure);
    let rejection = experiment(Guided::Rejection);
    let pause = experiment(Guided::Pause);
    view! {
        <section class="panel guide" aria-labelledby="guide-h">
            <h2 id="guide-h">"Your experiment"</h2>
            <details class="hint primer" data-testid="primer">
                <summary>"New to A2A tasks? The lifecycle in five lines"</summary>
                <ul>
                    <li>"A client sends an agent a message; an agent that works on it for a while answers \
                         with a task, which has a task id. A context id groups the tasks of one conversation."</li>
                    <li>"A task starts SUBMITTED, works (WORKING), and ends in one of four terminal states: \
                         COMPLETED, FAILED, CANCELED or REJECTED. A terminal state is final."</li>
                    <li>"Midway it may wait: INPUT_REQUIRED (a question, which the client answers with a \
                         message) or AUTH_REQUIRED (credentials, which arrive out of band). Interrupted, \
                         not ended: the answer or the authorization resumes the same task."</li>
                    <li>"After a terminal state, more work is a follow-up: a new task in the same context \
                         that references the old one. Cancellation is a request the agent may refuse."</li>
                    <li>"On the wire, in the JSON-RPC binding shown here (v1.0 also defines gRPC and \
                         HTTP+JSON): JSON-RPC 2.0 requests; a streaming request's answers come as \
                         server-sent events. The Wire panel shows each one."</li>
                </ul>
            </details>
            <ol>
                <li>
                    <strong>"Resume an interruption. "</strong>
                    "The task will ask for clarification before unit 2 (Require input before "
                    "unit: 2). Press Play. "
                    "When the task stops at "
                    <code>"TASK_STATE_INPUT_REQUIRED"</code>
                    ", note its task id, context id and one completed unit (Inspect shows them); supply clarification "
                    "and play on: all three stay the same and no unit is redone. "
                    "This illustrates identity and continuation within the model's run; it is not "
                    "durable recovery after a browser closure or a network disconnection (the run "
                    "this browser keeps is the page's own record, replayed). "
                    <button class="link" on:click=resume>"Set up experiment 1"</button>
                </li>
                <li>
                    <strong>"Follow up a terminal task. "</strong>
                    "Run a task to "
                    <code>"TASK_STATE_COMPLETED"</code>
                    ", then choose New follow-up task: the context is kept and a new task id is "
                    "allocated. The finished task is terminal for good: view it (Task 1 under Tasks "
                    "in this context) and press Message to terminal task in the Wire panel to see "
                    "the agent refuse it. "
                    <button class="link" on:click=follow_up>"Set up experiment 2"</button>
                </li>
                <li>
                    <strong>"Ask to cancel. "</strong>
                    "Cancellation is a request the agent may refuse: this worker does not accept "
                    "it (Worker accepts cancellation: off). Press Play, then Request cancellation "
                    "(in Act): the agent answers "
                    <code>"TaskNotCancelableError"</code>
                    " (-32002), playback pauses at the refusal, the Wire panel shows the error, "
                    "and Play, pressed again, goes on to "
                    <code>"TASK_STATE_COMPLETED"</code>
                    ". Then switch Worker accepts cancellation on (under Configure) and try again: "
                    "CANCELED, and the units done leave no artifact unless the result is "
                    "streamed unit by unit. "
                    <button class="link" on:click=cancel>"Set up experiment 3"</button>
                </li>
                <li>
                    <strong>"The other ways a task stops. "</strong>
                    <code>"TASK_STATE_AUTH_REQUIRED"</code>
                    " waits for credentials, which reach the agent out of band: Authorize (in Act) "
                    "stands for them, and the same task goes on, its stream open all along. A task "
                    "that fails ends in "
                    <code>"TASK_STATE_FAILED"</code>
                    "; one the agent turns down before any work, in "
                    <code>"TASK_STATE_REJECTED"</code>
                    ". Watch the Lifecycle diagram and the Wire panel for each. Set up "
                    <span class="keep"><button class="link" on:click=authorization>"experiment 4: authorization"</button>","</span>
                    " "
                    <button class="link" on:click=failure>"experiment 4: failure"</button>
                    " or "
                    <span class="keep"><button class="link" on:click=rejection>"experiment 4: rejection"</button>"."</span>
                </li>
                <li>
                    <strong>"Pause and resume — a proposal, not part of A2A v1.0. "</strong>
                    "The agent pauses itself (a self-park, the proposal's AwaitTaskResumption) "
                    "before unit 3 in "
                    <code>"TASK_STATE_PAUSED"</code>
                    " until the event "
                    <code>"pr.merged"</code>
                    " or five minutes on the waiting clock. Press Play. While it is paused, open "
                    "Compare, at the foot of the Wire panel, to see the same pause as a v1.0 "
                    "extension could carry it: WORKING plus metadata. Then press Fire event, or "
                    "Resume task (both in Act's Pause and resume box; Resume task sends the resume "
                    "token Inspect shows). "
                    <button class="link" on:click=pause>"Set up experiment 5"</button>
                </li>
            </ol>
        </section>
    }
}
