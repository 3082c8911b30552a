//! The fight model (`rules::melee::Fight`) of the world, kept between reads.
//!
//! The fire phase, the charge declarations and the melee's bookkeeping each read the whole
//! fight model, several times a turn, and most turns nothing it holds has changed since the
//! last read: reading it afresh (every figure's strings and profile) was the largest part of
//! replaying a long game (issue 15: 100 000 `EndSide`). The last model is therefore kept and
//! handed out shared until Bevy's change ticks say that something it was read from was
//! written. A component taken away leaves no tick, so which optional components each figure
//! had is remembered and compared too. The cache sits behind a lock in a resource inserted
//! with the simulation, so reading it writes nothing the refused-order check would see.

use super::MeleeState;
use crate::rules::gait::Gait;
use crate::rules::melee::fight::{Fight, Fighter, FirstHalf};
use crate::rules::melee::tables::tables;
use crate::rules::ruleset::{Encumbrance, TroopType};
use crate::sim::components::*;
use crate::sim::phase::TurnState;
use crate::sim::world::{Map, Rules};
use bevy::ecs::change_detection::Tick;
use bevy::prelude::*;
use std::sync::{Arc, Mutex, MutexGuard};

/// What the fight model reads of each figure (a rider and its mount are both rows).
type FightQuery = (
    (
        Entity,
        &'static FigureId,
        &'static SideId,
        &'static Position,
        &'static Facing,
        &'static Stand,
        &'static Weight,
    ),
    (&'static Blows, &'static Body, &'static Allowance),
    (
        Option<&'static Dexterity>,
        Option<&'static Armour>,
        Option<&'static Encumbered>,
        Option<&'static Weapon>,
        Option<&'static Shield>,
    ),
    (
        Option<&'static RidingOn>,
        Option<&'static CarriedBy>,
        Option<&'static GaitState>,
        Option<&'static HorseClassKey>,
    ),
    (
        Option<&'static Conditions>,
        Option<&'static Combatant>,
        Option<&'static CombatStatus>,
        Option<&'static Troop>,
    ),
);

/// The change ticks of everything [`FightQuery`] reads: the same figures match.
type TickQuery = (
    Entity,
    (
        Ref<'static, FigureId>,
        Ref<'static, SideId>,
        Ref<'static, Position>,
        Ref<'static, Facing>,
        Ref<'static, Stand>,
        Ref<'static, Weight>,
        Ref<'static, Blows>,
        Ref<'static, Body>,
        Ref<'static, Allowance>,
    ),
    Optional<'static>,
);

/// A model older than this many change ticks is read afresh: Bevy clamps very old ticks, after
/// which "written since" can no longer be told.
const MAX_AGE: u32 = 1 << 30;

/// The kept fight model of a world (see the module's doc). Inserted by the simulation plugin;
/// a world without it reads the model afresh each time.
#[derive(Resource, Default)]
pub struct KeptFight(Mutex<Kept>);

#[derive(Default)]
struct Kept {
    query: Option<QueryState<FightQuery>>,
    ticks: Option<QueryState<TickQuery>>,
    last: Option<Last>,
    /// How many times the model was read afresh (the tests check the kept one is used).
    reads: usize,
}

/// The model last read, and what it was read from.
struct Last {
    fight: Arc<Fight>,
    entities: Arc<[Entity]>,
    /// Every figure in the tick query's order, with a bit for each optional component it had.
    seen: Vec<(Entity, u16)>,
    /// The world's change tick when it was read: anything written later is newer.
    since: Tick,
}

impl KeptFight {
    fn lock(&self) -> MutexGuard<'_, Kept> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many times the kept model of `world` was read afresh.
    pub fn reads(world: &World) -> usize {
        world
            .get_resource::<KeptFight>()
            .map_or(0, |k| k.lock().reads)
    }
}

/// The fight model of `world` as it stands now, shared: the kept one when nothing it was read
/// from has been written since, else read afresh (and kept). For the readers of the model;
/// [`build_fight`] gives a copy to change.
pub fn kept_fight(world: &mut World) -> (Arc<Fight>, Arc<[Entity]>) {
    if world.get_resource::<KeptFight>().is_none() {
        let (f, e) = read_fight(world);
        return (Arc::new(f), e.into());
    }
    if world.resource::<KeptFight>().lock().query.is_none() {
        let q = world.query::<FightQuery>();
        let t = world.query::<TickQuery>();
        let kept = world.resource::<KeptFight>();
        let mut k = kept.lock();
        k.query = Some(q);
        k.ticks = Some(t);
    }
    // Whatever is written from now on carries a tick newer than this.
    let look = world.increment_change_tick();
    let world: &World = world;
    let kept = world.resource::<KeptFight>();
    let mut k = kept.lock();
    let k = &mut *k;
    let ticks = k.ticks.as_mut().expect("made above");
    if let Some(last) = k.last.as_mut().filter(|l| unchanged(world, l, ticks)) {
        // The figures are as they were; the initiative may have passed (D1, D6): a few words
        // the model holds beside them, set in place.
        let turn = world.resource::<TurnState>();
        let attacker = turn.initiative.unwrap_or(0);
        let first_half = first_half_of(world, turn.turn);
        if last.fight.attacker != attacker || last.fight.first_half.as_ref() != first_half {
            let f = Arc::make_mut(&mut last.fight);
            f.attacker = attacker;
            f.first_half = first_half.cloned();
        }
        return (last.fight.clone(), last.entities.clone());
    }
    let (fight, entities) = read_with(world, k.query.as_mut().expect("made above"));
    let seen = ticks
        .iter(world)
        .map(|(e, _, opt)| (e, present(&optional_ticks(&opt))))
        .collect();
    k.reads += 1;
    let last = k.last.insert(Last {
        fight: Arc::new(fight),
        entities: entities.into(),
        seen,
        since: look,
    });
    (last.fight.clone(), last.entities.clone())
}

/// A fight model of `world` to change (the melee resolves rounds on its own copy).
pub fn build_fight(world: &mut World) -> (Fight, Vec<Entity>) {
    let (f, e) = kept_fight(world);
    (Arc::unwrap_or_clone(f), e.to_vec())
}

/// The fight model of `world` read afresh, without the kept one (the tests compare the two).
pub fn read_fight(world: &mut World) -> (Fight, Vec<Entity>) {
    let mut q = world.query::<FightQuery>();
    read_with(world, &mut q)
}

/// The optional components [`FightQuery`] reads, with their change ticks.
type Optional<'a> = (
    Option<Ref<'a, Dexterity>>,
    Option<Ref<'a, Armour>>,
    Option<Ref<'a, Encumbered>>,
    Option<Ref<'a, Weapon>>,
    Option<Ref<'a, Shield>>,
    Option<Ref<'a, RidingOn>>,
    Option<Ref<'a, CarriedBy>>,
    Option<Ref<'a, GaitState>>,
    Option<Ref<'a, HorseClassKey>>,
    Option<Ref<'a, Conditions>>,
    Option<Ref<'a, Combatant>>,
    Option<Ref<'a, CombatStatus>>,
    Option<Ref<'a, Troop>>,
);

/// The last-changed tick of each optional component a figure has.
fn optional_ticks(o: &Optional<'_>) -> [Option<Tick>; 13] {
    [
        o.0.as_ref().map(|x| x.last_changed()),
        o.1.as_ref().map(|x| x.last_changed()),
        o.2.as_ref().map(|x| x.last_changed()),
        o.3.as_ref().map(|x| x.last_changed()),
        o.4.as_ref().map(|x| x.last_changed()),
        o.5.as_ref().map(|x| x.last_changed()),
        o.6.as_ref().map(|x| x.last_changed()),
        o.7.as_ref().map(|x| x.last_changed()),
        o.8.as_ref().map(|x| x.last_changed()),
        o.9.as_ref().map(|x| x.last_changed()),
        o.10.as_ref().map(|x| x.last_changed()),
        o.11.as_ref().map(|x| x.last_changed()),
        o.12.as_ref().map(|x| x.last_changed()),
    ]
}

/// A bit for each optional component present.
fn present(ticks: &[Option<Tick>; 13]) -> u16 {
    ticks
        .iter()
        .enumerate()
        .fold(0, |m, (i, t)| m | (u16::from(t.is_some()) << i))
}

/// True when none of the figures `last` was read from has been written, added, removed,
/// spawned or despawned since (the same figures in the same order with the same components,
/// none written), and the board is the same.
fn unchanged(world: &World, last: &Last, ticks: &mut QueryState<TickQuery>) -> bool {
    let now = world.read_change_tick();
    if now.get().wrapping_sub(last.since.get()) > MAX_AGE {
        return false;
    }
    let newer = |t: Tick| t.is_newer_than(last.since, now);
    let fight = &last.fight;
    if newer(world.resource_ref::<Rules>().last_changed()) {
        return false;
    }
    let map = world.resource_ref::<Map>();
    if newer(map.last_changed()) && fight.board != map.0 {
        return false;
    }
    let mut n = 0;
    for (e, req, opt) in ticks.iter(world) {
        let opt = optional_ticks(&opt);
        if last.seen.get(n) != Some(&(e, present(&opt))) {
            return false;
        }
        n += 1;
        let req = [
            req.0.last_changed(),
            req.1.last_changed(),
            req.2.last_changed(),
            req.3.last_changed(),
            req.4.last_changed(),
            req.5.last_changed(),
            req.6.last_changed(),
            req.7.last_changed(),
            req.8.last_changed(),
        ];
        if req.into_iter().chain(opt.into_iter().flatten()).any(newer) {
            return false;
        }
    }
    n == last.seen.len()
}

/// D6: the first half-move's engagements of this turn, when they were noted.
fn first_half_of(world: &World, turn: u32) -> Option<&FirstHalf> {
    world
        .get_resource::<MeleeState>()
        .and_then(|s| s.first_half.as_ref())
        .filter(|(t, _)| *t == turn)
        .map(|(_, f)| f)
}

/// Reads the pure fight from `world` afresh with `q`: every figure, with its profile and
/// combat state, sorted by id.
fn read_with(world: &World, q: &mut QueryState<FightQuery>) -> (Fight, Vec<Entity>) {
    let t = tables();
    // Only two things are read from the ruleset: cloning all of it (every template) for each
    // fight model was most of a fire phase's cost, paid every turn of a replay.
    let (conditions, prepare) = {
        let rules = &world.resource::<Rules>().0;
        (
            rules.conditions.keys().cloned().collect(),
            rules.prepare_spell,
        )
    };
    let board = world.resource::<Map>().0.clone();
    let attacker = world.resource::<TurnState>().initiative.unwrap_or(0);
    let turn = world.resource::<TurnState>().turn;
    let first_half = first_half_of(world, turn).cloned();
    let mut rows: Vec<_> = q
        .iter(world)
        .map(|(a, b, c, d, e)| {
            let (ent, id, side, pos, facing, stand, weight) = a;
            let (blows, body, allow) = b;
            let (dex, armour, enc, weapon, shield) = c;
            let (riding, carried, gait, class) = d;
            let (conds, prof, status, troop) = e;
            let state = status.map(|s| s.0.clone()).unwrap_or_default();
            let is_mount = class.is_some();
            (
                ent,
                riding.map(|r| r.0),
                carried.map(|c| c.0),
                Fighter {
                    id: id.0.clone(),
                    side: side.0,
                    cell: pos.0,
                    facing: facing.0,
                    shape: stand.shape,
                    stand_size: stand.size,
                    weight: weight.0,
                    dex: dex.map_or(10, |d| d.0),
                    armour: armour.map_or(2, |a| a.0),
                    enc: enc.map_or(Encumbrance::None, |e| e.0),
                    weapon: weapon.map_or_else(
                        || {
                            if is_mount {
                                "hooves".into()
                            } else {
                                "none".into()
                            }
                        },
                        |w| w.0.clone(),
                    ),
                    shield: shield.is_some_and(|s| s.0),
                    profile: prof.map(|p| p.0.clone()).unwrap_or_else(|| match class {
                        Some(c) => t.mount(&c.0),
                        None => t.default_fighter.clone(),
                    }),
                    blows: blows.left,
                    blows_max: blows.max,
                    body: body.left as i32 - state.below_zero as i32,
                    body_max: body.max as i32,
                    mount: None,
                    rider: None,
                    horse_class: class.map(|c| c.0.clone()),
                    gait: gait.map_or(Gait::Walk, |g| g.gait),
                    move_basis: allow.basis,
                    conditions: conds.map(|c| c.0.clone()).unwrap_or_default(),
                    troop: troop.map_or(
                        if is_mount {
                            TroopType::Horse
                        } else {
                            TroopType::Foot
                        },
                        |t| t.0,
                    ),
                    state,
                },
            )
        })
        .collect();
    rows.sort_by(|a, b| a.3.id.cmp(&b.3.id));
    let entities: Vec<Entity> = rows.iter().map(|r| r.0).collect();
    // Riders and mounts found by a lookup: a search of every row made this quadratic.
    let row_of: std::collections::HashMap<Entity, usize> =
        entities.iter().enumerate().map(|(i, &e)| (e, i)).collect();
    let index = |e: Entity| row_of.get(&e).copied();
    let links: Vec<(Option<usize>, Option<usize>)> = rows
        .iter()
        .map(|r| (r.1.and_then(index), r.2.and_then(index)))
        .collect();
    let mut fighters: Vec<Fighter> = rows.into_iter().map(|r| r.3).collect();
    for (i, (m, r)) in links.iter().enumerate() {
        fighters[i].mount = *m;
        fighters[i].rider = *r;
    }
    for i in 0..fighters.len() {
        if let Some(m) = fighters[i].mount {
            let (shape, size, gait) = (fighters[m].shape, fighters[m].stand_size, fighters[m].gait);
            let f = &mut fighters[i];
            f.shape = shape;
            f.stand_size = size;
            f.gait = gait;
        }
    }
    let fight = Fight {
        board,
        fighters,
        attacker,
        round: 0,
        conditions,
        first_half,
        melee_k2: false,
        prepare,
    };
    (fight, entities)
}
