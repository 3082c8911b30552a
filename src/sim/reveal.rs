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
//!
//! One step comes between: once a round's choices are all in and it waits for the dodge
//! guesses, D7 faces every card but the DODGEs. The choices made before that are *faced*: a
//! seat may have them then with each DODGE's direction masked (`sim::melee::faced_but_dodges`),
//! so that its own game reaches the guesses too, and whole once the round is faced.

use super::charge::ChargeBook;
use super::melee::{MeleeState, Stage};
use super::phase::{Phase, TurnState};
use bevy::prelude::{State, World};
use std::collections::{BTreeMap, BTreeSet};

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
    /// The gatherings they were given in: while that is only the one the game is in,
    /// nothing is revealed, and an order is accepted without a walk of them all (a card
    /// round of thousands of figures would cost the square of its plays).
    open_in: BTreeSet<String>,
    /// Places of the secret orders whose cards are faced but for the DODGE directions (D7).
    faced: BTreeSet<usize>,
    /// The gathering whose choices were last faced so: the guesses given in it stay secret.
    faced_in: Option<String>,
    /// Changes whenever a secret order is revealed or faced, to a value no other moment of
    /// any game has had ([`Reveals::epoch`]).
    epoch: u64,
}

/// The source of [`Reveals`]' epochs: one counter for every game, so two moments never share
/// one, even across a game rebuilt from its record.
static EPOCHS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn new_epoch() -> u64 {
    EPOCHS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
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
            self.open_in.insert(at.clone());
            self.face_down.insert(place, (side, Some(at)));
            self.open.push(place);
        }
        if self.open.is_empty() {
            return;
        }
        let now = gathering(world);
        let all_now = self.open_in.len() == 1 && self.open_in.contains(&now);
        if !all_now {
            self.epoch = new_epoch();
            let (face_down, faced) = (&mut self.face_down, &mut self.faced);
            self.open.retain(|p| match face_down.get_mut(p) {
                Some((_, at)) if at.as_deref() != Some(now.as_str()) => {
                    *at = None;
                    faced.remove(p);
                    false
                }
                Some(_) => true,
                None => false,
            });
            self.open_in.retain(|at| *at == now);
        }
        // The round has just begun to wait for its dodge guesses: every choice of it so far
        // is faced but its DODGEs; the guesses to come stay secret until the round is faced.
        let guessing = world
            .get_resource::<MeleeState>()
            .is_some_and(|m| m.stage == Stage::Guessing);
        if guessing && self.faced_in.as_deref() != Some(now.as_str()) {
            self.epoch = new_epoch();
            self.faced.extend(self.open.iter().copied());
            self.faced_in = Some(now);
        }
    }

    /// A value that stays the same exactly while no secret order is revealed or faced: a
    /// seat's feed that has looked at the orders held from it need not look again until it
    /// changes (at thousands of figures a card round holds thousands).
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Whether order `place`, still secret, has its cards faced but for their DODGE
    /// directions: its round waits for the dodge guesses (D7).
    pub fn faced(&self, place: usize) -> bool {
        self.faced.contains(&place)
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
