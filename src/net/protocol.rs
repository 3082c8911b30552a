//! What a host and its clients say to each other (issue 30): a client says hello and sends
//! orders; the host answers with a seat or the reason it turned the client away, and after
//! every accepted order sends each client its own side's view (I4) and the log lines it has
//! not had. Face-down cards and charge orders travel only to their own side until the
//! reveal; the seed and the dice to come never travel.

use crate::sim::log::{Happening, LogEntry};
use crate::sim::order::Order;
use crate::sim::side_view::{Seat, Secret};
use crate::sim::snapshot::Snapshot;
use bevy::prelude::Message;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Bumped whenever a message below changes shape: a client and a host of different
/// protocols turn each other away with [`Turned::OtherVersion`] rather than misread.
pub const NET_PROTOCOL: u32 = 2;

/// netcode.io's protocol id for Warhorse ("WARHORSE" in ASCII): a packet of another game is
/// dropped by the transport.
pub const NETCODE_PROTOCOL_ID: u64 = 0x5741_5248_4f52_5345;

/// The version a host and a client must share: the build and the message protocol. The
/// level and the ruleset travel from the host, so both ends play the host's.
pub fn version() -> String {
    format!(
        "warhorse {} (net protocol {NET_PROTOCOL})",
        env!("CARGO_PKG_VERSION")
    )
}

/// A stable hash of a level's or a ruleset's text (xxh3), to agree on what is played.
pub fn text_hash(text: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(text.as_bytes())
}

/// The first thing a client says: who it is, the join code's secret, and which seat it
/// asks for.
#[derive(Message, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    /// [`version`] of the client's build.
    pub version: String,
    /// The session secret of the join code.
    pub secret: String,
    /// The seat asked for.
    pub wish: Wish,
    /// The player's name, for the host's log of who joined.
    pub name: String,
}

/// The seat a client asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Wish {
    /// The side with this index (0 is the level's first side).
    Side(u8),
    /// Any side nobody holds; a spectator's seat when every side is held.
    AnySide,
    /// To watch: the public view alone.
    Watch,
}

/// An order from a seated client, for its own side's figures.
#[derive(Message, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SendOrder(pub Order);

/// Everything the host sends a client.
#[derive(Message, Clone, Debug, Serialize, Deserialize)]
pub enum FromHost {
    /// The client has a seat: what is played, then an [`Update`] follows.
    Welcome(Welcome),
    /// The client was turned away, and why; the host disconnects it.
    Turned(Turned),
    /// The game as the client's seat may see it now.
    Update(Box<Update>),
    /// The client's order was refused, naming its rule; nothing changed.
    Refused {
        /// The order refused.
        order: Order,
        /// Why, as the game words it.
        why: String,
    },
}

/// What a seated client is told first: its seat and what is played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Welcome {
    /// The seat taken.
    pub seat: Seat,
    /// The sides' names, in side order.
    pub sides: Vec<String>,
    /// The level's name.
    pub level_name: String,
    /// The level file's text, so the client draws the host's map.
    pub level: String,
    /// [`text_hash`] of the level text.
    pub level_hash: u64,
    /// [`text_hash`] of the ruleset the host plays.
    pub ruleset_hash: u64,
    /// The ruleset's text, so the client plays the host's rules.
    pub ruleset: String,
}

impl Welcome {
    /// The level the host plays, with its rules, as a client rebuilds it; an error in words
    /// should the texts not load (a host of another build would have been turned away).
    pub fn level(&self) -> Result<crate::level::Level, String> {
        if text_hash(&self.level) != self.level_hash
            || text_hash(&self.ruleset) != self.ruleset_hash
        {
            return Err("the host's level or ruleset did not arrive whole".into());
        }
        let rules = crate::level::load_ruleset_str(&self.ruleset, "the host's ruleset")
            .map_err(|e| format!("the host's ruleset does not load here: {e}"))?;
        crate::level::load_level_str_with(&self.level, "the host's level", rules)
            .map_err(|e| format!("the host's level does not load here: {e}"))
    }
}

/// One seat's view after an accepted order (or on joining): what changed on the public
/// board since the last update to this client, the seat's own face-down choices, and the
/// log lines from `log_from` on.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Update {
    /// Whose view it is.
    pub seat: Seat,
    /// The phase and who is awaited, and the figures whose state changed since the last
    /// update (every figure, the first time); its `log` is empty (the lines are below).
    pub public: Snapshot,
    /// Figures no longer on the map since the last update, by id.
    pub removed: Vec<String>,
    /// The seat's own face-down choices not yet revealed.
    pub own: Vec<Secret>,
    /// The index of the first line in `lines` in the whole log.
    pub log_from: usize,
    /// Log lines the client has not had, with what each reports.
    pub lines: Vec<Line>,
    /// Orders the host has accepted so far.
    pub orders: usize,
    /// A hash chain over the orders the host accepted, each order's words folded into the
    /// hash of those before: a client or a replay that keeps the orders can tell where its
    /// record parted from the host's.
    pub record_hash: u64,
    /// The orders this seat may now see and had not had, each with its place in the host's
    /// record, in that order: every open order, the seat's own face-down ones at once, the
    /// other side's only once revealed — but a card play comes first with its DODGEs masked
    /// while its round waits for the dodge guesses, and again whole in the same place once
    /// the round is faced ([`crate::sim::follow::Shown`]). A client's replica
    /// ([`super::replica`]) plays them.
    pub seen: Vec<(usize, Order)>,
    /// The place of the first of `dice` among every value the host rolled.
    pub dice_from: usize,
    /// The die values the host rolled since the last update, in order: rolls already made
    /// and written in the log, never one to come.
    pub dice: Vec<u32>,
    /// Once this seat has had every order the host accepted: [`crate::sim::Game::state_hash`]
    /// of the host's board, for the replica to check itself against.
    pub state_hash: Option<String>,
}

/// A log line as it travels: its words and roll, and what it reports as data (which a save
/// does not keep, so [`LogEntry`] does not serialize it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// The line.
    pub entry: LogEntry,
    /// What it reports.
    pub what: Happening,
}

impl Line {
    /// The line as the game keeps it.
    pub fn into_entry(self) -> LogEntry {
        let mut e = self.entry;
        e.what = self.what;
        e
    }
}

/// Why a host turned a client away (issue 30 item 6: each says what happened and what to do).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Turned {
    /// The secret of the join code is not this game's.
    WrongCode,
    /// The client's build differs from the host's.
    OtherVersion {
        /// The host's [`version`].
        host: String,
        /// The client's.
        client: String,
    },
    /// Another connected player, or the host itself, plays the side asked for.
    SeatTaken {
        /// The side's name.
        side: String,
    },
    /// The level has no side with that index.
    NoSuchSide {
        /// The index asked for.
        side: u8,
        /// How many sides the level has.
        sides: u8,
    },
    /// The client spoke before saying hello, or said hello twice.
    OutOfTurn,
}

impl fmt::Display for Turned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Turned::WrongCode => f.write_str(
                "The host refused the join code: its secret is not this game's. \
                 Ask the host for the code it shows now and type it again.",
            ),
            Turned::OtherVersion { host, client } => write!(
                f,
                "The host runs {host}; this is {client}. Both players need the same \
                 version of Warhorse."
            ),
            Turned::SeatTaken { side } => write!(
                f,
                "{side} is already played, by someone connected to this game or by the \
                 host. Join as another side or watch."
            ),
            Turned::NoSuchSide { side, sides } => write!(
                f,
                "This game has {sides} sides, numbered from 0; there is no side {side}."
            ),
            Turned::OutOfTurn => {
                f.write_str("The host did not expect that message now. Join again from the start.")
            }
        }
    }
}
