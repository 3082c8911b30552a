//! What the card-by-card audit of issue 4 found untested: FIRE and RELOAD resolved (not only
//! judged), a horse's charge bonus (C8), the joining distances of the TAC phase and the card
//! rounds (D8), a calmed berserk's stupor on his hit chance (§6 FEROCITY), and the log's
//! reasons when a blow is lost.

use super::attack::{Blow, Context, Guard, Strike, breakdown};
use super::cards::*;
use super::tables::{seed, tables};
use super::testkit::*;
use crate::rules::gait::Gait;
use crate::rules::grid::{Cell, Dir, GridKind};

/// §6 FIRE / THROW MISSILE and RELOAD: a crossbow shoots (a missile blow: no TMM, no weapon
/// bash), is then unloaded; RELOAD loads it; its one shot a turn is then spent.
#[test]
fn fire_shoots_a_missile_blow_and_a_crossbow_needs_its_reload() {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 30, 12),
        vec![
            figures(&r, "x", "archer", 0, Cell::new(2, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(12, 5), Dir(6)),
        ],
        &[],
    );
    let x = ix(&f, "x");
    f.fighters[x].weapon = "crossbow".into();
    let fire = MeleeCard::Fire { target: "b".into() };
    // Hit on 6 (not a critical: 5 or less), 2d6+1 = 3 + 4 + 1; no weapon bash is rolled.
    let (text, _, dice) = play(
        &mut f,
        &[("x", melee(vec![fire.clone()]))],
        &[],
        &[6],
        &[3, 4],
    );
    assert!(
        text.contains("x shoots at b with its crossbow (H)"),
        "{text}"
    );
    assert!(text.contains("rolls 6: a hit"), "{text}");
    assert!(text.contains("Damage 2d6+1: 8"), "{text}");
    assert!(
        !text.contains("TMM") && !text.contains("weapon bash"),
        "{text}"
    );
    assert_eq!(dice.left(), (0, 0));
    let s = &f.fighters[x].state;
    assert!(s.unloaded && s.missile_used);
    assert_eq!(s.shots, 1);
    assert_eq!(
        f.fighters[ix(&f, "b")].body,
        f.fighters[ix(&f, "b")].body_max - 8
    );
    // Unloaded: FIRE is refused until RELOAD (no blows) is played.
    assert!(check_play(&f, x, &melee(vec![fire.clone()]), tables(), false).is_err());
    assert_eq!(
        check_play(&f, x, &melee(vec![MeleeCard::Reload]), tables(), false),
        Ok(0)
    );
    let (text, ..) = play(
        &mut f,
        &[("x", melee(vec![MeleeCard::Reload]))],
        &[],
        &[],
        &[],
    );
    assert!(text.contains("x reloads its crossbow"), "{text}");
    assert!(!f.fighters[x].state.unloaded);
    // Loaded again, but a crossbow shoots once a turn.
    let why = check_play(&f, x, &melee(vec![fire.clone()]), tables(), false).unwrap_err();
    assert_eq!(why.tag, "§6 FIRE");
    assert!(why.reason.contains("shoots 1 times a turn"), "{why}");
    // The next turn it may shoot again; a miss is a miss.
    super::flow::begin_turn(&mut f);
    let (text, ..) = play(&mut f, &[("x", melee(vec![fire]))], &[], &[99], &[]);
    assert!(text.contains("rolls 99: a miss"), "{text}");
}

/// C8: a horse's "Charge bonus" is its MOVE card plus 3"; a mounted CHARGE moves by it.
#[test]
fn a_horses_charge_bonus_is_its_move_card_plus_3() {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 30, 12),
        vec![
            figures(&r, "k", "knight_on_destrier", 0, Cell::new(3, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(20, 5), Dir(6)),
        ],
        &[],
    );
    let (k, m) = (ix(&f, "k"), ix(&f, "k.mount"));
    f.fighters[m].gait = Gait::Walk;
    // A destrier is a Great Horse: its MOVE card is 2" (1" + the seed's extra inch).
    assert_eq!(super::moves::horse_move_cells(&f, tables(), m), 2);
    for tac_phase in [true, false] {
        assert_eq!(
            super::moves::tac_distance(&f, tables(), k, TacCard::Charge, tac_phase),
            2 + seed::HORSE_CHARGE_BONUS,
            "tac phase {tac_phase}"
        );
    }
    // At a gallop the MOVE card gains 1 1/2" (C8): 2 + 1 1/2 = 3 (whole inches), + 3.
    f.fighters[m].gait = Gait::Gallop;
    assert_eq!(
        super::moves::tac_distance(&f, tables(), k, TacCard::Charge, true),
        3 + seed::HORSE_CHARGE_BONUS
    );
}

/// D8: figures join the TAC phase if a 2" move reaches contact, the card rounds if a 3" one
/// does.
#[test]
fn joining_takes_a_2_inch_move_in_the_tac_phase_and_3_in_the_card_rounds() {
    let r = destrier();
    let at = |gap: i32| {
        fight(
            board(GridKind::Square, 20, 12),
            vec![
                figures(&r, "a", "footman", 0, Cell::new(5, 5), Dir(2)),
                figures(&r, "b", "footman", 1, Cell::new(5 + gap, 5), Dir(6)),
            ],
            &[],
        )
    };
    assert_eq!(seed::JOIN_TAC, 2);
    // Three cells apart: two cells to cross, a 2" move.
    let f = at(3);
    assert_eq!(super::flow::participants(&f, tables(), true), vec![0, 1]);
    // Four apart: a 3" move; only in the card rounds.
    let f = at(4);
    assert!(super::flow::participants(&f, tables(), true).is_empty());
    assert_eq!(super::flow::participants(&f, tables(), false), vec![0, 1]);
    let f = at(5);
    assert!(super::flow::participants(&f, tables(), false).is_empty());
}

/// §6 FEROCITY: a calmed berserk in a stupor has a quarter of his capabilities — his blows
/// and his chance to hit.
#[test]
fn a_stupor_quarters_the_chance_to_hit() {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 12, 12),
        vec![
            figures(&r, "a", "footman", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(6, 5), Dir(6)),
        ],
        &[],
    );
    let odds = |f: &super::fight::Fight| {
        breakdown(
            f,
            tables(),
            0,
            1,
            &Strike::plain(Blow::Weapon),
            &Guard::default(),
            &Context::default(),
        )
        .chance
    };
    let full = odds(&f);
    assert_eq!(full, 55, "LH against armour 3");
    f.fighters[0].state.stupor = true;
    assert_eq!(
        odds(&f),
        full * seed::STUPOR_SHARE.0 as i32 / seed::STUPOR_SHARE.1 as i32
    );
    assert_eq!(f.fighters[0].phase_blows(), 1, "4 blows / 4");
    assert_eq!(seed::STUPOR_BELOW_PERCENT, 50);
}

/// The log says why a horse's kick is lost: it kicks through the side its rider strikes
/// through (§6 KICK).
#[test]
fn the_log_says_why_a_blow_is_lost() {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 12, 12),
        vec![
            figures(&r, "k", "knight_on_destrier", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(6, 5), Dir(6)),
        ],
        &[],
    );
    let m = ix(&f, "k.mount");
    f.fighters[m].gait = Gait::Walk;
    let plays = [
        ("k", melee(vec![blow("b")])),
        (
            "k.mount",
            melee(vec![MeleeCard::Kick { target: "b".into() }]),
        ),
    ];
    // The knight misses (99); the horse's kick is lost.
    let (text, ..) = play(&mut f, &plays, &[], &[99], &[]);
    assert!(
        text.contains("k.mount's KICK is lost: its rider strikes b this round"),
        "{text}"
    );
}

/// R4, C4: a figure may end in a cell where an enemy stands (a horse down in the cell of the
/// enemy it bashed), and the board holds such a cell as shared by both sides. When one of them
/// leaves it in the melee (a dodge, a push, a MOVE), the other still stands there: the cell
/// is not free for a third figure to enter. A cell entered where another side stands is
/// shared in turn.
#[test]
fn r4_a_shared_cell_keeps_the_side_still_in_it_when_one_fighter_leaves() {
    use crate::rules::board::SHARED;
    let r = destrier();
    let here = Cell::new(5, 5);
    let mut f = fight(
        board(GridKind::Square, 12, 12),
        vec![
            figures(&r, "a", "footman", 0, here, Dir(2)),
            figures(&r, "b", "footman", 1, here, Dir(6)),
            figures(&r, "c", "footman", 1, Cell::new(8, 5), Dir(6)),
        ],
        &[],
    );
    let k = f.board.index(here);
    f.board.occupant[k] = SHARED;
    let a = ix(&f, "a");
    f.place(a, Cell::new(4, 5), Dir(2));
    assert_eq!(f.board.occupant[k], 2, "b (side 1) still stands there");
    assert!(!f.free(here, false), "no third figure may enter it");
    assert_eq!(f.board.occupant_at(Cell::new(4, 5)), 1);
    // c walks into a's new cell: both sides stand there now.
    let c = ix(&f, "c");
    f.place(c, Cell::new(4, 5), Dir(6));
    assert_eq!(f.board.occupant_at(Cell::new(4, 5)), SHARED);
    assert_eq!(
        f.board.occupant_at(Cell::new(8, 5)),
        0,
        "c left its cell empty"
    );
    // b leaves the first cell: nobody is left in it.
    let b = ix(&f, "b");
    f.place(b, Cell::new(5, 7), Dir(6));
    assert_eq!(f.board.occupant[k], 0);
}
