//! Motion you can follow (issue 16 item 3): a counter whose figure moved goes from where it
//! stood to its new cell instead of jumping there, at the player's pace ([`Pace`]: off, fast,
//! normal), so the computer's moves and a player's own are seen, not only read in the log. A
//! move goes cell by cell along its path, turning in place at each pivot (the figure's
//! [`Trail`](crate::sim::components::Trail)); anything else that moves a figure (a charge
//! along its line, a retreat, a rout) slides straight. It is drawing only: the figure is
//! already on its new cell in the game (selection, clicks and the rules read that), and
//! **Space** or a click ends every slide at once.

use super::settings::Pace;
use crate::ui::settings::game_keys::GameKeys;
use crate::ui::settings::keymap::Command;
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

/// A pivot in place takes this many cells' time, so a turn is seen.
const PIVOT_CELLS: f32 = 0.6;

/// One stretch of a slide: where it ends, the facing shown on it (an angle, radians), and
/// how long it takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Leg {
    /// Where the counter is at the end of the leg.
    pub to: Vec3,
    /// The facing the counter turns to over the leg, if known.
    pub facing: Option<f32>,
    /// Seconds.
    pub secs: f32,
}

/// A counter on its way from `from` along its legs, `age` seconds into `secs`.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct Slide {
    /// Where it started.
    pub from: Vec3,
    /// The facing it started with.
    pub from_facing: Option<f32>,
    /// The way there, in order; the last leg ends on its figure's cell.
    pub legs: Vec<Leg>,
    /// How long it has run.
    pub age: f32,
    /// The counter's front marker and its distance from the centre (world units), turned to
    /// each leg's facing as the counter goes.
    pub front: Option<(Entity, f32)>,
}

impl Slide {
    /// How long the whole slide takes: its legs' time.
    pub fn secs(&self) -> f32 {
        self.legs.iter().map(|l| l.secs).sum()
    }

    /// Where the counter is, and which way it faces, `age` seconds in.
    pub fn at(&self, age: f32) -> (Vec3, Option<f32>) {
        let mut start = (self.from, self.from_facing);
        let mut t0 = 0.0;
        for leg in &self.legs {
            if age < t0 + leg.secs {
                let t = ((age - t0) / leg.secs.max(1e-6)).clamp(0.0, 1.0);
                // Eased in and out, so a counter starts and stops like a walking figure.
                let eased = t * t * (3.0 - 2.0 * t);
                let facing = match (start.1, leg.facing) {
                    (Some(a), Some(b)) => Some(a + shortest_turn(a, b) * eased),
                    (_, b) => b,
                };
                return (start.0.lerp(leg.to, eased), facing);
            }
            t0 += leg.secs;
            start = (leg.to, leg.facing.or(start.1));
        }
        start
    }
}

/// Put on a counter whose slide has just ended, so its looks (wounds, conditions, symbol),
/// held back while it moved, are shown now that it has arrived: a charge's results are not
/// seen before the charge gets there.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct SlideEnded;

/// The signed turn from angle `a` to `b` the short way round.
fn shortest_turn(a: f32, b: f32) -> f32 {
    let tau = std::f32::consts::TAU;
    (b - a + tau * 1.5).rem_euclid(tau) - tau * 0.5
}

/// The slide of a counter now at `at` to `to` on cells `cell` wide, straight, or `None` when
/// it should be put there at once: no pace (off, or no settings), a counter just made or a map
/// just laid out (`fresh`), or nowhere to go.
pub fn slide_for(at: Vec3, to: Vec3, cell: f32, pace: Option<Pace>, fresh: bool) -> Option<Slide> {
    if fresh {
        return None;
    }
    slide_along(at, None, &[(to, None)], cell, pace)
}

/// The slide of a counter now at `at` facing `facing` through `points` (positions and the
/// facings there; a point on the same spot with a new facing is a pivot), or `None` as for
/// [`slide_for`].
pub fn slide_along(
    at: Vec3,
    facing: Option<f32>,
    points: &[(Vec3, Option<f32>)],
    cell: f32,
    pace: Option<Pace>,
) -> Option<Slide> {
    let per_cell = secs_per_cell(pace?);
    if per_cell <= 0.0 {
        return None;
    }
    let mut legs = Vec::new();
    let mut here = at;
    for &(to, f) in points {
        let cells = here.truncate().distance(to.truncate()) / cell.max(1.0);
        let turns = matches!((legs.last().map_or(facing, |l: &Leg| l.facing), f), (Some(a), Some(b)) if (a - b).abs() > 1e-3);
        let secs = if cells >= 0.01 {
            per_cell * cells
        } else if turns {
            per_cell * PIVOT_CELLS
        } else {
            continue;
        };
        legs.push(Leg {
            to,
            facing: f,
            secs,
        });
        here = to;
    }
    let total: f32 = legs.iter().map(|l| l.secs).sum();
    if legs.is_empty() || total <= 0.0 {
        return None;
    }
    // A long move is quickened to fit the cap, every leg alike.
    let cap = per_cell * MAX_CELLS;
    if total > cap {
        for leg in &mut legs {
            leg.secs *= cap / total;
        }
    }
    Some(Slide {
        from: at,
        from_facing: facing,
        legs,
        age: 0.0,
        front: None,
    })
}

/// The fast-forward key (Space unless the player changed it) or a left click this frame:
/// what ends the slides and the effects on the map at once.
pub fn skip_pressed(keys: &GameKeys, buttons: Option<&ButtonInput<MouseButton>>) -> bool {
    keys.just(Command::FastForward) || buttons.is_some_and(|b| b.just_pressed(MouseButton::Left))
}

/// Puts a counter's front marker `radius` out from its centre towards the facing `angle`,
/// pointing that way.
pub fn place_front(tf: &mut Transform, angle: f32, radius: f32) {
    tf.translation = (super::layout::angle_vector(angle) * radius).extend(tf.translation.z);
    tf.rotation = Quat::from_rotation_z(angle);
}

/// Moves sliding counters along, turning their front markers; Space or a left click ends
/// every slide at once.
pub fn slide_counters(
    mut commands: Commands,
    time: Res<Time>,
    keys: GameKeys,
    buttons: Option<Res<ButtonInput<MouseButton>>>,
    mut slides: Query<(Entity, &mut Slide, &mut Transform)>,
    mut fronts: Query<&mut Transform, Without<Slide>>,
) {
    let skip = skip_pressed(&keys, buttons.as_deref());
    let dt = time.delta_secs();
    for (e, mut s, mut tf) in &mut slides {
        // The click that gave the order starts its slide: only a later press skips it.
        let started = s.age > 0.0;
        s.age += dt;
        let done = (skip && started) || s.age >= s.secs();
        let (at, facing) = if done {
            s.at(f32::INFINITY)
        } else {
            s.at(s.age)
        };
        tf.translation = at;
        if let (Some((front, radius)), Some(angle)) = (s.front, facing)
            && let Ok(mut f) = fronts.get_mut(front)
        {
            place_front(&mut f, angle, radius);
        }
        if done {
            commands.entity(e).remove::<Slide>().insert(SlideEnded);
        }
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
        assert!((normal.secs() - 3.0 * 0.15).abs() < 1e-5, "three cells");
        assert!(fast.secs() < normal.secs());
        assert_eq!(slide_for(a, b, 64.0, Some(Pace::Off), false), None);
        assert_eq!(slide_for(a, b, 64.0, None, false), None, "no settings");
        assert_eq!(
            slide_for(a, b, 64.0, Some(Pace::Normal), true),
            None,
            "fresh"
        );
        assert_eq!(slide_for(b, b, 64.0, Some(Pace::Normal), false), None);
        let far = slide_for(a, b * 10.0, 64.0, Some(Pace::Normal), false).expect("slides");
        assert!((far.secs() - MAX_CELLS * 0.15).abs() < 1e-5, "capped");
    }

    #[test]
    fn the_slide_ends_on_the_figures_cell_and_space_ends_it_at_once() {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .init_resource::<ButtonInput<KeyCode>>()
            .add_systems(Update, slide_counters);
        let to = Vec3::new(128.0, 64.0, 10.0);
        let from = Vec3::new(0.0, 0.0, 10.0);
        let slide = Slide {
            from,
            from_facing: None,
            legs: vec![Leg {
                to,
                facing: None,
                secs: 1000.0,
            }],
            age: 0.0,
            front: None,
        };
        let e = app
            .world_mut()
            .spawn((slide, Transform::from_translation(from)))
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

    /// Issue 16 item 3: "moves slide along the previewed path cell by cell with the pivots
    /// shown": a path's corner is visited, and a pivot in place turns the front marker.
    #[test]
    fn a_slide_follows_the_path_cell_by_cell_and_turns_at_pivots() {
        let (a, b, c) = (
            Vec3::new(0.0, 0.0, 10.0),
            Vec3::new(64.0, 0.0, 10.0),
            Vec3::new(64.0, 64.0, 10.0),
        );
        let east = -std::f32::consts::FRAC_PI_2;
        let north = 0.0;
        let slide = slide_along(
            a,
            Some(east),
            &[(b, Some(east)), (b, Some(north)), (c, Some(north))],
            64.0,
            Some(Pace::Normal),
        )
        .expect("slides");
        assert_eq!(slide.legs.len(), 3, "a cell, a pivot, a cell");
        let pivot = slide.legs[1].secs;
        assert!((pivot - PIVOT_CELLS * 0.15).abs() < 1e-5);
        assert!((slide.secs() - (2.0 + PIVOT_CELLS) * 0.15).abs() < 1e-5);
        // At the end of the first leg it stands on the corner, still facing east …
        let (at, facing) = slide.at(slide.legs[0].secs);
        assert!(at.distance(b) < 1e-3, "{at}");
        assert!((facing.unwrap() - east).abs() < 1e-3);
        // … half-way through the pivot it is on the corner, half turned …
        let (at, facing) = slide.at(slide.legs[0].secs + pivot / 2.0);
        assert!(at.distance(b) < 1e-3);
        assert!((facing.unwrap() - east / 2.0).abs() < 1e-3, "{facing:?}");
        // … and it ends on the last cell, facing north.
        let (at, facing) = slide.at(f32::INFINITY);
        assert_eq!(at, c);
        assert!((facing.unwrap() - north).abs() < 1e-3);
        // Turning the short way round: from just left of south to just right of it.
        assert!((shortest_turn(3.0, -3.0) - (std::f32::consts::TAU - 6.0)).abs() < 1e-4);
    }
}
