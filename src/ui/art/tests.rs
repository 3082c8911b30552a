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
    app.init_asset::<Image>()
        .insert_resource(AssetFolder(root.to_path_buf()))
        .add_plugins(ArtPlugin);
    app
}

/// A FIFO and a link to `/dev/zero` as art: both refused by kind at once, named on screen,
/// and the rest of the art loads.
#[cfg(unix)]
#[test]
fn a_fifo_or_dev_zero_as_art_is_refused_and_reported() {
    let root = std::env::temp_dir().join(format!("warhorse-art-special-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    copy_tree(&assets(), &root);
    let fifo = root.join("art/symbols/knight.svg");
    std::fs::remove_file(&fifo).expect("rm");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let zero = root.join("art/symbols/archer.svg");
    std::fs::remove_file(&zero).expect("rm");
    std::os::unix::fs::symlink("/dev/zero", &zero).expect("link");
    let mut app = art_app(&root);
    app.update();
    let lines = app.world().resource::<ArtProblems>().lines.clone();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("knight.svg") && l.contains("FIFO")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("archer.svg") && l.contains("device")),
        "{lines:?}"
    );
    let plate = app.world().resource::<CounterArt>().plate.clone();
    update_until(&mut app, |app| {
        app.world()
            .resource::<Assets<Image>>()
            .get(&plate)
            .is_some()
    });
    let _ = std::fs::remove_dir_all(&root);
}

/// An `<image>` pointing outside the file is not read (a FIFO or `/dev/zero` there would
/// block or never end): the drawing loads without it, at once.
#[cfg(unix)]
#[test]
fn an_svg_with_an_outside_image_reads_nothing_outside() {
    let dir = std::env::temp_dir().join(format!("warhorse-art-href-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    let fifo = dir.join("fifo.png");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    for target in ["/dev/zero".to_string(), fifo.to_string_lossy().into_owned()] {
        let svg = format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="8" height="8"><rect width="8" height="8" fill="#ff0000"/><image width="8" height="8" xlink:href="{target}"/><image width="8" height="8" href="file://{target}"/></svg>"##
        );
        let image = rasterise(svg.as_bytes()).expect("draws without the image");
        assert_eq!(pixel(&image, 4, 4), [255, 0, 0, 255], "{target}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `<use>` bomb (each level uses the one below ten times: 10^9 copies) and a file over the
/// size cap are refused before anything is drawn.
#[test]
fn a_use_bomb_and_an_oversized_file_are_refused_at_once() {
    let mut svg = String::from(
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="8" height="8"><defs><rect id="l0" width="1" height="1"/>"#,
    );
    for level in 1..10 {
        svg += &format!(r#"<g id="l{level}">"#);
        for _ in 0..10 {
            svg += &format!(r##"<use xlink:href="#l{}"/>"##, level - 1);
        }
        svg += "</g>";
    }
    svg += r##"</defs><use xlink:href="#l9"/></svg>"##;
    let started = std::time::Instant::now();
    let why = rasterise(svg.as_bytes()).expect_err("refused");
    assert!(matches!(why, svg::ArtError::TooComplex), "{why}");
    assert!(started.elapsed().as_secs() < 5, "refused quickly");
    let big = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><!--{}--></svg>"#,
        " ".repeat(svg::MAX_SVG_BYTES as usize)
    );
    assert!(matches!(
        rasterise(big.as_bytes()),
        Err(svg::ArtError::TooBig)
    ));
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
