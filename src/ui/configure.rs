//! Configure a fresh task: sliders and switches. Every change starts a fresh
//! experiment; the ranges come from the model's [`Setting`]s.

use super::store::Store;
use crate::model::{OnTimeout, Setting, Switch};
use leptos::prelude::*;

/// A range slider for one numeric setting, with its visible value.
fn slider(store: Store, setting: Setting) -> impl IntoView {
    let config = move || store.config.get();
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
                // The one sentence of the panel's note on what 0 and a unit
                // above the count mean, for the sliders that name a unit.
                aria-describedby=setting.names_a_unit().then_some("configure-help")
                on:input=move |ev| store.set_setting(setting, &event_target_value(&ev))
            />
            // Not a live region: the slider's own value text is announced.
            <output for=id aria-live="off" data-testid=format!("value-{}", slug(setting.label()))>{shown}</output>
        </div>
    }
}

#[component]
pub fn ConfigurePanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let config = move || store.config.get();
    let proposal = move || config().pause_proposal;
    // Why the text in Resume event name is not the one in use, if it is not.
    let event_refused = RwSignal::new(None::<String>);
    // The field shows the name in use only when that changes (Undo, a
    // loaded run), not at every Step, or when it is drawn again (the
    // proposal switched off and on); the note goes with the refused text.
    let in_use = Memo::new(move |_| config().resume_event);
    let shown = Memo::new(move |_| proposal());
    Effect::new(move |_| {
        in_use.track();
        shown.track();
        event_refused.set(None);
    });
    let sliders = Setting::CORE
        .into_iter()
        .map(|setting| slider(store, setting))
        .collect_view();
    view! {
        <section class="panel configure" aria-labelledby="configure-h">
            <h2 id="configure-h">"Configure a fresh task"</h2>
            {sliders}
            <div class="switches">
                {Switch::ALL
                    .into_iter()
                    .map(|switch| view! {
                        <label class="switch">
                            <input
                                type="checkbox"
                                id=switch_id(switch)
                                prop:checked=move || config().is_on(switch)
                                on:change=move |ev| store.set_switch(switch, event_target_checked(&ev))
                            />
                            {switch.label()}
                        </label>
                    })
                    .collect_view()}
            </div>
            <p class="hint">
                <span id="configure-help">
                    "Zero disables a gate or the failure; a unit above the work-unit count is never "
                    "reached."
                </span>
                " A follow-up task runs with these settings too, but fails or is rejected "
                "only if you say so. Streamed unit by unit, the result comes as a chunk per unit "
                "(artifactUpdate; append: true from the second on), the summary last (lastChunk), and a failed or "
                "canceled task keeps what came; otherwise it comes whole at completion. Every "
                "change starts a fresh experiment instead of editing the task in place."
            </p>
            // Beside the settings, where a change throws a run away.
            <Show when=move || store.replaced.with(Option::is_some)>
                <p class="undo" data-testid="undo">
                    "Your previous run was replaced; it is kept until you act on the new one. "
                    <button
                        class="link"
                        on:click=move |_| {
                            store.bring_back();
                            // The button goes away: keep focus in the settings.
                            super::playback::focus("setting-work-units");
                        }
                    >
                        "Undo: bring back the run from before"
                    </button>
                </p>
            </Show>
            <fieldset class="proposal">
                <legend>"Pause and resume — proposal, not part of A2A v1.0"</legend>
                <label class="switch">
                    <input
                        type="checkbox"
                        prop:checked=proposal
                        on:change=move |ev| store.set_proposal(event_target_checked(&ev))
                    />
                    "Proposed pause/resume"
                </label>
                <Show when=proposal>
                    <p class="hint">
                        "Adds TASK_STATE_PAUSED (9), PauseTask, AwaitTaskResumption and ResumeTask "
                        "from the Harn authors' RFC (A2A discussion #1858, open). Not ratified: a "
                        "v1.0 peer can only carry it as an extension. A self-park is the agent "
                        "pausing itself before a unit, until a resume, its event or its timeout."
                    </p>
                    {Setting::PROPOSAL.into_iter().map(|setting| slider(store, setting)).collect_view()}
                    <div class="field field-text">
                        <label for="resume-event">"Resume event name"</label>
                        // A name refused stays in the field to be mended,
                        // marked as not in use, with what is used instead.
                        <input
                            type="text"
                            id="resume-event"
                            placeholder="empty: no event condition"
                            aria-invalid=move || event_refused.with(Option::is_some).then_some("true")
                            aria-describedby=move || event_refused.with(Option::is_some).then_some("resume-event-refused")
                            prop:value=move || in_use.with(|name| name.as_str().to_string())
                            on:change=move |ev| event_refused.set(store.set_resume_event(&event_target_value(&ev)))
                        />
                        <Show when=move || event_refused.with(Option::is_some)>
                            <p id="resume-event-refused" class="reason invalid" data-testid="resume-event-refused">
                                {move || event_refused.get()}
                            </p>
                        </Show>
                    </div>
                    <div class="field">
                        <label for="on-timeout">"On timeout"</label>
                        <select
                            id="on-timeout"
                            aria-describedby="on-timeout-hint"
                            on:change=move |ev| {
                                let fail = event_target_value(&ev) == OnTimeout::Fail.name();
                                store.set_on_timeout(if fail { OnTimeout::Fail } else { OnTimeout::ResumeWithSummary });
                            }
                        >
                            {[OnTimeout::Fail, OnTimeout::ResumeWithSummary]
                                .into_iter()
                                .map(|t| view! {
                                    <option value=t.name() prop:selected=move || config().on_timeout == t>{t.name()}</option>
                                })
                                .collect_view()}
                        </select>
                    </div>
                    <p id="on-timeout-hint" class="hint">
                        "fail (the task fails) is the RFC's own example; resume_with_summary "
                        "(the task resumes, cause timeout) is Harn's runtime value and its "
                        "default, which the RFC does not name."
                    </p>
                </Show>
            </fieldset>
            // Playback is far above on every screen: the way back to it,
            // once the task is set up.
            <p class="hint">
                "Done configuring? "
                <button class="link" data-testid="configure-to-play" on:click=move |_| super::playback::follow(store, "play")>
                    "Go to Play"
                </button>
                " to run the task."
            </p>
        </section>
    }
}

/// "Require input before unit" → "require-input-before-unit".
pub fn slug(label: &str) -> String {
    label
        .to_ascii_lowercase()
        .replace(' ', "-")
        .replace(['(', ')'], "")
}

/// The element id of a switch's checkbox (experiment 3's line links to one).
pub const fn switch_id(switch: Switch) -> &'static str {
    match switch {
        Switch::RejectBeforeExecution => "switch-reject",
        Switch::WorkerAcceptsCancellation => "switch-cancel-accepted",
        Switch::FollowUpsFailToo => "switch-follow-ups-fail",
        Switch::ArtifactPerUnit => "switch-stream-units",
    }
}
