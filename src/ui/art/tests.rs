//! The art files: every file the game names exists and draws, and a replaced file is what the
//! game loads (issue 16, done-when: "a test replaces one asset file in a temporary copy and the
//! game shows the new one").

use super::svg::{rasterise, rasterise_tile, tile_pixels};
use super::*;
use crate::rules::grid::GridKind;
use crate::ui::layout::CELL_PX;
use crate::ui::tests::{asset_app, update_until};
use std::path::{Path, PathBuf};

fn assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets")
}

/// Every path `load_art` and the reach marks ask for, without the `#hex` label.
fn named_files() -> Vec<String> {
    let mut files: Vec<String> = [
        "counters/body",
        "counters/plate",
        "markers/front",
        "markers/ring",
        "markers/wound",
        "markers/leader",
        "markers/moved",
        "markers/arrow",
        "marks/square",
        "marks/hex",
        "marks/square-edge",
        "marks/hex-edge",
    ]
    .iter()
    .map(|f| format!("art/{f}.svg"))
    .collect();
    files.extend((0..HERALDRY).map(|n| format!("art/heraldry/side-{n}.svg")));
    files.extend(
        Symbol::ALL
            .iter()
            .map(|s| format!("art/symbols/{}.svg", s.file_stem())),
    );
    files.extend(
        terrain::TILES
            .iter()
            .map(|t| format!("art/terrain/{t}.tile.svg")),
    );
    files
}

#[test]
fn every_named_art_file_exists_and_draws() {
    for file in named_files() {
        let bytes = std::fs::read(assets().join(&file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        if file.ends_with(".tile.svg") {
            for grid in [GridKind::Square, GridKind::Hex] {
                let image = rasterise_tile(&bytes, grid).unwrap_or_else(|e| panic!("{file}: {e}"));
                let (w, h) = tile_pixels(grid, CELL_PX);
                assert_eq!((image.width(), image.height()), (w, h), "{file}");
            }
        } else {
            let image = rasterise(&bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
            let data = image.data.as_ref().expect("pixels");
            assert!(data.chunks(4).any(|p| p[3] > 0), "{file} draws something");
        }
    }
}

/// The pixel at `(x, y)` of an image, RGBA.
fn pixel(image: &Image, x: u32, y: u32) -> [u8; 4] {
    let data = image.data.as_ref().expect("pixels");
    let i = ((y * image.width() + x) * 4) as usize;
    [data[i], data[i + 1], data[i + 2], data[i + 3]]
}

#[test]
fn hex_tiles_are_cut_to_the_hex_and_square_tiles_fill_the_cell() {
    let green = br##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#00ff00"/></svg>"##;
    let hex = rasterise_tile(green, GridKind::Hex).expect("draws");
    assert_eq!(pixel(&hex, 0, 0)[3], 0, "a hex's corner is clear");
    assert_eq!(pixel(&hex, 32, 37), [0, 255, 0, 255]);
    let square = rasterise_tile(green, GridKind::Square).expect("draws");
    assert_eq!(pixel(&square, 32, 32), [0, 255, 0, 255]);
    assert_eq!(
        pixel(&square, 0, 0)[3],
        255,
        "a square fills its corner (with the edge)"
    );
}

#[test]
fn a_broken_or_oversized_svg_is_an_error_not_a_panic() {
    assert!(rasterise(b"<svg").is_err());
    assert!(rasterise(b"not svg at all").is_err());
    let huge = br#"<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="10"/>"#;
    let why = rasterise(huge).expect_err("too big").to_string();
    assert!(why.contains("100000"), "{why}");
}

/// Copies `from` into `to`, recursively.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// An app with only the asset server and the art, reading `root`.
fn art_app(root: &Path) -> App {
    let mut app = asset_app(root);
    app.init_asset::<Image>().add_plugins(ArtPlugin);
    app
}

#[test]
fn a_replaced_symbol_file_is_what_the_game_loads_and_a_broken_one_is_reported() {
    let root = std::env::temp_dir().join(format!("warhorse-art-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    copy_tree(&assets(), &root);
    let red = r##"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="#ff0000"/></svg>"##;
    std::fs::write(root.join("art/symbols/knight.svg"), red).expect("write");
    std::fs::write(root.join("art/symbols/archer.svg"), "<svg").expect("write");

    let mut app = art_app(&root);
    let knight = {
        app.update();
        app.world().resource::<CounterArt>().symbol(Symbol::Knight)
    };
    update_until(&mut app, |app| {
        let loaded = app
            .world()
            .resource::<Assets<Image>>()
            .get(&knight)
            .is_some();
        loaded && !app.world().resource::<ArtProblems>().lines.is_empty()
    });
    let images = app.world().resource::<Assets<Image>>();
    let image = images.get(&knight).expect("loaded");
    assert_eq!((image.width(), image.height()), (8, 8));
    assert_eq!(
        pixel(image, 4, 4),
        [255, 0, 0, 255],
        "the new file, not the shipped one"
    );
    let problems = &app.world().resource::<ArtProblems>().lines;
    assert!(
        problems
            .iter()
            .any(|l| l.contains("art/symbols/archer.svg")),
        "{problems:?}"
    );
    let _ = std::fs::remove_dir_all(&root);
}
