//! A game followed from one seat (I4, issues 29 and 30): what a host has given a seat of its
//! game and what the seat keeps to rebuild its own game from that; the rebuilding is in
//! `replica.rs`. Two followers use it: a client's replica across machines (`net::replica`), and
//! the game each computer side thinks on ([`crate::sim::Game::known_to`]), so the computer plays from what its side may know exactly as a
//! player at another machine does — never the other side's face-down choices, the dice to come
//! or the seed.
//!
//! A seat is given the orders it may see, with their places in the record, and every die value
//! rolled. Its game plays those orders with those values (no seed: [`crate::sim::Game::replica`]). The
//! other side's face-down orders come only once revealed, so a seat's own face-down choice may
//! be played here before another side's that the host took first; choices of one gathering do
//! not depend on each other, and the host's board hash, given once the seat has had every
//! order, checks that. Should it differ, the follower plays every order again in the host's
//! order, and says so if it still differs.

use super::order::Order;
use crate::level::Level;
use std::collections::BTreeMap;

/// What a seat has been given of a game so far: the host keeps one for each seat.
#[derive(Clone, Debug, Default)]
pub struct SeatFeed {
    /// Every order before this place of the record was given, or is in `held`.
    pub(super) next_order: usize,
    /// Places of orders kept from this seat until they are revealed, in order.
    pub(super) held: Vec<usize>,
    /// How many die values it has been given.
    pub(super) dice_sent: usize,
    /// Orders of `held` given faced but for their DODGEs (D7), as given: the whole order
    /// follows once revealed, where it differs.
    pub(super) faced: BTreeMap<usize, Order>,
    /// The game's [`super::reveal::Reveals::epoch`] when `held` was last looked at: while it
    /// is the same, every order of `held` is still held.
    pub(super) held_at: Option<u64>,
}

/// How much of one order of the record a seat may have now ([`crate::sim::Game::shown_to`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Shown {
    /// All of it.
    Whole(Order),
    /// Another side's card play, faced but for its DODGEs while the round waits for the
    /// dodge guesses (D7): each DODGE's way masked.
    Faced(Order),
    /// Nothing: another side's face-down choice, not yet revealed.
    Hidden,
}

/// What a seat is given at one time (`SeatFeed::next`).
#[derive(Clone, Debug, PartialEq)]
pub struct Batch {
    /// The orders it may now see and had not had, each with its place in the record, in that
    /// order: every open order, the seat's own face-down ones at once, another side's only
    /// once revealed — but for a card play faced but for its DODGEs, given first masked
    /// ([`Shown::Faced`]), then again whole in the same place once revealed.
    pub seen: Vec<(usize, Order)>,
    /// The place of the first of `dice` among every value rolled.
    pub dice_from: usize,
    /// The die values rolled since the last batch, in order: never one to come.
    pub dice: Vec<u32>,
    /// The seat has had every order the game accepted.
    pub complete: bool,
}

/// What a seat keeps to rebuild the game it follows.
#[derive(Clone, Debug)]
pub struct Follower {
    pub(super) level: Level,
    /// Every order had, by place in the host's record (a masked card play until its whole
    /// one comes).
    pub(super) known: BTreeMap<usize, Order>,
    /// Every die value the host rolled, as far as given.
    pub(super) dice: Vec<u32>,
    /// The highest place played so far.
    pub(super) last: Option<usize>,
    /// Orders were played out of the host's order since the board was last found equal to
    /// the host's.
    pub(super) unsure: bool,
    /// An order was refused here since: this game's record lacks it, whatever its board.
    pub(super) refused: bool,
    /// Why this game parted from the host's, if it did: the window says so.
    pub parted: Option<String>,
}

impl Follower {
    /// A follower of a game of `level`.
    pub fn new(level: Level) -> Follower {
        Follower {
            level,
            known: BTreeMap::new(),
            dice: Vec::new(),
            last: None,
            unsure: false,
            refused: false,
            parted: None,
        }
    }

    /// The level played.
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// Whether an order was refused here since the board was last checked: this game's
    /// record lacks it, so [`Follower::check`] must play the orders again.
    pub fn refused(&self) -> bool {
        self.refused
    }

    /// Whether orders were played out of the host's order, or refused, since the board was
    /// last checked: [`Follower::check`] is worth its hash then.
    pub fn unsure(&self) -> bool {
        self.unsure || self.refused
    }
}
