//! Issue 12, rout (I1, I2; docs/rules.md "Rout"): a figure whose unit's actions-table roll
//! says flee or canter away and whose move ends on the map edge leaves the map routed —
//! removed, logged, counted by the judge as routed (half its worth to the enemy), not killed.
//! Any other figure at the edge stays. An `Exit` figure that reaches its edge leaves the map
//! and is safe. Refused moves rout nobody; saves replay the rout; `warhorse script --json`
//! reports it.

use crate::warhorse;
use warhorse::level::{Level, load_level_str};
use warhorse::rules::actions::Conduct;
use warhorse::rules::movement::Step;
use warhorse::rules::victory::{Departure, figure_value, routed_value};
use warhorse::sim::Game;
use warhorse::sim::order::Order;
use warhorse::sim::rout::conduct_now;

/// Red's footman `r` one step from the east edge, facing it; Blue's archer `a` behind him
/// with a bow in range (I1: +1 an enemy in clear sight and range, +2 one in his rear): risk
/// factor 3, so a d6 of 1 says "canter further from the nearest enemy" (I2).
fn field(extra: &str) -> String {
    format!(
        r#"Level(name: "rout", ruleset: "destrier", width: 8, height: 5,
        legend: {{ '.': (name: "open", cost: 1) }},
        rows: ["........", "........", "........", "........", "........"],
        sides: [(name: "Red", control: Human), (name: "Blue", control: Human)],
        surprised: Some("Blue"),
        figures: [
            (id: "r", template: "footman", side: "Red", at: (6, 2), facing: "E"),
            (id: "a", template: "archer", side: "Blue", at: (3, 2), facing: "E"),
        ],
        victory: (turns: 3{extra}),
    )"#
    )
}

fn level(extra: &str) -> Level {
    load_level_str(&field(extra), "rout.ron", None).expect("loads")
}

fn step_to_the_edge() -> Order {
    Order::Move {
        unit: "r".into(),
        steps: vec![Step::Forward],
    }
}

/// A new game with dice `seed`, brought to Red's half-move by ending the fire sub-steps;
/// with the number of `EndSide`s that took.
fn red_to_move_after(level: &Level, seed: u64) -> (Game, usize) {
    let mut g = Game::new(level, seed);
    for n in 0..8 {
        if g.snapshot().to_move.as_deref() == Some("Red") {
            return (g, n);
        }
        g.order(&Order::EndSide).expect("the fire sub-step ends");
    }
    panic!("Red never moves");
}

fn red_to_move(level: &Level, seed: u64) -> Game {
    red_to_move_after(level, seed).0
}

/// Red rolls for `r` with dice `seed`; returns the game and the conduct the roll gave.
fn rolled(level: &Level, seed: u64) -> (Game, Option<Conduct>) {
    let mut g = red_to_move(level, seed);
    g.order(&Order::ActionRoll { unit: "r".into() })
        .expect("r rolls on the actions table");
    let c = conduct_now(g.world_for_tests(), "r");
    (g, c)
}

#[test]
fn i2_a_figure_that_flees_off_the_edge_routs_and_one_that_does_not_flee_stays() {
    let level = level("");
    let (mut fled, mut stayed) = (0, 0);
    for seed in 0..60 {
        let (mut g, conduct) = rolled(&level, seed);
        let retiring = matches!(conduct, Some(Conduct::Retire { .. }));
        g.order(&step_to_the_edge()).expect("one step east");
        let snap = g.snapshot();
        let on_map = snap.figures.iter().any(|f| f.id == "r");
        if !retiring {
            stayed += 1;
            assert!(
                on_map,
                "seed {seed}: {conduct:?} is no flight; r stays at the edge"
            );
            assert!(snap.left_the_map.is_empty());
            assert!(g.outcome().is_none());
            continue;
        }
        fled += 1;
        assert!(
            !on_map,
            "seed {seed}: r fled to the edge and is off the map"
        );
        assert_eq!(snap.left_the_map.len(), 1);
        assert_eq!(snap.left_the_map[0].how, "routed");
        let j = g.judge().expect("a judge");
        assert_eq!(
            j.tracker.gone.get("r").map(|g| g.0),
            Some(Departure::Routed)
        );
        assert!(
            snap.log
                .iter()
                .any(|l| l.to_string().contains("r flees off the map edge")
                    && l.to_string().contains("routed")),
            "the log says so"
        );
        // Red has no figure left: Blue wins by the rout, and scores half a footman.
        let out = g
            .outcome()
            .expect("Red has nobody left in the fight")
            .clone();
        assert_eq!(out.winner, Some(1));
        assert!(out.reason.contains("1 routed"), "{}", out.reason);
        assert_eq!(out.routed, vec!["r".to_string()]);
        assert_eq!(out.points, vec![0, routed_value(figure_value(4, 3, false))]);
        assert_eq!(out.points[1], 4, "half of a footman's 7, rounded up");
        // The save replays to the same rout.
        let again = Game::from_record(g.record()).expect("replays");
        assert_eq!(again.outcome(), Some(&out));
    }
    assert!(fled > 0 && stayed > 0, "fled {fled}, stayed {stayed}");
}

#[test]
fn i2_a_refused_move_routs_nobody() {
    let level = level("");
    let seed = (0..60)
        .find(|&s| matches!(rolled(&level, s).1, Some(Conduct::Retire { .. })))
        .expect("some seed rolls a 1");
    let (mut g, _) = rolled(&level, seed);
    let before = g.snapshot();
    // Ten steps east run off the map after the first: the whole path is refused.
    let r = g.order(&Order::Move {
        unit: "r".into(),
        steps: vec![Step::Forward; 10],
    });
    assert!(r.is_err(), "off the map");
    let after = g.snapshot();
    assert_eq!(after.figures, before.figures, "nothing moved");
    assert!(after.left_the_map.is_empty());
    assert_eq!(after.log.len(), before.log.len());
    assert_eq!(g.restores(), 0, "validated before applied");
}

/// A figure that leaves the map lets go of the enemy it held (RESTRAINT): nobody is left
/// held by a figure that is gone, which would bar its every move.
#[test]
fn a_figure_leaving_the_map_releases_its_holds() {
    use warhorse::rules::melee::fight::CombatState;
    use warhorse::sim::components::CombatStatus;
    let level =
        level(r#", objectives: [(side: "Red", goal: Exit(figures: ["r"], edge: E), points: 5)]"#);
    let mut g = red_to_move(&level, 1);
    let world = g.world_for_tests_mut();
    let (r, a) = (
        warhorse::sim::world::find_figure(world, "r").expect("r"),
        warhorse::sim::world::find_figure(world, "a").expect("a"),
    );
    world.entity_mut(r).insert(CombatStatus(CombatState {
        restraining: Some("a".into()),
        ..CombatState::default()
    }));
    world.entity_mut(a).insert(CombatStatus(CombatState {
        restrained_by: vec!["r".into()],
        ..CombatState::default()
    }));
    g.order(&step_to_the_edge()).expect("one step east");
    assert!(!g.snapshot().figures.iter().any(|f| f.id == "r"), "r left");
    let world = g.world_for_tests_mut();
    let a = warhorse::sim::world::find_figure(world, "a").expect("a");
    let held = world.get::<CombatStatus>(a).expect("a's state");
    assert!(held.0.restrained_by.is_empty(), "{:?}", held.0);
}

#[test]
fn an_exit_figure_leaves_by_its_edge_and_is_not_lost() {
    let level =
        level(r#", objectives: [(side: "Red", goal: Exit(figures: ["r"], edge: E), points: 5)]"#);
    let mut g = red_to_move(&level, 1);
    g.order(&step_to_the_edge()).expect("one step east");
    let snap = g.snapshot();
    assert!(
        !snap.figures.iter().any(|f| f.id == "r"),
        "r has left the map"
    );
    assert_eq!(snap.left_the_map[0].how, "exited");
    let j = g.judge().expect("judge");
    assert_eq!(
        j.tracker.achieved[0],
        Some(1),
        "the exit objective is achieved"
    );
    // Not a win objective: the battle goes on (Red got away, so it is not eliminated), and
    // Blue scores nothing for a figure that got away.
    assert!(g.outcome().is_none());
    let t = warhorse::sim::victory::tallies(g.world_for_tests_mut());
    assert_eq!((t[0].figures_lost, t[0].figures_exited), (0, 1));
    assert_eq!((t[0].points, t[1].points), (5, 0));
}

#[test]
fn script_json_reports_the_rout() {
    let level = level("");
    let seed = (0..60)
        .find(|&s| matches!(rolled(&level, s).1, Some(Conduct::Retire { .. })))
        .expect("some seed rolls a 1");
    let dir = std::env::temp_dir().join(format!("warhorse-rout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("rout.ron");
    std::fs::write(&path, field("")).expect("written");
    let orders = dir.join("orders.ron");
    let ends = "EndSide, ".repeat(red_to_move_after(&level, seed).1);
    std::fs::write(
        &orders,
        format!("[{ends}ActionRoll(unit: \"r\"), Move(unit: \"r\", steps: [Forward])]"),
    )
    .expect("written");
    let seed_arg = seed.to_string();
    let (code, out, err) = warhorse(&[
        "script",
        path.to_str().unwrap(),
        orders.to_str().unwrap(),
        "--seed",
        &seed_arg,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["left_the_map"][0]["id"], "r", "{out}");
    assert_eq!(v["left_the_map"][0]["how"], "routed", "{out}");
    assert_eq!(v["outcome"]["routed"][0], "r", "{out}");
    assert_eq!(v["outcome"]["winner"], "Blue", "{out}");
    std::fs::remove_dir_all(&dir).ok();
}
