//! The victory judge (issue 12): every kind of objective, the figure points, elimination and
//! the turn limit, on hand-made fields.

use super::grid::Cell;
use super::victory::*;

fn fig(id: &str, side: u8, x: i32, y: i32) -> FigureFact {
    FigureFact {
        id: id.into(),
        side,
        cell: Cell { x, y },
        fighting: true,
        horse: false,
        value: 7,
        body: 12,
    }
}

fn objective(side: u8, goal: Goal, points: u32, wins: bool) -> Objective {
    Objective {
        side,
        name: describe(&goal),
        goal,
        points,
        wins,
    }
}

fn victory(objectives: Vec<Objective>) -> Victory {
    Victory {
        turns: 6,
        objectives,
        figure_points: true,
    }
}

const SIZE: (i32, i32) = (10, 8);

#[test]
fn a_hold_counts_only_turn_ends_running_from_its_first_turn() {
    let v = victory(vec![objective(
        0,
        Goal::Hold {
            area: vec![(5, 5)],
            turns: 2,
            from_turn: 3,
        },
        10,
        false,
    )]);
    let mut t = Tracker::new(&v);
    let on = vec![fig("a", 0, 5, 5), fig("b", 1, 0, 0)];
    // Held at the end of turns 1 and 2: too early to count.
    assert!(t.observe(&v, &on, SIZE, 1, true).is_empty());
    assert!(t.observe(&v, &on, SIZE, 2, true).is_empty());
    // Turn 3's end counts once; a look in the middle of turn 4 counts nothing.
    assert!(t.observe(&v, &on, SIZE, 3, true).is_empty());
    assert!(t.observe(&v, &on, SIZE, 4, false).is_empty());
    assert_eq!(t.held[0], 1);
    assert_eq!(t.observe(&v, &on, SIZE, 4, true), vec![0]);
    assert_eq!(t.achieved[0], Some(4));
    assert_eq!(t.points(&v, &on, 2, false), vec![10, 0]);
}

/// Issue 34: "The objective shows no progress ("held 1 of 2 turns")". A hold over several
/// turn ends counts them, an exit naming several figures counts those out, until scored.
#[test]
fn progress_counts_a_hold_s_turn_ends_and_an_exit_s_figures_until_scored() {
    let v = victory(vec![
        objective(
            0,
            Goal::Hold {
                area: vec![(5, 5)],
                turns: 2,
                from_turn: 1,
            },
            10,
            false,
        ),
        objective(
            1,
            Goal::Exit {
                figures: vec!["b".into(), "c".into()],
                edge: Edge::E,
            },
            10,
            false,
        ),
        objective(
            1,
            Goal::Kill {
                figures: vec!["a".into()],
            },
            5,
            false,
        ),
    ]);
    let mut t = Tracker::new(&v);
    let p = |t: &Tracker, i: usize| t.progress(i, &v.objectives[i]);
    assert_eq!(p(&t, 0), Some((0, 2)));
    assert_eq!(p(&t, 1), Some((0, 2)));
    assert_eq!(p(&t, 2), None, "one step: nothing to count");
    let on = vec![fig("a", 0, 5, 5), fig("b", 1, 9, 3), fig("c", 1, 2, 2)];
    t.observe(&v, &on, SIZE, 1, true);
    assert_eq!(p(&t, 0), Some((1, 2)), "held 1 of 2 turn ends");
    assert_eq!(p(&t, 1), Some((1, 2)), "b is on the east edge, c is not");
    t.observe(&v, &on, SIZE, 2, true);
    assert_eq!(p(&t, 0), None, "scored: no more counting");
}

#[test]
fn an_enemy_in_the_area_breaks_the_hold_and_a_horse_never_holds() {
    let v = victory(vec![objective(
        0,
        Goal::Hold {
            area: vec![(5, 5), (6, 5)],
            turns: 2,
            from_turn: 1,
        },
        10,
        false,
    )]);
    let mut t = Tracker::new(&v);
    let held = vec![fig("a", 0, 5, 5), fig("b", 1, 0, 0)];
    let contested = vec![fig("a", 0, 5, 5), fig("b", 1, 6, 5)];
    t.observe(&v, &held, SIZE, 1, true);
    t.observe(&v, &contested, SIZE, 2, true);
    assert_eq!(t.held[0], 0, "an enemy in the area: not held");
    t.observe(&v, &held, SIZE, 3, true);
    assert_eq!(t.observe(&v, &held, SIZE, 4, true), vec![0]);
    let mut horse = fig("a.mount", 0, 5, 5);
    horse.horse = true;
    assert!(!holds(0, &[(5, 5)], &[horse]));
    let mut fallen = fig("a", 0, 5, 5);
    fallen.fighting = false;
    assert!(!holds(0, &[(5, 5)], &[fallen]));
}

#[test]
fn an_exit_needs_every_named_figure_on_the_edge_in_the_fight_and_wins_at_once() {
    let v = victory(vec![objective(
        0,
        Goal::Exit {
            figures: vec!["prisoner".into(), "guard".into()],
            edge: Edge::E,
        },
        20,
        true,
    )]);
    let mut t = Tracker::new(&v);
    let mut f = vec![
        fig("prisoner", 0, 9, 3),
        fig("guard", 0, 8, 3),
        fig("x", 1, 0, 0),
    ];
    assert!(t.observe(&v, &f, SIZE, 2, false).is_empty());
    assert_eq!(t.decide(&v, &f, 2, 2, false), None);
    // The prisoner's arrival is remembered while the guard catches up.
    f[0].cell = Cell { x: 7, y: 3 };
    f[1].cell = Cell { x: 9, y: 4 };
    assert_eq!(t.observe(&v, &f, SIZE, 3, false), vec![0]);
    let out = t.decide(&v, &f, 2, 3, false).expect("decided");
    assert_eq!(out.winner, Some(0));
    assert!(out.reason.contains("east edge"), "{}", out.reason);
    assert_eq!(out.points, vec![20, 0]);
    // A figure out of the fight on the edge does not arrive.
    let mut t = Tracker::new(&v);
    let mut g = vec![fig("prisoner", 0, 9, 3), fig("guard", 0, 9, 4)];
    g[1].fighting = false;
    assert!(t.observe(&v, &g, SIZE, 1, false).is_empty());
}

#[test]
fn every_edge_is_the_row_or_column_it_names() {
    let (w, h) = SIZE;
    assert!(Edge::N.holds(Cell { x: 4, y: 0 }, w, h));
    assert!(Edge::S.holds(Cell { x: 4, y: 7 }, w, h));
    assert!(Edge::W.holds(Cell { x: 0, y: 4 }, w, h));
    assert!(Edge::E.holds(Cell { x: 9, y: 4 }, w, h));
    assert!(!Edge::E.holds(Cell { x: 8, y: 4 }, w, h));
}

#[test]
fn reach_kill_and_protect() {
    let v = victory(vec![
        objective(
            0,
            Goal::Reach {
                figures: vec!["raider".into()],
                area: vec![(2, 2)],
            },
            5,
            false,
        ),
        objective(
            1,
            Goal::Kill {
                figures: vec!["raider".into()],
            },
            8,
            false,
        ),
        objective(
            1,
            Goal::Protect {
                figures: vec!["lord".into()],
            },
            3,
            false,
        ),
    ]);
    let mut t = Tracker::new(&v);
    let mut f = vec![fig("raider", 0, 2, 2), fig("lord", 1, 5, 5)];
    assert_eq!(t.observe(&v, &f, SIZE, 1, false), vec![0]);
    // Protect scores only at the end.
    assert_eq!(t.points(&v, &f, 2, false), vec![5, 0]);
    assert_eq!(t.points(&v, &f, 2, true), vec![5, 3]);
    f[0].fighting = false;
    assert_eq!(t.observe(&v, &f, SIZE, 2, false), vec![1]);
    // The raider's fall also scores its value (7) for side 1.
    assert_eq!(t.points(&v, &f, 2, true), vec![5, 8 + 3 + 7]);
}

#[test]
fn figures_removed_score_their_value_for_the_enemy_even_when_gone_from_the_map() {
    let v = victory(Vec::new());
    let mut t = Tracker::new(&v);
    let mut horse = fig("k.mount", 0, 1, 1);
    horse.horse = true;
    horse.value = 3;
    let mut knight = fig("k", 0, 1, 1);
    knight.value = figure_value(5, 7, false);
    let f = vec![knight, horse, fig("a", 1, 4, 4), fig("b", 1, 4, 5)];
    t.observe(&v, &f, SIZE, 1, false);
    // The horse dies, and footman b is removed from the map altogether.
    let mut later = f.clone();
    later[1].fighting = false;
    later.pop();
    t.observe(&v, &later, SIZE, 2, false);
    assert_eq!(t.points(&v, &later, 2, true), vec![7, 3]);
    let off = Victory {
        figure_points: false,
        ..v
    };
    assert_eq!(t.points(&off, &later, 2, true), vec![0, 0]);
}

#[test]
fn a_knight_is_worth_more_than_a_footman_and_riders_count() {
    // Blows plus armour: knight 5 + 7, footman 4 + 3, archer 3 + 1; a horse its blows.
    assert_eq!(figure_value(5, 7, false), 12);
    assert_eq!(figure_value(4, 3, false), 7);
    assert_eq!(figure_value(3, 1, false), 4);
    assert_eq!(figure_value(3, 2, true), 3);
    assert_eq!(figure_value(0, 0, false), 1);
}

#[test]
fn the_last_side_with_a_figure_in_the_fight_wins_and_horses_do_not_count() {
    let v = victory(Vec::new());
    let t = Tracker::new(&v);
    let mut f = vec![fig("a", 0, 1, 1), fig("b", 1, 2, 2)];
    assert_eq!(t.decide(&v, &f, 2, 3, false), None);
    f[1].fighting = false;
    let mut horse = fig("b.mount", 1, 2, 2);
    horse.horse = true;
    f.push(horse);
    let out = t.decide(&v, &f, 2, 3, false).expect("decided");
    assert_eq!(out.winner, Some(0));
    f[0].fighting = false;
    assert_eq!(t.decide(&v, &f, 2, 3, false).map(|o| o.winner), Some(None));
}

#[test]
fn at_the_turn_limit_the_larger_total_wins_and_equal_totals_draw() {
    let v = victory(vec![objective(
        1,
        Goal::Protect {
            figures: vec!["lord".into()],
        },
        4,
        false,
    )]);
    let mut t = Tracker::new(&v);
    let f = vec![fig("a", 0, 1, 1), fig("lord", 1, 2, 2)];
    t.observe(&v, &f, SIZE, 6, true);
    assert_eq!(t.decide(&v, &f, 2, 6, false), None, "not yet over");
    let out = t.decide(&v, &f, 2, 6, true).expect("over");
    assert_eq!((out.winner, out.points.clone()), (Some(1), vec![0, 4]));
    let v0 = victory(Vec::new());
    let t0 = Tracker::new(&v0);
    let out = t0.decide(&v0, &f, 2, 6, true).expect("over");
    assert_eq!(out.winner, None);
    assert!(out.reason.contains("equal"), "{}", out.reason);
}

#[test]
fn two_sides_achieving_winning_objectives_at_once_is_a_draw() {
    let k = |side, id: &str| {
        objective(
            side,
            Goal::Kill {
                figures: vec![id.into()],
            },
            1,
            true,
        )
    };
    let v = victory(vec![k(0, "b"), k(1, "a")]);
    let mut t = Tracker::new(&v);
    let mut f = vec![
        fig("a", 0, 1, 1),
        fig("b", 1, 2, 2),
        fig("c", 0, 3, 3),
        fig("d", 1, 4, 4),
    ];
    f[0].fighting = false;
    f[1].fighting = false;
    assert_eq!(t.observe(&v, &f, SIZE, 2, false), vec![0, 1]);
    assert_eq!(t.decide(&v, &f, 2, 2, false).map(|o| o.winner), Some(None));
}

#[test]
fn i2_a_routed_figure_is_out_of_the_fight_and_worth_half_to_the_enemy() {
    let v = victory(vec![objective(
        1,
        Goal::Kill {
            figures: vec!["a".into()],
        },
        3,
        false,
    )]);
    let mut t = Tracker::new(&v);
    let a = fig("a", 0, 9, 3);
    let b = fig("b", 1, 0, 0);
    t.observe(&v, &[a.clone(), b.clone()], SIZE, 1, false);
    // `a` flees off the east edge: the game removes it, the judge is told how.
    t.depart(&a, Departure::Routed, 2);
    let left = vec![b];
    assert_eq!(
        t.observe(&v, &left, SIZE, 2, false),
        vec![0],
        "routed is taken"
    );
    assert!(t.routed("a") && !t.exited("a"));
    let out = t
        .decide(&v, &left, 2, 2, false)
        .expect("Red has nobody left");
    assert_eq!(out.winner, Some(1));
    assert!(out.reason.contains("1 routed"), "{}", out.reason);
    assert_eq!(out.routed, vec!["a".to_string()]);
    // Half of 7, rounded up, plus the Kill's 3; a fallen figure would have given 7.
    assert_eq!(routed_value(7), 4);
    assert_eq!(out.points, vec![0, 4 + 3]);
}

#[test]
fn a_figure_that_got_away_by_its_exit_is_safe_neither_taken_nor_lost() {
    let v = victory(vec![
        objective(
            0,
            Goal::Exit {
                figures: vec!["p".into()],
                edge: Edge::E,
            },
            5,
            false,
        ),
        objective(
            0,
            Goal::Protect {
                figures: vec!["p".into()],
            },
            2,
            false,
        ),
        objective(
            1,
            Goal::Kill {
                figures: vec!["p".into()],
            },
            9,
            false,
        ),
    ]);
    let mut t = Tracker::new(&v);
    let p = fig("p", 0, 8, 3);
    let b = fig("b", 1, 0, 0);
    assert!(
        t.observe(&v, &[p.clone(), b.clone()], SIZE, 1, false)
            .is_empty()
    );
    t.depart(&p, Departure::Exited(Edge::E), 1);
    let left = vec![b];
    assert_eq!(
        t.observe(&v, &left, SIZE, 1, false),
        vec![0],
        "the exit, not the kill"
    );
    // Red has no figure on the map but one got away: not eliminated; the limit decides.
    assert_eq!(t.decide(&v, &left, 2, 1, false), None);
    let out = t.decide(&v, &left, 2, 6, true).expect("the limit");
    assert_eq!(
        out.points,
        vec![5 + 2, 0],
        "protected, and worth nothing to Blue"
    );
    assert_eq!(out.exited, vec!["p".to_string()]);
    assert_eq!(out.winner, Some(0));
}
