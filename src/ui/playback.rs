//! Playback: Play/Pause, Step, Restart experiment and Speed.

use super::store::{Store, SPEEDS};
use crate::model::Action;
use leptos::prelude::*;

#[component]
pub fn PlaybackPanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let step_verdict = Memo::new(move |_| store.legality(&Action::Step));
    let playing = move || store.playing.get();
    view! {
        <section class="panel" aria-labelledby="playback-h">
            <h2 id="playback-h">"Playback"</h2>
            <div class="buttons">
                <button
                    id="play"
                    class="primary"
                    aria-describedby="step-reason"
                    disabled=move || !playing() && step_verdict.get().is_err()
                    on:click=move |_| store.toggle_play()
                >
                    {move || if playing() { "Pause" } else { "Play" }}
                </button>
                <button
                    id="step"
                    aria-describedby="step-reason"
                    disabled=move || step_verdict.get().is_err()
                    on:click=move |_| {
                        store.step();
                    }
                >
                    "Step"
                </button>
                <button id="restart" on:click=move |_| store.restart()>"Restart experiment"</button>
            </div>
            <p id="step-reason" class="reason" class:blocked=move || step_verdict.get().is_err()>
                {move || match step_verdict.get() {
                    Ok(()) => "Step runs to the next recorded state (at most one active second); Play runs the whole active path in about a minute at 1×.".to_string(),
                    Err(why) => why,
                }}
            </p>
            <div class="field">
                <label for="speed">"Speed"</label>
                <select
                    id="speed"
                    on:change=move |ev| {
                        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                            store.speed.set(i.min(SPEEDS.len() - 1));
                        }
                    }
                >
                    {SPEEDS
                        .iter()
                        .enumerate()
                        .map(|(i, (label, _))| {
                            view! {
                                <option value=i.to_string() prop:selected=move || store.speed.get() == i>
                                    {*label}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </div>
            <p class="hint">
                "Keys: Space plays or pauses, → steps, [ and ] move through recorded states "
                "(not while a text field, slider or list has focus)."
            </p>
        </section>
    }
}
