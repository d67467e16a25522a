//! `tuner coevolve`: single-population coevolution of evaluation functions (David et al. 2014
//! §III-C).
//!
//! The population starts from a directory of parameter files (the best organism of each
//! `tuner evolve` run, `params/evolved/run-N.toml`) or at random. Every generation each
//! organism plays every other `2 × openings_per_pair` games (paper: four; here two openings,
//! each with both colours) as an `evochess` process loaded with its parameter file, through
//! the match runner's [`round_robin`]. An organism's fitness is its points in that round
//! robin; selection is rank-based, with uniform crossover, bit-flip mutation and elitism
//! (the paper's 0.75 / 0.005 / 1).
//!
//! The chromosome is the whole declared evaluation unless the config names a smaller space
//! ([`SearchSpace::whole_evaluation`]), so generation 0 holds the given files value for value.
//! In a smaller space (the paper's 224 bits, `configs/spaces/evolve-paper.toml`) the values
//! outside it are each seed file's own ([`SearchSpace::seed`]: never zeroed, never an endgame
//! value replaced by its middlegame twin unless a gene ties them), a log line per file says how
//! many values the space changed, and bred organisms keep the outside values of the seed their
//! slot descends from ([`lineage`]).
//!
//! Deviation, for fairness and lower noise: all encounters of a generation share the same two
//! openings (the runner's colour-swapped game pairs), drawn afresh each generation from a
//! shuffled book, where the paper gave every game its own opening. With `fresh_openings` every
//! match draws without replacement from one permutation of the book instead, so no game is
//! played twice in a run ([`fresh`]).
//!
//! Progress across generations: a round robin's mean score is 50% by construction, so each
//! generation's best also plays `reference_games` games against a fixed reference, generation
//! 0's champion (extra games, openings drawn from the same book; generation 0 is the reference
//! itself).
//! `coevolution.svg` charts that Elo with its 95% interval; `generations.csv` has it beside the
//! round-robin scores.
//!
//! Files under `out_dir` (see [`gen_dir`]): per generation the organisms' parameter files, the
//! PGN of every game, the runner's resume journal (one line per finished game pair), its
//! results JSON, the cross table with Elo estimates (CSV) and the reference match (PGN,
//! journal, results); overall `generations.csv`, `coevolution.svg` and `checkpoint.json`
//! (the last finished generation). `--resume` continues the unfinished generation from its
//! journals, so no finished game is replayed or lost, and breeds deterministically from the
//! checkpoint: generation `g`'s RNG is [`generation_rng`]`(seed, 0, g)`. The checkpoint alone
//! resumes a run, on another machine without the `gen-NNN` directories: the earlier files a
//! generation reads, generation 0's organisms and a promoted champion's, are rewritten from the
//! config's initial population and the genome the champion's record keeps.
//!
//! With `selection = "racing"` a generation is ranked by racing instead ([`racing`]): rounds of
//! game pairs among the organisms still in doubt, up to `racing_games` games, and fitness is each
//! organism's Bradley–Terry rating from the generation's games. With `selection = "reference"`
//! every organism plays the same games against a fixed pool instead ([`reference`](mod@reference)); fitness is
//! its points. `[ga.immigrants]` replaces the last children of each generation with newcomers,
//! `mutants` adds mutants of the given files to generation 0, and each generation's record
//! keeps the population's [`diversity`].
//!
//! The output (`<out_dir>/coevolved.toml` unless `output` names a file) is the last generation's top scorer, the
//! paper's "best of best"; with `[champion] gate = "sprt"` it is instead the run's champion, the
//! start file or a challenger that beat the champion before it in an SPRT ([`champion`]).
//!
//! [`round_robin`]: arena::runner::round_robin
//! [`SearchSpace::whole_evaluation`]: crate::space::SearchSpace::whole_evaluation
//! [`SearchSpace::seed`]: crate::space::SearchSpace::seed
//! [`generation_rng`]: crate::ga::generation_rng

pub mod champion;
mod config;
mod error;
pub mod es;
mod files;
mod fresh;
mod objective;
mod population;
pub mod racing;
pub mod reference;
mod report;
mod run;

// Every item keeps its path `tuner::coevolve::X` from before the split into files.
pub use self::{
    config::{CoevolveConfig, DEFAULT_MUTANT_SIGMA, OrganismSpec, coevolve_ga_defaults},
    error::CoevolveError,
    files::{gen_dir, output_listing, parameter_files},
    objective::Standing,
    population::{Initial, diversity, lineage, load_population},
    report::{
        CoevolveGeneration, OrganismResult, ReferenceResult, Table, crosstable_csv, elite_rank_stability,
        generation_record, generations_csv, render_svg, summarise,
    },
    run::{Coevolution, CoevolveOutcome, Field},
};
// For the selection schemes' files, as before the split.
use self::{files::journal, run::GenObserver};
