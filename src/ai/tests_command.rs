//! Issue 13, item 2: the commander level. A side's units are its leader's while a hero or
//! leader of it is in the fight, not the table's: they do not roll, they go for their side's
//! objectives, and otherwise press the attack; without one they roll (I1–I2 bind them).

use super::bout::Fixed;
use super::tests::{fig, level_with, open, play_side, rows};
use super::{AiLevel, set_level};
use crate::level::Level;
use crate::rules::charge::ride::Reply;
use crate::rules::melee::cards::{DodgeDir, TacCard};
use crate::sim::Game;
use crate::sim::order::Order;

/// A 21 × 11 open `destrier` field with Red's knight `k` (a hero) and footman `f` in one unit,
/// Red's footman `u` alone in another, Blue's footman `e` far to the east, and `victory`.
fn field(red: &[String], victory: &str) -> Level {
    let mut figures = red.to_vec();
    figures.push(fig("e", "footman", "Blue", (19, 5), "W"));
    level_with(
        &rows(&open(21, 11)),
        &figures,
        r#"(name: "band", members: ["k", "f"])"#,
        &format!(", victory: ({victory})"),
    )
}

fn red() -> Vec<String> {
    vec![
        fig("k", "knight_on_destrier", "Red", (4, 5), "E"),
        fig("f", "footman", "Red", (4, 6), "E"),
        fig("u", "footman", "Red", (4, 9), "E"),
    ]
}

fn cell(g: &mut Game, id: &str) -> (i32, i32) {
    let s = g.snapshot();
    let f = s.figures.iter().find(|f| f.id == id).expect("figure");
    (f.cell[0], f.cell[1])
}

fn rolled(orders: &[Order], unit: &str) -> bool {
    orders
        .iter()
        .any(|o| matches!(o, Order::ActionRoll { unit: u } if u == unit))
}

/// I1–I2 bind uncommanded troops; seed 004: "uncommanded units will always shoot only at the
/// nearest enemy" — a commanded unit is its leader's, and our reading (docs/rules.md
/// "Uncommanded troops") is that a side's hero or leader commands all of it while he is in the
/// fight. At the commander level neither Red unit rolls and both close on the enemy; at the
/// stronger level, which obeys the table, both roll.
#[test]
fn i2_a_leader_commands_his_whole_side_and_the_table_binds_the_rest() {
    let l = field(&red(), "turns: 8");
    for seed in 0..4 {
        let mut g = Game::new(&l, seed);
        set_level(&mut g, 0, AiLevel::Commander);
        let orders = play_side(&mut g, 0);
        assert!(!rolled(&orders, "band"), "seed {seed}: {orders:?}");
        assert!(!rolled(&orders, "u"), "seed {seed}: {orders:?}");
        assert!(cell(&mut g, "f").0 > 4, "seed {seed}: the footman advances");
        assert!(
            cell(&mut g, "u").0 > 4,
            "seed {seed}: the lone footman advances"
        );
        assert!(cell(&mut g, "k").0 > 4, "seed {seed}: the knight advances");

        let mut g = Game::new(&l, seed);
        set_level(&mut g, 0, AiLevel::Lookahead);
        let orders = play_side(&mut g, 0);
        assert!(
            rolled(&orders, "band") && rolled(&orders, "u"),
            "{orders:?}"
        );
    }
}

/// With no hero or leader on its side every unit is uncommanded and rolls, even at the
/// commander level; a level's `leader: true` makes a figure its side's leader though its
/// template is no hero, and then nobody rolls.
#[test]
fn i2_without_a_leader_every_unit_rolls_and_a_levels_leader_commands() {
    let mut plain = red();
    plain[0] = fig("k", "knight_on_charger", "Red", (4, 5), "E");
    let l = field(&plain, "turns: 8");
    let mut g = Game::new(&l, 0);
    set_level(&mut g, 0, AiLevel::Commander);
    let orders = play_side(&mut g, 0);
    assert!(
        rolled(&orders, "band") && rolled(&orders, "u"),
        "{orders:?}"
    );

    let mut led = plain.clone();
    let u = led[2].trim_end_matches(')').to_string();
    led[2] = format!("{u}, leader: true)");
    let led = field(&led, "turns: 8");
    assert!(
        led.figures.iter().any(|f| f.id == "u" && f.template.hero),
        "the level's leader is a hero"
    );
    let mut g = Game::new(&led, 0);
    set_level(&mut g, 0, AiLevel::Commander);
    let orders = play_side(&mut g, 0);
    assert!(
        !rolled(&orders, "band") && !rolled(&orders, "u"),
        "{orders:?}"
    );
}

/// A Hold objective that wins: the commanded unit makes for the area (north-west, away from
/// the enemy in the east) instead of the enemy, and a unit already in it stays there.
#[test]
fn i2_a_commanded_unit_goes_for_its_sides_area_and_holds_it() {
    let hold = r#"turns: 8, objectives: [(side: "Red", goal: Hold(area: [(1, 1), (2, 1)]), points: 20, wins: true)]"#;
    let l = field(&red(), hold);
    let mut g = Game::new(&l, 1);
    set_level(&mut g, 0, AiLevel::Commander);
    play_side(&mut g, 0);
    // Squares with diagonal steps: a step north-east is a step nearer (2, 1) too.
    let to_area = |(x, y): (i32, i32)| (x - 2).abs().max((y - 1).abs());
    let (x, y) = cell(&mut g, "f");
    assert!(
        to_area((x, y)) < 5,
        "the footman heads for the area: at ({x}, {y})"
    );
    let k = cell(&mut g, "k");
    assert!(to_area(k) < 5, "the knight heads for the area: at {k:?}");

    let mut at_area = red();
    at_area[1] = fig("f", "footman", "Red", (2, 1), "E");
    let l = field(&at_area, hold);
    let mut g = Game::new(&l, 1);
    set_level(&mut g, 0, AiLevel::Commander);
    play_side(&mut g, 0);
    assert_eq!(cell(&mut g, "f"), (2, 1), "it holds the area");
}

/// An Exit objective: the named footman, with no enemy near enough to fall on it, makes for
/// the west edge; with the enemy beside it, it fights first.
#[test]
fn i2_a_figure_that_must_leave_makes_for_its_edge_unless_pressed() {
    let exit = r#"turns: 8, objectives: [(side: "Red", goal: Exit(figures: ["f"], edge: W), points: 20, wins: true)]"#;
    let l = field(&red(), exit);
    let mut g = Game::new(&l, 2);
    set_level(&mut g, 0, AiLevel::Commander);
    play_side(&mut g, 0);
    assert!(
        cell(&mut g, "f").0 < 4,
        "it goes west: {:?}",
        cell(&mut g, "f")
    );

    let mut pressed = red();
    pressed[1] = fig("f", "footman", "Red", (17, 5), "E");
    let l = field(&pressed, exit);
    let mut g = Game::new(&l, 2);
    set_level(&mut g, 0, AiLevel::Commander);
    play_side(&mut g, 0);
    assert!(
        cell(&mut g, "f").0 >= 17,
        "beside the enemy it does not turn its back: {:?}",
        cell(&mut g, "f")
    );
}

/// The exploitation test's opponent changes only its dodge guesses and its charge answers.
#[test]
fn i13_the_fixed_opponent_guesses_back_and_parries_every_charge() {
    let f = Fixed::back_and_parry(1);
    let guess = Order::GuessDodge {
        unit: "a".into(),
        target: "b".into(),
        guess: DodgeDir::Left,
    };
    let answer = Order::AnswerCharge {
        unit: "a".into(),
        tac: TacCard::StandGround,
        reply: Reply::DeliverBlow,
    };
    assert_eq!(
        f.over(guess),
        Order::GuessDodge {
            unit: "a".into(),
            target: "b".into(),
            guess: DodgeDir::Back
        }
    );
    assert_eq!(
        f.over(answer),
        Order::AnswerCharge {
            unit: "a".into(),
            tac: TacCard::StandGround,
            reply: Reply::WeaponParry
        }
    );
    let end = Order::EndSide;
    assert_eq!(f.over(end.clone()), end);
}
