//! The game as one side knows it (I4, issue 29 item 3): the computer plays a side from a game
//! of the side's own, rebuilt from what the side may see of the real one exactly as a client's
//! replica across machines is ([`super::follow`]): the orders it may see, the dice already
//! rolled, nothing else. So whatever the computer reads there, it cannot read the other side's
//! face-down cards or charge orders before they are revealed, the dice to come, or the seed.
//!
//! The game keeps one for each side the computer asks about, brought up to date at each ask.
//! Three kinds of game read themselves instead: a side's copy made to think ahead on (it is
//! already what the side knows, or what it imagines), a client's replica of a game hosted
//! elsewhere (the same), and a position set by hand in a test, which no record rebuilds.

use super::follow::{Follower, SeatFeed};
use super::record::Record;
use super::replica::Carry;
use super::seat::Seats;
use super::side_asks::OwnSeed;
use super::side_view::Seat;
use super::{Game, SideGame};

impl Game {
    /// The game as `side` knows it now (see [`super::known`]), brought up to date with
    /// this one: every order `side` may see, every die rolled, the seats and the side's own
    /// seed. `carry` moves what the caller keeps in it (the computer's memory) across, when
    /// it has to be rebuilt. The game itself when it is a copy already, a client's replica
    /// (which holds only what its seat may see), was set up by hand, or its level does not
    /// load again from its record.
    pub fn known_to(&mut self, side: u8, carry: Carry) -> &mut Game {
        if self.copy || self.hand_set || self.is_replica() {
            return self;
        }
        let at = side as usize;
        if self.known.len() <= at {
            self.known.resize_with(at + 1, || None);
        }
        let known = match self.known[at].take() {
            Some(k) => Some(k),
            None => self.record.level().ok().map(|level| {
                Box::new(SideGame {
                    feed: SeatFeed::default(),
                    follower: Follower::new(level),
                    game: None,
                })
            }),
        };
        self.known[at] = known.and_then(|k| self.bring_up_to_date(k, side, carry));
        if self.known[at].is_none() {
            return self;
        }
        self.known[at]
            .as_mut()
            .and_then(|k| k.game.as_mut())
            .expect("kept just now")
    }

    /// Gives `known` what `side` may see of this game since it was last given, or `None`
    /// should it not follow on (never: this game gives every batch on from the last).
    fn bring_up_to_date(
        &mut self,
        mut known: Box<SideGame>,
        side: u8,
        carry: Carry,
    ) -> Option<Box<SideGame>> {
        let batch = known.feed.next(self, Seat::Side(side));
        if !known.follower.take(&mut known.game, &batch) {
            debug_assert!(false, "{:?}", known.follower.parted);
            return None;
        }
        // An order refused here leaves this game's record short: it is played again in
        // order. Orders merely played out of order are choices of one gathering, which do
        // not depend on each other; the debug builds (the tests) check that on every one.
        let check = known.follower.refused() || (cfg!(debug_assertions) && known.follower.unsure());
        if batch.complete && check {
            let hash = self.state_hash();
            let orders = self.record.orders.len();
            known
                .follower
                .check(&mut known.game, &hash, orders, Some(carry));
            debug_assert!(
                known.follower.parted.is_none(),
                "{:?}",
                known.follower.parted
            );
        }
        // Its own seed once (a rebuilt game lacks it), the seats whenever they changed.
        let g = known.game.as_mut()?;
        g.copy = true;
        if !g.app.world().contains_resource::<OwnSeed>() {
            let seed = super::side_asks::own_seed(self.app.world(), side);
            g.app.world_mut().insert_resource(OwnSeed { side, seed });
        }
        let seats = self.app.world().get_resource::<Seats>();
        if seats.is_some() && seats != g.app.world().get_resource::<Seats>() {
            g.app.world_mut().insert_resource(seats.cloned()?);
        }
        Some(known)
    }

    /// A side's own game rebuilt from its record and the dice it was given, with the side's
    /// seed (see [`Game::known_to`]): the same game, made wherever it is needed — a `Game`
    /// does not cross threads, its record and dice do. `None` when the record's level does
    /// not load or one of its orders is refused.
    pub fn side_game_from(record: &Record, dice: &[u32], side: u8, seed: u64) -> Option<Game> {
        let level = record.level().ok()?;
        let mut g = Game::replica(&level, dice);
        g.copy = true;
        for o in &record.orders {
            g.order_from_host(o).ok()?;
        }
        g.app.world_mut().insert_resource(OwnSeed { side, seed });
        Some(g)
    }

    /// The game as `side` knows it, as it was last brought up to date by
    /// [`Game::known_to`] (the computer's memory, for the window's *Why?*); this game itself
    /// when it reads itself.
    pub fn known_by(&self, side: u8) -> &Game {
        self.known
            .get(side as usize)
            .and_then(|k| k.as_ref())
            .and_then(|k| k.game.as_ref())
            .unwrap_or(self)
    }
}
