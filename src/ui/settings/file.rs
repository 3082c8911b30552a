//! Where the settings live and how they are read and written: `settings.ron` in the user's
//! configuration folder, found by the `directories` crate (`~/.config/warhorse` on Linux,
//! `%APPDATA%\warhorse\config` on Windows, `~/Library/Application Support/warhorse` on
//! macOS), or in `$WARHORSE_CONFIG_DIR` when that is set (tests, portable installs).

use super::model::Settings;
use std::path::{Path, PathBuf};

/// The settings file's name inside the configuration folder.
pub const FILE_NAME: &str = "settings.ron";

/// The environment variable that overrides the configuration folder.
pub const DIR_VAR: &str = "WARHORSE_CONFIG_DIR";

/// The settings file's path: `$WARHORSE_CONFIG_DIR/settings.ron` if the variable is set and
/// not empty, else the platform's configuration folder; `None` where the platform has none
/// (no home folder), and the game then runs on defaults without saving.
pub fn settings_path() -> Option<PathBuf> {
    let dir = match std::env::var_os(DIR_VAR).filter(|d| !d.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => directories::ProjectDirs::from("", "", "warhorse")?
            .config_dir()
            .to_path_buf(),
    };
    Some(dir.join(FILE_NAME))
}

/// The settings in `path`: the defaults when there is no file yet (a first start), and the
/// defaults with the reason (file:line:column for a syntax error or a byte that is not
/// UTF-8) when it cannot be used, so a broken file, a FIFO or a device never stops or blocks
/// the game and the settings screen can say what was wrong.
pub fn load(path: &Path) -> (Settings, Option<String>) {
    use crate::level::input::{MAX_SETTINGS_BYTES, ReadError, read_text};
    // Through the shared reader: a FIFO or a device is refused at once, the size is capped,
    // a byte-order mark is dropped and a bad byte is placed at its line and column.
    let text = match read_text(path, MAX_SETTINGS_BYTES) {
        Ok(text) => text,
        Err(ReadError::Io(_)) if path.symlink_metadata().is_err() => {
            return (Settings::default(), None);
        }
        Err(e) => {
            let (line, column) = e.position();
            let at = match e {
                ReadError::NotUtf8 { .. } => format!(":{line}:{column}"),
                _ => String::new(),
            };
            let why = format!("{}{at}: {e}; using the defaults", path.display());
            return (Settings::default(), Some(why));
        }
    };
    match ron::from_str::<Settings>(&text) {
        Ok(s) => (s.sanitised(), None),
        Err(e) => {
            let why = format!(
                "{}:{}:{}: {}; using the defaults",
                path.display(),
                e.span.start.line,
                e.span.start.col,
                e.code
            );
            (Settings::default(), Some(why))
        }
    }
}

/// Writes `settings` to `path`, creating its folder, through a temporary file renamed over
/// the old one, so a crash mid-write never leaves half a file.
pub fn save(path: &Path, settings: &Settings) -> Result<(), String> {
    let text = ron::ser::to_string_pretty(settings, ron::ser::PrettyConfig::default())
        .map_err(|e| format!("cannot write the settings: {e}"))?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let tmp = path.with_extension("ron.tmp");
    std::fs::write(&tmp, text + "\n").map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::super::model::{Fractions, Pace, Palette};
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("warhorse-settings-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn settings_saved_are_read_back_and_a_missing_file_gives_the_defaults() {
        let dir = temp_dir("roundtrip");
        let path = dir.join("nested").join(FILE_NAME);
        assert_eq!(load(&path), (Settings::default(), None));
        let mine = Settings {
            pace: Pace::Fast,
            ui_scale: 1.5,
            fullscreen: true,
            palette: Palette::ColourBlindSafe,
            fractions: Fractions::Decimal,
            volume: 0.25,
            keys: {
                let mut keys = super::super::keymap::Keymap::default();
                let chord = super::super::keymap::Chord {
                    key: bevy::input::keyboard::KeyCode::KeyJ,
                    ctrl: true,
                };
                keys.bind(super::super::keymap::Command::Undo, chord, true);
                keys
            },
        };
        save(&path, &mine).unwrap();
        assert_eq!(load(&path), (mine, None));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_broken_file_gives_the_defaults_and_says_where_it_broke() {
        let dir = temp_dir("broken");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(FILE_NAME);
        std::fs::write(&path, "(\n  pace: Fast,\n  ui_scale: oops,\n)\n").unwrap();
        let (settings, why) = load(&path);
        assert_eq!(settings, Settings::default());
        let why = why.expect("the error is reported");
        assert!(why.contains(&format!("{}:3:", path.display())), "{why}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_bom_is_read_and_a_bad_byte_is_placed() {
        let dir = temp_dir("bom");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(FILE_NAME);
        std::fs::write(&path, "\u{feff}(fractions: Decimal)").unwrap();
        let (settings, why) = load(&path);
        assert_eq!((settings.fractions, why), (Fractions::Decimal, None));
        std::fs::write(&path, b"(\n  pace: F\xffast,\n)").unwrap();
        let (settings, why) = load(&path);
        assert_eq!(settings, Settings::default());
        let why = why.expect("reported");
        assert!(why.contains(&format!("{}:2:10:", path.display())), "{why}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A FIFO with no writer and `/dev/zero` as the settings file: refused at once.
    #[cfg(unix)]
    #[test]
    fn a_fifo_or_dev_zero_as_settings_gives_the_defaults_at_once() {
        let dir = temp_dir("special");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(FILE_NAME);
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let (settings, why) = load(&path);
        assert_eq!(settings, Settings::default());
        assert!(why.is_some_and(|w| w.contains("FIFO")));
        std::fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
        let (settings, why) = load(&path);
        assert_eq!(settings, Settings::default());
        assert!(why.is_some_and(|w| w.contains("device")));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_with_fields_left_out_keeps_the_defaults_for_those() {
        let dir = temp_dir("partial");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(FILE_NAME);
        std::fs::write(&path, "(fractions: Decimal, ui_scale: 40.0)").unwrap();
        let (settings, why) = load(&path);
        assert_eq!(why, None);
        assert_eq!(settings.fractions, Fractions::Decimal);
        assert_eq!(settings.ui_scale, 2.5, "clamped into range");
        assert_eq!(settings.pace, Pace::Normal);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
