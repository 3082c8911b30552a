//! What the screens do to the game: start, save, load, quit, accept a hand-over, play cards.
//! The egui code only queues a [`ScreenAction`]; [`apply_action`] carries it out on the world,
//! so every button has a headless test. [`watch_game`] reads the game each frame for the
//! autosave, the hand-over screen and the card overlay.

use super::cards::{CardOverlay, CardPick, Cards, GuessDir, GuessDue, Picks};
use super::charges::{ChargePicks, ChargeView};
use super::fire::FireView;
use super::handover::{ControlPoint, Handover};
use super::host::GameHost;
use super::saves::{Autosave, QUICKSAVE, SaveDir, SaveInfo, list_saves, load_game};
use super::{Screen, SideControls};
use crate::level::{Control, Level};
use crate::sim::Game;
use crate::sim::phase::TurnState;
use bevy::prelude::*;
use std::path::PathBuf;

/// Something a player asked of the screens, carried out at the next `Update`.
#[derive(Clone, Debug)]
pub enum ScreenAction {
    /// Start a new game of a level with a seed; who plays each side.
    Start(Box<Level>, u64, Vec<Control>),
    /// Save under a name in the saves directory.
    Save(String),
    /// Save to `saves/quicksave.ron`.
    QuickSave,
    /// Open the Load dialog, listing the saves.
    OpenLoad,
    /// Load a save, replacing the game only if it loads.
    Load(PathBuf),
    /// Leave the game for the start screen.
    QuitToStart,
    /// Close the window.
    Quit,
    /// Watch the game on screen again from its first order (issue 12).
    WatchAgain,
    /// Start the tutorial (issue 12, item 5): its built-in level with the steps panel.
    Tutorial,
    /// Give the rest of the replay's orders at once.
    ReplayToEnd,
    /// The next player clicked the hand-over screen.
    AcceptHandover,
    /// The chooser confirmed its cards.
    PlayCards(Vec<CardPick>),
    /// A figure guessed (or declined to guess) which way a dodger went.
    Guess(GuessDue, Option<GuessDir>),
    /// The side passes for the rest of this melee phase.
    PassMelee(u8),
    /// The charge orders (or answers) of the side at the computer, face down.
    Charges(Vec<crate::sim::order::Order>),
    /// A shot, a spell or the end of the side's turn to act in a fire phase (D3), given at
    /// once.
    Fire(crate::sim::order::Order),
}

/// Actions queued by the egui code this frame.
#[derive(Resource, Clone, Debug, Default)]
pub struct ScreenActions(pub Vec<ScreenAction>);

/// A dialog over the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dialog {
    /// Asking for a save name; `error` says what was wrong with the last one.
    Save {
        /// The name typed so far.
        name: String,
        /// Why the last try failed.
        error: Option<String>,
    },
    /// The saves to load from.
    Load(Vec<SaveInfo>),
    /// A round's cards face up, fight by fight, and what came of them (issue 11): the
    /// reveal, closed with OK or Enter.
    Reveal(super::reveal::RevealView),
    /// A message (an error, mostly) that the player closes.
    Message {
        /// The window's title.
        title: String,
        /// The message.
        text: String,
    },
}

/// Which overlays are open. Help and the rules can be opened anywhere; the menu and the
/// dialogs only in a game.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Overlays {
    /// The key and mouse help.
    pub help: bool,
    /// The rules window.
    pub rules: bool,
    /// The settings window (`ui::settings::screen`).
    pub settings: bool,
    /// The in-game menu (Esc).
    pub menu: bool,
    /// A dialog, above everything but the hand-over screen.
    pub dialog: Option<Dialog>,
    /// A short notice ("Saved to …") and the time it disappears, in seconds since start.
    pub notice: Option<(String, f64)>,
}

impl Overlays {
    /// True when something covers the board that should take the mouse and keys from it.
    pub fn blocking(&self) -> bool {
        self.menu || self.settings || self.dialog.is_some()
    }
}

/// What the screens draw about the game, read by [`watch_game`] so the egui code never
/// touches the game itself. (The bridge's `GameView` is the in-game panels' equivalent.)
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct ScreenView {
    /// A game is on screen.
    pub playing: bool,
    /// The level's name.
    pub level_name: String,
    /// The turn number.
    pub turn: u32,
    /// The phase's label.
    pub phase: String,
    /// The sides' names, in order.
    pub side_names: Vec<String>,
    /// Who acts now.
    pub control: ControlPoint,
    /// The card overlay for the side choosing, when the hand-over screen is down.
    pub cards: Option<CardOverlay>,
    /// Orders in the game's record when `cards` was read (to re-read it only on change).
    pub cards_key: Option<(usize, u8)>,
}

const NOTICE_SECONDS: f64 = 4.0;

fn notice(world: &mut World, text: String) {
    let now = world
        .get_resource::<Time>()
        .map_or(0.0, |t| t.elapsed_secs_f64());
    world.resource_mut::<Overlays>().notice = Some((text, now + NOTICE_SECONDS));
}

pub(crate) fn message(world: &mut World, title: &str, text: String) {
    world.resource_mut::<Overlays>().dialog = Some(Dialog::Message {
        title: title.into(),
        text,
    });
}

/// Carries out one action on the world. Never panics; failures become dialogs.
pub fn apply_action(world: &mut World, action: ScreenAction) {
    let dir = world.resource::<SaveDir>().0.clone();
    match action {
        ScreenAction::Start(level, seed, controls) => {
            let game = Game::new(&level, seed);
            install(world, game, *level, controls, Autosave::default());
        }
        ScreenAction::Save(name) => {
            let Some(game) = GameHost::get(world) else {
                return;
            };
            match super::saves::save_named(game, &dir, &name) {
                Ok(path) => {
                    let mut o = world.resource_mut::<Overlays>();
                    o.dialog = None;
                    o.menu = false;
                    notice(world, format!("Saved to {}", path.display()));
                }
                Err(e) => {
                    world.resource_mut::<Overlays>().dialog = Some(Dialog::Save {
                        name,
                        error: Some(e),
                    })
                }
            }
        }
        ScreenAction::QuickSave => {
            let Some(game) = GameHost::get(world) else {
                return;
            };
            let path = dir.join(QUICKSAVE);
            match game.save(&path) {
                Ok(()) => notice(world, format!("Saved to {}", path.display())),
                Err(e) => message(world, "Could not save", e.to_string()),
            }
        }
        ScreenAction::OpenLoad => {
            world.resource_mut::<Overlays>().dialog = Some(Dialog::Load(list_saves(&dir)));
        }
        ScreenAction::Load(path) => match load_game(&path) {
            Ok((game, level, stopped)) => {
                // As they were when it was saved; an older save: as its level file says.
                let players = game.record().players.clone();
                let controls = if players.len() == level.file.sides.len() {
                    world.insert_resource(super::ai_play::AiLevels(
                        players.iter().map(|p| p.ai).collect(),
                    ));
                    players.iter().map(|p| p.control).collect()
                } else {
                    playable_controls(&level)
                };
                install(world, game, level, controls, Autosave::default());
                // A crashed game resumed lives on in the new autosave: it is offered no more.
                if crate::sim::journal::is_autosave(&path)
                    && !crate::sim::journal::ended(&path)
                    && let Err(e) = crate::sim::journal::mark_ended(&path)
                {
                    notice(world, format!("Autosave: {e}"));
                    return;
                }
                match stopped {
                    Some(why) => message(
                        world,
                        "Loaded in part",
                        format!("{}: {why}", crate::level::error::shown_path(&path)),
                    ),
                    None => notice(world, format!("Loaded {}", path.display())),
                }
            }
            Err(e) => message(world, "Could not load", e.to_string()),
        },
        ScreenAction::QuitToStart => {
            world.insert_resource(super::replay::Replay(None));
            GameHost::drop_game(world);
            *world.resource_mut::<Overlays>() = Overlays::default();
            *world.resource_mut::<ScreenView>() = ScreenView::default();
            world.resource_mut::<NextState<Screen>>().set(Screen::Start);
        }
        ScreenAction::Quit => {
            if let Some(game) = GameHost::get(world) {
                game.close_autosave();
            }
            world.write_message(AppExit::Success);
        }
        ScreenAction::WatchAgain => super::replay::start(world),
        ScreenAction::Tutorial => super::tutorial::start(world),
        ScreenAction::ReplayToEnd => super::replay::skip_to_end(world),
        ScreenAction::AcceptHandover => world.resource_mut::<Handover>().accept(),
        ScreenAction::PlayCards(picks) => play_cards(world, &picks),
        ScreenAction::Charges(orders) => {
            let errors: Vec<String> = match GameHost::get(world) {
                Some(game) => orders
                    .iter()
                    .filter_map(|o| game.order(o).err().map(|r| format!("{o}: {r}")))
                    .collect(),
                None => Vec::new(),
            };
            GameHost::touched(world);
            world.insert_resource(ChargePicks::default());
            world.resource_mut::<ChargeView>().key = None;
            if !errors.is_empty() {
                message(world, "Charge orders refused", errors.join("\n"));
            }
        }
        ScreenAction::Fire(order) => {
            let refused = GameHost::get(world).and_then(|game| game.order(&order).err());
            GameHost::touched(world);
            world.resource_mut::<FireView>().key = None;
            if let Some(r) = refused {
                message(world, "Refused", format!("{order}: {r}"));
            }
        }
        ScreenAction::PassMelee(side) => {
            let refused = world.resource_scope(|world, cards: Mut<Cards>| {
                let game = GameHost::get(world)?;
                cards.0.pass_rest(game, side).err()
            });
            GameHost::touched(world);
            world.insert_resource(Picks::default());
            world.resource_mut::<ScreenView>().cards_key = None;
            if let Some(r) = refused {
                message(world, "Refused", r);
            }
        }
        ScreenAction::Guess(due, dir) => {
            let refused = world.resource_scope(|world, cards: Mut<Cards>| {
                let game = GameHost::get(world)?;
                cards.0.guess(game, &due, dir).err()
            });
            GameHost::touched(world);
            world.resource_mut::<ScreenView>().cards_key = None;
            if let Some(why) = refused {
                message(world, "Guess refused", why);
            }
        }
    }
}

/// Who plays each side when a level or a save is opened without the start screen: as the
/// level file says (`control: Human` or `Ai`).
pub fn playable_controls(level: &Level) -> Vec<Control> {
    level.file.sides.iter().map(|s| s.control).collect()
}

fn install(
    world: &mut World,
    mut game: Game,
    level: Level,
    controls: Vec<Control>,
    auto: Autosave,
) {
    let levels = world
        .get_resource::<super::ai_play::AiLevels>()
        .cloned()
        .unwrap_or_default();
    game.set_players(
        controls
            .iter()
            .enumerate()
            .map(|(s, &control)| crate::sim::record::Player {
                control,
                ai: levels.of(s as u8),
            })
            .collect(),
    );
    let paused = auto.paused;
    GameHost::put(world, game, level);
    if !paused {
        let dir = world.resource::<SaveDir>().0.clone();
        let begun = GameHost::get(world).map(|g| g.autosave_to(&dir));
        if let Some(Err(e)) = begun {
            notice(world, format!("Autosave failed: {e}"));
        }
    }
    let now = world
        .get_resource::<Time>()
        .map_or(0.0, |t| t.elapsed_secs_f64());
    let delay = world
        .get_resource::<crate::ui::settings::Settings>()
        .map_or(super::ai_play::DEFAULT_DELAY, |s| s.pace.order_delay());
    world.insert_resource(super::ai_play::AiPace {
        delay,
        next_at: now + delay,
        ..default()
    });
    world.insert_resource(SideControls(controls));
    world.insert_resource(auto);
    world.insert_resource(super::replay::Replay(None));
    world.insert_resource(Handover::default());
    world.insert_resource(Picks::default());
    world.insert_resource(ChargePicks::default());
    world.insert_resource(ChargeView::default());
    world.insert_resource(FireView::default());
    world.insert_resource(ScreenView::default());
    let mut o = world.resource_mut::<Overlays>();
    o.menu = false;
    o.dialog = None;
    world
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Playing);
}

fn play_cards(world: &mut World, picks: &[CardPick]) {
    let errors = world.resource_scope(|world, cards: Mut<Cards>| {
        let Some(game) = GameHost::get(world) else {
            return Vec::new();
        };
        picks
            .iter()
            .filter_map(|p| cards.0.play(game, p).err())
            .collect::<Vec<_>>()
    });
    GameHost::touched(world);
    world.insert_resource(Picks::default());
    world.resource_mut::<ScreenView>().cards_key = None;
    if !errors.is_empty() {
        message(world, "Cards refused", errors.join("\n"));
    }
}

/// Applies every queued action.
pub fn apply_actions(world: &mut World) {
    let actions = std::mem::take(&mut world.resource_mut::<ScreenActions>().0);
    for a in actions {
        apply_action(world, a);
    }
}

/// Where the game stands for the screens: a side choosing cards or writing charge orders
/// when the rules wait for one (a human side before a computer one, and the side already at
/// the computer first, so a hand-over happens only when needed), else the side moving in a
/// half-move (open). `controls` says who plays each side (missing: human).
pub fn control_point(
    game: &mut Game,
    cards: &Cards,
    at_computer: Option<u8>,
    controls: &[Control],
) -> ControlPoint {
    if game.outcome().is_some() {
        // The battle is over: nobody acts, no hand-over, no overlay (issue 12).
        return ControlPoint::default();
    }
    let charge_sides = super::charges::choosers(game);
    let mut choosers = cards.0.choosers(game);
    choosers.extend(charge_sides.iter().copied());
    choosers.sort_unstable();
    choosers.dedup();
    let human = |s: &u8| controls.get(usize::from(*s)) != Some(&Control::Ai);
    let humans: Vec<u8> = choosers.iter().copied().filter(human).collect();
    let pool = if humans.is_empty() {
        &choosers
    } else {
        &humans
    };
    if let Some(&first) = pool.first() {
        let side = at_computer.filter(|s| pool.contains(s)).unwrap_or(first);
        let secret = if charge_sides.is_empty() {
            cards.0.secret(game)
        } else {
            true
        };
        return ControlPoint {
            side: Some(side),
            secret,
        };
    }
    let side = acting_side(game);
    ControlPoint {
        side,
        secret: false,
    }
}

/// The side whose open (not secret) turn it is: the side moving in a half-move, or the side
/// casting or firing in a fire phase's sub-step (D3).
pub fn acting_side(game: &mut Game) -> Option<u8> {
    if let Some(step) = crate::sim::fire::current_step(game.app.world()) {
        return Some(step.side);
    }
    game.phase()
        .is_half_move()
        .then(|| game.app.world().resource::<TurnState>().side_to_move())
        .flatten()
}

/// Leaves the start screen for the game when one was installed by someone else (the
/// command line's `--level`, the bridge's `StartGame`): the screens follow the game, and it
/// is autosaved.
pub fn follow_installed_game(world: &mut World) {
    if GameHost::get(world).is_some() {
        // Autosaved like any other game.
        let dir = world.resource::<SaveDir>().0.clone();
        let paused = world.resource::<Autosave>().paused;
        let begun = GameHost::get(world)
            .filter(|g| !paused && g.autosave_path().is_none())
            .map(|g| g.autosave_to(&dir));
        if let Some(Err(e)) = begun {
            notice(world, format!("Autosave failed: {e}"));
        }
        world
            .resource_mut::<NextState<Screen>>()
            .set(Screen::Playing);
    }
}

/// Each frame of a game: reports an autosave that failed, raises the hand-over screen when
/// a secret choice passes between humans, and reads the card overlay for the chooser.
pub fn watch_game(world: &mut World) {
    let mut controls = world.resource::<SideControls>().0.clone();
    let mut handover = world.resource::<Handover>().clone();
    let mut view = world.resource::<ScreenView>().clone();
    let level_controls = world
        .get_non_send::<crate::ui::bridge::ActiveGame>()
        .map(|a| playable_controls(&a.level));
    let mut charges = world.resource::<ChargeView>().clone();
    let mut fire = world.resource::<FireView>().clone();
    let saved = world.resource_scope(|world, cards: Mut<Cards>| {
        let game = GameHost::get(world)?;
        let turn = game.app.world().resource::<TurnState>().turn;
        let sides = usize::from(game.app.world().resource::<TurnState>().sides);
        if controls.len() != sides {
            // A game installed without the start screen: as its level file says.
            controls = level_controls
                .clone()
                .filter(|c| c.len() == sides)
                .unwrap_or_else(|| vec![Control::Human; sides]);
        }
        let saved = game.autosave_error();
        let cp = control_point(game, &cards, handover.last, &controls);
        handover.observe(cp, &controls);
        let ts = game.app.world().resource::<TurnState>();
        view.playing = true;
        view.level_name = game.record().level_name.clone();
        view.turn = turn;
        view.side_names = ts.side_names.clone();
        view.phase = game.phase().label().to_string();
        view.control = cp;
        let key = cp.side.map(|s| (game.record().orders.len(), s));
        let choosing = !cards.0.choosers(game).is_empty();
        let human = cp
            .side
            .is_some_and(|s| controls.get(usize::from(s)) != Some(&Control::Ai));
        match cp.side.filter(|_| human && !handover.screen_up()) {
            Some(side) if !super::charges::choosers(game).is_empty() => {
                if charges.key != key {
                    charges.overlay = super::charges::overlay(game, side);
                    charges.key = key;
                }
            }
            _ => {
                charges.overlay = None;
                charges.key = None;
            }
        }
        match cp.side.filter(|_| human && !handover.screen_up()) {
            Some(side) if crate::sim::fire::waiting(game.app.world()) => {
                if fire.key != key {
                    fire.overlay = super::fire::overlay(game, side);
                    fire.key = key;
                }
            }
            _ => {
                fire.overlay = None;
                fire.key = None;
            }
        }
        match cp.side.filter(|_| human) {
            Some(side) if choosing && !handover.screen_up() => {
                if view.cards_key != key {
                    let hands = cards.0.hands(game, side);
                    let guesses = cards.0.guesses(game, side);
                    let side_name = view.side_names.get(usize::from(side)).cloned();
                    let dirs = game
                        .app
                        .world()
                        .resource::<crate::sim::world::Map>()
                        .0
                        .grid
                        .dirs();
                    view.cards = (!hands.is_empty() || !guesses.is_empty()).then(|| CardOverlay {
                        side,
                        side_name: side_name.unwrap_or_default(),
                        hands,
                        guesses,
                        dirs,
                    });
                    view.cards_key = key;
                }
            }
            _ => {
                view.cards = None;
                view.cards_key = None;
            }
        }
        Some(saved)
    });
    let Some(saved) = saved else {
        return;
    };
    if world.resource::<SideControls>().0 != controls {
        world.insert_resource(SideControls(controls));
    }
    if *world.resource::<Handover>() != handover {
        world.insert_resource(handover);
    }
    let claim = crate::ui::play::MapClaim(view.cards.as_ref().is_some_and(|c| !c.hands.is_empty()));
    if world.get_resource::<crate::ui::play::MapClaim>() != Some(&claim) {
        world.insert_resource(claim);
    }
    let side = view.cards.as_ref().map(|c| c.side);
    if world.resource::<Picks>().side != side {
        world.insert_resource(Picks { side, ..default() });
    }
    if *world.resource::<ScreenView>() != view {
        world.insert_resource(view);
    }
    let charge_side = charges.overlay.as_ref().map(|c| c.side);
    if world.resource::<ChargePicks>().side != charge_side {
        world.insert_resource(ChargePicks {
            side: charge_side,
            ..default()
        });
    }
    if *world.resource::<ChargeView>() != charges {
        world.insert_resource(charges);
    }
    if *world.resource::<FireView>() != fire {
        world.insert_resource(fire);
    }
    if let Some(e) = saved {
        notice(world, format!("Autosave failed: {e}"));
    }
}

/// When the app is about to exit (Quit, the window closed), the game on screen was left
/// cleanly: its autosave is closed, so the next start does not offer it as a crashed game.
pub fn close_autosave_on_exit(world: &mut World) {
    let exiting = world
        .get_resource::<bevy::ecs::message::Messages<AppExit>>()
        .is_some_and(|m| !m.is_empty());
    if exiting && let Some(game) = GameHost::get(world) {
        game.close_autosave();
    }
}
