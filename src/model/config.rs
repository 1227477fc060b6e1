//! The experiment's settings, validated against their allowed ranges.

use super::pause::{EventName, OnTimeout};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::RangeInclusive;

/// One numeric setting of [`Config`]. Each has a label and an allowed range
/// (the defaults are [`Config::default`]'s); the UI builds its sliders from
/// these so the two never disagree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Setting {
    WorkUnits,
    SecondsPerUnit,
    InputGate,
    AuthGate,
    FailDuring,
    /// Proposal: the agent self-parks when about to start this unit.
    SelfParkBefore,
    /// Proposal: the self-park timeout in minutes of the waiting clock.
    SelfParkTimeout,
}

impl Setting {
    /// The v1.0 task's numeric settings (see [`Setting::PROPOSAL`] for the rest).
    pub const CORE: [Setting; 5] = [
        Setting::WorkUnits,
        Setting::SecondsPerUnit,
        Setting::InputGate,
        Setting::AuthGate,
        Setting::FailDuring,
    ];

    /// The proposal's numeric settings (pause/resume, not part of A2A v1.0).
    pub const PROPOSAL: [Setting; 2] = [Setting::SelfParkBefore, Setting::SelfParkTimeout];

    /// The setting as what the page says of it names it: its label, a
    /// proposal setting's labelled so.
    pub fn said(self) -> String {
        let label = self.label();
        match (Setting::PROPOSAL.contains(&self), label.strip_suffix(')')) {
            (false, _) => label.to_string(),
            (true, Some(open)) => format!("{open}, proposal)"),
            (true, None) => format!("{label} (proposal)"),
        }
    }

    /// The control's accessible name on the page.
    pub const fn label(self) -> &'static str {
        match self {
            Setting::WorkUnits => "Work units",
            Setting::SecondsPerUnit => "Seconds per unit",
            Setting::InputGate => "Require input before unit",
            Setting::AuthGate => "Require authorization before unit",
            Setting::FailDuring => "Fail during unit",
            Setting::SelfParkBefore => "Agent self-parks before unit",
            Setting::SelfParkTimeout => "Self-park timeout (minutes)",
        }
    }

    /// The inclusive range of accepted values. Gates and the failure unit use
    /// 0 for "off" and may exceed the unit count (then they are never reached).
    pub const fn range(self) -> RangeInclusive<u8> {
        match self {
            Setting::WorkUnits => 1..=12,
            Setting::SecondsPerUnit => 1..=10,
            Setting::InputGate
            | Setting::AuthGate
            | Setting::FailDuring
            | Setting::SelfParkBefore => 0..=13,
            Setting::SelfParkTimeout => 0..=60,
        }
    }

    /// Every setting: [`Setting::CORE`], then [`Setting::PROPOSAL`].
    pub const ALL: [Setting; 7] = [
        Setting::WorkUnits,
        Setting::SecondsPerUnit,
        Setting::InputGate,
        Setting::AuthGate,
        Setting::FailDuring,
        Setting::SelfParkBefore,
        Setting::SelfParkTimeout,
    ];

    /// Its member of a saved run's `config`.
    pub const fn field(self) -> &'static str {
        match self {
            Setting::WorkUnits => "work_units",
            Setting::SecondsPerUnit => "seconds_per_unit",
            Setting::InputGate => "input_gate",
            Setting::AuthGate => "auth_gate",
            Setting::FailDuring => "fail_during",
            Setting::SelfParkBefore => "self_park_before",
            Setting::SelfParkTimeout => "self_park_timeout",
        }
    }

    /// Whether the setting names a work unit (so a value above N is never reached).
    pub const fn names_a_unit(self) -> bool {
        matches!(
            self,
            Setting::InputGate | Setting::AuthGate | Setting::FailDuring | Setting::SelfParkBefore
        )
    }

    /// What is said of a value out of this setting's range (`given`, as the
    /// user wrote it: a number too large for any integer type included).
    pub fn out_of_range(self, given: impl fmt::Display) -> String {
        let r = self.range();
        let off = if self.zero_is_off() { ", 0 = off" } else { "" };
        format!(
            "{} must be between {} and {}{off} (got {given})",
            self.said(),
            r.start(),
            r.end()
        )
    }

    /// Whether 0 means "off" for this setting.
    pub const fn zero_is_off(self) -> bool {
        !matches!(self, Setting::WorkUnits | Setting::SecondsPerUnit)
    }
}

/// An out-of-range setting: which one, what was given, and what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub setting: Setting,
    pub value: i64,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.setting.out_of_range(self.value))
    }
}

impl std::error::Error for ConfigError {}

/// What the simulated task will do. Build one with [`Config::default`] and
/// [`Config::with`], or check a hand-built one with [`Config::validate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// N: how many work units the task performs (1–12).
    pub work_units: u8,
    /// S: active seconds each unit takes (1–10).
    pub seconds_per_unit: u8,
    /// Ask for clarification when about to start this unit (0 = off).
    pub input_gate: u8,
    /// Ask for authorization when about to start this unit (0 = off).
    pub auth_gate: u8,
    /// Fail inside this unit (0 = off).
    pub fail_during: u8,
    /// The agent rejects the task before doing any work.
    pub reject_before_execution: bool,
    /// The worker agrees to cancellation requests.
    pub worker_accepts_cancellation: bool,
    /// A follow-up fails (`fail_during`) or is rejected as the first task
    /// is; when off, only the first task does. A run file without it is
    /// from before it existed, when every task did.
    #[serde(default = "every_task")]
    pub follow_ups_fail_too: bool,
    /// The agent streams its artifact in chunks: one as each unit finishes
    /// (`append` from the second on), the summary last (`lastChunk`); a task
    /// that fails or is canceled keeps the chunks it streamed. Off: one
    /// chunk at completion. A run file without it is from before it existed.
    #[serde(default, skip_serializing_if = "is_off")]
    pub artifact_per_unit: bool,
    /// Run the proposed pause/resume lifecycle (not part of A2A v1.0).
    pub pause_proposal: bool,
    /// Proposal: the agent self-parks when about to start this unit (0 = off).
    pub self_park_before: u8,
    /// Proposal: only this event wakes a self-parked task (empty = no event condition).
    pub resume_event: EventName,
    /// Proposal: self-park timeout in minutes of the waiting clock (0 = none).
    pub self_park_timeout: u8,
    /// Proposal: what the timeout does.
    pub on_timeout: OnTimeout,
}

fn every_task() -> bool {
    true
}

fn is_off(on: &bool) -> bool {
    !on
}

/// One on/off setting of [`Config`]; the UI builds its switches from these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Switch {
    RejectBeforeExecution,
    WorkerAcceptsCancellation,
    FollowUpsFailToo,
    ArtifactPerUnit,
}

impl Switch {
    pub const ALL: [Switch; 4] = [
        Switch::RejectBeforeExecution,
        Switch::WorkerAcceptsCancellation,
        Switch::FollowUpsFailToo,
        Switch::ArtifactPerUnit,
    ];

    /// The control's accessible name on the page.
    pub const fn label(self) -> &'static str {
        match self {
            Switch::RejectBeforeExecution => "Reject before execution",
            Switch::WorkerAcceptsCancellation => "Worker accepts cancellation",
            Switch::FollowUpsFailToo => "Follow-ups fail or are rejected too",
            Switch::ArtifactPerUnit => "Stream the result unit by unit",
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            work_units: 4,
            seconds_per_unit: 3,
            input_gate: 0,
            auth_gate: 0,
            fail_during: 0,
            reject_before_execution: false,
            worker_accepts_cancellation: true,
            follow_ups_fail_too: false,
            artifact_per_unit: false,
            pause_proposal: false,
            self_park_before: 0,
            resume_event: EventName::NONE,
            self_park_timeout: 0,
            on_timeout: OnTimeout::Fail,
        }
    }
}

impl Config {
    /// The value of one numeric setting.
    pub const fn get(&self, setting: Setting) -> u8 {
        match setting {
            Setting::WorkUnits => self.work_units,
            Setting::SecondsPerUnit => self.seconds_per_unit,
            Setting::InputGate => self.input_gate,
            Setting::AuthGate => self.auth_gate,
            Setting::FailDuring => self.fail_during,
            Setting::SelfParkBefore => self.self_park_before,
            Setting::SelfParkTimeout => self.self_park_timeout,
        }
    }

    /// Whether a switch is on.
    pub const fn is_on(&self, switch: Switch) -> bool {
        match switch {
            Switch::RejectBeforeExecution => self.reject_before_execution,
            Switch::WorkerAcceptsCancellation => self.worker_accepts_cancellation,
            Switch::FollowUpsFailToo => self.follow_ups_fail_too,
            Switch::ArtifactPerUnit => self.artifact_per_unit,
        }
    }

    /// A copy with one switch set.
    pub const fn with_switch(mut self, switch: Switch, on: bool) -> Config {
        match switch {
            Switch::RejectBeforeExecution => self.reject_before_execution = on,
            Switch::WorkerAcceptsCancellation => self.worker_accepts_cancellation = on,
            Switch::FollowUpsFailToo => self.follow_ups_fail_too = on,
            Switch::ArtifactPerUnit => self.artifact_per_unit = on,
        }
        self
    }

    /// Proposal: whether the agent parks itself (AwaitTaskResumption)
    /// before a unit of the task.
    pub fn self_parks(&self) -> bool {
        self.pause_proposal && self.reaches(self.self_park_before)
    }

    /// Whether nothing in these settings stops or ends the first task before
    /// it completes: no rejection, and no gate, failure or self-park
    /// (proposal) within its units.
    pub fn runs_straight_through(&self) -> bool {
        let parks = self.self_parks();
        let stops = [self.input_gate, self.auth_gate, self.fail_during]
            .into_iter()
            .any(|k| self.reaches(k));
        !(self.reject_before_execution || stops || parks)
    }

    /// The settings task `index` of the context runs with: a follow-up
    /// (index 1 on) neither fails nor is rejected unless
    /// `follow_ups_fail_too`.
    pub fn for_task(mut self, index: usize) -> Config {
        if index > 0 && !self.follow_ups_fail_too {
            self.fail_during = 0;
            self.reject_before_execution = false;
        }
        self
    }

    /// A copy with one setting changed, or the error naming the setting and its range.
    pub fn with(mut self, setting: Setting, value: i64) -> Result<Config, ConfigError> {
        let r = setting.range();
        if value < i64::from(*r.start()) || value > i64::from(*r.end()) {
            return Err(ConfigError { setting, value });
        }
        let v = value as u8;
        match setting {
            Setting::WorkUnits => self.work_units = v,
            Setting::SecondsPerUnit => self.seconds_per_unit = v,
            Setting::InputGate => self.input_gate = v,
            Setting::AuthGate => self.auth_gate = v,
            Setting::FailDuring => self.fail_during = v,
            Setting::SelfParkBefore => self.self_park_before = v,
            Setting::SelfParkTimeout => self.self_park_timeout = v,
        }
        Ok(self)
    }

    /// Checks every setting; the first out-of-range one is the error.
    pub fn validate(&self) -> Result<(), ConfigError> {
        for s in Setting::ALL {
            if !s.range().contains(&self.get(s)) {
                return Err(ConfigError {
                    setting: s,
                    value: i64::from(self.get(s)),
                });
            }
        }
        Ok(())
    }

    /// N·S: the active seconds of a task that completes.
    pub const fn active_path_seconds(&self) -> u32 {
        self.work_units as u32 * self.seconds_per_unit as u32
    }

    /// Whether a gate or failure at `unit` can ever be reached (1 ≤ unit ≤ N).
    pub const fn reaches(&self, unit: u8) -> bool {
        unit >= 1 && unit <= self.work_units
    }

    /// The second inside the failing unit at which the task fails: ⌈S/2⌉, so
    /// the failure lands mid-unit (second 2 of 3, second 1 of 1, second 5 of 10).
    pub const fn fail_second_in_unit(&self) -> u8 {
        self.seconds_per_unit.div_ceil(2)
    }

    /// "N work units", or "1 work unit".
    pub fn units(&self) -> String {
        match self.work_units {
            1 => "1 work unit".to_string(),
            n => format!("{n} work units"),
        }
    }

    /// How a setting's value reads on the page: "off", "never reached" or the number.
    pub fn describe(&self, setting: Setting) -> String {
        let v = self.get(setting);
        if setting.zero_is_off() && v == 0 {
            "off".to_string()
        } else if setting.names_a_unit() && !self.reaches(v) {
            format!("{v} (never reached)")
        } else {
            v.to_string()
        }
    }

    /// The self-park timeout in words ("1 minute", "5 minutes"); `None`
    /// when it is off.
    pub fn timeout_words(&self) -> Option<String> {
        match self.self_park_timeout {
            0 => None,
            1 => Some("1 minute".into()),
            m => Some(format!("{m} minutes")),
        }
    }

    /// What differs from `base`, in the page's words, e.g.
    /// `["Require input before unit 2"]`: what setting up an experiment changed.
    pub fn changes_from(&self, base: &Config) -> Vec<String> {
        let on = |b: bool| if b { "on" } else { "off" };
        let mut out = Vec::new();
        if self.pause_proposal != base.pause_proposal {
            out.push(format!("Proposed pause/resume {}", on(self.pause_proposal)));
        }
        for setting in Setting::ALL {
            if self.get(setting) != base.get(setting) {
                out.push(format!("{} {}", setting.label(), self.describe(setting)));
            }
        }
        for switch in Switch::ALL {
            if self.is_on(switch) != base.is_on(switch) {
                out.push(format!("{} {}", switch.label(), on(self.is_on(switch))));
            }
        }
        if self.resume_event != base.resume_event {
            out.push(format!(
                "Resume event name “{}”",
                self.resume_event.as_str()
            ));
        }
        if self.on_timeout != base.on_timeout {
            out.push(format!("On timeout {}", self.on_timeout.name()));
        }
        out
    }
}
