//! `warhorse email`: play by email at the terminal (issue 30). `new` begins a game and writes
//! the first turn file; `answer` takes it up on the other player's machine; `turn` reads the
//! other player's file, prints what happened, gives the orders typed on standard input
//! (written as in an orders file: `EndSide`, `Pass(unit: "levy_1")`) and writes the answer.
//! Each player's state file holds its own secrets (its salts, its dice values): keep it.

use crate::net::pbem::{Pbem, Status, TurnFile, parse_file};
use crate::sim::order::Order;
use clap::Subcommand;
use std::path::{Path, PathBuf};

/// What `warhorse email` does.
#[derive(Subcommand, Debug)]
pub enum EmailCommand {
    /// Begin a game: writes your state file and the first turn file to send.
    New {
        /// A level file (default: the default level).
        level: Option<PathBuf>,
        /// The side you play (0 is the level's first); the other player has the rest.
        #[arg(long, default_value_t = 0)]
        side: u8,
        /// Your state file (keep it: it holds your secrets).
        #[arg(long)]
        state: PathBuf,
        /// Where to write the turn file (default: turn-001.json).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Take up a game from its first turn file: writes your state file, then plays as
    /// `turn` does.
    Answer {
        /// The first turn file.
        file: PathBuf,
        /// Your state file, to be made.
        #[arg(long)]
        state: PathBuf,
        /// Where to write your answer (default: turn-NNN.json).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Read the other player's turn file (if given), give your orders from standard input
    /// (one a line; an empty input gives none), and write your answer.
    Turn {
        /// The other player's turn file.
        #[arg(long)]
        read: Option<PathBuf>,
        /// Your state file.
        #[arg(long)]
        state: PathBuf,
        /// Where to write your answer (default: turn-NNN.json).
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

/// Runs `warhorse email`; returns the exit code.
pub fn run(cmd: &EmailCommand) -> i32 {
    match play(cmd) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

fn play(cmd: &EmailCommand) -> Result<(), String> {
    match cmd {
        EmailCommand::New {
            level,
            side,
            state,
            out,
        } => {
            let level = match level {
                Some(p) => crate::level::load_level_file(p).map_err(|e| e.to_string())?,
                None => crate::level::default_level().map_err(|e| e.to_string())?,
            };
            refuse_to_overwrite(state)?;
            let (p, first) = Pbem::begin(&level, *side).map_err(|e| e.to_string())?;
            p.save(state).map_err(|e| e.to_string())?;
            let side_name = level.file.sides.get(*side as usize).map(|s| s.name.clone());
            println!(
                "A new game of {} by email: you play {}.",
                level.file.name,
                side_name.unwrap_or_default()
            );
            send(&first, out.as_deref())
        }
        EmailCommand::Answer { file, state, out } => {
            refuse_to_overwrite(state)?;
            let first = read_file(file)?;
            let (mut p, lines) = Pbem::answer(&first).map_err(|e| e.to_string())?;
            print_lines(&lines);
            p.save(state).map_err(|e| e.to_string())?;
            turn(&mut p, state, out.as_deref())
        }
        EmailCommand::Turn { read, state, out } => {
            let mut p = Pbem::load(state).map_err(|e| e.to_string())?;
            if let Some(file) = read {
                let f = read_file(file)?;
                let lines = p.read(&f).map_err(|e| e.to_string())?;
                print_lines(&lines);
                p.save(state).map_err(|e| e.to_string())?;
            }
            turn(&mut p, state, out.as_deref())
        }
    }
}

/// Gives the typed orders while the game waits for them, then writes the answer.
fn turn(p: &mut Pbem, state: &Path, out: Option<&Path>) -> Result<(), String> {
    if p.status() == Status::TheirFile {
        return Err("the other player's turn file comes next: read it with --read".into());
    }
    if matches!(p.status(), Status::Over(_)) && p.unsent() == 0 {
        println!("The battle is over, and both players have seen its end.");
        return Ok(());
    }
    match p.status() {
        Status::YourOrders => {
            println!("Your orders, one a line (an empty line or the end of the input sends them):");
        }
        Status::WriteNow if p.game().is_none() => {
            println!("The dice of turn 1 are being agreed: nothing to order yet.");
        }
        Status::WriteNow => println!(
            "Nothing for you to order now: your file carries your dice values and opens your \
             face-down choices once the other player is bound to theirs."
        ),
        Status::Over(why) => println!("The battle is over: {why}"),
        Status::TheirFile => {}
    }
    let mut printed = p.game().map_or(0, |g| g.log().len());
    // Standard input is read only while the game waits for orders: lines piped for a later
    // turn stay unread.
    let lines = (p.status() == Status::YourOrders).then(|| std::io::stdin().lines());
    for line in lines.into_iter().flatten() {
        let Ok(line) = line else { break };
        let line = line.trim();
        if line.is_empty() {
            break;
        }
        match ron::from_str::<Order>(line) {
            Err(e) => println!("not an order ({e}): {line}"),
            Ok(order) => match p.order(&order) {
                Ok(()) => {
                    let log = p.game().map(|g| g.log().to_vec()).unwrap_or_default();
                    print_lines(log.get(printed..).unwrap_or_default());
                    printed = log.len();
                }
                Err(e) => println!("{e}"),
            },
        }
        if p.status() != Status::YourOrders {
            break;
        }
    }
    let f = p.write().map_err(|e| e.to_string())?;
    p.save(state).map_err(|e| e.to_string())?;
    send(&f, out)?;
    match p.status() {
        Status::Over(why) => println!("The battle is over: {why}"),
        _ => println!("Next: the other player's answer (warhorse email turn --read FILE)."),
    }
    Ok(())
}

fn print_lines(lines: &[crate::sim::log::LogEntry]) {
    for l in lines {
        println!("turn {} · {} · {l}", l.turn, l.phase);
    }
}

fn read_file(path: &Path) -> Result<TurnFile, String> {
    let text = crate::net::pbem::read_bounded(path).map_err(|e| e.to_string())?;
    parse_file(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes the file to send and says what to do with it.
fn send(f: &TurnFile, out: Option<&Path>) -> Result<(), String> {
    let default = PathBuf::from(format!("turn-{:03}.json", f.seq));
    let path = out.unwrap_or(&default);
    std::fs::write(path, f.to_text())
        .map_err(|e| format!("{} could not be written: {e}", path.display()))?;
    println!(
        "Turn file {} written to {}: send it to the other player.",
        f.seq,
        path.display()
    );
    Ok(())
}

fn refuse_to_overwrite(state: &Path) -> Result<(), String> {
    if state.exists() {
        return Err(format!(
            "{} exists: it is a game's state (its secrets would be lost). Choose another name",
            state.display()
        ));
    }
    Ok(())
}
