//! The window: map, figures and overlays. Never loaded by the headless simulation.
//!
//! [`UiPlugin`] is presentation only and is assembled from one sub-plugin per feature: the
//! art files of `assets/` ([`art`]), the terrain tilemap ([`map`]), figure counters
//! ([`counters`]), the camera ([`camera`]) and the sounds ([`sound`]). It reads the level from [`CurrentLevel`] and
//! the figures from the simulation's components; it never changes game state, except
//! that other UI code marks figures [`Selected`].

pub mod art;
pub mod bridge;
pub mod camera;
pub mod counters;
pub mod effects;
pub mod layout;
pub mod look;
pub mod map;
pub mod motion;
pub mod play;
pub mod preview;
pub mod screens;
pub mod settings;
pub mod shots;
pub mod sound;
pub mod window_size;

pub use camera::{CameraDrag, MapCamera};
pub use counters::{CounterOf, HasCounter};
pub use layout::MapLayout;
pub use preview::spawn_preview_figures;

use crate::level::Level;
use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_ecs_tilemap::TilemapPlugin;

/// The level on screen. The binary inserts it; replacing it redraws the map and refits the
/// camera, so a level picker only has to swap this resource.
#[derive(Resource, Clone, Debug)]
pub struct CurrentLevel(pub Level);

/// Marks a selected figure (rider or mount: either highlights the pair's counter). The UI
/// owns selection because the rules never need to know what the player is looking at.
#[derive(Component, Debug, Default, Clone, Copy)]
pub struct Selected;

/// Order of the UI's `Update` work: the map (and its layout) first, then counters placed on
/// it, then the camera framing it. Issue 3's input and overlays can slot in around these.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UiSet {
    /// Rebuilds the tilemap and `MapLayout` when the level changes.
    Map,
    /// Keeps figure counters in step with the simulation.
    Counters,
    /// Fits, pans and zooms the camera.
    Camera,
}

/// Depth of the terrain tilemap.
pub const Z_MAP: f32 = 0.0;
/// Depth of figure counters, above the map and below future overlays.
pub const Z_COUNTERS: f32 = 10.0;

/// Everything drawn in the window. Needs `DefaultPlugins` and `TilemapPlugin` (added by
/// [`window_app`]); left out of the headless simulation.
pub struct UiPlugin;

impl Plugin for UiPlugin {
    fn build(&self, app: &mut App) {
        app.configure_sets(Update, (UiSet::Map, UiSet::Counters, UiSet::Camera).chain())
            .add_plugins((
                art::ArtPlugin,
                map::MapPlugin,
                counters::CountersPlugin,
                effects::EffectsPlugin,
                camera::CameraPlugin,
                play::PlayPlugin,
                screens::ScreensPlugin,
                settings::SettingsPlugin::default(),
                sound::SoundPlugin,
                window_size::plugin,
            ));
    }
}

/// The window app showing `level`'s map with no game on it, not yet running, so callers
/// (the binary, the start screen, examples) can add their own systems first. A game comes
/// through the [bridge](bridge) ([`window_app_for`], [`bridge::StartGame`]); the preview
/// example spawns stand-in figures with [`spawn_preview_figures`] instead.
pub fn window_app(level: Level) -> App {
    window_app_on(level, false)
}

/// [`window_app`], with the window's event loop allowed off the main thread when `any_thread`
/// (Linux and Windows only): the test harness runs each test on a thread of its own, and the
/// end-to-end tests drive a real window from one (tests/integration/e2e/).
pub fn window_app_on(level: Level, any_thread: bool) -> App {
    let title = format!("Warhorse — {}", level.file.name);
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title,
                    resolution: WindowResolution::new(
                        window_size::WANTED.x as u32,
                        window_size::WANTED.y as u32,
                    ),
                    ..default()
                }),
                ..default()
            })
            .set(bevy::winit::WinitPlugin {
                run_on_any_thread: any_thread,
            })
            .set(bevy::asset::AssetPlugin {
                file_path: art::asset_folder(),
                ..default()
            }),
    )
    .insert_resource(art::AssetFolder(art::asset_folder().into()))
    .add_plugins((TilemapPlugin, UiPlugin))
    .insert_resource(CurrentLevel(level));
    app
}

/// The window app playing `game` (started from `level`): the game is held by the
/// [bridge](bridge) and its figures are mirrored onto the map at once.
pub fn window_app_for(game: crate::sim::Game, level: Level) -> App {
    let mut app = window_app(level.clone());
    bridge::install_game(app.world_mut(), game, level);
    app
}

/// Opens the game window playing a new game of `level` (dice seeded by the clock) and runs
/// until it is closed; the exit status tells the binary whether the app stopped on an error.
pub fn run_window(level: Level) -> AppExit {
    let seed = screens::seed_from_time();
    window_app_for(crate::sim::Game::new(&level, seed), level).run()
}

#[cfg(test)]
mod tests;

/// The folders named `name` the game reads data from: the working directory's (a checkout,
/// `cargo run`), then the executable's (an installed game); each once, those that exist.
/// `levels/` and `assets/` are found this way.
pub fn data_folders(name: &str) -> Vec<std::path::PathBuf> {
    let mut dirs = vec![std::path::PathBuf::from(name)];
    if let Some(exe_dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(std::path::Path::to_path_buf))
    {
        dirs.push(exe_dir.join(name));
    }
    let mut seen = Vec::new();
    dirs.into_iter()
        .filter(|d| d.is_dir())
        .filter(|d| {
            let key = d.canonicalize().unwrap_or_else(|_| d.clone());
            let new = !seen.contains(&key);
            seen.push(key);
            new
        })
        .collect()
}
