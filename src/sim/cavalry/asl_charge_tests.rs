//! 13.511 and 13.6 on the ASL level: reduced horses make a squad Deploy and a half-squad bail
//! out (A5), and the half-squad that rides on Charges with a half-squad's firepower.

use super::*;
use crate::level::load_level_file;
use crate::sim::Game;
use std::path::Path;

fn entity(g: &mut Game, id: &str) -> Entity {
    find_figure(g.app.world_mut(), id).unwrap_or_else(|| panic!("no {id}"))
}

/// Seed 001, 13.511: "If a squad Horse-counter is Reduced … if the squad Riding that Horse
/// counter is unaffected by that attack, it immediately Deploys in order to have one of its HS
/// (randomly determined) Bail Out"; 13.6's example: the 4-4-7 "Deploys into two 2-3-7 HS
/// because one HS must Bail Out due to the Reduction of the horses (13.511)" and "The 2-3-7
/// Cavalry now makes its six-FP (TPBF) Charge attack".
#[test]
fn a13_6_reduced_horses_make_a_half_squad_bail_out_and_the_charge_is_six_fp() {
    let level = load_level_file(Path::new("tests/levels/kolkhoz_close.ron")).expect("level loads");
    let mut g = Game::new(&level, 1);
    let cav = entity(&mut g, "cav_1");
    let m = entity(&mut g, "cav_1.mount");
    let w = g.app.world_mut();
    assert_eq!(fp_of(w, cav), 4, "a whole 4-4-7");
    let at = cell_of(w, cav);
    let mut out = Vec::new();
    apply_to_horses(w, cav, m, HorseResult::Reduced, &mut out);
    let text = out
        .iter()
        .map(|e| e.text.clone())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(text.contains("Deploys into two half-squads"), "{text}");
    assert_eq!(world_body(w, cav), (1, 1), "the rider is a half-squad");
    assert_eq!(w.get::<RidingOn>(cav).map(|r| r.0), Some(m), "it rides on");
    let hs = find_figure(w, "cav_1.hs").expect("the half-squad that bailed out");
    assert!(w.get::<RidingOn>(hs).is_none(), "on foot");
    assert_eq!(cell_of(w, hs), at, "in the same hex");
    assert_eq!(world_body(w, hs), (1, 1));
    // 2 FP, tripled at triple point blank: the six FP of the example.
    assert_eq!(fp_of(w, cav), 2);
    let t = tables().asl_fire;
    let six = Shot {
        fp: fp_of(w, cav),
        range: 0,
        mounted: true,
        charge_or_cc: true,
        ..Default::default()
    };
    let squad = Shot { fp: 4, ..six };
    assert!(fire_chance(&t, &six).0 < fire_chance(&t, &squad).0);
    // A second horse lost: one horse cannot carry a half-squad, which bails out too.
    let mut out = Vec::new();
    apply_to_horses(w, cav, m, HorseResult::Reduced, &mut out);
    assert!(
        w.get::<RidingOn>(cav).is_none(),
        "the half-squad bails out too"
    );
    assert!(
        out.iter().any(|e| e.text.contains("bails out (13.511)")),
        "the log says so"
    );
}

fn world_body(w: &World, e: Entity) -> (u16, u16) {
    w.get::<Body>(e).map(|b| (b.max, b.left)).expect("body")
}
