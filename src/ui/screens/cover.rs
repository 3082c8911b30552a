//! What covers the board in a game, one screen at a time (issue 29 item 4, issue 34: "a
//! briefing is modal and first"): the Bevy sub-state [`Cover`] of [`Screen::Playing`]. The
//! board's input, the card table, the charge orders and the fire overlay run only in
//! [`Cover::Board`], so a key pressed for a briefing or a dialog means that one thing.
//!
//! Each modal screen keeps what it shows — the hand-over in [`Handover`], a dialog, the menu
//! and the settings in [`Overlays`], the briefing and the end screen in [`BattleScreens`] —
//! and [`settle`] alone turns that into the state, once a frame before the state transitions,
//! by the order of precedence of [`covering`]. Two can be open at once (the Save dialog over
//! the menu, the hand-over screen over a round's reveal): the state is the one on top, and the
//! one beneath comes back when it closes, because it never stopped keeping what it shows.

use super::Screen;
use super::actions::Overlays;
use super::battle::BattleScreens;
use super::handover::Handover;
use bevy::prelude::*;

/// What is on top of the board while a game is on screen: the board itself, or the modal
/// screen that covers it. Listed in the order [`covering`] tries them, topmost first.
#[derive(SubStates, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[source(Screen = Screen::Playing)]
pub enum Cover {
    /// Nothing: the board takes the keys and the mouse.
    #[default]
    Board,
    /// The hot-seat hand-over screen: the next player takes the computer.
    Handover,
    /// A dialog: save, load, a round's reveal, a message.
    Dialog,
    /// The settings window.
    Settings,
    /// The in-game menu.
    Menu,
    /// A side's briefing, read before its first orders.
    Briefing,
    /// The end of the battle.
    End,
}

/// Adds the state and the system that settles it.
pub fn plugin(app: &mut App) {
    app.add_sub_state::<Cover>()
        .add_systems(PreUpdate, settle.run_if(in_state(Screen::Playing)));
}

/// The screen on top of the board, from what each modal screen keeps.
pub fn covering(
    handover: Option<&Handover>,
    overlays: Option<&Overlays>,
    battle: Option<&BattleScreens>,
) -> Cover {
    if handover.is_some_and(Handover::screen_up) {
        Cover::Handover
    } else if overlays.is_some_and(|o| o.dialog.is_some()) {
        Cover::Dialog
    } else if overlays.is_some_and(|o| o.settings) {
        Cover::Settings
    } else if overlays.is_some_and(|o| o.menu) {
        Cover::Menu
    } else if battle.is_some_and(|b| b.briefing.is_some()) {
        Cover::Briefing
    } else if battle.is_some_and(|b| b.end) {
        Cover::End
    } else {
        Cover::Board
    }
}

/// Sets [`Cover`] to what covers the board now. In `PreUpdate`, so the state changes in the
/// frame's transitions, before any screen reads it: a screen opened or closed during a frame
/// covers or frees the board from the next one, as every reader sees alike.
pub fn settle(
    handover: Option<Res<Handover>>,
    overlays: Option<Res<Overlays>>,
    battle: Option<Res<BattleScreens>>,
    mut next: ResMut<NextState<Cover>>,
) {
    // `NextState`'s own method: a transition only when the cover differs from the state's
    // (the `set_if_neq` of `ResMut` would compare the resource, not the state).
    NextState::set_if_neq(
        &mut next,
        covering(handover.as_deref(), overlays.as_deref(), battle.as_deref()),
    );
}

/// What covers the board, for a system that draws over it: `None` with no game on screen.
pub fn on_top(state: Option<Res<State<Cover>>>) -> Option<Cover> {
    state.map(|s| *s.get())
}

/// True when a game is on screen and nothing covers its board: the board's input and the
/// overlays that take its keys (the card table, the charge orders, the fire overlay) run.
pub fn board_free(state: Option<Res<State<Cover>>>) -> bool {
    on_top(state) == Some(Cover::Board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hand_over_covers_a_dialog_and_a_dialog_the_menu_and_the_briefing() {
        let mut o = Overlays {
            menu: true,
            ..default()
        };
        let b = BattleScreens {
            briefing: Some(0),
            ..default()
        };
        assert_eq!(covering(None, Some(&o), Some(&b)), Cover::Menu);
        o.dialog = Some(super::super::Dialog::Message {
            title: "t".into(),
            text: "x".into(),
            armed: false,
        });
        assert_eq!(covering(None, Some(&o), Some(&b)), Cover::Dialog);
        let h = Handover {
            waiting_for: Some(1),
            ..default()
        };
        assert_eq!(covering(Some(&h), Some(&o), Some(&b)), Cover::Handover);
        assert_eq!(covering(None, None, Some(&b)), Cover::Briefing);
        assert_eq!(
            covering(None, Some(&Overlays::default()), None),
            Cover::Board
        );
    }

    #[test]
    fn the_state_follows_the_screens_from_the_next_frame_and_lives_only_in_a_game() {
        use bevy::state::app::StatesPlugin;
        let mut app = App::new();
        app.add_plugins(StatesPlugin)
            .init_state::<Screen>()
            .init_resource::<Overlays>()
            .init_resource::<Handover>()
            .init_resource::<BattleScreens>();
        plugin(&mut app);
        app.update();
        assert!(
            app.world().get_resource::<State<Cover>>().is_none(),
            "no game on screen: no cover"
        );
        app.world_mut()
            .resource_mut::<NextState<Screen>>()
            .set(Screen::Playing);
        app.update();
        let cover = |app: &App| *app.world().resource::<State<Cover>>().get();
        assert_eq!(cover(&app), Cover::Board);
        app.world_mut().resource_mut::<BattleScreens>().briefing = Some(0);
        app.world_mut().resource_mut::<Overlays>().menu = true;
        app.update();
        assert_eq!(cover(&app), Cover::Menu, "the menu over the briefing");
        app.world_mut().resource_mut::<Overlays>().menu = false;
        app.update();
        assert_eq!(
            cover(&app),
            Cover::Briefing,
            "the briefing again beneath it"
        );
        app.world_mut().resource_mut::<BattleScreens>().briefing = None;
        app.update();
        assert_eq!(cover(&app), Cover::Board);
        app.world_mut()
            .resource_mut::<NextState<Screen>>()
            .set(Screen::Start);
        app.update();
        assert!(app.world().get_resource::<State<Cover>>().is_none());
    }
}
