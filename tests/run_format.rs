//! The run format behind share links, the saved checkpoint and run files:
//! exact replay, a specific error for each kind of bad input, and a fuzz
//! run of the decoder that must never panic.

mod common;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use a2a_control_room::model::*;
use common::*;

/// Applies `ops` to a fresh experiment and records them, as the page does.
fn recorded(config: Config, ops: &[ScriptOp]) -> (Experiment, SavedRun) {
    let ids = IdSource::seeded(SEED);
    let mut run = SavedRun::new(config, ids.clone(), 1_767_225_600_000);
    let mut e = Experiment::new(config, ids).unwrap();
    for op in ops {
        match op {
            ScriptOp::Act { action, .. } => {
                let ok = e.apply(action.clone()).is_ok();
                run.push(ScriptOp::Act {
                    action: action.clone(),
                    ok,
                });
            }
            ScriptOp::Seek(p) => {
                e.seek(*p as usize).unwrap();
                run.push(op.clone());
            }
            ScriptOp::View(t) => {
                e.view_task(*t as usize).unwrap();
                run.push(op.clone());
            }
            ScriptOp::Steps(_) => unreachable!("tests script single actions"),
        }
    }
    (e, run)
}

fn act(a: Action) -> ScriptOp {
    ScriptOp::Act {
        action: a,
        ok: true,
    }
}

fn sample() -> (Experiment, SavedRun) {
    let mut ops = vec![act(Action::Step); 4];
    ops.push(act(Action::Authorize)); // refused: not AUTH_REQUIRED
    ops.push(act(Action::SupplyClarification(
        "<b>bold</b> & \"quoted\"".into(),
    )));
    ops.extend(vec![act(Action::Step); 12]);
    ops.push(act(Action::FollowUp));
    ops.push(ScriptOp::View(0));
    ops.push(ScriptOp::Seek(3));
    let config = Config {
        input_gate: 2,
        ..cfg()
    };
    recorded(config, &ops)
}

#[test]
fn a_saved_run_replays_to_the_identical_experiment() {
    let (e, run) = sample();
    let text = run.to_json();
    let back = SavedRun::parse(&text).unwrap();
    assert_eq!(back, run);
    let replayed = back.replay().unwrap();
    assert_eq!(replayed, e, "same ids, recorded states, trace and position");
    assert_eq!(replayed.position(), 3);
    assert_eq!(replayed.viewed_task_index(), 0);
    assert!(
        run.script.contains(&ScriptOp::Steps(4)),
        "consecutive Steps fold together: {:?}",
        run.script
    );
    assert!(
        text.contains("<b>bold</b>"),
        "markup stays plain text in the data"
    );
}

#[test]
fn each_kind_of_bad_input_has_its_own_message() {
    let (_, run) = sample();
    let good = run.to_json();
    let cases: Vec<(String, &str)> = vec![
        ("x".repeat(MAX_RUN_BYTES + 1), "bytes long"),
        ("   ".into(), "empty"),
        (good[..good.len() / 2].to_string(), "not a valid run"),
        ("{\"hello\": 1}".into(), "not an a2a-control-room/run file"),
        (
            good.replace("\"version\":1", "\"version\":2"),
            "format version 2",
        ),
        (
            good.replace("\"work_units\":4", "\"work_units\":40"),
            "Work units must be between 1 and 12",
        ),
        (
            good.replace("\"work_units\":4", "\"work_units\":4000"),
            "not a valid run",
        ),
        (
            good.replace("\"Seek\":3", "\"Seek\":99"),
            "no recorded state 100",
        ),
        (
            good.replacen("\"ok\":false", "\"ok\":true", 1),
            "asks for Authorize",
        ),
        (
            good.replace("\"script\":[", "\"script\":[{\"Steps\":4000000000},"),
            "more than 1000000 Steps",
        ),
        (good.replace("}", ",\"extra\":1}"), "not a valid run"),
    ];
    for (input, expected) in cases {
        let err = SavedRun::parse(&input)
            .and_then(|r| r.replay())
            .expect_err(expected);
        assert!(
            err.to_string().contains(expected),
            "{expected:?} not in {err}"
        );
        // The page ends the sentence: the reason carries no full stop of its own.
        assert!(!err.to_string().ends_with('.'), "{err}");
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod fuzz {
    use super::*;
    use proptest::prelude::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    static RAN: AtomicUsize = AtomicUsize::new(0);

    fn cases() -> u32 {
        std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(10_000)
    }

    /// A valid run's text with random bytes overwritten, cut or repeated.
    fn mutated() -> impl Strategy<Value = String> {
        let (_, run) = sample();
        let text = run.to_json();
        (
            0..text.len(),
            prop::collection::vec(any::<u8>(), 0..8),
            0..3u8,
        )
            .prop_map(move |(at, bytes, how)| {
                let mut b = text.clone().into_bytes();
                match how {
                    0 => b.truncate(at),
                    1 => {
                        for (i, x) in bytes.iter().enumerate() {
                            if let Some(slot) = b.get_mut(at + i) {
                                *slot = *x;
                            }
                        }
                    }
                    _ => b.splice(at..at, bytes.iter().copied()).for_each(drop),
                }
                String::from_utf8_lossy(&b).into_owned()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases()))]

        /// The decoder and the replay never panic, whatever they are handed.
        #[test]
        fn decoding_never_panics(text in prop_oneof![mutated(), ".{0,300}", "[\\[\\]{}\":,0-9a-zA-Z_ ]{0,200}"]) {
            RAN.fetch_add(1, Ordering::Relaxed);
            if let Ok(run) = SavedRun::parse(&text) {
                let _ = run.replay();
            }
        }
    }

    #[test]
    fn fuzz_report() {
        decoding_never_panics();
        println!(
            "run decoder fuzz: {} inputs, 0 crashes",
            RAN.load(Ordering::Relaxed)
        );
    }
}
