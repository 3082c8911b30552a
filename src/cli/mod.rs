//! The command line (clap): `warhorse` opens the window; `check`, `reach` and `script` answer
//! rules questions without one; `sim` and `tournament` play the computer against itself;
//! `serve` and `join` play across machines (issue 30).

mod check;
mod email;
mod join;
mod reach;
mod script;
mod serve;
mod sim;
mod tournament;

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
    /// Play AI against AI without a window and print winners, turns, losses and timings.
    Sim {
        /// The level file.
        level: PathBuf,
        /// Dice seed of the first game; game i uses seed + i.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Number of games.
        #[arg(long, default_value_t = 1)]
        games: u32,
        /// Turn limit per game.
        #[arg(long, default_value_t = 20)]
        turns: u32,
        /// How the first side plays: table (the baseline), lookahead, commander or foresight (the strongest).
        #[arg(long, default_value = "table", value_parser = parse_ai)]
        red: crate::ai::AiLevel,
        /// How the second side plays: table (the baseline), lookahead, commander or foresight (the strongest).
        #[arg(long, default_value = "table", value_parser = parse_ai)]
        blue: crate::ai::AiLevel,
        /// The first side is a scripted plain plan instead (rush, hold or flank; see
        /// docs/ai.md, "The gauntlet"): it never rolls on the actions table.
        #[arg(long, value_parser = parse_plan, conflicts_with = "blue_plan")]
        red_plan: Option<crate::ai::plain::Plan>,
        /// The second side is a scripted plain plan instead (rush, hold or flank).
        #[arg(long, value_parser = parse_plan)]
        blue_plan: Option<crate::ai::plain::Plan>,
        /// JSON output (timings under their own `timing` key).
        #[arg(long)]
        json: bool,
        /// Also print each game's record (the orders accepted, in order) and its log.
        #[arg(long)]
        log: bool,
    },
    /// Play one AI strength against another on every level, in both seatings on the same
    /// seeds, and print each level's win share with its 95% interval (issue 13).
    Tournament {
        /// Level files (default: every levels/*.ron).
        levels: Vec<PathBuf>,
        /// Dice seed of the first pair; pair i uses seed + i.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Seeds per level, each played twice, once with either strength on the first side.
        #[arg(long, default_value_t = 200)]
        pairs: u32,
        /// Turn limit per game (a level's own limit ends it sooner).
        #[arg(long, default_value_t = 20)]
        turns: u32,
        /// The opponent: table (the baseline), lookahead, commander or foresight (the strongest).
        #[arg(long, default_value = "table", value_parser = parse_ai)]
        a: crate::ai::AiLevel,
        /// The strength under test.
        #[arg(long, default_value = "commander", value_parser = parse_ai)]
        b: crate::ai::AiLevel,
        /// The exploitation test: the opponent guesses every dodge Back and meets every
        /// charge with STAND GROUND and WEAPON PARRY, whatever its AI would choose.
        #[arg(long)]
        a_fixed: bool,
        /// The opponent is a scripted plain plan instead of the computer: rush, hold or
        /// flank (see docs/ai.md, "The gauntlet"). It never rolls on the actions table.
        #[arg(long, value_parser = parse_plan, conflicts_with = "a_fixed")]
        a_plan: Option<crate::ai::plain::Plan>,
        /// The gauntlet: `b` against rush, hold, flank and the fixed counter (at `a`) in
        /// turn, a table each, then every opponent pooled.
        #[arg(long, conflicts_with_all = ["a_fixed", "a_plan"])]
        gauntlet: bool,
        /// Threads (default: the machine's cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// JSON output.
        #[arg(long)]
        json: bool,
    },
    /// Host a game for players on other machines: prints the join code, plays the sides
    /// given to the computer, autosaves, and stops when the battle is over.
    Serve(serve::ServeArgs),
    /// Play by email: begin a game, answer its first file, or read a turn file and write
    /// the answer. Files are checked by a chain of hashes; face-down choices travel sealed.
    #[command(subcommand)]
    Email(email::EmailCommand),
    /// Join a hosted game at the terminal: prints the log, sends each typed line as an
    /// order (as in an orders file, e.g. `EndSide`).
    Join {
        /// The join code the host shows (SECRET@ADDRESS:PORT).
        code: String,
        /// The side to play (0 is the level's first); default: any free side.
        #[arg(long, conflicts_with = "watch")]
        side: Option<u8>,
        /// Watch: the public view alone.
        #[arg(long)]
        watch: bool,
        /// Your name, for the host's log.
        #[arg(long, default_value = "player")]
        name: String,
    },
}

/// Parses `SIDE` or `SIDE=STRENGTH` for `serve --computer`.
pub(crate) fn parse_computer(s: &str) -> Result<(u8, crate::ai::AiLevel), String> {
    let (side, level) = s.split_once('=').unwrap_or((s, "commander"));
    let side = side
        .trim()
        .parse::<u8>()
        .map_err(|_| format!("{side:?} is not a side number (0, 1, …)"))?;
    Ok((side, parse_ai(level)?))
}

/// Parses a plain plan's name for clap.
fn parse_plan(s: &str) -> Result<crate::ai::plain::Plan, String> {
    crate::ai::plain::Plan::parse(s)
        .ok_or_else(|| format!("unknown plan {s:?}: expected rush, hold or flank"))
}

/// Parses an AI level name for clap.
fn parse_ai(s: &str) -> Result<crate::ai::AiLevel, String> {
    crate::ai::AiLevel::parse(s).ok_or_else(|| {
        format!("unknown AI {s:?}: expected table, lookahead, commander or foresight")
    })
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
        Some(Command::Sim {
            level,
            seed,
            games,
            turns,
            red,
            blue,
            red_plan,
            blue_plan,
            json,
            log,
        }) => sim::run(
            &level,
            &sim::SimArgs {
                seed,
                games,
                turns,
                red,
                blue,
                plain: red_plan.map(|p| (0, p)).or(blue_plan.map(|p| (1, p))),
                json,
                log,
            },
        ),
        Some(Command::Serve(args)) => serve::run(&args),
        Some(Command::Email(cmd)) => email::run(&cmd),
        Some(Command::Join {
            code,
            side,
            watch,
            name,
        }) => {
            let wish = match (side, watch) {
                (_, true) => crate::net::protocol::Wish::Watch,
                (Some(s), false) => crate::net::protocol::Wish::Side(s),
                (None, false) => crate::net::protocol::Wish::AnySide,
            };
            join::run(&code, wish, &name)
        }
        Some(Command::Tournament {
            levels,
            seed,
            pairs,
            turns,
            a,
            b,
            a_fixed,
            a_plan,
            gauntlet,
            jobs,
            json,
        }) => tournament::run(&tournament::TournamentArgs {
            levels,
            seed,
            pairs,
            turns,
            a,
            b,
            a_fixed,
            a_plan,
            gauntlet,
            jobs: jobs.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
            }),
            json,
        }),
    }
}

/// Why no window can open here, if that can be told before trying: on Linux and the BSDs the
/// window is an X11 window, so it needs `DISPLAY` naming a display that exists (the
/// windowing library would otherwise panic deep inside). `None` where a window may open.
pub fn no_display() -> Option<String> {
    if cfg!(any(
        target_os = "windows",
        target_os = "macos",
        target_os = "ios"
    )) {
        return None;
    }
    let words = "the window needs a graphical display: run warhorse in a desktop session (the \
                 commands check, reach, script, sim and tournament need none)";
    let display = std::env::var("DISPLAY").unwrap_or_default();
    if display.trim().is_empty() {
        return Some(format!("no display (DISPLAY is not set): {words}"));
    }
    // A local display `:N` is a socket in /tmp/.X11-unix; none there, no server to reach.
    let local = display
        .strip_prefix(':')
        .and_then(|n| n.split('.').next())
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    if let Some(n) = local
        && !std::path::Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
    {
        let shown = crate::level::error::shown(&display);
        return Some(format!("no display {shown} is running: {words}"));
    }
    None
}

/// The words Bevy's renderer (bevy_render 0.19) panics with when it finds no graphics
/// adapter: no Vulkan driver, or none that works.
const NO_GPU_PANIC: &str = "Unable to find a GPU";

/// What to tell a player for a panic whose message is `message`, if it is the renderer's
/// finding no graphics adapter: that can only be found by asking the drivers, as the renderer
/// does when the window opens, so the window explains it instead of showing a panic.
pub fn no_adapter_words(message: &str) -> Option<String> {
    message.contains(NO_GPU_PANIC).then(|| {
        "warhorse: no graphics adapter: the window draws with Vulkan, and no Vulkan driver \
         answered (on Linux install your graphics card's driver, or Mesa's: mesa-vulkan-drivers; \
         the commands check, reach, script, sim and tournament need none)"
            .to_string()
    })
}

/// Lets [`no_adapter_words`] speak for the renderer's panic, and exits with status 1; any
/// other panic goes on to the hook there was.
fn explain_a_missing_adapter() {
    let before = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or_default();
        if let Some(words) = no_adapter_words(message) {
            eprintln!("{words}");
            std::process::exit(1);
        }
        before(info);
    }));
}

fn open_window(level: Option<PathBuf>) -> i32 {
    if let Some(why) = no_display() {
        eprintln!("warhorse: {why}");
        return 1;
    }
    explain_a_missing_adapter();
    let Some(level) = level else {
        let exit = crate::ui::screens::run_start_screen();
        return i32::from(exit != bevy::app::AppExit::Success);
    };
    match crate::level::load_level_file(&level) {
        Ok(l) => {
            if crate::ui::run_window(l) == bevy::app::AppExit::Success {
                0
            } else {
                1
            }
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
