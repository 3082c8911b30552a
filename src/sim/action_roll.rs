//! The actions-table roll as a game order (`Order::ActionRoll`): the unit's risk factor is
//! summed from the board (I1), a d6 is rolled with the game's seeded dice and logged, and the
//! table's answer (I2) is kept in the game.
//!
//! The table is seed 004's rule, not a player's choice: every unit rolls and obeys its row
//! whoever plays its side, so the roll lives with the simulation, and the AI (like a person)
//! only gives the order and then plays within the row's answer.
//!
//! Making the roll an order is what lets AI games replay: saves and undo rebuild a game by
//! replaying its orders, so a die rolled outside them would shift every later roll. It also
//! keeps each unit's memory — what it did last turn — inside the game, where a reloaded
//! game finds it.

use super::dice::Dice;
use super::groups::Groups;
use super::log::{GameLog, Happening, LogEntry, Roll};
use super::order::Refusal;
use super::phase::{Phase, TurnState};
use super::view::{FigView, View};
use crate::rules::actions::{self as table, Band, Conduct, is_running};
use crate::rules::gait::Gait;
use crate::rules::grid::Cell;
use crate::rules::risk::{RiskTerms, in_cover, on_flank_or_rear, weapon_range};
use bevy::prelude::*;

pub use super::table_rolls::{ActionRolls, RollEntry};

/// This turn's roll of the unit figure `id` belongs to, if it has rolled: what its unit does
/// this turn (I2), read by the rout (a flight off the edge) and by the AI.
pub fn roll_of_figure<'w>(world: &'w World, id: &str) -> Option<&'w RollEntry> {
    let unit = &world.get_resource::<Groups>()?.of_figure(id)?.name;
    let turn = world.resource::<TurnState>().turn;
    world.get_resource::<ActionRolls>()?.of_unit(unit, turn)
}

fn refuse<T>(s: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal(s.into()))
}

/// Applies `Order::ActionRoll { unit }`: once per unit per turn, in a phase that takes
/// orders, by the side to move in a half-move. On refusal nothing changes.
pub fn apply_action_roll(world: &mut World, unit: &str) -> Result<(), Refusal> {
    let phase = *world.resource::<State<Phase>>().get();
    if matches!(phase, Phase::Setup | Phase::EndOfTurn) {
        return refuse(format!(
            "I2: the actions table is rolled during a turn, not in the {}",
            phase.label()
        ));
    }
    let Some(group) = world
        .get_resource::<Groups>()
        .and_then(|g| g.get(unit).cloned())
    else {
        return refuse(format!("I1: there is no unit {unit:?}"));
    };
    let turn = world.resource::<TurnState>().clone();
    // Every check reads the world only, before the kept public view is brought up to date: a
    // refused roll touches nothing.
    let rolled = world
        .get_resource::<ActionRolls>()
        .is_some_and(|r| r.of_unit(unit, turn.turn).is_some());
    if rolled {
        return refuse(format!(
            "I2: {unit} has already rolled on the actions table this turn"
        ));
    }
    let mut q = world.query::<(
        &crate::sim::components::FigureId,
        &crate::sim::components::Body,
        Option<&crate::sim::components::CombatStatus>,
    )>();
    let fighting = q.iter(world).any(|(id, body, status)| {
        group.members.contains(&id.0)
            && body.left > 0
            && status.is_none_or(|c| c.0.fallen == crate::rules::melee::fight::Fallen::Up)
    });
    if !fighting {
        return refuse(format!("I2: {unit} has no figure left in the fight"));
    }
    if phase.is_half_move() && turn.side_to_move() != Some(group.side) {
        return refuse(format!(
            "D4: it is not {} half-move",
            turn.side_names
                .get(group.side as usize)
                .map_or("its side's".into(), |s| crate::rules::words::SideWords(s)
                    .possessive())
        ));
    }
    // The kept public view, brought up to date (this order comes before every unit's moves).
    let (terms, before) = super::view::with_view(world, |world, view| {
        let g = view
            .group(unit)
            .expect("the view has every unit of the game");
        let retreated =
            retreated_from_melee(&world.resource::<GameLog>().0, &group.members, turn.turn);
        let before = view
            .last_roll_before_now(unit)
            .map(|r| r.intent.conduct)
            .or_else(|| conduct_on_the_board(view, g));
        (risk_terms(view, g, retreated), before)
    });
    let risk = terms.total();
    let roll = world.resource_mut::<Dice>().roll(6);
    let action = table::action(risk, roll, table::at_halt(before));
    let intent = table::intent(action, before);
    let text = format!(
        "{unit}: risk factor {risk} ({}); rolls {roll} on the actions table, {}: {action} — it {} (I1, I2).",
        terms.words(),
        Band::of(risk).label(),
        intent.conduct.text()
    );
    super::phase::log_happening(
        &mut world.resource_mut::<GameLog>(),
        &turn,
        phase,
        text,
        Some(Roll {
            die: "d6".into(),
            value: roll,
            by: unit.to_string(),
            chance: None,
        }),
        Happening::ActionRolled {
            unit: unit.to_string(),
            side: group.side,
            risk,
            roll,
            action,
            intent,
        },
    );
    let entry = RollEntry {
        turn: turn.turn,
        unit: unit.to_string(),
        side: group.side,
        terms,
        roll,
        action,
        intent,
    };
    match world.get_resource_mut::<ActionRolls>() {
        Some(mut r) => r.0.push(entry),
        None => world.insert_resource(ActionRolls(vec![entry])),
    }
    Ok(())
}

/// What a unit that has not rolled yet is doing, read from the board (issue 13: "a unit that
/// starts a level moving is moving"): when every figure of it still in the fight is mounted
/// and its mount is moving, it is advancing on the nearest enemy at the slowest of their
/// gaits; otherwise (anyone on foot or halted) nothing, which the table reads as at a halt.
/// So "continue current actions" (I2) keeps a trotting knight trotting.
pub fn conduct_on_the_board(view: &View, g: usize) -> Option<Conduct> {
    let mut gait: Option<Gait> = None;
    for f in view.fighting(g) {
        if !f.mounted || f.gait == Gait::Halt {
            return None;
        }
        gait = Some(gait.map_or(f.gait, |x| x.min(f.gait)));
    }
    gait.map(|gait| Conduct::Advance {
        gait,
        visible: false,
    })
}

/// True when `enemy`'s weapon reaches `target`.
fn in_range_of(view: &View, enemy: &FigView, target: Cell) -> bool {
    view.dist(enemy.cell, target) <= weapon_range(&enemy.weapon)
}

/// True when one of `members` (figure ids; a mount's id is its rider's followed by `.mount`)
/// retreated from a melee in turn `turn - 1`: a result of the melee whose happening says a
/// RETREAT or RUN AWAY moved it (`Happening::Result`'s `retreated`, set by the rules' event,
/// never read from the words). The log is public: every player reads it (I4). *Our reading* of "retreating as a result of melee" (I1): a
/// retreat the TAC cards carried out, whether chosen or forced by KEEP DISTANCE; a stagger's
/// push of one cell is not a retreat.
pub fn retreated_from_melee(log: &[LogEntry], members: &[String], turn: u32) -> bool {
    let Some(last) = turn.checked_sub(1) else {
        return false;
    };
    log.iter()
        .rev()
        .take_while(|e| e.turn >= last)
        .filter(|e| e.turn == last)
        .filter_map(|e| match &e.what {
            Happening::Result {
                retreated: Some(f), ..
            } => Some(f),
            _ => None,
        })
        .any(|f| {
            // A mount's fight id is its rider's with `.mount`: the unit's member is the rider.
            members
                .iter()
                .any(|id| f == id || f.strip_suffix(".mount") == Some(id.as_str()))
        })
}

/// I1 for unit `g` of the view, `retreated` telling whether a member retreated from melee
/// last turn (the melee rules report it; `false` where they do not).
pub fn risk_terms(view: &View, g: usize, retreated: bool) -> RiskTerms {
    let unit = &view.groups[g];
    let mine: Vec<&FigView> = view.fighting(g).collect();
    let mut t = RiskTerms::default();
    if mine.is_empty() {
        return t;
    }
    if mine.iter().any(|f| f.hero) {
        t.hero = -1;
    }
    let all_cover = mine.iter().all(|f| in_cover(&view.board, f.cell));
    let all_fast = mine.iter().all(|f| f.mounted && f.gait >= Gait::Canter);
    if all_cover || all_fast {
        t.cover_or_speed = -1;
    }
    let enemies: Vec<&FigView> = view.enemies(unit.side).collect();
    let in_range = |clear: bool| {
        enemies.iter().any(|e| {
            mine.iter().any(|f| {
                in_range_of(view, e, f.cell)
                    && if clear {
                        view.clear_sight(f.cell, e.cell)
                    } else {
                        view.in_sight(f.cell, e.cell)
                    }
            })
        })
    };
    if in_range(true) {
        t.enemy_in_range = 1;
    }
    let raw = mine.iter().filter(|f| f.raw).count();
    if raw * 2 > mine.len() && in_range(false) {
        t.raw = 1;
    }
    let present_hurt = unit
        .members
        .iter()
        .filter(|&&i| view.figs[i].hurt || view.figs[i].down)
        .count();
    let gone = unit.start.saturating_sub(unit.members.len());
    let lost = present_hurt + gone;
    if let Some(tenths) = (lost * 10).checked_div(unit.start) {
        t.losses = tenths as i32;
    }
    // I1 (seed 004: "Enemy to flank or rear and in sight"): no distance, far or near.
    let flanked = enemies.iter().any(|e| {
        mine.iter().any(|f| {
            on_flank_or_rear(view.grid, f.cell, f.facing, e.cell) && view.in_sight(f.cell, e.cell)
        })
    });
    if flanked {
        t.flank_or_rear = 2;
    }
    let ran = view
        .last_roll_before_now(&unit.name)
        .is_some_and(|r| r.turn + 1 == view.turn && is_running(r.intent.conduct));
    if ran || retreated {
        t.ran = 3;
    }
    t
}
