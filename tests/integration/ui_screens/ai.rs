//! Playing against the machine in the window (issue 6, item 5), headless: a computer side
//! from the start screen, its orders at a readable pace, Space fast-forwarding, the board's
//! orders locked meanwhile, and the explanation of a unit's decision.

use super::{act, game};
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use std::path::Path;
use warhorse::ai::{self, AiLevel};
use warhorse::level::{Control, Level, load_level_file};
use warhorse::sim::order::Order;
use warhorse::ui::play::{OrderLock, PlayAction, Selection};
use warhorse::ui::screens::actions::{Dialog, Overlays};
use warhorse::ui::screens::ai_play::{AiLevels, AiPace, Explain, ai_sides_waiting};
use warhorse::ui::screens::saves::SaveDir;
use warhorse::ui::screens::start::StartForm;
use warhorse::ui::screens::{Handover, ScreenAction, ScreensPlugin, SideControls};
use warhorse::ui::settings::{Pace, Settings};

fn default_level() -> Level {
    load_level_file(Path::new("levels/default.ron")).expect("level")
}

/// A screens app playing `level` with `controls`, the computer at `levels`.
fn app_with(name: &str, level: Level, controls: Vec<Control>, levels: Vec<AiLevel>) -> App {
    let dir = std::env::temp_dir().join(format!("warhorse-ai-ui-{name}-{}", std::process::id()));
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, ScreensPlugin))
        .insert_resource(SaveDir(dir))
        .init_resource::<OrderLock>()
        .init_resource::<Selection>()
        .insert_resource(AiLevels(levels));
    act(&mut app, ScreenAction::Start(Box::new(level), 5, controls));
    app
}

fn pace(app: &App) -> AiPace {
    app.world().resource::<AiPace>().clone()
}

/// Ends human half-moves (as a player pressing Enter would) until the computer must act in a
/// half-move (the archers' fire sub-steps, D3, are ended the same way).
fn until_computer_acts(app: &mut App) {
    for _ in 0..40 {
        let controls = app.world().resource::<SideControls>().0.clone();
        if !ai_sides_waiting(game(app), &controls).is_empty() && game(app).phase().is_half_move() {
            return;
        }
        let g = game(app);
        let _ = g.order(&Order::EndSide);
        warhorse::ui::screens::host::GameHost::touched(app.world_mut());
        app.update();
    }
    panic!("the computer never got a turn");
}

#[test]
fn the_computer_plays_one_order_per_beat_and_space_plays_the_rest_at_once() {
    let mut app = app_with(
        "pace",
        default_level(),
        vec![Control::Human, Control::Ai],
        vec![AiLevel::Table, AiLevel::Lookahead],
    );
    assert_eq!(
        ai::level_of(game(&mut app), 1),
        AiLevel::Lookahead,
        "the strength chosen on the start screen"
    );
    until_computer_acts(&mut app);
    // A long beat: one order now, none until the beat has passed.
    {
        let mut p = app.world_mut().resource_mut::<AiPace>();
        p.delay = 1000.0;
        p.next_at = 0.0;
    }
    let before = game(&mut app).record().orders.len();
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(pace(&app).acting, Some(1));
    assert_eq!(
        game(&mut app).record().orders.len(),
        before + 1,
        "one order per beat"
    );
    // The board is locked while the computer moves, with the reason in words.
    if app
        .world()
        .resource::<warhorse::ui::bridge::GameView>()
        .side_to_move
        == Some(1)
    {
        let lock = app.world().resource::<OrderLock>().0.clone();
        assert!(
            lock.as_deref()
                .is_some_and(|l| l.contains("played by the computer")),
            "{lock:?}"
        );
    }
    // Space: the rest of its turn at once, until the game waits for the human.
    app.world_mut()
        .resource_mut::<Messages<PlayAction>>()
        .write(PlayAction::FastForward);
    // The computer thinks in slices of a frame each: the window goes on drawing meanwhile.
    let frames = fast_forward(&mut app);
    let p = pace(&app);
    assert!(
        !p.fast,
        "fast-forward ends when a person must act ({frames} frames)"
    );
    assert_eq!(p.acting, None);
    assert!(game(&mut app).record().orders.len() > before + 1);
    assert!(!ai::waits_for(game(&mut app), 1));
    assert!(ai::waits_for(game(&mut app), 0), "the human's turn");
    assert_eq!(p.refused, 0, "the rules accepted every computer order");
    assert_eq!(app.world().resource::<OrderLock>().0, None);
    // Every computer order is in the record, so a save replays it.
    let rec = game(&mut app).record().clone();
    assert!(
        rec.orders
            .iter()
            .any(|o| matches!(o, Order::ActionRoll { .. }))
    );
}

#[test]
fn asking_why_shows_the_units_risk_factor_roll_and_action() {
    let mut app = app_with(
        "why",
        default_level(),
        vec![Control::Human, Control::Ai],
        vec![],
    );
    until_computer_acts(&mut app);
    app.world_mut().resource_mut::<AiPace>().fast = true;
    fast_forward(&mut app);
    // A Blue figure (the computer's): its unit has rolled this turn.
    let unit = "blue_foot_1".to_string();
    app.world_mut().resource_mut::<Selection>().unit = Some(unit.clone());
    app.world_mut()
        .resource_mut::<Messages<PlayAction>>()
        .write(PlayAction::Explain);
    app.update();
    let ex = app.world().resource::<Explain>().clone();
    assert!(ex.open);
    let e = ex
        .text
        .expect("read")
        .expect("the computer's unit has rolled");
    assert_eq!(e.unit, "Blue foot");
    assert!((1..=6).contains(&e.roll));
    assert_eq!(e.terms.iter().map(|t| t.1).sum::<i32>(), e.risk);
    assert_eq!(
        Some(e.clone()),
        ai::explain(game(&mut app), &unit),
        "the AI's own explanation"
    );
    let lines = warhorse::ui::screens::ai_play::explanation_lines(&e);
    assert!(lines.iter().any(|l| l.contains("d6 roll")), "{lines:?}");
    // A human figure has nothing to explain, and says why.
    app.world_mut().resource_mut::<Selection>().unit = Some("red_foot_1".into());
    app.update();
    let ex = app.world().resource::<Explain>().clone();
    assert!(matches!(ex.text, Some(Err(ref why)) if why.contains("computer")));
    // X again closes it.
    app.world_mut()
        .resource_mut::<Messages<PlayAction>>()
        .write(PlayAction::Explain);
    app.update();
    assert!(!app.world().resource::<Explain>().open);
}

#[test]
fn two_computer_sides_play_on_their_own_and_never_raise_the_handover_screen() {
    let mut app = app_with(
        "watch",
        load_level_file(Path::new("tests/levels/charge_joust.ron")).expect("level"),
        vec![Control::Ai, Control::Ai],
        vec![],
    );
    app.world_mut().resource_mut::<AiPace>().fast = true;
    // Fast-forward stops where no computer side waits (a phase passing); with the pace off the
    // computer still gives an order every frame, so the frames below do not depend on how
    // fast the machine runs them.
    app.insert_resource(Settings {
        pace: Pace::Off,
        ..Settings::default()
    });
    // A round's reveal waits for the watcher's OK (D9: the cards are faced for everyone to
    // read); the watcher here presses it at once, as the menu's OK does.
    let mut reveals = 0;
    for _ in 0..5_000 {
        app.update();
        assert!(!app.world().resource::<Handover>().screen_up());
        let mut overlays = app.world_mut().resource_mut::<Overlays>();
        if matches!(overlays.dialog, Some(Dialog::Reveal(_))) {
            overlays.dialog = None;
            reveals += 1;
        }
        if game(&mut app).turn_state().turn >= 2 {
            break;
        }
    }
    let turn = game(&mut app).turn_state().turn;
    assert!(
        turn >= 2,
        "the computer played turn 1 through (turn {turn})"
    );
    assert_eq!(pace(&app).refused, 0);
    assert!(
        reveals > 0,
        "the computer's card rounds were faced for the watcher"
    );
}

#[test]
fn the_start_screen_offers_the_computer_for_each_side_as_the_level_says() {
    let skirmish = load_level_file(Path::new("levels/destrier_skirmish.ron")).expect("level");
    let entry = warhorse::ui::screens::catalogue::LevelEntry {
        name: "skirmish".into(),
        description: String::new(),
        source: "levels/destrier_skirmish.ron".into(),
        level: Ok(skirmish.clone()),
    };
    let form = StartForm::new(vec![entry], 3);
    assert_eq!(form.controls, vec![Control::Human, Control::Ai]);
    assert_eq!(form.ai_levels, vec![AiLevel::Table; 2]);
    match form.start_action() {
        Ok(ScreenAction::Start(_, 3, controls)) => {
            assert_eq!(controls, vec![Control::Human, Control::Ai])
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        warhorse::ui::screens::actions::playable_controls(&skirmish),
        vec![Control::Human, Control::Ai],
        "a level opened from the command line or a save: as its file says"
    );
}

#[test]
fn with_the_pace_set_off_the_computer_gives_an_order_every_frame() {
    let mut app = app_with(
        "pace-off",
        default_level(),
        vec![Control::Human, Control::Ai],
        vec![AiLevel::Table, AiLevel::Table],
    );
    until_computer_acts(&mut app);
    // The beat of a normal pace would allow one order in these frames, not three.
    unpaced(&mut app);
    let before = game(&mut app).record().orders.len();
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(pace(&app).delay, 0.0, "the setting is the pace");
    let given = game(&mut app).record().orders.len() - before;
    let still_its_turn = ai::waits_for(game(&mut app), 1);
    assert!(
        given == 3 || (!still_its_turn && given >= 1),
        "{given} orders in 3 frames"
    );
}

/// Sets the pace off (F3): the computer gives its orders with no pause, from the next frame.
fn unpaced(app: &mut App) {
    app.insert_resource(Settings {
        pace: Pace::Off,
        ..Settings::default()
    });
    app.world_mut().resource_mut::<AiPace>().next_at = 0.0;
}

/// Runs frames until fast-forwarding stops (the game waits for a person, or it is over);
/// returns how many it took. Each frame thinks for a slice of time only.
fn fast_forward(app: &mut App) -> usize {
    for n in 1..=5_000 {
        app.update();
        app.update();
        if !pace(app).fast {
            return n;
        }
    }
    panic!("fast-forward never stopped");
}

#[test]
fn the_strongest_level_weighs_its_ways_on_another_thread_and_chooses_as_the_game_does() {
    // Issue 31, item 5: "the window never freezes while the computer thinks". The strongest
    // level's choice of how its side plays the turn is made on another thread; the frames
    // go on meanwhile, and the way chosen is the one the game chooses by itself.
    use warhorse::ai::portfolio::chosen;
    use warhorse::ui::screens::ai_play::Thinking;
    let mut app = app_with(
        "foresight",
        default_level(),
        vec![Control::Human, Control::Ai],
        vec![AiLevel::Table, AiLevel::Foresight],
    );
    until_computer_acts(&mut app);
    unpaced(&mut app);
    let before = game(&mut app).record().clone();
    app.update();
    assert!(
        app.world().contains_resource::<Thinking>(),
        "the choice is being made on another thread"
    );
    assert_eq!(
        game(&mut app).record().orders.len(),
        before.orders.len(),
        "no order before the choice is in"
    );
    let start = std::time::Instant::now();
    let mut frames = 1;
    while game(&mut app).record().orders.len() == before.orders.len() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(300),
            "the choice never came"
        );
        app.update();
        frames += 1;
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert!(
        frames > 2,
        "the window ran {frames} frames while the computer thought"
    );
    assert!(!app.world().contains_resource::<Thinking>());
    let mut alone = warhorse::sim::Game::from_record(&before).expect("the record replays");
    ai::set_level(&mut alone, 1, AiLevel::Foresight);
    let _ = ai::next_order(&mut alone, 1);
    let here = chosen(game(&mut app), 1);
    assert!(here.is_some(), "a way was chosen");
    assert_eq!(
        here,
        chosen(&alone, 1),
        "the same way as the game chooses alone"
    );
}
