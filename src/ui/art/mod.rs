//! All art is generated in code at startup: no image files to ship, lose or keep in step with
//! the grid geometry. Terrain tiles are built per level (see [`terrain::terrain_atlas`]);
//! counter pieces once, here.

pub mod counter;
pub mod pattern;
pub mod raster;
pub mod terrain;

use bevy::prelude::*;

/// Builds the shared counter images before anything needs them.
pub struct ArtPlugin;

impl Plugin for ArtPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(PreStartup, build_counter_art);
    }
}

/// Handles to the generated counter pieces, shared by every counter (tinted per side and
/// state), so a thousand counters cost five textures.
#[derive(Resource, Clone, Debug)]
pub struct CounterArt {
    /// Rounded-square counter body.
    pub base: Handle<Image>,
    /// Facing wedge, pointing up before rotation.
    pub wedge: Handle<Image>,
    /// Selection ring.
    pub ring: Handle<Image>,
    /// Wound mark.
    pub dot: Handle<Image>,
    /// Mounted marker.
    pub horseshoe: Handle<Image>,
}

fn build_counter_art(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    let mut add = |c: raster::Canvas| images.add(c.into_image());
    commands.insert_resource(CounterArt {
        base: add(counter::counter_base()),
        wedge: add(counter::wedge()),
        ring: add(counter::ring()),
        dot: add(counter::dot()),
        horseshoe: add(counter::horseshoe()),
    });
}
