//! The game log: every die roll and what it decided, every accepted order, in order.

use bevy::prelude::*;
use serde::Serialize;

/// A die roll and what it was for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Roll {
    /// "d6", "d100", …
    pub die: String,
    /// The value rolled.
    pub value: u32,
    /// Who rolled (a side or a figure id).
    pub by: String,
    /// A roll to hit: the chance in percent it needed (a hit is this or less).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chance: Option<i32>,
}

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogEntry {
    /// Turn number, from 1.
    pub turn: u32,
    /// Phase name (a phase's label: one of a few fixed words, so not a copy per line).
    pub phase: &'static str,
    /// What happened, in words a player understands.
    pub text: String,
    /// The roll this line reports, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roll: Option<Roll>,
}

/// The whole log of a game, kept in saves.
#[derive(Resource, Clone, Debug, Default, Serialize)]
pub struct GameLog(pub Vec<LogEntry>);
