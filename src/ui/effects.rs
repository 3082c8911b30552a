//! What happened, on the map (issue 11 item 4): after a blow, a shot or a charge the player
//! sees it where it happened — an arrow flying to its target ([`super::shots`]), a red flash and the body points lost floating up from the
//! figure hit, "miss" over a figure a blow or a shot missed, and "down", "stunned",
//! "disarmed" or "falls" for a new condition — instead of reading the log. The effects come
//! from what changed (the mirrored body points and conditions, and the new log lines), so the
//! melee's card rounds, the fire phase and charges all show them the same way, and so does a
//! replay. They wait while something covers the map (the reveal panel, a hand-over screen:
//! see [`EffectsHold`]), then play for [`EFFECT_SECS`] without holding up the game; `Space`
//! or a click clears them at once.

use super::art::CounterArt;
use super::bridge::{GameView, Mirror};
use super::layout::MapLayout;
use super::motion::Slide;
use super::play::PlaySet;
use super::settings::{Pace, Settings};
use super::shots::{Shot, arrow_sprite, fly_shots, shot_between};
use super::{UiSet, Z_COUNTERS};
use crate::rules::grid::Cell;
use crate::sim::components::{Body, Conditions, FigureId, Position};
use crate::sim::log::{Happening, LogEntry};
use crate::ui::settings::game_keys::GameKeys;
use bevy::prelude::*;
use std::collections::HashMap;

/// How long an effect stays on the map at the normal pace, in seconds; the player's pace
/// setting ([`Settings`]) shortens it or turns the effects off.
pub const EFFECT_SECS: f32 = Pace::Normal.effect_secs();

/// Floating numbers and flashes over the figures.
pub struct EffectsPlugin;

impl Plugin for EffectsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<EffectsHold>()
            .init_resource::<EffectsPlaying>()
            .init_resource::<Seen>()
            .init_resource::<Pending>()
            .add_systems(
                Update,
                (observe, release, animate, fly_shots)
                    .chain()
                    .after(PlaySet::View)
                    .after(UiSet::Counters)
                    .before(UiSet::Camera),
            );
    }
}

/// Set by the screens while something covers the map (the reveal, a hand-over screen, a
/// dialog): effects wait for it to go, so the results come after the cards.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EffectsHold(pub bool);

/// Effects are on the map now: the next card table waits for them (or for `Space` or a
/// click), so the results are seen before the next choice covers the map.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EffectsPlaying(pub bool);

/// One thing to show over a cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Effect {
    /// Where.
    pub cell: Cell,
    /// The words or number that float up.
    pub text: String,
    /// Bad news for the figure (red, with a flash) or not (white).
    pub hurt: bool,
}

/// Effects found but not yet shown (the map is covered, or arrows are still flying), and the
/// shots to draw first (shooter's and target's cells).
#[derive(Resource, Clone, Debug, Default)]
pub struct Pending(pub Vec<Effect>, pub Vec<(Cell, Cell)>);

/// What each figure looked like at the last look, and how much of the log was read.
#[derive(Resource, Clone, Debug, Default)]
struct Seen {
    serial: Option<u64>,
    log: usize,
    figures: HashMap<String, (u16, Vec<String>)>,
}

/// A floating text or flash; despawned when its time is up.
#[derive(Component, Debug)]
pub struct Floater {
    age: f32,
    flash: bool,
}

/// The words for conditions a figure has now and had not before (the worst first).
pub fn new_conditions(before: &[String], now: &[String]) -> Option<&'static str> {
    let gained =
        |f: &dyn Fn(&str) -> bool| now.iter().any(|w| f(w)) && !before.iter().any(|w| f(w));
    if gained(&|w| w == "dead") {
        Some("falls dead")
    } else if gained(&|w| w == "incapacitated") {
        Some("falls")
    } else if gained(&|w| w == "prone" || w == "kneeling") {
        Some("down")
    } else if gained(&|w| w.starts_with("stunned")) {
        Some("stunned")
    } else if gained(&|w| w.ends_with(" lost") || w.ends_with(" broken") || w == "empty-handed") {
        Some("disarmed")
    } else if gained(&|w| w.starts_with("restrained by")) {
        Some("grappled")
    } else if gained(&|w| w == "berserk") {
        Some("berserk!")
    } else {
        None
    }
}

/// The figure a log line says was missed: the one aimed at by a roll to hit that failed.
pub fn missed_figure(line: &LogEntry) -> Option<&str> {
    match &line.what {
        Happening::RollToHit {
            at, chance, roll, ..
        } if *roll as i32 > *chance => Some(at),
        _ => None,
    }
}

type Watched<'a> = (
    &'a FigureId,
    &'a Position,
    Option<&'a Body>,
    Option<&'a Conditions>,
);

fn observe(
    view: Res<GameView>,
    mirrors: Query<Watched, With<Mirror>>,
    mut seen: ResMut<Seen>,
    mut pending: ResMut<Pending>,
) {
    if !view.is_changed() && seen.serial.is_some() {
        return;
    }
    let fresh = seen.serial != Some(view.serial) || view.log.len() < seen.log;
    let mut found = Vec::new();
    let mut figures = HashMap::new();
    for (id, pos, body, conds) in &mirrors {
        let now = (
            body.map_or(0, |b| b.left),
            conds.map(|c| c.0.clone()).unwrap_or_default(),
        );
        if !fresh && let Some((left, before)) = seen.figures.get(&id.0) {
            let lost = left.saturating_sub(now.0);
            if lost > 0 {
                found.push(Effect {
                    cell: pos.0,
                    text: format!("-{lost}"),
                    hurt: true,
                });
            }
            if let Some(w) = new_conditions(before, &now.1) {
                found.push(Effect {
                    cell: pos.0,
                    text: w.to_string(),
                    hurt: true,
                });
            }
        }
        figures.insert(id.0.clone(), now);
    }
    if !fresh {
        let places: HashMap<&str, Cell> = mirrors.iter().map(|m| (m.0.0.as_str(), m.1.0)).collect();
        for line in view.log.get(seen.log..).unwrap_or_default() {
            if let Some((by, at)) = super::shots::shot_in(line)
                && let (Some(&from), Some(&to)) = (places.get(by), places.get(at))
            {
                pending.1.push((from, to));
            }
            if let Some(target) = missed_figure(line)
                && let Some(&cell) = places.get(target)
            {
                found.push(Effect {
                    cell,
                    text: "miss".into(),
                    hurt: false,
                });
            }
        }
    }
    seen.serial = Some(view.serial);
    seen.log = view.log.len();
    seen.figures = figures;
    if fresh {
        pending.0.clear();
        pending.1.clear();
    } else {
        pending.0.extend(found);
    }
}

/// An arrow in flight or a counter on its way: the results wait for them.
type InMotion = Or<(With<Shot>, With<Slide>)>;

fn release(
    mut commands: Commands,
    hold: Res<EffectsHold>,
    layout: Option<Res<MapLayout>>,
    art: Option<Res<CounterArt>>,
    settings: Option<Res<Settings>>,
    moving: Query<(), InMotion>,
    mut pending: ResMut<Pending>,
) {
    if hold.0 || (pending.0.is_empty() && pending.1.is_empty()) {
        return;
    }
    let (Some(layout), Some(art)) = (layout, art) else {
        pending.0.clear();
        pending.1.clear();
        return;
    };
    // Arrows first; what they did floats up once they have landed and the counters have
    // arrived (a charge's blows are shown where it ends, when it gets there).
    let pace = settings.as_deref().map(|s| s.pace);
    let mut launched = false;
    for (from, to) in pending.1.drain(..) {
        if let Some(shot) = shot_between(&layout, from, to, pace) {
            commands.spawn((shot, arrow_sprite(art.arrow.clone(), &shot, layout.cell)));
            launched = true;
        }
    }
    if launched || !moving.is_empty() {
        return;
    }
    // Several effects on one cell stack upwards instead of overlapping.
    let mut stacked: HashMap<Cell, f32> = HashMap::new();
    for e in pending.0.drain(..) {
        let k = stacked.entry(e.cell).or_insert(0.0);
        let at = layout.cell_to_world(e.cell) + Vec2::new(0.0, 0.25 + *k * 0.42) * layout.cell;
        *k += 1.0;
        let colour = if e.hurt {
            Color::srgb(1.0, 0.3, 0.25)
        } else {
            Color::srgb(0.95, 0.95, 0.95)
        };
        commands.spawn((
            Floater {
                age: 0.0,
                flash: false,
            },
            Text2d::new(e.text),
            TextFont {
                font_size: FontSize::Px(0.5 * layout.cell),
                ..default()
            },
            TextColor(colour),
            bevy::text::TextBackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.75)),
            Transform::from_translation(at.extend(Z_COUNTERS + 6.0)),
        ));
        if e.hurt {
            commands.spawn((
                Floater {
                    age: 0.0,
                    flash: true,
                },
                Sprite {
                    image: art.ring.clone(),
                    color: Color::srgba(1.0, 0.2, 0.1, 0.9),
                    custom_size: Some(Vec2::splat(layout.cell)),
                    ..default()
                },
                Transform::from_translation(layout.cell_to_world(e.cell).extend(Z_COUNTERS + 5.0)),
            ));
        }
    }
}

/// What `animate` changes on a floating text or flash.
type FloaterParts<'a> = (
    Entity,
    &'a mut Floater,
    &'a mut Transform,
    Option<&'a mut TextColor>,
    Option<&'a mut Sprite>,
);

fn animate(
    mut commands: Commands,
    time: Res<Time>,
    keys: GameKeys,
    buttons: Option<Res<ButtonInput<MouseButton>>>,
    layout: Option<Res<MapLayout>>,
    settings: Option<Res<Settings>>,
    mut playing: ResMut<EffectsPlaying>,
    mut floaters: Query<FloaterParts>,
) {
    let skip = super::motion::skip_pressed(&keys, buttons.as_deref());
    let cell = layout.map_or(64.0, |l| l.cell);
    let secs = settings.map_or(EFFECT_SECS, |s| s.pace.effect_secs());
    let dt = time.delta_secs();
    let mut alive = false;
    for (e, mut f, mut tf, text, sprite) in &mut floaters {
        f.age += dt;
        if skip || f.age >= secs {
            commands.entity(e).despawn();
            continue;
        }
        alive = true;
        let t = f.age / secs;
        let alpha = (1.0 - t * t).clamp(0.0, 1.0);
        if f.flash {
            tf.scale = Vec3::splat(1.0 + t * 0.6);
            if let Some(mut s) = sprite {
                s.color.set_alpha(alpha * 0.9);
            }
        } else {
            tf.translation.y += dt * cell * 0.35;
            if let Some(mut c) = text {
                c.0.set_alpha(alpha);
            }
        }
    }
    playing.set_if_neq(EffectsPlaying(alive));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worst_new_condition_is_named_once() {
        let w = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            new_conditions(&w(&[]), &w(&["prone", "stunned (2 rounds)"])),
            Some("down")
        );
        assert_eq!(new_conditions(&w(&["prone"]), &w(&["prone"])), None);
        assert_eq!(
            new_conditions(&w(&["prone"]), &w(&["dead"])),
            Some("falls dead")
        );
        assert_eq!(
            new_conditions(&w(&[]), &w(&["sword lost"])),
            Some("disarmed")
        );
        assert_eq!(
            new_conditions(&w(&["stunned (2 rounds)"]), &w(&["stunned (1 rounds)"])),
            None
        );
    }

    #[test]
    fn a_miss_is_shown_over_the_figure_missed() {
        let blow = |roll: u32| crate::sim::log::roll_to_hit("knight", "levy", 55, roll, false);
        assert_eq!(missed_figure(&blow(73)), Some("levy"));
        assert_eq!(missed_figure(&blow(55)), None, "55 or less hits");
        assert_eq!(missed_figure(&blow(12)), None);
    }
}
