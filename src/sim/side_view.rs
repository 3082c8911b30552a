//! What one side may know (I4), and so what a player's window, the computer and, across
//! machines, a client are given: the public board and log (the [`Snapshot`]) and that side's
//! own face-down choices not yet revealed — never the other side's, the dice to come or the
//! seed. A spectator gets the public part alone. This is the seam that play across machines
//! is cut along (issue 29): the host holds the [`super::Game`]; a seat is sent its view.

use super::Game;
use super::charge::{ChargeBook, Stage as ChargeStage};
use super::components::{FigureId, SideId};
use super::groups::Groups;
use super::melee::{MeleeState, Stage as MeleeStage};
use super::order::Order;
use super::phase::TurnState;
use super::snapshot::Snapshot;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Who looks at the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Seat {
    /// A player of the side with this index: the public state and the side's own secrets.
    Side(u8),
    /// Someone who plays no side: the public state alone.
    Spectator,
}

/// A choice made face down and not yet revealed (D2, D7, D9, C1, C5): its side alone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Secret {
    /// A figure's play for this round, TAC card first (`CLOSE at levy`, `DELIVER BLOW → levy`).
    Cards {
        /// The figure.
        figure: String,
        /// Its cards, as they will be faced.
        cards: Vec<String>,
    },
    /// A guess of the way an enemy dodges (D7).
    Guess {
        /// The guesser.
        figure: String,
        /// The enemy whose DODGE card it guesses.
        dodger: String,
        /// The way guessed: `left`, `right`, `back`.
        way: String,
    },
    /// A rider's charge orders: its targets in order, none for no charge (D2, C1).
    Charge {
        /// The rider.
        figure: String,
        /// Its targets.
        targets: Vec<String>,
    },
    /// A charged figure's answer: its TAC card and its reply (C5).
    Answer {
        /// The figure charged.
        figure: String,
        /// The TAC card.
        tac: String,
        /// The MELEE card it replies with.
        reply: String,
    },
}

/// What one seat may know of the game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SideView {
    /// Whose view it is.
    pub seat: Seat,
    /// The public state: every figure as it stands, who is awaited, the log.
    pub public: Snapshot,
    /// The seat's own face-down choices not yet revealed (none for a spectator).
    pub own: Vec<Secret>,
}

impl Game {
    /// What `seat` may know now (I4): the public state and, for a side, its own face-down
    /// choices. Built from the game on each call.
    pub fn view(&mut self, seat: Seat) -> SideView {
        self.view_since(seat, 0)
    }

    /// [`Game::view`] with the log lines from `from` on only: a seat that has the earlier
    /// lines is sent the rest (issue 30).
    pub fn view_since(&mut self, seat: Seat, from: usize) -> SideView {
        let public = super::snapshot::snapshot_since(self.app.world_mut(), from);
        let own = match seat {
            Seat::Side(side) => secrets_of(self.app.world_mut(), side),
            Seat::Spectator => Vec::new(),
        };
        SideView { seat, public, own }
    }
}

impl Game {
    /// The sides' names, in side order.
    pub fn side_names(&self) -> Vec<String> {
        self.app.world().resource::<TurnState>().side_names.clone()
    }

    /// The side an order speaks for: its figure's or unit's side, the side named in a
    /// melee pass, the side moving for the end of a half-move. `None` when the order names
    /// nothing of this battle, or ends a half-move when no side moves; the game refuses it
    /// then anyway. The host of a game across machines (issue 30) gives a seat only the
    /// orders of its own side.
    pub fn side_of_order(&mut self, order: &Order) -> Option<u8> {
        let world = self.app.world_mut();
        let turn = world.resource::<TurnState>();
        let unit = match order {
            // D3: in a fire phase it ends the sub-step of the side whose step it is. In a
            // melee's choices and the charge declarations it passes every figure still
            // awaited, of every side: no one side's to give.
            Order::EndSide if super::fire::waiting(world) => {
                return super::fire::current_step(world).map(|s| s.side);
            }
            Order::EndSide if melee_or_charge_waits(world) => return None,
            Order::EndSide => return turn.side_to_move(),
            Order::PassMelee { side } => {
                return turn
                    .side_names
                    .iter()
                    .position(|n| n == side)
                    .map(|i| i as u8);
            }
            Order::CavalryWave { charger, .. } => charger,
            Order::Move { unit, .. }
            | Order::SetGait { unit, .. }
            | Order::Mount { unit, .. }
            | Order::Dismount { unit, .. }
            | Order::Activity { unit, .. }
            | Order::PlayCards { unit, .. }
            | Order::GuessDodge { unit, .. }
            | Order::Pass { unit }
            | Order::ActionRoll { unit }
            | Order::DeclareCharge { unit, .. }
            | Order::NoCharge { unit }
            | Order::AnswerCharge { unit, .. }
            | Order::Lead { unit, .. }
            | Order::Release { unit, .. }
            | Order::EliminateHorse { unit, .. }
            | Order::Fire { unit, .. }
            | Order::Cast { unit, .. }
            | Order::CalmBerserk { unit, .. } => unit,
        };
        if let Some(e) = super::world::find_figure(world, unit) {
            return world.get::<SideId>(e).map(|s| s.0);
        }
        world
            .get_resource::<Groups>()
            .and_then(|g| g.get(unit))
            .map(|g| g.side)
    }
}

/// True in a melee's choices or the charge declarations, where `EndSide` passes for all.
fn melee_or_charge_waits(world: &World) -> bool {
    super::melee::waiting(world) || super::charge::waiting(world)
}

/// The face-down choices of `side`'s figures that are still hidden from the other sides.
fn secrets_of(world: &mut World, side: u8) -> Vec<Secret> {
    let mut q = world.query::<(&FigureId, &SideId)>();
    let sides: HashMap<&str, u8> = q.iter(world).map(|(f, s)| (f.0.as_str(), s.0)).collect();
    let ours = |id: &str| sides.get(id) == Some(&side);
    let grid = world
        .get_resource::<super::world::Map>()
        .map_or_else(Default::default, |m| m.0.grid);
    let mut out = Vec::new();
    if let Some(m) = world.get_resource::<MeleeState>()
        && matches!(m.stage, MeleeStage::Choosing | MeleeStage::Guessing)
    {
        out.extend(
            m.face_down()
                .filter(|(id, _)| ours(id))
                .map(|(id, c)| Secret::Cards {
                    figure: id.to_string(),
                    cards: c.faced_words(grid),
                }),
        );
        out.extend(
            m.guesses_made()
                .filter(|(id, _, _)| ours(id))
                .map(|(id, dodger, way)| Secret::Guess {
                    figure: id.to_string(),
                    dodger: dodger.to_string(),
                    way: way.word().to_string(),
                }),
        );
    }
    if let Some(b) = world.get_resource::<ChargeBook>() {
        if b.stage == ChargeStage::Declaring {
            out.extend(
                b.declared
                    .iter()
                    .filter(|(id, _)| ours(id))
                    .map(|(id, targets)| Secret::Charge {
                        figure: id.clone(),
                        targets: targets.clone(),
                    }),
            );
        }
        if b.stage == ChargeStage::Answering {
            out.extend(
                b.answers
                    .iter()
                    .filter(|(id, _)| ours(id))
                    .map(|(id, a)| Secret::Answer {
                        figure: id.clone(),
                        tac: a.tac.name().to_string(),
                        reply: a.reply.name().to_string(),
                    }),
            );
        }
    }
    out
}
