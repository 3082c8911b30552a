//! What a client knows of a hosted game (issue 30): its seat, the level, the public board,
//! its own face-down choices and the whole log — all from what the host sent, never more.
//! The window of a client draws from this, as a player at the host's screen sees the same
//! game through the host's own view.

use super::protocol::{FromHost, Turned, Welcome};
use crate::sim::log::LogEntry;
use crate::sim::order::Order;
use crate::sim::side_view::{Seat, Secret};
use crate::sim::snapshot::{FigureState, Snapshot};
use std::collections::BTreeMap;

/// A client's copy of what its seat may know.
#[derive(Clone, Debug, Default)]
pub struct Mirror {
    /// What the host said on seating this client.
    pub welcome: Option<Welcome>,
    /// The board as last sent: the phase, who is awaited, who left the map (its `figures`
    /// and `log` are kept empty: see [`Mirror::figures`] and [`Mirror::log`]).
    pub public: Option<Snapshot>,
    /// Every figure on the map, by id.
    pub figures: BTreeMap<String, FigureState>,
    /// The seat's face-down choices not yet revealed.
    pub own: Vec<Secret>,
    /// Every log line so far.
    pub log: Vec<LogEntry>,
    /// Orders the host has accepted.
    pub orders: usize,
    /// The host's hash of its record at the last update.
    pub record_hash: u64,
    /// The last of this client's orders the host refused, and why.
    pub refused: Option<(Order, String)>,
    /// Why the host turned this client away, if it did.
    pub turned: Option<Turned>,
    /// Log lines that came with a gap before them (never, on an ordered channel).
    pub gaps: usize,
}

impl Mirror {
    /// Takes in one message from the host.
    pub fn take(&mut self, m: FromHost) {
        match m {
            FromHost::Welcome(w) => {
                // A new seating (a rejoin): the log and the board come again whole.
                self.log.clear();
                self.figures.clear();
                self.welcome = Some(w);
                self.turned = None;
            }
            FromHost::Turned(t) => self.turned = Some(t),
            FromHost::Refused { order, why } => self.refused = Some((order, why)),
            FromHost::Update(u) => {
                if u.log_from > self.log.len() {
                    self.gaps += 1;
                }
                self.log.truncate(u.log_from);
                self.log.extend(u.lines.into_iter().map(|l| l.into_entry()));
                let mut public = u.public;
                for f in std::mem::take(&mut public.figures) {
                    self.figures.insert(f.id.clone(), f);
                }
                for id in &u.removed {
                    self.figures.remove(id);
                }
                self.public = Some(public);
                self.own = u.own;
                self.orders = u.orders;
                self.record_hash = u.record_hash;
            }
        }
    }

    /// The seat held, once seated.
    pub fn seat(&self) -> Option<Seat> {
        self.welcome.as_ref().map(|w| w.seat)
    }

    /// The board with the whole log, as [`crate::sim::Game::view`] gives it at the host.
    pub fn snapshot(&self) -> Option<Snapshot> {
        let mut s = self.public.clone()?;
        s.figures = self.figures.values().cloned().collect();
        s.log = self.log.clone();
        Some(s)
    }
}
