//! What the kept models read between orders need to know of the world's change ticks: which
//! figures were written since their last look, and whether a component was taken away.
//!
//! The kept models (the view, a move's set-up, the fight model) look only at the figures
//! whose components carry a change tick newer than their last look (issue 15, item 3: reading
//! all 4096 figures for every order was a third of an AI side-turn at the limits). A write,
//! an insert or a spawn leaves such a tick; a removal leaves none, so they also compare
//! [`removals_of`] the components they read with its value at their last look, and read
//! everything again when it grew.

use bevy::ecs::change_detection::Tick;
use bevy::ecs::component::ComponentId;
use bevy::ecs::entity_disabling::DefaultQueryFilters;
use bevy::ecs::storage::TableId;
use bevy::prelude::*;
use std::cell::UnsafeCell;

/// How many removals of the components `ids` (despawns included: each takes every component
/// away) the world has recorded since it was made. It only ever grows: Bevy's removal
/// buffers are cleared every frame, but the count of messages ever written into them is kept,
/// and the oldest one still held plus those held is that count. Resources are left out on
/// purpose: taking one out for a moment (`World::resource_scope`) is a removal too.
pub fn removals_of(world: &World, ids: &[ComponentId]) -> usize {
    let removed = world.removed_components();
    ids.iter()
        .filter_map(|&id| removed.get(id))
        .map(|m| m.oldest_message_count() + m.len())
        .sum()
}

/// True when `since` is too old to tell what was written after it (more than 2³⁰ ticks ago):
/// Bevy clamps very old ticks, so a kept model that old is read afresh. Every look through
/// [`WrittenSince`] is asked this first.
pub fn too_old(world: &World, since: Tick) -> bool {
    world.read_change_tick().get().wrapping_sub(since.get()) > 1 << 30
}

/// The ids of the component types listed, registered in `world` if they were not yet.
macro_rules! component_ids {
    ($world:expr; $($t:ty),+ $(,)?) => {
        vec![$($world.register_component::<$t>()),+]
    };
}
pub(crate) use component_ids;

/// The entities that have every component of `with` and one of `watched` written (or added)
/// since a tick: what `Query<Entity, (With<..>, Or<(Changed<..>, ..)>)>` run with that tick
/// as the world's last change tick lists, in the same order (table by table, row by row).
///
/// Read straight from the tables' columns of change ticks, one column at a time, instead of
/// the query's test of every watched component of each entity in turn (issue 15: with 4096
/// figures and fifteen watched components, the kept models' looks were a quarter of an AI
/// side-turn at the limits). Every component the simulation gives its figures is stored in
/// tables (none is a sparse set), which is what lets the columns answer for them.
#[derive(Clone, Debug, Default)]
pub struct WrittenSince {
    with: Vec<ComponentId>,
    watched: Vec<ComponentId>,
    /// How many of the world's tables were looked at (tables are never taken away).
    seen: usize,
    /// The tables holding the entities looked at, each with the watched components it has.
    matched: Vec<(TableId, Vec<ComponentId>)>,
    /// Scratch, by table row: 1 when written since the tick (bytes, not `bool`s, so that
    /// the loop over a column compiles to vector instructions).
    written: Vec<u8>,
}

/// "Written since": the world's tick now and the age of the tick looked from. For a tick not
/// [`too_old`] this is what Bevy's `Changed` says, without its clamp of very old ticks.
#[derive(Clone, Copy)]
struct Since {
    now: u32,
    age: u32,
}

impl Since {
    fn new(world: &World, since: Tick) -> Since {
        let now = world.read_change_tick().get();
        Since {
            now,
            age: now.wrapping_sub(since.get()),
        }
    }

    /// Sets the byte of `written` of each tick of `ticks` newer than the look.
    fn mark(self, ticks: &[UnsafeCell<Tick>], written: &mut [u8]) {
        for (w, t) in written.iter_mut().zip(ticks) {
            *w |= u8::from(self.newer(t));
        }
    }

    /// True when one tick of `ticks` is newer than the look (a column is read to its end:
    /// the tables asked this are small).
    fn any(self, ticks: &[UnsafeCell<Tick>]) -> bool {
        ticks.iter().fold(false, |a, t| a | self.newer(t))
    }

    fn newer(self, t: &UnsafeCell<Tick>) -> bool {
        // SAFETY: the tick is read through `&World`, so nothing holds the world mutably and
        // no system runs: nothing writes the column while it is read.
        let t = unsafe { *t.get() }.get();
        self.now.wrapping_sub(t) < self.age
    }
}

impl WrittenSince {
    /// Entities with all of `with`; written means one of `watched` written.
    pub fn new(with: Vec<ComponentId>, watched: Vec<ComponentId>) -> Self {
        Self {
            with,
            watched,
            ..Default::default()
        }
    }

    /// Appends to `out` the entities written since `since`, which must not be [`too_old`].
    pub fn list(&mut self, world: &World, since: Tick, out: &mut Vec<Entity>) {
        self.match_tables(world);
        let since = Since::new(world, since);
        let tables = &world.storages().tables;
        for (id, columns) in &self.matched {
            let Some(table) = tables.get(*id).filter(|t| !t.is_empty()) else {
                continue;
            };
            let written = &mut self.written;
            written.clear();
            written.resize(table.entity_count() as usize, 0);
            for ticks in columns
                .iter()
                .filter_map(|&c| table.get_changed_ticks_slice_for(c))
            {
                since.mark(ticks, written);
            }
            let rows = table.entities().iter().zip(written.iter());
            out.extend(rows.filter(|(_, w)| **w != 0).map(|(e, _)| *e));
        }
    }

    /// True when one entity was written since `since` (as [`WrittenSince::list`]).
    pub fn any(&mut self, world: &World, since: Tick) -> bool {
        self.match_tables(world);
        let since = Since::new(world, since);
        let tables = &world.storages().tables;
        self.matched.iter().any(|(id, columns)| {
            // Most tables are passed through while figures are spawned, and left empty.
            tables
                .get(*id)
                .filter(|t| !t.is_empty())
                .is_some_and(|table| {
                    columns
                        .iter()
                        .filter_map(|&c| table.get_changed_ticks_slice_for(c))
                        .any(|ticks| since.any(ticks))
                })
        })
    }

    /// Adds to `matched` the tables made since the last look that hold the entities looked
    /// at: every component of `with`, one of `watched`, and none that disables an entity
    /// (queries leave those out).
    fn match_tables(&mut self, world: &World) {
        let tables = &world.storages().tables;
        if self.seen == tables.len() {
            return;
        }
        let disabling: Vec<ComponentId> = world
            .get_resource::<DefaultQueryFilters>()
            .map(|f| f.disabling_ids().collect())
            .unwrap_or_default();
        for (k, t) in tables.iter().enumerate().skip(self.seen) {
            let columns: Vec<ComponentId> = (self.watched.iter().copied())
                .filter(|&c| t.has_column(c))
                .collect();
            if !columns.is_empty()
                && self.with.iter().all(|&c| t.has_column(c))
                && !disabling.iter().any(|&c| t.has_column(c))
            {
                self.matched.push((TableId::from_usize(k), columns));
            }
        }
        self.seen = tables.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::grid::{Cell, Dir};
    use crate::sim::components::{Facing, Position, SideId};
    use bevy::ecs::entity_disabling::Disabled;

    /// What the `Changed` query it stands for lists since `since`.
    fn query_lists(world: &mut World, since: Tick) -> Vec<Entity> {
        let mut q = world
            .query_filtered::<Entity, (With<SideId>, Or<(Changed<Position>, Changed<Facing>)>)>();
        world.last_change_tick_scope(since, |w| q.iter(w).collect())
    }

    #[test]
    fn written_since_lists_what_the_changed_filters_list() {
        let mut world = World::new();
        let at = |x| Position(Cell::new(x, 0));
        let a = world.spawn((SideId(0), at(0), Facing(Dir(0)))).id();
        let b = world.spawn((SideId(1), at(1))).id();
        let c = world.spawn((SideId(1), Facing(Dir(2)))).id();
        // Not looked at: no `SideId`, or disabled.
        let d = world.spawn(at(3)).id();
        let off = world.spawn((SideId(0), at(4), Disabled)).id();
        let mut w = WrittenSince::new(
            component_ids!(world; SideId),
            component_ids!(world; Position, Facing),
        );
        let since = world.increment_change_tick();
        let mut out = Vec::new();
        w.list(&world, since, &mut out);
        assert!(out.is_empty(), "nothing written since the look: {out:?}");
        assert!(!w.any(&world, since));

        world.get_mut::<Position>(b).expect("b is placed").0 = Cell::new(5, 5);
        world.get_mut::<Facing>(c).expect("c faces").0 = Dir(3);
        world.get_mut::<Position>(d).expect("d is placed").0 = Cell::new(6, 6);
        world.get_mut::<Position>(off).expect("off is placed").0 = Cell::new(7, 7);
        // A component added counts as written; one of another kind does not.
        world.entity_mut(a).insert(Allowed);
        w.list(&world, since, &mut out);
        assert_eq!(out, query_lists(&mut world, since));
        assert_eq!(out, vec![b, c]);
        assert!(w.any(&world, since));

        let later = world.increment_change_tick();
        world.entity_mut(a).insert(Facing(Dir(1)));
        out.clear();
        w.list(&world, later, &mut out);
        assert_eq!(out, query_lists(&mut world, later));
        assert_eq!(out, vec![a]);
    }

    /// A component nobody watches.
    #[derive(Component)]
    struct Allowed;
}
