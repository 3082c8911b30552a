//! One card round (or the TAC phase, round 0) of a melee, resolved in the order the seed
//! gives: cards revealed; spells first; weapons drawn and missiles loosed; the attacker's TAC
//! movement, then the defender's (KEEP DISTANCE reacting); MOVE cards; the TMM's body bashes
//! (TOSS); blows, GREAT BLOWS ordered as §6 says; dodges and their counter-blows; grapples;
//! end-of-round bookkeeping (stuns wear off, openings expire).
//!
//! Why one long file: the steps above run in the seed's order over one round's shared state
//! (the plays, the guards, the round's facts); cutting `resolve` into one function a step with
//! that state as a struct is the remaining part of issue 29's first item.

use super::attack::{self, Blow, Guard, RoundFacts, Strike};
use super::cards::{
    Choice, DodgeDir, HorseCard, MeleeCard, MoveStep, TacCard, WeaponSlot, check_play, play_cost,
    tac_cost,
};
use super::fight::{Fight, Held, Posture};
use super::tables::{Kind, Tables, seed};
use super::{Dice, Event, Roller, effects, grapple, moves, spells};
use crate::rules::grid::StandSide;
use std::borrow::Cow;

/// An opponent's guess at a face-down DODGE (§6, D7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guess {
    /// Who guesses.
    pub guesser: usize,
    /// Whose dodge.
    pub dodger: usize,
    /// Which way.
    pub dir: DodgeDir,
}

/// A blow waiting its turn in the round.
struct Pending {
    by: usize,
    at: usize,
    strike: Strike,
    card: &'static str,
    ferocity: bool,
    tier: u8,
}

/// Resolves one card round: `choices[i]` is figure `i`'s face-down play (`None`: it takes no
/// part), `guesses` the opponents' guesses at dodges. Returns what happened, in order.
pub fn resolve<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    choices: &[Option<Choice>],
    guesses: &[Guess],
    dice: &mut D,
) -> Vec<Event> {
    let tac_phase = fight.round == 0;
    let n = fight.fighters.len();
    // Room for a few events a figure: one large allocation, not a string of regrowths.
    let mut out = Vec::with_capacity(8 + 4 * n);
    let mut r = Roller::new(dice);
    let mut plays: Vec<Option<Cow<Choice>>> = vec![None; n];
    let stunned_at_start: Vec<bool> = fight.fighters.iter().map(|f| f.state.stunned > 0).collect();
    let staggered_at_start: Vec<bool> = fight.fighters.iter().map(|f| f.state.staggered).collect();
    let preparing = super::prepare::watch(fight);
    // Who was in contact when the round began (needed only for those joining, D8).
    let contact_at_start: Vec<bool> = (0..n)
        .map(|i| {
            !tac_phase
                && choices
                    .get(i)
                    .and_then(|c| c.as_ref())
                    .is_some_and(|c| c.tac.is_some())
                && fight
                    .enemies_within(i, 1)
                    .into_iter()
                    .any(|j| fight.in_contact(i, j))
        })
        .collect();
    // Pay for the cards (TAC cards once their movement is known).
    for i in 0..n {
        let Some(c) = choices.get(i).and_then(|c| c.as_ref()) else {
            continue;
        };
        if !fight.fighters[i].is_up() {
            continue;
        }
        if c.forfeit {
            let id = fight.fighters[i].id.clone();
            let b = fight.fighters[i].blows;
            fight.fighters[i].blows = 0;
            out.push(Event::say(format!(
                "{id} has nothing it may play: its {b} remaining blow{} are lost (D7).",
                if b == 1 { "" } else { "s" }
            )));
            plays[i] = Some(Cow::Owned(Choice::default()));
            continue;
        }
        let c: Cow<Choice> = match if c.tac.is_none() && c.melee.is_empty() {
            Ok(0)
        } else {
            check_play(fight, i, c, t, tac_phase)
        } {
            Ok(_) => Cow::Borrowed(c),
            Err(e) => {
                out.push(Event::say(format!(
                    "{}'s cards can no longer be played ({e}): it parries passively.",
                    fight.fighters[i].id
                )));
                Cow::Owned(Choice::default())
            }
        };
        let tac_part = c.tac.map_or(0, |x| tac_cost(x, tac_phase));
        let cost = play_cost(fight, i, &c, t, tac_phase).saturating_sub(tac_part);
        mix_hands(fight, t, i, &c, &mut out);
        let f = &mut fight.fighters[i];
        f.blows = f.blows.saturating_sub(cost);
        let passive = c.tac.is_none()
            && c.melee
                .iter()
                .all(|m| matches!(m, MeleeCard::PassiveShieldParry));
        f.state.psp_streak = if passive { f.state.psp_streak + 1 } else { 0 };
        for m in &c.melee {
            match m {
                MeleeCard::ActiveShieldParry => f.state.asp_used = true,
                MeleeCard::Move(_) if f.profile.kind == Kind::AgileBeast => f.state.free_moves += 1,
                _ => {}
            }
        }
        f.state.fresh_contact = false;
        f.state.moved_against = false;
        plays[i] = Some(c);
    }
    if plays.iter().any(|p| p.is_some()) {
        let plays = plays
            .iter()
            .enumerate()
            .filter_map(|(i, c)| {
                Some(super::FacedPlay {
                    figure: fight.fighters[i].id.clone(),
                    choice: c.as_deref()?.clone(),
                })
            })
            .collect();
        out.push(Event::faced(super::Faced {
            round: if tac_phase { 0 } else { fight.round },
            plays,
            grid: fight.grid(),
        }));
    }
    let cards = |i: usize| plays[i].as_ref().map_or(&[][..], |c| &c.melee[..]);
    let mut facts = RoundFacts::new(n);
    for (i, (guard, play)) in facts.guards.iter_mut().zip(&plays).enumerate() {
        *guard = match play {
            Some(c) => Guard::from_cards(&c.melee),
            None => Guard {
                psp: true,
                ..Guard::default()
            },
        }
        .with_auto_dodge(fight, i);
    }
    for g in guesses {
        let right = cards(g.dodger).contains(&MeleeCard::Dodge(g.dir));
        let attacks = cards(g.guesser).iter().any(|m| m.is_attack());
        if right && attacks {
            facts.guessed.push((g.guesser, g.dodger));
        }
    }
    // Spells are cast first in an exchange (§6 CAST SPELL).
    for i in 0..n {
        for m in cards(i) {
            if let MeleeCard::CastSpell { spell, target } = m {
                spells::cast(fight, t, i, spell, target.as_deref(), &mut r, &mut out);
            }
        }
    }
    // Weapons to hand, spells readied, missiles loaded and loosed.
    for i in 0..n {
        for m in cards(i) {
            match m {
                MeleeCard::DrawWeapon {
                    weapon,
                    shield,
                    sheathe,
                } => out.push(Event::say(draw(fight, t, i, *weapon, *shield, *sheathe))),
                MeleeCard::PrepareSpell => {
                    out.push(Event::say(super::prepare::prepare(fight, i)));
                }
                MeleeCard::Reload => {
                    let f = &mut fight.fighters[i];
                    f.state.unloaded = false;
                    f.state.missile_used = true;
                    out.push(Event::say(format!(
                        "{} reloads its {}.",
                        f.id,
                        f.in_hand_name()
                    )));
                }
                _ => {}
            }
        }
    }
    for i in 0..n {
        for m in cards(i) {
            if let MeleeCard::Fire { target } = m {
                let Some(j) = fight.index_of(target) else {
                    continue;
                };
                let reload = fight.fighters[i].in_hand(t).is_some_and(|w| w.reload);
                {
                    let f = &mut fight.fighters[i];
                    f.state.shots += 1;
                    f.state.missile_used = true;
                    f.state.unloaded = reload;
                }
                if fight.fighters[j].is_up() {
                    attack::strike(
                        fight,
                        t,
                        i,
                        j,
                        Strike::plain(Blow::Missile),
                        "FIRE",
                        &mut facts,
                        &mut r,
                        &mut out,
                    );
                }
            }
        }
    }
    // TAC movement: the attacker's figures, then the defender's (D6); KEEP DISTANCE reacts.
    let order: Vec<usize> = (0..n)
        .filter(|&i| fight.fighters[i].side == fight.attacker)
        .chain((0..n).filter(|&i| fight.fighters[i].side != fight.attacker))
        .collect();
    let mut moved = vec![false; n];
    for batch in [true, false] {
        let keepers =
            (0..n).any(|k| plays[k].as_ref().and_then(|c| c.tac) == Some(TacCard::KeepDistance));
        let contacts_before: Vec<Vec<usize>> = (0..n)
            .map(|i| {
                if keepers {
                    fight
                        .enemies_within(i, 1)
                        .into_iter()
                        .filter(|&j| fight.in_contact(i, j))
                        .collect()
                } else {
                    Vec::new()
                }
            })
            .collect();
        for &i in &order {
            if (fight.fighters[i].side == fight.attacker) != batch {
                continue;
            }
            let Some(c) = plays[i].as_deref() else {
                continue;
            };
            let Some(card) = c.tac else { continue };
            if !fight.fighters[i].is_up() {
                continue;
            }
            fight.fighters[i].state.tac = Some(card);
            if let Some(m) = fight.fighters[i].mount {
                fight.fighters[m].state.tac = Some(card);
            }
            if card == TacCard::Charge {
                fight.fighters[i].state.charged = true;
                fight.fighters[i].state.charged_ever = true;
            }
            let target = c.tac_target.as_deref().and_then(|x| fight.index_of(x));
            let (text, did) = moves::tac_move(fight, t, i, card, target, tac_phase);
            moved[i] = did;
            let mut ev = Event::say(text);
            if did && matches!(card, TacCard::Retreat | TacCard::RunAway) {
                ev = ev.retreating(fight.fighters[i].id.clone());
            }
            out.push(ev);
            if !tac_phase {
                let cost = if did && card.moves() { 2 } else { 1 };
                let f = &mut fight.fighters[i];
                f.blows = f.blows.saturating_sub(cost);
            }
        }
        // KEEP DISTANCE: the other side's keepers fall back before enemies that came at them.
        for &k in &order {
            if (fight.fighters[k].side == fight.attacker) == batch {
                continue;
            }
            if plays[k].as_ref().and_then(|c| c.tac) != Some(TacCard::KeepDistance)
                || !fight.fighters[k].is_up()
            {
                continue;
            }
            let approached = fight
                .enemies_within(k, 1)
                .into_iter()
                .any(|j| moved[j] && fight.in_contact(k, j) && !contacts_before[k].contains(&j));
            if !approached {
                continue;
            }
            let id = fight.fighters[k].id.clone();
            if !moves::can_retreat(fight, k) || (!tac_phase && fight.fighters[k].blows == 0) {
                out.push(Event::say(format!(
                    "{id} keeps its distance no more: it stands its ground."
                )));
                continue;
            }
            let (text, did) = moves::tac_move(fight, t, k, TacCard::Retreat, None, tac_phase);
            moved[k] = did;
            if did && !tac_phase {
                fight.fighters[k].blows -= 1;
            }
            let ev = Event::say(format!("KEEP DISTANCE: {text}"));
            out.push(if did { ev.retreating(id) } else { ev });
        }
    }
    // Joining a melee (D8): later joiners are the TMM's attackers; a figure already in melee
    // that is joined counts as standing its ground ("treat the meleeing figure as having
    // already played a STAND GROUND card as his TAC card"), whatever TAC card it played
    // earlier — unless it plays a TAC card of its own this round.
    if !tac_phase {
        for i in 0..n {
            if plays[i].as_ref().and_then(|c| c.tac).is_none() || contact_at_start[i] {
                continue;
            }
            let now: Vec<usize> = fight
                .enemies_within(i, 1)
                .into_iter()
                .filter(|&j| fight.in_contact(i, j))
                .collect();
            if now.is_empty() {
                continue;
            }
            fight.fighters[i].state.joined = fight.round;
            for j in now {
                if plays[j].as_ref().and_then(|c| c.tac).is_none() {
                    fight.fighters[j].state.tac = Some(TacCard::StandGround);
                }
            }
        }
    }
    // MOVE cards, horse MOVE and WHEEL.
    for i in 0..n {
        for m in cards(i) {
            match m {
                MeleeCard::Move(step) => {
                    let step = *step;
                    let roll = if step == MoveStep::StandUp
                        && fight.fighters[i].state.posture == Posture::Prone
                    {
                        Some(r.d6(&fight.fighters[i].id.clone()))
                    } else {
                        None
                    };
                    let text = moves::do_step(fight, i, step, roll);
                    r.event(&mut out, text);
                }
                MeleeCard::Horse(HorseCard::Move) => {
                    let text = moves::horse_move(fight, t, i);
                    out.push(Event::say(text));
                }
                MeleeCard::Horse(HorseCard::Wheel { facing }) => {
                    grapple::wheel(fight, t, i, *facing, &mut r, &mut out);
                }
                _ => {}
            }
        }
    }
    // C8: a steed at speed turns after it has run (seed 004's rate, on the ground covered).
    for i in 0..n {
        for m in cards(i) {
            if let MeleeCard::Horse(HorseCard::Turn { facing }) = m {
                let id = fight.fighters[i].id.clone();
                let run = u32::from(fight.fighters[i].state.melee_moved);
                match moves::speed_turn_ok(fight, i, *facing, run) {
                    Ok(deg) => {
                        let unit = fight.unit_of(i);
                        let cell = fight.fighters[unit].cell;
                        fight.place(unit, cell, *facing);
                        let st = &mut fight.fighters[i].state;
                        st.melee_turned = st.melee_turned.saturating_add(deg);
                        out.push(Event::say(format!(
                            "{id} turns {deg}° as it runs (C8; seed 004: 45° per quarter of its \
                             move, per half at a gallop)."
                        )));
                    }
                    Err(why) => out.push(Event::say(format!("{id} cannot turn: {why}."))),
                }
            }
        }
    }
    // The TMM's body bashes, with TOSS instead of the bash table.
    let tosses: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| {
            cards(i)
                .iter()
                .filter_map(|m| match m {
                    MeleeCard::Toss { target } => fight.index_of(target).map(|j| (i, j)),
                    _ => None,
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let mut bashed = Vec::new();
    let tac_players: Vec<usize> = (0..n)
        .filter(|&i| plays[i].as_ref().is_some_and(|c| c.tac.is_some()))
        .collect();
    // Enemies in contact found through a cell map (not by looking at every figure).
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    if !tac_players.is_empty() {
        let map = fight.by_cell();
        for &a in &tac_players {
            for b in fight.enemies_near(&map, a, 1) {
                if fight.in_contact(a, b) {
                    pairs.push((a.min(b), a.max(b)));
                }
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    for (a, b) in pairs {
        {
            let (fa, fb) = (&fight.fighters[a], &fight.fighters[b]);
            if !fight.hostile(a, b)
                || !fa.is_up()
                || !fb.is_up()
                || fight.unit_of(a) != a
                || fight.unit_of(b) != b
            {
                continue;
            }
            let played = plays[a].as_ref().is_some_and(|c| c.tac.is_some())
                || plays[b].as_ref().is_some_and(|c| c.tac.is_some());
            if !played || !fight.in_contact(a, b) {
                continue;
            }
            let (x, y) = if attack::tmm_attacker(fight, a, b) {
                (a, b)
            } else {
                (b, a)
            };
            let cell = t.tmm(fight.tac_of(x), fight.tac_of(y));
            if cell.2 {
                grapple::body_bash(fight, t, a, b, &tosses, &mut r, &mut out);
                bashed.push((a, b));
            }
        }
    }
    for &(i, j) in &tosses {
        if !bashed.contains(&(i.min(j), i.max(j))) {
            out.push(Event::say(format!(
                "{}'s TOSS finds no body bash to work with (the TMM gives none): the blow is spent.",
                fight.fighters[i].id
            )));
        }
    }
    blows(fight, t, &plays, &mut facts, &mut r, &mut out);
    dodges(fight, t, &plays, guesses, &mut facts, &mut r, &mut out);
    // Grapples.
    for i in 0..n {
        for m in cards(i) {
            if !fight.fighters[i].is_up() {
                break;
            }
            match m {
                MeleeCard::Restraint { target } => {
                    if let Some(j) = fight.index_of(target) {
                        grapple::restraint(fight, i, j, &mut r, &mut out);
                    }
                }
                MeleeCard::BreakFree => grapple::break_free(fight, i, &mut r, &mut out),
                MeleeCard::PullRider { target } => {
                    if let Some(j) = fight.index_of(target) {
                        let wheels = fight.fighters[j].mount.is_some_and(|h| {
                            cards(h)
                                .iter()
                                .any(|c| matches!(c, MeleeCard::Horse(HorseCard::Wheel { .. })))
                        });
                        let g = facts.guards[j];
                        grapple::pull_rider(fight, t, i, j, g, wheels, &mut r, &mut out);
                    }
                }
                MeleeCard::Horse(HorseCard::Hamstring { target }) => {
                    if let Some(j) = fight.index_of(target) {
                        grapple::hamstring(fight, t, i, j, &mut r, &mut out);
                    }
                }
                _ => {}
            }
        }
    }
    // A man struck in the round he kicks may be bashed (§6 KICK).
    for i in 0..n {
        let kicked = cards(i).iter().any(|m| matches!(m, MeleeCard::Kick { .. }));
        let f = &fight.fighters[i];
        if !kicked
            || f.is_mount()
            || f.profile.kind != Kind::Humanoid
            || !facts.struck[i]
            || !f.is_up()
        {
            continue;
        }
        let dex = if f.dex >= 10 { f.dex as i32 } else { 0 };
        let c = (seed::KICK_STRUCK_BASH - dex).max(0);
        let id = f.id.clone();
        if c == 0 {
            out.push(Event::say(format!(
                "{id} was struck while kicking, but his Dexterity keeps him steady (20% − {dex})."
            )));
            continue;
        }
        let v = r.d100(&id);
        if v as i32 <= c {
            let from = fight.fighters[i].cell;
            let (k, what) = effects::roll_bash(fight, t, &id, i, from, &mut r);
            r.event(&mut out, format!("{id} was struck while kicking: bashed on {c} or less, rolls {v}; 1d6 rolls {k}: {what}."));
        } else {
            r.event(
                &mut out,
                format!(
                    "{id} was struck while kicking but keeps his balance ({c} or less, rolls {v})."
                ),
            );
        }
    }
    super::prepare::disturbed(fight, &preparing, &facts.struck, &mut out);
    // End of the round.
    let round = fight.round;
    for (i, f) in fight.fighters.iter_mut().enumerate() {
        if stunned_at_start[i] && f.state.stunned > 0 {
            f.state.stunned -= 1;
        }
        if staggered_at_start[i] {
            f.state.staggered = false;
        }
        f.state.openings.retain(|(_, k)| *k >= round);
    }
    fight.round += 1;
    out
}

/// §6 HAND-TO-HAND: a figure that mixes its weapon with punches and kicks in a melee phase
/// averages its weapon and hand-to-hand blows.
fn mix_hands(fight: &mut Fight, t: &Tables, i: usize, c: &Choice, out: &mut Vec<Event>) {
    let f = &fight.fighters[i];
    let hands = c
        .melee
        .iter()
        .any(|m| matches!(m, MeleeCard::Punch { .. } | MeleeCard::Kick { .. }));
    if !hands || f.state.mixed_hands || f.is_mount() || f.melee_weapon(t).is_none() {
        return;
    }
    let Some(h) = f.profile.hand_blows else {
        return;
    };
    let full = f.phase_blows();
    let avg = (full as u32 + h as u32) / 2;
    let loss = (full as u32).saturating_sub(avg) as u8;
    let id = f.id.clone();
    let f = &mut fight.fighters[i];
    f.state.mixed_hands = true;
    if loss > 0 {
        f.blows = f.blows.saturating_sub(loss);
        out.push(Event::say(format!(
            "{id} mixes weapon and hand-to-hand: ({full} + {h}) / 2 = {avg} blows this phase, {loss} lost (§6 HAND-TO-HAND)."
        )));
    }
}

fn draw(
    fight: &mut Fight,
    t: &Tables,
    i: usize,
    weapon: Option<WeaponSlot>,
    shield: bool,
    sheathe: bool,
) -> String {
    let f = &mut fight.fighters[i];
    let before = f.in_hand_name().to_string();
    let mut s = f.id.clone();
    if let Some(w) = weapon {
        if f.state.held != Held::Nothing && !sheathe {
            match f.state.held {
                Held::Main => f.state.main_lost = true,
                Held::Sidearm => f.state.sidearm_lost = true,
                Held::Nothing => {}
            }
            s.push_str(&format!(" drops its {before} and"));
        } else if sheathe {
            s.push_str(&format!(" sheathes its {before} and"));
        }
        f.state.held = match w {
            WeaponSlot::Main => Held::Main,
            WeaponSlot::Sidearm => Held::Sidearm,
        };
        s.push_str(&format!(" draws its {}", f.in_hand_name()));
    }
    if shield {
        f.state.shield_down = false;
        s.push_str(if weapon.is_some() {
            " and readies its shield"
        } else {
            " readies its shield"
        });
    }
    if f.state.missile_used {
        s.push_str(" (after missile play this phase: 1 blow more, §6)");
    }
    let _ = t;
    s.push('.');
    s
}

/// The round's blows, in the order §6 sets: GREAT BLOWS at a back first; then blows at a
/// figure that is about to GREAT BLOW; then the rest together (a figure felled by an earlier
/// step does not strike; within a step blows are simultaneous).
fn blows<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    plays: &[Option<Cow<Choice>>],
    facts: &mut RoundFacts,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) {
    let n = fight.fighters.len();
    let great_at = |i: usize| -> bool {
        plays[i].as_ref().is_some_and(|c| {
            c.melee
                .iter()
                .any(|m| matches!(m, MeleeCard::GreatBlow { .. }))
        })
    };
    let mut pending: Vec<Pending> = Vec::new();
    let order: Vec<usize> = (0..n)
        .filter(|&i| fight.fighters[i].side == fight.attacker)
        .chain((0..n).filter(|&i| fight.fighters[i].side != fight.attacker))
        .collect();
    for &i in &order {
        let Some(c) = &plays[i] else { continue };
        for m in &c.melee {
            let Some(j) = m.target().and_then(|x| fight.index_of(x)) else {
                continue;
            };
            let (strike, card, ferocity) =
                match m {
                    MeleeCard::GreatBlow { target } => {
                        let fer = c.melee.iter().any(
                            |x| matches!(x, MeleeCard::Ferocity { target: t2 } if t2 == target),
                        );
                        (
                            Strike {
                                great: true,
                                ..Strike::plain(Blow::Weapon)
                            },
                            if fer {
                                "GREAT BLOW with FEROCITY"
                            } else {
                                "GREAT BLOW"
                            },
                            fer,
                        )
                    }
                    MeleeCard::Ferocity { target } => {
                        if c.melee.iter().any(
                            |x| matches!(x, MeleeCard::GreatBlow { target: t2 } if t2 == target),
                        ) {
                            continue;
                        }
                        (Strike::plain(Blow::Weapon), "FEROCITY", true)
                    }
                    MeleeCard::DeliverBlow { .. } => {
                        (Strike::plain(Blow::Weapon), "DELIVER BLOW", false)
                    }
                    MeleeCard::Punch { .. } => (Strike::plain(Blow::Punch), "PUNCH", false),
                    MeleeCard::Kick { .. } if fight.fighters[i].is_mount() => {
                        (Strike::plain(Blow::HorseKick), "KICK", false)
                    }
                    MeleeCard::Kick { .. } => (Strike::plain(Blow::Kick), "KICK", false),
                    MeleeCard::Horse(HorseCard::Trample { .. }) => {
                        (Strike::plain(Blow::Trample), "TRAMPLE", false)
                    }
                    _ => continue,
                };
            let back = fight.side_towards(j, fight.fighters[i].cell) == StandSide::Rear;
            let tier = if strike.great && back {
                0
            } else if great_at(j) && !strike.great {
                1
            } else {
                2
            };
            pending.push(Pending {
                by: i,
                at: j,
                strike,
                card,
                ferocity,
                tier,
            });
        }
    }
    // D12: "-25% for the defender's reply" — a reply struck in the same round counts it
    // whichever side's blows are resolved first.
    for p in &pending {
        if fight.side_towards(p.at, fight.fighters[p.by].cell) == StandSide::Rear
            && !facts.rear.contains(&(p.by, p.at))
        {
            facts.rear.push((p.by, p.at));
        }
    }
    for tier in 0..3u8 {
        let able: Vec<bool> = fight
            .fighters
            .iter()
            .map(|f| f.is_up() && f.state.posture != Posture::Prone && f.state.stunned == 0)
            .collect();
        for p in pending.iter().filter(|p| p.tier == tier) {
            // The ids are borrowed for the messages that need them, not cloned per blow.
            let (bid, aid) = (
                fight.fighters[p.by].id.as_str(),
                fight.fighters[p.at].id.as_str(),
            );
            if !able[p.by] {
                let st = &fight.fighters[p.by].state;
                let why = if st.fallen != super::fight::Fallen::Up {
                    "out of the fight"
                } else if st.posture == Posture::Prone {
                    "on the ground"
                } else {
                    "stunned"
                };
                out.push(Event::say(format!(
                    "{bid} is in no state to strike ({why}): its {} is lost.",
                    p.card
                )));
                continue;
            }
            if !fight.fighters[p.at].is_up() {
                out.push(Event::say(format!(
                    "{aid} is already down: {bid}'s {} falls on nothing.",
                    p.card
                )));
                continue;
            }
            let reach = match p.strike.blow {
                Blow::Weapon => fight.fighters[p.by].reach(t),
                _ => 1,
            };
            let ok = match p.strike.blow {
                Blow::Trample => fight.in_contact(p.by, p.at),
                Blow::HorseKick => fight.in_contact(p.by, p.at),
                _ => fight.can_strike(p.by, p.at, reach),
            };
            if !ok {
                out.push(Event::say(format!(
                    "{aid} is out of {bid}'s reach: the {} falls on empty air.",
                    p.card
                )));
                continue;
            }
            if p.strike.blow == Blow::HorseKick
                && let Some(rider) = fight.fighters[p.by].rider
                && plays[rider].as_ref().is_some_and(|c| {
                    c.melee
                        .iter()
                        .any(|m| m.is_attack() && m.target() == Some(aid))
                })
            {
                out.push(Event::say(format!(
                    "{bid}'s KICK is lost: its rider strikes {aid} this round, and a horse kicks only through a side its rider does not strike through (§6 KICK)."
                )));
                continue;
            }
            if p.ferocity {
                ferocity_roll(fight, p.by, r, out);
            }
            let by = p.by;
            let hit = attack::strike(fight, t, p.by, p.at, p.strike, p.card, facts, r, out);
            if !hit && p.strike.blow == Blow::Kick && fight.fighters[by].mounted() {
                let dex = fight.fighters[by].dex as i32;
                let c = (seed::KICK_FALL - dex / seed::KICK_FALL_DEX_PER).max(0);
                if c > 0 {
                    let v = r.d100(&fight.fighters[by].id);
                    if v as i32 <= c {
                        let what = effects::knock_down(fight, by);
                        r.event(
                            out,
                            format!(
                                "The missed kick unbalances {} (falls on {c} or less, rolls {v}): {what}.",
                                fight.fighters[by].id
                            ),
                        );
                    } else {
                        r.event(
                            out,
                            format!(
                                "{} stays in the saddle after the missed kick (falls on {c} or less, rolls {v}).",
                                fight.fighters[by].id
                            ),
                        );
                    }
                }
            }
        }
    }
}

/// FEROCITY's roll: berserk on 25% (75% for a Nordic Berserk), two extra blows at once.
fn ferocity_roll<D: Dice>(fight: &mut Fight, i: usize, r: &mut Roller<D>, out: &mut Vec<Event>) {
    let f = &fight.fighters[i];
    if f.state.berserk {
        return;
    }
    let id = f.id.clone();
    let need = if f.profile.berserker {
        seed::BERSERK_NORDIC
    } else {
        seed::BERSERK
    };
    let v = r.d100(&id);
    if v <= need {
        let f = &mut fight.fighters[i];
        f.state.berserk = true;
        f.blows += seed::BERSERK_BLOWS;
        r.event(out, format!("{id} plays FEROCITY and goes BERSERK (1–{need}: rolls {v}): +25% to hit, +10% critical and bash, 2 more blows, +10% easier to hit."));
    } else {
        r.event(
            out,
            format!("{id} fights ferociously but keeps his head (berserk on 1–{need}: rolls {v})."),
        );
    }
}

/// Dodges after the blows: the dodger moves ½"; opponents in contact that played no defence
/// follow (not a right guesser without an attack card); a dodger still in contact with an
/// attacker who guessed wrong counters on 25%.
fn dodges<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    plays: &[Option<Cow<Choice>>],
    guesses: &[Guess],
    facts: &mut RoundFacts,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) {
    let n = fight.fighters.len();
    let cards = |i: usize| plays[i].as_ref().map_or(&[][..], |c| &c.melee[..]);
    for i in 0..n {
        let Some(d) = cards(i).iter().find_map(|m| match m {
            MeleeCard::Dodge(d) => Some(*d),
            _ => None,
        }) else {
            continue;
        };
        let id = fight.fighters[i].id.clone();
        if !fight.fighters[i].is_up() || fight.fighters[i].state.posture != Posture::Standing {
            out.push(Event::say(format!(
                "{id} is in no state to finish its DODGE {}.",
                d.word()
            )));
            continue;
        }
        let before: Vec<usize> = fight
            .enemies_within(i, 1)
            .into_iter()
            .filter(|&j| fight.in_contact(i, j))
            .collect();
        let Some((from, to)) = moves::dodge_move(fight, i, d) else {
            out.push(Event::say(format!(
                "{id}'s DODGE {} finds no room: it stays put.",
                d.word()
            )));
            continue;
        };
        out.push(Event::say(format!(
            "{id} DODGES {} from {from} to {to}.",
            d.word()
        )));
        let guessed = |j: usize| {
            guesses
                .iter()
                .any(|g| g.guesser == j && g.dodger == i && g.dir == d)
        };
        for &j in &before {
            let f = &fight.fighters[j];
            if !f.is_up()
                || f.state.posture != Posture::Standing
                || !f.state.restrained_by.is_empty()
                || fight.unit_of(j) != j
            {
                continue;
            }
            let defends = cards(j).iter().any(|m| m.is_defence());
            let attacks = cards(j).iter().any(|m| m.is_attack());
            let jid = f.id.clone();
            if guessed(j) && !attacks {
                out.push(Event::say(format!(
                    "{jid} guessed the dodge but played no attack: he may not follow."
                )));
                continue;
            }
            if defends || fight.in_contact(i, j) {
                continue;
            }
            let g = fight.grid();
            if fight.free(from, f.mounted()) && g.distance(from, to) == 1 {
                let facing = g.dir_towards(from, to).unwrap_or(f.facing);
                fight.place(j, from, facing);
                out.push(Event::say(format!(
                    "{jid} follows {id} to {from} to keep contact."
                )));
            }
        }
        for &j in &before {
            let aimed = cards(j)
                .iter()
                .any(|m| m.is_attack() && m.target() == Some(id.as_str()));
            if aimed && !guessed(j) && fight.in_contact(i, j) && fight.fighters[j].is_up() {
                attack::counter(
                    fight,
                    t,
                    i,
                    j,
                    seed::DODGE_COUNTER,
                    "the dodge",
                    facts,
                    r,
                    out,
                );
            }
        }
    }
}
