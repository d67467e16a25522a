//! Bench signature: the node count of `evochess bench` (default depth, default parameters).
//! Any change of search behaviour changes it; update `EXPECTED_NODES` and say `Bench: N` in
//! the commit message.

use evochess::{bench, params::Params};

/// Node count of `bench::run(bench::DEFAULT_DEPTH, &Params::default())`.
const EXPECTED_NODES: u64 = 4_797_759;

#[test]
fn bench_signature() {
    let r = bench::run(bench::DEFAULT_DEPTH, &Params::default());
    assert_eq!(r.nodes, EXPECTED_NODES, "bench signature changed: {r}");
}

#[test]
fn bench_is_reproducible() {
    let a = bench::run(5, &Params::default());
    let b = bench::run(5, &Params::default());
    assert_eq!(a.nodes, b.nodes);
    assert!(a.nodes > 0);
}

/// One bench thread is the plain bench; more threads search the same positions to the same
/// depth (their node count is not reproducible, so only its sanity is checked).
#[test]
fn bench_with_threads() {
    let one = bench::run_threads(4, &Params::default(), 1);
    assert_eq!(one.nodes, bench::run(4, &Params::default()).nodes);
    let two = bench::run_threads(4, &Params::default(), 2);
    assert!(two.nodes > 0);
}

/// Run by hand, never in CI (`.ci/run` skips `manual::`).
mod manual {
    use super::*;

    /// Speed measurement (release): `cargo test --release --test bench -- --ignored --nocapture`.
    #[test]
    #[ignore = "benchmark; run in release"]
    fn bench_speed() {
        let depth = std::env::var("BENCH_DEPTH").ok().and_then(|d| d.parse().ok()).unwrap_or(bench::DEFAULT_DEPTH);
        let r = bench::run(depth, &Params::default());
        println!("depth {depth}: {r} ({:.2} s)", r.elapsed.as_secs_f64());
    }
}
