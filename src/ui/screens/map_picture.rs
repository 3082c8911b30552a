//! The chosen level's map as a small picture on the start screen (issue 34, "a start screen
//! that shows a picture of the chosen level's map"): its terrain in the colours of the map's
//! own tiles, each figure a dot in its side's colour, the cells an objective names edged in
//! gold — so a player sees the ground and who stands where before choosing a side.
//!
//! The picture is made from the level as loaded (the board and figures everybody sees at the
//! start), one texture per level and palette, kept in egui's memory while the choice stays.

use crate::level::Level;
use crate::rules::board::Board;
use crate::rules::grid::{Cell, GridKind};
use crate::rules::victory::Goal;
use crate::ui::art::terrain::{terrain_tile, tile_base_rgb};
use bevy_egui::egui;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

/// The longer side of the picture in texture pixels: a small map gets several pixels a cell,
/// a large one is sampled down to this.
const LONG_SIDE: usize = 384;

/// The start screen's background, for the half cells a hex map's rows leave empty.
pub const BACKGROUND: egui::Color32 = egui::Color32::from_rgb(24, 26, 30);

/// Gold of the objective edges, as on the map's objective rings.
const GOLD: [u8; 3] = [230, 190, 70];

/// Draws the picture of `level`, at most `max` points on its longer side, with `side_rgb`
/// giving each side's colour.
pub fn show(ui: &mut egui::Ui, level: &Level, side_rgb: &dyn Fn(u8) -> [u8; 3], max: f32) {
    let board = &level.board;
    if board.width <= 0 || board.height <= 0 {
        return;
    }
    // Asked every frame: the level's text (up to megabytes at the limits) is hashed with
    // xxh3, not SipHash, and the rest is a few bytes.
    let mut key = std::collections::hash_map::DefaultHasher::new();
    level.source.hash(&mut key);
    xxhash_rust::xxh3::xxh3_64(level.text.as_bytes()).hash(&mut key);
    for side in 0..level.file.sides.len() {
        side_rgb(side as u8).hash(&mut key);
    }
    let key = key.finish();
    let id = egui::Id::new("warhorse-map-picture");
    let cached = ui
        .ctx()
        .data(|d| d.get_temp::<(u64, egui::TextureHandle)>(id))
        .filter(|(k, _)| *k == key)
        .map(|(_, t)| t);
    let texture = cached.unwrap_or_else(|| {
        let t = ui.ctx().load_texture(
            "map-picture",
            picture(level, side_rgb),
            egui::TextureOptions::LINEAR,
        );
        ui.ctx().data_mut(|d| d.insert_temp(id, (key, t.clone())));
        t
    });
    let [w, h] = texture.size();
    let scale = max / w.max(h) as f32;
    ui.add(
        egui::Image::new(&texture)
            .fit_to_exact_size(egui::vec2(w as f32 * scale, h as f32 * scale))
            .corner_radius(3.0),
    )
    .on_hover_text(format!(
        "{}: the map at the start, each figure a dot in its side's colour, objectives edged \
         in gold",
        level.file.name
    ));
}

/// How the picture's pixels fall on cells.
struct Frame {
    /// Pixels a cell on each side (fractional when the map is sampled down).
    cell: f32,
    /// Width and height in pixels.
    size: [usize; 2],
    /// Hex maps: odd rows sit half a cell right ("odd-r", as on the map).
    hex: bool,
}

impl Frame {
    fn of(board: &Board) -> Frame {
        let hex = board.grid == GridKind::Hex;
        // Half a cell more across for the shifted rows of a hex map.
        let across = board.width as f32 + if hex { 0.5 } else { 0.0 };
        let long = across.max(board.height as f32);
        // Whole pixels a cell when the map is small enough; otherwise the map is sampled.
        let fit = LONG_SIDE as f32 / long;
        let cell = if fit >= 1.0 { fit.floor() } else { fit };
        let size = [
            ((across * cell).ceil() as usize).max(1),
            ((board.height as f32 * cell).ceil() as usize).max(1),
        ];
        Frame { cell, size, hex }
    }

    /// How far right row `y` starts, in cells.
    fn shift(&self, y: i32) -> f32 {
        if self.hex && y % 2 == 1 { 0.5 } else { 0.0 }
    }

    /// The index of the pixel the centre of cell `c` falls in.
    fn centre_pixel(&self, c: Cell) -> usize {
        let [w, h] = self.size;
        let px = (((c.x as f32 + 0.5 + self.shift(c.y)) * self.cell) as usize).min(w - 1);
        let py = (((c.y as f32 + 0.5) * self.cell) as usize).min(h - 1);
        py * w + px
    }

    /// The cell under pixel `(px, py)` and where in it the pixel's centre falls (0..1 each
    /// way), or `None` in the half cell a hex row leaves empty.
    fn cell_at(&self, board: &Board, px: usize, py: usize) -> Option<(Cell, f32, f32)> {
        let fy = (py as f32 + 0.5) / self.cell;
        // The last row of pixels may reach past the map when it is sampled down.
        let y = (fy.floor() as i32).min(board.height - 1);
        let fx = (px as f32 + 0.5) / self.cell - self.shift(y);
        let x = fx.floor() as i32;
        let x = if self.hex { x } else { x.min(board.width - 1) };
        let c = Cell::new(x, y);
        board
            .contains(c)
            .then_some((c, fx - x as f32, fy - y as f32))
    }
}

/// The cells some objective of the level names: the areas to hold or reach, the edge to
/// leave by.
fn objective_cells(level: &Level) -> HashSet<Cell> {
    let b = &level.board;
    let mut out = HashSet::new();
    for o in &level.victory.objectives {
        match &o.goal {
            Goal::Hold { area, .. } | Goal::Reach { area, .. } => {
                out.extend(area.iter().map(|&(x, y)| Cell::new(x, y)));
            }
            Goal::Exit { edge, .. } => {
                out.extend(b.cells().filter(|&c| edge.holds(c, b.width, b.height)));
            }
            _ => {}
        }
    }
    out
}

/// The picture of `level`: terrain, objective edges, then a dot for each figure.
pub fn picture(level: &Level, side_rgb: &dyn Fn(u8) -> [u8; 3]) -> egui::ColorImage {
    let board = &level.board;
    let frame = Frame::of(board);
    let looks: Vec<[u8; 3]> = board
        .terrains
        .iter()
        .map(|t| {
            let (tile, tint) = terrain_tile(t);
            let [r, g, b] = tile_base_rgb(tile);
            let tint = tint.to_srgba();
            let mul = |v: u8, f: f32| (f32::from(v) * f).round() as u8;
            [mul(r, tint.red), mul(g, tint.green), mul(b, tint.blue)]
        })
        .collect();
    let sides: Vec<Option<u8>> = {
        let mut at = vec![None; board.terrain.len()];
        for f in &level.figures {
            if board.contains(f.at) {
                at[board.index(f.at)] = Some(f.side);
            }
        }
        at
    };
    let goals = objective_cells(level);
    // An edge a pixel wide at least, an eighth of a cell on large pictures.
    let edge = (1.0 / frame.cell).max(0.125);
    let [w, h] = frame.size;
    let mut pixels = Vec::with_capacity(w * h);
    for py in 0..h {
        for px in 0..w {
            let Some((c, u, v)) = frame.cell_at(board, px, py) else {
                pixels.push(BACKGROUND);
                continue;
            };
            let i = board.index(c);
            let terrain = usize::from(board.terrain.get(i).copied().unwrap_or(0));
            let mut rgb = looks.get(terrain).copied().unwrap_or([150, 150, 150]);
            let on_edge = u < edge || v < edge || u > 1.0 - edge || v > 1.0 - edge;
            if on_edge && goals.contains(&c) {
                rgb = GOLD;
            }
            if let Some(side) = sides[i] {
                let (du, dv) = (u - 0.5, v - 0.5);
                // A dot filling most of the cell; the whole cell when a cell is a pixel.
                if frame.cell < 3.0 || du * du + dv * dv <= 0.40 * 0.40 {
                    rgb = side_rgb(side);
                } else if du * du + dv * dv <= 0.48 * 0.48 {
                    rgb = [20, 20, 20];
                }
            }
            pixels.push(egui::Color32::from_rgb(rgb[0], rgb[1], rgb[2]));
        }
    }
    if frame.cell < 1.0 {
        // Sampled down, a cell may have no pixel of its own: each figure takes the pixel
        // its cell's centre falls in, so nobody disappears from a large map.
        for f in level.figures.iter().filter(|f| board.contains(f.at)) {
            let [r, g, b] = side_rgb(f.side);
            pixels[frame.centre_pixel(f.at)] = egui::Color32::from_rgb(r, g, b);
        }
    }
    egui::ColorImage::new([w, h], pixels)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::default_level;

    fn red_blue(side: u8) -> [u8; 3] {
        if side == 0 { [255, 0, 0] } else { [0, 0, 255] }
    }

    /// The pixel at the centre of cell `c`.
    fn centre(level: &Level, img: &egui::ColorImage, c: Cell) -> egui::Color32 {
        img.pixels[Frame::of(&level.board).centre_pixel(c)]
    }

    /// Every figure of `level` is a dot of its side's colour on its own cell.
    fn every_figure_dotted(level: &Level, img: &egui::ColorImage) {
        for f in &level.figures {
            let [r, g, b] = red_blue(f.side);
            assert_eq!(
                centre(level, img, f.at),
                egui::Color32::from_rgb(r, g, b),
                "{} at {:?}",
                f.id,
                f.at
            );
        }
    }

    #[test]
    fn each_figure_is_a_dot_of_its_sides_colour_on_its_own_cell() {
        let level = default_level().expect("the default level loads");
        let img = picture(&level, &red_blue);
        assert!(img.size[0] <= LONG_SIDE && img.size[1] <= LONG_SIDE);
        every_figure_dotted(&level, &img);
        // A cell nobody stands on, of a named (untinted) tile, shows the tile's colour.
        let (empty, tile) = level
            .board
            .cells()
            .filter(|c| level.figures.iter().all(|f| f.at != *c))
            .map(|c| (c, terrain_tile(level.board.terrain_at(c)).0))
            .find(|(_, tile)| *tile != "plain")
            .expect("an empty cell of a named tile");
        let [r, g, b] = tile_base_rgb(tile);
        assert_eq!(
            centre(&level, &img, empty),
            egui::Color32::from_rgb(r, g, b)
        );
    }

    #[test]
    fn a_hex_maps_odd_rows_sit_half_a_cell_right() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/realms_ambush.ron");
        let hex = crate::level::load_level_file(&path).expect("Ambush in the Ruins loads");
        assert_eq!(hex.board.grid, GridKind::Hex);
        let img = picture(&hex, &red_blue);
        let f = Frame::of(&hex.board);
        // Row 1's first cell starts half a cell in: row 1's leftmost pixel is the background,
        // row 0's is its first cell.
        let row = |y: f32| (y * f.cell) as usize * img.size[0];
        assert_eq!(img.pixels[row(1.5)], BACKGROUND);
        assert_ne!(img.pixels[row(0.5)], BACKGROUND);
        // The Wardens leave by the east edge: its cells are edged in gold, a cell one in from
        // it is not.
        let gold = egui::Color32::from_rgb(GOLD[0], GOLD[1], GOLD[2]);
        let left_edge_of = |x: i32| row(0.5) + (x as f32 * f.cell) as usize;
        assert_eq!(img.pixels[left_edge_of(hex.board.width - 1)], gold);
        assert_ne!(img.pixels[left_edge_of(hex.board.width - 3)], gold);
        every_figure_dotted(&hex, &img);
    }

    #[test]
    fn a_map_at_the_limits_is_sampled_down_to_the_pictures_size() {
        let mut huge = default_level().expect("the default level loads");
        let terrains = huge.board.terrains.clone();
        huge.board = Board::new(GridKind::Square, 512, 300, terrains);
        huge.figures.truncate(1);
        huge.figures[0].at = Cell::new(511, 299);
        let img = picture(&huge, &red_blue);
        assert_eq!(img.size[0], LONG_SIDE);
        assert_eq!(
            img.size[1],
            (300.0 * LONG_SIDE as f32 / 512.0).ceil() as usize
        );
        // The one figure, in the bottom-right corner, is still a pixel of its colour.
        assert_eq!(*img.pixels.last().unwrap(), egui::Color32::RED);
    }
}
