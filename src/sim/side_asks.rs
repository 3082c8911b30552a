//! What a side's computer player may read of the books that hold face-down choices and of the
//! dice (I4): the melee's public stage and who it waits for, the side's own charge orders, the
//! charges once revealed, and a seed of the side's own. The melee's face-down plays and
//! guesses, the enemy's charge orders before the reveal, the dice to come and the game's seed
//! are not reachable from here, and `src/ai/` may name neither [`MeleeState`], [`ChargeBook`]
//! nor [`Dice`] (`tests/integration/layers.rs`): the computer knows what a player at the
//! table would, and nothing more.

use super::charge::{ChargeBook, Stage as ChargeStage};
use super::components::{FigureId, SideId};
use super::dice::Dice;
use super::melee::{MeleeState, Stage as MeleeStage};
use crate::rules::melee::fight::Fight;
use bevy::prelude::*;

/// The melee's fight as it stands (every figure's public combat state), while a melee is on.
pub fn melee_fight(world: &World) -> Option<&Fight> {
    world.get_resource::<MeleeState>()?.fight.as_ref()
}

/// The melee's stage: choosing cards, guessing dodges, or between rounds.
pub fn melee_stage(world: &World) -> Option<MeleeStage> {
    world.get_resource::<MeleeState>().map(|s| s.stage)
}

/// The melee round under way, 0 outside a melee: with the turn and phase it stamps a
/// decision so that a player does not try the same order twice in one round.
pub fn melee_round(world: &World) -> u32 {
    melee_fight(world).map_or(0, |f| f.round)
}

/// The first figure of `side` the melee waits for, with its index in the fight (public: the
/// window and the log ask each figure by name). Found in place, without copying every
/// waiting figure's id: the AI asks it for every card order (issue 33).
pub fn melee_first_waiting(world: &World, side: u8) -> Option<(usize, String)> {
    let s = world.get_resource::<MeleeState>()?;
    let i = s.first_waiting(side)?;
    Some((i, s.fight.as_ref()?.fighters[i].id.clone()))
}

/// Ids of every figure the melee waits for, either side (public, as above).
pub fn melee_waiting_ids(world: &World) -> Vec<String> {
    world
        .get_resource::<MeleeState>()
        .map(MeleeState::waiting_ids)
        .unwrap_or_default()
}

/// The DODGEs still to be guessed, as (guesser, dodger) ids (D7): public, the log asks each
/// guesser by name; which way each dodger went stays face down.
pub fn dodges_to_guess(world: &World) -> Vec<(String, String)> {
    world
        .get_resource::<MeleeState>()
        .map(MeleeState::dodges_to_guess)
        .unwrap_or_default()
}

/// Where the charge phase stands, if a charge book is open.
pub fn charge_stage(world: &World) -> Option<ChargeStage> {
    world.get_resource::<ChargeBook>().map(|b| b.stage)
}

/// The charge orders the figures of `side` have written this turn, each with its targets in
/// order (none: no charge). Its own orders only; the enemy's stay face down (C1, D9).
pub fn own_charges(world: &mut World, side: u8) -> Vec<(String, Vec<String>)> {
    let ours: Vec<String> = world
        .query::<(&FigureId, &SideId)>()
        .iter(world)
        .filter(|(_, s)| s.0 == side)
        .map(|(f, _)| f.0.clone())
        .collect();
    let Some(book) = world.get_resource::<ChargeBook>() else {
        return Vec::new();
    };
    book.declared
        .iter()
        .filter(|(u, _)| ours.contains(u))
        .map(|(u, ts)| (u.clone(), ts.clone()))
        .collect()
}

/// The figures that charge `target` this turn, once the declarations are revealed (C1): the
/// log has listed them. Empty before the reveal, whoever asks.
pub fn chargers_of(world: &World, target: &str) -> Vec<String> {
    let Some(book) = world.get_resource::<ChargeBook>() else {
        return Vec::new();
    };
    if !matches!(book.stage, ChargeStage::Answering | ChargeStage::Ready) {
        return Vec::new();
    }
    book.declared
        .iter()
        .filter(|(_, ts)| ts.iter().any(|t| t == target))
        .map(|(u, _)| u.clone())
        .collect()
}

/// The seed of the one side whose own game this is ([`super::Game::known_to`]): that game
/// has no seed of its own to draw it from, and holds no other side's.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwnSeed {
    /// The side.
    pub side: u8,
    /// Its seed, as [`own_seed`] draws it from the real game's.
    pub seed: u64,
}

/// A seed of `side`'s own for a computer player's private choices (which way to guess a
/// dodge, the dice it imagines): drawn from the game's seed through a one-way hash, so that it
/// tells nothing of the dice to come, and the same for the same game, so that games replay.
pub fn own_seed(world: &World, side: u8) -> u64 {
    if let Some(own) = world.get_resource::<OwnSeed>().filter(|o| o.side == side) {
        return own.seed;
    }
    let seed = world.get_resource::<Dice>().map_or(0, |d| d.seed);
    let mut h = blake3::Hasher::new();
    h.update(b"warhorse side seed");
    h.update(&seed.to_le_bytes());
    h.update(&[side]);
    let bytes = h.finalize();
    u64::from_le_bytes(
        bytes.as_bytes()[..8]
            .try_into()
            .expect("a hash has 32 bytes"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::load_level_file;
    use crate::sim::Game;
    use crate::sim::order::Order;

    /// I4 and C1: "each side writes its charge orders face down". Red's knight charges a Blue
    /// footman on The Charge: Red reads its own order, Blue does not, and nobody learns who
    /// is charged until every rider has written and the orders are revealed.
    #[test]
    fn i4_a_side_reads_its_own_charge_orders_and_the_enemys_only_once_revealed() {
        let lv =
            load_level_file(std::path::Path::new("tests/levels/charge_joust.ron")).expect("level");
        let mut g = Game::new(&lv, 5);
        assert_eq!(g.charge_stage(), Some(ChargeStage::Declaring));
        let target = g
            .charge_targets("sir_baldwin")
            .into_iter()
            .find(|(_, r)| r.is_ok())
            .map(|(t, _)| t)
            .expect("Sir Baldwin may charge a footman");
        let order = |unit: &str, targets: Vec<String>| Order::DeclareCharge {
            unit: unit.to_string(),
            targets,
        };
        g.order(&order("sir_baldwin", vec![target.clone()]))
            .expect("charge written");
        let w = g.app.world_mut();
        assert_eq!(
            own_charges(w, 0),
            vec![("sir_baldwin".to_string(), vec![target.clone()])]
        );
        assert!(own_charges(w, 1).is_empty(), "Blue reads Red's order");
        assert!(chargers_of(w, &target).is_empty(), "read before the reveal");
        for unit in g.charge_awaited() {
            g.order(&Order::NoCharge { unit })
                .expect("no charge written");
        }
        assert_ne!(g.charge_stage(), Some(ChargeStage::Declaring));
        assert_eq!(chargers_of(g.app.world(), &target), vec!["sir_baldwin"]);
    }

    /// I4: a computer player's own seed is its side's alone and tells nothing of the dice:
    /// not the game's seed, not the other side's, and the same for the same game.
    #[test]
    fn i4_each_side_has_its_own_seed_apart_from_the_dice() {
        let lv =
            load_level_file(std::path::Path::new("tests/levels/charge_joust.ron")).expect("level");
        let g = Game::new(&lv, 5);
        let w = g.app.world();
        let (red, blue) = (own_seed(w, 0), own_seed(w, 1));
        assert_ne!(red, blue);
        assert_ne!(red, 5);
        assert_eq!(red, own_seed(Game::new(&lv, 5).app.world(), 0));
        assert_ne!(red, own_seed(Game::new(&lv, 6).app.world(), 0));
    }
}
