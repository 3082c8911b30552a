//! Distance fields: how far every cell is from a set of cells, walking over the terrain a
//! given figure may enter, at its terrain costs. The AI scores the ends of a figure's
//! reachable area with them ("towards the nearest enemy", "away from all enemies"), so a
//! river is walked round by its fords instead of being crossed in a straight line.
//!
//! A field ignores facing and figures: it is a guide to where to go, never a path. Paths
//! always come from the reachable area, which applies every movement rule.

use crate::rules::board::Board;
use crate::rules::grid::Cell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Unreached (impassable, cut off, or beyond the search's bound).
pub const FAR: i64 = i64::MAX / 4;

/// Distances from a set of source cells, in raw movement units.
#[derive(Clone, Debug)]
pub struct Field {
    width: i32,
    dist: Vec<i64>,
}

impl Field {
    /// Dijkstra from `sources` over `board`, a step into a cell costing that cell's entry in
    /// `mult` (per terrain id; `None` cannot be entered). With `stop_at`, the search stops
    /// once every one of those cells is settled: cells farther than all of them stay [`FAR`],
    /// which is all an advance needs (it only wants cells nearer than where it stands).
    pub fn from(board: &Board, sources: &[Cell], mult: &[Option<i64>], stop_at: &[Cell]) -> Field {
        let n = (board.width.max(0) * board.height.max(0)) as usize;
        let mut dist = vec![FAR; n];
        let mut heap = BinaryHeap::new();
        for &s in sources {
            if board.contains(s) {
                let i = board.index(s);
                dist[i] = 0;
                heap.push(Reverse((0i64, i as u32)));
            }
        }
        let mut waiting: Vec<usize> = stop_at
            .iter()
            .filter(|c| board.contains(**c))
            .map(|&c| board.index(c))
            .collect();
        let bounded = !waiting.is_empty();
        let w = board.width;
        while let Some(Reverse((d, i))) = heap.pop() {
            let i = i as usize;
            if d > dist[i] {
                continue;
            }
            if bounded {
                waiting.retain(|&x| x != i);
                if waiting.is_empty() {
                    break;
                }
            }
            let c = Cell::new(i as i32 % w, i as i32 / w);
            for (_, nb) in board.grid.neighbours(c) {
                if !board.contains(nb) {
                    continue;
                }
                let j = board.index(nb);
                let Some(m) = mult.get(board.terrain[j] as usize).copied().flatten() else {
                    continue;
                };
                let nd = d + m;
                if nd < dist[j] {
                    dist[j] = nd;
                    heap.push(Reverse((nd, j as u32)));
                }
            }
        }
        Field { width: w, dist }
    }

    /// The distance of `c` ([`FAR`] off the map or unreached).
    pub fn at(&self, c: Cell) -> i64 {
        if c.x < 0 || c.y < 0 || c.x >= self.width {
            return FAR;
        }
        self.dist
            .get((c.y * self.width + c.x) as usize)
            .copied()
            .unwrap_or(FAR)
    }
}

/// One cached field: its sources, its terrain costs, whether it was bounded, and the field.
type Entry = (Vec<Cell>, Vec<Option<i64>>, bool, Field);

/// Fields already computed this half-move, keyed by their sources and terrain costs, so a
/// unit's members (and every unit advancing on the same enemies) share one search.
#[derive(Clone, Debug, Default)]
pub struct FieldCache {
    entries: Vec<Entry>,
}

impl FieldCache {
    /// The field from `sources` for a figure with terrain costs `mult`; `bounded` searches
    /// only as far as `stop_at` (see [`Field::from`]). A bounded field is recomputed when a
    /// later request needs cells it did not settle.
    pub fn get(
        &mut self,
        board: &Board,
        sources: &[Cell],
        mult: &[Option<i64>],
        stop_at: &[Cell],
    ) -> &Field {
        let same = |s: &[Cell], m: &[Option<i64>]| s == sources && m == mult;
        let pos = self
            .entries
            .iter()
            .position(|(s, m, b, f)| same(s, m) && (!*b || stop_at.iter().all(|&c| f.at(c) < FAR)));
        let i = match pos {
            Some(i) => i,
            None => {
                // A bounded field that falls short is replaced by a whole one, once.
                let stale = self.entries.iter().position(|(s, m, _, _)| same(s, m));
                let whole = stale.is_some();
                let stop: &[Cell] = if whole { &[] } else { stop_at };
                let f = Field::from(board, sources, mult, stop);
                let entry = (sources.to_vec(), mult.to_vec(), !stop.is_empty(), f);
                match stale {
                    Some(k) => {
                        self.entries[k] = entry;
                        k
                    }
                    None => {
                        self.entries.push(entry);
                        self.entries.len() - 1
                    }
                }
            }
        };
        &self.entries[i].3
    }

    /// Forgets every field (the enemies moved).
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}
