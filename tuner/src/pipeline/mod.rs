//! `tuner pipeline`: the whole EVOL* method in one command (David et al. 2014 §III–V).
//!
//! 1. `evolve` ×N: N independent runs of the GM-move evolution (`<out>/evolve`, `<out>/evolved/run-N.toml`).
//! 2. `coevolve` from those N organisms (`<out>/coevolve`, `<out>/params/coevolved.toml`).
//! 3. `search-evolve` with the coevolved evaluation fixed (`<out>/search-evolve`,
//!    `<out>/params/evol-star.toml` = EVOL*).
//! 4. Verification: EVOL0 (the best evolve-only evaluation with EVOL*'s search section, the
//!    paper's control), EVOL*, `params/default.toml` and external engines (Debian's glaurung
//!    and toga2) on EPD suites (Tables III/VII), then matches of EVOL* against each of them
//!    (Tables IV–VI) with the Elo difference of David's Appendix B, RD = −400·log10(1/W − 1),
//!    and its 95% confidence interval.
//! 5. `<out>/report.md` with every table and chart of §V (charts copied next to it as SVG).
//!
//! The configuration ([`PipelineConfig`]) names each stage's own config file and overrides any
//! of its keys inline, so one file scales from a 10-minute smoke run
//! (`configs/pipeline/smoke.toml`) to the paper's settings (`configs/pipeline/full.toml`).
//! `--resume` resumes every stage from its checkpoints and the matches from their journals.
//!
//! This module orchestrates: it calls each stage's library entry point (not the command line)
//! and plays the verification; [`config`] holds the configuration and `report` writes the
//! report from the stages' typed results.
pub mod config;
mod report;

use config::MatchPlan;
pub use config::{Opponent, PipelineConfig, Stage, VerifyConfig};
use report::{MatchRow, Report, SuiteRow, Timings};

use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use arena::{
    engine::spec::EngineSpec,
    files::write_atomic,
    openings::OpeningsConfig,
    results::MatchResults,
    runner::{MatchConfig, NoObserver, Tournament, play_match},
    tc::SearchLimits,
};
use evochess::params::Params;

use crate::{
    coevolve::{Coevolution, CoevolveConfig},
    epd::{self},
    evolve::{self, EvolveConfig},
    ga::run_dir::{RunDir, Start},
    ga::threads,
    paths::{ConfigPaths, default_engine},
    search_evolve::{SearchEvolution, SearchEvolveConfig},
    space::SearchSpace,
};
/// One engine of the verification.
struct Contestant {
    name: String,
    spec: EngineSpec,
    plan: MatchPlan,
}

/// The three stages' configs, each its file merged with the pipeline's overrides and the paths
/// the pipeline chains them by (evolve's parameter files are coevolve's population, coevolve's
/// best is search-evolve's evaluation).
struct Stages {
    evolve: EvolveConfig,
    coevolve: CoevolveConfig,
    search_evolve: SearchEvolveConfig,
}

/// Reads every stage's config and writes it, as run, to `<out>/<stage>.toml`.
fn stage_configs(cfg: &PipelineConfig, engine: &Path) -> anyhow::Result<Stages> {
    let out = &cfg.out_dir;
    let shown = |p: PathBuf| toml::Value::from(p.display().to_string());
    let write = |name: &str, table: &toml::Table| -> anyhow::Result<String> {
        let text = toml::to_string(table)?;
        write_atomic(&out.join(name), text.as_bytes())?;
        Ok(text)
    };
    let mut table = cfg.evolve.merged_with_parallelism("threads", cfg.concurrency, &EvolveConfig::input_paths())?;
    table.insert("out_dir".into(), shown(out.join("evolve")));
    table.insert("evolved_dir".into(), shown(out.join("evolved")));
    let evolve = EvolveConfig::parse(&write("evolve.toml", &table)?).context("[evolve]")?;
    evolve.validate().context("[evolve]")?;

    let mut table =
        cfg.coevolve.merged_with_parallelism("concurrency", cfg.concurrency, &CoevolveConfig::input_paths())?;
    // The pipeline coevolves the organisms its evolve stage made: the paper's round robin. An ES
    // config (tuner coevolve's default) would otherwise fail on its first ES-only key.
    match table.get("method").and_then(toml::Value::as_str) {
        None | Some("paper") => {}
        Some(method) => bail!(
            "[coevolve] config {}: method = \"{method}\", but the pipeline coevolves the organisms of its evolve \
             stage by the paper's round robin: name configs/coevolve/paper.toml or another config with \
             method = \"paper\" (the evolution strategy runs alone: `tuner coevolve`)",
            cfg.coevolve.config.as_ref().map_or_else(|| "(inline)".into(), |p| p.display().to_string())
        ),
    }
    table.insert("population_dir".into(), shown(out.join("evolved")));
    table.insert("out_dir".into(), shown(out.join("coevolve")));
    table.insert("output".into(), shown(out.join("params/coevolved.toml")));
    table.insert("engine".into(), shown(engine.to_path_buf()));
    let coevolve = CoevolveConfig::parse(&write("coevolve.toml", &table)?).context("[coevolve]")?;
    coevolve.check_optimiser().context("[coevolve]")?;

    let mut table =
        cfg.search_evolve.merged_with_parallelism("threads", cfg.concurrency, &SearchEvolveConfig::input_paths())?;
    table.insert("params".into(), shown(coevolve.output.clone()));
    table.insert("out_dir".into(), shown(out.join("search-evolve")));
    table.insert("output".into(), shown(out.join("params/evol-star.toml")));
    let search_evolve = SearchEvolveConfig::parse(&write("search-evolve.toml", &table)?).context("[search_evolve]")?;
    Ok(Stages { evolve, coevolve, search_evolve })
}

/// Runs the pipeline; returns the report path.
pub fn run(cfg: &PipelineConfig, resume: bool, force: bool) -> anyhow::Result<PathBuf> {
    let t_all = Instant::now();
    let out = &cfg.out_dir;
    std::fs::create_dir_all(out.join("params")).with_context(|| format!("cannot create {}", out.display()))?;
    let engine = cfg.engine.clone().unwrap_or_else(default_engine);
    if !engine.is_file() {
        bail!("engine {} not found (build it with `cargo build --release`)", engine.display());
    }
    cfg.verify.validate()?;
    let mut timings = Timings::default();

    // Under --resume a stage not reached yet has nothing to resume and starts.
    let stage_start = match (resume, force) {
        (true, _) => Start::ResumeOrFresh,
        (false, true) => Start::Force,
        (false, false) => Start::Fresh,
    };

    // Every stage's config is read (and its values typed) before the first stage starts.
    let Stages { evolve: evolve_cfg, coevolve: co_cfg, search_evolve: se_cfg } = stage_configs(cfg, &engine)?;

    // 1. evolve xN
    let t = Instant::now();
    log::info!("pipeline: evolve x{}", evolve_cfg.runs);
    let runs = 1..=evolve_cfg.runs;
    let evolve_locks = RunDir::open_all(&evolve::runs::run_state(&evolve_cfg.out_dir, runs.clone()), stage_start)?;
    let pgn: Vec<PathBuf> = cfg.pgn.iter().map(|p| crate::paths::resolve_data_path(p)).collect();
    let setup = evolve::runs::prepare(&evolve_cfg, &pgn)?;
    let evolved = evolve::runs::run_all(&evolve_cfg, &setup, runs, stage_start.resumes(), |r| {
        log::info!("pipeline: evolve run {} -> {}", r.outcome.run, r.file.display());
    })?;
    drop(evolve_locks);
    timings.0.push(("evolve", t.elapsed()));

    // 2. coevolve
    let t = Instant::now();
    log::info!("pipeline: coevolve");
    let co = Coevolution::new(co_cfg)?.run(stage_start, |plan| log::info!("{plan}"))?;
    timings.0.push(("coevolve", t.elapsed()));

    // 3. search-evolve
    let t = Instant::now();
    log::info!("pipeline: search-evolve");
    let se = SearchEvolution::new(se_cfg)?;
    log::info!("{}", se.plan());
    let se_summary = se.run(stage_start)?;
    timings.0.push(("search-evolve", t.elapsed()));

    // 4. verification
    let t = Instant::now();
    let evol_star = out.join("params/evol-star.toml");
    let evol0_path = write_evol0(out, &evol_star, &co.initial_best)?;
    let (contestants, skipped) = contestants(&cfg.verify, &engine, &evol_star, &evol0_path);
    let suite_rows = solve_suites(cfg, &contestants)?;
    let match_rows = play_matches(cfg, &contestants, resume)?;
    timings.0.push(("verification", t.elapsed()));
    timings.0.push(("total", t_all.elapsed()));

    let space = SearchSpace::load(&evolve_cfg.space)?;
    let report = Report { cfg, evolve_cfg: &evolve_cfg, evolved: &evolved, space: &space, co: &co, se: &se_summary };
    let text = report.render(&suite_rows, &match_rows, &skipped, &timings)?;
    let path = out.join("report.md");
    write_atomic(&path, text.as_bytes())?;
    Ok(path)
}

/// Writes EVOL0, the control: the best evolve-only evaluation (`initial_best`) with the search
/// section of EVOL* (`evol_star`); returns its path.
fn write_evol0(out: &Path, evol_star: &Path, initial_best: &Path) -> anyhow::Result<PathBuf> {
    let star = Params::load(evol_star)?;
    let mut evol0 = Params::load(initial_best)?;
    evol0.search = star.search.clone();
    let evol0_path = out.join("params/evol0.toml");
    write_atomic(
        &evol0_path,
        format!(
            "# EVOL0: the best evolve-only evaluation ({}) with EVOL*'s search section.\n{}",
            initial_best.display(),
            evol0.to_toml()
        )
        .as_bytes(),
    )?;
    Ok(evol0_path)
}

/// The engines of the verification, EVOL* first: EVOL0, `params/default.toml` when there is
/// one, and the external opponents whose command exists; and the opponents skipped, with why.
fn contestants(v: &VerifyConfig, engine: &Path, evol_star: &Path, evol0_path: &Path) -> (Vec<Contestant>, Vec<String>) {
    let default_path = PathBuf::from("params/default.toml");
    let internal = v.internal_plan();
    let mut contestants = vec![
        Contestant {
            name: "EVOL*".into(),
            spec: EngineSpec::new("EVOL*", engine).with_params(evol_star),
            plan: internal.clone(),
        },
        Contestant {
            name: "EVOL0".into(),
            spec: EngineSpec::new("EVOL0", engine).with_params(evol0_path),
            plan: internal.clone(),
        },
    ];
    if default_path.is_file() {
        contestants.push(Contestant {
            name: "default".into(),
            spec: EngineSpec::new("default", engine).with_params(&default_path),
            plan: internal.clone(),
        });
    }
    let mut skipped = Vec::new();
    for o in &v.opponents {
        if !o.cmd.is_file() {
            skipped.push(format!("{} (`{}` not found)", o.name, o.cmd.display()));
            continue;
        }
        let mut spec = EngineSpec::new(&o.name, &o.cmd);
        spec.proto = o.proto;
        for (k, val) in &o.options {
            let val = match val {
                toml::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            spec = spec.with_option(k, &val);
        }
        contestants.push(Contestant { name: o.name.clone(), spec, plan: v.opponent_plan(o) });
    }
    (contestants, skipped)
}

/// Every UCI contestant on the EPD suites' positions (Tables III and VII).
fn solve_suites(cfg: &PipelineConfig, contestants: &[Contestant]) -> anyhow::Result<Vec<SuiteRow>> {
    let v = &cfg.verify;
    let mut positions = Vec::new();
    for s in &v.suites {
        let mut p = epd::load_suite(s, false)?;
        if v.epd_max_positions > 0 {
            p.truncate(v.epd_max_positions);
        }
        positions.extend(p);
    }
    let mut suite_rows = Vec::new();
    let conc = threads(cfg.concurrency);
    for c in contestants.iter().filter(|c| c.spec.proto.is_uci()) {
        let mut spec = c.spec.clone();
        spec.limits = SearchLimits {
            movetime_ms: v.epd_movetime.map(|s| (s * 1000.0).round().max(1.0) as u64),
            nodes: v.epd_nodes,
            ..SearchLimits::default()
        };
        log::info!("pipeline: {} on {} suite positions", c.name, positions.len());
        let results = epd::solve_suite(&spec, &positions, conc, Duration::from_secs(60), &|_| {})?;
        suite_rows.push(SuiteRow { name: c.name.clone(), results });
    }
    Ok(suite_rows)
}

/// EVOL* against each other contestant (Tables IV–VI), each match journaled under
/// `<out>/matches` and resumed from its journal under `--resume`.
fn play_matches(cfg: &PipelineConfig, contestants: &[Contestant], resume: bool) -> anyhow::Result<Vec<MatchRow>> {
    let v = &cfg.verify;
    let mut match_rows = Vec::new();
    let mut base = MatchConfig::new(Vec::new(), Tournament::Match);
    base.concurrency = threads(cfg.concurrency);
    base.openings = Some(OpeningsConfig::parse(&[format!("file={}", v.openings.display()), "order=random".into()])?);
    base.adjudication = v.adjudication();
    let mdir = cfg.out_dir.join("matches");
    std::fs::create_dir_all(&mdir)?;
    for c in contestants.iter().skip(1) {
        if !v.internal_matches && (c.name == "EVOL0" || c.name == "default") {
            continue;
        }
        let limits = c.plan.limits(v.timemargin_ms);
        let a = contestants[0].spec.clone().with_limits(limits.clone());
        let b = c.spec.clone().with_limits(limits);
        let mut m = MatchConfig { engines: vec![a, b], games: c.plan.games, ..base.clone() };
        m.event = format!("EVOL* vs {}", c.name);
        let stem = mdir.join(format!("evol-star-vs-{}", c.name.to_lowercase()));
        m.pgn_out = Some(stem.with_extension("pgn"));
        m.state = Some(stem.with_extension("state.jsonl"));
        m.resume = resume && stem.with_extension("state.jsonl").is_file();
        log::info!("pipeline: EVOL* vs {} ({} games, {})", c.name, c.plan.games, c.plan.describe());
        let r: MatchResults = play_match(&m, &mut NoObserver)?;
        if let Some(pair) = r.pairs.first() {
            let f = |i: usize| r.totals.get(i).map_or(0, |t| t.forfeits);
            match_rows.push(MatchRow {
                opponent: c.name.clone(),
                plan: c.plan.clone(),
                pair: pair.clone(),
                forfeits: (f(0), f(1)),
            });
        }
    }
    Ok(match_rows)
}
