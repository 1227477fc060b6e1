//! The live transition trace (`role="log"`), oldest first.
//!
//! The list can hold tens of thousands of entries, so it is kept in sync with
//! the model by hand: a new entry appends one item; a discarded branch removes
//! exactly the entries that went; nothing else is re-rendered. Text is set
//! with `textContent`, never parsed as HTML.
//!
//! Entries are grouped in blocks of [`BLOCK`]. A full block is skipped by
//! layout and paint while off screen (`content-visibility: auto` on
//! `.block.full`), so a frame lays out about a hundred boxes whatever the
//! length of the trace. The newest block is never skipped: its entries have
//! their real height when the trace scrolls to follow the newest one, which
//! therefore ends exactly at its bottom, even where entries wrap (a phone).

use super::store::Store;
use super::wire::WireView;
use crate::model::{Experiment, Outcome, TraceEntry};
use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Entries per block of the list.
const BLOCK: usize = 100;

/// What the DOM list currently shows.
#[derive(Default)]
struct Shown {
    context: String,
    seqs: Vec<u32>,
    highlighted: Option<u32>,
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
        store
            .exp
            .with(|e| shown.update_value(|s| sync(&list, &scroller, e, s)));
    });
    let count = move || store.exp.with(|e| e.trace().len());
    view! {
        <section class="panel trace-panel" aria-labelledby="trace-h">
            <h2 id="trace-h">
                "State and action trace "
                <span class="muted" data-testid="trace-count">{move || format!("({} entries)", count())}</span>
            </h2>
            <p class="hint trace-legend">"# · task · active time · actor · action · state before → after · outcome"</p>
            <div
                class="trace-scroll"
                role="log"
                aria-live="off"
                aria-labelledby="trace-h"
                tabindex="0"
                data-testid="trace"
                node_ref=scroller
                on:click=move |ev| {
                    if let Some(seq) = clicked_seq(&ev) {
                        store.wire_view.set(WireView::Entry(seq));
                    }
                }
            >
                <div class="trace" role="list" aria-label="Trace entries, oldest first" node_ref=list></div>
            </div>
        </section>
    }
}

fn sync(list: &web_sys::Element, scroller: &web_sys::Element, e: &Experiment, shown: &mut Shown) {
    let trace = e.trace();
    if shown.context != e.context_id() {
        list.set_text_content(None);
        shown.seqs.clear();
        shown.highlighted = None;
        shown.context = e.context_id().to_string();
    }
    let k = shown.seqs.len();
    let keep = if k <= trace.len() && (k == 0 || trace[k - 1].seq == shown.seqs[k - 1]) {
        k
    } else {
        // Entries are only ever removed or appended, and their seqs increase:
        // the first mismatch is where the discarded branch began.
        shown
            .seqs
            .iter()
            .zip(trace)
            .take_while(|(s, t)| **s == t.seq)
            .count()
    };
    for _ in keep..k {
        if let Some(block) = list.last_element_child() {
            if let Some(last) = block.last_element_child() {
                last.remove();
            }
            match block.child_element_count() {
                0 => block.remove(),
                _ => block.set_class_name("block"),
            }
        }
    }
    shown.seqs.truncate(keep);
    let stick = scroller.scroll_top() + scroller.client_height() + 40 >= scroller.scroll_height();
    let document = document();
    for entry in &trace[keep..] {
        let Ok(block) = open_block(&document, list) else {
            break;
        };
        let Ok(item) = render_entry(&document, entry) else {
            break;
        };
        if block.append_child(&item).is_err() {
            break;
        }
        if block.child_element_count() as usize == BLOCK {
            block.set_class_name("block full");
        }
        shown.seqs.push(entry.seq);
    }
    // Highlight the entry that produced the viewed recorded state.
    let viewed = e.viewed_record().id;
    if shown.highlighted != Some(viewed) {
        let blocks = list.children();
        for (seq, on) in [(shown.highlighted, false), (Some(viewed), true)] {
            // The list's seqs increase, so an entry's row is found by binary search.
            if let Some(Ok(i)) = seq.map(|s| shown.seqs.binary_search(&s)) {
                let block = blocks.item((i / BLOCK) as u32);
                if let Some(el) = block.and_then(|b| b.children().item((i % BLOCK) as u32)) {
                    let _ = el.class_list().toggle_with_force("viewed", on);
                }
            }
        }
        shown.highlighted = Some(viewed);
    }
    if stick && keep < trace.len() {
        scroller.set_scroll_top(scroller.scroll_height());
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
    t: &TraceEntry,
) -> Result<web_sys::Element, wasm_bindgen::JsValue> {
    let li = document.create_element("div")?;
    li.set_attribute("role", "listitem")?;
    li.set_attribute("data-testid", "trace-entry")?;
    li.set_attribute("data-seq", &t.seq.to_string())?;
    let outcome_class = match t.outcome {
        Outcome::Done => "ok",
        Outcome::Unchanged => "unchanged",
        Outcome::Refused(_) => "refused",
    };
    li.set_class_name(&format!("entry {outcome_class} {}", t.actor.label()));
    let before = t.before.map_or("—", |s| s.name());
    let cells = [
        ("seq", format!("#{}", t.seq)),
        ("task", format!("T{}", t.task + 1)),
        ("time", format!("{} s", t.active_s)),
        ("actor", t.actor.label().to_string()),
        ("what", t.event.to_string()),
        ("states", format!("{before} → {}", t.after.name())),
        ("outcome", t.outcome_text()),
    ];
    for (class, text) in cells {
        let span = document.create_element("span")?;
        span.set_class_name(class);
        span.set_text_content(Some(&text));
        li.append_child(&span)?;
    }
    Ok(li)
}

/// The seq of the trace entry a click landed in, if any.
fn clicked_seq(ev: &web_sys::MouseEvent) -> Option<u32> {
    let target: web_sys::Element = ev.target()?.dyn_into().ok()?;
    let li = target.closest("[data-seq]").ok()??;
    li.get_attribute("data-seq")?.parse().ok()
}
