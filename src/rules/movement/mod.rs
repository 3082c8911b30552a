//! One step of movement: what it costs and whether it is legal (D14, H3–H7, R3, R4, A10).
//!
//! The reachable-area search, the order validator and the brute-force test oracle all call
//! [`Mover::try_step`], so a path the search reports is exactly a path the validator accepts.
//!
//! Why one long file: the step rules of all three rulesets (squares and hexes, horses and foot,
//! ASL's movement factors) are checks on one [`Mover`], and each reads the same pose and
//! allowance; the search, the validator and the oracle must see them as one function.

use super::board::Board;
use super::chance::{Gamble, RollFacts, bash_chance};
use super::gait::Gait;
use super::grid::{Cell, Dir, GridKind};
use super::mp::{Frac, Mp, SCALE};
use super::ruleset::{FootTurn, HorseCosts, HorseTurning, MoveStyle, Ruleset};
use serde::{Deserialize, Serialize};

mod refusal;

pub use refusal::StepRefusal;

/// Left or right, for veers and the final adjustment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Hand {
    /// Anticlockwise.
    Left,
    /// Clockwise.
    Right,
}

impl Hand {
    /// Direction steps this hand turns by (one 45° or 60° step).
    pub fn sign(self) -> i32 {
        match self {
            Hand::Left => -1,
            Hand::Right => 1,
        }
    }
}

/// One movement step, as written in orders files and reported in paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Step {
    /// One cell straight ahead along the facing / heading.
    Forward,
    /// Mounts: one cell diagonally ahead (squares) or 60° off the heading (hexes) — H3, H4, H7.
    Veer(Hand),
    /// Turn in place by this many direction steps (+ clockwise). Foot: any turn, D14 costs;
    /// mounts: right angle (±2) or turn-around, walk only (H3, H7).
    Pivot(i8),
    /// Mounts: one cell straight back, walk only (H5).
    Back,
    /// Free movers (ASL, realms foot): one cell in any direction, no turning cost (13.3).
    Go(Dir),
    /// Ends the move with a free final facing: a mount's diagonal counter set to its heading
    /// or to the side it veered to (H6), or a foot figure's 45° reorientation after contact
    /// (D16).
    Settle(Dir),
}

/// Where a moving figure stands and what the rules remember about how it got there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pose {
    /// The cell it occupies.
    pub cell: Cell,
    /// Facing (foot) or heading (mounts).
    pub facing: Dir,
    /// Squares mounts only: the counter stands diagonally after a veer to this hand (H6).
    pub diag: Option<Hand>,
    /// Veers made at a gallop this turn (H4: at most two).
    pub veers: u8,
    /// No more steps this half-move: it met an enemy front (D16) or settled.
    pub stopped: bool,
    /// It took its free final adjustment (H6, D16); nothing more this half-move.
    #[serde(default)]
    pub settled: bool,
    /// D14: the facing the figure had when its half-move began. Seed 003 prices a change of
    /// direction by where the new direction lies relative to "the stand's original position",
    /// so every turn of a move is priced against this facing, never against the facing left
    /// by an earlier turn — which is what keeps a turn split in two from costing less than
    /// the single turn. `None` (an old saved pose): priced against the current facing.
    #[serde(default)]
    pub origin: Option<Dir>,
}

impl Pose {
    /// Where a failed roll leaves a figure that was at this pose: in the same cell and facing,
    /// stopped for the rest of the half-move (D17: "may continue moving only if the obstacle's
    /// bash fails"; R4: the loser stops before the cell).
    pub fn failed(&self) -> Pose {
        Pose {
            diag: None,
            stopped: true,
            settled: true,
            ..*self
        }
    }

    /// A figure standing at `cell` facing `facing`, nothing used yet.
    pub fn new(cell: Cell, facing: Dir) -> Pose {
        Pose {
            cell,
            facing,
            diag: None,
            veers: 0,
            stopped: false,
            settled: false,
            origin: Some(facing),
        }
    }
}

/// A figure about to move, with everything the step rules need precomputed.
#[derive(Clone, Debug)]
pub struct Mover {
    /// Squares or hexes.
    pub grid: GridKind,
    /// How it pays for turning.
    pub style: MoveStyle,
    /// Its side + 1 (board occupant code).
    pub side: u8,
    /// Gait this half-move.
    pub gait: Gait,
    /// The half-move allowance the D14 fractions are taken of.
    pub basis: Mp,
    /// D14 fractions.
    pub foot_turn: FootTurn,
    /// H3–H5 costs.
    pub horse: HorseCosts,
    /// Grid manoeuvres (H3–H7) or seed 004's supplement turning.
    pub horse_turning: HorseTurning,
    /// H4: veer limit for this move, when galloping.
    pub veer_limit: Option<u8>,
    /// Raw step multiplier by terrain id, `None` if it may not enter (R3, A10, crawling).
    pub mult: Vec<Option<i64>>,
    /// R4: multiplier floor in an ally's cell (difficult terrain).
    pub ally_mult: i64,
    /// D16: cells in contact with an enemy's front, where the figure must stop.
    pub stops: Vec<Cell>,
    /// Mounted (D17: too wide to squeeze).
    pub mounted: bool,
    /// D17: per terrain id, the weight (lb) of an obstacle of that terrain.
    pub obstacle: Vec<Option<u32>>,
    /// R4: hostile cells may be contested (the ruleset's `contest`).
    pub contest: bool,
    /// What the figure brings to rolls; `None`: chance steps are refused ([`RollFacts`]).
    pub rolls: Option<RollFacts>,
    /// Some terrain of the board is an obstacle (D17); else no step checks for squeezes.
    any_obstacle: bool,
    /// The cell the figure stands in as it starts this move. The board shows the figure as
    /// an occupant of its own cell, but "a figure controls its cell" (R4) only against
    /// others: stepping back into it is priced as any empty cell, never as an ally's.
    pub home: Option<Cell>,
    /// D16: cells touching an enemy (any side of it). A moving figure that comes into
    /// contact with an enemy may reorient up to 45° for free — whether the enemy's front
    /// stopped it or not (it held the initiative, or touched a rear and chose to stop).
    pub contacts: Vec<Cell>,
    /// It already moved earlier in this half-move (an earlier order), so standing in contact
    /// in its [`Mover::home`] cell it has "come into contact" while moving (D16).
    pub moved_before: bool,
    /// The ruleset is `asl` (an enemy-held hex is refused by A8 / D10a, not R4).
    pub asl: bool,
    /// An ASL horse galloping (A10): terrain marked `no_gallop` is closed to it.
    pub asl_gallop: bool,
}

/// The per-figure inputs to [`Mover::new`].
#[derive(Clone, Debug)]
pub struct MoverSpec {
    /// Side + 1.
    pub side: u8,
    /// Mounted (uses the mounted style and terrain column).
    pub mounted: bool,
    /// Current gait.
    pub gait: Gait,
    /// Half-move allowance basis for D14.
    pub basis: Mp,
    /// Crawling (R3).
    pub crawling: bool,
    /// ASL gallop: forbidden terrain (A10).
    pub asl_gallop: bool,
    /// D16 stop cells.
    pub stops: Vec<Cell>,
}

impl Mover {
    /// Builds a mover for `board` under `rules`, its D16 contact cells read from the board's
    /// occupants (every cell next to a hostile one).
    pub fn new(rules: &Ruleset, board: &Board, spec: MoverSpec) -> Mover {
        let mut mover = Mover::without_contacts(rules, board, spec);
        if mover.style == MoveStyle::FootFacing && rules.grid == GridKind::Square {
            // D16: every cell next to a hostile occupant. (Only a foot figure on squares has
            // a turn of 45° or less to make; see `free_facings`.)
            let mut contacts = Vec::new();
            for c in board.cells() {
                let o = board.occupant_at(c);
                if o != 0 && o != mover.side {
                    contacts.extend(rules.grid.neighbours(c).map(|(_, n)| n));
                }
            }
            sort_dedup(&mut contacts);
            mover.contacts = contacts;
        }
        mover
    }

    /// [`Mover::new`] without the contact cells, for a caller that sets them with
    /// [`Mover::with_contacts`] (the simulation): reading them from the board visits every
    /// cell, which at 512 × 512 cells was the largest cost of setting up a move.
    pub fn without_contacts(rules: &Ruleset, board: &Board, spec: MoverSpec) -> Mover {
        let style = rules.style(spec.mounted);
        let crawl = if spec.crawling {
            rules.crawl_cost
        } else {
            None
        };
        let mult = board
            .terrains
            .iter()
            .map(|t| {
                if spec.asl_gallop && t.no_gallop {
                    return None;
                }
                let m = t.multiplier(spec.mounted)?;
                Some(crawl.map_or(m, |c| m.max(c)).raw())
            })
            .collect();
        let mut stops = spec.stops;
        sort_dedup(&mut stops);
        Mover {
            grid: rules.grid,
            style,
            side: spec.side,
            gait: spec.gait,
            basis: spec.basis,
            foot_turn: rules.foot_turn,
            horse: rules.horse,
            horse_turning: rules.horse_turning,
            veer_limit: (style == MoveStyle::Horse && spec.gait == Gait::Gallop)
                .then_some(rules.horse.gallop_veers),
            mult,
            ally_mult: rules.ally_pass_cost.raw(),
            stops,
            mounted: spec.mounted,
            obstacle: board.terrains.iter().map(|t| t.obstacle).collect(),
            contest: rules.contest,
            rolls: None,
            any_obstacle: board.terrains.iter().any(|t| t.obstacle.is_some()),
            home: None,
            contacts: Vec::new(),
            moved_before: false,
            asl: rules.asl.is_some(),
            asl_gallop: spec.asl_gallop,
        }
    }

    /// This mover with what it brings to rolls, so that it may take chance steps. The
    /// facts' home is the mover's own cell ([`Mover::home`]).
    pub fn with_rolls(mut self, facts: RollFacts) -> Mover {
        self.home.get_or_insert(facts.home);
        self.rolls = Some(facts);
        self
    }

    /// This mover starting its move from `cell`: its own cell is priced as an empty one
    /// (R4 controls a cell against others only) and is not a place it "comes into" contact
    /// (D16).
    pub fn with_home(mut self, cell: Cell) -> Mover {
        self.home = Some(cell);
        self
    }

    /// D16: the cells where a moving figure counts as in contact with an enemy, replacing
    /// the ones [`Mover::new`] read from the board's occupants (the simulation leaves out
    /// riderless horses, which are never enemies, A18).
    pub fn with_contacts(mut self, mut cells: Vec<Cell>) -> Mover {
        if self.contacts.is_empty() && cells.is_empty() {
            return self;
        }
        if self.style == MoveStyle::FootFacing && self.grid == GridKind::Square {
            sort_dedup(&mut cells);
            self.contacts = cells;
        }
        self
    }

    /// This mover for a figure that already moved this half-move ([`Mover::moved_before`]).
    pub fn with_moved_before(mut self, moved: bool) -> Mover {
        self.moved_before = moved;
        self
    }

    /// This mover with [`Mover::home`] set to `start`'s cell if no caller set it: what a
    /// search or the oracle uses for a move from `start`.
    pub fn anchored(&self, start: &Pose) -> std::borrow::Cow<'_, Mover> {
        if self.home.is_some() {
            std::borrow::Cow::Borrowed(self)
        } else {
            std::borrow::Cow::Owned(self.clone().with_home(start.cell))
        }
    }

    /// True when some step of this mover could be a chance step (the search keeps rolled
    /// and unrolled poses apart only then).
    pub fn may_roll(&self) -> bool {
        self.rolls
            .as_ref()
            .is_some_and(|r| self.any_obstacle || (self.contest && !r.foes.is_empty()))
    }

    /// D17: stepping from `from` towards `d` passes between two obstacles when the cells 45°
    /// (squares) or 60° (hexes) either side of `d` are both obstacles. The obstacle it bashes
    /// is the lighter (its choice): its terrain id and weight.
    fn squeeze(&self, board: &Board, from: Cell, d: Dir) -> Option<(u8, u32)> {
        let mut best: Option<(u8, u32)> = None;
        for k in [-1, 1] {
            let c = self.grid.neighbour(from, self.grid.rotate(d, k));
            if !board.contains(c) {
                return None;
            }
            let t = board.terrain[board.index(c)];
            let w = self.obstacle.get(t as usize).copied().flatten()?;
            if best.is_none_or(|(_, bw)| w < bw) {
                best = Some((t, w));
            }
        }
        best
    }

    /// The chance step, if any, of a step from `pose` towards `d` that lands in `to` (at
    /// `hostile`'s Dexterity when `to` is a contested hostile cell), and its extra cost.
    #[inline]
    fn gamble(
        &self,
        board: &Board,
        pose: &Pose,
        d: Dir,
        to: Cell,
        hostile: Option<u8>,
    ) -> Result<Option<Gamble>, StepRefusal> {
        let squeeze = if self.any_obstacle {
            self.squeeze(board, pose.cell, d)
        } else {
            None
        };
        let gamble = match (squeeze, hostile) {
            (None, None) => return Ok(None),
            (Some(_), Some(_)) => return Err(StepRefusal::OneRoll),
            (Some(_), None) if self.mounted => return Err(StepRefusal::TooWide(to)),
            (Some((obstacle, weight)), None) => Gamble::Squeeze {
                obstacle,
                weight,
                bash: bash_chance(weight, self.rolls.as_ref().map_or(0, |r| r.weight)),
                cost: self.basis.scale(Frac::new(1, 4)),
            },
            (None, Some(theirs)) => Gamble::Contest {
                at: to,
                mine: self.rolls.as_ref().map_or(0, |r| r.dexterity),
                theirs,
            },
        };
        let Some(r) = &self.rolls else {
            return Err(StepRefusal::NeedsRoll(to));
        };
        if pose.cell != r.home && board.occupant_at(pose.cell) != 0 {
            return Err(StepRefusal::RollInCrowd(pose.cell));
        }
        Ok(Some(gamble))
    }

    /// The cost of entering `c` with a step whose open-ground cost is `base`, or why not.
    /// `named`: put the terrain's name in an `Impassable` refusal (a search does not read it
    /// and should not allocate it).
    #[inline(always)]
    fn enter(
        &self,
        board: &Board,
        c: Cell,
        base: Mp,
        named: bool,
    ) -> Result<(Mp, Option<u8>), StepRefusal> {
        if !board.contains(c) {
            return Err(StepRefusal::OffMap(c));
        }
        let i = board.index(c);
        let t = board.terrain[i] as usize;
        let Some(mut m) = self.mult.get(t).copied().flatten() else {
            let name = if named {
                board.terrains[t].name.clone()
            } else {
                String::new()
            };
            if self.asl_gallop && board.terrains[t].no_gallop {
                return Err(StepRefusal::NoGallop(c, name));
            }
            return Err(StepRefusal::Impassable(c, name));
        };
        let mut hostile = None;
        match board.occupant[i] {
            0 => {}
            // R4: its own cell (it stands there as the move starts) is neither an ally's nor a
            // hostile's, though an enemy shares it (`SHARED`): priced as any empty cell.
            _ if self.home == Some(c) => {}
            s if s == self.side => m = m.max(self.ally_mult),
            // R4: a hostile's cell only by a contest, passed at difficult-terrain cost.
            _ => match self.rolls.as_ref().filter(|_| self.contest) {
                Some(r) => match r.foe_at(c) {
                    Some(dex) => {
                        m = m.max(self.ally_mult);
                        hostile = Some(dex);
                    }
                    None => return Err(self.enemy_cell(c)),
                },
                None => return Err(self.enemy_cell(c)),
            },
        }
        // Whole multipliers (every shipped terrain) need no 128-bit division; the result is
        // the same exact product.
        if m % SCALE == 0
            && let Some(cost) = base.raw().checked_mul(m / SCALE)
        {
            return Ok((Mp::from_raw(cost), hostile));
        }
        Ok((base.mul_ratio(m, SCALE), hostile))
    }

    /// The refusal for a step into an enemy's cell: A8 / D10a in `asl`, R4 elsewhere.
    fn enemy_cell(&self, c: Cell) -> StepRefusal {
        if self.asl {
            StepRefusal::EnemyHex {
                at: c,
                cavalry: self.mounted,
            }
        } else {
            StepRefusal::Enemy(c)
        }
    }

    /// A step from `pose` that costs `cost` with only `left` to spend: the refusal naming the
    /// rule that prices it, or `limit` (the rule that cut the allowance: R1, D16) when given.
    pub fn too_dear(
        &self,
        board: &Board,
        pose: &Pose,
        step: Step,
        cost: Mp,
        left: Mp,
        limit: Option<(&'static str, &'static str)>,
    ) -> StepRefusal {
        let dear = |rule, why| StepRefusal::Dear {
            cost,
            left,
            rule,
            why,
        };
        if let Some((rule, why)) = limit {
            return dear(rule, why);
        }
        let supplement = self.horse_turning == HorseTurning::Supplement;
        let g = self.grid;
        let travel = match (self.style, step) {
            (MoveStyle::FootFacing, Step::Pivot(_)) => {
                return dear(
                    "D14",
                    "a change of direction costs 1/5 of the half-move allowance within the \
                     front (at least 1), 1/4 into the side, 1/2 into the rear, reckoned from \
                     the facing the move began with",
                );
            }
            (MoveStyle::Horse, Step::Pivot(_)) if supplement => {
                return dear(
                    "seed 004",
                    "cavalry turns 45° per quarter of its movement (per half at a gallop)",
                );
            }
            (MoveStyle::Horse, Step::Pivot(_)) => {
                return dear(
                    "H3",
                    "a right angle costs 3 and a turn around 4; the mount cannot execute a turn \
                     its allowance cannot pay",
                );
            }
            (MoveStyle::Horse, Step::Veer(h)) => {
                if g == GridKind::Hex && supplement {
                    return dear(
                        "seed 004",
                        "a veer turns the heading 60°: a step plus 60/45 of a quarter of the \
                         movement (of a half at a gallop)",
                    );
                }
                Some((
                    g.rotate(pose.facing, h.sign()),
                    "H3/H4",
                    "a veer costs 2 a cell",
                ))
            }
            (MoveStyle::Horse, Step::Back) => Some((
                g.rotate(pose.facing, g.about_steps() as i32),
                "H5",
                "backing up costs 2 a cell",
            )),
            (_, Step::Forward) => Some((pose.facing, "D4", "")),
            (MoveStyle::Free, Step::Go(d)) => Some((d, "D4", "")),
            _ => None,
        };
        let Some((d, rule, why)) = travel else {
            return StepRefusal::TooDear { cost, left };
        };
        let to = g.neighbour(pose.cell, d);
        if board.contains(to) {
            let i = board.index(to);
            if board.occupant[i] == self.side && self.home != Some(to) {
                return dear(
                    "R4",
                    "passing through an ally's cell costs as difficult terrain",
                );
            }
            if self.any_obstacle && self.squeeze(board, pose.cell, d).is_some() {
                return dear(
                    "D17",
                    "squeezing between two obstacles is a body bash: 1/4 of the half-move \
                     allowance on top of the step",
                );
            }
            let t = board.terrain[i] as usize;
            if self
                .mult
                .get(t)
                .copied()
                .flatten()
                .is_some_and(|m| m > SCALE)
            {
                return dear(
                    if self.asl {
                        "R3 (ASL cavalry column)"
                    } else {
                        "R3"
                    },
                    "the terrain entered multiplies the step's cost",
                );
            }
        }
        if why.is_empty() {
            dear(
                rule,
                "a figure moves at most its half-move allowance in a half-move",
            )
        } else {
            dear(rule, why)
        }
    }

    /// D14: the cost of a foot figure's change of direction whose new direction lies `k`
    /// direction steps from the facing it had when the move began (seed 003: "still to the
    /// original position's front" 1/5, "into the area covered by the side of the stand in its
    /// original position" 1/4, "into the rear of the stand's original position" 1/2). A new
    /// direction straight along the original facing is within its front (1/5).
    pub fn foot_turn_cost(&self, k: i32) -> Mp {
        let n = self.grid.dirs() as i32;
        let a = k.rem_euclid(n).min((-k).rem_euclid(n));
        let ft = &self.foot_turn;
        if a <= n / 8 || (self.grid == GridKind::Hex && a == 1) {
            self.basis.scale(ft.front).max(ft.minimum)
        } else if a <= n / 4 || (self.grid == GridKind::Hex && a == 2) {
            self.basis.scale(ft.side)
        } else {
            self.basis.scale(ft.rear)
        }
    }

    /// Seed 004's cavalry supplement: "Cavalry may turn 45° per ¼ of their movement, or per
    /// ½ move at Gallop". The price of a turn of `k` direction steps: a quarter (a half at a
    /// gallop) of the half-move allowance for every 45° of it, exactly.
    pub fn supplement_turn_cost(&self, k: i32) -> Mp {
        let degrees = k.unsigned_abs() as i64 * 360 / self.grid.dirs() as i64;
        let per = if self.gait == Gait::Gallop { 2 } else { 4 };
        self.basis.scale(Frac::new(degrees, 45 * per))
    }

    /// The facings a figure in `pose` may settle to for free (H6, D16), besides its own.
    pub fn settle_options(&self, pose: &Pose) -> Vec<Dir> {
        let (dirs, n) = self.free_facings(pose);
        dirs[..n].to_vec()
    }

    /// [`Mover::settle_options`] without allocating: the first `n` of the array.
    #[inline]
    pub fn free_facings(&self, pose: &Pose) -> ([Dir; 2], usize) {
        let g = self.grid;
        match (self.style, pose.diag) {
            (MoveStyle::Horse, Some(h)) => ([g.rotate(pose.facing, 2 * h.sign()), Dir(0)], 1),
            (MoveStyle::FootFacing, _)
                if g == GridKind::Square
                    && (self.moved_before || self.home != Some(pose.cell))
                    && (self.contacts.binary_search(&pose.cell).is_ok()
                        || self.stops.binary_search(&pose.cell).is_ok()) =>
            {
                ([g.rotate(pose.facing, -1), g.rotate(pose.facing, 1)], 2)
            }
            _ => ([Dir(0); 2], 0),
        }
    }

    /// Applies one step: the new pose and its cost, or the rule that forbids it. The
    /// allowance is not checked here (see [`Mover::try_step_within`]).
    pub fn try_step(
        &self,
        board: &Board,
        pose: &Pose,
        step: Step,
    ) -> Result<(Pose, Mp), StepRefusal> {
        match self.step(board, pose, step, true)? {
            (p, c, None) => Ok((p, c)),
            (p, _, Some(_)) => Err(StepRefusal::NeedsRoll(p.cell)),
        }
    }

    /// [`Mover::try_step`] that also takes chance steps (D17, R4): the pose and cost if the
    /// roll succeeds, and the [`Gamble`] to roll. A failed roll leaves the figure at
    /// [`Pose::failed`] having spent [`Gamble::fail_cost`].
    pub fn try_step_gamble(
        &self,
        board: &Board,
        pose: &Pose,
        step: Step,
    ) -> Result<(Pose, Mp, Option<Gamble>), StepRefusal> {
        self.step(board, pose, step, true)
    }

    /// [`Mover::try_step_gamble`] for searches (refusals without texts).
    #[inline]
    pub fn try_step_gamble_quiet(
        &self,
        board: &Board,
        pose: &Pose,
        step: Step,
    ) -> Result<(Pose, Mp, Option<Gamble>), StepRefusal> {
        self.step(board, pose, step, false)
    }

    /// [`Mover::try_step`] for searches: the same decision and cost, but an `Impassable`
    /// refusal carries an empty terrain name, so a refused step allocates nothing.
    #[inline]
    pub fn try_step_quiet(
        &self,
        board: &Board,
        pose: &Pose,
        step: Step,
    ) -> Result<(Pose, Mp), StepRefusal> {
        match self.step(board, pose, step, false)? {
            (p, c, None) => Ok((p, c)),
            (p, _, Some(_)) => Err(StepRefusal::NeedsRoll(p.cell)),
        }
    }

    /// The one implementation of a step; `named` as in `enter`. Inlined into both callers so
    /// that the search's copy drops the refusal texts it never reads.
    #[inline(always)]
    fn step(
        &self,
        board: &Board,
        pose: &Pose,
        step: Step,
        named: bool,
    ) -> Result<(Pose, Mp, Option<Gamble>), StepRefusal> {
        if pose.settled || (pose.stopped && !matches!(step, Step::Settle(_))) {
            return Err(StepRefusal::Stopped);
        }
        let g = self.grid;
        let mut next = *pose;
        let walkish = matches!(self.gait, Gait::Halt | Gait::Walk);
        // The direction of travel of a step that changes cells, and the hostile's Dexterity
        // when it enters a contested cell (R4).
        let mut travel = None;
        let mut hostile = None;
        let mut cost = match (self.style, step) {
            (_, Step::Settle(d)) => {
                let (free, n) = self.free_facings(pose);
                if d != pose.facing && !free[..n].contains(&d) {
                    return Err(StepRefusal::BadSettle(d));
                }
                next.facing = d;
                next.diag = None;
                next.stopped = true;
                next.settled = true;
                return Ok((next, Mp::ZERO, None));
            }
            (MoveStyle::Free, Step::Go(d)) => {
                next.cell = g.neighbour(pose.cell, d);
                next.facing = d;
                travel = Some(d);
                let (c, h) = self.enter(board, next.cell, Mp::ONE, named)?;
                hostile = h;
                c
            }
            (MoveStyle::Free, _) => {
                return Err(StepRefusal::WrongKind(
                    "13.3/R3: this figure has no facing (ASL, realms on foot): it moves with \
                     Go(direction) steps",
                ));
            }
            (_, Step::Go(_)) => {
                return Err(StepRefusal::WrongKind(
                    "D14/H3: this figure has a facing: it moves Forward and turns (Pivot, or a \
                     horse's Veer); only figures without facing (ASL, realms foot) use Go steps",
                ));
            }
            (_, Step::Forward) => {
                next.cell = g.neighbour(pose.cell, pose.facing);
                next.diag = None;
                travel = Some(pose.facing);
                let (c, h) = self.enter(board, next.cell, Mp::ONE, named)?;
                hostile = h;
                c
            }
            (MoveStyle::FootFacing, Step::Pivot(k)) => {
                let k = k as i32;
                if k == 0 || k.abs() > g.dirs() as i32 / 2 {
                    return Err(StepRefusal::BadPivot(k as i8));
                }
                next.facing = g.rotate(pose.facing, k);
                // D14: priced by where the new direction lies from the original facing.
                let origin = pose.origin.unwrap_or(pose.facing);
                self.foot_turn_cost(g.turn_between(origin, next.facing))
            }
            (MoveStyle::FootFacing, _) => {
                return Err(StepRefusal::WrongKind(
                    "D14: a foot figure moves forward and turns; veers and backing are for mounts",
                ));
            }
            (MoveStyle::Horse, Step::Veer(h)) => {
                if let Some(limit) = self.veer_limit
                    && pose.veers >= limit
                {
                    return Err(StepRefusal::VeerLimit(limit));
                }
                let d = g.rotate(pose.facing, h.sign());
                next.cell = g.neighbour(pose.cell, d);
                if self.veer_limit.is_some() {
                    next.veers = pose.veers.saturating_add(1);
                }
                match g {
                    GridKind::Square => next.diag = Some(h),
                    GridKind::Hex => next.facing = d,
                }
                travel = Some(d);
                if g == GridKind::Hex && self.horse_turning == HorseTurning::Supplement {
                    // Seed 004: a hex veer turns the heading 60°: a step ahead, plus the turn.
                    let (c, h) = self.enter(board, next.cell, Mp::ONE, named)?;
                    hostile = h;
                    c + self.supplement_turn_cost(1)
                } else {
                    let (c, h) = self.enter(board, next.cell, self.horse.veer, named)?;
                    hostile = h;
                    c
                }
            }
            (MoveStyle::Horse, Step::Pivot(k))
                if self.horse_turning == HorseTurning::Supplement =>
            {
                let k = k as i32;
                let n = g.dirs() as i32;
                // A heading stays on a grid line (N, E, S, W on squares).
                let unit = if g == GridKind::Square { 2 } else { 1 };
                if k == 0 || k.abs() > n / 2 || k % unit != 0 {
                    return Err(StepRefusal::HorsePivot {
                        k: k as i8,
                        hex: g == GridKind::Hex,
                        supplement: true,
                    });
                }
                next.facing = g.rotate(pose.facing, k);
                next.diag = None;
                self.supplement_turn_cost(k)
            }
            (MoveStyle::Horse, Step::Pivot(k)) => {
                if !walkish {
                    return Err(StepRefusal::NotAtThisGait("turning in place", self.gait));
                }
                let k = k as i32;
                let about = g.about_steps() as i32;
                let cost = if k.abs() == about {
                    self.horse.turn_around
                } else if k.abs() == g.right_angle_steps() as i32 {
                    self.horse.right_angle
                } else {
                    return Err(StepRefusal::HorsePivot {
                        k: k as i8,
                        hex: g == GridKind::Hex,
                        supplement: false,
                    });
                };
                next.facing = g.rotate(pose.facing, k);
                next.diag = None;
                cost
            }
            (MoveStyle::Horse, Step::Back) => {
                if !walkish {
                    return Err(StepRefusal::NotAtThisGait("backing up", self.gait));
                }
                let d = g.rotate(pose.facing, g.about_steps() as i32);
                next.cell = g.neighbour(pose.cell, d);
                next.diag = None;
                travel = Some(d);
                let (c, h) = self.enter(board, next.cell, self.horse.back_up, named)?;
                hostile = h;
                c
            }
        };
        let gamble = match travel {
            Some(d) if self.any_obstacle || hostile.is_some() => {
                self.gamble(board, pose, d, next.cell, hostile)?
            }
            _ => None,
        };
        if let Some(Gamble::Squeeze { cost: bash, .. }) = gamble {
            cost += bash; // D17: every body bash costs 1/4 of the half-move allowance.
        }
        if next.cell != pose.cell && self.stops.binary_search(&next.cell).is_ok() {
            next.stopped = true;
        }
        Ok((next, cost, gamble))
    }

    /// [`Mover::try_step`] that also refuses a step dearer than `left`.
    pub fn try_step_within(
        &self,
        board: &Board,
        pose: &Pose,
        step: Step,
        left: Mp,
    ) -> Result<(Pose, Mp), StepRefusal> {
        let (p, cost) = self.try_step(board, pose, step)?;
        if cost > left {
            return Err(self.too_dear(board, pose, step, cost, left, None));
        }
        Ok((p, cost))
    }

    /// Every step this figure could try from any pose (Settle excluded): the candidate set
    /// the search and the brute-force oracle both enumerate.
    pub fn candidate_steps(&self) -> Vec<Step> {
        let g = self.grid;
        match self.style {
            MoveStyle::Free => g.all_dirs().map(Step::Go).collect(),
            MoveStyle::FootFacing => {
                let half = g.dirs() as i8 / 2;
                let mut v = vec![Step::Forward];
                for k in 1..=half {
                    v.push(Step::Pivot(k));
                    if k != half {
                        v.push(Step::Pivot(-k));
                    }
                }
                v
            }
            MoveStyle::Horse => {
                let ra = g.right_angle_steps() as i8;
                let mut v = vec![
                    Step::Forward,
                    Step::Veer(Hand::Left),
                    Step::Veer(Hand::Right),
                ];
                if self.horse_turning == HorseTurning::Supplement {
                    // Seed 004: turns at any gait, a heading at a time.
                    let unit = if g == GridKind::Square { 2 } else { 1 };
                    let half = g.dirs() as i8 / 2;
                    let mut k = unit;
                    while k <= half {
                        v.push(Step::Pivot(k));
                        if k != half {
                            v.push(Step::Pivot(-k));
                        }
                        k += unit;
                    }
                    if matches!(self.gait, Gait::Halt | Gait::Walk) {
                        v.push(Step::Back);
                    }
                    return v;
                }
                // H3, H5: pivots and backing only at a stand or walk; at a trot or gallop they
                // are always refused, so they are not candidates.
                if matches!(self.gait, Gait::Halt | Gait::Walk) {
                    v.extend([
                        Step::Pivot(ra),
                        Step::Pivot(-ra),
                        Step::Pivot(g.about_steps() as i8),
                        Step::Back,
                    ]);
                }
                v
            }
        }
    }
}

/// Sorts `cells` and drops repeats; cells that already are (the simulation's kept contact
/// and stop cells come so) are only checked: sorting thousands of them again for every move
/// was a twentieth of an AI side-turn at the limits (issue 15).
fn sort_dedup(cells: &mut Vec<Cell>) {
    if !cells.is_sorted_by(|a, b| a < b) {
        cells.sort();
        cells.dedup();
    }
}
