//! A tiny CPU canvas for generating art in code, so the game ships no image files and every
//! shape stays in step with the grid geometry. Shapes are anti-aliased by coverage
//! supersampling; everything here is pure and testable without a GPU.

use bevy::asset::RenderAssetUsages;
use bevy::image::Image;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

/// An RGBA colour in sRGB bytes.
pub type Rgba = [u8; 4];

/// Samples per pixel side used to estimate shape coverage (4 × 4 = 16 samples).
const SUPERSAMPLE: u32 = 4;

/// A straight-alpha RGBA8 pixel buffer, row 0 at the top (as images are stored).
#[derive(Clone, Debug, PartialEq)]
pub struct Canvas {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height` pixels, row-major.
    pub pixels: Vec<Rgba>,
}

impl Canvas {
    /// A fully transparent canvas.
    pub fn new(width: u32, height: u32) -> Canvas {
        Canvas {
            width,
            height,
            pixels: vec![[0; 4]; (width * height) as usize],
        }
    }

    /// The pixel at `(x, y)`, transparent when outside.
    pub fn get(&self, x: u32, y: u32) -> Rgba {
        if x < self.width && y < self.height {
            self.pixels[(y * self.width + x) as usize]
        } else {
            [0; 4]
        }
    }

    /// Paints `colour` over the pixel with extra opacity `cover` (0..=1), "source over".
    pub fn blend(&mut self, x: u32, y: u32, colour: Rgba, cover: f32) {
        if x >= self.width || y >= self.height {
            return;
        }
        let a = f32::from(colour[3]) / 255.0 * cover.clamp(0.0, 1.0);
        if a <= 0.0 {
            return;
        }
        let dst = &mut self.pixels[(y * self.width + x) as usize];
        let da = f32::from(dst[3]) / 255.0;
        let out_a = a + da * (1.0 - a);
        for i in 0..3 {
            let s = f32::from(colour[i]);
            let d = f32::from(dst[i]);
            dst[i] = ((s * a + d * da * (1.0 - a)) / out_a).round() as u8;
        }
        dst[3] = (out_a * 255.0).round() as u8;
    }

    /// Fills every pixel where `inside(px, py)` holds, anti-aliased; the predicate takes pixel
    /// coordinates (pixel centres are at `n + 0.5`).
    pub fn fill(&mut self, colour: Rgba, inside: impl Fn(f32, f32) -> bool) {
        let n = SUPERSAMPLE;
        let step = 1.0 / n as f32;
        for y in 0..self.height {
            for x in 0..self.width {
                let mut hits = 0;
                for sy in 0..n {
                    for sx in 0..n {
                        let px = x as f32 + (sx as f32 + 0.5) * step;
                        let py = y as f32 + (sy as f32 + 0.5) * step;
                        hits += u32::from(inside(px, py));
                    }
                }
                if hits > 0 {
                    self.blend(x, y, colour, hits as f32 / (n * n) as f32);
                }
            }
        }
    }

    /// Multiplies the alpha of every pixel by the coverage of `mask`, clipping earlier
    /// drawing to a shape (terrain patterns to a hex).
    pub fn clip(&mut self, mask: impl Fn(f32, f32) -> bool) {
        let mut m = Canvas::new(self.width, self.height);
        m.fill([255; 4], mask);
        for (p, k) in self.pixels.iter_mut().zip(&m.pixels) {
            p[3] = ((u32::from(p[3]) * u32::from(k[3])) / 255) as u8;
        }
    }

    /// Copies this canvas into `dst` with its top-left corner at `(ox, oy)`.
    pub fn blit_into(&self, dst: &mut Canvas, ox: u32, oy: u32) {
        for y in 0..self.height {
            for x in 0..self.width {
                let (dx, dy) = (ox + x, oy + y);
                if dx < dst.width && dy < dst.height {
                    dst.pixels[(dy * dst.width + dx) as usize] = self.get(x, y);
                }
            }
        }
    }

    /// Converts to a Bevy image kept in both worlds (the tilemap copies tiles on the GPU;
    /// keeping the CPU copy lets tests and later edits read it).
    pub fn into_image(self) -> Image {
        let data = self.pixels.into_iter().flatten().collect();
        Image::new(
            Extent3d {
                width: self.width.max(1),
                height: self.height.max(1),
                depth_or_array_layers: 1,
            },
            TextureDimension::D2,
            data,
            TextureFormat::Rgba8UnormSrgb,
            RenderAssetUsages::MAIN_WORLD | RenderAssetUsages::RENDER_WORLD,
        )
    }
}

/// Whether `(x, y)` lies in the pointy-top regular hex with centre `(cx, cy)` and flat-to-flat
/// width `w` (its height is `w * 2 / sqrt(3)`).
pub fn in_pointy_hex(x: f32, y: f32, cx: f32, cy: f32, w: f32) -> bool {
    let (dx, dy) = ((x - cx).abs(), (y - cy).abs());
    let half_w = w * 0.5;
    let r = w / 3f32.sqrt(); // centre to a point
    dx <= half_w && dy <= r - dx / 3f32.sqrt()
}

/// Whether `(x, y)` lies in an axis-aligned rectangle with corners rounded by `radius`.
pub fn in_round_rect(x: f32, y: f32, x0: f32, y0: f32, x1: f32, y1: f32, radius: f32) -> bool {
    if x < x0 || x > x1 || y < y0 || y > y1 {
        return false;
    }
    let cx = x.clamp(x0 + radius, x1 - radius);
    let cy = y.clamp(y0 + radius, y1 - radius);
    (x - cx).powi(2) + (y - cy).powi(2) <= radius * radius
}

/// Whether `p` is inside the triangle `a`, `b`, `c` (either winding).
pub fn in_triangle(p: (f32, f32), a: (f32, f32), b: (f32, f32), c: (f32, f32)) -> bool {
    let side = |u: (f32, f32), v: (f32, f32)| (v.0 - u.0) * (p.1 - u.1) - (v.1 - u.1) * (p.0 - u.0);
    let (d1, d2, d3) = (side(a, b), side(b, c), side(c, a));
    let neg = d1 < 0.0 || d2 < 0.0 || d3 < 0.0;
    let pos = d1 > 0.0 || d2 > 0.0 || d3 > 0.0;
    !(neg && pos)
}

/// A small deterministic hash, so patterns look scattered yet are identical on every run.
pub fn hash2(x: u32, y: u32, seed: u32) -> u32 {
    let mut h = x.wrapping_mul(0x9E37_79B9) ^ y.wrapping_mul(0x85EB_CA6B) ^ seed;
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^= h >> 12;
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_mask_is_pointy_top() {
        let w = 64.0;
        let h = w * 2.0 / 3f32.sqrt();
        let (cx, cy) = (32.0, h / 2.0);
        assert!(in_pointy_hex(cx, 1.0, cx, cy, w)); // top point
        assert!(!in_pointy_hex(2.0, 2.0, cx, cy, w)); // top-left corner is outside
        assert!(in_pointy_hex(1.0, cy, cx, cy, w)); // left flat
        assert!(!in_pointy_hex(-1.0, cy, cx, cy, w));
    }

    #[test]
    fn fill_and_blend_give_opaque_interior_and_soft_edges() {
        let mut c = Canvas::new(10, 10);
        c.fill([255, 0, 0, 255], |x, y| {
            in_round_rect(x, y, 2.0, 2.0, 8.5, 8.0, 0.0)
        });
        assert_eq!(c.get(4, 4), [255, 0, 0, 255]);
        assert_eq!(c.get(0, 0)[3], 0);
        let edge = c.get(8, 4)[3];
        assert!(edge > 0 && edge < 255, "{edge}");
        c.clip(|x, _| x < 5.0);
        assert_eq!(c.get(6, 4)[3], 0);
        assert_eq!(c.get(4, 4)[3], 255);
    }

    #[test]
    fn triangle_test_accepts_both_windings() {
        let (a, b, c) = ((0.0, 0.0), (10.0, 0.0), (0.0, 10.0));
        assert!(in_triangle((2.0, 2.0), a, b, c));
        assert!(in_triangle((2.0, 2.0), a, c, b));
        assert!(!in_triangle((8.0, 8.0), a, b, c));
    }

    #[test]
    fn image_has_the_canvas_size() {
        let img = Canvas::new(6, 3).into_image();
        assert_eq!(img.width(), 6);
        assert_eq!(img.height(), 3);
    }
}
