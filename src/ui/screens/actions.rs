//! What the screens do to the game: start, save, load, quit, accept a hand-over, play cards.
//! The egui code only queues a [`ScreenAction`]; [`apply_action`] carries it out on the world,
//! so every button has a headless test; each action is handed to the screen it belongs to.
//! [`watch_game`] reads the game each frame for the autosave, who acts and the hand-over
//! screen; the overlays read their own data after it.

use super::cards::{CardOverlay, CardPick, Cards, GuessDir, GuessDue};
use super::handover::{ControlPoint, Handover};
use super::host::GameHost;
use super::saves::{Autosave, SaveDir, SaveInfo};
use super::{Screen, ScreenStep, SideControls};
use crate::level::{Control, Level};
use crate::sim::Game;
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
    /// The player answered "yes" to a [`Dialog::Confirm`].
    Confirmed(Confirmed),
    /// Open the join form on the start screen.
    OpenJoin,
    /// Host a game for a player at another machine (issue 30): the level file (`None`: the
    /// built-in level), who plays each side, the computer's strength on each.
    Host {
        /// The level file.
        level_file: Option<String>,
        /// Who plays each side: this window the first human side, another machine the
        /// other.
        controls: Vec<Control>,
        /// The computer's strength on each side.
        strengths: Vec<crate::ai::AiLevel>,
        /// The UDP port the host listens on.
        port: u16,
    },
    /// Open the By email form on the start screen.
    OpenEmail,
    /// Begin a game of `level` by email (issue 30), this player giving `side`'s orders: writes
    /// the first turn file.
    EmailBegin {
        /// The level to play.
        level: Box<Level>,
        /// The side played here.
        side: u8,
    },
    /// Open a turn file the other player sent.
    EmailOpen(std::path::PathBuf),
    /// Take up the game by email kept in this folder where it stands.
    EmailResume(std::path::PathBuf),
    /// Join a game another machine hosts (issue 30), with its join code.
    Join {
        /// The join code as typed.
        code: String,
        /// The seat asked for.
        seat: super::join::SeatWish,
        /// The player's name, for the host's log.
        name: String,
    },
}

/// What a "yes" to a [`Dialog::Confirm`] carries out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Confirmed {
    /// An action of the board's (ending a half-move with figures unmoved), asked by the
    /// play plugin with [`crate::ui::play::AskFirst`].
    Play(crate::ui::play::PlayAction),
    /// Leave the battle for the start screen.
    QuitToStart,
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
    /// A question before something that cannot be taken back (issue 34: "ending a half-move
    /// with unmoved figures or leaving a battle asks first"): Enter or the first button
    /// answers yes, Esc or the second no.
    Confirm {
        /// The window's title.
        title: String,
        /// What the player should weigh.
        text: String,
        /// The "yes" button's label.
        yes: String,
        /// What "yes" carries out.
        then: Confirmed,
        /// Drawn once already: the Enter that raised the question (ending a half-move) is
        /// not also its answer.
        armed: bool,
    },
    /// A message (an error, mostly) that the player closes.
    Message {
        /// The window's title.
        title: String,
        /// The message.
        text: String,
        /// Drawn once already: the Enter that led to it (an order that ended a half-move and
        /// wrote a turn file) does not also close it.
        armed: bool,
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

/// What the screens draw about the game, read by [`watch_game`] (and its card overlay by
/// `cards::read_overlay`) so the egui code never touches the game itself. (The bridge's `GameView` is the in-game panels' equivalent.)
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
    /// The game is kept where it is played, not here (a host's game joined, a game by
    /// email): leaving it loses nothing.
    pub kept_elsewhere: bool,
}

const NOTICE_SECONDS: f64 = 4.0;

pub(super) fn notice(world: &mut World, text: String) {
    let now = world
        .get_resource::<Time>()
        .map_or(0.0, |t| t.elapsed_secs_f64());
    world.resource_mut::<Overlays>().notice = Some((text, now + NOTICE_SECONDS));
}

pub(crate) fn message(world: &mut World, title: &str, text: String) {
    // The game's words name figures by id: the player reads their names (issue 34).
    let text = match world.get_resource::<crate::ui::bridge::GameView>() {
        Some(view) => view.names.show(&text),
        None => text,
    };
    world.resource_mut::<Overlays>().dialog = Some(Dialog::Message {
        title: title.into(),
        text,
        armed: false,
    });
}

/// A game was put on the screen (a new one, a save loaded, the tutorial): each screen
/// forgets what it showed of the last game. Triggered by [`install`]; every screen that
/// keeps something of a game observes it in its own plugin.
#[derive(Event, Clone, Copy, Debug)]
pub struct GameOnScreen;

/// The game was taken off the screen (back to the start screen).
#[derive(Event, Clone, Copy, Debug)]
pub struct GameOffScreen;

/// Carries out one action on the world by handing it to the screen it belongs to. Never
/// panics; failures become dialogs.
pub fn apply_action(world: &mut World, action: ScreenAction) {
    match action {
        ScreenAction::Start(level, seed, controls) => {
            let game = Game::new(&level, seed);
            install(world, game, *level, controls, Autosave::default());
        }
        ScreenAction::QuitToStart => quit_to_start(world),
        ScreenAction::Quit => {
            if let Some(game) = GameHost::get(world) {
                game.close_autosave();
            }
            world.write_message(AppExit::Success);
        }
        ScreenAction::Save(name) => super::saves::save(world, name),
        ScreenAction::QuickSave => super::saves::quick_save(world),
        ScreenAction::OpenLoad => super::saves::open_load(world),
        ScreenAction::Load(path) => super::saves::load(world, &path),
        ScreenAction::WatchAgain => super::replay::start(world),
        ScreenAction::ReplayToEnd => super::replay::skip_to_end(world),
        ScreenAction::Tutorial => super::tutorial::start(world),
        ScreenAction::AcceptHandover => world.resource_mut::<Handover>().accept(),
        ScreenAction::PlayCards(picks) => super::cards::play(world, &picks),
        ScreenAction::PassMelee(side) => super::cards::pass(world, side),
        ScreenAction::Guess(due, dir) => super::cards::guess(world, &due, dir),
        ScreenAction::Charges(orders) => super::charges::give(world, &orders),
        ScreenAction::Fire(order) => super::fire::give(world, &order),
        ScreenAction::Confirmed(Confirmed::Play(a)) => {
            world.write_message(a);
        }
        ScreenAction::Confirmed(Confirmed::QuitToStart) => quit_to_start(world),
        ScreenAction::Host {
            level_file,
            controls,
            strengths,
            port,
        } => super::hosting::host(world, level_file, &controls, &strengths, port),
        ScreenAction::OpenJoin => world.resource_mut::<super::join::JoinForm>().open = true,
        ScreenAction::Join { code, seat, name } => super::join::join(world, &code, seat, &name),
        ScreenAction::OpenEmail => super::email::open_form(world),
        ScreenAction::EmailBegin { level, side } => super::email::begin(world, &level, side),
        ScreenAction::EmailOpen(path) => super::email::open_file(world, &path),
        ScreenAction::EmailResume(folder) => super::email::resume(world, &folder),
    }
}

/// Shows the board's questions ([`crate::ui::play::AskFirst`]) as a [`Dialog::Confirm`].
pub fn ask_first(
    mut asks: MessageReader<crate::ui::play::AskFirst>,
    mut overlays: ResMut<Overlays>,
) {
    for a in asks.read() {
        overlays.dialog = Some(Dialog::Confirm {
            title: a.title.clone(),
            text: a.text.clone(),
            yes: a.yes.clone(),
            then: Confirmed::Play(a.then.clone()),
            armed: false,
        });
    }
}

fn quit_to_start(world: &mut World) {
    GameHost::drop_game(world);
    world.trigger(GameOffScreen);
    *world.resource_mut::<Overlays>() = Overlays::default();
    *world.resource_mut::<ScreenView>() = ScreenView::default();
    world.resource_mut::<NextState<Screen>>().set(Screen::Start);
}

/// Who plays each side when a level or a save is opened without the start screen: as the
/// level file says (`control: Human` or `Ai`).
pub fn playable_controls(level: &Level) -> Vec<Control> {
    level.file.sides.iter().map(|s| s.control).collect()
}

/// Puts `game` on the screen, played by `controls`, autosaved unless `auto` is paused;
/// every screen is told with [`GameOnScreen`].
pub(super) fn install(
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
    world.insert_resource(SideControls(controls));
    world.insert_resource(auto);
    world.trigger(GameOnScreen);
    world
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Playing);
}

/// The screens' own state of the last game is dropped when a new one is put on screen; the
/// overlays that belong to no screen (the menu, a dialog) are closed.
fn forget_game(_: On<GameOnScreen>, mut view: ResMut<ScreenView>, mut overlays: ResMut<Overlays>) {
    *view = ScreenView::default();
    overlays.menu = false;
    overlays.dialog = None;
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
    if let Some(step) = game.fire_step() {
        return Some(step.side);
    }
    game.phase()
        .is_half_move()
        .then(|| game.turn_state().side_to_move())
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

/// Each frame of a game: reports an autosave that failed, finds who acts and raises the
/// hand-over screen when a secret choice passes between humans. The screens that show the
/// choice itself read it after this ([`ScreenStep::Read`](super::ScreenStep::Read)).
pub fn watch_game(world: &mut World) {
    let mut controls = world.resource::<SideControls>().0.clone();
    let mut handover = world.resource::<Handover>().clone();
    let mut view = world.resource::<ScreenView>().clone();
    let level_controls = world
        .get_non_send::<crate::ui::bridge::ActiveGame>()
        .map(|a| playable_controls(&a.level));
    let saved = world.resource_scope(|world, cards: Mut<Cards>| {
        let game = GameHost::get(world)?;
        let turn = game.turn_state().turn;
        let sides = usize::from(game.turn_state().sides);
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
        let ts = game.turn_state();
        view.playing = true;
        view.level_name = game.record().level_name.clone();
        view.kept_elsewhere = game.is_replica();
        view.turn = turn;
        view.side_names = ts.side_names.clone();
        view.phase = game.phase().label().to_string();
        view.control = cp;
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
    if *world.resource::<ScreenView>() != view {
        world.insert_resource(view);
    }
    if let Some(e) = saved {
        notice(world, format!("Autosave failed: {e}"));
    }
}

/// The side a human at the screen chooses for now, with the key its overlay is read under
/// (the orders in the game's record, and the side), when no hand-over screen hides the
/// board: what the card table, the charge orders and the fire overlay are shown for. A
/// screen re-reads its overlay only when the key changes.
pub(super) fn human_choosing(world: &mut World) -> Option<(u8, (usize, u8))> {
    if world.resource::<Handover>().screen_up() {
        return None;
    }
    let side = world.resource::<ScreenView>().control.side?;
    let computer = world.resource::<SideControls>().0.get(usize::from(side)) == Some(&Control::Ai);
    if computer {
        return None;
    }
    let orders = GameHost::get(world)?.record().orders.len();
    Some((side, (orders, side)))
}

/// Adds the actions queue, the overlays every screen shares and the reading of the game.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ScreenActions>()
        .init_resource::<Overlays>()
        .init_resource::<ScreenView>()
        .add_observer(forget_game)
        .add_systems(Last, close_autosave_on_exit)
        .add_systems(Update, apply_actions.in_set(ScreenStep::Act))
        .add_systems(
            Update,
            (
                follow_installed_game.run_if(in_state(Screen::Start)),
                watch_game.run_if(in_state(Screen::Playing)),
            )
                .in_set(ScreenStep::Watch),
        );
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
