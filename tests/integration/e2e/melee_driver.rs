//! The melee driver of the end-to-end tests (`WARHORSE_E2E=melee`, issue 11): a hot-seat
//! game of the default level played in the real window with synthetic clicks and keys, as
//! two players would — each half-move the figures nearest the enemy are clicked and moved
//! towards it (the cell clicked on the map), the hand-over screens, charge orders and fire
//! phases are passed with Enter, and once figures meet, every card round is fought through
//! the card table: the first blow picked by clicking the enemy on the map, the rest with the
//! number keys and Tab, dodge guesses with their keys, each reveal read and closed with Enter;
//! a side none of whose figures can strike passes for the rest of the melee (P)
//! — until the next turn's initiative. It saves `chooser.png`, `reveal.png` and
//! `results.png` under its folder, prints `E2E PASS …` or `E2E FAIL …` and exits accordingly.

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use bevy::window::{CursorMoved, PrimaryWindow};
use bevy::winit::{UpdateMode, WinitSettings};
use std::collections::{HashSet, VecDeque};
use std::path::PathBuf;
use warhorse::rules::grid::Cell;
use warhorse::sim::components::{CarriedBy, FigureId, Position, SideId};
use warhorse::ui::MapLayout;
use warhorse::ui::bridge::{ActiveGame, GameView, Mirror};
use warhorse::ui::camera::MapCamera;
use warhorse::ui::play::panels::UiRects;
use warhorse::ui::play::reach_view::reach_view_of;
use warhorse::ui::screens::actions::{Dialog, Overlays, ScreenView};
use warhorse::ui::screens::battle::BattleScreens;
use warhorse::ui::screens::card_table::{card_keys, table_cards};
use warhorse::ui::screens::cards::{CardKind, Picks};
use warhorse::ui::screens::charges::ChargeView;
use warhorse::ui::screens::handover::Handover;

/// Adds the melee driver; `out` is where screenshots go.
pub struct MeleeDriver {
    /// Output folder.
    pub out: PathBuf,
}

impl Plugin for MeleeDriver {
    fn build(&self, app: &mut App) {
        app.insert_resource(WinitSettings {
            focused_mode: UpdateMode::Continuous,
            unfocused_mode: UpdateMode::Continuous,
        })
        .insert_resource(Driver {
            out: self.out.clone(),
            ..default()
        })
        .add_systems(Update, drive.after(warhorse::ui::play::PlaySet::View));
    }
}

/// One thing the driver does, a beat at a time.
#[derive(Clone, Debug)]
enum Act {
    Point(Vec2),
    Down,
    Up,
    Press(KeyCode, Key),
    Release(KeyCode, Key),
    Shot(&'static str),
    /// Waits until the last screenshot is on disk.
    ShotDone,
    Wait(u32),
}

#[derive(Resource, Default)]
struct Driver {
    out: PathBuf,
    frame: u32,
    wait_until: u32,
    queue: VecDeque<Act>,
    shot: Option<PathBuf>,
    shots: HashSet<&'static str>,
    /// The turn in which the first card table was seen.
    melee_turn: Option<u32>,
    /// Card rounds revealed.
    reveals: u32,
    /// A reveal is up and counted (it may stay up for several beats).
    in_reveal: bool,
    results_due: bool,
    /// Figures already given a card in this chooser (by the chooser's key).
    picked: (Option<(usize, u8)>, HashSet<String>),
    /// The first pick is made by clicking the enemy on the map.
    clicked_enemy: bool,
    /// Moves made in the current half-move (turn, phase label, side).
    moves: (Option<(u32, String, u8)>, u32),
    log: Vec<String>,
}

/// Frames before the first beat (the window settles), frames between beats, and the limit.
const WARMUP: u32 = 90;
const BEAT: u32 = 4;
const LIMIT: u32 = 12_000;
/// Most card rounds a melee phase may take (as `tests/integration/melee_ends.rs`): every
/// figure's blows, at most 8, spent one at least every seventh round (D7).
const MAX_REVEALS: u32 = 7 * 8 + 1;
/// Moves each side makes in a half-move before ending it.
const MOVES_PER_HALF: u32 = 3;

fn key_of(c: char) -> (KeyCode, Key) {
    let code = match c {
        '1' => KeyCode::Digit1,
        '2' => KeyCode::Digit2,
        '3' => KeyCode::Digit3,
        '4' => KeyCode::Digit4,
        '5' => KeyCode::Digit5,
        '6' => KeyCode::Digit6,
        '7' => KeyCode::Digit7,
        '8' => KeyCode::Digit8,
        '9' => KeyCode::Digit9,
        'n' => KeyCode::KeyN,
        'p' => KeyCode::KeyP,
        _ => KeyCode::KeyB,
    };
    (code, Key::Character(c.to_string().into()))
}

fn tap(q: &mut VecDeque<Act>, code: KeyCode, key: Key) {
    q.push_back(Act::Press(code, key.clone()));
    q.push_back(Act::Release(code, key));
    q.push_back(Act::Wait(BEAT));
}

fn enter(q: &mut VecDeque<Act>) {
    tap(q, KeyCode::Enter, Key::Enter);
}

fn click(q: &mut VecDeque<Act>, at: Vec2) {
    q.extend([
        Act::Point(at),
        Act::Wait(2),
        Act::Down,
        Act::Up,
        Act::Wait(BEAT),
    ]);
}

fn shot(q: &mut VecDeque<Act>, name: &'static str) {
    q.extend([Act::Wait(8), Act::Shot(name), Act::ShotDone]);
}

/// What the driver reads of the screens.
#[derive(bevy::ecs::system::SystemParam)]
struct Screens<'w> {
    view: Res<'w, ScreenView>,
    game: Res<'w, GameView>,
    handover: Res<'w, Handover>,
    overlays: Res<'w, Overlays>,
    battle: Res<'w, BattleScreens>,
    charges: Res<'w, ChargeView>,
    picks: Res<'w, Picks>,
    rects: Res<'w, UiRects>,
}

/// The synthetic input the driver sends, as the windowing layer would.
#[derive(bevy::ecs::system::SystemParam)]
struct Input<'w> {
    moved: MessageWriter<'w, CursorMoved>,
    buttons: MessageWriter<'w, MouseButtonInput>,
    keys: MessageWriter<'w, KeyboardInput>,
    exit: MessageWriter<'w, AppExit>,
}

type Standing<'w, 's> = Query<
    'w,
    's,
    (&'static FigureId, &'static Position, &'static SideId),
    (With<Mirror>, Without<CarriedBy>),
>;

fn drive(
    mut d: ResMut<Driver>,
    mut active: Option<NonSendMut<ActiveGame>>,
    mut window: Single<(Entity, &mut Window), With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<MapCamera>>,
    layout: Option<Res<MapLayout>>,
    s: Screens,
    mirrors: Standing,
    mut input: Input,
    mut commands: Commands,
) {
    d.frame += 1;
    let frame = d.frame;
    if frame > LIMIT {
        d.wait_until = u32::MAX;
        keep_game(&mut active, &d.out);
        let log = d.log.join(" | ");
        println!("E2E FAIL melee: timed out; {log}");
        input.exit.write(AppExit::error());
        return;
    }
    if frame < d.wait_until.max(WARMUP) || s.rects.left <= 0.0 {
        return;
    }
    let Some(layout) = layout else { return };
    let (win, ref mut w) = *window;
    let (cam, cam_tf) = *camera;
    d.wait_until = frame + 1;
    if let Some(act) = d.queue.pop_front() {
        match act {
            Act::Point(p) => {
                w.set_cursor_position(Some(p));
                input.moved.write(CursorMoved {
                    window: win,
                    position: p,
                    delta: None,
                });
            }
            Act::Down | Act::Up => {
                input.buttons.write(MouseButtonInput {
                    button: MouseButton::Left,
                    state: if matches!(act, Act::Down) {
                        ButtonState::Pressed
                    } else {
                        ButtonState::Released
                    },
                    window: win,
                });
            }
            Act::Press(code, key) => key_event(&mut input, win, code, key, ButtonState::Pressed),
            Act::Release(code, key) => {
                key_event(&mut input, win, code, key, ButtonState::Released);
            }
            Act::Shot(name) => {
                d.shot = Some(super::move_driver::shoot(&mut commands, &d.out, name));
                d.shots.insert(name);
            }
            Act::ShotDone => {
                if d.shot.as_ref().is_some_and(|p| !p.exists()) {
                    d.queue.push_front(Act::ShotDone);
                }
            }
            Act::Wait(n) => d.wait_until = frame + n,
        }
        return;
    }
    let to_screen = |c: Cell| {
        cam.world_to_viewport(cam_tf, layout.cell_to_world(c).extend(0.0))
            .ok()
    };
    let free = s.rects.free_area(w.size());
    if let Some(why) = decide(&mut d, &mut active, &s, &mirrors, &to_screen, free) {
        d.wait_until = u32::MAX;
        keep_game(&mut active, &d.out);
        match why {
            Ok(pass) => {
                println!("E2E PASS melee: {pass}");
                input.exit.write(AppExit::Success);
            }
            Err(fail) => {
                let log = d.log.join(" | ");
                println!("E2E FAIL melee: {fail}; {log}");
                input.exit.write(AppExit::error());
            }
        }
    }
}

/// Saves the game as it stands to `out/game.ron`, so a run that failed can be loaded and
/// looked at (`warhorse --load`, or the Load dialog).
fn keep_game(active: &mut Option<NonSendMut<ActiveGame>>, out: &std::path::Path) {
    if let Some(a) = active.as_deref() {
        let _ = std::fs::create_dir_all(out);
        if let Err(e) = warhorse::ui::screens::saves::save_named(&a.game, out, "game") {
            println!("E2E note: the game could not be saved: {e}");
        }
    }
}

fn key_event(
    input: &mut Input,
    window: Entity,
    key_code: KeyCode,
    logical_key: Key,
    state: ButtonState,
) {
    input.keys.write(KeyboardInput {
        key_code,
        logical_key,
        state,
        text: None,
        repeat: false,
        window,
    });
}

/// Plans the next acts from what is on screen; `Some` ends the test.
fn decide(
    d: &mut Driver,
    active: &mut Option<NonSendMut<ActiveGame>>,
    s: &Screens,
    mirrors: &Standing,
    to_screen: &dyn Fn(Cell) -> Option<Vec2>,
    free: Rect,
) -> Option<Result<String, String>> {
    let q = &mut d.queue;
    if let Some(over) = &s.game.over {
        return Some(Err(format!(
            "the battle ended before the melee was through: {over}"
        )));
    }
    if s.handover.screen_up() || s.battle.briefing.is_some() {
        enter(q);
        return None;
    }
    match &s.overlays.dialog {
        Some(Dialog::Reveal(_)) => {
            if !d.in_reveal {
                d.in_reveal = true;
                d.reveals += 1;
            }
            if d.reveals > MAX_REVEALS {
                return Some(Err(format!(
                    "the melee is still going after {MAX_REVEALS} card rounds"
                )));
            }
            if !d.shots.contains("reveal.png") {
                shot(q, "reveal.png");
                d.results_due = true;
            }
            enter(q);
            return None;
        }
        Some(_) => {
            enter(q);
            return None;
        }
        None => d.in_reveal = false,
    }
    if d.results_due {
        d.results_due = false;
        // At once: the effects last under two seconds of a slow software-rendered frame rate.
        q.extend([Act::Wait(2), Act::Shot("results.png"), Act::ShotDone]);
        return None;
    }
    if let Some(o) = &s.view.cards {
        d.melee_turn.get_or_insert(s.view.turn);
        if o.hands.is_empty() {
            // Only dodge guesses: guess Back, as a player who saw the dodger step away.
            let (code, key) = key_of('b');
            tap(q, code, key);
            return None;
        }
        // Nothing any figure of the side can strike: as a player would, pass for the rest of
        // the melee (the key P) rather than parry round after round.
        if !warhorse::ui::screens::cards::can_strike(o) {
            d.log.push(format!("T{} {} passes", s.view.turn, o.side));
            let (code, key) = key_of('p');
            tap(q, code, key);
            return None;
        }
        if d.picked.0 != s.view.cards_key {
            d.picked = (s.view.cards_key, HashSet::new());
        }
        let current = s.picks.current.min(o.hands.len() - 1);
        let hand = &o.hands[current];
        if s.picks.asking {
            enter(q);
            return None;
        }
        if s.picks
            .by_unit
            .get(&hand.unit)
            .is_some_and(|p| !p.melee.is_empty())
        {
            // Picked already (by the click on the enemy).
            d.picked.1.insert(hand.unit.clone());
        }
        if !d.picked.1.contains(&hand.unit) {
            d.picked.1.insert(hand.unit.clone());
            let shown = table_cards(hand, &s.picks);
            let keys = card_keys(&shown);
            let best = shown
                .iter()
                .position(|c| {
                    c.kind == CardKind::Melee
                        && c.verdict.is_ok()
                        && c.name.starts_with("DELIVER BLOW")
                })
                .or_else(|| {
                    shown.iter().position(|c| {
                        c.kind == CardKind::Melee && c.verdict.is_ok() && c.target.is_some()
                    })
                });
            let k = best?;
            // The first blow of the game is picked on the map: a click on the enemy.
            let target = shown[k].target.as_ref().and_then(|t| {
                mirrors
                    .iter()
                    .find(|(f, _, _)| f.0 == *t)
                    .and_then(|(_, p, _)| to_screen(p.0))
            });
            match target.filter(|p| free.contains(*p) && !d.clicked_enemy) {
                Some(px) => {
                    d.clicked_enemy = true;
                    d.log
                        .push(format!("clicked {:?} for {}", shown[k].target, hand.unit));
                    click(q, px);
                    // Several cards aimed at that enemy: the table narrows to them; pick the
                    // blow among them with its key next time round.
                    d.picked.1.remove(&hand.unit);
                }
                None => {
                    if let Some(n) = keys[k] {
                        let (code, key) = key_of(char::from(b'0' + n as u8));
                        tap(q, code, key);
                    }
                }
            }
            if !d.shots.contains("chooser.png") && !d.clicked_enemy {
                shot(q, "chooser.png");
            }
            return None;
        }
        if s.picks
            .by_unit
            .get(&hand.unit)
            .is_some_and(|p| !p.melee.is_empty())
            && !d.shots.contains("chooser.png")
        {
            shot(q, "chooser.png");
            return None;
        }
        if o.hands.iter().any(|h| !d.picked.1.contains(&h.unit)) {
            tap(q, KeyCode::Tab, Key::Tab);
        } else {
            enter(q);
        }
        return None;
    }
    if s.charges.overlay.is_some() {
        enter(q);
        return None;
    }
    let Some(side) = s.game.side_to_move else {
        q.push_back(Act::Wait(BEAT));
        return None;
    };
    if !s.game.phase.is_half_move() {
        // A fire phase: nothing to shoot at that the test needs.
        enter(q);
        return None;
    }
    if let Some(t) = d.melee_turn
        && s.view.turn > t
    {
        if !d.shots.contains("next_turn.png") {
            shot(q, "next_turn.png");
            return None;
        }
        let a = active.as_deref_mut()?;
        return Some(Ok(format!(
            "melee fought in turn {t}: {} card rounds revealed, {} orders; turn {} begins",
            d.reveals,
            a.game.record().orders.len(),
            s.view.turn
        )));
    }
    let half = Some((s.view.turn, s.view.phase.clone(), side));
    if d.moves.0 != half {
        d.moves = (half, 0);
    }
    if d.moves.1 >= MOVES_PER_HALF {
        enter(q);
        return None;
    }
    d.moves.1 += 1;
    match closing_move(active, mirrors, side, free, to_screen) {
        Some((id, from, to)) => {
            d.log.push(format!("T{} {id} -> {to:?}", s.view.turn));
            click(q, from);
            q.push_back(Act::Wait(6));
            click(q, to);
            q.push_back(Act::Wait(10));
        }
        None => enter(q),
    }
    None
}

/// The move of `side` that brings a figure nearest an enemy by way of passable ground: the
/// figure's screen point and the clicked cell's.
fn closing_move(
    active: &mut Option<NonSendMut<ActiveGame>>,
    mirrors: &Standing,
    side: u8,
    free: Rect,
    to_screen: &dyn Fn(Cell) -> Option<Vec2>,
) -> Option<(String, Vec2, Vec2)> {
    let a = active.as_deref_mut()?;
    let board = a
        .game
        .world_for_tests()
        .resource::<warhorse::sim::world::Map>()
        .0
        .clone();
    let enemies: Vec<Cell> = mirrors
        .iter()
        .filter(|m| m.2.0 != side)
        .map(|m| m.1.0)
        .collect();
    let dist = ground_distance(&board, &enemies);
    let at = |c: Cell| dist.get(board.index(c)).copied().flatten();
    let mut rows: Vec<(String, Cell)> = mirrors
        .iter()
        .filter(|m| m.2.0 == side)
        .map(|m| (m.0.0.clone(), m.1.0))
        .collect();
    rows.sort();
    let mut best: Option<(u32, String, Vec2, Vec2)> = None;
    for (id, from) in rows {
        let Some(start) = at(from) else { continue };
        if start <= 1 {
            continue;
        }
        let Some(r) = reach_view_of(&mut a.game, &id, a.revision, Some(side)) else {
            continue;
        };
        let Some(fp) = to_screen(from).filter(|p| free.contains(*p)) else {
            continue;
        };
        for end in &r.cells {
            let (Some(dd), Some(px)) = (at(end.cell), to_screen(end.cell)) else {
                continue;
            };
            if dd < start && free.contains(px) && best.as_ref().is_none_or(|b| dd < b.0) {
                best = Some((dd, id.clone(), fp, px));
            }
        }
    }
    best.map(|(_, id, f, t)| (id, f, t))
}

/// Steps from every cell to the nearest of `goals` over passable ground (`None`: cut off).
fn ground_distance(board: &warhorse::rules::board::Board, goals: &[Cell]) -> Vec<Option<u32>> {
    let mut dist = vec![None; (board.width * board.height) as usize];
    let mut queue = VecDeque::new();
    for &g in goals {
        if board.contains(g) {
            dist[board.index(g)] = Some(0);
            queue.push_back(g);
        }
    }
    while let Some(c) = queue.pop_front() {
        let here = dist[board.index(c)].unwrap_or(0);
        for (_, n) in board.grid.neighbours(c) {
            if board.contains(n)
                && board.terrain_at(n).cost.is_some()
                && dist[board.index(n)].is_none()
            {
                dist[board.index(n)] = Some(here + 1);
                queue.push_back(n);
            }
        }
    }
    dist
}
