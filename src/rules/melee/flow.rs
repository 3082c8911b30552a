//! The melee phase around the card rounds: who is in it, who must choose, what a figure
//! plays when it has no choice or passes, when the rounds end (D6–D8), and the per-turn and
//! per-phase bookkeeping (blows, the berserk's calming).

use super::cards::{Choice, HorseCard, MeleeCard, at_speed, check_play};
use super::fight::{Fight, Posture};
use super::tables::{Tables, seed};
use super::{Dice, Event, Roller};

/// A figure's reach towards enemies: in contact or within a weapon's reach, either way.
fn in_reach(fight: &Fight, t: &Tables, i: usize) -> bool {
    fight.engaged(i, t)
}

/// True while a melee goes on (D7: "Repeat steps #1 and #4 until all blows are exhausted";
/// step #4, D8: figures not in contact that could come into contact may join, with a move
/// of 3" in the card rounds): two enemies able to fight, within reach of each other or
/// within a 3" move of contact (so a bash or a dodge that broke contact does not end the
/// melee while they could close again), and one of them with a blow left. A riderless horse
/// neither fights nor is fought (it never takes part), so it keeps no melee going. Figures
/// that will not close end it all the same: D7's six PASSIVE SHIELD PARRIES in a row bind a
/// figure out of reach too, so each spends a blow at least every seventh round or loses its
/// blows.
pub fn melee_on(fight: &Fight, t: &Tables) -> bool {
    let map = fight.by_cell();
    (0..fight.fighters.len()).any(|i| {
        fights(fight, i)
            && fight.fighters[i].blows > 0
            && !run_out(fight, t, i)
            && fight
                .enemies_near(&map, i, seed::JOIN_MELEE + 1)
                .into_iter()
                .any(|j| {
                    fights(fight, j)
                        && (fight.within_reach(i, j, t)
                            || fight.distance(i, j) - 1 <= seed::JOIN_MELEE)
                })
    })
}

/// C8: a steed at speed whose way has run out (its straight MOVE refused, and no turn it may
/// take instead) plays nothing but PASSIVE SHIELD PARRY for as long as it stays at speed: its
/// blows can never be spent, so they keep no melee going. Without this, a galloping horse
/// stopped in contact with blows left kept the card rounds going until the round cap, every
/// figure parrying and nobody asked (found on a crowded Shield Wall, `melee_ends`).
fn run_out(fight: &Fight, t: &Tables, i: usize) -> bool {
    let f = &fight.fighters[i];
    at_speed(f) && f.state.stunned == 0 && forced(fight, t, i, false) == Some(Choice::default())
}

/// A figure that can fight: up, and not a riderless horse (a mount fights with its rider).
fn fights(fight: &Fight, i: usize) -> bool {
    let f = &fight.fighters[i];
    f.is_up() && !(f.is_mount() && f.rider.is_none())
}

/// True when a melee starts this turn: some enemies in contact or within reach (D6).
/// *Our reading:* figures merely near each other do not start a melee; they may join one.
pub fn melee_starts(fight: &Fight, t: &Tables) -> bool {
    (0..fight.fighters.len()).any(|i| fight.fighters[i].is_up() && in_reach(fight, t, i))
}

/// Figures taking part in the TAC phase or a card round: those in melee, and those that
/// could reach contact with a move of 2" (TAC phase) or 3" (card rounds) (D6, D8). Mounts
/// take part with their riders.
pub fn participants(fight: &Fight, t: &Tables, tac_phase: bool) -> Vec<usize> {
    let join = if tac_phase {
        seed::JOIN_TAC
    } else {
        seed::JOIN_MELEE
    };
    let map = fight.by_cell();
    let mut v: Vec<usize> = (0..fight.fighters.len())
        .filter(|&i| {
            if !fights(fight, i) {
                return false;
            }
            let u = fight.unit_of(i);
            let near = fight.enemies_near(&map, u, join + 1);
            near.iter().any(|&j| fight.within_reach(u, j, t))
                || near.iter().any(|&j| fight.distance(u, j) - 1 <= join)
        })
        .collect();
    v.sort_unstable();
    v
}

/// The play forced on a figure, if it has no choice: out of blows or stunned (PASSIVE SHIELD
/// PARRY), a steed at speed (MOVE while it has blows, C8) unless it could also turn this
/// round (seed 004's rate, [`super::moves::speed_turn_ok`]: then its side chooses), nothing
/// to spend blows on.
pub fn forced(fight: &Fight, t: &Tables, i: usize, tac_phase: bool) -> Option<Choice> {
    let f = &fight.fighters[i];
    if at_speed(f) {
        let mv = speed_play(fight, t, i, tac_phase);
        let could_turn = !mv.melee.is_empty()
            && fight.grid().headings().any(|d| {
                let with = Choice {
                    melee: vec![
                        MeleeCard::Horse(HorseCard::Move),
                        MeleeCard::Horse(HorseCard::Turn { facing: d }),
                    ],
                    ..Choice::default()
                };
                d != f.facing && check_play(fight, i, &with, t, false).is_ok()
            });
        return if could_turn { None } else { Some(mv) };
    }
    if tac_phase {
        return None;
    }
    if f.blows == 0 || f.state.stunned > 0 {
        return Some(Choice::default());
    }
    // No real choice: nobody in its reach and nothing it may play but PASSIVE SHIELD PARRY
    // (no move to join, no parry that pays). It is not asked; it parries.
    // When D7 forbids a seventh in a row (in reach or not) and nothing else may be played,
    // its blows are lost.
    if !in_reach(fight, t, i) {
        let psp = super::cards::Card::Melee(MeleeCard::PassiveShieldParry);
        // The hand's cards judged one by one, only as far as the answer needs.
        let mut playable = super::hand::playable(fight, t, i, false);
        match playable.next() {
            None => {
                return Some(Choice {
                    forfeit: true,
                    ..Choice::default()
                });
            }
            Some(c) if c == psp && playable.next().is_none() => {
                return Some(Choice::default());
            }
            Some(_) => {}
        }
    }
    None
}

/// C8: the straight MOVE of a steed at speed (nothing in the TAC phase, nor once its blows
/// or its way run out).
pub fn speed_play(fight: &Fight, t: &Tables, i: usize, tac_phase: bool) -> Choice {
    let mv = Choice {
        melee: vec![MeleeCard::Horse(HorseCard::Move)],
        ..Choice::default()
    };
    if !tac_phase && fight.fighters[i].blows > 0 && check_play(fight, i, &mv, t, false).is_ok() {
        mv
    } else {
        Choice::default()
    }
}

/// What a figure plays when it passes: PASSIVE SHIELD PARRY; when D7 forbids a seventh in a
/// row, the first card it may play of DELIVER BLOW (at the first enemy in reach), KICK, WEAPON
/// PARRY, ACTIVE SHIELD PARRY, DESPERATE DEFENSE or standing up — else it forfeits its blows.
pub fn pass_play(fight: &Fight, t: &Tables, i: usize, tac_phase: bool) -> Choice {
    if let Some(c) = forced(fight, t, i, tac_phase) {
        return c;
    }
    if at_speed(&fight.fighters[i]) {
        return speed_play(fight, t, i, tac_phase); // C8: passing runs straight on
    }
    let psp = Choice::default();
    let psp_card = Choice {
        melee: vec![MeleeCard::PassiveShieldParry],
        ..Choice::default()
    };
    if check_play(fight, i, &psp_card, t, tac_phase).is_ok() {
        return psp;
    }
    let mut options: Vec<MeleeCard> = Vec::new();
    if fight.fighters[i].state.posture != Posture::Standing {
        options.push(MeleeCard::Move(super::cards::MoveStep::StandUp));
    }
    // Only enemies within 4 cells, the bound the hand uses: a blow or a kick reaches 2 at
    // most (D11), so a figure further off fails the check below anyway, and a walk of every
    // fighter made passing cost the fight's size (issue 33 item 3).
    let mut foes: Vec<usize> = fight.enemies_within(i, 4);
    foes.sort_by(|&a, &b| fight.fighters[a].id.cmp(&fight.fighters[b].id));
    for &j in &foes {
        let target = fight.fighters[j].id.clone();
        options.push(MeleeCard::DeliverBlow {
            target: target.clone(),
        });
        options.push(MeleeCard::Kick { target });
    }
    options.extend([
        MeleeCard::WeaponParry,
        MeleeCard::ActiveShieldParry,
        MeleeCard::DesperateDefense,
    ]);
    for m in options {
        let c = Choice {
            melee: vec![m],
            ..Choice::default()
        };
        if check_play(fight, i, &c, t, tac_phase).is_ok() {
            return c;
        }
    }
    Choice {
        forfeit: true,
        ..Choice::default()
    }
}

/// The figures that must be asked for cards this round, in index order.
pub fn choosers(fight: &Fight, t: &Tables, tac_phase: bool) -> Vec<usize> {
    participants(fight, t, tac_phase)
        .into_iter()
        .filter(|&i| forced(fight, t, i, tac_phase).is_none())
        .collect()
}

/// Who must guess each face-down DODGE: every enemy of the dodger in contact with it or
/// able to strike it (§6). Returns (guesser, dodger) pairs.
pub fn guessers(fight: &Fight, t: &Tables, plays: &[Option<Choice>]) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for (d, c) in plays.iter().enumerate() {
        let Some(c) = c else { continue };
        if !super::cards::has_dodge(&c.melee) {
            continue;
        }
        // Reach is at most 2 cells (D11).
        for g in fight.enemies_within(d, 2) {
            if fight.in_contact(g, d) || fight.can_strike(g, d, fight.fighters[g].reach(t)) {
                v.push((g, d));
            }
        }
    }
    v
}

/// Start of a turn's melee: the once-a-turn allowances come back (the free ASP, CHARGE,
/// HAMSTRING, missile shots, the spells of the turn).
pub fn begin_turn(fight: &mut Fight) {
    for f in &mut fight.fighters {
        let s = &mut f.state;
        s.asp_used = false;
        s.charged = false;
        s.hamstring_tried = false;
        s.shots = 0;
        s.spells_cast = 0;
        s.spell_levels = 0;
        s.prepare_barred = false;
    }
}

/// Start of a melee phase (the TAC phase): blows back to full (a berserk's two extra
/// included), TAC cards and the phase's counters cleared.
pub fn begin_phase(fight: &mut Fight) {
    fight.round = 0;
    fight.melee_k2 = true;
    for f in &mut fight.fighters {
        f.blows = f.phase_blows();
        let s = &mut f.state;
        s.tac = None;
        s.joined = 0;
        s.psp_streak = 0;
        s.missile_used = false;
        s.mixed_hands = false;
        s.free_moves = 0;
        s.fresh_contact = false;
        s.moved_against = false;
        s.melee_gait = None;
        s.melee_moved = 0;
        s.melee_turned = 0;
        s.blows_halved = false;
    }
    super::prepare::begin_phase(fight);
}

/// End of a melee phase: a berserk with no enemy left in sight rolls to calm down (d100 at or
/// under 20 + IQ + Wisdom); calmed below half his body points, he falls into a stupor.
/// *Our reading:* "in sight" is within 12 cells.
pub fn end_phase<D: Dice>(fight: &mut Fight, dice: &mut D) -> Vec<Event> {
    let mut out = Vec::new();
    let mut r = Roller::new(dice);
    for i in 0..fight.fighters.len() {
        let f = &fight.fighters[i];
        if !f.state.berserk || !f.is_up() {
            continue;
        }
        if fight.nearest_enemy_distance(i).is_some_and(|d| d <= 12) {
            continue;
        }
        let id = f.id.clone();
        let need = seed::BERSERK_CALM + f.profile.iq as u32 + f.profile.wisdom as u32;
        let v = r.d100(&id);
        if v <= need {
            let low = super::berserk::calm_down(&mut fight.fighters[i]);
            r.event(
                &mut out,
                format!(
                    "{id}'s blood rage ebbs (calms on {need} or less, rolls {v}){}.",
                    if low {
                        ": below half his body points, he collapses into a stupor (a quarter of his capabilities)"
                    } else {
                        ""
                    }
                ),
            );
        } else {
            r.event(
                &mut out,
                format!(
                    "{id} roams the field in a blood rage, making sure of the fallen (calms on {need} or less, rolls {v})."
                ),
            );
        }
    }
    out
}
