//! Property test: random configurations × random sequences of steps, actions,
//! seeks and task selections, with the model's invariants checked after every
//! operation. 10 000 cases by default; set PROPTEST_CASES for more.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use a2a_control_room::model::*;
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Act(Action),
    Seek(usize),
    ViewTask(usize),
    /// ResumeTask with the viewed pause's own token.
    ResumeRight(Option<String>),
    /// ResumeTask with a token the run issued earlier that is not the viewed
    /// pause's (the nth, modulo how many there are): always refused.
    ResumeStale(usize),
    /// That many Steps in a row, each checked as one (so long tasks finish).
    Steps(usize),
}

fn config() -> impl Strategy<Value = Config> {
    (
        (
            1u8..=12,
            1u8..=10,
            0u8..=13,
            0u8..=13,
            0u8..=13,
            prop::bool::weighted(0.1),
            prop::bool::weighted(0.8),
        ),
        (
            prop::bool::weighted(0.6),
            0u8..=13,
            prop::bool::ANY,
            0u8..=5,
            prop::bool::ANY,
            prop::bool::ANY,
            prop::bool::ANY,
        ),
    )
        .prop_map(
            |(
                (n, s, i, a, f, reject, accepts),
                (proposal, park, event, timeout, fail, again, chunks),
            )| {
                Config {
                    work_units: n,
                    seconds_per_unit: s,
                    input_gate: i,
                    auth_gate: a,
                    fail_during: f,
                    reject_before_execution: reject,
                    worker_accepts_cancellation: accepts,
                    follow_ups_fail_too: again,
                    artifact_per_unit: chunks,
                    pause_proposal: proposal,
                    self_park_before: park,
                    resume_event: EventName::new(if event { "pr.merged" } else { "" }).unwrap(),
                    self_park_timeout: timeout,
                    on_timeout: if fail {
                        OnTimeout::Fail
                    } else {
                        OnTimeout::ResumeWithSummary
                    },
                }
            },
        )
}

/// A text a user may type: mostly short words, sometimes one the model
/// must refuse or read as nothing (blank of any length, invisible
/// characters, just under, at and over the limit).
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => "[a-z ]{0,12}",
        1 => (0usize..=600).prop_map(|n| " ".repeat(n)),
        1 => (1usize..=3).prop_map(|n| "\u{200B}\u{00AD}".repeat(n)),
        1 => (499usize..=501).prop_map(|n| "é".repeat(n)),
        1 => (499usize..=501).prop_map(|n| format!("{}{}", "a", " ".repeat(n))),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        12 => Just(Op::Act(Action::Step)),
        2 => text().prop_map(|t| Op::Act(Action::SupplyClarification(t))),
        2 => Just(Op::Act(Action::Authorize)),
        1 => Just(Op::Act(Action::RequestCancellation)),
        2 => Just(Op::Act(Action::FollowUp)),
        2 => (0usize..200).prop_map(Op::Seek),
        1 => (0usize..8).prop_map(Op::ViewTask),
        2 => (prop::sample::select(PauseMode::ALL.to_vec()), prop::option::of(text()))
            .prop_map(|(mode, reason)| Op::Act(Action::PauseTask { mode, reason: reason.unwrap_or_else(|| "hold".into()) })),
        2 => prop::option::of(text()).prop_map(Op::ResumeRight),
        1 => Just(Op::Act(Action::ResumeTask { token: "wrong".into(), input: None, continue_transcript: true })),
        1 => (0usize..8).prop_map(Op::ResumeStale),
        1 => (5usize..=40).prop_map(Op::Steps),
        1 => prop::sample::select(vec!["pr.merged", "other"])
            .prop_map(|n| Op::Act(Action::FireEvent(n.into()))),
    ]
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

/// Invariants that hold for every reachable experiment.
fn check_invariants(e: &Experiment) -> Result<(), TestCaseError> {
    let c = e.config();
    let n = c.work_units;
    for (i, task) in e.tasks().iter().enumerate() {
        let recs = task.records();
        prop_assert!(!recs.is_empty());
        prop_assert_eq!(recs[0].snap, Snapshot::SUBMITTED);
        for w in recs.windows(2) {
            let (a, b) = (w[0].snap, w[1].snap);
            prop_assert!(w[0].id < w[1].id, "record ids increase");
            prop_assert!(!a.state.is_terminal(), "a terminal state is final");
            prop_assert!(
                b.completed_units >= a.completed_units,
                "units never decrease"
            );
            if b.active_s != a.active_s {
                prop_assert_eq!(b.active_s, a.active_s + 1);
                prop_assert_eq!(
                    a.state,
                    TaskState::Working,
                    "time only passes while WORKING"
                );
            }
            if b.waiting_s != a.waiting_s {
                prop_assert_eq!(
                    a.state,
                    TaskState::Paused,
                    "waiting time passes only while paused"
                );
                prop_assert_eq!(b.active_s, a.active_s, "paused time is never active time");
            }
            prop_assert!(
                !b.state.is_terminal() || b.pending.is_none(),
                "a terminal task has no pause to come"
            );
            let pair = [a.state, b.state];
            prop_assert!(
                !(pair.contains(&TaskState::Paused) && pair.contains(&TaskState::InputRequired)),
                "PAUSED is never adjacent to INPUT_REQUIRED"
            );
        }
        // A resume token wakes the task at most once in its recorded history:
        // once a pause ends, its token never pauses the task again.
        let mut ended = std::collections::HashSet::new();
        for w in recs.windows(2) {
            if let Some(p) = w[0].snap.pause {
                prop_assert!(!ended.contains(&p.token), "a token resumes at most once");
                if w[1].snap.pause.map(|q| q.token) != Some(p.token) {
                    ended.insert(p.token);
                }
            }
        }
        for r in recs {
            let s = r.snap;
            prop_assert!(s.completed_units <= n);
            prop_assert_eq!(s.pause.is_some(), s.state == TaskState::Paused);
            if !c.pause_proposal {
                prop_assert!(s.state != TaskState::Paused && s.waiting_s == 0 && s.lost_s == 0);
            }
            let worked = s.active_s - s.lost_s;
            let max_active = u32::from(s.completed_units + 1) * u32::from(c.seconds_per_unit);
            prop_assert!(worked <= max_active.min(c.active_path_seconds()));
            if s.state == TaskState::Completed {
                prop_assert_eq!(s.completed_units, n);
                prop_assert_eq!(s.active_s, c.active_path_seconds() + s.lost_s);
            }
        }
        for w in recs.windows(2) {
            // A unit failure (not a self-park timeout) never counts the failed unit.
            if w[1].snap.state == TaskState::Failed && w[0].snap.state == TaskState::Working {
                prop_assert_eq!(
                    w[1].snap.completed_units + 1,
                    c.fail_during,
                    "a failed unit is never counted"
                );
            }
        }
        if i > 0 {
            let prev = &e.tasks()[i - 1];
            prop_assert!(
                prev.latest().snap.state.is_terminal(),
                "follow-up only after terminal"
            );
            prop_assert_eq!(task.reference_task_id.as_deref(), Some(prev.id.as_str()));
            prop_assert_ne!(&task.id, &prev.id);
        } else {
            prop_assert!(task.reference_task_id.is_none());
        }
    }
    // The artifact: a chunk per unit done when streamed unit by unit, and
    // the summary once COMPLETED; none when that is nothing.
    let snap = e.snapshot();
    let completed = snap.state == TaskState::Completed;
    let chunks = match e.config().artifact_per_unit {
        true => usize::from(snap.completed_units),
        false => 0,
    };
    prop_assert_eq!(
        e.viewed_artifact().map_or(0, |a| a.parts.len()),
        chunks + usize::from(completed)
    );
    prop_assert_eq!(
        e.viewed_artifact().is_none(),
        e.no_artifact_reason().is_some()
    );
    // Every recorded state has exactly one trace entry that produced it.
    let done: Vec<u32> = e
        .trace()
        .iter()
        .filter(|t| t.outcome == Outcome::Done)
        .map(|t| t.at)
        .collect();
    let ids: Vec<u32> = e
        .tasks()
        .iter()
        .flat_map(|t| t.records().iter().map(|r| r.id))
        .collect();
    prop_assert_eq!(done, ids);
    prop_assert!(e.trace().windows(2).all(|w| w[0].seq < w[1].seq));
    prop_assert!(e.position() < e.viewed_task().records().len());
    // The state diagram draws every change of state the model records, and
    // what it calls possible now starts at the viewed state along an edge.
    for t in e.trace().iter().filter(|t| t.outcome == Outcome::Done) {
        if let Some(before) = t.before.filter(|&b| b != t.after) {
            prop_assert!(
                Transition::between(before, t.after).is_some(),
                "{:?} → {:?}",
                before,
                t.after
            );
        }
    }
    // "Possible now" is exactly what one action would do: every candidate
    // action, applied to a copy, takes one of its edges, and each of its
    // edges is taken by some action.
    let possible = e.possible_transitions();
    let mut taken = Vec::new();
    for action in diagram_candidates(e) {
        let mut copy = e.clone();
        let from = copy.snapshot().state;
        // Sequence numbers are never reused, even when a branch is discarded.
        let next_seq = copy.trace().last().map_or(0, |t| t.seq + 1);
        if let Ok(Applied::Recorded { .. }) = copy.apply(action.clone()) {
            let first = copy
                .trace()
                .iter()
                .filter(|t| t.seq >= next_seq)
                .find_map(|t| t.before.filter(|&b| b != t.after).map(|b| (b, t.after)));
            if let Some(edge) = first {
                prop_assert_eq!(edge.0, from);
                prop_assert!(
                    possible.contains(&edge),
                    "{:?} took {:?}, not in {:?}",
                    action,
                    edge,
                    possible
                );
                taken.push(edge);
            }
        }
    }
    for edge in &possible {
        prop_assert!(
            taken.contains(edge),
            "{:?} is shown possible but no action takes it",
            edge
        );
        let t = Transition::between(edge.0, edge.1);
        prop_assert!(t.is_some_and(|t| t.simulated), "{:?}", edge);
    }
    // The time bar places every recorded state, in order, with the cursor on the viewed one.
    let bar = TimeBar::of(e);
    prop_assert_eq!(bar.record_x.len(), e.viewed_task().records().len());
    prop_assert!(bar.record_x.windows(2).all(|w| w[0] <= w[1]));
    prop_assert!(bar.record_x.last().is_some_and(|&x| x <= bar.width));
    // A click on the cursor stays at the viewed state's place on the bar (the
    // latest of the states drawn there).
    let near = bar.record_near(u64::from(bar.cursor) * 1000);
    prop_assert!(near >= e.position());
    prop_assert_eq!(bar.record_x[near], bar.record_x[e.position()]);
    prop_assert_eq!(
        bar.cursor,
        bar.record_x[e.position()],
        "the cursor is on the viewed state"
    );
    prop_assert!(bar.segments.windows(2).all(|w| w[0].x + w[0].w <= w[1].x));
    Ok(())
}

/// Every action the state diagram's "possible now" considers, as a user could send it now.
fn diagram_candidates(e: &Experiment) -> Vec<Action> {
    let mut actions = vec![
        Action::Step,
        Action::SupplyClarification("more detail".into()),
        Action::Authorize,
        Action::RequestCancellation,
        Action::ResumeTask {
            token: e.resume_token().unwrap_or("none").to_string(),
            input: None,
            continue_transcript: false,
        },
        Action::FireEvent(e.config().resume_event.as_str().to_string()),
    ];
    for mode in PauseMode::ALL {
        actions.push(Action::PauseTask {
            mode,
            reason: String::new(),
        });
    }
    actions
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn invariants_hold_after_every_operation(config in config(), ops in prop::collection::vec(op(), 1..80)) {
        let mut e = Experiment::new(config, IdSource::seeded(common::SEED)).unwrap();
        let context = e.context_id().to_string();
        check_invariants(&e)?;
        let ops = ops.into_iter().flat_map(|op| match op {
            Op::Steps(n) => vec![Op::Act(Action::Step); n],
            op => vec![op],
        });
        // Every resume token the run has issued so far: its task's id, the
        // id of the record that carries it first, and the token.
        let mut issued: Vec<(String, u32, String)> = Vec::new();
        for op in ops {
            let before = e.clone();
            match op {
                Op::Seek(p) => {
                    let res = e.seek(p);
                    prop_assert_eq!(res.is_ok(), p < before.viewed_task().records().len());
                    prop_assert_eq!(e.tasks(), before.tasks(), "seek only views");
                    prop_assert_eq!(e.trace(), before.trace());
                }
                Op::ViewTask(i) => {
                    let res = e.view_task(i);
                    prop_assert_eq!(res.is_ok(), i < before.tasks().len());
                    prop_assert_eq!(e.tasks(), before.tasks(), "selecting a task only views");
                }
                Op::Steps(_) => unreachable!("expanded above"),
                Op::ResumeRight(_) | Op::ResumeStale(_) | Op::Act(_) => {
                    let stale: Vec<&(String, u32, String)> =
                        issued.iter().filter(|(_, _, t)| Some(t.as_str()) != before.resume_token()).collect();
                    let stale_resume = matches!(op, Op::ResumeStale(_));
                    let action = match op {
                        Op::Act(a) => a,
                        Op::ResumeStale(_) if stale.is_empty() => continue,
                        Op::ResumeStale(i) => Action::ResumeTask {
                            token: stale[i % stale.len()].2.clone(),
                            input: None,
                            continue_transcript: true,
                        },
                        Op::ResumeRight(input) => Action::ResumeTask {
                            token: before.resume_token().unwrap_or("never-issued").to_string(),
                            input: Some(input.unwrap_or_else(|| "go on".into())),
                            continue_transcript: true,
                        },
                        _ => unreachable!("matched above"),
                    };
                    let was = before.snapshot().state;
                    // Legality is the one answer: what it refuses, apply
                    // refuses for the same reason; what it allows, apply
                    // carries out (the worker may still refuse to stop).
                    let legal = before.legality(&action);
                    let res = e.apply(action.clone());
                    match (&legal, &res) {
                        (Err(l), Err(r)) => prop_assert_eq!(l, r, "refused as legality says"),
                        (Err(l), Ok(_)) => prop_assert!(false, "legality refused ({:?}) what apply took: {:?}", l, action),
                        (Ok(()), Err(r)) => prop_assert_eq!(*r, Refusal::WorkerRefusedCancellation, "legality allowed what apply refused"),
                        (Ok(()), Ok(_)) => {}
                    }
                    if stale_resume {
                        // A used or foreign token never wakes the task.
                        let latest = before.viewed_task_index() + 1 == before.tasks().len();
                        // A token issued on the way to the viewed state is a used
                        // one (-32011), unless the task is terminal; another (of
                        // another task, or of states an action now discards) is
                        // unknown to a task that is not paused (-32010).
                        let Action::ResumeTask { token, .. } = &action else { unreachable!() };
                        let kept = &before.viewed_task().records()[..=before.position()];
                        let own = issued.iter().any(|(task, at, t)| {
                            *task == before.viewed_task().id && t == token && kept.iter().any(|r| r.id == *at)
                        });
                        let want = if !latest {
                            Refusal::ReadOnly
                        } else if was == TaskState::Paused || (own && !was.is_terminal()) {
                            Refusal::BadResumeToken
                        } else {
                            Refusal::NotPaused(was)
                        };
                        prop_assert!(matches!(res, Err(r) if r == want), "a stale token is refused: {:?}", res);
                    }
                    let t = before.viewed_task_index();
                    match res {
                        Err(_) | Ok(Applied::Unchanged(_)) => {
                            prop_assert_eq!(e.tasks(), before.tasks(), "refusals record nothing");
                            prop_assert_eq!(e.trace().len(), before.trace().len() + 1, "but are traced");
                            // Traced as what apply answered: the refusal, or why nothing changed.
                            let outcome = e.trace().last().map(|t| t.outcome);
                            match res {
                                Err(r) => prop_assert_eq!(outcome, Some(Outcome::Refused(r))),
                                Ok(Applied::Unchanged(why)) => {
                                    prop_assert_eq!(outcome, Some(Outcome::Unchanged(why)));
                                    prop_assert_eq!(e.resume_token(), before.resume_token(), "the pause stands");
                                }
                                Ok(_) => unreachable!(),
                            }
                        }
                        Ok(Applied::Recorded { states, discarded }) => {
                            prop_assert!(states > 0, "a record records");
                            let kept = &before.tasks()[t].records()[..=before.position()];
                            prop_assert_eq!(discarded, before.tasks()[t].records().len() - kept.len());
                            prop_assert_eq!(&e.tasks()[t].records()[..kept.len()], kept,
                                "the states up to the viewed one stay");
                            if !matches!(action, Action::FollowUp) {
                                prop_assert_eq!(e.tasks()[t].records().len(), kept.len() + states,
                                    "the later states are gone, the new ones follow the viewed one");
                            }
                            for (old, new) in before.tasks().iter().zip(e.tasks()) {
                                prop_assert_eq!(&old.id, &new.id, "task ids never change");
                            }
                            if matches!(action, Action::RequestCancellation) && was == TaskState::Paused {
                                prop_assert_eq!(e.snapshot().state, TaskState::Canceled, "cancel while paused is terminal");
                            }
                            if matches!(action, Action::FollowUp) {
                                prop_assert!(before.snapshot().state.is_terminal());
                                prop_assert_eq!(e.tasks().len(), before.tasks().len() + 1);
                            } else {
                                prop_assert_eq!(e.tasks().len(), before.tasks().len());
                            }
                        }
                    }
                }
            }
            prop_assert_eq!(e.context_id(), context.as_str(), "the context id never changes");
            if let Some(token) = e.resume_token() {
                if !issued.iter().any(|(_, _, t)| t == token) {
                    let at = e.viewed_task().records()[e.position()].id;
                    issued.push((e.viewed_task().id.clone(), at, token.to_string()));
                }
            }
            check_invariants(&e)?;
        }
        // The run the experiment keeps (what links, storage and files
        // carry) replays, through its text, to the very same experiment.
        let text = e.saved_run(1_767_225_600_000).to_json();
        let back = SavedRun::parse(&text).and_then(|run| run.replay());
        match back {
            Ok(back) => prop_assert_eq!(back, e),
            Err(why) => prop_assert!(false, "{why}"),
        }
    }
}
