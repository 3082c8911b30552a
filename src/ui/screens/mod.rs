//! The screens around the board (issue 3): the start screen (level, players human or
//! computer, seed, load, rules, quit), the help overlay (F1 or ?), the in-game menu (Esc) with
//! save and load, the autosave of every order, the hot-seat hand-over screen, the card overlay,
//! the charge-declaration overlay ([`charges`]) and the computer's play ([`ai_play`]).
//!
//! The logic is plain ECS ([`actions`], [`handover`], [`saves`], [`cards`]) and runs headless;
//! the egui drawing ([`start`], [`menu`]) only reads resources and queues [`ScreenAction`]s,
//! so every button is tested without a window. The game itself is reached only through
//! [`host::GameHost`].

pub mod actions;
pub mod ai_play;
pub mod art_notice;
pub mod banner;
pub mod battle;
pub mod card_face;
pub mod card_table;
pub mod cards;
pub mod catalogue;
pub mod charges;
pub mod chooser_map;
pub mod cover;
pub mod email;
pub mod fire;
pub mod handover;
pub mod host;
pub mod hosting;
pub mod join;
pub mod keys;
pub mod map_picture;
pub mod melee_cards;
pub mod menu;
pub mod replay;
pub mod reveal;
pub mod rules_reader;
pub mod saves;
pub mod sight_lines;
pub mod start;
pub mod surface;
pub mod tutorial;

pub use actions::{
    Confirmed, Dialog, Overlays, ScreenAction, ScreenActions, ScreenView, apply_action,
};
pub use handover::{ControlPoint, Handover, handover_needed};

use crate::level::Control;
use crate::ui::bridge::BridgePlugin;
use crate::ui::play::PlaySet;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_egui::EguiPrimaryContextPass;

/// Which screen the window shows.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    /// Pick a level, the players and a seed; load a game; read the rules.
    #[default]
    Start,
    /// A game is on the board.
    Playing,
}

/// Who plays each side of the game on screen (hand-overs happen only between humans).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct SideControls(pub Vec<Control>);

/// Ordering of the screens' `Update` work: keys first, then the frame's actions and reading
/// the game, in the steps of [`ScreenStep`].
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScreensSet {
    /// Screen keys (F1, Esc, …), before the in-game input so Esc that deselects a figure
    /// does not also open the menu.
    Keys,
    /// Queued actions are carried out, then the game is read (after the bridge applied the
    /// frame's orders).
    Logic,
}

/// The steps of [`ScreensSet::Logic`], in order. Each screen's plugin puts its systems in
/// the step it belongs to, so a screen is added without touching the others: what gives
/// orders comes before what reads the game, and what follows the reading comes last.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScreenStep {
    /// The actions queued by buttons and keys last frame ([`actions::apply_actions`]).
    Act,
    /// Orders given for the players not at the screen: the computer, a replay.
    Drive,
    /// The game read once: who acts, the hand-over, the autosave ([`actions::watch_game`]).
    Watch,
    /// Each screen reads what it shows from the game (the overlays for the side choosing).
    Read,
    /// What follows a reading: banners, the battle's screens, the reveal, the tutorial.
    Follow,
}

/// The layers the screens draw in, bottom first: an egui window drawn in a later layer is
/// drawn over those of an earlier one when both open in the same frame.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawLayer {
    /// The screen itself: the start screen, or the game's panels.
    Screen,
    /// The game's overlays: the computer's play, charges, fire, the replay, the tutorial.
    Overlay,
    /// The battle's screens: the objectives, the briefing and the end screen. After the
    /// overlays, so a key that closes a briefing reaches no overlay in the same frame: they
    /// were drawn, covered, before it closed.
    Modal,
    /// The banner naming who acts.
    Banner,
    /// Help, rules, the menu and its dialogs.
    Menu,
    /// Notices about the game's own files (missing art), and the settings window.
    Top,
}

/// The screens. Headless-safe: without `EguiPlugin` nothing is drawn, and the logic (actions,
/// autosave, hand-over, card overlay data) still runs, which is how the tests drive it.
pub struct ScreensPlugin;

impl Plugin for ScreensPlugin {
    fn build(&self, app: &mut App) {
        plugin(app);
    }
}

/// Adds the screens: the state they share, the order of their work, then one plugin per
/// screen. A new screen is one more module with its own `plugin` added here (see "Where to
/// add a screen" in docs/architecture.md).
pub fn plugin(app: &mut App) {
    if !app.is_plugin_added::<StatesPlugin>() {
        app.add_plugins(StatesPlugin);
    }
    if !app.is_plugin_added::<BridgePlugin>() {
        app.add_plugins(BridgePlugin);
    }
    app.add_message::<crate::ui::play::PlayAction>()
        .init_state::<Screen>()
        .init_resource::<SideControls>()
        .configure_sets(
            Update,
            (
                ScreensSet::Keys.before(PlaySet::Input),
                ScreensSet::Logic
                    .after(PlaySet::Apply)
                    .before(PlaySet::View),
            ),
        )
        .configure_sets(
            Update,
            (
                ScreenStep::Act,
                ScreenStep::Drive,
                ScreenStep::Watch,
                ScreenStep::Read,
                ScreenStep::Follow,
            )
                .chain()
                .in_set(ScreensSet::Logic),
        )
        .configure_sets(
            EguiPrimaryContextPass,
            (
                DrawLayer::Screen,
                DrawLayer::Overlay,
                DrawLayer::Modal,
                DrawLayer::Banner,
                DrawLayer::Menu,
                DrawLayer::Top,
            )
                .chain()
                .after(crate::ui::settings::apply_to_egui),
        )
        .configure_sets(Update, PlaySet::Input.run_if(board_interactive));
    if draws_gizmos(app) {
        app.configure_sets(
            Update,
            MapMarks
                .after(PlaySet::View)
                .after(crate::ui::UiSet::Counters)
                .run_if(in_state(Screen::Playing)),
        );
    }
    app.add_plugins((
        actions::plugin,
        saves::plugin,
        handover::plugin,
        start::plugin,
        menu::plugin,
        cards::plugin,
        chooser_map::plugin,
        charges::plugin,
        fire::plugin,
        battle::plugin,
        ai_play::plugin,
        replay::plugin,
        reveal::plugin,
        banner::plugin,
        tutorial::plugin,
    ))
    .add_plugins((
        cover::plugin,
        art_notice::plugin,
        crate::ui::settings::screen::plugin,
        join::plugin,
        email::plugin,
        hosting::plugin,
    ));
}

/// Whether the window draws gizmos, for the screens that draw marks on the map (the
/// headless tests have no gizmo plugin).
pub(crate) fn draws_gizmos(app: &App) -> bool {
    app.is_plugin_added::<bevy::gizmos::GizmoPlugin>()
}

/// The marks the screens draw on the map with gizmos: in a game, after the counters moved
/// this frame, so rings follow them.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MapMarks;

/// Run condition for board input (selecting, ordering, camera keys): true only in a game with
/// nothing over the board ([`cover::Cover::Board`]) and no banner announcing who acts.
pub fn board_interactive(
    screen: Option<Res<State<Screen>>>,
    cover: Option<Res<State<cover::Cover>>>,
    banner: Option<Res<banner::ControlBanner>>,
    time: Option<Res<Time>>,
) -> bool {
    let now = time.map_or(0.0, |t| t.elapsed_secs_f64());
    screen.is_some_and(|s| *s.get() == Screen::Playing)
        && banner.is_none_or(|b| !b.holding(now))
        && cover::board_free(cover)
}

/// Opens the window on the start screen and runs until it is closed. (`warhorse --level
/// FILE` opens straight into a game with `ui::run_window`; the screens follow it.)
pub fn run_start_screen() -> AppExit {
    match crate::level::default_level() {
        Ok(backdrop) => crate::ui::window_app(backdrop).run(),
        Err(e) => {
            eprintln!("{e}");
            AppExit::error()
        }
    }
}

/// A seed from the clock, for a new game's default.
pub fn seed_from_time() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64 % 1_000_000_000)
}

#[cfg(test)]
mod tests;
