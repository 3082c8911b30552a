//! Issue 11's chooser on the map, headless: a click on an arrow around the figure deciding (or
//! on the enemy its card is aimed at) picks exactly the card it stands for, and the pick
//! becomes the same order as the RON `Move` / `Dodge` / blow written by hand; the card table
//! offers exactly the cards the rules accept.

use super::{act, app_of, game};
use bevy::prelude::*;
use warhorse::rules::grid::{Cell, GridKind};
use warhorse::sim::order::Order;
use warhorse::ui::screens::cards::{CardOverlay, Picks, ready_picks};
use warhorse::ui::screens::chooser_map::{card_cell, click_chooser};
use warhorse::ui::screens::{Handover, ScreenAction, ScreenView};

/// Four footmen, two a side, in contact: the melee starts at once.
const SQUARE: &str = r#"Level(
    name: "Square melee",
    ruleset: "destrier",
    width: 7,
    height: 5,
    legend: { '.': (name: "open", cost: 1) },
    rows: [".......", ".......", ".......", ".......", "......."],
    sides: [(name: "Red", control: Human), (name: "Blue", control: Human)],
    surprised: Some("Blue"),
    figures: [
        (id: "red_a", template: "footman", side: "Red", at: (2, 1), facing: "E"),
        (id: "red_b", template: "footman", side: "Red", at: (2, 2), facing: "E"),
        (id: "blue_a", template: "footman", side: "Blue", at: (3, 1), facing: "W"),
        (id: "blue_b", template: "footman", side: "Blue", at: (3, 2), facing: "W"),
    ],
)"#;

fn places(app: &mut App) -> Vec<(String, Cell)> {
    game(app)
        .snapshot()
        .figures
        .iter()
        .map(|f| (f.id.clone(), Cell::new(f.cell[0], f.cell[1])))
        .collect()
}

fn overlay(app: &App) -> Option<CardOverlay> {
    app.world().resource::<ScreenView>().cards.clone()
}

/// Plays the melee (passing every figure's picks through the chooser) until a chooser offers
/// a card of the kind `wanted` accepts; returns that chooser.
fn chooser_with(app: &mut App, wanted: impl Fn(&CardOverlay) -> bool) -> CardOverlay {
    for _ in 0..4 {
        order_end(app);
    }
    for _ in 0..40 {
        if app.world().resource::<Handover>().waiting_for.is_some() {
            act(app, ScreenAction::AcceptHandover);
        }
        if app
            .world()
            .resource::<warhorse::ui::screens::Overlays>()
            .dialog
            .is_some()
        {
            app.world_mut()
                .resource_mut::<warhorse::ui::screens::Overlays>()
                .dialog = None;
            app.update();
        }
        let Some(o) = overlay(app) else {
            panic!("the melee ended before the card was offered");
        };
        if wanted(&o) {
            return o;
        }
        let picks = ready_picks(&o, &Picks::default()).expect("parrying is always legal");
        act(app, ScreenAction::PlayCards(picks));
    }
    panic!("no chooser offered the card");
}

fn order_end(app: &mut App) {
    let g = game(app);
    if g.order(&Order::EndSide).is_ok() {
        warhorse::ui::screens::host::GameHost::touched(app.world_mut());
        app.update();
    }
}

/// The last order the game accepted.
fn last_order(app: &mut App) -> Order {
    game(app).record().orders.last().cloned().expect("an order")
}

#[test]
fn a_clicked_map_arrow_gives_the_same_order_as_the_ron_move_it_stands_for() {
    let level = warhorse::level::load_level_str(SQUARE, "<square>", None).expect("level");
    let (mut app, _) = app_of("chooser-arrow", level, None);
    let o = chooser_with(&mut app, |o| {
        o.hands.iter().any(|h| {
            h.cards
                .iter()
                .any(|c| c.verdict.is_ok() && c.toward.is_some_and(|w| !w.turn))
        })
    });
    let places = places(&mut app);
    let (k, hand) = o
        .hands
        .iter()
        .enumerate()
        .find(|(_, h)| {
            h.cards
                .iter()
                .any(|c| c.verdict.is_ok() && c.toward.is_some())
        })
        .expect("a figure with a way");
    let card = hand
        .cards
        .iter()
        .find(|c| c.verdict.is_ok() && c.toward.is_some_and(|w| !w.turn))
        .expect("a step")
        .clone();
    let at = places
        .iter()
        .find(|(id, _)| *id == hand.unit)
        .expect("placed")
        .1;
    let cell = card_cell(&card, at, GridKind::Square, &places).expect("an arrow's cell");
    assert!(
        GridKind::Square.dir_to_adjacent(at, cell).is_some(),
        "the arrow points at a neighbouring cell"
    );
    let mut picks = Picks {
        side: Some(o.side),
        current: k,
        ..Default::default()
    };
    assert!(click_chooser(
        &o,
        &mut picks,
        cell,
        GridKind::Square,
        &places
    ));
    // Several cards may stand for one cell (a MOVE and a DODGE that way): the table then
    // shows just those, and the player picks the one meant.
    if let Some(focus) = &picks.focus {
        assert!(focus.contains(&card.name), "{focus:?}");
        warhorse::ui::screens::cards::toggle(&mut picks, &hand.unit, &card);
    }
    let pick = picks.by_unit.get(&hand.unit).expect("picked").clone();
    assert_eq!(
        pick.melee,
        vec![card.name.clone()],
        "the card the arrow stands for"
    );
    let w = card.toward.expect("a way");
    let ron = if card.name.starts_with("DODGE") {
        let way = card.name.trim_start_matches("DODGE ").to_string();
        let way = match way.as_str() {
            "LEFT" => "Left",
            "RIGHT" => "Right",
            _ => "Back",
        };
        format!(
            "[PlayCards(unit: \"{}\", melee: [Dodge({way})])]",
            hand.unit
        )
    } else {
        format!(
            "[PlayCards(unit: \"{}\", melee: [Move(To(Dir({})))])]",
            hand.unit, w.dir
        )
    };
    let expected = ron::from_str::<Vec<Order>>(&ron).expect("RON order")[0].clone();
    let mut all = ready_picks(&o, &Picks::default()).expect("the others parry");
    for p in &mut all {
        if p.unit == pick.unit {
            *p = pick.clone();
        }
    }
    // The figure's own order is the first of the side's picks played: find it in the record.
    let before = game(&mut app).record().orders.len();
    act(&mut app, ScreenAction::PlayCards(all));
    let given: Vec<Order> = game(&mut app).record().orders[before..].to_vec();
    assert!(
        given.contains(&expected),
        "the map click gave {given:?}, not the RON {ron}"
    );
    let _ = last_order(&mut app);
}

#[test]
fn a_click_on_an_enemy_picks_the_blow_aimed_at_it_and_another_friend_switches_figure() {
    let level = warhorse::level::load_level_str(SQUARE, "<square>", None).expect("level");
    let (mut app, _) = app_of("chooser-enemy", level, None);
    let o = chooser_with(&mut app, |o| {
        o.hands.len() > 1
            && o.hands[0]
                .cards
                .iter()
                .any(|c| c.verdict.is_ok() && c.name.starts_with("DELIVER BLOW"))
    });
    let places = places(&mut app);
    let hand = &o.hands[0];
    let blow = hand
        .cards
        .iter()
        .find(|c| c.verdict.is_ok() && c.name.starts_with("DELIVER BLOW"))
        .expect("a blow")
        .clone();
    let enemy = blow.target.clone().expect("a blow is aimed");
    let cell = places.iter().find(|(id, _)| *id == enemy).expect("enemy").1;
    let mut picks = Picks {
        side: Some(o.side),
        ..Default::default()
    };
    assert!(click_chooser(
        &o,
        &mut picks,
        cell,
        GridKind::Square,
        &places
    ));
    let chosen: Vec<String> = match &picks.focus {
        // A kick and a punch at the same enemy too: the table narrows to the cards for it.
        Some(focus) => {
            assert!(focus.contains(&blow.name), "{focus:?}");
            assert!(
                focus.iter().all(|n| n.ends_with(&format!(" at {enemy}"))),
                "only cards aimed at {enemy}: {focus:?}"
            );
            Vec::new()
        }
        None => picks.by_unit[&hand.unit].melee.clone(),
    };
    if picks.focus.is_none() {
        assert_eq!(chosen, vec![blow.name.clone()]);
    }
    // A click on the side's other figure makes it the one deciding.
    let other = &o.hands[1];
    let at = places
        .iter()
        .find(|(id, _)| *id == other.unit)
        .expect("friend")
        .1;
    assert!(click_chooser(&o, &mut picks, at, GridKind::Square, &places));
    assert_eq!(picks.current, 1);
    assert_eq!(picks.focus, None);
}

/// The table offers exactly the cards the rules accept: every card it shows as playable is
/// accepted when given alone as an order, every greyed one is refused with the reason shown.
#[test]
fn the_chooser_offers_exactly_the_cards_the_rules_accept() {
    let level = warhorse::level::load_level_str(SQUARE, "<square>", None).expect("level");
    let (mut app, _) = app_of("chooser-exact", level, None);
    let o = chooser_with(&mut app, |o| o.hands.iter().any(|h| h.blows > 0));
    let record = game(&mut app).record().clone();
    let source = warhorse::ui::screens::melee_cards::MeleeCards;
    use warhorse::ui::screens::cards::{CardKind, CardPick, CardSource};
    let mut checked = 0;
    for hand in &o.hands {
        for card in &hand.cards {
            if card.kind == CardKind::Tac && warhorse::ui::screens::cards::needs_target(&card.name)
            {
                continue;
            }
            let mut copy = warhorse::sim::Game::from_record(&record).expect("replays");
            let pick = CardPick {
                unit: hand.unit.clone(),
                tac: (card.kind == CardKind::Tac).then(|| card.name.clone()),
                tac_target: None,
                melee: if card.kind == CardKind::Melee {
                    vec![card.name.clone()]
                } else {
                    Vec::new()
                },
            };
            let played = source.play(&mut copy, &pick);
            match &card.verdict {
                Ok(()) => assert!(
                    played.is_ok(),
                    "{} offered but refused: {played:?}",
                    card.name
                ),
                Err(why) => {
                    // The table shows the rules' words with the figures' names (issue 34).
                    let refused = o
                        .names
                        .show(&played.expect_err(&format!("{} greyed but accepted", card.name)));
                    assert!(
                        refused.contains(why.as_str()) || why.contains(refused.as_str()),
                        "{}: greyed for {why:?}, refused for {refused:?}",
                        card.name
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 10, "only {checked} cards checked");
}
