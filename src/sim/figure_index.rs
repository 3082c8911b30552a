//! The index of figures by id: bookkeeping that finding a figure by the id an order names
//! reads instead of every figure. It sits below the components (their hooks mark it stale)
//! and knows nothing of them, so the two files do not import each other.

use bevy::prelude::*;

/// Every figure's entity by id, so that finding the figure an order names does not read
/// every figure (issue 15, item 3: at 4096 figures that was a twentieth of an AI side-turn).
/// [`crate::sim::components::FigureId`] is immutable, so its hooks see every id given or taken away
/// ([`figure_ids_changed`]) and the index is read again at the next look-up. It is
/// bookkeeping, not game state: it sits behind a lock in a resource inserted with the
/// simulation and is never written through `ResMut` (see [`crate::sim::transaction`]).
#[derive(Resource)]
pub struct FigureIndex(std::sync::Mutex<Ids>);

/// The ids as last read: the first entity of each and whether another has it too.
pub(super) struct Ids {
    pub(super) stale: bool,
    pub(super) ids: std::collections::HashMap<String, (Entity, bool)>,
}

impl Default for FigureIndex {
    fn default() -> FigureIndex {
        FigureIndex(std::sync::Mutex::new(Ids {
            stale: true,
            ids: Default::default(),
        }))
    }
}

impl FigureIndex {
    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, Ids> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The hook of [`FigureId`]: an id was given or taken away, so the index is read again.
pub fn figure_ids_changed(
    world: bevy::ecs::world::DeferredWorld,
    _: bevy::ecs::lifecycle::HookContext,
) {
    if let Some(ix) = world.get_resource::<FigureIndex>() {
        ix.lock().stale = true;
    }
}
