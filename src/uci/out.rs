//! UCI output: typed responses implementing `Display`, and [`Out`], the shared line sink.
//!
//! Moves are always printed with `CastlingMode::Standard` (`e1g1`, never `e1h1`).

use std::{
    fmt,
    io::{self, Write},
    sync::{Arc, Mutex},
};

use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, Square, fen::Fen, zobrist::Zobrist64};

use crate::search::report::{BestMove, Bound, ScoreReport, SearchInfo};

/// Where protocol lines go: stdout in the binary, a buffer in tests. Cloned into the search
/// listener; each line is written under the lock and flushed, so lines from the search thread
/// and the command loop never interleave.
#[derive(Clone)]
pub struct Out(Arc<Mutex<dyn Write + Send>>);

impl Out {
    pub fn stdout() -> Out {
        Out(Arc::new(Mutex::new(io::stdout())))
    }

    pub fn new(w: impl Write + Send + 'static) -> Out {
        Out(Arc::new(Mutex::new(w)))
    }

    /// Writes `item` and a newline, then flushes. A closed stdout (the GUI went away) is not an
    /// error worth dying for here: the loop ends on stdin EOF anyway.
    pub fn line(&self, item: impl fmt::Display) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = writeln!(w, "{item}").and_then(|()| w.flush()) {
            log::debug!("cannot write to the GUI: {e}");
        }
    }

    /// `info string error: <err>`, cut to [`MAX_ERROR`] bytes: an error may quote its input
    /// (a FEN, a path), and a megabyte of input must not come back as a megabyte of reply.
    pub fn error(&self, err: impl fmt::Display) {
        let mut text = format!("error: {err}");
        if text.len() > MAX_ERROR {
            let total = text.len();
            let cut = (0..=MAX_ERROR).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
            text.truncate(cut);
            text.push_str(&format!("... ({total} bytes)"));
        }
        self.line(InfoString(&text));
    }
}

/// Longest error text sent to the GUI.
pub const MAX_ERROR: usize = 500;

/// A move in UCI notation.
pub struct UciMoveText(pub Move);

impl fmt::Display for UciMoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.to_uci(CastlingMode::Standard))
    }
}

/// `id name ...` and `id author ...`.
pub struct Id;

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "id name evochess {}", env!("CARGO_PKG_VERSION"))?;
        write!(f, "id author the evochess developers")
    }
}

/// `info string <text>`; the text is flattened to one line (TOML errors span several).
pub struct InfoString<'a>(pub &'a str);

impl fmt::Display for InfoString<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info string")?;
        // Other control bytes (NUL, ESC) may come from a file an error quotes: escaped.
        for word in self.0.split_whitespace() {
            write!(f, " {}", crate::printable(word))?;
        }
        Ok(())
    }
}

/// One search `info` line.
pub struct InfoLine<'a>(pub &'a SearchInfo);

impl fmt::Display for InfoLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let i = self.0;
        write!(f, "info depth {} seldepth {} multipv {} score ", i.depth, i.seldepth, i.multipv)?;
        match i.score {
            ScoreReport::Cp(cp) => write!(f, "cp {cp}")?,
            ScoreReport::Mate(m) => write!(f, "mate {m}")?,
        }
        match i.bound {
            Bound::Exact => {}
            Bound::Lower => f.write_str(" lowerbound")?,
            Bound::Upper => f.write_str(" upperbound")?,
        }
        write!(f, " nodes {} nps {} hashfull {} tbhits {} time {}", i.nodes, i.nps, i.hashfull, i.tbhits, i.time_ms)?;
        if !i.pv.is_empty() {
            f.write_str(" pv")?;
            for &m in &i.pv {
                write!(f, " {}", UciMoveText(m))?;
            }
        }
        Ok(())
    }
}

/// `bestmove X [ponder Y]`, or `bestmove 0000` without a legal move.
pub struct BestMoveLine<'a>(pub &'a BestMove);

impl fmt::Display for BestMoveLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.best {
            None => f.write_str("bestmove 0000"),
            Some(best) => {
                write!(f, "bestmove {}", UciMoveText(best))?;
                match self.0.ponder {
                    Some(p) => write!(f, " ponder {}", UciMoveText(p)),
                    None => Ok(()),
                }
            }
        }
    }
}

/// The `d` command: board diagram, FEN, Polyglot key and checkers.
pub struct BoardDiagram<'a>(pub &'a Chess);

impl fmt::Display for BoardDiagram<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pos = self.0;
        let board = pos.board();
        const RULE: &str = " +---+---+---+---+---+---+---+---+";
        writeln!(f, "{RULE}")?;
        for rank in (0..8u32).rev() {
            for file in 0..8u32 {
                let sq = Square::new(rank * 8 + file);
                let c = board.piece_at(sq).map_or(' ', |p| p.char());
                write!(f, " | {c}")?;
            }
            writeln!(f, " | {}", rank + 1)?;
            writeln!(f, "{RULE}")?;
        }
        writeln!(f, "   a   b   c   d   e   f   g   h")?;
        writeln!(f)?;
        writeln!(f, "Fen: {}", Fen::from_position(pos, EnPassantMode::Legal))?;
        let key: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
        writeln!(f, "Key: {:016X}", key.0)?;
        write!(f, "Checkers:")?;
        for sq in pos.checkers() {
            write!(f, " {sq}")?;
        }
        Ok(())
    }
}

/// The `eval` command's answer: static evaluation from both points of view.
pub struct EvalLine {
    pub turn: Color,
    /// Side-to-move relative centipawns, as `evaluate` returns them.
    pub cp: i32,
}

impl fmt::Display for EvalLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let white = if self.turn == Color::White { self.cp } else { -self.cp };
        write!(f, "Static evaluation: {} cp (side to move, {}), {} cp (white)", self.cp, self.turn, white)
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Role, uci::UciMove};

    use super::*;

    fn mv(pos: &Chess, uci: &str) -> Move {
        uci.parse::<UciMove>().unwrap().to_move(pos).unwrap()
    }

    fn info(score: ScoreReport, bound: Bound, pv: Vec<Move>) -> SearchInfo {
        SearchInfo {
            depth: 7,
            seldepth: 11,
            multipv: 1,
            score,
            bound,
            nodes: 12345,
            nps: 678,
            hashfull: 9,
            tbhits: 0,
            time_ms: 18,
            pv,
        }
    }

    #[test]
    fn info_lines() {
        let pos = Chess::default();
        let e4 = mv(&pos, "e2e4");
        assert_eq!(
            InfoLine(&info(ScoreReport::Cp(-35), Bound::Exact, vec![e4])).to_string(),
            "info depth 7 seldepth 11 multipv 1 score cp -35 nodes 12345 nps 678 hashfull 9 tbhits 0 time 18 pv e2e4"
        );
        assert_eq!(
            InfoLine(&info(ScoreReport::Mate(-2), Bound::Lower, vec![])).to_string(),
            "info depth 7 seldepth 11 multipv 1 score mate -2 lowerbound nodes 12345 nps 678 hashfull 9 tbhits 0 time 18"
        );
        assert!(InfoLine(&info(ScoreReport::Cp(1), Bound::Upper, vec![])).to_string().contains("cp 1 upperbound"));
    }

    #[test]
    fn castling_prints_king_to_g1() {
        let pos: Chess = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        // shakmaty accepts the king-takes-rook form too; we must still print e1g1 / e1c1.
        let short = mv(&pos, "e1h1");
        assert!(matches!(short, Move::Castle { .. }));
        let long = mv(&pos, "e1c1");
        let best = BestMove { best: Some(short), ponder: None };
        assert_eq!(BestMoveLine(&best).to_string(), "bestmove e1g1");
        assert_eq!(UciMoveText(long).to_string(), "e1c1");
    }

    #[test]
    fn bestmove_lines() {
        let pos = Chess::default();
        let e4 = mv(&pos, "e2e4");
        let mut after = pos.clone();
        after.play_unchecked(e4);
        let c5 = mv(&after, "c7c5");
        assert_eq!(
            BestMoveLine(&BestMove { best: Some(e4), ponder: Some(c5) }).to_string(),
            "bestmove e2e4 ponder c7c5"
        );
        assert_eq!(BestMoveLine(&BestMove { best: None, ponder: None }).to_string(), "bestmove 0000");
        let promo = Move::Normal {
            role: Role::Pawn,
            from: Square::B7,
            capture: Some(Role::Rook),
            to: Square::A8,
            promotion: Some(Role::Queen),
        };
        assert_eq!(UciMoveText(promo).to_string(), "b7a8q");
    }

    #[test]
    fn info_string_is_one_line() {
        assert_eq!(InfoString("error: bad\n  line 2\r\n").to_string(), "info string error: bad line 2");
        assert_eq!(InfoString("error: `a\0\x1b[2J`").to_string(), "info string error: `a\\x00\\x1b[2J`");
    }

    #[test]
    fn board_diagram() {
        let text = BoardDiagram(&Chess::default()).to_string();
        assert!(text.contains("| r | n | b | q | k | b | n | r | 8"), "{text}");
        assert!(text.contains("Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
        assert!(text.contains("Key: 463B96181691FC9C"));
        assert!(text.ends_with("Checkers:"));
    }

    #[test]
    fn eval_line() {
        let line = EvalLine { turn: Color::Black, cp: 25 }.to_string();
        assert_eq!(line, "Static evaluation: 25 cp (side to move, black), -25 cp (white)");
    }

    #[test]
    fn out_writes_whole_lines() {
        #[derive(Clone, Default)]
        struct Buf(Arc<Mutex<Vec<u8>>>);
        impl Write for Buf {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let buf = Buf::default();
        let out = Out::new(buf.clone());
        out.line("readyok");
        out.error("unknown command `x`");
        assert_eq!(
            String::from_utf8(buf.0.lock().unwrap().clone()).unwrap(),
            "readyok\ninfo string error: unknown command `x`\n"
        );
        buf.0.lock().unwrap().clear();
        out.error(format_args!("invalid FEN `{}`", "é".repeat(100_000)));
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert!(text.len() < MAX_ERROR + 100, "{}", text.len());
        assert!(text.ends_with("bytes)\n"), "{text}");
    }
}
