//! The level `benches/limits.rs` measures (issue 15, item 3) is at every documented limit:
//! were it not, the limits' costs written in docs/performance.md would promise nothing.

#[path = "../../benches/common/splitmix.rs"]
mod splitmix;

#[path = "../../benches/common/level_text.rs"]
mod level_text;

#[path = "../../benches/common/limits.rs"]
mod at_limits;

use warhorse::level::{MAX_CELLS, MAX_FIGURES, load_level_str};
use warhorse::rules::mp::Mp;

#[test]
fn the_limits_bench_level_is_at_every_limit() {
    let level = at_limits::limits_level(15);
    assert_eq!(
        level.board.width as u64 * level.board.height as u64,
        MAX_CELLS
    );
    assert_eq!(level.figures.len(), MAX_FIGURES);
    // The finest cost is on the board, and nothing finer would load.
    let finest = Mp::cells(1).mul_ratio(1, 960);
    assert!(level.board.terrains.iter().any(|t| t.cost == Some(finest)));
    let text = at_limits::limits_level_text(15);
    for finer in ["1/1000", "1/1008", "1/961"] {
        let refused = text.replace(at_limits::FINEST_COST, finer);
        assert!(
            load_level_str(&refused, "<limits>", None).is_err(),
            "{finer} loads"
        );
    }
}
