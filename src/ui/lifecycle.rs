//! Lifecycle: the state diagram and the time bar.
//!
//! Both are drawn as SVG markup by plain functions ([`diagram_svg`] of the
//! experiment, [`timebar_svg`] of its time bar), so each drawing is one reactive value
//! (set as `innerHTML`) and is testable without a browser. Neither holds user
//! text, so nothing in the markup needs escaping.

use super::store::Store;
use crate::model::{
    Ahead, Experiment, PossibleMove, Span, TaskState, TimeBar, Transition, FORBIDDEN, TRANSITIONS,
};
use leptos::prelude::*;
use std::cmp::Ordering;
use std::fmt::Write;
use wasm_bindgen::JsCast;
use TaskState::{
    AuthRequired, Canceled, Completed, Failed, InputRequired, Paused, Rejected, Submitted, Working,
};

/// Diagram size (SVG user units): narrow enough that labels stay legible
/// in a third of a desktop and on a phone.
const DIAGRAM_W: i32 = 400;
const DIAGRAM_H: i32 = 340;
/// The height of a one-line node box, one more line of label, and the width
/// of one monospace character of a label.
const NODE_H: i32 = 30;
const LINE_H: i32 = 17;
const CHAR_W: i32 = 8;

/// Where each state sits, so that no two edges cross: SUBMITTED, WORKING
/// and FAILED across the middle, REJECTED and COMPLETED above them, the
/// interruptions under WORKING, CANCELED at the foot (the one state almost
/// every other leads to), and the proposal's PAUSED beside INPUT_REQUIRED,
/// the state it may never be next to.
const fn node_at(s: TaskState) -> (i32, i32) {
    match s {
        Rejected => (48, 36),
        Completed => (352, 36),
        Submitted => (48, 136),
        Working => (200, 136),
        Failed => (352, 136),
        AuthRequired => (150, 236),
        InputRequired => (250, 236),
        Paused => (356, 236),
        Canceled => (200, 312),
    }
}

/// The diagram's label of a state: its ProtoJSON name without `TASK_STATE_`.
pub(super) fn short_name(s: TaskState) -> &'static str {
    &s.name()["TASK_STATE_".len()..]
}

/// What the diagram says of the proposal's forbidden pair.
const NEVER_ADJACENT: &str =
    "never adjacent (proposal): a paused task that needs input resumes to WORKING first";

/// The label's lines: a two-word name (`INPUT_REQUIRED`) breaks after its
/// underscore, so that the boxes stay narrow.
fn label_lines(s: TaskState) -> (&'static str, Option<&'static str>) {
    let name = short_name(s);
    // PAUSED is not a v1.0 state: its box says so.
    if s.is_proposal() {
        return (name, Some("proposal"));
    }
    match name.find('_') {
        Some(i) => (&name[..=i], Some(&name[i + 1..])),
        None => (name, None),
    }
}

fn half_width(s: TaskState) -> i32 {
    let (first, second) = label_lines(s);
    let chars = first.len().max(second.map_or(0, str::len)) as i32;
    (chars * CHAR_W + 16) / 2
}

fn node_h(s: TaskState) -> i32 {
    NODE_H
        + if label_lines(s).1.is_some() {
            LINE_H
        } else {
            0
        }
}

/// How far an edge bows sideways (to the left of its direction of travel):
/// the two directions of a pair bow apart, and the two edges into CANCELED
/// from the sides bow out around the boxes between (SUBMITTED's under
/// AUTH_REQUIRED, PAUSED's under INPUT_REQUIRED).
fn bend(from: TaskState, to: TaskState) -> i32 {
    match (from, to) {
        (Submitted, Canceled) => -115,
        (Paused, Canceled) => 35,
        _ if Transition::between(to, from).is_some() => 10,
        _ => 0,
    }
}

/// The point where the ray from the centre of `s` towards `(tx, ty)` leaves its box.
fn exit_point(s: TaskState, tx: i32, ty: i32) -> (i32, i32) {
    let (x, y) = node_at(s);
    let (dx, dy) = ((tx - x) as f32, (ty - y) as f32);
    let (hw, hh) = (half_width(s) as f32 + 2.0, (node_h(s) / 2) as f32 + 2.0);
    let sx = if dx == 0.0 { f32::MAX } else { hw / dx.abs() };
    let sy = if dy == 0.0 { f32::MAX } else { hh / dy.abs() };
    let k = sx.min(sy).min(1.0);
    (x + (dx * k) as i32, y + (dy * k) as i32)
}

/// An edge's path: a quadratic curve bowed by [`bend`], clipped to both boxes.
fn edge_path(out: &mut String, from: TaskState, to: TaskState) {
    let ((x1, y1), (x2, y2)) = (node_at(from), node_at(to));
    let (mx, my) = ((x1 + x2) / 2, (y1 + y2) / 2);
    let (dx, dy) = ((x2 - x1) as f32, (y2 - y1) as f32);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let b = bend(from, to) as f32;
    // The control point, pushed to the left of the direction of travel.
    let (cx, cy) = (mx + (dy / len * b) as i32, my - (dx / len * b) as i32);
    let (sx, sy) = exit_point(from, cx, cy);
    let (ex, ey) = exit_point(to, cx, cy);
    let _ = write!(out, "M{sx} {sy}Q{cx} {cy} {ex} {ey}");
}

/// The state diagram of the viewed task as SVG markup: every v1.0 state and
/// transition (and the proposal's when it is on), the current state
/// highlighted, edges taken so far solid and marked, edges one action could
/// take now dashed in the accent colour, and INPUT_REQUIRED ↔ PAUSED crossed out.
pub fn diagram_svg(exp: &Experiment) -> String {
    draw_diagram(exp, &exp.possible_transitions())
}

/// What kind of state this is, in the words of the diagram's key.
fn family_words(s: TaskState) -> &'static str {
    match s.family() {
        "paused" => "proposal, not part of A2A v1.0",
        "terminal" => "terminal: final, nothing leaves it",
        "interrupted" => "interrupted: waits for input or authorization, then resumes",
        _ => "active",
    }
}

/// The states by kind, as a sentence: the diagram's key in words.
pub fn state_kinds(proposal: bool) -> String {
    let of = |family: &str| {
        TaskState::ALL
            .into_iter()
            .filter(|s| s.family() == family)
            .map(short_name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "Active: {}. Interrupted (waits for input or authorization, then resumes): {}. \
         Terminal (final, double border): {}.{}",
        of("active"),
        of("interrupted"),
        of("terminal"),
        if proposal {
            " PAUSED is the proposal's, not a v1.0 state."
        } else {
            ""
        }
    )
}

/// The transitions the diagram draws (the proposal's only with it on), each
/// with whether the viewed task took it and whether one action could take it
/// now: one reading for the drawing and for the diagram as text.
fn drawn_edges<'a>(
    exp: &Experiment,
    possible: &'a [(TaskState, TaskState)],
) -> impl Iterator<Item = (&'static Transition, bool, bool)> + 'a {
    let proposal = exp.config().pause_proposal;
    let taken = exp.taken_transitions();
    TRANSITIONS
        .iter()
        .filter(move |t| proposal || !t.proposal)
        .map(move |t| {
            let pair = (t.from, t.to);
            (t, taken.contains(&pair), possible.contains(&pair))
        })
}

/// [`diagram_svg`], given the transitions possible now.
fn draw_diagram(exp: &Experiment, possible: &[(TaskState, TaskState)]) -> String {
    let proposal = exp.config().pause_proposal;
    let current = exp.snapshot().state;
    let mut s = String::with_capacity(6 * 1024);
    let _ = write!(
        s,
        "<svg viewBox=\"0 0 {DIAGRAM_W} {DIAGRAM_H}\" role=\"img\" data-testid=\"diagram-svg\">\
         <title id=\"diagram-title\">State diagram: the task is {}</title>\
         <defs>",
        current
    );
    for (id, class) in [
        ("arrow", "a-plain"),
        ("arrow-taken", "a-taken"),
        ("arrow-possible", "a-possible"),
    ] {
        let _ = write!(
            s,
            "<marker id=\"{id}\" class=\"{class}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0 0L10 5L0 10z\"/></marker>"
        );
    }
    s.push_str("</defs>");
    for (e, is_taken, is_possible) in drawn_edges(exp, possible) {
        let arrow = match (is_possible, is_taken) {
            (true, _) => "arrow-possible",
            (false, true) => "arrow-taken",
            _ => "arrow",
        };
        let _ = write!(
            s,
            "<path class=\"edge{}{}{}{}\" data-edge=\"{}-{}\" marker-end=\"url(#{arrow})\" d=\"",
            if is_taken { " taken" } else { "" },
            if is_possible { " possible" } else { "" },
            if e.proposal { " proposal" } else { "" },
            if e.simulated { "" } else { " unsimulated" },
            short_name(e.from),
            short_name(e.to)
        );
        edge_path(&mut s, e.from, e.to);
        let _ = write!(
            s,
            "\"><title>{} → {}: {}{}{}</title></path>",
            e.from.name(),
            e.to.name(),
            e.label,
            if e.proposal { " (proposal)" } else { "" },
            if e.simulated {
                ""
            } else {
                " (allowed by v1.0, not simulated)"
            }
        );
    }
    if proposal {
        // A crossed-out line between the two boxes.
        let (a, b) = FORBIDDEN;
        let ((ax, ay), (bx, by)) = (node_at(a), node_at(b));
        let ((x1, y1), (x2, y2)) = (exit_point(a, bx, by), exit_point(b, ax, ay));
        let _ = write!(
            s,
            "<g class=\"forbidden\" data-edge=\"forbidden\"><title>{} ↔ {}: {NEVER_ADJACENT}</title>\
             <path d=\"M{x1} {y1}L{x2} {y2}\"/>\
             <path class=\"cross\" d=\"M{} {}l14 14m0 -14l-14 14\"/></g>",
            a.name(),
            b.name(),
            (x1 + x2) / 2 - 7,
            (y1 + y2) / 2 - 7
        );
    }
    for state in TaskState::ALL.into_iter().chain(proposal.then_some(Paused)) {
        let (x, y) = node_at(state);
        let (hw, h) = (half_width(state), node_h(state));
        let (first, second) = label_lines(state);
        let _ = write!(
            s,
            "<g class=\"node {}{}{}\" data-state=\"{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{h}\" rx=\"7\"/>\
             <text x=\"{x}\" y=\"{}\">{first}",
            state.family(),
            if state == current { " current" } else { "" },
            if state.is_proposal() { " proposal" } else { "" },
            state.name(),
            x - hw,
            y - h / 2,
            2 * hw,
            y + 5 - (h - NODE_H) / 2,
        );
        if let Some(second) = second {
            let _ = write!(s, "<tspan x=\"{x}\" dy=\"{LINE_H}\">{second}</tspan>");
        }
        s.push_str("</text>");
        // A terminal state's box is doubled, so that final reads without colour.
        if state.is_terminal() {
            let _ = write!(
                s,
                "<rect class=\"ring\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"5\"/>",
                x - hw + 3,
                y - h / 2 + 3,
                2 * hw - 6,
                h - 6
            );
        }
        let _ = write!(
            s,
            "<title>{} ({})</title></g>",
            state.name(),
            family_words(state)
        );
    }
    s.push_str("</svg>");
    s
}

/// The time bar's height in pixels; its width follows the panel.
const BAR_H: u32 = 46;

/// A position along the bar as a percentage with one decimal, e.g. `12.5%`
/// (percentages keep the labels unstretched at any width).
struct Pct(u32);

impl std::fmt::Display for Pct {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}%", self.0 / 10, self.0 % 10)
    }
}

/// The time bar of the viewed task as SVG markup: each unit's worked seconds
/// (in two alternating solid shades, lost work hatched), waiting as gaps, the planned
/// rest outlined with the units, gates and failure still ahead on it,
/// FAILED / CANCELED / COMPLETED / REJECTED marked, and a cursor
/// at the viewed state.
pub fn timebar_svg(bar: &TimeBar) -> String {
    // Per mille of the bar's width.
    let pm = |x: u32| (u64::from(x) * 1000 / u64::from(bar.width)) as u32;
    let mut s = String::with_capacity(2048);
    let mut on_label = false;
    let _ = write!(
        s,
        "<svg height=\"{BAR_H}\" aria-hidden=\"true\" data-testid=\"timebar-svg\">"
    );
    for seg in &bar.segments {
        let (x, w) = (pm(seg.x), pm(seg.x + seg.w) - pm(seg.x));
        let (class, label) = match seg.span {
            Span::Work { unit, lost } => (
                match (lost, unit % 2) {
                    (true, _) => "work lost",
                    (false, 1) => "work odd",
                    _ => "work even",
                },
                format!("{unit}"),
            ),
            Span::Wait { state, minutes } => (
                match state {
                    InputRequired => "wait input",
                    AuthRequired => "wait auth",
                    _ => "wait paused",
                },
                match (state, minutes) {
                    (InputRequired, _) => "input".to_string(),
                    (AuthRequired, _) => "auth".to_string(),
                    (_, 0) => "paused".to_string(),
                    (_, m) => crate::model::waiting_words(m * 60),
                },
            ),
            Span::Planned { abandoned: false } => ("planned", String::new()),
            Span::Planned { abandoned: true } => ("planned abandoned", String::new()),
        };
        // What was recorded after the viewed state is drawn faded: work the
        // cursor falls inside is split there; a wait gap (whose width is not
        // time) is faded whole when it starts after the cursor.
        let end = seg.x + seg.w;
        let split = match seg.span {
            Span::Work { .. } => bar.cursor.clamp(seg.x, end),
            Span::Wait { .. } if bar.side(seg) == Ordering::Greater => seg.x,
            _ => end,
        };
        for (from, to, ahead) in [(seg.x, split, ""), (split, end, " ahead")] {
            if to > from {
                let _ = write!(
                    s,
                    "<rect class=\"{class}{ahead}\" x=\"{}\" y=\"8\" width=\"{}\" height=\"24\"/>",
                    Pct(pm(from)),
                    Pct(pm(to) - pm(from))
                );
            }
        }
        // Labels where they fit: on the part up to the viewed state when it
        // has room, else on the whole segment, drawn as "after the viewed
        // state" when it starts there. One that fits a phone-sized (320 px)
        // bar always shows; one that needs a wider (560 px) bar is `wide`,
        // and the style sheet shows it only on a bar that wide.
        let fits =
            |w: u32, px: usize| !label.is_empty() && w as usize * px / 1000 >= label.len() * 7 + 4;
        let done = pm(split) - pm(seg.x);
        let place = |px| {
            if split > seg.x && fits(done, px) {
                Some((x + done / 2, false))
            } else if fits(w, px) {
                Some((x + w / 2, split < end))
            } else {
                None
            }
        };
        let (at, wide) = match place(320) {
            Some(at) => (Some(at), false),
            None => (place(560), true),
        };
        // A waiting state sits inside its gap, on the gap's label: the
        // cursor leaves room for it there.
        on_label |= at.is_some()
            && matches!(seg.span, Span::Wait { .. })
            && bar.side(seg) == Ordering::Equal;
        if let Some((mid, ahead)) = at {
            let class = match (ahead, wide) {
                (false, false) => "",
                (true, false) => " class=\"ahead\"",
                (false, true) => " class=\"wide\"",
                (true, true) => " class=\"ahead wide\"",
            };
            let _ = write!(s, "<text x=\"{}\" y=\"25\"{class}>{label}</text>", Pct(mid));
        }
    }
    draw_plan(&mut s, bar, &pm);
    let c = Pct(pm(bar.cursor).clamp(2, 998));
    // Broken from y 14 to 29 over a label: the label's band (text at y 25).
    let gap = if on_label {
        " stroke-dasharray=\"14 15 40\""
    } else {
        ""
    };
    let _ = write!(
        s,
        "<line class=\"cursor\" data-x=\"{}\" x1=\"{c}\" x2=\"{c}\" y1=\"0\" y2=\"40\"{gap}/>\
         <circle class=\"cursor\" cx=\"{c}\" cy=\"41\" r=\"4\"/>",
        bar.cursor
    );
    // Terminal marks over the cursor, so one at the latest state stays visible.
    for mark in &bar.marks {
        let x = Pct(pm(mark.x).clamp(3, 997));
        let class = format!(
            "{}{}",
            short_name(mark.state).to_ascii_lowercase(),
            if mark.x > bar.cursor { " ahead" } else { "" }
        );
        let _ = write!(
            s,
            "<line class=\"mark {class}\" x1=\"{x}\" x2=\"{x}\" y1=\"2\" y2=\"38\"><title>{}</title></line>",
            mark.state.name()
        );
        // How the task ended, written on the plan it left undone where the
        // bar has room for it (`wide`: only on a bar of 560 px or more).
        let name = short_name(mark.state);
        let fits = |px: usize| (1000 - pm(mark.x)) as usize * px / 1000 >= name.len() * 7 + 10;
        let wide = match (fits(320), fits(560)) {
            (true, _) => "",
            (false, true) => " wide",
            (false, false) => continue,
        };
        let _ = write!(
            s,
            "<text class=\"end {class}{wide}\" x=\"{}\" y=\"25\">{name}</text>",
            Pct(pm(mark.x) + 12)
        );
    }
    s.push_str("</svg>");
    s
}

/// The plan ahead on its outline: a tick where each unit starts, with its
/// number, and a line for each gate, self-park or failure still to come,
/// named where it has room (a 320 px bar) and in its title.
fn draw_plan(s: &mut String, bar: &TimeBar, pm: &dyn Fn(u32) -> u32) {
    let end = bar.segments.last().map_or(bar.width, |g| g.x + g.w);
    // Where the plan's work stops, before any never reached.
    let work_end = bar
        .segments
        .iter()
        .rev()
        .find(|g| g.span != Span::Planned { abandoned: true })
        .map_or(bar.width, |g| g.x + g.w);
    let starts: Vec<(u32, u8)> = bar
        .ahead
        .iter()
        .filter_map(|m| match m.what {
            Ahead::Unit(u) => Some((m.x, u)),
            _ => None,
        })
        .collect();
    // As a segment's label: "" when it fits a phone's bar, " wide" when it
    // needs a bar of 560 px (the style sheet shows it there only).
    let room = |from: u32, to: u32, chars: usize| {
        let w = (pm(to) - pm(from)) as usize;
        let fits = |px: usize| w * px / 1000 >= chars * 7 + 4;
        if fits(320) {
            Some("")
        } else if fits(560) {
            Some(" wide")
        } else {
            None
        }
    };
    for (i, &(x, u)) in starts.iter().enumerate() {
        let next = starts.get(i + 1).map_or(work_end, |n| n.0);
        let _ = write!(
            s,
            "<line class=\"plan unit\" x1=\"{0}\" x2=\"{0}\" y1=\"12\" y2=\"28\"/>",
            Pct(pm(x))
        );
        if let Some(wide) = room(x, next, 2) {
            let _ = write!(
                s,
                "<text class=\"plan{wide}\" x=\"{}\" y=\"29\">{u}</text>",
                Pct((pm(x) + pm(next)) / 2)
            );
        }
    }
    // The gates, pauses and failure, one line for each place: two at the
    // same place share it, and their names.
    let events: Vec<(u32, Ahead)> = bar
        .ahead
        .iter()
        .filter(|m| !matches!(m.what, Ahead::Unit(_)))
        .map(|m| (m.x, m.what))
        .collect();
    for group in events.chunk_by(|a, b| a.0 == b.0) {
        let at = group[0].0;
        let words: Vec<(&str, &str, &str)> =
            group.iter().filter_map(|g| ahead_words(g.1)).collect();
        let Some(&(class, _, _)) = words.first() else {
            continue;
        };
        let label = words.iter().map(|w| w.1).collect::<Vec<_>>().join("+");
        let title = words.iter().map(|w| w.2).collect::<Vec<_>>().join("; ");
        let x = Pct(pm(at).clamp(1, 999));
        let _ = write!(
            s,
            "<line class=\"plan {class}\" x1=\"{x}\" x2=\"{x}\" y1=\"4\" y2=\"36\"><title>{title}</title></line>"
        );
        // Named up to the next place, if the name fits before it.
        let next = events.iter().find(|e| e.0 > at).map_or(end, |e| e.0);
        if let Some(wide) = room(at, next, label.len()) {
            let _ = write!(
                s,
                "<text class=\"plan gate {class}{wide}\" x=\"{x}\" dx=\"3\" y=\"19\">{label}</text>"
            );
        }
    }
}

/// What a point of the plan ahead is called on the time bar: its class,
/// its short label, and its title (`None` for a unit's start).
fn ahead_words(a: Ahead) -> Option<(&'static str, &'static str, &'static str)> {
    Some(match a {
        Ahead::Unit(_) => return None,
        Ahead::Input => (
            "input",
            "input",
            "the input gate: the task will ask for input",
        ),
        Ahead::Auth => (
            "auth",
            "auth",
            "the authorization gate: the task will ask for authorization",
        ),
        Ahead::SelfPark => ("park", "park", "the agent's self-park (proposal)"),
        Ahead::Pause => ("park", "pause", "the pause the client asked for (proposal)"),
        Ahead::Failure => ("fail", "fail", "the configured failure: the task will fail"),
        Ahead::Rejection => (
            "fail",
            "reject",
            "the configured rejection: the agent will reject the task before any work",
        ),
    })
}

/// A sentence for screen readers and for the panel's caption: where the
/// cursor is and what the bar holds.
pub fn timebar_summary(exp: &Experiment, bar: &TimeBar) -> String {
    // Each wait is before the viewed state, after it, or the one it is in;
    // what it waits for is said, as the bar's labels and outlines show it.
    let (mut before, mut after, mut within) = (Vec::new(), Vec::new(), None);
    for seg in &bar.segments {
        if let Span::Wait { state, .. } = seg.span {
            let kind = match state {
                TaskState::InputRequired => "input",
                TaskState::AuthRequired => "authorization",
                _ => "paused, proposal",
            };
            match bar.side(seg) {
                Ordering::Less => before.push(kind),
                Ordering::Greater => after.push(kind),
                Ordering::Equal => within = Some(kind),
            }
        }
    }
    let waits = |kinds: &[&str], when: &str| match kinds.len() {
        1 => format!("1 wait {when} ({})", kinds[0]),
        n => format!("{n} waits {when} ({})", kinds.join("; ")),
    };
    let gaps = if before.len() + after.len() + usize::from(within.is_some()) == 1 {
        "drawn as a gap"
    } else {
        "drawn as gaps"
    };
    let mut parts = Vec::new();
    if !before.is_empty() {
        parts.push(waits(&before, "before it"));
    }
    if let Some(kind) = within {
        parts.push(format!("the wait it is in ({kind})"));
    }
    if !after.is_empty() {
        parts.push(if parts.is_empty() {
            waits(&after, "after it")
        } else {
            format!("{} after it ({})", after.len(), after.join("; "))
        });
    }
    let waits = match parts.as_slice() {
        [] => "no wait".to_string(),
        [one] => format!("{one}, {gaps}"),
        [first, second] => format!("{first} and {second}, {gaps}"),
        [first, rest @ ..] => format!("{first}, {} and {}, {gaps}", rest[0], rest[1]),
    };
    // The newest work: a failure or a cancel leaves it uncounted when it was
    // on the unit in flight (a timeout fails a task with no work on it).
    let newest_work = bar.segments.iter().rev().find_map(|s| match s.span {
        Span::Work { unit, lost } => Some((unit, lost)),
        _ => None,
    });
    let ended = match (bar.marks.first(), exp.viewed_task().records().last()) {
        (Some(mark), Some(last)) => {
            let units = last.snap.completed_units;
            let lost = match (newest_work, last.snap.state) {
                (Some((unit, true)), TaskState::Failed | TaskState::Canceled)
                    if unit == units + 1 =>
                {
                    format!(" (the work on unit {unit} not counted)")
                }
                _ => String::new(),
            };
            format!(
                " The task ends {} with {units} of {} units done{lost}.",
                mark.state,
                exp.config().work_units
            )
        }
        _ => String::new(),
    };
    let ahead: Vec<&str> = bar
        .ahead
        .iter()
        .filter_map(|m| ahead_words(m.what))
        .map(|w| w.2.split(':').next().unwrap_or(w.2))
        .collect();
    let ahead = if ahead.is_empty() {
        String::new()
    } else {
        format!(" Still ahead on the plan: {}.", ahead.join(", then "))
    };
    format!(
        "Time bar: state {} of {} at {} s active; {waits}.{ended}{ahead} Move with the Recorded state slider, or click the bar to go to that moment.",
        exp.position() + 1,
        exp.viewed_task().records().len(),
        exp.snapshot().active_s,
    )
}

/// The diagram as text, one line per transition it draws: its states, its
/// cause, and whether the viewed task took it, one action could take it now,
/// or this simulator never takes it; with the proposal on, its transitions
/// and the pair that is never adjacent.
pub fn diagram_lines(exp: &Experiment, possible: &[(TaskState, TaskState)]) -> Vec<String> {
    let proposal = exp.config().pause_proposal;
    let mut lines: Vec<String> = drawn_edges(exp, possible)
        .map(|(t, taken, possible)| {
            let mut what = Vec::new();
            if taken {
                what.push("taken");
            }
            if possible {
                what.push("possible now");
            }
            if !t.simulated {
                what.push("allowed by v1.0, not simulated");
            }
            if t.proposal {
                what.push("proposal");
            }
            let what = if what.is_empty() {
                String::new()
            } else {
                format!(": {}", what.join(", "))
            };
            format!(
                "{} → {} ({}){what}",
                short_name(t.from),
                short_name(t.to),
                t.label
            )
        })
        .collect();
    if proposal {
        let (a, b) = FORBIDDEN;
        lines.push(format!(
            "{} ↔ {}: {NEVER_ADJACENT}",
            short_name(a),
            short_name(b)
        ));
    }
    lines
}

/// The transitions one action could take now, as a sentence.
pub fn possible_summary(exp: &Experiment) -> String {
    summarize_possible(exp, &exp.possible_moves())
}

/// [`possible_summary`], given the moves possible now.
fn summarize_possible(exp: &Experiment, possible: &[PossibleMove]) -> String {
    if exp.is_read_only() {
        return "Viewing an earlier task: read-only.".into();
    }
    if possible.is_empty() {
        let state = exp.snapshot().state;
        return if state.is_terminal() {
            format!("Nothing can leave {state}: it is terminal.")
        } else {
            format!("No single action leaves {state} now; Steps carry on the work.")
        };
    }
    let mut s = String::from("Possible with one action (a Step or a button) now: ");
    for (i, m) in possible.iter().enumerate() {
        if i > 0 {
            s.push_str("; ");
        }
        let (from, to) = m.edge;
        let proposal = Transition::between(from, to).is_some_and(|e| e.proposal);
        let proposal = if proposal { "; proposal" } else { "" };
        let causes = match m.causes.as_slice() {
            [.., last] if m.causes.len() > 1 => {
                format!("{} or {last}", m.causes[..m.causes.len() - 1].join(", "))
            }
            _ => m.causes.concat(),
        };
        let _ = write!(
            s,
            "{} → {} ({causes}{proposal})",
            short_name(from),
            short_name(to)
        );
    }
    s.push('.');
    s
}

#[component]
pub fn DiagramPanel() -> impl IntoView {
    let store = expect_context::<Store>();
    // "Possible now" is worked out once per change, for the drawing and the
    // sentence; most Steps change neither, and the memo keeps the DOM as it is.
    let drawn = Memo::new(move |_| {
        store.exp.with(|e| {
            let moves = e.possible_moves();
            let possible: Vec<_> = moves.iter().map(|m| m.edge).collect();
            (
                draw_diagram(e, &possible),
                summarize_possible(e, &moves),
                diagram_lines(e, &possible),
            )
        })
    });
    // The legend and the states by kind change with the proposal switch only.
    let proposal = Memo::new(move |_| store.config.with(|c| c.pause_proposal));
    view! {
        <section class="panel lifecycle" aria-labelledby="diagram-h">
            <h2 id="diagram-h">"Lifecycle"</h2>
            <div class="diagram" data-testid="diagram" inner_html=move || drawn.with(|d| d.0.clone())></div>
            <p class="legend" aria-hidden="true">
                <span class="state-key active">"active"</span>
                <span class="state-key interrupted">"interrupted"</span>
                <span class="state-key terminal">"terminal"</span>
                <span class="key current">"current"</span>
                <span class="key plain">"transition"</span>
                <span class="key taken">"taken"</span>
                <span class="key possible">"possible now"</span>
                <span class="key unsimulated">"allowed by v1.0, not simulated"</span>
                {move || proposal.get().then(|| view! {
                    <span class="key proposal">"proposal"</span>
                    <span class="key forbidden">"✕ never adjacent (proposal)"</span>
                })}
            </p>
            <p class="readout" data-testid="possible-now">{move || drawn.with(|d| d.1.clone())}</p>
            <p class="hint" data-testid="diagram-rules">
                "A2A v1.0 publishes no transition table: these edges follow its rules (a terminal "
                "state is final, a cancel may be requested of any task not yet terminal, which the agent may refuse, an interrupted task "
                "resumes when answered). Nothing may leave a terminal state. The grey dotted edge is "
                "one v1.0 names that this simulator never takes; two states joined by no edge are "
                "never joined here, which is not to say A2A forbids it."
            </p>
            <details class="as-text">
                <summary>"The diagram as text"</summary>
                <p data-testid="state-kinds">
                    {move || state_kinds(proposal.get())}
                </p>
                <ul data-testid="diagram-text">
                    {move || drawn.with(|d| d.2.iter().map(|l| view! { <li>{l.clone()}</li> }).collect_view())}
                </ul>
            </details>
        </section>
    }
}

/// The time bar under the recorded-states slider; clicking it seeks.
#[component]
pub fn TimeBarView() -> impl IntoView {
    let store = expect_context::<Store>();
    let bar = Memo::new(move |_| store.exp.with(TimeBar::of));
    let seek = move |ev: web_sys::MouseEvent| {
        let Some(el) = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        let rect = el.get_bounding_client_rect();
        if rect.width() <= 0.0 {
            return;
        }
        let frac = ((f64::from(ev.client_x()) - rect.left()) / rect.width()).clamp(0.0, 1.0);
        let target =
            bar.with_untracked(|b| b.record_near((frac * f64::from(b.width) * 1000.0) as u64));
        store.seek(target);
    };
    view! {
        <div
            class="timebar"
            data-testid="timebar"
            role="img"
            aria-label=move || bar.with(|b| store.exp.with(|e| timebar_summary(e, b)))
            inner_html=move || bar.with(timebar_svg)
            on:click=seek
        ></div>
        <p class="legend bar-legend" aria-hidden="true">
            <span class="key worked">"units worked"</span>
            // Told apart by their outline where a phone's bar has no room
            // for their labels.
            <span class="key wait">"input wait (width not to scale)"</span>
            <span class="key wait auth">"authorization wait"</span>
            <span class="key planned">"planned"</span>
            // After a failure, or a failure to come: work the task never does.
            <span class="key planned abandoned">"never reached"</span>
            {move || {
                store
                    .config
                    .with(|c| c.pause_proposal)
                    .then(|| view! { <span class="key paused">"paused (proposal)"</span> })
            }}
            // Work that counts for no unit: a failed or canceled unit's, or
            // lost to an immediate pause (proposal).
            <span class="key lost">"work not counted"</span>
            <span class="key cursor">"viewed state"</span>
            <span class="key ahead">"after the viewed state"</span>
            // In the colour of this task's end mark, once it has one (the
            // same words, so the legend does not reflow as the task ends).
            <span class=move || {
                let ended = bar.with(|b| b.marks.last().map(|m| m.state));
                format!("key end {}", ended.map_or("", |s| short_name(s)).to_ascii_lowercase())
            }>"task ended"</span>
        </p>
    }
}
