//! *Hold*: stand on or around the side's objective area and let the enemy come. The plan of a
//! player who reads the victory conditions and sits on them; issue 31 found that a side that
//! never moves beat the strongest level 51 to 9 on Hold the Bridge.
//!
//! The area is its side's Hold areas, else its Reach areas. A figure in the area stays,
//! facing the nearest enemy; one outside walks (trots while far) to a free cell of it, or,
//! with every cell taken by friends, to beside it. Slow gaits near the area keep a horse
//! from being carried off it by a forced move at speed (C8). With no area, every figure
//! holds its ground facing the nearest enemy. It charges only enemies that come near the
//! area (or near the figure, with no area).

use super::{Aim, nearest_of};
use crate::rules::gait::Gait;
use crate::rules::grid::Cell;
use crate::rules::victory::{Goal, Objective};
use crate::sim::view::{FigView, View};

/// How near the area (or the figure) an enemy must come to be charged.
const CHARGE_REACH: i32 = 2;

/// Beyond this distance from its area a figure trots; within it, it walks.
const WALK_WITHIN: i32 = 6;

/// The cells of `side`'s objective area: its Hold areas, else its Reach areas.
pub fn area_of(objectives: &[Objective], side: u8) -> Vec<Cell> {
    let cells = |pick: fn(&Goal) -> Option<&Vec<(i32, i32)>>| -> Vec<Cell> {
        let mut v: Vec<Cell> = objectives
            .iter()
            .filter(|o| o.side == side)
            .filter_map(|o| pick(&o.goal))
            .flatten()
            .map(|&(x, y)| Cell::new(x, y))
            .collect();
        v.sort();
        v.dedup();
        v
    };
    let hold = cells(|g| match g {
        Goal::Hold { area, .. } => Some(area),
        _ => None,
    });
    if !hold.is_empty() {
        return hold;
    }
    cells(|g| match g {
        Goal::Reach { area, .. } => Some(area),
        _ => None,
    })
}

/// Stay in the area; go to a free cell of it; or beside it; or, with none, stand.
pub fn aim(view: &View, objectives: &[Objective], f: &FigView) -> Aim {
    let area = area_of(objectives, f.side);
    if area.is_empty() || area.contains(&f.cell) {
        return Aim::stand();
    }
    let taken = |c: &Cell| view.board.occupant_at(*c) != 0;
    let free: Vec<Cell> = area.iter().copied().filter(|c| !taken(c)).collect();
    let d = area
        .iter()
        .map(|&c| view.dist(f.cell, c))
        .min()
        .unwrap_or(0);
    let goal = if free.is_empty() {
        if d <= 1 {
            return Aim::stand();
        }
        let mut beside: Vec<Cell> = area
            .iter()
            .flat_map(|&c| view.grid.neighbours(c).map(|(_, n)| n))
            .filter(|n| view.board.contains(*n) && !area.contains(n) && !taken(n))
            .collect();
        beside.sort();
        beside.dedup();
        beside
    } else {
        free
    };
    if goal.is_empty() {
        return Aim::stand();
    }
    Aim {
        goal,
        gait: if d > WALK_WITHIN {
            Gait::Trot
        } else {
            Gait::Walk
        },
        stand: false,
    }
}

/// The nearest chargeable enemy within [`CHARGE_REACH`] of the area (of the figure itself,
/// with no area).
pub fn charge(
    view: &View,
    objectives: &[Objective],
    me: &FigView,
    ok: &[&FigView],
) -> Option<String> {
    let area = area_of(objectives, me.side);
    let near: Vec<&FigView> = ok
        .iter()
        .copied()
        .filter(|e| {
            if area.is_empty() {
                view.dist(me.cell, e.cell) <= CHARGE_REACH
            } else {
                area.iter().any(|&c| view.dist(c, e.cell) <= CHARGE_REACH)
            }
        })
        .collect();
    nearest_of(view, me, &near)
}
