//! One game between two engines (UCI or xboard): shakmaty position, hash history for
//! repetitions, clocks, the rules of chess first and adjudication second.
//!
//! A side that sends an illegal or unparsable move, crashes, stalls or oversteps its time loses,
//! with the reason recorded in the [`GameResult`] (and the PGN `Termination` tag); so does an
//! xboard engine that rejects a legal move or makes a false claim (see [`crate::engine::xboard`]).
//! A resignation ends the game normally. The caller restarts engines that are no longer
//! [`EngineClient::reusable`].

use std::{
    sync::atomic::{AtomicBool, Ordering},
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

use serde::{Deserialize, Serialize};
use shakmaty::{
    ByColor, CastlingMode, Chess, Color, EnPassantMode, KnownOutcome, Outcome, Position, fen::Fen, san::SanPlus,
    uci::UciMove, zobrist::Zobrist64,
};
use shakmaty_syzygy::Tablebase;
use std::sync::Arc;

use crate::{
    adjudicate::{AdjudicationConfig, Adjudicator, side_name},
    engine::{
        client::EngineClient,
        reply::{BadMove, Reply},
        transport::EngineError,
        uci::{Go, Score},
    },
    openings::Opening,
    outcome::{GameOutcome, GameResult, Termination},
    tc::{Clock, SearchLimits},
};

/// A move the engines played (opening moves are kept apart in [`GameRecord::opening_san`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    pub uci: String,
    pub san: String,
    pub time_ms: u64,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    /// The runner's time for the move less the engine's own, from its last `info ... time`
    /// (fastchess's think latency; negative when the engine reports more than was measured).
    /// `None` when the engine reported no time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<i64>,
}

/// Everything about a finished game: enough for PGN, EPD and the statistics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub white: String,
    pub black: String,
    /// Index of each engine in the match configuration.
    pub white_index: usize,
    pub black_index: usize,
    pub round: u32,
    /// 1-based game number within the match.
    pub game_number: u64,
    pub opening_index: u64,
    /// Start FEN; `None` is the standard start position.
    pub start_fen: Option<String>,
    pub opening_san: Vec<String>,
    pub opening_uci: Vec<String>,
    pub moves: Vec<MoveRecord>,
    pub result: GameResult,
    pub final_fen: String,
    pub white_tc: String,
    pub black_tc: String,
    /// Unix seconds at the start.
    pub started_at: u64,
    pub duration_ms: u64,
    /// What an engine did that it was not asked to (the runner warns once per engine and kind).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<SearchWarning>,
}

/// An engine not doing what its `go` asked, seen in one game: the signs of an engine that
/// ignores `go nodes` (it searches on until stopped, or answers at once with no move).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchWarning {
    pub engine: String,
    /// The `go` command it was sent.
    pub go: String,
    pub kind: SearchWarningKind,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SearchWarningKind {
    /// Its last `info ... nodes` was far past the `go nodes` limit ([`nodes_far_past`]).
    NodesOvershot { reported: u64 },
    /// No `bestmove` to an untimed search (`nodes=`/`depth=`) within the stall timeout; the game
    /// is lost as stalled.
    NoBestmove { waited_ms: u64 },
    /// A null move (`0000`, `(none)`) in a position with legal moves; the game is lost.
    NullMove { answer: String },
}

impl SearchWarningKind {
    /// The kind's name, one per variant: the runner warns once per engine and kind.
    pub fn key(&self) -> &'static str {
        match self {
            SearchWarningKind::NodesOvershot { .. } => "nodes",
            SearchWarningKind::NoBestmove { .. } => "stall",
            SearchWarningKind::NullMove { .. } => "null",
        }
    }
}

impl std::fmt::Display for SearchWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Escaped: a record may come from a remote worker, and a warning is one line.
        let (engine, go) = (evochess::one_line(&self.engine), evochess::one_line(&self.go));
        match &self.kind {
            SearchWarningKind::NodesOvershot { reported } => {
                write!(f, "{engine} does not obey `{go}`: it reported searching {reported} nodes")
            }
            SearchWarningKind::NoBestmove { waited_ms } => write!(
                f,
                "{engine} does not obey `{go}`: no bestmove within {} s (-stalltimeout), so it lost the game as \
                 stalled",
                *waited_ms as f64 / 1000.0
            ),
            SearchWarningKind::NullMove { answer } => write!(
                f,
                "{engine} answered `bestmove {}` to `{go}` in a position with legal moves, so it lost the game \
                 (engines that cannot search `go nodes` answer so)",
                evochess::one_line(answer)
            ),
        }
    }
}

/// Whether `reported` nodes are far past a `go nodes` `limit`: over twice the limit and 10,000
/// more. Engines check the limit every so many nodes and may overshoot a little; this much is
/// an engine that does not apply it.
pub fn nodes_far_past(limit: u64, reported: u64) -> bool {
    reported > limit.saturating_mul(2).saturating_add(10_000)
}

/// A move an engine sends for "no move": UCI's null move and the `(none)` of engines that find
/// nothing to search.
fn is_null_move(answer: &str) -> bool {
    matches!(answer.trim(), "0000" | "(none)")
}

/// What one game needs besides the two engines.
pub struct GameSetup<'a> {
    pub white_name: &'a str,
    pub black_name: &'a str,
    pub white_limits: &'a SearchLimits,
    pub black_limits: &'a SearchLimits,
    pub opening: &'a Opening,
    pub adjudication: &'a AdjudicationConfig,
    pub tablebase: Option<Arc<Tablebase<Chess>>>,
    /// How long an untimed (`nodes=`/`depth=`) search may take before the engine counts as stalled.
    pub stall_timeout: Duration,
    /// Set to abandon the game between moves (result [`Termination::Aborted`]).
    pub stop: Option<&'a AtomicBool>,
}

/// The result the rules of chess give `pos` (after `history` of position hashes, including it):
/// mate, stalemate, insufficient material, 50-move rule, threefold repetition. `None`: play on.
pub fn rules_result(pos: &Chess, history: &[Zobrist64]) -> Option<GameResult> {
    match pos.outcome() {
        Outcome::Known(KnownOutcome::Decisive { winner }) => {
            let reason = format!("{} mates", side_name(winner));
            return Some(GameResult::new(GameOutcome::win_for(winner), Termination::Normal, &reason));
        }
        Outcome::Known(KnownOutcome::Draw) => {
            let reason = if pos.is_stalemate() { "Draw by stalemate" } else { "Draw by insufficient mating material" };
            return Some(GameResult::new(GameOutcome::Draw, Termination::Normal, reason));
        }
        Outcome::Unknown => {}
    }
    // outcome() knows neither the 50-move rule nor repetition (STYLE pitfall).
    if pos.halfmoves() >= 100 {
        return Some(GameResult::new(GameOutcome::Draw, Termination::Normal, "Draw by fifty moves rule"));
    }
    if let Some(last) = history.last() {
        // Only positions since the last irreversible move can repeat.
        let window = (pos.halfmoves() as usize + 1).min(history.len());
        let count = history[history.len() - window..].iter().filter(|h| *h == last).count();
        if count >= 3 {
            return Some(GameResult::new(GameOutcome::Draw, Termination::Normal, "Draw by 3-fold repetition"));
        }
    }
    None
}

fn now_unix() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// Plays one game. Engine failures end the game with a loss for that side; this never panics
/// on engine misbehaviour and every wait is bounded.
pub fn play_game(white: &mut EngineClient, black: &mut EngineClient, setup: &GameSetup<'_>) -> GameRecord {
    let started_at = now_unix();
    let t0 = Instant::now();
    let mut record = GameRecord {
        white: setup.white_name.to_string(),
        black: setup.black_name.to_string(),
        white_index: 0,
        black_index: 0,
        round: 0,
        game_number: 0,
        opening_index: 0,
        start_fen: setup.opening.fen.clone(),
        opening_san: Vec::new(),
        opening_uci: Vec::new(),
        moves: Vec::new(),
        result: GameResult::new(GameOutcome::Draw, Termination::Aborted, "not started"),
        final_fen: String::new(),
        white_tc: setup.white_limits.pgn_tag(),
        black_tc: setup.black_limits.pgn_tag(),
        started_at,
        duration_ms: 0,
        warnings: Vec::new(),
    };
    let (pos, result) = run_moves(white, black, setup, &mut record);
    let token = if result.termination == Termination::Aborted { "*" } else { result.outcome.pgn() };
    for engine in [white, black] {
        engine.end_game(token, &result.reason);
    }
    record.result = result;
    record.final_fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
    record.duration_ms = t0.elapsed().as_millis() as u64;
    record
}

fn engine_failure(side: Color, e: &EngineError, timed: bool) -> GameResult {
    let who = side_name(side);
    match e {
        EngineError::Timeout { what: "bestmove" | "move", .. } if timed => {
            GameResult::loss(side, Termination::TimeForfeit, format!("{who} loses on time"))
        }
        EngineError::Timeout { what, .. } => {
            GameResult::loss(side, Termination::Stall, format!("{who}'s connection stalls (no {what})"))
        }
        EngineError::Disconnected { .. } => {
            GameResult::loss(side, Termination::Disconnect, format!("{who} disconnects"))
        }
        EngineError::Rejected { line, .. } => {
            GameResult::loss(side, Termination::IllegalMove, format!("{who} rejects a legal move: {line}"))
        }
        other => GameResult::loss(side, Termination::Disconnect, format!("{who}: {other}")),
    }
}

fn run_moves(
    white: &mut EngineClient,
    black: &mut EngineClient,
    setup: &GameSetup<'_>,
    record: &mut GameRecord,
) -> (Chess, GameResult) {
    let start = match setup.opening.start_position() {
        Ok(p) => p,
        Err(e) => {
            return (
                Chess::default(),
                GameResult::new(GameOutcome::Draw, Termination::Aborted, &format!("bad opening: {e}")),
            );
        }
    };
    let mut pos = start.clone();
    let mut history = vec![pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal)];
    let mut uci_moves: Vec<String> = Vec::new();
    for s in &setup.opening.moves {
        let m = match s
            .parse::<UciMove>()
            .map_err(|e| e.to_string())
            .and_then(|u| u.to_move(&pos).map_err(|e| e.to_string()))
        {
            Ok(m) => m,
            Err(e) => {
                let reason = format!("bad opening move {s}: {e}");
                return (pos, GameResult::new(GameOutcome::Draw, Termination::Aborted, &reason));
            }
        };
        record.opening_san.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
        record.opening_uci.push(m.to_uci(CastlingMode::Standard).to_string());
        uci_moves.push(m.to_uci(CastlingMode::Standard).to_string());
        history.push(pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal));
    }

    let limits = ByColor { white: setup.white_limits, black: setup.black_limits };
    for (side, engine) in [(Color::White, &mut *white), (Color::Black, &mut *black)] {
        if let Err(e) = engine.new_game(&start, limits.get(side)) {
            return (pos, engine_failure(side, &e, false));
        }
    }

    let fen = setup.opening.fen.as_deref();
    let mut clocks = ByColor { white: Clock::new(setup.white_limits), black: Clock::new(setup.black_limits) };
    let mut adjudicator = Adjudicator::new(setup.adjudication, setup.tablebase.clone());
    let mut plies = uci_moves.len() as u32;

    loop {
        if let Some(r) = rules_result(&pos, &history) {
            return (pos, r);
        }
        if setup.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return (pos, GameResult::new(GameOutcome::Draw, Termination::Aborted, "match stopped"));
        }
        let side = pos.turn();
        let engine: &mut EngineClient = if side == Color::White { white } else { black };
        let own = *limits.get(side);
        // Clocks only for an engine that plays on one; it gets whichever clocks exist.
        let go = if own.clock.is_some() {
            Go {
                wtime: limits.white.clock.map(|_| clocks.white.left_ms()),
                btime: limits.black.clock.map(|_| clocks.black.left_ms()),
                winc: limits.white.clock.map(|c| c.inc_ms),
                binc: limits.black.clock.map(|c| c.inc_ms),
                movestogo: clocks.get(side).movestogo(),
                movetime: None,
                nodes: own.nodes,
                depth: own.depth,
            }
        } else {
            Go { movetime: own.movetime_ms, nodes: own.nodes, depth: own.depth, ..Go::default() }
        };
        let deadline = clocks.get(side).deadline(setup.stall_timeout);
        let timed = !own.is_untimed();
        let who = side_name(side);
        let name = if side == Color::White { setup.white_name } else { setup.black_name };
        let mut warn = |kind| record.warnings.push(SearchWarning { engine: name.to_string(), go: go.command(), kind });
        let (found, claims_draw) = match engine.think(fen, &uci_moves, &go, deadline) {
            Ok(Reply::Move { found, claims_draw }) => (found, claims_draw),
            Ok(Reply::Resign) => return (pos, GameResult::loss(side, Termination::Normal, format!("{who} resigns"))),
            Ok(Reply::FalseClaim(claim)) => {
                let reason = format!("{who} makes a false claim: {}", evochess::one_line(&claim));
                return (pos, GameResult::loss(side, Termination::Adjudication, reason));
            }
            Err(e) => {
                if let EngineError::Timeout { what: "bestmove" | "move", .. } = e
                    && !timed
                {
                    warn(SearchWarningKind::NoBestmove { waited_ms: deadline.as_millis() as u64 });
                }
                return (pos, engine_failure(side, &e, timed));
            }
        };
        if let (Some(limit), Some(reported)) = (go.nodes, found.nodes)
            && nodes_far_past(limit, reported)
        {
            warn(SearchWarningKind::NodesOvershot { reported });
        }
        if is_null_move(&found.bestmove) {
            // The game goes on only while the side to move has a legal move.
            warn(SearchWarningKind::NullMove { answer: found.bestmove.clone() });
        }
        if !clocks.get_mut(side).spend(found.elapsed) {
            let reason = format!("{who} loses on time");
            return (pos, GameResult::loss(side, Termination::TimeForfeit, reason));
        }
        let m = match engine.parse_move(&pos, &found.bestmove) {
            Ok(m) => m,
            Err(BadMove::Illegal) => {
                let reason = format!("{who} makes an illegal move: {}", evochess::one_line(&found.bestmove));
                return (pos, GameResult::loss(side, Termination::IllegalMove, reason));
            }
            Err(BadMove::Invalid) => {
                let reason = format!("{who} sends an invalid move: {}", evochess::one_line(&found.bestmove));
                return (pos, GameResult::loss(side, Termination::IllegalMove, reason));
            }
        };
        let uci = m.to_uci(CastlingMode::Standard).to_string();
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string();
        history.push(pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal));
        uci_moves.push(uci.clone());
        plies += 1;
        record.moves.push(MoveRecord {
            uci,
            san,
            time_ms: found.elapsed.as_millis() as u64,
            score: found.score,
            depth: found.depth,
            // Saturating: an engine may report any number.
            latency_ms: found
                .reported_ms
                .map(|r| (found.elapsed.as_millis() as i64).saturating_sub(i64::try_from(r).unwrap_or(i64::MAX))),
        });
        let ruled = rules_result(&pos, &history);
        // A draw claim must be made true by the move it comes with (cutechess).
        if claims_draw && ruled.as_ref().is_none_or(|r| r.outcome != GameOutcome::Draw) {
            return (pos, GameResult::loss(side, Termination::Adjudication, format!("{who} makes a false draw claim")));
        }
        if ruled.is_some() {
            continue; // the rules decide before any adjudication
        }
        if let Some(r) = adjudicator.after_move(&pos, side, found.score, plies) {
            return (pos, r);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        engine::{
            transport::{ScriptReply, ScriptTransport, Timeouts},
            uci::UciClient,
        },
        openings::parse_fen,
    };

    /// A scripted engine that plays the moves of `line` whose turn it is (by ply index).
    fn scripted(moves: Vec<&'static str>, score: i32) -> EngineClient {
        scripted_info(moves, format!("score cp {score}"))
    }

    /// [`scripted`] with `info depth 1 {info}` before each move.
    fn scripted_info(moves: Vec<&'static str>, info: String) -> EngineClient {
        let mut ply = 0usize;
        let t = ScriptTransport::new(move |cmd| {
            let reply: Vec<String> = match cmd.split_whitespace().next() {
                Some("uci") => vec!["uciok".into()],
                Some("isready") => vec!["readyok".into()],
                Some("position") => {
                    ply = cmd.split_whitespace().skip_while(|t| *t != "moves").skip(1).count();
                    vec![]
                }
                Some("go") => match moves.get(ply) {
                    Some(m) => vec![format!("info depth 1 {info}"), format!("bestmove {m}")],
                    None => vec!["bestmove 0000".into()],
                },
                _ => vec![],
            };
            ScriptReply::Lines(reply)
        });
        let to = Timeouts { start: Duration::from_millis(100), ping: Duration::from_millis(100), quit: Duration::ZERO };
        EngineClient::Uci(UciClient::start("s", Box::new(t), to).unwrap())
    }

    fn play(line: Vec<&'static str>, opening: Opening, adj: AdjudicationConfig) -> GameRecord {
        let mut w = scripted(line.clone(), 0);
        let mut b = scripted(line, 0);
        let limits = SearchLimits { depth: Some(1), ..SearchLimits::default() };
        let setup = GameSetup {
            white_name: "w",
            black_name: "b",
            white_limits: &limits,
            black_limits: &limits,
            opening: &opening,
            adjudication: &adj,
            tablebase: None,
            stall_timeout: Duration::from_millis(200),
            stop: None,
        };
        play_game(&mut w, &mut b, &setup)
    }

    #[test]
    fn fools_mate() {
        let g = play(vec!["f2f3", "e7e5", "g2g4", "d8h4"], Opening::startpos(), AdjudicationConfig::default());
        assert_eq!(g.result.outcome, GameOutcome::BlackWins);
        assert_eq!(g.result.reason, "Black mates");
        assert_eq!(g.moves.last().unwrap().san, "Qh4#");
    }

    #[test]
    fn threefold_repetition_counts_opening_moves() {
        let opening = Opening { fen: None, moves: vec!["g1f3".into(), "g8f6".into()] };
        let line = vec!["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6"];
        let g = play(line, opening, AdjudicationConfig::default());
        assert_eq!(g.result.reason, "Draw by 3-fold repetition");
        assert_eq!(g.opening_san, vec!["Nf3", "Nf6"]);
        // The start position recurs after plies 4 and 8 (the opening counts): 6 engine moves.
        assert_eq!(g.moves.len(), 6);
    }

    #[test]
    fn illegal_and_null_moves_lose() {
        let g = play(vec!["e2e5"], Opening::startpos(), AdjudicationConfig::default());
        assert_eq!(g.result.outcome, GameOutcome::BlackWins);
        assert_eq!(g.result.termination, Termination::IllegalMove);
        assert_eq!(g.result.reason, "White makes an illegal move: e2e5");
        assert!(g.warnings.is_empty(), "{:?}", g.warnings);
        let g = play(vec!["e2e4"], Opening::startpos(), AdjudicationConfig::default());
        assert_eq!(g.result.outcome, GameOutcome::WhiteWins);
        assert_eq!(g.result.reason, "Black makes an illegal move: 0000");
        let null = SearchWarningKind::NullMove { answer: "0000".into() };
        assert_eq!(g.warnings, [SearchWarning { engine: "b".into(), go: "go depth 1".into(), kind: null }]);
        assert_eq!(
            g.warnings[0].to_string(),
            "b answered `bestmove 0000` to `go depth 1` in a position with legal moves, so it lost the game \
             (engines that cannot search `go nodes` answer so)"
        );
    }

    /// Engines that ignore `go nodes`: one reports far more nodes, one never answers.
    #[test]
    fn engines_ignoring_the_node_limit_are_recorded() {
        assert!(!nodes_far_past(1000, 12_000) && nodes_far_past(1000, 12_001));
        assert!(!nodes_far_past(u64::MAX, u64::MAX));
        let limits = SearchLimits { nodes: Some(1000), ..SearchLimits::default() };
        let adj = AdjudicationConfig::default();
        let opening = Opening::startpos();
        let setup = GameSetup {
            white_name: "greedy",
            black_name: "silent",
            white_limits: &limits,
            black_limits: &limits,
            opening: &opening,
            adjudication: &adj,
            tablebase: None,
            stall_timeout: Duration::from_millis(200),
            stop: None,
        };
        let mut w = scripted_info(vec!["e2e4"], "score cp 0 nodes 250000".into());
        let silent = ScriptTransport::new(|cmd| match cmd.split_whitespace().next() {
            Some("uci") => ScriptReply::Lines(vec!["uciok".into()]),
            Some("isready") => ScriptReply::Lines(vec!["readyok".into()]),
            _ => ScriptReply::Lines(vec![]),
        });
        let to = Timeouts { start: Duration::from_millis(100), ping: Duration::from_millis(100), quit: Duration::ZERO };
        let mut b = EngineClient::Uci(UciClient::start("s", Box::new(silent), to).unwrap());
        let g = play_game(&mut w, &mut b, &setup);
        assert_eq!(g.result.termination, Termination::Stall);
        assert_eq!(g.result.outcome, GameOutcome::WhiteWins);
        let kinds: Vec<_> = g.warnings.iter().map(|w| (w.engine.as_str(), w.go.as_str(), w.kind.clone())).collect();
        assert_eq!(
            kinds,
            [
                ("greedy", "go nodes 1000", SearchWarningKind::NodesOvershot { reported: 250_000 }),
                ("silent", "go nodes 1000", SearchWarningKind::NoBestmove { waited_ms: 200 }),
            ]
        );
        assert_eq!(
            g.warnings[1].to_string(),
            "silent does not obey `go nodes 1000`: no bestmove within 0.2 s (-stalltimeout), so it lost the game as \
             stalled"
        );
    }

    #[test]
    fn mate_beats_fifty_move_rule_and_adjudication() {
        let pos = parse_fen("7k/5Q2/6K1/8/8/8/8/8 w - - 99 80").unwrap();
        let mut p = pos.clone();
        p.play_unchecked("f7g7".parse::<UciMove>().unwrap().to_move(&pos).unwrap());
        let h = vec![p.zobrist_hash::<Zobrist64>(EnPassantMode::Legal)];
        assert_eq!(rules_result(&p, &h).unwrap().reason, "White mates");
        let fifty = parse_fen("7k/8/8/8/8/8/1R6/K7 b - - 100 80").unwrap();
        assert_eq!(rules_result(&fifty, &h).unwrap().reason, "Draw by fifty moves rule");
        let fen = "7k/8/8/6K1/8/8/8/8 b - - 0 80";
        assert_eq!(rules_result(&parse_fen(fen).unwrap(), &h).unwrap().reason, "Draw by insufficient mating material");
        let stale = parse_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 80").unwrap();
        assert_eq!(rules_result(&stale, &h).unwrap().reason, "Draw by stalemate");
    }

    #[test]
    fn castling_is_sent_in_standard_notation() {
        let opening = Opening {
            fen: Some("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1".into()),
            moves: vec!["e1h1".into()],
        };
        let g = play(vec![], opening, AdjudicationConfig::default());
        assert_eq!(g.opening_uci, vec!["e1g1"]);
        assert_eq!(g.opening_san, vec!["O-O"]);
    }
}
