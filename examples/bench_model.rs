//! Model benchmark: prints steps per second, bytes per recorded state and
//! seek time at 1 000 recorded states and near the most one run keeps
//! ([`MAX_TRACE_ENTRIES`] trace entries), and the time to open the costliest
//! kind of run a link may carry: tens of thousands of branches, each
//! rewinding one state of a long parked task and stepping again; and the
//! time to export the transcript of a run of 6 400 pauses and resumes.
//!
//! Run with `cargo run --release --example bench_model`.

use a2a_control_room::model::*;
use a2a_control_room::wire::{self, PauseEncoding};
use std::hint::black_box;
use std::time::Instant;

fn big_config() -> Config {
    Config {
        work_units: 12,
        seconds_per_unit: 10,
        ..Config::default()
    }
}

/// Builds an experiment of at least `records` recorded states by running
/// tasks to completion and following each up.
fn experiment_with(records: usize) -> Experiment {
    let mut e = Experiment::new(big_config(), IdSource::seeded(7)).unwrap();
    loop {
        while e.apply(Action::Step).is_ok() {}
        if e.total_records() >= records {
            return e;
        }
        e.apply(Action::FollowUp).unwrap();
    }
}

fn bench_steps() {
    let mut steps = 0u64;
    let mut transitions = 0u64;
    let start = Instant::now();
    let mut seed = 0;
    while start.elapsed().as_secs_f64() < 2.0 {
        let mut e = Experiment::new(big_config(), IdSource::seeded(seed)).unwrap();
        seed += 1;
        for _ in 0..1_000 {
            let applied = match e.apply(Action::Step) {
                Ok(applied) => {
                    steps += 1;
                    applied
                }
                Err(_) => e.apply(Action::FollowUp).unwrap(),
            };
            if let Applied::Recorded { states, .. } = applied {
                transitions += states as u64;
            }
        }
        black_box(&e);
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "steps: {:.1} M Steps/s ({:.1} M recorded transitions/s, {steps} Steps in {secs:.2} s)",
        steps as f64 / secs / 1e6,
        transitions as f64 / secs / 1e6
    );
}

fn bytes_per_record(e: &Experiment) -> f64 {
    let task_overhead: usize = e
        .tasks()
        .iter()
        .map(|t| {
            std::mem::size_of::<Task>()
                + t.id.capacity()
                + t.reference_task_id.as_ref().map_or(0, String::capacity)
                + std::mem::size_of_val(t.records())
        })
        .sum();
    let trace = std::mem::size_of_val(e.trace());
    (task_overhead + trace) as f64 / e.total_records() as f64
}

fn bench_seek(e: &mut Experiment) -> f64 {
    // Random (task, position) pairs, chosen ahead of time.
    let tasks = e.tasks().len();
    let mut x: u64 = 0x9E37_79B9;
    let targets: Vec<(usize, usize)> = (0..200_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let t = (x as usize) % tasks;
            let p = (x >> 20) as usize % e.tasks()[t].records().len();
            (t, p)
        })
        .collect();
    let start = Instant::now();
    for &(t, p) in &targets {
        e.view_task(t).unwrap();
        e.seek(p).unwrap();
        black_box(e.snapshot());
    }
    start.elapsed().as_nanos() as f64 / targets.len() as f64
}

/// A run of under [`MAX_RUN_BYTES`]: a self-parked task waits ~20 000
/// minutes, then 36 000 times rewinds one state and steps again, each Step
/// discarding the later branch.
fn bench_branch_churn() {
    let config = Config {
        pause_proposal: true,
        self_park_before: 1,
        ..Config::default()
    };
    let mut script = String::from("[{\"Steps\":19990}");
    for _ in 0..36_000 {
        script.push_str(",{\"Seek\":19990},{\"Steps\":1}");
    }
    script.push(']');
    let text = SavedRun::new(config, IdSource::seeded(7), 0)
        .to_json()
        .replace("\"script\":[]", &format!("\"script\":{script}"));
    assert!(text.len() <= MAX_RUN_BYTES, "the run fits a link");
    let start = Instant::now();
    let e = SavedRun::parse(&text)
        .and_then(|run| run.replay())
        .expect("the run opens");
    println!(
        "open a {} KB run of 36 000 branches ({} trace entries): {:.1} ms",
        text.len() / 1024,
        e.trace().len(),
        start.elapsed().as_secs_f64() * 1e3
    );
}

fn main() {
    println!(
        "sizes: Record {} B, TraceEntry {} B, Snapshot {} B",
        std::mem::size_of::<Record>(),
        std::mem::size_of::<TraceEntry>(),
        std::mem::size_of::<Snapshot>()
    );
    bench_steps();
    for n in [1_000, MAX_TRACE_ENTRIES - 1_000] {
        let built = Instant::now();
        let mut e = experiment_with(n);
        let build_ms = built.elapsed().as_secs_f64() * 1e3;
        let bytes = bytes_per_record(&e);
        let seek = bench_seek(&mut e);
        println!(
            "{} recorded states ({} tasks, built in {build_ms:.1} ms): {bytes:.1} bytes per recorded state, seek {seek:.1} ns",
            e.total_records(),
            e.tasks().len()
        );
    }
    bench_branch_churn();
    bench_export();
}

/// The time to write the transcript (*Export transcript*) of a run of
/// 6 400 pauses and resumes (the pause proposal), in both its encodings.
fn bench_export() {
    let config = Config {
        work_units: 12,
        seconds_per_unit: 10,
        pause_proposal: true,
        ..Config::default()
    };
    let mut e = Experiment::new(config, IdSource::seeded(7)).unwrap();
    e.apply(Action::Step).unwrap();
    for _ in 0..6_400 {
        e.apply(Action::PauseTask {
            mode: PauseMode::InterruptImmediate,
            reason: "review".into(),
        })
        .unwrap();
        let token = e.resume_token().unwrap().to_string();
        e.apply(Action::ResumeTask {
            token,
            input: None,
            continue_transcript: true,
        })
        .unwrap();
    }
    for enc in [PauseEncoding::ProposedCore, PauseEncoding::V1Extension] {
        let start = Instant::now();
        let text = wire::to_jsonl(&wire::transcript_in(&e, 0, enc));
        println!(
            "export of {} trace entries (6 400 pauses and resumes, {enc:?}): {:.1} MB in {:.0} ms",
            e.trace().len(),
            text.len() as f64 / 1e6,
            start.elapsed().as_secs_f64() * 1e3
        );
    }
}
