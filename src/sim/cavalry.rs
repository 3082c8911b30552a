//! Cavalry orders in the movement phase: ASL's Charge (A16) with its fire on the house table
//! (A11, A12, A14) and bailing out (A13), the Cavalry Wave (A17), horse capacity and splitting
//! on mounting (A5), and led, captured horses in every ruleset (A18).

use super::components::*;
use super::dice::Dice;
use super::motion::setup_move;
use super::order::{Refusal, refuse};
use super::phase::log_events;
use super::phase::{Phase, TurnState, log_now};
use super::world::{Map, Rules, find_figure, sync_occupancy};
use crate::level::Level;
use crate::rules::asl_cavalry::{
    CHARGE_MF, Capacity, FireResult, HorseResult, Shot, UnitSize, WAVE_MF, WaveUnit, capacity,
    cavalry_mf_to, cavalry_wave_ok, charge_ok, fire_chance, fire_result, horse_chance,
    horse_result, may_lead,
};
use crate::rules::cavalry::tables;
use crate::rules::charge::sight;
use crate::rules::gait::Gait;
use crate::rules::grid::Cell;
use crate::rules::melee::Event;
use crate::rules::movement::Step;
use crate::rules::mp::Mp;
use crate::rules::ruleset::TroopType;
use crate::sim::queries::with_query;
use bevy::prelude::*;

/// Gives every figure its template key and its ASL cavalry state.
pub fn attach(world: &mut World, level: &Level) {
    for f in &level.figures {
        if let Some(e) = find_figure(world, &f.id) {
            world
                .entity_mut(e)
                .insert((TemplateKey(f.template_key.clone()), AslCavalry::default()));
        }
    }
}

/// The unit an order names (a mount's id means its rider), if it belongs to the side moving.
fn own(world: &mut World, id: &str) -> Result<Entity, Refusal> {
    let Some(mut e) = find_figure(world, id) else {
        return refuse(format!("there is no figure {id:?}"));
    };
    if let Some(c) = world.get::<CarriedBy>(e) {
        e = c.0;
    }
    let side = world.get::<SideId>(e).map_or(0, |s| s.0);
    if world.resource::<TurnState>().side_to_move() != Some(side) {
        return refuse(format!("D4: it is not {id}'s side's half-move"));
    }
    Ok(e)
}

fn is_riderless_horse(world: &World, e: Entity) -> bool {
    world
        .get::<Troop>(e)
        .is_some_and(|t| t.0 == TroopType::Horse)
        && world.get::<CarriedBy>(e).is_none()
        && world.get::<RidingOn>(e).is_none()
}

fn size_of(world: &World, e: Entity) -> UnitSize {
    let hero = world.get::<Quality>(e).is_some_and(|q| q.hero);
    let body = world.get::<Body>(e).map_or(1, |b| b.max);
    UnitSize::of(hero, body)
}

fn id_of(world: &World, e: Entity) -> String {
    world
        .get::<FigureId>(e)
        .map_or_else(String::new, |f| f.0.clone())
}

fn cell_of(world: &World, e: Entity) -> Cell {
    world.get::<Position>(e).map_or(Cell::new(0, 0), |p| p.0)
}

/// A side's Charges end with its movement phase (A16): the apply of the half-move's
/// `EndSide` in `asl`.
pub(crate) fn end_charges(world: &mut World) {
    with_query::<&mut AslCavalry, (), _>(world, |world, q| {
        for mut a in q.iter_mut(world) {
            if a.charge.is_some() {
                a.charge = None;
            }
        }
    });
}

/// A mounted horse is no longer led (A18): part of the apply of a `Mount`.
pub(crate) fn unlead_by_id(world: &mut World, horse: &str) {
    if let Some(h) = find_figure(world, horse) {
        unlead(world, h);
    }
}

fn unlead(world: &mut World, h: Entity) {
    if let Some(l) = world.get::<LedBy>(h).map(|l| l.0) {
        world.entity_mut(h).remove::<LedBy>();
        if let Some(mut v) = world.get_mut::<Leads>(l) {
            v.0.retain(|&x| x != h);
        }
    }
}

/// The cells a move would pass through (start first), by the same step rules; `None` if a
/// step is refused (the move's own check reports it).
fn path_cells(world: &mut World, e: Entity, steps: &[Step]) -> Option<Vec<Cell>> {
    let setup = setup_move(world, e);
    let board = &world.resource::<Map>().0;
    let mut pose = setup.pose;
    let mut cells = vec![pose.cell];
    for &s in steps {
        let (p, _) = setup.mover.try_step(board, &pose, s).ok()?;
        if p.cell != pose.cell {
            cells.push(p.cell);
        }
        pose = p;
    }
    Some(cells)
}

/// A18 and A16 checks on a move: led horses may not go where cavalry may not; an ASL Charge
/// is ridden into its target's hex. (A riderless horse's own move is refused by
/// `motion::setup_move`, A18.)
pub(crate) fn check_move(
    world: &mut World,
    unit: &str,
    steps: &[Step],
) -> Option<Result<(), Refusal>> {
    let asl = world.resource::<Rules>().0.asl.is_some();
    let e = find_figure(world, unit)?;
    let e = world.get::<CarriedBy>(e).map_or(e, |c| c.0);
    if let Some(led) = world.get::<Leads>(e).map(|l| l.0.clone())
        && !led.is_empty()
        && let Some(cells) = path_cells(world, e, steps)
    {
        let board = &world.resource::<Map>().0;
        if let Some(c) = cells
            .iter()
            .skip(1)
            .find(|&&c| board.terrain_at(c).multiplier(true).is_none())
        {
            return Some(refuse(format!(
                "A18: a led horse may not enter {c} ({}), closed to cavalry",
                board.terrain_at(*c).name
            )));
        }
    }
    if asl && let Some((target, hex)) = world.get::<AslCavalry>(e).and_then(|a| a.charge) {
        return charge_move(world, e, unit, steps, target, hex);
    }
    None
}

/// Led horses follow the leader: into its hex in `asl` (riderless horses stack freely, A2),
/// elsewhere along its path, one cell behind another.
pub(crate) fn follow(world: &mut World, unit: &str) {
    let Some(e) = find_figure(world, unit) else {
        return;
    };
    let e = world.get::<CarriedBy>(e).map_or(e, |c| c.0);
    let Some(led) = world.get::<Leads>(e).map(|l| l.0.clone()) else {
        return;
    };
    if led.is_empty() {
        return;
    }
    let asl = world.resource::<Rules>().0.asl.is_some();
    let to = cell_of(world, e);
    let grid = world.resource::<Rules>().0.grid;
    let mut moved = Vec::new();
    for (k, h) in led.iter().enumerate() {
        let dest = if asl {
            Some(to)
        } else {
            // The free cells next to the leader, then next to the horse before it.
            let anchor = if k == 0 {
                to
            } else {
                cell_of(world, led[k - 1])
            };
            let board = &world.resource::<Map>().0;
            let here = cell_of(world, *h);
            if grid.distance(here, anchor) <= 1 {
                None
            } else {
                grid.neighbours(anchor)
                    .map(|(_, c)| c)
                    .filter(|&c| {
                        board.contains(c)
                            && board.occupant_at(c) == 0
                            && board.terrain_at(c).multiplier(true).is_some()
                    })
                    .min_by_key(|&c| (grid.distance(c, here), c.y, c.x))
            }
        };
        if let Some(c) = dest {
            if let Some(mut p) = world.get_mut::<Position>(*h) {
                p.0 = c;
            }
            moved.push(format!("{} to {c}", id_of(world, *h)));
            sync_occupancy(world);
        }
    }
    if !moved.is_empty() {
        let who = id_of(world, e);
        log_now(world, format!("{who} leads {} (A18).", moved.join(", ")));
    }
}

/// A18: take a riderless horse on the lead — its own side's, or an enemy's, which is thereby
/// captured (horses are never enemies; they change hands like a support weapon).
pub(crate) fn lead(world: &mut World, unit: &str, horse: &str) -> Result<(), Refusal> {
    let e = own(world, unit)?;
    let Some(h) = find_figure(world, horse) else {
        return refuse(format!("there is no figure {horse:?}"));
    };
    if !is_riderless_horse(world, h) {
        return refuse(format!("A18: {horse} is not a riderless horse"));
    }
    if world.get::<AslCavalry>(e).is_some_and(|a| a.broken) {
        return refuse("A18: a broken unit cannot lead horses");
    }
    if world.get::<LedBy>(h).is_some_and(|l| l.0 == e) {
        return refuse(format!("A18: {unit} already leads {horse}"));
    }
    let asl = world.resource::<Rules>().0.asl.is_some();
    let grid = world.resource::<Rules>().0.grid;
    let (at, hat) = (cell_of(world, e), cell_of(world, h));
    let need = if asl { 0 } else { 1 };
    if grid.distance(at, hat) > need {
        return refuse(if asl {
            format!("A18: the horse must be in the same hex ({hat} vs {at})")
        } else {
            format!("A18: the horse at {hat} must be next to {unit} at {at}")
        });
    }
    let mut horses: Vec<u8> = world
        .get::<Leads>(e)
        .map(|l| l.0.clone())
        .unwrap_or_default()
        .iter()
        .map(|&x| world.get::<Body>(x).map_or(1, |b| b.max.min(3) as u8))
        .collect();
    horses.push(world.get::<Body>(h).map_or(1, |b| b.max.min(3) as u8));
    if asl {
        may_lead(size_of(world, e), &horses).map_err(Refusal)?;
    } else {
        may_lead(UnitSize::Smc, &horses).map_err(Refusal)?;
    }
    unlead(world, h);
    let side = world.get::<SideId>(e).map_or(0, |s| s.0);
    let captured = world.get::<SideId>(h).is_some_and(|s| s.0 != side);
    if let Some(mut s) = world.get_mut::<SideId>(h) {
        s.0 = side;
    }
    world.entity_mut(h).insert(LedBy(e));
    match world.get_mut::<Leads>(e) {
        Some(mut l) => l.0.push(h),
        None => {
            world.entity_mut(e).insert(Leads(vec![h]));
        }
    }
    sync_occupancy(world);
    log_now(
        world,
        if captured {
            format!("{unit} captures {horse} and leads it (A18: horses are never enemies).")
        } else {
            format!("{unit} takes {horse} on the lead (A18).")
        },
    );
    Ok(())
}

/// A18: a unit lets a led horse go.
pub(crate) fn release(world: &mut World, unit: &str, horse: &str) -> Result<(), Refusal> {
    let e = own(world, unit)?;
    let Some(h) = find_figure(world, horse) else {
        return refuse(format!("there is no figure {horse:?}"));
    };
    if world.get::<LedBy>(h).map(|l| l.0) != Some(e) {
        return refuse(format!("A18: {unit} does not lead {horse}"));
    }
    unlead(world, h);
    log_now(
        world,
        format!("{unit} lets {horse} go; it stays where it is (A18)."),
    );
    Ok(())
}

/// A18 (ASL 13.7): a unit leading a horse counter may eliminate it as if it were a support
/// weapon; the horse is removed from play.
pub(crate) fn eliminate(world: &mut World, unit: &str, horse: &str) -> Result<(), Refusal> {
    let e = own(world, unit)?;
    let Some(h) = find_figure(world, horse) else {
        return refuse(format!("there is no figure {horse:?}"));
    };
    if world.get::<LedBy>(h).map(|l| l.0) != Some(e) {
        return refuse(format!(
            "A18: only a unit leading a horse may eliminate it; {unit} does not lead {horse}"
        ));
    }
    unlead(world, h);
    world.entity_mut(h).despawn();
    sync_occupancy(world);
    log_now(
        world,
        format!("{unit} eliminates {horse}, as it would a support weapon; it is removed (A18)."),
    );
    Ok(())
}

/// A5: mounting a horse counter too large for the unit splits it first: a half-squad's squad
/// horse counter Deploys into two half-squad counters; a leader gets a single horse of his own.
/// `None`: no split is needed, and the `Mount` is an ordinary one. Everything the split and
/// the `Mount` check comes before any counter is split, so a refused `Mount` splits nothing
/// (A5 only to carry out an A4 mount that will happen).
pub(crate) fn split_for_mount(
    world: &mut World,
    unit: &str,
    horse: &str,
) -> Option<Result<(), Refusal>> {
    let e = find_figure(world, unit)?;
    let h = find_figure(world, horse)?;
    if !is_riderless_horse(world, h) || world.get::<RidingOn>(e).is_some() {
        return None;
    }
    let horses = world.get::<Body>(h).map_or(1, |b| b.left.min(3) as u8);
    let split = match capacity(horses, &[size_of(world, e)]) {
        Ok(Capacity::Fits) => return None,
        Err(why) => return Some(refuse(why)),
        Ok(split) => split,
    };
    let (keep, new_body, suffix) = match split {
        Capacity::DeployToHalfSquads => (2, 2, "hs"),
        _ => (horses as u16, 1, "smc"),
    };
    let new_id = format!("{horse}.{suffix}");
    let checked = own(world, unit)
        .and_then(|_| super::melee::check_can_act(world, unit, false))
        .and_then(|()| super::orders::check_asl_mount(world, e, h))
        .and_then(|()| match find_figure(world, &new_id) {
            Some(_) => refuse(format!("A5: {new_id} already exists")),
            None => Ok(()),
        });
    if let Err(why) = checked {
        return Some(Err(why));
    }
    // Apply: split the counter, then mount the part that fits.
    let n = world.entity_mut(h).clone_and_spawn();
    world.entity_mut(n).insert(FigureId(new_id.clone()));
    world.entity_mut(n).remove::<LedBy>();
    if let Some(mut b) = world.get_mut::<Body>(n) {
        *b = Body {
            max: new_body,
            left: new_body,
        };
    }
    if let Some(mut b) = world.get_mut::<Body>(h) {
        b.max = keep;
        b.left = b.left.min(keep);
    }
    let (what, target) = match split {
        Capacity::DeployToHalfSquads => (
            format!(
                "{horse} Deploys into two half-squad horse counters, {horse} and {new_id} (A5)."
            ),
            horse.to_string(),
        ),
        _ => (
            format!("A single horse, {new_id}, is taken from {horse} for {unit} (A5)."),
            new_id,
        ),
    };
    log_now(world, what);
    let phase = *world.resource::<State<Phase>>().get();
    let r = super::orders::mount(world, e, unit, &target, phase);
    debug_assert!(
        r.is_ok(),
        "A5: the checked mount after a split was refused: {r:?}"
    );
    if r.is_ok() {
        unlead_by_id(world, &target);
    }
    Some(r)
}

pub(crate) mod asl_charge;
use asl_charge::charge_move;
pub(crate) use asl_charge::{asl_declare, wave};
