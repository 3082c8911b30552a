//! The levels a player can pick on the start screen: the embedded default level, then every
//! `*.ron` (orders files, `*.orders.ron`, aside) in a `levels/` directory beside the working
//! directory or the executable. A file that does not load stays in the list with its errors,
//! so a level author sees why.

use crate::level::{DEFAULT_LEVEL, Level, default_level, load_level_file};
use std::path::{Path, PathBuf};

/// One level on the start screen.
#[derive(Clone, Debug)]
pub struct LevelEntry {
    /// The level's name, or the file's name when it does not load.
    pub name: String,
    /// The level's description (empty when none or when it does not load).
    pub description: String,
    /// Where it came from: a path, or `built in`.
    pub source: String,
    /// The loaded level, or every error it has (one per line).
    pub level: Result<Level, String>,
}

impl LevelEntry {
    fn from_result(source: String, file_name: String, r: Result<Level, String>) -> LevelEntry {
        match r {
            Ok(l) => LevelEntry {
                name: l.file.name.clone(),
                description: l.file.description.clone(),
                source,
                level: Ok(l),
            },
            Err(e) => LevelEntry {
                name: file_name,
                description: String::new(),
                source,
                level: Err(e),
            },
        }
    }
}

/// The `levels/` directories to look in: the working directory's and the executable's
/// (each once, those that exist).
pub fn level_dirs() -> Vec<PathBuf> {
    crate::ui::data_folders("levels")
}

/// A `*.ron` that is not an orders file (`*.orders.ron`, which may sit beside its level).
fn is_level_name(p: &Path) -> bool {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    name.ends_with(".ron") && !name.ends_with(".orders.ron")
}

/// Every level of the embedded default and of `dirs`: the default first, then each
/// directory's files sorted by file name. A file identical to the embedded default is left
/// out (it is `levels/default.ron` itself). Never fails; unreadable directories are skipped.
pub fn catalogue(dirs: &[PathBuf]) -> Vec<LevelEntry> {
    let mut out = vec![LevelEntry::from_result(
        "built in".into(),
        "default".into(),
        default_level().map_err(|e| e.to_string()),
    )];
    for dir in dirs {
        let Ok(read) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut files: Vec<PathBuf> = read
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_file() && is_level_name(p))
            .collect();
        files.sort();
        for path in files {
            let same_as_default =
                crate::level::input::read_text(&path, crate::level::MAX_FILE_BYTES)
                    .is_ok_and(|t| t == DEFAULT_LEVEL);
            if same_as_default {
                continue;
            }
            let file_name = path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            let r = load_level_file(&path).map_err(|e| e.to_string());
            out.push(LevelEntry::from_result(
                path.display().to_string(),
                file_name,
                r,
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_comes_first_and_broken_files_keep_their_errors() {
        let dir = std::env::temp_dir().join(format!("warhorse-catalogue-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join("b_broken.ron"), "Level(name: ").expect("write");
        std::fs::write(dir.join("default.ron"), DEFAULT_LEVEL).expect("write");
        std::fs::write(dir.join("notes.txt"), "not a level").expect("write");
        std::fs::write(dir.join("a.orders.ron"), "[EndSide]").expect("write");
        std::fs::copy("docs/examples/tiny.ron", dir.join("a_tiny.ron")).expect("copy");
        let list = catalogue(&[dir.clone(), dir.join("missing")]);
        let names: Vec<&str> = list.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(list.len(), 3, "{names:?}");
        assert!(list[0].level.is_ok() && list[0].source == "built in");
        assert_eq!(list[1].name, "Tiny");
        assert!(!list[1].description.is_empty() || list[1].level.is_ok());
        assert_eq!(list[2].name, "b_broken.ron");
        let err = list[2].level.as_ref().expect_err("broken");
        assert!(err.contains("b_broken.ron:1:"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_shipped_levels_all_load() {
        for e in catalogue(&[PathBuf::from("levels")]) {
            assert!(e.level.is_ok(), "{}: {:?}", e.source, e.level.err());
        }
    }
}
