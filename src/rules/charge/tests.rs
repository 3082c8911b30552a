//! C1, C5–C7 on the grid: lines, strike points, contacts, the 2" run, the 3"/6" spacing,
//! acceleration and "no charge at a walk".

use super::*;
use crate::rules::board::Terrain;
use crate::rules::movement::{Mover, MoverSpec, Pose};
use crate::rules::ruleset::Ruleset;

fn destrier() -> Ruleset {
    crate::level::builtin_ruleset("destrier").expect("destrier ruleset")
}

fn board(grid: GridKind) -> Board {
    let t = |name: &str, blocks: bool, cost: Option<i64>| Terrain {
        name: name.into(),
        cost: cost.map(Mp::cells),
        mounted_cost: None,
        no_gallop: false,
        cover: blocks,
        blocks_sight: blocks,
        obstacle: None,
    };
    Board::new(
        grid,
        24,
        14,
        vec![
            t("open", false, Some(1)),
            t("woods", true, Some(2)),
            t("rock", false, None),
        ],
    )
}

fn fig(id: &str, side: u8, x: i32, y: i32, facing: u8) -> Fig {
    Fig {
        id: id.into(),
        side,
        cell: Cell::new(x, y),
        facing: Dir(facing),
        shape: StandShape::Square,
        riderless_horse: false,
        mounted: false,
        out: false,
    }
}

fn occupy(b: &mut Board, figs: &[Fig]) {
    for f in figs {
        let i = b.index(f.cell);
        b.occupant[i] = f.side + 1;
    }
}

/// A knight at figs[0] galloping with `allowance`, lance reach 2.
fn charger(b: &Board, figs: &[Fig], allowance: i64, reach: i32) -> Charger {
    let rules = destrier();
    let mover = Mover::new(
        &rules,
        b,
        MoverSpec {
            side: figs[0].side + 1,
            mounted: true,
            gait: Gait::Gallop,
            basis: Mp::cells(allowance),
            crawling: false,
            asl_gallop: false,
            stops: vec![],
        },
    );
    Charger {
        mover,
        pose: Pose::new(figs[0].cell, figs[0].facing),
        allowance: Mp::cells(allowance),
        me: 0,
        reach,
    }
}

/// Impassable rock along row `y`: no zig-zag below the line of footmen.
fn rock_row(b: &mut Board, y: i32) {
    for x in 0..b.width {
        let i = b.index(Cell::new(x, y));
        b.terrain[i] = 2;
    }
}

fn setup(figs: &[Fig]) -> Board {
    let mut b = board(GridKind::Square);
    occupy(&mut b, figs);
    b
}

#[test]
fn c6_numbers_of_the_seed() {
    assert_eq!(BASH_SLOW, Mp::cells(2));
    assert_eq!(RUN_BEFORE, 2);
    assert_eq!((SPACING_SAME_SIDE, SPACING_OPPOSITE_SIDE), (3, 6));
    assert_eq!((ACCELERATION, ACCELERATION_LIGHT), (2, 3));
}

#[test]
fn c7_no_charge_at_a_walk_and_acceleration() {
    let all = Gait::ALL;
    assert!(charge_gait(Gait::Walk, &all, "destrier", false).is_err());
    assert!(charge_gait(Gait::Halt, &all, "destrier", false).is_err());
    let e = charge_gait(Gait::Walk, &all, "destrier", false).unwrap_err();
    assert!(e.starts_with("C7:"), "{e}");
    // A trotting destrier accelerates two levels to the gallop; a light horse three.
    assert_eq!(
        charge_gait(Gait::Trot, &all, "destrier", false),
        Ok(Gait::Gallop)
    );
    assert_eq!(
        charge_gait(Gait::Trot, &all, "courser", false),
        Ok(Gait::Gallop)
    );
    // Mounted infantry never gallop (K2): a trotting one charges at the canter.
    let mi = [Gait::Halt, Gait::Walk, Gait::Trot, Gait::Canter];
    assert_eq!(
        charge_gait(Gait::Trot, &mi, "rouncy", false),
        Ok(Gait::Canter)
    );
    // K1: a steed that must walk cannot charge.
    let e = charge_gait(Gait::Gallop, &all, "destrier", true).unwrap_err();
    assert!(e.starts_with("K1:"), "{e}");
}

#[test]
fn c6_side_of_the_steed() {
    let g = GridKind::Square;
    // Riding east, a target to the south is on the right.
    assert_eq!(
        side_of(g, Cell::new(5, 5), Dir(2), Cell::new(6, 6)),
        Side::Right
    );
    assert_eq!(
        side_of(g, Cell::new(5, 5), Dir(2), Cell::new(6, 4)),
        Side::Left
    );
    assert_eq!(
        side_of(g, Cell::new(5, 5), Dir(2), Cell::new(7, 5)),
        Side::Centre
    );
}

#[test]
fn c6_spacing_three_same_side_six_opposite() {
    let g = GridKind::Square;
    let (a, r, l) = (Cell::new(5, 6), Side::Right, Side::Left);
    assert!(spacing_ok(g, a, r, Cell::new(8, 6), r).is_ok());
    let e = spacing_ok(g, a, r, Cell::new(7, 6), r).unwrap_err();
    assert!(e.contains("at least 3\""), "{e}");
    assert!(spacing_ok(g, a, r, Cell::new(11, 4), l).is_ok());
    let e = spacing_ok(g, a, r, Cell::new(10, 4), l).unwrap_err();
    assert!(
        e.contains("at least 6\"") && e.contains("other side"),
        "{e}"
    );
    // A centred target is on whichever side the charger says.
    assert!(spacing_ok(g, a, Side::Centre, Cell::new(8, 6), l).is_ok());
}

#[test]
fn c5_lance_strikes_at_one_inch_then_the_horse_touches_and_slows() {
    // Knight at (2,5) heading E; a footman at (6,6), one row to the right of the line.
    let figs = vec![fig("k", 0, 2, 5, 2), fig("f", 1, 6, 6, 6)];
    let b = setup(&figs);
    let c = charger(&b, &figs, 10, 2);
    let p = plan_charge(&b, &figs, &c, &[1]).expect("charge planned");
    assert_eq!(p.line, Line::Ahead);
    // Lance: within 2 cells (1" between stands) at (4,5), after 2 cells of run.
    assert_eq!(p.strikes, vec![(1, 2, Side::Right)]);
    // The horse then touches the footman at (5,5), and is slowed 2".
    assert_eq!(p.contacts, vec![(1, 3)]);
    // 10 - 2 = 8 cells ridden.
    assert_eq!(p.cells.len() - 1, 8);
    assert_eq!(*p.cells.last().unwrap(), Cell::new(10, 5));
}

#[test]
fn c6_two_inches_of_run_before_contact() {
    let figs = vec![fig("k", 0, 2, 5, 2), fig("f", 1, 5, 6, 6)];
    let b = setup(&figs);
    let c = charger(&b, &figs, 10, 2);
    let r = plan_charge(&b, &figs, &c, &[1]).unwrap_err();
    assert_eq!(r.rule, PlanRule::StraightRun, "{r}");
    let e = r.text;
    assert!(e.contains("at least 2\" straight before"), "{e}");
}

#[test]
fn c6_several_targets_spacing_enforced() {
    // A line of footmen along row 6, the knight riding row 5.
    let ok = vec![
        fig("k", 0, 1, 5, 2),
        fig("f1", 1, 5, 6, 0),
        fig("f2", 1, 8, 6, 0),
        fig("f3", 1, 11, 6, 0),
    ];
    let b = setup(&ok);
    let c = charger(&b, &ok, 14, 2);
    let p = plan_charge(&b, &ok, &c, &[1, 2, 3]).expect("3\" apart on the same side");
    assert_eq!(p.strikes.len(), 3);
    assert_eq!(p.contacts.len(), 3, "every footman passed is bashed");
    // Two inches apart is too close on the same side.
    let close = vec![
        fig("k", 0, 1, 5, 2),
        fig("f1", 1, 5, 6, 0),
        fig("f2", 1, 7, 6, 0),
    ];
    let b = setup(&close);
    let c = charger(&b, &close, 14, 2);
    let r = plan_charge(&b, &close, &c, &[1, 2]).unwrap_err();
    assert_eq!(r.rule, PlanRule::Spacing, "{r}");
    let e = r.text;
    assert!(e.starts_with("C6:") && e.contains("same side"), "{e}");
    // On the other side of the steed six inches are needed (and a turn after f1 leaves too
    // little run to put f2 on the same side, see the turn tests).
    let across = vec![
        fig("k", 0, 1, 5, 2),
        fig("f1", 1, 5, 6, 0),
        fig("f2", 1, 8, 4, 4),
    ];
    let mut b = setup(&across);
    rock_row(&mut b, 8);
    let c = charger(&b, &across, 14, 2);
    let r = plan_charge(&b, &across, &c, &[1, 2]).unwrap_err();
    assert_eq!(r.rule, PlanRule::Spacing, "{r}");
    let e = r.text;
    assert!(e.contains("other side"), "{e}");
}

#[test]
fn c6_every_contact_slows_the_mount_two_inches() {
    // Two footmen beside the line, only the first a target: both are bashed.
    let figs = vec![
        fig("k", 0, 1, 5, 2),
        fig("f1", 1, 5, 6, 0),
        fig("f2", 1, 7, 4, 4),
    ];
    let b = setup(&figs);
    let c = charger(&b, &figs, 10, 2);
    let p = plan_charge(&b, &figs, &c, &[1]).unwrap();
    assert_eq!(p.contacts.len(), 2);
    assert_eq!(p.cells.len() - 1, 10 - 4);
}

#[test]
fn c6_released_when_the_way_is_blocked() {
    // An ally stands in the line before the second target.
    let figs = vec![
        fig("k", 0, 1, 5, 2),
        fig("f1", 1, 5, 6, 0),
        fig("ally", 0, 8, 5, 2),
        fig("f2", 1, 11, 6, 0),
    ];
    let b = setup(&figs);
    let mut c = charger(&b, &figs, 14, 2);
    // A trotting charger may turn round the ally after f1 (C6 turns) …
    let p = plan_charge(&b, &figs, &c, &[1, 3]).expect("a way round the ally");
    assert!(!p.legs.is_empty());
    assert!(!p.cells.contains(&Cell::new(8, 5)));
    // … one galloping with no veers left cannot, and the way is blocked.
    c.pose.veers = 2;
    let r = plan_charge(&b, &figs, &c, &[1, 3]).unwrap_err();
    assert_eq!(r.rule, PlanRule::Blocked, "{r}");
    let e = r.text;
    assert!(e.contains("blocked") && e.contains("ally"), "{e}");
    // The walker reports the block as the end of the charge.
    let mut w = c.walker(&figs, Line::Ahead, &[1]);
    let mut end = None;
    while let Some(ev) = w.next(&b) {
        if let Event::End(r) = ev {
            end = Some(r);
        }
    }
    assert!(matches!(end, Some(EndReason::Blocked(_))), "{end:?}");
    assert_eq!(w.pose.cell, Cell::new(7, 5));
}

#[test]
fn c1_targets_are_enemies_in_sight_never_horses() {
    let mut figs = vec![
        fig("k", 0, 1, 5, 2),
        fig("f", 1, 8, 6, 0),
        fig("friend", 0, 8, 8, 0),
        fig("nag", 1, 8, 3, 0),
    ];
    figs[3].riderless_horse = true;
    let mut b = setup(&figs);
    let c = charger(&b, &figs, 10, 2);
    let r = plan_charge(&b, &figs, &c, &[2]).unwrap_err();
    assert_eq!(r.rule, PlanRule::Target, "{r}");
    let e = r.text;
    assert!(e.contains("not an enemy"), "{e}");
    let e = plan_charge(&b, &figs, &c, &[3]).unwrap_err().text;
    assert!(e.starts_with("A18:"), "{e}");
    let e = plan_charge(&b, &figs, &c, &[1, 1]).unwrap_err().text;
    assert!(e.contains("twice"), "{e}");
    // Woods between hide the footman.
    let i = b.index(Cell::new(5, 5));
    b.terrain[i] = 1;
    let i = b.index(Cell::new(5, 6));
    b.terrain[i] = 1;
    let e = plan_charge(&b, &figs, &c, &[1]).unwrap_err().text;
    assert!(e.contains("line of sight"), "{e}");
    // The list shows only enemies that are not horses.
    let list = target_list(&b, &figs, &c, &Ok(()));
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].0, 1);
    let list = target_list(&b, &figs, &c, &Err("C7: walking".into()));
    assert_eq!(
        list[0].1,
        Err(PlanRefusal::new(PlanRule::Charger, "C7: walking"))
    );
}

#[test]
fn diagonal_charge_is_one_veer_at_two_a_cell() {
    // A footman two rows down and far along the diagonal.
    let figs = vec![fig("k", 0, 2, 2, 2), fig("f", 1, 7, 8, 0)];
    let b = setup(&figs);
    let c = charger(&b, &figs, 10, 2);
    let p = plan_charge(&b, &figs, &c, &[1]).expect("diagonal line");
    assert_eq!(p.line, Line::Veer(Hand::Right));
    // 2 a cell: 10 buys 5 cells, less the 2" of the bash.
    assert_eq!(p.cells[1], Cell::new(3, 3));
    assert!(p.cells.len() - 1 <= 5);
}

#[test]
fn head_on_the_horse_crosses_the_target_stand_only_if_it_rides_clear() {
    // A footman straight ahead: struck at 1", then the horse rides through its stand.
    let figs = vec![fig("k", 0, 1, 5, 2), fig("f", 1, 6, 5, 6)];
    let b = setup(&figs);
    let c = charger(&b, &figs, 10, 2);
    let mut w = c.walker(&figs, Line::Ahead, &[1]);
    let mut crossed = false;
    while let Some(ev) = w.next(&b) {
        if let Event::Crossing { fig } = ev {
            assert_eq!(fig, 1);
            crossed = true;
        }
        if let Event::Contact { .. } = ev {
            w.slow();
        }
    }
    assert!(crossed);
    assert_ne!(w.pose.cell, Cell::new(6, 5), "never ends on the stand");
}

#[test]
fn hexes_charge_along_a_hex_direction() {
    let mut figs = vec![fig("k", 0, 2, 4, 1), fig("f", 1, 8, 5, 4)];
    figs[0].shape = StandShape::Long;
    let mut b = board(GridKind::Hex);
    occupy(&mut b, &figs);
    let c = charger(&b, &figs, 10, 2);
    let mut rules = destrier();
    rules.grid = GridKind::Hex;
    let c = Charger {
        mover: Mover::new(
            &rules,
            &b,
            MoverSpec {
                side: 1,
                mounted: true,
                gait: Gait::Gallop,
                basis: Mp::cells(10),
                crawling: false,
                asl_gallop: false,
                stops: vec![],
            },
        ),
        ..c
    };
    let p = plan_charge(&b, &figs, &c, &[1]).expect("hex charge");
    assert_eq!(p.line, Line::Ahead);
    for w in p.cells.windows(2) {
        assert_eq!(GridKind::Hex.dir_to_adjacent(w[0], w[1]), Some(Dir(1)));
    }
}

#[test]
fn c6_turns_between_targets_after_one_inch_past_the_contact() {
    // The knight rides east along row 5, lances f1 (south of its line), touches it at (4,5),
    // runs 1" on to (5,5), then veers onto the left diagonal and strikes f2 after 2" of run.
    // No straight line reaches both.
    let figs = vec![
        fig("k", 0, 1, 5, 2),
        fig("f1", 1, 5, 6, 0),
        fig("f2", 1, 9, 2, 4),
    ];
    let b = setup(&figs);
    let c = charger(&b, &figs, 14, 2);
    for line in Line::ALL {
        let w = c.walker(&figs, line, &[1, 2]);
        assert!(plan(&b, w).is_err(), "{line:?} alone cannot reach both");
    }
    let p = plan_charge(&b, &figs, &c, &[1, 2]).expect("a charge that turns");
    assert_eq!(p.line, Line::Ahead);
    assert_eq!(
        p.turns,
        vec![Turn {
            after: 1,
            wait: 0,
            line: Line::Veer(Hand::Left)
        }]
    );
    assert_eq!(p.legs, vec![(4, Line::Veer(Hand::Left))]);
    // f1 struck at 2 cells, touched at 3; the new leg begins at 4 and f2 is struck 2 cells on,
    // on the same (right) side, 4" from f1.
    assert_eq!(p.strikes, vec![(1, 2, Side::Right), (2, 6, Side::Right)]);
    assert_eq!(p.contacts[0], (1, 3));
    assert_eq!(p.cells[4], Cell::new(5, 5));
    assert_eq!(p.cells[5], Cell::new(6, 4));
    assert_eq!(p.cells[6], Cell::new(7, 3));
    // The walker that rides it says where it turns.
    let mut w = c.walker(&figs, p.line, &[1, 2]).with_turns(p.turns.clone());
    let mut turned_at = None;
    while let Some(ev) = w.next(&b) {
        match ev {
            Event::Turn { line } => turned_at = Some((w.pose.cell, line)),
            Event::Contact { .. } => w.slow(),
            _ => {}
        }
    }
    assert_eq!(turned_at, Some((Cell::new(5, 5), Line::Veer(Hand::Left))));
}

#[test]
fn c6_a_turn_still_needs_its_runs_and_the_spacing() {
    // f2 across the line and only 3" from f1: straight on it is on the other side (6" needed);
    // turning after the 1" past f1 leaves too little run before it, and rock below the
    // footmen leaves no room to swing round under f1 and come back at f2 on the same side.
    let figs = vec![
        fig("k", 0, 1, 5, 2),
        fig("f1", 1, 5, 6, 0),
        fig("f2", 1, 8, 4, 4),
    ];
    let mut b = setup(&figs);
    let open = b.clone();
    rock_row(&mut b, 8);
    let c = charger(&b, &figs, 14, 2);
    let r = plan_charge(&b, &figs, &c, &[1, 2]).unwrap_err();
    assert_eq!(r.rule, PlanRule::Spacing, "{r}");
    let e = r.text;
    assert!(e.starts_with("C6:") && e.contains("6\""), "{e}");
    // A turn that comes too late for 2" of run is refused by name.
    let w = c.walker(&figs, Line::Ahead, &[1, 2]).with_turns(vec![Turn {
        after: 1,
        wait: 0,
        line: Line::Veer(Hand::Left),
    }]);
    let r = plan(&b, w).unwrap_err();
    assert_eq!(r.rule, PlanRule::StraightRun, "{r}");
    let e = r.text;
    assert!(e.contains("straight after its turn"), "{e}");
    // Turning back into the stand of the target just struck needs the run as well: on the
    // right diagonal the lance strikes f1 from 2 cells; turning left at once would touch it
    // after a single cell.
    let w = c
        .walker(&figs, Line::Veer(Hand::Right), &[1, 2])
        .with_turns(vec![Turn {
            after: 1,
            wait: 0,
            line: Line::Veer(Hand::Left),
        }]);
    let r = plan(&open, w).unwrap_err();
    assert_eq!(r.rule, PlanRule::StraightRun, "{r}");
    let e = r.text;
    assert!(e.contains("before it touches f1"), "{e}");
    // With room below, the horse may swing round under f1 and take f2 on its left, as f1 was:
    // the side is the side at the strike (C6).
    let p = plan_charge(&open, &figs, &c, &[1, 2]).expect("a zig-zag");
    assert_eq!(
        p.strikes.iter().map(|s| s.2).collect::<Vec<_>>(),
        [Side::Left, Side::Left]
    );
}

#[test]
fn c6_h4_a_galloping_charge_turns_only_with_veers_left() {
    // The same charge as above by a horse that has used its two gallop veers this turn.
    let figs = vec![
        fig("k", 0, 1, 5, 2),
        fig("f1", 1, 5, 6, 0),
        fig("f2", 1, 9, 2, 4),
    ];
    let b = setup(&figs);
    let mut c = charger(&b, &figs, 14, 2);
    c.pose.veers = 2;
    let e = plan_charge(&b, &figs, &c, &[1, 2]).unwrap_err().text;
    assert!(e.contains("cannot reach f2"), "{e}");
    // With one veer left it turns once.
    c.pose.veers = 1;
    let p = plan_charge(&b, &figs, &c, &[1, 2]).expect("one veer left");
    assert_eq!(p.legs.len(), 1);
}

#[test]
fn c2_great_horse_then_griffin_then_hippogriff_then_any_other() {
    use super::ride::mount_rank;
    let order = ["destrier", "griffin", "hippogriff", "charger"];
    for w in order.windows(2) {
        assert!(
            mount_rank(w[0]) < mount_rank(w[1]),
            "{} before {}",
            w[0],
            w[1]
        );
    }
    assert_eq!(mount_rank("warhorse"), mount_rank("destrier"));
    assert_eq!(mount_rank("courser"), mount_rank("rouncy"));
}

#[test]
fn c3_lance_breaks_on_a_critical_against_ac4_or_on_ten_percent() {
    use super::ride::{LANCE_BREAK, LANCE_BREAK_ARMOUR, lance_breaks};
    assert_eq!((LANCE_BREAK_ARMOUR, LANCE_BREAK), (4, 10));
    // A critical hit on armour class 4+ always shatters it.
    assert!(lance_breaks(true, 4, 100));
    assert!(lance_breaks(true, 7, 55));
    // Against lighter armour, or without a critical, 1–10 on the d100, hit or miss.
    assert!(!lance_breaks(true, 3, 11));
    assert!(lance_breaks(false, 3, 10));
    assert!(lance_breaks(false, 9, 1));
    assert!(!lance_breaks(false, 9, 11));
}

#[test]
fn c4_crossing_the_struck_target_checks_both_horses_for_stumbling() {
    use super::ride::STUMBLE;
    assert_eq!(STUMBLE, 30, "our reading: the seed's WHEEL stumble, 1–30");
    // Only the target just struck may be crossed; another figure in the line blocks it.
    let figs = vec![
        fig("k", 0, 1, 5, 2),
        fig("f", 1, 6, 5, 6),
        fig("g", 1, 9, 5, 6),
    ];
    let b = setup(&figs);
    let c = charger(&b, &figs, 14, 2);
    let mut w = c.walker(&figs, Line::Ahead, &[1]);
    let mut crossed = Vec::new();
    let mut end = None;
    while let Some(ev) = w.next(&b) {
        match ev {
            Event::Crossing { fig } => crossed.push(fig),
            Event::Contact { .. } => w.slow(),
            Event::End(r) => end = Some(r),
            _ => {}
        }
    }
    assert_eq!(crossed, [1]);
    assert!(
        matches!(&end, Some(EndReason::Blocked(why)) if why.contains("g stands in the way")),
        "{end:?}"
    );
}

#[test]
fn c6_h7_on_hexes_a_turn_is_a_60_degree_veer() {
    let mut figs = vec![
        fig("k", 0, 2, 4, 1),
        fig("f1", 1, 5, 3, 4),
        fig("f2", 1, 7, 0, 4),
    ];
    figs[0].shape = StandShape::Long;
    let mut b = board(GridKind::Hex);
    occupy(&mut b, &figs);
    let mut rules = destrier();
    rules.grid = GridKind::Hex;
    let spec = MoverSpec {
        side: 1,
        mounted: true,
        gait: Gait::Gallop,
        basis: Mp::cells(14),
        crawling: false,
        asl_gallop: false,
        stops: vec![],
    };
    let c = Charger {
        mover: Mover::new(&rules, &b, spec),
        pose: Pose::new(figs[0].cell, figs[0].facing),
        allowance: Mp::cells(14),
        me: 0,
        reach: 2,
    };
    let p = plan_charge(&b, &figs, &c, &[1, 2]).expect("a hex charge that turns");
    assert_eq!(p.line, Line::Ahead);
    assert_eq!(p.legs, vec![(4, Line::Veer(Hand::Left))]);
    assert_eq!(p.strikes, vec![(1, 2, Side::Left), (2, 6, Side::Left)]);
    let dir = |i: usize| GridKind::Hex.dir_to_adjacent(p.cells[i], p.cells[i + 1]);
    // Straight along the heading to the turn, then straight 60° to the left of it.
    for i in 0..4 {
        assert_eq!(dir(i), Some(Dir(1)), "leg 1, step {i}");
    }
    for i in 4..p.cells.len() - 1 {
        assert_eq!(dir(i), Some(Dir(0)), "leg 2, step {i}");
    }
}

/// Seed 003 (C6): a next target must be "at least 6" from the present one and … on the
/// opposite side of the steed". A second target 2" away across the line is refused by that
/// rule, whatever the allowance and whatever else a line might miss — never as "the horse
/// never comes within reach".
#[test]
fn c6_opposite_side_spacing_is_the_named_refusal() {
    for allowance in [3, 6, 10, 14] {
        let across = vec![
            fig("k", 0, 1, 5, 2),
            fig("f1", 1, 5, 6, 0),
            fig("f2", 1, 7, 4, 4),
        ];
        let b = setup(&across);
        let c = charger(&b, &across, allowance, 2);
        let r = plan_charge(&b, &across, &c, &[1, 2]).unwrap_err();
        assert_eq!(r.rule, PlanRule::Spacing, "{r}");
        let e = r.text;
        assert!(
            e.starts_with("C6") && e.contains("at least 6\"") && e.contains("other side"),
            "allowance {allowance}: {e}"
        );
    }
}

/// Issue 31, item 2: "before declaring a charge, check with the charge rules that it can
/// arrive". A footman 7 cells straight ahead is a legal target at any allowance (our reading
/// of C6: it may ride to meet the charge), but the charge arrives this half-move only when the
/// horse's allowance carries it there; with 3 cells it falls short and is released.
#[test]
fn c6_a_charge_arrives_now_only_within_the_allowance() {
    let figs = vec![fig("k", 0, 1, 5, 2), fig("f", 1, 8, 5, 6)];
    let b = setup(&figs);
    let near = charger(&b, &figs, 12, 2);
    assert!(plan_charge(&b, &figs, &near, &[1]).is_ok());
    assert!(
        arrives_now(&b, &figs, &near, 1),
        "12 cells reach a footman 7 ahead"
    );
    let short = charger(&b, &figs, 3, 2);
    assert!(
        plan_charge(&b, &figs, &short, &[1]).is_ok(),
        "still a legal target"
    );
    assert!(
        !arrives_now(&b, &figs, &short, 1),
        "3 cells fall short of 7"
    );
    assert!(!arrives_now(&b, &figs, &near, 0), "never its own figure");
}
