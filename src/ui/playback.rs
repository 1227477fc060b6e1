//! Playback: Play/Pause, Step, Restart experiment and Speed.

use super::guide::{Guided, GuidedStep};
use super::store::{Store, SPEEDS};
use crate::model::{Action, Answer, Experiment, PlayStop, TaskState};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

#[component]
pub fn PlaybackPanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let step_verdict = Memo::new(move |_| store.legality(&Action::Step));
    let play_verdict = Memo::new(move |_| store.exp.with(Experiment::play_legality));
    // While paused (proposal), Steps run the waiting clock, not work.
    let paused = move || store.exp.with(|e| e.snapshot().state == TaskState::Paused);
    let playing = move || store.playing.get();
    // A replay moves the view as Play does: the button pauses it.
    let replaying = move || store.replay.with(Option::is_some);
    let moving = move || playing() || replaying();
    // A fresh experiment (its task created, nothing else traced) of
    // settings that never stop the task, not one of the page's experiments
    // (whose own line says what to do).
    let untried = move || {
        store.guided.with(Option::is_none)
            && store
                .exp
                .with(|e| e.trace().len() == 1 && e.config().runs_straight_through())
    };
    // Where a task that waits for the client is answered, wherever the
    // Act panel is on the page: only when the answer is allowed (not at the
    // limits of a run, nor on a read-only task). A clarification is offered
    // whatever the text field holds: the link goes to the field.
    let answer = move || {
        let (answer, at) = match store.exp.with(|e| e.snapshot().state.awaits())? {
            Answer::Clarification => (
                Action::SupplyClarification("…".into()),
                ("clarification-text", "Go to clarification"),
            ),
            Answer::Authorization => (Action::Authorize, ("act-authorize", "Go to authorization")),
            // The request Resume task sends, its input field included.
            Answer::Resume => (store.resume_action(true), ("act-resume", "Go to resume")),
            // Not where an experiment set up goes on with Task 1: its line
            // says what comes next.
            Answer::FollowUp if store.guided.get().is_some_and(|g| g != Guided::FollowUp) => {
                return None
            }
            Answer::FollowUp => (Action::FollowUp, ("act-follow-up", "Go to follow-up")),
        };
        store.legality(&answer).is_ok().then_some(at)
    };
    let guided = Memo::new(move |_| {
        let g = store.guided.get()?;
        Some((g, store.guided_step()?, store.guided_ahead()))
    });
    view! {
        <section class="panel" aria-labelledby="playback-h">
            <h2 id="playback-h">"Playback"</h2>
            <div class="buttons">
                <button
                    id="play"
                    class="primary"
                    aria-describedby="step-reason discard-warning"
                    disabled=move || !moving() && play_verdict.get().is_err()
                    on:click=move |_| store.toggle_play()
                    // While Play runs, a line along its foot fills until the
                    // next Step (anew at each of Play's ticks: `odd` flips
                    // with its clock's beat, not with a Step pressed between
                    // them), so a slow speed shows that it runs between them.
                    class:playing=moving
                    class:odd=move || moving() && store.beat.get() % 2 == 1
                    style:--tick=move || format!("{}ms", store.play_period_ms())
                >
                    // "Pause playback", not "Pause": the task's own pause is another thing.
                    {move || match (playing(), replaying()) {
                        (true, _) => "Pause playback",
                        (false, true) => "Pause replay",
                        (false, false) => "Play",
                    }}
                </button>
                <button
                    id="step"
                    aria-describedby="step-reason discard-warning"
                    disabled=move || step_verdict.get().is_err()
                    on:click=move |_| {
                        store.step();
                    }
                >
                    "Step"
                </button>
                <button id="restart" on:click=move |_| store.restart()>"Restart experiment"</button>
            </div>
            // The reason (with the links its first words end on) describes
            // Play and Step; the Go to link beside it is a control of its own.
            // Amber where the task waits or the run is full; a terminal task
            // has simply finished, said in the hint's colour.
            <p
                class="reason step-why"
                class:blocked=move || {
                    step_verdict.get().is_err()
                        && !store.exp.with(|e| e.snapshot().state.is_terminal())
                }
            >
                <span id="step-reason">{move || match step_verdict.get() {
                    Ok(()) if paused() => match play_verdict.get().err().and_then(PlayStop::wakers) {
                        None => "The task is paused (proposal): Step waits one minute; Play waits until its timeout fires or a resume wakes it.".to_string(),
                        Some(wakers) => format!(
                            "The task is paused (proposal): Step waits one minute; Play has nothing to run until {wakers} wakes it."
                        ),
                    },
                    // Before the first Step of settings that never stop the
                    // task, where a first Play would show no interruption.
                    Ok(()) if untried() => "Nothing in these settings interrupts the task: Play runs it straight to TASK_STATE_COMPLETED in about a minute at 1×, where New follow-up task can go on (experiment 2). To see it stop for input and resume the same task instead:".to_string(),
                    Ok(()) => "Step runs up to one active second, stopping where the task asks for input or authorization; Play runs the whole active path in about a minute at 1×.".to_string(),
                    Err(why) => why,
                }}
                // The links the first words end on are part of what Play
                // and Step are described by, so the words lead somewhere.
                {move || untried().then(|| view! {
                    " "
                    <button class="link" data-testid="add-input-gate" on:click=move |_| super::guide::set_up_input_gate(store)>
                        {move || format!("Require input before unit {}", store.config.with(super::guide::input_gate_unit))}
                    </button>
                    " (the other settings stay), or "
                    <span class="keep">
                        <button class="link" data-testid="to-experiments" on:click=move |_| super::app::show_guide()>
                            "see the experiments"
                        </button>
                        "."
                    </span>
                })}</span>
                {move || answer().map(|(id, label)| view! {
                    " "
                    // Said with why Step stopped: focus may land here before the status is read.
                    <button class="link" data-testid="go-to-answer" aria-describedby="step-reason" on:click=move |_| follow(store, id)>
                        {label}
                    </button>
                })}
            </p>
            // The experiment set up, step by step, said again to a screen
            // reader as it moves on (not at each Step: the memo keeps it).
            <div aria-live="polite">
            // Keyed by the step: each step's words are new nodes, where words
            // changed in place would count as moving.
            <For each=move || guided.get() key=|line| line.clone() children=move |(g, at, ahead)| guided_line(store, g, at, ahead)/>
            </div>
            {step_copy(store, guided)}
            <div class="field">
                <span class="speed-label">
                    <label for="speed">"Speed"</label>
                    // The pace in the task's own seconds: a 3 s unit does not take
                    // 3 s at 1×.
                    <span class="hint" id="speed-hint" data-testid="speed-hint">{move || {
                        let ms = store.play_period_ms();
                        let every = match ms {
                            0..1000 => format!("{ms} ms"),
                            _ => format!("{}.{} s", ms / 1000, ms % 1000 / 100),
                        };
                        format!("1 s of the task every {every}")
                    }}</span>
                </span>
                <select
                    id="speed"
                    aria-describedby="speed-hint"
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
            // Its help is of no use on a touch screen, where it would fill the
            // first screen (the style sheet hides it there).
            <div class="shortcuts">
                <super::actions::Toggle label="Keyboard shortcuts" value=store.shortcuts/>
                <details class="hint">
                    <summary>"Which keys"</summary>
                    "Space plays or pauses playback and → steps (both from the latest recorded state), [ and ] move through recorded states: not "
                    "while a field, the trace or another control has focus, except Play, Step and the ‹ › of "
                    "Recorded states; on a panel a link took focus to, Space scrolls. Escape dismisses an alert or a notice. Enter in a text field of Act "
                    "sends it (Shift+Enter: a new line)."
                </details>
            </div>
        </section>
    }
}

/// The experiment's line: where the viewed task stands in experiment `g`
/// (`at`), and, unseen in the same place, where it will stand at Play's
/// stops from here on (`ahead`), so that the line is as high as the highest.
fn guided_line(store: Store, g: Guided, at: GuidedStep, ahead: Vec<GuidedStep>) -> impl IntoView {
    // The link a finished experiment ends on: to the next one; or the
    // link to the control its step asks for.
    let link = |step: &GuidedStep| match step.go {
        _ if step.done => Some(match g.after() {
            Some(next) => format!("Set up {}", next.name()),
            None => "See the experiments".to_string(),
        }),
        Some((_, words)) => Some(words.to_string()),
        None => None,
    };
    let go = at.go;
    let next = link(&at).map(|name| {
        view! {
            " "
            <button
                class="link"
                data-testid=if go.is_some() { "guided-go" } else { "guided-next" }
                on:click=move |_| match (go, g.after()) {
                    (Some((id, _)), _) => follow(store, id),
                    (None, Some(next)) => super::guide::set_up_guided(store, next),
                    (None, None) => super::app::show_guide(),
                }
            >
                {name}
            </button>
        }
    });
    let reserve = ahead.into_iter().filter(|a| *a != at);
    let reserve = reserve.map(|a| {
        // As the link will be, to wrap as it will.
        let link = link(&a)
            .map(|name| view! { " " <button class="link" disabled tabindex="-1">{name}</button> });
        view! {
            <p class="reserve" aria-hidden="true">
                <strong>{a.label(g)}</strong>
                {a.text}
                {link}
            </p>
        }
    });
    let reserve = reserve.collect_view();
    view! {
        <div class="guided" class:done=at.done>
            <p data-testid="guided">
                <strong>{at.label(g)}</strong>
                {at.text}
                {next}
            </p>
            {reserve}
        </div>
    }
}

/// The experiment's line, when the task moves it on out of sight (the user
/// acted far below it, or Play stopped while they read elsewhere; not a
/// move through recorded states): a copy over the page, until the next
/// press or key, until the line is scrolled into view, or once it has had
/// time to be read (it then fades: it may cover what the step shows). For
/// the eye alone (it takes no pointer either): the line itself says it to a
/// screen reader.
fn step_copy(
    store: Store,
    guided: Memo<Option<(Guided, GuidedStep, Vec<GuidedStep>)>>,
) -> impl IntoView {
    // The experiment and its step, now.
    let line = move || guided.with(|l| l.as_ref().map(|(g, at, _)| (*g, at.clone())));
    let line_untracked = move || untrack(line);
    // Shown: the line as it is now (a change hides it first).
    let shown = RwSignal::new(false);
    // Drawn unseen at first, then where it covers neither the control last
    // pressed or focused nor the notice.
    let placing = RwSignal::new(false);
    let at_top = RwSignal::new(false);
    let pressed = StoredValue::new_local(None::<web_sys::HtmlElement>);
    // Which showing this is: the time to read one ends it, not a later one.
    let showing = StoredValue::new(0u32);
    let hide = move || {
        if shown.get_untracked() {
            shown.set(false);
        }
    };
    Effect::new(move |before: Option<_>| {
        // What moves the task on: a new newest entry, or another task viewed.
        let moved = store
            .exp
            .with(|e| (e.trace().last().copied(), e.viewed_task_index()));
        let now = (line(), moved);
        let moved_on = before
            .as_ref()
            .is_some_and(|(line, moved): &(Option<_>, _)| *line != now.0 && *moved != now.1);
        if moved_on {
            hide();
            // Once the page shows the step, and wherever a set-up has
            // scrolled to.
            let step = now.0.clone();
            request_animation_frame(move || {
                let still = line_untracked();
                if still.is_none() || still != step || line_clear() {
                    return;
                }
                placing.set(true);
                at_top.set(super::app::layout() < super::app::Layout::Desk);
                shown.set(true);
                request_animation_frame(move || {
                    match place_copy(at_top.get_untracked(), pressed.get_value()) {
                        Some(top) => {
                            at_top.set(top);
                            placing.set(false);
                            let ms = step.map_or(0, |(_, at)| reading_ms(&at));
                            showing.update_value(|n| *n += 1);
                            let this = showing.get_value();
                            set_timeout(
                                // (Not once the page is gone.)
                                move || {
                                    if showing.try_get_value() == Some(this) {
                                        hide();
                                    }
                                },
                                std::time::Duration::from_millis(u64::from(ms)),
                            );
                        }
                        None => shown.set(false),
                    }
                });
            });
        }
        now
    });
    let pressing = window_event_listener(leptos::ev::pointerdown, move |ev| {
        let control = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|t| {
                t.closest("button, input, select, textarea, a")
                    .ok()
                    .flatten()
            });
        pressed.set_value(control.and_then(|c| c.dyn_into().ok()));
        hide();
    });
    let keyed = window_event_listener(leptos::ev::keydown, move |_| {
        pressed.set_value(None);
        hide();
    });
    let scrolled = window_event_listener(leptos::ev::scroll, move |_| {
        if shown.get_untracked() && line_clear() {
            shown.set(false);
        }
    });
    on_cleanup(move || {
        pressing.remove();
        keyed.remove();
        scrolled.remove();
    });
    view! {
        <div
            class="step-copy"
            aria-hidden="true"
            data-testid="step-copy"
            class:shown=shown
            class:placing=placing
            class:top=at_top
            class:done=move || shown.get() && line().is_some_and(|(_, at)| at.done)
            style:--stay=move || line().map(|(_, at)| format!("{}ms", reading_ms(&at)))
        >
            {move || line().filter(|_| shown.get()).map(|(g, at)| view! {
                <p><strong>{at.label(g)}</strong>{at.text}</p>
                <p class="hint">"The experiment's line, under Play"</p>
            })}
        </div>
    }
}

/// How long the step's copy stays once shown: its reading time, at 250 ms a
/// word (about 240 words a minute) and 3 s more, not under 6 s; the last
/// second of it fades (CSS).
fn reading_ms(at: &GuidedStep) -> u32 {
    (3000 + 250 * at.text.split_whitespace().count() as u32).max(6000)
}

/// Whether the experiment's line is wholly on screen, clear of the strip,
/// notice and alert over it.
fn line_clear() -> bool {
    document()
        .query_selector("[data-testid=guided]")
        .ok()
        .flatten()
        .is_some_and(|el| super::app::clear_in_view(&el))
}

/// Where the step's copy, drawn unseen, goes: at the top of the screen
/// (`top`) or its foot, or else at the other end, whichever covers neither
/// the control with focus (or, where a click gives none, the one `pressed`)
/// nor the notice; none when both do.
fn place_copy(top: bool, pressed: Option<web_sys::HtmlElement>) -> Option<bool> {
    let copy = document()
        .query_selector("[data-testid=step-copy]")
        .ok()
        .flatten()?;
    let rect = copy.get_bounding_client_rect();
    let (_, height) = super::app::window_size();
    // Its band at either end, 0.75 rem from it (at the top, from the strip
    // a phone keeps fixed there; a wide screen's is in the masthead).
    let strip = document()
        .query_selector(".state-strip")
        .ok()
        .flatten()
        .filter(|s| {
            window()
                .get_computed_style(s)
                .ok()
                .flatten()
                .and_then(|style| style.get_property_value("position").ok())
                .is_some_and(|p| p == "fixed")
        })
        .map_or(0.0, |s| s.get_bounding_client_rect().bottom());
    let band = |at_top: bool| match at_top {
        true => (strip + 12.0, strip + 12.0 + rect.height()),
        false => (height - 12.0 - rect.height(), height - 12.0),
    };
    let focused = document()
        .active_element()
        .filter(|a| !matches!(a.tag_name().as_str(), "BODY" | "MAIN"));
    let notice = document()
        .query_selector(".messages .notice.shown")
        .ok()
        .flatten();
    let below: Vec<web_sys::DomRect> = [focused.or(pressed.map(Into::into)), notice]
        .into_iter()
        .flatten()
        .map(|el| el.get_bounding_client_rect())
        .collect();
    let covers = |(from, to): (f64, f64)| {
        below.iter().any(|b| {
            b.bottom() > from && b.top() < to && b.right() > rect.left() && b.left() < rect.right()
        })
    };
    [top, !top].into_iter().find(|&t| !covers(band(t)))
}

/// A *Go to …* link followed to the control `id` ([`go_to`]): where the user
/// goes now, no notice of before covers it.
pub fn follow(store: Store, id: &str) {
    store.notice.set(None);
    go_to(id);
}

/// Brings the control `id` to the middle of the screen and focuses it; one
/// that is off (Play once the task has ended), where focus cannot rest,
/// brings its panel, which says why.
pub fn go_to(id: &str) {
    if let Some(el) = control(id) {
        if el.has_attribute("disabled") {
            if let Some(panel) = el.closest("section.panel").ok().flatten() {
                super::app::show_region(panel);
            }
            return;
        }
        let options = web_sys::ScrollIntoViewOptions::new();
        options.set_block(web_sys::ScrollLogicalPosition::Center);
        el.scroll_into_view_with_scroll_into_view_options(&options);
        super::app::moved_focus_to(&el);
        let _ = el.focus();
    }
}

/// Focuses the control `id`, where a button that goes away leaves focus.
pub fn focus(id: &str) {
    if let Some(el) = control(id) {
        let _ = el.focus();
    }
}

fn control(id: &str) -> Option<web_sys::HtmlElement> {
    document().get_element_by_id(id)?.dyn_into().ok()
}
