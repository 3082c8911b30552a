//! Which tile of `assets/art/terrain/` draws a terrain. Levels name terrains freely, so the
//! tile is picked by keyword in the name, then by what the terrain does in the rules; an
//! unknown, unremarkable terrain gets the neutral `plain` tile tinted with an earthy colour
//! picked by its name, so two such terrains still differ.

use crate::rules::board::Terrain;
use bevy::color::Color;

/// Every terrain tile, by file stem (`art/terrain/<name>.tile.svg`).
pub const TILES: [&str; 15] = [
    "open",
    "woods",
    "brush",
    "marsh",
    "ford",
    "water",
    "rocks",
    "hills",
    "road",
    "wall",
    "village",
    "fields",
    "sand",
    "impassable",
    "plain",
];

/// Keyword table, first match wins (so "wooded hill" reads as woods, which matters more, and
/// "ford" as a ford before water).
const KEYWORDS: &[(&[&str], &str)] = &[
    (
        &["wood", "forest", "tree", "orchard", "grove", "jungle"],
        "woods",
    ),
    (
        &["brush", "scrub", "bush", "hedge", "thicket", "heath"],
        "brush",
    ),
    (&["marsh", "swamp", "bog", "fen", "mud"], "marsh"),
    (&["ford", "shallow", "shoal"], "ford"),
    (
        &["water", "river", "stream", "lake", "pond", "sea", "brook"],
        "water",
    ),
    (
        &[
            "crag", "rock", "cliff", "mountain", "boulder", "rough", "ravine", "scree", "rubble",
        ],
        "rocks",
    ),
    (&["hill", "slope", "rise", "ridge", "mound"], "hills"),
    (&["road", "track", "path", "trail", "bridge"], "road"),
    (&["wall", "palisade", "fence", "rampart"], "wall"),
    (
        &[
            "village", "house", "building", "town", "hut", "farm", "ruin", "castle", "shed",
            "wagon",
        ],
        "village",
    ),
    (
        &[
            "field", "crop", "grain", "wheat", "plough", "plow", "vineyard",
        ],
        "fields",
    ),
    (&["sand", "desert", "dune", "beach"], "sand"),
    (
        &[
            "open", "clear", "grass", "plain", "meadow", "pasture", "steppe",
        ],
        "open",
    ),
];

/// Earthy tints for unknown terrains, chosen never to clash with the side colours.
const EARTH: [[u8; 3]; 5] = [
    [176, 160, 120],
    [150, 170, 130],
    [186, 150, 120],
    [140, 150, 150],
    [170, 176, 104],
];

/// The ground colour of each tile (the first fill of its SVG), for pictures of a map drawn
/// without the tiles themselves (the start screen's map picture).
pub fn tile_base_rgb(tile: &str) -> [u8; 3] {
    match tile {
        "open" => [0x96, 0xba, 0x68],
        "woods" => [0x46, 0x76, 0x38],
        "brush" => [0x8e, 0xa0, 0x5c],
        "marsh" => [0x70, 0x8c, 0x70],
        "ford" => [0x84, 0xa8, 0xb2],
        "water" => [0x48, 0x80, 0xbe],
        "rocks" => [0x8a, 0x86, 0x7e],
        "hills" => [0xba, 0xa6, 0x6a],
        "road" => [0xc4, 0xae, 0x84],
        "wall" => [0x9c, 0x92, 0x82],
        "village" => [0xac, 0xa8, 0x8c],
        "fields" => [0xd6, 0xc4, 0x6e],
        "sand" => [0xe2, 0xd0, 0x98],
        "impassable" => [0x60, 0x5c, 0x58],
        _ => [0xf0, 0xf0, 0xf0],
    }
}

/// The tile that draws `t`, and the tint to draw it with (white for named tiles).
pub fn terrain_tile(t: &Terrain) -> (&'static str, Color) {
    let name = t.name.to_ascii_lowercase();
    let known = KEYWORDS
        .iter()
        .find(|(words, _)| words.iter().any(|w| name.contains(w)))
        .map(|(_, tile)| *tile)
        .or_else(|| {
            // By what it does in the rules: impassable, blocks sight, gives cover.
            if t.cost.is_none() {
                Some("impassable")
            } else if t.blocks_sight {
                Some("woods")
            } else if t.cover {
                Some("brush")
            } else {
                None
            }
        });
    if let Some(tile) = known {
        return (tile, Color::WHITE);
    }
    let h = name.bytes().fold(2_166_136_261u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(16_777_619)
    });
    let [r, g, b] = EARTH[(h % EARTH.len() as u32) as usize];
    ("plain", Color::srgb_u8(r, g, b))
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
    fn each_tiles_picture_colour_is_the_first_fill_of_its_svg() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/art/terrain");
        for tile in TILES {
            let svg = std::fs::read_to_string(dir.join(format!("{tile}.tile.svg"))).unwrap();
            let at = svg.find("fill=\"#").expect("a fill") + 7;
            let hex = &svg[at..at + 6];
            let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap();
            assert_eq!(tile_base_rgb(tile), [byte(0), byte(2), byte(4)], "{tile}");
        }
    }

    #[test]
    fn common_terrains_get_distinct_tiles() {
        let names = [
            "open", "woods", "marsh", "river", "hill", "crag", "road", "village", "field",
        ];
        let tiles: Vec<_> = names
            .iter()
            .map(|n| terrain_tile(&terrain(n, true)).0)
            .collect();
        for (i, a) in tiles.iter().enumerate() {
            assert!(TILES.contains(a), "{a} has a file");
            assert!(!tiles[i + 1..].contains(a), "{a} twice");
        }
        assert_eq!(terrain_tile(&terrain("Dense Forest", true)).0, "woods");
        assert_eq!(terrain_tile(&terrain("ford", true)).0, "ford");
    }

    #[test]
    fn unknown_terrains_fall_back_on_their_rules_then_on_a_tinted_plain_tile() {
        assert_eq!(terrain_tile(&terrain("zzz", false)).0, "impassable");
        let mut dark = terrain("zzz", true);
        dark.blocks_sight = true;
        assert_eq!(terrain_tile(&dark).0, "woods");
        let (tile, tint) = terrain_tile(&terrain("zzz", true));
        assert_eq!(tile, "plain");
        assert_ne!(tint, Color::WHITE);
        let other = (1..40)
            .map(|i| terrain_tile(&terrain(&format!("unknown{i}"), true)).1)
            .any(|t| t != tint);
        assert!(other, "unknown terrains do not all look alike");
    }
}
