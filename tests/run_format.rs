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

/// Does `ops` on a fresh experiment, and the run it keeps of them.
fn recorded(config: Config, ops: &[ScriptOp]) -> (Experiment, SavedRun) {
    let mut e = Experiment::new(config, IdSource::seeded(SEED)).unwrap();
    for op in ops {
        match op {
            ScriptOp::Act { action, .. } => {
                let _ = e.apply(action.clone());
            }
            ScriptOp::Seek(p) => e.seek(*p as usize).unwrap(),
            ScriptOp::View(t) => e.view_task(*t as usize).unwrap(),
            ScriptOp::Steps(_) => unreachable!("tests script single actions"),
        }
    }
    let run = e.saved_run(1_767_225_600_000);
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
fn words_a_branch_discarded_are_not_kept_in_the_run_but_words_still_on_the_wire_are() {
    let config = Config {
        input_gate: 2,
        ..cfg()
    };
    let mut ops = vec![act(Action::Step); 4];
    // At INPUT_REQUIRED: an answer that a branch from an earlier state will
    // discard, with the states it made.
    ops.push(act(Action::SupplyClarification("SECRET plan B".into())));
    ops.extend(vec![act(Action::Step); 3]);
    // Back to the question, where a refused clarification (too long) stays
    // on the wire, then the branch: another answer.
    ops.push(ScriptOp::Seek(5));
    ops.push(act(Action::SupplyClarification(format!(
        "KEPT {}",
        "y".repeat(500)
    ))));
    ops.push(act(Action::SupplyClarification("the answer".into())));
    let (e, run) = recorded(config, &ops);
    let text = run.to_json();
    assert!(
        !text.contains("SECRET"),
        "the discarded answer is in the run: {text}"
    );
    assert!(text.contains("KEPT"), "a refusal whose entry stays: {text}");
    // Masked letter for letter, its op still replays to the same experiment:
    // the same entry numbers and ids, the discarded answer nowhere in it.
    assert!(text.contains("xxxxxx xxxx x"), "{text}");
    let back = SavedRun::parse(&text).unwrap().replay().unwrap();
    assert_eq!(back, e);
    let wire = a2a_control_room::wire::to_jsonl(&a2a_control_room::wire::transcript(
        &e,
        1_767_225_600_000,
    ));
    assert!(!wire.contains("SECRET"), "{wire}");
    assert!(wire.contains("the answer"), "{wire}");
}

#[test]
fn a_discarded_pause_reason_resume_input_and_event_name_are_not_kept_in_the_run() {
    let config = Config {
        resume_event: EventName::new("pr.merged").unwrap(),
        ..proposal()
    };
    let mut e = Experiment::new(config, IdSource::seeded(SEED)).unwrap();
    e.apply(Action::Step).unwrap();
    e.apply(Action::Step).unwrap();
    let before_pause = e.position();
    e.apply(Action::PauseTask {
        mode: PauseMode::InterruptImmediate,
        // Words in invisible tag characters too.
        reason: "SECRET reason \u{E0053}\u{E0045}".into(),
    })
    .unwrap();
    assert_eq!(e.snapshot().state, TaskState::Paused);
    let t = token(&e);
    e.apply(Action::ResumeTask {
        token: t,
        input: Some("SECRET input".into()),
        continue_transcript: true,
    })
    .unwrap();
    // No task waits for it: traced, nothing changes; then one too long.
    assert!(matches!(
        e.apply(Action::FireEvent("SECRET-event".into())),
        Ok(Applied::Unchanged(_))
    ));
    assert!(e.apply(Action::FireEvent("SECRET".repeat(20))).is_err());
    e.seek(before_pause).unwrap();
    assert!(matches!(
        e.apply(Action::Step),
        Ok(Applied::Recorded { discarded, .. }) if discarded > 0
    ));
    let text = e.saved_run(1_767_225_600_000).to_json();
    for word in ["SECRET", "\\udb40", "\u{E0053}"] {
        assert!(!text.contains(word), "{word:?} is in the run: {text}");
    }
    let back = SavedRun::parse(&text).unwrap().replay().unwrap();
    assert_eq!(back, e);
}

#[test]
fn a_run_streamed_unit_by_unit_says_so_and_one_without_the_key_streams_at_completion() {
    let ops = vec![act(Action::Step); 8];
    let on = Config {
        artifact_per_unit: true,
        ..cfg()
    };
    let (made, run) = recorded(on, &ops);
    assert_eq!(made.viewed_artifact().unwrap().parts.len(), 2);
    let text = run.to_json();
    assert!(text.contains("\"artifact_per_unit\":true"), "{text}");
    let opened = SavedRun::parse(&text).unwrap();
    assert_eq!(opened.replay().unwrap(), made);
    // Off, the key is not written (runs made before it existed read the
    // same), and a run without it streams at completion only.
    let (made, run) = recorded(cfg(), &ops);
    let text = run.to_json();
    assert!(!text.contains("artifact_per_unit"), "{text}");
    let opened = SavedRun::parse(&text).unwrap();
    assert!(!opened.config.artifact_per_unit);
    assert_eq!(opened.replay().unwrap(), made);
    assert!(made.viewed_artifact().is_none());
}

#[test]
fn a_run_file_from_before_follow_ups_could_succeed_replays_as_it_was_made() {
    // Written before `follow_ups_fail_too` existed, when every task of a
    // context failed as the first one did: it opens with the switch on.
    let mut ops = vec![act(Action::Step); 6];
    ops.push(act(Action::FollowUp));
    ops.extend(vec![act(Action::Step); 20]);
    let config = Config {
        fail_during: 1,
        follow_ups_fail_too: true,
        ..cfg()
    };
    let (made, run) = recorded(config, &ops);
    assert_eq!(made.snapshot().state, TaskState::Failed);
    let text = run.to_json();
    let old = text.replace("\"follow_ups_fail_too\":true,", "");
    assert_ne!(old, text, "the field is written");
    let opened = SavedRun::parse(&old).unwrap();
    assert!(opened.config.follow_ups_fail_too);
    assert_eq!(opened.replay().unwrap(), made);
    // A run made now says which it is, and comes back the same.
    let now = Config {
        follow_ups_fail_too: false,
        ..config
    };
    let (made, run) = recorded(now, &ops);
    assert_eq!(
        made.snapshot().state,
        TaskState::Completed,
        "the follow-up ran"
    );
    assert_eq!(
        SavedRun::parse(&run.to_json()).unwrap().replay().unwrap(),
        made
    );
}

#[test]
fn a_run_of_seeks_is_saved_as_the_last_one_and_replays_the_same() {
    let ops = [
        act(Action::Step),
        act(Action::Step),
        act(Action::Step),
        ScriptOp::Seek(0),
        ScriptOp::Seek(2),
        ScriptOp::Seek(1),
        act(Action::Step),
        ScriptOp::Seek(0),
    ];
    let (e, run) = recorded(cfg(), &ops);
    assert_eq!(
        run.script,
        vec![
            ScriptOp::Steps(3),
            ScriptOp::Seek(1),
            ScriptOp::Steps(1),
            ScriptOp::Seek(0)
        ],
        "dragging the slider saves where it ended"
    );
    assert_eq!(run.replay().unwrap(), e);
}

#[test]
fn a_tiny_run_cannot_build_an_endless_trace() {
    // A task parked with no condition steps forever on the waiting clock.
    let config = Config {
        pause_proposal: true,
        self_park_before: 1,
        ..cfg()
    };
    let mut run = SavedRun::new(config, IdSource::seeded(SEED), 0);
    run.script.push(ScriptOp::Steps(1_000_000));
    let text = run.to_json();
    assert!(text.len() < 450, "{} bytes", text.len());
    let err = SavedRun::parse(&text).unwrap().replay().unwrap_err();
    assert!(
        err.to_string().contains(&format!(
            "item 1 of its script builds more than {MAX_TRACE_ENTRIES} trace entries, the most one run keeps"
        )),
        "{err}"
    );
    // Branching over and over rebuilds what it discards: the Steps and
    // actions of the whole script are bounded too.
    let mut run = SavedRun::new(config, IdSource::seeded(SEED), 0);
    for _ in 0..60 {
        run.script.push(ScriptOp::Steps(19_900));
        run.script.push(ScriptOp::Seek(0));
    }
    let err = SavedRun::parse(&run.to_json())
        .unwrap()
        .replay()
        .unwrap_err();
    assert!(
        err.to_string().contains(&format!(
            "takes more than {MAX_APPLIED} Steps and actions, the most one run may"
        )),
        "{err}"
    );
    // The page's own limit: at the newest state of a full run every action
    // is refused, and nothing more is traced.
    let mut e = Experiment::new(config, IdSource::seeded(SEED)).unwrap();
    while e.apply(Action::Step).is_ok() {}
    let full = e.trace().len();
    assert!(
        (MAX_TRACE_ENTRIES..MAX_TRACE_ENTRIES + 4).contains(&full),
        "{full}"
    );
    assert_eq!(e.legality(&Action::Step), Err(Refusal::RunFull));
    assert_eq!(
        e.sends(&Action::RequestCancellation),
        Err(Refusal::RunFull),
        "the page's own refusal: nothing is sent"
    );
    assert_eq!(e.apply(Action::RequestCancellation), Err(Refusal::RunFull));
    assert_eq!(
        e.trace().len(),
        full,
        "a refusal of a full run is not traced"
    );
    // From an earlier state, what neither records nor discards is not traced
    // either: a wrong event, a pause of a paused task.
    e.seek(5).unwrap();
    for a in [
        Action::FireEvent("nope".into()),
        Action::PauseTask {
            mode: PauseMode::FinishStep,
            reason: String::new(),
        },
    ] {
        assert!(matches!(e.apply(a), Ok(Applied::Unchanged(_))));
    }
    assert_eq!(e.trace().len(), full);
    // From an earlier state the run can still branch: the later ones go.
    e.seek(10).unwrap();
    assert!(e.legality(&Action::Step).is_ok());
    e.apply(Action::Step).unwrap();
    assert!(e.trace().len() < 20, "{}", e.trace().len());
}

#[test]
fn every_setting_far_out_of_range_is_named_as_the_settings_name_it() {
    let (_, run) = sample();
    let good: serde_json::Value = serde_json::from_str(&run.to_json()).unwrap();
    for setting in Setting::ALL {
        for value in [256, 100_000, -1] {
            let mut bad = good.clone();
            assert!(bad["config"].get(setting.field()).is_some(), "{setting:?}");
            bad["config"][setting.field()] = value.into();
            assert_eq!(
                SavedRun::parse(&bad.to_string()).unwrap_err(),
                RunError::BadConfig(ConfigError { setting, value }),
                "{setting:?} = {value}"
            );
        }
    }
}

#[test]
fn a_run_of_format_version_1_keeps_the_ids_it_was_shared_with() {
    // A link of version 1 drew its ids from the seed plus a counter; it
    // opens with those ids, and saves as version 1 again.
    let old = SavedRun::new(Config::default(), IdSource::seeded(42), 0)
        .to_json()
        .replace("\"version\":2,", "\"version\":1,");
    let run = SavedRun::parse(&old).expect("a version-1 run opens");
    let mut e = run.replay().expect("it replays");
    assert_eq!(e.context_id(), "bdd73226-2feb-4e95-ba69-ec90eb4fef88");
    // Acted on and saved again, as the page saves it: still version 1, and
    // it opens to the very same experiment, the follow-up's new id too.
    e.apply(Action::RequestCancellation).unwrap();
    e.apply(Action::FollowUp).unwrap();
    let saved = e.saved_run(0);
    assert_eq!(saved.version, 1);
    let again = SavedRun::parse(&saved.to_json()).unwrap().replay().unwrap();
    assert_eq!(again, e);
    // A run of version 1 made in code replays with those ids as well.
    let made = SavedRun {
        version: 1,
        ..SavedRun::new(run.config, IdSource::seeded(42), 0)
    };
    assert_eq!(made.replay().unwrap().context_id(), e.context_id());
    // A new run of the same seed is of the current version, with other ids.
    let new = SavedRun::new(run.config, IdSource::seeded(42), 0);
    assert_eq!(new.version, RUN_VERSION);
    assert_ne!(new.replay().unwrap().context_id(), e.context_id());
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
            good.replace("\"version\":2", "\"version\":3"),
            "format version 3; this page reads versions 1 to 2",
        ),
        (
            good.replace("\"version\":2", "\"version\":\"2\""),
            "its version is \"2\", not an integer such as 2",
        ),
        (
            good.replace("\"version\":2", "\"version\":1.5"),
            "its version is 1.5, not an integer such as 2",
        ),
        (
            good.replace("\"work_units\":4", "\"work_units\":40"),
            "Work units must be between 1 and 12",
        ),
        (
            good.replace("\"work_units\":4", "\"work_units\":4000"),
            "its settings are invalid: Work units must be between 1 and 12 (got 4000)",
        ),
        (
            good.replace("\"self_park_timeout\":0", "\"self_park_timeout\":-1"),
            "its settings are invalid: Self-park timeout (minutes, proposal) must be between 0 and 60, 0 = off (got -1)",
        ),
        (
            "[".repeat(10_000),
            "it is not a valid run (it nests its values too deeply to be a run, from line 1, column 128)",
        ),
        (
            "not json at all".into(),
            "it is not a valid run (its text is not JSON: it breaks at line 1, column 2)",
        ),
        (
            good.replace("\"work_units\":4", "\"work_units\":\"4\""),
            "(config.work_units: invalid type: string \"4\", expected a whole number from 1 to 12)",
        ),
        (
            good.replace("\"Seek\":3", "\"Seek\":-3"),
            "(script item 10: invalid value: integer `-3`, expected a whole number from 0 to 4294967295)",
        ),
        (
            good.replace("\"drawn\":0", "\"drawn\":1e26"),
            "(ids.drawn: invalid type: number `1e+26`, expected a whole number from 0 to",
        ),
        (
            good.replace("\"Seek\":3", "\"Seek\":99"),
            "of its script ({\"Seek\":99}) goes to no recorded state: this task has 16, {\"Seek\":0} to {\"Seek\":15}",
        ),
        (
            good.replace("\"Seek\":3", "\"View\":5"),
            "of its script ({\"View\":5}) goes to no task: this context has 2, {\"View\":0} to {\"View\":1}",
        ),
        (
            good.replacen("\"ok\":false", "\"ok\":true", 1),
            "asks for Authorize",
        ),
        (
            good.replace("\"script\":[", "\"script\":[{\"Steps\":4000000000},"),
            "cannot step: the task is waiting for clarification",
        ),
        (good.replace("}", ",\"extra\":1}"), "not a valid run"),
        // JSON's words for JSON's shapes, not the decoder's.
        (
            good.replace("\"Seek\":3", "\"Seek\":3,\"View\":0"),
            "(script item 10: an object of no member or several, expected one member, named for what was done (such as {\"Steps\":1}))",
        ),
        (
            good.replacen("\"config\":{", "\"config\":[1,2,3],\"c\":{", 1),
            "(config: a list, expected an object of named members)",
        ),
        (
            good.replacen("\"config\":{", "\"config\":7,\"c\":{", 1),
            "(config: invalid type: integer `7`, expected an object of settings)",
        ),
        (
            "{\"seq\":1,\"from\":\"client\",\"transport\":\"jsonrpc\",\"payloadType\":\"SendMessageRequest\",\"message\":{}}\n{\"seq\":1}".into(),
            "it is a wire transcript (Export transcript), not a run",
        ),
        (
            "{\"seq\":1,\"from\":\"client\",\"transport\":\"jsonrpc\",\"payloadType\":\"SendMessageRequest\",\"message\":{}}\n".into(),
            "it is a wire transcript (Export transcript), not a run",
        ),
        (
            good.replace("\"work_units\":4", "\"work_units\":4,\"speed\":2"),
            "(config.speed: unknown field `speed`",
        ),
        // Which of two values a repeated key meant is not said: refused.
        (
            good.replace("\"work_units\":4", "\"work_units\":4,\"work_units\":5"),
            "it is not a valid run (it gives the key \"work_units\" twice in one object, at line 1, column ",
        ),
        (
            good.replace("\"version\":2", "\"version\":2,\"version\":3"),
            "(it gives the key \"version\" twice in one object",
        ),
        (
            good.replace(
                &format!("\"started_ms\":{}", run.started_ms),
                "\"started_ms\":-5",
            ),
            "start time -5 is not between 0 (1970) and",
        ),
        (
            good.replace(
                &format!("\"started_ms\":{}", run.started_ms),
                "\"started_ms\":9000000000000000000",
            ),
            "the year 3000",
        ),
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

#[test]
fn a_refusal_says_a_long_value_by_its_start_and_length_and_a_huge_number_as_such() {
    let (_, run) = sample();
    let good = run.to_json();
    let long = "A".repeat(400_000);
    let cut = format!("{}…", "A".repeat(40));
    let cases = [
        (
            good.replace("\"work_units\":4", &format!("\"work_units\":\"{long}\"")),
            format!("(config.work_units: invalid type: string \"{cut}\" (400000 characters), expected a whole number from 1 to 12)"),
        ),
        (
            good.replace("\"work_units\":4", &format!("\"work_units\":4,\"{long}\":1")),
            format!("(config.{cut} (400000 characters): unknown field `{cut}` (400000 characters), expected one of `work_units`"),
        ),
        (
            good.replace("\"Seek\":3", &format!("\"{long}\":3")),
            format!("(script item 10: unknown variant `{cut}` (400000 characters), expected one of"),
        ),
        (
            good.replace("\"version\":2", &format!("\"version\":\"{long}\"")),
            format!("its version is \"{cut}\" (400000 characters), not an integer such as 2"),
        ),
        (
            good.replace("\"work_units\":4", "\"work_units\":1e400"),
            "(it holds a number too large to read, at line 1, column".to_string(),
        ),
        (
            good.replace("\"seconds_per_unit\":3", "\"seconds_per_unit\":2.5"),
            "(config.seconds_per_unit: invalid type: number `2.5`, expected a whole number from 1 to 10)".to_string(),
        ),
    ];
    for (input, expected) in cases {
        let err = SavedRun::parse(&input).unwrap_err().to_string();
        assert!(err.contains(&expected), "{expected} not in {err}");
        assert!(
            err.chars().count() < 800,
            "{} characters",
            err.chars().count()
        );
    }
    // A quoted value with its quotes escaped inside is cut as one value.
    let quoted = format!("{}\\\"{}", "B".repeat(30), "C".repeat(60));
    let err =
        SavedRun::parse(&good.replace("\"work_units\":4", &format!("\"work_units\":\"{quoted}\"")))
            .unwrap_err()
            .to_string();
    assert!(
        err.contains(&format!(
            "string \"{}\\\"{}…\" (91 characters), expected",
            "B".repeat(30),
            "C".repeat(8)
        )),
        "{err}"
    );
    // An escaped character counts as one: 60 tabs are shown whole, 61 cut.
    let tabs = |n: usize| {
        let value = format!("\"work_units\":\"{}\"", "\\t".repeat(n));
        SavedRun::parse(&good.replace("\"work_units\":4", &value))
            .unwrap_err()
            .to_string()
    };
    let whole = format!("string \"{}\", expected", "\\t".repeat(60));
    assert!(tabs(60).contains(&whole), "{}", tabs(60));
    let cut = format!("string \"{}…\" (61 characters), expected", "\\t".repeat(20));
    assert!(tabs(61).contains(&cut), "{}", tabs(61));
    // A name with a backtick in it (the decoder does not escape one): its
    // length is still said, and the message stays short.
    let key = format!("\"work_units\":4,\"a`{}\":1", "A".repeat(400_000));
    let err = SavedRun::parse(&good.replace("\"work_units\":4", &key))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&format!("{}… (400000 characters)", "A".repeat(40))),
        "{err}"
    );
    assert!(err.chars().count() < 800, "{err}");
}

#[test]
fn a_run_file_is_read_as_utf8_text_or_refused_saying_where_it_is_not() {
    let (_, run) = sample();
    let good = run.to_json();
    // The bytes of a saved run read exactly as its text does.
    assert_eq!(
        SavedRun::parse_bytes(good.as_bytes()).unwrap(),
        SavedRun::parse(&good).unwrap()
    );
    // As an editor may save it, with a byte order mark first.
    let with_bom = [&b"\xEF\xBB\xBF"[..], good.as_bytes()].concat();
    assert_eq!(
        SavedRun::parse_bytes(&with_bom).unwrap(),
        SavedRun::parse(&good).unwrap()
    );
    // And as text (a link, a stored run) that starts with one.
    assert_eq!(
        SavedRun::parse(&format!("\u{feff}{good}")).unwrap(),
        SavedRun::parse(&good).unwrap()
    );
    // "café" saved in Latin-1 on the second line: byte 0xE9 is not UTF-8.
    let mut latin1 = b"{\"format\":\"a2a-control-room/run\",\n\"note\":\"caf".to_vec();
    let at = latin1.len() + 1;
    latin1.extend_from_slice(b"\xe9\"}");
    let err = SavedRun::parse_bytes(&latin1).unwrap_err();
    assert_eq!(err, RunError::NotUtf8 { byte: at, line: 2 });
    assert_eq!(
        err.to_string(),
        format!(
            "it is not UTF-8 text (byte {at}, on line 2, is not); a run is JSON saved as UTF-8"
        )
    );
    // Where it is not, counted in the file as it is, its mark included.
    let marked = [&b"\xEF\xBB\xBF"[..], &latin1].concat();
    assert_eq!(
        SavedRun::parse_bytes(&marked).unwrap_err(),
        RunError::NotUtf8 {
            byte: at + 3,
            line: 2
        }
    );
    // Size is checked first, whatever the bytes.
    assert_eq!(
        SavedRun::parse_bytes(&vec![0xff; MAX_RUN_BYTES + 1]).unwrap_err(),
        RunError::TooLarge(MAX_RUN_BYTES + 1)
    );
}

#[cfg(not(target_arch = "wasm32"))]
mod fuzz {
    use super::*;
    use proptest::prelude::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    static RAN: AtomicUsize = AtomicUsize::new(0);
    static DECODED: AtomicUsize = AtomicUsize::new(0);
    static REPLAYED: AtomicUsize = AtomicUsize::new(0);

    fn cases() -> u32 {
        std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(10_000)
    }

    /// A valid run's text with random bytes overwritten, cut or inserted
    /// (not necessarily UTF-8 any more, as a file picked by mistake).
    fn mutated() -> impl Strategy<Value = Vec<u8>> {
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
                b
            })
    }

    /// A valid run with one value replaced by another of any JSON type, or
    /// removed: still JSON, so the decoder's checks and the replay see it
    /// (a changed setting, action or count, a missing field).
    fn reshaped() -> impl Strategy<Value = Vec<u8>> {
        let (_, run) = sample();
        let good: serde_json::Value = serde_json::from_str(&run.to_json()).unwrap();
        let mut leaves = Vec::new();
        fn walk(v: &serde_json::Value, at: String, out: &mut Vec<String>) {
            match v {
                serde_json::Value::Object(m) => m
                    .iter()
                    .for_each(|(k, v)| walk(v, format!("{at}/{k}"), out)),
                serde_json::Value::Array(a) => a
                    .iter()
                    .enumerate()
                    .for_each(|(i, v)| walk(v, format!("{at}/{i}"), out)),
                _ => {}
            }
            // The whole run is no value within it.
            if !at.is_empty() {
                out.push(at);
            }
        }
        walk(&good, String::new(), &mut leaves);
        let value = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::from),
            any::<i64>().prop_map(serde_json::Value::from),
            (0u32..300).prop_map(serde_json::Value::from),
            "[a-z_.]{0,12}".prop_map(serde_json::Value::from),
            Just(serde_json::json!([])),
            Just(serde_json::json!({})),
        ];
        (
            prop::sample::select(leaves),
            prop::option::weighted(0.8, value),
        )
            .prop_map(move |(at, value)| {
                let mut v = good.clone();
                match value {
                    Some(value) => match v.pointer_mut(&at) {
                        Some(slot) => *slot = value,
                        None => unreachable!("{at} was walked"),
                    },
                    None => {
                        let (parent, key) = at.rsplit_once('/').unwrap_or(("", ""));
                        match v.pointer_mut(parent) {
                            Some(serde_json::Value::Object(m)) => drop(m.shift_remove(key)),
                            Some(serde_json::Value::Array(a)) => {
                                drop(a.remove(key.parse::<usize>().unwrap()))
                            }
                            _ => v = serde_json::Value::Null,
                        }
                    }
                }
                v.to_string().into_bytes()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases()))]

        /// The decoder (of a file's bytes, as Open run reads them) and the
        /// replay never panic, whatever they are handed; a file is refused
        /// as not UTF-8 exactly when it is not.
        #[test]
        fn decoding_never_panics(bytes in prop_oneof![
            1 => mutated(),
            3 => reshaped(),
            1 => ".{0,300}".prop_map(String::into_bytes),
            1 => "[\\[\\]{}\":,0-9a-zA-Z_ ]{0,200}".prop_map(String::into_bytes),
            1 => prop::collection::vec(any::<u8>(), 0..300),
        ]) {
            RAN.fetch_add(1, Ordering::Relaxed);
            let decoded = SavedRun::parse_bytes(&bytes);
            // Refused as not UTF-8 exactly when it is not (or too long to look at).
            let not_utf8 = matches!(decoded, Err(RunError::NotUtf8 { .. }));
            let too_large = matches!(decoded, Err(RunError::TooLarge(_)));
            prop_assert_eq!(not_utf8, std::str::from_utf8(&bytes).is_err() && !too_large, "{:?}", decoded);
            if let Ok(run) = decoded {
                DECODED.fetch_add(1, Ordering::Relaxed);
                if run.replay().is_ok() {
                    REPLAYED.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    }

    /// Runs the fuzz test again to print how many inputs it tried
    /// (`scripts/bench.sh` runs it; the suite runs the test itself once).
    #[test]
    #[ignore = "a report, run by scripts/bench.sh"]
    fn fuzz_report() {
        decoding_never_panics();
        // The reshaped runs reach the replay: some decode, and some of
        // those replay.
        assert!(REPLAYED.load(Ordering::Relaxed) > 0);
        println!(
            "run decoder fuzz: {} inputs ({} decoded, {} of them replayed), 0 crashes",
            RAN.load(Ordering::Relaxed),
            DECODED.load(Ordering::Relaxed),
            REPLAYED.load(Ordering::Relaxed)
        );
    }
}

#[test]
fn a_run_saved_when_a_repeated_cancel_was_accepted_still_opens() {
    // Earlier builds accepted a second cancel of a canceled task and saved
    // it as `ok: true`; it is now refused (-32002), and changed nothing then.
    let (e, mut run) = recorded(
        cfg(),
        &[act(Action::Step), act(Action::RequestCancellation)],
    );
    run.script.push(act(Action::RequestCancellation));
    let text = run.to_json();
    assert!(text.contains(r#"{"Act":{"action":"RequestCancellation","ok":true}},{"Act":{"action":"RequestCancellation","ok":true}}"#), "{text}");
    let back = SavedRun::parse(&text).unwrap().replay().unwrap();
    assert_eq!(back.snapshot(), e.snapshot());
    assert_eq!(back.tasks(), e.tasks());
    assert_eq!(
        back.trace().last().unwrap().outcome,
        Outcome::Refused(Refusal::NotCancelable(TaskState::Canceled))
    );
    // Any other refused action recorded as accepted is still a bad script.
    let (_, mut bad) = recorded(cfg(), &[act(Action::Step)]);
    bad.script.push(act(Action::Authorize));
    assert!(SavedRun::parse(&bad.to_json()).unwrap().replay().is_err());
}

#[test]
fn a_run_saved_when_a_long_event_name_was_accepted_still_opens() {
    // Earlier builds fired an event name over 64 bytes as a no-op and saved
    // it as `ok: true`; it is now refused, and it changed nothing then.
    let (e, mut run) = recorded(proposal(), &[act(Action::Step)]);
    run.script.push(act(Action::FireEvent("e".repeat(65))));
    let back = SavedRun::parse(&run.to_json()).unwrap().replay().unwrap();
    assert_eq!(back.snapshot(), e.snapshot());
    assert_eq!(back.tasks(), e.tasks());
}

#[test]
fn a_storage_message_is_said_once_after_what_the_notice_said() {
    use a2a_control_room::ui::{notice_with, SAVE_REFUSED_NOTICE as full};
    let said = notice_with("Step: discarded 4 later recorded states.", full);
    assert_eq!(
        said,
        format!("Step: discarded 4 later recorded states. {full}")
    );
    assert_eq!(
        notice_with(&said, full),
        said,
        "the same again changes nothing"
    );
    assert_eq!(notice_with("", full), full);
    // A size that grows replaces the size said before, not piles up.
    let size =
        |n: u32| format!("This run is now {n} bytes long, more than the 1048576 a run may have.");
    let once = notice_with("Work units changed.", &size(1_048_577));
    let twice = notice_with(&once, &size(1_049_000));
    assert_eq!(twice, format!("Work units changed. {}", size(1_049_000)));
}

#[test]
fn a_seed_a_javascript_number_may_have_rounded_is_told_apart() {
    // Within 2^53 every JSON tool keeps the seed exactly.
    assert!(!IdSource::seeded(MAX_PORTABLE_SEED).seed_may_be_rounded());
    // Beyond it, a seed with bits a double cannot hold was not rounded…
    assert!(!IdSource::seeded(13_675_345_984_917_556_654).seed_may_be_rounded());
    // …and one a double holds exactly may have been.
    assert!(IdSource::seeded(13_675_345_984_917_557_248).seed_may_be_rounded());
    assert!(IdSource::seeded(MAX_PORTABLE_SEED + 1).seed_may_be_rounded());
    // What JavaScript's JSON.stringify writes for those doubles, digits
    // that no double holds exactly, may have been rounded as well.
    assert!(IdSource::seeded(13_675_345_984_917_557_000).seed_may_be_rounded());
    assert!(IdSource::seeded(1_152_921_504_606_847_000).seed_may_be_rounded());
    assert!(IdSource::seeded(1_152_921_504_606_846_976).seed_may_be_rounded());
    // One digit off it was not written by JavaScript.
    assert!(!IdSource::seeded(1_152_921_504_606_847_001).seed_may_be_rounded());
    assert!(!IdSource::seeded(1_152_921_504_606_846_999).seed_may_be_rounded());
}

#[test]
fn only_where_viewing_ended_is_kept_in_the_script() {
    let mut e = exp(cfg());
    for _ in 0..5 {
        e.apply(Action::Step).unwrap();
    }
    for p in [1, 3, 2] {
        e.seek(p).unwrap();
        e.view_task(0).unwrap();
    }
    e.seek(4).unwrap();
    e.seek(2).unwrap();
    assert_eq!(
        e.script(),
        [ScriptOp::Steps(5), ScriptOp::View(0), ScriptOp::Seek(2)]
    );
    let back = SavedRun::parse(&e.saved_run(0).to_json())
        .unwrap()
        .replay()
        .unwrap();
    assert_eq!(back, e);
}
