//! `tuner datagen`: training positions from the engine's own games, for the Texel fit.
//!
//! Each game starts from an opening of a book (the built-in `openings/gnuchess-8ply.epd` by
//! default, or `--openings FILE`: EPD, PGN or Polyglot) plus `--random-plies` uniformly random
//! legal moves, drawn again while a search scores the start beyond `--max-start-score` (200 cp by
//! default: random moves hang pieces, and unfiltered starts skewed the results); every move after that is chosen by a node-limited search of the evochess library
//! run in-process ([`play`]), and the game ends by the rules of chess (mate, stalemate,
//! repetition, 50 moves, insufficient material) or by the match runner's adjudication
//! ([`arena::adjudicate`]: draw, resign, maximum moves, Syzygy with `--syzygy DIR`).
//!
//! Every searched position is recorded, with the search's score and the game's result, in
//! closed shards of compact game records ([`format`]: about 2 bytes a position), each shard
//! naming its run and each game checked by a checksum. Readers skip,
//! by default, positions in check and positions whose best move is a capture or a promotion
//! (their score is a tactic's outcome, which a static evaluation cannot match); `--keep-all`
//! keeps them, `--max-score CP` also skips positions scored beyond ±CP. The filter is stored in
//! each shard's header and applied by [`format::Shard::samples`], the iterator the Texel fit
//! reads, and by `tuner datagen export`, which prints one `FEN | score | result` line a
//! position: the score in centipawns from the side to move's view, the result from white's
//! view as 1.0, 0.5 or 0.0 (Ethereal's convention).
//!
//! Determinism: game `i` draws its opening and random plies from a generator seeded by
//! `(seed, i)` alone and its searches are single-threaded from cleared tables, and the writer
//! puts games into shards in index order; so the shards are the same bytes whatever
//! `--concurrency`. Resumability after `kill -9`: see [`run`]. A resumed run may raise
//! `--games`; a run that was already complete then continues in a new shard (its last shard was
//! closed short), so its shards differ from those of one longer run.
//!
//! Example (from any directory; the book is built in):
//!
//! ```text
//! tuner datagen --games 20000 --nodes 5000 --seed 1 --concurrency 2 --out data/selfplay
//! tuner datagen --games 40000 --nodes 5000 --seed 1 --concurrency 2 --out data/selfplay --resume
//! tuner datagen export data/selfplay/shard-00000.bin | head
//! ```

pub mod format;
pub mod play;
pub mod run;

use std::{
    io::{self, Write},
    path::Path,
};

use shakmaty::{EnPassantMode, fen::Fen};

pub use format::{Filter, GameRecord, Sample, Shard};
pub use run::{DatagenConfig, DatagenError, Summary};

/// Writes the `FEN | score | result` lines of `files` to `out` (the positions each shard's
/// filter keeps, or all of them with `all`). Returns the number of lines. Each shard is checked
/// whole before its first line is written, so a damaged one adds nothing.
///
/// # Errors
///
/// A file that is not a readable, intact shard (named with the byte offset), or a write error.
pub fn export(files: &[impl AsRef<Path>], all: bool, out: &mut impl Write) -> anyhow::Result<u64> {
    let mut lines = 0;
    for file in files {
        let shard = Shard::open(file.as_ref())?;
        let filter = if all { Filter::ALL } else { shard.filter };
        for record in shard.all_records()? {
            for (s, _) in record.game.positions(&filter).into_iter().filter(|(_, keep)| *keep) {
                let fen = Fen::from_position(&s.pos, EnPassantMode::Legal);
                writeln!(out, "{fen} | {} | {:.1}", s.score, s.result)?;
                lines += 1;
            }
        }
    }
    Ok(lines)
}

/// Whether `e` is a closed output pipe (`tuner datagen export ... | head`), which is no error.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
}
