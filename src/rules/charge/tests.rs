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
    let e = plan_charge(&b, &figs, &c, &[1]).unwrap_err();
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
    let e = plan_charge(&b, &close, &c, &[1, 2]).unwrap_err();
    assert!(e.starts_with("C6:") && e.contains("same side"), "{e}");
    // On the other side of the steed six inches are needed.
    let across = vec![
        fig("k", 0, 1, 5, 2),
        fig("f1", 1, 5, 6, 0),
        fig("f2", 1, 9, 3, 4),
    ];
    let b = setup(&across);
    let c = charger(&b, &across, 14, 2);
    let e = plan_charge(&b, &across, &c, &[1, 2]).unwrap_err();
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
    let c = charger(&b, &figs, 14, 2);
    let e = plan_charge(&b, &figs, &c, &[1, 3]).unwrap_err();
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
    let e = plan_charge(&b, &figs, &c, &[2]).unwrap_err();
    assert!(e.contains("not an enemy"), "{e}");
    let e = plan_charge(&b, &figs, &c, &[3]).unwrap_err();
    assert!(e.starts_with("A18:"), "{e}");
    let e = plan_charge(&b, &figs, &c, &[1, 1]).unwrap_err();
    assert!(e.contains("twice"), "{e}");
    // Woods between hide the footman.
    let i = b.index(Cell::new(5, 5));
    b.terrain[i] = 1;
    let i = b.index(Cell::new(5, 6));
    b.terrain[i] = 1;
    let e = plan_charge(&b, &figs, &c, &[1]).unwrap_err();
    assert!(e.contains("line of sight"), "{e}");
    // The list shows only enemies that are not horses.
    let list = target_list(&b, &figs, &c, &Ok(()));
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].0, 1);
    let list = target_list(&b, &figs, &c, &Err("C7: walking".into()));
    assert_eq!(list[0].1, Err("C7: walking".into()));
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
