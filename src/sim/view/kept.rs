//! The public view kept between orders, brought up to date figure by figure.
//!
//! The AI reads the board before every order it gives (and every actions-table roll reads it),
//! and after one order only a few figures have changed. The last view is therefore brought up
//! to date in place ([`View::refresh`]) rather than built anew, and only the figures whose
//! components (or whose mount's) were written since the last look are read again: Bevy's
//! change ticks say which (issue 15: reading all 4096 figures after every order was a fifth of
//! an AI side-turn at the limits). A component taken away leaves no tick, so what a figure's
//! view depends on being there (its mount, its combat state, its mount's gait) is remembered
//! and compared too.

use super::{FigQuery, View, fill, link_groups, row_of};
use crate::rules::board::Board;
use crate::rules::ruleset::TroopType;
use crate::sim::changes::{WrittenSince, component_ids};
use crate::sim::components::*;
use crate::sim::groups::Groups;
use crate::sim::phase::{Phase, TurnState};
use crate::sim::table_rolls::ActionRolls;
use crate::sim::world::{Map, Rules};
use bevy::ecs::change_detection::Tick;
use bevy::prelude::*;

/// The change ticks of everything [`FigQuery`] reads of a figure: the same figures match.
type TickQuery = (
    Entity,
    (
        Ref<'static, FigureId>,
        Ref<'static, SideId>,
        Ref<'static, Position>,
        Ref<'static, Facing>,
        Ref<'static, Stand>,
        Ref<'static, Troop>,
        Ref<'static, Quality>,
        Ref<'static, Weapon>,
    ),
    (
        Ref<'static, Body>,
        Ref<'static, Rate>,
        Option<Ref<'static, RidingOn>>,
        Option<Ref<'static, CarriedBy>>,
        Ref<'static, Armour>,
        Ref<'static, Blows>,
        Option<Ref<'static, CombatStatus>>,
    ),
);

/// The change ticks of what [`fill`] reads of a rider's mount.
type MountQuery = (
    Entity,
    Option<Ref<'static, Body>>,
    Option<Ref<'static, Stand>>,
    Option<Ref<'static, Facing>>,
    Option<Ref<'static, GaitState>>,
    Option<Ref<'static, GallopStreak>>,
    Option<Ref<'static, Rate>>,
);

/// A mount as last looked at: which look, which of [`MountQuery`]'s components it had, and
/// whether any was written since the look before.
#[derive(Clone, Copy)]
struct MountSeen {
    entity: Entity,
    look: u32,
    has: u8,
    changed: bool,
}

/// What the kept view remembers to find the figures that changed.
#[derive(Default)]
struct Changes {
    /// The world's change tick at the last look; `None`: read every figure next time.
    since: Option<Tick>,
    looks: u32,
    ticks: Option<QueryState<TickQuery>>,
    mounts: Option<QueryState<MountQuery, With<CarriedBy>>>,
    /// By entity index.
    mount_seen: Vec<Option<MountSeen>>,
    /// By index into the view's figures: its mount and whether it had a combat state.
    rider: Vec<(Option<Entity>, bool)>,
    /// The components the view reads of figures and mounts, and how many times one was taken
    /// away ([`crate::sim::changes::removals_of`]) by the last look.
    read_ids: Vec<bevy::ecs::component::ComponentId>,
    removed: usize,
    /// The rider (index into the view's figures) of each mount, by entity index, `u32::MAX`
    /// for none; with `orphans`, valid while `indexed`.
    by_mount: Vec<u32>,
    /// Riders whose mount was no mount ([`MountQuery`]) at the last full pass: read every time.
    orphans: Vec<usize>,
    /// Every rider's mount is in `by_mount` (no two riders share one): the figures changed
    /// since the last look may be read alone ([`View::refresh_changed`]).
    indexed: bool,
    /// The figures ([`TickQuery`]'s) and the mounts ([`MountQuery`]'s) with a component
    /// written since the last look.
    changed_figs: Option<WrittenSince>,
    changed_mounts: Option<WrittenSince>,
    /// Scratch: the entities they list.
    scratch: Vec<Entity>,
    /// The figures and mounts written since the last look, when `fast`.
    figs_written: Vec<(Entity, bool, bool)>,
    mounts_written: Vec<Entity>,
    /// Nothing was taken away since the last look, so the lists above are all that changed.
    fast: bool,
}

impl Changes {
    /// Lists the figures and mounts written since the last look (issue 15: finding them was
    /// a scan of every component of every figure), when nothing was removed since; `fast`
    /// says whether it could.
    fn collect(&mut self, world: &mut World) {
        self.fast = false;
        let Some(since) = self.since else { return };
        let old = crate::sim::changes::too_old(world, since);
        let removed = crate::sim::changes::removals_of(world, &self.read_ids);
        if old || !self.indexed || removed != self.removed {
            return;
        }
        if self.changed_figs.is_none() {
            self.changed_figs = Some(WrittenSince::new(
                component_ids!(world; FigureId, SideId, Position, Facing, Stand, Troop, Quality,
                    Weapon, Body, Rate, Armour, Blows),
                component_ids!(world; FigureId, SideId, Position, Facing, Stand, Troop, Quality,
                    Weapon, Body, Rate, RidingOn, CarriedBy, Armour, Blows, CombatStatus),
            ));
            self.changed_mounts = Some(WrittenSince::new(
                component_ids!(world; CarriedBy),
                component_ids!(world; Body, Stand, Facing, GaitState, GallopStreak, Rate,
                    CarriedBy),
            ));
        }
        let world: &World = world;
        let figs = self.changed_figs.as_mut().expect("just made");
        let mounts = self.changed_mounts.as_mut().expect("just made");
        let (fw, mw, scratch) = (
            &mut self.figs_written,
            &mut self.mounts_written,
            &mut self.scratch,
        );
        scratch.clear();
        figs.list(world, since, scratch);
        fw.clear();
        fw.extend(scratch.iter().map(|&e| {
            let horse = world
                .get::<Troop>(e)
                .is_some_and(|t| t.0 == TroopType::Horse);
            (e, world.get::<CarriedBy>(e).is_some(), horse)
        }));
        mw.clear();
        mounts.list(world, since, mw);
        self.fast = true;
    }
}

/// The public view kept between orders ([`with_view`]). What it holds is exactly what
/// [`View::build`] would read (the tests compare the two after every order of whole
/// side-turns); it is bookkeeping, not game state, and holds nothing hidden (I4).
#[derive(Resource, Default)]
pub struct ViewCache {
    view: Option<View>,
    /// Index into the view's figures of each entity (by entity index), `u32::MAX` for none.
    slot: Vec<u32>,
    /// The units the view's were linked from (relinked only when they differ).
    units: Groups,
    query: Option<QueryState<FigQuery>>,
    changes: Changes,
    /// How many times the view was read afresh rather than brought up to date.
    reads: usize,
}

impl ViewCache {
    /// How many times the kept view of `world` was read afresh (the tests check that the
    /// refresh is what normally runs).
    pub fn full_reads(world: &World) -> usize {
        world.get_resource::<ViewCache>().map_or(0, |c| c.reads)
    }
}

/// Runs `f` with the public state of `world` as it stands now, from the view kept since the
/// last call, brought up to date (or built, the first time).
pub fn with_view<R>(world: &mut World, f: impl FnOnce(&mut World, &View) -> R) -> R {
    if !world.contains_resource::<ViewCache>() {
        world.insert_resource(ViewCache::default());
    }
    world.resource_scope(|world, mut cache: Mut<ViewCache>| {
        let cache = &mut *cache;
        if cache.query.is_none() {
            cache.query = Some(world.query::<FigQuery>());
            cache.changes.ticks = Some(world.query::<TickQuery>());
            cache.changes.mounts = Some(world.query_filtered::<MountQuery, With<CarriedBy>>());
            cache.changes.read_ids = component_ids!(world; FigureId, SideId, Position, Facing,
                Stand, Troop, Quality, Weapon, Body, Rate, RidingOn, CarriedBy, Armour, Blows,
                CombatStatus, GaitState, GallopStreak);
        }
        // Whatever is written from now on carries a tick newer than `look`.
        let look = world.increment_change_tick();
        let removed = crate::sim::changes::removals_of(world, &cache.changes.read_ids);
        cache.changes.collect(world);
        {
            let world: &World = world;
            let q = cache.query.as_mut().expect("just made");
            let fresh = cache.view.as_mut().is_some_and(|v| {
                v.refresh(world, q, &cache.slot, &mut cache.units, &mut cache.changes)
            });
            cache.changes.removed = removed;
            if fresh {
                cache.changes.since = Some(look);
            } else {
                cache.changes.indexed = false;
                cache.view = Some(View::read(world, q, &mut cache.slot));
                cache.units = world.get_resource::<Groups>().cloned().unwrap_or_default();
                cache.changes.since = None;
                cache.reads += 1;
            }
        }
        f(world, cache.view.as_ref().expect("just read"))
    })
}

impl View {
    /// Brings this view, read earlier from `world` with `q`, up to date in place, exactly as
    /// [`View::read`] would read it: the figures whose components or whose mount's were
    /// written since the last look (`changes`) are read again, and every figure the first
    /// time after a read. The units are linked again only when they differ from `units`,
    /// those they were linked from (the figures' ids cannot have changed). False (and the
    /// view half-updated) when the figures are no longer the same ones, so it must be read
    /// afresh.
    fn refresh(
        &mut self,
        world: &World,
        q: &mut QueryState<FigQuery>,
        slot: &[u32],
        units: &mut Groups,
        ch: &mut Changes,
    ) -> bool {
        let now = world.read_change_tick();
        let newer = |t: Tick, s: Tick| t.is_newer_than(s, now);
        let rules_changed = |s| newer(world.resource_ref::<Rules>().last_changed(), s);
        let mut since = ch.since.filter(|&s| !rules_changed(s));
        if ch.rider.len() != self.figs.len() {
            ch.rider.clear();
            ch.rider.resize(self.figs.len(), (None, false));
            since = None;
        }
        let rules = &world.resource::<Rules>().0;
        ch.looks = ch.looks.wrapping_add(1);
        let fast = match since {
            Some(_) if ch.fast => self.refresh_changed(world, q, slot, ch, rules),
            _ => None,
        };
        match fast {
            Some(false) => return false,
            Some(true) => {}
            None => {
                if !self.refresh_all(world, q, slot, ch, since, rules) {
                    return false;
                }
            }
        }
        let changed = |t: Option<Tick>| since.zip(t).is_none_or(|(s, t)| newer(t, s));

        let groups = world.get_resource_ref::<Groups>();
        if changed(groups.as_ref().map(|g| g.last_changed())) {
            let no_groups = Groups::default();
            let now = groups.as_deref().unwrap_or(&no_groups);
            if now != units {
                link_groups(&mut self.groups, &mut self.figs, now);
                units.clone_from(now);
            }
        }
        self.turn = world.resource::<TurnState>().turn;
        self.phase = *world.resource::<State<Phase>>().get();
        self.grid = rules.grid;
        self.mounted_style = rules.mounted_style;
        let map = world.resource_ref::<Map>();
        if changed(Some(map.last_changed())) && copy_board(&mut self.board, &map.0) {
            // New terrain: the lines of sight traced over the old one are forgotten.
            self.sight.lock().clear();
        }
        let rolls = world.get_resource_ref::<ActionRolls>();
        if changed(rolls.as_ref().map(|r| r.last_changed())) {
            // The rolls only ever grow: the new ones are appended, after checking the old ones.
            let rolls = rolls.as_ref().map_or(&[][..], |r| &r.0);
            if rolls.len() >= self.rolls.len() && rolls[..self.rolls.len()] == self.rolls[..] {
                let n = self.rolls.len();
                self.rolls.extend_from_slice(&rolls[n..]);
            } else {
                self.rolls.clear();
                self.rolls.extend_from_slice(rolls);
            }
        }
        true
    }

    /// [`View::refresh`] when nothing was taken away since the last look (`ch.fast`): only
    /// the figures written since, those whose mount was, and those without a mount that
    /// [`MountQuery`] reads are read again (issue 15). `None` when a rider changed mounts:
    /// every figure must be looked at; otherwise as `refresh`.
    fn refresh_changed(
        &mut self,
        world: &World,
        q: &mut QueryState<FigQuery>,
        slot: &[u32],
        ch: &mut Changes,
        rules: &crate::rules::ruleset::Ruleset,
    ) -> Option<bool> {
        let in_view = |e: Entity| {
            let i = *slot.get(e.index_u32() as usize)? as usize;
            self.figs.get(i).filter(|f| f.entity == e).map(|_| i)
        };
        let mut todo = std::mem::take(&mut ch.orphans);
        let orphans = todo.len();
        for &(e, carried, horse) in &ch.figs_written {
            // As `row_of`: a mount is read with its rider; a riderless horse is no figure.
            if carried || horse {
                if in_view(e).is_some() {
                    ch.orphans = todo;
                    return Some(false);
                }
                continue;
            }
            let Some(i) = in_view(e) else {
                ch.orphans = todo;
                return Some(false);
            };
            if world.get::<RidingOn>(e).map(|r| r.0) != ch.rider[i].0 {
                // A new mount: `by_mount` must be built again.
                todo.truncate(orphans);
                ch.orphans = todo;
                return None;
            }
            todo.push(i);
        }
        for &m in &ch.mounts_written {
            let rider = ch.by_mount.get(m.index_u32() as usize).copied();
            if let Some(i) = rider.filter(|&i| i != u32::MAX).map(|i| i as usize)
                && ch.rider.get(i).is_some_and(|r| r.0 == Some(m))
            {
                todo.push(i);
            }
        }
        let mut ok = true;
        for &i in &todo {
            let e = self.figs[i].entity;
            ch.rider[i] = (
                world.get::<RidingOn>(e).map(|r| r.0),
                world.get::<CombatStatus>(e).is_some(),
            );
            let Some(r) = q.get(world, e).ok().and_then(row_of) else {
                ok = false;
                break;
            };
            let fv = &mut self.figs[i];
            if fv.id != r.id {
                ok = false;
                break;
            }
            let was = (fv.side, fv.cell, fv.down, fv.threat);
            fill(fv, &r, world, rules);
            if was != (fv.side, fv.cell, fv.down, fv.threat) {
                let side = fv.side;
                self.forget_enemy_cells(was.0);
                self.forget_enemy_cells(side);
            }
        }
        todo.truncate(orphans);
        ch.orphans = todo;
        Some(ok)
    }

    /// [`View::refresh`] reading every figure's change ticks: the figures (and mounts)
    /// written since `since` are read again, all of them with `None`. False when the figures
    /// are no longer the same ones. Indexes the riders by mount for [`View::refresh_changed`].
    fn refresh_all(
        &mut self,
        world: &World,
        q: &mut QueryState<FigQuery>,
        slot: &[u32],
        ch: &mut Changes,
        since: Option<Tick>,
        rules: &crate::rules::ruleset::Ruleset,
    ) -> bool {
        let now = world.read_change_tick();
        let newer = |t: Tick, s: Tick| t.is_newer_than(s, now);
        ch.indexed = false;
        ch.orphans.clear();
        ch.by_mount.iter_mut().for_each(|x| *x = u32::MAX);
        let look = ch.looks;
        let mounts = ch.mounts.as_mut().expect("made with the view's query");
        for (m, body, stand, facing, gait, streak, rate) in mounts.iter(world) {
            let ticks = [
                body.map(|x| x.last_changed()),
                stand.map(|x| x.last_changed()),
                facing.map(|x| x.last_changed()),
                gait.map(|x| x.last_changed()),
                streak.map(|x| x.last_changed()),
                rate.map(|x| x.last_changed()),
            ];
            let has = ticks
                .iter()
                .enumerate()
                .fold(0u8, |h, (i, t)| h | (u8::from(t.is_some()) << i));
            let written = since.is_none_or(|s| ticks.iter().flatten().any(|&t| newer(t, s)));
            let k = m.index_u32() as usize;
            if ch.mount_seen.len() <= k {
                ch.mount_seen.resize(k + 1, None);
            }
            let same = ch.mount_seen[k]
                .is_some_and(|b| b.entity == m && b.look.wrapping_add(1) == look && b.has == has);
            ch.mount_seen[k] = Some(MountSeen {
                entity: m,
                look,
                has,
                changed: written || !same,
            });
        }
        let ticks = ch.ticks.as_mut().expect("made with the view's query");
        let mut seen = 0;
        for (e, a, b) in ticks.iter(world) {
            // As `row_of`: a mount is read with its rider; a riderless horse is no figure.
            if b.3.is_some() || a.5.0 == crate::rules::ruleset::TroopType::Horse {
                continue;
            }
            let Some(&i) = slot.get(e.index_u32() as usize) else {
                return false;
            };
            let i = i as usize;
            let Some(fv) = self.figs.get_mut(i) else {
                return false;
            };
            if fv.entity != e {
                return false;
            }
            seen += 1;
            let riding = b.2.as_ref().map(|r| r.0);
            let kept = (riding, b.6.is_some());
            let dirty = since.is_none_or(|s| {
                let own = [
                    a.0.last_changed(),
                    a.1.last_changed(),
                    a.2.last_changed(),
                    a.3.last_changed(),
                    a.4.last_changed(),
                    a.5.last_changed(),
                    a.6.last_changed(),
                    a.7.last_changed(),
                    b.0.last_changed(),
                    b.1.last_changed(),
                    b.4.last_changed(),
                    b.5.last_changed(),
                ];
                let optional = [
                    b.2.as_ref().map(|x| x.last_changed()),
                    b.6.as_ref().map(|x| x.last_changed()),
                ];
                let mount_changed = riding.is_some_and(|m| {
                    ch.mount_seen
                        .get(m.index_u32() as usize)
                        .copied()
                        .flatten()
                        .is_none_or(|x| x.entity != m || x.look != look || x.changed)
                });
                own.iter()
                    .chain(optional.iter().flatten())
                    .any(|&t| newer(t, s))
                    || ch.rider[i] != kept
                    || mount_changed
            });
            ch.rider[i] = kept;
            if !dirty {
                continue;
            }
            let Some(r) = q.get(world, e).ok().and_then(row_of) else {
                return false;
            };
            if fv.id != r.id {
                return false;
            }
            let was = (fv.side, fv.cell, fv.down, fv.threat);
            fill(fv, &r, world, rules);
            if was != (fv.side, fv.cell, fv.down, fv.threat) {
                let side = fv.side;
                self.forget_enemy_cells(was.0);
                self.forget_enemy_cells(side);
            }
        }
        if seen != self.figs.len() {
            return false;
        }
        ch.indexed = true;
        for (i, &(riding, _)) in ch.rider.iter().enumerate() {
            let Some(m) = riding else { continue };
            let k = m.index_u32() as usize;
            if ch.by_mount.len() <= k {
                ch.by_mount.resize(k + 1, u32::MAX);
            }
            if ch.by_mount[k] != u32::MAX {
                ch.indexed = false;
            }
            ch.by_mount[k] = i as u32;
            let seen = ch.mount_seen.get(k).copied().flatten();
            let seen = seen.is_some_and(|x| x.entity == m && x.look == look);
            if !seen {
                ch.orphans.push(i);
            }
        }
        true
    }
}

/// Copies `from` into `to` without allocating when the sizes match (the terrain never
/// changes in a game; the occupancy does after every move). True when the terrain changed.
fn copy_board(to: &mut Board, from: &Board) -> bool {
    let same = (to.grid, to.width, to.height) == (from.grid, from.width, from.height)
        && to.terrain == from.terrain
        && to.terrains == from.terrains;
    to.grid = from.grid;
    to.width = from.width;
    to.height = from.height;
    if !same {
        to.terrain.clone_from(&from.terrain);
        to.terrains.clone_from(&from.terrains);
    }
    if to.occupant.len() == from.occupant.len() {
        to.occupant.copy_from_slice(&from.occupant);
    } else {
        to.occupant.clone_from(&from.occupant);
    }
    !same
}
