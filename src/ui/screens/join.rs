//! Joining a game another machine hosts (issue 30): *Join a game…* on the start screen takes
//! the join code the host shows (`warhorse serve` prints it), the side asked for and a name.
//! The window then plays a [`Replica`] of the host's game: the orders and dice the host sends
//! rebuild it, so the board, the previews, the card table and the reveal work as at the host;
//! an order given here goes to the host ([`Game::take_forwarded`]), which alone applies it,
//! and comes back with the next update. The other sides are played at the other machines:
//! the board is locked while they act, with words that say so.
//!
//! A refusal, a code the host turns away, and a lost connection each end in words; the host
//! keeps the game, so a player who lost the connection joins again with the same code.

use super::actions::{GameOffScreen, ScreenAction, ScreenActions, message};
use super::host::GameHost;
use super::saves::Autosave;
use super::{DrawLayer, Screen, ScreenStep};
use crate::level::{Control, Level};
use crate::net::code::JoinCode;
use crate::net::link::{NetClient, Standing};
use crate::net::mirror::Mirror;
use crate::net::protocol::{FromHost, Wish};
use crate::net::replica::Replica;
use crate::sim::Game;
use crate::sim::side_view::Seat;
use crate::ui::bridge::ActiveGame;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use std::time::{Duration, Instant};

/// How long the window waits for the host's first answer before it says so.
const CONNECT_PATIENCE: Duration = Duration::from_secs(15);

/// The seat a player asks for on the join form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SeatWish {
    /// Whichever side nobody plays yet (or to watch, when every side is played).
    #[default]
    AnySide,
    /// The level's side with this index.
    Side(u8),
    /// To watch only.
    Watch,
}

impl SeatWish {
    fn wish(self) -> Wish {
        match self {
            SeatWish::AnySide => Wish::AnySide,
            SeatWish::Side(s) => Wish::Side(s),
            SeatWish::Watch => Wish::Watch,
        }
    }
}

/// The join form on the start screen, and why the last try failed.
#[derive(Resource, Clone, Debug, Default)]
pub struct JoinForm {
    /// Shown.
    pub open: bool,
    /// The join code as typed.
    pub code: String,
    /// The seat asked for.
    pub seat: SeatWish,
    /// The name the host logs.
    pub name: String,
    /// What happened to the last try, in words (a wrong code, a lost connection).
    pub error: Option<String>,
}

/// A game joined across machines is on screen (or being joined): the seat, once the host
/// gave one, and its address. The screens word the other sides' turns by it.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct Joined {
    /// The seat the host gave; `None` while connecting.
    pub seat: Option<Seat>,
    /// The host's address, as the code named it.
    pub host: String,
}

/// The link to the host and what came over it (non-send: the transport is an `App`).
struct Link {
    net: NetClient,
    mirror: Mirror,
    replica: Option<Replica>,
    since: Instant,
}

/// The Join button: connects to the host the code names.
pub(super) fn join(world: &mut World, code: &str, seat: SeatWish, name: &str) {
    let parsed = JoinCode::parse(code);
    let net = parsed
        .clone()
        .and_then(|c| NetClient::join(&c, seat.wish(), name));
    let mut form = world.resource_mut::<JoinForm>();
    // Kept for joining again, should the connection be lost.
    form.code = code.to_string();
    match (parsed, net) {
        (Ok(c), Ok(net)) => {
            form.error = None;
            world.insert_non_send(Link {
                net,
                mirror: Mirror::default(),
                replica: None,
                since: Instant::now(),
            });
            world.insert_resource(Joined {
                seat: None,
                host: c.addr.to_string(),
            });
        }
        (Err(e), _) | (_, Err(e)) => form.error = Some(e),
    }
}

/// Ends the link (it was turned away, lost, or the player left): back to the start screen
/// with the form open and the words, the code kept for joining again.
fn end(world: &mut World, words: Option<String>) {
    if let Some(mut link) = world.remove_non_send::<Link>() {
        link.net.leave();
    }
    world.remove_resource::<Joined>();
    let playing = GameHost::get(world).is_some_and(|g| g.is_replica());
    if playing {
        GameHost::drop_game(world);
        world.trigger(GameOffScreen);
        world.resource_mut::<NextState<Screen>>().set(Screen::Start);
    }
    if let Some(w) = words {
        let mut form = world.resource_mut::<JoinForm>();
        form.open = true;
        form.error = Some(w.clone());
        if playing {
            message(world, "Left the game", w);
        }
    }
}

/// Leaving a joined game for the start screen closes its link.
fn leave_on_quit(_: On<GameOffScreen>, mut commands: Commands) {
    commands.queue(|world: &mut World| {
        if world.get_non_send::<Link>().is_some() {
            end(world, None);
        }
        world.remove_resource::<Joined>();
    });
}

/// Each frame while joined: sends the orders given here, takes in what the host sent
/// (rebuilding the replica and the board), and ends the link in words when the host turned
/// it away or it was lost.
pub fn pump(world: &mut World) {
    let Some(mut link) = world.remove_non_send::<Link>() else {
        return;
    };
    if let Some(game) = GameHost::get(world).filter(|g| g.is_replica()) {
        for order in game.take_forwarded() {
            link.net.send(order);
        }
    }
    let mut failed = None;
    let mut updated = false;
    for m in link.net.pump() {
        match &m {
            FromHost::Welcome(w) => match w.level() {
                Ok(level) => {
                    // Seated anew: the host sends the game again from its start.
                    if GameHost::get(world).is_some_and(|g| g.is_replica()) {
                        GameHost::drop_game(world);
                    }
                    link.replica = Some(Replica::new(level));
                }
                Err(e) => failed = Some(format!("Could not join: {e}")),
            },
            FromHost::Turned(t) => failed = Some(t.to_string()),
            FromHost::Refused { order, why } => {
                message(world, "The host refused", format!("{order}: {why}"));
            }
            FromHost::Update(u) => {
                if let (Some(r), Some(seat)) = (link.replica.as_mut(), link.mirror.seat()) {
                    take_update(world, r, u, seat);
                    updated = true;
                    if let Some(p) = r.parted() {
                        failed = Some(format!(
                            "This window's copy of the game parted from the host's ({p}). \
                             Join again with the same code: the host sends the game anew."
                        ));
                    }
                }
            }
        }
        link.mirror.take(m);
    }
    if updated {
        // The log shown is the host's, with the lines of this frame's updates.
        if let Some(mut a) = world.get_non_send_mut::<ActiveGame>() {
            a.host_log = Some(link.mirror.log.clone());
        }
        GameHost::touched(world);
    }
    if let Some(seat) = link.mirror.seat()
        && let Some(mut j) = world.get_resource_mut::<Joined>()
    {
        j.seat = Some(seat);
    }
    let over = GameHost::get(world).is_some_and(|g| g.is_replica() && g.outcome().is_some());
    if over && matches!(link.net.standing(), Standing::Lost(_)) {
        // The battle is over and the host has gone, as it does then: the end stays on
        // screen, whole in the replica.
        link.net.leave();
        return;
    }
    if failed.is_none() {
        failed = match link.net.standing() {
            Standing::Lost(why) => Some(format!(
                "The connection to the host was lost: {why} The host keeps the game: join \
                 again with the same code to take your seat back."
            )),
            _ if link.mirror.welcome.is_none() && link.since.elapsed() > CONNECT_PATIENCE => {
                Some(format!(
                    "No answer from the host after {} s: is it running, is its port open, \
                     and is the code the one it shows now?",
                    CONNECT_PATIENCE.as_secs()
                ))
            }
            _ => None,
        };
    }
    world.insert_non_send(link);
    if failed.is_some() {
        end(world, failed);
    }
}

/// Brings the window's game up to one update: puts the replica on screen the first time (or
/// again after a rejoin), else plays the new orders into it.
fn take_update(world: &mut World, r: &mut Replica, u: &crate::net::protocol::Update, seat: Seat) {
    let (mut game, kept) = match world.remove_non_send::<ActiveGame>() {
        Some(a) if a.game.is_replica() => (Some(a.game), Some((a.level, a.revision, a.host_log))),
        Some(a) => {
            world.insert_non_send(a);
            (None, None)
        }
        None => (None, None),
    };
    r.take(&mut game, u);
    match (game, kept) {
        (Some(game), Some((level, revision, host_log))) => {
            world.insert_non_send(ActiveGame {
                game,
                level,
                revision,
                host_log,
            });
        }
        (Some(game), None) => put_on_screen(world, game, r.level().clone(), seat),
        _ => {}
    }
}

/// The replica goes on screen: this seat's side at this window, every other side at another
/// machine (the board is locked while they act), never autosaved here (the host keeps it).
fn put_on_screen(world: &mut World, game: Game, level: Level, seat: Seat) {
    let controls = (0..level.file.sides.len())
        .map(|s| match seat {
            Seat::Side(mine) if usize::from(mine) == s => Control::Human,
            _ => Control::Ai,
        })
        .collect();
    world.resource_mut::<JoinForm>().open = false;
    super::actions::install(world, game, level, controls, Autosave { paused: true });
}

/// Draws the join form over the start screen.
pub fn draw_form(
    mut contexts: EguiContexts,
    mut form: ResMut<JoinForm>,
    joined: Option<Res<Joined>>,
    mut actions: ResMut<ScreenActions>,
) -> Result {
    if !form.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    egui::Window::new("Join a game")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .open(&mut open)
        .show(ctx, |ui| {
            ui.label("The host's join code (warhorse serve prints it: SECRET@ADDRESS:PORT):");
            ui.add(
                egui::TextEdit::singleline(&mut form.code)
                    .desired_width(320.0)
                    .hint_text("k7mq2xv9tcah@192.168.1.20:5000"),
            );
            ui.horizontal(|ui| {
                ui.label("Your name:");
                ui.add(egui::TextEdit::singleline(&mut form.name).desired_width(180.0));
            });
            ui.horizontal(|ui| {
                ui.label("Play:");
                ui.radio_value(&mut form.seat, SeatWish::AnySide, "a free side");
                ui.radio_value(&mut form.seat, SeatWish::Side(0), "the first side");
                ui.radio_value(&mut form.seat, SeatWish::Side(1), "the second side");
                ui.radio_value(&mut form.seat, SeatWish::Watch, "watch");
            });
            if let Some(e) = &form.error {
                ui.colored_label(egui::Color32::from_rgb(230, 120, 100), e);
            }
            let connecting = joined.as_ref().is_some_and(|j| j.seat.is_none());
            ui.horizontal(|ui| {
                if connecting {
                    ui.spinner();
                    ui.label(format!(
                        "Connecting to {}…",
                        joined.as_ref().map_or("", |j| j.host.as_str())
                    ));
                } else if ui.button("Join").clicked() {
                    actions.0.push(ScreenAction::Join {
                        code: form.code.trim().to_string(),
                        seat: form.seat,
                        name: form.name.trim().to_string(),
                    });
                }
            });
        });
    if !open {
        form.open = false;
        if joined.is_some() {
            actions.0.push(ScreenAction::QuitToStart);
        }
    }
    Ok(())
}

fn default_name() -> String {
    std::env::var("USER")
        .ok()
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| "Player".into())
}

/// Adds the join form, the link's pumping and its end when the game is left.
pub(super) fn plugin(app: &mut App) {
    app.insert_resource(JoinForm {
        name: default_name(),
        ..Default::default()
    })
    .add_observer(leave_on_quit)
    .add_systems(Update, pump.in_set(ScreenStep::Drive))
    .add_systems(
        bevy_egui::EguiPrimaryContextPass,
        draw_form
            .run_if(in_state(Screen::Start))
            .in_set(DrawLayer::Menu),
    );
}
