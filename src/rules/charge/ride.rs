//! Riding the revealed charges with dice (C2–C8, K2, K4) on the melee's fight model, so a
//! charge's blows, bashes, falls and broken lances are the same as the card rounds'.
//!
//! Order (C2, D4): mutual charges first, both horses moving together (whoever's next cell
//! comes sooner in its own half-move moves first; the initiative winner on a tie) until one
//! comes within its rider's reach of the other; the "pas des armes" is struck; then the
//! winner of the initiative completes its move, then the loser. Then the winner's other
//! charges, then the loser's, each alone.
//!
//! Why one long file: the exchange of a mutual charge, the order of the charges and each blow
//! work on the same fight mid-ride (positions, gaits, broken lances, who is still mounted), so
//! they are kept beside the one set of helpers that reads and writes it.

use super::{EndReason, Event as Step};
use super::{Fig, Line, Turn, Walker};
use crate::rules::cavalry::{HitOn, hit_falls_on, melee_modifier, slowed};
use crate::rules::gait::Gait;
use crate::rules::grid::Cell;
use crate::rules::melee::attack::{self, Blow, Context, Guard, RoundFacts, Strike, breakdown};
use crate::rules::melee::cards::{DodgeDir, TacCard};
use crate::rules::melee::fight::{Fight, Posture};
use crate::rules::melee::tables::{Tables, WeaponKind, seed};
use crate::rules::melee::{Dice, Event, Roller, effects, grapple};
use crate::rules::movement::{Mover, Pose};
use crate::rules::mp::Mp;
use crate::rules::ruleset::TroopType;
use serde::{Deserialize, Serialize};

mod closing;
pub use closing::closing_distance;
use closing::closing_moves;

/// C3: any critical hit against armour class 4 or better shatters the lance …
pub const LANCE_BREAK_ARMOUR: u8 = 4;
/// … otherwise it breaks on 1–10, hit or miss.
pub const LANCE_BREAK: u32 = 10;
/// C4: a horse crossing a stand stumbles on 1–30 (*our reading*: the seed's stumble of a
/// creature bumped by one of comparable weight, §6 WHEEL).
pub const STUMBLE: u32 = seed::WHEEL_STUMBLE_HEAVY;

/// How a target answers a charge as the horse closes (C5): its MELEE card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Reply {
    /// A blow with its weapon when the horse comes within its reach.
    DeliverBlow,
    /// PULL RIDER FROM SADDLE as the horse passes alongside.
    PullRider,
    /// HAMSTRING HORSE as it passes.
    Hamstring,
    /// WEAPON PARRY against the rider's blow.
    WeaponParry,
    /// ACTIVE SHIELD PARRY against it.
    ActiveShieldParry,
    /// DESPERATE DEFENSE against it.
    DesperateDefense,
    /// DODGE.
    Dodge(DodgeDir),
}

impl Reply {
    /// The card's name.
    pub fn name(self) -> &'static str {
        match self {
            Reply::DeliverBlow => "DELIVER BLOW",
            Reply::PullRider => "PULL RIDER FROM SADDLE",
            Reply::Hamstring => "HAMSTRING HORSE",
            Reply::WeaponParry => "WEAPON PARRY",
            Reply::ActiveShieldParry => "ACTIVE SHIELD PARRY",
            Reply::DesperateDefense => "DESPERATE DEFENSE",
            Reply::Dodge(_) => "DODGE",
        }
    }

    /// The guard it puts up against the rider's blow.
    pub fn guard(self) -> Guard {
        let mut g = Guard::default();
        match self {
            Reply::WeaponParry => g.parry = true,
            Reply::ActiveShieldParry => g.asp = true,
            Reply::DesperateDefense => g.desperate = true,
            Reply::Dodge(d) => g.dodge = Some(d),
            _ => g.psp = true,
        }
        g
    }
}

/// A target's face-down TAC and MELEE choice as the horse closes (C5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    /// Its TAC card (for the Tactical Maneuver Matrix).
    pub tac: TacCard,
    /// Its MELEE card.
    pub reply: Reply,
}

impl Default for Answer {
    /// A figure already in contact with an enemy STANDS GROUND automatically (C5); the
    /// default answer is STAND GROUND and DELIVER BLOW.
    fn default() -> Answer {
        Answer {
            tac: TacCard::StandGround,
            reply: Reply::DeliverBlow,
        }
    }
}

/// The seed's TAC card of a horse by its speed (§6 HORSE (GENERAL)): trot CLOSE, canter
/// FLECHE, gallop and charge CHARGE, otherwise STAND GROUND.
pub fn horse_tac(gait: Gait) -> TacCard {
    match gait {
        Gait::Trot => TacCard::Close,
        Gait::Canter => TacCard::Fleche,
        Gait::Gallop => TacCard::Charge,
        _ => TacCard::StandGround,
    }
}

/// C2: which mounts strike first: a Great Horse (the destrier and the warhorse, as in the
/// combat tables), then a Griffin, then a Hippogriff, then any other. Lower strikes first.
pub fn mount_rank(class: &str) -> u8 {
    match class.to_ascii_lowercase().as_str() {
        "great_horse" | "great horse" | "destrier" | "warhorse" => 0,
        "griffin" | "gryphon" => 1,
        "hippogriff" | "hippogrif" => 2,
        _ => 3,
    }
}

/// K4: a hit on a mounted figure `v` by `a` falls on the horse on a d6 of 1–4, on the rider
/// on 5–6: rolls the d6 (on `a`'s dice), logs it as "K4: 1d6 rolls k: `what` falls on …" and
/// returns the figure struck. A figure on foot is struck itself, with no roll. One rule for a
/// charge's blows and for shots (`rules::fire`).
pub(crate) fn k4_target<D: Dice>(
    fight: &Fight,
    a: usize,
    v: usize,
    what: &str,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) -> usize {
    let Some(m) = fight.fighters[v].mount else {
        return v;
    };
    let k = r.d6(&fight.fighters[a].id);
    let horse = hit_falls_on(k) == HitOn::Horse;
    r.event(
        out,
        format!(
            "K4: 1d6 rolls {k}: {what} falls on {}.",
            if horse { "the horse" } else { "the rider" }
        ),
    );
    if horse { m } else { v }
}

/// C3: does the lance break? A critical hit on armour class 4+ always; otherwise 1–10 on a
/// d100, hit or miss.
pub fn lance_breaks(critical: bool, armour: u8, d100: u32) -> bool {
    (critical && armour >= LANCE_BREAK_ARMOUR) || d100 <= LANCE_BREAK
}

/// Reach of a figure in a charge (C5) in cells, and its length rank for who strikes first:
/// lance and pike 1" (rank 3, one 1" cell between), pole arm, flail — and a charger's spear —
/// 1/2" (rank 2, also the very tall), anything else at closest passage (rank 1). A 1/2" reach
/// does not span an empty cell: ranks 2 and 1 strike in contact (D11).
pub fn reach_of(fight: &Fight, t: &Tables, i: usize, charging: bool) -> (i32, u8) {
    let f = &fight.fighters[i];
    let kind = f.melee_weapon(t).map(|w| w.kind);
    let rank = match kind {
        Some(WeaponKind::Lance | WeaponKind::Pike) => 3,
        Some(WeaponKind::PoleArm | WeaponKind::Flail) => 2,
        Some(WeaponKind::Spear) if charging => 2,
        _ if f.profile.tall => 2,
        _ => 1,
    };
    (if rank >= 3 { 2 } else { 1 }, rank)
}

/// The figures as the charge walker sees them: one per fighter, in the fight's order; a
/// carried mount stands for nothing (its rider is the unit).
pub fn figs_of(fight: &Fight) -> Vec<Fig> {
    fight
        .fighters
        .iter()
        .map(|f| Fig {
            id: f.id.clone(),
            side: f.side,
            cell: f.cell,
            facing: f.facing,
            shape: f.shape,
            riderless_horse: f.is_mount(),
            mounted: f.mounted(),
            out: !f.is_up(),
        })
        .collect()
}

/// One revealed charge, planned and ready to ride.
#[derive(Clone, Debug)]
pub struct ChargeRide {
    /// The rider (fighter index).
    pub rider: usize,
    /// Its mount.
    pub mount: usize,
    /// Designated targets in order (fighter indices of units).
    pub targets: Vec<usize>,
    /// The line planned when it was declared.
    pub line: Line,
    /// The turns between targets planned with it (C6).
    pub turns: Vec<Turn>,
    /// The charge gait.
    pub gait: Gait,
    /// Allowance at that gait.
    pub allowance: Mp,
    /// Step rules at that gait.
    pub mover: Mover,
    /// Starting pose (veers used this turn included).
    pub pose: Pose,
}

/// Where a charge ended and what it released.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RideEnd {
    /// The rider.
    pub rider: usize,
    /// The mount.
    pub mount: usize,
    /// The pose it ended in.
    pub pose: Pose,
    /// The gait it charged at (K1 counts a gallop charge).
    pub charged_at: Gait,
    /// The mount's gait after its contacts (C8).
    pub gait: Gait,
    /// Targets it never reached (released, C6).
    pub released: Vec<usize>,
    /// Where the horse stood when each designated target came within its rider's reach:
    /// (target, cell), in order (C5) — after any TAC move the target made as it closed.
    pub struck_at: Vec<(usize, Cell)>,
}

struct Live {
    ride: ChargeRide,
    walker: Walker,
    engaged: Vec<usize>,
}

/// What the rides need to know of every fighter beyond the fight model, by fighter index.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    /// A target's answer (C5); `None` answers STAND GROUND and DELIVER BLOW.
    pub answers: Vec<Option<Answer>>,
    /// Troop type of each figure (K2).
    pub troops: Vec<TroopType>,
}

/// Rides every charge: `mutual` pairs (indices into `rides`, the initiative winner's first)
/// first, then the rest in the order given.
pub fn ride_all<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    rides: Vec<ChargeRide>,
    mutual: &[(usize, usize)],
    facts: &Facts,
    dice: &mut D,
) -> (Vec<Event>, Vec<RideEnd>) {
    let mut out = Vec::new();
    let mut r = Roller::new(dice);
    let mut st = State {
        facts: RoundFacts::new(fight.fighters.len()),
        struck: Vec::new(),
        answers: facts.answers.clone(),
        troops: facts.troops.clone(),
        mutual_units: Vec::new(),
        tac_moved: Vec::new(),
    };
    let mut lives: Vec<Option<Live>> = rides
        .into_iter()
        .map(|ride| {
            let mut walker = Walker::new(
                ride.mover.clone(),
                ride.line,
                ride.pose,
                ride.allowance,
                figs_of(fight),
                ride.rider,
            );
            let reach = reach_of(fight, t, ride.rider, true).0;
            walker = walker
                .against(ride.targets.clone(), reach)
                .with_turns(ride.turns.clone());
            Some(Live {
                ride,
                walker,
                engaged: Vec::new(),
            })
        })
        .collect();
    for l in lives.iter().flatten() {
        let g = l.ride.gait;
        fight.fighters[l.ride.mount].gait = g;
        fight.fighters[l.ride.rider].gait = g;
        fight.fighters[l.ride.rider].state.tac = Some(horse_tac(g));
        // C7/C8: a movement charge; at the gallop its rider is in the "Full Charge" row.
        fight.fighters[l.ride.rider].state.rode_charge = true;
        fight.fighters[l.ride.mount].state.rode_charge = true;
    }
    let mut ends = Vec::new();
    for &(a, b) in mutual {
        let (Some(la), Some(lb)) = (lives[a].take(), lives[b].take()) else {
            continue;
        };
        st.mutual_units = vec![la.ride.rider, lb.ride.rider];
        let (ia, ib) = (la.ride.rider, lb.ride.rider);
        r.event(
            &mut out,
            format!(
                "Mutual charge (C2): {} and {} ride at each other, moving together.",
                fight.fighters[ia].id, fight.fighters[ib].id
            ),
        );
        let (mut la, mut lb) = (la, lb);
        // Together until the pas des armes.
        loop {
            let met = st
                .struck
                .iter()
                .any(|&(x, y)| (x, y) == (ia, ib) || (x, y) == (ib, ia));
            if met || (la.walker.ended() && lb.walker.ended()) {
                break;
            }
            let a_first = sooner(fight, &la, &lb);
            let l = if a_first { &mut la } else { &mut lb };
            if !advance(fight, t, l, &mut st, &mut r, &mut out) {
                continue;
            }
        }
        // The winner completes its move, then the loser (la is the winner's by construction).
        if st
            .struck
            .iter()
            .any(|&(x, y)| (x, y) == (ia, ib) || (x, y) == (ib, ia))
        {
            r.event(
                &mut out,
                format!(
                    "The pas des armes is over: {} rides on past first (it won the initiative), \
                     then {} (C2).",
                    fight.fighters[ia].id, fight.fighters[ib].id
                ),
            );
        }
        while advance(fight, t, &mut la, &mut st, &mut r, &mut out) {}
        while advance(fight, t, &mut lb, &mut st, &mut r, &mut out) {}
        st.mutual_units.clear();
        ends.push(finish(fight, la, &mut r, &mut out));
        ends.push(finish(fight, lb, &mut r, &mut out));
    }
    for l in lives.iter_mut() {
        if let Some(mut l) = l.take() {
            let id = fight.fighters[l.ride.rider].id.clone();
            let names: Vec<String> = l
                .ride
                .targets
                .iter()
                .map(|&x| fight.fighters[x].id.clone())
                .collect();
            let turning = if l.ride.turns.is_empty() {
                ""
            } else {
                " and turning between its targets"
            };
            r.event(
                &mut out,
                format!(
                    "{id} charges {} at the {}, {}{turning} (C5, C6).",
                    names.join(", then "),
                    l.ride.gait,
                    l.ride.line.words()
                ),
            );
            while advance(fight, t, &mut l, &mut st, &mut r, &mut out) {}
            ends.push(finish(fight, l, &mut r, &mut out));
        }
    }
    (out, ends)
}

struct State {
    facts: RoundFacts,
    struck: Vec<(usize, usize)>,
    answers: Vec<Option<Answer>>,
    troops: Vec<TroopType>,
    mutual_units: Vec<usize>,
    /// Targets that have made their TAC move as a horse closed (one TAC card a turn, C5).
    tac_moved: Vec<usize>,
}

/// True when `a`'s next cell comes no later in its half-move than `b`'s.
fn sooner(fight: &Fight, a: &Live, b: &Live) -> bool {
    if a.walker.ended() {
        return false;
    }
    if b.walker.ended() {
        return true;
    }
    let at = |l: &Live| {
        let cost = l.walker.peek(&fight.board).map_or(Mp::ZERO, |(_, c)| c);
        (
            (l.walker.spent + cost).raw() as i128,
            l.walker.allowance.raw().max(1) as i128,
        )
    };
    let (an, ad) = at(a);
    let (bn, bd) = at(b);
    an * bd <= bn * ad
}

/// One walker event and everything it sets off. False once the walker has ended.
fn advance<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    l: &mut Live,
    st: &mut State,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) -> bool {
    l.walker.figs = figs_of(fight);
    if !l.walker.has_pending() && !l.walker.ended() && closing_moves(fight, t, l, st, r, out) {
        return true;
    }
    let (rider, mount) = (l.ride.rider, l.ride.mount);
    let Some(ev) = l.walker.next(&fight.board) else {
        return false;
    };
    let id = fight.fighters[rider].id.clone();
    match ev {
        Step::Entered { cell, .. } => {
            fight.place(rider, cell, l.walker.pose.facing);
            if l.walker.has_pending() {
                // Strike points and contacts of this cell come first (C5, C6).
                return true;
            }
        }
        Step::StrikePoint { target, side } => {
            l.engaged.push(target);
            if st.struck.contains(&(rider, target)) && st.struck.contains(&(target, rider)) {
                // The pas des armes is already struck: they only ride past.
                return true;
            }
            let rule = if st.mutual_units.contains(&target) && st.mutual_units.contains(&rider) {
                "C2"
            } else {
                "C5"
            };
            r.event(
                out,
                format!(
                    "{id} comes within reach of {} on the {} of its steed ({rule}).",
                    fight.fighters[target].id,
                    match side {
                        super::Side::Left => "left",
                        super::Side::Right => "right",
                        super::Side::Centre => "centre",
                    }
                ),
            );
            if st.mutual_units.contains(&target) && st.mutual_units.contains(&rider) {
                r.event(
                    out,
                    "Movement stops for the pas des armes (C2).".to_string(),
                );
            }
        }
        Step::Contact { fig } => {
            contact(fight, t, l, fig, r, out);
            bystander_counterblow(fight, t, l, fig, st, r, out);
        }
        Step::Turn { line } => {
            let hand = |h: crate::rules::movement::Hand| match h {
                crate::rules::movement::Hand::Left => "left",
                crate::rules::movement::Hand::Right => "right",
            };
            let next = l
                .ride
                .targets
                .get(l.walker.struck)
                .map(|&x| format!(" towards {}", fight.fighters[x].id))
                .unwrap_or_default();
            let past = l
                .walker
                .struck
                .checked_sub(1)
                .and_then(|k| l.ride.targets.get(k))
                .map(|&x| fight.fighters[x].id.clone())
                .unwrap_or_default();
            let at = fight.fighters[rider].cell;
            let how = match (fight.board.grid, line) {
                (crate::rules::grid::GridKind::Hex, Line::Veer(h)) => {
                    format!("veers 60° to the {}", hand(h))
                }
                (_, Line::Ahead) => "turns back onto its heading".to_string(),
                (_, Line::Veer(h)) => format!("veers onto the {} diagonal", hand(h)),
            };
            r.event(
                out,
                format!(
                    "Past {past}, {id} {how} at {at}{next} (C6: a new line after at least 1\" \
                     straight past the contact)."
                ),
            );
        }
        Step::Crossing { fig } => {
            let fid = fight.fighters[fig].id.clone();
            r.event(
                out,
                format!(
                    "{id}'s horse crosses {fid}'s stand: both horses check for stumbling (C4)."
                ),
            );
            let mut horses = vec![mount];
            horses.extend(fight.fighters[fig].mount);
            for h in horses {
                stumble(fight, h, r, out);
            }
        }
        Step::End(reason) => {
            let why = match reason {
                EndReason::Spent => "its movement is spent".to_string(),
                EndReason::Blocked(b) => format!("the way is blocked: {b}"),
                EndReason::Stopped => "it cannot ride on".to_string(),
            };
            let at = fight.fighters[rider].cell;
            r.event(out, format!("{id}'s charge ends at {at}: {why}."));
            return false;
        }
    }
    duels(fight, t, l, st, r, out);
    let f = &fight.fighters[rider];
    if !f.is_up() || f.mount != Some(mount) || !fight.fighters[mount].is_up() {
        l.walker.stop();
    }
    true
}

/// C6: a figure touched by the horse is bashed by the mount; the mount slows 2" (and one speed
/// category if it was a designated target, C8).
fn contact<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    l: &mut Live,
    fig: usize,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) {
    let mount = l.ride.mount;
    let (mid, fid) = (
        fight.fighters[mount].id.clone(),
        fight.fighters[fig].id.clone(),
    );
    let chance = grapple::body_bash_chance(fight, t, mount, fig);
    let v = r.d100(&mid);
    if v as i32 <= chance {
        let from = fight.fighters[mount].cell;
        let (k, what) = effects::roll_bash(fight, t, &mid, fig, from, r);
        r.event(
            out,
            format!("{mid} bashes {fid} as it passes (C6): needs {chance} or less, rolls {v}; 1d6 rolls {k}: {what}."),
        );
    } else {
        r.event(
            out,
            format!("{mid} bashes {fid} as it passes (C6): needs {chance} or less, rolls {v}: {fid} keeps his feet."),
        );
    }
    l.walker.slow();
    let mut text = format!("The contact slows {mid} by 2\" (C6)");
    if l.ride.targets.contains(&fig) {
        let g = slowed(fight.fighters[mount].gait);
        fight.fighters[mount].gait = g;
        let rider = l.ride.rider;
        fight.fighters[rider].gait = g;
        text.push_str(&format!(" and one speed category, to a {g} (C8)"));
    }
    text.push('.');
    r.event(out, text);
}

/// C6: "All figures contacted during a charge (even if not designated as targets) are bashed
/// by the mount and may deliver a counterblow as the mount passes, provided they remain on
/// their feet." A contacted figure that is no target of this charge (a target answers in the
/// exchange, C5), still standing (it kept its feet or is only staggered), armed, and facing
/// the horse (D12: counter-blows only through frontal sides) strikes one counterblow at the
/// rider, K4 sending it to the horse or the rider.
fn bystander_counterblow<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    l: &Live,
    fig: usize,
    st: &mut State,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) {
    let c = l.ride.rider;
    let f = &fight.fighters[fig];
    let able = !l.ride.targets.contains(&fig)
        && !st.struck.contains(&(fig, c))
        && f.is_up()
        && f.state.posture == Posture::Standing
        && f.melee_weapon(t).is_some()
        && fight.fighters[c].is_up()
        && fight.can_strike(fig, c, f.reach(t));
    if !able {
        return;
    }
    st.struck.push((fig, c));
    let d = k4_target(fight, fig, c, "the counterblow", r, out);
    let troop = st.troops.get(fig).copied().unwrap_or(TroopType::Foot);
    let k2 = melee_modifier(troop, fight.fighters[fig].mounted(), false);
    if k2 != 0 {
        r.event(
            out,
            format!("K2: {} {k2:+}% (mounted infantry).", fight.fighters[fig].id),
        );
    }
    fight.fighters[fig].profile.hit += k2;
    attack::strike(
        fight,
        t,
        fig,
        d,
        Strike {
            counter: true,
            ..Strike::plain(Blow::Weapon)
        },
        "a counterblow (C6)",
        &mut st.facts,
        r,
        out,
    );
    fight.fighters[fig].profile.hit -= k2;
}

/// C4: a horse stumbles on 1–30 and goes down, throwing its rider.
fn stumble<D: Dice>(fight: &mut Fight, h: usize, r: &mut Roller<D>, out: &mut Vec<Event>) {
    if !fight.fighters[h].is_up() {
        return;
    }
    let hid = fight.fighters[h].id.clone();
    let v = r.d100(&hid);
    if v <= STUMBLE {
        let what = effects::knock_down(fight, h);
        r.event(
            out,
            format!("{hid} stumbles (1–{STUMBLE}: rolls {v}): {what}."),
        );
    } else {
        r.event(
            out,
            format!("{hid} keeps its footing (stumbles on 1–{STUMBLE}; rolls {v})."),
        );
    }
}

/// Every blow due now between the moving charger and the figures it is engaged with: its
/// own blow on each target within reach, and each target's answer (C2, C5).
fn duels<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    l: &mut Live,
    st: &mut State,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) {
    let c = l.ride.rider;
    for &tg in &l.engaged.clone() {
        let mutual = st.mutual_units.contains(&tg) && st.mutual_units.contains(&c);
        let answer = if mutual {
            Answer::default()
        } else {
            st.answers.get(tg).copied().flatten().unwrap_or_default()
        };
        fight.fighters[tg].state.tac = Some(if mutual {
            horse_tac(fight.fighters[tg].gait)
        } else {
            answer.tac
        });
        st.facts.guards[tg] = if mutual {
            Guard {
                psp: true,
                ..Guard::default()
            }
        } else {
            answer.reply.guard()
        };
        st.facts.guards[c] = Guard {
            psp: true,
            ..Guard::default()
        };
        let (cr, crank) = reach_of(fight, t, c, true);
        let (tr, trank) = reach_of(fight, t, tg, mutual);
        let d = fight.distance(c, tg);
        let c_can = !st.struck.contains(&(c, tg))
            && fight.fighters[c].is_up()
            && fight.fighters[tg].is_up()
            && d <= cr
            && fight.can_strike(c, tg, cr);
        let tf = &fight.fighters[tg];
        let t_blows = mutual || answer.reply == Reply::DeliverBlow;
        let t_can = t_blows
            && !st.struck.contains(&(tg, c))
            && tf.is_up()
            && tf.state.posture == Posture::Standing
            && tf.melee_weapon(t).is_some()
            && d <= tr
            && fight.can_strike(tg, c, tr);
        // Who strikes first (C2, C5): the longer weapon; at equal length the superior mount
        // when both ride; otherwise together.
        let seq: Vec<(usize, usize)> = match (c_can, t_can) {
            (true, true) => {
                let rank = |i: usize| {
                    fight.fighters[i].mount.map_or(3, |m| {
                        mount_rank(fight.fighters[m].horse_class.as_deref().unwrap_or(""))
                    })
                };
                let (cm, tm) = (rank(c), rank(tg));
                let c_first = if crank != trank {
                    Some(crank > trank)
                } else if fight.fighters[tg].mounted() && cm != tm {
                    Some(cm < tm)
                } else {
                    None
                };
                let (cid, tid) = (fight.fighters[c].id.clone(), fight.fighters[tg].id.clone());
                if let Some(first) = c_first {
                    let (w, l) = if first { (&cid, &tid) } else { (&tid, &cid) };
                    let why = if crank != trank {
                        "the longer weapon strikes first (C5)"
                    } else {
                        "the superior mount strikes first (C2: a Great Horse, then a Griffin, then a Hippogriff, then any other)"
                    };
                    r.event(out, format!("{w} strikes before {l}: {why}."));
                }
                match c_first {
                    None => {
                        r.event(out, "The blows are struck together (C2, C5).".to_string());
                        for (a, v) in [(c, tg), (tg, c)] {
                            st.struck.push((a, v));
                        }
                        // K2: in a mutual charge both are charging (seed 004: "Charging
                        // shock cavalry count a +1 to their melee die rolls"). C2: "the
                        // attacks are simultaneous", so each blow is struck as its rider sat
                        // before either landed: a horse the first blow kills still carried
                        // its rider into the second.
                        let (c_up, t_up) =
                            (fight.fighters[c].mounted(), fight.fighters[tg].mounted());
                        blow(fight, t, c, tg, true, c_up, st, r, out);
                        blow(fight, t, tg, c, mutual, t_up, st, r, out);
                        vec![]
                    }
                    Some(true) => vec![(c, tg), (tg, c)],
                    Some(false) => vec![(tg, c), (c, tg)],
                }
            }
            (true, false) => vec![(c, tg)],
            (false, true) => vec![(tg, c)],
            _ => vec![],
        };
        for (k, (a, v)) in seq.into_iter().enumerate() {
            let f = &fight.fighters[a];
            let able = f.is_up()
                && (f.mounted() || f.state.posture == Posture::Standing)
                && fight.fighters[v].is_up();
            if k > 0 && !able {
                continue;
            }
            st.struck.push((a, v));
            let mounted = fight.fighters[a].mounted();
            blow(fight, t, a, v, a == c || mutual, mounted, st, r, out);
        }
        // Grapples at the closest passage (C5).
        if !mutual
            && d == 1
            && matches!(answer.reply, Reply::PullRider | Reply::Hamstring)
            && !st.struck.contains(&(tg, c))
            && fight.fighters[tg].is_up()
        {
            st.struck.push((tg, c));
            if answer.reply == Reply::PullRider {
                grapple::pull_rider(fight, t, tg, c, st.facts.guards[c], false, r, out);
            } else if let Some(m) = fight.fighters[c].mount {
                grapple::hamstring(fight, t, tg, m, r, out);
            }
        }
    }
}

/// The numbers of a charge's blow by `a` at `d` — the ride's own blow rolls against them — the plain weapon
/// blow of the melee's resolver with K2's charging shock cavalry +1 / mounted infantry −1 —
/// so the desktop game shows, before a charge is written, the odds the ride will roll
/// against (the stand side taken from where the charger stands now).
pub fn charge_blow_odds(
    fight: &mut Fight,
    t: &Tables,
    a: usize,
    d: usize,
    troop: TroopType,
    charging: bool,
    guard: &Guard,
) -> attack::Odds {
    let k2 = melee_modifier(troop, fight.fighters[a].mounted(), charging);
    blow_odds(fight, t, a, d, k2, guard)
}

/// [`charge_blow_odds`] with the K2 modifier `k2` already chosen (in a simultaneous exchange,
/// for the striker as it sat before the other blow landed: C2).
fn blow_odds(
    fight: &mut Fight,
    t: &Tables,
    a: usize,
    d: usize,
    k2: i32,
    guard: &Guard,
) -> attack::Odds {
    fight.fighters[a].profile.hit += k2;
    let mut o = breakdown(
        fight,
        t,
        a,
        d,
        &Strike::plain(Blow::Weapon),
        guard,
        &Context::default(),
    );
    fight.fighters[a].profile.hit -= k2;
    if k2 != 0 {
        o.parts.push(("K2 (included above)".into(), k2));
    }
    o
}

/// One blow of the charge, on the horse or the rider of a mounted victim (K4), with the K2
/// modifiers (for a striker that counts as `mounted`) and the lance check (C3).
fn blow<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    a: usize,
    v: usize,
    charging: bool,
    mounted: bool,
    st: &mut State,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) {
    let d = k4_target(
        fight,
        a,
        v,
        &format!("a blow at {}", fight.fighters[v].id),
        r,
        out,
    );
    let troop = st.troops.get(a).copied().unwrap_or(TroopType::Foot);
    let k2 = melee_modifier(troop, mounted, charging);
    if k2 != 0 {
        r.event(
            out,
            format!(
                "K2: {} {:+}% ({}).",
                fight.fighters[a].id,
                k2,
                if k2 > 0 {
                    "charging shock cavalry"
                } else {
                    "mounted infantry"
                }
            ),
        );
    }
    let lance = fight.fighters[a]
        .melee_weapon(t)
        .is_some_and(|w| w.kind == WeaponKind::Lance);
    let g = st.facts.guards[d];
    let o = blow_odds(fight, t, a, d, k2, &g);
    fight.fighters[a].profile.hit += k2;
    let start = out.len();
    let hit = attack::strike(
        fight,
        t,
        a,
        d,
        Strike::plain(Blow::Weapon),
        "DELIVER BLOW",
        &mut st.facts,
        r,
        out,
    );
    fight.fighters[a].profile.hit -= k2;
    if lance && charging {
        let roll = out
            .get(start)
            .and_then(|e| e.rolls.first())
            .map_or(100, |x| x.value);
        let crit = hit && roll as i32 <= o.critical;
        let armour = fight.fighters[d].armour;
        let aid = fight.fighters[a].id.clone();
        if crit && armour >= LANCE_BREAK_ARMOUR {
            fight.fighters[a].state.main_broken = true;
            r.event(
                out,
                format!("The critical hit on armour class {armour} shatters {aid}'s lance (C3)."),
            );
        } else {
            let v = r.d100(&aid);
            if lance_breaks(false, armour, v) {
                fight.fighters[a].state.main_broken = true;
                r.event(
                    out,
                    format!("{aid}'s lance breaks (1–{LANCE_BREAK}: rolls {v}) (C3)."),
                );
            } else {
                r.event(
                    out,
                    format!("{aid}'s lance holds (breaks on 1–{LANCE_BREAK}; rolls {v}) (C3)."),
                );
            }
        }
    }
}

fn finish<D: Dice>(fight: &mut Fight, l: Live, r: &mut Roller<D>, out: &mut Vec<Event>) -> RideEnd {
    let unreached = &l.ride.targets[l.walker.struck.min(l.ride.targets.len())..];
    let mut released: Vec<usize> = l.walker.released.iter().map(|x| x.0).collect();
    released.extend_from_slice(unreached);
    let id = fight.fighters[l.ride.rider].id.clone();
    for &x in unreached {
        r.event(
            out,
            format!(
                "{id} is released from its charge on {} (C6).",
                fight.fighters[x].id
            ),
        );
    }
    let cell: Cell = fight.fighters[l.ride.mount].cell;
    let mut pose = l.walker.pose;
    pose.cell = cell;
    RideEnd {
        rider: l.ride.rider,
        mount: l.ride.mount,
        pose,
        charged_at: l.ride.gait,
        gait: fight.fighters[l.ride.mount].gait,
        released,
        struck_at: l
            .walker
            .strikes
            .iter()
            .map(|&(tg, i, _)| (tg, l.walker.cells[i]))
            .collect(),
    }
}
