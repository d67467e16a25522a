//! Genetic-algorithm tuner and UCI/xboard match runner for evochess.

pub mod adjudicate;
pub mod builtin;
pub mod cli;
pub mod coevolve;
pub mod engine;
pub mod engine_spec;
pub mod epd;
pub mod evolve;
pub mod ga;
pub mod game;
pub mod openings;
pub mod paths;
pub mod pgn_out;
pub mod pipeline;
pub mod quick;
pub mod results;
pub mod rrga;
pub mod runner;
pub mod search_evolve;
pub mod space;
pub mod stats;
pub mod tc;
pub mod transport;
pub mod uci_client;
pub mod xboard_client;
pub mod xz;
