//! `warhorse sim LEVEL`: AI against AI without a window. Prints each game's winner, turns and
//! losses, the totals, and — apart, because it is the one thing that differs between runs —
//! where the time went, phase by phase. The same level, seeds and AI levels print the same
//! results; `--json` keeps the timings under a `timing` key of their own. `--log` adds each
//! game's record (the orders accepted, in order) and its log, so what the rules did — what
//! an uncommanded unit shot at (I3), say — can be checked from outside.

use crate::ai::AiLevel;
use crate::ai::bout::{BoutResult, RollTally, Timing, play_scripted};
use crate::ai::plain::{Plain, Plan};
use crate::sim::log::LogEntry;
use crate::sim::order::Order;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The options of one `warhorse sim` run.
#[derive(Clone, Debug)]
pub struct SimArgs {
    /// First seed; game `i` uses `seed + i`.
    pub seed: u64,
    /// Games to play.
    pub games: u32,
    /// Turn limit per game.
    pub turns: u32,
    /// How side 0 ("red") plays.
    pub red: AiLevel,
    /// How side 1 ("blue") plays.
    pub blue: AiLevel,
    /// The side (0 or 1) played by a scripted plain plan instead, and the plan.
    pub plain: Option<(u8, Plan)>,
    /// JSON output.
    pub json: bool,
    /// Print each game's record (accepted orders) and log.
    pub log: bool,
}

/// One game's record and log (`--log`).
#[derive(Serialize)]
struct Trace {
    seed: u64,
    /// The orders accepted, in order (the game's record: replaying them replays the game).
    record: Vec<Order>,
    log: Vec<LogEntry>,
}

#[derive(Serialize)]
struct Summary {
    games: usize,
    wins: BTreeMap<String, usize>,
    draws: usize,
    orders: usize,
    refused: usize,
    mean_turns: f64,
    losses: BTreeMap<String, usize>,
    /// Of the losses, figures routed off the map (issue 12).
    routed: BTreeMap<String, usize>,
    /// The actions-table rolls of every game, and those with an enemy on a flank or the rear.
    rolls: RollTally,
}

#[derive(Serialize)]
struct SimOut<'a> {
    level: String,
    turns: u32,
    levels: [AiLevel; 2],
    /// The side played by a scripted plain plan instead of its `levels` entry, and the plan.
    #[serde(skip_serializing_if = "Option::is_none")]
    plain: Option<(u8, Plan)>,
    games: &'a [BoutResult],
    summary: Summary,
    timing: &'a Timing,
    #[serde(skip_serializing_if = "<[Trace]>::is_empty")]
    records: &'a [Trace],
}

fn summarise(results: &[BoutResult]) -> Summary {
    let mut wins = BTreeMap::new();
    let mut losses = BTreeMap::new();
    let mut routed = BTreeMap::new();
    for r in results {
        for s in &r.sides {
            wins.entry(s.side.clone()).or_insert(0);
            *losses.entry(s.side.clone()).or_insert(0) += s.lost;
            *routed.entry(s.side.clone()).or_insert(0) += s.routed;
        }
        if let Some(w) = &r.winner {
            *wins.entry(w.clone()).or_insert(0) += 1;
        }
    }
    let n = results.len().max(1) as f64;
    Summary {
        games: results.len(),
        draws: results.iter().filter(|r| r.winner.is_none()).count(),
        orders: results.iter().map(|r| r.orders).sum(),
        refused: results.iter().map(|r| r.refused).sum(),
        // Folded from +0.0: an empty `sum` of floats is -0.0, printed "-0.0" (`--games 0`).
        mean_turns: results.iter().fold(0.0, |a, r| a + r.turns as f64) / n,
        wins,
        losses,
        routed,
        rolls: results
            .iter()
            .fold(RollTally::default(), |t, r| t + r.rolls),
    }
}

/// Runs `warhorse sim`; returns the exit code (2 when the level does not load).
pub fn run(level: &Path, args: &SimArgs) -> i32 {
    let level = match super::load_or_report(level) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let levels = [args.red, args.blue];
    let mut timing = Timing::default();
    let mut traces = Vec::new();
    let results: Vec<BoutResult> = (0..args.games as u64)
        .map(|i| {
            let seed = args.seed.wrapping_add(i);
            let plain = args.plain.map(|(side, p)| Plain::new(p, side));
            let (r, mut game) = play_scripted(&level, seed, args.turns, &levels, None, plain);
            timing.add(&r.timing);
            if args.log {
                traces.push(Trace {
                    seed,
                    record: game.record().orders.clone(),
                    log: game.snapshot().log,
                });
            }
            r
        })
        .collect();
    let summary = summarise(&results);
    if args.json {
        let out = SimOut {
            level: level.file.name.clone(),
            turns: args.turns,
            levels,
            plain: args.plain,
            games: &results,
            summary,
            timing: &timing,
            records: &traces,
        };
        return match super::emit_json(&out) {
            Ok(()) => 0,
            Err(code) => code,
        };
    }
    super::emit(&text(&level.file.name, args, &results, &summary));
    for t in &traces {
        super::emit(&trace_text(t));
    }
    super::emit(&timing_text(&timing, results.len()));
    0
}

/// One game's record and log in words (`--log`).
fn trace_text(t: &Trace) -> String {
    use std::fmt::Write as _;
    let mut text = format!(
        "\nGame with seed {}: record ({} orders)\n",
        t.seed,
        t.record.len()
    );
    for (k, o) in t.record.iter().enumerate() {
        let _ = writeln!(text, "{:>5}. {o}", k + 1);
    }
    let _ = writeln!(text, "Log:");
    for l in &t.log {
        let _ = writeln!(text, "  T{} {}: {l}", l.turn, l.phase);
    }
    text
}

fn text(name: &str, args: &SimArgs, results: &[BoutResult], s: &Summary) -> String {
    use std::fmt::Write as _;
    let mut t = String::new();
    let seat = |side: u8, level: AiLevel| match args.plain {
        Some((s, p)) if s == side => format!("{p} (scripted)"),
        _ => level.to_string(),
    };
    let _ = writeln!(
        t,
        "{name}: {} game(s), at most {} turns, red plays {}, blue plays {}",
        results.len(),
        args.turns,
        seat(0, args.red),
        seat(1, args.blue)
    );
    for r in results {
        let losses: Vec<String> = r
            .sides
            .iter()
            .map(|s| {
                let routed = match s.routed {
                    0 => String::new(),
                    n => format!(" ({n} routed)"),
                };
                format!(
                    "{} lost {}/{} figures{routed}, {}/{} body left",
                    s.side, s.lost, s.figures, s.body_left, s.body_start
                )
            })
            .collect();
        let _ = writeln!(
            t,
            "  seed {:>4}: {:<6} after {:>2} turns ({}); {}; {} orders, {} refused",
            r.seed,
            r.winner.as_deref().unwrap_or("draw"),
            r.turns,
            r.reason,
            losses.join("; "),
            r.orders,
            r.refused
        );
        for why in &r.refusals {
            let _ = writeln!(t, "      refused: {why}");
        }
    }
    let wins: Vec<String> = s.wins.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let routed: Vec<String> = s.routed.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let _ = writeln!(
        t,
        "Wins: {}, draws {}; routed figures: {}; mean {:.1} turns; {} orders, {} refused.",
        wins.join(", "),
        s.draws,
        routed.join(", "),
        s.mean_turns,
        s.orders,
        s.refused
    );
    let share = 100.0 * s.rolls.flank_or_rear as f64 / s.rolls.rolls.max(1) as f64;
    let _ = writeln!(
        t,
        "Actions-table rolls: {}; with an enemy on a flank or the rear (+2, I1): {} ({share:.0} %).",
        s.rolls.rolls, s.rolls.flank_or_rear
    );
    t
}

fn timing_text(timing: &Timing, games: usize) -> String {
    use std::fmt::Write as _;
    let mut t = String::new();
    let _ = writeln!(
        t,
        "\nTiming (differs from run to run; not part of the result):"
    );
    let _ = writeln!(
        t,
        "  {:<26} {:>8} {:>12} {:>12} {:>10}",
        "phase", "orders", "AI ms", "rules ms", "AI µs/order"
    );
    for (phase, p) in &timing.phases {
        let _ = writeln!(
            t,
            "  {:<26} {:>8} {:>12.1} {:>12.1} {:>10.1}",
            phase,
            p.orders,
            p.ai_us as f64 / 1000.0,
            p.rules_us as f64 / 1000.0,
            p.ai_us as f64 / p.orders.max(1) as f64
        );
    }
    let _ = writeln!(
        t,
        "  total {:.1} ms for {games} game(s), {:.1} ms a game",
        timing.total_us as f64 / 1000.0,
        timing.total_us as f64 / 1000.0 / games.max(1) as f64
    );
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_games_have_a_mean_of_zero_turns_not_minus_zero() {
        let s = summarise(&[]);
        assert_eq!(format!("{:.1}", s.mean_turns), "0.0");
        assert_eq!(s.games, 0);
    }
}
