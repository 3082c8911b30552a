//! The headless simulation: figures as entities, the turn as ordered phases (D1–D9), orders
//! validated by the rules, one seeded RNG and the game log. The window builds on it; the
//! command line and the tests drive it through [`Game`].
//!
//! Why one long file: [`Game`] is the one door into the simulation (issue 29), and every
//! question its callers may ask of a game — orders, the log, the judge, saves, each side's
//! view — is a method here, so the door's whole face reads in one place. What grew apart from
//! it (replicas, the side's own game, the record) is in its own module as another `impl Game`.

pub mod action_roll;
pub mod asks;
pub mod cavalry;
pub mod changes;
pub mod charge;
pub mod components;
pub mod dice;
pub mod figure_index;
pub mod figure_rows;
pub mod fire;
pub mod follow;
pub mod groups;
pub mod journal;
mod known;
pub mod log;
pub mod melee;
pub mod motion;
pub mod order;
pub mod orders;
pub mod phase;
pub mod queries;
pub mod record;
pub mod replica;
pub mod reveal;
pub mod rout;
pub mod router;
pub mod seat;
pub mod side_asks;
pub mod side_view;
pub mod snapshot;
pub mod table_rolls;
pub mod transaction;
pub mod victory;
pub mod view;
pub mod world;

use crate::level::Level;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use components::*;
use dice::Dice;
use log::GameLog;
use order::{Order, Refusal};
use phase::{Phase, TurnSet, TurnState, log_line};
use router::apply_order;
use world::{Map, Rules, Sides};

/// The simulation plugin: phases, their system sets in order, and their systems.
pub struct SimPlugin;

impl Plugin for SimPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<StatesPlugin>() {
            app.add_plugins(StatesPlugin);
        }
        app.init_state::<Phase>()
            .init_resource::<melee::MeleeState>()
            .init_resource::<charge::ChargeBook>()
            .init_resource::<motion::KeptFacts>()
            .init_resource::<world::FigureIndex>()
            .init_resource::<melee::KeptFight>()
            .init_resource::<queries::KeptQueries>()
            .configure_sets(
                Update,
                (
                    TurnSet::Initiative,
                    TurnSet::Charges,
                    TurnSet::Fire,
                    TurnSet::Movement,
                    TurnSet::Melee,
                    TurnSet::EndTurn,
                    TurnSet::Victory,
                )
                    .chain()
                    .in_set(TurnSystems),
            )
            // One look per frame whether the battle goes on, for every set of the turn.
            .configure_sets(Update, TurnSystems.run_if(victory::battle_on))
            .add_systems(
                Update,
                (
                    begin_game.run_if(in_phases(&[Phase::Setup])),
                    phase::roll_initiative
                        .in_set(TurnSet::Initiative)
                        .run_if(in_phases(&[Phase::Initiative, Phase::SecondInitiative])),
                    charge::charge_phase
                        .in_set(TurnSet::Charges)
                        .run_if(in_phases(&[Phase::ChargeDeclaration])),
                    fire::fire_phase
                        .in_set(TurnSet::Fire)
                        .run_if(in_phases(&[Phase::FireFirst, Phase::FireSecond])),
                    melee::melee_phase
                        .in_set(TurnSet::Melee)
                        .run_if(in_phases(&[Phase::Tac, Phase::MeleeRounds])),
                    end_of_turn
                        .in_set(TurnSet::EndTurn)
                        .run_if(in_phases(&[Phase::EndOfTurn])),
                    victory::judge
                        .in_set(TurnSet::Victory)
                        .run_if(resource_exists::<victory::Judge>),
                ),
            )
            .add_systems(
                OnEnter(Phase::FirstHalfMove),
                (
                    motion::start_half_move,
                    enter_half_move,
                    fire::after_fire,
                    charge::resolve_charges,
                )
                    .chain(),
            )
            .add_systems(
                OnEnter(Phase::SecondHalfMove),
                (motion::start_half_move, enter_half_move, fire::after_fire).chain(),
            )
            .add_systems(OnEnter(Phase::SecondInitiative), melee::note_first_half);
    }
}

/// The parent of every [`TurnSet`]: the sets run only while the battle goes on.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
struct TurnSystems;

/// A run condition: the game is in one of `phases`. One system where
/// `in_state(a).or_else(in_state(b))` is three, run every frame (issue 15: a replay's frames).
fn in_phases(phases: &'static [Phase]) -> impl FnMut(Option<Res<State<Phase>>>) -> bool + Clone {
    move |state| state.is_some_and(|s| phases.contains(s.get()))
}

fn begin_game(mut next: ResMut<NextState<Phase>>) {
    next.set(Phase::Initiative);
}

/// D4: the initiative winner moves first (after [`motion::start_half_move`]).
fn enter_half_move(world: &mut World) {
    let phase = *world.resource::<State<Phase>>().get();
    let turn = world.resource::<TurnState>().clone();
    let first = turn
        .side_to_move()
        .and_then(|s| turn.side_names.get(s as usize).cloned())
        .unwrap_or_default();
    let mut log = world.resource_mut::<GameLog>();
    log_line(
        &mut log,
        &turn,
        phase,
        format!(
            "{first} {} first (D4).",
            crate::rules::words::SideWords(&first).verb("moves", "move")
        ),
        None,
    );
    world.resource_mut::<TurnState>().pending = false;
}

/// K1 bookkeeping, H4 veers and ASL exhaustion at the end of a turn.
fn end_of_turn(
    rules: Res<Rules>,
    turn: Res<TurnState>,
    mut log: ResMut<GameLog>,
    mut q: Query<(
        &FigureId,
        &mut GallopStreak,
        &mut VeersThisTurn,
        &mut AslHorse,
    )>,
    mut next: ResMut<NextState<Phase>>,
) {
    for (id, mut streak, mut veers, mut asl) in &mut q {
        veers.0 = 0;
        if let Some(limit) = rules.0.gallop_streak {
            let (t, rest) = crate::rules::gait::next_gallop_streak(
                streak.turns,
                streak.galloped_this_turn,
                limit,
            );
            if rest && !streak.must_rest {
                log_line(
                    &mut log,
                    &turn,
                    Phase::EndOfTurn,
                    format!(
                        "{} has galloped {t} turns running and must walk next turn (K1).",
                        id.0
                    ),
                    None,
                );
            }
            *streak = GallopStreak {
                turns: if rest { 0 } else { t },
                galloped_this_turn: false,
                must_rest: rest,
            };
        }
        if !asl.galloping {
            asl.cx = false;
        }
    }
    next.set(Phase::Initiative);
}

/// A whole game without a window: the App, driven order by order, and the record that
/// rebuilds it (saves, undo).
pub struct Game {
    /// The Bevy app holding the world. Outside `sim/` only the AI still reads it (issue 29:
    /// the window and the command line ask through `sim/asks.rs`; the integration tests and
    /// benches through [`Game::world_for_tests`]).
    pub(crate) app: App,
    record: record::Record,
    /// Orders before this index are behind a die roll: undo never goes past them.
    undo_floor: usize,
    /// Refused orders whose changes were undone by rebuilding from the record.
    restores: u32,
    /// The autosave's journal, written after every accepted order and undo (the window's
    /// games; `None` for the command line and the tests).
    journal: Option<journal::Journal>,
    /// Which face-down orders of the record are revealed (a host's clients, issue 30).
    reveals: reveal::Reveals,
    /// A client's replica (issue 30): the orders given to it, kept to be sent to the host,
    /// which alone applies them; the replica changes only by what the host sends back
    /// ([`Game::order_from_host`]). `None`: the game applies its orders itself.
    forwarded: Option<Vec<Order>>,
    /// A side's copy of the game to think ahead on ([`Game::side_copy`]) or the game a side
    /// plays from ([`Game::known_to`]): it keeps no board hashes in its record, which nobody
    /// reads and which cost as much as the orders, and keeps no side's game of its own.
    copy: bool,
    /// The game as each side the computer plays knows it ([`Game::known_to`]), by side.
    known: Vec<Option<Box<SideGame>>>,
    /// A test changed the world by hand ([`Game::world_for_tests_mut`]): no record rebuilds
    /// this position, so the computer reads the game itself.
    hand_set: bool,
    /// How many orders apart the record keeps a hash of the board ([`record::check_every`]).
    check_every: usize,
}

/// One side's own game ([`Game::known_to`]), with what it has been given of the real one.
struct SideGame {
    feed: follow::SeatFeed,
    follower: follow::Follower,
    game: Option<Game>,
}

impl Game {
    /// The game's world, for the integration tests and benches that set a position up by
    /// hand (a figure fallen, moved, its allowance spent) where no level file or order says
    /// it as briefly. The game itself never uses it: the window and the command line ask the
    /// game questions, and `tests/integration/layers.rs` checks that no file of `src/` calls
    /// it.
    #[doc(hidden)]
    pub fn world_for_tests(&self) -> &World {
        self.app.world()
    }

    /// [`Game::world_for_tests`], to change it.
    #[doc(hidden)]
    pub fn world_for_tests_mut(&mut self) -> &mut World {
        self.hand_set = true;
        self.app.world_mut()
    }

    /// A new game of `level` with dice seeded by `seed`, advanced to the first half-move.
    pub fn new(level: &Level, seed: u64) -> Game {
        Game::with_dice(level, Dice::new(seed))
    }

    /// A new game whose every turn rolls from its own seed (a game played by email, issue
    /// 30): `turn_seeds` are the seeds agreed so far, turn 1 first; the rest are given by
    /// [`Game::add_turn_seed`] as they are agreed.
    pub fn new_by_turn(level: &Level, turn_seeds: Vec<u64>) -> Game {
        Game::with_dice(level, Dice::by_turn(0, turn_seeds))
    }

    /// The game a record starts from: one seed, or a seed for each turn.
    fn start_of(level: &Level, rec: &record::Record) -> Game {
        if rec.turn_seeds.is_empty() {
            Game::new(level, rec.seed)
        } else {
            Game::new_by_turn(level, rec.turn_seeds.clone())
        }
    }

    /// Gives the seed of the next turn not yet seeded, in a game rolled by turn.
    pub fn add_turn_seed(&mut self, seed: u64) {
        self.app
            .world_mut()
            .resource_mut::<Dice>()
            .add_turn_seed(seed);
        self.record.turn_seeds.push(seed);
    }

    /// In a game rolled by turn: the first turn that began before its seed was given. Its
    /// dice are not the agreed ones, so the game played by email takes back the order that
    /// began it.
    pub fn missing_turn_seed(&self) -> Option<u32> {
        self.app.world().resource::<Dice>().missing_turn_seed()
    }

    fn with_dice(level: &Level, dice: Dice) -> Game {
        let seed = dice.seed;
        let turn_seeds = dice.turn_seeds().to_vec();
        let mut app = App::new();
        app.add_plugins(SimPlugin);
        let sides = level.file.sides.clone();
        app.insert_resource(Rules(std::sync::Arc::new(level.rules.clone())))
            .insert_resource(Map(level.board.clone()))
            .insert_resource(Sides(sides.clone()))
            .insert_resource(dice)
            .insert_resource(GameLog::default())
            .insert_resource(TurnState {
                sides: sides.len() as u8,
                side_names: sides.iter().map(|s| s.name.clone()).collect(),
                surprised: level
                    .file
                    .surprised
                    .as_ref()
                    .and_then(|n| sides.iter().position(|s| &s.name == n))
                    .map(|i| i as u8),
                ..Default::default()
            });
        world::spawn_level(app.world_mut(), level);
        melee::attach_profiles(app.world_mut(), level);
        cavalry::attach(app.world_mut(), level);
        app.insert_resource(victory::Judge::new(level.victory.clone()));
        app.insert_resource(groups::Groups::of_level(level));
        // The turn's systems run in one chain: a thread pool has nothing to run in parallel
        // and only adds thread wake-ups to every order (most of an AI side-turn's time).
        for (_, schedule) in app
            .world_mut()
            .resource_mut::<bevy::ecs::schedule::Schedules>()
            .iter_mut()
        {
            schedule.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
        }
        let cfg = ron::ser::PrettyConfig::new().struct_names(true);
        let record = record::Record {
            game: "warhorse".into(),
            format: record::SAVE_FORMAT,
            level_name: level.file.name.clone(),
            level_source: level.source.clone(),
            seed,
            turn_seeds,
            level: level.text.clone(),
            ruleset: ron::ser::to_string_pretty(&level.rules, cfg).unwrap_or_default(),
            orders: Vec::new(),
            checks: Vec::new(),
            players: Vec::new(),
        };
        let mut g = Game {
            app,
            record,
            undo_floor: 0,
            restores: 0,
            journal: None,
            reveals: Default::default(),
            forwarded: None,
            copy: false,
            known: Vec::new(),
            hand_set: false,
            check_every: record::check_every(level.figures.len()),
        };
        // The first update runs the start-up schedules and enters the first phase.
        g.app.update();
        g.run_until_orders();
        g
    }

    /// Rebuilds a game from its record by replaying every order.
    pub fn from_record(rec: &record::Record) -> Result<Game, record::SaveError> {
        use record::SaveError;
        let level = rec.level()?;
        let mut g = Game::start_of(&level, rec);
        for (i, o) in rec.orders.iter().enumerate() {
            g.order(o)
                .map_err(|r| SaveError::Replay(format!("order {} ({o}) is refused: {r}", i + 1)))?;
            if let Some(after) = g.parts_from(rec, i + 1) {
                return Err(SaveError::Replay(format!(
                    "after order {after} the board differs from the game as it was played \
                     (another build or other rules play it differently)"
                )));
            }
        }
        g.set_players(rec.players.clone());
        Ok(g)
    }

    /// Rebuilds a saved game as far as its orders replay under today's rules. A save written
    /// before a rule was corrected may hold an order the corrected rules refuse (the game
    /// took another turn there): rather than lose the whole game, it is kept up to the order
    /// before that one, and the words say which order stopped it and why. `None`: every
    /// order replayed. Undo and the replay of a game still going use the strict
    /// [`Game::from_record`].
    pub fn from_save(rec: &record::Record) -> Result<(Game, Option<String>), record::SaveError> {
        let level = rec.level()?;
        let mut g = Game::start_of(&level, rec);
        let mut stopped = None;
        let mut parted = None;
        for (i, o) in rec.orders.iter().enumerate() {
            let refused = g.order(o);
            if refused.is_ok() && parted.is_none() {
                parted = g.parts_from(rec, i + 1);
            }
            if let Err(r) = refused {
                stopped = Some(format!(
                    "order {} of {} ({o}) is refused by this version's rules: {r}. The game is \
                     loaded as it stood before that order; the save file is left as it was.",
                    i + 1,
                    rec.orders.len()
                ));
                break;
            }
        }
        if let Some(after) = parted {
            let note = format!(
                "after order {after} the board differs from the game as it was saved: this \
                 version's rules play it differently from there on."
            );
            stopped = Some(match stopped {
                Some(s) => format!("{note} {s}"),
                None => note,
            });
        }
        g.set_players(rec.players.clone());
        Ok((g, stopped))
    }

    /// Says who plays each side (kept in the record, so saves and undo keep it) and seats
    /// each computer side at its strength (see [`seat::Seats`]).
    pub fn set_players(&mut self, players: Vec<record::Player>) {
        for (side, p) in players.iter().enumerate() {
            if p.control == crate::level::Control::Ai {
                seat::seat(self.app.world_mut(), side as u8, p.ai);
            }
        }
        self.record.players = players;
    }

    /// The record of this game so far.
    pub fn record(&self) -> &record::Record {
        &self.record
    }

    /// Saves the game to `path` (atomically).
    pub fn save(&self, path: &std::path::Path) -> Result<(), record::SaveError> {
        record::write_atomic(path, &self.record.to_text())
    }

    /// Begins autosaving this game in `dir` (see [`journal`]): its record now, then every
    /// accepted order and undo appended and synced as it happens. Returns the autosave's path.
    pub fn autosave_to(
        &mut self,
        dir: &std::path::Path,
    ) -> Result<std::path::PathBuf, record::SaveError> {
        self.close_autosave();
        let j = journal::Journal::begin(dir, &self.record)?;
        let path = j.base().to_path_buf();
        self.journal = Some(j);
        Ok(path)
    }

    /// Stops autosaving, marking the game as left cleanly (so it is not offered for resuming).
    pub fn close_autosave(&mut self) {
        if let Some(mut j) = self.journal.take() {
            j.close();
        }
    }

    /// The autosave this game is written to, if any.
    pub fn autosave_path(&self) -> Option<&std::path::Path> {
        self.journal.as_ref().map(journal::Journal::base)
    }

    /// Why autosaving last failed, once (the window shows it).
    pub fn autosave_error(&mut self) -> Option<String> {
        self.journal.as_mut().and_then(journal::Journal::take_error)
    }

    /// Loads a saved game.
    pub fn load(path: &std::path::Path) -> Result<Game, record::SaveError> {
        Game::from_record(&record::read_save(path)?)
    }

    /// One turn of the simulation's schedules: what `App::update` runs that the simulation
    /// uses (the phase transitions, the turn's systems), then the change trackers cleared as
    /// `App::update` does. The other schedules of Bevy's main loop (fixed time, scenes,
    /// post-update) hold nothing of the simulation, and looking each one up was a third of a
    /// replay's time (issue 15). A pending change of phase is made by
    /// [`phase::enter_next`], not Bevy's `StateTransition` schedule (whose machinery was a
    /// sixth of a replay's time). Returns whether the phase changed.
    fn step(&mut self) -> bool {
        let world = self.app.world_mut();
        let transition = phase::enter_next(world);
        world.run_schedule(Update);
        world.clear_trackers();
        transition
    }

    /// Runs frames until the game waits for an order (a half-move with a side to move).
    /// The message buffers (`First`) are swapped after frames that changed the phase. Only
    /// Bevy's first transition, in [`Game::new`]'s `App::update`, writes a message (the phase
    /// changes by [`phase::enter_next`] after it) and nothing in the simulation reads one: the
    /// swap keeps the buffers bounded should anything write more.
    pub fn run_until_orders(&mut self) {
        let mut transitions = false;
        for _ in 0..64 {
            transitions |= self.step();
            if self.waits() {
                break;
            }
        }
        if transitions {
            self.app.world_mut().run_schedule(First);
        }
    }

    /// True after `order`, a face-down choice of cards or a dodge guess, was taken while the
    /// melee still waits for more of them, with no phase change due: the frame after it would
    /// do nothing (D9: the choices are revealed together once all are in).
    fn still_choosing_after(&self, order: &Order) -> bool {
        let world = self.app.world();
        matches!(
            order,
            Order::PlayCards { .. } | Order::Pass { .. } | Order::GuessDodge { .. }
        ) && matches!(
            world.resource::<State<Phase>>().get(),
            Phase::Tac | Phase::MeleeRounds
        ) && matches!(world.resource::<NextState<Phase>>(), NextState::Unchanged)
            && melee::waiting(world)
    }

    /// True when the game waits for an order, or the battle is over.
    fn waits(&self) -> bool {
        let world = self.app.world();
        let phase = *world.resource::<State<Phase>>().get();
        let pending = world.resource::<TurnState>().pending;
        (phase.is_half_move() && !pending)
            || self.outcome().is_some()
            || melee::waiting(world)
            || charge::waiting(world)
            || fire::waiting(world)
    }

    /// Validates and applies an order; on refusal the game is exactly as it was — its figures,
    /// its dice and its log — whatever the order's handler did before it refused (see
    /// [`transaction`]).
    /// A replica keeps the order to send to its host instead ([`Game::take_forwarded`]).
    pub fn order(&mut self, order: &Order) -> Result<(), Refusal> {
        if let Some(out) = self.forwarded.as_mut() {
            out.push(order.clone());
            return Ok(());
        }
        self.apply(order)
    }

    fn apply(&mut self, order: &Order) -> Result<(), Refusal> {
        if let Some(out) = self.outcome() {
            return Err(Refusal(format!(
                "the battle is over ({}): no more orders",
                out.reason
            )));
        }
        let log_before = self.app.world().resource::<GameLog>().0.len();
        let face_down = match order.face_down_unit() {
            Some(_) => self
                .side_of_order(order)
                .map(|side| (side, reveal::Reveals::before(self.app.world()))),
            None => None,
        };
        let mark = transaction::mark(self.app.world_mut());
        if let Err(refusal) = apply_order(self.app.world_mut(), order) {
            if transaction::touched_since(self.app.world_mut(), &mark) {
                // Every handler checks before it writes (`sim::router`): this never fires.
                debug_assert!(false, "refused order {order} changed the world: {refusal}");
                self.restore();
            }
            return Err(refusal);
        }
        if self.still_choosing_after(order) {
            // The frame the rules would run now does nothing: the melee waits (`progress`
            // returns at once), nobody was hurt for the judge to see, and no phase changes.
            // Almost every order of a big melee is such a choice, played once in the game
            // and once in each side's own (issue 33, item 3). The tests run the frame anyway
            // and check it wrote nothing.
            if cfg!(debug_assertions) {
                let lines = self.app.world().resource::<GameLog>().0.len();
                self.run_until_orders();
                let now = self.app.world().resource::<GameLog>().0.len();
                debug_assert_eq!(lines, now, "a frame after {order} was not quiet");
            }
        } else {
            self.run_until_orders();
        }
        self.record.orders.push(order.clone());
        let n = self.record.orders.len();
        self.reveals.accepted(self.app.world(), n - 1, face_down);
        if !self.copy && n.is_multiple_of(self.check_every) {
            let hash = self.state_hash();
            self.record
                .checks
                .push(record::StateCheck { after: n, hash });
        }
        if let Some(j) = self.journal.as_mut() {
            j.order(self.record.orders.len() - 1, order);
        }
        // Only the lines this order wrote are looked at: replaying a long game stays linear.
        let log = &self.app.world().resource::<GameLog>().0;
        if log
            .get(log_before..)
            .is_some_and(|new| new.iter().any(|l| l.roll.is_some()))
        {
            self.undo_floor = self.record.orders.len();
        }
        Ok(())
    }

    /// A hash of the board, the phase and who is awaited (the public snapshot without its
    /// log, whose words may change between builds): two games alike have the same.
    pub fn state_hash(&mut self) -> String {
        // No log at all, not a copy of it cleared: the log grows with every order, and a
        // hash is taken every `check_every` orders, so copying it made a long game's
        // hashes cost the square of its length (issue 33 item 3).
        let s = snapshot::snapshot_since(self.app.world_mut(), usize::MAX);
        let json = serde_json::to_string(&s).unwrap_or_default();
        format!("{:016x}", xxhash_rust::xxh3::xxh3_64(json.as_bytes()))
    }

    /// After replaying the first `n` orders of `rec`: `Some(n)` when `rec` kept the board's
    /// hash there and this game's differs.
    fn parts_from(&self, rec: &record::Record, n: usize) -> Option<usize> {
        if !n.is_multiple_of(self.check_every) {
            return None;
        }
        let kept = rec
            .checks
            .binary_search_by_key(&n, |c| c.after)
            .ok()
            .and_then(|i| rec.checks.get(i))?;
        let mine = self.record.checks.last().filter(|c| c.after == n);
        (mine != Some(kept)).then_some(n)
    }

    /// Rebuilds the game from its record (the accepted orders), throwing away whatever a
    /// refused order changed. The record replayed when it was written, so it replays now; were
    /// it not to, the game is kept as it is and the failure reported, never a panic.
    fn restore(&mut self) {
        self.restores += 1;
        let journal = self.journal.take();
        match Game::from_record(&self.record) {
            Ok(g) => {
                let restores = self.restores;
                *self = g;
                self.restores = restores;
            }
            Err(e) => eprintln!(
                "warhorse: a refused order changed the game and it could not be rebuilt: {e}"
            ),
        }
        self.journal = journal;
    }

    /// How many refused orders had touched the world and were undone by a rebuild. Every
    /// handler validates before it applies, so this stays 0; the tests watch it.
    pub fn restores(&self) -> u32 {
        self.restores
    }

    /// True when the last order can be taken back (no die was rolled since).
    pub fn can_undo(&self) -> bool {
        !self.is_replica() && self.outcome().is_none() && self.record.orders.len() > self.undo_floor
    }

    /// Takes back the last order, by replaying the others. Movement can be undone back to the
    /// last die roll, never past it.
    pub fn undo(&mut self) -> Result<(), Refusal> {
        if !self.can_undo() {
            return Err(Refusal(if self.is_replica() {
                "the host keeps this game: an order given across machines is not taken back".into()
            } else if self.outcome().is_some() {
                "the battle is over: its result stands".into()
            } else if self.record.orders.is_empty() {
                "nothing to undo".into()
            } else {
                "undo stops at the last die roll".into()
            }));
        }
        let mut rec = self.record.clone();
        rec.orders.pop();
        // Replaying recomputes the floor: the same orders roll the same dice.
        let mut g = Game::from_record(&rec).map_err(|e| Refusal(e.to_string()))?;
        g.journal = self.journal.take();
        *self = g;
        let len = self.record.orders.len();
        if let Some(j) = self.journal.as_mut() {
            j.undo(len);
        }
        Ok(())
    }

    /// How the battle ended, once it has (issue 12); `None` while it goes on.
    pub fn outcome(&self) -> Option<&crate::rules::victory::Outcome> {
        self.app
            .world()
            .get_resource::<victory::Judge>()
            .and_then(|j| j.outcome.as_ref())
    }

    /// The level's victory conditions and what has been achieved so far.
    pub fn judge(&self) -> Option<&victory::Judge> {
        self.app.world().get_resource::<victory::Judge>()
    }

    /// The outcome, or, for a battle still going on, the judgement as if its last turn had
    /// just ended: what `warhorse sim` reports for a game it stops early.
    pub fn outcome_now(&mut self) -> crate::rules::victory::Outcome {
        if let Some(out) = self.outcome() {
            return out.clone();
        }
        let facts = victory::facts(self.app.world_mut());
        let turn = self.app.world().resource::<TurnState>().clone();
        let judge = self.app.world().resource::<victory::Judge>();
        let mut tracker = judge.tracker.clone();
        let size = {
            let m = &self.app.world().resource::<Map>().0;
            (m.width, m.height)
        };
        tracker.observe(&judge.victory, &facts, size, turn.turn, false);
        tracker
            .decide(&judge.victory, &facts, turn.sides, turn.turn, true)
            .unwrap_or(crate::rules::victory::Outcome {
                winner: None,
                reason: "no side to judge".into(),
                turn: turn.turn,
                points: Vec::new(),
                routed: Vec::new(),
                exited: Vec::new(),
            })
    }

    /// The current phase.
    pub fn phase(&self) -> Phase {
        *self.app.world().resource::<State<Phase>>().get()
    }

    /// Every line of the log so far, oldest first: what happened, as data
    /// ([`log::LogEntry::what`]) and as words (its `Display`). The log is public (I4).
    pub fn log(&self) -> &[log::LogEntry] {
        &self.app.world().resource::<GameLog>().0
    }

    /// The visible state.
    pub fn snapshot(&mut self) -> snapshot::Snapshot {
        snapshot::snapshot(self.app.world_mut())
    }
}
