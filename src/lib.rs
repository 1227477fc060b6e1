//! A2A Task Control Room.
pub mod model;
pub mod ui;
pub mod wire;
