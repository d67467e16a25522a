//! Texel's positions from `tuner datagen`'s self-play shards (the config's `data` key, instead
//! of `pgn`).
//!
//! Each entry of `data` is a shard file or a directory whose `shard-*.bin` files are read in
//! name order. Every position the shard's own filter keeps ([`Shard::samples`]: not in check,
//! best move not a capture or promotion) becomes a [`Labelled`] position with the game's result
//! *and* the search's score, so the gradient fit's target blends both by `[gradient] lambda`.
//!
//! Views: a shard stores the score from the side to move's view and the result from white's
//! view; [`Labelled`] holds both from the side to move's view, so the result is flipped
//! (`1 − result`) when black is to move and the score is kept as it is ([`labelled`]).
//!
//! The positions are *not* re-resolved through quiescence (unlike PGN positions): the shard's
//! filter has already dropped the positions whose score is a tactic's outcome, and the score
//! belongs to the recorded position: moving to a qsearch leaf would pair it with another
//! position (Ethereal likewise fits the stored positions, the ends of its searches' PVs).
//!
//! Split: each game record (in file order, then record order) goes to the validation set with
//! probability `test / (train + test)` under a generator seeded by `[positions] seed`, so the
//! two sets never share a game; each set's positions are then shuffled by the same seed and cut
//! to `[positions] train` and `test`. All kept positions are held in memory while splitting.

use std::path::PathBuf;

use rand::{Rng, SeedableRng, rngs::StdRng, seq::SliceRandom};
use shakmaty::{Color, Position};

use super::run::{Labelled, TexelError};
use crate::datagen::{Sample, Shard};

/// `sample` as Texel's [`Labelled`]: result and score from the side to move's view.
pub fn labelled(sample: &Sample) -> Labelled {
    let white = f64::from(sample.result);
    let result = if sample.pos.turn() == Color::White { white } else { 1.0 - white };
    Labelled { pos: sample.pos.clone(), result, score: Some(f64::from(sample.score)) }
}

/// The shard files `data` names: files as given, directories' `shard-*.bin` in name order.
pub fn shard_files(data: &[PathBuf]) -> Result<Vec<PathBuf>, TexelError> {
    let mut files = Vec::new();
    for entry in data {
        if entry.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(entry)
                .map_err(|e| TexelError::io(entry, e))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.is_file()
                        && p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.starts_with("shard-") && n.ends_with(".bin"))
                })
                .collect();
            if found.is_empty() {
                return Err(TexelError::Config(format!("data: {} holds no shard-*.bin file", entry.display())));
            }
            found.sort();
            files.extend(found);
        } else if entry.is_file() {
            files.push(entry.clone());
        } else {
            return Err(TexelError::Config(format!(
                "data: {} is neither a shard file nor a directory",
                entry.display()
            )));
        }
    }
    Ok(files)
}

/// Training and validation positions from `data`'s shards, split by game and capped at
/// `train`/`test` (see the module docs), and a key identifying the inputs (file names and
/// sizes) for the run's fingerprint.
pub fn selfplay_positions(
    data: &[PathBuf],
    train: usize,
    test: usize,
    seed: u64,
) -> Result<(Vec<Labelled>, Vec<Labelled>, String), TexelError> {
    let files = shard_files(data)?;
    let share = test as f64 / (train + test).max(1) as f64;
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut tr, mut va) = (Vec::new(), Vec::new());
    let mut key = String::from("datagen");
    for file in &files {
        let shard = Shard::open(file).map_err(|e| TexelError::Config(format!("data: {e}")))?;
        key.push_str(&format!(";{}:{}", file.display(), std::fs::metadata(file).map_or(0, |m| m.len())));
        for record in shard.records() {
            let (game, _) = record.map_err(|e| TexelError::Config(format!("data: {e}")))?;
            let set = if rng.random::<f64>() < share { &mut va } else { &mut tr };
            set.extend(game.positions(&shard.filter).iter().filter(|(_, keep)| *keep).map(|(s, _)| labelled(s)));
        }
    }
    tr.shuffle(&mut rng);
    va.shuffle(&mut rng);
    tr.truncate(train);
    va.truncate(test);
    Ok((tr, va, key))
}

#[cfg(test)]
mod tests {
    use evochess::{eval::Evaluator, params::Params};
    use shakmaty::{CastlingMode, Chess, fen::Fen};

    use super::*;
    use crate::texel::win_chance;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn datagen_views_become_the_side_to_moves() {
        // Black to move with an extra queen; black went on to win (0.0 from white's view) and
        // the search said +900 for the side to move (black).
        let p = pos("4k3/8/8/3q4/8/8/8/4K3 b - - 0 1");
        let mv = p.legal_moves()[0];
        let l = labelled(&Sample { pos: p.clone(), mv, score: 900, result: 0.0 });
        assert_eq!(l.result, 1.0, "black won: 1 for black, the side to move");
        assert_eq!(l.score, Some(900.0), "the score is already the side to move's");
        // The static evaluation (side to move's view) agrees in sign with both labels.
        let eval = f64::from(Evaluator::new(&Params::default().eval).evaluate(&l.pos));
        assert!(eval > 500.0, "{eval}");
        assert!(win_chance(1.0, eval) > 0.9 && win_chance(1.0, l.score.unwrap()) > 0.9);

        // The same game seen from white to move (white down a queen, lost): result 0 for white.
        let w = pos("4k3/8/8/3q4/8/8/8/4K3 w - - 0 1");
        let mv = w.legal_moves()[0];
        let l = labelled(&Sample { pos: w, mv, score: -880, result: 0.0 });
        assert_eq!((l.result, l.score), (0.0, Some(-880.0)));
        // A draw is ½ for either side.
        let mv = p.legal_moves()[0];
        let l = labelled(&Sample { pos: p, mv, score: 0, result: 0.5 });
        assert_eq!(l.result, 0.5);
    }

    #[test]
    fn shards_split_by_game_within_the_caps() {
        use arena::outcome::GameOutcome;
        use shakmaty::uci::UciMove;

        use crate::datagen::{Filter, GameRecord, format::header};

        // 40 white wins of 8 quiet plies each (knights out and back); game i starts at fullmove
        // 10·i + 1, so a position's game is its fullmove number / 10.
        let dir = std::env::temp_dir().join(format!("evochess-selfplay-split-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut bytes = header(&Filter { keep_in_check: false, keep_tactical: false, max_score: None });
        for i in 0..40u32 {
            let start = pos(&format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 {}", 10 * i + 1));
            let mut p = start.clone();
            let plies = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"]
                .iter()
                .map(|u| {
                    let mv = u.parse::<UciMove>().unwrap().to_move(&p).unwrap();
                    p.play_unchecked(mv);
                    (mv, 20)
                })
                .collect();
            GameRecord { index: u64::from(i), start, plies, outcome: GameOutcome::WhiteWins }.encode(&mut bytes);
        }
        let file = dir.join("shard-00000.bin");
        std::fs::write(&file, &bytes).unwrap();
        let game = |l: &Labelled| u32::from(l.pos.fullmoves()) / 10;
        let (train, test, _) = selfplay_positions(std::slice::from_ref(&dir), 1000, 250, 5).unwrap();
        assert_eq!(train.len() + test.len(), 320, "every position kept, no cap reached");
        assert!(!test.is_empty() && test.len() < train.len());
        assert!(train.iter().all(|t| test.iter().all(|v| game(t) != game(v))), "no game in both sets");
        // White won: 1 for white to move, 0 for black to move; the score is the mover's.
        assert!(train.iter().all(|l| l.result == if l.pos.turn() == Color::White { 1.0 } else { 0.0 }));
        assert!(train.iter().all(|l| l.score == Some(20.0)));
        let (train, test, _) = selfplay_positions(&[file], 50, 10, 5).unwrap();
        assert_eq!((train.len(), test.len()), (50, 10), "the caps");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
