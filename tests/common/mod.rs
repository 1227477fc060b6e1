//! Helpers shared by the native model tests.
#![allow(dead_code)]

use a2a_control_room::model::*;

pub const SEED: u64 = 0x00A2_A000_C0FF_EE00;

pub fn cfg() -> Config {
    Config::default()
}

/// The default settings with the proposed pause/resume lifecycle on.
pub fn proposal() -> Config {
    Config {
        pause_proposal: true,
        ..cfg()
    }
}

/// PauseTask in `mode` (proposal), with a reason.
pub fn pause(mode: PauseMode) -> Action {
    Action::PauseTask {
        mode,
        reason: "operator break".into(),
    }
}

/// ResumeTask with `token` (proposal), no input.
pub fn resume(token: &str) -> Action {
    Action::ResumeTask {
        token: token.into(),
        input: None,
        continue_transcript: true,
    }
}

/// The viewed pause's resume token.
pub fn token(e: &Experiment) -> String {
    e.resume_token().expect("paused").to_string()
}

pub fn exp(config: Config) -> Experiment {
    Experiment::new(config, IdSource::seeded(SEED)).expect("valid config")
}

/// Steps until Step is refused (a gate, a terminal state, the limits of a
/// run; a PAUSED task steps on, its waiting clock runs) or `limit` steps.
pub fn run(e: &mut Experiment, limit: usize) {
    for _ in 0..limit {
        if e.legality(&Action::Step).is_err() {
            return;
        }
        e.apply(Action::Step).expect("step allowed");
    }
}

pub fn state(e: &Experiment) -> TaskState {
    e.snapshot().state
}
