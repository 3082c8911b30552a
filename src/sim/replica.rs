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
