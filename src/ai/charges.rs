//! Charge declarations and answers (D2, C1, C5) by the AI (I2 "charge if eligible", I4).
//!
//! A mounted figure whose unit the table told to charge ("Charge?") declares one against an
//! enemy the charge rules let it reach — `charge_targets`, the very list the validator
//! checks — and every other one writes "no charge". A figure charged by the enemy answers
//! once the charges are revealed.
//!
//! Hidden information: the declarations are face down until revealed together. This module
//! reads only who must still declare (public: the log names them) and, after the reveal, who
//! charges whom (public: the reveal is in the log). It never looks at a declaration before
//! the reveal.

use super::AiLevel;
use super::command;
use crate::rules::charge::ride::Reply;
use crate::rules::melee::cards::{MeleeCard, TacCard};
use crate::sim::Game;
use crate::sim::action_roll::ActionRolls;
use crate::sim::charge::{Stage, awaiting_ids, charge_arrives, charge_targets};
use crate::sim::order::Order;
use crate::sim::phase::{Phase, TurnState};
use crate::sim::side_asks as asks;
use crate::sim::view::View;
use bevy::prelude::*;
use std::collections::BTreeSet;

/// The figures of `side` the charge phase waits for, with the stage.
fn waiting_of(world: &World, side: u8, view: &View) -> Vec<String> {
    awaiting_ids(world)
        .into_iter()
        .filter(|id| view.figs.iter().any(|f| &f.id == id && f.side == side))
        .collect()
}

/// True when the charge phase waits for a figure of `side`.
pub fn side_waits(world: &mut World, side: u8) -> bool {
    let phase = *world.resource::<State<Phase>>().get();
    if phase != Phase::ChargeDeclaration || awaiting_ids(world).is_empty() {
        return false;
    }
    let view = View::build(world);
    !waiting_of(world, side, &view).is_empty()
}

/// Whether the unit of figure `id` was told to charge if eligible this turn.
fn told_to_charge(world: &World, view: &View, id: &str, level: AiLevel) -> bool {
    let turn = world.resource::<TurnState>().turn;
    let Some(g) = view.figs.iter().find(|f| f.id == id).and_then(|f| f.group) else {
        return false;
    };
    if command::led(level, view, g) {
        return command::intent(world, view, g, id).charge;
    }
    let unit = &view.groups[g].name;
    world
        .get_resource::<ActionRolls>()
        .and_then(|r| r.of_unit(unit, turn))
        .is_some_and(|r| r.intent.charge)
}

/// The expected share of `target`'s body points one blow of `unit` takes (melee odds).
fn blow_share(
    world: &mut World,
    view: &View,
    unit: &str,
    target: &str,
    assumed: &[MeleeCard],
) -> i64 {
    let card = MeleeCard::DeliverBlow {
        target: target.to_string(),
    };
    let Some(o) = crate::sim::melee::odds(world, unit, target, &card, assumed) else {
        return 0;
    };
    let body = view
        .figs
        .iter()
        .find(|f| f.id == target)
        .map_or(1, |f| f.body_left.max(1) as i64);
    let mean = (o.damage.0 + o.damage.1).max(0) as i64 * 50;
    o.chance.max(0) as i64 * mean / body
}

/// The declaration for `id`: the nearest enemy it may charge (the stronger AI: the one its
/// blow hurts most), or no charge.
fn declaration(world: &mut World, view: &View, id: &str, level: AiLevel, strong: bool) -> Order {
    if !told_to_charge(world, view, id, level) {
        return Order::NoCharge {
            unit: id.to_string(),
        };
    }
    let Some(me) = view.figs.iter().find(|f| f.id == id).cloned() else {
        return Order::NoCharge {
            unit: id.to_string(),
        };
    };
    let ok: Vec<String> = charge_targets(world, id)
        .into_iter()
        .filter(|(_, r)| r.is_ok())
        .map(|(t, _)| t)
        .collect();
    // A leader prefers a charge that arrives (issue 31, item 2): one that falls short spends
    // the horse's half-move on a straight run and is released (C6).
    let led = me.group.is_some_and(|g| command::led(level, view, g));
    let arrives = if led {
        charge_arrives(world, id)
    } else {
        Vec::new()
    };
    // A leader's charge serves the side (issue 31, item 2): an enemy its objectives hunt
    // first, all on it together; otherwise one its side-mates have not charged yet.
    let (hunted, taken) = if led {
        (
            command::hunted(world, view, me.side),
            charged_by_side(world, me.side),
        )
    } else {
        Default::default()
    };
    let mut scored: Vec<(bool, bool, usize, i64, i32, String)> = Vec::new();
    for t in ok {
        let Some(e) = view.figs.iter().find(|f| f.id == t) else {
            continue;
        };
        let d = view.dist(me.cell, e.cell);
        let s = if strong {
            blow_share(world, view, id, &t, &[])
        } else {
            0
        };
        let wanted = hunted.contains(&t);
        let piled = if wanted {
            0
        } else {
            taken.iter().filter(|x| **x == t).count()
        };
        let short = led && !arrives.contains(&t);
        scored.push((short, !wanted, piled, -s, d, t));
    }
    scored.sort();
    match scored.into_iter().next() {
        Some((.., t)) => Order::DeclareCharge {
            unit: id.to_string(),
            targets: vec![t],
        },
        None => Order::NoCharge {
            unit: id.to_string(),
        },
    }
}

/// The targets the figures of `side` have declared so far this turn, once per declaration: its
/// own side's orders, which it wrote itself (the enemy's stay face down, C1).
fn charged_by_side(world: &mut World, side: u8) -> Vec<String> {
    asks::own_charges(world, side)
        .into_iter()
        .flat_map(|(_, ts)| ts)
        .collect()
}

/// The answer of a charged figure: STAND GROUND and a DELIVER BLOW (the baseline); the
/// stronger AI weighs its blow against the parries by the melee odds against each charger.
fn answer(world: &mut World, view: &View, id: &str, strong: bool) -> Order {
    let plain = Order::AnswerCharge {
        unit: id.to_string(),
        tac: TacCard::StandGround,
        reply: Reply::DeliverBlow,
    };
    if !strong {
        return plain;
    }
    // After the reveal the declarations are public (the log lists them).
    let chargers: Vec<String> = if asks::charge_stage(world) == Some(Stage::Answering) {
        asks::chargers_of(world, id)
    } else {
        Vec::new()
    };
    let Some(c) = chargers.first() else {
        return plain;
    };
    let hit_back = chargers
        .iter()
        .map(|c| blow_share(world, view, id, c, &[]))
        .max()
        .unwrap_or(0);
    let threat = |world: &mut World, d: &[MeleeCard]| blow_share(world, view, c, id, d);
    let open = threat(world, &[]);
    let mut best = (hit_back - open, Reply::DeliverBlow);
    let shield = shield_of(world, id);
    for (card, reply) in [
        (MeleeCard::WeaponParry, Reply::WeaponParry),
        (MeleeCard::ActiveShieldParry, Reply::ActiveShieldParry),
        (MeleeCard::DesperateDefense, Reply::DesperateDefense),
    ] {
        if reply == Reply::ActiveShieldParry && !shield {
            continue;
        }
        let v = -threat(world, &[card]);
        if v > best.0 {
            best = (v, reply);
        }
    }
    Order::AnswerCharge {
        unit: id.to_string(),
        tac: TacCard::StandGround,
        reply: best.1,
    }
}

fn shield_of(world: &mut World, id: &str) -> bool {
    crate::sim::world::find_figure(world, id)
        .and_then(|e| world.get::<crate::sim::components::Shield>(e))
        .is_some_and(|s| s.0)
}

/// The next charge-phase order for `side`, or `None` when the phase does not wait for it.
/// Every unit rolls on the actions table first (the table decides "charge if eligible").
pub fn next_charge_order(
    game: &mut Game,
    side: u8,
    level: AiLevel,
    tried: &mut BTreeSet<String>,
) -> Option<Order> {
    let world = game.app.world_mut();
    let view = View::build(world);
    for (gi, g) in view.groups.iter().enumerate() {
        // Rolls are noted apart from figures: a unit of one is named by its figure's id, and
        // a figure already in `tried` is not asked for its charge again (it wrote "no charge").
        let key = format!("roll {}", g.name);
        if g.side == side
            && !command::led(level, &view, gi)
            && !tried.contains(&key)
            && view.roll_this_turn(&g.name).is_none()
            && view.fighting(gi).next().is_some()
        {
            tried.insert(key);
            return Some(Order::ActionRoll {
                unit: g.name.clone(),
            });
        }
    }
    let stage = asks::charge_stage(world)?;
    let waiting = waiting_of(world, side, &view);
    let id = match next_to_order(waiting, tried, stage)? {
        Next::Choose(id) => id,
        Next::Plain(order) => return Some(order),
    };
    let strong = level != AiLevel::Table
        && view
            .figs
            .iter()
            .find(|f| f.id == id)
            .and_then(|f| f.group)
            .is_some_and(|g| command::is_commanded(&view, g));
    Some(match stage {
        Stage::Declaring => declaration(world, &view, &id, level, strong),
        _ => answer(world, &view, &id, strong),
    })
}

/// Whose charge orders or answer to give next (D2, C1, C5).
pub(super) enum Next {
    /// A figure not asked yet: choose its orders (it is marked as tried).
    Choose(String),
    /// Every waiting figure was tried and one is asked again because its order was refused:
    /// the plainest legal order for it, once.
    Plain(Order),
}

/// The next of `waiting` to give charge orders or an answer for; `None` when each was tried
/// and answered plainly already.
pub(super) fn next_to_order(
    waiting: Vec<String>,
    tried: &mut BTreeSet<String>,
    stage: Stage,
) -> Option<Next> {
    if let Some(id) = waiting.iter().find(|id| !tried.contains(*id)).cloned() {
        tried.insert(id.clone());
        return Some(Next::Choose(id));
    }
    let id = waiting
        .into_iter()
        .find(|id| tried.insert(format!("{id} (again)")))?;
    Some(Next::Plain(match stage {
        Stage::Declaring => Order::NoCharge { unit: id },
        _ => Order::AnswerCharge {
            unit: id,
            tac: TacCard::StandGround,
            reply: Reply::DeliverBlow,
        },
    }))
}
