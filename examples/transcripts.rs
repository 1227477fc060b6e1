//! Writes the A2A v1.0 wire transcripts of a scenario matrix, one JSONL file per
//! scenario, plus the agent card, for `conformance/check.py` to parse strictly
//! with the official a2a-sdk protobuf classes.
//!
//! Run with `cargo run --example transcripts -- OUTDIR`.
//!
//! Each scenario's file holds its whole transcript, in the order it was
//! exchanged; the on-demand exchanges taken along the way and at the end
//! (GetTask, SubscribeToTask, ListTasks) are in `<scenario>.probes.jsonl`,
//! and *Get unknown task*'s in `unknown-task.jsonl`.
//! A message or a cancel sent to a terminal task is an action of the
//! scenario, as on the page, so its exchange is in the transcript.
//!
//! The pause proposal's scenarios (the RFC's suspend/resume fixtures (a)–(h) and the three
//! `PauseTask` modes) are written twice: `<name>.proposal.jsonl` in the
//! proposed core (its `proposal:` lines are skipped by the check, the rest
//! checked) and `<name>.ext.jsonl` as a v1.0 extension (checked strictly).
//! The agent card likewise: `agent-card.json`, `agent-card.proposal.json`
//! (skipped) and `agent-card.ext.json` (checked).

use a2a_control_room::model::*;
use a2a_control_room::wire::{self, PauseEncoding, WireMessage};
use std::path::PathBuf;

/// 2026-01-01T00:00:00.000Z
const START_MS: i64 = 1_767_225_600_000;

struct Run {
    e: Experiment,
    /// On-demand exchanges, in each pause encoding (the same without the proposal).
    extra: Vec<WireMessage>,
    extra_ext: Vec<WireMessage>,
}

impl Run {
    fn new(config: Config) -> Run {
        let e = Experiment::new(config, IdSource::seeded(0xA2A)).expect("valid config");
        Run {
            e,
            extra: Vec::new(),
            extra_ext: Vec::new(),
        }
    }

    fn with(f: impl FnOnce(&mut Config)) -> Run {
        let mut c = Config::default();
        f(&mut c);
        Run::new(c)
    }

    /// Steps until a Step is refused.
    fn run(&mut self) -> &mut Self {
        while self.e.apply(Action::Step).is_ok() {}
        self
    }

    fn steps(&mut self, n: usize) -> &mut Self {
        for _ in 0..n {
            let _ = self.e.apply(Action::Step);
        }
        self
    }

    fn act(&mut self, a: Action) -> &mut Self {
        let _ = self.e.apply(a);
        self
    }

    fn clarify(&mut self, text: &str) -> &mut Self {
        self.act(Action::SupplyClarification(text.into()))
    }

    /// Records every on-demand exchange at the viewed state.
    fn probe(&mut self) -> &mut Self {
        let e = &self.e;
        for (extra, enc) in [
            (&mut self.extra, PauseEncoding::ProposedCore),
            (&mut self.extra_ext, PauseEncoding::V1Extension),
        ] {
            extra.extend(wire::get_task(e, START_MS, enc));
            // The same with historyLength 0 (no history) and 1 (the newest message).
            for limit in [0, 1] {
                extra.extend(wire::get_task_with_history(e, START_MS, enc, Some(limit)));
            }
            extra.extend(wire::subscribe(e, START_MS, enc));
            extra.extend(wire::list_tasks(e, START_MS, enc));
        }
        self
    }

    /// Steps until the task is paused (or a Step is refused).
    fn until_paused(&mut self) -> &mut Self {
        while self.e.snapshot().state != TaskState::Paused && self.e.apply(Action::Step).is_ok() {}
        self
    }

    fn token(&self) -> String {
        self.e.resume_token().expect("paused").into()
    }

    fn pause(&mut self, mode: PauseMode, reason: &str) -> &mut Self {
        self.act(Action::PauseTask {
            mode,
            reason: reason.into(),
        })
    }

    fn resume(&mut self, token: &str, input: Option<&str>, continue_transcript: bool) -> &mut Self {
        self.act(Action::ResumeTask {
            token: token.into(),
            input: input.map(Into::into),
            continue_transcript,
        })
    }

    /// Resumes with the current token, no input.
    fn resume_now(&mut self) -> &mut Self {
        let t = self.token();
        self.resume(&t, None, true)
    }

    fn seek(&mut self, position: usize) -> &mut Self {
        self.e.seek(position).expect("recorded state");
        self
    }

    fn view(&mut self, task: usize) -> &mut Self {
        self.e.view_task(task).expect("task");
        self
    }
}

fn scenarios() -> Vec<(&'static str, Run)> {
    use Action::*;
    let mut out: Vec<(&'static str, Run)> = Vec::new();
    let mut add = |name, mut r: Run| {
        r.probe();
        out.push((name, r));
    };

    let mut r = Run::new(Config::default());
    r.steps(3).probe().run();
    add("happy-path", r);

    let mut r = Run::with(|c| (c.work_units, c.seconds_per_unit) = (1, 1));
    r.run();
    add("one-unit-one-second", r);

    let mut r = Run::with(|c| (c.work_units, c.seconds_per_unit) = (12, 10));
    r.run();
    add("twelve-units-ten-seconds", r);

    let mut r = Run::with(|c| c.input_gate = 2);
    r.run()
        .probe()
        .act(Step)
        .act(Authorize)
        .clarify("")
        .act(FollowUp);
    r.clarify("Use the blue widgets, please.").probe().run();
    add("input-gate", r);

    let mut r = Run::with(|c| c.input_gate = 1);
    r.run().clarify("Go ahead.").run();
    add("input-gate-unit-1", r);

    let mut r = Run::with(|c| c.auth_gate = 3);
    r.run()
        .probe()
        .act(Step)
        .clarify("not now")
        .act(Authorize)
        .run();
    add("auth-gate", r);

    let mut r = Run::with(|c| (c.input_gate, c.auth_gate) = (2, 2));
    r.run()
        .clarify("Both gates at unit 2.")
        .run()
        .act(Authorize)
        .run();
    add("both-gates-same-unit", r);

    let mut r = Run::with(|c| {
        (c.work_units, c.input_gate, c.auth_gate, c.fail_during) = (3, 13, 4, 9);
    });
    r.run();
    add("gates-never-reached", r);

    let mut r = Run::with(|c| c.fail_during = 2);
    r.run()
        .act(Step)
        .act(RequestCancellation)
        .clarify("too late");
    add("fail-during-unit-2", r);

    let mut r = Run::with(|c| (c.fail_during, c.seconds_per_unit) = (1, 1));
    r.run();
    add("fail-during-unit-1-of-1s", r);

    // The artifact streamed unit by unit: a chunk per unit (appended from
    // the second on), a clarification between two, the summary last.
    let mut r = Run::with(|c| (c.artifact_per_unit, c.input_gate) = (true, 3));
    r.steps(5).probe().run().clarify("keep going").run();
    add("artifact-per-unit", r);

    // Canceled after two units: the canceled task keeps their chunks.
    let mut r = Run::with(|c| c.artifact_per_unit = true);
    r.steps(7).probe().act(RequestCancellation);
    add("artifact-per-unit-canceled", r);

    let mut r = Run::with(|c| c.reject_before_execution = true);
    r.run().act(RequestCancellation).probe().act(FollowUp).run();
    add("reject-and-follow-up", r);

    // Follow-ups fail or are rejected too: the follow-up ends as its first task did.
    let mut r = Run::with(|c| (c.reject_before_execution, c.follow_ups_fail_too) = (true, true));
    r.run().act(FollowUp).run();
    add("reject-and-follow-up-rejected-too", r);

    let mut r = Run::with(|c| (c.fail_during, c.follow_ups_fail_too) = (2, true));
    r.run().act(FollowUp).run();
    add("fail-and-follow-up-fails-too", r);

    let mut r = Run::new(Config::default());
    r.act(RequestCancellation).act(RequestCancellation);
    add("cancel-submitted-twice", r);

    let mut r = Run::new(Config::default());
    r.steps(4)
        .act(RequestCancellation)
        .act(RequestCancellation)
        .clarify("Any news?")
        .act(FollowUp)
        .run();
    add("cancel-working-repeat-follow-up", r);

    let mut r = Run::with(|c| c.input_gate = 2);
    r.run().act(RequestCancellation);
    add("cancel-input-required", r);

    let mut r = Run::with(|c| c.auth_gate = 2);
    r.run().act(RequestCancellation);
    add("cancel-auth-required", r);

    let mut r = Run::with(|c| c.worker_accepts_cancellation = false);
    r.act(RequestCancellation).steps(5).act(RequestCancellation);
    r.run().act(RequestCancellation).clarify("after the end");
    add("worker-refuses-cancel", r);

    let mut r = Run::with(|c| (c.worker_accepts_cancellation, c.auth_gate) = (false, 1));
    r.run().act(RequestCancellation).act(Authorize).run();
    add("worker-refuses-cancel-auth-required", r);

    let mut r = Run::with(|c| c.input_gate = 3);
    r.run().clarify("first answer").run().act(FollowUp).run();
    r.clarify("second task's answer")
        .run()
        .act(FollowUp)
        .steps(2);
    // The first task, as it is now: terminal, so the agent refuses what a
    // client sends it; a Step stays the page's own refusal (read-only).
    r.act(FollowUp)
        .view(0)
        .probe()
        .act(RequestCancellation)
        .clarify("to the first task")
        .act(Step);
    r.view(1).probe().view(2);
    add("follow-up-chain", r);

    let mut r = Run::new(Config::default());
    r.run()
        .seek(3)
        .probe()
        .act(Step)
        .run()
        .seek(5)
        .act(RequestCancellation);
    r.act(FollowUp).run().seek(2).act(RequestCancellation);
    add("seek-and-branch", r);

    let mut r = Run::with(|c| (c.input_gate, c.worker_accepts_cancellation) = (2, false));
    r.run()
        .clarify("first")
        .run()
        .seek(4)
        .act(RequestCancellation)
        .probe();
    r.seek(5).probe().clarify("second, on a new branch").run();
    add("seek-refusal-and-reclarify", r);

    out
}

/// The pause proposal's scenarios: the RFC's suspend/resume fixtures (a)–(h) and the modes.
fn proposal_scenarios() -> Vec<(&'static str, Run)> {
    use Action::*;
    use PauseMode::*;
    let pr = |f: fn(&mut Config)| {
        Run::with(|c| {
            *c = Config {
                pause_proposal: true,
                ..*c
            };
            f(c)
        })
    };
    fn event() -> EventName {
        EventName::new("pr.merged").unwrap()
    }
    let mut out: Vec<(&'static str, Run)> = Vec::new();

    // (a) PauseTask at a unit boundary, ResumeTask, completion; before it a
    // resume of a task that is not paused (-32010).
    let mut r = pr(|_| {});
    r.steps(3).resume("bogus-token", None, true);
    r.pause(FinishStep, "operator review")
        .steps(2)
        .resume_now()
        .run();
    out.push(("a-pause-resume", r));

    // (b) open self-park, explicit resume with input.
    let mut r = pr(|c| c.self_park_before = 2);
    r.until_paused().probe().steps(2);
    let t = r.token();
    r.resume(&t, Some("operator brief: ship the patch"), true)
        .run();
    out.push(("b-self-park-explicit-resume", r));

    // (c) self-park on an event: another event does nothing, the right one wakes it.
    let mut r = pr(|c| (c.self_park_before, c.resume_event) = (2, event()));
    r.until_paused().act(FireEvent("ci.done".into())).steps(1);
    r.act(FireEvent("pr.merged".into())).run();
    out.push(("c-condition-fires", r));

    // (d) self-park with a 5-minute timeout that resumes.
    let mut r = pr(|c| {
        (c.self_park_before, c.resume_event) = (3, event());
        (c.self_park_timeout, c.on_timeout) = (5, OnTimeout::ResumeWithSummary);
    });
    r.until_paused().run();
    out.push(("d-timeout-resume", r));

    // (e) the timeout fails the task; a later ResumeTask, with the pause's
    // own token, and PauseTask are refused for the state (-32010).
    let mut r = pr(|c| {
        (c.self_park_before, c.resume_event) = (2, event());
        (c.self_park_timeout, c.on_timeout) = (5, OnTimeout::Fail);
    });
    r.until_paused();
    let t = r.token();
    r.run().resume(&t, None, true).pause(FinishStep, "too late");
    out.push(("e-timeout-fail", r));

    // (f) two ResumeTask with one token: the second is refused (-32011).
    let mut r = pr(|_| {});
    r.steps(3).pause(FinishStep, "double resume").probe();
    let t = r.token();
    r.resume(&t, None, false).resume(&t, None, true).run();
    out.push(("f-double-resume", r));

    // (g) cancel while paused; then ResumeTask fails and a second cancel is refused (-32002).
    let mut r = pr(|c| c.self_park_before = 2);
    r.until_paused();
    let t = r.token();
    r.act(RequestCancellation)
        .resume(&t, None, true)
        .act(RequestCancellation);
    out.push(("g-cancel-while-paused", r));

    // (h) PauseTask on a paused task returns the current pause, nothing new.
    let mut r = pr(|_| {});
    r.steps(6)
        .pause(FinishStep, "budget exceeded")
        .pause(InterruptImmediate, "again");
    out.push(("h-re-pause", r));

    // The modes, each asked mid-unit (1 s into unit 2).
    let mut r = pr(|_| {});
    r.steps(4)
        .pause(FinishStep, "finish the step")
        .pause(FinishStep, "again");
    r.until_paused().resume_now().run();
    out.push(("mode-finish-step", r));

    let mut r = pr(|_| {});
    r.steps(4).pause(InterruptImmediate, "stop now");
    r.steps(1).resume_now().run();
    out.push(("mode-interrupt-immediate", r));

    let mut r = pr(|_| {});
    r.steps(4).pause(WaitForCompletion, "hold the result");
    r.until_paused().steps(1).resume_now().run();
    out.push(("mode-wait-for-completion", r));

    // Every unit's chunk streamed before the pause; the summary after it.
    let mut r = pr(|c| c.artifact_per_unit = true);
    r.steps(4).pause(WaitForCompletion, "hold the result");
    r.until_paused().probe().resume_now().run();
    out.push(("mode-wait-for-completion-per-unit", r));

    out
}

/// The matrix exercises every setting and switch away from its default (and
/// both timeout outcomes and a resume event), or it stops here.
fn check_coverage<'a>(configs: impl Iterator<Item = &'a Config> + Clone) {
    let d = Config::default();
    for s in Setting::ALL {
        let set = configs.clone().any(|c| c.get(s) != d.get(s));
        assert!(set, "no scenario sets {}", s.field());
    }
    for w in Switch::ALL {
        let turned = configs.clone().any(|c| c.is_on(w) != d.is_on(w));
        assert!(turned, "no scenario turns {:?}", w.label());
    }
    assert!(configs.clone().any(|c| c.on_timeout != d.on_timeout));
    assert!(configs.clone().any(|c| c.resume_event != d.resume_event));
}

/// Every kind of transition and answer happens in some scenario, and every
/// A2A error the model answers with is answered, or it stops here: a
/// scenario whose action starts being refused (its error is still a legal
/// message) would otherwise drop what it was there to show.
fn check_outcomes<'a>(exps: impl Iterator<Item = &'a Experiment>) {
    let entries: Vec<&TraceEntry> = exps.flat_map(|e| e.trace()).collect();
    type Kind = (&'static str, fn(&Event) -> bool);
    let kinds: [Kind; 19] = [
        ("a task created", |e| {
            *e == Event::Created { follow_up: false }
        }),
        ("a follow-up created", |e| {
            *e == Event::Created { follow_up: true }
        }),
        ("a start", |e| *e == Event::Started),
        ("a rejection", |e| *e == Event::Rejected),
        ("a worked second", |e| matches!(e, Event::Worked { .. })),
        ("a failure", |e| matches!(e, Event::Failed { .. })),
        ("an input gate", |e| matches!(e, Event::AskedInput { .. })),
        ("an authorization gate", |e| {
            matches!(e, Event::AskedAuth { .. })
        }),
        ("a clarification", |e| *e == Event::Clarified),
        ("an authorization", |e| *e == Event::Authorized),
        ("a cancel", |e| *e == Event::CancelRequested),
        ("a PauseTask", |e| matches!(e, Event::PauseRequested { .. })),
        ("a pending pause taking effect", |e| {
            matches!(e, Event::PauseTookEffect { .. })
        }),
        ("a self-park", |e| matches!(e, Event::SelfParked { .. })),
        ("a waited minute", |e| *e == Event::Waited),
        ("a ResumeTask", |e| {
            matches!(e, Event::ResumeRequested { .. })
        }),
        ("an event that wakes a task", |e| *e == Event::EventFired),
        ("a pause timing out", |e| *e == Event::TimedOut),
        ("a completion after a resume", |e| {
            *e == Event::CompletedAfterResume
        }),
    ];
    for (what, kind) in kinds {
        let done = entries
            .iter()
            .any(|t| t.outcome == Outcome::Done && kind(&t.event));
        assert!(done, "no scenario has {what}");
    }
    let codes: Vec<i32> = entries
        .iter()
        .filter_map(|t| match t.outcome {
            Outcome::Refused(r) => r.code(),
            _ => None,
        })
        .collect();
    for code in [-32002, -32004, -32010, -32011] {
        assert!(codes.contains(&code), "no scenario is answered {code}");
    }
}

fn main() {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or("target/transcripts".into()),
    );
    std::fs::create_dir_all(&dir).expect("create OUTDIR");
    let encodings = [
        ("proposal", PauseEncoding::ProposedCore),
        ("ext", PauseEncoding::V1Extension),
    ];
    let card = |name: &str, v| {
        let text = serde_json::to_string_pretty(&v).expect("json");
        std::fs::write(dir.join(name), text + "\n").expect("write agent card");
    };
    card("agent-card.json", wire::agent_card());
    for (suffix, enc) in encodings {
        card(
            &format!("agent-card.{suffix}.json"),
            wire::agent_card_in(true, enc),
        );
    }
    let (core, proposal) = (scenarios(), proposal_scenarios());
    check_coverage(core.iter().chain(&proposal).map(|(_, r)| r.e.config()));
    check_outcomes(core.iter().chain(&proposal).map(|(_, r)| &r.e));
    let mut total = 0;
    // A run's transcript, in the order it was exchanged, and the on-demand
    // requests probed at states along the way in a file of their own.
    let mut write =
        |stem: String, messages: Vec<wire::WireMessage>, probes: &[wire::WireMessage]| {
            for (file, lines) in [
                (stem.clone(), &messages[..]),
                (format!("{stem}.probes"), probes),
            ] {
                if !lines.is_empty() {
                    total += lines.len();
                    let path = dir.join(format!("{file}.jsonl"));
                    std::fs::write(&path, wire::to_jsonl(lines)).expect("write transcript");
                }
            }
        };
    // Get unknown task: the same exchange in every run and at every state.
    write(
        "unknown-task".into(),
        wire::get_unknown_task(&core[0].1.e),
        &[],
    );
    for (name, r) in core {
        write(name.to_string(), wire::transcript(&r.e, START_MS), &r.extra);
    }
    for (name, r) in proposal {
        for (suffix, enc) in encodings {
            let probes = match enc {
                PauseEncoding::ProposedCore => &r.extra,
                PauseEncoding::V1Extension => &r.extra_ext,
            };
            write(
                format!("{name}.{suffix}"),
                wire::transcript_in(&r.e, START_MS, enc),
                probes,
            );
        }
    }
    println!(
        "wrote {total} messages and the agent cards to {}",
        dir.display()
    );
}
