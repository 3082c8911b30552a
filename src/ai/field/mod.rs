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
use std::sync::Mutex;

/// Unreached (impassable, cut off, or beyond the search's bound).
pub const FAR: i64 = i64::MAX / 4;

/// Distances from a set of source cells, in raw movement units.
///
/// A field the [`FieldCache`] hands out for "every cell" is searched only as far as it is
/// read: [`Field::at`] goes on with the search until the cell read is settled. A settled
/// distance is final, so every read gives what a search of the whole map gives; a side-turn
/// reads a few cells round each figure, not 262 144 (issue 15).
#[derive(Debug)]
pub struct Field {
    width: i32,
    state: Mutex<State>,
}

impl Clone for Field {
    fn clone(&self) -> Field {
        Field {
            width: self.width,
            state: Mutex::new(self.lock().clone()),
        }
    }
}

/// A field's distances so far, and the search that goes on with them.
#[derive(Clone, Debug)]
struct State {
    dist: Vec<i64>,
    /// The search, `None` once it is over.
    rest: Option<Search>,
    /// Reads go on with the search (else the field is bounded: it stays as it stopped).
    whole: bool,
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
        let mut waiting: Vec<usize> = stop_at
            .iter()
            .filter(|c| board.contains(**c))
            .map(|&c| board.index(c))
            .collect();
        let bounded = !waiting.is_empty();
        let mut f = Field::start(board, sources, mult, bounded);
        let st = f.state.get_mut().unwrap_or_else(|e| e.into_inner());
        let mut search = st.rest.take().expect("just started");
        while let Some((d, i)) = search.pop(&st.dist) {
            if bounded {
                waiting.retain(|&x| x != i);
                if waiting.is_empty() {
                    // Stopped here: `i` is settled, its neighbours not yet offered. The search
                    // is kept for [`Field::widen`]; until then reads do not go on with it.
                    search.unrelaxed = Some(i);
                    st.rest = Some(search);
                    st.whole = false;
                    return f;
                }
            }
            search.relax(&mut st.dist, i, d);
        }
        f
    }

    /// This bounded field as the field of every cell: reads go on with its search (what a
    /// new search of the whole map would give, cell for cell).
    fn widen(&mut self) {
        self.state
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .whole = true;
    }

    /// The field of every cell from `sources`, searched as far as it is read.
    fn lazy(board: &Board, sources: &[Cell], mult: &[Option<i64>]) -> Field {
        Field::start(board, sources, mult, false)
    }

    /// A search from `sources` with nothing taken out of its queue yet.
    fn start(board: &Board, sources: &[Cell], mult: &[Option<i64>], ordered: bool) -> Field {
        let n = (board.width.max(0) * board.height.max(0)) as usize;
        let mut dist = vec![FAR; n];
        let queue = match BucketQueue::for_costs(mult, ordered) {
            Some(q) => AnyQueue::Buckets(q),
            None => AnyQueue::Heap(HeapQueue(BinaryHeap::new())),
        };
        let mut search = Search::new(board, mult, queue);
        for &s in sources {
            if board.contains(s) {
                let i = board.index(s);
                dist[i] = 0;
                search.queue.push(0, i as u32);
            }
        }
        Field {
            width: board.width,
            state: Mutex::new(State {
                dist,
                rest: Some(search),
                whole: true,
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The distance of `c` ([`FAR`] off the map or unreached).
    pub fn at(&self, c: Cell) -> i64 {
        if c.x < 0 || c.y < 0 || c.x >= self.width {
            return FAR;
        }
        let i = (c.y * self.width + c.x) as usize;
        let mut st = self.lock();
        let State { dist, rest, whole } = &mut *st;
        if i >= dist.len() {
            return FAR;
        }
        if *whole
            && let Some(search) = rest
            && !search.settle(dist, i)
        {
            *rest = None;
        }
        dist[i]
    }
}

/// A Dijkstra queue that pops in order of (distance, cell index).
trait Queue {
    fn push(&mut self, d: i64, i: u32);
    fn pop(&mut self) -> Option<(i64, u32)>;
}

/// The general queue: a binary heap.
#[derive(Clone, Debug)]
struct HeapQueue(BinaryHeap<Reverse<(i64, u32)>>);

impl Queue for HeapQueue {
    #[inline]
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
#[derive(Clone, Debug)]
struct BucketQueue {
    unit: i64,
    ring: Vec<Vec<u32>>,
    /// Bit `k` set when `ring[k]` holds anything: the next bucket is found a word at a time
    /// (a ring thousands of buckets long has long runs of empty ones).
    full: Vec<u64>,
    /// The distance (in units) of the bucket being emptied, and what is left of it.
    at: i64,
    current: Vec<u32>,
    next: usize,
    queued: usize,
    ordered: bool,
}

impl BucketQueue {
    /// A queue for steps costing `mult`, or `None` when a cost is not positive or the ring
    /// would be longer than [`MAX_RING`] (then the heap serves). Only a bounded search needs
    /// each bucket in index order (where it stops within a bucket decides which cells are
    /// settled); a whole one settles every cell at its distance whatever the order.
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
        // A ring of a power of two buckets, so a distance's bucket is a mask, not a division.
        (span < MAX_RING)
            .then(|| BucketQueue::new(unit, (span as usize + 1).next_power_of_two(), ordered))
    }

    fn new(unit: i64, len: usize, ordered: bool) -> BucketQueue {
        BucketQueue {
            ordered,
            unit,
            ring: vec![Vec::new(); len],
            full: vec![0; len.div_ceil(64)],
            at: 0,
            current: Vec::new(),
            next: 0,
            queued: 0,
        }
    }
}

impl BucketQueue {
    /// The first bucket at or after `from` with anything in it, going round the ring (one
    /// must have something).
    fn next_full(&self, from: usize) -> usize {
        let len = self.ring.len();
        let mut k = from;
        loop {
            let w = k / 64;
            let bits = self.full[w] & (!0u64 << (k % 64));
            if bits != 0 {
                return w * 64 + bits.trailing_zeros() as usize;
            }
            k = (w + 1) * 64;
            if k >= len {
                k = 0;
            }
        }
    }
}

/// The longest ring the bucket queue keeps (an empty bucket is 24 bytes: 1.5 MiB at most).
/// The finest terrain cost the loader accepts, `"1/960"`, beside whole-cell costs up to 3 gives
/// a ring of 2881: with a shorter limit (it was 256) such a map's fields fell back to the
/// heap, a fifth of an AI side-turn at the limits (issue 15).
const MAX_RING: i64 = 1 << 16;

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

impl Queue for BucketQueue {
    #[inline]
    fn push(&mut self, d: i64, i: u32) {
        // The ring's length is a power of two (`for_costs`).
        let k = (d / self.unit) as usize & (self.ring.len() - 1);
        self.ring[k].push(i);
        self.full[k / 64] |= 1 << (k % 64);
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
            // The next bucket with anything in it, going round the ring from the current
            // one (every queued distance lies within one ring's length of it, and nothing is
            // ever queued in the bucket being emptied).
            let len = self.ring.len();
            let from = self.at as usize % len;
            let k = self.next_full(from);
            self.at += ((k + len - from) % len) as i64;
            self.full[k / 64] &= !(1 << (k % 64));
            self.current.clear();
            std::mem::swap(&mut self.current, &mut self.ring[k]);
            self.queued -= self.current.len();
            if self.ordered {
                self.current.sort_unstable();
                self.current.dedup();
            }
            self.next = 0;
        }
    }
}

/// Either queue, chosen by the costs.
#[derive(Clone, Debug)]
enum AnyQueue {
    Buckets(BucketQueue),
    Heap(HeapQueue),
}

impl Queue for AnyQueue {
    fn push(&mut self, d: i64, i: u32) {
        match self {
            AnyQueue::Buckets(q) => q.push(d, i),
            AnyQueue::Heap(q) => q.push(d, i),
        }
    }
    fn pop(&mut self) -> Option<(i64, u32)> {
        match self {
            AnyQueue::Buckets(q) => q.pop(),
            AnyQueue::Heap(q) => q.pop(),
        }
    }
}

/// One Dijkstra search's state, kept with its field so that reads can go on with it.
#[derive(Clone, Debug)]
struct Search {
    /// The board's terrain ids, its size and grid.
    terrain: Vec<u8>,
    width: i32,
    height: i32,
    grid: GridKind,
    /// Step cost by terrain id (-1: may not enter), so the inner loop reads one table (of
    /// 256: a terrain id, a byte, needs no bounds check there).
    cost: Box<[i64; 256]>,
    queue: AnyQueue,
    /// The last distance taken out of the queue: every cell at or below it is settled.
    settled: i64,
    /// A cell taken out whose neighbours were not yet offered (where a bounded search
    /// stopped).
    unrelaxed: Option<usize>,
}

impl Search {
    fn new(board: &Board, mult: &[Option<i64>], queue: AnyQueue) -> Search {
        let mut cost = Box::new([-1i64; 256]);
        for (t, m) in mult.iter().enumerate().take(256) {
            cost[t] = m.unwrap_or(-1);
        }
        Search {
            terrain: board.terrain.clone(),
            width: board.width,
            height: board.height,
            grid: board.grid,
            cost,
            queue,
            settled: -1,
            unrelaxed: None,
        }
    }

    /// The next cell settled and its distance (entries made stale by a shorter way skipped).
    fn pop(&mut self, dist: &[i64]) -> Option<(i64, usize)> {
        while let Some((d, i)) = self.queue.pop() {
            let i = i as usize;
            if d > dist[i] {
                continue;
            }
            self.settled = d;
            return Some((d, i));
        }
        None
    }

    /// Offers every neighbour of `i`, settled at `d`, the way through it. The order
    /// neighbours are relaxed in changes nothing: a cell keeps the least distance offered,
    /// and the queue orders by (distance, index).
    fn relax(&mut self, dist: &mut [i64], i: usize, d: i64) {
        // The queue is told apart once a cell, not once a neighbour (issue 15: the search
        // was a quarter of an AI side-turn at the limits).
        let board = Grid {
            terrain: &self.terrain,
            cost: &self.cost,
            width: self.width,
            height: self.height,
            kind: self.grid,
        };
        match &mut self.queue {
            AnyQueue::Buckets(q) => board.relax(q, dist, i, d),
            AnyQueue::Heap(q) => board.relax(q, dist, i, d),
        }
    }

    /// Goes on until cell `i` is settled; false when the search is over (every cell is).
    fn settle(&mut self, dist: &mut [i64], i: usize) -> bool {
        if let Some(u) = self.unrelaxed.take() {
            self.relax(dist, u, dist[u]);
        }
        while dist[i] > self.settled {
            let Some((d, j)) = self.pop(dist) else {
                return false;
            };
            self.relax(dist, j, d);
        }
        true
    }
}

/// What a search steps over: the terrain, its step costs and the grid.
struct Grid<'a> {
    terrain: &'a [u8],
    cost: &'a [i64; 256],
    width: i32,
    height: i32,
    kind: GridKind,
}

impl Grid<'_> {
    /// [`Search::relax`] with the queue's kind known.
    #[inline]
    fn relax<Q: Queue>(&self, queue: &mut Q, dist: &mut [i64], i: usize, d: i64) {
        let (w, h) = (self.width, self.height);
        let (x, y) = (i as i32 % w, i as i32 / w);
        let mut offer = |j: usize| {
            let m = self.cost[self.terrain[j] as usize];
            if m < 0 {
                return;
            }
            let nd = d + m;
            if nd < dist[j] {
                dist[j] = nd;
                queue.push(nd, j as u32);
            }
        };
        if self.kind != GridKind::Square {
            for (_, nb) in self.kind.neighbours(Cell::new(x, y)) {
                if nb.x >= 0 && nb.y >= 0 && nb.x < w && nb.y < h {
                    offer((nb.y * w + nb.x) as usize);
                }
            }
            return;
        }
        // Away from the edges the eight neighbours are fixed offsets; at an edge, the block
        // of rows and columns round `i` that lies on the board.
        let wu = w as usize;
        if x > 0 && y > 0 && x + 1 < w && y + 1 < h {
            let around = [
                i - wu - 1,
                i - wu,
                i - wu + 1,
                i - 1,
                i + 1,
                i + wu - 1,
                i + wu,
                i + wu + 1,
            ];
            for j in around {
                offer(j);
            }
            return;
        }
        let (x0, x1) = ((x - 1).max(0) as usize, (x + 1).min(w - 1) as usize);
        let (y0, y1) = ((y - 1).max(0) as usize, (y + 1).min(h - 1) as usize);
        for row in (y0..y1 + 1).map(|ny| ny * wu) {
            for j in row + x0..row + x1 + 1 {
                if j != i {
                    offer(j);
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
            None => match self.entries.iter().position(|(s, m, _, _)| same(s, m)) {
                // A bounded field that falls short becomes the field of every cell, once: its
                // search goes on as far as it is read.
                Some(k) => {
                    let e = &mut self.entries[k];
                    e.3.widen();
                    e.2 = false;
                    k
                }
                None => {
                    let f = if stop_at.is_empty() {
                        Field::lazy(board, sources, mult)
                    } else {
                        Field::from(board, sources, mult, stop_at)
                    };
                    let entry = (sources.to_vec(), mult.to_vec(), !stop_at.is_empty(), f);
                    self.entries.push(entry);
                    self.entries.len() - 1
                }
            },
        };
        &self.entries[i].3
    }

    /// Forgets every field (the enemies moved).
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

#[cfg(test)]
mod tests;
