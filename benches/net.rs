//! Play across machines (issue 30): an order's round trip on the loopback address — a
//! client sends it, the host checks and applies it, and every client has the update — and
//! the bytes the host sends for a turn of the default level.
//!
//! The orders are those of a whole game of the default level, the computer playing both
//! sides, given in turn by the client of the side each belongs to; when they run out, a new
//! host and clients are set up (untimed) and the game starts again. Each client keeps its
//! mirror and, as a window that joins does, a replica of the game played from the orders
//! and dice it is sent.
//!
//! Run with `cargo bench --bench net`.

// criterion_group! and criterion_main! define public functions without doc comments.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group};
use std::time::{Duration, Instant};
use warhorse::ai::AiLevel;
use warhorse::ai::bout::play_game;
use warhorse::level::{Level, default_level};
use warhorse::net::code::JoinCode;
use warhorse::net::host::Host;
use warhorse::net::link::{NetClient, NetServer};
use warhorse::net::mirror::Mirror;
use warhorse::net::protocol::{FromHost, Wish};
use warhorse::net::replica::Replica;
use warhorse::sim::Game;
use warhorse::sim::order::Order;

const SEED: u64 = 30;

fn orders_of_a_game(level: &Level) -> Vec<Order> {
    let levels = [AiLevel::Lookahead, AiLevel::Lookahead];
    play_game(level, SEED, 20, &levels, None)
        .1
        .record()
        .orders
        .clone()
}

/// One client: its link, its mirror, its replica and the replica's game.
type Client = (NetClient, Mirror, Option<Replica>, Option<Game>);

/// A host and a client for each side, seated.
struct Session {
    server: NetServer,
    clients: Vec<Client>,
    next: usize,
}

impl Session {
    fn new(level: &Level) -> Session {
        let host = Host::new(Game::new(level, SEED), JoinCode::fresh_secret());
        let server =
            NetServer::listen(host, "127.0.0.1:0".parse().unwrap(), None).expect("a loopback host");
        let code = server.code().clone();
        let clients = (0..2)
            .map(|s| {
                let c = NetClient::join(&code, Wish::Side(s), "bench").expect("a client");
                (c, Mirror::default(), None, None)
            })
            .collect();
        let mut s = Session {
            server,
            clients,
            next: 0,
        };
        s.pump_until(|s| s.clients.iter().all(|(_, m, ..)| m.public.is_some()));
        s
    }

    fn pump_until(&mut self, done: impl Fn(&Session) -> bool) {
        let start = Instant::now();
        while !done(self) {
            for (c, m, replica, game) in &mut self.clients {
                for msg in c.pump() {
                    match &msg {
                        FromHost::Welcome(w) => {
                            *replica = Some(Replica::new(w.level().expect("the host's level")));
                        }
                        FromHost::Update(u) => {
                            if let Some(r) = replica.as_mut() {
                                r.take(game, u);
                            }
                        }
                        _ => {}
                    }
                    m.take(msg);
                }
            }
            self.server.pump();
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "loopback timed out"
            );
        }
    }

    /// Sends the next order from its side's client and waits until every client has the
    /// update.
    fn round_trip(&mut self, order: &Order) {
        let side = self
            .server
            .host_mut()
            .game_mut()
            .side_of_order(order)
            .expect("a side's order");
        self.clients[usize::from(side)].0.send(order.clone());
        self.next += 1;
        let n = self.next;
        self.pump_until(|s| s.clients.iter().all(|(_, m, ..)| m.orders == n));
    }
}

fn bench_net(c: &mut Criterion) {
    let level = default_level().expect("the default level loads");
    let orders = orders_of_a_game(&level);

    // The bytes of a whole game, and per turn.
    let mut s = Session::new(&level);
    for o in &orders {
        s.round_trip(o);
    }
    let n_orders = s.server.host().game().record().orders.len().max(1);
    let turn = s
        .clients
        .first()
        .and_then(|(_, m, ..)| m.public.as_ref())
        .map_or(1, |p| p.turn.max(1));
    let bytes = s.server.sent_bytes();
    eprintln!(
        "net: a game of the default level, {} orders over {turn} turns: the host sent \
         {bytes} bytes to its two clients, {} bytes a turn, {} bytes an order",
        n_orders,
        bytes / turn as usize,
        bytes / n_orders
    );

    let mut session = Session::new(&level);
    c.bench_function("net/order_round_trip", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                if session.next >= orders.len() {
                    session = Session::new(&level);
                }
                let order = orders[session.next].clone();
                let t = Instant::now();
                session.round_trip(&order);
                total += t.elapsed();
            }
            total
        });
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(10));
    targets = bench_net
}

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
