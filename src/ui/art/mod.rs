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

/// The colour of a side's counters: red and blue for the usual two, then other colours that
/// stay distinguishable from those and from the terrain greens.
pub fn side_colour(side: u8) -> Color {
    const SIDES: [(f32, f32, f32); 6] = [
        (0.78, 0.16, 0.13), // red
        (0.16, 0.32, 0.78), // blue
        (0.85, 0.62, 0.10), // amber
        (0.52, 0.22, 0.66), // purple
        (0.10, 0.58, 0.58), // teal
        (0.55, 0.55, 0.55), // grey
    ];
    let (r, g, b) = SIDES[usize::from(side) % SIDES.len()];
    Color::srgb(r, g, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_sides_are_red_then_blue_and_all_differ() {
        let red = side_colour(0).to_srgba();
        let blue = side_colour(1).to_srgba();
        assert!(red.red > red.blue && blue.blue > blue.red);
        for a in 0..6 {
            for b in a + 1..6 {
                assert_ne!(side_colour(a), side_colour(b));
            }
        }
    }
}
