//! PGN of played games, cutechess style: the seven-tag roster, `FEN`/`SetUp` for non-standard
//! starts, `TimeControl`, `PlyCount`, `Termination`, `GameDuration`; book moves marked `{book}`,
//! engine moves commented `{+0.31/12 0.25s}`, the final comment giving the reason.
//! [`PgnFormat`] selects fastchess's `notation=san|lan|uci` and cutechess's `min` (no comments).

use std::fmt::Write as _;

use shakmaty::{CastlingMode, Chess, Move, Position, fen::Fen, uci::UciMove};

use crate::game::GameRecord;

/// Move notation in written PGN (fastchess `notation=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Notation {
    /// Standard algebraic (`Nf3`), the PGN standard.
    #[default]
    San,
    /// Long algebraic (`Ng1-f3`, `e5xd6`, `e7-e8=Q`, `O-O`) with check marks.
    Lan,
    /// UCI coordinates (`g1f3`).
    Uci,
}

impl std::str::FromStr for Notation {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "san" => Ok(Notation::San),
            "lan" => Ok(Notation::Lan),
            "uci" => Ok(Notation::Uci),
            _ => Err(format!("notation `{s}`: expected san, lan or uci")),
        }
    }
}

/// How games are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PgnFormat {
    pub notation: Notation,
    /// Minimal movetext: no comments (cutechess `-pgnout FILE min`, fastchess `min=true`).
    pub min: bool,
}

/// `m` in long algebraic notation, with `+`/`#` from the position after it.
fn lan(pos: &Chess, m: Move) -> String {
    let mut text = match m {
        Move::Castle { king, rook } => (if rook.file() > king.file() { "O-O" } else { "O-O-O" }).to_string(),
        Move::EnPassant { from, to } => format!("{from}x{to}"),
        Move::Normal { role, from, capture, to, promotion } => {
            let piece = if role == shakmaty::Role::Pawn { String::new() } else { role.upper_char().to_string() };
            let sep = if capture.is_some() { 'x' } else { '-' };
            let promo = promotion.map_or(String::new(), |r| format!("={}", r.upper_char()));
            format!("{piece}{from}{sep}{to}{promo}")
        }
        Move::Put { role, to } => format!("{}@{to}", role.upper_char()),
    };
    let mut after = pos.clone();
    after.play_unchecked(m);
    if after.is_checkmate() {
        text.push('#');
    } else if after.is_check() {
        text.push('+');
    }
    text
}

/// The game's moves (book moves, then played ones) in long algebraic notation; `None` if they
/// do not replay from the start position (never for games the runner played).
fn lan_moves(g: &GameRecord) -> Option<Vec<String>> {
    let mut pos: Chess = match &g.start_fen {
        Some(f) => f.parse::<Fen>().ok()?.into_position(CastlingMode::Standard).ok()?,
        None => Chess::default(),
    };
    let mut out = Vec::new();
    for uci in g.opening_uci.iter().chain(g.moves.iter().map(|m| &m.uci)) {
        let m = uci.parse::<UciMove>().ok()?.to_move(&pos).ok()?;
        out.push(lan(&pos, m));
        pos.play_unchecked(m);
    }
    Some(out)
}

/// Escapes a tag value (PGN standard §8.1.1: backslash and quote).
fn tag_value(s: &str) -> String {
    // On one line: a name or reason may come from an engine or a worker's answer.
    evochess::one_line(s).replace('\\', "\\\\").replace('"', "\\\"")
}

/// A comment may not contain `}`, nor start a line of its own (a `[Tag` line, say): its text may
/// come from an engine or a worker's answer.
fn comment(s: &str) -> String {
    evochess::one_line(s).replace('}', ")").replace('{', "(")
}

/// `YYYY.MM.DD` of a Unix time (UTC), without a date library (H. Hinnant's `civil_from_days`).
pub fn pgn_date(unix: u64) -> String {
    let z = (unix / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

fn hms(ms: u64) -> String {
    let s = ms / 1000;
    format!("{:02}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
}

/// One game as PGN text (SAN, with comments), ending with a blank line.
pub fn game_to_pgn(g: &GameRecord, event: &str, site: &str) -> String {
    game_to_pgn_as(g, event, site, PgnFormat::default())
}

/// One game as PGN text in `format`, ending with a blank line.
pub fn game_to_pgn_as(g: &GameRecord, event: &str, site: &str, format: PgnFormat) -> String {
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| {
        let _ = writeln!(out, "[{k} \"{}\"]", tag_value(v));
    };
    tag("Event", event);
    tag("Site", site);
    tag("Date", &pgn_date(g.started_at));
    tag("Round", &(g.round + 1).to_string());
    tag("White", &g.white);
    tag("Black", &g.black);
    tag("Result", g.result.outcome.pgn());
    if let Some(fen) = &g.start_fen {
        tag("FEN", fen);
        tag("SetUp", "1");
    }
    if g.white_tc == g.black_tc {
        tag("TimeControl", &g.white_tc);
    } else {
        tag("WhiteTimeControl", &g.white_tc);
        tag("BlackTimeControl", &g.black_tc);
    }
    tag("PlyCount", &(g.opening_san.len() + g.moves.len()).to_string());
    tag("Termination", g.result.termination.pgn());
    tag("GameDuration", &hms(g.duration_ms));
    out.push('\n');

    // Move numbers follow the start position's side to move and full-move counter.
    let (mut fullmove, mut white_to_move) = match &g.start_fen {
        Some(f) => {
            let fields: Vec<&str> = f.split_whitespace().collect();
            (fields.get(5).and_then(|n| n.parse::<u32>().ok()).unwrap_or(1), fields.get(1) != Some(&"b"))
        }
        None => (1, true),
    };
    let mut tokens: Vec<String> = Vec::new();
    let mut first = true;
    let mut push_move = |tokens: &mut Vec<String>, san: &str, note: String| {
        if white_to_move {
            tokens.push(format!("{fullmove}."));
        } else if first {
            tokens.push(format!("{fullmove}..."));
        }
        first = false;
        // A game from a worker's answer is text from the broker: on one line too.
        tokens.push(evochess::one_line(san).into_owned());
        if !format.min {
            tokens.push(format!("{{{}}}", comment(&note)));
        }
        if !white_to_move {
            fullmove += 1;
        }
        white_to_move = !white_to_move;
    };
    let texts: Vec<String> = match format.notation {
        Notation::San => g.opening_san.iter().cloned().chain(g.moves.iter().map(|m| m.san.clone())).collect(),
        Notation::Uci => g.opening_uci.iter().cloned().chain(g.moves.iter().map(|m| m.uci.clone())).collect(),
        Notation::Lan => lan_moves(g)
            .unwrap_or_else(|| g.opening_uci.iter().cloned().chain(g.moves.iter().map(|m| m.uci.clone())).collect()),
    };
    let (book, played) = texts.split_at(g.opening_san.len().min(texts.len()));
    for text in book {
        push_move(&mut tokens, text, "book".to_string());
    }
    for (m, text) in g.moves.iter().zip(played) {
        let note = match m.score {
            Some(s) => format!("{}/{} {}s", s.pgn(), m.depth.unwrap_or(0), m.time_ms as f64 / 1000.0),
            None => format!("{}s", m.time_ms as f64 / 1000.0),
        };
        push_move(&mut tokens, text, note);
    }
    if !format.min {
        tokens.push(format!("{{{}}}", comment(&g.result.reason)));
    }
    tokens.push(g.result.outcome.pgn().to_string());

    // Wrap at 80 columns; comments may be split at spaces.
    let mut line = String::new();
    for t in tokens.iter().flat_map(|t| t.split(' ')) {
        if !line.is_empty() && line.len() + 1 + t.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        game::MoveRecord,
        outcome::{GameOutcome, GameResult, Termination},
    };

    /// Scholar's mate after a one-move book: 1. e4 {book} e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#.
    fn scholars_mate() -> GameRecord {
        let mv = |uci: &str, san: &str| MoveRecord {
            uci: uci.into(),
            san: san.into(),
            time_ms: 100,
            score: None,
            depth: None,
            latency_ms: None,
        };
        GameRecord {
            white: "a".into(),
            black: "b".into(),
            white_index: 0,
            black_index: 1,
            round: 0,
            game_number: 1,
            opening_index: 0,
            start_fen: None,
            opening_san: vec!["e4".into()],
            opening_uci: vec!["e2e4".into()],
            moves: vec![
                mv("e7e5", "e5"),
                mv("f1c4", "Bc4"),
                mv("b8c6", "Nc6"),
                mv("d1h5", "Qh5"),
                mv("g8f6", "Nf6"),
                mv("h5f7", "Qxf7#"),
            ],
            result: GameResult::new(GameOutcome::WhiteWins, Termination::Normal, "White mates"),
            final_fen: String::new(),
            white_tc: "1+0".into(),
            black_tc: "1+0".into(),
            started_at: 0,
            duration_ms: 1000,
            warnings: Vec::new(),
        }
    }

    fn movetext(pgn: &str) -> &str {
        pgn.split("\n\n").nth(1).unwrap().trim()
    }

    #[test]
    fn notations_and_minimal_movetext() {
        let g = scholars_mate();
        let min = |notation| game_to_pgn_as(&g, "e", "s", PgnFormat { notation, min: true });
        assert_eq!(movetext(&min(Notation::San)), "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0");
        assert_eq!(movetext(&min(Notation::Uci)), "1. e2e4 e7e5 2. f1c4 b8c6 3. d1h5 g8f6 4. h5f7 1-0");
        assert_eq!(movetext(&min(Notation::Lan)), "1. e2-e4 e7-e5 2. Bf1-c4 Nb8-c6 3. Qd1-h5 Ng8-f6 4. Qh5xf7# 1-0");
        let full = game_to_pgn(&g, "e", "s");
        assert!(full.contains("1. e4 {book} e5 {0.1s}") && full.contains("{White mates} 1-0"), "{full}");
        assert_eq!(full, game_to_pgn_as(&g, "e", "s", PgnFormat::default()));
        assert_eq!("LAN".parse::<Notation>(), Ok(Notation::Lan));
        assert!("fan".parse::<Notation>().unwrap_err().contains("san, lan or uci"));
    }

    #[test]
    fn lan_of_special_moves() {
        let pos = |fen: &str| fen.parse::<Fen>().unwrap().into_position::<Chess>(CastlingMode::Standard).unwrap();
        let text = |fen: &str, uci: &str| {
            let p = pos(fen);
            lan(&p, uci.parse::<UciMove>().unwrap().to_move(&p).unwrap())
        };
        assert_eq!(text("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"), "O-O");
        assert_eq!(text("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8"), "O-O-O");
        assert_eq!(text("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6"), "e5xd6");
        assert_eq!(text("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), "a7-a8=Q+");
    }

    #[test]
    fn dates() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400), "2000.02.29");
        assert_eq!(pgn_date(1_767_225_599), "2025.12.31");
    }
}
