//! Issue 13, item 1: "commanders avoid offering a flank". A unit whose conduct leaves it where
//! it is, or sends it somewhere it cannot go, still turns so that no enemy that could strike it
//! next turn stands on its flank or rear — each such enemy is +2 on its next roll (I1).

use super::tests::{fig, inject, level, open, play_side, rows};
use crate::rules::actions::Action;
use crate::rules::grid::{Cell, GridKind};
use crate::rules::risk::on_flank_or_rear;
use crate::sim::Game;

/// Plays side 0's half-move with `action` injected for the unit `f`, and returns where `f`
/// ends and which way it faces.
fn after(
    level_rows: &[String],
    at: (i32, i32),
    facing: &str,
    enemy: (i32, i32),
    action: Action,
) -> (Cell, crate::rules::grid::Dir) {
    let l = level(
        &rows(level_rows),
        &[
            fig("f", "footman", "Red", at, facing),
            fig("e", "footman", "Blue", enemy, "N"),
        ],
        "",
    );
    let mut g = Game::new(&l, 3);
    inject(&mut g, "f", 0, 1, action, None);
    play_side(&mut g, 0);
    let s = g.snapshot();
    let f = s.figures.iter().find(|x| x.id == "f").expect("f");
    let dir = GridKind::Square.parse_dir(&f.facing).expect("a facing");
    (Cell::new(f.cell[0], f.cell[1]), dir)
}

/// A footman in a hedge, told to take cover ("a unit already in cover stays") or to go on
/// standing (RF ≤ 0, "continue"), with an enemy behind it: it stays in its cell and turns so
/// that the enemy is in its front. Each starting facing that has the enemy on a flank or the
/// rear is tried.
#[test]
fn i1_a_unit_that_stays_turns_its_front_to_the_enemy() {
    let sq = GridKind::Square;
    let mut field = open(21, 11);
    field[5].replace_range(10..11, "c");
    let (at, enemy) = ((10, 5), (10, 9));
    let mut tried = 0;
    for facing in ["N", "NE", "E", "W", "NW"] {
        let start = sq.parse_dir(facing).expect("a facing");
        assert!(
            on_flank_or_rear(sq, Cell::new(10, 5), start, Cell::new(10, 9)),
            "{facing}"
        );
        for action in [Action::TakeCover, Action::Continue] {
            tried += 1;
            let (cell, dir) = after(&field, at, facing, enemy, action);
            assert_eq!(cell, Cell::new(10, 5), "{action:?} from {facing}: it stays");
            assert!(
                !on_flank_or_rear(sq, cell, dir, Cell::new(enemy.0, enemy.1)),
                "{action:?} from {facing}: ends facing {dir:?}, the enemy on its flank or rear"
            );
        }
    }
    assert_eq!(tried, 10);
}

/// A footman in a walled pocket open only towards the enemy, told to flee or canter away:
/// there is nowhere farther from the enemy to go, so it stands at bay facing the enemy
/// instead of turning its back (before this it took the end that turned its back the most, as
/// a horse that must turn about does). On the map's edge a fleeing figure routs instead
/// (issue 12), so the pocket is inside the map.
#[test]
fn i1_a_retiring_unit_with_nowhere_to_go_stands_at_bay() {
    let sq = GridKind::Square;
    let mut field = open(21, 11);
    field[4].replace_range(9..12, "###");
    field[5].replace_range(9..12, "#.#");
    field[6].replace_range(9..12, "#.#");
    let text = format!(
        r#"Level(name: "t", ruleset: "destrier", width: 21, height: 11,
        legend: {{ '.': (name: "open", cost: 1), '#': (name: "wall", cost: None) }},
        rows: [{}],
        sides: [(name: "Red", control: Ai), (name: "Blue", control: Ai)],
        surprised: Some("Blue"),
        figures: [{}, {}])"#,
        field
            .iter()
            .map(|r| format!("{r:?}"))
            .collect::<Vec<_>>()
            .join(", "),
        fig("f", "footman", "Red", (10, 5), "N"),
        fig("e", "footman", "Blue", (10, 10), "N"),
    );
    let l = crate::level::load_level_str(&text, "<test>", None).expect("the level loads");
    let e = Cell::new(10, 10);
    for action in [Action::Flee, Action::CanterAway] {
        let mut g = Game::new(&l, 3);
        inject(&mut g, "f", 0, 1, action, None);
        play_side(&mut g, 0);
        let s = g.snapshot();
        let f = s.figures.iter().find(|x| x.id == "f").expect("f");
        let (cell, dir) = (
            Cell::new(f.cell[0], f.cell[1]),
            sq.parse_dir(&f.facing).expect("a facing"),
        );
        assert_eq!(cell, Cell::new(10, 5), "{action:?}: nowhere farther to go");
        assert!(
            !on_flank_or_rear(sq, cell, dir, e),
            "{action:?}: ends facing {dir:?}, its back to the enemy"
        );
    }
}
