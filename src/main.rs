//! Mounts the control room; everything else lives in the library.

fn main() {
    a2a_control_room::ui::report_panics();
    // The line index.html shows while the page loads.
    if let Some(loading) = leptos::prelude::document().get_element_by_id("loading") {
        loading.remove();
    }
    leptos::mount::mount_to_body(a2a_control_room::ui::App);
}
