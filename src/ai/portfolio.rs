//! The commander's choice of how to play a turn, by playing it forward (issue 31, item 3):
//! a portfolio of ways to play a side — its leader's rules ([`super::command`]) and the plain
//! plans ([`super::plain`]: rush, hold, flank) — each played on copies of the game as the side
//! knows it, against each plain plan the enemy might follow, with the same dice for every way
//! (common random numbers), and scored by the game's own judge a turn or two on. The way that
//! scores best plays the side's moves and charge declarations this turn; its cards, dodges,
//! charge answers and fire stay the commander's.
//!
//! This is the portfolio search of Churchill and Buro ("Portfolio Greedy Search and
//! Simulation for Large-Scale Combat in StarCraft", 2013) cut to one choice for the whole
//! side: scripts a player would follow, chosen among by simulation rather than by rules of
//! thumb. It sees only what the side may know (I4): the copy ([`Game::side_copy`]) replays
//! the orders the side has seen, rolls the dice already rolled, and then dice of its own.

use super::AiLevel;
use super::plain::{Plain, Plan};
use crate::sim::Game;
use crate::sim::order::Order;
use crate::sim::phase::{Phase, TurnState};
use bevy::prelude::*;
use std::collections::BTreeMap;

/// How a side may play a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// Its leader's rules of thumb ([`super::command`]).
    Lead,
    /// A plain plan, as a person with one simple idea plays it.
    Plain(Plan),
}

impl Way {
    /// In words, for the window's explanation.
    pub fn words(self) -> &'static str {
        match self {
            Way::Lead => "its leader's orders",
            Way::Plain(Plan::Rush) => "a rush at the nearest enemy",
            Way::Plain(Plan::Hold) => "holding the objective",
            Way::Plain(Plan::Flank) => "going round the enemy's flanks",
        }
    }
}

/// The ways weighed, the leader's first (it keeps ties).
pub const WAYS: [Way; 4] = [
    Way::Lead,
    Way::Plain(Plan::Rush),
    Way::Plain(Plan::Hold),
    Way::Plain(Plan::Flank),
];

/// What the enemy is imagined to play in the copies.
pub const ENEMY_MODELS: [Plan; 3] = [Plan::Rush, Plan::Hold, Plan::Flank];

/// Turns played forward beyond the present one (with [`SAMPLES`], what docs/ai.md measured:
/// one turn and one seed did no better than the commander against a flank).
pub const HORIZON: u32 = 2;

/// The worth of a leader in the fight at the end of a copy: a side whose last leader has
/// fallen goes to the actions table (docs/rules.md, "Uncommanded troops").
pub const LEADER: i64 = 600;

/// The enemy's moves read to tell which plan it follows ([`enemy_models`]).
pub const MOVES_READ: usize = 12;

/// Dice seeds per way and enemy model.
pub const SAMPLES: u64 = 2;

/// The commander's choices, kept in the game world beside [`super::brain::AiState`].
#[derive(Resource, Debug, Default)]
pub struct Portfolio {
    /// Per side: the turn a way was chosen for, and the way.
    chosen: BTreeMap<u8, (u32, Way)>,
    /// Per side: the script playing a turn given to a plain plan.
    scripts: BTreeMap<u8, Plain>,
    /// Per side: a way fixed for every turn (the players of a copy): nothing is chosen.
    fixed: BTreeMap<u8, Way>,
}

/// The order `side` gives now if a plain plan plays its turn: `Some` with the plan's order
/// (`None` inside when it has none), `None` when the commander's own rules decide. Only
/// half-moves and charge declarations are delegated, and only at the strongest level
/// ([`AiLevel::Foresight`]) while the side's leader commands it.
pub fn delegate(game: &mut Game, side: u8, level: AiLevel) -> Option<Option<Order>> {
    if !delegating(game, side, level) {
        return None;
    }
    let way = way_for(game, side)?;
    let Way::Plain(plan) = way else {
        return None;
    };
    let world = game.app.world_mut();
    let mut script = world
        .get_resource_mut::<Portfolio>()
        .and_then(|mut p| p.scripts.remove(&side))
        .filter(|s| s.plan == plan)
        .unwrap_or_else(|| Plain::new(plan, side));
    let order = script.next_order(game);
    if let Some(mut p) = game.app.world_mut().get_resource_mut::<Portfolio>() {
        p.scripts.insert(side, script);
    }
    Some(order)
}

/// True when a way plays `side`'s orders now: the strongest level, in a half-move or the
/// charge declarations, while the side's leader commands it.
fn delegating(game: &mut Game, side: u8, level: AiLevel) -> bool {
    if level != AiLevel::Foresight {
        return false;
    }
    let phase = game.phase();
    let declaring = phase == Phase::ChargeDeclaration
        && crate::sim::side_asks::charge_stage(game.app.world())
            == Some(crate::sim::charge::Stage::Declaring);
    (phase.is_half_move() || declaring) && commanded(game, side)
}

/// True while a hero or leader of `side` is in the fight (docs/rules.md, "Uncommanded
/// troops").
fn commanded(game: &mut Game, side: u8) -> bool {
    crate::sim::view::with_view(game.app.world_mut(), |_, view| {
        super::command::side_commanded(view, side)
    })
}

/// The way `side` plays this turn: fixed, already chosen, or chosen now.
fn way_for(game: &mut Game, side: u8) -> Option<Way> {
    if let Some(w) = settled(game, side) {
        return Some(w);
    }
    let way = choose(game, side);
    let turn = game.app.world().resource::<TurnState>().turn;
    keep_choice(game, side, turn, way);
    Some(way)
}

/// The way `side` plays this turn when it needs no choosing: fixed, or chosen already.
fn settled(game: &Game, side: u8) -> Option<Way> {
    let turn = game.app.world().resource::<TurnState>().turn;
    let p = game.app.world().get_resource::<Portfolio>()?;
    if let Some(&w) = p.fixed.get(&side) {
        return Some(w);
    }
    p.chosen
        .get(&side)
        .filter(|(t, _)| *t == turn)
        .map(|&(_, w)| w)
}

/// Keeps `way` as `side`'s for `turn`, and says so in the explanation of each of its units.
fn keep_choice(game: &mut Game, side: u8, turn: u32, way: Way) {
    let world = game.app.world_mut();
    if !world.contains_resource::<Portfolio>() {
        world.insert_resource(Portfolio::default());
    }
    world
        .resource_mut::<Portfolio>()
        .chosen
        .insert(side, (turn, way));
    // The window's explanation (X, "Why?") of each of the side's units says how it plays.
    let units: Vec<String> = crate::sim::view::with_view(world, |_, view| {
        view.groups
            .iter()
            .filter(|g| g.side == side)
            .map(|g| g.name.clone())
            .collect()
    });
    if !world.contains_resource::<super::brain::AiState>() {
        world.insert_resource(super::brain::AiState::default());
    }
    for unit in units {
        super::look::note(
            world,
            &unit,
            format!(
                "its leader moves the side by {} this turn: played forward on copies of the \
                 battle as its side knows it, that scored best",
                way.words()
            ),
        );
        if let Some(mut s) = world.get_resource_mut::<super::brain::AiState>() {
            s.led.insert(unit, turn);
        }
    }
}

/// What the strongest level reads to choose `side`'s way ([`choose`]), taken out of the game
/// so that another thread can make the choice: a `Game` stays on its thread. The window
/// thinks there, so that it never freezes while the computer weighs its ways (issue 31, item
/// 5); the choice is the one [`choose`] makes on the side's own game, which this rebuilds.
pub struct ChoiceInputs {
    side: u8,
    turn: u32,
    record: crate::sim::record::Record,
    dice: Vec<u32>,
    seed: u64,
}

impl ChoiceInputs {
    /// The turn the choice is for.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Makes the choice, on any thread: the leader's way when the side's game does not
    /// rebuild (it always does: it is rebuilt from its own record).
    pub fn choose(self) -> Way {
        match Game::side_game_from(&self.record, &self.dice, self.side, self.seed) {
            Some(mut g) => choose(&mut g, self.side),
            None => Way::Lead,
        }
    }
}

/// When the strongest level must now choose how `side` plays this turn, and has not: what the
/// choice reads ([`ChoiceInputs`]). `None` at any other strength or moment.
pub fn choice_due(game: &mut Game, side: u8) -> Option<ChoiceInputs> {
    let g = super::side_game(game, side);
    let level = super::brain::level_of(g, side);
    if !delegating(g, side, level) || settled(g, side).is_some() {
        return None;
    }
    Some(ChoiceInputs {
        side,
        turn: g.app.world().resource::<TurnState>().turn,
        record: g.record().clone(),
        dice: g.dice_drawn().to_vec(),
        seed: crate::sim::side_asks::own_seed(g.app.world(), side),
    })
}

/// Keeps a way chosen from [`choice_due`]'s inputs as `side`'s for `turn`, as [`choose`]
/// would have on the game itself; nothing when the game has gone on to another turn.
pub fn take_choice(game: &mut Game, side: u8, turn: u32, way: Way) {
    let g = super::side_game(game, side);
    if g.app.world().resource::<TurnState>().turn == turn {
        keep_choice(g, side, turn, way);
    }
}

/// The last way chosen for `side` at the strongest level, and the turn it was chosen for.
pub fn chosen(game: &Game, side: u8) -> Option<(u32, Way)> {
    let p = game
        .known_by(side)
        .app
        .world()
        .get_resource::<Portfolio>()?;
    p.chosen.get(&side).copied()
}

/// Plays every way forward against every enemy model and takes the best total score.
pub fn choose(game: &mut Game, side: u8) -> Way {
    let sides = game.app.world().resource::<TurnState>().sides;
    if sides != 2 {
        return Way::Lead;
    }
    let Ok(level) = game.record().level() else {
        return Way::Lead;
    };
    let turn = game.app.world().resource::<TurnState>().turn;
    let own = crate::sim::side_asks::own_seed(game.app.world(), side);
    let models = enemy_models(game, &level, side, own);
    let mut best: Option<(i64, Way)> = None;
    for way in WAYS {
        let mut total = 0i64;
        for (mi, model) in ENEMY_MODELS.into_iter().enumerate() {
            if !models.contains(&model) {
                continue;
            }
            for k in 0..SAMPLES {
                // The same dice for every way: only the way differs between its copies.
                let seed = super::imagine::mix(&[own, u64::from(turn), mi as u64, k]);
                match play_forward(game, &level, side, way, model, seed, turn + HORIZON) {
                    Some(s) => total += s,
                    None => return Way::Lead,
                }
            }
        }
        if best.is_none_or(|(b, _)| total > b) {
            best = Some((total, way));
        }
    }
    best.map_or(Way::Lead, |(_, w)| w)
}

/// The plans the enemy of `side` may be following, read from its last moves: replayed on a
/// copy of the game as `side` knows it, each of the enemy's last [`MOVES_READ`] moves is set
/// beside the move each plan would have given that figure there ([`super::plain::move_of`]).
/// The plans that gave the most of them, when they gave at least half; otherwise (a person,
/// a plan not among them, no move seen yet) every plan.
pub(crate) fn enemy_models(
    game: &mut Game,
    level: &crate::level::Level,
    side: u8,
    seed: u64,
) -> Vec<Plan> {
    let enemy = 1 - side;
    let seat = crate::sim::side_view::Seat::Side(side);
    let orders = game.record().orders.clone();
    let mut moves = Vec::new();
    for i in (0..orders.len()).rev() {
        if moves.len() == MOVES_READ {
            break;
        }
        if matches!(orders[i], Order::Move { .. })
            && !game.hidden_from(i, seat)
            && game.side_of_order(&orders[i]) == Some(enemy)
        {
            moves.push(i);
        }
    }
    let Some(&first) = moves.last() else {
        return ENEMY_MODELS.to_vec();
    };
    let Some(mut copy) = game.side_copy(level, side, seed, first) else {
        return ENEMY_MODELS.to_vec();
    };
    let mut hits = [0usize; ENEMY_MODELS.len()];
    for (i, o) in orders.iter().enumerate().skip(first) {
        if game.hidden_from(i, seat) {
            continue;
        }
        if let Order::Move { unit, .. } = o
            && moves.contains(&i)
        {
            for (k, &m) in ENEMY_MODELS.iter().enumerate() {
                if super::plain::move_of(m, &mut copy, unit).as_ref() == Some(o) {
                    hits[k] += 1;
                }
            }
        }
        if copy.order(o).is_err() {
            break;
        }
    }
    let most = hits.iter().copied().max().unwrap_or(0);
    if most == 0 || 2 * most < moves.len() {
        return ENEMY_MODELS.to_vec();
    }
    ENEMY_MODELS
        .into_iter()
        .zip(hits)
        .filter(|&(_, h)| h == most)
        .map(|(m, _)| m)
        .collect()
}

/// One copy of the game as `side` knows it, played until the end of turn `last` with `side`
/// playing `way` and the enemy `model`; its score for `side`, or `None` when the copy could
/// not be made.
fn play_forward(
    game: &Game,
    level: &crate::level::Level,
    side: u8,
    way: Way,
    model: Plan,
    seed: u64,
    last: u32,
) -> Option<i64> {
    let mut copy = game.side_copy(level, side, seed, usize::MAX)?;
    super::set_level(&mut copy, side, AiLevel::Foresight);
    let mut fixed = BTreeMap::new();
    fixed.insert(side, way);
    copy.app.world_mut().insert_resource(Portfolio {
        fixed,
        ..Default::default()
    });
    let enemy = 1 - side;
    let mut script = Plain::new(model, enemy);
    // Melee rounds ask every engaged figure each round: a bound, not a limit met in play.
    for _ in 0..20_000 {
        if copy.outcome().is_some() || copy.app.world().resource::<TurnState>().turn > last {
            break;
        }
        let Some(s) = super::side_to_act(&mut copy) else {
            break;
        };
        let order = if s == enemy {
            script.next_order(&mut copy)
        } else {
            super::next_order(&mut copy, s)
        }
        .unwrap_or(Order::EndSide);
        if copy.order(&order).is_err() && order == Order::EndSide {
            break;
        }
    }
    Some(score(&mut copy, side))
}

/// How the copy stands for `side`: a battle won or lost outright counts most, then the
/// judge's verdict were the battle to end now, then the share of body points each side has
/// left in the fight and whether each side's leader is still in it ([`LEADER`]).
fn score(copy: &mut Game, side: u8) -> i64 {
    let ended = copy.outcome().is_some();
    let verdict = copy.outcome_now();
    let sign = match verdict.winner {
        Some(w) if w == side => 1,
        Some(_) => -1,
        None => 0,
    };
    let stand = super::bout::standings(copy, &[], None);
    let share = |s: usize| {
        stand.get(s).map_or(0.0, |x| {
            f64::from(x.body_left) / f64::from(x.body_start.max(1))
        })
    };
    let material = share(usize::from(side)) - share(usize::from(1 - side));
    let leaders = crate::sim::view::with_view(copy.app.world_mut(), |_, v| {
        let led = |s: u8| i64::from(super::command::side_commanded(v, s));
        led(side) - led(1 - side)
    });
    (if ended { 1000 } else { 300 }) * sign + (material * 500.0) as i64 + LEADER * leaders
}
