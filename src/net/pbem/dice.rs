//! Agreeing each turn's dice by email: both players give a random value for the turn and the
//! turn's seed is a hash of the two. Whoever shows a value first does so only after the other
//! has committed to theirs (a hash of it), so neither can choose the dice, and a player who
//! replays the game at home gets the same rolls, never new ones. A turn's seed is agreed
//! during the turn before it.

use super::PbemError;
use super::file::{DiceWord, dice_commitment, fresh_value, hash_of};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Where one turn's agreement stands, from one player's seat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct TurnDice {
    /// This player's value, made when first needed: secret until revealed.
    mine: Option<String>,
    /// This player has sent a commitment to it.
    committed: bool,
    /// This player has sent it.
    revealed: bool,
    /// The other player's commitment.
    their_commitment: Option<String>,
    /// The other player's value.
    their_value: Option<String>,
}

/// Every turn's agreement, from one player's seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceBook {
    /// The game's id, in every commitment.
    game: String,
    /// This player (0 or 1).
    me: u8,
    /// By turn.
    turns: BTreeMap<u32, TurnDice>,
}

impl DiceBook {
    /// A book for player `me` of game `game`.
    pub fn new(game: String, me: u8) -> DiceBook {
        DiceBook {
            game,
            me,
            turns: BTreeMap::new(),
        }
    }

    /// What this player says in its next file: a commitment for each turn of `ahead` the
    /// other has not spoken of, and its value for every turn the other has committed to or
    /// shown theirs. Marks them said: call it only for a file that is written.
    pub fn words(&mut self, ahead: std::ops::RangeInclusive<u32>) -> Vec<DiceWord> {
        for t in ahead {
            self.turns.entry(t).or_default();
        }
        let me = self.me;
        let mut out = Vec::new();
        for (&turn, t) in self.turns.iter_mut() {
            if t.revealed {
                continue;
            }
            let mine = t.mine.get_or_insert_with(fresh_value).clone();
            if t.their_commitment.is_some() || t.their_value.is_some() {
                t.revealed = true;
                out.push(DiceWord::Reveal { turn, value: mine });
            } else if !t.committed {
                t.committed = true;
                let hash = dice_commitment(&self.game, turn, me, &mine);
                out.push(DiceWord::Commit { turn, hash });
            }
        }
        out
    }

    /// Reads the other player's words, refusing a value that does not match its commitment
    /// and a word said twice.
    pub fn read(&mut self, words: &[DiceWord]) -> Result<(), PbemError> {
        let them = 1 - self.me;
        for w in words {
            match w {
                DiceWord::Commit { turn, hash } => {
                    let t = self.turns.entry(*turn).or_default();
                    if t.their_commitment.is_some() || t.their_value.is_some() {
                        return Err(PbemError::DiceTwice { turn: *turn });
                    }
                    t.their_commitment = Some(hash.clone());
                }
                DiceWord::Reveal { turn, value } => {
                    let t = self.turns.entry(*turn).or_default();
                    if t.their_value.is_some() {
                        return Err(PbemError::DiceTwice { turn: *turn });
                    }
                    // Shown without a commitment is shown first: this player shows its own
                    // only after the other committed or showed (see `words`).
                    if let Some(c) = &t.their_commitment
                        && *c != dice_commitment(&self.game, *turn, them, value)
                    {
                        return Err(PbemError::DiceChanged { turn: *turn });
                    }
                    if value.len() != 64 || !value.bytes().all(|b| b.is_ascii_hexdigit()) {
                        return Err(PbemError::DiceChanged { turn: *turn });
                    }
                    t.their_value = Some(value.clone());
                }
            }
        }
        Ok(())
    }

    /// The seeds this player can compute, for turns 1, 2, … without a gap.
    pub fn seeds(&self) -> Vec<u64> {
        let mut out = Vec::new();
        for turn in 1.. {
            let Some(t) = self.turns.get(&turn) else {
                break;
            };
            let (Some(mine), Some(theirs)) = (&t.mine, &t.their_value) else {
                break;
            };
            let (v0, v1) = if self.me == 0 {
                (mine, theirs)
            } else {
                (theirs, mine)
            };
            let h = hash_of(&["seed", &self.game, &turn.to_string(), v0, v1]);
            out.push(u64::from_str_radix(&h[..16], 16).unwrap_or_default());
        }
        out
    }
}
