//! The east–west test levels (issue 31: "a test level that reads the same from both sides"):
//! each map and its two forces are mirror images across the north–south line through the
//! middle, so a win share that leans to one side there is the computer's, not the level's
//! (docs/ai.md, *East and west*). Each level's swapped file is the same battle with East
//! listed first, for the other seating.

use std::path::Path;
use warhorse::level::{LevelFile, load_level_file};

/// The test levels, whether each is on hexes (odd-r rows), and its swapped file.
const LEVELS: [(&str, bool, &str); 2] = [
    ("east_west.ron", false, "east_west_swapped.ron"),
    ("east_west_hex.ron", true, "east_west_hex_swapped.ron"),
];

fn load(name: &str) -> LevelFile {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/levels")
        .join(name);
    load_level_file(&path)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .file
}

/// The cell's mirror image; `None` for the last cell of an odd row on hexes, which has none.
fn mirror(hex: bool, width: i32, (x, y): (i32, i32)) -> Option<(i32, i32)> {
    let m = if hex && y % 2 == 1 {
        width - 2 - x
    } else {
        width - 1 - x
    };
    (m >= 0).then_some((m, y))
}

/// A facing's mirror image across a north–south line.
fn mirror_facing(f: &str) -> String {
    f.chars()
        .map(|c| match c {
            'E' => 'W',
            'W' => 'E',
            c => c,
        })
        .collect()
}

#[test]
fn the_east_west_levels_are_mirror_images_and_their_swaps_list_east_first() {
    for (name, hex, swapped) in LEVELS {
        let level = load(name);
        let width = level.width as i32;
        let cells: Vec<Vec<char>> = level.rows.iter().map(|r| r.chars().collect()).collect();
        let mut compared = 0;
        for (y, row) in cells.iter().enumerate() {
            for (x, c) in row.iter().enumerate() {
                let Some((mx, my)) = mirror(hex, width, (x as i32, y as i32)) else {
                    continue;
                };
                assert_eq!(
                    *c, cells[my as usize][mx as usize],
                    "{name}: ({x}, {y}) and its image ({mx}, {my})"
                );
                compared += 1;
            }
        }
        assert!(compared > 100, "{name}: the map is compared");
        let sides: Vec<&str> = level.sides.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(sides, ["West", "East"], "{name}: West first");
        for f in level.figures.iter().filter(|f| f.side == "West") {
            let image = mirror(hex, width, f.at).expect("a figure stands on a cell with an image");
            let twin = level
                .figures
                .iter()
                .find(|e| e.side == "East" && e.at == image)
                .unwrap_or_else(|| panic!("{name}: no East figure at {image:?}, {}'s image", f.id));
            assert_eq!(
                twin.template, f.template,
                "{name}: {} and {}",
                f.id, twin.id
            );
            assert_eq!(twin.facing, mirror_facing(&f.facing), "{name}: {}", twin.id);
            assert!(f.at.0 < width / 2, "{name}: {} starts in the west", f.id);
        }
        let east = level.figures.iter().filter(|f| f.side == "East").count();
        assert_eq!(east * 2, level.figures.len(), "{name}: equal forces");

        // The swapped file: the same battle with East first.
        let other = load(swapped);
        let sides: Vec<&str> = other.sides.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(sides, ["East", "West"], "{swapped}: East first");
        assert_eq!(other.rows, level.rows, "{swapped}: the same map");
        let key = |f: &warhorse::level::FigureSpec| {
            (
                f.id.clone(),
                f.template.clone(),
                f.side.clone(),
                f.at,
                f.facing.clone(),
            )
        };
        let mut a: Vec<_> = level.figures.iter().map(key).collect();
        let mut b: Vec<_> = other.figures.iter().map(key).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b, "{swapped}: the same figures");
        assert_eq!(
            other.figures.first().map(|f| f.side.as_str()),
            Some("East"),
            "{swapped}: East's figures first"
        );
    }
}
