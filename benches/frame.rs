//! Frame-time benchmark of the game's own systems (issue 3): the play logic (selection,
//! reach, path preview, actions, reach marks), the bridge (orders applied to the game, mirror
//! sync), the map and the counters, headless on `MinimalPlugins` — no rendering, no egui
//! layout (those belong to the GPU and the egui crate, and are measured in the window by the
//! end-to-end test's move driver, see docs/performance.md).
//!
//! The level is generated in code: a 128×128 `destrier` map of open ground with scattered
//! woods and hills and 200 figures — per side 60 on foot (footmen, archers) and 40 mounted
//! knights and sergeants, so 280 mirrored entities — drawn from a fixed SplitMix64, so every
//! run measures the same thing.
//!
//! Cases, each one frame (`App::update`):
//! - `idle`: a galloping knight selected, nothing changes (the steady state while the player
//!   thinks);
//! - `hover`: the pointer moves to another reachable cell (a new path preview);
//! - `select`: another figure is selected (its reach searched, the reach marks rebuilt);
//! - `order`: the selected knight changes gait, alternating trot and walk (the order runs
//!   through the game's own app, the mirrors are synced, the reach is searched again).
//!
//! Run with `cargo bench --bench frame`.

// criterion_group! and criterion_main! define public functions without doc comments.
#![allow(missing_docs)]

use bevy::prelude::*;
use criterion::{Criterion, criterion_group, criterion_main};
use std::time::Duration;
use warhorse::rules::gait::Gait;
use warhorse::sim::Game;
use warhorse::ui::play::reach_view::CurrentReach;
use warhorse::ui::play::{Hover, PlayAction, headless_app};

/// Side of the square map.
const SIZE: usize = 128;
/// Figures per side (foot first, then mounted).
const FOOT: usize = 60;
const MOUNTED: usize = 40;

#[path = "common/splitmix.rs"]
mod splitmix;
use splitmix::SplitMix;

/// The level's RON text: two armies facing each other across the map.
fn level_text() -> String {
    let mut rng = SplitMix(3);
    let mut rows = Vec::new();
    for y in 0..SIZE {
        let row: String = (0..SIZE)
            .map(|x| {
                let army = (8..24).contains(&y) || (104..120).contains(&y);
                match rng.next() % 20 {
                    0 | 1 if !army && x % 7 != 0 => 'f',
                    2 if !army => 'h',
                    _ => '.',
                }
            })
            .collect();
        rows.push(format!("        \"{row}\","));
    }
    let mut figures = Vec::new();
    for (side, name, y0, facing) in [(0, "Red", 10, "S"), (1, "Blue", 106, "N")] {
        for i in 0..FOOT + MOUNTED {
            let template = match i {
                i if i < FOOT / 2 => "footman",
                i if i < FOOT => "archer",
                i if i % 2 == 0 => "knight_on_destrier",
                _ => "sergeant_on_courser",
            };
            let (x, y) = (4 + (i % 30) * 4, y0 + (i / 30) * 3);
            figures.push(format!(
                "        (id: \"{}_{i}\", template: \"{template}\", side: \"{name}\", at: ({x}, {y}), facing: \"{facing}\"),",
                name.to_lowercase()
            ));
            let _ = side;
        }
    }
    format!(
        "Level(\n    name: \"Bench\",\n    ruleset: \"destrier\",\n    width: {SIZE},\n    height: {SIZE},\n    legend: {{\n        '.': (name: \"open\", cost: 1),\n        'f': (name: \"woods\", cost: 2),\n        'h': (name: \"hills\", cost: 2),\n    }},\n    rows: [\n{}\n    ],\n    sides: [(name: \"Red\", control: Human), (name: \"Blue\", control: Human)],\n    figures: [\n{}\n    ],\n)\n",
        rows.join("\n"),
        figures.join("\n")
    )
}

fn bench_app() -> App {
    let level = warhorse::level::load_level_str(&level_text(), "<bench>", None)
        .unwrap_or_else(|e| panic!("the bench level loads: {e}"));
    assert_eq!(level.figures.len(), 2 * (FOOT + MOUNTED));
    let mut game = Game::new(&level, 7);
    // The archers' fire phase (D3) comes first; the cases are about moving, in the half-move.
    while !game.phase().is_half_move() {
        game.order(&warhorse::sim::order::Order::EndSide)
            .unwrap_or_else(|r| panic!("ends a fire sub-step: {r}"));
    }
    let mut app = headless_app(game, level);
    app.update();
    app
}

fn act(app: &mut App, a: PlayAction) {
    app.world_mut().write_message(a);
    app.update();
}

/// Selects the first knight of the side to move, sets it galloping (a wide reach, D5 allows
/// walk to gallop in the first half-move) and returns the ids of that side's figures.
fn ready(app: &mut App) -> Vec<String> {
    let view = app
        .world()
        .resource::<warhorse::ui::bridge::GameView>()
        .clone();
    let side = view
        .side_name(view.side_to_move.expect("a side moves"))
        .to_lowercase();
    let ids: Vec<String> = (0..FOOT + MOUNTED).map(|i| format!("{side}_{i}")).collect();
    act(app, PlayAction::Select(Some(ids[FOOT].clone())));
    act(app, PlayAction::Gait(Gait::Gallop));
    assert!(app.world().resource::<CurrentReach>().0.is_some());
    ids
}

fn frame(c: &mut Criterion) {
    let mut g = c.benchmark_group("frame");
    g.sample_size(60).measurement_time(Duration::from_secs(6));

    let mut app = bench_app();
    ready(&mut app);
    g.bench_function("idle", |b| b.iter(|| app.update()));

    let mut app = bench_app();
    ready(&mut app);
    let cells: Vec<_> = app
        .world()
        .resource::<CurrentReach>()
        .0
        .as_ref()
        .map_or_else(Vec::new, |r| r.cells.iter().map(|e| e.cell).collect());
    assert!(cells.len() > 10, "the knight reaches {} cells", cells.len());
    let mut i = 0;
    g.bench_function("hover", |b| {
        b.iter(|| {
            i = (i + 1) % cells.len();
            *app.world_mut().resource_mut::<Hover>() = Hover {
                cell: Some(cells[i]),
                pick: 0,
            };
            app.update();
        })
    });

    let mut app = bench_app();
    let ids = ready(&mut app);
    let mut i = 0;
    g.bench_function("select", |b| {
        b.iter(|| {
            i = (i + 1) % ids.len();
            act(&mut app, PlayAction::Select(Some(ids[i].clone())));
        })
    });

    let mut app = bench_app();
    ready(&mut app);
    let mut trot = false;
    g.bench_function("order", |b| {
        b.iter(|| {
            trot = !trot;
            act(
                &mut app,
                PlayAction::Gait(if trot { Gait::Trot } else { Gait::Walk }),
            );
        })
    });
    let status = app
        .world()
        .resource::<warhorse::ui::play::Feedback>()
        .clone();
    assert!(
        !status.refused,
        "gait changes are accepted: {}",
        status.status
    );
    g.finish();
}

criterion_group!(benches, frame);
criterion_main!(benches);
