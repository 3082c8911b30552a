//! What a counter shows, decided from figure data alone: pure, so the choice of letter, arrow
//! and marks is tested without a window and the drawing code only copies it onto sprites.

use super::layout::facing_angle;
use crate::rules::grid::{Dir, GridKind};
use crate::rules::ruleset::TroopType;

/// Everything a counter displays about its figure (or rider-and-mount pair).
#[derive(Clone, Debug, PartialEq)]
pub struct CounterLook {
    /// Side index, for the colour.
    pub side: u8,
    /// Troop letter.
    pub glyph: char,
    /// Facing arrow rotation (radians, anticlockwise), `None` without a facing.
    pub facing: Option<f32>,
    /// A rider on a mount.
    pub mounted: bool,
    /// The figure (the rider, for a pair) has lost body points.
    pub wounded: bool,
    /// The mount of a pair has lost body points.
    pub mount_wounded: bool,
    /// Rider or mount is selected.
    pub selected: bool,
    /// The short marks of its conditions (rider's, then its mount's), in [`BADGES`] order:
    /// "DN" down, "ST" stunned, … — the legend is in the help overlay.
    pub badges: Vec<&'static str>,
    /// Dead or incapacitated: the counter is drawn fallen (greyed) and cannot be selected.
    pub fallen: bool,
}

/// A condition mark: the mark, its meaning, and the test of a condition word it stands for.
pub type Badge = (&'static str, &'static str, fn(&str) -> bool);

/// Every condition mark a counter can carry: the mark, what it means (the help's legend), and
/// which of the figure's condition words (`sim::snapshot::condition_words`) it stands for.
pub const BADGES: [Badge; 9] = [
    ("X", "fallen: dead or incapacitated", |w| {
        w == "dead" || w == "incapacitated"
    }),
    ("DN", "down: prone or kneeling", |w| {
        w == "prone" || w == "kneeling"
    }),
    ("ST", "stunned", |w| w.starts_with("stunned")),
    (
        "DS",
        "disarmed: weapon lost or broken, or empty-handed",
        |w| w.ends_with(" lost") || w.ends_with(" broken") || w == "empty-handed",
    ),
    ("BZ", "berserk (FEROCITY), or in a stupor after it", |w| {
        w == "berserk" || w == "stupor" || w.starts_with("turned on")
    }),
    ("GR", "grappled: restrained, or restraining someone", |w| {
        w.starts_with("restrained by") || w.starts_with("restraining")
    }),
    ("CX", "exhausted (CX, ASL)", |w| w == "CX"),
    ("K1", "must walk after galloping (K1)", |w| {
        w.starts_with("must-walk")
    }),
    ("DG", "moving on a diagonal (H4)", |w| {
        w.starts_with("diagonal")
    }),
];

/// The marks for a figure's condition words, in [`BADGES`] order, each once.
pub fn badges<'a>(words: impl IntoIterator<Item = &'a str> + Clone) -> Vec<&'static str> {
    BADGES
        .iter()
        .filter(|(_, _, of)| words.clone().into_iter().any(of))
        .map(|(mark, _, _)| *mark)
        .collect()
}

/// The figure data a counter reads, gathered from its components.
#[derive(Clone, Debug, Default)]
pub struct FigureFacts<'a> {
    /// Side index.
    pub side: u8,
    /// Troop type, if known.
    pub troop: Option<TroopType>,
    /// Main weapon, if known.
    pub weapon: Option<&'a str>,
    /// Facing.
    pub facing: Option<Dir>,
    /// Body points `(left, max)`.
    pub body: Option<(u16, u16)>,
    /// Carries the `Selected` marker.
    pub selected: bool,
    /// Its conditions in words (the mirrored `Conditions`).
    pub conditions: &'a [String],
}

/// Facts about a rider's mount.
#[derive(Clone, Debug, Default)]
pub struct MountFacts<'a> {
    /// The mount's heading, which is the way the pair moves.
    pub facing: Option<Dir>,
    /// Body points `(left, max)`.
    pub body: Option<(u16, u16)>,
    /// Carries the `Selected` marker.
    pub selected: bool,
    /// Its conditions in words (CX is the horse's).
    pub conditions: &'a [String],
}

/// Weapons that make a foot figure an archer on the counter.
const MISSILE_WEAPONS: [&str; 4] = ["bow", "sling", "javelin", "crossbow"];

/// The troop letter: K shock cavalry (knights), H horse archers, M mounted infantry, A foot
/// with a missile weapon, F other foot, R a riderless horse, ? unknown.
pub fn troop_glyph(troop: Option<TroopType>, weapon: Option<&str>) -> char {
    let shoots = weapon.is_some_and(|w| {
        let w = w.to_ascii_lowercase();
        MISSILE_WEAPONS.iter().any(|m| w.contains(m))
    });
    match troop {
        Some(TroopType::ShockCavalry) => 'K',
        Some(TroopType::ShootingCavalry) => 'H',
        Some(TroopType::MountedInfantry) => 'M',
        Some(TroopType::Foot) if shoots => 'A',
        Some(TroopType::Foot) => 'F',
        Some(TroopType::Horse) => 'R',
        None => '?',
    }
}

/// Decides the counter for a figure and, when it rides one, its mount. A pair shows the
/// mount's heading (the direction it will move), falling back on the rider's facing.
pub fn counter_look(grid: GridKind, fig: &FigureFacts, mount: Option<&MountFacts>) -> CounterLook {
    let hurt = |b: Option<(u16, u16)>| b.is_some_and(|(left, max)| left < max);
    let facing = mount.and_then(|m| m.facing).or(fig.facing);
    let marks = badges(
        fig.conditions
            .iter()
            .chain(mount.map_or(&[][..], |m| m.conditions))
            .map(String::as_str),
    );
    // Only the figure's own fall greys its counter (a pair's dead mount is another matter).
    let fallen = fig.conditions.iter().any(|w| (BADGES[0].2)(w));
    CounterLook {
        side: fig.side,
        glyph: troop_glyph(fig.troop, fig.weapon),
        facing: facing.map(|d| facing_angle(grid, d)),
        mounted: mount.is_some(),
        wounded: hurt(fig.body),
        mount_wounded: mount.is_some_and(|m| hurt(m.body)),
        selected: fig.selected || mount.is_some_and(|m| m.selected),
        // A fallen figure shows that alone: what else ails it no longer matters.
        badges: if fallen {
            vec![BADGES[0].0]
        } else {
            marks.into_iter().filter(|m| *m != BADGES[0].0).collect()
        },
        fallen,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyphs_follow_troop_type_and_weapon() {
        assert_eq!(
            troop_glyph(Some(TroopType::ShockCavalry), Some("lance")),
            'K'
        );
        assert_eq!(
            troop_glyph(Some(TroopType::ShootingCavalry), Some("bow")),
            'H'
        );
        assert_eq!(troop_glyph(Some(TroopType::MountedInfantry), None), 'M');
        assert_eq!(troop_glyph(Some(TroopType::Foot), Some("Longbow")), 'A');
        assert_eq!(troop_glyph(Some(TroopType::Foot), Some("spear")), 'F');
        assert_eq!(troop_glyph(Some(TroopType::Horse), None), 'R');
        assert_eq!(troop_glyph(None, None), '?');
    }

    #[test]
    fn a_pair_shows_the_mount_heading_and_both_wounds() {
        let rider = FigureFacts {
            side: 1,
            troop: Some(TroopType::ShockCavalry),
            facing: Some(Dir(0)),
            body: Some((3, 3)),
            ..Default::default()
        };
        let mount = MountFacts {
            facing: Some(Dir(2)),
            body: Some((1, 4)),
            selected: true,
            conditions: &[],
        };
        let look = counter_look(GridKind::Square, &rider, Some(&mount));
        assert!(look.mounted && look.mount_wounded && look.selected && !look.wounded);
        assert_eq!(look.facing, Some(facing_angle(GridKind::Square, Dir(2))));
        let alone = counter_look(GridKind::Square, &rider, None);
        assert!(!alone.mounted && !alone.selected);
        assert_eq!(alone.facing, Some(0.0));
    }

    /// Issue 11 item 5: every condition has a mark on the counter; a fallen figure is drawn
    /// fallen. The words are those `sim::snapshot::condition_words` writes.
    #[test]
    fn every_condition_has_a_mark_and_the_fallen_are_drawn_fallen() {
        let words: Vec<String> = [
            "kneeling",
            "stunned (2 rounds)",
            "sword lost",
            "berserk",
            "restrained by ogre",
            "must-walk (K1)",
        ]
        .map(String::from)
        .to_vec();
        let horse = vec!["CX".to_string()];
        let rider = FigureFacts {
            conditions: &words,
            ..Default::default()
        };
        let mount = MountFacts {
            conditions: &horse,
            ..Default::default()
        };
        let look = counter_look(GridKind::Hex, &rider, Some(&mount));
        assert_eq!(look.badges, vec!["DN", "ST", "DS", "BZ", "GR", "CX", "K1"]);
        assert!(!look.fallen);
        let dead = vec!["dead".to_string(), "prone".to_string()];
        let look = counter_look(
            GridKind::Hex,
            &FigureFacts {
                conditions: &dead,
                ..Default::default()
            },
            None,
        );
        assert!(look.fallen);
        assert_eq!(look.badges, vec!["X"], "a dead figure is not also 'down'");
        assert!(badges(["none"]).is_empty());
    }
}
