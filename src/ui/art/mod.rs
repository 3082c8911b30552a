//! The game's art: SVG files in `assets/art/`, loaded through Bevy's `AssetServer` with the
//! loaders of [`svg`], so that a player or modder replaces a counter, a symbol or a tile by
//! editing a file (issue 16 item 1). `assets/README.md` lists every file and its conventions.
//! This module only names the files and keeps their handles; a file that fails to load is
//! reported in [`ArtProblems`] (shown on screen), and its sprite stays empty.

pub mod svg;
pub mod terrain;

use super::look::Symbol;
use bevy::asset::{LoadState, UntypedAssetId};
use bevy::prelude::*;
use std::collections::HashMap;

/// The folder the asset server reads, as `AssetPlugin::file_path`: `assets/` in the working
/// directory (a checkout, `cargo run`), else beside the executable (an installed game), as
/// `levels/` is found; `BEVY_ASSET_ROOT`, when set, is Bevy's to honour.
pub fn asset_folder() -> String {
    match super::data_folders("assets").into_iter().next() {
        Some(dir) if std::env::var_os("BEVY_ASSET_ROOT").is_none() => dir
            .canonicalize()
            .unwrap_or(dir)
            .to_string_lossy()
            .into_owned(),
        _ => "assets".to_string(),
    }
}

/// The folder the asset server reads (as given to `AssetPlugin`), where art and sounds are
/// checked before they are handed to it ([`refused_asset`]); [`asset_folder`] when absent.
#[derive(Resource, Clone, Debug)]
pub struct AssetFolder(pub std::path::PathBuf);

/// Registers the SVG loaders and starts loading every art file before anything needs it.
pub struct ArtPlugin;

impl Plugin for ArtPlugin {
    fn build(&self, app: &mut App) {
        app.register_asset_loader(svg::SvgLoader)
            .register_asset_loader(svg::TileLoader)
            .init_resource::<ArtProblems>()
            .add_systems(PreStartup, load_art)
            .add_systems(Update, note_broken_art);
    }
}

/// Handles to the counter pieces, shared by every counter (the tinted ones take the side's
/// colour through `Sprite::color`), so a thousand counters cost a few dozen textures.
#[derive(Resource, Clone, Debug)]
pub struct CounterArt {
    /// The counter body, tinted with the side's colour (`counters/body.svg`).
    pub body: Handle<Image>,
    /// The cream box the troop symbol is printed on (`counters/plate.svg`).
    pub plate: Handle<Image>,
    /// The facing marker at the front edge (`markers/front.svg`).
    pub front: Handle<Image>,
    /// Selection ring, also the flash of a hit (`markers/ring.svg`).
    pub ring: Handle<Image>,
    /// Wound mark, tinted red for the figure and orange for its mount (`markers/wound.svg`).
    pub wound: Handle<Image>,
    /// Leader or hero star (`markers/leader.svg`).
    pub leader: Handle<Image>,
    /// "Has moved this half-move" mark (`markers/moved.svg`).
    pub moved: Handle<Image>,
    /// A shot in flight (`markers/arrow.svg`).
    pub arrow: Handle<Image>,
    /// One heraldic mark per side, cycled (`heraldry/side-N.svg`): sides differ by shape as
    /// well as colour.
    pub heraldry: Vec<Handle<Image>>,
    /// The troop symbols (`symbols/<name>.svg`).
    pub symbols: HashMap<Symbol, Handle<Image>>,
}

impl CounterArt {
    /// The symbol's image (every symbol is loaded, so this never misses).
    pub fn symbol(&self, symbol: Symbol) -> Handle<Image> {
        self.symbols.get(&symbol).cloned().unwrap_or_default()
    }

    /// The heraldic mark of side `side`.
    pub fn heraldry_of(&self, side: u8) -> Handle<Image> {
        let n = self.heraldry.len().max(1);
        self.heraldry
            .get(usize::from(side) % n)
            .cloned()
            .unwrap_or_default()
    }
}

/// Handles to the terrain tiles by name (see [`terrain::TILES`]): square and hex cuts.
#[derive(Resource, Clone, Debug)]
pub struct TerrainArt {
    /// Square tiles.
    pub square: HashMap<&'static str, Handle<Image>>,
    /// Pointy-top hex tiles (the `#hex` sub-asset of the same file).
    pub hex: HashMap<&'static str, Handle<Image>>,
}

/// How many heraldic marks there are; more sides cycle through them.
pub const HERALDRY: u8 = 4;

/// Art files that could not be loaded, with why, in the order found: shown to the player so a
/// broken mod is a message, not a missing counter nobody can explain.
#[derive(Resource, Debug, Default)]
pub struct ArtProblems {
    /// `path: reason` lines.
    pub lines: Vec<String>,
    /// Every art handle, with its path, to watch for failures (emptied as they settle).
    watching: Vec<(String, UntypedAssetId)>,
}

impl ArtProblems {
    /// Watches a file being loaded, so that a failure to load it is reported (the sounds
    /// use this too: a broken WAV is named like a broken picture).
    pub fn watch(&mut self, path: String, id: UntypedAssetId) {
        self.watching.push((path, id));
    }
}

/// Why the asset file `path` (relative to the asset folder, a `#label` ignored) must not be
/// handed to the asset server: not a regular file (a FIFO would hold a loading thread for
/// ever, a link to `/dev/zero` never end) or over `limit` bytes. `None` when it may be loaded
/// (a missing file included: the asset server names it).
pub fn refused_asset(folder: &std::path::Path, path: &str, limit: u64) -> Option<String> {
    let file = path.split('#').next().unwrap_or(path);
    let on_disk = folder.join(file);
    if on_disk.symlink_metadata().is_err() {
        return None;
    }
    crate::level::input::check_file(&on_disk, limit)
        .err()
        .map(|e| format!("{path}: {e}"))
}

fn load_art(
    mut commands: Commands,
    server: Res<AssetServer>,
    folder: Option<Res<AssetFolder>>,
    mut problems: ResMut<ArtProblems>,
) {
    let folder = folder.map_or_else(|| asset_folder().into(), |f| f.0.clone());
    let mut load = |path: String| -> Handle<Image> {
        if let Some(why) = refused_asset(&folder, &path, svg::MAX_SVG_BYTES) {
            error!("not loaded: {why}");
            problems.lines.push(why);
            return Handle::default();
        }
        let handle: Handle<Image> = server.load(path.clone());
        problems.watch(path, handle.id().untyped());
        handle
    };
    commands.insert_resource(CounterArt {
        body: load("art/counters/body.svg".into()),
        plate: load("art/counters/plate.svg".into()),
        front: load("art/markers/front.svg".into()),
        ring: load("art/markers/ring.svg".into()),
        wound: load("art/markers/wound.svg".into()),
        leader: load("art/markers/leader.svg".into()),
        moved: load("art/markers/moved.svg".into()),
        arrow: load("art/markers/arrow.svg".into()),
        heraldry: (0..HERALDRY)
            .map(|n| load(format!("art/heraldry/side-{n}.svg")))
            .collect(),
        symbols: Symbol::ALL
            .iter()
            .map(|s| (*s, load(format!("art/symbols/{}.svg", s.file_stem()))))
            .collect(),
    });
    let tiles = |label: &str, load: &mut dyn FnMut(String) -> Handle<Image>| {
        terrain::TILES
            .iter()
            .map(|name| (*name, load(format!("art/terrain/{name}.tile.svg{label}"))))
            .collect()
    };
    let square = tiles("", &mut load);
    let hex = tiles("#hex", &mut load);
    commands.insert_resource(TerrainArt { square, hex });
}

/// Moves failed loads from watching to [`ArtProblems::lines`], once each, and logs them.
fn note_broken_art(server: Res<AssetServer>, mut problems: ResMut<ArtProblems>) {
    if problems.watching.is_empty() {
        return;
    }
    let mut failed = Vec::new();
    problems
        .watching
        .retain(|(path, id)| match server.load_state(*id) {
            LoadState::Failed(why) => {
                failed.push(format!("{path}: {why}"));
                false
            }
            LoadState::Loaded => false,
            _ => true,
        });
    for line in failed {
        error!("not loaded: {line}");
        problems.lines.push(line);
    }
}

#[cfg(test)]
mod tests;
