//! Level and ruleset files (issue: "`warhorse check` rejects each of a set of broken files kept
//! in tests/ with the right line and column, and nothing panics").
//!
//! Everything shipped (`levels/`, `rulesets/`, `docs/examples/`) must load; every file in
//! `tests/broken/` must fail with exactly the errors its `// expect: LINE:COLUMN: text` lines
//! announce; and no input, however absurd, may panic or allocate a huge board.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use warhorse::level::load::{
    BUILTIN_RULESETS, DEFAULT_LEVEL, check_file, load_level_file, load_level_str, load_ruleset_file,
};
use warhorse::level::{LoadErrors, MAX_FIGURES, MAX_FILE_BYTES};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `.ron` files of a directory, sorted so failures are reported in a stable order.
fn ron_files(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("cannot list {dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    files
}

/// Runs `f`, turning a panic into a test failure that names the input.
fn no_panic<T>(what: &str, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| panic!("loading {what} panicked"))
}

fn shipped_levels() -> Vec<PathBuf> {
    let mut files = ron_files("levels");
    files.push(root().join("docs/examples/tiny.ron"));
    files
}

#[test]
fn level_files_shipped_levels_load() {
    let levels = shipped_levels();
    assert!(
        levels.len() >= 5,
        "expected levels/ to hold at least 4 levels"
    );
    for path in &levels {
        let shown = path.display().to_string();
        let level = no_panic(&shown, || load_level_file(path))
            .unwrap_or_else(|e| panic!("{shown} should load:\n{e}"));
        assert!(!level.figures.is_empty(), "{shown} has no figures");
        assert_eq!(level.source, shown);
        let b = &level.board;
        assert_eq!(b.terrain.len(), (b.width * b.height) as usize);
        assert!(b.terrain.iter().all(|&t| (t as usize) < b.terrains.len()));
        assert_eq!(
            no_panic(&shown, || check_file(path)).as_deref(),
            Ok("level"),
            "{shown}"
        );
    }
}

/// Issue 31, item 1: "every side that the computer may play has at least one hero or
/// leader", so the strongest level has something to command on every level (docs/rules.md,
/// "Uncommanded troops": a side's leader commands all of it while he is in the fight).
#[test]
fn level_files_every_side_of_every_level_has_a_leader() {
    // The levels a player picks (docs/examples/tiny.ron only shows the format).
    for path in &ron_files("levels") {
        let level = load_level_file(path).expect("loads");
        for (s, side) in level.file.sides.iter().enumerate() {
            assert!(
                level
                    .figures
                    .iter()
                    .any(|f| usize::from(f.side) == s && f.template.hero),
                "{}: side {} has no hero or leader",
                path.display(),
                side.name
            );
        }
    }
}

#[test]
fn level_files_default_level_is_the_embedded_one() {
    let on_disk = std::fs::read_to_string(root().join("levels/default.ron")).unwrap_or_default();
    assert_eq!(DEFAULT_LEVEL, on_disk);
    let level = warhorse::level::load::default_level().unwrap_or_else(|e| panic!("{e}"));
    assert!(level.file.sides.len() >= 2);
}

#[test]
fn level_files_shipped_rulesets_load_and_each_has_a_level() {
    for path in ron_files("rulesets") {
        let shown = path.display().to_string();
        let rules = no_panic(&shown, || load_ruleset_file(&path))
            .unwrap_or_else(|e| panic!("{shown} should load:\n{e}"));
        assert_eq!(
            Some(rules.name.as_str()),
            path.file_stem().and_then(|s| s.to_str()),
            "a ruleset's name is its file name"
        );
        assert_eq!(
            no_panic(&shown, || check_file(&path)).as_deref(),
            Ok("ruleset"),
            "{shown}"
        );
    }
    let used: Vec<String> = shipped_levels()
        .iter()
        .filter_map(|p| load_level_file(p).ok())
        .map(|l| l.rules.name)
        .collect();
    for name in BUILTIN_RULESETS {
        assert!(
            used.iter().any(|u| u == name),
            "no level in levels/ plays {name}"
        );
    }
}

/// One `// expect: LINE:COLUMN: text` line.
struct Expect {
    line: usize,
    column: usize,
    text: String,
}

fn expectations(src: &str) -> Vec<Expect> {
    src.lines()
        .filter_map(|l| l.strip_prefix("// expect: "))
        .filter_map(|rest| {
            let mut parts = rest.splitn(3, ':');
            let line = parts.next()?.trim().parse().ok()?;
            let column = parts.next()?.trim().parse().ok()?;
            let text = parts.next()?.trim().to_string();
            Some(Expect { line, column, text })
        })
        .collect()
}

#[test]
fn level_files_broken_files_fail_at_the_expected_positions() {
    let files = ron_files("tests/broken");
    assert!(
        files.len() >= 12,
        "tests/broken/ should hold at least 12 broken files"
    );
    let mut failures = Vec::new();
    for path in &files {
        let shown = path.display().to_string();
        let src = std::fs::read_to_string(path).unwrap_or_default();
        let expects = expectations(&src);
        if expects.is_empty() {
            failures.push(format!("{shown}: no `// expect: LINE:COLUMN: text` line"));
            continue;
        }
        let result = catch_unwind(AssertUnwindSafe(|| check_file(path)));
        let errors: LoadErrors = match result {
            Err(_) => {
                failures.push(format!("{shown}: panicked"));
                continue;
            }
            Ok(Ok(kind)) => {
                failures.push(format!("{shown}: loaded as a {kind} but should fail"));
                continue;
            }
            Ok(Err(es)) => es,
        };
        for x in &expects {
            let found = errors.errors().iter().any(|e| {
                e.file == shown
                    && e.line == x.line
                    && e.column == x.column
                    && e.message.contains(&x.text)
            });
            if !found {
                failures.push(format!(
                    "{shown}: expected an error at {}:{} containing {:?}; got:\n{errors}",
                    x.line, x.column, x.text
                ));
            }
        }
        if errors.len() != expects.len() {
            failures.push(format!(
                "{shown}: expected {} error(s), got {}:\n{errors}",
                expects.len(),
                errors.len()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A level of about `bytes` bytes, nearly all of it one figure repeated in `figures`.
fn level_with_figures(bytes: usize) -> String {
    let fig = "(id: \"f\", template: \"footman\", side: \"Red\", at: (0, 0), facing: \"N\"),\n";
    let n = bytes / fig.len() + 1;
    format!(
        "Level(name: \"Crowd\", ruleset: \"destrier\", width: 2, height: 2,\n\
         legend: {{ '.': (name: \"open\", cost: 1) }}, rows: [\"..\", \"..\"],\n\
         sides: [(name: \"Red\", control: Human), (name: \"Blue\", control: Ai)],\n\
         figures: [\n{}])\n",
        fig.repeat(n)
    )
}

#[test]
fn level_files_huge_figure_list_is_refused_with_a_limit_error() {
    let src = level_with_figures(2 * 1024 * 1024);
    assert!(
        src.len() >= 2 * 1024 * 1024,
        "the test level should be about 2 MB"
    );
    assert!(
        (src.len() as u64) < MAX_FILE_BYTES,
        "the figure limit, not the size limit"
    );
    let errors = no_panic("a 2 MB level", || load_level_str(&src, "crowd.ron", None))
        .expect_err("a level with too many figures must be refused");
    assert_eq!(errors.len(), 1, "{errors}");
    let e = &errors.errors()[0];
    assert!(e.message.starts_with("limit"), "{e}");
    assert!(e.message.contains(&MAX_FIGURES.to_string()), "{e}");
    // The error sits in the figure list, past the first MAX_FIGURES entries.
    assert!(e.line > 4 + MAX_FIGURES, "{e}");
}

#[test]
fn level_files_oversized_files_are_refused_before_reading() {
    let dir = std::env::temp_dir().join(format!("warhorse-level-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let path = dir.join("big.ron");
    let big = " ".repeat(MAX_FILE_BYTES as usize + 1);
    std::fs::write(&path, big).unwrap_or_else(|e| panic!("{e}"));
    let errors = no_panic("a big file", || check_file(&path)).unwrap_err();
    assert!(errors.errors()[0].message.starts_with("limit"), "{errors}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn level_files_ruleset_by_path_is_relative_to_the_level() {
    let dir = std::env::temp_dir().join(format!("warhorse-ruleset-path-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("rules")).unwrap_or_else(|e| panic!("{e}"));
    let rules = std::fs::read_to_string(root().join("rulesets/destrier.ron")).unwrap_or_default();
    std::fs::write(
        dir.join("rules/house.ron"),
        rules.replace("\"destrier\"", "\"house\""),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let level = std::fs::read_to_string(root().join("docs/examples/tiny.ron"))
        .unwrap_or_default()
        .replace("ruleset: \"destrier\"", "ruleset: \"rules/house.ron\"");
    std::fs::write(dir.join("tiny.ron"), &level).unwrap_or_else(|e| panic!("{e}"));
    let loaded = load_level_file(&dir.join("tiny.ron")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.rules.name, "house");
    // Without a directory to look in, a path is an unknown ruleset.
    let e = load_level_str(&level, "tiny.ron", None).unwrap_err();
    assert!(e.errors()[0].message.contains("unknown ruleset"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn level_files_mangled_levels_never_panic() {
    let src = DEFAULT_LEVEL;
    let cuts: Vec<usize> = (0..src.len())
        .step_by(11)
        .filter(|&i| src.is_char_boundary(i))
        .collect();
    for &i in &cuts {
        // Truncated.
        let head = &src[..i];
        no_panic(&format!("the default level cut at byte {i}"), || {
            let _ = load_level_str(head, "cut.ron", None);
        });
        // One character replaced by something troublesome.
        for bad in ["(", "]", "\"", "'", "9999999999", "-", "é", "/*"] {
            let mut s = src.to_string();
            let end = (i + 1..=src.len())
                .find(|&j| src.is_char_boundary(j))
                .unwrap_or(src.len());
            s.replace_range(i..end, bad);
            no_panic(
                &format!("the default level with {bad:?} at byte {i}"),
                || {
                    let _ = load_level_str(&s, "mangled.ron", None);
                },
            );
        }
    }
    // Whatever the damage, errors keep their positions inside the text.
    let broken = src.replacen("facing: \"S\"", "facing: \"Q\"", 1);
    let e = load_level_str(&broken, "q.ron", None).unwrap_err();
    let first = &e.errors()[0];
    assert!(first.line <= broken.lines().count(), "{e}");
    assert!(Path::new(&first.file) == Path::new("q.ron"));
}

#[test]
fn level_files_formats_doc_shows_the_tiny_example_verbatim() {
    let doc = std::fs::read_to_string(root().join("docs/formats.md")).unwrap_or_default();
    let tiny = std::fs::read_to_string(root().join("docs/examples/tiny.ron")).unwrap_or_default();
    assert!(
        doc.contains(&format!("```ron\n{tiny}```")),
        "docs/formats.md must quote docs/examples/tiny.ron exactly"
    );
}

/// Issue 12 item 4: every level shipped in `levels/` tells its story — a description, a
/// briefing for every side, a suggested side that names one of them, and at least one
/// objective for every side.
#[test]
fn level_files_every_level_has_a_story_and_objectives_for_every_side() {
    let mut levels = ron_files("levels");
    levels.retain(|p| !p.to_string_lossy().ends_with(".orders.ron"));
    assert!(
        levels.len() >= 13,
        "expected levels/ to hold the seven old levels and the six new ones, found {}",
        levels.len()
    );
    for path in &levels {
        let shown = path.display().to_string();
        let level = no_panic(&shown, || load_level_file(path))
            .unwrap_or_else(|e| panic!("{shown} should load:\n{e}"));
        let file = &level.file;
        assert!(
            !file.description.trim().is_empty(),
            "{shown} has no description"
        );
        for side in &file.sides {
            assert!(
                !side.briefing.trim().is_empty(),
                "{shown}: side {} has no briefing",
                side.name
            );
        }
        let suggested = file
            .suggested_side
            .as_deref()
            .unwrap_or_else(|| panic!("{shown} has no suggested side"));
        assert!(
            file.sides.iter().any(|s| s.name == suggested),
            "{shown}: the suggested side {suggested} is not one of its sides"
        );
        for (i, side) in file.sides.iter().enumerate() {
            assert!(
                level
                    .victory
                    .objectives
                    .iter()
                    .any(|o| usize::from(o.side) == i),
                "{shown}: side {} has no objective",
                side.name
            );
        }
    }
}
