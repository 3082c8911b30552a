//! Who stands near a figure, without looking at every figure (issue 33, item 3).
//!
//! Card checks, hands and the computer's plays ask "which enemies are within a few cells of
//! this figure?" many times for every card order; answered by walking every figure of the
//! fight, a turn with 4096 figures in contact took minutes. The fight keeps its figures sorted
//! by cell ([`NearIndex`]), built the first time it is asked and kept in step by
//! [`Fight::place`] and [`Fight::moved`], so each question reads only the rows around the
//! figure. The answers are exactly the walk's, in the same (index) order.

use super::fight::Fight;
use crate::rules::grid::Cell;
use std::sync::OnceLock;

/// Every fighter by cell: (row, column, index), sorted. Empty until first asked.
#[derive(Clone, Default)]
pub struct NearIndex(OnceLock<Vec<(i32, i32, u32)>>);

/// A cache, not part of the fight: two fights with the same figures print the same whether
/// or not one was asked who stands near whom (the kept-model tests compare the printouts).
impl std::fmt::Debug for NearIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NearIndex")
    }
}

impl NearIndex {
    /// Forgets the index: the next question builds it again (after figures moved by hand).
    pub fn clear(&mut self) {
        self.0 = OnceLock::new();
    }

    /// Keeps a built index in step with fighter `i` moving from `from` to `to`.
    fn shift(&mut self, i: usize, from: Cell, to: Cell) {
        let Some(v) = self.0.get_mut() else { return };
        let old = (from.y, from.x, i as u32);
        match v.binary_search(&old) {
            Ok(k) => {
                v.remove(k);
            }
            Err(_) => {
                // Not where we thought: the index is stale, build it afresh when next asked.
                self.clear();
                return;
            }
        }
        let new = (to.y, to.x, i as u32);
        let k = v.binary_search(&new).unwrap_or_else(|k| k);
        v.insert(k, new);
    }
}

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
            // The same box as `Fight::enemies_near` (a hex row's columns shift by half a cell).
            let lo = idx.partition_point(|&e| e < (y, c.x - r - 1, 0));
            let hi = idx.partition_point(|&e| e <= (y, c.x + r + 1, u32::MAX));
            for &(ey, ex, j) in &idx[lo..hi] {
                if g.distance(c, Cell::new(ex, ey)) <= r {
                    v.push(j as usize);
                }
            }
        }
        v.sort_unstable();
        v
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
}
