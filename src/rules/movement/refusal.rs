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
    /// The step costs more than is left (H3: "the mount cannot execute the turn").
    TooDear {
        /// What the step costs.
        cost: Mp,
        /// What is left.
        left: Mp,
    },
}

impl fmt::Display for StepRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepRefusal::OffMap(c) => write!(f, "{c} is off the map"),
            StepRefusal::Impassable(c, t) => write!(f, "{c} is {t}: impassable (R3/A10)"),
            StepRefusal::Enemy(c) => {
                write!(f, "R4: {c} is held by an enemy; it cannot be entered")
            }
            StepRefusal::WrongKind(s) => write!(f, "{s}"),
            StepRefusal::NotAtThisGait(what, g) => {
                write!(f, "H3/H5: {what} only at a stand or walk, not at a {g}")
            }
            StepRefusal::VeerLimit(n) => {
                write!(
                    f,
                    "H4: a galloping horse may veer at most {n} times in its move"
                )
            }
            StepRefusal::Stopped => write!(
                f,
                "D16: the figure has stopped (it met an enemy's front or settled its facing)"
            ),
            StepRefusal::BadSettle(_) => write!(
                f,
                "H6/D16: the free final adjustment only lines a diagonal counter up with the \
                 grid, or turns 45° after contact"
            ),
            StepRefusal::BadPivot(k) => write!(f, "no pivot of {k} steps for this figure"),
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
            StepRefusal::TooDear { cost, left } => {
                write!(f, "H3: it costs {cost} and only {left} is left")
            }
        }
    }
}
