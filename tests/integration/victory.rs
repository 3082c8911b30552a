//! Issue 12: battles with a goal and an end. The level's victory block is checked with
//! line:column, the game's judge ends the battle (an objective, the turn limit), refuses
//! orders after it, and `warhorse sim` and `warhorse script --json` report the judge's result.

use crate::warhorse;
use warhorse::ai::{AiLevel, bout};
use warhorse::level::load_level_str;
use warhorse::rules::movement::Step;
use warhorse::sim::Game;
use warhorse::sim::order::Order;

/// Two footmen far apart on an open field; Red must bring `r` to the east edge.
fn race(victory: &str) -> String {
    format!(
        r#"Level(name: "race", ruleset: "destrier", width: 8, height: 5,
        legend: {{ '.': (name: "open", cost: 1) }},
        rows: ["........", "........", "........", "........", "........"],
        sides: [(name: "Red", control: Human), (name: "Blue", control: Human)],
        surprised: Some("Blue"),
        figures: [
            (id: "r", template: "footman", side: "Red", at: (5, 2), facing: "E"),
            (id: "b", template: "footman", side: "Blue", at: (0, 0), facing: "E"),
        ],
        victory: {victory},
    )"#
    )
}

fn errors_of(text: &str) -> String {
    match load_level_str(text, "v.ron", None) {
        Ok(_) => panic!("the level should be refused"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn check_places_each_victory_mistake_at_its_line_and_column() {
    let text = race(
        r#"(turns: 4, objectives: [
            (side: "Red", goal: Exit(figures: ["r"], edge: E)),
            (side: "Green", goal: Kill(figures: ["b"])),
            (side: "Red", goal: Hold(area: [(3, 2), (9, 9)])),
            (side: "Red", goal: Protect(figures: ["nobody"])),
            (side: "Red", goal: Kill(figures: ["r"])),
            (side: "Blue", goal: Hold(area: [(1, 1)], from_turn: 4, turns: 2)),
        ])"#,
    );
    let e = errors_of(&text);
    // `victory:` is line 10 of `race`, each objective on a line of its own after it.
    assert!(e.contains("unknown side \"Green\""), "{e}");
    assert!(e.contains("cell (9, 9) is off the 8 x 5 map"), "{e}");
    assert!(e.contains("unknown figure \"nobody\""), "{e}");
    assert!(e.contains("\"r\" is of side \"Red\" itself"), "{e}");
    assert!(e.contains("could never be achieved"), "{e}");
    let line_of = |needle: &str| {
        e.lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("{needle} in {e}"))
            .to_string()
    };
    assert!(line_of("\"Green\"").starts_with("v.ron:12:20:"), "{e}");
    assert!(line_of("(9, 9)").starts_with("v.ron:13:53:"), "{e}");
    assert!(line_of("\"nobody\"").starts_with("v.ron:14:"), "{e}");
    let e = errors_of(&race("(turns: 0)"));
    assert!(e.contains("the turn limit is 0"), "{e}");
}

#[test]
fn reaching_the_edge_ends_the_battle_and_every_later_order_is_refused() {
    let text = race(
        r#"(turns: 4, objectives: [
            (side: "Red", goal: Exit(figures: ["r"], edge: E), points: 10, wins: true, name: "get r out"),
        ])"#,
    );
    let level = load_level_str(&text, "race.ron", None).expect("loads");
    let mut g = Game::new(&level, 3);
    assert!(g.outcome().is_none());
    assert_eq!(g.snapshot().to_move.as_deref(), Some("Red"));
    g.order(&Order::Move {
        unit: "r".into(),
        steps: vec![Step::Forward, Step::Forward],
    })
    .expect("r walks to the edge");
    let out = g.outcome().expect("the battle is over").clone();
    assert_eq!(out.winner, Some(0));
    assert!(out.reason.contains("get r out"), "{}", out.reason);
    assert_eq!(out.points, vec![10, 0]);
    assert_eq!(out.turn, 1);
    let log = g.snapshot().log;
    assert!(
        log.iter()
            .any(|l| l.to_string().starts_with("The battle is over. Red wins")),
        "{log:#?}"
    );
    let refused = g
        .order(&Order::EndSide)
        .expect_err("no orders after the end");
    assert!(refused.0.contains("the battle is over"), "{}", refused.0);
    // The finished game saves and replays to the same end.
    let again = Game::from_record(g.record()).expect("replays");
    assert_eq!(again.outcome(), Some(&out));
}

#[test]
fn at_the_turn_limit_victory_points_decide() {
    // Nobody can reach anybody in one turn: Blue's lord kept alive is worth 3 points.
    let text = race(
        r#"(turns: 1, objectives: [
            (side: "Blue", goal: Protect(figures: ["b"]), points: 3),
        ])"#,
    );
    let level = load_level_str(&text, "race.ron", None).expect("loads");
    let mut g = Game::new(&level, 5);
    for _ in 0..20 {
        if g.outcome().is_some() {
            break;
        }
        g.order(&Order::EndSide).expect("ends its half-move");
    }
    let out = g.outcome().expect("over after turn 1").clone();
    assert_eq!((out.winner, out.turn), (Some(1), 1));
    assert_eq!(out.points, vec![0, 3]);
    assert!(out.reason.contains("turn limit"), "{}", out.reason);
    assert_eq!(g.snapshot().turn, 1, "no second turn begins");
}

#[test]
fn sim_reports_the_judges_result() {
    // One turn, nobody can reach anybody: Blue's figure kept alive is worth 3 points.
    let text = race(
        r#"(turns: 1, objectives: [
            (side: "Blue", goal: Protect(figures: ["b"]), points: 3),
        ])"#,
    );
    let level = load_level_str(&text, "race.ron", None).expect("loads");
    let r = bout::play(&level, 9, 5, &[AiLevel::Table, AiLevel::Table]);
    assert_eq!(r.winner.as_deref(), Some("Blue"), "{}", r.reason);
    assert!(r.reason.contains("turn limit"), "{}", r.reason);
    assert_eq!(r.points, vec![0, 3]);
    assert_eq!(r.turns, 1);
    assert!(!r.decided_early);
}

#[test]
fn script_json_carries_the_outcome() {
    let dir = std::env::temp_dir().join(format!("warhorse-victory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let level = dir.join("race.ron");
    std::fs::write(
        &level,
        race(
            r#"(turns: 3, objectives: [
            (side: "Red", goal: Exit(figures: ["r"], edge: E), wins: true),
        ])"#,
        ),
    )
    .expect("written");
    let orders = dir.join("orders.ron");
    std::fs::write(
        &orders,
        "[Move(unit: \"r\", steps: [Forward, Forward]), EndSide]",
    )
    .expect("written");
    let (code, out, err) = warhorse(&[
        "script",
        level.to_str().unwrap(),
        orders.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["outcome"]["winner"], "Red", "{out}");
    assert_eq!(v["orders"][1]["result"], "refused");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn luck_counts_every_roll_to_hit_against_its_chance() {
    let level = warhorse::level::load_level_file(std::path::Path::new("tests/fixtures/melee.ron"))
        .expect("fixture");
    let text = std::fs::read_to_string("tests/fixtures/melee.orders.ron").expect("orders");
    let orders: Vec<Order> =
        warhorse::level::load::parse_ron_text(&text, "melee.orders.ron", 1 << 20, &[])
            .expect("orders parse");
    let mut g = Game::new(&level, 3);
    for o in &orders {
        g.order(o).expect("accepted");
    }
    let t = warhorse::sim::victory::tallies(g.world_for_tests_mut());
    let log = g.snapshot().log;
    // Every blow's line says "needs N or less (…); rolls V: a hit." and carries its chance.
    let aimed: Vec<_> = log
        .iter()
        .filter(|l| l.roll.as_ref().is_some_and(|r| r.chance.is_some()))
        .collect();
    assert!(!aimed.is_empty(), "the melee rolled to hit");
    assert!(
        aimed.iter().all(|l| l.to_string().contains("needs")),
        "{aimed:#?}"
    );
    let hits = aimed
        .iter()
        .filter(|l| l.to_string().contains(": a hit"))
        .count() as u32;
    assert_eq!(t.iter().map(|s| s.hits).sum::<u32>(), hits);
    assert_eq!(
        t.iter().map(|s| s.rolls_to_hit).sum::<u32>(),
        aimed.len() as u32
    );
    let expected: i32 = aimed
        .iter()
        .map(|l| {
            l.roll
                .as_ref()
                .and_then(|r| r.chance)
                .unwrap_or(0)
                .clamp(0, 100)
        })
        .sum();
    assert_eq!(
        t.iter().map(|s| s.expected_hits_pct).sum::<u32>(),
        expected as u32
    );
}
