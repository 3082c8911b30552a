//! The melee always ends (issue 11, item 1): from many seeded positions on every level, with
//! the figures of both sides thrown together so that most are in contact, hot-seat players
//! who only ever pass, or who play random legal cards, see the melee phase end within a
//! bound and the game reach the next turn. Seed 003: "If any figures have blows remaining,
//! another CARD ROUND is played, and so on until all figures have exhausted all of their
//! blows", and "As long as a figure has blows remaining, he cannot play more than six
//! PASSIVE SHIELD PARRIES in a row."

use rand::prelude::*;
use rand_chacha::ChaCha8Rng;
use warhorse::level::{LevelFile, load_level_file, load_level_str_with};
use warhorse::rules::grid::GridKind;
use warhorse::rules::melee::cards::Card;
use warhorse::sim::Game;
use warhorse::sim::log::Happening;
use warhorse::sim::order::Order;
use warhorse::sim::phase::Phase;

/// Most card rounds one melee phase may take: every figure's blows (at most 8, a berserk's
/// included) are spent at one at least every seventh round (D7's six PASSIVE SHIELD PARRIES).
const MAX_ROUNDS: u32 = 7 * 8 + 1;

/// Every level in `levels/` (not the orders files beside them), sorted.
pub(crate) fn level_paths() -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/levels"))
        .expect("levels/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "ron")
                && !p.to_string_lossy().ends_with(".orders.ron")
        })
        .collect();
    v.sort();
    v
}

/// The level with its figures thrown together around the middle of the map, at random cells
/// and facings: most of them touch an enemy. `None` when the draw put a figure where it may
/// not stand (the loader says so).
pub(crate) fn crowded(
    path: &std::path::Path,
    rng: &mut ChaCha8Rng,
) -> Option<warhorse::level::Level> {
    let base = load_level_file(path).expect("level loads");
    let mut file: LevelFile = base.file.clone();
    let n = file.figures.len() as i32;
    let side = ((2 * n) as f64).sqrt().ceil() as i32 + 1;
    let (w, h) = (file.width as i32, file.height as i32);
    let (x0, y0) = ((w - side).max(0) / 2, (h - side).max(0) / 2);
    let names: &[&str] = match base.rules.grid {
        GridKind::Square => &["N", "E", "S", "W"],
        GridKind::Hex => &["NE", "E", "SE", "SW", "W", "NW"],
    };
    let mut used = std::collections::HashSet::new();
    for f in &mut file.figures {
        let at = (0..50).find_map(|_| {
            let c = (
                (x0 + rng.random_range(0..side)).min(w - 1),
                (y0 + rng.random_range(0..side)).min(h - 1),
            );
            used.insert(c).then_some(c)
        })?;
        f.at = at;
        f.facing = names.choose(rng).expect("facings").to_string();
    }
    let text = ron::ser::to_string(&file).ok()?;
    load_level_str_with(&text, &base.source, base.rules.clone()).ok()
}

/// How a hot-seat player answers the melee's questions.
#[derive(Clone, Copy, Debug)]
enum Player {
    /// Passes every choice (PASSIVE SHIELD PARRY) and never guesses.
    Passes,
    /// Plays one random card it may play, else passes.
    Random,
    /// At its first question, passes for the rest of the melee (`PassMelee`); it must not be
    /// asked again until the melee phase ends.
    PassesForGood,
}

fn answer(game: &mut Game, unit: &str, how: Player, rng: &mut ChaCha8Rng) -> Order {
    if let Player::PassesForGood = how {
        let snap = game.snapshot();
        let side = snap
            .figures
            .iter()
            .find(|f| f.id == unit)
            .map(|f| f.side.clone())
            .expect("the asked figure is in the game");
        return Order::PassMelee { side };
    }
    if let Player::Random = how {
        let hand = warhorse::sim::melee::hand(game.world_for_tests_mut(), unit);
        let playable: Vec<&Card> = hand
            .iter()
            .filter(|c| c.verdict.is_ok())
            .map(|c| &c.card)
            .collect();
        if let Some(card) = playable.choose(rng) {
            return match card {
                Card::Tac(t) => Order::PlayCards {
                    unit: unit.into(),
                    tac: Some(*t),
                    tac_target: None,
                    melee: Vec::new(),
                },
                Card::Melee(m) => Order::PlayCards {
                    unit: unit.into(),
                    tac: None,
                    tac_target: None,
                    melee: vec![m.clone()],
                },
            };
        }
    }
    Order::Pass { unit: unit.into() }
}

/// Plays from the crowded position to the next turn's first half-move: no movement (both
/// sides end their half-moves where they stand), the computer's answers to charges and fire,
/// and the melee answered by `how`. Returns the card rounds of the melee phase.
fn melee_rounds(game: &mut Game, how: Player, rng: &mut ChaCha8Rng, what: &str) -> u32 {
    let mut orders = 0;
    let mut passed: Vec<String> = Vec::new();
    loop {
        orders += 1;
        assert!(orders < 20_000, "{what}: no end after {orders} orders");
        let snap = game.snapshot();
        // The turn ends, or the battle does (a side out of the fight, an area held: issue 12).
        if snap.turn >= 2 || game.outcome().is_some() {
            break;
        }
        let phase = game.phase();
        if !matches!(phase, Phase::Tac | Phase::MeleeRounds) {
            passed.clear();
        }
        let order = if matches!(phase, Phase::Tac | Phase::MeleeRounds) {
            let unit = snap.to_choose.first().cloned().unwrap_or_else(|| {
                panic!(
                    "{what}: the melee waits for nobody:\n{:#?}",
                    snap.log.last()
                )
            });
            let side = snap
                .figures
                .iter()
                .find(|f| f.id == unit)
                .map(|f| f.side.clone());
            assert!(
                !side.as_ref().is_some_and(|s| passed.contains(s)),
                "{what}: {unit} is asked although its side passed for the rest of the melee"
            );
            let order = answer(game, &unit, how, rng);
            if let Order::PassMelee { side } = &order {
                passed.push(side.clone());
            }
            order
        } else if phase.is_half_move() {
            Order::EndSide
        } else {
            let side = warhorse::ai::side_to_act(game)
                .unwrap_or_else(|| panic!("{what}: nobody can act in the {phase:?}"));
            warhorse::ai::next_order(game, side).expect("an AI order")
        };
        if let Err(r) = game.order(&order) {
            // A random card may still be refused for its combination; passing never is.
            let unit = match &order {
                Order::PlayCards { unit, .. } => unit.clone(),
                _ => panic!("{what}: `{order:?}` refused: {r}"),
            };
            game.order(&Order::Pass { unit })
                .unwrap_or_else(|r| panic!("{what}: passing refused: {r}"));
        }
    }
    game.snapshot()
        .log
        .iter()
        .filter_map(|l| match &l.what {
            Happening::CardsFaced(f) => Some(f.round),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn every_melee_ends_within_the_bound_on_every_level() {
    let mut melees = 0;
    for path in level_paths() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut placed = 0;
        for seed in 0..40u64 {
            if placed == 6 {
                break;
            }
            let Some(level) = crowded(&path, &mut rng) else {
                continue;
            };
            placed += 1;
            for how in [Player::Passes, Player::Random, Player::PassesForGood] {
                let what = format!("{} seed {seed} {how:?}", path.display());
                let mut game = Game::new(&level, seed);
                let rounds = melee_rounds(&mut game, how, &mut rng, &what);
                assert!(rounds <= MAX_ROUNDS, "{what}: {rounds} card rounds");
                if rounds > 0 {
                    melees += 1;
                }
            }
        }
        assert!(placed > 0, "{}: no crowded position loads", path.display());
    }
    assert!(melees >= 20, "only {melees} melees were fought");
}

/// C8 (issue 11): a galloping horse stopped in contact, its straight MOVE refused, keeps no
/// melee going with blows it can never spend. A crowded Shield Wall (three knights at the
/// trot and the gallop against footmen and pikemen) ran its card rounds to the 200-round cap,
/// every figure parrying and nobody asked, before `flow::melee_on` knew it.
#[test]
fn a_steed_whose_way_has_run_out_keeps_no_melee_going() {
    let path = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/levels/destrier_shieldwall.ron"
    ));
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut melees = 0;
    for seed in 0..40u64 {
        let Some(level) = crowded(path, &mut rng) else {
            continue;
        };
        for how in [Player::Passes, Player::Random, Player::PassesForGood] {
            let what = format!("shield wall seed {seed} {how:?}");
            let mut game = Game::new(&level, seed);
            let rounds = melee_rounds(&mut game, how, &mut rng, &what);
            assert!(rounds <= MAX_ROUNDS, "{what}: {rounds} card rounds");
            melees += usize::from(rounds > 0);
        }
    }
    assert!(melees >= 10, "only {melees} melees were fought");
}
