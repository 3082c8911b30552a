//! The screens' one link to the game the window plays. The in-game code (`ui::play`) holds
//! the [`Game`]; the screens start, replace, read and drop it only through [`GameHost`], a
//! resource of three functions, so switching where the game lives is one line. Until another
//! holder is installed, [`GameHost::default`] keeps the game in [`HeldGame`].

use crate::level::{Level, load_level_str_with, load_ruleset_str};
use crate::sim::Game;
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
}

/// The game, held by the screens themselves when nothing else holds it. `Game` wraps a Bevy
/// `App`, which is not `Send`, so it lives in the world as non-send data.
#[derive(Default)]
pub struct HeldGame(pub Option<Game>);

fn held_game(world: &mut World) -> Option<&mut Game> {
    world
        .get_non_send_mut::<HeldGame>()
        .and_then(|g| g.into_inner().0.as_mut())
}

fn held_install(world: &mut World, game: Game, level: Level) {
    world.insert_non_send(HeldGame(Some(game)));
    world.insert_resource(crate::ui::CurrentLevel(level));
}

fn held_clear(world: &mut World) {
    world.insert_non_send(HeldGame(None));
}

impl Default for GameHost {
    fn default() -> Self {
        GameHost {
            game: held_game,
            install: held_install,
            clear: held_clear,
        }
    }
}

impl GameHost {
    /// The game on screen, through whichever holder is installed.
    pub fn get(world: &mut World) -> Option<&mut Game> {
        let host = *world.get_resource_or_insert_with(GameHost::default);
        (host.game)(world)
    }

    /// Installs `game` through whichever holder is installed.
    pub fn put(world: &mut World, game: Game, level: Level) {
        let host = *world.get_resource_or_insert_with(GameHost::default);
        (host.install)(world, game, level);
    }

    /// Drops the game on screen.
    pub fn drop_game(world: &mut World) {
        let host = *world.get_resource_or_insert_with(GameHost::default);
        (host.clear)(world);
    }
}

/// The level a game plays, rebuilt from its record (the same way loading a save does), so a
/// loaded game can be put on the map.
pub fn level_of(game: &Game) -> Result<Level, String> {
    let rec = game.record();
    let rules = load_ruleset_str(&rec.ruleset, "<saved ruleset>").map_err(|e| e.to_string())?;
    load_level_str_with(&rec.level, &rec.level_source, rules).map_err(|e| e.to_string())
}
