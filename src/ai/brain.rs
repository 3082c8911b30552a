//! The AI's step-wise loop: one order at a time, each computed from the game as it stands,
//! so the window can play an AI side at a readable pace and every move sees the moves made
//! before it.
//!
//! Per side and per half-move it keeps only bookkeeping (which figures it has dealt with,
//! the distance fields of the enemies, who moves in what order); what units decided lives in
//! the game itself (the actions-table rolls), so nothing the AI needs is lost on undo or load.

use super::AiLevel;
use super::command;
use super::field::FieldCache;
use super::look::{self, note};
use super::plan::{self, gait_change, mount_of, wanted_gait};
use crate::rules::actions::Conduct;
use crate::rules::grid::Cell;
use crate::sim::Game;
use crate::sim::order::Order;
use crate::sim::phase::{Phase, TurnState};
use crate::sim::view::View;
use bevy::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// Where one side's AI stands in the current phase.
#[derive(Clone, Debug, Default)]
struct SideMemo {
    /// (turn, phase, melee round) this memo is for; a new one starts afresh.
    stamp: Option<(u32, Phase, u32)>,
    /// Units whose actions-table roll was asked for.
    rolled: BTreeSet<String>,
    /// Figures told to stand up this half-move.
    stood: BTreeSet<String>,
    /// Figures that have had their gait set this half-move.
    gaited: BTreeSet<String>,
    /// Figures dealt with this half-move.
    done: BTreeSet<String>,
    /// The order figures move in, decided at the start of the half-move.
    queue: Vec<String>,
    /// Every figure of `queue` before this index is `done`: the next order's search starts
    /// here (looking each one up again made a side-turn quadratic in its figures).
    done_upto: usize,
    /// Distance fields of this half-move (the enemies do not move while this side does).
    fields: FieldCache,
    /// Figures whose cards were sent this melee phase (a second ask gets a pass).
    tried: BTreeSet<String>,
}

/// The AI's bookkeeping, kept in the game world.
#[derive(Resource, Clone, Debug, Default)]
pub struct AiState {
    memos: BTreeMap<u8, SideMemo>,
    /// What the stronger AI chose for each unit this turn, for [`super::explain`].
    pub notes: BTreeMap<String, String>,
    /// The last turn each unit was played by its leader, not the table (the commander
    /// level), for [`super::explain`].
    pub led: BTreeMap<String, u32>,
}

/// Moves the computer's memory (its notes, its leaders' choices, the way the strongest level
/// chose) from a side's game that is thrown away to the one rebuilt in its place
/// ([`crate::sim::follow::Carry`]).
pub fn carry_thoughts(from: &mut Game, to: &mut Game) {
    let (old, new) = (from.app.world_mut(), to.app.world_mut());
    if let Some(s) = old.remove_resource::<AiState>() {
        new.insert_resource(s);
    }
    if let Some(p) = old.remove_resource::<super::portfolio::Portfolio>() {
        new.insert_resource(p);
    }
}

/// Sets the strength a side plays at: the computer is seated there (the seat lives in the
/// game, [`crate::sim::seat::Seats`], so the simulation keeps it without knowing the AI).
pub fn set_level(game: &mut Game, side: u8, level: AiLevel) {
    crate::sim::seat::seat(game.app.world_mut(), side, level);
}

/// The strength a side plays at (the baseline unless set).
pub fn level_of(game: &Game, side: u8) -> AiLevel {
    crate::sim::seat::strength_of(game.app.world(), side)
}

/// True when the game waits for `side` now: its half-move, its mounted figures' charge
/// declarations or answers, or its figures' cards in a melee.
pub fn side_may_act(world: &mut World, side: u8) -> bool {
    let phase = *world.resource::<State<Phase>>().get();
    if phase.is_half_move() {
        return world.resource::<TurnState>().side_to_move() == Some(side);
    }
    if phase == Phase::ChargeDeclaration {
        return super::charges::side_waits(world, side);
    }
    if matches!(phase, Phase::FireFirst | Phase::FireSecond) {
        return super::fire::side_waits(world, side);
    }
    super::cards::side_waits(world, side)
}

/// The next order for `side`, or `None` when the game does not wait for it.
pub fn next_order(game: &mut Game, side: u8) -> Option<Order> {
    let level = level_of(game, side);
    let world = game.app.world_mut();
    if !side_may_act(world, side) {
        return None;
    }
    if crate::sim::fire::waiting(world) {
        return super::fire::next_order(world, side);
    }
    // The commander may give its turn's moves to the way that played forward best.
    if let Some(order) = super::portfolio::delegate(game, side, level) {
        return order;
    }
    let world = game.app.world_mut();
    if !world.contains_resource::<AiState>() {
        world.insert_resource(AiState::default());
    }
    let turn = world.resource::<TurnState>().turn;
    let phase = *world.resource::<State<Phase>>().get();
    let mut memo = world
        .resource_mut::<AiState>()
        .memos
        .remove(&side)
        .unwrap_or_default();
    let round = crate::sim::side_asks::melee_round(world);
    if memo.stamp != Some((turn, phase, round)) {
        memo = SideMemo {
            stamp: Some((turn, phase, round)),
            ..Default::default()
        };
    }
    let order = if phase.is_half_move() {
        next_in_half_move(world, side, level, &mut memo)
    } else if phase == Phase::ChargeDeclaration {
        let mut tried = std::mem::take(&mut memo.tried);
        let o = super::charges::next_charge_order(game, side, level, &mut tried);
        memo.tried = tried;
        o
    } else {
        let mut tried = std::mem::take(&mut memo.tried);
        let o = super::cards::next_card_order(game, side, level, &mut tried);
        memo.tried = tried;
        o
    };
    game.app
        .world_mut()
        .resource_mut::<AiState>()
        .memos
        .insert(side, memo);
    order
}

fn next_in_half_move(
    world: &mut World,
    side: u8,
    level: AiLevel,
    memo: &mut SideMemo,
) -> Option<Order> {
    // The view is built once and brought up to date after each order, not rebuilt.
    crate::sim::view::with_view(world, |world, view| {
        half_move_order(world, view, side, level, memo)
    })
}

fn half_move_order(
    world: &mut World,
    view: &View,
    side: u8,
    level: AiLevel,
    memo: &mut SideMemo,
) -> Option<Order> {
    // I1/I2: every unit rolls on the table once a turn, before it moves.
    for (gi, g) in view.groups.iter().enumerate() {
        // A commanded unit at the commander's level is its leader's, not the table's.
        if g.side != side || memo.rolled.contains(&g.name) || command::led(level, view, gi) {
            continue;
        }
        if view.roll_this_turn(&g.name).is_some() || view.fighting(gi).next().is_none() {
            continue;
        }
        memo.rolled.insert(g.name.clone());
        return Some(Order::ActionRoll {
            unit: g.name.clone(),
        });
    }
    if memo.queue.is_empty() {
        memo.queue = move_order(view, side, &mut memo.fields);
        memo.done_upto = 0;
    }
    if level != AiLevel::Table {
        // Once a half-move (its stamp), and again when a figure has left the map (a rout
        // renumbers the view's figures, which the threats are indexed by).
        look::prepare(world, view, side, &mut memo.fields);
    }
    while memo
        .queue
        .get(memo.done_upto)
        .is_some_and(|id| memo.done.contains(id))
    {
        memo.done_upto += 1;
    }
    for qi in memo.done_upto..memo.queue.len() {
        if memo.done.contains(&memo.queue[qi]) {
            continue;
        }
        let id = memo.queue[qi].clone();
        // The view's figures are sorted by id: the first one of this id still up.
        let first = view.figs.partition_point(|f| f.id < id);
        let mut same_id = view.figs[first..].iter().take_while(|f| f.id == id);
        let Some(f) = same_id.find(|f| !f.down).cloned() else {
            memo.done.insert(id);
            continue;
        };
        let Some(gi) = f.group else {
            memo.done.insert(id);
            continue;
        };
        let led = command::led(level, view, gi).then(|| command::command(world, view, gi, &f.id));
        let rolled = view.roll_this_turn(&view.groups[gi].name).map(|r| r.intent);
        let Some(intent) = led.as_ref().map(|c| c.intent).or(rolled) else {
            memo.done.insert(id);
            continue;
        };
        match plan::fitness(world, f.entity) {
            plan::Fit::Free => {}
            plan::Fit::Held => {
                memo.done.insert(id);
                continue;
            }
            plan::Fit::MustStand => {
                if memo.stood.insert(id.clone())
                    && let Some(o) = plan::stand_up(world, &f)
                {
                    return Some(o);
                }
                memo.done.insert(id);
                continue;
            }
        }
        if !memo.gaited.contains(&id) {
            memo.gaited.insert(id.clone());
            if let Some(m) = mount_of(world, f.entity) {
                let want = wanted_gait(view, &f, &intent);
                if let Some(g) = gait_change(world, m, want, view.phase) {
                    return Some(Order::SetGait { unit: id, gait: g });
                }
            }
        }
        memo.done.insert(id.clone());
        let commanded = command::is_commanded(view, gi);
        let goal = led.as_ref().and_then(|c| {
            let unit = &view.groups[gi].name;
            note(world, unit, c.why.clone());
            if let Some(mut s) = world.get_resource_mut::<AiState>() {
                s.led.insert(unit.clone(), view.turn);
            }
            c.goal.clone()
        });
        let order = if let Some(goal) = goal {
            plan::baseline_move(world, view, &mut memo.fields, &f, &intent, &goal)
        } else if level != AiLevel::Table && commanded {
            look::choose_move(world, view, &mut memo.fields, &f, &intent)
        } else {
            let goal = goal_of(view, gi, &intent);
            plan::baseline_move(world, view, &mut memo.fields, &f, &intent, &goal)
        };
        if order.is_some() {
            return order;
        }
    }
    Some(Order::EndSide)
}

/// Where an advancing unit is going: every enemy (the field then leads to the nearest one),
/// or the nearest visible enemy alone for the RF 0 six.
pub fn goal_of(view: &View, g: usize, intent: &crate::rules::actions::Intent) -> Vec<Cell> {
    match intent.conduct {
        Conduct::Advance { visible: true, .. } => view
            .nearest_enemy(g, true)
            .or_else(|| view.nearest_enemy(g, false))
            .map(|(i, _)| vec![view.figs[i].cell])
            .unwrap_or_default(),
        _ => plan::enemy_cells(view, view.groups[g].side),
    }
}

/// The order a side's figures move in: unit by unit; in an advancing unit the figure nearest
/// the enemy goes first (it clears the way), in a retiring one the farthest.
fn move_order(view: &View, side: u8, cache: &mut FieldCache) -> Vec<String> {
    let enemies = plan::enemy_cells(view, side);
    let open = vec![Some(crate::rules::mp::Mp::ONE.raw()); view.board.terrains.len()];
    let field = cache.get(&view.board, &enemies, &open, &[]).clone();
    let mut out = Vec::new();
    for (gi, g) in view.groups.iter().enumerate() {
        if g.side != side {
            continue;
        }
        let retiring = view
            .roll_this_turn(&g.name)
            .is_some_and(|r| matches!(r.intent.conduct, Conduct::Retire { .. } | Conduct::Cover));
        let mut ids: Vec<(i64, String)> = view
            .fighting(gi)
            .map(|f| {
                let d = field.at(f.cell);
                (if retiring { -d } else { d }, f.id.clone())
            })
            .collect();
        ids.sort();
        out.extend(ids.into_iter().map(|x| x.1));
    }
    out
}
