//! What a berserk does outside the blows (§6 FEROCITY): he turns on a friend who tries to
//! calm him ("a 50% chance minus the Beserker's combined IQ and Wisdom that he will turn on
//! his erstwhile friend and treat him exactly as he would any other enemy"), and "he will
//! never carry anything that he does not need in order to fight". His blows, his refusal of
//! defensive cards and his calming at the end of a melee phase live with the cards
//! ([`super::flow::end_phase`]).

use super::fight::{Fight, Fighter, Posture};
use super::tables::seed;
use super::{Dice, Event, Roller};
use crate::rules::ruleset::Activity;

/// May figure `c` try to calm the berserk `b` now? A friend (same side, not turned on), up,
/// on its feet, not berserk itself, touching the berserk, once a turn (`turn`).
pub fn calm_ok(fight: &Fight, c: usize, b: usize, turn: u32) -> Result<(), String> {
    let (fc, fb) = (&fight.fighters[c], &fight.fighters[b]);
    if c == b {
        return Err(format!("{} cannot calm itself (§6 FEROCITY)", fc.id));
    }
    if fc.state.calm_turn == turn {
        return Err(format!(
            "{} has already tried to calm a berserk this turn",
            fc.id
        ));
    }
    if !fb.state.berserk || !fb.is_up() {
        return Err(format!(
            "{} is not a berserk in a blood rage (§6 FEROCITY)",
            fb.id
        ));
    }
    if fc.side != fb.side || fight.hostile(c, b) {
        return Err(format!(
            "{} is no friend of {}: only a friend may try to calm a berserk (§6 FEROCITY)",
            fc.id, fb.id
        ));
    }
    if !fc.is_up() || fc.state.berserk || fc.state.posture != Posture::Standing {
        return Err(format!(
            "{} must be on its feet and in its right mind to calm a berserk (§6 FEROCITY)",
            fc.id
        ));
    }
    if fc.is_mount() {
        return Err(format!("{} is a horse (§6 FEROCITY)", fc.id));
    }
    if !fight.in_contact(c, b) {
        return Err(format!(
            "{} must be next to {} to calm him (§6 FEROCITY)",
            fc.id, fb.id
        ));
    }
    Ok(())
}

/// The chance that berserk `b` turns on a friend who tries to calm him: 50% less his IQ and
/// Wisdom, a further 20% less when that friend is his Lady (or her Man) (`beloved`: "the
/// chance of the Beserker turning on the calming figure is reduced by 20%"), never below 0
/// (§6 FEROCITY).
pub fn turn_on_chance(fight: &Fight, b: usize, beloved: bool) -> i32 {
    let p = &fight.fighters[b].profile;
    let lady = if beloved { seed::BELOVED_CALMING } else { 0 };
    (seed::BERSERK_TURN_ON - lady - p.iq as i32 - p.wisdom as i32).max(0)
}

/// Friend `c` tries to calm berserk `b` on turn `turn` (checked by [`calm_ok`]); `beloved`
/// when `c` is his Lady (or her Man). On a d100 at or under [`turn_on_chance`] the berserk
/// turns on him: from now on he treats `c` as an enemy (they fight in the melee) until he
/// calms. Otherwise — *our reading* of an attempt "to prevent or halt his rampage" — the rage
/// is halted: he calms as at the end of a melee phase, into a stupor if below half his body
/// points.
pub fn calm<D: Dice>(
    fight: &mut Fight,
    c: usize,
    b: usize,
    turn: u32,
    beloved: bool,
    dice: &mut D,
) -> Vec<Event> {
    let mut out = Vec::new();
    let mut r = Roller::new(dice);
    fight.fighters[c].state.calm_turn = turn;
    let need = turn_on_chance(fight, b, beloved);
    let (cid, bid) = (fight.fighters[c].id.clone(), fight.fighters[b].id.clone());
    let how = if beloved {
        "50% − 20% for his Lady (or Man) − IQ − Wisdom"
    } else {
        "50% − IQ − Wisdom"
    };
    let v = r.d100(&bid);
    if (v as i32) <= need {
        fight.fighters[b].state.turned_on.push(cid.clone());
        r.event(
            &mut out,
            format!(
                "{cid} tries to calm {bid}: he turns on his friend on {need} or less ({how}), rolls {v}: {bid} now treats {cid} as an enemy (§6 FEROCITY)."
            ),
        );
    } else {
        let low = calm_down(&mut fight.fighters[b]);
        r.event(
            &mut out,
            format!(
                "{cid} tries to calm {bid}: he turns on his friend on {need} or less ({how}), rolls {v}: the blood rage is halted{} (§6 FEROCITY).",
                if low {
                    "; below half his body points, he collapses into a stupor"
                } else {
                    ""
                }
            ),
        );
    }
    out
}

/// The blood rage ends (by a friend's calming or the roaming roll): no longer berserk, no
/// friend turned on; below half his body points he collapses into a stupor. Returns whether
/// he did.
pub fn calm_down(f: &mut Fighter) -> bool {
    f.state.berserk = false;
    f.state.turned_on.clear();
    let low = f.body * 100 < f.body_max * seed::STUPOR_BELOW_PERCENT;
    f.state.stupor = low;
    low
}

/// A berserk "will never carry anything that he does not need in order to fight (loot,
/// injured friends, etc.)": he may not pick up a comrade or an item. Readying a weapon
/// (`PickUpAndReady`) is for the fight and stays allowed. *Our reading:* the seed's exception
/// (a surrounded group cutting its way out) is not modelled.
///
/// The seed's exception — "unless the group is surrounded and is cutting its way through a
/// wall of enemies" — is `surrounded` (see [`surrounded`]): then he may carry.
pub fn carry_ok(berserk: bool, surrounded: bool, activity: Activity) -> Result<(), String> {
    if berserk && !surrounded && matches!(activity, Activity::PickUpComrade | Activity::PickUpItem)
    {
        Err(
            "§6 FEROCITY: a berserk carries nothing he does not need in order to fight \
             (unless surrounded: enemies next to at least three sides of his stand)"
                .into(),
        )
    } else {
        Ok(())
    }
}

/// Is figure `i` surrounded, for the berserk's exception to carrying nothing (§6 FEROCITY:
/// "the group is surrounded and is cutting its way through a wall of enemies")? *Our
/// reading:* enemies still up stand next to at least three of the four sides of his stand
/// (front, shield, sword, rear, D10) — there is no way out but through them.
pub fn surrounded(fight: &Fight, i: usize) -> bool {
    let me = &fight.fighters[i];
    let grid = fight.board.grid;
    let mut sides = Vec::new();
    for (k, f) in fight.fighters.iter().enumerate() {
        if k != i && fight.hostile(i, k) && f.is_up() && grid.distance(me.cell, f.cell) == 1 {
            let side = grid.side_facing(me.shape, me.cell, me.facing, f.cell);
            if !sides.contains(&side) {
                sides.push(side);
            }
        }
    }
    sides.len() >= 3
}

/// A berserk "will [not] aid friends if there are other enemies closer by" (§6 FEROCITY):
/// may figure `i` aid its friend `j` (a spell cast on him — the only help one figure gives
/// another in the game, since a berserk picks up no comrade, see [`carry_ok`])? Refused while
/// an enemy still up is nearer to him than the friend. A figure not berserk, or aiding
/// itself, always may.
pub fn aid_ok(fight: &Fight, i: usize, j: usize) -> Result<(), String> {
    let me = &fight.fighters[i];
    if !me.state.berserk || i == j || fight.hostile(i, j) {
        return Ok(());
    }
    let d = fight.distance(i, j);
    let nearer = (0..fight.fighters.len())
        .filter(|&k| fight.hostile(i, k) && fight.fighters[k].is_up())
        .map(|k| (fight.distance(i, k), k))
        .filter(|&(dk, _)| dk < d)
        .min();
    match nearer {
        Some((dk, k)) => Err(format!(
            "§6 FEROCITY: {} is berserk and will not aid {} ({d} cells away) while the enemy {} is closer ({dk} cells)",
            me.id, fight.fighters[j].id, fight.fighters[k].id
        )),
        None => Ok(()),
    }
}
