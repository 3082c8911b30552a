//! Distance fields: how far every cell is from a set of cells, walking over the terrain a
//! given figure may enter, at its terrain costs. The AI scores the ends of a figure's
//! reachable area with them ("towards the nearest enemy", "away from all enemies"), so a
//! river is walked round by its fords instead of being crossed in a straight line.
//!
//! A field ignores facing and figures: it is a guide to where to go, never a path. Paths
//! always come from the reachable area, which applies every movement rule.

use crate::rules::board::Board;
use crate::rules::grid::{Cell, GridKind};
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
    ///
    /// Cells are settled in order of distance, ties by cell index, whichever queue is used,
    /// so a bounded field is the same cell for cell (settled cells exact, the others at their
    /// tentative distance or [`FAR`]).
    pub fn from(board: &Board, sources: &[Cell], mult: &[Option<i64>], stop_at: &[Cell]) -> Field {
        let n = (board.width.max(0) * board.height.max(0)) as usize;
        let mut dist = vec![FAR; n];
        let mut waiting: Vec<usize> = stop_at
            .iter()
            .filter(|c| board.contains(**c))
            .map(|&c| board.index(c))
            .collect();
        let mut search = Search {
            board,
            mult,
            dist: &mut dist,
            bounded: !waiting.is_empty(),
            waiting: &mut waiting,
        };
        match BucketQueue::for_costs(mult, search.bounded) {
            Some(q) => search.run(q, sources),
            None => search.run(HeapQueue(BinaryHeap::new()), sources),
        }
        Field {
            width: board.width,
            dist,
        }
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

/// A Dijkstra queue that pops in order of (distance, cell index).
trait Queue {
    fn push(&mut self, d: i64, i: u32);
    fn pop(&mut self) -> Option<(i64, u32)>;
}

/// The general queue: a binary heap.
struct HeapQueue(BinaryHeap<Reverse<(i64, u32)>>);

impl Queue for HeapQueue {
    fn push(&mut self, d: i64, i: u32) {
        self.0.push(Reverse((d, i)));
    }
    fn pop(&mut self) -> Option<(i64, u32)> {
        self.0.pop().map(|Reverse(x)| x)
    }
}

/// Dial's bucket queue, for step costs that are positive multiples of one unit (terrain
/// costs are whole or simply fractional numbers of cells): one bucket per distance in a
/// ring as long as the dearest step, each bucket sorted by cell index when its turn comes.
struct BucketQueue {
    unit: i64,
    ring: Vec<Vec<u32>>,
    /// The distance (in units) of the bucket being emptied, and what is left of it.
    at: i64,
    current: Vec<u32>,
    next: usize,
    queued: usize,
    ordered: bool,
}

impl BucketQueue {
    /// A queue for steps costing `mult`, or `None` when a cost is not positive or the ring
    /// would be long (then the heap serves). Only a bounded search needs each bucket in
    /// index order (where it stops within a bucket decides which cells are settled); a
    /// whole one settles every cell at its distance whatever the order.
    fn for_costs(mult: &[Option<i64>], ordered: bool) -> Option<BucketQueue> {
        let costs = || mult.iter().flatten().copied();
        if costs().any(|m| m <= 0) {
            return None;
        }
        let unit = costs().fold(0, gcd);
        if unit == 0 {
            return Some(BucketQueue::new(1, 1, ordered));
        }
        let span = costs().max().unwrap_or(unit) / unit;
        (span < 256).then(|| BucketQueue::new(unit, span as usize + 1, ordered))
    }

    fn new(unit: i64, len: usize, ordered: bool) -> BucketQueue {
        BucketQueue {
            ordered,
            unit,
            ring: vec![Vec::new(); len],
            at: 0,
            current: Vec::new(),
            next: 0,
            queued: 0,
        }
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

impl Queue for BucketQueue {
    fn push(&mut self, d: i64, i: u32) {
        let k = (d / self.unit) as usize % self.ring.len();
        self.ring[k].push(i);
        self.queued += 1;
    }
    fn pop(&mut self) -> Option<(i64, u32)> {
        loop {
            if let Some(&i) = self.current.get(self.next) {
                self.next += 1;
                return Some((self.at * self.unit, i));
            }
            if self.queued == 0 {
                return None;
            }
            // The next bucket with anything in it (every queued distance lies within one
            // ring's length of the current one).
            if !self.current.is_empty() || self.next > 0 {
                self.at += 1;
            }
            let len = self.ring.len();
            while self.ring[self.at as usize % len].is_empty() {
                self.at += 1;
            }
            self.current.clear();
            std::mem::swap(&mut self.current, &mut self.ring[self.at as usize % len]);
            self.queued -= self.current.len();
            if self.ordered {
                self.current.sort_unstable();
                self.current.dedup();
            }
            self.next = 0;
        }
    }
}

/// One Dijkstra search's state.
struct Search<'a> {
    board: &'a Board,
    mult: &'a [Option<i64>],
    dist: &'a mut Vec<i64>,
    bounded: bool,
    waiting: &'a mut Vec<usize>,
}

impl Search<'_> {
    fn run(&mut self, mut queue: impl Queue, sources: &[Cell]) {
        let board = self.board;
        for &s in sources {
            if board.contains(s) {
                let i = board.index(s);
                self.dist[i] = 0;
                queue.push(0, i as u32);
            }
        }
        let (w, h) = (board.width, board.height);
        // Step cost by terrain id (-1: may not enter), so the inner loop reads one table.
        let mut cost = [-1i64; 256];
        for (t, m) in self.mult.iter().enumerate().take(256) {
            cost[t] = m.unwrap_or(-1);
        }
        let square = board.grid == GridKind::Square;
        while let Some((d, i)) = queue.pop() {
            let i = i as usize;
            if d > self.dist[i] {
                continue;
            }
            if self.bounded {
                self.waiting.retain(|&x| x != i);
                if self.waiting.is_empty() {
                    break;
                }
            }
            let (x, y) = (i as i32 % w, i as i32 / w);
            // The order neighbours are relaxed in changes nothing: a cell keeps the least
            // distance offered, and the queue orders by (distance, index).
            let mut relax = |j: usize| {
                let m = cost[board.terrain[j] as usize];
                if m < 0 {
                    return;
                }
                let nd = d + m;
                if nd < self.dist[j] {
                    self.dist[j] = nd;
                    queue.push(nd, j as u32);
                }
            };
            if square {
                for dy in -1..=1 {
                    let ny = y + dy;
                    if ny < 0 || ny >= h {
                        continue;
                    }
                    for dx in -1..=1 {
                        let nx = x + dx;
                        if (dx, dy) != (0, 0) && nx >= 0 && nx < w {
                            relax((ny * w + nx) as usize);
                        }
                    }
                }
            } else {
                for (_, nb) in board.grid.neighbours(Cell::new(x, y)) {
                    if board.contains(nb) {
                        relax(board.index(nb));
                    }
                }
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Terrain;

    /// The distance field as it was first written (a binary heap over (distance, index)):
    /// what the bucket queue must reproduce cell for cell, bounded or not.
    fn reference(
        board: &Board,
        sources: &[Cell],
        mult: &[Option<i64>],
        stop_at: &[Cell],
    ) -> Vec<i64> {
        let n = (board.width * board.height) as usize;
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
                if d + m < dist[j] {
                    dist[j] = d + m;
                    heap.push(Reverse((d + m, j as u32)));
                }
            }
        }
        dist
    }

    fn terrain(name: &str) -> Terrain {
        Terrain {
            name: name.into(),
            cost: None,
            mounted_cost: None,
            no_gallop: false,
            cover: false,
            blocks_sight: false,
            obstacle: None,
        }
    }

    /// A seeded board of four terrains.
    fn board(grid: GridKind, w: i32, h: i32, seed: u64) -> Board {
        let mut b = Board::new(
            grid,
            w,
            h,
            ["open", "rough", "woods", "river"].map(terrain).to_vec(),
        );
        let mut x = seed;
        for t in b.terrain.iter_mut() {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            *t = [0, 0, 0, 1, 1, 2, 3][(x >> 33) as usize % 7];
        }
        b
    }

    #[test]
    fn bucket_queue_fields_match_the_heap_cell_for_cell() {
        let one = crate::rules::mp::Mp::ONE.raw();
        // Whole-cell costs, a half-cell fraction, and a ring too long (the heap serves).
        let mults: [Vec<Option<i64>>; 3] = [
            vec![Some(one), Some(2 * one), Some(2 * one), None],
            vec![
                Some(one),
                Some(one * 3 / 2),
                Some(3 * one),
                Some(one / 2 * 9),
            ],
            vec![Some(1), Some(1000), Some(3), None],
        ];
        let mut checked_bounded = 0;
        for (k, grid) in [GridKind::Square, GridKind::Hex].into_iter().enumerate() {
            for seed in 0..6u64 {
                let b = board(grid, 37, 23, seed * 7 + k as u64);
                let cell = |i: u64| Cell::new((i * 13 % 37) as i32, (i * 7 % 23) as i32);
                let sources: Vec<Cell> = (0..seed % 4 + 1).map(|i| cell(seed + i * 5)).collect();
                for mult in &mults {
                    for stop in [vec![], vec![cell(seed * 3 + 11)], vec![cell(2), cell(40)]] {
                        let want = reference(&b, &sources, mult, &stop);
                        let got = Field::from(&b, &sources, mult, &stop);
                        assert_eq!(
                            got.dist, want,
                            "{grid:?} seed {seed} {mult:?} stop {stop:?}"
                        );
                        if !stop.is_empty() && want.contains(&FAR) {
                            checked_bounded += 1;
                        }
                    }
                }
            }
        }
        // Some bounded searches did stop early, leaving cells unsettled.
        assert!(checked_bounded > 10, "{checked_bounded}");
    }
}
