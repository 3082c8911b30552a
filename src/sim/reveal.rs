//! Which orders given face down are still secret (issue 30). A host sends a client's replica
//! every order its side may see, in the record's order: the other side's face-down orders
//! (D2, D7, D9, C1, C5) only once they are revealed.
//!
//! An order given face down belongs to the gathering of choices it was given in: a melee's
//! card round (its TAC phase, its DODGE guesses — D7 keeps the DODGE cards face down until
//! the guesses are in), or the charge declarations, or the charged figures' answers. It is
//! revealed once the game has left that gathering: the round faced, the charges revealed.
//! Whether a side still holds some secret says nothing here: a new round may begin with
//! choices made for a figure by the rules (a stunned figure, a horse) before anyone orders.

use super::charge::ChargeBook;
use super::melee::MeleeState;
use super::phase::{Phase, TurnState};
use bevy::prelude::{State, World};
use std::collections::BTreeMap;

/// The gathering of face-down choices the game is in: the turn, the phase, the melee's card
/// round and the charges' stage. Any change ends the gathering.
fn gathering(world: &World) -> String {
    let turn = world.get_resource::<TurnState>().map_or(0, |t| t.turn);
    let phase = world.get_resource::<State<Phase>>().map(|p| *p.get());
    let round = world
        .get_resource::<MeleeState>()
        .and_then(|m| m.fight.as_ref().map(|f| f.round));
    let charges = world.get_resource::<ChargeBook>().map(|b| b.stage);
    format!("{turn}/{phase:?}/{round:?}/{charges:?}")
}

/// The face-down orders of the record and which are revealed.
#[derive(Clone, Debug, Default)]
pub struct Reveals {
    /// Each order given face down, by place in the record: its side, and the gathering it
    /// was given in while it is still secret (`None` once revealed).
    face_down: BTreeMap<usize, (u8, Option<String>)>,
    /// Places of the orders still secret.
    open: Vec<usize>,
}

impl Reveals {
    /// The gathering an order about to be given face down belongs to (read before it is
    /// applied: the last choice of a round resolves the round).
    pub(super) fn before(world: &World) -> String {
        gathering(world)
    }

    /// Order `place` was accepted; `face_down` is its side and gathering when it was given
    /// face down. Orders of a gathering the game has left are revealed.
    pub(super) fn accepted(
        &mut self,
        world: &World,
        place: usize,
        face_down: Option<(u8, String)>,
    ) {
        if let Some((side, at)) = face_down {
            self.face_down.insert(place, (side, Some(at)));
            self.open.push(place);
        }
        if self.open.is_empty() {
            return;
        }
        let now = gathering(world);
        let face_down = &mut self.face_down;
        self.open.retain(|p| match face_down.get_mut(p) {
            Some((_, at)) if at.as_deref() != Some(now.as_str()) => {
                *at = None;
                false
            }
            Some(_) => true,
            None => false,
        });
    }

    /// Whether order `place` of the record is kept from the seat of side `seat` (`None`: a
    /// spectator): given face down by another side and not yet revealed.
    pub fn hidden(&self, place: usize, seat: Option<u8>) -> bool {
        match self.face_down.get(&place) {
            Some((side, Some(_))) => seat != Some(*side),
            _ => false,
        }
    }
}
