//! Steps whose outcome a die decides: squeezing between two obstacles (D17) and entering a
//! hostile figure's controlled cell (R4). What is rolled, the exact chance of getting through,
//! what a failure costs and where it leaves the figure.
//!
//! The step rules (`movement::Mover`) say *that* a step is a chance step and what it
//! costs on success; this module says what the die must show. The Move order rolls it
//! (`sim::orders::moving`), the reachable-area search reports it (`super::reach`).

use super::grid::Cell;
use super::mp::Mp;
use serde::Serialize;
use std::fmt;

/// The exact chance that a chance step succeeds: `num / den` (den 100 for a d100, 400 for
/// two d20s). Exact so that tests compare it, and players read it, without rounding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Chance {
    /// Favourable outcomes.
    pub num: u32,
    /// All outcomes.
    pub den: u32,
}

impl Chance {
    /// The chance in hundredths of a percent: exact, because every denominator used here
    /// (100, 400) divides 10 000.
    pub fn basis_points(self) -> u32 {
        self.num * 10_000 / self.den.max(1)
    }
}

impl fmt::Display for Chance {
    /// `60%`, `42.75%`: the exact percentage, without trailing zeros.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bp = self.basis_points();
        match bp % 100 {
            0 => write!(f, "{}%", bp / 100),
            r if r % 10 == 0 => write!(f, "{}.{}%", bp / 100, r / 10),
            r => write!(f, "{}.{:02}%", bp / 100, r),
        }
    }
}

/// A step the dice decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Gamble {
    /// D17: squeezing between two obstacles. The figure and the obstacle of its choice (the
    /// lighter of the two, whose bash is the weaker) bash each other; the figure goes on only
    /// if the obstacle's bash fails: it stops on a d100 at or under `bash`. The bash costs
    /// `cost` (1/4 of the half-move allowance) whatever the outcome.
    Squeeze {
        /// Terrain id of the obstacle it bashes.
        obstacle: u8,
        /// That obstacle's weight in lb.
        weight: u32,
        /// The obstacle's body-bash chance in percent (the melee's body bash table).
        bash: u8,
        /// The bash's movement cost, paid on success and on failure.
        cost: Mp,
    },
    /// R4 (house rule): a contest for a hostile figure's cell at `at`. Both roll d20 and add
    /// their Dexterity; the mover gets in only with a higher total (the holder wins ties). A
    /// lost contest costs nothing and stops the mover before the cell.
    Contest {
        /// The contested cell.
        at: Cell,
        /// The mover's Dexterity.
        mine: u8,
        /// The holder's Dexterity.
        theirs: u8,
    },
}

impl Gamble {
    /// The exact chance that the step succeeds.
    pub fn chance(&self) -> Chance {
        match *self {
            Gamble::Squeeze { bash, .. } => Chance {
                num: 100 - u32::from(bash.min(100)),
                den: 100,
            },
            Gamble::Contest { mine, theirs, .. } => contest_chance(mine, theirs),
        }
    }

    /// The movement a failed roll costs (D17: the bash is paid anyway; R4: nothing).
    pub fn fail_cost(&self) -> Mp {
        match *self {
            Gamble::Squeeze { cost, .. } => cost,
            Gamble::Contest { .. } => Mp::ZERO,
        }
    }

    /// The dice this gamble rolls, in order: `[100]` or `[20, 20]` (mover, then holder).
    pub fn dice(&self) -> &'static [u32] {
        match self {
            Gamble::Squeeze { .. } => &[100],
            Gamble::Contest { .. } => &[20, 20],
        }
    }

    /// True when the rolled values (one per [`Gamble::dice`]) let the figure through.
    pub fn passes(&self, rolled: &[u32]) -> bool {
        match *self {
            Gamble::Squeeze { bash, .. } => rolled.first().is_some_and(|&v| v > u32::from(bash)),
            Gamble::Contest { mine, theirs, .. } => match rolled {
                [a, b, ..] => a + u32::from(mine) > b + u32::from(theirs),
                _ => false,
            },
        }
    }
}

/// D17: the obstacle's body-bash chance against a figure, by the melee's body bash rule
/// (`data/combat.ron`: `body_bash` base ± per 50 lb of weight difference, clamped to
/// `hit_limits`), so a fence bashes like a figure of its weight.
pub fn bash_chance(obstacle_weight: u32, figure_weight: u32) -> u8 {
    super::melee::grapple::bash_by_weight(
        super::melee::tables::tables(),
        i64::from(obstacle_weight),
        i64::from(figure_weight),
    )
    .clamp(0, 100) as u8
}

/// R4 (house rule): the chance that d20 + `mine` beats d20 + `theirs`, out of 400.
pub fn contest_chance(mine: u8, theirs: u8) -> Chance {
    let d = i32::from(theirs) - i32::from(mine);
    let num = (1..=20)
        .map(|a: i32| (1..=20).filter(|b: &i32| a > b + d).count() as u32)
        .sum();
    Chance { num, den: 400 }
}

/// What a figure brings to the rolls of its move; without it a mover cannot take chance
/// steps at all (they are refused as needing a roll), which is how searches and callers that
/// never roll (the charge rules, old tests) keep their sure-step behaviour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollFacts {
    /// The cell it starts in: a roll may fail there, the one occupied cell it may stop in.
    pub home: Cell,
    /// Its weight in lb (rider and mount together), for the D17 bash.
    pub weight: u32,
    /// Its Dexterity, for the R4 contest.
    pub dexterity: u8,
    /// Hostile figures whose cells it may contest (R4), with their Dexterity, sorted by cell.
    pub foes: Vec<(Cell, u8)>,
}

impl RollFacts {
    /// Facts with `foes` sorted for lookup.
    pub fn new(home: Cell, weight: u32, dexterity: u8, mut foes: Vec<(Cell, u8)>) -> RollFacts {
        // The simulation's kept foes come sorted, one a cell: only checked then (issue 15).
        if !foes.is_sorted_by(|a, b| a.0 < b.0) {
            foes.sort();
            foes.dedup_by_key(|f| f.0);
        }
        RollFacts {
            home,
            weight,
            dexterity,
            foes,
        }
    }

    /// The Dexterity of the hostile holding `c`, if one is listed.
    pub fn foe_at(&self, c: Cell) -> Option<u8> {
        self.foes
            .binary_search_by_key(&c, |f| f.0)
            .ok()
            .map(|i| self.foes[i].1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contest_chance_is_exact_and_favours_dexterity() {
        // Equal Dexterity: the mover needs a strictly higher d20: 190 of 400 pairs.
        assert_eq!(contest_chance(10, 10), Chance { num: 190, den: 400 });
        assert_eq!(contest_chance(10, 10).to_string(), "47.5%");
        assert!(contest_chance(15, 10).num > 190);
        assert_eq!(contest_chance(0, 40).num, 0);
        assert_eq!(contest_chance(40, 0).num, 400);
    }

    #[test]
    fn bash_chance_follows_the_body_bash_table() {
        let t = crate::rules::melee::tables::tables();
        assert_eq!(i32::from(bash_chance(180, 180)), t.body_bash.base);
        assert_eq!(
            i32::from(bash_chance(280, 180)),
            t.body_bash.base + 2 * t.body_bash.per_50_lb
        );
        // 49 lb of difference is not yet a step.
        assert_eq!(i32::from(bash_chance(229, 180)), t.body_bash.base);
        assert_eq!(i32::from(bash_chance(100_000, 0)), t.hit_limits.max);
        assert_eq!(i32::from(bash_chance(0, 100_000)), t.hit_limits.min);
    }

    #[test]
    fn passes_reads_the_dice_as_the_chance_says() {
        let sq = Gamble::Squeeze {
            obstacle: 1,
            weight: 0,
            bash: 40,
            cost: Mp::ONE,
        };
        assert_eq!(sq.chance().to_string(), "60%");
        assert!(!sq.passes(&[40]));
        assert!(sq.passes(&[41]));
        let passes = (1..=100).filter(|&v| sq.passes(&[v])).count() as u32;
        assert_eq!(passes, sq.chance().num);
        let co = Gamble::Contest {
            at: Cell::new(0, 0),
            mine: 12,
            theirs: 9,
        };
        let wins: u32 = (1..=20)
            .map(|a| (1..=20).filter(|&b| co.passes(&[a, b])).count() as u32)
            .sum();
        assert_eq!(wins, co.chance().num);
        assert!(!co.passes(&[10, 13]), "a tie goes to the holder");
    }
}
