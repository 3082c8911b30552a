//! Motion you can follow (issue 16 item 3, first part): a counter whose figure moved slides
//! from where it stood to its new cell instead of jumping there, at the player's pace
//! ([`Pace`]: off, fast, normal), so the computer's moves and a player's own are seen, not
//! only read in the log. The slide is drawing only: the figure is already on its new cell in
//! the game (selection, clicks and the rules read that), and **Space** or a click ends every
//! slide at once. What is left of item 3 (cell by cell along the path with its pivots, charge
//! lines, flying shots) is listed in the README as not built.

use super::settings::Pace;
use bevy::prelude::*;

/// Seconds a counter takes to cross one cell at `pace`.
pub const fn secs_per_cell(pace: Pace) -> f32 {
    match pace {
        Pace::Off => 0.0,
        Pace::Fast => 0.05,
        Pace::Normal => 0.15,
    }
}

/// The longest a slide lasts, in cells' time: a long gallop is not watched for seconds.
const MAX_CELLS: f32 = 8.0;

/// A counter on its way from `from` to `to` (world positions), `age` seconds into `secs`.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Slide {
    /// Where it started.
    pub from: Vec3,
    /// Its figure's cell.
    pub to: Vec3,
    /// How long the whole slide takes.
    pub secs: f32,
    /// How long it has run.
    pub age: f32,
}

/// The slide of a counter now at `at` to `to` on cells `cell` wide, or `None` when it should
/// be put there at once: no pace (off, or no settings), a counter just made or a map just
/// laid out (`fresh`), or nowhere to go.
pub fn slide_for(at: Vec3, to: Vec3, cell: f32, pace: Option<Pace>, fresh: bool) -> Option<Slide> {
    let per_cell = secs_per_cell(pace?);
    let cells = at.truncate().distance(to.truncate()) / cell.max(1.0);
    if fresh || per_cell <= 0.0 || cells < 0.01 {
        return None;
    }
    Some(Slide {
        from: at,
        to,
        secs: per_cell * cells.min(MAX_CELLS),
        age: 0.0,
    })
}

/// Space or a left click this frame: what ends the slides and the effects on the map at once.
pub fn skip_pressed(
    keys: Option<&ButtonInput<KeyCode>>,
    buttons: Option<&ButtonInput<MouseButton>>,
) -> bool {
    keys.is_some_and(|k| k.just_pressed(KeyCode::Space))
        || buttons.is_some_and(|b| b.just_pressed(MouseButton::Left))
}

/// Moves sliding counters along; Space or a left click ends every slide at once.
pub fn slide_counters(
    mut commands: Commands,
    time: Res<Time>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    buttons: Option<Res<ButtonInput<MouseButton>>>,
    mut slides: Query<(Entity, &mut Slide, &mut Transform)>,
) {
    let skip = skip_pressed(keys.as_deref(), buttons.as_deref());
    let dt = time.delta_secs();
    for (e, mut s, mut tf) in &mut slides {
        // The click that gave the order starts its slide: only a later press skips it.
        let started = s.age > 0.0;
        s.age += dt;
        if (skip && started) || s.age >= s.secs {
            tf.translation = s.to;
            commands.entity(e).remove::<Slide>();
            continue;
        }
        // Eased in and out, so a counter starts and stops like a walking figure.
        let t = s.age / s.secs;
        let eased = t * t * (3.0 - 2.0 * t);
        tf.translation = s.from.lerp(s.to, eased);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counter_slides_at_the_pace_set_and_jumps_without_one() {
        let (a, b) = (Vec3::new(0.0, 0.0, 10.0), Vec3::new(192.0, 0.0, 10.0));
        let normal = slide_for(a, b, 64.0, Some(Pace::Normal), false).expect("slides");
        let fast = slide_for(a, b, 64.0, Some(Pace::Fast), false).expect("slides");
        assert!((normal.secs - 3.0 * 0.15).abs() < 1e-5, "three cells");
        assert!(fast.secs < normal.secs);
        assert_eq!(slide_for(a, b, 64.0, Some(Pace::Off), false), None);
        assert_eq!(slide_for(a, b, 64.0, None, false), None, "no settings");
        assert_eq!(
            slide_for(a, b, 64.0, Some(Pace::Normal), true),
            None,
            "fresh"
        );
        assert_eq!(slide_for(b, b, 64.0, Some(Pace::Normal), false), None);
        let far = slide_for(a, b * 10.0, 64.0, Some(Pace::Normal), false).expect("slides");
        assert!((far.secs - MAX_CELLS * 0.15).abs() < 1e-5, "capped");
    }

    #[test]
    fn the_slide_ends_on_the_figures_cell_and_space_ends_it_at_once() {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .init_resource::<ButtonInput<KeyCode>>()
            .add_systems(Update, slide_counters);
        let to = Vec3::new(128.0, 64.0, 10.0);
        let slide = Slide {
            from: Vec3::new(0.0, 0.0, 10.0),
            to,
            secs: 1000.0,
            age: 0.0,
        };
        let e = app
            .world_mut()
            .spawn((slide, Transform::from_translation(slide.from)))
            .id();
        // The press that gave the order (on the slide's first frame) does not skip it.
        app.world_mut()
            .resource_mut::<ButtonInput<KeyCode>>()
            .press(KeyCode::Space);
        app.update();
        {
            let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
            keys.release(KeyCode::Space);
            keys.clear();
        }
        app.update();
        let mid = app.world().get::<Transform>(e).unwrap().translation;
        assert_ne!(mid, to, "still on its way");
        assert!(app.world().get::<Slide>(e).is_some());
        app.world_mut()
            .resource_mut::<ButtonInput<KeyCode>>()
            .press(KeyCode::Space);
        app.update();
        assert_eq!(app.world().get::<Transform>(e).unwrap().translation, to);
        assert!(app.world().get::<Slide>(e).is_none());
    }
}
