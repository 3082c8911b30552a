//! Components of a figure entity. A mounted figure is two entities — rider and mount — linked
//! by [`RidingOn`] / [`CarriedBy`] (A1); both carry the same [`Position`].

use crate::rules::asl::{HorseMf, InfantryMf};
use crate::rules::gait::Gait;
use crate::rules::grid::{Cell, Dir, StandShape};
use crate::rules::movement::Hand;
use crate::rules::mp::Mp;
use crate::rules::ruleset::{Encumbrance, TroopType};
use bevy::prelude::*;

/// The id a level and orders use for a figure. Immutable: it changes only by an insert or a
/// removal, which the hooks report to the index of ids ([`crate::sim::figure_index::FigureIndex`]).
#[derive(Component, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[component(
    immutable,
    on_insert = crate::sim::figure_index::figure_ids_changed,
    on_remove = crate::sim::figure_index::figure_ids_changed
)]
pub struct FigureId(pub String);

/// Display name from the template ("Knight", "Destrier").
#[derive(Component, Clone, Debug)]
pub struct FigureName(pub String);

/// Side index into the level's sides.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SideId(pub u8);

/// The cell a figure occupies (D10a).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position(pub Cell);

/// Facing of a foot figure, heading of a mount (D10, H3–H7).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facing(pub Dir);

/// A mount's counter stands diagonally after a veer (H6); cleared by the final adjustment.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Diagonal(pub Option<Hand>);

/// Gait of a mount (H2); foot figures walk.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct GaitState {
    /// Current gait.
    pub gait: Gait,
    /// Gait at the start of this half-move, for the D5 change limit.
    pub at_half_start: Gait,
    /// Gaits this figure is capable of (D5 counts them; K2 removes gallop for mounted infantry).
    pub capable: Vec<Gait>,
}

/// K1 bookkeeping: consecutive gallop turns, and whether this turn must be a walk.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GallopStreak {
    /// Turns galloped in a row, including this one if it galloped.
    pub turns: u8,
    /// Galloped at any time this turn.
    pub galloped_this_turn: bool,
    /// K1: must walk this turn.
    pub must_rest: bool,
}

/// Veers made at a gallop this turn (H4).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VeersThisTurn(pub u8);

/// Movement allowance of this half-move.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allowance {
    /// The half-move allowance penalties are fractions of (D14, D15).
    pub basis: Mp,
    /// What is left.
    pub left: Mp,
    /// Moved (or spent movement) this half-move.
    pub used_any: bool,
}

/// The rate this figure's allowance is computed from: walk rate of a mount (H1), foot rate of
/// a figure on foot, per the ruleset's `rate_per`.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate(pub Mp);

/// Horse class key (H1), on mounts only.
#[derive(Component, Clone, Debug)]
pub struct HorseClassKey(pub String);

/// Blows per melee phase and what is left (D7).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blows {
    /// Per melee phase.
    pub max: u8,
    /// Left.
    pub left: u8,
}

/// Body points.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Body {
    /// Full health.
    pub max: u16,
    /// Now.
    pub left: u16,
}

/// Main weapon.
#[derive(Component, Clone, Debug)]
pub struct Weapon(pub String);

/// Armour class.
#[derive(Component, Clone, Copy, Debug)]
pub struct Armour(pub u8);

/// Carries a shield.
#[derive(Component, Clone, Copy, Debug)]
pub struct Shield(pub bool);

/// Encumbrance (D13).
#[derive(Component, Clone, Copy, Debug)]
pub struct Encumbered(pub Encumbrance);

/// Weight in pounds (D13, D16).
#[derive(Component, Clone, Copy, Debug)]
pub struct Weight(pub u32);

/// Dexterity (D1 option, D13).
#[derive(Component, Clone, Copy, Debug)]
pub struct Dexterity(pub u8);

/// Stand shape and size (D10, D13).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stand {
    /// Square (foot) or long (mount).
    pub shape: StandShape,
    /// Size in tenths of an inch (D16: larger stands may leave contact).
    pub size: u8,
}

/// Troop type (K2).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Troop(pub TroopType);

/// Raw troops / hero (I1).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Quality {
    /// Raw troops.
    pub raw: bool,
    /// A hero or leader.
    pub hero: bool,
}

/// Named movement conditions (R1), e.g. `shackled`, `quick_step`.
#[derive(Component, Clone, Debug, Default)]
pub struct Conditions(pub Vec<String>);

impl Conditions {
    /// The condition words of a figure that may have no `Conditions` component (none then).
    pub fn words_of(c: Option<&Conditions>) -> &[String] {
        c.map_or(&[], |c| &c.0)
    }
}

/// A rider on its mount (A1).
#[derive(Component, Clone, Copy, Debug)]
pub struct RidingOn(pub Entity);

/// A mount and its rider (A1).
#[derive(Component, Clone, Copy, Debug)]
pub struct CarriedBy(pub Entity);

/// Steed size (R2) of a mount.
#[derive(Component, Clone, Copy, Debug)]
pub struct SteedSizeOf(pub crate::rules::ruleset::SteedSize);

/// ASL infantry MF this MPh (A4).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct AslInfantry(pub InfantryMf);

/// ASL horse MF this MPh (A4, A7, A10), and whether it is exhausted (CX).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct AslHorse {
    /// MF bookkeeping.
    pub mf: HorseMf,
    /// Declared a Gallop this MPh.
    pub galloping: bool,
    /// Exhausted (A10): no Gallop while CX.
    pub cx: bool,
}

/// A figure's fighting profile (strength, training, tradition, parry and dodge bonuses,
/// spells…), from `data/combat.ron` by template (§6).
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Combatant(pub crate::rules::melee::tables::Profile);

/// What melee has done to a figure and what it holds: posture, stun, berserk, restraints,
/// weapon drawn or lost, shield, missiles, spells, once-a-turn cards (D6–D8, §6).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct CombatStatus(pub crate::rules::melee::fight::CombatState);

/// The ruleset template a figure was made from (its key in `templates`): the house tables
/// (`data/cavalry.ron` firepower) are looked up by it.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct TemplateKey(pub String);

/// A18: the riderless horses a unit leads; they move with it.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Leads(pub Vec<Entity>);

/// A18: the unit leading this riderless horse.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LedBy(pub Entity);

/// ASL state beyond movement: a declared Charge (A16), a broken unit (A13), a unit that
/// charged this MPh and may not fire in the advancing fire phase (A16).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct AslCavalry {
    /// The Charge declared this MPh: the target's entity and the hex it holds.
    pub charge: Option<(Entity, crate::rules::grid::Cell)>,
    /// The unit charged this MPh (A16: no advancing fire).
    pub charged: bool,
    /// Broken (A13).
    pub broken: bool,
}

/// Where a figure went in its last accepted move: the cell and facing it started from, then
/// after each step taken (a pivot repeats the cell with a new facing). Public, as the log line
/// of the move is; kept so that a window can show the move as it went, cell by cell with its
/// pivots (issue 16 item 3). Only an accepted move writes it.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Trail(pub Vec<(Cell, Dir)>);

/// D4 (seed 003: "If crossbows are used, no movement is possible while reloading"): the figure
/// shot a weapon that reloads after each shot in the fire phase just before this half-move,
/// and reloads it (the weapon's name): it may not move this half-move. Set by
/// `fire::after_fire`, cleared when the next half-move begins.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Reloading(pub String);
