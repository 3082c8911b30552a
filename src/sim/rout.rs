//! Rout and escape in the world (issue 12): after a figure's accepted move, `rules::rout` says
//! whether it has left the map — routed, because its unit's actions-table roll this turn said
//! flee or canter away (I2) and it ended on the edge; or got away, because an `Exit`
//! objective names it and it ended on that edge. Either way the figure (with its mount and
//! any horses it leads) is removed from the map, the log says so, and the victory judge is
//! told how it went, so a routed figure is counted as routed, not killed.
//!
//! It runs inside the accepted order, after the move: the order was validated whole first,
//! so a refused move never routs anyone, and replaying the orders routs the same figures.

use super::action_roll::roll_of_figure;
use super::components::{CarriedBy, CombatStatus, FigureId, Leads, Position, RidingOn};
use super::log::Happening;
use super::phase::{Phase, TurnState, log_what};
use super::victory::{Judge, fact_of};
use super::world::{Map, find_figure, sync_occupancy};
use crate::rules::actions::Conduct;
use crate::rules::rout::{exit_by, on_edge, routs};
use crate::rules::victory::{Departure, Edge, Goal};
use bevy::prelude::*;

/// The conduct this turn of the unit `figure` belongs to, from its actions-table roll (I2);
/// `None` when the unit has not rolled this turn.
pub fn conduct_now(world: &World, figure: &str) -> Option<Conduct> {
    roll_of_figure(world, figure).map(|r| r.intent.conduct)
}

/// After `unit`'s accepted move (its id, or its mount's): takes it off the map if it has
/// routed or got away by its exit. Returns how it left, if it did.
pub fn after_move(world: &mut World, unit: &str) -> Option<Departure> {
    let mut e = find_figure(world, unit)?;
    if let Some(c) = world.get::<CarriedBy>(e) {
        e = c.0;
    }
    let id = world.get::<FigureId>(e)?.0.clone();
    let at = world.get::<Position>(e)?.0;
    let (w, h) = {
        let m = &world.resource::<Map>().0;
        (m.width, m.height)
    };
    // Both ways off the map start on its edge; most moves end inside it.
    if !on_edge(at, w, h) {
        return None;
    }
    let edges: Vec<_> = world
        .get_resource::<Judge>()
        .map(|j| {
            j.victory
                .objectives
                .iter()
                .filter_map(|o| match &o.goal {
                    Goal::Exit { figures, edge } if figures.contains(&id) => Some(*edge),
                    _ => None,
                })
                .collect::<Vec<Edge>>()
        })
        .unwrap_or_default();
    let how = match exit_by(&edges, at, w, h) {
        Some(edge) => Departure::Exited(edge),
        None if routs(conduct_now(world, &id), at, w, h) => Departure::Routed,
        None => return None,
    };
    leave(world, e, &id, how);
    Some(how)
}

/// Removes figure `e` (`id`), its mount and the horses it leads from the map, telling the
/// judge and the log how they went.
fn leave(world: &mut World, e: Entity, id: &str, how: Departure) {
    let mut going = vec![e];
    going.extend(world.get::<RidingOn>(e).map(|r| r.0));
    let led: Vec<Entity> = going
        .iter()
        .filter_map(|&x| world.get::<Leads>(x).map(|l| l.0.clone()))
        .flatten()
        .collect();
    going.extend(led);
    let turn = world.resource::<TurnState>().clone();
    let facts: Vec<_> = going.iter().filter_map(|&x| fact_of(world, x)).collect();
    if let Some(mut j) = world.get_resource_mut::<Judge>() {
        for f in &facts {
            j.tracker.depart(f, how, turn.turn);
        }
    }
    let others: Vec<String> = facts
        .iter()
        .filter(|f| f.id != id)
        .map(|f| f.id.clone())
        .collect();
    let with = if others.is_empty() {
        String::new()
    } else {
        format!(" with {}", others.join(", "))
    };
    let text = match how {
        Departure::Routed => format!(
            "{id}{with} flees off the map edge at {}: routed, out of the battle but not killed \
             (I2; rout, docs/rules.md).",
            facts
                .first()
                .map_or_else(String::new, |f| f.cell.to_string())
        ),
        Departure::Exited(edge) => format!(
            "{id}{with} leaves the map by the {} edge, as its objective asks: safe.",
            edge.word()
        ),
    };
    let what = Happening::LeftTheMap {
        figures: facts.iter().map(|f| f.id.clone()).collect(),
        routed: matches!(how, Departure::Routed),
    };
    let phase = *world.resource::<State<Phase>>().get();
    log_what(world, phase, text, what);
    for x in going {
        world.entity_mut(x).despawn();
    }
    release_holds(
        world,
        &facts.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(),
    );
    sync_occupancy(world);
}

/// Takes the figures `gone` (off the map) out of every hold still on the map (RESTRAINT,
/// BREAK FREE), as `rules::melee::effects::release_all` does for a figure that falls: a
/// figure held by one that left is free, and one that held it holds nobody.
fn release_holds(world: &mut World, gone: &[&str]) {
    let mut q = world.query::<&mut CombatStatus>();
    for mut st in q.iter_mut(world) {
        let held =
            st.0.restrained_by
                .iter()
                .any(|x| gone.contains(&x.as_str()));
        let holding =
            st.0.restraining
                .as_deref()
                .is_some_and(|x| gone.contains(&x));
        if held {
            st.0.restrained_by.retain(|x| !gone.contains(&x.as_str()));
        }
        if holding {
            st.0.restraining = None;
        }
    }
}
