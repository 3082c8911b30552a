//! Why a step is refused, naming the rule (D14–D17, H3–H7, R3, R4, A10).

use crate::rules::gait::Gait;
use crate::rules::grid::{Cell, Dir};
use crate::rules::mp::Mp;
use std::fmt;

/// Why a step is illegal, naming the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepRefusal {
    /// Off the map.
    OffMap(Cell),
    /// Impassable terrain, or terrain a galloping horse may not enter (A10).
    Impassable(Cell, String),
    /// An enemy stands there (R4: hostiles only by a contest; D16).
    Enemy(Cell),
    /// The step is not one this kind of figure makes (e.g. `Go` for a horse).
    WrongKind(&'static str),
    /// H3–H5: pivots and backing only at a stand or walk.
    NotAtThisGait(&'static str, Gait),
    /// H4: a galloping horse has used its two veers.
    VeerLimit(u8),
    /// The figure already stopped (D16 contact, or settled).
    Stopped,
    /// A settle to a facing H6 / D16 does not allow.
    BadSettle(Dir),
    /// A pivot of zero or an impossible angle.
    BadPivot(i8),
    /// D17/R4: a chance step this mover cannot roll for (it has no [`RollFacts`], or the
    /// caller takes sure steps only).
    NeedsRoll(Cell),
    /// D17: a mounted figure is too wide to squeeze between obstacles.
    TooWide(Cell),
    /// D10a: a roll here could leave the figure stopped in an occupied cell.
    RollInCrowd(Cell),
    /// D17/R4: one chance step per step and per move order.
    OneRoll,
    /// The step costs more than is left of the half-move allowance (D4), with no more
    /// telling rule known ([`StepRefusal::Dear`] names one).
    TooDear {
        /// What the step costs.
        cost: Mp,
        /// What is left.
        left: Mp,
    },
    /// The step costs more than is left, naming the rule that prices the step (D14 a foot
    /// turn, H3–H5 a horse's manoeuvre, R3 terrain, R4 an ally's cell, D17 a squeeze, seed
    /// 004's cavalry turning) or that cut what is left (R1, D16's evasive quarter).
    Dear {
        /// What the step costs.
        cost: Mp,
        /// What is left.
        left: Mp,
        /// The tag of the rule.
        rule: &'static str,
        /// What that rule says, in a player's words.
        why: &'static str,
    },
    /// A mount's turn in place that the rules do not have (H3, H7; seed 004 with the
    /// supplement switch): the direction steps asked for.
    HorsePivot {
        /// Direction steps asked for (+ clockwise).
        k: i8,
        /// On hexes.
        hex: bool,
        /// Under seed 004's cavalry supplement.
        supplement: bool,
    },
    /// A10: terrain a galloping ASL horse may not enter.
    NoGallop(Cell, String),
    /// A8: ASL cavalry may not enter an enemy-held hex except by a Charge; D10a: infantry
    /// never shares a hex with an enemy here.
    EnemyHex {
        /// The hex.
        at: Cell,
        /// The mover is cavalry.
        cavalry: bool,
    },
}

impl fmt::Display for StepRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepRefusal::OffMap(c) => write!(
                f,
                "D4: {c} is off the map; a figure moves only on the battle map"
            ),
            StepRefusal::Impassable(c, t) => write!(
                f,
                "R3: {c} is {t}, terrain no figure of this kind may enter; go round it"
            ),
            StepRefusal::NoGallop(c, t) => write!(
                f,
                "A10: a galloping horse may not enter {t} ({c}); go round it, or keep the horse \
                 from galloping this MPh"
            ),
            StepRefusal::EnemyHex { at, cavalry: true } => write!(
                f,
                "A8: {at} is held by an enemy; cavalry enters an enemy-held hex only by a Charge \
                 (DeclareCharge from 3 hexes or more)"
            ),
            StepRefusal::EnemyHex { at, cavalry: false } => write!(
                f,
                "D10a: {at} is held by an enemy and units never share a hex here; stop beside it"
            ),
            StepRefusal::Enemy(c) => write!(
                f,
                "R4: {c} is held by an enemy, whose controlled space is closed in this ruleset; \
                 stop beside it (D16) or go round"
            ),
            StepRefusal::WrongKind(s) => write!(f, "{s}"),
            StepRefusal::NotAtThisGait(what, g) => write!(
                f,
                "H3/H5: {what} only at a stand or walk, not at a {g}; slow to a walk first (D5)"
            ),
            StepRefusal::VeerLimit(n) => write!(
                f,
                "H4: a galloping horse may veer at most {n} times in its move (both half-moves \
                 together); ride straight on, or slow to a trot"
            ),
            StepRefusal::Stopped => write!(
                f,
                "D16: the figure has stopped (it met an enemy's front or settled its facing)"
            ),
            StepRefusal::BadSettle(_) => write!(
                f,
                "H6/D16: the free final adjustment only lines a diagonal counter up with the \
                 grid, or turns 45° after contact"
            ),
            StepRefusal::BadPivot(k) => write!(
                f,
                "D14: a turn of {k} direction steps is no change of direction; turn by 1 to 4 \
                 steps (45° each) on squares, 1 to 3 (60°) on hexes"
            ),
            StepRefusal::HorsePivot {
                k,
                hex,
                supplement: false,
            } => write!(
                f,
                "H3/H7: a mount turns in place only by a right angle ({}) or a turn around \
                 (180°), not by {k} direction steps{}",
                if *hex { "120°" } else { "90°" },
                if *hex {
                    "; to turn 60°, veer (a step 60° off its heading, H7)"
                } else {
                    "; to go diagonally, veer (H3)"
                }
            ),
            StepRefusal::HorsePivot {
                k,
                supplement: true,
                ..
            } => write!(
                f,
                "seed 004: a mount turns from one heading along the grid to another (45° per \
                 quarter of its move, per half at a gallop), not by {k} direction steps"
            ),
            StepRefusal::NeedsRoll(c) => write!(
                f,
                "D17/R4: the step into {c} needs a die roll (squeezing between obstacles, or \
                 contesting a hostile's cell)"
            ),
            StepRefusal::TooWide(c) => write!(
                f,
                "D17: a mounted figure cannot squeeze between the obstacles beside {c}"
            ),
            StepRefusal::RollInCrowd(c) => write!(
                f,
                "D10a: a roll from {c} could stop the figure in an occupied cell"
            ),
            StepRefusal::OneRoll => write!(
                f,
                "D17/R4: one roll per move order; order the rest once the die is seen"
            ),
            StepRefusal::TooDear { cost, left } => write!(
                f,
                "D4: the step costs {cost} and only {left} of the half-move allowance is left; \
                 shorten the move"
            ),
            StepRefusal::Dear {
                cost,
                left,
                rule,
                why,
            } => write!(
                f,
                "{rule}: {why}; the step costs {cost} and only {left} is left — shorten the \
                 move or find a cheaper way"
            ),
        }
    }
}
