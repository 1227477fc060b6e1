//! Where task and context ids come from.
//!
//! The model never reaches for ambient randomness: it draws ids from an
//! [`IdSource`] it is given. The source is deterministic in its seed, so the
//! same seed always yields the same ids (tests, replays, shared links); the
//! page seeds it once from the browser's random generator. Different seeds
//! give unrelated sequences: an id of one seed turning up under another is
//! as unlikely as two random 64-bit numbers meeting (runs of format version
//! 1 keep the ids they had).

use serde::{Deserialize, Serialize};

/// A deterministic generator of RFC 4122 version-4 UUID strings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IdSource {
    seed: u64,
    drawn: u64,
    /// How ids derive from the seed; not written, a run's format version says it.
    #[serde(skip)]
    scheme: IdScheme,
}

/// How a source turns its seed and count into ids.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum IdScheme {
    /// The seed is hashed before the count is added: the sequences of two
    /// seeds share no id.
    #[default]
    Mixed,
    /// Runs of format version 1 added the count to the seed itself, so seed
    /// s + 2 drew seed s's ids one draw later. Kept so that their links and
    /// files open with the ids they were shared with.
    Version1,
}

/// A well-formed version-4 id that no [`IdSource`] yields: *Get unknown task*
/// asks for it.
pub const NEVER_ISSUED_ID: &str = "00000000-0000-4000-8000-000000000000";

/// Proposal: the resume token *Resume with wrong token* sends, which no
/// pause issues (a token is an opaque string; the agent's are UUIDs).
pub const WRONG_RESUME_TOKEN: &str = "not-the-issued-token";

/// The largest seed a JSON number keeps exactly in every tool: JavaScript
/// numbers hold integers exactly up to 2^53 − 1, so a run file rewritten by
/// a JavaScript-based tool keeps its seed, and its ids, when the seed is
/// within it. The page draws its seeds in this range.
pub const MAX_PORTABLE_SEED: u64 = (1 << 53) - 1;

impl IdSource {
    /// A source that yields the same sequence of ids for the same seed.
    pub const fn seeded(seed: u64) -> Self {
        IdSource {
            seed,
            drawn: 0,
            scheme: IdScheme::Mixed,
        }
    }

    /// The same source, drawing ids as runs of format `version` do (only
    /// version 1 differs).
    pub(crate) fn drawing_for_run_version(self, version: u32) -> Self {
        let scheme = if version == 1 {
            IdScheme::Version1
        } else {
            IdScheme::Mixed
        };
        IdSource { scheme, ..self }
    }

    /// Whether ids are drawn as runs of format version 1 drew them.
    pub(crate) fn draws_as_in_version_1(&self) -> bool {
        self.scheme == IdScheme::Version1
    }

    /// Whether the seed may have lost precision on its way here: it is
    /// beyond [`MAX_PORTABLE_SEED`] and is what a JSON tool that went
    /// through JavaScript writes for some number — the double it holds
    /// exactly, or that double as JavaScript prints it, in the fewest
    /// digits that read back as it (`1152921504606847000` for
    /// 2^60) — so the seed, and the ids with it, may have changed. (Runs
    /// saved before seeds were kept in that range may have such a seed too.)
    pub fn seed_may_be_rounded(&self) -> bool {
        let double = self.seed as f64;
        self.seed > MAX_PORTABLE_SEED
            && (double as u64 == self.seed || js_digits(double) == Some(self.seed))
    }

    /// The client's own id for this source's experiment, a UUID it draws
    /// itself (the wire's user `messageId`s carry it): from the same seed,
    /// but unrelated to every id the agent draws from it.
    pub fn client_id(&self) -> String {
        IdSource::seeded(splitmix64(self.seed ^ CLIENT_SALT)).next_id()
    }

    /// The next id, a lowercase hyphenated UUID v4.
    pub fn next_id(&mut self) -> String {
        loop {
            let id = self.draw();
            if id != NEVER_ISSUED_ID {
                return id;
            }
        }
    }

    fn draw(&mut self) -> String {
        let base = match self.scheme {
            IdScheme::Mixed => splitmix64(self.seed),
            IdScheme::Version1 => self.seed,
        };
        let a = splitmix64(base.wrapping_add(self.drawn.wrapping_mul(2)));
        let b = splitmix64(base.wrapping_add(self.drawn.wrapping_mul(2) + 1));
        self.drawn = self.drawn.wrapping_add(1);
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&a.to_be_bytes());
        bytes[8..].copy_from_slice(&b.to_be_bytes());
        uuid::Builder::from_random_bytes(bytes)
            .into_uuid()
            .hyphenated()
            .to_string()
    }
}

/// An integral double below 2^64 as JavaScript writes it: the multiple of the
/// largest power of ten that still reads back as the same double, the one
/// nearest to it (ECMAScript's Number::toString).
fn js_digits(double: f64) -> Option<u64> {
    let exact = double as u128;
    (0..20).rev().find_map(|j| {
        let p = 10u128.pow(j);
        let near = (exact + p / 2) / p * p;
        let near = u64::try_from(near).ok()?;
        (near as f64 == double).then_some(near)
    })
}

/// Sets the client's seed apart from the agent's (see [`IdSource::client_id`]).
const CLIENT_SALT: u64 = 0x636C_6965_6E74_2121;

/// SplitMix64: a tiny, well-mixed hash of a 64-bit counter.
const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The first eight characters of an id, as the page shows one in passing.
pub fn short_id(id: &str) -> &str {
    id.get(..8).unwrap_or(id)
}
