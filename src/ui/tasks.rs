//! Tasks in this context: every task, its state and the follow-up chain.

use super::store::Store;
use leptos::prelude::*;

#[component]
pub fn TasksPanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let rows = move || {
        store.exp.with(|e| {
            let viewed = e.viewed_task_index();
            e.tasks()
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let state = t.latest().snap.state;
                    let reference = t
                        .reference_task_id
                        .as_ref()
                        .map(|r| format!("follow-up of {}", short(r)))
                        .unwrap_or_else(|| "first task".into());
                    let current = i == viewed;
                    let latest = i + 1 == e.tasks().len();
                    view! {
                        <li data-testid="task-list-item" class:viewed=current>
                            <button
                                class="task-row"
                                aria-current=if current { Some("true") } else { None }
                                on:click=move |_| store.view_task(i)
                            >
                                <span class="task-n">{format!("Task {}", i + 1)}</span>
                                <code>{t.id.clone()}</code>
                                <span class=format!("badge {}", state.family())>{state.name()}</span>
                                <span class="muted">
                                    {reference}
                                    {if latest { " · current" } else { " · read-only" }}
                                </span>
                            </button>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <section class="panel" aria-labelledby="tasks-h">
            <h2 id="tasks-h">"Tasks in this context"</h2>
            <ol class="task-list" data-testid="task-list">{rows}</ol>
        </section>
    }
}

/// The first eight characters of an id.
pub fn short(id: &str) -> &str {
    id.get(..8).unwrap_or(id)
}
