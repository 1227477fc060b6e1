//! The state diagram's and time bar's model: which edges exist, which the
//! viewed task took, which one action could take now, and where each
//! recorded state sits on the time bar.

mod common;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use a2a_control_room::model::*;
use a2a_control_room::ui::{diagram_svg, possible_summary, timebar_svg};
use common::*;
use TaskState::*;

#[test]
fn every_edge_joins_two_states_and_proposal_edges_touch_paused() {
    for e in TRANSITIONS {
        assert_ne!(e.from, e.to);
        assert!(!e.from.is_terminal(), "{:?} leaves a terminal state", e);
        assert_eq!(e.proposal, e.from == Paused || e.to == Paused, "{e:?}");
    }
    let (a, b) = FORBIDDEN;
    assert!(Transition::between(a, b).is_none() && Transition::between(b, a).is_none());
    // Every v1.0 non-terminal state can be canceled.
    for s in TaskState::ALL.into_iter().filter(|s| !s.is_terminal()) {
        assert!(Transition::between(s, Canceled).is_some(), "{s:?}");
    }
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
    e.apply(Action::PauseTask {
        mode: PauseMode::InterruptImmediate,
        reason: String::new(),
    })
    .unwrap();
    let token = e.resume_token().unwrap().to_string();
    e.apply(Action::ResumeTask {
        token,
        input: None,
        continue_transcript: false,
    })
    .unwrap();
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
    e.apply(Action::Step).unwrap();
    e.apply(Action::Step).unwrap();
    let now = e.possible_transitions();
    assert!(now.contains(&(Working, Paused)) && now.contains(&(Working, Canceled)));
    e.apply(Action::PauseTask {
        mode: PauseMode::InterruptImmediate,
        reason: String::new(),
    })
    .unwrap();
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
fn time_bar_lays_out_work_waits_and_marks() {
    let mut e = exp(Config {
        work_units: 3,
        seconds_per_unit: 2,
        input_gate: 2,
        fail_during: 3,
        ..cfg()
    });
    run(&mut e, 100);
    assert_eq!(state(&e), InputRequired);
    let bar = TimeBar::of(&e);
    // Unit 1 worked (2 s), an open input gap, then 4 s still planned.
    assert_eq!(
        bar.segments,
        vec![
            Segment {
                x: 0,
                w: 2,
                span: Span::Work {
                    unit: 1,
                    lost: false
                }
            },
            Segment {
                x: 2,
                w: GAP_UNITS,
                span: Span::Wait {
                    state: InputRequired,
                    minutes: 0
                }
            },
            Segment {
                x: 2 + GAP_UNITS,
                w: 4,
                span: Span::Planned
            },
        ]
    );
    assert_eq!(bar.cursor, 2);
    e.apply(Action::SupplyClarification("eu".into())).unwrap();
    run(&mut e, 100);
    assert_eq!(state(&e), Failed);
    let bar = TimeBar::of(&e);
    let g = GAP_UNITS;
    assert_eq!(
        bar.segments,
        vec![
            Segment {
                x: 0,
                w: 2,
                span: Span::Work {
                    unit: 1,
                    lost: false
                }
            },
            Segment {
                x: 2,
                w: g,
                span: Span::Wait {
                    state: InputRequired,
                    minutes: 0
                }
            },
            Segment {
                x: 2 + g,
                w: 2,
                span: Span::Work {
                    unit: 2,
                    lost: false
                }
            },
            Segment {
                x: 4 + g,
                w: 1,
                span: Span::Work {
                    unit: 3,
                    lost: false
                }
            },
        ]
    );
    assert_eq!(
        bar.marks,
        vec![Mark {
            x: 5 + g,
            state: Failed
        }]
    );
    assert_eq!(bar.width, 5 + g);
    assert_eq!(bar.cursor, 5 + g);
    // Every recorded state has a place, never going backwards.
    assert_eq!(bar.record_x.len(), e.viewed_task().records().len());
    assert!(bar.record_x.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn time_bar_clicks_seek_to_the_moment_under_the_pointer() {
    let mut e = exp(Config {
        work_units: 2,
        seconds_per_unit: 2,
        ..cfg()
    });
    run(&mut e, 100);
    let bar = TimeBar::of(&e);
    // Records: created (0), started (0), 1 s, 2 s, 3 s, 4 s (completed).
    assert_eq!(bar.record_x, vec![0, 0, 1, 2, 3, 4]);
    assert_eq!(bar.record_at(0), 1, "the last state reached at x = 0");
    assert_eq!(bar.record_at(2), 3);
    assert_eq!(bar.record_at(99), 5);
    e.seek(bar.record_at(2)).unwrap();
    let bar = TimeBar::of(&e);
    assert_eq!(bar.cursor, 2, "the cursor follows the seek");
    // The later branch stays on the bar until something discards it.
    assert_eq!(bar.width, 4);
}

#[test]
fn time_bar_draws_pauses_with_their_minutes_and_lost_work() {
    let mut e = exp(Config {
        work_units: 2,
        seconds_per_unit: 3,
        ..proposal()
    });
    for _ in 0..3 {
        e.apply(Action::Step).unwrap(); // start + 1 s, 2 s, 3 s? (start is zero-time)
    }
    e.apply(Action::Step).unwrap();
    // 1 unit done and 1 s into unit 2: pause now, losing that second.
    assert_eq!(e.snapshot().active_s, 4);
    e.apply(Action::PauseTask {
        mode: PauseMode::InterruptImmediate,
        reason: String::new(),
    })
    .unwrap();
    e.apply(Action::Step).unwrap();
    e.apply(Action::Step).unwrap();
    let token = e.resume_token().unwrap().to_string();
    e.apply(Action::ResumeTask {
        token,
        input: None,
        continue_transcript: false,
    })
    .unwrap();
    let bar = TimeBar::of(&e);
    let g = GAP_UNITS;
    assert_eq!(
        bar.segments,
        vec![
            Segment {
                x: 0,
                w: 3,
                span: Span::Work {
                    unit: 1,
                    lost: false
                }
            },
            Segment {
                x: 3,
                w: 1,
                span: Span::Work {
                    unit: 2,
                    lost: true
                }
            },
            Segment {
                x: 4,
                w: g,
                span: Span::Wait {
                    state: Paused,
                    minutes: 2
                }
            },
            Segment {
                x: 4 + g,
                w: 3,
                span: Span::Planned
            },
        ]
    );
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
    assert!(
        !svg.contains("PAUSED"),
        "no proposal state while the proposal is off"
    );
    assert_eq!(svg.matches("<g class=\"node").count(), 8);
    assert!(possible_summary(&e).contains("INPUT_REQUIRED → CANCELED (cancel accepted)"));

    let on = exp(proposal());
    let svg = diagram_svg(&on);
    assert_eq!(svg.matches("<g class=\"node").count(), 9);
    assert!(svg.contains(r#"class="node paused proposal" data-state="TASK_STATE_PAUSED""#));
    assert!(svg.contains(r#"data-edge="forbidden""#));
    assert!(svg.contains("never adjacent (proposal)"));
    assert!(svg.contains(r#"class="edge possible proposal" data-edge="SUBMITTED-PAUSED""#));
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
    assert!(svg.contains(r#"class="cursor" data-x="2""#));
    // Positions are percentages of the width (2 of 7 units = 28.5%).
    assert!(svg.contains(r#"x1="28.5%""#), "{svg}");
}
