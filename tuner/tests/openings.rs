//! Opening sources: PGN (pgn-reader), EPD, Polyglot (Debian's gnuchess book when installed),
//! and the committed suite.

use std::{fs, path::Path};

use arena::openings::{OpeningBook, OpeningsConfig, PolyglotBook, read_epd, read_pgn};

fn tmp(name: &str, text: &str) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("tuner-openings-{}-{name}", std::process::id()));
    fs::write(&p, text).unwrap();
    p
}

#[test]
fn pgn_main_lines_fen_tags_and_errors() {
    let p = tmp(
        "a.pgn",
        "[Event \"x\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 {comment} Nc6 3. O-O-O?? *\n\n\
         [Event \"y\"]\n[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n[SetUp \"1\"]\n\n1. O-O O-O-O 1/2-1/2\n",
    );
    // Game 1 has an illegal 3. O-O-O: the error names the game and the move.
    let e = read_pgn(&p).unwrap_err().to_string();
    assert!(e.contains("game 1") && e.contains("O-O-O"), "{e}");
    let p = tmp(
        "b.pgn",
        "[Event \"x\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 {comment} Nc6 *\n\n\
         [Event \"y\"]\n[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n[SetUp \"1\"]\n\n1. O-O O-O-O 1/2-1/2\n",
    );
    let o = read_pgn(&p).unwrap();
    assert_eq!(o.len(), 2);
    assert_eq!(o[0].fen, None);
    assert_eq!(o[0].moves, vec!["e2e4", "e7e5", "g1f3", "b8c6"]); // the variation is skipped
    assert_eq!(o[1].fen.as_deref(), Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
    assert_eq!(o[1].moves, vec!["e1g1", "e8c8"]); // standard castling notation
    let cfg = OpeningsConfig::parse(&[format!("file={}", p.display()), "plies=3".into()]).unwrap();
    let book = OpeningBook::load(&cfg, 0).unwrap();
    assert_eq!(book.get(0).moves.len(), 3);
    assert_eq!(book.get(1).moves.len(), 2);
    assert_eq!(book.get(2), book.get(0)); // wraps around
}

#[test]
fn epd_errors_name_the_line_and_random_order_is_seeded() {
    let p = tmp("bad.epd", "8/8/8/8/8/8/k7/2K5 w - -\nnot a fen at all\n");
    let e = read_epd(&p).unwrap_err().to_string();
    assert!(e.contains("line 2"), "{e}");
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("../openings/gnuchess-8ply.epd");
    let all = read_epd(&suite).unwrap();
    assert_eq!(all.len(), 200);
    let cfg =
        |order: &str| OpeningsConfig::parse(&[format!("file={}", suite.display()), format!("order={order}")]).unwrap();
    let seq = OpeningBook::load(&cfg("sequential"), 1).unwrap();
    assert_eq!(seq.get(0), all[0]);
    let r1 = OpeningBook::load(&cfg("random"), 1).unwrap();
    let r1b = OpeningBook::load(&cfg("random"), 1).unwrap();
    let r2 = OpeningBook::load(&cfg("random"), 2).unwrap();
    let first = |b: &OpeningBook| (0..10).map(|i| b.get(i)).collect::<Vec<_>>();
    assert_eq!(first(&r1), first(&r1b));
    assert_ne!(first(&r1), first(&r2));
    // Every suite position replays and is balanced by construction (White to move, 8 plies).
    for o in &all {
        let pos = o.start_position().unwrap();
        assert_eq!(o.fen.as_deref().unwrap().split(' ').nth(1), Some("w"));
        assert!(!shakmaty::Position::is_game_over(&pos));
    }
}

#[test]
#[ignore = "needs /usr/share/games/gnuchess/book.bin"]
fn polyglot_gnuchess_book() {
    let path = Path::new("/usr/share/games/gnuchess/book.bin");
    assert!(path.exists(), "{} not installed (Debian package gnuchess-book)", path.display());
    let book = PolyglotBook::open(path).unwrap();
    let start = book.moves(&shakmaty::Chess::default());
    let ucis: Vec<String> = start.iter().map(|(m, _)| m.to_uci(shakmaty::CastlingMode::Standard).to_string()).collect();
    assert!(ucis.contains(&"e2e4".to_string()) && ucis.contains(&"d2d4".to_string()), "{ucis:?}");
    let cfg = OpeningsConfig::parse(&["file=/usr/share/games/gnuchess/book.bin", "plies=10"]).unwrap();
    let b = OpeningBook::load(&cfg, 42).unwrap();
    assert_eq!(b.len(), None);
    let lines: Vec<_> = (0..20).map(|i| b.get(i)).collect();
    for (i, o) in lines.iter().enumerate() {
        assert!(!o.moves.is_empty() && o.moves.len() <= 10);
        o.replay().unwrap(); // legal
        assert_eq!(*o, b.get(i as u64)); // deterministic per index (resume replays the same)
    }
    let distinct: std::collections::HashSet<_> = lines.iter().map(|o| o.moves.clone()).collect();
    assert!(distinct.len() > 10, "walks should differ: {}", distinct.len());
    let bad = tmp("bad.bin", "0123456789abcde");
    assert!(PolyglotBook::open(&bad).unwrap_err().to_string().contains("not a Polyglot book"));
}

/// Writes `plain` compressed with xz (lzma-rs, so the test needs no `xz` tool) as `name`.
fn xz_copy(plain: &Path, name: &str) -> std::path::PathBuf {
    let mut packed = Vec::new();
    lzma_rs::xz_compress(&mut std::io::BufReader::new(fs::File::open(plain).unwrap()), &mut packed).unwrap();
    let p = std::env::temp_dir().join(format!("tuner-openings-{}-{name}", std::process::id()));
    fs::write(&p, packed).unwrap();
    p
}

#[test]
fn xz_compressed_epd_and_pgn_books_read_like_the_plain_ones() {
    let epd = Path::new(env!("CARGO_MANIFEST_DIR")).join("../openings/gnuchess-8ply.epd");
    let epd_xz = xz_copy(&epd, "suite.epd.xz");
    assert_eq!(read_epd(&epd_xz).unwrap(), read_epd(&epd).unwrap());
    // The GM sample is committed packed by the `xz` tool; the plain copy is unpacked here.
    let pgn_xz = evochess::data::fixture("gm-sample.pgn.xz");
    let mut unpacked = Vec::new();
    lzma_rs::xz_decompress(&mut std::io::BufReader::new(fs::File::open(&pgn_xz).unwrap()), &mut unpacked).unwrap();
    let pgn = std::env::temp_dir().join(format!("tuner-openings-{}-games.pgn", std::process::id()));
    fs::write(&pgn, unpacked).unwrap();
    let plain = read_pgn(&pgn).unwrap();
    assert_eq!(plain.len(), 100);
    assert_eq!(read_pgn(&pgn_xz).unwrap(), plain);
    // The format comes from the name inside the .xz; the book plays the same openings.
    let cfg = |p: &Path| OpeningsConfig::parse(&[format!("file={}", p.display()), "order=random".into()]).unwrap();
    let (a, b) = (OpeningBook::load(&cfg(&epd_xz), 9).unwrap(), OpeningBook::load(&cfg(&epd), 9).unwrap());
    assert!((0..20).all(|i| a.get(i) == b.get(i)));

    let bad = tmp("bad.epd.xz", "not xz at all");
    let e = read_epd(&bad).unwrap_err().to_string();
    assert!(e.contains("bad.epd.xz") && e.contains("not a valid xz file"), "{e}");
    for name in ["book.bin.xz", "book.xz"] {
        let e = OpeningsConfig::parse(&[format!("file={name}")]).unwrap_err().to_string();
        assert!(e.contains("unknown format"), "{e}");
    }
}

/// The shared data set's UHO book, which the issue found rejected.
#[test]
#[ignore = "needs ../shared/data"]
fn uho_epd_xz_book_loads() {
    let path = evochess::data::shared_data("openings/UHO_4060_v4.epd.xz").unwrap_or_else(|e| panic!("{e}"));
    let cfg = OpeningsConfig::parse(&[format!("file={}", path.display()), "order=random".into()]).unwrap();
    let book = OpeningBook::load(&cfg, 1).unwrap();
    assert!(book.len().unwrap() > 100_000, "{:?}", book.len());
    book.get(0).replay().unwrap();
}
