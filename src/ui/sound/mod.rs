//! Sound (issue 16 item 4): hoofbeats by gait when a counter moves, steps for men on foot, a
//! clash when blows are rolled, a bow in the fire phase, a hit, a fall, dice, and a click on
//! the panels' buttons. The files are in `assets/sounds/`, synthesised by
//! `assets/sounds/make_sounds.py`.
//!
//! What calls for a sound is heard in every build ([`listen`]: each frame's cues, one of each
//! kind, as [`PlayCue`] messages). Playing them needs Bevy's audio, which on Linux links ALSA
//! and so needs `libasound2-dev` to build: it is the cargo feature `sound`
//! (`cargo run --release --features sound`), and without it the cues go unheard. The volume
//! is a setting ([`super::settings::Settings::volume`]).

pub mod cue;
mod listen;
#[cfg(feature = "sound")]
mod play;

pub use cue::Cue;

use bevy::prelude::*;

/// Whether this build can play sound (the `sound` feature); the settings screen says so.
pub const BUILT_WITH_SOUND: bool = cfg!(feature = "sound");

/// A sound to play now.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayCue(pub Cue);

/// Hears what happens on the map and in the panels, and (with the `sound` feature) plays it.
pub struct SoundPlugin;

impl Plugin for SoundPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<PlayCue>();
        listen::build(app);
        #[cfg(feature = "sound")]
        play::build(app);
    }
}

#[cfg(test)]
mod tests;
