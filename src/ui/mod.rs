//! The Leptos control room over the model.

use crate::model::{Action, Config, Experiment, IdSource};
use leptos::prelude::*;

/// A random seed for the id source, drawn once from the platform's generator
/// (in the browser: `crypto.getRandomValues` through getrandom).
pub fn random_seed() -> u64 {
    uuid::Uuid::new_v4().as_u64_pair().0
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let exp = RwSignal::new(
        Experiment::new(Config::default(), IdSource::seeded(random_seed()))
            .expect("the default config is valid"),
    );
    let state = move || exp.with(|e| e.snapshot().state.name());
    let task_id = move || exp.with(|e| e.viewed_task().id.clone());
    let step = move |_| {
        exp.update(|e| {
            let _ = e.apply(Action::Step);
        })
    };
    view! {
        <main>
            <h1>"A2A Task Control Room"</h1>
            <p>"Task " <code data-testid="task-id">{task_id}</code></p>
            <p>"State " <strong data-testid="task-state">{state}</strong></p>
            <button on:click=step>"Step"</button>
        </main>
    }
}
