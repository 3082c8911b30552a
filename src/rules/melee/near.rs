//! Who stands near a figure, without looking at every figure (issue 33, item 3).
//!
//! Card checks, hands and the computer's plays ask "which enemies are within a few cells of
//! this figure?" many times for every card order; answered by walking every figure of the
//! fight, a turn with 4096 figures in contact took minutes. The fight keeps its figures sorted
//! by cell ([`NearIndex`]), built the first time it is asked and kept in step by
//! `Fight::place` and `Fight::moved`, so each question reads only the rows around the
//! figure. The answers are exactly the walk's, in the same (index) order.

use crate::rules::grid::Cell;
use std::sync::OnceLock;

/// Every fighter by cell: (row, column, index), sorted. Empty until first asked.
#[derive(Clone, Default)]
pub struct NearIndex(pub(super) OnceLock<Vec<(i32, i32, u32)>>);

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
    pub(super) fn shift(&mut self, i: usize, from: Cell, to: Cell) {
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
