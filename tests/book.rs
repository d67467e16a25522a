//! `OwnBook` and `BookFile` over UCI against the real binary: book moves instead of a search,
//! searching when the book is off or has nothing, and bad book files reported, not fatal.

mod common;

use std::path::PathBuf;

use common::{REPLY, Session, best_of};
use evochess::{
    book::{Book, Entry, encode_move},
    zobrist::hash,
};
use shakmaty::{CastlingMode, Chess, Position, uci::UciMove};

fn play(moves: &[&str]) -> Chess {
    let mut pos = Chess::default();
    for s in moves {
        let m = s.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
    }
    pos
}

const ITALIAN: [&str; 6] = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5"];

/// Start position: e2e4 (10), d2d4 (5), and an illegal e2e5 (1000) that must never be played;
/// after 1.e4: e7e5 (1); after the Italian: only O-O, stored as Polyglot's e1h1.
fn write_book(name: &str) -> PathBuf {
    let start = Chess::default();
    let entry = |pos: &Chess, m: &str, weight| {
        let mv = m.parse::<UciMove>().unwrap().to_move(pos).unwrap();
        Entry { key: hash(pos), raw_move: encode_move(mv).unwrap(), weight }
    };
    let italian = play(&ITALIAN);
    let castle = entry(&italian, "e1g1", 7);
    assert_eq!(castle.raw_move, (4 << 6) | 7, "castling is written king-takes-rook");
    let mut entries = [
        entry(&start, "e2e4", 10),
        entry(&start, "d2d4", 5),
        Entry { key: hash(&start), raw_move: (12 << 6) | 36, weight: 1000 },
        entry(&play(&["e2e4"]), "e7e5", 1),
        castle,
    ];
    entries.sort_by_key(|e| e.key);
    let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_bytes()).collect();
    write_bytes(name, &bytes)
}

fn write_bytes(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("evochess-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Sends `go` and returns the book line (if any), whether the engine searched, and the move.
fn go(s: &mut Session, position: &str, go: &str) -> (Option<String>, bool, String) {
    s.send(position);
    s.send(go);
    let (infos, best) = s.read_until_bestmove(REPLY);
    let book = infos.iter().find(|l| l.starts_with("info string book move ")).cloned();
    let searched = infos.iter().any(|l| l.starts_with("info depth "));
    (book, searched, best_of(&best).to_string())
}

fn load(s: &mut Session, path: &std::path::Path) {
    s.send(&format!("setoption name BookFile value {}", path.display()));
    let lines = s.sync();
    assert_eq!(lines, [format!("info string loaded book {} (5 entries)", path.display())], "{}", s.dump());
}

#[test]
fn own_book_plays_weighted_book_moves_without_searching() {
    let book = write_book("tiny.bin");
    let session = || {
        let mut s = Session::start();
        load(&mut s, &book);
        s.send("setoption name OwnBook value true");
        s.sync_quiet();
        s
    };
    let mut s = session();
    let mut firsts = Vec::new();
    for _ in 0..12 {
        s.send("ucinewgame");
        let (line, searched, best) = go(&mut s, "position startpos", "go wtime 10000 btime 10000");
        assert!(!searched, "{}", s.dump());
        assert!(best == "e2e4" || best == "d2d4", "{best}");
        let weight = if best == "e2e4" { 10 } else { 5 };
        assert_eq!(line.as_deref(), Some(format!("info string book move {best} weight {weight} of 15").as_str()));
        firsts.push(best);
    }
    // Seeded by position, ply and game number: both moves come up, the same way every run.
    assert!(firsts.contains(&"e2e4".to_string()) && firsts.contains(&"d2d4".to_string()), "{firsts:?}");
    let mut again = session();
    for first in &firsts {
        again.send("ucinewgame");
        assert_eq!(go(&mut again, "position startpos", "go depth 3").2, *first);
    }
    assert!(again.quit().success());

    // Castling from the book, decoded from e1h1.
    let italian = format!("position startpos moves {}", ITALIAN.join(" "));
    let (line, searched, best) = go(&mut s, &italian, "go movetime 5000");
    assert_eq!((line.is_some(), searched, best.as_str()), (true, false, "e1g1"));
    // Black's book move after 1.e4.
    assert_eq!(go(&mut s, "position startpos moves e2e4", "go depth 3").2, "e7e5");
    // Out of book: a normal search.
    let (line, searched, _) = go(&mut s, "position startpos moves d2d4", "go depth 3");
    assert_eq!((line, searched), (None, true));
    // `searchmoves` without a book move searches; with one, plays it.
    let (line, searched, best) = go(&mut s, "position startpos", "go depth 3 searchmoves c2c4 g1f3");
    assert!(line.is_none() && searched && (best == "c2c4" || best == "g1f3"), "{best}");
    assert_eq!(go(&mut s, "position startpos", "go depth 3 searchmoves c2c4 d2d4").2, "d2d4");
    // `go infinite` searches until stopped.
    s.send("position startpos");
    s.send("go infinite");
    s.expect_silence("bestmove", std::time::Duration::from_millis(300));
    s.send("stop");
    let (infos, _) = s.read_until_bestmove(REPLY);
    assert!(!infos.iter().any(|l| l.contains("book move")), "{infos:?}");
    assert!(s.quit().success());
}

#[test]
fn without_own_book_the_engine_searches() {
    let book = write_book("off.bin");
    let mut s = Session::start();
    load(&mut s, &book);
    let (line, searched, _) = go(&mut s, "position startpos", "go depth 3");
    assert_eq!((line, searched), (None, true));
    // On, then off again.
    s.send("setoption name OwnBook value true");
    assert!(!go(&mut s, "position startpos", "go depth 3").1);
    s.send("setoption name ownbook value false");
    assert!(go(&mut s, "position startpos", "go depth 3").1);
    assert!(s.quit().success());
}

#[test]
fn bad_book_files_are_reported_and_the_old_book_stays() {
    let good = write_book("good.bin");
    let garbage = write_bytes("garbage.bin", b"this is not a polyglot book");
    let empty = write_bytes("empty.bin", b"");
    let mut unsorted = std::fs::read(&good).unwrap();
    unsorted.rotate_left(16);
    let unsorted = write_bytes("unsorted.bin", &unsorted);

    let mut s = Session::start();
    // Before any book: errors, and `go` still searches.
    let e = s.expect_error("setoption name BookFile value /no/such/book.bin");
    assert!(e.contains("/no/such/book.bin"), "{e}");
    s.send("setoption name OwnBook value true");
    assert!(go(&mut s, "position startpos", "go depth 2").1);

    load(&mut s, &good);
    let dir = good.parent().unwrap().to_path_buf();
    for (path, problem) in [
        (garbage, "not a multiple of 16"),
        (empty, "no entries"),
        (unsorted, "out of key order"),
        (dir, "not a regular file"),
        (PathBuf::from("/no/such/book.bin"), "No such file"),
    ] {
        let e = s.expect_error(&format!("setoption name BookFile value {}", path.display()));
        assert!(e.contains(&path.display().to_string()) && e.contains(problem), "{e}");
        assert!(e.contains("keeping the previous book"), "{e}");
    }
    // The good book is still in use.
    let (line, searched, _) = go(&mut s, "position startpos", "go depth 2");
    assert!(line.is_some() && !searched);
    // `<empty>` unloads it.
    s.send("setoption name BookFile value <empty>");
    s.sync_quiet();
    assert!(go(&mut s, "position startpos", "go depth 2").1);
    assert!(s.quit().success());
}

#[test]
#[ignore = "needs /usr/share/games/gnuchess/book.bin"]
fn gnuchess_book_opens_the_game() {
    const PATH: &str = "/usr/share/games/gnuchess/book.bin";
    let book = Book::open(PATH).unwrap_or_else(|e| panic!("{e} (Debian package gnuchess-book)"));
    let mut s = Session::start();
    s.send(&format!("setoption name BookFile value {PATH}"));
    assert!(s.sync()[0].starts_with(&format!("info string loaded book {PATH} (")), "{}", s.dump());
    s.send("setoption name OwnBook value true");
    // Play from the book while it has moves; every move is one of its weighted entries.
    let mut moves: Vec<String> = Vec::new();
    loop {
        let pos = play(&moves.iter().map(String::as_str).collect::<Vec<_>>());
        let entries: Vec<String> = book
            .moves(&pos)
            .into_iter()
            .filter(|&(_, w)| w > 0)
            .map(|(m, _)| m.to_uci(CastlingMode::Standard).to_string())
            .collect();
        let position = if moves.is_empty() {
            "position startpos".into()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        let (line, searched, best) = go(&mut s, &position, "go depth 2");
        if entries.is_empty() {
            assert!(line.is_none() && searched);
            break;
        }
        assert!(line.is_some() && !searched && entries.contains(&best), "{best} not in {entries:?}");
        moves.push(best);
    }
    assert!(moves.len() >= 4, "the gnuchess book should last a few moves: {moves:?}");
    assert!(s.quit().success());
}
