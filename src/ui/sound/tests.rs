//! The sounds: every file a cue names is a real, audible WAV; each thing on the map calls for
//! the sound the issue lists (hooves by gait, a clash, a bow, a hit, a fall, dice, a click);
//! a frame's many results are heard once; a loaded game is not replayed aloud.

use super::cue::*;
use super::*;
use crate::rules::gait::Gait;
use crate::sim::components::{GaitState, RidingOn};
use crate::sim::log::{Happening, LogEntry, Roll};
use crate::ui::bridge::GameView;
use crate::ui::counters::CounterOf;
use crate::ui::motion::slide_for;
use crate::ui::settings::Pace;
use std::path::Path;

fn line(phase: &'static str, text: &str, roll: Option<(u32, Option<i32>)>) -> LogEntry {
    let what = match roll {
        Some((value, Some(chance))) => Happening::RollToHit {
            by: "knight".into(),
            at: "levy".into(),
            chance,
            roll: value,
            shot: phase.starts_with("fire"),
        },
        _ => Happening::Told,
    };
    LogEntry::new(
        1,
        phase,
        text.into(),
        roll.map(|(value, chance)| Roll {
            die: if chance.is_some() { "d100" } else { "d6" }.into(),
            value,
            by: "knight".into(),
            chance,
        }),
        what,
    )
}

#[test]
fn every_cue_file_is_an_audible_wav_of_at_most_a_few_seconds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    for cue in Cue::ALL {
        let path = root.join(cue.file());
        let mut wav =
            hound::WavReader::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let spec = wav.spec();
        let secs = wav.duration() as f32 / spec.sample_rate as f32;
        assert!((0.02..=3.0).contains(&secs), "{}: {secs} s", path.display());
        let peak = wav
            .samples::<i16>()
            .map(|s| s.expect("a sample").unsigned_abs())
            .max()
            .unwrap_or(0);
        assert!(
            peak > 8000,
            "{}: nearly silent, peak {peak}",
            path.display()
        );
    }
}

#[test]
fn rolls_to_hit_are_a_bow_in_the_fire_phase_and_a_clash_elsewhere_other_rolls_are_dice() {
    let fire = line(
        "fire and spells (first)",
        "archer shoots at knight: needs 40 or less; rolls 22: a hit.",
        Some((22, Some(40))),
    );
    assert_eq!(cue_for_line(&fire), Some(Cue::Bow));
    let melee = line(
        "melee",
        "knight strikes levy with its sword: needs 55 or less; rolls 73: a miss.",
        Some((73, Some(55))),
    );
    assert_eq!(cue_for_line(&melee), Some(Cue::Clash));
    let initiative = line(
        "initiative",
        "Red rolls 4 for the initiative.",
        Some((4, None)),
    );
    assert_eq!(cue_for_line(&initiative), Some(Cue::Dice));
    let moved = line("movement", "knight moves to (3, 4).", None);
    assert_eq!(cue_for_line(&moved), None);
}

#[test]
fn body_points_lost_are_a_hit_and_falling_is_a_fall() {
    assert_eq!(cue_for_result("-3"), Some(Cue::Hit));
    assert_eq!(cue_for_result("falls dead"), Some(Cue::Fall));
    assert_eq!(cue_for_result("falls"), Some(Cue::Fall));
    assert_eq!(cue_for_result("miss"), None);
    assert_eq!(cue_for_result("stunned"), None);
}

#[test]
fn a_frame_is_heard_once_per_kind_with_the_fastest_hooves() {
    let heard = one_of_each([
        Cue::Hooves(Gait::Trot),
        Cue::Clash,
        Cue::Hooves(Gait::Gallop),
        Cue::Steps,
        Cue::Clash,
        Cue::Hooves(Gait::Walk),
    ]);
    assert_eq!(
        heard,
        vec![Cue::Hooves(Gait::Gallop), Cue::Clash, Cue::Steps]
    );
    // A halted horse pushed along (a retreat) is heard walking; men on foot step.
    assert_eq!(cue_for_move(Some(Gait::Halt)), Cue::Hooves(Gait::Walk));
    assert_eq!(cue_for_move(None), Cue::Steps);
}

/// An app with only the sound plugin, and the cues it sent since the last call.
fn sound_app() -> App {
    let mut app = App::new();
    app.add_plugins(SoundPlugin);
    app
}

fn cues_sent(app: &mut App) -> Vec<Cue> {
    app.world_mut()
        .resource_mut::<Messages<PlayCue>>()
        .drain()
        .map(|c| c.0)
        .collect()
}

#[test]
fn a_counter_setting_off_is_heard_at_its_mounts_gait_or_as_steps() {
    let mut app = sound_app();
    let world = app.world_mut();
    let capable = vec![Gait::Halt, Gait::Walk, Gait::Trot, Gait::Gallop];
    let horse = world
        .spawn(GaitState {
            gait: Gait::Gallop,
            at_half_start: Gait::Trot,
            capable,
        })
        .id();
    let knight = world.spawn(RidingOn(horse)).id();
    let footman = world.spawn_empty().id();
    let knight_counter = world.spawn(CounterOf(knight)).id();
    let footman_counter = world.spawn(CounterOf(footman)).id();
    app.update();
    assert_eq!(cues_sent(&mut app), vec![], "nothing moved yet");

    let slide =
        slide_for(Vec3::ZERO, Vec3::X * 64.0, 64.0, Some(Pace::Normal), false).expect("a slide");
    app.world_mut()
        .entity_mut(knight_counter)
        .insert(slide.clone());
    app.update();
    assert_eq!(cues_sent(&mut app), vec![Cue::Hooves(Gait::Gallop)]);

    app.world_mut().entity_mut(footman_counter).insert(slide);
    app.update();
    assert_eq!(cues_sent(&mut app), vec![Cue::Steps]);
}

#[test]
fn new_log_lines_are_heard_but_a_loaded_game_is_not_replayed_aloud() {
    let mut app = sound_app();
    let mut view = GameView {
        serial: 1,
        ..Default::default()
    };
    view.log = vec![line("initiative", "Red rolls 4.", Some((4, None)))];
    app.insert_resource(view.clone());
    app.update();
    assert_eq!(cues_sent(&mut app), vec![], "the first look is not news");

    view.log.push(line(
        "melee",
        "knight strikes levy: rolls 12: a hit.",
        Some((12, Some(55))),
    ));
    view.log.push(line(
        "melee",
        "levy strikes knight: rolls 80: a miss.",
        Some((80, Some(30))),
    ));
    app.insert_resource(view.clone());
    app.update();
    assert_eq!(
        cues_sent(&mut app),
        vec![Cue::Clash],
        "two blows, one clash"
    );

    // Another game is loaded: its whole log is there at once, and is not played.
    view.serial = 2;
    view.log
        .push(line("initiative", "Blue rolls 6.", Some((6, None))));
    app.insert_resource(view);
    app.update();
    assert_eq!(cues_sent(&mut app), vec![]);
}

#[test]
fn the_volume_setting_is_kept_between_silent_and_full() {
    use crate::ui::settings::Settings;
    let loud = Settings {
        volume: 4.0,
        ..Settings::default()
    };
    assert_eq!(loud.sanitised().volume, 1.0);
    let broken = Settings {
        volume: f32::NAN,
        ..Settings::default()
    };
    assert_eq!(broken.sanitised().volume, Settings::default().volume);
}

/// With the `sound` feature (`cargo test --features sound`): every cue's file loads through
/// the asset server as Bevy audio, so what a player puts in `assets/sounds/` is what plays.
#[cfg(feature = "sound")]
#[test]
fn every_cue_file_loads_as_bevy_audio() {
    use crate::ui::tests::{asset_app, update_until};
    use bevy::asset::LoadState;
    use bevy::audio::{AudioLoader, AudioSource};
    let mut app = asset_app(&Path::new(env!("CARGO_MANIFEST_DIR")).join("assets"));
    app.init_asset::<AudioSource>()
        .init_asset_loader::<AudioLoader>();
    let server = app.world().resource::<AssetServer>().clone();
    let handles: Vec<Handle<AudioSource>> =
        Cue::ALL.iter().map(|c| server.load(c.file())).collect();
    update_until(&mut app, |_| {
        handles.iter().all(|h| {
            !matches!(
                server.load_state(h.id()),
                LoadState::Loading | LoadState::NotLoaded
            )
        })
    });
    for (cue, h) in Cue::ALL.iter().zip(&handles) {
        assert!(
            matches!(server.load_state(h.id()), LoadState::Loaded),
            "{}: {:?}",
            cue.file(),
            server.load_state(h.id())
        );
    }
}
