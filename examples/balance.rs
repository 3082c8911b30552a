//! The balance table of docs/levels.md (issue 12, item 6): every level in `levels/`, both
//! sides played by the computer until the level's own judge ends the battle (its objectives,
//! a side out of the fight, or its last turn), over paired seeds.
//!
//! ```sh
//! cargo run --release --example balance -- 200          # baseline against baseline
//! cargo run --release --example balance -- 200 mixed    # also each seating against the stronger level
//! ```
//!
//! Prints one Markdown row per level and pairing: each side's win share, draws, the share of
//! games decided before the turn limit, the mean length in turns, and refused orders (the AI
//! should give none). Same seeds, same table, on any machine.

use warhorse::ai::AiLevel::{self, Lookahead, Table};
use warhorse::ai::bout;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let mixed = std::env::args().nth(2).as_deref() == Some("mixed");
    let mut pairs: Vec<[AiLevel; 2]> = vec![[Table, Table]];
    if mixed {
        pairs.extend([[Lookahead, Table], [Table, Lookahead]]);
    }
    let mut paths: Vec<_> = std::fs::read_dir("levels")
        .expect("run from the repository root: levels/ is read")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    paths.sort();
    println!(
        "| level | pairing (first side, second side) | games | first side wins | second side wins | draws | decided before the limit | mean turns | refused |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    // One level per thread, two at a time (the machine has two cores); rows in level order.
    let rows: Vec<Vec<String>> = std::thread::scope(|scope| {
        let mut out = Vec::new();
        for chunk in paths.chunks(2) {
            let handles: Vec<_> = chunk
                .iter()
                .map(|path| scope.spawn(|| rows_of(path, n, &pairs)))
                .collect();
            out.extend(handles.into_iter().map(|h| h.join().unwrap_or_default()));
        }
        out
    });
    for row in rows.iter().flatten() {
        println!("{row}");
    }
}

/// The table's rows for one level: one per pairing.
fn rows_of(path: &std::path::Path, n: u64, pairs: &[[AiLevel; 2]]) -> Vec<String> {
    let level = match warhorse::level::load_level_file(path) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{e}");
            return Vec::new();
        }
    };
    let names: Vec<String> = level.file.sides.iter().map(|s| s.name.clone()).collect();
    let turns = level.victory.turns;
    let mut rows = Vec::new();
    for pair in pairs {
        let results: Vec<bout::BoutResult> = (0..n)
            .map(|seed| bout::play(&level, seed, turns, pair))
            .collect();
        let share = |k: usize| 100.0 * k as f64 / n.max(1) as f64;
        let wins = |side: &str| {
            results
                .iter()
                .filter(|r| r.winner.as_deref() == Some(side))
                .count()
        };
        let draws = results.iter().filter(|r| r.winner.is_none()).count();
        let early = results.iter().filter(|r| r.decided_early).count();
        let mean = results.iter().map(|r| f64::from(r.turns)).sum::<f64>() / n.max(1) as f64;
        let refused: usize = results.iter().map(|r| r.refused).sum();
        rows.push(format!(
            "| {} | {} {:?}, {} {:?} | {n} | {:.1}% | {:.1}% | {:.1}% | {:.1}% | {mean:.1} | {refused} |",
            level.file.name,
            names[0],
            pair[0],
            names.get(1).map_or("", String::as_str),
            pair[1],
            share(wins(&names[0])),
            share(names.get(1).map_or(0, |s| wins(s))),
            share(draws),
            share(early),
        ));
    }
    rows
}
