//! Issue 12 in the window, headless: the briefing opens for the side at the computer in turn 1
//! and blocks the board until read; the objectives panel's data follows the game; when the
//! battle ends the end screen opens with the judge's result, nobody acts any more and undo is
//! refused.

use super::*;
use warhorse::ui::screens::battle::{BattleScreens, BattleView};

const RACE: &str = r#"Level(name: "race", description: "Red runs for the edge.", ruleset: "destrier",
    width: 8, height: 5,
    legend: { '.': (name: "open", cost: 1) },
    rows: ["........", "........", "........", "........", "........"],
    sides: [(name: "Red", control: Human, briefing: "Run east."),
            (name: "Blue", control: Human, briefing: "Stop him.")],
    surprised: Some("Blue"),
    figures: [
        (id: "r", template: "footman", side: "Red", at: (5, 2), facing: "E"),
        (id: "b", template: "footman", side: "Blue", at: (0, 0), facing: "E"),
    ],
    victory: (turns: 4, objectives: [
        (side: "Red", goal: Exit(figures: ["r"], edge: E), points: 10, wins: true),
        (side: "Blue", goal: Protect(figures: ["b"]), points: 3),
    ]),
)"#;

#[test]
fn briefing_then_objectives_then_the_end_screen() {
    let level = warhorse::level::load_level_str(RACE, "race.ron", None).expect("loads");
    let (mut app, _dir) = app_of("battle", level, None);
    let screens = app.world().resource::<BattleScreens>().clone();
    assert_eq!(
        screens.briefing,
        Some(0),
        "Red is briefed before its first orders"
    );
    let view = app.world().resource::<BattleView>().clone();
    assert_eq!(view.turn_limit, 4);
    assert_eq!(view.objectives.len(), 2);
    assert_eq!(view.objectives[0].achieved, None);
    assert_eq!(
        view.briefings,
        vec!["Run east.".to_string(), "Stop him.".to_string()]
    );
    assert_eq!(view.named, vec!["b".to_string(), "r".to_string()]);
    assert_eq!(view.edges.len(), 1);
    // Reading the briefing is remembered: it does not open again for Red.
    {
        let mut s = app.world_mut().resource_mut::<BattleScreens>();
        s.briefed.push(0);
        s.briefing = None;
    }
    app.update();
    assert_eq!(app.world().resource::<BattleScreens>().briefing, None);
    order(
        &mut app,
        Order::Move {
            unit: "r".into(),
            steps: vec![Step::Forward, Step::Forward],
        },
    );
    app.update();
    let view = app.world().resource::<BattleView>().clone();
    let out = view.outcome.clone().expect("the battle is over");
    assert_eq!(out.winner.as_deref(), Some("Red"));
    assert_eq!(out.points.get("Red"), Some(&10));
    assert_eq!(view.objectives[0].achieved, Some(1));
    assert_eq!(view.tallies[0].points, 10);
    let screens = app.world().resource::<BattleScreens>().clone();
    assert!(screens.end && screens.end_seen, "{screens:?}");
    assert_eq!(app.world().resource::<ScreenView>().control.side, None);
    assert!(!game(&mut app).can_undo());
    let why = game(&mut app).undo().expect_err("the result stands");
    assert!(why.0.contains("battle is over"), "{}", why.0);
}

#[test]
fn the_finished_battle_can_be_watched_again_to_the_same_end() {
    use warhorse::ui::screens::replay::Replay;
    let level = warhorse::level::load_level_str(RACE, "race.ron", None).expect("loads");
    let (mut app, dir) = app_of("battle-replay", level, None);
    // One step a half-move, with an initiative roll between: the replay has dice to repeat.
    for _ in 0..12 {
        if game(&mut app).outcome().is_some() {
            break;
        }
        let red = game(&mut app).snapshot().to_move.as_deref() == Some("Red");
        let moved = game(&mut app)
            .record()
            .orders
            .iter()
            .any(|o| matches!(o, Order::Move { .. }));
        if red
            && !(moved
                && game(&mut app).snapshot().turn == 1
                && game(&mut app).phase().label() == "first half-move")
        {
            order(
                &mut app,
                Order::Move {
                    unit: "r".into(),
                    steps: vec![Step::Forward],
                },
            );
        }
        if game(&mut app).outcome().is_none() {
            order(&mut app, Order::EndSide);
        }
    }
    assert!(
        game(&mut app)
            .snapshot()
            .log
            .iter()
            .any(|l| l.roll.is_some()),
        "dice were rolled"
    );
    let end = game(&mut app).outcome().cloned().expect("over");
    let orders = game(&mut app).record().orders.clone();
    let newest = || {
        let auto = warhorse::sim::journal::autosaves(&dir);
        let path = auto.first().expect("an autosave").clone();
        (
            path.clone(),
            std::fs::read_to_string(path.with_extension("orders")).ok(),
        )
    };
    let autosave = newest();
    act(&mut app, ScreenAction::WatchAgain);
    assert!(game(&mut app).outcome().is_none(), "back at the start");
    assert!(game(&mut app).record().orders.len() < orders.len());
    let watching = app
        .world()
        .resource::<Replay>()
        .0
        .clone()
        .expect("replaying");
    assert_eq!(watching.orders, orders);
    // Nobody at the computer chooses while the record plays: no hand-over, no overlays.
    assert_eq!(
        app.world()
            .resource::<warhorse::ui::screens::SideControls>()
            .0,
        vec![Control::Ai; 2]
    );
    assert!(app.world().resource::<ScreenView>().cards.is_none());
    act(&mut app, ScreenAction::ReplayToEnd);
    assert!(
        app.world().resource::<Replay>().0.is_none(),
        "the replay is over"
    );
    assert_eq!(game(&mut app).outcome(), Some(&end));
    assert_eq!(game(&mut app).record().orders, orders);
    app.update();
    assert!(
        app.world().resource::<BattleScreens>().end,
        "the end screen is back"
    );
    let (path, journal) = newest();
    assert_eq!(path, autosave.0, "watching again never autosaves");
    let before = autosave.1.unwrap_or_default();
    let after = journal.unwrap_or_default();
    assert_eq!(
        after.strip_suffix("end\n"),
        Some(before.as_str()),
        "the game watched again was left cleanly, nothing else written"
    );
}
