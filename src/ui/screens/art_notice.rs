//! Tells the player which art or sound files could not be loaded (a broken or missing file in
//! `assets/art/`, say from a mod), instead of leaving an empty counter nobody can explain.

use crate::ui::art::ArtProblems;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// Shows [`ArtProblems`] until the player dismisses them.
pub fn draw_art_problems(
    mut contexts: EguiContexts,
    problems: Option<ResMut<ArtProblems>>,
) -> Result {
    let Some(mut problems) = problems else {
        return Ok(());
    };
    if problems.lines.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    if art_problems_ui(ctx, &problems.lines) {
        problems.lines.clear();
    }
    Ok(())
}

/// The notice's window; true when dismissed.
pub fn art_problems_ui(ctx: &egui::Context, lines: &[String]) -> bool {
    let mut dismissed = false;
    egui::Window::new("Some files in assets/ could not be loaded")
        .id(egui::Id::new("warhorse-art-problems"))
        .collapsible(false)
        .anchor(egui::Align2::RIGHT_BOTTOM, [-12.0, -12.0])
        .show(ctx, |ui| {
            ui.label("These files in assets/ were skipped; the game goes on without them:");
            for line in lines.iter().take(8) {
                ui.label(egui::RichText::new(line).monospace().small());
            }
            if lines.len() > 8 {
                ui.label(format!("… and {} more (see the log).", lines.len() - 8));
            }
            dismissed = ui.button("Dismiss").clicked();
        });
    dismissed
}

/// Adds the notice of art files that did not load, over everything but the settings.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        bevy_egui::EguiPrimaryContextPass,
        draw_art_problems.in_set(super::DrawLayer::Top),
    );
}
