//! Tests of the loader internals: positions, limits, built-in rulesets, garbage input.
use super::*;

#[test]
fn offsets_map_to_lines_and_character_columns() {
    let src = "ab\ncdé f\n\nx";
    let li = LineIndex::new(src);
    assert_eq!(li.pos(0), (1, 1));
    assert_eq!(li.pos(2), (1, 3));
    assert_eq!(li.pos(3), (2, 1));
    // 'é' is two bytes but one column; ' ' after it is column 4.
    let space = src.find(' ').unwrap();
    assert_eq!(li.pos(space), (2, 4));
    // Mid-character offsets fall back to the character's start.
    let e = src.find('é').unwrap();
    assert_eq!(li.pos(e + 1), li.pos(e));
    assert_eq!(li.pos(src.len() - 1), (4, 1));
    assert_eq!(li.pos(usize::MAX), (4, 2));
    assert_eq!(LineIndex::new("").pos(5), (1, 1));
}

#[test]
fn scanner_finds_nested_values() {
    let src = r##"// c
(
  a: 1, /* nested /* block */ */
  m: { 'x': (cost: Some(2)), "k y": [3, r#"raw " str"#] },
  s: Some((inner: Foo(1, 2))),
)"##;
    let cx = Ctx::new("t", src);
    let pos = |path: &[P]| LineIndex::new(src).pos(cx.offset(path));
    assert_eq!(pos(&[P::F("a")]), (3, 6));
    assert_eq!(pos(&[P::F("m"), P::K("x"), P::F("cost")]), (4, 20));
    assert_eq!(pos(&[P::F("m"), P::K("k y"), P::I(1)]), (4, 41));
    assert_eq!(pos(&[P::F("s"), P::F("inner")]), (5, 19));
    // A missing step stops at the deepest match.
    assert_eq!(pos(&[P::F("m"), P::K("zz")]), (4, 6));
    assert_eq!(pos(&[P::F("nope")]), (2, 1));
}

#[test]
fn all_builtin_rulesets_load() {
    for name in BUILTIN_RULESETS {
        let src = builtin_source(name).unwrap();
        if let Err(e) = load_ruleset_str(src, name) {
            panic!("{name}: {e}");
        }
        assert_eq!(builtin_ruleset(name).unwrap().name, name);
    }
    assert!(builtin_ruleset("chess").is_none());
}

#[test]
fn default_level_loads() {
    let level = default_level().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(level.source, DEFAULT_LEVEL_NAME);
    assert!(level.file.sides.len() >= 2);
    assert_eq!(
        level.board.terrain.len(),
        (level.board.width * level.board.height) as usize
    );
}

fn tiny(width: &str, height: &str, figures: &str) -> String {
    format!(
        "Level(name: \"t\", ruleset: \"destrier\", width: {width}, height: {height},\n\
         legend: {{ '.': (name: \"open\", cost: 1) }}, rows: [\"..\", \"..\"],\n\
         sides: [(name: \"A\", control: Human), (name: \"B\", control: Ai)],\n\
         figures: [{figures}])"
    )
}

fn only_error(r: Result<Level, LoadErrors>) -> LoadError {
    let es = r.expect_err("expected an error");
    assert_eq!(es.len(), 1, "{es}");
    es.0.into_iter().next().unwrap()
}

#[test]
fn tiny_level_loads() {
    let src = tiny(
        "2",
        "2",
        "(id: \"a\", template: \"footman\", side: \"A\", at: (0, 0), facing: \"SE\")",
    );
    let level = load_level_str(&src, "t", None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(level.figures.len(), 1);
    assert_eq!(level.figures[0].gait, Gait::Walk);
}

#[test]
fn limits_refuse_huge_maps_before_building() {
    let es = load_level_str(&tiny("100000", "10000", ""), "t", None).unwrap_err();
    assert_eq!(es.len(), 2, "{es}");
    assert!(
        es.errors().iter().all(|e| e.message.starts_with("limit")),
        "{es}"
    );
    assert_eq!((es.0[0].line, es.0[0].column), (1, 46), "{es}");
    // Each side within MAX_SIDE but too many cells together.
    let e = only_error(load_level_str(&tiny("1000", "1000", ""), "t", None));
    assert!(e.message.contains("cells"), "{e}");
}

#[test]
fn limits_refuse_too_many_figures_and_huge_text() {
    let fig = "(id: \"a\", template: \"footman\", side: \"A\", at: (0, 0), facing: \"N\"),";
    let src = tiny("2", "2", &fig.repeat(MAX_FIGURES + 1));
    let e = only_error(load_level_str(&src, "t", None));
    assert!(e.message.starts_with("limit"), "{e}");
    let big = " ".repeat(MAX_FILE_BYTES as usize + 1);
    let e = only_error(load_level_str(&big, "t", None));
    assert!(e.message.starts_with("limit"), "{e}");
    assert!(load_ruleset_str(&big, "t").is_err());
    // One enormous value (here a mixed number that a recursive parser would follow one
    // space at a time) is refused before `ron` sees it.
    let long = format!("\"{}1\"", "1 ".repeat(100_000));
    let src = tiny("2", "2", "").replace("cost: 1", &format!("cost: {long}"));
    let e = only_error(load_level_str(&src, "t", None));
    assert!(e.message.starts_with("limit"), "{e}");
    assert_eq!((e.line, e.column), (2, 37), "{e}");
    // At the limit it is an ordinary error, and nothing overflows.
    let at_limit = format!("\"{}1\"", "1 ".repeat((MAX_TOKEN_CHARS - 3) / 2));
    let src = tiny("2", "2", "").replace("cost: 1", &format!("cost: {at_limit}"));
    let e = only_error(load_level_str(&src, "t", None));
    assert!(!e.message.starts_with("limit"), "{e}");
}

#[test]
fn garbage_never_panics() {
    for src in [
        "",
        "(",
        "Level(",
        "Ruleset(",
        "\u{feff}",
        "(width: 99999999999999999999)",
        "/* unclosed",
        "'",
        "r#\"",
        "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((",
    ] {
        assert!(load_level_str(src, "g", None).is_err());
        assert!(load_ruleset_str(src, "g").is_err());
        let _ = first_ident_before_paren(src);
        let _ = Scan::new(src).document();
    }
}

#[test]
fn amounts_are_checked_as_written() {
    for ok in ["7", "-2", "27/2", "2 1/2", "1000/1000", "0/1", "-1/4"] {
        assert!(written_fraction_in_range(ok), "{ok}");
    }
    for bad in [
        "1/1001",
        "1/100800",
        "9223372036854775807/9223372036854775807",
        "-9223372036854775807/9223372036854775807",
        "2000 1/2",
        "1/0",
        "1001",
    ] {
        assert!(!written_fraction_in_range(bad), "{bad}");
    }
    // In a ruleset: a gait multiplier that reduces to 3 but is written over 1000ths, and a
    // walk rate of 1/100800 cell, are refused at their values.
    let src = DESTRIER_SRC
        .replacen("Gallop: 3 }", "Gallop: \"3000000/1000000\" }", 1)
        .replacen("(walk: 6,", "(walk: \"1/100800\",", 1);
    assert_ne!(src, DESTRIER_SRC);
    let es = load_ruleset_str(&src, "r").unwrap_err();
    assert_eq!(es.len(), 2, "{es}");
    assert!(es.errors().iter().any(|e| e.line == 12), "{es}");
    assert!(es.errors().iter().any(|e| e.line == 15), "{es}");
}

#[test]
fn leading_fields_stop_where_the_values_grow() {
    let text = "\u{feff}// c\nRecord(\n  game: \"warhorse\", format: 1, level_name: \"T\",\n  \
                level: \"...\", orders: [EndSide])";
    let f = leading_fields(text, 10);
    let names: Vec<&str> = f.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["game", "format", "level_name", "level"]);
    assert_eq!(f[0].1, "\"warhorse\"");
    assert_eq!(leading_fields(text, 2).len(), 2);
    assert!(leading_fields("[1, 2]", 5).is_empty());
}

/// Seed 001, 13.2 as the brief tags it (A2): "Stacking as infantry; any number of riderless
/// horses per cell" — two riderless horses share a hex, and a unit may share a hex with them;
/// two units still may not (D10a).
#[test]
fn a2_riderless_horses_share_a_hex_in_the_loader() {
    let level = |figures: &str| {
        format!(
            "Level(name: \"t\", ruleset: \"asl\", width: 2, height: 2,\n\
             legend: {{ '.': (name: \"open\", cost: 1) }}, rows: [\"..\", \"..\"],\n\
             sides: [(name: \"A\", control: Human), (name: \"B\", control: Ai)],\n\
             figures: [{figures}])"
        )
    };
    let horse = |id: &str| {
        format!("(id: \"{id}\", template: \"smc_horse\", side: \"A\", at: (0, 0), facing: \"E\"),")
    };
    let leader = "(id: \"l\", template: \"leader\", side: \"A\", at: (0, 0), facing: \"E\"),";
    let src = level(&format!("{}{}{leader}", horse("h1"), horse("h2")));
    let loaded = load_level_str(&src, "t", None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.figures.len(), 3);
    let two = level(&format!("{leader}{}", leader.replace("\"l\"", "\"m\"")));
    let e = only_error(load_level_str(&two, "t", None));
    assert!(e.to_string().contains("D10a"), "{e}");
}
