//! ASL chapter 13 beyond movement (seed 001): stacking (A2), horse capacity and splitting
//! (A5), entering enemy hexes (A8), fire by and at cavalry on the house fire table (A11, A12,
//! A14), bailing out and bolting (A13), the Charge (A16), the Cavalry Wave (A17) and led,
//! captured horses (A18). (Dis)mounting (A4) is in [`super::asl`].
//!
//! *Our reading of unit sizes* (written in `docs/rules.md`): a template marked `hero` is a
//! single-man counter (SMC, a leader); any other personnel counter is a multi-man counter
//! whose size in half-squads is its `body` (a squad 2, a half-squad or crew 1). A horse
//! counter shows as many horses as its `body` (1 to 3).

use super::cavalry::AslFire;
use super::mp::Mp;
use serde::Serialize;

/// What ASL counts a personnel unit as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum UnitSize {
    /// A single-man counter (leader, hero).
    Smc,
    /// A multi-man counter of this many half-squad equivalents (squad 2, HS or crew 1).
    Mmc(u8),
}

impl UnitSize {
    /// The size of a template: `hero` makes an SMC, otherwise `body` half-squads.
    pub fn of(hero: bool, body: u16) -> UnitSize {
        if hero {
            UnitSize::Smc
        } else {
            UnitSize::Mmc(body.clamp(1, 2) as u8)
        }
    }

    /// Size in SMC equivalents for leading horses (A18): SMC 1, HS 2, squad 4.
    pub fn lead_units(self) -> u32 {
        match self {
            UnitSize::Smc => 1,
            UnitSize::Mmc(n) => 2 * n as u32,
        }
    }
}

/// A2: Cavalry stacks as Infantry — at most three squad equivalents (six half-squads) and four
/// SMC in a hex; riderless horses never count.
pub fn stacking_ok(units: &[UnitSize]) -> Result<(), String> {
    let hs: u32 = units
        .iter()
        .map(|u| match u {
            UnitSize::Mmc(n) => *n as u32,
            UnitSize::Smc => 0,
        })
        .sum();
    let smc = units.iter().filter(|u| **u == UnitSize::Smc).count();
    if hs > STACK_HALF_SQUADS {
        return Err(format!(
            "A2: at most three squad equivalents stack in a hex; this would be {}",
            hs as f64 / 2.0
        ));
    }
    if smc > STACK_SMC {
        return Err(format!(
            "A2: at most {STACK_SMC} leaders stack in a hex; this would be {smc}"
        ));
    }
    Ok(())
}

/// A2: three squads (six half-squads) per hex …
pub const STACK_HALF_SQUADS: u32 = 6;
/// … and four SMC.
pub const STACK_SMC: usize = 4;

/// What mounting a horse counter takes (A5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Capacity {
    /// It carries the rider as it is.
    Fits,
    /// A half-squad (or crew) on a squad horse counter: it first Deploys into two HS horse
    /// counters of two horses; the rider takes one.
    DeployToHalfSquads,
    /// A leader on a larger horse counter: an SMC horse counter (one horse) is created for him.
    CreateSmcHorse,
}

/// A5: can a horse counter of `horses` horse depictions carry `riders` (already aboard plus
/// the one mounting, which is last)? A three-horse counter carries one squad equivalent plus
/// any SMC; two horses a half-squad plus fewer than four SMC; one horse one or two SMC.
pub fn capacity(horses: u8, riders: &[UnitSize]) -> Result<Capacity, String> {
    let hs: u32 = riders
        .iter()
        .map(|u| match u {
            UnitSize::Mmc(n) => *n as u32,
            UnitSize::Smc => 0,
        })
        .sum();
    let smc = riders.iter().filter(|u| **u == UnitSize::Smc).count();
    let newcomer = riders.last().copied();
    let alone = riders.len() == 1;
    match horses {
        3.. => {
            if alone && newcomer == Some(UnitSize::Mmc(1)) {
                return Ok(Capacity::DeployToHalfSquads);
            }
            if alone && newcomer == Some(UnitSize::Smc) {
                return Ok(Capacity::CreateSmcHorse);
            }
            if hs <= 2 {
                Ok(Capacity::Fits)
            } else {
                Err("A5: a squad horse counter carries one squad equivalent plus leaders".into())
            }
        }
        2 => {
            if alone && newcomer == Some(UnitSize::Smc) {
                return Ok(Capacity::CreateSmcHorse);
            }
            if hs <= 1 && smc < 4 {
                Ok(Capacity::Fits)
            } else {
                Err(
                    "A5: a half-squad horse counter carries a half-squad and fewer than four leaders"
                        .into(),
                )
            }
        }
        _ => {
            if hs == 0 && (1..=2).contains(&smc) {
                Ok(Capacity::Fits)
            } else {
                Err("A5: a single horse carries just one or two leaders".into())
            }
        }
    }
}

/// What an enemy unit in a hex is, for A8.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EnemyState {
    /// It has no weapon.
    pub unarmed: bool,
    /// Disrupted.
    pub disrupted: bool,
    /// Concealed.
    pub concealed: bool,
}

/// A8: Cavalry may move into an enemy-held hex only if every enemy there is unarmed, disrupted
/// or concealed — or by Charging (A16).
pub fn may_enter_enemy_hex(enemies: &[EnemyState], charging: bool) -> Result<(), String> {
    if charging
        || enemies
            .iter()
            .all(|e| e.unarmed || e.disrupted || e.concealed)
    {
        Ok(())
    } else {
        Err("A8: cavalry may enter an enemy-held hex only by a Charge, unless every enemy there is unarmed, disrupted or concealed".into())
    }
}

/// One fire attack on the house table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shot {
    /// The firer's printed firepower.
    pub fp: i32,
    /// Range in hexes (0 = same hex).
    pub range: i32,
    /// The firer is mounted (A11).
    pub mounted: bool,
    /// Close combat or a Charge: no halving, no CX penalty (A11, A16).
    pub charge_or_cc: bool,
    /// The firer's horse is exhausted.
    pub cx: bool,
    /// The target is Cavalry (A12).
    pub at_cavalry: bool,
    /// The target moves in the open (FFMO).
    pub ffmo: bool,
}

/// What a fire attack does to its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum FireResult {
    /// Nothing lasting (pinned at most).
    None,
    /// It breaks (A13 for Cavalry).
    Broken,
    /// Casualty Reduction.
    Reduced,
    /// Eliminated.
    Eliminated,
}

/// The firepower an attack uses after point blank (adjacent ×2, same hex ×3) and mounted
/// fire (A11: halved, rounded down, except in close combat or a Charge).
pub fn effective_fp(t: &AslFire, s: &Shot) -> i32 {
    let mut fp = s.fp
        * match s.range {
            0 => t.triple_point_blank,
            1 => t.point_blank,
            _ => 1,
        };
    if s.mounted && !s.charge_or_cc {
        fp /= t.mounted_fire_divisor.max(1);
    }
    fp
}

/// The chance of an effect against the personnel, with its named parts (A11, A12).
pub fn fire_chance(t: &AslFire, s: &Shot) -> (i32, Vec<(String, i32)>) {
    let fp = effective_fp(t, s);
    let mut parts = vec![
        ("base".to_string(), t.base),
        (format!("{fp} FP x {}", t.per_fp), fp * t.per_fp),
    ];
    // A12: the cavalry bonus is not cumulative with FFMO: the larger applies.
    let vuln = if s.at_cavalry { t.vs_cavalry } else { 0 };
    let open = if s.ffmo { t.ffmo } else { 0 };
    if vuln >= open && vuln > 0 {
        parts.push(("against cavalry (A12)".into(), vuln));
    } else if open > 0 {
        parts.push(("moving in the open (FFMO)".into(), open));
    }
    if s.cx && !s.charge_or_cc {
        parts.push(("firer's horse exhausted (CX)".into(), t.cx_attacker));
    }
    if fp == 0 {
        return (0, vec![("no firepower".into(), 0)]);
    }
    let chance: i32 = parts.iter().map(|p| p.1).sum();
    (chance.clamp(t.min, t.max), parts)
}

/// Reads a d100 against a chance on the personnel line.
pub fn fire_result(t: &AslFire, chance: i32, d100: u32) -> FireResult {
    let r = d100 as i32;
    if chance <= 0 || r > chance {
        FireResult::None
    } else if r * 100 <= chance * t.eliminate {
        FireResult::Eliminated
    } else if r * 100 <= chance * t.reduce {
        FireResult::Reduced
    } else if r * 100 <= chance * t.break_ {
        FireResult::Broken
    } else {
        FireResult::None
    }
}

/// A14: the chance on the horses' own line — no A12 bonus, no FFMO.
pub fn horse_chance(t: &AslFire, s: &Shot) -> i32 {
    let fp = effective_fp(t, s);
    if fp == 0 {
        return 0;
    }
    (t.horse_base + fp * t.horse_per_fp).clamp(t.min, t.max)
}

/// What fire does to the horses (A14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum HorseResult {
    /// Unharmed.
    None,
    /// One horse counter reduced (a horse lost); its rider may have to bail out.
    Reduced,
    /// The horses are eliminated; the riders bail out (A13).
    Killed,
}

/// Reads a d100 against the horse chance (A14).
pub fn horse_result(t: &AslFire, chance: i32, d100: u32) -> HorseResult {
    let r = d100 as i32;
    if chance <= 0 || r > chance {
        HorseResult::None
    } else if r * 100 <= chance * t.horse_kill {
        HorseResult::Killed
    } else if r * 100 <= chance * t.horse_reduce {
        HorseResult::Reduced
    } else {
        HorseResult::None
    }
}

/// A13: horses have no morale; when its rider breaks the unit bails out and the horse bolts
/// (removed) — unless other riders on it stay mounted (then a counter just large enough for
/// them remains). Returns whether the horse is removed.
pub fn horse_bolts(other_riders_unbroken: usize) -> bool {
    other_riders_unbroken == 0
}

/// A16: minimum range of a Charge.
pub const CHARGE_MIN_RANGE: i32 = 3;
/// A16: MF paid on entering the target hex.
pub const CHARGE_MF: i64 = 3;

/// A16: may a unit Charge a hex `range` away? It needs a known enemy, a line of sight, range
/// of at least 3, a Gallop (declared now if need be, so not while CX), and a hex it may gallop
/// into.
pub fn charge_ok(
    range: i32,
    sight: Result<(), String>,
    galloping: bool,
    cx: bool,
    may_gallop_into: bool,
) -> Result<(), String> {
    sight.map_err(|e| format!("A16: {e}"))?;
    if range < CHARGE_MIN_RANGE {
        return Err(format!(
            "A16: a Charge is declared at a range of at least {CHARGE_MIN_RANGE} hexes; the target is {range}"
        ));
    }
    if !galloping && cx {
        return Err(
            "A16: a Charge needs a Gallop, and an exhausted (CX) horse cannot declare one (A10)"
                .into(),
        );
    }
    if !may_gallop_into {
        return Err("A16: the unit must be able to Gallop into the target hex (A10)".into());
    }
    Ok(())
}

/// One unit proposed for a Cavalry Wave (A17).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaveUnit {
    /// Its hex.
    pub hex: super::grid::Cell,
    /// Its size.
    pub size: UnitSize,
    /// Mounted.
    pub mounted: bool,
    /// Nearest enemy in hexes.
    pub nearest_enemy: i32,
    /// Within 16 MF of an enemy it has a line of sight to.
    pub near_seen_enemy: bool,
    /// Its horse may Gallop now (not CX, not in marsh or water).
    pub can_gallop: bool,
}

/// A17: at least a squad equivalent of Cavalry in every hex of a connected chain (a leader's
/// own hex excepted, see below), none within three hexes of an enemy, one within 16 MF of an enemy in sight, all able to Gallop, an
/// average of at most one MMC a hex, at least one leader (the Charge it must make is checked
/// by the order).
pub fn cavalry_wave_ok(grid: super::grid::GridKind, units: &[WaveUnit]) -> Result<(), String> {
    if units.len() < 2 {
        return Err("A17: a Cavalry Wave is a chain of at least two hexes of cavalry".into());
    }
    if let Some(u) = units.iter().find(|u| !u.mounted) {
        return Err(format!(
            "A17: every unit of the wave is Cavalry ({} is not mounted)",
            u.hex
        ));
    }
    let mut hexes: Vec<super::grid::Cell> = units.iter().map(|u| u.hex).collect();
    hexes.sort();
    hexes.dedup();
    for h in &hexes {
        let here: Vec<&WaveUnit> = units.iter().filter(|u| u.hex == *h).collect();
        let hs: u32 = here
            .iter()
            .map(|u| match u.size {
                UnitSize::Mmc(n) => n as u32,
                UnitSize::Smc => 0,
            })
            .sum();
        // Our reading: the map holds one unit a hex (D10a), so a leader rides in a hex of his
        // own; only hexes with multi-man counters need a squad equivalent.
        let leaders_only = here.iter().all(|u| u.size == UnitSize::Smc);
        if hs < 2 && !leaders_only {
            return Err(format!(
                "A17: every hex of the chain needs at least a squad equivalent of cavalry ({h} has not)"
            ));
        }
    }
    // The chain: every hex joined to the first through adjacent hexes of the wave.
    let mut seen = vec![hexes[0]];
    let mut i = 0;
    while i < seen.len() {
        let c = seen[i];
        for h in &hexes {
            if !seen.contains(h) && grid.distance(c, *h) == 1 {
                seen.push(*h);
            }
        }
        i += 1;
    }
    if seen.len() != hexes.len() {
        return Err("A17: the wave's hexes must form one connected chain".into());
    }
    if let Some(u) = units.iter().find(|u| u.nearest_enemy <= 3) {
        return Err(format!(
            "A17: no unit of the wave may be within three hexes of an enemy ({} is {} away)",
            u.hex, u.nearest_enemy
        ));
    }
    if !units.iter().any(|u| u.near_seen_enemy) {
        return Err("A17: at least one unit must be within 16 MF of an enemy it can see".into());
    }
    if let Some(u) = units.iter().find(|u| !u.can_gallop) {
        return Err(format!(
            "A17: every unit must Gallop at once ({} cannot)",
            u.hex
        ));
    }
    let mmc = units
        .iter()
        .filter(|u| matches!(u.size, UnitSize::Mmc(_)))
        .count();
    if mmc > hexes.len() {
        return Err("A17: at most one multi-man counter per hex of the chain on average".into());
    }
    if !units.iter().any(|u| u.size == UnitSize::Smc) {
        return Err("A17: at least one leader must take part".into());
    }
    Ok(())
}

/// A17's "within 16 MF": the Movement Factors a Cavalry Wave's enemy may be away at most.
pub const WAVE_MF: Mp = Mp::cells(16);

/// A17 (seed 001, 13.62: "at least one unit in the chain must be within 16 MF of and have a
/// LOS to an enemy unit"): the fewest MF a cavalry unit at `from` spends to enter `to`, each
/// hex on the way (and `to` itself) at its cavalry cost (the terrain chart's cavalry column,
/// `mounted_cost`), or `None` when `to` is beyond `limit` MF or cannot be reached. Units on
/// the way are not counted: the MF measure the ground, not a move.
pub fn cavalry_mf_to(
    board: &super::board::Board,
    from: super::grid::Cell,
    to: super::grid::Cell,
    limit: Mp,
) -> Option<Mp> {
    use std::cmp::Reverse;
    use std::collections::{BinaryHeap, HashMap};
    let mut best: HashMap<super::grid::Cell, Mp> = HashMap::from([(from, Mp::ZERO)]);
    let mut queue = BinaryHeap::from([(Reverse(Mp::ZERO), from)]);
    while let Some((Reverse(cost), at)) = queue.pop() {
        if at == to {
            return Some(cost);
        }
        if best.get(&at).is_some_and(|&b| b < cost) {
            continue;
        }
        for (_, next) in board.grid.neighbours(at) {
            if !board.contains(next) {
                continue;
            }
            let Some(step) = board.terrain_at(next).multiplier(true) else {
                continue;
            };
            let c = cost + step;
            if c > limit || best.get(&next).is_some_and(|&b| b <= c) {
                continue;
            }
            best.insert(next, c);
            queue.push((Reverse(c), next));
        }
    }
    None
}

/// A18: the horse counters a unit can lead: three times its own size (an SMC three SMC
/// horses; a half-squad a squad horse counter plus a half-squad one). Horse counters count
/// as SMC 1, HS 2, squad 4 by their horses (1, 2, 3).
pub fn may_lead(leader: UnitSize, led_horses: &[u8]) -> Result<(), String> {
    let load: u32 = led_horses
        .iter()
        .map(|h| match h {
            0 | 1 => 1,
            2 => 2,
            _ => 4,
        })
        .sum();
    let cap = 3 * leader.lead_units();
    if load <= cap {
        Ok(())
    } else {
        Err(format!(
            "A18: a unit leads horse counters up to three times its own size ({cap} SMC \
             equivalents); these would be {load}"
        ))
    }
}

#[cfg(test)]
#[path = "asl_cavalry_tests.rs"]
mod tests;
