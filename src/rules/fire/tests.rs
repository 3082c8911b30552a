//! Tests of the fire rules: D3/D5 shots, K2, K3, K4, A11, A12, A14, D5 casting.

use super::*;
use crate::rules::gait::Gait;
use crate::rules::grid::{Cell, Dir, GridKind};
use crate::rules::melee::ScriptedDice;
use crate::rules::melee::tables::tables;
use crate::rules::melee::testkit::{board, destrier, fight, figures, ix};

fn foot() -> ShooterFacts {
    ShooterFacts {
        troop: TroopType::Foot,
        shots_left: 1,
        asl_fp: None,
        charged: false,
        broken: false,
        cx: false,
    }
}

fn c(x: i32, y: i32) -> Cell {
    Cell::new(x, y)
}

#[test]
fn d3_d5_shots_split_round_up_first_down_second() {
    assert_eq!(shots_in_half(2, Half::First), 1);
    assert_eq!(shots_in_half(2, Half::Second), 1);
    assert_eq!(shots_in_half(1, Half::First), 1);
    assert_eq!(shots_in_half(1, Half::Second), 0);
    assert_eq!(shots_in_half(3, Half::First), 2);
    assert_eq!(shots_in_half(3, Half::Second), 1);
    for n in 0..20u8 {
        assert_eq!(
            shots_in_half(n, Half::First) + shots_in_half(n, Half::Second),
            n
        );
    }
}

#[test]
fn d3_shots_left_and_front_are_checked() {
    let r = destrier();
    let f = fight(
        board(GridKind::Square, 30, 30),
        vec![
            figures(&r, "a", "archer", 0, c(5, 5), Dir(2)),
            figures(&r, "f", "footman", 1, c(12, 5), Dir(6)),
        ],
        &[],
    );
    let t = tables();
    let (a, e) = (ix(&f, "a"), ix(&f, "f"));
    let facing_e = check_shot(&f, t, a, e, &foot());
    assert!(facing_e.is_ok(), "{facing_e:?}");
    let none_left = check_shot(
        &f,
        t,
        a,
        e,
        &ShooterFacts {
            shots_left: 0,
            ..foot()
        },
    );
    assert!(none_left.unwrap_err().starts_with("D3/D5"));
    let mut back = f.clone();
    back.fighters[a].facing = Dir(6);
    assert!(
        check_shot(&back, t, a, e, &foot())
            .unwrap_err()
            .starts_with("D3: missiles")
    );
    let own = fight(
        board(GridKind::Square, 30, 30),
        vec![
            figures(&r, "a", "archer", 0, c(5, 5), Dir(2)),
            figures(&r, "b", "footman", 0, c(8, 5), Dir(2)),
        ],
        &[],
    );
    assert!(
        check_shot(&own, t, 0, 1, &foot())
            .unwrap_err()
            .contains("not an enemy")
    );
}

#[test]
fn line_of_sight_blocks_shots() {
    let r = destrier();
    let f = fight(
        board(GridKind::Square, 30, 30),
        vec![
            figures(&r, "a", "archer", 0, c(5, 5), Dir(2)),
            figures(&r, "m", "footman", 0, c(8, 5), Dir(2)),
            figures(&r, "f", "footman", 1, c(12, 5), Dir(6)),
        ],
        &[],
    );
    let e = check_shot(&f, tables(), ix(&f, "a"), ix(&f, "f"), &foot()).unwrap_err();
    assert!(e.contains("no line of sight"), "{e}");
}

#[test]
fn k2_mounted_infantry_never_shoot_mounted() {
    let r = destrier();
    let mut rider = figures(&r, "mi", "mounted_infantry_on_rouncy", 0, c(5, 5), Dir(2));
    rider[0].weapon = "bow".into();
    let target = figures(&r, "f", "footman", 1, c(10, 5), Dir(6));
    let f = fight(
        board(GridKind::Square, 30, 30),
        vec![rider.clone(), target.clone()],
        &[],
    );
    let facts = ShooterFacts {
        troop: TroopType::MountedInfantry,
        ..foot()
    };
    let e = check_shot(&f, tables(), ix(&f, "mi"), ix(&f, "f"), &facts).unwrap_err();
    assert!(e.starts_with("K2"), "{e}");
    let mut on_foot = vec![rider[0].clone()];
    on_foot[0].mount = None;
    let g = fight(board(GridKind::Square, 30, 30), vec![on_foot, target], &[]);
    assert!(check_shot(&g, tables(), ix(&g, "mi"), ix(&g, "f"), &facts).is_ok());
}

fn horse_archer(gait: Gait, target_at: Cell) -> Fight {
    let r = destrier();
    let mut ha = figures(&r, "ha", "horse_archer_on_rouncy", 0, c(10, 10), Dir(2));
    for f in &mut ha {
        f.gait = gait;
    }
    let t = figures(&r, "f", "footman", 1, target_at, Dir(6));
    fight(board(GridKind::Square, 40, 40), vec![ha, t], &[])
}

fn cav() -> ShooterFacts {
    ShooterFacts {
        troop: TroopType::ShootingCavalry,
        ..foot()
    }
}

#[test]
fn k3_moving_cavalry_shoots_only_front_and_left_45() {
    let t = tables();
    // Heading east (Dir(2)); y grows downwards, so north (y smaller) is to the left.
    let ahead = horse_archer(Gait::Trot, c(15, 10));
    assert!(check_shot(&ahead, t, 0, 2, &cav()).is_ok());
    let left45 = horse_archer(Gait::Trot, c(14, 6));
    assert!(check_shot(&left45, t, 0, 2, &cav()).is_ok());
    let right = horse_archer(Gait::Trot, c(14, 14));
    let e = check_shot(&right, t, 0, 2, &cav()).unwrap_err();
    assert!(e.starts_with("K3"), "{e}");
    let left90 = horse_archer(Gait::Trot, c(10, 5));
    assert!(
        check_shot(&left90, t, 0, 2, &cav())
            .unwrap_err()
            .starts_with("K3")
    );
    // At a halt K3 does not limit it: the long stand's sides are frontal.
    let halted = horse_archer(Gait::Halt, c(14, 14));
    assert!(check_shot(&halted, t, 0, 2, &cav()).is_ok());
}

#[test]
fn k3_mounted_shoots_one_band_further() {
    let t = tables();
    let r = destrier();
    // Bow range 25: short to 8 1/3, medium to 16 2/3, long to 25.
    let foot_f = fight(
        board(GridKind::Square, 40, 40),
        vec![
            figures(&r, "a", "archer", 0, c(5, 10), Dir(2)),
            figures(&r, "f", "footman", 1, c(14, 10), Dir(6)),
        ],
        &[],
    );
    let p = check_shot(&foot_f, t, 0, 1, &foot()).unwrap();
    assert_eq!((p.distance, p.band), (9, Some(1)));
    let mounted = horse_archer(Gait::Halt, c(19, 10));
    let p = check_shot(&mounted, t, 0, 2, &cav()).unwrap();
    assert_eq!((p.distance, p.band), (9, Some(2)));
    // The band's modifier is in the odds, named.
    let o = shot_odds(&mounted, t, &p, &cav());
    assert!(
        o.parts
            .iter()
            .any(|x| x.0 == "long range (K3)" && x.1 == band_modifier(2))
    );
    let sum: i32 = o.parts.iter().map(|x| x.1).sum();
    assert_eq!(o.chance, sum.clamp(5, 95));
    let far = horse_archer(Gait::Halt, c(28, 10));
    let e = check_shot(&far, t, 0, 2, &cav()).unwrap_err();
    assert!(e.contains("out of range") && e.contains("K3"), "{e}");
    let far_foot = fight(
        board(GridKind::Square, 40, 40),
        vec![
            figures(&r, "a", "archer", 0, c(5, 10), Dir(2)),
            figures(&r, "f", "footman", 1, c(23, 10), Dir(6)),
        ],
        &[],
    );
    assert_eq!(
        check_shot(&far_foot, t, 0, 1, &foot()).unwrap().band,
        Some(2)
    );
}

fn shoot_at_knight(d100: &[u32], d6: &[u32]) -> (Fight, String) {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 30, 30),
        vec![
            figures(&r, "a", "archer", 0, c(5, 5), Dir(2)),
            figures(&r, "k", "knight_on_charger", 1, c(8, 5), Dir(6)),
        ],
        &[],
    );
    let t = tables();
    let p = check_shot(&f, t, 0, ix(&f, "k"), &foot()).unwrap();
    let mut dice = ScriptedDice::new(d100, d6);
    let mut out = Vec::new();
    let mut roller = Roller::new(&mut dice);
    resolve_shot(&mut f, t, &p, &mut roller, &mut out);
    let text = out
        .iter()
        .map(|e| e.text.clone())
        .collect::<Vec<_>>()
        .join("\n");
    (f, text)
}

#[test]
fn k4_hits_on_a_mounted_figure_fall_on_horse_1_to_4_rider_5_6() {
    let (f, text) = shoot_at_knight(&[10], &[4, 3]);
    let (k, m) = (ix(&f, "k"), ix(&f, "k.mount"));
    assert!(
        text.contains("K4: 1d6 rolls 4") && text.contains("the horse"),
        "{text}"
    );
    assert!(f.fighters[m].body < f.fighters[m].body_max, "{text}");
    assert_eq!(f.fighters[k].body, f.fighters[k].body_max);
    let (f, text) = shoot_at_knight(&[10], &[5, 3]);
    assert!(
        text.contains("K4: 1d6 rolls 5") && text.contains("the rider"),
        "{text}"
    );
    assert_eq!(f.fighters[m].body, f.fighters[m].body_max);
    assert!(f.fighters[k].body < f.fighters[k].body_max, "{text}");
    // The odds show both chances.
    let r = destrier();
    let g = fight(
        board(GridKind::Square, 30, 30),
        vec![
            figures(&r, "a", "archer", 0, c(5, 5), Dir(2)),
            figures(&r, "k", "knight_on_charger", 1, c(8, 5), Dir(6)),
        ],
        &[],
    );
    let p = check_shot(&g, tables(), 0, ix(&g, "k.mount"), &foot()).unwrap();
    assert_eq!(p.target, ix(&g, "k"), "a mount's id means its rider");
    let o = shot_odds(&g, tables(), &p, &foot());
    assert!(o.horse_chance.is_some());
}

#[test]
fn k3_the_farthest_shot_ends_the_last_band_the_shooter_may_use() {
    // "Bow range 25: short to 8 1/3, medium to 16 2/3, long to 25": an archer on foot
    // reaches 25 cells; mounted, it shoots one band further, so its long band ends at 16 2/3.
    let t = tables();
    let r = destrier();
    let archer_and_target = |d: i32| {
        fight(
            board(GridKind::Square, 40, 40),
            vec![
                figures(&r, "a", "archer", 0, c(5, 10), Dir(2)),
                figures(&r, "f", "footman", 1, c(5 + d, 10), Dir(6)),
            ],
            &[],
        )
    };
    assert_eq!(
        farthest_shot(&archer_and_target(9), t, 0, &foot()),
        Some(25)
    );
    assert!(check_shot(&archer_and_target(25), t, 0, 1, &foot()).is_ok());
    let e = check_shot(&archer_and_target(26), t, 0, 1, &foot()).unwrap_err();
    assert!(e.contains("out of range"), "{e}");
    let mounted = horse_archer(Gait::Halt, c(26, 10));
    assert_eq!(farthest_shot(&mounted, t, 0, &cav()), Some(16));
    assert!(check_shot(&mounted, t, 0, 2, &cav()).is_ok());
    let beyond = horse_archer(Gait::Halt, c(27, 10));
    let e = check_shot(&beyond, t, 0, 2, &cav()).unwrap_err();
    assert!(e.contains("out of range"), "{e}");
    // Nothing to shoot with: no reach at all. ASL fire reaches its normal range.
    assert_eq!(farthest_shot(&archer_and_target(9), t, 1, &foot()), None);
    let asl = asl_pair("squad", "squad", 2);
    assert_eq!(
        farthest_shot(&asl, t, 0, &asl_facts(TroopType::Foot)),
        Some(ASL_NORMAL_RANGE)
    );
}

fn asl_pair(shooter: &str, target: &str, d: i32) -> Fight {
    let r = crate::level::builtin_ruleset("asl").expect("asl");
    fight(
        board(GridKind::Hex, 30, 30),
        vec![
            figures(&r, "s", shooter, 0, c(5, 5), Dir(1)),
            figures(&r, "t", target, 1, c(5 + d, 5), Dir(4)),
        ],
        &[],
    )
}

fn asl_facts(troop: TroopType) -> ShooterFacts {
    ShooterFacts {
        troop,
        asl_fp: Some(4),
        ..foot()
    }
}

#[test]
fn a11_mounted_fire_is_halved_a12_cavalry_easier_to_hit() {
    let t = tables();
    let tf = cavalry::tables().asl_fire;
    let foot_at_foot = asl_pair("squad", "squad", 3);
    let p = check_shot(&foot_at_foot, t, 0, 1, &asl_facts(TroopType::Foot)).unwrap();
    let base = shot_odds(&foot_at_foot, t, &p, &asl_facts(TroopType::Foot));
    assert!(base.asl);
    assert_eq!(base.chance, tf.base + 4 * tf.per_fp);
    let cav_at_foot = asl_pair("cavalry_squad", "squad", 3);
    let facts = asl_facts(TroopType::ShockCavalry);
    let p = check_shot(&cav_at_foot, t, 0, 2, &facts).unwrap();
    let halved = shot_odds(&cav_at_foot, t, &p, &facts);
    assert_eq!(
        halved.chance,
        tf.base + 2 * tf.per_fp,
        "A11: 4 FP halved to 2"
    );
    assert!(halved.parts.iter().any(|x| x.0.contains("A11")));
    let foot_at_cav = asl_pair("squad", "cavalry_squad", 3);
    let p = check_shot(&foot_at_cav, t, 0, 1, &asl_facts(TroopType::Foot)).unwrap();
    let o = shot_odds(&foot_at_cav, t, &p, &asl_facts(TroopType::Foot));
    assert_eq!(o.chance, base.chance + tf.vs_cavalry, "A12");
    // A14: a separate line against the horses, without the A12 bonus.
    assert_eq!(o.horse_chance, Some(tf.horse_base + 4 * tf.horse_per_fp));
    assert_eq!(base.horse_chance, None);
}

#[test]
fn a14_fire_at_cavalry_rolls_again_for_the_horses() {
    let t = tables();
    let f = asl_pair("squad", "cavalry_squad", 3);
    let facts = asl_facts(TroopType::Foot);
    let p = check_shot(&f, t, 0, 1, &facts).unwrap();
    let mut dice = ScriptedDice::new(&[90, 2], &[]);
    let o = resolve_asl(&f, &p, &facts, &mut dice);
    assert_eq!(o.fire.2, FireResult::None);
    let (hc, hv, hr) = o.horses.expect("A14 roll");
    assert_eq!(hv, 2);
    assert_eq!(hr, horse_result(&cavalry::tables().asl_fire, hc, 2));
    assert_eq!(hr, HorseResult::Killed);
    let g = asl_pair("squad", "squad", 3);
    let p = check_shot(&g, t, 0, 1, &facts).unwrap();
    let mut dice = ScriptedDice::new(&[90, 2], &[]);
    assert!(resolve_asl(&g, &p, &facts, &mut dice).horses.is_none());
    assert_eq!(dice.left().0, 1, "no horse roll against infantry");
}

#[test]
fn asl_range_a13_a16_refusals() {
    let t = tables();
    let f = asl_pair("squad", "squad", ASL_NORMAL_RANGE + 1);
    let e = check_shot(&f, t, 0, 1, &asl_facts(TroopType::Foot)).unwrap_err();
    assert!(e.contains("fire reaches 4 hexes"), "{e}");
    let g = asl_pair("squad", "squad", ASL_NORMAL_RANGE);
    assert!(check_shot(&g, t, 0, 1, &asl_facts(TroopType::Foot)).is_ok());
    let broken = ShooterFacts {
        broken: true,
        ..asl_facts(TroopType::Foot)
    };
    assert!(
        check_shot(&g, t, 0, 1, &broken)
            .unwrap_err()
            .starts_with("A13")
    );
    let charged = ShooterFacts {
        charged: true,
        ..asl_facts(TroopType::Foot)
    };
    assert!(
        check_shot(&g, t, 0, 1, &charged)
            .unwrap_err()
            .starts_with("A16")
    );
}

#[test]
fn d5_a_mage_who_cast_may_not_cast_again() {
    let r = crate::level::builtin_ruleset("realms").expect("realms");
    let mut mage = figures(&r, "m", "human_warrior", 0, c(5, 5), Dir(1));
    mage[0].profile = tables().fighter("hedge_mage");
    let f = fight(
        board(GridKind::Hex, 20, 20),
        vec![mage, figures(&r, "e", "human_warrior", 1, c(7, 5), Dir(4))],
        &["shackled", "quick_step", "ghoul_touch"],
    );
    let t = tables();
    assert!(check_cast(&f, t, 0, "bind", Some("e"), false).is_ok());
    let e = check_cast(&f, t, 0, "bind", Some("e"), true).unwrap_err();
    assert!(e.starts_with("D5"), "{e}");
    assert!(
        check_cast(&f, t, 1, "bind", Some("m"), false)
            .unwrap_err()
            .contains("casts no")
    );
    assert_eq!(cast_chance(t, "bind"), Some(60));
}

#[test]
fn i3_nearest_enemy_figure_to_figure() {
    let r = destrier();
    let f = fight(
        board(GridKind::Square, 30, 30),
        vec![
            figures(&r, "a", "archer", 0, c(5, 5), Dir(2)),
            figures(&r, "far", "footman", 1, c(15, 5), Dir(6)),
            figures(&r, "k", "knight_on_charger", 1, c(9, 8), Dir(6)),
        ],
        &[],
    );
    assert_eq!(nearest_enemy(&f, 0), Some(ix(&f, "k")));
}
