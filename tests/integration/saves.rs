//! Saved games and undo (issue 3 §6): by replay, atomic, refusing what they cannot read.

use warhorse::level::load_level_file;
use warhorse::rules::movement::Step;
use warhorse::sim::Game;
use warhorse::sim::order::Order;
use warhorse::sim::record::{Record, SaveError, read_save};

fn game() -> Game {
    let level = load_level_file(std::path::Path::new("tests/fixtures/field.ron")).expect("fixture");
    Game::new(&level, 11)
}

fn mv(unit: &str, steps: &[Step]) -> Order {
    Order::Move {
        unit: unit.into(),
        steps: steps.to_vec(),
    }
}

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("warhorse-test-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn save_load_save_gives_the_same_file() {
    let mut g = game();
    g.order(&mv("knight", &[Step::Forward])).unwrap();
    g.order(&Order::EndSide).unwrap();
    g.order(&Order::EndSide).unwrap();
    let dir = tmpdir("roundtrip");
    let a = dir.join("a.ron");
    g.save(&a).unwrap();
    let mut loaded = Game::load(&a).unwrap();
    let b = dir.join("b.ron");
    loaded.save(&b).unwrap();
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_eq!(g.snapshot().figures, loaded.snapshot().figures);
    assert_eq!(g.snapshot().log, loaded.snapshot().log);
}

#[test]
fn undo_takes_back_moves_but_stops_at_dice() {
    let mut g = game();
    let start = g.snapshot();
    g.order(&mv("knight", &[Step::Forward])).unwrap();
    g.order(&mv("foot", &[Step::Forward])).unwrap();
    g.undo().unwrap();
    g.undo().unwrap();
    assert_eq!(g.snapshot().figures, start.figures);
    assert!(g.undo().is_err(), "nothing left to undo");
    // Ending both sides' half-moves rolls the second initiative: no undo past it.
    g.order(&Order::EndSide).unwrap();
    g.order(&Order::EndSide).unwrap();
    assert!(!g.can_undo());
    let why = g.undo().unwrap_err().0;
    assert!(why.contains("die roll"), "{why}");
}

#[test]
fn corrupt_or_incompatible_saves_are_refused_and_old_save_kept() {
    let g = game();
    let dir = tmpdir("corrupt");
    let good = dir.join("save.ron");
    g.save(&good).unwrap();
    let before = std::fs::read(&good).unwrap();
    // A damaged file.
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "Record(game: \"warhorse\", format: 1, level_name: ").unwrap();
    assert!(matches!(read_save(&bad), Err(SaveError::Corrupt(_))));
    // Another format.
    let text = g.record().to_text().replace("format: 1", "format: 99");
    assert!(matches!(
        Record::from_text(&text),
        Err(SaveError::Incompatible { found: 99 })
    ));
    // Not a save at all.
    assert!(matches!(
        Record::from_text("(x: 1)"),
        Err(SaveError::Corrupt(_))
    ));
    // Writing into a directory that cannot be created fails cleanly and leaves the old save.
    let blocked = good.join("cannot-be-a-dir").join("x.ron");
    assert!(matches!(g.save(&blocked), Err(SaveError::Io(_))));
    assert_eq!(std::fs::read(&good).unwrap(), before);
    // A save whose orders no longer replay says so.
    let mut rec = g.record().clone();
    rec.orders.push(mv(
        "knight",
        &[Step::Back, Step::Back, Step::Back, Step::Back],
    ));
    assert!(matches!(Game::from_record(&rec), Err(SaveError::Replay(_))));
    // Loaded as a save, it keeps every order before the one refused, and says which (a save
    // written before a rule was corrected loses only what the new rules refuse).
    let (kept, stopped) = Game::from_save(&rec).expect("the save's level reads");
    assert_eq!(kept.record().orders, g.record().orders);
    let why = stopped.expect("the last order was refused");
    let n = rec.orders.len();
    assert!(why.starts_with(&format!("order {n} of {n}")), "{why}");
    assert!(why.contains("refused"), "{why}");
    let (all, none) = Game::from_save(g.record()).expect("loads");
    assert_eq!(none, None);
    assert_eq!(all.record().orders, g.record().orders);
}

#[test]
fn who_plays_each_side_survives_save_load_and_undo() {
    use warhorse::ai::{AiLevel, level_of};
    use warhorse::level::Control;
    use warhorse::sim::record::Player;
    let mut g = game();
    let players = vec![
        Player {
            control: Control::Human,
            ai: AiLevel::Table,
        },
        Player {
            control: Control::Ai,
            ai: AiLevel::Lookahead,
        },
    ];
    g.set_players(players.clone());
    assert_eq!(level_of(&g, 1), AiLevel::Lookahead);
    g.order(&mv("knight", &[Step::Forward])).unwrap();
    let dir = tmpdir("players");
    let a = dir.join("a.ron");
    g.save(&a).unwrap();
    let text = std::fs::read_to_string(&a).unwrap();
    assert!(text.contains("players"), "{text}");
    let mut loaded = Game::load(&a).unwrap();
    assert_eq!(loaded.record().players, players);
    assert_eq!(
        level_of(&loaded, 1),
        AiLevel::Lookahead,
        "the computer's strength is kept"
    );
    // Undo replays the record: the players stay.
    loaded.undo().unwrap();
    assert_eq!(loaded.record().players, players);
    assert_eq!(level_of(&loaded, 1), AiLevel::Lookahead);
    // A save written before players were kept (no `players` field) still loads.
    let mut old = g.record().clone();
    old.players.clear();
    let old_text = old.to_text();
    assert!(!old_text.contains("players"));
    std::fs::write(dir.join("old.ron"), &old_text).unwrap();
    let older = Game::load(&dir.join("old.ron")).expect("an older save loads");
    assert!(older.record().players.is_empty());
}

/// FNV-1a, 64 bits: a digest of a game's log that stays the same across Rust releases.
fn fnv(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Issue 29's done-when: saves written before the order router (commit 21aba68, computer
/// against computer for up to 260 orders on every level, seed 11) load and replay.
/// `tests/fixtures/saves-before-router/MANIFEST` holds, per level, how many of the save's
/// orders replay and a digest of the whole log they write; the log is every roll and every
/// result, so a replay that differs anywhere changes it.
///
/// The order router replayed all thirteen to the same logs. Issue 32's D7/D8 reading changed
/// them since: card rounds go on while two fighters with blows are within a 3" move of
/// contact, and D7's six PASSIVE SHIELD PARRIES bind a figure out of reach. Every game in which
/// a bash or a dodge broke contact with blows left now plays more card rounds, so the orders
/// the old code's computer gave next no longer fit: eleven of the saves now take a different
/// course, and nine of them stop at an order the corrected rules refuse (The Charge after 51
/// of its 96 orders, say). [`Game::from_save`] loads such a save as far as it replays and
/// says which order stopped it; the MANIFEST pins that prefix and its log. The two games the
/// correction did not touch, `realms_hedgerow` and `realms_night_ambush`, replay whole to the
/// logs the old code wrote. Issue 34 then put a side named as a plural in plural words
/// ("Germans win", not "Germans wins"): the six games whose sides are Germans, Soviets,
/// Wardens, Ghouls or Raiders replay the same orders to logs that differ only in those words,
/// and their digests were taken again.
#[test]
fn saves_from_before_the_order_router_load_and_replay_the_same_game() {
    let dir = std::path::Path::new("tests/fixtures/saves-before-router");
    let manifest = std::fs::read_to_string(dir.join("MANIFEST")).expect("manifest");
    let mut checked = 0;
    let mut differ = Vec::new();
    for line in manifest.lines() {
        let mut parts = line.split_whitespace();
        let (Some(name), Some(orders), Some(digest)) = (parts.next(), parts.next(), parts.next())
        else {
            panic!("bad manifest line {line:?}");
        };
        let rec = warhorse::sim::record::read_save(&dir.join(format!("{name}.ron")))
            .unwrap_or_else(|e| panic!("{name}: the old save does not read: {e}"));
        let (mut game, _) = Game::from_save(&rec)
            .unwrap_or_else(|e| panic!("{name}: the old save does not load: {e}"));
        assert_eq!(game.restores(), 0, "{name}");
        let log: Vec<String> = game.snapshot().log.iter().map(|l| l.to_string()).collect();
        let now = format!("{:016x}", fnv(&log.join("\n")));
        let replayed = game.record().orders.len().to_string();
        if (replayed.as_str(), now.as_str()) != (orders, digest) {
            differ.push(format!("{name} {replayed} {now} (was {orders} {digest})"));
        }
        checked += 1;
    }
    assert_eq!(checked, 13, "every level has a save");
    assert!(
        differ.is_empty(),
        "the replayed logs differ from the ones the old code wrote: {differ:?}"
    );
}

/// Issue 30, item 4: "the record carries a hash of the state every N orders, so a replay or
/// a client that diverges says at which order".
#[test]
fn a_replay_that_parts_from_the_game_as_played_says_after_which_order() {
    use warhorse::ai::AiLevel;
    use warhorse::sim::record::STATE_CHECK_EVERY;
    let level = warhorse::level::default_level().expect("the default level");
    let (_, game) =
        warhorse::ai::bout::play_game(&level, 5, 4, &[AiLevel::Table, AiLevel::Table], None);
    let rec = game.record().clone();
    assert!(
        rec.orders.len() >= 2 * STATE_CHECK_EVERY,
        "{}",
        rec.orders.len()
    );
    assert_eq!(rec.checks.len(), rec.orders.len() / STATE_CHECK_EVERY);
    assert_eq!(rec.checks[1].after, 2 * STATE_CHECK_EVERY);
    // The record as played replays, and keeps the same checks.
    let again = Game::from_record(&rec).expect("the record replays");
    assert_eq!(again.record(), &rec);
    // A board that differs at the second check (here: the kept hash is not this game's) is
    // named by its order, by the strict replay and by the load that goes on regardless.
    let mut parted = rec.clone();
    parted.checks[1].hash = "0".repeat(16);
    let e = Game::from_record(&parted)
        .map(|_| ())
        .expect_err("a replay that parts");
    let after = format!("after order {}", 2 * STATE_CHECK_EVERY);
    assert!(e.to_string().contains(&after), "{e}");
    let (loaded, note) = Game::from_save(&parted).expect("the load goes on");
    assert!(note.expect("a note").contains(&after));
    assert_eq!(loaded.record().orders, rec.orders);
}
