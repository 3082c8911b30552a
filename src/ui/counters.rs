//! Figure counters. The simulation's figure entities stay free of rendering components: each
//! figure that stands on its own gets a separate counter entity linked by [`CounterOf`], which
//! despawns with it. A mounted pair (rider with `RidingOn`, mount with `CarriedBy`) gets one
//! counter, on the rider. Counters follow `Position`, `Facing`, `Body`, `SideId`, `Troop`,
//! `RidingOn`/`CarriedBy` and [`Selected`] changes, whoever makes them.

use super::art::CounterArt;
use super::layout::MapLayout;
use super::look::{CounterLook, FigureFacts, MountFacts, counter_look};
use super::settings::{Palette, Settings, side_colour};
use super::{Selected, UiSet, Z_COUNTERS};
use crate::sim::components::{
    Body, CarriedBy, Conditions, Facing, Position, RidingOn, SideId, Troop, Weapon,
};
use bevy::prelude::*;
use std::collections::HashSet;

/// Keeps a counter on every free-standing figure and its looks up to date.
pub struct CountersPlugin;

impl Plugin for CountersPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            (
                attach_counters,
                detach_counters,
                refresh_counters,
                super::motion::slide_counters,
            )
                .chain()
                .in_set(UiSet::Counters),
        );
    }
}

/// On a counter entity: the figure it shows (the rider, for a mounted pair).
#[derive(Component, Debug)]
#[relationship(relationship_target = HasCounter)]
pub struct CounterOf(pub Entity);

/// On a figure entity: its counter, maintained by Bevy from [`CounterOf`]; despawning the
/// figure despawns the counter.
#[derive(Component, Debug)]
#[relationship_target(relationship = CounterOf, linked_spawn)]
pub struct HasCounter(Entity);

impl HasCounter {
    /// The counter entity.
    pub fn get(&self) -> Entity {
        self.0
    }
}

/// The child sprites of a counter, updated in place rather than respawned.
#[derive(Component, Debug, Clone, Copy)]
pub struct CounterParts {
    base: Entity,
    letter: Entity,
    wedge: Entity,
    horseshoe: Entity,
    wound: Entity,
    mount_wound: Entity,
    ring: Entity,
    /// The condition marks ("DN ST"), under the counter on a dark strip.
    badges: Entity,
}

/// Counter sizes as fractions of a cell width.
const COUNTER: f32 = 0.74;
const WEDGE: f32 = 0.3;
const MARK: f32 = 0.17;
const SHOE: f32 = 0.22;
const RING: f32 = 1.04;

/// Figures that need a counter: placed, and not carried by a rider.
type Standalone = (With<Position>, Without<CarriedBy>, Without<HasCounter>);

fn attach_counters(
    mut commands: Commands,
    art: Option<Res<CounterArt>>,
    layout: Option<Res<MapLayout>>,
    figures: Query<Entity, Standalone>,
) {
    let (Some(art), Some(layout)) = (art, layout) else {
        return;
    };
    for figure in &figures {
        spawn_counter(&mut commands, &art, layout.cell, figure);
    }
}

fn sprite(image: &Handle<Image>, size: f32, colour: Color) -> Sprite {
    Sprite {
        image: image.clone(),
        color: colour,
        custom_size: Some(Vec2::splat(size)),
        ..default()
    }
}

fn spawn_counter(commands: &mut Commands, art: &CounterArt, cell: f32, figure: Entity) {
    let at = |x: f32, y: f32, z: f32| Transform::from_xyz(x * cell, y * cell, z);
    let hidden = Visibility::Hidden;
    let mut part = |b: (Sprite, Transform, Visibility)| commands.spawn(b).id();
    let ring = part((
        sprite(&art.ring, RING * cell, Color::srgb(1.0, 0.85, 0.2)),
        at(0.0, 0.0, 0.0),
        hidden,
    ));
    let base = part((
        sprite(&art.base, COUNTER * cell, Color::WHITE),
        at(0.0, 0.0, 0.1),
        Visibility::Inherited,
    ));
    let wedge = part((
        sprite(&art.wedge, WEDGE * cell, Color::srgb(1.0, 0.95, 0.7)),
        at(0.0, 0.0, 0.4),
        hidden,
    ));
    let horseshoe = part((
        sprite(&art.horseshoe, SHOE * cell, Color::srgb(0.95, 0.88, 0.7)),
        at(0.0, -0.21, 0.3),
        hidden,
    ));
    let wound = part((
        sprite(&art.dot, MARK * cell, Color::srgb(0.95, 0.1, 0.1)),
        at(0.19, -0.2, 0.3),
        hidden,
    ));
    let mount_wound = part((
        sprite(&art.dot, MARK * cell, Color::srgb(1.0, 0.55, 0.1)),
        at(-0.19, -0.2, 0.3),
        hidden,
    ));
    let letter = commands
        .spawn((
            Text2d::new("?"),
            TextFont {
                font_size: FontSize::Px(0.4 * cell),
                ..default()
            },
            TextColor(Color::WHITE),
            at(0.0, 0.05, 0.2),
        ))
        .id();
    let badges = commands
        .spawn((
            Text2d::new(""),
            TextFont {
                font_size: FontSize::Px(0.2 * cell),
                ..default()
            },
            TextColor(Color::srgb(1.0, 0.9, 0.3)),
            bevy::text::TextBackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.75)),
            at(0.0, -0.43, 0.5),
            hidden,
        ))
        .id();
    let parts = CounterParts {
        base,
        letter,
        wedge,
        horseshoe,
        wound,
        mount_wound,
        ring,
        badges,
    };
    commands
        .spawn((
            CounterOf(figure),
            parts,
            Name::new("counter"),
            Transform::default(),
            Visibility::Inherited,
        ))
        .add_children(&[
            ring,
            base,
            letter,
            wedge,
            horseshoe,
            wound,
            mount_wound,
            badges,
        ]);
}

fn detach_counters(mut commands: Commands, carried: Query<&HasCounter, With<CarriedBy>>) {
    for counter in &carried {
        commands.entity(counter.get()).despawn();
    }
}

/// Anything that changes a counter's looks, on a rider, a mount or a figure on its own.
type Watched = Or<(
    Changed<Position>,
    Changed<Facing>,
    Changed<Body>,
    Changed<SideId>,
    Changed<Troop>,
    Changed<Weapon>,
    Changed<RidingOn>,
    Changed<CarriedBy>,
    Changed<Selected>,
    Changed<Conditions>,
)>;

/// The components a counter reads from a figure.
type FigureData = (
    &'static Position,
    Option<&'static SideId>,
    Option<&'static Troop>,
    Option<&'static Weapon>,
    Option<&'static Facing>,
    Option<&'static Body>,
    Option<&'static RidingOn>,
    Option<&'static CarriedBy>,
    Has<Selected>,
    Option<&'static Conditions>,
);

#[allow(clippy::too_many_arguments)]
fn refresh_counters(
    mut commands: Commands,
    layout: Option<Res<MapLayout>>,
    settings: Option<Res<Settings>>,
    changed: Query<(Entity, Option<&CarriedBy>), Watched>,
    new_counters: Query<&CounterOf, Added<CounterParts>>,
    all_counters: Query<&CounterOf>,
    mut unselected: RemovedComponents<Selected>,
    mut unmounted: RemovedComponents<RidingOn>,
    figures: Query<FigureData>,
    owners: Query<&HasCounter>,
    mut counters: Query<(&CounterParts, &mut Transform)>,
    mut parts: PartQuery,
) {
    let Some(layout) = layout else { return };
    let fresh: HashSet<Entity> = new_counters.iter().map(|c| c.0).collect();
    let mut dirty: HashSet<Entity> = changed
        .iter()
        .map(|(e, carried)| carried.map_or(e, |c| c.0))
        .chain(fresh.iter().copied())
        .collect();
    for e in unselected.read().chain(unmounted.read()) {
        let owner = figures.get(e).ok().and_then(|f| f.7.map(|c| c.0));
        dirty.insert(owner.unwrap_or(e));
    }
    // A new palette repaints every counter, as a new layout moves them all.
    let palette = settings
        .as_ref()
        .map_or_else(Palette::default, |s| s.palette);
    // No settings (headless apps and tests): counters are placed at once, never slid.
    let pace = settings.as_deref().map(|s| s.pace);
    if layout.is_changed() || settings.is_some_and(|s| s.is_changed()) {
        dirty.extend(all_counters.iter().map(|c| c.0));
    }
    for figure in dirty {
        let Ok(counter) = owners.get(figure).map(HasCounter::get) else {
            continue;
        };
        let Ok((pos, side, troop, weapon, facing, body, riding, _, selected, conds)) =
            figures.get(figure)
        else {
            continue;
        };
        let facts = FigureFacts {
            side: side.map_or(0, |s| s.0),
            troop: troop.map(|t| t.0),
            weapon: weapon.map(|w| w.0.as_str()),
            facing: facing.map(|f| f.0),
            body: body.map(|b| (b.left, b.max)),
            selected,
            conditions: conds.map_or(&[][..], |c| &c.0[..]),
        };
        let mount = riding
            .and_then(|r| figures.get(r.0).ok())
            .map(|m| MountFacts {
                facing: m.4.map(|f| f.0),
                body: m.5.map(|b| (b.left, b.max)),
                selected: m.8,
                conditions: m.9.map_or(&[][..], |c| &c.0[..]),
            });
        let look = counter_look(layout.grid, &facts, mount.as_ref());
        let Ok((p, mut tf)) = counters.get_mut(counter) else {
            continue;
        };
        // A figure that moved slides there (issue 16 item 3); a new counter or map is placed.
        let to = layout.cell_to_world(pos.0).extend(Z_COUNTERS);
        let placed_now = layout.is_changed() || fresh.contains(&figure);
        match super::motion::slide_for(tf.translation, to, layout.cell, pace, placed_now) {
            Some(slide) => {
                commands.entity(counter).insert(slide);
            }
            None => {
                tf.translation = to;
                commands.entity(counter).remove::<super::motion::Slide>();
            }
        }
        apply_look(&look, palette, p, layout.cell, &mut parts);
    }
}

/// The sprite and text parts of counters, as `apply_look` edits them.
type PartQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static mut Transform,
        &'static mut Visibility,
        Option<&'static mut Sprite>,
        Option<&'static mut Text2d>,
    ),
    Without<CounterParts>,
>;

fn show(on: bool) -> Visibility {
    if on {
        Visibility::Inherited
    } else {
        Visibility::Hidden
    }
}

fn apply_look(
    look: &CounterLook,
    palette: Palette,
    p: &CounterParts,
    cell: f32,
    parts: &mut PartQuery,
) {
    if let Ok((mut tf, _, Some(mut s), _)) = parts.get_mut(p.base) {
        // A fallen figure lies greyed and tipped over.
        s.color = if look.fallen {
            let c = side_colour(palette, look.side).to_srgba();
            let grey = |v: f32| v * 0.3 + 0.35 * 0.7;
            Color::srgb(grey(c.red), grey(c.green), grey(c.blue))
        } else {
            side_colour(palette, look.side)
        };
        tf.rotation = Quat::from_rotation_z(if look.fallen { 0.5 } else { 0.0 });
    }
    if let Ok((_, mut vis, _, Some(mut t))) = parts.get_mut(p.badges) {
        let marks = look.badges.join(" ");
        if t.0 != marks {
            t.0 = marks;
        }
        vis.set_if_neq(show(!look.badges.is_empty()));
    }
    if let Ok((_, _, _, Some(mut t))) = parts.get_mut(p.letter) {
        let glyph = look.glyph.to_string();
        if t.0 != glyph {
            t.0 = glyph;
        }
    }
    if let Ok((mut tf, mut vis, _, _)) = parts.get_mut(p.wedge) {
        *vis = show(look.facing.is_some());
        let angle = look.facing.unwrap_or(0.0);
        let out = Vec2::new(-angle.sin(), angle.cos()) * (COUNTER * 0.5 + WEDGE * 0.1) * cell;
        tf.translation = out.extend(tf.translation.z);
        tf.rotation = Quat::from_rotation_z(angle);
    }
    for (part, on) in [
        (p.horseshoe, look.mounted),
        (p.wound, look.wounded),
        (p.mount_wound, look.mount_wounded),
        (p.ring, look.selected),
    ] {
        if let Ok((_, mut vis, _, _)) = parts.get_mut(part) {
            vis.set_if_neq(show(on));
        }
    }
}
