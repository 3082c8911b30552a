//! Figure counters. The simulation's figure entities stay free of rendering components: each
//! figure that stands on its own gets a separate counter entity linked by [`CounterOf`], which
//! despawns with it. A mounted pair (rider with `RidingOn`, mount with `CarriedBy`) gets one
//! counter, on the rider. Counters follow `Position`, `Facing`, `Body`, `SideId`, `Troop`,
//! `RidingOn`/`CarriedBy` and [`Selected`] changes, whoever makes them.

use super::art::CounterArt;
use super::layout::{MapLayout, facing_angle};
use super::look::{CounterLook, FigureFacts, MountFacts, counter_look, factor_row, gait_letter};
use super::motion::{Slide, SlideEnded, place_front, slide_along, slide_for};
use super::settings::{Palette, Settings, side_colour};
use super::{Selected, UiSet, Z_COUNTERS};
use crate::rules::gait::Gait;
use crate::rules::mp::Mp;
use crate::rules::ruleset::{Ruleset, TroopType};
use crate::sim::components::{
    Allowance, Armour, Blows, Body, CarriedBy, Conditions, Facing, GaitState, Position, Quality,
    Rate, RidingOn, SideId, TemplateKey, Trail, Troop, Weapon,
};
use crate::sim::motion::fresh_allowance;
use crate::sim::world::Rules;
use bevy::ecs::query::QueryData;
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

/// The child sprites and texts of a counter that change, updated in place rather than
/// respawned (the plate never changes).
#[derive(Component, Debug, Clone, Copy)]
pub struct CounterParts {
    body: Entity,
    symbol: Entity,
    heraldry: Entity,
    front: Entity,
    leader: Entity,
    moved: Entity,
    wound: Entity,
    mount_wound: Entity,
    ring: Entity,
    /// Blows, armour and movement left, on the counter's bottom band.
    factors: Entity,
    /// The gait letter, top centre.
    gait: Entity,
    /// The condition marks ("DN ST"), under the counter on a dark strip.
    badges: Entity,
}

/// Where a counter part sits and how big it is, in cell widths from the counter's centre
/// (y up). The body's drawing fills 86 of its 96 pixels, so its visible edge is at ±[`EDGE`]:
/// the counter fills nine tenths of a cell, as a wargame counter fills its hex.
const COUNTER: f32 = 1.0;
const EDGE: f32 = COUNTER * 43.0 / 96.0;
const PLATE: (f32, f32, f32) = (0.0, 0.02, 0.54);
const SYMBOL: (f32, f32, f32) = (0.0, 0.02, 0.39);
const HERALDRY: (f32, f32, f32) = (-0.33, 0.33, 0.2);
const LEADER: (f32, f32, f32) = (0.33, 0.33, 0.2);
const MOVED: (f32, f32, f32) = (0.37, 0.02, 0.14);
const WOUND: (f32, f32, f32) = (-0.37, 0.09, 0.12);
const MOUNT_WOUND: (f32, f32, f32) = (-0.37, -0.06, 0.12);
const FACTORS: (f32, f32, f32) = (0.0, -0.315, 0.19);
const GAIT: (f32, f32, f32) = (0.0, 0.335, 0.17);
const BADGES: (f32, f32, f32) = (0.0, -0.54, 0.2);
const FRONT: f32 = 0.26;
/// How far out the front marker sits: straddling the counter's edge.
const FRONT_AT: f32 = EDGE + FRONT * 0.3;
const RING: f32 = 1.2;

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

fn sprite(image: &Handle<Image>, size: Vec2, colour: Color) -> Sprite {
    Sprite {
        image: image.clone(),
        color: colour,
        custom_size: Some(size),
        ..default()
    }
}

fn spawn_counter(commands: &mut Commands, art: &CounterArt, cell: f32, figure: Entity) {
    let at = |(x, y, _): (f32, f32, f32), z: f32| Transform::from_xyz(x * cell, y * cell, z);
    let square = |(_, _, size): (f32, f32, f32)| Vec2::splat(size * cell);
    let hidden = Visibility::Hidden;
    let mut part = |b: (Sprite, Transform, Visibility)| commands.spawn(b).id();
    let ring = part((
        sprite(
            &art.ring,
            Vec2::splat(RING * cell),
            Color::srgb(1.0, 0.85, 0.2),
        ),
        at((0.0, 0.0, 0.0), 0.0),
        hidden,
    ));
    let body = part((
        sprite(&art.body, Vec2::splat(COUNTER * cell), Color::WHITE),
        at((0.0, 0.0, 0.0), 0.1),
        Visibility::Inherited,
    ));
    // The plate keeps its drawing's 4:3 shape.
    let plate = part((
        sprite(
            &art.plate,
            Vec2::new(PLATE.2, PLATE.2 * 0.75) * cell,
            Color::WHITE,
        ),
        at(PLATE, 0.15),
        Visibility::Inherited,
    ));
    let symbol = part((
        sprite(&Handle::default(), square(SYMBOL), Color::WHITE),
        at(SYMBOL, 0.2),
        Visibility::Inherited,
    ));
    let heraldry = part((
        sprite(&Handle::default(), square(HERALDRY), Color::WHITE),
        at(HERALDRY, 0.2),
        Visibility::Inherited,
    ));
    let front = part((
        sprite(
            &art.front,
            Vec2::splat(FRONT * cell),
            Color::srgb(1.0, 0.95, 0.7),
        ),
        at((0.0, 0.0, 0.0), 0.4),
        hidden,
    ));
    let leader = part((
        sprite(&art.leader, square(LEADER), Color::WHITE),
        at(LEADER, 0.3),
        hidden,
    ));
    let moved = part((
        sprite(&art.moved, square(MOVED), Color::WHITE),
        at(MOVED, 0.3),
        hidden,
    ));
    let wound = part((
        sprite(&art.wound, square(WOUND), Color::srgb(0.95, 0.1, 0.1)),
        at(WOUND, 0.3),
        hidden,
    ));
    let mount_wound = part((
        sprite(&art.wound, square(MOUNT_WOUND), Color::srgb(1.0, 0.55, 0.1)),
        at(MOUNT_WOUND, 0.3),
        hidden,
    ));
    let mut text = |place: (f32, f32, f32), colour: Color, backed: bool, visible: Visibility| {
        let mut e = commands.spawn((
            Text2d::new(""),
            TextFont {
                font_size: FontSize::Px(place.2 * cell),
                ..default()
            },
            TextColor(colour),
            at(place, 0.5),
            visible,
        ));
        if backed {
            e.insert(bevy::text::TextBackgroundColor(Color::srgba(
                0.0, 0.0, 0.0, 0.75,
            )));
        }
        e.id()
    };
    let factors = text(FACTORS, Color::WHITE, false, Visibility::Inherited);
    let gait = text(GAIT, Color::WHITE, false, hidden);
    let badges = text(BADGES, Color::srgb(1.0, 0.9, 0.3), true, hidden);
    let parts = CounterParts {
        body,
        symbol,
        heraldry,
        front,
        leader,
        moved,
        wound,
        mount_wound,
        ring,
        factors,
        gait,
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
            body,
            plate,
            symbol,
            heraldry,
            front,
            leader,
            moved,
            wound,
            mount_wound,
            factors,
            gait,
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
    Changed<Blows>,
    Changed<Allowance>,
    Changed<GaitState>,
    Changed<Quality>,
    Changed<Trail>,
)>;

/// The components a counter reads from a figure.
#[derive(QueryData)]
struct FigureData {
    pos: &'static Position,
    side: Option<&'static SideId>,
    troop: Option<&'static Troop>,
    template: Option<&'static TemplateKey>,
    weapon: Option<&'static Weapon>,
    facing: Option<&'static Facing>,
    body: Option<&'static Body>,
    blows: Option<&'static Blows>,
    armour: Option<&'static Armour>,
    allowance: Option<&'static Allowance>,
    rate: Option<&'static Rate>,
    gait: Option<&'static GaitState>,
    quality: Option<&'static Quality>,
    riding: Option<&'static RidingOn>,
    carried: Option<&'static CarriedBy>,
    selected: Has<Selected>,
    conditions: Option<&'static Conditions>,
    trail: Option<&'static Trail>,
}

fn refresh_counters(
    mut commands: Commands,
    layout: Option<Res<MapLayout>>,
    settings: Option<Res<Settings>>,
    art: Option<Res<CounterArt>>,
    rules: Option<Res<Rules>>,
    changed: Query<(Entity, Option<&CarriedBy>), Watched>,
    new_counters: Query<&CounterOf, Added<CounterParts>>,
    arrived: Query<(Entity, &CounterOf), Added<SlideEnded>>,
    all_counters: Query<&CounterOf>,
    mut unselected: RemovedComponents<Selected>,
    mut unmounted: RemovedComponents<RidingOn>,
    figures: Query<FigureData>,
    owners: Query<&HasCounter>,
    mut counters: Query<(&CounterParts, &mut Transform)>,
    mut parts: PartQuery,
) {
    let (Some(layout), Some(art)) = (layout, art) else {
        return;
    };
    let fresh: HashSet<Entity> = new_counters.iter().map(|c| c.0).collect();
    let mut dirty: HashSet<Entity> = changed
        .iter()
        .map(|(e, carried)| carried.map_or(e, |c| c.0))
        .chain(fresh.iter().copied())
        .collect();
    for (counter, of) in &arrived {
        dirty.insert(of.0);
        commands.entity(counter).remove::<SlideEnded>();
    }
    for e in unselected.read().chain(unmounted.read()) {
        let owner = figures.get(e).ok().and_then(|f| f.carried.map(|c| c.0));
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
        let Ok(f) = figures.get(figure) else {
            continue;
        };
        let facts = FigureFacts {
            side: f.side.map_or(0, |s| s.0),
            troop: f.troop.map(|t| t.0),
            template: f.template.map(|t| t.0.as_str()),
            weapon: f.weapon.map(|w| w.0.as_str()),
            facing: f.facing.map(|d| d.0),
            body: f.body.map(|b| (b.left, b.max)),
            blows: f.blows.map(|b| b.left),
            armour: f.armour.map(|a| a.0),
            move_left: movement_shown(rules.as_deref().map(|r| &*r.0), &f),
            moved: f.allowance.is_some_and(|a| a.used_any),
            hero: f.quality.is_some_and(|q| q.hero),
            selected: f.selected,
            conditions: Conditions::words_of(f.conditions),
        };
        let mount = f
            .riding
            .and_then(|r| figures.get(r.0).ok())
            .map(|m| MountFacts {
                facing: m.facing.map(|d| d.0),
                body: m.body.map(|b| (b.left, b.max)),
                gait: m.gait.map(|g| g.gait),
                move_left: movement_shown(rules.as_deref().map(|r| &*r.0), &m),
                moved: m.allowance.is_some_and(|a| a.used_any),
                selected: m.selected,
                conditions: Conditions::words_of(m.conditions),
            });
        let look = counter_look(layout.grid, &facts, mount.as_ref());
        let Ok((p, mut tf)) = counters.get_mut(counter) else {
            continue;
        };
        // A figure that moved goes there (issue 16 item 3): along its move's trail when the
        // trail runs from where the counter stands to the new cell, else straight; a new
        // counter or map is placed at once.
        let to = layout.cell_to_world(f.pos.0).extend(Z_COUNTERS);
        let placed_now = layout.is_changed() || fresh.contains(&figure);
        let world_of = |c| layout.cell_to_world(c).extend(Z_COUNTERS);
        let angle = |d| Some(facing_angle(layout.grid, d));
        let along = f.trail.map(|t| &t.0[..]).filter(|t| {
            t.first()
                .is_some_and(|s| world_of(s.0).distance(tf.translation) < 0.5)
                && t.last().is_some_and(|e| e.0 == f.pos.0)
        });
        let slide = match along {
            _ if placed_now => None,
            Some(trail) => {
                let points: Vec<_> = trail[1..]
                    .iter()
                    .map(|&(c, d)| (world_of(c), angle(d)))
                    .collect();
                slide_along(
                    tf.translation,
                    angle(trail[0].1),
                    &points,
                    layout.cell,
                    pace,
                )
            }
            None => slide_for(tf.translation, to, layout.cell, pace, false),
        };
        match slide {
            Some(mut slide) => {
                slide.front = Some((p.front, FRONT_AT * layout.cell));
                commands.entity(counter).insert(slide);
                // Its new looks wait until it arrives (see `SlideEnded`).
                continue;
            }
            None => {
                tf.translation = to;
                commands.entity(counter).remove::<Slide>();
            }
        }
        // A fallen figure's counter lies tipped over.
        tf.rotation = Quat::from_rotation_z(if look.fallen { 0.5 } else { 0.0 });
        apply_look(&look, palette, &art, p, layout.cell, &mut parts);
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
        Option<&'static mut TextFont>,
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
    art: &CounterArt,
    p: &CounterParts,
    cell: f32,
    parts: &mut PartQuery,
) {
    if let Ok((_, _, Some(mut s), _, _)) = parts.get_mut(p.body) {
        // A fallen figure is greyed.
        s.color = if look.fallen {
            let c = side_colour(palette, look.side).to_srgba();
            let grey = |v: f32| v * 0.3 + 0.35 * 0.7;
            Color::srgb(grey(c.red), grey(c.green), grey(c.blue))
        } else {
            side_colour(palette, look.side)
        };
    }
    for (part, image) in [
        (p.symbol, art.symbol(look.symbol)),
        (p.heraldry, art.heraldry_of(look.side)),
    ] {
        if let Ok((_, _, Some(mut s), _, _)) = parts.get_mut(part)
            && s.image != image
        {
            s.image = image;
        }
    }
    let row = factor_row(look);
    // A long row ("5 7 13.75") is set smaller to stay on the counter's band.
    let size = FACTORS.2 * cell * (7.0 / row.chars().count().max(7) as f32);
    if let Ok((_, _, _, _, Some(mut font))) = parts.get_mut(p.factors)
        && font.font_size != FontSize::Px(size)
    {
        font.font_size = FontSize::Px(size);
    }
    let mut set_text = |part: Entity, text: String, on: bool| {
        if let Ok((_, mut vis, _, Some(mut t), _)) = parts.get_mut(part) {
            if t.0 != text {
                t.0 = text;
            }
            vis.set_if_neq(show(on));
        }
    };
    set_text(p.badges, look.badges.join(" "), !look.badges.is_empty());
    set_text(p.factors, row, true);
    let gait = look.gait.map(gait_letter);
    set_text(
        p.gait,
        gait.map(String::from).unwrap_or_default(),
        gait.is_some(),
    );
    if let Ok((mut tf, mut vis, _, _, _)) = parts.get_mut(p.front) {
        *vis = show(look.facing.is_some());
        place_front(&mut tf, look.facing.unwrap_or(0.0), FRONT_AT * cell);
    }
    for (part, on) in [
        (p.leader, look.hero),
        (p.moved, look.moved),
        (p.wound, look.wounded),
        (p.mount_wound, look.mount_wounded),
        (p.ring, look.selected),
    ] {
        if let Ok((_, mut vis, _, _, _)) = parts.get_mut(part) {
            vis.set_if_neq(show(on));
        }
    }
}

/// The movement a counter prints: what is left of the half-move's allowance, or, before the
/// half-move has begun (no allowance yet), the allowance it will begin with at its gait.
fn movement_shown(rules: Option<&Ruleset>, f: &FigureDataItem) -> Option<Mp> {
    let a = f.allowance?;
    match (rules, f.rate) {
        (Some(rules), Some(rate)) if a.basis == Mp::ZERO && !a.used_any => {
            let gait = f.gait.map_or(Gait::Walk, |g| g.gait);
            // Only horses carry an ASL MF allotment (A7).
            let horse = f.troop.is_some_and(|t| t.0 == TroopType::Horse);
            Some(fresh_allowance(
                rules,
                rate.0,
                gait,
                Conditions::words_of(f.conditions),
                horse,
            ))
        }
        _ => Some(a.left),
    }
}
