//! The Wire panel: each trace entry as the exact A2A v1.0 JSON-RPC / SSE
//! messages, requests a user may send on purpose, the agent card, and the
//! whole run as a downloadable JSON Lines transcript.

use super::store::Store;
use super::trace::{listed, stays};
use crate::model::{
    after_colon, Action, Experiment, Outcome, Refusal, TaskState, TerminalRequestStop, TraceEntry,
};
use crate::wire::{self, PauseEncoding, Transport, WireMessage};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// What the Wire panel shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireView {
    /// The exchange of the latest trace entry.
    Latest,
    /// The exchange of one trace entry.
    Entry(u32),
    /// `GetTask` for the viewed task, sent on demand.
    GetTask,
    /// `SubscribeToTask` for the viewed task, sent on demand.
    Subscribe,
    /// `ListTasks` for the context, sent on demand.
    ListTasks,
    /// `GetTask` for a task id the agent never issued, sent on demand.
    GetUnknownTask,
}

/// The `historyLength` values *Get task* offers, and how each is shown.
const HISTORY_LENGTHS: [(Option<u32>, &str); 5] = [
    (None, "unset (no limit)"),
    (Some(0), "0 (none)"),
    (Some(1), "1"),
    (Some(2), "2"),
    (Some(3), "3"),
];

#[component]
pub fn WirePanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let view_kind = store.wire_view;
    // Which trace entry is shown (for Latest and Entry).
    let shown = Memo::new(move |_| {
        store
            .exp
            .with(|e| selected(view_kind.get(), e).and_then(|s| e.trace_entry(s).copied()))
    });
    let entry = move || shown.with(|t| t.map(|t| t.seq));
    let in_past = move || store.exp.with(Experiment::views_the_past);
    let proposal = move || store.config.with(|c| c.pause_proposal);
    // The exchange shown, with the pause proposal in `enc`.
    let exchange = move |enc: PauseEncoding| {
        let start = store.started_ms.get();
        let kind = view_kind.get();
        let seq = entry();
        store.exp.with(|e| match kind {
            WireView::GetTask => {
                wire::get_task_with_history(e, start, enc, store.get_task_history.get())
            }
            WireView::Subscribe => wire::subscribe(e, start, enc),
            WireView::ListTasks => wire::list_tasks(e, start, enc),
            WireView::GetUnknownTask => wire::get_unknown_task(e),
            _ => seq.map_or_else(Vec::new, |s| wire::entry_messages_in(e, s, start, enc)),
        })
    };
    let messages = Memo::new(move |_| exchange(store.pause_encoding.get()));
    // Proposal: the same exchange in the other pause encoding, side by side
    // with the one chosen; worked out only while it is open.
    let other_encoding = move || store.pause_encoding.get().other();
    let compare_open = RwSignal::new(false);
    let compared = Memo::new(move |_| {
        if proposal() && compare_open.get() {
            exchange(other_encoding())
        } else {
            Vec::new()
        }
    });
    let compared_same = move || {
        messages.with(|ms| {
            compared.with(|cs| {
                ms.len() == cs.len()
                    && ms
                        .iter()
                        .zip(cs)
                        .all(|(m, c)| m.payload_type == c.payload_type && m.message == c.message)
            })
        })
    };
    let heading = move || match view_kind.get() {
        WireView::GetTask => match store.get_task_history.get() {
            None => "On demand: GetTask for the viewed task".to_string(),
            Some(n) => format!("On demand: GetTask for the viewed task, historyLength {n}"),
        },
        WireView::Subscribe => "On demand: SubscribeToTask for the viewed task".to_string(),
        WireView::ListTasks => "On demand: ListTasks for this context".to_string(),
        WireView::GetUnknownTask => {
            "On demand: GetTask for a task id this agent never issued".to_string()
        }
        _ => match shown.get() {
            Some(t) => format!(
                "Trace entry #{} ({}): {} {}",
                t.seq,
                match view_kind.get() {
                    WireView::Latest => store.exp.with(|e| {
                        let newest = up_to_view(e).last().map(|n| n.seq) == Some(t.seq);
                        match (in_past(), newest) {
                            (true, true) => "viewed state".into(),
                            (true, false) => "last exchange up to the viewed state".into(),
                            (false, true) => "latest".into(),
                            (false, false) => format!(
                                "latest to send messages; the {} since sent none",
                                ticks_after(e, t.seq)
                            ),
                        }
                    }),
                    _ => "selected".into(),
                },
                t.actor.label(),
                t.what()
            ),
            None => "No trace entry".into(),
        },
    };
    // The note beside the exchange shown, if it needs one.
    let note = move || {
        let kind = view_kind.get();
        let t = shown.get();
        let core = store.pause_encoding.get() == PauseEncoding::ProposedCore;
        store.exp.with(|e| {
            messages.with(|ms| match (kind, t) {
                (WireView::Latest | WireView::Entry(_), Some(t)) => entry_note(e, &t, ms, core),
                (WireView::Latest | WireView::Entry(_), None) => None,
                (on_demand, _) => on_demand_note(e, on_demand, ms),
            })
        })
    };
    // Why an entry has no messages: the client did not send what the page
    // refused, or it happened inside the agent or the simulator.
    let nothing_sent = move || {
        let refused = shown.with(|t| t.is_some_and(|t| matches!(t.outcome, Outcome::Refused(_))));
        if refused {
            "Nothing on the wire for this entry: it was refused before anything was sent."
        } else {
            "Nothing on the wire for this entry: it happens inside the agent or the simulator."
        }
    };
    // A request sent on demand: its exchange shows here, an alert about an
    // earlier request is answered, and the status line says what the agent
    // answered (a screen reader hears it).
    // `pressed`: the control that sent it (its event's current target).
    let on_demand = move |kind: WireView, request: &str, pressed: Option<web_sys::EventTarget>| {
        store.alert.set(None);
        // What the last notice said (a copy, say) has been read; a way back
        // (Undo) stays until the next action on the run.
        if store.notice_undo().is_none() {
            store.notice.set(None);
        }
        view_kind.set(kind);
        if let Some(answer) = messages.with_untracked(|m| m.last().map(wire::answer)) {
            store.say(format!(
                "{request}: the agent answers {answer}; Wire shows the exchange."
            ));
        }
        reveal_exchange(pressed);
    };
    // Whether the entry shown is the first (or the last) the trace lists.
    let at_end = move |first: bool| {
        let shown = entry();
        let all = store.show_ticks.get();
        store.exp.with(|e| {
            let trace = e.trace();
            let stays = stays(e, shown);
            let mut listed = (0..trace.len()).filter(|&i| listed(trace, i, all, stays));
            let end = if first {
                listed.next()
            } else {
                listed.next_back()
            };
            shown.is_some() && end.map(|i| trace[i].seq) == shown
        })
    };
    let select_by = move |delta: isize| select_by(store, delta);
    // The terminal-task requests (with the proposal on, a PauseTask too) go
    // to the viewed task once it is terminal and reached as it is now, each
    // whenever the model would put the action it sends on the wire: Ok, or
    // why not.
    let terminal_requests = Memo::new(move |_| {
        let mut requests = vec![
            (
                "Message to terminal task",
                Action::SupplyClarification(store.clarification.get()),
            ),
            ("Cancel terminal task", Action::RequestCancellation),
        ];
        if proposal() {
            requests.push(("Pause terminal task", store.pause_action()));
        }
        store.exp.with(|e| terminal_verdicts(e, requests))
    });
    let request_ok = move |name: &str| {
        terminal_requests.with(|v| v.iter().any(|(n, r)| *n == name && r.is_ok()))
    };
    let terminal_reason = move || {
        terminal_requests.with(|v| {
            store
                .clarification
                .with(|text| terminal_requests_reason(v, text))
        })
    };
    // With the proposal on, the card declares it: as the RFC's capability
    // flags (not v1.0 fields) or as a v1.0 extension.
    let card_title = move || match (proposal(), store.pause_encoding.get()) {
        (false, _) => "Agent card (AgentCard)",
        (true, PauseEncoding::ProposedCore) => {
            "Agent card (proposal: AgentCard with the RFC's pause capabilities, not A2A v1.0)"
        }
        (true, PauseEncoding::V1Extension) => {
            "Agent card (AgentCard declaring the pause extension, a proposal)"
        }
    };
    // One message as its object; several as an array: valid JSON either way.
    let raw = move || {
        messages
            .with(|ms| match ms.as_slice() {
                [one] => serde_json::to_string_pretty(&one.message),
                all => serde_json::to_string_pretty(
                    &all.iter().map(|m| &m.message).collect::<Vec<_>>(),
                ),
            })
            .unwrap_or_default()
    };
    let copied = RwSignal::new(0);
    let whole = RwSignal::new(false);
    let copy = move |_| super::inspect::copy_text(store, raw(), "Messages", copied);
    let export = move |_| {
        let (start, enc) = (
            store.started_ms.get_untracked(),
            store.pause_encoding.get_untracked(),
        );
        let messages = store
            .exp
            .with_untracked(|e| wire::transcript_in(e, start, enc));
        let (n, tasks) = (
            messages.len(),
            store.exp.with_untracked(|e| e.tasks().len()),
        );
        let done = format!(
            "Transcript saved as a2a-transcript.jsonl, in your downloads: {n} message{} of {tasks} task{}, one JSON object per line.",
            super::store::plural(n),
            super::store::plural(tasks)
        );
        let jsonl = wire::to_jsonl(&messages);
        super::persist::download(
            store,
            "a2a-transcript.jsonl",
            "application/jsonl",
            &jsonl,
            done,
        );
    };
    let note_view = move || note().map(|n| view! { <p class="warning">{n}</p> });
    view! {
        <section class="panel wire" aria-labelledby="wire-h">
            <h2 id="wire-h">
                "Wire: A2A v1.0 JSON-RPC messages"
                {move || proposal().then_some(", and the pause proposal (not v1.0)")}
            </h2>
            <div class="buttons">
                <button id="wire-get-task" on:click=move |ev| on_demand(WireView::GetTask, "Get task", ev.current_target())>"Get task"</button>
                <button id="wire-subscribe" on:click=move |ev| on_demand(WireView::Subscribe, "Subscribe to task", ev.current_target())>"Subscribe to task"</button>
                <button id="wire-list-tasks" on:click=move |ev| on_demand(WireView::ListTasks, "List tasks", ev.current_target())>"List tasks"</button>
                <button id="wire-get-unknown" on:click=move |ev| on_demand(WireView::GetUnknownTask, "Get unknown task", ev.current_target())>"Get unknown task"</button>
                <button
                    id="wire-message-terminal"
                    aria-describedby="terminal-requests-reason"
                    disabled=move || !request_ok("Message to terminal task")
                    on:click=move |ev: web_sys::MouseEvent| {
                        let text = store.clarification.get_untracked();
                        store.send_to_be_refused(Action::SupplyClarification(text), "Message to terminal task");
                        reveal_exchange(ev.current_target());
                    }
                >
                    "Message to terminal task"
                </button>
                <button
                    id="wire-cancel-terminal"
                    aria-describedby="terminal-requests-reason"
                    disabled=move || !request_ok("Cancel terminal task")
                    on:click=move |ev: web_sys::MouseEvent| {
                        store.send_to_be_refused(Action::RequestCancellation, "Cancel terminal task");
                        reveal_exchange(ev.current_target());
                    }
                >
                    "Cancel terminal task"
                </button>
                <Show when=proposal>
                    <button
                        id="wire-pause-terminal"
                        aria-describedby="terminal-requests-reason"
                        disabled=move || !request_ok("Pause terminal task")
                        on:click=move |ev: web_sys::MouseEvent| {
                            store.send_to_be_refused(store.pause_action(), "Pause terminal task");
                            reveal_exchange(ev.current_target());
                        }
                    >
                        "Pause terminal task (proposal)"
                    </button>
                </Show>
            </div>
            <p id="terminal-requests-reason" class="reason">{terminal_reason}</p>
            <p class="hint">
                "Get task, Subscribe to task, List tasks and Get unknown task only read: their exchange shows here "
                "and nothing is added to the trace. The terminal-task requests are recorded in "
                "the trace with the agent's error; the message carries the Clarification text"
                {move || proposal().then_some(", the pause Act's Pause mode and Pause reason")}
                "."
            </p>
            <Show when=proposal>
                <div class="field field-text">
                    <label for="pause-encoding">"Pause encoding"</label>
                    <select
                        id="pause-encoding"
                        on:change=move |ev| {
                            let ext = event_target_value(&ev) == "ext";
                            store.pause_encoding.set(if ext {
                                PauseEncoding::V1Extension
                            } else {
                                PauseEncoding::ProposedCore
                            });
                            // What the status line said of an answer may
                            // name a state this encoding writes otherwise.
                            store.say(format!(
                                "Pause encoding: {}; the Wire panel shows the same exchanges in it.",
                                if ext { "the proposal in a v1.0 extension" } else { "proposed core (proposal, not A2A v1.0)" }
                            ));
                        }
                    >
                        <option value="core" prop:selected=move || store.pause_encoding.get() == PauseEncoding::ProposedCore>
                            {encoding_label(PauseEncoding::ProposedCore)}
                        </option>
                        <option value="ext" prop:selected=move || store.pause_encoding.get() == PauseEncoding::V1Extension>
                            {encoding_label(PauseEncoding::V1Extension)}
                        </option>
                    </select>
                </div>
                <p class="hint">
                    "Proposed core: TASK_STATE_PAUSED, status.pause, PauseTask and ResumeTask, as the RFC "
                    "proposes. v1.0 extension: the task stays TASK_STATE_WORKING and the pause travels "
                    "in metadata under an extension URI the agent card declares (this page's own "
                    "example, not a published extension)."
                </p>
                <details class="hint">
                    <summary>"What the v1.0 extension asks of an agent"</summary>
                    "The client activates it on every request (header A2A-Extensions), so the agent "
                    "may send a pause it takes itself on the task's first stream. "
                    "Its messages are legal v1.0, but the agent must take a message while it works: "
                    "a2a-sdk 1.3.0's default request handler queues it until the running work ends. "
                    "This agent also clears the pause from the task's metadata on resume, which "
                    "a2a-sdk's task store, merging metadata, would not. "
                    "An extension may also add methods of its own, so PauseTask and ResumeTask "
                    "could be JSON-RPC methods the extension defines, sent without a message in "
                    "the task's history, as the RFC wants of ResumeTask. This page sends them as "
                    "SendMessage instead, which every v1.0 client and SDK can send today; the price: "
                    "an agent that does not know the extension gets an ordinary message it may "
                    "act on, where it would refuse an unknown method."
                </details>
            </Show>
            <div class="wire-bar">
                <p class="readout" data-testid="wire-heading">{heading}</p>
                <span class="wire-steps">
                    <button class="icon" aria-label="Previous trace entry" aria-disabled=move || super::at_its_end(at_end(true)) on:click=move |_| select_by(-1)>"‹"</button>
                    <button class="icon" aria-label="Next trace entry" aria-disabled=move || super::at_its_end(at_end(false)) on:click=move |_| select_by(1)>"›"</button>
                </span>
                <button class="link" data-testid="wire-latest" aria-label="Latest trace entry" on:click=move |_| follow_latest(store)>"Latest"</button>
                <button
                    class="link"
                    disabled=move || messages.with(Vec::is_empty)
                    on:click=copy
                >
                    {move || super::inspect::copy_label(copied, "Copy JSON")}
                </button>
                <button class="link" on:click=export>"Export transcript"</button>
            </div>
            // Off: the exchange keeps one height while a task plays (the
            // list, its note and the SSE line share it), each long message
            // scrolling in its own box. On: every message whole, to read or
            // show one in full (the page then grows with them).
            <super::actions::Toggle label="Show whole messages".to_string() value=whole/>
            // What Get task asks for of the task's history, beside its exchange.
            <Show when=move || view_kind.get() == WireView::GetTask>
                <div class="field history-length">
                    <label for="get-task-history">"historyLength"</label>
                    <select
                        id="get-task-history"
                        aria-describedby="get-task-history-hint"
                        on:change=move |ev| {
                            let limit = event_target_value(&ev).parse().ok();
                            store.get_task_history.set(limit);
                            // Sent again, and said, as the button's press is.
                            let request = match limit {
                                None => "Get task".to_string(),
                                Some(n) => format!("Get task with historyLength {n}"),
                            };
                            on_demand(WireView::GetTask, &request, ev.current_target());
                        }
                    >
                        {HISTORY_LENGTHS
                            .into_iter()
                            .map(|(n, label)| view! {
                                <option
                                    value=n.map(|n| n.to_string()).unwrap_or_default()
                                    prop:selected=move || store.get_task_history.get() == n
                                >
                                    {label}
                                </option>
                            })
                            .collect_view()}
                    </select>
                    <span class="hint" id="get-task-history-hint">
                        "How many of the newest history messages Get task asks for: unset, \
                         the client sets no limit (this agent sends them all; another may send \
                         fewer); 0, none (history left out)."
                    </span>
                </div>
            </Show>
            // A self-park's exchange has a longer note: more room when one is set up.
            <div
                class="wire-view"
                class:whole=move || whole.get()
                class:self-park=move || store.config.with(crate::model::Config::self_parks)
            >
            // The note first, as a screen reader reads the panel: before the
            // messages it explains. Not whole, it is drawn under the list
            // (style: `order`), so that the list starts where it did when a
            // note comes or goes while a task plays; shown whole, the page
            // grows anyway, and it is drawn first too.
            {note_view}
            <ol class="messages-list" class:whole=move || whole.get() data-testid="wire-messages">
                {move || messages.with(|ms| {
                    if ms.is_empty() {
                        view! { <li class="muted">{nothing_sent}</li> }.into_any()
                    } else {
                        let active = wire::activates_pause_extension(
                            proposal(),
                            store.pause_encoding.get(),
                        );
                        render_messages(ms, active, "").into_any()
                    }
                })}
            </ol>
            // How the frames above travel, said once for the exchange, under
            // the list.
            {move || messages.with(|ms| ms.iter().find_map(wire::sse_event)).map(|first| view! {
                <p class="http" data-testid="wire-sse">
                    "Each SSE frame travels as one server-sent event: a data: line holding its \
                     JSON-RPC response on one line, then a blank line. The first here: "
                    {first}
                </p>
            })}
            </div>
            <Show when=proposal>
                <details
                    class="compare"
                    data-testid="wire-compare"
                    prop:open=move || compare_open.get()
                    on:toggle=move |ev| {
                        compare_open.set(event_target::<web_sys::Element>(&ev).has_attribute("open"));
                    }
                >
                    <summary id="wire-compare-open">
                        {move || format!(
                            "Compare: the same exchange in the other pause encoding, {}",
                            encoding_label(other_encoding())
                        )}
                    </summary>
                    {move || {
                        if !compare_open.get() || messages.with(Vec::is_empty) {
                            return None;
                        }
                        if compared_same() {
                            return Some(view! {
                                <p class="muted" data-testid="wire-compare-same">
                                    "The same JSON in both encodings: this exchange does not touch the pause. \
                                     In the extension encoding, only its A2A-Extensions request and response headers differ."
                                </p>
                            }.into_any());
                        }
                        let active = wire::activates_pause_extension(true, other_encoding());
                        Some(view! {
                            <ol class="messages-list" data-testid="wire-compare-messages">
                                {compared.with(|cs| render_messages(cs, active, encoding_label(other_encoding())))}
                            </ol>
                        }.into_any())
                    }}
                </details>
            </Show>
            <details class="card">
                <summary data-testid="agent-card-title">{card_title}</summary>
                <pre class="json" tabindex="0" role="group" aria-label="Agent card JSON">
                    {move || {
                        let card = wire::agent_card_in(proposal(), store.pause_encoding.get());
                        json_lines(serde_json::to_string_pretty(&card).unwrap_or_default())
                    }}
                </pre>
            </details>
            <p class="hint">
                "Selecting a trace entry (a click, or ↑ ↓ in the focused trace) shows its messages. Timestamps derive from the experiment's "
                "start plus simulated time, 1 ms more for each later entry in the same second, so "
                "they strictly increase; the same experiment always yields the same messages. "
                "A wait for a clarification or an authorization takes no simulated time, so the "
                "agent's WORKING statusUpdate after the answer is stamped at least 1 ms after the "
                "one that asked (an A2A Message, such as the clarification, has no timestamp field; a TaskStatus carries one)."
            </p>
        </section>
    }
}

/// Brings the start of the exchange a Wire request shows into view when it
/// lies low on the screen or below it (a laptop's height, a phone), up to a
/// third of the way down the screen: beside a phone's, never the control
/// `pressed` above the part of the screen the strip, notice and alert leave
/// clear; on a phone, where the panel's buttons and notes take a screen,
/// the exchange comes first.
fn reveal_exchange(pressed: Option<web_sys::EventTarget>) {
    let pressed = pressed.and_then(|p| p.dyn_into::<web_sys::Element>().ok());
    request_animation_frame(move || {
        let list = document()
            .query_selector(".wire .messages-list")
            .ok()
            .flatten();
        let (Some(list), Some(pressed)) = (list, pressed) else {
            return;
        };
        let (_, height) = super::app::window_size();
        let start = list.get_bounding_client_rect().top();
        if start <= height * 0.75 {
            return;
        }
        let by = start - height / 3.0;
        // Wider than the style sheet's phone layout, or pressed from the
        // keyboard (at any width: 400 % zoom is a phone's), the button,
        // which keeps the focus, stays on screen.
        let keyed = pressed.matches(":focus-visible").unwrap_or(false);
        let by = match super::app::layout() > super::app::Layout::Phone || keyed {
            true => {
                let (clear, _) = super::app::clear_band();
                // With room to breathe.
                by.min(pressed.get_bounding_client_rect().top() - clear - 8.0)
            }
            false => by,
        };
        if by > 0.0 {
            window().scroll_by_with_x_and_y(0.0, by);
        }
    });
}

/// A pause encoding as the page names it.
fn encoding_label(enc: PauseEncoding) -> &'static str {
    match enc {
        PauseEncoding::ProposedCore => "Proposed core (proposal, not A2A v1.0)",
        PauseEncoding::V1Extension => "Proposal in a v1.0 extension (legal today)",
    }
}

/// The entry the panel shows for `view` (outlined in the trace): the one
/// picked while it is in the trace, else the one Latest shows; none for an
/// on-demand request.
pub(super) fn selected(view: WireView, e: &Experiment) -> Option<u32> {
    match view {
        WireView::Entry(seq) if e.trace_entry(seq).is_some() => Some(seq),
        WireView::Latest | WireView::Entry(_) => latest(e),
        _ => None,
    }
}

/// The entries the panel may show by default: the whole trace at the newest
/// state, else the entries up to the one that recorded the viewed state, so
/// that the messages follow a seek.
fn up_to_view(e: &Experiment) -> &[TraceEntry] {
    let trace = e.trace();
    if e.views_the_past() {
        let id = e.viewed_record().id;
        &trace[..trace.partition_point(|t| t.seq <= id)]
    } else {
        trace
    }
}

/// Moves the panel's selection `delta` entries through the trace (from the
/// entry Latest shows, when an on-demand request or nothing is selected):
/// the keyboard's way to pick an entry, with ‹ › here or ↑ ↓ in the trace.
pub(super) fn select_by(store: Store, delta: isize) {
    store.exp.with_untracked(|e| {
        let trace = e.trace();
        let current = selected(store.wire_view.get_untracked(), e).or_else(|| latest(e));
        // The trace is in seq order.
        let i = current
            .and_then(|s| trace.binary_search_by_key(&s, |t| t.seq).ok())
            .unwrap_or(trace.len().saturating_sub(1));
        // The |delta|-th entry listed that way, or the farthest listed.
        let all = store.show_ticks.get_untracked();
        let way = |k: usize| {
            k.checked_add_signed(delta.signum())
                .filter(|&k| k < trace.len())
        };
        let stays = stays(e, current);
        let j = std::iter::successors(way(i), |&k| way(k))
            .filter(|&k| listed(trace, k, all, stays))
            .take(delta.unsigned_abs())
            .last()
            .unwrap_or(i);
        let Some(t) = trace.get(j) else {
            return;
        };
        // Said, for a reader who cannot see the panel change (not while Play
        // runs: its next Step shows the latest exchange again).
        let playing = store.playing.get_untracked();
        // A ‹ or › at its end (it stays focusable, marked aria-disabled)
        // moves nothing, Latest staying Latest, and says so; from an
        // on-demand request it goes back to the trace.
        let on_trace = matches!(
            store.wire_view.get_untracked(),
            WireView::Latest | WireView::Entry(_)
        );
        if j == i && on_trace {
            if !playing {
                let end = if delta < 0 { "first" } else { "last" };
                say_shown(
                    store,
                    &format!("This is the {end} trace entry listed. Wire shows"),
                    t,
                );
            }
            return;
        }
        store.wire_view.set(WireView::Entry(t.seq));
        if !playing {
            say_shown(store, "Wire shows", t);
        }
    });
}

/// Says which entry the Wire panel now shows, for a reader who cannot see
/// the panel change.
fn say_shown(store: Store, lead: &str, t: &TraceEntry) {
    store.say(format!(
        "{lead} trace entry #{}: {} {}.",
        t.seq,
        t.actor.label(),
        t.what()
    ));
}

/// Wire follows the viewed state's latest exchange again, and says which.
fn follow_latest(store: Store) {
    store.wire_view.set(WireView::Latest);
    store.exp.with_untracked(|e| {
        if let Some(t) = latest(e).and_then(|seq| e.trace_entry(seq)) {
            say_shown(store, "Wire follows the latest exchange again:", t);
        }
    });
}

/// The entry the panel shows by default: the last of [`up_to_view`] that
/// puts something on the wire (a refusal included), as the agent's seconds
/// and minutes send nothing (see [`wire::sends_nothing`]).
pub(super) fn latest(e: &Experiment) -> Option<u32> {
    let upto = up_to_view(e);
    upto.iter()
        .rev()
        .find(|t| !wire::sends_nothing(e, t))
        .or(upto.last())
        .map(|t| t.seq)
}

/// What the ticks after entry `seq` are (all that follows the latest
/// exchange is ticks): seconds of work, a pause's minutes on the waiting
/// clock, or both.
fn ticks_after(e: &Experiment, seq: u32) -> &'static str {
    let after = &e.trace()[e.trace().partition_point(|n| n.seq <= seq)..];
    let worked = |n: &TraceEntry| matches!(n.event, crate::model::Event::Worked { .. });
    match (after.iter().any(worked), after.iter().all(worked)) {
        (true, true) => "worked seconds",
        (false, _) => "waited minutes",
        (true, false) => "worked seconds and waited minutes",
    }
}

/// A terminal-task request: the name of its button, and whether the model
/// would put the action it sends on the wire now (or why not, as said
/// under the buttons).
type TerminalVerdict = (&'static str, Result<(), String>);

/// Each terminal-task request's verdict in `e`: sent to the viewed task once
/// it is terminal and reached as it is now.
fn terminal_verdicts(
    e: &Experiment,
    requests: Vec<(&'static str, Action)>,
) -> Vec<TerminalVerdict> {
    // A client reaches a task only as it is now.
    let earlier = |whose: &str| {
        format!(
            "Viewing an earlier state{whose}: a client reaches a task only as it is now. \
             Go to its last state to send these."
        )
    };
    let verdict = |action: &Action| {
        e.terminal_request_legality(action)
            .map_err(|stop| match stop {
                TerminalRequestStop::Refused(Refusal::ReadOnly) => earlier(" of an earlier task"),
                TerminalRequestStop::EndedSince => earlier(""),
                TerminalRequestStop::NotTerminal => {
                    "Enabled once the viewed task is terminal.".to_string()
                }
                TerminalRequestStop::Refused(why) => format!("Not now: {}", after_colon(why)),
            })
    };
    requests
        .into_iter()
        .map(|(name, action)| (name, verdict(&action)))
        .collect()
}

/// What the line under the terminal-task requests says of their `verdicts`:
/// what the message sends (`text`, Act's Clarification text) when all may
/// go, the one reason when all are refused for it, else each one's.
fn terminal_requests_reason(verdicts: &[TerminalVerdict], text: &str) -> String {
    let refused: Vec<_> = verdicts
        .iter()
        .filter_map(|(n, r)| r.as_ref().err().map(|why| (n, why)))
        .collect();
    match refused.as_slice() {
        [] => {
            const MOST: usize = 48;
            let said = match text.char_indices().nth(MOST) {
                Some((cut, _)) => format!("{}…", text[..cut].trim_end()),
                None => text.to_string(),
            };
            format!(
                "The task is terminal: {} requests are refused on purpose, to show the \
                 errors. Message to terminal task sends “{said}” (Act's Clarification text).",
                if verdicts.len() == 2 {
                    "both"
                } else {
                    "all three"
                }
            )
        }
        [(_, first), rest @ ..]
            if refused.len() == verdicts.len() && rest.iter().all(|(_, w)| w == first) =>
        {
            first.to_string()
        }
        some => some
            .iter()
            .map(|(name, why)| format!("{name}: {why}"))
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// The note beside the exchange of a request sent on demand from the Wire
/// panel (`kind`), whose messages are `ms`; none for a trace entry's.
fn on_demand_note(e: &Experiment, kind: WireView, ms: &[WireMessage]) -> Option<String> {
    match kind {
        WireView::GetTask => answered_from_the_past(e),
        WireView::Subscribe => {
            // Every open stream of a task gets the same events in the same order.
            let opened = ms.last().is_some_and(|m| m.transport == Transport::Sse);
            let later = opened.then(|| {
                let stream = if e.snapshot().state == TaskState::InputRequired {
                    "the stream the clarification opens (the one before it closed at \
                     INPUT_REQUIRED)"
                } else {
                    "the task's open stream (the one its last message opened)"
                };
                format!(
                    "Later events reach this subscription as they reach {stream}, in the same \
                     order, until the task reaches a terminal state, as spec §3.1.6 says (§11.7 \
                     closes streams at an interrupted state too: the spec's sections \
                     disagree) and a2a-sdk 1.3.0 does in one process (across replicas, it ends the \
                     subscription at an interrupted state too). The trace shows each frame once, on the task's own \
                     stream."
                )
            });
            both(answered_from_the_past(e), later)
        }
        WireView::GetUnknownTask => Some(
            "TaskNotFoundError (-32001) answers a task id the agent does not know: one \
             it never issued, as here, one another client's task holds, or one it has \
             purged. A2A does not say how long an agent keeps a task."
                .to_string(),
        ),
        // Both, when the viewed state is an earlier one of an earlier task.
        WireView::ListTasks => both(answered_from_the_past(e), listed_before(e)),
        WireView::Latest | WireView::Entry(_) => None,
    }
}

/// The note beside trace entry `t`'s exchange, whose messages are `ms`,
/// where a reader would ask why it reads as it does: tried on an earlier
/// state, a clarification's stream, the pause proposal's gaps (in its
/// proposed core encoding when `core`), the artifact's last chunk, or where
/// the spec and the SDKs disagree.
fn entry_note(e: &Experiment, t: &TraceEntry, ms: &[WireMessage], core: bool) -> Option<String> {
    // Only said of messages there are.
    if e.tried_on_earlier_state(t) && !ms.is_empty() {
        return Some(format!(
            "Tried on an earlier state, the one entry #{} recorded: the agent answers as of \
             then. A real client reaches the task only as it is now, so the exported \
             transcript leaves these messages out.",
            t.at
        ));
    }
    if t.event == crate::model::Event::Clarified && t.outcome == Outcome::Done {
        return Some(
            "The clarification's stream opens with the task as the agent received it: \
             still TASK_STATE_INPUT_REQUIRED, its question moved from status to history \
             and the clarification after it, as a2a-sdk's task manager stores them. The \
             agent's WORKING statusUpdate follows, the same event a subscription opened \
             at INPUT_REQUIRED receives."
                .to_string(),
        );
    }
    if core && matches!(t.event, crate::model::Event::SelfParked { .. }) {
        return Some(
            "Proposal: in v1.0 an agent cannot send the client a request, yet the RFC \
             labels AwaitTaskResumption peer → client and does not say how it would \
             travel (in v1.0's JSON-RPC binding the client sends every request; an agent \
             reaches it only in replies, stream events or push notifications: see the \
             v1.0 extension encoding). Its result has PauseTask's shape: the client's \
             answer carries the resume token the peer issues and the pause's times, which \
             the request did not send, and the RFC does not say how the client knows them. \
             Here the agent's PAUSED statusUpdate announces them just after."
                .to_string(),
        );
    }
    let pending = matches!(t.event, crate::model::Event::PauseRequested { .. })
        && !matches!(t.outcome, Outcome::Refused(_))
        && t.after != TaskState::Paused;
    let resumed = matches!(t.event, crate::model::Event::ResumeRequested { .. })
        && t.outcome == Outcome::Done;
    if core && resumed {
        return Some(
            "Proposal: the RFC shows no result for ResumeTask. Here it returns the Task \
             as it now is, as GetTask would: a choice of this page."
                .to_string(),
        );
    }
    // A pending pause that lapses (the task ends first): no PAUSED
    // statusUpdate ever follows.
    let lapses = pending
        .then(|| {
            let ti = usize::from(t.task);
            let records = e.tasks().get(ti)?.records();
            let i = records.binary_search_by_key(&t.at, |r| r.id).ok()?;
            super::actions::pause_outlook_at(&records[i].snap, &e.config().for_task(ti))
        })
        .flatten()
        .filter(|(_, _, lapses)| *lapses);
    if let Some((_, why, _)) = lapses {
        return Some(format!(
            "Proposal: this pause never takes effect: {why}. The RFC has no word for a pause \
             that lapses, nor a result shape for one still pending: here the result says \
             TASK_STATE_WORKING without a pause, and no PAUSED statusUpdate follows."
        ));
    }
    if core && pending {
        return Some(
            "Proposal: this pause takes effect later. The RFC shows PauseTask's result \
             only for a pause in effect (TASK_STATE_PAUSED, with the pause and its resume \
             token) and has no shape for one still pending: here the result says \
             TASK_STATE_WORKING without a pause, and the token comes on the stream, in \
             the PAUSED statusUpdate, when the pause takes effect."
                .to_string(),
        );
    }
    if core
        && matches!(t.event, crate::model::Event::PauseRequested { .. })
        && !matches!(t.outcome, Outcome::Refused(_))
    {
        return Some(
            "Proposal: PauseTask's params are the RFC's as written: taskId, where v1.0's \
             GetTask, CancelTask and SubscribeToTask name it id; mode in lower case \
             (finish_step), though the RFC calls it an enum and writes enum values as \
             SCREAMING_SNAKE_CASE names. Its result is {taskId, state, pause}, not a \
             Task. An agent without the proposal answers MethodNotFoundError (-32601), as \
             the RFC's error table says."
                .to_string(),
        );
    }
    // The completion's chunk, as its frame has it.
    let last_chunk = ms.iter().find_map(|m| {
        let update = &m.message["result"]["artifactUpdate"];
        let parts = update["artifact"]["parts"].as_array()?.len();
        (update["lastChunk"] == true).then_some((update["append"] == true, parts))
    });
    if let Some((append, parts)) = last_chunk {
        return Some(last_chunk_note(e.config().artifact_per_unit, append, parts).to_string());
    }
    disagreement(t).map(str::to_string)
}

/// Two notes, either, or none.
fn both(a: Option<String>, b: Option<String>) -> Option<String> {
    match (a, b) {
        (Some(a), Some(b)) => Some(format!("{a} {b}")),
        (a, b) => a.or(b),
    }
}

/// What an on-demand request answered as of an earlier recorded state hides:
/// a real one reaches the task only as it is now.
fn answered_from_the_past(e: &Experiment) -> Option<String> {
    if e.later_count() == 0 {
        return None;
    }
    let now = e.tasks()[e.viewed_task_index()].latest().snap.state;
    Some(format!(
        "Answered as of the viewed state, so that the messages follow a seek. No A2A request \
         reads an earlier state: sent now, it would find this task in {now}."
    ))
}

/// What ListTasks answered as of an earlier state of an earlier task leaves
/// out: the tasks of the context made after it, which a real one sent now
/// would list too.
fn listed_before(e: &Experiment) -> Option<String> {
    let later = e.current_task_index() - e.viewed_task_index();
    (later > 0 && e.later_count() > 0).then(|| {
        format!(
            "Listed as of the viewed state, so that the list follows a seek. A real ListTasks \
             sent now would also list the {later} later task{} of this context.",
            super::store::plural(later)
        )
    })
}

/// The messages of an exchange; `compared` names the other pause encoding
/// they are shown in, beside the chosen one ("" for the chosen).
fn render_messages(
    ms: &[WireMessage],
    extension_active: bool,
    compared: &'static str,
) -> impl IntoView {
    let n = ms.len();
    ms.iter()
        .enumerate()
        .map(|(i, m)| render_message(m, i + 1, n, extension_active, compared))
        .collect_view()
}

/// Message `k` of the `n` of an exchange (see [`render_messages`]).
fn render_message(
    m: &WireMessage,
    k: usize,
    n: usize,
    extension_active: bool,
    compared: &'static str,
) -> impl IntoView {
    let json = serde_json::to_string_pretty(&m.message).unwrap_or_default();
    let (testid, label) = if compared.is_empty() {
        (
            "wire-message",
            format!("Message {k} of {n}, JSON: {}", m.payload_type),
        )
    } else {
        (
            "wire-compare-message",
            format!("{compared}: message {k} of {n}, JSON: {}", m.payload_type),
        )
    };
    view! {
        <li class=format!("message {}", m.from.as_str()) data-testid=testid data-payload-type=m.payload_type>
            <p class="explain">{wire::explain(m)}</p>
            {wire::http_request(m, extension_active)
                .or_else(|| wire::http_response(m, extension_active))
                .map(|http| {
                    let ext = http
                        .pause_extension
                        .then_some(" (pause extension, a proposal: not A2A v1.0)");
                    view! { <p class="http">{http.line}{ext}</p> }
                })}
            <pre class="json" tabindex="0" role="group" aria-label=label>{json_lines(json)}</pre>
        </li>
    }
}

/// Pretty-printed JSON, one block per line, classed by its indent: a line
/// too long for the panel (an id, a URI, a text) wraps under itself, two
/// columns in, rather than back at the left edge. A string value that does
/// not fit after its key goes whole onto the next line, so that a timestamp
/// or an id is not cut where it has a hyphen (only one longer than the line
/// is cut).
fn json_lines(json: String) -> impl IntoView {
    json.lines()
        .map(|line| {
            let indent = (line.len() - line.trim_start().len()).min(16);
            let (key, value) = match line.find("\": \"") {
                Some(i) => (&line[..i + 3], Some(line[i + 3..].to_string())),
                None => (line, None),
            };
            view! {
                <span class=format!("l d{indent}")>
                    {key.to_string()}
                    {value.map(|v| view! { <span class="v">{v}</span> })}
                </span>
            }
        })
        .collect_view()
}

/// Where A2A's spec and its SDKs disagree about this entry, or what the spec
/// leaves to the agent and this one does, said plainly.
fn disagreement(t: &crate::model::TraceEntry) -> Option<&'static str> {
    use crate::model::{Event, Refusal};
    match (t.event, t.outcome) {
        (Event::CancelRequested, Outcome::Refused(Refusal::NotCancelable(TaskState::Canceled))) => {
            Some(
            "Spec §3.1.5 and §3.3.2: a task already canceled is not cancelable, so a repeated \
             CancelTask gets TaskNotCancelableError (-32002), as a2a-python answers (its message, naming \
             the state, is a2a-sdk's LegacyRequestHandler's; the default DefaultRequestHandlerV2 \
             says only \"Task cannot be canceled\"). §3.3.1 calls \
             cancel idempotent (\"multiple cancellation requests have the same effect\"): the task \
             stays canceled. a2a-js returns the stored task instead, and the pause proposal (not \
             part of A2A v1.0) expects a repeated cancel of a task canceled while paused to succeed.",
            )
        }
        (Event::CancelRequested, Outcome::Refused(Refusal::WorkerRefusedCancellation)) => Some(
            "Spec §3.1.5: cancellation is a request the agent may not grant, and a task it cannot \
             cancel gets TaskNotCancelableError (-32002), as a2a-sdk's LegacyRequestHandler answers \
             when its worker does not cancel, in the same words, and the task works on. a2a-sdk \
             1.3.0's default handler (DefaultRequestHandlerV2) ends the task instead: a worker \
             that refuses (raising UnsupportedOperationError) gets -32002 too, but its task is \
             marked TASK_STATE_FAILED; one whose cancel writes no final state has the task closed out as \
             TASK_STATE_CANCELED.",
        ),
        (Event::Clarified, Outcome::Refused(Refusal::NotInputRequired(s))) if s.is_terminal() => Some(
            "Spec §3.1.1 and §3.1.2: a message to a terminal task gets UnsupportedOperationError (-32004), as \
             a2a-sdk 1.3.0 answers (older a2a-python answered InvalidParamsError, -32602). It comes \
             as a plain JSON-RPC error, before any stream opens, as a2a-sdk sends it; a2a-js opens \
             the stream and sends the error as an SSE event named error.",
        ),
        (Event::ResumeRequested { .. }, Outcome::Refused(Refusal::BadResumeToken))
            if t.after != TaskState::Paused =>
        {
            Some(
                "Proposal: the RFC defines -32011 for a token that does not match the recorded \
                 one and -32010 for a task in a state that does not allow pause (e.g. already \
                 terminal); answering a ResumeTask with -32010 is this page's reading, and the \
                 RFC does not say which a second ResumeTask with a used token gets. On a task not terminal, this page (its own \
                 reading) checks the token first: one this task issued before is an \
                 invalid token, any other token on a task not PAUSED finds it not paused (a \
                 terminal task answers not paused to any token). (In the v1.0 extension encoding: \
                 -32602 and -32004.)",
            )
        }
        (Event::AskedInput { .. }, _) => Some(
            "The spec's sections disagree on whether the stream closes at INPUT_REQUIRED; this page \
             closes it there (and at terminal states) and keeps it open through AUTH_REQUIRED.",
        ),
        _ if t.after == TaskState::AuthRequired && t.outcome == Outcome::Done => Some(
            "Authorization arrives out of band: the client sends no A2A message; the agent resumes \
             on the stream it kept open, as spec §7.6.1 says it SHOULD and a2a-js does (a2a-sdk \
             1.3.0's blocking SendMessage returns here, as at INPUT_REQUIRED). Spec §7.6: the agent \
             SHOULD also accept messages to the task while it is AUTH_REQUIRED (to negotiate, \
             correct or reject); this page sends none. What is authorized is the task's own \
             need, not access to the agent: the agent card declares no securitySchemes, and \
             §7.6.4: entering AUTH_REQUIRED authorizes nothing by itself.",
        ),
        _ => None,
    }
}

/// What the completion's artifact chunk holds, read from its frame: whether
/// it has `append` and how many parts it adds; `per_unit`: the agent streams
/// its artifact unit by unit.
fn last_chunk_note(per_unit: bool, append: bool, parts: usize) -> &'static str {
    match (per_unit, append, parts) {
        (false, ..) => {
            "The final artifact comes in one chunk, at completion: lastChunk is true and append \
             is absent (false). An agent that streams an artifact in parts sends each later chunk \
             of the same artifactId with append: true; this one streams nothing before the task \
             completes, so a canceled or failed task has no artifact."
        }
        (true, false, _) => {
            "Streamed unit by unit, but nothing of this artifact went out before (the task has \
             one unit): this one chunk is the whole artifact, the unit's chunk and the summary, \
             with lastChunk: true and append absent (false)."
        }
        (true, true, 1) => {
            "Streamed unit by unit: every unit's chunk went out before, so this last chunk \
             appends only the summary to the artifact already sent with the same artifactId \
             (append: true, lastChunk: true), and a Task answered now carries every part. A \
             canceled or failed task keeps the chunks it streamed: nothing in A2A v1.0 stops an \
             agent keeping a partial artifact."
        }
        (true, true, _) => {
            "Streamed unit by unit: this last chunk appends the final unit's chunk and the \
             summary to the artifact already sent with the same artifactId (append: true, \
             lastChunk: true), and a Task answered now carries every part. A canceled or failed \
             task keeps the chunks it streamed: nothing in A2A v1.0 stops an agent keeping a \
             partial artifact."
        }
    }
}
