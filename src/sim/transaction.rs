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
        spawned: spawned(world),
        removed: removals(world),
    }
}

/// True when anything in the world was written, inserted, removed, spawned or despawned since
/// `mark`. A write that stored the same value counts too: the check is conservative, never
/// blind.
pub fn touched_since(world: &mut World, mark: &Mark) -> bool {
    if spawned(world) != mark.spawned || removals(world) != mark.removed {
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

/// How many entities are spawned: the archetypes' sizes added up, one look per archetype
/// (`Entities::count_spawned` reads every entity slot, which at 4096 figures cost a
/// twentieth of a turn in contact when done for every order; issue 33 item 3).
fn spawned(world: &World) -> u32 {
    world.archetypes().iter().map(|a| a.len()).sum()
}

fn removals(world: &World) -> usize {
    world
        .removed_components()
        .iter()
        .map(|(_, m)| m.len())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(bevy::prelude::Component)]
    struct Mark2(u32);

    #[test]
    fn a_spawn_a_despawn_or_a_write_is_seen_and_nothing_done_is_not() {
        let mut world = World::new();
        let a = world.spawn(Mark2(1)).id();
        world.spawn(Mark2(2));
        let m = mark(&mut world);
        assert!(!touched_since(&mut world, &m));
        world.spawn_empty();
        assert!(touched_since(&mut world, &m));
        let m = mark(&mut world);
        world.despawn(a);
        assert!(touched_since(&mut world, &m));
        let m = mark(&mut world);
        let b = world.spawn(Mark2(3)).id();
        world.get_mut::<Mark2>(b).expect("spawned").0 += 1;
        assert!(touched_since(&mut world, &m));
    }
}
