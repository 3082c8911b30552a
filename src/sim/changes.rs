//! What Bevy's change ticks do not say: whether a component was taken away (or an entity
//! despawned) since some moment.
//!
//! The kept models read between orders (the view, a move's set-up) look only at the figures
//! whose components carry a change tick newer than their last look (issue 15, item 3: reading
//! all 4096 figures for every order was a third of an AI side-turn at the limits). A write,
//! an insert or a spawn leaves such a tick; a removal leaves none, so they also compare
//! [`removals_of`] the components they read with its value at their last look, and read
//! everything again when it grew.

use bevy::ecs::component::ComponentId;
use bevy::prelude::*;

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
