//! The risk factor of a unit (I1), term by term, from the real board.
//!
//! Each term is kept apart so the log and the window can say why a unit did what it did.
//! Where the seed is terse, `docs/ai.md` ("Our reading") says exactly what each term counts;
//! the tests in `src/ai/tests.rs` check every term on a board built for it.

use super::table::is_running;
use super::view::{FigView, View, weapon_range};
use crate::rules::board::Board;
use crate::rules::gait::Gait;
use crate::rules::grid::{Cell, GridKind};
use crate::sim::log::LogEntry;
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

/// True when `enemy`'s weapon reaches `target`.
fn in_range_of(view: &View, enemy: &FigView, target: Cell) -> bool {
    view.dist(enemy.cell, target) <= weapon_range(&enemy.weapon)
}

/// True when one of `members` (figure ids; a mount's id is its rider's followed by `.mount`)
/// retreated from a melee in turn `turn - 1`: the melee's log line for a RETREAT or RUN AWAY
/// that moved it ("`id` RETREATS in good order …", "`id` RUNS AWAY …"). The log is public:
/// every player reads it (I4). *Our reading* of "retreating as a result of melee" (I1): a
/// retreat the TAC cards carried out, whether chosen or forced by KEEP DISTANCE; a stagger's
/// push of one cell is not a retreat.
pub fn retreated_from_melee(log: &[LogEntry], members: &[String], turn: u32) -> bool {
    let Some(last) = turn.checked_sub(1) else {
        return false;
    };
    log.iter()
        .rev()
        .take_while(|e| e.turn >= last)
        .filter(|e| {
            e.turn == last && (e.text.contains(" RETREATS") || e.text.contains(" RUNS AWAY"))
        })
        .any(|e| members.iter().any(|id| names_retreat(&e.text, id)))
}

/// True when `text` says the figure `id` (or its mount) retreats or runs away.
fn names_retreat(text: &str, id: &str) -> bool {
    let id_char = |c: char| c.is_alphanumeric() || c == '_' || c == '.';
    text.match_indices(id).any(|(at, _)| {
        let before_ok = text[..at].chars().next_back().is_none_or(|c| !id_char(c));
        let rest = &text[at + id.len()..];
        let rest = rest.strip_prefix(".mount").unwrap_or(rest);
        before_ok && (rest.starts_with(" RETREATS") || rest.starts_with(" RUNS AWAY"))
    })
}

/// I1 for unit `g` of the view, `retreated` telling whether a member retreated from melee
/// last turn (the melee rules report it; `false` where they do not).
pub fn risk_terms(view: &View, g: usize, retreated: bool) -> RiskTerms {
    let unit = &view.groups[g];
    let mine: Vec<&FigView> = view.fighting(g).collect();
    let mut t = RiskTerms::default();
    if mine.is_empty() {
        return t;
    }
    if mine.iter().any(|f| f.hero) {
        t.hero = -1;
    }
    let all_cover = mine.iter().all(|f| in_cover(&view.board, f.cell));
    let all_fast = mine.iter().all(|f| f.mounted && f.gait >= Gait::Canter);
    if all_cover || all_fast {
        t.cover_or_speed = -1;
    }
    let enemies: Vec<&FigView> = view.enemies(unit.side).collect();
    let in_range = |clear: bool| {
        enemies.iter().any(|e| {
            mine.iter().any(|f| {
                in_range_of(view, e, f.cell)
                    && if clear {
                        view.clear_sight(f.cell, e.cell)
                    } else {
                        view.in_sight(f.cell, e.cell)
                    }
            })
        })
    };
    if in_range(true) {
        t.enemy_in_range = 1;
    }
    let raw = mine.iter().filter(|f| f.raw).count();
    if raw * 2 > mine.len() && in_range(false) {
        t.raw = 1;
    }
    let present_hurt = unit
        .members
        .iter()
        .filter(|&&i| view.figs[i].hurt || view.figs[i].down)
        .count();
    let gone = unit.start.saturating_sub(unit.members.len());
    let lost = present_hurt + gone;
    if let Some(tenths) = (lost * 10).checked_div(unit.start) {
        t.losses = tenths as i32;
    }
    let flanked = enemies.iter().any(|e| {
        mine.iter().any(|f| {
            view.dist(f.cell, e.cell) <= e.threat
                && on_flank_or_rear(view.grid, f.cell, f.facing, e.cell)
                && view.in_sight(f.cell, e.cell)
        })
    });
    if flanked {
        t.flank_or_rear = 2;
    }
    let ran = view
        .last_roll_before_now(&unit.name)
        .is_some_and(|r| r.turn + 1 == view.turn && is_running(r.intent.conduct));
    if ran || retreated {
        t.ran = 3;
    }
    t
}
