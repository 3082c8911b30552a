//! Saved games as the window sees them: a `saves/` directory of [`Record`] files written by
//! `Game::save` (atomically), the list the Load dialog shows, and the start-of-turn autosave.
//!
//! [`Record`]: crate::sim::record::Record

use crate::level::Level;
use crate::level::input::{SAVE_HEAD_BYTES, read_head};
use crate::sim::Game;
use crate::sim::record::{HEADER_PREFIX, SaveError, SaveHeader, read_save};
use bevy::prelude::*;
use std::path::{Path, PathBuf};

/// The autosave's file name inside the saves directory.
pub const AUTOSAVE: &str = "autosave.ron";
/// The quick save's file name (Ctrl+S).
pub const QUICKSAVE: &str = "quicksave.ron";
/// Longest save name accepted, in characters.
pub const MAX_NAME: usize = 64;

/// Where saves are written and listed; `saves/` in the working directory unless a test or
/// an embedding app points it elsewhere.
#[derive(Resource, Clone, Debug)]
pub struct SaveDir(pub PathBuf);

impl Default for SaveDir {
    fn default() -> Self {
        SaveDir(PathBuf::from("saves"))
    }
}

/// The file a save name is written to: letters, digits, spaces, `-` and `_` only (so a
/// name can never leave the directory), `.ron` added. `Err` says what is wrong with it.
pub fn save_path(dir: &Path, name: &str) -> Result<PathBuf, String> {
    let name = name.trim();
    let stem = name.strip_suffix(".ron").unwrap_or(name).trim();
    if stem.is_empty() {
        return Err("give the save a name".into());
    }
    if stem.chars().count() > MAX_NAME {
        return Err(format!("a save name is at most {MAX_NAME} characters"));
    }
    if let Some(c) = stem
        .chars()
        .find(|c| !(c.is_alphanumeric() || matches!(c, ' ' | '-' | '_')))
    {
        return Err(format!(
            "{c:?} cannot be in a save name (letters, digits, spaces, - and _)"
        ));
    }
    Ok(dir.join(format!("{stem}.ron")))
}

/// A save file as the Load dialog lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveInfo {
    /// The file.
    pub path: PathBuf,
    /// Its name without `.ron`.
    pub name: String,
    /// The level it plays and how many orders in, or why it cannot be read.
    pub summary: Result<String, String>,
    /// Seconds since the Unix epoch it was last written, for sorting (0 if unknown).
    pub modified: u64,
}

/// Every `*.ron` in `dir`, newest first. A file that is not a readable save is listed with
/// its error, so the player sees it rather than wondering where it went. Only the first
/// line of each file is read (its [`SaveHeader`]; an older save's leading fields), through
/// the shared reader, so a huge file, a FIFO or a device in `saves/` never slows or blocks
/// the dialog; the full check happens when a save is loaded.
pub fn list_saves(dir: &Path) -> Vec<SaveInfo> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<SaveInfo> = read
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "ron"))
        .map(|path| {
            let modified = std::fs::metadata(&path)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_secs());
            let summary = summarise(&path, modified);
            let name = path
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
            SaveInfo {
                path,
                name,
                summary,
                modified,
            }
        })
        .collect();
    out.sort_by(|a, b| b.modified.cmp(&a.modified).then(a.name.cmp(&b.name)));
    out
}

/// The Load dialog's line for one file, from its first bytes only.
fn summarise(path: &Path, modified: u64) -> Result<String, String> {
    let head = read_head(path, SAVE_HEAD_BYTES)
        .map_err(|e| SaveError::Io(format!("{}: {e}", path.display())).to_string())?;
    let good = match std::str::from_utf8(&head) {
        Ok(t) => t,
        Err(e) => {
            std::str::from_utf8(head.get(..e.valid_up_to()).unwrap_or_default()).unwrap_or_default()
        }
    };
    let h = SaveHeader::of_head(good).map_err(|e| e.to_string())?;
    let when = if modified > 0 {
        format!(" — {}", utc_text(modified))
    } else {
        String::new()
    };
    // Names are printed as the Load dialog's text: control characters are shown escaped.
    let level: String = h.level_name.chars().flat_map(char::escape_debug).collect();
    Ok(if h.orders > 0 || good.starts_with(HEADER_PREFIX) {
        format!("{level} — {} orders{when}", h.orders)
    } else {
        format!("{level}{when}")
    })
}

/// `2026-11-24 23:51 UTC` for seconds since the Unix epoch (the proleptic Gregorian calendar,
/// by the days-from-civil algorithm), so the dialog shows when a save was written.
pub fn utc_text(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let (hh, mm) = ((secs % 86_400) / 3600, (secs % 3600) / 60);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02} {hh:02}:{mm:02} UTC")
}

/// Saves `game` under `name` in `dir`; the path written, or the message for the dialog.
pub fn save_named(game: &Game, dir: &Path, name: &str) -> Result<PathBuf, String> {
    let path = save_path(dir, name)?;
    game.save(&path).map_err(|e| e.to_string())?;
    Ok(path)
}

/// Reads a save into a new game and the level it plays. The current game is not touched:
/// the caller replaces it only on `Ok`, so a corrupt or incompatible file leaves everything
/// as it was.
pub fn load_game(path: &Path) -> Result<(Game, Level), SaveError> {
    let record = read_save(path)?;
    let level = crate::ui::bridge::level_of_record(&record).map_err(SaveError::Corrupt)?;
    Ok((Game::from_record(&record)?, level))
}

/// Saves at the start of every turn: remembers the last turn seen so that a turn number
/// change (and only that) triggers a save.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Autosave {
    /// The turn of the game on screen when last looked at.
    pub last_turn: Option<u32>,
    /// No autosaves (while a finished battle is watched again: its autosave stays the
    /// finished game).
    pub paused: bool,
}

impl Autosave {
    /// True when `turn` is a new turn since the last call (the first turn of a new game
    /// included). Turn 0 — before the first initiative — never is.
    pub fn due(&mut self, turn: u32) -> bool {
        let new = turn > 0 && self.last_turn != Some(turn) && !self.paused;
        self.last_turn = Some(turn);
        new
    }

    /// Starts watching a game that was loaded: its current turn is not new.
    pub fn loaded(turn: u32) -> Autosave {
        Autosave {
            last_turn: Some(turn),
            paused: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn save_names_stay_in_the_directory() {
        let d = Path::new("saves");
        assert_eq!(save_path(d, "my game"), Ok(d.join("my game.ron")));
        assert_eq!(save_path(d, " turn_3.ron "), Ok(d.join("turn_3.ron")));
        for bad in ["", "  ", ".ron", "../x", "a/b", "a\\b", "c:", "x\0"] {
            assert!(save_path(d, bad).is_err(), "{bad:?}");
        }
        assert!(save_path(d, &"x".repeat(MAX_NAME + 1)).is_err());
    }

    #[test]
    fn dates_are_shown_in_utc() {
        assert_eq!(utc_text(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_text(951_782_400 + 3_660), "2000-02-29 01:01 UTC");
        assert_eq!(utc_text(1_795_996_800), "2026-11-30 00:00 UTC");
    }

    #[test]
    fn autosave_is_due_once_per_new_turn() {
        let mut a = Autosave::default();
        assert!(!a.due(0));
        assert!(a.due(1));
        assert!(!a.due(1));
        assert!(a.due(2));
        let mut l = Autosave::loaded(3);
        assert!(!l.due(3));
        assert!(l.due(4));
    }
}
