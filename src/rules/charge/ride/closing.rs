//! C4–C5 TAC movement in a ridden charge: the charged figure's face-down TAC card moves it as
//! the horse closes, by the melee's own TAC movement (`melee::moves`).

use super::{Live, State, figs_of, reach_of};
use crate::rules::melee::cards::TacCard;
use crate::rules::melee::fight::Fight;
use crate::rules::melee::tables::Tables;
use crate::rules::melee::{Dice, Event, Roller, moves};

/// The distance in cells at which a target plays its TAC card as the horse closes (C5, *our
/// reading*): one cell before the first exchange, the longer of the rider's and the target's
/// reach, so that the move comes before any blow.
pub fn closing_distance(fight: &Fight, t: &Tables, rider: usize, target: usize) -> i32 {
    let (cr, _) = reach_of(fight, t, rider, true);
    let (tr, _) = reach_of(fight, t, target, false);
    cr.max(tr) + 1
}

/// C4–C5: the charged figures' TAC cards move them as the horse closes. Each designated target
/// not yet struck, not in a mutual charge, that has not yet moved this turn, and that the
/// horse has come within [`closing_distance`] of, makes the move of its face-down TAC card by
/// the melee's own TAC movement (`melee::moves::tac_move`, TAC-phase distances): RETREAT half
/// its move away and RUN AWAY its whole move away (farthest from the nearest enemy), CLOSE 1",
/// FLECHE 2" and CHARGE its charge bonus at the charger, STAND GROUND nothing; KEEP DISTANCE
/// RETREATS before the advancing horse when the figure may retreat, else stands (*our
/// reading*). The exchange point, the closest passage and the contacts then follow the moved
/// figure ([`Walker::recheck`]); a target taken out of the horse's way is released from the
/// order (C6) so that the horse rides on to the next. True when a target played its card.
pub(super) fn closing_moves<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    l: &mut Live,
    st: &mut State,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) -> bool {
    let c = l.ride.rider;
    let mut acted = false;
    let pending: Vec<usize> = l.ride.targets[l.walker.struck.min(l.ride.targets.len())..].to_vec();
    for tg in pending {
        let mutual = st.mutual_units.contains(&tg) && st.mutual_units.contains(&c);
        let Some(answer) = st.answers.get(tg).copied().flatten() else {
            continue;
        };
        let f = &fight.fighters[tg];
        if mutual
            || st.tac_moved.contains(&tg)
            || answer.tac == TacCard::StandGround
            || !f.is_up()
            || fight.distance(c, tg) > closing_distance(fight, t, c, tg)
        {
            continue;
        }
        st.tac_moved.push(tg);
        acted = true;
        let (id, tid) = (fight.fighters[c].id.clone(), fight.fighters[tg].id.clone());
        let card = match answer.tac {
            TacCard::KeepDistance if moves::can_retreat(fight, tg) => TacCard::Retreat,
            TacCard::KeepDistance => {
                r.event(
                    out,
                    format!(
                        "As {id}'s horse closes, {tid} turns up KEEP DISTANCE but may not retreat:                          it stands its ground (C5)."
                    ),
                );
                continue;
            }
            other => other,
        };
        let (text, moved) = moves::tac_move(fight, t, tg, card, Some(c), true);
        let keep = if answer.tac == TacCard::KeepDistance {
            "KEEP DISTANCE, and retreats before the advancing horse"
        } else {
            answer.tac.name()
        };
        r.event(
            out,
            format!("As {id}'s horse closes, {tid} turns up {keep} (C5): {text}"),
        );
        if moved
            && matches!(card, TacCard::Retreat | TacCard::RunAway)
            && let Some(ev) = out.last_mut()
        {
            ev.retreat = Some(fight.fighters[tg].id.clone());
        }
        if moved {
            l.walker.figs = figs_of(fight);
            l.walker.recheck();
        }
    }
    // A target whose card took it out of the horse's way is released from the order (C6).
    while let Some(&next) = l.ride.targets.get(l.walker.struck)
        && st.tac_moved.contains(&next)
        && !l.walker.has_pending()
        && l.walker.release_if_unreachable(&fight.board)
    {
        acted = true;
        let (nid, cid) = (&fight.fighters[next].id, &fight.fighters[c].id);
        let on = l
            .ride
            .targets
            .get(l.walker.struck)
            .map(|&x| format!("; it rides on towards {}", fight.fighters[x].id))
            .unwrap_or_default();
        r.event(
            out,
            format!(
                "{nid} is out of the horse's reach for the rest of this charge: {cid} is released \
                 from its charge on {nid} (C6){on}."
            ),
        );
    }
    acted
}
