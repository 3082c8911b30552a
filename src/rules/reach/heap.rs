//! The search's priority queue: a radix heap over non-decreasing costs.

/// A monotone priority queue of `(cost, node)` (a radix heap): entries are filed by the
/// highest bit in which their cost differs from the last cost taken out, so each entry moves
/// down a bucket at most 64 times and most pushes and pops are a `Vec` push or pop; a bit mask
/// of the non-empty buckets finds the next one in one instruction. Valid because Dijkstra never
/// pushes a cost below the one it just took out. Equal costs come out in no promised order;
/// the search does not depend on it.
#[derive(Debug)]
pub(super) struct RadixHeap {
    last: i64,
    /// Bit `i` set when `buckets[i]` is not empty.
    full: u128,
    buckets: [Vec<(i64, u32)>; 65],
}

impl Default for RadixHeap {
    fn default() -> RadixHeap {
        RadixHeap {
            last: 0,
            full: 0,
            buckets: std::array::from_fn(|_| Vec::new()),
        }
    }
}

impl RadixHeap {
    pub(super) fn clear(&mut self) {
        self.last = 0;
        while self.full != 0 {
            let i = self.full.trailing_zeros() as usize;
            self.buckets[i].clear();
            self.full &= self.full - 1;
        }
    }

    #[inline]
    fn bucket(last: i64, cost: i64) -> usize {
        64 - ((cost ^ last) as u64).leading_zeros() as usize
    }

    #[inline]
    pub(super) fn push(&mut self, cost: i64, node: u32) {
        debug_assert!(cost >= self.last, "radix heap keys must not decrease");
        let b = Self::bucket(self.last, cost);
        self.buckets[b].push((cost, node));
        self.full |= 1 << b;
    }

    #[inline]
    pub(super) fn pop(&mut self) -> Option<(i64, u32)> {
        if self.full & 1 == 0 {
            if self.full == 0 {
                return None;
            }
            // Refile the lowest non-empty bucket around its smallest cost: everything in it
            // lands in lower buckets, the smallest in bucket 0.
            let i = self.full.trailing_zeros() as usize;
            let (low, high) = self.buckets.split_at_mut(i);
            let moved = &mut high[0];
            self.last = moved.iter().map(|e| e.0).min().unwrap_or(self.last);
            for &(c, n) in moved.iter() {
                let b = Self::bucket(self.last, c);
                low[b].push((c, n));
                self.full |= 1 << b;
            }
            moved.clear();
            self.full &= !(1 << i);
        }
        let e = self.buckets[0].pop();
        if self.buckets[0].is_empty() {
            self.full &= !1;
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radix_heap_pops_in_cost_order() {
        let mut q = RadixHeap::default();
        let mut out = Vec::new();
        let mut x = 12345u64;
        q.push(0, 0);
        while let Some((c, n)) = q.pop() {
            out.push(c);
            if n < 500 {
                for k in 0..3 {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    q.push(c + (x >> 40) as i64 % 300_000, n * 3 + k + 1);
                }
            }
        }
        assert!(out.len() > 500);
        assert!(
            out.windows(2).all(|w| w[0] <= w[1]),
            "costs came out of order"
        );
    }
}
