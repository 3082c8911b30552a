//! How much a figure may move: percentages then flats (R1), gaits (H2), half-moves (D4),
//! activity penalties (D15, R2) and (dis)mounting (D15, R2).

use super::gait::Gait;
use super::mp::{Frac, Mp};
use super::ruleset::{
    Activity, Condition, Encumbrance, MountRule, Penalty, RatePer, Ruleset, SteedSize,
};

/// A movement total after R1, and whether the figure is paralysed by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Total {
    /// The total, never below zero.
    pub total: Mp,
    /// R1: a total at or below zero means the figure cannot move at all.
    pub paralysed: bool,
}

/// R1: every percentage modifier first (each multiplies the running total, so a quick step
/// of +25% and shackles of -50% leave a 40-ft dwarf 25 ft), then every flat modifier.
pub fn percent_then_flat(base: Mp, percents: &[Frac], flats: &[Mp]) -> Total {
    let mut t = base;
    for p in percents {
        t = t.scale(Frac::new(p.den + p.num, p.den));
    }
    let t = t + flats.iter().copied().sum::<Mp>();
    Total {
        total: t.max(Mp::ZERO),
        paralysed: t <= Mp::ZERO,
    }
}

/// R1 with a figure's named conditions looked up in the ruleset.
pub fn with_conditions<'a>(
    rules: &Ruleset,
    base: Mp,
    conditions: impl IntoIterator<Item = &'a Condition>,
) -> Total {
    let mut percents = Vec::new();
    let mut flats = Vec::new();
    for c in conditions {
        percents.extend(c.percent);
        flats.extend(c.feet.map(|f| rules.feet(f)));
        flats.extend(c.cells);
    }
    percent_then_flat(base, &percents, &flats)
}

/// The allowance of one half-move: the rate times the gait multiplier (H2), through R1, and
/// halved when the ruleset's rates are per turn (D4). `None` when the ruleset has no such gait.
pub fn half_move_allowance<'a>(
    rules: &Ruleset,
    rate: Mp,
    gait: Gait,
    conditions: impl IntoIterator<Item = &'a Condition>,
) -> Option<Total> {
    let mult = rules.gait_multiplier(gait)?;
    let t = with_conditions(rules, rate.scale(mult), conditions);
    Some(match rules.rate_per {
        RatePer::Turn => Total {
            total: t.total.scale(Frac::new(1, 2)),
            ..t
        },
        RatePer::HalfMove => t,
    })
}

/// What an activity costs, of a half-move allowance `basis`, for a figure whose species rate
/// (per half-move) is `species` (D15, R2). `HalveAllowance` and unknown activities return
/// `None`: the caller halves the basis (D15 "fired first") or refuses.
pub fn activity_cost(
    rules: &Ruleset,
    activity: Activity,
    basis: Mp,
    species: Mp,
    enc: Encumbrance,
) -> Option<Mp> {
    Some(match rules.activities.get(&activity)? {
        Penalty::Allowance(f) => basis.scale(*f),
        Penalty::ByEncumbrance {
            none,
            partial,
            full,
        } => basis.scale(match enc {
            Encumbrance::None => *none,
            Encumbrance::Partial => *partial,
            Encumbrance::Full => *full,
        }),
        Penalty::Species(f) => species.scale(*f),
        Penalty::Feet(ft) => rules.feet(*ft),
        Penalty::Free => Mp::ZERO,
        Penalty::HalveAllowance => return None,
    })
}

/// (Dis)mounting outside ASL: D15 takes a fraction of the rider's half-move allowance by
/// encumbrance; R2 a percentage of the rider's *species* rate by steed size (so a quick-step
/// dwarf still pays 20 ft). `None` for ASL, which uses [`super::asl`].
pub fn mount_cost(
    rules: &Ruleset,
    basis: Mp,
    species: Mp,
    enc: Encumbrance,
    steed: SteedSize,
) -> Option<Mp> {
    match &rules.mounting {
        MountRule::ByEncumbrance {
            none,
            partial,
            full,
        } => Some(basis.scale(match enc {
            Encumbrance::None => *none,
            Encumbrance::Partial => *partial,
            Encumbrance::Full => *full,
        })),
        MountRule::BySteedSize { large, huge } => Some(species.scale(match steed {
            SteedSize::Large => *large,
            SteedSize::Huge => *huge,
        })),
        MountRule::Asl => None,
    }
}

/// House rule for carrying movement across a (dis)mount: the figure keeps the same share of
/// its new allowance as it had left of the old one (`left / basis`), so riding half the
/// horse's move leaves half the rider's foot move, and vice versa. ASL uses A4 instead.
pub fn carry_share(left: Mp, basis: Mp, new_basis: Mp) -> Mp {
    if basis <= Mp::ZERO {
        return Mp::ZERO;
    }
    new_basis.mul_ratio(left.raw(), basis.raw())
}
