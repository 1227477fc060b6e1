//! The page's one store: the experiment and the little UI state around it.
//! Every panel reads from here. The experiment changes only through the
//! store's methods, so every rule stays in the model; panels set the plain
//! UI state (what the Wire panel shows, the texts of the forms, messages)
//! directly.

use super::guide::{Guided, GuidedStep};
use super::wire::WireView;
use crate::model::{
    after_colon, Action, Applied, BadEventName, Config, EventName, Experiment, IdSource, NoChange,
    OnTimeout, PauseMode, RunError, SavedRun, SeekError, Setting, Switch, TaskState,
};
use crate::wire::PauseEncoding;
use leptos::prelude::*;
use std::num::IntErrorKind;

/// The playback speeds offered: label and multiple of 1×.
pub const SPEEDS: [(&str, f64); 5] = [
    ("0.5×", 0.5),
    ("1×", 1.0),
    ("2×", 2.0),
    ("4×", 4.0),
    ("10×", 10.0),
];

/// Play maps the configured active path (N·S seconds) onto one minute at 1×:
/// the milliseconds between two Steps at `speed` (1.0 = 1×). Seconds an
/// `interrupt_immediate` pause lost (proposal) are worked again at the same
/// pace, so such a run plays for longer than the minute.
pub fn play_interval_ms(config: &Config, speed: f64) -> u32 {
    let secs = config.active_path_seconds().max(1) as f64;
    let speed = if speed.is_finite() && speed > 0.0 {
        speed
    } else {
        1.0
    };
    (60_000.0 / secs / speed).round().max(1.0) as u32
}

/// The clarification text a fresh page proposes.
pub const DEFAULT_CLARIFICATION: &str = "Use the EU region and keep costs under 100 EUR.";

/// Where a run stands (see `Store::run_mark`).
pub type RunMark = (usize, usize, u32);

/// Shared, `Copy` handle to the page's state.
#[derive(Clone, Copy)]
pub struct Store {
    pub exp: RwSignal<Experiment>,
    /// The experiment's settings: most Steps leave them as they are, and
    /// what shows them is not run again.
    pub config: Memo<Config>,
    pub playing: RwSignal<bool>,
    /// Replaying the viewed task's recorded states toward the newest, one a
    /// tick of Play's clock, without acting: where it last moved to (the
    /// context, the task and the position), so that any other move ends it.
    pub replay: RwSignal<Option<(String, usize, usize)>>,
    /// Index into [`SPEEDS`].
    pub speed: RwSignal<usize>,
    /// Play's clock (and a replay's): one more at each of its ticks and each fresh interval
    /// (Play pressed, the speed or settings changed), so that what shows the
    /// wait for the next tick starts again with it.
    pub beat: RwSignal<u32>,
    /// Whether the single-key shortcuts (Space, →, `[`, `]`) are on.
    pub shortcuts: RwSignal<bool>,
    pub clarification: RwSignal<String>,
    /// A refusal or bad input, shown in the `role="alert"` region.
    pub alert: RwSignal<Option<String>>,
    /// The last transition or playback event, announced in `role="status"`.
    pub status: RwSignal<String>,
    /// A quieter note, e.g. that a settings change started a fresh experiment.
    pub notice: RwSignal<Option<String>>,
    /// What the Wire panel shows.
    pub wire_view: RwSignal<WireView>,
    /// The `historyLength` the Wire panel's *Get task* sends (unset: none).
    pub get_task_history: RwSignal<Option<u32>>,
    /// Whether the trace lists the agent's seconds and minutes that change
    /// no state; off, choosing the entry before or after skips them too.
    pub show_ticks: RwSignal<bool>,
    /// Proposal: the PauseTask form.
    pub pause_mode: RwSignal<PauseMode>,
    pub pause_reason: RwSignal<String>,
    /// Proposal: the ResumeTask form.
    pub resume_input: RwSignal<String>,
    pub continue_transcript: RwSignal<bool>,
    /// Proposal: the name of the event to fire.
    pub event_to_fire: RwSignal<String>,
    /// Proposal: how the Wire panel encodes pauses.
    pub pause_encoding: RwSignal<PauseEncoding>,
    /// Wall-clock start of the experiment (Unix epoch ms): the base of the
    /// wire timestamps, which add simulated time to it.
    pub started_ms: RwSignal<i64>,
    /// The run a fresh start or an opened run replaced, until the next action
    /// (a replaced run with nothing done keeps the one kept before it, and so
    /// does an opened run replaced by another opened before acting on it).
    pub replaced: RwSignal<Option<Replaced>>,
    /// The run as it was before an action from an earlier state discarded
    /// later recorded states, for Undo: until the next action (Play's own
    /// Steps after a Play that discarded aside), seek, fresh start or
    /// *Forget saved run*. It is not saved: a reload ends it.
    pub discarded: RwSignal<Option<Discarded>>,
    /// A text field's change started a fresh experiment, and no press (a
    /// pointer down, a key down) came since: the click that moved focus
    /// from the field, which comes next, acts on the new run as its first
    /// action (see `Store::in_same_click`).
    pub same_click: StoredValue<bool>,
    /// Playback has just stopped because a pause (proposal) took effect, not
    /// because the user paused it: the page then moves focus from Play to
    /// the link to Resume task (read once).
    pub stopped_at_pause: StoredValue<bool>,
    /// When Play last took a Step (ms on the page's clock) and where the
    /// run stood after it: Play pressed again from there within one of its
    /// periods (a pause of playback and back) waits for its next tick
    /// rather than taking a Step at once, so that playback keeps its pace.
    pub last_play_step: StoredValue<Option<(f64, RunMark)>>,
    /// The page's experiment this run was set up as: a settings change keeps
    /// it only where its steps still hold (a restart, say), Undo brings it
    /// back with its run, this tab's storage keeps it across a reload; an
    /// opened run ends it.
    pub guided: RwSignal<Option<Guided>>,
    /// Each fresh start draws a new random seed for its ids (the page), so
    /// restarting a run brought back or shared never repeats ids; tests keep
    /// one seeded source.
    pub fresh_seeds: bool,
}

/// The run [`Store::bring_back`] brings back: what a fresh start or an
/// opened run replaced.
#[derive(Clone)]
pub struct Replaced {
    pub run: SavedRun,
    /// The Undo of a discard the run still had when it was replaced: it
    /// comes back with it.
    discard: Option<Discarded>,
    /// Whether the run on the page replaced it by being opened (a link, a
    /// file) and is still unacted on: a run opened over that one keeps this.
    by_open: bool,
    /// The experiment it was set up as: it comes back with it.
    guided: Option<Guided>,
}

impl Replaced {
    /// A run kept for Undo on its own (as one read back from storage).
    pub fn new(run: SavedRun) -> Replaced {
        Replaced {
            run,
            discard: None,
            by_open: false,
            guided: None,
        }
    }
}

/// The page as it is before an action from an earlier state: the
/// experiment, and the run the fresh-start Undo would bring back then. That
/// run is kept alone, without the Undo of a discard it still had: an undo
/// point never holds another, however often runs replace one another and
/// act from earlier states.
#[derive(Clone)]
struct UndoPoint {
    exp: Experiment,
    replaced: Option<SavedRun>,
}

/// What the notice of a fresh start adds when Undo reaches the run it
/// replaced; the notice then offers that Undo (see [`Store::notice_undo`]).
pub const REPLACED_UNDO: &str = "Undo (here, or under Configure) brings back the run from before.";

/// The Undo the notice offers: of a discarded branch, or of a replaced run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeUndo {
    Discard,
    Replace,
}

/// What [`Store::undo_discard`] brings back: the page as it was before the
/// action (`label`) that discarded `count` recorded states.
#[derive(Clone)]
pub struct Discarded {
    point: UndoPoint,
    count: usize,
    label: &'static str,
}

impl Discarded {
    /// What the action did, e.g. "Step discarded 5 later recorded states."
    pub fn said(&self) -> String {
        format!(
            "{} discarded {} later recorded state{}.",
            self.label,
            self.count,
            plural(self.count)
        )
    }

    /// The notice the action raises, offering Undo.
    pub fn notice(&self) -> String {
        format!(
            "{} Undo (here, or under Recorded states) brings {} back until your next action or a reload.",
            self.said(),
            self.them()
        )
    }

    /// What Undo says once they are back.
    fn back(&self) -> String {
        match self.count {
            1 => "The discarded recorded state is back".to_string(),
            n => format!("The {n} discarded recorded states are back"),
        }
    }

    /// The discarded states, as a pronoun.
    fn them(&self) -> &'static str {
        if self.count == 1 {
            "it"
        } else {
            "them"
        }
    }

    /// The words of the button that undoes it.
    pub fn undo_words(&self) -> String {
        format!("Undo: bring {} back", self.them())
    }
}

/// Who sends an action, which decides how its answer is said.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sender {
    /// The user, by a control or a key.
    User,
    /// Play, one Step per tick.
    Play,
    /// The user, with a request sent to be refused (Wire's requests to a
    /// terminal task, *Resume with wrong token*): its refusal is said as
    /// the answer it should be, not raised as an alert.
    ToBeRefused,
}

impl Store {
    /// A store over a fresh default experiment with ids from `seed`.
    pub fn new(seed: u64) -> Store {
        let started = now_ms();
        let exp = Experiment::new(Config::default(), IdSource::seeded(seed))
            .expect("the default config is valid");
        let exp = RwSignal::new(exp);
        let store = Store {
            exp,
            config: Memo::new(move |_| exp.with(|e| *e.config())),
            playing: RwSignal::new(false),
            replay: RwSignal::new(None),
            speed: RwSignal::new(1),
            beat: RwSignal::new(0),
            shortcuts: RwSignal::new(true),
            clarification: RwSignal::new(DEFAULT_CLARIFICATION.to_string()),
            alert: RwSignal::new(None),
            status: RwSignal::new(String::new()),
            notice: RwSignal::new(None),
            wire_view: RwSignal::new(WireView::Latest),
            get_task_history: RwSignal::new(None),
            show_ticks: RwSignal::new(true),
            pause_mode: RwSignal::new(PauseMode::FinishStep),
            pause_reason: RwSignal::new("Operator review of the work so far.".into()),
            resume_input: RwSignal::new(String::new()),
            continue_transcript: RwSignal::new(true),
            event_to_fire: RwSignal::new("pr.merged".into()),
            pause_encoding: RwSignal::new(PauseEncoding::ProposedCore),
            started_ms: RwSignal::new(started),
            replaced: RwSignal::new(None),
            discarded: RwSignal::new(None),
            same_click: StoredValue::new(false),
            stopped_at_pause: StoredValue::new(false),
            last_play_step: StoredValue::new(None),
            guided: RwSignal::new(None),
            fresh_seeds: false,
        };
        // The status line says where the task stands from the first look.
        store.status.set(store.describe_state());
        store
    }

    /// Whether `action` is allowed now, or why not (the model's legality).
    pub fn legality(&self, action: &Action) -> Result<(), String> {
        self.exp
            .with(|e| e.legality(action))
            .map_err(|r| r.to_string())
    }

    /// Carries out an action, announcing what changed or alerting why not.
    pub fn act(&self, action: Action) -> bool {
        self.act_and_stop(action, None, Sender::User)
    }

    /// [`Store::act`] from the control `label` when its words are not the
    /// action's own (*Cancel terminal task*, *Resume with wrong token*…):
    /// what it says names the control the user used.
    pub fn act_as(&self, action: Action, label: &'static str) -> bool {
        self.act_and_stop(action, Some(label), Sender::User)
    }

    /// [`Store::act_as`] for a request sent to be refused (Wire's requests
    /// to a terminal task, *Resume with wrong token*): the refusal is what
    /// the user asked to see, so the status line says it and Wire shows its
    /// error; no alert is raised.
    pub fn send_to_be_refused(&self, action: Action, label: &'static str) {
        self.act_and_stop(action, Some(label), Sender::ToBeRefused);
    }

    /// [`Store::act_from`], then stops playback where it can go no further
    /// or where a pause took effect: an action the user takes while playing
    /// may end what Play can do (a cancel, say), and playback stops there,
    /// not at its next tick.
    fn act_and_stop(&self, action: Action, label: Option<&'static str>, sender: Sender) -> bool {
        let before = self.exp.with_untracked(|e| e.snapshot().state);
        let ok = self.act_from(action, label, sender, before);
        if !self.stop_if_done() {
            self.stop_if_paused(before);
        }
        ok
    }

    /// [`Store::act`], as `sender` sends it, from the viewed state in
    /// `before`.
    fn act_from(
        &self,
        action: Action,
        label: Option<&'static str>,
        sender: Sender,
        before: TaskState,
    ) -> bool {
        let by_play = sender == Sender::Play;
        let label = label.unwrap_or(if by_play { "Play" } else { action.said() });
        let undo_point = self.undo_point();
        // Undo reaches the last action the user took: this one, from now on
        // (Play's own Steps keep the Undo of the Play that discarded).
        if !by_play {
            self.forget_discarded();
        }
        let sent = action.clone();
        let Some(result) = self.exp.try_update(|e| e.apply(action)) else {
            return false;
        };
        self.show_on_wire(matches!(result, Ok(Applied::Recorded { .. })));
        self.read_on(by_play);
        match result {
            Ok(applied) => {
                // The user's action answers an alert; Play's own Steps do
                // not (a file refused while it plays stays said).
                if !by_play && self.alert.with_untracked(Option::is_some) {
                    self.alert.set(None);
                }
                let after = self.exp.with_untracked(|e| e.snapshot().state);
                match applied {
                    Applied::Recorded { discarded, .. } => {
                        // A resume input reaches one resume, not every later one.
                        if matches!(sent, Action::ResumeTask { .. }) {
                            self.resume_input.set(String::new());
                        }
                        if let (true, Some(point)) = (discarded > 0, undo_point) {
                            self.offer_undo(point, discarded, label);
                        }
                    }
                    Applied::Unchanged(why) => {
                        self.say(nothing_changed(label, why, &sent, after));
                    }
                }
                // The status line says the state when it changes. One more
                // second or minute in the same state is said as the trace
                // entry says it when the user asked for it (a Step), not
                // when Play did (the trace shows it).
                let now = self.describe_state();
                let recorded = matches!(applied, Applied::Recorded { .. });
                if after != before {
                    self.status.set(now);
                } else if !by_play && recorded && !self.playing.get_untracked() {
                    let newest = self
                        .exp
                        .with_untracked(|e| e.trace().last().map(|t| t.event.to_string()));
                    self.say(match newest {
                        Some(what) => format!("{label}: {what}."),
                        None => now,
                    });
                }
                true
            }
            Err(refusal) => {
                // The user's own action refused while Play runs stops it,
                // so that the refusal stays in view (Wire shows its error)
                // until the user plays on.
                let stopped = !by_play && self.playing.get_untracked();
                if stopped {
                    self.playing.set(false);
                }
                // A refusal the experiment set up asks for is no alarm: the
                // status line says it. Otherwise the status line says the
                // state again, not what an earlier action said (the alert
                // says this one).
                let asked_by = match self.guided.get_untracked().filter(|g| g.asks_for(refusal)) {
                    Some(g) => Some(format!("{} expects", g.title())),
                    None if sender == Sender::ToBeRefused => Some("it should be".to_string()),
                    None => None,
                };
                let why = after_colon(refusal);
                let mut now = match &asked_by {
                    Some(who) => {
                        self.alert.set(None);
                        refused_on_purpose(label, who, &why)
                    }
                    None => {
                        self.raise(format!("{label} refused: {why}"));
                        self.describe_state()
                    }
                };
                if stopped {
                    now.push_str(" Playback paused at the refusal; Play goes on.");
                }
                if asked_by.is_some() {
                    self.say(now);
                } else if self.status.with_untracked(|s| *s != now) {
                    self.status.set(now);
                }
                false
            }
        }
    }

    /// What an action from an earlier state may discard, kept within reach
    /// of Undo: the experiment (its run with it) and the run kept for the
    /// fresh-start Undo, as they are before it (the copy is made only there).
    fn undo_point(&self) -> Option<UndoPoint> {
        self.exp
            .with_untracked(|e| (e.discarded_by_acting() > 0).then(|| e.clone()))
            .map(|exp| UndoPoint {
                exp,
                replaced: self
                    .replaced
                    .with_untracked(|r| r.as_ref().map(|r| r.run.clone())),
            })
    }

    /// The Wire panel shows what an action put on the wire: the newest
    /// entry. A refusal (or an accepted no-op) made while viewing an earlier
    /// state records no state, so it is not the viewed one's.
    fn show_on_wire(&self, recorded: bool) {
        let newest = self.exp.with_untracked(|e| {
            let seq = e.trace().last().map(|t| t.seq);
            seq.filter(|_| !recorded && e.views_the_past())
        });
        self.wire_view
            .set(newest.map_or(WireView::Latest, WireView::Entry));
    }

    /// Acting on this run makes it the one to keep, and the note on how it
    /// started (a fresh start, a restored run) has been read. Not so for the
    /// click that replaced it: a text field commits as focus leaves it, so
    /// clicking Step from the field both starts a fresh experiment and steps
    /// it, and the user has read nothing yet. What the last action said has
    /// been read too; Play's own Steps keep it: its first Step may have
    /// discarded later states, which stays said.
    fn read_on(&self, by_play: bool) {
        let same_click = self.in_same_click();
        self.same_click.set_value(false);
        if same_click {
            return;
        }
        if self.replaced.with_untracked(Option::is_some) {
            self.replaced.set(None);
        }
        if !by_play && self.notice.with_untracked(Option::is_some) {
            self.notice.set(None);
        }
    }

    /// Says that the action `label` discarded `count` later recorded states
    /// and offers their Undo, back to `point`.
    fn offer_undo(&self, point: UndoPoint, count: usize, label: &'static str) {
        let undo = Discarded {
            point,
            count,
            label,
        };
        self.notice.set(Some(undo.notice()));
        self.discarded.set(Some(undo));
    }

    /// One Step (the button or →); during playback, stops it (and says why)
    /// when the task can no longer run.
    pub fn step(&self) -> bool {
        self.act(Action::Step)
    }

    /// One of Play's Steps: its first, then one per tick.
    pub fn play_step(&self) {
        // Whatever changed since the last tick (a seek, a loaded run), Play
        // never asks for a Step it would be refused: it stops instead.
        if self.stop_if_done() {
            return;
        }
        self.act_and_stop(Action::Step, None, Sender::Play);
        self.last_play_step
            .set_value(Some((js_sys::Date::now(), self.run_mark())));
    }

    /// Where the run stands: its trace's length and the viewed state.
    fn run_mark(&self) -> RunMark {
        self.exp
            .with_untracked(|e| (e.trace().len(), e.viewed_task_index(), e.viewed_record().id))
    }

    /// Proposal: a pause that takes effect while playing (on Play's Step,
    /// a Step or → pressed meanwhile, or an action) stops Play as a gate
    /// does, so that the client's turn is not run past; Play again runs the
    /// waiting clock towards its timeout.
    fn stop_if_paused(&self, before: TaskState) {
        let now = self.exp.with_untracked(|e| e.snapshot().state);
        if !self.playing.get_untracked() || before == TaskState::Paused || now != TaskState::Paused
        {
            return;
        }
        self.stopped_at_pause.set_value(true);
        self.playing.set(false);
        self.status.set(format!(
            "{} Playback stopped: the task paused. Resume it{}, or press Play to let its waiting clock run.",
            self.describe_state(),
            self.exp.with_untracked(|e| if e.snapshot().pause.is_some_and(|p| p.event) {
                " or fire its event"
            } else {
                ""
            })
        ));
    }

    /// Stops playback, saying why, where it can go no further; whether it
    /// is stopped.
    fn stop_if_done(&self) -> bool {
        if !self.playing.get_untracked() {
            return true;
        }
        match untrack(|| self.play_verdict()) {
            Ok(()) => false,
            Err(why) => {
                self.playing.set(false);
                self.status
                    .set(format!("{} Playback stopped: {why}", self.describe_state()));
                true
            }
        }
    }

    /// Whether Play can run from the viewed state, or why not, in words to
    /// follow a colon (see [`Experiment::play_legality`]).
    pub fn play_verdict(&self) -> Result<(), String> {
        self.exp.with(|e| e.play_legality().map_err(after_colon))
    }

    /// Proposal: the PauseTask the page sends, with the chosen mode and
    /// reason (tracked: buttons check exactly what they send).
    pub fn pause_action(&self) -> Action {
        Action::PauseTask {
            mode: self.pause_mode.get(),
            reason: self.pause_reason.get(),
        }
    }

    /// Proposal: the ResumeTask the page sends, with the viewed pause's token
    /// or a wrong one on purpose, the resume input and `continueTranscript`
    /// (tracked: buttons check exactly what they send).
    pub fn resume_action(&self, right_token: bool) -> Action {
        let token = if right_token {
            self.exp
                .with(|e| e.resume_token().unwrap_or_default().to_string())
        } else {
            crate::model::WRONG_RESUME_TOKEN.to_string()
        };
        let input = self.resume_input.get();
        Action::ResumeTask {
            token,
            input: (!crate::model::blank(&input)).then_some(input),
            continue_transcript: self.continue_transcript.get(),
        }
    }

    /// Proposal: sends [`Store::resume_action`].
    pub fn resume(&self, right_token: bool) {
        let action = untrack(|| self.resume_action(right_token));
        if right_token {
            self.act(action);
        } else {
            // Sent to see the proposal's refusal, as Wire's requests to a
            // terminal task are.
            self.send_to_be_refused(action, "Resume with wrong token (proposal)");
        }
    }

    /// Play / Pause playback. Play takes its first Step at once, then one per tick.
    /// While a replay runs, the same press pauses it where it is: the states
    /// move as under Play, and a Play there would discard the ones ahead.
    pub fn toggle_play(&self) {
        if self.replay.with_untracked(Option::is_some) {
            self.stop_replay();
        } else if self.playing.get_untracked() {
            self.playing.set(false);
            self.status
                .set(format!("{} Playback paused.", self.describe_state()));
        } else if let Err(why) = untrack(|| self.play_verdict()) {
            self.raise(format!("Play refused: {why}"));
        } else {
            self.alert.set(None);
            // Not the note on a fresh start that came with this click.
            if !self.in_same_click() {
                self.notice.set(None);
            }
            // A Play is a new action: Undo reaches it, not one before it.
            self.forget_discarded();
            self.playing.set(true);
            self.status
                .set(format!("{} Playing.", self.describe_state()));
            // Back from a pause of playback, nothing done since: the next
            // Step comes at Play's next tick, not at once.
            let resumed = self.last_play_step.get_value().is_some_and(|(at, mark)| {
                mark == self.run_mark()
                    && js_sys::Date::now() - at < f64::from(untrack(|| self.play_period_ms()))
            });
            if !resumed {
                self.play_step();
            }
        }
    }

    /// Changes one numeric setting from its text form; starts a fresh
    /// experiment, or alerts and keeps the current run when the value is bad.
    pub fn set_setting(&self, setting: Setting, raw: &str) {
        let parsed = raw.trim().parse::<i64>();
        let config = self.exp.with_untracked(|e| *e.config());
        match parsed {
            // Digits beyond any integer: out of range, as any value is.
            Err(e)
                if matches!(
                    e.kind(),
                    IntErrorKind::PosOverflow | IntErrorKind::NegOverflow
                ) =>
            {
                self.raise(format!("{}.", setting.out_of_range(raw.trim())))
            }
            Err(_) => self.raise(format!(
                "{} must be a whole number (got “{}”).",
                setting.said(),
                raw
            )),
            // Back to the value in use: this setting's alert is answered.
            Ok(v) if i64::from(config.get(setting)) == v => self.answer_alert(setting.label()),
            Ok(v) => match config.with(setting, v) {
                Ok(config) => self.configure(config, &format!("{} changed", setting.said())),
                Err(e) => self.raise(e.to_string()),
            },
        }
    }

    /// Clears the alert if it is about `what` (it begins so): a field set
    /// back to its value in use answers its own alert, not another one.
    fn answer_alert(&self, what: &str) {
        if self
            .alert
            .with_untracked(|a| a.as_deref().is_some_and(|a| a.starts_with(what)))
        {
            self.alert.set(None);
        }
    }

    /// Switches the pause/resume proposal on or off; starts a fresh experiment.
    pub fn set_proposal(&self, on: bool) {
        let mut config = self.exp.with_untracked(|e| *e.config());
        config.pause_proposal = on;
        self.configure(config, "Proposed pause/resume changed");
    }

    /// Sets the self-park's resume event name; starts a fresh experiment.
    /// A name refused is said in the alert; the returned text says what the
    /// experiment keeps instead, for the field (`None`: the name is in use).
    pub fn set_resume_event(&self, raw: &str) -> Option<String> {
        let mut config = self.exp.with_untracked(|e| *e.config());
        match EventName::new(raw) {
            Ok(name) if name == config.resume_event => {
                self.answer_alert("The resume event name");
                None
            }
            Ok(name) => {
                config.resume_event = name;
                self.fresh_from(
                    config,
                    "Resume event name (proposal) changed",
                    FieldCommit::OnBlur,
                );
                None
            }
            Err(e) => {
                let kept = match config.resume_event.as_str() {
                    "" => "no resume event (only ResumeTask wakes a self-park)".to_string(),
                    name => format!("“{name}”"),
                };
                let hint = match e {
                    BadEventName::TooLong => " Accented letters take two bytes or more.",
                    BadEventName::Invisible => "",
                };
                self.raise(format!("{e}{hint} The experiment keeps {kept}."));
                Some(format!(
                    "Not in use: {} The experiment keeps {kept}.",
                    after_colon(e)
                ))
            }
        }
    }

    /// Sets what a self-park timeout does; starts a fresh experiment.
    pub fn set_on_timeout(&self, on_timeout: OnTimeout) {
        let mut config = self.exp.with_untracked(|e| *e.config());
        config.on_timeout = on_timeout;
        self.configure(config, "On timeout (proposal) changed");
    }

    /// Sets one switch; starts a fresh experiment.
    pub fn set_switch(&self, switch: Switch, on: bool) {
        let config = self.exp.with_untracked(|e| *e.config());
        self.configure(
            config.with_switch(switch, on),
            &format!("{} changed", switch.label()),
        );
    }

    /// Starts a fresh experiment with a whole configuration; `what` names
    /// the change in the notice.
    pub fn configure(&self, config: Config, what: &str) {
        self.fresh_from(config, what, FieldCommit::AtOnce);
    }

    /// Starts a fresh experiment set up whole (one of the page's
    /// experiments, `guided`): `notice` says what it set up.
    pub fn set_up(&self, config: Config, notice: String, guided: Guided) {
        self.start(config, notice, FieldCommit::AtOnce);
        self.guided.set(Some(guided));
    }

    /// Where the viewed task stands in the experiment set up, if any.
    pub fn guided_step(&self) -> Option<GuidedStep> {
        let g = self.guided.get()?;
        Some(self.exp.with(|e| super::guide::guided_step(g, e)))
    }

    /// Where the experiment set up will stand at Play's stops from here on.
    pub fn guided_ahead(&self) -> Vec<GuidedStep> {
        match self.guided.get() {
            Some(g) => self.exp.with(|e| super::guide::guided_ahead(g, e)),
            None => Vec::new(),
        }
    }

    /// Starts a fresh experiment for a settings change made in a control
    /// that commits as `commit` says.
    ///
    /// The notice says whether the experiment set up, if any, goes on with
    /// the new settings (see [`Store::start`]).
    fn fresh_from(&self, config: Config, changed: &str, commit: FieldCommit) {
        let guided = match self.guided.get_untracked() {
            // Where it stands, its line says (experiment 3 goes on at step 4).
            Some(g) if g.fits(&config) => {
                format!(
                    " {} goes on with these settings: its line under Play says where.",
                    g.title()
                )
            }
            Some(g) => format!(" The steps of {} end here.", g.title()),
            None => String::new(),
        };
        self.start(
            config,
            format!("{changed}: a fresh experiment started (new task and context ids).{guided}"),
            commit,
        );
    }

    /// Restart experiment: same settings, fresh ids.
    pub fn restart(&self) {
        let config = self.exp.with_untracked(|e| *e.config());
        self.start(
            config,
            "Experiment restarted with the same settings.".into(),
            FieldCommit::AtOnce,
        );
    }

    /// Starts a fresh experiment with `config` and new ids, keeping the run it
    /// replaces so that [`Store::bring_back`] can restore it.
    fn start(&self, config: Config, notice: String, commit: FieldCommit) {
        let ids = if self.fresh_seeds {
            IdSource::seeded(super::random_seed())
        } else {
            self.exp.with_untracked(|e| e.ids().clone())
        };
        let fresh = match Experiment::new(config, ids.clone()) {
            Ok(fresh) => fresh,
            Err(e) => return self.raise(e.to_string()),
        };
        self.set_aside();
        // The experiment set up goes on where its steps still hold (a
        // restart, experiment 3 with cancellation accepted).
        let guided = self.guided.get_untracked().filter(|g| g.fits(&config));
        self.guided.set(guided);
        // A field that commits as focus leaves it: the click that moved
        // focus may act next, on this run (see `in_same_click`).
        if commit == FieldCommit::OnBlur {
            self.same_click.set_value(true);
        }
        self.install(fresh, now_ms());
        let notice = match self.replaced.with_untracked(Option::is_some) {
            true => format!("{notice} {REPLACED_UNDO}"),
            false => notice,
        };
        self.notice.set(Some(notice));
    }

    /// The Undo the notice on the page offers, if any: only the notice that
    /// says so, while its Undo still reaches (a later notice, such as a
    /// download's, may have taken its place).
    pub fn notice_undo(&self) -> Option<NoticeUndo> {
        self.notice.with(|n| {
            let n = n.as_deref()?;
            let discard = self
                .discarded
                .with(|d| d.as_ref().is_some_and(|d| n.starts_with(&d.notice())));
            if discard {
                Some(NoticeUndo::Discard)
            } else if self.replaced.with(Option::is_some) && n.contains(REPLACED_UNDO) {
                Some(NoticeUndo::Replace)
            } else {
                None
            }
        })
    }

    /// Keeps the run on the page, when it has anything to lose, for
    /// [`Store::bring_back`]: Undo brings back the run just replaced (an
    /// opened link or file too, when a settings change or a restart replaces
    /// it). A run with nothing done (as while a settings slider is dragged)
    /// leaves the one kept before in place.
    fn set_aside(&self) {
        self.same_click.set_value(false);
        let run = self.saved_run();
        if !run.script.is_empty() {
            let discard = self.discarded.get_untracked();
            self.replaced.set(Some(Replaced {
                run,
                discard,
                by_open: false,
                guided: self.guided.get_untracked(),
            }));
        }
    }

    /// Whether an action now comes with the click that started this fresh
    /// experiment: the first one on it, with no press since the field's
    /// change. A change that focus leaving the field commits comes between
    /// the click's pointer down and the click itself (or right after the
    /// Tab that moved focus, whose next key press is the user's next
    /// action). A run opened from a link, a file or this browser's storage
    /// has no such click.
    fn in_same_click(&self) -> bool {
        self.same_click.get_value()
    }

    /// A pointer down or a key down: whatever comes next is not the click
    /// that started a fresh experiment from a text field.
    pub fn pressed(&self) {
        self.same_click.set_value(false);
    }

    /// Brings back the run that the last fresh start or opened run replaced.
    pub fn bring_back(&self) {
        let Some(kept) = self.replaced.get_untracked() else {
            return;
        };
        match kept.run.replay() {
            Ok(exp) => {
                self.replaced.set(None);
                self.same_click.set_value(false);
                self.guided.set(kept.guided);
                self.install(exp, kept.run.started_ms);
                // As it was: with the Undo of a discard it still had.
                if kept.discard.is_some() {
                    self.discarded.set(kept.discard);
                }
                self.notice
                    .set(Some("The run from before is back, as it was.".into()));
            }
            Err(e) => self.raise(format!(
                "The run from before could not be brought back: {e}."
            )),
        }
    }

    /// Brings back the recorded states the action that discarded them took
    /// away (with a Play's, every state it recorded since), and the earlier
    /// state it was taken from, as they were before it.
    pub fn undo_discard(&self) {
        let Some(undo) = self.discarded.get_untracked() else {
            return;
        };
        let back = undo.back();
        let UndoPoint { exp, replaced } = undo.point;
        self.install(exp, self.started_ms.get_untracked());
        // The run a fresh start replaced stays within reach of its own Undo.
        if let Some(run) = replaced {
            self.replaced.set(Some(Replaced::new(run)));
        }
        self.notice.set(Some(format!(
            "{back}; you are viewing the earlier state you acted from."
        )));
    }

    /// Ends the reach of [`Store::undo_discard`].
    pub fn forget_discarded(&self) {
        if self.discarded.with_untracked(Option::is_some) {
            self.discarded.set(None);
        }
    }

    /// Puts `exp` on the page, its wire timestamps counted from `started_ms`.
    fn install(&self, exp: Experiment, started_ms: i64) {
        self.forget_discarded();
        // Whatever replaced the kept run now is not an opened run unacted on.
        self.kept_by_open(false);
        self.playing.set(false);
        self.alert.set(None);
        self.started_ms.set(started_ms);
        self.wire_view.set(WireView::Latest);
        self.exp.set(exp);
        // An opened run may be viewed at an earlier state or task.
        self.status.set(self.view_status());
    }

    /// Views another recorded state of the viewed task.
    pub fn seek(&self, position: usize) {
        self.navigate(|e| e.seek(position));
    }

    /// [`Store::seek`] from the Recorded state slider, which a held arrow
    /// key or a drag moves many times, its own value saying each state: the
    /// status line says the state once the slider has rested 400 ms, and
    /// then only if nothing else was said meanwhile.
    pub fn seek_from_slider(&self, position: usize, rested: impl Fn() -> bool + 'static) {
        let said = self.status.get_untracked();
        self.move_view(|e| e.seek(position), Move::Quiet);
        let store = *self;
        set_timeout(
            move || {
                // (`rested` is false once the page is gone.)
                if rested() && store.status.with_untracked(|s| *s == said) {
                    store.status.set(store.view_status());
                }
            },
            std::time::Duration::from_millis(400),
        );
    }

    /// Where the view is: the context, the viewed task and its position.
    fn view_at(&self) -> (String, usize, usize) {
        self.exp.with_untracked(|e| {
            (
                e.context_id().to_string(),
                e.viewed_task_index(),
                e.position(),
            )
        })
    }

    /// Replays the viewed task's recorded states from the viewed one to the
    /// newest, one a tick (see [`Store::replay_step`]), without acting:
    /// nothing is discarded.
    pub fn start_replay(&self) {
        if self.exp.with_untracked(|e| e.later_count()) == 0 {
            return;
        }
        self.playing.set(false);
        // As Play: what was said of the state it starts from has been read.
        self.read_what_was_said();
        self.replay.set(Some(self.view_at()));
        self.say("Replaying the recorded states to the newest, without acting.".into());
    }

    /// Ends a replay where it is.
    pub fn stop_replay(&self) {
        if self.replay.with_untracked(Option::is_some) {
            self.replay.set(None);
            self.say(format!("Replay stopped. {}", self.view_status()));
        }
    }

    /// One tick of a replay: the next recorded state. Any other move since
    /// the last tick (a seek, an action, Play, another run) ended it, and so
    /// does the newest state.
    pub fn replay_step(&self) {
        let Some(at) = self.replay.get_untracked() else {
            return;
        };
        if self.view_at() != at || self.playing.get_untracked() {
            self.replay.set(None);
            return;
        }
        self.move_view(|e| e.seek(at.2 + 1), Move::Replay);
        match self.exp.with_untracked(|e| e.later_count()) {
            0 => {
                self.replay.set(None);
                self.status
                    .set(format!("{} Replay ended.", self.view_status()));
            }
            _ => self.replay.set(Some(self.view_at())),
        }
    }

    /// Stops playback and changes what is viewed, when the model allows it,
    /// and shows why not otherwise.
    fn navigate(&self, go: impl FnOnce(&mut Experiment) -> Result<(), SeekError>) {
        self.move_view(go, Move::User);
    }

    /// [`Store::navigate`], for the user's own move (said at once, or by
    /// the caller when `Quiet`); a replay's tick, as Play's Steps, leaves
    /// what the page says alone but for a change of state, which the status
    /// line says (a notice or alert raised during a replay stays).
    fn move_view(&self, go: impl FnOnce(&mut Experiment) -> Result<(), SeekError>, by: Move) {
        self.playing.set(false);
        let before = self.exp.with_untracked(|e| e.snapshot().state);
        match self.exp.try_update(go) {
            Some(Err(e)) => self.raise(e.to_string()),
            Some(Ok(())) => {
                self.forget_discarded();
                if by != Move::Replay {
                    self.read_what_was_said();
                }
                if by == Move::User {
                    self.status.set(self.view_status());
                } else if by == Move::Replay
                    && self.exp.with_untracked(|e| e.snapshot().state) != before
                {
                    // A replay's ticks are quiet, as Play's Steps are: the
                    // status says it replays, each state it comes to, as
                    // Play says them, and where it ended.
                    self.status.set(self.describe_state());
                }
            }
            None => {}
        }
    }

    /// What was said of the state the user leaves has been read: a refusal
    /// said about another state is no longer true here, and a notice has
    /// been read (a copy, a discard whose Undo the move ends); one that
    /// brings back a replaced run stays.
    fn read_what_was_said(&self) {
        self.alert.set(None);
        if untrack(|| self.notice_undo()).is_none() {
            self.notice.set(None);
        }
    }

    /// The viewed state, described, with where the view is and what acting
    /// from there would do.
    fn view_status(&self) -> String {
        let (k, n, later, read_only) = self.exp.with_untracked(|e| {
            let n = e.viewed_task().records().len();
            (
                e.position() + 1,
                n,
                e.discarded_by_acting(),
                e.is_read_only(),
            )
        });
        let mut said = self.describe_state();
        if read_only {
            said += " It is an earlier task of this context: read-only.";
        } else if later > 0 {
            said += &format!(
                " Viewing state {k} of {n}: an action that changes the task now discards the {later} later recorded state{}.",
                plural(later)
            );
        }
        said
    }

    /// Milliseconds between two of Play's Steps at the chosen speed, for the
    /// settings in use ([`play_interval_ms`]).
    pub fn play_period_ms(&self) -> u32 {
        self.config
            .with(|c| play_interval_ms(c, SPEEDS[self.speed.get()].1))
    }

    /// Moves the viewed recorded state by `delta`, staying in range.
    pub fn seek_by(&self, delta: isize) {
        let (pos, len) = self
            .exp
            .with_untracked(|e| (e.position(), e.viewed_task().records().len()));
        let target = pos.saturating_add_signed(delta).min(len - 1);
        if target != pos {
            self.seek(target);
        } else {
            // A key or a ‹ › at its end (marked aria-disabled) that moves
            // nothing says why.
            let end = if delta > 0 { "newest" } else { "first" };
            self.say(format!(
                "{} This is the {end} recorded state of this task.",
                self.describe_state()
            ));
        }
    }

    /// Puts `text` in the status line, so that it is announced again even
    /// when it says what the last one said (the same no-op twice).
    /// The same words again end in a no-break space (the time after, they
    /// do not), so that the region's text changes.
    pub fn say(&self, text: String) {
        let text = self.status.with_untracked(|shown| again(shown, text));
        self.status.set(text);
    }

    /// Raises `text` as the alert, announced again as [`Store::say`]'s are
    /// when it says what the alert already says (the same refusal twice).
    pub fn raise(&self, text: String) {
        let text = self
            .alert
            .with_untracked(|shown| again(shown.as_deref().unwrap_or_default(), text));
        self.alert.set(Some(text));
    }

    /// Views another task of the context.
    pub fn view_task(&self, index: usize) {
        self.navigate(|e| e.view_task(index));
    }

    /// Replaces the run with the run file `bytes` when they read and replay
    /// cleanly; otherwise says why and keeps the current run.
    pub fn load_file(&self, bytes: &[u8]) -> bool {
        match self.replace_with(SavedRun::parse_bytes(bytes)) {
            Ok(()) => true,
            Err(e) => {
                self.refuse_run("run file", &e);
                false
            }
        }
    }

    /// Says why the run in `source` could not be opened, and that the run on
    /// the page is unchanged.
    pub fn refuse_run(&self, source: &str, why: &RunError) {
        self.notice.set(None);
        self.raise(format!(
            "The {source} could not be opened: {why}. The run on the page is unchanged."
        ));
    }

    /// Replaces the run on the page with the run `text`, or says why it
    /// cannot, leaving everything as it was.
    pub fn open(&self, text: &str) -> Result<(), RunError> {
        self.replace_with(SavedRun::parse(text))
    }

    fn replace_with(&self, parsed: Result<SavedRun, RunError>) -> Result<(), RunError> {
        let (run, exp) = parsed.and_then(|run| run.replay().map(|e| (run, e)))?;
        // The very run on the page (its link opened again): nothing to
        // replace, nor to offer to Undo.
        if self.saved_run() == exp.saved_run(run.started_ms) {
            // A refusal of a link or file before this one no longer holds.
            self.alert.set(None);
            return Ok(());
        }
        // Runs opened in a row: Undo brings back the one from before them.
        let in_a_row = self
            .replaced
            .with_untracked(|kept| kept.as_ref().is_some_and(|kept| kept.by_open));
        if in_a_row {
            self.same_click.set_value(false);
        } else {
            self.set_aside();
        }
        self.guided.set(None);
        self.install(exp, run.started_ms);
        self.kept_by_open(true);
        Ok(())
    }

    /// Marks whether the run kept for Undo, if any, was replaced by the run
    /// on the page being opened (and it is still unacted on).
    pub(super) fn kept_by_open(&self, by_open: bool) {
        self.replaced.update_untracked(|kept| {
            if let Some(kept) = kept {
                kept.by_open = by_open;
            }
        });
    }

    /// The run on the page, as links, storage and files carry it.
    pub fn saved_run(&self) -> SavedRun {
        self.exp
            .with_untracked(|e| e.saved_run(self.started_ms.get_untracked()))
    }

    /// [`Store::saved_run`] as text.
    pub fn run_json(&self) -> String {
        self.saved_run().to_json()
    }

    /// One sentence on the viewed state, for the status region.
    pub fn describe_state(&self) -> String {
        self.exp.with_untracked(|e| {
            let s = e.snapshot();
            let what = match s.state {
                TaskState::Submitted => "submitted, not started yet".to_string(),
                // Not the units done: the line is announced on changes of
                // state, not on every worked second.
                TaskState::Working => "working on its units".to_string(),
                TaskState::InputRequired => {
                    format!(
                        "waiting for clarification before unit {}",
                        s.completed_units + 1
                    )
                }
                TaskState::AuthRequired => {
                    format!(
                        "waiting for authorization before unit {}",
                        s.completed_units + 1
                    )
                }
                TaskState::Completed => "completed with a final artifact".to_string(),
                TaskState::Failed => match e.failed_unit() {
                    Some(unit) => format!("failed during unit {unit}"),
                    None => "failed: the pause timed out (proposal)".to_string(),
                },
                // Streamed unit by unit, the chunks of the units done stay.
                TaskState::Canceled => match e.viewed_artifact() {
                    Some(a) => format!(
                        "canceled, keeping the {} chunk{} of its artifact streamed",
                        a.parts.len(),
                        plural(a.parts.len())
                    ),
                    None => "canceled, no final artifact".to_string(),
                },
                TaskState::Rejected => "rejected before any work".to_string(),
                TaskState::Paused => "paused (proposal, not part of A2A v1.0)".to_string(),
            };
            format!(
                "Task {} is {} — {what}.",
                e.viewed_task_index() + 1,
                s.state
            )
        })
    }
}

/// What the status line, and the line under the button, say of an action
/// (`label`, which sent `sent`) that was accepted but changed nothing.
pub fn nothing_changed(label: &str, why: NoChange, sent: &Action, after: TaskState) -> String {
    let why = match (why, sent) {
        (NoChange::NoTaskWaitsForEvent, Action::FireEvent(name)) => {
            format!("nothing waits for the event “{}”", name.trim())
        }
        (NoChange::PauseAlreadyRequested, _) => {
            "a pause is already requested, and it stands whatever this one's mode".to_string()
        }
        _ => format!("the task is already {after}"),
    };
    format!("{label}: {why}; nothing changed.")
}

/// "s" when `n` is not 1.
pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// When a settings control commits its change.
#[derive(Clone, Copy, Debug, PartialEq)]
enum FieldCommit {
    /// As it is used (a slider, a switch, a list, a button): the next
    /// click is the user's next action.
    AtOnce,
    /// As focus leaves it (a text field): the click that moved focus may
    /// act next.
    OnBlur,
}

/// The wall clock in whole seconds, as Unix epoch milliseconds (0 off the browser).
fn now_ms() -> i64 {
    #[cfg(target_arch = "wasm32")]
    {
        (js_sys::Date::now() / 1000.0) as i64 * 1000
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0
    }
}

/// `text`, ending in a no-break space when it is what a live region
/// already shows (`shown`): the region's text changes, so it is said again.
fn again(shown: &str, text: String) -> String {
    if shown == text {
        format!("{text}\u{a0}")
    } else {
        text
    }
}

/// What the status line says, in place of an alert, of a refusal the user
/// meant to see: `why` is the refusal's words after their colon, and
/// `expected` who expects it ("it should be", "Experiment 3 expects").
fn refused_on_purpose(label: &str, expected: &str, why: &str) -> String {
    let why = why.trim_end_matches('.');
    format!("{label} refused, as {expected}: {why}. Wire shows the error the agent answers.")
}

/// Who moves the view, for what the status line says of it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Move {
    /// The user, said at once.
    User,
    /// The user, said by the caller once the move rests.
    Quiet,
    /// A replay's tick: only a change of state is said.
    Replay,
}
