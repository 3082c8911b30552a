//! Watching a battle again (issue 12): from the end screen, the game is rebuilt from its
//! level and seed with no orders, and its recorded orders are given again one at a time at
//! the computer's pace, with the log growing under them. Every side is shown as the computer
//! (no hand-over, no overlays, the board's orders locked) but nothing decides: the orders are
//! the record's. Pause, faster, or skip to the end; at the end the end screen comes back.

use super::SideControls;
use super::actions::{ScreenAction, ScreenActions};
use super::ai_play::AiPace;
use super::host::GameHost;
use super::saves::Autosave;
use crate::level::Control;
use crate::sim::Game;
use crate::sim::order::Order;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// The orders being watched again, while a replay runs.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Replay(pub Option<Watching>);

/// A replay under way.
#[derive(Clone, Debug, PartialEq)]
pub struct Watching {
    /// The record's orders.
    pub orders: Vec<Order>,
    /// The next one to give.
    pub next: usize,
    /// Paused by the player.
    pub paused: bool,
    /// Seconds between two orders.
    pub delay: f64,
    /// When the next order is due (seconds since the app started).
    pub next_at: f64,
}

/// The same game from its start: its level and seed, none of its orders.
pub fn rewound(game: &Game) -> Result<Game, String> {
    let mut rec = game.record().clone();
    rec.orders.clear();
    let mut g = Game::from_record(&rec).map_err(|e| e.to_string())?;
    g.set_players(game.record().players.clone());
    Ok(g)
}

/// Starts watching the game on screen again from its first order.
pub fn start(world: &mut World) {
    let Some(level) = world
        .get_non_send::<crate::ui::bridge::ActiveGame>()
        .map(|a| a.level.clone())
    else {
        return;
    };
    let Some(game) = GameHost::get(world) else {
        return;
    };
    if game.is_replica() {
        super::actions::message(
            world,
            "Cannot watch again",
            if world.contains_resource::<super::email::ByEmail>() {
                "This game is played by email: its dice are both players' and its face-down \
                 choices sealed, so it is not watched again here."
                    .into()
            } else {
                "This game was played across machines: its dice are the host's, so it is \
                 watched again there (or from the host's autosave, loaded here)."
                    .into()
            },
        );
        return;
    }
    let orders = game.record().orders.clone();
    let sides = game.record().players.len().max(level.file.sides.len());
    let fresh = match rewound(game) {
        Ok(g) => g,
        Err(e) => {
            super::actions::message(world, "Cannot watch again", e);
            return;
        }
    };
    GameHost::put(world, fresh, level);
    // Every side is "the computer" for the screens: no hand-over, no overlays, the board
    // locked. The computer itself stands aside while a replay runs (`ai_play::drive_ai`).
    world.insert_resource(SideControls(vec![Control::Ai; sides]));
    world.insert_resource(Autosave { paused: true });
    let now = world
        .get_resource::<Time>()
        .map_or(0.0, |t| t.elapsed_secs_f64());
    let delay = world.resource::<AiPace>().delay;
    world.insert_resource(Replay(Some(Watching {
        orders,
        next: 0,
        paused: false,
        delay,
        next_at: now + delay,
    })));
}

/// Gives the next recorded order when it is due.
pub fn drive_replay(world: &mut World) {
    let Some(mut w) = world.resource::<Replay>().0.clone() else {
        return;
    };
    let now = world
        .get_resource::<Time>()
        .map_or(0.0, |t| t.elapsed_secs_f64());
    if w.paused || now < w.next_at {
        return;
    }
    let Some(game) = GameHost::get(world) else {
        world.insert_resource(Replay(None));
        return;
    };
    if let Some(o) = w.orders.get(w.next) {
        // The record replayed when it was saved; a refusal here would be a bug, and the
        // replay stops on it rather than showing another game.
        if let Err(r) = game.order(o) {
            let text = format!("order {} ({o}) was refused on replay: {r}", w.next + 1);
            world.insert_resource(Replay(None));
            super::actions::message(world, "The replay stopped", text);
            return;
        }
        w.next += 1;
        w.next_at = now + w.delay;
    }
    GameHost::touched(world);
    world.insert_resource(Replay((w.next < w.orders.len()).then_some(w)));
}

/// Gives every order left at once.
pub fn skip_to_end(world: &mut World) {
    if let Some(w) = world.resource_mut::<Replay>().0.as_mut() {
        w.delay = 0.0;
        w.next_at = 0.0;
        w.paused = false;
    }
    while world.resource::<Replay>().0.is_some() {
        let before = world.resource::<Replay>().0.as_ref().map(|w| w.next);
        drive_replay(world);
        if world.resource::<Replay>().0.as_ref().map(|w| w.next) == before {
            break;
        }
    }
}

/// The replay's bar: where it stands, pause, faster, to the end.
pub fn draw_replay(
    mut contexts: EguiContexts,
    mut replay: ResMut<Replay>,
    mut actions: ResMut<ScreenActions>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Some(w) = replay.0.as_mut() else {
        return Ok(());
    };
    egui::Window::new("Watching the battle again")
        .id(egui::Id::new("replay-bar"))
        .anchor(egui::Align2::CENTER_TOP, [0.0, 36.0])
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.label(format!("Order {} of {}", w.next, w.orders.len()));
                if ui
                    .button(if w.paused { "Resume" } else { "Pause" })
                    .clicked()
                {
                    w.paused = !w.paused;
                }
                if ui.button("Faster").clicked() {
                    w.delay /= 2.0;
                }
                if ui.button("To the end").clicked() {
                    actions.0.push(ScreenAction::ReplayToEnd);
                }
            });
        });
    Ok(())
}

fn stop_watching(_: On<super::actions::GameOnScreen>, mut replay: ResMut<Replay>) {
    replay.0 = None;
}

fn stop_watching_on_leaving(_: On<super::actions::GameOffScreen>, mut replay: ResMut<Replay>) {
    replay.0 = None;
}

/// Adds watching a game again: its orders given in the drive step (after the computer's,
/// which stands aside meanwhile) and its bar.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Replay>()
        .add_observer(stop_watching)
        .add_observer(stop_watching_on_leaving)
        .add_systems(
            Update,
            drive_replay
                .after(super::ai_play::drive_ai)
                .run_if(in_state(super::Screen::Playing))
                .in_set(super::ScreenStep::Drive),
        )
        .add_systems(
            bevy_egui::EguiPrimaryContextPass,
            draw_replay
                .run_if(in_state(super::Screen::Playing))
                .in_set(super::DrawLayer::Overlay),
        );
}
