//! Moving orders: a path of steps, and gait changes (with the ASL Gallop, A10). A path may
//! hold one chance step (D17 squeezing between obstacles, R4 contesting a hostile's cell): the
//! whole path is checked first, as if the roll succeeds; then the die is rolled through the
//! game's one seeded [`Dice`], logged, and a failure stops the move there.

use super::*;
use crate::rules::chance::Gamble;
use crate::sim::dice::Dice;
use crate::sim::log::{Happening, Roll};
use crate::sim::phase::log_what;

/// The chance step of a checked path: its index, the gamble, and the pose and spending a
/// failure leaves.
struct PathRoll {
    index: usize,
    gamble: Gamble,
    fail_pose: Pose,
    fail_spent: Mp,
}

pub(crate) fn do_move(
    world: &mut World,
    e: Entity,
    id: &str,
    steps: &[Step],
    phase: Phase,
) -> Result<(), Refusal> {
    if steps.is_empty() {
        return refuse(
            "D4: a move needs at least one step (Forward, Veer, Pivot, Back, Go or Settle)",
        );
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
    let (pose, spent, chance, mut trail) = {
        let board = &world.resource::<Map>().0;
        let mut pose = setup.pose;
        let mut trail = vec![(pose.cell, pose.facing)];
        let mut spent = Mp::ZERO;
        let mut chance: Option<PathRoll> = None;
        for (i, &s) in steps.iter().enumerate() {
            let g = setup.mover.grid;
            let at = |why: &dyn std::fmt::Display| {
                format!("step {} ({}): {why}", i + 1, steps_text(g, &[s]))
            };
            match setup.mover.try_step_gamble(board, &pose, s) {
                Ok((_, c, _)) if c > setup.left - spent => {
                    let why =
                        setup
                            .mover
                            .too_dear(board, &pose, s, c, setup.left - spent, setup.limit);
                    return refuse(at(&why));
                }
                Ok((_, _, Some(_))) if chance.is_some() => {
                    return refuse(at(&crate::rules::movement::StepRefusal::OneRoll));
                }
                Ok((p, c, gamble)) => {
                    if let Some(gamble) = gamble {
                        chance = Some(PathRoll {
                            index: i,
                            gamble,
                            fail_pose: pose.failed(),
                            fail_spent: spent + gamble.fail_cost(),
                        });
                    }
                    pose = p;
                    spent += c;
                    trail.push((pose.cell, pose.facing));
                }
                Err(why) => return refuse(at(&why)),
            }
        }
        let held = board.occupant_at(pose.cell);
        if pose.cell != setup.pose.cell && held != 0 {
            return refuse(if held == setup.mover.side {
                format!(
                    "R4/D10a: {} is occupied; a figure may pass through an ally but not stop there",
                    pose.cell
                )
            } else {
                format!(
                    "R4/D10a: {} is held by a hostile figure; a won contest lets a figure pass \
                     through its controlled space but not stop there",
                    pose.cell
                )
            });
        }
        (pose, spent, chance, trail)
    };
    // The order is legal as written: roll now, if it must (it is accepted either way).
    let (pose, spent, taken, rolled) = match chance {
        None => (pose, spent, steps, None),
        Some(c) => {
            let passed = roll_chance(world, id, &c, phase);
            if passed {
                (pose, spent, steps, Some(true))
            } else {
                trail.truncate(c.index + 1);
                (c.fail_pose, c.fail_spent, &steps[..c.index], Some(false))
            }
        }
    };
    apply_pose(world, e, setup.mover_entity, &pose, setup.pose.cell);
    if trail.last() != Some(&(pose.cell, pose.facing)) {
        trail.push((pose.cell, pose.facing));
    }
    // What the happening reports: the cells passed through, each once in a row.
    let mut path: Vec<Cell> = Vec::with_capacity(trail.len());
    for &(cell, _) in &trail {
        if path.last() != Some(&cell) {
            path.push(cell);
        }
    }
    world.entity_mut(e).insert(Trail(trail));
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
    let stop = if rolled == Some(false) {
        " The roll failed: it stops there, the rest of its path dropped."
    } else if pose.stopped && !matches!(taken.last(), Some(Step::Settle(_))) {
        " It meets an enemy's front and must stop (D16)."
    } else {
        ""
    };
    log_what(
        world,
        phase,
        format!(
            "{id} moves {} → {} facing {} [{}], cost {spent}, {left} left.{stop}",
            setup.pose.cell,
            pose.cell,
            grid.dir_name(pose.facing),
            steps_text(grid, taken)
        ),
        Happening::Moved {
            figure: id.to_string(),
            path,
            facing: pose.facing,
            cost: spent,
            left,
        },
    );
    Ok(())
}

/// Rolls a path's chance step through the game's dice and logs each die in words (D17, R4);
/// true when the figure gets through.
fn roll_chance(world: &mut World, id: &str, c: &PathRoll, phase: Phase) -> bool {
    let rolled: Vec<u32> = {
        let mut dice = world.resource_mut::<Dice>();
        c.gamble.dice().iter().map(|&d| dice.roll(d)).collect()
    };
    let passed = c.gamble.passes(&rolled);
    let at = c.fail_pose.cell;
    let chance = c.gamble.chance();
    match c.gamble {
        Gamble::Squeeze { obstacle, bash, .. } => {
            let name = world.resource::<Map>().0.terrains[obstacle as usize]
                .name
                .clone();
            let outcome = if passed {
                format!("the {name} gives way, it squeezes through")
            } else {
                format!("the {name} holds, it stops at {at}")
            };
            let text = format!(
                "{id} squeezes between the {name} (D17): the {name}'s body bash needs {bash} or \
                 less, rolls {} ({chance} to get through) — {outcome}.",
                rolled[0]
            );
            log_roll(world, phase, text, 100, rolled[0], id);
        }
        Gamble::Contest {
            at: cell,
            mine,
            theirs,
        } => {
            let holder = holder_at(world, cell, id);
            let (a, b) = (rolled[0], rolled[1]);
            let text = format!(
                "{id} contests {holder}'s cell {cell} (R4): d20 {a} + Dexterity {mine} = {}.",
                a + u32::from(mine)
            );
            log_roll(world, phase, text, 20, a, id);
            let outcome = if passed {
                format!("{id} wins ({chance} chance) and passes into {cell}")
            } else {
                format!("{holder} holds its cell; {id} stops at {at}")
            };
            let text = format!(
                "{holder} resists: d20 {b} + Dexterity {theirs} = {} — {outcome}.",
                b + u32::from(theirs)
            );
            log_roll(world, phase, text, 20, b, &holder);
        }
    }
    passed
}

/// The id of the hostile standing in `cell` that `mover` contests (a rider before its mount),
/// for the log: a cell may also hold a figure of the mover's side (see
/// [`crate::rules::board::SHARED`]).
fn holder_at(world: &mut World, cell: Cell, mover: &str) -> String {
    let side = find_figure(world, mover).and_then(|e| world.get::<SideId>(e).map(|s| s.0));
    let mut q = world.query::<(&Position, &FigureId, &SideId, Option<&CarriedBy>)>();
    let mut found: Vec<(bool, String)> = q
        .iter(world)
        .filter(|(p, _, s, _)| p.0 == cell && Some(s.0) != side)
        .map(|(_, f, _, c)| (c.is_some(), f.0.clone()))
        .collect();
    found.sort();
    found.into_iter().next().map_or("nobody".into(), |f| f.1)
}

/// One log line reporting a die (so undo stops at it, and `script` replays it).
fn log_roll(world: &mut World, phase: Phase, text: String, sides: u32, value: u32, by: &str) {
    let turn = world.resource::<TurnState>().clone();
    log_line(
        &mut world.resource_mut::<GameLog>(),
        &turn,
        phase,
        text,
        Some(Roll {
            die: format!("d{sides}"),
            value,
            by: by.to_string(),
            chance: None,
        }),
    );
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

/// A gait change that passed its checks, ready to be written (D5, H2, K1; A10 in `asl`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum GaitPlan {
    /// A steed takes a new gait and the half-move's allowance that goes with it.
    Steed {
        /// The mount.
        mount: Entity,
        /// Its new gait.
        gait: Gait,
        /// Its allowance at that gait.
        total: Mp,
    },
    /// An ASL horse declares a Gallop: `bonus` MF more, and it is CX (A10).
    AslGallop {
        /// The horse.
        mount: Entity,
        /// The MF the Gallop adds.
        bonus: Mp,
    },
}

/// Checks and applies a gait change.
pub(crate) fn set_gait(
    world: &mut World,
    e: Entity,
    id: &str,
    gait: Gait,
    phase: Phase,
) -> Result<(), Refusal> {
    let plan = check_gait(world, e, gait, phase)?;
    apply_gait(world, id, plan, phase);
    Ok(())
}

/// The checks of a gait change, writing nothing (D5, H2, K1; A10 in `asl`).
pub(crate) fn check_gait(
    world: &World,
    e: Entity,
    gait: Gait,
    phase: Phase,
) -> Result<GaitPlan, Refusal> {
    let Some(m) = world
        .get::<RidingOn>(e)
        .map(|r| r.0)
        .or_else(|| world.get::<GaitState>(e).map(|_| e))
    else {
        return refuse("H2: only mounts have gaits; a figure on foot walks");
    };
    let rules = &world.resource::<Rules>().0;
    let gs = world.get::<GaitState>(m).expect("mounts have a gait");
    let a = *world.get::<Allowance>(m).expect("allowance");
    let streak = world.get::<GallopStreak>(m).copied().unwrap_or_default();
    if rules.asl.is_some() {
        return check_asl_gallop(world, m, gait, gs);
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
    let total = crate::rules::allowance::half_move_allowance(rules, rate, gait, [])
        .map_or(Mp::ZERO, |t| t.total);
    Ok(GaitPlan::Steed {
        mount: m,
        gait,
        total,
    })
}

/// Writes a checked gait change and logs it.
pub(crate) fn apply_gait(world: &mut World, id: &str, plan: GaitPlan, phase: Phase) {
    match plan {
        GaitPlan::Steed { mount, gait, total } => {
            world.get_mut::<GaitState>(mount).expect("gait").gait = gait;
            *world.get_mut::<Allowance>(mount).expect("allowance") = Allowance {
                basis: total,
                left: total,
                used_any: false,
            };
            log_what(
                world,
                phase,
                format!("{id} changes gait to {gait}: {total} to move this half-move (H2, D5)."),
                Happening::GaitChanged {
                    figure: id.to_string(),
                    gait,
                    allowance: total,
                },
            );
        }
        GaitPlan::AslGallop { mount, bonus } => {
            let mut hm = world.get_mut::<AslHorse>(mount).expect("asl horse");
            hm.mf.allot += bonus;
            hm.galloping = true;
            hm.cx = true;
            let left = hm.mf.left();
            let allot = hm.mf.allot;
            world.get_mut::<GaitState>(mount).expect("gait").gait = Gait::Gallop;
            let mut a = world.get_mut::<Allowance>(mount).expect("allowance");
            a.basis = allot;
            a.left = left;
            log_in(
                world,
                phase,
                format!(
                    "{id} declares a Gallop: +{bonus} MF, allotment {allot}, {left} MF available; the horse is CX (A10)."
                ),
            );
        }
    }
}

/// A10: declaring a Gallop adds 8 MF at the start of the MPh, 4 during it, and exhausts the
/// horse; not while CX, not in marsh or water.
fn check_asl_gallop(
    world: &World,
    m: Entity,
    gait: Gait,
    gs: &GaitState,
) -> Result<GaitPlan, Refusal> {
    let nums = world.resource::<Rules>().0.asl.expect("asl");
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
    Ok(GaitPlan::AslGallop { mount: m, bonus })
}
