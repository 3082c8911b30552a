//! The tutorial (issue 12, item 5), headless: the start screen's Tutorial action opens the
//! built-in level with its steps, and each step moves on only when the game shows it done —
//! here by giving the orders a player would give (Blue's by the computer's own choice).

use super::{act, game};
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use warhorse::ai;
use warhorse::rules::gait::Gait;
use warhorse::rules::movement::Step as Move;
use warhorse::sim::order::Order;
use warhorse::ui::play::{OrderLock, Selection};
use warhorse::ui::screens::ai_play::AiPace;
use warhorse::ui::screens::host::GameHost;
use warhorse::ui::screens::saves::SaveDir;
use warhorse::ui::screens::tutorial::{Lesson, STEPS, Step, Tutorial, tutorial_level};
use warhorse::ui::screens::{Screen, ScreenAction, ScreensPlugin};

fn tutorial_app() -> App {
    let dir = std::env::temp_dir().join(format!("warhorse-tutorial-{}", std::process::id()));
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, ScreensPlugin))
        .insert_resource(SaveDir(dir))
        .init_resource::<OrderLock>()
        .init_resource::<Selection>();
    act(&mut app, ScreenAction::Tutorial);
    // The test gives the computer's orders itself, so the window's pace never fires.
    let mut pace = app.world_mut().resource_mut::<AiPace>();
    pace.delay = 1e12;
    pace.next_at = 1e12;
    app
}

fn lesson(app: &App) -> Lesson {
    app.world()
        .resource::<Tutorial>()
        .0
        .clone()
        .expect("a tutorial under way")
}

fn step(app: &App) -> Step {
    lesson(app).step
}

/// Gives `o` as the player would, and lets the screens look.
fn give(app: &mut App, o: Order) {
    game(app)
        .order(&o)
        .unwrap_or_else(|r| panic!("{o}: refused: {r}"));
    GameHost::touched(app.world_mut());
    app.update();
}

/// Lets the game run on until `want` holds: Blue plays by the computer; Red ends its
/// half-moves and fire sub-steps, and otherwise (charges, cards) chooses as the computer
/// would. Panics when it never holds.
fn until(app: &mut App, what: &str, want: impl Fn(&mut App) -> bool) {
    for _ in 0..400 {
        if want(app) {
            return;
        }
        let g = game(app);
        let Some(side) = ai::side_to_act(g) else {
            panic!("the game waits for nobody before {what}");
        };
        let o = if side == 0
            && (g.phase().is_half_move() || warhorse::sim::fire::waiting(g.world_for_tests()))
        {
            Order::EndSide
        } else {
            ai::next_order(g, side).unwrap_or(Order::EndSide)
        };
        let _ = g.order(&o);
        GameHost::touched(app.world_mut());
        app.update();
    }
    panic!("never reached: {what}");
}

fn red_moves(app: &mut App) -> bool {
    let g = game(app);
    g.phase().is_half_move() && g.turn_state().side_to_move() == Some(0)
}

#[test]
fn the_tutorial_walks_through_every_step_by_the_games_state() {
    let mut app = tutorial_app();
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Playing
    );
    let name = tutorial_level().expect("the tutorial loads").file.name;
    assert_eq!(game(&mut app).record().level_name, name);
    assert_eq!(step(&app), Step::Charge);

    // 1. D2: Sir Ivo trots, so he writes charge orders first thing.
    assert!(
        game(&mut app)
            .snapshot()
            .to_declare
            .contains(&"sir_ivo".to_string())
    );
    give(
        &mut app,
        Order::DeclareCharge {
            unit: "sir_ivo".into(),
            targets: vec!["foot_1".into()],
        },
    );
    assert_eq!(step(&app), Step::Fire);

    // 2. D3: Robin shoots at a Blue footman in Red's fire sub-step.
    until(&mut app, "Red's fire", |app| {
        let g = game(app);
        warhorse::sim::fire::current_step(g.world_for_tests()).is_some_and(|s| s.side == 0)
    });
    assert_eq!(step(&app), Step::Fire);
    give(
        &mut app,
        Order::Fire {
            unit: "robin".into(),
            target: "foot_2".into(),
        },
    );
    assert_eq!(step(&app), Step::Gait);

    // 3–4. D5: Sir Hugh trots (his reach grows), then moves.
    until(&mut app, "Red's half-move", red_moves);
    give(
        &mut app,
        Order::Move {
            unit: "robin".into(),
            steps: vec![Move::Forward],
        },
    );
    assert_eq!(step(&app), Step::Gait, "moving a footman changes no gait");
    give(
        &mut app,
        Order::SetGait {
            unit: "sir_hugh".into(),
            gait: Gait::Trot,
        },
    );
    assert_eq!(step(&app), Step::Move);
    give(
        &mut app,
        Order::Move {
            unit: "sir_hugh".into(),
            steps: vec![Move::Forward, Move::Forward],
        },
    );
    assert_eq!(step(&app), Step::TurnAtWalk);

    // 5. H3: a horse at a walk turns on the spot — in the next half-move, back at a walk.
    give(&mut app, Order::EndSide);
    until(&mut app, "Red's second half-move", |app| {
        red_moves(app) && game(app).phase() == warhorse::sim::phase::Phase::SecondHalfMove
    });
    give(
        &mut app,
        Order::SetGait {
            unit: "sir_hugh".into(),
            gait: Gait::Walk,
        },
    );
    assert_eq!(step(&app), Step::TurnAtWalk, "a gait change is no turn");
    give(
        &mut app,
        Order::Move {
            unit: "sir_hugh".into(),
            steps: vec![Move::Pivot(2)],
        },
    );
    assert_eq!(step(&app), Step::Cards);

    // 6. D6–D7: Tom's melee; Red's cards are chosen as the computer would choose them.
    until(&mut app, "Red's cards", |app| step(app) != Step::Cards);
    assert_eq!(step(&app), Step::ReadLog);

    // 7. The log: a wrong side is refused, the side with the initiative moves on.
    let initiative = game(&mut app)
        .turn_state()
        .initiative
        .expect("someone has the initiative");
    let answer = |app: &mut App, side: u8| {
        let mut t = app.world_mut().resource_mut::<Tutorial>();
        t.0.as_mut().expect("lesson").answer = Some(side);
        app.update();
    };
    answer(&mut app, 1 - initiative);
    assert_eq!(step(&app), Step::ReadLog);
    assert!(lesson(&app).wrong);
    answer(&mut app, initiative);
    assert_eq!(step(&app), Step::Undo);

    // 8. Undo: a move taken back.
    until(&mut app, "a Red half-move", red_moves);
    assert_eq!(step(&app), Step::Undo);
    give(
        &mut app,
        Order::Move {
            unit: "robin".into(),
            steps: vec![Move::Forward],
        },
    );
    assert_eq!(step(&app), Step::Undo, "a move is not an undo");
    game(&mut app).undo().expect("the move is taken back");
    GameHost::touched(app.world_mut());
    app.update();
    assert_eq!(step(&app), Step::Done);
    assert_eq!(STEPS.len(), 8);
}

#[test]
fn a_step_can_be_skipped_and_leaving_the_game_ends_the_tutorial() {
    let mut app = tutorial_app();
    app.world_mut()
        .resource_mut::<Tutorial>()
        .0
        .as_mut()
        .expect("lesson")
        .skip = true;
    app.update();
    assert_eq!(step(&app), Step::Fire);
    act(&mut app, ScreenAction::QuitToStart);
    assert_eq!(app.world().resource::<Tutorial>().0, None);
}
