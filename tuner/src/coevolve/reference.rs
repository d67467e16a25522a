//! `selection = "reference"`: a generation ranked by its games against a fixed pool (issue 45).
//!
//! A round robin's score says how an organism fared against a field that changes every
//! generation; its mean is 50% by construction. Against a fixed pool of opponents, `[pool]`
//! (parameter files our engine plays, other engines, or by default the run's start: the
//! `[champion] start` file, else the population's first file, else the engine's declared
//! defaults), every organism plays the same games: each pool member `games` times on the same
//! openings with both colours (the runner's gauntlet with the pool as its seeds). Fitness is the
//! points scored, so scores compare across organisms and across generations, and the chart of a
//! run can show real progress. Pool members play no game against each other.
//!
//! Files per generation: the gauntlet's `pool.pgn`, resume journal `pool.state.jsonl` and
//! results `pool.json`, and `crosstable.csv` with a column per pool member (`points/games`).
//! A resumed run continues the journal and replays no finished game.

use std::{path::PathBuf, time::Instant};

use arena::{
    engine::spec::EngineSpec,
    files::write_atomic,
    runner::{Tournament, play_match},
};
use evochess::params::Params;
use serde::{Deserialize, Serialize};

use super::{
    Coevolution, CoevolveError, CoevolveGeneration, Field, GenObserver, Table, crosstable_csv, fresh::Use, gen_dir,
    journal,
};
use crate::progress::Progress;

/// The file the default pool member (the run's start) is written to, under `out_dir`.
pub const START_FILE: &str = "pool-start.toml";

/// `[pool]` of the coevolve config: the fixed opponents of reference selection.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PoolConfig {
    /// Parameter files our engine plays (relative to the config file).
    pub files: Vec<PathBuf>,
    /// Other engines, each as the `-engine` tokens of `tuner match` in one string, e.g.
    /// `"cmd=/usr/games/glaurung proto=uci"`; without a limit of their own they play under the
    /// coevolution's `tc`/`nodes`.
    pub engines: Vec<String>,
    /// Games of every organism against each member (colour-swapped pairs, so even); 0: two per
    /// opening of an encounter, `2 × openings_per_pair`.
    pub games: u32,
}

impl PoolConfig {
    pub fn is_empty(&self) -> bool {
        *self == PoolConfig::default()
    }
}

/// A generation's games against the pool: per organism (row) and member (column).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoolTable {
    pub members: Vec<String>,
    pub points: Vec<Vec<f64>>,
    pub games: Vec<Vec<u64>>,
}

/// The pool as the runner plays it, and its members' values for the run's identity.
#[derive(Clone, Debug)]
pub struct Pool {
    pub engines: Vec<EngineSpec>,
    /// Each parameter-file member's values (the default start's too), in order.
    pub params: Vec<Params>,
}

impl Coevolution {
    /// Games of every organism against each pool member.
    pub fn pool_games(&self) -> u32 {
        if self.cfg.pool.games == 0 { 2 * self.cfg.openings_per_pair } else { self.cfg.pool.games }
    }

    /// Checks `[pool]` (its games and engine strings), before anything is read or played.
    pub(super) fn check_pool(&self) -> Result<(), CoevolveError> {
        if !self.cfg.pool.games.is_multiple_of(2) {
            return Err(CoevolveError::Config(format!(
                "pool.games = {} must be even (each opening is played with both colours)",
                self.cfg.pool.games
            )));
        }
        for (i, text) in self.cfg.pool.engines.iter().enumerate() {
            self.pool_engine(i, text)?;
        }
        Ok(())
    }

    fn pool_engine(&self, i: usize, text: &str) -> Result<EngineSpec, CoevolveError> {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let bad =
            |e: arena::engine::spec::SpecError| CoevolveError::Config(format!("pool.engines[{i}] = \"{text}\": {e}"));
        let mut spec = EngineSpec::parse::<&str>(&[], &tokens).map_err(bad)?;
        if spec.limits == arena::tc::SearchLimits::default() {
            spec.limits = self.limits.clone();
        }
        // A missing command or a limit the protocol cannot express fails before any game.
        spec.validate().map_err(bad)?;
        Ok(spec)
    }

    /// The pool of a reference selection; `None` for the other schemes. Without `files` and
    /// `engines` it is the run's start, written to `<out_dir>/pool-start.toml`.
    pub(super) fn pool(&self) -> Result<Option<Pool>, CoevolveError> {
        if self.cfg.selection != super::racing::Scheme::Reference {
            return Ok(None);
        }
        let mut files: Vec<(String, PathBuf, Params)> = Vec::new();
        for f in &self.cfg.pool.files {
            let params = Params::load(f).map_err(|e| CoevolveError::params(f, e))?;
            let stem = f.file_stem().map_or_else(|| "pool".into(), |s| s.to_string_lossy().into_owned());
            files.push((stem, f.clone(), params));
        }
        let mut engines = Vec::new();
        for (i, text) in self.cfg.pool.engines.iter().enumerate() {
            engines.push(self.pool_engine(i, text)?);
        }
        if files.is_empty() && engines.is_empty() {
            let start = self.start_champion()?;
            log::info!("reference selection: the pool is the run's start, {}", start.source);
            let path = self.cfg.out_dir.join(START_FILE);
            files.push(("start".into(), path, start.params));
        }
        let mut specs = Vec::new();
        for (name, path, _) in &files {
            specs.push(EngineSpec::new(name, &self.engine).with_params(path).with_limits(self.limits.clone()));
        }
        specs.extend(engines);
        // Unique names: the runner's tables and the cross table are keyed by them.
        for i in 0..specs.len() {
            if specs[..i].iter().any(|s| s.name == specs[i].name) {
                specs[i].name = format!("{}-{}", specs[i].name, i + 1);
            }
        }
        Ok(Some(Pool { engines: specs, params: files.into_iter().map(|(_, _, p)| p).collect() }))
    }

    /// Writes the default pool member's file (the run's start) when the pool is the start.
    pub(super) fn write_pool(&self, pool: &Pool) -> Result<(), CoevolveError> {
        if self.cfg.pool.files.is_empty() && self.cfg.pool.engines.is_empty() {
            let path = self.cfg.out_dir.join(START_FILE);
            let text = format!("# the pool of reference selection: the run's start\n{}", pool.params[0].to_toml());
            write_atomic(&path, text.as_bytes()).map_err(|e| CoevolveError::io(&path, e))?;
        }
        Ok(())
    }

    /// The pool's size: its files and engines, or the start alone.
    pub fn pool_members(&self) -> usize {
        (self.cfg.pool.files.len() + self.cfg.pool.engines.len()).max(1)
    }

    /// Games of one generation of `size` organisms against `members` pool members.
    pub fn pool_generation_games(&self, size: usize, members: usize) -> u64 {
        size as u64 * members as u64 * u64::from(self.pool_games())
    }

    /// Generation `g`'s organisms (`field`, their files written) against the pool.
    pub(super) fn play_pool(
        &self,
        g: usize,
        field: Field,
        pool: &Pool,
        resume: bool,
        bar: &Progress,
    ) -> Result<CoevolveGeneration, CoevolveError> {
        let started = Instant::now();
        let dir = gen_dir(&self.cfg.out_dir, g);
        let Field { engines, names, origins } = field;
        let members = pool.engines.len();
        let mut m = self.base.clone();
        m.engines = pool.engines.iter().cloned().chain(engines).collect();
        m.tournament = Tournament::Gauntlet;
        m.seeds = members;
        m.games = self.pool_games();
        m.rounds = 1;
        // Fresh openings every generation, reproducibly; the same for every organism.
        let seed = crate::hash::mix64(self.cfg.seed.rotate_left(29) ^ (g as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        self.deal(&mut m, g, names.len(), Use::Ranking, seed)?;
        m.event = "evochess coevolution: reference selection".into();
        journal(&mut m, &dir, "pool", "pool.json", resume);
        let mut obs = GenObserver::new(g, bar);
        let r = play_match(&m, &mut obs)?;
        // Players: the organisms first, then the pool (the runner's order is the pool first).
        let n = names.len();
        let player = |i: usize| if i < members { n + i } else { i - members };
        let table = Table::from_pairs(n + members, r.pairs.iter().map(|p| (player(p.first), player(p.second), p.wdl)));
        let organisms = table.organisms(&names, &origins);
        let cross = (0..n).map(|i| table.cross[i][..n].to_vec()).collect();
        let mut summary =
            super::generation_record(g, organisms, cross, r.games_played, started.elapsed().as_secs_f64());
        summary.pool = Some(PoolTable {
            members: pool.engines.iter().map(|e| e.name.clone()).collect(),
            points: (0..n).map(|i| table.cross[i][n..].to_vec()).collect(),
            games: (0..n).map(|i| table.games[i][n..].to_vec()).collect(),
        });
        let csv = dir.join("crosstable.csv");
        write_atomic(&csv, crosstable_csv(&summary).as_bytes()).map_err(|e| CoevolveError::io(&csv, e))?;
        Ok(summary)
    }
}
