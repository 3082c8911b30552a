//! Hosting a game from the window (issue 30): *Host* on the start screen starts a host for
//! the level and players chosen on it — `warhorse serve`, the same program, in a process of
//! its own, which holds the game, rolls every die and autosaves it — and this window joins
//! it for its own side like any other player ([`super::join`]). The join code to give the
//! other player is shown as the game comes on screen.
//!
//! The host is a process rather than a part of this window so that there is one host, the
//! tested `serve`, and so that the window's game is a replica like every other player's: a
//! host never trusts the window that plays beside it more than the one across the network.

use super::actions::message;
use super::join::{self, SeatWish};
use super::saves::SaveDir;
use crate::level::Control;
use crate::net::code::JoinCode;
use bevy::prelude::*;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// The UDP port a window's host listens on unless the start screen names another (open it on
/// the firewall).
pub const DEFAULT_HOST_PORT: u16 = 5000;

/// How long the host may take to print its join code.
const START_PATIENCE: Duration = Duration::from_secs(15);

/// The host process this window started, and what it printed.
struct Hosted {
    child: Child,
    lines: Receiver<String>,
    /// The side this window plays.
    side: u8,
    since: Instant,
    /// Everything it printed, for the words should it fail.
    said: Vec<String>,
    /// The join code, once printed.
    code: Option<String>,
}

impl Drop for Hosted {
    fn drop(&mut self) {
        // The host lives as long as the window that started it.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The code the other player types, once this window hosts a game; `told` once the window
/// has shown it.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct HostCode {
    /// The join code, naming this machine's address on the network.
    pub code: String,
    /// Shown to the player.
    pub told: bool,
}

/// The Host button: starts `warhorse serve` for `level_file` (`None`: the built-in level),
/// listening on UDP `port`, with the computer playing the sides `controls` give it, and joins
/// it for the first human side.
pub(super) fn host(
    world: &mut World,
    level_file: Option<String>,
    controls: &[Control],
    strengths: &[crate::ai::AiLevel],
    port: u16,
) {
    let Some(side) = controls.iter().position(|c| *c == Control::Human) else {
        message(
            world,
            "Nobody to play here",
            "Every side is the computer's: choose Human for the side you play.".into(),
        );
        return;
    };
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            message(world, "Could not host", format!("this program's path: {e}"));
            return;
        }
    };
    let mut cmd = Command::new(exe);
    cmd.arg("serve");
    if let Some(f) = level_file {
        cmd.arg(f);
    }
    cmd.arg("--bind")
        .arg(format!("0.0.0.0:{port}"))
        .arg("--autosave")
        .arg(world.resource::<SaveDir>().0.join("hosted"));
    for (s, c) in controls.iter().enumerate() {
        if *c == Control::Ai {
            let level = strengths.get(s).copied().unwrap_or_default();
            cmd.arg("--computer").arg(format!("{s}={}", level.name()));
        }
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            message(
                world,
                "Could not host",
                format!("the host did not start: {e}"),
            );
            return;
        }
    };
    let (tx, rx) = channel();
    for out in [
        child
            .stdout
            .take()
            .map(|o| Box::new(o) as Box<dyn std::io::Read + Send>),
        child
            .stderr
            .take()
            .map(|e| Box::new(e) as Box<dyn std::io::Read + Send>),
    ]
    .into_iter()
    .flatten()
    {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
    }
    world.insert_non_send(Hosted {
        child,
        lines: rx,
        side: side as u8,
        since: Instant::now(),
        said: Vec::new(),
        code: None,
    });
}

/// Each frame while hosting: reads what the host printed; joins it once it printed its code;
/// says why should it stop before.
pub fn watch(world: &mut World) {
    let Some(mut h) = world.remove_non_send::<Hosted>() else {
        return;
    };
    while let Ok(line) = h.lines.try_recv() {
        if h.code.is_none()
            && let Some(code) = line.strip_prefix("Join code: ")
        {
            h.code = Some(code.trim().to_string());
            join_own(world, code.trim(), h.side);
        }
        h.said.push(line);
    }
    let exited = h.child.try_wait().ok().flatten();
    let failed = match (&h.code, exited) {
        (None, Some(status)) => Some(format!("The host stopped ({status}): {}", h.said.join(" "))),
        (None, None) if h.since.elapsed() > START_PATIENCE => {
            Some("The host did not start in time.".to_string())
        }
        _ => None,
    };
    if let Some(words) = failed {
        message(world, "Could not host", words);
        return;
    }
    // Kept while the window plays: the host goes when the window leaves the game.
    world.insert_non_send(h);
}

/// Joins the window's own host for its side, on the loopback address (the code names the
/// machine's address on the network, for the other player).
fn join_own(world: &mut World, code: &str, side: u8) {
    world.insert_resource(HostCode {
        code: code.to_string(),
        told: false,
    });
    let local = JoinCode::parse(code).map(|mut c| {
        c.addr.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
        c.to_string()
    });
    let name = world.resource::<join::JoinForm>().name.clone();
    match local {
        Ok(c) => join::join(world, &c, SeatWish::Side(side), &name),
        Err(e) => message(world, "Could not host", e),
    }
}

/// The game came on screen: the player who hosts it reads the code to give the other
/// player (after the screens forgot the last game's dialogs).
fn announce(_: On<super::actions::GameOnScreen>, mut commands: Commands) {
    commands.queue(|world: &mut World| {
        let Some(mut h) = world.get_resource_mut::<HostCode>() else {
            return;
        };
        if h.told {
            return;
        }
        h.told = true;
        let code = h.code.clone();
        let port = JoinCode::parse(&code).map_or(DEFAULT_HOST_PORT, |c| c.addr.port());
        message(
            world,
            "You host this game",
            format!(
                "Give the other player this join code; they choose Join a game… on the start \
                 screen and type it:\n\n{code}\n\nUDP port {port} must be open on this \
                 machine. The host autosaves every order in the saves folder (hosted)."
            ),
        );
    });
}

/// Leaving the game stops the host this window started.
fn stop_on_quit(_: On<super::actions::GameOffScreen>, mut commands: Commands) {
    commands.queue(|world: &mut World| {
        world.remove_non_send::<Hosted>();
        world.remove_resource::<HostCode>();
    });
}

/// Adds the watching of a host this window started.
pub(super) fn plugin(app: &mut App) {
    app.add_observer(stop_on_quit)
        .add_observer(announce)
        .add_systems(Update, watch.in_set(super::ScreenStep::Drive));
}
