//! Melee: the Destrier card system (seed 003, D6–D12, brief §6) as pure rules.
//!
//! A [`fight::Fight`] holds every figure that can fight and the board. Each figure chooses a
//! [`cards::Choice`] face down; [`resolve::resolve`] then plays one card round (or the TAC
//! phase) with a [`Dice`] source and returns what happened as [`Event`]s in a player's words,
//! each with the rolls that decided it. The simulation (`sim::melee`) keeps the choices secret
//! until everyone has chosen and writes the results back to the figures. The same code gives
//! the desktop game the hand of cards ([`hand::hand`]) and the odds ([`attack::odds`]).

pub mod attack;
pub mod berserk;
pub mod cards;
pub mod deck;
pub mod effects;
pub mod fight;
mod fight_near;
pub mod flow;
pub mod grapple;
pub mod hand;
pub mod judge;
pub mod moves;
pub mod near;
pub mod prepare;
pub mod resolve;
pub mod spells;
pub mod tables;
#[doc(hidden)]
pub mod testkit;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_audit;
#[cfg(test)]
mod tests_cards;
#[cfg(test)]
mod tests_more;
#[cfg(test)]
mod tests_rules;

use serde::Serialize;

/// A source of dice. The simulation's seeded dice implement it; tests script it.
pub trait Dice {
    /// 1d100: 1..=100.
    fn d100(&mut self) -> u32;
    /// 1d6: 1..=6.
    fn d6(&mut self) -> u32;
}

/// Dice that return the values they were given, in order: fixed outcomes for tests and
/// worked examples. When a list runs out it answers 1 (d6) or 100 (d100) and counts it.
#[derive(Clone, Debug, Default)]
pub struct ScriptedDice {
    d100: std::collections::VecDeque<u32>,
    d6: std::collections::VecDeque<u32>,
    /// Dice asked for beyond the script.
    pub overrun: u32,
}

impl ScriptedDice {
    /// Dice answering `d100` and `d6` in order.
    pub fn new(d100: &[u32], d6: &[u32]) -> ScriptedDice {
        ScriptedDice {
            d100: d100.iter().copied().collect(),
            d6: d6.iter().copied().collect(),
            overrun: 0,
        }
    }

    /// Dice left unused (d100, d6): a test can check the script was used up.
    pub fn left(&self) -> (usize, usize) {
        (self.d100.len(), self.d6.len())
    }
}

impl Dice for ScriptedDice {
    fn d100(&mut self) -> u32 {
        self.d100.pop_front().unwrap_or_else(|| {
            self.overrun += 1;
            100
        })
    }
    fn d6(&mut self) -> u32 {
        self.d6.pop_front().unwrap_or_else(|| {
            self.overrun += 1;
            1
        })
    }
}

/// One die rolled and who rolled it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RollNote {
    /// "d100" or "d6".
    pub die: &'static str,
    /// The value.
    pub value: u32,
    /// The figure that rolled (or for whom).
    pub by: String,
    /// For a roll to hit: the chance it needed (a hit is this or less), so the end of a
    /// battle can weigh each side's luck (issue 12).
    pub chance: Option<i32>,
    /// For a roll to hit: the figure aimed at, so the window draws the arrow and shows the
    /// miss over it from data, not from the words (issue 29).
    #[serde(skip)]
    pub at: Option<String>,
}

/// Something that happened in a card round, in a player's words, with its rolls.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Event {
    /// What happened.
    pub text: String,
    /// The dice that decided it, in order.
    pub rolls: Vec<RollNote>,
    /// When the event is a round's cards turned face up: the cards themselves, so the reveal
    /// draws them from data (issue 29).
    #[serde(skip)]
    pub faced: Option<Faced>,
    /// The figure a TAC card carried back from the melee (RETREAT, RUN AWAY, or KEEP
    /// DISTANCE falling back), by its fight id: what I1's "retreating as a result of melee"
    /// reads next turn, as data rather than from the words (issue 29).
    #[serde(skip)]
    pub retreat: Option<String>,
}

impl Event {
    /// An event decided by no die.
    pub fn say(text: impl Into<String>) -> Event {
        Event {
            text: text.into(),
            rolls: Vec::new(),
            faced: None,
            retreat: None,
        }
    }

    /// This event with `id` carried back from the melee by its TAC card (I1 reads it).
    pub fn retreating(mut self, id: String) -> Event {
        self.retreat = Some(id);
        self
    }

    /// An event decided by one d100 that is not a roll to hit (a fire table's roll, a
    /// horse's fate): the die is in the log beside the words.
    pub fn on_d100(text: String, value: u32, by: &str) -> Event {
        Event {
            text,
            rolls: vec![RollNote {
                die: "d100",
                value,
                by: by.to_string(),
                chance: None,
                at: None,
            }],
            faced: None,
            retreat: None,
        }
    }

    /// The event of a round's cards turned face up (D9), its words printed from the cards.
    pub fn faced(faced: Faced) -> Event {
        Event {
            text: faced.to_string(),
            rolls: Vec::new(),
            faced: Some(faced),
            retreat: None,
        }
    }
}

/// A round's cards turned face up together (D9): who played what.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Faced {
    /// The card round's number; 0 for the TAC phase.
    pub round: u32,
    /// Each figure that played, in the fight's order.
    pub plays: Vec<FacedPlay>,
    /// The map's grid, so that a MOVE, WHEEL or TURN card names its way by the compass
    /// (issue 34). Older saves' happenings have none and read as squares.
    #[serde(default)]
    pub grid: crate::rules::grid::GridKind,
}

/// One figure's cards, face up.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FacedPlay {
    /// The figure's id.
    pub figure: String,
    /// What it played: no TAC card and no MELEE card is PASSIVE SHIELD PARRY.
    pub choice: deck::Choice,
}

impl Faced {
    /// Every figure stood quietly: a round in which nothing was played (D7).
    pub fn all_passive(&self) -> bool {
        self.plays.iter().all(|p| p.choice.is_passive())
    }

    /// `TAC phase` or `Card round 3`: what the round is called in the log and the reveal.
    pub fn title(&self) -> String {
        if self.round == 0 {
            "TAC phase".into()
        } else {
            format!("Card round {}", self.round)
        }
    }
}

impl std::fmt::Display for Faced {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} — cards face up: ", self.title())?;
        for (k, p) in self.plays.iter().enumerate() {
            if k > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{}: ", p.figure)?;
            for (j, card) in p.choice.faced_words(self.grid).iter().enumerate() {
                if j > 0 {
                    f.write_str(" + ")?;
                }
                f.write_str(card)?;
            }
        }
        f.write_str(".")
    }
}

/// Rolls and records: the resolver's way to roll so that every die lands in an event.
pub(crate) struct Roller<'d, D: Dice> {
    pub dice: &'d mut D,
    pub rolls: Vec<RollNote>,
}

impl<'d, D: Dice> Roller<'d, D> {
    pub fn new(dice: &'d mut D) -> Self {
        Roller {
            dice,
            rolls: Vec::new(),
        }
    }

    pub fn d100(&mut self, by: &str) -> u32 {
        let v = self.dice.d100().clamp(1, 100);
        self.rolls.push(RollNote {
            die: "d100",
            value: v,
            by: by.to_string(),
            chance: None,
            at: None,
        });
        v
    }

    pub fn d6(&mut self, by: &str) -> u32 {
        let v = self.dice.d6().clamp(1, 6);
        self.rolls.push(RollNote {
            die: "d6",
            value: v,
            by: by.to_string(),
            chance: None,
            at: None,
        });
        v
    }

    /// Notes that the last roll was a roll to hit at figure `at` needing `chance` or less.
    pub fn aim(&mut self, chance: i32, at: &str) {
        if let Some(n) = self.rolls.last_mut() {
            n.chance = Some(chance);
            n.at = Some(at.to_string());
        }
    }

    /// Emits an event carrying the rolls made since the last one.
    pub fn event(&mut self, out: &mut Vec<Event>, text: impl Into<String>) {
        out.push(Event {
            text: text.into(),
            rolls: std::mem::take(&mut self.rolls),
            faced: None,
            retreat: None,
        });
    }
}
