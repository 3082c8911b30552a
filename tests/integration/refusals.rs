//! Issue 32, "refusals that name the rule that applies": each refusal is triggered through
//! `Game::order` and must carry its rule's tag — R4 (a hostile's controlled cell is not an
//! ally's), C6 (the 2" straight run before a charge's contact), D4 (a crossbow that shot
//! reloads and does not move; an ASL rifle is no crossbow).

use super::sim_orders::refused;
use std::path::Path;
use warhorse::level::{load_level_file, load_level_str};
use warhorse::rules::grid::Dir;
use warhorse::rules::movement::Step;
use warhorse::sim::Game;
use warhorse::sim::order::Order;
use warhorse::sim::phase::Phase;

fn game(file: &str, seed: u64) -> Game {
    Game::new(
        &load_level_file(Path::new(file)).expect("level loads"),
        seed,
    )
}

fn go(unit: &str, dir: Dir, n: usize) -> Order {
    Order::Move {
        unit: unit.into(),
        steps: vec![Step::Go(dir); n],
    }
}

/// R4 (`realms`): "hostiles [may pass] only with a contest" — and, like allies, never stop in
/// the cell. A move that would end in the ghoul's cell is refused under R4 and calls the
/// ghoul a hostile figure, not an ally.
#[test]
fn r4_a_move_ending_in_a_hostiles_cell_is_refused_and_names_it_hostile() {
    let mut g = game("levels/realms_hedgerow.ron", 1);
    // The dwarf at (2,7); ghoul_1 holds (5,7): three cells east ends in the ghoul's cell.
    let why = refused(&mut g, &go("dwarf", Dir(1), 3));
    assert!(why.starts_with("R4"), "{why}");
    assert!(why.contains("held by a hostile figure"), "{why}");
    assert!(!why.contains("ally"), "a ghoul is no ally: {why}");
}

/// Seed 003 (C6): "a charging figure must move at least 2\" in a straight line before
/// contacting a target in a charge". A trotting knight whose only enemy in sight stands one
/// cell ahead of it cannot charge: its declaration is refused under C6, naming the target,
/// not as "no enemy in sight" (C1). A second knight with a target in the open keeps the
/// declarations open.
#[test]
fn c6_a_charge_without_its_2_inch_run_is_refused_under_c6() {
    let src = r#"Level(
    name: "C6 run",
    ruleset: "destrier",
    width: 20,
    height: 12,
    legend: { '.': (name: "open", cost: 1) },
    rows: [
        "....................", "....................", "....................",
        "....................", "....................", "....................",
        "....................", "....................", "....................",
        "....................", "....................", "....................",
    ],
    sides: [(name: "Red", control: Human), (name: "Blue", control: Human)],
    surprised: Some("Blue"),
    figures: [
        (id: "near", template: "knight_on_destrier", side: "Red", at: (2, 9), facing: "E", gait: Trot),
        (id: "f1", template: "footman", side: "Blue", at: (4, 9), facing: "W"),
        (id: "far", template: "knight_on_destrier", side: "Red", at: (1, 2), facing: "E", gait: Trot),
        (id: "f2", template: "footman", side: "Blue", at: (10, 2), facing: "W"),
    ],
)"#;
    let level = load_level_str(src, "c6_run.ron", Some(Path::new("levels"))).expect("level");
    let mut g = Game::new(&level, 1);
    assert_eq!(g.phase(), Phase::ChargeDeclaration, "far can charge f2");
    let why = refused(
        &mut g,
        &Order::DeclareCharge {
            unit: "near".into(),
            targets: vec!["f1".into()],
        },
    );
    assert!(why.contains("C6: the horse must run at least 2\""), "{why}");
    assert!(why.contains("f1"), "{why}");
    assert!(!why.contains("C1"), "{why}");
}

/// Seed 003 (D4): "If crossbows are used, no movement is possible while reloading". A
/// crossbowman that shot in the fire phase is refused a move in the half-move that follows,
/// under D4.
#[test]
fn d4_a_crossbow_that_shot_is_refused_a_move_under_d4() {
    use warhorse::sim::components::{FigureId, Weapon};
    let mut g = game("tests/fixtures/fire.ron", 1);
    {
        let w = g.world_for_tests_mut();
        let mut q = w.query::<(&FigureId, &mut Weapon)>();
        for (id, mut wp) in q.iter_mut(w) {
            if id.0 == "ra" {
                wp.0 = "crossbow".into();
            }
        }
    }
    g.order(&Order::Fire {
        unit: "ra".into(),
        target: "bf".into(),
    })
    .expect("ra shoots");
    while g.phase() == Phase::FireFirst {
        g.order(&Order::EndSide).unwrap();
    }
    assert_eq!(g.phase(), Phase::FirstHalfMove);
    while g.snapshot().to_move.as_deref() != Some("Red") {
        g.order(&Order::EndSide).unwrap();
    }
    let why = refused(&mut g, &go("ra", Dir(2), 1));
    assert!(why.starts_with("D4"), "{why}");
    assert!(why.contains("reload"), "{why}");
}
