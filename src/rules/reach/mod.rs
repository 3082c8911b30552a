//! The reachable area (issue 2 §4): every cell a figure can reach with what is left of its
//! allowance, each facing it can end in, the cheapest cost and the path.
//!
//! A Dijkstra search over pose = cell × facing × diagonal counter × veers used × stopped.
//! Every edge is a call to [`Mover::try_step_quiet`] — [`Mover::try_step`] without the
//! refusal's text — the same rules that validate orders, so a path the search reports is a
//! path the validator accepts.
//!
//! Speed (see `docs/performance.md`): poses are numbered densely over a window around the
//! figure (the farthest it could go at the cheapest step), and the dense "which node is this
//! pose" table lives in a reusable [`ReachScratch`] whose entries carry a generation stamp, so
//! a query neither hashes nor clears a big table. Only poses actually reached are stored, in
//! the order they are found; the result keeps just those. The queue is a radix heap (costs
//! only grow in Dijkstra), and the ends are gathered in a second stamped table and sorted as
//! plain integers.
//!
//! Chance steps (D17 squeezing between obstacles, R4 contesting a hostile's cell): a path may
//! hold at most one (a Move order rolls at most once, so the player sees the die before
//! planning further). The search keeps poses reached with and without a roll apart; an end is
//! reported by its best path — a sure path if there is one, else the cheapest through a roll
//! — and an end behind a roll carries [`EndRoll`]: the chance, and where a failed roll stops
//! the figure at what cost. The cost of such an end is its cost when the roll succeeds.

mod heap;
mod oracle;
mod table;

pub use oracle::brute_force;

use super::board::Board;
use super::chance::{Chance, Gamble};
use super::grid::{Cell, Dir, GridKind};
use super::movement::{Hand, Mover, Pose, Step};
use super::mp::{Mp, SCALE};
use super::ruleset::MoveStyle;
use heap::RadixHeap;
use serde::Serialize;
use std::cell::RefCell;
use std::collections::HashMap;
use table::{DENSE_SLOTS, Table};

/// One way to finish a move: a cell, the facing it ends in, the cheapest cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ReachEnd {
    /// Where it ends.
    pub cell: Cell,
    /// The facing (heading) it ends in.
    pub facing: Dir,
    /// Cheapest cost (if its path holds a roll: the cost when the roll succeeds).
    pub cost: Mp,
    /// The roll its path needs, if any (D17, R4).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roll: Option<EndRoll>,
    #[serde(skip)]
    state: u32,
}

/// The chance step on the way to an end, and what a failure leaves (D17, R4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct EndRoll {
    /// What is rolled.
    pub gamble: Gamble,
    /// The exact chance of getting through.
    pub chance: Chance,
    /// Index in the path of the chance step.
    pub step: u16,
    /// Where a failed roll stops the figure (the cell before the chance step).
    pub fail_cell: Cell,
    /// The facing it stops in.
    pub fail_facing: Dir,
    /// What the move costs when the roll fails.
    pub fail_cost: Mp,
}

/// A reached pose: how it was first reached most cheaply.
#[derive(Clone, Copy, Debug)]
struct Node {
    pose: Pose,
    cost: i64,
    parent: u32,
    via: Step,
    /// Index in the search's roll notes of the roll on its path, or `NONE`.
    roll: u32,
}

/// The result of a reachable-area query.
#[derive(Clone, Debug)]
pub struct Reach {
    ends: Vec<ReachEnd>,
    nodes: Vec<Node>,
}

const NONE: u32 = u32::MAX;

/// Reusable working memory for [`reachable_with`]: the dense pose → node table (stamped with
/// the query's generation, so it is never cleared between queries) and the queue. One lives
/// in each thread for [`reachable`]; keep your own to search from several places at once.
#[derive(Debug, Default)]
pub struct ReachScratch {
    /// Per dense pose index: `generation << 32 | node index`.
    slots: Vec<u64>,
    /// Per (window cell, facing), column by column: `generation << 32 | end index`.
    end_slots: Vec<u64>,
    /// `slots` and `end_slots` for a window too large for dense tables ([`DENSE_SLOTS`]):
    /// only the slots reached.
    sparse_slots: HashMap<usize, u64>,
    sparse_ends: HashMap<usize, u64>,
    /// The last query's window is searched with the sparse tables.
    sparse: bool,
    /// Most dense slots, [`DENSE_SLOTS`] unless a test lowers it.
    dense_limit: Option<usize>,
    generation: u32,
    queue: RadixHeap,
    /// Poses reached by the last query: the first guess at the next one's size.
    last_nodes: usize,
}

impl ReachScratch {
    /// Empty scratch; it grows to the largest window searched.
    pub fn new() -> ReachScratch {
        ReachScratch::default()
    }

    /// Starts a query over `poses` dense poses and `ends` (cell, facing) pairs: a fresh
    /// generation, every slot "unseen"; sparse tables when either is over [`DENSE_SLOTS`].
    fn begin(&mut self, poses: usize, ends: usize) {
        let limit = self.dense_limit.unwrap_or(DENSE_SLOTS);
        self.sparse = poses > limit || ends > limit;
        if self.sparse {
            self.sparse_slots.clear();
            self.sparse_ends.clear();
        } else if self.slots.len() < poses {
            self.slots.resize(poses, 0);
        }
        if !self.sparse && self.end_slots.len() < ends {
            self.end_slots.resize(ends, 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Wrapped: stamps from 2^32 queries ago could look current; wipe them once.
            self.slots.iter_mut().for_each(|s| *s = 0);
            self.end_slots.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        self.queue.clear();
    }
}

thread_local! {
    static SCRATCH: RefCell<ReachScratch> = RefCell::new(ReachScratch::new());
}

/// The dense numbering of poses in the search window.
struct Layout {
    x0: i32,
    y0: i32,
    w: i32,
    h: i32,
    /// Facings kept apart: 8 or 6, or 4 for a mount on squares (its heading only ever turns
    /// by 90°, so it keeps the parity it started with).
    dirs: usize,
    /// Shift taking a facing to its index (1 for a mount on squares, else 0).
    dir_shift: u8,
    diag: usize,
    veers: usize,
    stop_dim: usize,
    /// 2 when the mover may roll (poses behind a roll kept apart), else 1.
    roll_dim: usize,
    start: Cell,
}

impl Layout {
    #[inline]
    fn key(&self, p: &Pose, rolled: bool) -> Option<usize> {
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
        let facing = (p.facing.0 >> self.dir_shift) as usize;
        Some(
            ((((cell * self.dirs + facing) * self.diag + diag) * self.veers + veers)
                * self.stop_dim
                + stop)
                * self.roll_dim
                + usize::from(rolled && self.roll_dim == 2),
        )
    }

    fn size(&self) -> usize {
        (self.w * self.h) as usize
            * self.dirs
            * self.diag
            * self.veers
            * self.stop_dim
            * self.roll_dim
    }
}

/// Searches everything `mover` can reach from `start` with `left` movement, using this
/// thread's scratch memory.
pub fn reachable(board: &Board, mover: &Mover, start: Pose, left: Mp) -> Reach {
    SCRATCH.with(|s| match s.try_borrow_mut() {
        Ok(mut scratch) => reachable_with(&mut scratch, board, mover, start, left),
        Err(_) => reachable_with(&mut ReachScratch::new(), board, mover, start, left),
    })
}

/// [`reachable`] with caller-owned scratch memory.
pub fn reachable_with(
    scratch: &mut ReachScratch,
    board: &Board,
    mover: &Mover,
    start: Pose,
    left: Mp,
) -> Reach {
    // The start cell is the mover's own: priced as an empty cell (R4), see `Mover::home`.
    let anchored = mover.anchored(&start);
    let mover: &Mover = &anchored;
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
    let horse_squares = mover.style == MoveStyle::Horse && g == GridKind::Square;
    let lay = Layout {
        x0,
        y0,
        w: (x1 - x0 + 1).max(1),
        h: (y1 - y0 + 1).max(1),
        dirs: if horse_squares { 4 } else { g.dirs() as usize },
        dir_shift: u8::from(horse_squares),
        diag: if horse_squares { 3 } else { 1 },
        veers: mover.veer_limit.map_or(1, |l| l as usize + 1),
        stop_dim: if mover.stops.binary_search(&start.cell).is_ok() {
            2
        } else {
            1
        },
        roll_dim: if mover.may_roll() { 2 } else { 1 },
        start: start.cell,
    };
    let mut nodes: Vec<Node> = Vec::with_capacity(scratch.last_nodes.clamp(16, 1 << 16));
    let mut rolls: Vec<EndRoll> = Vec::new();
    let Some(k0) = lay.key(&start, false).filter(|_| left >= Mp::ZERO) else {
        return Reach {
            ends: Vec::new(),
            nodes,
        };
    };
    let all_dirs = g.dirs() as usize;
    scratch.begin(lay.size(), (lay.w * lay.h) as usize * all_dirs);
    let stamp = u64::from(scratch.generation) << 32;
    let mut slots = if scratch.sparse {
        Table::Sparse(&mut scratch.sparse_slots)
    } else {
        Table::Dense(&mut scratch.slots)
    };
    let queue = &mut scratch.queue;
    let steps = mover.candidate_steps();
    let left_raw = left.raw();
    slots.set(k0, stamp);
    nodes.push(Node {
        pose: start,
        cost: 0,
        parent: NONE,
        via: Step::Forward,
        roll: NONE,
    });
    queue.push(0, 0);
    while let Some((c, i)) = queue.pop() {
        let from = nodes[i as usize];
        if c > from.cost {
            continue; // a stale entry: it was reached more cheaply since
        }
        for &step in &steps {
            let Ok((next, sc, gamble)) = mover.try_step_gamble_quiet(board, &from.pose, step)
            else {
                continue;
            };
            let nc = c + sc.raw();
            if nc > left_raw || (gamble.is_some() && from.roll != NONE) {
                continue; // too dear, or a second roll on one path
            }
            let rolled = from.roll != NONE || gamble.is_some();
            let Some(k) = lay.key(&next, rolled) else {
                continue;
            };
            let slot = slots.get(k);
            let known = slot & !0xFFFF_FFFF == stamp;
            if known && nc >= nodes[slot as u32 as usize].cost {
                continue;
            }
            let roll = match gamble {
                None => from.roll,
                Some(g) => {
                    rolls.push(EndRoll {
                        gamble: g,
                        chance: g.chance(),
                        step: depth(&nodes, i),
                        fail_cell: from.pose.cell,
                        fail_facing: from.pose.failed().facing,
                        fail_cost: Mp::from_raw(c) + g.fail_cost(),
                    });
                    rolls.len() as u32 - 1
                }
            };
            let node = Node {
                pose: next,
                cost: nc,
                parent: i,
                via: step,
                roll,
            };
            let j = if known {
                let j = slot as u32;
                nodes[j as usize] = node;
                j
            } else {
                let j = nodes.len() as u32;
                slots.set(k, stamp | u64::from(j));
                nodes.push(node);
                j
            };
            queue.push(nc, j);
        }
    }
    // Ends: every reached pose on a free cell (or the start), with its free final facings;
    // per (cell, facing) the best by (needs a roll, cost), among equals the pose found first. Each (cell, facing)
    // has a slot numbered column by column, so sorting the slot numbers sorts the ends by
    // cell then facing.
    let mut end_slots = if scratch.sparse {
        Table::Sparse(&mut scratch.sparse_ends)
    } else {
        Table::Dense(&mut scratch.end_slots)
    };
    let mut found: Vec<ReachEnd> = Vec::with_capacity(nodes.len() + nodes.len() / 4);
    let mut order: Vec<u64> = Vec::with_capacity(found.capacity());
    for (j, n) in nodes.iter().enumerate() {
        let p = &n.pose;
        if p.cell != start.cell && board.occupant_at(p.cell) != 0 {
            continue;
        }
        let column = ((p.cell.x - lay.x0) * lay.h + (p.cell.y - lay.y0)) as usize * all_dirs;
        let (extra, count) = mover.free_facings(p);
        for &facing in std::iter::once(&p.facing).chain(&extra[..count]) {
            let e = column + facing.0 as usize;
            let slot = end_slots.get(e);
            if slot & !0xFFFF_FFFF == stamp {
                let end = &mut found[slot as u32 as usize];
                if (n.roll != NONE, n.cost) < (end.roll.is_some(), end.cost.raw()) {
                    end.cost = Mp::from_raw(n.cost);
                    end.roll = rolls.get(n.roll as usize).copied();
                    end.state = j as u32;
                }
            } else {
                end_slots.set(e, stamp | found.len() as u64);
                order.push((e as u64) << 32 | found.len() as u64);
                found.push(ReachEnd {
                    cell: p.cell,
                    facing,
                    cost: Mp::from_raw(n.cost),
                    roll: rolls.get(n.roll as usize).copied(),
                    state: j as u32,
                });
            }
        }
    }
    order.sort_unstable();
    let ends = order.iter().map(|&o| found[o as u32 as usize]).collect();
    scratch.last_nodes = nodes.len();
    Reach { ends, nodes }
}

/// The number of steps on the path to node `i`.
fn depth(nodes: &[Node], mut i: u32) -> u16 {
    let mut d = 0u16;
    while nodes[i as usize].parent != NONE {
        d = d.saturating_add(1);
        i = nodes[i as usize].parent;
    }
    d
}

impl ReachEnd {
    /// How ends compare: a sure end before one behind a roll, then the cheaper.
    pub fn rank(&self) -> (bool, Mp) {
        (self.roll.is_some(), self.cost)
    }
}

impl Reach {
    /// Every (cell, facing) end, sorted by cell then facing.
    pub fn ends(&self) -> &[ReachEnd] {
        &self.ends
    }

    /// The best end per cell (sure before behind a roll, then cheapest), sorted by cell.
    pub fn cells(&self) -> Vec<ReachEnd> {
        let mut out: Vec<ReachEnd> = Vec::new();
        for e in &self.ends {
            match out.last_mut() {
                Some(l) if l.cell == e.cell => {
                    if e.rank() < l.rank() {
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

    /// The best end at `cell` in any facing: sure before behind a roll, then cheapest.
    pub fn cheapest_at(&self, cell: Cell) -> Option<&ReachEnd> {
        self.ends
            .iter()
            .filter(|e| e.cell == cell)
            .min_by_key(|e| e.rank())
    }

    /// The steps of the cheapest path to an end, ending with a `Settle` when the final facing
    /// is a free adjustment.
    pub fn path(&self, end: &ReachEnd) -> Vec<Step> {
        let mut steps = Vec::new();
        let mut k = end.state;
        while self.nodes[k as usize].parent != NONE {
            steps.push(self.nodes[k as usize].via);
            k = self.nodes[k as usize].parent;
        }
        steps.reverse();
        if self.nodes[end.state as usize].pose.facing != end.facing {
            steps.push(Step::Settle(end.facing));
        }
        steps
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Terrain;
    use crate::rules::gait::Gait;
    use crate::rules::movement::MoverSpec;
    use crate::rules::ruleset::Ruleset;

    fn rules() -> Ruleset {
        ron::Options::default()
            .from_str(include_str!("../../../rulesets/destrier.ron"))
            .expect("shipped ruleset parses")
    }

    fn case(size: i32, gait: Gait) -> (Board, Mover) {
        let terrain = |name: &str, cost: Option<i64>| Terrain {
            name: name.into(),
            cost: cost.map(Mp::cells),
            mounted_cost: None,
            no_gallop: false,
            cover: false,
            blocks_sight: false,
            obstacle: None,
        };
        let mut b = Board::new(
            GridKind::Square,
            size,
            size,
            vec![
                terrain("open", Some(1)),
                terrain("rough", Some(2)),
                terrain("rock", None),
            ],
        );
        for (i, t) in b.terrain.iter_mut().enumerate() {
            *t = [0, 0, 1, 0, 2, 0, 1][i * 7 % 11 % 7];
        }
        let m = Mover::new(
            &rules(),
            &b,
            MoverSpec {
                side: 1,
                mounted: true,
                gait,
                basis: Mp::cells(7),
                crawling: false,
                asl_gallop: false,
                stops: vec![],
            },
        );
        (b, m)
    }

    fn ends(r: &Reach) -> Vec<(Cell, Dir, Mp)> {
        r.ends()
            .iter()
            .map(|e| (e.cell, e.facing, e.cost))
            .collect()
    }

    #[test]
    fn reused_and_wrapped_scratch_give_the_same_area() {
        let (small, walker) = case(12, Gait::Walk);
        let (big, galloper) = case(40, Gait::Gallop);
        let start = Pose::new(Cell::new(6, 6), Dir(2));
        let fresh = reachable_with(
            &mut ReachScratch::new(),
            &small,
            &walker,
            start,
            Mp::cells(7),
        );
        assert!(fresh.ends().len() > 10);
        let mut scratch = ReachScratch::new();
        // A bigger query first leaves stale slots behind; a wrapped generation wipes them.
        reachable_with(
            &mut scratch,
            &big,
            &galloper,
            Pose::new(Cell::new(20, 20), Dir(2)),
            Mp::cells(27),
        );
        let reused = reachable_with(&mut scratch, &small, &walker, start, Mp::cells(7));
        scratch.generation = u32::MAX;
        let wrapped = reachable_with(&mut scratch, &small, &walker, start, Mp::cells(7));
        assert_eq!(ends(&fresh), ends(&reused));
        assert_eq!(ends(&fresh), ends(&wrapped));
        assert_eq!(scratch.generation, 1);
        for e in fresh.ends() {
            assert_eq!(fresh.path(e), wrapped.path(e));
        }
    }

    #[test]
    fn sparse_tables_give_the_same_area_as_dense_ones() {
        for (gait, left) in [(Gait::Walk, 7), (Gait::Gallop, 27)] {
            let (board, mover) = case(40, gait);
            let start = Pose::new(Cell::new(20, 20), Dir(2));
            let mut dense = ReachScratch::new();
            let a = reachable_with(&mut dense, &board, &mover, start, Mp::cells(left));
            assert!(!dense.sparse);
            let mut sparse = ReachScratch {
                dense_limit: Some(0),
                ..ReachScratch::new()
            };
            let b = reachable_with(&mut sparse, &board, &mover, start, Mp::cells(left));
            assert!(sparse.sparse);
            assert!(a.ends().len() > 10);
            assert_eq!(ends(&a), ends(&b));
            for e in a.ends() {
                assert_eq!(a.path(e), b.path(e));
            }
        }
    }
}
