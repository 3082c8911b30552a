//! Development stand-in for the simulation's spawning: puts the level's figures into the world
//! with the components the counters read, so the window can be looked at before the
//! simulation is wired in. The simulation's own spawn replaces this; it must not run both.

use super::CurrentLevel;
use crate::rules::ruleset::TroopType;
use crate::sim::components::{
    Body, CarriedBy, Facing, FigureId, FigureName, Position, RidingOn, SideId, Troop, Weapon,
};
use bevy::prelude::*;

/// Spawns one entity per placed figure, plus a linked mount entity for mounted templates (a
/// rider with `RidingOn`, a mount with `CarriedBy`, both at the same `Position`), all
/// unwounded. Only enough components for drawing: the simulation's spawn replaces this.
pub fn spawn_preview_figures(mut commands: Commands, level: Option<Res<CurrentLevel>>) {
    let Some(level) = level else { return };
    for f in &level.0.figures {
        let t = &f.template;
        let rider = commands
            .spawn((
                FigureId(f.id.clone()),
                FigureName(t.name.clone()),
                SideId(f.side),
                Position(f.at),
                Facing(f.facing),
                Troop(t.troop),
                Weapon(t.weapon.clone()),
                Body {
                    max: t.body,
                    left: t.body,
                },
            ))
            .id();
        if let Some(m) = &t.mount {
            let mount = commands
                .spawn((
                    FigureId(format!("{}/mount", f.id)),
                    FigureName(m.name.clone()),
                    SideId(f.side),
                    Position(f.at),
                    Facing(f.facing),
                    Troop(TroopType::Horse),
                    Body {
                        max: m.body,
                        left: m.body,
                    },
                    CarriedBy(rider),
                ))
                .id();
            commands.entity(rider).insert(RidingOn(mount));
        }
    }
}
