//! The tournament (issue 13, item 5): two strengths play every level in both seatings on the
//! same seeds, and each level's result is a win share with a 95% interval, so that "the
//! stronger level is stronger" is a claim anybody can re-run (`warhorse tournament`).
//!
//! Seed `s` is played twice, once with `a` on the first side and once with `b` there: the
//! dice and the level are the same, only the seats change, so a level's bias towards one side
//! cancels out of the pooled share. The share counts decided games only (a draw is neither
//! side's); its interval is Wilson's score interval, which stays inside 0–100% for small
//! counts where the normal approximation does not.

use super::AiLevel;
use super::bout::{BoutResult, Fixed, RollTally, play_scripted};
use super::plain::{Plain, Plan};
use crate::level::Level;
use serde::Serialize;

/// How one strength fared against another on one level (or pooled over levels).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Tally {
    /// Games played (both seatings).
    pub games: usize,
    /// Games won by the strength under test (`b`).
    pub b_wins: usize,
    /// Games won by its opponent (`a`).
    pub a_wins: usize,
    /// Drawn games.
    pub draws: usize,
    /// Orders the rules refused (the AI should give none).
    pub refused: usize,
    /// Orders of a scripted opponent ([`super::plain`]) the rules refused.
    pub script_refused: usize,
    /// The actions-table rolls, and those with an enemy on a flank or the rear (I1).
    pub rolls: RollTally,
    /// AI microseconds of each turn of both sides, over every game.
    #[serde(skip)]
    pub turn_us: Vec<u64>,
}

impl Tally {
    /// Games that were won by one side.
    pub fn decided(&self) -> usize {
        self.a_wins + self.b_wins
    }

    /// `b`'s share of the decided games, with its 95% Wilson interval, or `None` when none
    /// was decided.
    pub fn b_share(&self) -> Option<(f64, f64, f64)> {
        let n = self.decided();
        (n > 0).then(|| {
            let (lo, hi) = wilson(self.b_wins, n);
            (self.b_wins as f64 / n as f64, lo, hi)
        })
    }

    /// Adds one game in which `b` sat on side `b_side`.
    fn add(&mut self, r: &BoutResult, b_side: usize) {
        self.games += 1;
        match r.winner.as_deref() {
            None => self.draws += 1,
            Some(w) if r.sides.get(b_side).is_some_and(|s| s.side == w) => self.b_wins += 1,
            Some(_) => self.a_wins += 1,
        }
        self.refused += r.refused;
        self.script_refused += r.script_refused;
        self.rolls = self.rolls + r.rolls;
        self.turn_us.extend(&r.timing.turn_ai_us);
    }

    /// Both tallies together.
    pub fn merge(&mut self, o: &Tally) {
        self.games += o.games;
        self.b_wins += o.b_wins;
        self.a_wins += o.a_wins;
        self.draws += o.draws;
        self.refused += o.refused;
        self.script_refused += o.script_refused;
        self.rolls = self.rolls + o.rolls;
        self.turn_us.extend(&o.turn_us);
    }
}

/// Wilson's 95% score interval for `k` successes in `n` trials, as fractions.
pub fn wilson(k: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_985f64;
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2n = z * z / n;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = z * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt() / (1.0 + z2n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The AI time of a turn of both sides: mean, 99th percentile and worst, in microseconds.
pub fn turn_times(us: &[u64]) -> Option<(f64, u64, u64)> {
    if us.is_empty() {
        return None;
    }
    let mut v = us.to_vec();
    v.sort_unstable();
    let mean = v.iter().sum::<u64>() as f64 / v.len() as f64;
    // The nearest-rank 99th percentile.
    let rank = ((v.len() as f64) * 0.99).ceil() as usize;
    let p99 = v[rank.clamp(1, v.len()) - 1];
    Some((mean, p99, v[v.len() - 1]))
}

/// Who plays: the opponent `a`, the strength under test `b`, and whether `a` plays under the
/// fixed counter-strategy of the exploitation test ([`Fixed::back_and_parry`]) or is
/// replaced by a scripted plain plan ([`Plan`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Matchup {
    /// The opponent.
    pub a: AiLevel,
    /// The strength under test.
    pub b: AiLevel,
    /// `a` guesses every dodge Back and meets every charge with a WEAPON PARRY.
    pub a_fixed: bool,
    /// `a`'s side is played by this plain plan, not the computer (`a` is then unused).
    pub a_plan: Option<Plan>,
}

impl Matchup {
    /// `b` against `a`, both as they play.
    pub fn new(a: AiLevel, b: AiLevel) -> Matchup {
        Matchup {
            a,
            b,
            a_fixed: false,
            a_plan: None,
        }
    }
}

/// Plays `pairs` seeds from `seed` on `level`, each twice (`a` first, then `b` first), on
/// `jobs` threads; at most `turns` turns a game (the level's own limit ends it sooner).
pub fn play_level(
    level: &Level,
    m: Matchup,
    seed: u64,
    pairs: u32,
    turns: u32,
    jobs: usize,
) -> Tally {
    let Matchup {
        a,
        b,
        a_fixed,
        a_plan,
    } = m;
    let games: Vec<(u64, usize)> = (0..pairs as u64)
        .flat_map(|i| [(seed.wrapping_add(i), 1), (seed.wrapping_add(i), 0)])
        .collect();
    let jobs = jobs.clamp(1, games.len().max(1));
    let results: Vec<Vec<(BoutResult, usize)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|j| {
                let mine: Vec<(u64, usize)> = games.iter().skip(j).step_by(jobs).copied().collect();
                scope.spawn(move || {
                    mine.into_iter()
                        .map(|(s, b_side)| {
                            let seats = if b_side == 1 { [a, b] } else { [b, a] };
                            let a_side = 1 - b_side as u8;
                            let fixed = a_fixed.then(|| Fixed::back_and_parry(a_side));
                            let plain = a_plan.map(|p| Plain::new(p, a_side));
                            let (r, _) = play_scripted(level, s, turns, &seats, fixed, plain);
                            (r, b_side)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    let mut tally = Tally::default();
    for (r, b_side) in results.iter().flatten() {
        tally.add(r, *b_side);
    }
    tally
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_match_the_formula_and_stay_inside_0_to_1() {
        // 50 of 100: the textbook interval 40.4%–59.6%.
        let (lo, hi) = wilson(50, 100);
        assert!(
            (lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3,
            "{lo} {hi}"
        );
        // None of 10: 0 to 27.8%, where the normal approximation would give 0 to 0.
        let (lo, hi) = wilson(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-3, "{hi}");
        let (lo, hi) = wilson(10, 10);
        assert!((lo - 0.7225).abs() < 1e-3 && hi == 1.0, "{lo} {hi}");
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }

    #[test]
    fn turn_times_give_the_mean_the_nearest_rank_99th_percentile_and_the_worst() {
        let us: Vec<u64> = (1..=200).rev().collect();
        let (mean, p99, max) = turn_times(&us).expect("times");
        assert_eq!((mean, p99, max), (100.5, 198, 200));
        assert_eq!(turn_times(&[]), None);
    }

    /// A strength against itself: every seed's two games are the same game with the seats
    /// swapped, so each win of one seating is a loss of the other and the share is exactly
    /// one half. A tally that mixed up who sat where would not balance.
    #[test]
    fn both_seatings_of_a_seed_are_played_and_credited_to_the_right_strength() {
        let level = crate::level::default_level().expect("the default level loads");
        let m = Matchup::new(AiLevel::Table, AiLevel::Table);
        let t = play_level(&level, m, 5, 3, 20, 2);
        assert_eq!(t.games, 6);
        assert_eq!(t.a_wins, t.b_wins, "{t:?}");
        assert_eq!(t.draws % 2, 0, "{t:?}");
        assert_eq!(t.refused, 0);
        assert!(t.rolls.rolls > 0 && !t.turn_us.is_empty(), "{t:?}");
    }
}
