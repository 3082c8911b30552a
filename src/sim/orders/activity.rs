//! Activities that spend allowance (D3/R1) and the end of a side's half-move (D4, H6).

use super::mounting::species_rate;
use super::*;
use crate::sim::queries::with_query;

pub(crate) fn activity_order(
    world: &mut World,
    e: Entity,
    id: &str,
    act: Activity,
    phase: Phase,
) -> Result<(), Refusal> {
    let rules = world.resource::<Rules>().0.clone();
    let mounted = world.get::<RidingOn>(e).is_some();
    let a = *world.get::<Allowance>(e).expect("allowance");
    let Some(p) = rules.activities.get(&act) else {
        return refuse(format!(
            "R2/D15: the {} ruleset has no {act:?} activity",
            rules.name
        ));
    };
    if matches!(p, Penalty::HalveAllowance) {
        if mounted {
            log_in(
                world,
                phase,
                format!("{id} fired first; mounted figures keep their full move (D15)."),
            );
            return Ok(());
        }
        let basis = a.basis.scale(Frac::new(1, 2));
        let spent = a.basis - a.left;
        let left = (basis - spent).max(Mp::ZERO);
        *world.get_mut::<Allowance>(e).expect("allowance") = Allowance {
            basis,
            left,
            used_any: true,
        };
        log_in(
            world,
            phase,
            format!("{id} fired or cast first: its move is halved to {basis} (D15)."),
        );
        return Ok(());
    }
    if mounted {
        return refuse("D15/R2: activities are paid from the move on foot; dismount first");
    }
    let enc = world
        .get::<Encumbered>(e)
        .map_or(Encumbrance::None, |x| x.0);
    let species = species_rate(world, e);
    let cost = activity_cost(&rules, act, a.basis, species, enc).unwrap_or(Mp::ZERO);
    if cost > a.left {
        return refuse(format!(
            "D15/R2: {act:?} costs {cost}; only {} left",
            a.left
        ));
    }
    let mut am = world.get_mut::<Allowance>(e).expect("allowance");
    am.left -= cost;
    am.used_any = true;
    let left = am.left;
    crate::sim::phase::log_what(
        world,
        phase,
        format!("{id}: {act:?} costs {cost} of its move (D15/R2); {left} left."),
        crate::sim::log::Happening::ActivityPaid {
            figure: id.to_string(),
            cost,
            left,
        },
    );
    Ok(())
}

/// D4: the side now moving is done; settle diagonal counters (H6) and pass to the next side
/// or phase.
pub(crate) fn end_side(world: &mut World, phase: Phase) -> Result<(), Refusal> {
    let side = world.resource::<TurnState>().side_to_move();
    with_query::<(&SideId, &mut Diagonal), (), _>(world, |world, q| {
        for (s, mut d) in q.iter_mut(world) {
            if Some(s.0) == side && d.0.is_some() {
                d.0 = None;
            }
        }
    });
    let name = side.map_or("nobody".into(), |s| side_name(world, s));
    crate::sim::phase::log_what(
        world,
        phase,
        {
            let w = crate::rules::words::SideWords(&name);
            format!("{name} {} {} half-move.", w.verb("ends", "end"), w.its())
        },
        crate::sim::log::Happening::HalfMoveEnded { side },
    );
    let mut turn = world.resource_mut::<TurnState>();
    turn.active += 1;
    if turn.active >= turn.move_order.len() {
        turn.pending = true;
        world.resource_mut::<NextState<Phase>>().set(phase.next());
    }
    Ok(())
}
