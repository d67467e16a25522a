//! The pipeline's configuration: each stage's config file with inline overrides, and the
//! verification (suites, matches, opponents), its clocks and adjudication typed when read.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use arena::{
    adjudicate::{AdjudicationConfig, DrawRule, MaxMovesRule, ResignRule},
    engine::client::Protocol,
    tc::{ClockTc, SearchLimits},
};
use serde::{Deserialize, Serialize};

use crate::{
    coevolve::CoevolveConfig,
    evolve::EvolveConfig,
    notation::Parsed,
    paths::ConfigPaths,
    search_evolve::{SearchEvolveConfig, data_file},
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
    /// The stage's config text: its file, with the input paths at `inputs` (the stage command's
    /// [`ConfigPaths::input_paths`]) made relative to that file, and the overrides merged in
    /// (tables key by key; [`PipelineConfig::load`] rebased theirs on the pipeline file).
    pub fn merged(&self, inputs: &[String]) -> anyhow::Result<toml::Table> {
        let mut table = match &self.config {
            Some(p) => {
                let mut t: toml::Table = crate::embedded_files::read_text(p)
                    .with_context(|| format!("cannot read {}", p.display()))?
                    .parse()
                    .with_context(|| format!("in {}", p.display()))?;
                crate::paths::rebase_table(p, &mut t, inputs);
                t
            }
            None => toml::Table::new(),
        };
        merge(&mut table, &self.overrides);
        Ok(table)
    }

    /// [`Stage::merged`] with its parallelism key (`threads` or `concurrency`) set to the
    /// pipeline's `concurrency`, unless the pipeline file sets it for this stage: the stage's
    /// own config file (e.g. `threads = 0` in configs/evolve/default.toml) does not outrank the pipeline.
    pub fn merged_with_parallelism(
        &self,
        key: &str,
        concurrency: usize,
        inputs: &[String],
    ) -> anyhow::Result<toml::Table> {
        let mut table = self.merged(inputs)?;
        if !self.overrides.contains_key(key) {
            table.insert(key.into(), (concurrency as i64).into());
        }
        Ok(table)
    }
}

/// Each stage's parallelism key, as [`Stage::merged_with_parallelism`] reads it.
pub(super) type StageOf = fn(&mut PipelineConfig) -> &mut Stage;
pub(super) const PARALLELISM_KEYS: [(&str, StageOf); 3] =
    [("threads", |c| &mut c.evolve), ("concurrency", |c| &mut c.coevolve), ("threads", |c| &mut c.search_evolve)];

pub(super) fn merge(base: &mut toml::Table, over: &toml::Table) {
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
    pub(super) fn new(name: &str, cmd: &str) -> Self {
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
pub(super) struct MatchPlan {
    pub(super) games: u32,
    pub(super) tc: Option<Parsed<ClockTc>>,
    pub(super) nodes: Option<u64>,
}

impl MatchPlan {
    /// `base`'s values where the override has none. A match that overrides the clock but not
    /// the node limit (or the reverse) drops the other one, so `tc = "10+0.1"` alone means a
    /// purely timed match even when `[verify]` is node-limited.
    pub(super) fn with(
        base: &MatchPlan,
        games: Option<u32>,
        tc: &Option<Parsed<ClockTc>>,
        nodes: Option<u64>,
    ) -> MatchPlan {
        let (tc, nodes) =
            if tc.is_some() || nodes.is_some() { (tc.clone(), nodes) } else { (base.tc.clone(), base.nodes) };
        MatchPlan { games: games.unwrap_or(base.games), tc, nodes }
    }

    pub(super) fn limits(&self, margin_ms: u64) -> SearchLimits {
        let clock = self.tc.as_ref().map(|t| *t.value());
        SearchLimits { clock, nodes: self.nodes, margin_ms, ..SearchLimits::default() }
    }

    pub(super) fn describe(&self) -> String {
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
    pub(super) fn base_plan(&self) -> MatchPlan {
        MatchPlan { games: self.games, tc: self.tc.clone(), nodes: self.nodes }
    }

    pub(super) fn internal_plan(&self) -> MatchPlan {
        MatchPlan::with(&self.base_plan(), self.internal_games, &self.internal_tc, self.internal_nodes)
    }

    pub(super) fn opponent_plan(&self, o: &Opponent) -> MatchPlan {
        MatchPlan::with(&self.base_plan(), o.games, &o.tc, o.nodes)
    }

    /// The resign, draw and max-moves rules of every verification match.
    pub(super) fn adjudication(&self) -> AdjudicationConfig {
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
        // The shipped book is built in: a config naming it runs from any directory.
        if !self.openings.is_file() && arena::openings::builtin::builtin(&self.openings).is_none() {
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

/// `configs/pipeline/*.toml`.
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
            out_dir: PathBuf::from("runs/pipeline"),
            engine: None,
            concurrency: 0,
            pgn: vec![data_file("games/gm2600_classical.pgn.xz")],
            evolve: Stage { config: Some("configs/evolve/default.toml".into()), overrides: toml::Table::new() },
            coevolve: Stage { config: Some("configs/coevolve/paper.toml".into()), overrides: toml::Table::new() },
            search_evolve: Stage {
                config: Some("configs/search-evolve/default.toml".into()),
                overrides: toml::Table::new(),
            },
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

    /// Reads a pipeline file. Its relative input paths (`engine`, `pgn`, each stage's `config`
    /// and the stage keys naming inputs, `[verify]` `suites` and `openings`) are relative to
    /// it, `out_dir` to the working directory; a stage's own file names its inputs relative to
    /// itself ([`Stage::merged`]).
    pub fn load(path: &Path) -> anyhow::Result<Self> {
        crate::paths::load_config(path).map_err(|e| {
            e.into_command(
                |p, e| anyhow::anyhow!("cannot read {}: {e}", p.display()),
                |message| anyhow::anyhow!("pipeline config {message}"),
            )
        })
    }
}

impl ConfigPaths for PipelineConfig {
    fn input_paths() -> Vec<String> {
        let mut keys = crate::paths::keys(&[
            "engine",
            "pgn",
            "evolve.config",
            "coevolve.config",
            "search_evolve.config",
            "verify.suites",
            "verify.openings",
        ]);
        for (stage, inputs) in [
            ("evolve", EvolveConfig::input_paths()),
            ("coevolve", CoevolveConfig::input_paths()),
            ("search_evolve", SearchEvolveConfig::input_paths()),
        ] {
            keys.extend(inputs.iter().map(|k| format!("{stage}.{k}")));
        }
        keys
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
            let path = PathBuf::from(format!("configs/pipeline/{name}.toml"));
            assert!(crate::embedded_files::builtin(&path).is_some(), "{} is not built in", path.display());
            let cfg = PipelineConfig::load(&path).unwrap();
            let with = |mut table: toml::Table, keys: &[&str]| {
                for key in keys {
                    table.insert((*key).into(), "x".into());
                }
                toml::to_string(&table).unwrap()
            };
            let evolve = cfg.evolve.merged_with_parallelism("threads", 1, &EvolveConfig::input_paths()).unwrap();
            EvolveConfig::parse(&with(evolve, &["out_dir", "evolved_dir"])).unwrap_or_else(|e| panic!("{name}: {e}"));
            let co = cfg.coevolve.merged_with_parallelism("concurrency", 1, &CoevolveConfig::input_paths()).unwrap();
            CoevolveConfig::parse(&with(co, &["population_dir", "out_dir", "output", "engine"]))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let se =
                cfg.search_evolve.merged_with_parallelism("threads", 1, &SearchEvolveConfig::input_paths()).unwrap();
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
            stage.merged_with_parallelism(key, cfg.concurrency, &[]).unwrap()[key].as_integer().unwrap()
        };
        // The file's `threads = 0` loses to the pipeline's 1; a stage table of the pipeline wins.
        assert_eq!((get(&cfg, 0), get(&cfg, 1), get(&cfg, 2)), (1, 1, 3));
        assert_eq!(cfg.evolve.merged_with_parallelism("threads", 1, &[]).unwrap()["seed"].as_integer(), Some(3));
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
        // The shipped book by its relative name is built in (tests run in tuner/, without it).
        v.openings = "openings/gnuchess-8ply.epd".into();
        assert!(!v.openings.exists() && v.validate().is_ok());
        assert!(verify("").validate().is_ok());
    }
}
