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
