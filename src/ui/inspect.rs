//! Inspect: identity, state, progress, time and the final artifact.

use super::store::Store;
use leptos::prelude::*;

/// A monospace id with a copy button.
#[component]
fn CopyableId(label: &'static str, testid: &'static str, value: Signal<String>) -> impl IntoView {
    let store = expect_context::<Store>();
    let copied = RwSignal::new(0);
    let copy = move |_| copy_text(store, value.get_untracked(), label, copied);
    view! {
        <dt>{label}</dt>
        <dd class="id">
            <code data-testid=testid>{move || value.get()}</code>
            <button
                class="link"
                aria-label=move || {
                    if copied.get() > 0 { format!("Copied {label}") } else { format!("Copy {label}") }
                }
                on:click=copy
            >
                {move || copy_label(copied, "Copy")}
            </button>
        </dd>
    }
}

/// A copy button's text: `idle`, or "Copied" for a moment after a copy.
pub fn copy_label(copied: RwSignal<u32>, idle: &'static str) -> &'static str {
    if copied.get() > 0 {
        "Copied ✓"
    } else {
        idle
    }
}

/// How long the notice that a text was copied stays, in seconds.
pub const COPIED_NOTICE_S: u64 = 6;

thread_local! {
    /// Copies made on the page: a copy's notice goes after its own time,
    /// not after an earlier copy's.
    static COPIES: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Copies `text` to the clipboard. Success shows on the button itself for
/// two seconds after the last copy (`copied` counts copies; 0 is idle) and
/// in the notice line, which is announced, for [`COPIED_NOTICE_S`]; a
/// refusal is an alert.
pub fn copy_text(store: Store, text: String, label: &'static str, copied: RwSignal<u32>) {
    let navigator = window().navigator();
    // A page served over plain http (not localhost) has no clipboard at all.
    let has_clipboard = js_sys::Reflect::get(&navigator, &"clipboard".into())
        .is_ok_and(|c| !c.is_undefined() && !c.is_null());
    if !has_clipboard {
        store.raise(format!(
            "Could not copy: this browser gives the page no clipboard (it does only over https or on localhost) ({label}); select the text and copy it by hand."
        ));
        return;
    }
    let promise = navigator.clipboard().write_text(&text);
    leptos::task::spawn_local(async move {
        match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(_) => {
                // Said in the notice too, for a screen reader; gone after a
                // while, as it floats over the page, unless it changed since
                // or focus is on its Dismiss.
                let said = format!("{label} copied to the clipboard.");
                store.notice.set(Some(said.clone()));
                let this = COPIES.get() + 1;
                COPIES.set(this);
                set_timeout(
                    move || {
                        let in_notice = document()
                            .active_element()
                            .is_some_and(|a| a.closest(".notice").ok().flatten().is_some());
                        // A later copy's notice has its own time.
                        let latest = COPIES.get() == this;
                        if latest
                            && !in_notice
                            && store.notice.try_get_untracked() == Some(Some(said))
                        {
                            store.notice.try_set(None);
                        }
                    },
                    std::time::Duration::from_secs(COPIED_NOTICE_S),
                );
                let this = copied.get_untracked() + 1;
                copied.set(this);
                set_timeout(
                    move || {
                        // The page may have been unmounted meanwhile.
                        if copied.try_get_untracked() == Some(this) {
                            copied.try_set(0);
                        }
                    },
                    std::time::Duration::from_secs(2),
                );
            }
            Err(_) => store.raise(format!(
                "Could not copy: the browser denied clipboard access ({label}); select the text and copy it by hand."
            )),
        }
    });
}

#[component]
pub fn InspectPanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let snap = move || store.exp.with(|e| *e.snapshot());
    let n = move || store.config.with(|c| c.work_units);
    let s = move || store.config.with(|c| c.seconds_per_unit);
    let task_id = Signal::derive(move || store.exp.with(|e| e.viewed_task().id.clone()));
    let context_id = Signal::derive(move || store.exp.with(|e| e.context_id().to_string()));
    let state = move || snap().state;
    // The waiting note changes with the proposal switch only, not each Step.
    let proposal = Memo::new(move |_| store.config.with(|c| c.pause_proposal));
    // What the ids say: a resume keeps the task id, a follow-up gets a new
    // one in the same context.
    let identity = move || {
        store.exp.with(|e| {
            let i = e.viewed_task_index();
            let first = if i == 0 {
                "First task of this context".to_string()
            } else {
                format!("Follow-up: a new task id, the same context id as task {i}, which it references")
            };
            let paused = match e.resumes_from_pause() {
                0 => String::new(),
                p if p == e.resumes() => " (from a pause, a proposal)".to_string(),
                p => format!(" ({p} from a pause, a proposal)"),
            };
            match e.resumes() {
                0 => format!("{first}."),
                k => format!("{first}; resumed {k}×{paused} under the same task id, its completed units kept."),
            }
        })
    };
    let units = move || {
        let snap = snap();
        let failed = store.exp.with(|e| e.failed_unit());
        let (n, s) = (n(), u32::from(s()));
        let into = store.exp.with(|e| snap.seconds_into_unit(e.config()));
        (1..=n)
            .map(|u| {
                let class = if u <= snap.completed_units {
                    "unit done"
                } else if failed == Some(u) {
                    "unit failed"
                } else if u == snap.completed_units + 1 && into > 0 {
                    "unit partial"
                } else {
                    "unit"
                };
                let pct = if u == snap.completed_units + 1 {
                    into * 100 / s
                } else {
                    0
                };
                view! { <span class=class style=("--fill", format!("{pct}%")) title=format!("Unit {u}")></span> }
            })
            .collect_view()
    };
    view! {
        <section class="panel inspect" class:proposal-on=proposal aria-labelledby="inspect-h">
            <h2 id="inspect-h">"Inspect time, identity and state"</h2>
            <p class="state-line">
                <span class=move || format!("badge {}", state().family())>{move || state().label()}</span>
                <code data-testid="task-state">{move || state().to_string()}</code>
            </p>
            <p role="status" class="status" data-testid="status">{move || store.status.get()}</p>
            <dl class="facts">
                <CopyableId label="Task id" testid="task-id" value=task_id/>
                <CopyableId label="Context id" testid="context-id" value=context_id/>
                <dt>"Identity"</dt>
                <dd data-testid="identity">{identity}</dd>
                <dt>"Completed units"</dt>
                <dd>
                    <span data-testid="completed-units">
                        {move || format!("{} / {}", snap().completed_units, n())}
                    </span>
                    <span class="units" aria-hidden="true">{units}</span>
                </dd>
                <dt>"Active time"</dt>
                <dd data-testid="active-time">
                    {move || {
                        // Work an interrupt_immediate pause threw away is done again (proposal).
                        let snap = snap();
                        let planned = store.config.with(|c| c.active_path_seconds()) + snap.lost_s;
                        let redone = if snap.lost_s > 0 {
                            format!(" ({} s of it lost to a pause, proposal)", snap.lost_s)
                        } else {
                            String::new()
                        };
                        format!("{} s of {planned} s{redone}", snap.active_s)
                    }}
                </dd>
                <dt>"Waiting time"</dt>
                <dd class="waiting">
                    // Only a pause's minutes (proposal) are counted: without
                    // the proposal there is nothing to count, said so
                    // rather than as "0 s" after a wait the user just saw.
                    <span data-testid="waiting-time">{move || {
                        let s = snap().waiting_s;
                        if proposal.get() || s > 0 { crate::model::waiting_words(s) } else { "not counted".to_string() }
                    }}</span>
                    // Said always, not only while waiting: a wait just
                    // answered leaves this unchanged, and that is not a slip.
                    <span class="muted">
                        {move || if proposal.get() {
                            " — a pause's minutes (proposal); the clock stands still while a task waits for input or authorization"
                        } else {
                            " — the clock stands still while a task waits for input or authorization (the time bar draws each wait as a box of its own, not to scale); only a pause (proposal) counts waiting minutes"
                        }}
                    </span>
                </dd>
            </dl>
            <Show when=move || { snap().lost_s > 0 }>
                <p class="muted" data-testid="lost-work">
                    {move || format!(
                        "The unit's partial work, {} s, was lost to interrupt_immediate: it counts as active time, and the unit is done again from its start after the resume (proposal).",
                        snap().lost_s
                    )}
                </p>
            </Show>
            // Room for a pause's details while the proposal is on: a pause
            // taking effect by itself while Play runs moves nothing below.
            <div
                class="pause-area"
                class:reserved=proposal
                class:self-park=move || store.config.with(crate::model::Config::self_parks)
            >
            {move || store.exp.with(|e| {
                let pending = super::actions::pending_pause(e);
                let paused = e.snapshot().pause;
                if paused.is_none() && pending.is_none() && !proposal.get() {
                    return None;
                }
                // Not paused: the same rows, each a dash, so that a pause
                // taking effect fills them in place.
                let dash = || "—".to_string();
                let (by, mode, reason, token, conditions) = match paused {
                    None => ("— (not paused)".to_string(), dash(), dash(), dash(), dash()),
                    Some(p) => {
                        let by = match p.by {
                            crate::model::Initiator::Client => "client (PauseTask)",
                            crate::model::Initiator::Agent => "agent (AwaitTaskResumption)",
                        };
                        // A mode is what a client's PauseTask asks for.
                        let mode = match p.by {
                            crate::model::Initiator::Client => p.mode.name(),
                            crate::model::Initiator::Agent => "— (a self-park has none)",
                        };
                        let event = e.config().resume_event;
                        // The deadline is a point on the task's waiting clock, which
                        // runs across pauses: the timeout is counted from this one.
                        let conditions = match (p.event, p.timeout_minutes()) {
                            (false, None) => "none: only ResumeTask wakes it".to_string(),
                            (true, None) => format!("event “{}”", crate::model::isolated(event.as_str())),
                            (false, Some(m)) => format!("timeout after {m} min of waiting, then {}", e.config().on_timeout.name()),
                            (true, Some(m)) => format!(
                                "event “{}”, or timeout after {m} min of waiting, then {}",
                                crate::model::isolated(event.as_str()),
                                e.config().on_timeout.name()
                            ),
                        };
                        (
                            by.to_string(),
                            mode.to_string(),
                            e.pause_reason().unwrap_or_else(dash),
                            e.resume_token().unwrap_or_default().to_string(),
                            conditions,
                        )
                    }
                };
                Some(view! {
                    <div class="proposal-box" role="group" aria-labelledby="pause-details-h" data-testid="pause-details">
                        <p class="caption" id="pause-details-h">"Pause — proposal, not part of A2A v1.0"</p>
                        <dl class="facts">
                            <dt>"Paused by"</dt><dd>{by}</dd>
                            <dt>"Mode"</dt><dd>{mode}</dd>
                            <dt>"Reason"</dt><dd>{reason}</dd>
                            <dt>"Resume token"</dt><dd><code data-testid="resume-token">{token}</code></dd>
                            <dt>"Wakes on"</dt><dd>{conditions}</dd>
                        </dl>
                        // The pause asked for, until it takes effect (or, kept
                        // by a self-park, for after it).
                        {pending.map(|said| view! {
                            <p class="warning" data-testid="pause-requested">{said}</p>
                        })}
                    </div>
                }.into_any())
            })}
            </div>
            <h3>"Artifact"</h3>
            <div class="final">
            {move || store.exp.with(|e| match e.viewed_artifact() {
                // One part a line; a partial one says what it is short of.
                Some(a) => view! {
                    <pre class="artifact" data-testid="final-artifact">{a.text()}</pre>
                    {e.partial_artifact_note().map(|note| view! {
                        <p class="muted" data-testid="partial-artifact">{note}</p>
                    })}
                }.into_any(),
                None => view! {
                    <p class="muted" data-testid="no-artifact">{e.no_artifact_reason()}</p>
                }.into_any(),
            })}
            </div>
        </section>
    }
}
