//! The melee (D6–D12, §6) through the real binary and the `Game` API: a scripted turn of the
//! card system replays byte for byte and reads like a turn of the tabletop game; choices stay
//! face down until all are in; cards that may not be played are refused with their rule; the
//! seed 002 spell example happens in play.

use std::process::Command;
use warhorse::level::load_level_file;
use warhorse::rules::melee::cards::{MeleeCard, TacCard};
use warhorse::sim::Game;
use warhorse::sim::order::Order;
use warhorse::sim::phase::Phase;

fn script(level: &str, orders: &str, seed: u64) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_warhorse"))
        .args([
            "script",
            level,
            orders,
            "--seed",
            &seed.to_string(),
            "--json",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the warhorse binary runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

fn log_texts(v: &serde_json::Value) -> Vec<String> {
    v["log"]
        .as_array()
        .expect("log")
        .iter()
        .map(|l| l["text"].as_str().unwrap_or("").to_string())
        .collect()
}

const LEVEL: &str = "tests/fixtures/melee.ron";
const ORDERS: &str = "tests/fixtures/melee.orders.ron";

#[test]
fn a_scripted_melee_replays_identically_and_reads_like_a_turn() {
    let a = script(LEVEL, ORDERS, 3);
    let b = script(LEVEL, ORDERS, 3);
    assert_eq!(a, b, "same seed, same orders, same bytes");
    let v: serde_json::Value = serde_json::from_str(&a).expect("json");
    for o in v["orders"].as_array().expect("orders") {
        assert_eq!(o["result"], "accepted", "{o}");
    }
    let log = log_texts(&v);
    let has = |s: &str| log.iter().any(|l| l.contains(s));
    for line in [
        "Melee: blue_foot_1, blue_foot_2, knight, knight.mount, red_foot take part",
        "Waiting for a TAC card and MELEE cards, face down, from:",
        "knight chooses its cards, face down.",
        "TAC phase — cards face up: blue_foot_1: STAND GROUND + WEAPON PARRY;",
        "knight plays DELIVER BLOW at blue_foot_1 with its lance (H) through the front side: needs",
        "Before the DODGE cards are faced: knight guesses which way blue_foot_1 dodges",
        "Card round 1 — cards face up: blue_foot_1: DODGE BACK",
        "End of choosing:",
        "The melee phase ends",
    ] {
        assert!(has(line), "no log line with {line:?}:\n{}", log.join("\n"));
    }
    // Every die is in the log with what it decided.
    let rolls = v["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["phase"] == "TAC phase" && l["roll"].is_object())
        .count();
    assert!(rolls >= 5, "{rolls} rolls in the TAC phase");
    // The melee took both Blue footmen out of the fight, and with them the battle: the judge
    // ends it in turn 1 (issue 12) instead of starting a turn nobody can fight.
    assert_eq!(v["turn"], 1);
    assert_eq!(v["outcome"]["winner"], "Red", "{}", v["outcome"]);
    assert!(has(
        "The battle is over. Red wins: every enemy figure is out of the fight."
    ));
    let seed4 = script(LEVEL, ORDERS, 4);
    assert_ne!(a, seed4, "another seed, another fight");
}

#[test]
fn the_game_waits_for_face_down_cards_and_says_who_must_choose() {
    let level = load_level_file(std::path::Path::new(LEVEL)).expect("fixture");
    let mut g = Game::new(&level, 3);
    for _ in 0..4 {
        g.order(&Order::EndSide).unwrap();
    }
    assert_eq!(g.phase(), Phase::Tac);
    let s = g.snapshot();
    assert_eq!(
        s.to_choose,
        [
            "blue_foot_1",
            "blue_foot_2",
            "knight",
            "knight.mount",
            "red_foot"
        ]
    );
    assert!(s.to_move.is_none());
    // A card the figure may not play is refused with its rule, and nothing changes.
    let gb = Order::PlayCards {
        unit: "red_foot".into(),
        tac: None,
        tac_target: None,
        melee: vec![MeleeCard::GreatBlow {
            target: "blue_foot_2".into(),
        }],
    };
    let why = g.order(&gb).unwrap_err().0;
    assert!(why.starts_with("§6 GREAT BLOW"), "{why}");
    assert_eq!(g.snapshot().log, s.log);
    // Half-move orders are not for the melee.
    let mv = Order::Move {
        unit: "knight".into(),
        steps: vec![warhorse::rules::movement::Step::Forward],
    };
    assert!(g.order(&mv).is_err());
    // A choice stays face down: the log names the figure, never the card.
    let play = Order::PlayCards {
        unit: "knight".into(),
        tac: Some(TacCard::StandGround),
        tac_target: None,
        melee: vec![MeleeCard::DeliverBlow {
            target: "blue_foot_1".into(),
        }],
    };
    g.order(&play).unwrap();
    let last = g.snapshot().log.last().unwrap().to_string();
    assert_eq!(last, "knight chooses its cards, face down.");
    assert!(
        !g.snapshot()
            .log
            .iter()
            .any(|l| l.to_string().contains("DELIVER BLOW"))
    );
    let why = g.order(&play).unwrap_err().0;
    assert!(why.contains("no cards to choose now"), "{why}");
    // Cards outside a melee are refused.
    let mut h = Game::new(&level, 3);
    assert!(h.order(&play).unwrap_err().0.starts_with("D6/D7"));
    // Every hand card carries its cost and its verdict.
    let hand = warhorse::sim::melee::hand(g.world_for_tests_mut(), "red_foot");
    assert!(hand.iter().any(|c| c.verdict.is_ok()));
    let odds = warhorse::sim::melee::odds(
        g.world_for_tests_mut(),
        "red_foot",
        "blue_foot_2",
        &MeleeCard::DeliverBlow {
            target: "blue_foot_2".into(),
        },
        &[],
    )
    .expect("odds");
    assert_eq!(odds.chance, 55);
}

#[test]
fn nobody_in_contact_no_melee() {
    let level = load_level_file(std::path::Path::new("tests/fixtures/field.ron")).expect("fixture");
    let mut g = Game::new(&level, 5);
    for _ in 0..4 {
        g.order(&Order::EndSide).unwrap();
    }
    assert_eq!((g.snapshot().turn, g.phase()), (2, Phase::FirstHalfMove));
    assert!(
        g.snapshot()
            .log
            .iter()
            .any(|l| l.to_string().contains("there is no melee this turn (D6)"))
    );
}

#[test]
fn seed_002_spells_in_play_leave_the_dwarf_paralysed() {
    let v: serde_json::Value = serde_json::from_str(&script(
        "tests/fixtures/melee_realms.ron",
        "tests/fixtures/melee_realms.orders.ron",
        2,
    ))
    .expect("json");
    for o in v["orders"].as_array().expect("orders") {
        assert_eq!(o["result"], "accepted", "{o}");
    }
    let dwarf = v["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "dwarf")
        .expect("dwarf");
    let conds: Vec<&str> = dwarf["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c.as_str())
        .collect();
    for c in ["quick_step", "shackled", "ghoul_touch"] {
        assert!(conds.contains(&c), "{conds:?}");
    }
    // 40 ft (8 hexes) × 5/4 × 1/2 = 25 ft, less the ghoul's 25 ft: paralysed (R1).
    assert_eq!(dwarf["allowance"], "0");
    let log = log_texts(&v);
    assert!(
        log.iter()
            .any(|l| l.contains("mage_r casts quick step on dwarf")),
        "{log:?}"
    );
}

/// `docs/formats.md` ("Melee orders") writes every card as an orders file does; each written
/// form is in the doc and parses as the `warhorse script` reader parses it.
#[test]
fn every_card_parses_as_docs_formats_writes_it() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/formats.md"))
        .expect("docs/formats.md");
    let parse = |src: &str| -> Vec<Order> {
        ron::Options::default()
            .from_str::<Vec<Order>>(src)
            .unwrap_or_else(|e| panic!("{src}: {e}"))
    };
    let forms = [
        "Fire(target: \"id\")",
        "Reload",
        "DrawWeapon(weapon: Some(Main))",
        "PrepareSpell",
        "CastSpell(spell: \"bind\", target: Some(\"id\"))",
        "PullRider(target: \"id\")",
        "Restraint(target: \"id\")",
        "Toss(target: \"id\")",
        "BreakFree",
        "Punch(target: \"id\")",
        "Kick(target: \"id\")",
        "DeliverBlow(target: \"id\")",
        "Ferocity(target: \"id\")",
        "GreatBlow(target: \"id\")",
        "Move(To(Dir(d)))",
        "Move(Face(Dir(d)))",
        "Move(StandUp)",
        "WeaponParry",
        "DesperateDefense",
        "ActiveShieldParry",
        "PassiveShieldParry",
        "Dodge(Left)",
        "Dodge(Right)",
        "Dodge(Back)",
        "Horse(Move)",
        "Horse(Wheel(facing: Dir(d)))",
        "Horse(Trample(target: \"id\"))",
        "Horse(Hamstring(target: \"id\"))",
    ];
    for f in forms {
        assert!(doc.contains(&format!("`{f}`")), "formats.md lacks `{f}`");
        let card = f.replace("Dir(d)", "Dir(2)");
        let orders = parse(&format!("[PlayCards(unit: \"u\", melee: [{card}])]"));
        let Order::PlayCards { melee, .. } = &orders[0] else {
            panic!("{orders:?}")
        };
        assert_eq!(melee.len(), 1, "{f}");
    }
    // DRAW WEAPON's defaults: the sidearm, no shield, nothing sheathed.
    let o = parse("[PlayCards(unit: \"u\", melee: [DrawWeapon(shield: true, sheathe: true)])]");
    assert!(matches!(
        &o[0],
        Order::PlayCards { melee, .. } if melee[0] == MeleeCard::DrawWeapon {
            weapon: Some(warhorse::rules::melee::cards::WeaponSlot::Sidearm),
            shield: true,
            sheathe: true,
        }
    ));
    // TAC cards with a designated enemy, guesses and passes.
    for tac in [
        "Retreat",
        "RunAway",
        "Close",
        "KeepDistance",
        "StandGround",
        "Fleche",
        "Charge",
    ] {
        assert!(
            doc.contains(&format!("`{tac}`")),
            "formats.md lacks `{tac}`"
        );
        parse(&format!(
            "[PlayCards(unit: \"u\", tac: Some({tac}), tac_target: Some(\"e\"))]"
        ));
    }
    let o = parse("[GuessDodge(unit: \"g\", target: \"d\", guess: Back), Pass(unit: \"g\")]");
    assert!(
        matches!(&o[0], Order::GuessDodge { guess, .. } if *guess == warhorse::rules::melee::cards::DodgeDir::Back)
    );
    assert!(matches!(&o[1], Order::Pass { .. }));
    // The documented example is the fixture the first test plays.
    let fixture = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/melee.orders.ron"
    ))
    .expect("fixture");
    for line in fixture
        .lines()
        .filter(|l| l.trim_start().starts_with("PlayCards"))
    {
        assert!(doc.contains(line.trim()), "formats.md lacks {line:?}");
    }
}

/// D6: in the fixture every figure is in contact when the first half-move ends, so whoever
/// wins the second initiative, Red — the first initiative's winner (Blue is surprised) — is
/// the TMM attacker of those melees.
#[test]
fn d6_contact_made_in_the_first_half_move_keeps_the_first_initiatives_attacker() {
    use warhorse::rules::melee::attack::tmm_attacker;
    use warhorse::sim::melee::MeleeState;
    let level = load_level_file(std::path::Path::new(LEVEL)).expect("fixture");
    let mut seen_blue = false;
    for seed in 1..40 {
        let mut g = Game::new(&level, seed);
        for _ in 0..4 {
            g.order(&Order::EndSide).unwrap();
        }
        assert_eq!(g.phase(), Phase::Tac);
        let second = g.turn_state().initiative;
        let world = g.world_for_tests();
        let fight = world
            .resource::<MeleeState>()
            .fight
            .clone()
            .expect("a melee");
        let first = fight.first_half.clone().expect("recorded");
        assert_eq!(
            first.attacker, 0,
            "Red had the first initiative (D1 surprise)"
        );
        assert!(first.engaged("knight", "blue_foot_1"), "{first:?}");
        let (k, b) = (
            fight.index_of("knight").unwrap(),
            fight.index_of("blue_foot_1").unwrap(),
        );
        assert!(tmm_attacker(&fight, k, b) && !tmm_attacker(&fight, b, k));
        if second == Some(1) {
            seen_blue = true;
            let log: Vec<String> = g.snapshot().log.iter().map(|l| l.to_string()).collect();
            assert!(
                log.iter().any(|l| l.contains(
                    "Blue won the initiative and is the attacker — but where contact was made in the first half-move"
                ) && l.contains("Red keeps the first initiative's attack")),
                "{log:?}"
            );
            break;
        }
    }
    assert!(seen_blue, "some seed gives Blue the second initiative");
}

const BERSERK_LEVEL: &str = r#"Level(
    name: "Berserk",
    ruleset: "destrier",
    width: 12,
    height: 8,
    legend: { '.': (name: "open", cost: 1) },
    rows: ["............", "............", "............", "............",
           "............", "............", "............", "............"],
    sides: [(name: "Red", control: Human), (name: "Blue", control: Human)],
    surprised: Some("Blue"),
    figures: [
        (id: "ulf", template: "nordic_berserk", side: "Red", at: (2, 2), facing: "E"),
        (id: "friend", template: "footman", side: "Red", at: (2, 3), facing: "N"),
        (id: "foe", template: "footman", side: "Blue", at: (11, 7), facing: "W"),
    ],
)"#;

/// A game of the berserk level `text` (seed 7) with Ulf already in his blood rage.
fn with_ulf_berserk(text: &str) -> Game {
    use warhorse::sim::components::CombatStatus;
    let level = warhorse::level::load_level_str(text, "berserk.ron", None).expect("level");
    let mut g = Game::new(&level, 7);
    let ulf = warhorse::sim::world::find_figure(g.world_for_tests_mut(), "ulf").unwrap();
    g.world_for_tests_mut()
        .get_mut::<CombatStatus>(ulf)
        .unwrap()
        .0
        .berserk = true;
    g
}

/// §6 FEROCITY: `CalmBerserk` in a half-move — rolled and logged, once a turn, only by the
/// side moving; a berserk may not pick up a comrade.
#[test]
fn a_friend_tries_to_calm_a_berserk_and_a_berserk_carries_nothing() {
    use warhorse::sim::components::CombatStatus;
    let mut g = with_ulf_berserk(BERSERK_LEVEL);
    assert_eq!(g.phase(), Phase::FirstHalfMove);
    let ulf = warhorse::sim::world::find_figure(g.world_for_tests_mut(), "ulf").unwrap();
    let pick = Order::Activity {
        unit: "ulf".into(),
        activity: warhorse::rules::ruleset::Activity::PickUpComrade,
    };
    let why = g.order(&pick).unwrap_err().0;
    assert!(why.starts_with("§6 FEROCITY"), "{why}");
    let calm = Order::CalmBerserk {
        unit: "friend".into(),
        berserk: "ulf".into(),
    };
    g.order(&calm).unwrap();
    let last = g.snapshot().log.last().unwrap().clone();
    assert!(
        last.to_string().starts_with("friend tries to calm ulf"),
        "{}",
        last.to_string()
    );
    let roll = last.roll.expect("the d100 is logged").value;
    let state = g
        .world_for_tests()
        .get::<CombatStatus>(ulf)
        .unwrap()
        .0
        .clone();
    // Ulf's IQ 8 and Wisdom 7: he turns on his friend on 35 or less.
    assert_eq!(state.turned_on.contains(&"friend".to_string()), roll <= 35);
    assert_eq!(state.berserk, roll <= 35);
    let why = g.order(&calm).unwrap_err().0;
    assert!(why.contains("already tried"), "{why}");
    // Blue may not calm Red's berserk, nor out of its half-move.
    let foe = Order::CalmBerserk {
        unit: "foe".into(),
        berserk: "ulf".into(),
    };
    assert!(g.order(&foe).unwrap_err().0.starts_with("D4"));
    // Written as docs/formats.md writes it, the order parses as an orders file's does.
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/formats.md"))
        .expect("docs/formats.md");
    assert!(
        doc.contains("| `CalmBerserk` | `unit`"),
        "formats.md lists CalmBerserk"
    );
    let parsed: Vec<Order> =
        ron::from_str(r#"[CalmBerserk(unit: "friend", berserk: "ulf")]"#).expect("parses");
    assert_eq!(parsed, [calm]);
}

/// §6 FEROCITY: a figure's Lady (or Man), named by `beloved` in the level, calms it at 20%
/// less chance of being turned on; the level's `beloved` is loaded and checked.
#[test]
fn a_berserks_lady_named_in_the_level_calms_him_at_20_less() {
    use warhorse::sim::components::CombatStatus;
    let text = BERSERK_LEVEL.replace(
        r#"at: (2, 2), facing: "E")"#,
        r#"at: (2, 2), facing: "E", beloved: Some("friend"))"#,
    );
    assert!(text.contains("beloved"));
    let mut g = with_ulf_berserk(&text);
    let ulf = warhorse::sim::world::find_figure(g.world_for_tests_mut(), "ulf").unwrap();
    let calm = Order::CalmBerserk {
        unit: "friend".into(),
        berserk: "ulf".into(),
    };
    g.order(&calm).unwrap();
    let last = g.snapshot().log.last().unwrap().clone();
    assert!(
        last.to_string().contains("for his Lady (or Man)"),
        "{}",
        last.to_string()
    );
    let roll = last.roll.expect("the d100 is logged").value;
    // Ulf's IQ 8 and Wisdom 7: 50 − 20 − 15, he turns on his Lady on 15 or less.
    let state = g
        .world_for_tests()
        .get::<CombatStatus>(ulf)
        .unwrap()
        .0
        .clone();
    assert_eq!(state.turned_on.contains(&"friend".to_string()), roll <= 15);
    // An unknown figure, or one of the other side, is a loader error at the field.
    for (name, why) in [("nobody", "unknown figure"), ("foe", "of its own side")] {
        let bad = BERSERK_LEVEL.replace(
            r#"at: (2, 2), facing: "E")"#,
            &format!(r#"at: (2, 2), facing: "E", beloved: Some("{name}"))"#),
        );
        let e = warhorse::level::load_level_str(&bad, "lady.ron", None).unwrap_err();
        let e = &e.errors()[0];
        assert!(e.message.contains(why), "{e}");
        assert_eq!((e.file.as_str(), e.line), ("lady.ron", 12), "{e}");
    }
}
