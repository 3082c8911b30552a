//! Rout and escape by the map edge (issue 12): who leaves the map, and why.
//!
//! The seeds are silent on the map edge (seed 004's actions table says "flee at gallop from
//! nearest enemy" and "canter further from the nearest enemy", I2, and nothing on where the
//! flight ends). Our reading (docs/rules.md, "Rout"): the battlefield is the map; a figure
//! whose unit's roll this turn says flee or canter away (a `Retire` conduct, I2) and whose
//! move ends on a cell of the map's edge has run off the field and is routed — removed from
//! the fight, not killed. A figure an `Exit` objective names that ends a move on that edge
//! has got away the same way, and is safe. Pure functions; `sim::rout` applies them.

use crate::rules::actions::Conduct;
use crate::rules::grid::Cell;
use crate::rules::victory::Edge;

/// True when `c` lies on any edge of a `w` × `h` map: the last cell before leaving it.
pub fn on_edge(c: Cell, w: i32, h: i32) -> bool {
    [Edge::N, Edge::E, Edge::S, Edge::W]
        .iter()
        .any(|e| e.holds(c, w, h))
}

/// I2 and our reading: a figure routs when its unit's conduct this turn is to retire from the
/// enemy (flee at gallop, canter away) and its move ended on the map edge. A unit that has
/// not rolled this turn (`None`), or rolled anything else, does not rout: walking away to
/// cover ("or away from all enemies") is not flight.
pub fn routs(conduct: Option<Conduct>, at: Cell, w: i32, h: i32) -> bool {
    matches!(conduct, Some(Conduct::Retire { .. })) && on_edge(at, w, h)
}

/// The first of `edges` (the edges `Exit` objectives name for a figure) on which `at` lies:
/// the figure leaves the map there.
pub fn exit_by(edges: &[Edge], at: Cell, w: i32, h: i32) -> Option<Edge> {
    edges.iter().copied().find(|e| e.holds(at, w, h))
}

/// I2, rout: which conducts rout at the edge, and which cells are the edge.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::actions::{self as table, Action};
    use crate::rules::gait::Gait;

    const W: i32 = 10;
    const H: i32 = 6;

    #[test]
    fn i2_the_edge_is_the_outer_ring_of_cells() {
        for c in [(0, 3), (9, 3), (4, 0), (4, 5), (0, 0), (9, 5)] {
            assert!(on_edge(Cell::new(c.0, c.1), W, H), "{c:?}");
        }
        for c in [(1, 1), (8, 4), (5, 3)] {
            assert!(!on_edge(Cell::new(c.0, c.1), W, H), "{c:?}");
        }
    }

    #[test]
    fn i2_fleeing_and_cantering_away_rout_at_the_edge_nothing_else_does() {
        let edge = Cell::new(9, 2);
        let inside = Cell::new(8, 2);
        let flee = table::intent(Action::Flee, None).conduct;
        let canter = table::intent(Action::CanterAway, None).conduct;
        assert_eq!(flee, Conduct::Retire { gait: Gait::Gallop });
        assert!(routs(Some(flee), edge, W, H));
        assert!(routs(Some(canter), edge, W, H));
        assert!(!routs(Some(flee), inside, W, H), "not yet at the edge");
        for a in [
            Action::TakeCover,
            Action::Halt,
            Action::ContinueFacing,
            Action::GallopAdvance,
            Action::Continue,
        ] {
            let c = table::intent(a, None).conduct;
            assert!(!routs(Some(c), edge, W, H), "{a:?} is no flight");
        }
        assert!(!routs(None, edge, W, H), "a unit that has not rolled");
    }

    #[test]
    fn an_exit_figure_leaves_only_by_its_own_edge() {
        let east = Cell::new(9, 2);
        assert_eq!(exit_by(&[Edge::E], east, W, H), Some(Edge::E));
        assert_eq!(exit_by(&[Edge::W], east, W, H), None);
        assert_eq!(exit_by(&[Edge::W, Edge::E], east, W, H), Some(Edge::E));
        assert_eq!(exit_by(&[Edge::E], Cell::new(8, 2), W, H), None);
    }
}
