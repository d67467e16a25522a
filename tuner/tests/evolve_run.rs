//! The evolution loop in-process: the 1-ply fitness agrees with the engine's 1-ply search,
//! runs are deterministic (whatever the thread count), elitist, and resumable.

use std::path::{Path, PathBuf};

use evochess::{
    eval::Evaluator,
    measure::{quiescence_probe::QuiescenceProbe, static_one_ply},
    params::{ParamSection, Params},
};
use rand::{Rng, SeedableRng, rngs::StdRng};
use shakmaty::{CastlingMode, Chess, Move, Position, fen::Fen};
use tuner::{
    evolve::{
        EvolveConfig, EvolveError, Objective,
        fitness::{self, FitnessSearch, Prepared},
        run::Evolution,
    },
    ga::{GaConfig, OptimiserConfig, error::RunError, random_genome, run_dir::RunDirError},
    space::SearchSpace,
};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("evochess-run-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Positions from seeded random games (plies 4..60), so tests need no data files.
fn random_positions(n: usize, seed: u64) -> Vec<Chess> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Chess::default();
        let plies = rng.random_range(4..60);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        if !pos.legal_moves().is_empty() {
            out.push(pos);
        }
    }
    out
}

/// A space over every evaluation parameter and its whole declared range.
fn whole_eval_space() -> SearchSpace {
    let mut text = String::from("encoding = \"integer\"\n");
    for s in evochess::params::EvalParams::specs() {
        text.push_str(&format!("[[gene]]\nname = \"{}\"\nmin = {}\nmax = {}\n", s.name, s.min, s.max));
    }
    SearchSpace::parse(&text).unwrap()
}

fn fen(s: &str) -> Chess {
    s.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
}

#[test]
fn prepared_choice_is_the_engines_one_ply_move() {
    let mut positions = random_positions(300, 1);
    positions.extend([
        fen("k7/8/1K6/8/8/8/7Q/8 w - - 0 1"),  // mate in one (and many other moves)
        fen("k7/8/1Q6/8/8/8/8/7K w - - 0 1"),  // Qc7 and others stalemate
        fen("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1"), // mates and stalemates side by side
        fen("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"),
    ]);
    let space = whole_eval_space();
    let mut rng = StdRng::seed_from_u64(2);
    let mut checked = 0;
    for trial in 0..12 {
        let params = if trial == 0 {
            Params::default()
        } else {
            space.apply(&random_genome(space.layout(), &mut rng), &space.base())
        };
        // A fresh probe for the whole trial: the engine's own quiescence choice.
        let mut probe = QuiescenceProbe::new(&params.search);
        let evaluator = Evaluator::new(&params.eval);
        for pos in &positions {
            let moves = pos.legal_moves();
            // Take any legal move as the "GM move": choice() must not depend on it.
            let target = moves[checked % moves.len()];
            let prepared = Prepared::new(pos, target).unwrap();
            for search in [FitnessSearch::Static, FitnessSearch::Qsearch] {
                let engine = match search {
                    FitnessSearch::Static => static_one_ply::best_move(pos, &params.eval).unwrap(),
                    FitnessSearch::Qsearch => probe.best_move(pos, &evaluator).unwrap(),
                };
                assert_eq!(
                    moves[prepared.choice(&params.eval, search) as usize],
                    engine,
                    "{search:?} {}",
                    Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
                );
                assert_eq!(prepared.solved(&params.eval, search), engine == target);
            }
            checked += 1;
        }
    }
    assert!(
        Prepared::new(&Chess::default(), Move::Put { role: shakmaty::Role::Knight, to: shakmaty::Square::E4 })
            .is_none()
    );
}

/// The teacher: unusual piece values, so that random organisms disagree on captures.
fn teacher() -> Params {
    let mut t = Params::default();
    for (k, v) in [("knight", 1500), ("bishop", 250), ("rook", 2500), ("queen", 600)] {
        t.set_by_name(&format!("{k}_mg"), v).unwrap();
        t.set_by_name(&format!("{k}_eg"), v).unwrap();
    }
    t.set_by_name("pawn_mg", 100).unwrap();
    t.set_by_name("pawn_eg", 100).unwrap();
    t
}

/// Random positions with at least two captures to choose from.
fn capture_positions(n: usize, seed: u64) -> Vec<Chess> {
    let mut out = random_positions(n * 20, seed);
    out.retain(|p| p.legal_moves().iter().filter(|m| m.is_capture()).count() >= 2);
    assert!(out.len() >= n, "only {} positions with captures", out.len());
    out.truncate(n);
    out
}

/// GM moves stood in for by a teacher's 1-ply choices.
fn teacher_objective(train: usize, test: usize) -> Objective {
    let teacher = teacher();
    let label = |positions: Vec<Chess>| -> Vec<Prepared> {
        positions
            .into_iter()
            .map(|p| {
                let m = static_one_ply::best_move(&p, &teacher.eval).unwrap();
                Prepared::new(&p, m).unwrap()
            })
            .collect()
    };
    Objective::GmMoves {
        train: label(capture_positions(train, 10)),
        test: label(capture_positions(test, 11)),
        search: FitnessSearch::Static,
    }
}

fn piece_space() -> SearchSpace {
    SearchSpace::parse(include_str!("data/piece-space.toml")).unwrap()
}

fn evolution<'a>(space: &'a SearchSpace, ga: &'a GaConfig, objective: &'a Objective, threads: usize) -> Evolution<'a> {
    Evolution {
        space,
        ga,
        optimiser: &OptimiserConfig::Ga {},
        objective,
        base: space.base(),
        seed: 42,
        threads,
        fingerprint: "test".into(),
        legacy_fingerprint: None,
        progress: false,
        init: None,
        remote: None,
    }
}

#[test]
fn runs_are_elitist_deterministic_and_resumable() {
    let space = piece_space();
    let objective = teacher_objective(150, 100);
    let ga = GaConfig { population: 16, generations: 8, ..GaConfig::default() };
    let dir = scratch("a");
    let a = evolution(&space, &ga, &objective, 1).run(1, &dir.join("one"), false).unwrap();
    // Elitism: the best-of-generation score never drops.
    let best: Vec<f64> = a.history.iter().map(|h| h.best_metric).collect();
    assert_eq!(best.len(), 8);
    assert!(best.windows(2).all(|w| w[1] >= w[0]), "{best:?}");
    let mean: Vec<f64> = a.history.iter().map(|h| h.mean_metric).collect();
    // Selection works: the population average improves on the random start.
    assert!(mean[7] > mean[0] + 5.0, "no progress from random values: {best:?} {mean:?}");
    assert!(a.history.iter().all(|h| h.mean_metric <= h.best_metric));
    // Thread count does not change anything.
    let b = evolution(&space, &ga, &objective, 3).run(1, &dir.join("three"), false).unwrap();
    assert_eq!(a.best, b.best);
    assert_eq!(a.params, b.params);
    // Another run number evolves differently.
    let c = evolution(&space, &ga, &objective, 2).run(2, &dir.join("other"), false).unwrap();
    assert_ne!(a.best, c.best);
    // A run stopped after 4 generations and resumed to 8 ends exactly where the direct run did.
    let short = GaConfig { generations: 4, ..ga.clone() };
    evolution(&space, &short, &objective, 2).run(1, &dir.join("resumed"), false).unwrap();
    let err = evolution(&space, &ga, &objective, 2).run(1, &dir.join("resumed"), false).unwrap_err();
    assert!(
        matches!(err, EvolveError::Run(RunError::RunDir(RunDirError::Existing { .. }))),
        "an existing run is refused without resume: {err}"
    );
    let resumed = evolution(&space, &ga, &objective, 2).run(1, &dir.join("resumed"), true).unwrap();
    assert_eq!(resumed.best, a.best);
    let strip = |h: &[tuner::ga::report::GenerationStats]| {
        h.iter().map(|g| (g.generation, g.best_metric, g.mean_metric, g.test_metric)).collect::<Vec<_>>()
    };
    assert_eq!(strip(&resumed.history), strip(&a.history));
    // Reports are written.
    let csv = std::fs::read_to_string(dir.join("one/generations.csv")).unwrap();
    assert_eq!(csv.lines().count(), 9);
    assert!(csv.starts_with("generation,best_correct,mean_correct,test_correct_of_best,"));
    let svg = std::fs::read_to_string(dir.join("one/fitness.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("population average"));
    // A checkpoint from other inputs is refused.
    let mut other = evolution(&space, &ga, &objective, 2);
    other.fingerprint = "different".into();
    let err = other.run(1, &dir.join("resumed"), true).unwrap_err();
    assert!(err.to_string().contains("different config"), "{err}");
}

#[test]
fn count_solved_par_equals_serial() {
    let Objective::GmMoves { train, .. } = teacher_objective(120, 1) else { unreachable!("GM-move objective") };
    let space = piece_space();
    let params = space.apply(&random_genome(space.layout(), &mut StdRng::seed_from_u64(5)), &space.base());
    let serial = fitness::count_solved(&train, &params.eval, FitnessSearch::Static);
    assert_eq!(fitness::count_solved_par(&train, &params.eval, FitnessSearch::Static, 3), serial);
    assert_eq!(
        fitness::count_solved(&train, &teacher().eval, FitnessSearch::Static),
        120,
        "the teacher solves its own labels"
    );
    assert!(serial < 120);
    // The quiescence fitness does not depend on how positions are split over threads either.
    let q = fitness::count_solved(&train, &params.eval, FitnessSearch::Qsearch);
    assert_eq!(fitness::count_solved_par(&train, &params.eval, FitnessSearch::Qsearch, 3), q);
    assert_eq!(fitness::gm_fitness(7), 49.0);
}

#[test]
fn config_file_is_the_builtin_default() {
    let mut cfg = EvolveConfig::load(&repo().join("configs/evolve/default.toml")).unwrap();
    // The file names its space relative to itself: the default's file, reached from the config.
    assert_eq!(cfg.space.canonicalize().unwrap(), repo().join(&EvolveConfig::default().space).canonicalize().unwrap());
    cfg.space = EvolveConfig::default().space;
    assert_eq!(cfg, EvolveConfig::default());
    let e = EvolveConfig::parse("[ga]\npopulaton = 3\n").unwrap_err();
    assert!(e.to_string().contains("populaton"), "{e}");
    let e = EvolveConfig::parse("[ga]\nselection = { kind = \"lottery\" }\n").unwrap_err();
    assert!(e.to_string().contains("lottery"), "{e}");
}

#[test]
fn full_space_file_evolves_every_evaluation_parameter() {
    let space = SearchSpace::load(repo().join("configs/spaces/evolve-full-gray.toml")).unwrap();
    let eval_params = Params::specs().filter(|s| s.section == "eval").count();
    assert_eq!(space.genes.len(), eval_params - 1, "every evaluation parameter but the fixed pawn_mg");
    assert!(space.genes.iter().all(|g| g.keys.len() == 1 && g.bits.is_some()));
    let knight = space.genes.iter().find(|g| g.name == "knight_mg").unwrap();
    let spec = Params::find("knight_mg").unwrap().1;
    assert_eq!((knight.min, knight.max), (spec.min, spec.max));
    // Enough bits for every value of the range, and no more.
    let bits = knight.bits.unwrap();
    assert!(1u64 << bits > (spec.max - spec.min) as u64 && 1u64 << (bits - 1) <= (spec.max - spec.min) as u64);
    assert_eq!(space.base().eval.pawn_mg, 100);
    // Every random organism is a valid parameter set that the engine loads.
    let mut rng = StdRng::seed_from_u64(9);
    for _ in 0..5 {
        let p = space.apply(&random_genome(space.layout(), &mut rng), &space.base());
        assert_eq!(Params::default().with_toml(&p.to_toml()).unwrap(), p);
    }
}

#[test]
fn evolve_space_file_is_davids_35_parameters() {
    let space = SearchSpace::load(repo().join("configs/spaces/evolve-paper.toml")).unwrap();
    assert_eq!(space.genes.len(), 34, "35 parameters with the pawn fixed");
    assert_eq!(space.layout().len(), 224, "the paper's chromosome length");
    let six_bit = space.genes.iter().filter(|g| g.bits == Some(6) && (g.min, g.max) == (0, 63)).count();
    assert_eq!(six_bit, 30);
    let base = space.base();
    assert_eq!((base.eval.pawn_mg, base.eval.pawn_eg), (100, 100));
    assert_eq!(base.eval.tempo, 0, "terms outside David's 35 are zeroed");
    assert_eq!(base.search, Params::default().search);
    // Piece values are tied across middlegame and endgame.
    let knight = space.genes.iter().find(|g| g.name == "knight_value").unwrap();
    assert_eq!(knight.keys.len(), 2);
}

#[test]
fn hand_set_others_space_has_the_papers_genes_inside_the_hand_set_evaluation() {
    let paper = SearchSpace::load(repo().join("configs/spaces/evolve-paper.toml")).unwrap();
    let hybrid = SearchSpace::load(repo().join("configs/spaces/evolve-paper-hand-set-others.toml")).unwrap();
    assert_eq!(hybrid.genes, paper.genes, "the same 35 parameters, fields and ranges");
    assert_eq!(hybrid.layout().len(), 224);
    let base = hybrid.base();
    let hand_set = tuner::space::hand_set();
    assert_eq!((base.eval.pawn_mg, base.eval.pawn_eg), (100, 100));
    assert_eq!(base.eval.tempo, hand_set.eval.tempo, "terms outside David's 35 keep their hand-set values");
    assert_eq!(base.eval.ks_attack_value, hand_set.eval.ks_attack_value);
    assert_ne!(base.eval.ks_attack_value, Params::default().eval.ks_attack_value, "not the tuned defaults");
    assert_eq!(base.search, Params::default().search);
}

/// The shipped evolve configs load, their spaces parse and their GA operators suit the space's
/// encoding (gaussian mutation needs integer genes), and the integer full space has exactly
/// the genes of the gray-coded one.
#[test]
fn shipped_evolve_configs_fit_their_spaces() {
    for name in ["configs/evolve/default.toml", "configs/evolve/full-mentor.toml"] {
        let cfg = EvolveConfig::load(&repo().join(name)).unwrap();
        let space = SearchSpace::load(repo().join(&cfg.space)).unwrap();
        cfg.ga.validate(&cfg.optimiser, space.layout()).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    let gray = SearchSpace::load(repo().join("configs/spaces/evolve-full-gray.toml")).unwrap();
    let integer = SearchSpace::load(repo().join("configs/spaces/evolve-full-integer.toml")).unwrap();
    let names = |s: &SearchSpace| s.genes.iter().map(|g| (g.name.clone(), g.min, g.max)).collect::<Vec<_>>();
    assert_eq!(names(&integer), names(&gray));
    assert_eq!(integer.base(), gray.base());
}
