//! The stronger AI ("lookahead") for commanded units — those of a side whose hero or leader is
//! in the fight (`command::is_commanded`). It obeys
//! the table's morale result exactly as the baseline does (the same roll, the same conduct,
//! the same gait), but where the table leaves a choice it looks ahead with the real rules:
//!
//! - **targets**: an advancing unit picks the enemy it can beat — weak, isolated, reachable —
//!   rather than the nearest one;
//! - **paths**: every end of a figure's reachable area is scored by what it leads to. The
//!   enemies' own reachable areas for their next half-move (the real movement rules, from
//!   their real positions) say which ends a counter-attack can reach from the rear; contacts
//!   are valued by the side struck (D12: rear attacks +25%) and the melee odds;
//! - it never moves a figure further from the enemy when advancing, nor nearer when retiring.
//!
//! Everything is computed from the public [`View`] and the rules; nothing here reads a hidden
//! choice or the game's dice.

use super::field::{FAR, FieldCache};
use super::plan::{self, facing_error, move_to, nearest_enemy_of, reach_with};
use crate::rules::actions::{Conduct, Intent};
use crate::rules::grid::Cell;
use crate::rules::mp::Mp;
use crate::rules::reach::reachable;
use crate::sim::motion::setup_move;
use crate::sim::order::Order;
use crate::sim::view::{FigView, View};
use crate::sim::world::Map;
use bevy::prelude::*;
use std::collections::BTreeMap;

/// What the enemies could do next half-move: for each enemy (by index into the view's
/// figures), the cells it can end its move in.
#[derive(Resource, Clone, Debug, Default)]
pub struct Threats {
    /// (turn, phase label, side, figures in the view) this was computed for: a figure that
    /// leaves the map (a rout, issue 12) renumbers the view's figures, so the indices below
    /// are recomputed then.
    stamp: Option<(u32, &'static str, u8, usize)>,
    ends: BTreeMap<usize, Vec<Cell>>,
    /// The unit's chosen target, by unit name.
    targets: BTreeMap<String, usize>,
}

/// Computes the enemies' next reachable areas near the side's commanded units. Called before
/// each of the side's orders; it works only once a half-move, and again when a figure has left
/// the map (its stamp counts the figures).
pub fn prepare(world: &mut World, view: &View, side: u8, _cache: &mut FieldCache) {
    let stamp = (view.turn, view.phase.label(), side, view.figs.len());
    if world
        .get_resource::<Threats>()
        .is_some_and(|t| t.stamp == Some(stamp))
    {
        return;
    }
    let ours: Vec<Cell> = view
        .groups
        .iter()
        .enumerate()
        .filter(|(gi, g)| g.side == side && super::command::is_commanded(view, *gi))
        .flat_map(|(gi, _)| view.fighting(gi).map(|f| f.cell).collect::<Vec<_>>())
        .collect();
    let mut ends = BTreeMap::new();
    for (i, e) in view.figs.iter().enumerate() {
        if e.side == side || e.down {
            continue;
        }
        // Only enemies that could get near a commanded unit matter.
        let near = ours.iter().any(|&c| view.dist(c, e.cell) <= e.threat + 16);
        if !near {
            continue;
        }
        let setup = setup_move(world, e.entity);
        let board = &world.resource::<Map>().0;
        // Their next half-move: a whole half-move allowance at the gait they have now, or
        // half a turn at their fastest gait (a halted knight may gallop next half-move).
        let fastest = Mp::cells(i64::from(e.threat.max(0)) / 2);
        let allowance = setup.mover.basis.max(setup.left).max(fastest);
        let reach = reachable(board, &setup.mover, setup.pose, allowance);
        let cells: Vec<Cell> = reach.cells().iter().map(|x| x.cell).collect();
        ends.insert(i, cells);
    }
    world.insert_resource(Threats {
        stamp: Some(stamp),
        ends,
        targets: BTreeMap::new(),
    });
}

/// A rough worth of a figure in a fight: body points left, blows and armour (public
/// template data).
fn worth(f: &FigView) -> i64 {
    f.body_left as i64 * (2 + f.blows as i64) * (4 + f.armour as i64)
}

/// How many enemies could strike the figure at `cell` facing `facing` from its rear or a
/// flank next half-move (their reachable cells next to it, outside its front), weighted by
/// their worth.
fn exposure(
    view: &View,
    threats: &Threats,
    f: &FigView,
    cell: Cell,
    facing: crate::rules::grid::Dir,
) -> i64 {
    let mut total = 0;
    for (&i, ends) in &threats.ends {
        let e = &view.figs[i];
        if view.dist(e.cell, cell) > e.threat + 1 {
            continue;
        }
        let hits = view.grid.neighbours(cell).any(|(_, n)| {
            (n == e.cell || ends.binary_search(&n).is_ok())
                && crate::rules::risk::on_flank_or_rear(view.grid, cell, facing, n)
        });
        if hits {
            total += worth(e);
        }
    }
    let _ = f;
    total
}

/// How many enemies at least as strong as `f` could reach `cell` within a turn with no
/// side-mate of `f` standing nearer to them than `cell`: the enemies a side's last leader
/// would meet alone there (`command::last_leader`). He still advances, behind his front.
fn unscreened(view: &View, f: &FigView, cell: Cell) -> i64 {
    let mine = worth(f);
    view.enemies(f.side)
        .filter(|e| worth(e) >= mine && view.dist(e.cell, cell) <= e.threat)
        .filter(|e| {
            let d = view.dist(e.cell, cell);
            !view.figs.iter().any(|x| {
                x.side == f.side
                    && !x.down
                    && x.id != f.id
                    && x.troop != crate::rules::ruleset::TroopType::Horse
                    && view.dist(x.cell, e.cell) < d
            })
        })
        .count() as i64
}

/// The value of standing at `cell` facing `facing` next to enemies: contacts through our
/// front count for us, more against their flank or rear (D12); enemies already touching our
/// flank or rear count against.
fn contact_value(view: &View, f: &FigView, cell: Cell, facing: crate::rules::grid::Dir) -> i64 {
    let mut v = 0;
    for e in view.enemies(f.side) {
        if view.dist(e.cell, cell) != 1 {
            continue;
        }
        let ours_front = !crate::rules::risk::on_flank_or_rear(view.grid, cell, facing, e.cell);
        let their_front = !crate::rules::risk::on_flank_or_rear(view.grid, e.cell, e.facing, cell);
        let odds = worth(f) * 100 / (worth(f) + worth(e)).max(1);
        v += match (ours_front, their_front) {
            (true, false) => odds * 2,
            (true, true) => odds - 50,
            (false, true) => -100,
            (false, false) => 0,
        };
    }
    v
}

/// The enemy an advancing commanded unit goes for: among the four nearest, the one whose
/// worth against the friends it can call on near it is lowest (weak and isolated), nearer
/// ones preferred.
fn choose_target(view: &View, g: usize) -> Option<usize> {
    let side = view.groups[g].side;
    let mine: Vec<&FigView> = view.fighting(g).collect();
    let mut cands: Vec<(i32, usize)> = view
        .figs
        .iter()
        .enumerate()
        .filter(|(_, e)| e.side != side && !e.down)
        .filter_map(|(i, e)| {
            mine.iter()
                .map(|m| view.dist(m.cell, e.cell))
                .min()
                .map(|d| (d, i))
        })
        .collect();
    cands.sort();
    cands.truncate(4);
    cands
        .into_iter()
        .map(|(d, i)| {
            let e = &view.figs[i];
            let theirs: i64 = view
                .enemies(side)
                .filter(|x| view.dist(x.cell, e.cell) <= 3)
                .map(worth)
                .sum();
            let ours: i64 = view
                .figs
                .iter()
                .filter(|x| x.side == side && !x.down && view.dist(x.cell, e.cell) <= d + 3)
                .map(worth)
                .sum();
            (theirs * 100 / ours.max(1) + d as i64 * 10, i)
        })
        .min()
        .map(|x| x.1)
}

/// The stronger AI's move for one figure of a commanded unit.
pub fn choose_move(
    world: &mut World,
    view: &View,
    cache: &mut FieldCache,
    f: &FigView,
    intent: &Intent,
) -> Option<Order> {
    let gi = f.group?;
    let threats = world.get_resource::<Threats>().cloned().unwrap_or_default();
    let unit = view.groups[gi].name.clone();
    match intent.conduct {
        Conduct::Advance { visible, .. } => {
            let target = if visible {
                view.nearest_enemy(gi, true).map(|x| x.0)
            } else {
                let t = threats
                    .targets
                    .get(&unit)
                    .copied()
                    .filter(|&i| !view.figs[i].down)
                    .or_else(|| choose_target(view, gi));
                if let (Some(t), Some(mut th)) = (t, world.get_resource_mut::<Threats>()) {
                    th.targets.insert(unit.clone(), t);
                }
                t
            }?;
            let tcell = view.figs[target].cell;
            note(
                world,
                &unit,
                format!(
                    "advances on {} (weakest reachable enemy)",
                    view.figs[target].id
                ),
            );
            let (setup, reach) = reach_with(world, f.entity, Mp::ZERO)?;
            let field = cache
                .get(&view.board, &[tcell], &setup.mover.mult, &[f.cell])
                .clone();
            let all = plan::enemy_cells(view, f.side);
            let nearest = cache
                .get(&view.board, &all, &setup.mover.mult, &[f.cell])
                .clone();
            let here = field.at(f.cell);
            let here_near = nearest.at(f.cell);
            let step = crate::rules::mp::Mp::ONE.raw();
            let last = super::command::last_leader(view, f);
            let end = reach
                .ends()
                .iter()
                .filter(|e| {
                    let d = field.at(e.cell);
                    d < FAR && (d < here || nearest.at(e.cell) < here_near)
                })
                .max_by_key(|e| {
                    let progress = (here - field.at(e.cell)) / step.max(1);
                    let score = progress * 30 + contact_value(view, f, e.cell, e.facing)
                        - exposure(view, &threats, f, e.cell, e.facing) / 10
                        - facing_error(view.grid, e.cell, e.facing, Some(tcell)) as i64 * 5
                        - if last {
                            unscreened(view, f, e.cell) * 400
                        } else {
                            0
                        };
                    (score, std::cmp::Reverse(e.cost))
                })
                .copied();
            match end {
                Some(e) => move_to(f, &reach, &e),
                None => plan::baseline_move(world, view, cache, f, intent, &[tcell]),
            }
        }
        Conduct::Retire { .. } | Conduct::Cover => {
            if matches!(intent.conduct, Conduct::Cover)
                && crate::rules::risk::in_cover(&view.board, f.cell)
            {
                return plan::turn_from_flank(world, view, f);
            }
            // Among the ends the table allows (further from the enemy; for cover, the
            // baseline's cover cell first), the least exposed.
            if matches!(intent.conduct, Conduct::Cover)
                && let Some(o) = plan::cover(world, view, cache, f)
            {
                return Some(o);
            }
            let (setup, reach) = reach_with(world, f.entity, Mp::ZERO)?;
            let all = plan::enemy_cells(view, f.side);
            if all.is_empty() {
                return None;
            }
            let field = cache.get(&view.board, &all, &setup.mover.mult, &[]).clone();
            let here = field.at(f.cell);
            let end = reach
                .ends()
                .iter()
                .filter(|e| field.at(e.cell) > here)
                .max_by_key(|e| {
                    let friends = view
                        .figs
                        .iter()
                        .filter(|x| {
                            x.side == f.side && x.id != f.id && view.dist(x.cell, e.cell) <= 2
                        })
                        .count() as i64;
                    let score = field.at(e.cell).min(FAR / 2) / Mp::ONE.raw().max(1) * 10
                        - exposure(view, &threats, f, e.cell, e.facing) / 20
                        + friends * 5;
                    (score, std::cmp::Reverse(e.cost))
                })
                .copied()?;
            note(world, &unit, "retires along the least exposed way".into());
            move_to(f, &reach, &end)
        }
        Conduct::Stand => {
            if !intent.face_enemy {
                return plan::turn_from_flank(world, view, f);
            }
            let face = nearest_enemy_of(view, f);
            if !plan::needs_turn(view, f) {
                return None;
            }
            let (_, reach) = reach_with(world, f.entity, Mp::ZERO)?;
            let end = plan::turn_to_face(view, f, &reach, face)?;
            move_to(f, &reach, &end)
        }
    }
}

pub(super) fn note(world: &mut World, unit: &str, text: String) {
    if let Some(mut s) = world.get_resource_mut::<super::brain::AiState>() {
        s.notes.insert(unit.to_string(), text);
    }
}
