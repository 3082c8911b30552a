//! D1 option (a ruleset switch): initiative by Dexterity — the side whose most dexterous
//! figure still standing is the quicker acts first in fire, spells and movement; sides tied at
//! the top roll 1d6 as usual.

use super::LEVEL;
use warhorse::level::{builtin_ruleset, load_level_str_with};
use warhorse::sim::Game;

fn log_of(dex_option: bool, roland_dex: Option<u8>) -> Vec<String> {
    let mut rules = builtin_ruleset("destrier").expect("destrier");
    rules.initiative_by_dexterity = dex_option;
    if let Some(d) = roland_dex {
        rules
            .templates
            .get_mut("knight_on_destrier")
            .expect("template")
            .dexterity = d;
    }
    let text = std::fs::read_to_string(LEVEL).unwrap();
    let level = load_level_str_with(&text, LEVEL, rules).expect("level");
    let mut g = Game::new(&level, 3);
    g.snapshot()
        .log
        .into_iter()
        .map(|l| l.to_string())
        .collect()
}

#[test]
fn d1_option_the_quicker_side_wins_without_a_roll() {
    // Sir Roland (Red) at Dexterity 15 against Blue's best, 12.
    let log = log_of(true, Some(15));
    assert!(
        log.iter().any(|l| l
            == "Initiative by Dexterity (D1 option): Red 15, Blue 12; Red is the quicker and acts first in fire, spells and movement."),
        "{log:#?}"
    );
    assert!(
        !log.iter().any(|l| l.contains("for initiative (D1)")),
        "{log:#?}"
    );
    // The turn then runs with Red first.
    let mut rules = builtin_ruleset("destrier").unwrap();
    rules.initiative_by_dexterity = true;
    rules
        .templates
        .get_mut("knight_on_destrier")
        .unwrap()
        .dexterity = 15;
    let text = std::fs::read_to_string(LEVEL).unwrap();
    let mut g = Game::new(&load_level_str_with(&text, LEVEL, rules).unwrap(), 3);
    let world = g.world_for_tests_mut();
    let turn = world.resource::<warhorse::sim::phase::TurnState>();
    assert_eq!(turn.initiative, Some(0));
    assert_eq!(turn.move_order.first(), Some(&0));
}

#[test]
fn d1_option_sides_tied_in_dexterity_roll_for_it() {
    // Both sides' best is a knight at 12.
    let log = log_of(true, None);
    assert!(
        log.iter().any(|l| l
            == "Initiative by Dexterity (D1 option): Red 12, Blue 12; the tied sides roll for it."),
        "{log:#?}"
    );
    assert!(
        log.iter().any(|l| l.contains("for initiative (D1)")),
        "{log:#?}"
    );
}

#[test]
fn d1_without_the_option_dexterity_does_not_count() {
    let log = log_of(false, Some(15));
    assert!(!log.iter().any(|l| l.contains("Dexterity")), "{log:#?}");
    assert!(
        log.iter().any(|l| l.contains("for initiative (D1)")),
        "{log:#?}"
    );
}
