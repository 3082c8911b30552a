//! The map: a `bevy_ecs_tilemap` tilemap built from [`CurrentLevel`], rebuilt whenever the
//! level changes, plus the [`MapLayout`] resource everything else positions itself by.

use super::CurrentLevel;
use super::art::terrain::{terrain_atlas, tile_pixels};
use super::layout::MapLayout;
use crate::rules::grid::{Cell, GridKind};
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;

/// Draws the level's terrain and publishes its [`MapLayout`].
pub struct MapPlugin;

impl Plugin for MapPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            rebuild_map
                .in_set(super::UiSet::Map)
                .run_if(resource_exists_and_changed::<CurrentLevel>),
        );
    }
}

/// Marks the tilemap entity of the current level, so a new level replaces it.
#[derive(Component, Debug)]
pub struct MapTilemap;

/// The tilemap type that shows the level's rows the way the rules lay them out.
pub fn tilemap_type(layout: &MapLayout) -> TilemapType {
    match layout.grid {
        GridKind::Square => TilemapType::Square,
        GridKind::Hex if layout.hex_rows_odd() => TilemapType::Hexagon(HexCoordSystem::RowOdd),
        GridKind::Hex => TilemapType::Hexagon(HexCoordSystem::RowEven),
    }
}

fn rebuild_map(
    mut commands: Commands,
    level: Res<CurrentLevel>,
    mut old: Query<(Entity, &mut TileStorage), With<MapTilemap>>,
    mut images: ResMut<Assets<Image>>,
) {
    for (map, mut storage) in &mut old {
        for tile in storage.drain() {
            commands.entity(tile).despawn();
        }
        commands.entity(map).despawn();
    }

    let board = &level.0.board;
    let layout = MapLayout::new(board.grid, board.width, board.height);
    commands.insert_resource(layout);
    if board.width <= 0 || board.height <= 0 {
        warn!(
            "level {:?} has an empty map; nothing to draw",
            level.0.file.name
        );
        return;
    }

    let atlas = terrain_atlas(&board.terrains, board.grid, layout.cell);
    let texture = TilemapTexture::Single(images.add(atlas.into_image()));
    let size = TilemapSize {
        x: board.width as u32,
        y: board.height as u32,
    };
    let map = commands.spawn_empty().id();
    let mut storage = TileStorage::empty(size);
    let last_terrain = board.terrains.len().saturating_sub(1);
    for c in board.cells() {
        let id = board.terrain.get(board.index(c)).copied().unwrap_or(0);
        let (x, y) = layout.tile_of(c);
        let position = TilePos { x, y };
        let tile = commands
            .spawn(TileBundle {
                position,
                tilemap_id: TilemapId(map),
                texture_index: TileTextureIndex(u32::from(id).min(last_terrain as u32)),
                ..default()
            })
            .id();
        storage.set(&position, tile);
    }

    let (tw, th) = tile_pixels(board.grid, layout.cell);
    commands.entity(map).insert((
        MapTilemap,
        Name::new("map"),
        TilemapBundle {
            // Hex rows sit 3/4 of the grid height apart, so the grid is the hex's own size.
            grid_size: TilemapGridSize {
                x: layout.tile_size().x,
                y: layout.tile_size().y,
            },
            map_type: tilemap_type(&layout),
            size,
            storage,
            texture,
            tile_size: TilemapTileSize {
                x: tw as f32,
                y: th as f32,
            },
            transform: Transform::from_translation(layout.tilemap_offset().extend(super::Z_MAP)),
            anchor: TilemapAnchor::None,
            ..default()
        },
    ));
    info!(
        "map {}x{} {:?} with {} terrains; top-left cell at {}",
        board.width,
        board.height,
        board.grid,
        board.terrains.len(),
        layout.cell_to_world(Cell::new(0, 0))
    );
}
