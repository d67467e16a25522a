//! Fixed hashes for fingerprints, cache keys and seeds: std's hashers may change between Rust
//! releases, and a checkpoint or cache must stay valid across them.

/// FNV-1a of text, for cache keys and fingerprints.
pub fn fnv1a(text: &str) -> u64 {
    fnv1a_bytes(text.as_bytes())
}

/// [`fnv1a`] of raw bytes.
pub fn fnv1a_bytes(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// SplitMix64 finaliser: a well-mixed 64-bit hash of one number, for deriving seeds.
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
