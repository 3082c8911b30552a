//! What calls for a sound, heard from what the player sees: a counter setting off
//! ([`Slide`] added), a result floating up ([`Floater`] added), new log lines with rolls, and a
//! press on a panel. Each frame's cues go out as [`PlayCue`] messages, one of each kind
//! ([`one_of_each`]).

use super::PlayCue;
use super::cue::{Cue, cue_for_line, cue_for_move, cue_for_result, one_of_each};
use crate::sim::components::{GaitState, RidingOn};
use crate::ui::bridge::GameView;
use crate::ui::counters::CounterOf;
use crate::ui::effects::Floater;
use crate::ui::motion::Slide;
use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;

pub(super) fn build(app: &mut App) {
    // After `Update`, so the slides and results its systems added are there to be heard.
    app.init_resource::<LogHeard>()
        .add_systems(PostUpdate, hear);
}

/// How much of the log was heard, and of which game: a new or loaded game is not replayed
/// aloud.
#[derive(Resource, Debug, Default)]
pub(super) struct LogHeard {
    serial: Option<u64>,
    lines: usize,
}

/// Whether the pointer is over an egui panel or window.
fn over_panel(egui: Option<&EguiWantsInput>) -> bool {
    egui.is_some_and(|e| e.is_pointer_over_area())
}

pub(super) fn hear(
    view: Option<Res<GameView>>,
    mut heard: ResMut<LogHeard>,
    set_off: Query<&CounterOf, Added<Slide>>,
    riders: Query<(Option<&RidingOn>, Option<&GaitState>)>,
    gaits: Query<&GaitState>,
    results: Query<&Text2d, Added<Floater>>,
    buttons: Option<Res<ButtonInput<MouseButton>>>,
    egui: Option<Res<EguiWantsInput>>,
    mut out: MessageWriter<PlayCue>,
) {
    let mut cues = Vec::new();
    if let Some(view) = view {
        let fresh = heard.serial != Some(view.serial) || view.log.len() < heard.lines;
        if !fresh {
            cues.extend(
                view.log
                    .get(heard.lines..)
                    .unwrap_or_default()
                    .iter()
                    .filter_map(cue_for_line),
            );
        }
        heard.serial = Some(view.serial);
        heard.lines = view.log.len();
    }
    for of in &set_off {
        // A rider's counter moves with its mount's gait; a riderless horse with its own.
        let gait = riders.get(of.0).ok().and_then(|(riding, own)| {
            riding
                .and_then(|r| gaits.get(r.0).ok())
                .or(own)
                .map(|g| g.gait)
        });
        cues.push(cue_for_move(gait));
    }
    cues.extend(results.iter().filter_map(|t| cue_for_result(&t.0)));
    if buttons.is_some_and(|b| b.just_pressed(MouseButton::Left)) && over_panel(egui.as_deref()) {
        cues.push(Cue::Click);
    }
    out.write_batch(one_of_each(cues).into_iter().map(PlayCue));
}
