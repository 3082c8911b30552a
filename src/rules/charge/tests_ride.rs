//! C4–C5 TAC movement in a ridden charge: the charged figure's face-down TAC card moves it as
//! the horse closes, and the exchange point, the closest passage and the contacts follow it.
//! Every die answers a miss (d100 100, d6 1), so only the geometry differs between cards.

use super::ride::{Answer, ChargeRide, Facts, Reply, RideEnd, closing_distance, ride_all};
use super::{Line, Turn};
use crate::rules::gait::Gait;
use crate::rules::grid::{Cell, Dir, GridKind};
use crate::rules::melee::ScriptedDice;
use crate::rules::melee::cards::TacCard;
use crate::rules::melee::fight::Fight;
use crate::rules::melee::tables::tables;
use crate::rules::melee::testkit::{board, destrier, fight, figures, ix};
use crate::rules::movement::{Mover, MoverSpec, Pose};
use crate::rules::mp::Mp;
use crate::rules::ruleset::TroopType;

const EAST: Dir = Dir(2);
const WEST: Dir = Dir(6);

/// A knight with a lance at (2,5) galloping east; `foot` are (id, template, cell) of side 1.
fn field(foot: &[(&str, &str, Cell)]) -> Fight {
    let rules = destrier();
    let mut groups = vec![figures(
        &rules,
        "k",
        "knight_on_charger",
        0,
        Cell::new(2, 5),
        EAST,
    )];
    for (id, key, at) in foot {
        groups.push(figures(&rules, id, key, 1, *at, WEST));
    }
    fight(board(GridKind::Square, 24, 14), groups, &[])
}

/// Rides the knight's charge at `targets` (12" at the gallop, straight ahead) with the given
/// answers; returns the log and the end of the ride.
fn ride(
    f: &mut Fight,
    targets: &[&str],
    answers: &[(&str, TacCard)],
    turns: Vec<Turn>,
) -> (String, RideEnd) {
    let rules = destrier();
    let allowance = Mp::cells(12);
    let mover = Mover::new(
        &rules,
        &f.board,
        MoverSpec {
            side: 1,
            mounted: true,
            gait: Gait::Gallop,
            basis: allowance,
            crawling: false,
            asl_gallop: false,
            stops: vec![],
        },
    );
    let k = ix(f, "k");
    let ride = ChargeRide {
        rider: k,
        mount: ix(f, "k.mount"),
        targets: targets.iter().map(|t| ix(f, t)).collect(),
        line: Line::Ahead,
        turns,
        gait: Gait::Gallop,
        allowance,
        mover,
        pose: Pose::new(f.fighters[k].cell, EAST),
    };
    let mut facts = Facts {
        answers: vec![None; f.fighters.len()],
        troops: vec![TroopType::Foot; f.fighters.len()],
    };
    for (id, tac) in answers {
        facts.answers[ix(f, id)] = Some(Answer {
            tac: *tac,
            reply: Reply::DeliverBlow,
        });
    }
    let mut dice = ScriptedDice::new(&[], &[]);
    let (ev, mut ends) = ride_all(f, tables(), vec![ride], &[], &facts, &mut dice);
    let text = ev
        .iter()
        .map(|e| e.text.clone())
        .collect::<Vec<_>>()
        .join("\n");
    (text, ends.remove(0))
}

fn cell(f: &Fight, id: &str) -> Cell {
    f.fighters[ix(f, id)].cell
}

fn struck_at(f: &Fight, end: &RideEnd, id: &str) -> Option<Cell> {
    let i = ix(f, id);
    end.struck_at.iter().find(|s| s.0 == i).map(|s| s.1)
}

#[test]
fn c5_the_card_is_played_one_cell_before_the_first_exchange() {
    let f = field(&[("f", "footman", Cell::new(9, 6))]);
    // Lance 1" (2 cells) against a spear: the horse's reach is the longer, so at 3 cells.
    assert_eq!(closing_distance(&f, tables(), ix(&f, "k"), ix(&f, "f")), 3);
    let g = field(&[("p", "pikeman", Cell::new(9, 6))]);
    assert_eq!(closing_distance(&g, tables(), ix(&g, "k"), ix(&g, "p")), 3);
}

#[test]
fn c5_stand_ground_does_not_move_and_the_lance_strikes_at_one_inch() {
    let mut f = field(&[("f", "footman", Cell::new(9, 6))]);
    let (log, end) = ride(&mut f, &["f"], &[("f", TacCard::StandGround)], vec![]);
    assert_eq!(cell(&f, "f"), Cell::new(9, 6), "{log}");
    assert!(!log.contains("turns up"), "{log}");
    // Two cells from (9,6) along row 5: (7,5).
    assert_eq!(struck_at(&f, &end, "f"), Some(Cell::new(7, 5)), "{log}");
}

#[test]
fn c5_retreat_steps_back_half_a_move_and_the_strike_comes_later() {
    let mut f = field(&[("f", "footman", Cell::new(9, 6))]);
    let (log, end) = ride(&mut f, &["f"], &[("f", TacCard::Retreat)], vec![]);
    assert!(
        log.contains("As k's horse closes, f turns up RETREAT (C5)"),
        "{log}"
    );
    assert!(log.contains("RETREATS in good order"), "{log}");
    // A footman's 6" a turn is 3" a half-move; half of it, rounded down, is one cell — away
    // from the horse, which then strikes later than at (7,5).
    let at = cell(&f, "f");
    assert_eq!(f.board.grid.distance(Cell::new(9, 6), at), 1, "{log}");
    assert!(f.far(at, Cell::new(6, 5)) > f.far(Cell::new(9, 6), Cell::new(6, 5)));
    let s = struck_at(&f, &end, "f").expect("still reached");
    assert!(s.x > 7, "struck at {s}: {log}");
    assert_eq!(
        f.board.grid.distance(s, at),
        2,
        "the lance's 1\" from the moved figure"
    );
}

#[test]
fn c5_run_away_takes_the_target_out_of_the_way_and_the_charge_is_released() {
    let mut f = field(&[("f", "footman", Cell::new(9, 6))]);
    let (log, end) = ride(&mut f, &["f"], &[("f", TacCard::RunAway)], vec![]);
    assert!(log.contains("RUNS AWAY"), "{log}");
    let at = cell(&f, "f");
    assert_eq!(
        f.board.grid.distance(Cell::new(9, 6), at),
        3,
        "its whole 3\": {log}"
    );
    assert_eq!(struck_at(&f, &end, "f"), None, "{log}");
    assert_eq!(end.released, vec![ix(&f, "f")]);
    assert!(
        log.contains("f is out of the horse's reach for the rest of this charge: k is released"),
        "{log}"
    );
}

#[test]
fn c5_close_steps_in_and_the_lance_strikes_at_once() {
    let mut f = field(&[("f", "footman", Cell::new(9, 6))]);
    let (log, end) = ride(&mut f, &["f"], &[("f", TacCard::Close)], vec![]);
    assert!(log.contains("turns up CLOSE"), "{log}");
    // The horse at (6,5) is 3 cells off; the footman closes 1" and is within the lance's
    // reach there and then.
    let at = cell(&f, "f");
    assert_eq!(f.board.grid.distance(Cell::new(9, 6), at), 1, "{log}");
    assert_eq!(struck_at(&f, &end, "f"), Some(Cell::new(6, 5)), "{log}");
}

#[test]
fn c5_fleche_runs_into_contact_and_is_bashed() {
    let mut f = field(&[("f", "raw_levy", Cell::new(9, 6))]);
    let (log, end) = ride(&mut f, &["f"], &[("f", TacCard::Fleche)], vec![]);
    assert!(log.contains("turns up FLECHE"), "{log}");
    assert!(log.contains("into contact"), "{log}");
    assert_eq!(struck_at(&f, &end, "f"), Some(Cell::new(6, 5)), "{log}");
    // Touching the horse at (6,5): it is bashed there and the mount slows (C6).
    assert!(log.contains("bashes f as it passes (C6)"), "{log}");
    let bash = log.find("bashes f").unwrap();
    assert!(log.find("turns up FLECHE").unwrap() < bash);
}

#[test]
fn c5_charge_runs_at_the_horse_along_its_line() {
    let mut f = field(&[("f", "raw_levy", Cell::new(10, 7))]);
    let (log, end) = ride(&mut f, &["f"], &[("f", TacCard::Charge)], vec![]);
    assert!(log.contains("turns up CHARGE"), "{log}");
    // At 3 cells from the horse (7,5): a levy's charge bonus is its whole 3" half-move.
    let at = cell(&f, "f");
    assert!(f.board.grid.distance(Cell::new(10, 7), at) >= 2, "{log}");
    assert!(log.contains("bashes f as it passes (C6)"), "{log}");
    assert_eq!(struck_at(&f, &end, "f"), Some(Cell::new(7, 5)), "{log}");
    // Standing ground, the same levy is struck a cell later.
    let mut g = field(&[("f", "raw_levy", Cell::new(10, 7))]);
    let (_, e2) = ride(&mut g, &["f"], &[("f", TacCard::StandGround)], vec![]);
    assert_eq!(struck_at(&g, &e2, "f"), Some(Cell::new(8, 5)));
}

#[test]
fn c5_keep_distance_retreats_before_the_horse() {
    let mut f = field(&[("f", "footman", Cell::new(9, 6))]);
    let (log, _) = ride(&mut f, &["f"], &[("f", TacCard::KeepDistance)], vec![]);
    assert!(
        log.contains("turns up KEEP DISTANCE, and retreats before the advancing horse"),
        "{log}"
    );
    assert_ne!(cell(&f, "f"), Cell::new(9, 6));
}

#[test]
fn c6_a_target_that_ran_away_releases_the_charge_onto_the_next() {
    let foot = [
        ("f1", "footman", Cell::new(7, 6)),
        ("f2", "footman", Cell::new(11, 6)),
    ];
    let mut f = field(&foot);
    let (log, end) = ride(&mut f, &["f1", "f2"], &[("f1", TacCard::RunAway)], vec![]);
    assert_eq!(struck_at(&f, &end, "f1"), None, "{log}");
    assert!(
        struck_at(&f, &end, "f2").is_some(),
        "the horse rides on to f2: {log}"
    );
    assert_eq!(end.released, vec![ix(&f, "f1")]);
    assert!(log.contains("it rides on towards f2"), "{log}");
    // Standing, both are struck in order.
    let mut g = field(&foot);
    let (_, e2) = ride(&mut g, &["f1", "f2"], &[], vec![]);
    assert!(struck_at(&g, &e2, "f1").is_some() && struck_at(&g, &e2, "f2").is_some());
}

#[test]
fn c5_a_figure_over_10_ft_tall_reaches_as_a_pole_arm() {
    let mut f = field(&[("foot", "footman", Cell::new(12, 5))]);
    let i = ix(&f, "foot");
    // A footman's sword strikes at closest passage (rank 1, one cell).
    assert_eq!(super::ride::reach_of(&f, tables(), i, false), (1, 1));
    // Over 10 ft tall: as a pole arm, 1/2" (rank 2: in contact, D11), before any sword.
    f.fighters[i].profile.tall = true;
    assert_eq!(super::ride::reach_of(&f, tables(), i, false), (1, 2));
    // A lance still outreaches him (rank 3).
    let k = ix(&f, "k");
    assert_eq!(super::ride::reach_of(&f, tables(), k, true).1, 3);
}

/// Seed 003 (C6): "All figures contacted during a charge (even if not designated as targets)
/// are bashed by the mount and may deliver a counterblow as the mount passes, provided they
/// remain on their feet." A footman beside the line, no target, keeps his feet (every die
/// misses here) and strikes back as the horse passes.
#[test]
fn c6_a_contacted_bystander_on_its_feet_strikes_back() {
    let mut f = field(&[
        ("t", "footman", Cell::new(12, 5)),
        ("b", "footman", Cell::new(6, 6)),
    ]);
    let (log, _) = ride(&mut f, &["t"], &[], vec![]);
    let bash = log.find("bashes b as it passes (C6)").expect(&log);
    let counter = log.find("b counter-strikes at k").expect(&log);
    assert!(bash < counter, "{log}");
    // Facing away from the horse, he cannot (D12: counter-blows only through frontal sides).
    let mut g = field(&[
        ("t", "footman", Cell::new(12, 5)),
        ("b", "footman", Cell::new(6, 6)),
    ]);
    let b = ix(&g, "b");
    g.fighters[b].facing = EAST;
    let (log, _) = ride(&mut g, &["t"], &[], vec![]);
    assert!(log.contains("bashes b as it passes (C6)"), "{log}");
    assert!(!log.contains("b counter-strikes"), "{log}");
}
