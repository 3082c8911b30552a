//! The autosave: every game the window plays is kept in `saves/` as two files, so that a crash
//! costs at most the order being given when it came.
//!
//! - `autosave-<id>.ron`: the game as it began (or as it was loaded), a save like any other,
//!   written once, atomically (a temporary file, synced, renamed, the folder synced);
//! - `autosave-<id>.orders`: the journal, one line appended and synced to disk after every
//!   accepted order (`<index> <order as RON>`), every undo (`<orders left> undo`), and `end`
//!   when the game is left cleanly (quit, another game, the window closed).
//!
//! `<id>` is the UTC time the game began (`20261128-021233-001`), so every game has its own
//! pair and a game that crashed is never written over: the start screen offers to resume the
//! newest autosave without `end`. The [`KEEP_AUTOSAVES`] newest autosaves are kept; older
//! ones are removed when a game begins, except the newest that did not end cleanly.

use super::order::Order;
use super::record::{Record, SaveError, read_save, sync_dir, write_atomic};
use crate::level::input::{MAX_SAVE_BYTES, ReadError, read_tail, read_text};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// How every autosave's file name begins.
pub const AUTOSAVE_PREFIX: &str = "autosave-";
/// The journal's extension (beside the autosave's `.ron`).
pub const JOURNAL_EXT: &str = "orders";
/// How many autosaves are kept, newest first (and the newest that crashed, if older).
pub const KEEP_AUTOSAVES: usize = 5;
/// Largest journal written or read, in bytes: as much as a save may hold.
pub const MAX_JOURNAL_BYTES: u64 = MAX_SAVE_BYTES;
/// The journal's last line when the game was left cleanly.
pub const END_LINE: &str = "end";

/// The journal of the game being played: an open file, appended to and synced after every
/// order. Dropping it without [`Journal::close`] is what a crash does: the game is offered
/// for resuming.
#[derive(Debug)]
pub struct Journal {
    base: PathBuf,
    file: std::fs::File,
    written: u64,
    error: Option<String>,
}

/// The year, month, day, hour, minute and second of `secs` since the Unix epoch (UTC, the
/// proleptic Gregorian calendar by the days-from-civil algorithm).
pub fn civil(secs: u64) -> (i64, i64, i64, u64, u64, u64) {
    let days = (secs / 86_400) as i64;
    let (hh, mm, ss) = ((secs % 86_400) / 3600, (secs % 3600) / 60, secs % 60);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d, hh, mm, ss)
}

/// The journal beside an autosave (or any save path).
pub fn journal_of(base: &Path) -> PathBuf {
    base.with_extension(JOURNAL_EXT)
}

/// True for a file name the autosave writes (`autosave-….ron`).
pub fn is_autosave(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with(AUTOSAVE_PREFIX) && n.ends_with(".ron"))
}

/// Every autosave in `dir`, newest first (their names sort by the time the game began).
pub fn autosaves(dir: &Path) -> Vec<PathBuf> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = read
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| is_autosave(p))
        .collect();
    out.sort();
    out.reverse();
    out
}

/// True when the game of the autosave `base` was left cleanly (its journal ends with `end`).
/// Only the journal's last bytes are read.
pub fn ended(base: &Path) -> bool {
    read_tail(&journal_of(base), 64)
        .ok()
        .is_some_and(|t| t.trim_ascii_end().ends_with(END_LINE.as_bytes()))
}

/// The newest autosave whose game did not end cleanly: the game to offer to resume.
pub fn crashed(dir: &Path) -> Option<PathBuf> {
    autosaves(dir).into_iter().find(|p| !ended(p))
}

/// Removes autosaves past the [`KEEP_AUTOSAVES`] newest, except the newest one that did not
/// end cleanly.
fn rotate(dir: &Path, keep: usize) {
    let all = autosaves(dir);
    let crashed = all.iter().find(|p| !ended(p)).cloned();
    for old in all.iter().skip(keep) {
        if Some(old) != crashed.as_ref() {
            let _ = std::fs::remove_file(journal_of(old));
            let _ = std::fs::remove_file(old);
        }
    }
}

impl Journal {
    /// Begins the autosave of a game whose record is `record` in `dir`: rotates the older
    /// autosaves out, writes the record as `autosave-<id>.ron` and opens the empty journal.
    pub fn begin(dir: &Path, record: &Record) -> Result<Journal, SaveError> {
        std::fs::create_dir_all(dir)
            .map_err(|e| SaveError::Io(format!("{}: {e}", dir.display())))?;
        rotate(dir, KEEP_AUTOSAVES.saturating_sub(1));
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let (y, m, d, hh, mm, ss) = civil(secs);
        let stamp = format!("{y:04}{m:02}{d:02}-{hh:02}{mm:02}{ss:02}");
        let mut n = 1u32;
        let base = loop {
            let p = dir.join(format!("{AUTOSAVE_PREFIX}{stamp}-{n:03}.ron"));
            if !p.exists() && !journal_of(&p).exists() {
                break p;
            }
            n += 1;
        };
        write_atomic(&base, &record.to_text())?;
        let jp = journal_of(&base);
        let file = std::fs::OpenOptions::new()
            .create_new(true)
            .append(true)
            .open(&jp)
            .map_err(|e| SaveError::Io(format!("{}: {e}", jp.display())))?;
        sync_dir(dir);
        Ok(Journal {
            base,
            file,
            written: 0,
            error: None,
        })
    }

    /// The autosave this journal belongs to.
    pub fn base(&self) -> &Path {
        &self.base
    }

    fn append(&mut self, line: &str) {
        if self.error.is_some() {
            return;
        }
        let len = line.len() as u64 + 1;
        if self.written + len > MAX_JOURNAL_BYTES {
            self.error = Some(format!(
                "{}: the journal would pass {MAX_JOURNAL_BYTES} bytes; later orders are not \
                 autosaved",
                journal_of(&self.base).display()
            ));
            return;
        }
        let r = self
            .file
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| self.file.sync_data());
        match r {
            Ok(()) => self.written += len,
            Err(e) => self.error = Some(format!("{}: {e}", journal_of(&self.base).display())),
        }
    }

    /// Appends an accepted order, the `index`th of the game (0-based), and syncs it to disk.
    pub fn order(&mut self, index: usize, order: &Order) {
        match ron::to_string(order) {
            Ok(text) if !text.contains(['\n', '\r']) => self.append(&format!("{index} {text}")),
            _ => self.error = Some(format!("order {order} cannot be written to the journal")),
        }
    }

    /// Appends an undo that left `len` orders.
    pub fn undo(&mut self, len: usize) {
        self.append(&format!("{len} undo"));
    }

    /// Marks the game as left cleanly (not offered for resuming).
    pub fn close(&mut self) {
        self.append(END_LINE);
    }

    /// Why the last write failed, once.
    pub fn take_error(&mut self) -> Option<String> {
        self.error.take()
    }
}

/// Marks the autosave `base` as ended (after it was resumed into a new autosave).
pub fn mark_ended(base: &Path) -> Result<(), SaveError> {
    let jp = journal_of(base);
    let io = |e: std::io::Error| SaveError::Io(format!("{}: {e}", jp.display()));
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&jp)
        .map_err(io)?;
    f.write_all(format!("{END_LINE}\n").as_bytes())
        .and_then(|()| f.sync_data())
        .map_err(io)
}

/// One journal line: the index and the order, or `None` for an undo.
fn parse_line(line: &str) -> Result<(usize, Option<Order>), String> {
    let (n, rest) = line.split_once(' ').ok_or("expected `<index> <order>`")?;
    let n: usize = n.parse().map_err(|_| format!("{n:?} is not an index"))?;
    if rest == "undo" {
        return Ok((n, None));
    }
    let o: Order = ron::from_str(rest).map_err(|e| e.to_string())?;
    Ok((n, Some(o)))
}

/// Applies a journal's text to the orders the autosave began with. A last line cut short by
/// a crash is ignored; anything else that is not a journal line is an error naming its line.
pub fn apply_journal(orders: &mut Vec<Order>, text: &str) -> Result<(), String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let last = lines.len().saturating_sub(1);
    for (i, line) in lines.iter().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.is_empty() || line == END_LINE {
            continue;
        }
        let parsed = parse_line(line);
        match parsed {
            Ok((n, o)) if n <= orders.len() => {
                orders.truncate(n);
                orders.extend(o);
            }
            Ok((n, _)) => {
                return Err(format!(
                    "line {}: order {n} follows only {} orders",
                    i + 1,
                    orders.len()
                ));
            }
            // Written as the crash came: the order was being given.
            Err(_) if i == last => {}
            Err(e) => return Err(format!("line {}: {e}", i + 1)),
        }
    }
    Ok(())
}

/// Reads a save and, for an autosave with a journal, the orders its journal adds: the game
/// as it stood when it was last autosaved.
pub fn read_with_journal(path: &Path) -> Result<Record, SaveError> {
    let mut rec = read_save(path)?;
    let jp = journal_of(path);
    if !is_autosave(path) || !jp.exists() {
        return Ok(rec);
    }
    let text = read_text(&jp, MAX_JOURNAL_BYTES).map_err(|e| match e {
        ReadError::Io(_) | ReadError::NotAFile(_) => {
            SaveError::Io(format!("{}: {e}", jp.display()))
        }
        _ => SaveError::Corrupt(format!("{}: {e}", jp.display())),
    })?;
    apply_journal(&mut rec.orders, &text)
        .map_err(|e| SaveError::Corrupt(format!("{}: {e}", jp.display())))?;
    Ok(rec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_replays_orders_and_undos_and_ignores_a_torn_last_line() {
        let mut o = vec![Order::EndSide];
        let dismount = "Dismount(unit: \"k\")";
        let text = format!("1 EndSide\n2 EndSide\n2 undo\n2 {dismount}\nend\n3 End");
        assert_eq!(apply_journal(&mut o, &text), Ok(()));
        assert_eq!(o.len(), 3);
        assert_eq!(o.get(1), Some(&Order::EndSide));
        assert!(matches!(o.get(2), Some(Order::Dismount { .. })));
        let mut o = Vec::new();
        assert!(apply_journal(&mut o, "3 EndSide\n").is_err(), "a gap");
        assert!(
            apply_journal(&mut o, "x\n0 EndSide\n").is_err(),
            "a bad line"
        );
    }

    #[test]
    fn the_newest_autosaves_are_kept_and_the_crashed_one_too() {
        let dir = std::env::temp_dir().join(format!("warhorse-journal-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let rec = Record {
            game: "warhorse".into(),
            format: super::super::record::SAVE_FORMAT,
            level_name: "Test".into(),
            level_source: String::new(),
            seed: 1,
            turn_seeds: Vec::new(),
            level: String::new(),
            ruleset: String::new(),
            orders: Vec::new(),
            checks: Vec::new(),
            players: Vec::new(),
        };
        let mut first = Journal::begin(&dir, &rec).unwrap();
        first.order(0, &Order::EndSide);
        let crashed_one = first.base().to_path_buf();
        drop(first);
        for _ in 0..KEEP_AUTOSAVES + 1 {
            Journal::begin(&dir, &rec).unwrap().close();
        }
        let all = autosaves(&dir);
        assert_eq!(all.len(), KEEP_AUTOSAVES + 1, "{all:?}");
        assert_eq!(crashed(&dir), Some(crashed_one.clone()));
        assert_eq!(
            read_with_journal(&crashed_one).unwrap().orders,
            vec![Order::EndSide]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil(951_782_400 + 3_661), (2000, 2, 29, 1, 1, 1));
    }
}
