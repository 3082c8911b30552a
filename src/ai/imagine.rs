//! The stronger AI's imagination: fights played out on copies of the real fight with the real
//! melee resolver, every figure making the plainest play, the dice rolled by a generator of
//! the AI's own (never the game's dice, which would be reading the future).
//!
//! The seeds come from public facts (the game's seed, the turn, the round, the figure), so an
//! AI game replays exactly; the opponents' face-down choices are never read — the imagined
//! opponents play what anybody could expect of them: the plainest blow at the nearest enemy
//! they can reach.

use super::cards::baseline_play;
use crate::rules::melee::fight::{Fallen, Fight};
use crate::rules::melee::tables::Tables;
use crate::rules::melee::{flow, resolve};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Dice of the AI's imagination.
pub struct Imagined(pub ChaCha8Rng);

impl Imagined {
    /// Dice for sample `k` of a decision seeded by `seed`.
    pub fn new(seed: u64, k: u64) -> Imagined {
        Imagined(ChaCha8Rng::seed_from_u64(
            seed ^ k.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        ))
    }
}

impl crate::rules::melee::Dice for Imagined {
    fn d100(&mut self) -> u32 {
        self.0.random_range(1..=100)
    }
    fn d6(&mut self) -> u32 {
        self.0.random_range(1..=6)
    }
}

/// Mixes public facts into a seed for the imagination.
pub fn mix(parts: &[u64]) -> u64 {
    parts.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &p| {
        (h ^ p).wrapping_mul(0x0100_0000_01B3).rotate_left(17)
    })
}

/// How good a fight is for `side`: each figure's share of body points left, ours counted
/// for, the enemies' against; a figure out of the fight has nothing left. Riders count
/// double their mounts: an unhorsed knight fights on, a riderless horse does not.
pub fn worth_for(fight: &Fight, side: u8) -> i64 {
    fight
        .fighters
        .iter()
        .map(|f| {
            let max = f.body_max.max(1) as i64;
            let left = if f.state.fallen == Fallen::Up {
                f.body.max(0) as i64
            } else {
                0
            };
            let weight = if f.is_mount() { 1 } else { 2 };
            let v = left * 1000 * weight / max;
            if f.side == side { v } else { -v }
        })
        .sum()
}

/// Everyone's plain play for the next card round (or the TAC phase): each participant's
/// forced play, else the baseline's; `None` for those who take no part.
pub fn plain_plays(fight: &Fight, t: &Tables) -> Vec<Option<crate::rules::melee::cards::Choice>> {
    let tac_phase = fight.round == 0;
    let mut choices = vec![None; fight.fighters.len()];
    for j in flow::participants(fight, t, tac_phase) {
        choices[j] = Some(
            flow::forced(fight, t, j, tac_phase)
                .unwrap_or_else(|| baseline_play(fight, t, j, tac_phase, None)),
        );
    }
    choices
}

/// One imagined card round (or the TAC phase): `mine` plays `play` when given, every other
/// participant its forced or plainest play.
pub fn imagine_round(
    fight: &mut Fight,
    t: &Tables,
    dice: &mut Imagined,
    mine: Option<(usize, &crate::rules::melee::cards::Choice)>,
) {
    let plain = plain_plays(fight, t);
    imagine_round_with(fight, t, dice, &plain, mine);
}

/// [`imagine_round`] with everyone's plain plays already worked out (they are the same for
/// every candidate a figure weighs, so a decision works them out once).
pub fn imagine_round_with(
    fight: &mut Fight,
    t: &Tables,
    dice: &mut Imagined,
    plain: &[Option<crate::rules::melee::cards::Choice>],
    mine: Option<(usize, &crate::rules::melee::cards::Choice)>,
) {
    let mut choices = plain.to_vec();
    if let Some((i, c)) = mine
        && let Some(slot) = choices.get_mut(i)
        && slot.is_some()
    {
        *slot = Some(c.clone());
    }
    let _ = resolve::resolve(fight, t, &choices, &[], dice);
}

/// Plays out a whole melee phase from its start (blows restored, the TAC phase, then card
/// rounds while anyone can strike, at most `rounds` of them).
pub fn play_out(fight: &mut Fight, t: &Tables, dice: &mut Imagined, rounds: u32) {
    flow::begin_phase(fight);
    if !flow::melee_starts(fight, t) {
        return;
    }
    for r in 0..rounds {
        if r > 0 && !flow::melee_on(fight, t) {
            break;
        }
        imagine_round(fight, t, dice, None);
    }
}
