//! What covers the board in a game, one screen at a time (issue 29 item 4, issue 34: "a
//! briefing is modal and first"). Each modal screen keeps its own state — the hand-over in
//! [`Handover`], a dialog, the menu and the settings in [`Overlays`], the briefing and the end
//! screen in [`BattleScreens`] — and [`covering`] alone says which of them is on top. The
//! board's input, the card table, the charge orders and the fire overlay run only while
//! nothing covers the board, so a key pressed for a briefing or a dialog means that one thing.
//!
//! Two can be open at once (the Save dialog over the menu, the hand-over screen over a round's
//! reveal), so this is an order of precedence, not a single Bevy `SubStates` value.

use super::actions::Overlays;
use super::battle::BattleScreens;
use super::handover::Handover;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

/// A screen over the board, topmost first in the order [`covering`] tries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cover {
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

/// The screen on top of the board, if any.
pub fn covering(
    handover: Option<&Handover>,
    overlays: Option<&Overlays>,
    battle: Option<&BattleScreens>,
) -> Option<Cover> {
    if handover.is_some_and(Handover::screen_up) {
        Some(Cover::Handover)
    } else if overlays.is_some_and(|o| o.dialog.is_some()) {
        Some(Cover::Dialog)
    } else if overlays.is_some_and(|o| o.settings) {
        Some(Cover::Settings)
    } else if overlays.is_some_and(|o| o.menu) {
        Some(Cover::Menu)
    } else if battle.is_some_and(|b| b.briefing.is_some()) {
        Some(Cover::Briefing)
    } else if battle.is_some_and(|b| b.end) {
        Some(Cover::End)
    } else {
        None
    }
}

/// [`covering`] for a system: the screens' state, read together.
#[derive(SystemParam)]
pub struct Covers<'w> {
    handover: Option<Res<'w, Handover>>,
    overlays: Option<Res<'w, Overlays>>,
    battle: Option<Res<'w, BattleScreens>>,
}

impl Covers<'_> {
    /// The screen on top of the board, if any.
    pub fn top(&self) -> Option<Cover> {
        covering(
            self.handover.as_deref(),
            self.overlays.as_deref(),
            self.battle.as_deref(),
        )
    }
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
        assert_eq!(covering(None, Some(&o), Some(&b)), Some(Cover::Menu));
        o.dialog = Some(super::super::Dialog::Message {
            title: "t".into(),
            text: "x".into(),
        });
        assert_eq!(covering(None, Some(&o), Some(&b)), Some(Cover::Dialog));
        let h = Handover {
            waiting_for: Some(1),
            ..default()
        };
        assert_eq!(
            covering(Some(&h), Some(&o), Some(&b)),
            Some(Cover::Handover)
        );
        assert_eq!(covering(None, None, Some(&b)), Some(Cover::Briefing));
        assert_eq!(covering(None, Some(&Overlays::default()), None), None);
    }
}
