//! Issue 14 through the real game: refusals that name their own rule (C7, R1) and R1's
//! armour reading in a level's allowances.

use std::path::Path;
use warhorse::level::load_level_str;
use warhorse::rules::movement::Step;
use warhorse::sim::Game;
use warhorse::sim::order::Order;
use warhorse::sim::phase::Phase;

fn level(path: &str, edit: impl Fn(String) -> String) -> Game {
    let text = edit(std::fs::read_to_string(path).expect("level file"));
    let dir = Path::new(path).parent();
    let level = load_level_str(&text, path, dir).expect("edited level loads");
    Game::new(&level, 1)
}

/// Seed 003 (C7): "'Charges' cannot be properly conducted at a walk." A walking knight's
/// declaration is refused by that rule, not as "no target it could reach".
#[test]
fn c7_a_walking_knights_charge_is_refused_by_c7() {
    let mut g = level("tests/levels/charge_joust.ron", |t| {
        t.replacen("facing: \"E\", gait: Trot", "facing: \"E\", gait: Walk", 1)
    });
    assert_eq!(g.phase(), Phase::ChargeDeclaration);
    let why = g
        .order(&Order::DeclareCharge {
            unit: "sir_roland".into(),
            targets: vec!["sir_gaston".into()],
        })
        .expect_err("a walking knight cannot charge")
        .0;
    assert!(why.contains("C7") && why.contains("walk"), "{why}");
}

/// Seed 002 (R1): "the armor and equipment used is so heavy that it lowers his "total"
/// movement for the round down to only 40 feet. Let's place him in shackles, which would
/// reduce his movement to 20 feet. Now if that ghoul touches him, his movement becomes
/// negative, and he too is paralyzed." In play: 8 hexes, 4 hexes, and a move refused by R1.
#[test]
fn r1_the_armoured_human_in_play() {
    let mut g = level("levels/realms_ambush.ron", |t| {
        t.replace("control: Ai", "control: Human")
            .replace(
                "(id: \"warrior\", template: \"human_warrior\"",
                "(id: \"warrior\", template: \"armoured_human\", conditions: [\"shackled\", \"ghoul_touch\"]",
            )
            .replace(
                "(id: \"prisoner\", template: \"human_warrior\", side: \"Wardens\", at: (4, 6), facing: \"E\", conditions: [\"shackled\"]",
                "(id: \"prisoner\", template: \"armoured_human\", side: \"Wardens\", at: (4, 6), facing: \"E\", conditions: [\"shackled\"]",
            )
    });
    // Past the declarations and fire phases to a half-move where the Wardens move.
    for _ in 0..12 {
        if matches!(g.phase(), Phase::FirstHalfMove) {
            break;
        }
        let _ = g.order(&Order::EndSide);
    }
    let snap = g.snapshot();
    let allowance = |id: &str| {
        snap.figures
            .iter()
            .find(|f| f.id == id)
            .map(|f| f.allowance.clone())
            .expect("figure")
    };
    assert_eq!(
        allowance("guard"),
        "8",
        "armour: 50 ft × 4/5 = 40 ft = 8 hexes"
    );
    assert_eq!(
        allowance("prisoner"),
        "4",
        "armour and shackles: 20 ft = 4 hexes"
    );
    assert_eq!(
        allowance("warrior"),
        "0",
        "and the ghoul's touch: below zero"
    );
    let mut refusal = None;
    for _ in 0..4 {
        match g.order(&Order::Move {
            unit: "warrior".into(),
            steps: vec![Step::Go(warhorse::rules::grid::Dir(1))],
        }) {
            Err(e) if e.0.starts_with("R1") => {
                refusal = Some(e.0);
                break;
            }
            Err(_) => {
                let _ = g.order(&Order::EndSide);
            }
            Ok(()) => panic!("a paralysed figure moved"),
        }
    }
    let why = refusal.expect("the warrior's move is refused by R1");
    assert!(why.contains("paralysed"), "{why}");
}

/// Seed 004: "Cavalry may turn 45° per ¼ of their movement, or per ½ move at Gallop" — the
/// ruleset switch in play in `levels/supplement_patrol.ron`: a cantering knight turns 90° in
/// place for half of its half-move allowance (seed 000's grid rules refuse a turn in place
/// above a walk).
#[test]
fn seed_004_turning_in_the_supplement_level() {
    let mut g = level("levels/supplement_patrol.ron", |t| t);
    for _ in 0..12 {
        if matches!(g.phase(), Phase::FirstHalfMove) {
            break;
        }
        let _ = g.order(&Order::EndSide);
    }
    assert_eq!(g.phase(), Phase::FirstHalfMove);
    let mut done = false;
    for _ in 0..3 {
        let knight = g
            .snapshot()
            .figures
            .into_iter()
            .find(|f| f.id == "sir_roland.mount" || f.id == "sir_roland")
            .expect("knight");
        match g.order(&Order::Move {
            unit: "sir_roland".into(),
            steps: vec![Step::Pivot(2)],
        }) {
            Ok(()) => {
                let after = g
                    .snapshot()
                    .figures
                    .into_iter()
                    .find(|f| f.id == knight.id)
                    .expect("knight");
                // A destrier walks 7 a turn; at a canter (×4/3) 28/3, a half-move 14/3;
                // 90° is two quarters of it: 7/3, leaving 7/3.
                let mount = g
                    .snapshot()
                    .figures
                    .into_iter()
                    .filter(|f| f.id.starts_with("sir_roland"))
                    .map(|f| (f.allowance.clone(), f.allowance_left.clone()))
                    .find(|(a, _)| a == "14/3")
                    .expect("the mount's canter allowance is 14/3");
                assert_eq!(mount.1, "7/3", "{after:?}");
                assert_eq!(after.facing, "S");
                done = true;
                break;
            }
            Err(e) => {
                assert!(!e.0.starts_with("H3"), "{e}");
                let _ = g.order(&Order::EndSide);
            }
        }
    }
    assert!(done, "the knight turned");
}

/// Seed 003 (C8): "A steed which was cantering, galloping, or charging during the movement
/// segment may play only MOVE cards during the MELEE phase." Its KICK is refused by C8, not
/// with "no cards to choose now", even though its play is made for it.
#[test]
fn c8_a_fast_steeds_kick_is_refused_by_c8_in_play() {
    let mut g = level("tests/fixtures/melee.ron", |t| {
        t.replace(
            "at: (3, 3), facing: \"E\")",
            "at: (3, 3), facing: \"E\", gait: Canter)",
        )
    });
    for _ in 0..8 {
        if g.phase() == Phase::Tac {
            break;
        }
        let _ = g.order(&Order::EndSide);
    }
    assert_eq!(g.phase(), Phase::Tac);
    let why = g
        .order(&Order::PlayCards {
            unit: "knight.mount".into(),
            tac: None,
            tac_target: None,
            melee: vec![warhorse::rules::melee::cards::MeleeCard::Kick {
                target: "blue_foot_1".into(),
            }],
        })
        .expect_err("a cantering steed kicks not")
        .0;
    assert!(why.starts_with("C8"), "{why}");
}
