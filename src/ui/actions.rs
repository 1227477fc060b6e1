//! Act on the viewed state: each button is enabled exactly when the model's
//! legality allows its action (Resume with wrong token, exactly when the
//! model answers it with the wrong-token error), and a disabled one shows
//! why, tied by aria-describedby.

use super::store::nothing_changed;
use super::store::Store;
use crate::model::{
    after_colon, Action, Event, NoChange, Outcome, PauseFate, PauseMode, Refusal, TraceEntry,
    MAX_CLARIFICATION_CHARS,
};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// A button for `action`, with its reason line below it.
#[component]
pub fn ActionButton(
    /// Builds the action to check and to apply (it may read signals).
    action: Callback<(), Action>,
    /// Shown under the button while it is enabled.
    #[prop(into)]
    hint: Signal<String>,
    id: &'static str,
    /// The way forward for a task that waits for the client: drawn to stand
    /// out while it is enabled (and said, as `carries_on`, when it has set
    /// the task running again).
    #[prop(optional)]
    leads: bool,
    /// Says, once it has set the task running again (or, for a pause that
    /// waits for the work in flight, left it running), that Play or Step
    /// carries it on (with a link to Play, which gets the focus from the
    /// button; Enter in a text field keeps it there), without standing out
    /// before.
    #[prop(optional)]
    carries_on: bool,
) -> impl IntoView {
    let store = expect_context::<Store>();
    let verdict = Memo::new(move |_| store.legality(&action.run(())));
    let text_refused = refuses_text(store, action);
    let reason_id = format!("{id}-reason");
    // "Go to Play" is said with what the action did.
    let said_id = format!("{id}-said");
    let described_by = said_id.clone();
    let label = untrack(|| action.run(())).label();
    // The trace entry this button's action recorded last (with the action
    // it sent), while it is the newest: an answer that sets the task running
    // again says that Play or Step carries it on, with a link to Play (far
    // above on a phone); an action that changed nothing says so.
    // Kept with its context: a fresh experiment or a new branch may reach
    // the same seq with other entries.
    // Whether Play ran when it was sent: a refusal then paused playback.
    let sent = RwSignal::new(None::<(String, TraceEntry, Action, bool)>);
    let newest = move || store.exp.with(|e| e.trace().last().copied());
    // The outcome of this button's newest entry, while it is newest and viewed.
    let outcome = move || {
        let idle = !store.playing.get() && !store.exp.with(|e| e.views_the_past());
        sent.with(|s| {
            s.as_ref()
                .filter(|(context, entry, ..)| {
                    idle && store
                        .exp
                        .with(|e| e.context_id() == context && e.trace().last() == Some(entry))
                })
                .map(|(_, entry, ..)| entry.outcome)
        })
    };
    let unchanged = move || match outcome() {
        Some(Outcome::Unchanged(why)) => sent.with(|s| {
            s.as_ref().map(|(_, entry, action, _)| {
                nothing_changed(action.said(), why, action, entry.after)
            })
        }),
        _ => None,
    };
    // A pause that took effect at once (proposal): said as done, not as
    // what pressing again would do.
    let paused_now = move || {
        let sent_pause = sent.with(|s| {
            s.as_ref()
                .is_some_and(|(_, _, a, _)| matches!(a, Action::PauseTask { .. }))
        });
        (sent_pause
            && outcome() == Some(Outcome::Done)
            && store
                .exp
                .with(|e| e.snapshot().state == crate::model::TaskState::Paused))
        .then(|| {
            "Done: the task is TASK_STATE_PAUSED (proposal); Resume task wakes it.".to_string()
        })
    };
    // Refused while Play ran, which the refusal paused: Play carries on.
    let refused_playing = move || {
        // Why, here too: the alert may be dismissed, or out of sight.
        let playing = sent.with(|s| s.as_ref().is_some_and(|(.., playing)| *playing));
        match outcome() {
            Some(Outcome::Refused(why)) if playing && store.play_verdict().is_ok() => {
                Some(format!(
                    "Refused. {why} Playback paused at the refusal, and Play carries the task on."
                ))
            }
            _ => None,
        }
    };
    // Experiment 2 goes on with Task 1 once its follow-up is made, not
    // with Play: its line says so, and no Go to Play here says otherwise.
    let on_with_task_1 = move || {
        let followed_up = sent.with(|s| {
            s.as_ref()
                .is_some_and(|(_, entry, ..)| entry.event == (Event::Created { follow_up: true }))
        });
        followed_up
            && store.guided.get() == Some(super::guide::Guided::FollowUp)
            && store
                .guided_step()
                .is_some_and(|at| at.step == 3 && !at.done)
    };
    let carry_on = move || {
        let shown =
            (leads || carries_on) && !text_refused.get() && outcome() == Some(Outcome::Done);
        if !shown {
            return refused_playing();
        }
        store.play_verdict().is_ok().then(|| {
            store.exp.with(|e| {
                let (state, task) = (e.snapshot().state, e.viewed_task_index() + 1);
                sent.with(|s| match s.as_ref().map(|(_, entry, action, _)| (entry.event, action)) {
                    // The token Inspect showed before the pause ended, said
                    // as it showed it.
                    Some((_, Action::ResumeTask { token, .. })) => format!(
                        "Done: resumed with the token {}… that Inspect showed; the task is {state} now, and Play or Step carries it on.",
                        super::tasks::short(token)
                    ),
                    // What an answer keeps, where it is given (experiment 1
                    // asks you to compare them in Inspect).
                    Some((_, Action::SupplyClarification(_) | Action::Authorize)) => {
                        let kept = match e.snapshot().completed_units {
                            0 => "its ids".to_string(),
                            k => format!("its ids and {k} of {} units", e.config().work_units),
                        };
                        format!("Done: the same task, {kept} kept, is {state} now; Play or Step carries it on.")
                    }
                    Some((Event::Created { follow_up: true }, _)) if on_with_task_1() => format!(
                        "Done: follow-up task {task} (a new task id, the same context) is {state}. Experiment 2 goes on with Task 1: see the line under Play."
                    ),
                    Some((Event::Created { follow_up: true }, _)) => format!(
                        "Done: follow-up task {task} (a new task id, the same context) is {state}; Play or Step runs it."
                    ),
                    // A pause that waits for the in-flight work (proposal).
                    Some((_, Action::PauseTask { .. })) if pause_outlook(e).is_some_and(|(_, _, lapses)| lapses) => format!(
                        "Done: the pause is requested (proposal), but it lapses (see Pause requested); the task is {state}, and Play or Step carries it on."
                    ),
                    Some((_, Action::PauseTask { .. })) => format!(
                        "Done: the pause is requested (proposal) and the task is {state} until it takes effect; Play or Step carries it there."
                    ),
                    _ => format!("Done: the task is {state} now, and Play or Step carries it on."),
                })
            })
        })
    };
    view! {
        // Focus stays on this box once its button turns itself off (Request
        // cancellation once the task is canceled): it is then a group named
        // by its reason, which says why the button is off now (see
        // `app::refocus`), and no longer once focus leaves it.
        <div
            class="action"
            on:focusout=move |ev| {
                // Not as focus comes to the box itself: its button, turned
                // off with focus still on it, hands focus to the box, and
                // that focusout reaches the box too.
                let to_box = match (ev.related_target(), ev.current_target()) {
                    (Some(to), Some(this)) => to == this,
                    _ => false,
                };
                if to_box {
                    return;
                }
                if let Some(el) = ev
                    .current_target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                {
                    let _ = el.remove_attribute("role");
                    let _ = el.remove_attribute("aria-labelledby");
                    let _ = el.remove_attribute("tabindex");
                }
            }
        >
            <button
                id=id
                class:leads=move || leads && verdict.get().is_ok()
                disabled=move || verdict.get().is_err()
                // The warning that acting now discards later states, while shown.
                aria-describedby=format!("{reason_id} discard-warning")
                on:click=move |_| {
                    let before = untrack(newest);
                    let act = untrack(|| action.run(()));
                    let playing = store.playing.get_untracked();
                    store.act(act.clone());
                    let after = untrack(newest).filter(|t| Some(*t) != before);
                    let context = store.exp.with_untracked(|e| e.context_id().to_string());
                    sent.set(after.map(|t| (context, t, act, playing)));
                }
            >
                {label}
            </button>
            <p id=reason_id class="reason" class:blocked=move || verdict.get().is_err() && carry_on().is_none()>
                // The words alone, which "Go to Play" is described by.
                <span id=said_id>{move || match (verdict.get(), carry_on()) {
                    (_, Some(done)) => done,
                    (Ok(()), None) if let Some(paused) = paused_now() => paused,
                    (Ok(()), None) if let Some(said) = unchanged() => said,
                    (Ok(()), None) => hint.get(),
                    // Said in full once, under Recorded states.
                    (Err(_), None) if store.exp.with(|e| e.is_read_only()) => {
                        "A read-only view of an earlier task: only the Wire panel's requests reach it.".to_string()
                    }
                    // Too long: by how much, where the field cannot show it.
                    (Err(why), None) if text_refused.get() => {
                        match action.run(()).over_limit() {
                            Some(n) => format!("{why} It has {n}."),
                            None => why,
                        }
                    }
                    // Done, and nothing more for it to do (a cancellation
                    // accepted): said as done, which is why it is off now
                    // (the refusal a second one would get is said once
                    // anything else happens).
                    (Err(_), None) if outcome() == Some(Outcome::Done) => store
                        .exp
                        .with(|e| format!("Done: the task is {} now.", e.snapshot().state)),
                    (Err(why), None) => why,
                }}</span>
                {move || carry_on().filter(|_| !on_with_task_1()).map(|_| view! {
                    " "
                    <button class="link" data-testid="go-to-answer" aria-describedby=described_by.clone() on:click=move |_| super::playback::follow(store, "play")>
                        "Go to Play"
                    </button>
                })}
            </p>
        </div>
    }
}

/// Whether `action` is refused for the text typed for it (empty, too long)
/// on a task that could take it: its field is then marked invalid, and the
/// line under its button says why, not "Done".
fn refuses_text(store: Store, action: Callback<(), Action>) -> Memo<bool> {
    Memo::new(move |_| {
        store.exp.with(|e| {
            !e.is_read_only()
                && e.legality(&action.run(()))
                    .is_err_and(Refusal::is_about_text)
        })
    })
}

/// A labelled text field bound to a string signal: one line, or a box of
/// `rows` lines for a message a user writes. Enter in it presses the button
/// `sends`, which sends `action`; while that button is off, the status line
/// says why instead. Shift+Enter starts a new line in a box. While the text
/// is why the request is refused (empty, too long), the field is marked
/// invalid and described by the reason under the button.
#[component]
fn TextField(
    id: &'static str,
    label: &'static str,
    value: RwSignal<String>,
    sends: &'static str,
    action: Callback<(), Action>,
    #[prop(optional)] placeholder: &'static str,
    #[prop(optional)] rows: u32,
    /// Shows how many characters the text has of the most it may have.
    #[prop(optional)]
    counted: bool,
) -> impl IntoView {
    let store = expect_context::<Store>();
    let chars = move || value.with(|v| v.chars().count());
    // Over the limit as the request would carry it (a pause reason or
    // resume input of nothing readable is sent as none): the same test that
    // refuses it.
    let over = move || action.run(()).over_limit().is_some();
    let invalid = refuses_text(store, action);
    let described = format!("{sends}-reason");
    let described = move || invalid.get().then(|| described.clone());
    let enter = move |ev: web_sys::KeyboardEvent| {
        if ev.key() != "Enter" || ev.shift_key() || ev.is_composing() {
            return;
        }
        ev.prevent_default();
        // A held Enter sends once, on its first press: one held since Step
        // (which focus left for this field at a gate) never answers for the user.
        if ev.repeat() {
            return;
        }
        // A press, before the window hears of it (see `Store::pressed`).
        store.pressed();
        let Some(button) = document().get_element_by_id(sends) else {
            return;
        };
        // The model says whether the request goes, as it says whether the
        // button is on.
        if untrack(|| store.legality(&action.run(()))).is_ok() {
            let button = button.unchecked_into::<web_sys::HtmlElement>();
            button.click();
            // Focus goes where a click on the button would take it once the
            // answer has turned the button off (to "Go to Play" when the task
            // runs again); while it is still on, the field keeps it.
            request_animation_frame(move || {
                if button.has_attribute("disabled") {
                    super::app::refocus_from(&button);
                }
            });
            return;
        }
        // The button's own reason line, as it is shown under it.
        let why = why_off(sends);
        store.say(format!(
            "Enter sent nothing: {} is off now. {why}",
            untrack(|| action.run(())).said()
        ));
    };
    let field = if rows > 0 {
        view! {
            <textarea
                id=id
                rows=rows
                placeholder=placeholder
                prop:value=move || value.get()
                aria-invalid=move || invalid.get().then_some("true")
                aria-describedby=described.clone()
                on:input=move |ev| value.set(event_target_value(&ev))
                on:keydown=enter
            ></textarea>
        }
        .into_any()
    } else {
        view! {
            <input
                type="text"
                id=id
                placeholder=placeholder
                prop:value=move || value.get()
                aria-invalid=move || invalid.get().then_some("true")
                aria-describedby=described
                on:input=move |ev| value.set(event_target_value(&ev))
                on:keydown=enter
            />
        }
        .into_any()
    };
    view! {
        <div class=if counted { "field field-text counted" } else { "field field-text" }>
            <label for=id>{label}</label>
            // Not a live region, read at each key: a status heard once, as
            // the text goes over the limit, says so while typing (the reason
            // under the button says it too, once the field is left).
            {counted.then(|| view! {
                <output for=id aria-live="off" class:over=over>
                    {move || format!("{} / {MAX_CLARIFICATION_CHARS}", chars())}
                </output>
                <span class="sr-only" role="status" data-testid="over-limit">
                    {move || over().then(|| format!("Longer than {MAX_CLARIFICATION_CHARS} characters."))}
                </span>
            })}
            {field}
        </div>
    }
}

/// The line under the action button `id`, as it is shown: why the button
/// is off, when it is.
pub fn why_off(id: &str) -> String {
    document()
        .get_element_by_id(&format!("{id}-reason"))
        .and_then(|e| e.text_content())
        .unwrap_or_default()
}

/// A labelled checkbox bound to a boolean signal.
#[component]
pub fn Toggle(#[prop(into)] label: Signal<String>, value: RwSignal<bool>) -> impl IntoView {
    view! {
        <label class="switch">
            <input
                type="checkbox"
                prop:checked=move || value.get()
                on:change=move |ev| value.set(event_target_checked(&ev))
            />
            {label}
        </label>
    }
}

/// A gate's hint (shown while its answer is enabled): the agent's own status
/// message at the gate, as the Wire panel shows it, then `then`.
fn asks(store: Store, auth: bool, then: &str) -> String {
    store.exp.with(|e| {
        let (unit, n) = (e.snapshot().completed_units + 1, e.config().work_units);
        let asked = if auth {
            crate::wire::asked_auth(unit, n)
        } else {
            crate::wire::asked_input(unit, n)
        };
        let verb = if auth { "says" } else { "asks" };
        format!("The agent {verb}: “{asked}” {then}")
    })
}

#[component]
pub fn ActPanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let clarify = Callback::new(move |()| Action::SupplyClarification(store.clarification.get()));
    view! {
        <section class="panel" class:proposal-on=move || store.config.with(|c| c.pause_proposal) aria-labelledby="act-h">
            <h2 id="act-h">"Act on the viewed state"</h2>
            <TextField id="clarification-text" label="Clarification text" value=store.clarification sends="act-clarify" action=clarify rows=2 counted=true/>
            <ActionButton
                id="act-clarify"
                action=clarify
                hint=Signal::derive(move || asks(store, false, "This answers it; the same task resumes."))
                leads=true
            />
            <ActionButton
                id="act-authorize"
                action=Callback::new(|()| Action::Authorize)
                // Where the agent departs from a SHOULD of A2A, said where the
                // user answers the gate (the reason under Supply stays short).
                hint=Signal::derive(move || asks(store, true, "Authorize grants it. A2A says an agent SHOULD also accept messages now; this page sends none."))
                leads=true
            />
            <ActionButton
                id="act-cancel"
                action=Callback::new(|()| Action::RequestCancellation)
                hint=Signal::derive(move || {
                    if store.config.with(|c| c.worker_accepts_cancellation) {
                        "Asks the worker to stop; this one accepts (Worker accepts cancellation, under Configure)."
                    } else {
                        "Asks the worker to stop; this one refuses, with TaskNotCancelableError (-32002): Worker accepts cancellation is off, under Configure."
                    }
                    .to_string()
                })
            />
            <ActionButton
                id="act-follow-up"
                action=Callback::new(|()| Action::FollowUp)
                hint="Starts a new task in the same context that references this one."
                leads=true
            />
            <Show when=move || store.config.with(|c| c.pause_proposal)>
                <PauseControls/>
            </Show>
        </section>
    }
}

/// Proposal: a client's pause asked for that has not taken effect yet, and
/// when it will (or why it never will: whether it lapses).
fn pause_outlook(e: &crate::model::Experiment) -> Option<(PauseMode, String, bool)> {
    // The viewed task's own settings: a follow-up may not fail as the first did.
    pause_outlook_at(e.snapshot(), &e.task_config())
}

/// [`pause_outlook`] at the recorded state `s` of a task with the settings `c`.
pub(super) fn pause_outlook_at(
    s: &crate::model::Snapshot,
    c: &crate::model::Config,
) -> Option<(PauseMode, String, bool)> {
    let p = s.pending?;
    // The model runs the task ahead: the one account of when it pauses.
    let fate = s.pending_pause_fate(c)?;
    let (text, lapses) = match (p.mode, fate) {
        (PauseMode::WaitForCompletion, PauseFate::LapsesAtFailure { unit }) => (
            format!("the task fails during unit {unit} (Fail during unit) before every unit is done, and the pause lapses"),
            true,
        ),
        (PauseMode::WaitForCompletion, _) => ("it takes effect when every unit is done".to_string(), false),
        // finish_step pauses between units.
        (_, PauseFate::LapsesAtFailure { .. }) => (
            "the in-flight unit fails before it completes (Fail during unit), so the task fails and the pause lapses".to_string(),
            true,
        ),
        // None follows the last.
        (_, PauseFate::LapsesAtCompletion) => (
            "the in-flight unit is the task's last, so the task completes when it does and the pause lapses, with nothing left to pause".to_string(),
            true,
        ),
        (_, PauseFate::TakesEffect { now: true, .. }) => (
            format!("it takes effect before unit {} starts", s.completed_units + 1),
            false,
        ),
        (_, PauseFate::TakesEffect { now: false, .. }) => ("it takes effect when the in-flight unit completes".to_string(), false),
    };
    // A self-park now or on the way keeps it, unless its timeout fails the task.
    let text = match fate {
        PauseFate::TakesEffect {
            unless_park_fails: true,
            ..
        } => {
            format!("{text}, unless the self-park's timeout fails the task first")
        }
        _ => text,
    };
    Some((p.mode, text, lapses))
}

/// Proposal: a client's pause asked for that has not taken effect yet, and
/// when it will, or why it lapses.
pub fn pending_pause(e: &crate::model::Experiment) -> Option<String> {
    pause_outlook(e)
        .map(|(mode, text, _)| format!("Pause requested ({}, proposal): {text}.", mode.name()))
}

/// Proposal (not part of A2A v1.0): PauseTask, ResumeTask and events.
#[component]
fn PauseControls() -> impl IntoView {
    let store = expect_context::<Store>();
    // Sendable while the model's answer to it is the wrong-token error.
    let wrong_token = Memo::new(move |_| {
        let action = store.resume_action(false);
        match store.exp.with(|e| e.legality(&action)) {
            Err(Refusal::BadResumeToken) => Ok(()),
            Err(why) => Err(format!("Not now: {}", after_colon(why))),
            Ok(()) => Err("Not now: the task accepts this token.".to_string()),
        }
    });
    let pending = move || store.exp.with(pending_pause);
    let pause = Callback::new(move |()| store.pause_action());
    let resume = Callback::new(move |()| store.resume_action(true));
    let fire = Callback::new(move |()| Action::FireEvent(store.event_to_fire.get()));
    view! {
        <fieldset class="proposal">
            <legend>"Pause and resume — proposal, not part of A2A v1.0"</legend>
            <div class="field">
                <label for="pause-mode">"Pause mode"</label>
                <select
                    id="pause-mode"
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        if let Some(m) = PauseMode::ALL.into_iter().find(|m| m.name() == v) {
                            store.pause_mode.set(m);
                        }
                    }
                >
                    {PauseMode::ALL
                        .into_iter()
                        .map(|m| view! {
                            <option value=m.name() prop:selected=move || store.pause_mode.get() == m>{m.name()}</option>
                        })
                        .collect_view()}
                </select>
            </div>
            <p class="hint" data-testid="pause-mode-hint">
                {move || match store.pause_mode.get() {
                    PauseMode::FinishStep => "finish_step: the in-flight unit completes first (a pause at a unit boundary is immediate); if it is the last unit (or a failing one), the task ends instead and the pause lapses.",
                    PauseMode::InterruptImmediate => "interrupt_immediate: pauses now; the in-flight unit's partial work is lost and redone after the resume, and the lost seconds still count as active time.",
                    PauseMode::WaitForCompletion => "wait_for_completion: the task works on until every unit is done, then parks in PAUSED instead of completing; it completes, with its artifact, on the first Step after the resume. (The RFC says only that in-flight work completes; all the work left is this simulator's reading.)",
                }}
            </p>
            // The rules of PauseTask, folded: the buttons they govern come
            // first, each saying why it is off.
            <details class="hint" data-testid="pause-rules">
                <summary>"When a task can be paused, and where the modes come from"</summary>
                <p>"Only a TASK_STATE_WORKING task can be paused (the RFC pauses from WORKING alone). A paused task answers another PauseTask with its pause, unchanged (pausing a paused task is idempotent in Harn's runtime and in PR #1277; the RFC does not say), and so does one whose pause is pending, whatever the new request's mode: the first request stands until it takes effect or lapses (this simulator's reading; the RFC does not say); in any other state Pause task is disabled and says why, and an agent answers a PauseTask there with the proposed error -32010, as the Wire panel's Pause terminal task shows (the RFC's example of such a state is a terminal task; for INPUT_REQUIRED and the others, -32010 is this page's reading). The RFC singles out TASK_STATE_INPUT_REQUIRED: it and PAUSED are never adjacent, so a task waiting for input is answered, not paused, and a paused task that needs input resumes first (PAUSED → WORKING → INPUT_REQUIRED)."</p>
                <p>"The RFC borrows the three modes from its companion RFC for the Agent Client \
                 Protocol (ACP) and says of them only that a peer cancels in-flight work, or \
                 lets it complete in wait_for_completion mode; it leaves open whether A2A \
                 should adopt them. What is in flight is this simulator's reading: the unit for \
                 finish_step, all the work left for wait_for_completion."</p>
            </details>
            <TextField id="pause-reason" label="Pause reason" value=store.pause_reason sends="act-pause" action=pause counted=true/>
            <ActionButton
                id="act-pause"
                action=pause
                carries_on=true
                hint=Signal::derive(move || {
                    let action = pause.run(());
                    store.exp.with(|e| match e.unchanged_by(&action) {
                        Some(NoChange::AlreadyPaused) => "The task is already paused: PauseTask (proposal) changes nothing, and the agent answers with the pause in effect.",
                        Some(_) => "A pause is already requested: PauseTask (proposal) changes nothing, and the agent answers as the pause stands.",
                        None => "PauseTask (proposal): the client asks the agent to pause.",
                    })
                    .to_string()
                })
            />
            // Always there, so that a pause taking effect by itself while Play
            // runs moves nothing below it.
            <p class="pause-note" class:warning=move || pending().is_some() data-testid="pause-pending">
                {move || pending().unwrap_or_else(|| {
                    if store.exp.with(|e| e.snapshot().pause.is_some()) {
                        "Paused (proposal): Resume task, with the pause's token, wakes the task now; Inspect's Wakes on says what else may.".into()
                    } else {
                        "No pause requested.".into()
                    }
                })}
            </p>
            <TextField id="resume-input" label="Resume input" value=store.resume_input sends="act-resume" action=resume placeholder="optional; reaches the artifact" counted=true/>
            <Toggle label="Continue transcript" value=store.continue_transcript/>
            <p class="hint">
                "continueTranscript (proposal): in the RFC, on, the agent carries its conversation on; off, it "
                "starts a fresh turn with a digest of what came before the pause. This simulated agent keeps "
                "no conversation: the choice is sent in ResumeTask and traced, and changes nothing else."
            </p>
            <ActionButton
                id="act-resume"
                action=resume
                hint="ResumeTask (proposal) with the pause's resume token; it can be used once."
                leads=true
            />
            // A request sent to be refused: it can be sent while the model's
            // answer to it is the wrong-token error.
            <div class="action">
                <button
                    id="act-resume-wrong"
                    aria-describedby="act-resume-wrong-reason discard-warning"
                    disabled=move || wrong_token.get().is_err()
                    on:click=move |_| store.resume(false)
                >
                    "Resume with wrong token"
                </button>
                <p id="act-resume-wrong-reason" class="reason" class:blocked=move || wrong_token.get().is_err()>
                    {move || match wrong_token.get() {
                        Ok(()) => format!("Sends ResumeTask with a wrong token, to see it refused: {}", after_colon(Refusal::BadResumeToken)),
                        Err(why) => why,
                    }}
                </p>
            </div>
            <TextField id="event-to-fire" label="Event to fire" value=store.event_to_fire sends="act-fire-event" action=fire/>
            <ActionButton
                id="act-fire-event"
                action=fire
                hint="Delivers an external event; only the name a self-parked task waits for wakes it."
                carries_on=true
            />
        </fieldset>
    }
}
