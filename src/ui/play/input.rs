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
use bevy::input::common_conditions::input_just_pressed;
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
                    .or_else(input_just_pressed(KeyCode::KeyF))
                    .or_else(input_just_pressed(KeyCode::Home)),
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

/// The keyboard shortcuts (see the module docs of [`crate::ui::play`]).
pub fn key_action(keys: &ButtonInput<KeyCode>) -> Vec<PlayAction> {
    // A quick chord can press and release Ctrl within one frame.
    let ctrls = [KeyCode::ControlLeft, KeyCode::ControlRight];
    let ctrl = keys.any_pressed(ctrls) || keys.any_just_released(ctrls);
    let mut out = Vec::new();
    let gaits = [
        (KeyCode::Digit1, Gait::Walk),
        (KeyCode::Digit2, Gait::Trot),
        (KeyCode::Digit3, Gait::Canter),
        (KeyCode::Digit4, Gait::Gallop),
        (KeyCode::Digit5, Gait::Halt),
    ];
    for (k, g) in gaits {
        if keys.just_pressed(k) {
            out.push(PlayAction::Gait(g));
        }
    }
    let simple = [
        (KeyCode::BracketLeft, PlayAction::Pivot(Hand::Left)),
        (KeyCode::BracketRight, PlayAction::Pivot(Hand::Right)),
        (KeyCode::KeyB, PlayAction::BackUp),
        (KeyCode::KeyM, PlayAction::MountOrDismount),
        (KeyCode::Enter, PlayAction::EndSide),
        (KeyCode::NumpadEnter, PlayAction::EndSide),
        (KeyCode::KeyU, PlayAction::Undo),
        (KeyCode::KeyQ, PlayAction::CycleFacing(-1)),
        (KeyCode::KeyE, PlayAction::CycleFacing(1)),
        (KeyCode::Escape, PlayAction::Cancel),
        (KeyCode::KeyX, PlayAction::Explain),
        (KeyCode::KeyL, PlayAction::Lead),
        (KeyCode::Space, PlayAction::FastForward),
    ];
    for (k, a) in simple {
        if keys.just_pressed(k) {
            out.push(a);
        }
    }
    for (k, a, _) in super::ACTIVITY_KEYS {
        if keys.just_pressed(k) {
            out.push(PlayAction::Activity(a));
        }
    }
    if ctrl && keys.just_pressed(KeyCode::KeyZ) {
        out.push(PlayAction::Undo);
    }
    out
}

fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    egui: Option<Res<EguiWantsInput>>,
    mut actions: MessageWriter<PlayAction>,
) {
    if egui.is_some_and(|e| e.wants_any_keyboard_input()) {
        return;
    }
    actions.write_batch(key_action(&keys));
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
