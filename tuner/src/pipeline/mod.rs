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
//! (`params/pipeline-smoke.toml`) to the paper's settings (`params/pipeline-full.toml`).
//! `--resume` resumes every stage from its checkpoints and the matches from their journals.

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use evochess::params::Params;
use serde::{Deserialize, Serialize};

use crate::{
    adjudicate::{AdjudicationConfig, DrawRule, MaxMovesRule, ResignRule},
    coevolve::{Coevolution, CoevolveConfig, CoevolveOutcome},
    engine::Protocol,
    engine_spec::EngineSpec,
    epd::{self, PositionResult},
    evolve::{self, EvolveConfig},
    files::write_atomic,
    ga::run_dir::{RunDir, Start},
    ga::threads,
    openings::OpeningsConfig,
    parsed::Parsed,
    paths::default_engine,
    results::{MatchResults, PairStats},
    runner::{MatchConfig, NoObserver, Tournament, play_match},
    search_evolve::{NodeCount, SearchEvolution, SearchEvolveConfig, SearchEvolveSummary, data_file},
    space::SearchSpace,
    stats::elo::elo_from_score,
    tc::{ClockTc, SearchLimits},
};

/// One stage: its own config file plus inline overrides of any of its keys.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Stage {
    pub config: Option<PathBuf>,
    #[serde(flatten)]
    pub overrides: toml::Table,
}

impl Stage {
    /// The stage's config text: its file with the overrides merged in (tables key by key).
    pub fn merged(&self) -> anyhow::Result<toml::Table> {
        let mut table: toml::Table = match &self.config {
            Some(p) => crate::builtin::read_text(p)
                .with_context(|| format!("cannot read {}", p.display()))?
                .parse()
                .with_context(|| format!("in {}", p.display()))?,
            None => toml::Table::new(),
        };
        merge(&mut table, &self.overrides);
        Ok(table)
    }

    /// [`Stage::merged`] with its parallelism key (`threads` or `concurrency`) set to the
    /// pipeline's `concurrency`, unless the pipeline file sets it for this stage: the stage's
    /// own config file (e.g. `threads = 0` in params/evolve.toml) does not outrank the pipeline.
    pub fn merged_with_parallelism(&self, key: &str, concurrency: usize) -> anyhow::Result<toml::Table> {
        let mut table = self.merged()?;
        if !self.overrides.contains_key(key) {
            table.insert(key.into(), (concurrency as i64).into());
        }
        Ok(table)
    }
}

/// Each stage's parallelism key, as [`Stage::merged_with_parallelism`] reads it.
type StageOf = fn(&mut PipelineConfig) -> &mut Stage;
const PARALLELISM_KEYS: [(&str, StageOf); 3] =
    [("threads", |c| &mut c.evolve), ("concurrency", |c| &mut c.coevolve), ("threads", |c| &mut c.search_evolve)];

fn merge(base: &mut toml::Table, over: &toml::Table) {
    for (k, v) in over {
        match (base.get_mut(k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
            _ => {
                base.insert(k.clone(), v.clone());
            }
        }
    }
}

/// An external opponent for the verification matches and suites.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Opponent {
    pub name: String,
    pub cmd: PathBuf,
    /// `"uci"` (the default) or `"xboard"`; an xboard opponent plays the matches only (the
    /// suites are solved over UCI).
    #[serde(default, skip_serializing_if = "Protocol::is_uci")]
    pub proto: Protocol,
    /// Engine options, e.g. `{ Hash = "16" }`.
    #[serde(default)]
    pub options: toml::Table,
    /// This match's games, clock and node limit, instead of `[verify]`'s.
    pub games: Option<u32>,
    pub tc: Option<Parsed<ClockTc>>,
    pub nodes: Option<u64>,
}

impl Opponent {
    fn new(name: &str, cmd: &str) -> Self {
        Self {
            name: name.into(),
            cmd: cmd.into(),
            proto: Protocol::Uci,
            options: toml::Table::new(),
            games: None,
            tc: None,
            nodes: None,
        }
    }
}

/// The length and limits of one verification match.
#[derive(Clone, Debug, PartialEq)]
struct MatchPlan {
    games: u32,
    tc: Option<Parsed<ClockTc>>,
    nodes: Option<u64>,
}

impl MatchPlan {
    /// `base`'s values where the override has none. A match that overrides the clock but not
    /// the node limit (or the reverse) drops the other one, so `tc = "10+0.1"` alone means a
    /// purely timed match even when `[verify]` is node-limited.
    fn with(base: &MatchPlan, games: Option<u32>, tc: &Option<Parsed<ClockTc>>, nodes: Option<u64>) -> MatchPlan {
        let (tc, nodes) =
            if tc.is_some() || nodes.is_some() { (tc.clone(), nodes) } else { (base.tc.clone(), base.nodes) };
        MatchPlan { games: games.unwrap_or(base.games), tc, nodes }
    }

    fn limits(&self, margin_ms: u64) -> SearchLimits {
        let clock = self.tc.as_ref().map(|t| *t.value());
        SearchLimits { clock, nodes: self.nodes, margin_ms, ..SearchLimits::default() }
    }

    fn describe(&self) -> String {
        match (&self.tc, self.nodes) {
            (Some(tc), Some(n)) => format!("{tc}, {n} nodes per move"),
            (Some(tc), None) => tc.to_string(),
            (None, Some(n)) => format!("{n} nodes per move"),
            _ => "-".into(),
        }
    }
}

/// The verification stage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VerifyConfig {
    /// Suites for the solve counts (the paper: ECM at 5 s per position).
    pub suites: Vec<PathBuf>,
    /// Seconds per position, or `epd_nodes` per position.
    pub epd_movetime: Option<f64>,
    pub epd_nodes: Option<u64>,
    /// Use only the first N positions of each suite (0 = all).
    pub epd_max_positions: usize,
    /// Games per match (even: colour-swapped pairs).
    pub games: u32,
    /// Match clock (paper: 5 minutes per game) and/or a node limit per move.
    pub tc: Option<Parsed<ClockTc>>,
    pub nodes: Option<u64>,
    pub timemargin_ms: u64,
    pub openings: PathBuf,
    pub resign: Option<Parsed<ResignRule>>,
    pub draw: Option<Parsed<DrawRule>>,
    pub maxmoves: Option<Parsed<MaxMovesRule>>,
    /// External engines; missing commands are skipped with a note in the report.
    pub opponents: Vec<Opponent>,
    /// Also play EVOL* against EVOL0 and against params/default.toml.
    pub internal_matches: bool,
    /// Games, clock and node limit of those two matches, instead of the values above.
    pub internal_games: Option<u32>,
    pub internal_tc: Option<Parsed<ClockTc>>,
    pub internal_nodes: Option<u64>,
}

impl VerifyConfig {
    fn base_plan(&self) -> MatchPlan {
        MatchPlan { games: self.games, tc: self.tc.clone(), nodes: self.nodes }
    }

    fn internal_plan(&self) -> MatchPlan {
        MatchPlan::with(&self.base_plan(), self.internal_games, &self.internal_tc, self.internal_nodes)
    }

    fn opponent_plan(&self, o: &Opponent) -> MatchPlan {
        MatchPlan::with(&self.base_plan(), o.games, &o.tc, o.nodes)
    }

    /// The resign, draw and max-moves rules of every verification match.
    fn adjudication(&self) -> AdjudicationConfig {
        AdjudicationConfig {
            resign: self.resign.as_ref().map(|r| *r.value()),
            draw: self.draw.as_ref().map(|r| *r.value()),
            maxmoves: self.maxmoves.as_ref().map(|r| *r.value()),
            ..AdjudicationConfig::default()
        }
    }

    /// That every match has a limit and the openings file exists, checked before hours of
    /// evolution rather than when the verification reaches them (clocks and adjudication rules
    /// are typed when the config is read).
    pub fn validate(&self) -> anyhow::Result<()> {
        let mut plans = vec![("[verify]".to_string(), self.base_plan()), ("internal".into(), self.internal_plan())];
        plans.extend(self.opponents.iter().map(|o| (format!("opponent {}", o.name), self.opponent_plan(o))));
        for (what, plan) in plans {
            if plan.tc.is_none() && plan.nodes.is_none() {
                bail!("{what}: a verification match needs `tc` or `nodes`");
            }
        }
        if !self.openings.is_file() {
            bail!("[verify] openings: {} not found", self.openings.display());
        }
        Ok(())
    }
}

impl Default for VerifyConfig {
    fn default() -> Self {
        Self {
            suites: vec![data_file("tests/wac.epd")],
            epd_movetime: Some(5.0),
            epd_nodes: None,
            epd_max_positions: 0,
            games: 300,
            tc: Some("300+0".parse().expect("a valid clock")),
            nodes: None,
            timemargin_ms: 200,
            openings: PathBuf::from("openings/gnuchess-8ply.epd"),
            resign: Some("movecount=3 score=1000".parse().expect("a valid rule")),
            draw: None,
            maxmoves: None,
            opponents: vec![
                Opponent::new("glaurung", "/usr/games/glaurung"),
                Opponent::new("toga2", "/usr/games/toga2"),
            ],
            internal_matches: true,
            internal_games: None,
            internal_tc: None,
            internal_nodes: None,
        }
    }
}

/// `params/pipeline-*.toml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PipelineConfig {
    pub out_dir: PathBuf,
    /// Engine binary (default: `evochess` next to `tuner`).
    pub engine: Option<PathBuf>,
    /// Parallel games / fitness threads; 0 = every core.
    pub concurrency: usize,
    /// GM games for the evolution stage.
    pub pgn: Vec<PathBuf>,
    pub evolve: Stage,
    pub coevolve: Stage,
    pub search_evolve: Stage,
    pub verify: VerifyConfig,
}

impl Default for PipelineConfig {
    fn default() -> Self {
        Self {
            out_dir: PathBuf::from("pipeline-out"),
            engine: None,
            concurrency: 0,
            pgn: vec![data_file("games/gm2600_classical.pgn.xz")],
            evolve: Stage { config: Some("params/evolve.toml".into()), overrides: toml::Table::new() },
            coevolve: Stage { config: Some("params/coevolve.toml".into()), overrides: toml::Table::new() },
            search_evolve: Stage { config: Some("params/search-evolve.toml".into()), overrides: toml::Table::new() },
            verify: VerifyConfig::default(),
        }
    }
}

impl PipelineConfig {
    /// `--concurrency N`: every stage and the verification use N, whatever the files say.
    pub fn force_concurrency(&mut self, concurrency: usize) {
        self.concurrency = concurrency;
        for (key, stage) in PARALLELISM_KEYS {
            stage(self).overrides.remove(key);
        }
    }

    pub fn load(path: &Path) -> anyhow::Result<Self> {
        let text = crate::builtin::read_text(path).with_context(|| format!("cannot read {}", path.display()))?;
        toml::from_str(&text).with_context(|| format!("pipeline config {}", path.display()))
    }
}

/// Wall time of each stage, for the report.
#[derive(Default)]
struct Timings(Vec<(&'static str, Duration)>);

/// One engine of the verification.
struct Contestant {
    name: String,
    spec: EngineSpec,
    plan: MatchPlan,
}

/// Solve counts of one engine.
struct SuiteRow {
    name: String,
    results: Vec<PositionResult>,
}

/// A finished verification match.
struct MatchRow {
    opponent: String,
    plan: MatchPlan,
    pair: PairStats,
    /// Losses on time (or by illegal move, crash, stall) of (EVOL*, opponent).
    forfeits: (u64, u64),
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
    let mut table = cfg.evolve.merged_with_parallelism("threads", cfg.concurrency)?;
    table.insert("out_dir".into(), shown(out.join("evolve")));
    table.insert("evolved_dir".into(), shown(out.join("evolved")));
    let evolve = EvolveConfig::parse(&write("evolve.toml", &table)?).context("[evolve]")?;
    evolve.validate().context("[evolve]")?;

    let mut table = cfg.coevolve.merged_with_parallelism("concurrency", cfg.concurrency)?;
    table.insert("population_dir".into(), shown(out.join("evolved")));
    table.insert("out_dir".into(), shown(out.join("coevolve")));
    table.insert("output".into(), shown(out.join("params/coevolved.toml")));
    table.insert("engine".into(), shown(engine.to_path_buf()));
    let coevolve = CoevolveConfig::parse(&write("coevolve.toml", &table)?).context("[coevolve]")?;

    let mut table = cfg.search_evolve.merged_with_parallelism("threads", cfg.concurrency)?;
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
    let co = Coevolution::new(co_cfg)?.run(stage_start)?;
    timings.0.push(("coevolve", t.elapsed()));

    // 3. search-evolve
    let t = Instant::now();
    log::info!("pipeline: search-evolve");
    let se = SearchEvolution::new(se_cfg)?;
    let se_summary = se.run(stage_start)?;
    timings.0.push(("search-evolve", t.elapsed()));

    // 4. verification
    let t = Instant::now();
    let evol_star = out.join("params/evol-star.toml");
    let star = Params::load(&evol_star)?;
    let mut evol0 = Params::load(&co.initial_best)?;
    evol0.search = star.search.clone();
    let evol0_path = out.join("params/evol0.toml");
    write_atomic(
        &evol0_path,
        format!(
            "# EVOL0: the best evolve-only evaluation ({}) with EVOL*'s search section.\n{}",
            co.initial_best.display(),
            evol0.to_toml()
        )
        .as_bytes(),
    )?;
    let default_path = PathBuf::from("params/default.toml");
    let v = &cfg.verify;
    let internal = v.internal_plan();
    let mut contestants = vec![
        Contestant {
            name: "EVOL*".into(),
            spec: EngineSpec::new("EVOL*", &engine).with_params(&evol_star),
            plan: internal.clone(),
        },
        Contestant {
            name: "EVOL0".into(),
            spec: EngineSpec::new("EVOL0", &engine).with_params(&evol0_path),
            plan: internal.clone(),
        },
    ];
    if default_path.is_file() {
        contestants.push(Contestant {
            name: "default".into(),
            spec: EngineSpec::new("default", &engine).with_params(&default_path),
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
    // Suites
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
    // Matches
    let mut match_rows = Vec::new();
    let mut base = MatchConfig::new(Vec::new(), Tournament::Match);
    base.concurrency = conc;
    base.openings = Some(OpeningsConfig::parse(&[format!("file={}", v.openings.display()), "order=random".into()])?);
    base.adjudication = v.adjudication();
    let mdir = out.join("matches");
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
    timings.0.push(("verification", t.elapsed()));
    timings.0.push(("total", t_all.elapsed()));

    let space = SearchSpace::load(&evolve_cfg.space)?;
    let report = Report { cfg, evolve_cfg: &evolve_cfg, evolved: &evolved, space: &space, co: &co, se: &se_summary };
    let text = report.render(&suite_rows, &match_rows, &skipped, &timings)?;
    let path = out.join("report.md");
    write_atomic(&path, text.as_bytes())?;
    Ok(path)
}

/// David et al. Fig. 3 (average evolved values of ten runs, rounded), by gene name.
const PAPER_FIG3: &[(&str, i32)] = &[
    ("knight_value", 521),
    ("bishop_value", 572),
    ("rook_value", 824),
    ("queen_value", 1710),
    ("pawn_advance_a", 3),
    ("pawn_advance_b", 6),
    ("passed_pawn_mult", 10),
    ("doubled_pawn_penalty", 14),
    ("isolated_pawn_penalty", 8),
    ("backward_pawn_penalty", 3),
    ("weak_square_penalty", 5),
    ("passed_pawn_enemy_king_dist", 7),
    ("knight_sq_mult", 6),
    ("knight_outpost_mult", 9),
    ("bishop_mobility", 4),
    ("bishop_pair", 28),
    ("rook_attack_king_file", 51),
    ("rook_attack_king_adj_file", 8),
    ("rook_attack_king_adj_file_abgh", 26),
    ("rook_7th_rank", 30),
    ("rook_connected", 6),
    ("rook_mobility", 4),
    ("rook_behind_passed_pawn", 40),
    ("rook_open_file", 27),
    ("rook_semi_open_file", 11),
    ("rook_atck_weak_pawn_open_column", 15),
    ("rook_column_mult", 6),
    ("queen_mobility", 2),
    ("king_no_friendly_pawn", 35),
    ("king_no_friendly_pawn_adj", 10),
    ("king_friendly_pawn_advanced1", 6),
    ("king_no_enemy_pawn", 17),
    ("king_no_enemy_pawn_adj", 9),
    ("king_pressure_mult", 4),
];

/// David et al. Table II (learned search values), by parameter name.
const PAPER_TABLE2: &[(&str, i32)] = &[
    ("null_move_use", 1),
    ("null_move_reduction", 4),
    ("null_move_adaptivity_use", 1),
    ("null_move_adaptivity_depth", 6),
    ("futility_depth", 3),
    ("futility_margin_1", 112),
    ("futility_margin_2", 227),
    ("futility_margin_3", 506),
    ("multicut_use", 1),
    ("multicut_reduction", 4),
    ("multicut_depth", 6),
    ("multicut_move_num", 15),
    ("multicut_cut_num", 3),
    ("check_extension", 4),
    ("one_reply_extension", 4),
    ("recapture_extension", 2),
    ("passed_pawn_extension", 3),
    ("mate_threat_extension", 2),
];

fn paper(table: &[(&str, i32)], name: &str) -> String {
    table.iter().find(|(n, _)| *n == name).map_or_else(|| "-".into(), |(_, v)| v.to_string())
}

struct Report<'a> {
    cfg: &'a PipelineConfig,
    evolve_cfg: &'a EvolveConfig,
    /// The evolve runs, finished now or before a `--resume`.
    evolved: &'a [evolve::runs::RunFile],
    space: &'a SearchSpace,
    co: &'a CoevolveOutcome,
    se: &'a SearchEvolveSummary,
}

/// Copies `src` to `<out>/<name>` so the report's links stay inside its directory.
fn copy_chart(out: &Path, src: &Path, name: &str) -> String {
    match std::fs::copy(src, out.join(name)) {
        Ok(_) => format!("![{name}]({name})\n"),
        Err(e) => format!("(chart {} missing: {e})\n", src.display()),
    }
}

impl Report<'_> {
    fn render(
        &self,
        suites: &[SuiteRow],
        matches: &[MatchRow],
        skipped: &[String],
        timings: &Timings,
    ) -> anyhow::Result<String> {
        let out = &self.cfg.out_dir;
        let mut s = String::new();
        let w = &mut s;
        writeln!(w, "# EVOL* pipeline report\n")?;
        writeln!(
            w,
            "David, Netanyahu & Wolf (2014), §V reproduced with evochess. Configuration: `{}`; engine parameter files in `params/`.\n",
            out.join("evolve.toml").display()
        )?;
        writeln!(w, "| stage | wall time |\n|---|---|")?;
        for (name, d) in &timings.0 {
            writeln!(w, "| {name} | {:.1} s |", d.as_secs_f64())?;
        }

        // §V-A
        let ev = self.evolve_cfg;
        writeln!(w, "\n## V-A. Evolution from grandmaster games (Fig. 2)\n")?;
        writeln!(
            w,
            "{} runs, population {}, {} generations, {} training / {} test positions.\n",
            ev.runs, ev.ga.population, ev.ga.generations, ev.positions.train, ev.positions.test
        )?;
        w.push_str(&copy_chart(out, &out.join("evolve/run-1/fitness.svg"), "fig2-evolution-run1.svg"));
        writeln!(w, "\n| run | best: positions solved (train) | test set |\n|---|---|---|")?;
        for r in self.evolved {
            let pct = |v: f64, n: usize| format!("{v} ({:.1}%)", 100.0 * v / n.max(1) as f64);
            writeln!(
                w,
                "| {} | {} | {} |",
                r.outcome.run,
                pct(r.outcome.train_metric, ev.positions.train),
                pct(r.outcome.test_metric, ev.positions.test)
            )?;
        }

        // Fig. 3
        writeln!(w, "\n## Evolved evaluation parameters (Fig. 3)\n")?;
        let runs: Vec<Params> =
            (1..=ev.runs).filter_map(|r| Params::load(out.join(format!("evolved/run-{r}.toml"))).ok()).collect();
        writeln!(
            w,
            "| parameter | mean of {} evolve runs | coevolved (EVOL*) | paper (Fig. 3) |\n|---|---|---|---|",
            runs.len()
        )?;
        for g in &self.space.genes {
            let mean = runs.iter().map(|p| f64::from(p.get(g.keys[0]))).sum::<f64>() / runs.len().max(1) as f64;
            writeln!(
                w,
                "| {} | {:.0} | {} | {} |",
                g.name,
                mean,
                self.co.params.get(g.keys[0]),
                paper(PAPER_FIG3, &g.name)
            )?;
        }

        // §V-B
        writeln!(w, "\n## V-B. Coevolution\n")?;
        let h = &self.co.history;
        let n = h.first().map_or(0, |g| g.organisms.len());
        let games = h.first().map_or(0, |g| g.games);
        writeln!(w, "{n} organisms, {} generations, {games} games per generation.\n", h.len())?;
        w.push_str(&copy_chart(out, &out.join("coevolve/coevolution.svg"), "coevolution.svg"));
        writeln!(
            w,
            "\n| generation | best | points | score | Elo vs field (95% CI) | mean score | worst score |\n|---|---|---|---|---|---|---|"
        )?;
        for g in h {
            let b = &g.organisms[g.best];
            let elo =
                b.elo.filter(|e| e.elo.is_finite()).map_or("-".into(), |e| format!("{:+.0} ± {:.0}", e.elo, e.error));
            writeln!(
                w,
                "| {} | {} | {}/{} | {:.1}% | {elo} | {:.1}% | {:.1}% |",
                g.generation,
                g.best_name,
                b.points,
                b.games,
                100.0 * g.best_score(),
                100.0 * g.mean_score(),
                100.0 * g.worst_score()
            )?;
        }
        writeln!(w, "\nCross tables: `coevolve/gen-NNN/crosstable.csv`; games: `coevolve/gen-NNN/games.pgn`.")?;

        // §V-C
        let se = self.se;
        writeln!(w, "\n## V-C. Evolution of search parameters (Fig. 4)\n")?;
        w.push_str(&copy_chart(out, &out.join("search-evolve/nodes.svg"), "fig4-search-nodes.svg"));
        writeln!(w, "\nNode cap {} per position; {} generations.\n", se.node_cap, se.generations)?;
        writeln!(
            w,
            "| search parameters | training nodes | solved | held-out nodes | solved |\n|---|---|---|---|---|"
        )?;
        let row = |w: &mut String, label: &str, c: &(NodeCount, NodeCount)| {
            let _ = writeln!(
                w,
                "| {label} | {} | {}/{} | {} | {}/{} |",
                c.0.nodes, c.0.solved, c.0.positions, c.1.nodes, c.1.solved, c.1.positions
            );
        };
        row(w, "random initial best", &se.initial_best);
        row(w, "evolved (EVOL*)", &se.final_best);
        row(w, "params/default.toml", &se.default_search);
        writeln!(w, "\n### Learned search values (Table II)\n")?;
        writeln!(w, "| parameter | evolved | params/default.toml | paper (Table II) |\n|---|---|---|---|")?;
        for ((name, v), (_, d)) in se.values.iter().zip(&se.default_values) {
            writeln!(w, "| {name} | {v} | {d} | {} |", paper(PAPER_TABLE2, name))?;
        }

        // Tables III / VII
        let v = &self.cfg.verify;
        let limit = match (v.epd_movetime, v.epd_nodes) {
            (Some(t), _) => format!("{t} s per position"),
            (None, Some(n)) => format!("{n} nodes per position"),
            _ => "-".into(),
        };
        writeln!(w, "\n## Suite solve counts (Tables III and VII), {limit}\n")?;
        let suite_names: Vec<String> = suites
            .first()
            .map(|r| epd::summarize(&r.results).into_iter().map(|s| s.suite).collect())
            .unwrap_or_default();
        write!(w, "| engine |")?;
        for sname in &suite_names {
            write!(w, " {sname} |")?;
        }
        writeln!(w, " total |")?;
        writeln!(w, "|---|{}---|", "---|".repeat(suite_names.len()))?;
        for r in suites {
            write!(w, "| {} |", r.name)?;
            for sum in epd::summarize(&r.results) {
                write!(w, " {}/{} |", sum.solved, sum.total)?;
            }
            writeln!(w, " {}/{} |", r.results.iter().filter(|x| x.solved).count(), r.results.len())?;
        }

        // Tables IV–VI
        writeln!(w, "\n## Matches (Tables IV–VI)\n")?;
        writeln!(
            w,
            "RD is David's Appendix B: RD = −400·log10(1/W − 1) for the winning rate W; the interval is the 95% \
             trinomial interval mapped through the same formula; the pentanomial estimate uses the game pairs.\n"
        )?;
        writeln!(
            w,
            "| match | time control | result (W-D-L) | points | W% | RD (App. B) | 95% CI | pentanomial Elo | forfeits (EVOL* - opponent) |\n|---|---|---|---|---|---|---|---|---|"
        )?;
        for m in matches {
            let p = &m.pair;
            let wr = p.wdl.score();
            let rd = elo_from_score(wr);
            // A 0% or 100% score has no finite Elo or interval.
            let finite = |e: &crate::stats::EloEstimate| e.elo.is_finite() && e.error.is_finite();
            let ci = p.elo.filter(finite).map_or("-".into(), |e| format!("± {:.1}", e.error));
            let penta = p.penta_elo.filter(finite).map_or("-".into(), |e| format!("{:+.1} ± {:.1}", e.elo, e.error));
            writeln!(
                w,
                "| EVOL* - {} | {} | {}-{}-{} | {:.1} - {:.1} | {:.1}% | {:+.1} | {ci} | {penta} | {} - {} |",
                m.opponent,
                m.plan.describe(),
                p.wdl.wins,
                p.wdl.draws,
                p.wdl.losses,
                p.points,
                p.games as f64 - p.points,
                100.0 * wr,
                rd,
                m.forfeits.0,
                m.forfeits.1
            )?;
        }
        for sk in skipped {
            writeln!(w, "\nSkipped: {sk}.")?;
        }
        writeln!(w, "\nPGN of every match: `matches/*.pgn`.")?;
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verify(extra: &str) -> VerifyConfig {
        let text = format!("games = 300\ntc = \"300+0\"\nopenings = \"Cargo.toml\"\n{extra}");
        toml::from_str(&text).unwrap()
    }

    /// Every shipped pipeline config parses, stage by stage, with the keys the pipeline adds:
    /// a typo in a later stage must not wait hours of evolution to surface.
    #[test]
    fn shipped_pipeline_configs_parse_in_every_stage() {
        for name in ["smoke", "medium", "full", "evol-star"] {
            let path = PathBuf::from(format!("params/pipeline-{name}.toml"));
            assert!(crate::builtin::builtin(&path).is_some(), "{} is not built in", path.display());
            let cfg = PipelineConfig::load(&path).unwrap();
            let with = |mut table: toml::Table, keys: &[&str]| {
                for key in keys {
                    table.insert((*key).into(), "x".into());
                }
                toml::to_string(&table).unwrap()
            };
            let evolve = cfg.evolve.merged_with_parallelism("threads", 1).unwrap();
            EvolveConfig::parse(&with(evolve, &["out_dir", "evolved_dir"])).unwrap_or_else(|e| panic!("{name}: {e}"));
            let co = cfg.coevolve.merged_with_parallelism("concurrency", 1).unwrap();
            CoevolveConfig::parse(&with(co, &["population_dir", "out_dir", "output", "engine"]))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let se = cfg.search_evolve.merged_with_parallelism("threads", 1).unwrap();
            SearchEvolveConfig::parse(&with(se, &["params", "out_dir", "output"]))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    #[test]
    fn pipeline_concurrency_outranks_the_stage_files_and_the_flag_outranks_all() {
        let dir = std::env::temp_dir().join(format!("evochess-pipeline-conc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let stage_file = dir.join("evolve.toml");
        std::fs::write(&stage_file, "threads = 0\nseed = 3\n").unwrap();
        let text = format!(
            "concurrency = 1\n[evolve]\nconfig = {stage_file:?}\n[coevolve]\nconfig = {stage_file:?}\n\
             [search_evolve]\nconfig = {stage_file:?}\nthreads = 3\n"
        );
        let mut cfg: PipelineConfig = toml::from_str(&text).unwrap();
        let get = |cfg: &PipelineConfig, i: usize| {
            let (key, stage) = PARALLELISM_KEYS[i];
            let stage = stage(&mut cfg.clone()).clone();
            stage.merged_with_parallelism(key, cfg.concurrency).unwrap()[key].as_integer().unwrap()
        };
        // The file's `threads = 0` loses to the pipeline's 1; a stage table of the pipeline wins.
        assert_eq!((get(&cfg, 0), get(&cfg, 1), get(&cfg, 2)), (1, 1, 3));
        assert_eq!(cfg.evolve.merged_with_parallelism("threads", 1).unwrap()["seed"].as_integer(), Some(3));
        cfg.force_concurrency(2);
        assert_eq!((get(&cfg, 0), get(&cfg, 1), get(&cfg, 2)), (2, 2, 2));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn internal_and_opponent_matches_take_their_own_length_and_clock() {
        let v = verify(
            "internal_games = 200\ninternal_nodes = 5000\n\
             [[opponents]]\nname = \"glaurung\"\ncmd = \"/usr/games/glaurung\"\ntc = \"10+0.1\"\n\
             [[opponents]]\nname = \"toga2\"\ncmd = \"/usr/games/toga2\"\n",
        );
        assert_eq!(v.internal_plan(), MatchPlan { games: 200, tc: None, nodes: Some(5000) });
        let ten = Some("10+0.1".parse().unwrap());
        assert_eq!(v.opponent_plan(&v.opponents[0]), MatchPlan { games: 300, tc: ten, nodes: None });
        assert_eq!(v.opponent_plan(&v.opponents[1]), v.base_plan());
        assert_eq!(v.opponent_plan(&v.opponents[0]).describe(), "10+0.1");
    }

    #[test]
    fn opponents_speak_uci_unless_told_xboard() {
        let v = verify(
            "[[opponents]]\nname = \"glaurung\"\ncmd = \"/usr/games/glaurung\"\n\
             [[opponents]]\nname = \"phalanx\"\ncmd = \"/usr/games/phalanx\"\nproto = \"xboard\"\n",
        );
        assert_eq!((v.opponents[0].proto, v.opponents[1].proto), (Protocol::Uci, Protocol::Xboard));
        let text = "games = 300\ntc = \"300+0\"\nopenings = \"Cargo.toml\"\n\
                    [[opponents]]\nname = \"x\"\ncmd = \"/x\"\nproto = \"winboard\"\n";
        let err = toml::from_str::<VerifyConfig>(text).unwrap_err().to_string();
        assert!(err.contains("winboard"), "{err}");
    }

    #[test]
    fn a_bad_clock_or_rule_fails_when_the_config_is_read() {
        let bad = |extra: &str| {
            let text = format!("games = 300\ntc = \"300+0\"\nopenings = \"Cargo.toml\"\n{extra}");
            toml::from_str::<VerifyConfig>(&text).unwrap_err().to_string()
        };
        let err = bad("[[opponents]]\nname = \"toga2\"\ncmd = \"/usr/games/toga2\"\ntc = \"ten\"\n");
        assert!(err.contains("tc = \"ten\"") && err.contains("`ten`"), "{err}");
        assert!(bad("internal_tc = \"1+x\"\n").contains("internal_tc"));
        assert!(bad("resign = \"movecount=three\"\n").contains("resign"));
        let mut v = verify("");
        v.openings = "/no/such/openings.epd".into();
        assert!(format!("{:#}", v.validate().unwrap_err()).contains("/no/such/openings.epd"));
        assert!(verify("").validate().is_ok());
    }
}
