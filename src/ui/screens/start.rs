//! The start screen: the level list (greyed with its errors when a file does not load), who
//! plays each side, the dice seed, and Start, Load game, Read the rules, Help, Settings and Quit.

use super::actions::{Overlays, ScreenAction, ScreenActions};
use super::ai_play::AiLevels;
use super::catalogue::{LevelEntry, catalogue, level_dirs};
use crate::ai::AiLevel;
use crate::level::Control;
use crate::ui::settings::side_colour32;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// What each AI strength means, for its tooltip.
pub fn ai_level_help(level: AiLevel) -> &'static str {
    match level {
        AiLevel::Table => {
            "Baseline: every unit rolls on the risk-factor table and does what it says \
             (nearest enemy, nearest cover, cheapest path)."
        }
        AiLevel::Lookahead => {
            "Stronger: obeys the same table, but while the side's leader or hero is in the \
             fight it chooses targets, cards and paths by looking ahead with the rules."
        }
        AiLevel::Commander => {
            "Commander: while the side's leader or hero is in the fight it is commanded, not \
             run by the table: it goes for the level's objectives and presses the attack, as a \
             player would; once the leader falls, it plays as the stronger level."
        }
        AiLevel::Foresight => {
            "Strongest: the commander, choosing each turn how its side moves (its leader's \
             orders, a rush, holding the objective, going round the flanks) by playing each \
             forward on copies of the battle as its side knows it, with dice of its own."
        }
    }
}

/// What the start screen shows and what the player has chosen on it.
#[derive(Resource, Clone, Debug, Default)]
pub struct StartForm {
    /// Every level found, the embedded default first.
    pub levels: Vec<LevelEntry>,
    /// Index into `levels` of the chosen one.
    pub selected: usize,
    /// Who plays each side of the chosen level.
    pub controls: Vec<Control>,
    /// How strongly each computer side plays.
    pub ai_levels: Vec<AiLevel>,
    /// The seed as typed.
    pub seed: String,
    /// The game that did not end cleanly last time (its autosave), offered for resuming.
    pub resume: Option<super::saves::SaveInfo>,
    /// The UDP port a game hosted here listens on, as typed.
    pub host_port: String,
}

impl StartForm {
    /// A form over `levels`: the first level that loads chosen, every side human, a seed
    /// from the clock.
    pub fn new(levels: Vec<LevelEntry>, seed: u64) -> StartForm {
        let selected = levels.iter().position(|l| l.level.is_ok()).unwrap_or(0);
        let mut f = StartForm {
            levels,
            selected,
            controls: Vec::new(),
            ai_levels: Vec::new(),
            seed: seed.to_string(),
            resume: None,
            host_port: super::hosting::DEFAULT_HOST_PORT.to_string(),
        };
        f.select(selected);
        f
    }

    /// Chooses a level (one that loads); its sides start out as the level file says
    /// (`control: Human` or `Ai`), computer sides at the baseline strength.
    pub fn select(&mut self, i: usize) {
        if let Some(Ok(l)) = self.levels.get(i).map(|e| &e.level) {
            self.selected = i;
            self.controls = l.file.sides.iter().map(|s| s.control).collect();
            self.ai_levels = vec![AiLevel::Table; l.file.sides.len()];
        }
    }

    /// The seed typed, or why it is not one.
    pub fn seed(&self) -> Result<u64, String> {
        self.seed
            .trim()
            .parse::<u64>()
            .map_err(|_| "the seed is a whole number from 0 to 18446744073709551615".into())
    }

    /// Why the form cannot start a game yet, if it cannot (checked every frame, cheaply).
    pub fn check(&self) -> Result<(), String> {
        let entry = self.levels.get(self.selected).ok_or("choose a level")?;
        entry.level.as_ref().map_err(|e| e.clone())?;
        self.seed().map(|_| ())
    }

    /// The Host action for the form as filled in (the level's file, who plays, the
    /// computer's strengths), or why it cannot start. The seed is not asked: the host draws
    /// one nobody sees.
    pub fn host_action(&self) -> Result<ScreenAction, String> {
        let entry = self.levels.get(self.selected).ok_or("choose a level")?;
        entry.level.as_ref().map_err(|e| e.clone())?;
        let port = self
            .host_port
            .trim()
            .parse::<u16>()
            .ok()
            .filter(|&p| p > 0)
            .ok_or("the host's port is a whole number from 1 to 65535")?;
        Ok(ScreenAction::Host {
            level_file: (entry.source != "built in").then(|| entry.source.clone()),
            controls: self.controls.clone(),
            strengths: self.ai_levels.clone(),
            port,
        })
    }

    /// The Start action for the form as filled in, or why it cannot start.
    pub fn start_action(&self) -> Result<ScreenAction, String> {
        self.check()?;
        let entry = self.levels.get(self.selected).ok_or("choose a level")?;
        let level = entry.level.as_ref().map_err(|e| e.clone())?;
        let controls = if self.controls.len() == level.file.sides.len() {
            self.controls.clone()
        } else {
            vec![Control::Human; level.file.sides.len()]
        };
        Ok(ScreenAction::Start(
            Box::new(level.clone()),
            self.seed()?,
            controls,
        ))
    }
}

/// Re-reads the levels (a file may have been fixed), draws a new seed and looks for a game
/// that crashed each time the start screen opens.
pub fn refresh_form(mut form: ResMut<StartForm>, dir: Res<super::saves::SaveDir>) {
    *form = StartForm::new(catalogue(&level_dirs()), super::seed_from_time());
    form.resume = super::saves::resumable(&dir.0);
}

/// The start screen's egui system.
pub fn draw_start(
    mut contexts: EguiContexts,
    mut form: ResMut<StartForm>,
    mut overlays: ResMut<Overlays>,
    mut actions: ResMut<ScreenActions>,
    mut levels: ResMut<AiLevels>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if let Some(a) = start_ui(ctx, &mut form, &mut overlays) {
        actions.0.push(a);
    }
    levels.set_if_neq(AiLevels(form.ai_levels.clone()));
    Ok(())
}

/// Draws the start screen over the whole window; returns the action a button asked for.
pub fn start_ui(
    ctx: &egui::Context,
    form: &mut StartForm,
    overlays: &mut Overlays,
) -> Option<ScreenAction> {
    let rect = ctx.viewport_rect();
    let mut action = None;
    egui::Area::new(egui::Id::new("warhorse-start"))
        .order(egui::Order::Background)
        .fixed_pos(rect.min)
        .constrain(false)
        .show(ctx, |ui| {
            ui.painter()
                .rect_filled(rect, 0.0, super::map_picture::BACKGROUND);
            ui.set_min_size(rect.size());
            ui.set_max_width(rect.width());
            egui::Frame::new()
                .inner_margin(egui::Margin::same(28))
                .show(ui, |ui| {
                    ui.heading(egui::RichText::new("Warhorse").size(34.0).strong());
                    ui.label("A turn-based tactical wargame of mounted and foot figures.");
                    if let Some(r) = &form.resume {
                        ui.add_space(8.0);
                        ui.horizontal(|ui| {
                            let line = match &r.summary {
                                Ok(t) => format!("Your last game did not end cleanly: {t}."),
                                Err(e) => format!("Your last game did not end cleanly ({e})."),
                            };
                            ui.label(line);
                            if ui.button("Resume it").clicked() {
                                action = Some(ScreenAction::Load(r.path.clone()));
                            }
                        });
                    }
                    ui.add_space(14.0);
                    let width = (rect.width() - 56.0).max(200.0);
                    ui.horizontal_top(|ui| {
                        ui.vertical(|ui| {
                            ui.set_width((width * 0.36).max(180.0));
                            level_list(ui, form);
                        });
                        ui.separator();
                        ui.vertical(|ui| {
                            ui.set_width((width * 0.6).max(200.0));
                            if let Some(a) = details(ui, form, overlays) {
                                action = Some(a);
                            }
                        });
                    });
                });
        });
    action
}

fn level_list(ui: &mut egui::Ui, form: &mut StartForm) {
    ui.strong("Level");
    egui::ScrollArea::vertical()
        .id_salt("levels")
        .max_height(ui.ctx().viewport_rect().height() - 180.0)
        .show(ui, |ui| {
            let mut pick = None;
            for (i, e) in form.levels.iter().enumerate() {
                match &e.level {
                    Ok(_) => {
                        let r = ui
                            .selectable_label(i == form.selected, &e.name)
                            .on_hover_text(&e.source);
                        if r.clicked() {
                            pick = Some(i);
                        }
                    }
                    Err(err) => {
                        ui.add_enabled(false, egui::Button::selectable(false, &e.name))
                            .on_disabled_hover_text(err);
                    }
                }
            }
            if let Some(i) = pick {
                form.select(i);
            }
        });
}

fn details(
    ui: &mut egui::Ui,
    form: &mut StartForm,
    overlays: &mut Overlays,
) -> Option<ScreenAction> {
    let mut action = None;
    if let Some(Ok(level)) = form.levels.get(form.selected).map(|e| &e.level) {
        let f = &level.file;
        // The words on the left, the map's picture on the right, so the form below keeps
        // its place at every window size.
        let picture_side = (ui.available_width() * 0.36).clamp(96.0, 300.0);
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.set_width(ui.available_width() - picture_side - 12.0);
                ui.heading(&f.name);
                if !f.description.is_empty() {
                    ui.label(&f.description);
                }
                ui.label(
                    egui::RichText::new(format!(
                        "{} ruleset, {}×{} {:?} map, {} figures",
                        f.ruleset,
                        f.width,
                        f.height,
                        level.rules.grid,
                        f.figures.len()
                    ))
                    .weak(),
                );
                // Issue 12: what each side must do, and which side to take in a first game.
                for side in &f.sides {
                    let goals: Vec<&str> = level
                        .victory
                        .objectives
                        .iter()
                        .filter(|o| {
                            f.sides.get(usize::from(o.side)).map(|s| &s.name) == Some(&side.name)
                        })
                        .map(|o| o.name.as_str())
                        .collect();
                    if !goals.is_empty() {
                        ui.label(format!("{}: {}.", side.name, goals.join("; ")));
                    }
                }
                ui.label(
                    egui::RichText::new(format!(
                        "{} turns at most.{}",
                        level.victory.turns,
                        f.suggested_side
                            .as_ref()
                            .map(|s| format!(" Suggested for a first game: {s}."))
                            .unwrap_or_default()
                    ))
                    .weak(),
                );
            });
            let ctx = ui.ctx().clone();
            let rgb = |side: u8| {
                let [r, g, b, _] = side_colour32(&ctx, side).to_array();
                [r, g, b]
            };
            super::map_picture::show(ui, level, &rgb, picture_side);
        });
        ui.add_space(10.0);
        ui.strong("Players");
        let sides: Vec<String> = f.sides.iter().map(|s| s.name.clone()).collect();
        for (i, name) in sides.iter().enumerate() {
            ui.horizontal(|ui| {
                let colour = side_colour32(ui.ctx(), i as u8);
                ui.add_sized(
                    [120.0, 18.0],
                    egui::Label::new(egui::RichText::new(name).color(colour).strong()),
                );
                if let Some(c) = form.controls.get_mut(i) {
                    ui.radio_value(c, Control::Human, "Human");
                    ui.radio_value(c, Control::Ai, "Computer");
                }
                let ai = form.controls.get(i) == Some(&Control::Ai);
                if let Some(l) = form.ai_levels.get_mut(i).filter(|_| ai) {
                    egui::ComboBox::from_id_salt(("ai-level", i))
                        .selected_text(l.label())
                        .show_ui(ui, |ui| {
                            for lv in AiLevel::ALL {
                                ui.selectable_value(l, lv, lv.label())
                                    .on_hover_text(ai_level_help(lv));
                            }
                        })
                        .response
                        .on_hover_text(ai_level_help(*l));
                }
            });
        }
        let humans = form
            .controls
            .iter()
            .filter(|c| **c == Control::Human)
            .count();
        let note = match humans {
            0 => "The computer plays every side: watch (Space fast-forwards).",
            1 => {
                "You play against the computer; its turns play out at a readable pace (Space fast-forwards, X explains a unit's decision)."
            }
            _ => {
                "Human sides play hot-seat at this computer: secret choices are handed over behind a screen."
            }
        };
        if sides.len() > 1 {
            ui.label(egui::RichText::new(note).weak());
        }
    }
    ui.add_space(10.0);
    ui.horizontal(|ui| {
        ui.strong("Seed");
        ui.add(egui::TextEdit::singleline(&mut form.seed).desired_width(180.0));
        if ui.button("New seed").clicked() {
            form.seed = super::seed_from_time().to_string();
        }
    });
    ui.label(
        egui::RichText::new("The same level, seed and orders always play the same game.").weak(),
    );
    let start = form.check();
    if let Err(why) = &start {
        ui.colored_label(egui::Color32::from_rgb(230, 120, 100), why);
    }
    ui.add_space(14.0);
    ui.horizontal_wrapped(|ui| {
        let big = |t: &str| egui::Button::new(egui::RichText::new(t).size(18.0));
        let start_button = egui::Button::new(egui::RichText::new("Start").size(18.0).strong())
            .fill(egui::Color32::from_rgb(40, 96, 60));
        if ui.add_enabled(start.is_ok(), start_button).clicked() {
            action = form.start_action().ok();
        }
        if ui.add(big("Tutorial")).clicked() {
            action = Some(ScreenAction::Tutorial);
        }
        if ui.add(big("Load game…")).clicked() {
            action = Some(ScreenAction::OpenLoad);
        }
        let host = form.host_action();
        let host_words = match &host {
            Ok(_) => "Play this level with someone at another machine: this window hosts it \
                      and shows the join code to give them (the first Human side is yours)"
                .to_string(),
            Err(why) => format!("Cannot host: {why}"),
        };
        if ui
            .add_enabled(host.is_ok(), big("Host"))
            .on_hover_text(&host_words)
            .on_disabled_hover_text(&host_words)
            .clicked()
        {
            action = host.ok();
        }
        ui.label("on port")
            .on_hover_text("The UDP port the host listens on: open it on this machine's firewall");
        ui.add(
            egui::TextEdit::singleline(&mut form.host_port)
                .desired_width(52.0)
                .char_limit(5),
        )
        .on_hover_text("The UDP port the host listens on: open it on this machine's firewall");
        if ui
            .add(big("Join a game…"))
            .on_hover_text("Play a game another machine hosts, with the join code it shows")
            .clicked()
        {
            action = Some(ScreenAction::OpenJoin);
        }
        if ui
            .add(big("By email…"))
            .on_hover_text(
                "Play with someone by sending turn files: begin a game of this level, open a \
                 file the other player sent, or take up a game under way",
            )
            .clicked()
        {
            action = Some(ScreenAction::OpenEmail);
        }
        if ui.add(big("Read the rules")).clicked() {
            overlays.rules = true;
        }
        if ui.add(big("Help")).clicked() {
            overlays.help = !overlays.help;
        }
        if ui.add(big("Settings")).clicked() {
            overlays.settings = !overlays.settings;
        }
        if ui.add(big("Quit")).clicked() {
            action = Some(ScreenAction::Quit);
        }
    });
    action
}

/// Adds the start screen: its form, refreshed each time it opens, and its drawing.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<StartForm>()
        .add_systems(OnEnter(super::Screen::Start), refresh_form)
        .add_systems(
            bevy_egui::EguiPrimaryContextPass,
            draw_start
                .run_if(in_state(super::Screen::Start))
                .in_set(super::DrawLayer::Screen),
        );
}
