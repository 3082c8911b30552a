//! The cavalry supplement (seed 004, K2–K4), the horse TAC cards by speed (C8) as a list for
//! the card code, and the cavalry house tables (`data/cavalry.ron`).
//!
//! K1 (two gallop turns, then a walk) lives with the gaits in [`super::gait`].

use super::gait::Gait;
use super::grid::{Cell, Dir, GridKind};
use super::mp::{Frac, Mp};
use super::ruleset::TroopType;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The ASL fire house table (A11, A12, A14, A16): see `data/cavalry.ron`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AslFire {
    /// Chance of an effect before firepower.
    pub base: i32,
    /// Added per point of firepower.
    pub per_fp: i32,
    /// Lowest chance.
    pub min: i32,
    /// Highest chance.
    pub max: i32,
    /// Percent of the chance at or under which the target is eliminated.
    pub eliminate: i32,
    /// … suffers Casualty Reduction.
    pub reduce: i32,
    /// … breaks.
    pub break_: i32,
    /// Firepower multiplier at point blank (adjacent).
    pub point_blank: i32,
    /// … at triple point blank (same hex).
    pub triple_point_blank: i32,
    /// A11: mounted fire divides firepower by this.
    pub mounted_fire_divisor: i32,
    /// A12: against Cavalry.
    pub vs_cavalry: i32,
    /// FFMO, not cumulative with A12.
    pub ffmo: i32,
    /// An exhausted (CX) attacker.
    pub cx_attacker: i32,
    /// A14: the horse line's base chance.
    pub horse_base: i32,
    /// A14: per firepower point.
    pub horse_per_fp: i32,
    /// A14: percent of the horse chance that eliminates the horses.
    pub horse_kill: i32,
    /// A14: percent of the horse chance that reduces the horse counter.
    pub horse_reduce: i32,
}

/// `data/cavalry.ron`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Cavalry")]
pub struct CavalryTables {
    /// K2: one melee die point in percent.
    pub melee_die_step: i32,
    /// K3: short, medium and long bands as fractions of a weapon's range.
    pub range_bands: Vec<Frac>,
    /// K3: hit modifier per band.
    pub band_modifiers: Vec<i32>,
    /// The ASL fire table.
    pub asl_fire: AslFire,
    /// ASL firepower by template.
    pub firepower: BTreeMap<String, i32>,
}

/// The embedded table file.
pub const CAVALRY_RON: &str = include_str!("../../data/cavalry.ron");

/// The cavalry tables, parsed once. The file is checked by the tests; were it ever broken the
/// game would play with [`CavalryTables::neutral`] rather than stop.
pub fn tables() -> &'static CavalryTables {
    static T: OnceLock<CavalryTables> = OnceLock::new();
    T.get_or_init(|| parse(CAVALRY_RON).unwrap_or_else(|_| CavalryTables::neutral()))
}

/// Parses and checks a cavalry table file.
pub fn parse(src: &str) -> Result<CavalryTables, String> {
    let t: CavalryTables = ron::Options::default()
        .from_str(src)
        .map_err(|e| format!("cavalry.ron:{}: {}", e.span.start, e.code))?;
    if t.range_bands.len() != 3 || t.band_modifiers.len() != 3 {
        return Err(
            "range_bands and band_modifiers have three entries (short, medium, long)".into(),
        );
    }
    if t.range_bands
        .windows(2)
        .any(|w| (w[0].num as i128) * (w[1].den as i128) > (w[1].num as i128) * (w[0].den as i128))
    {
        return Err("range_bands grow from short to long".into());
    }
    Ok(t)
}

impl CavalryTables {
    /// Tables with no effect at all: the fallback for a broken file.
    pub fn neutral() -> CavalryTables {
        CavalryTables {
            melee_die_step: 0,
            range_bands: vec![Frac::new(1, 3), Frac::new(2, 3), Frac::new(1, 1)],
            band_modifiers: vec![0, 0, 0],
            asl_fire: AslFire {
                base: 0,
                per_fp: 0,
                min: 0,
                max: 0,
                eliminate: 0,
                reduce: 0,
                break_: 0,
                point_blank: 1,
                triple_point_blank: 1,
                mounted_fire_divisor: 1,
                vs_cavalry: 0,
                ffmo: 0,
                cx_attacker: 0,
                horse_base: 0,
                horse_per_fp: 0,
                horse_kill: 0,
                horse_reduce: 0,
            },
            firepower: BTreeMap::new(),
        }
    }

    /// ASL firepower of a template (0 when not listed).
    pub fn firepower(&self, template: &str) -> i32 {
        self.firepower.get(template).copied().unwrap_or(0)
    }
}

/// K2: the melee die modifier of a horsed figure: mounted infantry −1 while mounted; shock
/// cavalry +1 when charging. In percent on the percentile tables (one point = 10%, data).
pub fn melee_modifier(troop: TroopType, mounted: bool, charging: bool) -> i32 {
    let step = tables().melee_die_step;
    match troop {
        TroopType::MountedInfantry if mounted => -step,
        TroopType::ShockCavalry if mounted && charging => step,
        _ => 0,
    }
}

/// K2: mounted infantry never shoot mounted (nor gallop, see the gaits).
pub fn may_shoot(troop: TroopType, mounted: bool) -> Result<(), String> {
    if troop == TroopType::MountedInfantry && mounted {
        Err("K2: mounted infantry never shoot mounted; dismount first".into())
    } else {
        Ok(())
    }
}

/// K3: is a mounted figure *moving* for its fire arc? *Our reading:* whenever its mount is
/// not at a halt.
pub fn moving(gait: Gait) -> bool {
    gait > Gait::Halt
}

/// K3: may a moving mounted shooter at `from`, heading `facing`, shoot at `to`? Only into its
/// front and left 45° arc: straight ahead through 45° to the left, both edges included.
/// Figures at a halt, or on foot, are not limited by K3.
pub fn in_fire_arc(grid: GridKind, from: Cell, facing: Dir, to: Cell, moving: bool) -> bool {
    if !moving || from == to {
        return true;
    }
    let (ax, ay) = grid.center(from);
    let (hx, hy) = grid.center(grid.neighbour(from, facing));
    let (tx, ty) = grid.center(to);
    let (vx, vy) = (hx - ax, hy - ay);
    let (wx, wy) = (tx - ax, ty - ay);
    // Angle from the heading to the target, anticlockwise positive (y grows downwards).
    let cross = vx * wy - vy * wx;
    let dot = vx * wx + vy * wy;
    let left = -cross.atan2(dot).to_degrees();
    (-1e-6..=45.0 + 1e-6).contains(&left)
}

/// K3: the range band (0 short, 1 medium, 2 long) of a shot over `distance` cells with a
/// weapon of `range` cells; mounted shooters always shoot one band further. `None`: out of
/// range.
pub fn range_band(distance: i32, range: i32, mounted: bool) -> Option<usize> {
    let t = tables();
    let d = Mp::cells(distance as i64);
    let r = Mp::cells(range as i64);
    let band = t.range_bands.iter().position(|&f| d <= r.scale(f))?;
    let band = band + usize::from(mounted);
    (band < t.range_bands.len()).then_some(band)
}

/// K3: the longest distance in whole cells that [`range_band`] puts in a band for a weapon
/// of `range` cells (every shorter one is in a band too), `None` when none is. Worked out
/// from the bands, not by asking [`range_band`] cell by cell (issue 15: every fire phase
/// asks it of every shooter).
pub fn farthest_in_band(range: i32, mounted: bool) -> Option<i32> {
    let t = tables();
    // A mounted shooter's band is one further: the last ones it may use.
    let last = t.range_bands.len().checked_sub(1 + usize::from(mounted))?;
    let r = Mp::cells(range as i64);
    let far = t.range_bands[..=last].iter().map(|&f| r.scale(f)).max()?;
    let cells = far.floor_cells();
    (cells >= 0).then(|| cells.min(i32::MAX as i64) as i32)
}

/// K3: the hit modifier of a band.
pub fn band_modifier(band: usize) -> i32 {
    tables().band_modifiers.get(band).copied().unwrap_or(0)
}

/// Where a hit on a mounted figure falls (K4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum HitOn {
    /// On the horse (1–4 on a d6).
    Horse,
    /// On the rider (5–6).
    Rider,
}

/// K4: a d6 decides whether a hit on a mounted figure falls on the horse (1–4) or the rider
/// (5–6).
pub fn hit_falls_on(d6: u32) -> HitOn {
    if d6 <= 4 { HitOn::Horse } else { HitOn::Rider }
}

/// C8: a charging horse slows one speed category for every contact with a target figure.
pub fn slowed(gait: Gait) -> Gait {
    match gait {
        Gait::Gallop => Gait::Canter,
        Gait::Canter => Gait::Trot,
        Gait::Trot => Gait::Walk,
        g => g,
    }
}

/// C8 turn limit in the melee card rounds for a steed bound to MOVE cards. The seed points to
/// a C&S chart we do not have; *our reading* takes seed 004's cavalry turning rate: 45° per
/// quarter of its movement, per half at a gallop. Returns the degrees it may still turn after
/// moving `moved` of a half-move allowance `basis`.
pub fn melee_turn_limit(gait: Gait, moved: Mp, basis: Mp) -> i32 {
    if basis <= Mp::ZERO {
        return 0;
    }
    let part = if gait == Gait::Gallop {
        basis.scale(Frac::new(1, 2))
    } else {
        basis.scale(Frac::new(1, 4))
    };
    if part <= Mp::ZERO {
        return 0;
    }
    (moved.raw() / part.raw()) as i32 * 45
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::melee::cards::{TacCard, c8_allows};

    #[test]
    fn k3_the_farthest_distance_in_a_band_is_where_range_band_stops() {
        // What `range_band` says cell by cell, from 0 until a distance is in no band.
        for range in 0..40 {
            for mounted in [false, true] {
                let walked = (0..)
                    .take_while(|&d| range_band(d, range, mounted).is_some())
                    .last();
                assert_eq!(
                    farthest_in_band(range, mounted),
                    walked,
                    "{range} {mounted}"
                );
                if let Some(d) = walked {
                    assert!(range_band(d + 1, range, mounted).is_none());
                }
            }
        }
    }

    #[test]
    fn the_table_file_parses() {
        let t = parse(CAVALRY_RON).expect("data/cavalry.ron parses");
        assert_eq!(t.melee_die_step, 10);
        assert_eq!(t.firepower("squad"), 4);
        assert_eq!(t.firepower("nobody"), 0);
        assert!(parse("Cavalry(").is_err());
    }

    #[test]
    fn k2_mounted_infantry_and_shock_cavalry() {
        assert_eq!(melee_modifier(TroopType::MountedInfantry, true, false), -10);
        assert_eq!(melee_modifier(TroopType::MountedInfantry, false, false), 0);
        assert_eq!(melee_modifier(TroopType::ShockCavalry, true, true), 10);
        assert_eq!(melee_modifier(TroopType::ShockCavalry, true, false), 0);
        assert_eq!(melee_modifier(TroopType::ShootingCavalry, true, true), 0);
        assert!(may_shoot(TroopType::MountedInfantry, true).is_err());
        assert!(may_shoot(TroopType::MountedInfantry, false).is_ok());
        assert!(may_shoot(TroopType::ShootingCavalry, true).is_ok());
    }

    #[test]
    fn k3_front_and_left_45_degree_arc() {
        let g = GridKind::Square;
        let at = Cell::new(5, 5);
        let east = Dir(2);
        // Straight ahead and 45° to the left (north-east when heading east) are in the arc.
        assert!(in_fire_arc(g, at, east, Cell::new(9, 5), true));
        assert!(in_fire_arc(g, at, east, Cell::new(8, 2), true));
        assert!(in_fire_arc(g, at, east, Cell::new(9, 3), true));
        // To the right, or further left than 45°, it is not.
        assert!(!in_fire_arc(g, at, east, Cell::new(9, 7), true));
        assert!(!in_fire_arc(g, at, east, Cell::new(6, 1), true));
        assert!(!in_fire_arc(g, at, east, Cell::new(1, 5), true));
        // At a halt the arc does not apply.
        assert!(in_fire_arc(g, at, east, Cell::new(1, 5), false));
        assert!(moving(Gait::Walk) && !moving(Gait::Halt));
    }

    #[test]
    fn k3_one_range_band_further() {
        // A bow of range 24: short to 8, medium to 16, long to 24.
        assert_eq!(range_band(8, 24, false), Some(0));
        assert_eq!(range_band(8, 24, true), Some(1));
        assert_eq!(range_band(16, 24, true), Some(2));
        assert_eq!(range_band(17, 24, true), None);
        assert_eq!(range_band(24, 24, false), Some(2));
        assert_eq!(range_band(25, 24, false), None);
        assert_eq!(band_modifier(2), -20);
    }

    #[test]
    fn k4_horse_on_one_to_four_rider_on_five_six() {
        for d in 1..=4 {
            assert_eq!(hit_falls_on(d), HitOn::Horse);
        }
        for d in 5..=6 {
            assert_eq!(hit_falls_on(d), HitOn::Rider);
        }
    }

    #[test]
    fn c8_cards_by_speed_match_the_card_rules() {
        // C8: stand, walk, trot: STAND GROUND, CLOSE, RETREAT; canter: FLECHE, RETREAT;
        // gallop or charge: CHARGE, RUN AWAY. (Listed in the cards' table order.)
        use TacCard::*;
        let by_speed = |g: Gait| -> Vec<TacCard> {
            TacCard::ALL
                .into_iter()
                .filter(|&c| c8_allows(g, c))
                .collect()
        };
        for g in [Gait::Halt, Gait::Walk, Gait::Trot] {
            assert_eq!(by_speed(g), [Retreat, Close, StandGround], "{g}");
        }
        assert_eq!(by_speed(Gait::Canter), [Retreat, Fleche]);
        assert_eq!(by_speed(Gait::Gallop), [RunAway, Charge]);
        assert_eq!(slowed(Gait::Gallop), Gait::Canter);
        assert_eq!(slowed(Gait::Trot), Gait::Walk);
    }

    #[test]
    fn c8_turn_limit_45_per_quarter_or_half_at_gallop() {
        let b = Mp::cells(8);
        assert_eq!(melee_turn_limit(Gait::Canter, Mp::cells(2), b), 45);
        assert_eq!(melee_turn_limit(Gait::Canter, Mp::cells(8), b), 180);
        assert_eq!(melee_turn_limit(Gait::Gallop, Mp::cells(3), b), 0);
        assert_eq!(melee_turn_limit(Gait::Gallop, Mp::cells(8), b), 90);
    }
}
