//! Levels: a map, a ruleset, sides and figures, read from RON files (issue 2 §7).
//!
//! `LevelFile` is exactly what the file holds; `Level` is the checked, resolved form the
//! simulation builds its world from. Loading never panics: every problem becomes a
//! [`LoadError`] with file, line, column and what was expected.

pub mod error;
pub mod input;
pub mod load;

pub use error::{LoadError, LoadErrors};
pub use load::{
    DEFAULT_LEVEL, builtin_ruleset, check_file, default_level, load_level_file, load_level_str,
    load_level_str_with, load_ruleset_file, load_ruleset_str,
};

use crate::rules::board::{Board, Terrain};
use crate::rules::gait::Gait;
use crate::rules::grid::{Cell, Dir};
use crate::rules::ruleset::{Ruleset, Template};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Largest map accepted, in cells (refused before anything is allocated).
pub const MAX_CELLS: u64 = 512 * 512;
/// Largest side of a map.
pub const MAX_SIDE: u32 = 1024;
/// Most figures a level may hold.
pub const MAX_FIGURES: usize = 4096;
/// Largest level or ruleset file read, in bytes.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// A level file as written.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelFile {
    /// Shown on the start screen.
    pub name: String,
    /// One or two sentences for the start screen.
    #[serde(default)]
    pub description: String,
    /// A built-in ruleset (`destrier`, `asl`, `realms`, `supplement`) or a path inside the level file's
    /// folder, relative to it (no absolute paths, no `..`).
    pub ruleset: String,
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// What each character of `rows` means.
    pub legend: BTreeMap<char, Terrain>,
    /// One string per row, one character per cell.
    pub rows: Vec<String>,
    /// The sides, in order (side 0 is listed first).
    pub sides: Vec<SideSpec>,
    /// The figures.
    pub figures: Vec<FigureSpec>,
    /// AI groups (I1): named sets of figure ids that act as one unit.
    #[serde(default)]
    pub groups: Vec<GroupSpec>,
    /// D1: a side taken by surprise; the other side has the initiative in the first turn.
    #[serde(default)]
    pub surprised: Option<String>,
    /// How the battle is won (issue 12): the turn limit and each side's objectives.
    #[serde(default)]
    pub victory: Option<crate::rules::victory::VictorySpec>,
    /// The side a new player should take in a first game.
    #[serde(default)]
    pub suggested_side: Option<String>,
}

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Control {
    /// A person at this computer (hot-seat when both are).
    Human,
    /// The computer.
    Ai,
}

/// One side of the battle.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSpec {
    /// "Red", "Blue", "Normans", …
    pub name: String,
    /// Human or AI.
    pub control: Control,
    /// What this side's commander is told before the first turn (issue 12): read behind
    /// the hand-over screen in hot-seat.
    #[serde(default)]
    pub briefing: String,
}

/// One figure placed on the map.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FigureSpec {
    /// Unique id, used by orders and the command line.
    pub id: String,
    /// The name players read ("Sir Roland"); without one, the template's name, numbered
    /// when several figures share it ("Footman 2") (`rules::names`, issue 34).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Key into the ruleset's templates.
    pub template: String,
    /// Side name.
    pub side: String,
    /// Cell `(x, y)`.
    pub at: (i32, i32),
    /// Facing name (`N`, `NE`, … on squares; `NE`, `E`, … on hexes). Mounts on squares face
    /// along a grid line (H6).
    pub facing: String,
    /// Starting gait of a mounted figure (walk by default).
    #[serde(default)]
    pub gait: Option<Gait>,
    /// Extra movement conditions (R1).
    #[serde(default)]
    pub conditions: Vec<String>,
    /// §6 FEROCITY: the id of its Lady (or Man), a figure of its own side: when this figure
    /// is berserk and the Lady tries to calm it, the chance of being turned on is 20% lower.
    #[serde(default)]
    pub beloved: Option<String>,
    /// The side's leader though its template is no hero: the level's story names this figure
    /// its side's captain. It counts as a hero or leader wherever the template's `hero` does
    /// (I1's "Hero with unit", and who commands, docs/rules.md "Uncommanded troops").
    #[serde(default)]
    pub leader: bool,
}

/// An AI group (I1).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupSpec {
    /// Group name.
    pub name: String,
    /// Figure ids.
    pub members: Vec<String>,
}

/// A figure, resolved against its ruleset.
#[derive(Clone, Debug)]
pub struct PlacedFigure {
    /// Unique id.
    pub id: String,
    /// The level's own name for it, if it gives one.
    pub name: Option<String>,
    /// Template key.
    pub template_key: String,
    /// The template itself.
    pub template: Template,
    /// Side index into `Level::sides`.
    pub side: u8,
    /// Cell.
    pub at: Cell,
    /// Facing.
    pub facing: Dir,
    /// Gait (walk unless given; foot figures always walk).
    pub gait: Gait,
    /// Template conditions followed by the level's extra ones.
    pub conditions: Vec<String>,
}

/// A checked level, ready to build a world from.
#[derive(Clone, Debug)]
pub struct Level {
    /// Where it came from (a path, or `<embedded default>`), for messages.
    pub source: String,
    /// The level's text as read (kept in saved games).
    pub text: String,
    /// The file as written.
    pub file: LevelFile,
    /// The ruleset it plays.
    pub rules: Ruleset,
    /// The map, with nobody on it yet.
    pub board: Board,
    /// The figures.
    pub figures: Vec<PlacedFigure>,
    /// How the battle is won, checked.
    pub victory: crate::rules::victory::Victory,
}

impl Level {
    /// The names players read for its figures and their mounts.
    pub fn names(&self) -> crate::rules::names::Names {
        names_of(&self.figures)
    }
}

/// The names of `figures`, placed in level order.
pub(crate) fn names_of(figures: &[PlacedFigure]) -> crate::rules::names::Names {
    let naming: Vec<_> = figures
        .iter()
        .map(|f| crate::rules::names::Naming {
            id: &f.id,
            own: f.name.as_deref(),
            template: &f.template.name,
            mount: f.template.mount.as_ref().map(|m| m.name.as_str()),
        })
        .collect();
    crate::rules::names::Names::for_figures(&naming)
}
