//! The `[optimiser]` table of the committed configs, and the older `[ga] optimiser` form they
//! were written in before: both read to the same config.

use std::path::{Path, PathBuf};

use tuner::{
    coevolve::CoevolveConfig,
    evolve::EvolveConfig,
    ga::OptimiserConfig,
    optimise::{config::legacy_ga_json, spsa::SpsaSettings},
    search_evolve::SearchEvolveConfig,
};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The `.toml` files of `configs/<command>`, sorted.
fn configs(command: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo().join("configs").join(command))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

fn name(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

#[test]
fn every_committed_config_reads_its_optimiser() {
    let mut seen = Vec::new();
    for path in configs("evolve") {
        let cfg = EvolveConfig::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        seen.push((format!("evolve/{}", name(&path)), cfg.optimiser));
    }
    for path in configs("search-evolve") {
        let cfg = SearchEvolveConfig::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        seen.push((format!("search-evolve/{}", name(&path)), cfg.optimiser));
    }
    for path in configs("coevolve") {
        let table: toml::Table = toml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        // The evolution strategy's config is its own optimiser; the paper's choose one.
        if table.get("method").and_then(|m| m.as_str()) == Some("es") {
            continue;
        }
        let cfg = CoevolveConfig::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        seen.push((format!("coevolve/{}", name(&path)), cfg.optimiser));
    }
    assert!(seen.len() >= 12, "{seen:?}");
    for (config, optimiser) in &seen {
        let expected = match config.as_str() {
            "evolve/compare-cmaes" => OptimiserConfig::Cmaes { sigma: 0.05 },
            "evolve/compare-spsa" => {
                OptimiserConfig::Spsa(SpsaSettings { iterations: 17500, c_end: 0.02, r_end: 1e-6 })
            }
            _ => OptimiserConfig::Ga {},
        };
        assert_eq!(*optimiser, expected, "{config}");
    }
}

/// `text` with `new` replaced by `old` (which must be there once).
fn swapped(text: &str, new: &str, old: &str) -> String {
    assert_eq!(text.matches(new).count(), 1, "{new:?} in {text}");
    text.replace(new, old)
}

#[test]
fn the_shipped_comparisons_read_as_they_did_in_the_older_form() {
    let read = |rel: &str| std::fs::read_to_string(repo().join(rel)).unwrap();
    let cmaes = read("configs/evolve/compare-cmaes.toml");
    let cmaes_old = swapped(
        &cmaes,
        "[optimiser]\nkind = \"cmaes\"\n# σ₀ as a share of each gene's range: a refinement of the defaults, not a search \
         from scratch.\nsigma = 0.05\n\n[ga]\n",
        "[ga]\noptimiser = \"cmaes\"\ncmaes_sigma = 0.05\n",
    );
    let spsa = read("configs/evolve/compare-spsa.toml");
    let spsa_old = swapped(
        &swapped(&spsa, "[ga]\npopulation", "[ga]\noptimiser = \"spsa\"\npopulation"),
        "[optimiser]\nkind = \"spsa\"\n",
        "[ga.spsa]\n",
    );
    for (new, old) in [(cmaes, cmaes_old), (spsa, spsa_old)] {
        let (new, old) = (EvolveConfig::parse(&new).unwrap(), EvolveConfig::parse(&old).unwrap());
        assert_eq!(new, old);
        assert!(!new.optimiser.is_ga());
    }
    // The identity the run fingerprints hash: the bytes the tuner wrote before `[optimiser]`.
    let cfg = EvolveConfig::parse(&read("configs/evolve/compare-cmaes.toml")).unwrap();
    assert_eq!(
        legacy_ga_json(&cfg.ga, &cfg.optimiser),
        r#"{"population":50,"generations":700,"elitism":2,"selection":{"kind":"tournament","size":3},"crossover":{"kind":"uniform"},"crossover_rate":0.75,"mutation":{"kind":"gaussian","sigma":0.05},"mutation_rate":0.05,"optimiser":"cmaes","cmaes_sigma":0.05}"#
    );
}

/// The paper's coevolution hashes its whole config: with `[optimiser]` its serialised form, `ga`
/// in the older form, is the one the tuner wrote when the optimiser was `[ga] optimiser`.
#[test]
fn a_coevolution_config_keeps_its_serialised_identity() {
    let old = CoevolveConfig::parse("[ga]\noptimiser = \"cmaes\"\ncmaes_sigma = 0.05\npopulation = 50\n").unwrap();
    let new = CoevolveConfig::parse("[ga]\npopulation = 50\n[optimiser]\nkind = \"cmaes\"\nsigma = 0.05\n").unwrap();
    assert_eq!(old, new);
    let json = serde_json::to_string(&new).unwrap();
    let identity = tuner::optimise::config::with_legacy_ga(&json, &new.ga, &new.optimiser);
    assert_eq!(
        identity,
        r#"{"population_dir":"params/evolved/pipeline-evol-star/evolved","space":null,"engine":null,"tc":"5+0.05","nodes":null,"timemargin_ms":100,"concurrency":0,"openings":"openings/gnuchess-8ply.epd","openings_per_pair":2,"draw":null,"resign":null,"maxmoves":null,"seed":1,"out_dir":"runs/coevolve","output":"","ga":{"population":50,"generations":50,"elitism":1,"selection":{"kind":"rank","pressure":2.0},"crossover":{"kind":"uniform"},"crossover_rate":0.75,"mutation":{"kind":"bit-flip"},"mutation_rate":0.005,"optimiser":"cmaes","cmaes_sigma":0.05}}"#
    );
}
