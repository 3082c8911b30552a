//! Untrusted inputs (issue 15 items 2 and 4): every file the game reads — levels, rulesets,
//! orders files, saves — is a regular file read with a size limit and parsed once, and reads
//! with the same conveniences and error positions; ids, ruleset paths and names cannot
//! mislead.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use warhorse::level::input::{MAX_SAVE_BYTES, ReadError, read_text};
use warhorse::level::load::{load_level_file, load_level_str};
use warhorse::sim::Game;
use warhorse::sim::record::{HEADER_PREFIX, Record, SaveError, read_save, write_atomic};
use warhorse::ui::screens::saves::list_saves;

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("warhorse-inputs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

const TINY: &str = "docs/examples/tiny.ron";

/// Runs the `warhorse` binary, failing the test (instead of hanging) if it has not finished
/// within `secs` seconds: exit code, stdout, stderr.
fn warhorse_within(args: &[&str], secs: u64) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_warhorse"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the warhorse binary runs");
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("warhorse {args:?} still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut out = String::new();
    let mut err = String::new();
    if let Some(mut o) = child.stdout.take() {
        let _ = o.read_to_string(&mut out);
    }
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    (status.code().unwrap_or(-1), out, err)
}

/// Runs `f` on another thread and fails if it takes longer than `secs` (a blocked read).
fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(secs))
        .expect("finished in time (not blocked on the file)")
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs")
        .success();
    assert!(ok, "mkfifo {}", path.display());
}

#[test]
fn inputs_a_fifo_is_refused_never_waited_for() {
    let dir = tmpdir("fifo");
    let fifo = dir.join("level.ron");
    mkfifo(&fifo);
    let f = fifo.to_str().unwrap();
    for args in [
        vec!["check", f],
        vec!["reach", f, "--unit", "knight"],
        vec!["script", TINY, f],
        vec!["script", f, "docs/examples/tiny.orders.ron"],
    ] {
        let (code, _, err) = warhorse_within(&args, 30);
        assert_ne!(code, 0, "{args:?}");
        assert!(err.contains(&format!("{f}:1:1:")), "{args:?}: {err}");
        assert!(err.contains("FIFO"), "{args:?}: {err}");
    }
    // In the library: levels and saves, and the Load dialog, which does not list it.
    let p = fifo.clone();
    let e = within(10, move || load_level_file(&p)).unwrap_err();
    assert!(e.to_string().contains("not a regular file"), "{e}");
    let p = fifo.clone();
    match within(10, move || read_save(&p)) {
        Err(SaveError::Io(why)) => assert!(why.contains("FIFO"), "{why}"),
        other => panic!("{other:?}"),
    }
    let d = dir.clone();
    let listed = within(10, move || list_saves(&d));
    assert!(listed.iter().all(|s| s.path != fifo), "{listed:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn inputs_an_endless_stream_is_refused_at_once() {
    // /dev/zero never ends: it must be refused, not read.
    let (code, _, err) = warhorse_within(&["script", TINY, "/dev/zero"], 30);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("/dev/zero:1:1:"), "{err}");
    assert!(err.contains("device"), "{err}");
    let (code, _, err) = warhorse_within(&["check", "/dev/zero"], 30);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("device"), "{err}");
    assert_eq!(
        read_text(Path::new("/dev/zero"), 1024),
        Err(ReadError::NotAFile("a device"))
    );
    // A directory too.
    let (code, _, err) = warhorse_within(&["script", TINY, "docs"], 30);
    assert_eq!(code, 2);
    assert!(err.contains("directory"), "{err}");
}

#[test]
fn inputs_an_oversized_save_is_refused_before_it_is_read() {
    let dir = tmpdir("bigsave");
    let big = dir.join("big.ron");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(MAX_SAVE_BYTES + 1).unwrap();
    let start = Instant::now();
    match read_save(&big) {
        Err(SaveError::Corrupt(why)) => assert!(why.contains("limit"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "refused by its size"
    );
    // A save of another format is refused from its first line, whatever follows: a whole
    // parse of this one would call it damaged instead.
    let newer = dir.join("newer.ron");
    let mut text = format!("{HEADER_PREFIX}(format: 99, level_name: \"Future\", orders: 7)\n");
    text.push_str(&"Record(game: \"warhorse\", !!! ".repeat(500_000));
    std::fs::write(&newer, &text).unwrap();
    assert!(matches!(
        read_save(&newer),
        Err(SaveError::Incompatible { found: 99 })
    ));
    // The same from an older save's leading fields.
    let old = "Record(\n    game: \"warhorse\",\n    format: 7,\n    level_name: \"x\", !!! ";
    assert!(matches!(
        Record::from_text(old),
        Err(SaveError::Incompatible { found: 7 })
    ));
    // And the writer never writes a save it could not read back; the old save is kept.
    let target = dir.join("keep.ron");
    std::fs::write(&target, "old").unwrap();
    let huge = "x".repeat(MAX_SAVE_BYTES as usize + 1);
    match write_atomic(&target, &huge) {
        Err(SaveError::Io(why)) => assert!(why.contains("was not written"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
    let _ = std::fs::remove_dir_all(&dir);
}

fn tiny_game() -> Game {
    let level = load_level_file(&root().join(TINY)).expect("tiny");
    Game::new(&level, 1)
}

#[test]
fn inputs_the_load_dialog_reads_only_each_saves_first_line() {
    let dir = tmpdir("listing");
    let mut g = tiny_game();
    g.order(&warhorse::sim::order::Order::EndSide).unwrap();
    g.save(&dir.join("new.ron")).unwrap();
    let text = std::fs::read_to_string(dir.join("new.ron")).unwrap();
    assert_eq!(
        text.lines().next(),
        Some("// warhorse save (format:1,level_name:\"Tiny\",orders:1)"),
        "the header line docs/formats.md shows"
    );
    // An older save, without the header line, still lists and loads.
    let body = text.split_once('\n').unwrap().1;
    std::fs::write(dir.join("older.ron"), body).unwrap();
    let older = Game::load(&dir.join("older.ron")).expect("an older save loads");
    assert_eq!(older.record().orders.len(), 1);
    // A big file with a good first line is listed from that line alone.
    let mut big = text.lines().next().unwrap().to_string();
    big.push('\n');
    big.push_str(&"garbage ".repeat(2_000_000));
    std::fs::write(dir.join("big.ron"), &big).unwrap();
    std::fs::write(
        dir.join("future.ron"),
        format!("{HEADER_PREFIX}(format: 5, level_name: \"F\", orders: 1)\n"),
    )
    .unwrap();
    std::fs::write(dir.join("notes.ron"), "(x: 1)").unwrap();
    let saves = list_saves(&dir);
    let summary = |name: &str| {
        saves
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("{name} not listed: {saves:?}"))
            .summary
            .clone()
    };
    let new = summary("new").unwrap();
    assert!(new.starts_with("Tiny — 1 orders — "), "{new}");
    assert!(new.ends_with(" UTC"), "{new}");
    assert!(summary("older").unwrap().starts_with("Tiny"));
    assert!(summary("big").unwrap().starts_with("Tiny — 1 orders"));
    assert!(summary("future").unwrap_err().contains("format 5"));
    assert!(summary("notes").is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn inputs_orders_files_read_like_levels() {
    let dir = tmpdir("orders");
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p.to_str().unwrap().to_string()
    };
    // A byte-order mark and a bare optional value (`to: (1, 1)` for `Some((1, 1))`).
    let ok = write(
        "bom.orders.ron",
        "\u{feff}// orders\n[\n    Dismount(unit: \"knight\", to: (1, 1)),\n    EndSide,\n]\n"
            .as_bytes(),
    );
    let (code, out, err) = warhorse_within(&["script", TINY, &ok, "--json", "--seed", "1"], 60);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["orders"].as_array().map(Vec::len), Some(2), "{out}");
    // Not UTF-8: the bad byte's line and column.
    let bad = write("bad.orders.ron", b"[\n    EndSide,\n  \xff EndSide,\n]\n");
    let (code, _, err) = warhorse_within(&["script", TINY, &bad], 60);
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!("{bad}:3:3: the file is not UTF-8")),
        "{err}"
    );
    // A syntax error at the value, as levels place it.
    let typo = write(
        "typo.orders.ron",
        b"[\n    EndSide,\n    Move(unit: 7),\n]\n",
    );
    let (code, _, err) = warhorse_within(&["script", TINY, &typo], 60);
    assert_eq!(code, 2);
    assert!(err.contains(&format!("{typo}:3:16:")), "{err}");
    // A control character in an id is refused at its place, and never printed raw.
    let esc = write(
        "esc.orders.ron",
        b"[\n    Move(unit: \"\\u{1b}[2Jknight\", steps: [Forward]),\n]\n",
    );
    let (code, out, err) = warhorse_within(&["script", TINY, &esc], 60);
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!("{esc}:2:16: a control character (U+001B)")),
        "{err}"
    );
    assert!(!err.contains('\u{1b}') && !out.contains('\u{1b}'));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn inputs_saves_read_like_levels() {
    let g = tiny_game();
    let text = g.record().to_text();
    // A byte-order mark.
    let rec = Record::from_text(&format!("\u{feff}{text}")).expect("a BOM is accepted");
    assert_eq!(&rec, g.record());
    // A bare optional value in the orders.
    let bare = text.replace(
        "orders: [],",
        "orders: [Dismount(unit: \"knight\", to: (1, 1))],",
    );
    assert_ne!(bare, text, "the save lists its orders");
    let rec = Record::from_text(&bare).expect("bare optional values are accepted");
    assert_eq!(rec.orders.len(), 1);
    // Errors at their line and column; not UTF-8 at the bad byte.
    let dir = tmpdir("saves-utf8");
    let p = dir.join("bad.ron");
    let mut bytes = text.clone().into_bytes();
    let second_line = text.find('\n').unwrap() + 1;
    bytes.insert(second_line + 3, 0xff);
    std::fs::write(&p, &bytes).unwrap();
    match read_save(&p) {
        Err(SaveError::Corrupt(why)) => {
            assert!(why.starts_with("line 2, column 4: "), "{why}")
        }
        other => panic!("{other:?}"),
    }
    let typo = text.replacen("seed: 1,", "seed: \"one\",", 1);
    assert_ne!(typo, text);
    let line = typo.lines().position(|l| l.contains("seed:")).unwrap() + 1;
    match Record::from_text(&typo) {
        Err(SaveError::Corrupt(why)) => {
            assert!(
                why.starts_with(&format!("line {line}, column 11: ")),
                "{why}"
            )
        }
        other => panic!("{other:?}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn level_with(figures: &str) -> String {
    format!(
        "Level(name: \"t\", ruleset: \"destrier\", width: 3, height: 2,\n\
         legend: {{ '.': (name: \"open\", cost: 1) }}, rows: [\"...\", \"...\"],\n\
         sides: [(name: \"A\", control: Human), (name: \"B\", control: Ai)],\n\
         figures: [\n{figures}])"
    )
}

#[test]
fn inputs_ids_never_collide_with_a_mounts_id() {
    let knight = "(id: \"knight\", template: \"knight_on_destrier\", side: \"A\", at: (0, 0), \
                  facing: \"S\"),\n";
    let foot = |id: &str, at: &str| {
        format!("(id: \"{id}\", template: \"footman\", side: \"A\", at: {at}, facing: \"S\"),\n")
    };
    // The foot figure after the knight: refused at its own id, line 5.
    let src = level_with(&format!("{knight}{}", foot("knight.mount", "(1, 0)")));
    let es = load_level_str(&src, "c.ron", None).unwrap_err();
    assert_eq!(es.len(), 1, "{es}");
    let e = &es.errors()[0];
    assert_eq!((e.line, e.column), (6, 6), "{e}");
    assert!(e.message.contains("\"knight.mount\""), "{e}");
    // A mounted figure whose own id is another mounted figure's mount id.
    let rider2 = knight
        .replace("\"knight\"", "\"knight.mount\"")
        .replace("(0, 0)", "(2, 0)");
    let es = load_level_str(&level_with(&format!("{rider2}{knight}")), "c.ron", None).unwrap_err();
    assert_eq!(es.errors()[0].line, 5, "{es}");
    // No collision when "knight" is on foot: its id has no mount.
    let ok = level_with(&format!(
        "{}{}",
        foot("knight", "(0, 0)"),
        foot("knight.mount", "(1, 0)")
    ));
    load_level_str(&ok, "ok.ron", None).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn inputs_ruleset_paths_stay_in_the_levels_folder() {
    let dir = tmpdir("ruleset-path");
    let outside = tmpdir("ruleset-outside");
    let rules = std::fs::read_to_string(root().join("rulesets/destrier.ron")).unwrap();
    std::fs::write(outside.join("house.ron"), &rules).unwrap();
    std::fs::create_dir_all(dir.join("rules")).unwrap();
    std::fs::write(dir.join("rules/house.ron"), &rules).unwrap();
    std::os::unix::fs::symlink(outside.join("house.ron"), dir.join("rules/link.ron")).unwrap();
    std::fs::write(dir.join("notes.txt"), "swordfish: the password\n").unwrap();
    let tiny = std::fs::read_to_string(root().join(TINY)).unwrap();
    let with = |ruleset: &str| {
        let p = dir.join("level.ron");
        std::fs::write(
            &p,
            tiny.replace(
                "ruleset: \"destrier\"",
                &format!("ruleset: {}", ron::to_string(ruleset).unwrap()),
            ),
        )
        .unwrap();
        load_level_file(&p)
    };
    assert!(with("rules/house.ron").is_ok());
    assert!(with("./rules/house.ron").is_ok());
    let outside_abs = outside.join("house.ron").display().to_string();
    for (path, says) in [
        ("../ruleset-outside/house.ron", "leaves the level's folder"),
        ("rules/../../x.ron", "leaves the level's folder"),
        (outside_abs.as_str(), "leaves the level's folder"),
        ("rules/link.ron", "symbolic link"),
        ("notes.txt", "is not a ruleset"),
    ] {
        let es = with(path).expect_err(path);
        let text = es.to_string();
        assert!(text.contains(says), "{path}: {text}");
        assert!(
            text.contains(":4:14:"),
            "{path}: at the ruleset field: {text}"
        );
        assert!(
            !text.contains("swordfish"),
            "{path}: echoes the file: {text}"
        );
        assert_eq!(es.len(), 1, "{path}: {text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&outside);
}

#[test]
fn inputs_control_characters_never_reach_the_terminal() {
    // The broken file holds ESC (escaped), BEL (raw) and a right-to-left override.
    let (code, out, err) = warhorse_within(&["check", "tests/broken/control_chars.ron"], 30);
    assert_eq!(code, 1);
    assert!(err.contains("U+001B") && err.contains("U+0007"), "{err}");
    for c in ['\u{1b}', '\u{7}', '\u{202e}'] {
        assert!(!err.contains(c) && !out.contains(c), "{c:?} printed raw");
    }
    // A description may have line breaks, but a name may not.
    let ok = level_with("").replace("name: \"t\",", "name: \"t\", description: \"a\\nb\",");
    load_level_str(&ok, "ok.ron", None).unwrap_or_else(|e| panic!("{e}"));
    let bad = level_with("").replace("name: \"t\"", "name: \"a\\nb\"");
    let es = load_level_str(&bad, "bad.ron", None).unwrap_err();
    assert_eq!(
        (es.errors()[0].line, es.errors()[0].column),
        (1, 13),
        "{es}"
    );
    // In a ruleset too.
    let rules = std::fs::read_to_string(root().join("rulesets/destrier.ron")).unwrap();
    let bad = rules.replacen("name: \"destrier\"", "name: \"dest\\u{7}rier\"", 1);
    assert_ne!(bad, rules);
    let es = warhorse::level::load_ruleset_str(&bad, "r.ron").unwrap_err();
    assert!(es.to_string().contains("U+0007"), "{es}");
}
