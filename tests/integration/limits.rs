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

/// The contact-turn bench's level (issue 33, item 3) has the map at the limits, 4096 figures,
/// and every figure next to an enemy (the cell straight ahead of its facing line), so the
/// turn it measures has everyone in contact.
#[test]
fn the_contact_bench_level_has_everyone_in_contact() {
    let level = at_limits::contact_level(15, MAX_FIGURES);
    assert_eq!(
        level.board.width as u64 * level.board.height as u64,
        MAX_CELLS
    );
    assert_eq!(level.figures.len(), MAX_FIGURES);
    let by_cell: std::collections::HashMap<(i32, i32), u8> = level
        .figures
        .iter()
        .map(|f| ((f.at.x, f.at.y), f.side))
        .collect();
    for f in &level.figures {
        let ahead = if f.side == 0 { f.at.y + 1 } else { f.at.y - 1 };
        assert_eq!(
            by_cell.get(&(f.at.x, ahead)),
            Some(&(1 - f.side)),
            "{} has no enemy ahead",
            f.id
        );
    }
}
