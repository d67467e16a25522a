//! `tuner openings`: builds a balanced EPD opening suite.
//!
//! Lines come from weighted random walks in a Polyglot book (`--book`, e.g. Debian's
//! gnuchess-book at /usr/share/games/gnuchess/book.bin) or from uniformly random legal moves.
//! A line's final position is kept when it is not decided (no mate, stalemate or check), is new,
//! and evochess's own evaluation, resolved by a capture search so that hanging pieces count,
//! lies within ±`--max-eval` centipawns. Every choice is drawn from `--seed`.

use std::{collections::HashSet, fmt::Write as _, path::PathBuf};

use anyhow::{Context as _, bail};
use clap::Args;
use evochess::{eval::evaluate, params::EvalParams};
use rand::{Rng, SeedableRng, rngs::StdRng};
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position, fen::Fen};

use arena::openings::{PolyglotBook, random_line};

#[derive(Args, Debug)]
pub struct OpeningsArgs {
    /// Polyglot book to walk (default: random legal moves).
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Plies per line (lines the book cannot extend that far are dropped).
    #[arg(long, default_value_t = 8)]
    pub plies: usize,
    /// Number of positions to write.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Keep positions whose evaluation is within ± this many centipawns.
    #[arg(long, default_value_t = 50)]
    pub max_eval: i32,
    /// Seed for all random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// evochess parameter file for the evaluation (default: built-in defaults).
    #[arg(long, value_name = "FILE")]
    pub params: Option<PathBuf>,
    /// Give up after this many candidate lines.
    #[arg(long, default_value_t = 1_000_000)]
    pub max_tries: usize,
    /// Output EPD file.
    #[arg(long, short, value_name = "FILE")]
    pub out: PathBuf,
}

const MATE: i32 = 30_000;

/// Quiescence search over captures and promotions (all evasions in check), alpha-beta,
/// side-to-move relative. Bounded depth keeps it cheap on wild positions.
pub fn qsearch(pos: &Chess, mut alpha: i32, beta: i32, params: &EvalParams, depth: u32) -> i32 {
    let in_check = pos.is_check();
    let moves = if in_check {
        pos.legal_moves()
    } else {
        let mut m = pos.capture_moves();
        m.extend(pos.promotion_moves().into_iter().filter(|p| !p.is_capture()));
        m
    };
    if in_check && moves.is_empty() {
        return -MATE;
    }
    let stand = evaluate(pos, params);
    if !in_check {
        if stand >= beta || depth == 0 {
            return stand;
        }
        alpha = alpha.max(stand);
    } else if depth == 0 {
        return stand;
    }
    for m in moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let score = -qsearch(&child, -beta, -alpha, params, depth - 1);
        if score >= beta {
            return score;
        }
        alpha = alpha.max(score);
    }
    alpha
}

/// One candidate line: `plies` moves from the start position, or `None` if it ends early.
fn candidate(book: Option<&PolyglotBook>, rng: &mut StdRng, plies: usize) -> Option<(Chess, Vec<String>)> {
    let mut pos = Chess::default();
    let mut line = Vec::new();
    match book {
        Some(b) => {
            let o = random_line(b, rng, plies);
            if o.moves.len() < plies {
                return None;
            }
            let (_, moves) = o.replay().ok()?;
            for m in moves {
                pos.play_unchecked(m);
            }
            line = o.moves;
        }
        None => {
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    return None;
                }
                let m = moves[rng.random_range(0..moves.len())];
                line.push(m.to_uci(CastlingMode::Standard).to_string());
                pos.play_unchecked(m);
            }
        }
    }
    Some((pos, line))
}

/// Runs `tuner openings`.
pub fn run(args: OpeningsArgs) -> anyhow::Result<()> {
    if args.plies == 0 || args.count == 0 {
        bail!("--plies and --count must be positive");
    }
    let params = match &args.params {
        Some(p) => evochess::Params::load(p)?.eval,
        None => EvalParams::default(),
    };
    let book = match &args.book {
        Some(p) => Some(PolyglotBook::open(p)?),
        None => None,
    };
    let mut rng = StdRng::seed_from_u64(args.seed);
    let mut seen = HashSet::new();
    let mut out = String::new();
    let mut kept = 0;
    let mut tries = 0;
    while kept < args.count {
        tries += 1;
        if tries > args.max_tries {
            bail!(
                "only {kept} of {} positions found in {} tries; relax --max-eval or --plies",
                args.count,
                args.max_tries
            );
        }
        let Some((pos, line)) = candidate(book.as_ref(), &mut rng, args.plies) else { continue };
        if pos.is_game_over() || pos.is_check() {
            continue;
        }
        let stm = qsearch(&pos, -MATE, MATE, &params, 8);
        if stm.abs() > args.max_eval {
            continue;
        }
        let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let key = fields[..4].join(" ");
        if !seen.insert(key.clone()) {
            continue;
        }
        let white = if pos.turn() == Color::White { stm } else { -stm };
        // EPD: `ce` is from the side to move (EPD standard); the comment keeps White's view.
        let _ = writeln!(
            out,
            "{key} hmvc {}; fmvn {}; ce {stm}; c0 \"{}\"; c1 \"white {white:+} cp\";",
            fields[4],
            fields[5],
            line.join(" ")
        );
        kept += 1;
    }
    std::fs::write(&args.out, out).with_context(|| format!("cannot write {}", args.out.display()))?;
    eprintln!("wrote {kept} positions to {} ({tries} candidate lines)", args.out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena::openings::parse_fen;

    #[test]
    fn qsearch_sees_hanging_pieces() {
        let p = EvalParams::default();
        // White to move can take an undefended queen.
        let pos = parse_fen("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1").unwrap();
        assert!(evaluate(&pos, &p) < -300);
        assert!(qsearch(&pos, -MATE, MATE, &p, 8) > 100);
        let quiet = Chess::default();
        assert_eq!(qsearch(&quiet, -MATE, MATE, &p, 8), evaluate(&quiet, &p));
    }
}
