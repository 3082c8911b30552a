//! The state of every figure as plain data, for `warhorse script`, tests and saves.

use super::components::*;
use super::log::LogEntry;
use super::phase::{Phase, TurnState};
use super::world::{Rules, Sides};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// One figure's visible state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FigureState {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Side name.
    pub side: String,
    /// Cell `[x, y]`.
    pub cell: [i32; 2],
    /// Facing name.
    pub facing: String,
    /// Gait (mounts), `walk` for foot.
    pub gait: String,
    /// Allowance left this half-move, exact (`"27/4"`).
    pub allowance_left: String,
    /// The half-move allowance.
    pub allowance: String,
    /// Blows left / per phase.
    pub blows: [u8; 2],
    /// Body points left / full.
    pub body: [u16; 2],
    /// The mount it rides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mounted_on: Option<String>,
    /// The rider it carries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carrying: Option<String>,
    /// Conditions (R1), a diagonal counter (H6), K1 rest, ASL CX.
    pub conditions: Vec<String>,
}

/// A figure that has left the map, and how (issue 12: routed is not killed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gone {
    /// Its id.
    pub id: String,
    /// Its side's name.
    pub side: String,
    /// `routed` or `exited`.
    pub how: String,
    /// The turn it left.
    pub turn: u32,
}

/// The whole visible state.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Snapshot {
    /// Turn number.
    pub turn: u32,
    /// Phase.
    pub phase: String,
    /// Side to move, in a half-move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_move: Option<String>,
    /// In the TAC phase and the melee rounds: the figures whose face-down cards (or dodge
    /// guesses) the game waits for (D6, D7, D9).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub to_choose: Vec<String>,
    /// In the charge declarations: the mounted figures whose face-down charge orders, or the
    /// charged figures whose face-down answers, the game waits for (D2, C1, C5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub to_declare: Vec<String>,
    /// Every figure on the map, sorted by id.
    pub figures: Vec<FigureState>,
    /// Figures that have left the map by an edge (routed, or got away by their exit), by id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_the_map: Vec<Gone>,
    /// The log.
    pub log: Vec<LogEntry>,
}

/// Every condition of a figure in words, for the snapshot and the window's figure card: its
/// R1 conditions, a diagonal counter (H6), K1's rest, ASL's CX, and its combat state (down,
/// stunned, disarmed, berserk, grappled, dead…). One list, so a player and a script read the
/// same words.
pub fn condition_words(
    conds: Option<&Conditions>,
    diag: Option<&Diagonal>,
    streak: Option<&GallopStreak>,
    asl: Option<&AslHorse>,
    combat: Option<&CombatStatus>,
    weapon: Option<&Weapon>,
    t: &crate::rules::melee::tables::Tables,
) -> Vec<String> {
    let mut conditions = conds.map(|c| c.0.clone()).unwrap_or_default();
    if let Some(Diagonal(Some(h))) = diag {
        conditions.push(format!("diagonal-{h:?}").to_lowercase());
    }
    if streak.is_some_and(|s| s.must_rest) {
        conditions.push("must-walk (K1)".into());
    }
    if asl.is_some_and(|h| h.cx) {
        conditions.push("CX".into());
    }
    if let Some(c) = combat {
        conditions.extend(super::melee::status_words(&c.0, t, weapon));
    }
    conditions
}

/// Reads the world into a snapshot.
pub fn snapshot(world: &mut World) -> Snapshot {
    snapshot_since(world, 0)
}

/// Reads the world into a snapshot whose log holds the lines from `from` on: what a client
/// that has the earlier lines is sent (issue 30), without copying the whole log each time.
pub fn snapshot_since(world: &mut World, from: usize) -> Snapshot {
    let grid = world.resource::<Rules>().0.grid;
    let sides = world.resource::<Sides>().0.clone();
    let side_name = |s: u8| {
        sides
            .get(s as usize)
            .map_or(format!("side {s}"), |x| x.name.clone())
    };
    let mut ids = world.query::<(Entity, &FigureId)>();
    let id_of: std::collections::HashMap<Entity, String> =
        ids.iter(world).map(|(e, f)| (e, f.0.clone())).collect();
    let mut q = world.query::<(
        Entity,
        &FigureId,
        &FigureName,
        &SideId,
        &Position,
        &Facing,
        &Allowance,
        &Blows,
        &Body,
        Option<&GaitState>,
        Option<&RidingOn>,
        Option<&CarriedBy>,
        Option<&Conditions>,
        Option<&Diagonal>,
        (
            Option<&GallopStreak>,
            Option<&AslHorse>,
            Option<&CombatStatus>,
            Option<&Weapon>,
        ),
    )>();
    let t = crate::rules::melee::tables::tables();
    let mut figures: Vec<FigureState> = q
        .iter(world)
        .map(
            |(
                _,
                id,
                name,
                side,
                pos,
                facing,
                a,
                blows,
                body,
                gait,
                riding,
                carried,
                conds,
                diag,
                (streak, asl, combat, weapon),
            )| {
                let conditions = condition_words(conds, diag, streak, asl, combat, weapon, t);
                FigureState {
                    id: id.0.clone(),
                    name: name.0.clone(),
                    side: side_name(side.0),
                    cell: [pos.0.x, pos.0.y],
                    facing: grid.dir_name(facing.0).to_string(),
                    gait: gait.map_or("walk".into(), |g| g.gait.to_string()),
                    allowance_left: a.left.to_string(),
                    allowance: a.basis.to_string(),
                    blows: [blows.left, blows.max],
                    body: [body.left, body.max],
                    mounted_on: riding.and_then(|r| id_of.get(&r.0).cloned()),
                    carrying: carried.and_then(|c| id_of.get(&c.0).cloned()),
                    conditions,
                }
            },
        )
        .collect();
    figures.sort_by(|a, b| a.id.cmp(&b.id));
    let turn = world.resource::<TurnState>();
    let phase = *world.resource::<State<Phase>>().get();
    Snapshot {
        turn: turn.turn,
        phase: phase.label().to_string(),
        to_move: phase
            .is_half_move()
            .then(|| turn.side_to_move().map(side_name))
            .flatten(),
        to_choose: world
            .get_resource::<super::melee::MeleeState>()
            .map(|m| m.waiting_ids())
            .unwrap_or_default(),
        to_declare: super::charge::awaiting_ids(world),
        figures,
        left_the_map: gone(world, &side_name),
        log: world
            .resource::<super::log::GameLog>()
            .0
            .get(from..)
            .map(<[LogEntry]>::to_vec)
            .unwrap_or_default(),
    }
}

/// The figures the judge saw leave the map, in id order.
fn gone(world: &World, side_name: &dyn Fn(u8) -> String) -> Vec<Gone> {
    use crate::rules::victory::Departure;
    let Some(j) = world.get_resource::<super::victory::Judge>() else {
        return Vec::new();
    };
    j.tracker
        .gone
        .iter()
        .map(|(id, (how, turn))| Gone {
            id: id.clone(),
            side: j
                .tracker
                .roster
                .get(id)
                .map_or_else(String::new, |e| side_name(e.side)),
            how: match how {
                Departure::Routed => "routed".into(),
                Departure::Exited(_) => "exited".into(),
            },
            turn: *turn,
        })
        .collect()
}
