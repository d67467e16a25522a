//! One self-play game in-process: the opening, random plies, then a node-limited search of the
//! evochess library for every move, until the rules of chess or the adjudicator end it.
//!
//! In-process is what makes the harness cheap: no pipes, no UCI text, no process per engine;
//! the searcher's table and histories are cleared at the start of each game, so a game depends
//! only on its opening, its random generator and the settings (one search thread: exactly
//! deterministic).

use std::sync::{Arc, atomic::AtomicBool};

use arena::{
    adjudicate::{AdjudicationConfig, Adjudicator},
    engine::uci::Score,
    game::rules_result,
    openings::Opening,
};
use evochess::{
    limits::Limits,
    search::{
        Searcher,
        report::{BestMove, ScoreReport, SearchInfo, SearchListener},
    },
};
use rand::{Rng, rngs::StdRng};
use shakmaty::{Chess, EnPassantMode, Position, zobrist::Zobrist64};
use shakmaty_syzygy::Tablebase;

use super::format::{GameRecord, MATE_SCORE};

/// How every game of a run is played.
#[derive(Clone, Debug)]
pub struct PlaySettings {
    /// Node limit of each move's search.
    pub nodes: u64,
    /// Uniformly random legal moves played after the opening, before the recorded game.
    pub random_plies: usize,
    /// A start (opening plus random plies) whose search scores it beyond ±this many centipawns
    /// is drawn again: random moves hang pieces, and the side to move after the walk collects
    /// them, so unfiltered starts skew the results (measured: a third of the games began above
    /// +300 for white, who then scored 61%).
    pub max_start_score: Option<u32>,
    pub adjudication: AdjudicationConfig,
}

/// A finished game and the nodes its searches took.
pub struct PlayedGame {
    pub record: GameRecord,
    pub nodes: u64,
}

/// Keeps the score of the last `info` line of the first PV.
#[derive(Default)]
struct LastScore(Option<ScoreReport>);

impl SearchListener for LastScore {
    fn on_info(&mut self, info: &SearchInfo) {
        if info.multipv == 1 {
            self.0 = Some(info.score);
        }
    }
    fn on_bestmove(&mut self, _best: &BestMove) {}
}

/// The stored score of a reported one (see the format docs).
fn stored(score: ScoreReport) -> i32 {
    match score {
        ScoreReport::Cp(cp) => cp,
        ScoreReport::Mate(m) if m > 0 => MATE_SCORE - m,
        ScoreReport::Mate(m) => -(MATE_SCORE + m),
    }
}

/// The opening's position after up to `plies` random legal moves that do not end the game and,
/// with `max_score`, that a search of `settings.nodes` scores within ±`max_score`; `rng` draws
/// the moves. A walk that fails is drawn again (100 tries, then the opening position itself).
fn random_start(searcher: &mut Searcher, opening: &Chess, settings: &PlaySettings, rng: &mut StdRng) -> Chess {
    for _ in 0..100 {
        let mut pos = opening.clone();
        for _ in 0..settings.random_plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            pos.play_unchecked(legal[rng.random_range(0..legal.len())]);
        }
        if pos.legal_moves().is_empty() || pos.halfmoves() >= 100 {
            continue;
        }
        match settings.max_start_score {
            Some(bound) if !within(searcher, &pos, settings.nodes, bound) => continue,
            _ => return pos,
        }
    }
    opening.clone()
}

/// Whether a fresh search of `nodes` scores `pos` within ±`bound` centipawns (a mate is not).
fn within(searcher: &mut Searcher, pos: &Chess, nodes: u64, bound: u32) -> bool {
    searcher.clear();
    let mut last = LastScore::default();
    searcher.search(pos, &[], &Limits::nodes(nodes), &AtomicBool::new(false), &mut last);
    matches!(last.0, Some(ScoreReport::Cp(cp)) if cp.unsigned_abs() <= bound)
}

/// Plays game `index` from `opening`. `searcher` is the worker's own (cleared here).
///
/// # Errors
///
/// An opening that is illegal or already over, named with its FEN and moves.
pub fn play_game(
    searcher: &mut Searcher,
    settings: &PlaySettings,
    tablebase: Option<Arc<Tablebase<Chess>>>,
    opening: &Opening,
    index: u64,
    rng: &mut StdRng,
) -> Result<PlayedGame, String> {
    let name = || format!("opening {} {}", opening.fen.as_deref().unwrap_or("startpos"), opening.moves.join(" "));
    let (mut pos, moves) = opening.replay().map_err(|e| format!("{}: {e}", name()))?;
    for m in moves {
        pos.play_unchecked(m);
    }
    if pos.legal_moves().is_empty() {
        return Err(format!("{}: the game is already over", name()));
    }
    let start = random_start(searcher, &pos, settings, rng);
    searcher.clear();
    let mut pos = start.clone();
    let key = |p: &Chess| p.zobrist_hash::<Zobrist64>(EnPassantMode::Legal);
    let mut history = vec![key(&pos)];
    let mut keys: Vec<u64> = Vec::new();
    let mut adjudicator = Adjudicator::new(&settings.adjudication, tablebase);
    let limits = Limits::nodes(settings.nodes);
    let stop = AtomicBool::new(false);
    let (mut plies, mut nodes) = (Vec::new(), 0u64);
    let outcome = loop {
        if let Some(r) = rules_result(&pos, &history) {
            break r.outcome;
        }
        let mut last = LastScore::default();
        let best = searcher.search(&pos, &keys, &limits, &stop, &mut last);
        nodes += searcher.last_nodes();
        let mv = best.best.expect("a position the rules did not end has a legal move");
        let report = last.0.unwrap_or(ScoreReport::Cp(0));
        plies.push((mv, stored(report)));
        let mover = pos.turn();
        keys.push(history.last().expect("the start is in the history").0);
        pos.play_unchecked(mv);
        history.push(key(&pos));
        if rules_result(&pos, &history).is_some() {
            continue; // the rules decide before any adjudication
        }
        let score = match report {
            ScoreReport::Cp(cp) => Score::Cp(cp),
            ScoreReport::Mate(m) => Score::Mate(m),
        };
        let game_ply = 2 * (pos.fullmoves().get() - 1) + u32::from(pos.turn() == shakmaty::Color::Black);
        if let Some(r) = adjudicator.after_move(&pos, mover, Some(score), game_ply) {
            break r.outcome;
        }
    };
    Ok(PlayedGame { record: GameRecord { index, start, plies, outcome }, nodes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena::{adjudicate::MaxMovesRule, openings::parse_fen, outcome::GameOutcome};
    use evochess::params::Params;
    use rand::SeedableRng;

    fn settings(nodes: u64) -> PlaySettings {
        PlaySettings { nodes, random_plies: 4, max_start_score: None, adjudication: AdjudicationConfig::default() }
    }

    #[test]
    fn mate_scores_are_stored_beyond_any_evaluation() {
        assert_eq!(stored(ScoreReport::Mate(3)), MATE_SCORE - 3);
        assert_eq!(stored(ScoreReport::Mate(-2)), -(MATE_SCORE - 2));
        assert_eq!(stored(ScoreReport::Cp(-45)), -45);
    }

    #[test]
    fn a_game_is_a_function_of_its_seed_and_replays_legally() {
        let play = |seed| {
            let mut s = Searcher::new(Params::default(), 1);
            let mut cfg = settings(200);
            cfg.adjudication.maxmoves =
                Some(MaxMovesRule { moves: 30, result: arena::adjudicate::MaxMovesResult::Draw });
            play_game(&mut s, &cfg, None, &Opening::startpos(), 0, &mut StdRng::seed_from_u64(seed)).unwrap()
        };
        let (a, b, c) = (play(1), play(1), play(2));
        assert_eq!(a.record, b.record);
        assert_eq!(a.nodes, b.nodes);
        assert_ne!(a.record.start, c.record.start);
        assert!(a.nodes > 0 && !a.record.plies.is_empty());
        let mut pos = a.record.start.clone();
        for &(mv, _) in &a.record.plies {
            assert!(pos.is_legal(mv));
            pos.play_unchecked(mv);
        }
    }

    #[test]
    fn a_start_filter_keeps_only_starts_the_search_calls_balanced() {
        let mut s = Searcher::new(Params::default(), 1);
        let filtered = PlaySettings { random_plies: 8, max_start_score: Some(60), ..settings(500) };
        let unfiltered = PlaySettings { max_start_score: None, ..filtered.clone() };
        let (mut outside, mut differ) = (0, 0);
        for seed in 0..12 {
            let start = random_start(&mut s, &Chess::default(), &filtered, &mut StdRng::seed_from_u64(seed));
            assert!(within(&mut s, &start, 500, 60), "seed {seed}: {start:?}");
            let walk = random_start(&mut s, &Chess::default(), &unfiltered, &mut StdRng::seed_from_u64(seed));
            outside += usize::from(!within(&mut s, &walk, 500, 60));
            differ += usize::from(walk != start);
        }
        // Eight random plies often hang something: the filter has work to do.
        assert!(outside > 0 && differ >= outside, "{outside} unbalanced walks, {differ} redrawn");
    }

    #[test]
    fn a_mate_in_one_is_found_scored_and_ends_the_game() {
        let opening = Opening { fen: Some("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1".into()), moves: vec![] };
        let mut s = Searcher::new(Params::default(), 1);
        let cfg = PlaySettings { random_plies: 0, ..settings(2000) };
        let g = play_game(&mut s, &cfg, None, &opening, 5, &mut StdRng::seed_from_u64(0)).unwrap();
        assert_eq!(g.record.outcome, GameOutcome::WhiteWins);
        assert_eq!(g.record.plies.len(), 1);
        assert_eq!(g.record.plies[0].1, MATE_SCORE - 1);
        assert_eq!(g.record.index, 5);
    }

    #[test]
    fn an_opening_that_is_over_is_an_error() {
        let mated = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1";
        assert!(parse_fen(mated).is_ok());
        let opening = Opening { fen: Some(mated.into()), moves: vec![] };
        let mut s = Searcher::new(Params::default(), 1);
        let e = play_game(&mut s, &settings(100), None, &opening, 0, &mut StdRng::seed_from_u64(0)).err().unwrap();
        assert!(e.contains(mated) && e.contains("already over"), "{e}");
    }
}
