//! The arena: plays games between UCI and xboard engines (matches, gauntlets, round robins) and
//! knows nothing of why they are played.
//!
//! Modelled on fastchess's `matchmaking/` over `engine/` and `pgn/`: the optimisers, objectives
//! and the Redis broker live in the `tuner` crate, which drives the arena from outside. Being a
//! crate of its own, the arena cannot import them: an arrow back would not compile.
//!
//! Layers, each importing only those below it:
//!
//! * [`runner`]: the match/gauntlet/round-robin scheduler, playing its units through an
//!   [`runner::Executor`] it is handed (local threads by default; the tuner's broker registers
//!   its own executor from outside);
//! * [`results`] (standings, resume journal) over [`stats`] (Elo, SPRT), and [`pgn_out`];
//! * [`game`]: one game, the rules first and [`adjudicate`] second, its end in [`outcome`];
//! * [`engine`]: engine processes (UCI, xboard) behind one client, and the specs that start them;
//! * [`openings`] (EPD, PGN, Polyglot, the built-in book, [`xz`]), [`tc`] (clocks), [`files`].

pub mod adjudicate;
pub mod engine;
pub mod files;
pub mod game;
pub mod openings;
pub mod outcome;
pub mod pgn_out;
pub mod results;
pub mod runner;
pub mod stats;
pub mod tc;
pub mod xz;
