//! What a counter shows, decided from figure data alone: pure, so the choice of symbol,
//! factors, arrow and marks is tested without a window and the drawing code only copies it
//! onto sprites (issue 16 item 2: counters in the wargame tradition).

use super::layout::facing_angle;
use crate::rules::gait::Gait;
use crate::rules::grid::{Dir, GridKind};
use crate::rules::mp::Mp;
use crate::rules::ruleset::TroopType;

/// Everything a counter displays about its figure (or rider-and-mount pair).
#[derive(Clone, Debug, PartialEq)]
pub struct CounterLook {
    /// Side index, for the colour.
    pub side: u8,
    /// Troop symbol, printed on the counter's plate.
    pub symbol: Symbol,
    /// Blows left this melee phase (D7), printed first in the factor row.
    pub blows: Option<u8>,
    /// Armour class, printed second.
    pub armour: Option<u8>,
    /// Movement left this half-move (the mount's, for a pair), printed third.
    pub move_left: Option<Mp>,
    /// The gait of a mount (the pair's), shown by its letter; `None` on foot.
    pub gait: Option<Gait>,
    /// A leader or hero (I1): the star.
    pub hero: bool,
    /// Moved or spent movement this half-move: the "has moved" mark.
    pub moved: bool,
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
    /// The ruleset's template key ("dwarf_axeman"), which names what the figure is.
    pub template: Option<&'a str>,
    /// Main weapon, if known.
    pub weapon: Option<&'a str>,
    /// Blows left this melee phase.
    pub blows: Option<u8>,
    /// Armour class.
    pub armour: Option<u8>,
    /// Its own movement allowance left (on foot).
    pub move_left: Option<Mp>,
    /// Moved this half-move.
    pub moved: bool,
    /// A leader or hero.
    pub hero: bool,
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
    /// Its gait, which is the pair's.
    pub gait: Option<Gait>,
    /// Its movement allowance left, which is the pair's.
    pub move_left: Option<Mp>,
    /// Moved this half-move.
    pub moved: bool,
    /// Carries the `Selected` marker.
    pub selected: bool,
    /// Its conditions in words (CX is the horse's).
    pub conditions: &'a [String],
}

/// A troop symbol: each has a file `assets/art/symbols/<stem>.svg` and a line in the help's
/// legend. The symbol says what the figure is at a glance, so a dwarf, a footman and a
/// prisoner no longer all read "F".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symbol {
    /// Shock cavalry with a lance, mounted.
    Knight,
    /// Shock cavalry with another weapon, mounted.
    Sergeant,
    /// Shooting cavalry, mounted (K3).
    HorseArcher,
    /// Mounted infantry, mounted (K2).
    MountedInfantry,
    /// Cavalry with firearms, mounted (ASL).
    MountedRifleman,
    /// A riderless mount.
    Horse,
    /// Foot with a spear or other hand weapon.
    Footman,
    /// Armoured foot with a sword, or a cavalryman on foot.
    ManAtArms,
    /// Levy: raw peasant foot.
    Levy,
    /// Foot with a pike.
    Pikeman,
    /// Foot with a bow, sling or javelins.
    Archer,
    /// Foot with a crossbow.
    Crossbowman,
    /// A dwarf.
    Dwarf,
    /// A berserk.
    Berserk,
    /// A mage.
    Mage,
    /// A ghoul or other undead.
    Ghoul,
    /// Foot with a rifle (ASL squads).
    Rifleman,
    /// An officer on foot (ASL leaders).
    Officer,
    /// A prisoner: shackled.
    Prisoner,
    /// Nothing is known of the figure.
    Unknown,
}

impl Symbol {
    /// Every symbol, in the legend's order.
    pub const ALL: [Symbol; 20] = [
        Symbol::Knight,
        Symbol::Sergeant,
        Symbol::HorseArcher,
        Symbol::MountedInfantry,
        Symbol::MountedRifleman,
        Symbol::Horse,
        Symbol::Footman,
        Symbol::ManAtArms,
        Symbol::Levy,
        Symbol::Pikeman,
        Symbol::Archer,
        Symbol::Crossbowman,
        Symbol::Dwarf,
        Symbol::Berserk,
        Symbol::Mage,
        Symbol::Ghoul,
        Symbol::Rifleman,
        Symbol::Officer,
        Symbol::Prisoner,
        Symbol::Unknown,
    ];

    /// The file stem in `assets/art/symbols/`.
    pub fn file_stem(self) -> &'static str {
        self.legend().0
    }

    /// The file stem and what the symbol stands for, for the help's legend.
    pub fn legend(self) -> (&'static str, &'static str) {
        match self {
            Symbol::Knight => ("knight", "knight: shock cavalry with a lance"),
            Symbol::Sergeant => ("sergeant", "sergeant: shock cavalry with a sword or axe"),
            Symbol::HorseArcher => ("horse-archer", "horse archer: shooting cavalry"),
            Symbol::MountedInfantry => ("mounted-infantry", "mounted infantry (K2)"),
            Symbol::MountedRifleman => ("mounted-rifleman", "cavalry with rifles (ASL)"),
            Symbol::Horse => ("horse", "a horse without a rider"),
            Symbol::Footman => ("footman", "footman: spear or hand weapon"),
            Symbol::ManAtArms => ("man-at-arms", "man-at-arms, or a rider on foot"),
            Symbol::Levy => ("levy", "levy: raw foot"),
            Symbol::Pikeman => ("pikeman", "pikeman"),
            Symbol::Archer => ("archer", "archer: bow, sling or javelins"),
            Symbol::Crossbowman => ("crossbowman", "crossbowman"),
            Symbol::Dwarf => ("dwarf", "dwarf"),
            Symbol::Berserk => ("berserk", "berserk"),
            Symbol::Mage => ("mage", "mage"),
            Symbol::Ghoul => ("ghoul", "ghoul or other undead"),
            Symbol::Rifleman => ("rifleman", "rifle squad (ASL)"),
            Symbol::Officer => ("officer", "officer on foot (ASL leader)"),
            Symbol::Prisoner => ("prisoner", "prisoner: shackled"),
            Symbol::Unknown => ("unknown", "unknown troops"),
        }
    }
}

/// Words in a template key that name a kind of figure, first match wins: what the figure
/// *is* outranks what it carries.
const KIND_WORDS: [(&str, Symbol); 8] = [
    ("dwarf", Symbol::Dwarf),
    ("berserk", Symbol::Berserk),
    ("mage", Symbol::Mage),
    ("wizard", Symbol::Mage),
    ("ghoul", Symbol::Ghoul),
    ("undead", Symbol::Ghoul),
    ("levy", Symbol::Levy),
    ("pike", Symbol::Pikeman),
];

/// The symbol of a figure: shackled figures are prisoners; a mounted figure shows its kind of
/// cavalry; on foot, a kind named by the template key, else the weapon, else the troop type.
pub fn troop_symbol(
    troop: Option<TroopType>,
    template: Option<&str>,
    weapon: Option<&str>,
    mounted: bool,
    conditions: &[String],
) -> Symbol {
    if conditions.iter().any(|w| w == "shackled") {
        return Symbol::Prisoner;
    }
    let key = template.unwrap_or("").to_ascii_lowercase();
    let weapon = weapon.unwrap_or("").to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| weapon.contains(w));
    let firearm = has(&["rifle", "pistol", "carbine", "musket", "smg"]);
    let kind = KIND_WORDS
        .iter()
        .find(|(word, _)| key.contains(word))
        .map(|(_, s)| *s);
    match troop {
        None => Symbol::Unknown,
        Some(TroopType::Horse) => Symbol::Horse,
        Some(TroopType::ShockCavalry) if mounted && firearm => Symbol::MountedRifleman,
        Some(TroopType::ShockCavalry) if mounted && has(&["lance"]) => Symbol::Knight,
        Some(TroopType::ShockCavalry) if mounted => Symbol::Sergeant,
        Some(TroopType::ShootingCavalry) if mounted => Symbol::HorseArcher,
        Some(TroopType::MountedInfantry) if mounted => Symbol::MountedInfantry,
        _ if kind.is_some() => kind.unwrap_or(Symbol::Unknown),
        _ if has(&["crossbow"]) => Symbol::Crossbowman,
        _ if has(&["bow", "sling", "javelin"]) => Symbol::Archer,
        _ if has(&["pistol"]) || key.contains("leader") => Symbol::Officer,
        _ if firearm => Symbol::Rifleman,
        Some(TroopType::ShockCavalry | TroopType::ShootingCavalry) => Symbol::ManAtArms,
        _ if has(&["sword"]) => Symbol::ManAtArms,
        _ => Symbol::Footman,
    }
}

/// The factor row printed on a counter, wargame style: blows left, armour, movement left
/// ("4 3 6.5"); a factor the figure lacks is "-". Movement uses decimals whatever the
/// fraction setting, because the map font has no fraction glyphs and "6 1/2" does not fit.
pub fn factor_row(look: &CounterLook) -> String {
    let num = |v: Option<u8>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
    let mv = look.move_left.map_or_else(
        || "-".to_string(),
        |m| {
            let (n, d) = m.as_fraction();
            let text = format!("{:.2}", n as f64 / d as f64);
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        },
    );
    format!("{} {} {}", num(look.blows), num(look.armour), mv)
}

/// The letter of a gait on the counter: H halt, W walk, T trot, C canter, G gallop.
pub fn gait_letter(gait: Gait) -> char {
    match gait {
        Gait::Halt => 'H',
        Gait::Walk => 'W',
        Gait::Trot => 'T',
        Gait::Canter => 'C',
        Gait::Gallop => 'G',
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
        symbol: troop_symbol(
            fig.troop,
            fig.template,
            fig.weapon,
            mount.is_some(),
            fig.conditions,
        ),
        blows: fig.blows,
        armour: fig.armour,
        move_left: mount.map_or(fig.move_left, |m| m.move_left),
        gait: mount.and_then(|m| m.gait),
        hero: fig.hero,
        moved: fig.moved || mount.is_some_and(|m| m.moved),
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

    /// Issue 16 item 2: "a symbol for each troop type (knight, sergeant, footman, archer,
    /// crossbowman, dwarf, mage, horse, prisoner …)" — a dwarf, a footman and a prisoner no
    /// longer all read "F".
    #[test]
    fn symbols_follow_what_the_figure_is_then_its_weapon_then_its_troop_type() {
        use TroopType::*;
        let none: &[String] = &[];
        let sym = |t, key, w, mounted| troop_symbol(Some(t), Some(key), Some(w), mounted, none);
        assert_eq!(
            sym(ShockCavalry, "knight_on_destrier", "lance", true),
            Symbol::Knight
        );
        assert_eq!(
            sym(ShockCavalry, "sergeant", "sword", true),
            Symbol::Sergeant
        );
        assert_eq!(
            sym(ShockCavalry, "knight", "lance", false),
            Symbol::ManAtArms
        );
        assert_eq!(
            sym(ShootingCavalry, "horse_archer", "bow", true),
            Symbol::HorseArcher
        );
        assert_eq!(
            sym(MountedInfantry, "dwarf_rider", "axe", true),
            Symbol::MountedInfantry
        );
        assert_eq!(
            sym(MountedInfantry, "dwarf_rider", "axe", false),
            Symbol::Dwarf
        );
        assert_eq!(
            sym(ShockCavalry, "cavalry_leader", "pistol", true),
            Symbol::MountedRifleman
        );
        assert_eq!(sym(Horse, "destrier", "hooves", false), Symbol::Horse);
        assert_eq!(sym(Foot, "footman", "spear", false), Symbol::Footman);
        assert_eq!(sym(Foot, "raw_levy", "spear", false), Symbol::Levy);
        assert_eq!(sym(Foot, "pikeman", "pike", false), Symbol::Pikeman);
        assert_eq!(sym(Foot, "archer", "Longbow", false), Symbol::Archer);
        assert_eq!(sym(Foot, "x", "heavy crossbow", false), Symbol::Crossbowman);
        assert_eq!(sym(Foot, "dwarf_axeman", "axe", false), Symbol::Dwarf);
        assert_eq!(sym(Foot, "nordic_berserk", "axe", false), Symbol::Berserk);
        assert_eq!(sym(Foot, "hedge_mage", "dagger", false), Symbol::Mage);
        assert_eq!(sym(Foot, "ghoul", "claws", false), Symbol::Ghoul);
        assert_eq!(sym(Foot, "squad", "rifle", false), Symbol::Rifleman);
        assert_eq!(sym(Foot, "leader", "pistol", false), Symbol::Officer);
        assert_eq!(
            sym(Foot, "armoured_human", "sword", false),
            Symbol::ManAtArms
        );
        let shackled = ["shackled".to_string()];
        assert_eq!(
            troop_symbol(
                Some(Foot),
                Some("human_warrior"),
                Some("sword"),
                false,
                &shackled
            ),
            Symbol::Prisoner
        );
        assert_eq!(troop_symbol(None, None, None, false, none), Symbol::Unknown);
        let stems: std::collections::HashSet<_> =
            Symbol::ALL.iter().map(|s| s.file_stem()).collect();
        assert_eq!(stems.len(), Symbol::ALL.len(), "one file per symbol");
    }

    /// The factor row reads blows, armour, movement left; a pair moves at its mount's
    /// allowance and gait, and either one having moved marks the counter.
    #[test]
    fn the_factor_row_prints_blows_armour_and_the_pairs_movement() {
        let rider = FigureFacts {
            troop: Some(TroopType::ShockCavalry),
            blows: Some(4),
            armour: Some(3),
            move_left: None,
            ..Default::default()
        };
        let mount = MountFacts {
            gait: Some(Gait::Trot),
            move_left: Mp::ratio(13, 2),
            moved: true,
            ..Default::default()
        };
        let look = counter_look(GridKind::Square, &rider, Some(&mount));
        assert_eq!(factor_row(&look), "4 3 6.5");
        assert_eq!(look.gait.map(gait_letter), Some('T'));
        assert!(look.moved && !look.hero);
        let alone = counter_look(GridKind::Square, &FigureFacts::default(), None);
        assert_eq!(factor_row(&alone), "- - -");
        assert_eq!(alone.gait, None);
        let foot = FigureFacts {
            move_left: Mp::ratio(35, 4),
            hero: true,
            ..Default::default()
        };
        let look = counter_look(GridKind::Hex, &foot, None);
        assert_eq!(factor_row(&look), "- - 8.75");
        assert!(look.hero && !look.moved);
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
            ..Default::default()
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
