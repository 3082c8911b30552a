//! The risk factor of a unit (seed 004, I1) as pure data: its terms, and the geometric
//! readings they rest on (cover, flank or rear, a weapon's range).
//!
//! Each term is kept apart so the log and the window can say why a unit did what it did.
//! Summing the terms from a game is the simulation's job (`sim::action_roll`), because the
//! roll is a rule every unit obeys, whoever plays it. Where the seed is terse, `docs/ai.md`
//! ("Our reading") says exactly what each term counts; the tests check every term on a board
//! built for it.

use crate::rules::board::Board;
use crate::rules::grid::{Cell, GridKind};
use serde::{Deserialize, Serialize};

/// The terms of I1, each already signed (a term that does not apply is 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RiskTerms {
    /// -1: a hero with the unit.
    pub hero: i32,
    /// -1: the unit entirely in cover, or moving at canter or gallop.
    pub cover_or_speed: i32,
    /// +1: an enemy in clear sight with the unit within its weapon's range.
    pub enemy_in_range: i32,
    /// +1: a raw unit within range of any enemy in sight.
    pub raw: i32,
    /// +1 per 10% of the unit wounded or killed.
    pub losses: i32,
    /// +2: an enemy on a flank or the rear, in sight.
    pub flank_or_rear: i32,
    /// +3: it ran from the enemy last turn, or is retreating as a result of melee.
    pub ran: i32,
}

impl RiskTerms {
    /// The risk factor: the sum of the terms.
    pub fn total(&self) -> i32 {
        self.hero
            + self.cover_or_speed
            + self.enemy_in_range
            + self.raw
            + self.losses
            + self.flank_or_rear
            + self.ran
    }

    /// The terms that apply, as (words, value), in the seed's order.
    pub fn list(&self) -> Vec<(&'static str, i32)> {
        [
            ("hero with the unit", self.hero),
            ("in cover or at canter/gallop", self.cover_or_speed),
            ("enemy in clear sight and range", self.enemy_in_range),
            ("raw unit in range of an enemy in sight", self.raw),
            ("wounded or killed (per 10%)", self.losses),
            ("enemy on a flank or the rear", self.flank_or_rear),
            ("ran or retreated last turn", self.ran),
        ]
        .into_iter()
        .filter(|(_, v)| *v != 0)
        .collect()
    }

    /// "hero -1, enemy in range +1" — for the log.
    pub fn words(&self) -> String {
        let l = self.list();
        if l.is_empty() {
            return "no terms".into();
        }
        l.iter()
            .map(|(w, v)| format!("{w} {v:+}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// True when `cell` is cover terrain (I1, I2).
pub fn in_cover(board: &Board, cell: Cell) -> bool {
    board.contains(cell) && board.terrain_at(cell).cover
}

/// True when an enemy at `enemy` is on a flank or the rear of a figure at `at` facing
/// `facing`: outside the front arc of 45° either side on squares, 60° on hexes.
pub fn on_flank_or_rear(
    grid: GridKind,
    at: Cell,
    facing: crate::rules::grid::Dir,
    enemy: Cell,
) -> bool {
    grid.dir_towards(at, enemy)
        .is_some_and(|d| grid.turn_between(facing, d).abs() > 1)
}

/// Our reading of a weapon's range in cells (I1 "within their weapons range"): missiles
/// reach far, pike and lance one cell beyond contact (D11: 1"), everything else contact.
pub fn weapon_range(weapon: &str) -> i32 {
    // Compared without case and without allocating: this runs for every figure every time
    // the public view is brought up to date.
    const RANGES: [(&str, i32); 10] = [
        ("bow", 12),
        ("longbow", 12),
        ("crossbow", 12),
        ("shortbow", 9),
        ("sling", 9),
        ("javelin", 3),
        ("dart", 3),
        ("darts", 3),
        ("pike", 2),
        ("lance", 2),
    ];
    RANGES
        .iter()
        .find(|(name, _)| weapon.eq_ignore_ascii_case(name))
        .map_or(1, |&(_, r)| r)
}

/// True for a missile weapon (I3: such figures shoot).
pub fn is_missile(weapon: &str) -> bool {
    weapon_range(weapon) > 2
}
