//! The selected figure's card: what the player needs to order it, read from its mirror (and
//! its mount's, for a pair). Gathered into plain data first so it is tested without egui.

use crate::rules::grid::{Cell, Dir};
use crate::rules::mp::Mp;
use crate::rules::ruleset::TroopType;
use crate::sim::components::*;
use crate::ui::bridge::GameView;
use crate::ui::settings::Fractions;
use bevy::prelude::*;
use bevy_egui::egui;

/// A figure's card.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FigureCard {
    /// Figure id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Side index.
    pub side: Option<u8>,
    /// Troop type.
    pub troop: Option<TroopType>,
    /// Main weapon.
    pub weapon: Option<String>,
    /// Armour class.
    pub armour: Option<u8>,
    /// Carries a shield.
    pub shield: Option<bool>,
    /// Movement `(left, allowance)` this half-move.
    pub allowance: Option<(Mp, Mp)>,
    /// Blows `(left, per melee phase)`.
    pub blows: Option<(u8, u8)>,
    /// Body points `(left, full)`.
    pub body: Option<(u16, u16)>,
    /// Gait, for mounts.
    pub gait: Option<String>,
    /// Named conditions.
    pub conditions: Vec<String>,
    /// Where it stands.
    pub at: Option<Cell>,
    /// Its facing.
    pub facing: Option<Dir>,
    /// The mount it rides, if any.
    pub mount: Option<Box<FigureCard>>,
}

/// The components a card reads from a mirror.
pub type CardData = (
    &'static FigureId,
    Option<&'static FigureName>,
    Option<&'static SideId>,
    Option<&'static Troop>,
    Option<&'static Weapon>,
    Option<&'static Armour>,
    Option<&'static Shield>,
    (
        Option<&'static Allowance>,
        Option<&'static Blows>,
        Option<&'static Body>,
        Option<&'static GaitState>,
        Option<&'static Conditions>,
        Option<&'static Position>,
        Option<&'static Facing>,
        Option<&'static RidingOn>,
    ),
);

/// The card of mirror `e`, with its mount's if it rides one.
pub fn card_of<F: bevy::ecs::query::QueryFilter>(
    q: &Query<CardData, F>,
    e: Entity,
) -> Option<FigureCard> {
    let item = q.get(e).ok()?;
    let mount = item.7.7.and_then(|r| q.get(r.0).ok());
    let mut card = plain_card(item);
    card.mount = mount.map(|m| Box::new(plain_card(m)));
    Some(card)
}

fn plain_card(item: bevy::ecs::query::ROQueryItem<'_, '_, CardData>) -> FigureCard {
    let (id, name, side, troop, weapon, armour, shield, rest) = item;
    let (allowance, blows, body, gait, conditions, pos, facing, _) = rest;
    FigureCard {
        id: id.0.clone(),
        name: name.map(|f| f.0.clone()).unwrap_or_default(),
        side: side.map(|s| s.0),
        troop: troop.map(|t| t.0),
        weapon: weapon.map(|w| w.0.clone()),
        armour: armour.map(|a| a.0),
        shield: shield.map(|s| s.0),
        allowance: allowance.map(|a| (a.left, a.basis)),
        blows: blows.map(|b| (b.left, b.max)),
        body: body.map(|b| (b.left, b.max)),
        gait: gait.map(|g| g.gait.name().to_string()),
        conditions: conditions.map(|c| c.0.clone()).unwrap_or_default(),
        at: pos.map(|p| p.0),
        facing: facing.map(|f| f.0),
        mount: None,
    }
}

/// A troop type in words.
pub fn troop_words(t: TroopType) -> &'static str {
    match t {
        TroopType::ShockCavalry => "shock cavalry",
        TroopType::ShootingCavalry => "shooting cavalry",
        TroopType::MountedInfantry => "mounted infantry",
        TroopType::Foot => "foot",
        TroopType::Horse => "horse",
    }
}

/// The card's lines as (label, value) pairs, in display order.
/// Movement amounts are written in the player's `fractions` style.
pub fn card_lines(
    card: &FigureCard,
    view: &GameView,
    fractions: Fractions,
) -> Vec<(&'static str, String)> {
    let mut v = Vec::new();
    if let Some(t) = card.troop {
        v.push(("Troop", troop_words(t).to_string()));
    }
    if let Some(w) = &card.weapon {
        v.push(("Weapon", w.clone()));
    }
    if let Some(a) = card.armour {
        v.push(("Armour", a.to_string()));
    }
    if let Some(s) = card.shield {
        v.push(("Shield", if s { "yes" } else { "no" }.to_string()));
    }
    if let Some((left, all)) = card.allowance {
        v.push((
            "Movement",
            format!(
                "{} of {} cells left",
                fractions.amount(left),
                fractions.amount(all)
            ),
        ));
    }
    if let Some(g) = &card.gait {
        v.push(("Gait", g.clone()));
    }
    if let Some((l, m)) = card.blows {
        v.push(("Blows", format!("{l} / {m}")));
    }
    if let Some((l, m)) = card.body {
        v.push(("Body", format!("{l} / {m}")));
    }
    let conditions = if card.conditions.is_empty() {
        "none".to_string()
    } else {
        card.conditions.join(", ")
    };
    v.push(("Conditions", conditions));
    if let (Some(c), Some(f)) = (card.at, card.facing) {
        v.push(("At", format!("{c} facing {}", view.grid.dir_name(f))));
    }
    v
}

/// Draws the card.
pub fn show_card(ui: &mut egui::Ui, view: &GameView, card: &FigureCard, fractions: Fractions) {
    let side = card.side.map(|s| view.side_name(s)).unwrap_or_default();
    // The figure's own name first; what it is (its template) and its side below (issue 34:
    // ids stay in files).
    ui.heading(view.names.name(&card.id));
    ui.label(format!("{} — {side}", card.name));
    // A rider moves on its mount: its own movement (on foot) would only mislead.
    let lines = card_lines(card, view, fractions)
        .into_iter()
        .filter(|(k, _)| card.mount.is_none() || *k != "Movement")
        .collect();
    grid(ui, "card", lines);
    if let Some(m) = &card.mount {
        ui.add_space(4.0);
        ui.label(
            egui::RichText::new(format!("Mount: {} ({})", view.names.name(&m.id), m.name)).strong(),
        );
        let lines = card_lines(m, view, fractions)
            .into_iter()
            .filter(|(k, _)| matches!(*k, "Movement" | "Gait" | "Blows" | "Body"))
            .collect();
        grid(ui, "mount", lines);
    }
}

fn grid(ui: &mut egui::Ui, id: &str, lines: Vec<(&'static str, String)>) {
    egui::Grid::new(id).num_columns(2).show(ui, |ui| {
        for (k, v) in lines {
            ui.label(k);
            ui.label(v);
            ui.end_row();
        }
    });
}
