//! Reading and checking level and ruleset files.
//!
//! Loading runs in stages so that a bad file can never crash the game or make it allocate
//! something absurd:
//!
//! 1. **Size.** A file over [`MAX_FILE_BYTES`] is refused before it is read (and a string
//!    over it before it is parsed); so is any single value over [`MAX_TOKEN_CHARS`].
//! 2. **Header pass.** A level is first skimmed for `width`, `height` and the number of
//!    `figures` only, ignoring everything else, so a 10⁹-cell map or a 10⁶-figure list is
//!    refused with a "limit" error before any board or figure list is built.
//! 3. **Syntax and types.** `ron` deserialises the file; its first error (there is only one
//!    at this stage) carries its own line and column.
//! 4. **Meaning.** Everything `ron` cannot know — unknown templates, sides, legend characters,
//!    figures off the map, facings, conditions, gaits, out-of-range numbers — is checked,
//!    *all* problems are collected, and each is placed at the value that caused it. The
//!    position comes from a small span scanner that maps a path such as
//!    `figures[3].template` back to its place in the text.
//!
//! The file formats are documented in `docs/formats.md`.

use super::error::{LoadError, LoadErrors};
use super::{
    FigureSpec, Level, LevelFile, MAX_CELLS, MAX_FIGURES, MAX_FILE_BYTES, MAX_SIDE, PlacedFigure,
};
use crate::rules::board::{Board, Terrain};
use crate::rules::gait::Gait;
use crate::rules::grid::{Cell, Dir, GridKind};
use crate::rules::mp::{Frac, Mp};
use crate::rules::ruleset::{MountRule, MoveStyle, Penalty, Ruleset, Template, TroopType};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde::de::{self, IgnoredAny, SeqAccess, Visitor};
use std::borrow::Cow;
use std::cell::OnceCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::io::Read;
use std::path::Path;

/// The level played when none is named, embedded so the binary runs from any directory.
pub const DEFAULT_LEVEL: &str = include_str!("../../levels/default.ron");

/// The name the embedded default level reports in messages and in [`Level::source`].
pub const DEFAULT_LEVEL_NAME: &str = "<embedded default>";

/// The rulesets shipped in the binary; a level's `ruleset` field may name any of them.
pub const BUILTIN_RULESETS: [&str; 3] = ["destrier", "asl", "realms"];

/// Most sides a level may have: occupancy is stored as side + 1 in a byte, and more than a
/// handful of sides is never a real battle.
pub const MAX_SIDES: usize = 16;

/// Most errors reported for one file; past this the rest are almost always the same mistake
/// repeated, and positions cost time on huge files.
pub const MAX_ERRORS: usize = 200;

const DESTRIER_SRC: &str = include_str!("../../rulesets/destrier.ron");
const ASL_SRC: &str = include_str!("../../rulesets/asl.ron");
const REALMS_SRC: &str = include_str!("../../rulesets/realms.ron");

/// Longest string (or any other single value) accepted, in characters. Rows are at most
/// [`MAX_SIDE`] long and names far shorter; the bound also caps how deep any recursive parse of
/// one value can go.
pub const MAX_TOKEN_CHARS: usize = 2048;

/// Marks `ron` custom errors raised by the header pass, so they can be told from syntax errors.
const LIMIT_TAG: &str = "limit: ";

fn builtin_source(name: &str) -> Option<&'static str> {
    match name {
        "destrier" => Some(DESTRIER_SRC),
        "asl" => Some(ASL_SRC),
        "realms" => Some(REALMS_SRC),
        _ => None,
    }
}

/// A ruleset shipped in the binary, by name (`destrier`, `asl`, `realms`). `None` for any other
/// name — and, defensively, if the embedded text failed to load, which a unit test rules out.
pub fn builtin_ruleset(name: &str) -> Option<Ruleset> {
    let src = builtin_source(name)?;
    load_ruleset_str(src, &format!("<builtin {name}>")).ok()
}

/// The embedded default level, loaded and checked like any other, for starting the game with
/// no arguments.
pub fn default_level() -> Result<Level, LoadErrors> {
    load_level_str(DEFAULT_LEVEL, DEFAULT_LEVEL_NAME, None)
}

/// Reads and checks a ruleset file. Errors name `path` as given.
pub fn load_ruleset_file(path: &Path) -> Result<Ruleset, LoadErrors> {
    let src = read_source(path)?;
    load_ruleset_str(&src, &path.display().to_string())
}

/// Parses and checks ruleset text; `file` is only used in messages. All consistency problems
/// (unknown horse classes or conditions in templates, gaits without multipliers, …) are
/// reported together.
pub fn load_ruleset_str(src: &str, file: &str) -> Result<Ruleset, LoadErrors> {
    if src.len() as u64 > MAX_FILE_BYTES {
        return Err(file_too_big(file, src.len() as u64));
    }
    let text = normalise(src, None);
    check_token_lengths(&text, file)?;
    let rules: Ruleset = parse(&text, file)?;
    let mut cx = Ctx::new(file, &text);
    check_ruleset(&rules, &mut cx);
    cx.finish(rules)
}

/// Reads and checks a level file. A ruleset named by path is looked up relative to the
/// level's directory.
pub fn load_level_file(path: &Path) -> Result<Level, LoadErrors> {
    let src = read_source(path)?;
    load_level_str(&src, &path.display().to_string(), path.parent())
}

/// Parses and checks level text. `file` names it in messages and becomes [`Level::source`];
/// `base_dir` is where a ruleset given as a path is looked for (`None`: built-in rulesets
/// only). Every problem found is returned, each at its line and column.
pub fn load_level_str(src: &str, file: &str, base_dir: Option<&Path>) -> Result<Level, LoadErrors> {
    if src.len() as u64 > MAX_FILE_BYTES {
        return Err(file_too_big(file, src.len() as u64));
    }
    let text = normalise(src, Some("Level"));
    check_token_lengths(&text, file)?;
    check_level_header(&text, file)?;
    let lf: LevelFile = parse(&text, file)?;
    let mut cx = Ctx::new(file, &text);
    let rules = resolve_ruleset(&lf.ruleset, base_dir, &mut cx);
    let level = build_level(lf, rules, &mut cx);
    match level {
        Some(mut level) => {
            level.text = src.to_string();
            cx.finish(level)
        }
        None => Err(cx.into_errors()),
    }
}

/// Parses and checks level text against a ruleset already in hand (a saved game carries its
/// ruleset, so a save loads even if the ruleset file has since changed or moved).
pub fn load_level_str_with(src: &str, file: &str, rules: Ruleset) -> Result<Level, LoadErrors> {
    if src.len() as u64 > MAX_FILE_BYTES {
        return Err(file_too_big(file, src.len() as u64));
    }
    let text = normalise(src, Some("Level"));
    check_token_lengths(&text, file)?;
    check_level_header(&text, file)?;
    let lf: LevelFile = parse(&text, file)?;
    let mut cx = Ctx::new(file, &text);
    let level = build_level(lf, Some(rules), &mut cx);
    match level {
        Some(mut level) => {
            level.text = src.to_string();
            cx.finish(level)
        }
        None => Err(cx.into_errors()),
    }
}

/// Checks one file for `warhorse check`: a file whose first token (after comments) is
/// `Ruleset(` is checked as a ruleset, anything else as a level. Returns which it was
/// (`"ruleset"` or `"level"`) so the command can say what it checked.
pub fn check_file(path: &Path) -> Result<String, LoadErrors> {
    let src = read_source(path)?;
    let file = path.display().to_string();
    if first_ident_before_paren(&src).as_deref() == Some("Ruleset") {
        load_ruleset_str(&src, &file).map(|_| "ruleset".to_string())
    } else {
        load_level_str(&src, &file, path.parent()).map(|_| "level".to_string())
    }
}

// ---------------------------------------------------------------------------------------------
// Reading.

/// `Some(x)` may be written as just `x` in every file (`cost: 2`, `gait: Trot`); the explicit
/// `Some(x)` still works, and `None` is always `None`.
fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// Runs `ron`, turning a panic anywhere in deserialisation (a bug in some `Deserialize`
/// impl, never expected) into `None`, so a bad file can still never crash the game.
fn ron_parse<T: DeserializeOwned>(text: &str) -> Option<ron::error::SpannedResult<T>> {
    std::panic::catch_unwind(|| ron_options().from_str::<T>(text)).ok()
}

/// Deserialises a whole file, with its syntax or type error placed in the text.
fn parse<T: DeserializeOwned>(text: &str, file: &str) -> Result<T, LoadErrors> {
    match ron_parse(text) {
        Some(Ok(v)) => Ok(v),
        Some(Err(e)) => Err(LoadErrors::one(ron_error(file, text, &e))),
        None => Err(LoadErrors::one(LoadError::new(
            file,
            1,
            1,
            "internal error: reading this file panicked (a bug in Warhorse; please report it \
             with the file)",
        ))),
    }
}

fn file_too_big(file: &str, len: u64) -> LoadErrors {
    LoadErrors::one(LoadError::new(
        file,
        1,
        1,
        format!("{LIMIT_TAG}the file is {len} bytes; at most {MAX_FILE_BYTES} bytes are read"),
    ))
}

/// Reads a file as UTF-8, refusing one over [`MAX_FILE_BYTES`] before reading it (and
/// reading at most one byte more, in case it grows or is a device that reports no size).
fn read_source(path: &Path) -> Result<String, LoadErrors> {
    let file = path.display().to_string();
    let io = |what: &str, e: std::io::Error| {
        LoadErrors::one(LoadError::new(
            &file,
            1,
            1,
            format!("cannot {what} the file: {e}"),
        ))
    };
    let meta = std::fs::metadata(path).map_err(|e| io("read", e))?;
    if meta.is_dir() {
        return Err(LoadErrors::one(LoadError::new(
            &file,
            1,
            1,
            "is a directory; expected a level or ruleset file",
        )));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(file_too_big(&file, meta.len()));
    }
    let f = std::fs::File::open(path).map_err(|e| io("open", e))?;
    let mut bytes = Vec::new();
    f.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io("read", e))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(file_too_big(&file, bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let prefix =
            std::str::from_utf8(e.as_bytes().get(..good).unwrap_or_default()).unwrap_or_default();
        let (line, column) = LineIndex::new(prefix).pos(good);
        LoadErrors::one(LoadError::new(
            &file,
            line,
            column,
            "the file is not UTF-8 text: expected UTF-8 here",
        ))
    })
}

/// Makes the text `ron` sees: a leading byte-order mark becomes a space, and an optional
/// leading struct name (`Level(`, friendlier than the Rust type's name) is blanked out.
/// Both keep every line and column where it was.
fn normalise<'a>(src: &'a str, blank_name: Option<&str>) -> Cow<'a, str> {
    let mut text = match src.strip_prefix('\u{feff}') {
        Some(rest) => Cow::Owned(format!(" {rest}")),
        None => Cow::Borrowed(src),
    };
    if let Some(name) = blank_name {
        let mut sc = Scan::new(&text);
        if sc.skip_ws().is_some() {
            let at = sc.i;
            let after = at + name.len();
            let rest = text.get(after..).unwrap_or_default();
            let next = rest.trim_start_matches(is_ws).chars().next();
            if text.get(at..after) == Some(name) && next == Some('(') {
                let mut owned = text.into_owned();
                owned.replace_range(at..after, &" ".repeat(name.len()));
                text = Cow::Owned(owned);
            }
        }
    }
    text
}

/// The identifier a file opens with, if it is followed by `(` (`Ruleset(`, `Level(`).
fn first_ident_before_paren(src: &str) -> Option<String> {
    let text = normalise(src, None);
    let mut sc = Scan::new(&text);
    sc.skip_ws()?;
    let start = sc.i;
    sc.atom()?;
    let name = text.get(start..sc.i)?.to_string();
    sc.skip_ws()?;
    (sc.peek() == Some('(')).then_some(name)
}

/// Turns a `ron` error into ours. `ron` positions are already 1-based line and character
/// column, but may sit on the whitespace before the offending value or just inside its
/// opening quote; both are nudged onto the value itself. A few serde messages are reworded
/// into what the file should hold, and messages start in lower case like ours.
fn ron_error(file: &str, text: &str, e: &ron::error::SpannedError) -> LoadError {
    let mut message = match &e.code {
        ron::Error::Message(m) if m.contains("untagged enum Raw") => {
            "expected a number like 7, -2, \"27/2\" or \"2 1/2\"".to_string()
        }
        ron::Error::Message(m) => m.clone(),
        code => code.to_string(),
    };
    let mut chars = message.chars();
    if let (Some(a), Some(b)) = (chars.next(), chars.next())
        && a.is_ascii_uppercase()
        && b.is_ascii_lowercase()
    {
        message.replace_range(..1, &a.to_ascii_lowercase().to_string());
    }
    let (start, end) = (&e.span.start, &e.span.end);
    let lines = LineIndex::new(text);
    let (mut off, end_off) = (
        lines.offset(start.line, start.col),
        lines.offset(end.line, end.col),
    );
    while off < end_off {
        match text.get(off..).and_then(|t| t.chars().next()) {
            Some(c) if is_ws(c) => off += c.len_utf8(),
            _ => break,
        }
    }
    if matches!(e.code, ron::Error::Message(_))
        && off > 0
        && text.as_bytes().get(off - 1) == Some(&b'"')
    {
        off -= 1;
    }
    let (line, column) = lines.pos(off);
    LoadError::new(file, line, column, message)
}

/// Refuses any single token longer than [`MAX_TOKEN_CHARS`], in one cheap pass before `ron`
/// runs. Text the scanner cannot follow is left for `ron` to report.
fn check_token_lengths(text: &str, file: &str) -> Result<(), LoadErrors> {
    let mut sc = Scan::new(text);
    loop {
        if sc.skip_ws().is_none() {
            return Ok(());
        }
        let start = sc.i;
        match sc.peek() {
            None => return Ok(()),
            Some(c) if "()[]{},:".contains(c) => {
                sc.bump();
                continue;
            }
            Some(_) => {}
        }
        if sc.atom().is_none() {
            return Ok(());
        }
        let len = text.get(start..sc.i).map_or(0, |t| t.chars().count());
        if len > MAX_TOKEN_CHARS {
            let (line, column) = LineIndex::new(text).pos(start);
            return Err(LoadErrors::one(LoadError::new(
                file,
                line,
                column,
                format!(
                    "{LIMIT_TAG}a value {len} characters long; at most {MAX_TOKEN_CHARS} are \
                     allowed"
                ),
            )));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Header pass: the limits, checked before anything big is built.

/// Only what the limits need; every other field is skipped without being stored.
#[derive(Deserialize)]
#[serde(rename = "LevelFile")]
struct Header {
    #[serde(default)]
    width: Option<u64>,
    #[serde(default)]
    height: Option<u64>,
    #[serde(default)]
    #[allow(dead_code)]
    figures: FigureCount,
}

/// Counts `figures` entries without keeping them, failing as soon as there are too many.
#[derive(Default)]
struct FigureCount;

impl<'de> Deserialize<'de> for FigureCount {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<FigureCount, D::Error> {
        struct Counter;
        impl<'de> Visitor<'de> for Counter {
            type Value = FigureCount;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of figures")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<FigureCount, A::Error> {
                let mut n = 0usize;
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    n += 1;
                    if n > MAX_FIGURES {
                        return Err(de::Error::custom(format!(
                            "{LIMIT_TAG}more than {MAX_FIGURES} figures; a level may hold at \
                             most {MAX_FIGURES}"
                        )));
                    }
                }
                Ok(FigureCount)
            }
        }
        d.deserialize_seq(Counter)
    }
}

/// The header pass. Syntax or type errors are left for the full parse, which words them
/// better; only limit violations stop here.
fn check_level_header(text: &str, file: &str) -> Result<(), LoadErrors> {
    let header: Header = match ron_parse(text) {
        Some(Ok(h)) => h,
        None => return Ok(()),
        Some(Err(e)) => {
            return match &e.code {
                ron::Error::Message(m) if m.starts_with(LIMIT_TAG) => {
                    Err(LoadErrors::one(ron_error(file, text, &e)))
                }
                _ => Ok(()),
            };
        }
    };
    let mut cx = Ctx::new(file, text);
    let (w, h) = (header.width.unwrap_or(0), header.height.unwrap_or(0));
    for (name, v) in [("width", w), ("height", h)] {
        if v > u64::from(MAX_SIDE) {
            cx.err(
                &[P::F(name)],
                format!("{LIMIT_TAG}{name} {v} is over the largest map side of {MAX_SIDE} cells"),
            );
        }
    }
    let cells = u128::from(w) * u128::from(h);
    if cx.errors.is_empty() && cells > u128::from(MAX_CELLS) {
        cx.err(
            &[P::F("height")],
            format!("{LIMIT_TAG}a {w} x {h} map is {cells} cells; at most {MAX_CELLS} are allowed"),
        );
    }
    if cx.errors.is_empty() {
        Ok(())
    } else {
        Err(cx.into_errors())
    }
}

// ---------------------------------------------------------------------------------------------
// Ruleset resolution and checks.

fn resolve_ruleset(name: &str, base_dir: Option<&Path>, cx: &mut Ctx) -> Option<Ruleset> {
    let at = [P::F("ruleset")];
    if let Some(src) = builtin_source(name) {
        return match load_ruleset_str(src, &format!("<builtin {name}>")) {
            Ok(r) => Some(r),
            Err(es) => {
                cx.err(&at, format!("the built-in ruleset {name:?} does not load"));
                cx.extend(es);
                None
            }
        };
    }
    let expected = format!(
        "expected one of {} or the path of a ruleset file relative to the level",
        BUILTIN_RULESETS.join(", ")
    );
    let path = match base_dir {
        Some(dir) if !name.trim().is_empty() => dir.join(name),
        _ => {
            cx.err(&at, format!("unknown ruleset {name:?}: {expected}"));
            return None;
        }
    };
    if !path.is_file() {
        cx.err(
            &at,
            format!(
                "unknown ruleset {name:?} (no file {}): {expected}",
                path.display()
            ),
        );
        return None;
    }
    match load_ruleset_file(&path) {
        Ok(r) => Some(r),
        Err(es) => {
            cx.err(
                &at,
                format!(
                    "the ruleset file {} has {} error(s)",
                    path.display(),
                    es.len()
                ),
            );
            cx.extend(es);
            None
        }
    }
}

/// Largest movement amount (cells) or multiplier a file may give, and largest denominator.
/// Real rules need single or double digits; the bound keeps every later sum and product far
/// from overflow, so no file can make the engine's arithmetic panic.
pub const MAX_AMOUNT: i64 = 1000;

/// Largest distance in feet a file may give (R2 penalties, R1 conditions, `cell_feet`).
pub const MAX_FEET: i64 = 1_000_000;

fn frac_in_range(f: Frac) -> bool {
    (1..=MAX_AMOUNT).contains(&f.den)
        && f.num.unsigned_abs() <= MAX_AMOUNT.unsigned_abs() * f.den.unsigned_abs()
}

fn mp_in_range(m: Mp) -> bool {
    m.raw().unsigned_abs() <= Mp::cells(MAX_AMOUNT).raw().unsigned_abs()
}

fn feet_in_range(ft: i64) -> bool {
    ft.unsigned_abs() <= MAX_FEET.unsigned_abs()
}

fn frac_positive(f: Frac) -> bool {
    f.num > 0 && frac_in_range(f)
}

fn frac_unit(f: Frac) -> bool {
    f.num >= 0 && f.num <= f.den && frac_in_range(f)
}

fn positive_mp(m: Mp) -> bool {
    m > Mp::ZERO && mp_in_range(m)
}

fn non_negative_mp(m: Mp) -> bool {
    m >= Mp::ZERO && mp_in_range(m)
}

/// Checks a ruleset for self-consistency, placing each problem at the value that causes it.
fn check_ruleset(r: &Ruleset, cx: &mut Ctx) {
    if r.name.trim().is_empty() {
        cx.err(
            &[P::F("name")],
            "the ruleset name is empty: expected a name",
        );
    }
    // Gaits (H2).
    if !r.gaits.contains_key(&Gait::Walk) {
        cx.err(
            &[P::F("gaits")],
            "gaits has no Walk multiplier: expected at least `Walk: 1`",
        );
    }
    for (g, m) in &r.gaits {
        if *g != Gait::Halt && !frac_positive(*m) {
            let key = format!("{g:?}");
            cx.err(
                &[P::F("gaits"), P::K(&key)],
                format!("the {g} multiplier is {m}: expected a positive number up to {MAX_AMOUNT}"),
            );
        }
    }
    // Horse classes (H1, A7).
    for (name, class) in &r.horse_classes {
        if !positive_mp(class.walk) {
            cx.err(
                &[P::F("horse_classes"), P::K(name), P::F("walk")],
                format!(
                    "horse class {name:?} walks {}: expected a positive rate up to {MAX_AMOUNT}",
                    class.walk
                ),
            );
        }
        if class.gaits.is_empty() {
            cx.err(
                &[P::F("horse_classes"), P::K(name), P::F("gaits")],
                format!("horse class {name:?} has no gaits: expected at least [Halt, Walk]"),
            );
        }
        for (j, g) in class.gaits.iter().enumerate() {
            if *g != Gait::Halt && !r.gaits.contains_key(g) {
                cx.err(
                    &[P::F("horse_classes"), P::K(name), P::F("gaits"), P::I(j)],
                    format!(
                        "horse class {name:?} can {g}, but the ruleset's gaits give no {g} \
                         multiplier: expected one of {}",
                        list(r.gaits.keys().map(|g| format!("{g:?}")))
                    ),
                );
            }
        }
    }
    // Turning and manoeuvre costs (D14, H3–H5).
    for (field, f) in [
        ("front", r.foot_turn.front),
        ("side", r.foot_turn.side),
        ("rear", r.foot_turn.rear),
    ] {
        if !frac_unit(f) {
            cx.err(
                &[P::F("foot_turn"), P::F(field)],
                format!("foot_turn.{field} is {f}: expected a fraction from 0 to 1"),
            );
        }
    }
    if !non_negative_mp(r.foot_turn.minimum) {
        cx.err(
            &[P::F("foot_turn"), P::F("minimum")],
            format!(
                "foot_turn.minimum is {}: expected 0 to {MAX_AMOUNT}",
                r.foot_turn.minimum
            ),
        );
    }
    for (field, v) in [
        ("veer", r.horse.veer),
        ("right_angle", r.horse.right_angle),
        ("turn_around", r.horse.turn_around),
        ("back_up", r.horse.back_up),
    ] {
        if !non_negative_mp(v) {
            cx.err(
                &[P::F("horse"), P::F(field)],
                format!("horse.{field} is {v}: expected 0 to {MAX_AMOUNT}"),
            );
        }
    }
    if r.gallop_streak == Some(0) {
        cx.err(
            &[P::F("gallop_streak")],
            "gallop_streak is 0: expected at least 1 (or None for no limit)",
        );
    }
    if !(0..=MAX_FEET).contains(&r.cell_feet) {
        cx.err(
            &[P::F("cell_feet")],
            format!("cell_feet is {}: expected 0 to {MAX_FEET}", r.cell_feet),
        );
    }
    // Activity penalties (D15, R2).
    let mut uses_feet = false;
    for (act, p) in &r.activities {
        let key = format!("{act:?}");
        let bad: Option<String> = match p {
            Penalty::Allowance(f) | Penalty::Species(f) => {
                (!frac_unit(*f)).then(|| format!("{f}: expected a fraction from 0 to 1"))
            }
            Penalty::ByEncumbrance {
                none,
                partial,
                full,
            } => [none, partial, full]
                .into_iter()
                .find(|f| !frac_unit(**f))
                .map(|f| format!("{f}: expected fractions from 0 to 1")),
            Penalty::Feet(ft) => {
                uses_feet = true;
                (!(0..=MAX_FEET).contains(ft))
                    .then(|| format!("{ft} feet: expected 0 to {MAX_FEET}"))
            }
            Penalty::HalveAllowance | Penalty::Free => None,
        };
        if let Some(bad) = bad {
            cx.err(
                &[P::F("activities"), P::K(&key)],
                format!("the {key} penalty is {bad}"),
            );
        }
    }
    match &r.mounting {
        MountRule::Asl if r.asl.is_none() => cx.err(
            &[P::F("mounting")],
            "mounting is Asl but the ruleset has no `asl` numbers: expected `asl: Some((...))`",
        ),
        MountRule::ByEncumbrance {
            none,
            partial,
            full,
        } if ![none, partial, full].iter().all(|f| frac_unit(**f)) => cx.err(
            &[P::F("mounting")],
            "mounting fractions: expected fractions from 0 to 1",
        ),
        MountRule::BySteedSize { large, huge } if !frac_unit(*large) || !frac_unit(*huge) => cx
            .err(
                &[P::F("mounting")],
                "mounting fractions: expected fractions from 0 to 1",
            ),
        _ => {}
    }
    if let Some(c) = r.crawl_cost
        && !positive_mp(c)
    {
        cx.err(
            &[P::F("crawl_cost")],
            format!("crawl_cost is {c}: expected a positive multiplier up to {MAX_AMOUNT}"),
        );
    }
    if !positive_mp(r.ally_pass_cost) {
        cx.err(
            &[P::F("ally_pass_cost")],
            format!(
                "ally_pass_cost is {}: expected a positive cost up to {MAX_AMOUNT}",
                r.ally_pass_cost
            ),
        );
    }
    // Conditions (R1).
    for (name, c) in &r.conditions {
        if c.feet.is_some() {
            uses_feet = true;
        }
        if let Some(p) = c.percent
            && !frac_in_range(p)
        {
            cx.err(
                &[P::F("conditions"), P::K(name), P::F("percent")],
                format!(
                    "condition {name:?} changes movement by {p}: expected at most {MAX_AMOUNT}"
                ),
            );
        }
        if let Some(ft) = c.feet
            && !feet_in_range(ft)
        {
            cx.err(
                &[P::F("conditions"), P::K(name), P::F("feet")],
                format!("condition {name:?} is {ft} feet: expected -{MAX_FEET} to {MAX_FEET}"),
            );
        }
        if let Some(cells) = c.cells
            && !mp_in_range(cells)
        {
            cx.err(
                &[P::F("conditions"), P::K(name), P::F("cells")],
                format!(
                    "condition {name:?} is {cells} cells: expected -{MAX_AMOUNT} to {MAX_AMOUNT}"
                ),
            );
        }
    }
    if uses_feet && r.cell_feet <= 0 {
        cx.err(
            &[P::F("cell_feet")],
            "penalties or conditions are in feet but cell_feet is not set: expected the feet \
             in one cell (e.g. `cell_feet: 5`)",
        );
    }
    // Templates.
    for (key, t) in &r.templates {
        check_template(r, key, t, cx);
    }
}

fn check_template(r: &Ruleset, key: &str, t: &Template, cx: &mut Ctx) {
    let sub = |rest: &[P<'static>]| -> Vec<P<'_>> {
        let mut path = vec![P::F("templates"), P::K(key)];
        path.extend_from_slice(rest);
        path
    };
    if key.trim().is_empty() {
        cx.err(&sub(&[]), "a template key is empty: expected a name");
    }
    if !non_negative_mp(t.rate) {
        cx.err(
            &sub(&[P::F("rate")]),
            format!(
                "template {key:?} has rate {}: expected 0 to {MAX_AMOUNT}",
                t.rate
            ),
        );
    }
    let cavalry = matches!(
        t.troop,
        TroopType::ShockCavalry | TroopType::ShootingCavalry | TroopType::MountedInfantry
    );
    match &t.mount {
        Some(m) => {
            if !cavalry {
                cx.err(
                    &sub(&[P::F("troop")]),
                    format!(
                        "template {key:?} rides a mount but its troop is {:?}: expected \
                         ShockCavalry, ShootingCavalry or MountedInfantry",
                        t.troop
                    ),
                );
            }
            if !r.horse_classes.contains_key(&m.class) {
                cx.err(
                    &sub(&[P::F("mount"), P::F("class")]),
                    format!(
                        "unknown horse class {:?} in template {key:?}: expected one of {}",
                        m.class,
                        list(r.horse_classes.keys())
                    ),
                );
            }
        }
        None if cavalry => cx.err(
            &sub(&[P::F("troop")]),
            format!(
                "template {key:?} is {:?} but has no mount: expected `mount: Some((...))`",
                t.troop
            ),
        ),
        None => {}
    }
    for (j, c) in t.conditions.iter().enumerate() {
        if !r.conditions.contains_key(c) {
            cx.err(
                &sub(&[P::F("conditions"), P::I(j)]),
                unknown_condition(c, r),
            );
        }
    }
}

fn unknown_condition(c: &str, r: &Ruleset) -> String {
    if r.conditions.is_empty() {
        format!(
            "unknown condition {c:?}: the ruleset {:?} defines no conditions",
            r.name
        )
    } else {
        format!(
            "unknown condition {c:?}: expected one of {}",
            list(r.conditions.keys())
        )
    }
}

/// `a, b, c` for "expected one of" messages, cut short when long.
fn list<I, S>(items: I) -> String
where
    I: IntoIterator<Item = S>,
    S: fmt::Display,
{
    let mut out = String::new();
    for (i, s) in items.into_iter().enumerate() {
        if i == 16 {
            out.push_str(", …");
            break;
        }
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&s.to_string());
    }
    if out.is_empty() {
        out.push_str("(none)");
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Level checks.

/// True when a figure is a horse on the grid: a rider's mount or a riderless horse.
fn is_mounted(t: &Template) -> bool {
    t.mount.is_some() || t.troop == TroopType::Horse
}

/// Checks everything about a level and, when nothing is wrong, builds it.
fn build_level(lf: LevelFile, rules: Option<Ruleset>, cx: &mut Ctx) -> Option<Level> {
    let (w, h) = (lf.width, lf.height);
    // Limits again: the header pass normally caught these, but never build a board on trust.
    if w > MAX_SIDE || h > MAX_SIDE || u64::from(w) * u64::from(h) > MAX_CELLS {
        cx.err(
            &[P::F("width")],
            format!("{LIMIT_TAG}a {w} x {h} map is over the size limits"),
        );
        return None;
    }
    if lf.figures.len() > MAX_FIGURES {
        cx.err(
            &[P::F("figures"), P::I(MAX_FIGURES)],
            format!(
                "{LIMIT_TAG}more than {MAX_FIGURES} figures; a level may hold at most {MAX_FIGURES}"
            ),
        );
        return None;
    }
    if w == 0 {
        cx.err(&[P::F("width")], "width is 0: expected at least 1");
    }
    if h == 0 {
        cx.err(&[P::F("height")], "height is 0: expected at least 1");
    }
    if lf.name.trim().is_empty() {
        cx.err(&[P::F("name")], "the level name is empty: expected a name");
    }
    let map = check_map(&lf, cx)?;
    let sides = check_sides(&lf, cx);
    let (placed, ids) = check_figures(&lf, rules.as_ref(), &map, &sides, cx);
    check_groups(&lf, &ids, cx);

    let rules = rules?;
    if !cx.errors.is_empty() {
        return None;
    }
    let mut board = Board::new(
        rules.grid,
        w as i32,
        h as i32,
        lf.legend.values().cloned().collect(),
    );
    board.terrain = map.terrain;
    Some(Level {
        source: cx.file.to_string(),
        text: String::new(),
        file: lf,
        rules,
        board,
        figures: placed,
    })
}

/// The terrain id of every cell (row-major), and whether the file gave a valid one.
struct MapIds {
    terrain: Vec<u8>,
    known: Vec<bool>,
}

/// Checks the legend and rows and reads the terrain ids (legend characters sorted; each
/// one's index is its id). `None` only when the legend is too big to number.
fn check_map(lf: &LevelFile, cx: &mut Ctx) -> Option<MapIds> {
    let (w, h) = (lf.width, lf.height);
    if lf.legend.len() > usize::from(u8::MAX) + 1 {
        cx.err(
            &[P::F("legend")],
            format!(
                "{LIMIT_TAG}the legend has {} terrains; at most 256 are allowed",
                lf.legend.len()
            ),
        );
        return None;
    }
    if lf.legend.is_empty() {
        cx.err(
            &[P::F("legend")],
            "the legend is empty: expected at least one terrain",
        );
    }
    let ids: BTreeMap<char, u8> = lf
        .legend
        .keys()
        .enumerate()
        .map(|(i, c)| (*c, i as u8))
        .collect();
    for (ch, t) in &lf.legend {
        check_terrain(*ch, t, cx);
    }

    let (wu, hu) = (w as usize, h as usize);
    let mut map = MapIds {
        terrain: vec![0u8; wu * hu],
        known: vec![false; wu * hu],
    };
    if lf.rows.len() > hu {
        cx.err(
            &[P::F("rows"), P::I(hu)],
            format!(
                "too many rows: height is {h} but rows has {}; expected {h} rows",
                lf.rows.len()
            ),
        );
    } else if lf.rows.len() < hu {
        cx.err(
            &[P::F("rows")],
            format!(
                "too few rows: height is {h} but rows has {}; expected {h} rows",
                lf.rows.len()
            ),
        );
    }
    let legend_list = || list(lf.legend.keys().map(|c| format!("{c:?}")));
    for (y, row) in lf.rows.iter().enumerate() {
        let n = row.chars().count();
        if n != wu {
            let what = if n < wu { "short" } else { "long" };
            cx.err(
                &[P::F("rows"), P::I(y)],
                format!("row {y} is too {what}: {n} cells; expected {w} (the width)"),
            );
        }
        let mut reported = HashSet::new();
        for (x, ch) in row.chars().enumerate() {
            match ids.get(&ch) {
                Some(id) if x < wu && y < hu => {
                    map.terrain[y * wu + x] = *id;
                    map.known[y * wu + x] = true;
                }
                Some(_) => {}
                None if reported.insert(ch) => {
                    let off = cx.char_in_string(&[P::F("rows"), P::I(y)], x);
                    cx.err_at(
                        off,
                        format!(
                            "unknown terrain character {ch:?} in row {y}: expected one of the \
                             legend's {}",
                            legend_list()
                        ),
                    );
                }
                None => {}
            }
        }
    }
    Some(map)
}

/// Checks the sides and returns each good name's index.
fn check_sides<'l>(lf: &'l LevelFile, cx: &mut Ctx) -> HashMap<&'l str, u8> {
    if lf.sides.len() < 2 {
        cx.err(
            &[P::F("sides")],
            format!(
                "a level needs at least 2 sides, found {}: expected a list like \
                 [(name: \"Red\", control: Human), (name: \"Blue\", control: Ai)]",
                lf.sides.len()
            ),
        );
    }
    if lf.sides.len() > MAX_SIDES {
        cx.err(
            &[P::F("sides"), P::I(MAX_SIDES)],
            format!(
                "{LIMIT_TAG}{} sides; at most {MAX_SIDES} are allowed",
                lf.sides.len()
            ),
        );
    }
    let mut index: HashMap<&str, u8> = HashMap::new();
    for (i, s) in lf.sides.iter().enumerate() {
        let at = [P::F("sides"), P::I(i), P::F("name")];
        if s.name.trim().is_empty() {
            cx.err(&at, "a side name is empty: expected a name");
        } else if index.contains_key(s.name.as_str()) {
            cx.err(
                &at,
                format!("duplicate side {:?}: expected each side once", s.name),
            );
        } else if i < MAX_SIDES {
            index.insert(&s.name, i as u8);
        }
    }
    index
}

/// Checks every figure and places the good ones; also returns the index of the figure that
/// owns each id, for the groups.
fn check_figures<'l>(
    lf: &'l LevelFile,
    rules: Option<&Ruleset>,
    map: &MapIds,
    sides: &HashMap<&str, u8>,
    cx: &mut Ctx,
) -> (Vec<PlacedFigure>, HashMap<&'l str, usize>) {
    let (w, h) = (lf.width, lf.height);
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut cells: HashMap<Cell, &str> = HashMap::new();
    let mut placed = Vec::with_capacity(lf.figures.len());
    for (i, f) in lf.figures.iter().enumerate() {
        let fp = |field: &'static str| [P::F("figures"), P::I(i), P::F(field)];
        // Id: unique, and usable on the command line.
        if f.id.trim().is_empty() || f.id.chars().any(char::is_whitespace) {
            cx.err(
                &fp("id"),
                format!(
                    "figure id {:?}: expected a non-empty name without spaces (orders use it)",
                    f.id
                ),
            );
        } else if let Some(first) = ids.get(f.id.as_str()) {
            cx.err(
                &fp("id"),
                format!(
                    "duplicate figure id {:?} (figure {first} has it): expected unique ids",
                    f.id
                ),
            );
        } else {
            ids.insert(&f.id, i);
        }
        let side = sides.get(f.side.as_str()).copied();
        if side.is_none() {
            cx.err(
                &fp("side"),
                format!(
                    "unknown side {:?}: expected one of {}",
                    f.side,
                    list(lf.sides.iter().map(|s| &s.name))
                ),
            );
        }
        let template = rules.and_then(|r| {
            let t = r.templates.get(&f.template);
            if t.is_none() {
                cx.err(
                    &fp("template"),
                    format!(
                        "unknown template {:?} in ruleset {:?}: expected one of {}",
                        f.template,
                        r.name,
                        list(r.templates.keys())
                    ),
                );
            }
            t
        });
        let mounted = template.is_some_and(is_mounted);
        // Cell: on the map, enterable, and not shared (D10a).
        let cell = Cell::new(f.at.0, f.at.1);
        let on_map = f.at.0 >= 0 && f.at.1 >= 0 && (f.at.0 as u32) < w && (f.at.1 as u32) < h;
        if !on_map {
            cx.err(
                &fp("at"),
                format!(
                    "figure {:?} at {cell} is off the map: expected 0 <= x < {w} and 0 <= y < {h}",
                    f.id
                ),
            );
        } else {
            let idx = f.at.1 as usize * w as usize + f.at.0 as usize;
            let ter = map
                .terrain
                .get(idx)
                .filter(|_| map.known.get(idx) == Some(&true))
                .and_then(|id| lf.legend.values().nth(usize::from(*id)));
            if let (Some(ter), Some(_)) = (ter, template)
                && ter.multiplier(mounted).is_none()
            {
                cx.err(
                    &fp("at"),
                    format!(
                        "figure {:?} at {cell} stands on impassable terrain {:?}: expected a \
                         cell it could enter",
                        f.id, ter.name
                    ),
                );
            }
            if let Some(other) = cells.get(&cell) {
                cx.err(
                    &fp("at"),
                    format!(
                        "two figures in one cell: {:?} and {other:?} at {cell}; expected one \
                         figure per cell (D10a)",
                        f.id
                    ),
                );
            } else {
                cells.insert(cell, &f.id);
            }
        }
        let facing = rules.and_then(|r| check_facing(f, r, mounted, cx, &fp("facing")));
        if let (Some(r), Some(t)) = (rules, template) {
            if let Some(g) = f.gait {
                check_gait(f, g, t, r, cx, &fp("gait"));
            }
            for (j, c) in f.conditions.iter().enumerate() {
                if !r.conditions.contains_key(c) {
                    cx.err(
                        &[P::F("figures"), P::I(i), P::F("conditions"), P::I(j)],
                        unknown_condition(c, r),
                    );
                }
            }
            if let (Some(side), Some(facing)) = (side, facing) {
                placed.push(PlacedFigure {
                    id: f.id.clone(),
                    template_key: f.template.clone(),
                    template: t.clone(),
                    side,
                    at: cell,
                    facing,
                    gait: f.gait.unwrap_or(Gait::Walk),
                    conditions: t.conditions.iter().chain(&f.conditions).cloned().collect(),
                });
            }
        }
    }
    (placed, ids)
}

/// A facing name of the ruleset's grid; a mount that pays horse turning costs on squares
/// must face along a grid line (H6).
fn check_facing(f: &FigureSpec, r: &Ruleset, mounted: bool, cx: &mut Ctx, at: &[P]) -> Option<Dir> {
    let g = r.grid;
    let Some(d) = g.parse_dir(&f.facing) else {
        cx.err(
            at,
            format!(
                "unknown facing {:?} on {}: expected one of {}",
                f.facing,
                grid_name(g),
                list(g.all_dirs().map(|d| g.dir_name(d)))
            ),
        );
        return None;
    };
    if mounted && r.style(true) == MoveStyle::Horse && !g.is_orthogonal(d) {
        cx.err(
            at,
            format!(
                "a mount on squares faces along a grid line (H6): expected N, E, S or W, found \
                 {:?}",
                f.facing
            ),
        );
    }
    Some(d)
}

/// Foot figures always walk; a mount's gait must be one the ruleset and its class have.
fn check_gait(f: &FigureSpec, g: Gait, t: &Template, r: &Ruleset, cx: &mut Ctx, at: &[P]) {
    let mounted = is_mounted(t);
    if !mounted && g != Gait::Walk {
        cx.err(
            at,
            format!(
                "{:?} is on foot and foot figures always walk: expected Walk (or no gait), \
                 found {g:?}",
                f.id
            ),
        );
    } else if mounted && r.gait_multiplier(g).is_none() {
        cx.err(
            at,
            format!(
                "the ruleset {:?} has no {g:?}: expected one of {}",
                r.name,
                list(r.gaits.keys().map(|g| format!("{g:?}")))
            ),
        );
    } else if let Some(class) = t.mount.as_ref().and_then(|m| r.horse_classes.get(&m.class))
        && !class.gaits.contains(&g)
    {
        cx.err(
            at,
            format!(
                "{:?}'s mount cannot {g}: expected one of {}",
                f.id,
                list(class.gaits.iter().map(|g| format!("{g:?}")))
            ),
        );
    }
}

/// AI groups (I1): unique names, known members listed once, all on one side.
fn check_groups(lf: &LevelFile, ids: &HashMap<&str, usize>, cx: &mut Ctx) {
    let mut names = HashSet::new();
    for (g, group) in lf.groups.iter().enumerate() {
        let name_at = [P::F("groups"), P::I(g), P::F("name")];
        if group.name.trim().is_empty() {
            cx.err(&name_at, "a group name is empty: expected a name");
        } else if !names.insert(group.name.as_str()) {
            cx.err(
                &name_at,
                format!(
                    "duplicate group {:?}: expected unique group names",
                    group.name
                ),
            );
        }
        if group.members.is_empty() {
            cx.err(
                &[P::F("groups"), P::I(g), P::F("members")],
                format!("group {:?} has no members: expected figure ids", group.name),
            );
        }
        let mut members = HashSet::new();
        let mut group_side: Option<&str> = None;
        for (m, id) in group.members.iter().enumerate() {
            let at = [P::F("groups"), P::I(g), P::F("members"), P::I(m)];
            let Some(&fi) = ids.get(id.as_str()) else {
                cx.err(
                    &at,
                    format!(
                        "unknown figure {id:?} in group {:?}: expected the id of a figure",
                        group.name
                    ),
                );
                continue;
            };
            if !members.insert(id.as_str()) {
                cx.err(
                    &at,
                    format!("{id:?} is listed twice in group {:?}", group.name),
                );
            }
            let side = lf.figures.get(fi).map(|f| f.side.as_str());
            match (group_side, side) {
                (None, s) => group_side = s,
                (Some(a), Some(b)) if a != b => cx.err(
                    &at,
                    format!(
                        "group {:?} mixes sides {a:?} and {b:?}: expected one side",
                        group.name
                    ),
                ),
                _ => {}
            }
        }
    }
}

fn grid_name(g: GridKind) -> &'static str {
    match g {
        GridKind::Square => "squares",
        GridKind::Hex => "hexes",
    }
}

fn check_terrain(ch: char, t: &Terrain, cx: &mut Ctx) {
    let key = ch.to_string();
    if t.name.trim().is_empty() {
        cx.err(
            &[P::F("legend"), P::K(&key), P::F("name")],
            format!("terrain {ch:?} has an empty name: expected a name"),
        );
    }
    if let Some(c) = t.cost
        && !positive_mp(c)
    {
        cx.err(
            &[P::F("legend"), P::K(&key), P::F("cost")],
            format!(
                "terrain {ch:?} costs {c}: expected a positive multiplier up to {MAX_AMOUNT}, or \
                 None for impassable"
            ),
        );
    }
    if let Some(Some(c)) = t.mounted_cost
        && !positive_mp(c)
    {
        cx.err(
            &[P::F("legend"), P::K(&key), P::F("mounted_cost")],
            format!(
                "terrain {ch:?} costs mounted figures {c}: expected a positive multiplier up to \
                 {MAX_AMOUNT}, or Some(None) for impassable"
            ),
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Collecting errors with positions.

/// The errors of one load, and what is needed to place them in the text.
struct Ctx<'s> {
    file: &'s str,
    src: &'s str,
    tree: OnceCell<Option<Node<'s>>>,
    lines: OnceCell<LineIndex<'s>>,
    errors: Vec<LoadError>,
    truncated: bool,
}

impl<'s> Ctx<'s> {
    fn new(file: &'s str, src: &'s str) -> Ctx<'s> {
        Ctx {
            file,
            src,
            tree: OnceCell::new(),
            lines: OnceCell::new(),
            errors: Vec::new(),
            truncated: false,
        }
    }

    fn tree(&self) -> Option<&Node<'s>> {
        self.tree
            .get_or_init(|| Scan::new(self.src).document())
            .as_ref()
    }

    /// The offset of the deepest part of `path` found in the text (the start of the document
    /// if nothing matches), so an error lands as close to its cause as the text allows.
    fn offset(&self, path: &[P]) -> usize {
        let Some(mut node) = self.tree() else {
            return 0;
        };
        let mut off = node.start;
        for step in path {
            match node.step(*step) {
                Some(n) => {
                    node = n;
                    off = n.start;
                }
                None => break,
            }
        }
        off
    }

    /// The offset of the `index`-th character inside the string at `path`, or of the string
    /// itself when it holds escapes (whose text positions do not match character indices).
    fn char_in_string(&self, path: &[P], index: usize) -> usize {
        let start = self.offset(path);
        let text = self.src.get(start..).unwrap_or_default();
        let Some(body) = text.strip_prefix('"') else {
            return start;
        };
        let mut off = None;
        for (k, (b, c)) in body.char_indices().enumerate() {
            if c == '\\' || c == '"' {
                break;
            }
            if k == index {
                off = Some(start + 1 + b);
                break;
            }
        }
        off.unwrap_or(start)
    }

    fn err(&mut self, path: &[P], message: impl Into<String>) {
        let off = self.offset(path);
        self.err_at(off, message);
    }

    fn err_at(&mut self, offset: usize, message: impl Into<String>) {
        if self.errors.len() >= MAX_ERRORS {
            if !self.truncated {
                self.truncated = true;
                self.errors.push(LoadError::new(
                    self.file,
                    1,
                    1,
                    format!("too many errors; stopped after {MAX_ERRORS}"),
                ));
            }
            return;
        }
        let (line, column) = self
            .lines
            .get_or_init(|| LineIndex::new(self.src))
            .pos(offset);
        self.errors
            .push(LoadError::new(self.file, line, column, message));
    }

    fn extend(&mut self, es: LoadErrors) {
        self.errors.extend(es.0);
    }

    fn into_errors(self) -> LoadErrors {
        LoadErrors(self.errors)
    }

    fn finish<T>(self, value: T) -> Result<T, LoadErrors> {
        if self.errors.is_empty() {
            Ok(value)
        } else {
            Err(self.into_errors())
        }
    }
}

/// Byte offset → 1-based line and character column, like `ron` counts them.
struct LineIndex<'s> {
    src: &'s str,
    starts: Vec<usize>,
}

impl<'s> LineIndex<'s> {
    fn new(src: &'s str) -> LineIndex<'s> {
        let starts = std::iter::once(0)
            .chain(src.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { src, starts }
    }

    /// The byte offset of a 1-based line and character column (clamped into the text).
    fn offset(&self, line: usize, column: usize) -> usize {
        let start = self
            .starts
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or(self.src.len());
        let rest = self.src.get(start..).unwrap_or_default();
        start
            + rest
                .char_indices()
                .nth(column.saturating_sub(1))
                .map_or(rest.len(), |(b, _)| b)
    }

    /// The position of `offset`, clamped into the text and back to a character boundary, so
    /// any offset is safe to ask about.
    fn pos(&self, offset: usize) -> (usize, usize) {
        let mut off = offset.min(self.src.len());
        while off > 0 && !self.src.is_char_boundary(off) {
            off -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= off).max(1);
        let start = self.starts.get(line - 1).copied().unwrap_or(0);
        let column = self.src.get(start..off).map_or(0, |s| s.chars().count()) + 1;
        (line, column)
    }
}

// ---------------------------------------------------------------------------------------------
// A span scanner for RON: just enough structure to find where a value is written.

/// One step of a path into the document.
#[derive(Clone, Copy, Debug)]
enum P<'a> {
    /// A struct field.
    F(&'a str),
    /// A list or tuple element.
    I(usize),
    /// A map entry's value, by key as decoded (`'f'` → `f`, `"knight"` → `knight`).
    K(&'a str),
}

#[derive(Debug)]
struct Node<'s> {
    start: usize,
    name: Option<&'s str>,
    kind: Kind<'s>,
}

#[derive(Debug)]
enum Kind<'s> {
    Atom(&'s str),
    List(Vec<Node<'s>>),
    Struct(Vec<(&'s str, Node<'s>)>),
    Map(Vec<(Node<'s>, Node<'s>)>),
}

impl<'s> Node<'s> {
    /// Looks through `Some(x)` (explicit options) to `x`.
    fn inner(&self) -> &Node<'s> {
        match (&self.name, &self.kind) {
            (Some("Some"), Kind::List(v)) if v.len() == 1 => v.first().map_or(self, Node::inner),
            _ => self,
        }
    }

    fn step(&self, step: P) -> Option<&Node<'s>> {
        match (step, &self.inner().kind) {
            (P::F(f), Kind::Struct(fields)) => fields
                .iter()
                .find(|(n, _)| n.strip_prefix("r#").unwrap_or(n) == f)
                .map(|(_, v)| v),
            (P::I(i), Kind::List(items)) => items.get(i),
            (P::K(k), Kind::Map(entries)) => entries
                .iter()
                .find(|(key, _)| key.key_text().as_deref() == Some(k))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// A map key as the program sees it: strings and chars decoded, identifiers as written.
    fn key_text(&self) -> Option<String> {
        let Kind::Atom(t) = self.kind else {
            return None;
        };
        if t.starts_with('\'') {
            ron::from_str::<char>(t).ok().map(String::from)
        } else if t.starts_with('"') || t.starts_with('r') && t.contains('"') {
            ron::from_str::<String>(t).ok()
        } else {
            Some(t.to_string())
        }
    }
}

/// Whitespace as `ron` defines it, so the scanner and `ron` agree on token positions.
fn is_ws(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t'
            | '\n'
            | '\r'
            | '\x0B'
            | '\x0C'
            | '\u{85}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

/// Recursion guard for the scanner; `ron` has already refused anything deeper than its own
/// limit by the time the scanner runs.
const SCAN_DEPTH: usize = 512;

struct Scan<'s> {
    src: &'s str,
    i: usize,
}

impl<'s> Scan<'s> {
    fn new(src: &'s str) -> Scan<'s> {
        Scan { src, i: 0 }
    }

    fn rest(&self) -> &'s str {
        self.src.get(self.i..).unwrap_or_default()
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn peek2(&self) -> Option<char> {
        self.rest().chars().nth(1)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += c.len_utf8();
        Some(c)
    }

    /// Skips whitespace, comments and `#![enable(...)]` attributes. `None` only for an
    /// unclosed comment or attribute.
    fn skip_ws(&mut self) -> Option<()> {
        loop {
            match (self.peek(), self.peek2()) {
                (Some(c), _) if is_ws(c) => {
                    self.bump();
                }
                (Some('/'), Some('/')) => {
                    while let Some(c) = self.bump() {
                        if c == '\n' {
                            break;
                        }
                    }
                }
                (Some('/'), Some('*')) => {
                    self.i += 2;
                    let mut depth = 1;
                    while depth > 0 {
                        match (self.bump()?, self.peek()) {
                            ('*', Some('/')) => {
                                self.i += 1;
                                depth -= 1;
                            }
                            ('/', Some('*')) => {
                                self.i += 1;
                                depth += 1;
                            }
                            _ => {}
                        }
                    }
                }
                (Some('#'), Some('!')) => while self.bump()? != ']' {},
                _ => return Some(()),
            }
        }
    }

    fn quoted(&mut self, close: char) -> Option<()> {
        self.bump()?;
        loop {
            match self.bump()? {
                '\\' => {
                    self.bump()?;
                }
                c if c == close => return Some(()),
                _ => {}
            }
        }
    }

    fn raw_string(&mut self, hashes: usize) -> Option<()> {
        self.bump()?; // the opening quote
        loop {
            if self.bump()? == '"' && self.rest().bytes().take(hashes).all(|b| b == b'#') {
                if self.rest().len() < hashes {
                    return None;
                }
                self.i += hashes;
                return Some(());
            }
        }
    }

    /// One token that is not a bracket: a string, a char, a number, an identifier.
    fn atom(&mut self) -> Option<()> {
        let rest = self.rest();
        match self.peek()? {
            '"' => return self.quoted('"'),
            '\'' => return self.quoted('\''),
            _ => {}
        }
        if rest.starts_with("b'") || rest.starts_with("b\"") {
            self.i += 1;
            let close = if rest.starts_with("b'") { '\'' } else { '"' };
            return self.quoted(close);
        }
        let prefix = if rest.starts_with("br") {
            2
        } else if rest.starts_with('r') {
            1
        } else {
            0
        };
        if prefix > 0 {
            let after = rest.get(prefix..).unwrap_or_default();
            let hashes = after.bytes().take_while(|&b| b == b'#').count();
            if after.get(hashes..).is_some_and(|s| s.starts_with('"')) {
                self.i += prefix + hashes;
                return self.raw_string(hashes);
            }
        }
        let start = self.i;
        while let Some(c) = self.peek() {
            if is_ws(c) || "(),:[]{}\"'/".contains(c) {
                break;
            }
            self.bump();
        }
        (self.i > start).then_some(())
    }

    fn document(mut self) -> Option<Node<'s>> {
        self.value(0)
    }

    fn value(&mut self, depth: usize) -> Option<Node<'s>> {
        if depth > SCAN_DEPTH {
            return None;
        }
        self.skip_ws()?;
        let start = self.i;
        match self.peek()? {
            '(' => self.paren(start, None, depth),
            '[' => {
                self.bump();
                let items = self.items(']', depth)?;
                Some(Node {
                    start,
                    name: None,
                    kind: Kind::List(items),
                })
            }
            '{' => {
                self.bump();
                let mut entries = Vec::new();
                loop {
                    self.skip_ws()?;
                    if self.peek()? == '}' {
                        self.bump();
                        break;
                    }
                    let key = self.value(depth + 1)?;
                    self.skip_ws()?;
                    (self.bump()? == ':').then_some(())?;
                    let value = self.value(depth + 1)?;
                    entries.push((key, value));
                    if !self.separator('}')? {
                        break;
                    }
                }
                Some(Node {
                    start,
                    name: None,
                    kind: Kind::Map(entries),
                })
            }
            _ => {
                self.atom()?;
                let text = self.src.get(start..self.i)?;
                let ident = text
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '_')
                    && !text.contains(['"', '\'']);
                if ident {
                    let save = self.i;
                    self.skip_ws()?;
                    if self.peek() == Some('(') {
                        return self.paren(start, Some(text), depth);
                    }
                    self.i = save;
                }
                Some(Node {
                    start,
                    name: None,
                    kind: Kind::Atom(text),
                })
            }
        }
    }

    /// After an element: a comma (more may follow, `Some(true)`) or the closing bracket
    /// (`Some(false)`).
    fn separator(&mut self, close: char) -> Option<bool> {
        self.skip_ws()?;
        match self.bump()? {
            ',' => Some(true),
            c if c == close => Some(false),
            _ => None,
        }
    }

    fn items(&mut self, close: char, depth: usize) -> Option<Vec<Node<'s>>> {
        let mut items = Vec::new();
        loop {
            self.skip_ws()?;
            if self.peek()? == close {
                self.bump();
                return Some(items);
            }
            items.push(self.value(depth + 1)?);
            if !self.separator(close)? {
                return Some(items);
            }
        }
    }

    /// `(` … `)`: a struct when it opens with `name:`, else a tuple.
    fn paren(&mut self, start: usize, name: Option<&'s str>, depth: usize) -> Option<Node<'s>> {
        self.bump(); // (
        self.skip_ws()?;
        let save = self.i;
        let is_struct =
            self.atom().is_some() && self.skip_ws().is_some() && self.peek() == Some(':');
        self.i = save;
        if !is_struct {
            let items = self.items(')', depth)?;
            return Some(Node {
                start,
                name,
                kind: Kind::List(items),
            });
        }
        let mut fields = Vec::new();
        loop {
            self.skip_ws()?;
            if self.peek()? == ')' {
                self.bump();
                break;
            }
            let fstart = self.i;
            self.atom()?;
            let fname = self.src.get(fstart..self.i)?;
            self.skip_ws()?;
            (self.bump()? == ':').then_some(())?;
            let value = self.value(depth + 1)?;
            fields.push((fname, value));
            if !self.separator(')')? {
                break;
            }
        }
        Some(Node {
            start,
            name,
            kind: Kind::Struct(fields),
        })
    }
}

#[cfg(test)]
mod tests {
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
}
