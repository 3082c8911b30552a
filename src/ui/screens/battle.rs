//! The battle's goal and its end in the window (issue 12): a briefing for each human side
//! before its first orders (after the hand-over screen in hot-seat, so each player reads only
//! their own), an objectives panel with each side's goals and score, the objective areas,
//! exit edges and named figures marked on the map, and the end screen — who won and why, the
//! turn, each side's losses and victory points — with buttons to save the finished game,
//! look at the battlefield, watch it again from the start ([`super::replay`]), or go back to
//! the start screen.
//!
//! What is shown comes from the game's own judge (`sim::victory`), read into [`BattleView`]
//! after every change; the drawing only reads it and queues [`ScreenAction`]s.

use super::SideControls;
use super::actions::{Dialog, Overlays, ScreenAction, ScreenActions, ScreenView};
use super::handover::Handover;
use super::host::GameHost;
use crate::level::Control;
use crate::rules::grid::{Cell, GridKind};
use crate::rules::victory::{Edge, Goal};
use crate::sim::Game;
use crate::sim::components::{FigureId, Position};
use crate::sim::victory::{Report, Tally};
use crate::ui::MapLayout;
use crate::ui::bridge::{GameView, Mirror};
use crate::ui::counters::{CounterOf, HasCounter};
use crate::ui::settings::{Settings, light_rgb, side_colour32};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// One objective as the panel shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectiveLine {
    /// The side that scores it.
    pub side: u8,
    /// In words.
    pub name: String,
    /// Victory points.
    pub points: u32,
    /// Achieving it wins the battle.
    pub wins: bool,
    /// The turn it was achieved in.
    pub achieved: Option<u32>,
    /// How far it has come, in words, while it takes more than one step ("held 1 of 2 turn
    /// ends running", "1 of 2 there").
    pub progress: Option<String>,
}

/// What the window shows of the battle's goals and end, read from the game.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct BattleView {
    /// Which game and how far (serial, orders): refreshed when it changes.
    pub key: Option<(u64, usize)>,
    /// The level's name.
    pub level: String,
    /// The level's description.
    pub description: String,
    /// Side names.
    pub sides: Vec<String>,
    /// Each side's briefing.
    pub briefings: Vec<String>,
    /// The side suggested for a first game.
    pub suggested: Option<String>,
    /// The turn now.
    pub turn: u32,
    /// The last turn.
    pub turn_limit: u32,
    /// Every objective.
    pub objectives: Vec<ObjectiveLine>,
    /// Each side's score and losses.
    pub tallies: Vec<Tally>,
    /// The end, once there is one.
    pub outcome: Option<Report>,
    /// Areas to hold or reach, by the side that wants them.
    pub areas: Vec<(u8, Vec<Cell>)>,
    /// Edges to reach, by side.
    pub edges: Vec<(u8, Edge)>,
    /// Figures an objective names (to bring out, to keep alive, to bring down).
    pub named: Vec<String>,
}

/// Which of the battle's screens are open.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct BattleScreens {
    /// The game these flags belong to ([`GameView::serial`]).
    pub serial: u64,
    /// Sides whose briefing was read.
    pub briefed: Vec<u8>,
    /// The briefing on screen, if any.
    pub briefing: Option<u8>,
    /// The end screen is up.
    pub end: bool,
    /// The end screen was shown once (closing it leaves the board to look at).
    pub end_seen: bool,
}

/// Reads the battle from the game.
pub fn battle_view(game: &mut Game, level: Option<&crate::level::LevelFile>) -> BattleView {
    let tallies = game.tallies();
    let turn = game.turn_state().clone();
    let mut v = BattleView {
        level: game.record().level_name.clone(),
        sides: turn.side_names.clone(),
        turn: turn.turn,
        tallies,
        ..default()
    };
    if let Some(lf) = level {
        v.description = lf.description.clone();
        v.briefings = lf.sides.iter().map(|s| s.briefing.clone()).collect();
        v.suggested = lf.suggested_side.clone();
    }
    v.outcome = game.outcome().map(|o| Report::new(o, &turn));
    let Some(judge) = game.judge() else {
        return v;
    };
    v.turn_limit = judge.victory.turns;
    for (i, (o, done)) in judge
        .victory
        .objectives
        .iter()
        .zip(&judge.tracker.achieved)
        .enumerate()
    {
        let progress = judge.tracker.progress(i, o).map(|(k, n)| match o.goal {
            Goal::Hold { .. } => format!("held {k} of {n} turn ends running"),
            _ => format!("{k} of {n} there"),
        });
        v.objectives.push(ObjectiveLine {
            side: o.side,
            name: o.name.clone(),
            points: o.points,
            wins: o.wins,
            achieved: *done,
            progress,
        });
        let cells = |a: &[(i32, i32)]| a.iter().map(|&(x, y)| Cell::new(x, y)).collect();
        match &o.goal {
            Goal::Hold { area, .. } => v.areas.push((o.side, cells(area))),
            Goal::Reach { figures, area } => {
                v.areas.push((o.side, cells(area)));
                v.named.extend(figures.iter().cloned());
            }
            Goal::Exit { figures, edge } => {
                v.edges.push((o.side, *edge));
                v.named.extend(figures.iter().cloned());
            }
            Goal::Kill { figures } | Goal::Protect { figures } => {
                v.named.extend(figures.iter().cloned())
            }
        }
    }
    v.named.sort();
    v.named.dedup();
    v
}

/// After every frame's orders: refreshes [`BattleView`], opens a human side's briefing the
/// first time it gets the computer in turn 1, and the end screen when the battle ends.
pub fn follow_battle(world: &mut World) {
    let serial = world.resource::<GameView>().serial;
    let level = world
        .get_non_send::<crate::ui::bridge::ActiveGame>()
        .map(|a| a.level.file.clone());
    let old_key = world.resource::<BattleView>().key;
    let Some(game) = GameHost::get(world) else {
        return;
    };
    let key = Some((serial, game.record().orders.len()));
    if old_key != key {
        let mut v = battle_view(game, level.as_ref());
        v.key = key;
        world.insert_resource(v);
    }
    let mut screens = world.resource::<BattleScreens>().clone();
    if screens.serial != serial {
        screens = BattleScreens {
            serial,
            ..default()
        };
    }
    let view = world.resource::<BattleView>();
    if view.outcome.is_some() {
        screens.briefing = None;
        if !screens.end_seen {
            screens.end = true;
            screens.end_seen = true;
        }
    } else if view.turn == 1 && screens.briefing.is_none() {
        let side = world.resource::<ScreenView>().control.side;
        let human =
            |s: u8| world.resource::<SideControls>().0.get(usize::from(s)) != Some(&Control::Ai);
        let screen_up = world.resource::<Handover>().screen_up();
        if let Some(s) = side.filter(|&s| human(s) && !screen_up && !screens.briefed.contains(&s)) {
            screens.briefing = Some(s);
        }
    }
    if *world.resource::<BattleScreens>() != screens {
        world.insert_resource(screens);
    }
}

/// Draws the objectives panel, the briefing and the end screen.
pub fn draw_battle(
    mut contexts: EguiContexts,
    view: Res<BattleView>,
    handover: Res<Handover>,
    mut screens: ResMut<BattleScreens>,
    mut overlays: ResMut<Overlays>,
    mut actions: ResMut<ScreenActions>,
    keys: Res<ButtonInput<KeyCode>>,
    cover: Option<Res<State<super::cover::Cover>>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if handover.screen_up() || view.key.is_none() {
        return Ok(());
    }
    // Enter is the briefing's only while nothing covers it (a dialog, the menu): the state
    // settled before this frame, so a dialog opened below in this frame does not free it.
    let briefing_on_top = super::cover::on_top(cover) == Some(super::cover::Cover::Briefing);
    objectives_panel(ctx, &view, &mut screens);
    if let Some(side) = screens.briefing {
        if briefing(ctx, &view, side) || (briefing_on_top && keys.just_pressed(KeyCode::Enter)) {
            screens.briefed.push(side);
            screens.briefing = None;
        }
    } else if screens.end {
        match end_screen(ctx, &view) {
            Some(EndChoice::Look) => screens.end = false,
            Some(EndChoice::Save) => {
                overlays.dialog = Some(Dialog::Save {
                    name: super::saves::proposed_name(&view.level, "finished"),
                    error: None,
                });
            }
            Some(EndChoice::Start) => actions.0.push(ScreenAction::QuitToStart),
            Some(EndChoice::Again) => {
                screens.end = false;
                actions.0.push(ScreenAction::WatchAgain);
            }
            None => {}
        }
    }
    Ok(())
}

fn side_name(view: &BattleView, s: u8) -> String {
    view.sides
        .get(usize::from(s))
        .cloned()
        .unwrap_or_else(|| format!("side {}", u16::from(s) + 1))
}

fn objectives_panel(ctx: &egui::Context, view: &BattleView, screens: &mut BattleScreens) {
    egui::Window::new("Objectives")
        .id(egui::Id::new("objectives-panel"))
        .anchor(egui::Align2::RIGHT_TOP, [-8.0, 36.0])
        .default_open(true)
        .resizable(false)
        .max_width(250.0)
        .show(ctx, |ui| {
            ui.label(format!(
                "Turn {} of {}",
                view.turn.min(view.turn_limit.max(1)),
                view.turn_limit
            ));
            for (s, t) in view.tallies.iter().enumerate() {
                let s = s as u8;
                ui.separator();
                ui.colored_label(
                    side_colour32(ctx, s),
                    egui::RichText::new(format!(
                        "{}: {} victory points",
                        side_name(view, s),
                        t.points
                    ))
                    .strong(),
                );
                for o in view.objectives.iter().filter(|o| o.side == s) {
                    let mark = if o.achieved.is_some() {
                        "[done]"
                    } else {
                        "[ ]"
                    };
                    let wins = if o.wins { ", wins the battle" } else { "" };
                    ui.label(format!("{mark} {} ({} VP{wins})", o.name, o.points));
                    if let Some(p) = &o.progress {
                        ui.label(egui::RichText::new(format!("      {p}")).weak());
                    }
                }
                ui.label(format!(
                    "Lost: {} of {} figures{}, {} of {} horses",
                    t.figures_lost,
                    t.figures,
                    routed_words(t),
                    t.horses_lost,
                    t.horses
                ));
            }
            ui.small(
                "Each enemy figure or horse out of the fight scores its worth; one routed off \
                 the map, half.",
            );
            if view.outcome.is_some() && !screens.end && ui.button("Show the result").clicked() {
                screens.end = true;
            }
        });
}

/// " (2 routed, 1 got away)": how many figures left the map by an edge, if any did.
fn routed_words(t: &crate::sim::victory::Tally) -> String {
    let mut parts = Vec::new();
    if t.figures_routed > 0 {
        parts.push(format!("{} routed", t.figures_routed));
    }
    if t.figures_exited > 0 {
        parts.push(format!("{} got away", t.figures_exited));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

/// The briefing of `side`; true when the player closes it.
fn briefing(ctx: &egui::Context, view: &BattleView, side: u8) -> bool {
    let mut go = false;
    egui::Window::new(format!("Briefing: {}", side_name(view, side)))
        .id(egui::Id::new("briefing"))
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .default_width(460.0)
        .show(ctx, |ui| {
            ui.heading(&view.level);
            if !view.description.is_empty() {
                ui.label(&view.description);
            }
            ui.separator();
            if let Some(b) = view
                .briefings
                .get(usize::from(side))
                .filter(|b| !b.is_empty())
            {
                ui.label(b);
            }
            ui.label(egui::RichText::new("Your objectives").strong());
            let mine: Vec<_> = view.objectives.iter().filter(|o| o.side == side).collect();
            if mine.is_empty() {
                ui.label("Take every enemy figure out of the fight.");
            }
            for o in mine {
                let wins = if o.wins {
                    " — wins the battle at once"
                } else {
                    ""
                };
                ui.label(format!("- {} ({} VP){wins}", o.name, o.points));
            }
            ui.label(format!(
                "The battle lasts {} turns; then the larger total of victory points wins.",
                view.turn_limit
            ));
            if view.suggested.as_deref() == view.sides.get(usize::from(side)).map(|s| s.as_str()) {
                ui.label("This side is suggested for a first game.");
            }
            go = ui.button("To battle (Enter)").clicked();
        });
    go
}

/// A button of the end screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EndChoice {
    Save,
    Look,
    Again,
    Start,
}

fn end_screen(ctx: &egui::Context, view: &BattleView) -> Option<EndChoice> {
    let out = view.outcome.as_ref()?;
    let mut choice = None;
    egui::Window::new("The battle is over")
        .id(egui::Id::new("end-screen"))
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .default_width(480.0)
        .show(ctx, |ui| {
            let title = match &out.winner {
                Some(w) => format!(
                    "{w} {}",
                    crate::rules::words::SideWords(w).verb("wins", "win")
                ),
                None => "A draw".into(),
            };
            let colour = view
                .sides
                .iter()
                .position(|s| Some(s) == out.winner.as_ref())
                .map_or(egui::Color32::LIGHT_GRAY, |s| side_colour32(ctx, s as u8));
            ui.heading(egui::RichText::new(title).color(colour).size(28.0));
            ui.label(format!(
                "{} — in turn {} of {}.",
                out.reason, out.turn, view.turn_limit
            ));
            ui.separator();
            egui::Grid::new("end-tallies").striped(true).show(ui, |ui| {
                for h in [
                    "Side",
                    "Victory points",
                    "Figures lost",
                    "Horses lost",
                    "Body points",
                    "Luck",
                ] {
                    ui.label(egui::RichText::new(h).strong());
                }
                ui.end_row();
                for (s, t) in view.tallies.iter().enumerate() {
                    ui.colored_label(side_colour32(ctx, s as u8), side_name(view, s as u8));
                    ui.label(t.points.to_string());
                    ui.label(format!(
                        "{} of {}{}",
                        t.figures_lost,
                        t.figures,
                        routed_words(t)
                    ));
                    ui.label(format!("{} of {}", t.horses_lost, t.horses));
                    ui.label(format!("{} of {} left", t.body_left, t.body));
                    ui.label(luck_words(t));
                    ui.end_row();
                }
            });
            ui.separator();
            ui.horizontal(|ui| {
                if ui.button("Save the finished game…").clicked() {
                    choice = Some(EndChoice::Save);
                }
                if ui.button("Look at the battlefield").clicked() {
                    choice = Some(EndChoice::Look);
                }
                if ui.button("Watch it again").clicked() {
                    choice = Some(EndChoice::Again);
                }
                if ui.button("Back to the start screen").clicked() {
                    choice = Some(EndChoice::Start);
                }
            });
        });
    choice
}

/// A side's luck in words: hits scored against the hits its chances promised.
pub fn luck_words(t: &Tally) -> String {
    if t.rolls_to_hit == 0 {
        return "no roll to hit".into();
    }
    let expected = f64::from(t.expected_hits_pct) / 100.0;
    format!(
        "{} of {} rolls hit; {expected:.1} expected",
        t.hits, t.rolls_to_hit
    )
}

/// Objective areas and exit edges outlined on the map in the colour of the side that wants
/// them, and a ring around every figure an objective names (around its counter, which may be
/// on its way to the figure's cell).
pub fn draw_objective_marks(
    view: Res<BattleView>,
    handover: Res<Handover>,
    layout: Option<Res<MapLayout>>,
    mirrors: Query<(&FigureId, &Position, Option<&HasCounter>), With<Mirror>>,
    counters: Query<&Transform, With<CounterOf>>,
    settings: Option<Res<Settings>>,
    mut gizmos: Gizmos,
) {
    let palette = settings.map(|s| s.palette).unwrap_or_default();
    let Some(layout) = layout else { return };
    if handover.screen_up() {
        return;
    }
    let colour = |s: u8| {
        let [r, g, b] = light_rgb(palette, s);
        Color::srgb_u8(r, g, b)
    };
    for (side, cells) in &view.areas {
        for &c in cells {
            let at = layout.cell_to_world(c);
            for scale in [0.92, 0.84] {
                let pts = outline(&layout, at, scale);
                gizmos.linestrip_2d(pts, colour(*side));
            }
        }
    }
    let b = layout.bounds();
    for &(side, edge) in &view.edges {
        let (p, q, inward) = match edge {
            Edge::N => (
                Vec2::new(b.min.x, b.max.y),
                Vec2::new(b.max.x, b.max.y),
                -Vec2::Y,
            ),
            Edge::S => (
                Vec2::new(b.min.x, b.min.y),
                Vec2::new(b.max.x, b.min.y),
                Vec2::Y,
            ),
            Edge::W => (
                Vec2::new(b.min.x, b.min.y),
                Vec2::new(b.min.x, b.max.y),
                Vec2::X,
            ),
            Edge::E => (
                Vec2::new(b.max.x, b.min.y),
                Vec2::new(b.max.x, b.max.y),
                -Vec2::X,
            ),
        };
        for k in 0..4 {
            let d = inward * k as f32 * 1.5;
            gizmos.line_2d(p + d, q + d, colour(side));
        }
        // Arrows pointing off the map, the way out.
        let n = 6;
        for i in 0..n {
            let m = p.lerp(q, (i as f32 + 0.5) / n as f32) + inward * layout.cell * 0.6;
            gizmos.arrow_2d(m, m - inward * layout.cell * 0.45, colour(side));
        }
    }
    for (id, pos, counter) in &mirrors {
        if view.named.binary_search(&id.0).is_ok() {
            let at = counter
                .and_then(|c| counters.get(c.get()).ok())
                .map_or_else(|| layout.cell_to_world(pos.0), |t| t.translation.truncate());
            let gold = Color::srgb(1.0, 0.84, 0.1);
            gizmos.circle_2d(Isometry2d::from_translation(at), layout.cell * 0.5, gold);
            gizmos.circle_2d(Isometry2d::from_translation(at), layout.cell * 0.47, gold);
        }
    }
}

/// A cell's outline around `at`, shrunk by `scale`.
fn outline(layout: &MapLayout, at: Vec2, scale: f32) -> Vec<Vec2> {
    let half = layout.tile_size() * 0.5 * scale;
    match layout.grid {
        GridKind::Square => vec![
            at + Vec2::new(-half.x, -half.y),
            at + Vec2::new(half.x, -half.y),
            at + Vec2::new(half.x, half.y),
            at + Vec2::new(-half.x, half.y),
            at + Vec2::new(-half.x, -half.y),
        ],
        GridKind::Hex => (0..=6)
            .map(|k| {
                let a = std::f32::consts::FRAC_PI_6 + k as f32 * std::f32::consts::FRAC_PI_3;
                at + Vec2::new(a.cos(), a.sin()) * half.y
            })
            .collect(),
    }
}

/// Adds the battle's screens: the briefing, the objectives panel, the end screen and the
/// objectives marked on the map.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BattleView>()
        .init_resource::<BattleScreens>()
        .add_systems(
            Update,
            follow_battle
                .run_if(in_state(super::Screen::Playing))
                .in_set(super::ScreenStep::Follow),
        )
        .add_systems(
            bevy_egui::EguiPrimaryContextPass,
            draw_battle
                .run_if(in_state(super::Screen::Playing))
                .in_set(super::DrawLayer::Modal),
        );
    if super::draws_gizmos(app) {
        app.add_systems(Update, draw_objective_marks.in_set(super::MapMarks));
    }
}
