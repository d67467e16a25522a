//! Engine code run in-process by the tuner's fitness functions (and by `evochess epd` and
//! `bench-oneply`), kept apart from the engine's own search so that the search reads as a
//! chess engine's and these read as measurements:
//! * [`static_one_ply`]: the static 1-ply move choice of David et al. §III-B (no search);
//! * [`quiescence_probe`]: the same choice with every child resolved by the engine's
//!   quiescence search (the move-matching fitness's default);
//! * [`nodes_to_solve`]: the node count at which a node-limited search settles on a test
//!   position's solution (David et al. §IV, `tuner search-evolve`);
//! * [`epd_suite`]: EPD test suites (`bm`/`am`) parsed and searched.

pub mod epd_suite;
pub mod nodes_to_solve;
pub mod quiescence_probe;
pub mod static_one_ply;
