//! Opens the game window on a level, for looking at the map and counters during development.
//!
//! `cargo run --example preview -- levels/default.ron [--demo]`
//!
//! With `--demo`, the first figure is selected and the second wounded, to show those marks.

use bevy::prelude::*;
use std::path::Path;
use warhorse::sim::components::{Body, FigureId};
use warhorse::ui::{Selected, spawn_preview_figures, window_app};

fn main() -> AppExit {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.iter().find(|a| !a.starts_with("--"));
    let level = match path {
        Some(p) => warhorse::level::load_level_file(Path::new(p)),
        None => warhorse::level::load_level_str(
            warhorse::level::DEFAULT_LEVEL,
            warhorse::level::load::DEFAULT_LEVEL_NAME,
            None,
        ),
    };
    let level = match level {
        Ok(level) => level,
        Err(e) => {
            eprintln!("{e}");
            return AppExit::error();
        }
    };
    let mut app = window_app(level);
    app.add_systems(Startup, spawn_preview_figures);
    if args.iter().any(|a| a == "--demo") {
        app.add_systems(Update, demo_marks);
    }
    app.run()
}

/// Once the figures exist: select the first, wound the second (and its mount, if any).
fn demo_marks(
    mut commands: Commands,
    mut done: Local<bool>,
    mut figures: Query<(Entity, &FigureId, &mut Body)>,
) {
    if *done || figures.is_empty() {
        return;
    }
    *done = true;
    // Mounts spawned by the preview are named "<rider>/mount".
    let mut riders: Vec<_> = figures
        .iter()
        .filter(|(_, id, _)| !id.0.contains('/'))
        .map(|(e, id, _)| (id.0.clone(), e))
        .collect();
    riders.sort();
    if let Some((_, first)) = riders.first() {
        commands.entity(*first).insert(Selected);
    }
    let Some((second, _)) = riders.get(1) else {
        return;
    };
    for (_, id, mut body) in &mut figures {
        if id.0 == *second || id.0 == format!("{second}/mount") {
            body.left = body.left.saturating_sub(1);
        }
    }
}
