//! The pieces a figure counter is assembled from, drawn in code. Each piece is white (or
//! light) where the colour should vary and dark where it should not, so one image serves
//! every side and state through `Sprite::color` tinting.

use super::raster::{Canvas, Rgba, in_round_rect, in_triangle};

/// Pixel size of the counter images: drawn larger than shown so zooming in stays crisp.
pub const PIECE_PX: u32 = 96;

const WHITE: Rgba = [255, 255, 255, 255];
const OUTLINE: Rgba = [24, 22, 20, 255];

/// The counter body: a rounded square, white inside a dark rim and a soft drop shadow.
pub fn counter_base() -> Canvas {
    let s = PIECE_PX as f32;
    let mut c = Canvas::new(PIECE_PX, PIECE_PX);
    let (lo, hi, r) = (6.0, s - 6.0, 12.0);
    c.fill([0, 0, 0, 90], |x, y| {
        in_round_rect(x - 3.0, y - 4.0, lo, lo, hi, hi, r)
    });
    c.fill(OUTLINE, |x, y| in_round_rect(x, y, lo, lo, hi, hi, r));
    c.fill(WHITE, |x, y| {
        in_round_rect(x, y, lo + 5.0, lo + 5.0, hi - 5.0, hi - 5.0, r - 4.0)
    });
    // A faint darker lower band gives the counter a little depth once tinted.
    c.fill([0, 0, 0, 40], |x, y| {
        y > s * 0.62 && in_round_rect(x, y, lo + 5.0, lo + 5.0, hi - 5.0, hi - 5.0, r - 4.0)
    });
    c
}

/// The facing wedge: a triangle pointing up (rotated into place), light with a dark rim.
pub fn wedge() -> Canvas {
    let s = PIECE_PX as f32;
    let mut c = Canvas::new(PIECE_PX, PIECE_PX);
    let (a, b, t) = (
        (s * 0.08, s * 0.9),
        (s * 0.92, s * 0.9),
        (s * 0.5, s * 0.08),
    );
    c.fill(OUTLINE, |x, y| in_triangle((x, y), a, b, t));
    let (a2, b2, t2) = (
        (s * 0.24, s * 0.8),
        (s * 0.76, s * 0.8),
        (s * 0.5, s * 0.28),
    );
    c.fill(WHITE, |x, y| in_triangle((x, y), a2, b2, t2));
    c
}

/// The selection ring: a white annulus with dark edges, tinted gold when shown.
pub fn ring() -> Canvas {
    let s = PIECE_PX as f32;
    let mut c = Canvas::new(PIECE_PX, PIECE_PX);
    let d = |x: f32, y: f32| ((x - s / 2.0).powi(2) + (y - s / 2.0).powi(2)).sqrt();
    c.fill(OUTLINE, |x, y| (d(x, y) - s * 0.42).abs() < s * 0.07);
    c.fill(WHITE, |x, y| (d(x, y) - s * 0.42).abs() < s * 0.045);
    c
}

/// A round marker with a dark rim (the wound mark, tinted red).
pub fn dot() -> Canvas {
    let s = PIECE_PX as f32;
    let mut c = Canvas::new(PIECE_PX, PIECE_PX);
    let d = |x: f32, y: f32| ((x - s / 2.0).powi(2) + (y - s / 2.0).powi(2)).sqrt();
    c.fill(OUTLINE, |x, y| d(x, y) < s * 0.46);
    c.fill(WHITE, |x, y| d(x, y) < s * 0.34);
    c
}

/// The mounted marker: a horseshoe (open at the bottom) with a dark rim.
pub fn horseshoe() -> Canvas {
    let s = PIECE_PX as f32;
    let mut c = Canvas::new(PIECE_PX, PIECE_PX);
    let (cx, cy) = (s / 2.0, s * 0.46);
    let shoe = |x: f32, y: f32, grow: f32| {
        let d = ((x - cx).powi(2) + (y - cy).powi(2)).sqrt();
        let arc = (d - s * 0.3).abs() < s * 0.1 + grow && y < cy + s * 0.12;
        let heels = (d - s * 0.3).abs() < s * 0.1 + grow
            && y < cy + s * 0.36 + grow
            && (x - cx).abs() > s * 0.2;
        arc || heels
    };
    c.fill(OUTLINE, |x, y| shoe(x, y, s * 0.05));
    c.fill(WHITE, |x, y| shoe(x, y, 0.0));
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_square_with_clear_corners_and_tintable_centres() {
        for (name, c) in [("base", counter_base()), ("dot", dot()), ("wedge", wedge())] {
            assert_eq!((c.width, c.height), (PIECE_PX, PIECE_PX), "{name}");
            assert_eq!(c.get(0, 0)[3], 0, "{name}");
        }
        let mid = PIECE_PX / 2;
        assert_eq!(counter_base().get(mid, mid / 2), WHITE);
        assert_eq!(dot().get(mid, mid), WHITE);
        assert_eq!(ring().get(mid, mid)[3], 0, "a ring is hollow");
        assert_eq!(
            horseshoe().get(mid, PIECE_PX - 4)[3],
            0,
            "a horseshoe is open below"
        );
    }

    #[test]
    fn wedge_points_up() {
        let c = wedge();
        let row_cover = |y: u32| (0..PIECE_PX).filter(|&x| c.get(x, y)[3] > 0).count();
        assert!(row_cover(PIECE_PX / 5) < row_cover(PIECE_PX * 4 / 5));
    }
}
