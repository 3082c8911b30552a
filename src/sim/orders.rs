//! Orders: what a player (or the AI, or a script) asks a figure to do. Each is validated by the
//! rules and either applied whole or refused with a reason naming the rule, leaving the world
//! exactly as it was.

use super::components::*;
use super::log::GameLog;
use super::motion::setup_move;
use super::phase::{Phase, TurnState, log_line};
use super::world::{Map, Rules, Sides, find_figure, sync_occupancy};
use crate::rules::allowance::{activity_cost, carry_share, mount_cost};
use crate::rules::asl;
use crate::rules::gait::{Gait, check_gait_change};
use crate::rules::grid::{Cell, GridKind};
use crate::rules::movement::{Pose, Step};
use crate::rules::mp::{Frac, Mp};
use crate::rules::ruleset::{Activity, Encumbrance, Penalty, SteedSize, TroopType};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A typed order, as written in orders files (RON) and sent by the window and the AI.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Order {
    /// Move along a path of steps (D14, H3–H7); pivots and backing are steps too.
    Move {
        /// Figure id (a rider or a figure on foot).
        unit: String,
        /// The steps, in order.
        steps: Vec<Step>,
    },
    /// Change gait before moving this half-move (D5, K1, A10).
    SetGait {
        /// Figure id (rider or mount).
        unit: String,
        /// New gait.
        gait: Gait,
    },
    /// Mount a riderless steed next to the figure (same cell in `asl`) — D15, R2, A4.
    Mount {
        /// The figure on foot.
        unit: String,
        /// The steed's id.
        horse: String,
    },
    /// Get off the mount, onto `to` (an adjacent free cell) or the first free neighbour;
    /// `asl` riders stay in the hex (A2).
    Dismount {
        /// The rider.
        unit: String,
        /// Where to step down.
        #[serde(default)]
        to: Option<(i32, i32)>,
    },
    /// Spend movement on an activity (D15, R2).
    Activity {
        /// Figure id.
        unit: String,
        /// What it does.
        activity: Activity,
    },
    /// The side now moving ends its half-move (D4). In the TAC phase and the melee rounds:
    /// every figure still to choose passes for the rest of that melee phase.
    EndSide,
    /// A figure's face-down cards for the TAC phase or a melee card round (D6, D7): a TAC
    /// card (and the enemy it designates) and MELEE cards, paid for in blows.
    PlayCards {
        /// The figure (a rider, a figure on foot, or a mount's id for its horse cards).
        unit: String,
        /// A TAC card: every figure may play one in the TAC phase; in the card rounds only
        /// to join a melee (D8).
        #[serde(default)]
        tac: Option<crate::rules::melee::cards::TacCard>,
        /// The enemy the TAC card designates (FLECHE, CHARGE; CLOSE may name one).
        #[serde(default)]
        tac_target: Option<String>,
        /// MELEE cards, several if the blows pay for them; none is PASSIVE SHIELD PARRY.
        #[serde(default)]
        melee: Vec<crate::rules::melee::cards::MeleeCard>,
    },
    /// A figure's guess at the direction of an opponent's face-down DODGE (§6, D7).
    GuessDodge {
        /// The guessing figure.
        unit: String,
        /// The dodging figure.
        target: String,
        /// Left, Right or Back, by the dodger's own orientation.
        guess: crate::rules::melee::cards::DodgeDir,
    },
    /// A figure passes its choice this round (PASSIVE SHIELD PARRY, or the card D7 forces), or
    /// makes no guess at a dodge.
    Pass {
        /// The figure.
        unit: String,
    },
    /// An AI unit (a level group, or a figure in none) sums its risk factor and rolls on the
    /// actions table (I1, I2): once a turn, logged and replayed like every die.
    ActionRoll {
        /// The unit's name.
        unit: String,
    },
    /// D2/C1: a mounted figure's face-down charge orders — its targets in the order it will
    /// charge them. In `asl`, during the movement phase: a Charge against one enemy unit
    /// (A16).
    DeclareCharge {
        /// The rider (or its mount's id).
        unit: String,
        /// Enemy figure ids, in order.
        targets: Vec<String>,
    },
    /// D2/C1: a mounted figure's face-down "no charge".
    NoCharge {
        /// The rider (or its mount's id).
        unit: String,
    },
    /// C5: a charged figure's face-down answer as the horse closes: a TAC card and a MELEE
    /// card.
    AnswerCharge {
        /// The charged figure.
        unit: String,
        /// Its TAC card (STAND GROUND by default).
        tac: crate::rules::melee::cards::TacCard,
        /// Its MELEE card.
        reply: crate::rules::charge::ride::Reply,
    },
    /// A18: a unit takes a riderless horse (its own side's, or a captured one) on the lead;
    /// led horses move with it.
    Lead {
        /// The leading unit.
        unit: String,
        /// The horse.
        horse: String,
    },
    /// A18: a unit lets a led horse go; it stays where it is.
    Release {
        /// The leading unit.
        unit: String,
        /// The horse.
        horse: String,
    },
    /// A18 (ASL 13.7): a unit eliminates a horse it leads, as it would a support weapon.
    EliminateHorse {
        /// The leading unit.
        unit: String,
        /// The horse.
        horse: String,
    },
    /// A17 (`asl`): a Cavalry Wave — the units gallop at once and `charger` Charges `target`.
    CavalryWave {
        /// The units of the chain.
        units: Vec<String>,
        /// The unit that makes the wave's Charge.
        charger: String,
        /// The enemy it Charges.
        target: String,
    },
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Move { unit, steps } => write!(f, "move {unit} ({} steps)", steps.len()),
            Order::SetGait { unit, gait } => write!(f, "set gait of {unit} to {gait}"),
            Order::Mount { unit, horse } => write!(f, "{unit} mounts {horse}"),
            Order::Dismount { unit, to } => match to {
                Some((x, y)) => write!(f, "{unit} dismounts to ({x},{y})"),
                None => write!(f, "{unit} dismounts"),
            },
            Order::Activity { unit, activity } => write!(f, "{unit}: {activity:?}"),
            Order::EndSide => write!(f, "end of the side's half-move"),
            Order::PlayCards { unit, .. } => write!(f, "{unit} plays cards face down"),
            Order::GuessDodge { unit, target, .. } => {
                write!(f, "{unit} guesses {target}'s dodge")
            }
            Order::Pass { unit } => write!(f, "{unit} passes"),
            Order::ActionRoll { unit } => write!(f, "{unit} rolls on the actions table"),
            // Face down: a declaration and "no charge" read the same (D9).
            Order::DeclareCharge { unit, .. } | Order::NoCharge { unit } => {
                write!(f, "{unit} writes its charge orders face down")
            }
            Order::AnswerCharge { unit, .. } => write!(f, "{unit} answers the charge face down"),
            Order::Lead { unit, horse } => write!(f, "{unit} leads {horse}"),
            Order::Release { unit, horse } => write!(f, "{unit} lets {horse} go"),
            Order::EliminateHorse { unit, horse } => write!(f, "{unit} eliminates {horse}"),
            Order::CavalryWave {
                charger, target, ..
            } => {
                write!(f, "Cavalry Wave: {charger} charges {target}")
            }
        }
    }
}

/// Steps as short words a player reads in the log: `ahead ahead veer-right turn+90° back
/// to-E face-N`.
pub fn steps_text(grid: GridKind, steps: &[Step]) -> String {
    let step_deg = 360 / grid.dirs() as i32;
    steps
        .iter()
        .map(|s| match s {
            Step::Forward => "ahead".to_string(),
            Step::Veer(h) => format!("veer-{}", if h.sign() < 0 { "left" } else { "right" }),
            Step::Pivot(k) => format!("turn{:+}°", *k as i32 * step_deg),
            Step::Back => "back".to_string(),
            Step::Go(d) => format!("to-{}", grid.dir_name(*d)),
            Step::Settle(d) => format!("face-{}", grid.dir_name(*d)),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why an order was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Refusal(pub String);

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn refuse<T>(s: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal(s.into()))
}

/// Validates and applies one order. On refusal nothing in the world has changed.
pub fn apply_order(world: &mut World, order: &Order) -> Result<(), Refusal> {
    if let Some(r) = super::melee::pre_order(world, order) {
        return r;
    }
    if let Some(r) = super::charge::pre_order(world, order) {
        return r;
    }
    if let Some(r) = super::cavalry::pre_order(world, order) {
        return r;
    }
    let r = apply_order_inner(world, order);
    if r.is_ok() {
        super::melee::after_order(world, order);
        super::cavalry::after_order(world, order);
    }
    r
}

fn apply_order_inner(world: &mut World, order: &Order) -> Result<(), Refusal> {
    if let Order::ActionRoll { unit } = order {
        return crate::ai::roll::apply_action_roll(world, unit);
    }
    let phase = *world.resource::<State<Phase>>().get();
    if !phase.is_half_move() {
        return refuse(format!(
            "orders are given in the half-moves (D4); it is the {}",
            phase.label()
        ));
    }
    match order {
        Order::EndSide => end_side(world, phase),
        Order::PlayCards { .. } | Order::GuessDodge { .. } | Order::Pass { .. } => {
            refuse("D6/D7: cards are played only when a melee waits for them")
        }
        Order::ActionRoll { unit } => crate::ai::roll::apply_action_roll(world, unit),
        Order::DeclareCharge { .. }
        | Order::NoCharge { .. }
        | Order::AnswerCharge { .. }
        | Order::Lead { .. }
        | Order::Release { .. }
        | Order::EliminateHorse { .. }
        | Order::CavalryWave { .. } => refuse(format!(
            "this order is not given in the {} (D2: charges are declared after the initiative; \
             A16, A17, A18 in the movement phase)",
            phase.label()
        )),
        Order::Move { unit, steps } => {
            let e = own_unit(world, unit)?;
            do_move(world, e, unit, steps, phase)
        }
        Order::SetGait { unit, gait } => {
            let e = own_unit(world, unit)?;
            set_gait(world, e, unit, *gait, phase)
        }
        Order::Mount { unit, horse } => {
            let e = own_unit(world, unit)?;
            mount(world, e, unit, horse, phase)
        }
        Order::Dismount { unit, to } => {
            let e = own_unit(world, unit)?;
            dismount(world, e, unit, *to, phase)
        }
        Order::Activity { unit, activity } => {
            let e = own_unit(world, unit)?;
            activity_order(world, e, unit, *activity, phase)
        }
    }
}

/// Resolves an id to the entity orders act on (a mount's id means its rider), checking that
/// its side is the one moving (D4).
fn own_unit(world: &mut World, id: &str) -> Result<Entity, Refusal> {
    let Some(mut e) = find_figure(world, id) else {
        return refuse(format!("there is no figure {id:?}"));
    };
    if let Some(c) = world.get::<CarriedBy>(e) {
        e = c.0;
    }
    let side = world.get::<SideId>(e).map_or(0, |s| s.0);
    let turn = world.resource::<TurnState>();
    if turn.side_to_move() != Some(side) {
        let mover = turn
            .side_to_move()
            .map_or("nobody".into(), |s| side_name(world, s));
        return refuse(format!(
            "D4: it is {mover}'s half-move; {id} belongs to {}",
            side_name(world, side)
        ));
    }
    Ok(e)
}

fn side_name(world: &World, s: u8) -> String {
    world
        .resource::<Sides>()
        .0
        .get(s as usize)
        .map_or(format!("side {s}"), |x| x.name.clone())
}

fn log(world: &mut World, phase: Phase, text: String) {
    let turn = world.resource::<TurnState>().clone();
    log_line(
        &mut world.resource_mut::<GameLog>(),
        &turn,
        phase,
        text,
        None,
    );
}

fn do_move(
    world: &mut World,
    e: Entity,
    id: &str,
    steps: &[Step],
    phase: Phase,
) -> Result<(), Refusal> {
    if steps.is_empty() {
        return refuse("a move needs at least one step");
    }
    let setup = setup_move(world, e);
    if let Some(why) = setup.blocked {
        return refuse(why);
    }
    if let Some(g) = world.get::<GaitState>(setup.mover_entity)
        && world
            .get::<GallopStreak>(setup.mover_entity)
            .is_some_and(|s| s.must_rest)
        && g.gait > Gait::Walk
    {
        return refuse(
            "K1: it galloped two turns running and must walk this turn; set its gait to walk",
        );
    }
    if world
        .get::<GaitState>(setup.mover_entity)
        .is_some_and(|g| g.gait == Gait::Halt)
    {
        return refuse("H2: a halted mount has no movement; set a gait first (D5)");
    }
    let (pose, spent) = {
        let board = &world.resource::<Map>().0;
        let mut pose = setup.pose;
        let mut spent = Mp::ZERO;
        for (i, &s) in steps.iter().enumerate() {
            match setup
                .mover
                .try_step_within(board, &pose, s, setup.left - spent)
            {
                Ok((p, c)) => {
                    pose = p;
                    spent += c;
                }
                Err(why) => {
                    let g = setup.mover.grid;
                    return refuse(format!("step {} ({}): {why}", i + 1, steps_text(g, &[s])));
                }
            }
        }
        if pose.cell != setup.pose.cell && board.occupant_at(pose.cell) != 0 {
            return refuse(format!(
                "R4/D10a: {} is occupied; a figure may pass through an ally but not stop there",
                pose.cell
            ));
        }
        (pose, spent)
    };
    apply_pose(world, e, setup.mover_entity, &pose, setup.pose.cell);
    let mut a = world
        .get_mut::<Allowance>(setup.mover_entity)
        .expect("allowance");
    a.left -= spent;
    a.used_any = true;
    let left = a.left;
    if let Some(mut g) = world.get_mut::<GallopStreak>(setup.mover_entity)
        && setup.mover.gait == Gait::Gallop
    {
        g.galloped_this_turn = true;
    }
    if let Some(mut h) = world.get_mut::<AslHorse>(setup.mover_entity) {
        h.mf.used += spent;
    }
    if let Some(mut inf) = world.get_mut::<AslInfantry>(e)
        && setup.mover_entity == e
    {
        inf.0.spent += spent;
    }
    sync_occupancy(world);
    let grid = world.resource::<Rules>().0.grid;
    let stop = if pose.stopped && !matches!(steps.last(), Some(Step::Settle(_))) {
        " It meets an enemy's front and must stop (D16)."
    } else {
        ""
    };
    log(
        world,
        phase,
        format!(
            "{id} moves {} → {} facing {} [{}], cost {spent}, {left} left.{stop}",
            setup.pose.cell,
            pose.cell,
            grid.dir_name(pose.facing),
            steps_text(grid, steps)
        ),
    );
    Ok(())
}

fn apply_pose(world: &mut World, unit: Entity, mover: Entity, pose: &Pose, _from: Cell) {
    for ent in [unit, mover] {
        if let Some(mut p) = world.get_mut::<Position>(ent) {
            p.0 = pose.cell;
        }
        if let Some(mut f) = world.get_mut::<Facing>(ent) {
            f.0 = pose.facing;
        }
        if let Some(mut d) = world.get_mut::<Diagonal>(ent) {
            d.0 = if pose.stopped { None } else { pose.diag };
        }
    }
    if let Some(mut v) = world.get_mut::<VeersThisTurn>(mover) {
        v.0 = v.0.max(pose.veers);
    }
}

fn set_gait(
    world: &mut World,
    e: Entity,
    id: &str,
    gait: Gait,
    phase: Phase,
) -> Result<(), Refusal> {
    let Some(m) = world
        .get::<RidingOn>(e)
        .map(|r| r.0)
        .or_else(|| world.get::<GaitState>(e).map(|_| e))
    else {
        return refuse("H2: only mounts have gaits; a figure on foot walks");
    };
    let rules = world.resource::<Rules>().0.clone();
    let gs = world
        .get::<GaitState>(m)
        .expect("mounts have a gait")
        .clone();
    let a = *world.get::<Allowance>(m).expect("allowance");
    let streak = world.get::<GallopStreak>(m).copied().unwrap_or_default();
    if rules.asl.is_some() {
        return asl_gallop(world, m, id, gait, &gs, phase);
    }
    if a.used_any {
        return refuse("D5: a steed changes speed before it moves in a half-move");
    }
    check_gait_change(
        &gs.capable,
        gs.at_half_start,
        gait,
        phase.half(),
        streak.must_rest,
    )
    .map_err(|r| Refusal(r.to_string()))?;
    let rate = world.get::<Rate>(m).map_or(Mp::ZERO, |r| r.0);
    let total = crate::rules::allowance::half_move_allowance(&rules, rate, gait, [])
        .map_or(Mp::ZERO, |t| t.total);
    let mut g = world.get_mut::<GaitState>(m).expect("gait");
    g.gait = gait;
    *world.get_mut::<Allowance>(m).expect("allowance") = Allowance {
        basis: total,
        left: total,
        used_any: false,
    };
    log(
        world,
        phase,
        format!("{id} changes gait to {gait}: {total} to move this half-move (H2, D5)."),
    );
    Ok(())
}

/// A10: declaring a Gallop adds 8 MF at the start of the MPh, 4 during it, and exhausts the
/// horse; not while CX, not in marsh or water.
fn asl_gallop(
    world: &mut World,
    m: Entity,
    id: &str,
    gait: Gait,
    gs: &GaitState,
    phase: Phase,
) -> Result<(), Refusal> {
    let rules = world.resource::<Rules>().0.clone();
    let nums = rules.asl.expect("asl");
    if gait != Gait::Gallop {
        return refuse("A10: in ASL a horse either moves normally or declares a Gallop");
    }
    if gs.gait == Gait::Gallop {
        return refuse("A10: it has already declared a Gallop this MPh");
    }
    let h = *world.get::<AslHorse>(m).expect("asl horse");
    if h.cx {
        return refuse("A10: a Gallop may not be declared while the horse is exhausted (CX)");
    }
    let cell = world.get::<Position>(m).map_or(Cell::new(0, 0), |p| p.0);
    if world.resource::<Map>().0.terrain_at(cell).no_gallop {
        return refuse("A10: a Gallop may not be declared in marsh, deep stream or water");
    }
    let bonus = if h.mf.used > Mp::ZERO || h.mf.lost > Mp::ZERO {
        nums.gallop_during
    } else {
        nums.gallop_start
    };
    let mut hm = world.get_mut::<AslHorse>(m).expect("asl horse");
    hm.mf.allot += bonus;
    hm.galloping = true;
    hm.cx = true;
    let left = hm.mf.left();
    let allot = hm.mf.allot;
    world.get_mut::<GaitState>(m).expect("gait").gait = Gait::Gallop;
    let mut a = world.get_mut::<Allowance>(m).expect("allowance");
    a.basis = allot;
    a.left = left;
    log(
        world,
        phase,
        format!(
            "{id} declares a Gallop: +{bonus} MF, allotment {allot}, {left} MF available; the horse is CX (A10)."
        ),
    );
    Ok(())
}

fn mount(
    world: &mut World,
    e: Entity,
    id: &str,
    horse_id: &str,
    phase: Phase,
) -> Result<(), Refusal> {
    if world.get::<RidingOn>(e).is_some() {
        return refuse("A1: it is already mounted");
    }
    let Some(h) = find_figure(world, horse_id) else {
        return refuse(format!("there is no figure {horse_id:?}"));
    };
    if world.get::<GaitState>(h).is_none()
        || world
            .get::<Troop>(h)
            .is_none_or(|t| t.0 != TroopType::Horse)
    {
        return refuse(format!("{horse_id} is not a steed"));
    }
    if world.get::<CarriedBy>(h).is_some() {
        return refuse(format!("{horse_id} already carries a rider"));
    }
    let rules = world.resource::<Rules>().0.clone();
    let grid = rules.grid;
    let at = world.get::<Position>(e).expect("position").0;
    let hat = world.get::<Position>(h).expect("position").0;
    let asl_rules = rules.asl;
    let needed = if asl_rules.is_some() { 0 } else { 1 };
    if grid.distance(at, hat) != needed {
        return refuse(if needed == 0 {
            format!("A4: the horse must be in the same hex to be mounted ({hat} vs {at})")
        } else {
            format!("D15: the steed at {hat} must be next to the figure at {at}")
        });
    }
    let ra = *world.get::<Allowance>(e).expect("allowance");
    let ha = *world.get::<Allowance>(h).expect("allowance");
    let (rider_left, horse_left, text) = if let Some(nums) = asl_rules {
        let (inf2, hm2, c) = asl_exchange(world, e, h, nums.mount_mf)?;
        (
            inf2.left(),
            hm2.left(),
            format!(
                "{id} mounts {horse_id}: 1 MF, {} MF lost by the infantry, the horse loses {} MF and has {} left (A4).",
                c.infantry_lost,
                c.horse_lost,
                hm2.left()
            ),
        )
    } else {
        let cost = mount_cost_of(world, e, h)?;
        if cost > ra.left {
            return refuse(format!(
                "D15/R2: mounting costs {cost}; only {} left",
                ra.left
            ));
        }
        let rl = ra.left - cost;
        let hl = ha.left.min(carry_share(rl, ra.basis, ha.basis));
        (
            rl,
            hl,
            format!(
                "{id} mounts {horse_id} for {cost} of its move (D15/R2); the mount has {hl} left."
            ),
        )
    };
    world.get_mut::<Allowance>(e).expect("allowance").left = rider_left;
    let mut a = world.get_mut::<Allowance>(h).expect("allowance");
    a.left = horse_left;
    a.used_any = a.used_any || ra.used_any;
    world.entity_mut(e).insert(RidingOn(h));
    world.entity_mut(h).insert(CarriedBy(e));
    let hf = world.get::<Facing>(h).expect("facing").0;
    world.get_mut::<Position>(e).expect("position").0 = hat;
    world.get_mut::<Facing>(e).expect("facing").0 = hf;
    sync_occupancy(world);
    log(world, phase, text);
    Ok(())
}

/// A4: prices a (dis)mount of `e` on or off `h` and pays it on both; returns the infantry's
/// and the horse's MF after it, and the price.
fn asl_exchange(
    world: &mut World,
    e: Entity,
    h: Entity,
    mount_mf: Mp,
) -> Result<(asl::InfantryMf, asl::HorseMf, asl::AslMountCost), Refusal> {
    let mut inf = world.get::<AslInfantry>(e).expect("asl").0;
    let mut hm = world.get::<AslHorse>(h).expect("asl horse").mf;
    let c = asl::mount_or_dismount(&inf, &hm, mount_mf).map_err(|r| Refusal(r.to_string()))?;
    asl::pay(&mut inf, &mut hm, &c);
    world.get_mut::<AslInfantry>(e).expect("asl").0 = inf;
    world.get_mut::<AslHorse>(h).expect("asl horse").mf = hm;
    Ok((inf, hm, c))
}

/// D15 / R2 price of getting on or off `h` for rider `e`.
fn mount_cost_of(world: &World, e: Entity, h: Entity) -> Result<Mp, Refusal> {
    let rules = &world.resource::<Rules>().0;
    let ra = world.get::<Allowance>(e).expect("allowance");
    let species = species_rate(world, e);
    let enc = world
        .get::<Encumbered>(e)
        .map_or(Encumbrance::None, |x| x.0);
    let size = world
        .get::<SteedSizeOf>(h)
        .map_or(SteedSize::Large, |s| s.0);
    mount_cost(rules, ra.basis, species, enc, size)
        .ok_or_else(|| Refusal("no mounting rule in this ruleset".into()))
}

/// R2: the species rate of a half-move, before conditions.
fn species_rate(world: &World, e: Entity) -> Mp {
    let rules = &world.resource::<Rules>().0;
    let rate = world.get::<Rate>(e).map_or(Mp::ZERO, |r| r.0);
    match rules.rate_per {
        crate::rules::ruleset::RatePer::Turn => rate.scale(Frac::new(1, 2)),
        crate::rules::ruleset::RatePer::HalfMove => rate,
    }
}

fn dismount(
    world: &mut World,
    e: Entity,
    id: &str,
    to: Option<(i32, i32)>,
    phase: Phase,
) -> Result<(), Refusal> {
    let Some(h) = world.get::<RidingOn>(e).map(|r| r.0) else {
        return refuse("it is not mounted");
    };
    let rules = world.resource::<Rules>().0.clone();
    let grid = rules.grid;
    let at = world.get::<Position>(e).expect("position").0;
    let ra = *world.get::<Allowance>(e).expect("allowance");
    let ha = *world.get::<Allowance>(h).expect("allowance");
    let dest = if rules.asl.is_some() {
        at
    } else {
        let board = &world.resource::<Map>().0;
        let free = |c: Cell| {
            board.contains(c) && board.occupant_at(c) == 0 && board.terrain_at(c).cost.is_some()
        };
        match to {
            Some((x, y)) => {
                let c = Cell::new(x, y);
                if grid.distance(at, c) != 1 || !free(c) {
                    return refuse(format!(
                        "D10a: {c} must be a free, passable cell next to the mount"
                    ));
                }
                c
            }
            None => match grid.neighbours(at).map(|(_, c)| c).find(|&c| free(c)) {
                Some(c) => c,
                None => return refuse("D10a: no free cell next to the mount to step down to"),
            },
        }
    };
    let (rider_left, horse_left, text) = if let Some(nums) = rules.asl {
        let (inf2, hm2, c) = asl_exchange(world, e, h, nums.mount_mf)?;
        (
            inf2.left(),
            hm2.left(),
            format!(
                "{id} dismounts: 1 MF, {} MF lost by the infantry ({} left); the horse loses {} MF (A4).",
                c.infantry_lost,
                inf2.left(),
                c.horse_lost
            ),
        )
    } else {
        let cost = mount_cost_of(world, e, h)?;
        let share = carry_share(ha.left, ha.basis, ra.basis).min(ra.left);
        if cost > share {
            return refuse(format!(
                "D15/R2: dismounting costs {cost}; only {share} of its own move is left"
            ));
        }
        let rl = share - cost;
        (
            rl,
            Mp::ZERO,
            format!("{id} dismounts to {dest} for {cost} (D15/R2); {rl} left on foot."),
        )
    };
    let mut a = world.get_mut::<Allowance>(e).expect("allowance");
    a.left = rider_left;
    a.used_any = true;
    world.get_mut::<Allowance>(h).expect("allowance").left = horse_left;
    world.entity_mut(e).remove::<RidingOn>();
    world.entity_mut(h).remove::<CarriedBy>();
    world.get_mut::<Position>(e).expect("position").0 = dest;
    if let Some(d) = grid.dir_to_adjacent(at, dest) {
        world.get_mut::<Facing>(e).expect("facing").0 = d;
    }
    sync_occupancy(world);
    log(world, phase, text);
    Ok(())
}

fn activity_order(
    world: &mut World,
    e: Entity,
    id: &str,
    act: Activity,
    phase: Phase,
) -> Result<(), Refusal> {
    let rules = world.resource::<Rules>().0.clone();
    let mounted = world.get::<RidingOn>(e).is_some();
    let a = *world.get::<Allowance>(e).expect("allowance");
    let Some(p) = rules.activities.get(&act) else {
        return refuse(format!(
            "the {} ruleset has no {act:?} activity",
            rules.name
        ));
    };
    if matches!(p, Penalty::HalveAllowance) {
        if mounted {
            log(
                world,
                phase,
                format!("{id} fired first; mounted figures keep their full move (D15)."),
            );
            return Ok(());
        }
        let basis = a.basis.scale(Frac::new(1, 2));
        let spent = a.basis - a.left;
        let left = (basis - spent).max(Mp::ZERO);
        *world.get_mut::<Allowance>(e).expect("allowance") = Allowance {
            basis,
            left,
            used_any: true,
        };
        log(
            world,
            phase,
            format!("{id} fired or cast first: its move is halved to {basis} (D15)."),
        );
        return Ok(());
    }
    if mounted {
        return refuse("D15/R2: activities are paid from the move on foot; dismount first");
    }
    let enc = world
        .get::<Encumbered>(e)
        .map_or(Encumbrance::None, |x| x.0);
    let species = species_rate(world, e);
    let cost = activity_cost(&rules, act, a.basis, species, enc).unwrap_or(Mp::ZERO);
    if cost > a.left {
        return refuse(format!(
            "D15/R2: {act:?} costs {cost}; only {} left",
            a.left
        ));
    }
    let mut am = world.get_mut::<Allowance>(e).expect("allowance");
    am.left -= cost;
    am.used_any = true;
    let left = am.left;
    log(
        world,
        phase,
        format!("{id}: {act:?} costs {cost} of its move (D15/R2); {left} left."),
    );
    Ok(())
}

/// D4: the side now moving is done; settle diagonal counters (H6) and pass to the next side
/// or phase.
fn end_side(world: &mut World, phase: Phase) -> Result<(), Refusal> {
    let side = world.resource::<TurnState>().side_to_move();
    let mut q = world.query::<(&SideId, &mut Diagonal)>();
    for (s, mut d) in q.iter_mut(world) {
        if Some(s.0) == side {
            d.0 = None;
        }
    }
    let name = side.map_or("nobody".into(), |s| side_name(world, s));
    log(world, phase, format!("{name} ends its half-move."));
    let mut turn = world.resource_mut::<TurnState>();
    turn.active += 1;
    if turn.active >= turn.move_order.len() {
        turn.pending = true;
        world.resource_mut::<NextState<Phase>>().set(phase.next());
    }
    Ok(())
}
