//! A refused order changes nothing — made structural rather than left to each order's handler.
//!
//! Saves and undo keep only accepted orders and rebuild a game by replaying them, so a refused
//! order that had already changed the world (a gait set, a die rolled, a line logged) makes the
//! game in memory differ from the one its save replays: the player loses the game. Every
//! handler is written to validate before it applies, but [`Game::order`](super::Game::order)
//! does not rely on that: it marks the world before the order ([`mark`]) and, when the order
//! is refused, asks Bevy's change detection whether anything was touched since
//! ([`touched_since`]); if so it rebuilds the game from its record, the same replay a save
//! load does. Marking is O(1); the check runs on refusals only and walks every entity's
//! components (resources are entities in Bevy 0.19, so they are covered too).

use bevy::ecs::change_detection::Tick;
use bevy::prelude::*;

/// The world as it stood before an order: the change tick, the number of live entities and
/// the number of component removals recorded so far.
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    tick: Tick,
    spawned: u32,
    removed: usize,
}

/// Marks the world before an order is applied. Every component written, inserted or spawned
/// after this carries a newer change tick.
pub fn mark(world: &mut World) -> Mark {
    let tick = world.increment_change_tick();
    Mark {
        tick,
        spawned: world.entities().count_spawned(),
        removed: removals(world),
    }
}

/// True when anything in the world was written, inserted, removed, spawned or despawned since
/// `mark`. A write that stored the same value counts too: the check is conservative, never
/// blind.
pub fn touched_since(world: &mut World, mark: &Mark) -> bool {
    if world.entities().count_spawned() != mark.spawned || removals(world) != mark.removed {
        return true;
    }
    let now = world.change_tick();
    world.iter_entities().any(|e| {
        e.archetype().components().iter().any(|&id| {
            e.get_change_ticks_by_id(id)
                .is_some_and(|t| t.is_changed(mark.tick, now))
        })
    })
}

fn removals(world: &World) -> usize {
    world
        .removed_components()
        .iter()
        .map(|(_, m)| m.len())
        .sum()
}
