//! Who plays each side: the layer that seats players names the computer's strengths, so the
//! simulation (saves, undo) can remember who plays a side without knowing how the computer
//! plays. The AI (`ai`) reads a side's [`Strength`] and plays at it; the rules and the
//! simulation never look at it (the actions table, I1–I2, binds every unit whoever plays it).

use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// How strongly a computer side plays. The variants' names are written in saves
/// (`players: [(control: Ai, ai: Lookahead)]`, `docs/formats.md`), so they never change.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum Strength {
    /// The actions table alone: nearest enemy, nearest cover, cheapest path.
    #[default]
    Table,
    /// The table's morale result, with targets and paths of commanded units chosen by
    /// looking ahead with the rules.
    Lookahead,
    /// Commanded units (with a hero or leader) are not run by the table: their leader plays
    /// them for the level's objectives, as a human player plays; the rest as `Lookahead`.
    Commander,
    /// The commander, choosing each turn how its commanded side moves by playing the
    /// choices forward on copies of the game as the side knows it (issue 31, item 3).
    Foresight,
}

impl Strength {
    /// Every strength, weakest first (the tournament and the start screen list them).
    pub const ALL: [Strength; 4] = [
        Strength::Table,
        Strength::Lookahead,
        Strength::Commander,
        Strength::Foresight,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Strength::Table => "table",
            Strength::Lookahead => "lookahead",
            Strength::Commander => "commander",
            Strength::Foresight => "foresight",
        }
    }

    /// The name the start screen shows.
    pub fn label(self) -> &'static str {
        match self {
            Strength::Table => "baseline",
            Strength::Lookahead => "stronger",
            Strength::Commander => "commander",
            Strength::Foresight => "strongest",
        }
    }

    /// Parses a command-line name (`table`/`baseline`, `lookahead`/`strong`, `commander`,
    /// `foresight`/`strongest`).
    pub fn parse(s: &str) -> Option<Strength> {
        match s.trim().to_ascii_lowercase().as_str() {
            "table" | "baseline" | "0" => Some(Strength::Table),
            "lookahead" | "strong" | "stronger" | "1" => Some(Strength::Lookahead),
            "commander" | "2" => Some(Strength::Commander),
            "foresight" | "strongest" | "3" => Some(Strength::Foresight),
            _ => None,
        }
    }
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The strength each computer side was seated at, kept in the game world so that whoever
/// drives the game (the window, `warhorse sim`, a loaded save) finds it there. A side not
/// listed plays at the default strength if the computer plays it.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Seats(pub BTreeMap<u8, Strength>);

/// Seats the computer on `side` at `strength`.
pub fn seat(world: &mut World, side: u8, strength: Strength) {
    match world.get_resource_mut::<Seats>() {
        Some(mut s) => {
            s.0.insert(side, strength);
        }
        None => {
            world.insert_resource(Seats(BTreeMap::from([(side, strength)])));
        }
    }
}

/// The strength `side` is seated at (the default unless set).
pub fn strength_of(world: &World, side: u8) -> Strength {
    world
        .get_resource::<Seats>()
        .and_then(|s| s.0.get(&side).copied())
        .unwrap_or_default()
}
