//! The balance tables of docs/levels.md (issue 12, item 6; issue 34, "levels worth playing
//! against a person"): every level in `levels/`, played until the level's own judge ends the
//! battle (its objectives, a side out of the fight, or its last turn), over paired seeds.
//!
//! ```sh
//! cargo run --release --example balance -- 200          # baseline against baseline
//! cargo run --release --example balance -- 200 mixed    # also each seating against the stronger level
//! cargo run --release --example balance -- 100 plain    # each plain plan against the commander
//! ```
//!
//! The first two print one Markdown row per level and pairing: each side's win share, draws,
//! the share of games decided before the turn limit, the mean length in turns, and refused
//! orders (the AI should give none). `plain` prints one row per level and plain plan (rush,
//! hold, flank: a person with one simple idea, `ai::plain`) played on each side in turn
//! against the strongest computer: the plan's win share on each side, and the share of all
//! those games decided in turn 1. Same seeds, same table, on any machine.

use warhorse::ai::AiLevel::{self, Commander, Lookahead, Table};
use warhorse::ai::bout::{self, BoutResult};
use warhorse::ai::plain::{Plain, Plan};
use warhorse::level::Level;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let mode = std::env::args().nth(2).unwrap_or_default();
    let mut paths: Vec<_> = std::fs::read_dir("levels")
        .expect("run from the repository root: levels/ is read")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    paths.sort();
    let plain = mode == "plain";
    if plain {
        println!(
            "| level | plan | games | plan wins as the first side | plan wins as the second side | decided in turn 1 | mean turns |"
        );
        println!("|---|---|---|---|---|---|---|");
    } else {
        println!(
            "| level | pairing (first side, second side) | games | first side wins | second side wins | draws | decided before the limit | mean turns | refused |"
        );
        println!("|---|---|---|---|---|---|---|---|---|");
    }
    let mut pairs: Vec<[AiLevel; 2]> = vec![[Table, Table]];
    if mode == "mixed" {
        pairs.extend([[Lookahead, Table], [Table, Lookahead]]);
    }
    // One level per thread, two at a time (the machine has two cores); rows in level order.
    let rows: Vec<Vec<String>> = std::thread::scope(|scope| {
        let mut out = Vec::new();
        for chunk in paths.chunks(2) {
            let handles: Vec<_> = chunk
                .iter()
                .map(|path| {
                    let pairs = &pairs;
                    scope.spawn(move || match warhorse::level::load_level_file(path) {
                        Ok(level) if plain => plain_rows(&level, n),
                        Ok(level) => rows_of(&level, n, pairs),
                        Err(e) => {
                            eprintln!("{e}");
                            Vec::new()
                        }
                    })
                })
                .collect();
            out.extend(handles.into_iter().map(|h| h.join().unwrap_or_default()));
        }
        out
    });
    for row in rows.iter().flatten() {
        println!("{row}");
    }
}

fn share(k: usize, n: usize) -> f64 {
    100.0 * k as f64 / n.max(1) as f64
}

fn wins(results: &[BoutResult], side: &str) -> usize {
    results
        .iter()
        .filter(|r| r.winner.as_deref() == Some(side))
        .count()
}

fn mean_turns(results: &[BoutResult]) -> f64 {
    results.iter().map(|r| f64::from(r.turns)).sum::<f64>() / results.len().max(1) as f64
}

/// The balance table's rows for one level: one per pairing.
fn rows_of(level: &Level, n: u64, pairs: &[[AiLevel; 2]]) -> Vec<String> {
    let names: Vec<String> = level.file.sides.iter().map(|s| s.name.clone()).collect();
    let second = names.get(1).map_or("", String::as_str);
    let turns = level.victory.turns;
    let mut rows = Vec::new();
    for pair in pairs {
        let results: Vec<BoutResult> = (0..n)
            .map(|seed| bout::play(level, seed, turns, pair))
            .collect();
        let len = results.len();
        let draws = results.iter().filter(|r| r.winner.is_none()).count();
        let early = results.iter().filter(|r| r.decided_early).count();
        let refused: usize = results.iter().map(|r| r.refused).sum();
        rows.push(format!(
            "| {} | {} {:?}, {second} {:?} | {n} | {:.1}% | {:.1}% | {:.1}% | {:.1}% | {:.1} | {refused} |",
            level.file.name,
            names[0],
            pair[0],
            pair[1],
            share(wins(&results, &names[0]), len),
            share(wins(&results, second), len),
            share(draws, len),
            share(early, len),
            mean_turns(&results),
        ));
    }
    rows
}

/// The plain plans' rows for one level: each plan on each side against the commander, `n`
/// seeds a seating.
fn plain_rows(level: &Level, n: u64) -> Vec<String> {
    let names: Vec<String> = level.file.sides.iter().map(|s| s.name.clone()).collect();
    let turns = level.victory.turns;
    let mut rows = Vec::new();
    for plan in Plan::ALL {
        let mut all = Vec::new();
        let mut won = [0usize; 2];
        for side in 0..2u8 {
            let results: Vec<BoutResult> = (0..n)
                .map(|seed| {
                    let seats = [Commander, Commander];
                    let script = Some(Plain::new(plan, side));
                    bout::play_scripted(level, seed, turns, &seats, None, script).0
                })
                .collect();
            won[usize::from(side)] = wins(&results, &names[usize::from(side)]);
            all.extend(results);
        }
        // Decided in turn 1: the judge ended the battle before turn 2 began.
        let first = all
            .iter()
            .filter(|r| r.decided_early && r.turns <= 1)
            .count();
        rows.push(format!(
            "| {} | {plan} | {} | {:.1}% ({}) | {:.1}% ({}) | {:.1}% | {:.1} |",
            level.file.name,
            all.len(),
            share(won[0], n as usize),
            names[0],
            share(won[1], n as usize),
            names.get(1).map_or("", String::as_str),
            share(first, all.len()),
            mean_turns(&all),
        ));
    }
    rows
}
