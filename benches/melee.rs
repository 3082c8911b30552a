//! Melee benchmark (issue 4): one full melee phase — the TAC phase and every card round until
//! the blows run out — of 100 engaged pairs of footmen, resolved by the pure rules
//! (`rules::melee::resolve`) with seeded dice.
//!
//! Each pair faces off on a 60×40 open field, three cells from the next pair. In the TAC
//! phase the Red figure CLOSEs (a TMM body bash) and strikes; the Blue one stands its ground
//! with a WEAPON PARRY. In every card round each figure still up plays DELIVER BLOW at its
//! opponent, with an ACTIVE SHIELD PARRY while it is free, stands up when it is down, and
//! punches when disarmed, and plays the forced PASSIVE SHIELD PARRY when out of blows or
//! stunned — so
//! every kind of event happens: hits, misses, parries and counter-blows, criticals, bashes,
//! shield bashes, incapacity. The fight is cloned before each run and dropped after it (neither
//! is timed).
//!
//! Run with `cargo bench --bench melee`.

// criterion_group! and criterion_main! define public functions without doc comments.
#![allow(missing_docs)]

use criterion::{BatchSize, Criterion, black_box, criterion_group, criterion_main};
use std::time::Duration;
use warhorse::rules::grid::{Cell, Dir, GridKind};
use warhorse::rules::melee::cards::{Choice, MeleeCard, MoveStep, TacCard, check_play};
use warhorse::rules::melee::fight::{Fight, Posture};
use warhorse::rules::melee::tables::tables;
use warhorse::rules::melee::testkit::{board, destrier, fight, figures};
use warhorse::rules::melee::{Dice, flow, resolve};

#[path = "common/splitmix.rs"]
mod splitmix;
use splitmix::SplitMix as Mix;

impl Dice for Mix {
    fn d100(&mut self) -> u32 {
        (self.next() % 100) as u32 + 1
    }
    fn d6(&mut self) -> u32 {
        (self.next() % 6) as u32 + 1
    }
}

const PAIRS: i32 = 100;

fn field() -> Fight {
    let r = destrier();
    let mut groups = Vec::new();
    for k in 0..PAIRS {
        let (x, y) = (1 + (k % 10) * 6, 1 + (k / 10) * 4);
        // Ids sort in the order they are placed, as the simulation's do.
        groups.push(figures(
            &r,
            &format!("p{k:03}a"),
            "footman",
            0,
            Cell::new(x, y),
            Dir(2),
        ));
        groups.push(figures(
            &r,
            &format!("p{k:03}b"),
            "footman",
            1,
            Cell::new(x + 1, y),
            Dir(6),
        ));
    }
    let mut f = fight(board(GridKind::Square, 62, 42), groups, &[]);
    f.round = 0;
    f
}

/// Plays a whole melee phase; returns the number of events (so nothing is optimised away).
fn phase(f: &mut Fight, dice: &mut Mix) -> usize {
    let t = tables();
    flow::begin_turn(f);
    flow::begin_phase(f);
    let n = f.fighters.len();
    let foe = |i: usize| if i.is_multiple_of(2) { i + 1 } else { i - 1 };
    let mut events = 0;
    let tac: Vec<Option<Choice>> = (0..n)
        .map(|i| {
            let target = f.fighters[foe(i)].id.clone();
            Some(if i % 2 == 0 {
                Choice {
                    tac: Some(TacCard::Close),
                    tac_target: Some(target.clone()),
                    melee: vec![MeleeCard::DeliverBlow { target }],
                    forfeit: false,
                }
            } else {
                Choice {
                    tac: Some(TacCard::StandGround),
                    tac_target: None,
                    melee: vec![MeleeCard::WeaponParry],
                    forfeit: false,
                }
            })
        })
        .collect();
    events += resolve::resolve(f, t, &tac, &[], dice).len();
    while flow::melee_on(f, t) && f.round < 50 {
        let plays: Vec<Option<Choice>> = (0..n)
            .map(|i| {
                let me = &f.fighters[i];
                let o = &f.fighters[foe(i)];
                // Like the simulation: figures out of the melee take no part; a figure out of
                // blows or stunned has its PASSIVE SHIELD PARRY forced on it.
                if !me.is_up() || !o.is_up() || !f.in_contact(i, foe(i)) {
                    return None;
                }
                if let Some(c) = flow::forced(f, t, i, false) {
                    return Some(c);
                }
                if me.state.posture != Posture::Standing {
                    return Some(Choice {
                        melee: vec![MeleeCard::Move(MoveStep::StandUp)],
                        ..Choice::default()
                    });
                }
                let mut melee = vec![MeleeCard::DeliverBlow {
                    target: o.id.clone(),
                }];
                if !me.state.asp_used && me.shield_ready() {
                    melee.push(MeleeCard::ActiveShieldParry);
                }
                let c = Choice {
                    melee,
                    ..Choice::default()
                };
                if check_play(f, i, &c, t, false).is_ok() {
                    return Some(c);
                }
                // Disarmed: hands and feet.
                let punch = Choice {
                    melee: vec![MeleeCard::Punch {
                        target: o.id.clone(),
                    }],
                    ..Choice::default()
                };
                Some(if check_play(f, i, &punch, t, false).is_ok() {
                    punch
                } else {
                    flow::pass_play(f, t, i, false)
                })
            })
            .collect();
        if std::env::var("MELEE_DEBUG").is_ok() {
            let active: Vec<String> = (0..n)
                .filter(|&i| plays[i].as_ref().is_some_and(|c| !c.melee.is_empty()))
                .map(|i| {
                    format!(
                        "{}:{:?}/b{}",
                        f.fighters[i].id,
                        plays[i].as_ref().unwrap().melee.first().map(|m| m.name()),
                        f.fighters[i].blows
                    )
                })
                .collect();
            eprintln!(
                "round {}: {} active: {:?}",
                f.round,
                active.len(),
                &active[..active.len().min(6)]
            );
        }
        events += resolve::resolve(f, t, &plays, &[], dice).len();
    }
    events
}

/// CPU time of this thread so far, in seconds (Linux: utime + stime from
/// /proc/thread-self/stat, 100 ticks a second). The machine is shared, so wall-clock times
/// carry other work; this tells what the melee itself costs.
fn thread_cpu() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    let (u, k): (f64, f64) = (f.get(11)?.parse().ok()?, f.get(12)?.parse().ok()?);
    Some((u + k) / 100.0)
}

fn bench(c: &mut Criterion) {
    let base = field();
    // Sanity: the phase runs to its end, with blows struck.
    let mut f = base.clone();
    let events = phase(&mut f, &mut Mix(7));
    assert!(events > 4 * PAIRS as usize, "{events} events");
    assert!(!flow::melee_on(&f, tables()));
    // What the phase did to the figures, as one number: an optimisation must not change it.
    let mut digest = 0xcbf2_9ce4_8422_2325u64;
    for x in &f.fighters {
        for v in [
            x.body as i64,
            x.cell.x as i64,
            x.cell.y as i64,
            x.facing.0 as i64,
            x.blows as i64,
            x.state.posture as i64,
            x.state.fallen as i64,
            x.state.stunned as i64,
            x.state.held as i64,
            x.state.shield_broken as i64,
        ] {
            digest = (digest ^ v as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    eprintln!(
        "sanity: {events} events in {} rounds; state digest {digest:016x}",
        f.round
    );
    if let Some(t0) = thread_cpu() {
        // The clones alone, then clones and phases: the difference is the phases.
        let runs = 2000u64;
        let t0 = thread_cpu().unwrap_or(t0);
        for _ in 0..runs {
            black_box(base.clone());
        }
        let t1 = thread_cpu().unwrap_or(t0);
        for k in 0..runs {
            let mut f = base.clone();
            black_box(phase(&mut f, &mut Mix(k + 1)));
        }
        if let Some(t2) = thread_cpu() {
            eprintln!(
                "CPU time per full phase (100 pairs), mean of {runs}: {:.3} ms",
                ((t2 - t1) - (t1 - t0)) * 1000.0 / runs as f64
            );
        }
    }
    let mut g = c.benchmark_group("melee");
    g.measurement_time(Duration::from_secs(8));
    g.bench_function("full phase, 100 engaged pairs", |b| {
        let mut seed = 0u64;
        // The fight is cloned before and dropped after each run, untimed: only the phase is.
        b.iter_batched_ref(
            || {
                seed += 1;
                (base.clone(), Mix(seed))
            },
            |(f, d)| black_box(phase(f, d)),
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
