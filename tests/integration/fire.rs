//! The fire phases in play (D3–D5, K3, K4, A11–A14, A13, I3): sub-step order, one shot per
//! order, half moves after firing, shots split between the halves, no second spell, the ASL
//! house table against cavalry, the AI's nearest-enemy rule, and script replay.

use crate::warhorse;
use warhorse::level::load_level_file;
use warhorse::rules::fire::SubStep;
use warhorse::sim::Game;
use warhorse::sim::components::{FigureId, Weapon};
use warhorse::sim::fire;
use warhorse::sim::order::Order;
use warhorse::sim::phase::Phase;
use warhorse::sim::snapshot::FigureState;

fn game(file: &str, seed: u64) -> Game {
    let level = load_level_file(std::path::Path::new(file)).expect("fixture loads");
    Game::new(&level, seed)
}

fn fig(g: &mut Game, id: &str) -> FigureState {
    g.snapshot()
        .figures
        .into_iter()
        .find(|f| f.id == id)
        .expect("figure")
}

fn shoot(unit: &str, target: &str) -> Order {
    Order::Fire {
        unit: unit.into(),
        target: target.into(),
    }
}

fn step(g: &Game) -> Option<fire::FireStep> {
    fire::current_step(g.world_for_tests())
}

fn log_text(g: &mut Game) -> Vec<String> {
    g.snapshot()
        .log
        .into_iter()
        .map(|l| l.to_string())
        .collect()
}

/// A refused order changes neither the figures nor the log.
fn refused(g: &mut Game, o: &Order) -> String {
    let before = g.snapshot();
    let why = g.order(o).expect_err("refused").0;
    let after = g.snapshot();
    assert_eq!(before.figures, after.figures);
    assert_eq!(before.log, after.log);
    why
}

/// Ends sub-steps and half-moves until the game waits in `phase`'s fire sub-step of `side`.
fn run_to(g: &mut Game, phase: Phase, kind: SubStep, side: u8) {
    for _ in 0..40 {
        if g.phase() == phase && step(g).is_some_and(|s| s.kind == kind && s.side == side) {
            return;
        }
        g.order(&Order::EndSide).expect("EndSide");
    }
    panic!("never reached {phase:?} {kind:?} of side {side}");
}

#[test]
fn d3_sub_steps_in_order_winner_then_loser() {
    let mut g = game("tests/fixtures/fire.ron", 1);
    assert_eq!(g.phase(), Phase::FireFirst);
    let s = step(&g).expect("waits in a sub-step");
    assert_eq!(
        (s.kind, s.side),
        (SubStep::Fire, 0),
        "Red (the winner) fires first"
    );
    let log = log_text(&mut g);
    let red_cast = log
        .iter()
        .position(|l| l.starts_with("Red has no spell"))
        .unwrap();
    let blue_cast = log
        .iter()
        .position(|l| l.starts_with("Blue has no spell"))
        .unwrap();
    let red_fires = log
        .iter()
        .position(|l| l == "Red fires missiles (D3).")
        .unwrap();
    assert!(red_cast < blue_cast && blue_cast < red_fires, "{log:#?}");
    // Blue may not shoot in Red's sub-step, nor anyone move.
    assert!(refused(&mut g, &shoot("bx", "rb")).contains("Red's turn"));
    let mv = Order::Move {
        unit: "ra".into(),
        steps: vec![warhorse::rules::movement::Step::Forward],
    };
    assert!(refused(&mut g, &mv).starts_with("D3"));
    g.order(&Order::EndSide).unwrap();
    let s = step(&g).expect("Blue's sub-step");
    assert_eq!((s.kind, s.side), (SubStep::Fire, 1));
    g.order(&Order::EndSide).unwrap();
    // Both misc sub-steps pass with a line each; the half-move follows.
    assert_eq!(g.phase(), Phase::FirstHalfMove);
    let log = log_text(&mut g);
    assert!(
        log.iter()
            .any(|l| l.starts_with("Red does its other activities"))
    );
    assert!(
        log.iter()
            .any(|l| l.starts_with("Blue does its other activities"))
    );
    // Fire orders are refused outside the fire phases.
    assert!(refused(&mut g, &shoot("ra", "bf")).starts_with("D3"));
}

#[test]
fn levels_without_shooters_pass_the_fire_phase() {
    let mut g = game("docs/examples/tiny.ron", 1);
    for _ in 0..4 {
        if g.phase() == Phase::FirstHalfMove {
            break;
        }
        g.order(&Order::EndSide).unwrap();
    }
    assert_eq!(g.phase(), Phase::FirstHalfMove);
    let log = log_text(&mut g);
    assert!(
        log.iter()
            .any(|l| l == "Nobody can cast a spell or shoot: the fire phase passes (D3).")
    );
}

#[test]
fn d5_bow_shots_split_one_in_each_half() {
    let mut g = game("tests/fixtures/fire.ron", 1);
    assert_eq!(fire::shots_left(g.world_for_tests_mut(), "ra"), Some(1));
    g.order(&shoot("ra", "bf")).unwrap();
    assert_eq!(fire::shots_left(g.world_for_tests_mut(), "ra"), Some(0));
    let why = refused(&mut g, &shoot("ra", "bf"));
    assert!(why.starts_with("D3/D5"), "{why}");
    // The second half: the rest of the turn's shots (2 − 1 = 1).
    let side = {
        run_to_second(&mut g);
        step(&g).map(|s| s.side)
    };
    assert!(side.is_some());
    run_to(&mut g, Phase::FireSecond, SubStep::Fire, 0);
    assert_eq!(fire::shots_left(g.world_for_tests_mut(), "ra"), Some(1));
    g.order(&shoot("ra", "bf")).unwrap();
    assert!(refused(&mut g, &shoot("ra", "bf")).starts_with("D3/D5"));
}

fn run_to_second(g: &mut Game) {
    for _ in 0..20 {
        if g.phase() == Phase::FireSecond {
            return;
        }
        g.order(&Order::EndSide).unwrap();
    }
    panic!("no second fire phase");
}

#[test]
fn d4_firing_first_halves_the_move_on_foot_not_mounted() {
    let mut g = game("tests/fixtures/fire.ron", 1);
    g.order(&shoot("ra", "bf")).unwrap();
    g.order(&shoot("rha", "bk")).unwrap();
    while g.phase() == Phase::FireFirst {
        g.order(&Order::EndSide).unwrap();
    }
    assert_eq!(g.phase(), Phase::FirstHalfMove);
    assert_eq!(fig(&mut g, "ra").allowance, "3/2", "halved (D4)");
    assert_eq!(fig(&mut g, "rb").allowance, "3", "did not shoot");
    // The horse archer shot too, mounted: its horse keeps the move it has without shooting.
    let mut quiet = game("tests/fixtures/fire.ron", 1);
    while quiet.phase() == Phase::FireFirst {
        quiet.order(&Order::EndSide).unwrap();
    }
    let fresh = fig(&mut quiet, "rha.mount").allowance;
    assert_eq!(
        fig(&mut g, "rha.mount").allowance,
        fresh,
        "mounted: not halved"
    );
    assert_eq!(fig(&mut quiet, "ra").allowance, "3");
    assert!(
        log_text(&mut g)
            .iter()
            .any(|l| l.starts_with("ra shot or cast before moving"))
    );
}

#[test]
fn d4_a_crossbow_that_shot_reloads_and_does_not_move() {
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
    g.order(&shoot("ra", "bf")).unwrap();
    while g.phase() == Phase::FireFirst {
        g.order(&Order::EndSide).unwrap();
    }
    assert_eq!(fig(&mut g, "ra").allowance_left, "0");
    assert!(
        log_text(&mut g)
            .iter()
            .any(|l| l == "ra reloads its crossbow: no movement this half-move (D4).")
    );
    // Reloaded by the next fire phase, but a crossbow's one shot was in the first half.
    run_to_second(&mut g);
    if let Some(s) = step(&g)
        && s.side == 0
        && s.kind == SubStep::Fire
    {
        assert!(refused(&mut g, &shoot("ra", "bf")).starts_with("D3/D5"));
    }
}

#[test]
fn k3_moving_cavalry_arc_and_k4_horse_or_rider() {
    let mut g = game("tests/fixtures/fire.ron", 1);
    let why = refused(&mut g, &shoot("rha", "bl"));
    assert!(why.starts_with("K3"), "{why}");
    let odds = fire::fire_odds(g.world_for_tests_mut(), "rha", "bk").unwrap();
    assert_eq!(
        odds.band,
        Some(1),
        "8 cells: short on foot, medium mounted (K3)"
    );
    assert!(odds.horse_chance.is_some());
    g.order(&shoot("rha", "bk")).unwrap();
    let log = log_text(&mut g);
    let k4 = log
        .iter()
        .find(|l| l.starts_with("K4: 1d6 rolls"))
        .expect("K4 roll");
    assert!(k4.contains("the horse") || k4.contains("the rider"));
    let shot = log.iter().find(|l| l.starts_with("rha shoots at")).unwrap();
    let on_horse = k4.contains("the horse");
    assert_eq!(
        shot.starts_with("rha shoots at bk.mount"),
        on_horse,
        "{shot}"
    );
    assert!(
        shot.contains(&format!(
            "needs {} or less",
            if on_horse {
                odds.horse_chance.unwrap()
            } else {
                odds.chance
            }
        )),
        "the odds shown are the odds rolled: {shot}"
    );
}

#[test]
fn d5_a_mage_who_cast_may_not_cast_again() {
    let mut g = game("tests/fixtures/melee_realms.ron", 1);
    assert_eq!(g.phase(), Phase::FireFirst);
    let s = step(&g).unwrap();
    assert_eq!((s.kind, s.side), (SubStep::Cast, 0));
    let cast = Order::Cast {
        unit: "mage_r".into(),
        spell: "quick_step".into(),
        target: Some("dwarf".into()),
    };
    assert_eq!(
        fire::cast_odds(
            g.world_for_tests_mut(),
            "mage_r",
            "quick_step",
            Some("dwarf")
        ),
        Ok(90)
    );
    g.order(&cast).unwrap();
    assert!(
        log_text(&mut g)
            .iter()
            .any(|l| l.starts_with("mage_r casts quick step on dwarf"))
    );
    run_to_second(&mut g);
    // Red's mage has cast this turn, so only Blue's mage is asked (whoever won).
    let s = step(&g).unwrap();
    assert_eq!((s.kind, s.side), (SubStep::Cast, 1));
    let why = refused(&mut g, &cast);
    assert!(why.starts_with("D5"), "{why}");
    let preview = fire::cast_odds(
        g.world_for_tests_mut(),
        "mage_r",
        "quick_step",
        Some("dwarf"),
    );
    assert!(preview.unwrap_err().0.starts_with("D5"));
    g.order(&Order::EndSide).unwrap();
    let log = log_text(&mut g);
    assert!(
        log.iter()
            .any(|l| l == "Red has no spell it could cast: passes (D3)."),
        "{log:#?}"
    );
}

#[test]
fn i3_the_ai_shoots_at_the_nearest_enemy_then_ends() {
    let mut g = game("tests/fixtures/fire.ron", 3);
    g.order(&Order::EndSide).unwrap();
    assert_eq!(step(&g).map(|s| (s.kind, s.side)), Some((SubStep::Fire, 1)));
    // bx at (14,7): rb at (5,4) is 9 cells away, ra and rha 11.
    assert_eq!(warhorse::ai::next_order(&mut g, 1), Some(shoot("bx", "rb")));
    let played = warhorse::ai::play_side_turn(&mut g, 1, Default::default());
    assert!(played.iter().all(|(_, r)| r.is_ok()), "{played:?}");
    assert_eq!(played[0].0, shoot("bx", "rb"));
    assert_ne!(g.phase(), Phase::FireFirst);
}

#[test]
fn a11_a14_asl_fire_at_cavalry_and_a13_bail_out() {
    let mut seen_break = false;
    for seed in 0..400 {
        let mut g = game("tests/fixtures/fire_asl.ron", seed);
        let Some(s) = step(&g) else { continue };
        if s.side != 0 || s.kind != SubStep::Fire {
            continue;
        }
        let odds = fire::fire_odds(g.world_for_tests_mut(), "sq", "cav").unwrap();
        assert!(odds.asl);
        assert!(odds.parts.iter().any(|p| p.0 == "against cavalry (A12)"));
        assert!(odds.horse_chance.is_some(), "A14");
        g.order(&shoot("sq", "cav")).unwrap();
        let log = log_text(&mut g);
        assert!(
            log.iter()
                .any(|l| l.starts_with("The same fire against cav's horses (A14)"))
        );
        if log.iter().any(|l| l.contains("bails out")) && log.iter().any(|l| l.contains("bolts")) {
            let snap = g.snapshot();
            assert!(
                snap.figures.iter().all(|f| f.id != "cav.mount"),
                "A13: the horse is removed"
            );
            let cav = snap.figures.iter().find(|f| f.id == "cav").unwrap();
            assert!(cav.mounted_on.is_none());
            seen_break = true;
            break;
        }
    }
    assert!(seen_break, "some seed breaks the cavalry (A13)");
}

#[test]
fn a11_mounted_fire_halved_in_play() {
    let mut g = game("tests/fixtures/fire_asl.ron", 1);
    run_to(&mut g, Phase::FireFirst, SubStep::Fire, 1);
    let odds = fire::fire_odds(g.world_for_tests_mut(), "cav", "sq").unwrap();
    assert!(odds.parts.iter().any(|p| p.0.contains("(A11)")), "{odds:?}");
    let foot = fire::fire_odds(g.world_for_tests_mut(), "sq2", "sq").unwrap_err();
    assert!(foot.0.contains("Germans' turn"), "{foot}");
}

#[test]
fn the_docs_fire_example_is_the_fixture_and_replays_byte_for_byte() {
    let docs = std::fs::read_to_string("docs/formats.md").unwrap();
    let file = std::fs::read_to_string("tests/fixtures/fire.orders.ron").unwrap();
    assert!(
        docs.contains(file.trim()),
        "docs/formats.md shows tests/fixtures/fire.orders.ron"
    );
    let run = |seed: &str| {
        warhorse(&[
            "script",
            "tests/fixtures/fire.ron",
            "tests/fixtures/fire.orders.ron",
            "--seed",
            seed,
            "--json",
        ])
    };
    let a = run("1");
    assert_eq!(a.0, 0, "{}", a.2);
    assert_eq!(a, run("1"), "same seed, same bytes");
    let v: serde_json::Value = serde_json::from_str(&a.1).unwrap();
    let results: Vec<&str> = v["orders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["result"].as_str().unwrap())
        .collect();
    assert_eq!(
        results,
        [
            "accepted", "refused", "refused", "accepted", "refused", "accepted", "accepted",
            "refused", "accepted", "accepted", "accepted", "accepted"
        ]
    );
}
