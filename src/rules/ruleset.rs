//! A ruleset: the numbers and rule variants of one of the three games (brief §0), as data.
//!
//! `destrier`, `asl` and `realms` ship in `rulesets/` and are embedded in the binary; a level
//! names the one it plays. Everything that differs between the seeds lives here so the engine
//! has one code path per rule.

use super::gait::Gait;
use super::grid::{GridKind, StandShape};
use super::mp::{Frac, Mp};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One ruleset file.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ruleset {
    /// `destrier`, `asl`, `realms`, or a custom name.
    pub name: String,
    /// The tiling its levels use.
    pub grid: GridKind,
    /// Whether a figure's rate is for a whole turn (halved for each half-move, D4) or for
    /// one half-move (an ASL MPh, a realms round).
    pub rate_per: RatePer,
    /// Feet in one cell, for rules written in feet (R2: 5-ft hexes). 0 where unused.
    #[serde(default)]
    pub cell_feet: i64,
    /// How foot figures pay for turning.
    pub foot_style: MoveStyle,
    /// How mounted figures pay for turning.
    pub mounted_style: MoveStyle,
    /// Multiplier of the walk rate for each gait (H2; canter is a ruleset value).
    pub gaits: BTreeMap<Gait, Frac>,
    /// Walk rates of horse classes in cells per turn (H1), or MF (A7).
    pub horse_classes: BTreeMap<String, HorseClass>,
    /// Foot turning fractions (D14).
    pub foot_turn: FootTurn,
    /// Horse manoeuvre costs (H3–H5).
    pub horse: HorseCosts,
    /// How a mount turns in place: seed 000's grid manoeuvres (H3–H7, the default) or seed
    /// 004's cavalry supplement ("Cavalry may turn 45° per ¼ of their movement, or per ½ move
    /// at Gallop"). Left out: the grid manoeuvres, so older ruleset files load unchanged.
    #[serde(default)]
    pub horse_turning: HorseTurning,
    /// K1: gallop allowed at most this many turns running, then a walk turn.
    #[serde(default)]
    pub gallop_streak: Option<u8>,
    /// Activity penalties (D15, R2), looked up by activity.
    pub activities: BTreeMap<Activity, Penalty>,
    /// How (dis)mounting is paid for (D15, R2, A4).
    pub mounting: MountRule,
    /// Multiplier of a cell's cost for crawling figures (R3).
    #[serde(default)]
    pub crawl_cost: Option<Mp>,
    /// R4: the cost of passing through an ally's cell (difficult terrain).
    pub ally_pass_cost: Mp,
    /// R4: a hostile's controlled cell may be entered after winning a contest (the house
    /// opposed roll of `rules::chance`); without it hostile cells are closed.
    #[serde(default)]
    pub contest: bool,
    /// D1 option: the side whose most dexterous figure still standing has the higher Dexterity
    /// acts first in fire, spells and movement, without a roll (ties roll 1d6 as usual). Off
    /// when left out, so older ruleset files load unchanged.
    #[serde(default)]
    pub initiative_by_dexterity: bool,
    /// ASL numbers (A4, A7, A10, A16), present only for `asl`.
    #[serde(default)]
    pub asl: Option<AslNumbers>,
    /// Named movement conditions (R1): percentages and flats such as shackles or a ghoul's
    /// touch.
    #[serde(default)]
    pub conditions: BTreeMap<String, Condition>,
    /// §6 PREPARE SPELL: the seed's optional limits on Mages in melee (all off when left out,
    /// so older ruleset files load unchanged).
    #[serde(default)]
    pub prepare_spell: PrepareSpellLimits,
    /// Figure templates that levels instantiate.
    pub templates: BTreeMap<String, Template>,
}

/// §6 PREPARE SPELL's three optional rules "to further limit the melee capabilities of
/// Mages", each a switch a ruleset may turn on. `Default` is the plain card: one PREPARE SPELL
/// readies one spell, kept until it is cast.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PrepareSpellLimits {
    /// PREPARE SPELL must be played as many times as the level of the spell to be cast.
    pub per_level: bool,
    /// A Mage injured or disturbed while his spell is prepared loses the preparation and may
    /// prepare again only the following turn.
    pub lost_when_disturbed: bool,
    /// A Mage caught preparing a spell has half his blows.
    pub halved_blows: bool,
}

/// Whether rates are per turn or per half-move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RatePer {
    /// C&S rates are per turn; each half-move gets half (D4, "Special movement comments").
    Turn,
    /// ASL MF and realms species feet are per movement phase = per half-move.
    HalfMove,
}

/// How a kind of figure pays for changing direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoveStyle {
    /// Destrier foot (D14): moves straight along its facing; each change of facing costs a
    /// fraction of the half-move allowance.
    FootFacing,
    /// Horses on the grid (H3–H7): heading, veers, pivots, backing.
    Horse,
    /// No facing costs: any neighbour for the cell's cost (ASL cavalry and infantry, 13.3;
    /// realms foot).
    Free,
}

/// A horse class (H1, A7).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HorseClass {
    /// Walk rate, cells (or MF) per `rate_per`.
    pub walk: Mp,
    /// The gaits it is capable of (D5 counts them).
    pub gaits: Vec<Gait>,
}

/// D14 turning fractions of the half-move allowance.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FootTurn {
    /// A new direction still within the front: 1/5.
    pub front: Frac,
    /// Into the side: 1/4.
    pub side: Frac,
    /// Into the rear: 1/2.
    pub rear: Frac,
    /// Minimum of the front fraction: 1 inch = 1 cell.
    pub minimum: Mp,
}

/// H3–H5 manoeuvre costs and the H4 gallop veer limit.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HorseCosts {
    /// A veer: one diagonal cell (squares) or a cell 60° off (hexes): 2.
    pub veer: Mp,
    /// A right-angle pivot in place (90° squares, 120° hexes): 3.
    pub right_angle: Mp,
    /// A turn-around in place (180°): 4.
    pub turn_around: Mp,
    /// Backing one cell, walk only: 2.
    pub back_up: Mp,
    /// Veers allowed in a whole gallop move (turn): 2.
    pub gallop_veers: u8,
}

/// Which seed prices a mount's turn in place (a ruleset switch).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum HorseTurning {
    /// Seed 000 (H3–H7): right angle 3, turn around 4, at a stand or walk only.
    #[default]
    Grid,
    /// Seed 004's cavalry supplement, at any gait: every 45° of turn takes a quarter of the
    /// half-move allowance, a half at a gallop (*our reading* of "45° per ¼ of their
    /// movement": the quarter is the price of the turn). A hex's 60° takes 60/45 of that.
    Supplement,
}

/// Activities that cost movement (D15, R2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Activity {
    /// Stand up from prone.
    StandUp,
    /// Open a door.
    OpenDoor,
    /// Unlock a door.
    UnlockDoor,
    /// Read a scroll.
    ReadScroll,
    /// Pick up a fallen comrade.
    PickUpComrade,
    /// Fired or cast before moving (halves the allowance, foot only).
    FiredFirst,
    /// Pick up an item from the ground.
    PickUpItem,
    /// Ready a shield.
    ReadyShield,
    /// Draw or switch a weapon.
    DrawWeapon,
    /// Pick up a weapon and ready it.
    PickUpAndReady,
}

/// What an activity costs.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Penalty {
    /// A fraction of the half-move allowance (D15: 1/2, full = 1).
    Allowance(Frac),
    /// A fraction of the allowance that depends on encumbrance (D15 stand up, mount).
    ByEncumbrance {
        /// Unencumbered.
        none: Frac,
        /// Partly encumbered.
        partial: Frac,
        /// Encumbered.
        full: Frac,
    },
    /// A percentage of the *species* rate, not the augmented one (R2).
    Species(Frac),
    /// Flat feet (R2: 10 ft) — converted with `cell_feet`.
    Feet(i64),
    /// Halves the allowance before any other penalty (D15 fired or cast first; mounted
    /// figures exempt).
    HalveAllowance,
    /// No penalty (D15: drawing a ready weapon, crossbow reload).
    Free,
}

/// How (dis)mounting is paid for.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum MountRule {
    /// D15: a fraction of the rider's half-move allowance by encumbrance.
    ByEncumbrance {
        /// Unencumbered: 1/4.
        none: Frac,
        /// Partly encumbered: 1/2.
        partial: Frac,
        /// Encumbered: full.
        full: Frac,
    },
    /// R2: a percentage of species movement by steed size.
    BySteedSize {
        /// Medium or large steed: 50%.
        large: Frac,
        /// Huge or bigger: 100%.
        huge: Frac,
    },
    /// A4: ASL's MF interplay between infantry and horse.
    Asl,
}

/// Encumbrance (D13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Encumbrance {
    /// Unencumbered.
    None,
    /// Partly encumbered.
    Partial,
    /// Fully encumbered.
    Full,
}

/// Steed size for R2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SteedSize {
    /// Medium or large steed (a horse).
    Large,
    /// Huge or bigger (an elephant, a dragon).
    Huge,
}

/// ASL's numbers (A4, A7, A10, A16).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AslNumbers {
    /// Infantry basic MF: 4 (A4).
    pub infantry_mf: Mp,
    /// (Dis)mount cost in infantry MF: 1 (A4).
    pub mount_mf: Mp,
    /// Gallop declared at the start of the MPh: +8 (A10).
    pub gallop_start: Mp,
    /// Gallop declared during the MPh: +4 (A10).
    pub gallop_during: Mp,
}

/// A movement condition (R1): a percentage of the total, a flat amount, or both.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// Percentage change of the total (shackles: -50% → "-1/2"; quick step +25% → "1/4").
    #[serde(default)]
    pub percent: Option<Frac>,
    /// Flat change in feet (ghoul's touch: -25).
    #[serde(default)]
    pub feet: Option<i64>,
    /// Flat change in cells (for rulesets not in feet).
    #[serde(default)]
    pub cells: Option<Mp>,
    /// The figure crawls (R3).
    #[serde(default)]
    pub crawling: bool,
}

/// What a figure is, for the rules that care (K2, D11, A5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TroopType {
    /// Foot soldier or humanoid.
    Foot,
    /// Shock cavalry (K2: +1 charging).
    ShockCavalry,
    /// Shooting cavalry (K3).
    ShootingCavalry,
    /// Mounted infantry (K2: never gallops or shoots mounted, -1 in melee).
    MountedInfantry,
    /// A riderless mount.
    Horse,
}

/// A figure template: what a level's "knight on a destrier" means.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Template {
    /// Shown to players.
    pub name: String,
    /// Troop type of the rider/footman (K2).
    pub troop: TroopType,
    /// Foot movement rate per `rate_per` (cells; realms: cells of `cell_feet`).
    pub rate: Mp,
    /// Weight in pounds (D13, D16).
    pub weight: u32,
    /// Dexterity (D1 option, D13).
    pub dexterity: u8,
    /// Stand size in tenths of an inch (D13, D16: larger stands break contact).
    pub stand_size: u8,
    /// Main weapon (`sword`, `lance`, `axe`, …).
    pub weapon: String,
    /// Armour class 0–10 (C3 needs AC 4+).
    pub armour: u8,
    /// Carries a shield.
    pub shield: bool,
    /// Encumbrance (D13).
    pub encumbrance: Encumbrance,
    /// Body points.
    pub body: u16,
    /// Blows per melee phase.
    pub blows: u8,
    /// Raw troops (I1).
    #[serde(default)]
    pub raw: bool,
    /// A hero or leader (I1, A17).
    #[serde(default)]
    pub hero: bool,
    /// Movement conditions it starts with (R1).
    #[serde(default)]
    pub conditions: Vec<String>,
    /// The mount it rides, if any (A1: two linked figures).
    #[serde(default)]
    pub mount: Option<MountTemplate>,
    /// For a riderless horse template (`troop: Horse`): its class in `horse_classes` (H1).
    #[serde(default)]
    pub horse_class: Option<String>,
}

/// The steed of a mounted template.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MountTemplate {
    /// Shown to players ("destrier").
    pub name: String,
    /// Key into `horse_classes`.
    pub class: String,
    /// Weight in pounds.
    pub weight: u32,
    /// Body points.
    pub body: u16,
    /// Blows (horse cards).
    pub blows: u8,
    /// Steed size (R2).
    pub size: SteedSize,
    /// Stand shape; long by default (D10).
    #[serde(default = "long_stand")]
    pub stand: StandShape,
}

fn long_stand() -> StandShape {
    StandShape::Long
}

impl Ruleset {
    /// The multiplier of a gait, if this ruleset has it.
    pub fn gait_multiplier(&self, g: Gait) -> Option<Frac> {
        if g == Gait::Halt {
            return Some(Frac::int(0));
        }
        self.gaits.get(&g).copied()
    }

    /// Converts feet to cells (R2), exactly.
    pub fn feet(&self, ft: i64) -> Mp {
        Mp::ratio(ft, self.cell_feet.max(1)).unwrap_or(Mp::ZERO)
    }

    /// The move style for a figure, mounted or not.
    pub fn style(&self, mounted: bool) -> MoveStyle {
        if mounted {
            self.mounted_style
        } else {
            self.foot_style
        }
    }
}
