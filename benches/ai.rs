//! AI benchmarks (issue 6): one AI side-turn with 40 and with 200 figures on a 128×128 map,
//! one AI turn of both sides on the default level (issue 13), and whole 20-turn
//! AI-against-AI games of the default level.
//!
//! The 128×128 map is drawn from a seeded SplitMix64, so every run measures the same board:
//! about 80 % open, 8 % woods (cover, blocks sight), 6 % hedges (cover), 6 % rough ground
//! (cost 2). The armies are half the figures each, in units of five (two units in five are
//! horse: knights, sergeants, horse archers; the rest foot: footmen, archers, levies), drawn
//! up twenty rows apart in the middle of the map.
//!
//! A *side-turn* is everything one AI side does in one half-move: each unit's risk factor and
//! actions-table roll (when it is the first half-move of the turn), then each figure's gait
//! and move — reachable areas, distance fields, the choice — each applied through
//! `Game::order`, so the rules' validation and the simulation's frames are timed too, and
//! finally its `EndSide`. It is measured in turn 3, after two AI-against-AI turns (played in
//! the untimed setup), when units are advancing, retiring and taking cover.
//!
//! Run with `cargo bench --bench ai`.

// criterion_group! and criterion_main! define public functions without doc comments.
#![allow(missing_docs)]

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group};
use std::time::Duration;
use warhorse::ai::{AiLevel, bout, next_order, play_side_turn, set_level};
use warhorse::level::{Level, default_level, load_level_str};
use warhorse::sim::Game;
use warhorse::sim::order::{Order, Refusal};
use warhorse::sim::phase::Phase;
use warhorse::sim::record::Record;

/// Side of the square map.
const SIZE: usize = 128;

#[path = "common/splitmix.rs"]
mod splitmix;

#[path = "common/level_text.rs"]
mod level_text;
use level_text::{Unit, level_text, random_rows};

#[path = "common/digest.rs"]
mod digest;
use digest::orders_digest;
use splitmix::SplitMix;

/// A 128×128 `destrier` level with `figures` figures, half a side.
fn big_level(figures: usize) -> Level {
    let mut rng = SplitMix(0xA1_2026);
    let mut rows = random_rows(SIZE, || rng.next(), [80, 88, 94]);
    let horse = [
        "knight_on_destrier",
        "sergeant_on_courser",
        "horse_archer_on_rouncy",
    ];
    let foot = ["footman", "archer", "raw_levy"];
    let mut units = Vec::new();
    for (side, name, y0, facing) in [(0, "Red", 50usize, "S"), (1, "Blue", 72usize, "N")] {
        let n = figures / 2;
        let per_row = 40;
        let x0 = (SIZE - per_row * 2) / 2;
        for u in 0..n.div_ceil(5) {
            let mounted = u % 5 < 2;
            let mut members = Vec::new();
            for k in 0..5 {
                let i = u * 5 + k;
                if i >= n {
                    break;
                }
                let (x, y) = (x0 + (i % per_row) * 2, y0 + (i / per_row) * 2 + side);
                rows[y][x] = '.';
                let template = if mounted {
                    horse[u % 3]
                } else {
                    foot[(u + k) % 3]
                };
                let id = format!("{}_{i}", name.to_lowercase());
                members.push((id, template.to_string(), x, y));
            }
            units.push(Unit {
                name: format!("{name} {u}"),
                side: name,
                facing,
                members,
            });
        }
    }
    let text = level_text(
        &format!("AI bench {figures}"),
        &rows,
        "",
        r#"surprised: Some("Blue"),"#,
        &units,
    );
    load_level_str(&text, "<bench>", None).expect("the bench level loads")
}

/// A game of `level` at the start of Red's first half-move of turn 3 (two AI turns played).
fn at_turn_three(level: &Level, ai: AiLevel) -> Game {
    let mut g = Game::new(level, 7);
    set_level(&mut g, 0, ai);
    set_level(&mut g, 1, AiLevel::Table);
    for _ in 0..100_000 {
        let turn = g.turn_state().turn;
        let red_moves =
            g.phase() == Phase::FirstHalfMove && g.turn_state().side_to_move() == Some(0);
        if turn >= 3 && red_moves {
            break;
        }
        let Some(side) = warhorse::ai::side_to_act(&mut g) else {
            break;
        };
        let o = next_order(&mut g, side).unwrap_or(Order::EndSide);
        let _ = g.order(&o);
    }
    g
}

/// `g` with the game each computer side of `sides` plays from brought up to date
/// (`Game::known_to`), as it is in a game played from its start: a game rebuilt from its
/// record builds them at the first order the computer is asked for, once, which is not a
/// turn's work.
fn up_to_date(mut g: Game, sides: &[u8]) -> Game {
    for &s in sides {
        g.known_to(s, warhorse::ai::brain::carry_thoughts);
    }
    g
}

/// What the side-turn bench times: Red's side-turn at `ai`, and dropping the game after it
/// (criterion drops the routine's input inside the timing). Not inlined, so the
/// instruction-count harness can count exactly this function.
#[inline(never)]
fn timed_side_turn(mut g: Game, ai: AiLevel) -> Vec<(Order, Result<(), Refusal>)> {
    play_side_turn(&mut g, 0, ai)
}

fn side_turn(c: &mut Criterion) {
    let mut group = c.benchmark_group("ai_side_turn");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(10));
    for n in [40usize, 200] {
        let level = big_level(n);
        // The strongest level plays copies of the whole battle forward: on these levels each
        // of its turns takes seconds, so it is timed on the default level (`ai_turn`).
        for ai in AiLevel::ALL
            .into_iter()
            .filter(|&a| a != AiLevel::Foresight)
        {
            let start = at_turn_three(&level, ai);
            let record = start.record().clone();
            // Sanity: the side-turn is legal and does something.
            let mut probe = Game::from_record(&record).expect("replays");
            set_level(&mut probe, 1, AiLevel::Table);
            let played = play_side_turn(&mut probe, 0, ai);
            assert!(played.iter().all(|(_, r)| r.is_ok()), "refused: {played:?}");
            group.bench_with_input(BenchmarkId::new(ai.name(), n), &record, |b, rec| {
                b.iter_batched(
                    || up_to_date(Game::from_record(rec).expect("replays"), &[0]),
                    |g| timed_side_turn(g, ai),
                    BatchSize::LargeInput,
                )
            });
        }
    }
    group.finish();
}

fn whole_game(c: &mut Criterion) {
    let level = default_level().expect("default level");
    let mut group = c.benchmark_group("ai_game_default_20_turns");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(10));
    for pair in [
        [AiLevel::Table, AiLevel::Table],
        [AiLevel::Lookahead, AiLevel::Table],
    ] {
        let name = format!("{}-vs-{}", pair[0], pair[1]);
        let mut seed = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                bout::play(&level, seed % 16, 20, &pair)
            })
        });
    }
    group.finish();
}

/// Instruction-count harness: with `AI_BENCH_COUNT=N` (40 or 200) set, and optionally
/// `AI_BENCH_LEVEL` (`table` or `lookahead`, default `table`) and `AI_BENCH_REPS` (default 3),
/// the bench plays that side-turn `AI_BENCH_REPS` times and prints the orders, instead of
/// running criterion. Run it under `valgrind --tool=callgrind
/// --toggle-collect='ai::timed_side_turn*'` to count the instructions of what
/// the bench times (setup and replay excluded): load on the machine does not change them.
fn count_mode() -> bool {
    let Some(n) = std::env::var("AI_BENCH_COUNT")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
    else {
        return false;
    };
    let ai = std::env::var("AI_BENCH_LEVEL")
        .ok()
        .and_then(|s| AiLevel::parse(&s))
        .unwrap_or(AiLevel::Table);
    let reps: usize = std::env::var("AI_BENCH_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let record = at_turn_three(&big_level(n), ai).record().clone();
    for _ in 0..reps {
        let g = Game::from_record(&record).expect("replays");
        let played = timed_side_turn(g, ai);
        let (refused, digest) = orders_digest(&played);
        println!(
            "{} {n}: {} orders, {refused} refused, digest {:016x}",
            ai.name(),
            played.len(),
            digest
        );
    }
    true
}

/// The record of a game of `level` played by `pair` from `seed` up to the first order of
/// turn `turn`, or `None` when the battle is over by then.
fn record_at_turn(level: &Level, pair: [AiLevel; 2], seed: u64, turn: u32) -> Option<Record> {
    let mut g = Game::new(level, seed);
    for (s, &l) in pair.iter().enumerate() {
        set_level(&mut g, s as u8, l);
    }
    for _ in 0..100_000 {
        if g.turn_state().turn >= turn {
            break;
        }
        let side = warhorse::ai::side_to_act(&mut g)?;
        let o = next_order(&mut g, side).unwrap_or(Order::EndSide);
        let _ = g.order(&o);
    }
    (g.outcome().is_none()).then(|| g.record().clone())
}

/// What the turn bench times: every order of both sides until the turn is over (or the
/// battle): both half-moves, the fire phases, charges and every melee round. Returns the
/// orders given.
#[inline(never)]
fn timed_turn(mut g: Game) -> usize {
    let turn = g.turn_state().turn;
    let mut orders = 0;
    while g.turn_state().turn == turn && g.outcome().is_none() {
        let Some(side) = warhorse::ai::side_to_act(&mut g) else {
            break;
        };
        let o = next_order(&mut g, side).unwrap_or(Order::EndSide);
        let _ = g.order(&o);
        orders += 1;
    }
    orders
}

/// Issue 13, item 3: one AI turn of both sides, at the baseline and with the stronger levels on
/// Red (the strongest on the default level only): on the default level, turn 2 of 16 seeded games in turn (the first contacts and
/// melees come in turns 2–3); on the 200-figure 128×128 level, turn 3 of 4 seeded games (the
/// armies start twenty rows apart).
fn whole_turn(c: &mut Criterion) {
    let mut group = c.benchmark_group("ai_turn");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(10));
    let cases = [
        ("default", default_level().expect("default level"), 2, 16),
        ("big-200", big_level(200), 3, 4),
    ];
    for (name, level, turn, seeds) in &cases {
        let mut pairs = vec![
            [AiLevel::Table, AiLevel::Table],
            [AiLevel::Lookahead, AiLevel::Table],
            [AiLevel::Commander, AiLevel::Table],
        ];
        // Issue 31, item 5 times the strongest level on the default level.
        if *name == "default" {
            pairs.push([AiLevel::Foresight, AiLevel::Table]);
        }
        for pair in pairs {
            let records: Vec<Record> = (0..*seeds)
                .filter_map(|s| record_at_turn(level, pair, s, *turn))
                .collect();
            assert!(!records.is_empty());
            let mut k = 0usize;
            let id = BenchmarkId::new(format!("{}-vs-{}", pair[0], pair[1]), name);
            group.bench_function(id, |b| {
                b.iter_batched(
                    || {
                        k += 1;
                        let mut g =
                            Game::from_record(&records[k % records.len()]).expect("replays");
                        for (s, &l) in pair.iter().enumerate() {
                            set_level(&mut g, s as u8, l);
                        }
                        up_to_date(g, &[0, 1])
                    },
                    timed_turn,
                    BatchSize::LargeInput,
                )
            });
        }
    }
    group.finish();
}

criterion_group!(benches, side_turn, whole_turn, whole_game);

fn main() {
    if count_mode() {
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
