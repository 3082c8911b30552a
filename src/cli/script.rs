//! `warhorse script LEVEL ORDERS`: plays an orders file and reports every order, figure and
//! log line. The same seed and orders give byte-identical output.

use crate::level::input::{MAX_ORDERS_FILE_BYTES, read_text};
use crate::level::load::parse_ron_text;
use crate::sim::Game;
use crate::sim::order::Order;
use crate::sim::snapshot::Snapshot;
use crate::sim::victory::Report;
use serde::Serialize;
use std::cell::RefCell;
use std::io::Write;
use std::path::Path;

#[derive(Serialize)]
struct OrderOut {
    n: usize,
    order: String,
    result: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

/// Gives the `i`th order to the game and says how it went.
fn give(game: &mut Game, i: usize, o: &Order) -> OrderOut {
    let r = game.order(o);
    OrderOut {
        n: i + 1,
        order: o.to_string(),
        result: if r.is_ok() { "accepted" } else { "refused" },
        reason: r.err().map(|e| e.0),
    }
}

/// The orders, played as they are written out: the results are never all held at once, so
/// a long orders file costs the output's time, not its size in memory.
struct Played<'a> {
    game: &'a RefCell<Game>,
    orders: &'a [Order],
}

impl Serialize for Played<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq as _;
        let mut seq = s.serialize_seq(Some(self.orders.len()))?;
        for (i, o) in self.orders.iter().enumerate() {
            let out = give(&mut self.game.borrow_mut(), i, o);
            seq.serialize_element(&out)?;
        }
        seq.end()
    }
}

/// How the battle ended, read after the orders were played (issue 12).
struct Ending<'a>(&'a RefCell<Game>);

impl Ending<'_> {
    fn absent(&self) -> bool {
        self.0.borrow().outcome().is_none()
    }
}

impl Serialize for Ending<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let game = self.0.borrow();
        let turn = game.turn_state();
        game.outcome().map(|o| Report::new(o, turn)).serialize(s)
    }
}

/// The state after the orders, read when it is written.
struct Final<'a>(&'a RefCell<Game>);

impl Serialize for Final<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.borrow_mut().snapshot().serialize(s)
    }
}

/// `script --json`'s output, written as the game is played.
#[derive(Serialize)]
struct ScriptOut<'a> {
    level: &'a str,
    seed: u64,
    orders: Played<'a>,
    #[serde(skip_serializing_if = "Ending::absent")]
    outcome: Ending<'a>,
    #[serde(flatten)]
    state: Final<'a>,
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
    let game = RefCell::new(Game::new(&level, seed));
    let mut w = std::io::BufWriter::new(std::io::stdout().lock());
    let written = if json {
        let out = ScriptOut {
            level: &level.file.name,
            seed,
            orders: Played {
                game: &game,
                orders: &orders,
            },
            outcome: Ending(&game),
            state: Final(&game),
        };
        match serde_json::to_writer_pretty(&mut w, &out) {
            Err(e) if !e.is_io() => {
                eprintln!("{e}");
                return 2;
            }
            r => r
                .map_err(std::io::Error::from)
                .and_then(|()| w.write_all(b"\n")),
        }
    } else {
        write_text(
            &mut w,
            &level.file.name,
            seed,
            &orders,
            &mut game.borrow_mut(),
        )
    };
    // A closed pipe (`| head`) ends the output quietly, as it always has.
    let _ = written.and_then(|()| w.flush());
    0
}

/// The text report, each order's line written as it is played.
fn write_text(
    w: &mut impl Write,
    level: &str,
    seed: u64,
    orders: &[Order],
    game: &mut Game,
) -> std::io::Result<()> {
    writeln!(w, "{level} (seed {seed})")?;
    for (i, o) in orders.iter().enumerate() {
        let o = give(game, i, o);
        match &o.reason {
            None => writeln!(w, "{:>3}. {}: accepted", o.n, o.order)?,
            Some(r) => writeln!(w, "{:>3}. {}: REFUSED — {r}", o.n, o.order)?,
        }
    }
    let turn = game.turn_state().clone();
    let outcome = game.outcome().map(|o| Report::new(o, &turn));
    let state = game.snapshot();
    write_tail(w, outcome.as_ref(), &state)
}

/// The end of the text report: the outcome, the figures and the log.
fn write_tail(w: &mut impl Write, outcome: Option<&Report>, s: &Snapshot) -> std::io::Result<()> {
    if let Some(o) = outcome {
        let who = o
            .winner
            .as_ref()
            .map_or("a draw".to_string(), |w| format!("{w} wins"));
        let pts: Vec<String> = o.points.iter().map(|(s, p)| format!("{s} {p}")).collect();
        writeln!(
            w,
            "\nThe battle is over in turn {}: {who} ({}). Victory points: {}.",
            o.turn,
            o.reason,
            pts.join(", ")
        )?;
    }
    writeln!(
        w,
        "\nTurn {}, {}{}",
        s.turn,
        s.phase,
        s.to_move
            .as_ref()
            .map(|m| format!(", {m} to move"))
            .unwrap_or_default()
    )?;
    for f in &s.figures {
        let link = match (&f.mounted_on, &f.carrying) {
            (Some(m), _) => format!(" on {m}"),
            (_, Some(r)) => format!(" carrying {r}"),
            _ => String::new(),
        };
        writeln!(
            w,
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
        )?;
    }
    writeln!(w, "\nLog:")?;
    for l in &s.log {
        writeln!(w, "  T{} {}: {l}", l.turn, l.phase)?;
    }
    Ok(())
}
