//! The search's "have I seen this pose" table: dense over the search window, or sparse when
//! the window is too large (issue 15: a terrain cost as fine as the loader allows puts the
//! whole map in range of a single gallop, and a dense table over 512 × 512 cells and every
//! facing, diagonal and veer count took about 90 MB for a knight that reaches a thousand
//! cells). Sparse, memory follows the poses the search reaches, never the allowance's
//! fineness.

use std::collections::HashMap;

/// Most slots a dense table may have (8 MiB of `u64`); a larger window is searched with a
/// sparse table.
pub const DENSE_SLOTS: usize = 1 << 20;

/// One query's table: slot `k` holds `generation << 32 | index`, or anything with another
/// generation (0 for a slot never written) when `k` was not reached in this query.
pub enum Table<'a> {
    /// Every slot of the window, stamped with the query's generation (never cleared).
    Dense(&'a mut [u64]),
    /// Only the slots written in this query (cleared when the query begins).
    Sparse(&'a mut HashMap<usize, u64>),
}

impl Table<'_> {
    /// Slot `k`: what was written there, or 0.
    #[inline]
    pub fn get(&self, k: usize) -> u64 {
        match self {
            Table::Dense(s) => s[k],
            Table::Sparse(m) => m.get(&k).copied().unwrap_or(0),
        }
    }

    /// Writes slot `k`.
    #[inline]
    pub fn set(&mut self, k: usize, v: u64) {
        match self {
            Table::Dense(s) => s[k] = v,
            Table::Sparse(m) => {
                m.insert(k, v);
            }
        }
    }
}
