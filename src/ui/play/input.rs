//! The window side of playing: the pointer becomes the hovered cell and map clicks, keys
//! become [`PlayAction`]s, the previewed path is drawn, and the camera fits the map into the
//! area the panels leave free.

use super::panels::UiRects;
use super::reach_view::CurrentPreview;
use super::{Hover, PlayAction, PlaySet};
use crate::rules::gait::Gait;
use crate::rules::movement::Hand;
use crate::ui::UiSet;
use crate::ui::camera::{CameraDrag, MapCamera, fit_view};
use crate::ui::layout::{MapLayout, facing_vector};
use crate::ui::settings::game_keys::{GameKeys, command_given};
use crate::ui::settings::keymap::{Command, Keymap};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::EguiWantsInput;

/// Mouse, keyboard, path drawing and camera fit.
pub struct InputPlugin;

impl Plugin for InputPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            (pointer_to_hover, map_clicks, keys)
                .chain()
                .in_set(PlaySet::Input),
        )
        .add_systems(Startup, path_line_width)
        .add_systems(Update, draw_preview.after(PlaySet::View))
        .add_systems(
            Update,
            fit_free_area.after(UiSet::Camera).run_if(
                resource_changed::<UiRects>
                    .or_else(resource_exists_and_changed::<MapLayout>)
                    .or_else(command_given(Command::FitMap)),
            ),
        );
    }
}

/// Whether the pointer is over an egui panel or window rather than the map.
fn over_ui(cursor: Vec2, rects: &UiRects, egui: Option<&EguiWantsInput>) -> bool {
    rects.covers(cursor) || egui.is_some_and(|e| e.is_pointer_over_area() || e.is_using_pointer())
}

/// The map cell under `cursor` (window pixels), through the map camera.
pub fn cell_under(
    cursor: Vec2,
    camera: &Camera,
    tf: &GlobalTransform,
    layout: &MapLayout,
) -> Option<crate::rules::grid::Cell> {
    let world = camera.viewport_to_world_2d(tf, cursor).ok()?;
    layout.world_to_cell(world)
}

fn pointer_to_hover(
    window: Option<Single<&Window, With<PrimaryWindow>>>,
    camera: Option<Single<(&Camera, &GlobalTransform), With<MapCamera>>>,
    layout: Option<Res<MapLayout>>,
    rects: Res<UiRects>,
    egui: Option<Res<EguiWantsInput>>,
    mut hover: ResMut<Hover>,
) {
    let cell = match (window, camera, layout) {
        (Some(w), Some(c), Some(l)) => w
            .cursor_position()
            .filter(|&p| !over_ui(p, &rects, egui.as_deref()))
            .and_then(|p| cell_under(p, c.0, c.1, &l)),
        _ => None,
    };
    if hover.cell != cell {
        *hover = super::Hover { cell, pick: 0 };
    }
}

fn map_clicks(
    buttons: Res<ButtonInput<MouseButton>>,
    drag: Res<CameraDrag>,
    hover: Res<Hover>,
    mut actions: MessageWriter<PlayAction>,
) {
    if buttons.just_released(MouseButton::Left)
        && !drag.dragged
        && let Some(cell) = hover.cell
    {
        actions.write(PlayAction::Click(cell));
    }
}

/// The play commands given this frame, as actions, read with the player's keymap.
pub fn key_action(map: &Keymap, keys: &ButtonInput<KeyCode>) -> Vec<PlayAction> {
    use Command as C;
    let given: [(Command, PlayAction); 16] = [
        (C::Walk, PlayAction::Gait(Gait::Walk)),
        (C::Trot, PlayAction::Gait(Gait::Trot)),
        (C::Canter, PlayAction::Gait(Gait::Canter)),
        (C::Gallop, PlayAction::Gait(Gait::Gallop)),
        (C::Halt, PlayAction::Gait(Gait::Halt)),
        (C::PivotLeft, PlayAction::Pivot(Hand::Left)),
        (C::PivotRight, PlayAction::Pivot(Hand::Right)),
        (C::BackUp, PlayAction::BackUp),
        (C::MountOrDismount, PlayAction::MountOrDismount),
        (C::EndSide, PlayAction::EndSide),
        (C::Undo, PlayAction::Undo),
        (C::FacingPrevious, PlayAction::CycleFacing(-1)),
        (C::FacingNext, PlayAction::CycleFacing(1)),
        (C::Explain, PlayAction::Explain),
        (C::Lead, PlayAction::Lead),
        (C::FastForward, PlayAction::FastForward),
    ];
    let mut out: Vec<PlayAction> = given
        .into_iter()
        .filter(|(c, _)| map.just_pressed(*c, keys))
        .map(|(_, a)| a)
        .collect();
    // Esc is no command (see `settings::keymap`): it cancels whatever the keymap says.
    if keys.just_pressed(KeyCode::Escape) {
        out.push(PlayAction::Cancel);
    }
    for (c, a, _) in super::ACTIVITY_KEYS {
        if map.just_pressed(c, keys) {
            out.push(PlayAction::Activity(a));
        }
    }
    out
}

fn keys(keys: GameKeys, mut actions: MessageWriter<PlayAction>) {
    if let Some(input) = keys.live() {
        actions.write_batch(key_action(keys.map(), input));
    }
}

fn path_line_width(store: Option<ResMut<GizmoConfigStore>>) {
    if let Some(mut store) = store
        && let Some((config, _)) = store.get_config_mut::<DefaultGizmoConfigGroup>()
    {
        config.line.width = 4.0;
    }
}

/// Colour of the previewed path.
const PATH: Color = Color::srgb(1.0, 1.0, 1.0);
/// Colour of the path's shadow, drawn under it for contrast on light terrain.
const PATH_SHADOW: Color = Color::srgba(0.0, 0.0, 0.0, 0.7);

fn draw_preview(preview: Res<CurrentPreview>, layout: Option<Res<MapLayout>>, mut gizmos: Gizmos) {
    let (Some(p), Some(layout)) = (&preview.0, layout) else {
        return;
    };
    let pts: Vec<Vec2> = p
        .poses
        .iter()
        .map(|q| layout.cell_to_world(q.cell))
        .collect();
    let Some(&end) = pts.last() else { return };
    let shadow = Vec2::new(2.0, -2.0);
    gizmos.linestrip_2d(pts.iter().map(|&q| q + shadow), PATH_SHADOW);
    gizmos.linestrip_2d(pts.iter().copied(), PATH);
    for w in pts.windows(2) {
        if w[0] != w[1] {
            let mid = (w[0] + w[1]) / 2.0;
            let d = (w[1] - w[0]).normalize_or_zero() * layout.cell * 0.12;
            gizmos.arrow_2d(mid - d, mid + d, PATH);
        }
    }
    // Pivots in place: a ring where the figure turns.
    for w in p.poses.windows(2) {
        if w[0].cell == w[1].cell && w[0].facing != w[1].facing {
            let at = layout.cell_to_world(w[0].cell);
            gizmos.circle_2d(Isometry2d::from_translation(at), layout.cell * 0.2, PATH);
        }
    }
    let dir = facing_vector(layout.grid, p.facing);
    let tip = end + dir * layout.cell * 0.42;
    gizmos.arrow_2d(end + shadow, tip + shadow, PATH_SHADOW);
    gizmos
        .arrow_2d(end, tip, Color::srgb(1.0, 0.85, 0.2))
        .with_tip_length(layout.cell * 0.2);
}

/// Share of the free area the fitted map fills.
const FIT_FILL: f32 = 0.96;

/// Refits the camera so the whole map shows in the part of the window the panels leave free
/// (runs after the camera's own fit, which uses the whole window).
fn fit_free_area(
    layout: Option<Res<MapLayout>>,
    rects: Res<UiRects>,
    window: Option<Single<&Window, With<PrimaryWindow>>>,
    camera: Option<Single<(&mut Transform, &mut Projection), With<MapCamera>>>,
) {
    let (Some(layout), Some(window), Some(camera)) = (layout, window, camera) else {
        return;
    };
    let size = window.size();
    let free = rects.free_area(size);
    if free.width() < 50.0 || free.height() < 50.0 {
        return;
    }
    let (mut tf, mut proj) = camera.into_inner();
    let (centre, scale) = fit_view(layout.bounds(), free.size(), FIT_FILL);
    let offset = free.center() - size / 2.0;
    tf.translation.x = centre.x - offset.x * scale;
    tf.translation.y = centre.y + offset.y * scale;
    if let Projection::Orthographic(o) = &mut *proj {
        o.scale = scale;
    }
}
