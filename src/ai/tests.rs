//! Unit tests of the AI: every risk-factor term (I1) on a board built for it, every row of
//! the actions table (I2), and each action turned into orders the rules accept.

use crate::level::{Level, load_level_str};
use crate::rules::actions::{self as table, Action, Band, Conduct};
use crate::rules::gait::Gait;
use crate::rules::risk::RiskTerms;
use crate::sim::Game;
use crate::sim::action_roll::risk_terms;
use crate::sim::action_roll::{ActionRolls, RollEntry};
use crate::sim::components::{Body, FigureId};
use crate::sim::order::Order;
use crate::sim::view::View;
use bevy::prelude::*;

/// A `destrier` level: Blue is surprised, so Red moves first in turn 1 without a die.
/// `.` open, `c` hedges (cover that does not block sight), `f` woods (cover, blocks sight).
pub(crate) fn level(rows: &[&str], figures: &[String], groups: &str) -> Level {
    level_with(rows, figures, groups, "")
}

/// [`level`], with `more` fields after the groups (`, victory: (…)`).
pub(crate) fn level_with(rows: &[&str], figures: &[String], groups: &str, more: &str) -> Level {
    let text = format!(
        r#"Level(name: "t", ruleset: "destrier", width: {}, height: {},
        legend: {{ '.': (name: "open", cost: 1),
                   'c': (name: "hedges", cost: 1, cover: true),
                   'f': (name: "woods", cost: 2, cover: true, blocks_sight: true) }},
        rows: [{}],
        sides: [(name: "Red", control: Ai), (name: "Blue", control: Ai)],
        surprised: Some("Blue"),
        figures: [{}],
        groups: [{groups}]{more})"#,
        rows[0].len(),
        rows.len(),
        rows.iter()
            .map(|r| format!("{r:?}"))
            .collect::<Vec<_>>()
            .join(", "),
        figures.join(", ")
    );
    load_level_str(&text, "<test>", None).expect("test level loads")
}

/// One figure of a test level.
pub(crate) fn fig(id: &str, template: &str, side: &str, at: (i32, i32), facing: &str) -> String {
    format!(
        r#"(id: "{id}", template: "{template}", side: "{side}", at: ({}, {}), facing: "{facing}")"#,
        at.0, at.1
    )
}

/// A figure with a starting gait.
fn fig_at_gait(
    id: &str,
    template: &str,
    side: &str,
    at: (i32, i32),
    facing: &str,
    gait: &str,
) -> String {
    format!(
        r#"(id: "{id}", template: "{template}", side: "{side}", at: ({}, {}), facing: "{facing}", gait: {gait})"#,
        at.0, at.1
    )
}

pub(crate) fn open(w: usize, h: usize) -> Vec<String> {
    vec![".".repeat(w); h]
}

pub(crate) fn rows(v: &[String]) -> Vec<&str> {
    v.iter().map(|s| s.as_str()).collect()
}

/// The terms of unit `unit` at the start of the game.
fn terms_of(game: &mut Game, unit: &str) -> RiskTerms {
    let view = View::build(game.app.world_mut());
    let g = view.group(unit).expect("unit");
    risk_terms(&view, g, false)
}

fn set_body(game: &mut Game, id: &str, left: u16) {
    let w = game.world_for_tests_mut();
    let mut q = w.query::<(&FigureId, &mut Body)>();
    for (f, mut b) in q.iter_mut(w) {
        if f.0 == id {
            b.left = left;
        }
    }
}

/// Puts a roll for `unit` into the game, as if it had rolled `roll` at `risk` in `turn`.
pub(crate) fn inject(
    game: &mut Game,
    unit: &str,
    side: u8,
    turn: u32,
    action: Action,
    before: Option<Conduct>,
) {
    let entry = RollEntry {
        turn,
        unit: unit.into(),
        side,
        terms: RiskTerms::default(),
        roll: 1,
        action,
        intent: table::intent(action, before),
    };
    let w = game.world_for_tests_mut();
    match w.get_resource_mut::<ActionRolls>() {
        Some(mut r) => r.0.push(entry),
        None => w.insert_resource(ActionRolls(vec![entry])),
    }
}

/// Plays `side` until it ends its half-move; every order must be accepted.
pub(crate) fn play_side(game: &mut Game, side: u8) -> Vec<Order> {
    let mut out = Vec::new();
    while let Some(o) = super::next_order(game, side) {
        game.order(&o)
            .unwrap_or_else(|r| panic!("{o} refused: {r}"));
        let end = o == Order::EndSide;
        out.push(o);
        // A rout off the map (issue 12) can end the battle in the middle of a half-move.
        if end || game.outcome().is_some() {
            break;
        }
    }
    out
}

fn cell_of(game: &mut Game, id: &str) -> (i32, i32) {
    let s = game.snapshot();
    let f = s.figures.iter().find(|f| f.id == id).expect("figure");
    (f.cell[0], f.cell[1])
}

// ---- I1: the terms ------------------------------------------------------------------

#[test]
fn i1_hero_with_the_unit() {
    let l = level(
        &rows(&open(30, 10)),
        &[
            fig("k", "knight_on_destrier", "Red", (1, 1), "E"),
            fig("c", "knight_on_charger", "Red", (1, 5), "E"),
            fig("e", "footman", "Blue", (28, 8), "W"),
        ],
        "",
    );
    let mut g = Game::new(&l, 1);
    assert_eq!(terms_of(&mut g, "k").hero, -1);
    assert_eq!(terms_of(&mut g, "c").hero, 0);
}

#[test]
fn i1_entirely_in_cover_or_at_canter() {
    let mut r = open(30, 10);
    r[1] = format!("cc{}", ".".repeat(28));
    r[3] = format!("c{}", ".".repeat(29));
    let l = level(
        &rows(&r),
        &[
            fig("a", "footman", "Red", (0, 1), "E"),
            fig("b", "footman", "Red", (1, 1), "E"),
            fig("x", "footman", "Red", (0, 3), "E"),
            fig("y", "footman", "Red", (1, 1 + 4), "E"),
            fig_at_gait("m", "knight_on_charger", "Red", (3, 8), "E", "Canter"),
            fig_at_gait("t", "knight_on_charger", "Red", (3, 6), "E", "Trot"),
            fig("e", "footman", "Blue", (28, 8), "W"),
        ],
        r#"(name: "hedged", members: ["a", "b"]), (name: "half", members: ["x", "y"])"#,
    );
    let mut g = Game::new(&l, 1);
    assert_eq!(
        terms_of(&mut g, "hedged").cover_or_speed,
        -1,
        "entirely in cover"
    );
    assert_eq!(
        terms_of(&mut g, "half").cover_or_speed,
        0,
        "partly in cover"
    );
    assert_eq!(terms_of(&mut g, "m").cover_or_speed, -1, "at a canter");
    assert_eq!(terms_of(&mut g, "t").cover_or_speed, 0, "at a trot");
}

#[test]
fn i1_enemy_in_clear_sight_and_range() {
    // Four scenes 15 rows apart (a bow reaches 12 cells, our reading): in range and clear;
    // 14 cells off; a figure in between; woods in between.
    let mut r = open(20, 50);
    r[46] = format!("{}f{}", ".".repeat(8), ".".repeat(11));
    let l = level(
        &rows(&r),
        &[
            fig("near", "footman", "Red", (2, 1), "E"),
            fig("a1", "archer", "Blue", (14, 1), "W"),
            fig("far", "footman", "Red", (2, 16), "E"),
            fig("a2", "archer", "Blue", (16, 16), "W"),
            fig("screened", "footman", "Red", (2, 31), "E"),
            fig("screen", "footman", "Blue", (6, 31), "W"),
            fig("a3", "archer", "Blue", (14, 31), "W"),
            fig("wooded", "footman", "Red", (2, 46), "E"),
            fig("a4", "archer", "Blue", (14, 46), "W"),
        ],
        "",
    );
    let mut g = Game::new(&l, 1);
    assert_eq!(
        terms_of(&mut g, "near").enemy_in_range,
        1,
        "12 cells, clear"
    );
    assert_eq!(
        terms_of(&mut g, "far").enemy_in_range,
        0,
        "14 cells: out of range"
    );
    assert_eq!(
        terms_of(&mut g, "screened").enemy_in_range,
        0,
        "a figure in between"
    );
    assert_eq!(
        terms_of(&mut g, "wooded").enemy_in_range,
        0,
        "woods in between"
    );
}

#[test]
fn i1_raw_unit_in_range_of_an_enemy_in_sight() {
    let l = level(
        &rows(&open(20, 20)),
        &[
            fig("levy", "raw_levy", "Red", (2, 1), "E"),
            fig("screen", "footman", "Blue", (6, 1), "W"),
            fig("archer", "archer", "Blue", (14, 1), "W"),
            fig("foot", "footman", "Red", (2, 16), "E"),
            fig("screen2", "footman", "Blue", (6, 16), "W"),
            fig("archer2", "archer", "Blue", (14, 16), "W"),
        ],
        "",
    );
    let mut g = Game::new(&l, 1);
    let t = terms_of(&mut g, "levy");
    assert_eq!(
        (t.raw, t.enemy_in_range),
        (1, 0),
        "in sight past a figure, not in clear sight"
    );
    assert_eq!(terms_of(&mut g, "foot").raw, 0, "not raw");
}

#[test]
fn i1_per_ten_percent_wounded_or_killed() {
    let figs: Vec<String> = (0..5)
        .map(|i| fig(&format!("f{i}"), "footman", "Red", (1, i * 2), "E"))
        .chain([
            fig("k0", "knight_on_charger", "Red", (5, 0), "E"),
            fig("k1", "knight_on_charger", "Red", (5, 2), "E"),
            fig("k2", "knight_on_charger", "Red", (5, 4), "E"),
            fig("e", "footman", "Blue", (28, 9), "W"),
        ])
        .collect();
    let l = level(
        &rows(&open(30, 10)),
        &figs,
        r#"(name: "five", members: ["f0", "f1", "f2", "f3", "f4"]), (name: "three", members: ["k0", "k1", "k2"])"#,
    );
    let mut g = Game::new(&l, 1);
    assert_eq!(terms_of(&mut g, "five").losses, 0);
    set_body(&mut g, "f0", 5);
    assert_eq!(terms_of(&mut g, "five").losses, 2, "1 of 5 wounded = 20%");
    set_body(&mut g, "f1", 0);
    assert_eq!(
        terms_of(&mut g, "five").losses,
        4,
        "1 wounded, 1 killed = 40%"
    );
    set_body(&mut g, "k0.mount", 3);
    assert_eq!(
        terms_of(&mut g, "three").losses,
        3,
        "a wounded horse: 1 of 3 = 33%"
    );
    // A member gone from the board still counts as lost.
    let w = g.world_for_tests_mut();
    let gone: Vec<Entity> = w
        .query::<(Entity, &FigureId)>()
        .iter(w)
        .filter(|(_, f)| f.0 == "f2")
        .map(|(e, _)| e)
        .collect();
    for e in gone {
        w.despawn(e);
    }
    assert_eq!(terms_of(&mut g, "five").losses, 6, "and one gone = 60%");
}

#[test]
fn i1_enemy_on_a_flank_or_the_rear_in_sight() {
    let mut r = open(40, 12);
    r[10] = format!("{}f{}", ".".repeat(28), ".".repeat(11));
    let l = level(
        &rows(&r),
        &[
            fig("rear", "footman", "Red", (3, 2), "N"),
            fig("e1", "footman", "Blue", (3, 6), "N"),
            fig("front", "footman", "Red", (16, 6), "N"),
            fig("e2", "footman", "Blue", (16, 2), "S"),
            fig("hidden", "footman", "Red", (28, 8), "N"),
            fig("e3", "footman", "Blue", (28, 11), "N"),
            fig("distant", "footman", "Red", (39, 0), "N"),
        ],
        "",
    );
    let mut g = Game::new(&l, 1);
    assert_eq!(
        terms_of(&mut g, "rear").flank_or_rear,
        2,
        "an enemy behind, 4 cells"
    );
    // Far or near, e1 and e3 are in sight on its flanks; alone with the enemy in front, it
    // counts nothing.
    assert_eq!(terms_of(&mut g, "front").flank_or_rear, 2);
    let alone = level(
        &rows(&open(40, 12)),
        &[
            fig("front", "footman", "Red", (16, 6), "N"),
            fig("e2", "footman", "Blue", (16, 2), "S"),
        ],
        "",
    );
    let mut a = Game::new(&alone, 1);
    assert_eq!(
        terms_of(&mut a, "front").flank_or_rear,
        0,
        "an enemy in front"
    );
    // Behind woods, and no other enemy in sight.
    let mut wood = open(40, 12);
    wood[10] = format!("{}f{}", ".".repeat(28), ".".repeat(11));
    let hidden = level(
        &rows(&wood),
        &[
            fig("hidden", "footman", "Red", (28, 8), "N"),
            fig("e3", "footman", "Blue", (28, 11), "N"),
        ],
        "",
    );
    let mut h = Game::new(&hidden, 1);
    assert_eq!(terms_of(&mut h, "hidden").flank_or_rear, 0, "behind woods");
    // Seed 004 (I1): "Enemy to flank or rear and in sight" sets no distance: the nearest
    // enemy, 11 cells off behind it (beyond a footman's move and reach, 6 + 1), counts.
    assert_eq!(
        terms_of(&mut g, "distant").flank_or_rear,
        2,
        "in sight on the rear, far or near"
    );
}

#[test]
fn i1_ran_last_turn() {
    let l = level(
        &rows(&open(30, 10)),
        &[
            fig("a", "footman", "Red", (1, 1), "E"),
            fig("b", "footman", "Red", (1, 5), "E"),
            fig("e", "footman", "Blue", (28, 8), "W"),
        ],
        "",
    );
    let mut g = Game::new(&l, 1);
    // Pretend this is turn 2: `a` fled in turn 1, `b` halted.
    g.app
        .world_mut()
        .resource_mut::<crate::sim::phase::TurnState>()
        .turn = 2;
    inject(&mut g, "a", 0, 1, Action::Flee, None);
    inject(&mut g, "b", 0, 1, Action::Halt, None);
    assert_eq!(terms_of(&mut g, "a").ran, 3);
    assert_eq!(terms_of(&mut g, "b").ran, 0);
    // Two turns later the flight no longer counts.
    g.app
        .world_mut()
        .resource_mut::<crate::sim::phase::TurnState>()
        .turn = 3;
    assert_eq!(terms_of(&mut g, "a").ran, 0);
}

#[test]
fn i1_i2_the_roll_is_an_order_logged_with_its_terms() {
    let l = level(
        &rows(&open(30, 10)),
        &[
            fig("k", "knight_on_destrier", "Red", (1, 1), "E"),
            fig("e", "footman", "Blue", (28, 8), "W"),
        ],
        "",
    );
    let mut g = Game::new(&l, 7);
    let o = super::next_order(&mut g, 0).expect("an order");
    assert_eq!(o, Order::ActionRoll { unit: "k".into() });
    g.order(&o).expect("the roll is accepted");
    let again = g.order(&o).expect_err("once a turn");
    assert!(again.0.contains("already rolled"), "{again}");
    let s = g.snapshot();
    let line = s
        .log
        .iter()
        .rev()
        .find(|l| l.roll.is_some())
        .expect("rolled");
    assert!(
        line.to_string()
            .contains("risk factor -1 (hero with the unit -1)"),
        "{}",
        line
    );
    let v = line.roll.as_ref().map(|r| r.value).unwrap_or(0);
    let e = super::explain(&g, "k").expect("explained");
    assert_eq!((e.risk, e.roll), (-1, v));
    assert_eq!(e.action, table::action(-1, v, true).text());
}

// ---- I2: each action becomes orders the rules accept -----------------------------------

/// A knight at (4,4) heading E, a footman enemy at (14,4) facing W, hedges (cover) at
/// (1..2, 8..9).
fn duel() -> Game {
    let mut r = open(20, 10);
    r[8] = format!(".cc{}", ".".repeat(17));
    r[9] = format!(".cc{}", ".".repeat(17));
    let l = level(
        &rows(&r),
        &[
            fig("k", "knight_on_charger", "Red", (4, 4), "E"),
            fig("f", "footman", "Red", (4, 7), "E"),
            fig("e", "footman", "Blue", (14, 4), "W"),
        ],
        "",
    );
    Game::new(&l, 3)
}

fn dist(a: (i32, i32), b: (i32, i32)) -> i32 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

#[test]
fn i2_gallop_advance_closes_at_the_fastest_legal_gait() {
    let mut g = duel();
    inject(&mut g, "k", 0, 1, Action::GallopAdvance, None);
    inject(&mut g, "f", 0, 1, Action::GallopAdvance, None);
    let orders = play_side(&mut g, 0);
    assert!(
        orders.contains(&Order::SetGait {
            unit: "k".into(),
            gait: Gait::Gallop
        }),
        "{orders:?}"
    );
    assert!(dist(cell_of(&mut g, "k"), (14, 4)) < 10);
    assert!(dist(cell_of(&mut g, "f"), (14, 4)) < dist((4, 7), (14, 4)));
}

#[test]
fn i2_canter_away_and_flee_increase_the_distance() {
    for (action, gait) in [
        (Action::CanterAway, Gait::Canter),
        (Action::Flee, Gait::Gallop),
    ] {
        let l = level(
            &rows(&open(20, 10)),
            &[
                fig("k", "knight_on_charger", "Red", (10, 4), "W"),
                fig("f", "footman", "Red", (10, 7), "E"),
                fig("e", "footman", "Blue", (18, 4), "W"),
            ],
            "",
        );
        let mut g = Game::new(&l, 3);
        inject(&mut g, "k", 0, 1, action, None);
        inject(&mut g, "f", 0, 1, action, None);
        let orders = play_side(&mut g, 0);
        assert!(
            orders.contains(&Order::SetGait {
                unit: "k".into(),
                gait
            }),
            "{action:?}: {orders:?}"
        );
        // Far away, or off the map by its edge: routed (issue 12, I2).
        let away = |g: &mut Game, id: &str, far: i32| {
            let s = g.snapshot();
            s.left_the_map
                .iter()
                .any(|x| x.id == id && x.how == "routed")
                || dist(cell_of(g, id), (18, 4)) > far
        };
        assert!(away(&mut g, "k", 12), "{action:?}");
        // The footman faces the enemy: it turns about (half its move) and steps away.
        assert!(away(&mut g, "f", 8), "{action:?}");
    }
}

#[test]
fn i2_a_mount_heading_at_the_enemy_turns_about_at_a_walk_before_it_flees() {
    let mut g = duel();
    inject(&mut g, "k", 0, 1, Action::Flee, None);
    inject(&mut g, "f", 0, 1, Action::Halt, None);
    let orders = play_side(&mut g, 0);
    assert!(
        !orders
            .iter()
            .any(|o| matches!(o, Order::SetGait { unit, .. } if unit == "k")),
        "it stays at a walk: {orders:?}"
    );
    let s = g.snapshot();
    let k = s.figures.iter().find(|x| x.id == "k").expect("k");
    assert_eq!(k.facing, "W", "turned about");
}

#[test]
fn i2_take_cover_walks_to_the_nearest_cover() {
    let mut g = duel();
    inject(&mut g, "f", 0, 1, Action::TakeCover, None);
    inject(&mut g, "k", 0, 1, Action::Halt, None);
    play_side(&mut g, 0);
    let at = cell_of(&mut g, "f");
    // Hedges are 2-3 cells off; a footman walks 3 a half-move, turning included.
    assert!(
        dist(at, (2, 8)) < dist((4, 7), (2, 8)),
        "towards the hedges: {at:?}"
    );
    // Blue's half-move, then Red's second: it gets there.
    let blue = play_side(&mut g, 1);
    assert!(blue.is_empty() || blue.last() == Some(&Order::EndSide));
    // The second initiative decides who moves first in the second half-move (§1).
    if play_side(&mut g, 0).is_empty() {
        play_side(&mut g, 1);
        play_side(&mut g, 0);
    }
    let at = cell_of(&mut g, "f");
    assert!(
        crate::rules::risk::in_cover(
            &g.app.world().resource::<crate::sim::world::Map>().0,
            crate::rules::grid::Cell::new(at.0, at.1)
        ),
        "in cover: {at:?}"
    );
}

#[test]
fn i2_halt_stops_the_mount_facing_the_enemy() {
    let mut g = duel();
    inject(&mut g, "k", 0, 1, Action::Halt, None);
    inject(&mut g, "f", 0, 1, Action::Halt, None);
    let orders = play_side(&mut g, 0);
    assert!(
        orders.contains(&Order::SetGait {
            unit: "k".into(),
            gait: Gait::Halt
        }),
        "{orders:?}"
    );
    assert_eq!(cell_of(&mut g, "k"), (4, 4));
    // The footman faced E with the enemy ENE: within 45°, no turn needed.
    assert_eq!(cell_of(&mut g, "f"), (4, 7));
}

#[test]
fn i2_continue_keeps_last_turns_conduct() {
    let mut g = duel();
    let adv = Conduct::Advance {
        gait: Gait::Walk,
        visible: false,
    };
    inject(&mut g, "k", 0, 1, Action::Continue, Some(adv));
    inject(&mut g, "f", 0, 1, Action::Continue, Some(Conduct::Stand));
    play_side(&mut g, 0);
    assert!(cell_of(&mut g, "k").0 > 4, "the advance goes on");
    assert_eq!(cell_of(&mut g, "f"), (4, 7), "the halt goes on");
}

#[test]
fn i2_a_six_at_a_halt_advances_on_the_nearest_visible_enemy() {
    let mut g = duel();
    inject(&mut g, "k", 0, 1, Action::AdvanceOnVisible, None);
    inject(&mut g, "f", 0, 1, Action::Halt, None);
    play_side(&mut g, 0);
    assert!(dist(cell_of(&mut g, "k"), (14, 4)) < 10);
}

#[test]
fn i2_continue_facing_turns_a_halted_unit_to_the_enemy() {
    let mut g = duel();
    // The footman faces W, away from the enemy: it turns about.
    {
        let w = g.world_for_tests_mut();
        let mut q = w.query::<(&FigureId, &mut crate::sim::components::Facing)>();
        for (f, mut d) in q.iter_mut(w) {
            if f.0 == "f" {
                d.0 = crate::rules::grid::Dir(6);
            }
        }
    }
    inject(
        &mut g,
        "f",
        0,
        1,
        Action::ContinueFacing,
        Some(Conduct::Stand),
    );
    inject(&mut g, "k", 0, 1, Action::Halt, None);
    let orders = play_side(&mut g, 0);
    assert!(
        orders
            .iter()
            .any(|o| matches!(o, Order::Move { unit, .. } if unit == "f")),
        "{orders:?}"
    );
    let s = g.snapshot();
    let f = s.figures.iter().find(|x| x.id == "f").expect("f");
    assert!(
        ["E", "NE", "SE"].contains(&f.facing.as_str()),
        "faces the enemy: {}",
        f.facing
    );
}

// ---- I2 with the game's dice: every row, every face -------------------------------------

/// A unit of ten footmen far from the one enemy: with `k` of them wounded its risk factor is
/// exactly `k` (I1: +1 per 10% of the group wounded), so `k` picks the table's row.
fn ten_with_wounded(k: usize, seed: u64) -> Game {
    let figs: Vec<String> = (0..10)
        .map(|i| fig(&format!("t{i}"), "footman", "Red", (1, i), "E"))
        .chain([fig("e", "footman", "Blue", (28, 9), "W")])
        .collect();
    let members: Vec<String> = (0..10).map(|i| format!("\"t{i}\"")).collect();
    let l = level(
        &rows(&open(30, 10)),
        &figs,
        &format!(r#"(name: "ten", members: [{}])"#, members.join(", ")),
    );
    let mut g = Game::new(&l, seed);
    for i in 0..k {
        set_body(&mut g, &format!("t{i}"), 1);
    }
    g
}

#[test]
fn i2_every_row_and_every_face_rolled_with_fixed_seeds() {
    // Risk factors 0, 1, 3, 7 and 9 read the five rows; seeds 0.. give every face of the d6.
    for (k, band) in [
        (0, Band::UpToZero),
        (1, Band::One),
        (3, Band::TwoToFive),
        (7, Band::SixToEight),
        (9, Band::NinePlus),
    ] {
        let mut faces = std::collections::BTreeMap::new();
        for seed in 0..64u64 {
            let mut g = ten_with_wounded(k, seed);
            let o = super::next_order(&mut g, 0).expect("the roll comes first");
            assert_eq!(o, Order::ActionRoll { unit: "ten".into() });
            g.order(&o).expect("the roll is accepted");
            let rolls = &g.app.world().resource::<ActionRolls>().0;
            let r = rolls.last().expect("rolled").clone();
            assert_eq!(r.risk(), k as i32, "seed {seed}: {}", r.terms.words());
            assert_eq!(Band::of(r.risk()), band);
            // Every unit starts at a halt: the RF 0 six advances on the nearest visible enemy.
            assert_eq!(
                r.action,
                table::action(r.risk(), r.roll, true),
                "seed {seed}"
            );
            assert_eq!(r.intent, table::intent(r.action, None));
            let line = g
                .snapshot()
                .log
                .iter()
                .rev()
                .find(|l| l.roll.is_some())
                .cloned();
            let line = line.expect("logged");
            assert_eq!(line.roll.as_ref().map(|x| x.value), Some(r.roll));
            assert!(line.to_string().contains(band.label()), "{line}");
            assert!(line.to_string().contains(r.action.text()), "{line}");
            faces.entry(r.roll).or_insert(seed);
        }
        assert_eq!(
            faces.keys().copied().collect::<Vec<_>>(),
            vec![1, 2, 3, 4, 5, 6],
            "{band:?}: every face within 64 seeds"
        );
        // The same seed rolls the same face; each (row, face) becomes orders the rules accept.
        for (&face, &seed) in &faces {
            let mut g = ten_with_wounded(k, seed);
            let orders = play_side(&mut g, 0);
            let r = g.app.world().resource::<ActionRolls>().0[0].clone();
            assert_eq!(r.roll, face, "seed {seed} replays");
            // The half-move ends, or a whole unit that fled off the map edge (rout, issue 12)
            // ended the battle in the middle of it.
            let routed = g.outcome().is_some();
            assert!(
                routed || orders.last() == Some(&Order::EndSide),
                "{band:?} d6 {face}: {orders:?}"
            );
            if routed {
                assert!(
                    matches!(r.intent.conduct, Conduct::Retire { .. }),
                    "{band:?} d6 {face}: only a flight routs, not {:?}",
                    r.action
                );
            }
            let moved = orders.iter().any(|o| matches!(o, Order::Move { .. }));
            let should_move = !matches!(r.intent.conduct, Conduct::Stand);
            assert_eq!(
                moved, should_move,
                "{band:?} d6 {face}: {:?} → {orders:?}",
                r.action
            );
        }
    }
}

// ---- I1: retreating as a result of melee ------------------------------------------------

#[test]
fn i1_retreat_from_melee_is_read_from_last_turns_log() {
    use crate::sim::action_roll::retreated_from_melee;
    use crate::sim::log::{Happening, LogEntry};
    // What a melee result says happened, never its words: the words of `c`'s line name a
    // RETREAT, but nothing moved it.
    let line = |turn, text: &str, retreated: Option<&str>| {
        LogEntry::new(
            turn,
            "TAC phase",
            text.into(),
            None,
            Happening::Result {
                named: Vec::new(),
                retreated: retreated.map(String::from),
            },
        )
    };
    let log = vec![
        line(1, "a RETREATS in good order.", Some("a")),
        line(2, "KEEP DISTANCE: b RETREATS in good order.", Some("b")),
        line(2, "k.mount RUNS AWAY.", Some("k.mount")),
        line(2, "ab RUNS AWAY.", Some("ab")),
        line(
            2,
            "c plays RETREAT but finds no way; c RETREATS nowhere.",
            None,
        ),
    ];
    let ids = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(retreated_from_melee(&log, &ids(&["b"]), 3), "KEEP DISTANCE");
    assert!(
        retreated_from_melee(&log, &ids(&["x", "k"]), 3),
        "a mount's run"
    );
    assert!(
        !retreated_from_melee(&log, &ids(&["a"]), 3),
        "two turns ago"
    );
    assert!(retreated_from_melee(&log, &ids(&["a"]), 2), "last turn");
    assert!(
        !retreated_from_melee(&log, &ids(&["c"]), 3),
        "it did not move, whatever the words say"
    );
    assert!(
        !retreated_from_melee(&log, &ids(&["b"]), 2),
        "this turn's is next turn's"
    );
    let only_ab = vec![line(2, "ab RUNS AWAY.", Some("ab"))];
    assert!(!retreated_from_melee(&only_ab, &ids(&["b"]), 3));
    assert!(!retreated_from_melee(&log, &ids(&["a"]), 0));
}

#[test]
fn i1_the_roll_counts_a_retreat_from_last_turns_melee() {
    let l = level(
        &rows(&open(30, 10)),
        &[
            fig("a", "footman", "Red", (1, 1), "E"),
            fig("b", "footman", "Red", (1, 5), "E"),
            fig("e", "footman", "Blue", (28, 8), "W"),
        ],
        "",
    );
    let mut g = Game::new(&l, 1);
    // Pretend this is turn 2 and `a` retreated in turn 1's melee.
    let w = g.world_for_tests_mut();
    w.resource_mut::<crate::sim::phase::TurnState>().turn = 2;
    w.resource_mut::<crate::sim::log::GameLog>()
        .0
        .push(crate::sim::log::LogEntry::new(
            1,
            "TAC phase",
            "a RETREATS in good order from (2,1) to (1,1), facing E.".into(),
            None,
            crate::sim::log::Happening::Result {
                named: vec!["a".into()],
                retreated: Some("a".into()),
            },
        ));
    for unit in ["a", "b"] {
        g.order(&Order::ActionRoll { unit: unit.into() })
            .expect("rolled");
    }
    let rolls = g.app.world().resource::<ActionRolls>().0.clone();
    assert_eq!(rolls[0].terms.ran, 3, "{}", rolls[0].terms.words());
    assert_eq!(rolls[1].terms.ran, 0);
}

#[test]
fn i1_gallop_counts_like_canter_walk_does_not() {
    let l = level(
        &rows(&open(30, 10)),
        &[
            fig_at_gait("g", "knight_on_charger", "Red", (3, 2), "E", "Gallop"),
            fig_at_gait("w", "knight_on_charger", "Red", (3, 6), "E", "Walk"),
            fig("e", "footman", "Blue", (28, 8), "W"),
        ],
        "",
    );
    let mut g = Game::new(&l, 1);
    assert_eq!(terms_of(&mut g, "g").cover_or_speed, -1, "at a gallop");
    assert_eq!(terms_of(&mut g, "w").cover_or_speed, 0, "at a walk");
}

// ---- I3: shooting only at the nearest enemy ---------------------------------------------

/// The baseline's card play of the archer `a` at (5,5) facing E, with Blue footmen at `foes`.
fn archer_play(foes: &[(&str, (i32, i32))]) -> crate::rules::melee::cards::Choice {
    let mut figs = vec![fig("a", "archer", "Red", (5, 5), "E")];
    figs.extend(
        foes.iter()
            .map(|(id, at)| fig(id, "footman", "Blue", *at, "W")),
    );
    let l = level(&rows(&open(20, 10)), &figs, "");
    let mut g = Game::new(&l, 1);
    let (fight, _) = crate::sim::melee::build_fight(g.app.world_mut());
    let i = fight.index_of("a").expect("the archer");
    let t = crate::rules::melee::tables::tables();
    super::cards::baseline_play(&fight, t, i, false, None)
}

#[test]
fn i3_the_baseline_shoots_only_at_the_nearest_enemy() {
    use crate::rules::melee::cards::MeleeCard;
    let fire_at = |c: &crate::rules::melee::cards::Choice| -> Option<String> {
        c.melee.iter().find_map(|m| match m {
            MeleeCard::Fire { target } => Some(target.clone()),
            _ => None,
        })
    };
    // The only enemy, in front and in range: it shoots.
    let alone = archer_play(&[("f", (9, 5))]);
    assert_eq!(fire_at(&alone), Some("f".into()), "{alone:?}");
    // The nearer enemy is out of its arc, behind it: it does not shoot past it at `f`.
    let behind = archer_play(&[("n", (3, 5)), ("f", (9, 5))]);
    assert_eq!(fire_at(&behind), None, "{behind:?}");
    // The nearer of two in front is the one it shoots.
    let two = archer_play(&[("m", (7, 5)), ("f", (9, 5))]);
    assert_eq!(fire_at(&two), Some("m".into()), "{two:?}");
}
