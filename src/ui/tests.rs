//! Headless app tests of the map and counter plugins: no window, no GPU, just the ECS.

use super::counters::{CounterOf, HasCounter};
use super::*;
use crate::level::{DEFAULT_LEVEL, load_level_str};
use crate::sim::components::{CarriedBy, Facing, Position, RidingOn};
use bevy::asset::AssetPlugin;
use bevy::ecs::system::RunSystemOnce;
use bevy_ecs_tilemap::prelude::TileStorage;

fn app() -> App {
    let level = load_level_str(DEFAULT_LEVEL, "<test>", None).expect("default level loads");
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default()))
        .init_asset::<Image>()
        .configure_sets(Update, (UiSet::Map, UiSet::Counters).chain())
        .add_plugins((art::ArtPlugin, map::MapPlugin, counters::CountersPlugin))
        .insert_resource(CurrentLevel(level));
    app.update();
    app.world_mut()
        .run_system_once(spawn_preview_figures)
        .expect("preview spawn runs");
    app.update();
    app
}

fn visible(
    app: &mut App,
    counter: Entity,
    image: impl Fn(&art::CounterArt) -> Handle<Image>,
) -> bool {
    let want = image(app.world().resource::<art::CounterArt>());
    let world = app.world_mut();
    let mut q = world.query::<(&ChildOf, &Sprite, &Visibility)>();
    q.iter(world)
        .any(|(p, s, v)| p.parent() == counter && s.image == want && *v != Visibility::Hidden)
}

#[test]
fn one_counter_per_figure_or_pair_on_its_cell() {
    let mut app = app();
    let level = app.world().resource::<CurrentLevel>().0.clone();
    let layout = *app.world().resource::<MapLayout>();
    let world = app.world_mut();
    let counters: Vec<(Entity, Vec3)> = world
        .query::<(&CounterOf, &Transform)>()
        .iter(world)
        .map(|(c, t)| (c.0, t.translation))
        .collect();
    assert_eq!(counters.len(), level.figures.len());
    for (figure, at) in counters {
        let pos = world.get::<Position>(figure).expect("a figure").0;
        assert_eq!(at.truncate(), layout.cell_to_world(pos));
        assert!(
            world.get::<CarriedBy>(figure).is_none(),
            "mounts get no counter"
        );
    }
    let tiles = world.query::<&TileStorage>().iter(world).count();
    assert_eq!(tiles, 1, "one tilemap");
}

#[test]
fn counters_follow_moves_selection_and_despawns() {
    let mut app = app();
    let world = app.world_mut();
    let (rider, mount) = world
        .query::<(Entity, &RidingOn)>()
        .iter(world)
        .map(|(e, r)| (e, r.0))
        .next()
        .expect("the default level has riders");
    let counter = world
        .get::<HasCounter>(rider)
        .expect("rider has a counter")
        .get();
    // A rider's counter shows a mounted symbol (issue 16 item 2), and its side's mark.
    use super::look::Symbol;
    let mounted = [Symbol::Knight, Symbol::Sergeant];
    assert!(
        mounted
            .iter()
            .any(|s| visible(&mut app, counter, |a| a.symbol(*s)))
    );
    let side = app
        .world()
        .get::<crate::sim::components::SideId>(rider)
        .expect("a side")
        .0;
    assert!(visible(&mut app, counter, |a| a.heraldry_of(side)));
    assert!(
        !visible(&mut app, counter, |a| a.moved.clone()),
        "nothing moved yet"
    );
    assert!(!visible(&mut app, counter, |a| a.ring.clone()));

    // Selecting the mount highlights the pair; moving it moves the counter.
    let to = crate::rules::grid::Cell::new(0, 0);
    app.world_mut().entity_mut(mount).insert(Selected);
    app.world_mut().entity_mut(rider).insert(Position(to));
    app.world_mut()
        .entity_mut(mount)
        .insert((Position(to), Facing(crate::rules::grid::Dir(2))));
    app.update();
    assert!(visible(&mut app, counter, |a| a.ring.clone()));
    let layout = *app.world().resource::<MapLayout>();
    let at = app
        .world()
        .get::<Transform>(counter)
        .expect("counter")
        .translation;
    assert_eq!(at.truncate(), layout.cell_to_world(to));

    app.world_mut().entity_mut(mount).remove::<Selected>();
    app.update();
    assert!(!visible(&mut app, counter, |a| a.ring.clone()));

    app.world_mut().entity_mut(rider).despawn();
    app.update();
    assert!(
        app.world().get_entity(counter).is_err(),
        "counter despawns with its figure"
    );
}

#[test]
fn a_new_level_replaces_the_map() {
    let mut app = app();
    let mut level = app.world().resource::<CurrentLevel>().0.clone();
    level.board.grid = crate::rules::grid::GridKind::Hex;
    app.insert_resource(CurrentLevel(level));
    app.update();
    let world = app.world_mut();
    assert_eq!(world.query::<&TileStorage>().iter(world).count(), 1);
    assert_eq!(
        world.resource::<MapLayout>().grid,
        crate::rules::grid::GridKind::Hex
    );
}

/// Every text an egui frame drew, a line each, for tests that read a headless frame.
pub(crate) fn drawn_texts(shapes: &[bevy_egui::egui::epaint::ClippedShape]) -> String {
    use bevy_egui::egui::Shape;
    fn walk(shape: &Shape, out: &mut String) {
        match shape {
            Shape::Text(t) => {
                out.push_str(t.galley.text());
                out.push('\n');
            }
            Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = String::new();
    shapes.iter().for_each(|c| walk(&c.shape, &mut out));
    out
}

/// The texts a window drawn by `draw` shows at 1280×800, on its second frame (egui sizes a
/// new window on its first frame without drawing it).
pub(crate) fn window_texts(mut draw: impl FnMut(&bevy_egui::egui::Context)) -> String {
    painted_texts(bevy_egui::egui::vec2(1280.0, 800.0), |ui| draw(ui.ctx()))
}

/// The texts `draw` paints on a screen of `size`, on the second of two frames.
pub(crate) fn painted_texts(
    size: bevy_egui::egui::Vec2,
    mut draw: impl FnMut(&mut bevy_egui::egui::Ui),
) -> String {
    use bevy_egui::egui;
    let ctx = egui::Context::default();
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)),
        ..Default::default()
    };
    let mut text = String::new();
    for _ in 0..2 {
        let mut out = ctx.run_ui(input(), &mut draw);
        let shapes = std::mem::take(&mut out.shapes);
        out.drop_without_applying_deltas();
        text = drawn_texts(&shapes);
    }
    text
}

/// An app with only Bevy's minimal plugins and the asset server, reading `root` (a copy of
/// `assets/` or the real one): what the art and sound tests load files through.
pub(crate) fn asset_app(root: &std::path::Path) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin {
            file_path: root.to_string_lossy().into_owned(),
            ..Default::default()
        },
    ));
    app
}

/// Runs frames until `done` holds (loading happens on other threads), at most ten seconds.
pub(crate) fn update_until(app: &mut App, done: impl Fn(&App) -> bool) {
    for _ in 0..1000 {
        app.update();
        if done(app) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("not done after 1000 frames");
}
