//! A turn file of a game played by email: what one player sends the other, and the hashes
//! that bind it to the files before it (a hash chain), to its own contents (so an edit
//! shows) and to the choices made face down (salted commitments opened in a later file).

use crate::sim::order::Order;
use serde::{Deserialize, Serialize};

/// Tells a turn file from any other JSON file.
pub const MARK: &str = "warhorse turn file";

/// The turn-file format this build writes and reads.
pub const FORMAT: u32 = 1;

/// What the first file says of the game, so the other player plays the same battle: the
/// level and ruleset travel whole, as in a save.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Start {
    /// The level's name, for people.
    pub level_name: String,
    /// Where the level came from.
    pub level_source: String,
    /// The level file's text.
    pub level: String,
    /// The ruleset, as RON.
    pub ruleset: String,
    /// For each side in side order, the player who gives its orders: 0 began the game, 1
    /// answered its first file.
    pub owners: Vec<u8>,
    /// A random value of the player who began, so two games of one level differ in id.
    pub nonce: String,
}

impl Start {
    /// The game's id: a hash of everything the two players agreed to play.
    pub fn game_id(&self) -> String {
        let owners: Vec<String> = self.owners.iter().map(u8::to_string).collect();
        hash_of(&[
            "game",
            &self.level,
            &self.ruleset,
            &owners.join(","),
            &self.nonce,
        ])
    }
}

/// One place in the record, as a file carries it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Entry {
    /// An order anyone may read.
    Order(Order),
    /// An order chosen face down (D2, D7, D9, C1, C5): only who gives it and a commitment
    /// to it; the order itself comes in a later file ([`Opening`]).
    Sealed {
        /// The figure that gives it: public, as the board shows who has chosen.
        unit: String,
        /// [`commitment`] of the order.
        commitment: String,
    },
}

/// A sealed order made public: the order and the salt its commitment was made with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opening {
    /// Its place in the record (0 is the first order).
    pub slot: usize,
    /// The order.
    pub order: Order,
    /// The salt.
    pub salt: String,
}

/// A sealed card play shown before it is opened, each DODGE's way masked (D7): the round
/// waits for the other player's dodge guesses, which need every other card faced and the
/// DODGEs still face down. The play itself is opened once those guesses are sealed; it must
/// then be this one with the DODGEs' ways filled in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FacedPlay {
    /// Its place in the record.
    pub slot: usize,
    /// The play, its DODGEs masked.
    pub order: Order,
}

/// A step in agreeing the dice of a turn: each player gives a random value, one commits to
/// it before the other shows theirs, so neither chooses the dice (see [`super::dice`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DiceWord {
    /// A commitment to the sender's value for `turn`.
    Commit {
        /// The turn.
        turn: u32,
        /// [`dice_commitment`] of the value.
        hash: String,
    },
    /// The sender's value for `turn`.
    Reveal {
        /// The turn.
        turn: u32,
        /// The value, hex.
        value: String,
    },
}

/// One file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnFile {
    /// Always [`MARK`].
    pub warhorse: String,
    /// [`FORMAT`].
    pub format: u32,
    /// The version of the build that wrote it: both players run the same rules.
    pub version: String,
    /// [`Start::game_id`].
    pub game: String,
    /// 1 for the first file of the game, then one more for each.
    pub seq: u32,
    /// The player who wrote it (0 began the game).
    pub from: u8,
    /// The hash of the file before it (empty in the first).
    pub prev: String,
    /// The game itself, in the first file only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<Start>,
    /// The orders the sender gave since its last file, in record order.
    pub entries: Vec<Entry>,
    /// The sender's sealed orders of earlier files, opened now.
    pub opened: Vec<Opening>,
    /// The sender's sealed card plays of earlier files shown now with their DODGEs masked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faced: Vec<FacedPlay>,
    /// The sender's steps in agreeing the dice.
    pub dice: Vec<DiceWord>,
    /// How many orders of the record every player can read once this file is read: the
    /// orders before the first one still sealed.
    pub public_orders: usize,
    /// A hash of the board and the phase after those orders, so two games that part (another
    /// build, a changed file) say after which order.
    pub state: String,
    /// The hash of this file, written with this field empty.
    pub hash: String,
}

impl TurnFile {
    /// The file's hash, from everything in it but the hash itself.
    pub fn compute_hash(&self) -> String {
        let mut bare = self.clone();
        bare.hash.clear();
        let text = serde_json::to_string(&bare).unwrap_or_default();
        hash_of(&["file", &text])
    }

    /// Fills in [`TurnFile::hash`].
    pub fn seal(mut self) -> TurnFile {
        self.hash = self.compute_hash();
        self
    }

    /// The file as people see and mail it.
    pub fn to_text(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// A hash of the parts, each length-prefixed so `("ab", "c")` and `("a", "bc")` differ;
/// BLAKE3, a cryptographic hash, so no one can find another order with the same commitment.
pub fn hash_of(parts: &[&str]) -> String {
    let mut h = blake3::Hasher::new();
    for p in parts {
        h.update(&(p.len() as u64).to_le_bytes());
        h.update(p.as_bytes());
    }
    h.finalize().to_hex().to_string()
}

/// The commitment to a sealed order at `slot` of game `game`.
pub fn commitment(game: &str, slot: usize, order: &Order, salt: &str) -> String {
    let text = serde_json::to_string(order).unwrap_or_default();
    hash_of(&["sealed", game, &slot.to_string(), &text, salt])
}

/// The commitment of `player` to its dice value for `turn`.
pub fn dice_commitment(game: &str, turn: u32, player: u8, value: &str) -> String {
    hash_of(&["dice", game, &turn.to_string(), &player.to_string(), value])
}

/// 32 random bytes, hex: a salt, a dice value, a nonce. From the operating system's
/// generator, which no one can predict.
pub fn fresh_value() -> String {
    use rand::RngExt;
    let bytes: [u8; 32] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
