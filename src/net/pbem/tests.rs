//! The pieces of play by email that need no game: the dice agreement and the file's hashes.

use super::dice::DiceBook;
use super::file::{DiceWord, commitment, hash_of};
use super::{Entry, PbemError, TurnFile};
use crate::sim::order::Order;

fn books() -> (DiceBook, DiceBook) {
    (DiceBook::new("g".into(), 0), DiceBook::new("g".into(), 1))
}

#[test]
fn both_players_reach_the_same_turn_seeds_and_the_first_to_speak_commits() {
    let (mut a, mut b) = books();
    let first = a.words(1..=2);
    assert!(
        first.iter().all(|w| matches!(w, DiceWord::Commit { .. })),
        "the first to speak commits: {first:?}"
    );
    b.read(&first).expect("commitments");
    let second = b.words(1..=2);
    assert!(
        second.iter().all(|w| matches!(w, DiceWord::Reveal { .. })),
        "the other, seeing commitments, shows its values: {second:?}"
    );
    assert!(b.seeds().is_empty(), "b cannot know a seed before a shows");
    a.read(&second).expect("values");
    let seeds_a = a.seeds();
    assert_eq!(seeds_a.len(), 2);
    let third = a.words(1..=2);
    b.read(&third).expect("a's values match its commitments");
    assert_eq!(b.seeds(), seeds_a, "both reach the same seeds");
    assert_ne!(seeds_a[0], seeds_a[1], "each turn its own seed");
}

#[test]
fn a_dice_value_that_is_not_the_one_committed_to_is_refused() {
    let (mut a, mut b) = books();
    b.read(&a.words(1..=1)).expect("commitment");
    a.read(&b.words(1..=1)).expect("value");
    let mut shown = a.words(1..=1);
    // "the dice of each turn come from a commit-reveal of random values from both players,
    // so neither can re-roll": a changed value is refused.
    if let Some(DiceWord::Reveal { value, .. }) = shown.first_mut() {
        *value = "0".repeat(64);
    }
    assert_eq!(b.read(&shown), Err(PbemError::DiceChanged { turn: 1 }));
}

#[test]
fn a_dice_word_said_twice_is_refused() {
    let (mut a, mut b) = books();
    let commit = a.words(1..=1);
    b.read(&commit).expect("commitment");
    assert_eq!(b.read(&commit), Err(PbemError::DiceTwice { turn: 1 }));
    let (mut a, mut b) = books();
    b.read(&a.words(1..=1)).expect("commitment");
    a.read(&b.words(1..=1)).expect("value");
    let shown = a.words(1..=1);
    b.read(&shown).expect("value");
    assert_eq!(b.read(&shown), Err(PbemError::DiceTwice { turn: 1 }));
}

#[test]
fn a_commitment_binds_the_order_the_place_and_the_salt() {
    let o = Order::Pass {
        unit: "levy".into(),
    };
    let c = commitment("g", 3, &o, "salt");
    assert_eq!(c.len(), 64);
    assert_ne!(c, commitment("g", 4, &o, "salt"), "another place");
    assert_ne!(c, commitment("g", 3, &o, "pepper"), "another salt");
    assert_ne!(c, commitment("h", 3, &o, "salt"), "another game");
    let other = Order::Pass {
        unit: "levz".into(),
    };
    assert_ne!(c, commitment("g", 3, &other, "salt"), "another order");
    assert_ne!(hash_of(&["ab", "c"]), hash_of(&["a", "bc"]));
}

#[test]
fn a_file_whose_contents_change_no_longer_matches_its_hash() {
    let f = TurnFile {
        warhorse: super::file::MARK.into(),
        format: super::file::FORMAT,
        version: "v".into(),
        game: "g".into(),
        seq: 2,
        from: 1,
        prev: "p".into(),
        start: None,
        entries: vec![Entry::Order(Order::EndSide)],
        opened: Vec::new(),
        faced: Vec::new(),
        dice: Vec::new(),
        public_orders: 1,
        state: "s".into(),
        hash: String::new(),
    }
    .seal();
    assert_eq!(f.compute_hash(), f.hash);
    let back = super::parse_file(&f.to_text()).expect("reads back");
    assert_eq!(back, f, "the text carries everything");
    let mut g = f.clone();
    g.entries[0] = Entry::Order(Order::Pass { unit: "x".into() });
    assert_ne!(g.compute_hash(), f.hash);
}
