//! Play by email in the window (issue 30, item 5), headless: one window begins a game of the
//! default level and writes turn file 1; a second window opens it; from then on each window
//! gives its side's orders on its board (the computer chooses them, from the board's own game,
//! as a player's clicks would give them) and writes its answer by itself once the game stops
//! waiting for it, and the other window opens that file. Both reach the battle's end with the
//! same record; an altered file, a file opened twice and a file of a game the window does not
//! keep are each refused on the form in words, changing nothing.

use super::*;
use warhorse::ai::{AiLevel, next_order, set_level, waits_for};
use warhorse::net::pbem::Pbem;
use warhorse::ui::screens::SideControls;
use warhorse::ui::screens::ai_play::AiPace;
use warhorse::ui::screens::email::{ByEmail, EmailForm};

/// The most files the battle may take: a game that stops going forward fails the test.
const MAX_FILES: usize = 600;

/// Shows the rest of the other player's orders at once, as Space does.
fn show_all(app: &mut App) {
    for _ in 0..10 {
        let showing = app
            .world()
            .get_resource::<ByEmail>()
            .and_then(|b| b.lock.clone())
            .is_some_and(|l| l.starts_with("Showing"));
        if !showing {
            return;
        }
        app.world_mut().resource_mut::<AiPace>().fast = true;
        app.update();
    }
    panic!("the other player's orders were still being shown after Space");
}

fn form_error(app: &App) -> Option<String> {
    app.world().resource::<EmailForm>().error.clone()
}

fn written(app: &App) -> Option<PathBuf> {
    app.world().resource::<EmailForm>().written.clone()
}

/// A dialog that says an order was not given fails the test: the computer's orders are legal.
fn no_refusal(app: &App) {
    if let Some(Dialog::Message { title, text, .. }) = &app.world().resource::<Overlays>().dialog {
        assert_ne!(title, "Not given", "{text}");
    }
}

/// Gives this window's orders, chosen by the computer from its board's game, while the board
/// takes them; returns how many.
fn give_orders(app: &mut App) -> usize {
    let mut given = 0;
    for _ in 0..2000 {
        let free = app
            .world()
            .get_resource::<ByEmail>()
            .is_some_and(|b| b.lock.is_none());
        if !free {
            break;
        }
        let controls = app.world().resource::<SideControls>().0.clone();
        let Some(g) = GameHost::get(app.world_mut()) else {
            break;
        };
        if g.outcome().is_some() {
            break;
        }
        let Some(side) = (0..controls.len() as u8)
            .find(|&s| controls[s as usize] == Control::Human && waits_for(g, s))
        else {
            break;
        };
        set_level(g, side, AiLevel::Table);
        let order = next_order(g, side).expect("the computer has an order");
        g.order(&order)
            .expect("the board takes every order, for the game by email");
        app.update();
        no_refusal(app);
        given += 1;
    }
    given
}

fn over(app: &mut App) -> bool {
    GameHost::get(app.world_mut()).is_some_and(|g| g.outcome().is_some())
}

#[test]
fn two_windows_play_a_battle_by_email_to_its_end_and_refuse_a_bad_file_in_words() {
    let level = warhorse::level::default_level().expect("the default level");
    let mut red = window("email-red");
    let mut blue = window("email-blue");
    act(&mut red, ScreenAction::OpenEmail);
    act(
        &mut red,
        ScreenAction::EmailBegin {
            level: Box::new(level.clone()),
            side: 0,
        },
    );
    assert_eq!(form_error(&red), None);
    let games = red.world().resource::<EmailForm>().games.clone();
    assert_eq!(games.len(), 1, "the game begun is listed: {games:?}");
    assert!(
        games[0]
            .words
            .contains("waiting for the other player's turn file 2"),
        "{}",
        games[0].words
    );
    let first = games[0].folder.join("turn-001.json");
    assert!(
        first.is_file(),
        "turn file 1 is written in the game's folder"
    );

    // A file of a game a window does not keep, past the first, is refused in words.
    let stranger = tmpdir("email-stranger").join("turn-002.json");

    act(&mut blue, ScreenAction::EmailOpen(first.clone()));
    assert_eq!(form_error(&blue), None);
    let mut last = [None, written(&blue)];
    assert!(last[1].is_some(), "the answer to file 1 is written at once");
    let mut windows = [red, blue];
    let mut files = 2;
    let mut tried_bad = false;
    let mut given = [0, 0];
    while !(over(&mut windows[0]) && over(&mut windows[1])) {
        assert!(
            files < MAX_FILES,
            "the battle ended within {MAX_FILES} files"
        );
        // The window whose file came last reads it; the other writes next.
        let reader = if files % 2 == 0 { 0 } else { 1 };
        let path = last[1 - reader].clone().expect("a file to read");
        if !tried_bad && files > 6 {
            tried_bad = true;
            // An altered copy is refused and changes nothing.
            let text = std::fs::read_to_string(&path).expect("the file");
            let altered = path.with_file_name("altered.json");
            let changed = text.replacen("\"public_orders\": ", "\"public_orders\": 1", 1);
            assert_ne!(changed, text, "the copy was changed");
            std::fs::write(&altered, changed).expect("written");
            act(&mut windows[reader], ScreenAction::EmailOpen(altered));
            let e = form_error(&windows[reader]).expect("refused");
            assert!(e.contains("altered") || e.contains("edited"), "{e}");
            std::fs::create_dir_all(stranger.parent().expect("a folder")).expect("made");
            std::fs::copy(&path, &stranger).expect("copied");
            let mut third = window("email-third");
            act(&mut third, ScreenAction::EmailOpen(stranger.clone()));
            let e = form_error(&third).expect("refused");
            assert!(e.contains("does not keep"), "{e}");
        }
        act(&mut windows[reader], ScreenAction::EmailOpen(path.clone()));
        assert_eq!(form_error(&windows[reader]), None, "file {files} opened");
        if files == 8 {
            // The same file opened again is refused: it was read.
            act(&mut windows[reader], ScreenAction::EmailOpen(path.clone()));
            let e = form_error(&windows[reader]).expect("refused");
            assert!(e.contains("was read before"), "{e}");
        }
        files += 1;
        show_all(&mut windows[reader]);
        given[reader] += give_orders(&mut windows[reader]);
        let w = written(&windows[reader]);
        if over(&mut windows[0]) && over(&mut windows[1]) {
            break;
        }
        let dbg = windows[reader].world().get_resource::<ByEmail>().cloned();
        let dialog = windows[reader]
            .world()
            .resource::<Overlays>()
            .dialog
            .clone();
        assert_ne!(
            w, last[reader],
            "window {reader} wrote file {files}: {dbg:?} {dialog:?}"
        );
        last[reader] = w;
    }
    assert!(tried_bad, "the bad files were tried");
    assert!(
        given[0] > 10 && given[1] > 10,
        "both gave orders: {given:?}"
    );
    let [mut red, mut blue] = windows;
    let red_orders = GameHost::get(red.world_mut())
        .expect("a game")
        .record()
        .orders
        .clone();
    let blue_orders = GameHost::get(blue.world_mut())
        .expect("a game")
        .record()
        .orders
        .clone();
    assert_eq!(red_orders, blue_orders, "both boards hold the same record");
    assert!(
        red.world().resource::<ScreenView>().kept_elsewhere,
        "leaving a game by email is not asked as if it were lost"
    );
    let folder = |app: &App| app.world().resource::<ByEmail>().folder.clone();
    for app in [&red, &blue] {
        let p = Pbem::load(&folder(app).join("state.json")).expect("the state reads");
        let rec = p.public_record().expect("a record");
        assert_eq!(rec.orders, red_orders, "the state holds the game shown");
    }
}
