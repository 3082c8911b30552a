//! A game that plays another machine's (issue 30): a client's replica, rolling the dice its
//! host rolled and sending its orders to the host instead of applying them; and, at the
//! host, what it sends for that: the dice rolled so far and which orders are still face down.
//! The replica's bookkeeping of what arrived is `net::replica`.

use super::Game;
use super::dice::Dice;
use super::order::{Order, Refusal};
use super::side_view;
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
    /// choice not yet revealed (see [`super::reveal`]).
    pub fn hidden_from(&self, place: usize, seat: side_view::Seat) -> bool {
        let side = match seat {
            side_view::Seat::Side(s) => Some(s),
            side_view::Seat::Spectator => None,
        };
        self.reveals.hidden(place, side)
    }
}
