//! The fight model (`rules::melee::Fight`) of the world, kept between reads.
//!
//! The fire phase, the charge declarations and the melee's bookkeeping each read the whole
//! fight model, several times a turn, and most turns nothing it holds has changed since the
//! last read: reading it afresh (every figure's strings and profile) was the largest part of
//! replaying a long game (issue 15: 100 000 `EndSide`). The last model is therefore kept and
//! handed out shared until Bevy's change ticks say that something it was read from was
//! written. A component taken away leaves no tick, but it moves its figure to another table
//! (every component the model reads is stored in tables), so the tables the figures sat in,
//! and their rows, are remembered and compared too. The cache sits behind a lock in a resource inserted
//! with the simulation, so reading it writes nothing the refused-order check would see.

use super::MeleeState;
use crate::rules::gait::Gait;
use crate::rules::melee::fight::{Fight, Fighter, FirstHalf};
use crate::rules::melee::tables::tables;
use crate::rules::ruleset::{Encumbrance, TroopType};
use crate::sim::changes::{WrittenSince, component_ids};
use crate::sim::components::*;
use crate::sim::phase::TurnState;
use crate::sim::world::{Map, Rules};
use bevy::ecs::change_detection::Tick;
use bevy::ecs::storage::TableId;
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

/// The kept fight model of a world (see the module's doc). Inserted by the simulation plugin;
/// a world without it reads the model afresh each time.
#[derive(Resource, Default)]
pub struct KeptFight(Mutex<Kept>);

#[derive(Default)]
struct Kept {
    /// Boxed: they leave the lock for every look, and a query state is large to move.
    queries: Option<Box<Queries>>,
    last: Option<Last>,
    /// How many times the model was read afresh (the tests check the kept one is used).
    reads: usize,
}

/// The query states of the kept model: what it reads, and what tells that it was written.
struct Queries {
    read: QueryState<FightQuery>,
    written: WrittenSince,
}

/// The model last read, and what it was read from.
struct Last {
    fight: Arc<Fight>,
    entities: Arc<[Entity]>,
    /// The tables the figures were in, and their rows: a component added or taken away moves
    /// a figure to another table (every component read is stored in tables), a figure spawned
    /// or despawned changes a table's rows.
    tables: Vec<(TableId, Vec<Entity>)>,
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
    // The queries and the model leave the lock while the world is checked and read (the check
    // sets the world's last change tick), and go back after.
    let (queries, last) = {
        let mut k = world.resource::<KeptFight>().lock();
        (k.queries.take(), k.last.take())
    };
    let mut queries = queries.unwrap_or_else(|| {
        Box::new(Queries {
            read: world.query::<FightQuery>(),
            written: WrittenSince::new(
                Vec::new(),
                component_ids!(world; FigureId, SideId, Position, Facing, Stand, Weight, Blows,
                    Body, Allowance, Dexterity, Armour, Encumbered, Weapon, Shield, RidingOn,
                    CarriedBy, GaitState, HorseClassKey, Conditions, Combatant, CombatStatus,
                    Troop),
            ),
        })
    });
    // Whatever is written from now on carries a tick newer than this.
    let look = world.increment_change_tick();
    let kept = last.filter(|l| unchanged(world, l, &mut queries));
    let fresh = kept.is_none();
    let last = match kept {
        Some(mut last) => {
            // The figures are as they were; the initiative may have passed (D1, D6): a few
            // words the model holds beside them, set in place.
            let turn = world.resource::<TurnState>();
            let attacker = turn.initiative.unwrap_or(0);
            let first_half = first_half_of(world, turn.turn);
            if last.fight.attacker != attacker || last.fight.first_half.as_ref() != first_half {
                let f = Arc::make_mut(&mut last.fight);
                f.attacker = attacker;
                f.first_half = first_half.cloned();
            }
            last
        }
        None => {
            let (fight, entities) = read_with(world, &mut queries.read);
            Last {
                fight: Arc::new(fight),
                entities: entities.into(),
                tables: tables_of(world, &queries.read),
                since: look,
            }
        }
    };
    let out = (last.fight.clone(), last.entities.clone());
    let mut k = world.resource::<KeptFight>().lock();
    k.reads += usize::from(fresh);
    k.queries = Some(queries);
    k.last = Some(last);
    out
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

/// The tables `query` matches, with their rows.
fn tables_of(world: &World, query: &QueryState<FightQuery>) -> Vec<(TableId, Vec<Entity>)> {
    let tables = &world.storages().tables;
    query
        .matched_tables()
        .map(|id| {
            (
                id,
                tables.get(id).map_or(Vec::new(), |t| t.entities().to_vec()),
            )
        })
        .collect()
}

/// True when `query` matches the tables `seen` holds, with the same rows in each.
fn same_tables(
    world: &World,
    query: &QueryState<FightQuery>,
    seen: &[(TableId, Vec<Entity>)],
) -> bool {
    let tables = &world.storages().tables;
    let mut n = 0;
    for id in query.matched_tables() {
        let Some((was, rows)) = seen.get(n) else {
            return false;
        };
        let now = tables.get(id).map_or(&[][..], |t| t.entities());
        if *was != id || now != rows.as_slice() {
            return false;
        }
        n += 1;
    }
    n == seen.len()
}

/// True when none of the figures `last` was read from has been written, added, removed,
/// spawned or despawned since (the same tables with the same rows, no component the model
/// reads written), and the board and the ruleset are the same.
fn unchanged(world: &mut World, last: &Last, queries: &mut Queries) -> bool {
    let now = world.read_change_tick();
    if crate::sim::changes::too_old(world, last.since) {
        return false;
    }
    let newer = |t: Tick| t.is_newer_than(last.since, now);
    if newer(world.resource_ref::<Rules>().last_changed()) {
        return false;
    }
    let map = world.resource_ref::<Map>();
    if newer(map.last_changed()) && last.fight.board != map.0 {
        return false;
    }
    queries.read.update_archetypes(world);
    if !same_tables(world, &queries.read, &last.tables) {
        return false;
    }
    !queries.written.any(world, last.since)
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
        near: Default::default(),
    };
    (fight, entities)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::ecs::component::StorageType;

    /// The check finds a component added or taken away by the table its figure moved to:
    /// that holds only while every component the model reads is stored in tables.
    #[test]
    fn every_component_the_model_reads_is_stored_in_tables() {
        let mut world = World::new();
        let q = world.query::<FightQuery>();
        let components = world.components();
        let mut n = 0;
        let access = q.component_access().access().try_reads_and_writes();
        for id in access.expect("a bounded query") {
            let info = components.get_info(id).expect("registered by the query");
            assert_eq!(
                info.storage_type(),
                StorageType::Table,
                "{} is not stored in tables",
                info.name()
            );
            n += 1;
        }
        assert_eq!(n, 22, "the fight model reads 22 components");
    }
}
