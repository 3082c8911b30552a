//! `warhorse serve [LEVEL]`: hosts a game for players on other machines (issue 30). It
//! prints the join code, logs who joins and leaves, plays the sides given to the computer,
//! autosaves after every accepted order, and stops once the battle is over and every client
//! has had the end. `--resume SAVE --secret S` takes a restarted host's clients back.

use crate::ai::{AiLevel, next_order, set_level, side_to_act};
use crate::net::code::JoinCode;
use crate::net::host::Host;
use crate::net::link::NetServer;
use crate::sim::Game;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What `serve` was asked.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The level file (default: the embedded default level).
    pub level: Option<PathBuf>,
    /// Go on from this save or autosave instead (with --secret, clients rejoin with the
    /// old code).
    #[arg(long, conflicts_with_all = ["level", "seed"])]
    pub resume: Option<PathBuf>,
    /// Dice seed (default: a fresh one).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Address and UDP port to listen on.
    #[arg(long, default_value = "0.0.0.0:5000")]
    pub bind: SocketAddr,
    /// The address the join code names, when it is not the one listened on (the machine's
    /// address on the network players join from).
    #[arg(long)]
    pub address: Option<std::net::IpAddr>,
    /// The session secret (default: a fresh one).
    #[arg(long)]
    pub secret: Option<String>,
    /// A side the computer plays: SIDE or SIDE=STRENGTH (table, lookahead, commander, foresight).
    #[arg(long, value_parser = super::parse_computer)]
    pub computer: Vec<(u8, AiLevel)>,
    /// Autosave into this folder after every accepted order.
    #[arg(long)]
    pub autosave: Option<PathBuf>,
}

/// How long the host stays up after the battle ends, for the last updates to arrive.
const LINGER: Duration = Duration::from_secs(3);

fn new_game(args: &ServeArgs) -> Result<Game, String> {
    if let Some(save) = &args.resume {
        let (game, stopped) = Game::from_save(
            &crate::sim::journal::read_with_journal(save).map_err(|e| e.to_string())?,
        )
        .map_err(|e| e.to_string())?;
        if let Some(why) = stopped {
            println!("The save replays only in part: {why}");
        }
        return Ok(game);
    }
    let level = match &args.level {
        Some(p) => crate::level::load_level_file(p).map_err(|e| e.to_string())?,
        None => crate::level::default_level().map_err(|e| e.to_string())?,
    };
    let seed = args.seed.unwrap_or_else(rand::random);
    Ok(Game::new(&level, seed))
}

/// The address other machines reach this one at, for a host listening on every address:
/// the one the system would send from towards the outside (connecting a UDP socket sends
/// nothing). The loopback address where there is no network.
fn this_machines_address() -> std::net::IpAddr {
    let probe = || {
        let s = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
        // TEST-NET-1 (RFC 5737): never a real host; only the route to it is looked up.
        s.connect("192.0.2.1:9").ok()?;
        s.local_addr().ok().map(|a| a.ip())
    };
    probe()
        .filter(|ip| !ip.is_unspecified())
        .unwrap_or(std::net::Ipv4Addr::LOCALHOST.into())
}

/// Runs `warhorse serve`; returns the exit code.
pub fn run(args: &ServeArgs) -> i32 {
    let mut game = match new_game(args) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let sides = game.side_names();
    for &(side, strength) in &args.computer {
        if usize::from(side) >= sides.len() {
            eprintln!(
                "there is no side {side}: this level has {} sides",
                sides.len()
            );
            return 2;
        }
        set_level(&mut game, side, strength);
    }
    if let Some(dir) = &args.autosave {
        match game.autosave_to(dir) {
            Ok(p) => println!("Autosaving to {}", p.display()),
            Err(e) => {
                eprintln!("cannot autosave in {}: {e}", dir.display());
                return 2;
            }
        }
    }
    let secret = args.secret.clone().unwrap_or_else(JoinCode::fresh_secret);
    let public = args
        .address
        .or_else(|| args.bind.ip().is_unspecified().then(this_machines_address))
        .map(|ip| SocketAddr::new(ip, args.bind.port()));
    let mut host = Host::new(game, secret);
    for &(side, _) in &args.computer {
        host.keep_side(side);
    }
    let mut server = match NetServer::listen(host, args.bind, public) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    println!("Hosting {}.", server.host().game().record().level_name);
    for (i, name) in sides.iter().enumerate() {
        let who = args
            .computer
            .iter()
            .find(|(s, _)| usize::from(*s) == i)
            .map_or("a player who joins".to_string(), |(_, l)| {
                format!("the computer ({})", l.label())
            });
        println!("  side {i}, {name}: {who}");
    }
    println!("Join code: {}", server.code());
    let computer: Vec<u8> = args.computer.iter().map(|(s, _)| *s).collect();
    let mut ended: Option<Instant> = None;
    loop {
        server.pump();
        for note in server.host_mut().take_notes() {
            println!("{note}");
        }
        let game = server.host_mut().game_mut();
        if game.outcome().is_none()
            && let Some(side) = side_to_act(game)
            && computer.contains(&side)
            && let Some(order) = next_order(game, side)
        {
            if let Err(r) = game.order(&order) {
                eprintln!("the computer's order {order} was refused: {r}");
            }
            let out = server.host_mut().updates();
            server.tell(out);
        }
        if let Some(e) = server.host_mut().game_mut().autosave_error() {
            eprintln!("autosave failed: {e}");
        }
        if let Some(out) = server.host().game().outcome() {
            let since = *ended.get_or_insert_with(|| {
                println!("The battle is over: {}", out.reason);
                Instant::now()
            });
            if since.elapsed() > LINGER {
                break;
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut host = server.into_host();
    host.game_mut().close_autosave();
    0
}
