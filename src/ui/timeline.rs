//! Timeline: a slider over the viewed task's recorded states.

use super::store::{plural, Store};
use crate::model::{Experiment, MAX_TRACE_ENTRIES};
use leptos::prelude::*;

/// What acting now does to the `n` later recorded states of the viewed task.
fn discard_note(n: usize) -> String {
    format!(
        "Viewing an earlier state: a Step, Play or an action that changes the task discards the {n} later recorded state{} of this task (one refused, or that changes nothing, discards none).",
        plural(n)
    )
}

/// The control that replays the later recorded states without acting.
const REPLAY: &str = "Replay them";

#[component]
pub fn TimelinePanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let count = move || store.exp.with(|e| e.viewed_task().records().len());
    let position = move || store.exp.with(|e| e.position());
    // The slider's moves, counted: a held key or a drag makes many.
    let moves = StoredValue::new(0u32);
    let label = move || store.exp.with(|e| e.timeline_label(e.position()));
    let later = move || store.exp.with(|e| e.later_count());
    let read_only = move || store.exp.with(|e| e.is_read_only());
    let discards = move || store.exp.with(Experiment::discarded_by_acting) > 0;
    let replaying = move || store.replay.with(Option::is_some);
    let identity = move || {
        store.exp.with(|e| {
            let short = super::tasks::short;
            format!(
                "Task {} of {} · task id {}… · context id {}… · {} of {} units done",
                e.viewed_task_index() + 1,
                e.tasks().len(),
                short(&e.viewed_task().id),
                short(e.context_id()),
                e.snapshot().completed_units,
                e.config().work_units
            )
        })
    };
    view! {
        <section class="panel" aria-labelledby="timeline-h">
            <h2 id="timeline-h">"Recorded states"</h2>
            <div class="field timeline">
                <label for="recorded-state">"Recorded state"</label>
                <button
                    class="icon"
                    aria-label="Previous recorded state"
                    aria-disabled=move || super::at_its_end(position() == 0)
                    on:click=move |_| store.seek_by(-1)
                >
                    "‹"
                </button>
                <input
                    type="range"
                    id="recorded-state"
                    min="0"
                    max=move || (count() - 1).to_string()
                    step="1"
                    prop:value=move || position().to_string()
                    aria-valuetext=label
                    on:input=move |ev| {
                        if let Ok(p) = event_target_value(&ev).parse::<usize>() {
                            // Which move this is: the last one says the state.
                            moves.update_value(|n| *n += 1);
                            let this = moves.get_value();
                            // (Not once the page is gone.)
                            store.seek_from_slider(p, move || moves.try_get_value() == Some(this));
                        }
                    }
                />
                <button
                    class="icon"
                    aria-label="Next recorded state"
                    aria-disabled=move || super::at_its_end(later() == 0)
                    on:click=move |_| store.seek_by(1)
                >
                    "›"
                </button>
            </div>
            <super::lifecycle::TimeBarView/>
            <p class="readout" data-testid="timeline-position">
                "State "{label}
            </p>
            // Who the task is, beside the controls that change it (Inspect
            // has the whole ids, to copy).
            <p class="readout identity-strip" data-testid="identity-strip">{identity}</p>
            // One box whether a note is shown or not (beside Playback), so
            // moving to an earlier state moves nothing below: an invisible
            // copy of the longest note holds its room.
            <div class="view-note">
            <p class="warning sizer" aria-hidden="true">
                {discard_note(MAX_TRACE_ENTRIES)}" "{REPLAY}
            </p>
            // Play, Step and the actions name this warning in their
            // descriptions, so it is heard before acting, not after (an
            // empty one stands for it at the latest state, so that their
            // references always name an element). Beside it, a way to watch
            // the later states without acting.
            <Show when=discards fallback=|| view! { <span id="discard-warning" hidden></span> }>
                <p class="warning">
                    <span id="discard-warning" data-testid="discard-warning">
                        {move || discard_note(later())}
                    </span>
                    " "
                    <button
                        class="link"
                        data-testid="replay"
                        // Gone when the replay reaches the newest state.
                        data-refocus="recorded-state"
                        // Its visible words, then what they mean here.
                        aria-label=move || match replaying() {
                            true => "Stop replay",
                            false => "Replay them without acting: the later recorded states, one at a time",
                        }
                        on:click=move |_| match replaying() {
                            true => store.stop_replay(),
                            false => store.start_replay(),
                        }
                    >
                        {move || if replaying() { "Stop replay" } else { REPLAY }}
                    </button>
                </p>
            </Show>
            // After an action from an earlier state, until the next one.
            {move || store.discarded.with(|d| d.as_ref().map(|d| (d.said(), d.undo_words()))).map(|(said, undo)| view! {
                <p class="warning" data-testid="undo-discard">
                    {said}" "
                    <button
                        class="link"
                        on:click=move |_| {
                            store.undo_discard();
                            // The button goes with the note: focus stays in
                            // the panel, on its slider.
                            super::playback::focus("recorded-state");
                        }
                    >
                        {undo}
                    </button>
                </p>
            })}
            <Show when=read_only>
                <p class="warning" data-testid="read-only-note">
                    "You are viewing an earlier task of this context: read-only. "
                    <button
                        class="link"
                        on:click=move |_| {
                            let latest = store.exp.with_untracked(|e| e.current_task_index());
                            store.view_task(latest);
                            // The button goes with the note: focus stays in
                            // the panel, on its slider.
                            super::playback::focus("recorded-state");
                        }
                    >
                        "View the latest task to act"
                    </button>
                </p>
            </Show>
            </div>
        </section>
    }
}
