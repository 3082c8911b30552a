//! A client's whole game, rebuilt from what its host sends (issue 30), so a window that
//! joins a game draws, previews and offers cards from a [`Game`] of its own exactly as a
//! window at the host does — and still knows nothing its seat may not.
//!
//! The host sends each seat the orders it may see, with their places in the record, and
//! every die value it rolled. The replica plays those orders with those values (no seed:
//! [`Game::replica`]). The other side's face-down orders come only once revealed, so a seat's
//! own face-down choice may be played here before another side's that the host took first;
//! choices of one round do not depend on each other, and the host's board hash, sent when
//! the seat has had every order, checks that. Should it differ, the replica plays every
//! order again in the host's order, and says so if it still differs.

use super::protocol::Update;
use crate::level::Level;
use crate::sim::Game;
use crate::sim::order::Order;
use std::collections::BTreeMap;

/// What a client keeps to rebuild its host's game.
#[derive(Clone, Debug)]
pub struct Replica {
    level: Level,
    /// Every order had, by place in the host's record.
    known: BTreeMap<usize, Order>,
    /// Every die value the host rolled, as far as sent.
    dice: Vec<u32>,
    /// The highest place played so far.
    last: Option<usize>,
    /// Orders were played out of the host's order (or one was refused) since the board was
    /// last found equal to the host's.
    unsure: bool,
    /// Why this replica's game parted from the host's, if it did: the window says so.
    pub parted: Option<String>,
}

impl Replica {
    /// A replica of a game of `level` (the level the host's welcome carries).
    pub fn new(level: Level) -> Replica {
        Replica {
            level,
            known: BTreeMap::new(),
            dice: Vec::new(),
            last: None,
            unsure: false,
            parted: None,
        }
    }

    /// The level played.
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// Takes in one update, bringing `game` up to it (`None`: not built yet, or sent again
    /// from the start after a rejoin: built now).
    pub fn take(&mut self, game: &mut Option<Game>, u: &Update) {
        if u.dice_from != self.dice.len() {
            if u.dice_from != 0 {
                self.parted = Some(format!(
                    "the host sent die values from roll {} on; this game had {}",
                    u.dice_from + 1,
                    self.dice.len()
                ));
                return;
            }
            // Sent again from the start (a rejoin): everything is rebuilt from it.
            *self = Replica::new(self.level.clone());
            *game = None;
        }
        self.dice.extend_from_slice(&u.dice);
        let g = match game {
            Some(g) => {
                g.feed_dice(&u.dice);
                g
            }
            None => game.insert(Game::replica(&self.level, &self.dice)),
        };
        for (place, order) in &u.seen {
            self.known.insert(*place, order.clone());
            if self.last.is_some_and(|l| *place < l) {
                self.unsure = true;
            }
            self.last = Some(self.last.map_or(*place, |l| l.max(*place)));
            if g.order_from_host(order).is_err() {
                // Out of the host's order it may wait on a choice not yet here: the check
                // below plays it again in order once every order is here.
                self.unsure = true;
            }
        }
        if let Some(hash) = &u.state_hash {
            self.check(game, hash, u.orders);
        }
    }

    /// With every order the host accepted here: the board against the host's hash, played
    /// again in the host's order when it differs (or when some order was refused here).
    fn check(&mut self, game: &mut Option<Game>, hash: &str, orders: usize) {
        let Some(g) = game.as_mut() else { return };
        if !self.unsure && g.state_hash() == hash {
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
        *game = Some(fresh);
        self.unsure = false;
        if !same {
            self.parted = Some(refused.unwrap_or_else(|| {
                format!("after {orders} orders this game's board differs from the host's")
            }));
        }
    }
}
