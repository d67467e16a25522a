//! How a generation's organisms are scored: the coevolution as the GA driver's problem, each
//! generation played under the configured selection (the round robin here, [`racing`] or
//! [`reference`](mod@super::reference)), with the best's reference match and challenge.

use std::{path::Path, time::Instant};

use arena::{engine::spec::EngineSpec, files::write_atomic, runner::round_robin, stats::Wdl};
use evochess::params::Params;

use super::{
    Coevolution, CoevolveError, CoevolveGeneration, Field, GenObserver, Initial, OrganismResult, ReferenceResult,
    champion::{self, Challenge, Challenger, FirstChampion, Verdict},
    crosstable_csv, diversity,
    fresh::Use,
    gen_dir, journal, lineage,
    racing::{self, Race, Scheme},
    reference::{Pool, PoolTable},
    summarise,
};
use crate::{
    ga::{
        Genome,
        driver::{Batch, Problem},
        operators::elite_indices,
        report::GenerationStats,
    },
    optimise::AfterTell,
    progress::Progress,
};

/// One organism's result in its generation's round robin and its row of the cross table.
#[derive(Clone, Debug)]
pub struct Standing {
    pub result: OrganismResult,
    /// Points against each organism (0 against itself).
    pub row: Vec<f64>,
    /// The generation's best only: its games against the reference.
    pub reference: Option<ReferenceResult>,
    /// The generation's best only: its challenge of the champion.
    pub challenge: Option<Challenge>,
    /// The generation's best only: its race (racing).
    pub race: Option<Race>,
    /// The generation's best only: the generation's games against the pool (reference).
    pub pool: Option<PoolTable>,
}

/// A coevolution as the driver's problem: an organism's fitness is its points in a round robin
/// of its generation (or its rating in the generation's race), so no score carries over from
/// one generation to the next.
pub(super) struct RoundRobin<'c> {
    pub(super) coevolution: &'c Coevolution,
    /// Generation 0: where its organisms came from and the values they keep outside the space.
    pub(super) initial: &'c Initial,
    /// The gate's first champion; `None` without the gate.
    pub(super) first: Option<&'c FirstChampion>,
    /// Reference selection's pool; `None` for the other schemes.
    pub(super) pool: Option<&'c Pool>,
    pub(super) elitism: usize,
    pub(super) generations: u64,
    /// Games of the round robins and reference matches of the whole run.
    pub(super) planned: u64,
    /// The whole run's games (round robins, reference matches and the champion's tests so far).
    pub(super) bar: Progress,
}

impl RoundRobin<'_> {
    /// Where each organism of `generation` came from: the carried-over elites of the previous
    /// generation (the first slots, as [`breed`](crate::ga::breed) places them), then children.
    fn origins(&self, generation: usize, history: &[CoevolveGeneration]) -> Vec<String> {
        let Some(previous) = history.last() else { return self.initial.origins.clone() };
        let fitness: Vec<f64> = previous.organisms.iter().map(OrganismResult::fitness).collect();
        let elites = elite_indices(&fitness, self.elitism.min(fitness.len()));
        // Immigrants take the last slots ([`crate::ga::Immigrants::arrive`]).
        let immigrants = fitness.len().saturating_sub(self.coevolution.cfg.ga.immigrants.count);
        (0..fitness.len())
            .map(|i| match elites.get(i) {
                Some(&e) => format!("elite g{}o{e}", generation - 1),
                None if i >= immigrants => "immigrant".to_string(),
                None => "child".to_string(),
            })
            .collect()
    }

    /// Rewrites the files of earlier generations that later ones read, where they are missing:
    /// a run resumed on another machine from its checkpoint alone (`checkpoint.json`, without
    /// the `gen-NNN` directories). Generation 0's organisms are the initial population, read
    /// from the config on every start; a promoted challenger's, the champion's side of later
    /// tests, is rebuilt from the genome its record keeps. Existing files are never touched.
    pub(super) fn restore_files(&self, history: &[CoevolveGeneration]) -> Result<(), CoevolveError> {
        let co = self.coevolution;
        let out = &co.cfg.out_dir;
        // The reference match reads generation 0's best.
        if let Some(first) = history.first()
            && !gen_dir(out, 0).join(format!("{}.toml", first.best_name)).is_file()
        {
            let dir = gen_dir(out, 0);
            self.bar.suspend(|| {
                log::info!(
                    "{}: rewriting generation 0's missing organism files from the initial population",
                    dir.display()
                )
            });
            std::fs::create_dir_all(&dir).map_err(|e| CoevolveError::io(&dir, e))?;
            let initial = self.initial;
            for (i, genome) in initial.genomes.iter().enumerate() {
                let path = dir.join(format!("g0o{i}.toml"));
                if !path.is_file() {
                    co.write_organism(&path, 0, i, &initial.origins[i], genome, &initial.bases[i])?;
                }
            }
        }
        for (at, h) in history.iter().enumerate() {
            let Some(c) = h.challenge.as_ref().filter(|c| c.verdict == Verdict::Promoted) else { continue };
            let dir = gen_dir(out, h.generation);
            let path = dir.join(format!("{}.toml", c.challenger));
            if path.is_file() {
                continue;
            }
            let Some(o) = &c.organism else {
                return Err(CoevolveError::io(
                    &path,
                    format!(
                        "missing, and checkpoint.json's record of generation {} predates the genome that rebuilds a \
                         champion's file: copy it from the machine that ran that generation",
                        h.generation
                    ),
                ));
            };
            let base = self.initial.bases.get(o.base).ok_or_else(|| {
                CoevolveError::io(&path, format!("missing, and its base, organism {}, is not in generation 0", o.base))
            })?;
            // The header names the organism's origin, as when its generation wrote it.
            let origins = self.origins(h.generation, &history[..at]);
            let Some((i, origin)) = c
                .challenger
                .strip_prefix(&format!("g{}o", h.generation))
                .and_then(|i| i.parse::<usize>().ok())
                .and_then(|i| origins.get(i).map(|o| (i, o)))
            else {
                return Err(CoevolveError::io(&path, "missing, and not an organism of its generation to rebuild"));
            };
            self.bar.suspend(|| log::info!("{}: rebuilding the champion's file from checkpoint.json", path.display()));
            std::fs::create_dir_all(&dir).map_err(|e| CoevolveError::io(&dir, e))?;
            co.write_organism(&path, h.generation, i, origin, &o.genome, base)?;
        }
        Ok(())
    }
}

impl Problem for RoundRobin<'_> {
    type Score = Standing;
    type Record = CoevolveGeneration;
    type Error = CoevolveError;

    fn evaluate(&self, b: Batch<'_, Standing, CoevolveGeneration>) -> Result<Vec<Standing>, CoevolveError> {
        let co = self.coevolution;
        let origins = self.origins(b.generation, b.history);
        let from = lineage(b.population.len(), self.elitism, b.generation, b.history);
        let bases: Vec<&Params> = from.iter().map(|&i| &self.initial.bases[i]).collect();
        let done: u64 = b.history.iter().map(|h| h.games + h.reference.as_ref().map_or(0, |r| r.games)).sum();
        let tests: u64 = b.history.iter().filter_map(|h| h.challenge.as_ref()).map(|c| c.games).sum();
        // Races that ended before their budget leave games unplayed.
        let per_generation = co.generation_games(b.population.len());
        let unused: u64 = b.history.iter().map(|h| per_generation.saturating_sub(h.games)).sum();
        self.bar.set_length((self.planned + tests).saturating_sub(unused));
        self.bar.skip_to(done + tests);
        self.bar.set_prefix(format!("generation {}/{}", b.generation + 1, self.generations));
        if b.generation > 0 {
            self.restore_files(b.history)?;
        }
        let field = co.write_organisms(b.generation, b.population, &origins, &bases)?;
        let mut g = match co.cfg.selection {
            Scheme::RoundRobin => co.play_generation(b.generation, field, b.resume, &self.bar)?,
            Scheme::Racing => co.play_race(b.generation, &field, self.elitism, b.resume, &self.bar)?,
            Scheme::Reference => {
                let pool = self.pool.expect("reference selection reads its pool before the run");
                co.play_pool(b.generation, field, pool, b.resume, &self.bar)?
            }
        };
        let reference = match b.history.first() {
            Some(first) if co.cfg.reference_games > 0 => {
                let file = gen_dir(&co.cfg.out_dir, 0).join(format!("{}.toml", first.best_name));
                Some(co.play_reference(b.generation, b.population.len(), &g.best_name, &file, b.resume, &self.bar)?)
            }
            _ => None,
        };
        let challenge = match self.first {
            Some(first) if co.cfg.champion.challenges_after(b.generation) => {
                let best = Challenger { name: &g.best_name, genome: &b.population[g.best], base: from[g.best] };
                Some(co.challenge(b.generation, b.population.len(), &best, first, b.history, b.resume, &self.bar)?)
            }
            _ => None,
        };
        let best = g.best;
        let mut race = g.race.take();
        let mut pool = g.pool.take();
        Ok(g.organisms
            .into_iter()
            .zip(g.cross)
            .enumerate()
            .map(|(i, (result, row))| Standing {
                result,
                row,
                reference: if i == best { reference.clone() } else { None },
                challenge: if i == best { challenge.clone() } else { None },
                race: if i == best { race.take() } else { None },
                pool: if i == best { pool.take() } else { None },
            })
            .collect())
    }

    fn fitness(&self, s: &Standing) -> f64 {
        s.result.fitness()
    }

    fn metric(&self, s: &Standing) -> f64 {
        if s.result.games == 0 { 0.0 } else { s.result.points / s.result.games as f64 }
    }

    fn restore(&self, fitness: f64, _: f64) -> (Standing, bool) {
        let result = OrganismResult {
            name: String::new(),
            origin: String::new(),
            points: fitness,
            games: 0,
            wdl: Wdl::default(),
            elo: None,
            rating: None,
        };
        (Standing { result, row: Vec::new(), reference: None, challenge: None, race: None, pool: None }, false)
    }

    fn test(&self, _: &Genome) -> f64 {
        f64::NAN
    }

    fn record(
        &self,
        pop: &[Genome],
        standings: &[Standing],
        best: usize,
        stats: GenerationStats,
        _: &AfterTell,
    ) -> Result<CoevolveGeneration, CoevolveError> {
        let g = CoevolveGeneration {
            generation: stats.generation,
            best,
            best_name: standings[best].result.name.clone(),
            // Each game is two organisms' in a round robin or a race, one organism's against the pool.
            games: standings.iter().map(|s| s.result.games).sum::<u64>()
                / if standings[best].pool.is_some() { 1 } else { 2 },
            organisms: standings.iter().map(|s| s.result.clone()).collect(),
            cross: standings.iter().map(|s| s.row.clone()).collect(),
            seconds: stats.seconds,
            reference: standings[best].reference.clone(),
            challenge: standings[best].challenge.clone(),
            race: standings[best].race.clone(),
            pool: standings[best].pool.clone(),
            diversity: Some(diversity(pop, self.coevolution.space.layout())),
        };
        let reference = g.reference.as_ref().map_or(String::new(), |r| {
            let elo = r.elo.map_or_else(|| "-".into(), |e| format!("{:+.0} +/- {:.0} Elo", e.elo, e.error));
            format!(", vs {} {:.1}/{} ({elo})", r.reference, r.points, r.games)
        });
        // Racing: the best's rating, and the race's games and end.
        let rating = match (&g.organisms[best].rating, &g.race) {
            (Some(r), Some(race)) => format!(
                " rating {:+.0} +/- {:.0} Elo (1 s.e.) after {} racing rounds, {} games ({}),",
                r.elo,
                r.error,
                race.rounds,
                g.games,
                match race.end {
                    racing::RaceEnd::Separated => "the elite separated",
                    racing::RaceEnd::Budget => "the budget spent",
                }
            ),
            _ => String::new(),
        };
        let line = format!(
            "generation {}: best {}{rating} {:.1}/{} ({:.1}%), mean {:.1}%, worst {:.1}%{}{reference}, diversity {:.3} ({:.0}s)",
            g.generation,
            g.best_name,
            g.organisms[best].points,
            g.organisms[best].games,
            100.0 * g.best_score(),
            100.0 * g.mean_score(),
            100.0 * g.worst_score(),
            g.elite_rank()
                .map_or(String::new(), |r| format!(", last generation's best ranks {r} of {}", g.organisms.len())),
            g.diversity.unwrap_or(0.0),
            g.seconds
        );
        self.bar.suspend(|| log::info!("{line}"));
        if let Some(c) = &g.challenge {
            self.bar.suspend(|| log::info!("{}", champion::chain_lines(std::slice::from_ref(&g))[0]));
            if c.verdict == champion::Verdict::Promoted {
                self.bar.suspend(|| log::info!("generation {}: {} is the new champion", g.generation, c.challenger));
            }
        }
        Ok(g)
    }

    fn report(&self, history: &[CoevolveGeneration]) -> Result<(), CoevolveError> {
        self.coevolution.write_reports(history)
    }
}

impl Coevolution {
    /// Plays generation `g`'s round robin among `field`.
    fn play_generation(
        &self,
        g: usize,
        field: Field,
        resume: bool,
        bar: &Progress,
    ) -> Result<CoevolveGeneration, CoevolveError> {
        let started = Instant::now();
        let dir = gen_dir(&self.cfg.out_dir, g);
        let Field { engines, names, origins } = field;
        let mut m = self.base.clone();
        // Fresh openings every generation, reproducibly.
        let seed = crate::hash::mix64(self.cfg.seed ^ (g as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        self.deal(&mut m, g, names.len(), Use::Ranking, seed)?;
        journal(&mut m, &dir, "games", "results.json", resume);
        let mut obs = GenObserver::new(g, bar);
        let results = round_robin(engines, &m, &mut obs)?;
        let summary = summarise(g, &names, &origins, &results, started.elapsed().as_secs_f64());
        let csv = dir.join("crosstable.csv");
        write_atomic(&csv, crosstable_csv(&summary).as_bytes()).map_err(|e| CoevolveError::io(&csv, e))?;
        Ok(summary)
    }

    /// Plays generation `g`'s best organism (`best`, a file of `gen_dir(g)`) against the
    /// reference `reference` (generation 0's champion), `reference_games` games with openings
    /// drawn from the book, journaled like the round robin so that a resume loses nothing.
    fn play_reference(
        &self,
        g: usize,
        size: usize,
        best: &str,
        reference: &Path,
        resume: bool,
        bar: &Progress,
    ) -> Result<ReferenceResult, CoevolveError> {
        let dir = gen_dir(&self.cfg.out_dir, g);
        let name = reference.file_stem().map_or_else(|| "reference".into(), |s| s.to_string_lossy().into_owned());
        let engines = vec![
            EngineSpec::new(best, &self.engine)
                .with_params(dir.join(format!("{best}.toml")))
                .with_limits(self.limits.clone()),
            EngineSpec::new(&name, &self.engine).with_params(reference).with_limits(self.limits.clone()),
        ];
        let mut m = self.base.clone();
        m.games = self.cfg.reference_games;
        // Other openings than the round robin's.
        let seed = crate::hash::mix64(!self.cfg.seed ^ (g as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        self.deal(&mut m, g, size, Use::Reference, seed)?;
        m.event = "evochess coevolution: champion vs reference".into();
        journal(&mut m, &dir, "reference", "reference.json", resume);
        let mut obs = GenObserver::new(g, bar);
        let r = round_robin(engines, &m, &mut obs)?;
        let t = &r.totals[0];
        Ok(ReferenceResult {
            reference: name,
            points: t.points,
            games: t.games,
            wdl: t.wdl,
            elo: t.wdl.elo().filter(|e| e.elo.is_finite() && e.error.is_finite()),
        })
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::{
        coevolve::{CoevolveConfig, load_population, report::tests::organism},
        ga::{generation_rng, random_genome},
    };

    /// A gated coevolution in scratch directory `name` over the paper's space, its three seed
    /// files differing inside the space and outside it (`lmr_base`, kept from each seed).
    fn scratch_run(name: &str) -> (Coevolution, Initial) {
        let dir = std::env::temp_dir().join(format!("evochess-coevolve-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("seeds")).unwrap();
        let files: Vec<PathBuf> = (0..3)
            .map(|i| {
                let mut p = Params::default();
                p.eval.knight_mg = 280 + 20 * i;
                p.search.lmr_base = 60 + i;
                let file = dir.join(format!("seeds/run-{i}.toml"));
                std::fs::write(&file, p.to_toml()).unwrap();
                file
            })
            .collect();
        let mut cfg = CoevolveConfig::parse("[champion]\ngate = \"sprt\"\n").unwrap();
        cfg.space = Some(PathBuf::from("configs/spaces/evolve-paper.toml"));
        cfg.out_dir = dir.join("out");
        // Never started: nothing below plays a game.
        cfg.engine = Some(PathBuf::from("/bin/sh"));
        let co = Coevolution::new(cfg).unwrap();
        let initial = load_population(&files, &co.space).unwrap();
        (co, initial)
    }

    fn round_robin<'c>(co: &'c Coevolution, initial: &'c Initial) -> RoundRobin<'c> {
        let bar = Progress::hidden();
        RoundRobin { coevolution: co, initial, first: None, pool: None, elitism: 1, generations: 2, planned: 0, bar }
    }

    fn record(g: usize, points: &[f64], challenge: Option<Challenge>) -> CoevolveGeneration {
        let organisms: Vec<OrganismResult> = points.iter().map(|&p| organism("", p)).collect();
        let best = elite_indices(points, 1)[0];
        CoevolveGeneration {
            generation: g,
            best,
            best_name: format!("g{g}o{best}"),
            cross: Vec::new(),
            organisms,
            games: 0,
            seconds: 0.0,
            reference: None,
            challenge,
            race: None,
            pool: None,
            diversity: None,
        }
    }

    /// Every file of `dir` with its bytes.
    fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
        let mut all: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        all.sort();
        all.into_iter().map(|p| (p.clone(), std::fs::read(&p).unwrap())).collect()
    }

    #[test]
    fn generation_0_s_missing_files_are_rewritten_as_it_wrote_them() {
        let (co, initial) = scratch_run("restore-gen0");
        let rr = round_robin(&co, &initial);
        let bases: Vec<&Params> = initial.bases.iter().collect();
        co.write_organisms(0, &initial.genomes, &initial.origins, &bases).unwrap();
        let dir = gen_dir(&co.cfg.out_dir, 0);
        let written = files(&dir);
        assert_eq!(written.len(), 3);
        let history = [record(0, &[1.0, 3.0, 2.0], None)];
        // The whole directory gone, as on a machine that has only the checkpoint.
        std::fs::remove_dir_all(&dir).unwrap();
        rr.restore_files(&history).unwrap();
        assert_eq!(files(&dir), written);
        // Only the missing files are written; one there is kept as it is.
        std::fs::remove_file(dir.join("g0o1.toml")).unwrap();
        std::fs::write(dir.join("g0o2.toml"), "kept").unwrap();
        rr.restore_files(&history).unwrap();
        assert_eq!(files(&dir)[..2], written[..2]);
        assert_eq!(std::fs::read_to_string(dir.join("g0o2.toml")).unwrap(), "kept");
        std::fs::remove_dir_all(co.cfg.out_dir.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_promoted_challenger_s_file_is_rebuilt_from_the_checkpoint() {
        let (co, initial) = scratch_run("restore-champion");
        let rr = round_robin(&co, &initial);
        // Generation 0's best is organism 1, so generation 1's elite (slot 0) keeps seed 1's
        // values outside the space; child 2 keeps seed 2's.
        let mut history = vec![record(0, &[1.0, 3.0, 2.0], None)];
        let mut rng = generation_rng(7, 0, 1);
        let child = |rng: &mut _| random_genome(co.space.layout(), rng);
        let pop = vec![initial.genomes[1].clone(), child(&mut rng), child(&mut rng)];
        let from = lineage(3, 1, 1, &history);
        assert_eq!(from, vec![1, 1, 2]);
        let bases: Vec<&Params> = from.iter().map(|&i| &initial.bases[i]).collect();
        let origins = rr.origins(1, &history);
        co.write_organisms(1, &pop, &origins, &bases).unwrap();
        let file = gen_dir(&co.cfg.out_dir, 1).join("g1o2.toml");
        let written = std::fs::read(&file).unwrap();
        let promoted = Challenge {
            challenger: "g1o2".into(),
            champion: champion::START.into(),
            verdict: Verdict::Promoted,
            line: "SPRT".into(),
            games: 20,
            fingerprint: None,
            organism: Some(champion::Organism { genome: pop[2].clone(), base: from[2] }),
        };
        history.push(record(1, &[1.0, 1.0, 3.0], Some(promoted)));
        // Through the checkpoint's JSON, on a machine without the generations' directories.
        let history: Vec<CoevolveGeneration> = serde_json::from_str(&serde_json::to_string(&history).unwrap()).unwrap();
        std::fs::remove_dir_all(&co.cfg.out_dir).unwrap();
        rr.restore_files(&history).unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), written, "the champion's file is not as generation 1 wrote it");
        let values = Params::load(&file).unwrap();
        assert_eq!((values.search.lmr_base, values.eval.pawn_mg), (62, 100), "seed 2's values outside the space");
        assert!(gen_dir(&co.cfg.out_dir, 0).join("g0o1.toml").is_file(), "the reference's file");
        let first = FirstChampion { source: "defaults".into(), params: Params::default() };
        assert!(co.champion_output(&first, &history).unwrap().0 == values);
        // A record from before the genome was kept cannot rebuild it, and says which file.
        let mut old = history.clone();
        old[1].challenge.as_mut().unwrap().organism = None;
        std::fs::remove_file(&file).unwrap();
        let e = rr.restore_files(&old).unwrap_err().to_string();
        assert!(e.contains(&file.display().to_string()) && e.contains("generation 1"), "{e}");
        std::fs::remove_dir_all(co.cfg.out_dir.parent().unwrap()).unwrap();
    }
}
