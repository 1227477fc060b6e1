//! The two experiments of the control room's brief, scripted.

mod common;

// The same tests run natively and, under wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use a2a_control_room::model::*;
use common::*;

/// "Resume an interruption, not a terminal task": require clarification
/// before unit two; at the pause record the task id, context id and one
/// completed unit; supply clarification and continue; all three stay
/// consistent and completed work is not restarted.
#[test]
fn resume_an_interruption_keeps_identity_and_work() {
    let mut e = exp(cfg().with(Setting::InputGate, 2).unwrap());
    run(&mut e, 1000);
    assert_eq!(state(&e), TaskState::InputRequired);
    let task_id = e.viewed_task().id.clone();
    let context_id = e.context_id().to_string();
    assert_eq!(e.snapshot().completed_units, 1);
    let worked_before = e.snapshot().active_s;

    e.apply(Action::SupplyClarification("Ship to Lisbon".into()))
        .unwrap();
    assert_eq!(e.viewed_task().id, task_id);
    assert_eq!(e.context_id(), context_id);
    assert_eq!(e.snapshot().completed_units, 1);
    assert_eq!(e.snapshot().active_s, worked_before);

    run(&mut e, 1000);
    assert_eq!(state(&e), TaskState::Completed);
    assert_eq!(e.viewed_task().id, task_id);
    assert_eq!(e.context_id(), context_id);
    assert_eq!(e.tasks().len(), 1, "no new task was needed to resume");
    let unit1_seconds = e
        .trace()
        .iter()
        .filter(|t| matches!(t.event, Event::Worked { unit: 1, .. }))
        .count();
    assert_eq!(unit1_seconds, 3, "unit one was not redone");
    assert!(e
        .viewed_artifact()
        .unwrap()
        .text()
        .contains("Ship to Lisbon"));
}

/// "Compare a completed task followed by New follow-up task: the context is
/// retained but a new task ID is allocated" — and the terminal task itself
/// cannot be resumed.
#[test]
fn a_terminal_task_is_followed_up_not_resumed() {
    let mut e = exp(cfg());
    run(&mut e, 1000);
    assert_eq!(state(&e), TaskState::Completed);
    let first = e.viewed_task().id.clone();
    let context_id = e.context_id().to_string();
    assert_eq!(
        e.apply(Action::Step),
        Err(Refusal::Terminal(TaskState::Completed))
    );
    assert!(e
        .legality(&Action::SupplyClarification("more".into()))
        .is_err());

    e.apply(Action::FollowUp).unwrap();
    assert_ne!(e.viewed_task().id, first);
    assert_eq!(e.context_id(), context_id);
    assert_eq!(e.viewed_task().reference_task_id.as_deref(), Some(&*first));
    run(&mut e, 1000);
    assert_eq!(state(&e), TaskState::Completed);
    assert_eq!(e.tasks()[0].latest().snap.state, TaskState::Completed);
}
