//! The card overlay (D6, D7): when a side must choose TAC and MELEE cards, each of its figures
//! in the melee shows its whole hand with each card's cost in blows; a card it may not play is
//! greyed with the rules' reason. The player picks at most one TAC card (and the enemy it
//! designates) and the MELEE cards the blows pay for (none is PASSIVE SHIELD PARRY), and
//! confirms; the picks go to the game as orders. After the reveal, figures that must guess an
//! opponent's DODGE get Left / Right / Back buttons here too.
//!
//! The overlay reads hands through [`CardSource`], so it is built and tested against the
//! rules' verdicts without knowing how the melee rules compute them. [`NoCards`] is a source
//! with no melee; [`super::melee_cards::MeleeCards`] adapts the real rules (`sim::melee`).
//!
//! Every card that strikes a blow carries its odds (`CardView::odds`), read from
//! `sim::melee::odds`, the numbers the resolver rolls against. Charge declarations (D2), the
//! other secret choice, have their own overlay in [`super::charges`].

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
    /// For a card that strikes: the odds the resolver rolls against, in words (chance to
    /// hit, critical, damage), and every modifier on the next lines.
    pub odds: Option<String>,
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
    /// The enemies a TAC card may designate (FLECHE and CHARGE must, CLOSE may).
    pub targets: Vec<String>,
    /// Every card, playable or not.
    pub cards: Vec<CardView>,
}

/// What a player picked for one figure.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CardPick {
    /// The figure's id.
    pub unit: String,
    /// The TAC card, if any.
    pub tac: Option<String>,
    /// The enemy the TAC card designates.
    pub tac_target: Option<String>,
    /// The MELEE cards, in the order played; none is PASSIVE SHIELD PARRY.
    pub melee: Vec<String>,
}

/// Which way a figure guesses an opponent's DODGE went (§6, D7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GuessDir {
    /// To the dodger's left.
    Left,
    /// To its right.
    Right,
    /// Back.
    Back,
}

/// A guess the game waits for: `guesser` guesses which way `dodger` dodged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuessDue {
    /// The guessing figure.
    pub guesser: String,
    /// The dodging figure.
    pub dodger: String,
}

/// Where hands come from and where picks go: the melee rules, or a fake in tests.
pub trait CardSource: Send + Sync + 'static {
    /// The sides with figures that must choose cards (or guess) now, lowest first.
    fn choosers(&self, game: &mut Game) -> Vec<u8>;
    /// Whether the choice now is hidden from the other side (face-down cards are; dodge
    /// guesses, made after the reveal, are not).
    fn secret(&self, _game: &mut Game) -> bool {
        true
    }
    /// The figures of `side` that must choose now, each with its whole hand. Never another
    /// side's: the overlay shows exactly this.
    fn hands(&self, game: &mut Game, side: u8) -> Vec<FigureHand>;
    /// The dodge guesses `side`'s figures must make now.
    fn guesses(&self, _game: &mut Game, _side: u8) -> Vec<GuessDue> {
        Vec::new()
    }
    /// Sends one figure's picks to the game; `Err` is the refusal's text.
    fn play(&self, game: &mut Game, pick: &CardPick) -> Result<(), String>;
    /// Every figure of `side` passes for the rest of this melee phase; `Err` is the refusal's
    /// text.
    fn pass_rest(&self, _game: &mut Game, _side: u8) -> Result<(), String> {
        Err("there is no melee to pass".into())
    }
    /// Sends a dodge guess (`None`: no guess); `Err` is the refusal's text.
    fn guess(
        &self,
        _game: &mut Game,
        _due: &GuessDue,
        _dir: Option<GuessDir>,
    ) -> Result<(), String> {
        Err("no dodge guesses in this game".into())
    }
}

/// The card rules the window uses.
#[derive(Resource)]
pub struct Cards(pub Box<dyn CardSource>);

impl Default for Cards {
    fn default() -> Self {
        Cards(Box::new(super::melee_cards::MeleeCards))
    }
}

/// No melee rules: nobody ever chooses cards.
pub struct NoCards;

impl CardSource for NoCards {
    fn choosers(&self, _: &mut Game) -> Vec<u8> {
        Vec::new()
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
    /// Its figures' dodge guesses.
    pub guesses: Vec<GuessDue>,
}

/// The picks in progress, per figure id; cleared whenever the chooser changes, so nothing
/// one player clicked is ever shown to the next.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Picks {
    /// The side these picks belong to.
    pub side: Option<u8>,
    /// Per figure.
    pub by_unit: BTreeMap<String, CardPick>,
    /// Confirm was pressed with figures undecided: the overlay asks before it plays their
    /// PASSIVE SHIELD PARRY.
    pub asking: bool,
    /// The figure being decided, by its place in the overlay's hands: one figure at a time,
    /// Next / Previous (Tab, Shift+Tab) through the side's figures.
    pub current: usize,
    /// Show the cards the figure may not play too, greyed with the rule that forbids each.
    pub show_all: bool,
}

/// A figure's picks in a few words, for the overlay's row of figures.
pub fn pick_words(picks: &Picks, unit: &str) -> String {
    match picks.by_unit.get(unit) {
        Some(p) if p.tac.is_some() || !p.melee.is_empty() => p
            .tac
            .iter()
            .chain(p.melee.iter())
            .cloned()
            .collect::<Vec<_>>()
            .join(" + "),
        _ => "not chosen".to_string(),
    }
}

/// The cards of `hand` the overlay lists: those the figure may play, or every card when
/// `show_all` is on. Keys 1–9 pick the first nine playable ones, in this order.
pub fn shown_cards(hand: &FigureHand, show_all: bool) -> Vec<&CardView> {
    hand.cards
        .iter()
        .filter(|c| show_all || c.verdict.is_ok())
        .collect()
}

/// The figures of the overlay that the player has picked nothing for: on Confirm they would
/// play PASSIVE SHIELD PARRY, so the overlay asks first.
pub fn undecided(overlay: &CardOverlay, picks: &Picks) -> Vec<String> {
    overlay
        .hands
        .iter()
        .filter(|h| {
            picks
                .by_unit
                .get(&h.unit)
                .is_none_or(|p| p.tac.is_none() && p.melee.is_empty())
        })
        .map(|h| h.name.clone())
        .collect()
}

/// Checks one figure's picks against its hand: every card in the hand and playable, a
/// target for a TAC card that must designate one, and no more blows than it has.
pub fn check_pick(hand: &FigureHand, pick: &CardPick) -> Result<(), String> {
    let find = |name: &str, kind: CardKind| {
        let c = hand
            .cards
            .iter()
            .find(|c| c.name == name && c.kind == kind)
            .ok_or_else(|| format!("{} has no {name} card", hand.name))?;
        c.verdict.clone().map_err(|r| format!("{name}: {r}"))?;
        Ok::<u32, String>(c.cost)
    };
    let mut cost = 0u32;
    if let Some(t) = &pick.tac {
        cost += find(t, CardKind::Tac)?;
        if needs_target(t) && pick.tac_target.is_none() {
            return Err(format!("{t}: name the enemy it is aimed at"));
        }
    }
    for m in &pick.melee {
        cost = cost.saturating_add(find(m, CardKind::Melee)?);
    }
    if cost > hand.blows {
        return Err(format!(
            "{} has {} blows; these cards cost {cost}",
            hand.name, hand.blows
        ));
    }
    Ok(())
}

/// TAC cards that must designate an enemy (FLECHE, CHARGE).
pub fn needs_target(tac: &str) -> bool {
    matches!(tac, "FLECHE" | "CHARGE")
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
        CardKind::Tac if p.tac.as_deref() == Some(card.name.as_str()) => {
            p.tac = None;
            p.tac_target = None;
        }
        CardKind::Tac => p.tac = Some(card.name.clone()),
        CardKind::Melee => match p.melee.iter().position(|m| *m == card.name) {
            Some(i) => {
                p.melee.remove(i);
            }
            None => p.melee.push(card.name.clone()),
        },
    }
}

/// A card's label: its name, its cost, and its chance to hit when it strikes.
pub fn card_label(card: &CardView) -> String {
    let blows = if card.cost == 1 { "blow" } else { "blows" };
    let chance = card
        .odds
        .as_deref()
        .and_then(|o| o.split_once('%'))
        .map(|(p, _)| format!(", {p}%"))
        .unwrap_or_default();
    format!("{} ({} {blows}{chance})", card.name, card.cost)
}

fn card_button(ui: &mut egui::Ui, card: &CardView, picked: bool) -> bool {
    let label = card_label(card);
    match &card.verdict {
        Ok(()) => {
            let r = ui.selectable_label(picked, label);
            let r = match &card.odds {
                Some(o) => r.on_hover_text(o),
                None => r,
            };
            r.clicked()
        }
        Err(why) => {
            let why = match &card.odds {
                Some(o) => format!("{why}\n\n{o}"),
                None => why.clone(),
            };
            ui.add_enabled(false, egui::Button::selectable(false, label))
                .on_disabled_hover_text(why);
            false
        }
    }
}

/// What the player asked for in the overlay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CardsAnswer {
    /// Play every figure's picks.
    Play(Vec<CardPick>),
    /// Guess (or not) which way a dodger went.
    Guess(GuessDue, Option<GuessDir>),
    /// The side passes for the rest of this melee phase.
    PassRest,
}

fn hand_ui(ui: &mut egui::Ui, hand: &FigureHand, picks: &mut Picks, key: Option<usize>) {
    let shown = shown_cards(hand, picks.show_all);
    let mut number = 0;
    for kind in [CardKind::Tac, CardKind::Melee] {
        ui.horizontal_wrapped(|ui| {
            ui.label(if kind == CardKind::Tac {
                "TAC:"
            } else {
                "MELEE:"
            });
            for card in shown.iter().filter(|c| c.kind == kind) {
                let p = picks.by_unit.get(&hand.unit);
                let picked = p.is_some_and(|p| match kind {
                    CardKind::Tac => p.tac.as_ref() == Some(&card.name),
                    CardKind::Melee => p.melee.contains(&card.name),
                });
                let mut shown_card = (*card).clone();
                let mut pressed = false;
                if card.verdict.is_ok() {
                    number += 1;
                    if number <= 9 {
                        shown_card.name = format!("{number} {}", card.name);
                        pressed = key == Some(number);
                    }
                }
                if card_button(ui, &shown_card, picked) || pressed {
                    toggle(picks, &hand.unit, card);
                }
            }
        });
    }
    let Some(p) = picks.by_unit.get_mut(&hand.unit) else {
        return;
    };
    if p.tac.is_some() && !hand.targets.is_empty() {
        ui.horizontal(|ui| {
            ui.label("TAC card aimed at:");
            egui::ComboBox::from_id_salt(("tac-target", &hand.unit))
                .selected_text(p.tac_target.as_deref().unwrap_or("nobody"))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut p.tac_target, None, "nobody");
                    for t in &hand.targets {
                        ui.selectable_value(&mut p.tac_target, Some(t.clone()), t);
                    }
                });
        });
    }
    if p.melee.is_empty() {
        ui.label(egui::RichText::new("No MELEE card: PASSIVE SHIELD PARRY.").weak());
    }
}

/// Draws the overlay; returns what the player confirmed. Clicking cards edits `picks`.
pub fn show_cards(
    ctx: &egui::Context,
    overlay: &CardOverlay,
    picks: &mut Picks,
) -> Option<CardsAnswer> {
    let mut answer = None;
    egui::Window::new(format!("{} — choose your cards", overlay.side_name))
        .id(egui::Id::new("warhorse-cards"))
        .collapsible(false)
        .resizable(true)
        .default_width(560.0)
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -12.0])
        .show(ctx, |ui| {
            let n = overlay.hands.len();
            if n > 0 {
                picks.current = picks.current.min(n - 1);
                let (tab, back, key) = ui.ctx().input(|i| {
                    let digits = [
                        egui::Key::Num1,
                        egui::Key::Num2,
                        egui::Key::Num3,
                        egui::Key::Num4,
                        egui::Key::Num5,
                        egui::Key::Num6,
                        egui::Key::Num7,
                        egui::Key::Num8,
                        egui::Key::Num9,
                    ];
                    (
                        i.key_pressed(egui::Key::Tab),
                        i.modifiers.shift,
                        digits.iter().position(|&k| i.key_pressed(k)).map(|d| d + 1),
                    )
                });
                if tab {
                    picks.current = if back {
                        (picks.current + n - 1) % n
                    } else {
                        (picks.current + 1) % n
                    };
                }
                ui.label("Cards are played face down and revealed together. One figure at a time: Tab / Shift+Tab for the next / previous, keys 1-9 pick its cards.");
                ui.horizontal_wrapped(|ui| {
                    for (k, h) in overlay.hands.iter().enumerate() {
                        let words = format!("{}: {}", h.name, pick_words(picks, &h.unit));
                        if ui.selectable_label(k == picks.current, words).clicked() {
                            picks.current = k;
                        }
                    }
                });
                ui.separator();
                let hand = &overlay.hands[picks.current];
                ui.horizontal(|ui| {
                    if ui.button("< Previous").clicked() {
                        picks.current = (picks.current + n - 1) % n;
                    }
                    ui.strong(format!(
                        "Figure {} of {n}: {} — {} blows left",
                        picks.current + 1,
                        hand.name,
                        hand.blows
                    ));
                    if ui.button("Next > (Tab)").clicked() {
                        picks.current = (picks.current + 1) % n;
                    }
                });
                ui.checkbox(
                    &mut picks.show_all,
                    "Show the cards it may not play, with the rule that forbids each",
                );
                let hand = &overlay.hands[picks.current];
                egui::ScrollArea::vertical()
                    .id_salt(("hand", &hand.unit))
                    .max_height(300.0)
                    .show(ui, |ui| hand_ui(ui, hand, picks, key));
            }
            egui::ScrollArea::vertical()
                .max_height(160.0)
                .show(ui, |ui| {
                    for due in &overlay.guesses {
                        ui.separator();
                        ui.horizontal(|ui| {
                            ui.label(format!(
                                "{} guesses which way {} dodges:",
                                due.guesser, due.dodger
                            ));
                            for (label, dir) in [
                                ("Left", Some(GuessDir::Left)),
                                ("Right", Some(GuessDir::Right)),
                                ("Back", Some(GuessDir::Back)),
                                ("No guess", None),
                            ] {
                                if ui.button(label).clicked() {
                                    answer = Some(CardsAnswer::Guess(due.clone(), dir));
                                }
                            }
                        });
                    }
                });
            if overlay.hands.is_empty() {
                return;
            }
            ui.separator();
            let ready = ready_picks(overlay, picks);
            let open = undecided(overlay, picks);
            // Enter confirms, as the button does (and answers "yes" when the overlay asks).
            let enter = ui.ctx().input(|i| i.key_pressed(egui::Key::Enter));
            if picks.asking && !open.is_empty() {
                ui.label(format!(
                    "No cards picked for {}: they will play PASSIVE SHIELD PARRY. Play them so?",
                    open.join(", ")
                ));
                ui.horizontal(|ui| {
                    if ui.button("Yes, confirm (Enter)").clicked() || enter {
                        picks.asking = false;
                        answer = ready.clone().ok().map(CardsAnswer::Play);
                    }
                    if ui.button("No, go back").clicked() {
                        picks.asking = false;
                    }
                });
                return;
            }
            ui.horizontal(|ui| {
                let button = ui.add_enabled(ready.is_ok(), egui::Button::new("Confirm (Enter)"));
                if let Err(why) = &ready {
                    ui.label(egui::RichText::new(why).weak());
                }
                if button.clicked() || (enter && ready.is_ok()) {
                    if open.is_empty() {
                        answer = ready.ok().map(CardsAnswer::Play);
                    } else {
                        picks.asking = true;
                    }
                }
                if ui
                    .button("Pass for the rest of this melee")
                    .on_hover_text(
                        "Every figure of your side plays PASSIVE SHIELD PARRY from now to the end of this melee phase (after six in a row, D7 makes it play the first card it may), and makes no dodge guesses.",
                    )
                    .clicked()
                {
                    answer = Some(CardsAnswer::PassRest);
                }
            });
        });
    answer
}
