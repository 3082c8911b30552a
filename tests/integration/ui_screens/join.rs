//! A window that joins a hosted game (issue 30), headless, over real UDP sockets on the
//! loopback address: a wrong code is answered on the join form in words; two windows join
//! the two sides, each plays its own side's orders through its replica of the game, the
//! battle ends on both with the host's board; and when the host goes away each window is
//! back on the start screen saying so, the code kept to join again; a window whose side owes a
//! dodge guess is asked it on its card table while the DODGE is still face down at the host.
//! Every loop is bounded by a deadline.

use super::*;
use std::time::{Duration, Instant};
use warhorse::ai::AiLevel;
use warhorse::ai::bout::play_game;
use warhorse::net::code::JoinCode;
use warhorse::net::host::Host;
use warhorse::net::link::NetServer;
use warhorse::ui::bridge::GameView;
use warhorse::ui::screens::SideControls;
use warhorse::ui::screens::join::{JoinForm, SeatWish};

/// The longest any one exchange may take on the loopback address before the test fails.
const PATIENCE: Duration = Duration::from_secs(20);

fn join(app: &mut App, code: &str, seat: SeatWish, name: &str) {
    app.world_mut()
        .resource_mut::<ScreenActions>()
        .0
        .push(ScreenAction::Join {
            code: code.into(),
            seat,
            name: name.into(),
        });
}

/// Pumps the host and the windows until `done` holds; fails the test after [`PATIENCE`].
fn pump_until(
    server: &mut Option<&mut NetServer>,
    apps: &mut [&mut App],
    what: &str,
    mut done: impl FnMut(&mut [&mut App]) -> bool,
) {
    let start = Instant::now();
    loop {
        if let Some(s) = server.as_mut() {
            s.pump();
        }
        for a in apps.iter_mut() {
            a.update();
        }
        if done(apps) {
            return;
        }
        assert!(start.elapsed() < PATIENCE, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Gives `o`, the host's order `i` to come, from the window of `side` (as its screens do: to
/// its replica, which sends it to the host), and pumps until the host has taken it.
fn give(server: &mut NetServer, mut windows: [&mut App; 2], side: u8, i: usize, o: &Order) {
    GameHost::get(windows[side as usize].world_mut())
        .expect("a game")
        .order(o)
        .expect("a replica takes every order, for the host");
    let start = Instant::now();
    while server.host().game().record().orders.len() < i + 1 {
        assert!(
            start.elapsed() < PATIENCE,
            "order {} ({o}) never landed",
            i + 1
        );
        server.pump();
        for w in windows.iter_mut() {
            w.update();
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Joins `windows` to the game of `code` for sides 0 and 1, and pumps until both play.
fn seat_both(server: &mut NetServer, code: &str, windows: [&mut App; 2]) {
    let [red, blue] = windows;
    join(red, code, SeatWish::Side(0), "Ann");
    join(blue, code, SeatWish::Side(1), "Bo");
    pump_until(
        &mut Some(server),
        &mut [red, blue],
        "both windows in the game",
        |a| a.iter_mut().all(|a| playing(a)),
    );
}

fn playing(app: &mut App) -> bool {
    *app.world().resource::<State<Screen>>().get() == Screen::Playing
        && GameHost::get(app.world_mut()).is_some_and(|g| g.is_replica())
}

fn form_error(app: &App) -> String {
    app.world()
        .resource::<JoinForm>()
        .error
        .clone()
        .unwrap_or_default()
}

#[test]
fn a_window_joins_plays_its_side_through_its_replica_and_hears_the_host_go() {
    let level = load_level_file(Path::new("levels/charge.ron")).expect("the charge level");
    let seed = 4_301;
    let (_, local) = play_game(&level, seed, 20, &[AiLevel::Table, AiLevel::Table], None);
    let orders = local.record().orders.clone();
    assert!(
        local.outcome().is_some(),
        "the computer finishes the battle"
    );

    let host = Host::new(Game::new(&level, seed), JoinCode::fresh_secret());
    let mut server =
        NetServer::listen(host, "127.0.0.1:0".parse().unwrap(), None).expect("a loopback host");
    let code = server.code().to_string();
    let mut red = window("join-red");
    let mut blue = window("join-blue");

    // A code with another secret is answered on the form, in words; the window stays put.
    let wrong = format!("wrongsecret1@{}", server.code().addr);
    join(&mut red, &wrong, SeatWish::AnySide, "Ann");
    pump_until(
        &mut Some(&mut server),
        &mut [&mut red],
        "the refusal",
        |a| !form_error(a[0]).is_empty(),
    );
    assert!(form_error(&red).contains("secret"), "{}", form_error(&red));
    assert_eq!(
        *red.world().resource::<State<Screen>>().get(),
        Screen::Start
    );

    seat_both(&mut server, &code, [&mut red, &mut blue]);
    assert_eq!(
        red.world().resource::<SideControls>().0,
        vec![Control::Human, Control::Ai],
        "red plays red here; blue is played at another machine"
    );
    assert_eq!(
        blue.world().resource::<SideControls>().0,
        vec![Control::Ai, Control::Human]
    );

    // Each window gives its own side's orders, as its screens do: to its replica, which
    // sends them to the host.
    for (i, o) in orders.iter().enumerate() {
        let side = server
            .host_mut()
            .game_mut()
            .side_of_order(o)
            .expect("every order is some side's");
        give(&mut server, [&mut red, &mut blue], side, i, o);
    }
    let host_board = server.host_mut().game_mut().state_hash();
    pump_until(
        &mut Some(&mut server),
        &mut [&mut red, &mut blue],
        "both windows at the end of the battle",
        |a| {
            a.iter_mut().all(|a| {
                a.world().resource::<GameView>().over.is_some()
                    && GameHost::get(a.world_mut()).map(|g| g.state_hash())
                        == Some(host_board.clone())
            })
        },
    );
    assert!(server.host().game().outcome().is_some());
    for app in [&mut red, &mut blue] {
        // The log panel reads the host's log, line for line.
        let shown = &app.world().resource::<GameView>().log;
        assert_eq!(shown, &local.log().to_vec());
        // A joined game is the host's to save.
        app.world_mut()
            .resource_mut::<ScreenActions>()
            .0
            .push(ScreenAction::QuickSave);
        app.update();
        match &app.world().resource::<Overlays>().dialog {
            Some(Dialog::Message { title, .. }) => assert_eq!(title, "Saved at the host"),
            d => panic!("a quick save of a joined game says where it is kept: {d:?}"),
        }
    }

    // The host goes away once the battle is over, as `warhorse serve` does: the end stays.
    server.close();
    drop(server);
    for _ in 0..50 {
        red.update();
        std::thread::sleep(Duration::from_millis(2));
    }
    assert_eq!(
        *red.world().resource::<State<Screen>>().get(),
        Screen::Playing
    );
    assert!(red.world().resource::<GameView>().over.is_some());
}

#[test]
fn a_window_whose_host_goes_mid_battle_is_back_at_the_start_saying_how_to_go_on() {
    let level = load_level_file(Path::new("levels/charge.ron")).expect("the charge level");
    let host = Host::new(Game::new(&level, 9), JoinCode::fresh_secret());
    let mut server =
        NetServer::listen(host, "127.0.0.1:0".parse().unwrap(), None).expect("a loopback host");
    let code = server.code().to_string();
    let mut red = window("join-gone");
    join(&mut red, &code, SeatWish::AnySide, "Ann");
    pump_until(
        &mut Some(&mut server),
        &mut [&mut red],
        "the window in the game",
        |a| playing(a[0]),
    );
    server.close();
    drop(server);
    pump_until(
        &mut None,
        &mut [&mut red],
        "the window to hear the host go",
        |a| *a[0].world().resource::<State<Screen>>().get() == Screen::Start,
    );
    let form = red.world().resource::<JoinForm>();
    assert!(form.open, "the join form is open again");
    assert_eq!(form.code, code, "the code is kept for joining again");
    assert!(
        form_error(&red).contains("same code"),
        "the words say how to go on: {}",
        form_error(&red)
    );
    match &red.world().resource::<Overlays>().dialog {
        Some(Dialog::Message { title, .. }) => assert_eq!(title, "Left the game"),
        d => panic!("a dialog says the game was left: {d:?}"),
    }
    assert!(
        !red.world()
            .contains_resource::<warhorse::ui::screens::join::Joined>(),
        "nothing of the joined game is left"
    );
}

#[test]
fn host_asks_for_a_level_that_loads_and_never_for_the_seed() {
    use warhorse::ui::screens::catalogue::catalogue;
    use warhorse::ui::screens::start::StartForm;
    let mut form = StartForm::new(catalogue(&[PathBuf::from("levels")]), 3);
    form.seed = "not a seed".into();
    assert!(form.start_action().is_err(), "Start needs a seed");
    // The built-in level is served as `serve` serves it with no file named.
    match form.host_action() {
        Ok(ScreenAction::Host {
            level_file,
            controls,
            ..
        }) => {
            assert_eq!(level_file, None);
            assert_eq!(controls, form.controls);
        }
        other => panic!("Host is offered for the built-in level: {other:?}"),
    }
    let charge = form
        .levels
        .iter()
        .position(|e| e.source.ends_with("charge.ron"))
        .expect("the charge level is listed");
    form.select(charge);
    match form.host_action() {
        Ok(ScreenAction::Host { level_file, .. }) => {
            assert!(level_file.is_some_and(|f| f.ends_with("charge.ron")));
        }
        other => panic!("Host is offered for a level file: {other:?}"),
    }
    // The port is the player's to choose; one that is no port is refused in words.
    form.host_port = "5123".into();
    match form.host_action() {
        Ok(ScreenAction::Host { port, .. }) => assert_eq!(port, 5123),
        other => panic!("Host is offered on port 5123: {other:?}"),
    }
    for bad in ["0", "70000", "port"] {
        form.host_port = bad.into();
        let why = form.host_action().expect_err("no port");
        assert!(why.contains("1 to 65535"), "{bad}: {why}");
    }
}

#[test]
fn a_joined_window_is_asked_its_dodge_guesses_on_its_card_table() {
    // Issue 30, D7: when a round waits for a dodge guess from this window's side, its card
    // table asks it, though the DODGE is still face down at the host.
    let level = load_level_file(Path::new("levels/realms_ambush.ron")).expect("the level");
    let strengths = [AiLevel::Commander, AiLevel::Commander];
    let found = (0..8).find_map(|seed| {
        let (_, local) = play_game(&level, seed, 6, &strengths, None);
        let orders = local.record().orders.clone();
        let at = orders
            .iter()
            .position(|o| matches!(o, Order::GuessDodge { .. }))?;
        Some((seed, orders, at))
    });
    let (seed, orders, at) = found.expect("a game of the commanders with a dodge guess");
    let host = Host::new(Game::new(&level, seed), JoinCode::fresh_secret());
    let mut server =
        NetServer::listen(host, "127.0.0.1:0".parse().unwrap(), None).expect("a loopback host");
    let code = server.code().to_string();
    let mut red = window("guess-red");
    let mut blue = window("guess-blue");
    seat_both(&mut server, &code, [&mut red, &mut blue]);
    for (i, o) in orders.iter().enumerate().take(at + 1) {
        let side = server
            .host_mut()
            .game_mut()
            .side_of_order(o)
            .expect("every order is some side's");
        if i == at {
            // The guesser's window shows the question before it answers.
            let Order::GuessDodge { unit, target, .. } = o else {
                unreachable!("the order found is a guess")
            };
            let app = if side == 0 { &mut red } else { &mut blue };
            let asked = |a: &App| {
                a.world()
                    .resource::<ScreenView>()
                    .cards
                    .as_ref()
                    .is_some_and(|c| {
                        c.guesses
                            .iter()
                            .any(|g| g.guesser == *unit && g.dodger == *target)
                    })
            };
            pump_until(
                &mut Some(&mut server),
                &mut [app],
                "the window's card table to ask the guess",
                |a| asked(a[0]),
            );
        }
        give(&mut server, [&mut red, &mut blue], side, i, o);
    }
}
