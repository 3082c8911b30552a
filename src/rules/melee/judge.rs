//! What a card is judged by (§6, D6–D8): the situation it is played in and the reason it may
//! not be played now. The card checks of the melee's moves, spells and preparations and those
//! of [`super::cards`] speak these words, so they sit below all of them.

use super::deck::{MeleeCard, TacCard};
use super::fight::Fight;
use super::tables::Tables;
use serde::Serialize;
use std::fmt;

/// Why a card may not be played now: the rule's tag and the reason in a player's words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ineligible {
    /// The rule (`§6 GREAT BLOW`, `D7`, `C8`).
    pub tag: &'static str,
    /// What stops it.
    pub reason: String,
}

impl fmt::Display for Ineligible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.tag, self.reason)
    }
}

/// The context a card is judged in.
pub struct Situation<'a> {
    /// The fight.
    pub fight: &'a Fight,
    /// The tables.
    pub tables: &'a Tables,
    /// The TAC phase (TAC cards are free and everyone may play one) or a card round.
    pub tac_phase: bool,
    /// The TAC card played with it this round, if any.
    pub tac: Option<TacCard>,
    /// Every MELEE card of the same play.
    pub with: &'a [MeleeCard],
}
