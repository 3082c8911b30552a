//! The host's side of a game across machines (issue 30), without the network: it holds the
//! [`Game`] (and so the seed, the record and every die), gives seats to clients that know the
//! secret, takes each seated client's orders for its own side only, and builds every
//! client's view of what it may know (I4). The transport ([`super::link`]) only carries what
//! this returns, so the rules of seating and secrecy are tested here without sockets.

use super::protocol::{FromHost, Hello, Line, Turned, Update, Welcome, Wish, text_hash, version};
use crate::sim::Game;
use crate::sim::follow::{Batch, SeatFeed};
use crate::sim::order::Order;
use crate::sim::side_view::Seat;
use crate::sim::snapshot::FigureState;
use std::collections::BTreeMap;

/// A connection, as the transport names it (a client entity's bits).
pub type Who = u64;

/// A client that said hello and was given a seat.
#[derive(Clone, Debug)]
struct Guest {
    /// The name it gave.
    name: String,
    /// Its seat.
    seat: Seat,
    /// How many log lines it has been sent.
    sent: usize,
    /// Every figure as it was last sent, by id: an update carries only what changed.
    figures: BTreeMap<String, FigureState>,
    /// The orders and dice it has been sent.
    feed: SeatFeed,
}

/// What the host has to send: each message with the client it goes to.
pub type Outbox = Vec<(Who, FromHost)>;

/// A game hosted for clients.
pub struct Host {
    game: Game,
    secret: String,
    guests: BTreeMap<Who, Guest>,
    notes: Vec<String>,
    /// The orders folded into `chain` so far, and the chain: a hash of every accepted
    /// order in turn, so a client (or a replay) can tell where its record parted.
    chained: usize,
    chain: u64,
    /// Sides played at the host itself (the computer, the host's window): never a client's.
    here: Vec<u8>,
    /// The board's hash, with the record's, log's and dice's lengths it was taken at: one
    /// hash serves every client's update after an order.
    hashed: Option<((usize, usize, usize), String)>,
}

impl Host {
    /// Hosts `game`; a client must present `secret` to be seated.
    pub fn new(game: Game, secret: String) -> Host {
        Host {
            game,
            secret,
            guests: BTreeMap::new(),
            notes: Vec::new(),
            chained: 0,
            chain: 0,
            here: Vec::new(),
            hashed: None,
        }
    }

    /// [`Game::state_hash`], taken once for every update of the same moment.
    fn state_hash(&mut self) -> String {
        let at = (
            self.game.record().orders.len(),
            self.game.log().len(),
            self.game.dice_drawn().len(),
        );
        match &self.hashed {
            Some((when, hash)) if *when == at => hash.clone(),
            _ => {
                let hash = self.game.state_hash();
                self.hashed = Some((at, hash.clone()));
                hash
            }
        }
    }

    /// Keeps `side` for the host itself (the computer plays it, or the host's own window):
    /// no client is seated there.
    pub fn keep_side(&mut self, side: u8) {
        if !self.here.contains(&side) {
            self.here.push(side);
        }
    }

    /// The game hosted.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game hosted, to drive the host's own seats (a computer side, the host's window).
    /// Call [`Host::updates`] after an order given this way, so the clients hear of it.
    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    /// The session secret of the join code.
    pub fn secret(&self) -> &str {
        &self.secret
    }

    /// The seat a connection holds, if it said hello and was seated.
    pub fn seat_of(&self, who: Who) -> Option<Seat> {
        self.guests.get(&who).map(|g| g.seat)
    }

    /// Every connection seated now (a side or a spectator).
    pub fn guests(&self) -> impl Iterator<Item = Who> + '_ {
        self.guests.keys().copied()
    }

    /// Lines for the host's console: who joined, was turned away or left. Taken once.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    fn side_name(&self, side: u8) -> String {
        self.game
            .side_names()
            .get(side as usize)
            .cloned()
            .unwrap_or_else(|| format!("side {side}"))
    }

    fn sides(&self) -> u8 {
        self.game.side_names().len() as u8
    }

    /// A client said hello: seat it, or say why not (and the transport then lets it go).
    pub fn hello(&mut self, who: Who, hello: &Hello) -> Outbox {
        match self.seat_for(who, hello) {
            Ok(seat) => {
                let who_is = match seat {
                    Seat::Side(s) => format!("plays {}", self.side_name(s)),
                    Seat::Spectator => "watches".to_string(),
                };
                self.notes
                    .push(format!("{} joined and {who_is}.", hello.name));
                self.guests.insert(
                    who,
                    Guest {
                        name: hello.name.clone(),
                        seat,
                        sent: 0,
                        figures: BTreeMap::new(),
                        feed: SeatFeed::default(),
                    },
                );
                let hash = self.record_hash();
                let rec = self.game.record();
                let welcome = Welcome {
                    seat,
                    sides: self.game.side_names(),
                    level_name: rec.level_name.clone(),
                    level: rec.level.clone(),
                    level_hash: text_hash(&rec.level),
                    ruleset_hash: text_hash(&rec.ruleset),
                    ruleset: rec.ruleset.clone(),
                };
                let mut out = vec![(who, FromHost::Welcome(welcome))];
                out.extend(self.update_for(who, hash));
                out
            }
            Err(turned) => {
                self.notes
                    .push(format!("{} was turned away: {turned}", hello.name));
                vec![(who, FromHost::Turned(turned))]
            }
        }
    }

    fn seat_for(&self, who: Who, hello: &Hello) -> Result<Seat, Turned> {
        if self.guests.contains_key(&who) {
            return Err(Turned::OutOfTurn);
        }
        // The version first: another build may word its secret differently.
        if hello.version != version() {
            return Err(Turned::OtherVersion {
                host: version(),
                client: hello.version.clone(),
            });
        }
        if hello.secret != self.secret {
            return Err(Turned::WrongCode);
        }
        let held =
            |s: u8| self.here.contains(&s) || self.guests.values().any(|g| g.seat == Seat::Side(s));
        match hello.wish {
            Wish::Watch => Ok(Seat::Spectator),
            Wish::Side(s) if s >= self.sides() => Err(Turned::NoSuchSide {
                side: s,
                sides: self.sides(),
            }),
            Wish::Side(s) if held(s) => Err(Turned::SeatTaken {
                side: self.side_name(s),
            }),
            Wish::Side(s) => Ok(Seat::Side(s)),
            Wish::AnySide => Ok((0..self.sides())
                .find(|&s| !held(s))
                .map_or(Seat::Spectator, Seat::Side)),
        }
    }

    /// A connection closed: its seat is free for whoever joins to it next with the secret
    /// (the same player rejoining, issue 30 item 3). The game waits as it was.
    pub fn left(&mut self, who: Who) {
        if let Some(g) = self.guests.remove(&who) {
            let seat = match g.seat {
                Seat::Side(s) => self.side_name(s),
                Seat::Spectator => "spectators".to_string(),
            };
            self.notes
                .push(format!("{} left; the seat of {seat} is free.", g.name));
        }
    }

    /// A client's order: refused unless it holds a side's seat and the order is for that
    /// side; otherwise the game's answer. After an accepted order every client hears of it.
    pub fn order(&mut self, who: Who, order: Order) -> Outbox {
        let refuse = |why: String| {
            vec![(
                who,
                FromHost::Refused {
                    order: order.clone(),
                    why,
                },
            )]
        };
        let Some(seat) = self.seat_of(who) else {
            return vec![(who, FromHost::Turned(Turned::OutOfTurn))];
        };
        let Seat::Side(side) = seat else {
            return refuse("a spectator gives no orders".into());
        };
        match self.game.side_of_order(&order) {
            Some(s) if s == side => {}
            Some(s) => {
                return refuse(format!(
                    "that order is for {}; you play {}",
                    self.side_name(s),
                    self.side_name(side)
                ));
            }
            None => return refuse("that order names no figure or unit of this battle".into()),
        }
        match self.game.order(&order) {
            Ok(()) => self.updates(),
            Err(r) => refuse(r.to_string()),
        }
    }

    /// Every client's view of the game as it stands, with the lines it has not had: after
    /// an order the host gave itself.
    pub fn updates(&mut self) -> Outbox {
        let hash = self.record_hash();
        let who: Vec<Who> = self.guests.keys().copied().collect();
        who.into_iter()
            .flat_map(|w| self.update_for(w, hash))
            .collect()
    }

    /// The hash chain over the accepted orders: each order's words folded into the hash
    /// of those before it, so it costs one order's hashing per order.
    fn record_hash(&mut self) -> u64 {
        let orders = &self.game.record().orders;
        for o in &orders[self.chained.min(orders.len())..] {
            let words = ron::to_string(o).unwrap_or_default();
            self.chain = text_hash(&format!("{:016x}{words}", self.chain));
        }
        self.chained = orders.len();
        self.chain
    }

    fn update_for(&mut self, who: Who, record_hash: u64) -> Option<(Who, FromHost)> {
        let guest = self.guests.get_mut(&who)?;
        let seat = guest.seat;
        let from = guest.sent.min(self.game.log().len());
        let mut view = self.game.view_since(seat, from);
        let lines: Vec<Line> = std::mem::take(&mut view.public.log)
            .into_iter()
            .map(|e| Line {
                what: e.what.clone(),
                entry: e,
            })
            .collect();
        let game = &self.game;
        let guest = self.guests.get_mut(&who)?;
        guest.sent = from + lines.len();
        // The orders it may see now, in the record's order; the rest wait for their reveal.
        let Batch {
            seen,
            dice_from,
            dice,
            complete,
        } = guest.feed.next(game, seat);
        // Only the figures that changed since the last update, and the ids of those gone.
        let now: BTreeMap<String, FigureState> = std::mem::take(&mut view.public.figures)
            .into_iter()
            .map(|f| (f.id.clone(), f))
            .collect();
        let removed: Vec<String> = guest
            .figures
            .keys()
            .filter(|id| !now.contains_key(*id))
            .cloned()
            .collect();
        view.public.figures = now
            .values()
            .filter(|f| guest.figures.get(&f.id) != Some(f))
            .cloned()
            .collect();
        guest.figures = now;
        let orders = self.game.record().orders.len();
        Some((
            who,
            FromHost::Update(Box::new(Update {
                seat,
                public: view.public,
                removed,
                own: view.own,
                log_from: from,
                lines,
                orders,
                record_hash,
                seen,
                dice_from,
                dice,
                state_hash: complete.then(|| self.state_hash()),
            })),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::order::Order;

    fn hello(wish: Wish, secret: &str) -> Hello {
        Hello {
            version: version(),
            secret: secret.into(),
            wish,
            name: "p".into(),
        }
    }

    fn seat(out: &Outbox) -> Option<Seat> {
        out.iter().find_map(|(_, m)| match m {
            FromHost::Welcome(w) => Some(w.seat),
            _ => None,
        })
    }

    #[test]
    fn a_side_kept_by_the_host_is_no_clients_and_orders_go_only_to_their_own_side() {
        let level = crate::level::default_level().expect("the default level");
        let mut host = Host::new(Game::new(&level, 1), "k".into());
        host.keep_side(0);
        let taken = host.hello(1, &hello(Wish::Side(0), "k"));
        assert!(matches!(
            taken[0].1,
            FromHost::Turned(Turned::SeatTaken { .. })
        ));
        assert_eq!(
            seat(&host.hello(2, &hello(Wish::AnySide, "k"))),
            Some(Seat::Side(1))
        );
        assert_eq!(
            seat(&host.hello(3, &hello(Wish::AnySide, "k"))),
            Some(Seat::Spectator),
            "every side held: the next one watches"
        );
        // A spectator gives no orders; a side gives none for the other side's figures.
        let refused = |out: &Outbox| {
            out.iter().find_map(|(_, m)| match m {
                FromHost::Refused { why, .. } => Some(why.clone()),
                _ => None,
            })
        };
        let red = level
            .figures
            .iter()
            .find(|f| f.side == 0)
            .expect("a red figure");
        let order = Order::Pass {
            unit: red.id.clone(),
        };
        assert!(refused(&host.order(3, order.clone())).is_some_and(|w| w.contains("spectator")));
        assert!(refused(&host.order(2, order)).is_some_and(|w| w.contains("you play")));
        assert_eq!(host.game().record().orders.len(), 0, "nothing was given");
        // A seat frees when its client leaves.
        host.left(2);
        assert_eq!(
            seat(&host.hello(4, &hello(Wish::Side(1), "k"))),
            Some(Seat::Side(1))
        );
    }
}
