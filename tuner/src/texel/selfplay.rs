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
//! Trust: every shard is read whole and checked before any of it is used ([`Shard::all_records`]:
//! checksums, end block, plausible records; errors name the file and the byte). The shards must
//! be one run's, each game once: a shard of another run (another run id; for format-1 shards,
//! which have none, another directory) or a game read twice (a shard listed twice, or copied) is
//! refused, unless `allow_mixed` (`--allow-mixed`), which reads several runs and each game once,
//! and says so. Two copies of one game that differ are refused always.
//!
//! Split: game `i` of run `r` goes to the validation set when a hash of `([positions] seed, r,
//! i)` falls below `test / (train + test)`, so all positions of a game (and any copy of it) are
//! on one side whatever the order of the files; each set's positions are then shuffled by the
//! seed and cut to `[positions] train` and `test`. All kept positions are held in memory while
//! splitting.

use std::{
    collections::{HashMap, hash_map::Entry},
    path::{Path, PathBuf},
};

use rand::{SeedableRng, rngs::StdRng, seq::SliceRandom};
use shakmaty::{Color, Position};

use super::{config::TexelError, labelled::Labelled};
use crate::{
    datagen::{Sample, Shard},
    hash::{fnv1a, mix64},
};

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

/// The run a shard belongs to, in words: its run id, or for a format-1 shard (which has none)
/// its directory.
fn run_of(shard: &Shard, file: &Path) -> String {
    match shard.origin() {
        Some(o) => format!("run {:016x}", o.run_id),
        None => {
            let dir = file.parent().unwrap_or(Path::new("."));
            let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
            format!("the format-1 run in {}", dir.display())
        }
    }
}

/// Whether game `index` of the run hashed `run` goes to the validation set: a draw from
/// `(seed, run, index)` alone, so every position of a game, and every copy of it, is on one side.
pub fn in_validation(seed: u64, run: u64, index: u64, share: f64) -> bool {
    let h = mix64(seed ^ mix64(run ^ mix64(index)));
    ((h >> 11) as f64 / (1u64 << 53) as f64) < share
}

/// Training and validation positions from `data`'s shards, split by game and capped at
/// `train`/`test` (see the module docs), and a key identifying the inputs (file names and
/// sizes) for the run's fingerprint. `allow_mixed` reads several runs' shards and each game once.
pub fn selfplay_positions(
    data: &[PathBuf],
    train: usize,
    test: usize,
    seed: u64,
    allow_mixed: bool,
) -> Result<(Vec<Labelled>, Vec<Labelled>, String), TexelError> {
    let files = shard_files(data)?;
    let share = test as f64 / (train + test).max(1) as f64;
    let (mut tr, mut va) = (Vec::new(), Vec::new());
    // Named for the split by game hash: checkpoints of the earlier split by record order differ.
    let mut key = String::from("datagen-split-by-game-hash");
    // Each run with the first file of it; each game with where it was read first.
    let mut runs: Vec<(String, &Path)> = Vec::new();
    let mut seen: HashMap<(u64, u64), (&Path, usize, u32)> = HashMap::new();
    let mut duplicates = 0u64;
    let bad = |e| TexelError::Config(format!("data: {e}"));
    for file in &files {
        let shard = Shard::open(file).map_err(bad)?;
        let records = shard.all_records().map_err(bad)?;
        key.push_str(&format!(";{}:{}", file.display(), std::fs::metadata(file).map_or(0, |m| m.len())));
        let run = run_of(&shard, file);
        if !runs.iter().any(|(r, _)| *r == run) {
            runs.push((run.clone(), file));
            if runs.len() > 1 && !allow_mixed {
                let (first, from) = &runs[0];
                return Err(TexelError::Config(format!(
                    "data: {} is a shard of {run}, {} one of {first}: a fit reads one run's shards unless \
                     told to mix them (--allow-mixed, or allow_mixed = true in the config)",
                    file.display(),
                    from.display()
                )));
            }
        }
        let run_hash = fnv1a(&run);
        for r in records {
            match seen.entry((run_hash, r.game.index)) {
                Entry::Occupied(o) => {
                    let &(first, offset, digest) = o.get();
                    let both = format!(
                        "game {} of {run} is in {}, byte {offset}, and in {}, byte {}",
                        r.game.index,
                        first.display(),
                        file.display(),
                        r.offset
                    );
                    if digest != r.digest {
                        return Err(TexelError::Config(format!("data: {both}, with different contents")));
                    }
                    if !allow_mixed {
                        return Err(TexelError::Config(format!(
                            "data: {both} (a shard read twice, or a copy); --allow-mixed reads each game once"
                        )));
                    }
                    duplicates += 1;
                    continue;
                }
                Entry::Vacant(v) => {
                    v.insert((file, r.offset, r.digest));
                }
            }
            let set = if in_validation(seed, run_hash, r.game.index, share) { &mut va } else { &mut tr };
            set.extend(r.game.positions(&shard.filter).iter().filter(|(_, keep)| *keep).map(|(s, _)| labelled(s)));
        }
    }
    if runs.len() > 1 || duplicates > 0 {
        let names: Vec<String> = runs.iter().map(|(r, f)| format!("{r} (from {})", f.display())).collect();
        log::warn!(
            "texel: mixing the shards of {} runs: {}; {duplicates} duplicated games read once (--allow-mixed)",
            runs.len(),
            names.join(", ")
        );
    }
    let mut rng = StdRng::seed_from_u64(seed);
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

        use crate::datagen::{
            Filter, GameRecord,
            format::{Origin, encode_shard},
        };

        // Two runs of 40 white wins of 8 quiet plies each (knights out and back), games 0 to 39
        // in both; game i of run r starts at fullmove 10·(40·r + i) + 1, so a position's game is
        // its fullmove number / 10.
        let dir = std::env::temp_dir().join(format!("evochess-selfplay-split-{}", std::process::id()));
        let shard = |r: u64| {
            let games: Vec<GameRecord> = (0..40u64)
                .map(|i| {
                    let start = pos(&format!(
                        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 {}",
                        10 * (40 * r + i) + 1
                    ));
                    let mut p = start.clone();
                    let plies = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"]
                        .iter()
                        .map(|u| {
                            let mv = u.parse::<UciMove>().unwrap().to_move(&p).unwrap();
                            p.play_unchecked(mv);
                            (mv, 20)
                        })
                        .collect();
                    GameRecord { index: i, start, plies, outcome: GameOutcome::WhiteWins }
                })
                .collect();
            let origin = Origin { run_id: 100 + r, params: 7, shard: 0, first_game: 0 };
            let run_dir = dir.join(format!("run{r}"));
            std::fs::create_dir_all(&run_dir).unwrap();
            let file = run_dir.join("shard-00000.bin");
            std::fs::write(&file, encode_shard(&Filter { keep_in_check: false, ..Filter::ALL }, &origin, &games))
                .unwrap();
            (run_dir, file)
        };
        let ((a, a_file), (b, _)) = (shard(0), shard(1));
        let game = |l: &Labelled| u32::from(l.pos.fullmoves()) / 10;
        let (train, test, _) = selfplay_positions(std::slice::from_ref(&a), 1000, 250, 5, false).unwrap();
        assert_eq!(train.len() + test.len(), 320, "every position kept, no cap reached");
        assert!(!test.is_empty() && test.len() < train.len());
        assert!(train.iter().all(|t| test.iter().all(|v| game(t) != game(v))), "no game in both sets");
        // White won: 1 for white to move, 0 for black to move; the score is the mover's.
        assert!(train.iter().all(|l| l.result == if l.pos.turn() == Color::White { 1.0 } else { 0.0 }));
        assert!(train.iter().all(|l| l.score == Some(20.0)));
        let (train, test, _) = selfplay_positions(std::slice::from_ref(&a_file), 50, 10, 5, false).unwrap();
        assert_eq!((train.len(), test.len()), (50, 10), "the caps");

        // Another run, or a shard read twice, only with allow_mixed; then every game once, and
        // each on one side.
        let two = [a.clone(), b.clone()];
        let e = selfplay_positions(&two, 1000, 250, 5, false).unwrap_err().to_string();
        assert!(e.contains("run 0000000000000065") && e.contains("allow-mixed"), "{e}");
        let twice = [a.clone(), a_file.clone()];
        let e = selfplay_positions(&twice, 1000, 250, 5, false).unwrap_err().to_string();
        assert!(e.contains("game 0 of run 0000000000000064 is in") && e.contains("byte "), "{e}");
        let all = [a.clone(), b, a_file];
        let (train, test, _) = selfplay_positions(&all, 1000, 250, 5, true).unwrap();
        assert_eq!(train.len() + test.len(), 640, "both runs, the copy read once");
        assert!(train.iter().all(|t| test.iter().all(|v| game(t) != game(v))), "no game in both sets");
        // Whatever the order of the files, a game's side is the same.
        let (train2, _, _) = selfplay_positions(&[all[1].clone(), all[0].clone()], 1000, 250, 5, true).unwrap();
        let sides = |t: &[Labelled]| t.iter().map(game).collect::<std::collections::BTreeSet<_>>();
        assert_eq!(sides(&train), sides(&train2));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
