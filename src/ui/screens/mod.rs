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
pub mod fire;
pub mod handover;
pub mod host;
pub mod keys;
pub mod melee_cards;
pub mod menu;
pub mod replay;
pub mod reveal;
pub mod rules_reader;
pub mod saves;
pub mod selftest_melee;
pub mod sight_lines;
pub mod start;
pub mod surface;
pub mod tutorial;

pub use actions::{Dialog, Overlays, ScreenAction, ScreenActions, ScreenView, apply_action};
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

/// Ordering of the screens' `Update` work: actions first, then reading the game.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScreensSet {
    /// Screen keys (F1, Esc, …), before the in-game input so Esc that deselects a figure
    /// does not also open the menu.
    Keys,
    /// Queued actions are carried out, then the game is read (after the bridge applied the
    /// frame's orders).
    Logic,
}

/// The screens. Headless-safe: without `EguiPlugin` nothing is drawn, and the logic (actions,
/// autosave, hand-over, card overlay data) still runs, which is how the tests drive it.
pub struct ScreensPlugin;

impl Plugin for ScreensPlugin {
    fn build(&self, app: &mut App) {
        if app.is_plugin_added::<bevy::gizmos::GizmoPlugin>() {
            app.add_systems(
                Update,
                (
                    charges::draw_lines_of_sight,
                    fire::draw_fire_lines,
                    battle::draw_objective_marks,
                    chooser_map::draw_chooser_marks,
                    chooser_map::keep_in_view,
                )
                    .after(PlaySet::View)
                    // After the counters have moved this frame, so rings follow them.
                    .after(crate::ui::UiSet::Counters)
                    .run_if(in_state(Screen::Playing)),
            );
        }
        if !app.is_plugin_added::<StatesPlugin>() {
            app.add_plugins(StatesPlugin);
        }
        if !app.is_plugin_added::<BridgePlugin>() {
            app.add_plugins(BridgePlugin);
        }
        app.add_plugins(tutorial::TutorialPlugin);
        app.add_message::<crate::ui::play::PlayAction>()
            .init_state::<Screen>()
            .init_resource::<host::GameHost>()
            .init_resource::<saves::SaveDir>()
            .init_resource::<saves::Autosave>()
            .init_resource::<SideControls>()
            .init_resource::<Handover>()
            .init_resource::<reveal::RevealWatch>()
            .init_resource::<cards::Cards>()
            .init_resource::<cards::Picks>()
            .init_resource::<chooser_map::TableRect>()
            .init_resource::<ScreenActions>()
            .init_resource::<Overlays>()
            .init_resource::<ScreenView>()
            .init_resource::<start::StartForm>()
            .init_resource::<ai_play::AiLevels>()
            .init_resource::<ai_play::AiPace>()
            .init_resource::<ai_play::Explain>()
            .init_resource::<charges::ChargeView>()
            .init_resource::<charges::ChargePicks>()
            .init_resource::<fire::FireView>()
            .init_resource::<battle::BattleView>()
            .init_resource::<battle::BattleScreens>()
            .init_resource::<replay::Replay>()
            .init_resource::<banner::ControlBanner>()
            .add_systems(OnEnter(Screen::Start), start::refresh_form)
            .add_systems(Last, actions::close_autosave_on_exit)
            .configure_sets(
                Update,
                (
                    ScreensSet::Keys.before(PlaySet::Input),
                    ScreensSet::Logic
                        .after(PlaySet::Apply)
                        .before(PlaySet::View),
                ),
            )
            .add_systems(Update, menu::hotkeys.in_set(ScreensSet::Keys))
            .add_systems(
                Update,
                chooser_map::chooser_clicks
                    .after(PlaySet::Input)
                    .before(PlaySet::Apply)
                    .run_if(in_state(Screen::Playing)),
            )
            .configure_sets(Update, PlaySet::Input.run_if(board_interactive))
            .add_systems(
                Update,
                actions::follow_installed_game
                    .run_if(in_state(Screen::Start))
                    .in_set(ScreensSet::Logic),
            )
            .add_systems(
                Update,
                (
                    actions::apply_actions,
                    ai_play::follow_fast_forward.run_if(in_state(Screen::Playing)),
                    ai_play::drive_ai.run_if(in_state(Screen::Playing)),
                    replay::drive_replay.run_if(in_state(Screen::Playing)),
                    actions::watch_game.run_if(in_state(Screen::Playing)),
                    banner::watch_control,
                    battle::follow_battle.run_if(in_state(Screen::Playing)),
                    reveal::watch_reveals.run_if(in_state(Screen::Playing)),
                    reveal::hold_effects,
                    ai_play::lock_orders,
                    ai_play::toggle_explain,
                    ai_play::follow_explain.run_if(in_state(Screen::Playing)),
                )
                    .chain()
                    .in_set(ScreensSet::Logic),
            )
            .add_systems(
                EguiPrimaryContextPass,
                (
                    start::draw_start.run_if(in_state(Screen::Start)),
                    menu::draw_playing.run_if(in_state(Screen::Playing)),
                    ai_play::draw_ai.run_if(in_state(Screen::Playing)),
                    charges::draw_charges.run_if(in_state(Screen::Playing)),
                    fire::draw_fire.run_if(in_state(Screen::Playing)),
                    battle::draw_battle.run_if(in_state(Screen::Playing)),
                    replay::draw_replay.run_if(in_state(Screen::Playing)),
                    banner::draw_banner,
                    menu::draw_common,
                    art_notice::draw_art_problems,
                    crate::ui::settings::screen::draw_settings,
                )
                    .chain()
                    .after(crate::ui::settings::apply_to_egui),
            );
    }
}

/// Run condition for board input (selecting, ordering, camera keys): true only in a game with
/// nothing over the board — no hand-over screen, menu or dialog.
pub fn board_interactive(
    screen: Option<Res<State<Screen>>>,
    handover: Option<Res<Handover>>,
    overlays: Option<Res<Overlays>>,
    battle: Option<Res<battle::BattleScreens>>,
    banner: Option<Res<banner::ControlBanner>>,
    time: Option<Res<Time>>,
) -> bool {
    let now = time.map_or(0.0, |t| t.elapsed_secs_f64());
    screen.is_some_and(|s| *s.get() == Screen::Playing)
        && banner.is_none_or(|b| !b.holding(now))
        && handover.is_none_or(|h| !h.screen_up())
        && overlays.is_none_or(|o| !o.blocking())
        && battle.is_none_or(|b| b.briefing.is_none() && !b.end)
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
