//! One game of the default level, the computer on both sides, printed line by line: the log a
//! developer reads to see how the AI plays (`cargo run --example ai_log -- SEED [red's level]`).

fn main() {
    use warhorse::ai::AiLevel;
    let level = warhorse::level::default_level().expect("default");
    let seed: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let red = std::env::args()
        .nth(2)
        .and_then(|s| AiLevel::parse(&s))
        .unwrap_or(AiLevel::Table);
    let mut g = warhorse::sim::Game::new(&level, seed);
    warhorse::ai::set_level(&mut g, 0, red);
    for _ in 0..200000 {
        if g.turn_state().turn > 20 {
            break;
        }
        let Some(s) = warhorse::ai::side_to_act(&mut g) else {
            break;
        };
        let o = warhorse::ai::next_order(&mut g, s).unwrap_or(warhorse::sim::order::Order::EndSide);
        let _ = g.order(&o);
    }
    for l in g.snapshot().log {
        println!("T{} {}: {l}", l.turn, l.phase);
    }
}
