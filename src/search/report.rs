//! What a search tells the outside world: `info` lines ([`SearchInfo`]), the final
//! [`BestMove`], and the [`SearchListener`] they are delivered to. Front ends (the UCI loop,
//! `bench`, the tuner) depend on these types alone, not on the search's workings.

use shakmaty::Move;

use crate::score::{MATE, MATE_IN_MAX, TB_WIN, TB_WIN_IN_MAX, TB_WIN_REPORT};

/// Score as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreReport {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in N moves (negative: being mated).
    Mate(i32),
}

impl ScoreReport {
    /// UCI form of a root score ([`crate::score`]): mates in moves, TB wins as
    /// `cp 20000 - distance`, else centipawns.
    pub fn from_score(score: i32) -> ScoreReport {
        if score >= MATE_IN_MAX {
            ScoreReport::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_IN_MAX {
            ScoreReport::Mate(-((MATE + score) / 2))
        } else if score >= TB_WIN_IN_MAX {
            ScoreReport::Cp(TB_WIN_REPORT - (TB_WIN - score))
        } else if score <= -TB_WIN_IN_MAX {
            ScoreReport::Cp(-TB_WIN_REPORT + (TB_WIN + score))
        } else {
            ScoreReport::Cp(score)
        }
    }
}

/// Whether a reported score is exact or a bound from a failed aspiration window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One `info` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based index of the PV line (MultiPV).
    pub multipv: u32,
    pub score: ScoreReport,
    pub bound: Bound,
    pub nodes: u64,
    pub nps: u64,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    pub tbhits: u64,
    pub time_ms: u64,
    /// Legal from the searched position, move after move.
    pub pv: Vec<Move>,
}

/// The final answer of a search. `best == None` means no legal move (`bestmove 0000`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
}

/// Receives search output; called from the search thread.
pub trait SearchListener: Send {
    fn on_info(&mut self, info: &SearchInfo);
    /// Free-form diagnostics (`info string ...`).
    fn on_string(&mut self, _text: &str) {}
    fn on_bestmove(&mut self, best: &BestMove);
}

/// A listener that ignores everything (for silent in-process searches).
pub struct NullListener;

impl SearchListener for NullListener {
    fn on_info(&mut self, _info: &SearchInfo) {}
    fn on_bestmove(&mut self, _best: &BestMove) {}
}

#[cfg(test)]
mod tests {
    use super::ScoreReport;
    use crate::score::{TB_WIN_REPORT, mate_in, mated_in, tb_win_in};

    #[test]
    fn mate_reports_count_moves() {
        let report = ScoreReport::from_score;
        assert_eq!(report(mate_in(1)), ScoreReport::Mate(1));
        assert_eq!(report(mate_in(3)), ScoreReport::Mate(2));
        assert_eq!(report(mated_in(2)), ScoreReport::Mate(-1));
        assert_eq!(report(mated_in(0)), ScoreReport::Mate(0));
        assert_eq!(report(mated_in(4)), ScoreReport::Mate(-2));
        assert_eq!(report(tb_win_in(3)), ScoreReport::Cp(TB_WIN_REPORT - 3));
        assert_eq!(report(-tb_win_in(3)), ScoreReport::Cp(-TB_WIN_REPORT + 3));
        assert_eq!(report(57), ScoreReport::Cp(57));
    }
}
