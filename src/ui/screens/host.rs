//! The screens' one link to the game the window plays. The [bridge](crate::ui::bridge) holds
//! the [`Game`] as [`ActiveGame`]; the screens start, replace, read, change and drop it only
//! through [`GameHost`], a resource of four functions, so the screens never depend on how the
//! game is held (and a test may hold it some other way).

use crate::level::Level;
use crate::sim::Game;
use crate::ui::bridge::{self, ActiveGame, Mirrors};
use bevy::prelude::*;

/// How the screens reach the game on screen.
#[derive(Resource, Clone, Copy, Debug)]
pub struct GameHost {
    /// The game being played, if any.
    pub game: for<'a> fn(&'a mut World) -> Option<&'a mut Game>,
    /// Puts a game on screen (a new one, or one just loaded), replacing any other; `Level` is
    /// the level it plays, for the map.
    pub install: fn(&mut World, Game, Level),
    /// Takes the game off screen (back to the start screen).
    pub clear: fn(&mut World),
    /// Tells the holder the game was changed through [`GameHost::game`] (cards played), so
    /// what shows the game follows.
    pub changed: fn(&mut World),
}

fn bridge_game(world: &mut World) -> Option<&mut Game> {
    world
        .get_non_send_mut::<ActiveGame>()
        .map(|a| &mut a.into_inner().game)
}

fn bridge_clear(world: &mut World) {
    world.remove_non_send::<ActiveGame>();
    let mirrors: Vec<Entity> = world
        .get_resource_mut::<Mirrors>()
        .map(|mut m| m.0.drain().map(|(_, e)| e).collect())
        .unwrap_or_default();
    for e in mirrors {
        if let Ok(m) = world.get_entity_mut(e) {
            m.despawn();
        }
    }
    if let Some(mut view) = world.get_resource_mut::<bridge::GameView>() {
        let serial = view.serial + 1;
        *view = bridge::GameView {
            serial,
            ..default()
        };
    }
}

fn bridge_changed(world: &mut World) {
    if let Some(mut a) = world.get_non_send_mut::<ActiveGame>() {
        a.revision += 1;
    }
    bridge::sync_mirrors(world);
}

impl Default for GameHost {
    fn default() -> Self {
        GameHost {
            game: bridge_game,
            install: bridge::install_game,
            clear: bridge_clear,
            changed: bridge_changed,
        }
    }
}

impl GameHost {
    fn of(world: &mut World) -> GameHost {
        *world.get_resource_or_insert_with(GameHost::default)
    }

    /// The game on screen, through whichever holder is installed.
    pub fn get(world: &mut World) -> Option<&mut Game> {
        (GameHost::of(world).game)(world)
    }

    /// Installs `game` through whichever holder is installed. The game it replaces was left
    /// cleanly: its autosave is closed.
    pub fn put(world: &mut World, game: Game, level: Level) {
        if let Some(old) = GameHost::get(world) {
            old.close_autosave();
        }
        (GameHost::of(world).install)(world, game, level);
    }

    /// Drops the game on screen, closing its autosave (it was left cleanly).
    pub fn drop_game(world: &mut World) {
        if let Some(old) = GameHost::get(world) {
            old.close_autosave();
        }
        (GameHost::of(world).clear)(world);
    }

    /// Tells the holder the game changed.
    pub fn touched(world: &mut World) {
        (GameHost::of(world).changed)(world);
    }
}
