//! `warhorse reach LEVEL --unit ID`: the reachable area of one figure.

use crate::rules::gait::Gait;
use crate::rules::mp::Mp;
use crate::sim::Game;
use crate::sim::asks::FigureReach;
use crate::sim::order::steps_text;
use serde::Serialize;
use std::io::Write;
use std::path::Path;

#[derive(Serialize)]
struct CellOut {
    cell: [i32; 2],
    facing: String,
    cost: String,
    path: Vec<crate::rules::movement::Step>,
    /// D17/R4: the roll the path needs, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    roll: Option<RollOut>,
}

/// A chance step on the way to an end (D17, R4), as `reach --json` prints it.
#[derive(Serialize)]
struct RollOut {
    /// `squeeze` (D17) or `contest` (R4).
    kind: &'static str,
    /// What is rolled, in words.
    what: String,
    /// The exact chance of getting through, as a percentage.
    chance: String,
    /// Index in `path` of the chance step.
    step: u16,
    /// Where a failed roll stops the figure, and the facing.
    fail_cell: [i32; 2],
    fail_facing: String,
    /// The move's cost when the roll fails (`cost` is the cost when it succeeds).
    fail_cost: String,
}

/// The JSON and text form of an end's roll.
fn roll_out(board: &crate::rules::board::Board, r: &crate::rules::reach::EndRoll) -> RollOut {
    use crate::rules::chance::Gamble;
    let (kind, what) = match r.gamble {
        Gamble::Squeeze {
            obstacle,
            bash,
            cost,
            ..
        } => (
            "squeeze",
            format!(
                "squeezes between the {}: body bash {bash}% against it, costs {cost} more",
                board.terrains[obstacle as usize].name
            ),
        ),
        Gamble::Contest { at, mine, theirs } => (
            "contest",
            format!("contests {at}: d20 + {mine} against d20 + {theirs}"),
        ),
    };
    RollOut {
        kind,
        what,
        chance: r.chance.to_string(),
        step: r.step,
        fail_cell: [r.fail_cell.x, r.fail_cell.y],
        fail_facing: board.grid.dir_name(r.fail_facing).to_string(),
        fail_cost: r.fail_cost.to_string(),
    }
}

/// What `reach --json` prints before the ends.
#[derive(Serialize)]
struct ReachHead {
    unit: String,
    from: [i32; 2],
    facing: String,
    gait: String,
    allowance: String,
}

/// Prints the area; returns the exit code.
pub fn run(
    level: &Path,
    unit: &str,
    gait: Option<&str>,
    allowance: Option<&str>,
    json: bool,
) -> i32 {
    let level = match super::load_or_report(level) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let gait = match gait.map(|g| Gait::parse(g).ok_or(g)).transpose() {
        Ok(g) => g,
        Err(g) => {
            eprintln!("unknown gait {g:?} (halt, walk, trot, canter, gallop)");
            return 2;
        }
    };
    let allowance = match allowance.map(str::parse::<Mp>).transpose() {
        Ok(a) => a,
        Err(why) => {
            eprintln!("--allowance: {why}");
            return 2;
        }
    };
    let game = Game::new(&level, 0);
    let board = game.board().clone();
    let FigureReach { setup, reach, .. } = match game.reach_if(unit, gait, allowance) {
        Ok(Some(r)) => r,
        Ok(None) => {
            eprintln!("there is no figure {unit:?} in {}", level.source);
            return 2;
        }
        Err(why) => {
            eprintln!("{why}");
            return 2;
        }
    };
    let board = &board;
    let grid = board.grid;

    let head = ReachHead {
        unit: unit.to_string(),
        from: [setup.pose.cell.x, setup.pose.cell.y],
        facing: grid.dir_name(setup.pose.facing).to_string(),
        gait: setup.mover.gait.to_string(),
        allowance: setup.left.to_string(),
    };
    let ends = reach.ends();
    let end_out = |end: &crate::rules::reach::ReachEnd| CellOut {
        cell: [end.cell.x, end.cell.y],
        facing: grid.dir_name(end.facing).to_string(),
        cost: end.cost.to_string(),
        path: reach.path(end),
        roll: end.roll.as_ref().map(|r| roll_out(board, r)),
    };
    let mut w = Capped::new(
        std::io::BufWriter::new(std::io::stdout().lock()),
        MAX_REACH_BYTES,
    );
    let blocked = setup.blocked.map(|b| format!(" — {b}")).unwrap_or_default();
    let written = if json {
        stream_json(&mut w, &head, ends.len(), ends.iter().map(end_out))
    } else {
        stream_text(
            &mut w,
            &head,
            &blocked,
            ends.len(),
            ends.iter().map(end_out),
            grid,
        )
    };
    match written.and_then(|stopped| w.inner.flush().map(|()| stopped)) {
        Ok(Some(note)) => {
            eprintln!("warhorse reach: {note}");
            0
        }
        // A closed pipe (`| head`) ends the output quietly.
        Ok(None) | Err(_) => 0,
    }
}

/// The most bytes `reach` writes: past this it stops, after the end it was writing, and
/// says so (on stderr, and in the output: a last text line, or `"stopped"` in the JSON). A
/// figure with a large allowance on a large map has hundreds of thousands of ends, each with
/// its path: the output is written as it is made, never held whole.
pub const MAX_REACH_BYTES: u64 = 64 * 1024 * 1024;

/// A writer that counts what it writes, so the output can stop at a cap.
struct Capped<W: Write> {
    inner: W,
    written: u64,
    cap: u64,
}

impl<W: Write> Capped<W> {
    fn new(inner: W, cap: u64) -> Self {
        Capped {
            inner,
            written: 0,
            cap,
        }
    }

    fn full(&self) -> bool {
        self.written >= self.cap
    }
}

impl<W: Write> Write for Capped<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The words for an output that stopped at the cap after `done` of `all` ends.
fn stopped_note(done: usize, all: usize, cap: u64) -> String {
    format!(
        "stopped after {done} of {all} ends: the output reached its cap of {cap} bytes \
         (docs/formats.md, Limits)"
    )
}

/// `reach --json`, end by end: the same JSON as one object, with `"stopped"` added when the
/// cap was reached. Returns the note when it stopped.
fn stream_json<W: Write>(
    w: &mut Capped<W>,
    head: &ReachHead,
    all: usize,
    ends: impl Iterator<Item = CellOut>,
) -> std::io::Result<Option<String>> {
    let head = serde_json::to_string_pretty(head).map_err(std::io::Error::from)?;
    // The head's fields, then the ends, in the object the head opened.
    let fields = head
        .trim_end()
        .strip_suffix('}')
        .unwrap_or(&head)
        .trim_end();
    write!(w, "{fields},\n  \"ends\": [")?;
    let mut done = 0;
    let mut stopped = None;
    for end in ends {
        if w.full() {
            stopped = Some(stopped_note(done, all, w.cap));
            break;
        }
        let text = serde_json::to_string_pretty(&end).map_err(std::io::Error::from)?;
        let sep = if done == 0 { "" } else { "," };
        write!(w, "{sep}\n    {}", text.replace('\n', "\n    "))?;
        done += 1;
    }
    let close = if done == 0 { "]" } else { "\n  ]" };
    match &stopped {
        Some(note) => {
            let note = serde_json::to_string(note).map_err(std::io::Error::from)?;
            writeln!(w, "{close},\n  \"stopped\": {note}\n}}")?;
        }
        None => writeln!(w, "{close}\n}}")?,
    }
    Ok(stopped)
}

/// `reach` as text, end by end, with a last line when the cap was reached.
fn stream_text<W: Write>(
    w: &mut Capped<W>,
    head: &ReachHead,
    blocked: &str,
    all: usize,
    ends: impl Iterator<Item = CellOut>,
    grid: crate::rules::grid::GridKind,
) -> std::io::Result<Option<String>> {
    writeln!(
        w,
        "{} at ({},{}) facing {}, {}, {} to move{blocked}",
        head.unit, head.from[0], head.from[1], head.facing, head.gait, head.allowance,
    )?;
    writeln!(w, "{all} cell/facing ends:")?;
    for (done, c) in ends.enumerate() {
        if w.full() {
            let note = stopped_note(done, all, w.cap);
            writeln!(w, "  … {note}")?;
            return Ok(Some(note));
        }
        writeln!(
            w,
            "  ({},{}) {:<2} cost {:<6} {}",
            c.cell[0],
            c.cell[1],
            c.facing,
            c.cost,
            steps_text(grid, &c.path)
        )?;
        if let Some(r) = &c.roll {
            writeln!(
                w,
                "      needs a roll at step {}: {} — {} to get through; on a failure it \
                 stops at ({},{}) {}, cost {}",
                r.step + 1,
                r.what,
                r.chance,
                r.fail_cell[0],
                r.fail_cell[1],
                r.fail_facing,
                r.fail_cost
            )?;
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ends(n: usize) -> impl Iterator<Item = CellOut> {
        (0..n).map(|i| CellOut {
            cell: [i as i32, 0],
            facing: "E".into(),
            cost: "1".into(),
            path: Vec::new(),
            roll: None,
        })
    }

    fn head() -> ReachHead {
        ReachHead {
            unit: "k".into(),
            from: [0, 0],
            facing: "E".into(),
            gait: "walk".into(),
            allowance: "12".into(),
        }
    }

    #[test]
    fn the_json_is_one_object_and_says_where_it_stopped() {
        for (cap, stopped) in [(1 << 20, false), (300, true)] {
            let mut w = Capped::new(Vec::new(), cap);
            let note = stream_json(&mut w, &head(), 50, ends(50)).unwrap();
            assert_eq!(note.is_some(), stopped);
            let v: serde_json::Value = serde_json::from_slice(&w.inner).expect("valid JSON");
            let n = v["ends"].as_array().expect("ends").len();
            assert_eq!(n == 50, !stopped, "{n}");
            assert_eq!(v["stopped"].is_string(), stopped);
            assert_eq!(v["unit"], "k");
        }
        let mut w = Capped::new(Vec::new(), 1 << 20);
        stream_json(&mut w, &head(), 0, ends(0)).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&w.inner).expect("valid JSON");
        assert_eq!(v["ends"], serde_json::json!([]));
    }

    #[test]
    fn the_text_says_where_it_stopped() {
        let grid = crate::rules::grid::GridKind::Square;
        let mut w = Capped::new(Vec::new(), 200);
        let note = stream_text(&mut w, &head(), "", 50, ends(50), grid).unwrap();
        let text = String::from_utf8(w.inner).unwrap();
        assert!(note.is_some_and(|n| text.contains(&n)), "{text}");
        assert!(text.contains("of 50 ends"), "{text}");
    }
}
