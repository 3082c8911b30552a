//! The judge in the world (issue 12): after every frame in which someone fell, was removed, or
//! a figure an objective names moved, and at every turn's end, it asks `rules::victory`
//! whether the battle is over. Once it is, the turn's systems stop, [`crate::sim::Game`]
//! refuses further orders, and the log says who won and why.

use super::components::{Armour, Blows, Body, CombatStatus, FigureId, Position, SideId, Troop};
use super::log::{GameLog, Happening};
use super::phase::{Phase, TurnState, log_happening};
use super::world::Map;
use crate::rules::melee::fight::Fallen;
use crate::rules::ruleset::TroopType;
use crate::rules::victory::{FigureFact, Goal, Outcome, Tracker, Victory, figure_value};
use bevy::prelude::*;
use std::collections::{HashMap, HashSet};

/// The battle's victory conditions, what has been achieved so far, and the outcome once
/// there is one.
#[derive(Resource, Clone, Debug)]
pub struct Judge {
    /// The level's conditions.
    pub victory: Victory,
    /// Arrivals, holds, the figures seen.
    pub tracker: Tracker,
    /// `Some` once the battle is over.
    pub outcome: Option<Outcome>,
    /// Figures an Exit or Reach objective names: only their moves need a look.
    named: HashSet<String>,
    /// The last turn whose end was looked at.
    turn_seen: u32,
    /// Whether the field has been looked at yet.
    looked: bool,
}

impl Judge {
    /// A judge for a level's conditions.
    pub fn new(victory: Victory) -> Judge {
        let named = victory
            .objectives
            .iter()
            .flat_map(|o| match &o.goal {
                Goal::Exit { figures, .. } | Goal::Reach { figures, .. } => figures.clone(),
                _ => Vec::new(),
            })
            .collect();
        Judge {
            tracker: Tracker::new(&victory),
            victory,
            outcome: None,
            named,
            turn_seen: 0,
            looked: false,
        }
    }
}

/// Run condition: the battle goes on.
pub fn battle_on(judge: Option<Res<Judge>>) -> bool {
    judge.is_none_or(|j| j.outcome.is_none())
}

type FigureRow<'a> = (
    &'a FigureId,
    &'a SideId,
    &'a Position,
    &'a Body,
    &'a Troop,
    &'a Blows,
    Option<&'a Armour>,
    Option<&'a CombatStatus>,
);

/// Every figure as the judge sees it.
pub fn facts(world: &mut World) -> Vec<FigureFact> {
    let mut q = world.query::<FigureRow>();
    q.iter(world).map(fact).collect()
}

/// The judge's view of one figure entity, if it is a figure.
pub fn fact_of(world: &mut World, e: Entity) -> Option<FigureFact> {
    let mut q = world.query::<FigureRow>();
    q.get(world, e).ok().map(fact)
}

fn fact((id, side, pos, body, troop, blows, armour, combat): FigureRow) -> FigureFact {
    let horse = troop.0 == TroopType::Horse;
    FigureFact {
        id: id.0.clone(),
        side: side.0,
        cell: pos.0,
        fighting: body.left > 0 && combat.is_none_or(|c| c.0.fallen == Fallen::Up),
        horse,
        value: figure_value(blows.max, armour.map_or(0, |a| a.0), horse),
        body: u32::from(body.max),
    }
}

/// One side's losses and score, for the objectives panel and the end screen.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Tally {
    /// Victory points now (objectives kept to the end count once the battle is over).
    pub points: u32,
    /// Riders and figures on foot it had.
    pub figures: usize,
    /// Of them, out of the fight or routed (not those that got away by their exit).
    pub figures_lost: usize,
    /// Riders and figures on foot (of those lost) that routed off the map.
    pub figures_routed: usize,
    /// Riders and figures on foot that got away by the edge their objective names.
    pub figures_exited: usize,
    /// Horses it had.
    pub horses: usize,
    /// Of them, out of the fight or gone.
    pub horses_lost: usize,
    /// Body points it had at the start.
    pub body: u32,
    /// Body points left to figures still in the fight.
    pub body_left: u32,
    /// Luck: its rolls to hit (melee blows and missiles)…
    pub rolls_to_hit: u32,
    /// …how many hit…
    pub hits: u32,
    /// …and how many its chances promised, in hundredths of a hit (the sum of the chances).
    pub expected_hits_pct: u32,
}

/// Each side's tally now.
pub fn tallies(world: &mut World) -> Vec<Tally> {
    let facts = facts(world);
    let sides = world.resource::<TurnState>().sides;
    let mut q = world.query::<(&FigureId, &Body)>();
    let body_left: HashMap<&str, u32> = q
        .iter(world)
        .map(|(id, b)| (id.0.as_str(), u32::from(b.left)))
        .collect();
    let Some(judge) = world.get_resource::<Judge>() else {
        return Vec::new();
    };
    let points = match &judge.outcome {
        Some(o) => o.points.clone(),
        None => judge.tracker.points(&judge.victory, &facts, sides, false),
    };
    let up: HashSet<&str> = facts
        .iter()
        .filter(|f| f.fighting)
        .map(|f| f.id.as_str())
        .collect();
    let mut out = vec![Tally::default(); usize::from(sides)];
    for (s, t) in out.iter_mut().enumerate() {
        t.points = points.get(s).copied().unwrap_or(0);
    }
    for (id, e) in &judge.tracker.roster {
        let Some(t) = out.get_mut(usize::from(e.side)) else {
            continue;
        };
        let exited = judge.tracker.exited(id);
        let lost = !up.contains(id.as_str()) && !exited;
        if !e.horse {
            t.figures_routed += usize::from(judge.tracker.routed(id));
            t.figures_exited += usize::from(exited);
        }
        if e.horse {
            t.horses += 1;
            t.horses_lost += usize::from(lost);
        } else {
            t.figures += 1;
            t.figures_lost += usize::from(lost);
        }
        t.body += e.body;
        if !lost {
            t.body_left += body_left.get(id.as_str()).copied().unwrap_or(0);
        }
    }
    let roster = &judge.tracker.roster;
    for roll in world
        .resource::<GameLog>()
        .0
        .iter()
        .filter_map(|l| l.roll.as_ref())
    {
        let (Some(chance), Some(e)) = (roll.chance, roster.get(&roll.by)) else {
            continue;
        };
        let Some(t) = out.get_mut(usize::from(e.side)) else {
            continue;
        };
        t.rolls_to_hit += 1;
        t.hits += u32::from(roll.value as i32 <= chance);
        t.expected_hits_pct += chance.clamp(0, 100) as u32;
    }
    out
}

/// Figures hurt, felled or stood up since the judge last looked.
type Hurt = Or<(Changed<Body>, Changed<CombatStatus>)>;

/// The judge's system: looks when something that could decide the battle happened.
pub fn judge(
    mut judge: ResMut<Judge>,
    turn: Res<TurnState>,
    phase: Res<State<Phase>>,
    map: Res<Map>,
    figures: Query<FigureRow>,
    hurt: Query<(), Hurt>,
    moved: Query<&FigureId, Changed<Position>>,
    mut removed: RemovedComponents<FigureId>,
    mut log: ResMut<GameLog>,
    mut next: ResMut<NextState<Phase>>,
) {
    let phase = *phase.get();
    let turn_end = phase == Phase::EndOfTurn && judge.turn_seen != turn.turn;
    let gone = removed.read().count() > 0;
    let named_moved = !judge.named.is_empty() && moved.iter().any(|id| judge.named.contains(&id.0));
    if judge.looked && !turn_end && !gone && !named_moved && hurt.is_empty() {
        return;
    }
    judge.looked = true;
    if turn_end {
        judge.turn_seen = turn.turn;
    }
    let facts: Vec<FigureFact> = figures.iter().map(fact).collect();
    let size = (map.0.width, map.0.height);
    let j = &mut *judge;
    let achieved = j
        .tracker
        .observe(&j.victory, &facts, size, turn.turn, turn_end);
    for i in achieved {
        let o = &j.victory.objectives[i];
        let side = turn.side_name(o.side);
        let text = format!(
            "{side} {} an objective: {}{}.",
            crate::rules::words::SideWords(&side).verb("achieves", "achieve"),
            o.name,
            match o.points {
                0 => String::new(),
                p => format!(" ({p} victory points)"),
            }
        );
        let what = Happening::ObjectiveAchieved {
            side: o.side,
            objective: o.name.clone(),
            points: o.points,
        };
        log_happening(&mut log, &turn, phase, text, None, what);
    }
    let last = turn_end && turn.turn >= j.victory.turns;
    if let Some(out) = j
        .tracker
        .decide(&j.victory, &facts, turn.sides, turn.turn, last)
    {
        let who = match out.winner {
            Some(s) => {
                let name = turn.side_name(s);
                let w = crate::rules::words::SideWords(&name);
                format!("{name} {}", w.verb("wins", "win"))
            }
            None => "It is a draw".into(),
        };
        let points: Vec<String> = out
            .points
            .iter()
            .enumerate()
            .map(|(s, p)| format!("{} {p}", turn.side_name(s as u8)))
            .collect();
        let text = format!(
            "The battle is over. {who}: {}. Victory points: {}.",
            out.reason,
            points.join(", ")
        );
        let what = Happening::BattleOver { winner: out.winner };
        log_happening(&mut log, &turn, phase, text, None, what);
        j.outcome = Some(out);
        // The turn stops where it is: no next phase, no next turn.
        next.reset();
    }
}

/// An outcome in side names, as `warhorse script --json` and the end screen report it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Report {
    /// The winning side's name, `None` for a draw.
    pub winner: Option<String>,
    /// Why.
    pub reason: String,
    /// The turn it ended in.
    pub turn: u32,
    /// Victory points by side name.
    pub points: std::collections::BTreeMap<String, u32>,
    /// Figures and horses that routed off the map (ids).
    pub routed: Vec<String>,
    /// Figures and horses that got away by their objective's edge (ids).
    pub exited: Vec<String>,
}

impl Report {
    /// Names the sides of `out`.
    pub fn new(out: &Outcome, turn: &TurnState) -> Report {
        Report {
            winner: out.winner.map(|s| turn.side_name(s)),
            reason: out.reason.clone(),
            turn: out.turn,
            points: out
                .points
                .iter()
                .enumerate()
                .map(|(s, &p)| (turn.side_name(s as u8), p))
                .collect(),
            routed: out.routed.clone(),
            exited: out.exited.clone(),
        }
    }
}
