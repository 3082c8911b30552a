//! The fire phases in the ECS (D3–D5): the six sub-steps — winner casts, loser casts, winner
//! fires, loser fires, winner's other activities, loser's — each ended by the side's
//! `EndSide`; a side with nothing it could do is passed with a log line. `Fire` and `Cast`
//! orders are checked by `rules::fire` and resolved with the melee's own resolver (or, in
//! `asl`, the house fire table) on the game's seeded dice. D4: a figure on foot that shot or
//! cast moves at half in the half-move after (the ruleset's `FiredFirst` activity), and a
//! crossbow that shot reloads through that half-move without moving.

use super::components::*;
use super::melee::kept_fight;
use super::order::Refusal;
use super::phase::{Phase, TurnState, log_now};
use super::world::Rules;
use crate::rules::fire::{self as rf, ShooterFacts, ShotOdds, SubStep};
use crate::rules::melee::fight::Fight;
use crate::rules::melee::tables::{Caster, SpellTarget, tables};
use crate::rules::mp::Frac;
use crate::rules::ruleset::{Activity, Penalty, TroopType};
use crate::sim::queries::with_query;
use bevy::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

mod act;

pub use act::unsettle;
pub(crate) use act::{cast, end_step, fire as shoot};

pub use super::phase::FireStep;

/// What the fire phases remember across sub-steps and into the half-moves.
#[derive(Resource, Default, Debug)]
pub struct FireBook {
    /// Shots loosed in the current fire phase, by figure (D3/D5).
    shots: BTreeMap<Entity, u8>,
    /// Figures that cast this turn (D5: no second spell), and the turn it is.
    cast_turn: BTreeSet<Entity>,
    turn: u32,
    /// Figures that shot or cast in the last fire phase (D4: half move on foot).
    acted: BTreeSet<Entity>,
    /// Crossbows that shot in the last fire phase (D4: reloading, no movement).
    reloading: BTreeSet<Entity>,
    /// The acting side shot or cast in the current sub-step.
    acted_in_step: bool,
    /// The sub-step (index) whose start was last written to the log.
    announced: Option<u8>,
    /// The game waits in the current sub-step and no order came since it was checked: the
    /// phase system has nothing to look at again (the window runs it every frame).
    settled: bool,
    /// What each side could do in each kind of sub-step, as far as looked at in this fire
    /// phase: kept until an order other than a sub-step's end comes (issue 15: a replay asked
    /// it of every figure on every `EndSide`).
    could: Vec<(SubStep, u8, bool)>,
}

/// The fire phase the game is in, if it is in one.
pub(crate) fn fire_phase_of(world: &World) -> Option<Phase> {
    let p = *world.resource::<State<Phase>>().get();
    matches!(p, Phase::FireFirst | Phase::FireSecond).then_some(p)
}

/// The sub-step the game waits in now, if it waits in a fire phase.
pub fn current_step(world: &World) -> Option<FireStep> {
    fire_phase_of(world)?;
    world.resource::<TurnState>().fire
}

/// True when the game waits for a side's `Fire`, `Cast` or `EndSide`.
pub fn waiting(world: &World) -> bool {
    current_step(world).is_some()
}

fn step_at(move_order: &[u8], index: u8) -> Option<FireStep> {
    let n = move_order.len().max(1);
    let kind = *SubStep::ORDER.get(index as usize / n)?;
    let side = *move_order.get(index as usize % n)?;
    Some(FireStep { index, kind, side })
}

/// What `rules::fire` needs to know about fighter `i` beyond the fight (K2 troop, shots left
/// this half, the ASL firepower and states).
pub(crate) fn facts_of(
    world: &World,
    fight: &Fight,
    entities: &[Entity],
    i: usize,
) -> ShooterFacts {
    let e = entities[i];
    let asl = world.resource::<Rules>().0.asl.is_some();
    let half = world.resource::<State<Phase>>().get().half();
    let used = world
        .get_resource::<FireBook>()
        .and_then(|b| b.shots.get(&e).copied())
        .unwrap_or(0);
    let per_half = if asl {
        1
    } else {
        fight.fighters[i]
            .in_hand(tables())
            .filter(|w| w.is_missile())
            .map_or(0, |w| rf::shots_in_half(w.shots, half))
    };
    let cav = world.get::<AslCavalry>(e);
    let mount = world.get::<RidingOn>(e).map(|r| r.0);
    ShooterFacts {
        troop: world.get::<Troop>(e).map_or(TroopType::Foot, |t| t.0),
        shots_left: per_half.saturating_sub(used),
        asl_fp: asl.then(|| crate::sim::cavalry::asl_charge::fp_of(world, e)),
        charged: cav.is_some_and(|c| c.charged),
        broken: cav.is_some_and(|c| c.broken),
        cx: mount
            .and_then(|m| world.get::<AslHorse>(m))
            .is_some_and(|h| h.cx),
    }
}

/// True when fighter `i` could loose a shot at someone now, ignoring whose sub-step it is.
/// The first allowed target will do: the others are not checked (each refused target
/// formats its reason, and the fire phase asks this of every figure every turn).
fn could_shoot(world: &World, fight: &Fight, entities: &[Entity], i: usize) -> bool {
    let f = &fight.fighters[i];
    if f.is_mount() || !f.is_up() {
        return false;
    }
    let facts = facts_of(world, fight, entities, i);
    if facts.shots_left == 0 {
        return false;
    }
    // Only targets within its reach can be shot (check_shot refuses the others for range).
    let Some(reach) = rf::farthest_shot(fight, tables(), i, &facts) else {
        return false;
    };
    (0..fight.fighters.len())
        .filter(|&j| fight.fighters[j].side != f.side && !fight.fighters[j].is_mount())
        .filter(|&j| fight.distance(i, j) <= reach)
        .any(|j| rf::check_shot(fight, tables(), i, j, &facts).is_ok())
}

/// True when fighter `i` could cast one of its spells at someone now.
fn could_cast(world: &World, fight: &Fight, entities: &[Entity], i: usize) -> bool {
    let f = &fight.fighters[i];
    if f.profile.caster == Caster::None || f.is_mount() || !f.is_up() {
        return false;
    }
    let done = world
        .get_resource::<FireBook>()
        .is_some_and(|b| b.cast_turn.contains(&entities[i]));
    if done {
        return false;
    }
    let t = tables();
    f.profile.spells.iter().any(|s| {
        let selfish = t
            .spells
            .get(s)
            .is_some_and(|x| x.target != SpellTarget::Enemy);
        (selfish && rf::check_cast(fight, t, i, s, None, false).is_ok())
            || fight.fighters.iter().any(|g| {
                !g.is_mount() && rf::check_cast(fight, t, i, s, Some(&g.id), false).is_ok()
            })
    })
}

/// True when `side` has something it could do in a sub-step of `kind`. Other activities are
/// paid with the `Activity` order in the half-move (our reading), so nothing waits for them.
fn side_could(world: &World, fight: &Fight, entities: &[Entity], kind: SubStep, side: u8) -> bool {
    let mine = (0..fight.fighters.len()).filter(|&i| fight.fighters[i].side == side);
    match kind {
        SubStep::Cast => mine
            .into_iter()
            .any(|i| could_cast(world, fight, entities, i)),
        SubStep::Fire => mine
            .into_iter()
            .any(|i| could_shoot(world, fight, entities, i)),
        SubStep::Misc => false,
    }
}

/// [`side_could`], from the phase's notes when they hold it; the fight model is read (into
/// `model`) only when they do not.
fn side_could_noted(
    world: &mut World,
    model: &mut Option<(Arc<Fight>, Arc<[Entity]>)>,
    kind: SubStep,
    side: u8,
) -> bool {
    let noted = world
        .resource::<FireBook>()
        .could
        .iter()
        .find(|(k, s, _)| *k == kind && *s == side)
        .map(|n| n.2);
    if let Some(c) = noted {
        return c;
    }
    let (fight, entities) = match model {
        Some(m) => m,
        None => model.insert(kept_fight(world)),
    };
    let c = side_could(world, fight, entities, kind, side);
    world.resource_mut::<FireBook>().could.push((kind, side, c));
    c
}

/// True when every note of what a side could do in this fire phase equals a fresh look at
/// the world (the tests check the notes after every order of whole games).
pub fn notes_hold(world: &mut World) -> bool {
    if fire_phase_of(world).is_none() {
        return true;
    }
    let notes = world
        .get_resource::<FireBook>()
        .map(|b| b.could.clone())
        .unwrap_or_default();
    if notes.is_empty() {
        return true;
    }
    let (fight, entities) = super::melee::read_fight(world);
    notes
        .iter()
        .all(|&(k, s, c)| side_could(world, &fight, &entities, k, s) == c)
}

/// D3: runs a fire phase: starts it, passes every sub-step whose side has nothing it could
/// do (with a log line), waits for the side that has, and moves on when all are done.
pub fn fire_phase(world: &mut World) {
    if !world.contains_resource::<FireBook>() {
        world.insert_resource(FireBook::default());
    }
    let Some(phase) = fire_phase_of(world) else {
        return;
    };
    if world.resource::<TurnState>().fire.is_some() && world.resource::<FireBook>().settled {
        return;
    }
    // The loop sets only the turn's fire step: the order of the sides, the turn and the
    // number of sides, copied once, serve every step (the side names are read when logged).
    let (order, fire, turn_no, sides) = {
        let t = world.resource::<TurnState>();
        (t.move_order.clone(), t.fire, t.turn, t.sides)
    };
    let mut model = None;
    let total = (SubStep::ORDER.len() * order.len().max(1)) as u8;
    let mut index = match fire {
        Some(s) => s.index,
        None => {
            // A new fire phase: the shots of the half start afresh; a new turn's casts too.
            let mut book = world.resource_mut::<FireBook>();
            book.shots.clear();
            book.announced = None;
            book.acted_in_step = false;
            book.could.clear();
            if book.turn != turn_no {
                book.turn = turn_no;
                book.cast_turn.clear();
            }
            let anyone = (0..sides).any(|s| {
                [SubStep::Cast, SubStep::Fire]
                    .iter()
                    .any(|&k| side_could_noted(world, &mut model, k, s))
            });
            if !anyone {
                log_now(
                    world,
                    "Nobody can cast a spell or shoot: the fire phase passes (D3).".into(),
                );
                finish(world, phase);
                return;
            }
            0
        }
    };
    loop {
        let Some(step) = step_at(&order, index).filter(|_| index < total) else {
            finish(world, phase);
            return;
        };
        if step.kind != SubStep::Misc && side_could_noted(world, &mut model, step.kind, step.side) {
            world.resource_mut::<TurnState>().fire = Some(step);
            let announce = {
                let mut book = world.resource_mut::<FireBook>();
                let new = book.announced != Some(step.index);
                book.announced = Some(step.index);
                book.settled = true;
                new
            };
            if announce {
                let name = world.resource::<TurnState>().side_name(step.side);
                log_now(
                    world,
                    format!("{name} {} (D3).", step.kind.label_for(&name)),
                );
            }
            return;
        }
        let name = world.resource::<TurnState>().side_name(step.side);
        let acted = std::mem::take(&mut world.resource_mut::<FireBook>().acted_in_step);
        let plural = crate::rules::words::SideWords(&name).plural();
        let why = match (step.kind, plural) {
            (SubStep::Cast, false) if acted => {
                "has no other spell it could cast: its sub-step ends"
            }
            (SubStep::Cast, true) if acted => {
                "have no other spell they could cast: their sub-step ends"
            }
            (SubStep::Cast, false) => "has no spell it could cast: passes",
            (SubStep::Cast, true) => "have no spell they could cast: pass",
            (SubStep::Fire, false) if acted => {
                "has no other shot it could loose: its sub-step ends"
            }
            (SubStep::Fire, true) if acted => {
                "have no other shot they could loose: their sub-step ends"
            }
            (SubStep::Fire, false) => "has nothing it could shoot at: passes",
            (SubStep::Fire, true) => "have nothing they could shoot at: pass",
            (SubStep::Misc, false) => {
                "does its other activities in its half-move (Activity orders): passes"
            }
            (SubStep::Misc, true) => {
                "do their other activities in their half-move (Activity orders): pass"
            }
        };
        log_now(world, format!("{name} {why} (D3)."));
        index += 1;
        world.resource_mut::<TurnState>().fire = step_at(&order, index);
    }
}

/// The end of a fire phase: A16's "no advancing fire" is spent, and the half-move comes.
fn finish(world: &mut World, phase: Phase) {
    world.resource_mut::<TurnState>().fire = None;
    with_query::<&mut AslCavalry, (), _>(world, |world, q| {
        for mut c in q.iter_mut(world) {
            if c.charged {
                c.charged = false;
            }
        }
    });
    world.resource_mut::<NextState<Phase>>().set(phase.next());
}

/// D4, on entering a half-move: figures on foot that shot or cast in the fire phase before it
/// move at half (as the ruleset's `FiredFirst` activity says; mounted figures are exempt), and
/// a crossbow that shot reloads through the half-move and does not move.
pub fn after_fire(world: &mut World) {
    // D4: last half-move's reloading is done.
    let done: Vec<Entity> = world
        .query_filtered::<Entity, With<Reloading>>()
        .iter(world)
        .collect();
    for e in done {
        world.entity_mut(e).remove::<Reloading>();
    }
    let Some(mut book) = world.remove_resource::<FireBook>() else {
        return;
    };
    let rules = world.resource::<Rules>().0.clone();
    let halve = matches!(
        rules.activities.get(&Activity::FiredFirst),
        Some(Penalty::HalveAllowance)
    );
    for &e in &book.acted {
        if world.get_entity(e).is_err() || world.get::<RidingOn>(e).is_some() || !halve {
            continue;
        }
        let Some(mut a) = world.get_mut::<Allowance>(e) else {
            continue;
        };
        let basis = a.basis.scale(Frac::new(1, 2));
        *a = Allowance {
            basis,
            left: basis,
            used_any: a.used_any,
        };
        let id = world
            .get::<FigureId>(e)
            .map(|f| f.0.clone())
            .unwrap_or_default();
        log_now(
            world,
            format!("{id} shot or cast before moving: its move is halved to {basis} (D4)."),
        );
    }
    for &e in &book.reloading {
        if world.get_entity(e).is_err() {
            continue;
        }
        let m = world.get::<RidingOn>(e).map_or(e, |r| r.0);
        if let Some(mut a) = world.get_mut::<Allowance>(m) {
            a.left = crate::rules::mp::Mp::ZERO;
        }
        if let Some(mut s) = world.get_mut::<CombatStatus>(e) {
            s.0.unloaded = false;
        }
        let id = world
            .get::<FigureId>(e)
            .map(|f| f.0.clone())
            .unwrap_or_default();
        let weapon = world
            .get::<Weapon>(e)
            .map_or_else(|| "weapon".to_string(), |w| w.0.clone());
        world.entity_mut(e).insert(Reloading(weapon.clone()));
        log_now(
            world,
            format!("{id} reloads its {weapon}: no movement this half-move (D4)."),
        );
    }
    book.acted.clear();
    book.reloading.clear();
    world.insert_resource(book);
}

fn lookup(fight: &Fight, id: &str) -> Result<usize, Refusal> {
    let i = fight
        .index_of(id)
        .ok_or_else(|| Refusal(format!("there is no figure {id:?}")))?;
    let f = &fight.fighters[i];
    Ok(match f.rider {
        Some(r) if f.is_mount() && fight.fighters[r].mount == Some(i) => r,
        _ => i,
    })
}

/// The odds of one shot by `shooter` at `target`, after every check the `Fire` order makes
/// (the sub-step and side included): the numbers the resolution rolls against.
pub fn fire_odds(world: &mut World, shooter: &str, target: &str) -> Result<ShotOdds, Refusal> {
    let (fight, entities) = kept_fight(world);
    let i = lookup(&fight, shooter)?;
    act::check_turn(world, &fight, i, SubStep::Fire)?;
    let j = lookup(&fight, target)?;
    let facts = facts_of(world, &fight, &entities, i);
    let plan = rf::check_shot(&fight, tables(), i, j, &facts).map_err(Refusal)?;
    Ok(rf::shot_odds(&fight, tables(), &plan, &facts))
}

/// Every enemy of `shooter` with the odds of a shot at it now, or why it may not be shot.
pub fn targets(world: &mut World, shooter: &str) -> Vec<(String, Result<ShotOdds, Refusal>)> {
    let (fight, _) = kept_fight(world);
    let Ok(i) = lookup(&fight, shooter) else {
        return Vec::new();
    };
    let side = fight.fighters[i].side;
    let ids: Vec<String> = fight
        .fighters
        .iter()
        .filter(|f| f.side != side && !f.is_mount())
        .map(|f| f.id.clone())
        .collect();
    ids.into_iter()
        .map(|t| {
            let r = fire_odds(world, shooter, &t);
            (t, r)
        })
        .collect()
}

/// The chance of `spell` by `caster` on `target` taking effect, after every check the `Cast`
/// order makes.
pub fn cast_odds(
    world: &mut World,
    caster: &str,
    spell: &str,
    target: Option<&str>,
) -> Result<i32, Refusal> {
    let (fight, entities) = kept_fight(world);
    let i = lookup(&fight, caster)?;
    let cast = world
        .get_resource::<FireBook>()
        .is_some_and(|b| b.cast_turn.contains(&entities[i]));
    rf::check_cast(&fight, tables(), i, spell, target, cast).map_err(Refusal)?;
    act::check_turn(world, &fight, i, SubStep::Cast)?;
    rf::cast_chance(tables(), spell).ok_or_else(|| {
        Refusal(format!(
            "D3: there is no spell {spell:?} in data/combat.ron; name one the caster knows"
        ))
    })
}

/// Shots `unit` may still loose in this half (D3/D5), or `None` for no such figure.
pub fn shots_left(world: &mut World, unit: &str) -> Option<u8> {
    let (fight, entities) = kept_fight(world);
    let i = lookup(&fight, unit).ok()?;
    Some(facts_of(world, &fight, &entities, i).shots_left)
}

/// The figures of `side` (riders and foot, by id) with shots left this half (D3/D5), from one
/// look at the field: the AI asks this once per order rather than once per figure.
pub fn shooters_with_shots(world: &mut World, side: u8) -> Vec<(String, u8)> {
    let (fight, entities) = kept_fight(world);
    let mut v: Vec<(String, u8)> = (0..fight.fighters.len())
        .filter(|&i| fight.fighters[i].side == side && !fight.fighters[i].is_mount())
        .filter_map(|i| {
            let n = facts_of(world, &fight, &entities, i).shots_left;
            (n > 0).then(|| (fight.fighters[i].id.clone(), n))
        })
        .collect();
    v.sort();
    v
}

/// I3 (the AI): the enemy nearest to `unit`, figure to figure, and whether a shot at it is
/// allowed now. `None` when it has no enemy or nothing to shoot with.
pub fn nearest_target(world: &mut World, unit: &str) -> Option<(String, bool)> {
    let (fight, entities) = kept_fight(world);
    let i = lookup(&fight, unit).ok()?;
    let j = rf::nearest_enemy(&fight, i)?;
    let facts = facts_of(world, &fight, &entities, i);
    let ok = facts.shots_left > 0 && rf::check_shot(&fight, tables(), i, j, &facts).is_ok();
    Some((fight.fighters[j].id.clone(), ok))
}
