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

use super::ScreenStep;
use super::actions::{GameOnScreen, ScreenView, human_choosing, message};
use super::host::GameHost;
use crate::sim::Game;
use bevy::prelude::*;
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
    /// The card's name (`CLOSE`, `DELIVER BLOW at foot_1`): the key the picks keep and the
    /// rules' hand is matched by.
    pub name: String,
    /// What the player reads on the card: its name with the figures' names in place of their
    /// ids (`DELIVER BLOW at Footman 1`, issue 34).
    pub label: String,
    /// Its deck.
    pub kind: CardKind,
    /// What it costs, in blows.
    pub cost: u32,
    /// `Ok` if the figure may play it now, else the rules' reason.
    pub verdict: Result<(), String>,
    /// For a card that strikes: the odds the resolver rolls against, in words (chance to
    /// hit, critical, damage), and every modifier on the next lines.
    pub odds: Option<String>,
    /// For a card that strikes: the same numbers, for the card's face.
    pub numbers: Option<CardNumbers>,
    /// The figure the card is aimed at (its id), if any: clicking that figure on the map picks
    /// the card.
    pub target: Option<String>,
    /// The way the card moves or turns the figure, if it does (MOVE, DODGE, WHEEL, TURN):
    /// drawn as an arrow on the map around the figure.
    pub toward: Option<Toward>,
    /// What the card does, in one line with its rule's tag.
    pub effect: String,
}

impl CardView {
    /// The card with the figures' names in its words instead of their ids (issue 34); the
    /// target stays an id, for the map.
    pub fn with_names(mut self, names: &crate::rules::names::Names) -> Self {
        self.label = names.show(&self.label);
        self.verdict = self.verdict.map_err(|why| names.show(&why));
        self.odds = self.odds.map(|o| names.show(&o));
        self.effect = names.show(&self.effect);
        self
    }

    /// A card with a name, a deck, a cost and a verdict, and nothing else known about it.
    pub fn plain(name: &str, kind: CardKind, cost: u32, verdict: Result<(), String>) -> Self {
        CardView {
            name: name.to_string(),
            label: name.to_string(),
            kind,
            cost,
            verdict,
            odds: None,
            numbers: None,
            target: None,
            toward: None,
            effect: String::new(),
        }
    }
}

/// A striking card's numbers, from the resolver (the target showing no defence card).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardNumbers {
    /// Chance to hit, in percent.
    pub chance: i32,
    /// A hit rolled at or under this is critical.
    pub critical: i32,
    /// Least and most damage of a hit before criticals.
    pub damage: (i32, i32),
}

/// A direction on the grid a card moves or turns its figure, as the map draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Toward {
    /// The direction (`rules::grid::Dir` index).
    pub dir: u8,
    /// The figure turns to face it rather than stepping into it.
    pub turn: bool,
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
    /// Directions on the map's grid (8 on squares, 6 on hexes), for the cards' arrows.
    pub dirs: u8,
    /// The figures' names, for the targets and guesses (issue 34: never their ids).
    pub names: std::sync::Arc<crate::rules::names::Names>,
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
    /// A map click that stood for several cards (an enemy with a blow, a kick and a punch
    /// aimed at it; a cell to step into or to turn to): the cards it stands for, by name, and
    /// the chooser shows only those until the player clears it.
    pub focus: Option<Vec<String>>,
}

/// The card table's Confirm: plays the picks as orders; a refusal is shown in a dialog.
pub(super) fn play(world: &mut World, picks: &[CardPick]) {
    let errors = world.resource_scope(|world, cards: Mut<Cards>| {
        let Some(game) = GameHost::get(world) else {
            return Vec::new();
        };
        picks
            .iter()
            .filter_map(|p| cards.0.play(game, p).err())
            .collect::<Vec<_>>()
    });
    GameHost::touched(world);
    world.insert_resource(Picks::default());
    world.resource_mut::<ScreenView>().cards_key = None;
    if !errors.is_empty() {
        message(world, "Cards refused", errors.join("\n"));
    }
}

/// The side passes for the rest of this melee phase.
pub(super) fn pass(world: &mut World, side: u8) {
    let refused = world.resource_scope(|world, cards: Mut<Cards>| {
        let game = GameHost::get(world)?;
        cards.0.pass_rest(game, side).err()
    });
    GameHost::touched(world);
    world.insert_resource(Picks::default());
    world.resource_mut::<ScreenView>().cards_key = None;
    if let Some(r) = refused {
        message(world, "Refused", r);
    }
}

/// A figure guesses (or declines to guess) the way a dodger went.
pub(super) fn guess(world: &mut World, due: &GuessDue, dir: Option<GuessDir>) {
    let refused = world.resource_scope(|world, cards: Mut<Cards>| {
        let game = GameHost::get(world)?;
        cards.0.guess(game, due, dir).err()
    });
    GameHost::touched(world);
    world.resource_mut::<ScreenView>().cards_key = None;
    if let Some(why) = refused {
        message(world, "Guess refused", why);
    }
}

/// Each frame of a game: the hands and guesses of the side at the screen while it chooses
/// cards, re-read only when the game moved on; the picks are cleared when the chooser
/// changes, and the map's clicks belong to the card table while it has hands.
pub fn read_overlay(world: &mut World) {
    let mut view = world.resource::<ScreenView>().clone();
    let choosing = human_choosing(world);
    world.resource_scope(|world, cards: Mut<Cards>| {
        let Some(game) = GameHost::get(world) else {
            return;
        };
        let side = choosing.filter(|_| !cards.0.choosers(game).is_empty());
        match side {
            Some((side, key)) => {
                if view.cards_key != Some(key) {
                    let names = game.names();
                    let hands: Vec<FigureHand> = cards
                        .0
                        .hands(game, side)
                        .into_iter()
                        .map(|h| FigureHand {
                            name: names.name(&h.unit).to_string(),
                            cards: h.cards.into_iter().map(|c| c.with_names(&names)).collect(),
                            ..h
                        })
                        .collect();
                    let guesses = cards.0.guesses(game, side);
                    let side_name = view.side_names.get(usize::from(side)).cloned();
                    let dirs = game.board().grid.dirs();
                    view.cards = (!hands.is_empty() || !guesses.is_empty()).then(|| CardOverlay {
                        side,
                        side_name: side_name.unwrap_or_default(),
                        hands,
                        guesses,
                        dirs,
                        names,
                    });
                    view.cards_key = Some(key);
                }
            }
            None => {
                view.cards = None;
                view.cards_key = None;
            }
        }
    });
    let claim = crate::ui::play::MapClaim(view.cards.as_ref().is_some_and(|c| !c.hands.is_empty()));
    if world.get_resource::<crate::ui::play::MapClaim>() != Some(&claim) {
        world.insert_resource(claim);
    }
    let side = view.cards.as_ref().map(|c| c.side);
    if world.resource::<Picks>().side != side {
        world.insert_resource(Picks { side, ..default() });
    }
    if *world.resource::<ScreenView>() != view {
        world.insert_resource(view);
    }
}

fn forget_picks(_: On<GameOnScreen>, mut picks: ResMut<Picks>) {
    *picks = Picks::default();
}

/// Adds the card rules the window uses, the picks in progress and the reading of hands.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Cards>()
        .init_resource::<Picks>()
        .add_observer(forget_picks)
        .add_systems(
            Update,
            read_overlay
                .run_if(in_state(super::Screen::Playing))
                .in_set(ScreenStep::Read),
        );
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

/// Whether any figure of the overlay may play a MELEE card aimed at an enemy (a blow, a kick,
/// a shot…). When none may, the side can only parry, dodge or shuffle this round, and the
/// table suggests passing for the rest of the melee (issue 11: no round after round of
/// hand-overs for nothing).
pub fn can_strike(overlay: &CardOverlay) -> bool {
    overlay.hands.iter().any(|h| {
        h.cards
            .iter()
            .any(|c| c.kind == CardKind::Melee && c.verdict.is_ok() && c.target.is_some())
    })
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

/// The blows `pick`'s cards cost from `hand` (cards it does not hold cost nothing here;
/// [`check_pick`] refuses them).
pub fn blows_picked(hand: &FigureHand, pick: Option<&CardPick>) -> u32 {
    let Some(p) = pick else { return 0 };
    let cost = |name: &str, kind: CardKind| {
        hand.cards
            .iter()
            .find(|c| c.name == name && c.kind == kind)
            .map_or(0, |c| c.cost)
    };
    p.tac.as_deref().map_or(0, |t| cost(t, CardKind::Tac))
        + p.melee
            .iter()
            .map(|m| cost(m, CardKind::Melee))
            .sum::<u32>()
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
    format!("{} ({} {blows}{chance})", card.label, card.cost)
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
