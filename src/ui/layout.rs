//! Where cells land on screen: the one place that turns level coordinates into world
//! coordinates, so the tilemap, the counters and later mouse picking all agree.
//!
//! Level files put row 0 at the top; Bevy's y axis grows upwards, so rows are flipped here and
//! nowhere else. Hex maps are pointy-top "odd-r" (odd rows shifted half a cell right), as in
//! [`GridKind::center`].

use crate::rules::grid::{Cell, Dir, GridKind};
use bevy::math::{Rect, Vec2};

/// Width of one cell in world units (logical pixels at zoom 1). Square cells are this tall;
/// hexes are this wide across the flats.
pub const CELL_PX: f32 = 64.0;

/// `sqrt(3) / 2`: vertical distance between hex rows, in hex widths.
const HALF_SQRT_3: f32 = 0.866_025_4;

/// The geometry of the map on screen. A resource, rebuilt whenever the level changes, so
/// every system that places something on the map reads the same numbers.
#[derive(bevy::prelude::Resource, Clone, Copy, Debug, PartialEq)]
pub struct MapLayout {
    /// Squares or hexes.
    pub grid: GridKind,
    /// Columns.
    pub width: i32,
    /// Rows.
    pub height: i32,
    /// Cell width in world units.
    pub cell: f32,
}

impl MapLayout {
    /// The layout of a `width` × `height` map at the standard cell size.
    pub fn new(grid: GridKind, width: i32, height: i32) -> MapLayout {
        MapLayout {
            grid,
            width,
            height,
            cell: CELL_PX,
        }
    }

    /// Vertical distance between the centres of consecutive rows.
    pub fn row_step(&self) -> f32 {
        match self.grid {
            GridKind::Square => self.cell,
            GridKind::Hex => self.cell * HALF_SQRT_3,
        }
    }

    /// Size of one tile image: a square, or a pointy-top hex `2/sqrt(3)` times taller than
    /// wide, so neighbouring hexes touch exactly at `row_step` apart.
    pub fn tile_size(&self) -> Vec2 {
        match self.grid {
            GridKind::Square => Vec2::splat(self.cell),
            GridKind::Hex => Vec2::new(self.cell, self.cell / HALF_SQRT_3),
        }
    }

    /// Centre of a cell in world coordinates. Row 0 (the top of the file) has the largest
    /// y, and the bottom-left cell's centre of an even row is at the origin.
    pub fn cell_to_world(&self, c: Cell) -> Vec2 {
        let flipped = (self.height - 1 - c.y) as f32;
        let shift = match self.grid {
            GridKind::Hex if c.y & 1 == 1 => 0.5,
            _ => 0.0,
        };
        Vec2::new((c.x as f32 + shift) * self.cell, flipped * self.row_step())
    }

    /// The cell under a world point, if it is on the map (for mouse picking). On hexes this
    /// picks the nearest centre, which is exactly the hex containing the point.
    pub fn world_to_cell(&self, p: Vec2) -> Option<Cell> {
        let row_f = (self.height - 1) as f32 - p.y / self.row_step();
        let guess_row = row_f.round() as i32;
        let mut best: Option<(f32, Cell)> = None;
        for row in guess_row - 1..=guess_row + 1 {
            let shift = if self.grid == GridKind::Hex && row & 1 == 1 {
                0.5
            } else {
                0.0
            };
            let col = (p.x / self.cell - shift).round() as i32;
            for x in col - 1..=col + 1 {
                let c = Cell::new(x, row);
                let d = self.cell_to_world(c).distance_squared(p);
                if best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, c));
                }
            }
        }
        let (_, c) = best?;
        let inside = self.grid == GridKind::Hex
            || ((p - self.cell_to_world(c)).abs().max_element() <= self.cell * 0.5);
        (inside && c.x >= 0 && c.y >= 0 && c.x < self.width && c.y < self.height).then_some(c)
    }

    /// The world rectangle covering every tile of the map, edges included.
    pub fn bounds(&self) -> Rect {
        if self.width <= 0 || self.height <= 0 {
            return Rect::from_center_size(Vec2::ZERO, Vec2::splat(self.cell));
        }
        let half = self.tile_size() * 0.5;
        let top = self.cell_to_world(Cell::new(0, 0)).y + half.y;
        let bottom = self.cell_to_world(Cell::new(0, self.height - 1)).y - half.y;
        let left = -half.x;
        let odd_rows = self.grid == GridKind::Hex && self.height > 1;
        let right_shift = if odd_rows { 0.5 * self.cell } else { 0.0 };
        let right = (self.width - 1) as f32 * self.cell + right_shift + half.x;
        Rect::new(left, bottom, right, top)
    }

    /// The tilemap tile (`x`, `y` up from the bottom) that shows a cell.
    pub fn tile_of(&self, c: Cell) -> (u32, u32) {
        (c.x.max(0) as u32, (self.height - 1 - c.y).max(0) as u32)
    }

    /// Whether the tilemap must use `RowOdd` (odd tile rows shifted right) rather than
    /// `RowEven` to show the file's odd rows shifted right: the file's odd rows are the
    /// tilemap's odd rows exactly when the height is odd.
    pub fn hex_rows_odd(&self) -> bool {
        self.height & 1 == 1
    }

    /// Translation to give the tilemap so its tile centres land on [`Self::cell_to_world`].
    /// `RowEven` shifts odd tile rows half a cell left instead of even rows right, hence the
    /// half-cell nudge on even-height hex maps.
    pub fn tilemap_offset(&self) -> Vec2 {
        if self.grid == GridKind::Hex && !self.hex_rows_odd() {
            Vec2::new(0.5 * self.cell, 0.0)
        } else {
            Vec2::ZERO
        }
    }
}

/// Rotation (radians, anticlockwise as Bevy turns sprites) that points an upward-drawn arrow
/// in direction `d`. Square directions are 45° apart from N; hex directions 60° apart from
/// NE, which on pointy-top hexes is 30° right of straight up.
pub fn facing_angle(grid: GridKind, d: Dir) -> f32 {
    let clockwise_deg = match grid {
        GridKind::Square => 45.0 * f32::from(d.0 % 8),
        GridKind::Hex => 30.0 + 60.0 * f32::from(d.0 % 6),
    };
    -clockwise_deg.to_radians()
}

/// Unit vector on screen (y up) for direction `d`: where a facing arrow sits on a counter.
pub fn facing_vector(grid: GridKind, d: Dir) -> Vec2 {
    angle_vector(facing_angle(grid, d))
}

/// Unit vector on screen (y up) for a facing angle (radians, anticlockwise from up), as
/// [`facing_angle`] gives: (0, 1) rotated by `a`.
pub fn angle_vector(a: f32) -> Vec2 {
    Vec2::new(-a.sin(), a.cos())
}

#[cfg(test)]
#[path = "layout_tests.rs"]
mod tests;
