//! The generation loop of every evolution command: a [`Problem`] (the fitness) asked and told
//! by an [`Optimiser`] (ask/tell, [`crate::optimise`]), run by [`Driver::optimise`], or by
//! [`Driver::evolve`] with the optimiser a config's `[optimiser] kind` names.
//!
//! The driver owns what must be the same everywhere: generation `g` is the optimiser's ask from
//! [`generation_rng`]`(seed, run, g)`; after each generation is evaluated and told, the
//! checkpoint holds it with the optimiser's state of its ask and the history (no RNG state); a
//! resumed run refuses other inputs by their fingerprint, restores the optimiser, tells it the
//! checkpoint's fitness again and asks as an uninterrupted run would; reports are rewritten
//! after every generation and once more at the end. A run killed at any point and resumed
//! therefore ends as an uninterrupted one, and a finished run can be extended with more
//! generations. The driver adds memoised scores of unchanged genomes and the test-set measure
//! of each generation's best; that part lives in the `problem` submodule.
//!
//! | command | optimiser | state kept per generation | evaluation |
//! | --- | --- | --- | --- |
//! | `evolve` | `[optimiser] kind` (the GA, CMA-ES, SPSA, local search) | [`Population`] | GM-move matching or a mentor, threads |
//! | `search-evolve` | `[optimiser] kind` | [`Population`] | node counts on a suite, threads |
//! | `coevolve --config paper` | `[optimiser] kind` | [`Population`] | round robin of engine processes |
//! | `coevolve` (the evolution strategy) | the ES | the candidates, their race and the ES's state of their ask (the champion follows from the history's gates) | racing against the champion, SPRT gates after the tell |
//! | `quick` | Belmonte's GA | the ranked members and who they are (ids, names; life records in the history) | quick tournament of engine processes |
//! | `roundrobin-ga` | Aksenov's GA (roulette, two-point arithmetic crossover) | [`Population`] | round robin with a reference player |
//! | `spsa` | SPSA | the ± pair and the SPSA tune of its ask (one iteration a generation) | game pairs of + against − |
//!
//! A new fitness (a distributed one, say) is a new [`Problem`]; a new optimiser for every
//! [`Problem`] is a new [`Optimiser`]. `texel`'s fits are no ask/tell optimisers (a descent
//! measures the loss after every move it tries, an epoch follows the gradient): they run pass
//! after pass in the same checkpoint ([`crate::texel::passes`]).
//!
//! [`Optimiser`]: crate::optimise::Optimiser
//! [`generation_rng`]: crate::optimise::generation_rng

mod problem;

use std::{
    path::PathBuf,
    time::{Duration, Instant},
};

use serde::{Serialize, de::DeserializeOwned};

pub use self::problem::{Batch, Population, Problem, Told, best_index};
use super::checkpoint::{Checkpoint, CheckpointError};
use crate::progress::Progress;

/// One run's fixed inputs.
pub struct Driver<'a> {
    pub generations: usize,
    pub seed: u64,
    pub run: usize,
    /// Identifies every input that determines the result; stored in the checkpoint.
    pub fingerprint: &'a str,
    /// The same inputs' fingerprint as an older tuner computed it (from a space file's raw
    /// text, comments included): its checkpoints still resume, rewritten under `fingerprint`.
    pub legacy: Option<&'a str>,
    pub checkpoint: PathBuf,
    /// What to say when a checkpoint's fingerprint differs ("a different config, ...").
    pub mismatch: &'a str,
    /// Whether a generation may go unsaved ([`Driver::throttled`]).
    pub throttle: bool,
    /// A bar over the generations ([`Driver::with_progress`]).
    pub progress: Option<&'a Progress>,
}

/// A throttled driver saves once the time since its last save is this many times what that
/// save took: the checkpoint (the whole history) and the reports then cost at most about a
/// tenth of the run, where saving every generation of a long run of quick generations (SPSA's
/// 17,500 iterations) grows quadratically.
pub const SAVE_RATIO: u32 = 10;

/// When a driver saves: after every generation, or when [`Driver::throttled`] once
/// [`SAVE_RATIO`] times the last save's cost has passed since it; always after the last.
struct Saves {
    /// When the last save ended, and what it took.
    last: Instant,
    cost: Duration,
}

impl Saves {
    /// Before the first save timed (the first generation's is not): the next is due.
    fn new() -> Saves {
        Saves { last: Instant::now(), cost: Duration::ZERO }
    }

    fn due(&self, driver: &Driver<'_>, generation: usize) -> bool {
        !driver.throttle || generation + 1 == driver.generations || self.last.elapsed() >= self.cost * SAVE_RATIO
    }

    /// Runs `save`, timing it.
    fn timed<E>(&mut self, save: impl FnOnce() -> Result<(), E>) -> Result<(), E> {
        let started = Instant::now();
        save()?;
        (self.last, self.cost) = (Instant::now(), started.elapsed());
        Ok(())
    }
}

/// The end of a run: its last evaluated generation and the history.
pub struct Finished<S, R> {
    pub state: S,
    pub history: Vec<R>,
}

impl<'a> Driver<'a> {
    /// The driver of a command's only run (number 0).
    pub fn single(
        generations: usize,
        seed: u64,
        fingerprint: &'a str,
        checkpoint: PathBuf,
        mismatch: &'a str,
    ) -> Driver<'a> {
        Driver {
            generations,
            seed,
            run: 0,
            fingerprint,
            legacy: None,
            checkpoint,
            mismatch,
            throttle: false,
            progress: None,
        }
    }

    /// Moves `bar` a generation at a time (those of a resumed checkpoint skipped: done, not
    /// timed), its prefix `generation G/N` while generation `G` is evaluated.
    pub fn with_progress(self, bar: &'a Progress) -> Driver<'a> {
        Driver { progress: Some(bar), ..self }
    }

    /// Marks the bar before generation `g` is evaluated, or after the last (`g` = the count).
    pub(crate) fn tick(&self, g: usize) {
        if let Some(bar) = self.progress {
            bar.skip_to(g as u64);
            bar.set_prefix(format!("generation {}/{}", (g + 1).min(self.generations), self.generations));
        }
    }

    /// Saves the checkpoint and the reports only once [`SAVE_RATIO`] times the last save's cost
    /// has passed since it, and after the last generation. Only for problems whose generations
    /// replay exactly from a checkpoint: a deterministic fitness (move matching), or games each
    /// generation journals in its own directory and a resume replays (SPSA). A kill then costs
    /// the generations since the last save, which a resume recomputes to the same values.
    pub fn throttled(self) -> Driver<'a> {
        Driver { throttle: true, ..self }
    }

    /// Also resumes checkpoints written under `legacy`, the older form of the same fingerprint.
    pub fn accepting_legacy(self, legacy: &'a str) -> Driver<'a> {
        Driver { legacy: Some(legacy), ..self }
    }

    /// The checkpoint to continue from when `resume` and one exists, its state accepted by
    /// `check`; refused when written with other inputs or inconsistent. One written under the
    /// legacy fingerprint is rewritten under the current one.
    pub(crate) fn resumed<S, R>(
        &self,
        resume: bool,
        check: impl FnOnce(&S) -> Result<(), String>,
    ) -> Result<Option<Checkpoint<S, R>>, CheckpointError>
    where
        S: Clone + Serialize + DeserializeOwned,
        R: Clone + Serialize + DeserializeOwned,
    {
        let path = &self.checkpoint;
        let c = match Checkpoint::<S, R>::load(path)? {
            Some(c) if resume => c,
            _ => return Ok(None),
        };
        if c.fingerprint != self.fingerprint && Some(c.fingerprint.as_str()) != self.legacy {
            return Err(CheckpointError::new(
                path,
                format!(
                    "it was written with {} (fingerprint {}, this run's {}); resume with the same ones",
                    self.mismatch, c.fingerprint, self.fingerprint
                ),
            ));
        }
        if c.run != self.run || c.history.len() != c.generation + 1 {
            return Err(CheckpointError::new(
                path,
                format!("inconsistent checkpoint (run {}, expected {})", c.run, self.run),
            ));
        }
        check(&c.state).map_err(|reason| CheckpointError::new(path, reason))?;
        if c.fingerprint != self.fingerprint {
            // Written under the legacy fingerprint: rewritten now, so that the run keeps
            // resuming once the old form no longer matches (a comment edited, say).
            log::info!(
                "{}checkpoint fingerprint {} is this run's in its older form; rewritten as {}",
                self.prefix(),
                c.fingerprint,
                self.fingerprint
            );
            Checkpoint { fingerprint: self.fingerprint.to_string(), ..c.clone() }.save(path)?;
        }
        log::info!("{}resuming after generation {}", self.prefix(), c.generation);
        Ok(Some(c))
    }

    /// Writes the checkpoint of `generation`, evaluated into `state`.
    pub(crate) fn checkpoint<S, R>(&self, state: &S, generation: usize, history: &[R]) -> Result<(), CheckpointError>
    where
        S: Clone + Serialize + DeserializeOwned,
        R: Clone + Serialize + DeserializeOwned,
    {
        Checkpoint {
            fingerprint: self.fingerprint.to_string(),
            run: self.run,
            generation,
            state: state.clone(),
            history: history.to_vec(),
        }
        .save(&self.checkpoint)
    }

    fn prefix(&self) -> String {
        if self.run == 0 { String::new() } else { format!("run {}: ", self.run) }
    }
}
