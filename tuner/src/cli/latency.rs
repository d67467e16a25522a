//! `-show-latency` (fastchess): the think latency of every move, the time the runner measured
//! from `go` to `bestmove` less the time the engine reported in its last `info ... time` line
//! (what fastchess's `Match::playMove` logs as `Engine NAME latency: Lms (elapsed: E, reported: R)`).
//! The games carry it ([`arena::game::MoveRecord::latency_ms`], also from broker workers), so it
//! is read here from each finished game: a log line per move, and a summary per engine at the
//! end. Engines often round their time up by a millisecond, and the two clocks are read on
//! different threads, so a latency can be negative.

use arena::game::GameRecord;

/// One engine's latencies over the moves played in this run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineLatency {
    /// Moves with a reported time.
    pub moves: u64,
    pub total_ms: i64,
    pub min_ms: i64,
    pub max_ms: i64,
    /// Moves whose search reported no `time`.
    pub unreported: u64,
}

impl EngineLatency {
    fn add(&mut self, ms: i64) {
        if self.moves == 0 {
            (self.min_ms, self.max_ms) = (ms, ms);
        }
        self.moves += 1;
        // Saturating: the times come from the engine, which may report anything.
        self.total_ms = self.total_ms.saturating_add(ms);
        self.min_ms = self.min_ms.min(ms);
        self.max_ms = self.max_ms.max(ms);
    }
}

/// The latencies of every engine of a match, by its index in the configuration.
#[derive(Clone, Debug)]
pub struct Latencies {
    names: Vec<String>,
    engines: Vec<EngineLatency>,
}

impl Latencies {
    pub fn new(names: Vec<String>) -> Latencies {
        let engines = vec![EngineLatency::default(); names.len()];
        Latencies { names, engines }
    }

    /// Adds the moves of a finished game and returns its per-move lines.
    pub fn add(&mut self, g: &GameRecord) -> Vec<String> {
        let black_first = black_moves_first(g);
        let mut lines = Vec::new();
        for (i, m) in g.moves.iter().enumerate() {
            let index = if (i % 2 == 1) != black_first { g.black_index } else { g.white_index };
            let Some(stats) = self.engines.get_mut(index) else { continue };
            let name = &self.names[index];
            match m.latency_ms {
                Some(ms) => {
                    stats.add(ms);
                    lines.push(format!(
                        "game {}, move {} ({}): engine {name} latency: {ms}ms (elapsed: {}, reported: {})",
                        g.game_number,
                        i + 1,
                        m.uci,
                        m.time_ms,
                        (m.time_ms as i64).saturating_sub(ms)
                    ));
                }
                None => stats.unreported += 1,
            }
        }
        lines
    }

    /// The engine at `index`'s figures.
    pub fn of(&self, index: usize) -> Option<&EngineLatency> {
        self.engines.get(index)
    }

    /// A line per engine: mean, least and most latency over the moves played in this run.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        for (name, e) in self.names.iter().zip(&self.engines) {
            if e.moves == 0 {
                out.push_str(&format!("Latency of {name}: no move with a reported time (no `info ... time`)"));
            } else {
                out.push_str(&format!(
                    "Latency of {name}: mean {:.1} ms, min {} ms, max {} ms over {} moves",
                    e.total_ms as f64 / e.moves as f64,
                    e.min_ms,
                    e.max_ms,
                    e.moves
                ));
                if e.unreported > 0 {
                    out.push_str(&format!(" ({} more without a reported time)", e.unreported));
                }
            }
            out.push('\n');
        }
        out
    }
}

/// Whether Black makes the engines' first move: the side to move in the start FEN, turned by
/// each opening ply.
fn black_moves_first(g: &GameRecord) -> bool {
    let black_starts = g.start_fen.as_deref().and_then(|f| f.split_whitespace().nth(1)) == Some("b");
    black_starts != (g.opening_uci.len() % 2 == 1)
}

#[cfg(test)]
mod tests {
    use arena::{
        game::MoveRecord,
        outcome::{GameOutcome, GameResult, Termination},
    };

    use super::*;

    fn game(start_fen: Option<&str>, opening: usize, latencies: &[Option<i64>]) -> GameRecord {
        let moves = latencies
            .iter()
            .map(|&latency_ms| MoveRecord {
                uci: "e2e4".into(),
                san: "e4".into(),
                time_ms: 10,
                score: None,
                depth: None,
                latency_ms,
            })
            .collect();
        GameRecord {
            white: "w".into(),
            black: "b".into(),
            white_index: 1,
            black_index: 0,
            round: 0,
            game_number: 3,
            opening_index: 0,
            start_fen: start_fen.map(str::to_string),
            opening_san: vec![String::new(); opening],
            opening_uci: vec![String::new(); opening],
            moves,
            result: GameResult::new(GameOutcome::Draw, Termination::Normal, "x"),
            final_fen: String::new(),
            white_tc: String::new(),
            black_tc: String::new(),
            started_at: 0,
            duration_ms: 0,
            warnings: Vec::new(),
        }
    }

    #[test]
    fn moves_go_to_the_side_that_made_them() {
        let mut l = Latencies::new(vec!["zero".into(), "one".into()]);
        // White (engine 1) moves first: its moves are 1st and 3rd.
        let lines = l.add(&game(None, 0, &[Some(4), Some(-1), Some(6), None]));
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0], "game 3, move 1 (e2e4): engine one latency: 4ms (elapsed: 10, reported: 6)");
        assert!(lines[1].contains("engine zero latency: -1ms (elapsed: 10, reported: 11)"), "{}", lines[1]);
        assert_eq!(l.of(1), Some(&EngineLatency { moves: 2, total_ms: 10, min_ms: 4, max_ms: 6, unreported: 0 }));
        assert_eq!(l.of(0), Some(&EngineLatency { moves: 1, total_ms: -1, min_ms: -1, max_ms: -1, unreported: 1 }));
        // Black to move in the FEN, after one opening ply: White (engine 1) moves first again.
        let fen = "8/8/8/8/8/8/8/K6k b - - 0 1";
        let mut l = Latencies::new(vec!["zero".into(), "one".into()]);
        l.add(&game(Some(fen), 1, &[Some(2)]));
        assert_eq!(l.of(1).unwrap().moves, 1);
        // Black to move and no opening: engine 0 (Black) first.
        let mut l = Latencies::new(vec!["zero".into(), "one".into()]);
        l.add(&game(Some(fen), 0, &[Some(2)]));
        assert_eq!(l.of(0).unwrap().moves, 1);
    }

    #[test]
    fn the_summary_has_a_line_per_engine() {
        let mut l = Latencies::new(vec!["zero".into(), "one".into()]);
        l.add(&game(None, 0, &[Some(3), None, Some(5)]));
        let s = l.summary();
        assert_eq!(
            s,
            "Latency of zero: no move with a reported time (no `info ... time`)\n\
             Latency of one: mean 4.0 ms, min 3 ms, max 5 ms over 2 moves\n"
        );
        l.add(&game(None, 0, &[Some(1), Some(2), None, Some(0)]));
        // Engine 0 gets the 2nd and 4th moves, and had one move without a time before.
        assert!(l.summary().starts_with(
            "Latency of zero: mean 1.0 ms, min 0 ms, max 2 ms over 2 moves (1 more without a reported time)\n"
        ));
    }
}
