//! Genetic-algorithm tuner and UCI match runner for evochess.

pub mod ga;
pub mod space;
