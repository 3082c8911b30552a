//! The card chooser on the map (issue 11): the figure being decided is ringed in gold, the
//! enemies its cards can strike are ringed in red, and every way a MOVE, DODGE, WHEEL or TURN
//! card can take it is an arrow to the neighbouring cell. A click on the map picks: on an
//! enemy or an arrow's cell it picks the one card that stands for it (or, when several do —
//! a blow, a kick and a punch at the same enemy — shows just those); on another figure of the
//! side it switches to that figure. The picks are the same [`CardPick`](super::cards::CardPick)s
//! the card table makes, so a map click gives exactly the order a click on the card gives.

use super::ScreenView;
use super::cards::{CardOverlay, CardView, Picks, needs_target, shown_cards, toggle};
use crate::rules::grid::{Cell, Dir, GridKind};
use crate::sim::components::{FigureId, Position};
use crate::ui::MapLayout;
use crate::ui::bridge::Mirror;
use crate::ui::play::PlayAction;
use bevy::prelude::*;

/// Where each figure stands, by id.
pub type Places = [(String, Cell)];

fn cell_of(places: &Places, id: &str) -> Option<Cell> {
    places.iter().find(|(f, _)| f == id).map(|(_, c)| *c)
}

/// The map cell a card stands for: the cell of the figure it is aimed at, or the neighbouring
/// cell it moves its figure into (or turns it to face), from the figure's cell `at`.
pub fn card_cell(card: &CardView, at: Cell, grid: GridKind, places: &Places) -> Option<Cell> {
    if let Some(t) = &card.target {
        return cell_of(places, t);
    }
    card.toward.map(|w| grid.neighbour(at, Dir(w.dir)))
}

/// What a click on `cell` does to the chooser's picks; `false` when it meant nothing to it.
pub fn click_chooser(
    overlay: &CardOverlay,
    picks: &mut Picks,
    cell: Cell,
    grid: GridKind,
    places: &Places,
) -> bool {
    let n = overlay.hands.len();
    if n == 0 {
        return false;
    }
    let current = picks.current.min(n - 1);
    let hand = &overlay.hands[current];
    let Some(at) = cell_of(places, &hand.unit) else {
        return false;
    };
    // Another figure of the side (a rider and its mount share a cell: the next of them).
    let mine: Vec<usize> = (0..n)
        .map(|k| (current + 1 + k) % n)
        .filter(|&k| cell_of(places, &overlay.hands[k].unit) == Some(cell))
        .collect();
    if (cell != at || mine.len() > 1)
        && let Some(&k) = mine.first().filter(|&&k| k != current)
    {
        picks.current = k;
        picks.focus = None;
        return true;
    }
    let candidates: Vec<&CardView> = shown_cards(hand, false)
        .into_iter()
        .filter(|c| card_cell(c, at, grid, places) == Some(cell))
        .collect();
    // A TAC card that designates an enemy takes the clicked one.
    let enemy = places
        .iter()
        .find(|(id, c)| *c == cell && hand.targets.contains(id))
        .map(|(id, _)| id.clone());
    if let (Some(p), Some(e)) = (picks.by_unit.get_mut(&hand.unit), &enemy)
        && p.tac
            .as_deref()
            .is_some_and(|t| needs_target(t) || t == "CLOSE")
    {
        p.tac_target = Some(e.clone());
    }
    match candidates.as_slice() {
        [] => {
            picks.focus = None;
            enemy.is_some()
        }
        [one] => {
            let one = (*one).clone();
            toggle(picks, &hand.unit, &one);
            picks.focus = None;
            true
        }
        many => {
            picks.focus = Some(many.iter().map(|c| c.name.clone()).collect());
            true
        }
    }
}

/// Map clicks while a human chooses cards become picks.
pub fn chooser_clicks(
    mut actions: MessageReader<PlayAction>,
    view: Res<ScreenView>,
    mut picks: ResMut<Picks>,
    layout: Option<Res<MapLayout>>,
    mirrors: Query<(&FigureId, &Position), With<Mirror>>,
) {
    let clicks: Vec<Cell> = actions
        .read()
        .filter_map(|a| match a {
            PlayAction::Click(c) => Some(*c),
            _ => None,
        })
        .collect();
    let (Some(overlay), Some(layout)) = (view.cards.as_ref(), layout) else {
        return;
    };
    if clicks.is_empty() {
        return;
    }
    let places: Vec<(String, Cell)> = mirrors.iter().map(|(f, p)| (f.0.clone(), p.0)).collect();
    for cell in clicks {
        click_chooser(overlay, &mut picks, cell, layout.grid, &places);
    }
}

const GOLD: Color = Color::srgb(0.96, 0.8, 0.25);
const ENEMY: Color = Color::srgb(0.95, 0.25, 0.2);
const WAY: Color = Color::srgb(0.95, 0.95, 0.95);
const TURN: Color = Color::srgb(0.45, 0.85, 1.0);

/// Rings the deciding figure and the enemies it can strike, and draws its ways as arrows;
/// what is already picked is drawn in gold. Drawn while the card table is, when nothing
/// covers the board.
pub fn draw_chooser_marks(
    view: Res<ScreenView>,
    picks: Res<Picks>,
    cover: Option<Res<State<super::cover::Cover>>>,
    layout: Option<Res<MapLayout>>,
    time: Res<Time>,
    mirrors: Query<(&FigureId, &Position), With<Mirror>>,
    mut gizmos: Gizmos,
) {
    let (Some(overlay), Some(layout)) = (view.cards.as_ref(), layout) else {
        return;
    };
    // Only with the card table: not behind the hand-over, a briefing, the menu or a dialog.
    if !super::cover::board_free(cover) || overlay.hands.is_empty() {
        return;
    }
    let hand = &overlay.hands[picks.current.min(overlay.hands.len() - 1)];
    let places: Vec<(String, Cell)> = mirrors.iter().map(|(f, p)| (f.0.clone(), p.0)).collect();
    let Some(at) = cell_of(&places, &hand.unit) else {
        return;
    };
    let r = layout.cell * 0.5;
    let centre = layout.cell_to_world(at);
    let pulse = 1.0 + 0.06 * (time.elapsed_secs() * 4.0).sin();
    gizmos.circle_2d(Isometry2d::from_translation(centre), r * 0.95 * pulse, GOLD);
    gizmos.circle_2d(Isometry2d::from_translation(centre), r * 0.88 * pulse, GOLD);
    let pick = picks.by_unit.get(&hand.unit);
    let picked = |c: &CardView| pick.is_some_and(|p| p.melee.contains(&c.name));
    let mut ringed: Vec<Cell> = Vec::new();
    for card in shown_cards(hand, false) {
        let Some(to) = card_cell(card, at, layout.grid, &places) else {
            continue;
        };
        let p = layout.cell_to_world(to);
        if card.target.is_some() {
            if !ringed.contains(&to) {
                ringed.push(to);
                gizmos.circle_2d(Isometry2d::from_translation(p), r * 0.9, ENEMY);
            }
            if picked(card) {
                gizmos.circle_2d(Isometry2d::from_translation(p), r * 0.8, GOLD);
                gizmos.arrow_2d(centre, centre.lerp(p, 0.7), GOLD);
            }
            continue;
        }
        let Some(w) = card.toward else { continue };
        let colour = if picked(card) {
            GOLD
        } else if w.turn {
            TURN
        } else {
            WAY
        };
        if w.turn {
            // A turn: a short arrow at the rim of the figure's own cell.
            gizmos.arrow_2d(centre.lerp(p, 0.25), centre.lerp(p, 0.5), colour);
        } else {
            gizmos.arrow_2d(centre.lerp(p, 0.45), centre.lerp(p, 0.9), colour);
        }
    }
}

/// Where the card table lay on screen at its last drawing (logical pixels; `None` while it is
/// not up), and the objectives panel beside it, so the map can keep the figure being decided
/// out from under them.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct TableRect {
    /// The card table.
    pub table: Option<Rect>,
    /// The windows open over the map beside it: the objectives panel, the tutorial's.
    pub aside: Vec<Rect>,
}

/// Pans the map, once each time the table turns to another figure, so that figure stands in
/// the part of the map the card table and the panels leave uncovered: its enemies are picked
/// by clicking them, so they must be seen. A figure already in the open is left where it is.
/// When the melee is over (the next half-move), the map goes back to where it was.
pub fn keep_in_view(
    view: Res<ScreenView>,
    game: Res<crate::ui::bridge::GameView>,
    picks: Res<Picks>,
    table: Res<TableRect>,
    rects: Res<crate::ui::play::panels::UiRects>,
    layout: Option<Res<MapLayout>>,
    mirrors: Query<(&FigureId, &Position), With<Mirror>>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut camera: Query<
        (&Camera, &GlobalTransform, &mut Transform),
        With<crate::ui::camera::MapCamera>,
    >,
    mut last: Local<Option<String>>,
    mut home: Local<Option<(u64, Vec3)>>,
) {
    // Where the map was before the melee slid it, for this game only.
    if home.is_some_and(|(serial, _)| serial != game.serial) {
        *home = None;
    }
    let Some(overlay) = view.cards.as_ref().filter(|o| !o.hands.is_empty()) else {
        *last = None;
        if (game.phase.is_half_move() || game.over.is_some())
            && let Some((_, back)) = home.take()
            && let Ok((_, _, mut tf)) = camera.single_mut()
        {
            tf.translation = back;
        }
        return;
    };
    let unit = &overlay.hands[picks.current.min(overlay.hands.len() - 1)].unit;
    let (Some(table_at), Some(layout)) = (table.table, layout) else {
        return;
    };
    if last.as_ref() == Some(unit) {
        return;
    }
    let (Ok(window), Ok((cam, cam_tf, mut tf))) = (windows.single(), camera.single_mut()) else {
        return;
    };
    let places: Vec<(String, Cell)> = mirrors.iter().map(|(f, p)| (f.0.clone(), p.0)).collect();
    let Some(at) = cell_of(&places, unit) else {
        return;
    };
    *last = Some(unit.clone());
    let free = rects.free_area(window.size());
    let open = uncovered(free, table_at, &table.aside);
    // The figure and the nearest enemy its cards strike, as one pair: their middle is brought
    // into the open (an archer's far targets would pull the figure itself out of sight).
    let hand = &overlay.hands[picks.current.min(overlay.hands.len() - 1)];
    let own = layout.cell_to_world(at);
    let nearest = hand
        .targets
        .iter()
        .filter_map(|t| cell_of(&places, t))
        .map(|c| layout.cell_to_world(c))
        .min_by(|a, b| a.distance_squared(own).total_cmp(&b.distance_squared(own)));
    let figure = nearest.map_or(own, |foe| (own + foe) / 2.0);
    let on_screen = |p: Vec2| cam.world_to_viewport(cam_tf, p.extend(0.0)).ok();
    let (Some(seen), Some(corner)) = (on_screen(own), on_screen(own + Vec2::splat(layout.cell)))
    else {
        return;
    };
    // Three quarters of a cell on screen of margin: the figure's ring and arrows show too.
    let inner = open.inflate(-(corner.x - seen.x).abs() * 0.75);
    let foe_seen = nearest.is_none_or(|f| on_screen(f).is_some_and(|p| open.contains(p)));
    if inner.contains(seen) && foe_seen {
        return;
    }
    // A pair too far apart to show together (an archer and its nearest mark): the figure.
    let apart = nearest
        .and_then(on_screen)
        .is_some_and(|f| (f - seen).abs().cmpgt(open.size() * 0.7).any());
    let figure = if apart { own } else { figure };
    if let Ok(shown_at_centre) = cam.viewport_to_world_2d(cam_tf, open.center()) {
        home.get_or_insert((game.serial, tf.translation));
        tf.translation += (figure - shown_at_centre).extend(0.0);
    }
}

/// The larger of the two parts of `free` above and below `table`, less what each window in
/// `aside` covers of it: of the four ways to cut a window off (keep what lies right, left,
/// below or above it), the one that leaves the most.
fn uncovered(free: Rect, table: Rect, aside: &[Rect]) -> Rect {
    let above = Rect::new(
        free.min.x,
        free.min.y,
        free.max.x,
        table.min.y.max(free.min.y),
    );
    let below = Rect::new(
        free.min.x,
        table.max.y.min(free.max.y),
        free.max.x,
        free.max.y,
    );
    let mut open = if above.height() >= below.height() {
        above
    } else {
        below
    };
    for a in aside {
        if a.intersect(open).is_empty() {
            continue;
        }
        let cuts = [
            Rect::new(open.min.x, open.min.y, a.min.x.max(open.min.x), open.max.y),
            Rect::new(a.max.x.min(open.max.x), open.min.y, open.max.x, open.max.y),
            Rect::new(open.min.x, a.max.y.min(open.max.y), open.max.x, open.max.y),
            Rect::new(open.min.x, open.min.y, open.max.x, a.min.y.max(open.min.y)),
        ];
        let area = |r: &Rect| r.width().max(0.0) * r.height().max(0.0);
        // The first of equals wins: a window on the right is cut off to its left.
        open = cuts
            .into_iter()
            .reduce(|best, r| if area(&best) >= area(&r) { best } else { r })
            .unwrap_or(open);
    }
    open
}

/// Adds the card table's map: clicks on figures and cells as card picks, the marks of the
/// picks and the camera kept clear of the table.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TableRect>().add_systems(
        Update,
        chooser_clicks
            .after(crate::ui::play::PlaySet::Input)
            .before(crate::ui::play::PlaySet::Apply)
            .run_if(in_state(super::Screen::Playing)),
    );
    if super::draws_gizmos(app) {
        app.add_systems(
            Update,
            (draw_chooser_marks, keep_in_view).in_set(super::MapMarks),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_open_part_is_the_larger_one_beside_the_objectives() {
        let free = Rect::new(300.0, 30.0, 1280.0, 610.0);
        let table = Rect::new(380.0, 190.0, 1190.0, 600.0);
        assert_eq!(
            uncovered(free, table, &[]),
            Rect::new(300.0, 30.0, 1280.0, 190.0)
        );
        let low = Rect::new(380.0, 300.0, 1190.0, 600.0);
        let objectives = Rect::new(1020.0, 40.0, 1270.0, 210.0);
        assert_eq!(
            uncovered(free, low, &[objectives]),
            Rect::new(300.0, 30.0, 1020.0, 300.0)
        );
        let table_top = Rect::new(380.0, 30.0, 1190.0, 400.0);
        assert_eq!(
            uncovered(free, table_top, &[objectives]),
            Rect::new(300.0, 400.0, 1280.0, 610.0)
        );
        // Issue 34: "in the tutorial the automatic pan puts the fight under the tutorial
        // panel". The tray along the bottom, the tutorial's window at the top in the middle:
        // the open part is what lies under the tutorial's window, beside the objectives.
        let tray = Rect::new(300.0, 400.0, 1280.0, 610.0);
        let tutorial = Rect::new(500.0, 34.0, 900.0, 200.0);
        assert_eq!(
            uncovered(free, tray, &[tutorial]),
            Rect::new(300.0, 200.0, 1280.0, 400.0)
        );
        assert_eq!(
            uncovered(free, tray, &[tutorial, objectives]),
            Rect::new(300.0, 210.0, 1280.0, 400.0),
            "the objectives reach lower: the open part starts under them"
        );
    }
}
