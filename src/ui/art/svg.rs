//! Bevy asset loaders for the SVG art in `assets/art/` (issue 16 item 1): a player or modder
//! edits a file and the game draws it, no recompiling. `resvg` rasterises (issue 16 item 6:
//! a well-kept library instead of a hand-written rasteriser); these loaders only choose the
//! pixel size and, for map tiles, frame the cell.
//!
//! - `*.svg` ([`SvgLoader`]): an image at the SVG's own width and height.
//! - `*.tile.svg` ([`TileLoader`]): a terrain tile, scaled to exactly one map cell whatever
//!   the file's size (the tilemap needs every tile the same size), with the grid edge drawn;
//!   the sub-asset `#hex` is the same ground cut to a pointy-top hex.
//!
//! Art files are untrusted (a modder's download): one is read up to [`MAX_SVG_BYTES`], its
//! XML and every reference in it (`<use>`, `href`, `url(#…)`) expanded at most to
//! [`MAX_SVG_NODES`] before anything is drawn, and nothing outside the file is ever read (an
//! `<image>` is not drawn, whatever it points to).

use crate::rules::grid::GridKind;
use bevy::asset::io::Reader;
use bevy::asset::{AssetLoader, LoadContext, RenderAssetUsages};
use bevy::image::Image;
use bevy::reflect::TypePath;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use resvg::tiny_skia::{self, FillRule, Mask, Paint, PathBuilder, Pixmap, Stroke, Transform};
use resvg::usvg;
use resvg::usvg::roxmltree;

/// Why an art file could not be drawn; the asset server logs it with the file's path.
#[derive(Debug, thiserror::Error)]
pub enum ArtError {
    /// The file could not be read.
    #[error("cannot read the file: {0}")]
    Io(#[from] std::io::Error),
    /// The file is not an SVG that `resvg` understands.
    #[error("not a valid SVG: {0}")]
    Svg(#[from] usvg::Error),
    /// The file is bigger than [`MAX_SVG_BYTES`].
    #[error("limit: the file has more than {MAX_SVG_BYTES} bytes; art is read up to that")]
    TooBig,
    /// Its elements, with every `<use>` and reference expanded, pass [`MAX_SVG_NODES`].
    #[error(
        "limit: the SVG has more than {MAX_SVG_NODES} elements once its references are \
         expanded; art is drawn up to that"
    )]
    TooComplex,
    /// The SVG asks for an empty or absurd picture.
    #[error("the SVG's size {0}×{1} is not between 1 and {MAX_PX} pixels a side")]
    Size(u32, u32),
}

/// The largest side an art file may ask for: a counter is drawn a few hundred pixels wide at
/// most, so a bigger request is a mistake, not art (and would cost memory for nothing).
pub const MAX_PX: u32 = 2048;

/// The largest art file read, in bytes: the game's own art files are a few kilobytes each.
pub const MAX_SVG_BYTES: u64 = 1024 * 1024;

/// The most XML nodes an art file may have, counting what every `<use>`, `href` and
/// `url(#…)` points to once for each reference (so a `<use>` bomb is refused before it is
/// expanded, after at most this many steps).
pub const MAX_SVG_NODES: u32 = 100_000;

/// The options every art file is parsed with: no folder to resolve relative paths in, and
/// images resolved to nothing (neither paths nor embedded data are read or decoded).
fn options() -> usvg::Options<'static> {
    usvg::Options {
        resources_dir: None,
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: Box::new(|_, _, _| None),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    }
}

/// How many nodes `doc` comes to with every reference expanded, counted by walking it as
/// the renderer would; stops (and says so) past [`MAX_SVG_NODES`], so a reference loop or an
/// exponential `<use>` bomb costs at most that many steps.
fn within_node_limit(doc: &roxmltree::Document) -> bool {
    let ids: std::collections::HashMap<&str, roxmltree::Node> = doc
        .descendants()
        .filter_map(|n| n.attribute("id").map(|id| (id, n)))
        .collect();
    let mut stack = vec![doc.root()];
    let mut count = 0u32;
    while let Some(node) = stack.pop() {
        count += 1;
        if count > MAX_SVG_NODES {
            return false;
        }
        stack.extend(node.children());
        for a in node.attributes() {
            let v = a.value();
            let target = if a.name() == "href" {
                v.strip_prefix('#')
            } else {
                v.split_once("url(#")
                    .and_then(|(_, rest)| rest.split_once(')'))
                    .map(|(id, _)| id.trim_matches(['\'', '"', ' ']))
            };
            if let Some(t) = target.and_then(|id| ids.get(id)) {
                stack.push(*t);
            }
        }
    }
    true
}

/// Parses art bytes within the limits (size, nodes, expansion) and with [`options`].
pub fn parse_svg(bytes: &[u8]) -> Result<usvg::Tree, ArtError> {
    if bytes.len() as u64 > MAX_SVG_BYTES {
        return Err(ArtError::TooBig);
    }
    let text = std::str::from_utf8(bytes).map_err(|_| usvg::Error::NotAnUtf8Str)?;
    let xml = roxmltree::ParsingOptions {
        allow_dtd: true,
        nodes_limit: MAX_SVG_NODES,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = roxmltree::Document::parse_with_options(text, xml).map_err(|e| match e {
        roxmltree::Error::NodesLimitReached => ArtError::TooComplex,
        e => ArtError::Svg(usvg::Error::ParsingFailed(e)),
    })?;
    if !within_node_limit(&doc) {
        return Err(ArtError::TooComplex);
    }
    Ok(usvg::Tree::from_xmltree(&doc, &options())?)
}

/// Loads `*.svg` files as images at their own size.
#[derive(Default, TypePath)]
pub struct SvgLoader;

impl AssetLoader for SvgLoader {
    type Asset = Image;
    type Settings = ();
    type Error = ArtError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        _load_context: &mut LoadContext<'_>,
    ) -> Result<Image, ArtError> {
        own_size(&read_tree(reader).await?)
    }

    fn extensions(&self) -> &[&str] {
        &["svg"]
    }
}

/// Loads `*.tile.svg` terrain tiles: the square tile, and the hex tile as the `hex` label.
#[derive(Default, TypePath)]
pub struct TileLoader;

impl AssetLoader for TileLoader {
    type Asset = Image;
    type Settings = ();
    type Error = ArtError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<Image, ArtError> {
        let tree = read_tree(reader).await?;
        load_context.add_labeled_asset("hex", to_image(&tile(&tree, GridKind::Hex)?));
        Ok(to_image(&tile(&tree, GridKind::Square)?))
    }

    fn extensions(&self) -> &[&str] {
        &["tile.svg"]
    }
}

/// Reads an art file from the asset server, at most [`MAX_SVG_BYTES`] (and one byte more to
/// know it is too big: a file that never ends, such as `/dev/zero`, is refused there).
async fn read_tree(reader: &mut dyn Reader) -> Result<usvg::Tree, ArtError> {
    use bevy::tasks::futures_lite::AsyncReadExt as _;
    let mut bytes = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = reader.read(&mut buf).await?;
        if n == 0 {
            break;
        }
        bytes.extend_from_slice(buf.get(..n).unwrap_or_default());
        if bytes.len() as u64 > MAX_SVG_BYTES {
            return Err(ArtError::TooBig);
        }
    }
    parse_svg(&bytes)
}

/// Draws `tree` scaled to `scale_w` × `scale_h`, centred on a `w` × `h` pixmap (so a wider
/// drawing is cropped evenly on both sides).
fn render(
    tree: &usvg::Tree,
    w: u32,
    h: u32,
    scale_w: f32,
    scale_h: f32,
) -> Result<Pixmap, ArtError> {
    if !(1..=MAX_PX).contains(&w) || !(1..=MAX_PX).contains(&h) {
        return Err(ArtError::Size(w, h));
    }
    let mut pixmap = Pixmap::new(w, h).ok_or(ArtError::Size(w, h))?;
    let size = tree.size();
    let (sx, sy) = (scale_w / size.width(), scale_h / size.height());
    let (dx, dy) = ((w as f32 - scale_w) / 2.0, (h as f32 - scale_h) / 2.0);
    let transform = Transform::from_row(sx, 0.0, 0.0, sy, dx, dy);
    resvg::render(tree, transform, &mut pixmap.as_mut());
    Ok(pixmap)
}

/// Pixel size of one terrain tile: a square cell, or a pointy-top hex of the same width
/// (height rounded up). The tilemap draws tiles at this size in world units.
pub fn tile_pixels(grid: GridKind, cell: f32) -> (u32, u32) {
    let w = cell.round() as u32;
    match grid {
        GridKind::Square => (w, w),
        GridKind::Hex => (w, (cell * 2.0 / 3f32.sqrt()).ceil() as u32),
    }
}

/// The colour of the cell edge drawn on every tile, which doubles as the map's grid lines.
const EDGE: [u8; 4] = [40, 44, 36, 110];

/// A terrain tile for `grid`: the drawing stretched over the cell (a hex takes the middle of
/// a square as tall as the hex, so nothing is squashed), cut to the cell and edged.
fn tile(tree: &usvg::Tree, grid: GridKind) -> Result<Pixmap, ArtError> {
    let (w, h) = tile_pixels(grid, crate::ui::layout::CELL_PX);
    let mut pixmap = render(tree, w, h, h as f32, h as f32)?;
    let (wf, hf) = (w as f32, h as f32);
    let outline = match grid {
        GridKind::Square => {
            tiny_skia::Rect::from_xywh(0.5, 0.5, wf - 1.0, hf - 1.0).map(PathBuilder::from_rect)
        }
        GridKind::Hex => {
            let mut hex = PathBuilder::new();
            let corners = [
                (wf / 2.0, 0.0),
                (wf, hf / 4.0),
                (wf, hf * 3.0 / 4.0),
                (wf / 2.0, hf),
                (0.0, hf * 3.0 / 4.0),
                (0.0, hf / 4.0),
            ];
            hex.move_to(corners[0].0, corners[0].1);
            for (x, y) in &corners[1..] {
                hex.line_to(*x, *y);
            }
            hex.close();
            let hex = hex.finish();
            if let Some(path) = &hex {
                let mut mask = Mask::new(w, h).ok_or(ArtError::Size(w, h))?;
                mask.fill_path(path, FillRule::Winding, true, Transform::identity());
                pixmap.apply_mask(&mask);
            }
            hex
        }
    };
    if let Some(path) = outline {
        let mut paint = Paint::default();
        paint.set_color_rgba8(EDGE[0], EDGE[1], EDGE[2], EDGE[3]);
        paint.anti_alias = true;
        let stroke = Stroke {
            width: 1.5,
            ..Stroke::default()
        };
        pixmap.stroke_path(&path, &paint, &stroke, Transform::identity(), None);
    }
    Ok(pixmap)
}

/// A pixmap as a Bevy image (straight alpha, sRGB), usable on sprites, tilemaps and egui.
fn to_image(pixmap: &Pixmap) -> Image {
    let data = pixmap
        .pixels()
        .iter()
        .flat_map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue(), c.alpha()]
        })
        .collect();
    Image::new(
        Extent3d {
            width: pixmap.width(),
            height: pixmap.height(),
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::MAIN_WORLD | RenderAssetUsages::RENDER_WORLD,
    )
}

/// Rasterises SVG text at its own size, for tests and tools that have no asset server.
pub fn rasterise(svg: &[u8]) -> Result<Image, ArtError> {
    own_size(&parse_svg(svg)?)
}

/// The drawing at the width and height the file gives.
fn own_size(tree: &usvg::Tree) -> Result<Image, ArtError> {
    let size = tree.size();
    let (w, h) = (size.width().ceil() as u32, size.height().ceil() as u32);
    Ok(to_image(&render(tree, w, h, w as f32, h as f32)?))
}

/// Rasterises SVG text as a terrain tile for `grid`, as [`TileLoader`] does.
pub fn rasterise_tile(svg: &[u8], grid: GridKind) -> Result<Image, ArtError> {
    let tree = parse_svg(svg)?;
    Ok(to_image(&tile(&tree, grid)?))
}
