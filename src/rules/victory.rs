//! Who wins a battle, and why: victory conditions as level data, and the one judge that the
//! window, `warhorse sim` and `warhorse script` all ask (issue 12). Pure data and functions:
//! the simulation gathers [`FigureFact`]s and keeps a [`Tracker`]; nothing here knows ECS.
//!
//! The reading (`docs/rules.md`, "Victory"): a side with no rider or footman left in the fight
//! has lost, and the last side with one wins; an objective marked `wins` ends the battle at
//! once for its side; otherwise, after the level's last turn, the larger total of victory
//! points wins (objectives achieved, plus every enemy figure and horse removed), and equal
//! totals are a draw.
//!
//! Why one long file: the conditions as a level writes them, the facts gathered each order and
//! the judge that weighs them are one vocabulary read together; split, each part would
//! re-export the others' types and the judge's reading would be spread over three files.

use crate::rules::grid::Cell;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A level's victory conditions as the file writes them (`victory: (...)`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictorySpec {
    /// The last turn: after it, victory points decide.
    pub turns: u32,
    /// Each side's goals.
    #[serde(default)]
    pub objectives: Vec<ObjectiveSpec>,
    /// Whether removing an enemy figure or horse scores its value (on unless turned off).
    #[serde(default = "yes")]
    pub figure_points: bool,
}

fn yes() -> bool {
    true
}

/// One side's goal, as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectiveSpec {
    /// The side that scores it.
    pub side: String,
    /// What must happen.
    pub goal: Goal,
    /// Victory points when achieved.
    #[serde(default)]
    pub points: u32,
    /// Achieving it wins the battle at once.
    #[serde(default)]
    pub wins: bool,
    /// Words for the objectives panel; made from the goal when empty.
    #[serde(default)]
    pub name: String,
}

/// What an objective asks for. Cells are `(x, y)` as everywhere in a level file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Goal {
    /// Hold an area at the end of `turns` turns running, counting from turn `from_turn`: a
    /// side holds it when one of its figures in the fight stands in it and no enemy's does.
    Hold {
        /// The cells.
        area: Vec<(i32, i32)>,
        /// Turn ends running it must be held (1 by default).
        #[serde(default = "one")]
        turns: u32,
        /// The first turn whose end counts (1 by default).
        #[serde(default = "one")]
        from_turn: u32,
    },
    /// Every named figure stands, in the fight, on a cell of a map edge (escort, breakthrough).
    Exit {
        /// Figure ids (riders or figures on foot).
        figures: Vec<String>,
        /// Which edge.
        edge: Edge,
    },
    /// Every named figure stands, in the fight, in an area.
    Reach {
        /// Figure ids.
        figures: Vec<String>,
        /// The cells.
        area: Vec<(i32, i32)>,
    },
    /// Every named (enemy) figure is out of the fight.
    Kill {
        /// Figure ids.
        figures: Vec<String>,
    },
    /// Every named figure is still in the fight when the battle ends (a prisoner, a banner,
    /// a lord). Scored at the end only.
    Protect {
        /// Figure ids.
        figures: Vec<String>,
    },
}

fn one() -> u32 {
    1
}

/// A map edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Edge {
    /// Row 0.
    N,
    /// The last column.
    E,
    /// The last row.
    S,
    /// Column 0.
    W,
}

impl Edge {
    /// True when `c` lies on this edge of a `w` × `h` map.
    pub fn holds(self, c: Cell, w: i32, h: i32) -> bool {
        match self {
            Edge::N => c.y == 0,
            Edge::E => c.x == w - 1,
            Edge::S => c.y == h - 1,
            Edge::W => c.x == 0,
        }
    }

    /// The edge in words.
    pub fn word(self) -> &'static str {
        match self {
            Edge::N => "north",
            Edge::E => "east",
            Edge::S => "south",
            Edge::W => "west",
        }
    }
}

/// A checked objective: its side as an index.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Objective {
    /// Index of the side that scores it.
    pub side: u8,
    /// What must happen.
    pub goal: Goal,
    /// Victory points.
    pub points: u32,
    /// Achieving it wins at once.
    pub wins: bool,
    /// Words for the panel and the log.
    pub name: String,
}

/// A level's checked victory conditions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Victory {
    /// The last turn.
    pub turns: u32,
    /// The objectives.
    pub objectives: Vec<Objective>,
    /// Removed enemy figures and horses score their value.
    pub figure_points: bool,
}

/// Turns a level without a `victory` block plays: long enough for any of ours to be decided.
pub const DEFAULT_TURNS: u32 = 12;

impl Default for Victory {
    fn default() -> Victory {
        Victory {
            turns: DEFAULT_TURNS,
            objectives: Vec::new(),
            figure_points: true,
        }
    }
}

/// Words for an objective that has no name.
pub fn describe(goal: &Goal) -> String {
    let list = |f: &[String]| f.join(", ");
    match goal {
        Goal::Hold {
            area,
            turns,
            from_turn,
        } => {
            let cells = if area.len() == 1 {
                format!("cell {:?}", area[0])
            } else {
                format!("{} cells", area.len())
            };
            let when = match (*turns, *from_turn) {
                (1, 1) => "at the end of a turn".to_string(),
                (1, t) => format!("at the end of turn {t} or later"),
                (n, 1) => format!("for {n} turns running"),
                (n, t) => format!("for {n} turns running from turn {t}"),
            };
            format!("hold {cells} {when}")
        }
        Goal::Exit { figures, edge } => {
            format!("get {} to the {} edge", list(figures), edge.word())
        }
        Goal::Reach { figures, area } => {
            format!("get {} into the {} marked cells", list(figures), area.len())
        }
        Goal::Kill { figures } => format!("take {} out of the fight", list(figures)),
        Goal::Protect { figures } => format!("keep {} in the fight", list(figures)),
    }
}

/// What the judge needs to know about one figure now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FigureFact {
    /// Its id.
    pub id: String,
    /// Its side.
    pub side: u8,
    /// Where it stands.
    pub cell: Cell,
    /// Still in the fight (not down, dead or gone).
    pub fighting: bool,
    /// A horse (a mount or a riderless one): never holds ground, never keeps a side alive.
    pub horse: bool,
    /// Victory points its enemies score when it is removed.
    pub value: u32,
    /// Body points at the start.
    pub body: u32,
}

/// A figure as the tracker remembers it, so one removed from the map still counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Enrolled {
    /// Its side.
    pub side: u8,
    /// A horse.
    pub horse: bool,
    /// Its value.
    pub value: u32,
    /// Body points at the start.
    pub body: u32,
}

/// A figure's worth when removed (our reading, docs/rules.md): a rider or footman is worth
/// its blows plus its armour, a horse its blows; at least 1. A knight (5 blows, armour 7) is
/// worth 12, a footman (4, 3) 7, an archer (3, 1) 4.
pub fn figure_value(blows: u8, armour: u8, horse: bool) -> u32 {
    let v = u32::from(blows) + if horse { 0 } else { u32::from(armour) };
    v.max(1)
}

/// How a figure left the map by an edge (not how it fell): the game removes it, and the judge
/// must still know why it is gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Departure {
    /// Its unit's actions-table roll said flee or canter away (I2) and its move ended on the
    /// map edge: out of the fight, worth half its value to the enemy (our reading,
    /// docs/rules.md "Rout").
    Routed,
    /// It reached the edge an `Exit` objective names: safe, neither in the fight nor lost.
    Exited(Edge),
}

/// Victory points a routed figure gives its enemies (our reading, docs/rules.md "Rout"): half
/// its value, rounded up, since it lives to fight another day but is lost to this battle.
pub fn routed_value(value: u32) -> u32 {
    value.div_ceil(2)
}

/// What the judge remembers between looks: the figures it has seen (so a figure removed
/// from the map still counts as lost), how long each area has been held, and which
/// objectives are achieved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tracker {
    /// Every figure ever seen.
    pub roster: BTreeMap<String, Enrolled>,
    /// Per objective: turn ends held running (holds only).
    pub held: Vec<u32>,
    /// Per objective: the named figures that have been where they had to be.
    pub arrived: Vec<BTreeSet<String>>,
    /// Per objective: the turn it was achieved.
    pub achieved: Vec<Option<u32>>,
    /// Figures that left the map by an edge: how, and in which turn.
    pub gone: BTreeMap<String, (Departure, u32)>,
}

/// The end of a battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// The winning side, `None` for a draw.
    pub winner: Option<u8>,
    /// Why, in a sentence.
    pub reason: String,
    /// The turn it ended in.
    pub turn: u32,
    /// Each side's victory points.
    pub points: Vec<u32>,
    /// Figures (and their mounts) that routed off the map, by id.
    pub routed: Vec<String>,
    /// Figures that left by the edge their `Exit` objective names, by id.
    pub exited: Vec<String>,
}

impl Tracker {
    /// A tracker for `v`.
    pub fn new(v: &Victory) -> Tracker {
        let n = v.objectives.len();
        Tracker {
            roster: BTreeMap::new(),
            held: vec![0; n],
            arrived: vec![BTreeSet::new(); n],
            achieved: vec![None; n],
            gone: BTreeMap::new(),
        }
    }

    /// Notes that `f` has left the map in turn `turn` (the game removes it next): it stays on
    /// the roster, and the judge counts it as routed or as got away.
    pub fn depart(&mut self, f: &FigureFact, how: Departure, turn: u32) {
        self.enrol(f);
        self.gone.insert(f.id.clone(), (how, turn));
    }

    fn enrol(&mut self, f: &FigureFact) {
        // Looked up first: every look enrols every figure, and all but the first find it.
        if self.roster.contains_key(&f.id) {
            return;
        }
        self.roster.insert(
            f.id.clone(),
            Enrolled {
                side: f.side,
                horse: f.horse,
                value: f.value,
                body: f.body,
            },
        );
    }

    /// How far objective `i` (`o`) has come, as (done, needed), where it takes more than
    /// one step and none is scored yet: turn ends held running of a `Hold` over several
    /// turns; named figures arrived of an `Exit` or `Reach` naming several. The panel shows
    /// it so a player sees a hold counting (issue 34: "held 1 of 2 turns").
    pub fn progress(&self, i: usize, o: &Objective) -> Option<(u32, u32)> {
        if self.achieved.get(i).is_some_and(Option::is_some) {
            return None;
        }
        match &o.goal {
            Goal::Hold { turns, .. } if *turns > 1 => {
                Some((self.held.get(i).copied().unwrap_or(0).min(*turns), *turns))
            }
            Goal::Exit { figures, .. } | Goal::Reach { figures, .. } if figures.len() > 1 => {
                let there = self
                    .arrived
                    .get(i)
                    .map_or(0, |a| figures.iter().filter(|id| a.contains(*id)).count());
                Some((there as u32, figures.len() as u32))
            }
            _ => None,
        }
    }

    /// True when `id` left by an `Exit` edge: safe, not lost.
    pub fn exited(&self, id: &str) -> bool {
        matches!(self.gone.get(id), Some((Departure::Exited(_), _)))
    }

    /// True when `id` routed off the map.
    pub fn routed(&self, id: &str) -> bool {
        matches!(self.gone.get(id), Some((Departure::Routed, _)))
    }

    /// The ids that left the map `how`, in id order.
    fn gone_by(&self, routed: bool) -> Vec<String> {
        self.gone
            .iter()
            .filter(|(_, (d, _))| (*d == Departure::Routed) == routed)
            .map(|(id, _)| id.clone())
            .collect()
    }

    /// Looks at the field: notes new figures, arrivals, kills, and at a turn's end
    /// (`turn_end`) the areas held. Returns the objectives achieved by this look.
    pub fn observe(
        &mut self,
        v: &Victory,
        facts: &[FigureFact],
        size: (i32, i32),
        turn: u32,
        turn_end: bool,
    ) -> Vec<usize> {
        for f in facts {
            self.enrol(f);
        }
        // Only the goals that name figures look them up by id: a level of areas to hold does
        // not build the index on every look.
        let named = v.objectives.iter().enumerate().any(|(i, o)| {
            self.achieved[i].is_none()
                && !matches!(o.goal, Goal::Hold { .. } | Goal::Protect { .. })
        });
        let by_id: BTreeMap<&str, &FigureFact> = if named {
            facts.iter().map(|f| (f.id.as_str(), f)).collect()
        } else {
            BTreeMap::new()
        };
        let fighting = |id: &str| by_id.get(id).is_some_and(|f| f.fighting);
        let mut now = Vec::new();
        for (i, o) in v.objectives.iter().enumerate() {
            if self.achieved[i].is_some() {
                continue;
            }
            let done = match &o.goal {
                Goal::Hold {
                    area,
                    turns,
                    from_turn,
                } => {
                    if turn_end && turn >= *from_turn {
                        if holds(o.side, area, facts) {
                            self.held[i] += 1;
                        } else {
                            self.held[i] = 0;
                        }
                    }
                    self.held[i] >= (*turns).max(1)
                }
                Goal::Exit { figures, edge } => {
                    let (w, h) = size;
                    for id in figures {
                        if self
                            .gone
                            .get(id)
                            .is_some_and(|g| g.0 == Departure::Exited(*edge))
                        {
                            self.arrived[i].insert(id.clone());
                        }
                    }
                    self.arrive(i, figures, &by_id, |c| edge.holds(c, w, h))
                }
                Goal::Reach { figures, area } => {
                    self.arrive(i, figures, &by_id, |c| area.contains(&(c.x, c.y)))
                }
                // A routed figure is out of the fight; one that got away by its exit is not
                // taken.
                Goal::Kill { figures } => {
                    figures.iter().all(|id| !fighting(id) && !self.exited(id))
                }
                Goal::Protect { .. } => false,
            };
            if done {
                self.achieved[i] = Some(turn);
                now.push(i);
            }
        }
        now
    }

    /// Notes the named figures standing, in the fight, where `at` says; true once all have.
    fn arrive(
        &mut self,
        i: usize,
        figures: &[String],
        by_id: &BTreeMap<&str, &FigureFact>,
        at: impl Fn(Cell) -> bool,
    ) -> bool {
        for id in figures {
            if by_id
                .get(id.as_str())
                .is_some_and(|f| f.fighting && at(f.cell))
            {
                self.arrived[i].insert(id.clone());
            }
        }
        figures.iter().all(|id| self.arrived[i].contains(id))
    }

    /// Each side's victory points now; `last` scores the objectives kept to the end
    /// (Protect) as well.
    pub fn points(&self, v: &Victory, facts: &[FigureFact], sides: u8, last: bool) -> Vec<u32> {
        let up: BTreeSet<&str> = facts
            .iter()
            .filter(|f| f.fighting)
            .map(|f| f.id.as_str())
            .collect();
        let mut pts = vec![0u32; usize::from(sides)];
        for (i, o) in v.objectives.iter().enumerate() {
            let kept = |figures: &[String]| {
                figures
                    .iter()
                    .all(|id| up.contains(id.as_str()) || self.exited(id))
            };
            let scored = self.achieved[i].is_some()
                || (last && matches!(&o.goal, Goal::Protect { figures } if kept(figures)));
            if scored && let Some(p) = pts.get_mut(usize::from(o.side)) {
                *p += o.points;
            }
        }
        if v.figure_points {
            for (id, e) in &self.roster {
                if up.contains(id.as_str()) || self.exited(id) {
                    continue;
                }
                let value = if self.routed(id) {
                    routed_value(e.value)
                } else {
                    e.value
                };
                for (s, p) in pts.iter_mut().enumerate() {
                    if s != usize::from(e.side) {
                        *p += value;
                    }
                }
            }
        }
        pts
    }

    /// The judge: `Some` once the battle is over. `last_turn_over` says the level's last
    /// turn has just ended.
    pub fn decide(
        &self,
        v: &Victory,
        facts: &[FigureFact],
        sides: u8,
        turn: u32,
        last_turn_over: bool,
    ) -> Option<Outcome> {
        let out = |winner: Option<u8>, reason: String, last: bool| {
            Some(Outcome {
                winner,
                reason,
                turn,
                points: self.points(v, facts, sides, last),
                routed: self.gone_by(true),
                exited: self.gone_by(false),
            })
        };
        let named: Vec<&Objective> = v
            .objectives
            .iter()
            .zip(&self.achieved)
            .filter(|(o, a)| o.wins && a.is_some())
            .map(|(o, _)| o)
            .collect();
        let done: BTreeSet<u8> = named.iter().map(|o| o.side).collect();
        match done.len() {
            0 => {}
            1 => {
                let o = named[0];
                let why = format!("achieved its objective: {}", o.name);
                return out(Some(o.side), why, false);
            }
            _ => {
                let why = "more than one side achieved a winning objective at once";
                return out(None, why.into(), false);
            }
        }
        // A side keeps going while a rider or footman of it is in the fight, or has got away
        // by its exit (an escort that has saved its charge is not beaten for it).
        let standing: Vec<u8> = (0..sides)
            .filter(|&s| {
                facts.iter().any(|f| f.side == s && !f.horse && f.fighting)
                    || self
                        .roster
                        .iter()
                        .any(|(id, e)| e.side == s && !e.horse && self.exited(id))
            })
            .collect();
        match standing.as_slice() {
            [] if sides > 0 => {
                let why = "no side has a figure left in the fight";
                return out(None, why.into(), true);
            }
            [w] if sides > 1 => {
                let routed = self
                    .roster
                    .iter()
                    .filter(|(id, e)| e.side != *w && !e.horse && self.routed(id))
                    .count();
                let why = match routed {
                    0 => "every enemy figure is out of the fight".to_string(),
                    n => format!("every enemy figure is out of the fight ({n} routed off the map)"),
                };
                return out(Some(*w), why, true);
            }
            _ => {}
        }
        if !last_turn_over {
            return None;
        }
        let pts = self.points(v, facts, sides, true);
        let best = pts.iter().copied().max().unwrap_or(0);
        let leaders: Vec<usize> = (0..pts.len()).filter(|&s| pts[s] == best).collect();
        if leaders.len() == 1 {
            let why = format!("turn limit: the most victory points ({best})");
            out(Some(leaders[0] as u8), why, true)
        } else {
            out(
                None,
                format!("turn limit: equal victory points ({best})"),
                true,
            )
        }
    }
}

/// True when `side` holds `area`: one of its figures in the fight (not a horse) stands in
/// it, and no enemy figure in the fight does.
pub fn holds(side: u8, area: &[(i32, i32)], facts: &[FigureFact]) -> bool {
    let inside = |f: &&FigureFact| f.fighting && area.contains(&(f.cell.x, f.cell.y));
    let mut in_area = facts.iter().filter(inside);
    let mine = in_area.clone().any(|f| f.side == side && !f.horse);
    mine && !in_area.any(|f| f.side != side)
}
