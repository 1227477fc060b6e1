//! Act on the current state: each button is enabled exactly when the model's
//! legality allows it, and a disabled one shows why, tied by aria-describedby.

use super::store::Store;
use crate::model::{Action, MAX_CLARIFICATION_CHARS};
use leptos::prelude::*;

/// A button for `action`, with its reason line below it.
#[component]
pub fn ActionButton(
    /// Builds the action to check and to apply (it may read signals).
    action: Callback<(), Action>,
    /// Shown under the button while it is enabled.
    hint: &'static str,
    id: &'static str,
) -> impl IntoView {
    let store = expect_context::<Store>();
    let verdict = Memo::new(move |_| store.legality(&action.run(())));
    let reason_id = format!("{id}-reason");
    let label = untrack(|| action.run(())).label();
    view! {
        <div class="action">
            <button
                id=id
                disabled=move || verdict.get().is_err()
                aria-describedby=reason_id.clone()
                on:click=move |_| {
                    store.act(untrack(|| action.run(())));
                }
            >
                {label}
            </button>
            <p id=reason_id class="reason" class:blocked=move || verdict.get().is_err()>
                {move || match verdict.get() {
                    Ok(()) => hint.to_string(),
                    Err(why) => why,
                }}
            </p>
        </div>
    }
}

#[component]
pub fn ActPanel() -> impl IntoView {
    let store = expect_context::<Store>();
    view! {
        <section class="panel" aria-labelledby="act-h">
            <h2 id="act-h">"Act on the current state"</h2>
            <div class="field field-text">
                <label for="clarification-text">"Clarification text"</label>
                <input
                    type="text"
                    id="clarification-text"
                    maxlength=MAX_CLARIFICATION_CHARS.to_string()
                    prop:value=move || store.clarification.get()
                    on:input=move |ev| store.clarification.set(event_target_value(&ev))
                />
            </div>
            <ActionButton
                id="act-clarify"
                action=Callback::new(move |()| Action::SupplyClarification(store.clarification.get()))
                hint="The task waits for clarification: this resumes the same task."
            />
            <ActionButton
                id="act-authorize"
                action=Callback::new(|()| Action::Authorize)
                hint="The task waits for authorization: this resumes the same task."
            />
            <ActionButton
                id="act-cancel"
                action=Callback::new(|()| Action::RequestCancellation)
                hint="Asks the worker to stop; it may refuse (see Worker accepts cancellation)."
            />
            <ActionButton
                id="act-follow-up"
                action=Callback::new(|()| Action::FollowUp)
                hint="Starts a new task in the same context that references this one."
            />
        </section>
    }
}
