//! Saved games and undo, both by replay: a game is its level, its ruleset, its seed and the
//! orders accepted so far. Because the dice are seeded, replaying the orders rebuilds exactly
//! the same world — so a save is small, never goes stale against the code that reads it, and
//! undo is "replay all but the last order".

use super::orders::Order;
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
    /// The level file's text.
    pub level: String,
    /// The ruleset, as RON (saved whole so the game loads even if the file changed).
    pub ruleset: String,
    /// Orders accepted so far, in order.
    pub orders: Vec<Order>,
    /// Who plays each side, in side order, so a loaded game (or an undo, which replays the
    /// record) is played by the same people and computers at the same strength. Empty in a
    /// game nobody assigned (the command line) and in saves written before it was kept: the
    /// level file's sides are used then.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<Player>,
}

/// Who plays one side of a saved game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// A person at this computer, or the computer.
    pub control: crate::level::Control,
    /// The computer's strength (ignored for a person).
    pub ai: crate::ai::AiLevel,
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
        }
    }
}

impl std::error::Error for SaveError {}

impl Record {
    /// The save file's text.
    pub fn to_text(&self) -> String {
        let cfg = ron::ser::PrettyConfig::new().struct_names(true);
        ron::ser::to_string_pretty(self, cfg).unwrap_or_default()
    }

    /// Reads a save's text, checking that it is one and that this build reads its format.
    pub fn from_text(text: &str) -> Result<Record, SaveError> {
        #[derive(Deserialize)]
        struct Header {
            game: String,
            format: u32,
        }
        let opts = ron::Options::default();
        // The header first, leniently, so an incompatible save gets the right message.
        let header: Header = opts
            .from_str::<ron::Value>(text)
            .ok()
            .and_then(|v| v.into_rust::<Header>().ok())
            .ok_or_else(|| SaveError::Corrupt("no `game` and `format` header".into()))?;
        if header.game != "warhorse" {
            return Err(SaveError::Corrupt(format!(
                "it says it is a {:?} file",
                header.game
            )));
        }
        if header.format != SAVE_FORMAT {
            return Err(SaveError::Incompatible {
                found: header.format,
            });
        }
        opts.from_str(text).map_err(|e| {
            SaveError::Corrupt(format!(
                "line {}, column {}: {}",
                e.span.start.line, e.span.start.col, e.code
            ))
        })
    }
}

/// Writes `text` to `path` atomically: a temporary file beside it, flushed to disk, then
/// renamed over the old one. A crash or a full disk leaves the previous save intact.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), SaveError> {
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
    })
}

/// Reads a save file.
pub fn read_save(path: &Path) -> Result<Record, SaveError> {
    let meta =
        std::fs::metadata(path).map_err(|e| SaveError::Io(format!("{}: {e}", path.display())))?;
    if meta.len() > 64 * 1024 * 1024 {
        return Err(SaveError::Corrupt(format!(
            "{} is larger than any save",
            path.display()
        )));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| SaveError::Io(format!("{}: {e}", path.display())))?;
    Record::from_text(&text)
}
