//! The By email form (on the start screen, and over a game by email while the other
//! player's file is awaited) and the games under way it lists.

use super::{ByEmail, STATE_FILE, email_dir};
use crate::net::pbem::{Pbem, Status};
use crate::ui::screens::Screen;
use crate::ui::screens::actions::{ScreenAction, ScreenActions};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use std::path::{Path, PathBuf};

/// The By email form on the start screen.
#[derive(Resource, Clone, Debug, Default)]
pub struct EmailForm {
    /// Shown.
    pub open: bool,
    /// The side to play in a game begun here (the other player plays the rest).
    pub side: u8,
    /// The path of a turn file to open, as typed.
    pub path: String,
    /// Why the last try failed, in words.
    pub error: Option<String>,
    /// The games under way, read when the form opened.
    pub games: Vec<EmailGame>,
    /// The last turn file this window wrote, to send: the form shows where it is.
    pub written: Option<PathBuf>,
}

/// One game by email under way, as the form lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmailGame {
    /// Its folder.
    pub folder: PathBuf,
    /// The level, the side played and what comes next, in words.
    pub words: String,
}

/// The sides a player plays, by name.
pub(super) fn sides_words(p: &Pbem) -> String {
    let names: Vec<String> = p
        .my_sides()
        .iter()
        .filter_map(|&s| p.level().file.sides.get(usize::from(s)))
        .map(|s| s.name.clone())
        .collect();
    names.join(" and ")
}

/// What comes next in a game, in words.
fn next_words(p: &mut Pbem) -> String {
    let seq = p.next_seq();
    match p.status() {
        Status::YourOrders => "your orders are awaited".into(),
        Status::WriteNow => format!("your turn file {seq} is to be written"),
        Status::TheirFile => format!("waiting for the other player's turn file {seq}"),
        Status::Over(why) => format!("the battle is over: {why}"),
    }
}

/// Every game under way in `dir`, newest first.
fn list_games(dir: &Path) -> Vec<EmailGame> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<(std::time::SystemTime, EmailGame)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|f| f.join(STATE_FILE).is_file())
        .map(|folder| {
            let state = folder.join(STATE_FILE);
            let when = std::fs::metadata(&state)
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            let words = match Pbem::load(&state) {
                Ok(mut p) => {
                    let next = next_words(&mut p);
                    let name = &p.level().file.name;
                    format!("{name}: you play {}; {next}.", sides_words(&p))
                }
                Err(e) => format!("{}: {e}", folder.display()),
            };
            (when, EmailGame { folder, words })
        })
        .collect();
    found.sort_by_key(|g| std::cmp::Reverse(g.0));
    found.into_iter().map(|(_, g)| g).collect()
}

/// The form's words for a failure; the form opens to show them.
pub(super) fn fail(world: &mut World, words: String) {
    let mut form = world.resource_mut::<EmailForm>();
    form.open = true;
    form.error = Some(words);
}

/// Opens the form, the games under way listed afresh.
pub(in crate::ui::screens) fn open_form(world: &mut World) {
    let games = list_games(&email_dir(world));
    let mut form = world.resource_mut::<EmailForm>();
    form.open = true;
    form.games = games;
}

/// Draws the By email form over the start screen.
pub fn draw_form(
    mut contexts: EguiContexts,
    mut form: ResMut<EmailForm>,
    start: Res<crate::ui::screens::start::StartForm>,
    mut actions: ResMut<ScreenActions>,
    screen: Res<State<Screen>>,
) -> Result {
    if !form.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    // Over a game, the form opens the other player's file; games are begun on the start screen.
    let level = start
        .levels
        .get(start.selected)
        .and_then(|e| e.level.as_ref().ok());
    egui::Window::new("Play by email")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .open(&mut open)
        .show(ctx, |ui| {
            ui.label(
                "Two players, one turn file each way at a time: each file carries its orders, \
                 face-down choices sealed until both are bound, and the dice both players \
                 made. An altered, reused or skipped file is refused.",
            );
            ui.separator();
            match level {
                _ if *screen.get() != Screen::Start => {}
                Some(level) => {
                    ui.strong(format!("Begin a game of {}", level.file.name));
                    ui.horizontal_wrapped(|ui| {
                        ui.label("You play:");
                        for (i, s) in level.file.sides.iter().enumerate() {
                            ui.radio_value(&mut form.side, i as u8, &s.name);
                        }
                    });
                    if ui.button("Begin and write turn file 1").clicked() {
                        actions.0.push(ScreenAction::EmailBegin {
                            level: Box::new(level.clone()),
                            side: form.side,
                        });
                    }
                }
                None => {
                    ui.label("Choose a level on the start screen to begin a game of it.");
                }
            }
            if *screen.get() == Screen::Start {
                ui.separator();
            }
            ui.strong("Open a turn file the other player sent");
            ui.horizontal(|ui| {
                ui.add(
                    egui::TextEdit::singleline(&mut form.path)
                        .desired_width(320.0)
                        .hint_text("/home/you/Downloads/turn-002.json"),
                );
                let ok = !form.path.trim().is_empty();
                if ui.add_enabled(ok, egui::Button::new("Open")).clicked() {
                    actions
                        .0
                        .push(ScreenAction::EmailOpen(PathBuf::from(form.path.trim())));
                }
            });
            if let Some(e) = &form.error {
                ui.colored_label(egui::Color32::from_rgb(230, 120, 100), e);
            }
            if let Some(w) = &form.written {
                ui.label(format!(
                    "The last turn file written, to send: {}",
                    w.display()
                ));
            }
            if !form.games.is_empty() {
                ui.separator();
                ui.strong("Your games by email");
                egui::ScrollArea::vertical()
                    .max_height(180.0)
                    .show(ui, |ui| {
                        for g in &form.games {
                            ui.horizontal(|ui| {
                                if ui.button("Take up").clicked() {
                                    actions.0.push(ScreenAction::EmailResume(g.folder.clone()));
                                }
                                ui.label(&g.words);
                            });
                        }
                    });
            }
        });
    if !open {
        form.open = false;
        form.error = None;
    }
    Ok(())
}

/// While the other player's file is awaited, a button at the right of the top bar opens it
/// without leaving the board.
pub fn draw_open_button(
    mut contexts: EguiContexts,
    by: Option<Res<ByEmail>>,
    form: Res<EmailForm>,
    mut actions: ResMut<ScreenActions>,
) -> Result {
    if !by.is_some_and(|b| b.waiting) || form.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    egui::Area::new(egui::Id::new("warhorse-email-open"))
        .anchor(egui::Align2::RIGHT_TOP, [-8.0, 2.0])
        .show(ctx, |ui| {
            if ui
                .button("Open their turn file…")
                .on_hover_text("Open the file the other player sent in answer to yours")
                .clicked()
            {
                actions.0.push(ScreenAction::OpenEmail);
            }
        });
    Ok(())
}
