//! AI against AI without a window (`warhorse sim`): whole games played by [`super::next_order`]
//! for every side, the victory condition, and where the time went.
//!
//! **Victory** is the level's, judged by the game itself (`rules::victory`, `sim::victory`):
//! this module only stops when the judge says the battle is over, or when the `turns` it was
//! given run out first, and then asks the judge as if the last turn had ended.
//!
//! Same level, same seed, same levels of play: same game. Timings are measured apart, kept
//! in [`Timing`], and never part of what a test compares.

use super::AiLevel;
use super::plain::Plain;
use crate::level::Level;
use crate::rules::charge::ride::Reply;
use crate::rules::melee::cards::{DodgeDir, TacCard};
use crate::sim::Game;
use crate::sim::order::Order;
use crate::sim::phase::TurnState;
use crate::sim::view::View;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// One side's state for the victory condition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Standing {
    /// Side name.
    pub side: String,
    /// How it played.
    pub level: AiLevel,
    /// Figures (riders and figures on foot) it started with.
    pub figures: usize,
    /// Figures down or gone (routed figures included; those that got away by their exit not).
    pub lost: usize,
    /// Of them, figures that routed off the map (issue 12).
    pub routed: usize,
    /// Body points at the start (riders and mounts).
    pub body_start: u32,
    /// Body points of figures still in the fight.
    pub body_left: u32,
}

/// Time spent in one phase of the turn.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PhaseTime {
    /// Orders given in this phase.
    pub orders: u64,
    /// Microseconds the AI spent choosing them.
    pub ai_us: u64,
    /// Microseconds the game spent applying them and running its phases.
    pub rules_us: u64,
}

/// Where the time went, by phase: measured apart from the result, never compared.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Timing {
    /// By phase label.
    pub phases: BTreeMap<String, PhaseTime>,
    /// Microseconds for the whole game, setup included.
    pub total_us: u64,
    /// Microseconds the AI spent in each turn, both sides together (issue 13's "AI turn of
    /// both sides"), first turn first; over several games, every game's turns in turn.
    pub turn_ai_us: Vec<u64>,
}

impl Timing {
    /// Adds another game's times.
    pub fn add(&mut self, o: &Timing) {
        for (k, v) in &o.phases {
            let e = self.phases.entry(k.clone()).or_default();
            e.orders += v.orders;
            e.ai_us += v.ai_us;
            e.rules_us += v.rules_us;
        }
        self.total_us += o.total_us;
        self.turn_ai_us.extend(&o.turn_ai_us);
    }
}

/// The result of one game.
#[derive(Clone, Debug, Serialize)]
pub struct BoutResult {
    /// Dice seed.
    pub seed: u64,
    /// The winning side's name, `None` for a draw.
    pub winner: Option<String>,
    /// Why it ended that way.
    pub reason: String,
    /// Each side's victory points at the end.
    pub points: Vec<u32>,
    /// Whether the battle ended before its last turn (an objective or a side eliminated).
    pub decided_early: bool,
    /// Turns played (the last one included).
    pub turns: u32,
    /// Every side at the end.
    pub sides: Vec<Standing>,
    /// Orders the AI gave.
    pub orders: usize,
    /// Orders the rules refused (the AI should give none).
    pub refused: usize,
    /// The first few refusals, with their reasons.
    pub refusals: Vec<String>,
    /// Orders of a scripted side ([`super::plain`]) the rules refused (counted apart from
    /// the AI's; its refusals are among `refusals`, marked "script").
    pub script_refused: usize,
    /// The actions-table rolls of the game, and how many carried each telling term.
    pub rolls: RollTally,
    /// Where the time went (not part of the result).
    #[serde(skip)]
    pub timing: Timing,
}

/// How the actions-table rolls of a game went (I1): how many there were, and how many carried
/// the +2 for an enemy on a flank or the rear. Issue 13 measured that term in 69% of the rolls
/// on the default level, the mark of units that turn their backs; `warhorse sim` prints it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RollTally {
    /// Rolls on the actions table.
    pub rolls: usize,
    /// Of them, rolls with an enemy on a flank or the rear (+2).
    pub flank_or_rear: usize,
}

impl RollTally {
    /// The rolls recorded in `game` so far.
    pub fn of(game: &Game) -> RollTally {
        let entries = game
            .app
            .world()
            .get_resource::<crate::sim::action_roll::ActionRolls>()
            .map_or(&[][..], |r| &r.0[..]);
        RollTally {
            rolls: entries.len(),
            flank_or_rear: entries.iter().filter(|e| e.terms.flank_or_rear > 0).count(),
        }
    }
}

/// Both tallies together (a tournament's sum).
impl std::ops::Add for RollTally {
    type Output = RollTally;

    fn add(self, other: RollTally) -> RollTally {
        RollTally {
            rolls: self.rolls + other.rolls,
            flank_or_rear: self.flank_or_rear + other.flank_or_rear,
        }
    }
}

/// Each side's standing now; `start` gives the starting figures and body points.
pub fn standings(game: &mut Game, levels: &[AiLevel], start: Option<&[Standing]>) -> Vec<Standing> {
    let view = View::build(game.app.world_mut());
    let names = game.app.world().resource::<TurnState>().side_names.clone();
    let tallies = crate::sim::victory::tallies(game.app.world_mut());
    names
        .iter()
        .enumerate()
        .map(|(s, name)| {
            let mine = view.figs.iter().filter(|f| f.side as usize == s);
            let fighting: Vec<_> = mine.clone().filter(|f| !f.down).collect();
            let figures = start
                .and_then(|st| st.get(s))
                .map_or(mine.clone().count(), |x| x.figures);
            let body_start = start
                .and_then(|st| st.get(s))
                .map_or(mine.map(|f| f.body_max).sum(), |x| x.body_start);
            Standing {
                side: name.clone(),
                level: levels.get(s).copied().unwrap_or_default(),
                figures,
                lost: figures.saturating_sub(
                    fighting.len() + tallies.get(s).map_or(0, |t| t.figures_exited),
                ),
                routed: tallies.get(s).map_or(0, |t| t.figures_routed),
                body_start,
                body_left: fighting.iter().map(|f| f.body_left).sum(),
            }
        })
        .collect()
}

/// A fixed counter-strategy laid over one side's AI: the exploitation test of issue 13 ("a
/// scripted opponent that always guesses dodges Back and always answers charges the same
/// way"). The side plays as its strength does, except that every dodge it guesses it guesses
/// `guess`, and every charge it answers it answers with `tac` and `reply`; an answer the rules
/// refuse (a figure without the weapon for it) is replaced by its AI's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Fixed {
    /// The side it plays (0 or 1).
    pub side: u8,
    /// Its guess at every dodge.
    pub guess: DodgeDir,
    /// Its TAC card against every charge.
    pub tac: TacCard,
    /// Its MELEE card against every charge.
    pub reply: Reply,
}

impl Fixed {
    /// Every dodge guessed Back; every charge met with STAND GROUND and WEAPON PARRY.
    pub fn back_and_parry(side: u8) -> Fixed {
        Fixed {
            side,
            guess: DodgeDir::Back,
            tac: TacCard::StandGround,
            reply: Reply::WeaponParry,
        }
    }

    /// The order this script gives in place of `order`, its AI's.
    pub(crate) fn over(&self, order: Order) -> Order {
        match order {
            Order::GuessDodge { unit, target, .. } => Order::GuessDodge {
                unit,
                target,
                guess: self.guess,
            },
            Order::AnswerCharge { unit, .. } => Order::AnswerCharge {
                unit,
                tac: self.tac,
                reply: self.reply,
            },
            o => o,
        }
    }
}

/// Plays one AI-against-AI game of `level` with dice `seed` for at most `turns` turns, side
/// `i` at `levels[i]` (the baseline where not given).
pub fn play(level: &Level, seed: u64, turns: u32, levels: &[AiLevel]) -> BoutResult {
    play_fixed(level, seed, turns, levels, None)
}

/// [`play`], with a side's AI under a [`Fixed`] counter-strategy.
pub fn play_fixed(
    level: &Level,
    seed: u64,
    turns: u32,
    levels: &[AiLevel],
    fixed: Option<Fixed>,
) -> BoutResult {
    play_game(level, seed, turns, levels, fixed).0
}

/// [`play_fixed`], handing back the finished game too (its record and log).
pub fn play_game(
    level: &Level,
    seed: u64,
    turns: u32,
    levels: &[AiLevel],
    fixed: Option<Fixed>,
) -> (BoutResult, Game) {
    play_scripted(level, seed, turns, levels, fixed, None)
}

/// [`play_game`] with one side played by a plain plan ([`super::plain::Plain`]) instead of
/// the computer: that side is seated as a human is (no computer strength), and its
/// `levels` entry only labels it in the standings.
pub fn play_scripted(
    level: &Level,
    seed: u64,
    turns: u32,
    levels: &[AiLevel],
    fixed: Option<Fixed>,
    mut plain: Option<Plain>,
) -> (BoutResult, Game) {
    let t0 = Instant::now();
    let mut game = Game::new(level, seed);
    let n = game.app.world().resource::<TurnState>().sides;
    let levels: Vec<AiLevel> = (0..n as usize)
        .map(|s| levels.get(s).copied().unwrap_or_default())
        .collect();
    for (s, &l) in levels.iter().enumerate() {
        if plain.as_ref().is_none_or(|p| usize::from(p.side) != s) {
            super::set_level(&mut game, s as u8, l);
        }
    }
    let start = standings(&mut game, &levels, None);
    let mut timing = Timing::default();
    let (mut orders, mut refused, mut refusals) = (0usize, 0usize, Vec::new());
    let mut script_refused = 0usize;
    // A guard against a game that never ends (melee rounds ask every engaged figure each
    // round, so a turn can take thousands of orders).
    let cap = (turns as usize + 1) * 20_000;
    let mut result: Option<(Option<usize>, String)> = None;
    while orders < cap {
        let turn = game.app.world().resource::<TurnState>().turn;
        if turn > turns || game.outcome().is_some() {
            break;
        }
        let phase = game.phase();
        let Some(side) = super::side_to_act(&mut game) else {
            result = Some((
                None,
                format!(
                    "the game stopped waiting for orders in the {}",
                    phase.label()
                ),
            ));
            break;
        };
        let ta = Instant::now();
        let script = plain.as_mut().filter(|p| p.side == side);
        let by_script = script.is_some();
        let order = match script {
            Some(p) => p.next_order(&mut game),
            None => super::next_order(&mut game, side),
        }
        .unwrap_or(Order::EndSide);
        // The script's thinking is not the AI's time.
        let ai = if by_script {
            Duration::ZERO
        } else {
            ta.elapsed()
        };
        let tr = Instant::now();
        let scripted = fixed
            .filter(|f| f.side == side)
            .map(|f| f.over(order.clone()))
            .filter(|o| *o != order);
        // A refused order changes nothing (issue 15), so the AI's own may follow it.
        let r = match scripted.map(|o| game.order(&o)) {
            Some(Ok(())) => Ok(()),
            _ => game.order(&order),
        };
        let rules = tr.elapsed();
        let e = timing.phases.entry(phase.label().to_string()).or_default();
        e.orders += 1;
        e.ai_us += micros(ai);
        e.rules_us += micros(rules);
        let t = turn.max(1) as usize;
        if timing.turn_ai_us.len() < t {
            timing.turn_ai_us.resize(t, 0);
        }
        timing.turn_ai_us[t - 1] += micros(ai);
        orders += 1;
        if let Err(why) = r {
            if by_script {
                script_refused += 1;
            } else {
                refused += 1;
            }
            if refusals.len() < 10 {
                let who = if by_script { "script, " } else { "" };
                refusals.push(format!(
                    "{who}turn {turn}, {}: {order}: {why}",
                    phase.label()
                ));
            }
            if order == Order::EndSide {
                result = Some((None, format!("the side could not end its half-move: {why}")));
                break;
            }
        }
    }
    if result.is_none() && orders >= cap {
        result = Some((None, format!("stopped after {orders} orders")));
    }
    let sides = standings(&mut game, &levels, Some(&start));
    let played = game.app.world().resource::<TurnState>().turn.min(turns);
    let decided_early = game
        .outcome()
        .is_some_and(|o| o.turn < game.judge().map_or(0, |j| j.victory.turns));
    let judged = game.outcome_now();
    let (winner, reason) = match result {
        Some(r) => r,
        None => (judged.winner.map(usize::from), judged.reason.clone()),
    };
    timing.total_us = micros(t0.elapsed());
    let result = BoutResult {
        seed,
        winner: winner.and_then(|w| sides.get(w)).map(|s| s.side.clone()),
        reason,
        points: judged.points,
        decided_early,
        turns: played,
        sides,
        orders,
        refused,
        refusals,
        script_refused,
        rolls: RollTally::of(&game),
        timing,
    };
    (result, game)
}

fn micros(d: Duration) -> u64 {
    d.as_micros().min(u64::MAX as u128) as u64
}
