//! Units (I1): a unit is a group of figures named in the level's `groups`; a figure in no
//! group is a unit of one. The actions table is rolled and losses are counted by unit, and
//! the AI moves by unit, so the units are part of the game, not of a player.

use crate::level::Level;
use crate::rules::ruleset::TroopType;
use bevy::prelude::*;

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
pub struct Groups(pub Vec<Group>);

impl Groups {
    /// The units of a level. Riderless horses belong to no unit: they never act on their own
    /// (A18) and are never enemies.
    pub fn of_level(level: &Level) -> Groups {
        let side_of = |id: &str| {
            level
                .figures
                .iter()
                .find(|f| f.id == id)
                .map(|f| (f.side, f.template.troop))
        };
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
        for f in &level.figures {
            if f.template.troop == TroopType::Horse || grouped.contains(&f.id) {
                continue;
            }
            // A named group may already use the figure's id as its name.
            let name = if out.iter().any(|g| g.name == f.id) {
                format!("{} alone", f.id)
            } else {
                f.id.clone()
            };
            out.push(Group {
                name,
                side: f.side,
                members: vec![f.id.clone()],
            });
        }
        Groups(out)
    }

    /// The unit called `name`.
    pub fn get(&self, name: &str) -> Option<&Group> {
        self.0.iter().find(|g| g.name == name)
    }

    /// The unit a figure belongs to.
    pub fn of_figure(&self, id: &str) -> Option<&Group> {
        self.0.iter().find(|g| g.members.iter().any(|m| m == id))
    }

    /// The units of one side, in order.
    pub fn of_side(&self, side: u8) -> impl Iterator<Item = &Group> {
        self.0.iter().filter(move |g| g.side == side)
    }
}
