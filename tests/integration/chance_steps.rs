//! Chance steps: D17 (squeezing between obstacles, the body bash and its 1/4 cost, foot only)
//! and R4 (controlled space: allies at difficult-terrain cost, hostiles by the house contest),
//! in the step rules, the reachable area, the Move order (both outcomes, fixed seeds), undo
//! and `warhorse script`.

use crate::warhorse;
use std::path::Path;
use warhorse::rules::board::{Board, Terrain};
use warhorse::rules::chance::{Chance, Gamble, RollFacts, bash_chance, contest_chance};
use warhorse::rules::gait::Gait;
use warhorse::rules::grid::{Cell, Dir, GridKind};
use warhorse::rules::movement::{Mover, MoverSpec, Pose, Step, StepRefusal};
use warhorse::rules::mp::Mp;
use warhorse::rules::reach::reachable;
use warhorse::rules::ruleset::Ruleset;
use warhorse::sim::Game;
use warhorse::sim::order::Order;

fn ruleset(name: &str) -> Ruleset {
    let src = match name {
        "destrier" => include_str!("../../rulesets/destrier.ron"),
        _ => include_str!("../../rulesets/realms.ron"),
    };
    ron::Options::default()
        .from_str(src)
        .expect("ruleset parses")
}

fn terrain(name: &str, cost: Option<i64>, obstacle: Option<u32>) -> Terrain {
    Terrain {
        name: name.into(),
        cost: cost.map(Mp::cells),
        mounted_cost: None,
        no_gallop: false,
        cover: false,
        blocks_sight: false,
        obstacle,
    }
}

const TREES: u8 = 1;

/// A 9×7 open square board whose column x = 4 is trees (300 lb obstacles) but for a gap at
/// (4, 3), and row 0 is open so that there is a long way round.
fn hedge_board(gap_row_only: bool) -> Board {
    let mut b = Board::new(
        GridKind::Square,
        9,
        7,
        vec![
            terrain("open", Some(1), None),
            terrain("trees", None, Some(300)),
        ],
    );
    for y in 0..7 {
        if y != 3 && (gap_row_only || y != 0) {
            let i = b.index(Cell::new(4, y));
            b.terrain[i] = TREES;
        }
    }
    b
}

fn spec(mounted: bool, basis: i64) -> MoverSpec {
    MoverSpec {
        side: 1,
        mounted,
        gait: Gait::Walk,
        basis: Mp::cells(basis),
        crawling: false,
        asl_gallop: false,
        stops: vec![],
    }
}

const E: Dir = Dir(2);

#[test]
fn d17_squeeze_costs_a_quarter_of_the_half_move_and_rolls_the_body_bash() {
    let b = hedge_board(true);
    let start = Pose::new(Cell::new(3, 3), E);
    let plain = Mover::new(&ruleset("destrier"), &b, spec(false, 6));
    // Without roll facts a chance step is refused, never taken for sure.
    assert_eq!(
        plain.try_step(&b, &start, Step::Forward).unwrap_err(),
        StepRefusal::NeedsRoll(Cell::new(4, 3))
    );
    let foot = plain.with_rolls(RollFacts::new(start.cell, 180, 10, vec![]));
    // The sure-step API still refuses it; the gamble API takes it.
    assert!(foot.try_step(&b, &start, Step::Forward).is_err());
    let (pose, cost, gamble) = foot.try_step_gamble(&b, &start, Step::Forward).unwrap();
    assert_eq!(pose.cell, Cell::new(4, 3));
    // One cell, plus 1/4 of the 6-cell half-move allowance for the bash (D17).
    assert_eq!(cost, Mp::ONE + Mp::ratio(3, 2).unwrap());
    let bash = bash_chance(300, 180);
    assert_eq!(
        gamble,
        Some(Gamble::Squeeze {
            obstacle: TREES,
            weight: 300,
            bash,
            cost: Mp::ratio(3, 2).unwrap(),
        })
    );
    // 120 lb heavier obstacle: two steps of the body bash table above the base.
    assert_eq!(i32::from(bash), 40 + 2 * 5);
    let g = gamble.unwrap();
    assert_eq!(g.chance(), Chance { num: 50, den: 100 });
    assert_eq!(g.fail_cost(), Mp::ratio(3, 2).unwrap());
    // Leaving the gap eastwards passes no obstacles: a sure step.
    let (_, c2, g2) = foot.try_step_gamble(&b, &pose, Step::Forward).unwrap();
    assert_eq!((c2, g2), (Mp::ONE, None));
    // With one obstacle only beside the step there is nothing to squeeze between.
    let mut one = hedge_board(true);
    let i = one.index(Cell::new(4, 4));
    one.terrain[i] = 0;
    let (_, c3, g3) = foot.try_step_gamble(&one, &start, Step::Forward).unwrap();
    assert_eq!((c3, g3), (Mp::ONE, None));
}

#[test]
fn d17_is_for_foot_only_a_mount_cannot_squeeze() {
    let b = hedge_board(true);
    let start = Pose::new(Cell::new(3, 3), E);
    let horse = Mover::new(&ruleset("destrier"), &b, spec(true, 7)).with_rolls(RollFacts::new(
        start.cell,
        1400,
        10,
        vec![],
    ));
    assert_eq!(
        horse
            .try_step_gamble(&b, &start, Step::Forward)
            .unwrap_err(),
        StepRefusal::TooWide(Cell::new(4, 3))
    );
}

#[test]
fn d17_a_heavier_figure_gets_through_more_often() {
    assert!(bash_chance(150, 300) < bash_chance(150, 150));
    assert!(bash_chance(600, 150) > bash_chance(150, 150));
}

#[test]
fn reach_reports_the_roll_and_prefers_a_sure_path() {
    let start = Pose::new(Cell::new(2, 3), E);
    let facts = RollFacts::new(start.cell, 180, 10, vec![]);
    // Only through the gap: the cells beyond are behind a roll.
    let b = hedge_board(true);
    let m = Mover::new(&ruleset("destrier"), &b, spec(false, 6)).with_rolls(facts.clone());
    let reach = reachable(&b, &m, start, Mp::cells(6));
    let beyond = reach
        .end(Cell::new(5, 3), E)
        .expect("reachable through the gap");
    let r = beyond.roll.expect("behind a roll");
    assert_eq!(beyond.cost, Mp::cells(3) + Mp::ratio(3, 2).unwrap());
    assert_eq!(r.chance, Chance { num: 50, den: 100 });
    assert_eq!(r.step, 1);
    assert_eq!((r.fail_cell, r.fail_facing), (Cell::new(3, 3), E));
    assert_eq!(r.fail_cost, Mp::ONE + Mp::ratio(3, 2).unwrap());
    assert_eq!(
        reach.path(beyond),
        [Step::Forward, Step::Forward, Step::Forward]
    );
    // Cells this side of the hedge need no roll.
    assert!(reach.end(Cell::new(3, 3), E).unwrap().roll.is_none());
    // With a way round (row 0 open) a sure path is reported where the allowance pays for it,
    // even though the gap is cheaper.
    let open = hedge_board(false);
    let m = Mover::new(&ruleset("destrier"), &open, spec(false, 6)).with_rolls(facts);
    let reach = reachable(&open, &m, start, Mp::cells(12));
    let end = reach.cheapest_at(Cell::new(5, 3)).unwrap();
    assert!(end.roll.is_none(), "{end:?}");
    assert!(end.cost > Mp::cells(3) + Mp::ratio(3, 2).unwrap());
}

/// A realms hex board, all open, with an ally at (3, 2) and a hostile at (3, 4).
fn realms_board() -> (Board, Ruleset) {
    let rules = ruleset("realms");
    let mut b = Board::new(GridKind::Hex, 8, 7, vec![terrain("open", Some(1), None)]);
    let ally = b.index(Cell::new(3, 2));
    b.occupant[ally] = 1;
    let foe = b.index(Cell::new(3, 4));
    b.occupant[foe] = 2;
    (b, rules)
}

#[test]
fn r4_allies_pass_at_difficult_cost_hostiles_only_by_contest() {
    let (b, mut rules) = realms_board();
    let east = Dir(1);
    let from_ally = Pose::new(Cell::new(2, 2), east);
    let from_foe = Pose::new(Cell::new(2, 4), east);
    let facts = RollFacts::new(Cell::new(2, 2), 180, 11, vec![(Cell::new(3, 4), 14)]);
    let m = Mover::new(&rules, &b, spec(false, 10)).with_rolls(facts.clone());
    // An ally's cell: difficult terrain (2), no roll.
    let (_, c, g) = m.try_step_gamble(&b, &from_ally, Step::Go(east)).unwrap();
    assert_eq!((c, g), (Mp::cells(2), None));
    // A hostile's: a contest, passed at difficult cost, a loss costing nothing.
    let (p, c, g) = m.try_step_gamble(&b, &from_foe, Step::Go(east)).unwrap();
    assert_eq!((p.cell, c), (Cell::new(3, 4), Mp::cells(2)));
    let g = g.expect("a contest");
    assert_eq!(
        g,
        Gamble::Contest {
            at: Cell::new(3, 4),
            mine: 11,
            theirs: 14
        }
    );
    assert_eq!(g.chance(), contest_chance(11, 14));
    assert_eq!(g.fail_cost(), Mp::ZERO);
    // No contest rule, or a hostile it knows nothing of: closed.
    rules.contest = false;
    let closed = Mover::new(&rules, &b, spec(false, 10)).with_rolls(facts);
    assert_eq!(
        closed
            .try_step_gamble(&b, &from_foe, Step::Go(east))
            .unwrap_err(),
        StepRefusal::Enemy(Cell::new(3, 4))
    );
    rules.contest = true;
    let unknown = Mover::new(&rules, &b, spec(false, 10)).with_rolls(RollFacts::new(
        Cell::new(2, 4),
        180,
        11,
        vec![],
    ));
    assert!(matches!(
        unknown.try_step_gamble(&b, &from_foe, Step::Go(east)),
        Err(StepRefusal::Enemy(_))
    ));
}

#[test]
fn r4_no_roll_from_an_occupied_cell_and_never_an_end_in_one() {
    let (mut b, rules) = realms_board();
    // A second hostile at (3, 3), next to the ally's cell (3, 2).
    let i = b.index(Cell::new(3, 3));
    b.occupant[i] = 2;
    let foes = vec![(Cell::new(3, 4), 14), (Cell::new(3, 3), 9)];
    let in_ally = Pose::new(Cell::new(3, 2), Dir(1));
    let d = b
        .grid
        .dir_to_adjacent(in_ally.cell, Cell::new(3, 3))
        .unwrap();
    // Passing through the ally's cell, a lost contest would leave it stopped there (D10a).
    let passing = Mover::new(&rules, &b, spec(false, 10)).with_rolls(RollFacts::new(
        Cell::new(2, 2),
        180,
        11,
        foes.clone(),
    ));
    assert_eq!(
        passing
            .try_step_gamble(&b, &in_ally, Step::Go(d))
            .unwrap_err(),
        StepRefusal::RollInCrowd(Cell::new(3, 2))
    );
    // From its own starting cell it may roll.
    let home = Mover::new(&rules, &b, spec(false, 10)).with_rolls(RollFacts::new(
        Cell::new(3, 2),
        180,
        11,
        foes.clone(),
    ));
    assert!(
        home.try_step_gamble(&b, &in_ally, Step::Go(d))
            .unwrap()
            .2
            .is_some()
    );
    let reach = reachable(
        &b,
        &passing,
        Pose::new(Cell::new(2, 2), Dir(1)),
        Mp::cells(10),
    );
    assert!(
        reach.cheapest_at(Cell::new(3, 2)).is_none(),
        "an ally's cell"
    );
    assert!(
        reach.cheapest_at(Cell::new(3, 4)).is_none(),
        "a hostile's cell"
    );
    // Beyond the hostiles: reachable for sure, around them.
    assert!(reach.cheapest_at(Cell::new(5, 3)).unwrap().roll.is_none());
}

// ---- The Move order in a game: both outcomes with fixed seeds, undo, script. ----

const LEVEL: &str = "levels/realms_hedgerow.ron";
const ORDERS: &str = "tests/fixtures/hedgerow.orders.ron";

fn level() -> warhorse::level::Level {
    warhorse::level::load_level_file(Path::new(LEVEL)).expect("the hedgerow level loads")
}

fn east4(unit: &str) -> Order {
    Order::Move {
        unit: unit.into(),
        steps: vec![Step::Go(Dir(1)); 4],
    }
}

/// (cell, allowance left) of a figure.
fn state(g: &mut Game, id: &str) -> ([i32; 2], String) {
    let s = g.snapshot();
    let f = s.figures.iter().find(|f| f.id == id).expect("figure");
    (f.cell, f.allowance_left.clone())
}

/// Plays `order` in a fresh game with `seed`: whether the roll passed (read from the logged
/// die), and the figure's cell and allowance left after.
fn play(seed: u64, unit: &str, order: &Order) -> (bool, [i32; 2], String, String) {
    let mut g = Game::new(&level(), seed);
    let before = state(&mut g, unit).1;
    g.order(order)
        .expect("a move through a roll is accepted either way");
    assert!(!g.can_undo(), "undo stops at the die the move rolled");
    let log = &g
        .world_for_tests()
        .resource::<warhorse::sim::log::GameLog>()
        .0;
    let rolls: Vec<_> = log.iter().filter(|l| l.roll.is_some()).collect();
    let text: String = rolls.iter().map(|l| l.to_string()).collect();
    let passed = match rolls.as_slice() {
        [one] => {
            let v = one.roll.as_ref().unwrap().value;
            assert!(
                one.to_string()
                    .contains("squeezes between the thorn hedge (D17)")
            );
            v > bash_from_text(&one.to_string())
        }
        [mine, theirs] => {
            let a = mine.roll.as_ref().unwrap().value;
            let b = theirs.roll.as_ref().unwrap().value;
            assert!(
                mine.to_string()
                    .contains("contests ghoul_1's cell (5,7) (R4)")
            );
            a + dex(&mine.to_string()) > b + dex(&theirs.to_string())
        }
        other => panic!("expected one or two dice, got {}", other.len()),
    };
    let (cell, left) = state(&mut g, unit);
    assert_ne!(before, left, "the move spent something either way");
    (passed, cell, left, text)
}

/// The bash chance a squeeze line quotes ("needs 40 or less").
fn bash_from_text(t: &str) -> u32 {
    let at = t.find("needs ").expect("needs") + 6;
    t[at..].split(' ').next().unwrap().parse().unwrap()
}

/// The Dexterity a contest line adds ("+ Dexterity 10 =").
fn dex(t: &str) -> u32 {
    let at = t.find("Dexterity ").expect("Dexterity") + 10;
    t[at..].split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn d17_move_order_both_outcomes_with_fixed_seeds() {
    // Seed 1 passes the thorns, seed 2 does not (the log's die decides, as the rule says).
    let (passed, cell, left, text) = play(1, "warrior", &east4("warrior"));
    assert!(passed, "{text}");
    assert!(text.contains("gives way"), "{text}");
    assert_eq!(cell, [6, 3]);
    let (failed, cell_f, left_f, text_f) = play(2, "warrior", &east4("warrior"));
    assert!(!failed, "{text_f}");
    assert!(text_f.contains("holds, it stops at (4,3)"), "{text_f}");
    assert_eq!(cell_f, [4, 3], "stops before the gap");
    // The costs are the reach's: success and failure.
    let mut g = Game::new(&level(), 1);
    let world = g.world_for_tests_mut();
    let e = warhorse::sim::world::find_figure(world, "warrior").unwrap();
    let (setup, reach) = warhorse::sim::motion::reach_of(world, e);
    let end = reach.end(Cell::new(6, 3), Dir(1)).expect("beyond the gap");
    let roll = end.roll.expect("behind the squeeze");
    assert_eq!(roll.fail_cell, Cell::new(4, 3));
    assert_eq!(left, (setup.left - end.cost).to_string());
    assert_eq!(left_f, (setup.left - roll.fail_cost).to_string());
}

#[test]
fn r4_contest_move_order_both_outcomes_with_fixed_seeds() {
    // Seed 1: the ghoul holds; seed 4: the dwarf wins and passes through to (6,7).
    let (passed, cell, _, text) = play(1, "dwarf", &east4("dwarf"));
    assert!(!passed, "{text}");
    assert!(
        text.contains("ghoul_1 holds its cell; dwarf stops at (4,7)"),
        "{text}"
    );
    assert_eq!(cell, [4, 7]);
    let (passed, cell, _, text) = play(4, "dwarf", &east4("dwarf"));
    assert!(passed, "{text}");
    assert!(text.contains("passes into (5,7)"), "{text}");
    assert_eq!(cell, [6, 7], "through the ghoul's cell, never ending in it");
}

#[test]
fn a_move_order_rolls_at_most_once() {
    let mut g = Game::new(&level(), 3);
    // Squeeze through the gap, come back through it: two rolls in one order.
    let mut steps = vec![Step::Go(Dir(1)); 3];
    steps.extend([Step::Go(Dir(4)); 2]);
    let r = g.order(&Order::Move {
        unit: "warrior".into(),
        steps,
    });
    let why = r.expect_err("two rolls in one order").to_string();
    assert!(why.contains("one roll per move order"), "{why}");
    // Refused before any die: nothing rolled, nothing recorded.
    let log = &g
        .world_for_tests()
        .resource::<warhorse::sim::log::GameLog>()
        .0;
    assert!(log.iter().all(|l| l.roll.is_none()));
    assert!(g.record().orders.is_empty());
}

#[test]
fn script_replays_the_rolls_byte_identically() {
    let run = |seed: &str| warhorse(&["script", LEVEL, ORDERS, "--seed", seed, "--json"]);
    let (code, a, err) = run("2");
    assert_eq!(code, 0, "{err}");
    let (_, b, _) = run("2");
    assert_eq!(a, b, "same seed, same orders: same bytes");
    let v: serde_json::Value = serde_json::from_str(&a).unwrap();
    let log = v["log"].to_string();
    assert!(log.contains("the thorn hedge holds"), "{log}");
    assert!(log.contains("dwarf wins"), "{log}");
    assert!(log.contains("\"die\":\"d100\""), "{log}");
}

#[test]
fn reach_cli_prints_the_chance() {
    let (code, out, err) = warhorse(&["reach", LEVEL, "--unit", "warrior", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let end = v["ends"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["cell"] == serde_json::json!([6, 3]) && e["facing"] == "E")
        .expect("beyond the gap");
    assert_eq!(end["roll"]["kind"], "squeeze");
    assert_eq!(end["roll"]["chance"], "60%");
    assert_eq!(end["roll"]["fail_cell"], serde_json::json!([4, 3]));
    let (_, text, _) = warhorse(&["reach", LEVEL, "--unit", "warrior"]);
    assert!(text.contains("60% to get through"), "{text}");
}
