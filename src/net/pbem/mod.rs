//! Play by email (issue 30): two players, no host. Each runs the whole [`Game`] at home and
//! they take turns writing turn files ([`TurnFile`]) to each other. Nothing is trusted that
//! can be checked:
//!
//! - **A hash chain.** Each file names the hash of the one before and carries its own, so a
//!   file edited after it was written, read twice, skipped or written for another history is
//!   refused, saying which.
//! - **Face-down choices are sealed** (D2, D7, D9, C1, C5): a file carries a salted BLAKE3
//!   commitment to the order, and the order itself in a later file, once the other player is
//!   bound to its own choices of that round. An opened order that is not the one committed
//!   to is refused. A DODGE someone must guess is shown masked first ([`faced`], D7).
//! - **The dice are made by both players** ([`dice`]): each turn's seed hashes a random value
//!   of each, committed before the other's is seen, so neither can choose a roll, and playing
//!   the game again at home gives the same rolls.
//! - **Every order is replayed by the reader's own rules**, and each file carries a hash of
//!   the board after the orders both can read, so two games that part say after which order.
//!
//! A player's own side of this (its salts, its dice values, its orders not yet sent) is kept
//! in a state file that only it reads ([`Pbem::save`]).
//!
//! Why one long file: reading, writing and giving an order share one book and one built game,
//! whose invariants (which places are sealed, which are played) every step keeps together;
//! the parts that stand alone (the file, the dice, the errors, the masked DODGEs) are apart.

mod dice;
mod error;
mod faced;
pub mod file;
#[cfg(test)]
mod tests;

pub use error::PbemError;
pub use file::{Entry, FacedPlay, Opening, Start, TurnFile};

use crate::level::Level;
use crate::sim::Game;
use crate::sim::log::LogEntry;
use crate::sim::order::Order;
use crate::sim::record::{Record, SAVE_FORMAT};
use dice::DiceBook;
use file::{FORMAT, MARK, commitment, fresh_value};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Tells a player's state file from any other JSON file.
const STATE_MARK: &str = "warhorse game by email";

/// How many turns ahead the dice are agreed. A turn's seed must be known before the order
/// that begins the turn, so it is agreed over the files of the turn before: both players can
/// compute the next turn's rolls during the last part of this one (neither can change
/// them). One turn ahead keeps that short; a seed not agreed in time refuses the order that
/// would begin its turn ([`PbemError::DiceNotAgreed`]) until the next files agree it.
const DICE_AHEAD: u32 = 1;

/// One place of the record, as this player knows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Slot {
    /// The player who gave it.
    by: u8,
    /// For an order made face down: the figure and the commitment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sealed: Option<(String, String)>,
    /// The order, when this player knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    order: Option<Order>,
    /// Every player can read it: given openly, or opened.
    public: bool,
    /// A sealed card play shown with its DODGEs masked and not opened yet (`faced.rs`): the
    /// other player's is `order`, masked.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    faced: bool,
}

/// Everything one player keeps of a game by email: the files' hashes, the record as far as it
/// knows it, its own secrets. Saved as its state file.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Book {
    /// [`STATE_MARK`].
    warhorse: String,
    /// This player: 0 began the game.
    me: u8,
    /// The game both agreed to.
    start: Start,
    /// [`Start::game_id`].
    game: String,
    /// The hash of every file so far, file 1 first.
    files: Vec<String>,
    /// The record.
    record: Vec<Slot>,
    /// The salts of this player's sealed orders, by place in the record.
    salts: BTreeMap<usize, String>,
    /// This player's orders given since its last file.
    pending: Vec<Order>,
    /// For each of this player's face-down orders, by place in the record: where the other
    /// player's orders then stood and which of its figures the round waited for. The order
    /// is opened once each of those has chosen ([`Book::openable`]).
    opening: BTreeMap<usize, (usize, Vec<String>)>,
    /// This player's sealed plays with a DODGE someone must guess, by place in the record:
    /// shown masked before they are opened (`faced.rs`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    masks: BTreeMap<usize, faced::Mask>,
    /// The dice.
    dice: DiceBook,
}

/// A game by email, from one player's seat.
pub struct Pbem {
    book: Book,
    level: Level,
    /// The game as far as this player can play it: the record up to the first order still
    /// sealed from it, its own orders after that, and its orders not yet sent. `None` until
    /// the dice of turn 1 are agreed.
    game: Built,
}

/// What a player does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The game waits for this player's orders; then it writes its file.
    YourOrders,
    /// Nothing to order now: write the file (it carries dice values, opened cards, or shows
    /// the other player what happened).
    WriteNow,
    /// The other player's file comes next.
    TheirFile,
    /// The battle is over, with the judge's words.
    Over(String),
}

/// The player who writes file `seq`: 0 writes the odd ones.
fn writer_of(seq: u32) -> u8 {
    u8::from(seq.is_multiple_of(2))
}

/// The figure an order made face down speaks for; `None` for an order given openly.
fn face_down_unit(order: &Order) -> Option<&str> {
    order.face_down_unit()
}

/// The game a book can play, as far as it can play it.
struct Built {
    game: Option<Game>,
    /// The game met an order still sealed from this player and skipped the other player's
    /// orders from there on: it is this player's own play ahead of the record.
    blocked: bool,
    /// [`Game::state_hash`] before each sealed order the game passed in record order, by place.
    states: BTreeMap<usize, String>,
}

impl Built {
    /// No game yet.
    fn none() -> Built {
        Built {
            game: None,
            blocked: false,
            states: BTreeMap::new(),
        }
    }

    /// Applies the record from place `from` on: each known order in turn, skipping the other
    /// player's orders from the first one still sealed from this player (they may hang on
    /// it), and keeping the state before each sealed order while still in record order.
    fn extend(&mut self, book: &Book, from: usize) -> Result<(), PbemError> {
        let Some(g) = self.game.as_mut() else {
            return Ok(());
        };
        let seeds = book.dice.seeds();
        for &s in seeds.get(g.record().turn_seeds.len()..).unwrap_or_default() {
            g.add_turn_seed(s);
        }
        for (i, slot) in book.record.iter().enumerate().skip(from) {
            if !self.blocked && slot.sealed.is_some() {
                self.states.insert(i, g.state_hash());
            }
            let Some(order) = &slot.order else {
                self.blocked = true;
                continue;
            };
            if self.blocked && slot.by != book.me {
                continue;
            }
            book.replay(g, i, slot.by, order)?;
        }
        Ok(())
    }

    /// How many orders every player can read, and the state after them (empty before the
    /// dice of turn 1 are agreed): what a file says, so two games that part say where.
    fn public_state(&mut self, book: &Book) -> (usize, String) {
        let public = book.record.iter().take_while(|s| s.public).count();
        let state = match self.game.as_mut() {
            None => String::new(),
            Some(g) if public == book.record.len() && !self.blocked => g.state_hash(),
            Some(_) => self.states.get(&public).cloned().unwrap_or_default(),
        };
        (public, state)
    }
}

impl Book {
    /// The first place of the record this player cannot read yet (the record's end if none).
    fn first_unknown(&self) -> usize {
        self.record
            .iter()
            .position(|s| s.order.is_none())
            .unwrap_or(self.record.len())
    }

    /// The level and ruleset agreed on, as a record with no orders reads them.
    fn level(start: &Start) -> Result<Level, PbemError> {
        let rec = Record {
            game: "warhorse".into(),
            format: SAVE_FORMAT,
            level_name: start.level_name.clone(),
            level_source: start.level_source.clone(),
            seed: 0,
            turn_seeds: Vec::new(),
            level: start.level.clone(),
            ruleset: start.ruleset.clone(),
            orders: Vec::new(),
            checks: Vec::new(),
            players: Vec::new(),
        };
        rec.level().map_err(|e| PbemError::BadStart(e.to_string()))
    }

    /// Replays the whole record by this player's rules (see [`Built::extend`]), then the
    /// orders not yet sent.
    fn build(&self, level: &Level) -> Result<Built, PbemError> {
        let seeds = self.dice.seeds();
        let mut built = Built {
            game: (!seeds.is_empty()).then(|| Game::new_by_turn(level, seeds)),
            blocked: false,
            states: BTreeMap::new(),
        };
        built.extend(self, 0)?;
        if let Some(g) = built.game.as_mut() {
            for (k, order) in self.pending.iter().enumerate() {
                let at = self.record.len() + k;
                if !built.blocked && face_down_unit(order).is_some() {
                    built.states.insert(at, g.state_hash());
                }
                self.replay(g, at, self.me, order)?;
            }
        }
        Ok(built)
    }

    /// Gives `order`, the record's order `i`, by player `by`: refused if the rules refuse
    /// it, if it is for a side `by` does not play, or if it begins a turn whose dice are not
    /// agreed (its sender knew them, so the file would have said them).
    fn replay(&self, g: &mut Game, i: usize, by: u8, order: &Order) -> Result<(), PbemError> {
        let owner = g
            .side_of_order(order)
            .and_then(|s| self.start.owners.get(s as usize).copied());
        if owner != Some(by) {
            return Err(PbemError::NotTheirSide {
                order_no: i + 1,
                order: order.to_string(),
            });
        }
        let refused = |why: String| PbemError::OrderRefused {
            order_no: i + 1,
            order: order.to_string(),
            why,
        };
        g.order(order).map_err(|r| refused(r.to_string()))?;
        if let Some(t) = g.missing_turn_seed() {
            return Err(refused(format!("turn {t}'s dice are not agreed")));
        }
        Ok(())
    }

    /// Takes in the other player's file: its orders, its openings, its dice.
    fn take(&mut self, f: &TurnFile) -> Result<(), PbemError> {
        let them = 1 - self.me;
        for e in &f.entries {
            self.record.push(match e {
                Entry::Order(o) => Slot {
                    by: them,
                    sealed: None,
                    order: Some(o.clone()),
                    public: true,
                    faced: false,
                },
                Entry::Sealed { unit, commitment } => Slot {
                    by: them,
                    sealed: Some((unit.clone(), commitment.clone())),
                    order: None,
                    public: false,
                    faced: false,
                },
            });
        }
        self.take_faced(&f.faced)?;
        for op in &f.opened {
            let order_no = op.slot + 1;
            let slot = self
                .record
                .get_mut(op.slot)
                .filter(|s| s.by == them && !s.public)
                .ok_or(PbemError::NothingSealed { order_no })?;
            let Some((unit, c)) = &slot.sealed else {
                return Err(PbemError::NothingSealed { order_no });
            };
            let shown = slot.order.as_ref().filter(|_| slot.faced);
            if *c != commitment(&self.game, op.slot, &op.order, &op.salt)
                || face_down_unit(&op.order) != Some(unit.as_str())
                || shown.is_some_and(|m| !faced::same_but_dodges(m, &op.order))
            {
                return Err(PbemError::ChangedCommitment { order_no });
            }
            slot.order = Some(op.order.clone());
            slot.public = true;
            slot.faced = false;
        }
        self.dice.read(&f.dice)
    }

    /// The other player's figures that `g` waits for to choose face down (D2, D7, D9, C5).
    fn their_awaited(&self, g: &mut Game) -> Vec<String> {
        let them = 1 - self.me;
        let snap = g.snapshot();
        let sides = g.sides_of_figures();
        snap.to_choose
            .into_iter()
            .chain(snap.to_declare)
            .filter(|id| {
                let side = sides.get(id).copied();
                side.and_then(|s| self.start.owners.get(s as usize)) == Some(&them)
            })
            .collect()
    }

    /// True when this player's sealed order at `slot` may be opened: the other player is
    /// bound to each choice the round waited for from it when the order was given — each of
    /// those figures is named by one of its orders given since (sealed or a pass), or it
    /// passed for the rest of the melee — so seeing this order changes nothing it can do.
    fn openable(&self, slot: usize) -> bool {
        let Some((from, awaited)) = self.opening.get(&slot) else {
            return true;
        };
        let them = 1 - self.me;
        let mut named = Vec::new();
        for s in self.record.iter().skip(*from).filter(|s| s.by == them) {
            match (&s.sealed, &s.order) {
                (Some((unit, _)), _) => named.push(unit.as_str()),
                (None, Some(Order::PassMelee { .. })) => return true,
                (None, Some(o)) => named.extend(choice_unit(o)),
                (None, None) => {}
            }
        }
        awaited.iter().all(|id| named.contains(&id.as_str()))
    }
}

/// The figure a round's choice speaks for: a face-down order's, or a pass's (D9).
fn choice_unit(order: &Order) -> Option<&str> {
    match order {
        Order::Pass { unit } => Some(unit),
        o => face_down_unit(o),
    }
}

impl Pbem {
    /// Begins a game of `level`, this player giving the orders of `side` and the other
    /// player those of every other side; returns the first file to send.
    pub fn begin(level: &Level, side: u8) -> Result<(Pbem, TurnFile), PbemError> {
        let n = level.file.sides.len();
        if n < 2 || side as usize >= n {
            return Err(PbemError::BadStart(format!(
                "the level has {n} side(s): a game by email needs two, and a side of them"
            )));
        }
        let rec = Game::new(level, 0).record().clone();
        let start = Start {
            level_name: rec.level_name,
            level_source: rec.level_source,
            level: rec.level,
            ruleset: rec.ruleset,
            owners: (0..n as u8).map(|s| u8::from(s != side)).collect(),
            nonce: fresh_value(),
        };
        let mut p = Pbem::from_start(start, 0)?;
        let f = p.write()?;
        Ok((p, f))
    }

    /// Takes up a game from its first file, as the player who answers it.
    pub fn answer(first: &TurnFile) -> Result<(Pbem, Vec<LogEntry>), PbemError> {
        check_kind(first)?;
        let Some(start) = first.start.clone().filter(|_| first.seq == 1) else {
            return Err(PbemError::OutOfOrder {
                expected: 1,
                found: first.seq,
            });
        };
        let mut p = Pbem::from_start(start, 1)?;
        let lines = p.read(first)?;
        Ok((p, lines))
    }

    fn from_start(start: Start, me: u8) -> Result<Pbem, PbemError> {
        let level = Book::level(&start)?;
        let game = start.game_id();
        Ok(Pbem {
            book: Book {
                warhorse: STATE_MARK.into(),
                me,
                dice: DiceBook::new(game.clone(), me),
                game,
                start,
                files: Vec::new(),
                record: Vec::new(),
                salts: BTreeMap::new(),
                pending: Vec::new(),
                opening: BTreeMap::new(),
                masks: BTreeMap::new(),
            },
            level,
            game: Built::none(),
        })
    }

    /// Reads the other player's next file. Returns the log lines it brings, in order; a
    /// refused file changes nothing.
    pub fn read(&mut self, f: &TurnFile) -> Result<Vec<LogEntry>, PbemError> {
        check_kind(f)?;
        if f.compute_hash() != f.hash {
            return Err(PbemError::Altered { seq: f.seq });
        }
        if f.game != self.book.game {
            return Err(PbemError::OtherGame);
        }
        let expected = self.book.files.len() as u32 + 1;
        if f.seq < expected {
            let seen = self.book.files.get(f.seq.saturating_sub(1) as usize);
            return Err(if seen == Some(&f.hash) {
                PbemError::Reused { seq: f.seq }
            } else {
                PbemError::Rewritten { seq: f.seq }
            });
        }
        if f.seq > expected {
            return Err(PbemError::OutOfOrder {
                expected,
                found: f.seq,
            });
        }
        if writer_of(f.seq) == self.book.me || f.from != writer_of(f.seq) {
            return Err(PbemError::NotFromOpponent { seq: f.seq });
        }
        if f.prev != self.book.files.last().cloned().unwrap_or_default() {
            return Err(PbemError::BrokenChain { seq: f.seq });
        }
        let mut b = self.book.clone();
        b.take(f)?;
        b.files.push(f.hash.clone());
        let before: Vec<LogEntry> = self.game().map(|g| g.log().to_vec()).unwrap_or_default();
        // A play opened whole that the game has played masked is played again.
        let unmasked = f
            .opened
            .iter()
            .any(|o| self.book.record.get(o.slot).is_some_and(|s| s.faced));
        // In record order so far, the game goes on from where it is; else it is rebuilt.
        let mut built = if self.game.game.is_some() && !self.game.blocked && !unmasked {
            let from = self.book.record.len();
            let mut built = std::mem::replace(&mut self.game, Built::none());
            built.extend(&b, from).map(|()| built)
        } else {
            b.build(&self.level)
        };
        let checked = built.as_mut().map_err(|e| e.clone()).and_then(|built| {
            let (public, state) = built.public_state(&b);
            let both = !state.is_empty() && !f.state.is_empty();
            if public != f.public_orders || (both && state != f.state) {
                return Err(PbemError::StatesDiffer {
                    after: public.min(f.public_orders),
                });
            }
            Ok(())
        });
        if let Err(e) = checked {
            if self.game.game.is_none() {
                self.game = self.book.build(&self.level)?;
            }
            return Err(e);
        }
        self.book = b;
        self.game = built?;
        let after = self.game().map(Game::log).unwrap_or_default();
        let same = before.iter().zip(after).take_while(|(a, b)| a == b).count();
        Ok(after[same..].to_vec())
    }

    /// Gives one of this player's orders; it goes in the next file.
    pub fn order(&mut self, order: &Order) -> Result<(), PbemError> {
        if writer_of(self.next_seq()) != self.book.me {
            return Err(PbemError::NotYourTurn(
                "the other player's file comes next: wait for it".into(),
            ));
        }
        let me = self.book.me;
        let owners = &self.book.start.owners;
        let at = self.book.record.len() + self.book.pending.len();
        let in_order = !self.game.blocked;
        let Some(g) = self.game.game.as_mut() else {
            return Err(PbemError::NotYourTurn(
                "the dice of turn 1 are not agreed yet: write your turn file".into(),
            ));
        };
        match g.side_of_order(order).and_then(|s| owners.get(s as usize)) {
            Some(&o) if o == me => {}
            Some(_) => {
                return Err(PbemError::NotYourTurn(
                    "that order is for a side the other player plays".into(),
                ));
            }
            None => {
                return Err(PbemError::NotYourTurn(
                    "that order speaks for no one side (it names nothing of this battle, or \
                     would pass for both sides' figures): give your own figures' orders"
                        .into(),
                ));
            }
        }
        let face_down = face_down_unit(order).is_some();
        let before = (in_order && face_down).then(|| g.state_hash());
        let waits_on = face_down.then(|| self.book.their_awaited(g));
        let mask = g.faced_play(order);
        g.order(order)
            .map_err(|r| PbemError::Refused(r.to_string()))?;
        if let Some(h) = before {
            self.game.states.insert(at, h);
        }
        if let Some(awaited) = waits_on {
            let from = if in_order {
                self.book.record.len()
            } else {
                self.book.first_unknown()
            };
            self.book.opening.insert(at, (from, awaited));
        }
        if let Some(turn) = g.missing_turn_seed() {
            self.game = self.book.build(&self.level)?;
            return Err(PbemError::DiceNotAgreed { turn });
        }
        if let Some((order, guessers)) = mask {
            let m = faced::Mask {
                order,
                guessers,
                shown_from: None,
            };
            self.book.masks.insert(at, m);
        }
        self.book.pending.push(order.clone());
        Ok(())
    }

    /// Writes this player's next file: its orders since the last (those made face down
    /// sealed), its sealed orders opened once the other player is bound, its dice.
    pub fn write(&mut self) -> Result<TurnFile, PbemError> {
        let seq = self.next_seq();
        let me = self.book.me;
        if writer_of(seq) != me {
            return Err(PbemError::NotYourTurn(
                "the other player's file comes next: wait for it".into(),
            ));
        }
        let turn = self
            .game
            .game
            .as_mut()
            .map_or(1, |g| g.snapshot().turn.max(1));
        let mut b = self.book.clone();
        let mut entries = Vec::new();
        for o in std::mem::take(&mut b.pending) {
            let slot = b.record.len();
            let (entry, sealed) = match face_down_unit(&o) {
                Some(unit) => {
                    let salt = fresh_value();
                    let c = commitment(&b.game, slot, &o, &salt);
                    b.salts.insert(slot, salt);
                    let sealed = (unit.to_string(), c.clone());
                    let e = Entry::Sealed {
                        unit: unit.to_string(),
                        commitment: c,
                    };
                    (e, Some(sealed))
                }
                None => (Entry::Order(o.clone()), None),
            };
            entries.push(entry);
            b.record.push(Slot {
                by: me,
                public: sealed.is_none(),
                sealed,
                order: Some(o),
                faced: false,
            });
        }
        let mut opened = Vec::new();
        let mut faced = Vec::new();
        for slot in 0..b.record.len() {
            let s = &b.record[slot];
            if s.by != me || s.public || !b.openable(slot) {
                continue;
            }
            // A DODGE someone must guess: shown masked first, opened once they have guessed.
            if let Some(m) = b.masks.get(&slot) {
                if m.shown_from.is_none() {
                    faced.push(FacedPlay {
                        slot,
                        order: m.order.clone(),
                    });
                    let from = b.record.len();
                    b.masks
                        .entry(slot)
                        .and_modify(|m| m.shown_from = Some(from));
                    continue;
                }
                if !b.guessed(slot, m) {
                    continue;
                }
            }
            let (Some(order), Some(salt)) = (&s.order, b.salts.get(&slot)) else {
                continue;
            };
            opened.push(Opening {
                slot,
                order: order.clone(),
                salt: salt.clone(),
            });
            b.record[slot].public = true;
            b.masks.remove(&slot);
        }
        let dice = b.dice.words(turn..=turn + DICE_AHEAD);
        // The orders are in the game already; only the dice may have grown.
        if self.game.game.is_some() {
            self.game.extend(&b, b.record.len())?;
        } else {
            self.game = b.build(&self.level)?;
        }
        let (public, state) = self.game.public_state(&b);
        let f = TurnFile {
            warhorse: MARK.into(),
            format: FORMAT,
            version: crate::net::protocol::version(),
            game: b.game.clone(),
            seq,
            from: me,
            prev: b.files.last().cloned().unwrap_or_default(),
            start: (seq == 1).then(|| b.start.clone()),
            entries,
            opened,
            faced,
            dice,
            public_orders: public,
            state,
            hash: String::new(),
        }
        .seal();
        b.files.push(f.hash.clone());
        self.book = b;
        Ok(f)
    }

    /// What this player does next. Once the battle is over it says so whoever's file
    /// comes next (the player who ended it still sends that file).
    pub fn status(&mut self) -> Status {
        if let Some(out) = self.game().and_then(Game::outcome) {
            return Status::Over(out.reason.clone());
        }
        if writer_of(self.next_seq()) != self.book.me {
            return Status::TheirFile;
        }
        let sides = self.my_sides();
        let Some(g) = self.game.game.as_mut() else {
            return Status::WriteNow;
        };
        if sides.iter().any(|&s| crate::ai::waits_for(g, s)) {
            Status::YourOrders
        } else {
            Status::WriteNow
        }
    }

    /// True when the next file is this player's to write.
    pub fn writes_next(&self) -> bool {
        writer_of(self.next_seq()) == self.book.me
    }

    /// How many of this player's orders wait for its next file.
    pub fn unsent(&self) -> usize {
        self.book.pending.len()
    }

    /// The number of the next file, written or read.
    pub fn next_seq(&self) -> u32 {
        self.book.files.len() as u32 + 1
    }

    /// The game's id ([`Start::game_id`]): every file of the game names it, so a window finds
    /// the game a file it is given belongs to.
    pub fn game_id(&self) -> &str {
        &self.book.game
    }

    /// The level played.
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// This player: 0 began the game, 1 answered it.
    pub fn me(&self) -> u8 {
        self.book.me
    }

    /// The sides whose orders this player gives.
    pub fn my_sides(&self) -> Vec<u8> {
        let me = self.book.me;
        let owners = &self.book.start.owners;
        (0..owners.len() as u8)
            .filter(|&s| owners[s as usize] == me)
            .collect()
    }

    /// The game as this player can play it, once turn 1's dice are agreed. To look at it
    /// (and to let the computer choose an order from it): an order given on it directly is
    /// not sent and is lost at the next file; give orders with [`Pbem::order`].
    pub fn game_mut(&mut self) -> Option<&mut Game> {
        self.game.game.as_mut()
    }

    /// The game as this player can play it, once turn 1's dice are agreed.
    pub fn game(&self) -> Option<&Game> {
        self.game.game.as_ref()
    }

    /// The record every player can read: the orders before the first one still sealed,
    /// with the dice seeds of the turns reached. Both players' records agree.
    pub fn public_record(&self) -> Option<Record> {
        let g = self.game()?;
        let mut rec = g.record().clone();
        rec.orders = self
            .book
            .record
            .iter()
            .take_while(|s| s.public)
            .filter_map(|s| s.order.clone())
            .collect();
        let n = rec.orders.len();
        rec.checks.retain(|c| c.after <= n);
        // The dice of turns the game has not reached are agreed a turn ahead: once the battle
        // is over, one player may hold the next turn's seed and the other not yet. Neither is
        // rolled; the record keeps the turns played.
        let turns = g.turn_state().turn.max(1) as usize;
        rec.turn_seeds.truncate(turns);
        Some(rec)
    }

    /// This player's state as text: its secrets too, so it is for this player alone.
    pub fn to_text(&self) -> String {
        serde_json::to_string_pretty(&self.book).unwrap_or_default()
    }

    /// Reads a state written by [`Pbem::to_text`].
    pub fn from_text(text: &str) -> Result<Pbem, PbemError> {
        let book: Book = serde_json::from_str(text)
            .map_err(|e| PbemError::Io(format!("this is not a Warhorse game by email: {e}")))?;
        if book.warhorse != STATE_MARK {
            return Err(PbemError::Io("this is not a Warhorse game by email".into()));
        }
        let level = Book::level(&book.start)?;
        let game = book.build(&level)?;
        Ok(Pbem { book, level, game })
    }

    /// Saves this player's state to `path`: written beside it and renamed over it, so a crash
    /// while saving leaves the state before, whole (its secrets cannot be had again).
    pub fn save(&self, path: &std::path::Path) -> Result<(), PbemError> {
        let words = |e: std::io::Error| {
            PbemError::Io(format!("{} could not be written: {e}", path.display()))
        };
        let mut part = path.as_os_str().to_owned();
        part.push(".part");
        let part = std::path::PathBuf::from(part);
        std::fs::write(&part, self.to_text()).map_err(words)?;
        std::fs::rename(&part, path).map_err(words)
    }

    /// Loads this player's state from `path` (a regular file of a bounded size).
    pub fn load(path: &std::path::Path) -> Result<Pbem, PbemError> {
        let text = read_bounded(path)?;
        Pbem::from_text(&text)
    }
}

/// Reads a turn file or a state file: a regular file of at most a save's size
/// ([`crate::level::input::MAX_SAVE_BYTES`]), so a link to a device or a pipe is refused in
/// words instead of read for ever.
pub fn read_bounded(path: &std::path::Path) -> Result<String, PbemError> {
    crate::level::input::read_text(path, crate::level::input::MAX_SAVE_BYTES)
        .map_err(|e| PbemError::Io(format!("{}: {e}", path.display())))
}

/// Refuses what is not a turn file of this build.
fn check_kind(f: &TurnFile) -> Result<(), PbemError> {
    if f.warhorse != MARK || f.format != FORMAT {
        return Err(PbemError::NotATurnFile(format!(
            "format {} of \"{}\"",
            f.format, f.warhorse
        )));
    }
    let ours = crate::net::protocol::version();
    if f.version != ours {
        return Err(PbemError::OtherVersion {
            theirs: f.version.clone(),
            ours,
        });
    }
    Ok(())
}

/// Reads a turn file's text.
pub fn parse_file(text: &str) -> Result<TurnFile, PbemError> {
    serde_json::from_str(text).map_err(|e| PbemError::NotATurnFile(e.to_string()))
}
