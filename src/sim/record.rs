//! Saved games and undo, both by replay: a game is its level, its ruleset, its seed and the
//! orders accepted so far. Because the dice are seeded, replaying the orders rebuilds exactly
//! the same world — so a save is small, never goes stale against the code that reads it, and
//! undo is "replay all but the last order".

use super::order::Order;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io::Write as _;
use std::path::Path;

/// The save-file format version this build writes and reads.
pub const SAVE_FORMAT: u32 = 1;

/// Everything needed to rebuild a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Always "warhorse": tells a save from any other RON file.
    pub game: String,
    /// [`SAVE_FORMAT`] of the build that wrote it.
    pub format: u32,
    /// The level's name, for the load screen.
    pub level_name: String,
    /// Where the level came from when the game began.
    pub level_source: String,
    /// The dice seed.
    pub seed: u64,
    /// A game played by email rolls each turn from its own seed, made by both players
    /// together (turn 1 first); empty in a game with one seed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turn_seeds: Vec<u64>,
    /// The level file's text.
    pub level: String,
    /// The ruleset, as RON (saved whole so the game loads even if the file changed).
    pub ruleset: String,
    /// Orders accepted so far, in order.
    pub orders: Vec<Order>,
    /// A hash of the board every [`check_every`] orders, as the game was played: a
    /// replay (a load, an undo, another build) that parts from it says after which order
    /// (issue 30). Empty in saves written before it was kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<StateCheck>,
    /// Who plays each side, in side order, so a loaded game (or an undo, which replays the
    /// record) is played by the same people and computers at the same strength. Empty in a
    /// game nobody assigned (the command line) and in saves written before it was kept: the
    /// level file's sides are used then.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<Player>,
}

/// How many orders apart the record keeps a hash of the board, in a level of up to
/// [`FIGURES_PER_STEP`] figures.
pub const STATE_CHECK_EVERY: usize = 50;

/// Figures a level may have for each [`STATE_CHECK_EVERY`] orders between two hashes.
pub const FIGURES_PER_STEP: usize = 256;

/// How many orders apart the record of a level of `figures` figures keeps a hash of the
/// board: a hash reads every figure, so a large level takes them further apart (at 4096
/// figures every 800 orders), keeping their cost per order bounded (issue 33 item 3). Always a
/// multiple of [`STATE_CHECK_EVERY`], so a record written with hashes closer together is still
/// checked wherever this game takes one.
pub fn check_every(figures: usize) -> usize {
    STATE_CHECK_EVERY * (figures / FIGURES_PER_STEP).max(1)
}

/// The board's hash after some order of the record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateCheck {
    /// How many orders had been played.
    pub after: usize,
    /// [`super::Game::state_hash`] then, hex.
    pub hash: String,
}

/// Who plays one side of a saved game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// A person at this computer, or the computer.
    pub control: crate::level::Control,
    /// The computer's strength (ignored for a person). The field keeps its name `ai` and the
    /// strengths their names (`Table`, `Lookahead`) so that older saves still load.
    pub ai: super::seat::Strength,
}

/// Why a save could not be written or read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveError {
    /// The file could not be read or written.
    Io(String),
    /// Not a Warhorse save, or damaged.
    Corrupt(String),
    /// Written by a build with another save format.
    Incompatible {
        /// The file's format.
        found: u32,
    },
    /// It parses, but replaying it does not work (a level or rules change refuses an order).
    Replay(String),
    /// A level file, offered where a save was expected (the Load dialog).
    Level,
}

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveError::Io(e) => write!(f, "the save could not be read or written: {e}"),
            SaveError::Corrupt(e) => {
                write!(f, "this is not a Warhorse save, or it is damaged: {e}")
            }
            SaveError::Incompatible { found } => write!(
                f,
                "this save was written by a Warhorse with save format {found}; this one reads \
                 format {SAVE_FORMAT}"
            ),
            SaveError::Replay(e) => write!(f, "the saved game no longer replays: {e}"),
            SaveError::Level => write!(
                f,
                "this is a level, not a saved game: start it from the start screen's list of \
                 levels (or `warhorse --level FILE`)"
            ),
        }
    }
}

impl std::error::Error for SaveError {}

/// The start of the first line of every save this build writes: a RON comment (so any
/// build still reads the file) holding a [`SaveHeader`].
pub const HEADER_PREFIX: &str = "// warhorse save ";

/// What the Load dialog shows of a save, written as the save's first line so that listing
/// saves reads one line of each, never a whole file: `// warhorse save (format: 1,
/// level_name: "Tiny", orders: 3)`. The file's modification time gives the date.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SaveHeader {
    /// [`SAVE_FORMAT`] of the build that wrote it.
    pub format: u32,
    /// The level's name.
    pub level_name: String,
    /// How many orders the game holds.
    pub orders: usize,
}

impl SaveHeader {
    /// The header of a save's text, from its first line; `None` when the line is not one
    /// (an older save, or not a save). Reads nothing past the first line.
    pub fn of_text(text: &str) -> Option<SaveHeader> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let line = text.lines().next()?;
        let rest = line.strip_prefix(HEADER_PREFIX)?;
        #[derive(Deserialize)]
        struct Lenient {
            format: u32,
            #[serde(default)]
            level_name: String,
            #[serde(default)]
            orders: usize,
        }
        let h: Lenient = ron::Options::default().from_str(rest).ok()?;
        Some(SaveHeader {
            format: h.format,
            level_name: h.level_name,
            orders: h.orders,
        })
    }

    /// What a save's first bytes say about it, for listing saves without parsing them: the
    /// header line if there is one, else (a save written before headers) the record's
    /// leading `game`, `format` and `level_name` fields with no order count. `Err` says why
    /// the file is not a save this build reads.
    pub fn of_head(head: &str) -> Result<SaveHeader, SaveError> {
        if let Some(h) = SaveHeader::of_text(head) {
            return match h.format {
                SAVE_FORMAT => Ok(h),
                found => Err(SaveError::Incompatible { found }),
            };
        }
        let lead = Leading::of(head);
        lead.check()?;
        Ok(SaveHeader {
            format: SAVE_FORMAT,
            level_name: lead.level_name.unwrap_or_default(),
            orders: 0,
        })
    }
}

/// The `game`, `format` and `level_name` a record's text starts with (as the save writer
/// puts them first), found without parsing the rest.
struct Leading {
    game: Option<String>,
    format: Option<u32>,
    level_name: Option<String>,
    /// It starts as a level file does (`name`, then `ruleset`, `width` or `description`),
    /// not as a save.
    level: bool,
}

impl Leading {
    fn of(text: &str) -> Leading {
        let mut lead = Leading {
            game: None,
            format: None,
            level_name: None,
            level: false,
        };
        let fields = crate::level::load::leading_fields(text, 3);
        lead.level = fields.first().is_some_and(|(n, _)| n == "name")
            && fields
                .iter()
                .any(|(n, _)| matches!(n.as_str(), "ruleset" | "width" | "height" | "description"));
        for (name, value) in fields {
            match name.as_str() {
                "game" => lead.game = ron::from_str(&value).ok(),
                "format" => lead.format = value.parse().ok(),
                "level_name" => lead.level_name = ron::from_str(&value).ok(),
                _ => {}
            }
        }
        lead
    }

    /// Refuses what is certainly another game's file or another format, or a level.
    fn check(&self) -> Result<(), SaveError> {
        if self.level {
            return Err(SaveError::Level);
        }
        match (&self.game, self.format) {
            (Some(g), _) if g != "warhorse" => {
                Err(SaveError::Corrupt(format!("it says it is a {g:?} file")))
            }
            (Some(_), Some(found)) if found != SAVE_FORMAT => {
                Err(SaveError::Incompatible { found })
            }
            (Some(_), Some(_)) => Ok(()),
            _ => Err(SaveError::Corrupt("no `game` and `format` header".into())),
        }
    }
}

impl Record {
    /// The level this record plays, rebuilt from the level and ruleset saved inside it. An
    /// error names the place in the save's own copy of the level (never the file the level
    /// first came from, which may have changed or be gone since).
    pub fn level(&self) -> Result<crate::level::Level, SaveError> {
        let inside = |what: &str, es: crate::level::LoadErrors| {
            let lines: Vec<String> = es
                .errors()
                .iter()
                .map(|e| {
                    format!(
                        "in the {what} saved inside it, line {}, column {}: {}",
                        e.line, e.column, e.message
                    )
                })
                .collect();
            SaveError::Corrupt(lines.join("\n"))
        };
        let rules = crate::level::load_ruleset_str(&self.ruleset, "<saved ruleset>")
            .map_err(|e| inside("ruleset", e))?;
        crate::level::load_level_str_with(&self.level, &self.level_source, rules)
            .map_err(|e| inside("level", e))
    }

    /// The save file's text: the [`SaveHeader`] line, then the record.
    pub fn to_text(&self) -> String {
        let cfg = ron::ser::PrettyConfig::new().struct_names(true);
        let body = ron::ser::to_string_pretty(self, cfg).unwrap_or_default();
        let header = SaveHeader {
            format: self.format,
            level_name: self.level_name.clone(),
            orders: self.orders.len(),
        };
        match ron::to_string(&header) {
            Ok(h) if !h.contains(['\n', '\r']) => format!("{HEADER_PREFIX}{h}\n{body}"),
            _ => body,
        }
    }

    /// Reads a save's text, checking that it is one and that this build reads its format.
    /// The format is checked first from the header line (or the record's leading fields in
    /// an older save), so a save of another format is refused without parsing it; then the
    /// text is parsed once, typed, with the conveniences and error positions of level files.
    pub fn from_text(text: &str) -> Result<Record, SaveError> {
        match SaveHeader::of_text(text) {
            Some(h) if h.format != SAVE_FORMAT => {
                return Err(SaveError::Incompatible { found: h.format });
            }
            Some(_) => {}
            None => {
                let lead = Leading::of(text);
                if lead.level || (lead.game.is_some() && lead.format.is_some()) {
                    lead.check()?;
                }
            }
        }
        let rec: Record = crate::level::load::parse_ron_text(
            text,
            "",
            crate::level::input::MAX_SAVE_BYTES,
            &["level", "ruleset"],
        )
        .map_err(|es| {
            let msg = es.errors().first().map_or_else(String::new, |e| {
                format!("line {}, column {}: {}", e.line, e.column, e.message)
            });
            SaveError::Corrupt(msg)
        })?;
        if rec.game != "warhorse" {
            return Err(SaveError::Corrupt(format!(
                "it says it is a {:?} file",
                rec.game
            )));
        }
        if rec.format != SAVE_FORMAT {
            return Err(SaveError::Incompatible { found: rec.format });
        }
        Ok(rec)
    }
}

/// Writes `text` to `path` atomically: a temporary file beside it, flushed to disk, then
/// renamed over the old one, the folder synced. A crash or a full disk leaves the previous
/// save intact. A text over [`MAX_SAVE_BYTES`](crate::level::input::MAX_SAVE_BYTES) is not
/// written at all: the game could not read it back.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), SaveError> {
    let limit = crate::level::input::MAX_SAVE_BYTES;
    if text.len() as u64 > limit {
        return Err(SaveError::Io(format!(
            "{}: the save would be {} bytes, over the {limit} bytes a save may hold, so it was \
             not written (the previous save is kept)",
            path.display(),
            text.len()
        )));
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| SaveError::Io(format!("{}: {e}", dir.display())))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let io = |e: std::io::Error| SaveError::Io(format!("{}: {e}", tmp.display()));
    let mut f = std::fs::File::create(&tmp).map_err(io)?;
    f.write_all(text.as_bytes()).map_err(io)?;
    f.sync_all().map_err(io)?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        SaveError::Io(format!("{}: {e}", path.display()))
    })?;
    // The rename itself is durable only once the folder is synced.
    sync_dir(dir);
    Ok(())
}

/// Reads a save file through the shared reader: a regular file only, at most
/// [`MAX_SAVE_BYTES`](crate::level::input::MAX_SAVE_BYTES), parsed once.
pub fn read_save(path: &Path) -> Result<Record, SaveError> {
    use crate::level::input::{MAX_SAVE_BYTES, ReadError, read_text};
    let shown = crate::level::error::shown_path(path);
    let text = read_text(path, MAX_SAVE_BYTES).map_err(|e| match e {
        ReadError::Io(_) | ReadError::NotAFile(_) => SaveError::Io(format!("{shown}: {e}")),
        ReadError::TooBig { .. } => SaveError::Corrupt(format!("{shown}: {e}")),
        ReadError::NotUtf8 { line, column } => {
            SaveError::Corrupt(format!("line {line}, column {column}: {e}"))
        }
    })?;
    Record::from_text(&text)
}

/// Makes what was just created or renamed in `dir` durable (a no-op where folders cannot be
/// opened, as on Windows).
pub fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}
