//! The plain plans play whole games through `Game::order`, never roll on the actions table,
//! are rarely refused, and do what their names say.

use super::{Plain, Plan, hold, nearest_enemy_dist};
use crate::ai::{self, AiLevel};
use crate::level::{Level, default_level, load_level_file};
use crate::sim::Game;
use crate::sim::order::Order;
use crate::sim::phase::TurnState;
use crate::sim::view::View;
use std::path::Path;

fn level(name: &str) -> Level {
    load_level_file(Path::new(&format!("levels/{name}.ron"))).expect("level loads")
}

/// What a driven game gave: script orders, and of them refused.
struct Driven {
    game: Game,
    given: usize,
    refused: usize,
}

/// Plays `level` with `plan` on `side` against the baseline for at most `turns` turns;
/// `watch` sees every script order with the public board before it, the game after it, and
/// whether the rules took it.
fn drive(
    level: &Level,
    seed: u64,
    turns: u32,
    plan: Plan,
    side: u8,
    mut watch: impl FnMut(&View, &Order, &mut Game, bool),
) -> Driven {
    let mut game = Game::new(level, seed);
    ai::set_level(&mut game, 1 - side, AiLevel::Table);
    let mut p = Plain::new(plan, side);
    let (mut given, mut refused) = (0, 0);
    for _ in 0..200_000 {
        let turn = game.app.world().resource::<TurnState>().turn;
        if turn > turns || game.outcome().is_some() {
            break;
        }
        let Some(s) = ai::side_to_act(&mut game) else {
            break;
        };
        if s != side {
            let o = ai::next_order(&mut game, s).unwrap_or(Order::EndSide);
            let _ = game.order(&o);
            continue;
        }
        let o = p.next_order(&mut game).unwrap_or(Order::EndSide);
        let before = View::build(game.app.world_mut());
        let ok = game.order(&o).is_ok();
        watch(&before, &o, &mut game, ok);
        given += 1;
        if !ok {
            refused += 1;
            assert_ne!(o, Order::EndSide, "the script could not end its half-move");
        }
    }
    Driven {
        game,
        given,
        refused,
    }
}

#[test]
fn every_plan_plays_whole_games_without_rolling_and_is_rarely_refused() {
    for name in ["default", "destrier_bridge"] {
        let lv = level(name);
        for plan in Plan::ALL {
            for side in [0u8, 1] {
                let d = drive(&lv, 3, 20, plan, side, |_, o, _, _| {
                    assert!(!matches!(o, Order::ActionRoll { .. }), "{plan} rolled");
                });
                let rolls = d
                    .game
                    .app
                    .world()
                    .get_resource::<crate::sim::action_roll::ActionRolls>()
                    .map_or(0, |r| r.0.iter().filter(|e| e.side == side).count());
                assert_eq!(rolls, 0, "{plan} on {name}: the scripted side rolled");
                assert!(d.given > 0, "{plan} on {name} gave no order");
                assert!(
                    d.refused * 20 <= d.given,
                    "{plan} on {name}, side {side}: {} of {} orders refused",
                    d.refused,
                    d.given
                );
            }
        }
    }
}

#[test]
fn rush_closes_the_distance_to_the_enemy() {
    let lv = default_level().expect("the default level loads");
    for side in [0u8, 1] {
        let mut game = Game::new(&lv, 7);
        let mean = |game: &mut Game| {
            let v = View::build(game.app.world_mut());
            let d: Vec<i32> = v
                .figs
                .iter()
                .filter(|f| f.side == side && !f.down)
                .map(|f| nearest_enemy_dist(&v, f))
                .collect();
            d.iter().sum::<i32>() as f64 / d.len().max(1) as f64
        };
        let start = mean(&mut game);
        let mut d = drive(&lv, 7, 2, Plan::Rush, side, |_, _, _, _| {});
        let after = mean(&mut d.game);
        assert!(
            after < start - 2.0,
            "side {side}: mean distance to the nearest enemy {start:.1} -> {after:.1}"
        );
    }
}

#[test]
fn hold_keeps_to_its_area() {
    // Hold the Bridge: Blue (side 1) holds the bridge's south end, where it starts.
    let lv = level("destrier_bridge");
    let objectives = lv_objectives(&lv);
    let area = hold::area_of(&objectives, 1);
    assert!(!area.is_empty());
    let d = drive(&lv, 11, 8, Plan::Hold, 1, |before, o, game, ok| {
        let Order::Move { unit, .. } = o else {
            return;
        };
        let was = before.figs.iter().find(|f| &f.id == unit).map(|f| f.cell);
        if !ok || !was.is_some_and(|c| area.contains(&c)) {
            return;
        }
        let now = View::build(game.app.world_mut());
        let at = now.figs.iter().find(|f| &f.id == unit).map(|f| f.cell);
        assert!(
            at.is_some_and(|c| area.contains(&c)),
            "{unit} left the area: {was:?} -> {at:?}"
        );
    });
    // And the rest stay round it: no figure ends farther from the area than the farthest
    // one started.
    let far = |v: &View| {
        v.figs
            .iter()
            .filter(|f| f.side == 1 && !f.down)
            .map(|f| area.iter().map(|&c| v.dist(f.cell, c)).min().unwrap_or(0))
            .max()
            .unwrap_or(0)
    };
    let start = far(&View::build(Game::new(&lv, 11).app.world_mut()));
    let mut g = d.game;
    let end = far(&View::build(g.app.world_mut()));
    assert!(end <= start, "a figure strayed: {start} -> {end}");
    assert!(d.refused == 0, "{} refused", d.refused);
}

fn lv_objectives(lv: &Level) -> Vec<crate::rules::victory::Objective> {
    let g = Game::new(lv, 0);
    super::objectives(&g)
}
