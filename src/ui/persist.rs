//! Runs that last and travel: the browser's saved checkpoint, share links,
//! run files — all in the one versioned run format of [`SavedRun`].
//!
//! The page saves the run to `localStorage` shortly after every change and
//! restores it on load; a link's `#run=` fragment takes precedence. Each tab
//! also keeps its own copy in `sessionStorage`, so that a reload brings back
//! this tab's run when another tab has saved a different one since. Anything
//! that cannot be read leaves the run untouched and says why.

use super::guide::Guided;
use super::store::{Replaced, Store, SPEEDS};
use crate::model::SavedRun;
use crate::wire::PauseEncoding;
use leptos::prelude::*;
use std::time::Duration;
use wasm_bindgen::JsCast;

/// Where the checkpoint lives in `localStorage`.
pub const STORAGE_KEY: &str = "a2a-control-room/run";
/// Where the run a link, an import or a settings change replaced is kept
/// until the new run is acted on (Undo survives a reload). Each tab keeps
/// its own copy under the same key in `sessionStorage`, for a reload that
/// opens its own run (see [`restore_own_tab`]).
pub const PREVIOUS_KEY: &str = "a2a-control-room/run.previous";
/// The URL fragment prefix of a share link.
pub const LINK_PREFIX: &str = "#run=";
/// What follows a share link's run when the link names the trace entry the
/// Wire panel shows (`#run=…&entry=15`).
pub const ENTRY_PART: &str = "&entry=";
/// What follows a share link's run that has the pause proposal: the
/// encoding the Wire panel shows it in (`#run=…&encoding=extension`).
pub const ENCODING_PART: &str = "&encoding=";

/// Autosave's state, shared with *Save and share*: whether a save is due,
/// the run the user asked this browser to forget (it is not saved again
/// until it changes), and an unreadable checkpoint that could not be moved
/// apart, as it was read at start-up: the next save writes over it in
/// storage, but the page keeps it to download.
#[derive(Clone, Copy)]
struct Saving {
    due: StoredValue<bool>,
    forgotten: StoredValue<Option<String>>,
    unread: StoredValue<Option<String>>,
    /// The browser refused the last save (storage full or off): said in
    /// *Save and share* until a save succeeds. `Some(true)` when this tab's
    /// own copy was kept (a reload of this tab brings the run back).
    refused: RwSignal<Option<bool>>,
}

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// This tab's own storage, where it keeps a copy of the run it last saved
/// under [`STORAGE_KEY`] (see [`restore_own_tab`]).
fn tab_storage() -> Option<web_sys::Storage> {
    window().session_storage().ok().flatten()
}

/// What a reload says that brings back this tab's run over another tab's.
const OWN_TAB: &str = "Restored this tab's own run: another tab of this page saved a different run in this browser since, which this tab's next change saves over (the browser keeps one run, the last saved; Download run or Copy link keeps the other tab's run, from that tab).";

/// What a reload says that brings back this tab's run, newer than the
/// checkpoint because the browser refused to save it.
const OWN_UNSAVED: &str = "Restored this tab's own run: this browser refused to save its latest changes (storage is full or off), and this tab kept its own copy, which was opened.";

/// Set in this tab's storage while the browser refuses to save its run:
/// this tab's own copy is then newer than the checkpoint.
const UNSAVED_KEY: &str = "a2a-control-room/unsaved";

/// What a reload found of this tab's own copy of its run
/// ([`restore_own_tab`]).
enum OwnCopy {
    /// None to prefer to the checkpoint, which opens; `mine` when the
    /// checkpoint is this tab's own copy.
    Checkpoint { mine: bool },
    /// This tab's copy was opened over the checkpoint, for this reason.
    Opened(Over),
    /// This tab's copy could not be opened: why, and what opens instead.
    Failed(String),
}

/// Why a reload opened this tab's own copy over the checkpoint.
enum Over {
    /// The checkpoint is a different run another tab saved since.
    OtherTab,
    /// The browser refused this tab's latest saves: its copy is newer.
    Unsaved,
    /// The checkpoint cannot be read (or does not replay): why, and its
    /// text, which [`restore`] sets apart.
    Unreadable { why: String, text: String },
}

impl Over {
    /// What the page says of it.
    fn said(&self) -> &'static str {
        match self {
            Over::OtherTab => OWN_TAB,
            Over::Unsaved => OWN_UNSAVED,
            Over::Unreadable { .. } => "Restored this tab's own run.",
        }
    }
}

/// At a reload: this tab's own run, when the checkpoint holds a different
/// run another tab saved since (readable or not), or none or an older one
/// because the browser refused this tab's saves. A copy of this tab's that
/// cannot be opened is said, and the checkpoint opened.
fn restore_own_tab(store: Store) -> OwnCopy {
    let saved = stored_run_text(STORAGE_KEY);
    let Some((own, unsaved)) = own_copy(saved.is_some()) else {
        return OwnCopy::Checkpoint { mine: false };
    };
    if saved.as_ref() == Some(&own) {
        return OwnCopy::Checkpoint { mine: true };
    }
    // Unreadable as the checkpoint's own restore finds it: one that decodes
    // but does not replay too.
    let unreadable = saved.as_ref().and_then(|text| {
        replayed(text)
            .err()
            .map(|why| (why.to_string(), text.clone()))
    });
    let over = match (unreadable, unsaved) {
        (Some((why, text)), _) => Over::Unreadable { why, text },
        (None, true) => Over::Unsaved,
        (None, false) => Over::OtherTab,
    };
    match store.open(&own) {
        Ok(()) => OwnCopy::Opened(over),
        Err(why) => {
            let instead = match (&saved, over) {
                (None, _) => "a fresh run was started",
                (Some(_), Over::Unreadable { .. }) => {
                    "the run saved in this browser could not be read either (below)"
                }
                (Some(_), _) => "the run saved in this browser was opened instead, and this tab's copy is replaced at its next save",
            };
            OwnCopy::Failed(format!(
                "This tab's own copy of its run could not be opened: {why}; {instead}."
            ))
        }
    }
}

/// This tab's own copy of its run, where a reload would consider it, and
/// whether the browser refused to save it (it is then newer than the
/// checkpoint). Beside no checkpoint (`checkpoint` false), a copy that is
/// not newer was forgotten.
fn own_copy(checkpoint: bool) -> Option<(String, bool)> {
    let tab = tab_storage()?;
    let own = tab.get_item(STORAGE_KEY).ok().flatten()?;
    let unsaved = tab.get_item(UNSAVED_KEY).ok().flatten().is_some();
    (checkpoint || unsaved).then_some((own, unsaved))
}

/// Forgets this tab's own copies: of its run, of the run kept for Undo, and
/// that the browser refused to save it.
fn forget_tab_copies() {
    if let Some(tab) = tab_storage() {
        for key in [STORAGE_KEY, PREVIOUS_KEY, UNSAVED_KEY] {
            let _ = tab.remove_item(key);
        }
    }
}

/// Why this tab's own copy could not be opened, if it could not.
fn failed(own: OwnCopy) -> Option<String> {
    match own {
        OwnCopy::Failed(why) => Some(why),
        _ => None,
    }
}

/// The run of a stored `text`, replayed, as the page keeps it: an older
/// run's script is compared and kept as the page would now save it.
fn replayed(text: &str) -> Result<SavedRun, crate::model::RunError> {
    SavedRun::parse(text).and_then(|run| run.replay().map(|e| e.saved_run(run.started_ms)))
}

/// Where this tab keeps the trace entry picked for the Wire panel, so that
/// a reload shows it again, as a link that names it does.
const WIRE_ENTRY_KEY: &str = "a2a-control-room/wire-entry";

/// Keeps the trace entry picked for the Wire panel in this tab's storage;
/// at start-up, when the run on the page is this tab's own copy (`mine`: a
/// reload opened it, or a link that could not be opened left it), picks it
/// again, if the run has it.
fn keep_wire_entry(store: Store, mine: bool) {
    let Some(tab) = tab_storage() else {
        return;
    };
    let picked = tab.get_item(WIRE_ENTRY_KEY).ok().flatten();
    if let Some(seq) = picked.and_then(|p| p.parse::<u32>().ok()) {
        if mine && store.exp.with_untracked(|e| e.trace_entry(seq).is_some()) {
            store.wire_view.set(super::wire::WireView::Entry(seq));
        }
    }
    Effect::new(move |_| {
        let _ = match store.wire_view.get() {
            super::wire::WireView::Entry(seq) => tab.set_item(WIRE_ENTRY_KEY, &seq.to_string()),
            _ => tab.remove_item(WIRE_ENTRY_KEY),
        };
    });
}

/// Where this tab keeps the name of the experiment set up (see
/// [`Store::guided`]), so that a reload of its run goes on with it.
const GUIDED_KEY: &str = "a2a-control-room/experiment";

/// Keeps the experiment set up in this tab's storage; at start-up, when the
/// run on the page is this tab's own copy (`mine`), goes on with it, if its
/// settings are the experiment's (a name that is not one is left unread).
fn keep_guided(store: Store, mine: bool) {
    let Some(tab) = tab_storage() else {
        return;
    };
    let kept = tab.get_item(GUIDED_KEY).ok().flatten();
    let kept = kept.and_then(|name| Guided::ALL.into_iter().find(|g| g.name() == name));
    if let Some(g) = kept.filter(|g| mine && store.config.with_untracked(|c| g.fits(c))) {
        store.guided.set(Some(g));
    }
    Effect::new(move |_| {
        let _ = match store.guided.get() {
            Some(g) => tab.set_item(GUIDED_KEY, g.name()),
            None => tab.remove_item(GUIDED_KEY),
        };
    });
}

/// Why [`autosave`] leaves the checkpoint as it is until the run on the page
/// changes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Hold {
    /// It is unreadable, and could not be moved apart.
    Unreadable,
    /// It is another tab's run, and this tab reopened its own over it: a
    /// reload is no change of this tab's to save over the other's.
    OtherTabs,
}

/// At start-up: opens the run of a share link, or else the saved checkpoint.
/// A link that cannot be opened falls back to the checkpoint, which it never
/// overwrites. A stored run that cannot be read (the checkpoint, or the run
/// kept for Undo) is moved apart, not dropped (until *Forget saved run*),
/// and an alert says so. Returns why the checkpoint is to stay as it is
/// until the run changes, if it is (see [`Hold`]).
pub fn restore(store: Store) -> Option<Hold> {
    let mut alerts = Vec::new();
    let mut checkpoint_stays = false;
    // The run kept for Undo, read (or moved apart) before anything replaces
    // it; said after what became of the link or the saved run, which the
    // user sees on the page.
    let mut undo_copy = None;
    let previous = stored_run(PREVIOUS_KEY).unwrap_or_else(|(why, aside)| {
        UNDO_COPY_STAYS.set(aside.stayed.is_some());
        undo_copy = Some(format!(
            "The run kept for Undo could not be read: {why}; {}.",
            aside.said
        ));
        None
    });
    let link = take_link(store);
    let opened = matches!(link, Some(Ok(_)));
    // In place of a link that cannot be opened, as with none: this tab's
    // own run, if the checkpoint is not it.
    let own_tab = match link {
        Some(Ok(_)) => OwnCopy::Checkpoint { mine: false },
        _ => restore_own_tab(store),
    };
    let own = matches!(own_tab, OwnCopy::Opened(_));
    // This tab's newer copy, which the browser refused to save, is saved at
    // once (or said again not to be).
    let unsaved = matches!(own_tab, OwnCopy::Opened(Over::Unsaved));
    // This tab's run opened over a checkpoint that cannot be read: its
    // text is moved apart (and said) before the next save writes over it.
    let over_unreadable = matches!(own_tab, OwnCopy::Opened(Over::Unreadable { .. }));
    // Whether the run on the page is this tab's own copy, as a reload with
    // no link opens it.
    let mut mine = own;
    match link {
        Some(Ok(entry)) => {
            alerts.extend(entry);
            // The run this tab had on its page stays within reach of Undo:
            // this tab's own copy where a reload would open it (another tab
            // may have saved a different run since), else the run this
            // browser had saved.
            let checkpoint = stored_run(STORAGE_KEY);
            let copy = own_copy(!matches!(checkpoint, Ok(None)));
            let unsaved = copy.as_ref().is_some_and(|(_, unsaved)| *unsaved);
            let own = copy.and_then(|(text, _)| match replayed(&text) {
                    Ok(run) => Some(run),
                    Err(why) => {
                        alerts.push(format!(
                            "This tab's own copy of its run could not be opened: {why}; Undo brings back the run this browser had saved, if any, and this tab's copy is replaced at its next save."
                        ));
                        None
                    }
                });
            // The link's run is saved over a different run another tab
            // saved since.
            let over_other_tab = over_other_tab(
                own.as_ref(),
                unsaved,
                checkpoint.as_ref().ok().and_then(Option::as_ref),
                &store.saved_run(),
            );
            match (own, checkpoint) {
                (Some(run), Ok(_)) => keep_for_undo(store, Some(run)),
                (None, Ok(run)) => keep_for_undo(store, run),
                // A run the user opened on purpose outweighs a text that is
                // already unreadable: with the link gone from the address,
                // holding it back would lose it on a reload.
                (
                    own,
                    Err((
                        why,
                        Aside {
                            stayed: Some(because),
                            ..
                        },
                    )),
                ) => {
                    keep_for_undo(store, own);
                    alerts.push(format!(
                        "The run saved in this browser before this link could not be read: {why}. \
                         Its text could not be kept apart ({}), so the shared run is saved over it, \
                         unless the browser refuses that too, which a notice would say.",
                        because
                    ));
                }
                (own, Err((why, aside))) => {
                    keep_for_undo(store, own);
                    alerts.push(format!(
                        "The run saved in this browser before this link could not be read: {why}; {}.",
                        aside.said
                    ));
                }
            }
            say_opened(store, "Opened the shared run.");
            if over_other_tab {
                add_to_notice(store, OTHER_TAB_REPLACED);
            }
        }
        // No link, or one that cannot be opened: what opens in its place is
        // said in a notice, or in the link's alert.
        _ => {
            // (what a notice says, what the link's alert says)
            let (notice, instead): (Option<String>, &str) = match own_tab {
                OwnCopy::Opened(over) => {
                    let said = over.said();
                    if let Over::Unreadable { why, text } = over {
                        let aside = set_aside(STORAGE_KEY, &text);
                        checkpoint_stays = aside.stayed.is_some();
                        alerts.push(format!(
                            "The run saved in this browser could not be opened: {why}. This tab's own copy of its run was opened instead; {}.",
                            aside.said
                        ));
                    }
                    (Some(said.into()), said)
                }
                own_tab => match (restore_saved(store), own_tab) {
                    // The copy's failure says what opened instead.
                    (Saved::Restored, OwnCopy::Failed(why)) => {
                        alerts.push(why);
                        (None, "")
                    }
                    (Saved::Restored, own_tab) => {
                        mine = matches!(own_tab, OwnCopy::Checkpoint { mine: true });
                        (
                            Some(RESTORED.into()),
                            "The run saved in this browser was opened instead.",
                        )
                    }
                    (Saved::None, own_tab) => match failed(own_tab) {
                        Some(why) => {
                            alerts.push(why);
                            (None, "")
                        }
                        None => (None, "A fresh run was started."),
                    },
                    (Saved::Unreadable(why, aside), own_tab) => {
                        alerts.extend(failed(own_tab));
                        checkpoint_stays = aside.stayed.is_some();
                        alerts.push(format!(
                            "The run saved in this browser could not be opened: {why}. A fresh run was started; {}.",
                            aside.said
                        ));
                        (None, "")
                    }
                },
            };
            match link {
                // The link first, then what opened in its place (said there,
                // not in a notice beside it).
                Some(Err(why)) => alerts.insert(
                    0,
                    format!("The shared link could not be opened: {why}. {LINK_STAYS} {instead}")
                        .trim_end()
                        .to_string(),
                ),
                _ => {
                    if notice.is_some() {
                        store.notice.set(notice);
                    }
                }
            }
        }
    }
    // Otherwise a run replaced before the reload is still within reach of
    // Undo (not beside another tab's checkpoint: that copy is the other tab's;
    // beside one that cannot be read, as without this tab's copy).
    if store.replaced.with_untracked(Option::is_none) {
        if !own || over_unreadable {
            keep_for_undo(store, previous);
        } else {
            // This tab's own run reopened: with this tab's own run for Undo,
            // whatever another tab kept there since.
            let own_previous = tab_storage()
                .and_then(|tab| tab.get_item(PREVIOUS_KEY).ok().flatten())
                .and_then(|text| replayed(&text).ok());
            keep_for_undo(store, own_previous);
        }
    }
    // A run opened next, before this one is acted on, leaves it in place.
    if opened {
        store.kept_by_open(true);
    }
    alerts.extend(undo_copy);
    if !alerts.is_empty() {
        store.raise(alerts.join(" "));
    }
    keep_replaced(store);
    keep_wire_entry(store, mine);
    keep_guided(store, mine);
    match (checkpoint_stays, own && !unsaved && !over_unreadable) {
        (true, _) => Some(Hold::Unreadable),
        (false, true) => Some(Hold::OtherTabs),
        (false, false) => None,
    }
}

/// The run stored under `key`, if any. One that cannot be read (or replayed)
/// is moved apart by [`set_aside`]: the error, and where its text now is.
fn stored_run(key: &str) -> Result<Option<SavedRun>, (String, Aside)> {
    let Some(text) = stored_run_text(key) else {
        return Ok(None);
    };
    match replayed(&text) {
        Ok(run) => Ok(Some(run)),
        Err(why) => Err((why.to_string(), set_aside(key, &text))),
    }
}

/// Where an unreadable stored text went: what to tell the user, and, when
/// it stayed under its own key (it could not be moved apart), why.
struct Aside {
    said: String,
    stayed: Option<String>,
}

/// Moves the unreadable `text` stored under `key` to `key` + `.unreadable`
/// (`a2a-control-room/run.unreadable` for the checkpoint; `-2`, `-3`… after
/// it when that is taken), where no save writes, and says where it is. The
/// original is removed only once the copy is made.
fn set_aside(key: &str, text: &str) -> Aside {
    let until = if key == STORAGE_KEY {
        "the run on this page changes and is saved there (until this page is closed, Save and \
         share offers its text to download)"
    } else {
        "another run is kept there"
    };
    let stays = |why: &str| Aside {
        said: format!("{why}, so it stays under “{key}” until {until}"),
        stayed: Some(why.to_string()),
    };
    let Some(s) = storage() else {
        return stays("this browser did not let the page keep its text apart (storage is off)");
    };
    let free = (1..=PLACES)
        .map(|n| apart(key, n))
        .find(|k| matches!(s.get_item(k), Ok(None)));
    let Some(free) = free else {
        return stays(&format!(
            "the {PLACES} places kept for unreadable runs are all taken (Forget saved run clears them)"
        ));
    };
    if s.set_item(&free, text).is_err() {
        return stays("this browser did not let the page keep its text apart (storage is full)");
    }
    let _ = s.remove_item(key);
    Aside {
        said: format!("its text is kept in this browser's storage under “{free}”"),
        stayed: None,
    }
}

/// Every key of this page's runs in `s`: the checkpoint, Undo's copy and
/// every unreadable text kept apart.
fn run_keys(s: &web_sys::Storage) -> Vec<String> {
    (0..s.length().unwrap_or(0))
        .filter_map(|i| s.key(i).ok().flatten())
        .filter(|k| k.starts_with(STORAGE_KEY))
        .collect()
}

/// How many unreadable texts one key keeps apart.
const PLACES: u32 = 1000;

/// The `n`th place (from 1) where [`set_aside`] keeps an unreadable text
/// stored under `key`.
fn apart(key: &str, n: u32) -> String {
    match n {
        1 => format!("{key}.unreadable"),
        n => format!("{key}.unreadable-{n}"),
    }
}

/// The keys of the unreadable texts kept apart by [`set_aside`], in the
/// order of their places: the checkpoint's, then the Undo copy's.
fn kept_apart() -> Vec<String> {
    let Some(s) = storage() else {
        return Vec::new();
    };
    let keys = run_keys(&s);
    [STORAGE_KEY, PREVIOUS_KEY]
        .into_iter()
        .flat_map(|key| (1..=PLACES).map(move |n| apart(key, n)))
        .filter(|k| keys.contains(k))
        .collect()
}

/// Offers `run` to Undo if it holds anything and differs from the run on the page.
fn keep_for_undo(store: Store, run: Option<SavedRun>) {
    if let Some(run) = run {
        if !run.script.is_empty() && store.saved_run() != run {
            store.replaced.set(Some(Replaced::new(run)));
        }
    }
}

/// Keeps the run Undo would bring back in storage while there is one.
fn keep_replaced(store: Store) {
    Effect::new(move |ran: Option<()>| {
        store.replaced.track();
        // Not at start-up: what is stored then was read, or kept as it was.
        if ran.is_some() {
            store_undo_copy(store, true);
        }
    });
}

thread_local! {
    /// An unreadable Undo copy that could not be moved apart stays under
    /// [`PREVIOUS_KEY`], as the page said, until a run is kept there.
    static UNDO_COPY_STAYS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The browser refused the last save of the run: said once, not again
    /// at each save it refuses after it, until one succeeds.
    static SAVE_REFUSED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The browser refused the last write of the Undo copy: said once, as
    /// [`SAVE_REFUSED`].
    static UNDO_COPY_REFUSED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Writes the run Undo would bring back under [`PREVIOUS_KEY`], or removes
/// what is there when there is none (an unreadable copy said to stay
/// excepted): as each change of it, and with each save of the checkpoint,
/// which it belongs with (another tab may have written its own since).
/// A write the browser refuses is said when `say` (as the run kept
/// changes) or when it is the first refused since one succeeded, not again
/// at each save.
fn store_undo_copy(store: Store, say: bool) {
    let kept = store
        .replaced
        .with_untracked(|r| r.as_ref().map(|kept| kept.run.to_json()));
    // This tab's own copy, which another tab's saves leave alone: a reload
    // that opens this tab's own run offers it to Undo.
    if let Some(tab) = tab_storage() {
        let _ = match &kept {
            Some(text) => tab.set_item(PREVIOUS_KEY, text),
            None => tab.remove_item(PREVIOUS_KEY),
        };
    }
    let Some(s) = storage() else {
        return;
    };
    match kept {
        Some(text) => match s.set_item(PREVIOUS_KEY, &text) {
            Ok(()) => {
                UNDO_COPY_STAYS.set(false);
                UNDO_COPY_REFUSED.set(false);
            }
            Err(_) => {
                if !UNDO_COPY_REFUSED.replace(true) || say {
                    add_to_notice(
                        store,
                        "This browser did not let the page keep the run from before (storage is full): Undo brings it back until you reload.",
                    );
                }
            }
        },
        None if UNDO_COPY_STAYS.get() => {}
        None => {
            let _ = s.remove_item(PREVIOUS_KEY);
        }
    }
}

/// Where the *Keyboard shortcuts* switch is kept when it is off.
const SHORTCUTS_KEY: &str = "a2a-control-room/shortcuts";

/// Where the chosen playback speed is kept, by its label (`10×`).
const SPEED_KEY: &str = "a2a-control-room/speed";

/// Where the Wire panel's pause encoding is kept when it is the extension.
const ENCODING_KEY: &str = "a2a-control-room/pause-encoding";

/// Where the trace's *Show each worked second* switch is kept when it is off.
const TICKS_KEY: &str = "a2a-control-room/ticks";

/// Keeps the *Keyboard shortcuts* switch, the playback speed, the trace's
/// *Show each worked second* and the Wire panel's pause encoding across
/// reloads: who chose them should not have to choose again. A value the
/// page does not know (an old label, a hand edit) leaves the default.
pub fn remember_preferences(store: Store) {
    if stored(SHORTCUTS_KEY).as_deref() == Some("off") {
        store.shortcuts.set(false);
    }
    if stored(TICKS_KEY).as_deref() == Some("hidden") {
        store.show_ticks.set(false);
    }
    if let Some(e) = stored(ENCODING_KEY)
        .as_deref()
        .and_then(PauseEncoding::named)
    {
        store.pause_encoding.set(e);
    }
    Effect::new(move |_| {
        let shown = store.show_ticks.get();
        keep_preference(TICKS_KEY, (!shown).then_some("hidden"));
    });
    Effect::new(move |_| {
        let e = store.pause_encoding.get();
        keep_preference(
            ENCODING_KEY,
            (e != PauseEncoding::default()).then(|| e.as_str()),
        );
    });
    let default_speed = store.speed.get_untracked();
    if let Some(i) = stored(SPEED_KEY).and_then(|l| SPEEDS.iter().position(|(s, _)| *s == l)) {
        store.speed.set(i);
    }
    Effect::new(move |_| {
        let on = store.shortcuts.get();
        keep_preference(SHORTCUTS_KEY, (!on).then_some("off"));
    });
    Effect::new(move |_| {
        let i = store.speed.get();
        keep_preference(SPEED_KEY, (i != default_speed).then(|| SPEEDS[i].0));
    });
}

/// Stores a preference, or removes it when it is the default (`None`).
fn keep_preference(key: &str, value: Option<&str>) {
    if let Some(s) = storage() {
        let _ = match value {
            Some(v) => s.set_item(key, v),
            None => s.remove_item(key),
        };
    }
}

/// A share link pasted into the address bar of the open page is opened too
/// (only the fragment changes, so the page does not reload).
pub fn follow_links(store: Store) {
    // The alert a link that could not be opened raised here, until it goes.
    let link_alert = StoredValue::new(None::<String>);
    let handle = window_event_listener_untyped("hashchange", move |_| {
        // Before a link's run replaces it: this tab's own copy of its run,
        // the checkpoint and the run on the page.
        let is_link = window()
            .location()
            .hash()
            .is_ok_and(|h| h.starts_with(LINK_PREFIX));
        let before = is_link.then(|| (checkpoints(), store.saved_run()));
        match take_link(store) {
            // Back (or a hand edit) took a link that could not be opened out
            // of the address bar: its alert, which says it stays there, goes
            // (not one that has said something else since).
            None => {
                let shown = store.alert.get_untracked();
                if shown.is_some() && shown == link_alert.get_value() {
                    store.alert.set(None);
                }
            }
            Some(Ok(entry)) => {
                say_opened(store, "Opened the shared run.");
                // Saved next (unless the link held the run on the page),
                // over a different run another tab saved since.
                let now = store.saved_run();
                if let Some((Some((own, unsaved, checkpoint)), was)) = before {
                    if was != now
                        && over_other_tab(own.as_ref(), unsaved, checkpoint.as_ref(), &now)
                    {
                        add_to_notice(store, OTHER_TAB_REPLACED);
                    }
                }
                if let Some(why) = entry {
                    store.raise(why);
                }
            }
            Some(Err(why)) => {
                store.raise(format!(
                    "The shared link could not be opened: {why}. The run on the page is unchanged. \
                     {LINK_STAYS}"
                ));
                link_alert.set_value(store.alert.get_untracked());
            }
        }
    });
    on_cleanup(move || handle.remove());
}

/// This tab's own copy of its run (if it opens), whether the browser
/// refused to save it, and the checkpoint (if it opens), when the two
/// texts differ; `None` when they are the same or there is no copy.
fn checkpoints() -> Option<(Option<SavedRun>, bool, Option<SavedRun>)> {
    let checkpoint = stored(STORAGE_KEY);
    let (own, unsaved) = own_copy(checkpoint.is_some())?;
    (checkpoint.as_ref() != Some(&own)).then(|| {
        let opened = |text: &str| replayed(text).ok();
        (
            opened(&own),
            unsaved,
            checkpoint.as_deref().and_then(opened),
        )
    })
}

/// Whether the run on the page (`now`), saved next, replaces a different
/// run another tab saved since: this tab's own copy of its run (`own`) is
/// not the checkpoint, nor newer than it (`unsaved`: the browser refused
/// to save it), and the checkpoint is not the run on the page.
fn over_other_tab(
    own: Option<&SavedRun>,
    unsaved: bool,
    checkpoint: Option<&SavedRun>,
    now: &SavedRun,
) -> bool {
    !unsaved && matches!((own, checkpoint), (Some(o), Some(c)) if o != c && c != now)
}

/// What the page says when the browser refuses to save the run.
pub const SAVE_REFUSED_NOTICE: &str = "This browser did not let the page save the run (storage is full or off): Download run or Copy link, under Save and share, keeps it. It is said once, until a save succeeds.";

/// What a tab says when another tab of the page saves a different run.
const OTHER_TAB: &str = "Another tab of this page saved a different run in this browser, which keeps one run: the last saved (this is said once). This tab's run is still on the page and is saved again at its next change, and a reload of this tab brings it back; Download run or Copy link keeps it for sure.";

/// What a tab says when another tab of the page has the browser forget the
/// saved run.
const FORGOTTEN_ELSEWHERE: &str = "Another tab of this page had this browser forget the saved run, and this tab forgot its own copy of it. This tab's run is still on the page and is saved again at its next change (while it plays, at once); until then a reload of this tab starts a fresh run. Download run or Copy link keeps it for sure.";

/// What opening a link says when it replaces, in storage, a run another tab
/// saved after this tab's.
const OTHER_TAB_REPLACED: &str = "It replaces in this browser the run another tab of this page saved since; that tab still has it on its page (Download run or Copy link there keeps it).";

/// Written and at once removed by *Forget saved run*, so that other tabs of
/// the page hear of it (and of nothing else that removes the checkpoint).
const FORGOTTEN_KEY: &str = "a2a-control-room/forgotten";

/// Another tab of this page saving its run here replaces this tab's
/// checkpoint (the browser keeps one, the last saved): said in an alert, so
/// that a run is not lost without a word. Said once, and never over another
/// alert (it waits until that one is gone): the other tab may be playing,
/// saving four times a second. Another tab's *Forget saved run* makes this
/// tab forget its own copy too, and is said as each one comes (also after
/// an alert up then).
pub fn watch_other_tabs(store: Store) {
    let told = StoredValue::new(false);
    // Another tab saved while an alert was up: to be said once it is gone.
    let due = StoredValue::new(false);
    // Another tab forgot the saved run while an alert was up.
    let forgot = StoredValue::new(false);
    let tell = move |theirs: &str| {
        if store.run_json() != theirs {
            told.set_value(true);
            store.raise(OTHER_TAB.into());
        }
    };
    let handle = window_event_listener(leptos::ev::storage, move |ev| {
        let key = ev.key();
        if key.as_deref() == Some(FORGOTTEN_KEY) && ev.new_value().is_some() {
            forget_tab_copies();
            if !store.saved_run().script.is_empty() {
                match store.alert.with_untracked(Option::is_some) {
                    true => forgot.set_value(true),
                    false => store.raise(FORGOTTEN_ELSEWHERE.into()),
                }
            }
            return;
        }
        if told.get_value() || key.as_deref() != Some(STORAGE_KEY) {
            return;
        }
        let Some(theirs) = ev.new_value() else {
            return;
        };
        if store.alert.with_untracked(Option::is_some) {
            due.set_value(true);
        } else {
            tell(&theirs);
        }
    });
    on_cleanup(move || handle.remove());
    // What is saved then decides: this tab may have saved its run again since.
    Effect::new(move |_| {
        if store.alert.with(Option::is_some) {
            return;
        }
        if forgot.get_value() {
            forgot.set_value(false);
            store.raise(FORGOTTEN_ELSEWHERE.into());
        } else if due.get_value() && !told.get_value() {
            due.set_value(false);
            if let Some(theirs) = stored(STORAGE_KEY) {
                tell(&theirs);
            }
        }
    });
}

/// Opens the run of the address's `#run=` fragment, if it has one, and
/// then removes the fragment: from then on the page saves and restores
/// locally. A link that cannot be opened stays in the address bar, where
/// the user can copy it (see [`LINK_STAYS`]). A link that names a trace
/// entry ([`ENTRY_PART`]) opens with the Wire panel on it, in view; one it
/// cannot show is said (the `Ok` value), and Wire shows the latest exchange.
fn take_link(store: Store) -> Option<Result<Option<String>, String>> {
    let url = window().location();
    let hash = url.hash().unwrap_or_default();
    let Some(link) = hash.strip_prefix(LINK_PREFIX) else {
        // A run's link mangled (#RUN=…, #entry=2&run=…) is said, not ignored.
        let lower = hash.to_ascii_lowercase();
        let mangled = lower.starts_with(LINK_PREFIX) || lower.contains("&run=");
        // Or its `#` made a `?` (as some tools rewrite a link).
        let search = url.search().unwrap_or_default();
        let in_query = search
            .trim_start_matches('?')
            .split('&')
            .any(|p| p.to_ascii_lowercase().starts_with("run="));
        return match (mangled, in_query) {
            (true, _) => Some(Err(format!(
                "its address ends in “{}”, where a run's link has “{LINK_PREFIX}” first",
                cut(&hash)
            ))),
            (false, true) => Some(Err(format!(
                "its address has the run after “?” (“{}”), where a run's link has it after “{LINK_PREFIX}”",
                cut(&search)
            ))),
            (false, false) => None,
        };
    };
    // The run's text is encoded whole, so a raw `&` is the link's own: it
    // may add one `&entry=N` and one `&encoding=…`, and nothing else.
    let mut parts = link.split('&');
    let encoded = parts.next().unwrap_or_default();
    let mut entry = None;
    let mut encoding = None;
    for part in parts {
        if let Some(n) = part.strip_prefix(&ENTRY_PART[1..]) {
            if entry.replace(n).is_some() {
                return Some(Err(format!(
                    "it names more than one trace entry (“{ENTRY_PART}”)"
                )));
            }
        } else if let Some(name) = part.strip_prefix(&ENCODING_PART[1..]) {
            if encoding.replace(name).is_some() {
                return Some(Err(format!(
                    "it names more than one pause encoding (“{ENCODING_PART}”)"
                )));
            }
        } else {
            return Some(Err(format!(
                "it has a part this page does not know, “&{}” (a run's link may add “{ENTRY_PART}N” and “{ENCODING_PART}extension”, and nothing else)",
                cut(part)
            )));
        }
    }
    let opened = match js_sys::decode_uri_component(encoded) {
        Ok(text) => store
            .open(&String::from(text))
            .map(|()| {
                // The messages as the link's sender saw them; an encoding the
                // page does not know is said, as an entry it does not have.
                let unknown = encoding.and_then(|name| match PauseEncoding::named(name) {
                    Some(named) => {
                        store.pause_encoding.set(named);
                        None
                    }
                    None => Some(format!(
                        "The link's pause encoding is “{}”, where a run's link has “{ENCODING_PART}core” or “{ENCODING_PART}extension”: the run opened, and the Wire panel shows the encoding chosen under it.",
                        cut(&decoded(name))
                    )),
                });
                let entry = entry.and_then(|entry| show_entry(store, entry));
                match (unknown, entry) {
                    (Some(a), Some(b)) => Some(format!("{a} {b}")),
                    (a, b) => a.or(b),
                }
            })
            .map_err(|e| e.to_string()),
        Err(_) => Err("it is not correctly encoded".to_string()),
    };
    if opened.is_ok() {
        let bare = format!(
            "{}{}",
            url.pathname().unwrap_or_default(),
            url.search().unwrap_or_default()
        );
        if let Ok(history) = window().history() {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&bare));
        }
    }
    Some(opened)
}

/// What a reload that restores the saved run says (after a link that could
/// not be opened, the alert says it instead).
const RESTORED: &str = "Restored the run saved in this browser: the page replayed its own record, which is not A2A task recovery (a client that lost an agent's stream gets the task again by its id, with GetTask or SubscribeToTask).";

/// What an alert adds of a link that could not be opened.
const LINK_STAYS: &str = "The link stays in the address bar, to copy or mend.";

/// What became of the checkpoint saved in this browser.
enum Saved {
    Restored,
    None,
    /// It could not be read (why); where its text now is (see [`set_aside`]).
    Unreadable(String, Aside),
}

/// Opens the checkpoint saved in this browser, if there is one. One that
/// cannot be read is moved apart, and the next save does not overwrite it.
fn restore_saved(store: Store) -> Saved {
    let Some(text) = stored_run_text(STORAGE_KEY) else {
        return Saved::None;
    };
    match store.open(&text) {
        Ok(()) => Saved::Restored,
        Err(why) => Saved::Unreadable(why.to_string(), set_aside(STORAGE_KEY, &text)),
    }
}

/// Says that a link or file was opened (`what`), and, when its id seed may
/// have been rounded by a JSON tool on the way, that its ids may not be
/// the original's.
fn say_opened(store: Store, what: &str) {
    let rounded = store.exp.with_untracked(|e| e.ids().seed_may_be_rounded());
    let mut said = what.to_string();
    if rounded {
        said += " Its id seed is beyond what a JavaScript number holds exactly: if a JSON tool \
                 rewrote it, its task and context ids may differ from the original run's.";
    }
    // The run it replaced is within reach of Undo, which the notice offers
    // as a fresh start's does.
    if store.replaced.with_untracked(Option::is_some) {
        said = format!("{said} {}", super::store::REPLACED_UNDO);
    }
    store.notice.set(Some(said));
}

/// The text stored under `key`, if any.
fn stored(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// The run text stored under `key`, if any. One with nothing in it (blank,
/// or JSON's `null`) holds nothing to lose: it is removed, not kept apart
/// as unreadable.
fn stored_run_text(key: &str) -> Option<String> {
    let text = stored(key)?;
    if matches!(text.trim(), "" | "null") {
        if let Some(s) = storage() {
            let _ = s.remove_item(key);
        }
        return None;
    }
    Some(text)
}

/// Saves the run at most 250 ms after a change, however fast changes come
/// (a task playing at 10× included), and at once when the page is hidden or
/// closed with a save still due. With `hold`, the run now on the page is not
/// saved until it changes: the checkpoint stays in place until then.
pub fn autosave(store: Store, hold: Option<Hold>) {
    let due = StoredValue::new(false);
    let forgotten = StoredValue::new(hold.is_some().then(|| store.run_json()));
    let unread = StoredValue::new(
        (hold == Some(Hold::Unreadable))
            .then(|| stored_run_text(STORAGE_KEY))
            .flatten(),
    );
    let refused = RwSignal::new(None);
    provide_context(Saving {
        due,
        forgotten,
        unread,
        refused,
    });
    // Writes the save that is due, if one is.
    let flush = move || {
        if due.get_value() {
            due.set_value(false);
            mark_save("idle");
            let text = store.run_json();
            if forgotten.with_value(|f| f.as_deref() != Some(text.as_str())) {
                forgotten.set_value(None);
                if let Some(now) = save(store, &text) {
                    if refused.get_untracked() != now {
                        refused.set(now);
                    }
                }
            }
        }
    };
    Effect::new(move |_| {
        store.exp.track();
        store.started_ms.track();
        if !due.get_value() {
            due.set_value(true);
            mark_save("due");
            set_timeout(flush, Duration::from_millis(250));
        }
    });
    // At once when the page is closed, or hidden (a phone may end a hidden
    // page without a pagehide).
    let closed = window_event_listener_untyped("pagehide", move |_| flush());
    let hidden = window_event_listener_untyped("visibilitychange", move |_| {
        if document().hidden() {
            flush();
        }
    });
    on_cleanup(move || {
        closed.remove();
        hidden.remove();
    });
}

/// Tells whether a save is due (`due`) or not (`idle`) in the root element's
/// `data-save`, for whoever must wait until the run is in storage.
fn mark_save(what: &str) {
    if let Some(root) = document().document_element() {
        let _ = root.set_attribute("data-save", what);
    }
}

/// Saves `text` as the run: `Some(None)` when the browser took it; when it
/// refused, whether this tab's own copy was kept (`None`: too large to
/// save, said as such).
fn save(store: Store, text: &str) -> Option<Option<bool>> {
    if let Err(why) = within_limit(text) {
        add_to_notice(store, &why);
        return None;
    }
    // A reload opens this checkpoint with the Undo copy beside it: this
    // tab's, not one another tab kept there since. Written first: the run
    // it keeps may be the one the checkpoint still holds (a link opened over
    // it at start-up), and a refusal is said before that copy is gone.
    store_undo_copy(store, false);
    // This tab's copy, for its reload (see `restore_own_tab`).
    let tab_kept = tab_storage().is_some_and(|tab| tab.set_item(STORAGE_KEY, text).is_ok());
    let saved = matches!(
        storage().map(|s| s.set_item(STORAGE_KEY, text)),
        Some(Ok(()))
    );
    // Whether this tab's copy is newer than the checkpoint, for its reload.
    // A copy the browser refused to write is gone, not left older than the
    // run (a reload would open it over a newer checkpoint).
    if let Some(tab) = tab_storage() {
        if !tab_kept {
            let _ = tab.remove_item(STORAGE_KEY);
        }
        let _ = match saved || !tab_kept {
            true => tab.remove_item(UNSAVED_KEY),
            false => tab.set_item(UNSAVED_KEY, "1"),
        };
    }
    if !saved {
        if !SAVE_REFUSED.replace(true) {
            add_to_notice(store, SAVE_REFUSED_NOTICE);
        }
        return Some(Some(tab_kept));
    }
    SAVE_REFUSED.set(false);
    Some(None)
}

/// Says `text` in the notice after what it already says (a fresh start,
/// states discarded), which stays. Said once, however often it comes: an
/// earlier text of its kind (the same words up to its first number, as a
/// run's size) gives way to it, and the same text again changes nothing.
fn add_to_notice(store: Store, text: &str) {
    let said = store.notice.get_untracked().unwrap_or_default();
    let now = notice_with(&said, text);
    if now != said {
        store.notice.set(Some(now));
    }
}

/// The notice that says `said`, then `text` (see `add_to_notice`).
pub fn notice_with(said: &str, text: &str) -> String {
    let kind = text
        .split(|c: char| c.is_ascii_digit())
        .next()
        .unwrap_or(text);
    let before = said.find(kind).map_or(said, |at| &said[..at]).trim_end();
    if before.is_empty() {
        text.to_string()
    } else {
        format!("{before} {text}")
    }
}

/// Whether a run's text can be opened again, or why it is not saved, linked
/// or downloaded.
fn within_limit(text: &str) -> Result<(), String> {
    let bytes = text.len();
    if bytes <= crate::model::MAX_RUN_BYTES {
        return Ok(());
    }
    Err(format!(
        "This run is now {bytes} bytes long, more than the {} a run may have: it is no longer saved, and a link or file of it would not open. Its script keeps every branch: restart to begin a new run.",
        crate::model::MAX_RUN_BYTES
    ))
}

/// The run's text for a link or a file, or an alert saying why there is none.
fn shareable(store: Store) -> Option<String> {
    let json = store.run_json();
    match within_limit(&json) {
        Ok(()) => Some(json),
        Err(why) => {
            store.raise(why);
            None
        }
    }
}

/// Offers `text` as the download `name`; the notice says `done` (what the
/// file is), or an alert says that the browser refused it.
pub fn download(store: Store, name: &str, mime: &str, text: &str, done: String) {
    if offer(name, mime, text).is_err() {
        store.raise(format!("The browser refused the download of {name}."));
    } else {
        store.notice.set(Some(done));
    }
}

fn offer(name: &str, mime: &str, text: &str) -> Result<(), wasm_bindgen::JsValue> {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let a: web_sys::HtmlAnchorElement = document().create_element("a")?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    // Not at once: some browsers cancel a download whose URL is revoked
    // right after the click.
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        Duration::from_secs(10),
    );
    Ok(())
}

/// The longest address Chromium opens (2 MiB), and so the longest link.
pub const MAX_LINK_CHARS: usize = 2 * 1024 * 1024;

/// The share link of a run's text, with the trace entry the Wire panel
/// shows when one is picked, and its pause encoding when the run has the
/// proposal.
fn link(json: &str, entry: Option<u32>, encoding: Option<PauseEncoding>) -> String {
    let url = window().location();
    let entry = entry.map_or(String::new(), |seq| format!("{ENTRY_PART}{seq}"));
    let encoding = encoding.map_or(String::new(), |e| format!("{ENCODING_PART}{}", e.as_str()));
    format!(
        "{}{}{}{LINK_PREFIX}{}{entry}{encoding}",
        url.origin().unwrap_or_default(),
        url.pathname().unwrap_or_default(),
        url.search().unwrap_or_default(),
        String::from(js_sys::encode_uri_component(json))
    )
}

/// What a link says, cut to 24 characters: an address may hold a long text.
fn cut(text: &str) -> String {
    let mut shown: String = text.chars().take(24).collect();
    if shown.len() < text.len() {
        shown.push('…');
    }
    shown
}

/// A part of a link as its writer meant it: percent-decoded, unless that
/// fails (then as it is).
fn decoded(part: &str) -> String {
    js_sys::decode_uri_component(part).map_or_else(|_| part.to_string(), String::from)
}

/// A link's trace entry (`entry`, as the link writes it) shown in the Wire
/// panel, which comes into view once drawn; or why it cannot be.
fn show_entry(store: Store, entry: &str) -> Option<String> {
    // Numbered as the trace numbers them (a branch leaves gaps).
    let (kept, last) = store.exp.with_untracked(|e| {
        let trace = e.trace();
        (trace.len(), trace.last().map_or(0, |t| t.seq))
    });
    // Digits only: `+2`, ` 2` or nothing is not how the page writes an entry.
    if entry.is_empty() || !entry.bytes().all(|b| b.is_ascii_digit()) {
        return Some(format!(
            "The link's trace entry is “{}”, not a number as the page writes it (&entry={last} names this run's latest): the run opened, and the Wire panel shows its latest exchange.",
            cut(&decoded(entry))
        ));
    }
    let seq = entry.parse::<u32>().ok();
    let known = seq.filter(|&seq| store.exp.with_untracked(|e| e.trace_entry(seq).is_some()));
    let Some(seq) = known else {
        // The numbers the trace shows, less those a branch discarded.
        let gone = last as usize - kept;
        let entries = match gone {
            0 => format!("its entries are #1 to #{last}"),
            _ => format!("its entries are #1 to #{last}, less the {gone} a branch discarded"),
        };
        let shown = cut(entry);
        // Within the numbers, gone: a branch discarded it.
        let why = match seq {
            Some(seq) if (1..=last).contains(&seq) => {
                format!("which a branch of this run discarded (the trace marks where; {entries})")
            }
            _ => format!("which this run does not have ({entries})"),
        };
        return Some(format!(
            "The link names trace entry “{shown}”, {why}: the run opened, and the Wire panel shows its latest exchange."
        ));
    };
    store.wire_view.set(super::wire::WireView::Entry(seq));
    request_animation_frame(super::app::show_wire);
    None
}

#[component]
pub fn SharePanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let shown_link = RwSignal::new(String::new());
    let copied = RwSignal::new(0);
    // A link shown under "Link to this run" is of the run as it was: the
    // next change of the run takes it away rather than leave it stale.
    Effect::new(move |_| {
        store.exp.track();
        store.wire_view.track();
        store.pause_encoding.track();
        if shown_link.with_untracked(|l| !l.is_empty()) {
            shown_link.set(String::new());
            // Nor does its button say it was copied.
            copied.set(0);
        }
    });
    let copy_link = move |_| {
        let Some(json) = shareable(store) else {
            return;
        };
        // The entry the Wire panel shows, when the user picked one.
        let entry = match store.wire_view.get_untracked() {
            super::wire::WireView::Entry(seq) => Some(seq),
            _ => None,
        };
        // The proposal's encoding, where the run has the proposal: the link
        // opens on the messages as shown here, whatever the receiver chose.
        let encoding = store.pause_encoding.get_untracked();
        let proposal = store.exp.with_untracked(|e| e.config().pause_proposal);
        let encoding = proposal.then_some(encoding);
        let l = link(&json, entry, encoding);
        // Chromium opens no address longer than 2 MB: a run of much text
        // outside ASCII grows about threefold in a link.
        if l.len() > MAX_LINK_CHARS {
            store.raise(format!(
                "A link to this run would be {} characters long, more than the {MAX_LINK_CHARS} a browser opens: use Download run instead, and Import it.",
                l.len()
            ));
            return;
        }
        shown_link.set(l.clone());
        super::inspect::copy_text(store, l, "Link", copied);
    };
    // The unreadable runs kept apart at start-up (or before), to download.
    let unreadable = RwSignal::new(kept_apart());
    let download_kept = move |key: &str| {
        let Some(text) = stored(key) else {
            unreadable.update(|k| k.retain(|k| k != key));
            return store.raise(format!(
                "Nothing is kept under “{key}” any more: it was cleared, in this tab or another."
            ));
        };
        let done = format!(
            "The text kept under “{key}” is in your downloads. Mend it and Import run opens it."
        );
        let name = format!("{}.json", key.replace('/', "-"));
        download(store, &name, "application/json", &text, done);
    };
    // The unreadable checkpoint that stayed under its key, as it was read:
    // offered whatever has been saved over it since.
    let saving = use_context::<Saving>();
    let refused = saving.map_or_else(|| RwSignal::new(None), |s| s.refused);
    let unread = saving.and_then(|s| s.unread.get_value());
    let held = unread.map(|text| {
        let label = format!("Download {STORAGE_KEY}, as it was read when the page opened");
        let download_unread = move |_| {
            let done = format!(
                "The text that was under “{STORAGE_KEY}” when the page opened is in your downloads. Mend it and Import run opens it."
            );
            let name = format!("{}.json", STORAGE_KEY.replace('/', "-"));
            download(store, &name, "application/json", &text, done);
        };
        view! {
            <li>
                <code>{STORAGE_KEY}</code>
                " (as it was when the page opened) "
                <button aria-label=label on:click=download_unread>"Download"</button>
            </li>
        }
    });
    let none_kept = {
        let held = held.is_some();
        move || !held && unreadable.with(Vec::is_empty)
    };
    // Listed once: a key leaves the list (its item is hidden), none joins it.
    let items = unreadable
        .get_untracked()
        .into_iter()
        .map(|key| {
            let label = format!("Download {key}");
            let gone = {
                let key = key.clone();
                move || unreadable.with(|k| !k.contains(&key))
            };
            view! {
                <li hidden=gone>
                    <code>{key.clone()}</code>
                    " "
                    <button aria-label=label on:click=move |_| download_kept(&key)>
                        "Download"
                    </button>
                </li>
            }
        })
        .collect_view();
    let forget = move |_| {
        // A save still due, even for a change made just before, would
        // write the run straight back: this run is saved again once it changes.
        if let Some(Saving {
            due,
            forgotten,
            refused,
            ..
        }) = saving
        {
            due.set_value(false);
            mark_save("idle");
            forgotten.set_value(Some(store.run_json()));
            refused.set(None);
        }
        forget_tab_copies();
        let Some(s) = storage() else {
            return store.raise(
                "Nothing to forget: this browser does not let the page use its storage (it is off), so no run is saved here.".into(),
            );
        };
        // The checkpoint, Undo's copy and every unreadable one kept apart.
        for key in run_keys(&s) {
            let _ = s.remove_item(&key);
        }
        // Heard by the other tabs of the page, which forget their copies.
        // (A whole number: formatting a float would add its code to the page.)
        let _ = s.set_item(FORGOTTEN_KEY, &(js_sys::Date::now() as u64).to_string());
        let _ = s.remove_item(FORGOTTEN_KEY);
        unreadable.set(Vec::new());
        // Nothing of a run stays in this browser: Undo's copy goes too.
        store.replaced.set(None);
        store.forget_discarded();
        // What an alert said of a stored or opened run is over too.
        store.alert.set(None);
        store.notice.set(Some(
            "This browser forgot the saved run, the run kept for Undo and any unreadable one. The next change saves the run on the page again.".into(),
        ));
    };
    let export = move |_| {
        let Some(json) = shareable(store) else {
            return;
        };
        let done = "Run saved as a2a-run.json, in your downloads: Import run opens it, in this browser or another.";
        download(
            store,
            "a2a-run.json",
            "application/json",
            &json,
            done.into(),
        );
    };
    let import = move |ev: web_sys::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        input.set_value("");
        if file.size() > crate::model::MAX_RUN_BYTES as f64 {
            let size = file.size() as usize;
            return store.refuse_run("run file", &crate::model::RunError::TooLarge(size));
        }
        let promise = file.array_buffer();
        leptos::task::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(promise).await {
                Ok(buffer) => {
                    if store.load_file(&js_sys::Uint8Array::new(&buffer).to_vec()) {
                        say_opened(store, "Imported the run file.");
                    }
                }
                Err(_) => store.raise("The run file could not be read.".into()),
            }
        });
    };
    view! {
        <section class="panel" aria-labelledby="share-h">
            <h2 id="share-h">"Save and share"</h2>
            <p class="hint">
                "This run is saved in this browser (localStorage) after every change and comes back "
                "when you reopen the page. A link or a run file reproduces it exactly elsewhere: "
                "same ids, recorded states, trace and position."
            </p>
            <p class="warning" data-testid="not-saved" hidden=move || refused.get().is_none()>
                "Not saved now: this browser refuses to store the run (storage is full or off), "
                {move || match refused.get() {
                    Some(true) => "so closing this tab loses what changed since the last save \
                                   (a reload of this tab brings it back). ",
                    _ => "so closing or reloading this tab loses what changed since the last save. ",
                }}
                "Download run or Copy link keeps it."
            </p>
            <div class="buttons">
                <button on:click=copy_link>{move || super::inspect::copy_label(copied, "Copy link")}</button>
                <button on:click=export>"Download run"</button>
                <button on:click=forget>"Forget saved run"</button>
            </div>
            <Show when=move || !shown_link.get().is_empty()>
                <div class="field field-text">
                    <label for="share-link">"Link to this run"</label>
                    <input type="text" id="share-link" readonly prop:value=move || shown_link.get()/>
                </div>
            </Show>
            <div class="kept-apart" data-testid="kept-apart" hidden=none_kept>
                <p class="hint" id="kept-apart-h">
                    "Runs this browser had saved that could not be read, kept apart until "
                    "Forget saved run: download one to read or mend it."
                </p>
                <ul aria-labelledby="kept-apart-h">{held}{items}</ul>
            </div>
            <div class="field field-text">
                <label for="import-run">"Import run"</label>
                <input type="file" id="import-run" accept=".json,application/json" on:change=import/>
            </div>
        </section>
    }
}
