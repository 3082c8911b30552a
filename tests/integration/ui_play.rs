//! The in-game interface, headless (no window, no GPU): the play logic on `MinimalPlugins`
//! driven by the same actions a click or a key produces, checked against the game itself.

use bevy::prelude::*;
use warhorse::level::default_level;
use warhorse::rules::grid::Cell;
use warhorse::sim::Game;
use warhorse::sim::components::{CarriedBy, FigureId, Position, SideId};
use warhorse::sim::order::Order;
use warhorse::ui::bridge::{ActiveGame, GameView, Mirror};
use warhorse::ui::play::reach_view::{CurrentPreview, CurrentReach};
use warhorse::ui::play::{AskFirst, Feedback, Hover, PlayAction, Selection, headless_app};

fn app(seed: u64) -> App {
    let level = default_level().expect("the default level loads");
    let mut g = Game::new(&level, seed);
    // The archers' fire phase (D3) comes first; these tests start at the first half-move.
    while !g.phase().is_half_move() {
        g.order(&Order::EndSide).expect("ends a fire sub-step");
    }
    headless_app(g, level)
}

fn act(app: &mut App, a: PlayAction) {
    app.world_mut().write_message(a);
    app.update();
}

fn hover(app: &mut App, cell: Cell, pick: usize) {
    *app.world_mut().resource_mut::<Hover>() = Hover {
        cell: Some(cell),
        pick,
    };
    app.update();
}

fn game(app: &App) -> &Game {
    &app.world().non_send::<ActiveGame>().game
}

fn view(app: &App) -> GameView {
    app.world().resource::<GameView>().clone()
}

fn state(app: &mut App) -> String {
    let snap = app.world_mut().non_send_mut::<ActiveGame>().game.snapshot();
    serde_json::to_string(&snap.figures).expect("snapshot serialises")
}

/// Figures standing on their own (riders and foot, not carried mounts) of side `side`, by id.
fn figures_of(app: &mut App, side: u8) -> Vec<(String, Cell)> {
    let world = app.world_mut();
    let mut q = world
        .query_filtered::<(&FigureId, &Position, &SideId), (With<Mirror>, Without<CarriedBy>)>();
    let mut v: Vec<_> = q
        .iter(world)
        .filter(|f| f.2.0 == side)
        .map(|(id, p, _)| (id.0.clone(), p.0))
        .collect();
    v.sort();
    v
}

fn mirror_cell(app: &mut App, id: &str) -> Option<Cell> {
    let world = app.world_mut();
    let mut q = world.query_filtered::<(&FigureId, &Position), With<Mirror>>();
    q.iter(world).find(|f| f.0.0 == id).map(|f| f.1.0)
}

/// Clicks every figure of `side` in turn and returns the one whose reach goes farthest,
/// selected, with the reachable cell of the longest path.
fn select_mover(app: &mut App, side: u8) -> (String, Cell, Cell) {
    let mut best: Option<(usize, String, Cell, Cell)> = None;
    for (id, at) in figures_of(app, side) {
        act(app, PlayAction::Click(at));
        let reach = app
            .world()
            .resource::<CurrentReach>()
            .0
            .clone()
            .expect("a reach");
        assert_eq!(reach.unit, id, "a click on a figure selects it");
        for end in &reach.cells {
            let n = reach.reach.path(end).len();
            if end.cell != at && best.as_ref().is_none_or(|b| n > b.0) {
                best = Some((n, id.clone(), at, end.cell));
            }
        }
    }
    let (_, id, at, target) = best.expect("some figure can move");
    act(app, PlayAction::Select(Some(id.clone())));
    (id, at, target)
}

#[test]
fn the_previewed_path_is_the_committed_path() {
    let mut app = app(1);
    let side = view(&app).side_to_move.expect("a side moves");
    let (unit, _, target) = select_mover(&mut app, side);
    hover(&mut app, target, 0);
    let preview = app
        .world()
        .resource::<CurrentPreview>()
        .0
        .clone()
        .expect("a preview");
    assert_eq!(preview.cell, target);
    assert!(!preview.steps.is_empty());
    act(&mut app, PlayAction::Click(target));
    let want = Order::Move {
        unit: unit.clone(),
        steps: preview.steps.clone(),
    };
    assert_eq!(game(&app).record().orders.last(), Some(&want));
    assert_eq!(
        mirror_cell(&mut app, &unit),
        Some(target),
        "the mirror followed"
    );
    assert!(!app.world().resource::<Feedback>().refused);
}

#[test]
fn the_previewed_end_facing_is_the_committed_one() {
    let mut app = app(1);
    let side = view(&app).side_to_move.expect("a side moves");
    for (id, at) in figures_of(&mut app, side) {
        act(&mut app, PlayAction::Select(Some(id.clone())));
        let reach = app
            .world()
            .resource::<CurrentReach>()
            .0
            .clone()
            .expect("a reach");
        let Some(cell) =
            reach.cells.iter().map(|e| e.cell).find(|&c| {
                c != at && reach.reach.ends().iter().filter(|e| e.cell == c).count() > 1
            })
        else {
            continue;
        };
        hover(&mut app, cell, 0);
        act(&mut app, PlayAction::CycleFacing(1));
        let p = app
            .world()
            .resource::<CurrentPreview>()
            .0
            .clone()
            .expect("a preview");
        assert_eq!(p.pick, 1);
        act(&mut app, PlayAction::Click(cell));
        let last = game(&app).record().orders.last().cloned();
        assert_eq!(
            last,
            Some(Order::Move {
                unit: id,
                steps: p.steps
            })
        );
        return;
    }
    panic!("no figure of the side to move has a cell with two end facings");
}

#[test]
fn a_refused_click_changes_nothing_and_shows_the_reason() {
    let mut app = app(1);
    let moving = view(&app).side_to_move.expect("a side moves");
    let other = 1 - moving;
    let (id, at) = figures_of(&mut app, other)
        .into_iter()
        .next()
        .expect("the other side has figures");
    act(&mut app, PlayAction::Click(at));
    assert_eq!(
        app.world().resource::<Selection>().unit.as_deref(),
        Some(id.as_str())
    );
    let reach = app
        .world()
        .resource::<CurrentReach>()
        .0
        .clone()
        .expect("a reach");
    assert!(!reach.own_side, "shown for information only");
    let target = reach
        .cells
        .iter()
        .map(|e| e.cell)
        .find(|&c| c != at)
        .expect("it could move somewhere");
    let before = state(&mut app);
    let orders = game(&app).record().orders.len();
    hover(&mut app, target, 0);
    act(&mut app, PlayAction::Click(target));
    let fb = app.world().resource::<Feedback>().clone();
    assert!(fb.refused, "{fb:?}");
    assert!(fb.status.contains("D4"), "the rules' reason: {}", fb.status);
    assert!(fb.toast_until.is_some(), "a banner shows it");
    assert_eq!(state(&mut app), before, "the world is unchanged");
    assert_eq!(game(&app).record().orders.len(), orders);
    assert_eq!(mirror_cell(&mut app, &id), Some(at));
}

#[test]
fn undo_takes_back_a_move_but_stops_at_the_dice() {
    let mut app = app(1);
    let first = view(&app).side_to_move.expect("a side moves");
    let (unit, from, target) = select_mover(&mut app, first);
    hover(&mut app, target, 0);
    act(&mut app, PlayAction::Click(target));
    assert_eq!(mirror_cell(&mut app, &unit), Some(target));
    act(&mut app, PlayAction::Undo);
    assert_eq!(mirror_cell(&mut app, &unit), Some(from), "undone");
    let fb = app.world().resource::<Feedback>().clone();
    assert!(!fb.refused);
    // Said as the order reads, the figure by its name: never a count of orders left.
    let shown = view(&app).names.show(&fb.status);
    assert!(
        shown.starts_with("Took back: move ") && !shown.contains(" left") && !shown.contains('_'),
        "{shown}"
    );

    // Move again, end both sides' half-moves: the second initiative is rolled.
    act(&mut app, PlayAction::Select(Some(unit.clone())));
    hover(&mut app, target, 0);
    act(&mut app, PlayAction::Click(target));
    act(&mut app, PlayAction::EndSideAnyway);
    act(&mut app, PlayAction::EndSideAnyway);
    let v = view(&app);
    // The second fire phase (D3) waits for the archers, or passes to the half-move.
    assert!(
        ["second half-move", "fire and spells (second)"].contains(&v.phase.label()),
        "{}",
        v.phase.label()
    );
    assert!(!v.can_undo, "the dice were rolled");
    let before = state(&mut app);
    act(&mut app, PlayAction::Undo);
    let fb = app.world().resource::<Feedback>().clone();
    assert!(fb.refused && fb.status.contains("die roll"), "{fb:?}");
    assert_eq!(state(&mut app), before);
    assert_eq!(
        mirror_cell(&mut app, &unit),
        Some(target),
        "the move before the roll stays"
    );
}

#[test]
fn while_the_orders_are_locked_a_click_or_key_gives_no_order_but_selecting_still_works() {
    let mut app = app(3);
    let side = view(&app).side_to_move.expect("a side moves");
    let (id, _, far) = select_mover(&mut app, side);
    let why = "Blue is played by the computer: wait, or press Space to fast-forward.";
    app.world_mut()
        .insert_resource(warhorse::ui::play::OrderLock(Some(why.into())));
    let before = state(&mut app);
    let orders = game(&app).record().orders.len();
    for a in [
        PlayAction::Click(far),
        PlayAction::EndSide,
        PlayAction::Gait(warhorse::rules::gait::Gait::Gallop),
        PlayAction::BackUp,
        PlayAction::Undo,
    ] {
        act(&mut app, a);
        assert_eq!(app.world().resource::<Feedback>().status, why);
    }
    assert_eq!(state(&mut app), before);
    assert_eq!(game(&app).record().orders.len(), orders);
    // Looking is still allowed.
    act(&mut app, PlayAction::Select(None));
    assert_eq!(app.world().resource::<Selection>().unit, None);
    act(&mut app, PlayAction::Select(Some(id.clone())));
    assert_eq!(app.world().resource::<Selection>().unit, Some(id));
    // Unlocked, the same click moves the figure.
    app.world_mut()
        .insert_resource(warhorse::ui::play::OrderLock(None));
    act(&mut app, PlayAction::Click(far));
    assert_ne!(state(&mut app), before);
}

#[test]
fn at_a_shared_computer_undo_takes_back_only_the_moving_sides_own_moves() {
    let mut app = app(1);
    let first = view(&app).side_to_move.expect("a side moves");
    let (unit, _, target) = select_mover(&mut app, first);
    hover(&mut app, target, 0);
    act(&mut app, PlayAction::Click(target));
    act(&mut app, PlayAction::EndSideAnyway);
    let second = view(&app).side_to_move.expect("the other side moves");
    assert_ne!(second, first);
    // The other player may not take back the first player's end of half-move or move.
    assert!(!view(&app).can_undo);
    let before = state(&mut app);
    act(&mut app, PlayAction::Undo);
    let fb = app.world().resource::<Feedback>().clone();
    assert!(fb.refused, "{fb:?}");
    assert_eq!(state(&mut app), before);
    assert_eq!(mirror_cell(&mut app, &unit), Some(target));
    // Its own move it may.
    let (other, from, to) = select_mover(&mut app, second);
    hover(&mut app, to, 0);
    act(&mut app, PlayAction::Click(to));
    assert!(view(&app).can_undo);
    act(&mut app, PlayAction::Undo);
    assert_eq!(mirror_cell(&mut app, &other), Some(from));
    assert!(
        !view(&app).can_undo,
        "back at the other side's end of half-move"
    );
}

/// The questions the board has asked so far.
fn asked(app: &App) -> Vec<AskFirst> {
    let messages = app
        .world()
        .resource::<bevy::ecs::message::Messages<AskFirst>>();
    messages.get_cursor().read(messages).cloned().collect()
}

/// Issue 34: "ending a half-move with unmoved figures or leaving a battle asks first". On River
/// Crossing one figure of the side moves; Enter then asks, naming the figures that have not
/// moved and not the one that has, and ends nothing; "end it" ends the half-move.
#[test]
fn ending_a_half_move_with_figures_unmoved_asks_first() {
    let mut app = app(1);
    let first = view(&app).side_to_move.expect("a side moves");
    let others: Vec<String> = figures_of(&mut app, first)
        .into_iter()
        .map(|f| f.0)
        .collect();
    let (unit, _, target) = select_mover(&mut app, first);
    hover(&mut app, target, 0);
    act(&mut app, PlayAction::Click(target));
    let orders = game(&app).record().orders.len();
    act(&mut app, PlayAction::EndSide);
    let questions = asked(&app);
    assert_eq!(questions.len(), 1, "{questions:?}");
    let q = &questions[0];
    assert_eq!(q.then, PlayAction::EndSideAnyway);
    let names = view(&app).names.clone();
    assert!(!q.text.contains(names.name(&unit)), "{}", q.text);
    let unmoved: Vec<&String> = others.iter().filter(|id| **id != unit).collect();
    assert!(
        !unmoved.is_empty(),
        "River Crossing's sides have several figures"
    );
    for id in unmoved {
        assert!(q.text.contains(names.name(id)), "{id} missing: {}", q.text);
    }
    assert_eq!(view(&app).side_to_move, Some(first), "nothing ended");
    assert_eq!(game(&app).record().orders.len(), orders, "no order given");
    act(&mut app, q.then.clone());
    assert_ne!(view(&app).side_to_move, Some(first), "the half-move ended");
}

/// Issue 34: "a cell out of reach explains why on hover (the rule and the cost), a click
/// there keeps the selection". A cell the figure could reach only with more movement than it
/// has: the click keeps the figure selected, orders nothing, and says what the way there costs
/// against what is left.
#[test]
fn a_click_out_of_reach_keeps_the_selection_and_says_what_the_way_costs() {
    use warhorse::ui::play::reach_view::why_not;
    use warhorse::ui::settings::Fractions;
    let mut app = app(1);
    let side = view(&app).side_to_move.expect("a side moves");
    let (unit, _, _) = select_mover(&mut app, side);
    let r = app
        .world()
        .resource::<CurrentReach>()
        .0
        .clone()
        .expect("a reach");
    let occupied: Vec<Cell> = (0..2)
        .flat_map(|s| figures_of(&mut app, s))
        .map(|f| f.1)
        .collect();
    let beyond = *r
        .far
        .iter()
        .find(|e| !r.cells.iter().any(|c| c.cell == e.cell) && !occupied.contains(&e.cell))
        .expect("a cell beyond its reach");
    let why = why_not(&r, beyond.cell, Fractions::default()).expect("a reason");
    assert!(
        why.contains("Out of reach") && why.contains(&Fractions::default().amount(beyond.cost)),
        "{why}"
    );
    assert_eq!(why_not(&r, r.cells[0].cell, Fractions::default()), None);
    let orders = game(&app).record().orders.len();
    act(&mut app, PlayAction::Click(beyond.cell));
    assert_eq!(app.world().resource::<Selection>().unit, Some(unit));
    assert_eq!(game(&app).record().orders.len(), orders);
    let fb = app.world().resource::<Feedback>().status.clone();
    assert!(fb.contains("Out of reach"), "{fb}");
}
