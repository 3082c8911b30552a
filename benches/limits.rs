//! What the documented limits cost (issue 15, item 3): a level at every limit (512 × 512 cells,
//! 4096 figures, the smallest legal terrain cost; `benches/common/limits.rs`) must play, reach
//! and replay within the bounds `docs/performance.md` states.
//!
//! - `limits_replay`: `Game::from_record` of 100 000 accepted orders (`EndSide`) on the
//!   default level, and of the level at the limits with its first AI side-turn
//!   (loading the level, 4096 figures spawned, and every order of the side-turn).
//! - `limits_ai_side_turn`: Red's first side-turn on the level at the limits, table level:
//!   1024 footmen in contact and 1024 spread out, every order applied through `Game::order`.
//! - `limits_reach`: a galloping knight's whole-turn reachable area starting on the road of
//!   the finest cost, and on open ground nearby; before timing, the bench prints the cells in
//!   reach and the **peak bytes** the search allocates (a counting global allocator), which
//!   must be bounded by the cells in reach, not by the cost's fineness.
//!
//! Run with `cargo bench --bench limits`; `LIMITS_PROBE=1 cargo bench --bench limits` instead
//! times each case once with a clock and prints it (for profiling, no criterion).

// criterion_group! and criterion_main! define public functions without doc comments.
#![allow(missing_docs)]

use criterion::{BatchSize, Criterion, black_box, criterion_group};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use warhorse::ai::{AiLevel, next_order, play_side_turn, set_level, side_to_act};
use warhorse::level::{Level, MAX_FIGURES, default_level};
use warhorse::rules::gait::Gait;
use warhorse::rules::grid::Cell;
use warhorse::rules::movement::{Mover, MoverSpec, Pose};
use warhorse::rules::mp::Mp;
use warhorse::rules::reach::{ReachScratch, reachable_with};
use warhorse::sim::Game;
use warhorse::sim::order::{Order, Refusal};
use warhorse::sim::phase::Phase;
use warhorse::sim::record::Record;

#[path = "common/splitmix.rs"]
mod splitmix;

#[path = "common/level_text.rs"]
mod level_text;

#[path = "common/digest.rs"]
mod digest;
use digest::orders_digest;

#[path = "common/limits.rs"]
mod limits;
use limits::{ROAD_ROW, contact_level, limits_level};

/// The global allocator, counting the bytes live and the most live since the last reset.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(l.size(), Ordering::Relaxed) + l.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
        // SAFETY: `p` came from `alloc` with this layout.
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Peak bytes allocated above what was live when `f` started, and `f`'s result.
fn peak_bytes<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let out = f();
    (PEAK.load(Ordering::Relaxed) - base, out)
}

/// Orders replayed by the long replay case.
const REPLAY_ORDERS: usize = 100_000;

/// `level` without its turn limit. A battle lasts at most 1000 turns (issue 12), about 8000
/// `EndSide`; the long replay needs 100 000 orders, so it plays a copy whose judge never calls
/// time, and replays it as `Game::from_record` does (a new game, then every order) without
/// re-reading the level's text.
fn endless(level: &Level) -> Level {
    let mut l = level.clone();
    l.victory.turns = u32::MAX;
    l
}

/// The orders of `level` with `n` `EndSide` (every one accepted: nobody is in contact).
fn end_sides(level: &Level, n: usize) -> Vec<Order> {
    let mut g = Game::new(level, 7);
    for i in 0..n {
        g.order(&Order::EndSide)
            .unwrap_or_else(|r| panic!("EndSide {i} refused: {r}"));
    }
    g.record().orders.clone()
}

/// Replays `orders` on a new game of `level`: `Game::from_record`'s work after the parse.
fn replay_orders(level: &Level, orders: &[Order]) -> Game {
    let mut g = Game::new(level, 7);
    for o in orders {
        g.order(o).expect("replays");
    }
    g
}

/// The record of `level` after its first AI side-turn (table level): every order the AI gave
/// and the rules accepted. (A whole AI turn at the limits is not measured: its melee of 1024
/// pairs gives about 47 000 card orders and takes minutes, see docs/performance.md.)
fn one_side_turn(level: &Level) -> Record {
    let (mut g, side) = at_half_move(level);
    let played = play_side_turn(&mut g, side, AiLevel::Table);
    assert!(
        played.iter().all(|(_, r)| r.is_ok()),
        "an order was refused"
    );
    g.record().clone()
}

/// A game of `level` at its first half-move (charge declarations, if any, made by the AI),
/// and the side to move.
fn at_half_move(level: &Level) -> (Game, u8) {
    let mut g = Game::new(level, 7);
    for s in 0..2 {
        set_level(&mut g, s, AiLevel::Table);
    }
    for _ in 0..MAX_FIGURES * 4 {
        let Some(side) = side_to_act(&mut g) else {
            break;
        };
        if g.phase() == Phase::FirstHalfMove {
            return (g, side);
        }
        let o = next_order(&mut g, side).unwrap_or(Order::EndSide);
        let _ = g.order(&o);
    }
    panic!("no half-move reached");
}

/// A galloping knight (Destrier, whole turn: 27 cells) at `cell`, facing east, on `level`.
fn reach_case(level: &Level, cell: Cell) -> (Mover, Pose, Mp) {
    let left = Mp::cells(27);
    let mover = Mover::new(
        &level.rules,
        &level.board,
        MoverSpec {
            side: 1,
            mounted: true,
            gait: Gait::Gallop,
            basis: left,
            crawling: false,
            asl_gallop: false,
            stops: Vec::new(),
        },
    );
    let east = level.rules.grid.parse_dir("E").expect("east exists");
    (mover, Pose::new(cell, east), left)
}

/// The reach cases: on the finest-cost road, and on the ordinary ground 40 rows south.
fn reach_cells() -> [(&'static str, Cell); 2] {
    [
        ("road-finest", Cell::new(300, ROAD_ROW as i32)),
        ("open-ground", Cell::new(300, ROAD_ROW as i32 + 40)),
    ]
}

fn replay(c: &mut Criterion) {
    let mut group = c.benchmark_group("limits_replay");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    let default = endless(&default_level().expect("default level"));
    let orders = end_sides(&default, REPLAY_ORDERS);
    group.bench_function("default-100000-EndSide", |b| {
        b.iter(|| replay_orders(&default, black_box(&orders)))
    });
    let rec = one_side_turn(&limits_level(15));
    eprintln!(
        "one AI side-turn at the limits: {} orders",
        rec.orders.len()
    );
    group.bench_function("limits-one-ai-side-turn", |b| {
        b.iter(|| Game::from_record(black_box(&rec)).expect("replays"))
    });
    group.finish();
}

fn side_turn(c: &mut Criterion) {
    let mut group = c.benchmark_group("limits_ai_side_turn");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    let level = limits_level(15);
    group.bench_function("table-4096", |b| {
        b.iter_batched(
            || at_half_move(&level),
            |(mut g, side)| play_side_turn(&mut g, side, AiLevel::Table),
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

/// Figures of the contact-turn cases: the limit, and smaller battles so the growth shows.
const CONTACT_SIZES: [usize; 3] = [512, 1024, MAX_FIGURES];

/// A new game of `level` with both sides played by the table computer.
fn table_game(level: &Level) -> Game {
    let mut g = Game::new(level, 7);
    for s in 0..2 {
        set_level(&mut g, s, AiLevel::Table);
    }
    g
}

/// Plays `g`'s current turn to its end (both sides, every phase, the melee's cards included)
/// with the computer's orders through `Game::order`; returns the orders given, refused ones
/// included.
fn play_turn(g: &mut Game) -> Vec<(Order, Result<(), Refusal>)> {
    let turn = g.turn_state().turn;
    let mut played = Vec::new();
    // Melee rounds ask every engaged figure each round: the bound only guards against a hang.
    for _ in 0..MAX_FIGURES * 200 {
        if g.turn_state().turn != turn || g.outcome().is_some() {
            return played;
        }
        let Some(side) = side_to_act(g) else {
            panic!("the game stopped waiting for orders in the {:?}", g.phase());
        };
        let o = next_order(g, side).unwrap_or(Order::EndSide);
        let r = g.order(&o);
        played.push((o, r));
    }
    panic!("the turn did not end");
}

fn contact_turn(c: &mut Criterion) {
    let mut group = c.benchmark_group("limits_contact_turn");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    for n in CONTACT_SIZES {
        let level = contact_level(15, n);
        group.bench_function(format!("table-{n}"), |b| {
            b.iter_batched(
                || table_game(&level),
                |mut g| play_turn(&mut g),
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

fn reach(c: &mut Criterion) {
    let mut group = c.benchmark_group("limits_reach");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    let level = limits_level(15);
    for (name, cell) in reach_cells() {
        let (mover, start, left) = reach_case(&level, cell);
        let (bytes, r) = peak_bytes(|| {
            reachable_with(&mut ReachScratch::new(), &level.board, &mover, start, left)
        });
        let cells = r.cells().len();
        eprintln!(
            "reach {name}: {cells} cells in reach, {bytes} bytes peak ({} per cell)",
            bytes / cells.max(1)
        );
        let mut scratch = ReachScratch::new();
        group.bench_function(name, |b| {
            b.iter(|| reachable_with(&mut scratch, &level.board, &mover, black_box(start), left))
        });
    }
    group.finish();
}

/// `LIMITS_PROBE=1`: each case once, timed with a clock, for profiling without criterion
/// (`reach`, `side` or `replay` for one of them; `ends` for the 100 000 `EndSide` alone).
fn probe() -> bool {
    let Ok(what) = std::env::var("LIMITS_PROBE") else {
        return false;
    };
    let all = what == "1" || what == "all";
    let t = Instant::now();
    let level = limits_level(15);
    eprintln!("level at the limits loaded in {:?}", t.elapsed());
    if all || what.contains("reach") {
        for (name, cell) in reach_cells() {
            let (mover, start, left) = reach_case(&level, cell);
            let t = Instant::now();
            let (bytes, r) = peak_bytes(|| {
                reachable_with(&mut ReachScratch::new(), &level.board, &mover, start, left)
            });
            eprintln!(
                "reach {name}: {} cells, {bytes} bytes peak, {:?}",
                r.cells().len(),
                t.elapsed()
            );
        }
    }
    if all || what.contains("side") {
        let (mut g, side) = at_half_move(&level);
        let t = Instant::now();
        let played = play_side_turn(&mut g, side, AiLevel::Table);
        let took = t.elapsed();
        let (refused, digest) = orders_digest(&played);
        eprintln!(
            "side-turn: {} orders, {refused} refused, digest {:016x}, {took:?}",
            played.len(),
            digest
        );
    }
    // `LIMITS_PROBE=contact`: one whole turn with everyone in contact, at each size
    // (`LIMITS_CONTACT=N` for one size only).
    if all || what.contains("contact") {
        let sizes: Vec<usize> = match std::env::var("LIMITS_CONTACT") {
            Ok(v) => vec![v.parse().expect("a number of figures")],
            Err(_) => CONTACT_SIZES.to_vec(),
        };
        for n in sizes {
            let mut g = table_game(&contact_level(15, n));
            let t = Instant::now();
            let played = contact_turn_probe(&mut g);
            let took = t.elapsed();
            let (refused, digest) = orders_digest(&played);
            eprintln!(
                "contact turn at {n}: {} orders, {refused} refused, digest {digest:016x}, {took:?}",
                played.len()
            );
        }
    }
    if all || what.contains("replay") || what.contains("ends") {
        // `LIMITS_ENDS=N`: another count, for instruction counts under valgrind.
        let n = std::env::var("LIMITS_ENDS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(REPLAY_ORDERS);
        let default = endless(&default_level().expect("default level"));
        let orders = end_sides(&default, n);
        let t = Instant::now();
        replay_orders(&default, &orders);
        eprintln!("replay of {n} EndSide: {:?}", t.elapsed());
    }
    if all || what.contains("replay") {
        let rec = one_side_turn(&level);
        let t = Instant::now();
        Game::from_record(&rec).expect("replays");
        eprintln!(
            "replay of one AI side-turn at the limits ({} orders): {:?}",
            rec.orders.len(),
            t.elapsed()
        );
    }
    true
}

/// The probe's turn, in a function of its own so callgrind can count it
/// (`--toggle-collect='limits::contact_turn_probe'`).
#[inline(never)]
fn contact_turn_probe(g: &mut Game) -> Vec<(Order, Result<(), Refusal>)> {
    play_turn(g)
}

criterion_group!(benches, reach, side_turn, replay, contact_turn);

fn main() {
    if probe() {
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
