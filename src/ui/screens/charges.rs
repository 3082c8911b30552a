//! Charge declarations in the overlay (D2, C1, C5): after the initiative, each mounted figure
//! that could charge writes face down either "no charge" or its targets in the order it will
//! charge them; once every declaration is in they are revealed together, and each charged
//! figure answers face down with a TAC card and a MELEE card. The overlay lists every enemy
//! for each charger, greyed with the charge rules' reason when it may not be charged (out of
//! sight, too far, no charge at a walk, …) — `sim::charge::charge_targets`, the same verdicts
//! the order's validator gives — and the map draws the charger's lines of sight while its row
//! is open. Between two humans the hand-over screen comes first, like for cards.

use super::actions::{GameOnScreen, human_choosing, message};
use super::host::GameHost;
use super::sight_lines::{LOS_CLEAR, Sighted, draw_sight_lines};
use super::{DrawLayer, Screen, ScreenStep};
use crate::rules::charge::ride::Reply;
use crate::rules::melee::cards::{DodgeDir, TacCard};
use crate::rules::names::Names;
use crate::sim::Game;
use crate::sim::charge::Stage;
use crate::sim::components::{FigureId, Position};
use crate::sim::order::Order;
use crate::ui::MapLayout;
use crate::ui::bridge::Mirror;
use bevy::prelude::*;
use bevy_egui::{EguiPrimaryContextPass, egui};
use std::collections::BTreeMap;

/// An enemy a charger might name, as the charge rules judge it now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetView {
    /// The enemy's id.
    pub id: String,
    /// `Ok` if the figure may charge it (alone, first), else the rule that forbids it.
    pub verdict: Result<(), String>,
    /// A clear line of sight from the charger to it.
    pub in_sight: bool,
    /// The charging blow's chance to hit, and the odds in words (`sim::charge::charge_odds`,
    /// the numbers the ride rolls against).
    pub odds: Option<(i32, String)>,
}

/// A mounted figure that must write its charge orders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declarer {
    /// Its id.
    pub unit: String,
    /// Every enemy it might name.
    pub targets: Vec<TargetView>,
}

/// A charged figure that must answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answerer {
    /// Its id.
    pub unit: String,
    /// Mounted (PULL RIDER and HAMSTRING HORSE are for figures on foot).
    pub mounted: bool,
    /// Who charges it (revealed, so public).
    pub charged_by: Vec<String>,
}

/// The charge overlay of one side: only that side's figures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChargeOverlay {
    /// The side at the computer.
    pub side: u8,
    /// Its name.
    pub side_name: String,
    /// Its figures still to declare.
    pub declare: Vec<Declarer>,
    /// Its figures still to answer.
    pub answer: Vec<Answerer>,
    /// The figures' names, for every line the overlay shows (issue 34).
    pub names: std::sync::Arc<Names>,
}

/// What the screens show of the charge phase, read by [`read_overlay`].
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct ChargeView {
    /// The overlay for the side at the computer, when it has something to write.
    pub overlay: Option<ChargeOverlay>,
    /// The game's order count and side when `overlay` was read.
    pub key: Option<(usize, u8)>,
}

/// The choices in progress; cleared whenever the side at the computer changes, so nothing
/// one player picked is ever shown to the next.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct ChargePicks {
    /// The side these picks belong to.
    pub side: Option<u8>,
    /// Each charger's targets, in order.
    pub targets: BTreeMap<String, Vec<String>>,
    /// Each answerer's TAC card and MELEE card.
    pub answers: BTreeMap<String, (TacCard, Reply)>,
    /// The charger whose lines of sight the map draws.
    pub focus: Option<String>,
}

/// The sides with a figure the charge phase waits for, lowest first.
pub fn choosers(game: &mut Game) -> Vec<u8> {
    let mut v: Vec<u8> = game
        .charge_awaited()
        .iter()
        .filter_map(|id| game.side_of(id))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The overlay for `side`: its figures still to declare or answer, nothing of another side's
/// orders (the declarations stay face down until the reveal).
pub fn overlay(game: &mut Game, side: u8) -> Option<ChargeOverlay> {
    let stage = game.charge_stage()?;
    let mine: Vec<String> = game
        .charge_awaited()
        .into_iter()
        .filter(|id| game.side_of(id) == Some(side))
        .collect();
    let mut o = ChargeOverlay {
        side,
        side_name: game.turn_state().side_name(side),
        declare: Vec::new(),
        answer: Vec::new(),
        names: game.names(),
    };
    for unit in mine {
        match stage {
            Stage::Declaring => {
                let seen = game.in_sight_of(&unit);
                let targets = game
                    .charge_targets(&unit)
                    .into_iter()
                    .map(|(id, verdict)| TargetView {
                        in_sight: seen.contains(&id),
                        odds: game
                            .charge_odds(&unit, &id)
                            .map(|o| (o.chance, super::melee_cards::odds_words(&o, &id))),
                        id,
                        verdict,
                    })
                    .collect();
                o.declare.push(Declarer { unit, targets });
            }
            Stage::Answering => {
                let mounted = game.is_mounted(&unit);
                // Revealed: who charges whom is in the log for everyone.
                let charged_by = game
                    .charges_revealed()
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|(_, t)| t.contains(&unit))
                    .map(|(c, _)| c)
                    .collect();
                o.answer.push(Answerer {
                    unit,
                    mounted,
                    charged_by,
                });
            }
            _ => {}
        }
    }
    (!o.declare.is_empty() || !o.answer.is_empty()).then_some(o)
}

/// The MELEE cards a charged figure may answer with (C5).
pub const REPLIES: [Reply; 9] = [
    Reply::DeliverBlow,
    Reply::WeaponParry,
    Reply::ActiveShieldParry,
    Reply::DesperateDefense,
    Reply::Dodge(DodgeDir::Left),
    Reply::Dodge(DodgeDir::Right),
    Reply::Dodge(DodgeDir::Back),
    Reply::PullRider,
    Reply::Hamstring,
];

/// Whether a figure may answer with `reply` (the rule the order's validator applies).
pub fn reply_verdict(mounted: bool, reply: Reply) -> Result<(), String> {
    if mounted && matches!(reply, Reply::PullRider | Reply::Hamstring) {
        Err("C5: PULL RIDER and HAMSTRING HORSE are played by figures on foot".into())
    } else {
        Ok(())
    }
}

/// A reply's name on its button.
pub fn reply_name(r: Reply) -> String {
    match r {
        Reply::Dodge(d) => {
            let dir = format!("{d:?}").to_uppercase();
            format!("DODGE {dir}")
        }
        r => r.name().to_string(),
    }
}

/// The orders the picks make: every declarer's targets (none: "no charge") and every
/// answerer's cards (unpicked: STAND GROUND and DELIVER BLOW).
pub fn orders_of(overlay: &ChargeOverlay, picks: &ChargePicks) -> Vec<Order> {
    let mut v = Vec::new();
    for d in &overlay.declare {
        match picks.targets.get(&d.unit).filter(|t| !t.is_empty()) {
            Some(t) => v.push(Order::DeclareCharge {
                unit: d.unit.clone(),
                targets: t.clone(),
            }),
            None => v.push(Order::NoCharge {
                unit: d.unit.clone(),
            }),
        }
    }
    for a in &overlay.answer {
        let (tac, reply) = picks
            .answers
            .get(&a.unit)
            .copied()
            .unwrap_or((TacCard::StandGround, Reply::DeliverBlow));
        v.push(Order::AnswerCharge {
            unit: a.unit.clone(),
            tac,
            reply,
        });
    }
    v
}

/// Adds `target` to the end of `unit`'s charge list, or takes it off.
pub fn toggle_target(picks: &mut ChargePicks, unit: &str, target: &str) {
    let list = picks.targets.entry(unit.to_string()).or_default();
    match list.iter().position(|t| t == target) {
        Some(i) => {
            list.remove(i);
        }
        None => list.push(target.to_string()),
    }
}

const GREYED: egui::Color32 = egui::Color32::from_rgb(150, 150, 150);

/// Draws the overlay; returns the orders when the player confirms.
pub fn show_charges(
    ctx: &egui::Context,
    overlay: &ChargeOverlay,
    picks: &mut ChargePicks,
) -> Option<Vec<Order>> {
    let mut out = None;
    let title = if overlay.declare.is_empty() {
        format!("{} — answer the charges", overlay.side_name)
    } else {
        format!("{} — charge orders", overlay.side_name)
    };
    let free = crate::ui::play::panels::free_area(ctx);
    super::surface::map_window(title, "warhorse-charges", free, 560.0).show(ctx, |ui| {
        egui::ScrollArea::vertical()
            .max_height(360.0)
            .show(ui, |ui| {
                if !overlay.declare.is_empty() {
                    ui.label(
                        "Written face down and revealed together (D2, C1). Click enemies in \
                             the order to charge them; none means no charge. Beside each enemy: \
                             the charging blow's chance to hit (point at it for the odds). The \
                             map shows the lines of sight of the figure you point at: green \
                             clear, yellow seen but not to be charged, red blocked.",
                    );
                }
                for d in &overlay.declare {
                    declarer_ui(ui, d, picks, &overlay.names);
                }
                if !overlay.answer.is_empty() {
                    ui.label(
                        "Charged: choose face down a TAC card and a MELEE card as the horse \
                             closes (C5).",
                    );
                }
                for a in &overlay.answer {
                    answerer_ui(ui, a, picks, &overlay.names);
                }
            });
        ui.separator();
        let nobody = !overlay.declare.is_empty()
            && overlay
                .declare
                .iter()
                .all(|d| picks.targets.get(&d.unit).is_none_or(Vec::is_empty));
        let confirm = if nobody {
            "Confirm: no charges (face down) (Enter)"
        } else {
            "Confirm (face down) (Enter)"
        };
        if ui.button(confirm).clicked() || super::surface::enter_on(ui.ctx(), "charges") {
            out = Some(orders_of(overlay, picks));
        }
    });
    out
}

fn declarer_ui(ui: &mut egui::Ui, d: &Declarer, picks: &mut ChargePicks, names: &Names) {
    ui.separator();
    let chosen = picks.targets.get(&d.unit).cloned().unwrap_or_default();
    let head = ui.strong(format!(
        "{} charges: {}",
        names.name(&d.unit),
        if chosen.is_empty() {
            "nobody (no charge)".to_string()
        } else {
            let chosen: Vec<&str> = chosen.iter().map(|c| names.name(c)).collect();
            chosen.join(", then ")
        }
    ));
    let mut hovered = head.hovered();
    ui.horizontal_wrapped(|ui| {
        // "No charge" is a choice of its own, in plain sight (issue 34), not what a confirm
        // with nothing picked happens to mean.
        if ui
            .selectable_label(chosen.is_empty(), "No charge")
            .on_hover_text("This figure charges nobody this turn.")
            .clicked()
        {
            picks.targets.remove(&d.unit);
        }
        for t in &d.targets {
            let sight = if t.in_sight { "" } else { " (out of sight)" };
            let n = chosen.iter().position(|c| *c == t.id);
            let hit = t
                .odds
                .as_ref()
                .map_or(String::new(), |o| format!(" — {}%", o.0));
            let label = match n {
                Some(i) => format!("{}. {}{hit}{sight}", i + 1, names.name(&t.id)),
                None => format!("{}{hit}{sight}", names.name(&t.id)),
            };
            let r = match &t.verdict {
                // A target already on the list stays clickable (to take it off) even if the
                // rules would no longer let it be charged first.
                Err(why) if n.is_none() => ui
                    .add_enabled(false, egui::Button::selectable(false, label))
                    .on_disabled_hover_text(names.show(why)),
                _ => {
                    let mut r = ui.selectable_label(n.is_some(), label);
                    if let Some((_, words)) = &t.odds {
                        r = r.on_hover_text(format!("The charging blow: {}", names.show(words)));
                    }
                    if r.clicked() {
                        toggle_target(picks, &d.unit, &t.id);
                    }
                    r
                }
            };
            hovered |= r.hovered() || r.contains_pointer();
        }
    });
    let refused: Vec<&TargetView> = d.targets.iter().filter(|t| t.verdict.is_err()).collect();
    if !refused.is_empty() {
        egui::CollapsingHeader::new(format!(
            "Why {} may not charge the others",
            names.name(&d.unit)
        ))
        .id_salt(("why", &d.unit))
        .show(ui, |ui| {
            for t in refused {
                if let Err(why) = &t.verdict {
                    ui.colored_label(
                        GREYED,
                        format!("{}: {}", names.name(&t.id), names.show(why)),
                    );
                }
            }
        });
    }
    if hovered || picks.focus.is_none() {
        picks.focus = Some(d.unit.clone());
    }
}

fn answerer_ui(ui: &mut egui::Ui, a: &Answerer, picks: &mut ChargePicks, names: &Names) {
    ui.separator();
    ui.strong(format!(
        "{} is charged by {}",
        names.name(&a.unit),
        if a.charged_by.is_empty() {
            "?".to_string()
        } else {
            let by: Vec<&str> = a.charged_by.iter().map(|c| names.name(c)).collect();
            by.join(", ")
        }
    ));
    let (mut tac, mut reply) = picks
        .answers
        .get(&a.unit)
        .copied()
        .unwrap_or((TacCard::StandGround, Reply::DeliverBlow));
    ui.horizontal_wrapped(|ui| {
        ui.label("TAC:");
        for t in TacCard::ALL {
            ui.selectable_value(&mut tac, t, t.name());
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("MELEE:");
        for r in REPLIES {
            match reply_verdict(a.mounted, r) {
                Ok(()) => {
                    ui.selectable_value(&mut reply, r, reply_name(r));
                }
                Err(why) => {
                    ui.add_enabled(false, egui::Button::selectable(false, reply_name(r)))
                        .on_disabled_hover_text(why);
                }
            }
        }
    });
    picks.answers.insert(a.unit.clone(), (tac, reply));
}

/// The overlay's Confirm: the side's charge orders (or answers) go to the game, face down;
/// refusals are shown in a dialog.
pub(super) fn give(world: &mut World, orders: &[Order]) {
    let errors: Vec<String> = match GameHost::get(world) {
        Some(game) => orders
            .iter()
            .filter_map(|o| game.order(o).err().map(|r| format!("{o}: {r}")))
            .collect(),
        None => Vec::new(),
    };
    GameHost::touched(world);
    world.insert_resource(ChargePicks::default());
    world.resource_mut::<ChargeView>().key = None;
    if !errors.is_empty() {
        message(world, "Charge orders refused", errors.join("\n"));
    }
}

/// Each frame of a game: the declarations or answers the side at the screen has to write,
/// re-read only when the game moved on; the picks are cleared when the writer changes.
pub fn read_overlay(world: &mut World) {
    let mut charges = world.resource::<ChargeView>().clone();
    let choosing = human_choosing(world);
    let Some(game) = GameHost::get(world) else {
        return;
    };
    match choosing.filter(|_| !choosers(game).is_empty()) {
        Some((side, key)) => {
            if charges.key != Some(key) {
                charges.overlay = overlay(game, side);
                charges.key = Some(key);
            }
        }
        None => {
            charges.overlay = None;
            charges.key = None;
        }
    }
    let side = charges.overlay.as_ref().map(|c| c.side);
    if world.resource::<ChargePicks>().side != side {
        world.insert_resource(ChargePicks { side, ..default() });
    }
    if *world.resource::<ChargeView>() != charges {
        world.insert_resource(charges);
    }
}

fn forget_charges(
    _: On<GameOnScreen>,
    mut view: ResMut<ChargeView>,
    mut picks: ResMut<ChargePicks>,
) {
    *view = ChargeView::default();
    *picks = ChargePicks::default();
}

/// Adds the charge overlay: its reading, its drawing and the lines of sight on the map.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ChargeView>()
        .init_resource::<ChargePicks>()
        .add_observer(forget_charges)
        .add_systems(
            Update,
            read_overlay
                .run_if(in_state(Screen::Playing))
                .in_set(ScreenStep::Read),
        )
        .add_systems(
            EguiPrimaryContextPass,
            draw_charges
                .run_if(in_state(Screen::Playing))
                .in_set(DrawLayer::Overlay),
        );
    if super::draws_gizmos(app) {
        app.add_systems(Update, draw_lines_of_sight.in_set(super::MapMarks));
    }
}

/// Draws the focused charger's lines of sight to every enemy while the overlay is up.
pub fn draw_lines_of_sight(
    view: Res<ChargeView>,
    picks: Res<ChargePicks>,
    handover: Res<super::Handover>,
    layout: Option<Res<MapLayout>>,
    mirrors: Query<(&FigureId, &Position), With<Mirror>>,
    mut gizmos: Gizmos,
) {
    let (Some(o), Some(layout), Some(focus)) = (&view.overlay, layout, &picks.focus) else {
        return;
    };
    if handover.screen_up() {
        return;
    }
    let Some(d) = o.declare.iter().find(|d| &d.unit == focus) else {
        return;
    };
    let drawn = draw_sight_lines(
        &mut gizmos,
        &layout,
        &mirrors,
        &d.unit,
        d.targets.iter().map(|t| Sighted {
            id: &t.id,
            in_sight: t.in_sight,
            allowed: t.verdict.is_ok(),
        }),
    );
    let chosen = picks.targets.get(&d.unit);
    for (id, to) in drawn {
        if chosen.is_some_and(|c| c.iter().any(|c| c == id)) {
            gizmos.circle_2d(
                Isometry2d::from_translation(to),
                layout.cell * 0.45,
                LOS_CLEAR,
            );
        }
    }
}

/// The charge overlay's egui system (hidden behind the hand-over screen and the menu).
pub fn draw_charges(
    mut contexts: bevy_egui::EguiContexts,
    view: Res<ChargeView>,
    cover: Option<Res<State<super::cover::Cover>>>,
    mut picks: ResMut<ChargePicks>,
    mut actions: ResMut<super::ScreenActions>,
) -> Result {
    let Some(o) = view.overlay.as_ref() else {
        return Ok(());
    };
    // Behind a briefing, the menu or a dialog: its Enter is theirs (issue 34).
    if !super::cover::board_free(cover) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    if let Some(orders) = show_charges(ctx, o, &mut picks) {
        actions.0.push(super::ScreenAction::Charges(orders));
    }
    Ok(())
}
