//! Position extraction on a small PGN fixture written for these tests (tests/data/evolve_small.pgn).

use std::path::{Path, PathBuf};

use shakmaty::{Color, Position};
use tuner::evolve::positions::{self, ExtractStats, PositionsConfig, PositionsError};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/evolve_small.pgn")
}

fn cfg(train: usize, test: usize, seed: u64) -> PositionsConfig {
    PositionsConfig { train, test, seed, ..PositionsConfig::default() }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("evochess-positions-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn skips_are_counted_and_winners_are_to_move() {
    // More wanted than the fixture holds, so every game is read.
    let set = positions::extract(&[fixture()], &cfg(30, 20, 1)).unwrap();
    assert_eq!(
        set.stats,
        ExtractStats { games: 10, used: 5, draws: 1, no_result: 1, illegal_san: 1, unsupported: 1, too_short: 1 }
    );
    assert_eq!((set.train.len(), set.test.len()), (3, 2));
    let all: Vec<_> = set.train.iter().chain(&set.test).collect();
    assert!(all.iter().all(|p| p.outcome == Some(1)), "the winner is to move");
    let mut black_wins = 0;
    for p in &all {
        let (pos, m) = p.parse().unwrap();
        assert!(pos.is_legal(m));
        // Fixture games won by black are the two starting with 1. f3 and 1. e4 ... Nf3#.
        if pos.turn() == Color::Black {
            black_wins += 1;
        }
    }
    assert_eq!(black_wins, 2, "one position from each of the two games black won");
    // The set-up game has a single candidate: the mate.
    assert!(all.iter().any(|p| p.fen.starts_with("k7/8/1K6/8/8/8/7Q/8 w") && p.uci == "h2h8"));
}

#[test]
fn extraction_is_seeded() {
    let a = positions::extract(&[fixture()], &cfg(3, 2, 7)).unwrap();
    let b = positions::extract(&[fixture()], &cfg(3, 2, 7)).unwrap();
    assert_eq!(a, b);
    let differs = (0..20).any(|s| positions::extract(&[fixture()], &cfg(3, 2, s)).unwrap().train != a.train);
    assert!(differs, "the seed chooses positions and the split");
}

#[test]
fn min_ply_and_short_supply() {
    // From ply 6 on only Scholar's mate (white's 4th move) and the Blackburne Shilling game
    // (black's moves up to ply 13) have a winner's move.
    let c = PositionsConfig { train: 100, test: 100, seed: 1, min_ply: 6, ..PositionsConfig::default() };
    let set = positions::extract(&[fixture()], &c).unwrap();
    assert_eq!(set.stats.used, 2);
    assert_eq!(set.stats.too_short, 4);
    assert!(set.train.iter().chain(&set.test).any(|p| p.uci == "h5f7"), "Qxf7# is Scholar's only move from ply 6");
    // Fewer than wanted: the train:test ratio is kept.
    assert_eq!((set.train.len(), set.test.len()), (1, 1));
}

#[test]
fn positions_per_game_takes_several_positions_and_keeps_each_game_on_one_side() {
    let many = |train, test, min_ply| PositionsConfig {
        train,
        test,
        seed: 1,
        min_ply,
        positions_per_game: 100,
        ..PositionsConfig::default()
    };
    // Every winner's move of the usable games (all in the training set, as no test positions
    // are wanted): Scholar's mate alone gives white's four.
    let set = positions::extract(&[fixture()], &many(1000, 0, 0)).unwrap();
    let all: Vec<_> = set.train.iter().chain(&set.test).collect();
    for uci in ["e2e4", "f1c4", "d1h5", "h5f7"] {
        assert!(all.iter().any(|p| p.uci == uci && p.fen.contains(" w ")), "{uci} missing");
    }
    assert_eq!(set.stats.used, 5);
    // Two per game: at most two from each of the five games, all four of Scholar's mate's
    // never (it keeps two), and the games with a single winner's move give it.
    let two = positions::extract(&[fixture()], &PositionsConfig { positions_per_game: 2, ..many(1000, 0, 0) }).unwrap();
    let two_all: Vec<_> = two.train.iter().chain(&two.test).collect();
    assert!(two_all.len() < all.len() && two_all.len() <= 10, "{} of {}", two_all.len(), all.len());
    assert!(two_all.iter().any(|p| p.uci == "h2h8"), "the set-up game's only move");
    // From ply 6: Scholar's mate gives its last white move, the Blackburne Shilling game
    // black's moves at plies 7, 9, 11 and 13.
    let set = positions::extract(&[fixture()], &many(1000, 0, 6)).unwrap();
    assert_eq!(set.train.len(), 5);
    // Two positions wanted from 2 games: with 1 train position, the game that fills the training
    // set gives nothing to the test set.
    let set = positions::extract(&[fixture()], &many(1, 100, 6)).unwrap();
    assert_eq!(set.train.len(), 1);
    let train_black = set.train[0].fen.contains(" b ");
    assert!(set.test.iter().all(|p| p.fen.contains(" b ") != train_black), "a game on both sides: {set:?}");
    assert!(!set.test.is_empty());
    // Zero per game is a clear error.
    let err = positions::extract(&[fixture()], &PositionsConfig { positions_per_game: 0, ..cfg(1, 1, 1) }).unwrap_err();
    assert!(err.to_string().contains("positions_per_game"), "{err}");
}

#[test]
fn stops_reading_once_enough_and_reads_files_in_order() {
    let set = positions::extract(&[fixture(), fixture()], &cfg(1, 1, 1)).unwrap();
    assert_eq!(set.stats.used, 2);
    assert_eq!(set.stats.games, 2);
    let set = positions::extract(&[fixture(), fixture()], &cfg(6, 2, 1)).unwrap();
    assert_eq!(set.stats.used, 8);
    assert_eq!(set.stats.games, 17, "second file read up to its third usable game");
}

#[test]
fn xz_input_matches_plain() {
    let dir = scratch("xz");
    let xz = dir.join("games.pgn.xz");
    let status = std::process::Command::new("xz")
        .args(["-zc"])
        .stdin(std::fs::File::open(fixture()).unwrap())
        .stdout(std::fs::File::create(&xz).unwrap())
        .status()
        .expect("the xz tool is needed to build this test's input");
    assert!(status.success());
    let plain = positions::extract(&[fixture()], &cfg(30, 20, 1)).unwrap();
    assert_eq!(plain.stats.games, 10);
    // The same positions; the key follows the file's bytes, so it differs.
    let from_xz = positions::extract(std::slice::from_ref(&xz), &cfg(30, 20, 1)).unwrap();
    assert_eq!((&from_xz.stats, &from_xz.train, &from_xz.test), (&plain.stats, &plain.train, &plain.test));
    // Stopping early is no error.
    assert_eq!(positions::extract(&[xz], &cfg(1, 0, 1)).unwrap().stats.used, 1);
    // A corrupt .xz is a clear error.
    let bad = dir.join("bad.pgn.xz");
    std::fs::write(&bad, b"not xz at all").unwrap();
    let e = positions::extract(std::slice::from_ref(&bad), &cfg(3, 2, 1)).unwrap_err();
    assert!(matches!(e, PositionsError::Xz { .. }), "{e}");
    assert!(e.to_string().contains(&bad.display().to_string()), "{e}");
}

#[test]
fn missing_file_is_named() {
    let e = positions::extract(&[PathBuf::from("/no/such/games.pgn")], &cfg(3, 2, 1)).unwrap_err();
    assert!(e.to_string().contains("/no/such/games.pgn"), "{e}");
}

#[test]
fn cache_is_reused_only_for_the_same_inputs() {
    let dir = scratch("cache");
    let cache = dir.join("positions.json");
    let first = positions::load_or_extract(&[fixture()], &cfg(3, 2, 1), &cache).unwrap();
    assert!(cache.exists());
    // Tamper with the cached positions: a reload with the same key must return the cache.
    let mut doctored = first.clone();
    doctored.train.truncate(1);
    std::fs::write(&cache, serde_json::to_string(&doctored).unwrap()).unwrap();
    assert_eq!(positions::load_or_extract(&[fixture()], &cfg(3, 2, 1), &cache).unwrap(), doctored);
    // Other settings: extracted again, cache replaced.
    let other = positions::load_or_extract(&[fixture()], &cfg(2, 2, 1), &cache).unwrap();
    assert_eq!(other.train.len(), 2);
    assert_ne!(other.key, first.key);
    // Garbage in the cache is ignored, not fatal.
    std::fs::write(&cache, "{").unwrap();
    assert_eq!(positions::load_or_extract(&[fixture()], &cfg(3, 2, 1), &cache).unwrap(), first);
}

/// The key follows the games' content, not their path or modification time: a data directory
/// copied or re-synced between sessions keeps its caches, and with them the run fingerprints
/// that let `--resume` continue a checkpointed run.
#[test]
fn cache_key_follows_content_not_path_or_mtime() {
    let dir = scratch("key");
    let copy = dir.join("copy.pgn");
    std::fs::copy(fixture(), &copy).unwrap();
    let settings = cfg(3, 2, 1);
    let original = positions::cache_key(&[fixture()], &settings).unwrap();
    assert_eq!(positions::cache_key(std::slice::from_ref(&copy), &settings).unwrap(), original, "another path");
    let file = std::fs::File::options().write(true).open(&copy).unwrap();
    file.set_modified(std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000)).unwrap();
    drop(file);
    assert_eq!(positions::cache_key(std::slice::from_ref(&copy), &settings).unwrap(), original, "another mtime");
    let mut text = std::fs::read(&copy).unwrap();
    text.extend_from_slice(b"\n");
    std::fs::write(&copy, &text).unwrap();
    assert_ne!(positions::cache_key(std::slice::from_ref(&copy), &settings).unwrap(), original, "other content");
    // An extracted set carries the same key.
    assert_eq!(positions::extract(&[fixture()], &settings).unwrap().key, original);
}

/// `sample = "any"` takes drawn games too and either side to move; `quiet = true` keeps only
/// positions without check and without a capture that wins material at once.
#[test]
fn mentor_sampling_takes_draws_both_sides_and_quiet_positions() {
    let any = PositionsConfig { sample: positions::Sample::Any, positions_per_game: 50, ..cfg(500, 0, 1) };
    let set = positions::extract(&[fixture()], &any).unwrap();
    assert_eq!(set.stats.draws, 0, "drawn games are used");
    assert_eq!(set.stats.used, 6, "the five decisive games and the draw");
    let turns: Vec<Color> = set.train.iter().map(|p| p.parse().unwrap().0.turn()).collect();
    // Each position carries the game's result for its side to move, draws included.
    let outcomes: Vec<i8> = set.train.iter().map(|p| p.outcome.unwrap()).collect();
    assert!(outcomes.contains(&1) && outcomes.contains(&0) && outcomes.contains(&-1), "{outcomes:?}");
    assert!(turns.contains(&Color::White) && turns.contains(&Color::Black));
    let winners =
        positions::extract(&[fixture()], &PositionsConfig { sample: positions::Sample::Winner, ..any.clone() })
            .unwrap();
    assert!(set.train.len() > winners.train.len());

    let quiet = positions::extract(&[fixture()], &PositionsConfig { quiet: true, ..any.clone() }).unwrap();
    assert!(!quiet.train.is_empty() && quiet.train.len() < set.train.len(), "some positions are not quiet");
    for p in &quiet.train {
        let (pos, _) = p.parse().unwrap();
        assert!(!pos.is_check(), "{}", p.fen);
        let wins_material = pos
            .legal_moves()
            .iter()
            .any(|&m| (m.is_capture() || m.is_promotion()) && evochess::see::see_ge(&pos, m, 1));
        assert!(!wins_material, "{}", p.fen);
    }
    // The settings are part of the cache key.
    let key = |c: &PositionsConfig| positions::cache_key(&[fixture()], c).unwrap();
    assert_ne!(key(&any), key(&PositionsConfig { sample: positions::Sample::Winner, ..any.clone() }));
    assert_ne!(key(&any), key(&PositionsConfig { quiet: true, ..any.clone() }));
}

/// `random_plies` walks the chosen share of positions off the game by legal random moves (each
/// stored move legal in its position), seeded so the set is reproducible, and is in the key.
#[test]
fn random_plies_walk_positions_off_the_game() {
    let base = PositionsConfig { sample: positions::Sample::Any, positions_per_game: 20, ..cfg(100, 0, 1) };
    let games = positions::extract(&[fixture()], &base).unwrap();
    let walked_cfg = PositionsConfig { random_plies: 2, ..base.clone() };
    let walked = positions::extract(&[fixture()], &walked_cfg).unwrap();
    assert_eq!(walked.train.len(), games.train.len());
    for p in &walked.train {
        p.parse().unwrap_or_else(|e| panic!("{e}"));
    }
    // The game's result says nothing about a position reached by random moves.
    assert!(walked.train.iter().all(|p| p.outcome.is_none()));
    let moved = games.train.iter().zip(&walked.train).filter(|(g, w)| g.fen != w.fen).count();
    assert!(moved > games.train.len() * 9 / 10, "{moved} of {} positions moved", games.train.len());
    assert_eq!(walked, positions::extract(&[fixture()], &walked_cfg).unwrap(), "seeded");

    let half = positions::extract(&[fixture()], &PositionsConfig { random_share: 0.5, ..walked_cfg.clone() }).unwrap();
    let kept = games.train.iter().zip(&half.train).filter(|(g, h)| g == h).count();
    assert!(kept > 0 && kept < half.train.len(), "{kept} of {} kept", half.train.len());

    let key = |c: &PositionsConfig| positions::cache_key(&[fixture()], c).unwrap();
    assert_ne!(key(&base), key(&walked_cfg));
    let bad = positions::extract(&[fixture()], &PositionsConfig { random_share: 1.5, ..walked_cfg }).unwrap_err();
    assert!(bad.to_string().contains("random_share"), "{bad}");
}
