//! The simulation side of movement: which entity moves, with what allowance, stopped where
//! (D16), and the allowance of every figure at the start of a half-move (D4, R1, A4, A7).

mod kept;

pub use kept::KeptFacts;

use super::components::*;
use super::phase::TurnState;
use super::world::{Map, Rules};
use crate::rules::allowance::half_move_allowance;
use crate::rules::gait::Gait;
use crate::rules::grid::{Cell, StandShape};
use crate::rules::movement::{Mover, MoverSpec, Pose};
use crate::rules::mp::{Frac, Mp};
use crate::rules::reach::{Reach, reachable};
use crate::rules::ruleset::{Condition, Encumbrance};
use bevy::prelude::*;

/// What the contact rule (D16) knows about a figure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactFacts {
    /// Entity that orders address (rider if mounted).
    pub entity: Entity,
    /// Side.
    pub side: u8,
    /// Cell.
    pub cell: Cell,
    /// Facing / heading.
    pub facing: crate::rules::grid::Dir,
    /// Stand shape of what touches (the mount's, when mounted).
    pub shape: StandShape,
    /// Stand size.
    pub size: u8,
    /// Weight of the figure (rider and mount together).
    pub weight: u32,
    /// Encumbrance.
    pub enc: Encumbrance,
}

/// How free a figure is to leave contact with an enemy's front (D16).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exemption {
    /// Not exempt: contact stops it.
    None,
    /// Outweighs the enemy by 50% or more: may move off, with a quarter of its allowance for
    /// evasive action (D4 "Loser … 1/4 movement allowance").
    Weight,
    /// Won the initiative, the enemy is more encumbered, or its stand is larger: free.
    Free,
}

/// D16: may `me` move while touching `enemy`'s front?
pub fn exemption(me: &ContactFacts, enemy: &ContactFacts, initiative: Option<u8>) -> Exemption {
    if initiative == Some(me.side) || enemy.enc > me.enc || me.size > enemy.size {
        Exemption::Free
    } else if me.weight as u64 * 2 >= enemy.weight as u64 * 3 {
        Exemption::Weight
    } else {
        Exemption::None
    }
}

/// True when `cell` touches a frontal side of `enemy` (D10, D16).
pub fn touches_front(grid: crate::rules::grid::GridKind, enemy: &ContactFacts, cell: Cell) -> bool {
    grid.distance(cell, enemy.cell) == 1
        && grid
            .side_facing(enemy.shape, enemy.cell, enemy.facing, cell)
            .is_frontal()
}

/// D14: the facing (heading) a figure had when its half-move began; every change of
/// direction in the half-move is priced against it ([`Pose::origin`]). Set by
/// [`start_half_move`].
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveOrigin(pub crate::rules::grid::Dir);

/// Everything needed to move one figure now.
pub struct MoveSetup {
    /// The entity orders name (rider if mounted).
    pub unit: Entity,
    /// The entity whose allowance and gait the move uses (the mount if mounted).
    pub mover_entity: Entity,
    /// Step rules.
    pub mover: Mover,
    /// Starting pose.
    pub pose: Pose,
    /// Movement usable now.
    pub left: Mp,
    /// Why it may not move at all, if so.
    pub blocked: Option<String>,
    /// The rule that cut `left` below what its allowance leaves (D16's evasive quarter), for
    /// a refusal of a step it cannot pay.
    pub limit: Option<(&'static str, &'static str)>,
}

/// Prepares a move for `unit` (rider or foot figure) on the current board.
pub fn setup_move(world: &mut World, unit: Entity) -> MoveSetup {
    let initiative = world.resource::<TurnState>().initiative;
    // D15, §6: a figure that is dead, out of the fight, restrained or on the ground goes
    // nowhere; the reach is empty and says why (the order would be refused for it too).
    let cannot_act = world
        .get::<FigureId>(unit)
        .map(|f| f.0.clone())
        .and_then(|id| super::melee::check_can_act(world, &id, false).err());
    let around = kept::around(world, unit, initiative);
    let world: &World = world;
    let rules = &world.resource::<Rules>().0;
    let mover_entity = world.get::<RidingOn>(unit).map_or(unit, |r| r.0);
    let mounted = mover_entity != unit || world.get::<GaitState>(unit).is_some();
    let me = around.me;
    let gait = world
        .get::<GaitState>(mover_entity)
        .map_or(Gait::Walk, |g| g.gait);
    let allowance = *world
        .get::<Allowance>(mover_entity)
        .expect("figures have an allowance");
    let side = world.get::<SideId>(unit).map_or(0, |s| s.0);
    let crawling = world.get::<Conditions>(unit).is_some_and(|c| {
        c.0.iter()
            .any(|n| rules.conditions.get(n).is_some_and(|x| x.crawling))
    });
    let asl_gallop = world
        .get::<AslHorse>(mover_entity)
        .is_some_and(|h| h.galloping);
    let pos = world.get::<Position>(unit).map_or(Cell::new(0, 0), |p| p.0);
    let facing = world
        .get::<Facing>(mover_entity)
        .map_or(crate::rules::grid::Dir(0), |f| f.0);
    let diag = world.get::<Diagonal>(mover_entity).and_then(|d| d.0);
    let veers = world.get::<VeersThisTurn>(mover_entity).map_or(0, |v| v.0);
    let mut left = allowance.left;
    let mut blocked = None;
    let mut limit = None;
    if let Some(me) = me {
        // Starting in contact with an enemy's front (D16, D4).
        for enemy in &around.touching {
            match exemption(&me, enemy, initiative) {
                Exemption::Free => {}
                Exemption::Weight => {
                    limit = Some((
                        "D16",
                        "touching an enemy's front, a figure that outweighs it by 50% may move \
                         off with only 1/4 of its half-move allowance (evasive action)",
                    ));
                    let spent = allowance.basis - allowance.left;
                    left = left
                        .min(allowance.basis.scale(Frac::new(1, 4)) - spent)
                        .max(Mp::ZERO);
                }
                Exemption::None => {
                    blocked = Some(format!(
                        "D16: it touches the front of an enemy at {} and may not move away \
                         (it did not win the initiative, does not outweigh it by 50%, the \
                         enemy is not more encumbered and its stand is not larger)",
                        enemy.cell
                    ));
                    left = Mp::ZERO;
                }
            }
        }
    }
    // A18: a riderless horse moves only when a unit leads it (`sim::cavalry`).
    if world
        .get::<Troop>(unit)
        .is_some_and(|t| t.0 == crate::rules::ruleset::TroopType::Horse)
        && world.get::<CarriedBy>(unit).is_none()
    {
        blocked =
            Some("A18: a riderless horse moves only when a unit leads it (Lead order)".into());
        left = Mp::ZERO;
    }
    if let Some(why) = cannot_act {
        blocked = Some(why.0);
        left = Mp::ZERO;
    }
    // D4: "no movement is possible while reloading" a crossbow shot in the fire phase.
    if blocked.is_none()
        && let Some(r) = world.get::<Reloading>(unit)
    {
        blocked = Some(format!(
            "D4: it reloads its {} (shot in the fire phase): no movement this half-move",
            r.0
        ));
        left = Mp::ZERO;
    }
    let map = &world.resource::<Map>().0;
    // D14: turns are priced against the facing the half-move began with.
    let origin = if allowance.used_any {
        world
            .get::<MoveOrigin>(mover_entity)
            .map_or(facing, |o| o.0)
    } else {
        facing
    };
    let rolls = crate::rules::chance::RollFacts::new(
        pos,
        me.map_or(0, |m| m.weight),
        around.dex,
        around.foes,
    );
    let mover = Mover::without_contacts(
        rules,
        map,
        MoverSpec {
            side: side + 1,
            mounted,
            gait,
            basis: allowance.basis,
            crawling,
            asl_gallop,
            stops: around.stops,
        },
    )
    .with_home(pos)
    .with_contacts(around.contacts)
    .with_moved_before(allowance.used_any)
    .with_rolls(rolls);
    let pose = Pose {
        cell: pos,
        facing,
        diag,
        veers: if gait == Gait::Gallop { veers } else { 0 },
        stopped: false,
        settled: false,
        origin: Some(origin),
    };
    // R1: a total at or below zero: the figure cannot move at all.
    if blocked.is_none() && allowance.basis <= Mp::ZERO {
        let names = world
            .get::<Conditions>(mover_entity)
            .map(|c| c.0.clone())
            .unwrap_or_default();
        let rate = world.get::<Rate>(mover_entity).map_or(Mp::ZERO, |r| r.0);
        if half_move_allowance(rules, rate, gait, conditions_of(rules, &names))
            .is_some_and(|t| t.paralysed && rate > Mp::ZERO && gait != Gait::Halt)
        {
            blocked = Some(format!(
                "R1: its movement total ({}) is zero or below after its conditions, \
                 percentages first, then flat amounts: it is paralysed and cannot move until \
                 a condition ends",
                names.join(", ")
            ));
        }
    }
    MoveSetup {
        unit,
        mover_entity,
        mover,
        pose,
        left,
        blocked,
        limit,
    }
}

/// `cells` sorted and without repeats, as [`Mover`] keeps its contact and stop cells: marked
/// in a bitmap over the board (in `Cell`'s order, column by column) and read back in order.
/// A move is set up for every figure, with up to eight cells for every enemy; sorting them
/// was the largest cost of an AI side-turn with thousands of figures.
fn sorted_cells(
    board: &crate::rules::board::Board,
    cells: impl Iterator<Item = Cell>,
) -> Vec<Cell> {
    let h = board.height.max(1) as usize;
    let mut bits = vec![0u64; (board.width.max(0) as usize * h).div_ceil(64)];
    let mut off_board = Vec::new();
    let mut any = false;
    for c in cells {
        if board.contains(c) {
            let i = c.x as usize * h + c.y as usize;
            bits[i / 64] |= 1 << (i % 64);
            any = true;
        } else {
            off_board.push(c);
        }
    }
    let mut out = Vec::new();
    if any {
        for (k, &word) in bits.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let i = k * 64 + w.trailing_zeros() as usize;
                out.push(Cell::new((i / h) as i32, (i % h) as i32));
                w &= w - 1;
            }
        }
    }
    if off_board.is_empty() {
        return out;
    }
    // Cells off the board (neighbours of a figure on its edge): few, sorted apart and merged.
    off_board.sort_unstable();
    off_board.dedup();
    let mut merged = Vec::with_capacity(out.len() + off_board.len());
    let (mut a, mut b) = (out.into_iter().peekable(), off_board.into_iter().peekable());
    while let (Some(x), Some(y)) = (a.peek(), b.peek()) {
        merged.push(if x < y { a.next() } else { b.next() }.expect("peeked"));
    }
    merged.extend(a);
    merged.extend(b);
    merged
}

/// The reachable area of a unit now.
pub fn reach_of(world: &mut World, unit: Entity) -> (MoveSetup, Reach) {
    let setup = setup_move(world, unit);
    let map = &world.resource::<Map>().0;
    let reach = reachable(map, &setup.mover, setup.pose, setup.left);
    (setup, reach)
}

/// The conditions of a figure, looked up in the ruleset.
pub fn conditions_of<'a>(
    rules: &'a crate::rules::ruleset::Ruleset,
    names: &[String],
) -> Vec<&'a Condition> {
    names
        .iter()
        .filter_map(|n| rules.conditions.get(n))
        .collect()
}

/// The allowance a figure starts a half-move with: its rate at its gait less its conditions
/// (H1, H2, R1), or an ASL horse's MF allotment (A7). Also what a counter shows before the
/// half-move begins, so the rule is written once.
pub fn fresh_allowance(
    rules: &crate::rules::ruleset::Ruleset,
    rate: Mp,
    gait: Gait,
    conditions: &[String],
    asl_horse: bool,
) -> Mp {
    if rules.asl.is_some() && asl_horse {
        return rate;
    }
    half_move_allowance(rules, rate, gait, conditions_of(rules, conditions))
        .map_or(Mp::ZERO, |t| t.total)
}

/// Computes the allowance of every figure for a new half-move (D4, H2, R1) and resets the
/// per-half-move bookkeeping. ASL: infantry 4 MF, horses 12 MF (A4, A7). A system run as a
/// half-move is entered, so its queries are kept from one half-move to the next; nothing is
/// written that does not change (the kept models read a write as a change).
pub fn start_half_move(
    rules: Res<Rules>,
    mut figures: Query<(
        &Rate,
        &mut Allowance,
        Option<&mut GaitState>,
        Option<&Conditions>,
        Option<&mut AslInfantry>,
        Option<&mut AslHorse>,
    )>,
    mut origins: Query<(Entity, &Facing, Option<&mut MoveOrigin>)>,
    mut commands: Commands,
) {
    let rules = &rules.0;
    for (rate, mut allowance, gait, conds, inf, horse) in figures.iter_mut() {
        let g = gait.as_ref().map_or(Gait::Walk, |g| g.gait);
        let names = Conditions::words_of(conds);
        let basis = fresh_allowance(rules, rate.0, g, names, horse.is_some());
        if let Some(asl) = rules.asl {
            if let Some(mut inf) = inf {
                inf.0 = crate::rules::asl::InfantryMf {
                    allot: asl.infantry_mf,
                    ..Default::default()
                };
            }
            if let Some(mut h) = horse {
                let allot = rate.0;
                h.mf = crate::rules::asl::HorseMf {
                    allot,
                    ..Default::default()
                };
                h.galloping = false;
            }
            if let Some(mut gs) = gait {
                // A Gallop is declared afresh each MPh (A10).
                if gs.gait == Gait::Gallop {
                    gs.gait = Gait::Walk;
                }
                if gs.at_half_start != gs.gait {
                    gs.at_half_start = gs.gait;
                }
            }
        } else if let Some(mut gs) = gait
            && gs.at_half_start != gs.gait
        {
            gs.at_half_start = gs.gait;
        }
        allowance.set_if_neq(Allowance {
            basis,
            left: basis,
            used_any: false,
        });
    }
    // D14: remember each figure's facing as its half-move begins.
    for (e, facing, origin) in origins.iter_mut() {
        match origin {
            Some(mut o) => {
                o.set_if_neq(MoveOrigin(facing.0));
            }
            None => {
                commands.entity(e).insert(MoveOrigin(facing.0));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::grid::GridKind;

    /// The bitmap gives what a sort and a dedup give, cells off the board included.
    #[test]
    fn sorted_cells_sorts_and_dedups_like_a_sort() {
        let board = crate::rules::melee::testkit::board(GridKind::Square, 7, 5);
        let mut seed = 12345u64;
        for round in 0..200 {
            let mut cells = Vec::new();
            for _ in 0..round % 40 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let x = (seed >> 33) as i32 % 11 - 2;
                let y = (seed >> 45) as i32 % 9 - 2;
                cells.push(Cell::new(x, y));
            }
            let mut want = cells.clone();
            want.sort();
            want.dedup();
            assert_eq!(
                sorted_cells(&board, cells.into_iter()),
                want,
                "round {round}"
            );
        }
    }
}
