//! One versioned format for a whole run — used by share links, the browser's
//! saved checkpoint and run files alike. A run is the settings, the id source
//! as it stood when the experiment was created, the wall-clock start of its
//! wire timestamps, and the script of what the user did; replaying the script
//! on a fresh experiment reproduces the run exactly (ids, recorded states,
//! trace and position), because the model is deterministic.

use super::action::{after_colon, Action, Refusal};
use super::config::{Config, ConfigError, Setting};
use super::experiment::{Experiment, MAX_APPLIED, MAX_TRACE_ENTRIES};
use super::ids::IdSource;
use super::state::TaskState;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The format's name, checked on read.
pub const RUN_FORMAT: &str = "a2a-control-room/run";
/// The format's version, checked on read. Version 1 differs only in how ids
/// derive from the seed (see [`IdSource`]); such runs still open, with their ids.
pub const RUN_VERSION: u32 = 2;
/// The largest run text accepted (links, storage and files alike).
pub const MAX_RUN_BYTES: usize = 1 << 20;
/// The latest wall-clock start a run may name: 3000-01-01T00:00:00Z, far
/// enough from the year 9999 that its wire timestamps (the start plus the
/// simulated time, at most a few weeks) stay valid ProtoJSON timestamps.
pub const MAX_STARTED_MS: i64 = 32_503_680_000_000;

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

/// Where a run that does not decode goes wrong, and how, in words: the
/// member (`config.work_units`, `script` item 3) found by putting each of
/// the run's members, one at a time, in a run that decodes, and the decoder's
/// complaint without Rust's type names (`u8` is a whole number from 0 to 255).
fn at_fault(run: &serde_json::Value, error: &serde_json::Error) -> String {
    use serde_json::Value;
    // Through the run's own text: no second serializer in the page's wasm.
    let mut model: Value = Json::read(&SavedRun::model().to_json()).unwrap_or(Value::Null);
    let decodes = |v: &Value| SavedRun::deserialize(v).is_ok();
    let mut place = None;
    if let (Value::Object(members), true) = (run, decodes(&model)) {
        'members: for (key, given) in members {
            let mut probe = model.clone();
            probe[key] = given.clone();
            if decodes(&probe) {
                continue;
            }
            place = Some(member(key));
            // Within a member: a field of an object, an item of a list.
            match (given, &model[key]) {
                (Value::Object(fields), Value::Object(_)) => {
                    for (field, v) in fields {
                        let mut probe = model.clone();
                        probe[key][field] = v.clone();
                        if !decodes(&probe) {
                            place = Some(format!("{}.{}", member(key), member(field)));
                            break 'members;
                        }
                    }
                }
                (Value::Array(items), Value::Array(_)) => {
                    for (i, item) in items.iter().enumerate() {
                        model[key] = Value::Array(vec![item.clone()]);
                        if !decodes(&model) {
                            place = Some(format!("{} item {}", member(key), i + 1));
                            break 'members;
                        }
                    }
                }
                _ => {}
            }
            break;
        }
    }
    let mut said = error.to_string();
    // A setting's own range, as the settings say it.
    let setting = place.as_deref().and_then(|p| {
        Setting::ALL
            .into_iter()
            .find(|s| p.strip_prefix("config.") == Some(s.field()))
    });
    if let Some(setting) = setting {
        let (lo, hi) = setting.range().into_inner();
        said = said.replace(
            "expected u8",
            &format!("expected a whole number from {lo} to {hi}"),
        );
    }
    for (rust, words) in [
        ("u8", "a whole number from 0 to 255"),
        ("u16", "a whole number from 0 to 65535"),
        ("u32", "a whole number from 0 to 4294967295"),
        ("u64", "a whole number from 0 to 18446744073709551615"),
        ("i64", "a whole number"),
    ] {
        said = said.replace(&format!("expected {rust}"), &format!("expected {words}"));
    }
    // The decoder's words for JSON's shapes, in JSON's: an object given as
    // a list, a number beyond an integer's range read as floating point, an
    // operation not named by one member.
    if said.starts_with("invalid length") && said.contains("expected struct") {
        said = "a list, expected an object of named members".to_string();
    }
    for (decoder, json) in [
        ("floating point `", "number `"),
        (
            "invalid value: map, expected map with a single key",
            "an object of no member or several, expected one member, named for what was done (such as {\"Steps\":1})",
        ),
        ("expected struct Config", "expected an object of settings"),
        ("expected struct IdSource", "expected an object of seed and drawn"),
        ("expected struct SavedRun", "expected a run (an object)"),
    ] {
        said = said.replace(decoder, json);
    }
    // A sentence of the model's own (an event name too long) is a clause here.
    let said = said.trim_end_matches('.');
    let said = super::action::after_colon(said);
    match place {
        Some(place) => format!("{place}: {}", shorten(&said)),
        None => shorten(&said),
    }
}

/// How much of a value, key or name of `length` characters a message shows:
/// all of it up to 60 characters, else the first 40 of `shown`, its text as
/// the message has it.
fn cut(shown: &str, length: usize) -> Option<&str> {
    (length > 60).then(|| {
        let end = shown
            .char_indices()
            .nth(40)
            .map_or(shown.len(), |(at, _)| at);
        &shown[..end]
    })
}

/// A member's name in a place (`config.work_units`), or a word of a
/// message, cut as [`cut`] cuts, with its length.
fn member(name: &str) -> String {
    let length = name.chars().count();
    match cut(name, length) {
        Some(start) => format!("{start}… ({length} characters)"),
        None => name.to_string(),
    }
}

/// The characters of a string as a message shows it escaped (`\"`, `\u{200b}`).
fn unescaped_length(shown: &str) -> usize {
    let mut chars = shown.chars();
    let mut n = 0;
    while let Some(c) = chars.next() {
        if c == '\\' && chars.next() == Some('u') {
            chars.by_ref().take_while(|&c| c != '}').for_each(drop);
        }
        n += 1;
    }
    n
}

/// `said` with each quoted value (`"…"` or `` `…` ``) or other word over 60
/// characters cut to its first 40 and its length, and the whole cut at 600
/// characters: a decoder repeats the value, key or name it refused, however
/// long, and a message of a million characters would freeze the page that
/// shows it.
fn shorten(said: &str) -> String {
    const WHOLE: usize = 600;
    let words = |text: &str| text.split(' ').map(member).collect::<Vec<_>>().join(" ");
    let mut out = String::new();
    let mut rest = said;
    while let Some(open) = rest.find(['"', '`']) {
        let quote = rest.as_bytes()[open];
        out.push_str(&words(&rest[..open]));
        out.push(quote as char);
        let inner = &rest[open + 1..];
        // The closing quote: the next one not escaped (a string is shown
        // with its quotes escaped), or the end.
        let mut escaped = false;
        let close = inner
            .bytes()
            .position(|b| {
                let closes = b == quote && !escaped;
                escaped = quote == b'"' && b == b'\\' && !escaped;
                closes
            })
            .unwrap_or(inner.len());
        let body = &inner[..close];
        let length = match quote {
            b'"' => unescaped_length(body),
            _ => body.chars().count(),
        };
        let start = cut(body, length);
        out.push_str(start.unwrap_or(body));
        if start.is_some() {
            out.push('…');
        }
        rest = &inner[close..];
        if let Some(after) = rest.strip_prefix(quote as char) {
            out.push(quote as char);
            rest = after;
        }
        if start.is_some() {
            out.push_str(&format!(" ({length} characters)"));
        }
    }
    out.push_str(&words(rest));
    match out.char_indices().nth(WHOLE) {
        Some((at, _)) => format!("{}…", &out[..at]),
        None => out,
    }
}

/// Why a run could not be read or replayed. Every message says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    TooLarge(usize),
    Empty,
    /// Bytes that are not UTF-8 text: where the first bad byte is, and on
    /// which line, counted from 1.
    NotUtf8 {
        byte: usize,
        line: usize,
    },
    NotJson(String),
    NotARun,
    /// A transcript from *Export transcript*: wire messages, not a run.
    Transcript,
    WrongVersion(i64),
    BadConfig(ConfigError),
    BadStart(i64),
    /// Item `item` of the script (counted from 1) did not do what the run
    /// says it did.
    BadScript {
        item: usize,
        what: String,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::TooLarge(n) => write!(
                f,
                "it is {n} bytes long; a run is at most {MAX_RUN_BYTES} bytes"
            ),
            RunError::Empty => f.write_str("it is empty"),
            RunError::NotUtf8 { byte, line } => write!(
                f,
                "it is not UTF-8 text (byte {byte}, on line {line}, is not); a run is JSON saved as UTF-8"
            ),
            RunError::NotJson(e) => write!(f, "it is not a valid run ({e})"),
            RunError::NotARun => write!(f, "it is not an {RUN_FORMAT} file"),
            RunError::Transcript => f.write_str(
                "it is a wire transcript (Export transcript), not a run; Download run saves a file that opens again",
            ),
            RunError::WrongVersion(v) => write!(
                f,
                "it is format version {v}; this page reads versions 1 to {RUN_VERSION}"
            ),
            RunError::BadConfig(e) => write!(f, "its settings are invalid: {e}"),
            RunError::BadStart(ms) => write!(
                f,
                "its start time {ms} is not between 0 (1970) and {MAX_STARTED_MS} (the year 3000) milliseconds"
            ),
            RunError::BadScript { item, what } => write!(f, "item {item} of its script {what}"),
        }
    }
}

impl std::error::Error for RunError {}

/// What a script asked for beyond one run's limits, if that is why it was refused.
fn beyond(refusal: Refusal) -> Option<String> {
    match refusal {
        Refusal::RunFull => Some(format!(
            "builds more than {MAX_TRACE_ENTRIES} trace entries, the most one run keeps"
        )),
        Refusal::RunTooLong => Some(format!(
            "takes more than {MAX_APPLIED} Steps and actions, the most one run may"
        )),
        _ => None,
    }
}

impl SavedRun {
    /// A run that starts a fresh experiment with these settings and ids (of
    /// format version 1 when the ids are drawn as that version drew them).
    pub fn new(config: Config, ids: IdSource, started_ms: i64) -> SavedRun {
        SavedRun {
            format: RUN_FORMAT.into(),
            version: if ids.draws_as_in_version_1() {
                1
            } else {
                RUN_VERSION
            },
            config,
            ids,
            started_ms,
            script: Vec::new(),
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a run from a file's bytes: as [`SavedRun::parse`], once they are
    /// known to be UTF-8 text (a file in another encoding is refused, not
    /// read with its characters replaced). A byte order mark, which some
    /// editors write at the start of UTF-8 text, is skipped, as a browser
    /// decoding UTF-8 does.
    pub fn parse_bytes(bytes: &[u8]) -> Result<SavedRun, RunError> {
        if bytes.len() > MAX_RUN_BYTES {
            return Err(RunError::TooLarge(bytes.len()));
        }
        let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let text = std::str::from_utf8(text).map_err(|e| {
            // Counted in the file as it is, its mark included.
            let at = bytes.len() - text.len() + e.valid_up_to();
            RunError::NotUtf8 {
                byte: at + 1,
                line: 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count(),
            }
        })?;
        SavedRun::parse(text)
    }

    /// Reads a run, checking its size, format and version before anything
    /// else. A byte order mark first (a link or a stored text made from a
    /// file that had one) is skipped, as [`SavedRun::parse_bytes`] does.
    pub fn parse(text: &str) -> Result<SavedRun, RunError> {
        if text.len() > MAX_RUN_BYTES {
            return Err(RunError::TooLarge(text.len()));
        }
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if text.trim().is_empty() {
            return Err(RunError::Empty);
        }
        let value = Json::read(text).map_err(|e| {
            // A transcript is JSON Lines of {"seq", "from", …, "payloadType", "message"}.
            let first = text.lines().next().and_then(|l| Json::read(l).ok());
            if e.classify() == serde_json::error::Category::Data {
                // The one complaint of the reader's own: a key given twice.
                RunError::NotJson(shorten(&format!(
                    "{}, at line {}, column {}",
                    e.to_string().split(" at line ").next().unwrap_or_default(),
                    e.line(),
                    e.column()
                )))
            } else if first.is_some_and(|l| l.get("payloadType").is_some()) {
                RunError::Transcript
            } else if e.to_string().starts_with("recursion limit exceeded") {
                // serde_json stops 128 levels deep; no run nests so deep.
                RunError::NotJson(format!(
                    "it nests its values too deeply to be a run, from line {}, column {}",
                    e.line(),
                    e.column()
                ))
            } else if e.to_string().starts_with("number out of range") {
                RunError::NotJson(format!(
                    "it holds a number too large to read, at line {}, column {}",
                    e.line(),
                    e.column()
                ))
            } else {
                RunError::NotJson(format!(
                    "its text is not JSON: it breaks at line {}, column {}",
                    e.line(),
                    e.column()
                ))
            }
        })?;
        if value.get("format").and_then(|f| f.as_str()) != Some(RUN_FORMAT) {
            // A transcript of one line is one JSON object.
            if value.get("payloadType").is_some() {
                return Err(RunError::Transcript);
            }
            return Err(RunError::NotARun);
        }
        match value.get("version").map(|v| (v, v.as_i64())) {
            Some((_, Some(v))) if (1..=i64::from(RUN_VERSION)).contains(&v) => {}
            Some((_, Some(v))) => return Err(RunError::WrongVersion(v)),
            Some((v, None)) => {
                return Err(RunError::NotJson(shorten(&format!(
                    "its version is {v}, not an integer such as {RUN_VERSION}"
                ))))
            }
            None => return Err(RunError::NotJson("no version".into())),
        }
        // A whole number out of a setting's range is said as the settings
        // say it, however far out it is.
        for setting in Setting::ALL {
            let given = value["config"][setting.field()].as_i64();
            if let Some(v) = given.filter(|&v| u8::try_from(v).is_err()) {
                return Err(RunError::BadConfig(ConfigError { setting, value: v }));
            }
        }
        let run =
            SavedRun::deserialize(&value).map_err(|e| RunError::NotJson(at_fault(&value, &e)))?;
        if !(0..=MAX_STARTED_MS).contains(&run.started_ms) {
            return Err(RunError::BadStart(run.started_ms));
        }
        Ok(run)
    }

    /// A run of the default settings and no script: what [`at_fault`]
    /// compares a bad run's members with.
    fn model() -> SavedRun {
        SavedRun::new(Config::default(), IdSource::seeded(0), 0)
    }

    /// Replays the script on a fresh experiment. Any op that does not do
    /// what the run says it did is an error naming the item.
    pub fn replay(&self) -> Result<Experiment, RunError> {
        let ids = self.ids.clone().drawing_for_run_version(self.version);
        let mut e = Experiment::new(self.config, ids).map_err(RunError::BadConfig)?;
        for (i, op) in self.script.iter().enumerate() {
            let item = i + 1;
            // The reason ends the sentence the page builds around it: no
            // full stop, and no capital in the middle of it.
            let bad = |what: String| RunError::BadScript {
                item,
                what: what.trim_end_matches('.').to_string(),
            };
            // Said with the item as the file writes it and the items that
            // would do, all counted from 0 as the file counts.
            let missing = |e: super::SeekError| {
                let (what, at, count, whose, key) = match e {
                    super::SeekError::NoSuchState { position, count } => {
                        ("recorded state", position, count, "this task has", "Seek")
                    }
                    super::SeekError::NoSuchTask { index, count } => {
                        ("task", index, count, "this context has", "View")
                    }
                };
                let range = match count {
                    0 | 1 => format!("only {{\"{key}\":0}}"),
                    _ => format!("{{\"{key}\":0}} to {{\"{key}\":{}}}", count - 1),
                };
                bad(format!(
                    "({{\"{key}\":{at}}}) goes to no {what}: {whose} {count}, {range}"
                ))
            };
            match op {
                // A run is bounded by the experiment's own limits (its trace,
                // the Steps and actions it takes): past them, a Step is refused.
                ScriptOp::Steps(n) => {
                    for _ in 0..*n {
                        e.apply(Action::Step).map_err(|r| {
                            bad(beyond(r)
                                .unwrap_or_else(|| format!("cannot step: {}", after_colon(r))))
                        })?;
                    }
                }
                ScriptOp::Act { action, ok } => {
                    let label = action.said();
                    match (e.apply(action.clone()), ok) {
                        (Ok(_), true) | (Err(_), false) => {}
                        // Runs saved before a repeated cancel of a canceled
                        // task was refused (-32002) recorded it as accepted:
                        // it changed nothing then, and changes nothing now.
                        (Err(Refusal::NotCancelable(TaskState::Canceled)), true)
                            if *action == Action::RequestCancellation => {}
                        // Runs saved before an event name over 64 bytes was
                        // refused recorded it as fired: no task waited for
                        // it, so it changed nothing then and changes nothing now.
                        (Err(Refusal::EventNameTooLong), true) => {}
                        (Ok(_), false) => {
                            return Err(bad(format!("says {label} was refused, but it is allowed")))
                        }
                        (Err(r), true) => {
                            return Err(bad(beyond(r).unwrap_or_else(|| {
                                format!("asks for {label}: {}", after_colon(r))
                            })))
                        }
                    }
                }
                ScriptOp::Seek(p) => e.seek(*p as usize).map_err(missing)?,
                ScriptOp::View(t) => e.view_task(*t as usize).map_err(missing)?,
            }
        }
        Ok(e)
    }
}

/// A JSON value as [`serde_json::Value`] reads one, except that an object
/// that gives a key twice is refused (a reader would keep one of its values
/// without a word; which one the run meant is not said).
struct Json(serde_json::Value);

impl Json {
    fn read(text: &str) -> Result<serde_json::Value, serde_json::Error> {
        serde_json::from_str::<Json>(text).map(|j| j.0)
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> serde::de::Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
        Ok(Json(b.into()))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Json, E> {
        Ok(Json(n.into()))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Json, E> {
        Ok(Json(n.into()))
    }
    fn visit_f64<E>(self, n: f64) -> Result<Json, E> {
        Ok(Json(n.into()))
    }
    fn visit_str<E>(self, s: &str) -> Result<Json, E> {
        Ok(Json(s.into()))
    }
    fn visit_string<E>(self, s: String) -> Result<Json, E> {
        Ok(Json(s.into()))
    }
    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json(serde_json::Value::Null))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(Json(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json(items.into()))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut members = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if members.contains_key(&key) {
                return Err(serde::de::Error::custom(format!(
                    "it gives the key \"{key}\" twice in one object"
                )));
            }
            let Json(value) = map.next_value()?;
            members.insert(key, value);
        }
        Ok(Json(members.into()))
    }
}
