//! Settings (issue 16 item 5): the computer's and the effects' pace, UI scale, fullscreen,
//! colour-blind-safe side colours and how fractions are written. They are read from the
//! user's configuration folder when the window opens ([`file`]), edited on the settings
//! screen ([`screen`]: Esc menu or start screen, or F3), saved at once when changed, and
//! applied where they matter: egui's zoom and the side colours here, the computer's pace in
//! `screens::ai_play`, the effects' time in `effects`, the counters' colours in `counters`,
//! the keys ([`keymap`]) wherever a system reads [`game_keys::GameKeys`].

pub mod file;
pub mod game_keys;
pub mod keymap;
pub mod keys_screen;
pub mod model;
pub mod screen;

pub use model::{Fractions, Pace, Palette, Settings};

use bevy::prelude::*;
use bevy::window::{MonitorSelection, PrimaryWindow, WindowMode};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::path::PathBuf;

/// Where the settings were read from and will be saved, and what went wrong last (a file
/// that did not parse, a folder that cannot be written), for the settings screen to show.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingsFile {
    /// The file; `None` where the platform has no configuration folder (then nothing saves).
    pub path: Option<PathBuf>,
    /// The last problem reading or writing it.
    pub problem: Option<String>,
}

/// Reads the settings when the app is built and keeps them applied and saved.
pub struct SettingsPlugin {
    /// The settings file; [`file::settings_path`] for the game, a temporary file in tests.
    pub path: Option<PathBuf>,
}

impl Default for SettingsPlugin {
    /// The user's settings file; none in this crate's unit tests, so the player's own settings
    /// never change what a test sees and a test never overwrites them.
    fn default() -> Self {
        SettingsPlugin {
            path: if cfg!(test) {
                None
            } else {
                file::settings_path()
            },
        }
    }
}

impl Plugin for SettingsPlugin {
    fn build(&self, app: &mut App) {
        let (settings, problem) = match &self.path {
            Some(path) => file::load(path),
            None => (Settings::default(), None),
        };
        if let Some(why) = &problem {
            warn!("settings: {why}");
        }
        app.insert_resource(settings)
            .insert_resource(SettingsFile {
                path: self.path.clone(),
                problem,
            })
            .init_resource::<game_keys::KeyCapture>()
            .add_systems(Update, (save_changes, apply_window))
            .add_systems(EguiPrimaryContextPass, apply_to_egui);
    }
}

/// Saves the settings whenever they change after start-up, so nothing set is lost however
/// the game ends.
fn save_changes(settings: Res<Settings>, mut store: ResMut<SettingsFile>) {
    if !settings.is_changed() || settings.is_added() {
        return;
    }
    let Some(path) = store.path.clone() else {
        return;
    };
    let problem = file::save(&path, &settings).err();
    if let Some(why) = &problem {
        warn!("settings: {why}");
    }
    store.set_if_neq(SettingsFile {
        path: Some(path),
        problem,
    });
}

/// Fullscreen on or off.
fn apply_window(settings: Res<Settings>, mut windows: Query<&mut Window, With<PrimaryWindow>>) {
    if !settings.is_changed() {
        return;
    }
    let mode = if settings.fullscreen {
        WindowMode::BorderlessFullscreen(MonitorSelection::Current)
    } else {
        WindowMode::Windowed
    };
    for mut window in &mut windows {
        if window.mode != mode {
            window.mode = mode;
        }
    }
}

/// egui's zoom (the UI scale) and the palette the screens' side colours come from
/// ([`side_colour32`]). Runs before the screens draw.
pub fn apply_to_egui(mut contexts: EguiContexts, settings: Res<Settings>) -> Result {
    let ctx = contexts.ctx_mut()?;
    set_palette(ctx, settings.palette);
    game_keys::set_keymap(ctx, &settings.keys);
    if ctx.data(|d| d.get_temp::<bool>(fonts_id())).is_none() {
        ctx.set_fonts(fonts_with_arrows());
        ctx.data_mut(|d| d.insert_temp(fonts_id(), true));
    }
    if settings.is_changed() {
        // The scale is the setting's: egui's own Ctrl +/- zoom would be undone every frame.
        ctx.options_mut(|o| o.zoom_with_keyboard = false);
    }
    if (ctx.zoom_factor() - settings.ui_scale).abs() > f32::EPSILON {
        ctx.set_zoom_factor(settings.ui_scale);
    }
    Ok(())
}

fn fonts_id() -> egui::Id {
    egui::Id::new("warhorse-fonts")
}

/// egui's fonts with Hack after the text font: egui's text font (Ubuntu Light) has no arrows
/// (→ ← ↑ ↓), which the log, the card table and the fire window print, and drew each as a box
/// (issue 34). Hack, which egui ships for code, has them; as the last fallback of the text
/// family it lends only the glyphs the others lack.
pub fn fonts_with_arrows() -> egui::FontDefinitions {
    let mut fonts = egui::FontDefinitions::default();
    if let Some(family) = fonts.families.get_mut(&egui::FontFamily::Proportional)
        && !family.iter().any(|f| f == "Hack")
    {
        family.push("Hack".into());
    }
    fonts
}

fn palette_id() -> egui::Id {
    egui::Id::new("warhorse-palette")
}

/// Makes `palette` the one [`side_colour32`] reads in this egui context.
pub fn set_palette(ctx: &egui::Context, palette: Palette) {
    if ctx.data(|d| d.get_temp::<Palette>(palette_id())) != Some(palette) {
        ctx.data_mut(|d| d.insert_temp(palette_id(), palette));
    }
}

/// A side's colour on the map, in the player's palette.
pub fn side_colour(palette: Palette, side: u8) -> Color {
    let (r, g, b) = palette.rgb(side);
    Color::srgb(r, g, b)
}

/// A side's colour for text on the screens' dark panels: the map colour of the palette set
/// in `ctx` ([`set_palette`]; the standard one before any), lightened so it reads.
pub fn side_colour32(ctx: &egui::Context, side: u8) -> egui::Color32 {
    let palette = ctx
        .data(|d| d.get_temp::<Palette>(palette_id()))
        .unwrap_or_default();
    let [r, g, b] = light_rgb(palette, side);
    egui::Color32::from_rgb(r, g, b)
}

/// A side's colour lightened for dark backgrounds (text on panels, outlines on the map).
pub fn light_rgb(palette: Palette, side: u8) -> [u8; 3] {
    let (r, g, b) = palette.rgb(side);
    let to = |v: f32| ((v * 0.6 + 0.4).clamp(0.0, 1.0) * 255.0).round() as u8;
    [to(r), to(g), to(b)]
}

#[cfg(test)]
mod tests;
