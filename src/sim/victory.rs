//! The judge in the world (issue 12): after every frame in which someone fell, was removed, or
//! a figure an objective names moved, and at every turn's end, it asks `rules::victory`
//! whether the battle is over. Once it is, the turn's systems stop, [`crate::sim::Game`]
//! refuses further orders, and the log says who won and why.

use super::changes::{WrittenSince, component_ids, removals_of, too_old};
use super::components::{Armour, Blows, Body, CombatStatus, FigureId, Position, SideId, Troop};
use super::log::{GameLog, Happening};
use super::phase::{Phase, TurnState, log_happening};
use super::world::Map;
use crate::rules::melee::fight::Fallen;
use crate::rules::ruleset::TroopType;
use crate::rules::victory::{FigureFact, Goal, Outcome, Tracker, Victory, figure_value};
use bevy::ecs::change_detection::Tick;
use bevy::ecs::component::ComponentId;
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
        fighting: fighting(body, combat),
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

/// Is a figure in the fight, as the judge counts it ([`FigureFact::fighting`])?
fn fighting(body: &Body, combat: Option<&CombatStatus>) -> bool {
    body.left > 0 && combat.is_none_or(|c| c.0.fallen == Fallen::Up)
}

/// What the judge saw when it last looked, to tell whether anything since could change its
/// judgement. Between turn ends the judgement reads of a figure only whether it is in the
/// fight, where the figures an objective names stand, and who left the map: a card or a wound
/// that leaves every figure as in or out of the fight as before cannot change it. So the
/// judge lists the figures written since its last look (from the tables' change ticks, as the
/// kept models do, [`crate::sim::changes`]) and looks at the whole field only when one of
/// those changed (issue 33, item 3: a `Changed` query over every figure after every order
/// was a tenth of a turn of 4096 figures in contact).
#[derive(Default)]
pub struct Watch {
    /// Whether each figure was in the fight, as last seen.
    fighting: HashMap<Entity, bool>,
    /// Figures whose body or combat state was written.
    hurt: Option<WrittenSince>,
    /// Figures that moved.
    moved: Option<WrittenSince>,
    /// `FigureId`, whose removals say a figure left.
    ids: Vec<ComponentId>,
    /// The removals counted at the last look.
    removals: usize,
    /// The world's tick at the last look: what is written after it is newer.
    since: Option<Tick>,
    scratch: Vec<Entity>,
}

/// The judge's system: looks when something that could decide the battle happened.
pub fn judge(world: &mut World, mut watch: Local<Watch>) {
    let due = due(world, &mut watch);
    // Whatever is written from now on carries a tick newer than this.
    watch.since = Some(world.increment_change_tick());
    if let Some(turn_end) = due {
        look(world, turn_end);
    }
}

/// Whether the judge must look now (`Some`, saying whether a turn has ended), keeping
/// `watch` up to date with what was written since the last call.
fn due(world: &mut World, watch: &mut Watch) -> Option<bool> {
    let judge = world.resource::<Judge>();
    let (looked, named) = (judge.looked, !judge.named.is_empty());
    let turn_end = *world.resource::<State<Phase>>().get() == Phase::EndOfTurn
        && judge.turn_seen != world.resource::<TurnState>().turn;
    if watch.hurt.is_none() {
        watch.ids = component_ids!(world; FigureId);
        watch.hurt = Some(WrittenSince::new(
            watch.ids.clone(),
            component_ids!(world; Body, CombatStatus),
        ));
        watch.moved = Some(WrittenSince::new(
            watch.ids.clone(),
            component_ids!(world; Position),
        ));
    }
    let removals = removals_of(world, &watch.ids);
    let gone = std::mem::replace(&mut watch.removals, removals) != removals;
    let since = match watch.since {
        Some(t) if looked && !too_old(world, t) => t,
        _ => {
            let mut q =
                world.query_filtered::<(Entity, &Body, Option<&CombatStatus>), With<FigureId>>();
            watch.fighting = q.iter(world).map(|(e, b, c)| (e, fighting(b, c))).collect();
            return Some(turn_end);
        }
    };
    let mut written = std::mem::take(&mut watch.scratch);
    written.clear();
    watch.hurt.as_mut()?.list(world, since, &mut written);
    let mut in_or_out = false;
    for &e in &written {
        let now = world
            .get::<Body>(e)
            .is_some_and(|b| fighting(b, world.get::<CombatStatus>(e)));
        in_or_out |= watch.fighting.insert(e, now) != Some(now);
    }
    let mut named_moved = false;
    if named {
        written.clear();
        watch.moved.as_mut()?.list(world, since, &mut written);
        let judge = world.resource::<Judge>();
        named_moved = written.iter().any(|&e| {
            world
                .get::<FigureId>(e)
                .is_some_and(|id| judge.named.contains(&id.0))
        });
    }
    watch.scratch = written;
    (turn_end || gone || in_or_out || named_moved).then_some(turn_end)
}

/// The judge's look at the whole field: objectives achieved, and the outcome once the battle
/// is over.
fn look(world: &mut World, turn_end: bool) {
    let phase = *world.resource::<State<Phase>>().get();
    let facts = facts(world);
    let size = {
        let board = &world.resource::<Map>().0;
        (board.width, board.height)
    };
    let over = world.resource_scope(|world, mut judge: Mut<Judge>| {
        world.resource_scope(|world, mut log: Mut<GameLog>| {
            let turn = world.resource::<TurnState>();
            judge_field(&mut judge, &mut log, turn, phase, &facts, size, turn_end)
        })
    });
    if over {
        // The turn stops where it is: no next phase, no next turn.
        world.resource_mut::<NextState<Phase>>().reset();
    }
}

/// Notes the objectives achieved and, once the battle is over, its outcome, each with its
/// line in the log. True when the battle is over now.
fn judge_field(
    j: &mut Judge,
    log: &mut GameLog,
    turn: &TurnState,
    phase: Phase,
    facts: &[FigureFact],
    size: (i32, i32),
    turn_end: bool,
) -> bool {
    j.looked = true;
    if turn_end {
        j.turn_seen = turn.turn;
    }
    let achieved = j
        .tracker
        .observe(&j.victory, facts, size, turn.turn, turn_end);
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
        log_happening(log, turn, phase, text, None, what);
    }
    let last = turn_end && turn.turn >= j.victory.turns;
    let Some(out) = j
        .tracker
        .decide(&j.victory, facts, turn.sides, turn.turn, last)
    else {
        return false;
    };
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
    log_happening(log, turn, phase, text, None, what);
    j.outcome = Some(out);
    true
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
