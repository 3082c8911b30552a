//! Clear words (issue 33, item 5 of its findings): no display, a save's own level, a level
//! offered as a save, control characters in file names. Each is a message that says what is
//! wrong, never a panic or a raw byte on the terminal.

use super::warhorse;
use std::path::{Path, PathBuf};
use warhorse::level::load::load_level_file;
use warhorse::sim::Game;
use warhorse::sim::record::{SaveError, read_save, write_atomic};
use warhorse::ui::screens::saves::{list_saves, load_game};

const TINY: &str = "docs/examples/tiny.ron";

/// Every level of `levels/`, loaded: what a player can pick on the start screen.
fn shipped_levels() -> Vec<(PathBuf, warhorse::level::Level)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("levels").expect("levels") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|x| x == "ron") {
            let level = load_level_file(&path).expect("a level");
            out.push((path, level));
        }
    }
    out
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("warhorse-words-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[cfg(unix)]
#[test]
fn with_no_display_the_window_says_so_and_does_not_panic() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_warhorse"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("no display"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// With a display but no graphics driver (the Vulkan loader pointed at none), the renderer
/// finds no adapter: the window says so and exits with status 1, no panic on the terminal.
#[cfg(unix)]
#[test]
fn with_no_graphics_adapter_the_window_says_so_and_does_not_panic() {
    let on_path = |p: &str| {
        std::env::var_os("PATH")
            .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(p).is_file()))
    };
    if !on_path("xvfb-run") {
        eprintln!("SKIPPED: xvfb-run is not installed (.ci/run installs it)");
        return;
    }
    let dir = tmpdir("no-adapter");
    let nowhere = dir.join("no-driver.json");
    let mut child = std::process::Command::new("xvfb-run")
        .args(["-a", env!("CARGO_BIN_EXE_warhorse")])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("VK_ICD_FILENAMES", &nowhere)
        .env("VK_DRIVER_FILES", &nowhere)
        .env("XDG_CONFIG_HOME", &dir)
        .env("XDG_DATA_HOME", &dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    // A window that did open (a driver found after all) would never end: bounded.
    let mut status = None;
    for _ in 0..600 {
        if let Some(s) = child.try_wait().expect("waits") {
            status = Some(s);
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        use std::io::Read;
        let _ = e.read_to_string(&mut err);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let status = status.expect("the window ended within 60 s");
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(err.contains("no graphics adapter"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_level_offered_as_a_save_is_named_a_level() {
    assert_eq!(read_save(Path::new(TINY)), Err(SaveError::Level));
    let dir = tmpdir("level-as-save");
    std::fs::copy(TINY, dir.join("tiny.ron")).unwrap();
    let listed = list_saves(&dir);
    let why = listed[0].summary.clone().expect_err("not a save");
    assert!(why.contains("this is a level, not a saved game"), "{why}");
    let why = load_game(&dir.join("tiny.ron"))
        .err()
        .expect("refused")
        .to_string();
    assert!(why.contains("this is a level, not a saved game"), "{why}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_error_in_a_saves_level_names_the_save() {
    let level = load_level_file(Path::new(TINY)).unwrap();
    let mut rec = Game::new(&level, 3).record().clone();
    assert!(rec.level_source.contains("tiny.ron"));
    rec.level = rec.level.replacen("width:", "width: \"wide\", _was:", 1);
    let dir = tmpdir("bad-level");
    let path = dir.join("broken.ron");
    write_atomic(&path, &rec.to_text()).unwrap();
    let why = load_game(&path).err().expect("refused").to_string();
    assert!(why.contains("broken.ron"), "{why}");
    assert!(why.contains("level saved inside it, line"), "{why}");
    assert!(!why.contains("tiny.ron"), "names no file on disk: {why}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn control_characters_in_file_names_are_printed_escaped() {
    let dir = tmpdir("escapes");
    let bad = dir.join("bad\u{1b}[31m\u{7}.ron");
    std::fs::write(&bad, "Level(name: ").unwrap();
    let good = dir.join("good\u{7}.ron");
    std::fs::copy(TINY, &good).unwrap();
    let (code, out, err) = warhorse(&["check", good.to_str().unwrap(), bad.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    for text in [&out, &err] {
        assert!(
            !text.contains(['\u{1b}', '\u{7}']),
            "raw control characters: {text:?}"
        );
    }
    assert!(out.contains("good\\u{7}.ron: ok"), "{out}");
    assert!(err.contains("bad\\u{1b}[31m\\u{7}.ron:1:"), "{err}");
    let why = read_save(&dir.join("gone\u{1b}.ron"))
        .unwrap_err()
        .to_string();
    assert!(
        why.contains("gone\\u{1b}.ron") && !why.contains('\u{1b}'),
        "{why}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 34: "plurals and possessives right" — a side named as a plural ("Germans",
/// "Wardens") is never "Germans wins", "Germans has" or "Germans's" in the log.
#[test]
fn a_side_named_as_a_plural_takes_a_plural_verb_in_every_log_line() {
    use warhorse::ai::AiLevel;
    const SINGULAR: [&str; 13] = [
        "wins", "has", "is", "rolls", "moves", "ends", "achieves", "keeps", "acts", "fires",
        "casts", "performs", "does",
    ];
    let mut plural_sides = 0;
    let mut lines = 0;
    for (path, level) in shipped_levels() {
        let plurals: Vec<String> = level
            .file
            .sides
            .iter()
            .map(|s| s.name.clone())
            .filter(|n| n.ends_with('s'))
            .collect();
        if plurals.is_empty() {
            continue;
        }
        plural_sides += plurals.len();
        let (_, game) =
            warhorse::ai::bout::play_game(&level, 3, 4, &[AiLevel::Table, AiLevel::Table], None);
        for line in game.log().iter().map(ToString::to_string) {
            for side in &plurals {
                lines += usize::from(line.contains(side.as_str()));
                assert!(
                    !line.contains(&format!("{side}'s")),
                    "{}: {line}",
                    path.display()
                );
                for verb in SINGULAR {
                    let said = format!("{side} {verb}");
                    let whole_word = line.match_indices(&said).any(|(at, _)| {
                        !line[at + said.len()..].starts_with(|c: char| c.is_alphabetic())
                    });
                    assert!(!whole_word, "{}: {line}", path.display());
                }
            }
        }
    }
    assert!(
        plural_sides >= 4,
        "levels with plural side names: {plural_sides}"
    );
    assert!(lines > 20, "log lines naming them: {lines}");
}

/// Issue 34: what a player reads — a level's name, description, briefings and objectives,
/// and the rules window — names no file of docs/ and no issue of ours.
#[test]
fn what_a_player_reads_names_no_docs_file_and_no_issue() {
    let developer = |text: &str| {
        text.contains("docs/")
            || text
                .match_indices("issue ")
                .any(|(at, w)| text[at + w.len()..].starts_with(|c: char| c.is_ascii_digit()))
    };
    let mut read = 0;
    for (path, level) in shipped_levels() {
        let mut texts = vec![level.file.name.clone(), level.file.description.clone()];
        texts.extend(level.file.sides.iter().map(|s| s.briefing.clone()));
        if let Some(v) = &level.file.victory {
            texts.extend(v.objectives.iter().map(|o| o.name.clone()));
        }
        for t in texts {
            assert!(!developer(&t), "{}: {t}", path.display());
            read += 1;
        }
    }
    assert!(read > 40, "{read} texts read");
    let rules = warhorse::ui::screens::rules_reader::RULES_MD;
    for line in rules.lines() {
        assert!(!developer(line), "the rules window: {line}");
    }
}

/// Issue 34: the window names figures by their names, never their ids. Every level is played
/// a few turns by the computer on both sides; every log line as the log panel shows it, and
/// the refusal of an order for each figure as the window shows it, names no figure by an id
/// with an underscore or a dot ("sir_roland", "foot_1", "sir_roland.mount").
#[test]
fn the_window_names_figures_never_by_their_ids() {
    use warhorse::ai::AiLevel;
    use warhorse::rules::movement::Step;
    use warhorse::sim::order::Order;
    use warhorse::ui::bridge::shown_line;
    let mut shown = 0;
    for (path, level) in shipped_levels() {
        let names = level.names();
        let ids: Vec<String> = names
            .iter()
            .map(|(id, _)| id.to_string())
            .filter(|id| id.contains(['_', '.']))
            .collect();
        let says_an_id = |text: &str| {
            ids.iter().find(|id| {
                text.match_indices(id.as_str()).any(|(at, _)| {
                    let after = &text[at + id.len()..];
                    !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                })
            })
        };
        let (_, mut game) =
            warhorse::ai::bout::play_game(&level, 5, 3, &[AiLevel::Table, AiLevel::Table], None);
        let mut texts: Vec<String> = game.log().iter().map(|l| shown_line(l, &names)).collect();
        for f in &level.figures {
            let far = Order::Move {
                unit: f.id.clone(),
                steps: vec![Step::Forward; 60],
            };
            if let Err(r) = game.order(&far) {
                texts.push(names.show(&r.to_string()));
            }
        }
        for t in &texts {
            assert_eq!(says_an_id(t), None, "{}: {t}", path.display());
            shown += 1;
        }
    }
    assert!(shown > 500, "{shown} lines read");
}
