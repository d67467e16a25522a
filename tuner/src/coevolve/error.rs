//! `tuner coevolve`'s errors.

use arena::runner::RunnerError;
use thiserror::Error;

use crate::ga::error::RunError;

#[derive(Debug, Error)]
pub enum CoevolveError {
    #[error(transparent)]
    Run(#[from] RunError),
    #[error("coevolve config: {0}")]
    Config(String),
    #[error(transparent)]
    Runner(#[from] RunnerError),
    #[error("racing: {0}")]
    Ratings(#[from] arena::stats::bradley_terry::RatingsError),
}

crate::command_error!(CoevolveError);
