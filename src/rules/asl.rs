//! ASL 13.31 (A4): the price of (dis)mounting, paid by both the infantry and the horse.
//!
//! Our reading, which makes both worked examples of the seed come out exactly (and is written
//! in `docs/rules.md`):
//! - the unit pays 1 MF of its 4-MF infantry allotment to (dis)mount;
//! - it also *loses* 1 MF for every 25% (or part of 25%) of the horse's current allotment that
//!   the horse has expended this MPh;
//! - the horse loses 25% of its current allotment for every infantry MF the unit expended this
//!   MPh before and during this (dis)mount, not counting MF already charged to the horse by an
//!   earlier (dis)mount in the same MPh; a horse that cannot lose that much refuses.

use super::mp::{Frac, Mp};
use std::fmt;

/// The infantry side of an ASL unit in one MPh.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct InfantryMf {
    /// Basic allotment (4 MF).
    pub allot: Mp,
    /// MF expended this MPh.
    pub spent: Mp,
    /// MF lost (not expended) this MPh.
    pub lost: Mp,
    /// Expended MF already charged to a horse this MPh.
    pub charged: Mp,
}

impl InfantryMf {
    /// MF still available.
    pub fn left(&self) -> Mp {
        self.allot - self.spent - self.lost
    }
}

/// The horse side in one MPh.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct HorseMf {
    /// Current allotment: 12, 16 or 20 MF (A7, A10).
    pub allot: Mp,
    /// MF expended (ridden or led) this MPh.
    pub used: Mp,
    /// MF lost to (dis)mounting this MPh.
    pub lost: Mp,
}

impl HorseMf {
    /// MF still available.
    pub fn left(&self) -> Mp {
        self.allot - self.used - self.lost
    }
}

/// Why a (dis)mount is refused (A4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AslRefusal {
    /// The infantry cannot pay 1 MF plus what it loses.
    Infantry {
        /// MF the (dis)mount would take.
        needs: Mp,
        /// MF left.
        left: Mp,
    },
    /// The horse cannot lose what the (dis)mount takes from it.
    Horse {
        /// MF it would lose.
        loses: Mp,
        /// MF it has left.
        left: Mp,
    },
}

impl fmt::Display for AslRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AslRefusal::Infantry { needs, left } => write!(
                f,
                "A4: (dis)mounting takes {needs} MF of the infantry's allotment (1 MF plus 1 per \
                 25% of the horse's allotment it has used); only {left} MF left"
            ),
            AslRefusal::Horse { loses, left } => write!(
                f,
                "A4: the horse would lose {loses} MF (25% of its allotment per infantry MF \
                 expended); it has only {left} MF left"
            ),
        }
    }
}

/// What a (dis)mount costs each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AslMountCost {
    /// Infantry MF expended (1).
    pub infantry_spent: Mp,
    /// Infantry MF lost.
    pub infantry_lost: Mp,
    /// Horse MF lost.
    pub horse_lost: Mp,
}

/// A4: checks and prices a (dis)mount. `mount_mf` is the 1 MF the act itself costs.
pub fn mount_or_dismount(
    inf: &InfantryMf,
    horse: &HorseMf,
    mount_mf: Mp,
) -> Result<AslMountCost, AslRefusal> {
    let quarter = horse.allot.scale(Frac::new(1, 4));
    let quarters_used = if quarter > Mp::ZERO {
        (horse.used.raw() + quarter.raw() - 1) / quarter.raw()
    } else {
        0
    };
    let infantry_lost = Mp::ONE * quarters_used;
    let needs = mount_mf + infantry_lost;
    if needs > inf.left() {
        return Err(AslRefusal::Infantry {
            needs,
            left: inf.left(),
        });
    }
    let uncharged = inf.spent + mount_mf - inf.charged;
    let horse_lost = quarter.mul_ratio(uncharged.raw(), Mp::ONE.raw());
    if horse_lost > horse.left() {
        return Err(AslRefusal::Horse {
            loses: horse_lost,
            left: horse.left(),
        });
    }
    Ok(AslMountCost {
        infantry_spent: mount_mf,
        infantry_lost,
        horse_lost,
    })
}

/// Applies a priced (dis)mount to both sides.
pub fn pay(inf: &mut InfantryMf, horse: &mut HorseMf, c: &AslMountCost) {
    inf.spent += c.infantry_spent;
    inf.lost += c.infantry_lost;
    inf.charged = inf.spent;
    horse.lost += c.horse_lost;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mf(n: i64) -> Mp {
        Mp::cells(n)
    }

    /// 13.31 EX 1: move 1, mount (horse left 6 of 12), Gallop during (16, 10 available), then at
    /// most 4 more MF ridden before a dismount.
    #[test]
    fn a4_first_worked_example() {
        let mut inf = InfantryMf {
            allot: mf(4),
            spent: mf(1),
            ..Default::default()
        };
        let mut horse = HorseMf {
            allot: mf(12),
            ..Default::default()
        };
        let c = mount_or_dismount(&inf, &horse, mf(1)).unwrap();
        pay(&mut inf, &mut horse, &c);
        assert_eq!(horse.left(), mf(6));
        horse.allot += mf(4); // Gallop declared during the MPh (A10)
        assert_eq!(horse.left(), mf(10));
        for ridden in 1..=4 {
            let h = HorseMf {
                used: mf(ridden),
                ..horse
            };
            assert!(
                mount_or_dismount(&inf, &h, mf(1)).is_ok(),
                "{ridden} MF ridden"
            );
        }
        let h = HorseMf {
            used: mf(5),
            ..horse
        };
        assert!(matches!(
            mount_or_dismount(&inf, &h, mf(1)),
            Err(AslRefusal::Infantry { .. })
        ));
    }

    /// 13.31 EX 2: Gallop at the start (20 MF): at most 15 Cavalry MF before a dismount, the
    /// horse losing 5.
    #[test]
    fn a4_second_worked_example() {
        let inf = InfantryMf {
            allot: mf(4),
            ..Default::default()
        };
        let horse = HorseMf {
            allot: mf(20),
            used: mf(15),
            ..Default::default()
        };
        let c = mount_or_dismount(&inf, &horse, mf(1)).unwrap();
        assert_eq!(c.horse_lost, mf(5));
        let horse = HorseMf {
            used: mf(16),
            ..horse
        };
        assert!(mount_or_dismount(&inf, &horse, mf(1)).is_err());
    }
}
