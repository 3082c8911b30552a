//! Saved games as the window sees them: a `saves/` directory of [`Record`] files written by
//! `Game::save` (atomically), the list the Load dialog shows, and the autosave (one per game,
//! every order journaled: [`crate::sim::journal`]).
//!
//! [`Record`]: crate::sim::record::Record

use super::actions::{Dialog, Overlays, install, message, notice, playable_controls};
use super::host::GameHost;
use crate::level::Level;
use crate::level::input::{SAVE_HEAD_BYTES, read_head};
use crate::sim::Game;
use crate::sim::record::{HEADER_PREFIX, SaveError, SaveHeader};
use bevy::prelude::*;
use std::path::{Path, PathBuf};

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

/// A save name proposed for a game of the level `level` (the end screen's "Tiny finished"):
/// the level's name with what a save name may not hold turned into spaces, cut to fit, and
/// `what` after it, so the save dialog always accepts it as proposed.
pub fn proposed_name(level: &str, what: &str) -> String {
    let clean: String = level
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_') {
                c
            } else {
                ' '
            }
        })
        .collect();
    let words: Vec<&str> = clean.split_whitespace().collect();
    let room = MAX_NAME.saturating_sub(what.chars().count() + 1);
    let stem: String = words.join(" ").chars().take(room).collect();
    let stem = stem.trim();
    if stem.is_empty() {
        what.to_string()
    } else {
        format!("{stem} {what}")
    }
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
    let journal = if crate::sim::journal::is_autosave(path)
        && crate::sim::journal::journal_of(path).is_file()
    {
        " at its start, the rest in its journal"
    } else {
        ""
    };
    Ok(if h.orders > 0 || good.starts_with(HEADER_PREFIX) {
        format!("{level} — {} orders{journal}{when}", h.orders)
    } else {
        format!("{level}{when}")
    })
}

/// `2026-11-24 23:51 UTC` for seconds since the Unix epoch (the proleptic Gregorian calendar,
/// by the days-from-civil algorithm), so the dialog shows when a save was written.
pub fn utc_text(secs: u64) -> String {
    let (y, m, d, hh, mm, _) = crate::sim::journal::civil(secs);
    format!("{y:04}-{m:02}-{d:02} {hh:02}:{mm:02} UTC")
}

/// Saves `game` under `name` in `dir`; the path written, or the message for the dialog.
pub fn save_named(game: &Game, dir: &Path, name: &str) -> Result<PathBuf, String> {
    let path = save_path(dir, name)?;
    game.save(&path).map_err(|e| e.to_string())?;
    Ok(path)
}

/// Reads a save into a new game and the level it plays, with why it stopped short when an
/// order no longer replays under this version's rules ([`Game::from_save`]). The current
/// game is not touched: the caller replaces it only on `Ok`, so a corrupt or incompatible
/// file leaves everything as it was.
pub fn load_game(path: &Path) -> Result<(Game, Level, Option<String>), SaveError> {
    // An autosave comes with its journal: the orders given since it began.
    let record = crate::sim::journal::read_with_journal(path)?;
    // Errors inside the save name the save (the file chosen), never a file on disk.
    let named = |e: SaveError| match e {
        SaveError::Corrupt(m) => {
            SaveError::Corrupt(format!("{}: {m}", crate::level::error::shown_path(path)))
        }
        e => e,
    };
    let level = record.level().map_err(named)?;
    let (game, stopped) = Game::from_save(&record).map_err(named)?;
    Ok((game, level, stopped))
}

/// Whether the game on screen is autosaved: every game is, except while a finished battle is
/// watched again (its autosave stays the finished game).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Autosave {
    /// No autosaves.
    pub paused: bool,
}

/// The game the start screen offers to resume: the newest autosave in `dir` whose game did
/// not end cleanly (the window was killed, the computer crashed), with its Load-dialog line.
pub fn resumable(dir: &Path) -> Option<SaveInfo> {
    let path = crate::sim::journal::crashed(dir)?;
    let modified = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs());
    let summary = crate::sim::journal::read_with_journal(&path)
        .map(|r| {
            let level: String = r.level_name.chars().flat_map(char::escape_debug).collect();
            format!("{level} — {} orders", r.orders.len())
        })
        .map_err(|e| e.to_string());
    let name = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    Some(SaveInfo {
        path,
        name,
        summary,
        modified,
    })
}

/// A game joined across machines is the host's to save: its window holds no seed, so a
/// save of it here would not replay. Says so and returns true for such a game.
fn refuse_replica(world: &mut World) -> bool {
    if !GameHost::get(world).is_some_and(|g| g.is_replica()) {
        return false;
    }
    world.resource_mut::<Overlays>().dialog = None;
    if let Some(by) = world.get_resource::<super::email::ByEmail>() {
        let words = format!(
            "A game by email is kept in {} after every order and every file: take it up with \
             By email… on the start screen.",
            by.folder.display()
        );
        message(world, "Kept by email", words);
        return true;
    }
    message(
        world,
        "Saved at the host",
        "The host keeps this game and autosaves it after every order; a player who leaves \
         joins again with the same code."
            .into(),
    );
    true
}

/// The Save dialog's OK: saves the game on screen under `name`; closes the dialog and the
/// menu, or shows the dialog again with what was wrong.
pub(super) fn save(world: &mut World, name: String) {
    let dir = world.resource::<SaveDir>().0.clone();
    if refuse_replica(world) {
        return;
    }
    let Some(game) = GameHost::get(world) else {
        return;
    };
    match save_named(game, &dir, &name) {
        Ok(path) => {
            let mut o = world.resource_mut::<Overlays>();
            o.dialog = None;
            o.menu = false;
            notice(world, format!("Saved to {}", path.display()));
        }
        Err(e) => {
            world.resource_mut::<Overlays>().dialog = Some(Dialog::Save {
                name,
                error: Some(e),
            })
        }
    }
}

/// Ctrl+S: the game on screen to [`QUICKSAVE`].
pub(super) fn quick_save(world: &mut World) {
    let path = world.resource::<SaveDir>().0.join(QUICKSAVE);
    if refuse_replica(world) {
        return;
    }
    let Some(game) = GameHost::get(world) else {
        return;
    };
    match game.save(&path) {
        Ok(()) => notice(world, format!("Saved to {}", path.display())),
        Err(e) => message(world, "Could not save", e.to_string()),
    }
}

/// Opens the Load dialog on the saves there are now.
pub(super) fn open_load(world: &mut World) {
    let dir = world.resource::<SaveDir>().0.clone();
    world.resource_mut::<Overlays>().dialog = Some(Dialog::Load(list_saves(&dir)));
}

/// Loads `path` in place of the game on screen, only if it loads; says so when it loaded
/// only as far as its orders replay.
pub(super) fn load(world: &mut World, path: &Path) {
    match load_game(path) {
        Ok((game, level, stopped)) => {
            // As they were when it was saved; an older save: as its level file says.
            let players = game.record().players.clone();
            let controls = if players.len() == level.file.sides.len() {
                world.insert_resource(super::ai_play::AiLevels(
                    players.iter().map(|p| p.ai).collect(),
                ));
                players.iter().map(|p| p.control).collect()
            } else {
                playable_controls(&level)
            };
            install(world, game, level, controls, Autosave::default());
            // A crashed game resumed lives on in the new autosave: it is offered no more.
            if crate::sim::journal::is_autosave(path)
                && !crate::sim::journal::ended(path)
                && let Err(e) = crate::sim::journal::mark_ended(path)
            {
                notice(world, format!("Autosave: {e}"));
                return;
            }
            match stopped {
                Some(why) => message(
                    world,
                    "Loaded in part",
                    format!("{}: {why}", crate::level::error::shown_path(path)),
                ),
                None => notice(world, format!("Loaded {}", path.display())),
            }
        }
        Err(e) => message(world, "Could not load", e.to_string()),
    }
}

/// Adds where saves go and the autosave's switch.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SaveDir>().init_resource::<Autosave>();
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
    fn the_proposed_name_is_accepted_by_the_save_dialog() {
        let d = Path::new("saves");
        assert_eq!(proposed_name("Tiny", "finished"), "Tiny finished");
        let long = "é".repeat(200);
        for level in [
            "Tiny",
            "Hastings (1066): the ridge!",
            "",
            "../..",
            long.as_str(),
        ] {
            let name = proposed_name(level, "finished");
            assert!(save_path(d, &name).is_ok(), "{level:?} → {name:?}");
        }
    }

    #[test]
    fn dates_are_shown_in_utc() {
        assert_eq!(utc_text(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_text(951_782_400 + 3_660), "2000-02-29 01:01 UTC");
        assert_eq!(utc_text(1_795_996_800), "2026-11-30 00:00 UTC");
    }
}
