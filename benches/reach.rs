//! Reachable-area benchmark (issue 2): `warhorse::rules::reach::reachable` against the
//! `pathfinding` crate's Dijkstra over the very same state graph.
//!
//! The map is a fixed 128×128 mix of open (cost 1), rough (2) and woods (3) with about 5 %
//! impassable cells, drawn from a seeded SplitMix64 so every run measures the same thing. The
//! movers are a galloping Courser (no veers used yet) and a walking Destrier of the `destrier`
//! ruleset, on its squares and on hexes (the same ruleset with `grid` switched to `Hex`, so the
//! allowances are identical), each with a half-move allowance (27/2 and 7/2, D4) and with a
//! whole-turn allowance (27 and 7).
//!
//! The `pathfinding` side searches nodes = [`Pose`] with successors = every
//! [`Mover::candidate_steps`] step accepted by [`Mover::try_step_quiet`] (the same call our
//! search makes, so neither side pays for refusal texts), costs in raw [`Mp`] units.
//! Its successor function cannot see the node's cost, so the allowance is applied as the
//! iteration cut-off (`take_while(total_cost <= left)`, exact because costs are non-negative)
//! and single steps dearer than the whole allowance are dropped. Before timing, each case
//! asserts that both searches find the same cells at the same cheapest costs.
//!
//! Run with `cargo bench --bench reach`.

// criterion_group! and criterion_main! define public functions without doc comments.
#![allow(missing_docs)]

use criterion::{BenchmarkId, Criterion, black_box, criterion_group, criterion_main};
use pathfinding::directed::dijkstra::{DijkstraReachableItem, dijkstra_reach};
use std::collections::BTreeMap;
use std::time::Duration;
use warhorse::rules::board::{Board, Terrain};
use warhorse::rules::gait::Gait;
use warhorse::rules::grid::{Cell, GridKind};
use warhorse::rules::movement::{Mover, MoverSpec, Pose};
use warhorse::rules::mp::Mp;
use warhorse::rules::reach::reachable;
use warhorse::rules::ruleset::Ruleset;

/// Side of the square map.
const SIZE: i32 = 128;

#[path = "common/splitmix.rs"]
mod splitmix;
use splitmix::SplitMix;

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

/// The fixed mixed-terrain map: about 60 % open, 20 % rough, 15 % woods, 5 % impassable,
/// nobody on it; the start cell is open.
fn board(grid: GridKind, start: Cell) -> Board {
    let terrains = vec![
        terrain("open", Some(1)),
        terrain("rough", Some(2)),
        terrain("woods", Some(3)),
        terrain("rock", None),
    ];
    let mut b = Board::new(grid, SIZE, SIZE, terrains);
    let mut rng = SplitMix(0x5EED_2024);
    for t in b.terrain.iter_mut() {
        *t = match rng.next() % 100 {
            0..60 => 0,
            60..80 => 1,
            80..95 => 2,
            _ => 3,
        };
    }
    let i = b.index(start);
    b.terrain[i] = 0;
    b
}

fn destrier_rules(grid: GridKind) -> Ruleset {
    let mut rules: Ruleset = ron::Options::default()
        .from_str(include_str!("../rulesets/destrier.ron"))
        .expect("the shipped destrier ruleset parses");
    rules.grid = grid;
    rules
}

/// One benchmark case.
struct Case {
    name: String,
    board: Board,
    mover: Mover,
    start: Pose,
    left: Mp,
}

fn cases() -> Vec<Case> {
    let start_cell = Cell::new(SIZE / 2, SIZE / 2);
    let mut out = Vec::new();
    for grid in [GridKind::Square, GridKind::Hex] {
        let rules = destrier_rules(grid);
        let board = board(grid, start_cell);
        // Heading east on both grids.
        let east = grid.parse_dir("E").expect("east exists on both grids");
        for (horse, gait, walk) in [("courser", Gait::Gallop, 9), ("destrier", Gait::Walk, 7)] {
            let mult = if gait == Gait::Gallop { 3 } else { 1 };
            let turn = Mp::cells(walk * mult);
            let half = turn.mul_ratio(1, 2);
            for (span, left) in [("half", half), ("turn", turn)] {
                let mover = Mover::new(
                    &rules,
                    &board,
                    MoverSpec {
                        side: 1,
                        mounted: true,
                        gait,
                        basis: left,
                        crawling: false,
                        asl_gallop: false,
                        stops: Vec::new(),
                    },
                );
                let grid_name = if grid == GridKind::Square {
                    "square"
                } else {
                    "hex"
                };
                out.push(Case {
                    name: format!("{grid_name}-{horse}-{gait}-{span}"),
                    board: board.clone(),
                    mover,
                    start: Pose::new(start_cell, east),
                    left,
                });
            }
        }
    }
    out
}

/// `pathfinding`'s Dijkstra over the same graph as [`reachable`]: every reached pose with
/// its parent and cheapest raw cost, in cost order.
fn pathfinding_reach(case: &Case) -> Vec<DijkstraReachableItem<Pose, i64>> {
    let steps = case.mover.candidate_steps();
    let left = case.left.raw();
    let (board, mover) = (&case.board, &case.mover);
    dijkstra_reach(&case.start, |p: &Pose| {
        steps
            .iter()
            .filter_map(|&s| mover.try_step_quiet(board, p, s).ok())
            .map(|(n, c)| (n, c.raw()))
            .filter(|&(_, c)| c <= left)
            .collect::<Vec<_>>()
    })
    .take_while(|it| it.total_cost <= left)
    .collect()
}

/// Cheapest cost per cell from `reachable`.
fn ours_cells(case: &Case) -> BTreeMap<Cell, i64> {
    reachable(&case.board, &case.mover, case.start, case.left)
        .cells()
        .iter()
        .map(|e| (e.cell, e.cost.raw()))
        .collect()
}

/// Cheapest cost per cell from `pathfinding` (the map is empty, so every cell is an end).
fn theirs_cells(case: &Case) -> BTreeMap<Cell, i64> {
    let mut out = BTreeMap::new();
    for it in pathfinding_reach(case) {
        let e = out.entry(it.node.cell).or_insert(i64::MAX);
        *e = (*e).min(it.total_cost);
    }
    out
}

fn bench_reach(c: &mut Criterion) {
    let mut group = c.benchmark_group("reach");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for case in cases() {
        // Both compute the same thing (checked once, outside the timed loops).
        let ours = ours_cells(&case);
        let theirs = theirs_cells(&case);
        assert_eq!(
            ours, theirs,
            "{}: warhorse and pathfinding disagree",
            case.name
        );
        eprintln!(
            "{} (allowance {}): {} cells reachable, {} poses settled",
            case.name,
            case.left,
            ours.len(),
            pathfinding_reach(&case).len()
        );
        group.bench_with_input(BenchmarkId::new("warhorse", &case.name), &case, |b, k| {
            b.iter(|| reachable(&k.board, &k.mover, black_box(k.start), black_box(k.left)))
        });
        group.bench_with_input(
            BenchmarkId::new("pathfinding", &case.name),
            &case,
            |b, k| b.iter(|| pathfinding_reach(black_box(k))),
        );
    }
    group.finish();
}

criterion_group!(benches, bench_reach);
criterion_main!(benches);
