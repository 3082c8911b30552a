//! The benchmarks' map and dice generator, shared by every bench (each `#[path]`-includes it).

/// SplitMix64: a tiny deterministic generator, so a bench's map, level or dice never change
/// between runs (and stay the same across `rand` versions, unlike a library generator).
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
