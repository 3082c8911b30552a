//! Hot-seat hand-over (D9): when the computer passes from one human player to another while
//! the next one is about to choose something secret (charge declarations, TAC and MELEE
//! cards), a full-window screen hides the board and every choice until the next player clicks.
//! The decision is the pure [`handover_needed`]; [`Handover`] tracks who had the computer.

use crate::level::Control;
use bevy::prelude::*;
use bevy_egui::egui;

/// True when the computer must be handed over behind a screen: the next step is a secret
/// choice (`phase_is_secret`), someone had the computer before (`prev_chooser`), the next
/// chooser is someone else, and both are humans at this computer. An AI side never needs
/// one (it sees nothing on screen), and open phases never do (nothing there is secret).
pub fn handover_needed(
    prev_chooser: Option<u8>,
    next_chooser: Option<u8>,
    controls: &[Control],
    phase_is_secret: bool,
) -> bool {
    let (Some(prev), Some(next)) = (prev_chooser, next_chooser) else {
        return false;
    };
    let human = |s: u8| controls.get(usize::from(s)) == Some(&Control::Human);
    phase_is_secret && prev != next && human(prev) && human(next)
}

/// Who must act in the game now, as the screens see it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ControlPoint {
    /// The side that acts (moves in a half-move, chooses in a secret phase), if any.
    pub side: Option<u8>,
    /// Its choice is hidden from the other sides until revealed (D2, D6, D7, D9).
    pub secret: bool,
}

/// Who had the computer last and whether the hand-over screen is up.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Handover {
    /// The side that last acted at this computer.
    pub last: Option<u8>,
    /// The side the computer is being passed to, while the screen is up.
    pub waiting_for: Option<u8>,
}

impl Handover {
    /// Takes in where the game stands; raises the screen when a secret choice passes to
    /// another human. While the screen is up nothing changes until [`Handover::accept`].
    pub fn observe(&mut self, now: ControlPoint, controls: &[Control]) {
        if self.waiting_for.is_some() || now.side.is_none() || now.side == self.last {
            return;
        }
        if handover_needed(self.last, now.side, controls, now.secret) {
            self.waiting_for = now.side;
        } else {
            self.last = now.side;
        }
    }

    /// The next player clicked: the computer is theirs.
    pub fn accept(&mut self) {
        if let Some(s) = self.waiting_for.take() {
            self.last = Some(s);
        }
    }

    /// True while the board and every choice must stay hidden.
    pub fn screen_up(&self) -> bool {
        self.waiting_for.is_some()
    }
}

/// The text of the hand-over screen.
pub fn handover_text(next_side: &str) -> String {
    format!("Pass the computer to {next_side} — click when ready")
}

/// Draws the hand-over screen over everything, opaque, so neither the board nor the previous
/// player's choices show. Returns true when the next player clicked.
pub fn show_handover(ctx: &egui::Context, next_side: &str, colour: egui::Color32) -> bool {
    let rect = ctx.viewport_rect();
    let mut clicked = false;
    egui::Area::new(egui::Id::new("warhorse-handover"))
        .order(egui::Order::Foreground)
        .fixed_pos(rect.min)
        .constrain(false)
        .show(ctx, |ui| {
            let response = ui.allocate_rect(rect, egui::Sense::click());
            ui.painter()
                .rect_filled(rect, 0.0, egui::Color32::from_rgb(16, 17, 20));
            ui.painter().text(
                rect.center() - egui::vec2(0.0, 24.0),
                egui::Align2::CENTER_CENTER,
                handover_text(next_side),
                egui::FontId::proportional(30.0),
                colour,
            );
            ui.painter().text(
                rect.center() + egui::vec2(0.0, 24.0),
                egui::Align2::CENTER_CENTER,
                "The board stays hidden until then. (Or press Enter.)",
                egui::FontId::proportional(16.0),
                egui::Color32::GRAY,
            );
            clicked = response.clicked();
        });
    // Enter takes the computer too, once the screen has been seen (not the Enter that
    // ended the last player's half-move).
    clicked || super::surface::enter_on(ctx, "handover")
}

fn forget_handover(_: On<super::actions::GameOnScreen>, mut handover: ResMut<Handover>) {
    *handover = Handover::default();
}

/// Adds the hand-over tracker (its screen is drawn by `menu::draw_playing`, alone while up).
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Handover>()
        .add_observer(forget_handover);
}

#[cfg(test)]
mod tests {
    use super::*;
    use Control::{Ai, Human};

    #[test]
    fn only_a_secret_choice_passing_between_two_humans_needs_it() {
        let hh = [Human, Human];
        assert!(handover_needed(Some(0), Some(1), &hh, true));
        assert!(handover_needed(Some(1), Some(0), &hh, true));
        assert!(!handover_needed(Some(0), Some(1), &hh, false), "open phase");
        assert!(!handover_needed(Some(0), Some(0), &hh, true), "same side");
        assert!(
            !handover_needed(None, Some(1), &hh, true),
            "nobody saw anything"
        );
        assert!(!handover_needed(Some(0), None, &hh, true), "nobody next");
        for controls in [[Human, Ai], [Ai, Human], [Ai, Ai]] {
            for (a, b) in [(0, 1), (1, 0)] {
                assert!(!handover_needed(Some(a), Some(b), &controls, true));
            }
        }
        assert!(
            !handover_needed(Some(0), Some(5), &hh, true),
            "no such side"
        );
        let three = [Human, Ai, Human];
        assert!(handover_needed(Some(0), Some(2), &three, true));
        assert!(!handover_needed(Some(1), Some(2), &three, true));
    }

    #[test]
    fn the_tracker_raises_the_screen_once_and_the_click_lowers_it() {
        let hh = [Human, Human];
        let mut h = Handover::default();
        let open = |s| ControlPoint {
            side: Some(s),
            secret: false,
        };
        let secret = |s| ControlPoint {
            side: Some(s),
            secret: true,
        };
        h.observe(open(0), &hh);
        h.observe(open(1), &hh);
        assert!(!h.screen_up(), "moves are open");
        h.observe(secret(0), &hh);
        assert_eq!(h.waiting_for, Some(0));
        h.observe(secret(1), &hh);
        assert_eq!(
            h.waiting_for,
            Some(0),
            "nothing changes while the screen is up"
        );
        h.accept();
        assert_eq!((h.last, h.screen_up()), (Some(0), false));
        h.observe(secret(0), &hh);
        assert!(!h.screen_up(), "the same player goes on choosing");
        h.observe(secret(1), &hh);
        assert!(h.screen_up());
        h.accept();
        h.observe(ControlPoint::default(), &hh);
        assert_eq!(
            h.last,
            Some(1),
            "a phase with nobody to act changes nothing"
        );
        let mut ai = Handover::default();
        ai.observe(secret(0), &[Human, Ai]);
        ai.observe(secret(1), &[Human, Ai]);
        assert!(!ai.screen_up());
    }
}
