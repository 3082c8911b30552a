//! The AI in the fire phases (D3, I3): uncommanded units shoot only at the nearest enemy,
//! measured from figure to nearest figure, and cast their enemy spells at it too; then the
//! side ends its sub-step. Every order it gives passes the same checks as a player's (I4), so
//! none is refused.

use crate::rules::fire::SubStep;
use crate::rules::melee::tables::{SpellTarget, tables};
use crate::sim::components::{FigureId, SideId};
use crate::sim::fire::{cast_odds, current_step, nearest_target, shots_left};
use crate::sim::orders::Order;
use bevy::prelude::*;

/// True when a fire phase waits for `side`'s sub-step.
pub fn side_waits(world: &World, side: u8) -> bool {
    current_step(world).is_some_and(|s| s.side == side)
}

/// The side's figure ids, sorted (a stable order, so AI games replay identically).
fn own_figures(world: &mut World, side: u8) -> Vec<String> {
    let mut q = world.query::<(&FigureId, &SideId)>();
    let mut v: Vec<String> = q
        .iter(world)
        .filter(|(_, s)| s.0 == side)
        .map(|(f, _)| f.0.clone())
        .collect();
    v.sort();
    v
}

/// The AI's next order in a fire sub-step of `side`: a shot (or an enemy spell) at each
/// figure's nearest enemy while one is allowed (I3), then `EndSide`. `None` outside the
/// side's sub-step.
pub fn next_order(world: &mut World, side: u8) -> Option<Order> {
    let step = current_step(world).filter(|s| s.side == side)?;
    for unit in own_figures(world, side) {
        match step.kind {
            SubStep::Fire => {
                if shots_left(world, &unit).unwrap_or(0) == 0 {
                    continue;
                }
                // I3: only the nearest enemy; if it cannot be shot, the figure holds fire.
                if let Some((target, true)) = nearest_target(world, &unit) {
                    return Some(Order::Fire { unit, target });
                }
            }
            SubStep::Cast => {
                let Some((target, _)) = nearest_target(world, &unit) else {
                    continue;
                };
                let spells = crate::sim::world::find_figure(world, &unit)
                    .and_then(|e| world.get::<crate::sim::components::Combatant>(e))
                    .map(|c| c.0.spells.clone())
                    .unwrap_or_default();
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
            SubStep::Misc => {}
        }
    }
    Some(Order::EndSide)
}
