//! Grid geometry for squares (8 directions) and pointy-top hexes (6 directions).
//!
//! Cells are addressed as `(x, y)` = (column, row) with row 0 at the top of the level file, so
//! the same coordinates appear in levels, orders, the command line and the window. Hex rows use
//! the "odd-r" offset layout (odd rows shifted half a cell right); distance and neighbours go
//! through axial coordinates internally.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Which tiling a map uses (brief §0: `destrier` squares, `asl` and `realms` hexes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GridKind {
    /// Squares, eight directions (orthogonal and diagonal).
    #[default]
    Square,
    /// Pointy-top hexes, six directions.
    Hex,
}

/// A cell of the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cell {
    /// Column, 0 at the left.
    pub x: i32,
    /// Row, 0 at the top.
    pub y: i32,
}

impl Cell {
    /// The cell at column `x`, row `y`.
    pub const fn new(x: i32, y: i32) -> Cell {
        Cell { x, y }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// A direction index: 0..8 on squares (0 = N, clockwise), 0..6 on hexes (0 = NE, clockwise).
/// A figure's facing and a mount's heading are both a `Dir`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Dir(pub u8);

const SQUARE_NAMES: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
const HEX_NAMES: [&str; 6] = ["NE", "E", "SE", "SW", "W", "NW"];
const SQUARE_WORDS: [&str; 8] = [
    "north",
    "north-east",
    "east",
    "south-east",
    "south",
    "south-west",
    "west",
    "north-west",
];
const HEX_WORDS: [&str; 6] = [
    "north-east",
    "east",
    "south-east",
    "south-west",
    "west",
    "north-west",
];
const SQUARE_DELTA: [(i32, i32); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];
/// Axial (q, r) deltas of the six hex directions, in [`HEX_NAMES`] order.
const HEX_AXIAL: [(i32, i32); 6] = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)];

impl GridKind {
    /// Number of directions a figure may face (8 or 6).
    pub const fn dirs(self) -> u8 {
        match self {
            GridKind::Square => 8,
            GridKind::Hex => 6,
        }
    }

    /// Direction-index steps in a quarter turn's worth of "right angle" pivot: 90° on squares
    /// (2 × 45°), 120° on hexes (2 × 60°, H7).
    pub const fn right_angle_steps(self) -> u8 {
        2
    }

    /// Direction-index steps in a turn-around (180°).
    pub const fn about_steps(self) -> u8 {
        self.dirs() / 2
    }

    /// `d` rotated `k` direction steps clockwise (negative = anticlockwise).
    pub fn rotate(self, d: Dir, k: i32) -> Dir {
        let n = self.dirs() as i32;
        Dir((d.0 as i32 + k).rem_euclid(n) as u8)
    }

    /// Signed smallest rotation (in direction steps) taking `from` to `to`; ties (180°) are
    /// positive.
    pub fn turn_between(self, from: Dir, to: Dir) -> i32 {
        let n = self.dirs() as i32;
        let mut k = (to.0 as i32 - from.0 as i32).rem_euclid(n);
        if k > n / 2 {
            k -= n;
        }
        k
    }

    /// Every direction of this grid.
    pub fn all_dirs(self) -> impl Iterator<Item = Dir> {
        (0..self.dirs()).map(Dir)
    }

    /// The directions a mount's heading may take: the four grid lines on squares (H3–H6),
    /// all six on hexes (H7).
    pub fn headings(self) -> impl Iterator<Item = Dir> {
        let step = if self == GridKind::Square { 2 } else { 1 };
        (0..self.dirs()).step_by(step).map(Dir)
    }

    /// True for a direction along a grid line (always on hexes; N/E/S/W on squares).
    pub fn is_orthogonal(self, d: Dir) -> bool {
        self == GridKind::Hex || d.0.is_multiple_of(2)
    }

    /// The name of a direction ("NE", "W", …).
    pub fn dir_name(self, d: Dir) -> &'static str {
        match self {
            GridKind::Square => SQUARE_NAMES.get(d.0 as usize).copied().unwrap_or("?"),
            GridKind::Hex => HEX_NAMES.get(d.0 as usize).copied().unwrap_or("?"),
        }
    }

    /// A direction as a player reads it ("north-east", "west"): cards and log lines name the
    /// way a figure moves or faces by the compass, not by a number (issue 34).
    pub fn dir_words(self, d: Dir) -> &'static str {
        match self {
            GridKind::Square => SQUARE_WORDS.get(d.0 as usize).copied().unwrap_or("?"),
            GridKind::Hex => HEX_WORDS.get(d.0 as usize).copied().unwrap_or("?"),
        }
    }

    /// Parses a direction name for this grid.
    pub fn parse_dir(self, s: &str) -> Option<Dir> {
        let names: &[&str] = match self {
            GridKind::Square => &SQUARE_NAMES,
            GridKind::Hex => &HEX_NAMES,
        };
        let up = s.trim().to_ascii_uppercase();
        names.iter().position(|n| *n == up).map(|i| Dir(i as u8))
    }

    /// The neighbouring cell in direction `d`.
    pub fn neighbour(self, c: Cell, d: Dir) -> Cell {
        match self {
            GridKind::Square => {
                let (dx, dy) = SQUARE_DELTA[d.0 as usize % 8];
                Cell::new(c.x + dx, c.y + dy)
            }
            GridKind::Hex => {
                let (q, r) = to_axial(c);
                let (dq, dr) = HEX_AXIAL[d.0 as usize % 6];
                from_axial(q + dq, r + dr)
            }
        }
    }

    /// All neighbours, in direction order.
    pub fn neighbours(self, c: Cell) -> impl Iterator<Item = (Dir, Cell)> {
        self.all_dirs().map(move |d| (d, self.neighbour(c, d)))
    }

    /// The direction from `a` to an adjacent `b`, if they are adjacent.
    pub fn dir_to_adjacent(self, a: Cell, b: Cell) -> Option<Dir> {
        self.all_dirs().find(|&d| self.neighbour(a, d) == b)
    }

    /// Distance in cells: Chebyshev on squares (a diagonal step is one cell), hex steps on
    /// hexes.
    pub fn distance(self, a: Cell, b: Cell) -> i32 {
        match self {
            GridKind::Square => (a.x - b.x).abs().max((a.y - b.y).abs()),
            GridKind::Hex => {
                let (aq, ar) = to_axial(a);
                let (bq, br) = to_axial(b);
                let (dq, dr) = (aq - bq, ar - br);
                (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
            }
        }
    }

    /// The closest direction (of this grid) from `a` towards `b`; `None` when `a == b`. Ties
    /// go to the lower direction index, so the answer never depends on iteration order.
    pub fn dir_towards(self, a: Cell, b: Cell) -> Option<Dir> {
        if a == b {
            return None;
        }
        let (ax, ay) = self.center(a);
        let (bx, by) = self.center(b);
        let (wx, wy) = (bx - ax, by - ay);
        // The direction with the largest cosine to `w`; |w| is the same for every direction,
        // so it is left out of the comparison (this runs for every end the AI weighs).
        let mut best: Option<(f64, Dir)> = None;
        for d in self.all_dirs() {
            let (nx, ny) = self.center(self.neighbour(a, d));
            let (vx, vy) = (nx - ax, ny - ay);
            let cos = (vx * wx + vy * wy) / (vx * vx + vy * vy).sqrt();
            if best.is_none_or(|(c, _)| cos > c + 1e-9) {
                best = Some((cos, d));
            }
        }
        best.map(|(_, d)| d)
    }

    /// Cell centre in cell widths (y grows downwards). Used for directions and drawing, never
    /// for costs.
    pub fn center(self, c: Cell) -> (f64, f64) {
        match self {
            GridKind::Square => (c.x as f64, c.y as f64),
            GridKind::Hex => (
                c.x as f64 + 0.5 * (c.y & 1) as f64,
                c.y as f64 * 3f64.sqrt() / 2.0,
            ),
        }
    }

    /// The cells of the straight line from `a` to `b`, both included: Bresenham on squares,
    /// the cube-coordinate line on hexes (ties nudged the same way every time).
    pub fn line(self, a: Cell, b: Cell) -> Vec<Cell> {
        match self {
            GridKind::Square => square_line(a, b),
            GridKind::Hex => hex_line(a, b),
        }
    }

    /// Which side of a stand at `at`, facing `facing`, an attacker at `from` strikes
    /// (D10, D12). Adjacent or not, the side is decided by the direction towards `from`.
    pub fn side_facing(self, stand: StandShape, at: Cell, facing: Dir, from: Cell) -> StandSide {
        match self.dir_towards(at, from) {
            None => StandSide::Front,
            Some(d) => self.side_of(stand, facing, d),
        }
    }

    /// The side of a stand facing `facing` that looks out in direction `towards` (D10).
    ///
    /// Foot stands face a corner: straight ahead touches both frontal sides (`Front`); up to
    /// 90° to the right is the sword side, to the left the shield side; beyond that the rear.
    /// Long (mount) stands: the head end is `Front`, both long sides are frontal (shield left,
    /// sword right) all the way back, and only straight behind is the tail (`Rear`).
    pub fn side_of(self, stand: StandShape, facing: Dir, towards: Dir) -> StandSide {
        let n = self.dirs() as i32;
        let k = self.turn_between(facing, towards);
        let quarter = n / 4; // 2 on squares, 1 on hexes (60° sides of a hex)
        match (stand, k) {
            (_, 0) => StandSide::Front,
            (StandShape::Long, k) if k.abs() == n / 2 => StandSide::Rear,
            (StandShape::Long, k) if k > 0 => StandSide::Sword,
            (StandShape::Long, _) => StandSide::Shield,
            (StandShape::Square, k) if k > 0 && k <= quarter => StandSide::Sword,
            (StandShape::Square, k) if k < 0 && -k <= quarter => StandSide::Shield,
            (StandShape::Square, _) => StandSide::Rear,
        }
    }
}

/// The shape of a figure's stand (D10): foot stands are square and face a corner; mounts and
/// other quadrupeds stand on a long base with the head at one short end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum StandShape {
    /// A square stand facing a corner (men, humanoids).
    Square,
    /// A long stand, head end frontal (horses, quadrupeds).
    Long,
}

/// A side of a stand, which decides what attacks and defences are possible through it
/// (D11, D12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum StandSide {
    /// Straight ahead: both frontal sides (foot) or the head end (mount).
    Front,
    /// The frontal side on the figure's left.
    Shield,
    /// The frontal side on the figure's right.
    Sword,
    /// Out of sight behind.
    Rear,
}

impl StandSide {
    /// Frontal sides allow attacks and counter-blows (D11, D12).
    pub fn is_frontal(self) -> bool {
        self != StandSide::Rear
    }
}

/// Odd-r offset → axial.
pub fn to_axial(c: Cell) -> (i32, i32) {
    (c.x - (c.y - (c.y & 1)) / 2, c.y)
}

/// Axial → odd-r offset.
pub fn from_axial(q: i32, r: i32) -> Cell {
    Cell::new(q + (r - (r & 1)) / 2, r)
}

fn square_line(a: Cell, b: Cell) -> Vec<Cell> {
    let (dx, dy) = ((b.x - a.x).abs(), -(b.y - a.y).abs());
    let (sx, sy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
    let (mut x, mut y, mut err) = (a.x, a.y, dx + dy);
    // One cell per step along the longer axis, and the first.
    let mut out = Vec::with_capacity(dx.max(-dy) as usize + 1);
    out.push(a);
    while (x, y) != (b.x, b.y) {
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
        out.push(Cell::new(x, y));
    }
    out
}

/// The cells strictly between `a` and `b` on the square line ([`GridKind::line`]), in order,
/// without building the line: line of sight asks for a great many (issue 15).
pub fn square_between(a: Cell, b: Cell) -> impl Iterator<Item = Cell> {
    let (dx, dy) = ((b.x - a.x).abs(), -(b.y - a.y).abs());
    let (sx, sy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
    let (mut x, mut y, mut err) = (a.x, a.y, dx + dy);
    std::iter::from_fn(move || {
        if (x, y) == (b.x, b.y) {
            return None;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
        ((x, y) != (b.x, b.y)).then(|| Cell::new(x, y))
    })
}

fn hex_line(a: Cell, b: Cell) -> Vec<Cell> {
    hex_line_nudged(a, b, 1)
}

/// The hex line from `a` to `b` with exact ties (a line along a hexside) broken to one side
/// (`nudge` = +1 or -1); line of sight traces both.
pub fn hex_line_nudged(a: Cell, b: Cell, nudge: i64) -> Vec<Cell> {
    let n = GridKind::Hex.distance(a, b);
    if n == 0 {
        return vec![a];
    }
    let (aq, ar) = to_axial(a);
    let (bq, br) = to_axial(b);
    let (a_s, b_s) = (-aq - ar, -bq - br);
    let den = 6 * n as i64;
    (0..=n)
        .map(|i| {
            let lerp = |p: i32, q: i32| (p as i64 * (n - i) as i64 + q as i64 * i as i64) * 6;
            // Nudge the line by a tiny cube offset (sums to zero) so exact ties resolve one way.
            let (fq, fr, fs) = (
                lerp(aq, bq) + nudge,
                lerp(ar, br) + nudge,
                lerp(a_s, b_s) - 2 * nudge,
            );
            let round = |v: i64| (2 * v + den).div_euclid(2 * den);
            let (mut q, mut r, s) = (round(fq), round(fr), round(fs));
            let (dq, dr, ds) = (
                (q * den - fq).abs(),
                (r * den - fr).abs(),
                (s * den - fs).abs(),
            );
            if dq > dr && dq > ds {
                q = -r - s;
            } else if dr > ds {
                r = -q - s;
            }
            from_axial(q as i32, r as i32)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_between_is_the_line_without_its_ends() {
        let cells = [
            (0, 0),
            (3, 1),
            (7, -2),
            (-5, 4),
            (2, 9),
            (0, 6),
            (6, 6),
            (1, 0),
        ];
        for &(ax, ay) in &cells {
            for &(bx, by) in &cells {
                let (a, b) = (Cell::new(ax, ay), Cell::new(bx, by));
                let line = GridKind::Square.line(a, b);
                let inner = if line.len() > 2 {
                    &line[1..line.len() - 1]
                } else {
                    &[][..]
                };
                assert_eq!(square_between(a, b).collect::<Vec<_>>(), inner, "{a} {b}");
            }
        }
    }
    use GridKind::*;

    #[test]
    fn hex_neighbours_are_at_distance_one_and_invert() {
        for y in 0..4 {
            for x in 0..4 {
                let c = Cell::new(x, y);
                for d in Hex.all_dirs() {
                    let n = Hex.neighbour(c, d);
                    assert_eq!(Hex.distance(c, n), 1);
                    assert_eq!(Hex.neighbour(n, Hex.rotate(d, 3)), c);
                    assert_eq!(Hex.dir_to_adjacent(c, n), Some(d));
                }
            }
        }
    }

    #[test]
    fn odd_rows_shift_right() {
        // From (0,1), an odd row, NE is (1,0) and NW is (0,0).
        assert_eq!(Hex.neighbour(Cell::new(0, 1), Dir(0)), Cell::new(1, 0));
        assert_eq!(Hex.neighbour(Cell::new(0, 1), Dir(5)), Cell::new(0, 0));
        // From (1,0), an even row, SW is (0,1).
        assert_eq!(Hex.neighbour(Cell::new(1, 0), Dir(3)), Cell::new(0, 1));
    }

    #[test]
    fn square_distance_is_chebyshev() {
        assert_eq!(Square.distance(Cell::new(0, 0), Cell::new(3, -5)), 5);
        assert_eq!(Square.neighbour(Cell::new(2, 2), Dir(3)), Cell::new(3, 3));
    }

    #[test]
    fn lines_are_connected_and_end_where_asked() {
        for grid in [Square, Hex] {
            let a = Cell::new(1, 2);
            for b in [
                Cell::new(7, 3),
                Cell::new(1, 9),
                Cell::new(-4, -2),
                Cell::new(5, 8),
            ] {
                let l = grid.line(a, b);
                assert_eq!(l[0], a);
                assert_eq!(*l.last().unwrap(), b);
                assert_eq!(l.len() as i32, grid.distance(a, b) + 1);
                for w in l.windows(2) {
                    assert_eq!(grid.distance(w[0], w[1]), 1, "{grid:?} {a}->{b}: {l:?}");
                }
            }
        }
    }

    #[test]
    fn stand_sides_d10() {
        use StandShape::{Long, Square as Foot};
        use StandSide::*;
        // (grid, stand, facing, towards, side)
        let table = [
            (Square, Foot, 0, 0, Front),
            (Square, Foot, 0, 1, Sword),
            (Square, Foot, 0, 2, Sword),
            (Square, Foot, 0, 6, Shield),
            (Square, Foot, 0, 7, Shield),
            (Square, Foot, 0, 3, Rear),
            (Square, Foot, 0, 4, Rear),
            (Hex, Foot, 1, 2, Sword),
            (Hex, Foot, 1, 0, Shield),
            (Hex, Foot, 1, 3, Rear),
            (Square, Long, 2, 2, Front),
            (Square, Long, 2, 0, Shield),
            (Square, Long, 2, 5, Sword),
            (Square, Long, 2, 6, Rear),
            (Hex, Long, 1, 3, Sword),
            (Hex, Long, 1, 4, Rear),
        ];
        for (grid, stand, facing, towards, side) in table {
            assert_eq!(
                grid.side_of(stand, Dir(facing), Dir(towards)),
                side,
                "{grid:?} {stand:?} {facing}->{towards}"
            );
        }
        assert!(!Rear.is_frontal() && Shield.is_frontal() && Front.is_frontal());
    }

    #[test]
    fn direction_towards_points_the_right_way() {
        let a = Cell::new(5, 5);
        assert_eq!(Square.dir_towards(a, Cell::new(9, 5)), Some(Dir(2)));
        assert_eq!(Square.dir_towards(a, Cell::new(8, 8)), Some(Dir(3)));
        assert_eq!(Square.dir_towards(a, Cell::new(5, 1)), Some(Dir(0)));
        assert_eq!(Hex.dir_towards(a, Cell::new(9, 5)), Some(Dir(1)));
        assert_eq!(Hex.dir_towards(a, Cell::new(1, 5)), Some(Dir(4)));
    }

    #[test]
    fn rotation_and_turns() {
        assert_eq!(Square.rotate(Dir(7), 2), Dir(1));
        assert_eq!(Hex.rotate(Dir(0), -1), Dir(5));
        assert_eq!(Square.turn_between(Dir(0), Dir(6)), -2);
        assert_eq!(Square.turn_between(Dir(0), Dir(4)), 4);
        assert_eq!(Hex.turn_between(Dir(5), Dir(1)), 2);
    }
}
