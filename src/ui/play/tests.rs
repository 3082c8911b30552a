//! Headless tests of the play logic: keys, mounting and dismounting through the mirrors,
//! starting and loading games through the bridge, the card and the turn bar's words.

use super::card::{CardData, card_lines, card_of};
use super::input::key_action;
use super::panels::initiative_text;
use super::*;
use crate::level::default_level;
use crate::sim::Game;
use crate::sim::components::{CarriedBy, FigureId, Position, RidingOn};
use crate::ui::bridge::{ActiveGame, GameView, LoadGame, Mirror, Mirrors, StartGame};
use crate::ui::counters::CounterOf;
use crate::ui::settings::Fractions;
use crate::ui::settings::keymap::{Chord, Command, Keymap};

fn app(seed: u64) -> App {
    let level = default_level().expect("default level");
    let mut g = Game::new(&level, seed);
    // The archers' fire phase (D3) comes first; these tests start at the first half-move.
    while !g.phase().is_half_move() {
        g.order(&crate::sim::order::Order::EndSide)
            .expect("ends a fire sub-step");
    }
    headless_app(g, level)
}

fn act(app: &mut App, a: PlayAction) {
    app.world_mut().write_message(a);
    app.update();
}

fn feedback(app: &App) -> Feedback {
    app.world().resource::<Feedback>().clone()
}

fn mirror(app: &App, id: &str) -> Entity {
    app.world().resource::<Mirrors>().0[id]
}

fn side_prefix(app: &App) -> String {
    let v = app.world().resource::<GameView>();
    v.side_name(v.side_to_move.expect("a side moves"))
        .to_lowercase()
}

#[test]
fn keys_become_actions() {
    let mut keys = ButtonInput::<KeyCode>::default();
    keys.press(KeyCode::Digit2);
    keys.press(KeyCode::BracketRight);
    assert_eq!(
        key_action(Keymap::standard(), &keys),
        vec![PlayAction::Gait(Gait::Trot), PlayAction::Pivot(Hand::Right)]
    );
    let mut keys = ButtonInput::<KeyCode>::default();
    keys.press(KeyCode::ControlLeft);
    keys.press(KeyCode::KeyZ);
    assert_eq!(
        key_action(Keymap::standard(), &keys),
        vec![PlayAction::Undo]
    );
    let mut keys = ButtonInput::<KeyCode>::default();
    keys.press(KeyCode::Enter);
    keys.press(KeyCode::KeyE);
    assert_eq!(
        key_action(Keymap::standard(), &keys),
        vec![PlayAction::EndSide, PlayAction::CycleFacing(1)]
    );
    // A key the player gave another command does that command, and its old one is gone.
    let mut mine = Keymap::default();
    let t = Chord {
        key: KeyCode::KeyT,
        ctrl: false,
    };
    assert_eq!(mine.bind(Command::Trot, t, true), Some(Command::StandUp));
    let mut keys = ButtonInput::<KeyCode>::default();
    keys.press(KeyCode::KeyT);
    keys.press(KeyCode::Digit2);
    assert_eq!(key_action(&mine, &keys), vec![PlayAction::Gait(Gait::Trot)]);
    let mut keys = ButtonInput::<KeyCode>::default();
    keys.press(KeyCode::Escape);
    assert_eq!(key_action(&mine, &keys), vec![PlayAction::Cancel]);
}

#[test]
fn a_knight_dismounts_and_remounts_and_the_mirrors_follow() {
    let mut app = app(1);
    let knight = format!("{}_knight_1", side_prefix(&app));
    let rider = mirror(&app, &knight);
    let mount = mirror(&app, &format!("{knight}.mount"));
    let at = app.world().get::<Position>(rider).expect("placed").0;
    act(
        &mut app,
        PlayAction::Select(Some(format!("{knight}.mount"))),
    );
    assert_eq!(
        app.world().resource::<Selection>().unit.as_deref(),
        Some(knight.as_str()),
        "a pair is selected by its rider"
    );
    act(&mut app, PlayAction::MountOrDismount);
    assert_eq!(app.world().resource::<Selection>().mode, Mode::Dismount);
    let to = crate::rules::grid::Cell::new(at.x - 1, at.y);
    act(&mut app, PlayAction::Click(to));
    assert!(!feedback(&app).refused, "{:?}", feedback(&app));
    assert_eq!(app.world().get::<Position>(rider).map(|p| p.0), Some(to));
    assert!(app.world().get::<RidingOn>(rider).is_none());
    assert!(app.world().get::<CarriedBy>(mount).is_none());
    app.update();
    let world = app.world_mut();
    let shown: Vec<Entity> = world
        .query::<&CounterOf>()
        .iter(world)
        .map(|c| c.0)
        .collect();
    assert!(
        shown.contains(&mount),
        "the riderless horse gets its own counter"
    );

    // Mounting again: M, then a click on the steed (the rider has no move left: refused by
    // the rules, D15, and nothing changes).
    act(&mut app, PlayAction::MountOrDismount);
    assert_eq!(app.world().resource::<Selection>().mode, Mode::Mount);
    act(&mut app, PlayAction::Click(at));
    let fb = feedback(&app);
    if fb.refused {
        assert!(fb.status.contains("D15"), "{fb:?}");
        assert!(app.world().get::<RidingOn>(rider).is_none());
    } else {
        assert_eq!(app.world().get::<RidingOn>(rider).map(|r| r.0), Some(mount));
        assert_eq!(
            app.world().get::<CarriedBy>(mount).map(|c| c.0),
            Some(rider)
        );
    }
}

#[test]
fn mounting_something_that_is_not_a_steed_is_refused_by_the_rules() {
    let mut app = app(1);
    let p = side_prefix(&app);
    let foot = format!("{p}_foot_1");
    let knight = mirror(&app, &format!("{p}_knight_1"));
    let knight_at = app.world().get::<Position>(knight).expect("placed").0;
    act(&mut app, PlayAction::Select(Some(foot)));
    act(&mut app, PlayAction::MountOrDismount);
    act(&mut app, PlayAction::Click(knight_at));
    let fb = feedback(&app);
    assert!(fb.refused && fb.status.contains("not a steed"), "{fb:?}");
    assert_eq!(app.world().resource::<Selection>().mode, Mode::Move);
}

#[test]
fn orders_without_a_selection_ask_for_one() {
    let mut app = app(1);
    let given = |app: &App| {
        app.world()
            .non_send::<ActiveGame>()
            .game
            .record()
            .orders
            .len()
    };
    let before = given(&app);
    act(&mut app, PlayAction::Gait(Gait::Trot));
    let fb = feedback(&app);
    assert!(!fb.refused && fb.status.contains("Select a figure"));
    assert_eq!(given(&app), before, "no order was given");
}

#[test]
fn pivots_are_a_facing_step_on_foot_and_a_right_angle_mounted() {
    let mut app = app(1);
    let p = side_prefix(&app);
    for (id, k) in [(format!("{p}_foot_1"), 1), (format!("{p}_knight_1"), 2)] {
        act(&mut app, PlayAction::Select(Some(id.clone())));
        act(&mut app, PlayAction::Pivot(Hand::Left));
        let game = &app.world().non_send::<ActiveGame>().game;
        let last = game.record().orders.last().cloned();
        assert_eq!(
            last,
            Some(crate::sim::order::Order::Move {
                unit: id,
                steps: vec![crate::rules::movement::Step::Pivot(-k)]
            }),
            "{:?}",
            feedback(&app)
        );
    }
}

#[test]
fn a_new_game_replaces_the_old_one_and_clears_the_selection() {
    let mut app = app(1);
    let p = side_prefix(&app);
    act(&mut app, PlayAction::Select(Some(format!("{p}_foot_1"))));
    let serial = app.world().resource::<GameView>().serial;
    let record = app.world().non_send::<ActiveGame>().game.record().clone();
    let level = default_level().expect("default level");
    app.world_mut().write_message(StartGame { level, seed: 9 });
    app.update();
    assert_eq!(app.world().resource::<GameView>().serial, serial + 1);
    assert_eq!(app.world().resource::<Selection>().unit, None);
    assert_eq!(app.world().non_send::<ActiveGame>().game.record().seed, 9);
    let world = app.world_mut();
    let n = world
        .query_filtered::<&FigureId, With<Mirror>>()
        .iter(world)
        .count();
    assert_eq!(n, 16 + 6, "16 figures and the 6 mounts of the mounted ones");

    app.world_mut().write_message(LoadGame { record });
    app.update();
    assert_eq!(app.world().non_send::<ActiveGame>().game.record().seed, 1);
}

/// The view of a new game (seed 1) and the card of the side to move's first knight.
fn knight_card() -> (GameView, super::card::FigureCard) {
    let mut app = app(1);
    let p = side_prefix(&app);
    let e = mirror(&app, &format!("{p}_knight_1"));
    let view = app.world().resource::<GameView>().clone();
    let world = app.world_mut();
    let mut state = world.query_filtered::<CardData, With<Mirror>>();
    let q = state.query(world);
    let card = card_of(&q, e).expect("a card");
    (view, card)
}

#[test]
fn the_card_and_the_turn_bar_say_what_matters() {
    let (view, card) = knight_card();
    let lines = card_lines(&card, &view, Fractions::Mixed);
    let keys: Vec<&str> = lines.iter().map(|l| l.0).collect();
    for k in [
        "Troop",
        "Weapon",
        "Armour",
        "Shield",
        "Blows",
        "Body",
        "Conditions",
    ] {
        assert!(keys.contains(&k), "{k} in {keys:?}");
    }
    let mount = card.mount.as_ref().expect("a knight rides");
    assert!(
        card_lines(mount, &view, Fractions::Mixed)
            .iter()
            .any(|l| l.0 == "Gait")
    );
    let bar = initiative_text(&view);
    assert!(bar.starts_with("Initiative: Red "), "{bar}");
    assert!(bar.contains("Blue ") && bar.contains("has it"), "{bar}");
}

/// Issue 11: a fallen figure cannot be selected, and says why; its card lists its state.
#[test]
fn a_fallen_figure_cannot_be_selected() {
    use crate::rules::melee::fight::Fallen;
    use crate::sim::components::CombatStatus;
    let mut app = app(3);
    let foot = format!("{}_foot_1", side_prefix(&app));
    {
        let mut active = app.world_mut().non_send_mut::<ActiveGame>();
        let world = active.game.app.world_mut();
        let e = crate::sim::world::find_figure(world, &foot).expect("the footman");
        world
            .get_mut::<CombatStatus>(e)
            .expect("combat state")
            .0
            .fallen = Fallen::Dead;
        active.revision += 1;
    }
    app.update();
    act(&mut app, PlayAction::Select(Some(foot.clone())));
    assert_eq!(app.world().resource::<Selection>().unit, None);
    assert!(
        feedback(&app).status.contains("is dead"),
        "{:?}",
        feedback(&app)
    );
    let conds = app
        .world()
        .get::<crate::sim::components::Conditions>(mirror(&app, &foot))
        .expect("mirrored conditions");
    assert!(conds.0.iter().any(|w| w == "dead"), "{:?}", conds.0);
    // A click on its cell selects nothing either.
    let at = app
        .world()
        .get::<Position>(mirror(&app, &foot))
        .expect("placed")
        .0;
    act(&mut app, PlayAction::Click(at));
    assert_eq!(app.world().resource::<Selection>().unit, None);
}

/// Issue 34: "the left panel's buttons keep their rectangles when the pointer leaves the
/// map" — with a path previewed (three lines of it) and without, the order buttons start at
/// the same height.
#[test]
fn the_order_buttons_keep_their_place_when_the_preview_comes_and_goes() {
    use super::reach_view::{CurrentPreview, CurrentReach, PathPreview};
    let (view, card) = knight_card();
    let preview = PathPreview {
        unit: card.id.clone(),
        revision: 0,
        cell: crate::rules::grid::Cell::new(3, 4),
        facing: crate::rules::grid::Dir(0),
        choices: 2,
        pick: 0,
        steps: Vec::new(),
        poses: Vec::new(),
        cost: crate::rules::mp::Mp::ZERO,
        left_after: crate::rules::mp::Mp::ZERO,
        words: "ahead ahead veer-right face-S".into(),
    };
    let top = |preview: CurrentPreview| {
        let ctx = bevy_egui::egui::Context::default();
        let mut out = ctx.run_ui(bevy_egui::egui::RawInput::default(), |ui| {
            super::panels::card_panel(
                ui,
                &view,
                Some(&card),
                &Selection::default(),
                &CurrentReach(None),
                &preview,
                &Hover::default(),
                Fractions::Mixed,
                &mut Vec::new(),
            );
        });
        out.textures_delta.clear();
        ctx.data(|d| d.get_temp::<f32>(super::panels::order_buttons_id()))
            .expect("the buttons were drawn")
    };
    let with = top(CurrentPreview(Some(preview)));
    let without = top(CurrentPreview(None));
    assert!(with > 0.0);
    assert_eq!(with, without);
}

/// The actions a click on the top bar's button `label` gives, with `lock` (why the board's
/// orders are locked, if they are).
fn click_on_turn_bar(view: &GameView, lock: Option<&str>, label: &str) -> Vec<PlayAction> {
    use bevy_egui::egui;
    let ctx = egui::Context::default();
    let size = egui::vec2(1280.0, 800.0);
    let frame = |events: Vec<egui::Event>| egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)),
        events,
        ..Default::default()
    };
    let mut out = Vec::new();
    let draw = |ui: &mut egui::Ui, out: &mut Vec<PlayAction>| {
        super::panels::turn_bar(ui, view, lock, out);
    };
    // Where the label is painted, on a frame with no input.
    let first = ctx.run_ui(frame(Vec::new()), |ui| draw(ui, &mut Vec::new()));
    fn find(shape: &egui::Shape, label: &str) -> Option<egui::Pos2> {
        match shape {
            egui::Shape::Text(t) if t.galley.text() == label => {
                Some(t.pos + t.galley.rect.center().to_vec2())
            }
            egui::Shape::Vec(v) => v.iter().find_map(|s| find(s, label)),
            _ => None,
        }
    }
    let at = first.shapes.iter().find_map(|c| find(&c.shape, label));
    first.drop_without_applying_deltas();
    let at = at.unwrap_or_else(|| panic!("{label:?} is on the top bar"));
    let press = |pressed| egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: Default::default(),
    };
    for events in [
        vec![egui::Event::PointerMoved(at)],
        vec![press(true)],
        vec![press(false)],
    ] {
        ctx.run_ui(frame(events), |ui| draw(ui, &mut out))
            .drop_without_applying_deltas();
    }
    out
}

/// Blue's first half-move, with an order it may take back: the top bar offers both buttons.
fn blue_moves_with_undo() -> GameView {
    GameView {
        phase: crate::sim::phase::Phase::FirstHalfMove,
        side_names: vec!["Red".into(), "Blue".into()],
        side_to_move: Some(1),
        can_undo: true,
        ..GameView::default()
    }
}

#[test]
fn the_top_bar_offers_no_end_or_undo_while_the_side_to_act_is_not_the_players() {
    // Issue 34: "during a replay and the computer's turns the top bar still offers 'End
    // side's half-move' and 'Undo'". They are offered to a player whose side acts.
    let view = blue_moves_with_undo();
    let end = "End side's half-move (Enter)";
    assert_eq!(
        click_on_turn_bar(&view, None, end),
        vec![PlayAction::EndSide]
    );
    assert_eq!(
        click_on_turn_bar(&view, None, "Undo (U)"),
        vec![PlayAction::Undo]
    );
    let lock = Some("Blue is played by the computer: wait, or press Space to fast-forward.");
    assert_eq!(click_on_turn_bar(&view, lock, end), Vec::new());
    assert_eq!(click_on_turn_bar(&view, lock, "Undo (U)"), Vec::new());
}

#[test]
fn a_screen_reader_reads_the_top_bars_buttons_and_that_they_are_disabled_under_the_lock() {
    // Issue 34: "bevy_egui's `accesskit` feature on so a screen reader can read the panels".
    // With it, the window's egui context builds an AccessKit tree each frame (bevy_egui
    // enables it on a window that has an AccessKit adapter, and hands the tree to it): here
    // the same tree, built on a headless frame, holds each button by its words and role.
    use bevy_egui::egui;
    use egui::accesskit::Role;
    let view = blue_moves_with_undo();
    let buttons = |lock: Option<&str>| -> Vec<(String, bool)> {
        let ctx = egui::Context::default();
        ctx.enable_accesskit();
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1280.0, 800.0),
            )),
            ..Default::default()
        };
        let out = ctx.run_ui(input, |ui| {
            super::panels::turn_bar(ui, &view, lock, &mut Vec::new())
        });
        let tree = out
            .platform_output
            .accesskit_update
            .clone()
            .expect("an AccessKit tree each frame");
        out.drop_without_applying_deltas();
        tree.nodes
            .iter()
            .filter(|(_, n)| n.role() == Role::Button)
            .filter_map(|(_, n)| Some((n.label()?.to_string(), n.is_disabled())))
            .collect()
    };
    let end = "End side's half-move (Enter)".to_string();
    let open = buttons(None);
    assert!(open.contains(&(end.clone(), false)), "{open:?}");
    assert!(open.contains(&("Undo (U)".to_string(), false)), "{open:?}");
    let locked = buttons(Some("Blue is played by the computer."));
    assert!(locked.contains(&(end, true)), "{locked:?}");
}
