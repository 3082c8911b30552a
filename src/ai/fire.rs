//! The AI in the fire phases (D3, I3): uncommanded units shoot only at the nearest enemy,
//! measured from figure to nearest figure, and cast their enemy spells at it too; then the
//! side ends its sub-step. Every order it gives passes the same checks as a player's (I4), so
//! none is refused.

use crate::rules::fire::SubStep;
use crate::rules::melee::tables::{SpellTarget, tables};
use crate::sim::components::{Combatant, FigureId, SideId};
use crate::sim::fire::{cast_odds, current_step, nearest_target, shooters_with_shots};
use crate::sim::order::Order;
use bevy::prelude::*;

/// True when a fire phase waits for `side`'s sub-step.
pub fn side_waits(world: &World, side: u8) -> bool {
    current_step(world).is_some_and(|s| s.side == side)
}

/// The side's figures that know a spell, by id (a stable order, so AI games replay
/// identically), with their spells.
fn casters(world: &mut World, side: u8) -> Vec<(String, Vec<String>)> {
    let mut q = world.query::<(&FigureId, &SideId, &Combatant)>();
    let mut v: Vec<(String, Vec<String>)> = q
        .iter(world)
        .filter(|(_, s, c)| s.0 == side && !c.0.spells.is_empty())
        .map(|(f, _, c)| (f.0.clone(), c.0.spells.clone()))
        .collect();
    v.sort();
    v
}

/// The AI's next order in a fire sub-step of `side`: a shot (or an enemy spell) at each
/// figure's nearest enemy while one is allowed (I3), then `EndSide`. `None` outside the
/// side's sub-step.
pub fn next_order(world: &mut World, side: u8) -> Option<Order> {
    let step = current_step(world).filter(|s| s.side == side)?;
    match step.kind {
        SubStep::Fire => {
            for (unit, _) in shooters_with_shots(world, side) {
                // I3: only the nearest enemy; if it cannot be shot, the figure holds fire.
                if let Some((target, true)) = nearest_target(world, &unit) {
                    return Some(Order::Fire { unit, target });
                }
            }
        }
        SubStep::Cast => {
            for (unit, spells) in casters(world, side) {
                let Some((target, _)) = nearest_target(world, &unit) else {
                    continue;
                };
                for spell in spells {
                    let hostile = tables()
                        .spells
                        .get(&spell)
                        .is_some_and(|s| s.target == SpellTarget::Enemy);
                    if hostile && cast_odds(world, &unit, &spell, Some(&target)).is_ok() {
                        return Some(Order::Cast {
                            unit,
                            spell,
                            target: Some(target),
                        });
                    }
                }
            }
        }
        SubStep::Misc => {}
    }
    Some(Order::EndSide)
}
