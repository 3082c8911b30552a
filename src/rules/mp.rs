//! Exact movement points.
//!
//! Every cost in Warhorse — a fifth of a half-move (D14), a quarter for a body bash (D17), a
//! canter of 2½× the walk (H2), ten feet out of a realms hex (R2) — must add up without drift,
//! so movement is counted in integer sub-units of a cell. [`SCALE`] is divisible by every
//! denominator the rules produce (2⁶·3²·5²·7), which makes every rule fraction exact while the
//! reachable-area search still works on plain integers.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// Sub-units per cell. Highly composite so that 1/2, 1/3, 1/4, 1/5, 1/8, 1/16, 1/25 … of any
/// integer or half-integer allowance stays an integer.
pub const SCALE: i64 = 64 * 9 * 25 * 7;

/// An exact amount of movement, in cells (squares, hexes or MF depending on the ruleset).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mp(i64);

impl Mp {
    /// Nothing spent, nothing left.
    pub const ZERO: Mp = Mp(0);
    /// One cell of movement.
    pub const ONE: Mp = Mp(SCALE);

    /// A whole number of cells.
    pub const fn cells(n: i64) -> Mp {
        Mp(n * SCALE)
    }

    /// `num/den` cells. Returns `None` when the fraction is not representable exactly.
    pub fn ratio(num: i64, den: i64) -> Option<Mp> {
        if den == 0 {
            return None;
        }
        let scaled = num.checked_mul(SCALE)?;
        (scaled % den == 0).then(|| Mp(scaled / den))
    }

    /// The raw sub-unit count (for hashing, search buckets and benchmarks).
    pub const fn raw(self) -> i64 {
        self.0
    }

    /// Builds from raw sub-units.
    pub const fn from_raw(raw: i64) -> Mp {
        Mp(raw)
    }

    /// `self × num/den`, rounded up to the next sub-unit if it is not exact. Rounding up keeps a
    /// cost from ever being under-charged; with [`SCALE`] no rule of the three rulesets rounds.
    pub fn mul_ratio(self, num: i64, den: i64) -> Mp {
        let p = self.0 as i128 * num as i128;
        let d = den as i128;
        let q = p.div_euclid(d) + i128::from(p.rem_euclid(d) != 0);
        Mp(q as i64)
    }

    /// `self × r` for an exact rule fraction.
    pub fn scale(self, r: Frac) -> Mp {
        self.mul_ratio(r.num, r.den)
    }

    /// True when the amount is a whole number of cells.
    pub fn is_whole(self) -> bool {
        self.0 % SCALE == 0
    }

    /// Whole cells, rounded down (used for search-window bounds, never for costs).
    pub fn floor_cells(self) -> i64 {
        self.0.div_euclid(SCALE)
    }

    /// The larger of two amounts.
    pub fn max(self, other: Mp) -> Mp {
        if self >= other { self } else { other }
    }

    /// The smaller of two amounts.
    pub fn min(self, other: Mp) -> Mp {
        if self <= other { self } else { other }
    }

    /// Reduced `(numerator, denominator)` in cells.
    pub fn as_fraction(self) -> (i64, i64) {
        let g = gcd(self.0.abs(), SCALE).max(1);
        (self.0 / g, SCALE / g)
    }
}

fn gcd(mut a: i64, mut b: i64) -> i64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl fmt::Display for Mp {
    /// Whole cells print as `7`, fractions as `27/2`, so logs and JSON stay exact.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_fraction() {
            (n, 1) => write!(f, "{n}"),
            (n, d) => write!(f, "{n}/{d}"),
        }
    }
}

impl std::str::FromStr for Mp {
    type Err = String;
    /// Parses `7`, `-2`, `27/2` or `2 1/2`.
    fn from_str(s: &str) -> Result<Mp, String> {
        Frac::from_str(s).and_then(|r| {
            Mp::ratio(r.num, r.den).ok_or_else(|| format!("{s} is not an exact movement amount"))
        })
    }
}

impl Add for Mp {
    type Output = Mp;
    fn add(self, o: Mp) -> Mp {
        Mp(self.0 + o.0)
    }
}
impl Sub for Mp {
    type Output = Mp;
    fn sub(self, o: Mp) -> Mp {
        Mp(self.0 - o.0)
    }
}
impl AddAssign for Mp {
    fn add_assign(&mut self, o: Mp) {
        self.0 += o.0;
    }
}
impl SubAssign for Mp {
    fn sub_assign(&mut self, o: Mp) {
        self.0 -= o.0;
    }
}
impl Neg for Mp {
    type Output = Mp;
    fn neg(self) -> Mp {
        Mp(-self.0)
    }
}
impl Mul<i64> for Mp {
    type Output = Mp;
    fn mul(self, k: i64) -> Mp {
        Mp(self.0 * k)
    }
}
impl std::iter::Sum for Mp {
    fn sum<I: Iterator<Item = Mp>>(iter: I) -> Mp {
        iter.fold(Mp::ZERO, |a, b| a + b)
    }
}

impl Serialize for Mp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.as_fraction() {
            (n, 1) => s.serialize_i64(n),
            _ => s.serialize_str(&self.to_string()),
        }
    }
}

impl<'de> Deserialize<'de> for Mp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Mp, D::Error> {
        let r = Frac::deserialize(d)?;
        Mp::ratio(r.num, r.den)
            .ok_or_else(|| serde::de::Error::custom(format!("{r} is not an exact movement amount")))
    }
}

/// An exact rule fraction: a gait multiplier (5/2), a turning fraction (1/5), a percentage
/// modifier (-50% = -1/2). Written in data files as an integer or a `"num/den"` string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Frac {
    /// Numerator (sign lives here).
    pub num: i64,
    /// Denominator, always positive.
    pub den: i64,
}

impl Frac {
    /// `num/den`, normalised so the denominator is positive and the fraction reduced.
    pub const fn new(num: i64, den: i64) -> Frac {
        let (mut n, mut d) = if den < 0 { (-num, -den) } else { (num, den) };
        let mut a = if n < 0 { -n } else { n };
        let mut b = d;
        while b != 0 {
            let t = a % b;
            a = b;
            b = t;
        }
        if a > 1 {
            n /= a;
            d /= a;
        }
        Frac { num: n, den: d }
    }
    /// A whole number.
    pub const fn int(n: i64) -> Frac {
        Frac { num: n, den: 1 }
    }
    /// `p` percent.
    pub const fn percent(p: i64) -> Frac {
        Frac::new(p, 100)
    }
    /// Product of two fractions.
    pub const fn times(self, o: Frac) -> Frac {
        Frac::new(self.num * o.num, self.den * o.den)
    }
}

impl fmt::Display for Frac {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

impl std::str::FromStr for Frac {
    type Err = String;
    fn from_str(s: &str) -> Result<Frac, String> {
        let s = s.trim();
        let bad = || format!("expected a number like 7, 27/2 or 2 1/2, found {s:?}");
        // i64::MIN is refused so that normalising a sign can never overflow.
        let parse = |t: &str| {
            t.trim()
                .parse::<i64>()
                .ok()
                .filter(|&n| n != i64::MIN)
                .ok_or_else(bad)
        };
        if let Some((whole, frac)) = s.split_once(' ') {
            // "2 1/2": the fractional part is a plain n/d (no recursion on the rest).
            let w = parse(whole)?;
            let (n, d) = frac.split_once('/').ok_or_else(bad)?;
            let (n, d) = (parse(n)?, parse(d)?);
            if n < 0 || d <= 0 {
                return Err(bad());
            }
            let sign = if w < 0 { -1 } else { 1 };
            let num = w
                .checked_mul(d)
                .and_then(|x| x.checked_add(sign * n))
                .filter(|&x| x != i64::MIN)
                .ok_or_else(bad)?;
            return Ok(Frac::new(num, d));
        }
        match s.split_once('/') {
            Some((n, d)) => {
                let d = parse(d)?;
                if d == 0 {
                    return Err(bad());
                }
                Ok(Frac::new(parse(n)?, d))
            }
            None => Ok(Frac::int(parse(s)?)),
        }
    }
}

impl Serialize for Frac {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.den == 1 {
            s.serialize_i64(self.num)
        } else {
            s.serialize_str(&self.to_string())
        }
    }
}

impl<'de> Deserialize<'de> for Frac {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Frac, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Int(i64),
            Text(String),
        }
        match Raw::deserialize(d)? {
            Raw::Int(n) => Ok(Frac::int(n)),
            Raw::Text(t) => t.parse().map_err(serde::de::Error::custom),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_fractions_are_exact() {
        // D14 turning fractions of a canter half-move (Destrier 7 × 5/2 / 2 = 35/4).
        let half = Mp::cells(7).scale(Frac::new(5, 2)).scale(Frac::new(1, 2));
        assert_eq!(half.to_string(), "35/4");
        for den in [2, 3, 4, 5, 8, 16, 20, 25, 100] {
            let part = half.mul_ratio(1, den);
            assert_eq!(part * den, half, "1/{den} of 35/4 must be exact");
        }
    }

    #[test]
    fn parses_and_prints() {
        assert_eq!("27/2".parse::<Mp>().unwrap(), Mp::ratio(27, 2).unwrap());
        assert_eq!("2 1/2".parse::<Mp>().unwrap(), Mp::ratio(5, 2).unwrap());
        assert_eq!(Mp::cells(3).to_string(), "3");
        assert!("x".parse::<Mp>().is_err());
        assert!("1/0".parse::<Frac>().is_err());
        assert_eq!(Frac::new(-50, 100), Frac::new(-1, 2));
    }

    #[test]
    fn mul_ratio_rounds_up_only_when_inexact() {
        assert_eq!(Mp::from_raw(10).mul_ratio(1, 3), Mp::from_raw(4));
        assert_eq!(Mp::from_raw(9).mul_ratio(1, 3), Mp::from_raw(3));
    }
}
