//! Terrain tiles drawn in code: one tile per terrain of the level's legend, each with its own
//! colour and pattern, cut to a hex on hex maps. Styles come from the terrain's name (levels
//! name terrains freely, so keywords are matched) and fall back on its rules properties, so
//! an unknown terrain still looks like what it does.

use super::pattern::{darken, draw_pattern};
use super::raster::{Canvas, Rgba, hash2, in_pointy_hex};
use crate::rules::board::Terrain;
use crate::rules::grid::GridKind;

/// The drawing on top of a terrain's base colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// Sparse grass specks: open ground.
    Grass,
    /// Tree crowns: woods, forest.
    Trees,
    /// Small bushes: brush, scrub.
    Bushes,
    /// Reed tufts and water dashes: marsh, bog.
    Reeds,
    /// Wave lines: water.
    Waves,
    /// Contour arcs: hills, slopes.
    Contours,
    /// Jagged rocks: crags, rough, mountains.
    Rocks,
    /// Packed gravel: roads and tracks (no direction, since a tile does not know its
    /// neighbours).
    Gravel,
    /// Coursed stones: walls.
    Bricks,
    /// Little houses: villages, buildings.
    Houses,
    /// Furrow stripes: fields, crops.
    Furrows,
}

/// How one terrain is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TerrainStyle {
    /// Ground colour.
    pub base: Rgba,
    /// Pattern colour.
    pub ink: Rgba,
    /// What is drawn on the ground.
    pub pattern: Pattern,
}

const fn style(base: Rgba, ink: Rgba, pattern: Pattern) -> TerrainStyle {
    TerrainStyle { base, ink, pattern }
}

/// Keyword table, first match wins (so "wooded hill" reads as woods, which matters more).
const KEYWORDS: &[(&[&str], TerrainStyle)] = &[
    (
        &["wood", "forest", "tree", "orchard", "grove", "jungle"],
        style([70, 118, 58, 255], [34, 74, 32, 255], Pattern::Trees),
    ),
    (
        &["brush", "scrub", "bush", "hedge", "thicket", "heath"],
        style([142, 160, 92, 255], [82, 108, 52, 255], Pattern::Bushes),
    ),
    (
        &["marsh", "swamp", "bog", "fen", "mud"],
        style([112, 140, 112, 255], [56, 96, 120, 255], Pattern::Reeds),
    ),
    (
        &["ford", "shallow", "shoal"],
        style([132, 168, 178, 255], [214, 232, 240, 255], Pattern::Waves),
    ),
    (
        &[
            "water", "river", "stream", "lake", "pond", "sea", "ford", "brook",
        ],
        style([72, 128, 190, 255], [168, 206, 236, 255], Pattern::Waves),
    ),
    (
        &[
            "crag", "rock", "cliff", "mountain", "boulder", "rough", "ravine", "scree", "rubble",
        ],
        style([138, 134, 126, 255], [74, 70, 66, 255], Pattern::Rocks),
    ),
    (
        &["hill", "slope", "rise", "ridge", "mound"],
        style([186, 166, 106, 255], [130, 106, 60, 255], Pattern::Contours),
    ),
    (
        &["road", "track", "path", "trail", "bridge"],
        style([196, 174, 132, 255], [150, 120, 80, 255], Pattern::Gravel),
    ),
    (
        &["wall", "palisade", "fence", "rampart"],
        style([156, 146, 130, 255], [92, 86, 78, 255], Pattern::Bricks),
    ),
    (
        &[
            "village", "house", "building", "town", "hut", "farm", "ruin", "castle",
        ],
        style([172, 168, 140, 255], [150, 64, 48, 255], Pattern::Houses),
    ),
    (
        &[
            "field", "crop", "grain", "wheat", "plough", "plow", "vineyard",
        ],
        style([214, 196, 110, 255], [176, 150, 70, 255], Pattern::Furrows),
    ),
    (
        &["sand", "desert", "dune", "beach"],
        style([226, 208, 152, 255], [196, 172, 110, 255], Pattern::Grass),
    ),
    (
        &[
            "open", "clear", "grass", "plain", "meadow", "pasture", "steppe",
        ],
        style([150, 186, 104, 255], [116, 152, 76, 255], Pattern::Grass),
    ),
];

/// The style for a terrain: by name keyword, else by what it does in the rules, else a
/// colour hashed from the name so two unknown terrains still differ.
pub fn terrain_style(t: &Terrain) -> TerrainStyle {
    let name = t.name.to_ascii_lowercase();
    if let Some((_, s)) = KEYWORDS
        .iter()
        .find(|(words, _)| words.iter().any(|w| name.contains(w)))
    {
        return *s;
    }
    if t.cost.is_none() {
        return style([96, 92, 88, 255], [52, 50, 48, 255], Pattern::Rocks);
    }
    if t.blocks_sight {
        return style([70, 118, 58, 255], [34, 74, 32, 255], Pattern::Trees);
    }
    if t.cover {
        return style([142, 160, 92, 255], [82, 108, 52, 255], Pattern::Bushes);
    }
    // Unknown and unremarkable: an earthy tone picked by the name, so two such terrains still
    // differ, from a palette that never clashes with the counters' side colours.
    const EARTH: [Rgba; 5] = [
        [176, 160, 120, 255],
        [150, 170, 130, 255],
        [186, 150, 120, 255],
        [140, 150, 150, 255],
        [170, 176, 104, 255],
    ];
    let h = name.bytes().fold(7u32, |h, b| hash2(h, u32::from(b), 11));
    let base = EARTH[(h % EARTH.len() as u32) as usize];
    style(base, darken(base, 50), Pattern::Grass)
}

/// Pixel size of one tile image: square cells, or pointy-top hexes (height rounded up).
pub fn tile_pixels(grid: GridKind, cell: f32) -> (u32, u32) {
    let w = cell.round() as u32;
    match grid {
        GridKind::Square => (w, w),
        GridKind::Hex => (w, (cell * 2.0 / 3f32.sqrt()).ceil() as u32),
    }
}

/// The tilemap texture: one tile per terrain id, left to right, so a cell's terrain id is its
/// tile index. Never empty (a blank tile stands in for an empty legend).
pub fn terrain_atlas(terrains: &[Terrain], grid: GridKind, cell: f32) -> Canvas {
    let (w, h) = tile_pixels(grid, cell);
    let n = terrains.len().max(1) as u32;
    let mut atlas = Canvas::new(w * n, h);
    for (i, t) in terrains.iter().enumerate() {
        terrain_tile(&terrain_style(t), grid, w, h, i as u32).blit_into(
            &mut atlas,
            i as u32 * w,
            0,
        );
    }
    atlas
}

/// One terrain tile: ground, pattern, then the cell outline that doubles as grid lines.
pub fn terrain_tile(s: &TerrainStyle, grid: GridKind, w: u32, h: u32, seed: u32) -> Canvas {
    let mut c = Canvas::new(w, h);
    c.fill(s.base, |_, _| true);
    draw_pattern(&mut c, s, seed);
    let (wf, hf) = (w as f32, h as f32);
    let edge: Rgba = [40, 44, 36, 110];
    match grid {
        GridKind::Square => {
            c.fill(edge, |x, y| {
                x < 1.0 || y < 1.0 || x > wf - 1.0 || y > hf - 1.0
            });
        }
        GridKind::Hex => {
            let (cx, cy) = (wf / 2.0, hf / 2.0);
            c.clip(|x, y| in_pointy_hex(x, y, cx, cy, wf));
            c.fill(edge, |x, y| {
                in_pointy_hex(x, y, cx, cy, wf) && !in_pointy_hex(x, y, cx, cy, wf - 2.5)
            });
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terrain(name: &str, passable: bool) -> Terrain {
        Terrain {
            name: name.to_string(),
            cost: passable.then_some(crate::rules::mp::Mp::ONE),
            mounted_cost: None,
            no_gallop: false,
            cover: false,
            blocks_sight: false,
            obstacle: None,
        }
    }

    #[test]
    fn common_terrains_get_distinct_styles() {
        let names = [
            "open", "woods", "marsh", "river", "hill", "crag", "road", "village", "field",
        ];
        let styles: Vec<_> = names
            .iter()
            .map(|n| terrain_style(&terrain(n, true)))
            .collect();
        for (i, a) in styles.iter().enumerate() {
            for b in &styles[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(
            terrain_style(&terrain("Dense Forest", true)).pattern,
            Pattern::Trees
        );
    }

    #[test]
    fn atlas_has_one_tile_per_terrain_and_hex_corners_are_clear() {
        let ts = vec![
            terrain("open", true),
            terrain("woods", true),
            terrain("zzz", false),
        ];
        let a = terrain_atlas(&ts, GridKind::Hex, 64.0);
        let (w, h) = tile_pixels(GridKind::Hex, 64.0);
        assert_eq!((a.width, a.height), (3 * w, h));
        assert_eq!(h, 74);
        assert_eq!(a.get(0, 0)[3], 0); // outside the hex
        assert_eq!(a.get(w / 2, h / 2)[3], 255);
        let sq = terrain_atlas(&ts, GridKind::Square, 64.0);
        assert_eq!(sq.get(0, 0)[3], 255);
        assert!(terrain_atlas(&[], GridKind::Square, 64.0).width > 0);
    }
}
