//! A client's whole game, rebuilt from what its host sends (issue 30), so a window that
//! joins a game draws, previews and offers cards from a [`crate::sim::Game`] of its own
//! exactly as a window at the host does — and still knows nothing its seat may not.
//!
//! The host sends each seat the orders it may see and every die it rolled
//! ([`crate::sim::follow::SeatFeed`]); the replica is a [`crate::sim::follow::Follower`] of
//! them, checked against the host's board hash once the seat has had every order.

use super::protocol::Update;
use crate::level::Level;
use crate::sim::Game;
use crate::sim::follow::{Batch, Follower};

/// What a client keeps to rebuild its host's game.
#[derive(Clone, Debug)]
pub struct Replica(Follower);

impl Replica {
    /// A replica of a game of `level` (the level the host's welcome carries).
    pub fn new(level: Level) -> Replica {
        Replica(Follower::new(level))
    }

    /// The level played.
    pub fn level(&self) -> &Level {
        self.0.level()
    }

    /// Why this replica's game parted from the host's, if it did: the window says so.
    pub fn parted(&self) -> Option<&str> {
        self.0.parted.as_deref()
    }

    /// Takes in one update, bringing `game` up to it (`None`: not built yet, or sent again
    /// from the start after a rejoin: built now).
    pub fn take(&mut self, game: &mut Option<Game>, u: &Update) {
        let batch = Batch {
            seen: u.seen.clone(),
            dice_from: u.dice_from,
            dice: u.dice.clone(),
            complete: u.state_hash.is_some(),
        };
        if !self.0.take(game, &batch) {
            return;
        }
        if let Some(hash) = &u.state_hash {
            self.0.check(game, hash, u.orders, None);
        }
    }
}
