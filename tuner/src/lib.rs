//! Genetic-algorithm tuner for evochess: optimisers, objectives, the commands that run them and
//! the Redis broker. Games are played by the `arena` crate, which this crate drives and which
//! knows nothing of it (the broker plays a match's units through the arena's `Executor`).

pub mod broker;
pub mod chart;
pub mod cli;
pub mod coevolve;
pub mod csv;
pub mod datagen;
pub mod embedded_files;
pub mod epd;
pub mod evolve;
pub mod ga;
pub mod genome;
pub mod hash;
pub mod notation;
pub mod optimise;
pub mod paths;
pub mod pipeline;
pub mod progress;
pub mod promote;
pub mod quick_tournament;
pub mod round_robin_ga;
pub mod search_evolve;
pub mod signals;
pub mod space;
pub mod spsa;
pub mod texel;
