//! A short fingerprint of the orders a side-turn gave, shared by the AI benches: a change meant
//! only to be faster must leave it as it was.

use warhorse::sim::order::{Order, Refusal};

/// How many of `played` were refused, and the FNV-1a hash of every order's debug text.
pub fn orders_digest(played: &[(Order, Result<(), Refusal>)]) -> (usize, u64) {
    let refused = played.iter().filter(|(_, r)| r.is_err()).count();
    let text = played
        .iter()
        .map(|(o, _)| format!("{o:?}"))
        .collect::<Vec<_>>()
        .join("; ");
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325, |h: u64, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    (refused, hash)
}
