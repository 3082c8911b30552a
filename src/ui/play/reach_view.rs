//! Where the selected figure can go, and the path previewed to the hovered cell. The reach is
//! the rules' own search (`sim::motion::reach_of` on the game's world), and a preview's steps
//! are exactly what a click sends as `Order::Move` — the path shown is the path ordered.

use super::{Hover, Mode, Selection};
use crate::rules::board::Board;
use crate::rules::grid::{Cell, Dir, GridKind};
use crate::rules::movement::{Mover, Pose, Step};
use crate::rules::mp::Mp;
use crate::rules::reach::{Reach, ReachEnd};
use crate::sim::Game;
use crate::sim::order::steps_text;
use crate::ui::bridge::{ActiveGame, GameView};
use crate::ui::settings::{Fractions, Settings};
use bevy::prelude::*;

/// The reachable area of one figure at one state of the game.
#[derive(Clone, Debug)]
pub struct ReachView {
    /// The figure (the id orders use: the rider of a pair).
    pub unit: String,
    /// The id it was asked for (a mount's id selects its rider's reach).
    pub asked: String,
    /// The game revision it was computed at.
    pub revision: u64,
    /// Where it stands now.
    pub start: Pose,
    /// Movement it may still use.
    pub left: Mp,
    /// Its step rules (to replay a path cell by cell).
    pub mover: Mover,
    /// The board it was computed on.
    pub board: Board,
    /// The search result.
    pub reach: Reach,
    /// The cheapest end per reachable cell, by cell.
    pub cells: Vec<ReachEnd>,
    /// The cheapest end per cell it could reach with [`FAR`] times its movement: what a cell
    /// out of reach would cost, to say why it is out of reach (issue 34).
    pub far: Vec<ReachEnd>,
    /// Why it may not move at all, if so (D16).
    pub blocked: Option<String>,
    /// Its side is the one moving now (otherwise the area is shown for information and the
    /// rules will refuse an order, D4).
    pub own_side: bool,
}

/// How many times a figure's movement left the search for [`ReachView::far`] may spend: far
/// enough to price a cell a half-move or two away, bounded so a big map is not searched whole.
pub const FAR: i64 = 4;

/// The reach of the selected figure, if any.
#[derive(Resource, Clone, Debug, Default)]
pub struct CurrentReach(pub Option<ReachView>);

/// A path from the selected figure to one (cell, facing) end.
#[derive(Clone, Debug, PartialEq)]
pub struct PathPreview {
    /// The figure.
    pub unit: String,
    /// The game revision it belongs to.
    pub revision: u64,
    /// Where it ends.
    pub cell: Cell,
    /// The facing it ends in.
    pub facing: Dir,
    /// How many end facings the cell offers.
    pub choices: usize,
    /// Which of them this is (0 = cheapest).
    pub pick: usize,
    /// The steps, exactly as a click orders them.
    pub steps: Vec<Step>,
    /// The pose after each step, the start first.
    pub poses: Vec<Pose>,
    /// Total cost.
    pub cost: Mp,
    /// Movement left after it.
    pub left_after: Mp,
    /// The manoeuvres in words (`ahead veer-right face-S`).
    pub words: String,
}

/// The path previewed now.
#[derive(Resource, Clone, Debug, Default)]
pub struct CurrentPreview(pub Option<PathPreview>);

/// Computes the reach of figure `unit` (a mount's id means its rider) in `game`.
pub fn reach_view_of(
    game: &mut Game,
    unit: &str,
    revision: u64,
    side_to_move: Option<u8>,
) -> Option<ReachView> {
    let asked = unit;
    let crate::sim::asks::FigureReach {
        unit,
        side,
        setup,
        reach,
    } = game.reach(unit)?;
    let board = game.board().clone();
    let cells = reach.cells();
    let far_left = setup.left.max(Mp::ONE) * FAR;
    let far = crate::rules::reach::reachable(&board, &setup.mover, setup.pose, far_left).cells();
    Some(ReachView {
        asked: asked.to_string(),
        unit,
        revision,
        start: setup.pose,
        left: setup.left,
        mover: setup.mover,
        board,
        reach,
        cells,
        far,
        blocked: setup.blocked,
        own_side: side.is_some() && side == side_to_move,
    })
}

/// The path to `cell` ending in its `pick`-th cheapest facing (wrapping), with the pose after
/// every step. `None` when the cell is out of reach.
/// Its words write movement amounts in the player's `fractions` style.
pub fn preview_at(
    view: &ReachView,
    cell: Cell,
    pick: usize,
    fractions: Fractions,
) -> Option<PathPreview> {
    let mut ends: Vec<&ReachEnd> = view
        .reach
        .ends()
        .iter()
        .filter(|e| e.cell == cell)
        .collect();
    if ends.is_empty() {
        return None;
    }
    ends.sort_by_key(|e| (e.cost, e.facing.0));
    let pick = pick % ends.len();
    let end = ends[pick];
    let steps = view.reach.path(end);
    let mut poses = vec![view.start];
    let mut pose = view.start;
    for &s in &steps {
        let (next, _, _) = view.mover.try_step_gamble(&view.board, &pose, s).ok()?;
        poses.push(next);
        pose = next;
    }
    let mut words = if steps.is_empty() {
        "stays as it is (Q / E: turn in place)".to_string()
    } else {
        steps_text(view.mover.grid, &steps)
    };
    if let Some(r) = &end.roll {
        // D17/R4: the path needs a roll; say the chance and what a failure leaves.
        let what = match r.gamble {
            crate::rules::chance::Gamble::Squeeze { .. } => "squeezing between obstacles (D17)",
            crate::rules::chance::Gamble::Contest { .. } => "a contest for a hostile's cell (R4)",
        };
        words.push_str(&format!(
            " — needs a roll at step {}: {what}, {} to get through; if it fails it stops at {}, \
             cost {}",
            r.step + 1,
            r.chance,
            r.fail_cell,
            fractions.amount(r.fail_cost)
        ));
    }
    Some(PathPreview {
        unit: view.unit.clone(),
        revision: view.revision,
        cell,
        facing: end.facing,
        choices: ends.len(),
        pick,
        steps,
        poses,
        cost: end.cost,
        left_after: view.left - end.cost,
        words,
    })
}

/// Why the figure of `view` cannot move to `cell` (issue 34: "a cell out of reach explains
/// why on hover (the rule and the cost)"), or `None` when it can, or when the cell is its own.
pub fn why_not(view: &ReachView, cell: Cell, fractions: Fractions) -> Option<String> {
    if cell == view.start.cell || view.cells.iter().any(|e| e.cell == cell) {
        return None;
    }
    if let Some(b) = &view.blocked {
        return Some(b.clone());
    }
    if view.left <= Mp::ZERO {
        return Some("Out of reach: it has no movement left this half-move (D4).".into());
    }
    Some(match view.far.iter().find(|e| e.cell == cell) {
        Some(e) => format!(
            "Out of reach: the cheapest way there costs {}, and it has {} left this half-move \
             (D14: every cell and every change of direction is paid for).",
            fractions.amount(e.cost),
            fractions.amount(view.left)
        ),
        None => format!(
            "No way there within {FAR} times its movement left: terrain, figures or the map's \
             edge bar every path (D14, D16)."
        ),
    })
}

/// The grid of a reach view.
pub fn grid_of(view: &ReachView) -> GridKind {
    view.mover.grid
}

/// Recomputes the selected figure's reach when the selection or the game changes.
pub fn refresh_reach(
    active: Option<NonSendMut<ActiveGame>>,
    selection: Res<Selection>,
    view: Res<GameView>,
    mut current: ResMut<CurrentReach>,
) {
    let wanted = selection.unit.as_deref();
    let have = current.0.as_ref().map(|r| (r.asked.as_str(), r.revision));
    let up_to_date = match (wanted, have) {
        (None, None) => true,
        (Some(u), Some((asked, rev))) => rev == view.revision && u == asked,
        _ => false,
    };
    if up_to_date {
        return;
    }
    current.0 = match (wanted, active) {
        (Some(u), Some(mut a)) => {
            let revision = a.revision;
            // Only a half-move moves figures; in a fire phase's turn to act (D3) the reach of
            // one's own figures would only invite refused moves.
            let mover = view.side_to_move.filter(|_| view.phase.is_half_move());
            reach_view_of(&mut a.game, u, revision, mover)
        }
        _ => None,
    };
}

/// Recomputes the previewed path when the hovered cell, its facing pick, the reach or the
/// mode changes. No preview while choosing a steed or a cell to dismount to.
pub fn refresh_preview(
    hover: Res<Hover>,
    selection: Res<Selection>,
    reach: Res<CurrentReach>,
    settings: Option<Res<Settings>>,
    mut preview: ResMut<CurrentPreview>,
) {
    let settings_changed = settings.as_ref().is_some_and(|s| s.is_changed());
    if !(hover.is_changed() || reach.is_changed() || selection.is_changed() || settings_changed) {
        return;
    }
    let new = match (&reach.0, hover.cell, selection.mode) {
        (Some(r), Some(c), Mode::Move) => {
            let fractions = settings.map_or_else(Fractions::default, |s| s.fractions);
            preview_at(r, c, hover.pick, fractions)
        }
        _ => None,
    };
    // Its own cell is worth a preview only when there is a turn in place to show.
    let new = new.filter(|p| !p.steps.is_empty() || p.choices > 1);
    if preview.0 != new {
        preview.0 = new;
    }
}
