//! One versioned format for a whole run — used by share links, the browser's
//! saved checkpoint and run files alike. A run is the settings, the id source
//! as it stood when the experiment was created, the wall-clock start of its
//! wire timestamps, and the script of what the user did; replaying the script
//! on a fresh experiment reproduces the run exactly (ids, recorded states,
//! trace and position), because the model is deterministic.

use super::action::Action;
use super::config::{Config, ConfigError};
use super::experiment::Experiment;
use super::ids::IdSource;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The format's name, checked on read.
pub const RUN_FORMAT: &str = "a2a-control-room/run";
/// The format's version, checked on read.
pub const RUN_VERSION: u32 = 1;
/// The largest run text accepted (links, storage and files alike).
pub const MAX_RUN_BYTES: usize = 1 << 20;
/// The most Steps a replay runs (a paused task can step forever).
pub const MAX_REPLAY_STEPS: u64 = 1_000_000;

/// One thing the user did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ScriptOp {
    /// `n` accepted Steps in a row.
    Steps(u32),
    /// An action and whether it was accepted (a refusal is part of the run too).
    Act { action: Action, ok: bool },
    /// Viewed another recorded state.
    Seek(u32),
    /// Viewed another task of the context.
    View(u32),
}

/// A whole run, ready to store, share or replay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedRun {
    pub format: String,
    pub version: u32,
    pub config: Config,
    pub ids: IdSource,
    pub started_ms: i64,
    pub script: Vec<ScriptOp>,
}

/// Why a run could not be read or replayed. Every message says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    TooLarge(usize),
    Empty,
    NotJson(String),
    NotARun,
    WrongVersion(i64),
    BadConfig(ConfigError),
    BadScript { step: usize, what: String },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::TooLarge(n) => write!(
                f,
                "it is {n} bytes long; a run is at most {MAX_RUN_BYTES} bytes"
            ),
            RunError::Empty => f.write_str("it is empty"),
            RunError::NotJson(e) => write!(f, "it is not a valid run ({e})"),
            RunError::NotARun => write!(f, "it is not an {RUN_FORMAT} file"),
            RunError::WrongVersion(v) => write!(
                f,
                "it is format version {v}; this page reads version {RUN_VERSION}"
            ),
            RunError::BadConfig(e) => write!(f, "its settings are invalid: {e}"),
            RunError::BadScript { step, what } => write!(f, "step {step} of its script {what}"),
        }
    }
}

impl std::error::Error for RunError {}

impl SavedRun {
    /// A run that starts a fresh experiment with these settings and ids.
    pub fn new(config: Config, ids: IdSource, started_ms: i64) -> SavedRun {
        SavedRun {
            format: RUN_FORMAT.into(),
            version: RUN_VERSION,
            config,
            ids,
            started_ms,
            script: Vec::new(),
        }
    }

    /// Appends one op, folding consecutive accepted Steps together.
    pub fn push(&mut self, op: ScriptOp) {
        let step = ScriptOp::Act {
            action: Action::Step,
            ok: true,
        };
        match (self.script.last_mut(), &op) {
            (Some(ScriptOp::Steps(n)), o) if *o == step => *n += 1,
            (_, o) if *o == step => self.script.push(ScriptOp::Steps(1)),
            _ => self.script.push(op),
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a run, checking its size, format and version before anything else.
    pub fn parse(text: &str) -> Result<SavedRun, RunError> {
        if text.len() > MAX_RUN_BYTES {
            return Err(RunError::TooLarge(text.len()));
        }
        if text.trim().is_empty() {
            return Err(RunError::Empty);
        }
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| RunError::NotJson(e.to_string()))?;
        if value.get("format").and_then(|f| f.as_str()) != Some(RUN_FORMAT) {
            return Err(RunError::NotARun);
        }
        match value.get("version").and_then(|v| v.as_i64()) {
            Some(v) if v == i64::from(RUN_VERSION) => {}
            Some(v) => return Err(RunError::WrongVersion(v)),
            None => return Err(RunError::NotJson("no version".into())),
        }
        serde_json::from_value(value).map_err(|e| RunError::NotJson(e.to_string()))
    }

    /// Replays the script on a fresh experiment. Any op that does not do
    /// what the run says it did is an error naming the step.
    pub fn replay(&self) -> Result<Experiment, RunError> {
        let mut e = Experiment::new(self.config, self.ids.clone()).map_err(RunError::BadConfig)?;
        let mut budget = MAX_REPLAY_STEPS;
        for (i, op) in self.script.iter().enumerate() {
            let step = i + 1;
            // The reason ends the sentence the page builds around it: no full stop.
            let bad = |what: String| RunError::BadScript {
                step,
                what: what.trim_end_matches('.').to_string(),
            };
            match op {
                ScriptOp::Steps(n) => {
                    budget = budget.checked_sub(u64::from(*n)).ok_or_else(|| {
                        bad(format!(
                            "asks for more than {MAX_REPLAY_STEPS} Steps in all"
                        ))
                    })?;
                    for _ in 0..*n {
                        e.apply(Action::Step)
                            .map_err(|r| bad(format!("cannot step: {r}")))?;
                    }
                }
                ScriptOp::Act { action, ok } => {
                    let label = action.label();
                    match (e.apply(action.clone()), ok) {
                        (Ok(_), true) | (Err(_), false) => {}
                        (Ok(_), false) => {
                            return Err(bad(format!("says {label} was refused, but it is allowed")))
                        }
                        (Err(r), true) => return Err(bad(format!("asks for {label}: {r}"))),
                    }
                }
                ScriptOp::Seek(p) => e.seek(*p as usize).map_err(|r| bad(r.to_string()))?,
                ScriptOp::View(t) => e.view_task(*t as usize).map_err(|r| bad(r.to_string()))?,
            }
        }
        Ok(e)
    }
}
