//! Turning a unit's intent into one figure's orders for the half-move: a gait change the
//! rules allow (D5, K1, K2, A10), then one move whose path comes from the figure's reachable
//! area — the same search and the same step rules the order validator uses, so the AI's
//! moves are legal by construction.

use super::field::{FAR, FieldCache};
use crate::rules::actions::{Conduct, Intent};
use crate::rules::allowance::activity_cost;
use crate::rules::gait::{Gait, check_gait_change};
use crate::rules::grid::{Cell, Dir, GridKind};
use crate::rules::melee::fight::{Fallen, Posture};
use crate::rules::movement::{Mover, Pose, Step};
use crate::rules::mp::Mp;
use crate::rules::reach::{Reach, ReachEnd, reachable};
use crate::rules::ruleset::{Activity, MoveStyle, RatePer};
use crate::sim::components::*;
use crate::sim::motion::{MoveSetup, setup_move};
use crate::sim::order::Order;
use crate::sim::phase::Phase;
use crate::sim::view::{FigView, View};
use crate::sim::world::{Map, Rules};
use bevy::prelude::*;

/// How far `facing` is from looking at `to` from `at`, in direction steps (0 = straight at
/// it; 0 as well when there is nothing to look at).
pub fn facing_error(grid: GridKind, at: Cell, facing: Dir, to: Option<Cell>) -> i32 {
    to.and_then(|t| grid.dir_towards(at, t))
        .map_or(0, |d| grid.turn_between(facing, d).abs())
}

/// The enemy nearest to a figure (figure to figure), for "facing the nearest enemy".
pub fn nearest_enemy_of(view: &View, f: &FigView) -> Option<Cell> {
    // Compared by reference: a key holding a copy of every enemy's id cost an allocation per
    // enemy, for every figure moved.
    view.enemies(f.side)
        .min_by(|a, b| (view.dist(f.cell, a.cell), &a.id).cmp(&(view.dist(f.cell, b.cell), &b.id)))
        .map(|e| e.cell)
}

/// True when a unit told to face the nearest enemy must turn: it looks more than one
/// direction step (45° on squares, 60° on hexes) away from it.
pub fn needs_turn(view: &View, f: &FigView) -> bool {
    facing_error(view.grid, f.cell, f.facing, nearest_enemy_of(view, f)) > 1
}

/// True when a mount under the horse rules must spend this half-move turning at a walk
/// before it can go where its conduct sends it: only a walking horse pivots (H3, H4), so one
/// heading at the enemy cannot ride away from it, nor one heading away ride at it.
pub fn must_turn_first(view: &View, f: &FigView, away: bool) -> bool {
    if !f.mounted || view.mounted_style != MoveStyle::Horse {
        return false;
    }
    let err = facing_error(view.grid, f.cell, f.facing, nearest_enemy_of(view, f));
    let n = view.grid.dirs() as i32;
    if away { err <= n / 8 } else { err > n / 4 }
}

/// The gait a conduct asks of a mount this half-move. A unit told to halt facing the enemy
/// walks first if it must turn (a halted mount cannot pivot, H2/H3); so does one that must
/// turn about before it can advance or retire.
pub fn wanted_gait(view: &View, f: &FigView, intent: &Intent) -> Gait {
    match intent.conduct {
        Conduct::Stand if intent.face_enemy && needs_turn(view, f) => Gait::Walk,
        Conduct::Advance { .. } if must_turn_first(view, f, false) => Gait::Walk,
        Conduct::Retire { .. } if must_turn_first(view, f, true) => Gait::Walk,
        c => c.gait(),
    }
}

/// The legal gait nearest to `want` for the mount `m` now, when it differs from its gait:
/// the D5 limit from the gait it started the half-move at, K1 rest, K2 (capable gaits), and
/// in `asl` only a Gallop declaration (A10: not while CX, not in `no_gallop` terrain).
pub fn gait_change(world: &World, m: Entity, want: Gait, phase: Phase) -> Option<Gait> {
    let gs = world.get::<GaitState>(m)?;
    let rules = &world.resource::<Rules>().0;
    if rules.asl.is_some() {
        let h = world.get::<AslHorse>(m)?;
        let cell = world.get::<Position>(m)?.0;
        let board = &world.resource::<Map>().0;
        let ok = want == Gait::Gallop
            && gs.gait != Gait::Gallop
            && !h.cx
            && board.contains(cell)
            && !board.terrain_at(cell).no_gallop;
        return ok.then_some(Gait::Gallop);
    }
    if world.get::<Allowance>(m).is_some_and(|a| a.used_any) {
        return None;
    }
    let rest = world.get::<GallopStreak>(m).is_some_and(|s| s.must_rest);
    let best = gs
        .capable
        .iter()
        .copied()
        .filter(|&g| {
            check_gait_change(&gs.capable, gs.at_half_start, g, phase.half(), rest).is_ok()
        })
        .min_by_key(|&g| ((g.category() - want.category()).abs(), g.category()))?;
    (best != gs.gait).then_some(best)
}

/// What the last melee left a figure able to do this half-move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// Free to move.
    Free,
    /// On the ground: it must stand up first (D15).
    MustStand,
    /// Out of the fight, or restrained (§6 RESTRAINT): no orders.
    Held,
}

/// How fit a figure is to move (the melee rules refuse orders to fallen, prone or
/// restrained figures).
pub fn fitness(world: &World, e: Entity) -> Fit {
    let Some(c) = world.get::<CombatStatus>(e) else {
        return Fit::Free;
    };
    if c.0.fallen != Fallen::Up || !c.0.restrained_by.is_empty() {
        Fit::Held
    } else if c.0.posture != Posture::Standing {
        Fit::MustStand
    } else {
        Fit::Free
    }
}

/// The order that gets a figure off the ground, when its ruleset has one and its movement
/// pays for it (D15, R2); `None` leaves it where it lies this half-move.
pub fn stand_up(world: &World, f: &FigView) -> Option<Order> {
    let rules = &world.resource::<Rules>().0;
    if !rules.activities.contains_key(&Activity::StandUp)
        || world.get::<RidingOn>(f.entity).is_some()
    {
        return None;
    }
    let a = world.get::<Allowance>(f.entity)?;
    let rate = world.get::<Rate>(f.entity).map_or(Mp::ZERO, |r| r.0);
    let species = match rules.rate_per {
        RatePer::Turn => rate.scale(crate::rules::mp::Frac::new(1, 2)),
        RatePer::HalfMove => rate,
    };
    let enc = world
        .get::<Encumbered>(f.entity)
        .map_or(crate::rules::ruleset::Encumbrance::None, |x| x.0);
    let cost = activity_cost(rules, Activity::StandUp, a.basis, species, enc).unwrap_or(Mp::ZERO);
    (cost <= a.left).then(|| Order::Activity {
        unit: f.id.clone(),
        activity: Activity::StandUp,
    })
}

/// The mount a figure's gait belongs to (itself when it is a riderless steed).
pub fn mount_of(world: &World, e: Entity) -> Option<Entity> {
    world
        .get::<RidingOn>(e)
        .map(|r| r.0)
        .or_else(|| world.get::<GaitState>(e).map(|_| e))
}

/// The figure's reachable area with `extra` movement beyond what it has left (the cover
/// search looks one whole move ahead); `None` when it may not move at all (D16: held in
/// contact), since even its free 45° turn is then refused.
pub fn reach_with(world: &mut World, e: Entity, extra: Mp) -> Option<(MoveSetup, Reach)> {
    let mut setup = setup_move(world, e);
    // The AI plans sure moves only: no squeezing (D17) or contests (R4), which need a roll.
    setup.mover.rolls = None;
    if setup.blocked.is_some() {
        return None;
    }
    // The order validator refuses a halted mount, and a resting one above a walk (H2, K1).
    let m = setup.mover_entity;
    let rest = world.get::<GallopStreak>(m).is_some_and(|s| s.must_rest);
    if world
        .get::<GaitState>(m)
        .is_some_and(|g| g.gait == Gait::Halt || (rest && g.gait > Gait::Walk))
    {
        return None;
    }
    let board = &world.resource::<Map>().0;
    let reach = reachable(board, &setup.mover, setup.pose, setup.left + extra);
    Some((setup, reach))
}

/// The longest prefix of `steps` that fits in `left` and ends on a cell the figure may stop
/// in (free, or where it started). Empty when none does.
pub fn prefix_within(
    board: &crate::rules::board::Board,
    mover: &Mover,
    start: Pose,
    steps: &[Step],
    left: Mp,
) -> Vec<Step> {
    let mut pose = start;
    let mut spent = Mp::ZERO;
    let mut best = 0;
    for (i, &s) in steps.iter().enumerate() {
        match mover.try_step_within(board, &pose, s, left - spent) {
            Ok((p, c)) => {
                pose = p;
                spent += c;
                if pose.cell == start.cell || board.occupant_at(pose.cell) == 0 {
                    best = i + 1;
                }
            }
            Err(_) => break,
        }
    }
    steps[..best].to_vec()
}

/// A move order along the cheapest path to `end`, or `None` when it goes nowhere.
pub fn move_to(f: &FigView, reach: &Reach, end: &ReachEnd) -> Option<Order> {
    let steps = reach.path(end);
    (!steps.is_empty()).then(|| Order::Move {
        unit: f.id.clone(),
        steps,
    })
}

/// The end at the figure's own cell that looks most nearly at `face`, if turning helps.
pub fn turn_to_face(
    view: &View,
    f: &FigView,
    reach: &Reach,
    face: Option<Cell>,
) -> Option<ReachEnd> {
    let now = facing_error(view.grid, f.cell, f.facing, face);
    reach
        .ends()
        .iter()
        .filter(|e| e.cell == f.cell)
        .map(|e| (facing_error(view.grid, e.cell, e.facing, face), e.cost, *e))
        .filter(|(err, _, _)| *err < now)
        .min_by_key(|(err, cost, _)| (*err, *cost))
        .map(|x| x.2)
}

/// The enemies of `side` that a figure at `cell` would see and that could strike it next
/// turn: the ones I1's "enemy on a flank or the rear" counts when they are outside its front.
pub fn threats_at(view: &View, side: u8, cell: Cell) -> Vec<Cell> {
    view.threats_to(side)
        .reaching(view.grid, cell)
        .filter(|&e| view.in_sight(cell, e))
        .collect()
}

/// How many of `threats` a figure at `cell` facing `facing` has on a flank or its rear (I1).
pub fn flankers(grid: GridKind, cell: Cell, facing: Dir, threats: &[Cell]) -> usize {
    threats
        .iter()
        .filter(|&&t| crate::rules::risk::on_flank_or_rear(grid, cell, facing, t))
        .count()
}

/// Among `ends` (all equally good for where the figure goes), the one that offers the fewest
/// threatening enemies a flank or the rear (I1: each such enemy is +2 on the unit's next roll
/// while it stays there), then the one nearest to facing `face`, then the cheapest. This is how
/// a unit "avoids offering a flank" within the move its conduct chose (issue 13, item 1).
pub fn least_flanked(
    view: &View,
    side: u8,
    ends: &[ReachEnd],
    face: Option<Cell>,
) -> Option<ReachEnd> {
    let mut threats: Vec<(Cell, Vec<Cell>)> = Vec::new();
    ends.iter()
        .map(|e| {
            let k = match threats.iter().position(|(c, _)| *c == e.cell) {
                Some(k) => k,
                None => {
                    threats.push((e.cell, threats_at(view, side, e.cell)));
                    threats.len() - 1
                }
            };
            let flanked = flankers(view.grid, e.cell, e.facing, &threats[k].1);
            (
                (
                    flanked,
                    facing_error(view.grid, e.cell, e.facing, face),
                    e.cost,
                ),
                *e,
            )
        })
        .min_by_key(|x| x.0)
        .map(|x| x.1)
}

/// The `ends` whose `key` is the best (least), in their order.
pub fn best_ends<K: Ord + Copy>(
    ends: impl Iterator<Item = ReachEnd>,
    key: impl Fn(&ReachEnd) -> K,
) -> Vec<ReachEnd> {
    let mut best: Option<K> = None;
    let mut out = Vec::new();
    for e in ends {
        let k = key(&e);
        match best {
            Some(b) if k > b => {}
            Some(b) if k == b => out.push(e),
            _ => {
                best = Some(k);
                out.clear();
                out.push(e);
            }
        }
    }
    out
}

/// A standing figure's turn in place that leaves fewer threatening enemies on its flanks or
/// rear, if it has any there now and can turn (a halted mount cannot, H2/H3).
pub fn turn_from_flank(world: &mut World, view: &View, f: &FigView) -> Option<Order> {
    let threats = threats_at(view, f.side, f.cell);
    // In contact it is held (D16): no reachable area to ask for.
    if threats.iter().any(|&t| view.dist(f.cell, t) <= 1)
        || flankers(view.grid, f.cell, f.facing, &threats) == 0
    {
        return None;
    }
    let (_, reach) = reach_with(world, f.entity, Mp::ZERO)?;
    let end = turn_in_place(view, f, &reach, &threats, None)?;
    move_to(f, &reach, &end)
}

/// The end at the figure's own cell that leaves fewer of `threats` on its flanks or rear than
/// now, the fewest (then facing `face` best, then the cheapest); `None` when no turn does.
fn turn_in_place(
    view: &View,
    f: &FigView,
    reach: &Reach,
    threats: &[Cell],
    face: Option<Cell>,
) -> Option<ReachEnd> {
    let now = flankers(view.grid, f.cell, f.facing, threats);
    reach
        .ends()
        .iter()
        .filter(|e| e.cell == f.cell)
        .map(|e| {
            let key = (
                flankers(view.grid, e.cell, e.facing, threats),
                facing_error(view.grid, e.cell, e.facing, face),
                e.cost,
            );
            (key, *e)
        })
        .filter(|(key, _)| key.0 < now)
        .min_by_key(|x| x.0)
        .map(|x| x.1)
}

/// The baseline's move for one figure of a unit with `intent`, given the reach it has now.
/// `toward` is the field of the unit's goal (the nearest enemies, or one enemy) and `enemies`
/// the field of all enemies (for moving away).
pub fn baseline_move(
    world: &mut World,
    view: &View,
    cache: &mut FieldCache,
    f: &FigView,
    intent: &Intent,
    goal: &[Cell],
) -> Option<Order> {
    let face = if intent.face_enemy {
        nearest_enemy_of(view, f)
    } else {
        None
    };
    match intent.conduct {
        Conduct::Stand => {
            if !intent.face_enemy {
                return turn_from_flank(world, view, f);
            }
            if !needs_turn(view, f) {
                return None;
            }
            let (_, reach) = reach_with(world, f.entity, Mp::ZERO)?;
            let end = turn_to_face(view, f, &reach, face)?;
            move_to(f, &reach, &end)
        }
        Conduct::Advance { .. } => {
            let (setup, reach) = reach_with(world, f.entity, Mp::ZERO)?;
            if goal.is_empty() {
                return None;
            }
            let field = cache.get(&view.board, goal, &setup.mover.mult, &[f.cell]);
            let here = field.at(f.cell);
            // As near the goal as it gets; there, facing the nearest enemy when told to,
            // and offering the fewest threats a flank.
            let nearest = best_ends(
                reach
                    .ends()
                    .iter()
                    .filter(|e| field.at(e.cell) < here.min(FAR))
                    .copied(),
                |e| {
                    (
                        field.at(e.cell),
                        facing_error(view.grid, e.cell, e.facing, face),
                    )
                },
            );
            let end = least_flanked(view, f.side, &nearest, face);
            match end {
                Some(e) => move_to(f, &reach, &e),
                None => turn_to_face(view, f, &reach, face).and_then(|e| move_to(f, &reach, &e)),
            }
        }
        // A mount heading at the enemy turns about first rather than backing away, so it
        // can ride off next half-move (H3: only a walking horse pivots).
        Conduct::Retire { .. } if must_turn_first(view, f, true) => {
            let (_, reach) = reach_with(world, f.entity, Mp::ZERO)?;
            match turn_away(view, f, &reach) {
                Some(end) => move_to(f, &reach, &end),
                None => away(world, view, cache, f),
            }
        }
        Conduct::Retire { .. } => away(world, view, cache, f),
        Conduct::Cover => cover(world, view, cache, f),
    }
}

/// Cells of every enemy in the fight.
pub fn enemy_cells(view: &View, side: u8) -> Vec<Cell> {
    view.enemy_cells(side)
}

/// True when a figure at `at` facing `facing` turns its back on `enemy`: the enemy is more
/// than a quarter turn off its facing (behind its shoulders).
pub fn back_to(grid: GridKind, at: Cell, facing: Dir, enemy: Option<Cell>) -> bool {
    facing_error(grid, at, facing, enemy) > grid.dirs() as i32 / 4
}

/// "Away from all enemies": an end farther (by the terrain) from the nearest enemy. Our
/// reading (issue 13, "retiring units keep their faces to the enemy where the rules allow"):
/// the farthest end that still faces the nearest enemy (backing off, or turning at the end of
/// the move) when there is one; only when every end farther away turns the figure's back —
/// a trotting or faster horse cannot back up or pivot (H2, H3) — the farthest of those.
pub fn away(world: &mut World, view: &View, cache: &mut FieldCache, f: &FigView) -> Option<Order> {
    let (setup, reach) = reach_with(world, f.entity, Mp::ZERO)?;
    let sources = enemy_cells(view, f.side);
    if sources.is_empty() {
        return None;
    }
    let field = cache.get(&view.board, &sources, &setup.mover.mult, &[]);
    let here = field.at(f.cell);
    let enemy = nearest_enemy_from(view, f.side, f.cell);
    let farthest = best_ends(
        reach
            .ends()
            .iter()
            .filter(|e| field.at(e.cell) > here)
            .copied(),
        |e| {
            let facing = !back_to(view.grid, e.cell, e.facing, enemy);
            std::cmp::Reverse((facing, field.at(e.cell)))
        },
    );
    // With nowhere farther to go (the map's edge, or hemmed in), it stands at bay: it turns
    // to offer the enemy as little flank as it can, rather than its back.
    let end = least_flanked(view, f.side, &farthest, None)
        .or_else(|| turn_in_place(view, f, &reach, &threats_at(view, f.side, f.cell), enemy))?;
    move_to(f, &reach, &end)
}

/// The enemy of `side` nearest to `cell` (ties by id), as [`nearest_enemy_of`] measures it.
fn nearest_enemy_from(view: &View, side: u8, cell: Cell) -> Option<Cell> {
    view.enemies(side)
        .min_by_key(|e| (view.dist(cell, e.cell), e.id.clone()))
        .map(|e| e.cell)
}

/// The end at the figure's own cell that turns its back to the nearest enemy the most, if
/// that is more than now: a horse that cannot ride away yet turns about (H3).
pub fn turn_away(view: &View, f: &FigView, reach: &Reach) -> Option<ReachEnd> {
    let from = nearest_enemy_of(view, f);
    let now = facing_error(view.grid, f.cell, f.facing, from);
    reach
        .ends()
        .iter()
        .filter(|e| e.cell == f.cell)
        .map(|e| (facing_error(view.grid, e.cell, e.facing, from), e.cost, *e))
        .filter(|(err, _, _)| *err > now)
        .max_by_key(|(err, cost, _)| (*err, std::cmp::Reverse(*cost)))
        .map(|x| x.2)
}

/// I2 "walk to take cover in the nearest accessible terrain within 1 move": the cheapest
/// cover cell the figure reaches with this half-move and the next (one whole move), walked
/// towards as far as this half-move allows; with none, away from all enemies.
pub fn cover(world: &mut World, view: &View, cache: &mut FieldCache, f: &FigView) -> Option<Order> {
    if crate::rules::risk::in_cover(&view.board, f.cell) {
        // Staying, it may still turn to keep its flanks from the enemy (I1).
        return turn_from_flank(world, view, f);
    }
    let first_half = view.phase == Phase::FirstHalfMove;
    let basis = {
        let m = mount_of(world, f.entity).unwrap_or(f.entity);
        world.get::<Allowance>(m).map_or(Mp::ZERO, |a| a.basis)
    };
    let extra = if first_half { basis } else { Mp::ZERO };
    let (setup, reach) = reach_with(world, f.entity, extra)?;
    let target = reach
        .cells()
        .into_iter()
        .filter(|e| crate::rules::risk::in_cover(&view.board, e.cell))
        .min_by_key(|e| (e.cost, e.cell))
        .and_then(|e| reach.cheapest_at(e.cell).copied());
    let Some(target) = target else {
        return away(world, view, cache, f);
    };
    // Reached this half-move, it arrives facing so as to offer the fewest threats a flank.
    let arrivals: Vec<ReachEnd> = reach
        .ends()
        .iter()
        .filter(|e| e.cell == target.cell && e.cost <= setup.left)
        .copied()
        .collect();
    if let Some(end) = least_flanked(view, f.side, &arrivals, None) {
        return move_to(f, &reach, &end);
    }
    let steps = reach.path(&target);
    let board = &world.resource::<Map>().0;
    let steps = prefix_within(board, &setup.mover, setup.pose, &steps, setup.left);
    (!steps.is_empty()).then(|| Order::Move {
        unit: f.id.clone(),
        steps,
    })
}
