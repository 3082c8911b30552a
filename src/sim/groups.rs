//! Units (I1): a unit is a group of figures named in the level's `groups`; a figure in no
//! group is a unit of one. The actions table is rolled and losses are counted by unit, and
//! the AI moves by unit, so the units are part of the game, not of a player.

use crate::level::Level;
use crate::rules::ruleset::TroopType;
use bevy::prelude::*;
use std::collections::{HashMap, HashSet};

/// One unit: its name (the group's, or the figure's id for a unit of one), its side and the
/// ids of the figures it started with. Members that leave the board still count as members,
/// so losses are measured against the unit's starting strength.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The name orders and the log use.
    pub name: String,
    /// Side index.
    pub side: u8,
    /// Figure ids (riders or figures on foot), as the level lists them.
    pub members: Vec<String>,
}

/// Every unit of the battle, in level order (named groups first, then units of one). Kept
/// as a resource so the action-roll order and the AI work from the game alone.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Groups {
    units: Vec<Group>,
    /// Each member's unit (its index in `units`): the AI asks a figure's unit for every card
    /// it chooses, and a walk of every unit's members made that cost the army's size (issue
    /// 33, item 3).
    of_member: HashMap<String, usize>,
}

impl Groups {
    /// The units of a level. Riderless horses belong to no unit: they never act on their own
    /// (A18) and are never enemies.
    pub fn of_level(level: &Level) -> Groups {
        // The first figure of each id, as a walk of the figures finds it.
        let mut figures: HashMap<&str, (u8, TroopType)> = HashMap::new();
        for f in &level.figures {
            figures
                .entry(f.id.as_str())
                .or_insert((f.side, f.template.troop));
        }
        let side_of = |id: &str| figures.get(id).copied();
        let mut out: Vec<Group> = Vec::new();
        let mut grouped = std::collections::BTreeSet::new();
        for g in &level.file.groups {
            let members: Vec<String> = g
                .members
                .iter()
                .filter(|m| side_of(m).is_some_and(|(_, t)| t != TroopType::Horse))
                .cloned()
                .collect();
            let Some(side) = members.first().and_then(|m| side_of(m)).map(|s| s.0) else {
                continue;
            };
            grouped.extend(members.iter().cloned());
            out.push(Group {
                name: g.name.clone(),
                side,
                members,
            });
        }
        let mut named: HashSet<String> = out.iter().map(|g| g.name.clone()).collect();
        for f in &level.figures {
            if f.template.troop == TroopType::Horse || grouped.contains(&f.id) {
                continue;
            }
            // A named group may already use the figure's id as its name.
            let name = if named.contains(f.id.as_str()) {
                format!("{} alone", f.id)
            } else {
                f.id.clone()
            };
            named.insert(name.clone());
            out.push(Group {
                name,
                side: f.side,
                members: vec![f.id.clone()],
            });
        }
        Groups::new(out)
    }

    /// The units given, in order, with their members indexed.
    pub fn new(units: Vec<Group>) -> Groups {
        let mut of_member = HashMap::new();
        for (k, g) in units.iter().enumerate() {
            for m in &g.members {
                // The first unit to list a figure is its unit.
                of_member.entry(m.clone()).or_insert(k);
            }
        }
        Groups { units, of_member }
    }

    /// Every unit, in order.
    pub fn all(&self) -> &[Group] {
        &self.units
    }

    /// The unit called `name`.
    pub fn get(&self, name: &str) -> Option<&Group> {
        self.units.iter().find(|g| g.name == name)
    }

    /// The unit a figure belongs to.
    pub fn of_figure(&self, id: &str) -> Option<&Group> {
        self.of_member.get(id).and_then(|&k| self.units.get(k))
    }

    /// The units of one side, in order.
    pub fn of_side(&self, side: u8) -> impl Iterator<Item = &Group> {
        self.units.iter().filter(move |g| g.side == side)
    }
}
