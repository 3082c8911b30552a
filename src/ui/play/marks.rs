//! The reach on the map: every reachable cell tinted, with its cheapest cost written in it,
//! and the hovered cell of a previewed path outlined. Plain sprites and text (no gizmos), so
//! they are built and tested without a window.

use super::reach_view::{CurrentPreview, CurrentReach};
use super::{Mode, Selection};
use crate::rules::grid::GridKind;
use crate::ui::MapLayout;
use crate::ui::settings::{Fractions, Settings};
use bevy::prelude::*;

/// Depth of reach marks: above the terrain, below the counters.
pub const Z_MARKS: f32 = 5.0;

/// Loads the cell-mark images (`assets/art/marks/`).
pub struct MarksPlugin;

impl Plugin for MarksPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, build_mark_art);
    }
}

/// White cell shapes tinted per use: a filled cell and an outline, for squares and hexes.
/// Drawn at the cell's size whatever the files' size, so a modder may draw them finer.
#[derive(Resource, Clone, Debug)]
pub struct MarkArt {
    /// Filled square.
    pub square: Handle<Image>,
    /// Filled pointy-top hex.
    pub hex: Handle<Image>,
    /// Square outline.
    pub square_edge: Handle<Image>,
    /// Hex outline.
    pub hex_edge: Handle<Image>,
}

/// Marks one reachable cell (despawned when the reach changes).
#[derive(Component, Debug)]
pub struct ReachMark;

/// The cost label of a reachable cell.
#[derive(Component, Debug)]
pub struct CostLabel(pub String);

fn build_mark_art(mut commands: Commands, server: Option<Res<AssetServer>>) {
    let Some(server) = server else { return };
    let load = |name: &str| server.load(format!("art/marks/{name}.svg"));
    commands.insert_resource(MarkArt {
        square: load("square"),
        hex: load("hex"),
        square_edge: load("square-edge"),
        hex_edge: load("hex-edge"),
    });
}

/// Tint of cells the selected figure may move to now.
const OWN: Color = Color::srgba(1.0, 0.93, 0.45, 0.38);
/// Tint of cells a figure of the side not moving could reach (shown for information).
const OTHER: Color = Color::srgba(1.0, 0.45, 0.45, 0.30);
/// Outline of the hovered end cell.
const HOVER: Color = Color::srgb(1.0, 1.0, 1.0);

/// Rebuilds the reach marks when the reach, the map or the mode changes, and moves the hover
/// outline with the preview.
pub fn draw_reach_marks(
    mut commands: Commands,
    art: Option<Res<MarkArt>>,
    layout: Option<Res<MapLayout>>,
    reach: Res<CurrentReach>,
    preview: Res<CurrentPreview>,
    selection: Res<Selection>,
    settings: Option<Res<Settings>>,
    old: Query<Entity, With<ReachMark>>,
    mut hover_mark: Local<Option<Entity>>,
) {
    let (Some(art), Some(layout)) = (art, layout) else {
        return;
    };
    let (fill, edge) = match layout.grid {
        GridKind::Square => (&art.square, &art.square_edge),
        GridKind::Hex => (&art.hex, &art.hex_edge),
    };
    let size = layout.tile_size() * 0.97;
    let fractions = settings
        .as_ref()
        .map_or_else(Fractions::default, |s| s.fractions);
    let settings_changed = settings.is_some_and(|s| s.is_changed());
    if reach.is_changed() || layout.is_changed() || selection.is_changed() || settings_changed {
        for e in &old {
            commands.entity(e).despawn();
        }
        *hover_mark = None;
        let show = selection.mode == Mode::Move;
        if let (Some(r), true) = (&reach.0, show) {
            let tint = if r.own_side { OWN } else { OTHER };
            let font = TextFont {
                font_size: bevy::text::FontSize::Px(0.3 * layout.cell),
                ..default()
            };
            let small = TextFont {
                font_size: bevy::text::FontSize::Px(0.2 * layout.cell),
                ..default()
            };
            for end in &r.cells {
                let at = layout.cell_to_world(end.cell);
                let mut cell = commands.spawn((
                    ReachMark,
                    Sprite {
                        image: fill.clone(),
                        color: tint,
                        custom_size: Some(size),
                        ..default()
                    },
                    Transform::from_translation(at.extend(Z_MARKS)),
                ));
                if end.cell != r.start.cell {
                    // D17/R4: a cell behind a roll shows its chance under the cost, smaller,
                    // so the two fit inside the cell.
                    let (text, font, y) = match &end.roll {
                        Some(roll) => (
                            format!("{}\n{}", fractions.plain(end.cost), roll.chance),
                            small.clone(),
                            -0.18,
                        ),
                        None => (fractions.plain(end.cost), font.clone(), -0.26),
                    };
                    cell.with_child((
                        CostLabel(text.clone()),
                        Text2d::new(text),
                        font,
                        TextColor(Color::srgb(0.08, 0.07, 0.05)),
                        Transform::from_xyz(0.0, y * layout.cell, 0.1),
                    ));
                }
            }
        }
    }
    if !(preview.is_changed() || hover_mark.is_none()) {
        return;
    }
    let mark = *hover_mark.get_or_insert_with(|| {
        commands
            .spawn((
                ReachMark,
                Sprite {
                    image: edge.clone(),
                    color: HOVER,
                    custom_size: Some(size),
                    ..default()
                },
                Transform::from_xyz(0.0, 0.0, Z_MARKS + 0.5),
                Visibility::Hidden,
            ))
            .id()
    });
    let (at, visible) = match &preview.0 {
        Some(p) => (layout.cell_to_world(p.cell), Visibility::Inherited),
        None => (Vec2::ZERO, Visibility::Hidden),
    };
    commands.entity(mark).insert((
        Transform::from_translation(at.extend(Z_MARKS + 0.5)),
        visible,
    ));
}
