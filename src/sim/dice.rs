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
    /// A game played by email (issue 30) draws each turn's dice from a seed both players
    /// made together, agreed only as the game reaches that turn: `Some` holds the seeds
    /// known so far, for turns 1, 2, …. `None`: one seed for the whole game.
    turn_seeds: Option<Vec<u64>>,
    /// A turn that began before its seed was known (the dice then are not the agreed ones):
    /// the game played by email takes the order back and waits for the seed.
    missing: Option<u32>,
}

impl Dice {
    /// Dice seeded with `seed`.
    pub fn new(seed: u64) -> Dice {
        Dice {
            rng: ChaCha8Rng::seed_from_u64(seed),
            seed,
            turn_seeds: None,
            missing: None,
        }
    }

    /// Dice whose every turn is rolled from its own seed, given as the turns are agreed
    /// ([`Dice::add_turn_seed`]); before turn 1 they roll from `seed`.
    pub fn by_turn(seed: u64, turn_seeds: Vec<u64>) -> Dice {
        Dice {
            turn_seeds: Some(turn_seeds),
            ..Dice::new(seed)
        }
    }

    /// Gives the seed of the next turn not yet seeded.
    pub fn add_turn_seed(&mut self, seed: u64) {
        self.turn_seeds.get_or_insert_with(Vec::new).push(seed);
    }

    /// Called as `turn` begins: dice seeded by turn start over from that turn's seed.
    pub fn begin_turn(&mut self, turn: u32) {
        let Some(seeds) = &self.turn_seeds else {
            return;
        };
        match seeds.get(turn.saturating_sub(1) as usize) {
            Some(&s) => self.rng = ChaCha8Rng::seed_from_u64(s),
            None => {
                self.missing.get_or_insert(turn);
            }
        }
    }

    /// The turn seeds given so far (none in a game with one seed).
    pub fn turn_seeds(&self) -> &[u64] {
        self.turn_seeds.as_deref().unwrap_or_default()
    }

    /// The first turn that began before its seed was given, if any.
    pub fn missing_turn_seed(&self) -> Option<u32> {
        self.missing
    }

    /// Rolls one die with `sides` faces: 1..=sides.
    pub fn roll(&mut self, sides: u32) -> u32 {
        self.rng.random_range(1..=sides.max(1))
    }
}
