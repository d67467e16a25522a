//! The coordinator's replay of a worker's games: an answer counts only when every game in it
//! is one the arena's game loop ([`arena::game`]) could have produced from the task.
//!
//! Each game is replayed from the task's opening with shakmaty: every move must be legal and
//! written as the arena writes it (UCI in standard castling notation, SAN), and the game must
//! stop exactly where the rules of chess or the spec's adjudication end it, with that result:
//! the adjudicator runs again on the recorded scores, the tablebases (when the spec names
//! them) on the coordinator's own copy. A game that ends in no such position ended at the
//! turn of the side said to lose it, for a reason the replay can only partly check:
//!
//! | result | accepted when |
//! | --- | --- |
//! | resignation, a false claim, rejecting a legal move | that side's engine speaks xboard (UCI engines do none of these) |
//! | a loss on time | that side plays on a clock or a time per move, and the recorded move times never ran its clock out before |
//! | an illegal or invalid move | the move named is not legal in the final position |
//! | a disconnection or stall | always (before the first move, either side may have failed to start) |
//! | a false draw claim | the claiming (xboard) side's last move gave no draw by the rules |
//!
//! Reasons are the arena's own words, on one line: a result whose text the game loop would not
//! write (a mate it calls a resignation, a reason with a line break) is refused.

use std::sync::Arc;

use arena::{
    adjudicate::{Adjudicator, side_name},
    engine::{client::Protocol, reply::BadMove, xboard},
    game::{GameRecord, rules_result},
    openings::Opening,
    outcome::{GameOutcome, GameResult, Termination},
    tc::Clock,
};
use shakmaty::{
    ByColor, CastlingMode, Chess, Color, EnPassantMode, Position, fen::Fen, san::SanPlus, uci::UciMove,
    zobrist::Zobrist64,
};
use shakmaty_syzygy::Tablebase;

use super::wire::{GamesAnswer, GamesSpec, GamesTask, RemoteEngine};

/// Longest result reason accepted (an engine's error message can be long, not unbounded).
pub const MAX_REASON_BYTES: usize = 4096;

/// Checks a worker's answer to a games task: one record per game of the task, none aborted,
/// the right engines in the right colours, each game replayed ([`check_game`]).
///
/// # Errors
/// What is wrong, naming the game.
pub fn check_games_answer(
    spec: &GamesSpec,
    task: &GamesTask,
    answer: &GamesAnswer,
    tb: Option<&Arc<Tablebase<Chess>>>,
) -> Result<(), String> {
    if answer.games.len() != task.games.len() {
        return Err(format!("{} games for a task of {}", answer.games.len(), task.games.len()));
    }
    let name = |i: usize| spec.engines.get(i).map_or("?", |e| e.name.as_str());
    for (n, (g, &(w, b))) in answer.games.iter().zip(&task.games).enumerate() {
        if (g.white_index, g.black_index) != (w, b) {
            return Err(format!(
                "game with engines {} v {}, the task asked for {w} v {b}",
                g.white_index, g.black_index
            ));
        }
        if g.white != name(w) || g.black != name(b) {
            return Err(format!("game between {:?} and {:?}, not {:?} and {:?}", g.white, g.black, name(w), name(b)));
        }
        if g.result.termination == Termination::Aborted {
            return Err("an aborted game".into());
        }
        if g.round != task.round || g.opening_index != task.opening_index {
            return Err(format!("game of round {} opening {}, not of the task's", g.round, g.opening_index));
        }
        check_game(spec, &task.opening, g, tb).map_err(|why| format!("game {} ({w} v {b}): {why}", n + 1))?;
    }
    Ok(())
}

/// Replays one game from `opening` under `spec` (see the module's table).
///
/// # Errors
/// The first thing the replay contradicts.
pub fn check_game(
    spec: &GamesSpec,
    opening: &Opening,
    g: &GameRecord,
    tb: Option<&Arc<Tablebase<Chess>>>,
) -> Result<(), String> {
    let engine = |i: usize| spec.engines.get(i).ok_or_else(|| format!("no engine {i} in the spec"));
    let (white, black) = (engine(g.white_index)?, engine(g.black_index)?);
    let engines = ByColor { white, black };
    check_record(opening, g, &engines)?;
    if let Some(r) = forfeit(opening, g) {
        return r;
    }
    let replayed = replay(spec, opening, g, tb, &engines)?;
    check_result(g, &engines, &replayed)
}

/// The record's own fields against the task and spec: its start position, its time controls,
/// and its reason's text.
fn check_record(opening: &Opening, g: &GameRecord, engines: &ByColor<&RemoteEngine>) -> Result<(), String> {
    if g.start_fen != opening.fen {
        return Err(format!("start position {:?}, the task's is {:?}", g.start_fen, opening.fen));
    }
    if g.white_tc != engines.white.limits.pgn_tag() || g.black_tc != engines.black.limits.pgn_tag() {
        return Err(format!("time controls {:?} and {:?}, not the spec's", g.white_tc, g.black_tc));
    }
    let reason = &g.result.reason;
    if reason.len() > MAX_REASON_BYTES {
        return Err(format!("a result reason of {} bytes (at most {MAX_REASON_BYTES})", reason.len()));
    }
    if reason.chars().any(char::is_control) {
        return Err(format!("a result reason with control characters: {}", evochess::one_line(reason)));
    }
    Ok(())
}

/// A game replayed to its last move.
struct Replayed {
    /// The final position.
    pos: Chess,
    /// How the rules or the adjudicator ended the game, and after which of its moves.
    ended: Option<(GameResult, usize)>,
    /// The rules' result after the last move, and who made it, for a draw claim made with it.
    last_ruled: Option<(Option<GameResult>, Color)>,
}

/// The position after the task's opening, with its hashes so far; the record's opening moves
/// must be the task's.
fn replay_opening(opening: &Opening, g: &GameRecord) -> Result<(Chess, Vec<Zobrist64>), String> {
    let mut pos = opening.start_position().map_err(|e| format!("the task's opening: {e}"))?;
    let mut history = vec![pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal)];
    let (mut sans, mut ucis) = (Vec::new(), Vec::new());
    for s in &opening.moves {
        let m = s
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
            .ok_or_else(|| format!("the task's opening move {s} is illegal"))?;
        ucis.push(m.to_uci(CastlingMode::Standard).to_string());
        sans.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
        history.push(pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal));
    }
    if g.opening_uci != ucis || g.opening_san != sans {
        return Err("opening moves that are not the task's".into());
    }
    Ok((pos, history))
}

/// Replays the opening, then the game's moves: each legal, written as the arena writes it,
/// within its side's clock, and none after the rules or the adjudicator ended the game; the
/// final position must be the record's.
fn replay(
    spec: &GamesSpec,
    opening: &Opening,
    g: &GameRecord,
    tb: Option<&Arc<Tablebase<Chess>>>,
    engines: &ByColor<&RemoteEngine>,
) -> Result<Replayed, String> {
    let (mut pos, mut history) = replay_opening(opening, g)?;
    let mut adjudicator = Adjudicator::new(&spec.adjudication, tb.cloned());
    let mut clocks = ByColor { white: Clock::new(&engines.white.limits), black: Clock::new(&engines.black.limits) };
    let mut plies = opening.moves.len() as u32;
    let mut ended = rules_result(&pos, &history).map(|r| (r, 0));
    let mut last_ruled = None;
    for (i, mv) in g.moves.iter().enumerate() {
        let n = i + 1;
        if let Some((r, _)) = &ended {
            return Err(format!("move {n} ({}) after the game ended: {}", evochess::one_line(&mv.uci), r.reason));
        }
        let side = pos.turn();
        let m = mv
            .uci
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
            .ok_or_else(|| format!("move {n} ({}) is illegal in {}", evochess::one_line(&mv.uci), fen(&pos)))?;
        if mv.uci != m.to_uci(CastlingMode::Standard).to_string() {
            return Err(format!("move {n} ({}) is not in standard UCI notation", mv.uci));
        }
        if !clocks.get_mut(side).spend(std::time::Duration::from_millis(mv.time_ms)) {
            return Err(format!("move {n}: {}'s time ran out at it, yet the game went on", side_name(side)));
        }
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string();
        if mv.san != san {
            return Err(format!("move {n} written {:?}, not {san:?}", evochess::one_line(&mv.san)));
        }
        history.push(pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal));
        plies += 1;
        let ruled = rules_result(&pos, &history);
        ended = match &ruled {
            Some(r) => Some((r.clone(), n)),
            None => adjudicator.after_move(&pos, side, mv.score, plies).map(|r| (r, n)),
        };
        last_ruled = Some((ruled, side));
    }
    if g.final_fen != fen(&pos) {
        return Err(format!("final position {:?}, the moves give {:?}", evochess::one_line(&g.final_fen), fen(&pos)));
    }
    Ok(Replayed { pos, ended, last_ruled })
}

/// The error of a result the replay contradicts, and why, naming the final position.
fn contradicted(result: &GameResult, pos: &Chess, why: &str) -> Result<(), String> {
    Err(format!(
        "result {} ({:?}, {}) contradicted: {why} (final position {})",
        result.outcome.pgn(),
        result.termination,
        result.reason,
        fen(pos)
    ))
}

/// The record's result against the replay: a false draw claim made with the last move, else
/// the end the rules or the adjudicator gave, else an end the board does not show.
fn check_result(g: &GameRecord, engines: &ByColor<&RemoteEngine>, replayed: &Replayed) -> Result<(), String> {
    let Replayed { pos, ended, last_ruled } = replayed;
    let result = &g.result;
    let contradicts = |why: &str| contradicted(result, pos, why);
    // A false draw claim comes with the move, before the rules or the adjudicator are asked.
    if let Some((ruled, mover)) = last_ruled
        && *result
            == GameResult::loss(
                *mover,
                Termination::Adjudication,
                format!("{} makes a false draw claim", side_name(*mover)),
            )
    {
        if engines.get(*mover).proto != Protocol::Xboard {
            return contradicts("only xboard engines claim draws");
        }
        if ruled.as_ref().is_some_and(|r| r.outcome == GameOutcome::Draw) {
            return contradicts("the claim was true");
        }
        return Ok(());
    }
    if let Some((r, _)) = ended {
        return if r == result {
            Ok(())
        } else {
            contradicts(&format!("the game ended with {} ({})", r.outcome.pgn(), r.reason))
        };
    }
    check_unseen_end(g, engines, pos)
}

/// A game that ended at the turn of the side to move, by something the board does not show:
/// whether its result is one the arena gives there (see the module's table).
fn check_unseen_end(g: &GameRecord, engines: &ByColor<&RemoteEngine>, pos: &Chess) -> Result<(), String> {
    let result = &g.result;
    let reason = &result.reason;
    let contradicts = |why: &str| contradicted(result, pos, why);
    let stm = pos.turn();
    let who = side_name(stm);
    let loser = result.outcome.winner().map(|w| !w);
    let xboard_side = |c: Color| engines.get(c).proto == Protocol::Xboard;
    let rest = |prefix: &str| reason.strip_prefix(prefix);
    // Before the first move either side may fail to start its game; later, only the side to move.
    let sides: &[Color] = if g.moves.is_empty() { &[Color::White, Color::Black] } else { &[stm] };
    match result.termination {
        Termination::Normal => {
            if loser == Some(stm) && *reason == format!("{who} resigns") && xboard_side(stm) {
                return Ok(());
            }
            contradicts("the final position ends no game, and only an xboard engine to move can resign")
        }
        Termination::Adjudication => {
            if loser == Some(stm) && rest(&format!("{who} makes a false claim: ")).is_some() && xboard_side(stm) {
                return Ok(());
            }
            contradicts("no adjudication rule of the spec ends the game there")
        }
        Termination::TimeForfeit => {
            if loser != Some(stm) || *reason != format!("{who} loses on time") {
                return contradicts("only the side to move can lose on time, and as the arena says it");
            }
            if engines.get(stm).limits.is_untimed() {
                return contradicts(&format!("{who} plays without a clock or a time per move"));
            }
            Ok(())
        }
        Termination::IllegalMove => {
            if loser != Some(stm) && !g.moves.is_empty() {
                return contradicts("only the side to move can make an illegal move");
            }
            let said = rest(&format!("{who} makes an illegal move: "))
                .or_else(|| rest(&format!("{who} sends an invalid move: ")))
                .filter(|_| loser == Some(stm));
            let legal = |text: &str| match engines.get(stm).proto {
                Protocol::Uci => text.parse::<UciMove>().ok().is_some_and(|u| u.to_move(pos).is_ok()),
                Protocol::Xboard => !matches!(xboard::parse_move(pos, text), Err(BadMove::Illegal | BadMove::Invalid)),
            };
            // Before the first move either side may fail (its `ucinewgame` or `new`).
            let rejects = sides.iter().any(|&c| {
                loser == Some(c)
                    && xboard_side(c)
                    && rest(&format!("{} rejects a legal move: ", side_name(c))).is_some()
            });
            match said {
                Some(text) if legal(text) => contradicts(&format!("{text} is a legal move there")),
                Some(_) => Ok(()),
                None if rejects => Ok(()),
                None => contradicts("not an illegal move the arena reports"),
            }
        }
        Termination::Disconnect | Termination::Stall => {
            let named = sides.iter().any(|&c| loser == Some(c) && reason.starts_with(side_name(c)));
            if named { Ok(()) } else { contradicts("the side that failed must be the side to move and lose") }
        }
        Termination::Aborted => contradicts("an aborted game"),
    }
}

/// A game that never began because an engine failed to (re)start (the arena's forfeit record:
/// no opening moves, the start position as the final one): its check, or `None` for any other.
fn forfeit(opening: &Opening, g: &GameRecord) -> Option<Result<(), String>> {
    let r = &g.result;
    let both = r.reason == "both engines failed to start";
    let side = [Color::White, Color::Black]
        .into_iter()
        .find(|&c| r.reason.starts_with(&format!("{} failed to start: ", side_name(c))));
    if !(g.moves.is_empty() && g.opening_uci.is_empty() && r.termination == Termination::Disconnect)
        || !(both || side.is_some())
    {
        return None;
    }
    let start = opening.fen.as_deref().unwrap_or(arena::openings::START_FEN);
    if g.final_fen != start || !g.opening_san.is_empty() {
        return Some(Err(format!("a forfeit ({}) that does not stay at the start position", r.reason)));
    }
    let want = match side {
        Some(c) => GameOutcome::win_for(!c),
        None => GameOutcome::Draw,
    };
    Some(if r.outcome == want { Ok(()) } else { Err(format!("a forfeit ({}) scored {}", r.reason, r.outcome.pgn())) })
}

fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}
