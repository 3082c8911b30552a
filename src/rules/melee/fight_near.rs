//! The questions of who stands near a figure (issue 33, item 3), answered from the fight's
//! [`NearIndex`](super::near::NearIndex): only the rows around the figure are read, and the
//! answers are exactly those of a walk over every fighter, in the same (index) order. Apart
//! from `near.rs`, which holds the index alone, so that `fight.rs` may keep one without the
//! two importing each other.

use super::fight::Fight;
use crate::rules::grid::Cell;

impl Fight {
    /// The sorted index, built from the fighters' cells if it is not yet.
    fn near_index(&self) -> &[(i32, i32, u32)] {
        let v = self.near.0.get_or_init(|| {
            let mut v: Vec<(i32, i32, u32)> = self
                .fighters
                .iter()
                .enumerate()
                .map(|(i, f)| (f.cell.y, f.cell.x, i as u32))
                .collect();
            v.sort_unstable();
            v
        });
        // Tests move figures by hand; the game moves them only through `place` and `moved`.
        #[cfg(test)]
        assert!(
            v.len() == self.fighters.len()
                && v.iter()
                    .all(|&(y, x, i)| self.fighters[i as usize].cell == Cell::new(x, y)),
            "a figure moved without Fight::place or Fight::moved: the near index is stale"
        );
        v
    }

    /// Fighter `i` was put on `to` from `from` by hand (not by [`Fight::place`]): keeps the
    /// index of who stands where in step.
    pub fn moved(&mut self, i: usize, from: Cell, to: Cell) {
        if from != to {
            self.near.shift(i, from, to);
        }
    }

    /// Every fighter within `r` cells of `c` (any side, any state), in index order.
    pub fn fighters_within(&self, c: Cell, r: i32) -> Vec<usize> {
        let idx = self.near_index();
        let g = self.grid();
        let mut v = Vec::new();
        for y in c.y - r..=c.y + r {
            for &(ey, ex, j) in row_box(idx, y, c.x, r) {
                if g.distance(c, Cell::new(ex, ey)) <= r {
                    v.push(j as usize);
                }
            }
        }
        v.sort_unstable();
        v
    }

    /// Is one of [`Fight::enemies`] of `i` within `r` cells of it and `such`? The rows are
    /// read outward from `i`'s and the look stops at the first found: the card checks ask
    /// this for every TAC card of every hand.
    pub fn any_enemy_within(&self, i: usize, r: i32, such: impl Fn(usize) -> bool) -> bool {
        let idx = self.near_index();
        let g = self.grid();
        let c = self.fighters[i].cell;
        (0..=r)
            .flat_map(|k| {
                [c.y - k, c.y + k]
                    .into_iter()
                    .take(if k == 0 { 1 } else { 2 })
            })
            .any(|y| {
                row_box(idx, y, c.x, r).iter().any(|&(ey, ex, j)| {
                    let j = j as usize;
                    g.distance(c, Cell::new(ex, ey)) <= r && self.is_enemy(i, j) && such(j)
                })
            })
    }

    /// [`Fight::enemies`] of `i` within `r` cells of it, in index order: the same figures as
    /// `enemies(i).filter(|&j| distance(i, j) <= r)`.
    pub fn enemies_within(&self, i: usize, r: i32) -> Vec<usize> {
        let mut v = self.fighters_within(self.fighters[i].cell, r);
        v.retain(|&j| self.is_enemy(i, j));
        v
    }

    /// The distance to the nearest enemy of `i` that is up, found ring by ring (doubling the
    /// radius), so a figure in contact reads only its neighbours.
    pub fn nearest_enemy_distance(&self, i: usize) -> Option<i32> {
        let span = self.board.width.max(self.board.height).max(1);
        let mut r = 2;
        while r < span {
            if let Some(d) = self
                .enemies_within(i, r)
                .into_iter()
                .map(|j| self.distance(i, j))
                .min()
            {
                return Some(d);
            }
            r *= 2;
        }
        // Far apart, or off the map: every enemy.
        self.enemies(i).map(|j| self.distance(i, j)).min()
    }

    /// Enemies of `i`, nearest first (ties by id), as far as the nearest or `far` cells,
    /// whichever is farther: the start of `enemies(i)` sorted that way.
    pub fn foes_nearest_first(&self, i: usize, far: i32) -> Vec<usize> {
        let reach = match self.nearest_enemy_distance(i) {
            Some(d) => d.max(far),
            None => return Vec::new(),
        };
        let mut v = self.enemies_within(i, reach);
        v.sort_by(|&a, &b| {
            (self.distance(i, a), &self.fighters[a].id)
                .cmp(&(self.distance(i, b), &self.fighters[b].id))
        });
        v
    }

    /// How far a cell is from all of `i`'s enemies together ([`DistanceSum`]), for RETREAT.
    pub fn far_from_enemies(&self, i: usize) -> DistanceSum {
        DistanceSum::new(self, i)
    }
}

/// The fighters of row `y` of the sorted index within `r` columns of `x`, and one more each
/// way: the same box as `Fight::enemies_near` (a hex row's columns shift by half a cell).
fn row_box(idx: &[(i32, i32, u32)], y: i32, x: i32, r: i32) -> &[(i32, i32, u32)] {
    let lo = idx.partition_point(|&e| e < (y, x - r - 1, 0));
    let hi = idx.partition_point(|&e| e <= (y, x + r + 1, u32::MAX));
    &idx[lo..hi]
}

/// The sum of [`Fight::far`] from a cell to every enemy of a retreating figure (RETREAT's
/// second measure). On squares the squared distances are whole numbers, so the sum is worked
/// out from the enemies' totals at once, exactly; on hexes each term is rounded as `far`
/// rounds it, so they are added one by one. (A walk of every enemy for every cell weighed
/// made a retreat cost the fight's size, issue 33 item 3.)
pub struct DistanceSum {
    enemies: Vec<Cell>,
    /// Squares: the count, Σx, Σy and Σ(x² + y²) of the enemies' cells.
    square: Option<[i64; 4]>,
}

impl DistanceSum {
    fn new(fight: &Fight, i: usize) -> DistanceSum {
        let enemies: Vec<Cell> = fight.enemies(i).map(|j| fight.fighters[j].cell).collect();
        let square = (fight.grid() == crate::rules::grid::GridKind::Square).then(|| {
            enemies.iter().fold([0i64; 4], |[n, sx, sy, sq], e| {
                let (x, y) = (i64::from(e.x), i64::from(e.y));
                [n + 1, sx + x, sy + y, sq + x * x + y * y]
            })
        });
        DistanceSum { enemies, square }
    }

    /// The sum from `c`, exactly as the enemies' `far` from it added up.
    pub fn at(&self, fight: &Fight, c: Cell) -> i64 {
        match self.square {
            Some([n, sx, sy, sq]) => {
                let (x, y) = (i64::from(c.x), i64::from(c.y));
                1000 * (n * (x * x + y * y) - 2 * (x * sx + y * sy) + sq)
            }
            None => self.enemies.iter().map(|&e| fight.far(c, e)).sum(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::grid::{Dir, GridKind};
    use crate::rules::melee::testkit;

    /// A fight of footmen on a `w` × `h` board, one at each `(x, y, side)`.
    fn footmen(grid: GridKind, w: i32, h: i32, at: &[(i32, i32, u8)]) -> Fight {
        let r = testkit::destrier();
        let groups = at
            .iter()
            .enumerate()
            .map(|(k, &(x, y, side))| {
                let id = format!("f{k:02}");
                testkit::figures(&r, &id, "footman", side, Cell::new(x, y), Dir(2))
            })
            .collect();
        testkit::fight(testkit::board(grid, w, h), groups, &[])
    }

    /// `n` cells of a `w` × `h` board with a side each, from a fixed seed.
    fn scatter(mut seed: u32, n: usize, w: u32, h: u32) -> Vec<(i32, i32, u8)> {
        (0..n)
            .map(|_| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                (
                    ((seed >> 8) % w) as i32,
                    ((seed >> 16) % h) as i32,
                    (seed >> 4) as u8 & 1,
                )
            })
            .collect()
    }

    #[test]
    fn an_enemy_within_reach_is_found_as_a_walk_of_every_enemy_finds_it() {
        for grid in [GridKind::Square, GridKind::Hex] {
            let mut at = vec![(5, 5, 0), (6, 5, 1), (5, 9, 1), (1, 1, 0)];
            at.extend(scatter(11, 25, 16, 14));
            let fight = footmen(grid, 16, 14, &at);
            let mut found = 0;
            for i in 0..fight.fighters.len() {
                for reach in 0..6 {
                    let walked = fight.enemies(i).any(|j| fight.distance(i, j) <= reach);
                    assert_eq!(
                        fight.any_enemy_within(i, reach, |_| true),
                        walked,
                        "{grid:?} {i} {reach}"
                    );
                    let touching = fight.enemies(i).any(|j| fight.in_contact(i, j));
                    let near = fight.any_enemy_within(i, 1, |j| fight.in_contact(i, j));
                    assert_eq!(near, touching, "{grid:?} {i}");
                    found += usize::from(walked);
                }
            }
            assert!(found > 0, "some enemy was within reach");
        }
    }

    #[test]
    fn the_nearest_enemy_by_centre_is_the_one_a_walk_of_every_enemy_finds() {
        // From (0, 0) on squares the enemy 3 cells off on the diagonal is the nearest by
        // cells, but the one 4 cells off in a straight line has the nearer centre (4 against
        // 4.24): the search must look past the first ring it finds an enemy in.
        for grid in [GridKind::Square, GridKind::Hex] {
            let mut at = vec![(0, 0, 0), (3, 3, 1), (4, 0, 1), (0, 4, 1), (9, 9, 0)];
            at.extend(scatter(7, 30, 24, 20));
            let fight = footmen(grid, 24, 20, &at);
            for i in 0..fight.fighters.len() {
                let c = fight.fighters[i].cell;
                let walked = fight.enemies(i).min_by_key(|&j| {
                    (
                        fight.far(c, fight.fighters[j].cell),
                        fight.fighters[j].id.clone(),
                    )
                });
                assert_eq!(
                    crate::rules::melee::moves::nearest(&fight, i),
                    walked,
                    "{grid:?}, fighter {i} at {c:?}"
                );
            }
        }
    }

    #[test]
    fn the_sum_of_distances_to_every_enemy_is_the_same_worked_out_at_once_or_added_up() {
        for grid in [GridKind::Square, GridKind::Hex] {
            let at = [
                (1, 1, 0),
                (7, 2, 0),
                (3, 5, 1),
                (8, 6, 1),
                (4, 3, 1),
                (0, 6, 0),
            ];
            let fight = footmen(grid, 9, 7, &at);
            for i in 0..fight.fighters.len() {
                let sum = fight.far_from_enemies(i);
                for c in fight.board.cells() {
                    let added: i64 = fight
                        .enemies(i)
                        .map(|j| fight.far(c, fight.fighters[j].cell))
                        .sum();
                    assert_eq!(
                        sum.at(&fight, c),
                        added,
                        "{grid:?}, fighter {i}, cell {c:?}"
                    );
                }
            }
        }
    }
}
