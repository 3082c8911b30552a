//! Charge declarations in the overlay (issue 5, item 7), headless: each side's chargers with
//! every enemy judged by the charge rules, the hand-over between two humans that hides the
//! first side's orders, the reveal, and the charged figures' answers.

use super::{act, game};
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use std::path::Path;
use warhorse::level::{Control, load_level_file};
use warhorse::sim::charge::{charge_odds, charge_targets, visible};
use warhorse::sim::components::SideId;
use warhorse::sim::order::Order;
use warhorse::sim::phase::Phase;
use warhorse::sim::world::find_figure;
use warhorse::ui::screens::charges::{
    ChargeOverlay, ChargePicks, ChargeView, orders_of, reply_verdict, toggle_target,
};
use warhorse::ui::screens::saves::SaveDir;
use warhorse::ui::screens::{Handover, ScreenAction, ScreenView, ScreensPlugin};

fn charge_app(name: &str) -> App {
    let dir =
        std::env::temp_dir().join(format!("warhorse-charges-ui-{name}-{}", std::process::id()));
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, ScreensPlugin))
        .insert_resource(SaveDir(dir));
    let level = load_level_file(Path::new("tests/levels/charge_joust.ron")).expect("level");
    act(
        &mut app,
        ScreenAction::Start(Box::new(level), 9, vec![Control::Human; 2]),
    );
    app
}

fn overlay(app: &App) -> Option<ChargeOverlay> {
    app.world().resource::<ChargeView>().overlay.clone()
}

fn side_of(app: &mut App, id: &str) -> u8 {
    let w = game(app).world_for_tests_mut();
    let e = find_figure(w, id).expect("figure");
    w.get::<SideId>(e).expect("side").0
}

#[test]
fn charges_are_declared_in_the_overlay_secretly_with_a_handover_between_humans() {
    let mut app = charge_app("declare");
    assert_eq!(game(&mut app).phase(), Phase::ChargeDeclaration);
    let first = overlay(&app).expect("a charge overlay");
    assert!(app.world().resource::<ScreenView>().control.secret);
    assert!(!app.world().resource::<Handover>().screen_up());
    assert!(!first.declare.is_empty());
    for d in &first.declare {
        assert_eq!(
            side_of(&mut app, &d.unit),
            first.side,
            "only its own chargers"
        );
        // Every enemy, judged by the charge rules themselves, with its line of sight.
        let w = game(&mut app).world_for_tests_mut();
        let rules = charge_targets(w, &d.unit);
        let seen = visible(w, &d.unit);
        assert_eq!(d.targets.len(), rules.len());
        for (t, (id, verdict)) in d.targets.iter().zip(rules) {
            assert_eq!((&t.id, &t.verdict), (&id, &verdict));
            assert_eq!(t.in_sight, seen.contains(&id));
            // The odds shown are the charge's own numbers (C3, K2), not a copy.
            let o = charge_odds(w, &d.unit, &id).expect("both on the field");
            let (chance, words) = t.odds.clone().expect("odds shown for every enemy");
            assert_eq!(chance, o.chance);
            assert!(
                words.starts_with(&format!("{}% to hit {id}", o.chance)),
                "{words}"
            );
            assert!(
                (5..=95).contains(&chance),
                "within the hit limits: {chance}"
            );
        }
    }
    // A greyed target is one the game refuses; its reason is the rules' words.
    let refused = first
        .declare
        .iter()
        .flat_map(|d| d.targets.iter().map(move |t| (d, t)))
        .find(|(_, t)| t.verdict.is_err());
    if let Some((d, t)) = refused {
        let before = game(&mut app).record().orders.len();
        let r = game(&mut app).order(&Order::DeclareCharge {
            unit: d.unit.clone(),
            targets: vec![t.id.clone()],
        });
        assert!(r.is_err(), "{} may not charge {}", d.unit, t.id);
        assert_eq!(game(&mut app).record().orders.len(), before);
    }
    // The first side picks its first allowed target for each charger and confirms.
    let mut picks = app.world().resource::<ChargePicks>().clone();
    assert_eq!(picks.side, Some(first.side));
    for d in &first.declare {
        if let Some(t) = d.targets.iter().find(|t| t.verdict.is_ok()) {
            toggle_target(&mut picks, &d.unit, &t.id);
        }
    }
    let orders = orders_of(&first, &picks);
    assert!(
        orders
            .iter()
            .any(|o| matches!(o, Order::DeclareCharge { .. }))
    );
    act(&mut app, ScreenAction::Charges(orders));
    assert_eq!(
        app.world()
            .resource::<warhorse::ui::screens::Overlays>()
            .dialog,
        None,
        "accepted"
    );
    // The other human: the hand-over screen first, nothing shown behind it.
    let other = 1 - first.side;
    assert_eq!(app.world().resource::<Handover>().waiting_for, Some(other));
    assert_eq!(overlay(&app), None);
    act(&mut app, ScreenAction::AcceptHandover);
    let second = overlay(&app).expect("the other side's overlay");
    assert_eq!(second.side, other);
    let p = app.world().resource::<ChargePicks>().clone();
    assert_eq!(p.side, Some(other));
    assert!(p.targets.is_empty(), "nothing of the first side's picks");
    let snap = game(&mut app).snapshot();
    assert!(
        !snap.log.iter().any(|l| l.to_string().contains(" charges ")),
        "the first side's targets stay face down until the reveal"
    );
    // No charge for the second side: the reveal, then the charged figures answer.
    act(
        &mut app,
        ScreenAction::Charges(orders_of(&second, &ChargePicks::default())),
    );
    let log = game(&mut app).snapshot().log;
    assert!(
        log.iter()
            .any(|l| l.to_string().contains("revealed together")),
        "revealed"
    );
    // Answers: the charged figures are the second side's; a figure on foot may HAMSTRING,
    // a rider may not.
    if game(&mut app).phase() == Phase::ChargeDeclaration {
        if app.world().resource::<Handover>().screen_up() {
            act(&mut app, ScreenAction::AcceptHandover);
        }
        let answers = overlay(&app).expect("answers to choose");
        assert!(!answers.answer.is_empty());
        for a in &answers.answer {
            assert!(!a.charged_by.is_empty());
            let hamstring =
                reply_verdict(a.mounted, warhorse::rules::charge::ride::Reply::Hamstring);
            assert_eq!(hamstring.is_ok(), !a.mounted);
        }
        act(
            &mut app,
            ScreenAction::Charges(orders_of(&answers, &ChargePicks::default())),
        );
    }
    assert_ne!(game(&mut app).phase(), Phase::ChargeDeclaration);
    assert_eq!(overlay(&app), None);
}
