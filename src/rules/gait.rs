//! Gaits and the limits on changing them (H2, D5, K1).

use serde::{Deserialize, Serialize};
use std::fmt;

/// How fast a figure is going. Foot figures always `Walk`; mounts move through the gaits, each
/// a speed category (D5) with its multiplier of the walk rate (H2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Gait {
    /// Standing still: no movement allowance.
    Halt,
    /// The class walk rate (H1); the only gait that may pivot or back up (H3, H5).
    Walk,
    /// Twice the walk rate; veers only, any number (H2, H4).
    Trot,
    /// Between trot and gallop: a ruleset value, 5/2 by default (H2).
    Canter,
    /// Three times the walk rate; at most two veers in the move (H2, H4); at most two turns
    /// running (K1).
    Gallop,
}

impl Gait {
    /// Every gait, slowest first.
    pub const ALL: [Gait; 5] = [
        Gait::Halt,
        Gait::Walk,
        Gait::Trot,
        Gait::Canter,
        Gait::Gallop,
    ];

    /// Speed category index, Halt = 0.
    pub fn category(self) -> i32 {
        self as i32
    }

    /// Lower-case name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Gait::Halt => "halt",
            Gait::Walk => "walk",
            Gait::Trot => "trot",
            Gait::Canter => "canter",
            Gait::Gallop => "gallop",
        }
    }

    /// Parses a gait name (case-insensitive; "stand" is a halt).
    pub fn parse(s: &str) -> Option<Gait> {
        match s.trim().to_ascii_lowercase().as_str() {
            "halt" | "stand" => Some(Gait::Halt),
            "walk" => Some(Gait::Walk),
            "trot" => Some(Gait::Trot),
            "canter" => Some(Gait::Canter),
            "gallop" => Some(Gait::Gallop),
            _ => None,
        }
    }
}

impl fmt::Display for Gait {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which half of the turn a half-move is; D5 rounds the gait-change limit up in the first
/// and down in the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Half {
    /// First half-move (D4).
    First,
    /// Second half-move (D5).
    Second,
}

/// D5: how many speed categories a steed capable of `categories` speed categories may change
/// by in one half-move — half of them, rounded up in the first half-move and down in the
/// second. A steed capable of halt, walk, trot, canter and gallop (5 categories) may change by
/// 3 then 2.
pub fn gait_change_limit(categories: usize, half: Half) -> i32 {
    let n = categories as i32;
    match half {
        Half::First => (n + 1) / 2,
        Half::Second => n / 2,
    }
}

/// Why a gait change is refused, naming the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GaitRefusal {
    /// The figure's kind cannot use that gait at all (mounted infantry never gallop, K2; foot
    /// figures have no gaits).
    NotCapable(Gait),
    /// D5: too many speed categories in one half-move.
    TooBigAChange {
        /// Categories asked for.
        asked: i32,
        /// Categories allowed this half-move.
        limit: i32,
    },
    /// K1: galloped the last two turns, so this turn is a walk.
    MustRest,
}

impl fmt::Display for GaitRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GaitRefusal::NotCapable(g) => write!(
                f,
                "H2/K2: this figure cannot {g} (its horse class's gaits; mounted infantry never \
                 gallop); choose one of the gaits it has"
            ),
            GaitRefusal::TooBigAChange { asked, limit } => write!(
                f,
                "D5: a change of {asked} speed categories; at most {limit} this half-move, so \
                 change by {limit} now and the rest in the next half-move"
            ),
            GaitRefusal::MustRest => {
                write!(
                    f,
                    "K1: galloped two turns running, so it may only walk this turn"
                )
            }
        }
    }
}

/// Checks a gait change from `from` (the gait at the start of this half-move) to `to`.
/// `capable` lists the gaits this figure can use; `must_rest` is the K1 state.
pub fn check_gait_change(
    capable: &[Gait],
    from: Gait,
    to: Gait,
    half: Half,
    must_rest: bool,
) -> Result<(), GaitRefusal> {
    if !capable.contains(&to) {
        return Err(GaitRefusal::NotCapable(to));
    }
    if must_rest && to > Gait::Walk {
        return Err(GaitRefusal::MustRest);
    }
    let asked = (to.category() - from.category()).abs();
    let limit = gait_change_limit(capable.len(), half);
    if asked > limit {
        return Err(GaitRefusal::TooBigAChange { asked, limit });
    }
    Ok(())
}

/// K1: the gallop streak after a turn — galloping extends it, anything else ends it. Returns
/// the new streak and whether the next turn must be a walk.
pub fn next_gallop_streak(streak: u8, galloped: bool, limit: u8) -> (u8, bool) {
    if galloped {
        let s = streak.saturating_add(1);
        (s, s >= limit)
    } else {
        (0, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d5_rounds_up_then_down() {
        assert_eq!(gait_change_limit(5, Half::First), 3);
        assert_eq!(gait_change_limit(5, Half::Second), 2);
        assert_eq!(gait_change_limit(4, Half::First), 2);
        assert_eq!(gait_change_limit(4, Half::Second), 2);
        assert_eq!(gait_change_limit(3, Half::Second), 1);
    }

    #[test]
    fn d5_refuses_too_big_a_change() {
        let all = Gait::ALL;
        assert!(check_gait_change(&all, Gait::Halt, Gait::Canter, Half::First, false).is_ok());
        let e = check_gait_change(&all, Gait::Halt, Gait::Gallop, Half::First, false);
        assert_eq!(e, Err(GaitRefusal::TooBigAChange { asked: 4, limit: 3 }));
        let e = check_gait_change(&all, Gait::Walk, Gait::Gallop, Half::Second, false);
        assert_eq!(e, Err(GaitRefusal::TooBigAChange { asked: 3, limit: 2 }));
    }

    #[test]
    fn k1_two_gallop_turns_then_walk() {
        let (s, rest) = next_gallop_streak(0, true, 2);
        assert_eq!((s, rest), (1, false));
        let (s, rest) = next_gallop_streak(s, true, 2);
        assert_eq!((s, rest), (2, true));
        let all = Gait::ALL;
        assert_eq!(
            check_gait_change(&all, Gait::Gallop, Gait::Trot, Half::First, rest),
            Err(GaitRefusal::MustRest)
        );
        assert!(check_gait_change(&all, Gait::Gallop, Gait::Walk, Half::First, rest).is_ok());
        assert!(check_gait_change(&all, Gait::Trot, Gait::Walk, Half::First, rest).is_ok());
        assert_eq!(next_gallop_streak(2, false, 2), (0, false));
    }

    #[test]
    fn k2_not_capable() {
        let mi = [Gait::Halt, Gait::Walk, Gait::Trot, Gait::Canter];
        assert_eq!(
            check_gait_change(&mi, Gait::Canter, Gait::Gallop, Half::First, false),
            Err(GaitRefusal::NotCapable(Gait::Gallop))
        );
    }
}
