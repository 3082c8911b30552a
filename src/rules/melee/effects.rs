//! What blows and bashes do to a figure: wounds, incapacity and death, the bash results
//! (staggered, to the knees, knocked down, stunned), falling from the saddle.

use super::fight::{Fallen, Fight, Posture};
use super::tables::{BashResult, Tables};
use super::{Dice, Roller};
use crate::rules::grid::{Cell, StandShape};

/// Takes `amount` body points from figure `i` and says what became of it. A berserk is not
/// put out of the fight by wounds, only killed (§6 FEROCITY).
pub fn wound(fight: &mut Fight, i: usize, amount: i32, t: &Tables) -> String {
    let mut s = String::new();
    wound_into(fight, i, amount, t, &mut s);
    s
}

/// [`wound`], written at the end of `s` (the blow's damage line) instead of a new string.
pub fn wound_into(fight: &mut Fight, i: usize, amount: i32, t: &Tables, s: &mut String) {
    use std::fmt::Write as _;
    let f = &mut fight.fighters[i];
    f.body -= amount;
    let _ = write!(
        s,
        "{} loses {amount} body point{} ({} of {} left)",
        f.id,
        if amount == 1 { "" } else { "s" },
        f.body.max(0),
        f.body_max
    );
    s.push_str(&check_fallen(fight, i, t));
}

/// Applies incapacity (body at or under 0) and death (at or under −50% of body points).
pub fn check_fallen(fight: &mut Fight, i: usize, t: &Tables) -> String {
    let f = &fight.fighters[i];
    if f.state.fallen == Fallen::Dead {
        return String::new();
    }
    let dead_at = -(f.body_max * t.dead_below_percent / 100);
    let new = if f.body <= dead_at {
        Fallen::Dead
    } else if f.body <= 0 && !f.state.berserk {
        Fallen::Incapacitated
    } else {
        return if f.body <= 0 {
            " — berserk, he fights on oblivious to his wounds".into()
        } else {
            String::new()
        };
    };
    if new == f.state.fallen {
        return String::new();
    }
    let id = f.id.clone();
    fall_out(fight, i, new);
    match new {
        Fallen::Dead => format!(" — {id} is dead"),
        _ => format!(" — {id} is incapacitated and out of the fight"),
    }
}

/// Puts a figure out of the fight: down on the ground, its grapples released, a rider off
/// its horse, a horse's rider thrown.
pub fn fall_out(fight: &mut Fight, i: usize, how: Fallen) {
    release_all(fight, i);
    let f = &mut fight.fighters[i];
    f.state.fallen = how;
    f.state.posture = Posture::Prone;
    f.state.stunned = 0;
    if f.mounted() {
        dismount(fight, i, None);
    } else if let Some(r) = fight.fighters[i].rider {
        dismount(fight, r, None);
        fight.fighters[r].state.posture = Posture::Prone;
    }
}

/// Releases every hold on or by a figure.
pub fn release_all(fight: &mut Fight, i: usize) {
    // A hold is written on both figures (RESTRAINT, BREAK FREE): a figure that holds nobody
    // and is held by nobody appears in no one else's holds.
    let s = &fight.fighters[i].state;
    if s.restraining.is_none() && s.restrained_by.is_empty() {
        return;
    }
    let id = fight.fighters[i].id.clone();
    for f in fight.fighters.iter_mut() {
        f.state.restrained_by.retain(|x| *x != id);
        if f.state.restraining.as_deref() == Some(id.as_str()) {
            f.state.restraining = None;
        }
    }
    let f = &mut fight.fighters[i];
    f.state.restrained_by.clear();
    f.state.restraining = None;
}

/// Takes a rider off its mount onto a free cell next to it (nearest `near` when given);
/// without a free cell it stays where it is. Returns where it landed.
pub fn dismount(fight: &mut Fight, rider: usize, near: Option<Cell>) -> Option<Cell> {
    let m = fight.fighters[rider].mount?;
    let g = fight.grid();
    let at = fight.fighters[m].cell;
    let mut cells: Vec<Cell> = g
        .neighbours(at)
        .map(|(_, c)| c)
        .filter(|&c| fight.free(c, false))
        .collect();
    if let Some(n) = near {
        cells.sort_by_key(|&c| (fight.far(c, n), c.y, c.x));
    }
    fight.fighters[rider].mount = None;
    fight.fighters[m].rider = None;
    let land = cells.first().copied();
    if let Some(c) = land {
        let facing = fight.fighters[rider].facing;
        let old = fight.fighters[rider].cell;
        fight.moved(rider, old, c);
        fight.fighters[rider].cell = c;
        fight.fighters[rider].facing = facing;
        let k = fight.board.index(c);
        fight.board.occupant[k] = fight.fighters[rider].side + 1;
    }
    fight.fighters[rider].shape = StandShape::Square;
    land
}

/// A bash that got through: 1d6 (on `by`'s dice) on the house bash table, applied to figure
/// `i` bashed from `from`. Returns the d6 and what happened, for the caller's log line.
pub(crate) fn roll_bash<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    by: &str,
    i: usize,
    from: Cell,
    r: &mut Roller<D>,
) -> (u32, String) {
    let k = r.d6(by);
    let res = t.bash_results[(k as usize).clamp(1, 6) - 1];
    (k, bash(fight, i, res, from, t))
}

/// Applies a bash result to figure `i`, bashed from `from`. Riders knocked down fall from the
/// saddle; a rider "to his knees" is rocked in the saddle (staggered, our reading).
pub fn bash(fight: &mut Fight, i: usize, r: BashResult, from: Cell, t: &Tables) -> String {
    let id = fight.fighters[i].id.clone();
    if fight.fighters[i].state.berserk && !matches!(r, BashResult::Staggered) {
        // Bashes still knock a berserk about; only wounds and criticals leave him unmoved.
    }
    let mounted = fight.fighters[i].mounted();
    match r {
        BashResult::Staggered => stagger(fight, i, from),
        BashResult::ToKnees if mounted => {
            fight.fighters[i].state.staggered = true;
            format!("{id} is rocked in the saddle (staggered, −10% next round)")
        }
        BashResult::ToKnees => {
            fight.fighters[i].state.posture = Posture::Kneeling;
            format!("{id} is knocked to his knees (1 blow to regain his feet)")
        }
        BashResult::KnockedDown | BashResult::KnockedDownStunned => {
            let mut s = knock_down(fight, i);
            if r == BashResult::KnockedDownStunned {
                fight.fighters[i].state.stunned = t.stunned_rounds;
                s.push_str(&format!(
                    " and stunned for {} card rounds",
                    t.stunned_rounds
                ));
            }
            s
        }
    }
}

/// Knocks a figure flat: a rider falls from the saddle, a horse throws its rider.
pub fn knock_down(fight: &mut Fight, i: usize) -> String {
    let id = fight.fighters[i].id.clone();
    release_all(fight, i);
    fight.fighters[i].state.posture = Posture::Prone;
    if fight.fighters[i].mounted() {
        let land = dismount(fight, i, None);
        return match land {
            Some(c) => format!("{id} is knocked from the saddle and lands prone at {c}"),
            None => format!("{id} is knocked flat across his saddle"),
        };
    }
    if let Some(r) = fight.fighters[i].rider {
        let rid = fight.fighters[r].id.clone();
        dismount(fight, r, None);
        fight.fighters[r].state.posture = Posture::Prone;
        return format!("{id} goes down and throws {rid}, who lands prone");
    }
    format!("{id} is knocked down (1 blow and 1–4 on a d6 to stand up)")
}

/// Staggered and retreats 5 feet: pushed one cell straight away from `from` if it is free.
pub fn stagger(fight: &mut Fight, i: usize, from: Cell) -> String {
    let id = fight.fighters[i].id.clone();
    fight.fighters[i].state.staggered = true;
    let g = fight.grid();
    let at = fight.fighters[i].cell;
    let mounted = fight.fighters[i].mounted() || fight.fighters[i].is_mount();
    let pushed = g
        .dir_towards(from, at)
        .map(|d| g.neighbour(at, d))
        .filter(|&c| fight.free(c, mounted));
    let unit = fight.unit_of(i);
    match pushed {
        Some(c) if fight.fighters[i].state.restrained_by.is_empty() => {
            let facing = fight.fighters[unit].facing;
            fight.place(unit, c, facing);
            format!("{id} is staggered and falls back to {c} (−10% next round)")
        }
        _ => format!("{id} is staggered but has no room to fall back (−10% next round)"),
    }
}
