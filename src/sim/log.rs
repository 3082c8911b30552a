//! The game log: every die roll and what it decided, every accepted order, in order.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// A die roll and what it was for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// "d6", "d100", …
    pub die: String,
    /// The value rolled.
    pub value: u32,
    /// Who rolled (a side or a figure id).
    pub by: String,
    /// A roll to hit: the chance in percent it needed (a hit is this or less).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chance: Option<i32>,
}

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogEntry {
    /// Turn number, from 1.
    pub turn: u32,
    /// Phase name (a phase's label: one of a few fixed words, so not a copy per line).
    pub phase: &'static str,
    /// What happened, in words a player understands. Private to the simulation: outside it
    /// a line is printed (`Display`), and what happened is matched on [`LogEntry::what`]
    /// (issue 29: no screen reads the words).
    pub(in crate::sim) text: String,
    /// The roll this line reports, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<Roll>,
    /// What happened, as data: what the window's screens, effects and sounds match on, so
    /// that nothing outside the simulation reads the words (issue 29). Not written to saves
    /// or JSON: a replay makes it again, and the words say the same.
    #[serde(skip)]
    pub what: Happening,
}

impl std::fmt::Display for LogEntry {
    /// The line's words, as the log panel and `warhorse script` print them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl LogEntry {
    /// A line of `text` in `phase` of `turn`, with the roll it reports and what it was.
    pub fn new(
        turn: u32,
        phase: &'static str,
        text: String,
        roll: Option<Roll>,
        what: Happening,
    ) -> LogEntry {
        LogEntry {
            turn,
            phase,
            text,
            roll,
            what,
        }
    }
}

/// A roll to hit as the simulation logs it — the words, the d100 and the happening — for the
/// tests of what the window makes of one (arrows, misses, sounds, the reveal).
#[cfg(test)]
pub(crate) fn roll_to_hit(by: &str, at: &str, chance: i32, roll: u32, shot: bool) -> LogEntry {
    LogEntry::new(
        1,
        if shot {
            "fire and spells (first)"
        } else {
            "melee rounds"
        },
        format!("{by} strikes {at}: needs {chance} or less; rolls {roll}."),
        Some(Roll {
            die: "d100".into(),
            value: roll,
            by: by.into(),
            chance: Some(chance),
        }),
        Happening::RollToHit {
            by: by.into(),
            at: at.into(),
            chance,
            roll,
            shot,
        },
    )
}

/// What a log line reports, as data with its dice. The screens that show a melee's cards,
/// the arrows of the fire phase, the results floating over the map and the sounds match on
/// these variants; the line's words are how it prints.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Happening {
    /// A line whose words say all that anything needs of it: a note of the rules, a mount or
    /// dismount, a charge's ride, a roll that is not to hit, for the initiative or on the
    /// actions table (its die is in [`LogEntry::roll`]).
    #[default]
    Told,
    /// A roll to hit (D3, D7, C6): a shot in a fire phase, a blow in a melee round or in a
    /// charge's impact.
    RollToHit {
        /// The figure that struck or shot.
        by: String,
        /// The figure aimed at.
        at: String,
        /// The chance in percent it needed: a hit is this or less.
        chance: i32,
        /// The d100 rolled.
        roll: u32,
        /// Loosed in a fire phase (an arrow flies), not struck in a melee or a charge.
        shot: bool,
    },
    /// A round's cards turned face up together (D9).
    CardsFaced(crate::rules::melee::Faced),
    /// Any other result of a card round, a charge or a shot (a blow's damage, a fall, a
    /// weapon drawn, a move): the figures its words name, in order, so the reveal puts it with
    /// its fight.
    Result {
        /// Figure ids, first named first, each once.
        named: Vec<String>,
        /// The figure (fight id) a TAC card carried back from the melee in it, if any: I1's
        /// "retreating as a result of melee", read next turn.
        retreated: Option<String>,
    },
    /// The cards are faced but for the DODGE cards, and these figures must first guess which
    /// way these enemies dodge (D7): (guesser, dodger) pairs.
    DodgesAsked(Vec<(String, String)>),
    /// These figures are asked for their cards, face down (D6, D9).
    AwaitingCards(Vec<String>),
    /// A figure chose its cards face down (D9). A pass is a choice like any other: the
    /// other side learns only that the figure has chosen.
    ChoseFaceDown(String),
    /// A new turn begins (its number).
    TurnBegins(u32),
    /// A side's initiative die (D1, D5): its d6 is in [`LogEntry::roll`] as well.
    InitiativeRolled {
        /// The side that rolled.
        side: u8,
        /// The d6 rolled.
        roll: u32,
    },
    /// The side that has the initiative this turn and moves first (D1), by the dice or by
    /// surprise in the first turn.
    InitiativeWon {
        /// The side.
        side: u8,
        /// Won because the other side was taken by surprise (D1), not by the dice.
        surprise: bool,
    },
    /// A Move order carried out: the figure's path and what it cost (D14, H2), so a screen can
    /// draw the way it went without reading the words.
    Moved {
        /// The figure moved.
        figure: String,
        /// The cells it passed through, its start first and where it stopped last.
        path: Vec<crate::rules::grid::Cell>,
        /// Its facing at the end.
        facing: crate::rules::grid::Dir,
        /// The movement it spent.
        cost: crate::rules::mp::Mp,
        /// The movement it has left this half-move.
        left: crate::rules::mp::Mp,
    },
    /// A mounted figure wrote its charge orders face down (D2, C1): the other sides learn only
    /// that it did.
    ChargeWritten(String),
    /// Every charge order revealed together (C1): each declaring figure with its targets in
    /// order (none: it does not charge).
    ChargesRevealed(Vec<(String, Vec<String>)>),
    /// Figures left the battle off a map edge: routed (I2), or safe by an objective's exit.
    LeftTheMap {
        /// The figure, then its mount and the horses it led.
        figures: Vec<String>,
        /// Routed (I2), not leaving by an objective's exit.
        routed: bool,
    },
    /// A side achieved one of the level's objectives.
    ObjectiveAchieved {
        /// The side.
        side: u8,
        /// The objective's name.
        objective: String,
        /// The victory points it scores.
        points: u32,
    },
    /// The battle is over: the winner, `None` for a draw.
    BattleOver {
        /// The winning side.
        winner: Option<u8>,
    },
    /// A unit's roll on the actions table (I1, I2): its risk factor, the d6 and what the
    /// table tells it to do this turn.
    ActionRolled {
        /// The unit.
        unit: String,
        /// Its side.
        side: u8,
        /// Its risk factor, the terms summed.
        risk: i32,
        /// The d6.
        roll: u32,
        /// The table's cell.
        action: crate::rules::actions::Action,
        /// What the unit does this turn, read against last turn.
        intent: crate::rules::actions::Intent,
    },
    /// A figure changed gait (H2, D5): its half-move's allowance is now the new gait's.
    GaitChanged {
        /// The figure (the rider, when mounted).
        figure: String,
        /// The new gait.
        gait: crate::rules::gait::Gait,
        /// The allowance of the half-move at that gait.
        allowance: crate::rules::mp::Mp,
    },
    /// A figure paid for an activity from its move (D15, R2).
    ActivityPaid {
        /// The figure.
        figure: String,
        /// What it paid.
        cost: crate::rules::mp::Mp,
        /// The movement it has left this half-move.
        left: crate::rules::mp::Mp,
    },
    /// The side moving ended its half-move (D4).
    HalfMoveEnded {
        /// The side; `None` when no side was moving.
        side: Option<u8>,
    },
}

impl Happening {
    /// What a rules event is: a round's cards faced, a roll to hit (its first roll, aimed at a
    /// figure) or another result naming the figures of `ids` its words name. `shot`: it
    /// happened in a fire phase.
    pub fn of_event(
        ev: &crate::rules::melee::Event,
        shot: bool,
        ids: &std::collections::HashSet<&str>,
    ) -> Happening {
        if let Some(f) = &ev.faced {
            return Happening::CardsFaced(f.clone());
        }
        if let Some(r) = ev.rolls.first()
            && let (Some(chance), Some(at)) = (r.chance, &r.at)
            && ev.retreat.is_none()
        {
            return Happening::RollToHit {
                by: r.by.clone(),
                at: at.clone(),
                chance,
                roll: r.value,
                shot,
            };
        }
        let mut named: Vec<String> = Vec::new();
        for w in ev
            .text
            .split(|c: char| c.is_whitespace() || ",:;().".contains(c))
        {
            if ids.contains(w) && !named.iter().any(|n| n == w) {
                named.push(w.to_string());
            }
        }
        Happening::Result {
            named,
            retreated: ev.retreat.clone(),
        }
    }
}

/// The whole log of a game, kept in saves.
#[derive(Resource, Clone, Debug, Default, Serialize)]
pub struct GameLog(pub Vec<LogEntry>);
