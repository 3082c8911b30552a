//! Cards in melee (I4): the AI chooses each of its figures' face-down plays from that
//! figure's own hand, validated by the same `check_play` the order validator runs, so a play
//! it sends is a play the rules accept.
//!
//! It knows what a player knows: the fight as it stands (positions, wounds, blows, what each
//! figure holds), never the opponents' face-down choices — those live in the melee's private
//! state, which this module cannot read. The stronger AI imagines them instead: the opponents
//! play what anybody could expect (the plainest blow at the nearest enemy), the dice come from
//! a generator of its own, and each imagined round is resolved with the real resolver on a copy
//! of the fight.

use super::AiLevel;
use super::command;
use super::imagine::{Imagined, imagine_round, imagine_round_with, plain_plays, worth_for};
use crate::rules::actions::{Conduct, Intent};
use crate::rules::melee::cards::{Choice, DodgeDir, MeleeCard, TacCard, check_play};
use crate::rules::melee::fight::Fight;
use crate::rules::melee::flow;
use crate::rules::melee::tables::{Tables, tables};
use crate::sim::Game;
use crate::sim::melee::Stage;
use crate::sim::order::Order;
use crate::sim::phase::{Phase, TurnState};
use crate::sim::side_asks as asks;
use crate::sim::view::FigView;
use bevy::prelude::*;
use std::collections::BTreeSet;

/// The figures of `side` the melee waits for now, with their index in the fight.
pub fn waiting_of(world: &World, side: u8) -> Vec<(usize, String)> {
    let Some(fight) = asks::melee_fight(world) else {
        return Vec::new();
    };
    asks::melee_waiting_ids(world)
        .into_iter()
        .filter_map(|id| fight.index_of(&id).map(|i| (i, id)))
        .filter(|(i, _)| fight.fighters[*i].side == side)
        .collect()
}

/// True when the melee waits for a figure of `side`.
pub fn side_waits(world: &World, side: u8) -> bool {
    let phase = *world.resource::<State<Phase>>().get();
    matches!(phase, Phase::Tac | Phase::MeleeRounds)
        && asks::melee_first_waiting(world, side).is_some()
}

/// The unit intent of a fighter (a mount's is its rider's), if its unit rolled this turn.
fn intent_of(world: &World, fight: &Fight, i: usize) -> Option<Intent> {
    crate::sim::action_roll::roll_of_figure(world, rider_id(fight, i)).map(|r| r.intent)
}

/// The figure whose unit fighter `i` belongs to: itself, or a mount's rider.
fn rider_id(fight: &Fight, i: usize) -> &str {
    let f = &fight.fighters[i];
    f.rider
        .map_or(f.id.as_str(), |r| fight.fighters[r].id.as_str())
}

/// Enemies of fighter `i`, nearest first (ties by id): "the nearest enemy" of I3.
fn foes(fight: &Fight, i: usize) -> Vec<usize> {
    let mut v: Vec<usize> = fight.enemies(i).collect();
    v.sort_by(|&a, &b| {
        (fight.distance(i, a), &fight.fighters[a].id)
            .cmp(&(fight.distance(i, b), &fight.fighters[b].id))
    });
    v
}

/// True when fighter `i` is an archer: its main weapon is a missile (bow, crossbow, sling).
/// Archers shoot; they do not play CHARGE (issue 13: "archers do not play CHARGE"), however
/// the table reads for their unit.
pub fn is_archer(fight: &Fight, t: &Tables, i: usize) -> bool {
    t.weapon(&fight.fighters[i].weapon).is_missile()
}

/// The TAC cards a unit's conduct allows, best first (the table's morale result holds in the
/// melee too: a retiring unit retreats, a charging one charges — but never an archer).
fn tac_options(
    fight: &Fight,
    tables: &Tables,
    i: usize,
    intent: Option<&Intent>,
    target: Option<usize>,
) -> Vec<(TacCard, Option<String>)> {
    let archer = is_archer(fight, tables, i);
    let t = target.map(|j| fight.fighters[j].id.clone());
    match intent.map(|x| (x.conduct, x.charge)) {
        Some((Conduct::Retire { .. }, _)) => {
            vec![(TacCard::RunAway, None), (TacCard::Retreat, None)]
        }
        Some((Conduct::Cover, _)) => vec![(TacCard::Retreat, None), (TacCard::StandGround, None)],
        Some((_, true)) => vec![
            (TacCard::Charge, t.clone()),
            (TacCard::Fleche, t.clone()),
            (TacCard::Close, t),
            (TacCard::StandGround, None),
        ],
        Some((Conduct::Advance { .. }, _)) => {
            vec![(TacCard::Close, t), (TacCard::StandGround, None)]
        }
        _ => vec![(TacCard::StandGround, None)],
    }
    .into_iter()
    .filter(|(c, _)| {
        let archers_charge = archer && *c == TacCard::Charge;
        !(fight.fighters[i].is_mount() || archers_charge)
    })
    .collect()
}

/// The attack cards a figure may aim at `target`, plainest first.
fn attacks(target: &str) -> [MeleeCard; 4] {
    let t = target.to_string();
    [
        MeleeCard::DeliverBlow { target: t.clone() },
        MeleeCard::Fire { target: t.clone() },
        MeleeCard::Kick { target: t.clone() },
        MeleeCard::Punch { target: t },
    ]
}

/// The baseline's play: the table's TAC card, and the plainest blow the figure can pay for at
/// the nearest enemy it can reach; else it passes (PASSIVE SHIELD PARRY, or the first card
/// D7's six in a row leave it). A missile is fired only at the nearest
/// enemy (I3: uncommanded units shoot only at the nearest enemy, figure to figure); a blow
/// may go to a farther one when the nearest is out of its reach.
pub fn baseline_play(
    fight: &Fight,
    t: &Tables,
    i: usize,
    tac_phase: bool,
    intent: Option<&Intent>,
) -> Choice {
    // A blow reaches at most 2 cells (D11), after a TAC move of at most 3 (D8): the rules
    // refuse a blow at anyone farther, so it is not asked about them; only the nearest are
    // shot at. The enemies as far as that, nearest first: the start of `foes(fight, i)`.
    let far = 2 + crate::rules::melee::tables::seed::JOIN_MELEE
        .max(crate::rules::melee::tables::seed::JOIN_TAC);
    let foes = fight.foes_nearest_first(i, far);
    let tacs: Vec<(Option<TacCard>, Option<String>)> = if tac_phase {
        tac_options(fight, t, i, intent, foes.first().copied())
            .into_iter()
            .map(|(c, x)| (Some(c), x))
            .chain([(None, None)])
            .collect()
    } else {
        vec![(None, None)]
    };
    let retiring = intent.is_some_and(|x| matches!(x.conduct, Conduct::Retire { .. }));
    for (tac, tac_target) in &tacs {
        let blows: Vec<MeleeCard> = if retiring {
            Vec::new()
        } else {
            // I3: it shoots only at the nearest enemy (any of those tied nearest).
            let nearest = foes.first().map(|&j| fight.distance(i, j));
            foes.iter()
                .filter(|&&j| {
                    let d = fight.distance(i, j);
                    d <= far || Some(d) == nearest
                })
                .flat_map(|&j| {
                    let shoot = Some(fight.distance(i, j)) == nearest;
                    attacks(&fight.fighters[j].id)
                        .into_iter()
                        .filter(move |c| shoot || !matches!(c, MeleeCard::Fire { .. }))
                })
                .collect()
        };
        for m in blows.into_iter().map(Some).chain([None]) {
            let c = Choice {
                tac: *tac,
                tac_target: tac_target.clone(),
                melee: m.into_iter().collect(),
                forfeit: false,
            };
            if (c.tac.is_some() || !c.melee.is_empty())
                && check_play(fight, i, &c, t, tac_phase).is_ok()
            {
                return c;
            }
        }
    }
    // Nothing to strike with: it passes — PASSIVE SHIELD PARRY, or, when D7 forbids a
    // seventh in a row (in reach or not), the first card it may play, else its blows are lost.
    flow::pass_play(fight, t, i, tac_phase)
}

/// Imagined card rounds after the one being chosen.
const HORIZON: u32 = 2;
/// The last card round in which a commanded figure deliberates (0 is the TAC phase).
const DELIBERATE_ROUNDS: u32 = 1;
/// The fewest imagined samples per candidate play (fewer is no deliberation: the baseline's
/// play is made), and the most.
const SAMPLES: (u64, u64) = (2, 4);
/// Fighter-rounds (an imagined round costs one per participant) a side's commanded figures
/// may imagine in one melee phase, shared out among them: however many of them fight and
/// however big the melee, the stronger AI's thinking per turn stays bounded (issue 13,
/// item 3). A figure whose share cannot pay for the fewest samples plays the baseline's play.
const TURN_BUDGET: u64 = 2_500;

/// One decision's share of the side's [`TURN_BUDGET`] when `deciders` of its commanded
/// figures fight in this melee.
fn share_of_budget(deciders: usize) -> u64 {
    TURN_BUDGET / (deciders.max(1) as u64 * u64::from(DELIBERATE_ROUNDS + 1))
}

/// Samples per candidate for `cands` candidate plays in a fight of `participants` within
/// `budget` fighter-rounds, or `None` when the budget cannot pay for the fewest.
fn samples_for(cands: usize, participants: usize, budget: u64) -> Option<u64> {
    let per_sample = cands.max(1) as u64 * u64::from(HORIZON + 1) * participants.max(1) as u64;
    let n = budget / per_sample;
    (n >= SAMPLES.0).then_some(n.min(SAMPLES.1))
}

/// What one decision of the stronger AI may draw on: its dice's seed (public facts), its
/// share of the side's [`TURN_BUDGET`], and how many fighters take part in the round (what
/// an imagined round costs).
#[derive(Clone, Copy, Debug)]
struct Deliberation {
    seed: u64,
    budget: u64,
    participants: usize,
}

/// The stronger AI's play for fighter `i`: every legal candidate (the baseline's, each blow
/// and shot at each of the three nearest enemies, the parries, a dodge, passing) is played on
/// copies of the fight against the imagined plays of everyone else, and the melee phase is
/// played out from there; the best average wins, the baseline's play unless another beats it
/// clearly.
fn lookahead_play(
    fight: &Fight,
    t: &Tables,
    i: usize,
    tac_phase: bool,
    intent: Option<&Intent>,
    think: Deliberation,
) -> Choice {
    let Deliberation {
        seed,
        budget,
        participants,
    } = think;
    let base = baseline_play(fight, t, i, tac_phase, intent);
    // Deliberation where it counts: the TAC phase and the first card rounds, which set the
    // melee's course; later rounds of a long melee play the baseline's blow, as the imagined
    // rounds assume. This bounds the stronger AI's work per turn however long a melee runs
    // (issue 13, item 3). And nothing to deliberate with no enemy near.
    if fight.round > DELIBERATE_ROUNDS || !foes(fight, i).iter().any(|&j| fight.distance(i, j) <= 2)
    {
        return base;
    }
    let side = fight.fighters[i].side;
    // Everyone else's play in the round being chosen is the same whatever this figure weighs.
    let plain = plain_plays(fight, t);
    let value = |c: &Choice, samples: u64| -> i64 {
        (0..samples)
            .map(|k| {
                let mut copy = fight.clone();
                let mut dice = Imagined::new(seed, k);
                imagine_round_with(&mut copy, t, &mut dice, &plain, Some((i, c)));
                for _ in 0..HORIZON {
                    if !flow::melee_on(&copy, t) {
                        break;
                    }
                    imagine_round(&mut copy, t, &mut dice, None);
                }
                worth_for(&copy, side)
            })
            .sum()
    };
    // Another play must beat the baseline's by a twentieth of a figure on average: the
    // imagination is noisy, and a close call is no reason to leave the plain play.
    let margin = |samples: u64| samples as i64 * 50;
    // The TAC phase: among the TAC cards the unit's conduct allows (the table's morale
    // result), the one whose imagined melee goes best, with the baseline's MELEE cards.
    let mut base = base;
    if tac_phase && base.tac.is_some() {
        let nearest = foes(fight, i).first().copied();
        let tacs: Vec<Choice> = tac_options(fight, t, i, intent, nearest)
            .into_iter()
            .map(|(tac, tac_target)| Choice {
                tac: Some(tac),
                tac_target,
                melee: base.melee.clone(),
                forfeit: false,
            })
            .filter(|c| *c != base && check_play(fight, i, c, t, tac_phase).is_ok())
            .collect();
        // The TAC card and the MELEE cards each get half of the decision's budget.
        if let Some(n) =
            samples_for(tacs.len() + 1, participants, budget / 2).filter(|_| !tacs.is_empty())
        {
            let mut best = (value(&base, n) + margin(n), base.clone());
            for c in tacs {
                let v = value(&c, n);
                if v > best.0 {
                    best = (v, c);
                }
            }
            base = best.1;
        }
    }
    let mut cands = vec![base.clone(), flow::pass_play(fight, t, i, tac_phase)];
    let (tac, tac_target) = (base.tac, base.tac_target.clone());
    let retiring = intent.is_some_and(|x| matches!(x.conduct, Conduct::Retire { .. }));
    let mut extra: Vec<MeleeCard> = vec![
        MeleeCard::WeaponParry,
        MeleeCard::ActiveShieldParry,
        MeleeCard::DesperateDefense,
    ];
    // A dodge's direction is drawn, not chosen: a dodger that always went Back would lose to
    // a guesser who always guesses Back (§6, D7). The draw is uniform over the legal
    // directions, from dice seeded by public facts, so the game still replays.
    extra.extend(dodge_mix(fight, t, i, tac, &tac_target, tac_phase, seed));
    if !retiring {
        for j in foes(fight, i).into_iter().take(2) {
            let id = fight.fighters[j].id.clone();
            extra.push(MeleeCard::DeliverBlow { target: id.clone() });
            extra.push(MeleeCard::GreatBlow { target: id.clone() });
            extra.push(MeleeCard::Kick { target: id.clone() });
            // A commanded unit may shoot at whom its leader chooses (I3 binds the
            // uncommanded only).
            extra.push(MeleeCard::Fire { target: id });
        }
    }
    for m in extra {
        let c = Choice {
            tac,
            tac_target: tac_target.clone(),
            melee: vec![m],
            forfeit: false,
        };
        if !cands.contains(&c) && check_play(fight, i, &c, t, tac_phase).is_ok() {
            cands.push(c);
        }
    }
    // One sensible play: nothing to deliberate.
    if cands.len() <= 1 {
        return base;
    }
    let budget = if tac_phase { budget / 2 } else { budget };
    let Some(n) = samples_for(cands.len(), participants, budget) else {
        return base;
    };
    let mut best = (value(&base, n) + margin(n), 0usize);
    for (ci, c) in cands.iter().enumerate().skip(1) {
        let v = value(c, n);
        if v > best.0 {
            best = (v, ci);
        }
    }
    cands[best.1].clone()
}

/// The dodges fighter `i` may play, in an order drawn from `seed`: the first legal one is
/// the mixed strategy's pick (each legal direction equally likely).
fn dodge_mix(
    fight: &Fight,
    t: &Tables,
    i: usize,
    tac: Option<TacCard>,
    tac_target: &Option<String>,
    tac_phase: bool,
    seed: u64,
) -> Option<MeleeCard> {
    let legal: Vec<DodgeDir> = DodgeDir::ALL
        .into_iter()
        .filter(|&d| {
            let c = Choice {
                tac,
                tac_target: tac_target.clone(),
                melee: vec![MeleeCard::Dodge(d)],
                forfeit: false,
            };
            check_play(fight, i, &c, t, tac_phase).is_ok()
        })
        .collect();
    let k = super::imagine::mix(&[seed, 0xD0D6E]) % legal.len().max(1) as u64;
    legal.get(k as usize).map(|&d| MeleeCard::Dodge(d))
}

/// A guess at the direction of `dodger`'s face-down DODGE by `guesser` (§6, D7): uniform over
/// Left, Right and Back, from dice seeded by public facts. Guessing never costs more than not
/// guessing (a wrong guess and no guess both let the dodger counter), and a uniform guess
/// cannot be beaten by any fixed way of dodging.
pub fn guess_dir(seed: u64, guesser: &str, dodger: &str) -> DodgeDir {
    let h = |s: &str| {
        s.bytes()
            .fold(0u64, |a, b| a.wrapping_mul(31).wrapping_add(b as u64))
    };
    let k = super::imagine::mix(&[seed, h(guesser), h(dodger), 0x6E55]) % 3;
    DodgeDir::ALL[k as usize]
}

/// The next card order for `side` in a melee phase, or `None` when the melee does not wait
/// for it. A figure is tried once with its chosen play, then with a pass.
pub fn next_card_order(
    game: &mut Game,
    side: u8,
    level: AiLevel,
    tried: &mut BTreeSet<String>,
) -> Option<Order> {
    let strong = level != AiLevel::Table;
    // Only the stronger levels ask who commands a figure (a hero or leader of its side is
    // still in the fight, `command::is_commanded`), and the commander's level what its
    // leader told the unit; the baseline needs no view. The kept view is brought up to date rather than built afresh
    // for every card.
    let (commanders, led_intent): (Option<BTreeSet<String>>, Option<Intent>) = if strong {
        crate::sim::view::with_view(game.app.world_mut(), |world, view| {
            let led: Vec<&FigView> = view
                .figs
                .iter()
                .filter(|f| f.group.is_some_and(|g| command::is_commanded(view, g)))
                .collect();
            // The leader's orders for the figure the melee waits for (the one this call
            // answers for), when its unit is commanded at the commander's level.
            let who = asks::melee_first_waiting(world, side)
                .and_then(|(i, _)| Some(rider_id(asks::melee_fight(world)?, i).to_string()));
            let intent = who.and_then(|who| {
                let f = led
                    .iter()
                    .find(|f| f.id == who && f.side == side && command::commands(level))?;
                Some(command::intent(world, view, f.group?, &who))
            });
            (Some(led.iter().map(|f| f.id.clone()).collect()), intent)
        })
    } else {
        (None, None)
    };
    let world = game.app.world();
    // Borrowed, not copied: a copy of a fight of 4096 figures for every card order was most
    // of a big melee's time (issue 33).
    let fight = asks::melee_fight(world)?;
    let stage = asks::melee_stage(world)?;
    let (i, id) = asks::melee_first_waiting(world, side)?;
    let seed = asks::own_seed(world, side);
    let turn = world.resource::<TurnState>().turn as u64;
    if stage == Stage::Guessing {
        // Every level guesses: each dodge it must guess once, then it passes what is left.
        let dodger = asks::dodges_to_guess(world)
            .into_iter()
            .find(|(g, d)| *g == id && !tried.contains(&format!("guess {g} {d}")))
            .map(|(_, d)| d);
        return Some(match dodger {
            Some(d) => {
                tried.insert(format!("guess {id} {d}"));
                let mix = super::imagine::mix(&[seed, turn, fight.round as u64]);
                Order::GuessDodge {
                    guess: guess_dir(mix, &id, &d),
                    unit: id,
                    target: d,
                }
            }
            None => Order::Pass { unit: id },
        });
    }
    if tried.contains(&id) {
        return Some(Order::Pass { unit: id });
    }
    tried.insert(id.clone());
    let t = tables();
    let tac_phase = fight.round == 0;
    if flow::forced(fight, t, i, tac_phase).is_some() {
        return Some(Order::Pass { unit: id });
    }
    let intent = led_intent.or_else(|| intent_of(world, fight, i));
    let is_commanded = commanders.as_ref().is_some_and(|c| commanded(c, fight, i));
    let play = if strong && is_commanded {
        let mix = super::imagine::mix(&[seed, turn, fight.round as u64, i as u64]);
        let participants = flow::participants(fight, t, tac_phase);
        let deciders = commanders.as_ref().map_or(1, |c| {
            participants
                .iter()
                .filter(|&&j| {
                    fight.fighters[j].side == side
                        && !fight.fighters[j].is_mount()
                        && commanded(c, fight, j)
                })
                .count()
        });
        lookahead_play(
            fight,
            t,
            i,
            tac_phase,
            intent.as_ref(),
            Deliberation {
                seed: mix,
                budget: share_of_budget(deciders),
                participants: participants.len(),
            },
        )
    } else {
        baseline_play(fight, t, i, tac_phase, intent.as_ref())
    };
    if play.tac.is_none() && play.melee.is_empty() {
        return Some(Order::Pass { unit: id });
    }
    Some(Order::PlayCards {
        unit: id,
        tac: play.tac,
        tac_target: play.tac_target,
        melee: play.melee,
    })
}

/// True when the fighter (or a mount's rider) is one of `commanded`, the figures whose side
/// has a hero or leader still in the fight (the stronger AI commands them).
fn commanded(commanded: &BTreeSet<String>, fight: &Fight, i: usize) -> bool {
    commanded.contains(rider_id(fight, i))
}
