//! A16 after the Charge (`asl`): the cavalry that did not take the hex stays in contact and is
//! locked in close combat with its target in the melee phase; or it dismounts, or moves on
//! with the MF it has left — even to Charge again; and it may not fire in the next fire phase.

use super::{ASL, game};
use warhorse::sim::Game;
use warhorse::sim::order::Order;
use warhorse::sim::phase::Phase;
use warhorse::sim::snapshot::FigureState;

fn fig(g: &mut Game, id: &str) -> Option<FigureState> {
    g.snapshot().figures.into_iter().find(|f| f.id == id)
}

fn go(dir: u8, n: usize) -> Vec<warhorse::rules::movement::Step> {
    vec![warhorse::rules::movement::Step::Go(warhorse::rules::grid::Dir(dir)); n]
}

/// Passes the fire phase before the first half-move, then rides cav's Charge into sov's hex
/// (8 hexes east, 20 MF at the Gallop: 8 + 3 paid). `Some(game)` when cav is still mounted,
/// unbroken, and sov still holds its hex — the case A16's "afterwards" is about.
fn charged(seed: u64) -> Option<Game> {
    let mut g = game(ASL, seed);
    for _ in 0..8 {
        if g.phase() == Phase::FirstHalfMove {
            break;
        }
        g.order(&Order::EndSide)
            .expect("pass the phases before the move");
    }
    assert_eq!(g.phase(), Phase::FirstHalfMove);
    g.order(&Order::DeclareCharge {
        unit: "cav".into(),
        targets: vec!["sov".into()],
    })
    .expect("the Charge is declared");
    g.order(&Order::Move {
        unit: "cav".into(),
        steps: go(1, 8),
    })
    .expect("the Charge is ridden");
    let cav = fig(&mut g, "cav")?;
    let sov = fig(&mut g, "sov")?;
    (cav.mounted_on.is_some()
        && !cav.conditions.iter().any(|c| c.contains("broken"))
        && sov.cell == [9, 2])
    .then_some(g)
}

#[test]
fn a16_staying_the_cavalry_keeps_contact_and_melees_its_target() {
    let mut seen = 0;
    for seed in 1..10 {
        let Some(mut g) = charged(seed) else { continue };
        seen += 1;
        assert_eq!(
            fig(&mut g, "cav").unwrap().cell,
            [8, 2],
            "seed {seed}: next to sov"
        );
        let log: Vec<String> = g
            .snapshot()
            .log
            .into_iter()
            .map(|l| l.to_string())
            .collect();
        assert!(
            log.iter()
                .any(|l| l.contains("cav stays in contact with sov at (8,2)")
                    && l.contains("9 MF left")
                    && l.contains("locked in close combat in the melee phase (A16)")),
            "seed {seed}: {log:#?}"
        );
        // Nobody moves on: the turn runs to the melee, where the two are engaged.
        for _ in 0..12 {
            if g.phase() == Phase::Tac {
                break;
            }
            g.order(&Order::EndSide).expect("end the phase");
        }
        assert_eq!(g.phase(), Phase::Tac, "seed {seed}");
        let waiting = g.snapshot().to_choose;
        assert!(
            waiting.contains(&"cav".to_string()) && waiting.contains(&"sov".to_string()),
            "seed {seed}: {waiting:?}"
        );
    }
    assert!(
        seen > 0,
        "no seed left both units standing after the Charge"
    );
}

#[test]
fn a16_the_cavalry_may_dismount_after_its_charge() {
    let mut seen = 0;
    for seed in 1..10 {
        let Some(mut g) = charged(seed) else { continue };
        seen += 1;
        g.order(&Order::Dismount {
            unit: "cav".into(),
            to: None,
        })
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(fig(&mut g, "cav").unwrap().mounted_on, None);
        // A4: the horse spent 11 of its 20 MF, so the rider loses 1 MF per 25% spent.
        let log: Vec<String> = g
            .snapshot()
            .log
            .into_iter()
            .map(|l| l.to_string())
            .collect();
        assert!(
            log.iter()
                .any(|l| l.contains("cav dismounts") && l.contains("(A4)")),
            "seed {seed}: {log:#?}"
        );
    }
    assert!(seen > 0);
}

#[test]
fn a16_the_cavalry_may_move_on_and_charge_again_with_what_mf_remain() {
    let mut seen = 0;
    for seed in 1..10 {
        let Some(mut g) = charged(seed) else { continue };
        seen += 1;
        assert_eq!(fig(&mut g, "cav.mount").unwrap().allowance_left, "9");
        // Back two hexes west: 2 MF of the 9 left.
        g.order(&Order::Move {
            unit: "cav".into(),
            steps: go(4, 2),
        })
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(fig(&mut g, "cav").unwrap().cell, [6, 2]);
        assert_eq!(fig(&mut g, "cav.mount").unwrap().allowance_left, "7");
        // Range 3 again: a second Charge (3 MF to enter + 3 for the Charge of the 7 left).
        g.order(&Order::DeclareCharge {
            unit: "cav".into(),
            targets: vec!["sov".into()],
        })
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        g.order(&Order::Move {
            unit: "cav".into(),
            steps: go(1, 3),
        })
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let log: Vec<String> = g
            .snapshot()
            .log
            .into_iter()
            .map(|l| l.to_string())
            .collect();
        assert!(
            log.iter()
                .any(|l| l.contains("3 MF to enter plus 3 MF for the Charge (A16)")),
            "seed {seed}: {log:#?}"
        );
    }
    assert!(seen > 0);
}

#[test]
fn a16_a_charge_too_dear_for_the_mf_left_is_refused() {
    let mut seen = 0;
    for seed in 1..10 {
        let Some(mut g) = charged(seed) else { continue };
        seen += 1;
        // Back four hexes (4 of 9 MF): a Charge 5 hexes in would cost 5 + 3 = 8 > 5.
        g.order(&Order::Move {
            unit: "cav".into(),
            steps: go(4, 4),
        })
        .unwrap();
        g.order(&Order::DeclareCharge {
            unit: "cav".into(),
            targets: vec!["sov".into()],
        })
        .unwrap();
        let why = g
            .order(&Order::Move {
                unit: "cav".into(),
                steps: go(1, 5),
            })
            .unwrap_err();
        assert!(
            why.0.starts_with("A16:") && why.0.contains("5 MF left"),
            "{why}"
        );
    }
    assert!(seen > 0);
}

#[test]
fn a16_no_fire_in_the_fire_phase_after_the_charge() {
    let mut seen = 0;
    for seed in 1..10 {
        let Some(mut g) = charged(seed) else { continue };
        seen += 1;
        // The flag the fire phase reads (`AslCavalry::charged`) is set by the Charge.
        let world = g.world_for_tests_mut();
        let e = warhorse::sim::world::find_figure(world, "cav").unwrap();
        let c = world
            .get::<warhorse::sim::components::AslCavalry>(e)
            .expect("ASL cavalry state");
        assert!(c.charged, "seed {seed}");
        // Through the next fire phase: the Germans' only unit in range is cav, so their fire
        // step passes (A16), and the fire phase spends the flag.
        for _ in 0..6 {
            if g.phase() == Phase::SecondHalfMove {
                break;
            }
            g.order(&Order::EndSide).unwrap();
        }
        assert_eq!(g.phase(), Phase::SecondHalfMove, "seed {seed}");
        let log: Vec<String> = g
            .snapshot()
            .log
            .into_iter()
            .map(|l| l.to_string())
            .collect();
        let charge = log
            .iter()
            .position(|l| l.contains("cav Charges into"))
            .unwrap();
        assert!(
            log[charge..]
                .iter()
                .any(|l| l.contains("Germans have nothing they could shoot at")
                    || l.contains("Nobody can cast a spell or shoot")),
            "seed {seed}: {log:#?}"
        );
        let world = g.world_for_tests_mut();
        let e = warhorse::sim::world::find_figure(world, "cav").unwrap();
        let c = world
            .get::<warhorse::sim::components::AslCavalry>(e)
            .unwrap();
        assert!(
            !c.charged,
            "seed {seed}: spent with the fire phase after the Charge"
        );
    }
    assert!(seen > 0);
}
