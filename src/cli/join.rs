//! `warhorse join CODE`: a player's end of a hosted game at the terminal (issue 30). It
//! prints the log as the host sends it and the player's own face-down choices, and sends
//! each line typed on standard input as an order, written as in an orders file
//! (`EndSide`, `Pass(unit: "levy_1")`); a refusal is printed with its reason.

use crate::net::code::JoinCode;
use crate::net::link::{NetClient, Standing};
use crate::net::mirror::Mirror;
use crate::net::protocol::Wish;
use crate::sim::order::Order;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, Instant};

/// How long a client waits for the host's first answer before it says so.
const CONNECT_PATIENCE: Duration = Duration::from_secs(15);

fn typed_lines() -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// Runs `warhorse join`; returns the exit code.
pub fn run(code: &str, wish: Wish, name: &str) -> i32 {
    let code = match JoinCode::parse(code) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let mut link = match NetClient::join(&code, wish, name) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let mut mirror = Mirror::default();
    let typed = typed_lines();
    let start = Instant::now();
    let mut printed = 0;
    let mut announced = false;
    let mut over = false;
    let mut own_shown = Vec::new();
    // The figures' names, once the host has sent its level: the log reads as in the window.
    let mut names = crate::rules::names::Names::default();
    loop {
        for m in link.pump() {
            mirror.take(m);
        }
        if let Some(t) = &mirror.turned {
            eprintln!("{t}");
            return 1;
        }
        if let Standing::Lost(why) = link.standing() {
            eprintln!("{why}");
            return 1;
        }
        if mirror.welcome.is_none() && start.elapsed() > CONNECT_PATIENCE {
            eprintln!(
                "No answer from {} after {} s: is the host running, and is the code right?",
                code.addr,
                CONNECT_PATIENCE.as_secs()
            );
            return 1;
        }
        if !announced && let Some(w) = &mirror.welcome {
            announced = true;
            let seat = match w.seat {
                crate::sim::side_view::Seat::Side(s) => format!(
                    "you play {}",
                    w.sides.get(usize::from(s)).map_or("?", String::as_str)
                ),
                crate::sim::side_view::Seat::Spectator => "you watch".into(),
            };
            println!("Joined {}: {seat}.", w.level_name);
            if let Ok(level) =
                crate::level::load::load_level_str(&w.level, "the host's level", None)
            {
                names = level.names();
                // Orders name figures by id: each name with the id to type.
                let roster: Vec<String> = names
                    .iter()
                    .map(|(id, name)| format!("{name} ({id})"))
                    .collect();
                println!(
                    "Figures, with the id an order names: {}.",
                    roster.join(", ")
                );
            }
        }
        if mirror.log.len() < printed {
            printed = 0;
        }
        for line in &mirror.log[printed..] {
            println!(
                "[turn {} · {}] {}",
                line.turn,
                line.phase,
                names.show(&line.to_string())
            );
            over |= matches!(line.what, crate::sim::log::Happening::BattleOver { .. });
        }
        printed = mirror.log.len();
        if mirror.own != own_shown {
            for s in &mirror.own {
                println!(
                    "(face down, yours) {}",
                    serde_json::to_string(s).unwrap_or_default()
                );
            }
            own_shown = mirror.own.clone();
        }
        if let Some((order, why)) = mirror.refused.take() {
            println!("Refused: {order}: {}", names.show(&why));
        }
        if over {
            link.leave();
            return 0;
        }
        match typed.try_recv() {
            Ok(line) if !line.trim().is_empty() => match ron::from_str::<Order>(line.trim()) {
                Ok(order) => link.send(order),
                Err(e) => println!("Not an order: {e}"),
            },
            Ok(_) | Err(TryRecvError::Empty) => {}
            // Standing input closed: go on watching until the battle ends.
            Err(TryRecvError::Disconnected) => {}
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}
