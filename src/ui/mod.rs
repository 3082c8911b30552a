//! The window: map, figures and overlays. Never loaded by the headless simulation.
//!
//! [`UiPlugin`] is presentation only and is assembled from one sub-plugin per feature: art
//! generated in code ([`art`]), the terrain tilemap ([`map`]), figure counters
//! ([`counters`]) and the camera ([`camera`]). It reads the level from [`CurrentLevel`] and
//! the figures from the simulation's components; it never changes game state, except
//! that other UI code marks figures [`Selected`].

pub mod art;
pub mod camera;
pub mod counters;
pub mod layout;
pub mod look;
pub mod map;
pub mod preview;

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
                camera::CameraPlugin,
            ));
    }
}

/// The window app for `level`, not yet running, so callers (the binary, examples) can add
/// their own systems first. It spawns the level's figures with [`spawn_preview_figures`]
/// until the simulation takes over spawning.
pub fn window_app(level: Level) -> App {
    let title = format!("Warhorse — {}", level.file.name);
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title,
            resolution: WindowResolution::new(1280, 800),
            ..default()
        }),
        ..default()
    }))
    .add_plugins((TilemapPlugin, UiPlugin))
    .insert_resource(CurrentLevel(level))
    .add_systems(Startup, spawn_preview_figures);
    app
}

/// Opens the game window on `level` and runs until it is closed; the exit status tells the
/// binary whether the app stopped on an error.
pub fn run_window(level: Level) -> AppExit {
    window_app(level).run()
}

#[cfg(test)]
mod tests;
