//! Queries kept from one use to the next, for the order handlers and phases that run on the
//! whole world rather than as systems.
//!
//! Making a `QueryState` walks every archetype and component of the world; an order handler
//! that made one for each `EndSide` spent more on that than on its work (issue 15: replaying
//! 100 000 orders). [`with_query`] keeps each query state made, by its type, in a resource
//! inserted with the simulation. The states are taken out and put back through a lock, never
//! through a mutable borrow of the resource, so using one writes nothing the refused-order
//! check ([`super::transaction`]) would see.

use bevy::ecs::query::{QueryData, QueryFilter};
use bevy::prelude::*;
use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

/// The kept query states, by the type of the state.
#[derive(Resource, Default)]
pub struct KeptQueries(Mutex<HashMap<TypeId, Box<dyn Any + Send + Sync>>>);

impl KeptQueries {
    fn lock(&self) -> MutexGuard<'_, HashMap<TypeId, Box<dyn Any + Send + Sync>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Runs `f` with a query state for `D` filtered by `F` over `world`: the kept one when there
/// is one (brought up to date with the world's archetypes as it is iterated), else a new one,
/// kept afterwards when the world keeps queries.
pub fn with_query<D, F, R>(
    world: &mut World,
    f: impl FnOnce(&mut World, &mut QueryState<D, F>) -> R,
) -> R
where
    D: QueryData + 'static,
    F: QueryFilter + 'static,
{
    let key = TypeId::of::<QueryState<D, F>>();
    let kept = world
        .get_resource::<KeptQueries>()
        .and_then(|k| k.lock().remove(&key))
        .and_then(|b| b.downcast::<QueryState<D, F>>().ok());
    let mut q = match kept {
        Some(q) => *q,
        None => world.query_filtered::<D, F>(),
    };
    let out = f(world, &mut q);
    if let Some(k) = world.get_resource::<KeptQueries>() {
        k.lock().insert(key, Box::new(q));
    }
    out
}
