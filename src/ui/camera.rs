//! The map camera: fits the whole map when a level loads, pans with a mouse drag or the
//! arrow / WASD keys, zooms with the wheel (about the cursor) or `+` / `-`, and refits on `F`
//! or `Home`.

use super::layout::MapLayout;
use bevy::input::common_conditions::input_just_pressed;
use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::EguiWantsInput;

/// Whether the pointer is over a panel or an overlay (issue 11 item 6: the wheel over a panel
/// scrolls the panel and a drag there moves the window, never the map).
fn over_panels(
    window: &Window,
    rects: Option<&super::play::panels::UiRects>,
    egui: Option<&EguiWantsInput>,
) -> bool {
    window
        .cursor_position()
        .is_some_and(|p| rects.is_some_and(|r| r.covers(p)))
        || egui.is_some_and(|e| e.is_pointer_over_area() || e.is_using_pointer())
}

/// Spawns and drives the map camera.
pub struct CameraPlugin;

impl Plugin for CameraPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(ClearColor(Color::srgb(0.12, 0.13, 0.15)))
            .init_resource::<CameraDrag>()
            .add_systems(Startup, spawn_camera)
            .add_systems(
                Update,
                (
                    fit_camera.run_if(
                        resource_exists_and_changed::<MapLayout>
                            .or_else(input_just_pressed(KeyCode::KeyF))
                            .or_else(input_just_pressed(KeyCode::Home)),
                    ),
                    drag_pan,
                    key_pan_zoom,
                    wheel_zoom,
                )
                    .chain()
                    .in_set(super::UiSet::Camera),
            );
    }
}

/// Marks the camera that looks at the map (issue 3's picking converts the cursor with it).
#[derive(Component, Debug)]
pub struct MapCamera;

/// Whether the mouse press in progress (or just released) has moved far enough to be a pan,
/// so click handlers can ignore the release of a drag instead of treating it as a click.
#[derive(Resource, Debug, Default, Clone, Copy)]
pub struct CameraDrag {
    /// Where the press started, in window coordinates.
    pub start: Option<Vec2>,
    /// The press became a drag.
    pub dragged: bool,
}

/// Pixels the cursor must move with a button held before the press counts as a drag.
const DRAG_THRESHOLD: f32 = 5.0;
/// Fraction of the window the fitted map fills, leaving a margin around it.
const FIT_FILL: f32 = 0.94;
/// Keyboard pan speed in screen pixels per second.
const KEY_PAN_SPEED: f32 = 700.0;
/// Closest zoom: a cell is five times its nominal size.
const MIN_SCALE: f32 = 0.2;

fn spawn_camera(mut commands: Commands) {
    commands.spawn((Camera2d, MapCamera, Name::new("map camera")));
}

/// Centre and projection scale that show all of `bounds` in a `viewport` (logical pixels),
/// using `fill` of the smaller-fitting dimension.
pub fn fit_view(bounds: Rect, viewport: Vec2, fill: f32) -> (Vec2, f32) {
    let size = bounds.size().max(Vec2::ONE);
    let view = (viewport * fill).max(Vec2::ONE);
    let scale = (size.x / view.x).max(size.y / view.y);
    (bounds.center(), scale)
}

/// The new camera position after changing scale from `old` to `new` so that the world point
/// under the cursor stays under it. `cursor_from_centre` is in window pixels, y down.
pub fn zoom_about(camera: Vec2, old: f32, new: f32, cursor_from_centre: Vec2) -> Vec2 {
    let offset = Vec2::new(cursor_from_centre.x, -cursor_from_centre.y);
    camera + offset * (old - new)
}

fn ortho(p: &mut Projection) -> Option<&mut OrthographicProjection> {
    match p {
        Projection::Orthographic(o) => Some(o),
        _ => None,
    }
}

fn fit_camera(
    layout: Option<Res<MapLayout>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Transform, &mut Projection), With<MapCamera>>,
) {
    let Some(layout) = layout else { return };
    let (mut tf, mut proj) = camera.into_inner();
    let (centre, scale) = fit_view(layout.bounds(), window.size(), FIT_FILL);
    tf.translation.x = centre.x;
    tf.translation.y = centre.y;
    if let Some(o) = ortho(&mut proj) {
        o.scale = scale;
    }
}

fn max_scale(layout: Option<&MapLayout>, window: &Window) -> f32 {
    let fit = layout.map_or(1.0, |l| fit_view(l.bounds(), window.size(), FIT_FILL).1);
    (fit * 2.0).max(MIN_SCALE * 2.0)
}

fn drag_pan(
    buttons: Res<ButtonInput<MouseButton>>,
    mut drag: ResMut<CameraDrag>,
    mut last: Local<Option<Vec2>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Transform, &Projection), With<MapCamera>>,
    rects: Option<Res<super::play::panels::UiRects>>,
    egui: Option<Res<EguiWantsInput>>,
) {
    let pan_buttons = [MouseButton::Left, MouseButton::Middle, MouseButton::Right];
    let cursor = window.cursor_position();
    if buttons.any_just_pressed(pan_buttons) {
        // A press on a panel or an overlay is the panel's (a scroll bar, a window's title).
        let on_ui = over_panels(&window, rects.as_deref(), egui.as_deref());
        *drag = CameraDrag {
            start: if on_ui { None } else { cursor },
            dragged: false,
        };
        *last = if on_ui { None } else { cursor };
    }
    if !buttons.any_pressed(pan_buttons) {
        *last = None;
        return;
    }
    let (Some(now), Some(prev), Some(start)) = (cursor, *last, drag.start) else {
        return;
    };
    if !drag.dragged && now.distance(start) < DRAG_THRESHOLD {
        return;
    }
    drag.dragged = true;
    let (mut tf, proj) = camera.into_inner();
    let scale = match proj {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    };
    let d = now - prev;
    tf.translation.x -= d.x * scale;
    tf.translation.y += d.y * scale;
    *last = Some(now);
}

fn key_pan_zoom(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    layout: Option<Res<MapLayout>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Transform, &mut Projection), With<MapCamera>>,
) {
    let (mut tf, mut proj) = camera.into_inner();
    let Some(o) = ortho(&mut proj) else { return };
    let axis = |neg: [KeyCode; 2], pos: [KeyCode; 2]| {
        f32::from(u8::from(keys.any_pressed(pos))) - f32::from(u8::from(keys.any_pressed(neg)))
    };
    let dir = Vec2::new(
        axis(
            [KeyCode::ArrowLeft, KeyCode::KeyA],
            [KeyCode::ArrowRight, KeyCode::KeyD],
        ),
        axis(
            [KeyCode::ArrowDown, KeyCode::KeyS],
            [KeyCode::ArrowUp, KeyCode::KeyW],
        ),
    );
    let step = dir.normalize_or_zero() * KEY_PAN_SPEED * o.scale * time.delta_secs();
    tf.translation += step.extend(0.0);
    let zoom = axis(
        [KeyCode::Equal, KeyCode::NumpadAdd],
        [KeyCode::Minus, KeyCode::NumpadSubtract],
    );
    if zoom != 0.0 {
        let factor = (1.0 + zoom * 2.0 * time.delta_secs()).max(0.1);
        o.scale = (o.scale * factor).clamp(MIN_SCALE, max_scale(layout.as_deref(), &window));
    }
}

fn wheel_zoom(
    scroll: Res<AccumulatedMouseScroll>,
    layout: Option<Res<MapLayout>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Transform, &mut Projection), With<MapCamera>>,
    rects: Option<Res<super::play::panels::UiRects>>,
    egui: Option<Res<EguiWantsInput>>,
) {
    if over_panels(&window, rects.as_deref(), egui.as_deref()) {
        return;
    }
    let notches = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y,
        MouseScrollUnit::Pixel => scroll.delta.y / 100.0,
    };
    if notches == 0.0 {
        return;
    }
    let (mut tf, mut proj) = camera.into_inner();
    let Some(o) = ortho(&mut proj) else { return };
    let old = o.scale;
    let new = (old * 0.85f32.powf(notches)).clamp(MIN_SCALE, max_scale(layout.as_deref(), &window));
    o.scale = new;
    if let Some(cursor) = window.cursor_position() {
        let from_centre = cursor - window.size() / 2.0;
        let moved = zoom_about(tf.translation.truncate(), old, new, from_centre);
        tf.translation.x = moved.x;
        tf.translation.y = moved.y;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_shows_the_whole_map_centred() {
        let b = Rect::new(-32.0, -32.0, 1248.0, 608.0); // 20 x 10 squares of 64
        let (c, s) = fit_view(b, Vec2::new(1280.0, 800.0), 0.9);
        assert_eq!(c, b.center());
        assert!(b.width() / s <= 1280.0 * 0.9 + 1e-3);
        assert!(b.height() / s <= 800.0 * 0.9 + 1e-3);
        assert!(
            (b.width() / s - 1280.0 * 0.9).abs() < 1e-2,
            "the binding side fills"
        );
    }

    #[test]
    fn zoom_keeps_the_point_under_the_cursor() {
        let cam = Vec2::new(100.0, 50.0);
        let cursor = Vec2::new(200.0, -120.0); // right of and above the centre (y down)
        let world = |cam: Vec2, s: f32| cam + Vec2::new(cursor.x, -cursor.y) * s;
        let before = world(cam, 1.5);
        let after = world(zoom_about(cam, 1.5, 0.6, cursor), 0.6);
        assert!(before.distance(after) < 1e-3);
    }
}
