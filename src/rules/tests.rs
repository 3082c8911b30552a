//! Acceptance tests of §3 of the rules brief against the shipped rulesets: every number of
//! seed 000, the D14 turning fractions, R1–R4 and the seed 002 worked examples.

use super::allowance::{
    Total, activity_cost, half_move_allowance, mount_cost, percent_then_flat, with_conditions,
};
use super::board::{Board, Terrain};
use super::gait::Gait;
use super::grid::{Cell, Dir, GridKind};
use super::movement::{Hand, Mover, MoverSpec, Pose, Step, StepRefusal};
use super::mp::{Frac, Mp};
use super::reach::reachable;
use super::ruleset::{Activity, Encumbrance, Ruleset, SteedSize};

/// A shipped ruleset by name, for the rules' tests (any other name: `realms`).
pub(super) fn ruleset(name: &str) -> Ruleset {
    let src = match name {
        "destrier" => include_str!("../../rulesets/destrier.ron"),
        "asl" => include_str!("../../rulesets/asl.ron"),
        "supplement" => include_str!("../../rulesets/supplement.ron"),
        _ => include_str!("../../rulesets/realms.ron"),
    };
    ron::Options::default()
        .from_str(src)
        .expect("shipped ruleset parses")
}

fn open(n: i64) -> Terrain {
    Terrain {
        name: if n == 1 {
            "open".into()
        } else {
            format!("cost {n}")
        },
        cost: Some(Mp::cells(n)),
        mounted_cost: None,
        no_gallop: false,
        cover: false,
        blocks_sight: false,
        obstacle: None,
    }
}

fn board(grid: GridKind) -> Board {
    let mut b = Board::new(grid, 30, 30, vec![open(1), open(2)]);
    // Column 20 and beyond is rough (cost 2).
    for y in 0..30 {
        for x in 20..30 {
            let i = b.index(Cell::new(x, y));
            b.terrain[i] = 1;
        }
    }
    b
}

/// A mover of side 1 on `b`, neither crawling nor under an ASL gallop, with no forced stops.
pub(super) fn mover(rules: &Ruleset, b: &Board, mounted: bool, gait: Gait, basis: Mp) -> Mover {
    Mover::new(
        rules,
        b,
        MoverSpec {
            side: 1,
            mounted,
            gait,
            basis,
            crawling: false,
            asl_gallop: false,
            stops: vec![],
        },
    )
}

fn run(
    m: &Mover,
    b: &Board,
    start: Pose,
    steps: &[Step],
    left: Mp,
) -> Result<(Pose, Mp), StepRefusal> {
    let mut p = start;
    let mut spent = Mp::ZERO;
    for &s in steps {
        let (np, c) = m.try_step_within(b, &p, s, left - spent)?;
        p = np;
        spent += c;
    }
    Ok((p, spent))
}

const N: Dir = Dir(0);
const E: Dir = Dir(2);

#[test]
fn h1_h2_rates_of_every_class_at_every_gait() {
    let r = ruleset("destrier");
    // (class, walk, trot, canter, gallop) per turn; a half-move gets half.
    let table = [
        ("rouncy", 6, (12, 1), (15, 1), 18),
        ("destrier", 7, (14, 1), (35, 2), 21),
        ("charger", 8, (16, 1), (20, 1), 24),
        ("courser", 9, (18, 1), (45, 2), 27),
    ];
    for (class, walk, trot, canter, gallop) in table {
        let rate = r.horse_classes[class].walk;
        assert_eq!(rate, Mp::cells(walk), "H1 {class}");
        let half = |g| half_move_allowance(&r, rate, g, []).unwrap().total * 2;
        assert_eq!(half(Gait::Walk), Mp::cells(walk));
        assert_eq!(half(Gait::Trot), Mp::ratio(trot.0, trot.1).unwrap());
        assert_eq!(half(Gait::Canter), Mp::ratio(canter.0, canter.1).unwrap());
        assert_eq!(half(Gait::Gallop), Mp::cells(gallop));
        assert_eq!(half(Gait::Halt), Mp::ZERO);
    }
}

#[test]
fn h3_manoeuvre_costs_at_walk() {
    let r = ruleset("destrier");
    let b = board(GridKind::Square);
    let m = mover(&r, &b, true, Gait::Walk, Mp::cells(7));
    let s = Pose::new(Cell::new(5, 5), N);
    let all = Mp::cells(20);
    assert_eq!(
        run(&m, &b, s, &[Step::Forward], all).unwrap().1,
        Mp::cells(1)
    );
    let (p, c) = run(&m, &b, s, &[Step::Veer(Hand::Right)], all).unwrap();
    assert_eq!((p.cell, p.facing, c), (Cell::new(6, 4), N, Mp::cells(2)));
    let (p, c) = run(&m, &b, s, &[Step::Pivot(2)], all).unwrap();
    assert_eq!((p.cell, p.facing, c), (s.cell, E, Mp::cells(3)));
    let (p, c) = run(&m, &b, s, &[Step::Pivot(4)], all).unwrap();
    assert_eq!((p.facing, c), (Dir(4), Mp::cells(4)));
    // Several manoeuvres in one turn when the allowance pays: 3 + 2 + 1 = 6 ≤ 7.
    let steps = [Step::Pivot(-2), Step::Veer(Hand::Left), Step::Forward];
    assert_eq!(
        run(&m, &b, s, &steps, Mp::cells(7)).unwrap().1,
        Mp::cells(6)
    );
    // One the allowance cannot pay is not allowed.
    let e = run(&m, &b, s, &[Step::Forward, Step::Pivot(2)], Mp::cells(3)).unwrap_err();
    assert!(
        matches!(
            e,
            StepRefusal::Dear { cost, left, rule: "H3", .. }
                if cost == Mp::cells(3) && left == Mp::cells(2)
        ),
        "{e:?}"
    );
    // 45° pivots do not exist for a horse on squares.
    assert_eq!(
        run(&m, &b, s, &[Step::Pivot(1)], all).unwrap_err(),
        StepRefusal::HorsePivot {
            k: 1,
            hex: false,
            supplement: false
        }
    );
}

#[test]
fn h4_trot_veers_only_any_number() {
    let r = ruleset("destrier");
    let b = board(GridKind::Square);
    let m = mover(&r, &b, true, Gait::Trot, Mp::cells(7));
    let s = Pose::new(Cell::new(5, 15), N);
    let v = Step::Veer(Hand::Right);
    let (p, c) = run(&m, &b, s, &[v, v, v, v, v], Mp::cells(10)).unwrap();
    assert_eq!((p.cell, c), (Cell::new(10, 10), Mp::cells(10)));
    assert!(matches!(
        run(&m, &b, s, &[Step::Pivot(2)], Mp::cells(10)),
        Err(StepRefusal::NotAtThisGait(..))
    ));
    assert!(matches!(
        run(&m, &b, s, &[Step::Back], Mp::cells(10)),
        Err(StepRefusal::NotAtThisGait(..))
    ));
}

#[test]
fn h4_gallop_at_most_two_veers() {
    let r = ruleset("destrier");
    let b = board(GridKind::Square);
    let m = mover(&r, &b, true, Gait::Gallop, Mp::cells(14));
    let s = Pose::new(Cell::new(5, 15), N);
    let (l, rt) = (Step::Veer(Hand::Left), Step::Veer(Hand::Right));
    let (p, c) = run(&m, &b, s, &[l, Step::Forward, rt], Mp::cells(14)).unwrap();
    assert_eq!((p.veers, c), (2, Mp::cells(5)));
    let e = run(&m, &b, s, &[l, Step::Forward, rt, l], Mp::cells(14)).unwrap_err();
    assert_eq!(e, StepRefusal::VeerLimit(2));
    // Veers already made this turn count (two half-moves make one move).
    let used = Pose { veers: 2, ..s };
    assert_eq!(
        run(&m, &b, used, &[l], Mp::cells(14)).unwrap_err(),
        StepRefusal::VeerLimit(2)
    );
}

#[test]
fn h5_backing_up_walk_only_two_a_square() {
    let r = ruleset("destrier");
    let b = board(GridKind::Square);
    let m = mover(&r, &b, true, Gait::Walk, Mp::cells(7));
    let s = Pose::new(Cell::new(5, 5), N);
    let (p, c) = run(&m, &b, s, &[Step::Back, Step::Back], Mp::cells(7)).unwrap();
    assert_eq!((p.cell, p.facing, c), (Cell::new(5, 7), N, Mp::cells(4)));
    let m = mover(&r, &b, true, Gait::Gallop, Mp::cells(7));
    assert!(run(&m, &b, s, &[Step::Back], Mp::cells(7)).is_err());
}

#[test]
fn h6_final_adjustment_is_free_and_modest() {
    let r = ruleset("destrier");
    let b = board(GridKind::Square);
    let m = mover(&r, &b, true, Gait::Trot, Mp::cells(7));
    let s = Pose::new(Cell::new(5, 5), N);
    let veered = run(&m, &b, s, &[Step::Veer(Hand::Right)], Mp::cells(7))
        .unwrap()
        .0;
    assert_eq!(veered.diag, Some(Hand::Right));
    // To the heading, or to the side it veered to (E), for nothing.
    for f in [N, E] {
        let (p, c) = m.try_step(&b, &veered, Step::Settle(f)).unwrap();
        assert_eq!((p.facing, p.diag, c), (f, None, Mp::ZERO));
    }
    // Nothing more profound: not W, not S.
    for f in [Dir(6), Dir(4)] {
        assert_eq!(
            m.try_step(&b, &veered, Step::Settle(f)).unwrap_err(),
            StepRefusal::BadSettle(f)
        );
    }
    // Without a veer there is nothing to adjust.
    assert!(m.try_step(&b, &s, Step::Settle(E)).is_err());
    // The reachable area offers both facings at the veer's cell at the veer's cost.
    let reach = reachable(&b, &m, s, Mp::cells(2));
    assert_eq!(reach.end(Cell::new(6, 4), E).unwrap().cost, Mp::cells(2));
    assert_eq!(reach.end(Cell::new(6, 4), N).unwrap().cost, Mp::cells(2));
    assert!(reach.end(Cell::new(6, 4), Dir(6)).is_none());
}

#[test]
fn h7_hex_manoeuvres() {
    let r = ruleset("realms");
    let b = board(GridKind::Hex);
    let m = mover(&r, &b, true, Gait::Walk, Mp::cells(8));
    let s = Pose::new(Cell::new(5, 6), Dir(1)); // heading E
    let (p, c) = run(&m, &b, s, &[Step::Veer(Hand::Right)], Mp::cells(8)).unwrap();
    assert_eq!(
        (p.cell, p.facing, p.diag, c),
        (Cell::new(5, 7), Dir(2), None, Mp::cells(2))
    );
    let (p, c) = run(&m, &b, s, &[Step::Pivot(2)], Mp::cells(8)).unwrap();
    assert_eq!((p.facing, c), (Dir(3), Mp::cells(3)));
    let (p, c) = run(&m, &b, s, &[Step::Pivot(3)], Mp::cells(8)).unwrap();
    assert_eq!((p.facing, c), (Dir(4), Mp::cells(4)));
    assert_eq!(
        run(&m, &b, s, &[Step::Pivot(1)], Mp::cells(8)).unwrap_err(),
        StepRefusal::HorsePivot {
            k: 1,
            hex: true,
            supplement: false
        }
    );
    let (p, c) = run(&m, &b, s, &[Step::Back], Mp::cells(8)).unwrap();
    assert_eq!((p.cell, c), (Cell::new(4, 6), Mp::cells(2)));
}

#[test]
fn d14_foot_turning_fractions() {
    let r = ruleset("destrier");
    let b = board(GridKind::Square);
    // A man with 6" a turn has 3" a half-move: 1/5 is 3/5, so the 1" minimum applies.
    let m = mover(&r, &b, false, Gait::Walk, Mp::cells(3));
    assert_eq!(m.foot_turn_cost(1), Mp::cells(1));
    assert_eq!(m.foot_turn_cost(-2), Mp::ratio(3, 4).unwrap());
    assert_eq!(m.foot_turn_cost(3), Mp::ratio(3, 2).unwrap());
    assert_eq!(m.foot_turn_cost(4), Mp::ratio(3, 2).unwrap());
    // A 12"/turn figure (6" a half-move): 6/5, 3/2 and 3.
    let m = mover(&r, &b, false, Gait::Walk, Mp::cells(6));
    assert_eq!(m.foot_turn_cost(1), Mp::ratio(6, 5).unwrap());
    assert_eq!(m.foot_turn_cost(2), Mp::ratio(3, 2).unwrap());
    assert_eq!(m.foot_turn_cost(-4), Mp::cells(3));
    // Straight movement is free of extra cost; diagonals are one cell.
    let s = Pose::new(Cell::new(5, 5), Dir(1));
    let (p, c) = run(&m, &b, s, &[Step::Forward, Step::Forward], Mp::cells(6)).unwrap();
    assert_eq!((p.cell, c), (Cell::new(7, 3), Mp::cells(2)));
    // Foot figures do not veer or back.
    assert!(matches!(
        run(&m, &b, s, &[Step::Back], Mp::cells(6)),
        Err(StepRefusal::WrongKind(_))
    ));
    // On hexes: 60° within the front, 120° the side, 180° the rear.
    let bh = board(GridKind::Hex);
    let mut rh = r.clone();
    rh.grid = GridKind::Hex;
    let m = mover(&rh, &bh, false, Gait::Walk, Mp::cells(10));
    assert_eq!(m.foot_turn_cost(1), Mp::cells(2));
    assert_eq!(m.foot_turn_cost(2), Mp::ratio(5, 2).unwrap());
    assert_eq!(m.foot_turn_cost(3), Mp::cells(5));
}

#[test]
fn r3_terrain_and_crawling() {
    let r = ruleset("realms");
    let b = board(GridKind::Hex);
    let m = mover(&r, &b, false, Gait::Walk, Mp::cells(10));
    // Into difficult terrain (column 20+): 2 per cell.
    let s = Pose::new(Cell::new(19, 4), Dir(1));
    let (_, c) = run(
        &m,
        &b,
        s,
        &[Step::Go(Dir(1)), Step::Go(Dir(1))],
        Mp::cells(10),
    )
    .unwrap();
    assert_eq!(c, Mp::cells(4));
    let crawler = Mover::new(
        &r,
        &b,
        MoverSpec {
            side: 1,
            mounted: false,
            gait: Gait::Walk,
            basis: Mp::cells(10),
            crawling: true,
            asl_gallop: false,
            stops: vec![],
        },
    );
    let (_, c) = run(
        &crawler,
        &b,
        Pose::new(Cell::new(5, 4), Dir(1)),
        &[Step::Go(Dir(1))],
        Mp::cells(10),
    )
    .unwrap();
    assert_eq!(c, Mp::cells(3));
    // A mount's veer into rough ground costs 2 × 2.
    let horse = mover(
        &ruleset("destrier"),
        &board(GridKind::Square),
        true,
        Gait::Walk,
        Mp::cells(7),
    );
    let (_, c) = run(
        &horse,
        &board(GridKind::Square),
        Pose::new(Cell::new(19, 5), N),
        &[Step::Veer(Hand::Right)],
        Mp::cells(7),
    )
    .unwrap();
    assert_eq!(c, Mp::cells(4));
}

#[test]
fn r4_controlled_space() {
    let r = ruleset("realms");
    let mut b = board(GridKind::Hex);
    let ally = Cell::new(6, 4);
    let enemy = Cell::new(5, 3);
    let i = b.index(ally);
    b.occupant[i] = 1;
    let j = b.index(enemy);
    b.occupant[j] = 2;
    let m = mover(&r, &b, false, Gait::Walk, Mp::cells(10));
    let s = Pose::new(Cell::new(5, 4), Dir(1));
    // Through an ally at difficult-terrain cost.
    let (p, c) = run(
        &m,
        &b,
        s,
        &[Step::Go(Dir(1)), Step::Go(Dir(1))],
        Mp::cells(10),
    )
    .unwrap();
    assert_eq!((p.cell, c), (Cell::new(7, 4), Mp::cells(3)));
    // Not into a hostile's space.
    assert_eq!(
        run(&m, &b, s, &[Step::Go(Dir(0))], Mp::cells(10)).unwrap_err(),
        StepRefusal::Enemy(enemy)
    );
    // Never ending on the ally.
    let reach = reachable(&b, &m, s, Mp::cells(10));
    assert!(reach.cheapest_at(ally).is_none());
    // Through the ally (2 + 1) or around it (three open cells): 3 either way.
    assert_eq!(
        reach.cheapest_at(Cell::new(7, 4)).unwrap().cost,
        Mp::cells(3)
    );
    assert_eq!(
        reach.cheapest_at(Cell::new(8, 4)).unwrap().cost,
        Mp::cells(4)
    );
}

/// R4, our reading (docs/rules.md): "a figure controls its cell against others, not against
/// itself: the cell it starts its move in is priced as any empty cell" — also when a figure of
/// the other side stands there too (`SHARED`: a horse went down in the cell of the enemy its
/// bash staggered there). Coming back into it takes no contest.
#[test]
fn r4_its_own_cell_is_no_hostiles_even_when_an_enemy_shares_it() {
    let r = ruleset("realms");
    let mut b = board(GridKind::Hex);
    let home = Cell::new(5, 4);
    let i = b.index(home);
    b.occupant[i] = crate::rules::board::SHARED;
    let m = mover(&r, &b, false, Gait::Walk, Mp::cells(10)).with_home(home);
    let s = Pose::new(home, Dir(1));
    let out = r.grid.neighbour(home, Dir(1));
    let back = (0..6)
        .map(Dir)
        .find(|&d| r.grid.neighbour(out, d) == home)
        .expect("a way back");
    let (p, c) = run(
        &m,
        &b,
        s,
        &[Step::Go(Dir(1)), Step::Go(back)],
        Mp::cells(10),
    )
    .expect("back into its own cell");
    assert_eq!((p.cell, c), (home, Mp::cells(2)));
    // Another figure, starting elsewhere, finds a hostile there.
    let other = mover(&r, &b, false, Gait::Walk, Mp::cells(10)).with_home(out);
    assert_eq!(
        run(
            &other,
            &b,
            Pose::new(out, back),
            &[Step::Go(back)],
            Mp::cells(10)
        )
        .unwrap_err(),
        StepRefusal::Enemy(home)
    );
}

#[test]
fn d16_contact_stops_the_move() {
    let r = ruleset("destrier");
    let b = board(GridKind::Square);
    let stop = Cell::new(5, 4);
    let m = Mover::new(
        &r,
        &b,
        MoverSpec {
            side: 1,
            mounted: false,
            gait: Gait::Walk,
            basis: Mp::cells(3),
            crawling: false,
            asl_gallop: false,
            stops: vec![stop],
        },
    );
    let s = Pose::new(Cell::new(5, 5), N);
    let (p, _) = run(&m, &b, s, &[Step::Forward], Mp::cells(3)).unwrap();
    assert!(p.stopped);
    assert_eq!(
        m.try_step(&b, &p, Step::Forward).unwrap_err(),
        StepRefusal::Stopped
    );
    // A free 45° reorientation after contact.
    assert!(m.try_step(&b, &p, Step::Settle(Dir(1))).is_ok());
    assert!(m.try_step(&b, &p, Step::Settle(Dir(2))).is_err());
    // Only once.
    let settled = m.try_step(&b, &p, Step::Settle(Dir(1))).unwrap().0;
    assert_eq!(
        m.try_step(&b, &settled, Step::Settle(Dir(2))).unwrap_err(),
        StepRefusal::Stopped
    );
}

#[test]
fn r1_seed_002_worked_examples() {
    let r = ruleset("realms");
    let c = |n: &str| &r.conditions[n];
    let ft = |n: i64| r.feet(n);
    let human = ft(50);
    let dwarf = ft(40);
    // Dismounting a horse: 25 ft for the human, 20 ft for the dwarf (50% of species).
    assert_eq!(
        mount_cost(&r, human, human, Encumbrance::None, SteedSize::Large),
        Some(ft(25))
    );
    assert_eq!(
        mount_cost(&r, dwarf, dwarf, Encumbrance::None, SteedSize::Large),
        Some(ft(20))
    );
    assert_eq!(
        mount_cost(&r, dwarf, dwarf, Encumbrance::None, SteedSize::Huge),
        Some(ft(40))
    );
    // Quick step: the dwarf's total becomes 50 ft, the dismount still 20, leaving 30.
    let quick = with_conditions(&r, dwarf, [c("quick_step")]);
    assert_eq!(quick.total, ft(50));
    assert_eq!(
        quick.total
            - mount_cost(&r, quick.total, dwarf, Encumbrance::None, SteedSize::Large).unwrap(),
        ft(30)
    );
    // Shackled as well: 25 ft. Touched by a ghoul too: zero, paralysed.
    let bound = with_conditions(&r, dwarf, [c("quick_step"), c("shackled")]);
    assert_eq!(bound.total, ft(25));
    let ghoul = with_conditions(
        &r,
        dwarf,
        [c("quick_step"), c("shackled"), c("ghoul_touch")],
    );
    assert_eq!(ghoul.total, Mp::ZERO);
    assert!(ghoul.paralysed);
    // Seed 002: "the armor and equipment used is so heavy that it lowers his "total" movement
    // for the round down to only 40 feet. Let's place him in shackles, which would reduce his
    // movement to 20 feet. Now if that ghoul touches him, his movement becomes negative, and
    // he too is paralyzed." Encumbrance is a percentage (-20%), so with percentages first:
    // 50 × 4/5 = 40; × 1/2 = 20; − 25 = −5.
    let armour = with_conditions(&r, human, [c("armour")]);
    assert_eq!(armour.total, ft(40), "R1: armour leaves the human 40 ft");
    assert!(!armour.paralysed);
    assert_eq!(
        with_conditions(&r, human, [c("armour"), c("shackled")]).total,
        ft(20),
        "R1: armoured and shackled, 20 ft"
    );
    // The order the conditions come in does not matter (percentages multiply).
    assert_eq!(
        with_conditions(&r, human, [c("shackled"), c("armour")]).total,
        ft(20)
    );
    let h = with_conditions(&r, human, [c("armour"), c("shackled"), c("ghoul_touch")]);
    assert!(
        h.paralysed && h.total == Mp::ZERO,
        "R1: 20 − 25 is below zero: paralysed"
    );
    // The raw total really is below zero (−5 ft), not merely zero.
    assert_eq!(
        percent_then_flat(human, &[Frac::new(-1, 5), Frac::new(-1, 2)], &[ft(-25)]),
        Total {
            total: Mp::ZERO,
            paralysed: true
        }
    );
    assert!(ft(20) - ft(25) < Mp::ZERO);
    // The unarmoured human, shackled and ghoul-touched: 50 × 1/2 − 25 = 0, paralysed too.
    let bare = with_conditions(&r, human, [c("shackled"), c("ghoul_touch")]);
    assert!(bare.paralysed && bare.total == Mp::ZERO);
    // The smarty's order (flat first) would give 12½: PEMDAS says otherwise.
    assert_ne!(
        percent_then_flat(human, &[Frac::new(-1, 2)], &[ft(-25)]).total,
        ft(25).mul_ratio(1, 2)
    );
    assert_eq!(
        percent_then_flat(human, &[Frac::new(-1, 2)], &[ft(-25)]).total,
        Mp::ZERO
    );
}

#[test]
fn r2_action_penalties() {
    let r = ruleset("realms");
    let dwarf = r.feet(40);
    let quick = r.feet(50);
    let cost = |a| activity_cost(&r, a, quick, dwarf, Encumbrance::None).unwrap();
    assert_eq!(cost(Activity::PickUpItem), r.feet(10));
    assert_eq!(cost(Activity::ReadyShield), r.feet(10));
    assert_eq!(cost(Activity::DrawWeapon), r.feet(10));
    assert_eq!(cost(Activity::PickUpAndReady), r.feet(20));
    // Standing up is 50% of the species rate, not the augmented one.
    assert_eq!(cost(Activity::StandUp), r.feet(20));
}

#[test]
fn d15_activity_and_mount_penalties() {
    let r = ruleset("destrier");
    let basis = Mp::cells(3);
    let cost = |a, e| activity_cost(&r, a, basis, basis, e).unwrap();
    assert_eq!(
        cost(Activity::StandUp, Encumbrance::None),
        Mp::ratio(3, 2).unwrap()
    );
    assert_eq!(
        cost(Activity::StandUp, Encumbrance::Partial),
        Mp::ratio(3, 2).unwrap()
    );
    assert_eq!(cost(Activity::StandUp, Encumbrance::Full), basis);
    assert_eq!(
        cost(Activity::OpenDoor, Encumbrance::None),
        Mp::ratio(3, 2).unwrap()
    );
    assert_eq!(cost(Activity::UnlockDoor, Encumbrance::None), basis);
    assert_eq!(cost(Activity::ReadScroll, Encumbrance::None), basis);
    assert_eq!(cost(Activity::DrawWeapon, Encumbrance::None), Mp::ZERO);
    assert_eq!(
        activity_cost(&r, Activity::FiredFirst, basis, basis, Encumbrance::None),
        None
    );
    let m = |e| mount_cost(&r, basis, basis, e, SteedSize::Large).unwrap();
    assert_eq!(m(Encumbrance::None), Mp::ratio(3, 4).unwrap());
    assert_eq!(m(Encumbrance::Partial), Mp::ratio(3, 2).unwrap());
    assert_eq!(m(Encumbrance::Full), basis);
}

#[test]
fn asl_cavalry_has_no_facing_costs() {
    let r = ruleset("asl");
    let b = board(GridKind::Hex);
    let m = mover(&r, &b, true, Gait::Walk, Mp::cells(12));
    let s = Pose::new(Cell::new(5, 5), Dir(0));
    let steps = [Step::Go(Dir(3)), Step::Go(Dir(0)), Step::Go(Dir(4))];
    assert_eq!(
        run(&m, &b, s, &steps, Mp::cells(12)).unwrap().1,
        Mp::cells(3)
    );
    assert!(run(&m, &b, s, &[Step::Forward], Mp::cells(12)).is_err());
}
