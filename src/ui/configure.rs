//! Configure a fresh task: sliders and switches. Every change starts a fresh
//! experiment; the ranges come from the model's [`Setting`]s.

use super::store::Store;
use crate::model::Setting;
use leptos::prelude::*;

#[component]
pub fn ConfigurePanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let config = move || store.exp.with(|e| *e.config());
    let sliders = Setting::ALL
        .into_iter()
        .map(|setting| {
            let id = format!("setting-{}", slug(setting.label()));
            let range = setting.range();
            let value = move || config().get(setting).to_string();
            let shown = move || config().describe(setting);
            view! {
                <div class="field">
                    <label for=id.clone()>{setting.label()}</label>
                    <input
                        type="range"
                        id=id.clone()
                        min=range.start().to_string()
                        max=range.end().to_string()
                        step="1"
                        prop:value=value
                        aria-valuetext=shown
                        on:input=move |ev| store.set_setting(setting, &event_target_value(&ev))
                    />
                    <output for=id data-testid=format!("value-{}", slug(setting.label()))>{shown}</output>
                </div>
            }
        })
        .collect_view();
    view! {
        <section class="panel" aria-labelledby="configure-h">
            <h2 id="configure-h">"Configure a fresh task"</h2>
            {sliders}
            <div class="switches">
                <label class="switch">
                    <input
                        type="checkbox"
                        prop:checked=move || config().reject_before_execution
                        on:change=move |ev| store.set_switch(Some(event_target_checked(&ev)), None)
                    />
                    "Reject before execution"
                </label>
                <label class="switch">
                    <input
                        type="checkbox"
                        prop:checked=move || config().worker_accepts_cancellation
                        on:change=move |ev| store.set_switch(None, Some(event_target_checked(&ev)))
                    />
                    "Worker accepts cancellation"
                </label>
            </div>
            <p class="hint">
                "Zero disables a gate or the failure; a unit above the work-unit count is never "
                "reached. Every change starts a fresh experiment instead of editing the task in place."
            </p>
        </section>
    }
}

/// "Require input before unit" → "require-input-before-unit".
pub fn slug(label: &str) -> String {
    label.to_ascii_lowercase().replace(' ', "-")
}
