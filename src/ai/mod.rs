//! The computer opponent (seed 004, I1–I4): every AI unit sums its risk factor from the
//! board, rolls a d6 on the actions table, and the result becomes real orders — gaits and
//! paths from the same rules a player's orders go through.
//!
//! Three strengths: [`AiLevel::Table`], the table alone (the baseline);
//! [`AiLevel::Lookahead`], which obeys the same table but lets commanded units choose their
//! targets and paths by looking ahead with the rules; and [`AiLevel::Commander`], whose
//! commanded units are not run by the table at all but by their leader ([`command`]), for the
//! level's objectives. `docs/ai.md` describes them and shows how they fare against each other.
//!
//! The window plays an AI side with [`next_order`] (one order at a time, at a readable pace)
//! or [`play_side_turn`] (everything up to the end of the side's half-move), and explains a
//! unit's decision with [`explain`]. `warhorse sim` plays AI against AI with [`bout`].

pub mod bout;
pub mod brain;
pub mod cards;
pub mod charges;
pub mod command;
pub mod field;
pub mod fire;
pub mod imagine;
pub mod look;
pub mod plain;
pub mod plan;
pub mod portfolio;
#[cfg(test)]
mod speed_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_command;
#[cfg(test)]
mod tests_commander;
#[cfg(test)]
mod tests_facing;
#[cfg(test)]
mod tests_portfolio;
pub mod tournament;

pub use crate::sim::groups::{Group, Groups};
pub use brain::{level_of, set_level};

use crate::rules::actions as table;
use crate::sim::Game;
use crate::sim::action_roll as roll;
use crate::sim::order::{Order, Refusal};
use serde::Serialize;

/// The AI's strengths are the ones the seating layer names ([`crate::sim::seat::Strength`]):
/// the AI maps each to how it plays (see [`brain`]), and saves keep the name.
pub use crate::sim::seat::Strength as AiLevel;

/// The next order the AI gives for `side`, computed from the game as it stands, or `None`
/// when the game is not waiting for that side. The caller applies it with [`Game::order`];
/// calling again gives the order after it, and finally `EndSide`. The side plays at the
/// strength set with [`set_level`] (the baseline unless set).
///
/// It reads only the game as `side` knows it ([`Game::known_to`]): what a player of that side
/// at another machine would be sent (I4).
pub fn next_order(game: &mut Game, side: u8) -> Option<Order> {
    if !waits_for(game, side) {
        return None;
    }
    brain::next_order(side_game(game, side), side)
}

/// The game the computer reads for `side`: the game as the side knows it
/// ([`Game::known_to`]). It reaches a round's dodge guesses as the real one does: the other
/// side's cards come faced then, their DODGEs masked (D7, [`crate::sim::follow::Shown`]).
pub(crate) fn side_game(game: &mut Game, side: u8) -> &mut Game {
    game.known_to(side, brain::carry_thoughts)
}

/// True when the game waits for orders from `side` now (its half-move, its charge
/// declarations or answers, its cards in a melee).
pub fn waits_for(game: &mut Game, side: u8) -> bool {
    game.outcome().is_none() && brain::side_may_act(game.app.world_mut(), side)
}

/// The first side the game waits for now, if any: in a half-move the side to move; in the
/// simultaneous phases (charges, cards) the lowest side with something left to choose.
pub fn side_to_act(game: &mut Game) -> Option<u8> {
    let n = game
        .app
        .world()
        .resource::<crate::sim::phase::TurnState>()
        .sides;
    (0..n).find(|&s| waits_for(game, s))
}

/// Plays `side` at `level` until the game no longer waits for it (the end of its half-move),
/// returning every order given and the rules' answer to it. A refused order is reported, not
/// retried; the AI moves on to its next figure.
pub fn play_side_turn(
    game: &mut Game,
    side: u8,
    level: AiLevel,
) -> Vec<(Order, Result<(), Refusal>)> {
    set_level(game, side, level);
    let mut out = Vec::new();
    // Each figure gives at most a gait change and a move, each unit one roll: the bound only
    // guards against a bug turning into a hang.
    let bound = 16 + 4 * game.app.world().entities().len() as usize;
    for _ in 0..bound {
        let Some(order) = next_order(game, side) else {
            break;
        };
        let r = game.order(&order);
        let ended = order == Order::EndSide;
        let failed_end = ended && r.is_err();
        out.push((order, r));
        if failed_end {
            break;
        }
    }
    out
}

/// Why a unit did what it did this turn: its risk factor term by term, the d6 and the
/// table's action, for the window to show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Explanation {
    /// The unit.
    pub unit: String,
    /// The turn of the roll.
    pub turn: u32,
    /// The risk factor's terms that apply, in the seed's order.
    pub terms: Vec<(String, i32)>,
    /// Their sum.
    pub risk: i32,
    /// The table row read ("RF2-5").
    pub row: String,
    /// The d6.
    pub roll: u32,
    /// The table's words.
    pub action: String,
    /// What the unit does, read against last turn.
    pub conduct: String,
    /// What the stronger AI chose within that, if it played the unit; at the commander
    /// level, its leader's orders.
    pub choice: Option<String>,
    /// Its leader played it this turn, not the table (the commander level): the roll fields
    /// are empty then.
    pub commanded: bool,
}

/// The latest decision of the unit called `unit` (or of the unit the figure `unit` belongs
/// to), or `None` when it has not rolled yet.
pub fn explain(game: &Game, unit: &str) -> Option<Explanation> {
    let world = game.app.world();
    let groups = world.get_resource::<Groups>()?;
    let name = match groups.get(unit) {
        Some(g) => g.name.clone(),
        None => groups.of_figure(unit)?.name.clone(),
    };
    let side = groups.get(&name).map_or(0, |g| g.side);
    let state = game
        .known_by(side)
        .app
        .world()
        .get_resource::<brain::AiState>();
    let choice = state.and_then(|s| s.notes.get(&name).cloned());
    let roll = world
        .get_resource::<roll::ActionRolls>()
        .and_then(|r| r.0.iter().rev().find(|r| r.unit == name).cloned());
    let led = state.and_then(|s| s.led.get(&name).copied());
    if let Some(turn) = led.filter(|&t| roll.as_ref().is_none_or(|r| r.turn < t)) {
        return Some(Explanation {
            unit: name,
            turn,
            terms: Vec::new(),
            risk: 0,
            row: String::new(),
            roll: 0,
            action: String::new(),
            conduct: "its leader commands it (the strongest level): a commanded unit does not \
                      roll on the actions table"
                .into(),
            choice,
            commanded: true,
        });
    }
    let roll = roll?;
    Some(Explanation {
        unit: name,
        turn: roll.turn,
        terms: roll
            .terms
            .list()
            .into_iter()
            .map(|(w, v)| (w.to_string(), v))
            .collect(),
        risk: roll.risk(),
        row: table::Band::of(roll.risk()).label().to_string(),
        roll: roll.roll,
        action: roll.action.text().to_string(),
        conduct: roll.intent.conduct.text(),
        choice,
        commanded: false,
    })
}
