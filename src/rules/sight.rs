//! Line of sight (needed by charges, A16; shooting arcs, K3; and the AI, I1–I3).
//!
//! A line is traced cell to cell between the two centres. On hexes a line that runs exactly
//! along a hexside is traced twice, nudged to either side, and is blocked only if both traces
//! are (the usual hex-wargame reading); on squares the line is traced from both ends and is
//! blocked only if both traces are, which makes sight symmetric. The end cells never block:
//! a figure sees out of woods and into woods.

use super::board::Board;
use super::grid::{Cell, GridKind, hex_line_nudged, square_between};

/// Why a line is blocked, for the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Blocked {
    /// Terrain that blocks sight (woods, buildings) at this cell.
    Terrain(Cell, String),
    /// A figure standing in between.
    Figure(Cell),
}

/// True when `from` sees `to`. `figure_at` says whether a figure stands in a cell (figures in
/// between block; pass `|_| false` to ignore them).
pub fn line_of_sight(
    board: &Board,
    from: Cell,
    to: Cell,
    figure_at: impl Fn(Cell) -> bool,
) -> bool {
    match board.grid {
        // As `sight_blocker`, without building the traces or naming the blocker: one of the
        // two traces has nothing that blocks between its ends (issue 15: the AI traces tens of
        // thousands of lines in a side-turn at the limits).
        GridKind::Square => {
            let blocks =
                |c: Cell| board.contains(c) && (board.terrain_at(c).blocks_sight || figure_at(c));
            !square_between(from, to).any(blocks) || !square_between(to, from).any(blocks)
        }
        GridKind::Hex => sight_blocker(board, from, to, figure_at).is_none(),
    }
}

/// The first thing blocking the line from `from` to `to`, if any (see the module notes).
pub fn sight_blocker(
    board: &Board,
    from: Cell,
    to: Cell,
    figure_at: impl Fn(Cell) -> bool,
) -> Option<Blocked> {
    let traces: Vec<Vec<Cell>> = match board.grid {
        GridKind::Square => {
            let mut back = board.grid.line(to, from);
            back.reverse();
            vec![board.grid.line(from, to), back]
        }
        GridKind::Hex => vec![hex_line_nudged(from, to, 1), hex_line_nudged(from, to, -1)],
    };
    let mut first = None;
    for t in &traces {
        match blocker_on(board, t, &figure_at) {
            None => return None,
            Some(b) => {
                first.get_or_insert(b);
            }
        }
    }
    first
}

fn blocker_on(board: &Board, cells: &[Cell], figure_at: &impl Fn(Cell) -> bool) -> Option<Blocked> {
    let n = cells.len();
    cells
        .iter()
        .take(n.saturating_sub(1))
        .skip(1)
        .find_map(|&c| {
            if !board.contains(c) {
                return None;
            }
            let t = board.terrain_at(c);
            if t.blocks_sight {
                Some(Blocked::Terrain(c, t.name.clone()))
            } else if figure_at(c) {
                Some(Blocked::Figure(c))
            } else {
                None
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Terrain;
    use crate::rules::mp::Mp;

    #[test]
    fn line_of_sight_is_no_blocker() {
        let woods = [
            Cell::new(4, 4),
            Cell::new(5, 4),
            Cell::new(6, 7),
            Cell::new(2, 8),
        ];
        let b = board(GridKind::Square, &woods);
        let figure = |c: Cell| c == Cell::new(3, 6) || c == Cell::new(8, 2);
        for a in (0..12).flat_map(|x| (0..12).map(move |y| Cell::new(x, y))) {
            for t in [
                Cell::new(9, 9),
                Cell::new(0, 11),
                Cell::new(5, 5),
                Cell::new(11, 3),
            ] {
                assert_eq!(
                    line_of_sight(&b, a, t, figure),
                    sight_blocker(&b, a, t, figure).is_none(),
                    "{a} {t}"
                );
            }
        }
    }

    fn board(grid: GridKind, woods: &[Cell]) -> Board {
        let t = |name: &str, blocks| Terrain {
            name: name.into(),
            cost: Some(Mp::ONE),
            mounted_cost: None,
            no_gallop: false,
            cover: blocks,
            blocks_sight: blocks,
            obstacle: None,
        };
        let mut b = Board::new(grid, 12, 12, vec![t("open", false), t("woods", true)]);
        for &c in woods {
            let i = b.index(c);
            b.terrain[i] = 1;
        }
        b
    }

    #[test]
    fn woods_between_block_but_not_at_the_ends() {
        for grid in [GridKind::Square, GridKind::Hex] {
            let w = Cell::new(5, 4);
            let b = board(grid, &[w]);
            assert!(
                !line_of_sight(&b, Cell::new(2, 4), Cell::new(8, 4), |_| false),
                "{grid:?}"
            );
            assert!(
                line_of_sight(&b, Cell::new(2, 4), w, |_| false),
                "{grid:?} into woods"
            );
            assert!(
                line_of_sight(&b, w, Cell::new(8, 4), |_| false),
                "{grid:?} out of woods"
            );
            assert!(line_of_sight(&b, Cell::new(2, 8), Cell::new(8, 8), |_| {
                false
            }));
        }
    }

    #[test]
    fn figures_block_on_hexes_too_but_not_at_the_ends() {
        let b = board(GridKind::Hex, &[]);
        let (from, to) = (Cell::new(1, 4), Cell::new(7, 4));
        let between = b.grid.line(from, to);
        let f = between[between.len() / 2];
        assert!(f != from && f != to);
        assert!(!line_of_sight(&b, from, to, |c| c == f), "{f}");
        assert_eq!(
            sight_blocker(&b, from, to, |c| c == f),
            Some(Blocked::Figure(f))
        );
        // The figures at either end never block their own line.
        assert!(line_of_sight(&b, from, to, |c| c == from || c == to));
        // Woods and a figure together: the first met is named.
        let w = between[1];
        let b = board(GridKind::Hex, &[w]);
        assert!(matches!(
            sight_blocker(&b, from, to, |c| c == f),
            Some(Blocked::Terrain(c, _)) if c == w
        ));
    }

    #[test]
    fn figures_in_between_block_when_asked() {
        let b = board(GridKind::Square, &[]);
        let f = Cell::new(4, 2);
        assert!(!line_of_sight(&b, Cell::new(1, 2), Cell::new(7, 2), |c| c == f));
        assert!(line_of_sight(&b, Cell::new(1, 2), Cell::new(7, 2), |_| {
            false
        }));
        assert_eq!(
            sight_blocker(&b, Cell::new(1, 2), Cell::new(7, 2), |c| c == f),
            Some(Blocked::Figure(f))
        );
    }

    #[test]
    fn sight_is_symmetric() {
        let woods = [
            Cell::new(3, 3),
            Cell::new(6, 5),
            Cell::new(4, 7),
            Cell::new(8, 2),
        ];
        for grid in [GridKind::Square, GridKind::Hex] {
            let b = board(grid, &woods);
            for a in b.cells().step_by(5) {
                for c in b.cells().step_by(7) {
                    assert_eq!(
                        line_of_sight(&b, a, c, |_| false),
                        line_of_sight(&b, c, a, |_| false),
                        "{grid:?} {a} {c}"
                    );
                }
            }
        }
    }

    #[test]
    fn hexside_lines_need_both_sides_blocked() {
        // From (2,2) to (3,3): the line runs along the side between (2,3) and (3,2).
        let (a, c) = (Cell::new(2, 2), Cell::new(3, 3));
        let one = board(GridKind::Hex, &[Cell::new(2, 3)]);
        let both = board(GridKind::Hex, &[Cell::new(2, 3), Cell::new(3, 2)]);
        let l1 = hex_line_nudged(a, c, 1);
        let l2 = hex_line_nudged(a, c, -1);
        assert_ne!(l1, l2, "a hexside line has two traces");
        assert!(line_of_sight(&one, a, c, |_| false));
        assert!(!line_of_sight(&both, a, c, |_| false));
    }
}
