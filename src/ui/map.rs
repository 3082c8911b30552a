//! The map: a `bevy_ecs_tilemap` tilemap built from [`CurrentLevel`], rebuilt whenever the
//! level changes, plus the [`MapLayout`] resource everything else positions itself by.

use super::CurrentLevel;
use super::art::TerrainArt;
use super::art::svg::tile_pixels;
use super::art::terrain::terrain_tile;
use super::layout::MapLayout;
use crate::rules::grid::{Cell, GridKind};
use bevy::asset::LoadState;
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;

/// Draws the level's terrain and publishes its [`MapLayout`].
pub struct MapPlugin;

impl Plugin for MapPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            (
                rebuild_map.run_if(resource_exists_and_changed::<CurrentLevel>),
                stand_in_for_broken_tiles,
            )
                .chain()
                .in_set(super::UiSet::Map),
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
    art: Option<Res<TerrainArt>>,
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

    let Some(art) = art else {
        warn!("no terrain art loaded; the map is not drawn");
        return;
    };
    // One tile image per terrain id, so a cell's terrain id is its texture index; an empty
    // legend still gets one (plain) tile so the texture is never empty.
    let cut = match board.grid {
        GridKind::Square => &art.square,
        GridKind::Hex => &art.hex,
    };
    let looks: Vec<_> = if board.terrains.is_empty() {
        vec![("plain", Color::WHITE)]
    } else {
        board.terrains.iter().map(terrain_tile).collect()
    };
    let texture = TilemapTexture::Vector(
        looks
            .iter()
            .map(|(name, _)| cut.get(name).cloned().unwrap_or_default())
            .collect(),
    );
    let size = TilemapSize {
        x: board.width as u32,
        y: board.height as u32,
    };
    let map = commands.spawn_empty().id();
    let mut storage = TileStorage::empty(size);
    let last_terrain = board.terrains.len().saturating_sub(1);
    for c in board.cells() {
        let id = usize::from(board.terrain.get(board.index(c)).copied().unwrap_or(0));
        let id = id.min(last_terrain);
        let (x, y) = layout.tile_of(c);
        let position = TilePos { x, y };
        let tile = commands
            .spawn(TileBundle {
                position,
                tilemap_id: TilemapId(map),
                texture_index: TileTextureIndex(id as u32),
                color: TileColor(looks.get(id).map_or(Color::WHITE, |l| l.1)),
                ..default()
            })
            .id();
        storage.set(&position, tile);
    }

    let (tw, th) = tile_pixels(board.grid, super::layout::CELL_PX);
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

/// The tilemap draws nothing until every tile image has loaded, so a terrain file that fails
/// (a broken mod) is replaced by the `plain` tile: the map still shows, and the failure is in
/// `ArtProblems`.
fn stand_in_for_broken_tiles(
    server: Res<AssetServer>,
    art: Option<Res<TerrainArt>>,
    layout: Option<Res<MapLayout>>,
    mut maps: Query<&mut TilemapTexture, With<MapTilemap>>,
) {
    let (Some(art), Some(layout)) = (art, layout) else {
        return;
    };
    let plain = match layout.grid {
        GridKind::Square => art.square.get("plain"),
        GridKind::Hex => art.hex.get("plain"),
    };
    let Some(plain) = plain else { return };
    for mut texture in &mut maps {
        let TilemapTexture::Vector(handles) = &*texture else {
            continue;
        };
        let broken = |h: &Handle<Image>| matches!(server.load_state(h), LoadState::Failed(_));
        if handles.iter().any(|h| broken(h) && h != plain) {
            let fixed = handles
                .iter()
                .map(|h| if broken(h) { plain.clone() } else { h.clone() })
                .collect();
            *texture = TilemapTexture::Vector(fixed);
        }
    }
}
