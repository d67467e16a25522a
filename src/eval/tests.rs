//! Evaluation tests: colour symmetry over test suites, the two entry points agree, every term
//! fires on a hand-made position by exactly the expected amount, no overflow at extreme weights.

use shakmaty::{CastlingMode, Chess, EnPassantMode, FromSetup, Position, fen::Fen};

use super::{
    Breakdown, Ctx, EvalParams, Evaluator, PawnTable, breakdown, evaluate, king, phase, psqt::Profiles,
    term_tables::TermTables,
};
use crate::params::ParamSection;

pub(crate) fn pos(fen: &str) -> Chess {
    let f: Fen = fen.parse().unwrap_or_else(|e| panic!("bad FEN {fen}: {e}"));
    f.into_position(CastlingMode::Standard).unwrap_or_else(|e| panic!("illegal FEN {fen}: {e}"))
}

/// A few built-in positions, besides the suite fixtures.
const BUILTIN: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    // Opposite-coloured bishops, white a pawn up.
    "4k3/5p2/3b4/8/4P3/3B1P2/8/4K3 w - - 0 1",
    // A queen without a move, walled in by its own king and pawns.
    "4k3/8/8/8/8/8/PP6/QK6 w - - 0 1",
];

/// WAC.001-060 and the perft suite (committed xz-packed), compiled in from the repository's
/// fixtures (tests/data).
const WAC_FIXTURE: &str = include_str!("../../tests/data/wac.epd");
const PERFT_FIXTURE_XZ: &[u8] = include_bytes!("../../tests/data/perft.epd.xz");

fn perft_fixture() -> String {
    let mut text = Vec::new();
    lzma_rs::xz_decompress(&mut &PERFT_FIXTURE_XZ[..], &mut text).expect("tests/data/perft.epd.xz unpacks");
    String::from_utf8(text).expect("tests/data/perft.epd.xz is UTF-8")
}

/// The positions of EPD text (first four FEN fields of each line). A few perft positions have
/// checks shakmaty calls impossible; those are left out.
fn epd_positions(text: &str) -> Vec<Chess> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|line| {
            let fields: Vec<&str> = line.split(';').next().unwrap_or("").split_whitespace().take(4).collect();
            let fen = format!("{} 0 1", fields.join(" "));
            fen.parse::<Fen>().ok()?.into_position(CastlingMode::Standard).ok()
        })
        .collect()
}

/// Built-in positions, WAC.001-060 and the perft suite's positions.
pub(crate) fn suite_positions() -> Vec<Chess> {
    let mut out: Vec<Chess> = BUILTIN.iter().map(|f| pos(f)).collect();
    out.extend(epd_positions(WAC_FIXTURE));
    out.extend(epd_positions(&perft_fixture()));
    out
}

/// Colours swapped and board mirrored vertically: the same position for the other side.
fn mirror(p: &Chess) -> Chess {
    let mut setup = p.to_setup(EnPassantMode::Legal);
    setup.mirror();
    Chess::from_setup(setup, CastlingMode::Standard).expect("mirror of a legal position is legal")
}

/// Suite positions plus every child of the first 40 of them.
fn many_positions() -> Vec<Chess> {
    let base = suite_positions();
    let mut out = base.clone();
    for p in base.iter().take(40) {
        for m in p.legal_moves() {
            let mut c = p.clone();
            c.play_unchecked(m);
            out.push(c);
        }
    }
    out.extend(square_coverage());
    out
}

/// A white piece of each role on each square of files a-d (ranks 2-7 for pawns), with a black
/// queen and rook on the board so that both phases count: every per-square term is exercised.
fn square_coverage() -> Vec<Chess> {
    use shakmaty::{Board, Color, Piece, Role, Setup, Square};
    let mut out = Vec::new();
    for role in Role::ALL {
        for rank in 0..8u32 {
            if role == Role::Pawn && (rank == 0 || rank == 7) {
                continue;
            }
            for file in 0..4u32 {
                let mut board = Board::empty();
                board.set_piece_at(Square::new(rank * 8 + file), Piece { color: Color::White, role });
                if role != Role::King {
                    board.set_piece_at(Square::H1, Piece { color: Color::White, role: Role::King });
                }
                board.set_piece_at(Square::H8, Piece { color: Color::Black, role: Role::King });
                board.set_piece_at(Square::G8, Piece { color: Color::Black, role: Role::Queen });
                board.set_piece_at(Square::G6, Piece { color: Color::Black, role: Role::Rook });
                let mut setup = Setup::empty();
                setup.board = board;
                // The side to move may be in check, not the other: a white king beside the
                // black queen's lines moves first.
                setup.turn = if role == Role::King { Color::White } else { Color::Black };
                out.push(Chess::from_setup(setup, CastlingMode::Standard).expect("a legal coverage position"));
            }
        }
    }
    out
}

fn set(p: &mut EvalParams, name: &str, value: i32) {
    let i = EvalParams::specs().iter().position(|s| s.name == name).unwrap_or_else(|| panic!("no parameter {name}"));
    p.set_unchecked(i, value);
}

fn get(p: &EvalParams, name: &str) -> i32 {
    let i = EvalParams::specs().iter().position(|s| s.name == name).unwrap_or_else(|| panic!("no parameter {name}"));
    p.get(i)
}

fn parts(fen: &str, p: &EvalParams) -> Breakdown {
    breakdown(&pos(fen), p, &Profiles::new(p))
}

/// The hand-set weights (params/hand-set.toml). The hand calculations below use them: the
/// defaults are the tuner's and move whenever it is run again.
fn hand_set() -> EvalParams {
    crate::Params::default()
        .with_toml(include_str!("../../params/hand-set.toml"))
        .expect("params/hand-set.toml loads")
        .eval
}

/// Change of (mg, eg, shelter) from white's view when `name` grows by `step`, from the
/// hand-set weights.
fn delta_by(fen: &str, name: &str, step: i32) -> (i32, i32, i32) {
    let base = hand_set();
    let mut changed = base.clone();
    set(&mut changed, name, get(&base, name) + step);
    let (a, b) = (parts(fen, &base), parts(fen, &changed));
    assert_eq!(a.phase, b.phase);
    (b.s.mg() - a.s.mg(), b.s.eg() - a.s.eg(), b.shelter - a.shelter)
}

fn delta(fen: &str, name: &str) -> (i32, i32) {
    let (mg, eg, shelter) = delta_by(fen, name, 1);
    assert_eq!(shelter, 0, "{name} moved the shelter score");
    (mg, eg)
}

#[test]
fn colour_symmetric_on_suites_and_children() {
    let positions = many_positions();
    assert!(positions.len() > 300, "only {} positions", positions.len());
    let defaults = EvalParams::default();
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let random = random_params(&mut rng);
    for p in &positions {
        let m = mirror(p);
        for params in [&defaults, &random] {
            assert_eq!(
                evaluate(p, params),
                evaluate(&m, params),
                "asymmetric: {}",
                Fen::from_position(p, EnPassantMode::Legal)
            );
        }
        assert_eq!(phase(p), phase(&m));
    }
}

/// Every parameter drawn uniformly from its declared range (xorshift, fixed seed).
fn random_params(state: &mut u64) -> EvalParams {
    let mut p = EvalParams::default();
    for (i, s) in EvalParams::specs().iter().enumerate() {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        let span = (s.max - s.min) as u64 + 1;
        p.set_unchecked(i, s.min + (*state % span) as i32);
    }
    p
}

#[test]
fn evaluator_matches_free_function() {
    let positions = many_positions();
    let mut rng = 12345u64;
    for params in [EvalParams::default(), random_params(&mut rng), random_params(&mut rng)] {
        let e = Evaluator::new(&params);
        for p in &positions {
            assert_eq!(e.evaluate(p), evaluate(p, &params));
        }
    }
}

/// Black's and white's pawns, the pawn table's tag.
fn pawn_sets(p: &Chess) -> [u64; 2] {
    let b = p.board();
    [(b.pawns() & b.black()).0, (b.pawns() & b.white()).0]
}

/// The pawn table (structure and king shelter entries) gives back exactly the uncached
/// evaluation: one small table (entries replaced
/// all the time) used by evaluators of three parameter sets in turn, so that each finds the
/// others' entries for the same pawns and must not take them.
#[test]
fn pawn_table_gives_the_uncached_evaluation() {
    let positions = many_positions();
    let mut rng = 777u64;
    let params = [EvalParams::default(), random_params(&mut rng), random_params(&mut rng)];
    let evaluators: Vec<Evaluator> = params.iter().map(Evaluator::new).collect();
    let mut table = PawnTable::with_entries(64);
    let (mut hits, mut foreign) = (0, 0);
    for round in 0..2 {
        for (e, p) in evaluators.iter().zip(&params) {
            for (i, pos) in positions.iter().enumerate() {
                let pawns = pawn_sets(pos);
                if table.get(pawns, e.id).is_some() {
                    hits += 1;
                } else if evaluators.iter().any(|other| table.get(pawns, other.id).is_some()) {
                    foreign += 1;
                }
                assert_eq!(e.evaluate_cached(pos, &mut table), evaluate(pos, p), "round {round}, position {i}");
                assert!(table.get(pawns, e.id).is_some());
            }
        }
    }
    // Children share their parent's pawns: most lookups hit; at each change of evaluator the
    // table holds the previous one's entries.
    assert!(hits > positions.len(), "{hits} hits of {}", positions.len() * 6);
    assert!(foreign > 10, "{foreign}");
}

/// The cached king terms (pawns and king squares) equal the computed ones field by field,
/// under random parameters, with a small table that three evaluators share: a field the whole
/// evaluation would hide (a shelter scaled to 0 without enemy pieces) is still compared.
#[test]
fn pawn_table_gives_the_computed_king_terms() {
    let positions = many_positions();
    let mut rng = 778u64;
    let params = [EvalParams::default(), random_params(&mut rng), random_params(&mut rng)];
    let evaluators: Vec<Evaluator> = params.iter().map(Evaluator::new).collect();
    let expanded: Vec<TermTables> = params.iter().map(TermTables::new).collect();
    let mut table = PawnTable::with_entries(64);
    for round in 0..2 {
        for (k, (e, p)) in evaluators.iter().zip(&params).enumerate() {
            for (i, pos) in positions.iter().enumerate() {
                let ctx = Ctx::new(pos);
                // Computed from the parameters, cached from the expanded tables (as the search).
                let computed = king::pawn_terms(&ctx, p, None);
                let tables = Some(&expanded[k]);
                assert_eq!(table.probe_kings(&ctx, p, tables, e.id), computed, "round {round}, position {i}");
                assert_eq!(table.probe_kings(&ctx, p, tables, e.id), computed, "round {round}, position {i}, hit");
            }
        }
    }
}

/// Ids: a new evaluator never matches another's entries, even with equal parameters; a clone
/// (same parameters) shares them.
#[test]
fn pawn_table_entries_belong_to_one_evaluator() {
    let pos = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let (a, b) = (Evaluator::default(), Evaluator::default());
    assert_ne!(a.id, b.id);
    assert_ne!(a.id, 0, "0 marks an empty entry");
    let mut table = PawnTable::new();
    assert!(table.get(pawn_sets(&pos), a.id).is_none());
    let v = a.evaluate_cached(&pos, &mut table);
    assert_eq!(v, a.evaluate(&pos));
    assert!(table.get(pawn_sets(&pos), a.id).is_some());
    assert!(table.get(pawn_sets(&pos), b.id).is_none());
    assert!(table.get(pawn_sets(&pos), a.clone().id).is_some());
    assert_eq!(a.evaluate_cached(&pos, &mut table), v);
}

#[test]
fn extreme_weights_do_not_overflow() {
    let mut lo = EvalParams::default();
    let mut hi = EvalParams::default();
    for (i, s) in EvalParams::specs().iter().enumerate() {
        lo.set_unchecked(i, s.min);
        hi.set_unchecked(i, s.max);
    }
    let mut positions = suite_positions();
    positions.push(pos("RNBQKBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr w - - 0 1"));
    for p in &positions {
        for params in [&lo, &hi] {
            let v = evaluate(p, params);
            assert!(v.abs() < 1_000_000, "{v}");
        }
    }
}

#[test]
fn material_only_sanity() {
    let mut p = EvalParams::default();
    // Material is all that is kept: every other term (pairs such as the king's file distance to
    // the pawns fire even in these bare positions) goes.
    let material = ["pawn_", "knight_", "bishop_", "rook_", "queen_"]
        .iter()
        .flat_map(|piece| ["mg", "eg"].map(|phase| format!("{piece}{phase}")))
        .collect::<Vec<_>>();
    for (i, s) in EvalParams::specs().iter().enumerate() {
        if !material.iter().any(|m| m == s.name) {
            p.set_unchecked(i, 0);
        }
    }
    for (i, s) in EvalParams::specs().iter().enumerate() {
        if s.name.starts_with("pst_") {
            p.set_unchecked(i, 0);
        }
        // Endgame scales are factors: 100 % leaves the material alone.
        if s.name.starts_with("scale_") {
            p.set_unchecked(i, 100);
        }
    }
    assert_eq!(evaluate(&Chess::default(), &p), 0);
    // White is a knight up; phase = 3 minors + ... : check the taper by hand.
    let q = pos("4k3/8/8/8/8/8/8/1N2K3 b - - 0 1");
    assert_eq!(phase(&q), 1);
    assert_eq!(evaluate(&q, &p), -((p.knight_mg + p.knight_eg * 23) / 24));
    let r = pos("4k3/pppppppp/8/8/8/8/PPPPPPP1/4K3 w - - 0 1");
    assert_eq!(evaluate(&r, &p), -p.pawn_eg);
    // The full evaluation still calls an extra queen winning.
    let full = EvalParams::default();
    assert!(evaluate(&pos("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), &full) > 700);
    assert!(evaluate(&pos("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"), &full) < -700);
}

#[test]
fn start_position_is_level_up_to_tempo() {
    let p = EvalParams::default();
    assert_eq!(evaluate(&Chess::default(), &p), p.tempo);
    let black = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(evaluate(&black, &p), p.tempo);
}

#[test]
fn material_and_psqt_terms() {
    let fen = "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1";
    assert_eq!(delta(fen, "knight_mg"), (1, 0));
    assert_eq!(delta(fen, "knight_eg"), (0, 1));
    assert_eq!(delta(fen, "pst_knight_file_b_mg"), (1, 0));
    assert_eq!(delta(fen, "pst_knight_file_a_mg"), (0, 0));
    assert_eq!(delta(fen, "pst_knight_rank_1_eg"), (0, 1));
    // Both kings on their relative first rank, e-file: the terms cancel.
    assert_eq!(delta(fen, "pst_king_rank_1_mg"), (0, 0));
    assert_eq!(delta("4k3/8/8/8/8/8/8/1N1K4 w - - 0 1", "pst_king_file_d_eg"), (0, 0));
    assert_eq!(delta("4k3/8/8/8/8/8/4K3/8 w - - 0 1", "pst_king_rank_2_mg"), (1, 0));
    assert_eq!(delta("4k3/8/8/8/8/8/4K3/8 w - - 0 1", "pst_king_rank_1_mg"), (-1, 0));
    assert_eq!(delta("4k3/6p1/8/8/8/8/8/4K3 w - - 0 1", "pst_pawn_file_b_eg"), (0, -1));
    assert_eq!(delta("4k3/6p1/8/8/8/8/8/4K3 w - - 0 1", "pst_pawn_rank_2_mg"), (-1, 0));
}

#[test]
fn pawn_terms() {
    let doubled = "4k3/8/8/8/8/4P3/4P3/4K3 w - - 0 1";
    assert_eq!(delta(doubled, "doubled_pawn_penalty"), (-1, -1));
    assert_eq!(delta("4k3/8/8/8/8/8/P1P5/4K3 w - - 0 1", "isolated_pawn_penalty"), (-2, -2));
    // d3 is backward: c4 is ahead of it, e5 attacks d4. Black's e5 is isolated, not backward.
    assert_eq!(delta("4k3/8/8/4p3/2P5/3P4/8/4K3 w - - 0 1", "backward_pawn_penalty"), (-1, -1));
    assert_eq!(delta("4k3/8/8/8/8/8/PP6/4K3 w - - 0 1", "adjacent_pawn"), (2, 2));
    assert_eq!(delta("4k3/8/8/8/8/1P6/P7/4K3 w - - 0 1", "adjacent_pawn"), (1, 1));
    // Holes on relative ranks 3-4: white (e2) has 12, black (d7, e7) has 8.
    assert_eq!(delta("4k3/3pp3/8/8/8/8/4P3/4K3 w - - 0 1", "weak_square_penalty"), (-4, 0));
    assert_eq!(delta("4k3/8/8/8/3P4/8/8/4K3 w - - 0 1", "centre_pawn"), (1, 0));
    assert_eq!(delta("4k3/8/8/8/8/4N3/4P3/4K3 w - - 0 1", "blocked_centre_pawn"), (-1, 0));
    let adv = "4k3/8/8/8/3P4/8/P7/4K3 w - - 0 1";
    assert_eq!(delta(adv, "pawn_advance_a"), (2, 0));
    assert_eq!(delta(adv, "pawn_advance_b"), (0, 2));
    assert_eq!(delta("4k3/4p3/8/8/3P4/8/P7/4K3 w - - 0 1", "pawn_advance_b"), (0, 2));
    // e6 passer (factor 7); black king a8 is 4 squares from e8, weight 2.
    let passer = "k7/8/4P3/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(delta(passer, "passed_pawn_mult"), (7, 14));
    assert_eq!(delta(passer, "passed_pawn_enemy_king_dist"), (0, 8));
    assert_eq!(delta(passer, "far_pawn"), (1, 1));
    // The king on f6 could take e6: no far-pawn bonus.
    assert_eq!(delta("8/8/4Pk2/8/8/8/8/4K3 w - - 0 1", "far_pawn"), (0, 0));
    // Not passed: black pawn on d7 guards e6; a rear doubled pawn is not passed either.
    assert_eq!(delta("4k3/3p4/8/4P3/8/8/8/4K3 w - - 0 1", "passed_pawn_mult"), (0, 0));
    assert_eq!(delta("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "passed_pawn_mult"), (0, 0));
    assert_eq!(delta("7k/8/8/8/4P3/4P3/8/4K3 w - - 0 1", "passed_pawn_mult"), (2, 4));
}

#[test]
fn minor_piece_terms() {
    let knight = "4k3/8/8/8/4N3/8/8/4K3 w - - 0 1";
    assert_eq!(delta(knight, "knight_sq_mult"), (3, 3));
    assert_eq!(delta(knight, "knight_mobility"), (8, 8));
    assert_eq!(delta(knight, "knight_mobility_high"), (1, 1));
    assert_eq!(delta(knight, "knight_outpost_mult"), (1, 1));
    // Supported outpost on the 6th: (6 - 3) + 1.
    assert_eq!(delta("4k3/8/4N3/3P4/8/8/8/4K3 w - - 0 1", "knight_outpost_mult"), (4, 4));
    // A black pawn on f7 could chase it: no outpost.
    assert_eq!(delta("4k3/5p2/4N3/3P4/8/8/8/4K3 w - - 0 1", "knight_outpost_mult"), (0, 0));
    assert_eq!(delta("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "knight_first_rank"), (-1, 0));
    assert_eq!(delta("4k3/8/8/8/8/8/8/N3K3 w - - 0 1", "knight_mobility_high"), (0, 0));
    let bishop = "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1";
    assert_eq!(delta(bishop, "bishop_mobility"), (7, 7));
    assert_eq!(delta(bishop, "bishop_first_rank"), (-1, 0));
    assert_eq!(delta(bishop, "bishop_pair"), (0, 0));
    assert_eq!(delta("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", "bishop_pair"), (1, 1));
    assert_eq!(delta("4k3/8/8/3B4/2P5/8/8/4K3 w - - 0 1", "bishop_outpost"), (1, 1));
    assert_eq!(delta("4k3/8/8/3B4/8/8/8/4K3 w - - 0 1", "bishop_outpost"), (0, 0));
    // Mobility ignores squares attacked by enemy pawns: c1 bishop vs black pawn g7... f4 is hit by e5.
    assert_eq!(delta("4k3/8/8/4p3/8/8/8/2B1K3 w - - 0 1", "bishop_mobility"), (6, 6));
}

#[test]
fn rook_and_queen_terms() {
    let open = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    assert_eq!(delta(open, "rook_open_file"), (1, 1));
    assert_eq!(delta(open, "rook_mobility"), (10, 10));
    assert_eq!(delta(open, "rook_column_mult"), (0, 0));
    let semi = "4k3/p7/8/8/8/8/8/R3K3 w - - 0 1";
    assert_eq!(delta(semi, "rook_semi_open_file"), (1, 1));
    assert_eq!(delta(semi, "rook_open_file"), (0, 0));
    assert_eq!(delta(semi, "rook_atck_weak_pawn_open_column"), (1, 1));
    assert_eq!(delta("4k3/pp6/8/8/8/8/8/R3K3 w - - 0 1", "rook_atck_weak_pawn_open_column"), (0, 0));
    assert_eq!(delta("4k3/p6R/8/8/8/8/8/4K3 w - - 0 1", "rook_7th_rank"), (1, 1));
    assert_eq!(delta("8/7R/3k4/8/8/8/8/4K3 w - - 0 1", "rook_7th_rank"), (0, 0));
    assert_eq!(delta("8/7R/p2k4/8/8/8/8/4K3 w - - 0 1", "rook_7th_rank"), (0, 0));
    assert_eq!(delta("R7/p7/4k3/8/8/8/8/4K3 w - - 0 1", "rook_7th_rank"), (0, 0));
    assert_eq!(delta("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "rook_connected"), (1, 1));
    assert_eq!(delta("4k3/8/8/8/8/8/8/R2B1RK1 w - - 0 1", "rook_connected"), (0, 0));
    assert_eq!(delta("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", "rook_column_mult"), (3, 0));
    assert_eq!(delta("4k3/4p3/8/8/8/8/8/4RK2 w - - 0 1", "rook_attack_king_file"), (1, 0));
    assert_eq!(delta("4k3/8/8/8/8/8/8/3R1K2 w - - 0 1", "rook_attack_king_adj_file"), (1, 0));
    assert_eq!(delta("6k1/8/8/8/8/8/8/4K2R w - - 0 1", "rook_attack_king_adj_file_abgh"), (1, 0));
    assert_eq!(delta("6k1/8/8/8/8/8/8/4K2R w - - 0 1", "rook_attack_king_adj_file"), (0, 0));
    let behind = "7k/8/8/P7/8/8/8/R3K3 w - - 0 1";
    assert_eq!(delta(behind, "rook_behind_passed_pawn"), (1, 1));
    assert_eq!(delta(behind, "rook_supported_passer"), (1, 1));
    assert_eq!(delta("R7/8/7k/8/p7/8/8/4K3 w - - 0 1", "rook_behind_passed_pawn"), (1, 1));
    assert_eq!(delta("7k/R7/8/P7/8/8/8/4K3 w - - 0 1", "rook_behind_passed_pawn"), (0, 0));
    assert_eq!(delta("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "queen_mobility"), (17, 17));
}

#[test]
fn king_terms() {
    // The h1 rook hits h7 and h8 next to the black king on g8.
    assert_eq!(delta("6k1/8/8/8/8/8/8/4K2R w - - 0 1", "king_pressure_mult"), (2, 0));
    assert_eq!(delta("6k1/8/8/8/8/8/8/6K1 w - - 0 1", "castling_done"), (0, 0));
    assert_eq!(delta("4k3/8/8/8/8/8/8/6K1 w - - 0 1", "castling_done"), (1, 0));
    assert_eq!(delta("4k3/8/8/8/8/8/8/6K1 w - - 0 1", "castling_missed"), (1, 0));
    assert_eq!(delta("r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1", "castling_missed"), (0, 0));
    assert_eq!(delta("r3k3/8/8/8/8/8/8/4K2R w q - 0 1", "castling_missed"), (-1, 0));
    // White king g1: f2 shelters, g-file empty, h3 advanced one; no black pawns at all. Black
    // has Q+R+R (8 of 12 phase units); white has no pieces, so black's shelter counts zero.
    let fen = "r2q1r1k/8/8/8/8/7P/5P2/6K1 w - - 0 1";
    assert_eq!(delta_by(fen, "king_no_friendly_pawn", 3), (0, 0, -2));
    assert_eq!(delta_by(fen, "king_no_friendly_pawn_adj", 3), (0, 0, 0));
    assert_eq!(delta_by(fen, "king_friendly_pawn_advanced1", 3), (0, 0, -2));
    assert_eq!(delta_by(fen, "king_no_enemy_pawn", 3), (0, 0, -2));
    assert_eq!(delta_by(fen, "king_no_enemy_pawn_adj", 3), (0, 0, -4));
    // Black mirror image: the same terms from the other side.
    let fen = "6k1/5p2/7p/8/8/8/8/R2Q1R1K w - - 0 1";
    assert_eq!(delta_by(fen, "king_no_friendly_pawn", 3), (0, 0, 2));
    assert_eq!(delta_by(fen, "king_friendly_pawn_advanced1", 3), (0, 0, 2));
    assert_eq!(delta_by(fen, "king_no_enemy_pawn_adj", 3), (0, 0, 4));
}

#[test]
fn shelter_and_storm_tables() {
    // White king g1: f2 one rank ahead (file c/f), no g-pawn, h3 two ahead (a/h) blocking
    // black's h4; black's g4 storms the open g-file. Black king a8: a7 one ahead on its own
    // file, nothing on b; no white pawn on either file.
    let fen = "k7/p7/8/8/6pp/7P/5P2/6K1 w - - 0 1";
    assert_eq!(delta(fen, "king_shelter_c_1_eg"), (0, 1), "white's f2");
    assert_eq!(delta(fen, "king_shelter_a_2_mg"), (1, 0), "white's h3");
    assert_eq!(delta(fen, "king_shelter_a_1_mg"), (-1, 0), "black's a7");
    assert_eq!(delta(fen, "king_shelter_b_none_mg"), (0, 0), "both kings' b/g file is empty");
    assert_eq!(delta(fen, "king_shelter_own_file_none_mg"), (1, 0), "white's empty g-file");
    assert_eq!(delta(fen, "king_shelter_own_file_1_eg"), (0, -1), "black's a7 on its king's file");
    assert_eq!(delta(fen, "king_storm_blocked_3_mg"), (1, 0), "h4 blocked by h3");
    assert_eq!(delta(fen, "king_storm_free_3_mg"), (1, 0), "g4");
    assert_eq!(delta(fen, "king_storm_free_none_mg"), (-1, 0), "white's f-file against black's a and b");
    assert_eq!(delta(fen, "king_storm_free_2_mg"), (0, 0));
    // Far: the h-pawn five ranks ahead of the king, black's g-pawn six.
    let fen = "k7/8/7P/8/8/8/6p1/6K1 w - - 0 1";
    assert_eq!(delta(fen, "king_shelter_a_far_mg"), (1, 0));
    assert_eq!(delta(fen, "king_storm_free_1_mg"), (1, 0), "g2 next to the king");
}

#[test]
fn pawn_tables() {
    // d4 and e4 side by side: both connected, both on the d/e file's fourth rank.
    let fen = "4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1";
    assert_eq!(delta(fen, "pawn_connected_d4_mg"), (2, 0));
    assert_eq!(delta(fen, "pawn_connected_c4_eg"), (0, 0));
    // d3 is backward (e5 attacks d4, c4 stands ahead of it) on a file without a black pawn; c4,
    // defended by d3, is connected.
    let fen = "4k3/8/8/4p3/2P5/3P4/8/4K3 w - - 0 1";
    assert_eq!(delta(fen, "pawn_backward_open_3_mg"), (1, 0));
    assert_eq!(delta(fen, "pawn_backward_closed_3_eg"), (0, 0));
    assert_eq!(delta(fen, "pawn_connected_c4_eg"), (0, 1));
    assert_eq!(delta(fen, "pawn_connected_d3_mg"), (0, 0), "a backward pawn is not connected");
    // With d7 on its file.
    let fen = "4k3/3p4/8/4p3/2P5/3P4/8/4K3 w - - 0 1";
    assert_eq!(delta(fen, "pawn_backward_closed_3_eg"), (0, 1));
    assert_eq!(delta(fen, "pawn_backward_open_3_mg"), (0, 0));
    // d5's only stopper e7 attacks d6, which c5 defends: a candidate, itself not attacked.
    let fen = "4k3/4p3/8/2PP4/8/8/8/4K3 w - - 0 1";
    assert_eq!(delta(fen, "pawn_candidate_held_5_mg"), (1, 0));
    assert_eq!(delta(fen, "pawn_candidate_outnumbered_5_mg"), (0, 0));
    // d5's only stopper e6 attacks it, and nothing defends it: outnumbered. So is e6 (for black,
    // on its third rank): d5 attacks it and is its only stopper.
    let fen = "4k3/8/4p3/2PP4/8/8/8/4K3 w - - 0 1";
    assert_eq!(delta(fen, "pawn_candidate_outnumbered_5_mg"), (1, 0));
    assert_eq!(delta(fen, "pawn_candidate_outnumbered_3_eg"), (0, -1));
    assert_eq!(delta(fen, "pawn_candidate_held_5_mg"), (0, 0));
}

#[test]
fn minor_and_queen_tables() {
    // The e3 knight stands behind e4; the c3 bishop behind c4, and it sees d4 and e5.
    let fen = "4k3/8/8/8/2P1P3/2B1N3/8/4K3 w - - 0 1";
    assert_eq!(delta(fen, "knight_behind_pawn_mg"), (1, 0));
    assert_eq!(delta(fen, "bishop_behind_pawn_eg"), (0, 1));
    assert_eq!(delta(fen, "bishop_long_diagonal_mg"), (1, 0));
    assert_eq!(delta(fen, "knight_siberia_4_mg"), (0, 0), "two squares from the white king");
    // Behind a black pawn too; a4 is six squares from both kings.
    let fen = "6k1/8/8/3p4/N2N4/8/8/6K1 w - - 0 1";
    assert_eq!(delta(fen, "knight_behind_pawn_eg"), (0, 1));
    assert_eq!(delta(fen, "knight_siberia_6_mg"), (1, 0));
    assert_eq!(delta(fen, "knight_siberia_4_mg"), (0, 0));
    // The bishop sees past a knight on its diagonal, not past a pawn.
    assert_eq!(delta("4k3/8/8/8/8/2n5/1B6/4K3 w - - 0 1", "bishop_long_diagonal_eg"), (0, 1));
    assert_eq!(delta("4k3/8/8/8/3p4/8/1B6/4K3 w - - 0 1", "bishop_long_diagonal_eg"), (0, 0));
    // The d1 queen: the d8 rook behind our d4 knight; the a4 bishop behind black's c2 knight.
    assert_eq!(delta("3r2k1/8/8/8/3N4/8/8/3Q2K1 w - - 0 1", "queen_relative_pin_mg"), (1, 0));
    assert_eq!(delta("6k1/8/8/8/b7/8/2n5/3Q2K1 w - - 0 1", "queen_relative_pin_eg"), (0, 1));
    // A queen behind the knight does not count, nor a rook two pieces away.
    assert_eq!(delta("3q2k1/8/8/8/3N4/8/8/3Q2K1 w - - 0 1", "queen_relative_pin_mg"), (0, 0));
    assert_eq!(delta("3r2k1/8/3p4/8/3N4/8/8/3Q2K1 w - - 0 1", "queen_relative_pin_mg"), (0, 0));
}

#[test]
fn king_defender_and_pawn_file_tables() {
    // g1's area is f1-h3: f2, g2, h2 and the f3 knight. e8's holds none of black's (none).
    let fen = "4k3/8/8/8/8/5N2/5PPP/6K1 w - - 0 1";
    assert_eq!(delta(fen, "king_defenders_4_mg"), (1, 0));
    assert_eq!(delta(fen, "king_defenders_0_eg"), (0, -1));
    // On the h-file the area takes in the f-file.
    assert_eq!(delta("4k3/8/8/8/8/8/5P2/7K w - - 0 1", "king_defenders_1_mg"), (1, 0));
    // The a1 king is four files from the only pawn, the e8 king none.
    let fen = "4k3/8/8/8/4P3/8/8/K7 w - - 0 1";
    assert_eq!(delta(fen, "king_pawn_file_proximity_4_eg"), (0, 1));
    assert_eq!(delta(fen, "king_pawn_file_proximity_0_mg"), (-1, 0));
    // Without pawns both kings count 0.
    assert_eq!(delta("4k3/8/8/8/8/8/8/K7 w - - 0 1", "king_pawn_file_proximity_0_mg"), (0, 0));
    // The h1 king and pawns on the b- and f-files: two files to the left.
    assert_eq!(delta("4k3/1p6/8/8/8/8/5P2/7K w - - 0 1", "king_pawn_file_proximity_2_mg"), (1, 0));
}

#[test]
fn threat_terms() {
    // The e4 knight is attacked by the d5 pawn.
    let fen = "4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1";
    assert_eq!(delta(fen, "threat_minor_by_pawn_mg"), (-1, 0));
    assert_eq!(delta(fen, "threat_minor_by_pawn_eg"), (0, -1));
    assert_eq!(delta(fen, "threat_minor_by_minor_mg"), (0, 0));
    // The a1 rook hits the queen; the queen is no lesser piece, so the rook is not threatened.
    let fen = "4k3/8/8/8/8/8/8/r2QK3 w - - 0 1";
    assert_eq!(delta(fen, "threat_queen_mg"), (-1, 0));
    assert_eq!(delta(fen, "threat_rook_by_lesser_mg"), (0, 0));
    // d3 would attack the c4 knight, and d3 is safe; the d2 pawn is attacked but defended by the king.
    let fen = "4k3/8/8/8/2n5/8/3P4/4K3 w - - 0 1";
    assert_eq!(delta(fen, "threat_pawn_push_mg"), (1, 0));
    assert_eq!(delta(fen, "threat_weak_pawn_eg"), (0, 0));
    // Undefended, the pawn is weak.
    assert_eq!(delta("4k3/8/8/8/2n5/8/3P4/6K1 w - - 0 1", "threat_weak_pawn_eg"), (0, -1));
}

#[test]
fn low_mobility_and_bad_bishop_terms() {
    // The a1 knight has two moves (b3, c2): one short of three.
    assert_eq!(delta("4k3/8/8/8/8/8/8/N3K3 w - - 0 1", "low_mobility_knight"), (-1, -1));
    assert_eq!(delta("4k3/8/8/8/4N3/8/8/4K3 w - - 0 1", "low_mobility_knight"), (0, 0));
    // A rook boxed in by its own king and pawns: h1 with the king on g1, pawns g2, h2.
    assert_eq!(delta("4k3/8/8/8/8/8/6PP/6KR w - - 0 1", "low_mobility_rook"), (-3, -3));
    // The dark-squared c1 bishop and the b2 pawn (dark) share a colour; a2 is light.
    let fen = "4k3/8/8/8/8/8/PP6/2B1K3 w - - 0 1";
    assert_eq!(delta(fen, "bishop_colour_pawns_mg"), (-1, 0));
    assert_eq!(delta(fen, "bishop_colour_pawns_eg"), (0, -1));
    assert_eq!(delta(fen, "low_mobility_bishop"), (0, 0));
}

#[test]
fn endgame_scales() {
    let p = EvalParams::default();
    let (opposite, minor) = (p.scale_opposite_bishops, p.scale_pawnless_minor_ahead);
    assert!(opposite < 100 && minor < 100, "the scales shrink");
    // Opposite-coloured bishops: the scale's share of the endgame score; same-coloured: all of it.
    assert_eq!(parts("4k3/5p2/3b4/8/4P3/3B1P2/8/4K3 w - - 0 1", &p).eg_scale, opposite);
    assert_eq!(parts("4k3/5p2/4b3/8/4P3/3B1P2/8/4K3 w - - 0 1", &p).eg_scale, 100);
    // A lone knight cannot win; a rook against a bishop rarely; a rook against nothing can.
    assert_eq!(parts("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", &p).eg_scale, minor);
    assert_eq!(parts("4k3/8/3b4/8/8/8/8/R3K3 w - - 0 1", &p).eg_scale, minor);
    assert_eq!(parts("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", &p).eg_scale, 100);
    // With pawns the side ahead keeps its score.
    assert_eq!(parts("4k3/8/8/8/8/8/P7/1N2K3 w - - 0 1", &p).eg_scale, 100);
    // Mirrored for black.
    assert_eq!(parts("1n2k3/8/8/8/8/8/8/4K3 w - - 0 1", &p).eg_scale, minor);
}

#[test]
fn endgame_scales_after_ethereal() {
    // The defaults keep every case at 100 % until games pass Ethereal's values: test at those.
    let ethereal = crate::params::Params::default().with_toml(include_str!("../../params/ethereal-endgame.toml"));
    let p = ethereal.expect("params/ethereal-endgame.toml loads").eval;
    let scales = [p.scale_ocb_knights, p.scale_ocb_rooks, p.scale_lone_queen, p.scale_large_pawn_advantage];
    let mut distinct = scales.to_vec();
    distinct.extend([p.scale_opposite_bishops, p.scale_pawnless_minor_ahead, 100]);
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 7, "each case is told apart by its value: {scales:?}");
    let scale = |fen: &str| parts(fen, &p).eg_scale;
    // Opposite-coloured bishops (d3 light, d6 dark) with one knight each, one rook each; with a
    // knight and a rook each, or a second knight, no case applies.
    assert_eq!(scale("4k3/5p2/3bn3/8/4P3/3B1PN1/8/4K3 w - - 0 1"), p.scale_ocb_knights);
    assert_eq!(scale("4k3/5p2/3b1r2/8/4P3/3B1P2/8/4K2R w - - 0 1"), p.scale_ocb_rooks);
    assert_eq!(scale("4k3/5p2/3bnr2/8/4P3/3B1PN1/8/4K2R w - - 0 1"), 100);
    assert_eq!(scale("4k3/5p2/3bn3/8/4P3/3B1PN1/8/1N2K3 w - - 0 1"), 100);
    // The board's only queen, its side ahead, against a rook and a bishop; against a rook alone
    // it keeps its score, and so it does when its own side has a piece too.
    assert_eq!(scale("4k3/8/3br3/8/8/8/PPP5/3QK3 w - - 0 1"), p.scale_lone_queen);
    assert_eq!(scale("4k3/8/4r3/8/8/8/PPP5/3QK3 w - - 0 1"), 100);
    assert_eq!(scale("4k3/8/3br3/8/8/8/PPP5/2NQK3 w - - 0 1"), 100);
    // Three pawns ahead with one piece a side at most, no queens; two ahead, or two pieces, not.
    assert_eq!(scale("4k3/8/8/8/8/8/PPP5/1N2K3 w - - 0 1"), p.scale_large_pawn_advantage);
    assert_eq!(scale("4k3/8/8/8/8/8/PP6/1N2K3 w - - 0 1"), 100);
    assert_eq!(scale("4k3/8/8/8/8/8/PPP5/1NB1K3 w - - 0 1"), 100);
    // Mirrored for black.
    assert_eq!(scale("1n2k3/ppp5/8/8/8/8/8/4K3 w - - 0 1"), p.scale_large_pawn_advantage);
    // A file of format 9 plays as before the new cases: each at 100 %.
    let mut old = crate::params::Params::default();
    old.merge_toml("format = 9\n").unwrap();
    let old_scales = [old.eval.scale_ocb_knights, old.eval.scale_ocb_rooks, old.eval.scale_lone_queen];
    assert_eq!(old_scales, [100; 3]);
    assert_eq!(old.eval.scale_large_pawn_advantage, 100);
}

#[test]
fn complexity_term() {
    // Nothing with the four weights at 0 (the defaults since session 51 are a fit's).
    let mut base = EvalParams::default();
    for name in super::complexity::WEIGHTS {
        set(&mut base, name, 0);
    }
    assert!(many_positions().iter().all(|p| breakdown(p, &base, &Profiles::new(&base)).complexity == 0));
    // A pawn ending (nine pawns, on both flanks), white a pawn up; pawns on one flank with a
    // piece each; black ahead.
    let ending = "4k3/pp4pp/8/8/8/8/PPP3PP/4K3 w - - 0 1";
    let one_flank = "r3k3/5pp1/8/8/8/8/4PPP1/R3K3 w - - 0 1";
    let black_ahead = "4k3/pp4pp/8/8/8/8/PP4P1/4K3 w - - 0 1";
    for (fen, features) in [(ending, [9, 1, 1, 1]), (one_flank, [5, 0, 0, 1]), (black_ahead, [7, 1, 1, 1])] {
        let eg = parts(fen, &base).s.eg();
        assert_ne!(eg, 0, "{fen}");
        // Each weight alone (positive: no clamp) moves the endgame half by weight × feature,
        // for the side ahead.
        for (name, f) in super::complexity::WEIGHTS.into_iter().zip(features) {
            let mut p = base.clone();
            set(&mut p, name, 10);
            let b = parts(fen, &p);
            assert_eq!(b.s, parts(fen, &base).s, "the other terms do not move");
            assert_eq!(b.complexity, eg.signum() * 10 * f, "{name} in {fen}");
        }
    }
    // And the evaluation with it (white to move: white's view).
    let mut p = base.clone();
    set(&mut p, "complexity_pawn_endgame", 40);
    assert!(evaluate(&pos(ending), &p) > evaluate(&pos(ending), &base));
    assert!(evaluate(&pos(black_ahead), &p) < evaluate(&pos(black_ahead), &base));
    // A negative complexity takes the endgame half toward 0, never past it.
    let mut p = base.clone();
    set(&mut p, "complexity_adjustment", -300);
    let b = parts(ending, &p);
    assert!(b.s.eg().abs() < 300 && b.s.eg() + b.complexity == 0, "{b:?}");
    for weights in
        [[8, 82, 76, -157], [0, 0, 0, -300], [300, 300, 300, 300], [-300, -300, -300, -300], [-20, 50, 0, 100]]
    {
        let mut p = base.clone();
        for (name, w) in super::complexity::WEIGHTS.into_iter().zip(weights) {
            set(&mut p, name, w);
        }
        let profiles = Profiles::new(&p);
        for position in many_positions() {
            let b = breakdown(&position, &p, &profiles);
            let (eg, after) = (b.s.eg(), b.s.eg() + b.complexity);
            assert!(after == 0 || after.signum() == eg.signum(), "{weights:?}: {eg} -> {after}");
            assert!(eg != 0 || b.complexity == 0, "{weights:?}");
        }
    }
    // A file of format 10 has no complexity: 0 whatever the weights were.
    let mut old = crate::params::Params::default();
    for name in super::complexity::WEIGHTS {
        set(&mut old.eval, name, 50);
    }
    let old = old.with_toml("format = 10\n").unwrap();
    assert_eq!(super::complexity::weights(&old.eval), [0; 4]);
}

#[test]
fn passed_pawn_path_terms() {
    // The e6 passer: e7 free and safe, the path e7-e8 unattacked, our king on e1 six squares
    // from e7 (weight 2 on the sixth rank), rank factor 7.
    let fen = "k7/8/4P3/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(delta(fen, "passed_safe_push_eg"), (0, 7));
    assert_eq!(delta(fen, "passed_free_path_eg"), (0, 7));
    assert_eq!(delta(fen, "passed_own_king_dist"), (0, -12));
    assert_eq!(delta(fen, "passed_blocked_eg"), (0, 0));
    // Blocked by the black king on e7: no free push, no free path.
    let fen = "8/4k3/4P3/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(delta(fen, "passed_blocked_eg"), (0, -7));
    assert_eq!(delta(fen, "passed_safe_push_eg"), (0, 0));
    assert_eq!(delta(fen, "passed_free_path_eg"), (0, 0));
}

#[test]
fn passed_pawn_tables() {
    // The e6 passer: e7 empty and safe, our king five squares away, theirs four; e6-e8 clear.
    let fen = "k7/8/4P3/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(delta(fen, "passed_rank_6_free_safe_mg"), (1, 0));
    assert_eq!(delta(fen, "passed_friendly_distance_6_eg"), (0, 5));
    assert_eq!(delta(fen, "passed_enemy_distance_6_mg"), (4, 0));
    assert_eq!(delta(fen, "passed_safe_promotion_path_eg"), (0, 1));
    assert_eq!(delta(fen, "passed_enemy_distance_5_mg"), (0, 0));
    // The e8 king attacks e7 (and e7 is empty).
    let fen = "4k3/8/4P3/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(delta(fen, "passed_rank_6_free_attacked_mg"), (1, 0));
    assert_eq!(delta(fen, "passed_safe_promotion_path_eg"), (0, 0));
    // Blocked by the king on e7 (which does not attack its own square), attacked and blocked by
    // the knight there that the king defends.
    assert_eq!(delta("8/4k3/4P3/8/8/8/8/4K3 w - - 0 1", "passed_rank_6_blocked_safe_eg"), (0, 1));
    assert_eq!(delta("4k3/4n3/4P3/8/8/8/8/4K3 w - - 0 1", "passed_rank_6_blocked_attacked_eg"), (0, 1));
}

#[test]
fn space_and_closedness_tables() {
    // e4 is ours once (g3), theirs twice (c5, d6): restricted. Too few pieces for the centre.
    let fen = "7k/8/3n4/2n5/8/6N1/8/K7 w - - 0 1";
    assert_eq!(delta(fen, "space_restrict_empty_mg"), (1, 0));
    assert_eq!(delta(fen, "space_restrict_piece_mg"), (0, 0));
    assert_eq!(delta(fen, "space_centre_control_mg"), (0, 0));
    // No pawns: closedness 0; one knight fewer than black.
    assert_eq!(delta(fen, "closedness_knight_0_eg"), (0, -1));
    assert_eq!(delta(fen, "closedness_rook_0_eg"), (0, 0));
    // A white pawn on e4: restricted and occupied; f5 (g3 and e4 against d6) restricts black.
    let fen = "7k/8/3n4/2n5/4P3/6N1/8/K7 w - - 0 1";
    assert_eq!(delta(fen, "space_restrict_piece_eg"), (0, 1));
    assert_eq!(delta(fen, "space_restrict_empty_eg"), (0, -1));
    // After 1.e3 white holds c3-f3, c4, d4 and f4, black c6-f6.
    let fen = "rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    assert_eq!(delta(fen, "space_centre_control_mg"), (3, 0));
    // 16 pawns on closed files, none rammed: closedness 5; rammed: 16 + 24, capped at 8.
    let fen = "4k3/pppppppp/8/8/8/8/PPPPPPPP/RN2K3 w - - 0 1";
    assert_eq!(delta(fen, "closedness_knight_5_mg"), (1, 0));
    assert_eq!(delta(fen, "closedness_rook_5_eg"), (0, 1));
    let fen = "4k3/8/8/pppppppp/PPPPPPPP/8/8/RN2K3 w - - 0 1";
    assert_eq!(delta(fen, "closedness_knight_8_mg"), (1, 0));
}

#[test]
fn material_imbalance() {
    // A knight and four pawns each side against four pawns: per knight, our pawns (4) and the
    // enemy's (4); pawns against pawns cancel.
    let fen = "4k3/pppp4/8/8/8/8/PPPP4/3NK3 w - - 0 1";
    assert_eq!(delta(fen, "imbalance_ours_knight_pawn_mg"), (4, 0));
    assert_eq!(delta(fen, "imbalance_theirs_knight_pawn_eg"), (0, 4));
    assert_eq!(delta(fen, "imbalance_ours_knight_knight_eg"), (0, 1));
    assert_eq!(delta(fen, "imbalance_ours_pawn_pawn_mg"), (0, 0));
    // The same for black.
    let fen = "3nk3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1";
    assert_eq!(delta(fen, "imbalance_ours_knight_pawn_mg"), (-4, 0));
    assert_eq!(delta(fen, "imbalance_theirs_knight_pawn_eg"), (0, -4));
    // The bishop pair against one bishop: the pair (1), per bishop our pair (2 - 0), and per
    // bishop the enemy's pair (white 2 × 0, black 1 × 1).
    let fen = "4kb2/8/8/8/8/8/8/2B1KB2 w - - 0 1";
    assert_eq!(delta(fen, "imbalance_ours_pair_pair_mg"), (1, 0));
    assert_eq!(delta(fen, "imbalance_ours_bishop_pair_eg"), (0, 2));
    assert_eq!(delta(fen, "imbalance_theirs_bishop_pair_mg"), (-1, 0));
    // Two rooks against a queen: the rooks overlap (2 × 2), the queen counts itself (1).
    let fen = "3qk3/8/8/8/8/8/8/R3K2R w - - 0 1";
    assert_eq!(delta(fen, "imbalance_ours_rook_rook_mg"), (4, 0));
    assert_eq!(delta(fen, "imbalance_ours_queen_queen_eg"), (0, -1));
    assert_eq!(delta(fen, "imbalance_theirs_queen_rook_mg"), (-2, 0));
}

#[test]
fn phase_split_piece_and_pawn_tables() {
    // a2 and the e-pawns isolated; e2 and e3 stacked with nothing to trade them off.
    let fen = "4k3/8/8/8/8/4P3/P3P3/4K3 w - - 0 1";
    assert_eq!(delta(fen, "pawn_isolated_a_mg"), (1, 0));
    assert_eq!(delta(fen, "pawn_isolated_d_eg"), (0, 2));
    assert_eq!(delta(fen, "pawn_stacked_fixed_mg"), (2, 0));
    assert_eq!(delta(fen, "pawn_stacked_unstackable_mg"), (0, 0));
    // e4 and d5 can capture each other: neither is isolated.
    assert_eq!(delta("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "pawn_isolated_d_mg"), (0, 0));
    // d6 stops e3 and e4 from an adjacent file: they may undouble. It is isolated itself.
    let fen = "4k3/8/3p4/8/4P3/4P3/8/4K3 w - - 0 1";
    assert_eq!(delta(fen, "pawn_stacked_unstackable_eg"), (0, 2));
    assert_eq!(delta(fen, "pawn_isolated_d_mg"), (1, 0));
    // Knight outposts: d5 defended by e4; on the a-file alone; not where c7 can push to attack.
    assert_eq!(delta("4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1", "knight_outpost_centre_defended_mg"), (1, 0));
    assert_eq!(delta("4k3/8/8/N7/8/8/8/4K3 w - - 0 1", "knight_outpost_edge_alone_eg"), (0, 1));
    assert_eq!(delta("4k3/2p5/8/3N4/4P3/8/8/4K3 w - - 0 1", "knight_outpost_centre_defended_mg"), (0, 0));
    assert_eq!(delta("4k3/8/8/4p3/3n4/8/8/4K3 w - - 0 1", "knight_outpost_centre_defended_mg"), (-1, 0));
    assert_eq!(delta("4k3/8/8/3B4/4P3/8/8/4K3 w - - 0 1", "bishop_outpost_centre_defended_eg"), (0, 1));
    // d3 is rammed by d4, on the light squares of the d1 bishop, not the c1 bishop's.
    assert_eq!(delta("4k3/8/8/8/3p4/3P4/8/3BK3 w - - 0 1", "bishop_rammed_pawns_mg"), (1, 0));
    assert_eq!(delta("4k3/8/8/8/3p4/3P4/8/2B1K3 w - - 0 1", "bishop_rammed_pawns_mg"), (0, 0));
    // Rooks: two on open files; one on a file with only a black pawn.
    assert_eq!(delta("4k3/4p3/8/8/8/8/8/R3K2R w - - 0 1", "rook_file_open_mg"), (2, 0));
    assert_eq!(delta("4k3/p7/8/8/8/8/8/R3K3 w - - 0 1", "rook_file_semi_open_eg"), (0, 1));
    assert_eq!(delta("4k3/p7/8/8/8/8/P7/R3K3 w - - 0 1", "rook_file_semi_open_eg"), (0, 0));
    // On the seventh with the king on the eighth, not with the king out in front.
    assert_eq!(delta("4k3/R7/8/8/8/8/8/4K3 w - - 0 1", "rook_on_seventh_mg"), (1, 0));
    assert_eq!(delta("8/R7/4k3/8/8/8/8/4K3 w - - 0 1", "rook_on_seventh_mg"), (0, 0));
    assert_eq!(delta("4k3/8/8/8/8/8/r7/4K3 w - - 0 1", "rook_on_seventh_eg"), (0, -1));
}

#[test]
fn loose_piece_threats_and_batteries() {
    // The d3 knight: attacked once (d5 rook), defended once (e2 pawn): overloaded, not hanging.
    let fen = "4k3/8/8/3r4/8/3N4/4P3/4K3 w - - 0 1";
    assert_eq!(delta(fen, "threat_overloaded_mg"), (-1, 0));
    assert_eq!(delta(fen, "threat_hanging_mg"), (0, 0));
    // Without the pawn it hangs.
    let fen = "4k3/8/8/3r4/8/3N4/8/4K3 w - - 0 1";
    assert_eq!(delta(fen, "threat_hanging_eg"), (0, -1));
    assert_eq!(delta(fen, "threat_overloaded_eg"), (0, 0));
    // The c3 knight attacks the queen; the c6 knight black's.
    assert_eq!(delta("7k/8/8/8/8/2n5/4Q3/4K3 w - - 0 1", "threat_queen_by_lesser_mg"), (-1, 0));
    assert_eq!(delta("4k3/4q3/2N5/8/8/8/8/7K w - - 0 1", "threat_queen_by_lesser_eg"), (0, 1));
    // Doubled rooks on the a-file, a rook behind the queen; not with a pawn of ours between.
    assert_eq!(delta("4k3/8/8/8/8/8/R7/R3K3 w - - 0 1", "rook_doubled_mg"), (1, 0));
    assert_eq!(delta("4k3/8/8/8/8/8/Q7/R3K3 w - - 0 1", "rook_queen_battery_eg"), (0, 1));
    assert_eq!(delta("4k3/8/8/8/R7/P7/8/R3K3 w - - 0 1", "rook_doubled_mg"), (0, 0));
    assert_eq!(delta("r3k3/r7/8/8/8/8/8/4K3 w - - 0 1", "rook_doubled_eg"), (0, -1));
}

/// Stockfish 11's terms (format 19), each where it must fire and where it must not.
#[test]
fn stockfish_11_terms() {
    // ThreatBySafePawn: the e4 pawn attacks the d5 knight and nothing attacks the pawn; with a
    // rook on h4 attacking it undefended it is not safe; a rook on e1 defends it again.
    assert_eq!(delta("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "threat_by_safe_pawn_mg"), (1, 0));
    assert_eq!(delta("4k3/8/8/3n4/4P2r/8/8/K7 w - - 0 1", "threat_by_safe_pawn_mg"), (0, 0));
    assert_eq!(delta("4k3/8/8/3n4/4P2r/8/8/K3R3 w - - 0 1", "threat_by_safe_pawn_eg"), (0, 1));
    // Black's: the d5 pawn (defended by c6) attacks the e4 knight.
    assert_eq!(delta("4k3/8/2p5/3p4/4N3/8/8/4K3 w - - 0 1", "threat_by_safe_pawn_mg"), (-1, 0));
    // KnightOnQueen: the d4 knight reaches c6 and e6, both a knight's move from the d8 queen;
    // not with a second black queen, nor with a d7 pawn guarding both squares.
    assert_eq!(delta("3qk3/8/8/8/3N4/8/8/4K3 w - - 0 1", "threat_knight_on_queen_mg"), (2, 0));
    assert_eq!(delta("3qk2q/8/8/8/3N4/8/8/4K3 w - - 0 1", "threat_knight_on_queen_mg"), (0, 0));
    assert_eq!(delta("3qk3/3p4/8/8/3N4/8/8/4K3 w - - 0 1", "threat_knight_on_queen_eg"), (0, 0));
    // SliderOnQueen: the a6 rook reaches d6, on the queen's file, which the e5 pawn attacks too;
    // without the pawn d6 is attacked once only.
    assert_eq!(delta("3qk3/8/R7/4P3/8/8/8/4K3 w - - 0 1", "threat_slider_on_queen_mg"), (1, 0));
    assert_eq!(delta("3qk3/8/R7/8/8/8/8/4K3 w - - 0 1", "threat_slider_on_queen_mg"), (0, 0));
    assert_eq!(delta("4k3/8/8/8/4p3/r7/8/3QK3 w - - 0 1", "threat_slider_on_queen_eg"), (0, -1));
    // RookOnQueenFile: the d1 rook and the d8 queen (or our own queen); not from c1.
    assert_eq!(delta("3qk3/8/8/8/8/8/8/3RK3 w - - 0 1", "rook_on_queen_file_mg"), (1, 0));
    assert_eq!(delta("4k3/8/8/8/8/8/3Q4/3RK3 w - - 0 1", "rook_on_queen_file_eg"), (0, 1));
    assert_eq!(delta("3qk3/8/8/8/8/8/8/2R1K3 w - - 0 1", "rook_on_queen_file_mg"), (0, 0));
    // KingProtector: the a1 knight is four squares from its king, the h8 knight three.
    assert_eq!(delta("4k3/8/8/8/8/8/8/N3K3 w - - 0 1", "king_protector_mg"), (-4, 0));
    assert_eq!(delta("4k3/8/8/8/8/8/8/B3K3 w - - 0 1", "king_protector_eg"), (0, -4));
    assert_eq!(delta("4k2n/8/8/8/8/8/8/N3K3 w - - 0 1", "king_protector_mg"), (-1, 0));
    assert_eq!(delta("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "king_protector_mg"), (0, 0));
    // ReachableOutpost: d5 is an outpost (the e4 pawn defends it, no black pawn can attack it);
    // the c3 knight and the b3 bishop attack it. Not with a black e7 pawn (it can attack d5 and
    // f5), nor for a knight already on it.
    assert_eq!(delta("4k3/8/8/8/4P3/2N5/8/4K3 w - - 0 1", "knight_reachable_outpost_mg"), (1, 0));
    assert_eq!(delta("4k3/4p3/8/8/4P3/2N5/8/4K3 w - - 0 1", "knight_reachable_outpost_mg"), (0, 0));
    assert_eq!(delta("4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1", "knight_reachable_outpost_eg"), (0, 0));
    assert_eq!(delta("4k3/8/8/8/4P3/1B6/8/4K3 w - - 0 1", "bishop_reachable_outpost_eg"), (0, 1));
    assert_eq!(delta("4k3/4p3/8/8/4P3/1B6/8/4K3 w - - 0 1", "bishop_reachable_outpost_mg"), (0, 0));
    assert_eq!(delta("4k3/8/8/8/4P3/1B6/8/4K3 w - - 0 1", "knight_reachable_outpost_mg"), (0, 0));
    // TrappedRook: the h1 rook (one move, g1) behind its h2 pawn beside the f1 king, twice
    // without castling rights; once with them (e1 king, two moves); not the f1 rook on the
    // centre side of a g1 king.
    assert_eq!(delta("4k3/8/8/8/8/8/5PPP/5K1R w - - 0 1", "trapped_rook_mg"), (-2, 0));
    assert_eq!(delta("4k3/8/8/8/8/8/5PPP/4K2R w K - 0 1", "trapped_rook_eg"), (0, -1));
    assert_eq!(delta("4k3/8/8/8/8/8/5PPP/4BRK1 w - - 0 1", "trapped_rook_mg"), (0, 0));
    // Black's a8 rook beside the d8 king, behind the a7 pawn (two moves), no castling rights;
    // with the king on e8 Stockfish's test takes it for a king-side king: not trapped.
    assert_eq!(delta("r2k4/p7/8/8/8/8/8/4K3 w - - 0 1", "trapped_rook_mg"), (2, 0));
    assert_eq!(delta("r3k3/p7/8/8/8/8/8/4K3 w q - 0 1", "trapped_rook_mg"), (0, 0));
    // PawnlessFlank: no pawn on files a-c for the a1 king (the g8 king has the h-pawns); an
    // a-pawn gives it one.
    assert_eq!(delta("6k1/7p/8/8/8/8/7P/K7 w - - 0 1", "pawnless_flank_mg"), (-1, 0));
    assert_eq!(delta("6k1/7p/8/8/8/8/P6P/K7 w - - 0 1", "pawnless_flank_eg"), (0, 0));
    assert_eq!(delta("k7/8/8/8/8/8/7P/6K1 w - - 0 1", "pawnless_flank_eg"), (0, 1));
    // PassedFile: a d-pawn passer is three files from the edge, an a-pawn none; black's c4 two.
    assert_eq!(delta("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", "passed_file_mg"), (-3, 0));
    assert_eq!(delta("4k3/8/8/P7/8/8/8/4K3 w - - 0 1", "passed_file_mg"), (0, 0));
    assert_eq!(delta("4k3/8/8/8/2p5/8/8/4K3 w - - 0 1", "passed_file_eg"), (0, 2));
    // WeakUnopposed: the isolated d4 pawn with no black pawn ahead, while black has a rook; not
    // without it, nor opposed by a d6 pawn.
    assert_eq!(delta("r3k3/8/8/8/3P4/8/8/4K3 w - - 0 1", "pawn_weak_unopposed_mg"), (-1, 0));
    assert_eq!(delta("4k3/8/8/8/3P4/8/8/4K3 w - - 0 1", "pawn_weak_unopposed_mg"), (0, 0));
    assert_eq!(delta("r3k3/8/3p4/8/3P4/8/8/4K3 w - - 0 1", "pawn_weak_unopposed_eg"), (0, 0));
    assert_eq!(delta("4k3/8/3p4/8/8/8/8/3QK3 w - - 0 1", "pawn_weak_unopposed_eg"), (0, 1));
}

#[test]
fn king_danger_terms() {
    // A lone rook near the king, and no queen: no danger counted.
    assert_eq!(delta("6k1/8/8/8/8/8/8/4K2R w - - 0 1", "ks_attack_value"), (0, 0));
    // A queen on h1 hits h7 and h8 (3 of 9 normalised zone attacks) and has safe checks on g1,
    // g2, d5 and a8: units 8 + 44*3 + 38*2 (weak h7, h8) + 95*4 - 18 = 578, i.e. 578^2/960 = 348
    // and 578/27 = 21. One more unit per zone attack gives 581: 351 and 21; one more per safe
    // check 582: 352 and 21.
    let fen = "6k1/8/8/8/8/8/8/4K2Q w - - 0 1";
    assert_eq!(delta_by(fen, "ks_attack_value", 1), (3, 0, 0));
    assert_eq!(delta_by(fen, "ks_safe_queen_check", 1), (4, 0, 0));
    // The same attack on the other side of the board scores the same for black.
    let mirrored = "4k2q/8/8/8/8/8/8/6K1 b - - 0 1";
    assert_eq!(parts(mirrored, &EvalParams::default()).s, -parts(fen, &EvalParams::default()).s);
}

/// With `ks_attacker_product` 1 each attacker's weight counts once per attacker (Ethereal 12's
/// kingAttackersCount × kingAttackersWeight). A queen on h1 and a knight on f5 reach black's king
/// zone: their weights (8 + 16 in the hand-set file) count twice, 24 units more; the tracer's
/// coefficients count each attacker twice too.
#[test]
fn king_danger_attacker_product() {
    let fen = "6k1/8/8/5N2/8/8/8/4K2Q w - - 0 1";
    let base = hand_set();
    let mut product = base.clone();
    set(&mut product, "ks_attacker_product", 1);
    let danger = |p: &EvalParams| {
        super::breakdown_traced(&pos(fen), p, &Profiles::new(p)).danger[shakmaty::Color::Black as usize]
            .expect("two attackers: the danger is counted")
    };
    let (plain, twice) = (danger(&base), danger(&product));
    assert_eq!((plain.attacker_factor, plain.attack_weight), (1, 8 + 16));
    assert_eq!((twice.attacker_factor, twice.attack_weight), (2, 2 * (8 + 16)));
    assert_eq!(twice.units(&product) - plain.units(&base), 8 + 16);
    assert_eq!(twice.coefficients()[..4], [2, 0, 0, 2]);
    assert_eq!(king::danger_units(&twice.coefficients(), &king::danger_weights(&product)), twice.units(&product));
    // The quadratic makes the difference in the middlegame half.
    let (a, b) = (parts(fen, &base), parts(fen, &product));
    assert!(b.s.mg() > a.s.mg(), "white's attack is worth more: {} vs {}", b.s.mg(), a.s.mg());
}

/// End to end through `evaluate`: phase 0 makes the score the endgame half exactly, the start
/// position (phase 24) the middlegame half; the sign follows the side to move.
#[test]
fn changed_parameter_changes_evaluate_as_expected() {
    let base = EvalParams::default();
    let change = |name: &str, by: i32| {
        let mut p = base.clone();
        set(&mut p, name, get(&base, name) + by);
        p
    };
    let doubled_w = pos("4k3/8/8/8/8/4P3/4P3/4K3 w - - 0 1");
    let doubled_b = pos("4k3/8/8/8/8/4P3/4P3/4K3 b - - 0 1");
    let p = change("doubled_pawn_penalty", 5);
    assert_eq!(evaluate(&doubled_w, &p) - evaluate(&doubled_w, &base), -5);
    assert_eq!(evaluate(&doubled_b, &p) - evaluate(&doubled_b, &base), 5);
    let no_white_rights = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kq - 0 1");
    let p = change("castling_missed", 7);
    assert_eq!(evaluate(&no_white_rights, &p) - evaluate(&no_white_rights, &base), -7);
    let p = change("tempo", 3);
    assert_eq!(evaluate(&doubled_b, &p) - evaluate(&doubled_b, &base), 3);
    assert_eq!(evaluate(&doubled_w, &p) - evaluate(&doubled_w, &base), 3);
}

#[test]
fn every_parameter_is_used() {
    // Each parameter must move the evaluation of some suite position (or its mirror-free twin).
    // The suites lack one of the king's pawn-table buckets: an h-pawn four or more ranks ahead
    // of its king (h5, king g1). Nor do they have connected pawns on the seventh rank or b6, a
    // held candidate passer on the sixth, or a backward pawn on the fifth with an enemy pawn
    // on its file, nor six or more defenders in a king area, nor a blocked and attacked passer
    // on the fifth, nor a knight or rook imbalance in closed positions, nor a defended bishop on
    // an edge outpost, nor most of the endgame scale cases.
    let mut positions = many_positions();
    positions.push(pos("k2r4/8/8/7P/8/8/5PP1/3R2K1 w - - 0 1"));
    positions.push(pos("q5k1/PPPP4/1P6/2P5/8/8/8/6K1 w - - 0 1"));
    positions.push(pos("r3k3/4p3/3P4/4P3/8/8/8/4K2R w - - 0 1"));
    positions.push(pos("r3k3/3pp3/2P5/3P4/8/8/8/4K2R w - - 0 1"));
    // Six to eleven defenders in a king area (white and black, around d4 and g5).
    positions.push(pos("r7/8/2NBNppp/2PPPpkp/2PKPppp/2PPPbn1/8/R7 b - - 0 1"));
    positions.push(pos("r7/8/3N1ppp/2PPPpkp/2PKPppp/2PPP3/8/R7 w - - 0 1"));
    positions.push(pos("r7/8/5pp1/2PPPpkp/2PKPpp1/3PP3/8/R7 w - - 0 1"));
    // A passer on the fifth rank, blocked by a knight its king defends.
    positions.push(pos("8/4k3/3n4/3P4/8/8/8/R3K3 w - - 0 1"));
    // A knight and a rook more at closedness 5 to 8 (no, one and two rammed pairs, all eight).
    positions.push(pos("4k3/pppppppp/8/8/8/8/PPPPPPPP/RN2K3 w - - 0 1"));
    positions.push(pos("4k3/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RN2K3 w - - 0 1"));
    positions.push(pos("4k3/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/RN2K3 w - - 0 1"));
    positions.push(pos("4k3/8/8/pppppppp/PPPPPPPP/8/8/RN2K3 w - - 0 1"));
    // A bishop on an a-file outpost, defended by a pawn.
    positions.push(pos("4k3/8/8/B7/1P6/8/8/4K3 w - - 0 1"));
    // The endgame scale cases after Ethereal 12: opposite bishops with a knight or a rook each,
    // a lone queen against two pieces, three pawns ahead with one piece a side.
    positions.push(pos("4k3/5p2/3bn3/8/4P3/3B1PN1/8/4K3 w - - 0 1"));
    positions.push(pos("4k3/5p2/3b1r2/8/4P3/3B1P2/8/4K2R w - - 0 1"));
    positions.push(pos("4k3/8/3br3/8/8/8/PPP5/3QK3 w - - 0 1"));
    positions.push(pos("4k3/8/8/8/8/8/PPP5/1N2K3 w - - 0 1"));
    // A pawn ending with pawns on both flanks (the complexity's features).
    positions.push(pos("4k3/pp4pp/8/8/8/8/PPP3PP/4K3 w - - 0 1"));
    let base = EvalParams::default();
    let e0: Vec<i32> = positions.iter().map(|p| evaluate(p, &base)).collect();
    for (i, s) in EvalParams::specs().iter().enumerate() {
        let mut p = base.clone();
        // 24 up, else the other end of the range (a 0/1 parameter at its minimum: its maximum).
        let changed = if s.default + 24 <= s.max {
            s.default + 24
        } else if s.default != s.min {
            s.min
        } else {
            s.max
        };
        p.set_unchecked(i, changed);
        let moved = positions.iter().zip(&e0).any(|(pos, &e)| evaluate(pos, &p) != e);
        assert!(moved, "parameter {} never changes the evaluation", s.name);
    }
}

#[test]
fn fixture_suites_load() {
    // 60 WAC positions plus the perft positions (a couple with "impossible" checks are left out).
    let n = suite_positions().len();
    assert!(n > BUILTIN.len() + 60 + 160, "{n}");
}

/// The same checks over the whole data set: all 300 WAC positions and the first 2000 of Marcel
/// van Kervinck's perft suite, with their children.
#[test]
#[ignore = "needs ../shared/data"]
fn colour_symmetric_and_evaluator_agrees_on_the_full_suites() {
    let read = |rel: &str| {
        let path = crate::data::shared_data(rel).unwrap_or_else(|e| panic!("{e}"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let mut base = epd_positions(&read("tests/wac.epd"));
    assert_eq!(base.len(), 300);
    let marcel = epd_positions(&read("tests/perft/perft-marcel.epd"));
    assert!(marcel.len() > 6000, "{}", marcel.len());
    base.extend(marcel.into_iter().take(2000));
    let mut positions = base.clone();
    for p in &base {
        for m in p.legal_moves() {
            let mut c = p.clone();
            c.play_unchecked(m);
            positions.push(c);
        }
    }
    let mut rng = 0x5eed_u64;
    let random = random_params(&mut rng);
    for params in [EvalParams::default(), random] {
        let e = Evaluator::new(&params);
        for p in &positions {
            let v = evaluate(p, &params);
            assert_eq!(v, evaluate(&mirror(p), &params), "asymmetric: {}", Fen::from_position(p, EnPassantMode::Legal));
            assert_eq!(e.evaluate(p), v);
        }
    }
}
