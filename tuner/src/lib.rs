//! Genetic-algorithm tuner and UCI match runner for evochess.
