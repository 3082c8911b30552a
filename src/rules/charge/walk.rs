//! The [`Walker`] that rides a charge cell by cell, and the planner built on it (C5, C6).
//!
//! A charge rides straight lines ("legs"). Between two targets it may change line (C6 turns):
//! *our reading* of the seed's "at least 2" in a straight line before contacting a target and
//! at least 1" in a straight line after contact" is that the horse, having struck a target,
//! runs on at least 1" straight past its contact with it ([`RUN_AFTER`]), may then take a new
//! line — on squares the heading or one of the two diagonals ahead of it (a diagonal leg is one
//! veer, H4); on hexes 60° to either hand (a veer, H7) — and must then run at least 2"
//! straight on that line before it strikes the next target ([`RUN_BEFORE`]). Each new diagonal
//! or hex veer counts against the gallop's two veers (H4).
//!
//! Why one long file: the planner tries lines by running the walker itself, so both share the
//! leg state (heading, straight run, veers left) that C5 and C6 are about.

use super::{
    BASH_SLOW, Fig, Line, PlanRefusal, PlanRule, RUN_AFTER, RUN_BEFORE, Side, side_of, sight,
    spacing_ok,
};
use crate::rules::board::Board;
use crate::rules::grid::GridKind::{Hex, Square};
use crate::rules::grid::{Cell, Dir, GridKind};
use crate::rules::movement::{Hand, Mover, Pose, Step};
use crate::rules::mp::Mp;
use serde::{Deserialize, Serialize};

/// Something that happened as the horse entered a cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The horse entered `cell`, `index` cells from its start.
    Entered {
        /// Path index (1 = first cell after the start).
        index: usize,
        /// The cell.
        cell: Cell,
    },
    /// The horse came within the rider's reach of the designated target `target` (an index
    /// into the walker's figures), on `side` of the steed: the exchange takes place (C5).
    StrikePoint {
        /// Figure index.
        target: usize,
        /// Side of the steed.
        side: Side,
    },
    /// The horse touched figure `fig` (not yet touched this charge): it is bashed and the
    /// mount slows by 2" (C6).
    Contact {
        /// Figure index.
        fig: usize,
    },
    /// The horse crosses the stand of the target it just charged (C4: stumble check for both
    /// horses).
    Crossing {
        /// Figure index.
        fig: usize,
    },
    /// The horse takes a new line towards the next target (C6 turns).
    Turn {
        /// The new line (on squares relative to the heading, on hexes to the facing it had).
        line: Line,
    },
    /// The charge is over.
    End(EndReason),
}

/// A planned change of line between two targets (C6 turns): once `after` targets have been
/// struck and the horse has run its 1" straight past the last of them, plus `wait` cells more,
/// it takes `line`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Turn {
    /// Targets struck before the turn (at least 1).
    pub after: usize,
    /// Cells ridden straight beyond the least run after the contact.
    pub wait: usize,
    /// The new line.
    pub line: Line,
}

/// Why a charge ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// Its movement is spent.
    Spent,
    /// The way is blocked (a figure, impassable ground, the map edge): released (C6).
    Blocked(String),
    /// Stopped by the simulation (a stumble, a fallen rider).
    Stopped,
}

/// A charge being ridden: the line, the pose, what is left, and what it has met.
#[derive(Clone, Debug)]
pub struct Walker {
    /// The mover at the charge gait (terrain costs, veers).
    pub mover: Mover,
    /// The line of the leg being ridden (the first line until a turn).
    pub line: Line,
    /// The first line.
    pub start_line: Line,
    /// Turns still to take, in order (C6).
    pub turns: Vec<Turn>,
    /// Turns taken: (path index of the cell where the new leg began, its line).
    pub turned: Vec<(usize, Line)>,
    /// Path index where the current leg began.
    pub leg_start: usize,
    /// Contacts so far: (figure, path index).
    pub contacts: Vec<(usize, usize)>,
    /// Current pose.
    pub pose: Pose,
    /// The cells ridden, the start first.
    pub cells: Vec<Cell>,
    /// The allowance of the charge.
    pub allowance: Mp,
    /// Movement used, slowdowns included.
    pub spent: Mp,
    /// Every figure on the board (the charger included).
    pub figs: Vec<Fig>,
    /// The charger's index in `figs`.
    pub me: usize,
    /// Designated targets, in order (indices into `figs`).
    pub targets: Vec<usize>,
    /// How many designated targets have had their strike point.
    pub struck: usize,
    /// The rider's reach in cells (2 for 1" and 1/2" weapons, else 1).
    pub reach: i32,
    /// Figures already touched (in contact at the start, or contacted since).
    pub touched: Vec<usize>,
    /// Strike points so far: (target, path index, side).
    pub strikes: Vec<(usize, usize, Side)>,
    /// The figure whose stand the horse may cross (the target it just struck).
    pub crossable: Option<usize>,
    /// Designated targets released from the order before their strike (C6): (figure, path
    /// index). A target whose TAC card took it out of the horse's way (C5) is released so the
    /// horse rides on to the next.
    pub released: Vec<(usize, usize)>,
    /// Veers used before the current leg (a diagonal or hex leg adds one, H4).
    veers_base: u8,
    queue: Vec<Event>,
    ended: bool,
}

impl Walker {
    /// Starts a charge of `figs[me]` from `pose` along `line` with `allowance` at the gait of
    /// `mover`; [`Walker::against`] names its targets.
    pub fn new(
        mover: Mover,
        line: Line,
        pose: Pose,
        allowance: Mp,
        figs: Vec<Fig>,
        me: usize,
    ) -> Walker {
        let grid = mover.grid;
        let touched = figs
            .iter()
            .enumerate()
            .filter(|(i, f)| *i != me && grid.distance(f.cell, pose.cell) <= 1)
            .map(|(i, _)| i)
            .collect();
        Walker {
            veers_base: pose.veers,
            mover,
            line,
            start_line: line,
            turns: Vec::new(),
            turned: Vec::new(),
            leg_start: 0,
            contacts: Vec::new(),
            pose,
            cells: vec![pose.cell],
            allowance,
            spent: Mp::ZERO,
            figs,
            me,
            targets: Vec::new(),
            struck: 0,
            reach: 1,
            touched,
            strikes: Vec::new(),
            crossable: None,
            released: Vec::new(),
            queue: Vec::new(),
            ended: false,
        }
    }

    /// The designated targets in order (indices into the figures) and the rider's strike
    /// distance in cells.
    pub fn against(mut self, targets: Vec<usize>, reach: i32) -> Walker {
        self.targets = targets;
        self.reach = reach.max(1);
        self
    }

    /// The turns to take between targets (C6), in order of `after`.
    pub fn with_turns(mut self, turns: Vec<Turn>) -> Walker {
        self.turns = turns;
        self
    }

    /// The lines a new leg may take from the current one: on squares the heading and the two
    /// diagonals ahead, other than the present line; on hexes a veer to either hand.
    pub fn turn_lines(&self) -> Vec<Line> {
        match self.mover.grid {
            Square => Line::ALL.into_iter().filter(|l| *l != self.line).collect(),
            Hex => vec![Line::Veer(Hand::Left), Line::Veer(Hand::Right)],
        }
    }

    /// Is the planned turn `t` due now? The horse has struck exactly `t.after` targets and has
    /// run 1" straight past its contact with the last (or past the strike, when it never
    /// touched it), and `t.wait` cells more.
    fn turn_due(&self, t: &Turn) -> bool {
        if t.after == 0 || self.struck != t.after {
            return false;
        }
        let prev = self.targets[t.after - 1];
        let Some(strike_at) = self
            .strikes
            .iter()
            .find(|s| s.0 == prev)
            .map(|s| s.1)
            .or_else(|| self.released.iter().find(|r| r.0 == prev).map(|r| r.1))
        else {
            return false;
        };
        let anchor = self
            .contacts
            .iter()
            .filter(|c| c.0 == prev && c.1 >= strike_at)
            .map(|c| c.1)
            .next()
            .unwrap_or(strike_at)
            .max(self.leg_start);
        self.index() >= anchor + RUN_AFTER + t.wait
    }
    /// Movement left.
    pub fn left(&self) -> Mp {
        (self.allowance - self.spent).max(Mp::ZERO)
    }

    /// Cells moved so far.
    pub fn index(&self) -> usize {
        self.cells.len() - 1
    }

    /// The direction of travel.
    pub fn dir(&self) -> Dir {
        let g = self.mover.grid;
        match (g, self.line) {
            (GridKind::Hex, Line::Veer(_)) if self.index() > self.leg_start => self.pose.facing,
            _ => self.line.dir(g, self.pose.facing),
        }
    }

    /// The next step of this line.
    fn step(&self) -> Step {
        match (self.mover.grid, self.line) {
            (_, Line::Ahead) => Step::Forward,
            (GridKind::Hex, Line::Veer(_)) if self.index() > self.leg_start => Step::Forward,
            (_, Line::Veer(h)) => Step::Veer(h),
        }
    }

    /// The cost of the next cell, or why it cannot be entered (figures are checked here, not
    /// by the mover: a charging steed is never stopped by an enemy's front, D16).
    pub fn peek(&self, board: &Board) -> Result<(Pose, Mp), String> {
        let mut from = self.pose;
        from.veers = self.veers_base;
        from.stopped = false;
        let next = self.mover.grid.neighbour(from.cell, self.dir());
        if let Some(i) = self.fig_at(next)
            && Some(i) != self.crossable
        {
            return Err(format!("{} stands in the way at {next}", self.figs[i].id));
        }
        let mut b = board.clone();
        for c in [from.cell, next] {
            if b.contains(c) {
                let i = b.index(c);
                b.occupant[i] = 0;
            }
        }
        self.mover
            .try_step(&b, &from, self.step())
            .map_err(|e| e.to_string())
    }

    /// The figure (other than the charger) standing in `c`.
    pub fn fig_at(&self, c: Cell) -> Option<usize> {
        self.figs
            .iter()
            .enumerate()
            .find(|(i, f)| *i != self.me && f.cell == c && !f.riderless_horse)
            .map(|(i, _)| i)
    }

    /// Ends the charge now (a stumble, a fallen rider).
    pub fn stop(&mut self) {
        if !self.ended {
            self.ended = true;
            self.queue.clear();
            self.queue.push(Event::End(EndReason::Stopped));
        }
    }

    /// Takes a bash's 2" off what is left (C6).
    pub fn slow(&mut self) {
        self.spent = (self.spent + BASH_SLOW).min(self.allowance);
    }

    /// The next event, or `None` once the charge has ended and every event was read.
    pub fn next(&mut self, board: &Board) -> Option<Event> {
        if !self.queue.is_empty() {
            return Some(self.queue.remove(0));
        }
        if self.ended {
            return None;
        }
        if self.left() == Mp::ZERO {
            return Some(self.end(EndReason::Spent));
        }
        // C6 turns: a planned change of line, once the horse is past the last target; a turn
        // whose target was struck on the old line is dropped.
        while self.turns.first().is_some_and(|t| t.after < self.struck) {
            self.turns.remove(0);
        }
        if let Some(t) = self.turns.first().copied()
            && self.turn_due(&t)
        {
            self.turns.remove(0);
            self.line = t.line;
            self.leg_start = self.index();
            self.veers_base = self.pose.veers;
            self.turned.push((self.leg_start, t.line));
            return Some(Event::Turn { line: t.line });
        }
        let (pose, cost) = match self.peek(board) {
            Ok(x) => x,
            Err(why) => return Some(self.end(EndReason::Blocked(why))),
        };
        if cost > self.left() {
            return Some(self.end(EndReason::Spent));
        }
        // The horse may only cross a stand it can ride off again.
        if let Some(i) = self.fig_at(pose.cell) {
            let mut beyond = self.clone();
            beyond.pose = pose;
            beyond.cells.push(pose.cell);
            beyond.spent += cost;
            beyond.crossable = None;
            match beyond.peek(board) {
                Ok((_, c2)) if c2 <= beyond.left() => self.queue.push(Event::Crossing { fig: i }),
                _ => {
                    let id = &self.figs[i].id;
                    return Some(self.end(EndReason::Blocked(format!(
                        "{id} stands in the way at {} and the horse cannot ride clear of it",
                        pose.cell
                    ))));
                }
            }
        }
        self.pose = pose;
        self.pose.veers = if matches!(self.line, Line::Veer(_)) {
            self.veers_base.saturating_add(1)
        } else {
            self.veers_base
        };
        self.spent += cost;
        self.cells.push(pose.cell);
        let index = self.index();
        self.meet(index);
        Some(Event::Entered {
            index,
            cell: pose.cell,
        })
    }

    /// Queues the strike points and the contacts due at the horse's present cell (path index
    /// `index`): the designated targets within the rider's reach, in order (C5), and every
    /// enemy newly touched (C6).
    fn meet(&mut self, index: usize) {
        let grid = self.mover.grid;
        let pose = self.pose;
        // C5: strike points of the designated targets, in order.
        while let Some(&t) = self.targets.get(self.struck) {
            if grid.distance(pose.cell, self.figs[t].cell) > self.reach {
                break;
            }
            let side = side_of(grid, pose.cell, self.dir(), self.figs[t].cell);
            self.strikes.push((t, index, side));
            self.struck += 1;
            self.crossable = Some(t);
            self.queue.push(Event::StrikePoint { target: t, side });
        }
        // C6: contacts, every enemy newly touched.
        let my_side = self.figs[self.me].side;
        let new: Vec<usize> = self
            .figs
            .iter()
            .enumerate()
            .filter(|(i, f)| {
                *i != self.me
                    && f.side != my_side
                    && !f.riderless_horse
                    && !f.out
                    && !self.touched.contains(i)
                    && grid.distance(f.cell, pose.cell) <= 1
            })
            .map(|(i, _)| i)
            .collect();
        for i in new {
            self.touched.push(i);
            self.contacts.push((i, index));
            self.queue.push(Event::Contact { fig: i });
        }
    }

    /// Looks again at the present cell after a figure moved as the horse closed (C5 TAC
    /// movement): a target that stepped within reach is struck now, a figure that stepped
    /// next to the horse is contacted now. True when something is due.
    pub fn recheck(&mut self) -> bool {
        if self.ended {
            return false;
        }
        let before = self.queue.len();
        self.meet(self.index());
        self.queue.len() > before
    }

    /// C6: releases the next designated target from the order when the horse, riding on as
    /// planned, would no longer come within reach of it (its TAC card took it out of the way,
    /// C5), so that the horse rides on to the one after. True when it was released.
    pub fn release_if_unreachable(&mut self, board: &Board) -> bool {
        let Some(&t) = self.targets.get(self.struck) else {
            return false;
        };
        let (probe, _) = dry_run(board, self.clone());
        if probe.strikes.iter().any(|s| s.0 == t) {
            return false;
        }
        self.released.push((t, self.index()));
        self.struck += 1;
        true
    }

    fn end(&mut self, why: EndReason) -> Event {
        self.ended = true;
        Event::End(why)
    }

    /// True when events of the last cell are still to be read.
    pub fn has_pending(&self) -> bool {
        !self.queue.is_empty()
    }

    /// True once the charge has ended.
    pub fn ended(&self) -> bool {
        self.ended
    }
}

/// A charge planned without dice: where each designated target is struck, whom the horse
/// touches, where it ends, and the first rule it breaks, if any.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The first line.
    pub line: Line,
    /// The turns between targets (C6), empty for a charge on one straight line.
    pub turns: Vec<Turn>,
    /// Where each new leg began: (path index, line).
    pub legs: Vec<(usize, Line)>,
    /// The cells, start first.
    pub cells: Vec<Cell>,
    /// Strike points: (target figure index, path index, side).
    pub strikes: Vec<(usize, usize, Side)>,
    /// Contacts: (figure index, path index).
    pub contacts: Vec<(usize, usize)>,
    /// How it ends.
    pub end: EndReason,
}

/// Rides `walker` to its end without dice (every contact slows the mount, C6) and checks the
/// C5/C6 rules for its designated targets: each reached, after at least 2" of run since the
/// start or the previous strike, with the 3"/6" spacing.
pub fn plan(board: &Board, walker: Walker) -> Result<Plan, PlanRefusal> {
    plan_ranked(board, walker).map_err(|(_, e)| e)
}

/// Rides `walker` to its end without dice, every contact slowing the mount (C6).
fn dry_run(board: &Board, mut walker: Walker) -> (Walker, EndReason) {
    let mut end = EndReason::Spent;
    while let Some(e) = walker.next(board) {
        match e {
            Event::Contact { .. } => walker.slow(),
            Event::End(r) => end = r,
            _ => {}
        }
    }
    (walker, end)
}

/// [`plan`], with the number of targets reached before the rule broken (to pick the most
/// telling refusal among lines).
fn plan_ranked(board: &Board, walker: Walker) -> Result<Plan, (usize, PlanRefusal)> {
    let (walker, end) = dry_run(board, walker);
    let contacts = walker.contacts.clone();
    let grid = walker.mover.grid;
    let mut last = 0;
    let mut prev: Option<(usize, Side)> = None;
    for (k, &(t, at, side)) in walker.strikes.iter().enumerate() {
        let id = &walker.figs[t].id;
        // The straight run before a strike starts at the previous strike or at the turn
        // onto this leg, whichever is later (C6).
        let leg = walker
            .turned
            .iter()
            .map(|&(i, _)| i)
            .filter(|&i| i < at)
            .max()
            .unwrap_or(0);
        if leg > last {
            if at - leg < RUN_BEFORE {
                return Err((
                    k,
                    PlanRefusal::new(
                        PlanRule::StraightRun,
                        format!(
                            "C6: the horse must run at least {RUN_BEFORE}\" straight after its \
                             turn before it reaches {id}; it would reach it after {}\"",
                            at - leg
                        ),
                    ),
                ));
            }
            last = leg;
        }
        if at - last < RUN_BEFORE {
            return Err((
                k,
                PlanRefusal::new(
                    PlanRule::StraightRun,
                    if k == 0 {
                        format!(
                            "C6: the horse must run at least {RUN_BEFORE}\" straight before it reaches \
                     {id}; it would reach it after {at}\""
                        )
                    } else {
                        format!(
                            "C6: the horse must run at least {RUN_BEFORE}\" straight between targets; \
                     {id} comes {}\" after the previous one",
                            at - last
                        )
                    },
                ),
            ));
        }
        if let Some((p, ps)) = prev {
            let present = walker.figs[p].cell;
            spacing_ok(grid, present, ps, walker.figs[t].cell, side).map_err(|e| {
                (
                    k,
                    PlanRefusal::new(
                        PlanRule::Spacing,
                        format!("{e} ({} then {id})", walker.figs[p].id),
                    ),
                )
            })?;
        }
        prev = Some((t, side));
        last = at;
    }
    // A designated target touched on a new leg needs the 2" of run too: a horse may not turn
    // back into the stand of the target it has just struck (C6).
    for &(f, at) in &walker.contacts {
        let Some(k) = walker.targets.iter().position(|&t| t == f) else {
            continue;
        };
        if let Some(leg) = walker
            .turned
            .iter()
            .map(|&(i, _)| i)
            .filter(|&i| i < at)
            .max()
            && at - leg < RUN_BEFORE
        {
            let id = &walker.figs[f].id;
            return Err((
                k.min(walker.struck.saturating_sub(1)),
                PlanRefusal::new(
                    PlanRule::StraightRun,
                    format!(
                        "C6: the horse must run at least {RUN_BEFORE}\" straight after its turn \
                         before it touches {id}; it would touch it after {}\"",
                        at - leg
                    ),
                ),
            ));
        }
    }
    if let Some(&t) = walker.targets.get(walker.struck) {
        let id = &walker.figs[t].id;
        let (rule, why) = match &end {
            EndReason::Blocked(b) => (PlanRule::Blocked, format!("the way is blocked: {b}")),
            _ => (
                PlanRule::Missed,
                format!(
                    "riding {} the horse never comes within its rider's reach ({} cell{})",
                    walker.line.words(),
                    walker.reach,
                    if walker.reach == 1 { "" } else { "s" }
                ),
            ),
        };
        return Err((
            walker.struck,
            PlanRefusal::new(rule, format!("C6: the charge cannot reach {id}: {why}")),
        ));
    }
    Ok(Plan {
        line: walker.start_line,
        turns: Vec::new(),
        legs: walker.turned,
        cells: walker.cells,
        strikes: walker.strikes,
        contacts,
        end,
    })
}

/// Everything needed to plan one figure's charge.
#[derive(Clone, Debug)]
pub struct Charger {
    /// Step rules at the charge gait.
    pub mover: Mover,
    /// Where it starts.
    pub pose: Pose,
    /// The half-move allowance at the charge gait.
    pub allowance: Mp,
    /// Its index among the figures.
    pub me: usize,
    /// The rider's strike distance in cells.
    pub reach: i32,
}

impl Charger {
    /// A walker for this charger along `line` against `targets`.
    pub fn walker(&self, figs: &[Fig], line: Line, targets: &[usize]) -> Walker {
        Walker::new(
            self.mover.clone(),
            line,
            self.pose,
            self.allowance,
            figs.to_vec(),
            self.me,
        )
        .against(targets.to_vec(), self.reach)
    }
}

/// C1: a target list names enemies (never horses, A18), each once, each in sight.
pub fn check_targets(
    board: &Board,
    figs: &[Fig],
    me: usize,
    targets: &[usize],
) -> Result<(), String> {
    if targets.is_empty() {
        return Err("C1: a charge names at least one target (or declare no charge)".into());
    }
    let mine = &figs[me];
    for (k, &t) in targets.iter().enumerate() {
        let f = &figs[t];
        if t == me {
            return Err("C1: a figure cannot charge itself".into());
        }
        if targets[..k].contains(&t) {
            return Err(format!("C1: {} is named twice", f.id));
        }
        if f.riderless_horse {
            return Err(format!(
                "A18: {} is a riderless horse; horses are never enemies",
                f.id
            ));
        }
        if f.side == mine.side {
            return Err(format!("C1: {} is not an enemy", f.id));
        }
        if f.out {
            return Err(format!("C1: {} is down and out of the fight", f.id));
        }
        sight(board, mine.cell, f.cell).map_err(|e| format!("C1: {}: {e}", f.id))?;
    }
    Ok(())
}

/// Which refusal to report: the one that got furthest through the targets; at equal progress
/// a rule the charge breaks (C6's 2" run or 3"/6" spacing) before "never comes within reach",
/// which only says one line missed.
fn more_telling(best: Option<&(usize, PlanRefusal)>, k: usize, e: &PlanRefusal) -> bool {
    let missed = |m: &PlanRefusal| m.rule == PlanRule::Missed;
    best.is_none_or(|(b, be)| k > *b || (k == *b && missed(be) && !missed(e)))
}

/// Plans a charge against `targets` in order, on the first line (ahead, then the left and
/// right diagonals) that reaches them all by the rules; otherwise the most telling refusal.
///
/// *Our reading:* a target need not be within this half-move's run when the charge is
/// declared — it may ride to meet the charger (a mutual charge), and targets the horse does
/// not reach are released (C6). So a line whose geometry takes the horse past every target by
/// the rules is accepted even when its movement would run out first.
pub fn plan_charge(
    board: &Board,
    figs: &[Fig],
    c: &Charger,
    targets: &[usize],
) -> Result<Plan, PlanRefusal> {
    check_targets(board, figs, c.me, targets).map_err(|e| PlanRefusal::new(PlanRule::Target, e))?;
    let mut best: Option<(usize, PlanRefusal)> = None;
    let far = Mp::cells(4 * (board.width + board.height) as i64);
    for allowance in [c.allowance, far] {
        for line in Line::ALL {
            let mut w = c.walker(figs, line, targets);
            w.allowance = allowance;
            match plan_ranked(board, w) {
                Ok(p) => return Ok(p),
                Err((k, e)) => {
                    if more_telling(best.as_ref(), k, &e) {
                        best = Some((k, e));
                    }
                }
            }
        }
    }
    // No straight line will do: a charge that turns between its targets (C6).
    if targets.len() > 1 {
        for allowance in [c.allowance, far] {
            for line in Line::ALL {
                let mut budget = TURN_SEARCH_BUDGET;
                let mut w = c.walker(figs, line, targets);
                w.allowance = allowance;
                if let Some(p) = with_turns(board, &w, Vec::new(), &mut best, &mut budget) {
                    return Ok(p);
                }
            }
        }
    }
    Err(best.map_or_else(
        || PlanRefusal::new(PlanRule::Missed, "C6: no line reaches the targets"),
        |(_, e)| e,
    ))
}

/// True when a straight charge at `target` (ahead, or on a diagonal) reaches it within this
/// half-move's allowance, the target standing where it stands: the charge arrives rather than
/// falling short and being released (C6). [`plan_charge`] also accepts lines whose movement
/// runs out first (the target may ride to meet it); a player who wants the blow now asks this.
pub fn arrives_now(board: &Board, figs: &[Fig], c: &Charger, target: usize) -> bool {
    check_targets(board, figs, c.me, &[target]).is_ok()
        && Line::ALL
            .into_iter()
            .any(|line| plan_ranked(board, c.walker(figs, line, &[target])).is_ok())
}

/// How many charges with turns [`plan_charge`] tries for one first line before it gives up.
const TURN_SEARCH_BUDGET: usize = 600;

/// Depth-first search for the turns that carry `base` past every target by the rules: when the
/// charge fails at target `k`, try a turn after target `k - 1` (every line, the earliest point
/// first), and go on from the first that gets further. The first plan found is the one with the
/// earliest turns, so the same declaration always rides the same way.
fn with_turns(
    board: &Board,
    base: &Walker,
    turns: Vec<Turn>,
    best: &mut Option<(usize, PlanRefusal)>,
    budget: &mut usize,
) -> Option<Plan> {
    let w = base.clone().with_turns(turns.clone());
    let probe = dry_run(board, w.clone()).0;
    let k = match plan_ranked(board, w) {
        Ok(mut p) => {
            p.turns = turns;
            return Some(p);
        }
        Err((k, e)) => {
            if more_telling(best.as_ref(), k, &e) {
                *best = Some((k, e));
            }
            k
        }
    };
    if k == 0 || turns.iter().any(|t| t.after >= k) {
        return None;
    }
    // The line the horse rides when it has struck target k - 1.
    let at = probe
        .strikes
        .get(k - 1)
        .map_or(probe.index(), |&(_, i, _)| i);
    let line = probe
        .turned
        .iter()
        .rfind(|&&(i, _)| i <= at)
        .map_or(probe.start_line, |&(_, l)| l);
    let mut on = base.clone();
    on.line = line;
    let lines = on.turn_lines();
    let longest = probe.cells.len();
    for wait in 0..longest {
        for &l in &lines {
            if *budget == 0 {
                return None;
            }
            *budget -= 1;
            let mut next = turns.clone();
            next.push(Turn {
                after: k,
                wait,
                line: l,
            });
            let test = dry_run(board, base.clone().with_turns(next.clone())).0;
            if test.turned.len() <= turns.len() {
                // The turn never came: waiting longer will not help.
                continue;
            }
            if let Some(p) = with_turns(board, base, next, best, budget) {
                return Some(p);
            }
        }
    }
    None
}

/// The figures `me` could name in a charge (C1): its enemies still in the fight, never a
/// riderless horse.
pub fn enemies_of(figs: &[Fig], me: usize) -> impl Iterator<Item = usize> + '_ {
    let side = figs[me].side;
    figs.iter()
        .enumerate()
        .filter(move |(i, f)| *i != me && f.side != side && !f.riderless_horse && !f.out)
        .map(|(i, _)| i)
}

/// Every enemy figure (never a riderless horse) with whether `c` may charge it alone now, and
/// why not. `charger_ok` is the charger's own eligibility (mounted, trotting, not K1-bound):
/// when it fails, every target carries that reason ([`PlanRule::Charger`]).
pub fn target_list(
    board: &Board,
    figs: &[Fig],
    c: &Charger,
    charger_ok: &Result<(), String>,
) -> Vec<(usize, Result<(), PlanRefusal>)> {
    enemies_of(figs, c.me)
        .map(|i| {
            let r = match charger_ok {
                Err(e) => Err(PlanRefusal::new(PlanRule::Charger, e.clone())),
                Ok(()) => plan_charge(board, figs, c, &[i]).map(|_| ()),
            };
            (i, r)
        })
        .collect()
}
