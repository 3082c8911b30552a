//! The map as the movement rules see it: terrain per cell and who stands where.

use super::grid::{Cell, GridKind};
use super::mp::Mp;
use serde::{Deserialize, Serialize};

/// One terrain type of a level's legend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Terrain {
    /// Shown to players ("open", "woods").
    pub name: String,
    /// Cost multiplier of a step into it for figures on foot; `None` is impassable (R3).
    pub cost: Option<Mp>,
    /// Cost multiplier for mounted figures (ASL's cavalry column, 13.3); defaults to `cost`.
    #[serde(default)]
    pub mounted_cost: Option<Option<Mp>>,
    /// Galloping cavalry may not enter (A10: woods, marsh, crag, …).
    #[serde(default)]
    pub no_gallop: bool,
    /// Counts as cover (I1, I2).
    #[serde(default)]
    pub cover: bool,
    /// Blocks line of sight.
    #[serde(default)]
    pub blocks_sight: bool,
    /// D17: an obstacle a figure on foot may squeeze between (trees, fence posts), with its
    /// weight in lb for the body bash; `None` (the default, so old files load) is no obstacle.
    #[serde(default)]
    pub obstacle: Option<u32>,
}

impl Terrain {
    /// The step multiplier for a figure, mounted or not.
    pub fn multiplier(&self, mounted: bool) -> Option<Mp> {
        if mounted {
            self.mounted_cost.unwrap_or(self.cost)
        } else {
            self.cost
        }
    }
}

/// Who, if anyone, stands in a cell, relative to nobody in particular: a side index + 1, 0,
/// or [`SHARED`].
pub type Occupant = u8;

/// The occupant of a cell where figures of more than one side stand: a horse that crossed an
/// enemy's stand and went down there (C4) beside the enemy it staggered. Every side finds a
/// hostile in it (R4: passing it takes a contest; D16: its neighbours are in contact). One
/// value whoever stands there, so the board does not depend on the order in which the
/// figures are listed: a host and a replica that list them differently read the same board.
pub const SHARED: Occupant = Occupant::MAX;

/// The map: a rectangle of cells with a terrain id each, and the side occupying each cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    /// Squares or hexes.
    pub grid: GridKind,
    /// Columns.
    pub width: i32,
    /// Rows.
    pub height: i32,
    /// Terrain id of each cell, row-major.
    pub terrain: Vec<u8>,
    /// The terrain table the ids index.
    pub terrains: Vec<Terrain>,
    /// Side + 1 of the figure standing in each cell, 0 if empty (D10a: one figure, or one
    /// rider-and-mount, per cell).
    pub occupant: Vec<Occupant>,
}

impl Board {
    /// An all-`terrain[0]` board with nobody on it.
    pub fn new(grid: GridKind, width: i32, height: i32, terrains: Vec<Terrain>) -> Board {
        let n = (width.max(0) * height.max(0)) as usize;
        Board {
            grid,
            width,
            height,
            terrain: vec![0; n],
            terrains,
            occupant: vec![0; n],
        }
    }

    /// True when the cell is on the map.
    pub fn contains(&self, c: Cell) -> bool {
        c.x >= 0 && c.y >= 0 && c.x < self.width && c.y < self.height
    }

    /// Row-major index of an on-map cell.
    pub fn index(&self, c: Cell) -> usize {
        (c.y * self.width + c.x) as usize
    }

    /// The terrain of an on-map cell.
    pub fn terrain_at(&self, c: Cell) -> &Terrain {
        &self.terrains[self.terrain[self.index(c)] as usize]
    }

    /// The occupant of a cell (0 = empty or off-map).
    pub fn occupant_at(&self, c: Cell) -> Occupant {
        if self.contains(c) {
            self.occupant[self.index(c)]
        } else {
            0
        }
    }

    /// Every cell, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Cell::new(x, y)))
    }
}
