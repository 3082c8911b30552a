//! A seat that plays a hosted game from elsewhere is asked its dodge guesses (issue 30, D7).
//! When a card round waits for the guesses, every card is faced but the DODGEs; a client's
//! replica must reach that stage too, or the window never shows the question and the host
//! waits for ever. The host gives it the other side's plays of the round then with each
//! DODGE's way masked, and the mask is the same whichever way the figure chose. Before that
//! no play of the other side reaches it, a pass no more than cards (D9).

use std::path::Path;
use warhorse::ai::{AiLevel, next_order, set_level, side_to_act};
use warhorse::level::{Level, load_level_file};
use warhorse::net::host::{Host, Outbox};
use warhorse::net::protocol::{FromHost, Hello, Wish, version};
use warhorse::net::replica::Replica;
use warhorse::rules::melee::cards::{DodgeDir, MeleeCard};
use warhorse::sim::Game;
use warhorse::sim::follow::Shown;
use warhorse::sim::log::Happening;
use warhorse::sim::melee::Stage;
use warhorse::sim::order::Order;
use warhorse::sim::side_view::Seat;

/// The most orders of one game looked at.
const ORDERS: usize = 700;

/// One seated client: its replica of the host's game.
struct Client {
    replica: Replica,
    game: Option<Game>,
}

/// Hands each client the updates the host sent it; returns the other sides' round plays
/// (cards or a pass) each seat was given, by place in the record.
fn deliver(out: Outbox, clients: &mut [Client], level: &Level) -> Vec<usize> {
    let mut plays = Vec::new();
    for (who, m) in out {
        if let FromHost::Update(u) = m {
            let seat = who as u8 - 1;
            plays.extend(u.seen.iter().filter_map(|(p, o)| match o {
                Order::PlayCards { unit, .. } | Order::Pass { unit }
                    if side_of(level, unit) != Some(seat) =>
                {
                    Some(*p)
                }
                _ => None,
            }));
            let c = &mut clients[seat as usize];
            c.replica.take(&mut c.game, &u);
            assert_eq!(c.replica.parted(), None, "a replica parted from the host");
        }
    }
    plays
}

/// The side of a figure (or of a horse, `rider.mount`), read from the level.
fn side_of(level: &Level, unit: &str) -> Option<u8> {
    let id = unit.split('.').next()?;
    level.figures.iter().find(|f| f.id == id).map(|f| f.side)
}

/// The figures of `side` the game waits for to guess a dodge.
fn guesses_due(game: &Game, side: u8) -> Vec<String> {
    game.melee_waiting(Stage::Guessing)
        .into_iter()
        .filter(|(_, s)| *s == side)
        .map(|(id, _)| id)
        .collect()
}

/// Every play of order `place` with its DODGEs turned another way that the game accepts
/// when replayed: what `seat` is shown of each must be what it is shown of the real one.
fn mask_tells_nothing(game: &Game, place: usize, seat: Seat) -> usize {
    let shown = game.shown_to(place, seat);
    let Order::PlayCards {
        unit,
        tac,
        tac_target,
        melee,
    } = &game.record().orders[place]
    else {
        return 0;
    };
    let mut compared = 0;
    for way in DodgeDir::ALL {
        let other: Vec<MeleeCard> = melee
            .iter()
            .map(|m| match m {
                MeleeCard::Dodge(_) => MeleeCard::Dodge(way),
                m => m.clone(),
            })
            .collect();
        if other == *melee {
            continue;
        }
        let mut rec = game.record().clone();
        rec.checks.clear();
        rec.orders[place] = Order::PlayCards {
            unit: unit.clone(),
            tac: *tac,
            tac_target: tac_target.clone(),
            melee: other,
        };
        let Ok(alt) = Game::from_record(&rec) else {
            continue; // that way is not open to the figure
        };
        assert_eq!(
            alt.shown_to(place, seat),
            shown,
            "a DODGE {} instead shows {seat:?} something else",
            way.word()
        );
        compared += 1;
    }
    compared
}

/// Plays `level` from `seed` with the commander on both sides, each side's orders given by a
/// client of a host; counts the times the host waited for a side's guesses (after checking
/// that side's replica asks them), the masks compared, and the other sides' plays given.
fn play(level: &Level, seed: u64) -> (usize, usize, usize) {
    let n = level.file.sides.len() as u8;
    let mut host = Host::new(Game::new(level, seed), "s3cret".into());
    let mut clients: Vec<Client> = (0..n)
        .map(|_| Client {
            replica: Replica::new(level.clone()),
            game: None,
        })
        .collect();
    for side in 0..n {
        set_level(host.game_mut(), side, AiLevel::Commander);
        let hello = Hello {
            version: version(),
            secret: "s3cret".into(),
            wish: Wish::Side(side),
            name: format!("player {side}"),
        };
        let out = host.hello(side as u64 + 1, &hello);
        deliver(out, &mut clients, level);
    }
    let (mut asked, mut masks, mut plays) = (0, 0, 0);
    // The log's length before each accepted order, by place in the record.
    let mut log_before: Vec<usize> = Vec::new();
    for _ in 0..ORDERS {
        if host.game().outcome().is_some() {
            break;
        }
        let Some(side) = side_to_act(host.game_mut()) else {
            break;
        };
        let Some(order) = next_order(host.game_mut(), side) else {
            break;
        };
        let (orders_before, lines_before) =
            (host.game().record().orders.len(), host.game().log().len());
        let out = host.order(side as u64 + 1, order);
        if host.game().record().orders.len() > orders_before {
            log_before.push(lines_before);
        }
        // Another side's play reaches a seat only once its round's cards are faced, all of
        // them or all but the DODGEs.
        for p in deliver(out, &mut clients, level) {
            let faced = host.game().log()[log_before[p]..]
                .iter()
                .any(|l| matches!(l.what, Happening::CardsFaced(_) | Happening::DodgesAsked(_)));
            assert!(
                faced,
                "{}, seed {seed}: order {p} ({}) reached another side before the cards were faced",
                level.file.name,
                host.game().record().orders[p]
            );
            plays += 1;
        }
        for s in 0..n {
            let due = guesses_due(host.game(), s);
            if due.is_empty() {
                continue;
            }
            asked += 1;
            let replica = clients[s as usize].game.as_ref().expect("a replica");
            assert_eq!(
                guesses_due(replica, s),
                due,
                "{}, seed {seed}: side {s}'s replica is not asked the guesses the host waits for",
                level.file.name
            );
            let orders = host.game().record().orders.len();
            for p in 0..orders {
                if matches!(host.game().shown_to(p, Seat::Side(s)), Shown::Faced(_)) {
                    masks += mask_tells_nothing(host.game(), p, Seat::Side(s));
                }
            }
        }
    }
    (asked, masks, plays)
}

#[test]
fn net_a_seat_gets_no_play_of_the_other_side_before_it_is_faced_and_is_asked_its_guesses() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/realms_ambush.ron");
    let level = load_level_file(&path).expect("the level loads");
    let (mut asked, mut masks, mut plays) = (0, 0, 0);
    for seed in 0..6 {
        let (a, m, p) = play(&level, seed);
        asked += a;
        masks += m;
        plays += p;
        if asked > 0 && masks > 0 {
            break;
        }
    }
    assert!(
        asked > 0 && masks > 0 && plays > 0,
        "no game waited for a guess ({asked}) with a DODGE whose way could differ ({masks}), \
         or gave another side's plays ({plays})"
    );
}
