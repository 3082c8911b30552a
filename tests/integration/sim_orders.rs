//! The simulation driven by orders: the turn spine, refusals that change nothing, gaits,
//! contact and (dis)mounting in the `destrier` ruleset.

use warhorse::level::load_level_file;
use warhorse::rules::gait::Gait;
use warhorse::rules::grid::Dir;
use warhorse::rules::movement::{Hand, Step};
use warhorse::sim::Game;
use warhorse::sim::order::Order;
use warhorse::sim::phase::Phase;
use warhorse::sim::snapshot::FigureState;

fn game(seed: u64) -> Game {
    let level =
        load_level_file(std::path::Path::new("tests/fixtures/field.ron")).expect("fixture loads");
    Game::new(&level, seed)
}

fn fig(g: &mut Game, id: &str) -> FigureState {
    g.snapshot()
        .figures
        .into_iter()
        .find(|f| f.id == id)
        .expect("figure")
}

fn mv(unit: &str, steps: &[Step]) -> Order {
    Order::Move {
        unit: unit.into(),
        steps: steps.to_vec(),
    }
}

fn gait(unit: &str, gait: Gait) -> Order {
    Order::SetGait {
        unit: unit.into(),
        gait,
    }
}

/// A refused order leaves every figure and the log exactly as they were; returns the
/// refusal's words.
pub(crate) fn refused(g: &mut Game, o: &Order) -> String {
    let before = g.snapshot();
    let why = g.order(o).expect_err("order should be refused").0;
    let after = g.snapshot();
    assert_eq!(
        before.figures, after.figures,
        "a refusal changed the figures"
    );
    assert_eq!(before.log, after.log, "a refusal wrote to the log");
    why
}

#[test]
fn d1_d4_surprise_then_winner_moves_first() {
    let mut g = game(5);
    assert_eq!(g.phase(), Phase::FirstHalfMove);
    let s = g.snapshot();
    assert_eq!(s.to_move.as_deref(), Some("Red"));
    assert!(
        s.log
            .iter()
            .any(|l| l.to_string().contains("taken by surprise"))
    );
    // Blue may not move in Red's half-move.
    let why = refused(&mut g, &mv("levy", &[Step::Forward]));
    assert!(why.starts_with("D4:"), "{why}");
    g.order(&Order::EndSide).unwrap();
    assert_eq!(g.snapshot().to_move.as_deref(), Some("Blue"));
    g.order(&Order::EndSide).unwrap();
    // Second initiative rolled with dice, each roll logged.
    assert_eq!(g.phase(), Phase::SecondHalfMove);
    let s = g.snapshot();
    assert!(
        s.log
            .iter()
            .any(|l| l.phase == "second initiative" && l.roll.is_some())
    );
    g.order(&Order::EndSide).unwrap();
    g.order(&Order::EndSide).unwrap();
    let s = g.snapshot();
    assert_eq!((s.turn, g.phase()), (2, Phase::FirstHalfMove));
    // Turn 2: no surprise, a real roll decides.
    assert!(
        s.log
            .iter()
            .any(|l| l.turn == 2 && l.to_string().contains("rolls"))
    );
}

#[test]
fn d1_initiative_rolls_are_seeded() {
    let a = game(42).snapshot().log;
    let b = game(42).snapshot().log;
    assert_eq!(a, b);
}

#[test]
fn h2_d4_half_move_allowances() {
    let mut g = game(1);
    // Destrier walks 7 a turn: 7/2 in a half-move; the footman 6 → 3.
    assert_eq!(fig(&mut g, "knight.mount").allowance, "7/2");
    assert_eq!(fig(&mut g, "foot").allowance, "3");
    g.order(&gait("knight", Gait::Canter)).unwrap();
    assert_eq!(fig(&mut g, "knight.mount").allowance, "35/4");
    g.order(&mv(
        "knight",
        &[Step::Forward, Step::Forward, Step::Veer(Hand::Right)],
    ))
    .unwrap();
    let k = fig(&mut g, "knight");
    assert_eq!(k.cell, [5, 3]);
    assert_eq!(fig(&mut g, "knight.mount").allowance_left, "19/4");
}

/// Ends half-moves until Red is to move in the second half-move.
fn red_in_second_half(g: &mut Game) {
    while !(g.phase() == Phase::SecondHalfMove && g.snapshot().to_move.as_deref() == Some("Red")) {
        g.order(&Order::EndSide).unwrap();
    }
}

#[test]
fn d5_gait_change_limits_and_timing() {
    let mut g = game(1);
    // Walk → gallop is 3 categories: allowed in the first half-move (limit 3 of 5).
    g.order(&gait("sergeant", Gait::Gallop)).unwrap();
    g.order(&mv("sergeant", &[Step::Forward])).unwrap();
    // Once it has moved, no more changes this half-move.
    let why = refused(&mut g, &gait("sergeant", Gait::Trot));
    assert!(why.starts_with("D5:"), "{why}");
    // Foot figures have no gaits.
    let why = refused(&mut g, &gait("foot", Gait::Trot));
    assert!(why.starts_with("H2:"), "{why}");
    // K2: mounted infantry never gallop.
    let why = refused(&mut g, &gait("mi", Gait::Gallop));
    assert!(why.contains("K2"), "{why}");
    // In the second half-move the limit rounds down to 2: walk → gallop is refused.
    red_in_second_half(&mut g);
    let why = refused(&mut g, &gait("knight", Gait::Gallop));
    assert!(why.starts_with("D5:") && why.contains("at most 2"), "{why}");
    g.order(&gait("knight", Gait::Canter)).unwrap();
}

#[test]
fn h4_gallop_veers_count_across_the_turn() {
    let mut g = game(1);
    g.order(&gait("sergeant", Gait::Gallop)).unwrap();
    let (l, r) = (Step::Veer(Hand::Left), Step::Veer(Hand::Right));
    g.order(&mv("sergeant", &[l, Step::Forward, r])).unwrap();
    let why = refused(&mut g, &mv("sergeant", &[l]));
    assert!(why.contains("H4"), "{why}");
}

#[test]
fn k1_two_gallop_turns_then_a_walk() {
    let mut g = game(9);
    let red_first = |g: &mut Game| g.snapshot().to_move.as_deref() == Some("Red");
    for turn in 1..=3 {
        for _half in 0..2 {
            if !red_first(&mut g) {
                g.order(&Order::EndSide).unwrap();
            }
            if turn <= 2 {
                let _ = g.order(&gait("sergeant", Gait::Gallop));
                g.order(&mv("sergeant", &[Step::Forward])).unwrap();
            }
            if turn == 3 {
                let why = refused(&mut g, &mv("sergeant", &[Step::Forward]));
                assert!(why.starts_with("K1:"), "{why}");
                let why = refused(&mut g, &gait("sergeant", Gait::Trot));
                assert!(why.starts_with("K1:"), "{why}");
                g.order(&gait("sergeant", Gait::Walk)).unwrap();
                g.order(&mv("sergeant", &[Step::Forward])).unwrap();
                return;
            }
            // End Red's and, if Blue moves second, Blue's part.
            while g.phase().is_half_move() && red_first(&mut g) {
                g.order(&Order::EndSide).unwrap();
            }
            if g.snapshot().to_move.as_deref() == Some("Blue") {
                g.order(&Order::EndSide).unwrap();
            }
        }
    }
    panic!("never reached the third turn");
}

#[test]
fn h3_walk_turns_cost_and_refuse_when_unpaid() {
    let mut g = game(1);
    // 7/2 at a walk: a right angle (3) fits, then nothing of 1 more.
    g.order(&mv("knight", &[Step::Pivot(2)])).unwrap();
    assert_eq!(fig(&mut g, "knight").facing, "S");
    assert_eq!(fig(&mut g, "knight.mount").allowance_left, "1/2");
    let why = refused(&mut g, &mv("knight", &[Step::Forward]));
    assert!(why.contains("costs 1 and only 1/2 is left"), "{why}");
}

#[test]
fn d16_contact_stops_and_pins() {
    let mut g = game(1);
    g.order(&Order::EndSide).unwrap();
    // Blue lost the initiative. Its levy at (6,7) faces S; Red's levy at (6,9) faces N, so
    // (6,8) touches Red's front: Blue's levy (same weight, stand and encumbrance) stops there.
    g.order(&mv("levy", &[Step::Forward])).unwrap();
    let log = g.snapshot().log;
    assert!(
        log.last().unwrap().to_string().contains("must stop (D16)"),
        "{:?}",
        log.last()
    );
    // And, touching that front, it may not move away.
    let why = refused(&mut g, &mv("levy", &[Step::Pivot(4)]));
    assert!(why.starts_with("D16:"), "{why}");
    // A figure that won the initiative is not stopped: Red's levy could have walked on.
}

#[test]
fn d16_initiative_winner_is_not_stopped() {
    let mut g = game(1);
    // Red (initiative) walks its levy into contact with Blue's levy's front and on past it.
    g.order(&mv("foot", &[Step::Forward, Step::Pivot(2), Step::Forward]))
        .unwrap();
    assert_eq!(fig(&mut g, "foot").cell, [7, 8]);
}

#[test]
fn r4_pass_through_allies_but_not_stop() {
    let mut g = game(1);
    // The squire at (3,10) facing E; the spare horse stands at (4,10).
    let why = refused(&mut g, &mv("squire", &[Step::Forward]));
    assert!(why.contains("R4"), "{why}");
    g.order(&mv("squire", &[Step::Forward, Step::Forward]))
        .unwrap();
    let s = fig(&mut g, "squire");
    assert_eq!(s.cell, [5, 10]);
    assert_eq!(s.allowance_left, "0");
}

#[test]
fn d15_mount_and_dismount() {
    let mut g = game(1);
    // The squire (partly encumbered) mounts the spare destrier next to him: 1/2 of 3.
    g.order(&Order::Mount {
        unit: "squire".into(),
        horse: "spare".into(),
    })
    .unwrap();
    let s = fig(&mut g, "squire");
    assert_eq!(s.mounted_on.as_deref(), Some("spare"));
    assert_eq!(s.cell, [4, 10]);
    assert_eq!(s.allowance_left, "3/2");
    // The mount keeps the same share: half of 7/2.
    assert_eq!(fig(&mut g, "spare").allowance_left, "7/4");
    g.order(&mv("squire", &[Step::Forward])).unwrap();
    // Dismount: share of the foot move left (3/4 × 3 = … ) less the 3/2 penalty.
    let why = refused(
        &mut g,
        &Order::Dismount {
            unit: "squire".into(),
            to: None,
        },
    );
    assert!(why.starts_with("D15: dismounting costs"), "{why}");
    // Mounting a horse that is not adjacent is refused.
    let why = refused(
        &mut g,
        &Order::Mount {
            unit: "foot".into(),
            horse: "spare".into(),
        },
    );
    assert!(
        why.starts_with("D15") || why.contains("already carries"),
        "{why}"
    );
}

#[test]
fn orders_name_their_rule_when_refused() {
    let mut g = game(1);
    let why = refused(&mut g, &mv("knight", &[Step::Go(Dir(2))]));
    assert!(!why.is_empty());
    let why = refused(&mut g, &mv("nobody", &[Step::Forward]));
    assert!(why.contains("no figure"), "{why}");
    // Off the map.
    let why = refused(
        &mut g,
        &mv(
            "knight",
            &[Step::Pivot(-2), Step::Forward, Step::Forward, Step::Forward],
        ),
    );
    assert!(why.contains("step"), "{why}");
}
