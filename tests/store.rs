//! The page's store off the browser: what Undo brings back after a run is
//! replaced by a settings change, a restart or an opened run; where an
//! experiment set up stands.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use a2a_control_room::model::{Action, Config, Setting, Switch, TaskState};
use a2a_control_room::ui::{play_interval_ms, Guided, Store};
use leptos::prelude::{GetUntracked, Owner, Set, WithUntracked};

/// A store whose run has `steps` Steps, and that run as a file's text.
fn stepped(seed: u64, steps: usize) -> (Store, String) {
    let store = Store::new(seed);
    for _ in 0..steps {
        store.step();
    }
    let text = store.run_json();
    (store, text)
}

fn owner() -> Owner {
    let owner = Owner::new();
    owner.set();
    owner
}

#[test]
fn undo_after_an_opened_link_and_a_settings_change_brings_back_the_linked_run() {
    let _owner = owner();
    let (_, linked) = stepped(7, 4);
    let (store, before) = stepped(1, 2);
    assert_ne!(linked, before);
    // The link replaces the run on the page; a settings change then
    // replaces the linked run, which was not acted on.
    store.open(&linked).unwrap();
    store.configure(
        Config {
            work_units: 5,
            ..Config::default()
        },
        "Work units changed",
    );
    store.bring_back();
    assert_eq!(store.run_json(), linked, "the run just replaced");
    assert!(store.alert.get_untracked().is_none());
}

#[test]
fn runs_opened_in_a_row_keep_the_users_own_run_within_undo() {
    let _owner = owner();
    let (_, first) = stepped(7, 4);
    let (_, second) = stepped(9, 3);
    let (store, own) = stepped(1, 2);
    store.open(&first).unwrap();
    store.open(&second).unwrap();
    store.bring_back();
    assert_eq!(store.run_json(), own);
    // Acted on, an opened run is the one the next opened run keeps.
    store.open(&first).unwrap();
    store.step();
    let acted = store.run_json();
    store.open(&second).unwrap();
    store.bring_back();
    assert_eq!(store.run_json(), acted);
}

#[test]
fn restarts_with_nothing_done_keep_the_run_that_had_something() {
    let _owner = owner();
    let (store, before) = stepped(1, 3);
    // As while a slider is dragged: fresh runs with nothing done in a row.
    store.restart();
    store.restart();
    store.bring_back();
    assert_eq!(store.run_json(), before);
}

#[test]
fn acting_on_the_fresh_run_ends_the_reach_of_undo() {
    let _owner = owner();
    let (store, _) = stepped(1, 3);
    store.restart();
    assert!(store.replaced.get_untracked().is_some());
    store.step();
    assert!(store.replaced.get_untracked().is_none());
    assert!(
        store.notice.get_untracked().is_none(),
        "the note on the restart has been read"
    );
}

#[test]
fn undo_of_a_settings_change_brings_back_the_runs_own_undo_of_a_discard() {
    let _owner = owner();
    let (store, _) = stepped(1, 6);
    let states = || store.exp.with_untracked(|e| e.trace().to_vec());
    let before = states();
    store.seek(1);
    store.step();
    assert!(store.discarded.get_untracked().is_some());
    store.configure(
        Config {
            work_units: 5,
            ..Config::default()
        },
        "Work units changed",
    );
    assert!(store.discarded.get_untracked().is_none(), "a fresh run");
    store.bring_back();
    // As it was: the discard can still be undone.
    let undo = store.discarded.get_untracked().map(|d| d.said());
    assert_eq!(
        undo.as_deref(),
        Some("Step discarded 6 later recorded states.")
    );
    store.undo_discard();
    assert_eq!(states(), before, "the discarded states are back");
}

#[test]
fn an_opened_run_says_where_its_view_is_as_moving_there_would() {
    use a2a_control_room::model::Action;
    let _owner = owner();
    let (seen, _) = stepped(3, 6);
    seen.seek(1);
    let moved_there = seen.status.get_untracked();
    assert!(moved_there.contains("Viewing state 2 of"), "{moved_there}");
    let (store, _) = stepped(5, 1);
    store.open(&seen.run_json()).unwrap();
    assert_eq!(store.status.get_untracked(), moved_there);

    // An earlier task of the context, viewed: read-only, said so.
    let (seen, _) = stepped(3, 40);
    seen.act(Action::FollowUp);
    seen.view_task(0);
    let moved_there = seen.status.get_untracked();
    assert!(moved_there.ends_with("read-only."), "{moved_there}");
    store.open(&seen.run_json()).unwrap();
    assert_eq!(store.status.get_untracked(), moved_there);
}

#[test]
fn undo_keeps_one_level_however_often_opened_runs_branch() {
    let _owner = owner();
    // A shared run viewed at its second recorded state: opened, the page
    // shows that state, and a Step there discards the later ones.
    let (shared, _) = stepped(7, 6);
    shared.seek(1);
    let linked = shared.run_json();
    let (store, _) = stepped(1, 2);
    let mut before_open = String::new();
    for _ in 0..4 {
        before_open = store.run_json();
        store.open(&linked).unwrap();
        store.step();
        assert!(store.discarded.get_untracked().is_some());
    }
    // Undo of the last discard: the page as it was just after the last
    // open, with the run that open replaced within reach of Undo.
    store.undo_discard();
    assert_eq!(store.run_json(), linked);
    store.bring_back();
    assert_eq!(store.run_json(), before_open);
    // That run comes back alone: its own Undo of a discard, and the runs
    // before it, are not kept (one level, never a chain of them).
    assert!(store.discarded.get_untracked().is_none());
    assert!(store.replaced.get_untracked().is_none());
}

#[test]
fn play_maps_the_active_path_onto_one_minute() {
    assert_eq!(play_interval_ms(&Config::default(), 1.0), 5000);
    assert_eq!(play_interval_ms(&Config::default(), 2.0), 2500);
    assert_eq!(play_interval_ms(&Config::default(), 0.5), 10_000);
    let big = Config::default()
        .with(Setting::WorkUnits, 12)
        .unwrap()
        .with(Setting::SecondsPerUnit, 10)
        .unwrap();
    assert_eq!(play_interval_ms(&big, 1.0), 500);
    assert_eq!(
        play_interval_ms(&big, f64::NAN),
        500,
        "a bad speed falls back to 1×"
    );
}

#[test]
fn a_setting_typed_beyond_any_integer_is_out_of_range_and_keeps_the_run() {
    let _owner = owner();
    let (store, before) = stepped(3, 2);
    store.set_setting(Setting::WorkUnits, "99999999999999999999");
    assert_eq!(
        store.alert.get_untracked().as_deref(),
        Some("Work units must be between 1 and 12 (got 99999999999999999999).")
    );
    store.set_setting(Setting::FailDuring, " -99999999999999999999 ");
    assert_eq!(
        store.alert.get_untracked().as_deref(),
        Some("Fail during unit must be between 0 and 13, 0 = off (got -99999999999999999999).")
    );
    // Not a number at all is another complaint.
    store.set_setting(Setting::WorkUnits, "4.5");
    assert_eq!(
        store.alert.get_untracked().as_deref(),
        Some("Work units must be a whole number (got “4.5”).")
    );
    assert_eq!(store.run_json(), before, "the run is kept");
}

#[test]
fn a_seek_reads_a_notice_but_keeps_the_undo_of_a_replaced_run() {
    let _owner = owner();
    let (store, _) = stepped(3, 4);
    // A copy's notice has been read once the user moves.
    store
        .notice
        .set(Some("Link copied to the clipboard.".into()));
    store.seek(1);
    assert_eq!(store.notice.get_untracked(), None);
    // A discard's notice goes with its Undo, which the move ends.
    store.step();
    let said = store.notice.get_untracked().expect("the discard is said");
    assert!(said.contains("discarded"), "{said}");
    store.seek(0);
    assert_eq!(store.notice.get_untracked(), None);
    // The Undo of a run replaced by a settings change stays within reach.
    store.configure(
        Config {
            work_units: 5,
            ..Config::default()
        },
        "Work units changed",
    );
    let said = store.notice.get_untracked().expect("the change is said");
    assert!(said.contains("brings back the run from before"), "{said}");
    store.seek(0);
    assert_eq!(store.notice.get_untracked(), Some(said));
}

#[test]
fn a_replay_moves_through_the_later_states_without_acting_and_ends_at_any_other_move() {
    let _owner = owner();
    let (store, _) = stepped(5, 6);
    let newest = store.exp.with_untracked(|e| e.position());
    let trace = store.exp.with_untracked(|e| e.trace().to_vec());
    store.seek(1);
    // A refusal said at the state it starts from has been read, as at Play.
    store.raise("Resume with wrong token (proposal) refused: …".into());
    store.start_replay();
    assert_eq!(store.alert.get_untracked(), None);
    // What is said during a replay (a file refused, another tab's save)
    // stays said through its ticks, as through Play's Steps.
    store.raise("The run file could not be opened.".into());
    store.notice.set(Some(
        "Another tab of this page saved a different run.".into(),
    ));
    let mut ticks = 0;
    while store.replay.get_untracked().is_some() {
        store.replay_step();
        ticks += 1;
        assert!(ticks <= newest, "the replay ends at the newest state");
    }
    assert_eq!(ticks, newest - 1, "one state a tick");
    assert_eq!(
        store.alert.get_untracked().as_deref(),
        Some("The run file could not be opened.")
    );
    assert_eq!(
        store.notice.get_untracked().as_deref(),
        Some("Another tab of this page saved a different run.")
    );
    assert_eq!(store.exp.with_untracked(|e| e.position()), newest);
    assert_eq!(
        store.exp.with_untracked(|e| e.trace().to_vec()),
        trace,
        "nothing acted, nothing discarded"
    );
    // A seek of the user's between two ticks ends it where the user went.
    store.seek(0);
    store.start_replay();
    store.replay_step();
    store.seek(4);
    store.replay_step();
    assert_eq!(store.replay.get_untracked(), None);
    assert_eq!(store.exp.with_untracked(|e| e.position()), 4);
    // At the newest state there is nothing to replay.
    store.seek(newest);
    store.start_replay();
    assert_eq!(store.replay.get_untracked(), None);
}

/// Steps until the viewed task is in `state` (at most `limit` Steps).
fn step_to(store: &Store, state: TaskState, limit: usize) {
    for _ in 0..limit {
        if store.exp.with_untracked(|e| e.snapshot().state) == state {
            return;
        }
        store.step();
    }
    assert_eq!(store.exp.with_untracked(|e| e.snapshot().state), state);
}

/// The experiment's line as (step, of, done), and its text.
fn line(store: &Store) -> ((u8, u8, bool), String) {
    let at = store.guided_step().expect("an experiment is set up");
    ((at.step, at.of, at.done), at.text)
}

fn set_up(store: &Store, g: Guided) {
    store.set_up(g.config().unwrap(), String::new(), g);
}

#[test]
fn each_experiment_says_its_next_step_from_the_viewed_state_to_its_end() {
    let _owner = owner();
    let store = Store::new(7);
    assert!(store.guided_step().is_none(), "none before one is set up");

    // 1: the gate, the answer, and on to the end.
    set_up(&store, Guided::Resume);
    assert_eq!(line(&store).0, (1, 4, false));
    assert!(line(&store)
        .1
        .contains("TASK_STATE_INPUT_REQUIRED before unit 2"));
    step_to(&store, TaskState::InputRequired, 20);
    assert_eq!(
        line(&store),
        ((2, 4, false), "Note the task id, the context id and 1 unit done (Inspect shows them); then Supply clarification, in Act.".into())
    );
    assert!(store.act(Action::SupplyClarification("EU only".into())));
    let answered = ((3, 4, false), "Press Play again: the task id, the context id and the 1 unit done before the question stay as they were.".to_string());
    assert_eq!(line(&store), answered);
    // Units done since do not change what was kept.
    for _ in 0..7 {
        store.step();
    }
    assert_eq!(line(&store), answered);
    step_to(&store, TaskState::Completed, 20);
    assert_eq!(line(&store).0, (4, 4, true));
    assert_eq!(Guided::Resume.after(), Some(Guided::FollowUp));
    // It follows the view: back at the gate, the gate's step again, with
    // what acting there does.
    let gate = store.exp.with_untracked(|e| {
        e.viewed_task()
            .records()
            .iter()
            .position(|r| r.snap.state == TaskState::InputRequired)
            .unwrap()
    });
    store.seek(gate);
    assert_eq!(line(&store).0, (2, 4, false));
    assert!(line(&store)
        .1
        .ends_with(" You are viewing an earlier state: acting here discards the later ones."));
    let last = store.exp.with_untracked(|e| e.total_records() - 1);
    store.seek(last);
    // A follow-up is no step of it: viewing one, the line says where Task 1 ended.
    assert!(store.act(Action::FollowUp));
    assert_eq!(line(&store).0, (4, 4, true));

    // 2: completed, a follow-up, back to Task 1, a message it refuses.
    set_up(&store, Guided::FollowUp);
    assert_eq!(line(&store).0, (1, 4, false));
    step_to(&store, TaskState::Completed, 20);
    assert_eq!(line(&store).0, (2, 4, false));
    // The refusal before any follow-up is not the experiment's end.
    store.send_to_be_refused(
        Action::SupplyClarification("more".into()),
        "Message to terminal task",
    );
    assert_eq!(line(&store).0, (2, 4, false));
    assert!(store.act(Action::FollowUp));
    assert_eq!(line(&store).0, (3, 4, false));
    assert!(line(&store)
        .1
        .ends_with("Now press Task 1, in Tasks in this context, below Inspect."));
    store.view_task(0);
    assert_eq!(line(&store).0, (4, 4, false));
    assert!(line(&store).1.contains("Message to terminal task"));
    // Task 1 is read-only now: any state of it viewed, where it ended.
    store.seek(1);
    assert_eq!(line(&store).0, (4, 4, false));
    store.send_to_be_refused(
        Action::SupplyClarification("more".into()),
        "Message to terminal task",
    );
    assert_eq!(line(&store).0, (4, 4, true), "the refusal ends it");
    store.view_task(1);
    assert_eq!(
        line(&store).0,
        (4, 4, true),
        "the follow-up viewed again: still done"
    );
    assert_eq!(Guided::FollowUp.after(), Some(Guided::Cancel));

    // 3: refused, completed; with cancellation accepted, canceled.
    set_up(&store, Guided::Cancel);
    step_to(&store, TaskState::Working, 5);
    assert_eq!(line(&store).0, (1, 5, false));
    assert!(!store.act(Action::RequestCancellation));
    assert_eq!(line(&store).0, (2, 5, false));
    assert!(line(&store).1.contains("TaskNotCancelableError (-32002)"));
    // The refusal it asks for is no alarm: the status line says it.
    assert_eq!(store.alert.get_untracked(), None);
    assert_eq!(
        store.status.get_untracked(),
        "Request cancellation refused, as Experiment 3 expects: the worker refused the \
         cancellation with TaskNotCancelableError (-32002); the task stays in the state it \
         was in. Wire shows the error the agent answers."
    );
    // Asked again, it is said again, not raised.
    assert!(!store.act(Action::RequestCancellation));
    assert_eq!(store.alert.get_untracked(), None);
    assert!(store.status.get_untracked().ends_with("answers.\u{a0}"));
    step_to(&store, TaskState::Completed, 20);
    assert_eq!(line(&store).0, (3, 5, false));
    // Outside the experiment the same refusal is an alert.
    store.set_up(
        Guided::Cancel.config().unwrap(),
        String::new(),
        Guided::Cancel,
    );
    store.guided.set(None);
    step_to(&store, TaskState::Working, 5);
    assert!(!store.act(Action::RequestCancellation));
    assert!(store
        .alert
        .get_untracked()
        .unwrap()
        .starts_with("Request cancellation refused: the worker refused"));
    set_up(&store, Guided::Cancel);
    step_to(&store, TaskState::Working, 5);
    assert!(!store.act(Action::RequestCancellation));
    assert_eq!(
        store.alert.get_untracked(),
        None,
        "no alert in the experiment"
    );
    step_to(&store, TaskState::Completed, 20);
    store.set_switch(Switch::WorkerAcceptsCancellation, true);
    assert_eq!(line(&store).0, (4, 5, false), "the same experiment goes on");
    assert!(store.notice.get_untracked().unwrap().contains(
        "ids). Experiment 3 goes on with these settings: its line under Play says where."
    ));
    step_to(&store, TaskState::Working, 5);
    assert!(store.act(Action::RequestCancellation));
    assert_eq!(
        store.exp.with_untracked(|e| e.snapshot().state),
        TaskState::Canceled
    );
    assert_eq!(line(&store).0, (5, 5, true));

    // 4: authorization, failure, rejection.
    set_up(&store, Guided::Authorization);
    step_to(&store, TaskState::AuthRequired, 20);
    assert_eq!(line(&store).0, (2, 4, false));
    assert!(store.act(Action::Authorize));
    store.step();
    assert_eq!(
        line(&store),
        (
            (3, 4, false),
            "Press Play again: the same task, its 1 unit done before the authorization kept."
                .into()
        )
    );
    step_to(&store, TaskState::Completed, 20);
    assert_eq!(line(&store).0, (4, 4, true));
    set_up(&store, Guided::Failure);
    assert_eq!(line(&store).0, (1, 2, false));
    step_to(&store, TaskState::Failed, 20);
    assert_eq!(
        line(&store),
        (
            (2, 2, true),
            "TASK_STATE_FAILED, final, with 1 unit done; the failed unit is not counted.".into()
        )
    );
    set_up(&store, Guided::Rejection);
    step_to(&store, TaskState::Rejected, 3);
    assert_eq!(line(&store).0, (2, 2, true));

    // 5 (proposal): paused, resumed, completed; the last one leads nowhere.
    set_up(&store, Guided::Pause);
    step_to(&store, TaskState::Paused, 20);
    assert_eq!(line(&store).0, (2, 4, false));
    assert!(store.act(Action::FireEvent("pr.merged".into())));
    assert_eq!(line(&store).0, (3, 4, false));
    step_to(&store, TaskState::Completed, 20);
    assert_eq!(line(&store).0, (4, 4, true));
    assert_eq!(Guided::Pause.after(), None);
}

#[test]
fn an_experiment_off_its_path_says_so_and_only_settings_it_holds_for_keep_it() {
    let _owner = owner();
    let (_, text) = stepped(3, 4);
    let store = Store::new(7);
    set_up(&store, Guided::Resume);
    step_to(&store, TaskState::Working, 5);
    assert!(store.act(Action::RequestCancellation));
    let off = "The task ended in TASK_STATE_CANCELED, off the experiment's path: Restart experiment tries again.";
    assert_eq!(line(&store), ((0, 0, false), off.into()));
    // A restart is the same experiment, from its first step.
    store.restart();
    assert_eq!(line(&store).0, (1, 4, false));
    // A settings change its steps still hold for keeps it, and says so.
    store.set_setting(Setting::WorkUnits, "6");
    assert_eq!(line(&store).0, (1, 4, false));
    assert!(store.notice.get_untracked().unwrap().contains(
        "ids). Experiment 1 goes on with these settings: its line under Play says where."
    ));
    store.set_setting(Setting::InputGate, "0");
    assert!(store.guided_step().is_none());
    assert!(store.notice.get_untracked().unwrap().contains(
        "a fresh experiment started (new task and context ids). The steps of Experiment 1 end here."
    ));
    // Undo brings it back with its run (the canceled one: the runs since
    // had nothing done).
    store.bring_back();
    assert_eq!(line(&store), ((0, 0, false), off.into()));

    set_up(&store, Guided::Cancel);
    store.set_setting(Setting::FailDuring, "3");
    assert!(
        store.guided_step().is_none(),
        "a failure is not experiment 3's path"
    );
    // Completed with no cancellation asked: back to its start.
    set_up(&store, Guided::Cancel);
    step_to(&store, TaskState::Completed, 20);
    assert_eq!(line(&store).0, (0, 0, false));
    assert!(line(&store)
        .1
        .starts_with("The task completed before you asked to cancel: Restart experiment"));

    set_up(&store, Guided::FollowUp);
    step_to(&store, TaskState::Working, 5);
    assert!(store.act(Action::RequestCancellation));
    assert!(store.act(Action::FollowUp));
    assert_eq!(
        line(&store),
        ((0, 0, false), off.into()),
        "a follow-up of a canceled task"
    );

    store.open(&text).unwrap();
    assert!(
        store.guided_step().is_none(),
        "an opened run is not the experiment"
    );
}

#[test]
fn a_run_fits_an_experiment_where_its_task_stops_as_the_experiments_does() {
    for g in Guided::ALL {
        let own = g.config().unwrap();
        assert!(g.fits(&own), "{}", g.name());
        // Other units and seconds keep each on its path.
        let more = own
            .with(Setting::WorkUnits, 6)
            .unwrap()
            .with(Setting::SecondsPerUnit, 2)
            .unwrap();
        assert!(g.fits(&more), "{}", g.name());
    }
    let default = Config::default();
    // Experiments 2 and 3 run straight through; 3 goes on with cancellation
    // accepted and the result streamed, as its last step invites.
    assert!(Guided::FollowUp.fits(&default));
    assert!(Guided::Cancel.fits(&default.with_switch(Switch::ArtifactPerUnit, true)));
    for g in [
        Guided::Resume,
        Guided::Authorization,
        Guided::Failure,
        Guided::Rejection,
        Guided::Pause,
    ] {
        assert!(!g.fits(&default), "{}", g.name());
    }
    for g in [Guided::FollowUp, Guided::Cancel] {
        assert!(!g.fits(&Guided::Failure.config().unwrap()), "{}", g.name());
    }
    // Experiment 1 is also set up beside Play, on the settings in use.
    let six = default.with(Setting::WorkUnits, 6).unwrap();
    assert!(Guided::Resume.fits(&six.with(Setting::InputGate, 2).unwrap()));
    assert!(!Guided::Resume.fits(&six));
    let two_stops = six
        .with(Setting::FailDuring, 2)
        .unwrap()
        .with(Setting::InputGate, 1)
        .unwrap();
    assert!(!Guided::Failure.fits(&two_stops));
    let no_proposal = Config {
        pause_proposal: false,
        ..Guided::Pause.config().unwrap()
    };
    assert!(!Guided::Pause.fits(&no_proposal));
}

#[test]
fn experiment_1_fits_any_settings_whose_task_stops_only_at_its_input_gate() {
    let gate = Config::default().with(Setting::InputGate, 3).unwrap();
    assert!(Guided::Resume.fits(&gate));
    assert!(Guided::Resume.fits(&gate.with_switch(Switch::ArtifactPerUnit, true)));
    for (other, why) in [
        (
            gate.with_switch(Switch::RejectBeforeExecution, true),
            "rejected",
        ),
        (
            gate.with(Setting::AuthGate, 1).unwrap(),
            "an authorization gate",
        ),
        (gate.with(Setting::FailDuring, 4).unwrap(), "a failure"),
        (gate.with(Setting::InputGate, 0).unwrap(), "no gate"),
    ] {
        assert!(!Guided::Resume.fits(&other), "{why}");
    }
}

#[test]
fn the_line_keeps_room_for_each_step_play_stops_at_from_here_on() {
    let _owner = owner();
    let store = Store::new(7);
    set_up(&store, Guided::Authorization);
    let steps = |store: &Store| -> Vec<(u8, bool)> {
        store
            .guided_ahead()
            .iter()
            .map(|a| (a.step, a.done))
            .collect()
    };
    // The gate, the answer's step after it, the end.
    assert_eq!(steps(&store), [(2, false), (3, false), (4, true)]);
    step_to(&store, TaskState::AuthRequired, 20);
    assert_eq!(steps(&store), [(3, false), (4, true)]);
    assert!(store.act(Action::Authorize));
    assert_eq!(steps(&store), [(4, true)]);
    step_to(&store, TaskState::Completed, 20);
    assert!(store.guided_ahead().is_empty(), "nothing ahead of the end");
    // An earlier state: no room kept for a Play that would branch.
    store.seek(1);
    assert!(store.guided_ahead().is_empty());
}
