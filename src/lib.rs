//! evochess: a UCI chess engine whose every evaluation and search parameter loads from TOML.
//!
//! The engine core runs without stdin/stdout: [`engine::Engine`] is the facade the UCI loop,
//! the tests, `bench` and the tuner all drive. Parameters are declared once in
//! [`params`] (see [`eval::params`] and [`search::params`]).

pub mod bench;
pub mod data;
pub mod engine;
pub mod eval;
pub mod limits;
pub mod movepick;
pub mod oneply;
pub mod params;
pub mod perft;
pub mod score;
pub mod search;
pub mod see;
pub mod tb;
pub mod timeman;
pub mod tt;
pub mod uci;

pub use engine::Engine;
pub use params::Params;
