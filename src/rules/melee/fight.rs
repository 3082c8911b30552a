//! The state of a melee as plain data: every figure that can fight (D13 data, its profile and
//! its combat state), the board, and the geometry of contact, reach and stand sides (D10–D12).
//!
//! Why one long file: the fight model is one data type read by every card check and by the
//! resolver; its geometry helpers (contact, reach, stand sides, speed) read the same fields and
//! would only import each other if split.

use super::tables::{Kind, Profile, Tables, WeaponStats, seed};
use crate::rules::board::{Board, Occupant, SHARED};
use crate::rules::gait::Gait;
use crate::rules::grid::{Cell, Dir, GridKind, StandShape, StandSide};
use crate::rules::mp::Mp;
use crate::rules::ruleset::{Encumbrance, PrepareSpellLimits, TroopType};
use serde::{Deserialize, Serialize};

use super::deck::TacCard;

/// Standing, on its knees, or flat on the ground.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Posture {
    /// On its feet.
    #[default]
    Standing,
    /// Knocked to its knees: 1 blow to regain its feet.
    Kneeling,
    /// Knocked down: 1 blow and 1–4 on a d6 to stand up.
    Prone,
}

/// Whether a figure is still in the fight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fallen {
    /// Fighting.
    #[default]
    Up,
    /// Body points at or under 0: out of the fight.
    Incapacitated,
    /// Dead.
    Dead,
}

/// Which weapon a figure holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Held {
    /// Its main (template) weapon.
    #[default]
    Main,
    /// Its sidearm (profile).
    Sidearm,
    /// Nothing: fists.
    Nothing,
}

/// Everything a fight changes about a figure, kept from card round to card round and from
/// turn to turn. `Default` is a fresh, armed, standing figure.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatState {
    /// Standing, kneeling or prone.
    pub posture: Posture,
    /// Card rounds of stun left: only PASSIVE SHIELD PARRY.
    pub stunned: u8,
    /// Staggered last round: −10% to hit this round.
    pub staggered: bool,
    /// Berserk (§6 FEROCITY).
    pub berserk: bool,
    /// A calmed berserk's stupor: a quarter of its capabilities.
    pub stupor: bool,
    /// Ids of the figures restraining it.
    pub restrained_by: Vec<String>,
    /// The figure it restrains.
    pub restraining: Option<String>,
    /// RESTRAINT openings: (against whom, card round made).
    pub openings: Vec<(String, u32)>,
    /// What it holds.
    pub held: Held,
    /// Its main weapon was dropped (disarmed, or dropped to draw another).
    pub main_lost: bool,
    /// Its main weapon broke.
    pub main_broken: bool,
    /// Its sidearm was dropped or broke.
    pub sidearm_lost: bool,
    /// Its shield is slung (not ready).
    pub shield_down: bool,
    /// Its shield shattered.
    pub shield_broken: bool,
    /// Its missile weapon needs a RELOAD.
    pub unloaded: bool,
    /// Missiles shot this turn.
    pub shots: u8,
    /// Played FIRE or RELOAD this melee phase (DRAW WEAPON then costs more).
    pub missile_used: bool,
    /// A spell is prepared.
    pub prepared: bool,
    /// PREPARE SPELL cards played towards the spell in hand (the `per_level` option: a spell
    /// needs as many as its level).
    #[serde(default)]
    pub preparations: u8,
    /// Its preparation was disturbed this turn: it prepares again only the following turn
    /// (the `lost_when_disturbed` option).
    #[serde(default)]
    pub prepare_barred: bool,
    /// Its blows were halved this phase for being caught preparing (the `halved_blows`
    /// option).
    #[serde(default)]
    pub blows_halved: bool,
    /// Friends this berserk has turned on (§6 FEROCITY: a failed calming); he treats them as
    /// enemies until he calms.
    #[serde(default)]
    pub turned_on: Vec<String>,
    /// The turn it last tried to calm a berserk friend (one try a turn).
    #[serde(default)]
    pub calm_turn: u32,
    /// Spells cast this turn.
    pub spells_cast: u8,
    /// Casting levels used this turn (MKL cap).
    pub spell_levels: u8,
    /// Its free ACTIVE SHIELD PARRY of the turn is used.
    pub asp_used: bool,
    /// Played CHARGE this turn (one per turn, D8).
    pub charged: bool,
    /// C7, C8: this rider (or mount) rode a movement charge this turn (C1–C6). Seed 003's
    /// rider table has a "Gallop" row (−20%) and a "Full Charge" row (−35%): the second is a
    /// charging steed's, a movement charge at the gallop; playing the CHARGE TAC card, which
    /// every galloping steed must (C8), is not one. Set by the ride, cleared as the next
    /// turn's charges are declared.
    #[serde(default)]
    pub rode_charge: bool,
    /// Has charged in this combat (animals may CLOSE after).
    pub charged_ever: bool,
    /// Tried HAMSTRING HORSE this turn.
    pub hamstring_tried: bool,
    /// PASSIVE SHIELD PARRY rounds in a row (D7).
    pub psp_streak: u8,
    /// The TAC card it plays for the TMM this melee phase.
    pub tac: Option<TacCard>,
    /// The card round it came into contact (0 = the TAC phase): later joiners attack.
    pub joined: u32,
    /// Out of the fight.
    pub fallen: Fallen,
    /// Body points below zero (for the dead threshold).
    pub below_zero: u16,
    /// A hamstrung horse: it cannot move again.
    pub hamstrung: bool,
    /// Its blows were already averaged for mixing weapon and hand-to-hand this phase.
    pub mixed_hands: bool,
    /// Free MOVE cards used this phase (agile beasts).
    pub free_moves: u8,
    /// Brought into contact by a MOVE card last round: may play a TAC card (§6, case 3).
    pub fresh_contact: bool,
    /// … and it was moved against, not the mover: RETREAT, RUN AWAY or STAND GROUND only.
    pub moved_against: bool,
    /// A mount's speed in this melee (slowed one category per contact, C8).
    pub melee_gait: Option<Gait>,
    /// C8: cells a steed at speed has run with its MOVE cards in this melee phase.
    #[serde(default)]
    pub melee_moved: u8,
    /// C8: degrees a steed at speed has turned in this melee phase (seed 004's rate limits
    /// the total, [`crate::rules::cavalry::melee_turn_limit`]).
    #[serde(default)]
    pub melee_turned: u16,
}

/// One figure in a fight.
#[derive(Clone, Debug)]
pub struct Fighter {
    /// Its id.
    pub id: String,
    /// Its side.
    pub side: u8,
    /// Its cell (a rider and its mount share it).
    pub cell: Cell,
    /// Facing (foot) or heading (mount; its rider faces the same way).
    pub facing: Dir,
    /// The stand it fights from: the mount's for a rider (D10).
    pub shape: StandShape,
    /// Stand size in tenths of an inch.
    pub stand_size: u8,
    /// Its own weight in lb.
    pub weight: u32,
    /// Dexterity.
    pub dex: u8,
    /// Armour class.
    pub armour: u8,
    /// Encumbrance.
    pub enc: Encumbrance,
    /// Main weapon name.
    pub weapon: String,
    /// Carries a shield.
    pub shield: bool,
    /// Fighting profile.
    pub profile: Profile,
    /// Blows left this melee phase.
    pub blows: u8,
    /// Blows per melee phase.
    pub blows_max: u8,
    /// Body points left (never below 0; see `below_zero`).
    pub body: i32,
    /// Full body points.
    pub body_max: i32,
    /// A rider's mount.
    pub mount: Option<usize>,
    /// A mount's rider.
    pub rider: Option<usize>,
    /// A mount's horse class.
    pub horse_class: Option<String>,
    /// A mount's gait in the last half-move (its rider's too).
    pub gait: Gait,
    /// The half-move allowance (TAC distances).
    pub move_basis: Mp,
    /// Named conditions (R1).
    pub conditions: Vec<String>,
    /// Its troop type: K2's melee modifiers (a mount's is `Horse`).
    pub troop: TroopType,
    /// What the fight has done to it.
    pub state: CombatState,
}

impl Fighter {
    /// A mount (it plays horse cards).
    pub fn is_mount(&self) -> bool {
        self.horse_class.is_some()
    }

    /// A rider on its mount.
    pub fn mounted(&self) -> bool {
        self.mount.is_some()
    }

    /// Still fighting.
    pub fn is_up(&self) -> bool {
        self.state.fallen == Fallen::Up
    }

    /// Men, humanoids and intelligent monsters.
    pub fn intelligent(&self) -> bool {
        matches!(self.profile.kind, Kind::Humanoid | Kind::Monster)
    }

    /// The weapon in its hand, if it holds one that is whole.
    pub fn in_hand<'t>(&self, t: &'t Tables) -> Option<&'t WeaponStats> {
        match self.state.held {
            Held::Main if !self.state.main_lost && !self.state.main_broken => {
                Some(t.weapon(&self.weapon))
            }
            Held::Sidearm if !self.state.sidearm_lost => {
                self.profile.sidearm.as_deref().map(|s| t.weapon(s))
            }
            _ => None,
        }
    }

    /// The name of the weapon in hand ("fists" if none).
    pub fn in_hand_name(&self) -> &str {
        match self.state.held {
            Held::Main if !self.state.main_lost && !self.state.main_broken => &self.weapon,
            Held::Sidearm if !self.state.sidearm_lost => {
                self.profile.sidearm.as_deref().unwrap_or("fists")
            }
            _ => "fists",
        }
    }

    /// A melee weapon in hand (not a missile weapon).
    pub fn melee_weapon<'t>(&self, t: &'t Tables) -> Option<&'t WeaponStats> {
        self.in_hand(t).filter(|w| !w.is_missile())
    }

    /// Its reach in cells (D11): the weapon's, and at least a pole arm's for the very tall (C5:
    /// a pole arm's 1/2" is contact on the 1" grid).
    pub fn reach(&self, t: &Tables) -> i32 {
        self.reach_with(self.melee_weapon(t))
    }

    /// [`Fighter::reach`] with its melee weapon already looked up.
    pub fn reach_with(&self, melee_weapon: Option<&WeaponStats>) -> i32 {
        melee_weapon.map_or(1, |w| w.reach())
    }

    /// A shield it can use now.
    pub fn shield_ready(&self) -> bool {
        self.shield && !self.state.shield_down && !self.state.shield_broken
    }

    /// Blows available to it this phase, a berserk's two extra included (§6).
    pub fn phase_blows(&self) -> u8 {
        let base = if self.state.stupor {
            (self.blows_max / 4).max(1)
        } else {
            self.blows_max
        };
        base + if self.state.berserk {
            seed::BERSERK_BLOWS
        } else {
            0
        }
    }
}

/// Figures by cell (see [`Fight::by_cell`]): a head index per cell and a chain through the
/// figures sharing it (a rider and its mount), each stored as index + 1.
#[derive(Clone, Debug)]
pub struct CellMap {
    w: i32,
    h: i32,
    head: Vec<u32>,
    next: Vec<u32>,
}

/// A melee: the board and every figure that can fight on it.
#[derive(Clone, Debug)]
pub struct Fight {
    /// Terrain and occupancy (kept in step as figures move).
    pub board: Board,
    /// Every figure that can fight.
    pub fighters: Vec<Fighter>,
    /// The side that won the initiative: the attacker of the TMM (D6).
    pub attacker: u8,
    /// The card round: 0 is the TAC phase.
    pub round: u32,
    /// Condition names the ruleset defines (spells need theirs, R1).
    pub conditions: Vec<String>,
    /// D6: the engagements that began in the first half-move, whose TMM attacker is the first
    /// initiative's winner; `None` when none did (or nobody recorded them).
    pub first_half: Option<FirstHalf>,
    /// K2's melee modifiers count on this fight's blows: set when a melee phase begins
    /// ([`super::flow::begin_phase`]); a movement charge (`rules::charge`) adds its own K2.
    pub melee_k2: bool,
    /// The ruleset's §6 PREPARE SPELL options.
    pub prepare: PrepareSpellLimits,
    /// Who stands where, for finding the figures near one without looking at every figure
    /// (`super::near`): kept in step by [`Fight::place`]; a figure moved by hand must be told
    /// with [`Fight::moved`].
    pub near: super::near::NearIndex,
}

/// D6: "step #1 initiative applying in those cases where contact was made in the first phase
/// of movement" — who won the first initiative, and which pairs of figures were engaged when
/// the first half-move ended.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FirstHalf {
    /// The side that won the turn's first initiative (D1).
    pub attacker: u8,
    /// Figure id pairs engaged at the end of the first half-move, each pair in id order and
    /// the pairs sorted ([`FirstHalf::new`]).
    pub pairs: Vec<(String, String)>,
}

impl FirstHalf {
    /// The first half-move's record: `pairs` put in id order, so that [`FirstHalf::engaged`]
    /// finds a pair by a binary search (every blow of a melee asks it: a walk of every pair
    /// made a round cost the square of the figures, issue 33 item 3).
    pub fn new(attacker: u8, pairs: Vec<(String, String)>) -> FirstHalf {
        let mut pairs: Vec<(String, String)> = pairs
            .into_iter()
            .map(|(a, b)| if a <= b { (a, b) } else { (b, a) })
            .collect();
        pairs.sort_unstable();
        pairs.dedup();
        FirstHalf { attacker, pairs }
    }

    /// Were `a` and `b` engaged at the end of the first half-move?
    pub fn engaged(&self, a: &str, b: &str) -> bool {
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        self.pairs
            .binary_search_by(|(x, y)| (x.as_str(), y.as_str()).cmp(&(lo, hi)))
            .is_ok()
    }
}

impl Fight {
    /// The TAC card a figure plays for the TMM: a mount's is its rider's.
    pub fn tac_of(&self, i: usize) -> Option<TacCard> {
        let f = &self.fighters[i];
        f.state
            .tac
            .or_else(|| f.rider.and_then(|r| self.fighters[r].state.tac))
    }

    /// The grid.
    pub fn grid(&self) -> GridKind {
        self.board.grid
    }

    /// The index of a figure by id (a binary search when the fighters are sorted by id, as
    /// the simulation builds them; a scan otherwise).
    pub fn index_of(&self, id: &str) -> Option<usize> {
        // Ids are short: a byte loop compares them faster than a call to `memcmp` (the same
        // order as `str::cmp`).
        fn cmp(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
            for (x, y) in a.iter().zip(b) {
                if x != y {
                    return x.cmp(y);
                }
            }
            a.len().cmp(&b.len())
        }
        match self
            .fighters
            .binary_search_by(|f| cmp(f.id.as_bytes(), id.as_bytes()))
        {
            Ok(k) => Some(k),
            Err(_) => self.fighters.iter().position(|f| f.id == id),
        }
    }

    /// The index of a figure given by reference (its place in `fighters`, else by id).
    pub fn position_of(&self, f: &Fighter) -> Option<usize> {
        let base = self.fighters.as_ptr() as usize;
        let at = f as *const Fighter as usize;
        let size = std::mem::size_of::<Fighter>();
        if at >= base && (at - base).is_multiple_of(size) {
            let k = (at - base) / size;
            if k < self.fighters.len() && std::ptr::eq(&self.fighters[k], f) {
                return Some(k);
            }
        }
        self.index_of(&f.id)
    }

    /// Figures still up and taking part (not a riderless horse), by cell: a map for finding
    /// neighbours without looking at every figure.
    pub fn by_cell(&self) -> CellMap {
        let (w, h) = (self.board.width.max(0), self.board.height.max(0));
        let mut m = CellMap {
            w,
            h,
            head: vec![0; (w * h) as usize],
            next: vec![0; self.fighters.len()],
        };
        for (i, f) in self.fighters.iter().enumerate() {
            if f.is_up() && !(f.is_mount() && f.rider.is_none()) && self.board.contains(f.cell) {
                let k = (f.cell.y * w + f.cell.x) as usize;
                m.next[i] = m.head[k];
                m.head[k] = i as u32 + 1;
            }
        }
        m
    }

    /// Enemies of `i` within `r` cells, found through a [`Fight::by_cell`] map.
    pub fn enemies_near(&self, map: &CellMap, i: usize, r: i32) -> Vec<usize> {
        let g = self.grid();
        let c = self.fighters[i].cell;
        let mut v = Vec::new();
        for dy in -r..=r {
            for dx in -r - 1..=r + 1 {
                let cc = Cell::new(c.x + dx, c.y + dy);
                if cc.x < 0 || cc.y < 0 || cc.x >= map.w || cc.y >= map.h || g.distance(c, cc) > r {
                    continue;
                }
                let mut k = map.head[(cc.y * map.w + cc.x) as usize];
                while k != 0 {
                    let j = k as usize - 1;
                    if self.hostile(i, j) {
                        v.push(j);
                    }
                    k = map.next[j];
                }
            }
        }
        v
    }

    /// The rider of a mount, or the figure itself: the unit that moves.
    pub fn unit_of(&self, i: usize) -> usize {
        self.fighters[i]
            .rider
            .filter(|&r| self.fighters[r].is_up() || self.fighters[r].mount == Some(i))
            .unwrap_or(i)
    }

    /// Weight of what bashes: a rider with its mount (D13).
    pub fn bash_weight(&self, i: usize) -> u32 {
        let f = &self.fighters[i];
        let other = f.mount.or(f.rider).map_or(0, |m| self.fighters[m].weight);
        f.weight + other
    }

    /// Distance in cells between two figures.
    pub fn distance(&self, a: usize, b: usize) -> i32 {
        self.grid()
            .distance(self.fighters[a].cell, self.fighters[b].cell)
    }

    /// Stands touching (D16): adjacent cells.
    pub fn in_contact(&self, a: usize, b: usize) -> bool {
        self.distance(a, b) == 1
    }

    /// The side of `def`'s stand that a figure at `from` faces (D10, D12).
    pub fn side_towards(&self, def: usize, from: Cell) -> StandSide {
        let d = &self.fighters[def];
        let g = self.grid();
        if g == GridKind::Square && (from.x - d.cell.x).abs() <= 1 && (from.y - d.cell.y).abs() <= 1
        {
            // Next to it: the direction is exact, no need for the general bearing.
            if let Some(dir) = g.dir_to_adjacent(d.cell, from) {
                return g.side_of(d.shape, d.facing, dir);
            }
        }
        g.side_facing(d.shape, d.cell, d.facing, from)
    }

    /// True when `b` lies within `a`'s frontal sides (D11: attacks only through them).
    pub fn in_front_of(&self, a: usize, b: usize) -> bool {
        self.side_towards(a, self.fighters[b].cell).is_frontal()
    }

    /// Enemies of `i` still up (a riderless horse is nobody's enemy). Walks every figure:
    /// where only those near count, [`Fight::enemies_within`] reads only the cells around.
    pub fn enemies(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.fighters.len()).filter(move |&j| self.is_enemy(i, j))
    }

    /// Is `j` one of [`Fight::enemies`] of `i`?
    pub fn is_enemy(&self, i: usize, j: usize) -> bool {
        let f = &self.fighters[j];
        self.hostile(i, j) && f.is_up() && !(f.is_mount() && f.rider.is_none())
    }

    /// Do `a` and `b` fight each other? Different sides, or a berserk and a friend he has
    /// turned on (§6 FEROCITY), either way round.
    pub fn hostile(&self, a: usize, b: usize) -> bool {
        let (fa, fb) = (&self.fighters[a], &self.fighters[b]);
        fa.side != fb.side
            || (!fa.state.turned_on.is_empty() && fa.state.turned_on.contains(&fb.id))
            || (!fb.state.turned_on.is_empty() && fb.state.turned_on.contains(&fa.id))
    }

    /// True when `a` touches the frontal side of an enemy `b` (D16: engaged).
    pub fn touches_front(&self, a: usize, b: usize) -> bool {
        self.in_contact(a, b) && self.in_front_of(b, a)
    }

    /// May `a` strike `b` with a weapon of `reach` cells (D11)?
    pub fn can_strike(&self, a: usize, b: usize, reach: i32) -> bool {
        let d = self.distance(a, b);
        (1..=reach).contains(&d) && self.in_front_of(a, b)
    }

    /// Touching, or within the longest reach (2) with a weapon that reaches and faces it.
    pub fn within_reach(&self, i: usize, j: usize, t: &Tables) -> bool {
        match self.distance(i, j) {
            1 => true,
            2 => {
                (self.fighters[i].reach(t) >= 2 && self.in_front_of(i, j))
                    || (self.fighters[j].reach(t) >= 2 && self.in_front_of(j, i))
            }
            _ => false,
        }
    }

    /// In melee: touching an enemy, or an enemy within its weapon's reach in front (D6).
    pub fn engaged(&self, i: usize, t: &Tables) -> bool {
        // `within_reach` holds only within 2 cells.
        self.fighters[i].is_up()
            && self
                .enemies_within(i, 2)
                .into_iter()
                .any(|j| self.within_reach(i, j, t))
    }

    /// A cell a figure can stand in: on the map, passable, empty.
    pub fn free(&self, c: Cell, mounted: bool) -> bool {
        self.board.contains(c)
            && self.board.terrain_at(c).multiplier(mounted).is_some()
            && self.board.occupant_at(c) == 0
    }

    /// Moves a figure (with its rider or mount) to `to`, keeping the board's occupancy. A
    /// cell that two sides shared ([`SHARED`], R4, C4) keeps the side still standing in it
    /// when one leaves; a cell entered where another side stands becomes shared.
    pub fn place(&mut self, i: usize, to: Cell, facing: Dir) {
        let from = self.fighters[i].cell;
        let side = self.fighters[i].side;
        let partner = self.fighters[i].mount.or(self.fighters[i].rider);
        for j in std::iter::once(i).chain(partner) {
            let old = self.fighters[j].cell;
            self.moved(j, old, to);
            self.fighters[j].cell = to;
            self.fighters[j].facing = facing;
        }
        if self.board.contains(from) && from != to {
            let k = self.board.index(from);
            self.board.occupant[k] = if self.board.occupant[k] == SHARED {
                self.standing_in(from)
            } else {
                0
            };
        }
        if self.board.contains(to) {
            let k = self.board.index(to);
            let here = self.board.occupant[k];
            self.board.occupant[k] = if here == 0 || here == side + 1 {
                side + 1
            } else {
                SHARED
            };
        }
    }

    /// Who stands in `c` by the fighters there: nobody (0), one side (its number + 1), or
    /// [`SHARED`].
    fn standing_in(&self, c: Cell) -> Occupant {
        self.fighters_within(c, 0)
            .into_iter()
            .map(|j| &self.fighters[j])
            .fold(0, |o, f| match o {
                0 => f.side + 1,
                o if o == f.side + 1 => o,
                _ => SHARED,
            })
    }

    /// The direction a figure dodges or is pushed: left is its shield side, right its sword
    /// side, back its rear (§6 DODGE).
    pub fn dodge_dir(&self, i: usize, d: super::deck::DodgeDir) -> Dir {
        let g = self.grid();
        let f = self.fighters[i].facing;
        let q = g.dirs() as i32 / 4;
        match d {
            super::deck::DodgeDir::Left => g.rotate(f, -q),
            super::deck::DodgeDir::Right => g.rotate(f, q),
            super::deck::DodgeDir::Back => g.rotate(f, g.dirs() as i32 / 2),
        }
    }

    /// Squared distance between cell centres, in thousandths (exact enough and deterministic).
    pub fn far(&self, a: Cell, b: Cell) -> i64 {
        let (ax, ay) = self.grid().center(a);
        let (bx, by) = self.grid().center(b);
        (((ax - bx).powi(2) + (ay - by).powi(2)) * 1000.0).round() as i64
    }
}

/// C8: a mount that moved at canter or faster plays only MOVE in melee.
pub fn at_speed(f: &Fighter) -> bool {
    f.is_mount() && f.state.melee_gait.unwrap_or(f.gait) >= Gait::Canter
}

/// A rider's or foot figure's speed for C7/C8: its mount's melee gait.
pub fn speed_of(fight: &Fight, i: usize) -> Gait {
    let f = &fight.fighters[i];
    let m = f.mount.map_or(f, |m| &fight.fighters[m]);
    m.state.melee_gait.unwrap_or(m.gait)
}

/// C7, C8: `i` (a rider, or a mount) is in a *full charge*: its steed rode a movement charge
/// this turn ([`CombatState::rode_charge`]) and is still at the gallop (each contact slows it
/// one category, C8). A steed that merely galloped is in the "Gallop" row, whatever TAC card
/// it plays.
pub fn full_charge(fight: &Fight, i: usize) -> bool {
    let f = &fight.fighters[i];
    let m = f.mount.map_or(f, |m| &fight.fighters[m]);
    (f.state.rode_charge || m.state.rode_charge) && speed_of(fight, i) == Gait::Gallop
}
