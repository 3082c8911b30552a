//! The actions-table rolls made so far (I1, I2): public record that everyone at the table may
//! read, so the public view ([`super::view`]) shows them and the roll order
//! ([`super::action_roll`]) adds to them. It sits below both.

use crate::rules::actions::{Action, Intent};
use crate::rules::risk::RiskTerms;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// One unit's roll on the actions table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollEntry {
    /// The turn it was rolled in.
    pub turn: u32,
    /// The unit's name.
    pub unit: String,
    /// Its side.
    pub side: u8,
    /// The risk factor's terms (I1).
    pub terms: RiskTerms,
    /// The d6.
    pub roll: u32,
    /// The table's cell (I2).
    pub action: Action,
    /// What the unit does this turn, read against last turn.
    pub intent: Intent,
}

impl RollEntry {
    /// The risk factor.
    pub fn risk(&self) -> i32 {
        self.terms.total()
    }
}

/// Every actions-table roll of the game, in order. Rebuilt by replay like everything else.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct ActionRolls(pub Vec<RollEntry>);

impl ActionRolls {
    /// The roll `unit` made in `turn`, if it has rolled then (I1: once a turn).
    pub fn of_unit(&self, unit: &str, turn: u32) -> Option<&RollEntry> {
        self.0
            .iter()
            .rev()
            .find(|r| r.turn == turn && r.unit == unit)
    }
}
