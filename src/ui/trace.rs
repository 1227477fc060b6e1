//! The live transition trace (`role="log"`), oldest first.
//!
//! The list can hold tens of thousands of entries, so it is kept in sync with
//! the model by hand: a new entry appends one item; a discarded branch removes
//! the entries from the first that went (a request sent to an earlier task
//! meanwhile stays in the trace, and is drawn again); nothing before is
//! re-rendered. Text is set with `textContent`, never parsed as HTML.
//!
//! Entries are grouped in blocks of [`BLOCK`]. A block two or more blocks
//! behind the newest is skipped by layout and paint while off screen
//! (`content-visibility: auto` on `.block.full`), so a frame lays out a few
//! hundred boxes whatever the length of the trace. The two newest blocks are
//! never skipped: their entries have their real height when the trace scrolls
//! to follow the newest one, which therefore ends exactly at its bottom, even
//! where entries wrap (a phone), and a block is only ever skipped once it is at
//! least a block's height away from the newest entry.

use super::store::Store;
use super::wire::WireView;
use crate::model::{Event, Experiment, Outcome, TraceEntry};
use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Entries per block of the list.
const BLOCK: usize = 100;

/// What the DOM list currently shows.
#[derive(Default)]
struct Shown {
    /// The entries the list shows, in order.
    entries: Vec<TraceEntry>,
    highlighted: Option<u32>,
    /// The entry selected for the Wire panel.
    selected: Option<u32>,
    /// Whether it was picked (a click, a key, a request sent while viewing
    /// the past), not followed as the latest.
    picked: bool,
    /// The rows the last branch or fresh run took off the list, kept aside:
    /// an Undo that brings those entries back shows them again as they were.
    parked: Option<Parked>,
}

/// Rows taken off the list from entry `from` on, with their entries: the
/// rows of the block `from` ends in, then whole blocks, in order.
struct Parked {
    from: usize,
    entries: Vec<TraceEntry>,
    tail: Vec<web_sys::Element>,
    blocks: Vec<web_sys::Element>,
}

#[component]
pub fn TracePanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let list = NodeRef::<Div>::new();
    let scroller = NodeRef::<Div>::new();
    let shown = StoredValue::new(Shown::default());
    Effect::new(move |_| {
        let (Some(list), Some(scroller)) = (list.get(), scroller.get()) else {
            return;
        };
        let view = store.wire_view.get();
        store.exp.with(|e| {
            let selected = super::wire::selected(view, e);
            // Picked, not the latest followed: what the user's own request
            // added is brought into view, even when new.
            let picked = matches!(view, WireView::Entry(_));
            shown.update_value(|s| sync(&list, &scroller, e, (selected, picked), s))
        });
    });
    // Off: the agent's seconds and minutes that change no state are hidden
    // (the viewed and the selected entry stay), leaving the transitions.
    let ticks = store.show_ticks;
    // The entries, those discarded by branching (their numbers are not used
    // again, so the newest number is higher than the count), and, with the
    // seconds and minutes hidden, how many show.
    let proposal = move || store.config.with(|c| c.pause_proposal);
    let count = move || {
        let view = store.wire_view.get();
        let all = ticks.get();
        store.exp.with(|e| {
            let trace = e.trace();
            let n = trace.len();
            let numbered = trace.last().map_or(0, |t| t.seq as usize);
            let shown = (!all).then(|| {
                let stays = stays(e, super::wire::selected(view, e));
                (0..n).filter(|&i| listed(trace, i, false, stays)).count()
            });
            (n, numbered.saturating_sub(n), shown)
        })
    };
    view! {
        <section class="panel trace-panel" aria-labelledby="trace-h">
            <h2 id="trace-h">
                "State and action trace "
                <span class="muted" data-testid="trace-count">{move || {
                    let (n, gone, shown) = count();
                    let mut all = match n {
                        1 => "1 entry".to_string(),
                        n => format!("{n} entries"),
                    };
                    if let Some(shown) = shown {
                        all = format!("{shown} of {all} shown");
                    }
                    if gone > 0 {
                        all.push_str(&format!(", {gone} discarded"));
                    }
                    match shown {
                        None => format!("({all})"),
                        Some(_) if proposal() => format!("({all}; seconds and minutes hidden)"),
                        Some(_) => format!("({all}; seconds hidden)"),
                    }
                }}</span>
            </h2>
            <details class="hint trace-legend">
                <summary>"How to read the trace"</summary>
                "# · task · active time · actor · action · state before → after (or the state, unchanged)"
                {move || proposal().then_some(" (· a pause's waiting time, proposal)")}
                " · outcome. Actors: client (an A2A request), agent (the worker, and the work a Step "
                "does), simulator (outside A2A: authorization out of band, "
                {move || proposal().then_some("an external event (proposal), ")}
                "a Step refused). "
                "A grey line, unchanged, changes no state; the switch below hides those, except a unit's last "
                "second. Marked with a bar: the entry of the viewed "
                "state; outlined: the one the Wire panel shows (click an entry to show it). "
                "The # counts every entry of the context, refusals included, so it is not the "
                "state number Recorded states gives: a refusal, or a request that changes nothing "
                "(idempotent), records no state, and each task counts its own states. "
                "It is also the JSON-RPC id of the request its entry sends (a stream's frames carry "
                "the id of the request that opened it), so the ids skip the entries that send none."
            </details>
            <super::actions::Toggle
                label=Signal::derive(move || {
                    if proposal() {
                        "Show each worked second and waited minute (proposal)"
                    } else {
                        "Show each worked second"
                    }
                    .to_string()
                })
                value=ticks
            />
            // The Wire panel is further down (on a phone, far down): the
            // way there from the entries it shows.
            <p class="hint to-wire">
                "Pick an entry to see its A2A messages in the "
                <span class="keep">
                    <button class="link" data-testid="trace-to-wire" on:click=move |_| super::app::show_wire()>
                        "Wire panel"
                    </button>
                    "."
                </span>
            </p>
            // What a screen reader says of the entry the Wire panel shows
            // (the viewed state's entry is the current step).
            <span id="trace-wire-note" hidden>"shown in the Wire panel"</span>
            <div
                class="trace-scroll"
                role="log"
                aria-live="off"
                aria-labelledby="trace-h"
                tabindex="0"
                aria-keyshortcuts="ArrowUp ArrowDown Home End"
                data-testid="trace"
                node_ref=scroller
                on:click=move |ev| {
                    if let Some(seq) = clicked_seq(&ev) {
                        store.wire_view.set(WireView::Entry(seq));
                    }
                }
                // The keyboard's click: the entry before or after the one
                // the Wire panel shows, or the first or last listed, brought
                // into view (not the page scrolled).
                on:keydown=move |ev: web_sys::KeyboardEvent| {
                    let delta = match ev.key().as_str() {
                        "ArrowUp" => -1,
                        "ArrowDown" => 1,
                        "Home" => -isize::MAX,
                        "End" => isize::MAX,
                        _ => return,
                    };
                    if ev.alt_key() || ev.ctrl_key() || ev.meta_key() || ev.shift_key() {
                        return;
                    }
                    ev.prevent_default();
                    super::wire::select_by(store, delta);
                }
            >
                <div
                    class="trace"
                    class:hide-ticks=move || !ticks.get()
                    role="list"
                    aria-label="Trace entries, oldest first"
                    node_ref=list
                ></div>
            </div>
        </section>
    }
}

fn sync(
    list: &web_sys::Element,
    scroller: &web_sys::Element,
    e: &Experiment,
    (selected, picked): (Option<u32>, bool),
    shown: &mut Shown,
) {
    let trace = e.trace();
    let k = shown.entries.len();
    // Entries shown that are still the model's, from the start. Within a run
    // entries are only removed or appended, so this is where a discarded
    // branch began; an entry is drawn from its fields alone, so comparing
    // whole entries also finds what a fresh experiment or another loaded run
    // changed.
    let keep = shown
        .entries
        .iter()
        .zip(trace)
        .take_while(|(s, t)| s == t)
        .count();
    // Rows taken off before, which may be these entries back (an Undo).
    let earlier = if keep < k {
        let earlier = shown.parked.take();
        // Unmarked first: rows kept aside come back unmarked.
        let (viewed, selected) = (shown.highlighted, shown.selected);
        mark(
            list,
            shown,
            viewed,
            None,
            "viewed",
            ("aria-current", "step"),
        );
        mark(
            list,
            shown,
            selected,
            None,
            "selected",
            ("aria-describedby", "trace-wire-note"),
        );
        let entries = shown.entries.split_off(keep);
        shown.parked = Some(park_from(list, keep, entries));
        earlier
    } else {
        None
    };
    let mut next = keep;
    if let Some(p) = earlier.filter(|p| p.from == keep && trace[keep..].starts_with(&p.entries)) {
        if let (false, Some(block)) = (p.tail.is_empty(), list.last_element_child()) {
            for row in &p.tail {
                let _ = block.append_child(row);
            }
        }
        for block in &p.blocks {
            let _ = list.append_child(block);
        }
        shown.entries.extend_from_slice(&p.entries);
        next += p.entries.len();
    }
    // Whether the reader is at the end, read (a layout) only when entries come.
    let stick = keep < trace.len()
        && scroller.scroll_top() + scroller.client_height() + 40 >= scroller.scroll_height();
    let document = document();
    for (i, entry) in trace.iter().enumerate().skip(next) {
        let Ok(block) = open_block(&document, list) else {
            break;
        };
        let Ok(item) = render_entry(&document, trace, i) else {
            break;
        };
        if block.append_child(&item).is_err() {
            break;
        }
        shown.entries.push(*entry);
    }
    if keep != k || keep < trace.len() {
        mark_skippable(list, keep / BLOCK);
    }
    // Highlight the entry that produced the viewed recorded state, and mark
    // the one selected for the Wire panel.
    let viewed = Some(e.viewed_record().id);
    let mut reveal = None;
    if shown.highlighted != viewed || keep < k {
        let el = mark(
            list,
            shown,
            shown.highlighted,
            viewed,
            "viewed",
            ("aria-current", "step"),
        );
        // Moving through recorded states (seek, another task) brings the
        // viewed entry into view. New entries are left to following, so a
        // reader scrolled up is not pulled down while a task plays.
        if keep == k && keep == trace.len() {
            reveal = el;
        }
        shown.highlighted = viewed;
    }
    // Picked now: maybe the entry the page drew as the latest a moment ago,
    // a request sent while viewing the past.
    let newly_picked = picked && (!shown.picked || shown.selected != selected);
    if shown.selected != selected || keep < k || newly_picked {
        let el = mark(
            list,
            shown,
            shown.selected,
            selected,
            "selected",
            ("aria-describedby", "trace-wire-note"),
        );
        // Another entry selected (a click, ‹ › in the Wire panel, ↑ ↓ here,
        // a request sent while viewing the past) comes into view, unless the
        // viewed one moved too.
        if (keep == k && keep == trace.len() && shown.selected != selected) || newly_picked {
            reveal = reveal.or(el);
        }
        shown.selected = selected;
    }
    shown.picked = picked;
    if stick {
        scroller.set_scroll_top(scroller.scroll_height());
    }
    if let Some(el) = reveal {
        bring_into_view(scroller, &el);
    }
}

/// Scrolls the trace (and nothing else) so that `el` is in view, a third of
/// the way down, unless it already is.
pub(super) fn bring_into_view(scroller: &web_sys::Element, el: &web_sys::Element) {
    let view = scroller.get_bounding_client_rect();
    let rect = el.get_bounding_client_rect();
    if rect.top() >= view.top() && rect.bottom() <= view.bottom() {
        return;
    }
    let offset = rect.top() - view.top() - view.height() / 3.0;
    scroller.set_scroll_top(scroller.scroll_top() + offset as i32);
}

/// Moves class `class` and attribute `attr` (its name and value) from the
/// entry with seq `from` to the one with seq `to`, and gives the latter's
/// element.
fn mark(
    list: &web_sys::Element,
    shown: &Shown,
    from: Option<u32>,
    to: Option<u32>,
    class: &str,
    (attr, value): (&str, &str),
) -> Option<web_sys::Element> {
    let blocks = list.children();
    let mut marked = None;
    for (seq, on) in [(from, false), (to, true)] {
        // The list's seqs increase, so an entry's row is found by binary search.
        let Some(Ok(i)) = seq.map(|s| shown.entries.binary_search_by_key(&s, |t| t.seq)) else {
            continue;
        };
        let block = blocks.item((i / BLOCK) as u32);
        if let Some(el) = block.and_then(|b| b.children().item((i % BLOCK) as u32)) {
            let _ = el.class_list().toggle_with_force(class, on);
            let _ = match on {
                true => el.set_attribute(attr, value),
                false => el.remove_attribute(attr),
            };
            if on {
                marked = Some(el);
            }
        }
    }
    marked
}

/// Lets every block but the two newest skip layout while off screen. Blocks
/// change only from block `first` on (where entries were removed or added:
/// a whole run loaded at once adds many), and the last three may have moved.
fn mark_skippable(list: &web_sys::Element, first: usize) {
    let blocks = list.children();
    let n = blocks.length();
    for i in (first as u32).min(n.saturating_sub(3))..n {
        if let Some(block) = blocks.item(i) {
            let class = if i + 2 < n { "block full" } else { "block" };
            if block.class_name() != class {
                block.set_class_name(class);
            }
        }
    }
}

/// Takes the rows of `entries`, drawn from the `keep`th on, off the list
/// and keeps them aside: whole blocks at once (a fresh experiment or a
/// branch taken early may drop thousands), and the tail of the block `keep`
/// ends in.
fn park_from(list: &web_sys::Element, keep: usize, entries: Vec<TraceEntry>) -> Parked {
    let kept_blocks = keep.div_ceil(BLOCK);
    let mut blocks = Vec::new();
    while list.child_element_count() as usize > kept_blocks {
        let Some(block) = list.last_element_child() else {
            break;
        };
        block.remove();
        blocks.push(block);
    }
    blocks.reverse();
    let mut tail = Vec::new();
    if let (true, Some(block)) = (keep > 0, list.last_element_child()) {
        let left = keep - (kept_blocks - 1) * BLOCK;
        while block.child_element_count() as usize > left {
            let Some(row) = block.last_element_child() else {
                break;
            };
            row.remove();
            tail.push(row);
        }
    }
    tail.reverse();
    Parked {
        from: keep,
        entries,
        tail,
        blocks,
    }
}

/// The list's last block if it has room, else a new one.
fn open_block(
    document: &web_sys::Document,
    list: &web_sys::Element,
) -> Result<web_sys::Element, wasm_bindgen::JsValue> {
    if let Some(last) = list.last_element_child() {
        if (last.child_element_count() as usize) < BLOCK {
            return Ok(last);
        }
    }
    let block = document.create_element("div")?;
    block.set_class_name("block");
    list.append_child(&block)?;
    Ok(block)
}

fn render_entry(
    document: &web_sys::Document,
    trace: &[TraceEntry],
    i: usize,
) -> Result<web_sys::Element, wasm_bindgen::JsValue> {
    let t = &trace[i];
    let discarded_before = discarded_before(trace, i);
    let li = document.create_element("div")?;
    li.set_attribute("role", "listitem")?;
    li.set_attribute("data-testid", "trace-entry")?;
    li.set_attribute("data-seq", &t.seq.to_string())?;
    let outcome_class = match t.outcome {
        Outcome::Done => "ok",
        Outcome::Unchanged(_) => "unchanged",
        Outcome::Refused(_) => "refused",
    };
    li.set_class_name(&format!(
        "entry {outcome_class} {}{}",
        t.actor.label(),
        match (hidden_with_ticks(trace, i), t.is_tick()) {
            (true, _) => " tick",
            // Drawn as a second that changes nothing, yet not hidden.
            (false, true) if discarded_before == 0 => " tick unit-done",
            _ => "",
        }
    ));
    if discarded_before > 0 {
        let span = document.create_element("span")?;
        span.set_class_name("gap");
        // Their numbers, so that the jump to this entry's reads as theirs.
        let first = t.seq - discarded_before;
        let numbers = if discarded_before == 1 {
            format!("#{first}")
        } else {
            format!("#{first}–#{}", t.seq - 1)
        };
        span.set_text_content(Some(&format!(
            "⋯ {discarded_before} entr{} ({numbers}) discarded here by branching",
            if discarded_before == 1 { "y" } else { "ies" }
        )));
        li.append_child(&span)?;
    }
    // Display names PAUSED with "(proposal)". An entry that changes no state
    // names it once: "WORKING → WORKING" would read as a transition.
    let states = match t.before {
        Some(before) if before == t.after => format!("{before}, unchanged"),
        before => format!(
            "{} → {}",
            before.map_or_else(|| "—".to_string(), |s| s.to_string()),
            t.after
        ),
    };
    // The states and the outcome share a line, which wraps where narrow.
    let result = document.create_element("span")?;
    result.set_class_name("result");
    let cells = [
        (&li, "seq", format!("#{}", t.seq)),
        (&li, "task", format!("T{}", t.task + 1)),
        (&li, "time", format!("{} s", t.active_s)),
        (&li, "actor", t.actor.label().to_string()),
        (&li, "what", t.what()),
        (&result, "states", format!("{states}{}", waiting_clock(t))),
        (&result, "outcome", t.outcome_text()),
    ];
    for (parent, class, text) in cells {
        let span = document.create_element("span")?;
        span.set_class_name(class);
        span.set_text_content(Some(&text));
        parent.append_child(&span)?;
    }
    li.append_child(&result)?;
    Ok(li)
}

/// The task's waiting time after the entry, where a pause (proposal) ever
/// ran its clock: said after the state, as the active time is said before.
fn waiting_clock(t: &TraceEntry) -> String {
    match t.waiting_s {
        0 => String::new(),
        s => format!(" · waiting {}", crate::model::waiting_words(s)),
    }
}

/// The seq of the trace entry a click landed in, if any.
fn clicked_seq(ev: &web_sys::MouseEvent) -> Option<u32> {
    let target: web_sys::Element = ev.target()?.dyn_into().ok()?;
    let li = target.closest("[data-seq]").ok()??;
    li.get_attribute("data-seq")?.parse().ok()
}

/// Sequence numbers missing before entry `i` went with the branches
/// discarded there (all of them, if the run branched there more than once).
fn discarded_before(trace: &[TraceEntry], i: usize) -> u32 {
    i.checked_sub(1)
        .map_or(0, |p| trace[i].seq.saturating_sub(trace[p].seq + 1))
}

/// The entries listed even among hidden seconds and minutes (see [`listed`]):
/// the viewed state's and `selected`, the one the Wire panel shows.
pub(super) fn stays(e: &Experiment, selected: Option<u32>) -> [Option<u32>; 2] {
    [Some(e.viewed_record().id), selected]
}

/// Whether the trace lists entry `i`: with `all` the seconds and minutes
/// that change no state, every entry; without, the others and those of
/// `stays` (from [`stays`]). ↑ ↓
/// and ‹ › move through these.
pub(super) fn listed(trace: &[TraceEntry], i: usize, all: bool, stays: [Option<u32>; 2]) -> bool {
    all || !hidden_with_ticks(trace, i) || stays.contains(&Some(trace[i].seq))
}

/// Whether entry `i` is hidden with the seconds and minutes that change no
/// state (unless viewed or selected): one that marks a discarded branch is
/// not, nor one that finishes a unit (the work done so far, which a resume
/// keeps).
fn hidden_with_ticks(trace: &[TraceEntry], i: usize) -> bool {
    let t = &trace[i];
    let unit_done = matches!(
        t.event,
        Event::Worked {
            unit_done: true,
            ..
        }
    );
    t.is_tick() && !unit_done && discarded_before(trace, i) == 0
}
