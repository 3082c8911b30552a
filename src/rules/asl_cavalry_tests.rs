//! Every number of ASL 13.2–13.7 (A2, A5, A8, A11–A18) that the game plays.

use super::*;
use crate::rules::cavalry::parse;
use crate::rules::grid::{Cell, GridKind};

fn fire() -> AslFire {
    parse(crate::rules::cavalry::CAVALRY_RON)
        .expect("data/cavalry.ron")
        .asl_fire
}

const SQUAD: UnitSize = UnitSize::Mmc(2);
const HS: UnitSize = UnitSize::Mmc(1);
const SMC: UnitSize = UnitSize::Smc;

#[test]
fn sizes_from_templates() {
    assert_eq!(UnitSize::of(true, 1), SMC);
    assert_eq!(UnitSize::of(false, 2), SQUAD);
    assert_eq!(UnitSize::of(false, 1), HS);
}

#[test]
fn a2_stacking_as_infantry() {
    assert!(stacking_ok(&[SQUAD, SQUAD, SQUAD, SMC, SMC, SMC, SMC]).is_ok());
    assert!(stacking_ok(&[SQUAD, SQUAD, SQUAD, HS]).is_err());
    assert!(stacking_ok(&[SMC; 5]).is_err());
    assert_eq!((STACK_HALF_SQUADS, STACK_SMC), (6, 4));
}

#[test]
fn a5_capacity_by_horse_count() {
    // Three horses: a squad plus any number of leaders.
    assert_eq!(capacity(3, &[SQUAD]), Ok(Capacity::Fits));
    assert_eq!(
        capacity(3, &[SQUAD, SMC, SMC, SMC, SMC, SMC]),
        Ok(Capacity::Fits)
    );
    assert!(capacity(3, &[SQUAD, HS]).is_err());
    // Two horses: a half-squad plus fewer than four leaders.
    assert_eq!(capacity(2, &[HS, SMC, SMC, SMC]), Ok(Capacity::Fits));
    assert!(capacity(2, &[HS, SMC, SMC, SMC, SMC]).is_err());
    assert!(capacity(2, &[SQUAD]).is_err());
    // One horse: one or two leaders only.
    assert_eq!(capacity(1, &[SMC]), Ok(Capacity::Fits));
    assert_eq!(capacity(1, &[SMC, SMC]), Ok(Capacity::Fits));
    assert!(capacity(1, &[SMC, SMC, SMC]).is_err());
    assert!(capacity(1, &[HS]).is_err());
    // Too large a counter splits: a HS on a squad counter deploys; a leader gets his own.
    assert_eq!(capacity(3, &[HS]), Ok(Capacity::DeployToHalfSquads));
    assert_eq!(capacity(3, &[SMC]), Ok(Capacity::CreateSmcHorse));
    assert_eq!(capacity(2, &[SMC]), Ok(Capacity::CreateSmcHorse));
    // … but not when the counter already carries its MMC.
    assert_eq!(capacity(3, &[SQUAD, SMC]), Ok(Capacity::Fits));
}

#[test]
fn a8_enemy_hexes() {
    let armed = EnemyState::default();
    let unarmed = EnemyState {
        unarmed: true,
        ..Default::default()
    };
    let concealed = EnemyState {
        concealed: true,
        ..Default::default()
    };
    assert!(may_enter_enemy_hex(&[unarmed, concealed], false).is_ok());
    let e = may_enter_enemy_hex(&[unarmed, armed], false).unwrap_err();
    assert!(e.starts_with("A8:"), "{e}");
    assert!(may_enter_enemy_hex(&[armed], true).is_ok());
}

#[test]
fn a11_mounted_fire_halved_except_charge() {
    let t = fire();
    let s = Shot {
        fp: 4,
        range: 2,
        mounted: true,
        ..Default::default()
    };
    assert_eq!(effective_fp(&t, &s), 2);
    assert_eq!(
        effective_fp(
            &t,
            &Shot {
                charge_or_cc: true,
                ..s
            }
        ),
        4
    );
    // Point blank doubles, triple point blank (same hex) triples.
    assert_eq!(
        effective_fp(
            &t,
            &Shot {
                range: 1,
                mounted: false,
                ..s
            }
        ),
        8
    );
    assert_eq!(
        effective_fp(
            &t,
            &Shot {
                range: 0,
                charge_or_cc: true,
                ..s
            }
        ),
        12
    );
}

#[test]
fn a12_vulnerability_not_cumulative_with_ffmo() {
    let t = fire();
    let base = Shot {
        fp: 4,
        range: 3,
        ..Default::default()
    };
    let (plain, _) = fire_chance(&t, &base);
    let (cav, _) = fire_chance(
        &t,
        &Shot {
            at_cavalry: true,
            ..base
        },
    );
    let (both, parts) = fire_chance(
        &t,
        &Shot {
            at_cavalry: true,
            ffmo: true,
            ..base
        },
    );
    assert_eq!(plain, t.base + 4 * t.per_fp);
    assert_eq!(cav, plain + 20);
    assert_eq!(both, cav, "{parts:?}");
    let (ffmo, _) = fire_chance(&t, &Shot { ffmo: true, ..base });
    assert_eq!(ffmo, plain + 10);
    // A CX firer is worse, except in a Charge (A16).
    let (cx, _) = fire_chance(&t, &Shot { cx: true, ..base });
    assert_eq!(cx, plain - 10);
    let (charge, _) = fire_chance(
        &t,
        &Shot {
            cx: true,
            charge_or_cc: true,
            ..base
        },
    );
    assert_eq!(charge, plain);
    // No firepower, no attack.
    assert_eq!(fire_chance(&t, &Shot { fp: 0, ..base }).0, 0);
}

#[test]
fn house_fire_table_tiers() {
    let t = fire();
    // A 50% chance: 1–10 eliminated, 11–20 reduced, 21–35 broken, 36–50 nothing lasting.
    assert_eq!(fire_result(&t, 50, 10), FireResult::Eliminated);
    assert_eq!(fire_result(&t, 50, 11), FireResult::Reduced);
    assert_eq!(fire_result(&t, 50, 20), FireResult::Reduced);
    assert_eq!(fire_result(&t, 50, 35), FireResult::Broken);
    assert_eq!(fire_result(&t, 50, 36), FireResult::None);
    assert_eq!(fire_result(&t, 50, 51), FireResult::None);
    assert_eq!(fire_result(&t, 0, 1), FireResult::None);
}

#[test]
fn a14_horses_on_their_own_line() {
    let t = fire();
    let s = Shot {
        fp: 4,
        range: 0,
        at_cavalry: true,
        ffmo: true,
        ..Default::default()
    };
    // 12 FP at the same hex: 5 + 12 × 4 = 53, no cavalry or FFMO bonus.
    assert_eq!(horse_chance(&t, &s), 53);
    assert_eq!(horse_result(&t, 53, 15), HorseResult::Killed);
    assert_eq!(horse_result(&t, 53, 31), HorseResult::Reduced);
    assert_eq!(horse_result(&t, 53, 40), HorseResult::None);
    assert_eq!(horse_result(&t, 53, 60), HorseResult::None);
}

#[test]
fn a13_the_horse_bolts_unless_others_ride_it() {
    assert!(horse_bolts(0));
    assert!(!horse_bolts(1));
}

#[test]
fn a16_charge_conditions() {
    assert!(charge_ok(3, Ok(()), true, true, true).is_ok());
    assert!(charge_ok(5, Ok(()), false, false, true).is_ok());
    let e = charge_ok(2, Ok(()), true, false, true).unwrap_err();
    assert!(e.contains("at least 3"), "{e}");
    assert!(charge_ok(4, Err("woods".into()), true, false, true).is_err());
    assert!(charge_ok(4, Ok(()), false, true, true).is_err());
    assert!(charge_ok(4, Ok(()), true, false, false).is_err());
    assert_eq!((CHARGE_MIN_RANGE, CHARGE_MF), (3, 3));
}

fn wave(hex: Cell, size: UnitSize) -> WaveUnit {
    WaveUnit {
        hex,
        size,
        mounted: true,
        nearest_enemy: 8,
        near_seen_enemy: false,
        can_gallop: true,
    }
}

#[test]
fn a17_cavalry_wave() {
    let g = GridKind::Hex;
    let mut units = vec![
        wave(Cell::new(2, 2), SQUAD),
        wave(Cell::new(3, 2), SQUAD),
        wave(Cell::new(3, 2), SMC),
    ];
    // A leader in a hex of his own joins the chain (one unit a hex, D10a).
    let mut own = units.clone();
    own[2].hex = Cell::new(4, 2);
    own[0].near_seen_enemy = true;
    assert!(cavalry_wave_ok(g, &own).is_ok());
    units[0].near_seen_enemy = true;
    assert!(cavalry_wave_ok(g, &units).is_ok());
    // No leader.
    assert!(
        cavalry_wave_ok(g, &units[..2])
            .unwrap_err()
            .contains("leader")
    );
    // Too close to the enemy.
    let mut near = units.clone();
    near[1].nearest_enemy = 3;
    assert!(
        cavalry_wave_ok(g, &near)
            .unwrap_err()
            .contains("three hexes")
    );
    // Not a chain.
    let mut apart = units.clone();
    apart[1].hex = Cell::new(6, 2);
    apart[2].hex = Cell::new(6, 2);
    assert!(cavalry_wave_ok(g, &apart).unwrap_err().contains("chain"));
    // Nobody within 16 MF of a seen enemy.
    let mut blind = units.clone();
    blind[0].near_seen_enemy = false;
    assert!(cavalry_wave_ok(g, &blind).unwrap_err().contains("16 MF"));
    // A hex with only a half-squad.
    let mut thin = units.clone();
    thin[0].size = HS;
    assert!(
        cavalry_wave_ok(g, &thin)
            .unwrap_err()
            .contains("squad equivalent")
    );
    // Everyone must gallop.
    let mut tired = units.clone();
    tired[1].can_gallop = false;
    assert!(cavalry_wave_ok(g, &tired).unwrap_err().contains("Gallop"));
}

#[test]
fn a18_three_times_its_size() {
    assert!(may_lead(SMC, &[1, 1, 1]).is_ok());
    assert!(may_lead(SMC, &[1, 1, 1, 1]).is_err());
    assert!(may_lead(SMC, &[2]).is_ok());
    assert!(may_lead(HS, &[3, 2]).is_ok());
    assert!(may_lead(HS, &[3, 3]).is_err());
    assert!(may_lead(SQUAD, &[3, 3, 3]).is_ok());
}

#[test]
fn a7_a10_twelve_mf_gallop_plus_eight_or_four_and_forbidden_terrain() {
    use crate::rules::board::{Board, Terrain};
    use crate::rules::gait::Gait;
    use crate::rules::grid::Dir;
    use crate::rules::movement::{Mover, MoverSpec, Pose, Step, StepRefusal};
    use crate::rules::mp::Mp;
    let rules = crate::level::builtin_ruleset("asl").expect("asl ruleset");
    let n = rules.asl.expect("asl numbers");
    // A7: 12 MF; A10: +8 declared at the start, +4 during the MPh.
    assert_eq!(rules.horse_classes["horse"].walk, Mp::cells(12));
    assert_eq!(n.gallop_start, Mp::cells(8));
    assert_eq!(n.gallop_during, Mp::cells(4));
    // A10: a galloping horse may not enter marsh, woods and the like; a horse not galloping may.
    let t = |name: &str, no_gallop: bool| Terrain {
        name: name.into(),
        cost: Some(Mp::cells(1)),
        mounted_cost: None,
        no_gallop,
        cover: false,
        blocks_sight: false,
        obstacle: None,
    };
    let mut b = Board::new(
        GridKind::Hex,
        8,
        8,
        vec![t("open ground", false), t("marsh", true)],
    );
    let from = Cell::new(2, 2);
    let marsh = b.grid.neighbour(from, Dir(1));
    let i = b.index(marsh);
    b.terrain[i] = 1;
    let spec = |asl_gallop: bool| MoverSpec {
        side: 1,
        mounted: true,
        gait: if asl_gallop { Gait::Gallop } else { Gait::Walk },
        basis: Mp::cells(20),
        crawling: false,
        asl_gallop,
        stops: vec![],
    };
    let pose = Pose::new(from, Dir(1));
    let galloping = Mover::new(&rules, &b, spec(true));
    assert!(matches!(
        galloping.try_step(&b, &pose, Step::Go(Dir(1))),
        Err(StepRefusal::NoGallop(c, _)) if c == marsh
    ));
    assert!(galloping.try_step(&b, &pose, Step::Go(Dir(2))).is_ok());
    let walking = Mover::new(&rules, &b, spec(false));
    assert!(walking.try_step(&b, &pose, Step::Go(Dir(1))).is_ok());
}

/// Seed 001, 13.62 (A17): "at least one unit in the chain must be within 16 MF of and have a
/// LOS to an enemy unit". MF, not hexes: an enemy ten hexes off across brush costs
/// 1 + 8 × 3 + 2 = 27 MF and is out of reach; the same ten hexes of open ground are 10 MF.
#[test]
fn a17_within_16_mf_counts_the_cavalry_costs_of_the_ground() {
    use crate::rules::board::{Board, Terrain};
    use crate::rules::grid::Dir;
    use crate::rules::mp::Mp;
    let t = |name: &str, cavalry: i64| Terrain {
        name: name.into(),
        cost: Some(Mp::cells(1)),
        mounted_cost: Some(Some(Mp::cells(cavalry))),
        no_gallop: false,
        cover: false,
        blocks_sight: false,
        obstacle: None,
    };
    let mut b = Board::new(
        GridKind::Hex,
        16,
        8,
        vec![t("open ground", 1), t("brush", 3), t("grain", 2)],
    );
    let from = Cell::new(1, 3);
    let mut line = vec![from];
    for _ in 0..10 {
        line.push(b.grid.neighbour(*line.last().unwrap(), Dir(1)));
    }
    let enemy = line[10];
    assert_eq!(b.grid.distance(from, enemy), 10);
    assert_eq!(cavalry_mf_to(&b, from, enemy, WAVE_MF), Some(Mp::cells(10)));
    // Brush everywhere but the first hex entered; the enemy's hex is grain.
    let all: Vec<Cell> = b.cells().collect();
    for c in all {
        let i = b.index(c);
        b.terrain[i] = if c == line[1] || c == from {
            0
        } else if c == enemy {
            2
        } else {
            1
        };
    }
    assert_eq!(
        cavalry_mf_to(&b, from, enemy, Mp::cells(100)),
        Some(Mp::cells(1 + 8 * 3 + 2))
    );
    assert_eq!(WAVE_MF, Mp::cells(16));
    assert_eq!(
        cavalry_mf_to(&b, from, enemy, WAVE_MF),
        None,
        "27 MF away is not within 16 MF"
    );
}
