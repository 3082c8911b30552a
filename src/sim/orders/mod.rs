//! The half-move's own orders (D4): moves and gait changes, mounting and dismounting, the
//! activities that spend a move, and a side's end of its half-move. The router
//! ([`super::router`]) hands each of them here; each handler checks the whole order before it
//! writes anything, so a refused one leaves the world as it was.

use super::components::*;
use super::log::GameLog;
use super::motion::setup_move;
use super::order::{Refusal, refuse, steps_text};
use super::phase::{Phase, TurnState, log_in, log_line};
use super::world::{Map, Rules, Sides, find_figure, sync_occupancy};
use crate::rules::allowance::{activity_cost, carry_share, mount_cost};
use crate::rules::asl;
use crate::rules::gait::{Gait, check_gait_change};
use crate::rules::grid::Cell;
use crate::rules::movement::{Pose, Step};
use crate::rules::mp::{Frac, Mp};
use crate::rules::ruleset::{Activity, Encumbrance, Penalty, SteedSize, TroopType};
use bevy::prelude::*;

mod activity;
mod mounting;
mod moving;

pub(crate) use activity::{activity_order, end_side};
pub(crate) use mounting::{check_asl_mount, dismount, mount};
pub(crate) use moving::{GaitPlan, apply_gait, check_gait, do_move, set_gait};

/// Resolves an id to the entity orders act on (a mount's id means its rider), checking that
/// its side is the one moving (D4).
pub(crate) fn own_unit(world: &mut World, id: &str) -> Result<Entity, Refusal> {
    let Some(mut e) = find_figure(world, id) else {
        return refuse(format!("there is no figure {id:?}"));
    };
    if let Some(c) = world.get::<CarriedBy>(e) {
        e = c.0;
    }
    let side = world.get::<SideId>(e).map_or(0, |s| s.0);
    let turn = world.resource::<TurnState>();
    if turn.side_to_move() != Some(side) {
        let mover = turn
            .side_to_move()
            .map_or("nobody".into(), |s| side_name(world, s));
        return refuse(format!(
            "D4: it is {} half-move; {id} belongs to {}",
            crate::rules::words::SideWords(&mover).possessive(),
            side_name(world, side)
        ));
    }
    Ok(e)
}

fn side_name(world: &World, s: u8) -> String {
    world
        .resource::<Sides>()
        .0
        .get(s as usize)
        .map_or(format!("side {s}"), |x| x.name.clone())
}
