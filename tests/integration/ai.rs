//! The AI over whole games (I1–I4): no order the rules refuse, the same seed the same game,
//! saved AI games that replay, and decisions that never depend on hidden information.

use crate::warhorse;
use std::path::Path;
use warhorse::ai::{AiLevel, bout};
use warhorse::level::{Level, default_level, load_level_file};
use warhorse::sim::Game;
use warhorse::sim::dice::Dice;
use warhorse::sim::order::Order;
use warhorse::sim::view::View;

fn levels() -> Vec<Level> {
    let mut v = vec![default_level().expect("default level")];
    for f in ["destrier_skirmish", "asl_cavalry", "realms_ambush"] {
        v.push(load_level_file(Path::new(&format!("levels/{f}.ron"))).expect("level loads"));
    }
    v
}

/// Many seeded AI-against-AI games on every level, both strengths: the rules refuse nothing.
#[test]
fn i4_no_order_the_rules_refuse_over_many_seeded_games() {
    let mut games = 0;
    let mut orders = 0;
    let mut refused = 0;
    let mut refusals = Vec::new();
    for (li, level) in levels().iter().enumerate() {
        let seeds = if li == 0 { 0..6 } else { 0..2 };
        for seed in seeds {
            for pair in [
                [AiLevel::Table, AiLevel::Table],
                [AiLevel::Lookahead, AiLevel::Table],
                [AiLevel::Table, AiLevel::Lookahead],
                [AiLevel::Commander, AiLevel::Lookahead],
                [AiLevel::Table, AiLevel::Commander],
            ] {
                let r = bout::play(level, seed, 20, &pair);
                games += 1;
                orders += r.orders;
                refused += r.refused;
                refusals.extend(
                    r.refusals
                        .iter()
                        .map(|x| format!("{} seed {seed}: {x}", level.file.name)),
                );
            }
        }
    }
    assert!(
        orders > games * 20,
        "the AI gave orders ({orders} in {games} games)"
    );
    assert_eq!(refused, 0, "refusals:\n{}", refusals.join("\n"));
}

fn result_json(r: &bout::BoutResult) -> String {
    serde_json::to_string(r).expect("serialises")
}

#[test]
fn i4_the_same_seed_plays_the_same_game() {
    let level = default_level().expect("default");
    for pair in [
        [AiLevel::Table, AiLevel::Table],
        [AiLevel::Lookahead, AiLevel::Table],
    ] {
        let a = bout::play(&level, 42, 12, &pair);
        let b = bout::play(&level, 42, 12, &pair);
        assert_eq!(result_json(&a), result_json(&b), "timings aside, identical");
        assert!(
            !result_json(&a).contains("total_us"),
            "timings are not in the result"
        );
    }
}

/// An AI game is an ordinary record: its orders (the table rolls among them) replay into the
/// same game, log included, which is what saves and undo rely on.
#[test]
fn i4_an_ai_game_replays_from_its_record() {
    let level = default_level().expect("default");
    let mut g = Game::new(&level, 9);
    warhorse::ai::set_level(&mut g, 1, AiLevel::Lookahead);
    for _ in 0..300 {
        let Some(side) = warhorse::ai::side_to_act(&mut g) else {
            break;
        };
        let o = warhorse::ai::next_order(&mut g, side).unwrap_or(Order::EndSide);
        g.order(&o).expect("accepted");
    }
    assert!(
        g.record()
            .orders
            .iter()
            .any(|o| matches!(o, Order::ActionRoll { .. }))
    );
    let mut again = Game::from_record(g.record()).expect("replays");
    let (a, b) = (g.snapshot(), again.snapshot());
    assert_eq!(a.figures, b.figures);
    assert_eq!(a.log, b.log);
}

/// I4: the AI's view and its decisions do not change with what it must not know — the dice
/// to come, and the opponents' face-down choices.
#[test]
fn i4_no_peeking_at_hidden_state() {
    let level = default_level().expect("default");
    let mut a = Game::new(&level, 5);
    let mut b = Game::new(&level, 5);
    // The dice to come differ completely.
    b.world_for_tests_mut().insert_resource(Dice::new(999_999));
    assert_eq!(
        View::build(a.world_for_tests_mut()),
        View::build(b.world_for_tests_mut())
    );
    // The first decision of a turn is its roll: the same order in both.
    let side = warhorse::ai::side_to_act(&mut a).expect("a side moves");
    let oa = warhorse::ai::next_order(&mut a, side);
    let ob = warhorse::ai::next_order(&mut b, side);
    assert_eq!(oa, ob);
}

#[test]
fn i5_play_side_turn_and_explain() {
    let level = default_level().expect("default");
    let mut g = Game::new(&level, 3);
    // The archers' fire phase (D3) comes first; the AI plays it too (I3).
    while !g.phase().is_half_move() {
        let side = warhorse::ai::side_to_act(&mut g).expect("a side shoots");
        let shots = warhorse::ai::play_side_turn(&mut g, side, AiLevel::Table);
        assert!(shots.iter().all(|(_, r)| r.is_ok()), "{shots:?}");
    }
    let side = warhorse::ai::side_to_act(&mut g).expect("a side moves");
    let played = warhorse::ai::play_side_turn(&mut g, side, AiLevel::Table);
    assert!(played.iter().all(|(_, r)| r.is_ok()), "{played:?}");
    assert_eq!(played.last().map(|x| &x.0), Some(&Order::EndSide));
    let rolls: Vec<&Order> = played
        .iter()
        .map(|x| &x.0)
        .filter(|o| matches!(o, Order::ActionRoll { .. }))
        .collect();
    assert!(!rolls.is_empty());
    let Order::ActionRoll { unit } = rolls[0] else {
        unreachable!()
    };
    let e = warhorse::ai::explain(&g, unit).expect("explained");
    assert!(e.roll >= 1 && e.roll <= 6);
    assert_eq!(e.risk, e.terms.iter().map(|t| t.1).sum::<i32>());
    assert!(!e.action.is_empty() && !e.conduct.is_empty());
    assert!(!warhorse::ai::waits_for(&mut g, side));
}

/// A footman of each side in contact; Red is surprised, so Blue has the initiative and Red
/// may not walk out of the contact (D16).
fn contact_game() -> Game {
    let text = r#"Level(name: "contact", ruleset: "destrier", width: 12, height: 8,
        legend: { '.': (name: "open", cost: 1) },
        rows: ["............", "............", "............", "............",
               "............", "............", "............", "............"],
        sides: [(name: "Red", control: Ai), (name: "Blue", control: Human)],
        surprised: Some("Red"),
        figures: [
            (id: "r", template: "footman", side: "Red", at: (5, 4), facing: "E"),
            (id: "b", template: "footman", side: "Blue", at: (6, 4), facing: "W"),
        ])"#;
    let level = warhorse::level::load_level_str(text, "<contact>", None).expect("loads");
    let mut g = Game::new(&level, 11);
    warhorse::ai::set_level(&mut g, 0, AiLevel::Lookahead);
    // Red by the AI, Blue ends its half-moves, until the melee waits for cards.
    for _ in 0..100 {
        if g.snapshot().to_choose.len() == 2 {
            break;
        }
        match warhorse::ai::side_to_act(&mut g) {
            Some(0) => {
                let o = warhorse::ai::next_order(&mut g, 0).unwrap_or(Order::EndSide);
                g.order(&o).expect("accepted");
            }
            _ => g.order(&Order::EndSide).expect("accepted"),
        }
    }
    g
}

#[test]
fn i4_face_down_cards_stay_hidden_from_the_ai() {
    use warhorse::rules::melee::cards::{MeleeCard, TacCard};
    let mut a = contact_game();
    let mut b = contact_game();
    assert_eq!(
        a.snapshot().to_choose,
        vec!["b".to_string(), "r".to_string()]
    );
    a.order(&Order::PlayCards {
        unit: "b".into(),
        tac: Some(TacCard::StandGround),
        tac_target: None,
        melee: vec![MeleeCard::DeliverBlow { target: "r".into() }],
    })
    .expect("Blue's blow, face down");
    b.order(&Order::Pass { unit: "b".into() })
        .expect("Blue passes, face down");
    let oa = warhorse::ai::next_order(&mut a, 0).expect("Red must choose");
    let ob = warhorse::ai::next_order(&mut b, 0).expect("Red must choose");
    assert_eq!(oa, ob, "the AI cannot tell what Blue played");
    assert!(matches!(oa, Order::PlayCards { .. } | Order::Pass { .. }));
    a.order(&oa).expect("the AI's cards are legal");
}

/// Two knights facing each other across an open field; Red is played by hand.
fn charge_game(seed: u64) -> Game {
    let text = r#"Level(name: "joust", ruleset: "destrier", width: 20, height: 9,
        legend: { '.': (name: "open", cost: 1) },
        rows: ["....................", "....................", "....................",
               "....................", "....................", "....................",
               "....................", "....................", "...................."],
        sides: [(name: "Red", control: Human), (name: "Blue", control: Ai)],
        figures: [
            (id: "r", template: "knight_on_destrier", side: "Red", at: (5, 4), facing: "E", gait: Trot),
            (id: "b", template: "knight_on_destrier", side: "Blue", at: (12, 4), facing: "W", gait: Trot),
        ])"#;
    let level = warhorse::level::load_level_str(text, "<joust>", None).expect("loads");
    let mut g = Game::new(&level, seed);
    warhorse::ai::set_level(&mut g, 1, AiLevel::Lookahead);
    g
}

#[test]
fn i4_undeclared_charges_stay_hidden_from_the_ai() {
    // Find a seed where both knights must write their charge orders in turn 1.
    let seed = (0..50)
        .find(|&s| charge_game(s).snapshot().to_declare.len() == 2)
        .expect("a seed with both knights declaring");
    let mut a = charge_game(seed);
    let mut b = charge_game(seed);
    a.order(&Order::DeclareCharge {
        unit: "r".into(),
        targets: vec!["b".into()],
    })
    .expect("Red charges, face down");
    b.order(&Order::NoCharge { unit: "r".into() })
        .expect("Red does not, face down");
    // Up to the reveal (Blue's own declaration is the last face-down order) Blue's orders —
    // its table roll, then its declaration — are the same either way.
    let mut declared = false;
    for _ in 0..20 {
        let oa = warhorse::ai::next_order(&mut a, 1);
        let ob = warhorse::ai::next_order(&mut b, 1);
        assert_eq!(oa, ob, "Blue cannot tell what Red wrote");
        let Some(o) = oa else { break };
        declared = matches!(o, Order::DeclareCharge { .. } | Order::NoCharge { .. });
        a.order(&o).expect("accepted");
        b.order(&o).expect("accepted");
        if declared {
            break;
        }
    }
    assert!(declared, "Blue wrote its charge orders");
}

/// `warhorse sim`: winners, turns, losses and a timing summary per phase; the same seed
/// prints the same results (the timings, which differ from run to run, aside).
#[test]
fn i6_warhorse_sim_reports_and_replays_by_seed() {
    let args = [
        "sim",
        "levels/default.ron",
        "--seed",
        "3",
        "--games",
        "2",
        "--turns",
        "4",
        "--red",
        "lookahead",
        "--blue",
        "table",
    ];
    let (code, a, _) = warhorse(&args);
    assert_eq!(code, 0, "{a}");
    let (_, b, _) = warhorse(&args);
    let results = |s: &str| s.split("\nTiming").next().unwrap_or("").to_string();
    assert_eq!(results(&a), results(&b), "same seed, same results");
    assert!(a.contains("red plays lookahead, blue plays table"), "{a}");
    for seed in ["seed    3:", "seed    4:"] {
        assert!(a.contains(seed), "one line a game: {a}");
    }
    assert!(a.contains("after  4 turns") || a.contains("turns ("), "{a}");
    assert!(a.contains("Red lost ") && a.contains("Blue lost "), "{a}");
    assert!(a.contains("Wins: ") && a.contains(", 0 refused."), "{a}");
    assert!(
        a.contains("Actions-table rolls: ") && a.contains("on a flank or the rear"),
        "{a}"
    );
    assert!(a.contains("Timing") && a.contains("first half-move"), "{a}");

    let mut json_args = args.to_vec();
    json_args.push("--json");
    let strip = |s: &str| {
        let mut v: serde_json::Value = serde_json::from_str(s).expect("JSON");
        assert!(v["timing"]["phases"].is_object(), "timing per phase");
        v.as_object_mut().expect("object").remove("timing");
        v
    };
    let (_, ja, _) = warhorse(&json_args);
    let (_, jb, _) = warhorse(&json_args);
    let (va, vb) = (strip(&ja), strip(&jb));
    assert_eq!(va, vb, "same seed, same JSON results");
    let games = va["games"].as_array().expect("games");
    assert_eq!(games.len(), 2);
    for g in games {
        assert!(g["turns"].as_u64().is_some_and(|t| (1..=4).contains(&t)));
        assert!(g.get("winner").is_some());
        assert_eq!(g["refused"], 0);
        for s in g["sides"].as_array().expect("sides") {
            assert!(s["lost"].as_u64().is_some());
        }
    }
    assert_eq!(va["summary"]["games"], 2);
    // Every game rolls the table for its uncommanded units, and a roll with the flank term is
    // one of the rolls.
    let rolls = &va["summary"]["rolls"];
    let total = rolls["rolls"].as_u64().expect("rolls");
    assert!(total > 0, "{rolls}");
    assert!(rolls["flank_or_rear"].as_u64().expect("flank") <= total);
}

/// Every `.rs` file under `dir`, recursively, with its text.
fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for e in std::fs::read_dir(dir).expect("source folder reads") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let text = std::fs::read_to_string(&p).expect("source reads");
            out.push((p.display().to_string(), text));
        }
    }
}

/// The places in `code` (comments left out) that name the AI module: `crate::ai`,
/// `super::ai`, `warhorse::ai` or any path segment `ai::`.
fn names_ai(code: &str) -> Vec<String> {
    code.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .filter(|l| {
            l.match_indices("ai::").any(|(at, _)| {
                l[..at]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
            })
        })
        .map(str::to_string)
        .collect()
}

/// Issue 13 item 4, "the table is a rule, the AI a player": the actions table (I1–I2) is
/// applied by the simulation, and nothing in the rules, the simulation or the levels reaches
/// up into the AI. A side's strength is named by the seat (`sim::seat`), which the AI reads.
#[test]
fn i2_rules_sim_and_levels_depend_on_nothing_in_the_ai() {
    let mut files = Vec::new();
    for dir in ["src/rules", "src/sim", "src/level"] {
        sources(Path::new(dir), &mut files);
    }
    assert!(
        files.len() > 20,
        "the scan found the sources ({})",
        files.len()
    );
    let offending: Vec<String> = files
        .iter()
        .flat_map(|(p, t)| names_ai(t).into_iter().map(move |l| format!("{p}: {l}")))
        .collect();
    assert!(offending.is_empty(), "{offending:#?}");
    // The scan itself finds what it looks for.
    assert_eq!(names_ai("use crate::ai::roll;").len(), 1);
    assert_eq!(names_ai("x(); // see ai::plan").len(), 0);
    assert_eq!(
        names_ai("let x = crate::sim::seat::Strength::Table;").len(),
        0
    );
}

/// Issue 13, item 5: `warhorse tournament` plays each seed in both seatings. A level against
/// itself therefore wins exactly as often as it loses, the table has a row for the level and
/// one pooled, and the JSON says the same; a level file that does not load is an error (2).
#[test]
fn i13_warhorse_tournament_plays_both_seatings_of_each_seed() {
    let args = [
        "tournament",
        "tests/levels/charge_joust.ron",
        "--pairs",
        "3",
        "--a",
        "table",
        "--b",
        "table",
    ];
    let (code, out, err) = warhorse(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("seeds 0–2"), "{out}");
    let row = out
        .lines()
        .find(|l| l.starts_with("| The Charge |"))
        .unwrap_or_else(|| panic!("a row for the level: {out}"));
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    assert_eq!(cells[2], "6", "three seeds, two seatings each: {row}");
    assert_eq!(cells[3], cells[4], "a level against itself: {row}");
    assert!(out.contains("| **all levels** | 6 |"), "{out}");
    let (code, json, _) = warhorse(&[&args[..], &["--json"]].concat());
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(v["rows"][0]["tally"]["games"], 6);
    assert_eq!(v["rows"][0]["tally"]["refused"], 0);
    assert_eq!(
        v["pooled"]["tally"]["b_wins"],
        v["pooled"]["tally"]["a_wins"]
    );
    let (code, _, err) = warhorse(&["tournament", "levels/no_such_level.ron", "--pairs", "1"]);
    assert_eq!(code, 2, "{err}");
}

/// The exploitation test's opponent (issue 13): `--a-fixed` seats `a` under the fixed
/// counter-strategy (`Fixed::back_and_parry`, unit-tested in `ai::tests_command`), says so in
/// the table's header and the JSON, and its games are played without a refused order.
#[test]
fn i13_the_tournament_seats_the_fixed_counter_strategy() {
    let args = [
        "tournament",
        "tests/levels/charge_joust.ron",
        "levels/supplement_patrol.ron",
        "--pairs",
        "4",
        "--a",
        "table",
        "--b",
        "commander",
        "--json",
    ];
    let (code, plain, err) = warhorse(&args);
    assert_eq!(code, 0, "{err}");
    let (code, fixed, err) = warhorse(&[&args[..], &["--a-fixed"]].concat());
    assert_eq!(code, 0, "{err}");
    let p: serde_json::Value = serde_json::from_str(&plain).expect("JSON");
    let f: serde_json::Value = serde_json::from_str(&fixed).expect("JSON");
    assert_eq!(p["a_fixed"], false);
    assert_eq!(f["a_fixed"], true);
    assert_eq!(f["pooled"]["tally"]["games"], 16);
    assert_eq!(f["pooled"]["tally"]["refused"], 0);
    let (code, text, _) = warhorse(&[&args[..9], &["--a-fixed"]].concat());
    assert_eq!(code, 0);
    assert!(text.contains("every dodge guessed Back"), "{text}");
}
