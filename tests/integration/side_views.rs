//! Each side's view (issue 29, I4): a hot-seat game of every level, played by the computer for
//! both sides, looked at after every order from each side's seat and a spectator's. A view
//! holds the public state and its own side's face-down choices, and nothing else: never the
//! other side's cards, guesses, charge orders or answers before they are revealed, nor the
//! seed. The strongest check is a difference: had the other side chosen otherwise face down,
//! a side's view would be the same, byte for byte. And the game each side's computer plays
//! from holds exactly what that side may see of the real one.

use std::path::Path;
use warhorse::ai::brain::carry_thoughts;
use warhorse::ai::{AiLevel, next_order, set_level, side_to_act};
use warhorse::level::{Level, load_level_file};
use warhorse::sim::Game;
use warhorse::sim::follow::Shown;
use warhorse::sim::melee::Stage;
use warhorse::sim::order::Order;
use warhorse::sim::side_view::{Seat, Secret, SideView};

/// A seed whose digits would stand out in any text it leaked into.
const SEED: u64 = 8_716_305_942_071;

/// How many orders of each level are looked at: the first turns hold every kind of face-down
/// choice (charge orders and answers, TAC cards, card rounds, dodge guesses).
const ORDERS: usize = 500;

/// How many face-down orders of each level are played the other way to compare views.
const SWAPS: usize = 6;

fn json(v: &SideView) -> String {
    serde_json::to_string(v).expect("a view serializes")
}

/// The figure a face-down order comes from, and another order the same figure could have
/// given face down instead (no card, no charge, no guess).
fn face_down(order: &Order) -> Option<(&str, Order)> {
    match order {
        Order::PlayCards { unit, .. } | Order::GuessDodge { unit, .. } => {
            Some((unit, Order::Pass { unit: unit.clone() }))
        }
        Order::DeclareCharge { unit, .. } => Some((unit, Order::NoCharge { unit: unit.clone() })),
        _ => None,
    }
}

/// How many times the game has faced cards or revealed charge orders so far.
fn reveals(game: &Game) -> usize {
    game.log()
        .iter()
        .filter(|l| {
            matches!(
                l.what,
                warhorse::sim::log::Happening::CardsFaced(_)
                    | warhorse::sim::log::Happening::ChargesRevealed(_)
            )
        })
        .count()
}

fn figure_of(secret: &Secret) -> &str {
    match secret {
        Secret::Cards { figure, .. }
        | Secret::Guess { figure, .. }
        | Secret::Charge { figure, .. }
        | Secret::Answer { figure, .. } => figure,
    }
}

/// What one level's game exercised: secrets seen in some side's view by kind (cards, guesses,
/// charge orders, answers), and face-down orders played the other way.
#[derive(Default)]
struct Seen {
    kinds: [usize; 4],
    swaps: usize,
    /// Sides' own games looked at while an order was kept from them, and once none was.
    known_held: usize,
    known_whole: usize,
    /// Times the real game waited for a side's dodge guesses (its game asked them too), and
    /// faced plays whose DODGE the side's game holds masked to another way.
    guesses_asked: usize,
    masked: usize,
}

/// The game each side's computer plays from (`Game::known_to`, issue 29 item 3, I4): it holds
/// every order the side may see and none kept from it — the other side's face-down orders not
/// yet revealed are in neither its record nor its books — and once nothing is kept from the
/// side, it is the real game's board.
fn check_known_games(game: &mut Game, n: u8, name: &str, seen: &mut Seen) {
    let orders = game.record().orders.len();
    let real = game.state_hash();
    for s in 0..n {
        let held: Vec<usize> = (0..orders)
            .filter(|&p| game.hidden_from(p, Seat::Side(s)))
            .collect();
        // Of those, the card plays faced but for their DODGEs while the round waits for the
        // guesses (D7): the side's game has them, masked.
        let faced: Vec<(usize, Order, bool)> = held
            .iter()
            .filter_map(|&p| match game.shown_to(p, Seat::Side(s)) {
                Shown::Faced(o) => {
                    let differs = o != game.record().orders[p];
                    Some((p, o, differs))
                }
                _ => None,
            })
            .collect();
        let secret: Vec<usize> = held
            .iter()
            .copied()
            .filter(|p| !faced.iter().any(|(f, _, _)| f == p))
            .collect();
        // Each secret as its figure and the kind of secret it leaves in a view.
        // (A pass made at the guesses is no guess; the figure's play of the round is faced.)
        let faced_figures: Vec<String> = faced.iter().map(|(_, o, _)| faced_figure(o)).collect();
        let held_figures: Vec<(String, usize)> = secret
            .iter()
            .filter_map(|&p| {
                let o = &game.record().orders[p];
                let unit = o.face_down_unit()?.to_string();
                let pass_at_guesses =
                    matches!(o, Order::Pass { .. }) && faced_figures.contains(&unit);
                (!pass_at_guesses).then(|| (unit, order_kind(o)))
            })
            .collect();
        let guesses_due: Vec<(String, u8)> = game
            .melee_waiting(Stage::Guessing)
            .into_iter()
            .filter(|(_, side)| *side == s)
            .collect();
        let real_views: Vec<SideView> = (0..n).map(|o| game.view(Seat::Side(o))).collect();
        let known = game.known_to(s, carry_thoughts);
        assert!(known.is_replica(), "{name}: side {s} reads the real game");
        // The side's game reaches every question the real one asks the side: the dodge
        // guesses too, though the DODGEs are still face down.
        if !guesses_due.is_empty() {
            seen.guesses_asked += 1;
            let asked: Vec<(String, u8)> = known
                .melee_waiting(Stage::Guessing)
                .into_iter()
                .filter(|(_, side)| *side == s)
                .collect();
            assert_eq!(
                asked, guesses_due,
                "{name}: side {s}'s game does not ask the dodge guesses the real one waits for"
            );
        }
        if held.is_empty() {
            seen.known_whole += 1;
            assert_eq!(
                known.record().orders.len(),
                orders,
                "{name}: side {s}'s record"
            );
            assert_eq!(
                known.state_hash(),
                real,
                "{name}: side {s}'s game is not the real one after {orders} orders, though \
                 nothing is kept from it"
            );
            continue;
        }
        seen.known_held += 1;
        assert!(
            known.record().orders.len() + secret.len() <= orders,
            "{name}: side {s}'s game holds an order kept from it"
        );
        for other in (0..n).filter(|&o| o != s) {
            let theirs = known.view(Seat::Side(other)).own;
            for (f, kind) in &held_figures {
                assert!(
                    !theirs
                        .iter()
                        .any(|x| figure_of(x) == f && secret_kind(x) == *kind),
                    "{name}: side {s}'s game holds {f}'s face-down choice: {theirs:?}"
                );
            }
            // A faced play is there as masked: where the mask differs from the play, the
            // side's game shows the mask's cards, never the play's.
            for (p, masked, differs) in &faced {
                let figure = faced_figure(masked);
                let whole = cards_of(&real_views[other as usize].own, &figure);
                let mine = cards_of(&theirs, &figure);
                if whole.is_none() {
                    continue; // another side's figure
                }
                assert!(
                    mine.is_some(),
                    "{name}: side {s}'s game lacks faced order {p}"
                );
                if *differs {
                    seen.masked += 1;
                    assert_ne!(
                        mine.as_ref(),
                        whole.as_ref(),
                        "{name}: side {s}'s game holds the DODGE of order {p} unmasked"
                    );
                }
            }
        }
    }
}

/// The kind of secret a view holds: cards, a guess, charge orders, an answer.
fn secret_kind(secret: &Secret) -> usize {
    match secret {
        Secret::Cards { .. } => 0,
        Secret::Guess { .. } => 1,
        Secret::Charge { .. } => 2,
        Secret::Answer { .. } => 3,
    }
}

/// The kind of secret a face-down order leaves in its side's view ([`secret_kind`]).
fn order_kind(order: &Order) -> usize {
    match order {
        Order::GuessDodge { .. } => 1,
        Order::DeclareCharge { .. } | Order::NoCharge { .. } => 2,
        Order::AnswerCharge { .. } => 3,
        _ => 0,
    }
}

/// The figure a faced play (cards, or a pass) speaks for.
fn faced_figure(order: &Order) -> String {
    match order {
        Order::PlayCards { unit, .. } | Order::Pass { unit } => unit.clone(),
        o => panic!("only a round's plays are faced: {o}"),
    }
}

/// The cards of `figure` among a seat's own secrets.
fn cards_of(own: &[Secret], figure: &str) -> Option<Vec<String>> {
    own.iter().find_map(|x| match x {
        Secret::Cards { figure: f, cards } if f == figure => Some(cards.clone()),
        _ => None,
    })
}

fn check_level(level: &Level, name: &str) -> Seen {
    let mut game = Game::new(level, SEED);
    let n = level.file.sides.len() as u8;
    for s in 0..n {
        set_level(&mut game, s, AiLevel::Lookahead);
    }
    let seats: Vec<Seat> = (0..n).map(Seat::Side).chain([Seat::Spectator]).collect();
    let seed = SEED.to_string();
    let mut seen = Seen::default();
    for _ in 0..ORDERS {
        if game.outcome().is_some() {
            break;
        }
        let Some(side) = side_to_act(&mut game) else {
            break;
        };
        let Some(order) = next_order(&mut game, side) else {
            break;
        };
        let before = game.record().clone();
        let reveals_before = reveals(&game);
        if game.order(&order).is_err() {
            // The computer's refusals are another test's business; this one looks at views.
            continue;
        }
        check_known_games(&mut game, n, name, &mut seen);
        let views: Vec<SideView> = seats.iter().map(|&s| game.view(s)).collect();
        for v in &views {
            let text = json(v);
            assert!(
                !text.contains(&seed),
                "{name}: the seed is in the view of {:?}",
                v.seat
            );
            for other in &views {
                if other.seat == v.seat {
                    continue;
                }
                for secret in &other.own {
                    seen.kinds[secret_kind(secret)] += 1;
                    let mine = v.own.iter().any(|s| s == secret);
                    assert!(
                        !mine,
                        "{name}: {:?} holds {:?}'s secret {secret:?}",
                        v.seat, other.seat
                    );
                    let needle = serde_json::to_string(secret).expect("json");
                    assert!(
                        !text.contains(&needle),
                        "{name}: {secret:?} of {:?} is in the view of {:?}",
                        other.seat,
                        v.seat
                    );
                }
            }
            if v.seat == Seat::Spectator {
                assert!(v.own.is_empty(), "{name}: a spectator has no secrets");
            }
        }
        // Played the other way face down, the order leaves every other seat's view as it is
        // — unless it was the last one awaited and the round or the charges were revealed:
        // then both plays are public (and a figure the reveal left without blows has its
        // next card played for it, face down, which the chooser's view still holds).
        if seen.swaps < SWAPS
            && reveals(&game) == reveals_before
            && let Some((figure, other)) = face_down(&order)
            && let Some(chooser) = views.iter().find_map(|v| match v.seat {
                Seat::Side(s) if v.own.iter().any(|x| figure_of(x) == figure) => Some(s),
                _ => None,
            })
        {
            let mut rec = before;
            rec.orders.push(other.clone());
            if let Ok(alt) = Game::from_record(&rec) {
                let mut alt = alt;
                seen.swaps += 1;
                for &seat in &seats {
                    if seat == Seat::Side(chooser) {
                        continue;
                    }
                    assert_eq!(
                        json(&game.view(seat)),
                        json(&alt.view(seat)),
                        "{name}: {seat:?} can tell {order} from {other}"
                    );
                }
            }
        }
    }
    seen
}

#[test]
fn no_view_holds_another_sides_face_down_choices_or_the_seed_on_any_level() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("levels/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    assert!(files.len() >= 13, "every level: {files:?}");
    let mut total = Seen::default();
    for f in &files {
        let level = load_level_file(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let seen = check_level(&level, &f.display().to_string());
        for k in 0..4 {
            total.kinds[k] += seen.kinds[k];
        }
        total.swaps += seen.swaps;
        total.known_held += seen.known_held;
        total.known_whole += seen.known_whole;
        total.guesses_asked += seen.guesses_asked;
        total.masked += seen.masked;
    }
    // The games must have put the views to the test: face-down cards and charge orders were
    // held while other seats looked, and choices were played the other way.
    assert!(total.kinds[0] > 0, "no face-down cards were ever held");
    assert!(total.kinds[2] > 0, "no charge orders were ever held");
    assert!(
        total.known_held > 0 && total.known_whole > 0,
        "the sides' own games were looked at {} times with an order kept from them, {} without",
        total.known_held,
        total.known_whole
    );
    // Dodge guesses were asked, and some DODGE was masked to another way than the one chosen.
    assert!(
        total.guesses_asked > 0 && total.masked > 0,
        "dodge guesses asked {} times, DODGEs masked to another way {} times",
        total.guesses_asked,
        total.masked
    );
    assert!(
        total.swaps >= 13,
        "only {} choices played the other way",
        total.swaps
    );
}
