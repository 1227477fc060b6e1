//! A minimal Leptos counter: the yardstick the control room's page size is compared with.
use leptos::prelude::*;

fn main() {
    mount_to_body(|| {
        let count = RwSignal::new(0);
        view! {
            <button on:click=move |_| count.update(|n| *n += 1)>"Count: " {count}</button>
        }
    });
}
