//! The control banner (issue 11 item 6): when the game passes to another side or to the
//! computer — a new half-move, the other side's cards, the computer's turn — a banner across
//! the map says who acts now and in which phase, and for a moment the board takes no clicks,
//! so a click meant for the last side never lands as the next side's order.

use super::{Screen, ScreenView, SideControls};
use crate::level::Control;
use crate::ui::settings::side_colour32;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// How long the banner shows, in seconds.
pub const BANNER_SECS: f64 = 1.6;
/// How long the board ignores clicks after control passes, in seconds.
pub const HOLD_SECS: f64 = 0.45;

/// The banner now showing, and whose turn it announced.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct ControlBanner {
    /// The side and phase last announced.
    pub announced: Option<(Option<u8>, String)>,
    /// The words on the banner, and its side's colour index.
    pub text: Option<(String, Option<u8>)>,
    /// When the banner goes (seconds since start).
    pub until: f64,
    /// Until when board clicks are ignored.
    pub hold_until: f64,
}

impl ControlBanner {
    /// Whether board input is held at time `now`.
    pub fn holding(&self, now: f64) -> bool {
        now < self.hold_until
    }
}

/// The banner's words for `side` acting in `phase` (a computer side says so).
pub fn banner_words(view: &ScreenView, side: u8, computer: bool) -> String {
    let name = view
        .side_names
        .get(usize::from(side))
        .cloned()
        .unwrap_or_else(|| format!("side {}", u16::from(side) + 1));
    let who = if computer {
        format!("{name} (computer)")
    } else {
        name
    };
    format!("{who}: {}", view.phase)
}

/// Raises the banner when the side or the phase that acts changes.
pub fn watch_control(
    view: Res<ScreenView>,
    controls: Res<SideControls>,
    time: Res<Time>,
    mut banner: ResMut<ControlBanner>,
    joined: Option<Res<super::join::Joined>>,
    email: Option<Res<super::email::ByEmail>>,
) {
    let now = time.elapsed_secs_f64();
    if !view.playing {
        banner.set_if_neq(ControlBanner::default());
        return;
    }
    let moment = (view.control.side, view.phase.clone());
    if banner.announced.as_ref() == Some(&moment) {
        if banner.text.is_some() && now >= banner.until {
            banner.text = None;
        }
        return;
    }
    let first = banner.announced.is_none();
    banner.announced = Some(moment);
    let Some(side) = view.control.side else {
        return;
    };
    // The game's first moment is announced by the briefing, not the banner.
    if first {
        return;
    }
    let computer = controls.0.get(usize::from(side)) == Some(&Control::Ai);
    let words = match (joined, email) {
        // A game across machines: the other sides are people at other machines.
        (Some(_), _) if computer => {
            format!("{} (another machine)", banner_words(&view, side, false))
        }
        (_, Some(_)) if computer => format!("{} (by email)", banner_words(&view, side, false)),
        _ => banner_words(&view, side, computer),
    };
    banner.text = Some((words, Some(side)));
    banner.until = now + BANNER_SECS;
    banner.hold_until = now + HOLD_SECS;
}

/// Draws the banner across the top of the map.
pub fn draw_banner(
    mut contexts: EguiContexts,
    banner: Res<ControlBanner>,
    handover: Res<super::Handover>,
    screen: Res<State<Screen>>,
) -> Result {
    if *screen.get() != Screen::Playing || handover.screen_up() {
        return Ok(());
    }
    let Some((text, side)) = &banner.text else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let free = crate::ui::play::panels::free_area(ctx);
    let colour = side.map_or(egui::Color32::WHITE, |s| side_colour32(ctx, s));
    egui::Area::new(egui::Id::new("warhorse-control-banner"))
        .order(egui::Order::Foreground)
        .pivot(egui::Align2::CENTER_TOP)
        .fixed_pos(egui::pos2(free.center().x, free.top() + 48.0))
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style())
                .fill(egui::Color32::from_black_alpha(210))
                .inner_margin(egui::Margin::symmetric(24, 10))
                .show(ui, |ui| {
                    // One line, never wrapped: an area centred on a point offers its text
                    // only the width left of that point on its first frame.
                    ui.add(
                        egui::Label::new(
                            egui::RichText::new(text).color(colour).size(22.0).strong(),
                        )
                        .wrap_mode(egui::TextWrapMode::Extend),
                    );
                });
        });
    Ok(())
}

/// Adds the banner that names who acts when control changes.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ControlBanner>()
        .add_systems(Update, watch_control.in_set(super::ScreenStep::Follow))
        .add_systems(
            bevy_egui::EguiPrimaryContextPass,
            draw_banner.in_set(super::DrawLayer::Banner),
        );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_banner_names_the_side_and_the_phase() {
        let view = ScreenView {
            playing: true,
            phase: "second half-move".into(),
            side_names: vec!["Red".into(), "Blue".into()],
            ..Default::default()
        };
        assert_eq!(banner_words(&view, 1, false), "Blue: second half-move");
        assert_eq!(
            banner_words(&view, 0, true),
            "Red (computer): second half-move"
        );
    }
}
