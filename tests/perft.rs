//! Data-driven perft: every position of `tests/data/perft.epd.xz`, each depth whose expected count
//! is under a node limit (keeps CI fast), by shakmaty's generator and through our staged move
//! picker, which must yield exactly the legal moves, each once. Plus the picker on every 20th
//! position of Marcel van Kervinck's suite (a fixture), and on all of it from the shared data.

use std::path::Path;

use evochess::data::{fixture, shared_data};
use evochess::perft::{movepicker_perft, perft};
use shakmaty::{CastlingMode, Chess, fen::Fen};

/// Largest expected count checked with shakmaty's (bulk-counting) perft.
const NODE_LIMIT: u64 = 1_000_000;
/// Largest expected count checked through the move picker (one picker per interior node).
const PICKER_NODE_LIMIT: u64 = 100_000;

/// `FEN; D1 n; D2 n; ...` -> (position, [(depth, count)]).
fn parse_line(line: &str, number: usize) -> (Chess, Vec<(u32, u64)>) {
    // Some lines of the suite end in a NUL byte.
    let line = line.trim_matches(|c: char| c.is_whitespace() || c == '\0');
    let mut parts = line.split(';');
    let fen = parts.next().unwrap().trim();
    let pos = fen
        .parse::<Fen>()
        .unwrap_or_else(|e| panic!("line {number}: bad FEN {fen}: {e}"))
        .into_position(CastlingMode::Standard)
        // A few suite positions have a check shakmaty deems impossible; they still perft fine.
        .or_else(|e| e.ignore_impossible_check().map_err(|e| e.to_string()))
        .unwrap_or_else(|e| panic!("line {number}: bad position {fen}: {e}"));
    let mut counts = Vec::new();
    for p in parts.map(str::trim).filter(|p| !p.is_empty()) {
        let (d, n) = p.split_once(' ').unwrap_or_else(|| panic!("line {number}: bad entry `{p}`"));
        let depth: u32 = d.trim_start_matches('D').parse().unwrap_or_else(|_| panic!("line {number}: `{d}`"));
        counts.push((depth, n.trim().parse().unwrap_or_else(|_| panic!("line {number}: `{n}`"))));
    }
    (pos, counts)
}

/// One suite line: its FEN, the position and the expected `(depth, count)` pairs.
type Case = (String, Chess, Vec<(u32, u64)>);

/// Every line of the suite at `path`; a `.xz` file (as the committed fixtures are) is unpacked first.
fn suite(path: &Path) -> Vec<Case> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let bytes = if path.extension().is_some_and(|e| e == "xz") {
        let mut unpacked = Vec::new();
        lzma_rs::xz_decompress(&mut &bytes[..], &mut unpacked).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        unpacked
    } else {
        bytes
    };
    let text = String::from_utf8(bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let (pos, counts) = parse_line(l, i + 1);
            (l.split(';').next().unwrap().to_string(), pos, counts)
        })
        .collect()
}

/// Every `(depth, count)` that `keep` selects, through the move picker; returns how many.
fn picker_agrees(cases: &[Case], keep: impl Fn(u32, u64) -> bool) -> usize {
    let mut checked = 0;
    for (fen, pos, counts) in cases {
        for &(depth, expected) in counts.iter().filter(|(d, n)| keep(*d, *n)) {
            assert_eq!(movepicker_perft(pos, depth), expected, "move picker: {fen} depth {depth}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn perft_suite() {
    let cases = suite(&fixture("perft.epd.xz"));
    assert!(cases.len() > 170, "{}", cases.len());
    let mut checked = 0;
    for (fen, pos, counts) in &cases {
        for &(depth, expected) in counts.iter().filter(|(_, n)| *n <= NODE_LIMIT) {
            assert_eq!(perft(pos, depth), expected, "{fen} depth {depth}");
            checked += 1;
        }
    }
    let picker_checked = picker_agrees(&cases, |_, n| n <= PICKER_NODE_LIMIT);
    assert!(checked > 300 && picker_checked > 250, "{checked} {picker_checked}");
}

#[test]
fn movepicker_matches_on_marcel_sample() {
    let cases = suite(&fixture("perft-marcel-sample.epd.xz"));
    assert_eq!(cases.len(), 342);
    // Depths 1 and 2 of each position.
    assert_eq!(picker_agrees(&cases, |d, _| d <= 2), 2 * 342);
}

#[test]
#[ignore = "needs ../shared/data"]
fn movepicker_matches_on_all_of_marcel() {
    let cases = suite(&shared_data("tests/perft/perft-marcel.epd").unwrap_or_else(|e| panic!("{e}")));
    assert_eq!(cases.len(), 6838);
    assert_eq!(picker_agrees(&cases, |d, _| d <= 2), 2 * 6838);
}
