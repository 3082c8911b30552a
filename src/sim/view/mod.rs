//! The public state of the battle (I4): the board and every figure's visible state, the
//! units, and the actions-table rolls already made (they are in the log for everyone to read).
//!
//! It is what every player at the table may know, so the simulation sums a unit's risk
//! factor from it (the actions-table roll, I1) and the AI reads the game through it alone.
//! [`View::build`] reads only public components: positions, facings, gaits, wounds, troop
//! types and weapons. It never touches the dice (the future), face-down card choices or
//! undeclared charges, so the AI plays with exactly the information a human at the table has.
//! The tests check this by changing hidden state and comparing views and decisions.

mod kept;

pub use kept::{ViewCache, with_view};

use super::groups::Groups;
use super::table_rolls::{ActionRolls, RollEntry};
use crate::rules::board::Board;
use crate::rules::gait::Gait;
use crate::rules::grid::{Cell, Dir, GridKind, StandShape};
use crate::rules::melee::fight::Fallen;
use crate::rules::mp::{Frac, Mp};
use crate::rules::risk::weapon_range;
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

/// The public state of the battle, as every player sees it.
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
    /// Lines of sight already traced over the terrain.
    sight: SightMemo,
    /// Each side's enemy cells already sorted ([`View::enemy_cells`]).
    enemy_memo: SideMemo<Vec<Cell>>,
    /// Each side's enemies' reach already gathered ([`View::threats_to`]).
    threat_memo: SideMemo<std::sync::Arc<EnemyThreats>>,
}

/// The enemies of one side with how far each threatens ([`FigView::threat`]), sorted by cell,
/// and the farthest threat: "which enemies could strike this cell next turn" looks only at
/// the columns within that distance, instead of every figure of the view (issue 13's facing
/// asks it for each figure moved, and at 4096 figures a scan of them all for each was a
/// quarter of a side-turn).
#[derive(Debug, Default)]
pub struct EnemyThreats {
    by_cell: Vec<(Cell, i32)>,
    farthest: i32,
}

impl EnemyThreats {
    /// The cells of the enemies whose threat reaches `cell` (within their whole turn's move
    /// and their weapon's reach, I1).
    pub fn reaching(&self, grid: GridKind, cell: Cell) -> impl Iterator<Item = Cell> + '_ {
        let lo = self
            .by_cell
            .partition_point(|(c, _)| c.x < cell.x - self.farthest);
        self.by_cell[lo..]
            .iter()
            .take_while(move |(c, _)| c.x <= cell.x + self.farthest)
            .filter(move |(c, t)| grid.distance(cell, *c) <= *t)
            .map(|(c, _)| *c)
    }
}

/// What the view works out about each side's enemies, kept by side: [`View::enemy_cells`]
/// and [`View::threats_to`]. The AI asks for them for every figure it moves, and an enemy
/// moves only in its own half-move: at 4096 figures sorting the enemies' cells again for each
/// figure was a sixteenth of a side-turn (issue 15), and scanning every enemy for its threat a
/// quarter (issue 13). The kept view forgets a side's entries when one of its enemies moves,
/// falls or changes ([`View::forget_enemy_cells`]).
#[derive(Debug)]
struct SideMemo<T>(std::sync::Mutex<Vec<(u8, T)>>);

impl<T> Default for SideMemo<T> {
    fn default() -> SideMemo<T> {
        SideMemo(std::sync::Mutex::new(Vec::new()))
    }
}

impl<T: Clone> Clone for SideMemo<T> {
    fn clone(&self) -> SideMemo<T> {
        SideMemo(std::sync::Mutex::new(self.lock().clone()))
    }
}

impl<T: Clone> SideMemo<T> {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(u8, T)>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The entry kept for `side`, or the one `make` works out (then kept).
    fn get_or(&self, side: u8, make: impl FnOnce() -> T) -> T {
        let mut memo = self.lock();
        if let Some((_, v)) = memo.iter().find(|(s, _)| *s == side) {
            return v.clone();
        }
        let v = make();
        memo.push((side, v.clone()));
        v
    }

    /// Forgets every side's entry but `side`'s.
    fn keep_only(&self, side: u8) {
        self.lock().retain(|(s, _)| *s == side);
    }
}

/// Terrain-only sight ([`View::in_sight`]) already traced, by (from, to). The terrain never
/// changes in a game (the kept view forgets them if it does), and the AI asks the same lines
/// again for every member of a unit: at 4096 figures tracing them was a tenth of a side-turn.
#[derive(Debug, Default)]
struct SightMemo(std::sync::Mutex<std::collections::HashMap<(Cell, Cell), bool>>);

/// Lines kept at most; past it the memo starts afresh (what it answers never changes).
const SIGHT_MEMO_MAX: usize = 1 << 16;

impl Clone for SightMemo {
    fn clone(&self) -> SightMemo {
        SightMemo(std::sync::Mutex::new(self.lock().clone()))
    }
}

impl SightMemo {
    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<(Cell, Cell), bool>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
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

/// The components a figure's view is read from.
type FigQuery = (
    Entity,
    &'static FigureId,
    &'static SideId,
    &'static Position,
    &'static Facing,
    &'static Stand,
    &'static Troop,
    &'static Quality,
    &'static Weapon,
    &'static Body,
    &'static Rate,
    Option<&'static RidingOn>,
    Option<&'static CarriedBy>,
    (
        &'static Armour,
        &'static Blows,
        Option<&'static CombatStatus>,
    ),
);

/// One figure's row of [`FigQuery`], borrowed from the world.
struct Row<'w> {
    e: Entity,
    id: &'w str,
    weapon: &'w str,
    side: u8,
    cell: Cell,
    facing: Dir,
    stand: Stand,
    troop: TroopType,
    quality: Quality,
    body: Body,
    rate: Mp,
    mount: Option<Entity>,
    armour: u8,
    blows: u8,
    fallen: bool,
}

/// The row of a figure that can act, or `None` for a mount (it is read with its rider) and a
/// riderless horse (never an enemy, A18).
fn row_of<'w>(r: bevy::ecs::query::QueryItem<'w, 'w, FigQuery>) -> Option<Row<'w>> {
    if r.12.is_some() || r.6.0 == TroopType::Horse {
        return None;
    }
    Some(Row {
        e: r.0,
        id: &r.1.0,
        weapon: &r.8.0,
        side: r.2.0,
        cell: r.3.0,
        facing: r.4.0,
        stand: *r.5,
        troop: r.6.0,
        quality: *r.7,
        body: *r.9,
        rate: r.10.0,
        mount: r.11.map(|m| m.0),
        armour: r.13.0.0,
        blows: r.13.1.max,
        fallen: r.13.2.is_some_and(|c| c.0.fallen != Fallen::Up),
    })
}

/// Writes every field of `fv` but its unit from `row` and the figure's mount: strings are
/// copied only when they differ, so refreshing a view allocates nothing.
fn fill(fv: &mut FigView, row: &Row, world: &World, rules: &Ruleset) {
    let m = row.mount.and_then(|m| {
        let b = world.get::<Body>(m).copied()?;
        let st = world.get::<Stand>(m).copied()?;
        let f = world.get::<Facing>(m).map_or(row.facing, |f| f.0);
        let g = world.get::<GaitState>(m);
        let rest = world.get::<GallopStreak>(m).is_some_and(|s| s.must_rest);
        let r = world.get::<Rate>(m).map_or(Mp::ZERO, |r| r.0);
        Some((b, st, f, g, rest, r))
    });
    let reach = weapon_range(row.weapon);
    let (shape, facing, gait, must_rest, threat, mbody) = match &m {
        Some((b, st, f, g, rest, r)) => {
            let capable = g.map_or(&[Gait::Walk][..], |g| &g.capable[..]);
            (
                st.shape,
                *f,
                g.map_or(Gait::Walk, |g| g.gait),
                *rest,
                turn_move(rules, *r, capable) + reach,
                Some(*b),
            )
        }
        None => (
            row.stand.shape,
            row.facing,
            Gait::Walk,
            false,
            turn_move(rules, row.rate, &[Gait::Walk]) + reach,
            None,
        ),
    };
    let (ml, mm) = mbody.map_or((0, 0), |b| (b.left as u32, b.max as u32));
    if fv.id != row.id {
        row.id.clone_into(&mut fv.id);
    }
    if fv.weapon != row.weapon {
        row.weapon.clone_into(&mut fv.weapon);
    }
    fv.entity = row.e;
    fv.side = row.side;
    fv.cell = row.cell;
    fv.facing = facing;
    fv.shape = shape;
    fv.mounted = m.is_some();
    fv.troop = row.troop;
    fv.gait = gait;
    fv.hero = row.quality.hero;
    fv.raw = row.quality.raw;
    fv.hurt = row.body.left < row.body.max || ml < mm;
    fv.down = row.body.left == 0 || row.fallen;
    fv.body_left = row.body.left as u32 + ml;
    fv.body_max = row.body.max as u32 + mm;
    fv.threat = threat;
    fv.must_rest = must_rest;
    fv.armour = row.armour;
    fv.blows = row.blows;
}

/// Sets each unit's members (indices into `figs`, which is sorted by id) and each figure's
/// unit, reusing `groups`' memory. A figure listed in two units belongs to the later one.
fn link_groups(groups: &mut Vec<GroupView>, figs: &mut [FigView], units: &Groups) {
    groups.truncate(units.all().len());
    for f in figs.iter_mut() {
        f.group = None;
    }
    for (gi, g) in units.all().iter().enumerate() {
        if gi == groups.len() {
            groups.push(GroupView {
                name: String::new(),
                side: g.side,
                members: Vec::with_capacity(g.members.len()),
                start: 0,
            });
        }
        let gv = &mut groups[gi];
        if gv.name != g.name {
            g.name.clone_into(&mut gv.name);
        }
        gv.side = g.side;
        gv.start = g.members.len();
        gv.members.clear();
        for m in &g.members {
            if let Ok(i) = figs.binary_search_by(|f| f.id.as_str().cmp(m)) {
                gv.members.push(i);
                figs[i].group = Some(gi);
            }
        }
    }
}

impl View {
    /// Reads the public state of `world`.
    pub fn build(world: &mut World) -> View {
        let mut q = world.query::<FigQuery>();
        View::read(world, &mut q, &mut Vec::new())
    }

    /// Reads the public state of `world` with the query `q`, noting in `slot` where each
    /// figure's entity went.
    fn read(world: &World, q: &mut QueryState<FigQuery>, slot: &mut Vec<u32>) -> View {
        // Everything below only reads: the ruleset and the units are borrowed, not copied
        // (this runs before every AI order).
        let rules = &world.resource::<Rules>().0;
        let no_groups = Groups::default();
        let units = world.get_resource::<Groups>().unwrap_or(&no_groups);
        let mut figs = Vec::new();
        for r in q.iter(world).filter_map(row_of) {
            let mut fv = FigView {
                id: String::new(),
                entity: r.e,
                side: 0,
                group: None,
                cell: r.cell,
                facing: r.facing,
                shape: r.stand.shape,
                mounted: false,
                troop: r.troop,
                gait: Gait::Walk,
                weapon: String::new(),
                hero: false,
                raw: false,
                hurt: false,
                down: false,
                body_left: 0,
                body_max: 0,
                threat: 0,
                must_rest: false,
                armour: 0,
                blows: 0,
            };
            fill(&mut fv, &r, world, rules);
            figs.push(fv);
        }
        figs.sort_by(|a, b| a.id.cmp(&b.id));
        slot.clear();
        for (i, f) in figs.iter().enumerate() {
            let k = f.entity.index_u32() as usize;
            if slot.len() <= k {
                slot.resize(k + 1, u32::MAX);
            }
            slot[k] = i as u32;
        }
        let mut groups = Vec::new();
        link_groups(&mut groups, &mut figs, units);
        View {
            turn: world.resource::<TurnState>().turn,
            phase: *world.resource::<State<Phase>>().get(),
            grid: rules.grid,
            mounted_style: rules.mounted_style,
            board: world.resource::<Map>().0.clone(),
            figs,
            groups,
            rolls: world
                .get_resource::<ActionRolls>()
                .map(|r| r.0.clone())
                .unwrap_or_default(),
            sight: SightMemo::default(),
            enemy_memo: SideMemo::default(),
            threat_memo: SideMemo::default(),
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

    /// The cells of the enemies of `side` still in the fight ([`View::enemies`]), sorted.
    pub fn enemy_cells(&self, side: u8) -> Vec<Cell> {
        self.enemy_memo.get_or(side, || {
            let mut v: Vec<Cell> = self.enemies(side).map(|e| e.cell).collect();
            v.sort();
            v
        })
    }

    /// Forgets the enemy cells kept for every side but `side`: a figure of `side` moved, fell,
    /// rose or joined it.
    fn forget_enemy_cells(&self, side: u8) {
        self.enemy_memo.keep_only(side);
        self.threat_memo.keep_only(side);
    }

    /// The enemies of `side` still in the fight with how far each threatens, sorted by cell
    /// (kept until one of them moves, falls or changes).
    pub fn threats_to(&self, side: u8) -> std::sync::Arc<EnemyThreats> {
        self.threat_memo.get_or(side, || {
            let mut by_cell: Vec<(Cell, i32)> =
                self.enemies(side).map(|e| (e.cell, e.threat)).collect();
            by_cell.sort();
            let farthest = by_cell.iter().map(|x| x.1).max().unwrap_or(0);
            std::sync::Arc::new(EnemyThreats { by_cell, farthest })
        })
    }

    /// Sight blocked by terrain only ("in sight").
    pub fn in_sight(&self, a: Cell, b: Cell) -> bool {
        let mut memo = self.sight.lock();
        if let Some(&seen) = memo.get(&(a, b)) {
            return seen;
        }
        if memo.len() >= SIGHT_MEMO_MAX {
            memo.clear();
        }
        let seen = line_of_sight(&self.board, a, b, |_| false);
        memo.insert((a, b), seen);
        seen
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
