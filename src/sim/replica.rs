//! A game that plays another machine's (issue 30): a client's replica, rolling the dice its
//! host rolled and sending its orders to the host instead of applying them; and, at the
//! host, what it sends for that: the dice rolled so far and which orders are still face down.
//! The replica's bookkeeping of what arrived is `net::replica`.

use super::Game;
use super::dice::Dice;
use super::follow::{Batch, Follower, SeatFeed, Shown};
use super::order::{Order, Refusal};
use super::side_view::{self, Seat};
use crate::level::Level;

impl Game {
    /// A client's replica of a hosted game (issue 30): the level with no seed, whose every
    /// die rolls a value the host rolled and sent ([`Game::feed_dice`]). `dice` are the
    /// values the host rolled so far, the first ones before its first order.
    pub fn replica(level: &Level, dice: &[u32]) -> Game {
        let mut d = Dice::scripted();
        d.feed(dice);
        let mut g = Game::with_dice(level, d);
        g.forwarded = Some(Vec::new());
        g
    }

    /// A replica's orders given since the last call, to send to its host (see
    /// [`Game::replica`]); none for a game that applies its own.
    pub fn take_forwarded(&mut self) -> Vec<Order> {
        self.forwarded
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Whether this game is a replica, whose orders go to its host.
    pub fn is_replica(&self) -> bool {
        self.forwarded.is_some()
    }

    /// Applies an order the host accepted to its replica: [`Game::order`] as a game that is
    /// not a replica gives it.
    pub fn order_from_host(&mut self, order: &Order) -> Result<(), Refusal> {
        self.apply(order)
    }

    /// A copy of this game as `side` knows it, to think ahead on (issue 31, item 3): `level`
    /// (this game's), every order of the record that `side` may see replayed — another
    /// side's face-down choices still hidden are left out, for the copy's players to make —
    /// the dice rolled so far rolled again, and every die after them from `seed`, never this
    /// game's own seed, which would tell its future. Only the first `upto` orders are
    /// replayed (all of them when there are fewer). `None` when an order does not replay (a
    /// copy without the hidden orders may refuse one that followed them).
    pub fn side_copy(&self, level: &Level, side: u8, seed: u64, upto: usize) -> Option<Game> {
        let mut g = Game::with_dice(level, Dice::replaying(self.dice_drawn(), seed));
        g.copy = true;
        for (i, o) in self.record.orders.iter().enumerate().take(upto) {
            if !self.reveals.hidden(i, Some(side)) {
                g.order(o).ok()?;
            }
        }
        Some(g)
    }

    /// Gives a replica the next values its host rolled.
    pub fn feed_dice(&mut self, values: &[u32]) {
        self.app.world_mut().resource_mut::<Dice>().feed(values);
    }

    /// Every die value rolled so far, in order: what a host sends its clients' replicas.
    pub fn dice_drawn(&self) -> &[u32] {
        self.app.world().resource::<Dice>().drawn()
    }

    /// A replica's dice: whether it was asked for a roll the host had not made (its game
    /// has parted from the host's), and how many values it was given and did not roll.
    pub fn replica_dice(&self) -> (bool, usize) {
        let d = self.app.world().resource::<Dice>();
        (d.starved(), d.unrolled())
    }

    /// Whether order `place` of the record is kept from `seat`: another side's face-down
    /// choice not yet revealed (see [`super::reveal`]), even if faced but for its DODGEs.
    pub fn hidden_from(&self, place: usize, seat: side_view::Seat) -> bool {
        let side = match seat {
            side_view::Seat::Side(s) => Some(s),
            side_view::Seat::Spectator => None,
        };
        self.reveals.hidden(place, side)
    }

    /// How much of order `place` of the record `seat` may have now: all of it, none of
    /// another side's face-down choice not yet revealed, or, while the round waits for the
    /// dodge guesses, that side's card play with its DODGEs masked (D7; see
    /// [`super::reveal`]). `Hidden` for a place beyond the record.
    pub fn shown_to(&self, place: usize, seat: side_view::Seat) -> Shown {
        let Some(order) = self.record.orders.get(place) else {
            return Shown::Hidden;
        };
        if !self.hidden_from(place, seat) {
            Shown::Whole(order.clone())
        } else if self.reveals.faced(place) {
            Shown::Faced(super::melee::faced_but_dodges(self.app.world(), order))
        } else {
            Shown::Hidden
        }
    }

    /// `order`, a card play about to be given or just given in the round now being chosen,
    /// as another side may see it once the round waits for its dodge guesses: each DODGE's
    /// way masked (D7; see [`Shown::Faced`]); with the enemies that will have to guess it.
    /// `None` when it has no DODGE, or nobody will guess it: then it is shown whole. Play by
    /// email opens such a play in two steps with these.
    pub fn faced_play(&self, order: &Order) -> Option<(Order, Vec<String>)> {
        super::melee::faced_play(self.app.world(), order)
    }

    /// Puts `now`, the whole of a card play this game was given masked as `was` (see
    /// [`Shown::Faced`]), in its place, in the game and in its record. False when it cannot
    /// (the round is no longer waiting for its guesses): the game must be rebuilt with it.
    pub fn unmask(&mut self, was: &Order, now: &Order) -> bool {
        if !super::melee::unmask(self.app.world_mut(), was, now) {
            return false;
        }
        if let Some(o) = self.record.orders.iter_mut().rev().find(|o| *o == was) {
            *o = now.clone();
        }
        true
    }
}

impl SeatFeed {
    /// What `seat` may be given of `game` since the last call.
    pub fn next(&mut self, game: &Game, seat: Seat) -> Batch {
        let orders = &game.record().orders;
        let epoch = game.reveals.epoch();
        // Nothing revealed or faced since the last look: what was held is held still.
        let held = if self.held_at == Some(epoch) {
            Vec::new()
        } else {
            std::mem::take(&mut self.held)
        };
        self.held_at = Some(epoch);
        let places: Vec<usize> = held
            .into_iter()
            .chain(self.next_order.min(orders.len())..orders.len())
            .collect();
        let mut seen = Vec::new();
        for p in places {
            match game.shown_to(p, seat) {
                Shown::Whole(o) => {
                    // A faced play whose DODGEs were masked comes again whole, where it differs.
                    if self.faced.remove(&p).as_ref() != Some(&o) {
                        seen.push((p, o));
                    }
                }
                Shown::Faced(o) => {
                    if let std::collections::btree_map::Entry::Vacant(e) = self.faced.entry(p) {
                        e.insert(o.clone());
                        seen.push((p, o));
                    }
                    self.held.push(p);
                }
                Shown::Hidden => self.held.push(p),
            }
        }
        self.next_order = orders.len();
        let drawn = game.dice_drawn();
        let dice_from = self.dice_sent.min(drawn.len());
        let dice = drawn[dice_from..].to_vec();
        self.dice_sent = drawn.len();
        Batch {
            seen,
            dice_from,
            dice,
            complete: self.held.is_empty(),
        }
    }
}

/// Moves what a follower's game keeps beyond the rules (the computer's memory) from the game
/// it throws away to the one rebuilt in its place; the simulation does not know what that is.
pub type Carry = fn(from: &mut Game, to: &mut Game);

impl Follower {
    /// Takes in one batch, bringing `game` up to it (`None`: not built yet, or given again
    /// from the start after a rejoin: built now). False when the batch does not follow on
    /// from the last ([`Follower::parted`] says how).
    pub fn take(&mut self, game: &mut Option<Game>, b: &Batch) -> bool {
        if b.dice_from != self.dice.len() {
            if b.dice_from != 0 {
                self.parted = Some(format!(
                    "the host sent die values from roll {} on; this game had {}",
                    b.dice_from + 1,
                    self.dice.len()
                ));
                return false;
            }
            // Given again from the start (a rejoin): everything is rebuilt from it.
            *self = Follower::new(self.level.clone());
            *game = None;
        }
        self.dice.extend_from_slice(&b.dice);
        let g = match game {
            Some(g) => {
                g.feed_dice(&b.dice);
                g
            }
            None => game.insert(Game::replica(&self.level, &self.dice)),
        };
        for (place, order) in &b.seen {
            if let Some(was) = self.known.insert(*place, order.clone()) {
                // The whole of a play given faced but for its DODGEs: in its place, or the
                // check plays every order again.
                if was != *order && !g.unmask(&was, order) {
                    self.refused = true;
                }
                continue;
            }
            if self.last.is_some_and(|l| *place < l) {
                self.unsure = true;
            }
            self.last = Some(self.last.map_or(*place, |l| l.max(*place)));
            // Out of the host's order it may wait on a choice not yet here: the check plays it
            // again in order once every order is here. So it does when the order asked for
            // dice the host did not roll: this game has parted from the host's.
            if g.order_from_host(order).is_err() || g.replica_dice().0 {
                self.refused = true;
            }
        }
        true
    }

    /// With every order the host accepted here (`orders` of them): the board against the
    /// host's `hash`, played again in the host's order when it differs (or when some order
    /// was refused here); `carry` moves across what the caller kept in the game thrown away.
    pub fn check(
        &mut self,
        game: &mut Option<Game>,
        hash: &str,
        orders: usize,
        carry: Option<Carry>,
    ) {
        let Some(g) = game.as_mut() else { return };
        if !self.refused && g.state_hash() == hash {
            self.unsure = false;
            return;
        }
        let mut fresh = Game::replica(&self.level, &self.dice);
        let mut refused = None;
        for (place, order) in &self.known {
            if let Err(r) = fresh.order_from_host(order) {
                refused = Some(format!(
                    "order {} ({order}) is refused here: {r}",
                    place + 1
                ));
                break;
            }
        }
        let same = refused.is_none() && fresh.state_hash() == hash;
        if let Some(carry) = carry {
            carry(g, &mut fresh);
        }
        *game = Some(fresh);
        self.unsure = false;
        self.refused = false;
        if !same {
            self.parted = Some(refused.unwrap_or_else(|| {
                format!("after {orders} orders this game's board differs from the host's")
            }));
        }
    }
}
