//! The hot-seat hand-over and the card overlay, headless: a fake card source says who
//! chooses (the melee rules wait only in real melees), and one real melee checks the overlay
//! against `sim::melee::hand`. egui is drawn into a bare context where the test reads its text.

use super::{act, app_of, field, game, order};
use bevy::prelude::*;
use bevy_egui::egui;
use std::sync::{Arc, Mutex};
use warhorse::level::Control;
use warhorse::sim::Game;
use warhorse::sim::order::Order;
use warhorse::ui::screens::cards::{
    CardKind, CardPick, CardSource, CardView, Cards, FigureHand, Picks,
};
use warhorse::ui::screens::menu::playing_ui;
use warhorse::ui::screens::{Handover, Overlays, ScreenAction, ScreenView, SideControls};

/// A card rules stand-in: the test says who chooses; each side has one figure with a hand.
#[derive(Clone, Default)]
struct FakeCards {
    chooser: Arc<Mutex<Option<u8>>>,
    played: Arc<Mutex<Vec<CardPick>>>,
}

fn card(name: &str, kind: CardKind, cost: u32, verdict: Result<(), &str>) -> CardView {
    CardView::plain(name, kind, cost, verdict.map_err(str::to_string))
}

/// The fake rules' hands: what `hand()` would answer for each side's figure.
fn rules_hands(side: u8) -> Vec<FigureHand> {
    let (unit, name, secret) = if side == 0 {
        ("knight", "Knight", "GREAT BLOW")
    } else {
        ("levy", "Levy", "DODGE LEFT")
    };
    vec![FigureHand {
        unit: unit.into(),
        name: name.into(),
        blows: 2,
        targets: Vec::new(),
        cards: vec![
            card("CLOSE", CardKind::Tac, 1, Ok(())),
            card(
                "CHARGE",
                CardKind::Tac,
                1,
                Err("C8: only a galloping steed charges"),
            ),
            card("DELIVER BLOW", CardKind::Melee, 1, Ok(())),
            card(secret, CardKind::Melee, 2, Ok(())),
            card(
                "CAST SPELL",
                CardKind::Melee,
                1,
                Err("it has not prepared a spell"),
            ),
        ],
    }]
}

impl CardSource for FakeCards {
    fn choosers(&self, _: &mut Game) -> Vec<u8> {
        self.chooser.lock().unwrap().iter().copied().collect()
    }
    fn hands(&self, _: &mut Game, side: u8) -> Vec<FigureHand> {
        rules_hands(side)
    }
    fn play(&self, _: &mut Game, pick: &CardPick) -> Result<(), String> {
        self.played.lock().unwrap().push(pick.clone());
        Ok(())
    }
}

/// The field, with the fake card rules.
fn app(name: &str) -> (App, FakeCards, std::path::PathBuf) {
    let fake = FakeCards::default();
    let (app, dir) = app_of(name, field(), Some(Cards(Box::new(fake.clone()))));
    (app, fake, dir)
}

fn choose(app: &mut App, fake: &FakeCards, side: Option<u8>) {
    *fake.chooser.lock().unwrap() = side;
    app.update();
}

fn handover(app: &App) -> Option<u8> {
    app.world().resource::<Handover>().waiting_for
}

/// Every string egui would paint for the in-game screens in their current state.
fn painted_text(app: &mut App) -> String {
    let ctx = egui::Context::default();
    let view = app.world().resource::<ScreenView>().clone();
    let handover = app.world().resource::<Handover>().clone();
    let mut overlays = app.world().resource::<Overlays>().clone();
    let mut picks = app.world().resource::<Picks>().clone();
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1280.0, 800.0),
        )),
        ..Default::default()
    };
    let mut out = String::new();
    for _ in 0..2 {
        let full = ctx.run_ui(input(), |ui| {
            playing_ui(ui.ctx(), &view, &handover, &mut overlays, &mut picks, false);
        });
        out.clear();
        for clipped in &full.shapes {
            collect_text(&clipped.shape, &mut out);
        }
        full.drop_without_applying_deltas();
    }
    out
}

fn collect_text(shape: &egui::Shape, out: &mut String) {
    match shape {
        egui::Shape::Text(t) => {
            out.push_str(t.galley.text());
            out.push('\n');
        }
        egui::Shape::Vec(v) => v.iter().for_each(|s| collect_text(s, out)),
        _ => {}
    }
}

#[test]
fn handover_appears_exactly_when_a_secret_choice_passes_between_two_humans() {
    let (mut app, fake, _) = app("handover");
    // Open half-moves: the side to move changes without a screen.
    let first = game(&mut app).turn_state().side_to_move();
    assert_eq!(first, Some(0), "Blue is surprised, Red moves first");
    order(&mut app, Order::EndSide);
    order(&mut app, Order::EndSide);
    assert_eq!(handover(&app), None, "moves are not secret");
    let mover = game(&mut app).turn_state().side_to_move();
    let mover = mover.expect("a side moves");
    let other = 1 - mover;
    // A secret choice for the side already at the computer: no screen.
    choose(&mut app, &fake, Some(mover));
    assert_eq!(handover(&app), None);
    // The secret choice passes to the other human: screen up, cards hidden.
    choose(&mut app, &fake, Some(other));
    assert_eq!(handover(&app), Some(other));
    assert_eq!(app.world().resource::<ScreenView>().cards, None);
    // The click hands over; the same player choosing again needs no new screen.
    act(&mut app, ScreenAction::AcceptHandover);
    assert_eq!(handover(&app), None);
    choose(&mut app, &fake, Some(other));
    assert_eq!(handover(&app), None);
    // With the other side played by the AI there is never a screen.
    app.insert_resource(SideControls(vec![Control::Human, Control::Ai]));
    choose(&mut app, &fake, Some(mover));
    choose(&mut app, &fake, Some(other));
    choose(&mut app, &fake, Some(mover));
    assert_eq!(handover(&app), None, "one side is the AI");
}

#[test]
fn the_handover_screen_shows_nothing_of_either_sides_choice() {
    let (mut app, fake, _) = app("secret");
    choose(&mut app, &fake, Some(1));
    assert_eq!(handover(&app), Some(1), "Red had the computer");
    let shown = painted_text(&mut app);
    assert!(shown.contains("Pass the computer to Blue"), "{shown}");
    for secret in [
        "GREAT BLOW",
        "DODGE LEFT",
        "CLOSE",
        "Knight",
        "Levy",
        "menu",
    ] {
        assert!(!shown.contains(secret), "{secret} shows: {shown}");
    }
    // Even with the menu asked for, the screen hides it.
    app.world_mut().resource_mut::<Overlays>().menu = true;
    assert!(!painted_text(&mut app).contains("Game menu"));
    app.world_mut().resource_mut::<Overlays>().menu = false;
    act(&mut app, ScreenAction::AcceptHandover);
    // Blue's overlay carries Blue's hand only.
    let cards = app
        .world()
        .resource::<ScreenView>()
        .cards
        .clone()
        .expect("overlay");
    assert_eq!(cards.side, 1);
    assert!(cards.hands.iter().all(|h| h.unit == "levy"));
    let shown = painted_text(&mut app);
    assert!(
        shown.contains("DODGE LEFT") && !shown.contains("GREAT BLOW"),
        "{shown}"
    );
}

#[test]
fn the_overlay_is_the_rules_hand_and_confirming_plays_the_picks() {
    let (mut app, fake, _) = app("cards");
    choose(&mut app, &fake, Some(0));
    let cards = app
        .world()
        .resource::<ScreenView>()
        .cards
        .clone()
        .expect("overlay");
    assert_eq!(
        cards.hands,
        rules_hands(0),
        "view model = the rules' hand()"
    );
    let greyed: Vec<&str> = cards.hands[0]
        .cards
        .iter()
        .filter(|c| c.verdict.is_err())
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(greyed, ["CHARGE", "CAST SPELL"]);
    let pick = CardPick {
        unit: "knight".into(),
        tac: Some("CLOSE".into()),
        tac_target: None,
        melee: vec!["DELIVER BLOW".into()],
    };
    act(&mut app, ScreenAction::PlayCards(vec![pick.clone()]));
    assert_eq!(*fake.played.lock().unwrap(), vec![pick]);
    assert_eq!(app.world().resource::<Overlays>().dialog, None);
}

/// Two footmen face to face: the melee starts in the first TAC phase.
const DUEL: &str = r#"Level(
    name: "Duel",
    ruleset: "destrier",
    width: 6,
    height: 3,
    legend: { '.': (name: "open", cost: 1) },
    rows: ["......", "......", "......"],
    sides: [(name: "Red", control: Human), (name: "Blue", control: Human)],
    surprised: Some("Blue"),
    figures: [
        (id: "red_foot", template: "footman", side: "Red", at: (2, 1), facing: "E"),
        (id: "blue_foot", template: "footman", side: "Blue", at: (3, 1), facing: "W"),
    ],
)"#;

#[test]
fn the_real_melee_hands_reach_the_overlay_and_the_cards_are_played() {
    use warhorse::ui::screens::cards::card_label;
    use warhorse::ui::screens::melee_cards::card_view;
    let level = warhorse::level::load_level_str(DUEL, "<duel>", None).expect("duel level");
    let (mut app, _) = app_of("duel", level, None);
    for _ in 0..4 {
        order(&mut app, Order::EndSide);
    }
    assert!(
        !game(&mut app).snapshot().to_choose.is_empty(),
        "the melee waits for cards"
    );
    let view = app.world().resource::<ScreenView>().clone();
    assert!(view.control.secret);
    let first = view.control.side.expect("a side chooses");
    if handover(&app).is_some() {
        act(&mut app, ScreenAction::AcceptHandover);
    }
    let overlay = app
        .world()
        .resource::<ScreenView>()
        .cards
        .clone()
        .expect("overlay");
    assert_eq!(overlay.side, first);
    let mine = if first == 0 { "red_foot" } else { "blue_foot" };
    assert_eq!(overlay.hands.len(), 1);
    assert_eq!(overlay.hands[0].unit, mine, "only the chooser's own hand");
    let g = game(&mut app);
    let names = g.names();
    let rules: Vec<_> = g
        .hand(mine)
        .iter()
        .map(|c| card_view(g, mine, c).with_names(&names))
        .collect();
    assert_eq!(
        overlay.hands[0].cards, rules,
        "the overlay is the rules' hand(), the figures named (issue 34)"
    );
    // The odds preview is the resolver's own numbers (sim::melee::odds), for every card that
    // strikes a blow, greyed or not.
    let hand_cards = game(&mut app).hand(mine);
    let mut previewed = 0;
    for (c, v) in hand_cards.iter().zip(&overlay.hands[0].cards) {
        let warhorse::rules::melee::cards::Card::Melee(m) = &c.card else {
            assert_eq!(v.odds, None, "a TAC card strikes no blow");
            continue;
        };
        let Some(target) = m.target() else { continue };
        let odds =
            warhorse::sim::melee::odds(game(&mut app).world_for_tests_mut(), mine, target, m, &[]);
        match (odds, &v.odds) {
            (Some(o), Some(text)) => {
                previewed += 1;
                assert!(
                    text.starts_with(&format!("{}% to hit {}", o.chance, names.name(target))),
                    "{text}"
                );
                assert!(text.contains(&format!("{}-{} damage", o.damage.0, o.damage.1)));
                assert!(card_label(v).contains(&format!("{}%", o.chance)));
            }
            (None, None) => {}
            (o, t) => panic!("{}: odds {o:?} but preview {t:?}", v.name),
        }
    }
    assert!(previewed > 0, "DELIVER BLOW has its odds");
    assert!(
        rules.iter().any(|c| c.verdict.is_err()),
        "some cards are greyed"
    );
    // Play a legal pick; the other human then gets the computer behind the screen.
    let blow = rules
        .iter()
        .find(|c| c.verdict.is_ok() && c.name.starts_with("DELIVER BLOW"))
        .map(|c| c.name.clone());
    let pick = CardPick {
        unit: mine.into(),
        melee: blow.into_iter().collect(),
        ..Default::default()
    };
    act(&mut app, ScreenAction::PlayCards(vec![pick]));
    assert_eq!(app.world().resource::<Overlays>().dialog, None, "accepted");
    assert_eq!(handover(&app), Some(1 - first));
    assert_eq!(app.world().resource::<ScreenView>().cards, None);
    act(&mut app, ScreenAction::AcceptHandover);
    let overlay = app
        .world()
        .resource::<ScreenView>()
        .cards
        .clone()
        .expect("overlay");
    assert!(overlay.hands.iter().all(|h| h.unit != mine));
}

/// Issue 11: a side may pass for the rest of the melee from the overlay, and is not asked
/// again in that melee phase; the other side still chooses.
#[test]
fn a_side_passes_for_the_rest_of_the_melee_from_the_overlay() {
    let level = warhorse::level::load_level_str(DUEL, "<duel>", None).expect("duel level");
    let (mut app, _) = app_of("duel", level, None);
    for _ in 0..4 {
        order(&mut app, Order::EndSide);
    }
    if handover(&app).is_some() {
        act(&mut app, ScreenAction::AcceptHandover);
    }
    let first = app
        .world()
        .resource::<ScreenView>()
        .control
        .side
        .expect("a side chooses");
    let mine = if first == 0 { "red_foot" } else { "blue_foot" };
    act(&mut app, ScreenAction::PassMelee(first));
    assert_eq!(app.world().resource::<Overlays>().dialog, None, "accepted");
    let snap = game(&mut app).snapshot();
    assert!(
        !snap.to_choose.iter().any(|u| u == mine),
        "{mine} is not asked after its side passed: {:?}",
        snap.to_choose
    );
    assert!(
        snap.log.iter().any(|l| l
            .to_string()
            .contains("passes for the rest of this melee phase")),
        "the pass is in the log"
    );
    // The side still to choose can finish the round; from then on only it is asked.
    if handover(&app).is_some() {
        act(&mut app, ScreenAction::AcceptHandover);
    }
    for _ in 0..40 {
        let snap = game(&mut app).snapshot();
        assert!(
            !snap.to_choose.iter().any(|u| u == mine),
            "{mine} asked again"
        );
        let Some(other) = snap.to_choose.first().cloned() else {
            break;
        };
        order(&mut app, Order::Pass { unit: other });
        if handover(&app).is_some() {
            act(&mut app, ScreenAction::AcceptHandover);
        }
    }
}

/// Issue 11: Confirm with a figure that has no cards picked asks before it plays its PASSIVE
/// SHIELD PARRY.
#[test]
fn confirm_with_undecided_figures_asks_first() {
    use warhorse::ui::screens::cards::{CardOverlay, undecided};
    let overlay = CardOverlay {
        side: 0,
        side_name: "Red".into(),
        hands: rules_hands(0),
        guesses: Vec::new(),
        dirs: 8,
        names: Default::default(),
    };
    let mut picks = Picks::default();
    assert_eq!(undecided(&overlay, &picks), vec!["Knight".to_string()]);
    picks.by_unit.insert(
        "knight".into(),
        CardPick {
            unit: "knight".into(),
            melee: vec!["DELIVER BLOW".into()],
            ..Default::default()
        },
    );
    assert!(undecided(&overlay, &picks).is_empty());
}

/// Issue 11: the table suggests passing for the rest of the melee exactly when no figure of
/// the side may play a MELEE card aimed at an enemy (a refused one does not count).
#[test]
fn passing_is_suggested_only_when_nobody_can_strike() {
    use warhorse::ui::screens::cards::{CardOverlay, can_strike};
    let aimed = |verdict: Result<(), &str>| {
        let mut c = card("DELIVER BLOW at levy", CardKind::Melee, 1, verdict);
        c.target = Some("levy".into());
        c
    };
    let mut overlay = CardOverlay {
        side: 0,
        side_name: "Red".into(),
        hands: rules_hands(0),
        guesses: Vec::new(),
        dirs: 8,
        names: Default::default(),
    };
    // Untargeted cards only (a TAC card, a parry): nothing to strike.
    assert!(!can_strike(&overlay));
    overlay.hands[0]
        .cards
        .push(aimed(Err("D11: levy is 2 cells away; its reach is 1")));
    assert!(!can_strike(&overlay));
    overlay.hands[0].cards.push(aimed(Ok(())));
    assert!(can_strike(&overlay));
}

/// Issue 11: one figure at a time, and by default only the cards it may play — exactly those
/// the rules accept (every card shown has an `Ok` verdict from the rules' hand); the toggle
/// shows the rest, greyed with their rule.
#[test]
fn the_chooser_shows_only_playable_cards_unless_asked() {
    use warhorse::ui::screens::cards::{pick_words, shown_cards};
    let hand = &rules_hands(0)[0];
    let shown = shown_cards(hand, false);
    assert!(!shown.is_empty());
    assert!(shown.iter().all(|c| c.verdict.is_ok()));
    assert_eq!(
        shown.len(),
        hand.cards.iter().filter(|c| c.verdict.is_ok()).count()
    );
    let all = shown_cards(hand, true);
    assert_eq!(all.len(), hand.cards.len());
    assert!(all.iter().any(|c| c.verdict.is_err()));
    let mut picks = Picks::default();
    assert_eq!(pick_words(&picks, "knight"), "not chosen");
    picks.by_unit.insert(
        "knight".into(),
        CardPick {
            unit: "knight".into(),
            tac: Some("CLOSE".into()),
            melee: vec!["DELIVER BLOW".into()],
            ..Default::default()
        },
    );
    assert_eq!(pick_words(&picks, "knight"), "CLOSE + DELIVER BLOW");
}
