//! `warhorse script LEVEL ORDERS`: plays an orders file and reports every order, figure and
//! log line. The same seed and orders give byte-identical output.

use crate::level::input::{MAX_ORDERS_FILE_BYTES, read_text};
use crate::level::load::parse_ron_text;
use crate::sim::Game;
use crate::sim::orders::Order;
use crate::sim::snapshot::Snapshot;
use crate::sim::victory::Report;
use serde::Serialize;
use std::path::Path;

#[derive(Serialize)]
struct OrderOut {
    n: usize,
    order: String,
    result: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

#[derive(Serialize)]
struct ScriptOut {
    level: String,
    seed: u64,
    orders: Vec<OrderOut>,
    /// Issue 12: how the battle ended, once it has.
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<Report>,
    #[serde(flatten)]
    state: Snapshot,
}

/// Reads an orders file: a RON list of orders, through the shared reader (a regular file
/// only, at most [`MAX_ORDERS_FILE_BYTES`]), with every error at its `file:line:column`.
pub fn load_orders(path: &Path) -> Result<Vec<Order>, String> {
    let file = path.display().to_string();
    let src =
        read_text(path, MAX_ORDERS_FILE_BYTES).map_err(|e| e.into_load_error(&file).to_string())?;
    parse_orders(&src, &file)
}

/// Parses orders from text (see `docs/formats.md`) with the conveniences of level files: a
/// byte-order mark, bare optional values, and each error at its line and column.
pub fn parse_orders(src: &str, file: &str) -> Result<Vec<Order>, String> {
    parse_ron_text(src, file, MAX_ORDERS_FILE_BYTES, &[]).map_err(|e| e.to_string())
}

/// Plays the script; returns the exit code (0 even when orders are refused: refusals are
/// results, not errors).
pub fn run(level: &Path, orders: &Path, seed: u64, json: bool) -> i32 {
    let level = match super::load_or_report(level) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let orders = match load_orders(orders) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let out = play(&level, &orders, seed);
    if json {
        if let Err(code) = super::emit_json(&out) {
            return code;
        }
    } else {
        print_text(&out);
    }
    0
}

fn play(level: &crate::level::Level, orders: &[Order], seed: u64) -> ScriptOut {
    let mut game = Game::new(level, seed);
    let results = orders
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let r = game.order(o);
            OrderOut {
                n: i + 1,
                order: o.to_string(),
                result: if r.is_ok() { "accepted" } else { "refused" },
                reason: r.err().map(|e| e.0),
            }
        })
        .collect();
    let turn = game
        .app
        .world()
        .resource::<crate::sim::phase::TurnState>()
        .clone();
    ScriptOut {
        level: level.file.name.clone(),
        seed,
        orders: results,
        outcome: game.outcome().map(|o| Report::new(o, &turn)),
        state: game.snapshot(),
    }
}

fn print_text(out: &ScriptOut) {
    use std::fmt::Write as _;
    let mut text = String::new();
    let _ = writeln!(text, "{} (seed {})", out.level, out.seed);
    for o in &out.orders {
        match &o.reason {
            None => {
                let _ = writeln!(text, "{:>3}. {}: accepted", o.n, o.order);
            }
            Some(r) => {
                let _ = writeln!(text, "{:>3}. {}: REFUSED — {r}", o.n, o.order);
            }
        }
    }
    let s = &out.state;
    if let Some(o) = &out.outcome {
        let who = o
            .winner
            .as_ref()
            .map_or("a draw".to_string(), |w| format!("{w} wins"));
        let pts: Vec<String> = o.points.iter().map(|(s, p)| format!("{s} {p}")).collect();
        let _ = writeln!(
            text,
            "\nThe battle is over in turn {}: {who} ({}). Victory points: {}.",
            o.turn,
            o.reason,
            pts.join(", ")
        );
    }
    let _ = writeln!(
        text,
        "\nTurn {}, {}{}",
        s.turn,
        s.phase,
        s.to_move
            .as_ref()
            .map(|m| format!(", {m} to move"))
            .unwrap_or_default()
    );
    for f in &s.figures {
        let link = match (&f.mounted_on, &f.carrying) {
            (Some(m), _) => format!(" on {m}"),
            (_, Some(r)) => format!(" carrying {r}"),
            _ => String::new(),
        };
        let _ = writeln!(
            text,
            "  {:<14} {:<6} ({},{}) {:<2} {:<6} {}/{} left, blows {}/{}, body {}/{}{link}{}",
            f.id,
            f.side,
            f.cell[0],
            f.cell[1],
            f.facing,
            f.gait,
            f.allowance_left,
            f.allowance,
            f.blows[0],
            f.blows[1],
            f.body[0],
            f.body[1],
            if f.conditions.is_empty() {
                String::new()
            } else {
                format!(" [{}]", f.conditions.join(", "))
            }
        );
    }
    let _ = writeln!(text, "\nLog:");
    for l in &s.log {
        let _ = writeln!(text, "  T{} {}: {l}", l.turn, l.phase);
    }
    super::emit(&text);
}
