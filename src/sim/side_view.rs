//! What one side may know (I4), and so what a player's window, the computer and, across
//! machines, a client are given: the public board and log (the [`Snapshot`]) and that side's
//! own face-down choices not yet revealed — never the other side's, the dice to come or the
//! seed. A spectator gets the public part alone. This is the seam that play across machines
//! is cut along (issue 29): the host holds the [`super::Game`]; a seat is sent its view.

use super::Game;
use super::charge::{ChargeBook, Stage as ChargeStage};
use super::components::{FigureId, SideId};
use super::melee::{MeleeState, Stage as MeleeStage};
use super::snapshot::Snapshot;
use bevy::prelude::*;
use serde::Serialize;
use std::collections::HashMap;

/// Who looks at the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Seat {
    /// A player of the side with this index: the public state and the side's own secrets.
    Side(u8),
    /// Someone who plays no side: the public state alone.
    Spectator,
}

/// A choice made face down and not yet revealed (D2, D7, D9, C1, C5): its side alone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
        way: &'static str,
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
        tac: &'static str,
        /// The MELEE card it replies with.
        reply: &'static str,
    },
}

/// What one seat may know of the game.
#[derive(Clone, Debug, Serialize)]
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
        let public = self.snapshot();
        let own = match seat {
            Seat::Side(side) => secrets_of(self.app.world_mut(), side),
            Seat::Spectator => Vec::new(),
        };
        SideView { seat, public, own }
    }
}

/// The face-down choices of `side`'s figures that are still hidden from the other sides.
fn secrets_of(world: &mut World, side: u8) -> Vec<Secret> {
    let mut q = world.query::<(&FigureId, &SideId)>();
    let sides: HashMap<&str, u8> = q.iter(world).map(|(f, s)| (f.0.as_str(), s.0)).collect();
    let ours = |id: &str| sides.get(id) == Some(&side);
    let mut out = Vec::new();
    if let Some(m) = world.get_resource::<MeleeState>()
        && matches!(m.stage, MeleeStage::Choosing | MeleeStage::Guessing)
    {
        out.extend(
            m.face_down()
                .filter(|(id, _)| ours(id))
                .map(|(id, c)| Secret::Cards {
                    figure: id.to_string(),
                    cards: c.faced_words(),
                }),
        );
        out.extend(
            m.guesses_made()
                .filter(|(id, _, _)| ours(id))
                .map(|(id, dodger, way)| Secret::Guess {
                    figure: id.to_string(),
                    dodger: dodger.to_string(),
                    way: way.word(),
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
                        tac: a.tac.name(),
                        reply: a.reply.name(),
                    }),
            );
        }
    }
    out
}
