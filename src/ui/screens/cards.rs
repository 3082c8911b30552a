//! The card overlay (D6, D7): when a side must choose TAC and MELEE cards, each of its figures
//! in the melee shows its whole hand with each card's cost in blows; a card it may not play is
//! greyed with the rules' reason. The player picks one TAC card (in the TAC phase) and MELEE
//! cards the blows pay for, and confirms; the picks go to the game as orders.
//!
//! The overlay reads hands through [`CardSource`], so it is built and tested against the
//! rules' verdicts without knowing how the melee rules compute them. [`NoCards`] is the source
//! while no melee rules are plugged in; `cards_source.rs` adapts the real ones.
//!
//! Charge declarations (D2) are secret ordered target lists; they belong in this overlay as a
//! third kind of choice. EXTENSION POINT: when the simulation has a charge-declaration order,
//! add a `targets` list to [`FigureHand`] and [`CardPick`] and a section to [`show_cards`].

use crate::sim::Game;
use bevy::prelude::*;
use bevy_egui::egui;
use std::collections::BTreeMap;

/// Which deck a card comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CardKind {
    /// TAC cards: how a figure closes or breaks off (D6).
    Tac,
    /// MELEE cards: blows, parries, dodges (D7).
    Melee,
}

/// One card of a hand, as the rules judge it for this figure now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardView {
    /// The card's name (`CLOSE`, `DELIVER BLOW`).
    pub name: String,
    /// Its deck.
    pub kind: CardKind,
    /// What it costs, in blows.
    pub cost: u32,
    /// `Ok` if the figure may play it now, else the rules' reason.
    pub verdict: Result<(), String>,
}

/// A figure that must choose, with its whole hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FigureHand {
    /// The figure's id (what orders name).
    pub unit: String,
    /// Its name, for the player.
    pub name: String,
    /// Blows it has left to pay for cards.
    pub blows: u32,
    /// It must pick a TAC card now (the TAC phase, or joining a melee, D8).
    pub needs_tac: bool,
    /// Every card, playable or not.
    pub cards: Vec<CardView>,
}

/// What a player picked for one figure.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CardPick {
    /// The figure's id.
    pub unit: String,
    /// The TAC card, when one is due.
    pub tac: Option<String>,
    /// The MELEE cards, in the order played.
    pub melee: Vec<String>,
}

/// Where hands come from and where picks go: the melee rules, or a fake in tests.
pub trait CardSource: Send + Sync + 'static {
    /// The side that must choose cards now (in secret), if any.
    fn chooser(&self, game: &mut Game) -> Option<u8>;
    /// The figures of `side` that must choose now, each with its whole hand. Never another
    /// side's: the overlay shows exactly this.
    fn hands(&self, game: &mut Game, side: u8) -> Vec<FigureHand>;
    /// Sends one figure's picks to the game; `Err` is the refusal's text.
    fn play(&self, game: &mut Game, pick: &CardPick) -> Result<(), String>;
}

/// The card rules the window uses.
#[derive(Resource)]
pub struct Cards(pub Box<dyn CardSource>);

impl Default for Cards {
    fn default() -> Self {
        Cards(Box::new(NoCards))
    }
}

/// No melee rules: nobody ever chooses cards.
pub struct NoCards;

impl CardSource for NoCards {
    fn chooser(&self, _: &mut Game) -> Option<u8> {
        None
    }
    fn hands(&self, _: &mut Game, _: u8) -> Vec<FigureHand> {
        Vec::new()
    }
    fn play(&self, _: &mut Game, _: &CardPick) -> Result<(), String> {
        Err("the melee rules are not built yet".into())
    }
}

/// The overlay's data: one side's hands and nothing else.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardOverlay {
    /// The side choosing.
    pub side: u8,
    /// Its name.
    pub side_name: String,
    /// Its figures' hands.
    pub hands: Vec<FigureHand>,
}

/// The picks in progress, per figure id; cleared whenever the chooser changes, so nothing
/// one player clicked is ever shown to the next.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Picks {
    /// The side these picks belong to.
    pub side: Option<u8>,
    /// Per figure.
    pub by_unit: BTreeMap<String, CardPick>,
}

/// Checks one figure's picks against its hand: every card in the hand and playable, one TAC
/// card exactly when one is due, at least one MELEE card, and no more blows than it has.
pub fn check_pick(hand: &FigureHand, pick: &CardPick) -> Result<(), String> {
    let find = |name: &str, kind: CardKind| {
        hand.cards
            .iter()
            .find(|c| c.name == name && c.kind == kind)
            .ok_or_else(|| format!("{} has no {name} card", hand.name))
    };
    let mut cost = 0u32;
    match (&pick.tac, hand.needs_tac) {
        (None, true) => return Err(format!("{} needs a TAC card", hand.name)),
        (Some(_), false) => return Err(format!("{} plays no TAC card now", hand.name)),
        (Some(t), true) => {
            let c = find(t, CardKind::Tac)?;
            c.verdict.clone().map_err(|r| format!("{t}: {r}"))?;
            cost += c.cost;
        }
        (None, false) => {}
    }
    if pick.melee.is_empty() {
        return Err(format!("{} needs a MELEE card", hand.name));
    }
    for m in &pick.melee {
        let c = find(m, CardKind::Melee)?;
        c.verdict.clone().map_err(|r| format!("{m}: {r}"))?;
        cost = cost.saturating_add(c.cost);
    }
    if cost > hand.blows {
        return Err(format!(
            "{} has {} blows; these cards cost {cost}",
            hand.name, hand.blows
        ));
    }
    Ok(())
}

/// Checks every figure's picks; the list to send when all are good.
pub fn ready_picks(overlay: &CardOverlay, picks: &Picks) -> Result<Vec<CardPick>, String> {
    overlay
        .hands
        .iter()
        .map(|h| {
            let p = picks.by_unit.get(&h.unit).cloned().unwrap_or(CardPick {
                unit: h.unit.clone(),
                ..default()
            });
            check_pick(h, &p).map(|()| p)
        })
        .collect()
}

/// Toggles a card in a figure's picks: a TAC card replaces the previous one; a MELEE card is
/// added or removed.
pub fn toggle(picks: &mut Picks, unit: &str, card: &CardView) {
    let p = picks
        .by_unit
        .entry(unit.to_string())
        .or_insert_with(|| CardPick {
            unit: unit.to_string(),
            ..default()
        });
    match card.kind {
        CardKind::Tac if p.tac.as_deref() == Some(card.name.as_str()) => p.tac = None,
        CardKind::Tac => p.tac = Some(card.name.clone()),
        CardKind::Melee => match p.melee.iter().position(|m| *m == card.name) {
            Some(i) => {
                p.melee.remove(i);
            }
            None => p.melee.push(card.name.clone()),
        },
    }
}

fn card_button(ui: &mut egui::Ui, card: &CardView, picked: bool) -> bool {
    let blows = if card.cost == 1 { "blow" } else { "blows" };
    let label = format!("{} ({} {blows})", card.name, card.cost);
    match &card.verdict {
        Ok(()) => ui.selectable_label(picked, label).clicked(),
        Err(why) => {
            ui.add_enabled(false, egui::Button::selectable(false, label))
                .on_disabled_hover_text(why);
            false
        }
    }
}

/// Draws the overlay; returns the picks to send when the player confirms. Clicking cards
/// edits `picks`.
pub fn show_cards(
    ctx: &egui::Context,
    overlay: &CardOverlay,
    picks: &mut Picks,
) -> Option<Vec<CardPick>> {
    let mut confirmed = None;
    egui::Window::new(format!("{} — choose your cards", overlay.side_name))
        .id(egui::Id::new("warhorse-cards"))
        .collapsible(false)
        .resizable(true)
        .default_width(520.0)
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -12.0])
        .show(ctx, |ui| {
            ui.label("Cards are played face down; both sides' cards are revealed together.");
            egui::ScrollArea::vertical()
                .max_height(380.0)
                .show(ui, |ui| {
                    for hand in &overlay.hands {
                        ui.separator();
                        ui.strong(format!("{} — {} blows", hand.name, hand.blows));
                        for kind in [CardKind::Tac, CardKind::Melee] {
                            if kind == CardKind::Tac && !hand.needs_tac {
                                continue;
                            }
                            ui.horizontal_wrapped(|ui| {
                                ui.label(if kind == CardKind::Tac { "TAC:" } else { "MELEE:" });
                                for card in hand.cards.iter().filter(|c| c.kind == kind) {
                                    let p = picks.by_unit.get(&hand.unit);
                                    let picked = p.is_some_and(|p| match kind {
                                        CardKind::Tac => p.tac.as_ref() == Some(&card.name),
                                        CardKind::Melee => p.melee.contains(&card.name),
                                    });
                                    if card_button(ui, card, picked) {
                                        toggle(picks, &hand.unit, card);
                                    }
                                }
                            });
                        }
                    }
                });
            ui.separator();
            let ready = ready_picks(overlay, picks);
            ui.horizontal(|ui| {
                let ok = ready.is_ok();
                let button = ui.add_enabled(ok, egui::Button::new("Confirm"));
                if let Err(why) = &ready {
                    ui.label(egui::RichText::new(why).weak());
                }
                if button.clicked() {
                    confirmed = ready.ok();
                }
            });
        });
    confirmed
}
