//! Typed happenings (issue 29, item 2): what the simulation reports is data beside its words.
//! Whole games of several levels, the computer on both sides, are played to their end; after
//! every accepted order the lines it wrote are checked against the game itself: an initiative
//! die is the line's d6 and the side that won has the initiative, a move's path ends where
//! the figure stands and costs what its allowance lost, the charges revealed are the orders
//! written, and the battle's end names the winner the judge gave.

use std::path::Path;
use warhorse::ai::{AiLevel, next_order, set_level, side_to_act};
use warhorse::level::load_level_file;
use warhorse::rules::mp::Mp;
use warhorse::sim::Game;
use warhorse::sim::log::Happening;
use warhorse::sim::order::Order;

/// What one level's game showed, by kind of happening.
#[derive(Default, Debug)]
struct Seen {
    turns: usize,
    initiative_rolls: usize,
    initiative_won: usize,
    moves: usize,
    checked_moves: usize,
    charges_revealed: usize,
    charges_written: usize,
    objectives: usize,
    over: usize,
    action_rolls: usize,
    gaits: usize,
    activities: usize,
    half_moves_ended: usize,
}

fn play(file: &str, seed: u64) -> Seen {
    let level = load_level_file(Path::new(file)).expect("level loads");
    let mut game = Game::new(&level, seed);
    let sides = level.file.sides.len() as u8;
    for s in 0..sides {
        set_level(&mut game, s, AiLevel::Table);
    }
    let mut seen = Seen::default();
    let mut written: Vec<(String, Vec<String>)> = Vec::new();
    let mut from = 0;
    for _ in 0..20_000 {
        if game.outcome().is_some() {
            break;
        }
        let side = side_to_act(&mut game).expect("the game waits for a side");
        let order = next_order(&mut game, side).expect("the computer has an order");
        if let Order::DeclareCharge { unit, targets } = &order {
            written.push((unit.clone(), targets.clone()));
        }
        game.order(&order)
            .expect("the computer's order is accepted");
        let figures = game.snapshot().figures;
        let now = game.log().len();
        for line in &game.log()[from..now] {
            match &line.what {
                Happening::TurnBegins(t) => {
                    assert_eq!(*t, line.turn, "{line}");
                    seen.turns += 1;
                }
                Happening::InitiativeRolled { side, roll } => {
                    let r = line
                        .roll
                        .as_ref()
                        .expect("an initiative line carries its die");
                    assert_eq!((r.die.as_str(), r.value), ("d6", *roll), "{line}");
                    assert!((1..=6).contains(roll), "{line}");
                    assert!(*side < sides, "{line}");
                    seen.initiative_rolls += 1;
                }
                Happening::InitiativeWon { side, .. } => {
                    assert!(*side < sides, "{line}");
                    seen.initiative_won += 1;
                }
                Happening::Moved {
                    figure,
                    path,
                    cost,
                    left,
                    ..
                } => {
                    assert!(!path.is_empty(), "{line}");
                    assert!(path.len() == 1 || *cost > Mp::ZERO, "{line}");
                    // The figure a Move order named ends where the happening says, with the
                    // allowance it says (a figure on foot: its own allowance).
                    if matches!(&order, Order::Move { unit, .. } if unit == figure)
                        && let Some(f) = figures.iter().find(|f| &f.id == figure)
                        && f.mounted_on.is_none()
                    {
                        let end = path.last().expect("a path");
                        assert_eq!([end.x, end.y], f.cell, "{line}");
                        assert_eq!(left.to_string(), f.allowance_left, "{line}");
                        seen.checked_moves += 1;
                    }
                    seen.moves += 1;
                }
                Happening::ChargeWritten(id) => {
                    assert!(written.iter().any(|(u, _)| u == id), "{line}");
                    seen.charges_written += 1;
                }
                Happening::ChargesRevealed(all) => {
                    for (u, targets) in all {
                        let (_, t) = written
                            .iter()
                            .rev()
                            .find(|(w, _)| w == u)
                            .unwrap_or_else(|| panic!("{u} revealed a charge it never wrote"));
                        assert_eq!(t, targets, "{line}");
                    }
                    seen.charges_revealed += 1;
                    written.clear();
                }
                Happening::ObjectiveAchieved { side, points, .. } => {
                    assert!(*side < sides, "{line}");
                    assert!(line.to_string().contains(&points.to_string()) || *points == 0);
                    seen.objectives += 1;
                }
                Happening::ActionRolled {
                    unit,
                    side,
                    roll,
                    intent,
                    ..
                } => {
                    // I1, I2: the unit the order named rolled the line's d6 and was told
                    // what the AI's explanation of it says.
                    assert!(
                        matches!(&order, Order::ActionRoll { unit: u } if u == unit),
                        "{line}"
                    );
                    let r = line
                        .roll
                        .as_ref()
                        .expect("an actions-table line has its die");
                    assert_eq!((r.die.as_str(), r.value), ("d6", *roll), "{line}");
                    assert!(*side < sides, "{line}");
                    let why = warhorse::ai::explain(&game, unit).expect("an explanation");
                    assert_eq!((why.roll, why.turn), (*roll, line.turn), "{line}");
                    assert!(line.to_string().contains(&intent.conduct.text()), "{line}");
                    seen.action_rolls += 1;
                }
                Happening::GaitChanged {
                    figure,
                    gait,
                    allowance,
                } => {
                    // H2, D5: the gait ordered, and a fresh half-move's allowance at it.
                    assert!(
                        matches!(&order, Order::SetGait { unit, gait: g } if unit == figure && g == gait),
                        "{line}"
                    );
                    // A rider's gait and allowance are its mount's.
                    let rider = figures
                        .iter()
                        .find(|f| &f.id == figure)
                        .expect("the figure");
                    let horse = rider.mounted_on.as_ref().map_or(figure, |m| m);
                    let f = figures.iter().find(|f| &f.id == horse).expect("its mount");
                    assert_eq!(f.gait, gait.to_string(), "{line}");
                    assert_eq!(f.allowance, allowance.to_string(), "{line}");
                    seen.gaits += 1;
                }
                Happening::ActivityPaid { figure, cost, left } => {
                    // D15, R2: the figure ordered paid it from its own move.
                    assert!(
                        matches!(&order, Order::Activity { unit, .. } if unit == figure),
                        "{line}"
                    );
                    let f = figures
                        .iter()
                        .find(|f| &f.id == figure)
                        .expect("the figure");
                    assert_eq!(f.allowance_left, left.to_string(), "{line}");
                    assert!(line.to_string().contains(&cost.to_string()), "{line}");
                    seen.activities += 1;
                }
                Happening::HalfMoveEnded { side } => {
                    assert_eq!(order, Order::EndSide, "{line}");
                    assert!(side.is_some_and(|s| s < sides), "{line}");
                    seen.half_moves_ended += 1;
                }
                Happening::BattleOver { winner } => {
                    let out = game.outcome().expect("the battle is over");
                    assert_eq!(*winner, out.winner, "{line}");
                    seen.over += 1;
                }
                _ => {}
            }
        }
        from = now;
    }
    assert!(game.outcome().is_some(), "{file}: the game ran to its end");
    seen
}

#[test]
fn every_happening_agrees_with_the_game_it_reports() {
    let mut all = Seen::default();
    for (file, seed) in [
        ("tests/levels/charge_joust.ron", 3),
        ("levels/default.ron", 4),
        ("levels/supplement_patrol.ron", 5),
    ] {
        let s = play(file, seed);
        assert_eq!(s.over, 1, "{file}: one end of the battle: {s:?}");
        assert!(s.turns >= 1 && s.initiative_won >= s.turns, "{file}: {s:?}");
        assert!(s.moves > 0 && s.checked_moves > 0, "{file}: {s:?}");
        all.initiative_rolls += s.initiative_rolls;
        all.charges_revealed += s.charges_revealed;
        all.charges_written += s.charges_written;
        all.objectives += s.objectives;
        all.action_rolls += s.action_rolls;
        all.gaits += s.gaits;
        assert!(
            s.half_moves_ended >= s.turns,
            "{file}: a half-move ended every turn: {s:?}"
        );
        all.activities += s.activities;
    }
    assert!(
        all.action_rolls > 0 && all.gaits > 0 && all.activities > 0,
        "{all:?}"
    );
    // Each kind was met at least once over the three games.
    assert!(all.initiative_rolls > 0, "{all:?}");
    assert!(
        all.charges_written > 0 && all.charges_revealed > 0,
        "{all:?}"
    );
}
