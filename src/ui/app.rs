//! The page: layout, keyboard shortcuts and the playback clock.

use super::store::{plural, NoticeUndo, Store};
use super::{
    actions, configure, guide, inspect, lifecycle, persist, playback, tasks, timeline, trace, wire,
};
use crate::model::{after_colon, Action, Experiment};
use leptos::ev;
use leptos::prelude::*;
use std::time::Duration;
use wasm_bindgen::JsCast;

/// The whole control room, over a fresh experiment with ids seeded from `seed`.
#[component]
pub fn ControlRoom(
    seed: u64,
    /// Restore from a share link or the browser's checkpoint, save after
    /// each change, and draw random ids for each fresh start (the page does;
    /// embedded copies and tests need not).
    #[prop(optional)]
    persist: bool,
) -> impl IntoView {
    let store = Store {
        fresh_seeds: persist,
        ..Store::new(seed)
    };
    provide_context(store);
    // First of the page's window listeners for keys: a shortcut's action
    // comes after the press (a text field's own Enter says so itself).
    presses_end_the_same_click(store);
    enter_runs_stay_behind(store);
    if persist {
        // First: a link's pause encoding outweighs the one kept.
        persist::remember_preferences(store);
        let hold = persist::restore(store);
        persist::autosave(store, hold);
        persist::follow_links(store);
        persist::watch_other_tabs(store);
    }
    playback_clock(store);
    replay_clock(store);
    let alert = AlertPlace::follow(store);
    keyboard_shortcuts(store, alert);
    keep_focus_in_panel();
    keep_focus_when_play_acts(store);
    // The viewed state, for the strip: a Step that keeps it redraws nothing there.
    let state = Memo::new(move |_| store.exp.with(|e| e.snapshot().state));

    view! {
        <header class="masthead">
            <p class="eyebrow">"A2A · Task Control Room"</p>
            <h1>"Task lifecycle: resume interrupted work"</h1>
            // The first stops of the Tab order, and on a phone, where the
            // page is long, the way to a panel far below: each button brings
            // its panel into view, focused (Tab goes on from there).
            <nav class="to-panels" aria-label="Panels">
                <button class="link" data-testid="to-guide" on:click=move |_| show_guide()>
                    "New here? Start with an experiment."
                </button>
                <span class="sep">" · "</span>
                <span class="jump">"Jump to:"</span>
                {PANELS
                    .into_iter()
                    .enumerate()
                    .map(|(i, (name, panel))| view! {
                        {if i == 0 { " " } else { " · " }}
                        <button class="link" on:click=move |_| show_panel(panel)>{name}</button>
                    })
                    .collect_view()}
            </nav>
            <p class="lede">
                "Interrupt a simulated A2A v1.0 task, supply what it needs, and follow the actual "
                "state and artifact changes."
            </p>
            // On a phone or a tablet, the viewed state stays in sight of every control, in a
            // strip fixed at the top; on a wide screen it stands at the
            // masthead's end, the first thing read (the status region says it
            // to a screen reader).
            <p class="state-strip" aria-hidden="true" data-testid="state-strip">
                // The name as the diagram writes it: the strip is one line on a
                // phone as narrow as 360 px.
                <span>
                    <code class=move || state.get().family()>
                        {move || super::lifecycle::short_name(state.get())}
                    </code>
                    <span class="lead">" · "</span>
                    {move || store.exp.with(state_strip)}
                </span>
                // From anywhere on a long page, back to the masthead's links,
                // for a finger (the keyboard has them first in its order, and
                // the strip is hidden from it).
                <button class="link" tabindex="-1" title="Back to the top, to the Jump to links" on:click=move |_| window().scroll_to_with_x_and_y(0.0, 0.0)>
                    "↑"
                </button>
            </p>
        </header>
        <main class="room">
            <div class="messages">
                // Only the message is the live region: a screen reader says
                // the message, not the Dismiss button's name after it.
                <div
                    class="alert"
                    class:shown=move || store.alert.with(Option::is_some)
                    class:top=move || alert.top.get()
                    data-testid="alert"
                >
                    <p>
                        <span role="alert">{move || store.alert.get()}</span>
                        <Show when=move || store.alert.with(Option::is_some)>
                            <button class="link" on:click=move |_| alert.dismiss(store)>"Dismiss"</button>
                        </Show>
                    </p>
                </div>
                <p class="notice" class:shown=move || store.notice.with(Option::is_some)>
                    <span role="status" data-testid="notice">{move || store.notice.get()}</span>
                    // The way back from a branch or a fresh start, where the
                    // user is looking, as long as it reaches (Recorded states
                    // and Configure have it too).
                    <Show when=move || store.notice_undo().is_some()>
                        <button
                            class="link notice-undo"
                            data-testid="notice-undo"
                            on:click=move |_| {
                                match untrack(|| store.notice_undo()) {
                                    Some(NoticeUndo::Discard) => store.undo_discard(),
                                    Some(NoticeUndo::Replace) => store.bring_back(),
                                    None => return,
                                }
                                // The button goes: focus goes to the slider
                                // of the states it brought back.
                                super::playback::focus("recorded-state");
                            }
                        >
                            "Undo"
                        </button>
                    </Show>
                    <Show when=move || store.notice.with(Option::is_some)>
                        <button
                            class="link dismiss"
                            aria-label="Dismiss notice"
                            on:click=move |_| clear_notice(store)
                            on:focus=move |ev: web_sys::FocusEvent| {
                                let from = ev
                                    .related_target()
                                    .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok());
                                BEFORE_DISMISS.with(|b| *b.borrow_mut() = from);
                            }
                        >
                            "×"
                        </button>
                    </Show>
                </p>
            </div>
            <div class="transport">
                <playback::PlaybackPanel/>
                <timeline::TimelinePanel/>
            </div>
            // The columns in the order they are shown, read and focused at
            // every width: side by side on a wide screen, one after another
            // on a phone. What you do, what the task is, what was said: the
            // actions come first, in the first screen with Playback and the
            // diagram; the task's settings close its column.
            <div class="col col-controls">
                <actions::ActPanel/>
                <guide::GuidePanel/>
            </div>
            <div class="col col-state">
                <lifecycle::DiagramPanel/>
                <inspect::InspectPanel/>
                <tasks::TasksPanel/>
                <configure::ConfigurePanel/>
            </div>
            <div class="col col-trace">
                <trace::TracePanel/>
                <wire::WirePanel/>
                <persist::SharePanel/>
            </div>
        </main>
        <footer class="footnote">
            <p>
                "Offline task-state teaching model, not an A2A server. Work units and active-time "
                "durations are illustrative. Waiting is excluded from active time; the view "
                "holds still during interruptions. Input and authorization interruptions "
                "resume the same task; completed, failed, canceled and rejected tasks are terminal, "
                "and follow-ups use a new task id. Cancellation acceptance is a model switch, not a "
                "universal server guarantee. No credentials, external services or real artifacts are "
                "used. The run is kept only in this browser, or in the links and files you make; it "
                "is not a durable A2A checkpoint. "
                <a href="https://a2a-protocol.org/latest/topics/life-of-a-task/">
                    "Official task lifecycle reference"
                </a>
                " and the "
                <a href="https://a2a-protocol.org/latest/specification/">"A2A specification"</a>
                "."
            </p>
        </footer>
    }
}

/// While playing, one Step per tick; the tick maps N·S active seconds onto a
/// minute at 1×. Each tick, and each fresh interval, counts in `store.beat`.
fn playback_clock(store: Store) {
    clock(
        store,
        Signal::derive(move || store.playing.get()),
        move || store.play_step(),
        move || {
            store.playing.set(false);
            store.raise("Play could not start: the browser refused a timer.".into());
        },
    );
}

/// While a replay runs, one recorded state per tick of Play's clock, counted
/// in `store.beat` as Play's are (the Play button, which pauses it, shows the wait).
fn replay_clock(store: Store) {
    clock(
        store,
        Signal::derive(move || store.replay.with(Option::is_some)),
        move || store.replay_step(),
        move || {
            store.replay.set(None);
            store.raise("Replay could not start: the browser refused a timer.".into());
        },
    );
}

/// Calls `tick` at Play's pace ([`Store::play_period_ms`]) while `on`
/// holds; `refused` when the browser gives no timer. The interval is
/// replaced only when `on` or the period changes (speed or settings), not at
/// each tick; it is cleared when the page is unmounted. `store.beat`
/// counts each tick and each fresh interval: where the next tick's wait
/// starts.
fn clock(
    store: Store,
    on: Signal<bool>,
    tick: impl Fn() + Clone + 'static,
    refused: impl Fn() + 'static,
) {
    let count = move || store.beat.update(|n| *n = n.wrapping_add(1));
    let tick = move || {
        count();
        tick();
    };
    let period = Memo::new(move |_| store.play_period_ms());
    let running = StoredValue::new_local(None::<leptos::prelude::IntervalHandle>);
    let stop = move || {
        if let Some(handle) = running.try_update_value(Option::take).flatten() {
            handle.clear();
        }
    };
    Effect::new(move |_| {
        stop();
        if !on.get() {
            return;
        }
        let ms = period.get();
        match set_interval_with_handle(tick.clone(), Duration::from_millis(u64::from(ms))) {
            Ok(handle) => {
                running.set_value(Some(handle));
                count();
            }
            Err(_) => refused(),
        }
    });
    on_cleanup(stop);
}

/// A button that a click disables (Step at a gate, Supply clarification,
/// New follow-up task, …) or removes (Dismiss) would drop keyboard focus to
/// the page: focus goes to its panel instead (for Dismiss, to the main
/// area), so Tab carries on from where the user was.
fn keep_focus_in_panel() {
    let handle = window_event_listener(ev::click, move |ev: web_sys::MouseEvent| {
        let Some(button) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
            .filter(|t| t.tag_name() == "BUTTON")
        else {
            return;
        };
        // After the DOM has caught up with the action.
        request_animation_frame(move || refocus_if_lost(&button, Mover::User));
    });
    on_cleanup(move || handle.remove());
}

/// Playback, not the user, can disable the focused control: Play itself at
/// a gate, a pause or the end; Step at a gate; Request cancellation or Pause
/// task when the task completes. After each change of the experiment or of
/// playback, focus on the last focused control goes to its panel if that
/// control is now disabled or gone, as for a click. A press elsewhere on the
/// page forgets the control: focus the user moved away stays where it went.
fn keep_focus_when_play_acts(store: Store) {
    let last = last_target(ev::focusin, ev::pointerdown, Some);
    let was_playing = StoredValue::new(false);
    Effect::new(move |_| {
        store.exp.track();
        // A replay's ticks and its end are playback's too.
        let playing = store.playing.get() || store.replay.with(Option::is_some);
        // Play's own ticks and its stop are playback's; a change with Play
        // off all along is the user's action (whose click or key may find
        // focus already moved here).
        let by = match playing || was_playing.get_value() {
            true => Mover::Playback,
            false => Mover::User,
        };
        was_playing.set_value(playing);
        let at_pause = store
            .stopped_at_pause
            .try_update_value(std::mem::take)
            .unwrap_or(false);
        request_animation_frame(move || {
            if let Some(el) = last.try_get_value().flatten() {
                // Play stopped by a pause (proposal) stays on, to run the
                // waiting clock: focus on it goes to the link to Resume
                // task, as where Play turns off at a gate, so that the same
                // key pressed again does not run the pause to its timeout
                // unasked. Not when the user paused playback there.
                let on_it = document()
                    .active_element()
                    .is_some_and(|a| a.is_same_node(Some(el.as_ref())));
                if let (true, true, Some(link)) =
                    (at_pause, on_it, answer_link(&el, "section.panel"))
                {
                    return focus_in_place(&link, by);
                }
                refocus_if_lost(&el, by);
            }
        });
    });
}

/// The element an `on` event last happened on, as `pick` finds it from the
/// event's target, until an `off` event elsewhere (not on it) forgets it.
fn last_target<On, Off>(
    on: On,
    off: Off,
    pick: impl Fn(web_sys::Element) -> Option<web_sys::Element> + 'static,
) -> StoredValue<Option<web_sys::HtmlElement>, LocalStorage>
where
    On: ev::EventDescriptor + 'static,
    On::EventType: JsCast,
    Off: ev::EventDescriptor + 'static,
    Off::EventType: JsCast,
{
    let last = StoredValue::new_local(None);
    let target = |ev: &web_sys::Event| {
        ev.target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    };
    let on = window_event_listener(on, move |ev| {
        let el = target(ev.unchecked_ref())
            .and_then(&pick)
            .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
        last.set_value(el);
    });
    let off = window_event_listener(off, move |ev| {
        let on_it = target(ev.unchecked_ref()).is_some_and(|t| {
            last.with_value(|l| l.as_ref().is_some_and(|l| l.contains(Some(t.as_ref()))))
        });
        if !on_it {
            last.set_value(None);
        }
    });
    on_cleanup(move || {
        on.remove();
        off.remove();
    });
    last
}

/// If focus was on `button` (or fell to the page) and the button is now
/// disabled or gone, focus the link to what answers a stop in its panel if
/// there is one, else its action's box or its panel (the main area when it
/// is gone); if the button is still on and its line now links to Play,
/// focus that link.
fn refocus_if_lost(button: &web_sys::HtmlElement, by: Mover) {
    let active = document().active_element();
    let lost = active
        .as_ref()
        .is_none_or(|a| a.tag_name() == "BODY" || a.is_same_node(Some(button.as_ref())));
    if !lost {
        return;
    }
    if !button.is_connected() || button.has_attribute("disabled") {
        refocus(button, by);
    } else if let Some(link) = answer_link(button, ".action") {
        // An action that stays on (Fire event) and has set the task running
        // again: on to the Go to Play in its line, as after an answer.
        focus_in_place(&link, by);
    }
}

/// The link to the control that answers where Play or Step stopped for the
/// client (or, under an action's button, to Play), in the box around
/// `button` that `within` selects (its panel, or its action's box).
fn answer_link(button: &web_sys::HtmlElement, within: &str) -> Option<web_sys::HtmlElement> {
    button
        .closest(within)
        .ok()
        .flatten()?
        .query_selector("[data-testid=go-to-answer]")
        .ok()
        .flatten()?
        .dyn_into::<web_sys::HtmlElement>()
        .ok()
}

/// Focus for one who pressed `button`, now disabled or gone (see
/// [`refocus_if_lost`]); Enter in a text field that pressed it asks the same.
pub fn refocus_from(button: &web_sys::HtmlElement) {
    refocus(button, Mover::User);
}

fn refocus(button: &web_sys::HtmlElement, by: Mover) {
    let gone = !button.is_connected();
    // Where Play or Step stopped for the client, focus goes to the link to
    // the control that answers the stop, which Tab would reach only after
    // Restart experiment; where an experiment set up is done, to the link
    // that sets up the next, or, where its step asks for a control far from
    // Play, to the link to it.
    if let Some(link) = answer_link(button, "section.panel") {
        return focus_in_place(&link, by);
    }
    let next = document()
        .query_selector("[data-testid=guided-next], [data-testid=guided-go]")
        .ok()
        .flatten()
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(link) = next.filter(|_| button.matches("#play, #step").unwrap_or(false)) {
        return focus_in_place(&link, by);
    }
    // A control that goes by itself may name where focus goes instead
    // (Stop replay, gone when the replay ends: the slider it moved).
    let instead = button
        .get_attribute("data-refocus")
        .filter(|_| gone)
        .and_then(|id| document().get_element_by_id(&id))
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(el) = instead {
        return focus_in_place(&el, by);
    }
    // An action's own box (its button and the reason it is off) keeps focus
    // where the user was, and Tab goes on to the control after it; other
    // controls hand focus to their panel.
    let target = if gone {
        document().query_selector("main").ok().flatten()
    } else {
        button.closest(".action, section.panel").ok().flatten()
    };
    if let Some(el) = target {
        focus_region(el.clone());
        // An action's box is then a group named by the line under its
        // button, which says why the button is off now; its focusout
        // handler takes both away again. Set once focus is there, as the
        // button's own focusout reaches the box too.
        let reason = el.query_selector(":scope > .reason").ok().flatten();
        if let Some(reason) = reason.filter(|_| el.matches(".action").unwrap_or(false)) {
            let _ = el.set_attribute("role", "group");
            let _ = el.set_attribute("aria-labelledby", &reason.id());
        }
    }
}

/// The panels the masthead's links reach, in the order a phone shows them,
/// by the name each panel's heading starts with.
const PANELS: [(&str, &str); 7] = [
    ("Act", "section[aria-labelledby=act-h]"),
    ("Lifecycle", "section.lifecycle"),
    ("Inspect", "section.inspect"),
    ("Configure", "section.configure"),
    ("Trace", "section.trace-panel"),
    ("Wire", "section.wire"),
    ("Save", "section[aria-labelledby=share-h]"),
];

/// Scrolls to *Your experiment* and puts keyboard focus on it.
pub fn show_guide() {
    show_panel("section.guide");
}

/// Brings the Wire panel into view, focused: where a link that names a
/// trace entry opens.
pub fn show_wire() {
    show_panel("section.wire");
}

/// Scrolls to the panel `selector` finds and puts keyboard focus on it.
fn show_panel(selector: &str) {
    if let Some(el) = document().query_selector(selector).ok().flatten() {
        show_region(el);
    }
}

/// Scrolls to the panel or region `el` and puts keyboard focus on it, to
/// read: marked `data-read`, where Space scrolls the page as anywhere (see
/// [`keyboard_shortcuts`]).
pub fn show_region(el: web_sys::Element) {
    el.scroll_into_view();
    focus_region(el.clone());
    let _ = el.set_attribute("data-read", "");
}

/// Focuses a panel or the main area, which Tab does not stop at; the page
/// stays where it is (the panel holds the control just pressed).
fn focus_region(el: web_sys::Element) {
    if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
        let _ = el.set_attribute("tabindex", "-1");
        let _ = el.remove_attribute("data-read");
        focus_without_scrolling(&el);
    }
}

/// Who moved focus: the user's own press (a click, a key, Enter in a
/// field), after which a keyboard user's focus is brought to the middle of
/// the screen, or playback, which brings it just into view (and never
/// scrolls for a pointer user).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mover {
    User,
    Playback,
}

/// Focuses the control `el` without scrolling, so that nothing moves under
/// the pointer. When a keyboard user's focus (the browser then shows where
/// it is) lands on a control that the screen's edges, or the fixed strip,
/// notice or alert, hide, it is brought into view: to the middle of the
/// screen after the user's own key, as a Go to link does; just into view
/// when playback moved it (a stop at 400 % zoom), the least move.
fn focus_in_place(el: &web_sys::HtmlElement, by: Mover) {
    moved_focus_to(el);
    focus_without_scrolling(el);
    let keyboard = el.matches(":focus-visible").unwrap_or(false);
    if keyboard && !clear_in_view(el) {
        let options = web_sys::ScrollIntoViewOptions::new();
        options.set_block(match by {
            Mover::User => web_sys::ScrollLogicalPosition::Center,
            Mover::Playback => web_sys::ScrollLogicalPosition::Nearest,
        });
        el.scroll_into_view_with_scroll_into_view_options(&options);
    }
}

/// Whether `el` is wholly within the part of the screen that the fixed
/// strip, notice and alert leave clear ([`clear_band`]).
pub fn clear_in_view(el: &web_sys::Element) -> bool {
    let (top, bottom) = clear_band();
    let rect = el.get_bounding_client_rect();
    rect.top() >= top && rect.bottom() <= bottom
}

/// The part of the screen, from its top, that the fixed strip, notice and
/// alert leave clear: within the root's scroll padding, which the style
/// sheet sets to their room.
pub fn clear_band() -> (f64, f64) {
    // Read with the browser's own parseFloat: Rust's float parsing would
    // add some 15 KB (gzip) to the page for this one number.
    let padding = |side: &str| {
        root_style(side)
            .map(|v| js_sys::parse_float(&v))
            .filter(|v| v.is_finite())
            .unwrap_or(0.0)
    };
    let height = window()
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(f64::INFINITY);
    (
        padding("scroll-padding-top"),
        height - padding("scroll-padding-bottom"),
    )
}

/// A property of the root element's computed style.
fn root_style(property: &str) -> Option<String> {
    let root = document().document_element()?;
    window()
        .get_computed_style(&root)
        .ok()
        .flatten()?
        .get_property_value(property)
        .ok()
}

/// The style sheet's layouts, narrowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Layout {
    /// One column, the state strip at the top.
    Phone,
    /// Two columns, the state strip at the top.
    Tablet,
    /// Three columns, the state card at the masthead's end.
    Desk,
}

/// The layout the style sheet is in: its widths are in em, so it follows
/// the reader's text size as well as the window's width.
pub fn layout() -> Layout {
    match root_style("--layout").as_deref().map(str::trim) {
        Some("phone") => Layout::Phone,
        Some("tablet") => Layout::Tablet,
        _ => Layout::Desk,
    }
}

/// The window's inner width and height, in CSS pixels.
pub fn window_size() -> (f64, f64) {
    let size =
        |v: Result<wasm_bindgen::JsValue, _>| v.ok().and_then(|v| v.as_f64()).unwrap_or_default();
    (size(window().inner_width()), size(window().inner_height()))
}

fn focus_without_scrolling(el: &web_sys::HtmlElement) {
    let options = web_sys::FocusOptions::new();
    options.set_prevent_scroll(true);
    let _ = el.focus_with_options(&options);
}

/// Where the alert floats, and where focus goes back when it is dismissed:
/// the control that had focus when it came (the one that raised it, as a
/// rule). The alert floats at the foot of the screen, or at its top when
/// that control is in the lower part, so that it never covers it; so too
/// when the trace's newest entry (a refusal's own) is in the lower part and
/// the control is clear of the top.
#[derive(Clone, Copy)]
struct AlertPlace {
    top: RwSignal<bool>,
    origin: StoredValue<Option<web_sys::HtmlElement>, LocalStorage>,
    /// The alert came as the page opened (a bad link or saved run).
    at_load: StoredValue<bool>,
}

impl AlertPlace {
    fn follow(store: Store) -> Self {
        let place = AlertPlace {
            top: RwSignal::new(false),
            origin: StoredValue::new_local(None),
            at_load: StoredValue::new(false),
        };
        // The control last pressed with a pointer, until a key is pressed off it: a
        // browser that does not focus a clicked button (Safari) leaves focus
        // on the page, so the alert keeps clear of this one instead.
        let pressed = last_target(ev::pointerdown, ev::keydown, |t| {
            t.closest("button, input, select, textarea, a")
                .ok()
                .flatten()
        });
        // Each alert that comes, a second one while the first is up included.
        // The page's own room for it is a class on the root element, set
        // only when that changes (a `:has()` rule on the root would make
        // every change of the page restyle it).
        Effect::new(move |ran: Option<()>| {
            let shown = store.alert.with(Option::is_some);
            place.at_load.set_value(ran.is_none() && shown);
            let origin = document()
                .active_element()
                .and_then(|a| a.dyn_into::<web_sys::HtmlElement>().ok())
                .filter(|a| shown && !matches!(a.tag_name().as_str(), "BODY" | "MAIN"));
            place.origin.set_value(origin.clone());
            let clear_of = origin.or_else(|| pressed.get_value().filter(|_| shown));
            let settle = move || {
                // Not for an alert that has changed since, nor on a page
                // that is gone (its owner disposed) by the next frame.
                if store.alert.try_with_untracked(Option::is_some) != Some(shown) {
                    return;
                }
                let room = match shown {
                    false => "",
                    true if Self::keep_clear_of_foot(clear_of.as_ref()) => "alert-top",
                    true => "alert-bottom",
                };
                place.top.set(room == "alert-top");
                if let Some(root) = document().document_element() {
                    let classes = root.class_list();
                    for class in ["alert-top", "alert-bottom"] {
                        if classes.contains(class) != (class == room) {
                            let _ = classes.toggle(class);
                        }
                    }
                }
            };
            // Now, and again once the page has drawn what came with the
            // alert (the refused entry in the trace), before it is painted.
            settle.clone()();
            request_animation_frame(settle);
        });
        place
    }

    /// Whether the alert goes to the top of the screen: the control that
    /// raised it is in its lower part, or the trace's newest entry is and
    /// the control is clear of the top.
    fn keep_clear_of_foot(origin: Option<&web_sys::HtmlElement>) -> bool {
        let height = window()
            .inner_height()
            .ok()
            .and_then(|h| h.as_f64())
            .unwrap_or(0.0);
        let rect = |el: &web_sys::Element| el.get_bounding_client_rect();
        let origin = origin.map(|o| rect(o));
        if origin.as_ref().is_some_and(|o| o.bottom() > height * 0.6) {
            return true;
        }
        let newest = document()
            .query_selector(".trace > .block:last-child > [data-testid=trace-entry]:last-child")
            .ok()
            .flatten()
            .map(|li| rect(&li));
        let newest_low = newest.is_some_and(|n| n.bottom() > height * 0.6 && n.top() < height);
        newest_low && origin.is_none_or(|o| o.top() > height * 0.2)
    }

    /// Clears the alert and, when focus is on the alert's own button or lost
    /// to the page, puts it back where it was (on Play for an alert raised as
    /// the page opened), or on the main area when that control is gone or
    /// disabled. Focus the user has moved since (into a field, say) stays
    /// where it is.
    fn dismiss(self, store: Store) {
        let at_load = self.at_load.get_value();
        store.alert.set(None);
        let moved = document().active_element().is_some_and(|a| {
            !matches!(a.tag_name().as_str(), "BODY" | "MAIN")
                && a.closest(".alert").ok().flatten().is_none()
        });
        if moved {
            return;
        }
        // An alert raised as the page opened (a bad link, say) came with no
        // control focused: focus goes to Play, where the page begins, when
        // Play can be pressed.
        let back = match self.origin.get_value() {
            None if at_load => document()
                .get_element_by_id("play")
                .and_then(|p| p.dyn_into::<web_sys::HtmlElement>().ok()),
            origin => origin,
        }
        .filter(|o| o.is_connected() && !o.has_attribute("disabled"));
        match back {
            Some(el) => focus_in_place(&el, Mover::User),
            None => {
                if let Some(main) = document().query_selector("main").ok().flatten() {
                    focus_region(main);
                }
            }
        }
    }
}

/// The state strip's words after the state, what matters most first (the
/// end is cut on a narrow screen): whether it is the proposal's, which
/// recorded state when not the newest, which task when there are several,
/// units done and active time.
fn state_strip(e: &Experiment) -> String {
    let snap = e.snapshot();
    let mut words = String::new();
    if snap.state.is_proposal() {
        words += "proposal · ";
    }
    if e.views_the_past() {
        let n = e.viewed_task().records().len();
        words += &format!("state {}/{n} · ", e.position() + 1);
    }
    if e.tasks().len() > 1 {
        words += &format!("task {} · ", e.viewed_task_index() + 1);
    }
    // The units first: on the narrowest phones the strip's end is cut off.
    words += &format!(
        "{}/{} units · {} s active",
        snap.completed_units,
        e.config().work_units,
        snap.active_s
    );
    words
}

/// Takes the notice away; focus on its × goes to the page, not to nowhere.
fn clear_notice(store: Store) {
    let focused = document()
        .active_element()
        .is_some_and(|a| a.closest(".notice").ok().flatten().is_some());
    store.notice.try_set(None);
    if !focused {
        return;
    }
    // Back to the control focus came from, when it is still there to use.
    let back = BEFORE_DISMISS
        .with(|b| b.borrow_mut().take())
        .filter(|el| el.is_connected() && !el.has_attribute("disabled"));
    match back {
        Some(el) => focus_in_place(&el, Mover::User),
        None => {
            if let Some(main) = document().query_selector("main").ok().flatten() {
                focus_region(main);
            }
        }
    }
}

thread_local! {
    /// The control that focus left for the notice's Dismiss button.
    static BEFORE_DISMISS: std::cell::RefCell<Option<web_sys::HtmlElement>> =
        const { std::cell::RefCell::new(None) };
}

/// A key pressed while moving through recorded states with [ and ] never
/// discards them (the buttons branch): whether the key `does` what its
/// `button` does would discard later states from the viewed one, said in
/// the notice.
fn keeps_later_states(store: Store, does: &str, button: &str) -> bool {
    let later = store.exp.with_untracked(Experiment::discarded_by_acting);
    if later > 0 {
        store.notice.set(Some(format!(
            "{does} only from the latest recorded state: from this one it would discard \
             {later} later state{}. ] moves forward; the {button} button branches from here.",
            plural(later)
        )));
    }
    later > 0
}

/// How long Enter must rest before a press counts at a control that focus
/// was moved to while Enter was being pressed (see [`enter_runs_stay_behind`]).
const ENTER_REST_MS: f64 = 400.0;

thread_local! {
    /// When Enter last went down (−∞ once another key or a pointer has
    /// gone down since), and the control focus was moved to for the user
    /// while Enter was being pressed, if that press run has not rested since.
    static ENTER_RUN: std::cell::RefCell<(f64, Option<web_sys::Element>)> =
        const { std::cell::RefCell::new((f64::NEG_INFINITY, None)) };
    static ENTER_GUARDED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The page's store, where a press held back is said (the newest page's).
    static ENTER_STORE: std::cell::Cell<Option<Store>> = const { std::cell::Cell::new(None) };
    /// Whether the run of presses held back at the control focus was moved
    /// to has been said (once per run).
    static ENTER_TOLD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Focus is being moved to `el` for the user: by every [`focus_in_place`]
/// (the link to what answers a stop, where focus goes when a button turns
/// itself off or an alert is dismissed) and every `playback::go_to` (where
/// a Go to link goes, Play after a set-up). If Enter is being pressed, the
/// presses still to come were meant for the control before, as
/// [`enter_runs_stay_behind`] has it.
pub fn moved_focus_to(el: &web_sys::Element) {
    ENTER_RUN.with_borrow_mut(|(last, moved)| {
        *moved = (js_sys::Date::now() - *last < ENTER_REST_MS).then(|| el.clone());
    });
    ENTER_TOLD.set(false);
}

/// Says, once per run, that a press of Enter was held back at `control`.
fn say_enter_held_back(control: Option<&web_sys::Element>) {
    if ENTER_TOLD.replace(true) {
        return;
    }
    let Some(store) = ENTER_STORE.get() else {
        return;
    };
    // Its name as a reader hears it: a field's is its label's.
    let name = control
        .and_then(|c| {
            let field = matches!(c.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT");
            c.get_attribute("aria-label").or_else(|| match field {
                true => document()
                    .query_selector(&format!("label[for='{}']", c.id()))
                    .ok()
                    .flatten()
                    .and_then(|l| l.text_content()),
                false => c.text_content(),
            })
        })
        .map(|n| n.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|n| !n.is_empty() && n.chars().count() <= 60);
    let what = name.map_or_else(|| "here".to_string(), |n| format!("at “{n}”"));
    let text = format!(
        "Enter was held back {what}: focus moved there while Enter was being pressed for \
         the control before. Rest a moment, then press Enter to use it."
    );
    if store.status.try_with_untracked(|_| ()).is_some() {
        store.say(text);
    }
}

/// Enter pressed again and again (on Step, up to a gate) stays with what it
/// was pressing: a press that reaches a control focus was moved to during
/// the run, before Enter has rested [`ENTER_REST_MS`], does nothing there.
/// Otherwise such a run would go on from Step through "Go to
/// clarification" into the clarification field, and send its text unread.
/// Any other key, a pointer or a mouse button ends the run, so a deliberate
/// Enter after them always counts. The first press held back says so in the
/// status line. Heard in the capture phase, before the control's
/// own handlers; installed once per page.
fn enter_runs_stay_behind(store: Store) {
    ENTER_STORE.set(Some(store));
    if ENTER_GUARDED.replace(true) {
        return;
    }
    let hear = |ev: web_sys::Event| {
        // An Enter that ends a composition (an input method's) is typing.
        let enter = ev
            .dyn_ref::<web_sys::KeyboardEvent>()
            .is_some_and(|k| k.key() == "Enter" && !k.is_composing());
        let target = ev.target().and_then(|t| t.dyn_into::<web_sys::Node>().ok());
        let now = js_sys::Date::now();
        let stays = ENTER_RUN.with_borrow_mut(|(last, moved)| {
            let stays = enter
                && now - *last < ENTER_REST_MS
                && moved
                    .as_ref()
                    .is_some_and(|m| m.is_same_node(target.as_ref()));
            if !stays {
                *moved = None;
            }
            *last = if enter { now } else { f64::NEG_INFINITY };
            stays
        });
        if stays {
            ev.prevent_default();
            ev.stop_immediate_propagation();
            say_enter_held_back(
                target
                    .as_ref()
                    .and_then(|t| t.dyn_ref::<web_sys::Element>()),
            );
        }
    };
    let listener = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::Event)>::new(hear);
    // A click a screen reader makes may come with mouse events alone.
    for kind in ["keydown", "pointerdown", "mousedown"] {
        let _ = window().add_event_listener_with_callback_and_bool(
            kind,
            listener.as_ref().unchecked_ref(),
            true,
        );
    }
    // Heard for the page's life.
    listener.forget();
}

/// Each pointer down and key down tells the store: the click that moved
/// focus from a text field (whose change started a fresh experiment) comes
/// before the next press.
fn presses_end_the_same_click(store: Store) {
    let pointer = window_event_listener(ev::pointerdown, move |_| store.pressed());
    // A click a screen reader makes may come with mouse events alone.
    let mouse = window_event_listener(ev::mousedown, move |_| store.pressed());
    let key = window_event_listener(ev::keydown, move |_| store.pressed());
    on_cleanup(move || {
        pointer.remove();
        mouse.remove();
        key.remove();
    });
}

/// Space toggles Play/Pause, → steps, `[` and `]` move through recorded
/// states, while the *Keyboard shortcuts* switch is on. None fires while
/// focus is on a field or another control (a key meant for it must not step
/// or rewind the task), except the transport's own buttons (Play, Step, the
/// ‹ › of Recorded states), where Space still presses the button; on a
/// slider Space does nothing. Escape dismisses an alert, from anywhere, or
/// else a notice.
fn keyboard_shortcuts(store: Store, alert: AlertPlace) {
    let handle = window_event_listener(ev::keydown, move |ev: web_sys::KeyboardEvent| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() || ev.default_prevented() {
            return;
        }
        if ev.key() == "Escape" && store.alert.with_untracked(Option::is_some) {
            alert.dismiss(store);
            return;
        }
        if ev.key() == "Escape" && store.notice.with_untracked(Option::is_some) {
            clear_notice(store);
            return;
        }
        let target = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let tag = target
            .as_ref()
            .map(|t| t.tag_name().to_ascii_lowercase())
            .unwrap_or_default();
        // Space means nothing to a slider, and the browser would scroll the
        // page away from it: it does nothing there.
        let slider = target
            .as_ref()
            .is_some_and(|t| t.matches("input[type=range]").unwrap_or(false));
        if slider && ev.key() == " " {
            ev.prevent_default();
            return;
        }
        let editable = target
            .as_ref()
            .is_some_and(|t| t.closest("[contenteditable]").ok().flatten().is_some());
        // A JSON block is read and scrolled with the keys.
        if editable || matches!(tag.as_str(), "input" | "textarea" | "select" | "pre") {
            return;
        }
        // The box an action's button left focus on when it turned itself
        // off (named by its reason while focus is there): Space or Enter,
        // meant for the button, says why it is off. Other keys go on.
        let left_by_button = target
            .as_ref()
            .filter(|t| t.matches(".action[aria-labelledby]").unwrap_or(false));
        if let Some(group) = left_by_button.filter(|_| matches!(ev.key().as_str(), " " | "Enter")) {
            ev.prevent_default();
            let button = group
                .query_selector("button")
                .ok()
                .flatten()
                .and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok());
            match button {
                // On again (the view moved): focus goes back to it.
                Some(button) if !button.has_attribute("disabled") => {
                    focus_in_place(&button, Mover::User)
                }
                Some(button) => {
                    let why = super::actions::why_off(&button.id());
                    let name = button.text_content().unwrap_or_default();
                    store.say(format!("{name} is off now. {why}"));
                }
                None => {}
            }
            return;
        }
        if !store.shortcuts.get_untracked() {
            return;
        }
        // A focused scrolling region (the trace, read with ↑ ↓) is a control
        // too: its keys are its own.
        let control = matches!(tag.as_str(), "button" | "a" | "summary")
            || target
                .as_ref()
                .is_some_and(|t| t.get_attribute("tabindex").as_deref() == Some("0"));
        // The transport's controls, and the link focus lands on where Play or
        // Step stops at what the client must answer: the keys go on there.
        let transport = target.as_ref().is_some_and(|t| {
            t.matches("#play, #step, .timeline button, [data-testid=go-to-answer]")
                .unwrap_or(false)
        });
        if control && !transport {
            return;
        }
        // A panel a link moved focus to, to read (see [`show_region`]):
        // Space scrolls the page there, as it does in any page; it does not
        // start a task out of sight. (On the main area, where focus goes
        // when an alert or a notice is dismissed, it plays.)
        let region = target
            .as_ref()
            .is_some_and(|t| t.has_attribute("data-read"));
        match ev.key().as_str() {
            " " if !control && !region => {
                ev.prevent_default();
                // A held key repeats: Play toggles once per press, as the
                // button does.
                if ev.repeat() {
                    return;
                }
                // A Play refused anyway says why (toggle_play), not how to branch.
                let starts = !store.playing.get_untracked()
                    && store.replay.with_untracked(Option::is_none)
                    && untrack(|| store.play_verdict()).is_ok();
                if !(starts && keeps_later_states(store, "Space plays", "Play")) {
                    store.toggle_play();
                }
            }
            "ArrowRight" => {
                ev.prevent_default();
                // As the Step button: when it is disabled, say why and record nothing.
                match untrack(|| store.legality(&Action::Step)) {
                    Ok(()) => {
                        if keeps_later_states(store, "→ steps", "Step") {
                            return;
                        }
                        store.step();
                    }
                    Err(why) => {
                        store.raise(format!("Step is not possible now: {}", after_colon(why)))
                    }
                }
            }
            "[" => store.seek_by(-1),
            "]" => store.seek_by(1),
            _ => return,
        }
        // A key can disable the focused button (Step at a gate), as a click can.
        if let Some(button) = target
            .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
            .filter(|t| t.tag_name() == "BUTTON")
        {
            request_animation_frame(move || {
                // A link to the answer goes with the stop it answered (a key
                // moved to an earlier state): the keys go on from Play or Step.
                let answered = !button.is_connected()
                    && button
                        .matches("[data-testid=go-to-answer]")
                        .unwrap_or(false);
                let transport = answered
                    .then(|| document().query_selector("#play:enabled, #step:enabled"))
                    .and_then(|found| found.ok().flatten())
                    .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
                match transport {
                    Some(control) => focus_in_place(&control, Mover::User),
                    None => refocus_if_lost(&button, Mover::User),
                }
            });
        }
    });
    on_cleanup(move || handle.remove());
}
