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
use std::path::Path;

mod check_level;
mod check_ruleset;
mod check_victory;
mod context;
mod read;
mod scan;
#[cfg(test)]
mod tests;

use check_level::*;
use check_ruleset::*;
use context::*;
use read::*;
pub use read::{leading_fields, parse_ron_text};
use scan::*;

/// The level played when none is named, embedded so the binary runs from any directory.
pub const DEFAULT_LEVEL: &str = include_str!("../../../levels/default.ron");

/// The name the embedded default level reports in messages and in [`Level::source`].
pub const DEFAULT_LEVEL_NAME: &str = "<embedded default>";

/// The rulesets shipped in the binary; a level's `ruleset` field may name any of them.
pub const BUILTIN_RULESETS: [&str; 4] = ["destrier", "asl", "realms", "supplement"];

/// Most sides a level may have: occupancy is stored as side + 1 in a byte, and more than a
/// handful of sides is never a real battle.
pub const MAX_SIDES: usize = 16;

/// Most errors reported for one file; past this the rest are almost always the same mistake
/// repeated, and positions cost time on huge files.
pub const MAX_ERRORS: usize = 200;

const DESTRIER_SRC: &str = include_str!("../../../rulesets/destrier.ron");
const ASL_SRC: &str = include_str!("../../../rulesets/asl.ron");
const REALMS_SRC: &str = include_str!("../../../rulesets/realms.ron");
const SUPPLEMENT_SRC: &str = include_str!("../../../rulesets/supplement.ron");

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
        "supplement" => Some(SUPPLEMENT_SRC),
        _ => None,
    }
}

/// A ruleset shipped in the binary, by name (`destrier`, `asl`, `realms`, `supplement`). `None` for any other
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
    check_tokens(&text, file, TokenRules::default())?;
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
    load_level_text(src, file, |lf, cx| {
        resolve_ruleset(&lf.ruleset, base_dir, cx)
    })
}

/// Parses and checks level text against a ruleset already in hand (a saved game carries its
/// ruleset, so a save loads even if the ruleset file has since changed or moved).
pub fn load_level_str_with(src: &str, file: &str, rules: Ruleset) -> Result<Level, LoadErrors> {
    load_level_text(src, file, |_, _| Some(rules))
}

/// The level pipeline: size and token limits, the header pass, the parse, the ruleset (found
/// by `ruleset`), then every meaning check.
fn load_level_text(
    src: &str,
    file: &str,
    ruleset: impl FnOnce(&LevelFile, &mut Ctx) -> Option<Ruleset>,
) -> Result<Level, LoadErrors> {
    if src.len() as u64 > MAX_FILE_BYTES {
        return Err(file_too_big(file, src.len() as u64));
    }
    let text = normalise(src, Some("Level"));
    check_tokens(
        &text,
        file,
        TokenRules {
            multiline: &["description"],
            embedded: &[],
        },
    )?;
    check_level_header(&text, file)?;
    let lf: LevelFile = parse(&text, file)?;
    let mut cx = Ctx::new(file, &text);
    let rules = ruleset(&lf, &mut cx);
    match build_level(lf, rules, &mut cx) {
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
