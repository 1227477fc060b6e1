//! Tasks in this context: every task, its state and the follow-up chain.

use super::store::Store;
use crate::model::TaskState;
use leptos::prelude::*;

#[component]
pub fn TasksPanel() -> impl IntoView {
    let store = expect_context::<Store>();
    // Only what the rows show: a Step that changes no task's state re-renders nothing.
    let summary = Memo::new(move |_| {
        store.exp.with(|e| {
            let rows: Vec<(String, Option<String>, TaskState)> = e
                .tasks()
                .iter()
                .map(|t| {
                    (
                        t.id.clone(),
                        t.reference_task_id.clone(),
                        t.latest().snap.state,
                    )
                })
                .collect();
            (rows, e.viewed_task_index(), e.later_count() > 0)
        })
    });
    let rows = move || {
        summary.with(|(rows, viewed, past)| {
            let count = rows.len();
            rows.iter()
                .enumerate()
                .map(|(i, (id, reference, state))| {
                    let state = *state;
                    let reference = reference
                        .as_ref()
                        .map(|r| format!("follow-up of {}", short(r)))
                        .unwrap_or_else(|| "first task".into());
                    let current = i == *viewed;
                    let latest = i + 1 == count;
                    view! {
                        <li data-testid="task-list-item" class:viewed=current>
                            <button
                                class="task-row"
                                aria-current=if current { Some("true") } else { None }
                                on:click=move |_| store.view_task(i)
                            >
                                <span class="task-n">{format!("Task {}", i + 1)}</span>
                                <code>{id.clone()}</code>
                                <span class=format!("badge {}", state.family())>{state.to_string()}</span>
                                <span class="muted">
                                    {reference}
                                    {if latest { " · newest" } else { " · read-only" }}
                                    // Each row shows its task's latest state.
                                    {(current && *past).then_some(" · its latest state; you are viewing an earlier one")}
                                </span>
                            </button>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    // The viewed task's row stays in the list's view as the chain grows and
    // as another task is viewed (the list alone scrolls, never the page).
    // Only a task added or another viewed moves it: a reader scrolled up
    // the list stays where they are while a task plays.
    let list = NodeRef::<leptos::html::Ol>::new();
    let rows_and_viewed =
        Memo::new(move |_| summary.with(|(rows, viewed, _)| (rows.len(), *viewed)));
    Effect::new(move |_| {
        let (_, viewed) = rows_and_viewed.get();
        // Once the rows are drawn.
        request_animation_frame(move || {
            // The page may be gone by then (its owner disposed).
            let list = list.try_get_untracked().flatten();
            let (Some(list), Ok(i)) = (list, u32::try_from(viewed)) else {
                return;
            };
            if let Some(row) = list.children().item(i) {
                super::trace::bring_into_view(&list, &row);
            }
        });
    });
    view! {
        <section class="panel" aria-labelledby="tasks-h">
            <h2 id="tasks-h">"Tasks in this context"</h2>
            <ol class="task-list" data-testid="task-list" node_ref=list>{rows}</ol>
        </section>
    }
}

/// The first eight characters of an id.
pub fn short(id: &str) -> &str {
    id.get(..8).unwrap_or(id)
}
