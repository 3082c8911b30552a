//! *Flank*: go round the nearest enemy and strike it where it cannot answer. The plan of a
//! player who knows D12 (rear attacks +25% to hit, -25% on the reply) and that only frontal
//! sides attack (D11).
//!
//! Each figure makes for the cells next to its nearest enemy that lie off that enemy's
//! frontal sides (by its stand and facing, `GridKind::side_facing`), at a gallop while far
//! and a trot near (a trotting horse can still turn, H3); once there it stands facing it and
//! fights. It charges enemies it would strike on a non-frontal side first; otherwise only an
//! enemy already close.

use super::{Aim, nearest_enemy, nearest_of};
use crate::rules::gait::Gait;
use crate::rules::grid::Cell;
use crate::sim::view::{FigView, View};

/// Beyond this distance from its target a figure gallops; within it, it trots.
const GALLOP_BEYOND: i32 = 8;

/// Within this distance an enemy is charged even from the front.
const CLOSE: i32 = 2;

/// True when a blow from `from` falls on one of `e`'s non-frontal sides.
pub fn behind(view: &View, e: &FigView, from: Cell) -> bool {
    !view
        .grid
        .side_facing(e.shape, e.cell, e.facing, from)
        .is_frontal()
}

/// The free cells next to `e` off its frontal sides.
pub fn flank_cells(view: &View, e: &FigView) -> Vec<Cell> {
    view.grid
        .neighbours(e.cell)
        .map(|(_, c)| c)
        .filter(|&c| view.board.contains(c) && behind(view, e, c))
        .filter(|&c| !view.figs.iter().any(|g| !g.down && g.cell == c))
        .collect()
}

/// Round to the nearest enemy's flank or rear; there, stand and face it.
pub fn aim(view: &View, f: &FigView) -> Aim {
    let Some(e) = nearest_enemy(view, f) else {
        return Aim::stand();
    };
    let d = view.dist(f.cell, e.cell);
    if d <= 1 && behind(view, e, f.cell) {
        return Aim::stand();
    }
    let mut goal = flank_cells(view, e);
    if goal.is_empty() {
        // Every flank cell taken: close on it anyway.
        goal = vec![e.cell];
    }
    Aim {
        goal,
        gait: if d > GALLOP_BEYOND {
            Gait::Gallop
        } else {
            Gait::Trot
        },
        stand: false,
    }
}

/// The nearest enemy it may charge on a non-frontal side; else the nearest within
/// [`CLOSE`].
pub fn charge(view: &View, me: &FigView, ok: &[&FigView]) -> Option<String> {
    let rear: Vec<&FigView> = ok
        .iter()
        .copied()
        .filter(|e| behind(view, e, me.cell))
        .collect();
    nearest_of(view, me, &rear).or_else(|| {
        let close: Vec<&FigView> = ok
            .iter()
            .copied()
            .filter(|e| view.dist(me.cell, e.cell) <= CLOSE)
            .collect();
        nearest_of(view, me, &close)
    })
}
