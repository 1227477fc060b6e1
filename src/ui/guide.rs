//! "Your experiment": the four experiments the page teaches, and a fifth on
//! the proposed pause lifecycle, one click each to set up.

use super::store::Store;
use crate::model::{Config, EventName, OnTimeout, Setting};
use leptos::prelude::*;

/// Starts a fresh experiment with `config` (one of the page's experiments,
/// `what`), then on to Play: in view and focused, so that Space plays. The
/// notice names what the experiment changed (the settings are far below,
/// out of view) and what Play will show (`next`), in few enough words that
/// on a wide screen it lies over the panels' top edge, not their headings
/// (up to 1100 px wide a notice comes up from the foot of the screen).
fn set_up(store: Store, config: Result<Config, String>, what: &str, next: &str) {
    let config = match config {
        Ok(config) => config,
        Err(why) => return store.raise(format!("{what}: {why}.")),
    };
    let changes = config.changes_from(&Config::default());
    let changes = if changes.is_empty() {
        "the default settings".to_string()
    } else {
        changes.join(", ")
    };
    store.set_up(config, format!("{what} set up ({changes}). {next}"));
    // Once the page shows the new run: Play may be off until then (a
    // task that waited or ended), and a button that is off takes no focus.
    request_animation_frame(|| super::playback::go_to("play"));
}

/// The unit [`set_up_input_gate`] puts the input gate before.
pub fn input_gate_unit(config: &Config) -> u8 {
    config.work_units.min(2)
}

/// Experiment 1's gate, asked for beside Play: the settings in use (which
/// the user may have changed) with an input gate before unit 2, or unit 1
/// of a one-unit task.
pub fn set_up_input_gate(store: Store) {
    let config = store.config.get_untracked();
    let unit = input_gate_unit(&config);
    set_up(
        store,
        config
            .with(Setting::InputGate, i64::from(unit))
            .map_err(|e| e.to_string()),
        "Input gate",
        &format!("Press Play: the task stops at TASK_STATE_INPUT_REQUIRED before unit {unit}."),
    );
}

#[component]
pub fn GuidePanel() -> impl IntoView {
    let store = expect_context::<Store>();
    // One click handler per set-up: `config` builds the experiment's settings.
    let experiment =
        move |config: fn() -> Result<Config, String>, what: &'static str, next: &'static str| {
            move |_| set_up(store, config(), what, next)
        };
    // The default settings with `setting` at unit 2.
    fn at_unit_2(setting: Setting) -> Result<Config, String> {
        Config::default()
            .with(setting, 2)
            .map_err(|e| e.to_string())
    }
    let resume = experiment(
        || at_unit_2(Setting::InputGate),
        "Experiment 1",
        "Press Play: the task stops at TASK_STATE_INPUT_REQUIRED before unit 2.",
    );
    let follow_up = experiment(
        || Ok(Config::default()),
        "Experiment 2",
        "Press Play: the task runs to TASK_STATE_COMPLETED; then New follow-up task.",
    );
    let cancel = experiment(
        || {
            Ok(Config {
                worker_accepts_cancellation: false,
                ..Config::default()
            })
        },
        "Experiment 3",
        "Press Play, then Request cancellation: the worker refuses it (TaskNotCancelableError, -32002).",
    );
    // Experiment 4: the other ways a task stops, one set-up each.
    let authorization = experiment(
        || at_unit_2(Setting::AuthGate),
        "Experiment 4: authorization",
        "Press Play: the task stops at TASK_STATE_AUTH_REQUIRED before unit 2; then Authorize.",
    );
    let failure = experiment(
        || at_unit_2(Setting::FailDuring),
        "Experiment 4: failure",
        "Press Play: the task fails during unit 2, in TASK_STATE_FAILED.",
    );
    let rejection = experiment(
        || {
            Ok(Config {
                reject_before_execution: true,
                ..Config::default()
            })
        },
        "Experiment 4: rejection",
        "Press Play: the agent rejects the task before any work, in TASK_STATE_REJECTED.",
    );
    let pause = experiment(
        || {
            let event = EventName::new("pr.merged").map_err(|e| e.to_string())?;
            Ok(Config {
                pause_proposal: true,
                self_park_before: 3,
                resume_event: event,
                self_park_timeout: 5,
                on_timeout: OnTimeout::ResumeWithSummary,
                ..Config::default()
            })
        },
        "Experiment 5",
        "Press Play: the agent pauses itself before unit 3 (proposal).",
    );
    view! {
        <section class="panel guide" aria-labelledby="guide-h">
            <h2 id="guide-h">"Your experiment"</h2>
            <details class="hint primer" data-testid="primer">
                <summary>"New to A2A tasks? The lifecycle in five lines"</summary>
                <ul>
                    <li>"A client sends an agent a message; an agent that works on it for a while answers \
                         with a task, which has a task id. A context id groups the tasks of one conversation."</li>
                    <li>"A task starts SUBMITTED, works (WORKING), and ends in one of four terminal states: \
                         COMPLETED, FAILED, CANCELED or REJECTED. A terminal state is final."</li>
                    <li>"Midway it may wait: INPUT_REQUIRED (a question, which the client answers with a \
                         message) or AUTH_REQUIRED (credentials, which arrive out of band). Interrupted, \
                         not ended: the answer or the authorization resumes the same task."</li>
                    <li>"After a terminal state, more work is a follow-up: a new task in the same context \
                         that references the old one. Cancellation is a request the agent may refuse."</li>
                    <li>"On the wire, in the JSON-RPC binding shown here (v1.0 also defines gRPC and \
                         HTTP+JSON): JSON-RPC 2.0 requests; a streaming request's answers come as \
                         server-sent events. The Wire panel shows each one."</li>
                </ul>
            </details>
            <ol>
                <li>
                    <strong>"Resume an interruption. "</strong>
                    "The task will ask for clarification before unit 2 (Require input before "
                    "unit: 2). Press Play. "
                    "When the task stops at "
                    <code>"TASK_STATE_INPUT_REQUIRED"</code>
                    ", note its task id, context id and one completed unit (Inspect shows them); supply clarification "
                    "and play on: all three stay the same and no unit is redone. "
                    "This illustrates identity and continuation within the model's run; it is not "
                    "durable recovery after a browser closure or a network disconnection (the run "
                    "this browser keeps is the page's own record, replayed). "
                    <button class="link" on:click=resume>"Set up experiment 1"</button>
                </li>
                <li>
                    <strong>"Follow up a terminal task. "</strong>
                    "Run a task to "
                    <code>"TASK_STATE_COMPLETED"</code>
                    ", then choose New follow-up task: the context is kept and a new task id is "
                    "allocated. The finished task is terminal for good: view it (Task 1 under Tasks "
                    "in this context) and press Message to terminal task in the Wire panel to see "
                    "the agent refuse it. "
                    <button class="link" on:click=follow_up>"Set up experiment 2"</button>
                </li>
                <li>
                    <strong>"Ask to cancel. "</strong>
                    "Cancellation is a request the agent may refuse: this worker does not accept "
                    "it (Worker accepts cancellation: off). Press Play, then Request cancellation "
                    "(in Act): the agent answers "
                    <code>"TaskNotCancelableError"</code>
                    " (-32002), playback pauses at the refusal, the Wire panel shows the error, "
                    "and Play, pressed again, goes on to "
                    <code>"TASK_STATE_COMPLETED"</code>
                    ". Then switch Worker accepts cancellation on (under Configure) and try again: "
                    "CANCELED, and the units done leave no artifact unless the result is "
                    "streamed unit by unit. "
                    <button class="link" on:click=cancel>"Set up experiment 3"</button>
                </li>
                <li>
                    <strong>"The other ways a task stops. "</strong>
                    <code>"TASK_STATE_AUTH_REQUIRED"</code>
                    " waits for credentials, which reach the agent out of band: Authorize (in Act) "
                    "stands for them, and the same task goes on, its stream open all along. A task "
                    "that fails ends in "
                    <code>"TASK_STATE_FAILED"</code>
                    "; one the agent turns down before any work, in "
                    <code>"TASK_STATE_REJECTED"</code>
                    ". Watch the Lifecycle diagram and the Wire panel for each. Set up "
                    <button class="link" on:click=authorization>"experiment 4: authorization"</button>
                    ", "
                    <button class="link" on:click=failure>"experiment 4: failure"</button>
                    " or "
                    <button class="link" on:click=rejection>"experiment 4: rejection"</button>
                    "."
                </li>
                <li>
                    <strong>"Pause and resume — a proposal, not part of A2A v1.0. "</strong>
                    "The agent pauses itself (a self-park, the proposal's AwaitTaskResumption) "
                    "before unit 3 in "
                    <code>"TASK_STATE_PAUSED"</code>
                    " until the event "
                    <code>"pr.merged"</code>
                    " or five minutes on the waiting clock. Press Play. While it is paused, open "
                    "Compare, at the foot of the Wire panel, to see the same pause as a v1.0 "
                    "extension could carry it: WORKING plus metadata. Then press Fire event, or "
                    "Resume task (both in Act's Pause and resume box; Resume task sends the resume "
                    "token Inspect shows). "
                    <button class="link" on:click=pause>"Set up experiment 5"</button>
                </li>
            </ol>
        </section>
    }
}
