//! Lines of sight on the map, drawn the same way for a charge and for a shot: solid when the
//! line is clear, dashed when something blocks it, coloured by what the rules say of the
//! target.

use crate::sim::components::{FigureId, Position};
use crate::ui::MapLayout;
use crate::ui::bridge::Mirror;
use bevy::prelude::*;

/// Colour of a clear line of sight to a target the rules allow.
pub const LOS_CLEAR: Color = Color::srgb(0.35, 0.95, 0.45);
/// Colour of a clear line of sight to a target the rules refuse (too far, …).
pub const LOS_REFUSED: Color = Color::srgb(0.95, 0.8, 0.3);
/// Colour of a blocked line of sight.
pub const LOS_BLOCKED: Color = Color::srgba(0.95, 0.3, 0.25, 0.8);

/// One line from `from` to `to` (world coordinates, `cell` the cell size): solid when
/// `clear`, else dashed, so a blocked line reads as blocked even without colour.
pub fn sight_line(
    gizmos: &mut Gizmos,
    cell: f32,
    from: Vec2,
    to: Vec2,
    colour: Color,
    clear: bool,
) {
    if clear {
        gizmos.line_2d(from, to, colour);
        return;
    }
    let n = ((to - from).length() / (cell * 0.25)).ceil().max(1.0) as usize;
    for k in (0..n).step_by(2) {
        let a = from.lerp(to, k as f32 / n as f32);
        let b = from.lerp(to, ((k + 1) as f32 / n as f32).min(1.0));
        gizmos.line_2d(a, b, colour);
    }
}

/// One target's line as an overlay judges it.
pub struct Sighted<'a> {
    /// The target's id.
    pub id: &'a str,
    /// A clear line of sight to it.
    pub in_sight: bool,
    /// The rules allow the charge or shot at it.
    pub allowed: bool,
}

/// Draws a ring on the figure `from` and its line of sight to each target (green clear and
/// allowed, yellow clear but refused, red dashed blocked); returns where each target drawn
/// stands, for the caller's own marks.
pub fn draw_sight_lines<'a>(
    gizmos: &mut Gizmos,
    layout: &MapLayout,
    mirrors: &Query<(&FigureId, &Position), With<Mirror>>,
    from: &str,
    targets: impl Iterator<Item = Sighted<'a>>,
) -> Vec<(&'a str, Vec2)> {
    let at = |id: &str| {
        mirrors
            .iter()
            .find(|(f, _)| f.0 == id)
            .map(|(_, p)| layout.cell_to_world(p.0))
    };
    let Some(origin) = at(from) else {
        return Vec::new();
    };
    // The figure whose lines these are.
    gizmos.circle_2d(
        Isometry2d::from_translation(origin),
        layout.cell * 0.5,
        Color::srgb(1.0, 0.85, 0.2),
    );
    let mut drawn = Vec::new();
    for t in targets {
        let Some(to) = at(t.id) else { continue };
        let colour = match (t.in_sight, t.allowed) {
            (false, _) => LOS_BLOCKED,
            (true, true) => LOS_CLEAR,
            (true, false) => LOS_REFUSED,
        };
        sight_line(gizmos, layout.cell, origin, to, colour, t.in_sight);
        drawn.push((t.id, to));
    }
    drawn
}
