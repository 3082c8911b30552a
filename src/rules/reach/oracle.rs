//! The brute-force oracle the property tests hold the search to.

use crate::rules::board::Board;
use crate::rules::grid::{Cell, Dir};
use crate::rules::movement::{Mover, Pose, Step};
use crate::rules::mp::Mp;
use std::collections::BTreeMap;

/// Test oracle: enumerates every legal step sequence with at most one chance step (D17, R4;
/// exponential, small allowances only) and keeps, for every (cell, facing) end, the best
/// `(needs a roll, cost)` — a sure path before any path through a roll, then the cheapest —
/// by the same end rules as [`super::reachable`]. The cost of a path through a roll is its
/// cost when the roll succeeds.
///
/// The start cell is priced as any empty cell, independently of [`Mover::home`]: the oracle
/// searches a copy of the board with the mover's own occupancy of its start cell removed
/// (R4: a figure controls its cell against others, not against itself).
pub fn brute_force(
    board: &Board,
    mover: &Mover,
    start: Pose,
    left: Mp,
) -> BTreeMap<(Cell, Dir), (bool, Mp)> {
    let mut own = board.clone();
    if own.contains(start.cell) {
        let i = own.index(start.cell);
        own.occupant[i] = 0;
    }
    let board = &own;
    let anchored = mover.anchored(&start);
    let mover: &Mover = &anchored;
    struct Walk<'a> {
        board: &'a Board,
        mover: &'a Mover,
        start: Cell,
        left: Mp,
        steps: Vec<Step>,
        out: BTreeMap<(Cell, Dir), (bool, Mp)>,
    }
    impl Walk<'_> {
        fn go(&mut self, p: Pose, spent: Mp, rolled: bool) {
            if p.cell == self.start || self.board.occupant_at(p.cell) == 0 {
                let mut facings = self.mover.settle_options(&p);
                facings.push(p.facing);
                for f in facings {
                    let e = self.out.entry((p.cell, f)).or_insert((rolled, spent));
                    *e = (*e).min((rolled, spent));
                }
            }
            for i in 0..self.steps.len() {
                let s = self.steps[i];
                let Ok((n, c, g)) = self.mover.try_step_gamble(self.board, &p, s) else {
                    continue;
                };
                if c > Mp::ZERO && c <= self.left - spent && !(rolled && g.is_some()) {
                    self.go(n, spent + c, rolled || g.is_some());
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
        w.go(start, Mp::ZERO, false);
    }
    w.out
}
