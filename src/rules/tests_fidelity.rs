//! Issue 14, "Rules fidelity": each test states the seed sentence it holds the rules to.

use super::board::{Board, Terrain};
use super::gait::Gait;
use super::grid::{Cell, Dir, GridKind};
use super::movement::{Hand, Mover, MoverSpec, Pose, Step, StepRefusal};
use super::mp::{Frac, Mp};
use super::reach::{brute_force, reachable};
use super::ruleset::HorseTurning;
use super::tests::{mover, ruleset};
use std::collections::BTreeMap;

fn terrain(name: &str, cost: Option<i64>) -> Terrain {
    Terrain {
        name: name.into(),
        cost: cost.map(Mp::cells),
        mounted_cost: None,
        no_gallop: false,
        cover: false,
        blocks_sight: false,
        obstacle: None,
    }
}

fn open_board(grid: GridKind) -> Board {
    Board::new(
        grid,
        16,
        16,
        vec![terrain("open", Some(1)), terrain("rough", Some(2))],
    )
}

fn run(m: &Mover, b: &Board, start: Pose, steps: &[Step]) -> Result<(Pose, Mp), StepRefusal> {
    let mut p = start;
    let mut spent = Mp::ZERO;
    for &s in steps {
        let (np, c) = m.try_step(b, &p, s)?;
        p = np;
        spent += c;
    }
    Ok((p, spent))
}

/// The board with the mover shown in its own cell, as the simulation shows it.
fn occupied(mut b: Board, at: Cell) -> Board {
    let i = b.index(at);
    b.occupant[i] = 1;
    b
}

/// Seed 000: "Each square that a horse walks backwards has a total movement cost of 2
/// squares"; seed 002 (R4): "Allies and other non-hostiles can walk through someone's space;
/// however, it does count as difficult terrain" — someone *else's* space. A figure backing
/// into the cell it started from pays 2, not the ally surcharge.
#[test]
fn r4_the_start_cell_is_not_an_allys_cell() {
    let r = ruleset("destrier");
    let at = Cell::new(5, 5);
    let b = occupied(open_board(GridKind::Square), at);
    let m = mover(&r, &b, true, Gait::Walk, Mp::cells(7)).with_home(at);
    let (p, cost) =
        run(&m, &b, Pose::new(at, Dir(0)), &[Step::Forward, Step::Back]).expect("forward and back");
    assert_eq!(p.cell, at);
    assert_eq!(
        cost,
        Mp::cells(3),
        "seed 000: a step ahead 1 + backing a square 2 = 3, not 1 + 4 (the start cell is no ally's)"
    );
    // Another ally's cell still costs as difficult terrain (2 × 2 backing).
    let mut b2 = b.clone();
    let ally = Cell::new(5, 6);
    let i = b2.index(ally);
    b2.occupant[i] = 1;
    let (_, c2) = run(&m, &b2, Pose::new(at, Dir(0)), &[Step::Back, Step::Forward]).unwrap();
    assert_eq!(c2, Mp::cells(4) + Mp::cells(1));
    // A foot figure (realms, no facing) out and back: 1 + 1.
    let rr = ruleset("realms");
    let bh = occupied(open_board(GridKind::Hex), at);
    let f = mover(&rr, &bh, false, Gait::Walk, Mp::cells(10)).with_home(at);
    let (_, c) = run(
        &f,
        &bh,
        Pose::new(at, Dir(0)),
        &[Step::Go(Dir(1)), Step::Go(Dir(4))],
    )
    .unwrap();
    assert_eq!(
        c,
        Mp::cells(2),
        "R4: its own cell is priced as any empty cell"
    );
}

/// H7: "On hexes the same costs apply with veer = ±60°": the cheapest 60° turn in place is a
/// veer (2) then a back-up (2) into the start cell, 4 — not 6.
#[test]
fn h7_hex_sixty_degree_turn_in_place_costs_four() {
    let r = ruleset("realms");
    let at = Cell::new(6, 6);
    let b = occupied(open_board(GridKind::Hex), at);
    let m = mover(&r, &b, true, Gait::Walk, Mp::cells(8));
    let start = Pose::new(at, Dir(0));
    let reach = reachable(&b, &m, start, Mp::cells(8));
    for turn in [Dir(1), Dir(5)] {
        let e = reach
            .end(at, turn)
            .expect("a 60° turn in place is reachable");
        assert_eq!(e.cost, Mp::cells(4), "veer 2 + back 2 into its own cell");
    }
}

/// The reach on hexes agrees with a brute-force search that prices the start cell as any
/// other empty cell (issue 14's acceptance wording), on a field with allies and rough ground.
#[test]
fn reach_on_hexes_matches_a_search_with_the_start_cell_empty() {
    for (name, mounted, gait) in [
        ("realms", true, Gait::Walk),
        ("realms", false, Gait::Walk),
        ("destrier", false, Gait::Walk),
        ("supplement", true, Gait::Canter),
    ] {
        let mut r = ruleset(name);
        r.grid = GridKind::Hex;
        let at = Cell::new(6, 6);
        let mut b = open_board(GridKind::Hex);
        for (i, t) in b.terrain.iter_mut().enumerate() {
            *t = u8::from(i * 7 % 5 == 0);
        }
        let cell = b.index(at);
        b.terrain[cell] = 0;
        for c in [Cell::new(7, 6), Cell::new(6, 4), Cell::new(4, 7)] {
            let i = b.index(c);
            b.occupant[i] = 1;
        }
        let empty = b.clone();
        let b = occupied(b, at);
        let m = mover(&r, &b, mounted, gait, Mp::cells(6));
        let start = Pose::new(at, Dir(0));
        let left = Mp::cells(5);
        let ours: BTreeMap<(Cell, Dir), (bool, Mp)> = reachable(&b, &m, start, left)
            .ends()
            .iter()
            .map(|e| ((e.cell, e.facing), e.rank()))
            .collect();
        // The oracle on a board where nobody stands in the start cell at all.
        let free = mover(&r, &empty, mounted, gait, Mp::cells(6));
        assert_eq!(ours, brute_force(&empty, &free, start, left), "{name}");
        assert_eq!(ours, brute_force(&b, &m, start, left), "{name}");
    }
}

/// Seed 003, D14: "If the direction of movement is changed so that the new direction is still
/// to the original position's front, there is a penalty of 1/5 …; into the area covered by the
/// side of the stand in its original position, 1/4; into the rear of the stand's original
/// position, 1/2." Every turn is priced by where its new direction lies from the original
/// facing, so for every pair of turns the pair costs at least the single turn to the same
/// direction (and the 135° as 90° + 45° is no longer 5/2 + 2 on a 10-cell half-move).
#[test]
fn d14_no_split_turn_is_cheaper_than_the_single_turn() {
    for grid in [GridKind::Square, GridKind::Hex] {
        let mut r = ruleset("destrier");
        r.grid = grid;
        let b = open_board(grid);
        let basis = Mp::cells(10);
        let m = mover(&r, &b, false, Gait::Walk, basis);
        let n = grid.dirs() as i32;
        let half = n / 2;
        let start = Pose::new(Cell::new(8, 8), Dir(0));
        let turns: Vec<i32> = (-half + 1..=half).filter(|&k| k != 0).collect();
        let mut checked = 0;
        for &k1 in &turns {
            for &k2 in &turns {
                let (p, pair) = run(
                    &m,
                    &b,
                    start,
                    &[Step::Pivot(k1 as i8), Step::Pivot(k2 as i8)],
                )
                .expect("two turns in place");
                let total = grid.turn_between(Dir(0), p.facing);
                if total == 0 {
                    assert!(pair > Mp::ZERO);
                    continue;
                }
                let (q, single) = run(&m, &b, start, &[Step::Pivot(total as i8)]).unwrap();
                assert_eq!(q.facing, p.facing);
                assert!(
                    pair >= single,
                    "{grid:?}: {k1} then {k2} costs {pair}, the single turn of {total} {single}"
                );
                checked += 1;
            }
        }
        assert!(checked > 10);
    }
    // The case on squares: 135° (rear) as 90° + 45°: 10 × (1/4 + 1/2) = 15/2 ≥ 5.
    let r = ruleset("destrier");
    let b = open_board(GridKind::Square);
    let m = mover(&r, &b, false, Gait::Walk, Mp::cells(10));
    let s = Pose::new(Cell::new(8, 8), Dir(0));
    let (_, split) = run(&m, &b, s, &[Step::Pivot(2), Step::Pivot(1)]).unwrap();
    assert_eq!(split, Mp::ratio(15, 2).unwrap());
    let (_, single) = run(&m, &b, s, &[Step::Pivot(3)]).unwrap();
    assert_eq!(single, Mp::cells(5), "D14: into the rear, 1/2 of 10");
    // Turning back onto the original direction is "still to the original position's front".
    let (_, back) = run(&m, &b, s, &[Step::Pivot(2), Step::Pivot(-2)]).unwrap();
    assert_eq!(back, Mp::ratio(5, 2).unwrap() + Mp::cells(2));
    // Moving between the turns does not change what they are priced against.
    let (_, moved) = run(
        &m,
        &b,
        s,
        &[Step::Pivot(2), Step::Forward, Step::Pivot(1), Step::Forward],
    )
    .unwrap();
    assert_eq!(moved, Mp::ratio(15, 2).unwrap() + Mp::cells(2));
}

/// Seed 003, D16: "A moving figure is allowed to reorient its stand after coming into contact
/// with an enemy. Reorientation may involve a turn of no more than 45° and does not require
/// the expenditure of movement." — also when it held the initiative (no stop), and when it
/// touched a rear and chose to stop ("If a figure contacts an enemy's rear, it may elect to
/// stop or proceed").
#[test]
fn d16_free_45_after_any_contact() {
    let r = ruleset("destrier");
    let mut b = open_board(GridKind::Square);
    let enemy = Cell::new(5, 3);
    let i = b.index(enemy);
    b.occupant[i] = 2;
    let home = Cell::new(5, 6);
    // No stop cells: the figure won the initiative, or the enemy shows it its rear.
    let m = mover(&r, &b, false, Gait::Walk, Mp::cells(3)).with_home(home);
    let s = Pose::new(home, Dir(0));
    let (p, _) = run(&m, &b, s, &[Step::Forward]).unwrap();
    assert_eq!(p.cell, Cell::new(5, 5));
    assert!(!p.stopped);
    // Not yet touching: no free turn.
    assert!(m.try_step(&b, &p, Step::Settle(Dir(1))).is_err());
    let (p, _) = run(&m, &b, p, &[Step::Forward]).unwrap();
    assert!(!p.stopped, "not stopped: it may go on");
    for d in [Dir(1), Dir(7)] {
        let (q, c) = m.try_step(&b, &p, Step::Settle(d)).expect("D16: free 45°");
        assert_eq!((q.facing, c), (d, Mp::ZERO));
        assert!(
            q.settled,
            "choosing the turn ends its move (it elected to stop)"
        );
    }
    assert!(
        m.try_step(&b, &p, Step::Settle(Dir(2))).is_err(),
        "no more than 45°"
    );
    // The reachable area offers the free facings at the contact cell.
    let reach = reachable(&b, &m, s, Mp::cells(3));
    assert_eq!(
        reach.end(Cell::new(5, 4), Dir(1)).unwrap().cost,
        Mp::cells(2)
    );
    // A figure that has not moved gets nothing for standing in contact.
    let still = mover(&r, &b, false, Gait::Walk, Mp::cells(3)).with_home(Cell::new(5, 4));
    let p0 = Pose::new(Cell::new(5, 4), Dir(0));
    assert!(still.try_step(&b, &p0, Step::Settle(Dir(1))).is_err());
    // … unless it moved there earlier in the half-move.
    let later = still.clone().with_moved_before(true);
    assert!(later.try_step(&b, &p0, Step::Settle(Dir(1))).is_ok());
}

/// Seed 004: "Cavalry may turn 45° per ¼ of their movement, or per ½ move at Gallop." Under
/// the ruleset switch (`horse_turning: Supplement`, `rulesets/supplement.ron`) a mount's turn
/// in place costs a quarter of its half-move allowance per 45° (a half at a gallop), at any
/// of the supplement's speeds (walk, canter, gallop).
#[test]
fn seed_004_supplement_turning_switch() {
    let r = ruleset("supplement");
    assert_eq!(r.horse_turning, HorseTurning::Supplement);
    assert!(
        !r.gaits.contains_key(&Gait::Trot),
        "bands: walk, canter, gallop"
    );
    assert_eq!(r.gaits[&Gait::Canter], Frac::new(4, 3));
    assert_eq!(r.gaits[&Gait::Gallop], Frac::new(5, 3));
    let b = open_board(GridKind::Square);
    let s = Pose::new(Cell::new(8, 8), Dir(0));
    let basis = Mp::cells(8);
    for (gait, quarter) in [
        (Gait::Walk, Frac::new(1, 4)),
        (Gait::Canter, Frac::new(1, 4)),
        (Gait::Gallop, Frac::new(1, 2)),
    ] {
        let m = mover(&r, &b, true, gait, basis);
        let (p, c) = run(&m, &b, s, &[Step::Pivot(2)]).expect("90° at any gait");
        assert_eq!(p.facing, Dir(2));
        assert_eq!(c, basis.scale(quarter) * 2, "{gait}: 90° is two 45°s");
        let (_, c) = run(&m, &b, s, &[Step::Pivot(4)]).unwrap();
        assert_eq!(c, basis.scale(quarter) * 4, "{gait}: 180°");
        assert!(matches!(
            m.try_step(&b, &s, Step::Pivot(1)),
            Err(StepRefusal::HorsePivot {
                supplement: true,
                ..
            })
        ));
    }
    // On hexes 60° is 60/45 of a quarter: a third of the move (two thirds at a gallop).
    let mut rh = r.clone();
    rh.grid = GridKind::Hex;
    let bh = open_board(GridKind::Hex);
    let m = mover(&rh, &bh, true, Gait::Canter, Mp::cells(9));
    assert_eq!(run(&m, &bh, s, &[Step::Pivot(1)]).unwrap().1, Mp::cells(3));
    let g = mover(&rh, &bh, true, Gait::Gallop, Mp::cells(9));
    assert_eq!(run(&g, &bh, s, &[Step::Pivot(-1)]).unwrap().1, Mp::cells(6));
    // A hex veer turns the heading too: a step plus the 60° turn.
    assert_eq!(
        run(&m, &bh, s, &[Step::Veer(Hand::Right)]).unwrap().1,
        Mp::cells(4)
    );
    // The grid rules are unchanged without the switch: no pivot at a gallop.
    let d = ruleset("destrier");
    let gm = mover(&d, &b, true, Gait::Gallop, basis);
    assert!(matches!(
        gm.try_step(&b, &s, Step::Pivot(2)),
        Err(StepRefusal::NotAtThisGait(..))
    ));
}

/// The direction from `a` to its neighbour `b`.
fn adjacent(b: &Board, a: Cell, to: Cell) -> Dir {
    b.grid.dir_to_adjacent(a, to).expect("neighbours")
}

/// "A refused order must name the rule that refuses it": the tag of each step refusal.
#[test]
fn step_refusals_name_their_own_rule() {
    let tag = |e: &StepRefusal| e.to_string();
    let r = ruleset("destrier");
    let mut b = open_board(GridKind::Square);
    let rough = b.index(Cell::new(5, 4));
    b.terrain[rough] = 1;
    let s = Pose::new(Cell::new(5, 5), Dir(0));
    // A foot figure's terrain: R3, not H3.
    let foot = mover(&r, &b, false, Gait::Walk, Mp::cells(3));
    let e = foot
        .try_step_within(&b, &s, Step::Forward, Mp::cells(1))
        .unwrap_err();
    assert!(tag(&e).starts_with("R3:"), "{e}");
    // A foot turn: D14.
    let e = foot
        .try_step_within(&b, &s, Step::Pivot(4), Mp::cells(1))
        .unwrap_err();
    assert!(tag(&e).starts_with("D14:"), "{e}");
    // Open ground with the allowance spent: D4.
    let e = foot
        .try_step_within(
            &b,
            &Pose::new(Cell::new(8, 8), Dir(0)),
            Step::Forward,
            Mp::ZERO,
        )
        .unwrap_err();
    assert!(tag(&e).starts_with("D4:"), "{e}");
    // The evasive quarter (D16) and paralysis (R1) name their rules when given.
    let e = foot.too_dear(
        &b,
        &s,
        Step::Forward,
        Mp::cells(1),
        Mp::ZERO,
        Some((
            "D16",
            "evasive action: a quarter of the half-move allowance",
        )),
    );
    assert!(tag(&e).starts_with("D16:"), "{e}");
    // A horse's right angle: H3; its backing: H5; a 60° pivot on hexes: H3/H7, with the veer
    // suggested.
    let horse = mover(&r, &b, true, Gait::Walk, Mp::cells(7));
    let e = horse
        .try_step_within(&b, &s, Step::Pivot(2), Mp::cells(2))
        .unwrap_err();
    assert!(tag(&e).starts_with("H3:"), "{e}");
    let e = horse
        .try_step_within(&b, &s, Step::Back, Mp::cells(1))
        .unwrap_err();
    assert!(tag(&e).starts_with("H5:"), "{e}");
    let rr = ruleset("realms");
    let bh = open_board(GridKind::Hex);
    let hh = mover(&rr, &bh, true, Gait::Walk, Mp::cells(7));
    let e = hh.try_step(&bh, &s, Step::Pivot(1)).unwrap_err();
    assert!(
        tag(&e).starts_with("H3/H7:") && tag(&e).contains("veer"),
        "{e}"
    );
    // Terrain a galloping ASL horse may not enter: A10; plain impassable ground: R3.
    let asl = ruleset("asl");
    let mut ba = Board::new(
        GridKind::Hex,
        10,
        10,
        vec![
            terrain("open", Some(1)),
            terrain("woods", Some(2)),
            terrain("cliff", None),
        ],
    );
    ba.terrains[1].no_gallop = true;
    let p = Pose::new(Cell::new(5, 5), Dir(0));
    let woods = ba.grid.neighbour(p.cell, Dir(0));
    let cliff = ba.grid.neighbour(p.cell, Dir(1));
    let w = ba.index(woods);
    ba.terrain[w] = 1;
    let c = ba.index(cliff);
    ba.terrain[c] = 2;
    let galloper = Mover::new(
        &asl,
        &ba,
        MoverSpec {
            side: 1,
            mounted: true,
            gait: Gait::Walk,
            basis: Mp::cells(20),
            crawling: false,
            asl_gallop: true,
            stops: vec![],
        },
    );
    let e = galloper.try_step(&ba, &p, Step::Go(Dir(0))).unwrap_err();
    assert!(tag(&e).starts_with("A10:"), "{e}");
    let e = galloper.try_step(&ba, &p, Step::Go(Dir(1))).unwrap_err();
    assert!(tag(&e).starts_with("R3:"), "{e}");
    // An enemy hex in `asl`: A8 for cavalry; R4 elsewhere.
    let mut be = ba.clone();
    let foe = be.grid.neighbour(p.cell, Dir(3));
    let en = be.index(foe);
    be.occupant[en] = 2;
    let to_enemy = Dir(3);
    let cav = mover(&asl, &be, true, Gait::Walk, Mp::cells(12));
    let e = cav.try_step(&be, &p, Step::Go(to_enemy)).unwrap_err();
    assert!(tag(&e).starts_with("A8:"), "{e}");
    let mut rb = open_board(GridKind::Square);
    let en = rb.index(Cell::new(4, 5));
    rb.occupant[en] = 2;
    let dest = mover(&r, &rb, false, Gait::Walk, Mp::cells(3));
    let towards = adjacent(&rb, Cell::new(5, 5), Cell::new(4, 5));
    let e = dest
        .try_step(&rb, &Pose::new(Cell::new(5, 5), towards), Step::Forward)
        .unwrap_err();
    assert!(tag(&e).starts_with("R4:"), "{e}");
}

mod mounted {
    use crate::rules::charge::Line;
    use crate::rules::charge::ride::{ChargeRide, Facts, ride_all};
    use crate::rules::gait::Gait;
    use crate::rules::grid::{Cell, Dir, GridKind};
    use crate::rules::melee::ScriptedDice;
    use crate::rules::melee::cards::{HorseCard, MeleeCard, check_play, full_charge};
    use crate::rules::melee::fight::Fight;
    use crate::rules::melee::flow;
    use crate::rules::melee::tables::tables;
    use crate::rules::melee::testkit::{board, destrier, fight, figures, ix, melee, play};
    use crate::rules::movement::{Mover, MoverSpec, Pose};
    use crate::rules::mp::Mp;

    fn ride(f: &Fight, id: &str, target: &str, facing: Dir) -> ChargeRide {
        let rules = destrier();
        let allowance = Mp::cells(12);
        let k = ix(f, id);
        ChargeRide {
            rider: k,
            mount: ix(f, &format!("{id}.mount")),
            targets: vec![ix(f, target)],
            line: Line::Ahead,
            turns: vec![],
            gait: Gait::Gallop,
            allowance,
            mover: Mover::new(
                &rules,
                &f.board,
                MoverSpec {
                    side: f.fighters[k].side + 1,
                    mounted: true,
                    gait: Gait::Gallop,
                    basis: allowance,
                    crawling: false,
                    asl_gallop: false,
                    stops: vec![],
                },
            ),
            pose: Pose::new(f.fighters[k].cell, facing),
        }
    }

    /// Seed 004 (K2): "Charging shock cavalry count a +1 to their melee die rolls" — in a
    /// mutual charge both ride a charge, so both count it, not only the initiative winner.
    /// The ride also marks both as in a movement charge, C7's "Full Charge" row.
    #[test]
    fn k2_both_mutual_chargers_count_plus_one() {
        let rules = destrier();
        let mut f = fight(
            board(GridKind::Square, 24, 14),
            vec![
                figures(
                    &rules,
                    "a",
                    "knight_on_destrier",
                    0,
                    Cell::new(2, 5),
                    Dir(2),
                ),
                figures(
                    &rules,
                    "b",
                    "knight_on_charger",
                    1,
                    Cell::new(14, 5),
                    Dir(6),
                ),
            ],
            &[],
        );
        let rides = vec![ride(&f, "a", "b", Dir(2)), ride(&f, "b", "a", Dir(6))];
        let facts = Facts {
            answers: vec![None; f.fighters.len()],
            troops: f.fighters.iter().map(|x| x.troop).collect(),
        };
        let mut dice = ScriptedDice::new(&[], &[]);
        let (ev, _) = ride_all(&mut f, tables(), rides, &[(0, 1)], &facts, &mut dice);
        let text = ev
            .iter()
            .map(|e| e.text.clone())
            .collect::<Vec<_>>()
            .join("\n");
        for id in ["a", "b"] {
            assert!(
                text.contains(&format!("K2: {id} +10% (charging shock cavalry)")),
                "K2: {id}, a mutual charger, counts +1 (10%):\n{text}"
            );
            assert!(
                f.fighters[ix(&f, id)].state.rode_charge,
                "{id} rode a charge"
            );
        }
    }

    /// Seed 003 (C2): "If both are so armed, the attacks are simultaneous"; seed 004 (K2):
    /// "Charging shock cavalry count a +1 to their melee die rolls". Two knights on chargers
    /// (equal lances, equal mounts) strike together; when one lance kills or fells the other
    /// rider's horse, the other lance's blow is still struck as a charging lance, +10%: each
    /// blow counts its rider as he sat before either landed.
    #[test]
    fn k2_a_simultaneous_blow_counts_its_rider_as_mounted_before_either_landed() {
        /// A small seeded die (xorshift), so many rides can be tried.
        struct Rolling(u64);
        impl Rolling {
            fn next(&mut self, sides: u64) -> u32 {
                self.0 ^= self.0 << 13;
                self.0 ^= self.0 >> 7;
                self.0 ^= self.0 << 17;
                (self.0 % sides + 1) as u32
            }
        }
        impl crate::rules::melee::Dice for Rolling {
            fn d100(&mut self) -> u32 {
                self.next(100)
            }
            fn d6(&mut self) -> u32 {
                self.next(6)
            }
        }
        let rules = destrier();
        let mut unhorsed_first = 0;
        for seed in 1..=1000u64 {
            let mut f = fight(
                board(GridKind::Square, 24, 14),
                vec![
                    figures(&rules, "a", "knight_on_charger", 0, Cell::new(2, 5), Dir(2)),
                    figures(
                        &rules,
                        "b",
                        "knight_on_charger",
                        1,
                        Cell::new(14, 5),
                        Dir(6),
                    ),
                ],
                &[],
            );
            let rides = vec![ride(&f, "a", "b", Dir(2)), ride(&f, "b", "a", Dir(6))];
            let facts = Facts {
                answers: vec![None; f.fighters.len()],
                troops: f.fighters.iter().map(|x| x.troop).collect(),
            };
            let mut dice = Rolling(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
            let (ev, _) = ride_all(&mut f, tables(), rides, &[(0, 1)], &facts, &mut dice);
            let text: Vec<&str> = ev.iter().map(|e| e.text.as_str()).collect();
            let Some(together) = text
                .iter()
                .position(|l| l.starts_with("The blows are struck together"))
            else {
                continue;
            };
            if !f.fighters[ix(&f, "b")].mounted() {
                unhorsed_first += 1;
            }
            let after = text[together..].join("\n");
            for id in ["a", "b"] {
                assert!(
                    after.contains(&format!("K2: {id} +10% (charging shock cavalry)")),
                    "seed {seed}: {id}'s simultaneous blow is a charging lance's, +10%:\n{after}"
                );
            }
        }
        assert!(
            unhorsed_first > 0,
            "some ride unhorses b (its horse killed or thrown down)"
        );
    }

    /// Seed 003 (C7): "Trotting no modification · Cantering -10% · Gallop -20% · Full Charge
    /// -35%": both the gallop row and the full-charge row are reached in play — a steed that
    /// galloped (its rider plays CHARGE, C8) is the gallop row; one that rode a movement charge
    /// this turn is the full-charge row until a contact slows it.
    #[test]
    fn c7_gallop_and_full_charge_rows_both_reachable() {
        let rules = destrier();
        let mut f = fight(
            board(GridKind::Square, 12, 12),
            vec![
                figures(
                    &rules,
                    "s",
                    "sergeant_on_courser",
                    0,
                    Cell::new(5, 5),
                    Dir(2),
                ),
                figures(&rules, "b", "footman", 1, Cell::new(6, 5), Dir(6)),
            ],
            &[],
        );
        let (s, m) = (ix(&f, "s"), ix(&f, "s.mount"));
        f.fighters[m].gait = Gait::Gallop;
        f.fighters[s].gait = Gait::Gallop;
        f.fighters[s].state.tac = Some(crate::rules::melee::cards::TacCard::Charge);
        assert!(
            !full_charge(&f, s),
            "galloping and playing CHARGE: the gallop row"
        );
        assert_eq!(
            crate::rules::melee::tables::rider_speed_penalty(Gait::Gallop, full_charge(&f, s)),
            -20
        );
        f.fighters[m].state.rode_charge = true;
        assert!(
            full_charge(&f, s),
            "after a movement charge: the full-charge row"
        );
        assert_eq!(
            crate::rules::melee::tables::rider_speed_penalty(Gait::Gallop, full_charge(&f, s)),
            -35
        );
    }

    /// Seed 003 (C8): "During the course of the card segment, a horse under these constraints
    /// may not turn a total of more than allowed by the chart … when the degree of all turns
    /// taken during the MELEE phase is totalled together"; seed 004: "Cavalry may turn 45° per
    /// ¼ of their movement, or per ½ move at Gallop". A steed at speed may TURN with its MOVE
    /// once it has run far enough, and no more.
    #[test]
    fn c8_a_steed_at_speed_turns_within_seed_004s_rate() {
        let rules = destrier();
        let mut f = fight(
            board(GridKind::Square, 20, 20),
            vec![
                figures(
                    &rules,
                    "k",
                    "knight_on_charger",
                    0,
                    Cell::new(5, 10),
                    Dir(2),
                ),
                figures(&rules, "e", "footman", 1, Cell::new(6, 12), Dir(0)),
            ],
            &[],
        );
        let (k, m) = (ix(&f, "k"), ix(&f, "k.mount"));
        for i in [k, m] {
            f.fighters[i].gait = Gait::Canter;
        }
        f.fighters[m].move_basis = Mp::cells(8); // a quarter is 2 cells
        let t = tables();
        let turn = |facing| {
            melee(vec![
                MeleeCard::Horse(HorseCard::Move),
                MeleeCard::Horse(HorseCard::Turn { facing }),
            ])
        };
        // A charger's MOVE at a canter runs 1" (its card's 1" + 1/2", rounded down).
        let e = check_play(&f, m, &turn(Dir(4)), t, false).unwrap_err();
        assert!(e.to_string().starts_with("C8"), "{e}");
        // Having run 3 cells, this MOVE makes 4: two quarters, 90°.
        f.fighters[m].state.melee_moved = 3;
        assert!(check_play(&f, m, &turn(Dir(4)), t, false).is_ok());
        assert!(
            check_play(&f, m, &turn(Dir(6)), t, false).is_err(),
            "180° needs all four quarters"
        );
        // A TURN alone while it has blows: C8 still wants the MOVE.
        let alone = melee(vec![MeleeCard::Horse(HorseCard::Turn { facing: Dir(4) })]);
        assert!(check_play(&f, m, &alone, t, false).is_err());
        // Its side chooses when a turn is possible (else the MOVE is played for it).
        assert!(flow::forced(&f, t, m, false).is_none());
        let (text, ..) = play(&mut f, &[("k.mount", turn(Dir(4)))], &[], &[], &[]);
        assert_eq!(f.fighters[m].facing, Dir(4), "{text}");
        assert_eq!(f.fighters[k].facing, Dir(4), "the rider turns with it");
        assert_eq!(f.fighters[m].state.melee_turned, 90);
        assert_eq!(f.fighters[m].state.melee_moved, 4);
        // Another 90° needs 8 cells in all.
        assert!(check_play(&f, m, &turn(Dir(6)), t, false).is_err());
    }
}

/// Seed 003 (C8): "the horse may ONLY play MOVE cards" at canter or faster: a fast steed's
/// KICK is refused by C8 (not by a generic "no cards to choose").
#[test]
fn c8_a_fast_steeds_kick_names_c8() {
    use crate::rules::melee::cards::{MeleeCard, check_play};
    use crate::rules::melee::tables::tables;
    use crate::rules::melee::testkit::{board, destrier, fight, figures, ix, melee};
    let rules = destrier();
    let mut f = fight(
        board(GridKind::Square, 12, 12),
        vec![
            figures(&rules, "k", "knight_on_charger", 0, Cell::new(5, 5), Dir(2)),
            figures(&rules, "e", "footman", 1, Cell::new(6, 5), Dir(6)),
        ],
        &[],
    );
    let m = ix(&f, "k.mount");
    f.fighters[m].gait = Gait::Gallop;
    let kick = melee(vec![MeleeCard::Kick { target: "e".into() }]);
    let e = check_play(&f, m, &kick, tables(), false).unwrap_err();
    assert!(e.to_string().starts_with("C8"), "{e}");
}

/// Seed 003 (charges from behind): "Such rear attacks are made +25% for the attacker and -25%
/// for the defender's reply, if possible. (Note that a defender caught in such an unfortunate
/// position receives no +25% bonus to hit if the rider exposes his back to him as he passes by
/// in front.)"
#[test]
fn d12_a_reply_to_a_rear_attack_is_minus_25_and_never_plus_25() {
    use crate::rules::melee::attack::{Blow, Context, Guard, Strike, breakdown};
    use crate::rules::melee::tables::{seed, tables};
    use crate::rules::melee::testkit::{board, destrier, fight, figures, ix};
    let rules = destrier();
    // b stands behind a (a faces away from it): a blow by b at a is through a's rear.
    let f = fight(
        board(GridKind::Square, 12, 12),
        vec![
            figures(&rules, "a", "footman", 0, Cell::new(5, 5), Dir(2)),
            figures(&rules, "b", "footman", 1, Cell::new(4, 5), Dir(2)),
        ],
        &[],
    );
    let (a, b) = (ix(&f, "a"), ix(&f, "b"));
    let plain = |ctx: &Context| {
        breakdown(
            &f,
            tables(),
            b,
            a,
            &Strike::plain(Blow::Weapon),
            &Guard::default(),
            ctx,
        )
        .parts
    };
    let attack = plain(&Context::default());
    assert!(attack.contains(&("through the rear (D12)".into(), seed::REAR_ATTACK)));
    let reply = plain(&Context {
        reply_rear: true,
        ..Context::default()
    });
    assert!(reply.contains(&("reply to a rear attack (D12)".into(), seed::REAR_REPLY)));
    assert!(
        !reply
            .iter()
            .any(|p| p.1 == seed::REAR_ATTACK && p.0.contains("rear (D12)")),
        "a reply to a rear attack gets no +25% through its attacker's back: {reply:?}"
    );
}

/// Seed 003 (C5, D12): "Rear attacks are +25% to hit, and -25% for the defender's reply"; seed
/// 004 (K4): hits on a mounted figure fall on the horse on 1–4, the rider on 5–6. A rider
/// charged from behind whose horse took the rear blow still replies at −25%, and so does one
/// whose reply K4 sends to the charger's horse: rider and mount are one defender, one
/// attacker.
#[test]
fn c5_a_reply_to_a_rear_charge_aimed_at_the_horse_is_minus_25() {
    use crate::rules::melee::attack::{Blow, RoundFacts, Strike, strike};
    use crate::rules::melee::tables::{seed, tables};
    use crate::rules::melee::testkit::{board, destrier, fight, figures, ix};
    use crate::rules::melee::{Roller, ScriptedDice};
    let rules = destrier();
    let mut f = fight(
        board(GridKind::Square, 12, 12),
        vec![
            figures(
                &rules,
                "a",
                "knight_on_destrier",
                0,
                Cell::new(5, 5),
                Dir(2),
            ),
            figures(&rules, "b", "knight_on_charger", 1, Cell::new(4, 5), Dir(2)),
        ],
        &[],
    );
    let (a, am, b, bm) = (
        ix(&f, "a"),
        ix(&f, "a.mount"),
        ix(&f, "b"),
        ix(&f, "b.mount"),
    );
    // Each way K4 can fall: the rear blow on a's horse or on a; the reply at b's horse or b.
    for (struck, replied_at) in [(am, bm), (a, bm), (am, b), (a, b)] {
        let mut facts = RoundFacts::new(f.fighters.len());
        facts.rear.push((b, struck));
        let mut dice = ScriptedDice::new(&[99], &[6, 6, 6]);
        let mut r = Roller::new(&mut dice);
        let mut out = Vec::new();
        strike(
            &mut f,
            tables(),
            a,
            replied_at,
            Strike::plain(Blow::Weapon),
            "DELIVER BLOW",
            &mut facts,
            &mut r,
            &mut out,
        );
        let text = &out[0].text;
        assert!(
            text.contains(&format!(
                "reply to a rear attack (D12) {:+}",
                seed::REAR_REPLY
            )),
            "rear blow on {}, reply at {}: {text}",
            f.fighters[struck].id,
            f.fighters[replied_at].id
        );
    }
}

/// Seed 003 (D11, C5): "If the target is armed with a lance or pike, it may attack at 1"
/// range, if armed with a pole arm or flail, at 1/2" range". On the 1" grid a figure one
/// empty cell away is 1" off: a pike or lance reaches it, a pole arm or flail does not (nor
/// a figure over 10 ft tall, who attacks "as though armed with a pole arm"); all strike in
/// contact.
#[test]
fn d11_pole_arms_and_flails_reach_half_an_inch_pike_and_lance_one() {
    use crate::rules::melee::tables::tables;
    use crate::rules::melee::testkit::{board, destrier, fight, figures, ix};
    let rules = destrier();
    let mut f = fight(
        board(GridKind::Square, 12, 12),
        vec![
            figures(&rules, "a", "footman", 0, Cell::new(4, 5), Dir(2)),
            figures(&rules, "b", "footman", 1, Cell::new(6, 5), Dir(6)),
        ],
        &[],
    );
    let (a, b) = (ix(&f, "a"), ix(&f, "b"));
    let t = tables();
    for (weapon, reaches) in [
        ("halberd", false),
        ("flail", false),
        ("pike", true),
        ("lance", true),
    ] {
        f.fighters[a].weapon = weapon.into();
        let reach = f.fighters[a].reach(t);
        assert_eq!(
            f.can_strike(a, b, reach),
            reaches,
            "a {weapon} across one empty cell (1\")"
        );
    }
    f.fighters[a].weapon = "sword".into();
    f.fighters[a].profile.tall = true;
    assert!(
        !f.can_strike(a, b, f.fighters[a].reach(t)),
        "over 10 ft tall: a pole arm's 1/2\""
    );
    // In contact every weapon strikes.
    f.place(a, Cell::new(5, 5), Dir(2));
    for weapon in ["halberd", "flail", "pike", "sword"] {
        f.fighters[a].weapon = weapon.into();
        assert!(f.can_strike(a, b, f.fighters[a].reach(t)), "{weapon}");
    }
}

/// Seed 003 (D8): "If the figure that such a maneuver brings the attacking figure into contact
/// with is already involved in a melee with a third figure, then treat the meleeing figure as
/// having already played a STAND GROUND card as his TAC card." A figure that played KEEP
/// DISTANCE in the TAC phase and is joined mid-melee counts STAND GROUND in the TMM.
#[test]
fn d8_a_joined_figure_counts_stand_ground_whatever_it_played_before() {
    use crate::rules::melee::cards::TacCard;
    use crate::rules::melee::testkit::{board, destrier, fight, figures, ix, play, tac};
    let r = destrier();
    let mut h = fight(
        board(GridKind::Square, 20, 20),
        vec![
            figures(&r, "a", "footman", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(6, 5), Dir(6)),
            figures(&r, "c", "archer", 1, Cell::new(5, 8), Dir(0)),
        ],
        &[],
    );
    h.round = 2;
    let (a, c) = (ix(&h, "a"), ix(&h, "c"));
    h.fighters[c].enc = crate::rules::ruleset::Encumbrance::None;
    h.fighters[a].state.tac = Some(TacCard::KeepDistance);
    play(
        &mut h,
        &[("c", tac(TacCard::Fleche, Some("a"), vec![]))],
        &[],
        &[90, 90, 99, 99],
        &[],
    );
    assert!(h.in_contact(a, c));
    assert_eq!(h.fighters[a].state.tac, Some(TacCard::StandGround));
    assert_eq!(h.tac_of(a), Some(TacCard::StandGround));
}

/// Seed 003 has rules only some figures can play: "Any figure more than 10' tall is assumed
/// to attack with any weapon as though armed with a pole arm"; PULL RIDER "not possible from
/// the front and rear unless the figure attempting the grapple has a height in excess of 10
/// feet"; "A monster may not KICK a man on horseback unless the monster is more than 10 feet
/// tall"; agile beasts' free MOVE and DODGE; DRAW WEAPON with a slung shield. The `destrier`
/// ruleset has a template for each: a hill giant, a war hound and a man-at-arms whose shield
/// is slung.
#[test]
fn seed_003_every_figure_rule_has_a_template() {
    use crate::rules::melee::tables::{Kind, tables};
    use crate::rules::melee::testkit::{board, destrier, fight, figures, ix};
    let r = destrier();
    for key in ["hill_giant", "war_hound", "man_at_arms"] {
        assert!(r.templates.contains_key(key), "{key}");
    }
    let t = tables();
    assert!(t.fighter("hill_giant").tall);
    assert_eq!(t.fighter("war_hound").kind, Kind::AgileBeast);
    assert!(t.fighter("man_at_arms").shield_slung);
    let f = fight(
        board(GridKind::Square, 12, 12),
        vec![
            figures(&r, "g", "hill_giant", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "m", "man_at_arms", 1, Cell::new(6, 5), Dir(6)),
        ],
        &[],
    );
    assert!(f.fighters[ix(&f, "g")].profile.tall);
    assert!(
        f.fighters[ix(&f, "m")].state.shield_down,
        "the man-at-arms comes with his shield slung"
    );
}

/// Seed 003 (D7, D8): "Repeat steps #1 and #4 until all blows are exhausted", step #4 letting
/// figures not in contact "that might possibly come into contact" with a move of 3" in the
/// card rounds play a TAC card. Two footmen a bash has pushed apart, both with blows and two
/// cells between them, can close again: the melee goes on. Out of a 3" move of contact, or
/// out of blows, it ends.
#[test]
fn d7_card_rounds_go_on_until_blows_are_spent_while_figures_can_close() {
    use crate::rules::melee::flow::melee_on;
    use crate::rules::melee::tables::tables;
    // Two empty cells between (2"): a 3" move reaches contact.
    let mut f = apart(8);
    assert!(melee_on(&f, tables()), "2\" apart, both with blows");
    // Three empty cells (3"): still within a 3" move.
    assert!(melee_on(&apart(9), tables()));
    // Four (4"): out of reach of a join.
    assert!(!melee_on(&apart(10), tables()));
    // All blows exhausted: the rounds end.
    f.fighters[0].blows = 0;
    f.fighters[1].blows = 0;
    assert!(!melee_on(&f, tables()));
}

/// Two footmen of the `destrier` ruleset on a square grid, facing each other along a row,
/// `a` at x = 5 and `b` at `x`, in card round 3 of a melee phase.
fn apart(x: i32) -> crate::rules::melee::fight::Fight {
    use crate::rules::melee::flow::begin_phase;
    use crate::rules::melee::testkit::{board, destrier, fight, figures};
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 20, 20),
        vec![
            figures(&r, "a", "footman", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(x, 5), Dir(6)),
        ],
        &[],
    );
    begin_phase(&mut f);
    f.round = 3;
    f
}

/// Seed 003 (D7): "As long as a figure has blows remaining, he cannot play more than six
/// PASSIVE SHIELD PARRIES in a row." The seed sets no condition of reach: two footmen pushed
/// 2" apart that will not close again pass six rounds, then each must spend a blow (WEAPON
/// PARRY, the first card it may play), and so on until "all blows are exhausted" — the melee
/// ends after exactly seven card rounds per blow instead of running on while both keep
/// their blows (the reading that bound only a figure in reach never ended it).
#[test]
fn d7_six_passive_parries_in_a_row_bind_a_figure_out_of_reach() {
    use crate::rules::melee::cards::{MeleeCard, check_play};
    use crate::rules::melee::flow::{melee_on, pass_play};
    use crate::rules::melee::tables::{seed, tables};
    use crate::rules::melee::testkit::{melee, play};
    let t = tables();
    let mut f = apart(8);
    // The seventh PASSIVE SHIELD PARRY out of reach is refused under D7.
    f.fighters[0].state.psp_streak = seed::PSP_IN_A_ROW;
    let e = check_play(&f, 0, &melee(vec![MeleeCard::PassiveShieldParry]), t, false)
        .expect_err("a seventh PASSIVE SHIELD PARRY in a row");
    assert_eq!(e.tag, "D7", "{e}");
    // Both pass for as long as the melee goes on: it ends when their blows are spent.
    let mut f = apart(8);
    let blows = f.fighters[0].blows;
    assert_eq!(blows, f.fighters[1].blows);
    assert!(blows > 0);
    let mut rounds = 0u32;
    let mut plays = Vec::new();
    while melee_on(&f, t) {
        assert!(
            rounds < 200,
            "the melee of two figures that pass never ends"
        );
        let a = pass_play(&f, t, 0, false);
        let b = pass_play(&f, t, 1, false);
        plays.push(a.melee.clone());
        play(&mut f, &[("a", a), ("b", b)], &[], &[], &[]);
        rounds += 1;
    }
    assert_eq!(rounds, 7 * u32::from(blows), "{plays:?}");
    assert!(plays[..6].iter().all(|p| p.is_empty()), "{plays:?}");
    assert_eq!(plays[6], vec![MeleeCard::WeaponParry]);
    assert_eq!(f.fighters[0].blows, 0);
    assert_eq!(f.fighters[1].blows, 0);
}
