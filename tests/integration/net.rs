//! Play across machines on the loopback address (issue 30): a host and its clients over real
//! UDP sockets. A game played by two clients, one of which drops and rejoins mid-turn while a
//! spectator watches, ends with the record and the board the same orders give played at one
//! machine, byte for byte; every message one side's client received while the other side had
//! face-down cards or charge orders pending is searched for them and for the seed; and each
//! way a client is turned away says so in words. Every loop is bounded by a deadline.

use std::time::{Duration, Instant};
use warhorse::ai::AiLevel;
use warhorse::ai::bout::play_game;
use warhorse::level::{Level, default_level};
use warhorse::net::code::JoinCode;
use warhorse::net::host::Host;
use warhorse::net::link::{NetClient, NetServer, Standing};
use warhorse::net::mirror::Mirror;
use warhorse::net::protocol::{FromHost, Turned, Update, Wish};
use warhorse::net::replica::Replica;
use warhorse::sim::Game;
use warhorse::sim::order::Order;
use warhorse::sim::side_view::{Seat, Secret};

/// A seed whose digits would stand out in any message they leaked into.
const SEED: u64 = 8_716_305_942_071;

/// The longest any one exchange may take on the loopback address before the test fails.
const PATIENCE: Duration = Duration::from_secs(20);

/// The orders of a whole game of `level`, the computer playing both sides: the baseline
/// rolls on the actions table and the stronger level plans, so between them every kind of
/// happening travels.
fn orders_of_a_game(level: &Level) -> (Vec<Order>, Game) {
    let (_, game) = play_game(level, SEED, 20, &[AiLevel::Table, AiLevel::Lookahead], None);
    (game.record().orders.clone(), game)
}

fn listen(level: &Level) -> NetServer {
    let host = Host::new(Game::new(level, SEED), JoinCode::fresh_secret());
    NetServer::listen(host, "127.0.0.1:0".parse().unwrap(), None).expect("a loopback host")
}

/// One client with what it has received.
struct Player {
    link: NetClient,
    mirror: Mirror,
    /// Every message received since the last look, as JSON.
    heard: Vec<String>,
    /// The whole game as this client rebuilds it from the orders and dice it was sent.
    replica: Option<Replica>,
    game: Option<Game>,
    /// Every update received since the last look.
    updates: Vec<Update>,
}

impl Player {
    fn join(code: &JoinCode, wish: Wish, name: &str) -> Player {
        Player {
            link: NetClient::join(code, wish, name).expect("a client socket"),
            mirror: Mirror::default(),
            heard: Vec::new(),
            replica: None,
            game: None,
            updates: Vec::new(),
        }
    }

    fn pump(&mut self) {
        for m in self.link.pump() {
            self.heard
                .push(serde_json::to_string(&m).expect("a message serializes"));
            match &m {
                FromHost::Welcome(w) => {
                    self.replica = Some(Replica::new(w.level().expect("the host's level")));
                    self.game = None;
                }
                FromHost::Update(u) => {
                    let r = self.replica.as_mut().expect("welcomed before an update");
                    r.take(&mut self.game, u);
                    assert_eq!(r.parted(), None, "the replica parted from the host");
                    self.updates.push((**u).clone());
                }
                _ => {}
            }
            self.mirror.take(m);
        }
    }
}

/// Pumps the host and every client until `done` holds; fails the test after [`PATIENCE`].
fn pump_until(
    server: &mut NetServer,
    players: &mut [&mut Player],
    what: &str,
    mut done: impl FnMut(&mut NetServer, &[&mut Player]) -> bool,
) {
    let start = Instant::now();
    loop {
        for p in players.iter_mut() {
            p.pump();
        }
        server.pump();
        if done(server, players) {
            return;
        }
        assert!(start.elapsed() < PATIENCE, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn seated(p: &Player) -> bool {
    p.mirror.seat().is_some() && p.mirror.public.is_some()
}

/// The words a pending secret would show if it leaked: the cards as the reveal faces them
/// after the figure's id, or the targets of a charge order as the reveal lists them.
fn needles(secret: &Secret) -> Vec<String> {
    // The order itself, as it would travel to a replica.
    let order = |kind: &str, figure: &str| format!("{{\"{kind}\":{{\"unit\":\"{figure}\"");
    match secret {
        Secret::Cards { figure, cards } => vec![
            format!("{figure}: {}", cards.join(" + ")),
            order("PlayCards", figure),
            // A pass is a play too (PASSIVE SHIELD PARRY, D9).
            order("Pass", figure),
        ],
        Secret::Charge { figure, targets } => {
            let mut n = vec![order("DeclareCharge", figure), order("NoCharge", figure)];
            if !targets.is_empty() {
                n.push(serde_json::to_string(&(figure, targets)).expect("json"));
            }
            n
        }
        Secret::Guess {
            figure,
            dodger,
            way,
        } => vec![
            format!("{figure} guesses {dodger} dodges {way}"),
            order("GuessDodge", figure),
        ],
        Secret::Answer { figure, tac, reply } => vec![
            format!("{figure}: {tac} + {reply}"),
            order("AnswerCharge", figure),
        ],
    }
}

/// The side of the figure a face-down order speaks for, read from the level.
fn local_side(level: &Level, o: &Order) -> Option<u8> {
    let unit = o.face_down_unit()?;
    level.figures.iter().find(|f| f.id == unit).map(|f| f.side)
}

#[test]
fn net_two_clients_play_a_game_to_its_end_and_one_rejoins_mid_turn() {
    let level = default_level().expect("the default level loads");
    let (orders, mut local) = orders_of_a_game(&level);
    assert!(local.outcome().is_some(), "the computer finishes the game");
    assert!(orders.len() > 20, "a game of some length: {}", orders.len());

    let mut server = listen(&level);
    let code = server.code().clone();
    let mut red = Player::join(&code, Wish::Side(0), "Ann");
    let mut blue = Player::join(&code, Wish::Side(1), "Bo");
    pump_until(
        &mut server,
        &mut [&mut red, &mut blue],
        "both seats",
        |_, p| p.iter().all(|p| seated(p)),
    );
    assert_eq!(red.mirror.seat(), Some(Seat::Side(0)));
    assert_eq!(blue.mirror.seat(), Some(Seat::Side(1)));
    let welcome = red.mirror.welcome.clone().expect("welcomed");
    assert_eq!(
        welcome.level,
        local.record().level,
        "the host's level travels"
    );

    // Blue drops at the first face-down order of its own after a fifth of the game, and
    // rejoins before giving it; a spectator comes in at the half.
    let drop_at = (orders.len() / 5..orders.len())
        .find(|&i| {
            matches!(
                orders[i],
                Order::PlayCards { .. } | Order::DeclareCharge { .. }
            )
        })
        .filter(|&i| {
            server
                .host_mut()
                .game_mut()
                .side_of_order(&orders[i])
                .is_some()
        })
        .unwrap_or(orders.len() / 5);
    let mut watcher: Option<Player> = None;
    let mut blue_dropped = false;
    let mut secrets_checked = 0;
    let mut replica_reveals = 0;
    let mut pending: [Vec<Secret>; 2] = Default::default();
    let seed = SEED.to_string();
    for (i, order) in orders.iter().enumerate() {
        let side = server
            .host_mut()
            .game_mut()
            .side_of_order(order)
            .expect("every order is some side's");
        if i >= drop_at && !blue_dropped && side == 1 {
            blue_dropped = true;
            blue.link.leave();
            pump_until(
                &mut server,
                &mut [&mut red],
                "the host to see blue go",
                |s, _| s.connected() == 1,
            );
            blue = Player::join(&code, Wish::Side(1), "Bo again");
            pump_until(
                &mut server,
                &mut [&mut red, &mut blue],
                "blue's rejoin",
                |_, p| seated(p[1]),
            );
            assert_eq!(
                blue.mirror.log.len(),
                red.mirror.log.len(),
                "a rejoining client gets the whole log again"
            );
            // The old lines of the log and the orders already revealed come again; the
            // search is for what happens next.
            blue.heard.clear();
            blue.updates.clear();
        }
        if i == orders.len() / 2 {
            let mut w = Player::join(&code, Wish::Watch, "Cy");
            pump_until(&mut server, &mut [&mut w], "the spectator", |_, p| {
                seated(p[0])
            });
            assert_eq!(w.mirror.seat(), Some(Seat::Spectator));
            watcher = Some(w);
        }
        let sender = if side == 0 { &mut red } else { &mut blue };
        sender.link.send(order.clone());
        let mut players: Vec<&mut Player> = vec![&mut red, &mut blue];
        if let Some(w) = watcher.as_mut() {
            players.push(w);
        }
        pump_until(&mut server, &mut players, "an order's updates", |s, p| {
            s.host().game().record().orders.len() == i + 1
                && p.iter().all(|p| p.mirror.orders == i + 1)
        });
        for p in &players {
            assert!(
                p.mirror.refused.is_none(),
                "order {i} ({order}) was refused"
            );
        }
        // What each side's client heard while the other side held secrets: those chosen
        // before this order and still face down after it. (A choice made by this very order
        // may repeat a play already faced in an earlier round, printed in the same update.)
        // A reveal in this update ends the secrets of its kind: a figure's next choice may
        // read the same as the one just faced.
        let faced = players[0]
            .heard
            .iter()
            .any(|t| t.contains("\"CardsFaced\""));
        let charges = players[0]
            .heard
            .iter()
            .any(|t| t.contains("\"ChargesRevealed\""));
        // Each side's replica asks of it what the host asks: the phase, who moves, and which
        // of its own figures must still choose — so no window waits for what the host has.
        let host_now = server.host_mut().game_mut().snapshot();
        let sides = server.host_mut().game_mut().sides_of_figures();
        for (me, p) in players.iter_mut().take(2).enumerate() {
            let ours = |ids: &[String]| -> Vec<String> {
                ids.iter()
                    .filter(|id| sides.get(*id) == Some(&(me as u8)))
                    .cloned()
                    .collect()
            };
            let mine = p.game.as_mut().expect("a replica").snapshot();
            assert_eq!(
                (&mine.phase, &mine.to_move, ours(&mine.to_choose)),
                (
                    &host_now.phase,
                    &host_now.to_move,
                    ours(&host_now.to_choose)
                ),
                "after order {} ({order}) side {me}'s replica waits for something else",
                i + 1
            );
            assert_eq!(ours(&mine.to_declare), ours(&host_now.to_declare));
        }
        for (me, other) in [(0u8, 1u8), (1, 0)] {
            let now = server.host_mut().game_mut().view(Seat::Side(other)).own;
            // The other side's face-down orders reach this side's replica too, once
            // revealed (the search below finds none still face down).
            for u in std::mem::take(&mut players[me as usize].updates) {
                replica_reveals += u
                    .seen
                    .iter()
                    .filter(|(_, o)| {
                        o.face_down_unit().is_some() && local_side(&level, o) == Some(other)
                    })
                    .count();
            }
            let held: Vec<Secret> = now
                .iter()
                .filter(|s| pending[other as usize].contains(s))
                .filter(|s| match s {
                    Secret::Cards { .. } | Secret::Guess { .. } => !faced,
                    Secret::Charge { .. } | Secret::Answer { .. } => !charges,
                })
                .cloned()
                .collect();
            pending[other as usize] = now;
            let heard = &mut players[me as usize].heard;
            for text in heard.iter() {
                assert!(!text.contains(&seed), "the seed reached side {me}");
                for s in &held {
                    for n in needles(s) {
                        secrets_checked += 1;
                        assert!(
                            !text.contains(&n),
                            "side {me} heard side {other}'s face-down {s:?} at order {i}"
                        );
                    }
                }
            }
            heard.clear();
        }
        if let Some(w) = players.get_mut(2) {
            w.heard.clear();
        }
    }
    assert!(blue_dropped, "blue dropped and rejoined");
    assert!(secrets_checked > 0, "some face-down choice was pending");
    assert!(
        replica_reveals > 0,
        "some face-down order reached the other side once revealed"
    );

    // The same record and board as the game played at one machine, byte for byte.
    let mut host = server.into_host();
    assert_eq!(host.game().record().to_text(), local.record().to_text());
    let here = serde_json::to_string(&local.snapshot()).unwrap();
    assert_eq!(
        serde_json::to_string(&host.game_mut().snapshot()).unwrap(),
        here
    );
    assert!(host.game().outcome().is_some(), "the hosted game ended too");
    // Each client's mirror holds the whole public game.
    let public = local.view(Seat::Spectator).public;
    let host_board = host.game_mut().state_hash();
    let mut watcher = watcher.expect("a spectator");
    for p in [&mut red, &mut blue, &mut watcher] {
        // The replica played every order with the host's dice, and no die more.
        let replica = p.game.as_mut().expect("a replica");
        assert_eq!(
            replica.state_hash(),
            host_board,
            "the replica's board is the host's"
        );
        assert_eq!(
            replica.replica_dice(),
            (false, 0),
            "every die sent rolled once"
        );
        assert_eq!(replica.log().len(), local.log().len());
        assert!(
            replica.outcome().is_some(),
            "the replica's battle ended too"
        );
    }
    for p in [&red, &blue, &watcher] {
        let mine = p.mirror.snapshot().expect("a board");
        assert_eq!(mine.figures, public.figures);
        assert_eq!(mine.log, public.log, "the log with what each line reports");
        assert_eq!(p.mirror.gaps, 0);
    }
}

#[test]
fn net_a_client_is_turned_away_in_words_for_a_wrong_code_version_or_seat() {
    let level = default_level().expect("the default level loads");
    let mut server = listen(&level);
    let code = server.code().clone();
    let mut red = Player::join(&code, Wish::Side(0), "Ann");
    pump_until(&mut server, &mut [&mut red], "red's seat", |_, p| {
        seated(p[0])
    });

    let wrong = JoinCode {
        secret: "wrongsecret".into(),
        addr: code.addr,
    };
    let mut other_build = Player::join(&code, Wish::Side(1), "Old");
    other_build.link.hello_mut().version = "warhorse 0.0.1 (net protocol 0)".into();
    let cases: Vec<(Player, fn(&Turned) -> bool, &str)> = vec![
        (
            Player::join(&wrong, Wish::Side(1), "Eve"),
            |t| matches!(t, Turned::WrongCode),
            "secret",
        ),
        (
            other_build,
            |t| matches!(t, Turned::OtherVersion { .. }),
            "same version",
        ),
        (
            Player::join(&code, Wish::Side(0), "Dan"),
            |t| matches!(t, Turned::SeatTaken { .. }),
            "already played",
        ),
        (
            Player::join(&code, Wish::Side(7), "Zed"),
            |t| matches!(t, Turned::NoSuchSide { .. }),
            "no side 7",
        ),
    ];
    for (mut p, is, words) in cases {
        pump_until(&mut server, &mut [&mut red, &mut p], "a refusal", |_, p| {
            p[1].mirror.turned.is_some()
        });
        let turned = p.mirror.turned.clone().expect("turned away");
        assert!(is(&turned), "{turned:?}");
        assert!(turned.to_string().contains(words), "{turned}");
        assert!(p.mirror.seat().is_none() && p.mirror.public.is_none());
        // The host lets it go; the client says so.
        pump_until(
            &mut server,
            &mut [&mut red, &mut p],
            "the host to let go",
            |_, p| matches!(p[1].link.standing(), Standing::Lost(_)),
        );
    }
    // Red's seat is untouched, and an order for the other side is refused in words.
    let order = Order::EndSide;
    let side = server.host_mut().game_mut().side_of_order(&order);
    red.link.send(order);
    pump_until(&mut server, &mut [&mut red], "an answer", |s, p| {
        p[0].mirror.refused.is_some() || s.host().game().record().orders.len() == 1
    });
    if side == Some(0) {
        assert!(red.mirror.refused.is_none());
    } else {
        let (_, why) = red.mirror.refused.clone().expect("refused");
        assert!(why.contains("you play"), "{why}");
    }
    // A host that is gone is told as lost, not waited on for ever.
    server.into_host();
    pump_until_lost(&mut red);
}

fn pump_until_lost(p: &mut Player) {
    let start = Instant::now();
    while !matches!(p.link.standing(), Standing::Lost(_)) {
        p.pump();
        assert!(
            start.elapsed() < PATIENCE,
            "the client never saw the host go"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let Standing::Lost(why) = p.link.standing() else {
        unreachable!()
    };
    assert!(why.contains("host"), "{why}");
}

#[test]
fn net_a_message_from_the_host_survives_the_wire() {
    // The updates travel as JSON: every happening of a real game reads back as it was sent.
    let level = default_level().expect("the default level loads");
    let (_, mut game) = orders_of_a_game(&level);
    let mut host = Host::new(Game::new(&level, SEED), "s3cret".into());
    *host.game_mut() = Game::from_record(game.record()).expect("replays");
    let hello = warhorse::net::protocol::Hello {
        version: warhorse::net::protocol::version(),
        secret: "s3cret".into(),
        wish: Wish::Watch,
        name: "Cy".into(),
    };
    let out = host.hello(1, &hello);
    let mut mirror = Mirror::default();
    for (_, m) in out {
        let text = serde_json::to_string(&m).unwrap();
        let back: FromHost = serde_json::from_str(&text).expect("reads back");
        mirror.take(back);
    }
    let public = game.view(Seat::Spectator).public;
    let mine = mirror.snapshot().expect("a board");
    assert_eq!(mine.log, public.log);
    assert!(mine.log.iter().any(|l| l.what != Default::default()));
    assert_eq!(mine.figures, public.figures);
}

#[test]
fn net_a_host_restarted_from_its_autosave_takes_its_players_back() {
    let level = default_level().expect("the default level loads");
    let (orders, local) = orders_of_a_game(&level);
    let dir = std::env::temp_dir().join(format!("warhorse-net-restart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let secret = JoinCode::fresh_secret();
    let mut game = Game::new(&level, SEED);
    let save = game.autosave_to(&dir).expect("an autosave");
    let mut server = NetServer::listen(
        Host::new(game, secret.clone()),
        "127.0.0.1:0".parse().unwrap(),
        None,
    )
    .expect("a loopback host");
    let code = server.code().clone();
    let mut players = [
        Player::join(&code, Wish::Side(0), "Ann"),
        Player::join(&code, Wish::Side(1), "Bo"),
    ];
    let half = orders.len() / 2;
    let mut given = 0;
    let mut play = |server: &mut NetServer, players: &mut [Player; 2], upto: usize| {
        let [a, b] = &mut *players;
        pump_until(server, &mut [a, b], "both seats", |_, p| {
            p.iter().all(|p| seated(p))
        });
        while given < upto {
            let side = server
                .host_mut()
                .game_mut()
                .side_of_order(&orders[given])
                .expect("a side's order");
            players[usize::from(side)].link.send(orders[given].clone());
            given += 1;
            let [a, b] = &mut *players;
            pump_until(server, &mut [a, b], "an order's updates", |_, p| {
                p.iter().all(|p| p.mirror.orders == given)
            });
        }
    };
    play(&mut server, &mut players, half);

    // The host stops (its autosave is not closed: as after a crash) …
    server.into_host();
    for p in &mut players {
        pump_until_lost(p);
    }
    // … and starts again from its autosave, on the same port with the same secret.
    let rec = warhorse::sim::journal::read_with_journal(&save).expect("the autosave reads");
    assert_eq!(rec.orders.len(), half, "every accepted order was autosaved");
    let game = Game::from_record(&rec).expect("the autosave replays");
    let mut server =
        NetServer::listen(Host::new(game, secret), code.addr, None).expect("the same port again");
    assert_eq!(server.code(), &code, "the old join code works");
    let mut players = [
        Player::join(&code, Wish::Side(0), "Ann"),
        Player::join(&code, Wish::Side(1), "Bo"),
    ];
    play(&mut server, &mut players, orders.len());
    assert_eq!(
        server.host().game().record().to_text(),
        local.record().to_text()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
