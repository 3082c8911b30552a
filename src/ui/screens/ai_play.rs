//! Playing against the machine (issue 6): a side the start screen (or the level) gives to
//! the computer is played by `crate::ai`, one order at a time at a readable pace
//! ([`AiPace::delay`] seconds apart), through the very `Game::order` a player's clicks go
//! through. **Space** fast-forwards: the rest of the computer's orders are given at once,
//! until the game waits for a person again. While a computer side moves, the board's orders
//! are locked (figures can still be selected and looked at).
//!
//! On request (**X**, or the "Why?" button) the game explains the selected figure's unit's
//! latest decision with `ai::explain`: its risk-factor terms, the table row, the d6 and the
//! action.

use super::actions::Overlays;
use super::handover::Handover;
use super::host::GameHost;
use super::{Screen, SideControls};
use crate::ai::{self, AiLevel, Explanation};
use crate::level::Control;
use crate::sim::Game;
use crate::sim::order::Order;
use crate::ui::bridge::OrderOutcome;
use crate::ui::play::{OrderLock, PlayAction, Selection};
use crate::ui::settings::game_keys::with_key;
use crate::ui::settings::keymap::{Command, Keymap};
use crate::ui::settings::side_colour32;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// How strongly each computer side plays, by side index (the baseline when missing). The
/// start screen sets it; a new game reads it.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct AiLevels(pub Vec<AiLevel>);

impl AiLevels {
    /// The strength of `side`.
    pub fn of(&self, side: u8) -> AiLevel {
        self.0.get(usize::from(side)).copied().unwrap_or_default()
    }
}

/// Seconds between two computer orders at the normal pace: slow enough to follow each move.
pub const DEFAULT_DELAY: f64 = crate::ui::settings::Pace::Normal.order_delay();

/// The pace of the computer's play.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct AiPace {
    /// Seconds between two orders.
    pub delay: f64,
    /// When the next order may be given (seconds since the app started).
    pub next_at: f64,
    /// Fast-forward: give the orders without pause until the game waits for a person.
    pub fast: bool,
    /// The computer side the game waits for now, if any.
    pub acting: Option<u8>,
    /// Orders the computer gave in this game.
    pub given: usize,
    /// Orders of the computer the rules refused (the AI then moves on to its next figure).
    pub refused: usize,
    /// Set when the computer could not go on (its end of turn was refused); it then waits.
    pub stuck: Option<String>,
}

impl Default for AiPace {
    fn default() -> Self {
        AiPace {
            delay: DEFAULT_DELAY,
            next_at: 0.0,
            fast: false,
            acting: None,
            given: 0,
            refused: 0,
            stuck: None,
        }
    }
}

/// The computer sides the game waits for now, lowest first.
pub fn ai_sides_waiting(game: &mut Game, controls: &[Control]) -> Vec<u8> {
    (0..controls.len() as u8)
        .filter(|&s| controls[usize::from(s)] == Control::Ai)
        .filter(|&s| ai::waits_for(game, s))
        .collect()
}

/// The strongest level's choice of how a side plays its turn, being made on another thread
/// ([`ai::portfolio::choice_due`]): weighing its ways takes it about a second, and the window
/// goes on drawing and answering meanwhile (issue 31, item 5). The side gives no order until
/// the choice is in; a choice made for a game that has since changed is dropped.
#[derive(Resource)]
pub struct Thinking {
    /// The side, the turn and the game's record length the choice was asked at.
    key: (u8, u32, usize),
    /// Where the way chosen arrives.
    way: std::sync::Mutex<std::sync::mpsc::Receiver<ai::portfolio::Way>>,
}

/// Where the strongest level's choice for `side` stands: `true` once it is in (or none is
/// due), so the side may give its order; `false` while it is being made on another thread,
/// started here when due.
fn choice_ready(game: &mut Game, side: u8, thinking: &mut Option<Thinking>) -> bool {
    let Some(inputs) = ai::portfolio::choice_due(game, side) else {
        *thinking = None;
        return true;
    };
    let key = (side, inputs.turn(), game.record().orders.len());
    if let Some(t) = thinking.take_if(|t| t.key == key) {
        let got = t.way.lock().ok().map(|rx| rx.try_recv());
        match got {
            Some(Ok(way)) => {
                ai::portfolio::take_choice(game, side, key.1, way);
                return true;
            }
            Some(Err(std::sync::mpsc::TryRecvError::Empty)) => {
                *thinking = Some(t);
                return false;
            }
            // The thread is gone without an answer: the choice is made here instead.
            _ => return true,
        }
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("warhorse-foresight".into())
        .spawn(move || {
            let _ = tx.send(inputs.choose());
        });
    if spawned.is_err() {
        // No thread to be had: the choice is made here, as the headless game makes it.
        return true;
    }
    *thinking = Some(Thinking {
        key,
        way: std::sync::Mutex::new(rx),
    });
    false
}

/// Most orders one fast-forwarded frame gives (a guard against a hang, never reached in play).
const FAST_BUDGET: usize = 500;

/// How long one fast-forwarded frame may think: the computer's orders are given in slices of
/// about this much time, one slice a frame, so the window keeps drawing and answering while
/// the computer plays a whole turn (issue 13, item 3: "the window never freezes while it
/// thinks"). The orders are the same whatever the slices; only when they are given differs.
const FRAME_SLICE: std::time::Duration = std::time::Duration::from_millis(12);

/// Gives the computer's next order when it is due (all of them while fast-forwarding), and
/// reports each as an [`OrderOutcome`] like a player's. Paused while the hand-over screen,
/// the menu or a dialog is up.
pub fn drive_ai(world: &mut World) {
    if world
        .get_resource::<super::replay::Replay>()
        .is_some_and(|r| r.0.is_some())
    {
        // A battle watched again: its orders are the record's, not the computer's.
        return;
    }
    if GameHost::get(world).is_some_and(|g| g.is_replica()) {
        // A game joined across machines: the other sides are played at their machines.
        return;
    }
    let controls = world.resource::<SideControls>().0.clone();
    let mut pace = world.resource::<AiPace>().clone();
    // The player's pace setting (F3), read every frame so a change applies to the next order.
    if let Some(s) = world.get_resource::<crate::ui::settings::Settings>() {
        pace.delay = s.pace.order_delay();
    }
    if !controls.contains(&Control::Ai) {
        if pace.acting.is_some() || pace.fast {
            pace.acting = None;
            pace.fast = false;
            world.insert_resource(pace);
        }
        return;
    }
    let now = world
        .get_resource::<Time>()
        .map_or(0.0, |t| t.elapsed_secs_f64());
    let paused = world.resource::<Handover>().screen_up()
        || world.resource::<Overlays>().blocking()
        || pace.stuck.is_some();
    let levels = world.resource::<AiLevels>().clone();
    let mut outcomes = Vec::new();
    let mut thinking = world.remove_resource::<Thinking>();
    let acting = {
        let Some(game) = GameHost::get(world) else {
            return;
        };
        let budget = if pace.fast { FAST_BUDGET } else { 1 };
        let slice = std::time::Instant::now();
        let mut acting = ai_sides_waiting(game, &controls).first().copied();
        for _ in 0..budget {
            let Some(side) = acting else { break };
            if paused || (!pace.fast && now < pace.next_at) || slice.elapsed() >= FRAME_SLICE {
                break;
            }
            ai::set_level(game, side, levels.of(side));
            if !choice_ready(game, side, &mut thinking) {
                break;
            }
            let Some(order) = ai::next_order(game, side) else {
                break;
            };
            let result = game.order(&order);
            pace.given += 1;
            pace.next_at = now + pace.delay;
            let name = game.turn_state().side_name(side);
            let result = match result {
                Ok(()) => Ok(format!(
                    "{name} (computer): {}",
                    game.log()
                        .last()
                        .map_or_else(|| order.to_string(), |l| l.to_string())
                )),
                Err(r) => {
                    pace.refused += 1;
                    if order == Order::EndSide {
                        pace.stuck = Some(format!(
                            "{name} (computer) cannot end its turn: {r}. Play on from the menu, or undo."
                        ));
                    }
                    Err(r)
                }
            };
            outcomes.push(OrderOutcome {
                order: Some(order),
                result,
            });
            if pace.stuck.is_some() {
                break;
            }
            acting = ai_sides_waiting(game, &controls).first().copied();
        }
        acting
    };
    if let Some(t) = thinking {
        world.insert_resource(t);
    }
    if acting.is_none() {
        pace.fast = false;
    }
    if pace.acting != acting && acting.is_some() && !pace.fast && outcomes.is_empty() {
        // A side's turn just passed to the computer: a short pause before its first order.
        pace.next_at = pace.next_at.max(now + pace.delay);
    }
    pace.acting = acting;
    if !outcomes.is_empty() {
        GameHost::touched(world);
        if let Some(mut m) = world.get_resource_mut::<Messages<OrderOutcome>>() {
            for o in outcomes {
                m.write(o);
            }
        }
    }
    if *world.resource::<AiPace>() != pace {
        world.insert_resource(pace);
    }
}

/// Locks the board's orders while the side to move is played by the computer, with the
/// words the player reads when trying.
pub fn lock_orders(world: &mut World) {
    let controls = world.resource::<SideControls>().0.clone();
    let joined = world.contains_resource::<super::join::Joined>();
    let email = world.get_resource::<super::email::ByEmail>().cloned();
    let side = world
        .get_resource::<crate::ui::bridge::GameView>()
        .and_then(|v| v.side_to_move.map(|s| (s, v.side_name(s))));
    let lock = side
        .filter(|(s, _)| controls.get(usize::from(*s)) == Some(&Control::Ai))
        .map(|(_, name)| {
            let is = crate::rules::words::SideWords(&name).verb("is", "are");
            if email.is_some() {
                format!(
                    "{name} {is} played by the other player: their orders come in their turn file."
                )
            } else if joined {
                format!("{name} {is} played at another machine: wait for its orders.")
            } else {
                let settings = world.get_resource::<crate::ui::settings::Settings>();
                let key = Keymap::in_force(settings).first(Command::FastForward);
                if key.is_empty() {
                    format!("{name} {is} played by the computer: wait, or fast-forward at the top.")
                } else {
                    format!(
                        "{name} {is} played by the computer: wait, or press {key} to fast-forward."
                    )
                }
            }
        });
    // A game by email: the other player's orders being shown, or their file awaited.
    let lock = email.and_then(|e| e.lock).or(lock);
    if let Some(mut l) = world.get_resource_mut::<OrderLock>() {
        l.set_if_neq(OrderLock(lock));
    }
}

/// The explanation window: whether it is open, and what it shows.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Explain {
    /// Open (X toggles it).
    pub open: bool,
    /// The figure it was read for.
    pub unit: Option<String>,
    /// The game's order count it was read at.
    pub orders: usize,
    /// The explanation, or why there is none.
    pub text: Option<Result<Explanation, String>>,
}

/// Opens or closes the explanation on `PlayAction::Explain`.
pub fn toggle_explain(mut actions: MessageReader<PlayAction>, mut explain: ResMut<Explain>) {
    let n = actions
        .read()
        .filter(|a| **a == PlayAction::Explain)
        .count();
    if n % 2 == 1 {
        explain.open = !explain.open;
    }
}

/// Reads the explanation again for the selected figure whenever the selection or the game
/// changes, while it is open.
pub fn follow_explain(world: &mut World) {
    let mut ex = world.resource::<Explain>().clone();
    if !ex.open {
        return;
    }
    let unit = world
        .get_resource::<Selection>()
        .and_then(|s| s.unit.clone());
    let Some(game) = GameHost::get(world) else {
        return;
    };
    let orders = game.record().orders.len();
    if ex.text.is_none() || ex.unit != unit || ex.orders != orders {
        ex.text = Some(explanation_for(game, unit.as_deref()));
        ex.unit = unit;
        ex.orders = orders;
        world.insert_resource(ex);
    }
}

/// The latest decision of `unit`'s AI unit, or why there is none to show.
pub fn explanation_for(game: &Game, unit: Option<&str>) -> Result<Explanation, String> {
    let Some(unit) = unit else {
        return Err("Select a figure of a computer side to see why it did what it did.".into());
    };
    ai::explain(game, unit).ok_or_else(|| {
        format!(
            "{unit} has not rolled on the actions table yet: only units played by the computer \
             roll (I1, I2), once a turn, when their side moves."
        )
    })
}

/// The explanation's lines, as the window shows them.
pub fn explanation_lines(e: &Explanation) -> Vec<String> {
    let mut v = vec![format!("{} — turn {}", e.unit, e.turn)];
    if e.commanded {
        v.push(
            "Commanded: its side's hero or leader, in the fight, gives its orders; it does not \
             roll on the actions table, which runs uncommanded troops (I1, I2)."
                .into(),
        );
        if let Some(c) = &e.choice {
            v.push(format!("Its orders: {c}"));
        }
        return v;
    }
    v.push("Risk factor (I1):".into());
    if e.terms.is_empty() {
        v.push("  no term applies: 0".into());
    }
    for (what, n) in &e.terms {
        v.push(format!("  {what}: {n:+}"));
    }
    v.push(format!("  total {} (row {})", e.risk, e.row));
    v.push(format!("d6 roll: {} -> {} (I2)", e.roll, e.action));
    v.push(format!("So it: {}", e.conduct));
    if let Some(c) = &e.choice {
        v.push(format!("Its choice: {c}"));
    }
    v
}

/// The computer's banner (who is playing, fast-forward) and the explanation window.
pub fn draw_ai(
    mut contexts: EguiContexts,
    pace: Res<AiPace>,
    handover: Res<Handover>,
    view: Res<crate::ui::bridge::GameView>,
    explain: Res<Explain>,
    mut fast: Local<bool>,
    mut actions: MessageWriter<PlayAction>,
) -> Result {
    if handover.screen_up() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    if let Some(side) = pace.acting {
        egui::Area::new(egui::Id::new("warhorse-ai-banner"))
            .anchor(egui::Align2::RIGHT_TOP, [-12.0, 52.0])
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.horizontal(|ui| {
                        ui.label(
                            egui::RichText::new(format!(
                                "{} (computer) is playing…",
                                view.side_name(side)
                            ))
                            .color(side_colour32(ui.ctx(), side))
                            .strong(),
                        );
                        if ui
                            .add_enabled(
                                !pace.fast,
                                egui::Button::new(with_key(
                                    ui.ctx(),
                                    Command::FastForward,
                                    "Fast-forward",
                                )),
                            )
                            .clicked()
                        {
                            *fast = true;
                        }
                    });
                });
            });
    }
    if let Some(why) = &pace.stuck {
        egui::Area::new(egui::Id::new("warhorse-ai-stuck"))
            .anchor(egui::Align2::RIGHT_TOP, [-12.0, 90.0])
            .show(ctx, |ui| {
                ui.colored_label(egui::Color32::from_rgb(255, 120, 110), view.names.show(why));
            });
    }
    if explain.open {
        let mut open = true;
        egui::Window::new("Why? (X)")
            .id(egui::Id::new("warhorse-explain"))
            .open(&mut open)
            .resizable(false)
            .default_width(330.0)
            .anchor(egui::Align2::RIGHT_TOP, [-12.0, 90.0])
            .show(ctx, |ui| match &explain.text {
                Some(Ok(e)) => {
                    for l in explanation_lines(e) {
                        ui.label(view.names.show(&l));
                    }
                }
                Some(Err(why)) => {
                    ui.label(view.names.show(why));
                }
                None => {
                    ui.label("…");
                }
            });
        if !open {
            actions.write(PlayAction::Explain);
        }
    }
    if std::mem::take(&mut *fast) {
        ctx.request_repaint();
        actions.write(PlayAction::FastForward);
    }
    Ok(())
}

/// Fast-forward asked by the banner's button.
pub fn follow_fast_forward(
    mut actions: MessageReader<PlayAction>,
    mut pace: ResMut<AiPace>,
    screen: Res<State<Screen>>,
) {
    for a in actions.read() {
        if *a == PlayAction::FastForward && *screen.get() == Screen::Playing {
            pace.fast = true;
        }
    }
}

/// A new game starts at the pace the settings ask for, the first order one delay away.
fn new_pace(
    _: On<super::actions::GameOnScreen>,
    time: Option<Res<Time>>,
    settings: Option<Res<crate::ui::settings::Settings>>,
    mut pace: ResMut<AiPace>,
) {
    let now = time.map_or(0.0, |t| t.elapsed_secs_f64());
    let delay = settings.map_or(DEFAULT_DELAY, |s| s.pace.order_delay());
    *pace = AiPace {
        delay,
        next_at: now + delay,
        ..default()
    };
}

/// Adds the computer's play: its levels and pace, its orders given in the drive step, the
/// board locked while it plays, and its explanations.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<AiLevels>()
        .init_resource::<AiPace>()
        .init_resource::<Explain>()
        .add_observer(new_pace)
        .add_systems(
            Update,
            (follow_fast_forward, drive_ai)
                .chain()
                .run_if(in_state(Screen::Playing))
                .in_set(super::ScreenStep::Drive),
        )
        .add_systems(
            Update,
            (
                lock_orders,
                toggle_explain,
                follow_explain.run_if(in_state(Screen::Playing)),
            )
                .chain()
                .in_set(super::ScreenStep::Follow),
        )
        .add_systems(
            bevy_egui::EguiPrimaryContextPass,
            draw_ai
                .run_if(in_state(Screen::Playing))
                .in_set(super::DrawLayer::Overlay),
        );
}
