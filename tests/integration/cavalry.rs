//! Charges, mounts and horses through the real game: charge declarations that wait only when
//! a mounted figure could charge (D2), the charge level replayed through `warhorse script`
//! (C1–C8), the spacing rules (C6), ASL's Charge, Cavalry Wave and led horses (A16–A18), horse
//! capacity (A5), and the desktop game's lists.

use crate::warhorse;
use std::path::Path;
use warhorse::level::{load_level_file, load_level_str_with};
use warhorse::rules::gait::Gait;
use warhorse::sim::Game;
use warhorse::sim::order::Order;
use warhorse::sim::phase::Phase;

mod a16;
mod d1;

fn script(level: &str, orders: &str, seed: u64) -> (String, serde_json::Value) {
    let seed = seed.to_string();
    let (code, out, err) = warhorse(&["script", level, orders, "--seed", &seed, "--json"]);
    assert_eq!(code, 0, "script failed: {err}");
    let v = serde_json::from_str(&out).expect("script prints JSON");
    (out, v)
}

fn results(v: &serde_json::Value) -> Vec<String> {
    v["orders"]
        .as_array()
        .expect("orders")
        .iter()
        .map(|o| o["result"].as_str().unwrap_or("?").to_string())
        .collect()
}

fn log_text(v: &serde_json::Value) -> String {
    v["log"]
        .as_array()
        .expect("log")
        .iter()
        .map(|l| l["text"].as_str().unwrap_or("").to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

fn figure<'a>(v: &'a serde_json::Value, id: &str) -> Option<&'a serde_json::Value> {
    v["figures"]
        .as_array()
        .expect("figures")
        .iter()
        .find(|f| f["id"] == id)
}

fn game(path: &str, seed: u64) -> Game {
    Game::new(
        &load_level_file(Path::new(path)).expect("level loads"),
        seed,
    )
}

const LEVEL: &str = "tests/levels/charge_joust.ron";
const ORDERS: &str = "tests/fixtures/charge_level.orders.ron";

#[test]
fn d2_no_mounted_figure_can_charge_so_the_phase_passes() {
    let mut g = game("tests/fixtures/field.ron", 1);
    // Past the declarations: the fire phase (D3) or the first half-move.
    assert!(
        matches!(g.phase(), Phase::FireFirst | Phase::FirstHalfMove),
        "{:?}",
        g.phase()
    );
    let s = g.snapshot();
    assert!(s.to_declare.is_empty());
    assert!(
        s.log
            .iter()
            .any(|l| l.to_string().contains("No mounted figure can charge")),
        "{:?}",
        s.log
    );
}

#[test]
fn d2_declarations_wait_face_down_and_the_snapshot_says_who() {
    let mut g = game(LEVEL, 1);
    assert_eq!(g.phase(), Phase::ChargeDeclaration);
    let s = g.snapshot();
    assert_eq!(s.to_declare, ["sir_baldwin", "sir_gaston", "sir_roland"]);
    // Movement waits for the charges.
    let why = g
        .order(&Order::Move {
            unit: "foot_1".into(),
            steps: vec![warhorse::rules::movement::Step::Forward],
        })
        .unwrap_err();
    assert!(why.0.contains("half-moves"), "{why}");
    // A footman has no charge to declare; a knight declares once.
    assert!(
        g.order(&Order::NoCharge {
            unit: "foot_1".into()
        })
        .is_err()
    );
    g.order(&Order::DeclareCharge {
        unit: "sir_roland".into(),
        targets: vec!["sir_gaston".into()],
    })
    .unwrap();
    let again = g.order(&Order::NoCharge {
        unit: "sir_roland".into(),
    });
    assert!(again.unwrap_err().0.contains("already"));
    // Face down: the log names who wrote, never whom.
    let log = g.snapshot().log;
    let last = &log.last().unwrap().to_string();
    assert!(
        last.contains("face down") && !last.contains("gaston"),
        "{last}"
    );
    // A mount's id stands for its rider.
    g.order(&Order::NoCharge {
        unit: "sir_gaston.mount".into(),
    })
    .unwrap();
    // EndSide passes for everyone still to write; the charged figure then answers.
    g.order(&Order::EndSide).unwrap();
    assert_eq!(g.phase(), Phase::ChargeDeclaration);
    assert_eq!(g.snapshot().to_declare, ["sir_gaston"]);
    g.order(&Order::EndSide).unwrap();
    let s = g.snapshot();
    assert!(
        s.log
            .iter()
            .any(|l| l.to_string().contains("revealed together"))
    );
    assert!(
        s.log
            .iter()
            .any(|l| l.to_string().contains("sir_roland charges sir_gaston"))
    );
    assert!(
        s.log
            .iter()
            .any(|l| l.to_string().contains("sir_gaston: no charge"))
    );
    assert_eq!(g.phase(), Phase::FirstHalfMove);
    // A lone charge against a figure riding away: released when it falls short (C6).
    assert!(
        s.log.iter().any(|l| l
            .to_string()
            .contains("sir_roland charges sir_gaston at the gallop")),
        "{:?}",
        s.log
    );
}

#[test]
fn c1_c8_the_charge_level_replays_and_reads_like_the_seed() {
    let (a, v) = script(LEVEL, ORDERS, 7);
    let (b, _) = script(LEVEL, ORDERS, 7);
    assert_eq!(a, b, "the same seed and orders replay identically");
    assert_eq!(results(&v), ["accepted"; 8], "{v:#}");
    let log = log_text(&v);
    for phrase in [
        "write their charge orders face down",
        "revealed together (C1)",
        "choose, face down, a TAC card and a MELEE card",
        "Charges are resolved first (D4)",
        "Mutual charge (C2): ",
        "ride at each other, moving together",
        "pas des armes",
        "sir_roland strikes before sir_gaston: the superior mount",
        "with its lance",
        "(C3)",
        "sir_baldwin charges foot_1, then foot_2, then foot_3 at the gallop",
        "bashes foot_1 as it passes (C6)",
        "slows sir_baldwin.mount by 2\" (C6) and one speed category",
        "K4: 1d6 rolls",
        "K2: sir_baldwin +10% (charging shock cavalry)",
        // C4–C5: foot_3's KEEP DISTANCE moves it back as the horse closes.
        "As sir_baldwin's horse closes, foot_3 turns up KEEP DISTANCE, and retreats",
    ] {
        assert!(log.contains(phrase), "missing {phrase:?} in:\n{log}");
    }
    // Every seed gives a legal, complete game: both knights passed each other.
    for seed in 1..6 {
        let (_, v) = script(LEVEL, ORDERS, seed);
        assert_eq!(results(&v), ["accepted"; 8]);
        let roland = figure(&v, "sir_roland.mount").expect("Roland's horse");
        let gaston = figure(&v, "sir_gaston.mount").expect("Gaston's horse");
        assert!(
            roland["cell"][0].as_i64() > gaston["cell"][0].as_i64(),
            "seed {seed}: they passed"
        );
    }
}

#[test]
fn c6_a_multi_target_charge_breaking_the_spacing_is_refused() {
    let (_, v) = script(
        "tests/fixtures/charge_spacing.ron",
        "tests/fixtures/charge_spacing.orders.ron",
        3,
    );
    assert_eq!(
        results(&v),
        [
            "refused", "refused", "refused", "accepted", "accepted", "accepted"
        ],
        "{v:#}"
    );
    let reason = |i: usize| v["orders"][i]["reason"].as_str().unwrap_or("").to_string();
    assert!(
        reason(0).starts_with("C6:") && reason(0).contains("3\""),
        "{}",
        reason(0)
    );
    assert!(
        reason(1).starts_with("C6:") && reason(1).contains("6\""),
        "{}",
        reason(1)
    );
    assert!(reason(2).contains("cannot charge"), "{}", reason(2));
    let log = log_text(&v);
    assert!(log.contains("knight charges f1, then f3"), "{log}");
    // f2, passed on the way, is bashed though not a target (C6).
    assert!(log.contains("bashes f2 as it passes"), "{log}");
}

#[test]
fn c7_the_target_list_names_the_rule() {
    let mut g = game("tests/fixtures/charge_spacing.ron", 1);
    let world = g.world_for_tests_mut();
    let list = warhorse::sim::charge::charge_targets(world, "knight");
    let get = |id: &str| list.iter().find(|(t, _)| t == id).map(|x| x.1.clone());
    assert_eq!(get("f1"), Some(Ok(())));
    assert!(get("f3").is_some());
    let walker = warhorse::sim::charge::charge_targets(world, "walker");
    assert!(
        walker
            .iter()
            .all(|(_, r)| r.as_ref().is_err_and(|e| e.starts_with("C7:"))),
        "{walker:?}"
    );
    let seen = warhorse::sim::charge::visible(world, "knight");
    assert!(seen.contains(&"f4".to_string()) && !seen.contains(&"knight".to_string()));
}

#[test]
fn k1_a_gallop_charge_counts_as_a_gallop_turn() {
    let mut g = game(LEVEL, 2);
    g.order(&Order::DeclareCharge {
        unit: "sir_roland".into(),
        targets: vec!["sir_gaston".into()],
    })
    .unwrap();
    g.order(&Order::DeclareCharge {
        unit: "sir_gaston".into(),
        targets: vec!["sir_roland".into()],
    })
    .unwrap();
    g.order(&Order::NoCharge {
        unit: "sir_baldwin".into(),
    })
    .unwrap();
    assert_eq!(g.phase(), Phase::FirstHalfMove);
    // The charged steed has used its movement for this half-move (it rode it all).
    let f = g
        .snapshot()
        .figures
        .into_iter()
        .find(|f| f.id == "sir_roland.mount")
        .unwrap();
    assert_eq!(f.gait, "gallop");
    let why = g
        .order(&Order::SetGait {
            unit: "sir_roland".into(),
            gait: Gait::Trot,
        })
        .unwrap_err();
    // D5 (it has moved), or it is down after the joust.
    assert!(!why.0.is_empty());
}

const ASL: &str = "tests/fixtures/asl_charge.ron";

#[test]
fn a16_asl_charge_through_the_script() {
    for seed in [1, 3, 5] {
        let (_, v) = script(ASL, "tests/fixtures/asl_charge.orders.ron", seed);
        assert_eq!(results(&v), ["refused", "accepted", "accepted"], "{v:#}");
        let log = log_text(&v);
        for phrase in [
            "declares a Gallop",
            "declares a Charge against sov in (9,2) (A16)",
            "8 MF to enter plus 3 MF for the Charge (A16)",
            "sov fires at the charging cav at triple point blank",
            "against cavalry (A12) +20",
            "against cav's horses (A14)",
        ] {
            assert!(
                log.contains(phrase),
                "seed {seed}: missing {phrase:?}:\n{log}"
            );
        }
        if figure(&v, "cav").is_some_and(|c| c["mounted_on"].is_string()) {
            assert!(log.contains("not halved for mounted fire nor penalised for CX (A11, A16)"));
            // 20 MF - 8 - 3 = 9 left on the horse.
            assert_eq!(figure(&v, "cav.mount").unwrap()["allowance_left"], "9");
        }
    }
}

#[test]
fn a16_charge_range_and_sight() {
    let mut g = game(ASL, 1);
    // Moved next to the Soviets first, the range is under 3.
    let step = warhorse::rules::movement::Step::Go(warhorse::rules::grid::Dir(1));
    g.order(&Order::Move {
        unit: "cav".into(),
        steps: vec![step; 6],
    })
    .unwrap();
    let why = g
        .order(&Order::DeclareCharge {
            unit: "cav".into(),
            targets: vec!["sov".into()],
        })
        .unwrap_err();
    assert!(why.0.contains("at least 3"), "{why}");
}

#[test]
fn a17_cavalry_wave() {
    let (_, v) = script(ASL, "tests/fixtures/asl_wave.orders.ron", 1);
    assert_eq!(results(&v), ["accepted"], "{v:#}");
    let log = log_text(&v);
    assert!(log.contains("A Cavalry Wave (A17): cav, cav_b, cav_leader gallop together"));
    assert!(log.contains("cav declares a Charge against sov"));
    for id in ["cav.mount", "cav_b.mount", "cav_leader.mount"] {
        assert_eq!(figure(&v, id).unwrap()["gait"], "gallop", "{id}");
    }
}

#[test]
fn a18_led_and_captured_horses() {
    let (_, v) = script(ASL, "tests/fixtures/asl_lead.orders.ron", 1);
    assert_eq!(
        results(&v),
        [
            "refused", "accepted", "accepted", "accepted", "accepted", "accepted"
        ],
        "{v:#}"
    );
    assert!(
        v["orders"][0]["reason"]
            .as_str()
            .unwrap()
            .starts_with("A18:")
    );
    let spare = figure(&v, "spare").unwrap();
    assert_eq!(
        spare["cell"],
        serde_json::json!([7, 6]),
        "it followed its leader"
    );
    let stray = figure(&v, "sov_horse").unwrap();
    assert_eq!(stray["side"], "Germans", "captured");
    assert!(log_text(&v).contains("captures sov_horse"));
}

#[test]
fn a18_a_leader_eliminates_a_horse_he_leads() {
    let (_, v) = script(ASL, "tests/fixtures/asl_eliminate.orders.ron", 1);
    assert_eq!(
        results(&v),
        ["refused", "accepted", "refused", "accepted", "accepted"],
        "{v:#}"
    );
    let why = v["orders"][2]["reason"].as_str().unwrap();
    assert!(
        why.starts_with("A18:") && why.contains("does not lead"),
        "{why}"
    );
    assert!(figure(&v, "spare").is_none(), "the horse is removed");
    assert!(log_text(&v).contains("leader eliminates spare, as it would a support weapon"));
}

#[test]
fn a5_a_leader_mounting_a_squad_horse_counter_gets_a_horse_of_his_own() {
    let mut rules = warhorse::level::builtin_ruleset("asl").expect("asl");
    let mut squad_horses = rules.templates["smc_horse"].clone();
    squad_horses.name = "Squad horses".into();
    squad_horses.body = 3;
    rules.templates.insert("squad_horses".into(), squad_horses);
    let text = std::fs::read_to_string(ASL).unwrap().replace(
        r#"(id: "spare", template: "smc_horse""#,
        r#"(id: "spare", template: "squad_horses""#,
    );
    let level = load_level_str_with(&text, ASL, rules).expect("level with squad horses");
    let mut g = Game::new(&level, 1);
    let step = warhorse::rules::movement::Step::Go(warhorse::rules::grid::Dir(1));
    g.order(&Order::Move {
        unit: "leader".into(),
        steps: vec![step],
    })
    .unwrap();
    g.order(&Order::Mount {
        unit: "leader".into(),
        horse: "spare".into(),
    })
    .unwrap();
    let s = g.snapshot();
    let leader = s.figures.iter().find(|f| f.id == "leader").unwrap();
    assert_eq!(leader.mounted_on.as_deref(), Some("spare.smc"));
    let spare = s.figures.iter().find(|f| f.id == "spare").unwrap();
    assert_eq!(
        spare.body,
        [3, 3],
        "the squad counter keeps its three horses"
    );
    assert!(s.log.iter().any(|l| l.to_string().contains("(A5)")));
}

#[test]
fn a7_a10_a_gallop_declared_at_the_start_or_during_the_mph() {
    let mut g = game(ASL, 1);
    let horse = |g: &mut Game, id: &str| {
        g.snapshot()
            .figures
            .into_iter()
            .find(|f| f.id == id)
            .expect("horse")
    };
    // A7: 12 MF.
    assert_eq!(horse(&mut g, "cav.mount").allowance_left, "12");
    // A10: declared at the start, +8 (20 MF) and the horse is exhausted.
    let gallop = |unit: &str| Order::SetGait {
        unit: unit.into(),
        gait: Gait::Gallop,
    };
    g.order(&gallop("cav")).unwrap();
    assert_eq!(horse(&mut g, "cav.mount").allowance_left, "20");
    let log = g.snapshot().log;
    assert!(
        log.last().unwrap().to_string().contains("+8 MF")
            && log.last().unwrap().to_string().contains("CX (A10)"),
        "{:?}",
        log.last()
    );
    assert!(g.order(&gallop("cav")).unwrap_err().0.starts_with("A10:"));
    // Declared after a hex of movement, +4: 16 MF, 15 left.
    let step = warhorse::rules::movement::Step::Go(warhorse::rules::grid::Dir(1));
    g.order(&Order::Move {
        unit: "cav_b".into(),
        steps: vec![step],
    })
    .unwrap();
    g.order(&gallop("cav_b")).unwrap();
    assert_eq!(horse(&mut g, "cav_b.mount").allowance_left, "15");
    assert!(
        g.snapshot()
            .log
            .last()
            .unwrap()
            .to_string()
            .contains("+4 MF")
    );
}

const TURN: &str = "tests/fixtures/charge_turn.ron";

#[test]
fn c6_a_charge_turns_between_its_targets_through_the_script() {
    let (a, v) = script(TURN, "tests/fixtures/charge_turn.orders.ron", 4);
    let (b, _) = script(TURN, "tests/fixtures/charge_turn.orders.ron", 4);
    assert_eq!(a, b, "replays identically");
    assert_eq!(results(&v), ["accepted"; 5], "{v:#}");
    let log = log_text(&v);
    for phrase in [
        "knight charges f1, then f2 at the gallop, straight ahead and turning between its targets",
        "comes within reach of f1 on the right of its steed",
        "Past f1, knight veers onto the left diagonal at (5,5) towards f2 (C6",
        "comes within reach of f2 on the right of its steed",
    ] {
        assert!(log.contains(phrase), "missing {phrase:?} in:\n{log}");
    }
}

#[test]
fn c5_an_answer_must_be_a_tac_card_the_figure_may_play() {
    let mut g = game(LEVEL, 7);
    for (u, t) in [
        ("sir_roland", "sir_gaston"),
        ("sir_gaston", "sir_roland"),
        ("sir_baldwin", "foot_1"),
    ] {
        g.order(&Order::DeclareCharge {
            unit: u.into(),
            targets: vec![t.into()],
        })
        .unwrap();
    }
    use warhorse::rules::charge::ride::Reply;
    use warhorse::rules::melee::cards::TacCard;
    // A partly encumbered footman may not FLECHE (§6: unencumbered figures only) …
    let why = g
        .order(&Order::AnswerCharge {
            unit: "foot_1".into(),
            tac: TacCard::Fleche,
            reply: Reply::DeliverBlow,
        })
        .unwrap_err();
    assert!(
        why.0.starts_with("C5: §6") && why.0.contains("FLECHE"),
        "{why}"
    );
    // … but may RETREAT before the horse.
    g.order(&Order::AnswerCharge {
        unit: "foot_1".into(),
        tac: TacCard::Retreat,
        reply: Reply::DeliverBlow,
    })
    .unwrap();
}

/// The side to move's first half-move of turn 1, the fire phase ended (nothing in range).
fn asl_half_move() -> Game {
    let mut g = game("tests/levels/kolkhoz_close.ron", 1);
    while !g.phase().is_half_move() {
        g.order(&Order::EndSide).expect("ends a fire sub-step");
    }
    g
}

/// Steps from `from`'s hex straight into `to`'s, one hex at a time.
fn path_into(g: &mut Game, from: &str, to: &str) -> Vec<warhorse::rules::movement::Step> {
    let s = g.snapshot();
    let at = |id: &str| {
        let c = s.figures.iter().find(|f| f.id == id).expect("figure").cell;
        warhorse::rules::grid::Cell::new(c[0], c[1])
    };
    let (mut a, b) = (at(from), at(to));
    let grid = warhorse::rules::grid::GridKind::Hex;
    let mut steps = Vec::new();
    while let Some(d) = grid.dir_towards(a, b) {
        steps.push(warhorse::rules::movement::Step::Go(d));
        a = grid.neighbour(a, d);
    }
    steps
}

#[test]
fn d10a_over_a2_one_unit_a_hex_but_riderless_horses_stack() {
    let mut g = asl_half_move();
    let side = g
        .snapshot()
        .figures
        .iter()
        .find(|f| f.id == "leader")
        .unwrap()
        .side
        .clone();
    if g.snapshot().to_move.as_deref() != Some(side.as_str()) {
        g.order(&Order::EndSide)
            .expect("the Soviets end their half-move");
    }
    // A2: the leader walks into the riderless horse's hex.
    let into_horse = path_into(&mut g, "leader", "leader_horse");
    assert_eq!(into_horse.len(), 1, "the leader stands next to its horse");
    g.order(&Order::Move {
        unit: "leader".into(),
        steps: into_horse,
    })
    .expect("riderless horses do not count for stacking (A2)");
    // D10a: another unit's hex is never shared, even a friend's: the move is refused and
    // nothing changes.
    let before = g.snapshot();
    let steps = path_into(&mut g, "cav_leader", "cav_1");
    let r = g.order(&Order::Move {
        unit: "cav_leader".into(),
        steps,
    });
    let why = r.expect_err("a unit may not end in a friend's hex").0;
    assert!(why.contains("D10a"), "{why}");
    assert_eq!(
        g.snapshot().figures,
        before.figures,
        "a refused order leaves the world as it was"
    );
}

#[test]
fn a_riderless_horse_beside_an_enemy_makes_no_melee() {
    // The leader's spare horse stands alone next to a Soviet squad; the leader is far away.
    let text = std::fs::read_to_string("tests/levels/kolkhoz_close.ron")
        .unwrap()
        .replace(
            r#"(id: "sov_3", template: "squad", side: "Soviets", at: (10, 7)"#,
            r#"(id: "sov_3", template: "squad", side: "Soviets", at: (4, 7)"#,
        )
        .replace(
            r#"(id: "leader", template: "leader", side: "Germans", at: (2, 7)"#,
            r#"(id: "leader", template: "leader", side: "Germans", at: (2, 0)"#,
        );
    assert!(text.contains("at: (4, 7)") && text.contains("at: (2, 0)"));
    let level = load_level_str_with(
        &text,
        "asl_cavalry.ron",
        warhorse::level::builtin_ruleset("asl").expect("asl"),
    )
    .expect("level");
    let mut g = Game::new(&level, 3);
    for _ in 0..40 {
        if matches!(
            g.phase(),
            Phase::Tac | Phase::MeleeRounds | Phase::EndOfTurn
        ) {
            break;
        }
        if g.order(&Order::EndSide).is_err() {
            break;
        }
    }
    let log: Vec<String> = g.snapshot().log.iter().map(|l| l.to_string()).collect();
    assert!(
        !log.iter().any(|l| l.starts_with("Melee:  take part")),
        "no melee without a fighter: {log:#?}"
    );
    assert!(
        log.iter()
            .any(|l| l.contains("there is no melee this turn")),
        "{log:#?}"
    );
}
