//! Building the world from a level, and the board's occupancy kept in step with it.

use super::components::*;
pub use super::figure_index::FigureIndex;
use crate::level::Level;
use crate::rules::board::Board;
use crate::rules::gait::Gait;
use crate::rules::grid::StandShape;
use crate::rules::movement::Hand;
use crate::rules::mp::Mp;
use crate::rules::ruleset::{Ruleset, TroopType};
use bevy::prelude::*;

/// The ruleset the game plays. Shared, never changed after the level loads: a phase or an
/// order that needs it beside a mutable world takes a cheap handle instead of a deep copy of
/// every template (which was a tenth of a replay's time).
#[derive(Resource, Clone, Debug)]
pub struct Rules(pub std::sync::Arc<Ruleset>);

/// The map, with occupancy refreshed after every accepted order.
#[derive(Resource, Clone, Debug)]
pub struct Map(pub Board);

/// The level's side names and controls.
#[derive(Resource, Clone, Debug)]
pub struct Sides(pub Vec<crate::level::SideSpec>);

/// The names players read for the level's figures (issue 34). The game writes ids; the
/// window and the terminal put these in their place when they show a line.
#[derive(Resource, Clone, Debug, Default)]
pub struct FigureNames(pub std::sync::Arc<crate::rules::names::Names>);

/// Spawns every figure of the level; a mounted template becomes a rider and a mount (A1).
pub fn spawn_level(world: &mut World, level: &Level) {
    world.insert_resource(FigureNames(std::sync::Arc::new(level.names())));
    let rules = &level.rules;
    for f in &level.figures {
        let t = &f.template;
        let rider = world
            .spawn((
                FigureId(f.id.clone()),
                FigureName(t.name.clone()),
                SideId(f.side),
                Position(f.at),
                Facing(f.facing),
                Diagonal(None),
                Rate(t.rate),
                Blows {
                    max: t.blows,
                    left: t.blows,
                },
                Body {
                    max: t.body,
                    left: t.body,
                },
                Weapon(t.weapon.clone()),
                Armour(t.armour),
                Shield(t.shield),
                Encumbered(t.encumbrance),
                Weight(t.weight),
                Dexterity(t.dexterity),
            ))
            .insert((
                Stand {
                    shape: if t.troop == TroopType::Horse {
                        StandShape::Long
                    } else {
                        StandShape::Square
                    },
                    size: t.stand_size,
                },
                Troop(t.troop),
                Quality {
                    raw: t.raw,
                    hero: t.hero,
                },
                Conditions(f.conditions.clone()),
                Allowance {
                    basis: Mp::ZERO,
                    left: Mp::ZERO,
                    used_any: false,
                },
                AslInfantry::default(),
            ))
            .id();
        if t.troop == TroopType::Horse {
            // A riderless horse template: it is a mount without a rider.
            let class = t.horse_class.clone().unwrap_or_default();
            world
                .entity_mut(rider)
                .insert(mount_components(rules, &class, f.gait));
        }
        let Some(m) = &t.mount else { continue };
        let mount = world
            .spawn((
                FigureId(format!("{}.mount", f.id)),
                FigureName(m.name.clone()),
                SideId(f.side),
                Position(f.at),
                Facing(f.facing),
                Diagonal(None),
                Blows {
                    max: m.blows,
                    left: m.blows,
                },
                Body {
                    max: m.body,
                    left: m.body,
                },
                Weight(m.weight),
                Stand {
                    shape: m.stand,
                    size: 20,
                },
                Troop(TroopType::Horse),
                SteedSizeOf(m.size),
                CarriedBy(rider),
                Allowance {
                    basis: Mp::ZERO,
                    left: Mp::ZERO,
                    used_any: false,
                },
            ))
            .insert(mount_components(rules, &m.class, f.gait))
            .id();
        let capable_ok = t.troop != TroopType::MountedInfantry;
        if !capable_ok {
            // K2: mounted infantry never gallop.
            if let Some(mut g) = world.get_mut::<GaitState>(mount) {
                g.capable.retain(|&x| x != Gait::Gallop);
            }
        }
        world.entity_mut(rider).insert(RidingOn(mount));
    }
    sync_occupancy(world);
}

fn mount_components(rules: &Ruleset, class: &str, gait: Gait) -> impl Bundle {
    let hc = rules.horse_classes.get(class);
    let walk = hc.map_or(Mp::ZERO, |h| h.walk);
    let capable = hc.map_or_else(|| vec![Gait::Halt, Gait::Walk], |h| h.gaits.clone());
    (
        Rate(walk),
        HorseClassKey(class.to_string()),
        GaitState {
            gait,
            at_half_start: gait,
            capable,
        },
        GallopStreak::default(),
        VeersThisTurn(0),
        AslHorse::default(),
    )
}

/// Rebuilds the board's occupancy from the figures' positions: one figure (or rider and
/// mount) per cell (D10a); in `asl` riderless horses do not count (A2). A cell where figures
/// of two sides stand is [`crate::rules::board::SHARED`], whatever order the query lists
/// them in (the last one listed used to win, and a side's own game, which lists its figures
/// in another order, then refused or allowed an R4 contest the real game did not).
pub fn sync_occupancy(world: &mut World) {
    let asl = world.resource::<Rules>().0.asl.is_some();
    let mut q = world.query::<(
        &Position,
        &SideId,
        Option<&CarriedBy>,
        Option<&RidingOn>,
        &Troop,
    )>();
    let cells: Vec<_> = q
        .iter(world)
        .filter(|(_, _, carried, riding, troop)| {
            // Count a pair once (by its rider); skip riderless horses in asl.
            carried.is_none() && !(asl && riding.is_none() && troop.0 == TroopType::Horse)
        })
        .map(|(p, s, ..)| (p.0, s.0))
        .collect();
    let mut map = world.resource_mut::<Map>();
    let board = &mut map.0;
    board.occupant.iter_mut().for_each(|o| *o = 0);
    for (c, s) in cells {
        if board.contains(c) {
            let i = board.index(c);
            board.occupant[i] = match board.occupant[i] {
                0 => s + 1,
                o if o == s + 1 => o,
                _ => crate::rules::board::SHARED,
            };
        }
    }
}

/// Finds a figure entity by id: the first one the world lists, from [`FigureIndex`] when
/// the world has it.
pub fn find_figure(world: &mut World, id: &str) -> Option<Entity> {
    let stale = world
        .get_resource::<FigureIndex>()
        .map(|ix| ix.lock().stale);
    if stale == Some(true) {
        let mut q = world.query::<(Entity, &FigureId)>();
        let mut ids = std::collections::HashMap::new();
        for (e, f) in q.iter(world) {
            ids.entry(f.0.clone())
                .and_modify(|x: &mut (Entity, bool)| x.1 = true)
                .or_insert((e, false));
        }
        let mut ix = world.resource::<FigureIndex>().lock();
        ix.ids = ids;
        ix.stale = false;
    }
    if let Some(ix) = world.get_resource::<FigureIndex>() {
        match ix.lock().ids.get(id) {
            None => return None,
            Some(&(e, false)) => return Some(e),
            // Two figures of one id: which comes first is the world's order.
            Some(&(_, true)) => {}
        }
    }
    let mut q = world.query::<(Entity, &FigureId)>();
    q.iter(world).find(|(_, f)| f.0 == id).map(|(e, _)| e)
}

/// Sets the diagonal-counter state, used by movement and the final adjustment (H6).
pub fn set_diag(world: &mut World, e: Entity, d: Option<Hand>) {
    if let Some(mut x) = world.get_mut::<Diagonal>(e) {
        x.0 = d;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::SHARED;
    use crate::rules::grid::Cell;

    /// The board's occupants once figures of the given sides are spawned at the given cells,
    /// in that order.
    fn occupants_after(figures: &[(u8, Cell)]) -> Vec<u8> {
        let level = crate::level::default_level().expect("the default level loads");
        let mut world = World::new();
        world.insert_resource(Rules(std::sync::Arc::new(level.rules.clone())));
        world.insert_resource(Map(level.board.clone()));
        for &(side, cell) in figures {
            world.spawn((Position(cell), SideId(side), Troop(TroopType::Foot)));
        }
        sync_occupancy(&mut world);
        world.resource::<Map>().0.occupant.clone()
    }

    #[test]
    fn a_cell_where_two_sides_stand_is_shared_whichever_is_listed_first() {
        // R4 and D16 read the board: a host and a replica that list the same figures in
        // another order must read the same one (a fallen horse beside the enemy it staggered,
        // C4, had the real game contest a cell that a side's own game let its rider through).
        let (here, there) = (Cell { x: 2, y: 3 }, Cell { x: 5, y: 1 });
        let a = occupants_after(&[(0, here), (1, here), (1, there)]);
        let b = occupants_after(&[(1, there), (1, here), (0, here)]);
        assert_eq!(a, b);
        let board = crate::level::default_level().unwrap().board;
        assert_eq!(a[board.index(here)], SHARED);
        assert_eq!(a[board.index(there)], 2, "one side's figure: its side + 1");
        let same = occupants_after(&[(1, here), (1, here)]);
        assert_eq!(
            same[board.index(here)],
            2,
            "two of one side: still that side"
        );
    }
}
