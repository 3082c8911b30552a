//! The move driver of the end-to-end tests (`WARHORSE_E2E=move`): once the level is on
//! screen, it drives the real window with synthetic input — the cursor is put on a figure of
//! the side to move and the left button pressed and released as the windowing layer would
//! report it (a fire phase waiting for a side first ended with Enter, as a player would), then the same on the farthest reachable cell — and checks through the game
//! itself that the figure moved along exactly the previewed path. It saves screenshots
//! (`preview.png` with the path previewed, `moved.png` after the move) under its folder, measures
//! frame times, prints one `E2E PASS …` or `E2E FAIL …` line and exits accordingly.

use bevy::diagnostic::{DiagnosticsStore, FrameTimeDiagnosticsPlugin};
use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::window::{CursorMoved, PresentMode, PrimaryWindow};
use bevy::winit::{UpdateMode, WinitSettings};
use std::path::PathBuf;
use warhorse::rules::grid::Cell;
use warhorse::sim::components::{CarriedBy, FigureId, Position, SideId};
use warhorse::sim::order::Order;
use warhorse::ui::MapLayout;
use warhorse::ui::bridge::{ActiveGame, GameView, Mirror};
use warhorse::ui::camera::MapCamera;
use warhorse::ui::play::Selection;
use warhorse::ui::play::panels::UiRects;
use warhorse::ui::play::reach_view::{CurrentPreview, reach_view_of};

/// Adds the move driver; `out` is where screenshots go.
pub struct MoveDriver {
    /// Output folder.
    pub out: PathBuf,
}

impl Plugin for MoveDriver {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<FrameTimeDiagnosticsPlugin>() {
            app.add_plugins(FrameTimeDiagnosticsPlugin::default());
        }
        // Measure what a frame costs, not the refresh rate or the unfocused-window throttle.
        app.insert_resource(WinitSettings {
            focused_mode: UpdateMode::Continuous,
            unfocused_mode: UpdateMode::Continuous,
        })
        .insert_resource(Driver {
            out: self.out.clone(),
            ..default()
        })
        .add_systems(Startup, no_vsync)
        .add_systems(Update, drive.after(warhorse::ui::play::PlaySet::View));
    }
}

fn no_vsync(mut window: Query<&mut Window, With<PrimaryWindow>>) {
    for mut w in &mut window {
        w.present_mode = PresentMode::AutoNoVsync;
    }
}

#[derive(Resource, Default)]
struct Driver {
    out: PathBuf,
    frame: u32,
    stage: u32,
    wait_until: u32,
    unit: String,
    from: Option<Cell>,
    target: Option<Cell>,
    target_px: Vec2,
    steps: Vec<warhorse::rules::movement::Step>,
    shot: Option<PathBuf>,
    /// Enter is held down (to be released on the next beat).
    enter_down: bool,
    /// The briefing's screenshot, once asked for (issue 12).
    briefing_shot: Option<PathBuf>,
    frame_ms: Vec<f64>,
}

/// Frames to let the window settle (level drawn, camera fitted) before acting.
const WARMUP: u32 = 90;
/// Give up after this many frames.
const LIMIT: u32 = 4000;
/// Frames measured at the end.
const MEASURE: usize = 300;

/// Figures standing on their own (riders and foot, not carried mounts).
type Standing<'w, 's> = Query<
    'w,
    's,
    (&'static FigureId, &'static Position, &'static SideId),
    (With<Mirror>, Without<CarriedBy>),
>;

type Cam<'w, 's> = Single<'w, 's, (&'static Camera, &'static GlobalTransform), With<MapCamera>>;

/// The synthetic input the driver sends, as the windowing layer would.
#[derive(bevy::ecs::system::SystemParam)]
struct Input<'w> {
    moved: MessageWriter<'w, CursorMoved>,
    buttons: MessageWriter<'w, MouseButtonInput>,
    keys: MessageWriter<'w, KeyboardInput>,
    exit: MessageWriter<'w, AppExit>,
}

impl Input<'_> {
    fn point(&mut self, win: Entity, w: &mut Window, p: Vec2) {
        w.set_cursor_position(Some(p));
        self.moved.write(CursorMoved {
            window: win,
            position: p,
            delta: None,
        });
    }

    fn button(&mut self, win: Entity, state: ButtonState) {
        self.buttons.write(MouseButtonInput {
            button: MouseButton::Left,
            state,
            window: win,
        });
    }

    fn enter(&mut self, win: Entity, state: ButtonState) {
        self.keys.write(KeyboardInput {
            key_code: KeyCode::Enter,
            logical_key: Key::Enter,
            state,
            text: None,
            repeat: false,
            window: win,
        });
    }

    fn fail(&mut self, why: String) {
        println!("E2E FAIL {why}");
        self.exit.write(AppExit::error());
    }
}

fn drive(
    mut d: ResMut<Driver>,
    mut active: Option<NonSendMut<ActiveGame>>,
    mut window: Single<(Entity, &mut Window), With<PrimaryWindow>>,
    camera: Cam,
    layout: Option<Res<MapLayout>>,
    view: Res<GameView>,
    rects: Res<UiRects>,
    selection: Res<Selection>,
    preview: Res<CurrentPreview>,
    mirrors: Standing,
    diagnostics: Res<DiagnosticsStore>,
    battle: Option<Res<warhorse::ui::screens::battle::BattleScreens>>,
    mut egui: bevy_egui::EguiContexts,
    time: Res<Time<Real>>,
    mut input: Input,
    mut commands: Commands,
) {
    d.frame += 1;
    let frame = d.frame;
    if frame > LIMIT {
        let stage = d.stage;
        d.wait_until = u32::MAX;
        return input.fail(format!("timed out at stage {stage}"));
    }
    if frame < d.wait_until {
        return;
    }
    let Some(layout) = layout else { return };
    let (win, ref mut w) = *window;
    let (cam, cam_tf) = *camera;
    let to_screen = |c: Cell| {
        cam.world_to_viewport(cam_tf, layout.cell_to_world(c).extend(0.0))
            .ok()
    };
    let ctx = egui.ctx_mut().ok().cloned();
    let stage = d.stage;
    d.stage += 1;
    d.wait_until = frame + 4;
    let failed = match stage {
        0 => {
            let ready = frame >= WARMUP && rects.left > 0.0;
            d.stage = 0;
            let briefing = battle.is_some_and(|b| b.briefing.is_some());
            if ready && d.enter_down {
                input.enter(win, ButtonState::Released);
                d.enter_down = false;
            } else if ready && briefing {
                // Issue 12: the side's briefing is up; photograph it, then read it (Enter).
                match &d.briefing_shot {
                    None => d.briefing_shot = Some(shoot(&mut commands, &d.out, "briefing.png")),
                    Some(p) if p.exists() => {
                        input.enter(win, ButtonState::Pressed);
                        d.enter_down = true;
                    }
                    Some(_) => {}
                }
            } else if ready && view.side_to_move.is_some() && !view.phase.is_half_move() {
                // A fire phase waits for this side (D3): end its turn to act with Enter, as a
                // player with nothing to shoot at would.
                input.enter(win, ButtonState::Pressed);
                d.enter_down = true;
            } else if ready && view.phase.is_half_move() {
                d.stage = 1;
            }
            None
        }
        1 => match choose(
            &mut active,
            &view,
            &mirrors,
            &|p: Vec2| {
                // Neither a panel nor a floating window (the objectives) over the point.
                rects.free_area(w.size()).contains(p)
                    && ctx.as_ref().is_none_or(|ctx| {
                        ctx.layer_id_at(bevy_egui::egui::pos2(p.x, p.y))
                            .is_none_or(|l| l.order == bevy_egui::egui::Order::Background)
                    })
            },
            &to_screen,
        ) {
            Err(why) => Some(why),
            Ok((unit, from, target, at, px)) => {
                (d.unit, d.from, d.target, d.target_px) = (unit, Some(from), Some(target), px);
                input.point(win, w, at);
                None
            }
        },
        2 => {
            input.button(win, ButtonState::Pressed);
            None
        }
        3 => {
            input.button(win, ButtonState::Released);
            None
        }
        4 => {
            if selection.unit.as_deref() == Some(d.unit.as_str()) {
                let px = d.target_px;
                input.point(win, w, px);
                d.wait_until = frame + 10;
                None
            } else {
                Some(format!(
                    "clicking {} did not select it: {:?}",
                    d.unit, selection.unit
                ))
            }
        }
        5 => match &preview.0 {
            Some(p) if Some(p.cell) == d.target && !p.steps.is_empty() => {
                d.steps = p.steps.clone();
                d.shot = Some(shoot(&mut commands, &d.out, "preview.png"));
                None
            }
            other => Some(format!("hovering {:?} previews {other:?}", d.target)),
        },
        6 | 11 => {
            if d.shot.as_ref().is_some_and(|p| !p.exists()) {
                d.stage = stage;
                d.wait_until = frame + 1;
            }
            None
        }
        7 => {
            input.button(win, ButtonState::Pressed);
            None
        }
        8 => {
            input.button(win, ButtonState::Released);
            d.wait_until = frame + 10;
            None
        }
        9 => check_moved(&mut active, &d),
        10 => {
            d.shot = Some(shoot(&mut commands, &d.out, "moved.png"));
            None
        }
        12 => {
            d.frame_ms.push(time.delta_secs_f64() * 1000.0);
            if d.frame_ms.len() < MEASURE {
                d.stage = stage;
                d.wait_until = frame + 1;
            }
            None
        }
        _ => {
            let diag = diagnostics
                .get(&FrameTimeDiagnosticsPlugin::FRAME_TIME)
                .and_then(|x| x.average())
                .unwrap_or(f64::NAN);
            let over = view
                .over
                .as_ref()
                .map_or(String::new(), |w| format!("; the battle is over: {w}"));
            println!(
                "E2E PASS {} moved {:?} -> {:?} by {:?}; {}; FrameTimeDiagnostics average {diag:.2} ms{over}",
                d.unit,
                d.from,
                d.target,
                d.steps,
                frame_stats(&d.frame_ms),
            );
            d.wait_until = u32::MAX;
            input.exit.write(AppExit::Success);
            None
        }
    };
    if let Some(why) = failed {
        d.wait_until = u32::MAX;
        input.fail(why);
    }
}

/// Mean, median and 95th percentile of frame times in milliseconds, in words.
pub fn frame_stats(ms: &[f64]) -> String {
    let mut ms = ms.to_vec();
    ms.sort_by(f64::total_cmp);
    let pct = |q: f64| {
        ms.get(((ms.len().max(1) - 1) as f64 * q) as usize)
            .copied()
            .unwrap_or(0.0)
    };
    let mean = ms.iter().sum::<f64>() / ms.len().max(1) as f64;
    format!(
        "frame time over {} frames: mean {mean:.2} ms, median {:.2} ms, p95 {:.2} ms",
        ms.len(),
        pct(0.5),
        pct(0.95)
    )
}

/// The figure of the side to move that can go farthest on screen, and where to.
fn choose(
    active: &mut Option<NonSendMut<ActiveGame>>,
    view: &GameView,
    mirrors: &Standing,
    free: &dyn Fn(Vec2) -> bool,
    to_screen: &dyn Fn(Cell) -> Option<Vec2>,
) -> Result<(String, Cell, Cell, Vec2, Vec2), String> {
    let Some(a) = active.as_deref_mut() else {
        return Err("no game in the window".into());
    };
    let mut best: Option<(i32, String, Cell, Cell, Vec2)> = None;
    let mut rows: Vec<_> = mirrors
        .iter()
        .map(|(i, p, s)| (i.0.clone(), p.0, s.0))
        .collect();
    rows.sort_by(|x, y| x.0.cmp(&y.0));
    for (id, pos, side) in rows {
        if Some(side) != view.side_to_move {
            continue;
        }
        let Some(r) = reach_view_of(&mut a.game, &id, a.revision, view.side_to_move) else {
            continue;
        };
        for end in &r.cells {
            let dist = view.grid.distance(pos, end.cell);
            let Some(px) = to_screen(end.cell) else {
                continue;
            };
            if free(px) && best.as_ref().is_none_or(|b| dist > b.0) {
                best = Some((dist, id.clone(), pos, end.cell, px));
            }
        }
    }
    let (_, unit, from, target, px) = best.ok_or("no figure of the side to move can move")?;
    let at = to_screen(from).ok_or("the figure is off screen")?;
    Ok((unit, from, target, at, px))
}

/// Checks, in the game itself, that the last order is the previewed move and the figure
/// stands on the target.
fn check_moved(active: &mut Option<NonSendMut<ActiveGame>>, d: &Driver) -> Option<String> {
    let a = active.as_deref_mut()?;
    let want = Order::Move {
        unit: d.unit.clone(),
        steps: d.steps.clone(),
    };
    let last = a.game.record().orders.last().cloned();
    if last.as_ref() != Some(&want) {
        return Some(format!(
            "the last order is {last:?}, not the previewed {want:?}"
        ));
    }
    let snap = a.game.snapshot();
    let at = snap.figures.iter().find(|f| f.id == d.unit).map(|f| f.cell);
    let target = d.target.map(|c| [c.x, c.y]);
    // A figure whose move ended on the edge its Exit objective names has left the map
    // (issue 12): the snapshot lists it there instead of at a cell.
    if at.is_none()
        && snap
            .left_the_map
            .iter()
            .any(|g| g.id == d.unit && g.how == "exited")
    {
        return None;
    }
    (at != target).then(|| format!("{} is at {at:?}, not {target:?}", d.unit))
}

/// Asks for a screenshot of the window saved as `out/name` (any older file of that name is
/// removed first, so its appearance says the new one is written); the path. Shared by the
/// two drivers.
pub(crate) fn shoot(commands: &mut Commands, out: &std::path::Path, name: &str) -> PathBuf {
    let _ = std::fs::create_dir_all(out);
    let path = out.join(name);
    let _ = std::fs::remove_file(&path);
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_to_disk(path.clone()));
    path
}
