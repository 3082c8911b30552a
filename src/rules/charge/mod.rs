//! Charge movement on the grid (C1, C5–C7): the straight line a charging steed rides, where
//! it strikes and whom it touches, and which targets a mounted figure may charge at all.
//!
//! *Our reading on the grid* (written in `docs/rules.md`): a charge is a straight line of
//! cells, inches = cells, that may change line between targets (C6 turns, see `walk`). On squares it runs along the mount's heading (1 a cell) or along one
//! of the two diagonals ahead (a veer, 2 a cell, counted as a single veer against H4); on
//! hexes along the heading, or 60° off it after one veer (which turns the heading, H7). The
//! horse rides its whole half-move allowance at the charge gait unless the way is blocked.
//! A figure is *contacted* when the horse enters a cell next to it; a rider strikes when the
//! horse first comes within his weapon's reach of the target (2 cells for 1" and 1/2"
//! weapons — one cell between — and 1 cell, touching, for the rest).
//!
//! The same [`Walker`] plans a charge for the order validator and the target list (no dice)
//! and drives the resolution in the simulation (dice between its events), so a charge that is
//! accepted is ridden exactly as it was shown.

use super::board::Board;
use super::gait::Gait;
use super::grid::{Cell, Dir, GridKind, StandShape};
use super::movement::Hand;
use super::mp::Mp;
use super::sight::{Blocked, sight_blocker};
use serde::{Deserialize, Serialize};

/// C6: every figure contacted slows the mount by 2".
pub const BASH_SLOW: Mp = Mp::cells(2);
/// C6: at least 2" of straight run before each contact.
pub const RUN_BEFORE: usize = 2;
/// C6: at least 1" of straight run after a contact before the horse may turn.
pub const RUN_AFTER: usize = 1;
/// C6: the next target at least 3" from the present one on the same side of the steed …
pub const SPACING_SAME_SIDE: i32 = 3;
/// … or 6" on the opposite side.
pub const SPACING_OPPOSITE_SIDE: i32 = 6;
/// Seed 003: a charging steed may accelerate 2 speed levels, 3 for light horses.
pub const ACCELERATION: i32 = 2;
/// … for light horses (see [`LIGHT_HORSES`]).
pub const ACCELERATION_LIGHT: i32 = 3;
/// *Our reading:* the light horses of H1 are the rouncy and the courser.
pub const LIGHT_HORSES: [&str; 2] = ["rouncy", "courser"];

/// What the charge rules know about one figure on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fig {
    /// Id (a rider's id for a mounted pair).
    pub id: String,
    /// Side index.
    pub side: u8,
    /// Its cell.
    pub cell: Cell,
    /// Facing (heading for mounts).
    pub facing: Dir,
    /// Stand shape (a mounted pair has its mount's long stand).
    pub shape: StandShape,
    /// A riderless horse: never an enemy (A18), so never charged or contacted.
    pub riderless_horse: bool,
    /// Riding a mount.
    pub mounted: bool,
    /// Down and out of the fight: it still lies in its cell, but is neither charged nor
    /// contacted.
    pub out: bool,
}

/// Which straight line a charge takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Line {
    /// Along the heading.
    Ahead,
    /// Along the diagonal (squares) or the hex direction (hexes) 45°/60° to this hand.
    Veer(Hand),
}

impl Line {
    /// The three lines, in the order they are tried.
    pub const ALL: [Line; 3] = [Line::Ahead, Line::Veer(Hand::Left), Line::Veer(Hand::Right)];

    /// The direction the horse travels along this line from heading `h`.
    pub fn dir(self, grid: GridKind, h: Dir) -> Dir {
        match self {
            Line::Ahead => h,
            Line::Veer(hand) => grid.rotate(h, hand.sign()),
        }
    }

    /// Words for the log.
    pub fn words(self) -> &'static str {
        match self {
            Line::Ahead => "straight ahead",
            Line::Veer(Hand::Left) => "on the left diagonal",
            Line::Veer(Hand::Right) => "on the right diagonal",
        }
    }
}

/// Which side of the steed a target is on at the instant of contact (C6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Side {
    /// Left of the steed's front centre (the rider's shield side).
    Left,
    /// Right of it (the sword side).
    Right,
    /// Dead ahead: the charger may say which (C6).
    Centre,
}

/// C6: the side of the line travelling `dir` from `at` that `target` is on.
pub fn side_of(grid: GridKind, at: Cell, dir: Dir, target: Cell) -> Side {
    let (ax, ay) = grid.center(at);
    let (nx, ny) = grid.center(grid.neighbour(at, dir));
    let (tx, ty) = grid.center(target);
    let cross = (nx - ax) * (ty - ay) - (ny - ay) * (tx - ax);
    if cross > 1e-9 {
        Side::Right
    } else if cross < -1e-9 {
        Side::Left
    } else {
        Side::Centre
    }
}

/// Which rule a planned charge breaks (C1, C6), for code to tell refusals apart without
/// reading their words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanRule {
    /// The charger may not charge at all (C7 at a walk, K1, not mounted, …): the charger's
    /// own eligibility, carried to every target.
    Charger,
    /// C1, A18: the target list names a figure that is no fit target (an ally, a horse, one
    /// out of the fight or out of sight, one named twice).
    Target,
    /// C6: "a charging figure must move at least 2\" in a straight line before contacting a
    /// target" — since the start, a turn or the previous target.
    StraightRun,
    /// C6: the next target is not 3" on (same side) or 6" on (other side) from the present one.
    Spacing,
    /// C6: the way to a target is blocked.
    Blocked,
    /// C6: the line never brings the horse within its rider's reach of a target (one line
    /// missed; another may not).
    Missed,
}

/// A charge plan's refusal: the rule it breaks, and the words for the player (its rule's tag
/// first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanRefusal {
    /// The rule broken.
    pub rule: PlanRule,
    /// What the player reads, `C6: …`.
    pub text: String,
}

impl PlanRefusal {
    /// A refusal under `rule` that reads `text`.
    pub fn new(rule: PlanRule, text: impl Into<String>) -> Self {
        Self {
            rule,
            text: text.into(),
        }
    }
}

impl std::fmt::Display for PlanRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// C6: may the next target at `next` follow the present one at `present`? `Err` names the
/// rule. A centred target is on whichever side the charger says, so it counts as the same
/// side.
pub fn spacing_ok(
    grid: GridKind,
    present: Cell,
    present_side: Side,
    next: Cell,
    next_side: Side,
) -> Result<(), String> {
    let d = grid.distance(present, next);
    let opposite = matches!(
        (present_side, next_side),
        (Side::Left, Side::Right) | (Side::Right, Side::Left)
    );
    let need = if opposite {
        SPACING_OPPOSITE_SIDE
    } else {
        SPACING_SAME_SIDE
    };
    if d >= need {
        Ok(())
    } else if opposite {
        Err(format!(
            "C6: the next target must be at least {need}\" from the present one when it is on \
             the other side of the steed; it is {d}\""
        ))
    } else {
        Err(format!(
            "C6: the next target must be at least {need}\" from the present one on the same \
             side of the steed; it is {d}\""
        ))
    }
}

/// C7 and seed 003: the gait a steed charges at — its gait when charges are declared,
/// accelerated by 2 speed levels (3 for light horses), never above what it is capable of.
/// A steed at a halt or walk cannot charge (*our reading* of "no charge at a walk": it must
/// already be trotting when charges are declared); nor one that must walk this turn (K1).
pub fn charge_gait(
    current: Gait,
    capable: &[Gait],
    class: &str,
    must_rest: bool,
) -> Result<Gait, String> {
    if must_rest {
        return Err("K1: it galloped two turns running and must walk this turn".into());
    }
    if current < Gait::Trot {
        return Err(format!(
            "C7: charges cannot be conducted at a walk; it is at a {current} (a steed must be \
             trotting or faster when charges are declared)"
        ));
    }
    let light = LIGHT_HORSES.contains(&class.to_ascii_lowercase().as_str());
    let up = if light {
        ACCELERATION_LIGHT
    } else {
        ACCELERATION
    };
    let top = (current.category() + up).min(Gait::Gallop.category());
    Ok(Gait::ALL
        .into_iter()
        .filter(|g| g.category() <= top && capable.contains(g))
        .max()
        .unwrap_or(current)
        .max(current))
}

/// Line of sight from the charger to a target (A16, C1). `Err` says what blocks it.
/// *Our reading:* terrain blocks, figures do not — a rider sees over men on foot, and a line
/// of footmen must not hide the second of them from the knight riding it down.
pub fn sight(board: &Board, from: Cell, to: Cell) -> Result<(), String> {
    match sight_blocker(board, from, to, |_| false) {
        None => Ok(()),
        Some(Blocked::Terrain(c, t)) => Err(format!("no line of sight: {t} at {c}")),
        Some(Blocked::Figure(c)) => Err(format!("no line of sight: a figure stands at {c}")),
    }
}

pub mod ride;
mod walk;
pub use walk::*;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_ride;
