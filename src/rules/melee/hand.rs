//! A figure's hand: every card it holds, with the targets it could name, each card's cost in
//! blows and whether it may be played now — exactly the verdict the order validator gives.

use super::cards::{
    Card, DodgeDir, HorseCard, Ineligible, MeleeCard, MoveStep, Situation, TacCard, WeaponSlot,
    cost, eligibility,
};
use super::fight::Fight;
use super::tables::Tables;
use serde::Serialize;

/// One card of a hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandCard {
    /// The card (with its target, when it takes one).
    pub card: Card,
    /// Its cost in blows now.
    pub cost: u8,
    /// Whether it may be played, and if not why (the rule and the reason).
    pub verdict: Result<(), Ineligible>,
}

/// Every card of figure `i`'s hand for this round. Cards aimed at a figure are listed once
/// per enemy within 4 cells (spells: per figure in the fight within their range).
pub fn hand(fight: &Fight, t: &Tables, i: usize, tac_phase: bool) -> Vec<HandCard> {
    cards_of(fight, i)
        .map(|card| {
            let (cost, verdict) = judge(fight, t, i, tac_phase, &card, true);
            HandCard {
                cost,
                verdict,
                card,
            }
        })
        .collect()
}

/// The cards of [`hand`] that may be played now, in the hand's order, each judged only when
/// reached: the melee asks whether a figure has any choice at all for every figure of every
/// card round, and usually the first card or two answer it (issue 33).
pub fn playable<'a>(
    fight: &'a Fight,
    t: &'a Tables,
    i: usize,
    tac_phase: bool,
) -> impl Iterator<Item = Card> + 'a {
    cards_of(fight, i).filter(move |card| judge(fight, t, i, tac_phase, card, false).1.is_ok())
}

/// A card's cost (when `with_cost`; else 0) and verdict in `i`'s hand.
fn judge(
    fight: &Fight,
    t: &Tables,
    i: usize,
    tac_phase: bool,
    card: &Card,
    with_cost: bool,
) -> (u8, Result<(), Ineligible>) {
    let me = &fight.fighters[i];
    let with = match card {
        // C8: a steed at speed turns with its MOVE (judged as played together).
        Card::Melee(m @ MeleeCard::Horse(HorseCard::Turn { .. })) => {
            vec![MeleeCard::Horse(HorseCard::Move), m.clone()]
        }
        Card::Melee(m) => vec![m.clone()],
        Card::Tac(_) => Vec::new(),
    };
    let sit = Situation {
        fight,
        tables: t,
        tac_phase,
        tac: None,
        with: &with,
    };
    let cost = if with_cost { cost(card, me, &sit) } else { 0 };
    (cost, eligibility(card, me, &sit))
}

/// Every card of `i`'s hand, in the hand's order: the TAC cards, then the rest, listed only
/// when the TAC cards are passed (the rest names every enemy within 4 cells, and the first TAC
/// card often answers [`playable`]'s question).
fn cards_of(fight: &Fight, i: usize) -> impl Iterator<Item = Card> + '_ {
    TacCard::ALL
        .iter()
        .map(|&c| Card::Tac(c))
        .chain(std::iter::once(()).flat_map(move |()| other_cards(fight, i)))
}

/// The cards of `i`'s hand after the TAC cards, in the hand's order.
fn other_cards(fight: &Fight, i: usize) -> Vec<Card> {
    let me = &fight.fighters[i];
    let mut foes: Vec<usize> = fight.enemies_within(i, 4);
    foes.sort_by(|&a, &b| fight.fighters[a].id.cmp(&fight.fighters[b].id));
    let mut cards: Vec<Card> = Vec::new();
    let g = fight.grid();
    for &j in &foes {
        let target = fight.fighters[j].id.clone();
        for m in [
            MeleeCard::DeliverBlow {
                target: target.clone(),
            },
            MeleeCard::GreatBlow {
                target: target.clone(),
            },
            MeleeCard::Ferocity {
                target: target.clone(),
            },
            MeleeCard::Punch {
                target: target.clone(),
            },
            MeleeCard::Kick {
                target: target.clone(),
            },
            MeleeCard::Fire {
                target: target.clone(),
            },
            MeleeCard::PullRider {
                target: target.clone(),
            },
            MeleeCard::Restraint {
                target: target.clone(),
            },
            MeleeCard::Toss {
                target: target.clone(),
            },
            MeleeCard::Horse(HorseCard::Trample {
                target: target.clone(),
            }),
            MeleeCard::Horse(HorseCard::Hamstring {
                target: target.clone(),
            }),
        ] {
            cards.push(Card::Melee(m));
        }
    }
    for s in &me.profile.spells {
        cards.push(Card::Melee(MeleeCard::CastSpell {
            spell: s.clone(),
            target: None,
        }));
        for j in fight.fighters_within(me.cell, 4) {
            if j != i && fight.fighters[j].is_up() {
                cards.push(Card::Melee(MeleeCard::CastSpell {
                    spell: s.clone(),
                    target: Some(fight.fighters[j].id.clone()),
                }));
            }
        }
    }
    cards.extend(
        [
            MeleeCard::Reload,
            MeleeCard::DrawWeapon {
                weapon: Some(WeaponSlot::Sidearm),
                shield: false,
                sheathe: false,
            },
            MeleeCard::DrawWeapon {
                weapon: Some(WeaponSlot::Main),
                shield: false,
                sheathe: false,
            },
            MeleeCard::DrawWeapon {
                weapon: None,
                shield: true,
                sheathe: false,
            },
            MeleeCard::PrepareSpell,
            MeleeCard::BreakFree,
            MeleeCard::WeaponParry,
            MeleeCard::DesperateDefense,
            MeleeCard::ActiveShieldParry,
            MeleeCard::PassiveShieldParry,
            MeleeCard::Move(MoveStep::StandUp),
            MeleeCard::Horse(HorseCard::Move),
        ]
        .into_iter()
        .map(Card::Melee),
    );
    for d in DodgeDir::ALL {
        cards.push(Card::Melee(MeleeCard::Dodge(d)));
    }
    for d in g.all_dirs() {
        cards.push(Card::Melee(MeleeCard::Move(MoveStep::To(d))));
        cards.push(Card::Melee(MeleeCard::Move(MoveStep::Face(d))));
    }
    for d in g.headings() {
        cards.push(Card::Melee(MeleeCard::Horse(HorseCard::Wheel {
            facing: d,
        })));
    }
    for d in g.headings() {
        cards.push(Card::Melee(MeleeCard::Horse(HorseCard::Turn { facing: d })));
    }
    cards
}
