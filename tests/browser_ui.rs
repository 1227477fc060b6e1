//! The control room in headless Chromium: each panel driven as a user would.
#![cfg(target_arch = "wasm32")]

use a2a_control_room::ui::ControlRoom;
use leptos::prelude::*;
use leptos::task::tick;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

struct Page {
    root: HtmlElement,
    _handle: leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>,
}

async fn mount() -> Page {
    let doc = document();
    let root: HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    doc.body().unwrap().append_child(&root).unwrap();
    let handle =
        leptos::mount::mount_to(root.clone(), || view! { <ControlRoom seed=42/> }.into_any());
    tick().await;
    Page {
        root,
        _handle: handle,
    }
}

impl Drop for Page {
    fn drop(&mut self) {
        self.root.remove();
    }
}

impl Page {
    fn q(&self, sel: &str) -> Element {
        self.root
            .query_selector(sel)
            .unwrap()
            .unwrap_or_else(|| panic!("no element {sel}"))
    }
    fn text(&self, sel: &str) -> String {
        self.q(sel).text_content().unwrap_or_default()
    }
    /// Attribute `attr` of every element matching `sel`, in document order.
    fn attrs(&self, sel: &str, attr: &str) -> Vec<String> {
        let list = self.root.query_selector_all(sel).unwrap();
        (0..list.length())
            .map(|i| {
                let el: Element = list.item(i).unwrap().unchecked_into();
                el.get_attribute(attr).unwrap()
            })
            .collect()
    }
    fn count(&self, sel: &str) -> u32 {
        self.root.query_selector_all(sel).unwrap().length()
    }
    fn disabled(&self, sel: &str) -> bool {
        self.q(sel).has_attribute("disabled")
    }
    /// A click as a pointer makes it: a pointer down, then the click.
    async fn click(&self, sel: &str) {
        press(&self.q(sel));
        self.q(sel).unchecked_into::<HtmlElement>().click();
        tick().await;
    }
    /// Clicks `button` with focus in the text field `field`, typed to
    /// `value`: the field's change comes as focus leaves it, between the
    /// pointer down and the click.
    async fn commit_by_clicking(&self, field: &str, value: &str, button: &str) {
        press(&self.q(button));
        self.fire(field, value, "change").await;
        self.q(button).unchecked_into::<HtmlElement>().click();
        tick().await;
    }
    async fn set_range(&self, sel: &str, value: u32) {
        self.fire(sel, &value.to_string(), "input").await;
    }
    /// Types `value` into the text field `sel` (an `input` event).
    async fn type_text(&self, sel: &str, value: &str) {
        self.fire(sel, value, "input").await;
    }
    /// Chooses `value` in the list or field `sel` (a `change` event).
    async fn choose(&self, sel: &str, value: &str) {
        self.fire(sel, value, "change").await;
    }
    async fn fire(&self, sel: &str, value: &str, event: &str) {
        let el = self.q(sel);
        if let Some(input) = el.dyn_ref::<HtmlInputElement>() {
            input.set_value(value);
        } else if let Some(text) = el.dyn_ref::<web_sys::HtmlTextAreaElement>() {
            text.set_value(value);
        } else {
            el.unchecked_ref::<web_sys::HtmlSelectElement>()
                .set_value(value);
        }
        el.dispatch_event(&web_sys::Event::new(event).unwrap())
            .unwrap();
        tick().await;
    }
    /// Clicks the switch (checkbox) labelled `label`.
    async fn switch(&self, label: &str) {
        let labels = self.root.query_selector_all("label.switch").unwrap();
        let found = (0..labels.length())
            .filter_map(|i| labels.item(i))
            .find(|l| l.text_content().unwrap_or_default().trim() == label)
            .unwrap_or_else(|| panic!("no switch {label}"));
        found
            .unchecked_into::<web_sys::Element>()
            .query_selector("input")
            .unwrap()
            .unwrap()
            .unchecked_into::<HtmlElement>()
            .click();
        tick().await;
    }
    async fn key(&self, key: &str) {
        self.key_on("body", key).await;
    }
    /// Presses `key` with the focus on `sel` (the event starts there).
    async fn key_on(&self, sel: &str, key: &str) {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key(key);
        init.set_bubbles(true);
        let ev =
            web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
        let target = document().query_selector(sel).unwrap().unwrap();
        target.dispatch_event(&ev).unwrap();
        tick().await;
    }
    fn state(&self) -> String {
        self.text("[data-testid=task-state]")
    }
}

/// A page whose task was rejected on its first Step (a terminal task).
async fn rejected_task() -> Page {
    let p = mount().await;
    p.switch("Reject before execution").await;
    p.click("#step").await;
    assert_eq!(p.state(), "TASK_STATE_REJECTED");
    p
}

/// A pointer down on `el` (bubbling, as the browser's).
fn press(el: &Element) {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict("pointerdown", &init).unwrap();
    el.dispatch_event(&ev).unwrap();
}

/// Until the browser has drawn the next frame.
async fn next_frame() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        window().request_animation_frame(&resolve).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
    tick().await;
}

async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        window()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
    tick().await;
}

#[wasm_bindgen_test]
async fn step_button_advances_the_default_task() {
    let p = mount().await;
    assert_eq!(p.text("h1"), "Task lifecycle: resume interrupted work");
    assert_eq!(p.state(), "TASK_STATE_SUBMITTED");
    assert_eq!(
        p.text("[data-testid=status]"),
        "Task 1 is TASK_STATE_SUBMITTED — submitted, not started yet.",
        "the status line is there from the first look"
    );
    let id = p.text("[data-testid=task-id]");
    assert_eq!(id.len(), 36, "a UUID: {id}");
    p.click("#step").await;
    assert_eq!(p.state(), "TASK_STATE_WORKING");
    assert_eq!(p.text("[data-testid=active-time]"), "1 s of 12 s");
    assert_eq!(p.text("[data-testid=task-id]"), id);
}

#[wasm_bindgen_test]
async fn a_held_enter_never_answers_an_interruption_for_the_user() {
    let p = mount().await;
    p.set_range("#setting-require-input-before-unit", 1).await;
    p.click("#step").await;
    assert_eq!(p.state(), "TASK_STATE_INPUT_REQUIRED");
    // Enter held since Step: its repeats reach the field focus went to.
    let field: HtmlElement = p.q("#clarification-text").unchecked_into();
    field.focus().unwrap();
    let enter = |repeat: bool| {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key("Enter");
        init.set_repeat(repeat);
        init.set_bubbles(true);
        init.set_cancelable(true);
        web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap()
    };
    let held = enter(true);
    field.dispatch_event(&held).unwrap();
    tick().await;
    assert_eq!(
        p.state(),
        "TASK_STATE_INPUT_REQUIRED",
        "a repeat sends nothing"
    );
    assert!(held.default_prevented(), "nor does it start a new line");
    // A press of its own sends it.
    field.dispatch_event(&enter(false)).unwrap();
    tick().await;
    assert_eq!(p.state(), "TASK_STATE_WORKING");
}

#[wasm_bindgen_test]
async fn buttons_follow_the_models_legality_and_show_why() {
    let p = mount().await;
    for (button, reason_word) in [
        ("#act-clarify", "TASK_STATE_INPUT_REQUIRED"),
        ("#act-authorize", "TASK_STATE_AUTH_REQUIRED"),
        ("#act-follow-up", "terminal"),
    ] {
        assert!(p.disabled(button), "{button} starts disabled");
        // Described by its reason, and by the discard warning while one shows.
        let described = p.q(button).get_attribute("aria-describedby").unwrap();
        let ids: Vec<&str> = described.split(' ').collect();
        assert_eq!(ids[1..], ["discard-warning"], "{button}");
        // Each names an element: at the latest state, an empty stand-in
        // for the warning, which adds nothing to the description.
        for id in &ids {
            assert!(exists(&p, &format!("#{id}")), "{button}: no #{id}");
        }
        assert_eq!(p.text("#discard-warning"), "");
        let reason = p.text(&format!("#{}", ids[0]));
        assert!(reason.contains(reason_word), "{button}: {reason}");
    }
    assert!(!p.disabled("#act-cancel"));
    p.set_range("#setting-require-input-before-unit", 1).await;
    p.click("#step").await;
    assert_eq!(p.state(), "TASK_STATE_INPUT_REQUIRED");
    assert!(!p.disabled("#act-clarify"));
    assert!(
        p.disabled("#act-authorize"),
        "authorize does not answer an input gate"
    );
    assert!(p.disabled("#step"));
    assert!(p.disabled("#play"));
    assert!(p.text("#step-reason").contains("waiting for clarification"));
    // Where it is answered, the agent's question, as its status message on
    // the wire asks it.
    let asked = "Please clarify how to proceed before unit 1 of 4.";
    assert_eq!(
        p.text("#act-clarify-reason"),
        format!("The agent asks: “{asked}” This answers it; the same task resumes.")
    );
    assert!(p.text("[data-testid=wire-messages]").contains(asked));
    // The way forward stands out; once it is taken, it no longer does.
    let leads = |sel: &str| p.q(sel).class_list().contains("leads");
    assert!(leads("#act-clarify") && !leads("#act-cancel") && !leads("#act-follow-up"));
    assert_eq!(
        p.text("[data-testid=identity]"),
        "First task of this context."
    );
    let task = p.text("[data-testid=task-id]");
    p.click("#act-clarify").await;
    assert_eq!(p.state(), "TASK_STATE_WORKING");
    // Wire: the clarification's stream opens with the task as received,
    // then the agent's WORKING event; the panel says so.
    assert_eq!(
        payload_types(&p),
        ["SendMessageRequest", "StreamResponse", "StreamResponse"]
    );
    assert!(p
        .text(".wire .warning")
        .starts_with("The clarification's stream opens with the task as the agent received it"));
    assert!(p.disabled("#act-clarify"));
    assert!(!leads("#act-clarify"));
    // Inspect says what the ids show: the same task went back to work.
    assert_eq!(p.text("[data-testid=task-id]"), task);
    // So does the line under the recorded states, beside the controls.
    let strip = p.text("[data-testid=identity-strip]");
    let short: String = task.chars().take(8).collect();
    assert!(
        strip.starts_with(&format!("Task 1 of 1 · task id {short}… · context id ")),
        "{strip}"
    );
    assert!(strip.ends_with(" · 0 of 4 units done"), "{strip}");
    assert_eq!(
        p.text("[data-testid=identity]"),
        "First task of this context; resumed 1× under the same task id, its completed units kept."
    );
}

/// Asserts that the page shows `m`'s state, and that each button is off
/// exactly where `m`'s legality refuses the action it sends.
fn off_where_legality_refuses(
    p: &Page,
    m: &a2a_control_room::model::Experiment,
    when: &str,
    buttons: Vec<(&str, a2a_control_room::model::Action)>,
) {
    assert_eq!(p.state(), m.snapshot().state.to_string(), "{when}");
    for (button, action) in buttons {
        assert_eq!(
            p.disabled(button),
            m.legality(&action).is_err(),
            "{when}: {button} for {action:?}"
        );
    }
}

/// Every Act button, and Step, is off exactly where the model's legality
/// refuses its action: a walk through the states a user meets, beside the
/// same walk on the model.
#[wasm_bindgen_test]
async fn each_button_is_off_exactly_where_the_models_legality_refuses_its_action() {
    use a2a_control_room::model::{Action, Config, Experiment, IdSource};
    let p = mount().await;
    p.set_range("#setting-require-input-before-unit", 1).await;
    let config = Config {
        input_gate: 1,
        ..Config::default()
    };
    let mut m = Experiment::new(config, IdSource::seeded(42)).unwrap();
    let check = |p: &Page, m: &Experiment, when: &str| {
        let text = p
            .q("#clarification-text")
            .unchecked_into::<web_sys::HtmlTextAreaElement>()
            .value();
        let buttons = vec![
            ("#step", Action::Step),
            ("#act-clarify", Action::SupplyClarification(text)),
            ("#act-authorize", Action::Authorize),
            ("#act-cancel", Action::RequestCancellation),
            ("#act-follow-up", Action::FollowUp),
        ];
        off_where_legality_refuses(p, m, when, buttons);
    };
    check(&p, &m, "submitted");
    p.click("#step").await;
    m.apply(Action::Step).unwrap();
    check(&p, &m, "waiting for input");
    for (text, when) in [
        ("   ", "a blank answer"),
        (&"x".repeat(501)[..], "an answer over the limit"),
        ("EU only", "an answer"),
    ] {
        p.type_text("#clarification-text", text).await;
        check(&p, &m, when);
    }
    p.click("#act-clarify").await;
    m.apply(Action::SupplyClarification("EU only".into()))
        .unwrap();
    check(&p, &m, "answered");
    p.set_range("#recorded-state", 0).await;
    m.seek(0).unwrap();
    check(&p, &m, "viewing the first state");
    p.set_range("#recorded-state", 3).await;
    m.seek(3).unwrap();
    p.click("#act-cancel").await;
    m.apply(Action::RequestCancellation).unwrap();
    check(&p, &m, "canceled");
    p.click("#act-follow-up").await;
    m.apply(Action::FollowUp).unwrap();
    check(&p, &m, "a follow-up");
    p.click("#task-row-1").await;
    m.view_task(0).unwrap();
    check(&p, &m, "viewing the canceled task 1");
}

/// The proposal's buttons too: Pause task, Resume task and Fire event are
/// off exactly where legality refuses what each sends.
#[wasm_bindgen_test]
async fn the_proposals_buttons_are_off_exactly_where_legality_refuses_them() {
    use a2a_control_room::model::{Action, Config, Experiment, IdSource, PauseMode};
    let p = mount().await;
    p.switch("Proposed pause/resume").await;
    // Its fields show their values from the next frame.
    next_frame().await;
    let config = Config {
        pause_proposal: true,
        ..Config::default()
    };
    let mut m = Experiment::new(config, IdSource::seeded(42)).unwrap();
    let value = |p: &Page, sel: &str| -> String {
        let el = p.q(sel);
        match el.dyn_ref::<HtmlInputElement>() {
            Some(input) => input.value(),
            None => el.unchecked_into::<web_sys::HtmlTextAreaElement>().value(),
        }
    };
    let check = |p: &Page, m: &Experiment, when: &str| {
        let input = value(p, "#resume-input");
        let buttons = vec![
            (
                "#act-pause",
                Action::PauseTask {
                    mode: PauseMode::default(),
                    reason: value(p, "#pause-reason"),
                },
            ),
            (
                "#act-resume",
                Action::ResumeTask {
                    token: m.resume_token().unwrap_or_default().to_string(),
                    input: Some(input),
                    continue_transcript: true,
                },
            ),
            (
                "#act-fire-event",
                Action::FireEvent(value(p, "#event-to-fire")),
            ),
        ];
        off_where_legality_refuses(p, m, when, buttons);
    };
    check(&p, &m, "submitted");
    p.click("#step").await;
    m.apply(Action::Step).unwrap();
    check(&p, &m, "working");
    p.click("#act-pause").await;
    m.apply(Action::PauseTask {
        mode: PauseMode::default(),
        reason: value(&p, "#pause-reason"),
    })
    .unwrap();
    p.click("#step").await;
    m.apply(Action::Step).unwrap();
    check(&p, &m, "paused");
    for (field, text, when) in [
        (
            "#resume-input",
            " ".repeat(600),
            "a blank resume input, however long",
        ),
        (
            "#resume-input",
            "x".repeat(501),
            "a resume input over the limit",
        ),
        ("#resume-input", String::new(), "no resume input"),
        (
            "#pause-reason",
            " ".repeat(600),
            "a blank pause reason, however long",
        ),
        (
            "#pause-reason",
            "x".repeat(501),
            "a pause reason over the limit",
        ),
        ("#event-to-fire", "   ".to_string(), "a blank event name"),
        (
            "#event-to-fire",
            "x".repeat(65),
            "an event name over 64 bytes",
        ),
        (
            "#event-to-fire",
            "pr.merged".to_string(),
            "an event no task waits for",
        ),
    ] {
        p.type_text(field, &text).await;
        check(&p, &m, when);
        // The count is said to be over the limit exactly where the text is
        // refused for its length (blank is none, however long).
        if field != "#event-to-fire" {
            let over = p
                .q(&format!("output[for={}]", &field[1..]))
                .class_list()
                .contains("over");
            assert_eq!(over, text.starts_with('x'), "{when}");
        }
    }
}

#[wasm_bindgen_test]
async fn steps_reason_is_amber_while_the_task_waits_and_plain_once_it_has_ended() {
    let p = mount().await;
    let amber = |p: &Page| p.q(".step-why").class_list().contains("blocked");
    assert!(!amber(&p), "a task that can Step");
    p.set_range("#setting-require-input-before-unit", 1).await;
    p.click("#step").await;
    assert_eq!(p.state(), "TASK_STATE_INPUT_REQUIRED");
    assert!(amber(&p), "a task that waits for the client stops Play");
    p.click("#act-cancel").await;
    assert_eq!(p.state(), "TASK_STATE_CANCELED");
    assert!(p.disabled("#step"));
    assert!(!amber(&p), "a task that has ended is not a warning");
    drop(p);
    let p = rejected_task().await;
    assert!(p.disabled("#step"));
    assert!(!amber(&p));
}

#[wasm_bindgen_test]
async fn a_slider_that_names_a_unit_is_described_by_one_short_sentence() {
    let p = mount().await;
    let described = |sel: &str| p.q(sel).get_attribute("aria-describedby");
    assert_eq!(described("#setting-work-units"), None);
    assert_eq!(described("#setting-seconds-per-unit"), None);
    for gate in [
        "#setting-require-input-before-unit",
        "#setting-require-authorization-before-unit",
        "#setting-fail-during-unit",
    ] {
        let id = described(gate).expect(gate);
        assert_eq!(
            p.text(&format!("#{id}")).trim(),
            "Zero disables a gate or the failure; a unit above the work-unit count is never reached."
        );
    }
}

#[wasm_bindgen_test]
async fn a_settings_change_starts_a_fresh_experiment_and_says_so() {
    let p = mount().await;
    p.click("#step").await;
    let (task, ctx) = (
        p.text("[data-testid=task-id]"),
        p.text("[data-testid=context-id]"),
    );
    p.set_range("#setting-work-units", 7).await;
    assert_eq!(p.state(), "TASK_STATE_SUBMITTED");
    assert_ne!(p.text("[data-testid=task-id]"), task);
    assert_ne!(p.text("[data-testid=context-id]"), ctx);
    assert_eq!(p.text("[data-testid=completed-units]"), "0 / 7");
    assert!(p.text("[data-testid=notice]").contains("fresh experiment"));
    assert_eq!(p.count("[data-testid=trace-entry]"), 1);
    p.set_range("#setting-fail-during-unit", 9).await;
    assert_eq!(
        p.text("[data-testid=value-fail-during-unit]"),
        "9 (never reached)"
    );
    p.set_range("#setting-fail-during-unit", 0).await;
    assert_eq!(p.text("[data-testid=value-fail-during-unit]"), "off");
}

#[wasm_bindgen_test]
async fn play_stops_by_itself_at_an_interruption_and_says_why() {
    let p = mount().await;
    p.set_range("#setting-work-units", 12).await;
    p.set_range("#setting-seconds-per-unit", 10).await;
    p.set_range("#setting-require-input-before-unit", 2).await;
    p.choose("#speed", "4").await;
    p.click("#play").await;
    assert_eq!(p.text("#play"), "Pause playback");
    assert_eq!(
        p.state(),
        "TASK_STATE_WORKING",
        "Play takes its first Step at once"
    );
    for _ in 0..200 {
        if p.state() == "TASK_STATE_INPUT_REQUIRED" {
            break;
        }
        sleep(50).await;
    }
    assert_eq!(p.state(), "TASK_STATE_INPUT_REQUIRED");
    assert_eq!(p.text("#play"), "Play", "playback stopped by itself");
    assert!(p.text("[data-testid=status]").contains("Playback stopped"));
    assert_eq!(p.text("[data-testid=completed-units]"), "1 / 12");
    // An input wait is not timed: said so, not as a waiting time of 0 s.
    assert_eq!(p.text("[data-testid=waiting-time]"), "not counted");
}

#[wasm_bindgen_test]
async fn a_step_says_what_it_did_but_not_over_the_state_while_play_runs() {
    let p = mount().await;
    p.set_range("#setting-work-units", 12).await;
    p.set_range("#setting-seconds-per-unit", 10).await;
    p.click("#step").await;
    p.click("#step").await;
    assert_eq!(
        p.text("[data-testid=status]"),
        "Step: work unit 1, second 2."
    );
    // 0.5×: a tick every second, none between these clicks.
    p.choose("#speed", "0").await;
    p.click("#play").await;
    assert_eq!(p.text("#play"), "Pause playback");
    let playing = p.text("[data-testid=status]");
    assert!(
        playing.starts_with("Task 1 is TASK_STATE_WORKING"),
        "{playing}"
    );
    p.click("#step").await;
    assert_eq!(p.text("#play"), "Pause playback");
    assert_eq!(
        p.text("[data-testid=status]"),
        playing,
        "Play's later Steps would leave an old Step's words there"
    );
    p.click("#play").await;
}

#[wasm_bindgen_test]
async fn a_cancel_while_playing_stops_playback_with_no_refused_step_after_it() {
    let p = mount().await;
    p.set_range("#setting-work-units", 12).await;
    p.set_range("#setting-seconds-per-unit", 10).await;
    p.choose("#speed", "4").await;
    p.click("#play").await;
    assert_eq!(p.text("#play"), "Pause playback");
    p.click("#act-cancel").await;
    assert_eq!(p.state(), "TASK_STATE_CANCELED");
    assert_eq!(p.text("#play"), "Play", "playback stops with the cancel");
    let entries = p.count("[data-testid=trace-entry]");
    // Several ticks of 4× later: no Step was asked of the canceled task.
    sleep(1500).await;
    assert_eq!(p.count("[data-testid=trace-entry]"), entries);
    assert_eq!(p.text("[data-testid=alert]"), "");
    assert!(p.text("[data-testid=status]").contains("Playback stopped"));
}

#[wasm_bindgen_test]
async fn acting_from_an_earlier_state_discards_exactly_the_announced_count() {
    let p = mount().await;
    for _ in 0..6 {
        p.click("#step").await;
    }
    assert_eq!(p.count("[data-testid=trace-entry]"), 8);
    assert!(p
        .root
        .query_selector("[data-testid=discard-warning]")
        .unwrap()
        .is_none());
    p.set_range("#recorded-state", 2).await;
    assert!(p
        .text("[data-testid=timeline-position]")
        .starts_with("State 3 of 8"));
    let warning = p.text("[data-testid=discard-warning]");
    assert!(warning.contains("5 later recorded states"), "{warning}");
    assert_eq!(
        p.count("[data-testid=trace-entry]"),
        8,
        "seeking only views"
    );
    // The task list shows the task's latest state, and says so.
    let row = p.text("[data-testid=task-list-item]");
    assert!(row.contains("TASK_STATE_WORKING"), "{row}");
    assert!(
        row.contains("its latest state; you are viewing an earlier one"),
        "{row}"
    );
    p.click("#step").await;
    let row = p.text("[data-testid=task-list-item]");
    assert!(!row.contains("viewing an earlier one"), "{row}");
    assert!(p
        .text("[data-testid=timeline-position]")
        .starts_with("State 4 of 4"));
    assert_eq!(p.count("[data-testid=trace-entry]"), 4);
    // The newest is #9: the heading says where the numbers went.
    assert_eq!(
        p.text("[data-testid=trace-count]"),
        "(4 entries, 5 discarded)"
    );
    assert!(p.text("[data-testid=notice]").contains(
        "discarded 5 later recorded states. Undo (here, or under Recorded states) brings them back until your next action or a reload."
    ));
    assert_eq!(p.text("[data-testid=active-time]"), "2 s of 12 s");
    // The trace says where the run branched and how much went.
    assert_eq!(p.count("[data-testid=trace] .gap"), 1);
    assert_eq!(
        p.text("[data-testid=trace-entry]:last-child .gap"),
        "⋯ 5 entries (#4–#8) discarded here by branching"
    );
    // The entry that carries it is a worked second, yet it stays when the
    // agent's seconds are hidden, and the others go.
    p.switch("Show each worked second").await;
    // (The style sheet hides `.hide-ticks .tick`: e2e checks what shows.)
    assert!(exists(&p, ".trace.hide-ticks"));
    let marked = p.q("[data-testid=trace-entry]:last-child");
    assert!(marked.query_selector(".gap").unwrap().is_some());
    assert!(
        !marked.class_list().contains("tick"),
        "the marked entry stays"
    );
    let plain = p.q("[data-testid=trace-entry][data-seq='3']");
    assert!(
        plain.class_list().contains("tick"),
        "a plain worked second goes"
    );
    // #1, #2 and the marked #9 show: the heading tells them from the
    // discarded ones.
    assert_eq!(
        p.text("[data-testid=trace-count]"),
        "(3 of 4 entries shown, 5 discarded; seconds hidden)"
    );
}

#[wasm_bindgen_test]
async fn restart_offers_undo_in_its_notice_where_the_user_is() {
    let p = mount().await;
    // Nothing done yet: nothing to bring back, no Undo offered.
    p.click("#restart").await;
    assert!(!exists(&p, "[data-testid=notice-undo]"));
    for _ in 0..3 {
        p.click("#step").await;
    }
    let before = p.count("[data-testid=trace-entry]");
    p.click("#restart").await;
    assert_eq!(p.count("[data-testid=trace-entry]"), 1);
    assert_eq!(
        p.text("[data-testid=notice]"),
        "Experiment restarted with the same settings. Undo (here, or under Configure) brings \
         back the run from before."
    );
    p.click("[data-testid=notice-undo]").await;
    assert_eq!(
        p.count("[data-testid=trace-entry]"),
        before,
        "the run is back"
    );
    assert_eq!(
        p.text("[data-testid=notice]"),
        "The run from before is back, as it was."
    );
    assert!(!exists(&p, "[data-testid=notice-undo]"));
    assert!(!exists(&p, ".undo"), "nothing left to bring back");
    let focused = document().active_element().map(|e| e.id());
    assert_eq!(focused.as_deref(), Some("recorded-state"), "not lost");
}

#[wasm_bindgen_test]
async fn a_click_that_commits_a_settings_field_keeps_the_run_it_replaced_within_undo() {
    let p = mount().await;
    proposal_on(&p).await;
    for _ in 0..3 {
        p.click("#step").await;
    }
    let before = p.count("[data-testid=trace-entry]");
    // Typed, then Step clicked: the field's change comes as focus leaves
    // it, then the click.
    p.commit_by_clicking("#resume-event", "deploy.done", "#step")
        .await;
    let field = p.q("#resume-event").unchecked_into::<HtmlInputElement>();
    assert_eq!(field.value(), "deploy.done", "the new run uses the name");
    assert!(exists(&p, ".undo"), "the run from before is within Undo");
    let notice = p.text("[data-testid=notice]");
    assert!(notice.contains("a fresh experiment started"), "{notice}");
    p.click(".undo button").await;
    assert_eq!(p.count("[data-testid=trace-entry]"), before);

    // Only the first action is the same click's: the next one acts on the
    // new run, and the one kept goes.
    p.commit_by_clicking("#resume-event", "deploy.done", "#step")
        .await;
    assert!(exists(&p, ".undo"));
    p.click("#step").await;
    assert!(!exists(&p, ".undo"), "acted on: nothing is kept for Undo");

    // Focus left the field with Tab (its change comes then), and the next
    // key press steps: that Step is the user's next action, however soon.
    p.choose("#resume-event", "lint.done").await;
    assert!(exists(&p, ".undo"));
    p.key_on("#step", "Enter").await;
    p.q("#step").unchecked_into::<HtmlElement>().click();
    tick().await;
    assert!(
        !exists(&p, ".undo"),
        "a later press: nothing is kept for Undo"
    );
    assert_eq!(p.text("[data-testid=notice]"), "", "the notice was read");

    // The same for Enter in a text field of Act, the press of which its
    // own handler hears before the window does.
    press(&p.q("#event-to-fire"));
    p.fire("#resume-event", "pr.opened", "change").await;
    assert!(exists(&p, ".undo"));
    p.key_on("#event-to-fire", "Enter").await;
    assert!(!exists(&p, ".undo"), "Enter is the user's next action");

    // A click elsewhere between the change and the action: the same.
    p.commit_by_clicking("#resume-event", "test.done", "main")
        .await;
    assert!(exists(&p, ".undo"));
    p.click("#step").await;
    assert!(!exists(&p, ".undo"));

    // A run acted on in the same click is the one a later change keeps.
    p.commit_by_clicking("#resume-event", "build.done", "#step")
        .await;
    let acted = p.count("[data-testid=trace-entry]");
    p.click("#restart").await;
    p.click(".undo button").await;
    assert_eq!(
        p.count("[data-testid=trace-entry]"),
        acted,
        "the run acted on, not an older one"
    );
}

#[wasm_bindgen_test]
async fn a_switch_changed_then_step_at_once_acts_on_the_new_run() {
    let p = mount().await;
    p.click("#step").await;
    // A switch commits as it is clicked: the Step right after it is the
    // user's next action, which reads the notice and ends Undo's reach.
    p.switch("Reject before execution").await;
    assert!(exists(&p, ".undo"));
    p.click("#step").await;
    assert_eq!(p.state(), "TASK_STATE_REJECTED");
    assert!(!exists(&p, ".undo"), "acted on: nothing is kept for Undo");
    assert_eq!(p.text("[data-testid=notice]"), "");
}

#[wasm_bindgen_test]
async fn a_held_space_toggles_play_once_and_escape_leaves_focus_in_a_field() {
    let p = mount().await;
    p.key(" ").await;
    assert_eq!(p.text("#play"), "Pause playback");
    let entries = p.count("[data-testid=trace-entry]");
    // The key's auto-repeat: neither a toggle nor a Step.
    for _ in 0..5 {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key(" ");
        init.set_bubbles(true);
        init.set_repeat(true);
        let ev =
            web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
        document().body().unwrap().dispatch_event(&ev).unwrap();
        tick().await;
    }
    assert_eq!(p.text("#play"), "Pause playback");
    assert_eq!(p.count("[data-testid=trace-entry]"), entries);
    p.key(" ").await;
    assert_eq!(p.text("#play"), "Play");

    // An alert, then the user moves into a field: Escape closes the alert
    // and leaves the focus where the user typing is.
    p.click("#act-cancel").await;
    p.key("ArrowRight").await;
    let alert = p.text("[role=alert]");
    assert!(alert.starts_with("Step is not possible now"));
    // The same refusal again changes the alert's text, so it is said again.
    p.key("ArrowRight").await;
    assert_eq!(p.text("[role=alert]"), format!("{alert}\u{a0}"));
    let field = p.q("#clarification-text").unchecked_into::<HtmlElement>();
    field.focus().unwrap();
    p.key_on("#clarification-text", "Escape").await;
    assert_eq!(p.text("[data-testid=alert]"), "");
    let active = document().active_element().map(|a| a.id());
    assert_eq!(active.as_deref(), Some("clarification-text"));
}

/// The trace's blocks of 100 entries: (entries, whether it may skip layout) of each.
fn trace_blocks(p: &Page) -> Vec<(u32, bool)> {
    let blocks = p.q("[data-testid=trace] [role=list]").children();
    (0..blocks.length())
        .filter_map(|i| blocks.item(i))
        .map(|b| (b.child_element_count(), b.class_list().contains("full")))
        .collect()
}

#[wasm_bindgen_test]
async fn a_long_trace_keeps_its_blocks_and_highlight_through_a_discard() {
    let p = mount().await;
    // Two tasks of 12 units × 10 s: over 200 entries in the context's trace.
    p.set_range("#setting-work-units", 12).await;
    p.set_range("#setting-seconds-per-unit", 10).await;
    for _ in 0..125 {
        p.click("#step").await;
    }
    assert_eq!(p.state(), "TASK_STATE_COMPLETED");
    p.click("#act-follow-up").await;
    for _ in 0..100 {
        p.click("#step").await;
    }
    let n = p.count("[data-testid=trace-entry]");
    assert!(n > 200, "{n} entries");
    let rest = n - 200;
    assert_eq!(
        trace_blocks(&p),
        vec![(100, true), (100, false), (rest, false)],
        "only blocks two behind the newest skip layout"
    );
    let seqs: Vec<u32> = p
        .attrs("[data-testid=trace-entry]", "data-seq")
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "oldest first");

    // View an early state of the second task: its entry, in the second
    // block, is highlighted.
    p.set_range("#recorded-state", 10).await;
    let viewed = p.q("[data-testid=trace] .viewed");
    assert_eq!(p.count("[data-testid=trace] .viewed"), 1);
    let seq: u32 = viewed.get_attribute("data-seq").unwrap().parse().unwrap();
    assert!(p
        .text("[data-testid=timeline-position]")
        .starts_with("State 11 of "));
    assert_eq!(
        viewed.parent_element().unwrap(),
        p.q("[data-testid=trace] [role=list]")
            .children()
            .item(1)
            .unwrap(),
        "entry #{seq} sits in the second block"
    );

    // Stepping from there discards the later branch: the last block goes, the
    // first is no longer two behind the newest, and the second fills again as
    // the task goes on.
    p.click("#step").await;
    let after = p.count("[data-testid=trace-entry]");
    assert!(after < 200 && after > 100, "{after} entries");
    assert_eq!(trace_blocks(&p), vec![(100, false), (after - 100, false)]);
    for _ in 0..(200 - after) {
        p.click("#step").await;
    }
    assert_eq!(trace_blocks(&p), vec![(100, false), (100, false)]);
    p.click("#step").await;
    assert_eq!(
        trace_blocks(&p),
        vec![(100, true), (100, false), (1, false)]
    );

    // A whole run drawn at once (here, brought back by Undo after a settings
    // change): every block but the two newest skips layout too.
    for _ in 0..150 {
        p.click("#step").await;
        if p.disabled("#step") {
            p.click("#act-follow-up").await;
        }
    }
    let n = p.count("[data-testid=trace-entry]");
    assert!(n > 350, "{n} entries");
    p.set_range("#setting-work-units", 11).await;
    assert_eq!(p.count("[data-testid=trace-entry]"), 1);
    p.click(".undo button").await;
    let blocks = trace_blocks(&p);
    assert_eq!(blocks.len(), n.div_ceil(100) as usize);
    let full: Vec<bool> = blocks.iter().map(|b| b.1).collect();
    let mut expected = vec![true; blocks.len() - 2];
    expected.extend([false, false]);
    assert_eq!(full, expected, "{blocks:?}");
}

#[wasm_bindgen_test]
async fn follow_up_makes_a_new_task_in_the_same_context() {
    let p = rejected_task().await;
    // The time bar's legend draws the end mark as this task's is drawn.
    assert!(exists(&p, ".bar-legend .key.end.rejected"));
    let (task, ctx) = (
        p.text("[data-testid=task-id]"),
        p.text("[data-testid=context-id]"),
    );
    assert!(!p.disabled("#act-follow-up"));
    p.click("#act-follow-up").await;
    assert_eq!(p.state(), "TASK_STATE_SUBMITTED");
    assert!(
        p.text("#act-follow-up-reason").starts_with(
            "Done: follow-up task 2 (a new task id, the same context) is TASK_STATE_SUBMITTED; Play or Step runs it."
        ),
        "{}",
        p.text("#act-follow-up-reason")
    );
    assert_ne!(p.text("[data-testid=task-id]"), task);
    assert_eq!(p.text("[data-testid=context-id]"), ctx);
    assert_eq!(
        p.text("[data-testid=identity]"),
        "Follow-up: a new task id, the same context id as task 1, which it references."
    );
    let strip = p.text("[data-testid=identity-strip]");
    assert!(strip.starts_with("Task 2 of 2 · task id "), "{strip}");
    assert!(strip.ends_with(" · 0 of 4 units done"), "{strip}");
    assert_eq!(p.count("[data-testid=task-list-item]"), 2);
    // The earlier task is viewable and read-only.
    p.click("[data-testid=task-list-item] button").await;
    assert_eq!(p.state(), "TASK_STATE_REJECTED");
    assert!(p.disabled("#act-follow-up"));
    assert_eq!(
        p.text("#act-follow-up-reason"),
        "A read-only view of an earlier task: only the Wire panel's requests reach it."
    );
    // As it is now it is terminal: the agent refuses what a client sends it.
    assert!(!p.disabled("#wire-cancel-terminal"));
    p.click("#wire-cancel-terminal").await;
    assert_eq!(payload_types(&p), ["CancelTaskRequest", "error"]);
    let raw = p.text("[data-testid=wire-messages]");
    assert!(raw.contains(&task) && raw.contains("-32002"), "{raw}");
    // ListTasks from the earlier task as it is now: the whole context, the
    // follow-up first.
    p.click("#wire-list-tasks").await;
    assert_eq!(payload_types(&p), ["ListTasksRequest", "ListTasksResponse"]);
    let shown = p.text("[data-testid=wire-messages]");
    assert!(
        shown.contains("ListTasks result: 2 — TASK_STATE_SUBMITTED, TASK_STATE_REJECTED"),
        "{shown}"
    );
    assert_eq!(p.count(".wire .warning"), 0, "the context as it is now");
    // At an earlier state of it, as of then: the note says both what it leaves out.
    p.click("[aria-label='Previous recorded state']").await;
    let note = p.text(".wire .warning");
    assert!(
        note.contains("sent now, it would find this task in TASK_STATE_REJECTED.")
            && note.contains("would also list the 1 later task of this context."),
        "{note}"
    );
    p.click("[aria-label='Next recorded state']").await;
    // Back at the current task: both, the newest first.
    p.click("[data-testid=task-list-item]:last-child button")
        .await;
    let shown = p.text("[data-testid=wire-messages]");
    assert!(
        shown.contains("ListTasks result: 2 — TASK_STATE_SUBMITTED, TASK_STATE_REJECTED"),
        "{shown}"
    );
    // The note under Recorded states says it once and leads back too.
    p.click("[data-testid=task-list-item] button").await;
    assert!(p.text("[data-testid=read-only-note]").contains("read-only"));
    p.click("[data-testid=read-only-note] button").await;
    assert_eq!(p.state(), "TASK_STATE_SUBMITTED");
    let focused = document().active_element().map(|a| a.id());
    assert_eq!(
        focused.as_deref(),
        Some("recorded-state"),
        "focus stays in the panel"
    );
    assert!(!exists(&p, "[data-testid=read-only-note]"));
    assert!(!p.disabled("#act-cancel"));
}

#[wasm_bindgen_test]
async fn keyboard_shortcuts_step_and_seek_but_not_while_typing() {
    let p = mount().await;
    p.key("ArrowRight").await;
    p.key("ArrowRight").await;
    assert_eq!(p.text("[data-testid=active-time]"), "2 s of 12 s");
    p.key("[").await;
    assert!(p
        .text("[data-testid=timeline-position]")
        .starts_with("State 3 of 4"));
    // → from an earlier state discards nothing: it says how to go on.
    p.key("ArrowRight").await;
    assert!(p
        .text("[data-testid=timeline-position]")
        .starts_with("State 3 of 4"));
    assert!(p
        .text("[data-testid=notice]")
        .contains("would discard 1 later state. ] moves forward"));
    // So does Space: it does not play (and branch) from there.
    p.key(" ").await;
    assert!(!p.disabled("#play"), "Play stays offered");
    assert_eq!(p.text("#play"), "Play", "not playing");
    assert!(p
        .text("[data-testid=timeline-position]")
        .starts_with("State 3 of 4"));
    assert!(p.text("[data-testid=notice]").starts_with(
        "Space plays only from the latest recorded state: from this one it would discard 1 later state. ] moves forward; the Play button branches from here."
    ));
    p.key("]").await;
    assert!(p
        .text("[data-testid=timeline-position]")
        .starts_with("State 4 of 4"));
    // ] at the newest state moves nothing, and says so.
    p.key("]").await;
    let status = p.text("[data-testid=status]");
    assert!(
        status.ends_with("This is the newest recorded state of this task."),
        "{status}"
    );
    // Typing in the clarification field does not step.
    let field: HtmlElement = p.q("#clarification-text").unchecked_into();
    field.focus().unwrap();
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("ArrowRight");
    init.set_bubbles(true);
    let ev = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    field.dispatch_event(&ev).unwrap();
    tick().await;
    assert_eq!(p.text("[data-testid=active-time]"), "2 s of 12 s");
    // Nor on another control: → on Request cancellation is that button's.
    p.key_on("#act-cancel", "ArrowRight").await;
    p.key_on("#act-cancel", "[").await;
    assert_eq!(p.text("[data-testid=active-time]"), "2 s of 12 s");
    assert!(p
        .text("[data-testid=timeline-position]")
        .starts_with("State 4 of 4"));
    // On Step itself it steps, as a click would.
    p.key_on("#step", "ArrowRight").await;
    assert_eq!(p.text("[data-testid=active-time]"), "3 s of 12 s");
    // With the switch off, no key is a shortcut.
    p.switch("Keyboard shortcuts").await;
    p.key("ArrowRight").await;
    p.key("[").await;
    assert_eq!(p.text("[data-testid=active-time]"), "3 s of 12 s");
    assert!(p
        .text("[data-testid=timeline-position]")
        .starts_with("State 5 of 5"));
}

#[wasm_bindgen_test]
async fn a_refused_cancellation_is_shown_and_traced() {
    let p = mount().await;
    p.switch("Worker accepts cancellation").await; // off
    p.click("#step").await;
    p.click("#act-cancel").await;
    assert_eq!(p.state(), "TASK_STATE_WORKING");
    let alert = p.text("[data-testid=alert]");
    assert!(alert.contains("-32002"), "{alert}");
    // A slider moved onto its value in use answers only an alert about it.
    p.set_range("#setting-work-units", 4).await;
    assert_eq!(p.text("[data-testid=alert]"), alert);
    let last = p
        .q("[data-testid=trace-entry]:last-child")
        .text_content()
        .unwrap();
    assert!(
        last.contains(
            "refused: The worker refused the cancellation with TaskNotCancelableError (-32002)"
        ),
        "{last}"
    );
    // At the newest state the Wire panel stays on "latest", which is the refusal.
    let heading = p.text("[data-testid=wire-heading]");
    assert!(
        heading.contains("(latest): client request cancellation"),
        "{heading}"
    );
    assert_eq!(payload_types(&p), ["CancelTaskRequest", "error"]);
    // A refusal on the newest state: the note is where the SDKs differ.
    let note = p.text(".wire .warning");
    assert!(
        note.contains("§3.1.5")
            && note.contains("DefaultRequestHandlerV2")
            && note.contains("marked TASK_STATE_FAILED"),
        "{note}"
    );
    // Refused again on an earlier state: the panel shows the answer as of
    // then and says why the exported transcript leaves it out.
    p.click("#step").await;
    p.click("#step").await;
    p.key("[").await;
    p.click("#act-cancel").await;
    assert_eq!(payload_types(&p), ["CancelTaskRequest", "error"]);
    let note = p.text(".wire .warning");
    assert!(
        note.contains("Tried on an earlier state") && note.contains("transcript leaves"),
        "{note}"
    );
}

#[wasm_bindgen_test]
async fn a_repeated_cancel_is_refused_with_32002_and_the_wire_says_where_sdks_differ() {
    let p = mount().await;
    p.click("#step").await;
    p.click("#act-cancel").await;
    assert_eq!(p.state(), "TASK_STATE_CANCELED");
    // A canceled task is not cancelable (spec §3.1.5, §3.3.2): the Act
    // button is off and says why; the Wire panel sends it on purpose.
    assert!(p.disabled("#act-cancel"));
    // It says first that the cancel was done.
    assert_eq!(
        p.text("#act-cancel-reason"),
        "Done: the task is TASK_STATE_CANCELED now."
    );
    p.click("#wire-cancel-terminal").await;
    // Once anything else happens, why a second one is refused, and where
    // the spec and the SDKs part ways.
    let why = p.text("#act-cancel-reason");
    assert!(
        why.starts_with("The task is terminal (TASK_STATE_CANCELED)"),
        "{why}"
    );
    assert!(why.contains("TaskNotCancelableError (-32002)"), "{why}");
    assert!(
        why.contains("(§3.3.1 calls cancel idempotent; the JavaScript SDK, a2a-js, returns the canceled task)"),
        "{why}"
    );
    let status = p.text("[data-testid=status]");
    assert!(
        status.starts_with("Cancel terminal task refused, as it should be: "),
        "{status}"
    );
    assert_eq!(payload_types(&p), ["CancelTaskRequest", "error"]);
    let raw = p.text("[data-testid=wire-messages]");
    assert!(
        raw.contains("Task cannot be canceled - current state: TASK_STATE_CANCELED"),
        "{raw}"
    );
    let note = p.text(".wire .warning");
    assert!(
        note.contains("§3.1.5") && note.contains("a2a-js returns the stored task"),
        "{note}"
    );
    assert_eq!(p.state(), "TASK_STATE_CANCELED");
}

fn payload_types(p: &Page) -> Vec<String> {
    p.attrs("[data-testid=wire-message]", "data-payload-type")
}

#[wasm_bindgen_test]
async fn the_wire_panel_shows_each_entrys_exact_messages() {
    let p = mount().await;
    assert!(p.text("[data-testid=wire-heading]").contains("#1 (latest)"));
    assert_eq!(payload_types(&p), ["SendMessageRequest", "StreamResponse"]);
    let raw = p.text("[data-testid=wire-messages]");
    assert!(
        raw.contains("\"method\": \"SendStreamingMessage\""),
        "{raw}"
    );
    assert!(raw.contains("\"role\": \"ROLE_USER\""), "{raw}");
    assert!(raw.contains("TASK_STATE_SUBMITTED"), "{raw}");

    // A Step's worked second (#3) sends nothing: the panel keeps the latest
    // exchange in view, the start's statusUpdate (#2), and says why.
    p.click("#step").await;
    let later = "#2 (latest to send messages; the worked seconds since sent none)";
    assert!(p.text("[data-testid=wire-heading]").contains(later));
    assert_eq!(payload_types(&p), ["StreamResponse"]);
    // Viewing an earlier state shows that state's messages, and back.
    p.set_range("#recorded-state", 0).await;
    assert!(p
        .text("[data-testid=wire-heading]")
        .contains("#1 (viewed state)"));
    assert_eq!(payload_types(&p), ["SendMessageRequest", "StreamResponse"]);
    p.set_range("#recorded-state", 2).await;
    assert!(p.text("[data-testid=wire-heading]").contains(later));
    // The keyboard's way through the entries: previous / next.
    p.click("[aria-label='Previous trace entry']").await;
    assert!(p
        .text("[data-testid=wire-heading]")
        .contains("#1 (selected)"));
    // And said in the status line, for a reader who cannot see it change.
    let said = p.text("[data-testid=status]");
    assert!(
        said.starts_with("Wire shows trace entry #1: client "),
        "{said}"
    );
    // Latest follows the viewed state again, and says so.
    p.click("[data-testid=wire-latest]").await;
    assert!(p.text("[data-testid=wire-heading]").contains(later));
    let said = p.text("[data-testid=status]");
    assert!(
        said.starts_with("Wire follows the latest exchange again: trace entry #"),
        "{said}"
    );
    p.click("[aria-label='Previous trace entry']").await; // #1
    p.click("[aria-label='Next trace entry']").await;
    p.click("[aria-label='Next trace entry']").await;
    assert!(p
        .text("[data-testid=wire-heading]")
        .contains("#3 (selected)"));
    assert!(
        payload_types(&p).is_empty(),
        "a worked second, selected, shows nothing"
    );
    // The start transition travels as a statusUpdate; selecting it in the trace shows it.
    p.click("[data-testid=trace-entry][data-seq='2']").await;
    assert!(p
        .text("[data-testid=wire-heading]")
        .contains("#2 (selected)"));
    assert_eq!(payload_types(&p), ["StreamResponse"]);
    assert!(p
        .text("[data-testid=wire-messages]")
        .contains("statusUpdate"));
    // The trace marks the selected entry, and only that one.
    assert_eq!(p.count("[data-testid=trace-entry].selected"), 1);
    let selected = p.q("[data-testid=trace-entry].selected");
    assert_eq!(selected.get_attribute("data-seq").as_deref(), Some("2"));
    assert_eq!(
        selected.get_attribute("aria-describedby").as_deref(),
        Some("trace-wire-note")
    );
    assert_eq!(p.text("#trace-wire-note"), "shown in the Wire panel");
    // The viewed state's entry is the current step, and only that one.
    let current = p.attrs("[data-testid=trace-entry][aria-current=step]", "data-seq");
    let viewed = p.attrs("[data-testid=trace-entry].viewed", "data-seq");
    assert_eq!((current.len(), &current), (1, &viewed));
    let newest = p
        .q("#recorded-state")
        .unchecked_into::<HtmlInputElement>()
        .value();
    p.set_range("#recorded-state", 1).await;
    let moved = p.attrs("[data-testid=trace-entry][aria-current=step]", "data-seq");
    assert_eq!(
        moved,
        p.attrs("[data-testid=trace-entry].viewed", "data-seq")
    );
    assert_ne!(moved, current, "it follows the viewed state");
    p.set_range("#recorded-state", newest.parse().unwrap())
        .await;

    // On-demand GetTask answers with the bare Task.
    assert_eq!(p.text("#wire-get-task"), "Get task");
    p.click("#wire-get-task").await;
    assert_eq!(payload_types(&p), ["GetTaskRequest", "Task"]);
    assert_eq!(p.count(".wire .warning"), 0, "the task as it is now");
    // Its historyLength, chosen beside it: unset sends none; 0 gets no
    // history member; 1 gets the newest message.
    let raw = p.text("[data-testid=wire-messages]");
    assert!(
        !raw.contains("historyLength") && raw.contains("\"history\": ["),
        "{raw}"
    );
    p.choose("#get-task-history", "0").await;
    let raw = p.text("[data-testid=wire-messages]");
    assert!(
        raw.contains("\"historyLength\": 0") && !raw.contains("\"history\""),
        "{raw}"
    );
    assert!(p
        .text("[data-testid=wire-heading]")
        .ends_with("historyLength 0"));
    assert_eq!(
        p.text("[data-testid=status]"),
        format!(
            "Get task with historyLength 0: the agent answers the task, in {}; Wire shows the exchange.",
            p.state()
        )
    );
    p.choose("#get-task-history", "1").await;
    let raw = p.text("[data-testid=wire-messages]");
    assert!(raw.contains("\"historyLength\": 1"), "{raw}");
    assert_eq!(raw.matches("\"messageId\"").count(), 1, "{raw}");
    p.choose("#get-task-history", "").await;
    assert!(!p
        .text("[data-testid=wire-messages]")
        .contains("historyLength"));
    // The status line says what came back, for a reader of the page who
    // does not read the JSON.
    let state = p.state();
    assert_eq!(
        p.text("[data-testid=status]"),
        format!("Get task: the agent answers the task, in {state}; Wire shows the exchange.")
    );
    p.click("#wire-subscribe").await;
    assert_eq!(
        p.text("[data-testid=status]"),
        format!("Subscribe to task: the agent answers a stream that opens with the task, in {state}; Wire shows the exchange.")
    );
    // The stream's later frames are not drawn again under it: said so.
    let note = p.text(".wire .warning");
    assert!(
        note.starts_with(
            "Later events reach this subscription as they reach the task's open stream"
        ) && note.contains("until the task reaches a terminal state"),
        "{note}"
    );
    // A task id the agent never issued: TaskNotFoundError, at any state.
    assert_eq!(p.text("#wire-get-unknown"), "Get unknown task");
    p.click("#wire-get-unknown").await;
    assert_eq!(payload_types(&p), ["GetTaskRequest", "error"]);
    assert_eq!(
        p.text("[data-testid=status]"),
        "Get unknown task: the agent answers TaskNotFoundError (-32001); Wire shows the exchange."
    );
    let raw = p.text("[data-testid=wire-messages]");
    assert!(raw.contains("TASK_NOT_FOUND") && raw.contains("00000000-0000-4000-8000-000000000000"));
    assert!(p
        .text(".wire .warning")
        .starts_with("TaskNotFoundError (-32001) answers a task id the agent does not know"));
    p.click("#wire-get-task").await;
    // On an earlier state it answers as of then, and says a real one would not.
    p.set_range("#recorded-state", 0).await;
    assert!(p
        .text("[data-testid=wire-messages]")
        .contains("TASK_STATE_SUBMITTED"));
    let note = p.text(".wire .warning");
    assert!(
        note.contains("No A2A request reads an earlier state: sent now, it would find this task in TASK_STATE_WORKING."),
        "{note}"
    );
}

#[wasm_bindgen_test]
async fn illegal_requests_on_a_terminal_task_show_their_error_envelopes() {
    let p = rejected_task().await;
    assert_eq!(p.text("#wire-cancel-terminal"), "Cancel terminal task");
    p.click("#wire-cancel-terminal").await;
    assert_eq!(payload_types(&p), ["CancelTaskRequest", "error"]);
    // Refused on purpose: said in the status line, not raised as an alert.
    assert_eq!(p.text("[data-testid=alert]"), "");
    let status = p.text("[data-testid=status]");
    assert!(
        status.starts_with("Cancel terminal task refused, as it should be: ")
            && status.ends_with(". Wire shows the error the agent answers."),
        "{status}"
    );
    let raw = p.text("[data-testid=wire-messages]");
    assert!(
        raw.contains("-32002") && raw.contains("TASK_NOT_CANCELABLE"),
        "{raw}"
    );
    assert!(
        raw.contains("type.googleapis.com/google.rpc.ErrorInfo"),
        "{raw}"
    );
    assert_eq!(p.text("#wire-message-terminal"), "Message to terminal task");
    p.click("#wire-message-terminal").await;
    let raw = p.text("[data-testid=wire-messages]");
    assert!(
        raw.contains("-32004") && raw.contains("UNSUPPORTED_OPERATION"),
        "{raw}"
    );
    // Named for the control used, in the status line, the trace and the panel.
    assert_eq!(p.text("[data-testid=alert]"), "");
    let status = p.text("[data-testid=status]");
    assert!(
        status.starts_with("Message to terminal task refused, as it should be: "),
        "{status}"
    );
    let heading = p.text("[data-testid=wire-heading]");
    assert!(
        heading.ends_with("client send message to a terminal task"),
        "{heading}"
    );
    assert!(
        p.text(".wire .warning").contains("§3.1.1"),
        "the spec/SDK disagreement is said"
    );
    assert_eq!(p.state(), "TASK_STATE_REJECTED", "nothing changed");
    // What the agent answers a request sent on demand is said in the status line.
    p.click("#wire-subscribe").await;
    assert_eq!(
        p.text("[data-testid=status]"),
        "Subscribe to task: the agent answers UnsupportedOperationError (-32004); Wire shows the exchange."
    );
    p.click("#wire-get-task").await;
    assert_eq!(
        p.text("[data-testid=status]"),
        "Get task: the agent answers the task, in TASK_STATE_REJECTED; Wire shows the exchange."
    );
    p.click("#wire-list-tasks").await;
    assert_eq!(
        p.text("[data-testid=status]"),
        "List tasks: the agent answers 1 task: TASK_STATE_REJECTED; Wire shows the exchange."
    );
    assert_eq!(
        p.text("[data-testid=agent-card-title]"),
        "Agent card (AgentCard)",
        "a plain v1.0 card without the proposal"
    );
    assert_eq!(p.text("#wire-h"), "Wire: A2A v1.0 JSON-RPC messages");
    // Each button follows the action it sends: with no clarification text
    // there is no message to send, but a cancellation still goes out.
    p.type_text("#clarification-text", "").await;
    assert!(p.disabled("#wire-message-terminal"));
    assert!(!p.disabled("#wire-cancel-terminal"));
    let reason = p.text("#terminal-requests-reason");
    assert!(
        reason.starts_with("Message to terminal task: Not now: "),
        "{reason}"
    );
}

#[wasm_bindgen_test]
async fn a_text_field_whose_text_is_refused_is_marked_invalid_and_described_by_why() {
    let p = mount().await;
    let field = "#clarification-text";
    let marked = |p: &Page| {
        let el = p.q(field);
        (
            el.get_attribute("aria-invalid"),
            el.get_attribute("aria-describedby"),
        )
    };
    // Empty while the task works: the state, not the text, keeps the button off.
    p.type_text(field, "").await;
    assert_eq!(marked(&p), (None, None));
    p.set_range("#setting-require-input-before-unit", 1).await;
    p.click("#step").await;
    assert_eq!(p.state(), "TASK_STATE_INPUT_REQUIRED");
    p.type_text(field, "").await;
    assert_eq!(
        marked(&p),
        (Some("true".into()), Some("act-clarify-reason".into()))
    );
    assert_eq!(
        p.text("#act-clarify-reason"),
        "The clarification text is empty (or only spaces and invisible characters)."
    );
    // The count beside the label, in characters (not bytes), as it grows.
    let count = ".field:has(> #clarification-text) output";
    // Not read at each key: a status beside it says when the text goes
    // over the limit, and only then.
    let over = ".field:has(> #clarification-text) [role=status]";
    p.type_text(field, &"é".repeat(500)).await;
    assert_eq!(marked(&p), (None, None));
    assert_eq!(p.text(count), "500 / 500");
    assert!(!p.q(count).class_list().contains("over"));
    assert_eq!(
        p.q(count).get_attribute("aria-live").as_deref(),
        Some("off")
    );
    assert_eq!(p.text(over), "");
    p.type_text(field, &"x".repeat(501)).await;
    assert_eq!(marked(&p).0.as_deref(), Some("true"));
    assert_eq!(p.text(count), "501 / 500");
    assert!(p.q(count).class_list().contains("over"));
    assert_eq!(p.text(over), "Longer than 500 characters.");
    // The reason under the button says so too.
    assert_eq!(
        p.text("#act-clarify-reason"),
        "The clarification text is longer than 500 characters. It has 501."
    );
    p.type_text(field, "Use the staging database.").await;
    assert_eq!(marked(&p), (None, None));
    assert_eq!(p.text(count), "25 / 500");
    assert_eq!(p.text(over), "");
    // The proposal's fields too: an event with no name.
    proposal_on(&p).await;
    p.type_text("#event-to-fire", " ").await;
    assert_eq!(
        p.q("#event-to-fire")
            .get_attribute("aria-describedby")
            .as_deref(),
        Some("act-fire-event-reason")
    );
}

fn exists(p: &Page, sel: &str) -> bool {
    p.root.query_selector(sel).unwrap().is_some()
}

/// Switches on the pause/resume proposal (the last checkbox of Configure).
async fn proposal_on(p: &Page) {
    assert!(
        !exists(p, "#act-pause"),
        "nothing of the proposal while it is off"
    );
    p.click("fieldset.proposal input[type=checkbox]").await;
    assert!(exists(p, "#act-pause"));
    assert!(p.text("#act-pause").contains("Pause task"));
}

#[wasm_bindgen_test]
async fn the_trace_speaks_of_pauses_and_events_only_with_the_proposal_on() {
    let p = mount().await;
    let legend = p.text(".trace-legend");
    assert!(
        !legend.contains("pause") && !legend.contains("event"),
        "{legend}"
    );
    p.switch("Show each worked second").await;
    p.switch("Show each worked second").await;
    proposal_on(&p).await;
    let legend = p.text(".trace-legend");
    assert!(
        legend.contains("(· a pause's waiting time, proposal)"),
        "{legend}"
    );
    assert!(legend.contains("an external event (proposal)"), "{legend}");
    p.switch("Show each worked second and waited minute (proposal)")
        .await;
    assert_eq!(
        p.text("[data-testid=trace-count]"),
        "(1 of 1 entry shown; seconds and minutes hidden)"
    );
}

#[wasm_bindgen_test]
async fn a_pause_in_effect_says_its_params_are_the_rfcs_as_written() {
    let p = mount().await;
    proposal_on(&p).await;
    for _ in 0..3 {
        p.click("#step").await; // unit 1 done: a pause now takes effect at once
    }
    p.click("#act-pause").await;
    assert_eq!(p.state(), "TASK_STATE_PAUSED (proposal)");
    // Under the button: done, not what pressing again would do.
    assert_eq!(
        p.text("#act-pause-reason"),
        "Done: the task is TASK_STATE_PAUSED (proposal); Resume task wakes it."
    );
    let note = p.text(".wire .warning");
    assert!(
        note.contains("PauseTask's params are the RFC's as written")
            && note.contains("MethodNotFoundError (-32601)"),
        "{note}"
    );
    // Shown as they are: taskId, and mode in lower case.
    let json = p.text("[data-testid=wire-message] .json");
    assert!(
        json.contains("\"taskId\"") && json.contains("\"finish_step\""),
        "{json}"
    );
}

#[wasm_bindgen_test]
async fn pause_terminal_task_shows_the_proposed_error_in_both_encodings() {
    let p = mount().await;
    assert!(
        !exists(&p, "#wire-pause-terminal"),
        "a proposal's request, only with it on"
    );
    proposal_on(&p).await;
    assert!(p.disabled("#wire-pause-terminal"));
    p.click("#step").await;
    p.click("#act-cancel").await;
    assert_eq!(p.state(), "TASK_STATE_CANCELED");
    assert_eq!(
        p.text("#terminal-requests-reason"),
        "The task is terminal: all three requests are refused on purpose, to show the errors. \
         Message to terminal task sends “Use the EU region and keep costs under 100 EUR.” (Act's \
         Clarification text)."
    );
    // A long one is cut.
    p.type_text("#clarification-text", &"x".repeat(60)).await;
    assert!(p.text("#terminal-requests-reason").ends_with(&format!(
        "Message to terminal task sends “{}…” (Act's Clarification text).",
        "x".repeat(48)
    )));
    let entries = p.count("[data-testid=trace-entry]");
    p.click("#wire-pause-terminal").await;
    assert_eq!(p.count("[data-testid=trace-entry]"), entries + 1, "traced");
    assert!(p
        .text("[data-testid=status]")
        .starts_with("Pause terminal task refused, as it should be:"));
    assert_eq!(
        payload_types(&p),
        ["proposal:PauseTaskRequest", "proposal:error"]
    );
    assert!(p.text("[data-testid=wire-messages]").contains("-32010"));
    // In the v1.0 extension: a SendMessage refused as a message to a
    // terminal task, the proposed code in its ErrorInfo. The status line
    // no longer speaks of the answer in the other encoding.
    p.choose("#pause-encoding", "ext").await;
    assert_eq!(
        p.text("[data-testid=status]"),
        "Pause encoding: the proposal in a v1.0 extension; the Wire panel shows the same exchanges in it."
    );
    let raw = p.text("[data-testid=wire-messages]");
    assert!(
        raw.contains("-32004") && raw.contains("\"proposedCode\": \"-32010\""),
        "{raw}"
    );
    // At an earlier state of it, before it ended: the way to send them.
    p.click("[aria-label='Previous recorded state']").await;
    assert_eq!(
        p.text("#terminal-requests-reason"),
        "Viewing an earlier state: a client reaches a task only as it is now. Go to its last \
         state to send these."
    );
    p.click("[aria-label='Next recorded state']").await;
    // The canceled task, viewed from its follow-up as it is now, takes it too.
    p.click("#act-follow-up").await;
    assert!(
        p.disabled("#wire-pause-terminal"),
        "the follow-up is not terminal"
    );
    p.click("[data-testid=task-list-item] button").await;
    assert_eq!(p.state(), "TASK_STATE_CANCELED");
    assert!(!p.disabled("#wire-pause-terminal"));
    p.choose("#pause-encoding", "core").await;
    p.click("#wire-pause-terminal").await;
    assert_eq!(
        payload_types(&p),
        ["proposal:PauseTaskRequest", "proposal:error"]
    );
    // At an earlier state of it, nothing can be sent.
    p.click("[aria-label='Previous recorded state']").await;
    assert!(p.disabled("#wire-pause-terminal"));
}

#[wasm_bindgen_test]
async fn a_self_park_keeps_a_pending_pause_and_inspect_says_so() {
    let p = mount().await;
    proposal_on(&p).await;
    p.set_range("#setting-agent-self-parks-before-unit", 2)
        .await;
    p.set_range("#setting-self-park-timeout-minutes", 2).await;
    p.choose("#on-timeout", "fail").await;
    p.click("#step").await; // in unit 1
    p.choose("#pause-mode", "wait_for_completion").await;
    p.click("#act-pause").await;
    // Already before the self-park: it lies on the way.
    assert_eq!(
        p.text("[data-testid=pause-requested]"),
        "Pause requested (wait_for_completion, proposal): it takes effect when every unit is \
         done, unless the self-park's timeout fails the task first."
    );
    while p.state() != "TASK_STATE_PAUSED (proposal)" {
        p.click("#step").await;
    }
    assert!(p
        .text("[data-testid=pause-details]")
        .contains("agent (AwaitTaskResumption)"));
    assert_eq!(
        p.text("[data-testid=pause-details] [data-testid=pause-requested]"),
        "Pause requested (wait_for_completion, proposal): it takes effect when every unit is \
         done, unless the self-park's timeout fails the task first."
    );
}

#[wasm_bindgen_test]
async fn at_a_unit_just_done_a_pending_pause_says_it_takes_effect_before_the_next() {
    let p = mount().await;
    proposal_on(&p).await;
    for _ in 0..7 {
        p.click("#step").await; // 1 s into unit 3 of 4
    }
    p.click("#act-pause").await;
    p.click("#step").await;
    p.click("#step").await; // unit 3 done, and the pause takes effect
    assert_eq!(p.state(), "TASK_STATE_PAUSED (proposal)");
    // The state just before it, inside the same Step: unit 3 is done and
    // the pause still pending. Unit 4, the last, is not in flight yet.
    p.click("[aria-label='Previous recorded state']").await;
    assert_eq!(p.state(), "TASK_STATE_WORKING");
    assert_eq!(
        p.text("[data-testid=pause-requested]"),
        "Pause requested (finish_step, proposal): it takes effect before unit 4 starts."
    );
}

#[wasm_bindgen_test]
async fn a_finish_step_pause_asked_in_the_last_unit_says_it_lapses() {
    let p = mount().await;
    proposal_on(&p).await;
    p.set_range("#setting-work-units", 1).await;
    p.click("#step").await; // 1 s into unit 1, the only one
    p.click("#act-pause").await;
    assert_eq!(p.state(), "TASK_STATE_WORKING");
    assert_eq!(
        p.text("[data-testid=pause-requested]"),
        "Pause requested (finish_step, proposal): the in-flight unit is the task's last, so the \
         task completes when it does and the pause lapses, with nothing left to pause."
    );
    // The line under the button says the same, not that Step carries the
    // task to the pause.
    assert!(
        p.text("#act-pause-reason").starts_with(
            "Done: the pause is requested (proposal), but it lapses (see Pause requested)"
        ),
        "{}",
        p.text("#act-pause-reason")
    );
    while !p.disabled("#step") {
        p.click("#step").await;
    }
    assert_eq!(p.state(), "TASK_STATE_COMPLETED");
    // In a unit set to fail, the pause lapses with the failure, whichever the unit.
    p.set_range("#setting-work-units", 3).await;
    p.set_range("#setting-fail-during-unit", 2).await;
    for _ in 0..4 {
        p.click("#step").await; // 1 s into unit 2, which fails at its second 2
    }
    p.click("#act-pause").await;
    assert_eq!(
        p.text("[data-testid=pause-requested]"),
        "Pause requested (finish_step, proposal): the in-flight unit fails before it completes \
         (Fail during unit), so the task fails and the pause lapses."
    );
    // The Wire panel says the same of that PauseTask.
    let note = p.text(".wire .warning");
    assert!(
        note.starts_with("Proposal: this pause never takes effect: the in-flight unit fails"),
        "{note}"
    );
    p.click("#step").await;
    assert_eq!(p.state(), "TASK_STATE_FAILED");
    // A failure set beyond the last unit never comes: wait_for_completion
    // takes effect.
    p.set_range("#setting-fail-during-unit", 5).await;
    p.click("#step").await;
    p.choose("#pause-mode", "wait_for_completion").await;
    p.click("#act-pause").await;
    assert_eq!(
        p.text("[data-testid=pause-requested]"),
        "Pause requested (wait_for_completion, proposal): it takes effect when every unit is done."
    );
}

fn compared_types(p: &Page) -> Vec<String> {
    p.attrs("[data-testid=wire-compare-message]", "data-payload-type")
}

#[wasm_bindgen_test]
async fn the_wire_panel_compares_an_exchange_in_both_pause_encodings() {
    let p = mount().await;
    assert!(
        !exists(&p, "[data-testid=wire-compare]"),
        "only with the proposal on"
    );
    proposal_on(&p).await;
    p.click("#step").await;
    p.click("#act-pause").await;
    p.click("#step").await;
    // Asking again is allowed, and the hint says what it does.
    assert!(p
        .text("#act-pause-reason")
        .contains("answers as the pause stands"));
    p.click("#step").await; // unit 1 done: the pause takes effect
    assert_eq!(p.state(), "TASK_STATE_PAUSED (proposal)");
    assert_eq!(payload_types(&p), ["proposal:StreamResponse"]);
    // Closed, it shows nothing and works nothing out.
    assert!(compared_types(&p).is_empty());
    let summary = p.text("[data-testid=wire-compare] summary");
    assert!(
        summary.ends_with("v1.0 extension (legal today)"),
        "{summary}"
    );
    p.click("[data-testid=wire-compare] summary").await;
    // Worked out once open (the toggle event comes after the click).
    for _ in 0..100 {
        if !compared_types(&p).is_empty() {
            break;
        }
        sleep(10).await;
    }
    // Side by side: the proposed core's PAUSED frame, and the same pause as
    // v1.0 has it, a WORKING task with the pause in metadata.
    assert_eq!(payload_types(&p), ["proposal:StreamResponse"]);
    assert_eq!(compared_types(&p), ["StreamResponse"]);
    let other = p.text("[data-testid=wire-compare-messages]");
    assert!(
        other.contains("TASK_STATE_WORKING") && other.contains("extensions/pause/v1"),
        "{other}"
    );
    // Choosing the other encoding swaps the two.
    p.choose("#pause-encoding", "ext").await;
    assert_eq!(payload_types(&p), ["StreamResponse"]);
    assert_eq!(compared_types(&p), ["proposal:StreamResponse"]);
    assert!(p
        .text("[data-testid=wire-compare] summary")
        .ends_with("Proposed core (proposal, not A2A v1.0)"));
    // An exchange the pause does not touch is the same in both, and says so.
    p.click("#wire-list-tasks").await;
    p.click("[aria-label=\"Previous trace entry\"]").await;
    for _ in 0..10 {
        p.click("[aria-label=\"Previous trace entry\"]").await;
    }
    assert!(p
        .text("[data-testid=wire-heading]")
        .starts_with("Trace entry #1 "));
    assert!(compared_types(&p).is_empty());
    assert_eq!(
        p.text("[data-testid=wire-compare-same]"),
        "The same JSON in both encodings: this exchange does not touch the pause. \
         In the extension encoding, only its A2A-Extensions request and response headers differ."
    );
}

#[wasm_bindgen_test]
async fn the_proposal_pauses_refuses_a_wrong_token_and_resumes_with_its_own() {
    let p = mount().await;
    proposal_on(&p).await;
    p.click("#step").await; // 1 s into unit 1
    p.q("#act-pause")
        .unchecked_into::<HtmlElement>()
        .focus()
        .unwrap();
    p.click("#act-pause").await;
    assert_eq!(p.state(), "TASK_STATE_WORKING");
    assert!(p
        .text("[data-testid=pause-pending]")
        .contains("finish_step"));
    // Play or Step takes the task to where the pause takes effect: the
    // line under the button says so, and focus goes on to its Go to Play.
    assert_eq!(
        p.text("#act-pause-reason"),
        "Done: the pause is requested (proposal) and the task is TASK_STATE_WORKING until it \
         takes effect; Play or Step carries it there. Go to Play"
    );
    next_frame().await;
    let focused = document().active_element().unwrap();
    assert!(p.q("#act-pause-reason").contains(Some(&focused)));
    // The RFC has no result shape for a pending pause: the Wire panel says so.
    let note = p.text(".wire .warning");
    assert!(
        note.contains("takes effect later") && note.contains("PAUSED statusUpdate"),
        "{note}"
    );
    // Asked again while it is pending: nothing changes, and it says why.
    p.click("#act-pause").await;
    assert_eq!(
        p.text("[data-testid=status]"),
        "Pause task (proposal): a pause is already requested, and it stands whatever this one's mode; nothing changed."
    );
    // The same no-op again is said again: the live region's text changes.
    let said = || p.q("[data-testid=status]").text_content().unwrap();
    let before = said();
    p.click("#act-pause").await;
    assert_ne!(said(), before, "announced again");
    assert_eq!(said().trim(), before.trim());
    p.click("#step").await;
    p.click("#step").await; // unit 1 done: the pause takes effect
                            // The name says whose state it is; the badge beside it just "Paused".
    assert_eq!(p.state(), "TASK_STATE_PAUSED (proposal)");
    assert_eq!(p.text(".state-line .badge"), "Paused");
    // The pause on the wire, in both encodings; the agent card says which.
    assert_eq!(payload_types(&p), ["proposal:StreamResponse"]);
    let title = p.text("[data-testid=agent-card-title]");
    assert!(
        title.contains("proposal") && title.contains("not A2A v1.0"),
        "{title}"
    );
    assert!(p
        .text("[data-testid=wire-messages]")
        .contains("TASK_STATE_PAUSED"));
    p.choose("#pause-encoding", "ext").await;
    assert_eq!(payload_types(&p), ["StreamResponse"]);
    let raw = p.text("[data-testid=wire-messages]");
    assert!(
        raw.contains("TASK_STATE_WORKING") && !raw.contains("TASK_STATE_PAUSED"),
        "{raw}"
    );
    assert!(raw.contains("extensions/pause/v1"), "{raw}");
    // Plain v1.0, and still said to be the proposal's, line and panel.
    assert!(raw.contains("(SSE, pause extension, a proposal)"), "{raw}");
    assert!(p.text("#wire-h").contains("the pause proposal (not v1.0)"));
    let title = p.text("[data-testid=agent-card-title]");
    assert!(title.contains("pause extension, a proposal"), "{title}");
    let token = p.text("[data-testid=resume-token]");
    assert_eq!(token.len(), 36);
    p.click("#step").await; // one minute of waiting
    assert_eq!(p.text("[data-testid=waiting-time]"), "1 min");
    assert!(p.text("[data-testid=active-time]").starts_with("3 s"));
    p.click("#act-resume-wrong").await;
    // A refusal the user sent to see: said in the status line, no alert.
    let status = p.text("[data-testid=status]");
    assert!(
        status.starts_with("Resume with wrong token (proposal) refused, as it should be: "),
        "{status}"
    );
    assert!(status.contains("-32011"), "{status}");
    assert!(p.text("[data-testid=alert]").is_empty());
    // The wrong token is plainly not one the agent issued (its are UUIDs).
    let sent = p.text("[data-testid=wire-messages]");
    assert!(
        sent.contains("\"resumeToken\": \"not-the-issued-token\""),
        "{sent}"
    );
    assert_eq!(p.state(), "TASK_STATE_PAUSED (proposal)");
    p.click("#act-resume").await;
    assert_eq!(p.state(), "TASK_STATE_WORKING");
    // Inspect no longer shows the token: the line under the button says
    // which one was sent.
    let said = p.text("#act-resume-reason");
    assert!(
        said.starts_with(&format!(
            "Done: resumed with the token {}… that Inspect showed; the task is \
             TASK_STATE_WORKING now, and Play or Step carries it on.",
            &token[..8]
        )),
        "{said}"
    );
    assert_eq!(p.text("[data-testid=completed-units]"), "1 / 4");
    assert!(
        p.disabled("#act-resume"),
        "nothing to resume once the task works"
    );
    // Inspect says what the resume was: the proposal's, not v1.0's.
    assert_eq!(
        p.text("[data-testid=identity]"),
        "First task of this context; resumed 1× (from a pause, a proposal) under the same task id, its completed units kept."
    );
}

#[wasm_bindgen_test]
async fn play_stopped_at_a_pause_hands_focus_to_the_link_to_resume() {
    // Play stays on at a pause with a timeout (it would run the waiting
    // clock): a second press of the same key must not do that unasked.
    let p = mount().await;
    proposal_on(&p).await;
    p.set_range("#setting-agent-self-parks-before-unit", 1)
        .await;
    p.set_range("#setting-self-park-timeout-minutes", 5).await;
    p.choose("#speed", "4").await;
    p.q("#play")
        .unchecked_into::<HtmlElement>()
        .focus()
        .unwrap();
    p.click("#play").await;
    for _ in 0..200 {
        if p.state() == "TASK_STATE_PAUSED (proposal)" {
            break;
        }
        sleep(50).await;
    }
    assert_eq!(p.state(), "TASK_STATE_PAUSED (proposal)");
    assert_eq!(p.text("#play"), "Play");
    assert!(!p.disabled("#play"), "Play can still run the waiting clock");
    next_frame().await;
    next_frame().await;
    let active = document()
        .active_element()
        .map(|a| a.text_content().unwrap_or_default());
    assert_eq!(active.as_deref(), Some("Go to resume"));
    // The user runs the waiting clock and pauses playback there: their own
    // stop, so focus stays on Play.
    p.q("#play")
        .unchecked_into::<HtmlElement>()
        .focus()
        .unwrap();
    p.click("#play").await;
    assert_eq!(p.text("#play"), "Pause playback");
    p.click("#play").await;
    assert_eq!(p.text("#play"), "Play");
    next_frame().await;
    next_frame().await;
    let active = document().active_element().map(|a| a.id());
    assert_eq!(active.as_deref(), Some("play"));
}

#[wasm_bindgen_test]
async fn an_event_that_wakes_nothing_says_so_under_its_button_not_done() {
    let p = mount().await;
    proposal_on(&p).await;
    p.click("#step").await;
    p.click("#step").await;
    assert_eq!(p.state(), "TASK_STATE_WORKING");
    p.type_text("#event-to-fire", "pr.closed").await;
    p.click("#act-fire-event").await;
    assert_eq!(p.state(), "TASK_STATE_WORKING");
    let said = p.text("#act-fire-event-reason");
    assert_eq!(
        said, "Fire event (proposal): nothing waits for the event “pr.closed”; nothing changed.",
        "not \"Done: … Play or Step carries it on\""
    );
    // The next Step is newer: the line goes back to the button's hint.
    p.click("#step").await;
    assert_ne!(p.text("#act-fire-event-reason"), said);
}

#[wasm_bindgen_test]
async fn only_the_matching_event_wakes_a_self_parked_task() {
    let p = mount().await;
    proposal_on(&p).await;
    p.set_range("#setting-agent-self-parks-before-unit", 1)
        .await;
    p.choose("#resume-event", "pr.merged").await;
    p.click("#step").await;
    assert_eq!(p.state(), "TASK_STATE_PAUSED (proposal)");
    let details = p.text("[data-testid=pause-details]");
    // Labelled as the proposal it is, as every text of the pause.
    assert!(
        details.starts_with("Pause — proposal, not part of A2A v1.0"),
        "{details}"
    );
    assert!(details.contains("agent (AwaitTaskResumption)"), "{details}");
    // The reason the wire carries; no PauseTask mode.
    assert!(
        details.contains("Waiting for pr.merged before unit 1 of 4."),
        "{details}"
    );
    assert!(details.contains("a self-park has none"), "{details}");
    // Paused by the agent: PauseTask says it would change nothing, and why.
    assert!(
        p.text("#act-pause-reason")
            .starts_with("The task is already paused: PauseTask (proposal) changes nothing"),
        "{}",
        p.text("#act-pause-reason")
    );
    p.type_text("#event-to-fire", "build.done").await;
    p.click("#act-fire-event").await;
    assert_eq!(
        p.state(),
        "TASK_STATE_PAUSED (proposal)",
        "another event does not wake it"
    );
    // Said under the button too, where the user looks after the click.
    assert_eq!(
        p.text("#act-fire-event-reason"),
        "Fire event (proposal): nothing waits for the event “build.done”; nothing changed."
    );
    p.type_text("#event-to-fire", "pr.merged").await;
    p.q("#act-fire-event")
        .unchecked_into::<HtmlElement>()
        .focus()
        .unwrap();
    p.click("#act-fire-event").await;
    assert_eq!(p.state(), "TASK_STATE_WORKING");
    // Fire event stays on; focus goes on to the Go to Play in its line.
    next_frame().await;
    let focused = document().active_element().unwrap();
    assert_eq!(focused.text_content().as_deref(), Some("Go to Play"));
    assert!(p.q("#act-fire-event-reason").contains(Some(&focused)));
    // The event set it running: Play or Step carries it on, as after an answer.
    assert!(
        p.text("#act-fire-event-reason").starts_with(
            "Done: the task is TASK_STATE_WORKING now, and Play or Step carries it on."
        ),
        "{}",
        p.text("#act-fire-event-reason")
    );
    assert!(!p.q("#act-fire-event").class_list().contains("leads"));
    // An event with no name: the line under the button says that, not
    // "Done", and it is what describes the field.
    p.type_text("#event-to-fire", " ").await;
    assert_eq!(
        p.text("#act-fire-event-reason"),
        "The event has no name (or only spaces and invisible characters)."
    );
    assert_eq!(
        p.q("#event-to-fire")
            .get_attribute("aria-describedby")
            .as_deref(),
        Some("act-fire-event-reason")
    );
}

#[wasm_bindgen_test]
async fn work_lost_to_interrupt_immediate_is_not_drawn_and_resume_buttons_say_why() {
    let p = mount().await;
    proposal_on(&p).await;
    p.click("#step").await; // started, 1 s into unit 1
    assert!(p.disabled("#act-resume-wrong"), "nothing to resume");
    assert!(
        p.text("#act-resume-wrong-reason")
            .starts_with("Not now: the task is TASK_STATE_WORKING, not paused"),
        "{}",
        p.text("#act-resume-wrong-reason")
    );
    p.click("#step").await; // 2 s into unit 1
    p.choose("#pause-mode", "interrupt_immediate").await;
    p.click("#act-pause").await;
    assert_eq!(p.state(), "TASK_STATE_PAUSED (proposal)");
    assert_eq!(
        p.count(".unit.partial"),
        0,
        "the 2 s of unit 1 were lost: nothing of it is done"
    );
    assert!(!p.disabled("#act-resume-wrong"));
    // The Resume button checks what it sends: a too long resume input.
    p.type_text("#resume-input", &"x".repeat(501)).await;
    assert!(p.disabled("#act-resume"));
    assert_eq!(
        p.text("#act-resume-reason"),
        "The resume input is longer than 500 characters. It has 501."
    );
    p.type_text("#resume-input", "go on").await;
    p.click("#act-resume").await;
    p.click("#step").await; // unit 1 again, 1 s in
    assert_eq!(p.attrs(".unit.partial", "title"), ["Unit 1"]);
    let fill = p.q(".unit.partial").get_attribute("style").unwrap();
    assert!(fill.contains("33%"), "1 s of 3: {fill}");
}

#[wasm_bindgen_test]
async fn experiment_5_sets_up_a_self_park_that_the_event_wakes() {
    let p = mount().await;
    let buttons = p.root.query_selector_all(".guide button").unwrap();
    let setup = buttons
        .item(buttons.length() - 1)
        .unwrap()
        .unchecked_into::<HtmlElement>();
    assert_eq!(setup.text_content().unwrap(), "Set up experiment 5");
    setup.click();
    next_frame().await;
    let focused = document().active_element().map(|e| e.id());
    assert_eq!(focused.as_deref(), Some("play"), "on to Play");
    // The settings are far below: the notice names what it changed.
    assert_eq!(
        p.text("[data-testid=notice]"),
        "Experiment 5 set up (Proposed pause/resume on; Agent self-parks before unit 3; and 3 \
         more settings, under Configure)."
    );
    // What to do, under Play, step by step.
    assert_eq!(
        p.text("[data-testid=guided]"),
        "Experiment 5, step 1 of 4: Press Play: the agent pauses itself before unit 3, in \
         TASK_STATE_PAUSED (proposal)."
    );
    assert!(exists(&p, "#act-pause"), "the proposal is on");
    for _ in 0..20 {
        if p.state() == "TASK_STATE_PAUSED (proposal)" {
            break;
        }
        p.click("#step").await;
    }
    assert_eq!(p.state(), "TASK_STATE_PAUSED (proposal)");
    assert_eq!(p.text("[data-testid=completed-units]"), "2 / 4");
    assert_eq!(
        p.text("[data-testid=guided]"),
        "Experiment 5, step 2 of 4: Open Compare, at the foot of the Wire panel; then Fire event \
         or Resume task, in Act's Pause and resume box (proposal). Go to Compare"
    );
    // Its link goes to Compare's own summary, where Enter opens it.
    p.click("[data-testid=guided-go]").await;
    let focused = document().active_element().unwrap();
    assert_eq!(focused.id(), "wire-compare-open");
    // As the guide says: while paused, Compare shows the same pause as a
    // v1.0 extension carries it, WORKING plus metadata.
    p.q("[data-testid=wire-compare]")
        .set_attribute("open", "")
        .unwrap();
    next_frame().await;
    next_frame().await;
    let compared = p.text("[data-testid=wire-compare-messages]");
    assert!(
        compared.contains("TASK_STATE_WORKING") && compared.contains("resumeToken"),
        "{compared}"
    );
    p.type_text("#event-to-fire", "pr.merged").await;
    p.click("#act-fire-event").await;
    assert_eq!(p.state(), "TASK_STATE_WORKING");
}

/// An answer that sets the task running says that Play or Step carries it
/// on, with a link to Play, while its entry is the newest: not after the
/// next Step, and not in a fresh experiment whose trace reaches as far.
#[wasm_bindgen_test]
async fn an_answer_says_play_carries_the_task_on_while_it_is_the_newest_entry() {
    let p = mount().await;
    let link = "#act-clarify-reason [data-testid=go-to-answer]";
    p.set_range("#setting-require-input-before-unit", 2).await;
    while p.state() != "TASK_STATE_INPUT_REQUIRED" {
        p.click("#step").await;
    }
    assert_eq!(p.count(link), 0, "nothing answered yet");
    p.click("#act-clarify").await;
    // What the answer kept, where it was given.
    assert!(
        p.text("#act-clarify-reason").starts_with(
            "Done: the same task, its ids and 1 of 4 units kept, is TASK_STATE_WORKING now; \
             Play or Step carries it on."
        ),
        "{}",
        p.text("#act-clarify-reason")
    );
    assert_eq!(p.text(link), "Go to Play");
    let entries = p.count("[data-testid=trace-entry]");
    p.click("#step").await;
    assert_eq!(p.count(link), 0, "a Step went on");
    assert!(p
        .text("#act-clarify-reason")
        .starts_with("This page sends clarification only in"));
    // A fresh experiment (a setting changed) stepped to as many entries.
    p.set_range("#setting-require-input-before-unit", 0).await;
    while p.count("[data-testid=trace-entry]") < entries {
        p.click("#step").await;
    }
    assert_eq!(p.count("[data-testid=trace-entry]"), entries);
    assert_eq!(p.count(link), 0, "nothing was answered in this experiment");
    // Authorize says the same, with the units done when it was granted.
    p.set_range("#setting-require-authorization-before-unit", 3)
        .await;
    while p.state() != "TASK_STATE_AUTH_REQUIRED" {
        p.click("#step").await;
    }
    p.click("#act-authorize").await;
    assert!(
        p.text("#act-authorize-reason").starts_with(
            "Done: the same task, its ids and 2 of 4 units kept, is TASK_STATE_WORKING now;"
        ),
        "{}",
        p.text("#act-authorize-reason")
    );
}

#[wasm_bindgen_test]
async fn settings_that_never_stop_the_task_say_so_before_the_first_play() {
    let p = mount().await;
    assert!(
        p.text("#step-reason")
            .starts_with("Nothing in these settings interrupts the task"),
        "{}",
        p.text("#step-reason")
    );
    assert!(exists(&p, "[data-testid=to-experiments]"));
    // What Play is described by ends on where its words lead, not on "instead:".
    assert_eq!(
        p.q("#play").get_attribute("aria-describedby").unwrap(),
        "step-reason discard-warning"
    );
    assert!(
        p.text("#step-reason").ends_with(
            "instead: Require input before unit 2 (the other settings stay), or see the experiments."
        ),
        "{}",
        p.text("#step-reason")
    );
    // A gate within the units: Play will stop, the usual words.
    p.set_range("#setting-require-input-before-unit", 2).await;
    assert!(p
        .text("#step-reason")
        .starts_with("Step runs up to one active second"));
    assert!(!exists(&p, "[data-testid=to-experiments]"));
    // Once the task runs, the usual words too.
    p.set_range("#setting-require-input-before-unit", 0).await;
    assert!(exists(&p, "[data-testid=to-experiments]"));
    p.click("#step").await;
    assert!(!exists(&p, "[data-testid=to-experiments]"));
    // From the hint, one click adds experiment 1's gate to the settings in
    // use (the others stay as the user set them): on to Play.
    p.set_range("#setting-work-units", 6).await;
    assert_eq!(
        p.text("[data-testid=add-input-gate]"),
        "Require input before unit 2"
    );
    p.click("[data-testid=add-input-gate]").await;
    assert_eq!(p.text("[data-testid=value-require-input-before-unit]"), "2");
    assert_eq!(p.text("[data-testid=value-work-units]"), "6");
    assert!(p
        .text("[data-testid=notice]")
        .starts_with("Experiment 1 set up (Work units 6, Require input before unit 2)."));
    assert_eq!(
        p.text("[data-testid=guided]"),
        "Experiment 1, step 1 of 4: Press Play: the task stops at TASK_STATE_INPUT_REQUIRED \
         before unit 2."
    );
    assert!(!exists(&p, "[data-testid=add-input-gate]"));
    next_frame().await;
    let focused = document().active_element().map(|e| e.id());
    assert_eq!(focused.as_deref(), Some("play"));
    for _ in 0..10 {
        p.click("#step").await;
    }
    assert_eq!(p.state(), "TASK_STATE_INPUT_REQUIRED");
    assert!(p
        .text("[data-testid=guided]")
        .starts_with("Experiment 1, step 2 of 4: Note the task id"));
}

#[wasm_bindgen_test]
async fn the_notice_of_a_branch_carries_its_undo() {
    let p = mount().await;
    for _ in 0..6 {
        p.click("#step").await;
    }
    p.set_range("#recorded-state", 2).await;
    p.click("#step").await;
    assert_eq!(p.count("[data-testid=trace-entry]"), 4);
    // Where the user is looking after the action, not only under Recorded states.
    assert_eq!(p.text("[data-testid=notice-undo]"), "Undo");
    // Another notice (a download's) takes its place: no Undo beside it,
    // though Undo under Recorded states still reaches.
    let buttons = p.root.query_selector_all("button").unwrap();
    let download = (0..buttons.length())
        .filter_map(|i| buttons.item(i))
        .find(|b| b.text_content().as_deref() == Some("Download run"))
        .expect("Download run");
    download.unchecked_into::<HtmlElement>().click();
    tick().await;
    assert!(
        p.text("[data-testid=notice]").starts_with("Run saved"),
        "{}",
        p.text("[data-testid=notice]")
    );
    assert!(!exists(&p, "[data-testid=notice-undo]"));
    assert!(exists(&p, "[data-testid=undo-discard]"));
    p.click("#act-cancel").await;
    p.set_range("#recorded-state", 0).await;
    p.click("#step").await;
    assert_eq!(p.text("[data-testid=notice-undo]"), "Undo");
    // The canceled branch (the first Undo's run, then the cancel) is back.
    p.click("[data-testid=notice-undo]").await;
    assert_eq!(
        p.count("[data-testid=trace-entry]"),
        5,
        "the branch is back"
    );
    assert_eq!(p.state(), "TASK_STATE_SUBMITTED", "at the state acted from");
    assert!(
        !exists(&p, "[data-testid=notice-undo]"),
        "it reaches no further"
    );
    assert!(!exists(&p, "[data-testid=undo-discard]"));
    let active = document().active_element().map(|a| a.id());
    assert_eq!(active.as_deref(), Some("recorded-state"));
}

/// Steps the task to its completion: the Wire panel's messages then, and its note.
async fn completed_wire(p: &Page) -> (String, String) {
    while !p.disabled("#step") {
        p.click("#step").await;
    }
    assert_eq!(p.state(), "TASK_STATE_COMPLETED");
    let wire = p.text("[data-testid=wire-messages]");
    assert!(wire.contains("\"lastChunk\": true"), "{wire}");
    (wire, p.text(".wire .warning"))
}

#[wasm_bindgen_test]
async fn the_completion_says_how_its_artifact_is_chunked() {
    let p = mount().await;
    let (wire, note) = completed_wire(&p).await;
    assert!(!wire.contains("\"append\""), "{wire}");
    assert!(
        note.starts_with("The final artifact comes in one chunk, at completion"),
        "{note}"
    );
    // Streamed unit by unit, the note says what this frame holds.
    p.switch("Stream the result unit by unit").await;
    let (wire, note) = completed_wire(&p).await;
    assert!(wire.contains("\"append\": true"), "{wire}");
    assert!(
        note.starts_with(
            "Streamed unit by unit: this last chunk appends the final unit's chunk and the summary"
        ),
        "{note}"
    );
    // One unit: nothing went out before, so its one chunk has no append.
    p.set_range("#setting-work-units", 1).await;
    let (wire, note) = completed_wire(&p).await;
    assert!(!wire.contains("\"append\""), "{wire}");
    assert!(
        note.starts_with("Streamed unit by unit, but nothing of this artifact went out before"),
        "{note}"
    );
}

#[wasm_bindgen_test]
async fn a_panic_is_said_over_the_top_of_the_page() {
    let p = mount().await;
    a2a_control_room::ui::show_panic("index out of bounds at src/ui/trace.rs:1:1");
    let said = document()
        .query_selector("body > p.crashed")
        .unwrap()
        .unwrap();
    assert_eq!(said.get_attribute("role").as_deref(), Some("alert"));
    let text = said.text_content().unwrap();
    assert!(
        text.starts_with("The page stopped on an error it did not expect"),
        "{text}"
    );
    assert!(
        text.ends_with("The error: index out of bounds at src/ui/trace.rs:1:1"),
        "{text}"
    );
    said.remove();
    drop(p);
}
