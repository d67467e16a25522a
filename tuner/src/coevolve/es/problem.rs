//! The run as the driver's [`Problem`]: a generation's candidates race the champion, and the
//! race is their fitness; once the ES is told it, its mean is written and, when a gate is due,
//! played against the champion. The champion is not the optimiser's: it follows from the
//! history (the last mean a gate promoted), so a resumed run plays the one the killed run did.

use std::{
    cell::RefCell,
    path::{Path, PathBuf},
    time::Instant,
};

use super::{Champion, EsCoevolution, EsGeneration, GateRecord};
use crate::{
    coevolve::{CoevolveError, champion::Verdict, gen_dir},
    ga::{
        Genome,
        driver::{Batch, Problem},
        report::GenerationStats,
    },
    optimise::{AfterTell, halving},
    progress::Progress,
};

/// One candidate's race: the ES's fitness (rounds played + score / 2) and its score against
/// the champion.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceScore {
    pub fitness: f64,
    pub score: f64,
}

/// What a generation's evaluation leaves for its record: the champion it played, its race and
/// its clock.
struct Raced {
    generation: usize,
    champion: Champion,
    champion_file: PathBuf,
    /// Gates before this generation's.
    gates_before: usize,
    games: u64,
    rounds: usize,
    openings: Vec<(usize, usize)>,
    resume: bool,
    started: Instant,
}

/// The coevolution's race as the driver's problem.
pub struct RaceProblem<'a> {
    co: &'a EsCoevolution,
    pub bar: Progress,
    raced: RefCell<Option<Raced>>,
}

impl<'a> RaceProblem<'a> {
    pub fn new(co: &'a EsCoevolution, bar: Progress) -> RaceProblem<'a> {
        RaceProblem { co, bar, raced: RefCell::new(None) }
    }

    /// The bar at generation `g`: games played so far of those the run can still play.
    fn show_progress(&self, g: usize, history: &[EsGeneration]) {
        let co = self.co;
        let done: u64 = history.iter().map(|h| h.games + h.gate.as_ref().map_or(0, |x| x.games)).sum();
        // Gates stopped early leave games unplayed.
        let unused: u64 = history.iter().filter_map(|h| h.gate.as_ref()).map(|x| co.cfg.gate.max_games - x.games).sum();
        self.bar.set_length(co.planned_games() - unused);
        self.bar.skip_to(done);
        self.bar.set_prefix(format!("generation {}/{}", g + 1, co.generations));
    }

    /// Generation `g`'s race of the candidates (`files`) against the champion, with the opening
    /// slice (start, count) of each round.
    fn race(
        &self,
        g: usize,
        files: &[PathBuf],
        champion: (&str, &Path),
        resume: bool,
    ) -> Result<(halving::Race, Vec<(usize, usize)>), CoevolveError> {
        let co = self.co;
        let mut openings = Vec::new();
        let race = halving::race(
            files.len(),
            &co.cfg.schedule(),
            crate::hash::mix64(co.cfg.seed ^ g as u64),
            |active, round| {
                let (records, draw) = co.play_round(g, round, active, files, champion, resume, &self.bar)?;
                openings.push((draw.start, draw.count));
                Ok::<_, CoevolveError>(records)
            },
        )
        .map_err(|e| match e {
            halving::HalvingError::Play(e) => e,
            other => CoevolveError::Config(other.to_string()),
        })?;
        Ok((race, openings))
    }

    /// The gate after the generation `raced`, when one is due: the rounded mean (`mean`, written
    /// to the generation's `mean.toml`) against the champion.
    fn gate_step(&self, raced: &Raced, mean: &[f64]) -> Result<Option<GateRecord>, CoevolveError> {
        let co = self.co;
        let g = raced.generation;
        if !co.cfg.gate.after(g, co.generations) {
            return Ok(None);
        }
        let index = raced.gates_before;
        let name = format!("g{g}-mean");
        let current = &raced.champion;
        let mut record = if mean == current.values {
            GateRecord {
                index,
                challenger: name,
                values: Vec::new(),
                champion: current.name.clone(),
                verdict: Verdict::Skipped,
                line: "the rounded mean holds the champion's values".into(),
                games: 0,
                openings: (0, 0),
            }
        } else {
            let mean_file = gen_dir(&co.cfg.out_dir, g).join("mean.toml");
            let champion = (current.name.as_str(), raced.champion_file.as_path());
            co.gate(g, index, (&name, &mean_file), champion, raced.resume, &self.bar)?
        };
        record.values = mean.to_vec();
        self.bar.suspend(|| {
            log::info!(
                "gate {} after generation {g}: {} vs {}: {}; {}",
                index + 1,
                record.challenger,
                record.champion,
                record.verdict.name(),
                record.line
            )
        });
        if record.verdict == Verdict::Promoted {
            co.champion_file(&Champion { name: record.challenger.clone(), values: record.values.clone() })?;
        }
        Ok(Some(record))
    }
}

impl Problem for RaceProblem<'_> {
    type Score = RaceScore;
    type Record = EsGeneration;
    type Error = CoevolveError;

    fn evaluate(&self, batch: Batch<'_, RaceScore, EsGeneration>) -> Result<Vec<RaceScore>, CoevolveError> {
        let co = self.co;
        let (g, history) = (batch.generation, batch.history);
        let started = Instant::now();
        self.show_progress(g, history);
        let dir = gen_dir(&co.cfg.out_dir, g);
        std::fs::create_dir_all(&dir).map_err(|e| CoevolveError::io(&dir, e))?;
        let files = co.candidate_files(g, &dir, batch.population)?;
        let champion = co.champion_after(history)?;
        let champion_file = co.champion_file(&champion)?;
        let (race, openings) = self.race(g, &files, (&champion.name, &champion_file), batch.resume)?;
        let scores = race
            .fitness
            .iter()
            .zip(&race.records)
            .map(|(&fitness, r)| RaceScore { fitness, score: r.score() })
            .collect();
        *self.raced.borrow_mut() = Some(Raced {
            generation: g,
            champion,
            champion_file,
            gates_before: history.iter().filter(|h| h.gate.is_some()).count(),
            games: race.games,
            rounds: race.rounds,
            openings,
            resume: batch.resume,
            started,
        });
        Ok(scores)
    }

    fn fitness(&self, s: &RaceScore) -> f64 {
        s.fitness
    }

    fn metric(&self, s: &RaceScore) -> f64 {
        s.score
    }

    /// Never reused: another generation's candidates race other openings.
    fn restore(&self, fitness: f64, score: f64) -> (RaceScore, bool) {
        (RaceScore { fitness, score }, false)
    }

    /// Nothing is held back: the confirmation match comes after the run.
    fn test(&self, _: &Genome) -> f64 {
        f64::NAN
    }

    fn record(
        &self,
        _: &[Genome],
        scores: &[RaceScore],
        _: usize,
        _: GenerationStats,
        told: &AfterTell,
    ) -> Result<EsGeneration, CoevolveError> {
        let raced = self.raced.borrow_mut().take();
        let (Some(raced), Some(mean), Some(centre)) =
            (raced, told.recommend.as_ref().and_then(Genome::numbers), told.centre.as_ref())
        else {
            return Err(CoevolveError::Config("the ES was told a generation it did not race".into()));
        };
        let co = self.co;
        let g = raced.generation;
        co.write_mean(g, &gen_dir(&co.cfg.out_dir, g), mean)?;
        let gate = self.gate_step(&raced, mean)?;
        let record = EsGeneration {
            generation: g,
            games: raced.games,
            champion: raced.champion.name.clone(),
            best_score: scores.iter().map(|s| s.score).fold(0.0, f64::max),
            mean_score: scores.iter().map(|s| s.score).sum::<f64>() / scores.len() as f64,
            rounds: raced.rounds,
            distance: co.distance_from_start(centre),
            sigma: told.steps.clone(),
            openings: raced.openings,
            gate,
            seconds: raced.started.elapsed().as_secs_f64(),
        };
        self.bar.suspend(|| {
            log::info!(
                "generation {g}: {} games vs {}, candidates' mean score {:.3}, best {:.3}; mean {:.2} c_end from the start, steps {} ({:.0}s)",
                record.games,
                record.champion,
                record.mean_score,
                record.best_score,
                record.distance,
                record.sigma.iter().map(|s| format!("{s:.2}")).collect::<Vec<_>>().join("/"),
                record.seconds
            )
        });
        Ok(record)
    }

    fn report(&self, history: &[EsGeneration]) -> Result<(), CoevolveError> {
        self.co.write_reports(history)
    }
}
