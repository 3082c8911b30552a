//! Plays the cues (the `sound` feature): each file of [`Cue::ALL`] is loaded once through the
//! `AssetServer`, so a player's own WAV in `assets/sounds/` is what they hear, and each
//! [`PlayCue`] spawns a one-shot player at the volume set, which despawns when it ends. A
//! file that fails to load is named in the window's notice, like a broken picture.

use super::{Cue, PlayCue};
use crate::ui::art::ArtProblems;
use crate::ui::settings::Settings;
use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings, Volume};
use bevy::prelude::*;
use std::collections::HashMap;

pub(super) fn build(app: &mut App) {
    app.add_systems(Startup, load_sounds)
        .add_systems(PostUpdate, play.after(super::listen::hear));
}

/// The loaded sound of each cue.
#[derive(Resource, Debug, Default)]
pub struct SoundBank(HashMap<Cue, Handle<AudioSource>>);

fn load_sounds(
    mut commands: Commands,
    server: Option<Res<AssetServer>>,
    folder: Option<Res<crate::ui::art::AssetFolder>>,
    mut problems: Option<ResMut<ArtProblems>>,
) {
    // Apps without assets (the headless tests of what is heard) have nothing to play.
    let Some(server) = server else { return };
    let folder = folder.map_or_else(|| crate::ui::art::asset_folder().into(), |f| f.0.clone());
    let mut bank = SoundBank::default();
    for cue in Cue::ALL {
        let limit = crate::level::input::MAX_SOUND_BYTES;
        if let Some(why) = crate::ui::art::refused_asset(&folder, cue.file(), limit) {
            if let Some(p) = problems.as_deref_mut() {
                p.lines.push(why);
            }
            continue;
        }
        let handle: Handle<AudioSource> = server.load(cue.file());
        if let Some(p) = problems.as_deref_mut() {
            p.watch(cue.file().to_string(), handle.id().untyped());
        }
        bank.0.insert(cue, handle);
    }
    commands.insert_resource(bank);
}

fn play(
    mut commands: Commands,
    mut cues: MessageReader<PlayCue>,
    bank: Option<Res<SoundBank>>,
    settings: Option<Res<Settings>>,
) {
    let volume = settings.map_or(1.0, |s| s.volume);
    // Silent, or nothing loaded to play: the cues go unheard.
    let Some(bank) = bank.filter(|_| volume > 0.0) else {
        cues.clear();
        return;
    };
    for PlayCue(cue) in cues.read() {
        if let Some(handle) = bank.0.get(cue) {
            debug!("sound: {cue:?} ({})", cue.file());
            commands.spawn((
                AudioPlayer::new(handle.clone()),
                PlaybackSettings::DESPAWN.with_volume(Volume::Linear(volume)),
            ));
        }
    }
}
