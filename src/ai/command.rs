//! The commander: the strongest level ([`AiLevel::Commander`], issue 13, item 2). The actions
//! table is the law for *uncommanded* troops (I1–I3: seed 004 writes "uncommanded units will
//! always shoot only at the nearest enemy"); while a hero or leader of a side is in the fight
//! the whole side is commanded (docs/rules.md, "Uncommanded troops"), and at this level its
//! leader plays it as a human player plays it: no unit rolls on the table, they go for the
//! level's objectives, and otherwise press the attack with their faces to the enemy, charging
//! when a charge is open — the enemy the side's objectives hunt first, and not one a
//! side-mate already charges while another is open. Everything else — paths, targets, cards,
//! charge answers — is the stronger level's ([`super::look`], [`super::cards`],
//! [`super::charges`]). Once the side's last leader falls, its units roll and obey the table
//! as at every level.
//!
//! What a unit is told, in order (the first that applies):
//! 1. a member named by one of its side's Exit or Reach objectives makes for that edge or
//!    area, and stays once there;
//! 2. its side's Hold objectives: a unit with a member in the area holds it (stands facing the
//!    enemy); one outside goes for the area while its side does not hold it;
//! 3. an enemy's Hold area that the enemy holds or nears is contested the same way;
//! 4. a unit with a figure its side must protect holds where it is, facing the enemy;
//! 5. else it advances on the enemy the stronger level picks ([`super::look`]).
//!
//! The enemies its objectives hunt ([`hunted`]: named by its side's Kill objective, or ones
//! the enemy must bring to an edge or area) are not walked to; they are charged first
//! ([`super::charges`]).
//!
//! Objectives are public (every side's briefing lists them), so this reads nothing hidden (I4).

use super::AiLevel;
use crate::rules::actions::{Conduct, Intent};
use crate::rules::gait::Gait;
use crate::rules::grid::Cell;
use crate::rules::victory::{Goal, Objective};
use crate::sim::victory::Judge;
use crate::sim::view::View;
use bevy::prelude::*;
use std::collections::BTreeSet;

/// Turns before a Hold objective that does not win alone starts to count at which a
/// commanded unit makes for its area.
const LEAD_TURNS: u32 = 2;

/// True when `level` plays commanded units as their leader would, not by the table.
pub fn commands(level: AiLevel) -> bool {
    matches!(level, AiLevel::Commander | AiLevel::Foresight)
}

/// True when unit `g` is commanded: a hero or leader of its side is still in the fight. Seed
/// 004 does not say who commands; this reading (the side's leader commands all of it until
/// he falls), and why, is in docs/rules.md "Uncommanded troops".
pub fn is_commanded(view: &View, g: usize) -> bool {
    side_commanded(view, view.groups[g].side)
}

/// True while a hero or leader of `side` is in the fight: the whole side is commanded.
pub fn side_commanded(view: &View, side: u8) -> bool {
    view.figs
        .iter()
        .any(|l| l.hero && l.side == side && !l.down)
}

/// True when `f` is its side's last hero or leader in the fight: when he falls, every unit of
/// the side rolls on the actions table (docs/rules.md "Uncommanded troops"), so the commander
/// keeps him out of fights he cannot win (issue 31: in most games the commander lost to a
/// rush, its only leader fell in the first two turns and the side went to the table).
pub fn last_leader(view: &View, f: &crate::sim::view::FigView) -> bool {
    f.hero
        && !f.down
        && !view
            .figs
            .iter()
            .any(|o| o.hero && o.side == f.side && !o.down && o.id != f.id)
}

/// True when unit `g` of a side playing at `level` is played by its leader, not the table.
pub fn led(level: AiLevel, view: &View, g: usize) -> bool {
    commands(level) && is_commanded(view, g)
}

/// A commanded unit's orders for the turn: the conduct the table would otherwise give, where
/// it goes (`None`: the enemy the stronger level picks), and the words for the log and the
/// window's explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// What it does; for a unit moving on a goal, an advance.
    pub intent: Intent,
    /// The cells it makes for, nearest first by the movement field; `None` for the enemy.
    pub goal: Option<Vec<Cell>>,
    /// Why, in words.
    pub why: String,
}

/// Presses the attack: advances (a mount at a canter, the fastest gait it keeps up turn after
/// turn, D5 and K1), ends its moves facing the nearest enemy, and charges when it may.
fn attack(why: String, goal: Option<Vec<Cell>>) -> Command {
    Command {
        intent: Intent {
            conduct: Conduct::Advance {
                gait: Gait::Canter,
                visible: false,
            },
            face_enemy: true,
            charge: true,
        },
        goal,
        why,
    }
}

/// Stays where it is, facing the nearest enemy (a mount walks first if it must turn).
fn hold(why: String) -> Command {
    Command {
        intent: Intent {
            conduct: Conduct::Stand,
            face_enemy: true,
            charge: false,
        },
        goal: None,
        why,
    }
}

/// The orders the leader of unit `g` gives its figure `who` this turn.
pub fn command(world: &World, view: &View, g: usize, who: &str) -> Command {
    let side = view.groups[g].side;
    let objectives: &[Objective] = world
        .get_resource::<Judge>()
        .map_or(&[], |j| j.victory.objectives.as_slice());
    let members: Vec<&str> = view.fighting(g).map(|f| f.id.as_str()).collect();
    let cells: Vec<Cell> = view.fighting(g).map(|f| f.cell).collect();
    let (w, h) = (view.board.width, view.board.height);
    let ours = |o: &&Objective| o.side == side;
    let theirs = |o: &&Objective| o.side != side;
    // 1. A figure that must reach an edge or an area makes for it; the rest of its unit
    //    fights its way there with it.
    for o in objectives.iter().filter(ours) {
        let (named, area): (&[String], Vec<Cell>) = match &o.goal {
            Goal::Exit { figures, edge } => (figures, edge_cells(*edge, w, h)),
            Goal::Reach { figures, area } => (figures, to_cells(area)),
            _ => continue,
        };
        if !named.iter().any(|n| n == who) {
            continue;
        }
        let Some(me) = view.figs.iter().find(|f| f.id == who && !f.down) else {
            continue;
        };
        if area.contains(&me.cell) {
            return hold(format!("stays where its objective (\"{}\") asks", o.name));
        }
        // With an enemy able to fall on it, it turns to face it rather than run on and be
        // struck in the back. A hero fights his way on; any other figure stands and leaves
        // the fighting to the rest of its unit (a pack-bearer that charged the raiders lost
        // the Baggage Train).
        let pressed = view
            .figs
            .iter()
            .any(|e| e.side != side && !e.down && view.dist(e.cell, me.cell) <= e.threat / 2);
        if pressed && me.hero {
            break;
        }
        if pressed {
            return hold(format!(
                "stands and faces the enemy on the way to its objective (\"{}\")",
                o.name
            ));
        }
        return attack(
            format!("makes for its objective (\"{}\")", o.name),
            Some(area),
        );
    }
    // 2. and 3. Areas to hold or to deny.
    for (o, own) in objectives
        .iter()
        .filter(ours)
        .map(|o| (o, true))
        .chain(objectives.iter().filter(theirs).map(|o| (o, false)))
    {
        let Goal::Hold {
            area, from_turn, ..
        } = &o.goal
        else {
            continue;
        };
        // An area that only counts later, and decides nothing alone, waits for the fight.
        if !o.wins && view.turn + LEAD_TURNS < *from_turn {
            continue;
        }
        let area = to_cells(area);
        if cells.iter().any(|c| area.contains(c)) {
            let what = if own {
                "holds the area of its objective"
            } else {
                "stands in the enemy's area"
            };
            return hold(format!("{what} (\"{}\")", o.name));
        }
        let held_by_us = view
            .figs
            .iter()
            .any(|f| f.side == side && !f.down && area.contains(&f.cell));
        let enemy_near = view
            .figs
            .iter()
            .any(|f| f.side != side && !f.down && near_area(view, f.cell, &area, 3));
        if !held_by_us && (own || enemy_near) {
            let what = if own {
                "makes for the area of its objective"
            } else {
                "contests the enemy's area"
            };
            return attack(format!("{what} (\"{}\")", o.name), Some(area));
        }
    }
    // 4. A figure to keep alive stays out of trouble's way.
    let guarded = objectives.iter().filter(ours).any(|o| match &o.goal {
        Goal::Protect { figures } => figures.iter().any(|f| members.contains(&f.as_str())),
        _ => false,
    });
    if guarded {
        return hold("keeps the figure its side must protect where it stands".into());
    }
    attack("presses the attack".into(), None)
}

/// The commanded unit's intent for the melee and charge phases of the turn (its command
/// carries no goal there).
pub fn intent(world: &World, view: &View, g: usize, who: &str) -> Intent {
    command(world, view, g, who).intent
}

/// The enemy figures the objectives of `side` hunt: those its Kill objectives name, and those
/// the enemy's own Exit or Reach objectives must bring somewhere (stopping them denies it).
/// Objectives are public (I4).
pub fn hunted(world: &World, view: &View, side: u8) -> BTreeSet<String> {
    let objectives: &[Objective] = world
        .get_resource::<Judge>()
        .map_or(&[], |j| j.victory.objectives.as_slice());
    let mut out = BTreeSet::new();
    for o in objectives {
        let named = match &o.goal {
            Goal::Kill { figures } if o.side == side => figures,
            Goal::Exit { figures, .. } | Goal::Reach { figures, .. } if o.side != side => figures,
            _ => continue,
        };
        out.extend(
            named
                .iter()
                .filter(|n| {
                    view.figs
                        .iter()
                        .any(|f| &f.id == *n && f.side != side && !f.down)
                })
                .cloned(),
        );
    }
    out
}

fn to_cells(area: &[(i32, i32)]) -> Vec<Cell> {
    area.iter().map(|&(x, y)| Cell::new(x, y)).collect()
}

fn edge_cells(edge: crate::rules::victory::Edge, w: i32, h: i32) -> Vec<Cell> {
    (0..h)
        .flat_map(|y| (0..w).map(move |x| Cell::new(x, y)))
        .filter(|&c| edge.holds(c, w, h))
        .collect()
}

fn near_area(view: &View, c: Cell, area: &[Cell], d: i32) -> bool {
    area.iter().any(|&a| view.dist(a, c) <= d)
}
