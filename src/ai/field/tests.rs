//! The distance fields against a plain binary-heap Dijkstra, cell for cell.

use super::*;
use crate::rules::board::Terrain;

/// The distance field as it was first written (a binary heap over (distance, index)):
/// what the bucket queue must reproduce cell for cell, bounded or not.
fn reference(board: &Board, sources: &[Cell], mult: &[Option<i64>], stop_at: &[Cell]) -> Vec<i64> {
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
    // Whole-cell costs, a half-cell fraction, a long ring (the finest cost beside whole
    // cells), and a ring too long (the heap serves).
    let mults: [Vec<Option<i64>>; 4] = [
        vec![Some(one), Some(2 * one), Some(2 * one), None],
        vec![
            Some(one),
            Some(one * 3 / 2),
            Some(3 * one),
            Some(one / 2 * 9),
        ],
        vec![Some(1), Some(1000), Some(3), None],
        vec![Some(1), Some(MAX_RING * 2), Some(3), None],
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
                        got.lock().dist,
                        want,
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

/// The cache's fields of every cell — searched as far as they are read, or a bounded
/// field widened — read the same at every cell as a search of the whole map.
#[test]
fn fields_searched_as_far_as_read_equal_whole_ones() {
    let one = crate::rules::mp::Mp::ONE.raw();
    let mults = [
        vec![Some(one), Some(2 * one), Some(3 * one), None],
        vec![Some(one), Some(one / 960), Some(3 * one), None],
        vec![Some(1), Some(MAX_RING * 2), Some(3), None],
    ];
    let mut widenings = 0;
    for (k, grid) in [GridKind::Square, GridKind::Hex].into_iter().enumerate() {
        for seed in 0..4u64 {
            let b = board(grid, 31, 19, seed * 5 + k as u64);
            let cell = |i: u64| Cell::new((i * 11 % 31) as i32, (i * 5 % 19) as i32);
            let sources = [cell(seed), cell(seed + 7)];
            for mult in &mults {
                let want = reference(&b, &sources, mult, &[]);
                let all: Vec<Cell> = (0..b.height)
                    .flat_map(|y| (0..b.width).map(move |x| Cell::new(x, y)))
                    .collect();
                // Read in a scattered order, far cells before near ones.
                let mut order = all.clone();
                order.sort_by_key(|c| (c.x * 7 + c.y * 13) % 17);
                let mut lazy = FieldCache::default();
                for &c in &order {
                    let f = lazy.get(&b, &sources, mult, &[]);
                    assert_eq!(f.at(c), want[b.index(c)], "{grid:?} {seed} {mult:?} {c:?}");
                }
                // A bounded field first, then one its stop cells fall short of: widened.
                let mut widened = FieldCache::default();
                let near = widened.get(&b, &sources, mult, &[sources[0]]).clone();
                assert_eq!(near.at(sources[0]), 0);
                let far = cell(seed * 3 + 2);
                widened.get(&b, &sources, mult, &[far, cell(40)]);
                let (_, _, bounded, f) = &widened.entries[0];
                if *bounded {
                    continue; // the bounded field reached both: nothing widened
                }
                widenings += 1;
                for &c in &order {
                    assert_eq!(f.at(c), want[b.index(c)], "{grid:?} {seed} {mult:?} {c:?}");
                }
            }
        }
    }
    assert!(widenings > 5, "{widenings}");
}
