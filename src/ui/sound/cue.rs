//! The game's sounds as data: which cues there are, which file each plays, and which cue a
//! log line, a result floating over the map or a moving counter calls for. Pure functions, so
//! they are tested in every build, with or without the `sound` feature.

use crate::rules::gait::Gait;
use crate::sim::log::{Happening, LogEntry};

/// One sound the game plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cue {
    /// A mounted figure or a horse moving at this gait (H2): four even beats at the walk, two
    /// at the trot, three at the canter, four quick ones at the gallop and in a charge.
    Hooves(Gait),
    /// A figure on foot moving.
    Steps,
    /// Blades meeting: a roll to hit in a melee round or a charge's impact.
    Clash,
    /// A bow or crossbow loosing: a roll to hit in the fire phase.
    Bow,
    /// A blow or missile taking body points.
    Hit,
    /// A figure falling: incapacitated or dead.
    Fall,
    /// Dice on the board: initiative, the actions table, morale, any roll not to hit.
    Dice,
    /// A button pressed in a panel or a window.
    Click,
}

impl Cue {
    /// Every cue that [`cue_for_move`] and the others make, each once.
    pub const ALL: [Cue; 11] = [
        Cue::Hooves(Gait::Walk),
        Cue::Hooves(Gait::Trot),
        Cue::Hooves(Gait::Canter),
        Cue::Hooves(Gait::Gallop),
        Cue::Steps,
        Cue::Clash,
        Cue::Bow,
        Cue::Hit,
        Cue::Fall,
        Cue::Dice,
        Cue::Click,
    ];

    /// The file it plays, under `assets/`.
    pub fn file(self) -> &'static str {
        match self {
            Cue::Hooves(Gait::Halt | Gait::Walk) => "sounds/hooves-walk.wav",
            Cue::Hooves(Gait::Trot) => "sounds/hooves-trot.wav",
            Cue::Hooves(Gait::Canter) => "sounds/hooves-canter.wav",
            Cue::Hooves(Gait::Gallop) => "sounds/hooves-gallop.wav",
            Cue::Steps => "sounds/steps.wav",
            Cue::Clash => "sounds/clash.wav",
            Cue::Bow => "sounds/bow.wav",
            Cue::Hit => "sounds/hit.wav",
            Cue::Fall => "sounds/fall.wav",
            Cue::Dice => "sounds/dice.wav",
            Cue::Click => "sounds/click.wav",
        }
    }

    /// The one cue that stands for all of this kind in a frame: two horses at different gaits
    /// moving together are heard as hooves once, at the faster gait.
    fn kind(self) -> u8 {
        match self {
            Cue::Hooves(_) => 0,
            Cue::Steps => 1,
            Cue::Clash => 2,
            Cue::Bow => 3,
            Cue::Hit => 4,
            Cue::Fall => 5,
            Cue::Dice => 6,
            Cue::Click => 7,
        }
    }
}

/// The cues of one frame, each kind once: many results of one card round, or a whole side's
/// figures setting off together, are one sound rather than a roar. Hooves keep the fastest
/// gait heard.
pub fn one_of_each(cues: impl IntoIterator<Item = Cue>) -> Vec<Cue> {
    let mut out: Vec<Cue> = Vec::new();
    for cue in cues {
        match out.iter_mut().find(|c| c.kind() == cue.kind()) {
            Some(seen) => *seen = (*seen).max(cue),
            None => out.push(cue),
        }
    }
    out
}

/// The cue a new log line calls for: a roll to hit is a bow loosing in the fire phase and a
/// clash of blades anywhere else (melee rounds, a charge's impact); any other roll is dice.
/// Lines without a roll are silent: what they report is heard through the map (a counter
/// moving, a result floating up).
pub fn cue_for_line(line: &LogEntry) -> Option<Cue> {
    match &line.what {
        Happening::RollToHit { shot: true, .. } => Some(Cue::Bow),
        Happening::RollToHit { shot: false, .. } => Some(Cue::Clash),
        _ => line.roll.as_ref().map(|_| Cue::Dice),
    }
}

/// The cue of a result floating up over a figure (see `ui::effects`): body points lost are a
/// hit, "falls" and "falls dead" a fall; a miss or a new condition is silent.
pub fn cue_for_result(text: &str) -> Option<Cue> {
    if text.starts_with("falls") {
        Some(Cue::Fall)
    } else if text.starts_with('-') {
        Some(Cue::Hit)
    } else {
        None
    }
}

/// The cue of a counter setting off: hooves at the mount's gait (a halted horse pushed
/// along, as in a retreat, walks), steps for a figure on foot.
pub fn cue_for_move(mount_gait: Option<Gait>) -> Cue {
    match mount_gait {
        Some(Gait::Halt) => Cue::Hooves(Gait::Walk),
        Some(g) => Cue::Hooves(g),
        None => Cue::Steps,
    }
}
