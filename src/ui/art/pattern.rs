//! The patterns drawn over terrain ground colours. Sizes are in units of 1/64 of the tile
//! width so the art scales with the cell size; scattered items come from a seeded hash so a
//! terrain looks the same on every run.

use super::raster::{Canvas, Rgba, hash2, in_round_rect, in_triangle};
use super::terrain::{Pattern, TerrainStyle};

/// Points scattered over the tile on a jittered `k` × `k` grid, the same for the same seed.
fn scatter(w: f32, h: f32, k: u32, seed: u32) -> Vec<(f32, f32)> {
    let mut pts = Vec::new();
    for j in 0..k {
        for i in 0..k {
            let r = hash2(i, j, seed);
            let jx = (r & 0xff) as f32 / 255.0 - 0.5;
            let jy = ((r >> 8) & 0xff) as f32 / 255.0 - 0.5;
            let x = (i as f32 + 0.5 + jx * 0.6) * w / k as f32;
            let y = (j as f32 + 0.5 + jy * 0.6) * h / k as f32;
            pts.push((x, y));
        }
    }
    pts
}

/// Draws `s`'s pattern over the whole canvas.
pub fn draw_pattern(c: &mut Canvas, s: &TerrainStyle, seed: u32) {
    let (w, h) = (c.width as f32, c.height as f32);
    let ink = s.ink;
    let u = w / 64.0; // pattern unit: sizes scale with the tile
    match s.pattern {
        Pattern::Grass => {
            for (x, y) in scatter(w, h, 5, seed) {
                c.fill(ink, |px, py| {
                    (px - x).abs() < 0.8 * u && py < y && py > y - 3.0 * u
                });
            }
        }
        Pattern::Trees | Pattern::Bushes => {
            let (k, r) = if s.pattern == Pattern::Trees {
                (3, 9.0 * u)
            } else {
                (4, 4.5 * u)
            };
            let crown = lighten(s.base, 28);
            for (x, y) in scatter(w, h, k, seed) {
                c.fill(ink, |px, py| {
                    (px - x).powi(2) + (py - y - u).powi(2) < r * r
                });
                c.fill(crown, |px, py| {
                    (px - x + u).powi(2) + (py - y + u).powi(2) < (r - 1.8 * u).powi(2)
                });
            }
        }
        Pattern::Reeds => {
            for (x, y) in scatter(w, h, 4, seed) {
                c.fill(ink, |px, py| {
                    (py - y).abs() < 0.7 * u && (px - x).abs() < 5.0 * u
                });
                c.fill(darken(s.base, 50), |px, py| {
                    py < y - u
                        && py > y - 6.0 * u
                        && ((px - x).abs() < 0.6 * u || (px - x - 2.5 * u).abs() < 0.6 * u)
                });
            }
        }
        Pattern::Waves => {
            for row in 0..5 {
                let y0 = (row as f32 + 0.5) * h / 5.0;
                let phase = (seed + row) as f32;
                c.fill(ink, |px, py| {
                    (py - y0 - 2.0 * u * (px / (5.0 * u) + phase).sin()).abs() < 0.9 * u
                });
            }
        }
        Pattern::Contours => {
            let (cx, cy) = (w / 2.0, h * 0.62);
            for r in [10.0 * u, 20.0 * u] {
                c.fill(ink, |px, py| {
                    let d = ((px - cx).powi(2) + (py - cy).powi(2)).sqrt();
                    (d - r).abs() < 1.1 * u && py < cy + 4.0 * u
                });
            }
        }
        Pattern::Rocks => {
            for (x, y) in scatter(w, h, 3, seed) {
                let s2 = 7.0 * u;
                let (a, b, t) = ((x - s2, y + s2 * 0.6), (x + s2, y + s2 * 0.6), (x, y - s2));
                c.fill(ink, |px, py| in_triangle((px, py), a, b, t));
                c.fill(lighten(s.base, 30), |px, py| {
                    in_triangle(
                        (px, py),
                        (x - s2 * 0.3, y),
                        (x + s2 * 0.2, y),
                        (x, y - s2 * 0.7),
                    )
                });
            }
        }
        Pattern::Gravel => {
            for (x, y) in scatter(w, h, 6, seed) {
                c.fill(ink, |px, py| {
                    (px - x).powi(2) + (py - y).powi(2) < (1.6 * u).powi(2)
                });
            }
        }
        Pattern::Bricks => {
            let (bw, bh) = (12.0 * u, 7.0 * u);
            c.fill(ink, |px, py| {
                let row = (py / bh).floor();
                let shift = if row as i32 % 2 == 0 { 0.0 } else { bw / 2.0 };
                py.rem_euclid(bh) < 1.2 * u || (px + shift).rem_euclid(bw) < 1.2 * u
            });
        }
        Pattern::Houses => {
            let (cx, cy) = (w / 2.0, h / 2.0);
            let (hw, hh) = (7.0 * u, 6.0 * u);
            for (dx, dy) in [(-10.0, -5.0), (9.0, -8.0), (1.0, 9.0)] {
                let (x, y) = (cx + dx * u, cy + dy * u);
                c.fill([236, 226, 200, 255], |px, py| {
                    in_round_rect(px, py, x - hw, y, x + hw, y + hh, 0.5)
                });
                c.fill(ink, |px, py| {
                    in_triangle(
                        (px, py),
                        (x - hw - u, y + 0.5 * u),
                        (x + hw + u, y + 0.5 * u),
                        (x, y - hh),
                    )
                });
            }
        }
        Pattern::Furrows => {
            let period = 8.0 * u;
            c.fill(ink, |px, py| (px + py).rem_euclid(period) < 2.0 * u);
        }
    }
}

fn lighten(c: Rgba, k: u8) -> Rgba {
    [
        c[0].saturating_add(k),
        c[1].saturating_add(k),
        c[2].saturating_add(k),
        c[3],
    ]
}

/// `c` with each channel lowered by `k`.
pub fn darken(c: Rgba, k: u8) -> Rgba {
    [
        c[0].saturating_sub(k),
        c[1].saturating_sub(k),
        c[2].saturating_sub(k),
        c[3],
    ]
}
