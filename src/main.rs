//! Mounts the control room; everything else lives in the library.

fn main() {
    leptos::mount::mount_to_body(a2a_control_room::ui::App);
}
