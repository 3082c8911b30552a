//! TAC movement, grapples, horse cards, spells and the phase around the rounds, with fixed
//! dice.

use super::cards::*;
use super::fight::{Fight, Posture};
use super::tables::{seed, tables};
use super::testkit::*;
use crate::rules::gait::Gait;
use crate::rules::grid::{Cell, Dir, GridKind};

fn tac_phase(f: &mut Fight) {
    f.round = 0;
}

#[test]
fn retreat_goes_farthest_from_the_nearest_enemy_then_from_all() {
    // e1 is nearest (east); e2 and e3 to the north-west. The retreat runs away from e1 first.
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 20, 20),
        vec![
            figures(&r, "x", "raw_levy", 0, Cell::new(10, 10), Dir(2)),
            figures(&r, "e1", "footman", 1, Cell::new(11, 10), Dir(6)),
            figures(&r, "e2", "footman", 1, Cell::new(7, 7), Dir(3)),
            figures(&r, "e3", "footman", 1, Cell::new(8, 13), Dir(1)),
        ],
        &[],
    );
    let x = ix(&f, "x");
    // A levy's half-move is 3: RETREAT in the TAC phase goes 1/2 of it, rounded down: 1.
    assert_eq!(
        super::moves::tac_distance(&f, tables(), x, TacCard::Retreat, true),
        1
    );
    assert_eq!(
        super::moves::tac_distance(&f, tables(), x, TacCard::Retreat, false),
        seed::MELEE_CHARGE
    );
    let (end, _) = super::moves::retreat_path(&f, x, 3).expect("a way out");
    let d = |c: Cell| f.far(c, Cell::new(11, 10));
    // No cell within 3 is farther from e1.
    for y in 7..=13 {
        for xx in 7..=13 {
            let c = Cell::new(xx, y);
            if f.free(c, false) && f.grid().distance(c, Cell::new(10, 10)) <= 3 {
                assert!(d(c) <= d(end), "{c} beats {end}");
            }
        }
    }
    // The corner farthest from e1 (e2 holds the other one), even though it nears e3.
    assert_eq!(end, Cell::new(7, 13));
    tac_phase(&mut f);
    let (text, ..) = play(
        &mut f,
        &[("x", tac(TacCard::Retreat, None, vec![]))],
        &[],
        &[],
        &[],
    );
    // One cell: (9,9) and (9,11) are as far from e1 and from all enemies; the first is taken.
    assert!(
        text.contains("RETREATS in good order from (10,10) to (9,9)"),
        "{text}"
    );
    // Facing the nearest enemy after a retreat in good order.
    let e1 = f.fighters[ix(&f, "e1")].cell;
    assert_eq!(
        Some(f.fighters[x].facing),
        f.grid().dir_towards(Cell::new(9, 9), e1)
    );
}

#[test]
fn retreat_turns_only_to_gain_distance() {
    // A wall ahead of a straight retreat west; the figure must turn round it.
    let r = destrier();
    let mut b = board(GridKind::Square, 20, 20);
    for y in 0..20 {
        if y != 14 {
            let k = b.index(Cell::new(8, y));
            b.terrain[k] = 1;
        }
    }
    let f = fight(
        b,
        vec![
            figures(&r, "x", "raw_levy", 0, Cell::new(10, 10), Dir(2)),
            figures(&r, "e1", "footman", 1, Cell::new(11, 10), Dir(6)),
        ],
        &[],
    );
    let (end, _) = super::moves::retreat_path(&f, 0, 2).expect("a way");
    assert_eq!(
        end,
        Cell::new(9, 8),
        "straight lines end at the wall; the best turns are kept"
    );
    let (end3, _) = super::moves::retreat_path(&f, 0, 1).expect("a way");
    assert_eq!(end3, Cell::new(9, 9));
}

#[test]
fn run_away_goes_a_full_move_back_to_the_enemy() {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 20, 20),
        vec![
            figures(&r, "x", "raw_levy", 0, Cell::new(10, 10), Dir(2)),
            figures(&r, "e1", "footman", 1, Cell::new(11, 10), Dir(6)),
        ],
        &[],
    );
    tac_phase(&mut f);
    assert_eq!(
        super::moves::tac_distance(&f, tables(), 0, TacCard::RunAway, true),
        3
    );
    // In the card rounds: the charge bonus (its move) + 2".
    assert_eq!(
        super::moves::tac_distance(&f, tables(), 0, TacCard::RunAway, false),
        3 + seed::RUN_AWAY_EXTRA
    );
    let (text, ..) = play(
        &mut f,
        &[("x", tac(TacCard::RunAway, None, vec![]))],
        &[],
        &[],
        &[],
    );
    // Straight along a diagonal: the corner farthest from the enemy.
    assert!(text.contains("RUNS AWAY from (10,10) to (7,7)"), "{text}");
    assert_eq!(f.fighters[0].facing, Dir(7), "its back to the enemy");
}

#[test]
fn close_fleche_and_charge_move_straight_into_contact() {
    let r = destrier();
    let mk = || {
        let mut f = fight(
            board(GridKind::Square, 20, 20),
            vec![
                figures(&r, "x", "archer", 0, Cell::new(5, 10), Dir(2)),
                figures(&r, "e", "footman", 1, Cell::new(8, 10), Dir(6)),
            ],
            &[],
        );
        tac_phase(&mut f);
        f
    };
    // CLOSE: 1", at the nearest enemy to the front.
    let mut f = mk();
    let (text, ..) = play(
        &mut f,
        &[("x", tac(TacCard::Close, None, vec![]))],
        &[],
        &[],
        &[],
    );
    assert!(
        text.contains("CLOSE at e: (5,10) → (6,10), short of contact"),
        "{text}"
    );
    // FLECHE: 2", into contact.
    let mut f = mk();
    // FLECHE against no TAC card (STAND GROUND): a body bash (TMM): 90, 90 fail; 99, 99.
    let (text, ..) = play(
        &mut f,
        &[("x", tac(TacCard::Fleche, Some("e"), vec![]))],
        &[],
        &[90, 90, 99, 99],
        &[],
    );
    assert!(text.contains("(5,10) → (7,10), into contact"), "{text}");
    // CHARGE: a foot figure's charge bonus is its move (3); once a turn.
    let mut f = mk();
    let (text, ..) = play(
        &mut f,
        &[("x", tac(TacCard::Charge, Some("e"), vec![]))],
        &[],
        &[90, 90, 99, 99],
        &[],
    );
    assert!(text.contains("into contact"), "{text}");
    assert!(f.fighters[0].state.charged);
    assert_eq!(
        super::moves::tac_distance(&f, tables(), 0, TacCard::Charge, false),
        seed::MELEE_CHARGE
    );
    // In contact already: no movement.
    let mut f = mk();
    f.place(0, Cell::new(7, 10), Dir(2));
    let (text, ..) = play(
        &mut f,
        &[("x", tac(TacCard::Close, None, vec![]))],
        &[],
        &[90, 90, 99, 99],
        &[],
    );
    assert!(text.contains("already in contact"), "{text}");
}

#[test]
fn a_tac_card_into_contact_then_its_blow_the_same_round() {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 20, 20),
        vec![
            figures(&r, "x", "footman", 0, Cell::new(5, 10), Dir(2)),
            figures(&r, "e", "footman", 1, Cell::new(7, 10), Dir(6)),
        ],
        &[],
    );
    tac_phase(&mut f);
    // CLOSE (attacker) vs STAND GROUND: +0/+5 and a body bash (TMM).
    let plays = [
        ("x", tac(TacCard::Close, Some("e"), vec![blow("e")])),
        ("e", tac(TacCard::StandGround, None, vec![])),
    ];
    // Bashes: x 90 fails, e 90 fails; openings 99, 99; x's blow 99 misses.
    let (text, ..) = play(&mut f, &plays, &[], &[90, 90, 99, 99, 99], &[]);
    assert!(
        text.contains("crashing together: a body bash (TMM)"),
        "{text}"
    );
    assert!(text.contains("x plays DELIVER BLOW at e"), "{text}");
    assert_eq!(f.fighters[0].cell, Cell::new(6, 10));
}

#[test]
fn keep_distance_falls_back_before_an_approaching_enemy() {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 20, 20),
        vec![
            figures(&r, "x", "footman", 0, Cell::new(5, 10), Dir(2)),
            figures(&r, "e", "raw_levy", 1, Cell::new(7, 10), Dir(6)),
        ],
        &[],
    );
    tac_phase(&mut f);
    let plays = [
        ("x", tac(TacCard::Close, Some("e"), vec![])),
        ("e", tac(TacCard::KeepDistance, None, vec![])),
    ];
    let (text, ..) = play(&mut f, &plays, &[], &[], &[]);
    assert!(text.contains("KEEP DISTANCE: e RETREATS"), "{text}");
    assert!(!f.in_contact(0, 1));
}

#[test]
fn joining_a_melee_costs_blows_and_makes_the_joiner_the_attacker() {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 20, 20),
        vec![
            figures(&r, "a", "footman", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(6, 5), Dir(6)),
            figures(&r, "c", "archer", 1, Cell::new(9, 5), Dir(6)),
        ],
        &[],
    );
    f.round = 2;
    // c closes on a's comrade b? No: c is Blue; it joins against a: FLECHE from 3 away? It
    // reaches only b's side. CLOSE 1" at a: not in contact yet, but pays 2 blows (it moved).
    let plays = [("c", tac(TacCard::Fleche, Some("a"), vec![]))];
    let c = ix(&f, "c");
    let (text, ..) = play(&mut f, &plays, &[], &[], &[]);
    assert!(text.contains("c plays FLECHE at a"), "{text}");
    assert_eq!(f.fighters[c].blows, 3 - 2);
    // Standing ground in the rounds costs 1.
    let mut g = fight(
        board(GridKind::Square, 20, 20),
        vec![
            figures(&r, "a", "footman", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "c", "archer", 1, Cell::new(8, 5), Dir(6)),
        ],
        &[],
    );
    g.round = 2;
    play(
        &mut g,
        &[("c", tac(TacCard::StandGround, None, vec![]))],
        &[],
        &[],
        &[],
    );
    assert_eq!(g.fighters[1].blows, 2);
    // Joining into contact: the joiner is the TMM's attacker, the joined stands its ground.
    let mut h = fight(
        board(GridKind::Square, 20, 20),
        vec![
            figures(&r, "a", "footman", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(6, 5), Dir(6)),
            figures(&r, "c", "archer", 1, Cell::new(5, 8), Dir(0)),
        ],
        &[],
    );
    h.round = 2;
    h.fighters[2].enc = crate::rules::ruleset::Encumbrance::None;
    play(
        &mut h,
        &[("c", tac(TacCard::Fleche, Some("a"), vec![]))],
        &[],
        &[90, 90, 99, 99],
        &[],
    );
    let (a, c) = (ix(&h, "a"), ix(&h, "c"));
    assert!(h.in_contact(a, c));
    assert_eq!(h.fighters[c].state.joined, 2);
    assert_eq!(h.fighters[a].state.tac, Some(TacCard::StandGround));
    assert!(super::attack::tmm_attacker(&h, c, a));
}

#[test]
fn toss_knocks_flat_on_50_and_the_tosser_falls_on_20() {
    let r = destrier();
    let mk = || {
        let mut f = fight(
            board(GridKind::Square, 20, 20),
            vec![
                figures(&r, "a", "footman", 0, Cell::new(5, 5), Dir(2)),
                figures(&r, "b", "footman", 1, Cell::new(6, 5), Dir(6)),
            ],
            &[],
        );
        tac_phase(&mut f);
        f
    };
    let plays = [
        (
            "a",
            tac(
                TacCard::Close,
                None,
                vec![MeleeCard::Toss { target: "b".into() }],
            ),
        ),
        ("b", tac(TacCard::StandGround, None, vec![])),
    ];
    // a's bash 40 (equal weights): 30; b's 90 fails; toss 50: flat; 20: a goes down too.
    let mut f = mk();
    let (text, ..) = play(
        &mut f,
        &plays,
        &[],
        &[30, 90, seed::TOSS as u32, seed::TOSS_SELF, 99, 99],
        &[],
    );
    assert!(text.contains("TOSSES b"), "{text}");
    assert_eq!(f.fighters[1].state.posture, Posture::Prone);
    assert_eq!(f.fighters[0].state.posture, Posture::Prone);
    let mut f = mk();
    let (text, ..) = play(
        &mut f,
        &plays,
        &[],
        &[30, 90, 50, seed::TOSS_SELF + 1, 99, 99],
        &[],
    );
    assert!(text.contains("keeps his feet"), "{text}");
    // Not flat: to his knees.
    let mut f = mk();
    play(&mut f, &plays, &[], &[30, 90, 51, 99, 99], &[]);
    assert_eq!(f.fighters[1].state.posture, Posture::Kneeling);
    // ±5% per 100 lb.
    let mut f = mk();
    f.fighters[0].weight = 370;
    assert_eq!(
        super::grapple::toss_chance(&f, 0, 1),
        50 + 2 * seed::TOSS_PER_100_LB
    );
    // No body bash in the TMM: the toss is spent.
    let mut f = mk();
    let plays = [
        (
            "a",
            tac(
                TacCard::KeepDistance,
                None,
                vec![MeleeCard::Toss { target: "b".into() }],
            ),
        ),
        ("b", tac(TacCard::StandGround, None, vec![])),
    ];
    let (text, ..) = play(&mut f, &plays, &[], &[], &[]);
    assert!(text.contains("TOSS finds no body bash"), "{text}");
}

#[test]
fn restraint_needs_an_opening_then_50_plus_3_per_strength() {
    let r = destrier();
    let mk = || {
        fight(
            board(GridKind::Square, 20, 20),
            vec![
                figures(&r, "a", "footman", 0, Cell::new(5, 5), Dir(2)),
                figures(&r, "b", "footman", 1, Cell::new(6, 5), Dir(6)),
            ],
            &[],
        )
    };
    let plays = [(
        "a",
        melee(vec![MeleeCard::Restraint { target: "b".into() }]),
    )];
    let mut f = mk();
    let (text, ..) = play(&mut f, &plays, &[], &[], &[]);
    assert!(text.contains("finds no opening"), "{text}");
    let mut f = mk();
    f.fighters[0].state.openings = vec![("b".into(), 0)];
    let (text, ..) = play(&mut f, &plays, &[], &[seed::RESTRAINT as u32], &[]);
    assert!(text.contains("a RESTRAINS b"), "{text}");
    assert_eq!(f.fighters[1].state.restrained_by, vec!["a".to_string()]);
    let mut f = mk();
    f.fighters[0].state.openings = vec![("b".into(), 1)];
    f.fighters[0].profile.strength = 15;
    assert_eq!(
        super::grapple::restraint_chance(&f, 0, 1),
        50 + 3 * seed::RESTRAINT_PER_STR
    );
    let (text, ..) = play(&mut f, &plays, &[], &[60], &[]);
    assert!(
        text.contains("fails (needs 59 or less, rolls 60)"),
        "{text}"
    );
    // An opening older than the last round is gone.
    let mut f = mk();
    f.round = 5;
    f.fighters[0].state.openings = vec![("b".into(), 3)];
    let (text, ..) = play(&mut f, &plays, &[], &[], &[]);
    assert!(text.contains("finds no opening"), "{text}");
}

#[test]
fn break_free_25_plus_weight_and_superhuman_strength() {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 20, 20),
        vec![
            figures(&r, "a", "footman", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(6, 5), Dir(6)),
        ],
        &[],
    );
    f.fighters[1].state.restrained_by = vec!["a".into()];
    f.fighters[0].state.restraining = Some("b".into());
    assert_eq!(
        super::grapple::break_free_chance(&f, 1, 0),
        seed::BREAK_FREE
    );
    f.fighters[1].weight = 200;
    assert_eq!(super::grapple::break_free_chance(&f, 1, 0), 25 + 3);
    f.fighters[0].profile.strength = 20;
    assert_eq!(super::grapple::break_free_chance(&f, 1, 0), 25 + 3 - 2 * 8);
    f.fighters[0].profile.strength = 12;
    let plays = [("b", melee(vec![MeleeCard::BreakFree]))];
    let mut g = f.clone();
    let (text, ..) = play(&mut g, &plays, &[], &[29], &[]);
    assert!(text.contains("in vain"), "{text}");
    let (text, ..) = play(&mut f, &plays, &[], &[28], &[]);
    assert!(text.contains("BREAKS FREE"), "{text}");
    assert!(
        f.fighters[1].state.restrained_by.is_empty() && f.fighters[0].state.restraining.is_none()
    );
}

fn rider_and_footman() -> Fight {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 20, 20),
        vec![
            figures(&r, "s", "sergeant_on_courser", 0, Cell::new(5, 5), Dir(0)),
            figures(&r, "a", "footman", 1, Cell::new(6, 5), Dir(6)),
        ],
        &[],
    );
    tac_phase(&mut f);
    f
}

#[test]
fn pull_rider_20_percent_and_the_collision() {
    let plays = [(
        "a",
        tac(
            TacCard::StandGround,
            None,
            vec![MeleeCard::PullRider { target: "s".into() }],
        ),
    )];
    let mut f = rider_and_footman();
    let (text, ..) = play(&mut f, &plays, &[], &[seed::PULL_RIDER as u32], &[]);
    assert!(text.contains("PULLS s FROM THE SADDLE"), "{text}");
    let s = ix(&f, "s");
    assert_eq!(f.fighters[s].mount, None);
    assert_eq!(f.fighters[s].state.posture, Posture::Prone);
    assert_eq!(f.fighters[s].cell, Cell::new(6, 4));
    // A miss; a collision on 50: the horse and rider bash the grappler.
    let mut f = rider_and_footman();
    let (text, ..) = play(&mut f, &plays, &[], &[21, 50, 10, 90, 99, 99], &[3]);
    assert!(
        text.contains("fails to pull") && text.contains("collide"),
        "{text}"
    );
    assert_eq!(f.fighters[ix(&f, "a")].state.posture, Posture::Kneeling);
    // Speed: −10 at a trot; a cat +10.
    let mut f = rider_and_footman();
    let sm = ix(&f, "s.mount");
    f.fighters[sm].gait = Gait::Trot;
    let (text, ..) = play(&mut f, &plays, &[], &[11, 51], &[]);
    assert!(text.contains("needs 10 or less"), "{text}");
    assert_eq!(seed::PULL_RIDER_CAT, 10);
}

#[test]
fn hamstring_throws_the_rider_and_may_pin() {
    let plays = [(
        "a",
        melee(vec![MeleeCard::Horse(HorseCard::Hamstring {
            target: "s.mount".into(),
        })]),
    )];
    let mut f = rider_and_footman();
    f.round = 1;
    let (text, ..) = play(&mut f, &plays, &[], &[25], &[2]);
    assert!(
        text.contains("HAMSTRINGS it") && text.contains("pins a"),
        "{text}"
    );
    let m = ix(&f, "s.mount");
    assert!(f.fighters[m].state.hamstrung);
    assert_eq!(f.fighters[ix(&f, "s")].mount, None);
    assert!(f.fighters[ix(&f, "a")].state.stunned > 0);
    let mut f = rider_and_footman();
    f.round = 1;
    let (text, ..) = play(&mut f, &plays, &[], &[25], &[3]);
    assert!(
        text.contains("rolls clear") && text.contains("far side at (4,5)"),
        "{text}"
    );
    let mut f = rider_and_footman();
    f.round = 1;
    let (text, ..) = play(&mut f, &plays, &[], &[26], &[]);
    assert!(text.contains("misses the hamstring"), "{text}");
    assert_eq!(f.fighters[ix(&f, "a")].state.posture, Posture::Prone);
}

#[test]
fn trample_kick_and_wheel() {
    let mut f = rider_and_footman();
    f.round = 1;
    let a = ix(&f, "a");
    let m = ix(&f, "s.mount");
    // The horse faces N; put the prone footman ahead of it.
    f.place(a, Cell::new(5, 4), Dir(4));
    f.fighters[a].state.posture = Posture::Prone;
    let plays = [(
        "s.mount",
        melee(vec![
            MeleeCard::Horse(HorseCard::Trample { target: "a".into() }),
            MeleeCard::Kick { target: "a".into() },
        ]),
    )];
    // Trample 75: hits on 75 for 2d6 (3+3); the kick (LH vs 3, +20 prone = 75): 99 misses.
    let (text, ..) = play(&mut f, &plays, &[], &[75, 99], &[3, 3]);
    assert!(text.contains("tramples a"), "{text}");
    assert_eq!(f.fighters[a].body, 12 - 6);
    assert_eq!(f.fighters[m].blows, 0);
    // WHEEL: a man in contact is knocked down and stunned on 50.
    let mut f = rider_and_footman();
    f.round = 1;
    let plays = [(
        "s.mount",
        melee(vec![MeleeCard::Horse(HorseCard::Wheel { facing: Dir(2) })]),
    )];
    let (text, ..) = play(&mut f, &plays, &[], &[seed::WHEEL_KNOCK], &[]);
    assert!(text.contains("bowls over a"), "{text}");
    assert_eq!(f.fighters[ix(&f, "s")].facing, Dir(2));
    let a = &f.fighters[ix(&f, "a")];
    assert!(a.state.posture == Posture::Prone && a.state.stunned > 0);
    let mut f = rider_and_footman();
    f.round = 1;
    let (text, ..) = play(&mut f, &plays, &[], &[seed::WHEEL_KNOCK + 1], &[]);
    assert!(text.contains("keeps his feet"), "{text}");
}

#[test]
fn wheel_bumps_creatures_30_or_50() {
    let r = destrier();
    let mk = || {
        let mut f = fight(
            board(GridKind::Square, 20, 20),
            vec![
                figures(&r, "s", "sergeant_on_courser", 0, Cell::new(5, 5), Dir(0)),
                figures(&r, "k", "knight_on_charger", 1, Cell::new(6, 5), Dir(0)),
            ],
            &[],
        );
        f.round = 1;
        f
    };
    let plays = [(
        "s.mount",
        melee(vec![MeleeCard::Horse(HorseCard::Wheel { facing: Dir(2) })]),
    )];
    // A knight on a charger (1500 lb with rider) against a 1100 lb courser: within 1.5×, as
    // heavy: 30%.
    let mut f = mk();
    let (text, ..) = play(&mut f, &plays, &[], &[seed::WHEEL_STUMBLE_HEAVY], &[]);
    assert!(text.contains("stumbles (1–30"), "{text}");
    let mut f = mk();
    let k = ix(&f, "k.mount");
    f.fighters[k].weight = 500;
    let (text, ..) = play(&mut f, &plays, &[], &[seed::WHEEL_STUMBLE_LIGHT], &[]);
    assert!(text.contains("stumbles (1–50"), "{text}");
    let mut f = mk();
    let k = ix(&f, "k.mount");
    f.fighters[k].weight = 3000;
    let (text, ..) = play(&mut f, &plays, &[], &[], &[]);
    assert!(text.contains("too heavy"), "{text}");
}

#[test]
fn horse_move_at_speed_and_slowing_on_contact() {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 20, 20),
        vec![
            figures(&r, "s", "sergeant_on_courser", 0, Cell::new(2, 5), Dir(2)),
            figures(&r, "a", "footman", 1, Cell::new(6, 4), Dir(6)),
        ],
        &[],
    );
    let m = ix(&f, "s.mount");
    f.fighters[m].gait = Gait::Gallop;
    // Courser MOVE 1" + 1 1/2" at the gallop = 2 cells; charging +2" = 3.
    assert_eq!(super::moves::horse_move_cells(&f, tables(), m), 2);
    f.fighters[m].gait = Gait::Canter;
    assert_eq!(super::moves::horse_move_cells(&f, tables(), m), 1);
    f.fighters[m].gait = Gait::Gallop;
    let forced = super::flow::forced(&f, tables(), m, false).expect("forced");
    assert_eq!(forced.melee, vec![MeleeCard::Horse(HorseCard::Move)]);
    let (text, ..) = play(&mut f, &[("s.mount", forced)], &[], &[], &[]);
    assert!(text.contains("MOVES (2,5) → (4,5)"), "{text}");
    let forced = super::flow::forced(&f, tables(), m, false).expect("forced");
    let (text, ..) = play(&mut f, &[("s.mount", forced)], &[], &[], &[]);
    assert!(
        text.contains("slows it from the gallop to the canter"),
        "{text}"
    );
    assert_eq!(super::cards::speed_of(&f, ix(&f, "s")), Gait::Canter);
}

#[test]
fn kicks_from_the_saddle_and_struck_while_kicking() {
    let r = destrier();
    let mk = || {
        let mut f = fight(
            board(GridKind::Square, 20, 20),
            vec![
                figures(&r, "s", "sergeant_on_courser", 0, Cell::new(5, 5), Dir(2)),
                figures(&r, "a", "footman", 1, Cell::new(6, 5), Dir(6)),
            ],
            &[],
        );
        f.round = 1;
        f
    };
    // A missed kick from the saddle: falls on 10% − Dex 12 / 2 = 4%.
    let mut f = mk();
    let plays = [("s", melee(vec![MeleeCard::Kick { target: "a".into() }]))];
    let (text, ..) = play(&mut f, &plays, &[], &[99, 4], &[]);
    assert!(
        text.contains("falls on 4 or less") && text.contains("knocked from the saddle"),
        "{text}"
    );
    let mut f = mk();
    let (text, ..) = play(&mut f, &plays, &[], &[99, 5], &[]);
    assert!(text.contains("stays in the saddle"), "{text}");
    // A footman kicking (the horse) and struck the same round: 20% − Dex 11 = 9%.
    let mut f = mk();
    let plays = [
        (
            "a",
            melee(vec![MeleeCard::Kick {
                target: "s.mount".into(),
            }]),
        ),
        ("s", melee(vec![blow("a")])),
    ];
    // s (attacker side) strikes first: hit 30, dmg 1 (sword 1d6+2), bash 99; a's kick 99; then
    // the kicker's bash on 9: 1d6 = 3, to his knees.
    let (text, ..) = play(&mut f, &plays, &[], &[30, 99, 99, 9], &[1, 3]);
    assert!(
        text.contains("struck while kicking: bashed on 9 or less"),
        "{text}"
    );
    assert_eq!(f.fighters[ix(&f, "a")].state.posture, Posture::Kneeling);
}

#[test]
fn punch_does_1d3_and_mixing_hands_averages_the_blows() {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 20, 20),
        vec![
            figures(&r, "x", "archer", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(6, 5), Dir(6)),
        ],
        &[],
    );
    f.round = 1;
    let x = ix(&f, "x");
    f.fighters[x].state.held = super::fight::Held::Sidearm;
    // An archer: 3 weapon blows, 2 hand-to-hand: (3 + 2) / 2 = 2 this phase.
    let plays = [("x", melee(vec![MeleeCard::Punch { target: "b".into() }]))];
    let (text, ..) = play(&mut f, &plays, &[], &[20, 99], &[6]);
    assert!(text.contains("(3 + 2) / 2 = 2 blows"), "{text}");
    assert!(text.contains("Damage 1d3: 3"), "{text}");
    assert_eq!(f.fighters[x].blows, 3 - 1 - 1);
}

#[test]
fn standing_up_1_to_4_and_kneeling_at_once() {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 20, 20),
        vec![
            figures(&r, "a", "footman", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(6, 5), Dir(6)),
        ],
        &[],
    );
    f.fighters[0].state.posture = Posture::Prone;
    let plays = [("a", melee(vec![MeleeCard::Move(MoveStep::StandUp)]))];
    let mut g = f.clone();
    let (text, ..) = play(&mut g, &plays, &[], &[], &[seed::STAND_UP_D6 + 1]);
    assert!(text.contains("stays down"), "{text}");
    let (text, ..) = play(&mut f, &plays, &[], &[], &[seed::STAND_UP_D6]);
    assert!(text.contains("and is up"), "{text}");
    f.fighters[0].state.posture = Posture::Kneeling;
    let (text, ..) = play(&mut f, &plays, &[], &[], &[]);
    assert!(text.contains("regains his feet"), "{text}");
}

#[test]
fn spells_apply_the_ruleset_conditions_seed_002() {
    let r = crate::level::builtin_ruleset("realms").expect("realms");
    // The mage at (5,5) facing E; the dwarf before it at (6,5); the ghoul at (7,5) facing W.
    let mut f = fight(
        board(GridKind::Hex, 20, 20),
        vec![
            figures(&r, "m", "human_warrior", 0, Cell::new(5, 5), Dir(1)),
            figures(&r, "dw", "dwarf_warrior", 0, Cell::new(6, 5), Dir(1)),
            figures(&r, "g", "ghoul", 1, Cell::new(7, 5), Dir(4)),
        ],
        &[
            "quick_step",
            "shackled",
            "ghoul_touch",
            "armour",
            "crawling",
        ],
    );
    let m = ix(&f, "m");
    f.fighters[m].profile = tables().fighter("hedge_mage");
    play(
        &mut f,
        &[("m", melee(vec![MeleeCard::PrepareSpell]))],
        &[],
        &[],
        &[],
    );
    assert!(f.fighters[m].state.prepared);
    // Quick step on the dwarf (90%): 90 succeeds.
    let cast = MeleeCard::CastSpell {
        spell: "quick_step".into(),
        target: Some("dw".into()),
    };
    let m2 = MeleeCard::CastSpell {
        spell: "bind".into(),
        target: Some("dw".into()),
    };
    assert!(
        check_play(&f, m, &melee(vec![m2]), tables(), false).is_err(),
        "bind is for enemies"
    );
    let (text, ..) = play(&mut f, &[("m", melee(vec![cast]))], &[], &[90], &[]);
    assert!(text.contains("dw is now under \"quick_step\""), "{text}");
    let dw = ix(&f, "dw");
    assert!(
        f.fighters[dw]
            .conditions
            .contains(&"quick_step".to_string())
    );
    // The ghoul touches the dwarf (70%, innate, in contact).
    let touch = MeleeCard::CastSpell {
        spell: "ghoul_touch".into(),
        target: Some("dw".into()),
    };
    let (text, ..) = play(&mut f, &[("g", melee(vec![touch]))], &[], &[71], &[]);
    assert!(text.contains("it fails"), "{text}");
}

#[test]
fn the_phase_starts_on_contact_and_ends_when_blows_run_out() {
    let r = destrier();
    let apart = fight(
        board(GridKind::Square, 20, 20),
        vec![
            figures(&r, "a", "footman", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(7, 5), Dir(6)),
        ],
        &[],
    );
    assert!(
        !super::flow::melee_starts(&apart, tables()),
        "near is not in contact"
    );
    // Two cells apart they are near (a 2" move reaches contact): both would join a melee.
    assert_eq!(
        super::flow::participants(&apart, tables(), true),
        vec![0, 1]
    );
    let mut f = fight(
        board(GridKind::Square, 20, 20),
        vec![
            figures(&r, "a", "footman", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(6, 5), Dir(6)),
        ],
        &[],
    );
    assert!(super::flow::melee_starts(&f, tables()));
    super::flow::begin_phase(&mut f);
    assert_eq!(f.fighters[0].blows, 4);
    f.fighters[0].blows = 0;
    assert!(super::flow::melee_on(&f, tables()));
    f.fighters[1].blows = 0;
    assert!(!super::flow::melee_on(&f, tables()));
    // Out of blows, PASSIVE SHIELD PARRY is forced: no choice to make.
    f.round = 1;
    assert_eq!(
        super::flow::forced(&f, tables(), 0, false).map(|c| c.melee),
        Some(vec![])
    );
    assert!(super::flow::choosers(&f, tables(), false).is_empty());
    // A dodge is guessed by the enemies in contact.
    f.fighters[1].blows = 4;
    let plays = vec![None, Some(melee(vec![MeleeCard::Dodge(DodgeDir::Back)]))];
    assert_eq!(super::flow::guessers(&f, tables(), &plays), vec![(0, 1)]);
}

#[test]
fn replay_is_deterministic_with_the_same_dice() {
    let run = || {
        let mut f = fight(
            board(GridKind::Square, 20, 20),
            vec![
                figures(&destrier(), "a", "footman", 0, Cell::new(5, 5), Dir(2)),
                figures(&destrier(), "b", "footman", 1, Cell::new(6, 5), Dir(6)),
            ],
            &[],
        );
        let plays = [
            ("a", melee(vec![blow("b"), MeleeCard::WeaponParry])),
            ("b", melee(vec![blow("a")])),
        ];
        play(&mut f, &plays, &[], &[10, 60, 20, 11, 70], &[4, 5]).0
    };
    assert_eq!(run(), run());
}
