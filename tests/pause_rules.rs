//! The proposed pause/resume lifecycle (not part of A2A v1.0): the reference
//! scenarios (a)–(h) of the RFC's fixtures and the three pause modes.

mod common;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use a2a_control_room::model::*;
use common::*;

fn steps(e: &mut Experiment, n: usize) {
    for _ in 0..n {
        e.apply(Action::Step).unwrap();
    }
}

/// Steps until the task pauses or can no longer step (or 1 000 steps).
fn run_to_pause(e: &mut Experiment) {
    for _ in 0..1000 {
        if state(e) == TaskState::Paused || e.legality(&Action::Step).is_err() {
            return;
        }
        e.apply(Action::Step).unwrap();
    }
}

#[test]
fn without_the_proposal_every_pause_action_is_refused() {
    let mut e = exp(cfg());
    steps(&mut e, 2);
    for a in [
        pause(PauseMode::FinishStep),
        resume("x"),
        Action::FireEvent("x".into()),
    ] {
        assert_eq!(e.apply(a), Err(Refusal::ProposalOff));
    }
    assert_eq!(state(&e), TaskState::Working);
    assert_eq!(TaskState::Paused.name(), "TASK_STATE_PAUSED");
    assert_eq!(TaskState::Paused.number(), 9);
    assert!(
        !TaskState::ALL.contains(&TaskState::Paused),
        "not a v1.0 state"
    );
}

#[test]
fn a_client_pause_and_resume_keeps_the_work_and_completes() {
    // (a) WORKING → PauseTask → PAUSED(CLIENT) → ResumeTask(token) → WORKING → COMPLETED
    let mut e = exp(proposal());
    steps(&mut e, 3); // unit 1 done, at a boundary
    e.apply(pause(PauseMode::FinishStep)).unwrap();
    assert_eq!(
        state(&e),
        TaskState::Paused,
        "at a boundary finish_step pauses at once"
    );
    let p = e.snapshot().pause.unwrap();
    assert_eq!(p.by, Initiator::Client);
    assert_eq!(e.pause_reason().as_deref(), Some("operator break"));
    let t = token(&e);
    assert!(uuid::Uuid::parse_str(&t).is_ok());
    steps(&mut e, 3);
    assert_eq!(
        e.snapshot().waiting_s,
        3 * WAIT_STEP_S,
        "paused steps run the waiting clock"
    );
    assert_eq!(e.snapshot().active_s, 3, "and never active time");
    e.apply(Action::ResumeTask {
        token: t,
        input: Some("resume with care".into()),
        continue_transcript: true,
    })
    .unwrap();
    assert_eq!(state(&e), TaskState::Working);
    assert_eq!(e.snapshot().completed_units, 1);
    run(&mut e, 100);
    assert_eq!(state(&e), TaskState::Completed);
    assert_eq!(e.snapshot().active_s, 12);
    assert!(e
        .viewed_artifact()
        .unwrap()
        .text()
        .contains("resume with care"));
}

#[test]
fn finish_step_waits_for_the_in_flight_unit() {
    let mut e = exp(proposal());
    steps(&mut e, 1); // 1 s into unit 1
    e.apply(pause(PauseMode::FinishStep)).unwrap();
    assert_eq!(
        state(&e),
        TaskState::Working,
        "pause requested, not yet in effect"
    );
    assert!(e.snapshot().pending.is_some());
    // Whatever its mode: the first request stands (the simulator's reading).
    for mode in PauseMode::ALL {
        assert_eq!(
            e.unchanged_by(&pause(mode)),
            Some(NoChange::PauseAlreadyRequested),
            "{mode:?}"
        );
    }
    e.apply(pause(PauseMode::FinishStep)).unwrap();
    assert_eq!(
        e.trace().last().unwrap().outcome,
        Outcome::Unchanged(NoChange::PauseAlreadyRequested),
        "asking again while pending changes nothing"
    );
    steps(&mut e, 1);
    assert_eq!(e.snapshot().active_s, 2);
    steps(&mut e, 1); // unit 1's last second; the pause takes effect in the same Step
    assert_eq!(state(&e), TaskState::Paused);
    assert_eq!(e.snapshot().completed_units, 1);
    assert_eq!(e.snapshot().active_s, 3);
}

#[test]
fn interrupt_immediate_loses_the_partial_unit_which_is_redone() {
    let mut e = exp(proposal());
    steps(&mut e, 3); // unit 1 done
    steps(&mut e, 2); // 2 s into unit 2
    e.apply(pause(PauseMode::InterruptImmediate)).unwrap();
    assert_eq!(state(&e), TaskState::Paused);
    assert_eq!(e.snapshot().lost_s, 2);
    let t = token(&e);
    e.apply(resume(&t)).unwrap();
    run(&mut e, 100);
    assert_eq!(state(&e), TaskState::Completed);
    assert_eq!(
        e.snapshot().active_s,
        12 + 2,
        "the lost seconds still count as active time"
    );
    let unit2 = e
        .trace()
        .iter()
        .filter(|t| matches!(t.event, Event::Worked { unit: 2, .. }))
        .count();
    assert_eq!(unit2, 3 + 2, "unit 2 was redone from its start");
}

#[test]
fn wait_for_completion_parks_with_all_work_done_and_completes_on_the_step_after_resume() {
    let mut e = exp(proposal());
    steps(&mut e, 2);
    e.apply(pause(PauseMode::WaitForCompletion)).unwrap();
    steps(&mut e, 3);
    assert_eq!(
        state(&e),
        TaskState::Working,
        "it keeps working past unit boundaries"
    );
    run_to_pause(&mut e);
    assert_eq!(state(&e), TaskState::Paused);
    assert_eq!(e.snapshot().completed_units, 4);
    assert!(e.viewed_artifact().is_none(), "no artifact while paused");
    let t = token(&e);
    e.apply(resume(&t)).unwrap();
    assert_eq!(
        state(&e),
        TaskState::Working,
        "the resume itself only wakes it"
    );
    e.apply(Action::Step).unwrap();
    assert_eq!(state(&e), TaskState::Completed);
    assert_eq!(e.snapshot().active_s, 12);
    assert!(e.viewed_artifact().is_some());
}

#[test]
fn an_agent_self_park_keeps_the_clients_accepted_wait_for_completion_pause() {
    let mut e = exp(Config {
        self_park_before: 3,
        ..proposal()
    });
    steps(&mut e, 2);
    e.apply(pause(PauseMode::WaitForCompletion)).unwrap();
    run_to_pause(&mut e);
    assert_eq!(e.snapshot().pause.unwrap().by, Initiator::Agent);
    assert_eq!(
        e.snapshot().pending.map(|p| p.mode),
        Some(PauseMode::WaitForCompletion),
        "the client's pause is still to come"
    );
    let t = token(&e);
    e.apply(resume(&t)).unwrap();
    run_to_pause(&mut e);
    assert_eq!(
        state(&e),
        TaskState::Paused,
        "the client's pause took effect"
    );
    assert_eq!(e.snapshot().pause.unwrap().by, Initiator::Client);
    assert_eq!(e.snapshot().completed_units, 4);
    assert_eq!(
        e.trace().last().unwrap().event,
        Event::PauseTookEffect {
            mode: PauseMode::WaitForCompletion
        }
    );
}

#[test]
fn a_task_that_fails_drops_its_pending_pause() {
    let mut e = exp(Config {
        fail_during: 2,
        seconds_per_unit: 4,
        ..proposal()
    });
    steps(&mut e, 5); // 1 s into unit 2
    e.apply(pause(PauseMode::FinishStep)).unwrap();
    assert!(
        e.snapshot().pending.is_some(),
        "pending until the unit ends"
    );
    run(&mut e, 10);
    assert_eq!(state(&e), TaskState::Failed);
    assert_eq!(
        e.snapshot().pending,
        None,
        "a terminal task has no pause to come"
    );
}

#[test]
fn a_self_park_without_conditions_wakes_only_on_an_explicit_resume() {
    // (b) AwaitTaskResumption(no conditions) → PAUSED(AGENT) → ResumeTask → WORKING
    let mut e = exp(Config {
        self_park_before: 2,
        ..proposal()
    });
    run_to_pause(&mut e);
    assert_eq!(state(&e), TaskState::Paused);
    assert_eq!(
        e.trace().last().unwrap().event,
        Event::SelfParked { unit: 2 }
    );
    let p = e.snapshot().pause.unwrap();
    assert_eq!(
        (p.by, p.event, p.deadline_s),
        (Initiator::Agent, false, None)
    );
    e.apply(Action::FireEvent("pr.merged".into())).unwrap();
    assert_eq!(
        state(&e),
        TaskState::Paused,
        "no event condition: events do not wake it"
    );
    // An external event, not the A2A client.
    let t = e.trace().last().unwrap();
    assert_eq!((t.actor, t.event), (Actor::Simulator, Event::EventFired));
    steps(&mut e, 30);
    assert_eq!(
        state(&e),
        TaskState::Paused,
        "no timeout: waiting does not wake it"
    );
    let t = token(&e);
    e.apply(resume(&t)).unwrap();
    run(&mut e, 100);
    assert_eq!(state(&e), TaskState::Completed, "it parks once per task");
}

#[test]
fn only_the_matching_event_wakes_a_conditioned_self_park() {
    // (c) PAUSED(AGENT, conditions.trigger) → external event → WORKING (condition_fired)
    let mut e = exp(Config {
        self_park_before: 1,
        resume_event: EventName::new("pr.merged").unwrap(),
        ..proposal()
    });
    run_to_pause(&mut e);
    assert!(e.snapshot().pause.unwrap().event);
    assert_eq!(
        e.apply(Action::FireEvent("build.done".into())),
        Ok(Applied::Unchanged(NoChange::NoTaskWaitsForEvent))
    );
    assert_eq!(state(&e), TaskState::Paused);
    let traced = e.trace().last().unwrap().outcome_text();
    assert_eq!(traced, "no effect: nothing waits for this event");
    assert_eq!(
        e.apply(Action::FireEvent("   ".into())),
        Err(Refusal::EmptyEventName)
    );
    assert_eq!(
        e.apply(Action::FireEvent("\u{200B}".into())),
        Err(Refusal::EmptyEventName),
        "a zero-width space names nothing"
    );
    // No task can wait for a name longer than a configured one may be.
    assert_eq!(
        e.apply(Action::FireEvent("e".repeat(MAX_EVENT_BYTES + 1))),
        Err(Refusal::EventNameTooLong)
    );
    e.apply(Action::FireEvent("pr.merged".into())).unwrap();
    assert_eq!(state(&e), TaskState::Working);
}

#[test]
fn a_resume_event_name_is_one_that_fire_event_could_send() {
    // Spaces alone are no name: no event condition.
    assert_eq!(EventName::new("  "), Ok(EventName::NONE));
    assert_eq!(EventName::new(" pr.merged ").unwrap().as_str(), "pr.merged");
    // Invisible characters alone would wait for an event Fire event refuses.
    for name in ["\u{200B}", " \u{2060}\u{FEFF} ", "\u{00AD}"] {
        assert_eq!(
            EventName::new(name),
            Err(BadEventName::Invisible),
            "{name:?}"
        );
        assert_eq!(
            exp(proposal()).legality(&Action::FireEvent(name.into())),
            Err(Refusal::EmptyEventName)
        );
    }
    assert_eq!(
        EventName::new(&"e".repeat(MAX_EVENT_BYTES + 1)),
        Err(BadEventName::TooLong)
    );
    // A link or a saved run with such a name does not open.
    let mut config = serde_json::to_value(proposal()).unwrap();
    config["resume_event"] = "\u{200B}".into();
    let why = serde_json::from_value::<Config>(config)
        .unwrap_err()
        .to_string();
    assert!(why.contains("invisible characters"), "{why}");
}

#[test]
fn a_timeout_resumes_with_summary_or_fails() {
    // (d) timeout 5 min, resume_with_summary → WORKING (cause timeout) → COMPLETED
    let timed = |on_timeout| Config {
        self_park_before: 1,
        self_park_timeout: 5,
        on_timeout,
        ..proposal()
    };
    let mut e = exp(timed(OnTimeout::ResumeWithSummary));
    run_to_pause(&mut e);
    assert_eq!(
        e.snapshot().pause.unwrap().deadline_s,
        Some(5 * WAIT_STEP_S)
    );
    // The reason the agent gives says how long it waits and what then.
    assert_eq!(
        e.pause_reason_of(e.snapshot()).unwrap(),
        "Parked before unit 1 of 4 until resumed; after 5 minutes, it resumes on its own (resume_with_summary)."
    );
    steps(&mut e, 4);
    assert_eq!(state(&e), TaskState::Paused);
    steps(&mut e, 1);
    assert_eq!(state(&e), TaskState::Working);
    assert_eq!(e.trace().last().unwrap().event, Event::TimedOut);
    assert_eq!(e.snapshot().waiting_s, 300);
    run(&mut e, 100);
    assert_eq!(state(&e), TaskState::Completed);

    // (e) the same with on_timeout fail → FAILED; a later ResumeTask is refused.
    let mut e = exp(Config {
        self_park_timeout: 1,
        ..timed(OnTimeout::Fail)
    });
    run_to_pause(&mut e);
    assert_eq!(
        e.pause_reason_of(e.snapshot()).unwrap(),
        "Parked before unit 1 of 4 until resumed; after 1 minute, the task fails."
    );
    let t = token(&e);
    steps(&mut e, 1);
    assert_eq!(state(&e), TaskState::Failed);
    // Said as the pause's end, not as a failed unit.
    assert_eq!(e.failed_unit(), None);
    let why = e.no_artifact_reason().unwrap();
    assert!(why.contains("the pause timed out"), "{why}");
    assert!(!why.contains("failed during unit"), "{why}");
    // Terminal: refused for its state (-32010), the pause's own token
    // included, which was never used and is not "wrong".
    for t in [t.as_str(), "other"] {
        assert_eq!(
            e.apply(resume(t)),
            Err(Refusal::NotPaused(TaskState::Failed))
        );
    }
    assert_eq!(Refusal::NotPaused(TaskState::Failed).code(), Some(-32010));
}

#[test]
fn a_reason_or_resume_input_of_nothing_readable_is_none() {
    // Spaces and invisible marks would show as an empty reason in Inspect and
    // replace a readable resume input in the artifact with nothing.
    let mut e = exp(proposal());
    steps(&mut e, 3);
    // However long: no reason is too long.
    e.apply(Action::PauseTask {
        mode: PauseMode::FinishStep,
        reason: format!(" \u{200B}{}", " ".repeat(600)),
    })
    .unwrap();
    assert_eq!(state(&e), TaskState::Paused);
    assert_eq!(e.pause_reason(), None, "no reason given");
    e.apply(Action::ResumeTask {
        token: token(&e),
        input: Some("keep the EU region".into()),
        continue_transcript: true,
    })
    .unwrap();
    e.apply(pause(PauseMode::FinishStep)).unwrap();
    run_to_pause(&mut e);
    e.apply(Action::ResumeTask {
        token: token(&e),
        input: Some("\u{200B}\u{2060} ".into()),
        continue_transcript: true,
    })
    .unwrap();
    let last = e.trace().last().unwrap().event;
    assert_eq!(
        last,
        Event::ResumeRequested {
            had_input: false,
            continue_transcript: true
        }
    );
    run(&mut e, 100);
    assert_eq!(state(&e), TaskState::Completed);
    let text = e.viewed_artifact().unwrap().text();
    assert!(
        text.contains("Resume input: “keep the EU region”."),
        "{text}"
    );
}

#[test]
fn a_second_resume_with_the_same_token_is_refused() {
    // (f) double resume: the first leaves PAUSED, the second is rejected (-32011)
    let mut e = exp(proposal());
    steps(&mut e, 3); // unit 1 done: a finish_step pause takes effect at once
    e.apply(pause(PauseMode::FinishStep)).unwrap();
    let t = token(&e);
    assert_eq!(
        e.apply(resume("not-the-token")),
        Err(Refusal::BadResumeToken)
    );
    assert_eq!(Refusal::BadResumeToken.code(), Some(-32011));
    e.apply(resume(&t)).unwrap();
    assert_eq!(e.apply(resume(&t)), Err(Refusal::BadResumeToken));
    assert_eq!(state(&e), TaskState::Working, "the task runs on");
    // A new pause issues a new token; the old one stays used.
    e.apply(pause(PauseMode::FinishStep)).unwrap();
    assert_ne!(token(&e), t);
    assert_eq!(e.apply(resume(&t)), Err(Refusal::BadResumeToken));
}

#[test]
fn cancel_while_paused_is_terminal_and_later_resume_fails() {
    // (g) PAUSED → CancelTask → CANCELED; ResumeTask fails; a second cancel is refused
    let mut e = exp(proposal());
    steps(&mut e, 4);
    e.apply(pause(PauseMode::InterruptImmediate)).unwrap();
    let t = token(&e);
    e.apply(Action::RequestCancellation).unwrap();
    assert_eq!(state(&e), TaskState::Canceled);
    assert!(e.snapshot().pause.is_none());
    assert_eq!(
        e.apply(resume(&t)),
        Err(Refusal::NotPaused(TaskState::Canceled))
    );
    assert_eq!(
        e.apply(Action::RequestCancellation),
        Err(Refusal::NotCancelable(TaskState::Canceled))
    );
}

#[test]
fn an_earlier_terminal_task_as_it_is_now_refuses_a_pause_with_the_proposed_code() {
    let mut e = exp(proposal());
    steps(&mut e, 4);
    e.apply(Action::RequestCancellation).unwrap();
    e.apply(Action::FollowUp).unwrap();
    e.view_task(0).unwrap();
    assert!(e.is_read_only());
    // Not "read-only": the client reaches the task as it is now, and the
    // agent refuses (-32010), as it does a message or a cancel.
    let refused = e.apply(pause(PauseMode::FinishStep));
    assert_eq!(refused, Err(Refusal::NotPausable(TaskState::Canceled)));
    assert_eq!(refused.unwrap_err().code(), Some(-32010));
    // At an earlier state of it, nothing is sent.
    e.seek(1).unwrap();
    assert_eq!(
        e.legality(&pause(PauseMode::FinishStep)),
        Err(Refusal::ReadOnly)
    );
}

#[test]
fn pausing_a_paused_task_returns_the_current_pause() {
    // (h) re-pause: no new event, the same token
    let mut e = exp(proposal());
    steps(&mut e, 3);
    e.apply(pause(PauseMode::FinishStep)).unwrap();
    let (t, records) = (token(&e), e.viewed_task().records().len());
    // Foreseen, then so.
    assert_eq!(
        e.unchanged_by(&pause(PauseMode::InterruptImmediate)),
        Some(NoChange::AlreadyPaused)
    );
    assert_eq!(
        e.apply(pause(PauseMode::InterruptImmediate)),
        Ok(Applied::Unchanged(NoChange::AlreadyPaused))
    );
    assert_eq!(token(&e), t);
    assert_eq!(e.viewed_task().records().len(), records);
}

#[test]
fn input_required_and_paused_are_never_adjacent() {
    let mut e = exp(Config {
        input_gate: 2,
        self_park_before: 2,
        ..proposal()
    });
    run_to_pause(&mut e);
    assert_eq!(
        state(&e),
        TaskState::InputRequired,
        "the gate comes before the self-park"
    );
    let r = e.apply(pause(PauseMode::FinishStep)).unwrap_err();
    assert_eq!(r, Refusal::NotPausable(TaskState::InputRequired));
    assert_eq!(r.code(), Some(-32010));
    e.apply(Action::SupplyClarification("ok".into())).unwrap();
    assert_eq!(state(&e), TaskState::Working);
    e.apply(Action::Step).unwrap();
    assert_eq!(
        state(&e),
        TaskState::Paused,
        "then the agent parks, from WORKING"
    );
    for s in [TaskState::AuthRequired, TaskState::Completed] {
        assert_eq!(Refusal::NotPausable(s).code(), Some(-32010));
    }
}

#[test]
fn a_refusal_names_the_proposed_code_and_what_a_v1_peer_answers_instead() {
    // A v1.0 peer carrying the proposal as an extension has no -32010 /
    // -32011: it answers with the v1.0 code the wire shows.
    assert_eq!(extension_code(PAUSE_NOT_ALLOWED), UNSUPPORTED_OPERATION);
    assert_eq!(extension_code(RESUME_TOKEN_INVALID), INVALID_PARAMS);
    assert_eq!(extension_code(TASK_NOT_CANCELABLE), TASK_NOT_CANCELABLE);
    assert_eq!(
        Refusal::BadResumeToken.to_string(),
        "The resume token is wrong or already used (proposed error -32011; InvalidParamsError -32602 in the v1.0 extension encoding)."
    );
    assert_eq!(
        Refusal::NotPaused(TaskState::Working).to_string(),
        "The task is TASK_STATE_WORKING, not paused, so there is nothing to resume (proposed error -32010; UnsupportedOperationError -32004 in the v1.0 extension encoding)."
    );
    // A v1.0 error is named as the wire names it.
    assert!(Refusal::NotCancelable(TaskState::Completed)
        .to_string()
        .ends_with("a CancelTask now gets TaskNotCancelableError (-32002)."));
    // Where the SDKs disagree, the refusal says so.
    assert!(Refusal::NotCancelable(TaskState::Canceled)
        .to_string()
        .ends_with("a CancelTask now gets TaskNotCancelableError (-32002), as §3.1.5 says (§3.3.1 calls cancel idempotent; the JavaScript SDK, a2a-js, returns the canceled task)."));
}

#[test]
fn a_step_pressed_while_playing_that_parks_the_task_stops_play() {
    use a2a_control_room::ui::Store;
    use leptos::prelude::{GetUntracked, Owner, Set, WithUntracked};
    let owner = Owner::new();
    owner.set();
    let store = Store::new(1);
    let config = Config {
        work_units: 3,
        seconds_per_unit: 1,
        pause_proposal: true,
        self_park_before: 2,
        self_park_timeout: 5,
        on_timeout: OnTimeout::ResumeWithSummary,
        ..Config::default()
    };
    store.configure(config, "test");
    let state = || store.exp.with_untracked(|e| e.snapshot().state);
    // Up to the Step that self-parks the task.
    while {
        let mut next = store.exp.get_untracked();
        next.apply(Action::Step).unwrap();
        next.snapshot().state != TaskState::Paused
    } {
        store.step();
    }
    store.playing.set(true);
    // The Step button (or →) pressed during playback parks the task: Play
    // stops there, as at its own Step, instead of running the waiting clock.
    store.step();
    assert_eq!(state(), TaskState::Paused);
    assert!(!store.playing.get_untracked(), "Play ran past the pause");
    assert!(
        store
            .status
            .get_untracked()
            .contains("Playback stopped: the task paused"),
        "{}",
        store.status.get_untracked()
    );
}

#[test]
fn play_has_nothing_to_run_where_only_a_resume_wakes_the_task() {
    // A client pause has no timeout: Play stops, and says what wakes it.
    let mut e = exp(proposal());
    assert_eq!(e.play_legality(), Ok(()));
    steps(&mut e, 3);
    e.apply(pause(PauseMode::FinishStep)).unwrap();
    assert_eq!(
        e.legality(&Action::Step),
        Ok(()),
        "Step runs the waiting clock"
    );
    let stop = e.play_legality().unwrap_err();
    assert_eq!(stop, PlayStop::WaitsForResume { event: false });
    assert_eq!(
        stop.to_string(),
        "The task is paused and only a resume wakes it (proposal)."
    );
    // A self-park that waits for an event: the event wakes it too.
    let mut e = exp(Config {
        self_park_before: 1,
        resume_event: EventName::new("pr.merged").unwrap(),
        ..proposal()
    });
    run_to_pause(&mut e);
    assert_eq!(
        e.play_legality().unwrap_err().wakers(),
        Some("a resume or its event")
    );
    // With a timeout, Play runs the waiting clock to it.
    let mut e = exp(Config {
        self_park_before: 1,
        self_park_timeout: 5,
        ..proposal()
    });
    run_to_pause(&mut e);
    assert_eq!(state(&e), TaskState::Paused);
    assert_eq!(e.play_legality(), Ok(()));
    // Where Step is refused, so is Play, for the same reason.
    let mut e = exp(Config {
        input_gate: 1,
        ..cfg()
    });
    steps(&mut e, 1);
    assert_eq!(state(&e), TaskState::InputRequired);
    assert_eq!(
        e.play_legality(),
        Err(PlayStop::Step(e.legality(&Action::Step).unwrap_err()))
    );
}

/// What a pending pause's account says (Act, Inspect and the Wire panel
/// word it) is what the task then does: at every recorded state where a
/// client's pause is pending, for every small task and every moment the
/// pause is asked, with gates, a self-park and a failure on the way. The
/// states inside one Step count too: "unit k done" just before the pause
/// takes effect is one.
#[test]
fn a_pending_pause_fate_is_what_the_task_then_does() {
    let mut checked = 0;
    let mut each = [0; 4];
    for units in 1..=4u8 {
        for spu in 1..=3u8 {
            for fail in 0..=units {
                for (gate, park) in [(0, 0), (2, 0), (0, 2), (1, 3)] {
                    for mode in [PauseMode::FinishStep, PauseMode::WaitForCompletion] {
                        for at in 1..=u32::from(units) * u32::from(spu) + 2 {
                            let c = Config {
                                work_units: units,
                                seconds_per_unit: spu,
                                fail_during: fail,
                                input_gate: gate.min(units),
                                auth_gate: gate.min(units),
                                self_park_before: park.min(units),
                                ..proposal()
                            };
                            let mut e = exp(c);
                            let mut steps = 0;
                            while steps < at && e.legality(&Action::Step).is_ok() {
                                e.apply(Action::Step).unwrap();
                                steps += 1;
                            }
                            if e.apply(pause(mode)).is_err() || e.snapshot().pending.is_none() {
                                continue;
                            }
                            // Run on, answering what waits for the client.
                            for _ in 0..1000 {
                                let s = *e.snapshot();
                                let a = match s.state {
                                    TaskState::InputRequired => {
                                        Action::SupplyClarification("go".into())
                                    }
                                    TaskState::AuthRequired => Action::Authorize,
                                    TaskState::Paused
                                        if s.pause.unwrap().by == Initiator::Agent =>
                                    {
                                        resume(&token(&e))
                                    }
                                    TaskState::Working => Action::Step,
                                    _ => break,
                                };
                                e.apply(a).unwrap();
                            }
                            let records = e.tasks()[0].records();
                            let end = records.iter().position(|r| {
                                r.snap.state.is_terminal()
                                    || r.snap.pause.is_some_and(|p| p.by == Initiator::Client)
                            });
                            let end = end.expect("the pause takes effect or the task ends");
                            let last = &records[end];
                            let outcome = match last.snap.state {
                                TaskState::Paused => PauseFate::TakesEffect {
                                    now: false,
                                    unless_park_fails: false,
                                },
                                TaskState::Failed => PauseFate::LapsesAtFailure { unit: fail },
                                TaskState::Completed => PauseFate::LapsesAtCompletion,
                                s => panic!("unexpected end {s}"),
                            };
                            for (i, r) in records[..end].iter().enumerate() {
                                if r.snap.pending.is_none() {
                                    continue;
                                }
                                let fate = r.snap.pending_pause_fate(&c);
                                let expected = match outcome {
                                    PauseFate::TakesEffect { .. } => PauseFate::TakesEffect {
                                        now: i + 1 == end,
                                        unless_park_fails: false,
                                    },
                                    o => o,
                                };
                                assert_eq!(
                                    fate,
                                    Some(expected),
                                    "{c:?}: {mode:?} asked after {steps} steps; at record {i} ({:?})",
                                    r.snap
                                );
                                checked += 1;
                                each[match expected {
                                    PauseFate::TakesEffect { now: false, .. } => 0,
                                    PauseFate::TakesEffect { now: true, .. } => 1,
                                    PauseFate::LapsesAtFailure { .. } => 2,
                                    PauseFate::LapsesAtCompletion => 3,
                                }] += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    // Every fate happens, at many states.
    assert!(each.iter().all(|&n| n >= 10), "{each:?} of {checked}");
}

/// A client's pending pause with a self-park on the way, or in effect, whose
/// timeout fails the task: the account says the pause takes effect unless
/// that timeout fails the task first, and both halves hold: resumed in time,
/// the pause takes effect; left to wait, the task fails and the pause lapses.
/// A timeout that resumes the task, or a self-park already resumed, gives no
/// such warning.
#[test]
fn a_pending_pause_warns_of_a_self_park_whose_timeout_fails_the_task() {
    let timed = |on_timeout| Config {
        work_units: 3,
        seconds_per_unit: 2,
        self_park_before: 2,
        self_park_timeout: 2,
        on_timeout,
        ..proposal()
    };
    let unless = |e: &Experiment, c: &Config| match e.snapshot().pending_pause_fate(c) {
        Some(PauseFate::TakesEffect {
            unless_park_fails, ..
        }) => unless_park_fails,
        fate => panic!("{fate:?} at {:?}", e.snapshot()),
    };
    for (on_timeout, warned) in [
        (OnTimeout::Fail, true),
        (OnTimeout::ResumeWithSummary, false),
    ] {
        let c = timed(on_timeout);
        let mut e = exp(c);
        steps(&mut e, 2); // 1 s into unit 1
        e.apply(pause(PauseMode::WaitForCompletion)).unwrap();
        assert_eq!(
            unless(&e, &c),
            warned,
            "{on_timeout:?}, before the self-park"
        );
        while e.snapshot().state != TaskState::Paused {
            e.apply(Action::Step).unwrap();
        }
        assert_eq!(unless(&e, &c), warned, "{on_timeout:?}, self-parked");
        // Left to wait, the timeout decides.
        let mut waited = e.clone();
        run(&mut waited, 100);
        let fate = waited.tasks()[0].records().iter().find_map(|r| {
            (r.snap.state.is_terminal() || r.snap.pause.is_some_and(|p| p.by == Initiator::Client))
                .then_some(r.snap.state)
        });
        let expected = if warned {
            TaskState::Failed
        } else {
            TaskState::Paused
        };
        assert_eq!(fate, Some(expected), "{on_timeout:?}, left to wait");
        // Resumed in time, nothing can fail it any more: no warning.
        e.apply(resume(&token(&e))).unwrap();
        assert!(!unless(&e, &c), "{on_timeout:?}, resumed");
        run(&mut e, 100);
        assert_eq!(
            state(&e),
            TaskState::Paused,
            "{on_timeout:?}: the pause took effect"
        );
        assert_eq!(e.snapshot().pause.unwrap().by, Initiator::Client);
    }
}
