//! The words every order is given and refused in: [`Order`], what a player (or the AI, or a
//! script) asks a figure to do, and [`Refusal`], why it was not done, naming its rule. They sit
//! at the bottom of the simulation: the router ([`super::router`]) and every handler speak
//! them, and nothing here knows a handler.

use crate::rules::gait::Gait;
use crate::rules::grid::GridKind;
use crate::rules::movement::Step;
use crate::rules::ruleset::Activity;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A typed order, as written in orders files (RON) and sent by the window and the AI.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Order {
    /// Move along a path of steps (D14, H3–H7); pivots and backing are steps too.
    Move {
        /// Figure id (a rider or a figure on foot).
        unit: String,
        /// The steps, in order.
        steps: Vec<Step>,
    },
    /// Change gait before moving this half-move (D5, K1, A10).
    SetGait {
        /// Figure id (rider or mount).
        unit: String,
        /// New gait.
        gait: Gait,
    },
    /// Mount a riderless steed next to the figure (same cell in `asl`) — D15, R2, A4.
    Mount {
        /// The figure on foot.
        unit: String,
        /// The steed's id.
        horse: String,
    },
    /// Get off the mount, onto `to` (an adjacent free cell) or the first free neighbour;
    /// `asl` riders stay in the hex (A2).
    Dismount {
        /// The rider.
        unit: String,
        /// Where to step down.
        #[serde(default)]
        to: Option<(i32, i32)>,
    },
    /// Spend movement on an activity (D15, R2).
    Activity {
        /// Figure id.
        unit: String,
        /// What it does.
        activity: Activity,
    },
    /// The side now moving ends its half-move (D4). In the TAC phase and the melee rounds:
    /// every figure still to choose passes for the rest of that melee phase.
    EndSide,
    /// A figure's face-down cards for the TAC phase or a melee card round (D6, D7): a TAC
    /// card (and the enemy it designates) and MELEE cards, paid for in blows.
    PlayCards {
        /// The figure (a rider, a figure on foot, or a mount's id for its horse cards).
        unit: String,
        /// A TAC card: every figure may play one in the TAC phase; in the card rounds only
        /// to join a melee (D8).
        #[serde(default)]
        tac: Option<crate::rules::melee::cards::TacCard>,
        /// The enemy the TAC card designates (FLECHE, CHARGE; CLOSE may name one).
        #[serde(default)]
        tac_target: Option<String>,
        /// MELEE cards, several if the blows pay for them; none is PASSIVE SHIELD PARRY.
        #[serde(default)]
        melee: Vec<crate::rules::melee::cards::MeleeCard>,
    },
    /// A figure's guess at the direction of an opponent's face-down DODGE (§6, D7).
    GuessDodge {
        /// The guessing figure.
        unit: String,
        /// The dodging figure.
        target: String,
        /// Left, Right or Back, by the dodger's own orientation.
        guess: crate::rules::melee::cards::DodgeDir,
    },
    /// A figure passes its choice this round (PASSIVE SHIELD PARRY, or the card D7 forces), or
    /// makes no guess at a dodge.
    Pass {
        /// The figure.
        unit: String,
    },
    /// In the TAC phase or the melee rounds: every figure of `side` passes for the rest of
    /// this melee phase (PASSIVE SHIELD PARRY; when D7 forbids a seventh in a row, the first
    /// card it may play), and makes no dodge guesses. The other side plays on.
    PassMelee {
        /// The side's name.
        side: String,
    },
    /// An AI unit (a level group, or a figure in none) sums its risk factor and rolls on the
    /// actions table (I1, I2): once a turn, logged and replayed like every die.
    ActionRoll {
        /// The unit's name.
        unit: String,
    },
    /// D2/C1: a mounted figure's face-down charge orders — its targets in the order it will
    /// charge them. In `asl`, during the movement phase: a Charge against one enemy unit
    /// (A16).
    DeclareCharge {
        /// The rider (or its mount's id).
        unit: String,
        /// Enemy figure ids, in order.
        targets: Vec<String>,
    },
    /// D2/C1: a mounted figure's face-down "no charge".
    NoCharge {
        /// The rider (or its mount's id).
        unit: String,
    },
    /// C5: a charged figure's face-down answer as the horse closes: a TAC card and a MELEE
    /// card.
    AnswerCharge {
        /// The charged figure.
        unit: String,
        /// Its TAC card (STAND GROUND by default).
        tac: crate::rules::melee::cards::TacCard,
        /// Its MELEE card.
        reply: crate::rules::charge::ride::Reply,
    },
    /// A18: a unit takes a riderless horse (its own side's, or a captured one) on the lead;
    /// led horses move with it.
    Lead {
        /// The leading unit.
        unit: String,
        /// The horse.
        horse: String,
    },
    /// A18: a unit lets a led horse go; it stays where it is.
    Release {
        /// The leading unit.
        unit: String,
        /// The horse.
        horse: String,
    },
    /// A18 (ASL 13.7): a unit eliminates a horse it leads, as it would a support weapon.
    EliminateHorse {
        /// The leading unit.
        unit: String,
        /// The horse.
        horse: String,
    },
    /// D3: one shot of the figure's missile weapon at an enemy, in its side's fire sub-step
    /// (K2–K4; A11–A14 in `asl`). See `sim::fire`.
    Fire {
        /// The shooter (a rider, a figure on foot, or a mount's id for its rider).
        unit: String,
        /// The enemy shot at (a mount's id means its rider; K4 decides which is hit).
        target: String,
    },
    /// D3: one spell, in its side's casting sub-step (D5: once a turn). See `sim::fire`.
    Cast {
        /// The caster.
        unit: String,
        /// The spell's key in `data/combat.ron`.
        spell: String,
        /// The figure it is cast on; itself when left out.
        #[serde(default)]
        target: Option<String>,
    },
    /// §6 FEROCITY: a figure of the side moving tries to calm a berserk friend it touches,
    /// once a turn; on 50% − the berserk's IQ and Wisdom he turns on it instead.
    CalmBerserk {
        /// The calming friend.
        unit: String,
        /// The berserk.
        berserk: String,
    },
    /// A17 (`asl`): a Cavalry Wave — the units gallop at once and `charger` Charges `target`.
    CavalryWave {
        /// The units of the chain.
        units: Vec<String>,
        /// The unit that makes the wave's Charge.
        charger: String,
        /// The enemy it Charges.
        target: String,
    },
}

impl Order {
    /// The figure an order given face down speaks for (D2, D7, D9, C1, C5): its cards or its
    /// pass (a pass is PASSIVE SHIELD PARRY, face down like any play, D9), its dodge guess or
    /// its making none, its charge orders or its answer to a charge. `None` for an order
    /// given openly. Play across machines and by email (issue 30) keep these from the other
    /// side until they are revealed.
    pub fn face_down_unit(&self) -> Option<&str> {
        match self {
            Order::PlayCards { unit, .. }
            | Order::Pass { unit }
            | Order::GuessDodge { unit, .. }
            | Order::DeclareCharge { unit, .. }
            | Order::NoCharge { unit }
            | Order::AnswerCharge { unit, .. } => Some(unit),
            _ => None,
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Move { unit, steps } => {
                let n = steps.len();
                write!(f, "move {unit} ({n} step{})", if n == 1 { "" } else { "s" })
            }
            Order::SetGait { unit, gait } => write!(f, "set gait of {unit} to {gait}"),
            Order::Mount { unit, horse } => write!(f, "{unit} mounts {horse}"),
            Order::Dismount { unit, to } => match to {
                Some((x, y)) => write!(f, "{unit} dismounts to ({x},{y})"),
                None => write!(f, "{unit} dismounts"),
            },
            Order::Activity { unit, activity } => write!(f, "{unit}: {activity:?}"),
            Order::EndSide => write!(f, "end of the side's half-move"),
            Order::PlayCards { unit, .. } => write!(f, "{unit} plays cards face down"),
            Order::GuessDodge { unit, target, .. } => {
                write!(f, "{unit} guesses {target}'s dodge")
            }
            Order::Pass { unit } => write!(f, "{unit} passes"),
            Order::PassMelee { side } => write!(f, "{side} passes for the rest of the melee"),
            Order::ActionRoll { unit } => write!(f, "{unit} rolls on the actions table"),
            // Face down: a declaration and "no charge" read the same (D9).
            Order::DeclareCharge { unit, .. } | Order::NoCharge { unit } => {
                write!(f, "{unit} writes its charge orders face down")
            }
            Order::AnswerCharge { unit, .. } => write!(f, "{unit} answers the charge face down"),
            Order::Lead { unit, horse } => write!(f, "{unit} leads {horse}"),
            Order::Release { unit, horse } => write!(f, "{unit} lets {horse} go"),
            Order::EliminateHorse { unit, horse } => write!(f, "{unit} eliminates {horse}"),
            Order::CalmBerserk { unit, berserk } => write!(f, "{unit} tries to calm {berserk}"),
            Order::Fire { unit, target } => write!(f, "{unit} shoots at {target}"),
            Order::Cast {
                unit,
                spell,
                target,
            } => match target {
                Some(t) => write!(f, "{unit} casts {spell} on {t}"),
                None => write!(f, "{unit} casts {spell}"),
            },
            Order::CavalryWave {
                charger, target, ..
            } => {
                write!(f, "Cavalry Wave: {charger} charges {target}")
            }
        }
    }
}

/// Steps as short words a player reads in the log: `ahead ahead veer-right turn+90° back
/// to-E face-N`.
pub fn steps_text(grid: GridKind, steps: &[Step]) -> String {
    let step_deg = 360 / grid.dirs() as i32;
    steps
        .iter()
        .map(|s| match s {
            Step::Forward => "ahead".to_string(),
            Step::Veer(h) => format!("veer-{}", if h.sign() < 0 { "left" } else { "right" }),
            Step::Pivot(k) => format!("turn{:+}°", *k as i32 * step_deg),
            Step::Back => "back".to_string(),
            Step::Go(d) => format!("to-{}", grid.dir_name(*d)),
            Step::Settle(d) => format!("face-{}", grid.dir_name(*d)),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why an order was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Refusal(pub String);

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A refusal, as a handler returns it.
pub(crate) fn refuse<T>(s: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal(s.into()))
}
