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
    /// Every value rolled so far, in order: a host sends them to its clients' replicas
    /// (issue 30), which roll them again instead of a seed they are never told.
    drawn: Vec<u32>,
    /// A replica's dice: the values the host rolled, still to be rolled here. `None`: the
    /// dice roll from their seed.
    script: Option<std::collections::VecDeque<u32>>,
    /// A replica was asked for a roll the host had not sent, or for a die of other faces
    /// than the host's value fits: its game has parted from the host's.
    starved: bool,
    /// Once the script is rolled, roll from `rng` instead of starving: a side's copy of the
    /// game to think ahead on (issue 31), whose past rolls are the game's and whose future
    /// ones are its own.
    then_seeded: bool,
}

impl Dice {
    /// Dice seeded with `seed`.
    pub fn new(seed: u64) -> Dice {
        Dice {
            rng: ChaCha8Rng::seed_from_u64(seed),
            seed,
            turn_seeds: None,
            missing: None,
            drawn: Vec::new(),
            script: None,
            starved: false,
            then_seeded: false,
        }
    }

    /// The dice of a replica (issue 30): no seed, every value given by the host as it rolls
    /// them ([`Dice::feed`]), so the replica rolls exactly what the host rolled and never
    /// knows a roll before the host has made it.
    pub fn scripted() -> Dice {
        Dice {
            script: Some(Default::default()),
            ..Dice::new(0)
        }
    }

    /// Dice that roll `past` again, then roll from `seed`: a copy of a game (its values
    /// rolled so far) played on with dice of the copier's own (issue 31, item 3), which tell
    /// nothing of the game's next rolls.
    pub fn replaying(past: &[u32], seed: u64) -> Dice {
        Dice {
            script: Some(past.iter().copied().collect()),
            then_seeded: true,
            ..Dice::new(seed)
        }
    }

    /// Gives a replica's dice the next values the host rolled.
    pub fn feed(&mut self, values: &[u32]) {
        self.script
            .get_or_insert_with(Default::default)
            .extend(values);
    }

    /// Every value rolled so far, in order.
    pub fn drawn(&self) -> &[u32] {
        &self.drawn
    }

    /// Whether a replica's dice were asked for a roll the host had not made (see
    /// [`Dice::scripted`]).
    pub fn starved(&self) -> bool {
        self.starved
    }

    /// Values fed to a replica and not yet rolled.
    pub fn unrolled(&self) -> usize {
        self.script.as_ref().map_or(0, |s| s.len())
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
        let sides = sides.max(1);
        let v = match self.script.as_mut() {
            None => self.rng.random_range(1..=sides),
            Some(script) => match script.pop_front() {
                Some(v) if (1..=sides).contains(&v) => v,
                None if self.then_seeded => self.rng.random_range(1..=sides),
                _ => {
                    self.starved = true;
                    1
                }
            },
        };
        self.drawn.push(v);
        v
    }
}
