//! The state diagram's and time bar's model: which edges exist, which the
//! viewed task took, which one action could take now, and where each
//! recorded state sits on the time bar.

mod common;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use a2a_control_room::model::*;
use a2a_control_room::ui::{
    diagram_lines, diagram_svg, possible_summary, state_kinds, timebar_summary, timebar_svg,
};
use common::*;
use TaskState::*;

#[test]
fn every_edge_joins_two_states_and_the_proposal_adds_only_paused_edges() {
    for e in TRANSITIONS {
        assert_ne!(e.from, e.to);
        assert!(!e.from.is_terminal(), "{:?} leaves a terminal state", e);
    }
    // Without the proposal the diagram is v1.0's: nothing of PAUSED.
    let svg = diagram_svg(&exp(cfg()));
    assert!(!svg.contains("PAUSED"), "the v1.0 diagram has no PAUSED");
    let (a, b) = FORBIDDEN;
    assert!(Transition::between(a, b).is_none() && Transition::between(b, a).is_none());
    // Every v1.0 non-terminal state can be canceled.
    for s in TaskState::ALL.into_iter().filter(|s| !s.is_terminal()) {
        assert!(Transition::between(s, Canceled).is_some(), "{s:?}");
    }
}

#[test]
fn terminal_states_are_drawn_doubled_and_every_state_is_named_by_its_kind() {
    let svg = diagram_svg(&exp(proposal()));
    // The eight v1.0 states and the proposal's PAUSED.
    assert_eq!(svg.matches("<g class=\"node").count(), 9);
    for g in svg.split("<g class=\"node").skip(1) {
        let g = &g[..g.find("</g>").unwrap()];
        let state = TaskState::ALL
            .into_iter()
            .chain([Paused])
            .find(|s| g.contains(&format!("data-state=\"{}\"", s.name())))
            .unwrap();
        // Final reads without colour: a second, inner border.
        assert_eq!(g.contains("class=\"ring\""), state.is_terminal(), "{g}");
        let kind = if state.is_proposal() {
            "proposal, not part of A2A v1.0"
        } else if state.is_terminal() {
            "terminal: final"
        } else if state.is_interrupted() {
            "interrupted: waits for input or authorization"
        } else {
            "active"
        };
        assert!(
            g.contains(&format!("<title>{} ({kind}", state.name())),
            "{g}"
        );
    }
    // The key in words, for a reader who does not see the colours.
    assert_eq!(
        state_kinds(false),
        "Active: SUBMITTED, WORKING. Interrupted (waits for input or authorization, then resumes): \
         INPUT_REQUIRED, AUTH_REQUIRED. Terminal (final, double border): COMPLETED, FAILED, \
         CANCELED, REJECTED."
    );
    assert!(state_kinds(true).ends_with("PAUSED is the proposal's, not a v1.0 state."));
}

#[test]
fn every_transition_the_model_records_is_an_edge_of_the_diagram() {
    // Drive a run through gates, a pause, a resume and a cancel; every
    // recorded change of state must be drawn.
    let mut e = exp(Config {
        input_gate: 2,
        auth_gate: 3,
        ..proposal()
    });
    run(&mut e, 100);
    e.apply(Action::SupplyClarification("eu".into())).unwrap();
    run(&mut e, 100);
    e.apply(Action::Authorize).unwrap();
    e.apply(Action::Step).unwrap();
    e.apply(pause(PauseMode::InterruptImmediate)).unwrap();
    e.apply(resume(&token(&e))).unwrap();
    e.apply(Action::RequestCancellation).unwrap();
    let taken = e.taken_transitions();
    assert_eq!(
        taken,
        vec![
            (Submitted, Working),
            (Working, InputRequired),
            (InputRequired, Working),
            (Working, AuthRequired),
            (AuthRequired, Working),
            (Working, Paused),
            (Paused, Working),
            (Working, Canceled),
        ]
    );
    for (from, to) in taken {
        assert!(Transition::between(from, to).is_some(), "{from:?} → {to:?}");
    }
}

#[test]
fn taken_edges_follow_seek() {
    let mut e = exp(Config {
        input_gate: 2,
        ..cfg()
    });
    run(&mut e, 100);
    assert!(e.taken_transitions().contains(&(Working, InputRequired)));
    e.seek(1).unwrap();
    assert_eq!(e.taken_transitions(), vec![(Submitted, Working)]);
    e.seek(0).unwrap();
    assert!(e.taken_transitions().is_empty());
}

#[test]
fn possible_edges_are_what_one_legal_action_would_record() {
    let mut e = exp(Config {
        input_gate: 1,
        ..cfg()
    });
    // SUBMITTED: the agent would start; the client could cancel.
    assert_eq!(
        e.possible_transitions(),
        vec![(Submitted, Working), (Submitted, Canceled)]
    );
    e.apply(Action::Step).unwrap();
    assert_eq!(state(&e), InputRequired);
    assert_eq!(
        e.possible_transitions(),
        vec![(InputRequired, Working), (InputRequired, Canceled)]
    );
    // A worker that refuses cancellation takes the cancel edges away.
    let mut stubborn = exp(Config {
        worker_accepts_cancellation: false,
        ..cfg()
    });
    stubborn.apply(Action::Step).unwrap();
    stubborn.apply(Action::Step).unwrap();
    assert_eq!(state(&stubborn), Working);
    assert!(
        stubborn.possible_transitions().is_empty(),
        "mid-unit, nothing leaves WORKING"
    );
    // Terminal: nothing.
    run(&mut stubborn, 100);
    assert_eq!(state(&stubborn), Completed);
    assert!(stubborn.possible_transitions().is_empty());
}

#[test]
fn possible_edges_with_the_proposal_include_pause_and_resume() {
    let mut e = exp(proposal());
    // The RFC pauses WORKING tasks only.
    assert!(!e.possible_transitions().contains(&(Submitted, Paused)));
    e.apply(Action::Step).unwrap();
    e.apply(Action::Step).unwrap();
    let now = e.possible_transitions();
    assert!(now.contains(&(Working, Paused)) && now.contains(&(Working, Canceled)));
    e.apply(pause(PauseMode::InterruptImmediate)).unwrap();
    let now = e.possible_transitions();
    assert_eq!(now, vec![(Paused, Canceled), (Paused, Working)]);
    // Never a pause from INPUT_REQUIRED.
    let mut gated = exp(Config {
        input_gate: 1,
        ..proposal()
    });
    gated.apply(Action::Step).unwrap();
    assert_eq!(state(&gated), InputRequired);
    assert!(!gated
        .possible_transitions()
        .contains(&(InputRequired, Paused)));
}

#[test]
fn a_pending_pause_makes_the_next_step_a_possible_pause() {
    // Mid-unit, a finish_step pause waits for the unit to end; the Step that
    // ends it pauses the task, and "possible now" says so.
    let mut e = exp(Config {
        seconds_per_unit: 2,
        ..proposal()
    });
    e.apply(Action::Step).unwrap();
    assert_eq!(e.snapshot().active_s, 1);
    e.apply(pause(PauseMode::FinishStep)).unwrap();
    assert_eq!(state(&e), Working);
    assert!(e.possible_transitions().contains(&(Working, Paused)));
    e.apply(Action::Step).unwrap();
    assert_eq!(state(&e), Paused);
}

#[test]
fn pausing_a_submitted_task_is_refused_so_a_rejecting_agent_still_rejects() {
    let mut e = exp(Config {
        reject_before_execution: true,
        ..proposal()
    });
    let pause = Action::PauseTask {
        mode: PauseMode::InterruptImmediate,
        reason: String::new(),
    };
    assert_eq!(e.legality(&pause), Err(Refusal::NotPausable(Submitted)));
    assert_eq!(e.apply(pause), Err(Refusal::NotPausable(Submitted)));
    assert_eq!(
        e.possible_transitions(),
        vec![(Submitted, Rejected), (Submitted, Canceled)]
    );
    e.apply(Action::Step).unwrap();
    assert_eq!(state(&e), Rejected);
}

/// `n` Steps, each legal.
fn steps(e: &mut Experiment, n: usize) {
    for _ in 0..n {
        e.apply(Action::Step).unwrap();
    }
}

/// The time bar's words for the viewed task hold `words`.
fn bar_says(e: &Experiment, bar: &TimeBar, words: &str) {
    let summary = timebar_summary(e, bar);
    assert!(summary.contains(words), "{summary}");
}

fn seg(x: u32, w: u32, span: Span) -> Segment {
    Segment { x, w, span }
}

fn work(unit: u8) -> Span {
    Span::Work { unit, lost: false }
}

#[test]
fn time_bar_lays_out_work_waits_and_marks() {
    let mut e = exp(Config {
        work_units: 3,
        seconds_per_unit: 2,
        input_gate: 2,
        fail_during: 3,
        ..cfg()
    });
    // Before anything ran, the plan: units 1, 2 and 3 start at 0, 2 and 4 s,
    // the input gate comes before unit 2, the failure at the first second of
    // unit 3.
    let plan = |x, what| PlanMark { x, what };
    assert_eq!(
        TimeBar::of(&e).ahead,
        vec![
            plan(0, Ahead::Unit(1)),
            plan(2, Ahead::Unit(2)),
            plan(2, Ahead::Input),
            plan(4, Ahead::Unit(3)),
            plan(5, Ahead::Failure),
        ]
    );
    assert_eq!(
        TimeBar::of(&e).segments,
        vec![
            seg(0, 5, Span::Planned { abandoned: false }),
            seg(5, 1, Span::Planned { abandoned: true }),
        ]
    );
    let svg = timebar_svg(&TimeBar::of(&e));
    assert_eq!(svg.matches("class=\"planned abandoned").count(), 1, "{svg}");
    run(&mut e, 100);
    assert_eq!(state(&e), InputRequired);
    let bar = TimeBar::of(&e);
    // At the gate, what is left after the gap: unit 2, once answered, unit 3
    // and the failure.
    assert_eq!(
        bar.ahead,
        vec![
            plan(5, Ahead::Unit(2)),
            plan(7, Ahead::Unit(3)),
            plan(8, Ahead::Failure)
        ]
    );
    let input = Span::Wait {
        state: InputRequired,
        minutes: 0,
    };
    // Unit 1 worked (2 s), an open input gap, then 3 s planned up to the
    // failure, and the 1 s after it, which the task never reaches: drawn as
    // it will be once the task has failed.
    assert_eq!(
        bar.segments,
        vec![
            seg(0, 2, work(1)),
            seg(2, GAP_UNITS, input),
            seg(5, 3, Span::Planned { abandoned: false }),
            seg(8, 1, Span::Planned { abandoned: true }),
        ]
    );
    assert_eq!(bar.cursor, 3, "a waiting state sits inside its gap");
    e.apply(Action::SupplyClarification("eu".into())).unwrap();
    run(&mut e, 100);
    assert_eq!(state(&e), Failed);
    let bar = TimeBar::of(&e);
    // Unit 3 fails in its first second, drawn as lost work: it counts for no
    // unit. Its other second stays planned, abandoned.
    assert_eq!(
        bar.segments,
        vec![
            seg(0, 2, work(1)),
            seg(2, GAP_UNITS, input),
            seg(5, 2, work(2)),
            seg(
                7,
                1,
                Span::Work {
                    unit: 3,
                    lost: true
                }
            ),
            seg(8, 1, Span::Planned { abandoned: true }),
        ]
    );
    assert_eq!(
        bar.marks,
        vec![Mark {
            x: 8,
            state: Failed
        }]
    );
    assert_eq!((bar.width, bar.cursor), (9, 8));
    assert!(bar.ahead.is_empty(), "nothing is ahead of a failed task");
    // Every recorded state has a place, never going backwards.
    assert_eq!(bar.record_x.len(), e.viewed_task().records().len());
    assert!(bar.record_x.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn time_bar_marks_a_rejection_and_a_cancel_on_the_abandoned_plan() {
    let mut rejected = exp(Config {
        work_units: 2,
        seconds_per_unit: 2,
        reject_before_execution: true,
        ..cfg()
    });
    rejected.apply(Action::Step).unwrap();
    let bar = TimeBar::of(&rejected);
    assert_eq!(
        bar.segments,
        vec![seg(0, 4, Span::Planned { abandoned: true })]
    );
    assert_eq!(
        bar.marks,
        vec![Mark {
            x: 0,
            state: Rejected
        }]
    );

    let mut canceled = exp(Config {
        work_units: 2,
        seconds_per_unit: 2,
        ..cfg()
    });
    canceled.apply(Action::Step).unwrap();
    canceled.apply(Action::RequestCancellation).unwrap();
    let bar = TimeBar::of(&canceled);
    // The second worked on unit 1 counts for no unit, as a failed unit's.
    assert_eq!(
        bar.segments,
        vec![
            seg(
                0,
                1,
                Span::Work {
                    unit: 1,
                    lost: true
                }
            ),
            seg(1, 3, Span::Planned { abandoned: true })
        ]
    );
    bar_says(
        &canceled,
        &bar,
        "TASK_STATE_CANCELED with 0 of 2 units done (the work on unit 1 not counted).",
    );
    assert_eq!(
        bar.marks,
        vec![Mark {
            x: 1,
            state: Canceled
        }]
    );
    // Canceled between units: every worked second counted, nothing said.
    let mut between = exp(Config {
        work_units: 2,
        seconds_per_unit: 2,
        ..cfg()
    });
    steps(&mut between, 2);
    assert_eq!(between.snapshot().completed_units, 1);
    between.apply(Action::RequestCancellation).unwrap();
    let bar = TimeBar::of(&between);
    assert_eq!(
        bar.segments,
        vec![
            seg(0, 2, work(1)),
            seg(2, 2, Span::Planned { abandoned: true })
        ]
    );
    bar_says(
        &between,
        &bar,
        "TASK_STATE_CANCELED with 1 of 2 units done.",
    );
}

#[test]
fn time_bar_a_cancel_in_a_wait_leaves_the_work_before_it_as_it_was() {
    // Canceled while paused after an immediate pause (proposal): the
    // partial unit was already hatched as lost when the pause threw it away;
    // nothing else is, and the summary says so.
    let mut e = exp(Config {
        work_units: 2,
        seconds_per_unit: 3,
        ..proposal()
    });
    steps(&mut e, 4);
    e.apply(pause(PauseMode::InterruptImmediate)).unwrap();
    e.apply(Action::RequestCancellation).unwrap();
    assert_eq!(state(&e), Canceled);
    let bar = TimeBar::of(&e);
    let worked: Vec<_> = bar
        .segments
        .iter()
        .filter(|s| matches!(s.span, Span::Work { .. }))
        .map(|s| (s.x, s.w, s.span))
        .collect();
    assert_eq!(
        worked,
        [
            (0, 3, work(1)),
            (
                3,
                1,
                Span::Work {
                    unit: 2,
                    lost: true
                }
            )
        ]
    );
    bar_says(
        &e,
        &bar,
        "TASK_STATE_CANCELED with 1 of 2 units done (the work on unit 2 not counted).",
    );
    // Canceled at an input gate, before its unit: no work is in flight.
    let mut e = exp(Config {
        work_units: 2,
        seconds_per_unit: 2,
        input_gate: 2,
        ..cfg()
    });
    run(&mut e, 100);
    assert_eq!(state(&e), InputRequired);
    e.apply(Action::RequestCancellation).unwrap();
    let bar = TimeBar::of(&e);
    assert!(
        bar.segments
            .iter()
            .all(|s| !matches!(s.span, Span::Work { lost: true, .. })),
        "{:?}",
        bar.segments
    );
    bar_says(&e, &bar, "TASK_STATE_CANCELED with 1 of 2 units done.");
}

#[test]
fn time_bar_clicks_go_to_the_nearest_recorded_state() {
    let mut e = exp(Config {
        work_units: 2,
        seconds_per_unit: 2,
        ..cfg()
    });
    run(&mut e, 100);
    let bar = TimeBar::of(&e);
    // Records: created (0), started (0), 1 s, 2 s, 3 s, 4 s (completed).
    assert_eq!(bar.record_x, vec![0, 0, 1, 2, 3, 4]);
    assert_eq!(bar.record_near(0), 1, "the latest state at x = 0");
    assert_eq!(bar.record_near(2_000), 3);
    assert_eq!(bar.record_near(2_400), 3);
    assert_eq!(bar.record_near(2_600), 4);
    assert_eq!(
        bar.record_near(3_900),
        5,
        "the very end reaches the last state"
    );
    assert_eq!(bar.record_near(99_000), 5);
    e.seek(bar.record_near(2_000)).unwrap();
    let bar = TimeBar::of(&e);
    assert_eq!(bar.cursor, 2, "the cursor follows the seek");
    // The later branch stays on the bar until something discards it.
    assert_eq!(bar.width, 4);
}

/// 1 unit of 2 done and 1 s into unit 2, paused at once (losing that
/// second) for two minutes, then resumed.
fn paused_two_minutes_mid_unit() -> Experiment {
    let mut e = exp(Config {
        work_units: 2,
        seconds_per_unit: 3,
        ..proposal()
    });
    steps(&mut e, 4);
    assert_eq!(e.snapshot().active_s, 4);
    e.apply(pause(PauseMode::InterruptImmediate)).unwrap();
    e.apply(Action::Step).unwrap();
    e.apply(Action::Step).unwrap();
    e.apply(resume(&token(&e))).unwrap();
    e
}

#[test]
fn time_bar_spreads_a_pause_over_its_gap_and_hatches_lost_work() {
    let e = paused_two_minutes_mid_unit();
    let bar = TimeBar::of(&e);
    assert_eq!(
        bar.segments,
        vec![
            seg(0, 3, work(1)),
            seg(
                3,
                1,
                Span::Work {
                    unit: 2,
                    lost: true
                }
            ),
            seg(
                4,
                4,
                Span::Wait {
                    state: Paused,
                    minutes: 2
                }
            ),
            seg(8, 3, Span::Planned { abandoned: false }),
        ]
    );
    // The paused state and its two waited minutes each have their own place.
    let n = bar.record_x.len();
    assert_eq!(bar.record_x[n - 4..], [4, 6, 7, 8]);
    for (i, &x) in bar.record_x.iter().enumerate() {
        assert_eq!(
            bar.record_near(u64::from(x) * 1000),
            bar.record_x.iter().rposition(|&r| r == x).unwrap(),
            "record {i}"
        );
    }
}

#[test]
fn a_long_pause_on_the_time_bar_reads_as_inspect_says_it() {
    let mut e = exp(Config {
        work_units: 2,
        seconds_per_unit: 1,
        ..proposal()
    });
    e.apply(Action::Step).unwrap();
    e.apply(pause(PauseMode::InterruptImmediate)).unwrap();
    steps(&mut e, 62);
    assert_eq!(e.snapshot().waiting_s, 62 * 60);
    assert_eq!(waiting_words(e.snapshot().waiting_s), "1 h 2 min");
    let svg = timebar_svg(&TimeBar::of(&e));
    assert!(svg.contains(">1 h 2 min</text>"), "{svg}");
    assert!(!svg.contains("62 min"), "{svg}");
}

#[test]
fn the_first_state_of_a_wait_is_in_it_though_it_sits_where_the_wait_starts() {
    let mut e = paused_two_minutes_mid_unit();
    let n = e.viewed_task().records().len();
    let wait = |bar: &TimeBar| {
        *bar.segments
            .iter()
            .find(|s| matches!(s.span, Span::Wait { .. }))
            .unwrap()
    };
    // The state before the pause and the paused one share the gap's start.
    e.seek(n - 5).unwrap();
    let bar = TimeBar::of(&e);
    assert_eq!(bar.cursor, wait(&bar).x);
    assert_eq!(bar.side(&wait(&bar)), std::cmp::Ordering::Greater);
    assert!(
        timebar_summary(&e, &bar).contains("; 1 wait after it (paused, proposal), drawn as a gap.")
    );
    assert!(timebar_svg(&bar).contains("wait paused ahead"));
    // The paused state is in the wait, at its start as well as later on.
    for at in [n - 4, n - 3, n - 2] {
        e.seek(at).unwrap();
        let bar = TimeBar::of(&e);
        assert_eq!(
            bar.side(&wait(&bar)),
            std::cmp::Ordering::Equal,
            "state {at}"
        );
        bar_says(
            &e,
            &bar,
            "; the wait it is in (paused, proposal), drawn as a gap.",
        );
        assert!(!timebar_svg(&bar).contains("wait paused ahead"));
    }
    e.seek(n - 1).unwrap();
    let bar = TimeBar::of(&e);
    assert_eq!(bar.side(&wait(&bar)), std::cmp::Ordering::Less);
    assert!(timebar_summary(&e, &bar)
        .contains("; 1 wait before it (paused, proposal), drawn as a gap."));
}

#[test]
fn the_time_bar_says_what_each_wait_was_for() {
    // Input before unit 2, authorization before unit 3: two gaps, told
    // apart in words as the bar tells them apart by label and outline.
    let mut e = exp(Config {
        work_units: 3,
        seconds_per_unit: 1,
        input_gate: 2,
        auth_gate: 3,
        ..cfg()
    });
    run(&mut e, 100);
    e.apply(Action::SupplyClarification("ok".into())).unwrap();
    run(&mut e, 100);
    bar_says(
        &e,
        &TimeBar::of(&e),
        "; 1 wait before it (input) and the wait it is in (authorization), drawn as gaps.",
    );
    e.apply(Action::Authorize).unwrap();
    run(&mut e, 100);
    assert_eq!(state(&e), Completed);
    bar_says(
        &e,
        &TimeBar::of(&e),
        "; 2 waits before it (input; authorization), drawn as gaps.",
    );
    e.seek(0).unwrap();
    bar_says(
        &e,
        &TimeBar::of(&e),
        "; 2 waits after it (input; authorization), drawn as gaps.",
    );
}

#[test]
fn only_work_on_the_unit_that_failed_is_said_to_be_not_counted() {
    // A fault during unit 2: the work on it counts for no unit.
    let mut e = exp(Config {
        work_units: 3,
        seconds_per_unit: 2,
        fail_during: 2,
        ..cfg()
    });
    run(&mut e, 100);
    assert_eq!(state(&e), Failed);
    bar_says(
        &e,
        &TimeBar::of(&e),
        "TASK_STATE_FAILED with 1 of 3 units done (the work on unit 2 not counted).",
    );
    // A self-park that times out fails the task before unit 3 starts; the
    // work an immediate pause threw away on unit 1 was done again.
    let mut e = exp(Config {
        work_units: 3,
        seconds_per_unit: 3,
        self_park_before: 3,
        self_park_timeout: 1,
        on_timeout: OnTimeout::Fail,
        ..proposal()
    });
    while e.snapshot().active_s < 1 {
        e.apply(Action::Step).unwrap();
    }
    e.apply(pause(PauseMode::InterruptImmediate)).unwrap();
    e.apply(resume(&token(&e))).unwrap();
    run(&mut e, 100);
    assert_eq!(state(&e), Failed);
    let bar = TimeBar::of(&e);
    let lost_on_1 = Span::Work {
        unit: 1,
        lost: true,
    };
    assert!(
        bar.segments.iter().any(|s| s.span == lost_on_1),
        "{:?}",
        bar.segments
    );
    bar_says(&e, &bar, "TASK_STATE_FAILED with 2 of 3 units done.");
}

#[test]
fn the_diagram_as_text_says_what_the_drawing_shows() {
    let mut e = exp(Config {
        input_gate: 1,
        ..cfg()
    });
    e.apply(Action::Step).unwrap();
    let lines = diagram_lines(&e, &e.possible_transitions());
    let line = |from: &str, to: &str| {
        lines
            .iter()
            .find(|l| l.starts_with(&format!("{from} → {to} (")))
            .unwrap_or_else(|| panic!("{from} → {to}: {lines:#?}"))
            .clone()
    };
    assert_eq!(
        lines.len(),
        TRANSITIONS.iter().filter(|t| !t.proposal).count()
    );
    assert!(line("SUBMITTED", "WORKING").ends_with("): taken"));
    assert!(line("WORKING", "INPUT_REQUIRED").ends_with("): taken"));
    assert!(line("INPUT_REQUIRED", "CANCELED").ends_with("): possible now"));
    assert!(
        line("WORKING", "COMPLETED").ends_with(')'),
        "neither: no words"
    );
    assert_eq!(
        line("WORKING", "REJECTED"),
        "WORKING → REJECTED (agent rejects later): allowed by v1.0, not simulated"
    );
    assert!(!lines.iter().any(|l| l.contains("PAUSED")));
    // The drawing marks the same: one line per edge it draws, each saying
    // what the edge's classes draw.
    same_as_drawn(&diagram_svg(&e), &lines);

    let on = exp(proposal());
    let lines = diagram_lines(&on, &on.possible_transitions());
    assert!(lines
        .iter()
        .any(|l| l.starts_with("WORKING → PAUSED (") && l.ends_with("proposal")));
    assert_eq!(
        lines.last().unwrap(),
        "INPUT_REQUIRED ↔ PAUSED: never adjacent (proposal): a paused task that needs input resumes to WORKING first"
    );
    let svg = diagram_svg(&on);
    assert!(svg.contains(r#"data-edge="forbidden""#));
    same_as_drawn(
        &svg.replace(r#"data-edge="forbidden""#, ""),
        &lines[..lines.len() - 1],
    );
}

/// Each line of the diagram as text names an edge the SVG draws, with the
/// words its classes stand for; and the SVG draws no other edge.
fn same_as_drawn(svg: &str, lines: &[String]) {
    assert_eq!(svg.matches("data-edge=").count(), lines.len(), "{lines:#?}");
    for line in lines {
        let (from, rest) = line.split_once(" → ").unwrap();
        let to = rest.split_once(" (").unwrap().0;
        let at = svg
            .find(&format!("data-edge=\"{from}-{to}\""))
            .unwrap_or_else(|| panic!("{line}: not drawn"));
        let class = &svg[svg[..at].rfind("class=\"").unwrap()..at];
        for (word, said) in [
            ("taken", "taken"),
            ("possible", "possible now"),
            ("unsimulated", "not simulated"),
            ("proposal", "proposal"),
        ] {
            let words = line.rsplit_once("): ").map_or("", |w| w.1);
            assert_eq!(
                class.split(['"', ' ']).any(|c| c == word),
                words.contains(said),
                "{line} vs {class}"
            );
        }
    }
}

#[test]
fn the_diagram_marks_current_taken_possible_and_forbidden() {
    let mut e = exp(Config {
        input_gate: 1,
        ..cfg()
    });
    e.apply(Action::Step).unwrap();
    let svg = diagram_svg(&e);
    assert!(
        svg.contains(r#"class="node interrupted current" data-state="TASK_STATE_INPUT_REQUIRED""#)
    );
    assert!(svg.contains(r#"class="edge taken" data-edge="SUBMITTED-WORKING""#));
    assert!(svg.contains(r#"class="edge possible" data-edge="INPUT_REQUIRED-WORKING""#));
    assert!(svg.contains(r#"class="edge" data-edge="WORKING-COMPLETED""#));
    assert!(svg.contains(r#"class="edge unsimulated" data-edge="WORKING-REJECTED""#));
    assert!(
        !svg.contains("PAUSED"),
        "no proposal state while the proposal is off"
    );
    assert_eq!(svg.matches("<g class=\"node").count(), 8);
    assert!(possible_summary(&e).contains("INPUT_REQUIRED → CANCELED (cancel accepted)"));

    let mut on = exp(proposal());
    let svg = diagram_svg(&on);
    assert_eq!(svg.matches("<g class=\"node").count(), 9);
    assert!(svg.contains(r#"class="node paused proposal" data-state="TASK_STATE_PAUSED""#));
    assert!(svg.contains(r#"data-edge="forbidden""#));
    assert!(svg.contains("never adjacent (proposal)"));
    assert!(svg.contains(r#"class="edge proposal" data-edge="WORKING-PAUSED""#));
    on.apply(Action::Step).unwrap();
    assert!(
        diagram_svg(&on).contains(r#"class="edge possible proposal" data-edge="WORKING-PAUSED""#)
    );
    // An edge taken before and possible again is both.
    on.apply(pause(PauseMode::InterruptImmediate)).unwrap();
    on.apply(resume(&token(&on))).unwrap();
    assert!(diagram_svg(&on)
        .contains(r#"class="edge taken possible proposal" data-edge="WORKING-PAUSED""#));
}

/// The number after `name="` in `tag`.
fn attr(tag: &str, name: &str) -> i32 {
    let at = tag.find(&format!(" {name}=\"")).expect(name) + name.len() + 3;
    let end = tag[at..].find('"').unwrap();
    tag[at..at + end].parse().unwrap()
}

#[test]
fn every_state_box_fits_the_diagram_and_holds_its_label_apart_from_the_others() {
    let svg = diagram_svg(&exp(proposal()));
    let view = &svg[svg.find("viewBox=\"").unwrap() + 9..];
    let dims: Vec<i32> = view[..view.find('"').unwrap()]
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    let (w, h) = (dims[2], dims[3]);
    let boxes: Vec<(i32, i32, i32, i32, &str)> = svg
        .split("<g class=\"node")
        .skip(1)
        .map(|g| {
            let rect = &g[g.find("<rect").unwrap()..];
            let text = &g[g.find("<text").unwrap()..g.find("</text>").unwrap()];
            let (x, y) = (attr(rect, "x"), attr(rect, "y"));
            // The label's lines read as the state's exact name, and PAUSED's
            // says it is the proposal's.
            let name = &g[g.find("data-state=\"TASK_STATE_").unwrap() + 23..];
            let name = &name[..name.find('"').unwrap()];
            let joined: String = text
                .split('>')
                .filter_map(|part| part.split('<').next())
                .collect();
            let proposal = if name == "PAUSED" { "proposal" } else { "" };
            assert_eq!(joined, format!("{name}{proposal}"));
            (
                x,
                y,
                x + attr(rect, "width"),
                y + attr(rect, "height"),
                text,
            )
        })
        .collect();
    assert_eq!(boxes.len(), 9);
    for (i, &(x1, y1, x2, y2, text)) in boxes.iter().enumerate() {
        assert!(
            x1 >= 0 && y1 >= 0 && x2 <= w && y2 <= h,
            "{text} leaves the diagram"
        );
        // At most 9 monospace characters a line: narrow boxes, legible text.
        let lines: Vec<&str> = text
            .split('>')
            .filter_map(|part| part.split('<').next())
            .filter(|t| !t.is_empty())
            .collect();
        assert!(lines.iter().all(|l| l.len() <= 9), "{lines:?}");
        assert!((x2 - x1) as usize >= 8 * lines.iter().map(|l| l.len()).max().unwrap());
        for &(a1, b1, a2, b2, other) in &boxes[i + 1..] {
            let apart = x2 + 8 <= a1 || a2 + 8 <= x1 || y2 + 8 <= b1 || b2 + 8 <= y1;
            assert!(apart, "{text} and {other} are less than 8 units apart");
        }
    }
}

/// A line of the diagram: the two states it joins and its points.
type DrawnLine = (String, String, Vec<(f32, f32)>);

/// The drawn lines of a diagram drawing, each with the two states it joins (short
/// names), as polylines: every edge's quadratic curve sampled, and the
/// forbidden pair's straight line.
fn drawn_lines(svg: &str) -> Vec<DrawnLine> {
    let nums = |d: &str| -> Vec<f32> {
        d.split(|c: char| !(c.is_ascii_digit() || c == '-'))
            .filter(|n| !n.is_empty())
            .map(|n| n.parse().unwrap())
            .collect()
    };
    let mut lines = Vec::new();
    for part in svg.split("<path class=\"edge").skip(1) {
        let edge = &part[part.find("data-edge=\"").unwrap() + 11..];
        let (from, to) = edge[..edge.find('"').unwrap()].split_once('-').unwrap();
        let d = &part[part.find(" d=\"").unwrap() + 4..];
        let n = nums(&d[..d.find('"').unwrap()]);
        assert_eq!(n.len(), 6, "M x y Q cx cy x y: {d}");
        let at = |t: f32| {
            let u = 1.0 - t;
            (
                u * u * n[0] + 2.0 * u * t * n[2] + t * t * n[4],
                u * u * n[1] + 2.0 * u * t * n[3] + t * t * n[5],
            )
        };
        let points = (0..=120).map(|i| at(i as f32 / 120.0)).collect();
        lines.push((from.to_string(), to.to_string(), points));
    }
    if let Some(g) = svg.split("data-edge=\"forbidden\"").nth(1) {
        let d = &g[g.find(" d=\"").unwrap() + 4..];
        let n = nums(&d[..d.find('"').unwrap()]);
        let points = (0..=40)
            .map(|i| {
                let t = i as f32 / 40.0;
                (n[0] + t * (n[2] - n[0]), n[1] + t * (n[3] - n[1]))
            })
            .collect();
        lines.push(("INPUT_REQUIRED".into(), "PAUSED".into(), points));
    }
    lines
}

#[test]
fn no_two_lines_of_the_diagram_cross_and_none_runs_through_a_box() {
    fn crosses(p: (f32, f32), q: (f32, f32), r: (f32, f32), s: (f32, f32)) -> bool {
        let side = |a: (f32, f32), b: (f32, f32), c: (f32, f32)| {
            (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
        };
        side(p, q, r) * side(p, q, s) < 0.0 && side(r, s, p) * side(r, s, q) < 0.0
    }
    for config in [cfg(), proposal()] {
        let svg = diagram_svg(&exp(config));
        let lines = drawn_lines(&svg);
        assert_eq!(lines.len(), if config.pause_proposal { 18 } else { 13 });
        let boxes: Vec<(String, [f32; 4])> = svg
            .split("<g class=\"node")
            .skip(1)
            .map(|g| {
                let name = &g[g.find("data-state=\"TASK_STATE_").unwrap() + 23..];
                let rect = &g[g.find("<rect").unwrap()..];
                let (x, y) = (attr(rect, "x") as f32, attr(rect, "y") as f32);
                let (w, h) = (attr(rect, "width") as f32, attr(rect, "height") as f32);
                (
                    name[..name.find('"').unwrap()].to_string(),
                    [x, y, x + w, y + h],
                )
            })
            .collect();
        let box_of = |state: &str| boxes.iter().find(|(s, _)| s == state).unwrap().1;
        // Whether a point lies within `margin` units of a box.
        let near = |(x, y): (f32, f32), [x1, y1, x2, y2]: [f32; 4], margin: f32| {
            x > x1 - margin && x < x2 + margin && y > y1 - margin && y < y2 + margin
        };
        for (i, (a, b, one)) in lines.iter().enumerate() {
            // A line keeps 3 units clear of every box but its own two.
            for (state, bounds) in &boxes {
                if state == a || state == b {
                    continue;
                }
                let inside = one.iter().any(|&p| near(p, *bounds, 3.0));
                assert!(!inside, "{a} → {b} runs through {state}");
            }
            for (c, d, other) in &lines[i + 1..] {
                // Two lines of one state meet at its box: away from it
                // (12 units), they cross nowhere either.
                let shared: Vec<[f32; 4]> = [a, b]
                    .into_iter()
                    .filter(|s| *s == c || *s == d)
                    .map(|s| box_of(s))
                    .collect();
                let away = |p: &(f32, f32)| !shared.iter().any(|&bx| near(*p, bx, 12.0));
                let (one, other): (Vec<_>, Vec<_>) = (
                    one.iter().copied().filter(away).collect(),
                    other.iter().copied().filter(away).collect(),
                );
                let cross = one
                    .windows(2)
                    .any(|p| other.windows(2).any(|q| crosses(p[0], p[1], q[0], q[1])));
                assert!(!cross, "{a} → {b} crosses {c} → {d}");
            }
        }
    }
}

#[test]
fn the_time_bar_drawing_holds_every_segment_and_the_cursor() {
    let mut e = exp(Config {
        work_units: 2,
        seconds_per_unit: 2,
        input_gate: 2,
        ..cfg()
    });
    run(&mut e, 100);
    let svg = timebar_svg(&TimeBar::of(&e));
    assert_eq!(svg.matches("<rect").count(), 3);
    assert!(svg.contains(r#"class="wait input""#));
    assert!(svg.contains(r#"class="planned""#));
    assert!(svg.contains(r#"class="cursor" data-x="3""#));
    // Positions are percentages of the width (3 of 7 units = 42.8%).
    assert!(svg.contains(r#"x1="42.8%""#), "{svg}");
    // Waiting, the cursor sits on the gap's label and leaves room for it.
    assert!(svg.contains(r#">input</text>"#), "{svg}");
    assert!(
        svg.contains(r#"y2="40" stroke-dasharray="14 15 40"/>"#),
        "{svg}"
    );
    assert!(
        !svg.contains("ahead"),
        "at the newest state nothing is ahead"
    );
    // Viewing the start: everything recorded after it is drawn faded, the
    // plan (never recorded) is not.
    e.seek(0).unwrap();
    let svg = timebar_svg(&TimeBar::of(&e));
    assert_eq!(svg.matches(" ahead\"").count(), 2, "{svg}");
    assert!(svg.contains(r#"class="planned""#));
    // Their labels are marked too, to be drawn legibly on the pale shade.
    assert!(svg.contains(r#"y="25" class="ahead">1</text>"#), "{svg}");
    assert!(
        svg.contains(r#"y="25" class="ahead">input</text>"#),
        "{svg}"
    );
    assert!(
        !svg.contains("stroke-dasharray"),
        "a cursor before the wait crosses no label"
    );
    // Inside a unit: its worked part is plain, the rest of it faded.
    e.seek(2).unwrap();
    let svg = timebar_svg(&TimeBar::of(&e));
    assert!(svg.contains(r#"class="work odd" x="0.0%""#), "{svg}");
    assert!(svg.contains(r#"class="work odd ahead""#), "{svg}");
    assert!(svg.contains(r#"class="wait input ahead""#), "{svg}");
    // The unit's label sits on its worked part (1 s of 7 = 14.2%), plain.
    assert!(svg.contains(r#"<text x="7.1%" y="25">1</text>"#), "{svg}");
}

#[test]
fn a_time_bar_label_too_long_for_a_phone_is_kept_for_a_wider_bar() {
    // Twelve 1 s units beside two waits: a one-digit label fits a 320 px
    // bar, "10" to "12" need a wider one and are marked `wide`.
    let mut e = exp(Config {
        work_units: 12,
        seconds_per_unit: 1,
        input_gate: 4,
        auth_gate: 8,
        ..cfg()
    });
    for _ in 0..4 {
        run(&mut e, 100);
        let _ = e.apply(Action::SupplyClarification("go".into()));
        let _ = e.apply(Action::Authorize);
    }
    assert_eq!(e.snapshot().state, TaskState::Completed);
    let svg = timebar_svg(&TimeBar::of(&e));
    let label = |l: &str| {
        let end = svg
            .find(&format!(">{l}</text>"))
            .unwrap_or_else(|| panic!("{l}: {svg}"));
        let start = svg[..end].rfind("<text").unwrap();
        svg[start..end].contains("class=\"wide\"")
    };
    for unit in 1..=9 {
        assert!(!label(&unit.to_string()), "unit {unit} fits a phone: {svg}");
    }
    for unit in 10..=12 {
        assert!(
            label(&unit.to_string()),
            "unit {unit} needs a wider bar: {svg}"
        );
    }
}

#[test]
fn time_bar_plan_shows_the_self_park_and_authorization_until_reached() {
    let mut e = exp(Config {
        work_units: 3,
        seconds_per_unit: 2,
        auth_gate: 3,
        pause_proposal: true,
        self_park_before: 2,
        ..cfg()
    });
    let kinds = |e: &Experiment| -> Vec<(u32, Ahead)> {
        TimeBar::of(e)
            .ahead
            .iter()
            .filter(|m| !matches!(m.what, Ahead::Unit(_)))
            .map(|m| (m.x, m.what))
            .collect()
    };
    assert_eq!(kinds(&e), [(2, Ahead::SelfPark), (4, Ahead::Auth)]);
    run(&mut e, 100);
    assert_eq!(state(&e), Paused, "the agent self-parked before unit 2");
    // Parked now: only the authorization gate is ahead, after the gap.
    let ahead = kinds(&e);
    assert_eq!(ahead.len(), 1);
    assert_eq!(ahead[0].1, Ahead::Auth);
    // Without the proposal, no self-park is planned.
    let off = exp(Config {
        self_park_before: 2,
        ..cfg()
    });
    assert!(kinds(&off).is_empty());
}

#[test]
fn time_bar_plan_is_what_the_agent_would_meet_and_nothing_past_its_end() {
    let events = |c: Config| -> Vec<(u32, Ahead)> {
        TimeBar::of(&exp(c))
            .ahead
            .iter()
            .filter(|m| !matches!(m.what, Ahead::Unit(_)))
            .map(|m| (m.x, m.what))
            .collect()
    };
    // A gate after the failure is never reached.
    let c = Config {
        work_units: 3,
        seconds_per_unit: 2,
        fail_during: 2,
        input_gate: 3,
        ..cfg()
    };
    assert_eq!(events(c), [(3, Ahead::Failure)]);
    // One-second units: the failure in unit 3 comes before the gates of unit 4.
    let c = Config {
        work_units: 4,
        seconds_per_unit: 1,
        fail_during: 3,
        input_gate: 4,
        auth_gate: 4,
        ..cfg()
    };
    assert_eq!(events(c), [(3, Ahead::Failure)]);
    // Rejected at the first Step: only the rejection is ahead, and the
    // whole plan is never reached.
    let c = Config {
        reject_before_execution: true,
        input_gate: 2,
        ..cfg()
    };
    let bar = TimeBar::of(&exp(c));
    assert_eq!(
        bar.ahead,
        [PlanMark {
            x: 0,
            what: Ahead::Rejection
        }]
    );
    assert_eq!(
        bar.segments,
        [seg(0, 12, Span::Planned { abandoned: true })]
    );
    assert!(timebar_svg(&bar).contains(">reject</text>"));
    // A pending pause (proposal) is on the plan where it will take effect.
    let mut e = exp(proposal());
    run(&mut e, 2); // 1 s into unit 1 of 3 s
    e.apply(pause(PauseMode::FinishStep)).unwrap();
    let bar = TimeBar::of(&e);
    let pause_at = bar.ahead.iter().find(|m| m.what == Ahead::Pause).unwrap().x;
    while state(&e) != Paused {
        e.apply(Action::Step).unwrap();
    }
    let gap = TimeBar::of(&e)
        .segments
        .into_iter()
        .find(|g| matches!(g.span, Span::Wait { .. }))
        .unwrap();
    assert_eq!(gap.x, pause_at, "it pauses where the plan said");
}

#[test]
fn possible_now_names_only_the_causes_that_could_act_from_here() {
    let mut e = exp(Config {
        work_units: 3,
        seconds_per_unit: 2,
        self_park_before: 2,
        resume_event: EventName::new("pr.merged").unwrap(),
        ..proposal()
    });
    let causes = |e: &Experiment, edge| -> Vec<&'static str> {
        e.possible_moves()
            .into_iter()
            .find(|m| m.edge == edge)
            .map_or_else(Vec::new, |m| m.causes)
    };
    // Unit 1 under way: only the client can pause it.
    e.apply(Action::Step).unwrap();
    assert_eq!(causes(&e, (Working, Paused)), ["PauseTask"]);
    // Unit 1 done: the next Step self-parks, or the client pauses first.
    e.apply(Action::Step).unwrap();
    assert_eq!(
        causes(&e, (Working, Paused)),
        ["agent self-parks", "PauseTask"]
    );
    assert!(
        possible_summary(&e).contains("WORKING → PAUSED (agent self-parks or PauseTask; proposal)")
    );
    // Parked: a resume or the event wakes it.
    e.apply(Action::Step).unwrap();
    assert_eq!(state(&e), Paused);
    assert_eq!(causes(&e, (Paused, Working)), ["ResumeTask", "its event"]);
    // Woken: the agent parks once per task, so only PauseTask is left.
    e.apply(Action::FireEvent("pr.merged".into())).unwrap();
    assert_eq!(state(&e), Working);
    assert_eq!(causes(&e, (Working, Paused)), ["PauseTask"]);
    // A pending pause takes effect with the unit's last second; another
    // PauseTask would change nothing.
    e.apply(Action::Step).unwrap();
    e.apply(pause(PauseMode::FinishStep)).unwrap();
    assert_eq!(
        causes(&e, (Working, Paused)),
        ["the pending pause takes effect"]
    );
    // A pause that waits for completion is still pending when the agent
    // self-parks before unit 2: the Step's cause is the self-park.
    let mut e = exp(Config {
        work_units: 3,
        seconds_per_unit: 2,
        self_park_before: 2,
        ..proposal()
    });
    e.apply(Action::Step).unwrap();
    e.apply(pause(PauseMode::WaitForCompletion)).unwrap();
    e.apply(Action::Step).unwrap();
    assert!(e.snapshot().pending.is_some());
    assert_eq!(causes(&e, (Working, Paused)), ["agent self-parks"]);
    e.apply(Action::Step).unwrap();
    assert_eq!(
        e.trace().last().unwrap().event,
        Event::SelfParked { unit: 2 }
    );
}

#[test]
fn a_waiting_time_reads_in_minutes_and_hours_as_the_time_bar_counts_it() {
    for (seconds, words) in [
        (0, "0 min"),
        (60, "1 min"),
        (300, "5 min"),
        (3600, "1 h"),
        (37_200, "10 h 20 min"),
        (90, "1 min 30 s"),
    ] {
        assert_eq!(waiting_words(seconds), words, "{seconds} s");
    }
}
