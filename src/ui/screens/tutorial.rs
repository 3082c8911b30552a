//! The tutorial (issue 12, item 5): a small built-in level (`data/tutorial.ron`) and a panel of
//! steps, each waiting until the game's own state shows the player has done it — a charge
//! declared, a shot fired, a gait changed, a knight moved, a horse turned at a walk, cards
//! played in a melee, the log read, an order taken back. The step logic is plain functions
//! over a [`Game`] ([`done`], [`Baseline::of`]) so the headless tests walk through it by giving
//! orders; the panel only draws it and queues the player's skip or answer.

use super::actions::{ScreenAction, ScreenActions, apply_action};
use super::host::GameHost;
use crate::level::{Control, Level, LoadErrors, load_level_str};
use crate::sim::Game;
use crate::sim::order::Order;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::collections::BTreeMap;

/// The tutorial level's text, built into the game.
pub const TUTORIAL_LEVEL: &str = include_str!("../../../data/tutorial.ron");

/// The tutorial's dice: the same game for every new player, and for the tests.
pub const TUTORIAL_SEED: u64 = 1;

/// The side the player plays in the tutorial (Red, the level's first side).
pub const PLAYER: u8 = 0;

/// The tutorial level, checked like any level file.
pub fn tutorial_level() -> Result<Level, LoadErrors> {
    load_level_str(TUTORIAL_LEVEL, "data/tutorial.ron", None)
}

/// The steps, in the order a turn brings them (D2 charges, D3 fire, D4 the half-move, D6–D7
/// the melee), then the log and undo.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    /// D2: a trotting knight writes charge orders naming an enemy.
    Charge,
    /// D3: an archer shoots.
    Fire,
    /// D5: a steed's gait changed (its reach on the map grows or shrinks).
    Gait,
    /// D4: a knight moved in the half-move.
    Move,
    /// H3–H7: a horse at a walk turned.
    TurnAtWalk,
    /// D6–D7: cards played in a melee.
    Cards,
    /// The log read: the side that has the initiative named.
    ReadLog,
    /// An order taken back.
    Undo,
    /// Every step done.
    Done,
}

/// Every step, in order.
pub const STEPS: [Step; 8] = [
    Step::Charge,
    Step::Fire,
    Step::Gait,
    Step::Move,
    Step::TurnAtWalk,
    Step::Cards,
    Step::ReadLog,
    Step::Undo,
];

impl Step {
    /// The step after this one.
    pub fn next(self) -> Step {
        let i = STEPS.iter().position(|&s| s == self);
        i.and_then(|i| STEPS.get(i + 1))
            .copied()
            .unwrap_or(Step::Done)
    }

    /// The step's title and what the player should do, in the panel's words.
    pub fn text(self) -> (&'static str, &'static str) {
        match self {
            Step::Charge => (
                "Declare a charge",
                "Sir Ivo is trotting, so he may charge (C7). In the charge orders window, click the \
                 Blue footman foot_1 beside his name, then Confirm. Orders are face down \
                 until every side has written them (D2).",
            ),
            Step::Fire => (
                "Fire",
                "Robin carries a bow. In the fire window, choose Robin and shoot at a Blue \
                 footman: the chance to hit is shown before you roll (D3).",
            ),
            Step::Gait => (
                "Change gait and watch the reach",
                "Click Sir Hugh to select him: the shaded cells are where he can go. Now click \
                 '2 trot' in his card on the left: the shaded reach grows, \
                 because a trot doubles a horse's movement (H2, D5).",
            ),
            Step::Move => (
                "Move a knight",
                "With Sir Hugh selected, click a shaded cell to move him there. The log at the \
                 bottom says the path he took and what it cost.",
            ),
            Step::TurnAtWalk => (
                "Turn a horse at a walk",
                "A horse at a walk can turn where it stands; at speed it may only veer (H3–H7). \
                 Select Sir Hugh or another walking horse and turn it to face another way \
                 ('[ Pivot left' or 'Pivot right ]' in his card). If every horse of yours is trotting, end the \
                 half-move (Enter) and do it in the next one.",
            ),
            Step::Cards => (
                "Play a card round",
                "Tom and a Blue footman are locked in melee. End your half-moves (Enter) until \
                 the melee: in the card window choose Tom's cards (a TAC card, then MELEE cards \
                 paid in blows) and confirm. Both sides reveal at once (D6, D7).",
            ),
            Step::ReadLog => (
                "Read the log",
                "The log at the bottom lists every roll and why. Find the last initiative line \
                 (\"rolls … for initiative\", or the surprise in turn 1): which side has the \
                 initiative now?",
            ),
            Step::Undo => (
                "Undo",
                "Move any figure of yours, then take it back with 'Undo (U)' at the top. \
                 Undo goes back to the last die roll, never past it.",
            ),
            Step::Done => (
                "Well done",
                "You have charged, shot, changed gait, moved, turned, fought a card round, read \
                 the log and taken an order back. Play the battle out, or go back to the start \
                 screen for a real level.",
            ),
        }
    }
}

/// What a step compares against: the player's steeds as they were when the step began, and
/// how long the game's record of accepted orders was.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Baseline {
    /// Accepted orders in the game's record when the step began.
    pub orders: usize,
    /// The player's steeds (a mount carrying its rider): cell, facing and gait.
    pub steeds: BTreeMap<String, Steed>,
}

/// One steed of the player, as the snapshot shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Steed {
    /// Its rider's id.
    pub rider: String,
    /// Where it stands.
    pub cell: [i32; 2],
    /// Its facing's name.
    pub facing: String,
    /// Its gait.
    pub gait: String,
}

impl Baseline {
    /// The player's steeds and the record's length now.
    pub fn of(game: &mut Game) -> Baseline {
        let side = game.turn_state().side_name(PLAYER);
        let steeds = game
            .snapshot()
            .figures
            .into_iter()
            .filter(|f| f.side == side)
            .filter_map(|f| {
                let rider = f.carrying.clone()?;
                Some((
                    f.id,
                    Steed {
                        rider,
                        cell: f.cell,
                        facing: f.facing,
                        gait: f.gait,
                    },
                ))
            })
            .collect();
        Baseline {
            orders: game.record().orders.len(),
            steeds,
        }
    }
}

/// The tutorial under way: its step, what the step began from, and the player's input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lesson {
    /// The step the panel shows.
    pub step: Step,
    /// The game as the step began.
    pub baseline: Baseline,
    /// The longest the record has been during this step (undo shortens it).
    pub high_water: usize,
    /// The side the player named in [`Step::ReadLog`].
    pub answer: Option<u8>,
    /// The last answer was wrong.
    pub wrong: bool,
    /// The player asked to skip this step.
    pub skip: bool,
    /// The tutorial game's level name: another game on screen ends the tutorial.
    pub level_name: String,
    /// The record's length and the phase when the game was last looked at: the game is
    /// looked at again only when one of them changed.
    seen: (usize, String),
}

/// The tutorial, while one is being played.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tutorial(pub Option<Lesson>);

fn player_figure(game: &mut Game, id: &str) -> bool {
    let side = game.turn_state().side_name(PLAYER);
    let id = id.strip_suffix(".mount").unwrap_or(id);
    game.snapshot()
        .figures
        .iter()
        .any(|f| f.side == side && (f.id == id || f.carrying.as_deref() == Some(id)))
}

/// True when the game shows that `lesson`'s step is done.
pub fn done(game: &mut Game, lesson: &Lesson) -> bool {
    let new_orders: Vec<Order> = game
        .record()
        .orders
        .get(lesson.baseline.orders..)
        .unwrap_or_default()
        .to_vec();
    let now = Baseline::of(game);
    let changed = |f: &dyn Fn(&Steed, &Steed) -> bool| {
        now.steeds
            .iter()
            .any(|(id, s)| lesson.baseline.steeds.get(id).is_some_and(|was| f(was, s)))
    };
    match lesson.step {
        Step::Charge => new_orders.iter().any(|o| {
            matches!(o, Order::DeclareCharge { unit, targets }
                if !targets.is_empty() && player_figure(game, unit))
        }),
        Step::Fire => new_orders
            .iter()
            .any(|o| matches!(o, Order::Fire { unit, .. } if player_figure(game, unit))),
        Step::Gait => changed(&|was, s| was.gait != s.gait),
        Step::Move => changed(&|was, s| was.cell != s.cell),
        Step::TurnAtWalk => changed(&|was, s| s.gait == "walk" && was.facing != s.facing),
        Step::Cards => new_orders.iter().any(|o| {
            matches!(o, Order::PlayCards { unit, tac, melee, .. }
                if (tac.is_some() || !melee.is_empty()) && player_figure(game, unit))
        }),
        Step::ReadLog => lesson.answer.is_some() && lesson.answer == game.turn_state().initiative,
        Step::Undo => game.record().orders.len() < lesson.high_water,
        Step::Done => false,
    }
}

impl Lesson {
    /// The first step, from the game as it is.
    pub fn new(game: &mut Game) -> Lesson {
        Lesson::at(Step::Charge, game)
    }

    /// `step`, beginning now.
    pub fn at(step: Step, game: &mut Game) -> Lesson {
        let baseline = Baseline::of(game);
        Lesson {
            step,
            high_water: baseline.orders,
            baseline,
            answer: None,
            wrong: false,
            skip: false,
            level_name: game.record().level_name.clone(),
            seen: (usize::MAX, String::new()),
        }
    }

    /// Looks at the game: moves on when the step is done (or skipped). Returns true when the
    /// step changed.
    pub fn follow(&mut self, game: &mut Game) -> bool {
        let seen = (game.record().orders.len(), game.phase().label().to_string());
        self.high_water = self.high_water.max(seen.0);
        if self.step == Step::Done || (seen == self.seen && self.answer.is_none() && !self.skip) {
            return false;
        }
        self.seen = seen;
        if self.skip || done(game, self) {
            *self = Lesson::at(self.step.next(), game);
            return true;
        }
        if self.answer.is_some() {
            // A wrong answer: say so, and let the player look again.
            self.wrong = true;
            self.answer = None;
        }
        false
    }
}

/// Starts the tutorial: the built-in level, Red at the computer and Blue played by it.
pub fn start(world: &mut World) {
    match tutorial_level() {
        Ok(level) => {
            apply_action(
                world,
                ScreenAction::Start(
                    Box::new(level),
                    TUTORIAL_SEED,
                    vec![Control::Human, Control::Ai],
                ),
            );
            let lesson = GameHost::get(world).map(Lesson::new);
            world.insert_resource(Tutorial(lesson));
        }
        Err(e) => super::actions::message(world, "The tutorial does not load", e.to_string()),
    }
}

/// Each frame: the tutorial follows the game, and ends when its game is gone.
pub fn follow_tutorial(world: &mut World) {
    let Some(mut lesson) = world.resource::<Tutorial>().0.clone() else {
        return;
    };
    let Some(game) = GameHost::get(world) else {
        world.insert_resource(Tutorial(None));
        return;
    };
    if game.record().level_name != lesson.level_name {
        world.insert_resource(Tutorial(None));
        return;
    }
    lesson.follow(game);
    if world.resource::<Tutorial>().0.as_ref() != Some(&lesson) {
        world.insert_resource(Tutorial(Some(lesson)));
    }
}

/// The tutorial's panel: the step, what to do, a skip button, and the log question's answers.
pub fn draw_tutorial(
    mut contexts: EguiContexts,
    mut tutorial: ResMut<Tutorial>,
    mut actions: ResMut<ScreenActions>,
    view: Res<super::ScreenView>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Some(lesson) = tutorial.0.as_mut() else {
        return Ok(());
    };
    let n = STEPS.iter().position(|&s| s == lesson.step);
    let (title, body) = lesson.step.text();
    let heading = match n {
        Some(i) => format!("Tutorial — step {} of {}: {title}", i + 1, STEPS.len()),
        None => format!("Tutorial — {title}"),
    };
    egui::Window::new("Tutorial")
        .anchor(egui::Align2::CENTER_TOP, [0.0, 34.0])
        .resizable(false)
        .collapsible(true)
        .default_width(460.0)
        .show(ctx, |ui| {
            ui.strong(heading);
            ui.label(body);
            if lesson.step == Step::ReadLog {
                ui.horizontal(|ui| {
                    for (s, name) in view.side_names.iter().enumerate() {
                        if ui.button(name.as_str()).clicked() {
                            lesson.answer = Some(s as u8);
                        }
                    }
                });
                if lesson.wrong {
                    ui.colored_label(
                        egui::Color32::from_rgb(230, 120, 100),
                        "Not that one: look again at the last initiative line.",
                    );
                }
            }
            ui.horizontal(|ui| {
                if lesson.step == Step::Done {
                    if ui.button("Back to the start screen").clicked() {
                        actions.0.push(ScreenAction::QuitToStart);
                    }
                } else if ui.small_button("Skip this step").clicked() {
                    lesson.skip = true;
                }
            });
        });
    Ok(())
}

/// Adds the tutorial: its lesson following the game and its panel.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Tutorial>()
        .add_systems(Update, follow_tutorial.in_set(super::ScreenStep::Follow))
        .add_systems(
            EguiPrimaryContextPass,
            draw_tutorial
                .run_if(in_state(super::Screen::Playing))
                .in_set(super::DrawLayer::Overlay),
        );
}

/// The tutorial's level and the order of its steps.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tutorial_level_loads_with_the_figures_its_steps_name() {
        let level = tutorial_level().unwrap_or_else(|e| panic!("{e}"));
        let ids: Vec<&str> = level.file.figures.iter().map(|f| f.id.as_str()).collect();
        for id in ["sir_ivo", "sir_hugh", "robin", "tom"] {
            assert!(ids.contains(&id), "{id} in {ids:?}");
        }
        assert_eq!(level.file.sides.len(), 2);
        assert_eq!(
            level.file.sides[usize::from(PLAYER)].control,
            Control::Human
        );
    }

    #[test]
    fn the_steps_come_in_order_and_end_in_done() {
        let mut s = STEPS[0];
        let mut seen = vec![s];
        while s != Step::Done {
            s = s.next();
            seen.push(s);
            assert!(seen.len() <= STEPS.len() + 1, "no loop");
        }
        assert_eq!(&seen[..STEPS.len()], &STEPS);
        for s in seen {
            let (title, body) = s.text();
            assert!(!title.is_empty() && body.len() > 40, "{s:?}");
        }
    }
}
