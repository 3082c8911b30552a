//! The card overlay's source in a real game: the melee rules of `sim::melee`. Who must
//! choose is the melee's list of figures it waits for; each hand is `sim::melee::hand`, card
//! for card, with the rules' cost and verdict; picks become `Order::PlayCards` and guesses
//! `Order::GuessDodge` (or `Order::Pass`), validated by the rules like every order.

use super::cards::{
    CardKind, CardNumbers, CardPick, CardSource, CardView, FigureHand, GuessDir, GuessDue, Toward,
};
use crate::rules::melee::attack::Odds;
use crate::rules::melee::cards::{Card, DodgeDir, HorseCard, MeleeCard, MoveStep};
use crate::rules::melee::hand::HandCard;
use crate::sim::Game;
use crate::sim::log::Happening;
use crate::sim::melee::Stage;
use crate::sim::order::Order;

/// The melee rules as a [`CardSource`].
pub struct MeleeCards;

/// How a card of a hand is named in the overlay: its face, with its target (`DELIVER BLOW at
/// levy`), so each entry of a hand has a name of its own. (The arrow of the rules' own text is
/// not in egui's default font.)
pub fn card_name(card: &Card) -> String {
    match card {
        Card::Tac(t) => t.name().to_string(),
        Card::Melee(m) => m.to_string().replace(" → ", " at "),
    }
}

/// One entry of `unit`'s rules hand as the overlay shows it: the rules' cost and verdict, the
/// resolver's odds for a card that strikes, whom it is aimed at, the way it moves the figure
/// on the grid, and its one-line effect.
pub fn card_view(game: &mut Game, unit: &str, c: &HandCard) -> CardView {
    let odds = odds_of(game, unit, &c.card);
    let (kind, effect, target) = match &c.card {
        Card::Tac(t) => (CardKind::Tac, t.effect(), None),
        Card::Melee(m) => (CardKind::Melee, m.effect(), m.target().map(str::to_string)),
    };
    let name = card_name(&c.card);
    // The player reads a MOVE, WHEEL or TURN's way by the compass (issue 34).
    let label = match &c.card {
        Card::Melee(m) => m.words(game.board().grid).replace(" → ", " at "),
        Card::Tac(_) => name.clone(),
    };
    CardView {
        label,
        name,
        kind,
        cost: u32::from(c.cost),
        verdict: c.verdict.clone().map_err(|e| e.to_string()),
        odds: odds.as_ref().map(|(o, t)| odds_words(o, t)),
        numbers: odds.map(|(o, _)| CardNumbers {
            chance: o.chance,
            critical: o.critical,
            damage: o.damage,
        }),
        target,
        toward: toward(game, unit, &c.card),
        effect: effect.to_string(),
    }
}

/// The way a MOVE, DODGE, WHEEL or TURN card takes `unit` on the grid (a DODGE by the dodger's
/// own orientation, §6; a horse's MOVE straight ahead).
fn toward(game: &Game, unit: &str, card: &Card) -> Option<Toward> {
    let Card::Melee(m) = card else {
        return None;
    };
    let fight = game.melee_fight()?;
    let i = fight.index_of(unit)?;
    let (dir, turn) = match m {
        MeleeCard::Move(MoveStep::To(d)) => (*d, false),
        MeleeCard::Move(MoveStep::Face(d)) => (*d, true),
        MeleeCard::Dodge(d) => (fight.dodge_dir(i, *d), false),
        MeleeCard::Horse(HorseCard::Move) => (fight.fighters[i].facing, false),
        MeleeCard::Horse(HorseCard::Wheel { facing } | HorseCard::Turn { facing }) => {
            (*facing, true)
        }
        _ => return None,
    };
    Some(Toward { dir: dir.0, turn })
}

fn odds_of(game: &mut Game, unit: &str, card: &Card) -> Option<(Odds, String)> {
    let Card::Melee(m) = card else {
        return None;
    };
    let target = m.target()?.to_string();
    let o = game.blow_odds(unit, &target, m)?;
    Some((o, target))
}

/// One blow's odds in a player's words, every modifier on its own line (cards and charges).
pub fn odds_words(o: &Odds, target: &str) -> String {
    let mut t = format!(
        "{}% to hit {target} ({}% critical), {}-{} damage, {} ({:?}) through its {:?} side",
        o.chance, o.critical, o.damage.0, o.damage.1, o.weapon, o.class, o.side
    );
    if o.bash > 0 {
        t.push_str(&format!("; {}% weapon bash on a hit", o.bash));
    }
    t.push_str(" — if it shows no defence card.");
    for (what, n) in &o.parts {
        t.push_str(&format!("\n  {what}: {n:+}"));
    }
    t
}

impl CardSource for MeleeCards {
    fn choosers(&self, game: &mut Game) -> Vec<u8> {
        let mut sides: Vec<u8> = game
            .melee_waiting(Stage::Choosing)
            .into_iter()
            .chain(game.melee_waiting(Stage::Guessing))
            .map(|(_, s)| s)
            .collect();
        sides.sort_unstable();
        sides.dedup();
        sides
    }

    fn secret(&self, game: &mut Game) -> bool {
        !game.melee_waiting(Stage::Choosing).is_empty()
    }

    fn hands(&self, game: &mut Game, side: u8) -> Vec<FigureHand> {
        let ids: Vec<String> = game
            .melee_waiting(Stage::Choosing)
            .into_iter()
            .filter(|(_, s)| *s == side)
            .map(|(id, _)| id)
            .collect();
        ids.into_iter()
            .map(|unit| {
                let cards = game.hand(&unit);
                let blows = game
                    .melee_fight()
                    .and_then(|f| f.fighters.get(f.index_of(&unit)?))
                    .map_or(0, |f| u32::from(f.blows));
                let mut targets: Vec<String> = cards
                    .iter()
                    .filter_map(|c| match &c.card {
                        Card::Melee(m) => m.target().map(str::to_string),
                        Card::Tac(_) => None,
                    })
                    .collect();
                targets.sort();
                targets.dedup();
                let views = cards.iter().map(|c| card_view(game, &unit, c)).collect();
                FigureHand {
                    name: unit.clone(),
                    unit,
                    blows,
                    targets,
                    cards: views,
                }
            })
            .collect()
    }

    fn guesses(&self, game: &mut Game, side: u8) -> Vec<GuessDue> {
        let guessers: Vec<String> = game
            .melee_waiting(Stage::Guessing)
            .into_iter()
            .filter(|(_, s)| *s == side)
            .map(|(id, _)| id)
            .collect();
        // The melee names the pairs in the happening that asks for the guesses; it keeps
        // the pairs themselves private.
        let asked = game.log().iter().rev().find_map(|l| match &l.what {
            Happening::DodgesAsked(pairs) => Some(pairs.as_slice()),
            _ => None,
        });
        asked
            .unwrap_or_default()
            .iter()
            .filter(|(g, _)| guessers.contains(g))
            .map(|(g, d)| GuessDue {
                guesser: g.clone(),
                dodger: d.clone(),
            })
            .collect()
    }

    fn play(&self, game: &mut Game, pick: &CardPick) -> Result<(), String> {
        let cards = game.hand(&pick.unit);
        let find = |name: &str| {
            cards
                .iter()
                .find(|c| card_name(&c.card) == name)
                .map(|c| c.card.clone())
                .ok_or_else(|| format!("{} holds no {name} card", pick.unit))
        };
        let tac = match &pick.tac {
            None => None,
            Some(name) => match find(name)? {
                Card::Tac(t) => Some(t),
                Card::Melee(_) => return Err(format!("{name} is not a TAC card")),
            },
        };
        let mut melee = Vec::new();
        for name in &pick.melee {
            match find(name)? {
                Card::Melee(m) => melee.push(m),
                Card::Tac(_) => return Err(format!("{name} is not a MELEE card")),
            }
        }
        let order = Order::PlayCards {
            unit: pick.unit.clone(),
            tac,
            tac_target: pick.tac_target.clone().filter(|_| tac.is_some()),
            melee,
        };
        game.order(&order).map_err(|r| r.to_string())
    }

    fn pass_rest(&self, game: &mut Game, side: u8) -> Result<(), String> {
        let side = game.turn_state().side_name(side);
        game.order(&Order::PassMelee { side })
            .map_err(|r| r.to_string())
    }

    fn guess(&self, game: &mut Game, due: &GuessDue, dir: Option<GuessDir>) -> Result<(), String> {
        let order = match dir {
            None => Order::Pass {
                unit: due.guesser.clone(),
            },
            Some(d) => Order::GuessDodge {
                unit: due.guesser.clone(),
                target: due.dodger.clone(),
                guess: match d {
                    GuessDir::Left => DodgeDir::Left,
                    GuessDir::Right => DodgeDir::Right,
                    GuessDir::Back => DodgeDir::Back,
                },
            },
        };
        game.order(&order).map_err(|r| r.to_string())
    }
}
