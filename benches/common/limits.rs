//! A level at every documented limit (issue 15, item 3), shared by `benches/limits.rs` and the
//! integration test that checks it loads at the limits: the benches measure what the limits
//! cost, so the level they measure must really be at them.
//!
//! 512 × 512 cells (`MAX_CELLS`), 4096 figures (`MAX_FIGURES`), both sides played by the AI,
//! and a road of the smallest legal terrain cost ([`FINEST_COST`]) across the map, so a
//! figure's reachable area is searched with the finest allowance the loader accepts.
//!
//! The figures: per side 1024 footmen **in contact** (four pairs of facing lines of 256, each
//! Red footman with a Blue one in the next row) and 1024 figures **spread out** over the side's
//! half of the map (footmen, archers, levies, knights, sergeants), drawn from a seeded
//! SplitMix64 so every run measures the same battle. Units are groups of eight.

use warhorse::level::{Level, MAX_CELLS, MAX_FIGURES, load_level_str};

// The including bench declares `mod splitmix` and `mod level_text` (benches/common/) beside
// this one.
use super::level_text::{Unit, level_text, random_rows};
use super::splitmix::SplitMix;

/// Side of the square map: 512 × 512 = `MAX_CELLS`.
pub const SIDE: usize = 512;

/// The smallest terrain cost the loader accepts: a denominator of at most 1000 that divides
/// the movement points' scale (2⁶·3²·5²·7 = 100 800); 960 is the largest such.
pub const FINEST_COST: &str = "1/960";

/// The row of the fine-cost road (horizontal, the whole width), in Red's spread-out half.
pub const ROAD_ROW: usize = 128;

/// First and last column of the lines in contact.
const LINE_X0: usize = 128;
/// Figures per line in contact.
const LINE_LEN: usize = 256;
/// Red's rows of the lines in contact; Blue's line is the row under each.
const LINE_ROWS: [usize; 4] = [240, 246, 252, 258];

/// The text of the level at the limits, seeded by `seed`.
pub fn limits_level_text(seed: u64) -> String {
    let mut rng = SplitMix(seed);
    let mut rows = random_rows(SIDE, || rng.next(), [84, 90, 95]);
    for c in rows[ROAD_ROW].iter_mut() {
        *c = '=';
    }
    let per_side = MAX_FIGURES / 2;
    let mut taken = vec![false; SIDE * SIDE];
    let mut units = Vec::new();
    for (side, name, facing) in [(0usize, "Red", "S"), (1, "Blue", "N")] {
        let mut placed: Vec<(String, usize, usize)> = Vec::with_capacity(per_side);
        // In contact: Red's line faces south onto Blue's, one row below.
        for &y in &LINE_ROWS {
            for k in 0..LINE_LEN {
                placed.push(("footman".into(), LINE_X0 + k, y + side));
            }
        }
        // Spread out over the side's half, away from the lines.
        let spread = [
            "footman",
            "archer",
            "raw_levy",
            "knight_on_destrier",
            "sergeant_on_courser",
        ];
        let (y_lo, y_hi) = if side == 0 { (8, 224) } else { (276, SIDE - 8) };
        while placed.len() < per_side {
            let x = (rng.next() % SIDE as u64) as usize;
            let y = y_lo + (rng.next() % (y_hi - y_lo) as u64) as usize;
            if taken[y * SIDE + x] || y == ROAD_ROW {
                continue;
            }
            taken[y * SIDE + x] = true;
            let t = spread[placed.len() % spread.len()];
            placed.push((t.into(), x, y));
        }
        units.extend(units_of_eight(&mut rows, name, facing, placed));
    }
    level_text(
        "At the limits",
        &rows,
        &format!(r#"'=': (name: "paved road", cost: "{FINEST_COST}"),"#),
        "",
        &units,
    )
}

/// The text of a level on the map at the limits (seeded by `seed`) where all `figures` stand
/// **in contact** (issue 33, item 3): footmen in pairs of facing lines of 256 (Red's line faces
/// south onto Blue's in the next row), six rows between pairs, centred on the map, units of
/// eight. `figures` is a multiple of 512 up to `MAX_FIGURES`.
pub fn contact_level_text(seed: u64, figures: usize) -> String {
    assert!(figures.is_multiple_of(2 * LINE_LEN) && figures <= MAX_FIGURES);
    let mut rng = SplitMix(seed);
    let mut rows = random_rows(SIDE, || rng.next(), [84, 90, 95]);
    for c in rows[ROAD_ROW].iter_mut() {
        *c = '=';
    }
    let pairs = figures / (2 * LINE_LEN);
    let y0 = SIDE / 2 - 3 * pairs;
    let mut units = Vec::new();
    for (side, name, facing) in [(0usize, "Red", "S"), (1, "Blue", "N")] {
        let mut placed = Vec::with_capacity(figures / 2);
        for p in 0..pairs {
            for k in 0..LINE_LEN {
                placed.push(("footman".to_string(), LINE_X0 + k, y0 + 6 * p + side));
            }
        }
        units.extend(units_of_eight(&mut rows, name, facing, placed));
    }
    level_text(
        "Everyone in contact",
        &rows,
        &format!(r#"'=': (name: "paved road", cost: "{FINEST_COST}"),"#),
        "",
        &units,
    )
}

/// The level of [`contact_level_text`], loaded by the game's own loader; panics unless it has
/// the map at the limits and `figures` figures.
pub fn contact_level(seed: u64, figures: usize) -> Level {
    let level = load_level_str(&contact_level_text(seed, figures), "<contact>", None)
        .expect("the level in contact loads");
    assert_eq!(
        (level.file.width as u64) * (level.file.height as u64),
        MAX_CELLS
    );
    assert_eq!(level.file.figures.len(), figures);
    level
}

/// The level at the limits, loaded and checked by the game's own loader; panics if it is not
/// at every limit (so a bench can never measure less than it says).
pub fn limits_level(seed: u64) -> Level {
    let level = load_level_str(&limits_level_text(seed), "<limits>", None)
        .expect("the level at the limits loads");
    assert_eq!(
        (level.file.width as u64) * (level.file.height as u64),
        MAX_CELLS
    );
    assert_eq!(level.file.figures.len(), MAX_FIGURES);
    level
}

/// `side`'s figures (template, column, row) in units of eight, in order, ids `red_0`, `red_1`,
/// …; each figure's cell is made open ground.
fn units_of_eight<'a>(
    rows: &mut [Vec<char>],
    side: &'a str,
    facing: &'a str,
    placed: Vec<(String, usize, usize)>,
) -> Vec<Unit<'a>> {
    let mut units = Vec::new();
    for (i, chunk) in placed.chunks(8).enumerate() {
        let mut members = Vec::new();
        for (k, (template, x, y)) in chunk.iter().enumerate() {
            rows[*y][*x] = '.';
            let id = format!("{}_{}", side.to_lowercase(), i * 8 + k);
            members.push((id, template.clone(), *x, *y));
        }
        units.push(Unit {
            name: format!("{side} {i}"),
            side,
            facing,
            members,
        });
    }
    units
}
