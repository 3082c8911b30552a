//! The fire phase in the window (D3), headless: the side at the computer sees each of its
//! shooters with every enemy and the chance the resolution rolls against (or the rule that
//! refuses the shot), a click fires at once and is logged, and "Done" ends its turn to act.

use super::{act, game};
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use std::path::Path;
use warhorse::level::{Control, load_level_file};
use warhorse::rules::fire::SubStep;
use warhorse::sim::charge::awaiting_ids;
use warhorse::sim::fire::{current_step, fire_odds, shots_left};
use warhorse::sim::log::GameLog;
use warhorse::sim::order::Order;
use warhorse::ui::bridge::GameView;
use warhorse::ui::screens::fire::{FireOverlay, FireView, order_of};
use warhorse::ui::screens::host::GameHost;
use warhorse::ui::screens::saves::SaveDir;
use warhorse::ui::screens::{ScreenAction, ScreenView, ScreensPlugin};

/// A hot-seat game of the Village Raid, played (no charges, sides ended) until a side with a
/// bow must fire.
fn at_fire() -> App {
    let dir = std::env::temp_dir().join(format!("warhorse-fire-ui-{}", std::process::id()));
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, ScreensPlugin))
        .insert_resource(SaveDir(dir));
    let level = load_level_file(Path::new("levels/destrier_skirmish.ron")).expect("level");
    act(
        &mut app,
        ScreenAction::Start(Box::new(level), 5, vec![Control::Human; 2]),
    );
    for _ in 0..40 {
        if current_step(game(&mut app).world_for_tests()).is_some_and(|s| s.kind == SubStep::Fire) {
            break;
        }
        let g = game(&mut app);
        let waiting = awaiting_ids(g.world_for_tests());
        if waiting.is_empty() {
            g.order(&Order::EndSide)
                .expect("ends the side's turn to act");
        } else {
            for unit in waiting {
                g.order(&Order::NoCharge { unit }).expect("no charge");
            }
        }
        // Orders given past the window: tell the bridge the game changed.
        GameHost::touched(app.world_mut());
        app.update();
    }
    app.update();
    app
}

fn overlay(app: &App) -> FireOverlay {
    app.world()
        .resource::<FireView>()
        .overlay
        .clone()
        .expect("the fire overlay is up for the side firing")
}

#[test]
fn the_fire_overlay_shows_the_rules_odds_and_a_click_fires_at_once() {
    let mut app = at_fire();
    let step = current_step(game(&mut app).world_for_tests()).expect("a fire sub-step waits");
    let o = overlay(&app);
    assert_eq!((o.side, o.kind), (step.side, SubStep::Fire));
    // Not secret: no hand-over, and the panel's End button is live for the side firing.
    assert!(!app.world().resource::<ScreenView>().control.secret);
    assert_eq!(
        app.world().resource::<ScreenView>().control.side,
        Some(o.side)
    );
    assert!(!o.actors.is_empty(), "the side firing has a shooter");
    let mut fired = None;
    for a in &o.actors {
        let w = game(&mut app).world_for_tests_mut();
        assert_eq!(a.shots_left, shots_left(w, &a.unit));
        assert!(!a.choices.is_empty(), "every enemy is listed");
        for c in &a.choices {
            let t = c.target.clone().expect("a shot has a target");
            // The same verdict and chance the Fire order checks and rolls against.
            let r = fire_odds(w, &a.unit, &t);
            assert_eq!(c.verdict, r.map(|x| x.chance).map_err(|e| e.0), "{t}");
            if c.verdict.is_ok() && fired.is_none() {
                fired = Some(order_of(a, c));
            }
        }
    }
    let order = fired.expect("some enemy can be shot at from the Village Raid's start");
    let Order::Fire { unit, .. } = &order else {
        panic!("a shot: {order:?}")
    };
    let unit = unit.clone();
    let before_shots = shots_left(game(&mut app).world_for_tests_mut(), &unit).expect("a shooter");
    let before_log = game(&mut app)
        .world_for_tests()
        .resource::<GameLog>()
        .0
        .len();
    act(&mut app, ScreenAction::Fire(order));
    let g = game(&mut app);
    let log = &g.world_for_tests().resource::<GameLog>().0;
    assert!(log.len() > before_log, "the shot is logged");
    assert!(
        log[before_log..].iter().any(|l| l.roll.is_some()),
        "with its dice"
    );
    let after = shots_left(g.world_for_tests_mut(), &unit).expect("a shooter");
    assert_eq!(after + 1, before_shots, "one shot spent");
    // "Done" ends the side's turn to act: the sub-step moves on.
    act(&mut app, ScreenAction::Fire(Order::EndSide));
    let now = current_step(game(&mut app).world_for_tests());
    assert_ne!(now, Some(step), "the side's turn to act has ended");
}

#[test]
fn the_panel_names_the_side_to_act_in_a_fire_phase() {
    let mut app = at_fire();
    let step = current_step(game(&mut app).world_for_tests()).expect("a fire sub-step waits");
    app.update();
    let view = app.world().resource::<GameView>().clone();
    assert_eq!(view.side_to_move, Some(step.side));
    assert!(!view.phase.is_half_move());
}
