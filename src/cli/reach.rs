//! `warhorse reach LEVEL --unit ID`: the reachable area of one figure.

use crate::rules::gait::Gait;
use crate::rules::mp::Mp;
use crate::rules::reach::reachable;
use crate::sim::Game;
use crate::sim::components::{Allowance, GaitState, RidingOn};
use crate::sim::motion::setup_move;
use crate::sim::orders::steps_text;
use crate::sim::world::{Map, Rules, find_figure};
use serde::Serialize;
use std::path::Path;

#[derive(Serialize)]
struct CellOut {
    cell: [i32; 2],
    facing: String,
    cost: String,
    path: Vec<crate::rules::movement::Step>,
    /// D17/R4: the roll the path needs, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    roll: Option<RollOut>,
}

/// A chance step on the way to an end (D17, R4), as `reach --json` prints it.
#[derive(Serialize)]
struct RollOut {
    /// `squeeze` (D17) or `contest` (R4).
    kind: &'static str,
    /// What is rolled, in words.
    what: String,
    /// The exact chance of getting through, as a percentage.
    chance: String,
    /// Index in `path` of the chance step.
    step: u16,
    /// Where a failed roll stops the figure, and the facing.
    fail_cell: [i32; 2],
    fail_facing: String,
    /// The move's cost when the roll fails (`cost` is the cost when it succeeds).
    fail_cost: String,
}

/// The JSON and text form of an end's roll.
fn roll_out(board: &crate::rules::board::Board, r: &crate::rules::reach::EndRoll) -> RollOut {
    use crate::rules::chance::Gamble;
    let (kind, what) = match r.gamble {
        Gamble::Squeeze {
            obstacle,
            bash,
            cost,
            ..
        } => (
            "squeeze",
            format!(
                "squeezes between the {}: body bash {bash}% against it, costs {cost} more",
                board.terrains[obstacle as usize].name
            ),
        ),
        Gamble::Contest { at, mine, theirs } => (
            "contest",
            format!("contests {at}: d20 + {mine} against d20 + {theirs}"),
        ),
    };
    RollOut {
        kind,
        what,
        chance: r.chance.to_string(),
        step: r.step,
        fail_cell: [r.fail_cell.x, r.fail_cell.y],
        fail_facing: board.grid.dir_name(r.fail_facing).to_string(),
        fail_cost: r.fail_cost.to_string(),
    }
}

#[derive(Serialize)]
struct ReachOut {
    unit: String,
    from: [i32; 2],
    facing: String,
    gait: String,
    allowance: String,
    ends: Vec<CellOut>,
}

/// Prints the area; returns the exit code.
pub fn run(
    level: &Path,
    unit: &str,
    gait: Option<&str>,
    allowance: Option<&str>,
    json: bool,
) -> i32 {
    let level = match super::load_or_report(level) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let mut game = Game::new(&level, 0);
    let world = game.app.world_mut();
    let Some(e) = find_figure(world, unit) else {
        eprintln!("there is no figure {unit:?} in {}", level.source);
        return 2;
    };
    let e = world
        .get::<crate::sim::components::CarriedBy>(e)
        .map_or(e, |c| c.0);
    let mover_e = world.get::<RidingOn>(e).map_or(e, |r| r.0);
    if let Some(g) = gait {
        let Some(g) = Gait::parse(g) else {
            eprintln!("unknown gait {g:?} (halt, walk, trot, canter, gallop)");
            return 2;
        };
        let Some(mut gs) = world.get_mut::<GaitState>(mover_e) else {
            eprintln!("{unit} is on foot and has no gaits");
            return 2;
        };
        gs.gait = g;
        let rules = world.resource::<Rules>().0.clone();
        let rate = world
            .get::<crate::sim::components::Rate>(mover_e)
            .map_or(Mp::ZERO, |r| r.0);
        let Some(t) = crate::rules::allowance::half_move_allowance(&rules, rate, g, []) else {
            eprintln!("the {} ruleset has no {g} gait", rules.name);
            return 2;
        };
        *world.get_mut::<Allowance>(mover_e).expect("allowance") = Allowance {
            basis: t.total,
            left: t.total,
            used_any: false,
        };
    }
    if let Some(a) = allowance {
        match a.parse::<Mp>() {
            Ok(v) => {
                let mut al = world.get_mut::<Allowance>(mover_e).expect("allowance");
                al.left = v;
            }
            Err(why) => {
                eprintln!("--allowance: {why}");
                return 2;
            }
        }
    }
    let setup = setup_move(world, e);
    let board = &world.resource::<Map>().0;
    let grid = board.grid;
    let reach = reachable(board, &setup.mover, setup.pose, setup.left);
    let out = ReachOut {
        unit: unit.to_string(),
        from: [setup.pose.cell.x, setup.pose.cell.y],
        facing: grid.dir_name(setup.pose.facing).to_string(),
        gait: setup.mover.gait.to_string(),
        allowance: setup.left.to_string(),
        ends: reach
            .ends()
            .iter()
            .map(|end| CellOut {
                cell: [end.cell.x, end.cell.y],
                facing: grid.dir_name(end.facing).to_string(),
                cost: end.cost.to_string(),
                path: reach.path(end),
                roll: end.roll.as_ref().map(|r| roll_out(board, r)),
            })
            .collect(),
    };
    if json {
        if let Err(code) = super::emit_json(&out) {
            return code;
        }
    } else {
        use std::fmt::Write as _;
        let mut o = String::new();
        let _ = writeln!(
            o,
            "{} at ({},{}) facing {}, {}, {} to move{}",
            out.unit,
            out.from[0],
            out.from[1],
            out.facing,
            out.gait,
            out.allowance,
            setup.blocked.map(|b| format!(" — {b}")).unwrap_or_default()
        );
        let _ = writeln!(o, "{} cell/facing ends:", out.ends.len());
        for (c, end) in out.ends.iter().zip(reach.ends()) {
            let _ = writeln!(
                o,
                "  ({},{}) {:<2} cost {:<6} {}",
                c.cell[0],
                c.cell[1],
                c.facing,
                c.cost,
                steps_text(grid, &reach.path(end))
            );
            if let Some(r) = &c.roll {
                let _ = writeln!(
                    o,
                    "      needs a roll at step {}: {} — {} to get through; on a failure it \
                     stops at ({},{}) {}, cost {}",
                    r.step + 1,
                    r.what,
                    r.chance,
                    r.fail_cell[0],
                    r.fail_cell[1],
                    r.fail_facing,
                    r.fail_cost
                );
            }
        }
        super::emit(&o);
    }
    0
}
