//! *Rush*: every figure at the nearest enemy, at its fastest gait, declaring a charge whenever
//! the rules let it. The plan of a player who trusts weight and speed; issue 31 found it beat
//! the strongest level on 8 of 13 levels, so the gauntlet keeps it as the first test.

use super::{Aim, nearest_of};
use crate::ai::plan::enemy_cells;
use crate::rules::gait::Gait;
use crate::sim::view::{FigView, View};

/// Towards every enemy (the field leads to the nearest one) at a gallop — the nearest gait
/// the rules allow is taken; with no enemy left, stand.
pub fn aim(view: &View, f: &FigView) -> Aim {
    let goal = enemy_cells(view, f.side);
    if goal.is_empty() {
        return Aim::stand();
    }
    Aim {
        goal,
        gait: Gait::Gallop,
        stand: false,
    }
}

/// The nearest enemy the rules let it charge, always.
pub fn charge(view: &View, me: &FigView, ok: &[&FigView]) -> Option<String> {
    nearest_of(view, me, ok)
}
