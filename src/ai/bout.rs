//! AI against AI without a window (`warhorse sim`): whole games played by [`super::next_order`]
//! for every side, the victory condition, and where the time went.
//!
//! **Victory** (our reading, `docs/ai.md`): a side with no figure left in the fight (every
//! rider and figure on foot down or gone) has lost; when all sides but one have lost, that one
//! wins, and when all have, it is a draw. A game still undecided after its last turn goes to
//! the side with the larger share of its starting body points (riders and mounts of figures
//! still in the fight); equal shares are a draw.
//!
//! Same level, same seed, same levels of play: same game. Timings are measured apart, kept
//! in [`Timing`], and never part of what a test compares.

use super::AiLevel;
use crate::level::Level;
use crate::sim::Game;
use crate::sim::orders::Order;
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
    /// Figures down or gone.
    pub lost: usize,
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
    /// Where the time went (not part of the result).
    #[serde(skip)]
    pub timing: Timing,
}

/// Each side's standing now; `start` gives the starting figures and body points.
pub fn standings(game: &mut Game, levels: &[AiLevel], start: Option<&[Standing]>) -> Vec<Standing> {
    let view = View::build(game.app.world_mut());
    let names = game.app.world().resource::<TurnState>().side_names.clone();
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
                lost: figures.saturating_sub(fighting.len()),
                body_start,
                body_left: fighting.iter().map(|f| f.body_left).sum(),
            }
        })
        .collect()
}

/// The victory condition while the game runs: `Some((winner, reason))` once it is decided.
pub fn decided(st: &[Standing]) -> Option<(Option<usize>, String)> {
    let alive: Vec<usize> = (0..st.len())
        .filter(|&s| st[s].lost < st[s].figures)
        .collect();
    match alive.as_slice() {
        [] => Some((None, "no side has a figure left in the fight".into())),
        [w] if st.len() > 1 => Some((
            Some(*w),
            "every other side has no figure left in the fight".into(),
        )),
        _ => None,
    }
}

/// The victory condition at the turn limit: the larger share of starting body points.
pub fn on_points(st: &[Standing]) -> (Option<usize>, String) {
    let share = |s: &Standing| (s.body_left as u64, s.body_start.max(1) as u64);
    let mut best: Option<usize> = None;
    let mut tie = false;
    for i in 0..st.len() {
        match best {
            None => best = Some(i),
            Some(b) => {
                let (ln, ld) = share(&st[i]);
                let (bn, bd) = share(&st[b]);
                match (ln * bd).cmp(&(bn * ld)) {
                    std::cmp::Ordering::Greater => {
                        best = Some(i);
                        tie = false;
                    }
                    std::cmp::Ordering::Equal => tie = true,
                    std::cmp::Ordering::Less => {}
                }
            }
        }
    }
    if tie || best.is_none() {
        (None, "turn limit: equal shares of body points left".into())
    } else {
        (
            best,
            "turn limit: the larger share of body points left".into(),
        )
    }
}

/// Plays one AI-against-AI game of `level` with dice `seed` for at most `turns` turns, side
/// `i` at `levels[i]` (the baseline where not given).
pub fn play(level: &Level, seed: u64, turns: u32, levels: &[AiLevel]) -> BoutResult {
    let t0 = Instant::now();
    let mut game = Game::new(level, seed);
    let n = game.app.world().resource::<TurnState>().sides;
    let levels: Vec<AiLevel> = (0..n as usize)
        .map(|s| levels.get(s).copied().unwrap_or_default())
        .collect();
    for (s, &l) in levels.iter().enumerate() {
        super::set_level(&mut game, s as u8, l);
    }
    let start = standings(&mut game, &levels, None);
    let mut timing = Timing::default();
    let (mut orders, mut refused, mut refusals) = (0usize, 0usize, Vec::new());
    // A guard against a game that never ends (melee rounds ask every engaged figure each
    // round, so a turn can take thousands of orders).
    let cap = (turns as usize + 1) * 20_000;
    let mut result: Option<(Option<usize>, String)> = None;
    while orders < cap {
        let turn = game.app.world().resource::<TurnState>().turn;
        if turn > turns {
            break;
        }
        let st = standings(&mut game, &levels, Some(&start));
        if let Some(d) = decided(&st) {
            result = Some(d);
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
        let order = super::next_order(&mut game, side).unwrap_or(Order::EndSide);
        let ai = ta.elapsed();
        let tr = Instant::now();
        let r = game.order(&order);
        let rules = tr.elapsed();
        let e = timing.phases.entry(phase.label().to_string()).or_default();
        e.orders += 1;
        e.ai_us += micros(ai);
        e.rules_us += micros(rules);
        orders += 1;
        if let Err(why) = r {
            refused += 1;
            if refusals.len() < 10 {
                refusals.push(format!("turn {turn}, {}: {order}: {why}", phase.label()));
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
    let (winner, reason) = result.unwrap_or_else(|| on_points(&sides));
    timing.total_us = micros(t0.elapsed());
    BoutResult {
        seed,
        winner: winner.map(|w| sides[w].side.clone()),
        reason,
        turns: played,
        sides,
        orders,
        refused,
        refusals,
        timing,
    }
}

fn micros(d: Duration) -> u64 {
    d.as_micros().min(u64::MAX as u128) as u64
}
