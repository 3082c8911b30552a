//! The actions-table roll as a game order (`Order::ActionRoll`): the unit's risk factor is
//! summed from the board (I1), a d6 is rolled with the game's seeded dice and logged, and the
//! table's answer (I2) is kept in the game.
//!
//! Making the roll an order is what lets AI games replay: saves and undo rebuild a game by
//! replaying its orders, so a die rolled outside them would shift every later roll. It also
//! keeps the AI's memory — what each unit did last turn — inside the game, where a reloaded
//! game finds it.

use super::groups::Groups;
use super::risk::{RiskTerms, risk_terms};
use super::table::{self, Action, Band, Intent};
use crate::sim::dice::Dice;
use crate::sim::log::{GameLog, Roll};
use crate::sim::orders::Refusal;
use crate::sim::phase::{Phase, TurnState, log_line};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// One unit's roll on the actions table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollEntry {
    /// The turn it was rolled in.
    pub turn: u32,
    /// The unit's name.
    pub unit: String,
    /// Its side.
    pub side: u8,
    /// The risk factor's terms (I1).
    pub terms: RiskTerms,
    /// The d6.
    pub roll: u32,
    /// The table's cell (I2).
    pub action: Action,
    /// What the unit does this turn, read against last turn.
    pub intent: Intent,
}

impl RollEntry {
    /// The risk factor.
    pub fn risk(&self) -> i32 {
        self.terms.total()
    }
}

/// Every actions-table roll of the game, in order. Rebuilt by replay like everything else.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct ActionRolls(pub Vec<RollEntry>);

fn refuse<T>(s: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal(s.into()))
}

/// Applies `Order::ActionRoll { unit }`: once per unit per turn, in a phase that takes
/// orders, by the side to move in a half-move. On refusal nothing changes.
pub fn apply_action_roll(world: &mut World, unit: &str) -> Result<(), Refusal> {
    let phase = *world.resource::<State<Phase>>().get();
    if matches!(phase, Phase::Setup | Phase::EndOfTurn) {
        return refuse(format!(
            "I2: the actions table is rolled during a turn, not in the {}",
            phase.label()
        ));
    }
    let Some(group) = world
        .get_resource::<Groups>()
        .and_then(|g| g.get(unit).cloned())
    else {
        return refuse(format!("I1: there is no unit {unit:?}"));
    };
    let turn = world.resource::<TurnState>().clone();
    // Every check reads the world only, before the AI's kept view is brought up to date: a
    // refused roll touches nothing.
    let rolled = world
        .get_resource::<ActionRolls>()
        .is_some_and(|r| r.0.iter().any(|x| x.unit == unit && x.turn == turn.turn));
    if rolled {
        return refuse(format!(
            "I2: {unit} has already rolled on the actions table this turn"
        ));
    }
    let mut q = world.query::<(
        &crate::sim::components::FigureId,
        &crate::sim::components::Body,
        Option<&crate::sim::components::CombatStatus>,
    )>();
    let fighting = q.iter(world).any(|(id, body, status)| {
        group.members.contains(&id.0)
            && body.left > 0
            && status.is_none_or(|c| c.0.fallen == crate::rules::melee::fight::Fallen::Up)
    });
    if !fighting {
        return refuse(format!("I2: {unit} has no figure left in the fight"));
    }
    if phase.is_half_move() && turn.side_to_move() != Some(group.side) {
        return refuse(format!(
            "D4: it is not {}'s half-move",
            turn.side_names
                .get(group.side as usize)
                .map_or("its side", |s| s.as_str())
        ));
    }
    // The AI's kept view, brought up to date (this order comes before every unit's moves).
    let (terms, before) = super::view::with_view(world, |world, view| {
        let g = view
            .group(unit)
            .expect("the view has every unit of the game");
        let retreated = super::risk::retreated_from_melee(
            &world.resource::<GameLog>().0,
            &group.members,
            turn.turn,
        );
        let before = view.last_roll_before_now(unit).map(|r| r.intent.conduct);
        (risk_terms(view, g, retreated), before)
    });
    let risk = terms.total();
    let roll = world.resource_mut::<Dice>().roll(6);
    let action = table::action(risk, roll, table::at_halt(before));
    let intent = table::intent(action, before);
    let text = format!(
        "{unit}: risk factor {risk} ({}); rolls {roll} on the actions table, {}: {action} — it {} (I1, I2).",
        terms.words(),
        Band::of(risk).label(),
        intent.conduct.text()
    );
    log_line(
        &mut world.resource_mut::<GameLog>(),
        &turn,
        phase,
        text,
        Some(Roll {
            die: "d6".into(),
            value: roll,
            by: unit.to_string(),
            chance: None,
        }),
    );
    let entry = RollEntry {
        turn: turn.turn,
        unit: unit.to_string(),
        side: group.side,
        terms,
        roll,
        action,
        intent,
    };
    match world.get_resource_mut::<ActionRolls>() {
        Some(mut r) => r.0.push(entry),
        None => world.insert_resource(ActionRolls(vec![entry])),
    }
    Ok(())
}
