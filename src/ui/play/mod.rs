//! Playing a level in the window (issue 3): selecting a figure, seeing where it can go and
//! what each path costs, and ordering it — hot-seat, both sides at one screen.
//!
//! Everything a player does becomes a [`PlayAction`] (a map click, a key, a button), and
//! every action that changes the game becomes a [`GameRequest`](crate::ui::bridge::GameRequest) for the
//! [bridge](crate::ui::bridge); the rules accept or refuse it, and the refusal's words are
//! what the player reads. The window never decides legality itself.
//!
//! [`PlayLogicPlugin`] is the part that needs no window or GPU (tests and benchmarks run it
//! on `MinimalPlugins`); [`PlayPlugin`] adds the mouse, keyboard, egui panels and path
//! drawing.
//!
//! Keys (the standard ones; a player may change them, `settings::keymap`): click a figure to
//! select it, click a highlighted cell to move there along the previewed path; `Q` / `E`
//! cycle the end facing previewed at the hovered cell; `1`–`5` gait walk, trot, canter,
//! gallop, halt; `[` / `]` pivot left / right; `B` back up; `M` mount (then click the steed)
//! or, when mounted, dismount (then click a free neighbouring cell, or `M` again for the
//! first free one); `Enter` ends the side's half-move; `U` or `Ctrl+Z` undoes; `Esc` cancels
//! or deselects.

pub mod actions;
pub mod card;
pub mod input;
pub mod marks;
pub mod mirror;
pub mod panels;
pub mod reach_view;

use crate::rules::gait::Gait;
use crate::rules::grid::Cell;
use crate::rules::movement::Hand;
use crate::ui::UiSet;
use crate::ui::bridge::{self, BridgePlugin};
use crate::ui::settings::keymap::Command;
use bevy::prelude::*;

pub use reach_view::{PathPreview, ReachView};

/// What the player is doing with the selected figure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Clicks select figures and move the selected one.
    #[default]
    Move,
    /// The next click names the steed to mount.
    Mount,
    /// The next click names the cell to step down to.
    Dismount,
    /// The next click names a riderless horse to take on the lead, or a led one to let go
    /// (A18).
    Lead,
}

/// The figure the player is looking at (a mirror's id; a pair is selected by its rider) and
/// what the next click means.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// The selected figure's id.
    pub unit: Option<String>,
    /// What the next map click does.
    pub mode: Mode,
}

/// The map cell under the pointer (none when the pointer is off the map or over a panel),
/// and which of that cell's end facings is previewed.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hover {
    /// The hovered cell.
    pub cell: Option<Cell>,
    /// Index into the hovered cell's end facings, cheapest first (`Q` / `E`).
    pub pick: usize,
}

/// Everything a player can do, from the map, the keyboard or a button; one system turns
/// them into selection changes and game requests, so keys and buttons cannot disagree.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum PlayAction {
    /// A click on a map cell (not a drag).
    Click(Cell),
    /// Select a figure by id, or clear the selection.
    Select(Option<String>),
    /// Change the selected mount's gait (D5).
    Gait(Gait),
    /// Pivot in place: one facing step on foot (D14), a right angle mounted (H3).
    Pivot(Hand),
    /// Back up one cell (H5).
    BackUp,
    /// Mount (then click the steed) or, when mounted, dismount.
    MountOrDismount,
    /// End the side's half-move (D4). In a half-move with figures of the side that have not
    /// moved, the player is asked first ([`AskFirst`]).
    EndSide,
    /// End the side's half-move without asking: the player answered "end it" to the
    /// question [`PlayAction::EndSide`] raised.
    EndSideAnyway,
    /// Take back the last order.
    Undo,
    /// Preview the next (`+1`) or previous (`-1`) end facing at the hovered cell.
    CycleFacing(i8),
    /// Leave the mount/dismount mode, or clear the selection.
    Cancel,
    /// Lead a riderless horse or let a led one go (then click the horse) — A18 (`L`).
    Lead,
    /// Show or hide why the selected figure's computer unit did what it did (`X`).
    Explain,
    /// Play the rest of the computer's turn at once (`Space`).
    FastForward,
    /// Spend movement on an activity (D15, R2): stand up (`T`), ready a shield (`R`), draw a
    /// weapon (`G`), pick up an item (`P`) or a comrade (`K`), open (`O`) or unlock (`N`) a
    /// door, read a scroll (`Y`), pick up and ready (`V`).
    Activity(crate::rules::ruleset::Activity),
}

/// A question the player answers before an action is carried out (issue 34: "ending a
/// half-move with unmoved figures … asks first"). The screens show it as a dialog and, on
/// "yes", send `then`; on "no" nothing happens. A window without the screens (the headless
/// tests) never answers, so nothing happens there either.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct AskFirst {
    /// The dialog's title.
    pub title: String,
    /// What the player should weigh.
    pub text: String,
    /// The label of the "yes" button.
    pub yes: String,
    /// The action "yes" carries out.
    pub then: PlayAction,
}

/// The activities a player starts from the figure panel or a key (D15, R2), with their
/// command (whose key the player may change) and label. (FiredFirst is not among them:
/// firing first halves the move by itself, D4.)
pub const ACTIVITY_KEYS: [(Command, crate::rules::ruleset::Activity, &str); 9] = {
    use crate::rules::ruleset::Activity as A;
    [
        (Command::StandUp, A::StandUp, "Stand up"),
        (Command::ReadyShield, A::ReadyShield, "Ready shield"),
        (Command::DrawWeapon, A::DrawWeapon, "Draw weapon"),
        (Command::PickUpItem, A::PickUpItem, "Pick up item"),
        (Command::PickUpComrade, A::PickUpComrade, "Pick up comrade"),
        (Command::OpenDoor, A::OpenDoor, "Open door"),
        (Command::UnlockDoor, A::UnlockDoor, "Unlock door"),
        (Command::ReadScroll, A::ReadScroll, "Read scroll"),
        (
            Command::PickUpAndReady,
            A::PickUpAndReady,
            "Pick up and ready",
        ),
    ]
};

/// Why the board's orders are locked now (a computer side is moving), if they are: an
/// action that would give an order is answered with these words instead.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct OrderLock(pub Option<String>);

/// An overlay owns the map's clicks now (the card chooser: a click on an enemy or an arrow
/// picks a card), so a click neither selects nor moves, and Enter is the overlay's, not "end
/// the half-move" (which nobody could do then anyway).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MapClaim(pub bool);

/// What the player was last told: a status line that stays, and a toast for a few seconds.
#[derive(Resource, Clone, Debug, Default)]
pub struct Feedback {
    /// The latest outcome or hint, always shown.
    pub status: String,
    /// Whether the status reports a refusal.
    pub refused: bool,
    /// A banner shown until this time (seconds since start), if any.
    pub toast_until: Option<f64>,
}

/// How long a refusal banner stays up.
pub const TOAST_SECS: f64 = 4.0;

/// Order of the play systems within `Update`, before the counters redraw.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlaySet {
    /// Pointer and keys become [`PlayAction`]s and [`Hover`].
    Input,
    /// Actions become selection changes and game requests.
    Actions,
    /// The bridge applies requests and refreshes the mirrors.
    Apply,
    /// Reach, preview and highlights follow the new state.
    View,
}

/// The play logic without a window: bridge, selection, reach, preview, actions and the
/// reach highlights. Needs an `AssetPlugin` (highlight images) and `Time`.
pub struct PlayLogicPlugin;

impl Plugin for PlayLogicPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<BridgePlugin>() {
            app.add_plugins(BridgePlugin);
        }
        app.add_message::<PlayAction>()
            .add_message::<AskFirst>()
            .init_resource::<Selection>()
            .init_resource::<Hover>()
            .init_resource::<Feedback>()
            .init_resource::<OrderLock>()
            .init_resource::<MapClaim>()
            .init_resource::<reach_view::CurrentReach>()
            .init_resource::<reach_view::CurrentPreview>()
            .configure_sets(
                Update,
                (
                    PlaySet::Input,
                    PlaySet::Actions,
                    PlaySet::Apply,
                    PlaySet::View,
                )
                    .chain()
                    .before(UiSet::Counters),
            )
            .add_systems(Update, actions::perform_actions.in_set(PlaySet::Actions))
            .add_systems(Update, bridge::apply_requests.in_set(PlaySet::Apply))
            .add_systems(
                Update,
                (
                    actions::take_outcomes,
                    actions::forget_stale_status,
                    actions::follow_game,
                    reach_view::refresh_reach,
                    reach_view::refresh_preview,
                    actions::mark_selected,
                    marks::draw_reach_marks,
                )
                    .chain()
                    .in_set(PlaySet::View),
            )
            .add_plugins(marks::MarksPlugin);
    }
}

/// The whole in-game interface for the window: [`PlayLogicPlugin`] plus mouse and keyboard
/// input, the egui panels, path drawing and the camera fit around the panels.
pub struct PlayPlugin;

impl Plugin for PlayPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<bevy_egui::EguiPlugin>() {
            app.add_plugins(bevy_egui::EguiPlugin::default());
        }
        app.add_plugins((PlayLogicPlugin, input::InputPlugin, panels::PanelsPlugin));
    }
}

/// A headless app playing `game` with the play logic, the map and the counters — no window,
/// no GPU — for tests and benchmarks. Drive it with [`PlayAction`]s and [`Hover`], then
/// `update()`; the game is `app.world().non_send::<ActiveGame>()`.
pub fn headless_app(game: crate::sim::Game, level: crate::level::Level) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::asset::AssetPlugin::default()))
        .init_asset::<Image>()
        .configure_sets(Update, (UiSet::Map, UiSet::Counters).chain())
        .add_plugins((
            crate::ui::art::ArtPlugin,
            crate::ui::map::MapPlugin,
            crate::ui::counters::CountersPlugin,
            PlayLogicPlugin,
        ));
    bridge::install_game(app.world_mut(), game, level);
    app.update();
    app
}

#[cfg(test)]
mod tests;
