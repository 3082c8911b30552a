//! What a player can set (issue 16 item 5), as plain data: the file in the configuration
//! folder is this struct in RON, and every other module reads its choice from here, so a
//! setting means the same thing on every screen.

use crate::rules::mp::Mp;
use serde::{Deserialize, Serialize};

/// The player's settings. Every field has a default, so a file written by an older version
/// (or with a field removed by hand) still loads, with the missing fields at their defaults.
#[derive(bevy::prelude::Resource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(default)]
pub struct Settings {
    /// How fast the computer's orders, moving counters and the effects on the map go by.
    pub pace: Pace,
    /// The size of the panels, menus and cards: egui's zoom factor, 1 is the designed size.
    pub ui_scale: f32,
    /// Fullscreen (borderless, on the window's monitor) instead of a window.
    pub fullscreen: bool,
    /// The sides' colours.
    pub palette: Palette,
    /// How movement amounts (a horse's 8¾ cells) are written.
    pub fractions: Fractions,
    /// The sounds' loudness, 0 (silent) to 1 (as the files are); heard only in a build with
    /// the `sound` feature (`ui::sound`).
    pub volume: f32,
    /// The keys of the map's, the board's and the game's commands.
    pub keys: super::keymap::Keymap,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            pace: Pace::Normal,
            ui_scale: 1.0,
            fullscreen: false,
            palette: Palette::Standard,
            fractions: Fractions::Mixed,
            volume: 0.7,
            keys: super::keymap::Keymap::default(),
        }
    }
}

/// The smallest and largest UI scale the settings screen offers: at 0.75 the 1280×800 layout
/// fits a 1024×600 screen, at 2.5 the text reads on a 4K monitor at arm's length.
pub const UI_SCALE_RANGE: std::ops::RangeInclusive<f32> = 0.75..=2.5;

impl Settings {
    /// The settings with every number inside its range, so a hand-edited file cannot make the
    /// UI vanish (a scale of 0) or overflow the screen.
    pub fn sanitised(mut self) -> Settings {
        let (lo, hi) = (*UI_SCALE_RANGE.start(), *UI_SCALE_RANGE.end());
        self.ui_scale = if self.ui_scale.is_finite() {
            self.ui_scale.clamp(lo, hi)
        } else {
            1.0
        };
        self.volume = if self.volume.is_finite() {
            self.volume.clamp(0.0, 1.0)
        } else {
            0.7
        };
        self
    }
}

/// The pace of what plays by itself: the computer's orders and the effects (floating numbers,
/// flashes) on the map. It never changes what the rules do, only how long the player sees it.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Pace {
    /// Orders at once, no effects on the map: the log tells what happened.
    Off,
    /// A quarter of the normal pauses.
    Fast,
    /// The designed pace: an order every 0.6 s, effects for 1.8 s.
    #[default]
    Normal,
}

impl Pace {
    /// Every pace, in the settings screen's order.
    pub const ALL: [Pace; 3] = [Pace::Off, Pace::Fast, Pace::Normal];

    /// Seconds between two of the computer's orders.
    pub const fn order_delay(self) -> f64 {
        match self {
            Pace::Off => 0.0,
            Pace::Fast => 0.15,
            Pace::Normal => 0.6,
        }
    }

    /// Seconds an effect stays on the map.
    pub const fn effect_secs(self) -> f32 {
        match self {
            Pace::Off => 0.0,
            Pace::Fast => 0.6,
            Pace::Normal => 1.8,
        }
    }

    /// The name the settings screen shows.
    pub fn label(self) -> &'static str {
        match self {
            Pace::Off => "Off",
            Pace::Fast => "Fast",
            Pace::Normal => "Normal",
        }
    }
}

/// The sides' colours.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Palette {
    /// Red, blue, amber, purple, teal, grey.
    #[default]
    Standard,
    /// Okabe and Ito's colours, told apart with any of the common colour-vision deficiencies:
    /// vermillion against blue for the usual two sides.
    ColourBlindSafe,
}

impl Palette {
    /// Both palettes, in the settings screen's order.
    pub const ALL: [Palette; 2] = [Palette::Standard, Palette::ColourBlindSafe];

    /// A side's colour as sRGB components in 0..=1. Sides beyond the sixth reuse the list.
    pub fn rgb(self, side: u8) -> (f32, f32, f32) {
        const STANDARD: [(f32, f32, f32); 6] = [
            (0.78, 0.16, 0.13), // red
            (0.16, 0.32, 0.78), // blue
            (0.85, 0.62, 0.10), // amber
            (0.52, 0.22, 0.66), // purple
            (0.10, 0.58, 0.58), // teal
            (0.55, 0.55, 0.55), // grey
        ];
        // Okabe & Ito (2002), "Color Universal Design": vermillion, blue, yellow, reddish
        // purple, sky blue; their black is a dark grey here so a counter's letter still reads.
        const SAFE: [(f32, f32, f32); 6] = [
            (0.835, 0.369, 0.0),   // vermillion #D55E00
            (0.0, 0.447, 0.698),   // blue #0072B2
            (0.941, 0.894, 0.259), // yellow #F0E442
            (0.800, 0.475, 0.655), // reddish purple #CC79A7
            (0.337, 0.706, 0.914), // sky blue #56B4E9
            (0.30, 0.30, 0.30),    // dark grey
        ];
        let list = match self {
            Palette::Standard => &STANDARD,
            Palette::ColourBlindSafe => &SAFE,
        };
        list[usize::from(side) % list.len()]
    }

    /// The name the settings screen shows.
    pub fn label(self) -> &'static str {
        match self {
            Palette::Standard => "Standard",
            Palette::ColourBlindSafe => "Colour-blind safe",
        }
    }
}

/// How a movement amount is written.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Fractions {
    /// `8¾`, `3½`, `2 3/7`: as the seeds print them.
    #[default]
    Mixed,
    /// `8.75`, `3.5`, `2.43` (two places at most).
    Decimal,
}

impl Fractions {
    /// Both styles, in the settings screen's order.
    pub const ALL: [Fractions; 2] = [Fractions::Mixed, Fractions::Decimal];

    /// The name the settings screen shows, with an example.
    pub fn label(self) -> &'static str {
        match self {
            Fractions::Mixed => "Mixed numbers (8¾)",
            Fractions::Decimal => "Decimals (8.75)",
        }
    }

    /// `mp` written in this style. Exact amounts stay exact in logs and files (`35/4`); this
    /// is only how the window shows them.
    pub fn amount(self, mp: Mp) -> String {
        let (n, d) = mp.as_fraction();
        match self {
            Fractions::Mixed => mixed(n, d, true),
            Fractions::Decimal => decimal(n, d),
        }
    }

    /// `mp` in this style with ASCII only (`8 3/4`), for the labels on the map: Bevy's
    /// default font has no vulgar-fraction glyphs (egui's fonts, used for the panels, do).
    pub fn plain(self, mp: Mp) -> String {
        let (n, d) = mp.as_fraction();
        match self {
            Fractions::Mixed => mixed(n, d, false),
            Fractions::Decimal => decimal(n, d),
        }
    }
}

/// `n/d` (reduced, `d > 0`) as a whole part and a fraction: with `glyphs`, a vulgar
/// fraction (`8¾`, `-1½`, `⅓`) and `2 3/7` where Unicode has no single character; without,
/// always the ASCII form (`8 3/4`).
fn mixed(n: i64, d: i64, glyphs: bool) -> String {
    if d == 1 {
        return n.to_string();
    }
    let sign = if n < 0 { "-" } else { "" };
    let (whole, rest) = (n.abs() / d, n.abs() % d);
    let glyph = match (rest, d) {
        _ if !glyphs => None,
        (1, 2) => Some('½'),
        (1, 3) => Some('⅓'),
        (2, 3) => Some('⅔'),
        (1, 4) => Some('¼'),
        (3, 4) => Some('¾'),
        (1, 5) => Some('⅕'),
        (2, 5) => Some('⅖'),
        (3, 5) => Some('⅗'),
        (4, 5) => Some('⅘'),
        (1, 6) => Some('⅙'),
        (5, 6) => Some('⅚'),
        (1, 8) => Some('⅛'),
        (3, 8) => Some('⅜'),
        (5, 8) => Some('⅝'),
        (7, 8) => Some('⅞'),
        _ => None,
    };
    let whole = if whole == 0 {
        String::new()
    } else {
        whole.to_string()
    };
    match glyph {
        Some(g) => format!("{sign}{whole}{g}"),
        None if whole.is_empty() => format!("{sign}{rest}/{d}"),
        None => format!("{sign}{whole} {rest}/{d}"),
    }
}

/// `n/d` rounded to two decimal places, trailing zeros dropped: `8.75`, `3.5`, `0.33`.
fn decimal(n: i64, d: i64) -> String {
    let hundredths =
        (i128::from(n) * 200 + i128::from(d) * i128::from(n.signum())) / (2 * i128::from(d));
    let sign = if hundredths < 0 { "-" } else { "" };
    let h = hundredths.abs();
    let (whole, cents) = (h / 100, h % 100);
    match cents {
        0 => format!("{sign}{whole}"),
        c if c % 10 == 0 => format!("{sign}{whole}.{}", c / 10),
        c => format!("{sign}{whole}.{c:02}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mp(s: &str) -> Mp {
        s.parse().unwrap()
    }

    #[test]
    fn amounts_read_as_mixed_numbers_with_vulgar_fractions() {
        let f = Fractions::Mixed;
        assert_eq!(f.amount(mp("35/4")), "8¾");
        assert_eq!(f.amount(mp("7/2")), "3½");
        assert_eq!(f.amount(mp("1/2")), "½");
        assert_eq!(f.amount(mp("8/4")), "2");
        assert_eq!(f.amount(mp("6")), "6");
        assert_eq!(f.amount(mp("-3/2")), "-1½");
        assert_eq!(f.amount(mp("17/7")), "2 3/7");
        assert_eq!(f.amount(mp("3/7")), "3/7");
        assert_eq!(f.plain(mp("35/4")), "8 3/4");
        assert_eq!(f.plain(mp("1/2")), "1/2");
        assert_eq!(Fractions::Decimal.plain(mp("35/4")), "8.75");
    }

    #[test]
    fn amounts_read_as_decimals_rounded_to_two_places() {
        let f = Fractions::Decimal;
        assert_eq!(f.amount(mp("35/4")), "8.75");
        assert_eq!(f.amount(mp("7/2")), "3.5");
        assert_eq!(f.amount(mp("1/3")), "0.33");
        assert_eq!(f.amount(mp("2/3")), "0.67");
        assert_eq!(f.amount(mp("6")), "6");
        assert_eq!(f.amount(mp("-3/2")), "-1.5");
    }

    #[test]
    fn the_palettes_tell_every_side_apart_and_keep_red_before_blue() {
        for p in Palette::ALL {
            for a in 0..6 {
                for b in a + 1..6 {
                    assert_ne!(p.rgb(a), p.rgb(b), "{p:?} sides {a} and {b}");
                }
            }
            let ((r0, _, b0), (r1, _, b1)) = (p.rgb(0), p.rgb(1));
            assert!(r0 > b0 && b1 > r1, "{p:?}: side 1 warm, side 2 cool");
        }
        assert_ne!(Palette::Standard.rgb(0), Palette::ColourBlindSafe.rgb(0));
    }

    #[test]
    fn a_faster_pace_never_waits_longer() {
        let [off, fast, normal] = Pace::ALL;
        assert!(off.order_delay() < fast.order_delay());
        assert!(fast.order_delay() < normal.order_delay());
        assert!(off.effect_secs() < fast.effect_secs());
        assert!(fast.effect_secs() < normal.effect_secs());
    }

    #[test]
    fn an_out_of_range_scale_is_brought_back_into_range() {
        let s = |x| {
            Settings {
                ui_scale: x,
                ..Settings::default()
            }
            .sanitised()
            .ui_scale
        };
        assert_eq!(s(0.0), 0.75);
        assert_eq!(s(9.0), 2.5);
        assert_eq!(s(f32::NAN), 1.0);
        assert_eq!(s(1.25), 1.25);
    }
}
