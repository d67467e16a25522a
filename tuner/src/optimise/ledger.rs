//! The opening ledger of a run: every opening it may play, drawn without replacement.
//!
//! A node-limited single-thread game is deterministic: the same opening, colours, engines and
//! budget give the same game, so a run that plays an opening twice counts one game twice and
//! inflates every statistic built on it (issue 89 measured the gate's LLR inflated ~2.3× so).
//! The ledger takes one seeded permutation of a book of `book` openings and splits it into
//! disjoint named streams, in order: the reserved confirmation slice first (the run never draws
//! from it; the confirmation match after the run plays it), then the gate's, then racing's.
//! Each stream has a cursor; [`Ledger::draw`] hands out the next openings and refuses, naming
//! the stream, when it is exhausted. The ledger serializes with its cursors for the checkpoint.
//!
//! The permutation is the one the match runner draws itself: [`arena::openings::OpeningBook`]
//! with `order=random` shuffles the book with the match's seed, and `start=` picks the first
//! index. So a [`Draw`] is a 1-based `start` and a count: the match that plays it takes
//! [`Draw::openings`] and the ledger's seed as its `seed`, and plays its game pairs on openings
//! `start`, `start + 1`, ... (the runner gives every encounter of a round the same opening, so
//! the candidates of a round share them). [`Ledger::book_index`] turns a position back into the
//! book's line, for [`Played`], which holds that no (opening, colours, engines, budget) is
//! played twice in a run.

use std::{
    collections::BTreeSet,
    ops::Range,
    path::{Path, PathBuf},
};

use arena::openings::{OpeningsConfig, Order};
use rand::{SeedableRng, rngs::StdRng, seq::SliceRandom};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The confirmation slice's stream.
pub const CONFIRMATION: &str = "confirmation";
pub const GATE: &str = "gate";
pub const RACING: &str = "racing";

/// Why openings cannot be handed out.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum LedgerError {
    #[error("opening ledger: the streams need {needed} openings; the book has {book}")]
    TooSmall { needed: usize, book: usize },
    #[error("opening ledger: stream `{0}` is declared twice")]
    Duplicate(String),
    #[error("opening ledger: no stream `{0}`")]
    Unknown(String),
    #[error(
        "opening ledger: stream `{stream}` is exhausted: {asked} openings asked, {left} left of {size} \
         (openings are never played twice in a run; give the stream more of the book)"
    )]
    Exhausted { stream: String, asked: usize, left: usize, size: usize },
    #[error("opening ledger: stream `{0}` is reserved (the run never plays it)")]
    Reserved(String),
    #[error("opening ledger: a draw of no openings from `{0}`")]
    Empty(String),
    #[error("game repeated in one run: opening {} (book line), {} (White) vs {} (Black) at {}", .0.opening + 1, .0.white, .0.black, .0.budget)]
    Repeated(GameKey),
}

/// A stream to declare: `size` openings, `reserved` if the run must never draw from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamSpec {
    pub name: String,
    pub size: usize,
    pub reserved: bool,
}

/// A stream: positions `first..first + size` of the permutation, `cursor` of them handed out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stream {
    pub name: String,
    pub first: usize,
    pub size: usize,
    pub reserved: bool,
    pub cursor: usize,
}

/// Openings handed out: positions `start − 1 .. start − 1 + count` of the permutation of seed
/// `seed`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draw {
    pub stream: String,
    /// 1-based, as `start=` takes it.
    pub start: usize,
    pub count: usize,
    /// The match's seed, which fixes the runner's permutation.
    pub seed: u64,
}

impl Draw {
    /// The 0-based positions in the permutation.
    pub fn positions(&self) -> Range<usize> {
        self.start - 1..self.start - 1 + self.count
    }

    /// The match's openings: `file` in the ledger's order from this draw's first opening.
    pub fn openings(&self, base: &OpeningsConfig) -> OpeningsConfig {
        OpeningsConfig { order: Order::Random, start: self.start, ..base.clone() }
    }
}

/// A book's permutation split into streams.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ledger {
    /// The book and its number of openings (the permutation is of `0..book`).
    pub file: PathBuf,
    pub book: usize,
    pub seed: u64,
    pub streams: Vec<Stream>,
}

impl Ledger {
    /// Streams laid out in the order given, from the permutation's start.
    ///
    /// # Errors
    /// A stream declared twice, or more openings than the book has.
    pub fn new(file: &Path, book: usize, seed: u64, specs: &[StreamSpec]) -> Result<Ledger, LedgerError> {
        let mut streams: Vec<Stream> = Vec::with_capacity(specs.len());
        let mut first = 0usize;
        for s in specs {
            if streams.iter().any(|t| t.name == s.name) {
                return Err(LedgerError::Duplicate(s.name.clone()));
            }
            streams.push(Stream { name: s.name.clone(), first, size: s.size, reserved: s.reserved, cursor: 0 });
            first = first.saturating_add(s.size);
        }
        if first > book {
            return Err(LedgerError::TooSmall { needed: first, book });
        }
        Ok(Ledger { file: file.to_path_buf(), book, seed, streams })
    }

    /// Issue 89's layout: `confirmation` openings reserved, `gate` for the gate, and the rest
    /// of the book for racing.
    ///
    /// # Errors
    /// As [`Ledger::new`].
    pub fn standard(
        file: &Path,
        book: usize,
        seed: u64,
        confirmation: usize,
        gate: usize,
    ) -> Result<Ledger, LedgerError> {
        let racing = book.saturating_sub(confirmation.saturating_add(gate));
        let spec = |name: &str, size, reserved| StreamSpec { name: name.into(), size, reserved };
        Ledger::new(
            file,
            book,
            seed,
            &[spec(CONFIRMATION, confirmation, true), spec(GATE, gate, false), spec(RACING, racing, false)],
        )
    }

    fn stream(&self, name: &str) -> Result<&Stream, LedgerError> {
        self.streams.iter().find(|s| s.name == name).ok_or_else(|| LedgerError::Unknown(name.to_string()))
    }

    /// Openings of `stream` not yet handed out.
    ///
    /// # Errors
    /// An unknown stream.
    pub fn remaining(&self, stream: &str) -> Result<usize, LedgerError> {
        self.stream(stream).map(|s| s.size - s.cursor)
    }

    /// The next `count` openings of `stream`.
    ///
    /// # Errors
    /// An unknown or reserved stream, a draw of none, or fewer than `count` left.
    pub fn draw(&mut self, stream: &str, count: usize) -> Result<Draw, LedgerError> {
        let s = self.stream(stream)?;
        if s.reserved {
            return Err(LedgerError::Reserved(stream.to_string()));
        }
        if count == 0 {
            return Err(LedgerError::Empty(stream.to_string()));
        }
        let left = s.size - s.cursor;
        if count > left {
            return Err(LedgerError::Exhausted { stream: stream.to_string(), asked: count, left, size: s.size });
        }
        let start = s.first + s.cursor + 1;
        let seed = self.seed;
        if let Some(s) = self.streams.iter_mut().find(|s| s.name == stream) {
            s.cursor += count;
        }
        Ok(Draw { stream: stream.to_string(), start, count, seed })
    }

    /// Openings `offset..offset + count` of `stream`, whatever its cursor: for a run whose
    /// draws follow from its generation and round alone, so that a resumed run draws what the
    /// killed one did without keeping a cursor.
    ///
    /// # Errors
    /// An unknown or reserved stream, a draw of none, or one past the stream's end.
    pub fn slice(&self, stream: &str, offset: usize, count: usize) -> Result<Draw, LedgerError> {
        let s = self.stream(stream)?;
        if s.reserved {
            return Err(LedgerError::Reserved(stream.to_string()));
        }
        if count == 0 {
            return Err(LedgerError::Empty(stream.to_string()));
        }
        let left = s.size.saturating_sub(offset);
        if count > left {
            return Err(LedgerError::Exhausted { stream: stream.to_string(), asked: count, left, size: s.size });
        }
        Ok(Draw { stream: stream.to_string(), start: s.first + offset + 1, count, seed: self.seed })
    }

    /// The whole of a stream, whatever its cursor (the confirmation match plays the reserved
    /// slice after the run).
    ///
    /// # Errors
    /// An unknown or empty stream.
    pub fn whole(&self, stream: &str) -> Result<Draw, LedgerError> {
        let s = self.stream(stream)?;
        if s.size == 0 {
            return Err(LedgerError::Empty(stream.to_string()));
        }
        Ok(Draw { stream: stream.to_string(), start: s.first + 1, count: s.size, seed: self.seed })
    }

    /// The book's order for this ledger's seed: position `p` (0-based) is book line
    /// `permutation()[p]` (0-based), as the runner's `order=random` draws it.
    pub fn permutation(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.book).collect();
        order.shuffle(&mut StdRng::seed_from_u64(self.seed));
        order
    }

    /// The book lines (0-based) of a draw, from a [`Ledger::permutation`].
    pub fn book_lines(permutation: &[usize], draw: &Draw) -> Vec<usize> {
        permutation[draw.positions()].to_vec()
    }
}

/// One game of a run, as the determinism of node-limited games makes it: the same key is the
/// same game.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct GameKey {
    /// The book line (0-based).
    pub opening: usize,
    pub white: String,
    pub black: String,
    /// The limits per move (`nodes=25000`, `10+0.1`).
    pub budget: String,
}

/// The games a run has played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Played {
    games: BTreeSet<GameKey>,
}

impl Played {
    /// Records a game.
    ///
    /// # Errors
    /// [`LedgerError::Repeated`] if it was played before.
    pub fn record(&mut self, key: GameKey) -> Result<(), LedgerError> {
        if self.games.contains(&key) {
            return Err(LedgerError::Repeated(key));
        }
        self.games.insert(key);
        Ok(())
    }

    /// Records a game pair: `a` White then `b` White on one opening.
    ///
    /// # Errors
    /// As [`Played::record`].
    pub fn record_pair(&mut self, opening: usize, a: &str, b: &str, budget: &str) -> Result<(), LedgerError> {
        let key = |white: &str, black: &str| GameKey {
            opening,
            white: white.into(),
            black: black.into(),
            budget: budget.into(),
        };
        self.record(key(a, b))?;
        self.record(key(b, a))
    }

    pub fn len(&self) -> usize {
        self.games.len()
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use arena::openings::OpeningBook;

    use super::*;

    fn book() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../openings/gnuchess-8ply.epd")
    }

    #[test]
    fn streams_are_disjoint_slices_of_one_permutation_and_run_out_loudly() {
        let mut l = Ledger::standard(&book(), 200, 11, 50, 30).unwrap();
        assert_eq!(l.remaining(RACING), Ok(120));
        let a = l.draw(RACING, 7).unwrap();
        let b = l.draw(RACING, 3).unwrap();
        let g = l.draw(GATE, 30).unwrap();
        assert_eq!((a.start, a.count, b.start, g.start), (81, 7, 88, 51));
        assert_eq!(l.whole(CONFIRMATION).unwrap().positions(), 0..50);
        assert_eq!(l.draw(CONFIRMATION, 1), Err(LedgerError::Reserved(CONFIRMATION.into())));
        let e = l.draw(GATE, 1).unwrap_err();
        assert_eq!(e, LedgerError::Exhausted { stream: GATE.into(), asked: 1, left: 0, size: 30 });
        assert!(e.to_string().contains("`gate` is exhausted"), "{e}");
        assert_eq!(l.draw(RACING, 0), Err(LedgerError::Empty(RACING.into())));
        assert_eq!(l.draw("racin", 1), Err(LedgerError::Unknown("racin".into())));
        assert_eq!(l.remaining(RACING), Ok(110));
        // A slice at a fixed offset is the draw a cursor at that offset gives, cursor untouched.
        assert_eq!(l.slice(RACING, 7, 3).unwrap(), b);
        assert_eq!(l.remaining(RACING), Ok(110));
        assert!(matches!(l.slice(RACING, 118, 3), Err(LedgerError::Exhausted { left: 2, .. })));
        assert_eq!(l.slice(CONFIRMATION, 0, 1), Err(LedgerError::Reserved(CONFIRMATION.into())));
        assert_eq!(l.slice(GATE, 0, 0), Err(LedgerError::Empty(GATE.into())));
        // Every position handed out (or reserved) once.
        let mut seen = BTreeSet::new();
        for d in [l.whole(CONFIRMATION).unwrap(), a, b, g, l.draw(RACING, 110).unwrap()] {
            for p in d.positions() {
                assert!(seen.insert(p), "position {p} twice");
            }
        }
        assert_eq!(seen.len(), 200);
        let e = Ledger::standard(&book(), 200, 11, 150, 60).unwrap_err();
        assert_eq!(e, LedgerError::TooSmall { needed: 210, book: 200 });
        let dup = StreamSpec { name: "a".into(), size: 1, reserved: false };
        assert_eq!(Ledger::new(&book(), 9, 1, &[dup.clone(), dup]), Err(LedgerError::Duplicate("a".into())));
    }

    #[test]
    fn the_cursors_survive_a_checkpoint() {
        let mut l = Ledger::standard(&book(), 200, 11, 50, 30).unwrap();
        l.draw(RACING, 5).unwrap();
        let mut back: Ledger = serde_json::from_str(&serde_json::to_string(&l).unwrap()).unwrap();
        assert_eq!(back, l);
        assert_eq!(back.draw(RACING, 2).unwrap(), l.draw(RACING, 2).unwrap());
    }

    #[test]
    fn a_draw_is_what_the_runner_plays_from_its_start_index() {
        let mut l = Ledger::standard(&book(), 200, 23, 50, 30).unwrap();
        l.draw(RACING, 4).unwrap();
        let d = l.draw(RACING, 5).unwrap();
        let base = OpeningsConfig::parse(&[format!("file={}", book().display())]).unwrap();
        let cfg = d.openings(&base);
        let runner = OpeningBook::load(&cfg, d.seed).unwrap();
        assert_eq!(runner.len(), Some(200), "the ledger's book size is the file's");
        let lines = arena::openings::read_epd(&book()).unwrap();
        let ours = Ledger::book_lines(&l.permutation(), &d);
        for (k, &line) in ours.iter().enumerate() {
            // Game pair k of the match is on book line `line`.
            assert_eq!(runner.get(k as u64), lines[line], "pair {k}");
        }
    }

    #[test]
    fn a_repeated_game_is_refused() {
        let mut p = Played::default();
        p.record_pair(4, "anchor", "g1c0", "nodes=25000").unwrap();
        p.record_pair(4, "anchor", "g1c1", "nodes=25000").unwrap();
        p.record_pair(4, "anchor", "g1c0", "nodes=50000").unwrap();
        assert_eq!(p.len(), 6);
        let e = p.record_pair(4, "g1c0", "anchor", "nodes=25000").unwrap_err();
        assert!(e.to_string().contains("opening 5 (book line), g1c0 (White) vs anchor (Black) at nodes=25000"), "{e}");
    }
}
