//! The failures every evolution command shares: its files, search space and GA settings, its
//! checkpoint and its output directory. A command's error wraps [`RunError`] beside what is
//! its own (config values, positions, games ...), and [`command_error!`](crate::command_error)
//! gives it the conversions, so `?` works the same in all five.

use std::{fmt::Display, path::Path};

use thiserror::Error;

use super::{checkpoint::CheckpointError, run_dir::RunDirError};
use crate::{optimise::config::GaError, space::SpaceError};

#[derive(Debug, Error)]
pub enum RunError {
    #[error("{path}: {reason}")]
    Io { path: String, reason: String },
    #[error("parameter file {path}: {reason}")]
    Params { path: String, reason: String },
    #[error(transparent)]
    Space(#[from] SpaceError),
    #[error(transparent)]
    Ga(#[from] GaError),
    #[error(transparent)]
    Optimise(#[from] crate::optimise::OptimiseError),
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    #[error(transparent)]
    RunDir(#[from] RunDirError),
}

impl RunError {
    /// A file that could not be read or written.
    pub fn io(path: &Path, e: impl Display) -> Self {
        RunError::Io { path: path.display().to_string(), reason: e.to_string() }
    }

    /// A parameter file that could not be loaded.
    pub fn params(path: &Path, e: impl Display) -> Self {
        RunError::Params { path: path.display().to_string(), reason: e.to_string() }
    }
}

/// For a command's error type with a `Run(#[from] RunError)` variant: `From` each shared
/// failure, and the `io` and `params` constructors.
#[macro_export]
macro_rules! command_error {
    ($error:ty) => {
        impl From<$crate::space::SpaceError> for $error {
            fn from(e: $crate::space::SpaceError) -> Self {
                $crate::ga::error::RunError::from(e).into()
            }
        }
        impl From<$crate::optimise::config::GaError> for $error {
            fn from(e: $crate::optimise::config::GaError) -> Self {
                $crate::ga::error::RunError::from(e).into()
            }
        }
        impl From<$crate::optimise::OptimiseError> for $error {
            fn from(e: $crate::optimise::OptimiseError) -> Self {
                $crate::ga::error::RunError::from(e).into()
            }
        }
        impl From<$crate::ga::checkpoint::CheckpointError> for $error {
            fn from(e: $crate::ga::checkpoint::CheckpointError) -> Self {
                $crate::ga::error::RunError::from(e).into()
            }
        }
        impl From<$crate::ga::run_dir::RunDirError> for $error {
            fn from(e: $crate::ga::run_dir::RunDirError) -> Self {
                $crate::ga::error::RunError::from(e).into()
            }
        }
        impl $error {
            /// A file that could not be read or written.
            pub fn io(path: &std::path::Path, e: impl std::fmt::Display) -> Self {
                $crate::ga::error::RunError::io(path, e).into()
            }

            /// A parameter file that could not be loaded.
            pub fn params(path: &std::path::Path, e: impl std::fmt::Display) -> Self {
                $crate::ga::error::RunError::params(path, e).into()
            }
        }
    };
}
