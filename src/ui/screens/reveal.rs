//! The reveal (issue 11): when a melee round's cards are faced, the window shows that round —
//! each fight's cards face up side by side, drawn as cards, and what came of them blow by
//! blow — in a panel the player closes (OK or Enter); then the results play on the map
//! ([`crate::ui::effects`]). The panel is public (both players read it; in hot-seat it comes
//! after the hand-over screen, which is drawn first), and the log keeps every line as before.

use super::actions::{Dialog, Overlays};
use super::card_face::{CARD_SIZE, card_face};
use super::cards::{CardKind, CardView};
use super::host::GameHost;
use crate::rules::grid::GridKind;
use crate::rules::melee::Faced;
use crate::rules::melee::cards::{Choice, MeleeCard, TacCard};
use crate::sim::log::{Happening, LogEntry};
use crate::ui::settings::side_colour32;
use bevy::prelude::*;
use bevy_egui::egui;
use std::collections::BTreeMap;

/// How much of the game's log the reveal has looked at.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct RevealWatch {
    /// Log lines already looked at; `None` until the first look (a game just started or
    /// loaded shows no old round).
    pub seen: Option<usize>,
}

/// One figure's cards, face up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The figure's id.
    pub id: String,
    /// Its name, as players read it (the id until [`RevealView::with_names`]).
    pub name: String,
    /// Its side (the colour of its name).
    pub side: u8,
    /// Its cards as they were faced (TAC first); "PASSIVE SHIELD PARRY" when it played none.
    pub cards: Vec<CardView>,
}

/// A fight: figures whose cards aim at one another, and the results that name them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fight {
    /// The figures, by side (lowest side first).
    pub figures: Vec<Played>,
    /// The log lines of its results, with their dice.
    pub results: Vec<ResultLine>,
}

/// One printed result of a round, and whether a die was rolled in it (drawn in gold): told
/// by the log entry's roll, not by looking for the die in the words (issue 29: no screen
/// reads the log as text).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResultLine {
    /// The line as the log prints it, its die after it.
    pub text: String,
    /// A die was rolled in it.
    pub rolled: bool,
}

impl ResultLine {
    fn of(line: &LogEntry) -> ResultLine {
        ResultLine {
            text: printed(line),
            rolled: line.roll.is_some(),
        }
    }
}

/// What the reveal panel shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RevealView {
    /// `Card round 3`, `TAC phase`.
    pub title: String,
    /// Each fight's cards and results.
    pub fights: Vec<Fight>,
    /// Lines that name no fighter of the round (a phase's end, a rule's note).
    pub other: Vec<String>,
}

impl RevealView {
    /// The reveal with the figures' names in every word of it instead of their ids (issue 34).
    pub fn with_names(mut self, names: &crate::rules::names::Names) -> Self {
        self.title = names.show(&self.title);
        self.other = self.other.iter().map(|l| names.show(l)).collect();
        for fight in &mut self.fights {
            for r in &mut fight.results {
                r.text = names.show(&r.text);
            }
            for p in &mut fight.figures {
                p.name = names.name(&p.id).to_string();
                p.cards = std::mem::take(&mut p.cards)
                    .into_iter()
                    .map(|c| c.with_names(names))
                    .collect();
            }
        }
        self
    }
}

/// One faced card as the reveal draws it: `CLOSE at levy`, `DELIVER BLOW at levy`.
fn tac_view(tac: TacCard, target: Option<&str>) -> CardView {
    let name = match target {
        Some(t) => format!("{} at {t}", tac.name()),
        None => tac.name().to_string(),
    };
    let mut card = CardView::plain(&name, CardKind::Tac, 0, Ok(()));
    card.target = target.map(str::to_string);
    card.effect = tac.effect().to_string();
    card
}

/// A faced MELEE card: aimed cards read `DELIVER BLOW at levy`, the rest as the log prints
/// them.
fn melee_view(m: &MeleeCard, grid: GridKind) -> CardView {
    let name = match m.target() {
        Some(t) if !matches!(m, MeleeCard::CastSpell { .. }) => format!("{} at {t}", m.name()),
        _ => m.words(grid),
    };
    let mut card = CardView::plain(&name, CardKind::Melee, 0, Ok(()));
    card.target = m.target().map(str::to_string);
    card
}

/// A figure's faced cards, TAC first; none is PASSIVE SHIELD PARRY, "standing quietly".
fn faced_cards(choice: &Choice, grid: GridKind) -> Vec<CardView> {
    let mut cards: Vec<CardView> = choice
        .tac
        .map(|t| tac_view(t, choice.tac_target.as_deref()))
        .into_iter()
        .chain(choice.melee.iter().map(|m| melee_view(m, grid)))
        .collect();
    if cards.is_empty() {
        cards.push(melee_view(&MeleeCard::PassiveShieldParry, grid));
    }
    cards
}

/// The figure a result of the round is about: the striker of a roll to hit, else the first
/// fighter of the round the result names.
fn about<'a>(line: &'a LogEntry, ids: &[String]) -> Option<&'a str> {
    match &line.what {
        Happening::RollToHit { by, .. } => Some(by),
        Happening::Result { named, .. } => {
            named.iter().find(|n| ids.contains(n)).map(String::as_str)
        }
        _ => None,
    }
}

/// How the reveal prints a result: the log panel's spelling (egui's default fonts have no
/// arrows), with its die.
fn printed(line: &LogEntry) -> String {
    let text = line.to_string();
    match &line.roll {
        Some(r) => format!("{text}  [{} {}: {}]", r.by, r.die, r.value),
        None => text,
    }
}

/// Groups a faced round into fights: figures whose cards aim at each other are in one fight
/// (by union over the targets), each result goes to the fight of the figure it is about.
/// `sides` gives each figure's side.
pub fn fights_of(
    faced: &Faced,
    results: &[&LogEntry],
    sides: &BTreeMap<String, u8>,
) -> (Vec<Fight>, Vec<String>) {
    let ids: Vec<String> = faced.plays.iter().map(|p| p.figure.clone()).collect();
    let mut group: Vec<usize> = (0..ids.len()).collect();
    fn root(g: &mut [usize], mut i: usize) -> usize {
        while g[i] != i {
            g[i] = g[g[i]];
            i = g[i];
        }
        i
    }
    let played: Vec<Vec<CardView>> = faced
        .plays
        .iter()
        .map(|p| faced_cards(&p.choice, faced.grid))
        .collect();
    for (i, cards) in played.iter().enumerate() {
        for t in cards.iter().filter_map(|c| c.target.as_ref()) {
            if let Some(j) = ids.iter().position(|x| x == t) {
                let (a, b) = (root(&mut group, i), root(&mut group, j));
                group[a] = b;
            }
        }
    }
    let mut fights: Vec<(usize, Fight)> = Vec::new();
    for (i, cards) in played.into_iter().enumerate() {
        let r = root(&mut group, i);
        let k = match fights.iter().position(|(g, _)| *g == r) {
            Some(k) => k,
            None => {
                fights.push((r, Fight::default()));
                fights.len() - 1
            }
        };
        fights[k].1.figures.push(Played {
            id: ids[i].clone(),
            name: ids[i].clone(),
            side: sides.get(&ids[i]).copied().unwrap_or(0),
            cards,
        });
    }
    let mut other = Vec::new();
    for line in results {
        match about(line, &ids).and_then(|id| {
            let i = ids.iter().position(|x| x == id)?;
            let r = root(&mut group, i);
            fights.iter().position(|(g, _)| *g == r)
        }) {
            Some(k) => fights[k].1.results.push(ResultLine::of(line)),
            None => other.push(printed(line)),
        }
    }
    let mut fights: Vec<Fight> = fights.into_iter().map(|(_, f)| f).collect();
    for f in &mut fights {
        f.figures.sort_by_key(|p| p.side);
    }
    // The blows first: a figure that fought nobody and to which nothing happened is last.
    fights.sort_by_key(Fight::is_quiet);
    (fights, other)
}

/// The last round faced in `log[from..]`: its cards face up, then every result, without the
/// lines that only say who still chooses. `None` when no round was faced there.
pub fn last_round(log: &[LogEntry], from: usize) -> Option<(&Faced, Vec<&LogEntry>)> {
    let new = log.get(from..)?;
    let (start, faced) = new
        .iter()
        .enumerate()
        .rev()
        .find_map(|(k, l)| match &l.what {
            Happening::CardsFaced(f) => Some((k, f)),
            _ => None,
        })?;
    let results = new[start + 1..]
        .iter()
        .filter(|l| {
            !matches!(
                l.what,
                Happening::AwaitingCards(_) | Happening::ChoseFaceDown(_)
            )
        })
        .collect();
    Some((faced, results))
}

/// The reveal of the last round faced in `log[from..]`, fight by fight. A round in which
/// every figure stood quietly asks for no reveal (issue 34): there is nothing to show, and the
/// log keeps its line.
pub fn reveal_of(
    log: &[LogEntry],
    from: usize,
    sides: &BTreeMap<String, u8>,
) -> Option<RevealView> {
    let (faced, results) = last_round(log, from)?;
    if faced.all_passive() {
        return None;
    }
    let (fights, other) = fights_of(faced, &results, sides);
    Some(RevealView {
        title: faced.title(),
        fights,
        other,
    })
}

/// Draws the reveal as a tray along the bottom of the map (where the card table was), so the
/// fight stays in view above it; true when the player closed it (OK or Enter).
pub fn reveal_ui(ctx: &egui::Context, reveal: &RevealView) -> bool {
    let free = crate::ui::play::panels::free_area(ctx);
    super::surface::show_tray(ctx, "warhorse-reveal", free, |ui| {
        ui.strong(format!("{} — the cards revealed", reveal.title));
        // As tall as the card table was, about: the map above keeps the fight in view;
        // a melee of a dozen figures scrolls, its fights wrapped into rows.
        egui::ScrollArea::vertical()
            .max_height((free.height() * 0.5 - 60.0).max(CARD_SIZE.y + 40.0))
            .auto_shrink([false, true])
            .show(ui, |ui| {
                for (k, fight) in reveal.fights.iter().enumerate() {
                    if k > 0 {
                        ui.separator();
                    }
                    fight_ui(ui, fight);
                }
                for line in &reveal.other {
                    ui.label(egui::RichText::new(line).weak());
                }
            });
        ui.separator();
        ui.button("OK (Enter): see the results on the map")
            .clicked()
            || ui.input(|i| i.key_pressed(egui::Key::Enter))
    })
}

/// Room for "vs" between the sides, with its spaces.
const VS_WIDTH: f32 = 48.0;

/// Each figure of a fight with whether "vs" goes before it and the width it takes.
fn widths(fight: &Fight, spacing: f32) -> impl Iterator<Item = (usize, bool, f32)> + '_ {
    let mut last_side = None;
    fight.figures.iter().enumerate().map(move |(i, p)| {
        let vs = last_side.is_some_and(|s| s != p.side);
        last_side = Some(p.side);
        let cards = p.cards.len().max(1) as f32;
        (
            i,
            vs,
            cards * (CARD_SIZE.x + spacing) + if vs { VS_WIDTH } else { 0.0 },
        )
    })
}

/// The figures of a fight in rows that fit `width`: a figure with its cards is never split,
/// and a row holds as many as fit (at least one). Each item is a figure's index and whether
/// "vs" goes before it.
pub fn rows_of(fight: &Fight, width: f32, spacing: f32) -> Vec<Vec<(usize, bool)>> {
    let mut rows: Vec<Vec<(usize, bool)>> = vec![Vec::new()];
    let mut used = 0.0;
    for (i, vs, w) in widths(fight, spacing) {
        let row = rows.last_mut().expect("one row at least");
        if !row.is_empty() && used + w > width {
            rows.push(vec![(i, vs)]);
            used = w;
        } else {
            row.push((i, vs));
            used += w;
        }
    }
    rows
}

impl Fight {
    /// One figure that aimed at nobody, and nothing happened to it: the reveal gives it a
    /// line, not a card face.
    pub fn is_quiet(&self) -> bool {
        self.figures.len() < 2 && self.results.is_empty()
    }
}

fn fight_ui(ui: &mut egui::Ui, fight: &Fight) {
    if fight.is_quiet() {
        for p in &fight.figures {
            let cards: Vec<&str> = p.cards.iter().map(|c| c.label.as_str()).collect();
            ui.horizontal_wrapped(|ui| {
                ui.label(
                    egui::RichText::new(&p.name)
                        .strong()
                        .color(side_colour32(ui.ctx(), p.side)),
                );
                ui.label(cards.join(", "));
            });
        }
        return;
    }
    let spacing = ui.spacing().item_spacing.x;
    // The cards on one row, the results beside them where the tray is wide enough (it is
    // as wide as the map): the reveal stays low and the fight above it in view.
    let one_row: f32 = widths(fight, spacing).map(|w| w.2).sum();
    if ui.available_width() >= one_row + RESULTS_MIN {
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| fight_cards(ui, fight, one_row, spacing));
            ui.vertical(|ui| fight_results(ui, fight));
        });
    } else {
        fight_cards(ui, fight, ui.available_width(), spacing);
        fight_results(ui, fight);
    }
}

/// The narrowest the results beside a fight's cards may be.
const RESULTS_MIN: f32 = 320.0;

fn fight_cards(ui: &mut egui::Ui, fight: &Fight, width: f32, spacing: f32) {
    for row in rows_of(fight, width, spacing) {
        ui.horizontal(|ui| {
            for (i, vs) in row {
                let p = &fight.figures[i];
                if vs {
                    ui.add_space(8.0);
                    ui.label(egui::RichText::new("vs").strong().size(18.0));
                    ui.add_space(8.0);
                }
                ui.vertical(|ui| {
                    // The name stays on one line over its cards.
                    ui.add(
                        egui::Label::new(
                            egui::RichText::new(&p.name)
                                .strong()
                                .color(side_colour32(ui.ctx(), p.side)),
                        )
                        .wrap_mode(egui::TextWrapMode::Extend),
                    );
                    ui.horizontal(|ui| {
                        for c in &p.cards {
                            card_face(ui, c, false, None, 8);
                        }
                    });
                });
            }
        });
    }
}

fn fight_results(ui: &mut egui::Ui, fight: &Fight) {
    for line in &fight.results {
        let text = egui::RichText::new(&line.text).small();
        ui.label(if line.rolled {
            text.color(egui::Color32::from_rgb(240, 205, 110))
        } else {
            text
        });
    }
}

/// The results on the map wait while something covers it: the reveal or another dialog, the
/// hand-over screen, the menu.
pub fn hold_effects(
    cover: Option<Res<State<super::cover::Cover>>>,
    hold: Option<ResMut<crate::ui::effects::EffectsHold>>,
) {
    if let Some(mut hold) = hold {
        use super::cover::Cover;
        let held = matches!(
            super::cover::on_top(cover),
            Some(Cover::Handover | Cover::Dialog | Cover::Settings | Cover::Menu)
        );
        hold.set_if_neq(crate::ui::effects::EffectsHold(held));
    }
}

/// After every frame's orders: when a round was faced since the last look, opens the reveal
/// panel (unless another dialog is open: the log has it all the same).
pub fn watch_reveals(world: &mut World) {
    let seen = world.resource::<RevealWatch>().seen;
    let Some(game) = GameHost::get(world) else {
        return;
    };
    let len = game.log().len();
    let found = match seen {
        Some(s) if s < len => {
            let sides = game.sides_of_figures();
            reveal_of(game.log(), s, &sides).map(|r| r.with_names(&game.names()))
        }
        _ => None,
    };
    world.resource_mut::<RevealWatch>().seen = Some(len);
    let Some(reveal) = found else {
        return;
    };
    let mut overlays = world.resource_mut::<Overlays>();
    if overlays.dialog.is_none() {
        overlays.dialog = Some(Dialog::Reveal(reveal));
    }
}

/// Adds the reveal: each card round's faced cards shown in a dialog, the effects on the map
/// held until it is closed.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<RevealWatch>().add_systems(
        Update,
        (
            watch_reveals.run_if(in_state(super::Screen::Playing)),
            hold_effects,
        )
            .chain()
            .in_set(super::ScreenStep::Follow),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::melee::FacedPlay;
    use crate::rules::melee::cards::DodgeDir;

    fn line(text: &str, what: Happening) -> LogEntry {
        LogEntry::new(1, "melee rounds", text.into(), None, what)
    }

    fn play(figure: &str, tac: Option<(TacCard, &str)>, melee: Vec<MeleeCard>) -> FacedPlay {
        FacedPlay {
            figure: figure.into(),
            choice: Choice {
                tac: tac.map(|t| t.0),
                tac_target: tac.map(|t| t.1.to_string()),
                melee,
                forfeit: false,
            },
        }
    }

    fn blow(target: &str) -> MeleeCard {
        MeleeCard::DeliverBlow {
            target: target.into(),
        }
    }

    fn faced(round: u32, plays: Vec<FacedPlay>) -> LogEntry {
        let f = Faced {
            round,
            plays,
            grid: GridKind::Square,
        };
        line(&f.to_string(), Happening::CardsFaced(f))
    }

    fn hit(by: &str, at: &str, roll: u32) -> LogEntry {
        crate::sim::log::roll_to_hit(by, at, 55, roll, false)
    }

    /// Issue 34: "an all-pass round asks for no reveal".
    #[test]
    fn a_round_where_every_figure_stood_quietly_asks_for_no_reveal() {
        let passive = vec![MeleeCard::PassiveShieldParry];
        let quiet = vec![faced(
            4,
            vec![play("a", None, vec![]), play("b", None, passive.clone())],
        )];
        assert!(reveal_of(&quiet, 0, &BTreeMap::new()).is_none());
        let one_blow = vec![faced(
            4,
            vec![play("a", None, vec![blow("b")]), play("b", None, passive)],
        )];
        assert!(reveal_of(&one_blow, 0, &BTreeMap::new()).is_some());
        let a_tac = vec![faced(
            0,
            vec![play("a", Some((TacCard::Close, "b")), vec![])],
        )];
        assert!(reveal_of(&a_tac, 0, &BTreeMap::new()).is_some());
    }

    #[test]
    fn the_last_faced_round_is_shown_without_the_waiting_lines() {
        let log = vec![
            faced(1, vec![play("a", None, vec![])]),
            line(
                "Waiting for MELEE cards for card round 2, face down, from: a, b (D6, D9).",
                Happening::AwaitingCards(vec!["a".into(), "b".into()]),
            ),
            line(
                "a chooses its cards, face down.",
                Happening::ChoseFaceDown("a".into()),
            ),
            faced(
                2,
                vec![
                    play("a", None, vec![blow("b")]),
                    play("b", None, vec![MeleeCard::Dodge(DodgeDir::Back)]),
                ],
            ),
            hit("a", "b", 12),
            line(
                "Waiting for MELEE cards for card round 3, face down, from: a, b (D6, D9).",
                Happening::AwaitingCards(vec!["a".into(), "b".into()]),
            ),
        ];
        assert!(
            log[3]
                .to_string()
                .starts_with("Card round 2 — cards face up: a: DELIVER BLOW → b; b: "),
            "the faced line prints as before: {}",
            log[3]
        );
        let (faced, results) = last_round(&log, 1).expect("a round was faced");
        assert_eq!(faced.title(), "Card round 2");
        assert_eq!(results.len(), 1, "{results:?}");
        let reveal = reveal_of(&log, 1, &BTreeMap::new()).expect("a reveal");
        assert_eq!(reveal.title, "Card round 2");
        let results = &reveal.fights[0].results;
        assert_eq!(
            results[0].text, "a strikes b: needs 55 or less; rolls 12.  [a d100: 12]",
            "the result with its die"
        );
        assert!(results[0].rolled, "drawn as a roll");
        assert_eq!(
            printed(&line("a: DELIVER BLOW → b.", Happening::Told)),
            "a: DELIVER BLOW → b.",
            "arrows as the rules print them: the text font has them"
        );
        assert_eq!(last_round(&log, 4), None, "nothing faced after line 4");
    }

    #[test]
    fn a_round_is_split_into_fights_side_by_side() {
        let f = Faced {
            round: 2,
            plays: vec![
                play("a", Some((TacCard::Close, "b")), vec![blow("b")]),
                play("b", None, vec![MeleeCard::Dodge(DodgeDir::Back)]),
                play("c", None, vec![]),
                play("d", None, vec![MeleeCard::Kick { target: "c".into() }]),
            ],
            grid: GridKind::Square,
        };
        let sides: BTreeMap<String, u8> = [("a", 0), ("b", 1), ("c", 0), ("d", 1)]
            .map(|(k, v)| (k.to_string(), v))
            .into();
        let results = [
            hit("a", "b", 12),
            hit("d", "c", 80),
            line(
                "The melee goes on.",
                Happening::Result {
                    named: Vec::new(),
                    retreated: None,
                },
            ),
        ];
        let refs: Vec<&LogEntry> = results.iter().collect();
        let (fights, other) = fights_of(&f, &refs, &sides);
        assert_eq!(fights.len(), 2, "{fights:?}");
        let ab = &fights[0];
        assert_eq!(
            ab.figures.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(),
            ["a", "b"]
        );
        let a = &ab.figures[0].cards;
        assert_eq!(a[0].kind, CardKind::Tac);
        assert_eq!(a[0].target.as_deref(), Some("b"));
        assert_eq!(a[1].kind, CardKind::Melee);
        assert_eq!(a[1].name, "DELIVER BLOW at b");
        assert_eq!(ab.results, vec![ResultLine::of(&results[0])]);
        let cd = &fights[1];
        assert_eq!(
            cd.figures
                .iter()
                .map(|p| (p.id.as_str(), p.side))
                .collect::<Vec<_>>(),
            [("c", 0), ("d", 1)],
            "lowest side first"
        );
        assert_eq!(cd.figures[0].cards[0].name, "PASSIVE SHIELD PARRY");
        assert_eq!(cd.results, vec![ResultLine::of(&results[1])]);
        assert_eq!(other, vec!["The melee goes on.".to_string()]);
    }

    /// Issue 34: the reveal is a tray under the fight; the blows come first, and a figure
    /// that fought nobody (and was not struck) is a line after them, not a card face on top.
    #[test]
    fn a_figure_that_fought_nobody_comes_after_the_blows() {
        let f = Faced {
            round: 1,
            plays: vec![
                play("lone", None, vec![]),
                play("a", None, vec![blow("b")]),
                play("b", None, vec![blow("a")]),
            ],
            grid: GridKind::Square,
        };
        let sides: BTreeMap<String, u8> = [("lone", 1), ("a", 0), ("b", 1)]
            .map(|(k, v)| (k.to_string(), v))
            .into();
        let results = [hit("a", "b", 12)];
        let refs: Vec<&LogEntry> = results.iter().collect();
        let (fights, _) = fights_of(&f, &refs, &sides);
        let order: Vec<(Vec<&str>, bool)> = fights
            .iter()
            .map(|f| {
                (
                    f.figures.iter().map(|p| p.id.as_str()).collect(),
                    f.is_quiet(),
                )
            })
            .collect();
        assert_eq!(order, [(vec!["a", "b"], false), (vec!["lone"], true)]);
        // Struck while fighting nobody back: not quiet, it has a result to show.
        let results = [hit("a", "lone", 12)];
        let refs: Vec<&LogEntry> = results.iter().collect();
        let f = Faced {
            plays: vec![
                play("lone", None, vec![]),
                play("a", None, vec![blow("lone")]),
            ],
            ..f
        };
        let (fights, _) = fights_of(&f, &refs, &sides);
        assert!(fights.iter().all(|f| !f.is_quiet()), "{fights:?}");
    }

    #[test]
    fn a_big_melee_wraps_into_rows_that_fit_and_never_splits_a_figure() {
        // Six figures against one knight, as the computer's River Crossing melee had: in one
        // row they were 1,500 pixels wide, under the side panel and off the screen.
        let mut plays = vec![play("k", Some((TacCard::Close, "a")), vec![blow("a")])];
        for id in ["a", "b", "c", "d", "e", "f"] {
            plays.push(play(id, Some((TacCard::Close, "k")), vec![blow("k")]));
        }
        let f = Faced {
            round: 0,
            plays,
            grid: GridKind::Square,
        };
        let sides: BTreeMap<String, u8> = [
            ("k", 0),
            ("a", 1),
            ("b", 1),
            ("c", 1),
            ("d", 1),
            ("e", 1),
            ("f", 1),
        ]
        .map(|(k, v)| (k.to_string(), v))
        .into();
        let (fights, _) = fights_of(&f, &[], &sides);
        assert_eq!(fights.len(), 1, "{fights:?}");
        let fight = &fights[0];
        let pair = 2.0 * (CARD_SIZE.x + 8.0);
        let width = 3.5 * pair;
        let rows = rows_of(fight, width, 8.0);
        let order: Vec<usize> = rows.iter().flatten().map(|(i, _)| *i).collect();
        assert_eq!(
            order,
            (0..7).collect::<Vec<_>>(),
            "every figure once, in order"
        );
        for row in &rows {
            let w: f32 = row
                .iter()
                .map(|&(_, vs)| pair + if vs { VS_WIDTH } else { 0.0 })
                .sum();
            assert!(w <= width, "a row of {w} px in {width}");
        }
        assert_eq!(rows.len(), 3, "{rows:?}");
        let vs: Vec<usize> = rows.iter().flatten().filter(|x| x.1).map(|x| x.0).collect();
        assert_eq!(vs, vec![1], "\"vs\" once, between the sides");
        // However narrow, a figure still gets a row of its own.
        assert_eq!(rows_of(fight, 10.0, 8.0).len(), 7);
    }
}
