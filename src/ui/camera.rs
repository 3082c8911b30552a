//! The map camera: fits the whole map when a level loads and refits on `F` or `Home`; pans
//! with a mouse drag or the arrow / WASD keys and zooms with the wheel about the cursor, both
//! by `bevy_pancam`; zooms with `+` / `-` (the standard keys; the player's are read from
//! `settings::keymap`). Ours are the fit, the keys' zoom, and the rule that the map does not
//! move for the panels: the wheel over a panel scrolls the panel and a drag begun on one moves
//! the window, never the map (issue 11 item 6).

use super::layout::MapLayout;
use super::settings::game_keys::{GameKeys, command_given};
use super::settings::keymap::Command;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::EguiWantsInput;
use bevy_pancam::{DirectionKeys, PanCam, PanCamPlugin, PanCamSystems};

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

/// Spawns the map camera and keeps it framed.
pub struct CameraPlugin;

impl Plugin for CameraPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(ClearColor(Color::srgb(0.12, 0.13, 0.15)))
            .init_resource::<CameraDrag>()
            .add_plugins(PanCamPlugin)
            .add_systems(Startup, spawn_camera)
            .add_systems(
                Update,
                (
                    fit_camera.run_if(
                        resource_exists_and_changed::<MapLayout>
                            .or_else(command_given(Command::FitMap)),
                    ),
                    track_drag,
                    key_zoom,
                    pan_keys,
                )
                    .chain()
                    .in_set(super::UiSet::Camera)
                    .before(PanCamSystems),
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
    /// Where the press started, in window coordinates; `None` for a press on a panel.
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
/// The mouse buttons that drag the map.
const PAN_BUTTONS: [MouseButton; 3] = [MouseButton::Left, MouseButton::Middle, MouseButton::Right];
/// How much of the scale one wheel notch takes off (pancam's sensitivity 1 is 10 %).
const WHEEL_SENSITIVITY: f32 = 1.5;

fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        MapCamera,
        PanCam {
            grab_buttons: PAN_BUTTONS.to_vec(),
            // The player's keys come with the first frame (`pan_keys`).
            move_keys: DirectionKeys::NONE,
            speed: KEY_PAN_SPEED,
            zoom_to_cursor: true,
            min_scale: MIN_SCALE,
            mouse_wheel_sensitivity: WHEEL_SENSITIVITY,
            ..default()
        },
        Name::new("map camera"),
    ));
}

/// Centre and projection scale that show all of `bounds` in a `viewport` (logical pixels),
/// using `fill` of the smaller-fitting dimension.
pub fn fit_view(bounds: Rect, viewport: Vec2, fill: f32) -> (Vec2, f32) {
    let size = bounds.size().max(Vec2::ONE);
    let view = (viewport * fill).max(Vec2::ONE);
    let scale = (size.x / view.x).max(size.y / view.y);
    (bounds.center(), scale)
}

fn ortho(p: &mut Projection) -> Option<&mut OrthographicProjection> {
    match p {
        Projection::Orthographic(o) => Some(o),
        _ => None,
    }
}

/// Shows the whole map, and lets the player zoom out to twice that and no further.
fn fit_camera(
    layout: Option<Res<MapLayout>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Transform, &mut Projection, &mut PanCam), With<MapCamera>>,
) {
    let Some(layout) = layout else { return };
    let (mut tf, mut proj, mut pan) = camera.into_inner();
    let (centre, scale) = fit_view(layout.bounds(), window.size(), FIT_FILL);
    tf.translation.x = centre.x;
    tf.translation.y = centre.y;
    if let Some(o) = ortho(&mut proj) {
        o.scale = scale;
    }
    pan.max_scale = (scale * 2.0).max(MIN_SCALE * 2.0);
}

/// Follows each press: where it began, and whether it has become a drag (for the click
/// handlers). The map pans only for a press begun on the map, and the wheel zooms it only
/// over the map.
fn track_drag(
    buttons: Res<ButtonInput<MouseButton>>,
    mut drag: ResMut<CameraDrag>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut pan: Single<&mut PanCam, With<MapCamera>>,
    rects: Option<Res<super::play::panels::UiRects>>,
    egui: Option<Res<EguiWantsInput>>,
) {
    let cursor = window.cursor_position();
    let on_ui = over_panels(&window, rects.as_deref(), egui.as_deref());
    if buttons.any_just_pressed(PAN_BUTTONS) {
        // A press on a panel or an overlay is the panel's (a scroll bar, a window's title).
        *drag = CameraDrag {
            start: if on_ui { None } else { cursor },
            dragged: false,
        };
    }
    let pressed = buttons.any_pressed(PAN_BUTTONS);
    if pressed
        && let (Some(now), Some(start)) = (cursor, drag.start)
        && now.distance(start) >= DRAG_THRESHOLD
    {
        drag.dragged = true;
    }
    let enabled = if pressed {
        drag.start.is_some()
    } else {
        !on_ui
    };
    if pan.enabled != enabled {
        pan.enabled = enabled;
    }
}

/// The zoom keys (`+` and `-` unless the player changed them) zoom about the middle of the
/// window while held.
fn key_zoom(
    keys: GameKeys,
    time: Res<Time>,
    camera: Single<(&mut Projection, &PanCam), With<MapCamera>>,
) {
    let zoom = f32::from(u8::from(keys.held(Command::ZoomOut)))
        - f32::from(u8::from(keys.held(Command::ZoomIn)));
    if zoom == 0.0 {
        return;
    }
    let (mut proj, pan) = camera.into_inner();
    let Some(o) = ortho(&mut proj) else { return };
    let factor = (1.0 + zoom * 2.0 * time.delta_secs()).max(0.1);
    o.scale = (o.scale * factor).clamp(pan.min_scale, pan.max_scale.max(pan.min_scale));
}

/// Gives bevy_pancam the player's pan keys, and none while the keyboard is not the game's
/// (a text field has it, or the settings wait for a key to bind).
fn pan_keys(keys: GameKeys, mut cameras: Query<&mut PanCam, With<MapCamera>>) {
    let wanted = if keys.live().is_some() {
        let map = keys.map();
        DirectionKeys {
            up: map.plain_keys(Command::PanUp),
            down: map.plain_keys(Command::PanDown),
            left: map.plain_keys(Command::PanLeft),
            right: map.plain_keys(Command::PanRight),
        }
    } else {
        DirectionKeys::NONE
    };
    for mut pan in &mut cameras {
        if pan.move_keys != wanted {
            pan.move_keys = wanted.clone();
        }
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

    /// A window with a panel down its left 200 pixels, the map camera, and the mouse.
    fn gated_app() -> App {
        let mut app = App::new();
        app.init_resource::<ButtonInput<MouseButton>>()
            .init_resource::<CameraDrag>()
            .insert_resource(crate::ui::play::panels::UiRects {
                panels: vec![Rect::new(0.0, 0.0, 200.0, 800.0)],
                ..Default::default()
            })
            .add_systems(Update, track_drag);
        app.world_mut().spawn((Window::default(), PrimaryWindow));
        app.world_mut().spawn((MapCamera, PanCam::default()));
        app
    }

    fn put_cursor(app: &mut App, at: Vec2) {
        let mut q = app.world_mut().query::<&mut Window>();
        q.single_mut(app.world_mut())
            .expect("a window")
            .set_cursor_position(Some(at));
    }

    fn press(app: &mut App, down: bool) {
        let mut b = app.world_mut().resource_mut::<ButtonInput<MouseButton>>();
        if down {
            b.press(MouseButton::Left);
        } else {
            b.release(MouseButton::Left);
        }
    }

    fn pans(app: &mut App) -> bool {
        let mut q = app.world_mut().query::<&PanCam>();
        q.single(app.world()).expect("a camera").enabled
    }

    /// One frame; then the press is no longer new (as Bevy's input systems would do).
    fn step(app: &mut App) {
        app.update();
        app.world_mut()
            .resource_mut::<ButtonInput<MouseButton>>()
            .clear();
    }

    #[test]
    fn the_map_pans_only_for_a_press_begun_on_it_and_zooms_only_under_the_cursor() {
        let mut app = gated_app();
        put_cursor(&mut app, Vec2::new(100.0, 300.0));
        step(&mut app);
        assert!(
            !pans(&mut app),
            "the wheel over the panel scrolls the panel"
        );

        // A drag begun on the panel does not move the map, even once it is over the map.
        press(&mut app, true);
        step(&mut app);
        put_cursor(&mut app, Vec2::new(600.0, 300.0));
        step(&mut app);
        assert!(!pans(&mut app));
        assert!(!app.world().resource::<CameraDrag>().dragged);
        press(&mut app, false);
        step(&mut app);
        assert!(pans(&mut app), "released over the map: the wheel zooms it");

        // A drag begun on the map moves it, and becomes a drag once past the threshold.
        press(&mut app, true);
        step(&mut app);
        assert!(pans(&mut app));
        assert!(
            !app.world().resource::<CameraDrag>().dragged,
            "a click so far"
        );
        put_cursor(&mut app, Vec2::new(620.0, 300.0));
        step(&mut app);
        assert!(app.world().resource::<CameraDrag>().dragged);
        put_cursor(&mut app, Vec2::new(150.0, 300.0));
        step(&mut app);
        assert!(
            pans(&mut app),
            "dragged over a panel, the map still follows"
        );
    }
}
