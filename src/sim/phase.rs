//! The turn sequence of Destrier (D1–D9) as a state machine with ordered system sets.
//!
//! Phases that need a player wait for orders (the half-moves, and the melee phases while cards
//! are awaited, `sim::melee`); the others run their systems on entry and move on. Phases whose
//! rules belong to later work exist, log that nothing was resolved, and advance.

use super::dice::Dice;
use super::log::{GameLog, Happening, LogEntry, Roll};
use crate::rules::fire::SubStep;
use crate::rules::words::SideWords;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// The phases of a turn, in order (D1–D7).
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum Phase {
    /// Before the first turn starts.
    #[default]
    Setup,
    /// D1: both sides roll 1d6, higher wins, ties reroll.
    Initiative,
    /// D2: mounted figures secretly declare charges.
    ChargeDeclaration,
    /// D3: spells, missiles and miscellaneous activities, first half.
    FireFirst,
    /// D4: the first half-move, winner then loser.
    FirstHalfMove,
    /// D5: initiative again.
    SecondInitiative,
    /// D3 again, second half.
    FireSecond,
    /// D5: the second half-move.
    SecondHalfMove,
    /// D6: TAC cards chosen and revealed.
    Tac,
    /// D7: melee card rounds.
    MeleeRounds,
    /// Bookkeeping between turns (K1).
    EndOfTurn,
}

impl Phase {
    /// Every phase, in the order of a turn (Setup first).
    pub const ALL: [Phase; 11] = [
        Phase::Setup,
        Phase::Initiative,
        Phase::ChargeDeclaration,
        Phase::FireFirst,
        Phase::FirstHalfMove,
        Phase::SecondInitiative,
        Phase::FireSecond,
        Phase::SecondHalfMove,
        Phase::Tac,
        Phase::MeleeRounds,
        Phase::EndOfTurn,
    ];

    /// Name shown in the log and the window.
    pub fn label(self) -> &'static str {
        match self {
            Phase::Setup => "setup",
            Phase::Initiative => "initiative",
            Phase::ChargeDeclaration => "charge declarations",
            Phase::FireFirst => "fire and spells (first)",
            Phase::FirstHalfMove => "first half-move",
            Phase::SecondInitiative => "second initiative",
            Phase::FireSecond => "fire and spells (second)",
            Phase::SecondHalfMove => "second half-move",
            Phase::Tac => "TAC phase",
            Phase::MeleeRounds => "melee rounds",
            Phase::EndOfTurn => "end of turn",
        }
    }

    /// The phase after this one.
    pub fn next(self) -> Phase {
        match self {
            Phase::Setup => Phase::Initiative,
            Phase::Initiative => Phase::ChargeDeclaration,
            Phase::ChargeDeclaration => Phase::FireFirst,
            Phase::FireFirst => Phase::FirstHalfMove,
            Phase::FirstHalfMove => Phase::SecondInitiative,
            Phase::SecondInitiative => Phase::FireSecond,
            Phase::FireSecond => Phase::SecondHalfMove,
            Phase::SecondHalfMove => Phase::Tac,
            Phase::Tac => Phase::MeleeRounds,
            Phase::MeleeRounds => Phase::EndOfTurn,
            Phase::EndOfTurn => Phase::Initiative,
        }
    }

    /// True for the phases in which figures move on orders.
    pub fn is_half_move(self) -> bool {
        matches!(self, Phase::FirstHalfMove | Phase::SecondHalfMove)
    }

    /// The half this phase belongs to (D5 rounding).
    pub fn half(self) -> crate::rules::gait::Half {
        match self {
            Phase::SecondInitiative | Phase::FireSecond | Phase::SecondHalfMove => {
                crate::rules::gait::Half::Second
            }
            _ => crate::rules::gait::Half::First,
        }
    }
}

/// Ordered system sets, one per part of the turn; each runs only in its phases.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TurnSet {
    /// D1, D5 initiative rolls.
    Initiative,
    /// D2 charge declarations.
    Charges,
    /// D3 fire, spells, activities.
    Fire,
    /// D4 half-moves.
    Movement,
    /// D6–D7 melee.
    Melee,
    /// End-of-turn bookkeeping.
    EndTurn,
    /// Issue 12: the judge looks whether the battle is over.
    Victory,
}

/// Where the turn stands.
#[derive(Resource, Clone, Debug, Default, Serialize)]
pub struct TurnState {
    /// Turn number, from 1.
    pub turn: u32,
    /// Number of sides.
    pub sides: u8,
    /// Side names, for the log.
    pub side_names: Vec<String>,
    /// Initiative winner of the current half (D1/D5); `None` before the first roll.
    pub initiative: Option<u8>,
    /// The last initiative rolls, per side (all rerolls included, last one decisive).
    pub last_rolls: Vec<Vec<u32>>,
    /// Sides in moving order for the current half-move (winner first, D4).
    pub move_order: Vec<u8>,
    /// Index into `move_order` of the side now moving.
    pub active: usize,
    /// D1: the side surprised in the first turn, if any.
    pub surprised: Option<u8>,
    /// D3: the fire phase's sub-step waiting for orders (`sim::fire`); `None` outside one.
    pub fire: Option<FireStep>,
    /// A phase change was requested and not yet taken.
    #[serde(skip)]
    pub pending: bool,
}

/// The sub-step a fire phase waits in: its index among the phase's sub-steps, what is done
/// in it and by which side. `sim::fire` runs the sub-steps; the turn state only remembers
/// which one waits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FireStep {
    /// 0 … 3 × sides − 1: kinds in D3's order, each for the sides in initiative order.
    pub index: u8,
    /// Casting, firing or other activities.
    pub kind: SubStep,
    /// The side acting.
    pub side: u8,
}

impl TurnState {
    /// A side's name for the log and the window ("side 3" for a side the level does not
    /// name, which a loaded level never has).
    pub fn side_name(&self, side: u8) -> String {
        self.side_names
            .get(usize::from(side))
            .cloned()
            .unwrap_or_else(|| format!("side {}", u16::from(side) + 1))
    }

    /// The side whose figures may move now, in a half-move.
    pub fn side_to_move(&self) -> Option<u8> {
        self.move_order.get(self.active).copied()
    }
}

/// Appends a log line stamped with the turn and phase, whose words say all there is.
pub fn log_line(
    log: &mut GameLog,
    turn: &TurnState,
    phase: Phase,
    text: String,
    roll: Option<Roll>,
) {
    log_happening(log, turn, phase, text, roll, Happening::Told);
}

/// Appends a log line stamped with the turn and phase: its words, its die and what happened
/// as data.
pub fn log_happening(
    log: &mut GameLog,
    turn: &TurnState,
    phase: Phase,
    text: String,
    roll: Option<Roll>,
    what: Happening,
) {
    log.0
        .push(LogEntry::new(turn.turn, phase.label(), text, roll, what));
}

/// Logs `text` (no dice) in `phase` of the current turn.
pub fn log_in(world: &mut World, phase: Phase, text: String) {
    log_what(world, phase, text, Happening::Told);
}

/// Logs what happened (no dice) in `phase` of the current turn: its words and its data.
pub fn log_what(world: &mut World, phase: Phase, text: String, what: Happening) {
    let turn = world.resource::<TurnState>().turn;
    world
        .resource_mut::<GameLog>()
        .0
        .push(LogEntry::new(turn, phase.label(), text, None, what));
}

/// Logs the rules' events in `phase`: each line with its first roll and what it was (a roll
/// to hit is a shot in the fire phases, a blow elsewhere; a round's cards faced).
pub fn log_events(world: &mut World, phase: Phase, events: Vec<crate::rules::melee::Event>) {
    let turn = world.resource::<TurnState>().turn;
    let shot = matches!(phase, Phase::FireFirst | Phase::FireSecond);
    let whats: Vec<Happening> = super::queries::with_query(
        world,
        |world, q: &mut QueryState<&super::components::FigureId>| {
            let ids: std::collections::HashSet<&str> =
                q.iter(world).map(|f| f.0.as_str()).collect();
            events
                .iter()
                .map(|ev| Happening::of_event(ev, shot, &ids))
                .collect()
        },
    );
    let mut log = world.resource_mut::<GameLog>();
    log.0.reserve(events.len());
    for (ev, what) in events.into_iter().zip(whats) {
        let roll = ev.rolls.into_iter().next().map(|r| Roll {
            die: r.die.to_string(),
            value: r.value,
            by: r.by,
            chance: r.chance,
        });
        log.0
            .push(LogEntry::new(turn, phase.label(), ev.text, roll, what));
    }
}

/// Logs `text` (no dice) in the current phase and turn.
pub fn log_now(world: &mut World, text: String) {
    let phase = *world.resource::<State<Phase>>().get();
    log_in(world, phase, text);
}

/// D1/D5: every side rolls 1d6; the highest wins; ties among the highest reroll.
pub fn roll_initiative(
    mut turn: ResMut<TurnState>,
    mut dice: ResMut<Dice>,
    mut log: ResMut<GameLog>,
    phase: Res<State<Phase>>,
    mut next: ResMut<NextState<Phase>>,
    rules: Option<Res<super::world::Rules>>,
    figures: Query<DexFigure>,
) {
    let phase = *phase.get();
    if phase == Phase::Initiative {
        turn.turn += 1;
        dice.begin_turn(turn.turn);
        log_happening(
            &mut log,
            &turn,
            phase,
            format!("Turn {} begins.", turn.turn),
            None,
            Happening::TurnBegins(turn.turn),
        );
    }
    let n = turn.sides as usize;
    if let (Phase::Initiative, 1, Some(s), 2) = (phase, turn.turn, turn.surprised, n) {
        let winner = 1 - s as usize;
        let (caught, quick) = (&turn.side_names[s as usize], &turn.side_names[winner]);
        let text = format!(
            "{caught} {} taken by surprise: {quick} {} the initiative in the first turn (D1).",
            SideWords(caught).verb("is", "are"),
            SideWords(quick).verb("has", "have"),
        );
        let what = Happening::InitiativeWon {
            side: winner as u8,
            surprise: true,
        };
        log_happening(&mut log, &turn, phase, text, None, what);
        turn.initiative = Some(winner as u8);
        turn.last_rolls = vec![Vec::new(); n];
        turn.move_order = vec![winner as u8, s];
        turn.active = 0;
        next.set(phase.next());
        return;
    }
    let mut contenders: Vec<usize> = (0..n).collect();
    let by_dex = rules.is_some_and(|r| r.0.initiative_by_dexterity);
    if by_dex {
        contenders = by_dexterity(&mut log, &turn, phase, n, &figures);
    }
    let mut rolls: Vec<Vec<u32>> = vec![Vec::new(); n];
    let winner = loop {
        if by_dex && contenders.len() == 1 {
            break contenders[0];
        }
        let mut best = 0;
        let mut vals = Vec::new();
        for &s in &contenders {
            let v = dice.roll(6);
            rolls[s].push(v);
            vals.push((s, v));
            best = best.max(v);
            let by = turn.side_names[s].clone();
            let text = format!(
                "{by} {} {v} for initiative (D1).",
                SideWords(&by).verb("rolls", "roll")
            );
            log_happening(
                &mut log,
                &turn,
                phase,
                text,
                Some(Roll {
                    die: "d6".into(),
                    value: v,
                    by,
                    chance: None,
                }),
                Happening::InitiativeRolled {
                    side: s as u8,
                    roll: v,
                },
            );
        }
        contenders = vals
            .iter()
            .filter(|(_, v)| *v == best)
            .map(|(s, _)| *s)
            .collect();
        if contenders.len() == 1 {
            break contenders[0];
        }
        // A replica asked for dice its host never rolled gets 1s, a tie every time: its game
        // has parted from the host's (the follower rebuilds it), and the loop must end.
        if dice.starved() {
            break contenders[0];
        }
        log_line(
            &mut log,
            &turn,
            phase,
            "A tie: the tied sides roll again (D1).".into(),
            None,
        );
    };
    turn.initiative = Some(winner as u8);
    turn.last_rolls = rolls;
    let mut order = vec![winner as u8];
    order.extend((0..turn.sides).filter(|&s| s as usize != winner));
    turn.move_order = order;
    turn.active = 0;
    let first = SideWords(&turn.side_names[winner]);
    let text = format!(
        "{} {} the initiative and {} first.",
        first.0,
        first.verb("wins", "win"),
        first.verb("moves", "move")
    );
    let what = Happening::InitiativeWon {
        side: winner as u8,
        surprise: false,
    };
    log_happening(&mut log, &turn, phase, text, None, what);
    next.set(phase.next());
}

/// What the D1 option reads of a figure: its side, Dexterity, health, and whether it is a
/// horse (carried or riderless: horses never take the initiative).
type DexFigure = (
    &'static super::components::SideId,
    &'static super::components::Dexterity,
    Option<&'static super::components::Body>,
    Option<&'static super::components::Troop>,
);

/// D1 option (*our reading* for the side-by-side half-moves): each side is as quick as its
/// most dexterous figure still standing (horses aside); the side with the highest wins the
/// initiative outright, sides tied at the top roll 1d6 among themselves as usual. Returns the
/// sides still contending.
fn by_dexterity(
    log: &mut GameLog,
    turn: &TurnState,
    phase: Phase,
    n: usize,
    figures: &Query<DexFigure>,
) -> Vec<usize> {
    let mut best = vec![None::<u8>; n];
    for (side, dex, body, troop) in figures.iter() {
        let horse = troop.is_some_and(|t| t.0 == crate::rules::ruleset::TroopType::Horse);
        if horse || body.is_some_and(|b| b.left == 0) || side.0 as usize >= n {
            continue;
        }
        let b = &mut best[side.0 as usize];
        *b = Some(b.map_or(dex.0, |x| x.max(dex.0)));
    }
    let top = best.iter().flatten().copied().max();
    let Some(top) = top else {
        return (0..n).collect();
    };
    let contenders: Vec<usize> = (0..n).filter(|&s| best[s] == Some(top)).collect();
    let words: Vec<String> = (0..n)
        .map(|s| {
            let d = best[s].map_or("none standing".to_string(), |d| d.to_string());
            format!("{} {d}", turn.side_names[s])
        })
        .collect();
    let text = if contenders.len() == 1 {
        let quick = SideWords(&turn.side_names[contenders[0]]);
        format!(
            "Initiative by Dexterity (D1 option): {}; {} {} the quicker and {} first in fire, \
             spells and movement.",
            words.join(", "),
            quick.0,
            quick.verb("is", "are"),
            quick.verb("acts", "act")
        )
    } else {
        format!(
            "Initiative by Dexterity (D1 option): {}; the tied sides roll for it.",
            words.join(", ")
        )
    };
    log_line(log, turn, phase, text, None);
    contenders
}

/// Phases whose rules are not built yet: say so in the log and move on.
pub fn pass_through(
    turn: Res<TurnState>,
    mut log: ResMut<GameLog>,
    phase: Res<State<Phase>>,
    mut next: ResMut<NextState<Phase>>,
) {
    let phase = *phase.get();
    let what = match phase {
        Phase::ChargeDeclaration => "No charges are declared (charge rules are not built yet).",
        _ => "Nothing to do.",
    };
    log_line(&mut log, &turn, phase, what.to_string(), None);
    next.set(phase.next());
}

/// Makes a pending change of phase: what Bevy's `StateTransition` schedule does for the one
/// state the simulation has, without its machinery (a schedule of systems and a message per
/// change; about 5000 instructions a change, a sixth of replaying a long game, issue 15). The
/// phase is set, then the `OnExit`, `OnTransition` and `OnEnter` schedules run, as Bevy runs
/// them: for a change to the same phase only when it was asked with `NextState::set`. Nothing
/// in the game reads the transition message or `PreviousState`, which are left out. False
/// when no change was pending.
pub fn enter_next(world: &mut World) -> bool {
    let (entered, same_too) = match std::mem::take(&mut *world.resource_mut::<NextState<Phase>>()) {
        NextState::Unchanged => return false,
        NextState::Pending(p) => (p, true),
        NextState::PendingIfNeq(p) => (p, false),
    };
    let exited = *world.resource::<State<Phase>>().get();
    if exited != entered {
        world.insert_resource(State::new(entered));
    } else if !same_too {
        return true;
    }
    let _ = world.try_run_schedule(OnExit(exited));
    let _ = world.try_run_schedule(OnTransition { exited, entered });
    let _ = world.try_run_schedule(OnEnter(entered));
    true
}

// A log line names its phase by label, so it is read back here, where the labels are: the
// log sits below the phases (issue 29's order of modules).
/// A line as it is read back (from a host, issue 30): its phase by name, which must be
/// one of the labels [`Phase::label`] writes.
#[derive(Deserialize)]
struct ReadEntry {
    turn: u32,
    phase: String,
    text: String,
    #[serde(default)]
    roll: Option<Roll>,
}

impl<'de> Deserialize<'de> for LogEntry {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<LogEntry, D::Error> {
        let r = ReadEntry::deserialize(d)?;
        let phase = Phase::ALL
            .iter()
            .map(|p| p.label())
            .find(|l| *l == r.phase)
            .ok_or_else(|| serde::de::Error::custom(format!("no phase is called {:?}", r.phase)))?;
        Ok(LogEntry::new(
            r.turn,
            phase,
            r.text,
            r.roll,
            Happening::Told,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::state::app::StatesPlugin;

    /// Counts the runs of `OnEnter(Tac)` and `OnExit(Tac)`.
    #[derive(Resource, Default)]
    struct Seen {
        entered: u32,
        exited: u32,
    }

    fn app() -> App {
        let mut app = App::new();
        app.add_plugins(StatesPlugin)
            .init_state::<Phase>()
            .init_resource::<Seen>()
            .add_systems(OnEnter(Phase::Tac), |mut s: ResMut<Seen>| s.entered += 1)
            .add_systems(OnExit(Phase::Tac), |mut s: ResMut<Seen>| s.exited += 1);
        app.update();
        app
    }

    fn seen(app: &App) -> (u32, u32) {
        let s = app.world().resource::<Seen>();
        (s.entered, s.exited)
    }

    #[test]
    fn enter_next_changes_the_phase_as_bevys_transition_does() {
        let mut app = app();
        let world = app.world_mut();
        assert!(!enter_next(world), "nothing pending");
        world.resource_mut::<NextState<Phase>>().set(Phase::Tac);
        assert!(enter_next(world));
        assert_eq!(*world.resource::<State<Phase>>().get(), Phase::Tac);
        assert_eq!(seen(&app), (1, 0));
        // To the same phase: `set` exits and enters again, `set_if_neq` does neither.
        let world = app.world_mut();
        world.resource_mut::<NextState<Phase>>().set(Phase::Tac);
        assert!(enter_next(world));
        assert_eq!(seen(&app), (2, 1));
        let world = app.world_mut();
        *world.resource_mut::<NextState<Phase>>() = NextState::PendingIfNeq(Phase::Tac);
        assert!(enter_next(world));
        assert_eq!(seen(&app), (2, 1));
        let world = app.world_mut();
        world
            .resource_mut::<NextState<Phase>>()
            .set(Phase::MeleeRounds);
        assert!(enter_next(world));
        assert_eq!(
            *app.world().resource::<State<Phase>>().get(),
            Phase::MeleeRounds
        );
        assert_eq!(seen(&app), (2, 2));
        assert!(matches!(
            *app.world().resource::<NextState<Phase>>(),
            NextState::Unchanged
        ));
    }

    #[test]
    fn enter_next_runs_what_bevys_state_transition_schedule_runs() {
        let steps = [
            NextState::Pending(Phase::Tac),
            NextState::Pending(Phase::Tac),
            NextState::PendingIfNeq(Phase::Tac),
            NextState::PendingIfNeq(Phase::MeleeRounds),
            NextState::Pending(Phase::Tac),
        ];
        let (mut ours, mut bevys) = (app(), app());
        for step in steps {
            *ours.world_mut().resource_mut::<NextState<Phase>>() = step.clone();
            *bevys.world_mut().resource_mut::<NextState<Phase>>() = step;
            enter_next(ours.world_mut());
            bevys
                .world_mut()
                .run_schedule(bevy::state::state::StateTransition);
            assert_eq!(seen(&ours), seen(&bevys));
            let phase = |a: &App| *a.world().resource::<State<Phase>>().get();
            assert_eq!(phase(&ours), phase(&bevys));
        }
        assert_eq!(seen(&ours), (3, 2));
    }

    #[test]
    fn a_replica_given_no_dice_ends_its_initiative_instead_of_tying_for_ever() {
        // D1: tied sides roll again. A replica asked for dice its host never rolled rolls 1s
        // (its game has parted): every roll again tied, and the loop grew its log until the
        // machine ran out of memory (a side's own game in a tournament, 24 GiB).
        let level = crate::level::default_level().expect("the default level loads");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let g = crate::sim::Game::replica(&level, &[]);
            let _ = tx.send((g.replica_dice().0, g.log().len()));
        });
        let (starved, lines) = rx
            .recv_timeout(std::time::Duration::from_secs(120))
            .expect("the replica is built: the initiative ends");
        assert!(starved, "it was asked for dice it was never given");
        assert!(lines < 100, "{lines} log lines");
    }
}
