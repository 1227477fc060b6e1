//! The Leptos control room over the model. Panels read one [`Store`]; they
//! change the experiment only through its methods (plain view state, such as
//! a text field's value, they set directly); every rule lives in the model.

mod actions;
mod app;
mod configure;
mod guide;
mod inspect;
mod lifecycle;
mod persist;
mod playback;
mod store;
mod tasks;
mod timeline;
mod trace;
mod wire;

pub use app::ControlRoom;
pub use guide::{guided_step, Guided, GuidedStep};
pub use lifecycle::{
    diagram_lines, diagram_svg, possible_summary, state_kinds, timebar_summary, timebar_svg,
};
pub use persist::{notice_with, SAVE_REFUSED_NOTICE};
pub use store::{play_interval_ms, Store};

use crate::model::MAX_PORTABLE_SEED;
use leptos::prelude::*;

/// `aria-disabled` for a ‹ or › at its end: the button stays focusable, so
/// pressing it again there says why nothing moves, where a disabled one
/// would have to hand focus to a control that does something else.
fn at_its_end(end: bool) -> Option<&'static str> {
    end.then_some("true")
}

/// A random seed for the id source, drawn from the platform's generator (in
/// the browser: `crypto.getRandomValues` through getrandom), within
/// [`MAX_PORTABLE_SEED`] so that a run file keeps its ids through any JSON
/// tool. Its 53 bits are random: a v4 UUID's fixed version and variant bits
/// lie outside the low 53 bits of its second half.
pub fn random_seed() -> u64 {
    uuid::Uuid::new_v4().as_u64_pair().1 & MAX_PORTABLE_SEED
}

/// From now on a panic, a bug that no input should reach, is said on the
/// page, over its top, rather than leaving controls that no longer answer
/// (and in the browser's console).
pub fn report_panics() {
    std::panic::set_hook(Box::new(|info| show_panic(&info.to_string())));
}

/// Says on the page, over its top, that it stopped on `what`.
pub fn show_panic(what: &str) {
    leptos::logging::error!("{what}");
    let doc = document();
    // Said once: what runs after a first panic may panic again.
    if doc.query_selector(".crashed").ok().flatten().is_some() {
        return;
    }
    let Ok(said) = doc.create_element("p") else {
        return;
    };
    said.set_class_name("crashed");
    let _ = said.set_attribute("role", "alert");
    said.set_text_content(Some(&format!(
        "The page stopped on an error it did not expect, and its controls no longer answer. \
         Reload the page to go on. The error: {what}"
    )));
    if let Some(body) = doc.body() {
        let _ = body.prepend_with_node_1(&said);
    }
}

/// The page, over a fresh experiment with randomly seeded ids.
#[component]
pub fn App() -> impl IntoView {
    view! { <ControlRoom seed=random_seed() persist=true/> }
}
