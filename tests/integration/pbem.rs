//! Issue 30, item 5: play by email. Two games exchange turn files to a battle's end, each
//! side played by the computer from its own player's game; the records agree and replay; an
//! altered order, a reused file, a changed commitment, a file out of order and a file of
//! another version are each refused in words, and a refused file changes nothing.

use warhorse::ai::{AiLevel, next_order, set_level, waits_for};
use warhorse::level::Level;
use warhorse::net::pbem::{Entry, Pbem, PbemError, Status, TurnFile, parse_file};
use warhorse::rules::melee::cards::{Card, MeleeCard};
use warhorse::sim::Game;
use warhorse::sim::order::Order;

/// The most files a test game may take: a bug that stops a game going forward fails the test
/// instead of hanging it.
const MAX_FILES: usize = 4000;

/// Gives `p`'s orders, chosen by the computer from `p`'s own game, until the game waits for
/// the other player; returns how many were given.
fn give_orders(p: &mut Pbem, strength: AiLevel) -> usize {
    give_orders_dodging(p, strength, false)
}

/// [`give_orders`]; with `dodge`, a figure that may play a DODGE plays it instead of the
/// computer's choice.
fn give_orders_dodging(p: &mut Pbem, strength: AiLevel, dodge: bool) -> usize {
    let mut given = 0;
    for _ in 0..2000 {
        if p.status() != Status::YourOrders {
            break;
        }
        let sides = p.my_sides();
        let g = p.game_mut().expect("a game once orders are awaited");
        let Some(side) = sides.iter().copied().find(|&s| waits_for(g, s)) else {
            break;
        };
        set_level(g, side, strength);
        let Some(order) = next_order(g, side) else {
            break;
        };
        if dodge
            && let Order::PlayCards { unit, .. } = &order
            && let Some(d) = dodge_of(g, unit)
            && p.order(&d).is_ok()
        {
            given += 1;
            continue;
        }
        match p.order(&order) {
            Ok(()) => given += 1,
            Err(PbemError::DiceNotAgreed { .. }) => break,
            Err(e) => panic!("the computer's order {order} was refused by email: {e}"),
        }
    }
    given
}

/// A DODGE that `unit` may play now, as its play.
fn dodge_of(g: &mut Game, unit: &str) -> Option<Order> {
    g.hand(unit).into_iter().find_map(|c| match c.card {
        Card::Melee(m @ MeleeCard::Dodge(_)) if c.verdict.is_ok() => Some(Order::PlayCards {
            unit: unit.to_string(),
            tac: None,
            tac_target: None,
            melee: vec![m],
        }),
        _ => None,
    })
}

/// A file through its text, as it travels.
fn mailed(f: &TurnFile) -> TurnFile {
    parse_file(&f.to_text()).expect("a file reads back")
}

/// Plays `level` by email to its end (or `turns`); returns both players and every file.
fn play(level: &Level, turns: u32) -> (Pbem, Pbem, Vec<TurnFile>) {
    play_at(level, turns, AiLevel::Table, false)
}

/// [`play`], the computer at `strength` on both sides; with `dodge`, every figure that may
/// play a DODGE plays it.
fn play_at(
    level: &Level,
    turns: u32,
    strength: AiLevel,
    dodge: bool,
) -> (Pbem, Pbem, Vec<TurnFile>) {
    let (mut a, first) = Pbem::begin(level, 0).expect("a game begins");
    let (mut b, _) = Pbem::answer(&mailed(&first)).expect("the first file is answered");
    let mut files = vec![first];
    for _ in 0..MAX_FILES {
        let (writer, reader) = if a.writes_next() {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        let over = matches!(writer.status(), Status::Over(_));
        give_orders_dodging(writer, strength, dodge);
        let f = writer.write().expect("a file is written");
        reader.read(&mailed(&f)).expect("the other player reads it");
        files.push(f);
        let turn = reader.game_mut().map_or(0, |g| g.snapshot().turn);
        if over || turn > turns {
            break;
        }
    }
    (a, b, files)
}

#[test]
fn pbem_two_games_play_a_battle_by_files_and_agree_on_every_order() {
    let level = warhorse::level::default_level().expect("the default level");
    let (mut a, mut b, files) = play(&level, 40);
    for p in [&mut a, &mut b] {
        let out = p.game_mut().expect("a game").outcome().cloned();
        assert!(out.is_some(), "the battle was played to its end");
    }
    let rec_a = a.public_record().expect("a record");
    let rec_b = b.public_record().expect("a record");
    assert_eq!(rec_a, rec_b, "both players hold the same record");
    assert!(rec_a.orders.len() > 50, "{} orders", rec_a.orders.len());
    assert!(!rec_a.turn_seeds.is_empty(), "the dice are made by turn");
    // A turn's seed is agreed a turn ahead: at the end one player may hold the next turn's
    // and the other not. The record keeps the seeds of the turns played, the same for both.
    let reached = a.game().expect("a game").turn_state().turn as usize;
    assert_eq!(
        rec_a.turn_seeds.len(),
        reached,
        "a seed for each turn played"
    );
    // The record replays as an ordinary save, to the same board.
    let mut again = Game::from_record(&rec_a).expect("the record replays");
    let mut public_a = a.game_mut().expect("a game").snapshot();
    let mut public_again = again.snapshot();
    public_a.log.clear();
    public_again.log.clear();
    let json = |s| serde_json::to_string(&s).expect("json");
    assert_eq!(
        rec_a.orders.len(),
        a.game_mut().expect("a game").record().orders.len(),
        "at the end every order is open"
    );
    assert_eq!(json(public_a), json(public_again));
    // Face-down choices travelled sealed, and every sealed one was opened later.
    let sealed = files
        .iter()
        .flat_map(|f| f.entries.iter())
        .filter(|e| matches!(e, Entry::Sealed { .. }))
        .count();
    let opened: usize = files.iter().map(|f| f.opened.len()).sum();
    assert!(sealed > 0, "cards were played face down");
    assert_eq!(opened, sealed, "every sealed order was opened");
    // A face-down order travels as a hash until it is opened: no file from the one that
    // sealed it to the one before the opening holds its words.
    let mut sealed_in = Vec::new();
    for (k, f) in files.iter().enumerate() {
        sealed_in.extend(f.entries.iter().map(|_| k));
    }
    // (Another figure's order opened meanwhile may read the same, so openings of other
    // places are not searched.)
    let entries: Vec<String> = files
        .iter()
        .map(|f| serde_json::to_string(&f.entries).expect("json"))
        .collect();
    let mut checked = 0;
    for (k, f) in files.iter().enumerate() {
        for op in &f.opened {
            let words = serde_json::to_string(&op.order).expect("json");
            for j in sealed_in[op.slot]..k {
                assert!(
                    !entries[j].contains(&words),
                    "{words} travelled before it was opened"
                );
                assert!(files[j].opened.iter().all(|o| o.slot != op.slot));
                checked += 1;
            }
        }
    }
    assert!(
        checked > 0,
        "some order was sealed in one file and opened in a later one"
    );
    // Each player's state file keeps the game: a loaded state goes on alike.
    let b2 = Pbem::from_text(&b.to_text()).expect("the state reads back");
    assert_eq!(b2.public_record(), b.public_record());
}

/// Plays until a file carries a sealed order; returns the players and that file (unread).
fn until_sealed(level: &Level) -> (Pbem, Pbem, TurnFile, Vec<TurnFile>) {
    let (mut a, first) = Pbem::begin(level, 0).expect("a game begins");
    let (mut b, _) = Pbem::answer(&first).expect("answered");
    let mut files = vec![first];
    for _ in 0..MAX_FILES {
        let a_writes = a.writes_next();
        let (writer, reader) = if a_writes {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        give_orders(writer, AiLevel::Table);
        let f = writer.write().expect("written");
        if f.entries.iter().any(|e| matches!(e, Entry::Sealed { .. })) && f.opened.is_empty() {
            return if a_writes {
                (a, b, f, files)
            } else {
                (b, a, f, files)
            };
        }
        reader.read(&f).expect("read");
        files.push(f);
    }
    panic!("no face-down order in {MAX_FILES} files");
}

#[test]
fn pbem_an_altered_reused_or_out_of_order_file_is_refused_in_words() {
    let level = warhorse::level::default_level().expect("the default level");
    let (mut a, first) = Pbem::begin(&level, 0).expect("a game begins");
    let (mut b, _) = Pbem::answer(&first).expect("answered");
    give_orders(&mut b, AiLevel::Table);
    let second = b.write().expect("b's first file");
    // Another version.
    let mut other = second.clone();
    other.version = "warhorse 0.0.1 (net protocol 0)".into();
    let e = a.read(&other.seal()).expect_err("another version");
    assert!(matches!(e, PbemError::OtherVersion { .. }), "{e}");
    assert!(e.to_string().contains("same version"), "{e}");
    a.read(&second).expect("the file as sent");
    // Play on until a file carries an order anyone may read.
    let (mut writer, mut reader) = (a, b);
    let third = loop {
        give_orders(&mut writer, AiLevel::Table);
        let f = writer.write().expect("orders");
        if f.entries.iter().any(|e| matches!(e, Entry::Order(_))) {
            break f;
        }
        reader.read(&f).expect("read");
        std::mem::swap(&mut writer, &mut reader);
    };
    let mut b = reader;
    let seq = third.seq;
    let order_at = third
        .entries
        .iter()
        .position(|e| matches!(e, Entry::Order(_)))
        .expect("an open order in the file");
    // An altered order: another order in its place, the file's hash left as written.
    let mut altered = third.clone();
    altered.entries[order_at] = match &third.entries[order_at] {
        Entry::Order(Order::EndSide) => Entry::Order(Order::Pass { unit: "x".into() }),
        _ => Entry::Order(Order::EndSide),
    };
    let altered = parse_file(&altered.to_text()).expect("still a turn file");
    let e = b.read(&altered).expect_err("an altered order");
    assert_eq!(e, PbemError::Altered { seq });
    assert!(e.to_string().contains("altered"), "{e}");
    // Out of order: a file from further on.
    let mut later = third.clone();
    later.seq = seq + 2;
    let e = b.read(&later.seal()).expect_err("out of order");
    assert_eq!(
        e,
        PbemError::OutOfOrder {
            expected: seq,
            found: seq + 2
        }
    );
    assert!(
        e.to_string().contains(&format!("file {seq} comes next")),
        "{e}"
    );
    // Nothing refused changed anything: the file as sent reads.
    let before = b.public_record();
    b.read(&third).expect("the file as sent");
    assert_ne!(b.public_record(), before);
    // Reused: read again.
    let e = b.read(&third).expect_err("a reused file");
    assert_eq!(e, PbemError::Reused { seq });
    assert!(e.to_string().contains("read before"), "{e}");
    // Another game's file.
    let (_, other_first) = Pbem::begin(&level, 0).expect("another game");
    let e = b.read(&other_first).expect_err("another game");
    assert!(
        matches!(
            e,
            PbemError::OtherGame | PbemError::Reused { .. } | PbemError::Rewritten { .. }
        ),
        "{e}"
    );
}

#[test]
fn pbem_a_face_down_order_opened_as_another_is_refused() {
    let level = warhorse::level::default_level().expect("the default level");
    let (mut sealer, mut other, sealed_file, _) = until_sealed(&level);
    other.read(&sealed_file).expect("the sealed file reads");
    give_orders(&mut other, AiLevel::Table);
    let answer = other.write().expect("the answer");
    sealer.read(&answer).expect("the answer reads");
    give_orders(&mut sealer, AiLevel::Table);
    let opening = sealer.write().expect("the file that opens");
    assert!(
        !opening.opened.is_empty(),
        "the sealed orders are opened once the other player is bound"
    );
    // The sender changes a face-down order after seeing the other player's: it no longer
    // matches its commitment, even with the file's own hash made good again.
    let mut cheat = opening.clone();
    let first = &mut cheat.opened[0];
    let unit = match &first.order {
        Order::PlayCards { unit, .. }
        | Order::GuessDodge { unit, .. }
        | Order::DeclareCharge { unit, .. }
        | Order::NoCharge { unit }
        | Order::AnswerCharge { unit, .. } => unit.clone(),
        o => panic!("{o} was not face down"),
    };
    let changed = match &first.order {
        Order::NoCharge { .. } => Order::DeclareCharge {
            unit,
            targets: Vec::new(),
        },
        _ => Order::NoCharge { unit },
    };
    first.order = changed;
    let e = other.read(&cheat.seal()).expect_err("a changed commitment");
    assert!(matches!(e, PbemError::ChangedCommitment { .. }), "{e}");
    assert!(e.to_string().contains("commitment"), "{e}");
    // The file as sent reads, and the game goes on.
    other.read(&opening).expect("the file as sent");
}

#[test]
fn pbem_a_turn_begun_before_its_seed_is_agreed_is_named_and_the_seeds_roll_each_turn() {
    use warhorse::ai::side_to_act;
    let level = warhorse::level::default_level().expect("the default level");
    let play_to_turn_2 = |seeds: Vec<u64>| {
        let mut g = Game::new_by_turn(&level, seeds);
        for _ in 0..5000 {
            let turn = g.snapshot().turn;
            if turn >= 2 || g.outcome().is_some() {
                break;
            }
            let side = side_to_act(&mut g).expect("a side to act");
            let order = next_order(&mut g, side).expect("an order");
            g.order(&order).expect("the computer's order");
        }
        g
    };
    let g = play_to_turn_2(vec![7]);
    assert_eq!(
        g.missing_turn_seed(),
        Some(2),
        "turn 2 began without its seed"
    );
    let a = play_to_turn_2(vec![7, 8]);
    let b = play_to_turn_2(vec![7, 9]);
    assert_eq!(a.missing_turn_seed(), None);
    assert_eq!(a.record().orders, b.record().orders, "turn 1 alike");
    let rolls = |g: &Game| -> Vec<String> {
        g.log()
            .iter()
            .filter(|l| l.turn == 2 && l.roll.is_some())
            .map(ToString::to_string)
            .collect()
    };
    assert!(!rolls(&a).is_empty(), "turn 2 rolls for initiative");
    assert_ne!(rolls(&a), rolls(&b), "turn 2 rolls from its own seed");
}

#[test]
fn pbem_a_dodge_is_shown_masked_until_its_guessers_have_sealed_their_guesses() {
    // D7: "the DODGE cards stay face down until the guesses are in". By email a sealed play
    // with a DODGE someone must guess is shown first with its way masked, so the guesser's
    // game reaches the guesses; the play is opened whole only after the guesses are sealed.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/realms_ambush.ron");
    let level = warhorse::level::load_level_file(&path).expect("the level loads");
    let (mut a, mut b, files) = play_at(&level, 40, AiLevel::Commander, true);
    assert_eq!(
        a.public_record().map(|r| r.orders.len()),
        b.public_record().map(|r| r.orders.len()),
        "both players agree on the record"
    );
    let _ = (a.game_mut(), b.game_mut());
    let mut shown = 0;
    for (k, f) in files.iter().enumerate() {
        for fp in &f.faced {
            shown += 1;
            // Opened whole in a later file, by the same player, as the masked play with its
            // ways filled in; guesses of the other player were sealed in between.
            let (at, whole) = files
                .iter()
                .enumerate()
                .skip(k + 1)
                .find_map(|(j, g)| {
                    g.opened
                        .iter()
                        .find(|o| o.slot == fp.slot)
                        .map(|o| (j, o.order.clone()))
                })
                .expect("a masked play is opened later");
            assert_eq!(files[at].from, f.from);
            let guessed = files[k + 1..at].iter().any(|g| {
                g.from != f.from
                    && g.entries.iter().any(|e| match e {
                        Entry::Sealed { .. } => true,
                        Entry::Order(o) => matches!(o, Order::Pass { .. }),
                    })
            });
            assert!(
                guessed,
                "the guesses were sealed before the DODGE was opened"
            );
            // The whole play is nowhere in the files before it is opened.
            let words = serde_json::to_string(&whole).expect("json");
            if whole != fp.order {
                for g in &files[..at] {
                    assert!(
                        !serde_json::to_string(g).expect("json").contains(&words),
                        "{words} travelled before the guesses were in"
                    );
                }
            }
        }
    }
    assert!(shown > 0, "some DODGE was shown masked");
}
