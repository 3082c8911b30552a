//! The AI's strengths against each other on the default level, games counted by winner, for a
//! developer checking that a change to the AI still plays (`cargo run --release --example
//! ai_smoke -- N [mirror]`).

fn main() {
    use warhorse::ai::AiLevel::*;
    let level = warhorse::level::default_level().expect("default");
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let pairs: Vec<[warhorse::ai::AiLevel; 2]> = match std::env::args().nth(2).as_deref() {
        Some("mirror") => vec![[Lookahead, Table], [Table, Lookahead]],
        _ => vec![
            [Table, Table],
            [Lookahead, Table],
            [Table, Lookahead],
            [Lookahead, Lookahead],
        ],
    };
    for lv in pairs {
        let (mut w0, mut w1, mut d, mut refused, mut turns, mut lost0, mut lost1) =
            (0, 0, 0, 0, 0, 0, 0);
        let t = std::time::Instant::now();
        for seed in 0..n {
            let r = warhorse::ai::bout::play(&level, seed, 20, &lv);
            match r.winner.as_deref() {
                Some("Red") => w0 += 1,
                Some("Blue") => w1 += 1,
                _ => d += 1,
            }
            refused += r.refused;
            turns += r.turns;
            lost0 += r.sides[0].lost;
            lost1 += r.sides[1].lost;
            if r.refused > 0 {
                println!("{:?}", r.refusals);
            }
        }
        println!(
            "{:?}: red {w0} blue {w1} draw {d} refused {refused} turns {:.1} lost red {lost0} blue {lost1} ({:?})",
            lv,
            turns as f64 / n as f64,
            t.elapsed()
        );
    }
}
