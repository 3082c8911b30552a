//! What setting up a move reads of the other figures, kept between moves (issue 15, item 3).
//!
//! [`super::setup_move`] runs for every AI reach and every move order. Each time it needs every
//! figure's contact facts (D16), and for the mover's side the cells touching an enemy, the
//! cells where an enemy's front stops it, and every hostile figure's cell with its Dexterity
//! (R4). With 4096 figures gathering and sorting those was most of an AI side-turn. They are
//! kept here: every figure's facts are read again at each set-up (one pass, no allocation)
//! and compared with the kept ones, and what a side's movers read of their enemies is
//! recomputed only when a figure of another side changed. The result is what reading
//! everything afresh gives (the tests compare the two after every order of whole games).
//!
//! The kept facts are bookkeeping, not game state: they sit behind a lock in a resource read
//! without `ResMut`, so keeping them touches nothing the refused-order check
//! ([`crate::sim::transaction`]) looks at.

use super::{ContactFacts, Exemption, exemption, sorted_cells, touches_front};
use crate::rules::board::Board;
use crate::rules::grid::{Cell, GridKind};
use crate::rules::ruleset::{Encumbrance, TroopType};
use crate::sim::changes::{WrittenSince, component_ids};
use crate::sim::components::*;
use bevy::ecs::change_detection::Tick;
use bevy::prelude::*;
use std::collections::HashMap;
use std::sync::Mutex;

/// The components a figure's contact facts are read from.
type FactQuery = (
    Entity,
    &'static SideId,
    &'static Position,
    &'static Facing,
    &'static Stand,
    &'static Weight,
    Option<&'static Encumbered>,
    Option<&'static RidingOn>,
    Option<&'static CarriedBy>,
    Option<&'static Troop>,
    Option<&'static Dexterity>,
);

/// The figures [`FactQuery`] reads (the same ones, in the same order).
type OrderQuery = QueryState<
    Entity,
    (
        With<SideId>,
        With<Position>,
        With<Facing>,
        With<Stand>,
        With<Weight>,
    ),
>;

/// One figure of [`FactQuery`] as read, before mounts are paired with riders.
#[derive(Clone, Copy, PartialEq)]
struct Raw {
    e: Entity,
    side: u8,
    cell: Cell,
    facing: crate::rules::grid::Dir,
    stand: Stand,
    weight: u32,
    enc: Option<Encumbrance>,
    riding: Option<Entity>,
    carried: bool,
    horse: bool,
    dex: u8,
}

/// One figure on the board (riders with their mounts; mounts are not listed): its contact
/// facts, whether it is a horse (A18: never an enemy) and its Dexterity (R4, 0 without one).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Row {
    /// Index into `raw`.
    at: u32,
    facts: ContactFacts,
    horse: bool,
    dex: u8,
}

/// What a mover of one side reads of its enemies, computed when first asked.
#[derive(Default)]
struct Enemies {
    /// D16: cells touching an enemy that is not a horse, sorted.
    contacts: Option<Vec<Cell>>,
    /// R4: every enemy's cell with its Dexterity, sorted by cell, one a cell.
    foes: Option<Vec<(Cell, u8)>>,
    /// D16: the cells touching the front of an enemy the mover is not exempt from, sorted,
    /// by what the exemption reads of the mover.
    stops: HashMap<StopKey, Vec<Cell>>,
    /// Every enemy's cell with its row, sorted: the enemies next to a mover are looked up,
    /// not searched for among all of them (issue 15).
    cells: Option<Vec<(Cell, u32)>>,
}

/// What [`exemption`] reads of the mover: side, encumbrance, stand size, weight, and which
/// side holds the initiative.
type StopKey = (u8, Encumbrance, u8, u32, Option<u8>);

/// Every figure's facts as last read, and what each side's movers read of their enemies.
#[derive(Default)]
struct Kept {
    query: Option<QueryState<FactQuery>>,
    raw: Vec<Raw>,
    /// Index into `raw` of each entity (by entity index); stale entries are checked.
    slot: Vec<u32>,
    rows: Vec<Row>,
    /// The row of each figure read (by index into `raw`), `u32::MAX` for a carried one.
    row_of: Vec<u32>,
    /// By the mover's side.
    sides: Vec<Enemies>,
    order: Option<OrderQuery>,
    /// The figures [`FactQuery`] reads with a component written since the last read.
    changed: Option<WrittenSince>,
    /// The world's change tick at the last read (anything written later is newer) and how
    /// many times a component of [`FactQuery`] was taken away by then
    /// ([`crate::sim::changes::removals_of`]); `None`: read everything next time.
    since: Option<(Tick, usize)>,
    read_ids: Vec<bevy::ecs::component::ComponentId>,
    /// Scratch: the figures written since the last read.
    scratch: Vec<Entity>,
    /// By index into `raw`: where the figure comes in the world's order now (inserting a
    /// component into one figure reorders others; `touching` keeps the world's order).
    rank: Vec<u32>,
}

/// The kept facts of a world (see the module's doc). Inserted by the simulation plugin; a
/// world without it has its moves set up from a fresh read each time.
#[derive(Resource, Default)]
pub struct KeptFacts(Mutex<Kept>);

/// What a move set up for one figure reads of the others.
pub(super) struct Around {
    /// The mover's own facts (`None` for a figure not on the board as a figure).
    pub me: Option<ContactFacts>,
    /// Its Dexterity.
    pub dex: u8,
    /// Enemies whose front its cell touches, in the order the figures are read.
    pub touching: Vec<ContactFacts>,
    /// D16 stop cells, sorted.
    pub stops: Vec<Cell>,
    /// D16 contact cells, sorted.
    pub contacts: Vec<Cell>,
    /// R4: hostile cells with their Dexterity, sorted by cell.
    pub foes: Vec<(Cell, u8)>,
}

/// What `unit` reads of the other figures now, from the kept facts when `world` has them.
pub(super) fn around(world: &mut World, unit: Entity, initiative: Option<u8>) -> Around {
    if world.get_resource::<KeptFacts>().is_none() {
        let mut fresh = Kept {
            query: Some(world.query::<FactQuery>()),
            ..Default::default()
        };
        fresh.read(world);
        return fresh.around(world, unit, initiative);
    }
    // Taken out of its lock (which writes nothing the world's change ticks see) while the
    // figures written since the last read are listed, which needs the world mutably.
    let mut kept = std::mem::take(&mut *world.resource::<KeptFacts>().lock());
    if kept.query.is_none() {
        kept.query = Some(world.query::<FactQuery>());
        kept.order = Some(world.query_filtered());
        kept.read_ids = component_ids!(world; SideId, Position, Facing, Stand, Weight,
            Encumbered, RidingOn, CarriedBy, Troop, Dexterity);
        kept.changed = Some(WrittenSince::new(
            component_ids!(world; SideId, Position, Facing, Stand, Weight),
            kept.read_ids.clone(),
        ));
    }
    let written = kept.written_since(world);
    // Whatever is written from now on carries a tick newer than this.
    let look = world.increment_change_tick();
    let removed = crate::sim::changes::removals_of(world, &kept.read_ids);
    let world_ref: &World = world;
    if written {
        kept.read_written(world_ref);
    } else {
        kept.read(world_ref);
    }
    kept.since = Some((look, removed));
    let out = kept.around(world_ref, unit, initiative);
    *world.resource::<KeptFacts>().lock() = kept;
    out
}

impl KeptFacts {
    /// The kept facts (a panic while they were taken out leaves none kept: the next set-up
    /// reads every figure).
    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Enemies {
    fn forget(&mut self) {
        self.contacts = None;
        self.foes = None;
        self.stops.clear();
        self.cells = None;
    }
}

impl Kept {
    /// Lists in `scratch` the figures written since the last read, when that is all that may
    /// have changed: nothing was taken away (or despawned) and the figures are the same ones,
    /// noting the order the world lists them in now (issue 15: reading every figure for every move was a sixth of an AI
    /// side-turn at the limits). False when every figure must be read.
    fn written_since(&mut self, world: &mut World) -> bool {
        let Some((since, removed)) = self.since else {
            return false;
        };
        if crate::sim::changes::too_old(world, since)
            || crate::sim::changes::removals_of(world, &self.read_ids) != removed
        {
            return false;
        }
        let order = self.order.as_mut().expect("made with the query");
        let mut n = 0;
        for e in order.iter(world) {
            let Some(&i) = self.slot.get(e.index_u32() as usize) else {
                return false;
            };
            if self.raw.get(i as usize).is_none_or(|r| r.e != e) {
                return false;
            }
            self.rank[i as usize] = n;
            n += 1;
        }
        // Every figure listed was read before, each once: the same figures.
        if n as usize != self.raw.len() {
            return false;
        }
        let changed = self.changed.as_mut().expect("made with the query");
        self.scratch.clear();
        changed.list(world, since, &mut self.scratch);
        true
    }

    /// [`Kept::read`] for the figures listed by [`Kept::written_since`] alone: the others
    /// are as they were read.
    fn read_written(&mut self, world: &World) {
        if self.scratch.is_empty() {
            return;
        }
        let q = self.query.as_mut().expect("a query");
        let mut any = false;
        for &e in &self.scratch {
            let i = self.slot[e.index_u32() as usize] as usize;
            let (e, side, pos, facing, stand, weight, enc, riding, carried, troop, dex) =
                q.get(world, e).expect("a figure listed by the same query");
            let r = Raw {
                e,
                side: side.0,
                cell: pos.0,
                facing: facing.0,
                stand: *stand,
                weight: weight.0,
                enc: enc.map(|x| x.0),
                riding: riding.map(|r| r.0),
                carried: carried.is_some(),
                horse: troop.is_some_and(|t| t.0 == TroopType::Horse),
                dex: dex.map_or(0, |d| d.0),
            };
            if self.raw[i] != r {
                self.raw[i] = r;
                any = true;
            }
        }
        if any {
            self.rows_from_raw();
        }
    }

    /// Reads every figure again, forgetting what a side's movers read of their enemies when
    /// a figure of another side is no longer as it was.
    fn read(&mut self, world: &World) {
        let q = self.query.as_mut().expect("a query");
        self.raw.clear();
        for (e, side, pos, facing, stand, weight, enc, riding, carried, troop, dex) in q.iter(world)
        {
            self.raw.push(Raw {
                e,
                side: side.0,
                cell: pos.0,
                facing: facing.0,
                stand: *stand,
                weight: weight.0,
                enc: enc.map(|x| x.0),
                riding: riding.map(|r| r.0),
                carried: carried.is_some(),
                horse: troop.is_some_and(|t| t.0 == TroopType::Horse),
                dex: dex.map_or(0, |d| d.0),
            });
        }
        for (i, r) in self.raw.iter().enumerate() {
            let k = r.e.index_u32() as usize;
            if self.slot.len() <= k {
                self.slot.resize(k + 1, u32::MAX);
            }
            self.slot[k] = i as u32;
        }
        self.rank.clear();
        self.rank.extend(0..self.raw.len() as u32);
        self.rows_from_raw();
    }

    /// Pairs the figures read with their mounts into rows, forgetting what a side's movers
    /// read of their enemies when a figure of another side is no longer as it was.
    fn rows_from_raw(&mut self) {
        let mut n = 0;
        self.row_of.clear();
        self.row_of.resize(self.raw.len(), u32::MAX);
        for i in 0..self.raw.len() {
            let r = self.raw[i];
            if r.carried {
                continue;
            }
            self.row_of[i] = n as u32;
            // A rider touches with its mount's stand and weighs with it (D16).
            let mount = r.riding.and_then(|m| {
                let j = *self.slot.get(m.index_u32() as usize)? as usize;
                self.raw.get(j).filter(|x| x.e == m)
            });
            let (shape, size, weight) = match mount {
                Some(m) => (m.stand.shape, m.stand.size, r.weight + m.weight),
                None => (r.stand.shape, r.stand.size, r.weight),
            };
            let row = Row {
                at: i as u32,
                facts: ContactFacts {
                    entity: r.e,
                    side: r.side,
                    cell: r.cell,
                    facing: r.facing,
                    shape,
                    size,
                    weight,
                    enc: r.enc.unwrap_or(Encumbrance::None),
                },
                horse: r.horse,
                dex: r.dex,
            };
            match self.rows.get(n).copied() {
                Some(old) if old == row => {}
                Some(old) => {
                    forget_enemies_of(&mut self.sides, old.facts.side);
                    forget_enemies_of(&mut self.sides, row.facts.side);
                    self.rows[n] = row;
                }
                None => {
                    forget_enemies_of(&mut self.sides, row.facts.side);
                    self.rows.push(row);
                }
            }
            n += 1;
        }
        for old in self.rows.drain(n..) {
            forget_enemies_of(&mut self.sides, old.facts.side);
        }
    }

    /// What `unit` reads of the other figures as last read.
    fn around(&mut self, world: &World, unit: Entity, initiative: Option<u8>) -> Around {
        let grid = world.resource::<crate::sim::world::Rules>().0.grid;
        let board = &world.resource::<crate::sim::world::Map>().0;
        let me = (self.slot.get(unit.index_u32() as usize))
            .filter(|&&i| self.raw.get(i as usize).is_some_and(|r| r.e == unit))
            .and_then(|&i| self.rows.get(*self.row_of.get(i as usize)? as usize))
            .copied();
        let Some(me) = me else {
            return Around {
                me: None,
                dex: 0,
                touching: Vec::new(),
                stops: Vec::new(),
                contacts: Vec::new(),
                foes: Vec::new(),
            };
        };
        let side = me.facts.side as usize;
        if self.sides.len() <= side {
            self.sides.resize_with(side + 1, Enemies::default);
        }
        let rows = &self.rows;
        let enemies = || rows.iter().filter(|r| r.facts.side != me.facts.side);
        let mine = &mut self.sides[side];
        let contacts = mine.contacts.get_or_insert_with(|| {
            let cells = enemies()
                .filter(|r| !r.horse)
                .flat_map(|r| grid.neighbours(r.facts.cell).map(|(_, c)| c));
            sorted_cells(board, cells)
        });
        let contacts = contacts.clone();
        let foes = mine.foes.get_or_insert_with(|| {
            let mut v: Vec<(Cell, u8)> = enemies().map(|r| (r.facts.cell, r.dex)).collect();
            v.sort();
            v.dedup_by_key(|f| f.0);
            v
        });
        let foes = foes.clone();
        let f = &me.facts;
        let key = (f.side, f.enc, f.size, f.weight, initiative);
        let stops = mine
            .stops
            .entry(key)
            .or_insert_with(|| stop_cells(grid, board, &me.facts, enemies(), initiative))
            .clone();
        // The enemies next to the mover, in the order the world lists the figures now.
        let cells = mine.cells.get_or_insert_with(|| {
            let mut v: Vec<(Cell, u32)> = (rows.iter().enumerate())
                .filter(|(_, r)| r.facts.side != me.facts.side)
                .map(|(k, r)| (r.facts.cell, k as u32))
                .collect();
            v.sort();
            v
        });
        let mut touching: Vec<(u32, ContactFacts)> = grid
            .neighbours(me.facts.cell)
            .flat_map(|(_, c)| {
                let from = cells.partition_point(|x| x.0 < c);
                cells[from..].iter().take_while(move |x| x.0 == c)
            })
            .map(|&(_, k)| &rows[k as usize])
            .filter(|r| touches_front(grid, &r.facts, me.facts.cell))
            .map(|r| (self.rank[r.at as usize], r.facts))
            .collect();
        touching.sort_by_key(|t| t.0);
        let touching = touching.into_iter().map(|t| t.1).collect();
        Around {
            me: Some(me.facts),
            dex: me.dex,
            touching,
            stops,
            contacts,
            foes,
        }
    }
}

/// Every side but `side` has an enemy that changed: what its movers read is forgotten.
fn forget_enemies_of(sides: &mut [Enemies], side: u8) {
    for (s, e) in sides.iter_mut().enumerate() {
        if s != side as usize {
            e.forget();
        }
    }
}

/// D16: the cells touching the front of an enemy `me` is not exempt from, sorted.
fn stop_cells<'a>(
    grid: GridKind,
    board: &Board,
    me: &ContactFacts,
    enemies: impl Iterator<Item = &'a Row>,
    initiative: Option<u8>,
) -> Vec<Cell> {
    let mut stops = Vec::new();
    for enemy in enemies.map(|r| &r.facts) {
        if exemption(me, enemy, initiative) != Exemption::None {
            continue;
        }
        for (_, c) in grid.neighbours(enemy.cell) {
            if touches_front(grid, enemy, c) {
                stops.push(c);
            }
        }
    }
    sorted_cells(board, stops.into_iter())
}
