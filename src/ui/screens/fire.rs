//! The fire phases in the window (D3–D5): while a side at the computer casts spells or fires
//! missiles, an overlay lists each of its figures that could act, with every enemy (or, for
//! a spell, every figure it may be cast on) and the chance from `sim::fire::fire_odds` /
//! `cast_odds` — the numbers the resolution rolls against — greyed with the rule's reason
//! when the shot or spell is refused (out of range, out of sight, K3 arc, K2, no shots
//! left, …). A click gives the order at once: fire and spells are not secret (D3 plays them
//! side after side), so no hand-over screen is needed. The map draws the lines of sight of
//! the figure the player points at, like the charge overlay.

use super::actions::{GameOnScreen, human_choosing, message};
use super::host::GameHost;
use super::sight_lines::{Sighted, draw_sight_lines};
use super::{DrawLayer, Screen, ScreenStep};
use crate::rules::fire::{ShotOdds, SubStep, band_word};
use crate::rules::melee::tables::tables;
use crate::sim::Game;
use crate::sim::components::{FigureId, Position};
use crate::sim::order::Order;
use crate::ui::MapLayout;
use crate::ui::bridge::Mirror;
use bevy::prelude::*;
use bevy_egui::{EguiPrimaryContextPass, egui};

/// One thing a figure could do now: a shot at a target, or a spell on one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FireChoice {
    /// The figure shot at or cast on (`None`: a spell on the caster itself).
    pub target: Option<String>,
    /// The spell, when casting.
    pub spell: Option<String>,
    /// The chance in percent, or the rule that refuses it.
    pub verdict: Result<i32, String>,
    /// The odds in words, for the pointer's tooltip.
    pub words: String,
    /// A clear line of sight from the figure to the target.
    pub in_sight: bool,
}

/// A figure of the acting side that could shoot or cast in this sub-step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    /// Its id.
    pub unit: String,
    /// Shots it may still loose this half (D3/D5), when firing.
    pub shots_left: Option<u8>,
    /// What it could do.
    pub choices: Vec<FireChoice>,
}

/// The fire overlay of the side at the computer in a casting or firing sub-step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FireOverlay {
    /// The side acting.
    pub side: u8,
    /// Its name.
    pub side_name: String,
    /// Casting or firing.
    pub kind: SubStep,
    /// Its figures that could act.
    pub actors: Vec<Actor>,
    /// The figures' names, for every line the overlay shows (issue 34).
    pub names: std::sync::Arc<crate::rules::names::Names>,
}

/// What the screens show of the fire phase, read by [`read_overlay`].
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct FireView {
    /// The overlay for the side at the computer, when it is acting.
    pub overlay: Option<FireOverlay>,
    /// The game's order count and side when `overlay` was read.
    pub key: Option<(usize, u8)>,
    /// The figure whose lines of sight the map draws.
    pub focus: Option<String>,
}

/// The odds of a shot in words: the chance, the modifiers, the damage and where a hit on a
/// rider may fall (K4, A14).
pub fn shot_words(o: &ShotOdds, target: &str) -> String {
    let mut t = if o.asl {
        format!("{}% of an effect on {target} (house fire table)", o.chance)
    } else {
        format!(
            "{}% to hit {target} ({}% critical), {}-{} damage",
            o.chance, o.critical, o.damage.0, o.damage.1
        )
    };
    if let Some(b) = o.band {
        t.push_str(&format!(", {} range", band_word(usize::from(b))));
    }
    if let Some(h) = o.horse_chance {
        if o.asl {
            t.push_str(&format!("; {h}% against the horses, rolled apart (A14)"));
        } else {
            t.push_str(&format!(
                "; a hit falls on the horse on a d6 of 1–4 ({h}% against it, K4)"
            ));
        }
    }
    for (what, n) in &o.parts {
        t.push_str(&format!("\n  {what}: {n:+}"));
    }
    t
}

/// The overlay for `side`, when the game waits for it to cast or fire.
pub fn overlay(game: &mut Game, side: u8) -> Option<FireOverlay> {
    let step = game.fire_step().filter(|s| s.side == side)?;
    if step.kind == SubStep::Misc {
        return None;
    }
    let fight = game.fight();
    let mine: Vec<usize> = (0..fight.fighters.len())
        .filter(|&i| {
            let f = &fight.fighters[i];
            f.side == side && !f.is_mount()
        })
        .collect();
    let others: Vec<(String, u8)> = fight
        .fighters
        .iter()
        .filter(|f| !f.is_mount())
        .map(|f| (f.id.clone(), f.side))
        .collect();
    let mut actors = Vec::new();
    for i in mine {
        let f = &fight.fighters[i];
        let unit = f.id.clone();
        let seen = game.in_sight_of(&unit);
        let mut choices = Vec::new();
        let shots = match step.kind {
            SubStep::Fire => {
                if f.in_hand(tables()).is_none_or(|wpn| !wpn.is_missile()) {
                    continue;
                }
                for (t, _) in others.iter().filter(|(_, s)| *s != side) {
                    let r = game.fire_odds(&unit, t);
                    choices.push(FireChoice {
                        target: Some(t.clone()),
                        spell: None,
                        words: r.as_ref().map_or(String::new(), |o| shot_words(o, t)),
                        verdict: r.map(|o| o.chance).map_err(|e| e.0),
                        in_sight: seen.contains(t),
                    });
                }
                game.shots_left(&unit)
            }
            _ => {
                for spell in &f.profile.spells {
                    let targets = std::iter::once(None).chain(others.iter().map(|(t, _)| Some(t)));
                    let mut refused = None;
                    let before = choices.len();
                    for t in targets {
                        match game.cast_odds(&unit, spell, t.map(String::as_str)) {
                            Ok(p) => choices.push(FireChoice {
                                target: t.cloned(),
                                spell: Some(spell.clone()),
                                verdict: Ok(p),
                                words: format!(
                                    "{spell} on {}: {p}% to take effect",
                                    t.map_or("itself", |s| s.as_str())
                                ),
                                in_sight: t.is_none_or(|t| seen.contains(t)),
                            }),
                            Err(e) => refused = refused.or(Some(e.0)),
                        }
                    }
                    if choices.len() == before {
                        // No figure it may be cast on: one greyed entry with the first reason.
                        choices.push(FireChoice {
                            target: None,
                            spell: Some(spell.clone()),
                            verdict: Err(refused.unwrap_or_else(|| "no target".into())),
                            words: String::new(),
                            in_sight: false,
                        });
                    }
                }
                if choices.is_empty() {
                    continue;
                }
                None
            }
        };
        actors.push(Actor {
            unit,
            shots_left: shots,
            choices,
        });
    }
    let side_name = game.turn_state().side_name(side);
    Some(FireOverlay {
        side,
        side_name,
        kind: step.kind,
        actors,
        names: game.names(),
    })
}

/// The order a click on `choice` gives.
pub fn order_of(actor: &Actor, choice: &FireChoice) -> Order {
    match &choice.spell {
        Some(spell) => Order::Cast {
            unit: actor.unit.clone(),
            spell: spell.clone(),
            target: choice.target.clone(),
        },
        None => Order::Fire {
            unit: actor.unit.clone(),
            target: choice.target.clone().unwrap_or_default(),
        },
    }
}

const GREYED: egui::Color32 = egui::Color32::from_rgb(150, 150, 150);

/// Draws the overlay; returns the order of a click (a shot, a spell, or the end of the
/// side's sub-step).
pub fn show_fire(
    ctx: &egui::Context,
    overlay: &FireOverlay,
    focus: &mut Option<String>,
) -> Option<Order> {
    let mut out = None;
    let title = format!(
        "{} {} (D3)",
        overlay.side_name,
        overlay.kind.label_for(&overlay.side_name)
    );
    let free = crate::ui::play::panels::free_area(ctx);
    super::surface::map_window(title, "warhorse-fire", free, 560.0).show(ctx, |ui| {
        ui.label(match overlay.kind {
            SubStep::Cast => {
                "Click a spell's target to cast it now (a spell on \"itself\" needs none). \
                     A figure that casts here moves at half in the half-move after (D4)."
            }
            _ => {
                "Click an enemy to loose one shot at it now; beside each, the chance to \
                     hit (point at it for the odds). A figure on foot that shoots here moves at \
                     half in the half-move after, and a crossbow reloads instead (D4). The map \
                     shows the lines of sight of the figure you point at."
            }
        });
        egui::ScrollArea::vertical()
            .max_height(320.0)
            .show(ui, |ui| {
                if overlay.actors.is_empty() {
                    ui.label("None of your figures can act now.");
                }
                for a in &overlay.actors {
                    if let Some(o) = actor_ui(ui, a, focus, &overlay.names) {
                        out = Some(o);
                    }
                }
            });
        ui.separator();
        if ui
            .button(format!(
                "Done — end {} turn to act (Enter)",
                crate::rules::words::SideWords(&overlay.side_name).possessive()
            ))
            .clicked()
        {
            out = Some(Order::EndSide);
        }
    });
    out
}

fn actor_ui(
    ui: &mut egui::Ui,
    a: &Actor,
    focus: &mut Option<String>,
    names: &crate::rules::names::Names,
) -> Option<Order> {
    let mut out = None;
    ui.separator();
    let head = match a.shots_left {
        Some(n) => format!("{} — {n} shot(s) left this half", names.name(&a.unit)),
        None => names.name(&a.unit).to_string(),
    };
    let mut hovered = ui.strong(head).hovered();
    ui.horizontal_wrapped(|ui| {
        for c in &a.choices {
            let whom = c.target.as_deref().map_or("itself", |t| names.name(t));
            let what = match &c.spell {
                Some(s) => format!("{s} → {whom}"),
                None => whom.to_string(),
            };
            let r = match &c.verdict {
                Ok(p) => {
                    let r = ui
                        .button(format!("{what} — {p}%"))
                        .on_hover_text(names.show(&c.words));
                    if r.clicked() {
                        out = Some(order_of(a, c));
                    }
                    r
                }
                Err(why) => ui
                    .add_enabled(
                        false,
                        egui::Button::new(egui::RichText::new(what).color(GREYED)),
                    )
                    .on_disabled_hover_text(names.show(why)),
            };
            hovered |= r.hovered() || r.contains_pointer();
        }
    });
    if hovered || focus.is_none() {
        *focus = Some(a.unit.clone());
    }
    out
}

/// A click in the overlay: the shot, the spell or the end of the side's turn to act goes
/// to the game at once (fire is not secret, D3); a refusal is shown in a dialog.
pub(super) fn give(world: &mut World, order: &Order) {
    let refused = GameHost::get(world).and_then(|game| game.order(order).err());
    GameHost::touched(world);
    world.resource_mut::<FireView>().key = None;
    if let Some(r) = refused {
        message(world, "Refused", format!("{order}: {r}"));
    }
}

/// Each frame of a game: what the side at the screen may fire or cast while a fire phase
/// waits for it, re-read only when the game moved on.
pub fn read_overlay(world: &mut World) {
    let mut fire = world.resource::<FireView>().clone();
    let choosing = human_choosing(world);
    let Some(game) = GameHost::get(world) else {
        return;
    };
    match choosing.filter(|_| game.fire_step().is_some()) {
        Some((side, key)) => {
            if fire.key != Some(key) {
                fire.overlay = overlay(game, side);
                fire.key = Some(key);
            }
        }
        None => {
            fire.overlay = None;
            fire.key = None;
        }
    }
    if *world.resource::<FireView>() != fire {
        world.insert_resource(fire);
    }
}

fn forget_fire(_: On<GameOnScreen>, mut view: ResMut<FireView>) {
    *view = FireView::default();
}

/// Adds the fire overlay: its reading, its drawing and the lines of sight on the map.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<FireView>()
        .add_observer(forget_fire)
        .add_systems(
            Update,
            read_overlay
                .run_if(in_state(Screen::Playing))
                .in_set(ScreenStep::Read),
        )
        .add_systems(
            EguiPrimaryContextPass,
            draw_fire
                .run_if(in_state(Screen::Playing))
                .in_set(DrawLayer::Overlay),
        );
    if super::draws_gizmos(app) {
        app.add_systems(Update, draw_fire_lines.in_set(super::MapMarks));
    }
}

/// The fire overlay's egui system (hidden behind the hand-over screen and the menu).
pub fn draw_fire(
    mut contexts: bevy_egui::EguiContexts,
    mut view: ResMut<FireView>,
    cover: Option<Res<State<super::cover::Cover>>>,
    mut actions: ResMut<super::ScreenActions>,
) -> Result {
    let Some(o) = view.overlay.clone() else {
        return Ok(());
    };
    if !super::cover::board_free(cover) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut focus = view.focus.clone();
    if let Some(order) = show_fire(ctx, &o, &mut focus) {
        actions.0.push(super::ScreenAction::Fire(order));
    }
    if view.focus != focus {
        view.focus = focus;
    }
    Ok(())
}

/// Draws the focused figure's lines of sight to each target while the overlay is up.
pub fn draw_fire_lines(
    view: Res<FireView>,
    handover: Res<super::Handover>,
    layout: Option<Res<MapLayout>>,
    mirrors: Query<(&FigureId, &Position), With<Mirror>>,
    mut gizmos: Gizmos,
) {
    let (Some(o), Some(layout), Some(focus)) = (&view.overlay, layout, &view.focus) else {
        return;
    };
    if handover.screen_up() {
        return;
    }
    let Some(a) = o.actors.iter().find(|a| &a.unit == focus) else {
        return;
    };
    let mut seen = Vec::new();
    // A spell lists a target once per spell: one line each.
    let targets = a.choices.iter().filter_map(|c| {
        let t = c.target.as_deref()?;
        (!seen.contains(&t)).then(|| {
            seen.push(t);
            Sighted {
                id: t,
                in_sight: c.in_sight,
                allowed: c.verdict.is_ok(),
            }
        })
    });
    draw_sight_lines(&mut gizmos, &layout, &mirrors, &a.unit, targets);
}
