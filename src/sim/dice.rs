//! The one seeded random generator every die comes from, so the same seed and the same orders
//! replay the same game.

use bevy::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The game's dice.
#[derive(Resource, Clone, Debug)]
pub struct Dice {
    rng: ChaCha8Rng,
    /// The seed the game started with (shown in saves and the log).
    pub seed: u64,
}

impl Dice {
    /// Dice seeded with `seed`.
    pub fn new(seed: u64) -> Dice {
        Dice {
            rng: ChaCha8Rng::seed_from_u64(seed),
            seed,
        }
    }

    /// Rolls one die with `sides` faces: 1..=sides.
    pub fn roll(&mut self, sides: u32) -> u32 {
        self.rng.random_range(1..=sides.max(1))
    }
}
