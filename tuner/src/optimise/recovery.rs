//! The evolution strategy with successive halving, and SPSA beside it, on the synthetic game
//! objective ([`Landscape`], [`GameModel`]) with a known answer: the check that issue 89's
//! method recovers Elo before it spends real games, and the yardstick it must meet.
//!
//! Both spend the same game budget from the same start and draw their openings from a
//! [`Ledger`] of a book the size of UHO_4060_v4, so no opening is played twice; [`Played`]
//! checks it game by game. The ES plays each generation's candidates against the anchor (the
//! start, as the run's champion is until a gate passes) on the openings of each racing round;
//! SPSA plays its `+` engine against its `−` engine, one game pair an iteration, as `tuner
//! spsa` does. The answer of each is scored by its true Elo against the start.

use std::path::Path;

use rand::{SeedableRng, rngs::StdRng};
use thiserror::Error;

use super::{
    Optimiser,
    es::{Es, EsError, EsSettings, GroupSpec},
    generation_rng,
    halving::{HalvingError, Record, Schedule, race},
    ledger::{Ledger, LedgerError, Played, RACING},
    synthetic_games::{GameModel, Landscape, search_groups},
};
use crate::{
    genome::Genome,
    hash::mix64,
    spsa::{self, SpsaParam},
};

/// Openings in UHO_4060_v4, the book of issue 89's runs.
pub const BOOK: usize = 241_670;
/// Its slices held back for the confirmation match and for gates.
pub const CONFIRMATION_OPENINGS: usize = 2_000;
pub const GATE_OPENINGS: usize = 10_000;
/// The limits in the games' keys (the synthetic games have none; one name for all).
const BUDGET: &str = "synthetic";

/// What a recovery run can fail with.
#[derive(Debug, Error)]
pub enum RecoveryError {
    #[error(transparent)]
    Es(#[from] EsError),
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    #[error(transparent)]
    Halving(#[from] HalvingError<LedgerError>),
    #[error(transparent)]
    Optimise(#[from] super::OptimiseError),
}

/// An ES run's recipe: the strategy, its groups and its race.
#[derive(Clone, Debug, PartialEq)]
pub struct EsRecipe {
    pub settings: EsSettings,
    pub groups: Vec<GroupSpec>,
    /// Game pairs per candidate in the race's first round (doubling as the field halves).
    pub first_pairs: u32,
    /// Candidates left by the halving.
    pub keep: usize,
}

impl Default for EsRecipe {
    /// [`EsSettings::default`] with the groups of [`search_groups`] and halving from 32
    /// candidates to 16 on one pair each, the 16 then playing two more (128 games a
    /// generation).
    fn default() -> Self {
        EsRecipe { settings: EsSettings::default(), groups: search_groups(), first_pairs: 1, keep: 16 }
    }
}

/// Where a run ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Recovered {
    /// The true Elo of the answer against the start, and the most there was to gain.
    pub gain: f64,
    pub headroom: f64,
    pub games: u64,
    /// Generations (ES) or iterations (SPSA).
    pub steps: usize,
}

/// The ledger of a run of `seed` over a book of [`BOOK`] openings.
pub fn ledger(seed: u64) -> Result<Ledger, LedgerError> {
    Ledger::standard(Path::new("UHO_4060_v4.epd.xz"), BOOK, seed, CONFIRMATION_OPENINGS, GATE_OPENINGS)
}

/// What the racing rounds of a synthetic run share: the objective, the openings and the games
/// played so far.
struct Games<'a> {
    land: &'a Landscape,
    model: &'a GameModel,
    ledger: Ledger,
    /// The ledger's permutation: position to book line.
    order: Vec<usize>,
    played: Played,
}

impl Games<'_> {
    /// One racing round of generation `g`: every candidate of `active` one game pair against
    /// the anchor on each of `pairs` openings drawn for the round.
    fn round(
        &mut self,
        g: usize,
        candidates: &[Genome],
        active: &[usize],
        pairs: u32,
        rng: &mut StdRng,
    ) -> Result<Vec<Record>, LedgerError> {
        let draw = self.ledger.draw(RACING, pairs as usize)?;
        let mut out = vec![Record::default(); active.len()];
        for line in Ledger::book_lines(&self.order, &draw) {
            let margin = self.model.margin(self.ledger.seed, line as u64);
            for (k, &i) in active.iter().enumerate() {
                self.played.record_pair(line, &format!("g{g}c{i}"), "anchor", BUDGET)?;
                out[k].add(&self.model.pair(self.land.elo(candidates[i].numbers().unwrap_or(&[])), margin, rng));
            }
        }
        Ok(out)
    }
}

/// The ES with successive halving on `land` until the next generation would overrun `budget`
/// games, from seed `seed` (the ES's draws, the games, the openings).
///
/// # Errors
/// A recipe that cannot work, or a repeated game (a bug).
pub fn run_es(
    land: &Landscape,
    model: &GameModel,
    recipe: &EsRecipe,
    budget: u64,
    seed: u64,
) -> Result<Recovered, RecoveryError> {
    let lambda = 2 * recipe.settings.pairs;
    let schedule = Schedule::halving(lambda, recipe.keep, recipe.first_pairs);
    let per_generation = schedule.planned_games(lambda);
    // The learning rate's decay spans the generations the budget pays for.
    let settings = EsSettings { generations: budget / per_generation.max(1), ..recipe.settings };
    let mut es = Es::new(land.genes.clone(), &recipe.groups, settings)?;
    let ledger = ledger(seed)?;
    let order = ledger.permutation();
    let mut table = Games { land, model, ledger, order, played: Played::default() };
    let (mut games, mut g) = (0, 0usize);
    while games + per_generation <= budget {
        let candidates = es.ask(&mut generation_rng(seed, 0, g as u64))?;
        let mut rng = generation_rng(seed, 1, g as u64);
        let r = race(lambda, &schedule, mix64(seed ^ g as u64), |active, round| {
            table.round(g, &candidates, active, schedule.pairs[round], &mut rng)
        })?;
        es.tell(&candidates, &r.fitness)?;
        games += r.games;
        g += 1;
    }
    let gain = es.recommend().map_or(f64::NAN, |x| land.elo(x.numbers().unwrap_or(&[])));
    Ok(Recovered { gain, headroom: land.headroom(), games, steps: g })
}

/// SPSA's gains: the genes' `c_end` and `r_end` times these (1 and 1: as `tuner spsa` runs
/// the engine's SPSA lines).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpsaRecipe {
    pub c_scale: f64,
    pub r_scale: f64,
}

/// SPSA as `tuner spsa` runs it, `budget / 2` iterations of one game pair `+` vs `−`.
///
/// # Errors
/// A repeated game (a bug) or an exhausted ledger.
pub fn run_spsa(
    land: &Landscape,
    model: &GameModel,
    recipe: SpsaRecipe,
    budget: u64,
    seed: u64,
) -> Result<Recovered, RecoveryError> {
    let iterations = budget / 2;
    let mut genes = land.genes.clone();
    for g in &mut genes {
        g.c_end *= recipe.c_scale;
        g.r_end *= recipe.r_scale;
    }
    let mut tune = spsa::Spsa::new(genes, spsa::Schedule::new(iterations.max(1)));
    let mut ledger = ledger(seed)?;
    let order = ledger.permutation();
    let mut played = Played::default();
    let mut rng = StdRng::seed_from_u64(mix64(seed ^ 0x5350_5341));
    let answer = |params: &[SpsaParam]| {
        let x: Vec<f64> = params.iter().map(|p| if p.integer { p.value.round() } else { p.value }).collect();
        land.elo(&x)
    };
    for k in 0..iterations {
        let p = tune.perturb(&mut rng);
        let line = Ledger::book_lines(&order, &ledger.draw(RACING, 1)?)[0];
        played.record_pair(line, &format!("i{k}+"), &format!("i{k}-"), BUDGET)?;
        let d = land.elo(&p.plus) - land.elo(&p.minus);
        let r = model.pair(d, model.margin(ledger.seed, line as u64), &mut rng);
        tune.update(&p, r.wdl.wins as f64 - r.wdl.losses as f64);
    }
    Ok(Recovered {
        gain: answer(&tune.params),
        headroom: land.headroom(),
        games: 2 * iterations,
        steps: iterations as usize,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{optimise::synthetic_games::SEARCH_GENES, spsa::parse_lines};

    /// Issue 89's case: 70 search parameters, a `c_end` step in every one costing 10 Elo,
    /// the start 30 Elo below the optimum.
    fn landscape(seed: u64) -> Landscape {
        Landscape::new(parse_lines(SEARCH_GENES).unwrap(), 10.0, 30.0, seed)
    }

    const GAMES: u64 = 60_000;
    const SEEDS: u64 = 12;

    fn gains(run: impl Fn(&Landscape, u64) -> Recovered) -> Vec<f64> {
        (1..=SEEDS).map(|s| run(&landscape(s), s).gain).collect()
    }

    fn mean(x: &[f64]) -> f64 {
        x.iter().sum::<f64>() / x.len() as f64
    }

    #[test]
    fn the_es_recovers_the_known_optimum_from_games() {
        let model = GameModel::default();
        let recipe = EsRecipe::default();
        let runs: Vec<Recovered> =
            (1..=SEEDS).map(|s| run_es(&landscape(s), &model, &recipe, GAMES, s).unwrap()).collect();
        let es: Vec<f64> = runs.iter().map(|r| r.gain).collect();
        eprintln!("es, {GAMES} games, seeds 1..={SEEDS}: mean {:+.1}, {es:.1?}", mean(&es));
        // Measured: +16.1 on average of the 30 Elo there were, +12.5 at worst.
        assert!(mean(&es) >= 15.0, "{es:?}");
        assert!(es.iter().all(|&g| g >= 10.0), "{es:?}");
        for r in &runs {
            assert!((30.0 - r.headroom).abs() < 1e-6);
            // 468 generations of 128 games; every game pair on an opening of its own (run_es
            // refuses a repeated game).
            assert_eq!((r.games, r.steps), (59_904, 468));
        }
        // The same seed, the same run.
        assert_eq!(
            run_es(&landscape(2), &model, &recipe, 5_000, 2).unwrap(),
            run_es(&landscape(2), &model, &recipe, 5_000, 2).unwrap()
        );
        // With the step calibrated to 10-Elo mutants (σ = 1 c_end) the games barely see the
        // mutants' differences: measured +2.7 on average.
        let settings = EsSettings { sigma: 1.0, sigma_min: 0.25, sigma_max: 8.0, adapt: false, ..recipe.settings };
        let small = EsRecipe { settings, ..recipe };
        let small = gains(|l, s| run_es(l, &model, &small, GAMES, s).unwrap());
        eprintln!("es with 10-Elo mutants: mean {:+.1}", mean(&small));
        assert!(mean(&small) < 5.0, "{small:?}");
    }

    #[test]
    fn spsa_on_the_same_games_is_the_yardstick() {
        let model = GameModel::default();
        // As `tuner spsa` runs the engine's lines: measured +10.7 on average.
        let plain = gains(|l, s| run_spsa(l, &model, SpsaRecipe { c_scale: 1.0, r_scale: 1.0 }, GAMES, s).unwrap());
        // Perturbations of 3 c_end: measured +24.6, every seed above +23.
        let wide = gains(|l, s| run_spsa(l, &model, SpsaRecipe { c_scale: 3.0, r_scale: 1.0 }, GAMES, s).unwrap());
        eprintln!(
            "spsa, {GAMES} games: c_end as given {:+.1} {plain:.1?}; 3 c_end {:+.1} {wide:.1?}",
            mean(&plain),
            mean(&wide)
        );
        assert!(plain.iter().all(|&g| g > 5.0), "{plain:?}");
        assert!(wide.iter().all(|&g| g > 20.0), "{wide:?}");
    }
}
