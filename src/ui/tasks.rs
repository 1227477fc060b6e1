//! Tasks in this context: every task, its state and the follow-up chain.

use super::store::Store;
use crate::model::TaskState;
use leptos::prelude::*;

#[component]
pub fn TasksPanel() -> impl IntoView {
    let store = expect_context::<Store>();
    // A Step changes what one row shows, at most two (a move to another
    // task): each row is drawn once, keyed by its context and place, and
    // follows a signal of its own, set by one effect only where what the
    // row shows changed (a byte compare a task: no reactive node a row, so
    // a Step stays as fast at 3 300 tasks, where redrawing every row took
    // 150 ms).
    let shape = Memo::new(move |_| {
        store
            .exp
            .with(|e| (e.context_id().to_string(), e.tasks().len()))
    });
    let cells: StoredValue<Vec<Option<Cell>>> = StoredValue::new(Vec::new());
    let shows = move |e: &crate::model::Experiment, i: usize| RowShows {
        state: e.tasks().get(i).map(|t| t.latest().snap.state),
        newest: i + 1 == e.tasks().len(),
        viewed: i == e.viewed_task_index(),
        past: i == e.viewed_task_index() && e.later_count() > 0,
    };
    Effect::new(move |_| {
        store.exp.with(|e| {
            cells.update_value(|cells| {
                for (cell, (i, task)) in cells.iter_mut().zip(e.tasks().iter().enumerate()) {
                    let Some(cell) = cell else { continue };
                    let now = shows(e, i);
                    if cell.shown != now {
                        cell.shown = now;
                        cell.shows.try_set(now);
                    }
                    // Another run of the same context may name its tasks otherwise.
                    if cell.names.0 != task.id || cell.names.1 != task.reference_task_id {
                        cell.names = (task.id.clone(), task.reference_task_id.clone());
                        cell.named.try_set(cell.names.clone());
                    }
                }
            })
        })
    });
    let row = move |(_, i): (String, usize)| {
        let (names, now) = store.exp.with_untracked(|e| {
            let names = e
                .tasks()
                .get(i)
                .map(|t| (t.id.clone(), t.reference_task_id.clone()))
                .unwrap_or_default();
            (names, shows(e, i))
        });
        let shown = RwSignal::new(now);
        let named = RwSignal::new(names.clone());
        cells.update_value(|cells| {
            if cells.len() <= i {
                cells.resize(i + 1, None);
            }
            cells[i] = Some(Cell {
                shows: shown,
                shown: now,
                named,
                names,
            });
        });
        let state = move || shown.get().state.unwrap_or(TaskState::Submitted);
        let current = move || shown.get().viewed;
        let reference = move || {
            named.with(|(_, r)| {
                r.as_ref()
                    .map(|r| format!("follow-up of {}", short(r)))
                    .unwrap_or_else(|| "first task".into())
            })
        };
        view! {
            <li data-testid="task-list-item" class:viewed=current>
                <button
                    class="task-row"
                    id=(i == 0).then_some(TASK_1_ROW)
                    aria-current=move || current().then_some("true")
                    on:click=move |_| store.view_task(i)
                >
                    <span class="task-n">{format!("Task {}", i + 1)}</span>
                    // Seen, not heard: a whole UUID in the row's name would
                    // drown what tells the rows apart (Inspect reads it out).
                    <code aria-hidden="true">{move || named.with(|(id, _)| id.clone())}</code>
                    <span class=move || format!("badge {}", state().family())>{move || state().to_string()}</span>
                    <span class="muted">
                        {reference}
                        {move || if shown.get().newest { " · newest" } else { " · read-only" }}
                        // Each row shows its task's latest state.
                        {move || shown.get().past.then_some(" · its latest state; you are viewing an earlier one")}
                    </span>
                </button>
            </li>
        }
    };
    let rows = move || {
        let (context, n) = shape.get();
        (0..n).map(move |i| (context.clone(), i))
    };
    let rows = view! { <For each=rows key=|k| k.clone() children=row/> };
    // The viewed task's row stays in the list's view as the chain grows and
    // as another task is viewed (the list alone scrolls, never the page).
    // Only a task added or another viewed moves it: a reader scrolled up
    // the list stays where they are while a task plays.
    let list = NodeRef::<leptos::html::Ol>::new();
    let rows_and_viewed =
        Memo::new(move |_| store.exp.with(|e| (e.tasks().len(), e.viewed_task_index())));
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

/// What one row of the list shows that a Step or a move may change.
#[derive(Clone, Copy, PartialEq, Eq)]
struct RowShows {
    state: Option<TaskState>,
    newest: bool,
    viewed: bool,
    past: bool,
}

/// A row's signals, with what each last showed.
#[derive(Clone)]
struct Cell {
    shows: RwSignal<RowShows>,
    shown: RowShows,
    /// Its task's id, and the id of the task it follows up.
    named: RwSignal<(String, Option<String>)>,
    names: (String, Option<String>),
}

pub use crate::model::short_id as short;

/// The element id of Task 1's row, where experiment 2's line sends the user.
pub const TASK_1_ROW: &str = "task-row-1";
