//! The reachable area (issue 2 §4): every cell a figure can reach with what is left of its
//! allowance, each facing it can end in, the cheapest cost and the path.
//!
//! A Dijkstra search over pose = cell × facing × diagonal counter × veers used × stopped,
//! with dense arrays over a window around the figure (the farthest it could go at the cheapest
//! step), so a query touches no hash map and allocates a few small vectors. Every edge is a
//! call to [`Mover::try_step`], the same function that validates orders.

use super::board::Board;
use super::grid::{Cell, Dir};
use super::movement::{Hand, Mover, Pose, Step};
use super::mp::{Mp, SCALE};
use super::ruleset::MoveStyle;
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

/// One way to finish a move: a cell, the facing it ends in, the cheapest cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ReachEnd {
    /// Where it ends.
    pub cell: Cell,
    /// The facing (heading) it ends in.
    pub facing: Dir,
    /// Cheapest cost.
    pub cost: Mp,
    #[serde(skip)]
    state: u32,
}

/// The result of a reachable-area query.
#[derive(Clone, Debug)]
pub struct Reach {
    ends: Vec<ReachEnd>,
    parent: Vec<u32>,
    via: Vec<Step>,
    pose: Vec<Pose>,
}

const NONE: u32 = u32::MAX;

struct Layout {
    x0: i32,
    y0: i32,
    w: i32,
    h: i32,
    dirs: usize,
    diag: usize,
    veers: usize,
    stop_dim: usize,
    start: Cell,
}

impl Layout {
    fn key(&self, p: &Pose) -> Option<usize> {
        let (lx, ly) = (p.cell.x - self.x0, p.cell.y - self.y0);
        if lx < 0 || ly < 0 || lx >= self.w || ly >= self.h {
            return None;
        }
        let cell = (ly * self.w + lx) as usize;
        let diag = match p.diag {
            None => 0,
            Some(Hand::Left) => 1,
            Some(Hand::Right) => 2,
        }
        .min(self.diag - 1);
        let veers = (p.veers as usize).min(self.veers - 1);
        let stop = usize::from(self.stop_dim == 2 && p.stopped && p.cell == self.start);
        Some(
            (((cell * self.dirs + p.facing.0 as usize) * self.diag + diag) * self.veers + veers)
                * self.stop_dim
                + stop,
        )
    }
    fn size(&self) -> usize {
        (self.w * self.h) as usize * self.dirs * self.diag * self.veers * self.stop_dim
    }
}

/// Searches everything `mover` can reach from `start` with `left` movement.
pub fn reachable(board: &Board, mover: &Mover, start: Pose, left: Mp) -> Reach {
    let g = mover.grid;
    let min_step = mover
        .mult
        .iter()
        .flatten()
        .copied()
        .min()
        .unwrap_or(SCALE)
        .min(mover.ally_mult)
        .max(1);
    let radius = (left.raw().max(0) / min_step + 2).min((board.width + board.height) as i64) as i32;
    let (x0, y0) = (
        (start.cell.x - radius).max(0),
        (start.cell.y - radius).max(0),
    );
    let x1 = (start.cell.x + radius).min(board.width - 1);
    let y1 = (start.cell.y + radius).min(board.height - 1);
    let lay = Layout {
        x0,
        y0,
        w: (x1 - x0 + 1).max(1),
        h: (y1 - y0 + 1).max(1),
        dirs: g.dirs() as usize,
        diag: if mover.style == MoveStyle::Horse && g == super::grid::GridKind::Square {
            3
        } else {
            1
        },
        veers: mover.veer_limit.map_or(1, |l| l as usize + 1),
        stop_dim: if mover.stops.binary_search(&start.cell).is_ok() {
            2
        } else {
            1
        },
        start: start.cell,
    };
    let n = lay.size();
    let mut cost = vec![i64::MAX; n];
    let mut parent = vec![NONE; n];
    let mut via = vec![Step::Forward; n];
    let mut pose = vec![start; n];
    let mut heap = BinaryHeap::new();
    let steps = mover.candidate_steps();
    let mut settled: Vec<u32> = Vec::new();
    if let Some(k) = lay.key(&start)
        && left >= Mp::ZERO
    {
        cost[k] = 0;
        heap.push(Reverse((0i64, k as u32)));
    }
    while let Some(Reverse((c, k))) = heap.pop() {
        let ku = k as usize;
        if c > cost[ku] {
            continue;
        }
        settled.push(k);
        let from = pose[ku];
        for &step in &steps {
            let Ok((next, sc)) = mover.try_step(board, &from, step) else {
                continue;
            };
            let nc = c + sc.raw();
            if nc > left.raw() {
                continue;
            }
            let Some(nk) = lay.key(&next) else { continue };
            if nc < cost[nk] {
                cost[nk] = nc;
                parent[nk] = k;
                via[nk] = step;
                pose[nk] = next;
                heap.push(Reverse((nc, nk as u32)));
            }
        }
    }
    // Ends: every settled pose on a free cell (or the start), with its free final facings.
    let mut best: BTreeMap<(Cell, Dir), (i64, u32)> = BTreeMap::new();
    for k in settled {
        let p = pose[k as usize];
        if p.cell != start.cell && board.occupant_at(p.cell) != 0 {
            continue;
        }
        let c = cost[k as usize];
        let mut facings = mover.settle_options(&p);
        facings.push(p.facing);
        for f in facings {
            let e = best.entry((p.cell, f)).or_insert((i64::MAX, NONE));
            if c < e.0 {
                *e = (c, k);
            }
        }
    }
    let ends = best
        .into_iter()
        .map(|((cell, facing), (c, state))| ReachEnd {
            cell,
            facing,
            cost: Mp::from_raw(c),
            state,
        })
        .collect();
    Reach {
        ends,
        parent,
        via,
        pose,
    }
}

impl Reach {
    /// Every (cell, facing) end, sorted by cell then facing.
    pub fn ends(&self) -> &[ReachEnd] {
        &self.ends
    }

    /// The cheapest end per cell, sorted by cell.
    pub fn cells(&self) -> Vec<ReachEnd> {
        let mut out: Vec<ReachEnd> = Vec::new();
        for e in &self.ends {
            match out.last_mut() {
                Some(l) if l.cell == e.cell => {
                    if e.cost < l.cost {
                        *l = *e;
                    }
                }
                _ => out.push(*e),
            }
        }
        out
    }

    /// The cheapest end at `cell` in `facing`, if reachable.
    pub fn end(&self, cell: Cell, facing: Dir) -> Option<&ReachEnd> {
        self.ends
            .binary_search_by(|e| (e.cell, e.facing).cmp(&(cell, facing)))
            .ok()
            .map(|i| &self.ends[i])
    }

    /// The cheapest end at `cell` in any facing.
    pub fn cheapest_at(&self, cell: Cell) -> Option<&ReachEnd> {
        self.ends
            .iter()
            .filter(|e| e.cell == cell)
            .min_by_key(|e| e.cost)
    }

    /// The steps of the cheapest path to an end, ending with a `Settle` when the final facing
    /// is a free adjustment.
    pub fn path(&self, end: &ReachEnd) -> Vec<Step> {
        let mut steps = Vec::new();
        let mut k = end.state;
        while self.parent[k as usize] != NONE {
            steps.push(self.via[k as usize]);
            k = self.parent[k as usize];
        }
        steps.reverse();
        if self.pose[end.state as usize].facing != end.facing {
            steps.push(Step::Settle(end.facing));
        }
        steps
    }
}

/// Test oracle: enumerates every legal step sequence (exponential; small allowances only) and
/// keeps the cheapest cost of every (cell, facing) end, by the same end rules as [`reachable`].
pub fn brute_force(
    board: &Board,
    mover: &Mover,
    start: Pose,
    left: Mp,
) -> BTreeMap<(Cell, Dir), Mp> {
    struct Walk<'a> {
        board: &'a Board,
        mover: &'a Mover,
        start: Cell,
        left: Mp,
        steps: Vec<Step>,
        out: BTreeMap<(Cell, Dir), Mp>,
    }
    impl Walk<'_> {
        fn go(&mut self, p: Pose, spent: Mp) {
            if p.cell == self.start || self.board.occupant_at(p.cell) == 0 {
                let mut facings = self.mover.settle_options(&p);
                facings.push(p.facing);
                for f in facings {
                    let e = self.out.entry((p.cell, f)).or_insert(spent);
                    *e = (*e).min(spent);
                }
            }
            for i in 0..self.steps.len() {
                let s = self.steps[i];
                if let Ok((n, c)) = self
                    .mover
                    .try_step_within(self.board, &p, s, self.left - spent)
                    && c > Mp::ZERO
                {
                    self.go(n, spent + c);
                }
            }
        }
    }
    let mut w = Walk {
        board,
        mover,
        start: start.cell,
        left,
        steps: mover.candidate_steps(),
        out: BTreeMap::new(),
    };
    if left >= Mp::ZERO {
        w.go(start, Mp::ZERO);
    }
    w.out
}
