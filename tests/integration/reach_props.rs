//! Property tests of the reachable area (issue 2 §4): the Dijkstra search against the
//! brute-force oracle on small random boards, its paths replayed step by step through the
//! step rules, and its paths replayed as real `Move` orders in the simulation.

use proptest::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use warhorse::rules::board::{Board, Terrain};
use warhorse::rules::chance::RollFacts;
use warhorse::rules::gait::Gait;
use warhorse::rules::grid::{Cell, Dir, GridKind};
use warhorse::rules::movement::{Hand, Mover, MoverSpec, Pose, Step};
use warhorse::rules::mp::Mp;
use warhorse::rules::reach::{brute_force, reachable};
use warhorse::rules::ruleset::Ruleset;
use warhorse::sim::Game;
use warhorse::sim::order::Order;

/// The shipped rulesets, parsed the way the game embeds them.
fn ruleset(name: &str) -> Ruleset {
    let src = match name {
        "destrier" => include_str!("../../rulesets/destrier.ron"),
        "realms" => include_str!("../../rulesets/realms.ron"),
        "asl" => include_str!("../../rulesets/asl.ron"),
        _ => unreachable!("no ruleset {name}"),
    };
    ron::Options::default()
        .from_str::<Ruleset>(src)
        .unwrap_or_else(|e| panic!("rulesets/{name}.ron parses: {e}"))
}

/// Terrain ids of the random boards: costs 1, 2 and 3, one impassable type, and two D17
/// obstacles (impassable trees, a passable hedge) to squeeze between.
const IMPASSABLE: u8 = 3;

fn terrains() -> Vec<Terrain> {
    [
        ("open", Some(1), None),
        ("rough", Some(2), None),
        ("thicket", Some(3), None),
        ("rock", None, None),
        ("trees", None, Some(300)),
        ("hedge", Some(2), Some(120)),
    ]
    .into_iter()
    .map(|(name, cost, obstacle)| Terrain {
        name: name.into(),
        cost: cost.map(Mp::cells),
        mounted_cost: None,
        no_gallop: false,
        cover: false,
        blocks_sight: false,
        obstacle,
    })
    .collect()
}

/// How the random mover moves.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// Destrier foot (D14 turning costs).
    FootFacing,
    /// A mount (H3–H7) at a gait, from the `destrier` or the `realms` ruleset.
    Horse { gait: Gait, realms: bool },
    /// No facing costs: `realms` foot (optionally crawling, R3) or `asl`.
    Free { asl: bool, crawling: bool },
}

/// Everything a random case is made of, shrinkable by proptest.
#[derive(Clone, Debug)]
struct Scenario {
    grid: GridKind,
    width: i32,
    height: i32,
    terrain: Vec<u8>,
    /// 0 empty, 1 ally, 2 enemy (the mover is side code 1).
    occupant: Vec<u8>,
    stops: Vec<Cell>,
    start_is_stop: bool,
    kind: Kind,
    start: usize,
    facing: u8,
    diag: Option<Hand>,
    veers_used: u8,
    /// The mover's own cell shows it as an occupant, as in the simulation.
    start_occupied: bool,
    left: Mp,
    basis: Mp,
    /// D17/R4: the mover may roll (else chance steps are refused), its weight and Dexterity,
    /// hostiles' Dexterity (by cell index), and whether the ruleset allows contests.
    rolls: Option<(u32, u8, u8)>,
    contest: bool,
}

fn terrain_id() -> impl Strategy<Value = u8> {
    prop_oneof![
        10 => Just(0u8),
        4 => Just(1u8),
        3 => Just(2u8),
        3 => Just(IMPASSABLE),
        3 => Just(4u8),
        2 => Just(5u8),
    ]
}

fn occupant() -> impl Strategy<Value = u8> {
    prop_oneof![17 => Just(0u8), 2 => Just(1u8), 2 => Just(2u8)]
}

fn kind() -> impl Strategy<Value = Kind> {
    let gait = prop_oneof![Just(Gait::Walk), Just(Gait::Trot), Just(Gait::Gallop)];
    // Mounts weigh double: their state (heading, diagonal, veers) is the richest.
    prop_oneof![
        1 => Just(Kind::FootFacing),
        2 => (gait, any::<bool>()).prop_map(|(gait, realms)| Kind::Horse { gait, realms }),
        1 => (any::<bool>(), any::<bool>()).prop_map(|(asl, crawling)| Kind::Free { asl, crawling }),
    ]
}

/// Allowance left: 0..=5 cells, halves, and a few odd fractions.
fn allowance() -> impl Strategy<Value = Mp> {
    prop_oneof![
        (0..=5i64).prop_map(Mp::cells),
        (0..=11i64).prop_map(|n| Mp::ratio(n, 2).expect("halves are exact")),
        prop::sample::select(vec![(7, 2), (13, 4), (17, 5), (14, 3), (9, 8)])
            .prop_map(|(n, d)| Mp::ratio(n, d).expect("exact")),
    ]
}

/// The half-move allowance the D14 fractions are taken of (at least 4 cells, so that no
/// turn is cheaper than a cell and the exponential oracle stays small).
fn basis() -> impl Strategy<Value = Mp> {
    prop::sample::select(vec![
        (4, 1),
        (9, 2),
        (5, 1),
        (11, 2),
        (6, 1),
        (7, 1),
        (27, 4),
    ])
    .prop_map(|(n, d)| Mp::ratio(n, d).expect("exact"))
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (any::<bool>(), 3..=8i32, 3..=8i32)
        .prop_flat_map(|(hex, w, h)| {
            let n = (w * h) as usize;
            let grid = if hex { GridKind::Hex } else { GridKind::Square };
            (
                (
                    Just(grid),
                    Just(w),
                    Just(h),
                    prop::collection::vec(terrain_id(), n),
                    prop::collection::vec(occupant(), n),
                    prop::collection::vec((0..w, 0..h).prop_map(|(x, y)| Cell::new(x, y)), 0..=3),
                    prop::bool::weighted(0.15),
                ),
                (
                    kind(),
                    0..n,
                    any::<u8>(),
                    prop::option::of(prop_oneof![Just(Hand::Left), Just(Hand::Right)]),
                    0..=2u8,
                    any::<bool>(),
                    allowance(),
                    basis(),
                ),
                (
                    prop::option::of((0..400u32, 0..20u8, 0..20u8)),
                    any::<bool>(),
                ),
            )
        })
        .prop_map(
            |(
                (grid, width, height, terrain, occupant, stops, start_is_stop),
                (kind, start, facing, diag, veers_used, start_occupied, left, basis),
                (rolls, contest),
            )| Scenario {
                grid,
                width,
                height,
                terrain,
                occupant,
                stops,
                start_is_stop,
                kind,
                start,
                facing,
                diag,
                veers_used,
                start_occupied,
                left,
                basis,
                rolls,
                contest,
            },
        )
}

/// A built case: board, mover, start pose and allowance.
struct Built {
    board: Board,
    mover: Mover,
    start: Pose,
    left: Mp,
}

fn build(s: &Scenario) -> Built {
    let mut board = Board::new(s.grid, s.width, s.height, terrains());
    board.terrain.clone_from(&s.terrain);
    board.occupant.clone_from(&s.occupant);
    let cell = Cell::new(s.start as i32 % s.width, s.start as i32 / s.width);
    let i = board.index(cell);
    if board.terrain[i] == IMPASSABLE {
        board.terrain[i] = 0;
    }
    board.occupant[i] = if s.start_occupied { 1 } else { 0 };
    let (rules_name, mounted, gait, crawling) = match s.kind {
        Kind::FootFacing => ("destrier", false, Gait::Walk, false),
        Kind::Horse { gait, realms } => (
            if realms { "realms" } else { "destrier" },
            true,
            gait,
            false,
        ),
        Kind::Free { asl: true, .. } => ("asl", false, Gait::Walk, false),
        Kind::Free {
            asl: false,
            crawling,
        } => ("realms", false, Gait::Walk, crawling),
    };
    let mut rules = ruleset(rules_name);
    rules.grid = s.grid;
    rules.contest = s.contest;
    let mut stops = s.stops.clone();
    if s.start_is_stop {
        stops.push(cell);
    }
    let mover = Mover::new(
        &rules,
        &board,
        MoverSpec {
            side: 1,
            mounted,
            gait,
            basis: s.basis,
            crawling,
            asl_gallop: false,
            stops,
        },
    )
    // The mover's own start cell is priced as any empty cell (R4; issue 14).
    .with_home(cell);
    let mover = match s.rolls {
        None => mover,
        Some((weight, dex, foe_dex)) => {
            // Every hostile cell is contestable; Dexterity varies by cell.
            let foes = board
                .cells()
                .filter(|&c| board.occupant_at(c) == 2)
                .map(|c| (c, foe_dex.wrapping_add((c.x * 3 + c.y) as u8) % 20))
                .collect();
            mover.with_rolls(RollFacts::new(cell, weight, dex, foes))
        }
    };
    let horse = matches!(s.kind, Kind::Horse { .. });
    let facing = if horse {
        let headings: Vec<Dir> = s.grid.headings().collect();
        headings[s.facing as usize % headings.len()]
    } else {
        Dir(s.facing % s.grid.dirs())
    };
    let start = Pose {
        cell,
        facing,
        // Only a mount on squares stands diagonally after a veer (H6).
        diag: if horse && s.grid == GridKind::Square {
            s.diag
        } else {
            None
        },
        veers: if horse && gait == Gait::Gallop {
            s.veers_used
        } else {
            0
        },
        stopped: false,
        settled: false,
        origin: Some(facing),
    };
    Built {
        board,
        mover,
        start,
        left: s.left,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    /// (a) Dijkstra finds exactly the oracle's ends at exactly its costs; (b) every end's path
    /// replays through the step rules to that end at that cost.
    #[test]
    fn reach_matches_brute_force_and_paths_replay(s in scenario()) {
        let b = build(&s);
        let reach = reachable(&b.board, &b.mover, b.start, b.left);
        let ours: BTreeMap<(Cell, Dir), (bool, Mp)> =
            reach.ends().iter().map(|e| ((e.cell, e.facing), e.rank())).collect();
        prop_assert_eq!(ours.len(), reach.ends().len(), "duplicate ends");
        let oracle = brute_force(&b.board, &b.mover, b.start, b.left);
        prop_assert_eq!(&ours, &oracle);
        for end in reach.ends() {
            let path = reach.path(end);
            let mut pose = b.start;
            let mut spent = Mp::ZERO;
            let mut rolls = 0;
            for (i, &step) in path.iter().enumerate() {
                match b.mover.try_step_gamble(&b.board, &pose, step) {
                    Ok((p, c, gamble)) if c <= b.left - spent => {
                        // (c) A path through a chance step: it is the end's reported roll,
                        // and a failure stops where and at what cost the end says.
                        if let Some(g) = gamble {
                            rolls += 1;
                            let r = end.roll.expect("a path through a roll reports it");
                            let stop = pose.failed();
                            prop_assert_eq!(r.step as usize, i);
                            prop_assert_eq!(r.gamble, g);
                            prop_assert_eq!(r.chance, g.chance());
                            prop_assert_eq!((r.fail_cell, r.fail_facing), (stop.cell, stop.facing));
                            prop_assert_eq!(r.fail_cost, spent + g.fail_cost());
                            prop_assert!(r.fail_cost <= end.cost);
                        }
                        pose = p;
                        spent += c;
                    }
                    Ok((_, c, _)) => {
                        return Err(TestCaseError::fail(format!(
                            "end {end:?}: step {i} {step:?} of {path:?} costs {c}, too dear"
                        )));
                    }
                    Err(why) => {
                        return Err(TestCaseError::fail(format!(
                            "end {end:?}: step {i} {step:?} of {path:?} refused: {why}"
                        )));
                    }
                }
            }
            prop_assert_eq!(rolls, usize::from(end.roll.is_some()), "one roll per path");
            prop_assert_eq!(spent, end.cost, "path {:?} to {:?}", path, end);
            prop_assert_eq!((pose.cell, pose.facing), (end.cell, end.facing), "path {:?}", path);
        }
    }
}

/// Seed of every game in (c): the same seed gives the same initiative, so every fresh game
/// is the same position.
const SEED: u64 = 7;
/// Ends replayed per figure and gait.
const SAMPLE: usize = 30;

/// The levels of (c): the shipped levels and the ASL fixture. `levels/default.ron` must load;
/// another level that does not (it may be mid-edit) is reported and skipped — loading is
/// tested elsewhere.
fn levels() -> Vec<(PathBuf, warhorse::level::Level)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join("levels"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    paths.retain(|p| p.extension().is_some_and(|x| x == "ron"));
    paths.sort();
    paths.push(root.join("tests/fixtures/asl_examples.ron"));
    let mut out = Vec::new();
    for p in paths {
        match warhorse::level::load_level_file(&p) {
            Ok(level) => out.push((p, level)),
            Err(e) if p.ends_with("levels/default.ron") => panic!("{}: {e:?}", p.display()),
            Err(e) => eprintln!("reach_props: skipping {}: {e:?}", p.display()),
        }
    }
    assert!(!out.is_empty(), "no level to replay orders on");
    out
}

/// A fresh game with `prelude` applied, or `None` if the prelude is refused.
fn game(level: &warhorse::level::Level, prelude: &[Order]) -> Option<Game> {
    let mut g = Game::new(level, SEED);
    for o in prelude {
        g.order(o).ok()?;
    }
    Some(g)
}

/// The allowance left of the figure that pays for `id`'s moves (its mount, if it rides).
fn allowance_left(g: &mut Game, id: &str) -> Mp {
    let snap = g.snapshot();
    let rider = snap
        .figures
        .iter()
        .find(|f| f.id == id)
        .expect("figure in snapshot");
    let payer = rider.mounted_on.as_deref().unwrap_or(id);
    let f = snap
        .figures
        .iter()
        .find(|f| f.id == payer)
        .expect("mover in snapshot");
    f.allowance_left
        .parse()
        .expect("allowance_left is an exact amount")
}

/// (c) Paths of the reachable area, replayed as real `Move` orders in fresh games, are
/// accepted, cost exactly the end's cost and leave the figure at the end cell and facing.
#[test]
fn reach_paths_are_accepted_as_orders() {
    let mut replayed = 0;
    let mut rolled = 0;
    for (path, level) in levels() {
        let grid = level.rules.grid;
        let mut probe = Game::new(&level, SEED);
        let snap = probe.snapshot();
        let Some(side) = snap.to_move.clone() else {
            continue;
        };
        // Figures that take orders: foot figures and riders (not the mounts they ride).
        let units: Vec<(String, bool)> = snap
            .figures
            .iter()
            .filter(|f| f.side == side && f.carrying.is_none())
            .map(|f| (f.id.clone(), f.mounted_on.is_some()))
            .collect();
        for (id, mounted) in units {
            let mut preludes: Vec<Vec<Order>> = vec![vec![]];
            if mounted {
                for gait in [Gait::Trot, Gait::Gallop] {
                    preludes.push(vec![Order::SetGait {
                        unit: id.clone(),
                        gait,
                    }]);
                }
            }
            for prelude in preludes {
                let Some(mut g) = game(&level, &prelude) else {
                    continue;
                };
                let before = allowance_left(&mut g, &id);
                let world = g.world_for_tests_mut();
                let e = warhorse::sim::world::find_figure(world, &id).expect("figure exists");
                let (setup, reach) = warhorse::sim::motion::reach_of(world, e);
                if setup.blocked.is_some() {
                    continue;
                }
                let ends: Vec<_> = reach
                    .ends()
                    .iter()
                    .filter(|e| !reach.path(e).is_empty())
                    .copied()
                    .collect();
                let stride = ends.len().div_ceil(SAMPLE).max(1);
                for end in ends.iter().step_by(stride) {
                    let steps: Vec<Step> = reach.path(end);
                    let mut g = game(&level, &prelude).expect("the prelude was accepted before");
                    let order = Order::Move {
                        unit: id.clone(),
                        steps: steps.clone(),
                    };
                    if let Err(why) = g.order(&order) {
                        panic!("{}: {order} to {end:?} refused: {why}", path.display());
                    }
                    let after = allowance_left(&mut g, &id);
                    let snap = g.snapshot();
                    let f = snap.figures.iter().find(|f| f.id == id).expect("figure");
                    // An end behind a roll (D17, R4): the order is accepted either way; a
                    // failed roll stops the figure where and at what cost the end says.
                    let stopped = end.roll.filter(|r| {
                        f.cell == [r.fail_cell.x, r.fail_cell.y] && before - after == r.fail_cost
                    });
                    let (cost, cell, facing) = match stopped {
                        Some(r) => (r.fail_cost, r.fail_cell, r.fail_facing),
                        None => (end.cost, end.cell, end.facing),
                    };
                    assert_eq!(
                        before - after,
                        cost,
                        "{}: {order} should cost {cost}",
                        path.display(),
                    );
                    assert_eq!(
                        (f.cell, f.facing.as_str()),
                        ([cell.x, cell.y], grid.dir_name(facing)),
                        "{}: {order}",
                        path.display()
                    );
                    if end.roll.is_some() {
                        assert!(!g.can_undo(), "undo stops at the roll");
                        rolled += 1;
                    }
                    replayed += 1;
                }
            }
        }
    }
    assert!(replayed > 0, "no path was replayed");
    assert!(
        rolled > 0,
        "no path through a roll was replayed (levels/realms_hedgerow.ron)"
    );
    eprintln!("reach_props: {replayed} reach paths replayed as orders");
}
