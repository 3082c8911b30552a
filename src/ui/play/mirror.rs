//! Copying figures from the game's public rows ([`Game::figure_rows`]) onto the window's
//! mirror entities (see [`crate::ui::bridge`]). A component is written only when its value
//! differs, so change detection — and with it the counters' refresh — fires for what
//! actually changed.
//!
//! [`Game::figure_rows`]: crate::sim::Game::figure_rows

use crate::sim::components::*;
use crate::sim::figure_rows::FigureRow;
use crate::ui::bridge::{Mirror, Mirrors};
use bevy::prelude::*;
use std::collections::HashSet;

/// Equality for mirrored components, some of which do not derive `PartialEq`.
trait Same {
    fn same(&self, other: &Self) -> bool;
}

macro_rules! same_by_eq {
    ($($t:ty),*) => { $(impl Same for $t { fn same(&self, o: &Self) -> bool { self == o } })* };
}
macro_rules! same_by_field {
    ($($t:ty),*) => { $(impl Same for $t { fn same(&self, o: &Self) -> bool { self.0 == o.0 } })* };
}
same_by_eq!(
    SideId,
    Position,
    Facing,
    Diagonal,
    GaitState,
    Allowance,
    Blows,
    Body,
    Troop,
    TemplateKey,
    Rate,
    Trail
);

impl Same for Quality {
    fn same(&self, o: &Self) -> bool {
        (self.raw, self.hero) == (o.raw, o.hero)
    }
}
same_by_field!(FigureName, Weapon, Armour, Shield, Conditions);

fn put<C: Component + Clone + Same>(e: &mut EntityWorldMut, v: &Option<C>) {
    match v {
        Some(v) => {
            if !e.get::<C>().is_some_and(|old| old.same(v)) {
                e.insert(v.clone());
            }
        }
        None => {
            if e.contains::<C>() {
                e.remove::<C>();
            }
        }
    }
}

fn link<C: Component>(
    e: &mut EntityWorldMut,
    to: Option<Entity>,
    make: fn(Entity) -> C,
    get: fn(&C) -> Entity,
) {
    match to {
        Some(t) => {
            if e.get::<C>().map(get) != Some(t) {
                e.insert(make(t));
            }
        }
        None => {
            if e.contains::<C>() {
                e.remove::<C>();
            }
        }
    }
}

/// Makes the mirrors match `rows`: spawns missing ones, updates changed components, links
/// riders and mounts between mirrors, and despawns mirrors of figures that are gone.
pub fn write_mirrors(world: &mut World, rows: &[FigureRow]) {
    let mut mirrors = std::mem::take(&mut world.resource_mut::<Mirrors>().0);
    let keep: HashSet<&str> = rows.iter().map(|r| r.id.0.as_str()).collect();
    mirrors.retain(|id, e| {
        let stays = keep.contains(id.as_str()) && world.get_entity(*e).is_ok();
        if !stays && let Ok(m) = world.get_entity_mut(*e) {
            m.despawn();
        }
        stays
    });
    for r in rows {
        if !mirrors.contains_key(&r.id.0) {
            let e = world.spawn((Mirror, r.id.clone())).id();
            mirrors.insert(r.id.0.clone(), e);
        }
    }
    for r in rows {
        let Some(&me) = mirrors.get(&r.id.0) else {
            continue;
        };
        let riding = r.riding.as_ref().and_then(|id| mirrors.get(id)).copied();
        let carried = r.carried.as_ref().and_then(|id| mirrors.get(id)).copied();
        let mut e = world.entity_mut(me);
        put(&mut e, &r.name);
        put(&mut e, &r.side);
        put(&mut e, &r.pos);
        put(&mut e, &r.facing);
        put(&mut e, &r.diag);
        put(&mut e, &r.gait);
        put(&mut e, &r.allowance);
        put(&mut e, &r.blows);
        put(&mut e, &r.body);
        put(&mut e, &r.troop);
        put(&mut e, &r.weapon);
        put(&mut e, &r.armour);
        put(&mut e, &r.shield);
        put(&mut e, &r.conditions);
        put(&mut e, &r.template);
        put(&mut e, &r.quality);
        put(&mut e, &r.rate);
        put(&mut e, &r.trail);
        link(&mut e, riding, RidingOn, |r| r.0);
        link(&mut e, carried, CarriedBy, |c| c.0);
    }
    world.resource_mut::<Mirrors>().0 = mirrors;
}
