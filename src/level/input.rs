//! The one way Warhorse reads a file it is given: levels, rulesets, orders files, saves, the
//! autosave's journal and the settings all come through [`read_text`] (the Load dialog's
//! listing through [`read_head`]); art and sounds, which the asset server opens, are first
//! checked by [`check_file`] and then read with a cap by their loader.
//!
//! A file named on the command line or found in `saves/` is untrusted: it may be a FIFO that
//! never delivers a byte, a device such as `/dev/zero` that never ends, a directory, or simply
//! far larger than any real level. So a file is
//!
//! 1. **opened as a regular file only** — on Unix without blocking (`O_NONBLOCK`, so opening a
//!    FIFO with no writer returns at once) and then checked on the open handle, so nothing
//!    swapped in between a check and the open is read;
//! 2. **read with a size limit** — the size is checked before reading, and at most one byte
//!    more than the limit is ever read, in case the file grows or reports no size (`/proc`);
//! 3. **decoded as UTF-8**, a bad byte reported at its line and column.
//!
//! The limits are stated in `docs/formats.md` (section "Limits").

use super::error::LoadError;
use std::fmt;
use std::fs::File;
use std::io::Read;
use std::path::Path;

/// Largest orders file read, in bytes: an orders file holds nothing but short orders, and
/// 16 MiB is a couple of hundred thousand of them — far more than any game plays.
pub const MAX_ORDERS_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Largest save read, in bytes: a level and a ruleset (at most [`super::MAX_FILE_BYTES`]
/// each as written, a little more as the save quotes them) and up to an orders file's worth
/// of orders. A game that would save bigger than this is refused when saving, so no save the
/// game writes is ever unreadable.
pub const MAX_SAVE_BYTES: u64 = 32 * 1024 * 1024;

/// How much of the start of a save the Load dialog reads to list it: the header line the
/// save writer puts first (a level name is at most 2048 characters, at most 8 KiB of UTF-8).
pub const SAVE_HEAD_BYTES: usize = 16 * 1024;

/// Why a file could not be read. Every variant is a clear message; none is a panic, a block
/// or an unbounded read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The operating system refused (missing file, no permission, …).
    Io(String),
    /// Not a regular file: a directory, a FIFO, a device, a socket.
    NotAFile(&'static str),
    /// Over the size limit for its kind of file.
    TooBig {
        /// The size found (or the bytes read before giving up).
        len: u64,
        /// The limit.
        limit: u64,
    },
    /// Not UTF-8 text; the first bad byte is at this 1-based line and character column.
    NotUtf8 {
        /// Line of the first bad byte.
        line: usize,
        /// Column (in characters) of the first bad byte.
        column: usize,
    },
}

impl ReadError {
    /// True for a size-limit refusal, which the loaders mark with `limit:`.
    pub fn is_limit(&self) -> bool {
        matches!(self, ReadError::TooBig { .. })
    }

    /// The 1-based line and column the error is at: the bad byte for UTF-8 errors, the start
    /// of the file for everything else.
    pub fn position(&self) -> (usize, usize) {
        match self {
            ReadError::NotUtf8 { line, column } => (*line, *column),
            _ => (1, 1),
        }
    }

    /// This error as a loader error in `file`, at its position (`limit:` marks size limits,
    /// as every other limit error of the loaders).
    pub fn into_load_error(self, file: &str) -> LoadError {
        let (line, column) = self.position();
        LoadError::new(file, line, column, self.to_string())
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "cannot read the file: {e}"),
            ReadError::NotAFile(kind) => write!(
                f,
                "is {kind}, not a regular file: expected a file (FIFOs, devices and \
                 directories are never read)"
            ),
            ReadError::TooBig { len, limit } => write!(
                f,
                "limit: the file has more than {limit} bytes ({len} found); at most {limit} \
                 bytes are read"
            ),
            ReadError::NotUtf8 { .. } => {
                write!(f, "the file is not UTF-8 text: expected UTF-8 here")
            }
        }
    }
}

impl std::error::Error for ReadError {}

/// What kind of thing a non-regular file is, in words for [`ReadError::NotAFile`].
fn kind_of(ft: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if ft.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if ft.is_char_device() || ft.is_block_device() {
            return "a device";
        }
        if ft.is_socket() {
            return "a socket";
        }
    }
    if ft.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// Opens `path` for reading only if it is a regular file (symbolic links followed), and
/// returns it with its size. Never blocks on a FIFO.
fn open_regular(path: &Path) -> Result<(File, u64), ReadError> {
    let io = |e: std::io::Error| ReadError::Io(e.to_string());
    // A first look, so that a directory or a FIFO is named as such without opening it.
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile(kind_of(meta.file_type())));
    }
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        // Opening a FIFO for reading blocks until a writer comes; with O_NONBLOCK it returns
        // at once (and the check below refuses it). It changes nothing for a regular file.
        opts.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = opts.open(path).map_err(io)?;
    // The check that counts: on the handle actually opened.
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile(kind_of(meta.file_type())));
    }
    Ok((file, meta.len()))
}

/// Largest settings file read, in bytes: a settings file is a few hundred bytes.
pub const MAX_SETTINGS_BYTES: u64 = 64 * 1024;

/// Largest sound file loaded, in bytes: the game's cues are short WAVs of a few hundred KB.
pub const MAX_SOUND_BYTES: u64 = 16 * 1024 * 1024;

/// Checks, without reading it, that `path` is a regular file of at most `limit` bytes, for
/// files another library opens (art and sounds, through the asset server): a FIFO, a device
/// or an oversized file is refused before the library ever opens it. Returns its size.
pub fn check_file(path: &Path, limit: u64) -> Result<u64, ReadError> {
    let (_, len) = open_regular(path)?;
    if len > limit {
        return Err(ReadError::TooBig { len, limit });
    }
    Ok(len)
}

/// Reads at most `limit` bytes of a regular file; `TooBig` if it holds more.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let (file, len) = open_regular(path)?;
    if len > limit {
        return Err(ReadError::TooBig { len, limit });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::Io(e.to_string()))?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooBig {
            len: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

/// Reads a whole text file the game was given: a regular file only, at most `limit` bytes,
/// UTF-8 (a bad byte is reported at its line and column; a leading byte-order mark is
/// dropped). Every level, ruleset, orders file, save and settings file is read by this
/// function.
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadError> {
    let mut bytes = read_bytes(path, limit)?;
    if bytes.starts_with(&[0xef, 0xbb, 0xbf]) {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let prefix = e.as_bytes().get(..good).unwrap_or_default();
        let prefix = std::str::from_utf8(prefix).unwrap_or_default();
        let line = prefix.matches('\n').count() + 1;
        let column = prefix.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        ReadError::NotUtf8 { line, column }
    })
}

/// The first `max` bytes (or fewer) of a regular file, for listing files by a header without
/// reading them whole (the Load dialog). The bytes may end inside a character.
pub fn read_head(path: &Path, max: usize) -> Result<Vec<u8>, ReadError> {
    let (file, _) = open_regular(path)?;
    let mut bytes = Vec::with_capacity(max.min(64 * 1024));
    file.take(max as u64)
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::Io(e.to_string()))?;
    Ok(bytes)
}

/// The last `max` bytes (or fewer) of a regular file, for looking at how a journal ends
/// without reading it whole. The bytes may begin inside a character.
pub fn read_tail(path: &Path, max: u64) -> Result<Vec<u8>, ReadError> {
    use std::io::{Seek as _, SeekFrom};
    let (mut file, len) = open_regular(path)?;
    file.seek(SeekFrom::Start(len.saturating_sub(max)))
        .map_err(|e| ReadError::Io(e.to_string()))?;
    let mut bytes = Vec::new();
    file.take(max)
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::Io(e.to_string()))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_errors_have_line_and_column() {
        let dir = std::env::temp_dir().join(format!("warhorse-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("bad.ron");
        // 'é' is two bytes but one column: the bad byte is the fifth character of line 2.
        std::fs::write(&p, b"ab\ncd\xc3\xa9f\xffg").unwrap();
        assert_eq!(
            read_text(&p, 100),
            Err(ReadError::NotUtf8 { line: 2, column: 5 })
        );
        assert!(matches!(
            read_text(&p, 3),
            Err(ReadError::TooBig { limit: 3, .. })
        ));
        assert_eq!(read_head(&p, 2).unwrap(), b"ab");
        std::fs::write(&p, b"\xef\xbb\xbf(a: 1)").unwrap();
        assert_eq!(
            read_text(&p, 100).as_deref(),
            Ok("(a: 1)"),
            "a BOM is dropped"
        );
        assert!(
            matches!(read_text(&dir, 100), Err(ReadError::NotAFile(k)) if k.contains("directory"))
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A FIFO with no writer and `/dev/zero` are refused by kind, at once, by every reader.
    #[cfg(unix)]
    #[test]
    fn special_files_are_refused_by_kind_without_blocking() {
        let dir = std::env::temp_dir().join(format!("warhorse-special-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let zero = dir.join("zero");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        for p in [&fifo, &zero] {
            assert!(
                matches!(read_text(p, 100), Err(ReadError::NotAFile(_))),
                "{p:?}"
            );
            assert!(
                matches!(check_file(p, 100), Err(ReadError::NotAFile(_))),
                "{p:?}"
            );
            assert!(
                matches!(read_head(p, 100), Err(ReadError::NotAFile(_))),
                "{p:?}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
