//! The 1-ply search of David et al. §III-B, used in-process by `tuner evolve`:
//! play every legal move, evaluate the child statically, keep the best.
//!
//! [`bench_positions`] and [`bench_eval`] measure its speed (root positions per second and raw
//! evaluations per second); the `oneply_speed` test prints both for the WAC and perft suites:
//! `cargo test --release -p evochess --lib oneply_speed -- --ignored --nocapture`.

use std::time::{Duration, Instant};

use shakmaty::{Bitboard, Chess, Color, Move, Position, Role, attacks};

use crate::eval::{EvalParams, Evaluator};

/// Score of a child that is checkmate (beats any static evaluation).
const MATE: i32 = 1_000_000;

/// The move a 1-ply search chooses, or `None` without legal moves. Mate is preferred, stalemate
/// scores 0, ties keep the first move in generation order so results are deterministic.
pub fn best_move(pos: &Chess, params: &EvalParams) -> Option<Move> {
    best_move_with(pos, &Evaluator::new(params))
}

/// [`best_move`] with a prepared [`Evaluator`] (build it once per parameter set when searching
/// many positions).
pub fn best_move_with(pos: &Chess, eval: &Evaluator) -> Option<Move> {
    search(pos, eval).0
}

/// The chosen move and the number of children evaluated.
fn search(pos: &Chess, eval: &Evaluator) -> (Option<Move>, usize) {
    let moves = pos.legal_moves();
    let mut best: Option<(i32, Move)> = None;
    for &m in &moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let score = child_score(&child, eval);
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, m));
        }
    }
    (best.map(|(_, m)| m), moves.len())
}

/// Score of `child` from the parent's view: mate, stalemate or the negated static evaluation.
#[inline]
fn child_score(child: &Chess, eval: &Evaluator) -> i32 {
    let in_check = child.is_check();
    // Full move generation only when the cheap test cannot prove a legal reply exists.
    if (in_check || !has_unpinnable_move(child)) && child.legal_moves().is_empty() {
        return if in_check { MATE } else { 0 };
    }
    -eval.evaluate(child)
}

/// Cheap sufficient test (side to move not in check) for "has a legal move": a knight, bishop,
/// rook, queen or pawn off every line through its own king cannot be pinned, so any of its
/// pseudo-legal moves (pushes and captures, not en passant) is legal.
#[inline]
fn has_unpinnable_move(pos: &Chess) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let own = board.by_color(us);
    let Some(king) = board.king_of(us) else { return false };
    let free = own & !attacks::queen_attacks(king, Bitboard::EMPTY) & !board.kings();
    let occ = board.occupied();
    let targets = !own;
    let pawns = free & board.pawns();
    let single_pushes = match us {
        Color::White => Bitboard(pawns.0 << 8),
        Color::Black => Bitboard(pawns.0 >> 8),
    };
    if (single_pushes & !occ).any() {
        return true;
    }
    for sq in pawns {
        if (attacks::pawn_attacks(us, sq) & board.by_color(!us)).any() {
            return true;
        }
    }
    for sq in free & !board.pawns() {
        let reach = match board.role_at(sq) {
            Some(Role::Knight) => attacks::knight_attacks(sq),
            Some(Role::Bishop) => attacks::bishop_attacks(sq, occ),
            Some(Role::Rook) => attacks::rook_attacks(sq, occ),
            Some(Role::Queen) => attacks::queen_attacks(sq, occ),
            _ => Bitboard::EMPTY,
        };
        if (reach & targets).any() {
            return true;
        }
    }
    false
}

/// Throughput of [`best_move_with`] over a set of root positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OnePlyBench {
    /// Root positions searched (the set is cycled until `min_duration` passes).
    pub positions: u64,
    /// Children evaluated (one per legal move).
    pub evaluations: u64,
    pub seconds: f64,
}

impl OnePlyBench {
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.seconds.max(1e-9)
    }

    pub fn evaluations_per_second(&self) -> f64 {
        self.evaluations as f64 / self.seconds.max(1e-9)
    }
}

/// Runs the 1-ply search over `positions` (cycled) for at least `min_duration`.
pub fn bench_positions(positions: &[Chess], params: &EvalParams, min_duration: Duration) -> OnePlyBench {
    let eval = Evaluator::new(params);
    let (mut n, mut evals, mut sink) = (0u64, 0u64, 0usize);
    let start = Instant::now();
    while !positions.is_empty() && (n == 0 || start.elapsed() < min_duration) {
        for pos in positions {
            let (m, children) = search(pos, &eval);
            sink ^= m.map_or(0, |m| m.to() as usize);
            evals += children as u64;
            n += 1;
        }
    }
    std::hint::black_box(sink);
    OnePlyBench { positions: n, evaluations: evals, seconds: start.elapsed().as_secs_f64() }
}

/// Raw static evaluations per second of [`Evaluator::evaluate`] over `positions` (cycled) for at
/// least `min_duration`; returns (evaluations, seconds).
pub fn bench_eval(positions: &[Chess], params: &EvalParams, min_duration: Duration) -> (u64, f64) {
    let eval = Evaluator::new(params);
    let (mut n, mut sink) = (0u64, 0i32);
    let start = Instant::now();
    while !positions.is_empty() && (n == 0 || start.elapsed() < min_duration) {
        for _ in 0..16 {
            for pos in positions {
                sink = sink.wrapping_add(eval.evaluate(std::hint::black_box(pos)));
            }
            n += positions.len() as u64;
        }
    }
    std::hint::black_box(sink);
    (n, start.elapsed().as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{evaluate, tests::suite_positions};

    fn pos(fen: &str) -> Chess {
        crate::eval::tests::pos(fen)
    }

    #[test]
    fn takes_a_free_queen_and_mates() {
        let p = EvalParams::default();
        let m = best_move(&pos("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1"), &p).unwrap();
        assert_eq!(m.to_uci(shakmaty::CastlingMode::Standard).to_string(), "e4d5");
        // Back-rank mate beats winning a knight with gxh3.
        let m = best_move(&pos("6k1/5ppp/8/8/8/7n/6P1/R3K3 w - - 0 1"), &p).unwrap();
        assert_eq!(m.to_uci(shakmaty::CastlingMode::Standard).to_string(), "a1a8");
        assert_eq!(best_move(&pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), &p), None);
    }

    #[test]
    fn matches_free_function_and_is_deterministic() {
        let p = EvalParams::default();
        for pos in suite_positions().iter().take(60) {
            let a = best_move(pos, &p);
            // Reference: the free evaluate with first-best tie-breaking.
            let mut best: Option<(i32, Move)> = None;
            for m in pos.legal_moves() {
                let mut c = pos.clone();
                c.play_unchecked(m);
                let s = if c.is_checkmate() {
                    MATE
                } else if c.is_stalemate() {
                    0
                } else {
                    -evaluate(&c, &p)
                };
                if best.is_none_or(|(b, _)| s > b) {
                    best = Some((s, m));
                }
            }
            assert_eq!(a, best.map(|(_, m)| m));
            assert_eq!(a, best_move(pos, &p));
        }
    }

    #[test]
    fn quick_legal_move_test_is_sound_and_terminal_children_score_right() {
        let e = Evaluator::default();
        let mut checked = 0;
        for root in suite_positions().iter().take(120) {
            for m in root.legal_moves() {
                let mut c = root.clone();
                c.play_unchecked(m);
                if !c.is_check() && has_unpinnable_move(&c) {
                    assert!(!c.legal_moves().is_empty());
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000);
        assert_eq!(child_score(&pos("k7/8/1Q6/8/8/8/8/7K b - - 0 1"), &e), 0);
        assert_eq!(child_score(&pos("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"), &e), MATE);
        // A lone king boxed in by its own pawns still has a pawn move: not stalemate.
        assert!(has_unpinnable_move(&pos("k7/8/8/8/8/1p6/8/7K b - - 0 1")));
        assert!(!has_unpinnable_move(&pos("k7/8/8/8/8/8/8/7K b - - 0 1")));
    }

    /// Run by hand, never in CI (`.ci/run` skips `manual::`).
    mod manual {
        use super::*;

        /// Seconds of CPU this thread has used (utime + stime from /proc, 100 ticks/s); the machine
        /// may be shared, so rates per CPU second are the fairer figure.
        fn thread_cpu_seconds() -> Option<f64> {
            let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
            let after = &stat[stat.rfind(')')? + 2..];
            let f: Vec<&str> = after.split_whitespace().collect();
            let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
            Some(ticks / 100.0)
        }

        /// Speed report, run in release: positions/s of the 1-ply search and evaluations/s.
        #[test]
        #[ignore = "benchmark; run with --release --ignored --nocapture"]
        fn oneply_speed() {
            let positions = suite_positions();
            let p = EvalParams::default();
            let secs = std::env::var("ONEPLY_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(3.0);
            let cpu0 = thread_cpu_seconds();
            let b = bench_positions(&positions, &p, Duration::from_secs_f64(secs));
            if let (Some(a), Some(z)) = (cpu0, thread_cpu_seconds()) {
                println!("oneply per CPU second: {:.0} positions/s ({:.2} CPU s)", b.positions as f64 / (z - a), z - a);
            }
            println!(
                "oneply: {} positions ({} distinct), {} evaluations in {:.2}s: {:.0} positions/s, {:.0} children/s",
                b.positions,
                positions.len(),
                b.evaluations,
                b.seconds,
                b.positions_per_second(),
                b.evaluations_per_second()
            );
            let cpu0 = thread_cpu_seconds();
            let (n, s) = bench_eval(&positions, &p, Duration::from_secs_f64(secs));
            if let (Some(a), Some(z)) = (cpu0, thread_cpu_seconds()) {
                println!("evaluate per CPU second: {:.1} ns/eval ({:.2} CPU s)", (z - a) * 1e9 / n as f64, z - a);
            }
            println!(
                "evaluate: {n} evaluations in {s:.2}s: {:.0} evals/s, {:.1} ns/eval",
                n as f64 / s,
                s * 1e9 / n as f64
            );
            let free_start = Instant::now();
            let mut sink = 0i32;
            let reps = 200;
            for _ in 0..reps {
                for pos in &positions {
                    sink = sink.wrapping_add(evaluate(std::hint::black_box(pos), &p));
                }
            }
            std::hint::black_box(sink);
            let fs = free_start.elapsed().as_secs_f64();
            println!("free evaluate: {:.1} ns/eval", fs * 1e9 / (reps * positions.len()) as f64);
        }
    }
}
