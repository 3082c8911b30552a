//! The bridge between the window and the game. The authoritative game is a [`Game`] (its own
//! headless `App`) held by the window as non-send data, so the window never runs the
//! simulation's systems in its own world and a save, an undo or a replay is exactly what the
//! command line would do. The window's figure entities are *mirrors*: after every accepted
//! order, undo, start or load, each figure's components are copied from the game's world onto
//! a mirror entity with the same [`FigureId`] (spawned, updated or despawned), so the counters
//! and panels read ordinary components and never see the game's entities.
//!
//! Requests come in as messages — [`StartGame`], [`LoadGame`], [`GameRequest`] — and every
//! answer goes out as an [`OrderOutcome`], whoever asked (a click, a key, a menu, a test).

use super::CurrentLevel;
use crate::level::Level;
use crate::rules::grid::GridKind;
use crate::sim::Game;
use crate::sim::log::{Happening, LogEntry};
use crate::sim::order::{Order, Refusal};
use crate::sim::phase::Phase;
use crate::sim::record::Record;
use crate::sim::world::Rules;
use bevy::prelude::*;
use std::collections::HashMap;

/// The game being played, held by the window. Non-send data (`App` is not `Send`): reach it
/// with `NonSend<ActiveGame>` / `NonSendMut<ActiveGame>`, e.g. to save it. Change it only
/// through [`GameRequest`] so the mirrors and the view stay in step.
pub struct ActiveGame {
    /// The authoritative game.
    pub game: Game,
    /// The level it was started from (for the map and the title).
    pub level: Level,
    /// Bumped on every change of the game's state; the mirrors follow it.
    pub revision: u64,
    /// A game joined across machines (issue 30): the host's log as it was sent, which the
    /// log panel shows. The replica's own log writes another side's face-down choices only
    /// once they are revealed, later than the host did.
    pub host_log: Option<Vec<LogEntry>>,
}

/// What the status line says of an order a replica passed on, before its outcome: "Sent to
/// the host" unless a screen says otherwise (a game by email keeps it for the turn file).
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct ForwardedWords(pub String);

/// Starts a new game of `level` with dice seeded by `seed`, replacing any game in progress
/// (the start screen sends this).
#[derive(Message, Clone, Debug)]
pub struct StartGame {
    /// The level to play.
    pub level: Level,
    /// The dice seed.
    pub seed: u64,
}

/// Replaces the game in progress by a saved one (read it with `sim::record::read_save`).
#[derive(Message, Clone, Debug)]
pub struct LoadGame {
    /// The saved game.
    pub record: Record,
}

/// Something to do to the game in progress, applied in the order sent.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum GameRequest {
    /// Give an order; the rules accept or refuse it.
    Order(Order),
    /// Take back the last order (never past a die roll).
    Undo,
    /// `unit` lets `horse` go if it leads it, else takes it on the lead (A18): becomes
    /// `Order::Release` or `Order::Lead`.
    ToggleLead {
        /// The leading figure.
        unit: String,
        /// The horse.
        horse: String,
    },
}

/// The answer to a request: what was asked, and the rules' verdict.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct OrderOutcome {
    /// The order, or `None` for an undo, a start or a load.
    pub order: Option<Order>,
    /// What happened: `Ok` with a short description, or the refusal.
    pub result: Result<String, Refusal>,
}

/// What the panels show about the game, copied from it after every change so they need no
/// access to the non-send game.
#[derive(Resource, Clone, Debug)]
pub struct GameView {
    /// [`ActiveGame::revision`] this view was taken at.
    pub revision: u64,
    /// Bumped when a new game is started or loaded (selection and caches reset).
    pub serial: u64,
    /// Turn number, from 1.
    pub turn: u32,
    /// The phase.
    pub phase: Phase,
    /// Side names, by side index.
    pub side_names: Vec<String>,
    /// The side whose figures may move now.
    pub side_to_move: Option<u8>,
    /// Winner of the current initiative.
    pub initiative: Option<u8>,
    /// Every log line, oldest first.
    pub log: Vec<LogEntry>,
    /// Each log line as a player reads it: turn, phase, words and die, with the figures'
    /// names in place of their ids (issue 34). One for each line of `log`.
    pub shown: Vec<String>,
    /// The names players read for the figures: every id the window shows goes through them.
    pub names: std::sync::Arc<crate::rules::names::Names>,
    /// Orders accepted so far.
    pub orders: usize,
    /// Whether an undo would be accepted.
    pub can_undo: bool,
    /// Squares or hexes.
    pub grid: GridKind,
    /// The `asl` ruleset (riders stay in the hex when dismounting, A2).
    pub asl: bool,
    /// Once the battle is over (issue 12): who won, in a few words.
    pub over: Option<String>,
}

impl Default for GameView {
    fn default() -> Self {
        GameView {
            revision: 0,
            serial: 0,
            turn: 0,
            phase: Phase::default(),
            side_names: Vec::new(),
            side_to_move: None,
            initiative: None,
            log: Vec::new(),
            shown: Vec::new(),
            names: Default::default(),
            orders: 0,
            can_undo: false,
            grid: GridKind::Square,
            asl: false,
            over: None,
        }
    }
}

impl GameView {
    /// The name of side `s`.
    pub fn side_name(&self, s: u8) -> String {
        self.side_names
            .get(usize::from(s))
            .cloned()
            .unwrap_or_else(|| format!("side {s}"))
    }

    /// This turn's initiative rolls (D1, D5), oldest first: the side, its d6, and whether it
    /// was the second roll of the turn (D5).
    pub fn initiative_rolls(&self) -> impl Iterator<Item = (u8, u32, bool)> + '_ {
        let turn = self.turn;
        let second = Phase::SecondInitiative.label();
        self.log
            .iter()
            .filter(move |l| l.turn == turn)
            .filter_map(move |l| match l.what {
                Happening::InitiativeRolled { side, roll } => Some((side, roll, l.phase == second)),
                _ => None,
            })
    }
}

/// Marks a mirror: a window entity standing for one of the game's figures.
#[derive(Component, Debug, Clone, Copy, Default)]
pub struct Mirror;

/// Mirror entities by figure id.
#[derive(Resource, Debug, Default, Clone)]
pub struct Mirrors(pub HashMap<String, Entity>);

/// Keeps the game, its mirrors and its view; applies requests.
pub struct BridgePlugin;

impl Plugin for BridgePlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<StartGame>()
            .add_message::<LoadGame>()
            .add_message::<GameRequest>()
            .add_message::<OrderOutcome>()
            .init_resource::<GameView>()
            .init_resource::<Mirrors>();
    }
}

/// Installs `game` as the game in progress: replaces the level on screen, drops the old
/// mirrors and mirrors the new figures at once.
pub fn install_game(world: &mut World, game: Game, level: Level) {
    world.init_resource::<Mirrors>();
    world.init_resource::<GameView>();
    let revision = world
        .get_non_send::<ActiveGame>()
        .map_or(0, |a| a.revision + 1);
    world.insert_non_send(ActiveGame {
        game,
        level: level.clone(),
        revision,
        host_log: None,
    });
    world.insert_resource(CurrentLevel(level));
    let old: Vec<Entity> = world
        .resource_mut::<Mirrors>()
        .0
        .drain()
        .map(|(_, e)| e)
        .collect();
    for e in old {
        if let Ok(m) = world.get_entity_mut(e) {
            m.despawn();
        }
    }
    world.resource_mut::<GameView>().serial += 1;
    sync_mirrors(world);
}

/// The level a saved game plays, rebuilt from the text and ruleset kept in the save.
pub fn level_of_record(rec: &Record) -> Result<Level, String> {
    rec.level().map_err(|e| e.to_string())
}

fn drain<M: Message>(world: &mut World) -> Vec<M> {
    world
        .get_resource_mut::<Messages<M>>()
        .map(|mut m| m.drain().collect())
        .unwrap_or_default()
}

/// Applies every pending request, then refreshes the mirrors and the view if the game
/// changed. Exclusive: it runs the game's own app.
pub fn apply_requests(world: &mut World) {
    let mut outcomes = Vec::new();
    if let Some(s) = drain::<StartGame>(world).pop() {
        let game = Game::new(&s.level, s.seed);
        let text = format!("New game: {} (seed {}).", s.level.file.name, s.seed);
        install_game(world, game, s.level);
        outcomes.push(OrderOutcome {
            order: None,
            result: Ok(text),
        });
    }
    if let Some(l) = drain::<LoadGame>(world).pop() {
        let loaded = level_of_record(&l.record).and_then(|lv| {
            Game::from_record(&l.record)
                .map(|g| (g, lv))
                .map_err(|e| e.to_string())
        });
        outcomes.push(OrderOutcome {
            order: None,
            result: match loaded {
                Ok((game, level)) => {
                    let text = format!(
                        "Loaded {} after {} orders.",
                        level.file.name,
                        l.record.orders.len()
                    );
                    install_game(world, game, level);
                    Ok(text)
                }
                Err(e) => Err(Refusal(e)),
            },
        });
    }
    let requests = drain::<GameRequest>(world);
    if !requests.is_empty() {
        let active = world.remove_non_send::<ActiveGame>();
        match active {
            None => outcomes.extend(requests.into_iter().map(|r| OrderOutcome {
                order: match r {
                    GameRequest::Order(o) => Some(o),
                    GameRequest::Undo | GameRequest::ToggleLead { .. } => None,
                },
                result: Err(Refusal("no game is in progress".into())),
            })),
            Some(mut active) => {
                let sent = world
                    .get_resource::<ForwardedWords>()
                    .map_or_else(|| "Sent to the host".to_string(), |w| w.0.clone());
                for r in requests {
                    outcomes.push(apply_one(&mut active, r, &sent));
                }
                world.insert_non_send(active);
            }
        }
    }
    sync_mirrors(world);
    if let Some(mut m) = world.get_resource_mut::<Messages<OrderOutcome>>() {
        for o in outcomes {
            m.write(o);
        }
    }
}

/// The order that toggles `horse` on `unit`'s lead: `Release` when it leads it now.
pub fn lead_order(game: &mut Game, unit: &str, horse: &str) -> Order {
    let leads = game.leads(unit, horse);
    let (unit, horse) = (unit.to_string(), horse.to_string());
    if leads {
        Order::Release { unit, horse }
    } else {
        Order::Lead { unit, horse }
    }
}

/// Whether the window lets a player take back the last order: the game allows it (never past
/// a die roll), it is a half-move, and the last order moved one of the moving side's own
/// figures — so at a shared computer nobody takes back the other player's orders, its end of
/// half-move or its face-down choices.
pub fn undo_verdict(game: &mut Game) -> Result<(), Refusal> {
    if game.is_replica() {
        return Err(Refusal(
            "this game is played across machines (hosted, or by email): an order given is not \
             taken back"
                .into(),
        ));
    }
    if !game.can_undo() {
        return Err(Refusal(if game.record().orders.is_empty() {
            "nothing to undo".into()
        } else {
            "undo stops at the last die roll".into()
        }));
    }
    if !game.phase().is_half_move() {
        return Err(Refusal(
            "undo takes back movement, in a half-move; choices made face down stand".into(),
        ));
    }
    let unit = match game.record().orders.last() {
        Some(
            Order::Move { unit, .. }
            | Order::SetGait { unit, .. }
            | Order::Mount { unit, .. }
            | Order::Dismount { unit, .. }
            | Order::Activity { unit, .. }
            | Order::Lead { unit, .. }
            | Order::Release { unit, .. },
        ) => unit.clone(),
        _ => {
            return Err(Refusal(
                "the last order was not a move of the side moving now".into(),
            ));
        }
    };
    let mover = game.turn_state().side_to_move();
    let side = game.side_of(&unit);
    if side.is_some() && side == mover {
        Ok(())
    } else {
        Err(Refusal(format!(
            "the last order ({unit}) was the other side's: only your own moves can be taken back"
        )))
    }
}

fn apply_one(active: &mut ActiveGame, r: GameRequest, sent: &str) -> OrderOutcome {
    let r = match r {
        GameRequest::ToggleLead { unit, horse } => {
            GameRequest::Order(lead_order(&mut active.game, &unit, &horse))
        }
        r => r,
    };
    match r {
        GameRequest::ToggleLead { .. } => unreachable!("turned into an order above"),
        GameRequest::Order(order) => {
            let result = active.game.order(&order).map(|()| {
                active.revision += 1;
                if active.game.is_replica() {
                    // Given across machines: the host (or the game by email) applies it.
                    return format!("{sent}: {order}");
                }
                active
                    .game
                    .log()
                    .last()
                    .map_or_else(|| order.to_string(), |l| l.to_string())
            });
            OrderOutcome {
                order: Some(order),
                result,
            }
        }
        GameRequest::Undo => {
            // Said as the order taken back reads (issue 34: not a count of orders left).
            let last = active.game.record().orders.last().map(Order::to_string);
            let result = undo_verdict(&mut active.game)
                .and_then(|()| active.game.undo())
                .map(|()| {
                    active.revision += 1;
                    format!("Took back: {}.", last.unwrap_or_default())
                });
            OrderOutcome {
                order: None,
                result,
            }
        }
    }
}

/// Copies the game's figures onto their mirrors and the game's state into [`GameView`], if
/// the game changed since the last copy. Cheap when nothing changed.
pub fn sync_mirrors(world: &mut World) {
    let Some(revision) = world.get_non_send::<ActiveGame>().map(|a| a.revision) else {
        return;
    };
    let view = world.resource::<GameView>();
    if view.revision == revision && !view.side_names.is_empty() {
        return;
    }
    let Some(mut active) = world.remove_non_send::<ActiveGame>() else {
        return;
    };
    let rows = active.game.figure_rows();
    super::play::mirror::write_mirrors(world, &rows);
    // The ruleset too (shared, not copied), for what the counters work out from it.
    let rules = active.game.rules();
    if world
        .get_resource::<Rules>()
        .is_none_or(|r| !std::sync::Arc::ptr_eq(&r.0, &rules))
    {
        world.insert_resource(Rules(rules));
    }
    let mut view = world.resource_mut::<GameView>();
    let log = std::mem::take(&mut view.log);
    let shown = std::mem::take(&mut view.shown);
    *view = GameView {
        serial: view.serial,
        ..view_of(&mut active, log, shown)
    };
    world.insert_non_send(active);
}

/// The game's log and its lines as shown, reusing `old` when it is a prefix of it (the usual
/// case: an order only appends lines), so a long game's log is not copied, nor its names put
/// in, whole after every order.
fn follow_log(
    (mut old, mut shown): (Vec<LogEntry>, Vec<String>),
    log: &[LogEntry],
    names: &crate::rules::names::Names,
) -> (Vec<LogEntry>, Vec<String>) {
    let n = old.len();
    let kept = n <= log.len() && shown.len() == n && (n == 0 || old.last() == log.get(n - 1));
    let from = if kept {
        n
    } else {
        old.clear();
        shown.clear();
        0
    };
    old.extend_from_slice(&log[from..]);
    shown.extend(log[from..].iter().map(|l| shown_line(l, names)));
    (old, shown)
}

/// A log line as the log panel shows it: `T3 melee: Sir Roland strikes …  [Sir Roland d100:
/// 42]`.
pub fn shown_line(l: &LogEntry, names: &crate::rules::names::Names) -> String {
    let roll = l
        .roll
        .as_ref()
        .map(|r| format!("  [{} {}: {}]", r.by, r.die, r.value))
        .unwrap_or_default();
    names.show(&format!("T{} {}: {}{roll}", l.turn, l.phase, l))
}

fn view_of(active: &mut ActiveGame, old_log: Vec<LogEntry>, old_shown: Vec<String>) -> GameView {
    let can_undo = undo_verdict(&mut active.game).is_ok();
    let orders = active.game.record().orders.len();
    let phase = active.game.phase();
    let over = active.game.outcome().map(|o| match o.winner {
        Some(w) => {
            let name = active.game.turn_state().side_name(w);
            let verb = crate::rules::words::SideWords(&name).verb("wins", "win");
            format!("{name} {verb}")
        }
        None => "a draw".to_string(),
    });
    let game = &active.game;
    let names = game.names();
    let log = active.host_log.as_deref().unwrap_or(game.log());
    let (log, shown) = follow_log((old_log, old_shown), log, &names);
    let turn = game.turn_state();
    let rules = game.rules();
    GameView {
        revision: active.revision,
        serial: 0,
        turn: turn.turn,
        phase,
        side_names: turn.side_names.clone(),
        // The side whose open turn it is: moving in a half-move, or casting and firing in a
        // fire phase's sub-step (D3), which ends with the same End side.
        side_to_move: match game.fire_step() {
            _ if over.is_some() => None,
            Some(step) => Some(step.side),
            None if phase.is_half_move() => turn.side_to_move(),
            None => None,
        },
        initiative: turn.initiative,
        log,
        shown,
        names,
        orders,
        can_undo,
        grid: rules.grid,
        asl: rules.asl.is_some(),
        over,
    }
}
