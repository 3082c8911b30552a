use super::*;
use bevy_ecs_tilemap::prelude::*;

fn close(a: Vec2, b: Vec2) -> bool {
    a.distance(b) < 1e-3
}

#[test]
fn row_zero_is_at_the_top() {
    for grid in [GridKind::Square, GridKind::Hex] {
        let l = MapLayout::new(grid, 5, 4);
        let top = l.cell_to_world(Cell::new(0, 0));
        let bottom = l.cell_to_world(Cell::new(0, 3));
        assert!(top.y > bottom.y, "{grid:?}");
        assert_eq!(bottom.y, 0.0);
    }
}

#[test]
fn hex_odd_rows_are_shifted_right_by_half_a_cell() {
    let l = MapLayout::new(GridKind::Hex, 5, 4);
    let even = l.cell_to_world(Cell::new(2, 0));
    let odd = l.cell_to_world(Cell::new(2, 1));
    assert!((odd.x - even.x - 0.5 * CELL_PX).abs() < 1e-4);
    assert!((even.y - odd.y - CELL_PX * 0.866_025_4).abs() < 1e-3);
}

#[test]
fn matches_grid_center_up_to_the_flip() {
    // The rules' own geometry (y down, in cell widths) and ours (y up, in pixels) agree.
    for grid in [GridKind::Square, GridKind::Hex] {
        let l = MapLayout::new(grid, 6, 5);
        let origin = l.cell_to_world(Cell::new(0, 0));
        for c in (0..5).flat_map(|y| (0..6).map(move |x| Cell::new(x, y))) {
            let (gx, gy) = grid.center(c);
            let expect = origin + Vec2::new(gx as f32, -gy as f32) * CELL_PX;
            assert!(close(l.cell_to_world(c), expect), "{grid:?} {c}");
        }
    }
}

#[test]
fn world_to_cell_inverts_cell_to_world() {
    for grid in [GridKind::Square, GridKind::Hex] {
        let l = MapLayout::new(grid, 7, 6);
        for c in (0..6).flat_map(|y| (0..7).map(move |x| Cell::new(x, y))) {
            let p = l.cell_to_world(c);
            assert_eq!(l.world_to_cell(p), Some(c));
            assert_eq!(l.world_to_cell(p + Vec2::new(20.0, -20.0)), Some(c));
        }
        assert_eq!(l.world_to_cell(Vec2::new(-100.0, 0.0)), None);
        assert_eq!(l.world_to_cell(Vec2::new(0.0, 10_000.0)), None);
    }
}

#[test]
fn bounds_cover_every_cell_centre() {
    for grid in [GridKind::Square, GridKind::Hex] {
        for (w, h) in [(1, 1), (5, 4), (8, 7)] {
            let l = MapLayout::new(grid, w, h);
            let b = l.bounds();
            for c in (0..h).flat_map(|y| (0..w).map(move |x| Cell::new(x, y))) {
                let p = l.cell_to_world(c);
                assert!(b.contains(p - l.tile_size() * 0.49), "{grid:?} {c}");
                assert!(b.contains(p + l.tile_size() * 0.49), "{grid:?} {c}");
            }
        }
    }
}

#[test]
fn facing_arrows_point_the_right_way() {
    let sq = GridKind::Square;
    assert!(close(facing_vector(sq, Dir(0)), Vec2::Y)); // N is up
    assert!(close(facing_vector(sq, Dir(2)), Vec2::X)); // E is right
    assert!(close(facing_vector(sq, Dir(4)), -Vec2::Y)); // S is down
    assert!(close(facing_vector(sq, Dir(6)), -Vec2::X)); // W is left
    let hex = GridKind::Hex;
    assert!(close(facing_vector(hex, Dir(1)), Vec2::X)); // E is right
    assert!(close(facing_vector(hex, Dir(4)), -Vec2::X)); // W is left
    let ne = facing_vector(hex, Dir(0));
    assert!(ne.x > 0.0 && ne.y > 0.0);
}

#[test]
fn hex_facing_points_at_the_neighbour_it_names() {
    // The arrow for each direction points at that neighbour's centre on screen.
    let l = MapLayout::new(GridKind::Hex, 9, 9);
    for c in [Cell::new(4, 4), Cell::new(4, 5)] {
        for d in GridKind::Hex.all_dirs() {
            let n = GridKind::Hex.neighbour(c, d);
            let v = (l.cell_to_world(n) - l.cell_to_world(c)).normalize();
            assert!(close(v, facing_vector(GridKind::Hex, d)), "{c} {d:?}");
        }
    }
}

/// The tilemap crate's own tile centres, shifted by our offset, land on our cell centres, for
/// both height parities (the `RowOdd` / `RowEven` choice).
#[test]
fn tilemap_tiles_land_on_cell_centres() {
    for grid in [GridKind::Square, GridKind::Hex] {
        for (w, h) in [(4, 5), (4, 6)] {
            let l = MapLayout::new(grid, w, h);
            let map_type = super::super::map::tilemap_type(&l);
            let size = TilemapSize {
                x: w as u32,
                y: h as u32,
            };
            let ts = l.tile_size();
            let grid_size = TilemapGridSize { x: ts.x, y: ts.y };
            let tile_size = TilemapTileSize { x: ts.x, y: ts.y };
            for c in (0..h).flat_map(|y| (0..w).map(move |x| Cell::new(x, y))) {
                let (tx, ty) = l.tile_of(c);
                let p = TilePos { x: tx, y: ty }.center_in_world(
                    &size,
                    &grid_size,
                    &tile_size,
                    &map_type,
                    &TilemapAnchor::None,
                );
                let got = p + l.tilemap_offset();
                assert!(
                    close(got, l.cell_to_world(c)),
                    "{grid:?} {w}x{h} {c}: {got}"
                );
            }
        }
    }
}
