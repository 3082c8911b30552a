//! In a game: the Esc menu (Save, Load, Rules, Help, Quit to start screen), the save and load
//! dialogs, error messages, the help overlay, the rules window, short notices, and the keys
//! that open them. Drawing only edits [`Overlays`] and queues [`ScreenAction`]s.

use super::Screen;
use super::actions::{Dialog, Overlays, ScreenAction, ScreenActions, ScreenView};
use super::card_table::show_cards;
use super::cards::{CardsAnswer, Picks};
use super::handover::{Handover, show_handover};
use super::keys::{BINDINGS, contexts};
use super::rules_reader::RulesReader;
use super::saves::SaveInfo;
use crate::ui::art::CounterArt;
use crate::ui::play::Selection;
use crate::ui::settings::game_keys::{GameKeys, with_key};
use crate::ui::settings::keymap::Command;
use crate::ui::settings::side_colour32;
use bevy::input::keyboard::Key;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiTextureHandle, egui};

/// F1 or ? help, F2 rules, F3 settings, Esc closes the topmost overlay or opens the menu (when no figure
/// is selected: then Esc is the in-game cancel), Ctrl+S saves (the F keys and Ctrl+S are the
/// standard keys of commands the player may change). Keys typed into a text field (a save
/// name, the seed) are egui's, not these.
pub fn hotkeys(
    game_keys: GameKeys,
    logical: Option<Res<ButtonInput<Key>>>,
    screen: Res<State<Screen>>,
    handover: Res<Handover>,
    selection: Option<Res<Selection>>,
    mut overlays: ResMut<Overlays>,
    mut actions: ResMut<ScreenActions>,
) {
    let Some(keys) = game_keys.live() else { return };
    if handover.screen_up() {
        return;
    }
    let question = logical.is_some_and(|l| l.just_pressed(Key::Character("?".into())));
    if game_keys.just(Command::Help) || question {
        overlays.help = !overlays.help;
    }
    if game_keys.just(Command::Rules) {
        overlays.rules = !overlays.rules;
    }
    if game_keys.just(Command::Settings) {
        overlays.settings = !overlays.settings;
    }
    let playing = *screen.get() == Screen::Playing;
    if keys.just_pressed(KeyCode::Escape) {
        if overlays.dialog.is_some() {
            overlays.dialog = None;
        } else if overlays.settings {
            overlays.settings = false;
        } else if overlays.rules {
            overlays.rules = false;
        } else if overlays.help {
            overlays.help = false;
        } else if playing && (overlays.menu || selection.is_none_or(|s| *s == Selection::default()))
        {
            overlays.menu = !overlays.menu;
        }
    }
    if playing && game_keys.just(Command::QuickSave) {
        actions.0.push(ScreenAction::QuickSave);
    }
}

/// The in-game egui system; see [`playing_ui`].
pub fn draw_playing(
    mut contexts: EguiContexts,
    view: Res<ScreenView>,
    handover: Res<Handover>,
    mut overlays: ResMut<Overlays>,
    mut picks: ResMut<Picks>,
    mut actions: ResMut<ScreenActions>,
    effects: Option<Res<crate::ui::effects::EffectsPlaying>>,
    mut table: ResMut<super::chooser_map::TableRect>,
    battle: Res<super::battle::BattleScreens>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // The results of the last round play on the map before the next card table covers it.
    if effects.is_some_and(|e| e.0) && view.cards.is_some() {
        table.set_if_neq(super::chooser_map::TableRect::default());
        return Ok(());
    }
    // A briefing or the end screen is read first: the card table waits behind it.
    let briefing = battle.briefing.is_some() || battle.end;
    let asked = playing_ui(ctx, &view, &handover, &mut overlays, &mut picks, briefing);
    actions.0.extend(asked);
    // Where the table lies now, for `chooser_map::keep_in_view`.
    // A window's rect while it is on screen (egui keeps the last one of a closed window).
    let rect = |id: &str| {
        let id = egui::Id::new(id);
        ctx.memory(|m| {
            m.areas()
                .visible_last_frame(&egui::LayerId::new(egui::Order::Middle, id))
                .then(|| m.area_rect(id))
                .flatten()
        })
        .map(|r| Rect::new(r.min.x, r.min.y, r.max.x, r.max.y))
    };
    let up =
        view.cards.is_some() && handover.waiting_for.is_none() && !overlays.blocking() && !briefing;
    table.set_if_neq(super::chooser_map::TableRect {
        table: rect("warhorse-cards").filter(|_| up),
        aside: ["objectives-panel", "Tutorial"]
            .into_iter()
            .filter_map(|id| rect(id).filter(|_| up))
            .collect(),
    });
    Ok(())
}

/// Draws a game's screens: the hand-over screen alone while it is up (nothing of the board,
/// the cards or the menu shows), otherwise the card overlay (not while the menu, a dialog or,
/// when `briefing`, a briefing or the end screen covers it) and the menu.
pub fn playing_ui(
    ctx: &egui::Context,
    view: &ScreenView,
    handover: &Handover,
    overlays: &mut Overlays,
    picks: &mut Picks,
    briefing: bool,
) -> Vec<ScreenAction> {
    let mut out = Vec::new();
    if let Some(next) = handover.waiting_for {
        let name = view
            .side_names
            .get(usize::from(next))
            .cloned()
            .unwrap_or_else(|| format!("side {}", u16::from(next) + 1));
        if show_handover(ctx, &name, side_colour32(ctx, next)) {
            out.push(ScreenAction::AcceptHandover);
        }
        return out;
    }
    if let Some(overlay) = view
        .cards
        .as_ref()
        .filter(|_| !overlays.blocking() && !briefing)
    {
        let free = crate::ui::play::panels::free_area(ctx);
        match show_cards(ctx, overlay, picks, free) {
            Some(CardsAnswer::Play(p)) => out.push(ScreenAction::PlayCards(p)),
            Some(CardsAnswer::Guess(due, dir)) => out.push(ScreenAction::Guess(due, dir)),
            Some(CardsAnswer::PassRest) => out.push(ScreenAction::PassMelee(overlay.side)),
            None => {}
        }
    }
    if overlays.menu && overlays.dialog.is_none() {
        out.extend(menu_ui(ctx, view, overlays));
    }
    out
}

/// The Esc menu; returns the action chosen.
pub fn menu_ui(
    ctx: &egui::Context,
    view: &ScreenView,
    overlays: &mut Overlays,
) -> Option<ScreenAction> {
    let mut action = None;
    egui::Window::new("Game menu")
        .id(egui::Id::new("warhorse-menu"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label(format!(
                "{} — turn {}, {}",
                view.level_name, view.turn, view.phase
            ));
            ui.add_space(6.0);
            let wide = |ui: &mut egui::Ui, t: &str| {
                ui.add_sized([220.0, 28.0], egui::Button::new(t)).clicked()
            };
            ui.vertical_centered(|ui| {
                if wide(ui, "Resume (Esc)") {
                    overlays.menu = false;
                }
                if wide(ui, "Save…") {
                    overlays.dialog = Some(Dialog::Save {
                        name: format!("turn {}", view.turn),
                        error: None,
                    });
                }
                if wide(ui, "Load…") {
                    action = Some(ScreenAction::OpenLoad);
                }
                if wide(ui, &with_key(ui.ctx(), Command::Rules, "Rules")) {
                    overlays.rules = true;
                    // Opened from the menu, it is what the player wants to read: the menu
                    // closes rather than cover it.
                    overlays.menu = false;
                }
                if wide(ui, &with_key(ui.ctx(), Command::Help, "Help")) {
                    overlays.help = true;
                    overlays.menu = false;
                }
                if wide(ui, &with_key(ui.ctx(), Command::Settings, "Settings")) {
                    overlays.settings = true;
                    overlays.menu = false;
                }
                if wide(ui, "Quit to start screen") {
                    overlays.menu = false;
                    overlays.dialog = Some(Dialog::Confirm {
                        title: "Leave the battle?".into(),
                        text: if view.kept_elsewhere {
                            format!(
                                "Leave {} for the start screen? The game is kept where it is \
                                 played: join its host again with the same code, or take a \
                                 game by email up again from By email….",
                                view.level_name
                            )
                        } else {
                            format!(
                                "Leave {} for the start screen? What has not been saved is \
                                 lost: Save… in this menu keeps the battle to come back to.",
                                view.level_name
                            )
                        },
                        yes: "Leave the battle".into(),
                        then: super::Confirmed::QuitToStart,
                        armed: false,
                    });
                }
            });
        });
    action
}

/// The egui system for what both screens share; see [`common_ui`].
pub fn draw_common(
    mut contexts: EguiContexts,
    mut overlays: ResMut<Overlays>,
    mut actions: ResMut<ScreenActions>,
    time: Res<Time>,
    mut rules: Local<RulesReader>,
    art: Option<Res<CounterArt>>,
) -> Result {
    // The legend's pictures are the counters' own files, lent to egui while help is open.
    let legend: Vec<Legend> = match (&art, overlays.help) {
        (Some(art), true) => crate::ui::look::Symbol::ALL
            .iter()
            .map(|s| Legend {
                image: Some(contexts.add_image(EguiTextureHandle::Weak(art.symbol(*s).id()))),
                meaning: s.legend().1,
            })
            .collect(),
        _ => Vec::new(),
    };
    let ctx = contexts.ctx_mut()?;
    let asked = common_ui(
        ctx,
        &mut overlays,
        time.elapsed_secs_f64(),
        &mut rules,
        &legend,
    );
    actions.0.extend(asked);
    Ok(())
}

/// One troop symbol of the help's legend: its picture (once egui has it) and meaning.
#[derive(Clone, Copy, Debug)]
pub struct Legend {
    /// The symbol's image, lent to egui.
    pub image: Option<egui::TextureId>,
    /// What it stands for.
    pub meaning: &'static str,
}

/// Draws the dialogs, the help overlay (with the symbols' `legend`), the rules window (read
/// by `rules`) and the notice, at time `now` (seconds), on either screen.
pub fn common_ui(
    ctx: &egui::Context,
    overlays: &mut Overlays,
    now: f64,
    rules: &mut RulesReader,
    legend: &[Legend],
) -> Option<ScreenAction> {
    if overlays.rules {
        rules_ui(ctx, &mut overlays.rules, rules);
    }
    if overlays.help {
        help_ui(ctx, &mut overlays.help, legend);
    }
    let action = dialog_ui(ctx, overlays);
    if overlays
        .notice
        .as_ref()
        .is_some_and(|(_, until)| *until < now)
    {
        overlays.notice = None;
    }
    if let Some((text, _)) = &overlays.notice {
        notice_ui(ctx, text);
    }
    action
}

/// The rules window: `docs/rules.md`, scrollable.
pub fn rules_ui(ctx: &egui::Context, open: &mut bool, rules: &mut RulesReader) {
    let screen = ctx.viewport_rect();
    let size = egui::vec2(900.0_f32.min(screen.width() - 40.0), screen.height() - 80.0);
    egui::Window::new("Rules")
        .id(egui::Id::new("warhorse-rules"))
        .open(open)
        .default_rect(egui::Rect::from_center_size(
            screen.center(),
            size.max(egui::vec2(200.0, 200.0)),
        ))
        .show(ctx, |ui| {
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .show(ui, |ui| rules.show(ui));
        });
}

/// The help overlay: every binding of [`BINDINGS`], grouped, and the legend of the counters:
/// how to read one, the troop symbols (`legend`) and the condition marks. It fits the window
/// (a 1280×800 one whole, a smaller one scrolls) and closes with its × button, F1, ? or Esc.
pub fn help_ui(ctx: &egui::Context, open: &mut bool, legend: &[Legend]) {
    let screen = ctx.viewport_rect();
    let mut close = false;
    egui::Window::new("Keys and mouse")
        .id(egui::Id::new("warhorse-help"))
        .open(open)
        .collapsible(false)
        .default_width(600.0_f32.min(screen.width() - 24.0))
        .max_width(screen.width() - 24.0)
        .max_height(screen.height() - 40.0)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            egui::ScrollArea::vertical()
                .max_height(screen.height() - 120.0)
                .show(ui, |ui| {
                    egui::Grid::new("help-columns")
                        .num_columns(2)
                        .spacing([20.0, 0.0])
                        .show(ui, |ui| {
                            let groups = contexts();
                            let half = groups.len().div_ceil(2);
                            for column in [&groups[..half], &groups[half..]] {
                                ui.vertical(|ui| {
                                    for group in column {
                                        help_group(ui, group);
                                    }
                                });
                            }
                            ui.end_row();
                        });
                    ui.add_space(6.0);
                    counter_legend(ui, legend);
                    ui.add_space(6.0);
                    ui.strong("Marks on the counters");
                    egui::Grid::new("help-marks")
                        .num_columns(2)
                        .spacing([16.0, 2.0])
                        .show(ui, |ui| {
                            for (mark, meaning, _) in crate::ui::look::BADGES {
                                ui.label(egui::RichText::new(mark).monospace().strong());
                                ui.label(meaning);
                                ui.end_row();
                            }
                        });
                });
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                close = ui.button("Close").clicked();
                let help = crate::ui::settings::game_keys::key_text(ui.ctx(), Command::Help);
                let keys = if help.is_empty() {
                    "? or Esc".to_string()
                } else {
                    format!("{help}, ? or Esc")
                };
                ui.label(egui::RichText::new(format!("{keys} closes this too.")).weak());
            });
        });
    if close {
        *open = false;
    }
}

/// How to read a counter, and the troop symbols with their pictures.
pub(crate) fn counter_legend(ui: &mut egui::Ui, legend: &[Legend]) {
    // As wide as the keys above it at most: the lines wrap rather than widen the help.
    ui.vertical(|ui| {
        ui.set_max_width(560.0);
        ui.strong("Reading a counter");
        for line in COUNTER_PARTS {
            ui.add(egui::Label::new(line).wrap());
        }
        if legend.is_empty() {
            return;
        }
        ui.add_space(4.0);
        ui.strong("Troop symbols");
        egui::Grid::new("help-symbols")
            .num_columns(4)
            .spacing([10.0, 2.0])
            .show(ui, |ui| {
                for (i, row) in legend.iter().enumerate() {
                    match row.image {
                        Some(id) => {
                            // On the counter's cream plate, as the symbol is printed.
                            let size = egui::vec2(28.0, 28.0);
                            egui::Frame::new()
                                .fill(egui::Color32::from_rgb(243, 234, 211))
                                .corner_radius(3)
                                .inner_margin(2)
                                .show(ui, |ui| {
                                    ui.add(egui::Image::new(egui::load::SizedTexture::new(
                                        id, size,
                                    )))
                                });
                        }
                        None => {
                            ui.label("");
                        }
                    }
                    ui.label(row.meaning);
                    if i % 2 == 1 {
                        ui.end_row();
                    }
                }
            });
    });
}

/// The parts of a counter, top to bottom, for the legend.
pub const COUNTER_PARTS: [&str; 5] = [
    "Colour and the shield at top left: the side (the shield's charge differs by side).",
    "Gold star at top right: a leader or hero. Letter at top: the horse's gait (H W T C G).",
    "Middle: the troop symbol. Left of it, red and orange dots: the rider and the horse are hurt; right of it, the hoof: moved this half-move.",
    "Bottom row: blows left, armour, movement left (cells).",
    "Pale arrow head outside the edge: the front, the way the figure (or its horse) faces.",
];

fn help_group(ui: &mut egui::Ui, group: &str) {
    let keymap = crate::ui::settings::game_keys::keymap_of(ui.ctx());
    ui.add_space(4.0);
    ui.strong(group);
    egui::Grid::new(("help", group))
        .num_columns(2)
        .spacing([14.0, 2.0])
        .striped(true)
        .show(ui, |ui| {
            for b in BINDINGS.iter().filter(|b| b.context == group) {
                ui.label(egui::RichText::new(b.input_text(&keymap)).monospace());
                // Long descriptions wrap, so the two columns fit a 1280-wide window.
                ui.scope(|ui| {
                    ui.set_max_width(300.0);
                    ui.add(egui::Label::new(b.action).wrap());
                });
                ui.end_row();
            }
        });
}

fn save_row(ui: &mut egui::Ui, s: &SaveInfo) -> bool {
    let mut clicked = false;
    ui.horizontal(|ui| match &s.summary {
        Ok(summary) => {
            clicked = ui.button(&s.name).clicked();
            ui.label(egui::RichText::new(summary).weak());
        }
        Err(why) => {
            // Still loadable on purpose: loading shows the full error in a dialog.
            clicked = ui
                .button(egui::RichText::new(&s.name).weak())
                .on_hover_text(why)
                .clicked();
            ui.label(egui::RichText::new("cannot be read — click for why").weak());
        }
    });
    clicked
}

/// The save, load and message dialogs; returns the action asked for.
pub fn dialog_ui(ctx: &egui::Context, overlays: &mut Overlays) -> Option<ScreenAction> {
    let mut action = None;
    let mut close = false;
    let window = |title: &str| {
        egui::Window::new(title.to_string())
            .id(egui::Id::new("warhorse-dialog"))
            .collapsible(false)
            .resizable(false)
            .order(egui::Order::Foreground)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
    };
    match &mut overlays.dialog {
        None => {}
        Some(Dialog::Save { name, error }) => {
            window("Save game").show(ctx, |ui| {
                ui.label("Name (saved in saves/):");
                // Enter saves and Esc cancels wherever the focus is; read before the text
                // field, which consumes them.
                let enter = ui.input(|i| i.key_pressed(egui::Key::Enter));
                close = ui.input(|i| i.key_pressed(egui::Key::Escape));
                let edit = ui.text_edit_singleline(name);
                if !edit.has_focus() && ui.memory(|m| m.focused().is_none()) {
                    edit.request_focus();
                }
                if let Some(e) = error {
                    ui.colored_label(egui::Color32::from_rgb(230, 120, 100), e.as_str());
                }
                ui.horizontal(|ui| {
                    if ui.button("Save").clicked() || enter {
                        action = Some(ScreenAction::Save(name.clone()));
                    }
                    close |= ui.button("Cancel").clicked();
                });
            });
        }
        Some(Dialog::Load(saves)) => {
            window("Load game").show(ctx, |ui| {
                if saves.is_empty() {
                    ui.label("There are no saves in saves/ yet.");
                }
                egui::ScrollArea::vertical()
                    .max_height(360.0)
                    .show(ui, |ui| {
                        for s in saves.iter() {
                            if save_row(ui, s) {
                                action = Some(ScreenAction::Load(s.path.clone()));
                            }
                        }
                    });
                close = ui.button("Cancel").clicked();
            });
        }
        Some(Dialog::Reveal(reveal)) => {
            close = super::reveal::reveal_ui(ctx, reveal);
        }
        Some(Dialog::Confirm {
            title,
            text,
            yes,
            then,
            armed,
        }) => {
            let enter = *armed && ctx.input(|i| i.key_pressed(egui::Key::Enter));
            window(title).show(ctx, |ui| {
                ui.set_max_width(520.0);
                ui.label(text.as_str());
                ui.add_space(6.0);
                ui.horizontal(|ui| {
                    if ui.button(format!("{yes} (Enter)")).clicked() || enter {
                        action = Some(ScreenAction::Confirmed(then.clone()));
                        close = true;
                    }
                    close |= ui.button("Cancel (Esc)").clicked();
                });
            });
            *armed = true;
        }
        Some(Dialog::Message { title, text, armed }) => {
            let enter = *armed && ctx.input(|i| i.key_pressed(egui::Key::Enter));
            window(title).show(ctx, |ui| {
                ui.set_max_width(640.0);
                egui::ScrollArea::vertical()
                    .max_height(420.0)
                    .show(ui, |ui| ui.label(text.as_str()));
                close = ui.button("OK (Enter)").clicked() || enter;
            });
            *armed = true;
        }
    }
    if close {
        overlays.dialog = None;
    }
    action
}

fn notice_ui(ctx: &egui::Context, text: &str) {
    egui::Area::new(egui::Id::new("warhorse-notice"))
        .order(egui::Order::Foreground)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 12.0])
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| ui.label(text));
        });
}

/// Adds the screen keys, the game's panels and hand-over screen, and the overlays drawn
/// over everything (help, rules, the menu, its dialogs, notices).
pub(super) fn plugin(app: &mut App) {
    // The board's questions: registered here too, for the screens without the play logic.
    app.add_message::<crate::ui::play::AskFirst>()
        .add_systems(Update, hotkeys.in_set(super::ScreensSet::Keys))
        .add_systems(
            Update,
            super::actions::ask_first.after(crate::ui::play::PlaySet::Actions),
        )
        .add_systems(
            bevy_egui::EguiPrimaryContextPass,
            (
                draw_playing
                    .run_if(in_state(Screen::Playing))
                    .in_set(super::DrawLayer::Screen),
                draw_common.in_set(super::DrawLayer::Menu),
            ),
        );
}
