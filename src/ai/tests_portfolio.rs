//! Issue 31, item 3: the strongest level plays its turn's choices forward on copies of the
//! game as its side knows it. These tests check the copy (the dice already rolled, then the
//! copier's own; nothing hidden replayed), the reading of which plain plan an enemy follows,
//! and that a side played this way gives no order the rules refuse.

use super::plain::{Plain, Plan};
use super::portfolio;
use super::{AiLevel, next_order, set_level, side_to_act};
use crate::level::{Level, default_level, load_level_file};
use crate::sim::Game;
use crate::sim::dice::Dice;
use crate::sim::order::Order;
use crate::sim::phase::TurnState;
use crate::sim::side_view::Seat;
use std::path::Path;

fn level(name: &str) -> Level {
    if name == "default" {
        return default_level().expect("default level");
    }
    load_level_file(Path::new(&format!("levels/{name}.ron"))).expect("level loads")
}

/// Plays `g` (side `script.side` by the script, the other by its seat) until `stop` says so;
/// every order of the AI side must be accepted. Returns the AI side's orders.
fn play_until(
    g: &mut Game,
    script: &mut Plain,
    mut stop: impl FnMut(&mut Game) -> bool,
) -> Vec<Order> {
    let mut mine = Vec::new();
    for _ in 0..20_000 {
        if g.outcome().is_some() || stop(g) {
            break;
        }
        let Some(side) = side_to_act(g) else { break };
        let order = if side == script.side {
            script.next_order(g)
        } else {
            next_order(g, side)
        }
        .unwrap_or(Order::EndSide);
        let r = g.order(&order);
        if side != script.side {
            assert!(r.is_ok(), "the AI's {order} is refused: {r:?}");
            mine.push(order);
        } else if r.is_err() && order == Order::EndSide {
            break;
        }
    }
    mine
}

#[test]
fn replaying_dice_roll_the_past_again_then_their_own_seed() {
    let mut d = Dice::replaying(&[3, 5, 1], 7);
    assert_eq!([d.roll(6), d.roll(6), d.roll(6)], [3, 5, 1]);
    let mut own = Dice::new(7);
    let next: Vec<u32> = (0..20).map(|_| d.roll(6)).collect();
    assert_eq!(next, (0..20).map(|_| own.roll(6)).collect::<Vec<_>>());
    assert!(!d.starved(), "a copy's dice roll on past their script");
}

#[test]
fn a_side_copy_is_the_board_its_side_knows_without_the_enemys_hidden_orders() {
    // The Charge: both sides' knights declare charges face down in the first turn.
    let lv = level("charge");
    let mut g = Game::new(&lv, 4);
    for s in 0..2 {
        set_level(&mut g, s, AiLevel::Commander);
    }
    let mut saw_hidden = false;
    for _ in 0..250 {
        let Some(side) = side_to_act(&mut g) else {
            break;
        };
        let order = next_order(&mut g, side).unwrap_or(Order::EndSide);
        g.order(&order).expect("the commander's order is accepted");
        let n = g.record().orders.len();
        let hidden: Vec<usize> = (0..n)
            .filter(|&i| g.hidden_from(i, Seat::Side(1 - side)))
            .collect();
        // A copy replays the whole record: every order with a secret, every tenth otherwise.
        if hidden.is_empty() && !n.is_multiple_of(10) {
            continue;
        }
        let copy = g
            .side_copy(&lv, 1 - side, 99, usize::MAX)
            .expect("the copy replays");
        assert_eq!(copy.record().orders.len(), n - hidden.len());
        if hidden.is_empty() {
            let mut copy = copy;
            assert_eq!(copy.state_hash(), g.state_hash(), "after order {n}");
        } else {
            saw_hidden = true;
            let mut copy = copy;
            // The copy waits for the hidden choice, for its own players to make.
            assert!(super::waits_for(&mut copy, side), "after order {n}");
        }
    }
    assert!(
        saw_hidden,
        "no face-down order was given: the test checks nothing"
    );
}

#[test]
fn the_enemys_plan_is_read_from_its_moves() {
    let lv = level("default");
    for plan in [Plan::Rush, Plan::Hold, Plan::Flank] {
        let mut g = Game::new(&lv, 11);
        set_level(&mut g, 1, AiLevel::Commander);
        let mut script = Plain::new(plan, 0);
        play_until(&mut g, &mut script, |g| {
            g.app.world().resource::<TurnState>().turn >= 2
        });
        let models = portfolio::enemy_models(&mut g, &lv, 1, 5);
        assert_eq!(models, vec![plan], "the enemy rushed, held or flanked");
    }
}

#[test]
fn the_strongest_level_plays_its_choices_with_no_refused_order() {
    // The Charge: short, so the copies a debug build plays stay few.
    let lv = level("charge");
    let mut ways = Vec::new();
    for (seed, plan) in [(1, Plan::Rush), (2, Plan::Flank)] {
        let mut g = Game::new(&lv, seed);
        set_level(&mut g, 1, AiLevel::Foresight);
        let mut script = Plain::new(plan, 0);
        let mut mine = play_until(&mut g, &mut script, |g| {
            g.app.world().resource::<TurnState>().turn > 1
        });
        // The window's "Why?" says that the leader played the side this turn.
        let why = super::explain(&g, "sir_gaston").expect("Blue's knight was played");
        assert!(why.commanded && why.choice.is_some(), "{why:?}");
        mine.extend(play_until(&mut g, &mut script, |g| {
            g.app.world().resource::<TurnState>().turn > 2
        }));
        assert!(!mine.is_empty(), "the strongest level gave orders");
        ways.extend(portfolio::chosen(&g, 1).map(|(_, w)| w));
        // Its orders are in the record like anyone's: the game replays from it.
        let mut again = Game::from_record(g.record()).expect("the game replays");
        assert_eq!(again.state_hash(), g.state_hash());
    }
    assert!(!ways.is_empty(), "a way was chosen");
    assert!(ways.iter().all(|w| portfolio::WAYS.contains(w)));
}
