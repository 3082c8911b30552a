//! The command line (clap): `warhorse` opens the window; `check`, `reach` and `script` answer
//! rules questions without one.

mod check;
mod reach;
mod script;

use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// Warhorse: a turn-based tactical wargame of mounted and foot figures.
#[derive(Parser, Debug)]
#[command(name = "warhorse", version, about)]
pub struct Cli {
    /// What to do; with none, the game window opens.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Level to open in the window (default: the embedded default level).
    #[arg(long)]
    pub level: Option<PathBuf>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Validate level and ruleset files; exit 0 when all are good.
    Check {
        /// Files to check.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Print the reachable area of one figure at the start of its first half-move.
    Reach {
        /// The level file.
        level: PathBuf,
        /// The figure's id.
        #[arg(long)]
        unit: String,
        /// Gait to compute with (mounts): halt, walk, trot, canter, gallop.
        #[arg(long)]
        gait: Option<String>,
        /// Allowance to use instead of the figure's own (e.g. 7, 27/2).
        #[arg(long)]
        allowance: Option<String>,
        /// JSON output.
        #[arg(long)]
        json: bool,
    },
    /// Play an orders file against a level and print each order's fate, every figure and
    /// the log.
    Script {
        /// The level file.
        level: PathBuf,
        /// The orders file (RON list of orders).
        orders: PathBuf,
        /// Dice seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// JSON output.
        #[arg(long)]
        json: bool,
    },
}

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    match cli.command {
        None => open_window(cli.level),
        Some(Command::Check { files }) => check::run(&files),
        Some(Command::Reach {
            level,
            unit,
            gait,
            allowance,
            json,
        }) => reach::run(&level, &unit, gait.as_deref(), allowance.as_deref(), json),
        Some(Command::Script {
            level,
            orders,
            seed,
            json,
        }) => script::run(&level, &orders, seed, json),
    }
}

fn open_window(level: Option<PathBuf>) -> i32 {
    let loaded = match &level {
        Some(p) => crate::level::load_level_file(p),
        None => {
            crate::level::load_level_str(crate::level::DEFAULT_LEVEL, "<embedded default>", None)
        }
    };
    match loaded {
        Ok(l) => {
            crate::ui::run_window(l);
            0
        }
        Err(e) => {
            eprintln!("{e}");
            2
        }
    }
}

/// Loads a level or prints its errors (exit code 2).
fn load_or_report(path: &std::path::Path) -> Result<crate::level::Level, i32> {
    crate::level::load_level_file(path).map_err(|e| {
        eprintln!("{e}");
        2
    })
}

/// Writes command output to stdout; a closed pipe (`warhorse reach … | head`) ends the output
/// quietly instead of panicking.
fn emit(text: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}

/// Prints a value as pretty JSON; `Err(exit code)` if it cannot be serialised.
fn emit_json<T: serde::Serialize>(value: &T) -> Result<(), i32> {
    match serde_json::to_string_pretty(value) {
        Ok(s) => {
            emit(&format!("{s}\n"));
            Ok(())
        }
        Err(e) => {
            eprintln!("{e}");
            Err(2)
        }
    }
}
