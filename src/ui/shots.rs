//! Shots you can see fly (issue 16 item 3): when the log reports a roll to hit in the fire
//! phase, an arrow flies from the shooter to its target at the player's pace, the computer's
//! shots as a player's, before the result floats up over the target (`effects` waits for the
//! arrows to land). Drawing only; **Space** or a click ends the flights at once.

use super::layout::MapLayout;
use super::settings::Pace;
use crate::rules::grid::Cell;
use crate::sim::log::{Happening, LogEntry};
use crate::ui::settings::game_keys::GameKeys;
use bevy::prelude::*;

/// An arrow on its way from `from` to `to` (world positions), `age` seconds into `secs`.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Shot {
    /// The shooter's cell centre.
    pub from: Vec3,
    /// The target's cell centre.
    pub to: Vec3,
    /// How long the flight takes.
    pub secs: f32,
    /// How long it has flown.
    pub age: f32,
}

/// How long an arrow flies at `pace`, whatever the range: long enough to follow, short
/// enough not to hold up a volley.
pub const fn flight_secs(pace: Pace) -> f32 {
    match pace {
        Pace::Off => 0.0,
        Pace::Fast => 0.15,
        Pace::Normal => 0.4,
    }
}

/// The shooter and target of a log line that reports a shot (a roll to hit in a fire phase).
pub fn shot_in(line: &LogEntry) -> Option<(&str, &str)> {
    match &line.what {
        Happening::RollToHit {
            by, at, shot: true, ..
        } => Some((by, at)),
        _ => None,
    }
}

/// An arrow from cell `from` to cell `to` at `pace`, or `None` when shots are not drawn.
pub fn shot_between(layout: &MapLayout, from: Cell, to: Cell, pace: Option<Pace>) -> Option<Shot> {
    let secs = flight_secs(pace?);
    (secs > 0.0 && from != to).then(|| Shot {
        from: layout.cell_to_world(from).extend(super::Z_COUNTERS + 4.0),
        to: layout.cell_to_world(to).extend(super::Z_COUNTERS + 4.0),
        secs,
        age: 0.0,
    })
}

/// The sprite of a new arrow: pointing from the shooter at the target.
pub fn arrow_sprite(image: Handle<Image>, shot: &Shot, cell: f32) -> (Sprite, Transform) {
    let d = (shot.to - shot.from).truncate();
    let angle = d.y.atan2(d.x) - std::f32::consts::FRAC_PI_2;
    (
        Sprite {
            image,
            custom_size: Some(Vec2::new(0.22, 0.88) * cell),
            ..default()
        },
        Transform::from_translation(shot.from).with_rotation(Quat::from_rotation_z(angle)),
    )
}

/// Flies the arrows; Space or a left click ends every flight at once.
pub fn fly_shots(
    mut commands: Commands,
    time: Res<Time>,
    keys: GameKeys,
    buttons: Option<Res<ButtonInput<MouseButton>>>,
    mut shots: Query<(Entity, &mut Shot, &mut Transform)>,
) {
    let skip = super::motion::skip_pressed(&keys, buttons.as_deref());
    for (e, mut s, mut tf) in &mut shots {
        let started = s.age > 0.0;
        s.age += time.delta_secs();
        if (skip && started) || s.age >= s.secs {
            commands.entity(e).despawn();
            continue;
        }
        let t = s.age / s.secs;
        // A shallow arc: up a little and down onto the target.
        let lift = (t * (1.0 - t)) * 4.0 * 0.15 * s.from.truncate().distance(s.to.truncate());
        tf.translation = s.from.lerp(s.to, t) + Vec3::Y * lift;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roll_to_hit(by: &str, at: &str, shot: bool) -> LogEntry {
        crate::sim::log::roll_to_hit(by, at, 55, 40, shot)
    }

    #[test]
    fn a_shot_flies_from_the_shooter_to_the_figure_aimed_at() {
        let shot = roll_to_hit("blue_archer_1", "red_foot_1", true);
        assert_eq!(shot_in(&shot), Some(("blue_archer_1", "red_foot_1")));
        let blow = roll_to_hit("red_knight_1", "red_foot_1", false);
        assert_eq!(shot_in(&blow), None, "a blow is no shot");
        let told = LogEntry::new(
            1,
            "fire and spells (first)",
            "blue_archer_1 shoots at red_foot_1".into(),
            None,
            Happening::Told,
        );
        assert_eq!(shot_in(&told), None, "words alone are no shot");
    }

    #[test]
    fn an_arrow_flies_at_the_pace_set_and_lands_on_the_target() {
        let layout = MapLayout::new(crate::rules::grid::GridKind::Square, 10, 10);
        let (a, b) = (Cell::new(1, 1), Cell::new(6, 1));
        let normal = shot_between(&layout, a, b, Some(Pace::Normal)).expect("flies");
        let fast = shot_between(&layout, a, b, Some(Pace::Fast)).expect("flies");
        assert!(fast.secs < normal.secs);
        assert_eq!(shot_between(&layout, a, b, Some(Pace::Off)), None);
        assert_eq!(shot_between(&layout, a, b, None), None);
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .add_systems(Update, fly_shots);
        let e = app
            .world_mut()
            .spawn((normal, Transform::from_translation(normal.from)))
            .id();
        app.update();
        assert!(app.world().get::<Shot>(e).is_some(), "in flight");
        // Time advances at most 0.25 s a frame (Bevy's `max_delta`): two frames.
        for _ in 0..2 {
            std::thread::sleep(std::time::Duration::from_millis(260));
            app.update();
        }
        assert!(app.world().get_entity(e).is_err(), "landed and gone");
    }
}
