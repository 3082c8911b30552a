//! The window's screens, headless (issue 3): saving and loading through the menu's actions,
//! the autosave, quitting; the hot-seat hand-over and the card overlay are in `cards`. No
//! window or GPU: `MinimalPlugins` and the screens' logic.

mod ai;
mod battle;
mod cards;
mod charges;
mod chooser;
mod email;
mod fire;
mod join;
mod tutorial;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use std::path::{Path, PathBuf};
use warhorse::level::{Control, Level, load_level_file};
use warhorse::rules::movement::Step;
use warhorse::sim::Game;
use warhorse::sim::journal::{autosaves, crashed, ended, read_with_journal};
use warhorse::sim::order::Order;
use warhorse::sim::record::{SaveError, read_save};
use warhorse::ui::screens::cards::Cards;
use warhorse::ui::screens::host::GameHost;
use warhorse::ui::screens::saves::SaveDir;
use warhorse::ui::screens::start::StartForm;
use warhorse::ui::screens::{
    Dialog, Overlays, Screen, ScreenAction, ScreenActions, ScreenView, ScreensPlugin,
};

fn field() -> Level {
    load_level_file(Path::new("tests/fixtures/field.ron")).expect("fixture")
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("warhorse-screens-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A window with the screens and no game, saving (and keeping its games by email) in a folder
/// of its own.
fn window(name: &str) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, ScreensPlugin))
        .insert_resource(SaveDir(tmpdir(name)));
    app.update();
    app
}

/// A headless app with the screens (and `cards`, or the real melee rules), saving into its
/// own directory, a game of `level` started through the start screen's action.
fn app_of(name: &str, level: Level, cards: Option<Cards>) -> (App, PathBuf) {
    app_at(tmpdir(name), level, cards)
}

/// As [`app_of`], saving into `dir` as it is (a second run of the game, after a first).
fn app_at(dir: PathBuf, level: Level, cards: Option<Cards>) -> (App, PathBuf) {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, ScreensPlugin))
        .insert_resource(SaveDir(dir.clone()));
    if let Some(c) = cards {
        app.insert_resource(c);
    }
    act(
        &mut app,
        ScreenAction::Start(Box::new(level), 11, vec![Control::Human; 2]),
    );
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Playing
    );
    (app, dir)
}

fn app(name: &str) -> (App, PathBuf) {
    app_of(name, field(), None)
}

fn act(app: &mut App, a: ScreenAction) {
    app.world_mut().resource_mut::<ScreenActions>().0.push(a);
    for _ in 0..3 {
        app.update();
    }
}

fn order(app: &mut App, o: Order) {
    let game = GameHost::get(app.world_mut()).expect("a game");
    game.order(&o).expect("accepted");
    GameHost::touched(app.world_mut());
    app.update();
}

fn game(app: &mut App) -> &mut Game {
    GameHost::get(app.world_mut()).expect("a game")
}

#[test]
fn save_load_and_save_again_through_the_menu_gives_the_same_file() {
    let (mut app, dir) = app("roundtrip");
    order(
        &mut app,
        Order::Move {
            unit: "knight".into(),
            steps: vec![Step::Forward, Step::Forward],
        },
    );
    order(&mut app, Order::EndSide);
    act(&mut app, ScreenAction::Save("first".into()));
    let a = dir.join("first.ron");
    assert!(a.is_file());
    let before = game(&mut app).snapshot();
    act(&mut app, ScreenAction::Load(a.clone()));
    assert_eq!(app.world().resource::<Overlays>().dialog, None);
    assert_eq!(game(&mut app).snapshot().figures, before.figures);
    act(&mut app, ScreenAction::Save("second".into()));
    let b = dir.join("second.ron");
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    // A name that would leave the directory is refused in the dialog.
    act(&mut app, ScreenAction::Save("../escape".into()));
    assert!(matches!(
        app.world().resource::<Overlays>().dialog,
        Some(Dialog::Save { error: Some(_), .. })
    ));
    assert!(!dir.join("../escape.ron").exists());
}

#[test]
fn a_corrupt_or_incompatible_save_shows_its_message_and_changes_nothing() {
    let (mut app, dir) = app("corrupt");
    order(&mut app, Order::EndSide);
    act(&mut app, ScreenAction::Save("good".into()));
    let good = dir.join("good.ron");
    let good_bytes = std::fs::read(&good).unwrap();
    let record = game(&mut app).record().clone();
    let bad = dir.join("bad.ron");
    let newer = dir.join("newer.ron");
    std::fs::write(&bad, "Record(game: \"warhorse\", format: 1, level_name: ").unwrap();
    std::fs::write(&newer, record.to_text().replace("format: 1", "format: 99")).unwrap();
    for (path, expected) in [(&bad, read_save(&bad)), (&newer, read_save(&newer))] {
        let expected: SaveError = expected.expect_err("unreadable");
        act(&mut app, ScreenAction::Load(path.clone()));
        match &app.world().resource::<Overlays>().dialog {
            Some(Dialog::Message { title, text, .. }) => {
                assert_eq!(title, "Could not load");
                assert_eq!(*text, expected.to_string());
            }
            other => panic!("no message dialog: {other:?}"),
        }
        assert_eq!(*game(&mut app).record(), record, "the game is untouched");
        assert_eq!(
            std::fs::read(&good).unwrap(),
            good_bytes,
            "the old save too"
        );
        app.world_mut().resource_mut::<Overlays>().dialog = None;
    }
    assert!(format!("{:?}", read_save(&newer)).contains("99"));
}

#[test]
fn every_accepted_order_is_autosaved_and_a_crash_then_start_keeps_the_game() {
    let (mut app, dir) = app("autosave");
    let saves = autosaves(&dir);
    assert_eq!(saves.len(), 1, "the game is autosaved as it begins");
    let auto = saves[0].clone();
    assert!(read_save(&auto).unwrap().orders.is_empty());
    let step = || Order::Move {
        unit: "knight".into(),
        steps: vec![Step::Forward],
    };
    order(&mut app, step());
    order(&mut app, step());
    game(&mut app).undo().expect("a move is taken back");
    order(&mut app, Order::EndSide);
    order(&mut app, Order::EndSide);
    let orders = game(&mut app).record().orders.clone();
    assert_eq!(orders.len(), 3);
    // Mid-turn, the app is dropped without a clean exit: every accepted order is there.
    drop(app);
    assert_eq!(read_with_journal(&auto).unwrap().orders, orders);
    assert_eq!(crashed(&dir).as_ref(), Some(&auto));
    // The next run: the start screen offers the crashed game; Start begins another autosave
    // and leaves the crashed one as it was.
    let (mut app, _) = app_at(dir.clone(), field(), None);
    let offered = app.world().resource::<StartForm>().resume.clone();
    assert_eq!(offered.map(|r| r.path), Some(auto.clone()));
    assert_eq!(autosaves(&dir).len(), 2);
    assert_eq!(read_with_journal(&auto).unwrap().orders, orders, "kept");
    order(&mut app, Order::EndSide);
    // Resuming it plays on from its last order, and it is offered no more.
    act(&mut app, ScreenAction::Load(auto.clone()));
    assert_eq!(game(&mut app).record().orders, orders);
    assert!(ended(&auto));
    let newest = autosaves(&dir)[0].clone();
    assert_ne!(newest, auto);
    assert_eq!(read_with_journal(&newest).unwrap().orders, orders);
    act(&mut app, ScreenAction::QuitToStart);
    assert_eq!(crashed(&dir), None, "every game was left cleanly");
}

#[test]
fn quitting_to_the_start_screen_drops_the_game() {
    let (mut app, _) = app("quit");
    act(&mut app, ScreenAction::QuitToStart);
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Start
    );
    assert!(GameHost::get(app.world_mut()).is_none());
    assert!(!app.world().resource::<ScreenView>().playing);
}

#[test]
fn a_loaded_game_is_played_by_the_same_people_and_computers() {
    use warhorse::ai::{AiLevel, level_of};
    use warhorse::ui::screens::SideControls;
    use warhorse::ui::screens::ai_play::AiLevels;
    let dir = tmpdir("players");
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, ScreensPlugin))
        .insert_resource(SaveDir(dir.clone()))
        .insert_resource(AiLevels(vec![AiLevel::Table, AiLevel::Lookahead]));
    let mixed = vec![Control::Human, Control::Ai];
    act(
        &mut app,
        ScreenAction::Start(Box::new(field()), 11, mixed.clone()),
    );
    assert_eq!(level_of(game(&mut app), 1), AiLevel::Lookahead);
    act(&mut app, ScreenAction::Save("mixed".into()));
    // Another game, two humans at the baseline, then the save again.
    app.insert_resource(AiLevels::default());
    act(
        &mut app,
        ScreenAction::Start(Box::new(field()), 11, vec![Control::Human; 2]),
    );
    assert_eq!(
        app.world().resource::<SideControls>().0,
        vec![Control::Human; 2]
    );
    act(&mut app, ScreenAction::Load(dir.join("mixed.ron")));
    assert_eq!(app.world().resource::<SideControls>().0, mixed);
    assert_eq!(level_of(game(&mut app), 1), AiLevel::Lookahead);
}
