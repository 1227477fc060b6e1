//! One test per rule of the task model.

mod common;

// The same tests run natively and, under wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use a2a_control_room::model::*;
use common::*;

// ---- configuration -------------------------------------------------------

#[test]
fn defaults_match_the_design() {
    let c = Config::default();
    assert_eq!((c.work_units, c.seconds_per_unit), (4, 3));
    assert_eq!((c.input_gate, c.auth_gate, c.fail_during), (0, 0, 0));
    assert!(!c.reject_before_execution);
    assert!(c.worker_accepts_cancellation);
    assert_eq!(c.validate(), Ok(()));
}

#[test]
fn every_setting_accepts_exactly_its_range() {
    let expected = [
        (Setting::WorkUnits, 1, 12),
        (Setting::SecondsPerUnit, 1, 10),
        (Setting::InputGate, 0, 13),
        (Setting::AuthGate, 0, 13),
        (Setting::FailDuring, 0, 13),
        (Setting::SelfParkBefore, 0, 13),
        (Setting::SelfParkTimeout, 0, 60),
    ];
    let all: Vec<Setting> = Setting::CORE.into_iter().chain(Setting::PROPOSAL).collect();
    assert_eq!(all, expected.map(|(s, ..)| s), "every setting is checked");
    for (setting, lo, hi) in expected {
        for v in lo..=hi {
            let c = cfg().with(setting, v).expect("in range");
            assert_eq!(i64::from(c.get(setting)), v);
        }
        for v in [lo - 1, hi + 1, -1000, 1 << 40] {
            let err = cfg().with(setting, v).expect_err("out of range");
            assert_eq!(err, ConfigError { setting, value: v });
            let msg = err.to_string();
            assert!(msg.starts_with(&setting.said()), "{msg}");
            // A proposal setting is said to be one.
            let proposal = Setting::PROPOSAL.contains(&setting);
            assert_eq!(msg.contains("proposal"), proposal, "{msg}");
            assert!(msg.contains(&format!("between {lo} and {hi}")), "{msg}");
        }
    }
}

#[test]
fn a_hand_built_invalid_config_is_a_typed_error_not_a_panic() {
    let bad = Config {
        seconds_per_unit: 11,
        ..Config::default()
    };
    let err = Experiment::new(bad, IdSource::seeded(1)).expect_err("invalid");
    assert_eq!(err.setting, Setting::SecondsPerUnit);
    assert_eq!(
        err.to_string(),
        "Seconds per unit must be between 1 and 10 (got 11)"
    );
    let zero_units = Config {
        work_units: 0,
        ..Config::default()
    };
    assert_eq!(
        zero_units.validate().unwrap_err().setting,
        Setting::WorkUnits
    );
}

#[test]
fn a_hand_built_snapshot_the_model_never_makes_reads_without_a_panic() {
    let odd = Snapshot {
        completed_units: 2,
        active_s: 1,
        ..Snapshot::SUBMITTED
    };
    assert_eq!(odd.seconds_into_unit(&Config::default()), 0);
}

#[test]
fn settings_describe_off_and_never_reached() {
    let c = cfg().with(Setting::InputGate, 0).unwrap();
    assert_eq!(c.describe(Setting::InputGate), "off");
    let c = c.with(Setting::AuthGate, 9).unwrap();
    assert_eq!(c.describe(Setting::AuthGate), "9 (never reached)");
    let c = c.with(Setting::FailDuring, 4).unwrap();
    assert_eq!(c.describe(Setting::FailDuring), "4");
}

// ---- states ----------------------------------------------------------------

#[test]
fn states_carry_the_exact_a2a_names_and_numbers() {
    let expected = [
        ("TASK_STATE_SUBMITTED", 1),
        ("TASK_STATE_WORKING", 2),
        ("TASK_STATE_COMPLETED", 3),
        ("TASK_STATE_FAILED", 4),
        ("TASK_STATE_CANCELED", 5),
        ("TASK_STATE_INPUT_REQUIRED", 6),
        ("TASK_STATE_REJECTED", 7),
        ("TASK_STATE_AUTH_REQUIRED", 8),
    ];
    for (state, (name, number)) in TaskState::ALL.into_iter().zip(expected) {
        assert_eq!(state.name(), name);
        assert_eq!(state.number(), number);
    }
}

#[test]
fn terminal_and_interrupted_sets_are_the_specs() {
    let terminal: Vec<_> = TaskState::ALL
        .into_iter()
        .filter(|s| s.is_terminal())
        .collect();
    assert_eq!(
        terminal,
        [
            TaskState::Completed,
            TaskState::Failed,
            TaskState::Canceled,
            TaskState::Rejected
        ]
    );
    let interrupted: Vec<_> = TaskState::ALL
        .into_iter()
        .filter(|s| s.is_interrupted())
        .collect();
    assert_eq!(
        interrupted,
        [TaskState::InputRequired, TaskState::AuthRequired]
    );
}

// ---- time and steps ----------------------------------------------------------

#[test]
fn a_new_experiment_is_one_submitted_task() {
    let e = exp(cfg());
    assert_eq!(e.tasks().len(), 1);
    assert_eq!(state(&e), TaskState::Submitted);
    assert_eq!(e.viewed_task().records().len(), 1);
    assert_eq!(e.trace().len(), 1);
    assert_eq!(e.trace()[0].event, Event::Created { follow_up: false });
    assert_eq!(e.trace()[0].before, None);
}

#[test]
fn the_first_step_starts_the_task_and_works_one_second() {
    let mut e = exp(cfg());
    let applied = e.apply(Action::Step).unwrap();
    assert_eq!(
        applied,
        Applied::Recorded {
            states: 2,
            discarded: 0
        }
    );
    let events: Vec<_> = e.trace().iter().map(|t| t.event).collect();
    assert_eq!(events[1], Event::Started);
    assert_eq!(e.trace()[1].active_s, 0, "starting takes no active time");
    assert_eq!(
        events[2],
        Event::Worked {
            unit: 1,
            second: 1,
            unit_done: false
        }
    );
    assert_eq!(e.snapshot().active_s, 1);
    assert_eq!(state(&e), TaskState::Working);
}

#[test]
fn every_later_step_is_exactly_one_active_second() {
    let mut e = exp(cfg());
    e.apply(Action::Step).unwrap();
    for expected in 2..=11 {
        e.apply(Action::Step).unwrap();
        assert_eq!(e.snapshot().active_s, expected);
        assert_eq!(e.snapshot().completed_units as u32, expected / 3);
    }
}

#[test]
fn completion_takes_exactly_n_times_s_active_seconds_and_yields_the_artifact() {
    for (n, s) in [(1, 1), (4, 3), (12, 10), (5, 7)] {
        let c = cfg()
            .with(Setting::WorkUnits, n)
            .unwrap()
            .with(Setting::SecondsPerUnit, s)
            .unwrap();
        let mut e = exp(c);
        run(&mut e, 10_000);
        assert_eq!(state(&e), TaskState::Completed);
        assert_eq!(i64::from(e.snapshot().active_s), n * s);
        assert_eq!(i64::from(e.snapshot().completed_units), n);
        assert_eq!(e.snapshot().waiting_s, 0);
        let art = e.viewed_artifact().expect("artifact when completed");
        let units = if n == 1 { "work unit" } else { "work units" };
        assert!(
            art.text().contains(&format!("{n} of {n} {units} (")),
            "{}",
            art.text()
        );
        assert_eq!(e.no_artifact_reason(), None);
    }
}

#[test]
fn reject_before_execution_rejects_on_the_first_step_without_work() {
    let c = Config {
        reject_before_execution: true,
        ..cfg()
    };
    let mut e = exp(c);
    e.apply(Action::Step).unwrap();
    assert_eq!(state(&e), TaskState::Rejected);
    assert_eq!(e.snapshot().active_s, 0);
    assert_eq!(e.trace().last().unwrap().event, Event::Rejected);
    assert!(e.viewed_artifact().is_none());
    assert!(e.no_artifact_reason().unwrap().contains("rejected"));
}

// ---- gates -------------------------------------------------------------------

#[test]
fn a_gate_at_unit_one_fires_right_after_the_start_before_any_work() {
    let mut e = exp(cfg().with(Setting::InputGate, 1).unwrap());
    e.apply(Action::Step).unwrap();
    assert_eq!(state(&e), TaskState::InputRequired);
    assert_eq!(e.snapshot().active_s, 0);
    assert_eq!(e.snapshot().completed_units, 0);
    let events: Vec<_> = e.trace().iter().map(|t| t.event).collect();
    assert_eq!(
        events,
        [
            Event::Created { follow_up: false },
            Event::Started,
            Event::AskedInput { unit: 1 }
        ]
    );
}

#[test]
fn a_gate_at_unit_k_fires_when_about_to_start_unit_k() {
    for k in 2..=4u8 {
        let mut e = exp(cfg().with(Setting::AuthGate, k.into()).unwrap());
        run(&mut e, 1000);
        assert_eq!(state(&e), TaskState::AuthRequired);
        assert_eq!(e.snapshot().completed_units, k - 1);
        assert_eq!(e.snapshot().active_s, u32::from(k - 1) * 3);
        assert_eq!(
            e.trace().last().unwrap().event,
            Event::AskedAuth { unit: k }
        );
    }
}

#[test]
fn when_both_gates_name_the_same_unit_input_comes_first_then_authorization() {
    let c = cfg()
        .with(Setting::InputGate, 2)
        .unwrap()
        .with(Setting::AuthGate, 2)
        .unwrap();
    let mut e = exp(c);
    run(&mut e, 1000);
    assert_eq!(state(&e), TaskState::InputRequired);
    e.apply(Action::SupplyClarification("EU only".into()))
        .unwrap();
    assert_eq!(state(&e), TaskState::Working);
    e.apply(Action::Step).unwrap();
    assert_eq!(state(&e), TaskState::AuthRequired);
    assert_eq!(e.snapshot().active_s, 3, "no work between the two gates");
    e.apply(Action::Authorize).unwrap();
    // Credentials arrive out of band, not from the A2A client.
    let t = e.trace().last().unwrap();
    assert_eq!((t.actor, t.event), (Actor::Simulator, Event::Authorized));
    let clarified = e
        .trace()
        .iter()
        .find(|t| t.event == Event::Clarified)
        .unwrap();
    assert_eq!(clarified.actor, Actor::Client);
    run(&mut e, 1000);
    assert_eq!(state(&e), TaskState::Completed);
}

#[test]
fn a_clarification_that_reverses_its_text_ends_within_its_quotes_in_the_artifact() {
    for (said, shown) in [
        // An override left open would reverse the closing quote and the
        // full stop too: the text is isolated, which ends it there.
        (
            "\u{202E}yes, delete all files",
            "“\u{2068}\u{202E}yes, delete all files\u{2069}”.",
        ),
        // Right-to-left letters need no control: they go as they are.
        ("\u{05DB}\u{05DF}", "“\u{05DB}\u{05DF}”."),
        ("EU only", "“EU only”."),
    ] {
        let mut e = exp(cfg().with(Setting::InputGate, 1).unwrap());
        run(&mut e, 1000);
        e.apply(Action::SupplyClarification(said.into())).unwrap();
        run(&mut e, 1000);
        let text = e.viewed_artifact().expect("completed").text();
        assert!(
            text.ends_with(&format!("Clarification applied: {shown}")),
            "{text:?}"
        );
    }
}

#[test]
fn a_gate_above_the_unit_count_is_never_reached() {
    let c = cfg()
        .with(Setting::InputGate, 5)
        .unwrap()
        .with(Setting::AuthGate, 13)
        .unwrap()
        .with(Setting::FailDuring, 13)
        .unwrap();
    let mut e = exp(c);
    run(&mut e, 1000);
    assert_eq!(state(&e), TaskState::Completed);
    assert!(e.trace().iter().all(|t| !matches!(
        t.event,
        Event::AskedInput { .. } | Event::AskedAuth { .. } | Event::Failed { .. }
    )));
}

#[test]
fn step_is_refused_while_interrupted_with_a_reason_naming_what_it_waits_for() {
    let mut e = exp(cfg().with(Setting::InputGate, 2).unwrap());
    run(&mut e, 1000);
    let r = e.legality(&Action::Step).unwrap_err();
    assert_eq!(r, Refusal::Interrupted(TaskState::InputRequired));
    assert!(r.to_string().contains("clarification"));
    assert_eq!(e.apply(Action::Step), Err(r));
    let mut e = exp(cfg().with(Setting::AuthGate, 1).unwrap());
    run(&mut e, 1000);
    let r = e.legality(&Action::Step).unwrap_err();
    assert!(r.to_string().contains("authorization"), "{r}");
}

#[test]
fn clarification_is_accepted_only_in_input_required() {
    let mut e = exp(cfg().with(Setting::AuthGate, 2).unwrap());
    let act = Action::SupplyClarification("x".into());
    assert_eq!(
        e.legality(&act),
        Err(Refusal::NotInputRequired(TaskState::Submitted))
    );
    run(&mut e, 1000);
    assert_eq!(
        e.legality(&act),
        Err(Refusal::NotInputRequired(TaskState::AuthRequired)),
        "clarification does not answer an authorization gate"
    );
    let before = e.clone();
    assert!(e.apply(act).is_err());
    assert_eq!(e.tasks(), before.tasks(), "a refusal records nothing");
}

#[test]
fn authorize_is_accepted_only_in_auth_required() {
    let mut e = exp(cfg().with(Setting::InputGate, 2).unwrap());
    assert_eq!(
        e.legality(&Action::Authorize),
        Err(Refusal::NotAuthRequired(TaskState::Submitted))
    );
    run(&mut e, 1000);
    assert_eq!(
        e.legality(&Action::Authorize),
        Err(Refusal::NotAuthRequired(TaskState::InputRequired)),
        "authorization does not answer an input gate"
    );
}

#[test]
fn clarification_text_must_be_present_and_bounded() {
    let mut e = exp(cfg().with(Setting::InputGate, 1).unwrap());
    run(&mut e, 10);
    assert_eq!(
        e.legality(&Action::SupplyClarification("   ".into())),
        Err(Refusal::EmptyClarification)
    );
    // Nothing a reader could see: zero-width spaces and joiners, a word
    // joiner, a byte-order mark, a soft hyphen, among spaces and new lines;
    // direction marks, overrides and isolates; a NUL; fillers and a blank
    // Braille pattern; tag characters and a variation selector.
    for invisible in [
        "\u{200B}",
        " \u{200C}\u{200D} ",
        "\u{2060}\n\u{FEFF}",
        "\u{00AD}\t",
        "\u{200E}\u{200F}\u{061C}",
        "\u{202E}\u{202D}",
        "\u{2066}\u{2069}",
        "\u{0}",
        "\u{3164}\u{115F}\u{FFA0}",
        "\u{2800}",
        "\u{E0041}\u{E007F}\u{FE0F}",
    ] {
        assert_eq!(
            e.legality(&Action::SupplyClarification(invisible.into())),
            Err(Refusal::EmptyClarification),
            "{invisible:?}"
        );
    }
    // One visible character among them is a text (a right-to-left one too).
    assert_eq!(
        e.legality(&Action::SupplyClarification("\u{200B}a\u{200B}".into())),
        Ok(())
    );
    assert_eq!(
        e.legality(&Action::SupplyClarification("\u{200F}\u{05D0}".into())),
        Ok(())
    );
    let long = "x".repeat(MAX_CLARIFICATION_CHARS + 1);
    assert_eq!(
        e.legality(&Action::SupplyClarification(long)),
        Err(Refusal::ClarificationTooLong)
    );
    let max = "é".repeat(MAX_CLARIFICATION_CHARS);
    assert_eq!(e.legality(&Action::SupplyClarification(max)), Ok(()));
    // A message to a terminal task is sent (the agent refuses it), so its
    // text is held to the same rule; while WORKING, the state is what is wrong.
    let mut e = exp(cfg());
    assert_eq!(
        e.legality(&Action::SupplyClarification("   ".into())),
        Err(Refusal::NotInputRequired(TaskState::Submitted))
    );
    run(&mut e, 1000);
    assert_eq!(state(&e), TaskState::Completed);
    let empty = Action::SupplyClarification("   ".into());
    assert_eq!(e.sends(&empty), Err(Refusal::EmptyClarification));
    let long = Action::SupplyClarification("x".repeat(MAX_CLARIFICATION_CHARS + 1));
    assert_eq!(e.sends(&long), Err(Refusal::ClarificationTooLong));
    let more = Action::SupplyClarification("more".into());
    assert_eq!(e.sends(&more), Ok(()), "sent, and refused by the agent");
    assert_eq!(
        e.legality(&more),
        Err(Refusal::NotInputRequired(TaskState::Completed))
    );
}

#[test]
fn resuming_keeps_task_and_context_ids_and_never_redoes_units() {
    let c = cfg()
        .with(Setting::InputGate, 2)
        .unwrap()
        .with(Setting::AuthGate, 3)
        .unwrap();
    let mut e = exp(c);
    let (task_id, ctx) = (e.viewed_task().id.clone(), e.context_id().to_string());
    run(&mut e, 1000);
    assert_eq!(e.snapshot().completed_units, 1);
    e.apply(Action::SupplyClarification("use the EU region.".into()))
        .unwrap();
    assert_eq!(e.snapshot().completed_units, 1);
    assert_eq!(e.snapshot().active_s, 3);
    run(&mut e, 1000);
    assert_eq!(state(&e), TaskState::AuthRequired);
    e.apply(Action::Authorize).unwrap();
    run(&mut e, 1000);
    assert_eq!(state(&e), TaskState::Completed);
    assert_eq!(e.viewed_task().id, task_id);
    assert_eq!(e.context_id(), ctx);
    assert_eq!(e.tasks().len(), 1);
    let worked: Vec<_> = e
        .trace()
        .iter()
        .filter_map(|t| match t.event {
            Event::Worked { unit, second, .. } => Some((unit, second)),
            _ => None,
        })
        .collect();
    let expected: Vec<_> = (1..=4u8)
        .flat_map(|u| (1..=3u8).map(move |s| (u, s)))
        .collect();
    assert_eq!(worked, expected, "each unit second is worked exactly once");
    let art = e.viewed_artifact().unwrap();
    assert!(art.text().contains("use the EU region"), "{}", art.text());
    assert!(
        art.text().contains("Authorization received out of band"),
        "{}",
        art.text()
    );
    assert!(
        !art.text().contains(".”."),
        "one full stop per sentence: {}",
        art.text()
    );
}

// ---- failure -----------------------------------------------------------------

#[test]
fn failure_lands_mid_unit_and_the_unit_is_not_counted() {
    for s in 1..=10u8 {
        let c = cfg()
            .with(Setting::FailDuring, 3)
            .unwrap()
            .with(Setting::SecondsPerUnit, s.into())
            .unwrap();
        let mut e = exp(c);
        run(&mut e, 1000);
        assert_eq!(state(&e), TaskState::Failed);
        assert_eq!(e.snapshot().completed_units, 2, "unit 3 is not counted");
        let second = s.div_ceil(2);
        assert_eq!(e.snapshot().active_s, 2 * u32::from(s) + u32::from(second));
        assert_eq!(
            e.trace().last().unwrap().event,
            Event::Failed { unit: 3, second }
        );
        assert!(e.viewed_artifact().is_none());
        assert!(e
            .no_artifact_reason()
            .unwrap()
            .contains("failed during unit 3"));
        assert_eq!(e.failed_unit(), Some(3));
    }
}

// ---- cancellation --------------------------------------------------------------

#[test]
fn accepted_cancellation_cancels_with_no_artifact_even_after_units_finished() {
    let mut e = exp(cfg());
    for _ in 0..7 {
        e.apply(Action::Step).unwrap();
    }
    assert_eq!(e.snapshot().completed_units, 2);
    e.apply(Action::RequestCancellation).unwrap();
    assert_eq!(state(&e), TaskState::Canceled);
    // The client asked; the trace says the agent granted it.
    let traced = e.trace().last().unwrap();
    assert_eq!(traced.actor, Actor::Client);
    assert_eq!(traced.outcome_text(), "ok: the agent granted the request");
    assert_eq!(e.snapshot().completed_units, 2);
    assert!(e.viewed_artifact().is_none());
    // Said as this agent's way (one artifact at completion), not as an A2A rule.
    let why = e.no_artifact_reason().unwrap();
    assert!(why.contains("2 / 4 units were done"), "{why}");
    assert!(why.contains("only at completion"), "{why}");
    // Canceled before any work: no work was lost, and it is not said so.
    let mut e = exp(cfg());
    e.apply(Action::Step).unwrap();
    e.apply(Action::RequestCancellation).unwrap();
    assert_eq!(
        e.no_artifact_reason().unwrap(),
        "None: the task was canceled before any unit was done."
    );
}

#[test]
fn cancellation_is_allowed_in_every_non_terminal_state() {
    let c = cfg().with(Setting::InputGate, 2).unwrap();
    let mut e = exp(c);
    assert_eq!(e.legality(&Action::RequestCancellation), Ok(()));
    run(&mut e, 1000);
    assert_eq!(state(&e), TaskState::InputRequired);
    e.apply(Action::RequestCancellation).unwrap();
    assert_eq!(state(&e), TaskState::Canceled);
}

#[test]
fn refused_cancellation_leaves_the_task_working_and_traces_minus_32002() {
    let c = Config {
        worker_accepts_cancellation: false,
        ..cfg()
    };
    let mut e = exp(c);
    e.apply(Action::Step).unwrap();
    let records = e.viewed_task().records().len();
    assert_eq!(
        e.legality(&Action::RequestCancellation),
        Ok(()),
        "the request may be sent"
    );
    assert_eq!(
        e.apply(Action::RequestCancellation),
        Err(Refusal::WorkerRefusedCancellation)
    );
    assert_eq!(state(&e), TaskState::Working);
    assert_eq!(
        e.viewed_task().records().len(),
        records,
        "no state recorded"
    );
    let last = e.trace().last().unwrap();
    assert_eq!(last.event, Event::CancelRequested);
    assert_eq!(
        last.outcome,
        Outcome::Refused(Refusal::WorkerRefusedCancellation)
    );
    assert_eq!(Refusal::WorkerRefusedCancellation.code(), Some(-32002));
    run(&mut e, 1000);
    assert_eq!(state(&e), TaskState::Completed, "work continues");
}

#[test]
fn cancel_on_a_terminal_task_is_refused_an_already_canceled_one_included() {
    let mut e = exp(cfg());
    run(&mut e, 1000);
    assert_eq!(
        e.apply(Action::RequestCancellation),
        Err(Refusal::NotCancelable(TaskState::Completed))
    );
    assert_eq!(
        Refusal::NotCancelable(TaskState::Completed).code(),
        Some(-32002)
    );
    assert_eq!(state(&e), TaskState::Completed);

    // A canceled task is not cancelable either (spec §3.1.5, §3.3.2): a
    // repeated cancel is refused with -32002 and the task stays canceled.
    let mut e = exp(cfg());
    e.apply(Action::RequestCancellation).unwrap();
    let before = e.tasks().to_vec();
    let refused = Refusal::NotCancelable(TaskState::Canceled);
    assert_eq!(e.legality(&Action::RequestCancellation), Err(refused));
    assert_eq!(
        e.sends(&Action::RequestCancellation),
        Ok(()),
        "it goes on the wire"
    );
    assert_eq!(e.apply(Action::RequestCancellation), Err(refused));
    assert_eq!(refused.code(), Some(-32002));
    assert_eq!(e.tasks(), &before[..], "the task is unchanged");
    assert_eq!(e.trace().last().unwrap().outcome, Outcome::Refused(refused));
}

#[test]
fn a_request_the_agent_refuses_is_sent_one_the_page_refuses_is_not() {
    // The agent answers these with an A2A error: they reach the wire.
    let mut e = exp(cfg());
    run(&mut e, 1000);
    for a in [
        Action::RequestCancellation,
        Action::SupplyClarification("again".into()),
    ] {
        assert!(e.legality(&a).is_err(), "{a:?} is refused");
        assert_eq!(e.sends(&a), Ok(()), "{a:?} is answered on the wire");
    }
    assert_eq!(
        e.sends(&Action::Authorize),
        Err(Refusal::NotAuthRequired(TaskState::Completed)),
        "authorization is out of band: no request carries it"
    );
    // The page's own refusals send nothing.
    let mut e = exp(Config {
        input_gate: 1,
        ..cfg()
    });
    run(&mut e, 1000);
    assert_eq!(state(&e), TaskState::InputRequired);
    let empty = Action::SupplyClarification("  ".into());
    assert_eq!(e.sends(&empty), Err(Refusal::EmptyClarification));
    assert_eq!(
        e.sends(&Action::Step),
        Err(Refusal::Interrupted(TaskState::InputRequired))
    );
    // An accepted request is sent.
    assert_eq!(e.sends(&Action::RequestCancellation), Ok(()));
}

#[test]
fn terminal_requests_go_only_to_a_task_terminal_as_it_is_now() {
    let message = Action::SupplyClarification("more".into());
    let mut e = exp(cfg());
    e.apply(Action::Step).unwrap();
    assert_eq!(
        e.terminal_request_legality(&Action::RequestCancellation),
        Err(TerminalRequestStop::NotTerminal)
    );
    run(&mut e, 1000);
    for a in [&message, &Action::RequestCancellation] {
        assert_eq!(e.terminal_request_legality(a), Ok(()), "{a:?}");
    }
    assert_eq!(
        e.terminal_request_legality(&Action::SupplyClarification(" ".into())),
        Err(TerminalRequestStop::Refused(Refusal::EmptyClarification))
    );
    e.seek(1).unwrap();
    assert_eq!(
        e.terminal_request_legality(&message),
        Err(TerminalRequestStop::EndedSince),
        "a client reaches the task only as it is now"
    );
    e.seek(e.viewed_task().records().len() - 1).unwrap();
    e.apply(Action::FollowUp).unwrap();
    e.view_task(0).unwrap();
    assert_eq!(e.terminal_request_legality(&message), Ok(()));
    e.seek(1).unwrap();
    assert_eq!(
        e.terminal_request_legality(&message),
        Err(TerminalRequestStop::Refused(Refusal::ReadOnly))
    );
}

// ---- follow-up ---------------------------------------------------------------

#[test]
fn a_follow_up_fails_or_is_rejected_only_if_follow_ups_fail_too() {
    for again in [false, true] {
        let failing = Config {
            fail_during: 2,
            follow_ups_fail_too: again,
            ..cfg()
        };
        let rejecting = Config {
            reject_before_execution: true,
            follow_ups_fail_too: again,
            ..cfg()
        };
        for (config, first) in [
            (failing, TaskState::Failed),
            (rejecting, TaskState::Rejected),
        ] {
            let mut e = exp(config);
            run(&mut e, 1000);
            assert_eq!(state(&e), first);
            e.apply(Action::FollowUp).unwrap();
            run(&mut e, 1000);
            let second = if again { first } else { TaskState::Completed };
            assert_eq!(state(&e), second, "follow_ups_fail_too: {again}");
            assert_eq!(
                e.task_config().fail_during,
                if again { config.fail_during } else { 0 }
            );
        }
    }
    // Off by default: the page's advice after a failure, a follow-up, can succeed.
    assert!(!cfg().follow_ups_fail_too);
}

#[test]
fn follow_up_only_after_a_terminal_state() {
    let mut e = exp(cfg());
    for _ in 0..3 {
        assert!(matches!(
            e.legality(&Action::FollowUp),
            Err(Refusal::NotTerminal(_))
        ));
        e.apply(Action::Step).unwrap();
    }
    run(&mut e, 1000);
    assert_eq!(e.legality(&Action::FollowUp), Ok(()));
}

#[test]
fn a_follow_up_is_a_new_task_in_the_same_context_referencing_the_earlier_one() {
    let mut e = exp(cfg());
    run(&mut e, 1000);
    let first = e.viewed_task().id.clone();
    e.apply(Action::FollowUp).unwrap();
    assert_eq!(e.tasks().len(), 2);
    let t = e.viewed_task();
    assert_ne!(t.id, first);
    assert_eq!(t.reference_task_id.as_deref(), Some(first.as_str()));
    assert_eq!(t.records().len(), 1, "its own history");
    assert_eq!(state(&e), TaskState::Submitted);
    assert_eq!(e.snapshot().active_s, 0);
    assert_eq!(
        e.trace().last().unwrap().event,
        Event::Created { follow_up: true }
    );
}

#[test]
fn earlier_tasks_stay_viewable_and_read_only() {
    let mut e = exp(cfg());
    run(&mut e, 1000);
    let first_records = e.viewed_task().records().to_vec();
    e.apply(Action::FollowUp).unwrap();
    e.view_task(0).unwrap();
    assert!(e.is_read_only());
    assert_eq!(state(&e), TaskState::Completed);
    e.seek(2).unwrap();
    assert_eq!(e.position(), 2);
    for a in [
        Action::Step,
        Action::Authorize,
        Action::RequestCancellation,
        Action::FollowUp,
        Action::SupplyClarification("x".into()),
    ] {
        assert_eq!(e.legality(&a), Err(Refusal::ReadOnly));
        assert_eq!(e.apply(a), Err(Refusal::ReadOnly));
    }
    assert_eq!(e.tasks()[0].records(), &first_records[..]);
    // As it is now, it is terminal: what a client may send any terminal
    // task goes to the agent, which refuses it; the rest stays read-only.
    e.seek(first_records.len() - 1).unwrap();
    let message = Action::SupplyClarification("more".into());
    assert_eq!(e.sends(&message), Ok(()));
    assert_eq!(
        e.apply(message),
        Err(Refusal::NotInputRequired(TaskState::Completed))
    );
    assert_eq!(
        e.apply(Action::RequestCancellation),
        Err(Refusal::NotCancelable(TaskState::Completed))
    );
    for a in [Action::Step, Action::Authorize, Action::FollowUp] {
        assert_eq!(e.legality(&a), Err(Refusal::ReadOnly));
    }
    let refused = &e.trace()[e.trace().len() - 2..];
    assert!(refused
        .iter()
        .all(|t| t.task == 0 && !e.tried_on_earlier_state(t)));
    assert_eq!(
        e.tasks()[0].records(),
        &first_records[..],
        "nothing recorded"
    );
    e.view_task(1).unwrap();
    assert!(!e.is_read_only());
    assert_eq!(e.legality(&Action::Step), Ok(()));
}

#[test]
fn a_follow_up_runs_with_the_current_settings_gates_included() {
    let c = cfg()
        .with(Setting::InputGate, 2)
        .unwrap()
        .with(Setting::FailDuring, 3)
        .unwrap();
    let mut e = exp(c);
    run(&mut e, 1000);
    e.apply(Action::SupplyClarification("a".into())).unwrap();
    run(&mut e, 1000);
    assert_eq!(state(&e), TaskState::Failed);
    e.apply(Action::FollowUp).unwrap();
    run(&mut e, 1000);
    assert_eq!(state(&e), TaskState::InputRequired, "the gate fires again");
    assert_eq!(e.snapshot().completed_units, 1);
}

// ---- recorded states, seek and discard -------------------------------------------

#[test]
fn recorded_states_have_stable_increasing_ids() {
    let mut e = exp(cfg());
    for _ in 0..5 {
        e.apply(Action::Step).unwrap();
    }
    let ids: Vec<u32> = e.viewed_task().records().iter().map(|r| r.id).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    // Discard the last three, then act: the new states get new ids, never reused.
    e.seek(ids.len() - 4).unwrap();
    e.apply(Action::Step).unwrap();
    let after: Vec<u32> = e.viewed_task().records().iter().map(|r| r.id).collect();
    assert_eq!(&after[..ids.len() - 3], &ids[..ids.len() - 3]);
    assert!(after[ids.len() - 3] > *ids.last().unwrap());
}

#[test]
fn seek_only_views() {
    let mut e = exp(cfg());
    for _ in 0..6 {
        e.apply(Action::Step).unwrap();
    }
    let tasks = e.tasks().to_vec();
    let trace = e.trace().to_vec();
    e.seek(1).unwrap();
    assert_eq!(e.position(), 1);
    assert_eq!(state(&e), TaskState::Working);
    assert_eq!(e.snapshot().active_s, 0);
    assert_eq!(e.tasks(), &tasks[..]);
    assert_eq!(e.trace(), &trace[..]);
    assert_eq!(
        e.seek(99),
        Err(SeekError::NoSuchState {
            position: 99,
            count: 8
        })
    );
    assert_eq!(e.position(), 1, "a failed seek changes nothing");
    // Counted from 1 without wrapping, however large the index a crafted run asks for.
    let huge = SeekError::NoSuchState {
        position: u32::MAX as usize,
        count: 8,
    };
    assert_eq!(
        huge.to_string(),
        "There is no recorded state 4294967296 (this task has 8)."
    );
    assert_eq!(
        e.view_task(3).unwrap_err().to_string(),
        "There is no task 4 (this context has 1)."
    );
}

#[test]
fn acting_from_an_earlier_state_discards_exactly_the_later_states_first() {
    let mut e = exp(cfg());
    for _ in 0..6 {
        e.apply(Action::Step).unwrap();
    }
    let records = e.viewed_task().records().to_vec();
    assert_eq!(records.len(), 8);
    e.seek(3).unwrap();
    assert_eq!(e.later_count(), 4);
    assert!(e.would_record(&Action::Step));
    assert!(
        !e.would_record(&Action::Authorize),
        "a refusal records nothing"
    );
    let applied = e.apply(Action::Step).unwrap();
    assert_eq!(
        applied,
        Applied::Recorded {
            states: 1,
            discarded: 4
        }
    );
    let now = e.viewed_task().records();
    assert_eq!(now.len(), 5);
    assert_eq!(&now[..4], &records[..4]);
    assert_eq!(e.position(), 4);
    // The trace lost the discarded states' entries and kept the rest.
    let at: Vec<u32> = e.trace().iter().map(|t| t.at).collect();
    let ids: Vec<u32> = now.iter().map(|r| r.id).collect();
    assert_eq!(at, ids);
}

#[test]
fn a_refused_action_in_the_past_keeps_the_later_branch_and_is_traced() {
    let mut e = exp(cfg());
    for _ in 0..4 {
        e.apply(Action::Step).unwrap();
    }
    let records = e.viewed_task().records().to_vec();
    e.seek(1).unwrap();
    assert!(e.apply(Action::Authorize).is_err());
    assert_eq!(e.viewed_task().records(), &records[..]);
    let last = e.trace().last().unwrap();
    assert_eq!(last.at, records[1].id);
    assert!(matches!(last.outcome, Outcome::Refused(_)));
    // Acting from there now discards the later states, keeping the refusal (made at state 2).
    e.apply(Action::Step).unwrap();
    assert!(e
        .trace()
        .iter()
        .any(|t| matches!(t.outcome, Outcome::Refused(_))));
}

#[test]
fn a_configuration_says_what_it_changes_from_another() {
    let base = cfg();
    assert!(base.changes_from(&base).is_empty());
    let c = Config {
        work_units: 3,
        fail_during: 5,
        worker_accepts_cancellation: false,
        ..base.with(Setting::InputGate, 2).unwrap()
    };
    assert_eq!(
        c.changes_from(&base),
        [
            "Work units 3",
            "Require input before unit 2",
            "Fail during unit 5 (never reached)",
            "Worker accepts cancellation off",
        ]
    );
    assert_eq!(c.validate(), Ok(()));
}

#[test]
fn timeline_labels_read_position_state_and_time() {
    let mut e = exp(cfg().with(Setting::InputGate, 2).unwrap());
    run(&mut e, 1000);
    let n = e.viewed_task().records().len();
    assert_eq!(
        e.timeline_label(n - 1),
        format!("{n} of {n} — TASK_STATE_INPUT_REQUIRED at 3 s")
    );
}

#[test]
fn timeline_labels_say_the_waiting_time_a_pause_counted() {
    // A self-park (proposal) before unit 2 with no timeout: each Step while
    // PAUSED waits a minute, and the label says so beside the active time.
    let mut e = exp(Config {
        self_park_before: 2,
        ..proposal()
    });
    while state(&e) != TaskState::Paused {
        e.apply(Action::Step).unwrap();
    }
    let active = e.snapshot().active_s;
    e.apply(Action::Step).unwrap();
    e.apply(Action::Step).unwrap();
    let n = e.viewed_task().records().len();
    assert_eq!(
        e.timeline_label(n - 1),
        format!("{n} of {n} — TASK_STATE_PAUSED (proposal) at {active} s active, 2 min waiting")
    );
    // The state it paused in had waited nothing yet.
    assert_eq!(
        e.timeline_label(n - 3),
        format!(
            "{} of {n} — TASK_STATE_PAUSED (proposal) at {active} s",
            n - 2
        )
    );
}

// ---- trace and legality ----------------------------------------------------------

#[test]
fn every_step_and_action_leaves_a_trace_entry_with_unique_increasing_seq() {
    let mut e = exp(cfg().with(Setting::InputGate, 2).unwrap());
    let mut expected = 1;
    for a in [
        Action::Step,
        Action::Authorize,
        Action::Step,
        Action::Step,
        Action::Step,
        Action::Step,
        Action::FollowUp,
        Action::SupplyClarification("go".into()),
        Action::Step,
    ] {
        let before = e.trace().len();
        let res = e.apply(a);
        let added = e.trace().len() - before;
        match res {
            Ok(Applied::Recorded { states, .. }) => assert_eq!(added, states),
            _ => assert_eq!(added, 1),
        }
        expected += added;
    }
    assert_eq!(e.trace().len(), expected);
    assert!(e.trace().windows(2).all(|w| w[0].seq < w[1].seq));
}

#[test]
fn answers_and_follow_ups_are_allowed_exactly_in_their_states() {
    // The rule, written out: each answer only in the state that asks for
    // it, a follow-up only after a terminal state. Legality and apply both
    // follow it, in every state these runs reach.
    let rule = |a: &Action, s: TaskState| -> Result<(), Refusal> {
        match a {
            Action::Authorize if s == TaskState::AuthRequired => Ok(()),
            Action::Authorize => Err(Refusal::NotAuthRequired(s)),
            Action::SupplyClarification(_) if s == TaskState::InputRequired => Ok(()),
            Action::SupplyClarification(_) => Err(Refusal::NotInputRequired(s)),
            _ if s.is_terminal() => Ok(()),
            _ => Err(Refusal::NotTerminal(s)),
        }
    };
    let configs = [
        cfg(),
        cfg().with(Setting::InputGate, 1).unwrap(),
        cfg().with(Setting::AuthGate, 2).unwrap(),
        Config {
            reject_before_execution: true,
            ..cfg()
        },
    ];
    let mut seen = std::collections::BTreeSet::new();
    for c in configs {
        let mut e = exp(c);
        for _ in 0..30 {
            let s = state(&e);
            seen.insert(s.name());
            for a in [
                Action::Authorize,
                Action::SupplyClarification("t".into()),
                Action::FollowUp,
            ] {
                let expected = rule(&a, s);
                assert_eq!(e.legality(&a), expected, "{a:?} in {s}");
                let mut probe = e.clone();
                assert_eq!(probe.apply(a.clone()).map(|_| ()), expected, "{a:?} in {s}");
            }
            if e.apply(Action::Step).is_err() {
                break;
            }
        }
    }
    // Every kind of state the rule tells apart was reached.
    for s in [
        "TASK_STATE_INPUT_REQUIRED",
        "TASK_STATE_AUTH_REQUIRED",
        "TASK_STATE_WORKING",
        "TASK_STATE_COMPLETED",
        "TASK_STATE_REJECTED",
    ] {
        assert!(seen.contains(s), "{s} never reached: {seen:?}");
    }
}

// ---- ids -------------------------------------------------------------------------

#[test]
fn ids_are_uuid_v4_and_reproducible_from_the_seed() {
    let mut a = IdSource::seeded(42);
    let mut b = IdSource::seeded(42);
    let xs: Vec<String> = (0..100).map(|_| a.next_id()).collect();
    let ys: Vec<String> = (0..100).map(|_| b.next_id()).collect();
    assert_eq!(xs, ys);
    for id in &xs {
        let u = uuid::Uuid::parse_str(id).expect("a UUID");
        assert_eq!(u.get_version_num(), 4);
        assert_eq!(id, &u.hyphenated().to_string());
    }
}

#[test]
fn nearby_seeds_share_no_id() {
    // Two experiments with seeds a few apart (hand-made runs, tests) must
    // not give one's task the other's context id.
    let mut seen = std::collections::HashMap::new();
    for seed in 0..16u64 {
        let mut ids = IdSource::seeded(seed);
        for draw in 0..64 {
            if let Some(other) = seen.insert(ids.next_id(), (seed, draw)) {
                panic!("seed {seed} draw {draw} repeats seed {other:?}'s id");
            }
        }
    }
}

#[test]
fn the_client_id_is_its_own_uuid_from_the_seed_apart_from_the_agents_ids() {
    // The client names its messages before the agent has created any id,
    // so its id is none the agent draws, from this seed or a nearby one.
    let agent: Vec<String> = (0..16u64)
        .flat_map(|seed| {
            let mut ids = IdSource::seeded(seed);
            (0..64).map(move |_| ids.next_id())
        })
        .collect();
    let clients: Vec<String> = (0..16u64)
        .map(|seed| IdSource::seeded(seed).client_id())
        .collect();
    for (seed, client) in clients.iter().enumerate() {
        let u = uuid::Uuid::parse_str(client).expect("a UUID");
        assert_eq!(u.get_version_num(), 4);
        assert!(!agent.contains(client), "seed {seed}: {client}");
        assert_eq!(client, &IdSource::seeded(seed as u64).client_id());
    }
    let mut distinct = clients.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), clients.len());
    // Drawing ids does not change it: it is the experiment's, from its seed.
    let mut drawn = IdSource::seeded(3);
    drawn.next_id();
    assert_eq!(drawn.client_id(), clients[3]);
}

#[test]
fn the_same_seed_and_actions_give_the_same_experiment() {
    let run_once = || {
        let mut e = exp(cfg().with(Setting::InputGate, 2).unwrap());
        run(&mut e, 100);
        e.apply(Action::SupplyClarification("same".into())).unwrap();
        run(&mut e, 100);
        e.apply(Action::FollowUp).unwrap();
        e
    };
    assert_eq!(run_once(), run_once());
}

#[test]
fn a_restart_drawing_on_the_same_id_source_gets_a_fresh_context_and_task() {
    let c = cfg().with(Setting::WorkUnits, 2).unwrap();
    let mut e = exp(c);
    run(&mut e, 100);
    let (ctx, task) = (e.context_id().to_string(), e.viewed_task().id.clone());
    // As the page restarts without a fresh seed: ids drawn on from the same source.
    let e = Experiment::new(*e.config(), e.ids().clone()).unwrap();
    assert_eq!(e.config(), &c);
    assert_eq!(e.tasks().len(), 1);
    assert_eq!(state(&e), TaskState::Submitted);
    assert_ne!(e.context_id(), ctx);
    assert_ne!(e.viewed_task().id, task);
}

#[test]
fn resumes_count_the_viewed_tasks_returns_to_work_up_to_the_viewed_state() {
    let mut e = exp(Config {
        input_gate: 2,
        auth_gate: 3,
        ..cfg()
    });
    run(&mut e, 100);
    assert_eq!((state(&e), e.resumes()), (TaskState::InputRequired, 0));
    e.apply(Action::SupplyClarification("eu".into())).unwrap();
    assert_eq!(e.resumes(), 1);
    run(&mut e, 100);
    assert_eq!(state(&e), TaskState::AuthRequired);
    e.apply(Action::Authorize).unwrap();
    run(&mut e, 100);
    assert_eq!((state(&e), e.resumes()), (TaskState::Completed, 2));
    // As of an earlier state: the resumes before it only.
    let gate = e
        .viewed_task()
        .records()
        .iter()
        .position(|r| r.snap.state == TaskState::AuthRequired)
        .unwrap();
    e.seek(gate).unwrap();
    assert_eq!(e.resumes(), 1);
    e.seek(e.viewed_task().records().len() - 1).unwrap();
    // A follow-up is a new task, resumed nowhere yet.
    e.apply(Action::FollowUp).unwrap();
    assert_eq!(e.resumes(), 0);
}

#[test]
fn settings_that_never_stop_the_first_task_are_known_as_such() {
    assert!(Config::default().runs_straight_through());
    // A gate, a failure or a self-park within the units stops it; one
    // past the last unit is never reached.
    for (setting, k) in [
        (Setting::InputGate, 1),
        (Setting::AuthGate, 4),
        (Setting::FailDuring, 2),
    ] {
        assert!(
            !cfg().with(setting, k).unwrap().runs_straight_through(),
            "{setting:?}"
        );
        assert!(
            cfg().with(setting, 5).unwrap().runs_straight_through(),
            "{setting:?} past the units"
        );
    }
    assert!(!cfg()
        .with_switch(Switch::RejectBeforeExecution, true)
        .runs_straight_through());
    let park = cfg().with(Setting::SelfParkBefore, 2).unwrap();
    assert!(
        park.runs_straight_through(),
        "a self-park only with the proposal"
    );
    assert!(!Config {
        pause_proposal: true,
        ..park
    }
    .runs_straight_through());
}

/// What a waiting task awaits (the page links to its control) is the action
/// the model accepts there, and it moves the task on: the clarification at
/// INPUT_REQUIRED, the authorization at AUTH_REQUIRED, a ResumeTask with the
/// pause's token at PAUSED (proposal), a follow-up at a terminal state;
/// nothing while the agent works.
#[test]
fn what_a_waiting_task_awaits_is_what_moves_it_on() {
    let c = Config {
        input_gate: 2,
        auth_gate: 3,
        self_park_before: 4,
        ..proposal()
    };
    let mut e = exp(c);
    let mut seen = Vec::new();
    for _ in 0..200 {
        let state = e.snapshot().state;
        let action = match state.awaits() {
            None => {
                assert!(matches!(state, TaskState::Submitted | TaskState::Working));
                Action::Step
            }
            Some(Answer::Clarification) => Action::SupplyClarification("EU only".into()),
            Some(Answer::Authorization) => Action::Authorize,
            Some(Answer::Resume) => Action::ResumeTask {
                token: token(&e),
                input: None,
                continue_transcript: false,
            },
            Some(Answer::FollowUp) => {
                assert!(state.is_terminal());
                seen.push(Answer::FollowUp);
                assert_eq!(e.legality(&Action::FollowUp), Ok(()));
                break;
            }
        };
        if let Some(answer) = state.awaits() {
            seen.push(answer);
            // A Step does not answer it: refused, or (PAUSED) a minute of
            // the waiting clock that leaves the task waiting.
            let mut stepped = e.clone();
            if stepped.apply(Action::Step).is_ok() {
                assert_eq!(stepped.snapshot().state, state, "a Step answered {state}");
            }
        }
        e.apply(action).unwrap();
        if state.awaits().is_some() {
            assert_eq!(e.snapshot().state, TaskState::Working, "{state} answered");
        }
    }
    assert_eq!(
        seen,
        [
            Answer::Clarification,
            Answer::Authorization,
            Answer::Resume,
            Answer::FollowUp
        ]
    );
}
