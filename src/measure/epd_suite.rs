//! EPD test suites (WAC, ECM, ...): parse `bm`/`am` records and search each position.
//!
//! An EPD record is the first four FEN fields followed by `;`-terminated operations, e.g.
//! `2rr3k/pp3pp1/... w - - bm Qg6; id "WAC.001";`. Moves are SAN in the record's position.
//! Used by `evochess epd` and by the tuner's tactical fitness.

use std::{sync::atomic::AtomicBool, time::Instant};

use shakmaty::{CastlingMode, Chess, Move, fen::Fen, san::SanPlus};
use thiserror::Error;

use crate::{
    limits::Limits,
    params::Params,
    search::{Searcher, report::NullListener},
};

/// One test position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdEntry {
    /// The `id` operand, or `line N` when the record has none.
    pub id: String,
    pub pos: Chess,
    /// Best moves (`bm`): any of them solves the position.
    pub best: Vec<Move>,
    /// Moves to avoid (`am`).
    pub avoid: Vec<Move>,
}

/// Why an EPD line was rejected; names the line and the culprit.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum EpdError {
    #[error("line {line}: expected at least 4 FEN fields")]
    TooShort { line: usize },
    #[error("line {line}: invalid position `{fen}`: {reason}")]
    Position { line: usize, fen: String, reason: String },
    #[error("line {line}: `{op}` move `{san}` is not legal SAN here: {reason}")]
    Move { line: usize, op: String, san: String, reason: String },
    #[error("line {line}: record has neither `bm` nor `am`")]
    NoSolution { line: usize },
}

/// Parses one record; `line` (1-based) is used in errors and as the default id.
pub fn parse_epd_line(text: &str, line: usize) -> Result<EpdEntry, EpdError> {
    let text = text.trim();
    let mut fields = text.splitn(5, char::is_whitespace);
    let mut fen_fields = Vec::with_capacity(4);
    for _ in 0..4 {
        fen_fields.push(fields.next().filter(|f| !f.is_empty()).ok_or(EpdError::TooShort { line })?);
    }
    let ops = fields.next().unwrap_or("");
    let fen = format!("{} 0 1", fen_fields.join(" "));
    let pos: Chess = fen
        .parse::<Fen>()
        .map_err(|e| e.to_string())
        .and_then(|f| f.into_position(CastlingMode::Standard).map_err(|e| e.to_string()))
        .map_err(|reason| EpdError::Position { line, fen: fen.clone(), reason })?;
    let mut entry = EpdEntry { id: format!("line {line}"), pos, best: Vec::new(), avoid: Vec::new() };
    for op in split_ops(ops) {
        let op = op.trim();
        let (code, operand) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
        match code {
            "bm" | "am" => {
                for san in operand.split_whitespace() {
                    let m = san
                        .parse::<SanPlus>()
                        .map_err(|e| e.to_string())
                        .and_then(|s| s.san.to_move(&entry.pos).map_err(|e| e.to_string()))
                        .map_err(|reason| EpdError::Move {
                            line,
                            op: code.to_string(),
                            san: san.to_string(),
                            reason,
                        })?;
                    if code == "bm" { entry.best.push(m) } else { entry.avoid.push(m) }
                }
            }
            "id" => entry.id = operand.trim().trim_matches('"').to_string(),
            _ => {}
        }
    }
    if entry.best.is_empty() && entry.avoid.is_empty() {
        return Err(EpdError::NoSolution { line });
    }
    Ok(entry)
}

/// Splits operations on `;`, ignoring semicolons inside quoted strings.
fn split_ops(ops: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in ops.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                out.push(&ops[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !ops[start..].trim().is_empty() {
        out.push(&ops[start..]);
    }
    out
}

/// Parses a whole suite; blank lines and `#` comments are skipped.
pub fn parse_epd(text: &str) -> Result<Vec<EpdEntry>, EpdError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| parse_epd_line(l, i + 1))
        .collect()
}

/// Result of searching one suite position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdResult {
    pub id: String,
    pub best: Option<Move>,
    /// The best move is a `bm` move (when given) and not an `am` move.
    pub solved: bool,
    pub nodes: u64,
    pub time_ms: u64,
}

/// Searches every entry with `limits` (typically a movetime) from a cleared state, calling
/// `progress` after each position. The searcher is reused: `hash_mb` MiB, cleared per position.
pub fn solve_epd_suite(
    entries: &[EpdEntry],
    params: &Params,
    limits: &Limits,
    hash_mb: usize,
    mut progress: impl FnMut(&EpdResult),
) -> Vec<EpdResult> {
    let mut searcher = Searcher::new(params.clone(), hash_mb);
    let stop = AtomicBool::new(false);
    let mut results = Vec::with_capacity(entries.len());
    for e in entries {
        searcher.clear();
        let start = Instant::now();
        let best = searcher.search(&e.pos, &[], limits, &stop, &mut NullListener).best;
        let solved = best.is_some_and(|m| (e.best.is_empty() || e.best.contains(&m)) && !e.avoid.contains(&m));
        let r = EpdResult {
            id: e.id.clone(),
            best,
            solved,
            nodes: searcher.last_nodes(),
            time_ms: start.elapsed().as_millis() as u64,
        };
        progress(&r);
        results.push(r);
    }
    results
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_wac_style_records() {
        let e = parse_epd_line(r#"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";"#, 1)
            .unwrap();
        assert_eq!(e.id, "WAC.001");
        assert_eq!(e.best.len(), 1);
        assert_eq!(e.best[0].to_string(), "Qg3-g6");
        let e = parse_epd_line("6k1/8/8/8/8/8/8/4K2R w K - am O-O; id \"x;y\";", 3).unwrap();
        assert_eq!(e.id, "x;y");
        assert_eq!(e.avoid.len(), 1);
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(parse_epd_line("8/8/8 w", 4), Err(EpdError::TooShort { line: 4 }));
        let e = parse_epd_line("4k3/8/8/8/8/8/8/4K3 w - - bm Qh5;", 2).unwrap_err();
        assert!(matches!(e, EpdError::Move { line: 2, ref san, .. } if san == "Qh5"), "{e}");
        assert!(e.to_string().contains("Qh5"));
        assert_eq!(parse_epd_line("4k3/8/8/8/8/8/8/4K3 w - - id \"a\";", 9), Err(EpdError::NoSolution { line: 9 }));
    }
}
