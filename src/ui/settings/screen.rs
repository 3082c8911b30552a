//! The settings screen: a window over the start screen or the game (Esc menu → Settings, the
//! start screen's Settings button, or F3). Every change applies at once and is saved at once;
//! the window says where the file is, and what was wrong with it if it could not be read.

use super::game_keys::KeyCapture;
use super::model::{Fractions, Pace, Palette, Settings, UI_SCALE_RANGE};
use super::{SettingsFile, side_colour32};
use crate::ui::screens::actions::Overlays;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// How much one press of the scale buttons changes the UI scale.
pub const SCALE_STEP: f32 = 0.25;

/// Adds the settings window, a screen opened from the start screen or the menu and drawn
/// over everything else.
pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        bevy_egui::EguiPrimaryContextPass,
        draw_settings
            .in_set(crate::ui::screens::DrawLayer::Top)
            .after(crate::ui::screens::art_notice::draw_art_problems),
    );
}

/// The egui system: draws the settings window while [`Overlays::settings`] is set and
/// stores what the player changed.
pub fn draw_settings(
    mut contexts: EguiContexts,
    mut overlays: ResMut<Overlays>,
    settings: Option<ResMut<Settings>>,
    store: Option<Res<SettingsFile>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    capture: Option<ResMut<KeyCapture>>,
) -> Result {
    // Apps built without the settings plugin (headless tests) have nothing to set.
    let (Some(mut settings), Some(store)) = (settings, store) else {
        return Ok(());
    };
    let mut capture = capture;
    if !overlays.settings {
        // A key awaited by a window that was closed is awaited no more.
        if let Some(c) = capture.as_mut().filter(|c| c.0.is_some()) {
            c.0 = None;
        }
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut edited = settings.clone();
    let mut waiting = capture.as_deref().copied().unwrap_or_default();
    let keys = Keys {
        capture: &mut waiting,
        pressed: keys.as_deref(),
    };
    settings_window(ctx, &mut overlays.settings, &mut edited, &store, keys);
    if let Some(mut c) = capture {
        c.set_if_neq(waiting);
    }
    settings.set_if_neq(edited);
    Ok(())
}

/// The keyboard as the Keys section sees it: the key it waits for, if any, and the keys
/// pressed this frame.
pub struct Keys<'a> {
    /// What the awaited key is for.
    pub capture: &'a mut KeyCapture,
    /// The keyboard this frame (none in apps without input).
    pub pressed: Option<&'a ButtonInput<KeyCode>>,
}

/// The settings window; `open` turns false when the player closes it.
pub fn settings_window(
    ctx: &egui::Context,
    open: &mut bool,
    settings: &mut Settings,
    store: &SettingsFile,
    keys: Keys,
) {
    let mut close = false;
    // Esc while a key is awaited cancels the wait (the Keys section reads it), not the window.
    let waiting = keys.capture.0.is_some();
    egui::Window::new("Settings")
        .id(egui::Id::new("warhorse-settings"))
        .open(open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            settings_ui(ui, settings, store);
            ui.add_space(6.0);
            super::keys_screen::keys_ui(ui, &mut settings.keys, keys.capture, keys.pressed);
            ui.add_space(8.0);
            ui.vertical_centered(|ui| {
                if ui.button("Close (Esc)").clicked() {
                    close = true;
                }
            });
        });
    // Esc closes it even while one of its buttons has egui's keyboard focus (then the game's
    // own hotkeys do not see the key). F3 is left to them: it also opens the window, and
    // seen here on the frame it opened it would close it again.
    if close || (!waiting && ctx.input(|i| i.key_pressed(egui::Key::Escape))) {
        *open = false;
    }
}

/// The settings' controls, one row each.
pub fn settings_ui(ui: &mut egui::Ui, settings: &mut Settings, store: &SettingsFile) {
    egui::Grid::new("warhorse-settings-grid")
        .num_columns(2)
        .spacing([16.0, 10.0])
        .show(ui, |ui| {
            ui.label("Pace of the computer and effects");
            ui.horizontal(|ui| {
                for p in Pace::ALL {
                    ui.selectable_value(&mut settings.pace, p, p.label());
                }
            });
            ui.end_row();

            ui.label("UI scale");
            ui.horizontal(|ui| {
                let (lo, hi) = (*UI_SCALE_RANGE.start(), *UI_SCALE_RANGE.end());
                let s = settings.ui_scale;
                if ui.add_enabled(s > lo, egui::Button::new("−")).clicked() {
                    settings.ui_scale = (s - SCALE_STEP).max(lo);
                }
                ui.label(format!("{:.0} %", settings.ui_scale * 100.0));
                if ui.add_enabled(s < hi, egui::Button::new("+")).clicked() {
                    settings.ui_scale = (s + SCALE_STEP).min(hi);
                }
                if ui
                    .add_enabled(s != 1.0, egui::Button::new("100 %"))
                    .clicked()
                {
                    settings.ui_scale = 1.0;
                }
            });
            ui.end_row();

            ui.label("Fullscreen");
            ui.checkbox(&mut settings.fullscreen, "");
            ui.end_row();

            ui.label("Side colours");
            ui.horizontal(|ui| {
                for p in Palette::ALL {
                    let mut text = egui::text::LayoutJob::default();
                    for side in 0..2 {
                        let (r, g, b) = p.rgb(side);
                        let c = egui::Color32::from_rgb(
                            (r * 255.0) as u8,
                            (g * 255.0) as u8,
                            (b * 255.0) as u8,
                        );
                        text.append(
                            "■",
                            0.0,
                            egui::TextFormat::simple(egui::FontId::default(), c),
                        );
                    }
                    let colour = ui.visuals().text_color();
                    text.append(
                        p.label(),
                        4.0,
                        egui::TextFormat::simple(egui::FontId::default(), colour),
                    );
                    ui.selectable_value(&mut settings.palette, p, text);
                }
            });
            ui.end_row();

            ui.label("Fractions");
            ui.horizontal(|ui| {
                for f in Fractions::ALL {
                    ui.selectable_value(&mut settings.fractions, f, f.label());
                }
            });
            ui.end_row();

            ui.label("Sound volume");
            ui.horizontal(|ui| {
                ui.add(
                    egui::Slider::new(&mut settings.volume, 0.0..=1.0)
                        .step_by(0.05)
                        .custom_formatter(|v, _| format!("{:.0} %", v * 100.0)),
                );
                if !crate::ui::sound::BUILT_WITH_SOUND {
                    ui.label(
                        egui::RichText::new("silent build: see the README's `sound` feature")
                            .weak()
                            .small(),
                    );
                }
            });
            ui.end_row();
        });
    ui.add_space(6.0);
    let (a, b) = (side_colour32(ui.ctx(), 0), side_colour32(ui.ctx(), 1));
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new("Side 1").color(a).strong());
        ui.label(egui::RichText::new("Side 2").color(b).strong());
        ui.label(
            egui::RichText::new(format!(
                "— 35/4 cells shows as {}",
                settings
                    .fractions
                    .amount(crate::rules::mp::Mp::ratio(35, 4).unwrap_or_default())
            ))
            .weak(),
        );
    });
    ui.add_space(6.0);
    let saved = match &store.path {
        Some(p) => format!("Saved in {}", p.display()),
        None => "No configuration folder on this system: settings last until you quit.".into(),
    };
    ui.label(egui::RichText::new(saved).weak().small());
    if let Some(why) = &store.problem {
        ui.colored_label(egui::Color32::from_rgb(230, 120, 100), why);
    }
}
