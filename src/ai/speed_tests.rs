//! Tests of the AI's speed-ups: they must change nothing the AI decides. The kept view
//! ([`crate::sim::view::with_view`], brought up to date after each order) must equal a view built
//! afresh after every order of whole AI-against-AI games, melee and losses included; so must
//! every figure's move set up from the kept contact facts ([`crate::sim::motion::KeptFacts`]),
//! and the kept fight model ([`crate::sim::melee::kept_fight`]) equal one read afresh; the
//! view's kept enemy cells and the index of figure ids must answer as a fresh look does.

use super::{AiLevel, next_order, set_level, side_to_act};
use crate::level::default_level;
use crate::sim::Game;
use crate::sim::components::{CarriedBy, FigureId};
use crate::sim::melee::{kept_fight, read_fight};
use crate::sim::motion::{KeptFacts, setup_move};
use crate::sim::order::Order;
use crate::sim::phase::TurnState;
use crate::sim::view::{View, ViewCache, with_view};
use crate::sim::world::find_figure;
use bevy::prelude::*;

/// Every field of two views, the board's terrain and the ruleset's grid included (the
/// views' `PartialEq` leaves those out).
fn assert_same(kept: &View, fresh: &View, when: &str) {
    assert_eq!(kept, fresh, "{when}");
    assert_eq!(kept.grid, fresh.grid, "{when}");
    assert_eq!(kept.mounted_style, fresh.mounted_style, "{when}");
    assert_eq!(kept.board.terrain, fresh.board.terrain, "{when}");
    assert_eq!(kept.board.terrains, fresh.board.terrains, "{when}");
    assert_eq!(
        (kept.board.width, kept.board.height, kept.board.grid),
        (fresh.board.width, fresh.board.height, fresh.board.grid),
        "{when}"
    );
}

/// Plays `game` with both sides AI until `turns` turns are over, comparing the kept view
/// with a fresh one after every order. Returns the orders given and how many were refused.
fn play_comparing(game: &mut Game, turns: u32) -> (usize, usize) {
    let (mut orders, mut refused) = (0, 0);
    for _ in 0..20_000 {
        if game.app.world().resource::<TurnState>().turn > turns {
            break;
        }
        let Some(side) = side_to_act(game) else {
            break;
        };
        let o = next_order(game, side).unwrap_or(Order::EndSide);
        refused += game.order(&o).is_err() as usize;
        orders += 1;
        let w = game.app.world_mut();
        let kept = with_view(w, |_, v| v.clone());
        let fresh = View::build(w);
        let when = format!("after order {orders}: {o}");
        assert_same(&kept, &fresh, &when);
        for side in 0..4 {
            let mut cells: Vec<_> = fresh.enemies(side).map(|f| f.cell).collect();
            cells.sort();
            assert_eq!(kept.enemy_cells(side), cells, "{when}");
        }
        assert_same_ids(w, &when);
        assert_same_setups(w, &when);
        let (kept, kept_entities) = kept_fight(w);
        let (fresh, fresh_entities) = read_fight(w);
        assert_eq!(format!("{kept:?}"), format!("{fresh:?}"), "{when}");
        assert_eq!(&kept_entities[..], &fresh_entities[..], "{when}");
        assert!(
            crate::sim::fire::notes_hold(w),
            "the fire phase's notes differ from a fresh look {when}"
        );
    }
    (orders, refused)
}

/// Every figure found by id from the kept index ([`crate::sim::world::FigureIndex`]) is the
/// first one of that id in the world.
fn assert_same_ids(w: &mut World, when: &str) {
    let all: Vec<(Entity, String)> = w
        .query::<(Entity, &FigureId)>()
        .iter(w)
        .map(|(e, f)| (e, f.0.clone()))
        .collect();
    for (_, id) in &all {
        let first = all.iter().find(|(_, i)| i == id).map(|x| x.0);
        assert_eq!(find_figure(w, id), first, "{when}: {id}");
    }
    assert_eq!(find_figure(w, "no such figure"), None, "{when}");
}

/// Every figure's move set up from the kept contact facts equals one set up from a fresh
/// read (the world without its kept facts).
fn assert_same_setups(w: &mut World, when: &str) {
    let figures: Vec<Entity> = w
        .query_filtered::<Entity, (With<FigureId>, Without<CarriedBy>)>()
        .iter(w)
        .collect();
    for e in figures {
        let kept = setup_move(w, e);
        let saved = w.remove_resource::<KeptFacts>();
        let fresh = setup_move(w, e);
        if let Some(k) = saved {
            w.insert_resource(k);
        }
        assert_eq!(
            (
                kept.unit,
                kept.mover_entity,
                kept.left,
                &kept.blocked,
                kept.limit
            ),
            (
                fresh.unit,
                fresh.mover_entity,
                fresh.left,
                &fresh.blocked,
                fresh.limit
            ),
            "{when}"
        );
        assert_eq!(
            format!("{:?} {:?}", kept.mover, kept.pose),
            format!("{:?} {:?}", fresh.mover, fresh.pose),
            "{when}"
        );
    }
}

/// A game of the level file at `path`, both sides played by the baseline AI.
fn table_game(path: &str, seed: u64) -> Game {
    let level = crate::level::load_level_file(std::path::Path::new(path)).expect(path);
    let mut g = Game::new(&level, seed);
    set_level(&mut g, 0, AiLevel::Table);
    set_level(&mut g, 1, AiLevel::Table);
    g
}

/// The kept contact facts follow a crowded melee: figures in contact, falling and dying.
#[test]
fn kept_contact_facts_equal_a_fresh_read_in_a_crowded_melee() {
    let mut g = table_game("levels/destrier_shieldwall.ron", 11);
    let (orders, refused) = play_comparing(&mut g, 3);
    assert!(orders > 50, "only {orders} orders");
    assert_eq!(refused, 0);
}

/// The kept fight model follows charges (declared, answered, ridden) and the fire phase.
#[test]
fn kept_models_follow_charges() {
    let mut g = table_game("tests/levels/charge_joust.ron", 4);
    let (orders, refused) = play_comparing(&mut g, 4);
    assert!(orders > 20, "only {orders} orders");
    assert_eq!(refused, 0);
    let reads = crate::sim::melee::KeptFight::reads(g.app.world());
    assert!(reads < orders, "{reads} fresh reads in {orders} orders");
}

#[test]
fn the_kept_view_equals_a_fresh_one_after_every_order() {
    let level = default_level().expect("default level");
    let mut down = 0;
    for (seed, red) in [(3, AiLevel::Table), (5, AiLevel::Lookahead)] {
        let mut g = Game::new(&level, seed);
        set_level(&mut g, 0, red);
        set_level(&mut g, 1, AiLevel::Table);
        let (orders, refused) = play_comparing(&mut g, 6);
        assert!(orders > 100, "seed {seed}: only {orders} orders");
        assert_eq!(refused, 0, "seed {seed}");
        // The view was brought up to date, not read afresh, after nearly every order.
        let reads = ViewCache::full_reads(g.app.world());
        assert!(
            reads * 10 < orders,
            "seed {seed}: {reads} reads in {orders} orders"
        );
        down += with_view(g.app.world_mut(), |_, v| {
            v.figs.iter().filter(|f| f.down || f.hurt).count()
        });
    }
    // The games went as far as melee: the views compared held wounded or fallen figures.
    assert!(down > 0);
}
