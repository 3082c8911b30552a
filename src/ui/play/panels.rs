//! The egui panels: the turn bar (turn, phase, who moves, this turn's initiative rolls), the
//! figure card with the order buttons, the log with every line and its die roll, the status
//! line and the refusal banner. They only read views of the game and write [`PlayAction`]s.

use super::card::{CardData, FigureCard, card_of};
use super::reach_view::{CurrentPreview, CurrentReach};
use super::{Feedback, Hover, Mode, PlayAction, Selection};
use crate::rules::gait::Gait;
use crate::rules::movement::Hand;
use crate::ui::bridge::{GameView, Mirror, Mirrors};
use crate::ui::settings::game_keys::{key_text, keyed, with_key};
use crate::ui::settings::keymap::Command;
use crate::ui::settings::{Fractions, Settings};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// Draws the panels.
pub struct PanelsPlugin;

impl Plugin for PanelsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<UiRects>()
            .add_systems(EguiPrimaryContextPass, draw_panels);
    }
}

/// Where the panels are, in window pixels (y down): clicks there are not map clicks, and
/// the camera fits the map into the rest.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct UiRects {
    /// The panels' rectangles.
    pub panels: Vec<Rect>,
    /// Width taken on the left.
    pub left: f32,
    /// Height taken at the top.
    pub top: f32,
    /// Height taken at the bottom.
    pub bottom: f32,
}

impl UiRects {
    /// Whether window point `p` is on a panel.
    pub fn covers(&self, p: Vec2) -> bool {
        self.panels.iter().any(|r| r.contains(p))
    }

    /// The part of a window of `size` the panels leave to the map.
    pub fn free_area(&self, size: Vec2) -> Rect {
        Rect::new(
            self.left,
            self.top,
            size.x,
            (size.y - self.bottom).max(self.top),
        )
    }
}

fn free_area_id() -> egui::Id {
    egui::Id::new("warhorse-free-area")
}

/// The part of the screen the panels leave to the map, in egui points, as the panels last
/// drew it (the whole screen before they have): overlays that must not hide the log or the
/// figure panel stay inside it.
pub fn free_area(ctx: &egui::Context) -> egui::Rect {
    ctx.data(|d| d.get_temp(free_area_id()))
        .unwrap_or_else(|| ctx.viewport_rect())
}

fn to_rect(r: egui::Rect) -> Rect {
    Rect::new(r.min.x, r.min.y, r.max.x, r.max.y)
}

const RED: egui::Color32 = egui::Color32::from_rgb(255, 120, 110);
const GOLD: egui::Color32 = egui::Color32::from_rgb(240, 205, 110);

/// One frame of the panels.
fn draw_panels(
    mut contexts: EguiContexts,
    view: Res<GameView>,
    selection: Res<Selection>,
    preview: Res<CurrentPreview>,
    reach: Res<CurrentReach>,
    hover: Res<Hover>,
    feedback: Res<Feedback>,
    time: Res<Time>,
    index: Res<Mirrors>,
    settings: Option<Res<Settings>>,
    lock: Option<Res<super::OrderLock>>,
    figures: Query<CardData, With<Mirror>>,
    mut rects: ResMut<UiRects>,
    mut actions: MessageWriter<PlayAction>,
) {
    if view.side_names.is_empty() {
        rects.set_if_neq(UiRects::default());
        return;
    }
    let fractions = settings.map_or_else(Fractions::default, |s| s.fractions);
    // No egui context yet (the camera is not up): nothing to draw this frame.
    let Ok(ctx) = contexts.ctx_mut() else {
        return;
    };
    let mut root = egui::Ui::new(
        ctx.clone(),
        "play".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    let mut out = Vec::new();
    let top = egui::Panel::top("turn_bar")
        .show(&mut root, |ui| {
            let lock = lock.as_ref().and_then(|l| l.0.as_deref());
            turn_bar(ui, &view, lock, &mut out)
        })
        .response
        .rect;
    let bottom = egui::Panel::bottom("log")
        .exact_size(190.0)
        .show(&mut root, |ui| {
            let lock = lock.as_ref().and_then(|l| l.0.as_deref());
            log_panel(ui, &view, &feedback, lock)
        })
        .response
        .rect;
    let card = selection
        .unit
        .as_ref()
        .and_then(|u| index.0.get(u))
        .and_then(|&e| card_of(&figures, e));
    let left = egui::Panel::left("card")
        .exact_size(290.0)
        .resizable(false)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                card_panel(
                    ui,
                    &view,
                    card.as_ref(),
                    &selection,
                    &reach,
                    &preview,
                    &hover,
                    fractions,
                    &mut out,
                );
            });
        })
        .response
        .rect;
    if feedback
        .toast_until
        .is_some_and(|t| time.elapsed_secs_f64() < t)
    {
        egui::Area::new(egui::Id::new("refusal"))
            .anchor(egui::Align2::CENTER_TOP, [140.0, top.height() + 12.0])
            .interactable(false)
            .show(ctx, |ui| {
                egui::Frame::new()
                    .fill(egui::Color32::from_rgb(120, 24, 20))
                    .inner_margin(10.0)
                    .corner_radius(6.0)
                    .show(ui, |ui| {
                        ui.set_max_width(560.0);
                        ui.colored_label(egui::Color32::WHITE, view.names.show(&feedback.status));
                    });
            });
    }
    let free = egui::Rect::from_min_max(
        egui::pos2(left.max.x, top.max.y),
        egui::pos2(ctx.viewport_rect().max.x, bottom.min.y.max(top.max.y)),
    );
    ctx.data_mut(|d| d.insert_temp(free_area_id(), free));
    rects.set_if_neq(UiRects {
        panels: vec![to_rect(top), to_rect(bottom), to_rect(left)],
        left: left.max.x,
        top: top.max.y,
        bottom: (ctx.viewport_rect().max.y - bottom.min.y).max(0.0),
    });
    actions.write_batch(out);
}

/// The top bar: the turn, who acts, the initiative, and the two buttons a player uses most.
/// While the computer plays the side to act, or a battle is watched again (`lock`), neither
/// button is offered: their hover says why.
pub(super) fn turn_bar(
    ui: &mut egui::Ui,
    view: &GameView,
    lock: Option<&str>,
    out: &mut Vec<PlayAction>,
) {
    ui.horizontal_wrapped(|ui| {
        ui.heading(format!("Turn {}", view.turn));
        ui.label(egui::RichText::new(view.phase.label()).strong());
        let verb = if view.phase.is_half_move() {
            "move"
        } else {
            "act"
        };
        match view.side_to_move {
            _ if view.over.is_some() => ui.label(
                egui::RichText::new(format!(
                    "The battle is over: {}",
                    view.over.as_deref().unwrap_or_default()
                ))
                .color(GOLD)
                .strong(),
            ),
            Some(s) => ui.label(
                egui::RichText::new(format!("{} to {verb}", view.side_name(s)))
                    .color(GOLD)
                    .strong(),
            ),
            None => ui.label("nobody to move"),
        };
        ui.separator();
        ui.label(initiative_text(view));
        ui.separator();
        let end = ui
            .add_enabled(
                view.side_to_move.is_some() && lock.is_none(),
                egui::Button::new(with_key(
                    ui.ctx(),
                    Command::EndSide,
                    if view.side_to_move.is_some() && !view.phase.is_half_move() {
                        "End side's turn to act"
                    } else {
                        "End side's half-move"
                    },
                )),
            )
            .on_disabled_hover_text(match lock {
                _ if view.over.is_some() => "The battle is over.",
                Some(why) if view.side_to_move.is_some() => why,
                _ => "Nobody moves now: make the choices in the overlay.",
            });
        if end.clicked() {
            out.push(PlayAction::EndSide);
        }
        let mut undo = ui.add_enabled(
            view.can_undo && lock.is_none(),
            egui::Button::new(with_key(ui.ctx(), Command::Undo, "Undo")),
        );
        if let Some(why) = lock {
            undo = undo.on_disabled_hover_text(why);
        }
        if undo.clicked() {
            out.push(PlayAction::Undo);
        }
    });
}

/// This turn's initiative rolls in words: `Initiative: Red 5, Blue 3; second: Red 2, Blue 6`.
pub fn initiative_text(view: &GameView) -> String {
    let mut first = Vec::new();
    let mut second = Vec::new();
    for (side, roll, in_second) in view.initiative_rolls() {
        let s = format!("{} {roll}", view.side_name(side));
        if in_second {
            second.push(s);
        } else {
            first.push(s);
        }
    }
    let mut t = if first.is_empty() {
        "Initiative: no roll".to_string()
    } else {
        format!("Initiative: {}", first.join(", "))
    };
    if !second.is_empty() {
        t.push_str(&format!("; second: {}", second.join(", ")));
    }
    if let Some(w) = view.initiative {
        let name = view.side_name(w);
        let has = crate::rules::words::SideWords(&name).verb("has", "have");
        t.push_str(&format!(" — {name} {has} it"));
    }
    t
}

/// The log, under a status line: the last order's outcome, else why the board takes no
/// order now (`lock`), else what the side to move does.
fn log_panel(ui: &mut egui::Ui, view: &GameView, feedback: &Feedback, lock: Option<&str>) {
    let colour = if feedback.refused {
        RED
    } else {
        ui.visuals().text_color()
    };
    ui.add_space(4.0);
    let status = if let Some(l) = lock.filter(|_| feedback.status.is_empty()) {
        l.to_string()
    } else if feedback.status.is_empty() {
        match view.side_to_move {
            Some(s) if view.phase.is_half_move() => {
                format!("{} to move: click a figure.", view.side_name(s))
            }
            Some(s) => format!(
                "{} to act: shoot or cast in the overlay, or end the turn to act (Enter).",
                view.side_name(s)
            ),
            None => String::new(),
        }
    } else {
        view.names.show(&feedback.status)
    };
    ui.colored_label(colour, format!("▶ {status}"));
    ui.separator();
    egui::ScrollArea::vertical()
        .stick_to_bottom(true)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for (l, text) in view.log.iter().zip(&view.shown) {
                if l.roll.is_some() {
                    ui.colored_label(GOLD, text);
                } else {
                    ui.label(text);
                }
            }
        });
}

pub(super) fn card_panel(
    ui: &mut egui::Ui,
    view: &GameView,
    card: Option<&FigureCard>,
    selection: &Selection,
    reach: &CurrentReach,
    preview: &CurrentPreview,
    hover: &Hover,
    fractions: Fractions,
    out: &mut Vec<PlayAction>,
) {
    let Some(card) = card else {
        ui.heading("No figure selected");
        ui.label("Click a figure of the side to move.");
        keys_help(ui);
        return;
    };
    super::card::show_card(ui, view, card, fractions);
    ui.separator();
    // The order buttons come straight after the card, above every line that changes as the
    // pointer moves (the path preview, the reach's notes): they keep their place when the
    // pointer leaves the map, so a click never lands on the button below (issue 34).
    let top = ui.cursor().min.y;
    ui.ctx()
        .data_mut(|d| d.insert_temp(order_buttons_id(), top));
    order_buttons(ui, card.mount.is_some() || card.gait.is_some(), out);
    ui.separator();
    if let Some(r) = &reach.0 {
        if let Some(why) = &r.blocked {
            ui.colored_label(RED, view.names.show(why));
        } else if !r.own_side {
            ui.colored_label(
                RED,
                "Not its side's move: its reach is shown for information.",
            );
        }
    }
    match selection.mode {
        Mode::Mount => {
            ui.colored_label(GOLD, "Mount: click the steed (Esc cancels).");
        }
        Mode::Dismount => {
            ui.colored_label(GOLD, "Dismount: click a free cell next to the mount.");
        }
        Mode::Lead => {
            ui.colored_label(
                GOLD,
                "Lead: click a riderless horse to lead it, or a led one to let it go.",
            );
        }
        Mode::Move => {}
    }
    if let Some(p) = &preview.0 {
        let name = view.grid.dir_name(p.facing);
        ui.label(
            egui::RichText::new(format!(
                "Path to {} facing {name}: cost {}, {} left after",
                p.cell,
                fractions.amount(p.cost),
                fractions.amount(p.left_after)
            ))
            .color(GOLD),
        );
        ui.label(view.names.show(&p.words));
        if p.choices > 1 {
            ui.label(format!(
                "End facing {} of {} (Q / E to change)",
                p.pick + 1,
                p.choices
            ));
        }
    } else if let (Some(r), Some(cell), Mode::Move) = (&reach.0, hover.cell, selection.mode)
        && let Some(why) = super::reach_view::why_not(r, cell, fractions)
    {
        // A cell out of reach says why (issue 34), where the path would be.
        ui.colored_label(RED, view.names.show(&why));
    } else {
        ui.label("Hover a highlighted cell to preview the path; click to move.");
    }
    ui.separator();
    keys_help(ui);
}

/// Where the order buttons' top was last drawn: kept for the layout test.
pub fn order_buttons_id() -> egui::Id {
    egui::Id::new("warhorse-order-buttons-top")
}

fn order_buttons(ui: &mut egui::Ui, mounted: bool, out: &mut Vec<PlayAction>) {
    if mounted {
        ui.label("Gait");
        ui.horizontal_wrapped(|ui| {
            let gaits = [
                (Command::Walk, Gait::Walk),
                (Command::Trot, Gait::Trot),
                (Command::Canter, Gait::Canter),
                (Command::Gallop, Gait::Gallop),
                (Command::Halt, Gait::Halt),
            ];
            for (c, g) in gaits {
                if ui.button(keyed(ui.ctx(), c, g.name())).clicked() {
                    out.push(PlayAction::Gait(g));
                }
            }
        });
    }
    ui.horizontal_wrapped(|ui| {
        if ui
            .button(keyed(ui.ctx(), Command::PivotLeft, "Pivot left"))
            .clicked()
        {
            out.push(PlayAction::Pivot(Hand::Left));
        }
        if ui
            .button(keyed(ui.ctx(), Command::PivotRight, "Pivot right"))
            .clicked()
        {
            out.push(PlayAction::Pivot(Hand::Right));
        }
        if mounted
            && ui
                .button(keyed(ui.ctx(), Command::BackUp, "Back up"))
                .clicked()
        {
            out.push(PlayAction::BackUp);
        }
        let m = if mounted { "Dismount" } else { "Mount" };
        if ui
            .button(keyed(ui.ctx(), Command::MountOrDismount, m))
            .clicked()
        {
            out.push(PlayAction::MountOrDismount);
        }
        if ui
            .button(keyed(ui.ctx(), Command::Lead, "Lead horse"))
            .on_hover_text("Take a riderless horse on the lead, or let a led one go (A18)")
            .clicked()
        {
            out.push(PlayAction::Lead);
        }
        for (command, activity, label) in super::ACTIVITY_KEYS {
            if ui
                .button(keyed(ui.ctx(), command, label))
                .on_hover_text("Spend movement on it (D15, R2); the rules say if it may not")
                .clicked()
            {
                out.push(PlayAction::Activity(activity));
            }
        }
        if ui
            .button(keyed(ui.ctx(), Command::Explain, "Why?"))
            .on_hover_text("What a computer unit rolled and why it acts as it does")
            .clicked()
        {
            out.push(PlayAction::Explain);
        }
    });
}

fn keys_help(ui: &mut egui::Ui) {
    egui::CollapsingHeader::new("Keys").show(ui, |ui| {
        let ctx = ui.ctx().clone();
        let k = |c: Command| match key_text(&ctx, c) {
            t if t.is_empty() => "(no key)".to_string(),
            t => t,
        };
        let activities: Vec<String> = super::ACTIVITY_KEYS
            .chunks(3)
            .map(|row| {
                row.iter()
                    .map(|(c, _, label)| format!("{}: {}", k(*c), label.to_lowercase()))
                    .collect::<Vec<_>>()
                    .join("   ")
            })
            .collect();
        let lines = [
            "Click: select / move along the preview".to_string(),
            format!(
                "{} / {}: previous / next end facing",
                k(Command::FacingPrevious),
                k(Command::FacingNext)
            ),
            format!(
                "{} {} {} {} {}: walk, trot, canter, gallop, halt",
                k(Command::Walk),
                k(Command::Trot),
                k(Command::Canter),
                k(Command::Gallop),
                k(Command::Halt)
            ),
            format!(
                "{} / {}: pivot left / right",
                k(Command::PivotLeft),
                k(Command::PivotRight)
            ),
            format!(
                "{}: back up   {}: mount / dismount   {}: lead a horse",
                k(Command::BackUp),
                k(Command::MountOrDismount),
                k(Command::Lead)
            ),
            activities.join("\n"),
            format!("{}: end side's half-move", k(Command::EndSide)),
            format!("{}: why did a computer unit do that?", k(Command::Explain)),
            format!("{}: fast-forward the computer", k(Command::FastForward)),
            format!("{}: undo   Esc: cancel", k(Command::Undo)),
            format!(
                "Drag, {} / {} / {} / {}: pan   wheel, {} / {}: zoom   {}: fit",
                k(Command::PanUp),
                k(Command::PanDown),
                k(Command::PanLeft),
                k(Command::PanRight),
                k(Command::ZoomIn),
                k(Command::ZoomOut),
                k(Command::FitMap)
            ),
            "Keys can be changed in Settings.".to_string(),
        ];
        for line in lines {
            ui.label(line);
        }
    });
}
