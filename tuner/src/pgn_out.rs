//! PGN of played games, cutechess style: the seven-tag roster, `FEN`/`SetUp` for non-standard
//! starts, `TimeControl`, `PlyCount`, `Termination`, `GameDuration`; book moves marked `{book}`,
//! engine moves commented `{+0.31/12 0.25s}`, the final comment giving the reason.

use std::fmt::Write as _;

use crate::game::GameRecord;

/// Escapes a tag value (PGN standard §8.1.1: backslash and quote).
fn tag_value(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A comment may not contain `}`.
fn comment(s: &str) -> String {
    s.replace('}', ")").replace('{', "(")
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

/// One game as PGN text, ending with a blank line.
pub fn game_to_pgn(g: &GameRecord, event: &str, site: &str) -> String {
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
        tokens.push(san.to_string());
        tokens.push(format!("{{{}}}", comment(&note)));
        if !white_to_move {
            fullmove += 1;
        }
        white_to_move = !white_to_move;
    };
    for san in &g.opening_san {
        push_move(&mut tokens, san, "book".to_string());
    }
    for m in &g.moves {
        let note = match m.score {
            Some(s) => format!("{}/{} {}s", s.pgn(), m.depth.unwrap_or(0), m.time_ms as f64 / 1000.0),
            None => format!("{}s", m.time_ms as f64 / 1000.0),
        };
        push_move(&mut tokens, &m.san, note);
    }
    tokens.push(format!("{{{}}}", comment(&g.result.reason)));
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

    #[test]
    fn dates() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400), "2000.02.29");
        assert_eq!(pgn_date(1_767_225_599), "2025.12.31");
    }
}
