//! What the AI may know (I4): the board and every figure's visible state, the units, and the
//! actions-table rolls already made (they are in the log for everyone to read).
//!
//! [`View::build`] is the only place the AI reads the game world, and it reads only public
//! components: positions, facings, gaits, wounds, troop types and weapons. It never touches
//! the dice (the future), face-down card choices or undeclared charges, so the AI plays with
//! exactly the information a human at the table has. The tests check this by changing hidden
//! state and comparing views and decisions.

use super::groups::{Group, Groups};
use super::roll::{ActionRolls, RollEntry};
use crate::rules::board::Board;
use crate::rules::gait::Gait;
use crate::rules::grid::{Cell, Dir, GridKind, StandShape};
use crate::rules::melee::fight::Fallen;
use crate::rules::mp::{Frac, Mp};
use crate::rules::ruleset::{MoveStyle, RatePer, Ruleset, TroopType};
use crate::rules::sight::line_of_sight;
use crate::sim::components::*;
use crate::sim::phase::{Phase, TurnState};
use crate::sim::world::{Map, Rules};
use bevy::prelude::*;

/// One figure as everybody at the table sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FigView {
    /// Its id (a rider's, for a mounted figure).
    pub id: String,
    /// The entity orders address (not secret: it only names the figure).
    pub entity: Entity,
    /// Side index.
    pub side: u8,
    /// Index of its unit in [`View::groups`].
    pub group: Option<usize>,
    /// Where it stands.
    pub cell: Cell,
    /// Facing, or the mount's heading.
    pub facing: Dir,
    /// Stand shape of what is touched (the mount's, when mounted).
    pub shape: StandShape,
    /// On a mount.
    pub mounted: bool,
    /// Troop type (K2).
    pub troop: TroopType,
    /// The mount's gait; `Walk` on foot.
    pub gait: Gait,
    /// Main weapon.
    pub weapon: String,
    /// A hero or leader (I1: -1; commands its unit for the stronger AI).
    pub hero: bool,
    /// Raw troops (I1).
    pub raw: bool,
    /// Rider or mount below full body points (I1 losses).
    pub hurt: bool,
    /// Out of the fight: the rider or figure on foot has no body points left.
    pub down: bool,
    /// Body points left, rider and mount together.
    pub body_left: u32,
    /// Full body points, rider and mount together.
    pub body_max: u32,
    /// Cells it could cover in a whole turn at its fastest gait, plus its weapon's reach: how
    /// far it threatens (I1 flank and rear).
    pub threat: i32,
    /// K1: it must walk this turn.
    pub must_rest: bool,
    /// Armour class of the rider or figure on foot.
    pub armour: u8,
    /// Blows per melee phase of the rider or figure on foot.
    pub blows: u8,
}

/// One unit as the AI sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupView {
    /// Its name.
    pub name: String,
    /// Side index.
    pub side: u8,
    /// Indices into [`View::figs`] of its members still on the board (down or not).
    pub members: Vec<usize>,
    /// Figures it started with (losses are counted against this).
    pub start: usize,
}

/// The public state of the battle, as one side's AI sees it.
#[derive(Clone, Debug)]
pub struct View {
    /// Turn number.
    pub turn: u32,
    /// Phase.
    pub phase: Phase,
    /// Squares or hexes.
    pub grid: GridKind,
    /// How mounts move (horse rules turn only at a walk, H3).
    pub mounted_style: MoveStyle,
    /// Terrain and occupancy.
    pub board: Board,
    /// Every figure that can act (riderless horses left out: they are never enemies, A18).
    pub figs: Vec<FigView>,
    /// Every unit.
    pub groups: Vec<GroupView>,
    /// Every actions-table roll so far (public: each one is in the log).
    pub rolls: Vec<RollEntry>,
}

impl PartialEq for View {
    fn eq(&self, o: &View) -> bool {
        self.turn == o.turn
            && self.phase == o.phase
            && self.board.occupant == o.board.occupant
            && self.figs == o.figs
            && self.groups == o.groups
            && self.rolls == o.rolls
    }
}

/// Our reading of a weapon's range in cells (I1 "within their weapons range"): missiles
/// reach far, pike and lance one cell beyond contact (D11: 1"), everything else contact.
pub fn weapon_range(weapon: &str) -> i32 {
    match weapon.to_ascii_lowercase().as_str() {
        "bow" | "longbow" | "crossbow" => 12,
        "shortbow" | "sling" => 9,
        "javelin" | "dart" | "darts" => 3,
        "pike" | "lance" => 2,
        _ => 1,
    }
}

/// True for a missile weapon (I3: such figures shoot).
pub fn is_missile(weapon: &str) -> bool {
    weapon_range(weapon) > 2
}

/// Cells a figure covers in a turn at its fastest gait (both half-moves).
fn turn_move(rules: &Ruleset, rate: Mp, gaits: &[Gait]) -> i32 {
    let fastest = gaits
        .iter()
        .filter_map(|&g| rules.gait_multiplier(g))
        .max_by(|a, b| (a.num as i128 * b.den as i128).cmp(&(b.num as i128 * a.den as i128)))
        .unwrap_or(Frac::int(1));
    let per_turn = match rules.rate_per {
        RatePer::Turn => rate,
        RatePer::HalfMove => rate + rate,
    };
    per_turn.scale(fastest).floor_cells() as i32
}

impl View {
    /// Reads the public state of `world`.
    pub fn build(world: &mut World) -> View {
        let mut q = world.query::<(
            Entity,
            &FigureId,
            &SideId,
            &Position,
            &Facing,
            &Stand,
            &Troop,
            &Quality,
            &Weapon,
            &Body,
            &Rate,
            Option<&RidingOn>,
            Option<&CarriedBy>,
            (&Armour, &Blows, Option<&CombatStatus>),
        )>();
        // Everything below only reads: the ruleset and the units are borrowed, not copied
        // (this runs before every AI order).
        let world: &World = world;
        let rules = &world.resource::<Rules>().0;
        let board = world.resource::<Map>().0.clone();
        let no_groups = Groups::default();
        let groups_res = world.get_resource::<Groups>().unwrap_or(&no_groups);
        let rolls = world
            .get_resource::<ActionRolls>()
            .map(|r| r.0.clone())
            .unwrap_or_default();
        let turn = world.resource::<TurnState>().turn;
        let phase = *world.resource::<State<Phase>>().get();
        let rows: Vec<_> = q
            .iter(world)
            .filter(|r| r.12.is_none() && r.6.0 != TroopType::Horse)
            .map(|r| {
                (
                    r.0,
                    r.1.0.clone(),
                    r.2.0,
                    r.3.0,
                    r.4.0,
                    *r.5,
                    r.6.0,
                    *r.7,
                    r.8.0.clone(),
                    *r.9,
                    r.10.0,
                    r.11.map(|m| m.0),
                    (r.13.0.0, r.13.1.max),
                    r.13.2.is_some_and(|c| c.0.fallen != Fallen::Up),
                )
            })
            .collect();
        // Each figure's unit, looked up once per figure rather than searched for.
        let group_of: std::collections::HashMap<&str, usize> = groups_res
            .0
            .iter()
            .enumerate()
            .flat_map(|(gi, g)| g.members.iter().map(move |m| (m.as_str(), gi)))
            .collect();
        let mut figs = Vec::with_capacity(rows.len());
        for (
            e,
            id,
            side,
            cell,
            facing,
            stand,
            troop,
            quality,
            weapon,
            body,
            rate,
            mount,
            (armour, blows),
            fallen,
        ) in rows
        {
            let m = mount.and_then(|m| {
                let b = world.get::<Body>(m).copied()?;
                let st = world.get::<Stand>(m).copied()?;
                let f = world.get::<Facing>(m).map_or(facing, |f| f.0);
                let g = world.get::<GaitState>(m).cloned();
                let rest = world.get::<GallopStreak>(m).is_some_and(|s| s.must_rest);
                let r = world.get::<Rate>(m).map_or(Mp::ZERO, |r| r.0);
                Some((b, st, f, g, rest, r))
            });
            let reach = weapon_range(&weapon);
            let (shape, facing, gait, must_rest, threat, mbody) = match &m {
                Some((b, st, f, g, rest, r)) => {
                    let capable = g.as_ref().map_or(vec![Gait::Walk], |g| g.capable.clone());
                    (
                        st.shape,
                        *f,
                        g.as_ref().map_or(Gait::Walk, |g| g.gait),
                        *rest,
                        turn_move(rules, *r, &capable) + reach,
                        Some(*b),
                    )
                }
                None => (
                    stand.shape,
                    facing,
                    Gait::Walk,
                    false,
                    turn_move(rules, rate, &[Gait::Walk]) + reach,
                    None,
                ),
            };
            let (ml, mm) = mbody.map_or((0, 0), |b| (b.left as u32, b.max as u32));
            figs.push(FigView {
                group: group_of.get(id.as_str()).copied(),
                id,
                entity: e,
                side,
                cell,
                facing,
                shape,
                mounted: m.is_some(),
                troop,
                gait,
                weapon,
                hero: quality.hero,
                raw: quality.raw,
                hurt: body.left < body.max || ml < mm,
                down: body.left == 0 || fallen,
                body_left: body.left as u32 + ml,
                body_max: body.max as u32 + mm,
                threat,
                must_rest,
                armour,
                blows,
            });
        }
        figs.sort_by(|a, b| a.id.cmp(&b.id));
        let groups = groups_res
            .0
            .iter()
            .map(|g: &Group| GroupView {
                name: g.name.clone(),
                side: g.side,
                members: g
                    .members
                    .iter()
                    .filter_map(|m| figs.binary_search_by(|f| f.id.as_str().cmp(m)).ok())
                    .collect(),
                start: g.members.len(),
            })
            .collect();
        View {
            turn,
            phase,
            grid: rules.grid,
            mounted_style: rules.mounted_style,
            board,
            figs,
            groups,
            rolls,
        }
    }

    /// The unit called `name`.
    pub fn group(&self, name: &str) -> Option<usize> {
        self.groups.iter().position(|g| g.name == name)
    }

    /// Members of unit `g` still in the fight.
    pub fn fighting(&self, g: usize) -> impl Iterator<Item = &FigView> + '_ {
        self.groups[g]
            .members
            .iter()
            .map(|&i| &self.figs[i])
            .filter(|f| !f.down)
    }

    /// Enemies of `side` still in the fight.
    pub fn enemies(&self, side: u8) -> impl Iterator<Item = &FigView> + '_ {
        self.figs.iter().filter(move |f| f.side != side && !f.down)
    }

    /// Sight blocked by terrain only ("in sight").
    pub fn in_sight(&self, a: Cell, b: Cell) -> bool {
        line_of_sight(&self.board, a, b, |_| false)
    }

    /// Sight blocked by terrain or by any figure in between ("clear sight").
    pub fn clear_sight(&self, a: Cell, b: Cell) -> bool {
        line_of_sight(&self.board, a, b, |c| self.board.occupant_at(c) != 0)
    }

    /// Distance in cells.
    pub fn dist(&self, a: Cell, b: Cell) -> i32 {
        self.grid.distance(a, b)
    }

    /// The enemy nearest to unit `g` (measured figure to nearest figure, I3), and the
    /// distance; ties go to the lower id. With `visible`, only enemies some member sees.
    pub fn nearest_enemy(&self, g: usize, visible: bool) -> Option<(usize, i32)> {
        let side = self.groups[g].side;
        let mine: Vec<Cell> = self.fighting(g).map(|f| f.cell).collect();
        let mut cands: Vec<(i32, usize)> = self
            .figs
            .iter()
            .enumerate()
            .filter(|(_, f)| f.side != side && !f.down)
            .filter_map(|(i, f)| {
                mine.iter()
                    .map(|&c| self.dist(c, f.cell))
                    .min()
                    .map(|d| (d, i))
            })
            .collect();
        cands.sort();
        cands
            .into_iter()
            .find(|&(_, i)| !visible || mine.iter().any(|&c| self.in_sight(c, self.figs[i].cell)))
            .map(|(d, i)| (i, d))
    }

    /// The last actions-table roll of a unit before the current turn.
    pub fn last_roll_before_now(&self, unit: &str) -> Option<&RollEntry> {
        self.rolls
            .iter()
            .rev()
            .find(|r| r.unit == unit && r.turn < self.turn)
    }

    /// The actions-table roll of a unit this turn, if it has rolled.
    pub fn roll_this_turn(&self, unit: &str) -> Option<&RollEntry> {
        self.rolls
            .iter()
            .rev()
            .find(|r| r.unit == unit && r.turn == self.turn)
    }
}
