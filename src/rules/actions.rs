//! The actions table of seed 004 (I2): a risk factor and a d6 give an action, and the action,
//! read against what the unit was already doing, gives the unit's conduct for the turn.
//!
//! Pure data and functions, because the table is a rule every unit obeys whoever plays it:
//! the roll itself is made by the game (`sim::action_roll`) so that it is logged and
//! replayed, and turning a conduct into orders is the player's job (the AI's planner).

use crate::rules::gait::Gait;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One cell of the actions table: what the d6 tells the unit to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Risk factor 0 or less: go on with the current action.
    Continue,
    /// Risk factor 0 or less, at a halt, and a 6: move towards the nearest visible enemy.
    AdvanceOnVisible,
    /// Walk to take cover in the nearest accessible terrain within one move, or away from all
    /// enemies.
    TakeCover,
    /// Halt in position facing the nearest enemy.
    Halt,
    /// Continue current actions facing the nearest enemy, charging if eligible.
    ContinueFacing,
    /// Advance towards the nearest enemy at gallop, charging if eligible.
    GallopAdvance,
    /// Canter further from the nearest enemy.
    CanterAway,
    /// Flee at gallop from the nearest enemy.
    Flee,
}

impl Action {
    /// The table's own words, for the log and the window's explanation.
    pub fn text(self) -> &'static str {
        match self {
            Action::Continue => "continue current actions",
            Action::AdvanceOnVisible => "a 6 at a halt: move towards the nearest visible enemy",
            Action::TakeCover => "walk to cover within one move, or away from all enemies",
            Action::Halt => "halt in position facing the nearest enemy",
            Action::ContinueFacing => "continue current actions facing the nearest enemy (charge?)",
            Action::GallopAdvance => "advance towards the nearest enemy at gallop (charge?)",
            Action::CanterAway => "canter further from the nearest enemy",
            Action::Flee => "flee at gallop from the nearest enemy",
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// The rows of the table, by risk factor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Band {
    /// Up to RF 0.
    UpToZero,
    /// RF 1.
    One,
    /// RF 2–5.
    TwoToFive,
    /// RF 6–8.
    SixToEight,
    /// RF 9 and more.
    NinePlus,
}

impl Band {
    /// The row a risk factor reads.
    pub fn of(risk: i32) -> Band {
        match risk {
            i32::MIN..=0 => Band::UpToZero,
            1 => Band::One,
            2..=5 => Band::TwoToFive,
            6..=8 => Band::SixToEight,
            _ => Band::NinePlus,
        }
    }

    /// The row's label as printed in the seed.
    pub fn label(self) -> &'static str {
        match self {
            Band::UpToZero => "up to RF0",
            Band::One => "RF1",
            Band::TwoToFive => "RF2-5",
            Band::SixToEight => "RF6-8",
            Band::NinePlus => "RF9+",
        }
    }
}

/// The table of seed 004, RF1 to RF9+, d6 = 1 to 6 (the RF 0 row is a rule, not a row).
const ROWS: [[Action; 6]; 4] = {
    use Action::{CanterAway as Can, ContinueFacing as Cont, Flee, GallopAdvance as Gal};
    use Action::{Halt, TakeCover as Cov};
    [
        [Cov, Cov, Halt, Cont, Cont, Gal],
        [Can, Cov, Cov, Halt, Cont, Gal],
        [Flee, Can, Cov, Cov, Halt, Cont],
        [Flee, Flee, Can, Cov, Cov, Halt],
    ]
};

/// I2: the action for a risk factor and a d6 (1–6; anything else is read as the nearest
/// face). `at_halt` matters only up to RF 0, where a 6 at a halt moves on the nearest
/// visible enemy.
pub fn action(risk: i32, roll: u32, at_halt: bool) -> Action {
    let face = roll.clamp(1, 6) as usize - 1;
    match Band::of(risk) {
        Band::UpToZero if at_halt && face == 5 => Action::AdvanceOnVisible,
        Band::UpToZero => Action::Continue,
        Band::One => ROWS[0][face],
        Band::TwoToFive => ROWS[1][face],
        Band::SixToEight => ROWS[2][face],
        Band::NinePlus => ROWS[3][face],
    }
}

/// What a unit does for the whole turn: the table's action read against its conduct of the
/// turn before. It is a unit's only memory, and it lives in the game (see
/// `sim::action_roll::ActionRolls`), so a saved or undone game remembers it too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Conduct {
    /// Stay where it is (mounts halt).
    Stand,
    /// Move towards the nearest enemy (the nearest visible one when `visible`) at `gait`.
    Advance {
        /// The pace asked for (foot figures always walk).
        gait: Gait,
        /// Towards the nearest *visible* enemy (the RF 0 six).
        visible: bool,
    },
    /// Walk to the nearest cover within one move, or away from all enemies.
    Cover,
    /// Move away from the nearest enemy at `gait` (canter away, flee at gallop): "running"
    /// for next turn's +3.
    Retire {
        /// Canter or gallop.
        gait: Gait,
    },
}

impl Conduct {
    /// The gait this conduct asks of a mount.
    pub fn gait(self) -> Gait {
        match self {
            Conduct::Stand => Gait::Halt,
            Conduct::Advance { gait, .. } | Conduct::Retire { gait } => gait,
            Conduct::Cover => Gait::Walk,
        }
    }

    /// Words for the log and the window.
    pub fn text(self) -> String {
        match self {
            Conduct::Stand => "stands".into(),
            Conduct::Advance { gait, visible } => format!(
                "advances on the nearest {}enemy at a {gait}",
                if visible { "visible " } else { "" }
            ),
            Conduct::Cover => "makes for cover".into(),
            Conduct::Retire { gait } => format!("retires from the nearest enemy at a {gait}"),
        }
    }
}

/// A unit's orders for the turn: its conduct, and the table's two riders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Intent {
    /// What it does.
    pub conduct: Conduct,
    /// It ends its moves facing the nearest enemy.
    pub face_enemy: bool,
    /// It charges if eligible ("Charge?").
    pub charge: bool,
}

/// Reads an action against the conduct of the turn before (`None`: the unit is doing nothing
/// — the simulation reads a unit that has not rolled yet from the board, so a unit that
/// starts the battle on the move is advancing, see `sim::action_roll::conduct_on_the_board`).
pub fn intent(action: Action, before: Option<Conduct>) -> Intent {
    let before = before.unwrap_or(Conduct::Stand);
    let (conduct, face_enemy, charge) = match action {
        // Our reading (issue 13): a unit advancing on the enemy that goes on advancing goes on
        // as cavalry does, charging when a charge is open to it; any other conduct continues
        // as it was, without a charge.
        Action::Continue => (before, false, matches!(before, Conduct::Advance { .. })),
        Action::AdvanceOnVisible => (
            Conduct::Advance {
                gait: Gait::Walk,
                visible: true,
            },
            true,
            false,
        ),
        Action::TakeCover => (Conduct::Cover, false, false),
        Action::Halt => (Conduct::Stand, true, false),
        Action::ContinueFacing => (before, true, true),
        Action::GallopAdvance => (
            Conduct::Advance {
                gait: Gait::Gallop,
                visible: false,
            },
            true,
            true,
        ),
        Action::CanterAway => (Conduct::Retire { gait: Gait::Canter }, false, false),
        Action::Flee => (Conduct::Retire { gait: Gait::Gallop }, false, false),
    };
    Intent {
        conduct,
        face_enemy,
        charge,
    }
}

/// True when a conduct is "running from the enemy" for next turn's +3 (I1).
pub fn is_running(c: Conduct) -> bool {
    matches!(c, Conduct::Retire { .. })
}

/// True when a unit with this conduct is "at a halt" for the RF 0 six.
pub fn at_halt(c: Option<Conduct>) -> bool {
    matches!(c, None | Some(Conduct::Stand))
}

/// I2: the table cell by cell, and its reading against last turn's conduct.
#[cfg(test)]
mod tests {
    use super::{self as table, Action, Band, Conduct};
    use crate::rules::gait::Gait;

    #[test]
    fn i2_every_row_and_face_of_the_table() {
        use Action::*;
        let rows: [(i32, [Action; 6]); 4] = [
            (
                1,
                [
                    TakeCover,
                    TakeCover,
                    Halt,
                    ContinueFacing,
                    ContinueFacing,
                    GallopAdvance,
                ],
            ),
            (
                3,
                [
                    CanterAway,
                    TakeCover,
                    TakeCover,
                    Halt,
                    ContinueFacing,
                    GallopAdvance,
                ],
            ),
            (
                7,
                [Flee, CanterAway, TakeCover, TakeCover, Halt, ContinueFacing],
            ),
            (9, [Flee, Flee, CanterAway, TakeCover, TakeCover, Halt]),
        ];
        for (risk, want) in rows {
            for (i, w) in want.iter().enumerate() {
                assert_eq!(
                    table::action(risk, i as u32 + 1, false),
                    *w,
                    "RF {risk}, d6 {}",
                    i + 1
                );
                assert_eq!(
                    table::action(risk, i as u32 + 1, true),
                    *w,
                    "RF {risk} at a halt"
                );
            }
        }
        for risk in [-3, -1, 0] {
            for d in 1..=5 {
                assert_eq!(table::action(risk, d, true), Continue);
            }
            assert_eq!(
                table::action(risk, 6, true),
                AdvanceOnVisible,
                "a 6 at a halt"
            );
            assert_eq!(table::action(risk, 6, false), Continue, "a 6 on the move");
        }
    }

    #[test]
    fn i2_band_edges() {
        let cases = [
            (-5, Band::UpToZero),
            (0, Band::UpToZero),
            (1, Band::One),
            (2, Band::TwoToFive),
            (5, Band::TwoToFive),
            (6, Band::SixToEight),
            (8, Band::SixToEight),
            (9, Band::NinePlus),
            (20, Band::NinePlus),
        ];
        for (r, b) in cases {
            assert_eq!(Band::of(r), b, "RF {r}");
        }
    }

    #[test]
    fn i2_actions_read_against_last_turn() {
        let adv = Conduct::Advance {
            gait: Gait::Trot,
            visible: false,
        };
        assert_eq!(table::intent(Action::Continue, Some(adv)).conduct, adv);
        assert_eq!(
            table::intent(Action::Continue, None).conduct,
            Conduct::Stand
        );
        let i = table::intent(Action::ContinueFacing, Some(adv));
        assert!(i.face_enemy && i.charge && i.conduct == adv);
        assert_eq!(
            table::intent(Action::Flee, None).conduct,
            Conduct::Retire { gait: Gait::Gallop }
        );
        assert_eq!(
            table::intent(Action::CanterAway, None).conduct,
            Conduct::Retire { gait: Gait::Canter }
        );
        assert!(
            table::at_halt(None)
                && table::at_halt(Some(Conduct::Stand))
                && !table::at_halt(Some(adv))
        );
    }
}
