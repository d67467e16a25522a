//! Genetic-algorithm tuner and UCI match runner for evochess.

pub mod cli;
pub mod evolve;
pub mod ga;
pub mod space;
