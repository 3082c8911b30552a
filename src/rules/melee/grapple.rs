//! Grapples and bashes: the TMM's body bash, TOSS, RESTRAINT and its openings, BREAK FREE,
//! PULL RIDER FROM SADDLE, HAMSTRING HORSE and the horse's WHEEL (§6).

use super::deck::Guard;
use super::effects;
use super::fight::{Fight, Posture};
use super::tables::{BashResult, Kind, Tables, seed};
use super::{Dice, Event, Roller};
use crate::rules::grid::{Dir, StandSide};

/// *Our reading:* Strength above this is "superhuman" (BREAK FREE's ±2% per point).
pub const SUPERHUMAN_STRENGTH: u8 = 18;

/// Chance that `a` bashes `d` in a body bash: the house base ± per 50 lb of weight difference
/// (a rider counts with his mount).
pub fn body_bash_chance(fight: &Fight, t: &Tables, a: usize, d: usize) -> i32 {
    bash_by_weight(t, fight.bash_weight(a) as i64, fight.bash_weight(d) as i64)
}

/// The body-bash chance of a basher of `basher_lb` against a figure of `target_lb`: the
/// house `body_bash` base ± per 50 lb of difference, within the hit limits. One formula for a
/// melee's bashes and an obstacle's (D17, `rules::chance::bash_chance`).
pub fn bash_by_weight(t: &Tables, basher_lb: i64, target_lb: i64) -> i32 {
    let diff = basher_lb - target_lb;
    (t.body_bash.base as i64 + diff / 50 * t.body_bash.per_50_lb as i64)
        .clamp(t.hit_limits.min as i64, t.hit_limits.max as i64) as i32
}

/// §6 TOSS: 50% ± 5% per 100 lb of weight difference in the tosser's favour.
pub fn toss_chance(fight: &Fight, a: usize, d: usize) -> i32 {
    let diff = fight.fighters[a].weight as i64 - fight.fighters[d].weight as i64;
    (seed::TOSS as i64 + diff / 100 * seed::TOSS_PER_100_LB as i64).clamp(0, 100) as i32
}

/// §6 RESTRAINT: 50% ± 3% per Strength point, in the stronger's favour.
pub fn restraint_chance(fight: &Fight, a: usize, d: usize) -> i32 {
    let diff =
        fight.fighters[a].profile.strength as i32 - fight.fighters[d].profile.strength as i32;
    (seed::RESTRAINT + diff * seed::RESTRAINT_PER_STR).clamp(0, 100)
}

/// §6 BREAK FREE from `by`: 25% ± 1% per 10 lb of weight difference, ± 2% per Strength point
/// of difference when either is superhumanly strong.
pub fn break_free_chance(fight: &Fight, i: usize, by: usize) -> i32 {
    let (me, it) = (&fight.fighters[i], &fight.fighters[by]);
    let w = (me.weight as i64 - it.weight as i64) / 10 * seed::BREAK_FREE_PER_10_LB as i64;
    let s = if me.profile.strength > SUPERHUMAN_STRENGTH
        || it.profile.strength > SUPERHUMAN_STRENGTH
    {
        (me.profile.strength as i64 - it.profile.strength as i64) * seed::BREAK_FREE_PER_STR as i64
    } else {
        0
    };
    (seed::BREAK_FREE as i64 + w + s).clamp(0, 100) as i32
}

/// A RESTRAINT opening for `who` against `against`, on 1–25 (§6).
pub(crate) fn opening<D: Dice>(
    fight: &mut Fight,
    who: usize,
    against: usize,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) {
    if !fight.fighters[who].is_up() {
        return;
    }
    // The ids are borrowed for the message, not cloned (a body bash rolls two openings).
    let v = r.d100(&fight.fighters[who].id);
    let (id, aid) = (&fight.fighters[who].id, &fight.fighters[against].id);
    if v <= seed::RESTRAINT_OPENING {
        let text = format!(
            "{id} finds an opening to restrain {aid} (1–{}: rolls {v}); RESTRAINT may follow this round or the next.",
            seed::RESTRAINT_OPENING
        );
        let round = fight.round;
        let aid = aid.clone();
        fight.fighters[who].state.openings.push((aid, round));
        r.event(out, text);
    } else {
        r.event(
            out,
            format!(
                "{id} finds no opening to restrain {aid} (1–{}: rolls {v}).",
                seed::RESTRAINT_OPENING
            ),
        );
    }
}

/// The TMM's body bash between `a` and `b`: each bashes the other; a tosser tosses instead of
/// rolling on the bash table; each may find a RESTRAINT opening.
pub(crate) fn body_bash<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    a: usize,
    b: usize,
    tosses: &[(usize, usize)],
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) {
    r.event(
        out,
        format!(
            "The manoeuvres bring {} and {} crashing together: a body bash (TMM).",
            fight.fighters[a].id, fight.fighters[b].id
        ),
    );
    // Both bashes are decided before either takes effect.
    let mut results = [(0, 0, 0, 0); 2];
    for (k, (x, y)) in [(a, b), (b, a)].into_iter().enumerate() {
        let c = body_bash_chance(fight, t, x, y);
        let v = r.d100(&fight.fighters[x].id);
        results[k] = (x, y, c, v);
    }
    for (x, y, c, v) in results {
        if !fight.fighters[y].is_up() {
            continue;
        }
        if v as i32 > c {
            r.event(
                out,
                format!(
                    "{}'s body bash on {} fails (needs {c} or less, rolls {v}).",
                    fight.fighters[x].id, fight.fighters[y].id
                ),
            );
            continue;
        }
        if tosses.contains(&(x, y)) && fight.fighters[x].is_up() {
            toss(fight, x, y, c, v, r, out);
            continue;
        }
        let (by, from) = (fight.fighters[x].id.clone(), fight.fighters[x].cell);
        let (k, what) = effects::roll_bash(fight, t, &by, y, from, r);
        r.event(
            out,
            format!(
                "{} bashes {} (needs {c} or less, rolls {v}); 1d6 rolls {k}: {what}.",
                fight.fighters[x].id, fight.fighters[y].id
            ),
        );
    }
    opening(fight, a, b, r, out);
    opening(fight, b, a, r, out);
}

fn toss<D: Dice>(
    fight: &mut Fight,
    x: usize,
    y: usize,
    c: i32,
    v: u32,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) {
    let (xid, yid) = (fight.fighters[x].id.clone(), fight.fighters[y].id.clone());
    let tc = toss_chance(fight, x, y);
    let tv = r.d100(&xid);
    if tv as i32 <= tc {
        let what = effects::knock_down(fight, y);
        let sv = r.d100(&xid);
        let also = if sv <= seed::TOSS_SELF {
            fight.fighters[x].state.posture = Posture::Prone;
            format!(
                "; {xid} goes down with him (1–{}: rolls {sv})",
                seed::TOSS_SELF
            )
        } else {
            format!(
                "; {xid} keeps his feet (goes down on 1–{}: rolls {sv})",
                seed::TOSS_SELF
            )
        };
        r.event(
            out,
            format!(
                "{xid}'s bash lands (needs {c}, rolls {v}) and he TOSSES {yid}: knocked flat on {tc} or less, rolls {tv}: {what}{also}."
            ),
        );
    } else {
        fight.fighters[y].state.posture = Posture::Kneeling;
        r.event(
            out,
            format!(
                "{xid}'s bash lands (needs {c}, rolls {v}) and he TOSSES {yid}: knocked flat on {tc} or less, rolls {tv}: not flat, so {yid} goes to his knees."
            ),
        );
    }
}

/// RESTRAINT by `i` on `j`: only with an opening from this card round or the last.
pub(crate) fn restraint<D: Dice>(
    fight: &mut Fight,
    i: usize,
    j: usize,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) {
    let (id, jid) = (fight.fighters[i].id.clone(), fight.fighters[j].id.clone());
    let round = fight.round;
    let has = fight.fighters[i]
        .state
        .openings
        .iter()
        .position(|(w, n)| *w == jid && *n + 1 >= round);
    let Some(k) = has else {
        r.event(
            out,
            format!("{id}'s RESTRAINT finds no opening on {jid}: the blow is spent."),
        );
        return;
    };
    if !fight.in_contact(i, j) || !fight.fighters[j].is_up() {
        r.event(out, format!("{id} cannot reach {jid} to restrain him."));
        return;
    }
    fight.fighters[i].state.openings.remove(k);
    let c = restraint_chance(fight, i, j);
    let v = r.d100(&id);
    if v as i32 <= c {
        fight.fighters[j].state.restrained_by.push(id.clone());
        fight.fighters[i].state.restraining = Some(jid.clone());
        r.event(
            out,
            format!(
                "{id} RESTRAINS {jid} (needs {c} or less, rolls {v}): {jid} may only BREAK FREE."
            ),
        );
    } else {
        r.event(
            out,
            format!("{id} tries to restrain {jid} and fails (needs {c} or less, rolls {v})."),
        );
    }
}

/// BREAK FREE: a check against every restrainer separately (§6).
pub(crate) fn break_free<D: Dice>(
    fight: &mut Fight,
    i: usize,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) {
    let id = fight.fighters[i].id.clone();
    let holders = fight.fighters[i].state.restrained_by.clone();
    for h in holders {
        let Some(k) = fight.index_of(&h) else {
            continue;
        };
        let c = break_free_chance(fight, i, k);
        let v = r.d100(&id);
        if v as i32 <= c {
            fight.fighters[i].state.restrained_by.retain(|x| *x != h);
            fight.fighters[k].state.restraining = None;
            r.event(
                out,
                format!("{id} BREAKS FREE of {h} (needs {c} or less, rolls {v})."),
            );
        } else {
            r.event(
                out,
                format!("{id} strains against {h}'s hold in vain (needs {c} or less, rolls {v})."),
            );
        }
    }
}

/// PULL RIDER FROM SADDLE: 20% + the grappler's hit bonus (+10% for cats), by the horse's
/// speed or WHEEL, less half the rider's parries. A failure may end in a body bash.
pub(crate) fn pull_rider<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    i: usize,
    rider: usize,
    rider_guard: Guard,
    horse_wheels: bool,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) {
    let (id, rid) = (
        fight.fighters[i].id.clone(),
        fight.fighters[rider].id.clone(),
    );
    let Some(h) = fight.fighters[rider].mount else {
        r.event(
            out,
            format!("{rid} is no longer mounted: {id}'s grapple finds nothing."),
        );
        return;
    };
    if !fight.in_contact(i, h) {
        r.event(
            out,
            format!("{id} is not alongside {rid}'s horse: the grapple misses."),
        );
        return;
    }
    let me = &fight.fighters[i];
    let mut c = seed::PULL_RIDER + me.profile.hit;
    let mut parts = vec![format!("base {}", seed::PULL_RIDER)];
    if me.profile.hit != 0 {
        parts.push(format!("hit bonus {:+}", me.profile.hit));
    }
    if me.profile.kind == Kind::AgileBeast {
        c += seed::PULL_RIDER_CAT;
        parts.push(format!("cat {:+}", seed::PULL_RIDER_CAT));
    }
    let g = super::cards::speed_of(fight, rider);
    let gm = if horse_wheels {
        parts.push(format!("horse wheels {:+}", t.pull_rider_wheel));
        t.pull_rider_wheel
    } else {
        let v = t.pull_rider_by_gait.get(&g).copied().unwrap_or(0);
        if v != 0 {
            parts.push(format!("horse at the {g} {v:+}"));
        }
        v
    };
    c += gm;
    let rd = &fight.fighters[rider];
    let side = fight.side_towards(h, me.cell);
    let mut def = 0;
    if rider_guard.parry {
        def += rd.melee_weapon(t).map_or(0, |w| w.parry) + rd.profile.parry;
    }
    if rider_guard.asp && rd.shield_ready() {
        def += t.asp.get(&rd.profile.shield).copied().unwrap_or(0);
    }
    if rider_guard.psp && rd.shield_ready() && side == StandSide::Shield {
        def += seed::PASSIVE_SHIELD;
    }
    if def > 0 {
        c -= def / 2;
        parts.push(format!("half the rider's parries {:+}", -(def / 2)));
    }
    let c = c.clamp(0, 100);
    let v = r.d100(&id);
    if v as i32 <= c {
        let near = fight.fighters[i].cell;
        effects::release_all(fight, rider);
        let land = effects::dismount(fight, rider, Some(near));
        fight.fighters[rider].state.posture = Posture::Prone;
        r.event(
            out,
            format!(
                "{id} PULLS {rid} FROM THE SADDLE ({}; needs {c} or less, rolls {v}): {rid} falls prone{}.",
                parts.join(", "),
                land.map_or(String::new(), |c| format!(" at {c}"))
            ),
        );
        return;
    }
    r.event(
        out,
        format!(
            "{id} fails to pull {rid} from the saddle ({}; needs {c} or less, rolls {v}).",
            parts.join(", ")
        ),
    );
    let b = r.d100(&id);
    if b <= t.pull_rider_bash {
        r.event(
            out,
            format!(
                "Horse, rider and grappler collide (1–{}: rolls {b}).",
                t.pull_rider_bash
            ),
        );
        body_bash(fight, t, h, i, &[], r, out);
    } else {
        r.event(
            out,
            format!("No collision (1–{}: rolls {b}).", t.pull_rider_bash),
        );
    }
}

/// HAMSTRING HORSE: the figure dives prone; on success the horse collapses and throws its
/// rider, and the figure may be pinned; otherwise it ends on the horse's far side.
pub(crate) fn hamstring<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    i: usize,
    h: usize,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) {
    let (id, hid) = (fight.fighters[i].id.clone(), fight.fighters[h].id.clone());
    fight.fighters[i].state.hamstring_tried = true;
    if !fight.in_contact(i, h) || !fight.fighters[h].is_up() {
        r.event(out, format!("{id} cannot reach {hid}'s legs."));
        return;
    }
    let c = (t.hamstring + fight.fighters[i].profile.hit).clamp(0, 100);
    let v = r.d100(&id);
    fight.fighters[i].state.posture = Posture::Prone;
    let start = fight.fighters[i].cell;
    let hc = fight.fighters[h].cell;
    let mut text = if v as i32 <= c {
        fight.fighters[h].state.hamstrung = true;
        let down = effects::knock_down(fight, h);
        format!("{id} dives under {hid} and HAMSTRINGS it (needs {c} or less, rolls {v}): {down}")
    } else {
        format!("{id} dives under {hid} but misses the hamstring (needs {c} or less, rolls {v})")
    };
    let pinned = if fight.fighters[h].state.hamstrung {
        let k = r.d6(&id);
        if k <= t.hamstring_pinned {
            fight.fighters[i].state.stunned = t.stunned_rounds;
            text.push_str(&format!(
                "; the falling horse pins {id} (1–{} on a d6: rolls {k}) for {} card rounds",
                t.hamstring_pinned, t.stunned_rounds
            ));
            true
        } else {
            text.push_str(&format!(
                "; {id} rolls clear (pinned on 1–{}: rolls {k})",
                t.hamstring_pinned
            ));
            false
        }
    } else {
        false
    };
    if !pinned {
        let g = fight.grid();
        if let Some(d) = g.dir_towards(start, hc) {
            let far = g.neighbour(hc, d);
            if fight.free(far, false) {
                let facing = g.rotate(d, g.dirs() as i32 / 2);
                fight.place(i, far, facing);
                text.push_str(&format!(", ending prone on the far side at {far}"));
            }
        }
    }
    text.push('.');
    r.event(out, text);
}

/// WHEEL: the horse whirls to `facing`; men in contact may be knocked down and stunned (50%),
/// creatures within 1½ times its weight may stumble (30% if as heavy, 50% if lighter).
pub(crate) fn wheel<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    h: usize,
    facing: Dir,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) {
    let hid = fight.fighters[h].id.clone();
    let unit = fight.unit_of(h);
    let cell = fight.fighters[h].cell;
    fight.place(unit, cell, facing);
    r.event(
        out,
        format!(
            "{hid} WHEELS in place to face {}.",
            fight.grid().dir_name(facing)
        ),
    );
    let hw = fight.fighters[h].weight as i64;
    let near: Vec<usize> = fight
        .enemies_within(h, 1)
        .into_iter()
        .filter(|&j| fight.in_contact(h, j) && fight.unit_of(j) == j)
        .collect();
    for j in near {
        let jid = fight.fighters[j].id.clone();
        let f = &fight.fighters[j];
        let man = !f.is_mount() && !f.mounted() && f.stand_size <= 10 && f.intelligent();
        if man {
            let v = r.d100(&hid);
            if v <= seed::WHEEL_KNOCK {
                let what = effects::bash(fight, j, BashResult::KnockedDownStunned, cell, t);
                r.event(
                    out,
                    format!(
                        "The wheeling horse bowls over {jid} (1–{}: rolls {v}): {what}.",
                        seed::WHEEL_KNOCK
                    ),
                );
            } else {
                r.event(out, format!("{jid} keeps his feet as the horse wheels (knocked down on 1–{}: rolls {v}).", seed::WHEEL_KNOCK));
            }
            continue;
        }
        let w = fight.bash_weight(j) as i64;
        let chance = if w * 2 > hw * 3 {
            0
        } else if w >= hw {
            seed::WHEEL_STUMBLE_HEAVY
        } else {
            seed::WHEEL_STUMBLE_LIGHT
        };
        if chance == 0 {
            r.event(
                out,
                format!("{jid} is too heavy to be bumped by the wheeling horse."),
            );
            continue;
        }
        let v = r.d100(&hid);
        if v <= chance {
            let what = effects::stagger(fight, j, cell);
            r.event(
                out,
                format!(
                    "The wheeling horse bumps {jid}, who stumbles (1–{chance}: rolls {v}): {what}."
                ),
            );
        } else {
            r.event(
                out,
                format!(
                    "{jid} is bumped but keeps its footing (stumbles on 1–{chance}: rolls {v})."
                ),
            );
        }
    }
}
