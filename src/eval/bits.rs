//! Bitboard helpers on raw `u64` (bit 0 = a1, bit 63 = h8) for set-wise evaluation terms.

use shakmaty::{Color, Square};

pub const FILE_A: u64 = 0x0101_0101_0101_0101;
pub const FILE_H: u64 = FILE_A << 7;
pub const RANK_1: u64 = 0xff;

/// Files c, d, e and f.
pub const FILES_CDEF: u64 = (FILE_A << 2) | (FILE_A << 3) | (FILE_A << 4) | (FILE_A << 5);
/// d4, e4, d5, e5.
pub const CENTRE: u64 = 0x0000_0018_1800_0000;
/// The two long diagonals, a1-h8 and h1-a8.
pub const LONG_DIAGONALS: u64 = 0x8142_2418_1824_4281;
/// d2, e2, d3, e3 (white's view).
pub const CENTRE_HOME: u64 = 0x0000_0000_0018_1800;
/// Relative ranks 3-4 (white's view): where a pawnless hole weakens our camp.
pub const HOLE_ZONE: u64 = 0x0000_0000_ffff_0000;
/// Relative ranks 4-6 (white's view): where a piece can sit on an outpost.
pub const OUTPOST_ZONE: u64 = 0x0000_ffff_ff00_0000;
/// Relative ranks 6-7 (white's view): "far" pawns close to promotion.
pub const FAR_ZONE: u64 = 0x00ff_ff00_0000_0000;
/// a1, b1, c1, g1, h1 (white's view): squares a castled king stands on.
pub const CASTLED_SQUARES: u64 = 0b1100_0111;

/// The flank of a king on each file (Stockfish's `KingFlank`): files a-c for a king on a, a-d on
/// b and c, c-f on d and e, e-h on f and g, f-h on h.
pub const KING_FLANK: [u64; 8] = {
    const fn files(from: usize, to: usize) -> u64 {
        let mut m = 0;
        let mut f = from;
        while f <= to {
            m |= FILE_A << f;
            f += 1;
        }
        m
    }
    [files(0, 2), files(0, 3), files(0, 3), files(2, 5), files(2, 5), files(4, 7), files(4, 7), files(5, 7)]
};

/// Dark squares (a1 is dark).
pub const DARK_SQUARES: u64 = 0xaa55_aa55_aa55_aa55;

/// Masks of the ranks whose index has bit 0, 1 or 2 set (to sum ranks with three popcounts).
const RANK_BIT: [u64; 3] = [0xff00_ff00_ff00_ff00, 0xffff_0000_ffff_0000, 0xffff_ffff_0000_0000];

/// Mask of file `f` (0 = a).
pub const fn file_mask(f: usize) -> u64 {
    FILE_A << f
}

/// `mask` given from white's view, seen from `c`'s side (mirrored vertically for black).
#[inline(always)]
pub const fn rel(c: Color, mask: u64) -> u64 {
    match c {
        Color::White => mask,
        Color::Black => mask.swap_bytes(),
    }
}

/// Rank index 0..7 of `sq` from `c`'s side (0 = own back rank).
#[inline(always)]
pub const fn rel_rank(c: Color, sq: Square) -> usize {
    let r = sq.to_usize() >> 3;
    match c {
        Color::White => r,
        Color::Black => 7 - r,
    }
}

/// File index of `sq`, 0 = a.
#[inline(always)]
pub const fn file_of(sq: Square) -> usize {
    sq.to_usize() & 7
}

/// One step towards the enemy.
#[inline(always)]
pub const fn fwd(c: Color, b: u64) -> u64 {
    match c {
        Color::White => b << 8,
        Color::Black => b >> 8,
    }
}

#[inline(always)]
pub const fn north_fill(mut b: u64) -> u64 {
    b |= b << 8;
    b |= b << 16;
    b | (b << 32)
}

#[inline(always)]
pub const fn south_fill(mut b: u64) -> u64 {
    b |= b >> 8;
    b |= b >> 16;
    b | (b >> 32)
}

/// `b` plus every square in front of it, seen from `c`.
#[inline(always)]
pub const fn fill_fwd(c: Color, b: u64) -> u64 {
    match c {
        Color::White => north_fill(b),
        Color::Black => south_fill(b),
    }
}

/// Whole files containing a square of `b`: the files folded onto the first rank, copied to
/// every rank (one fill and a multiply instead of two fills).
#[inline(always)]
pub const fn file_fill(b: u64) -> u64 {
    (south_fill(b) & 0xff) * 0x0101_0101_0101_0101
}

/// `b` shifted one file left and right (without wrapping).
#[inline(always)]
pub const fn sideways(b: u64) -> u64 {
    ((b << 1) & !FILE_A) | ((b >> 1) & !FILE_H)
}

/// Squares attacked by the pawns `b` of colour `c`.
#[inline(always)]
pub const fn pawn_attacks(c: Color, b: u64) -> u64 {
    sideways(fwd(c, b))
}

/// Squares attacked by two of the pawns `b` of colour `c` at once.
#[inline(always)]
pub const fn pawn_double_attacks(c: Color, b: u64) -> u64 {
    let f = fwd(c, b);
    ((f << 1) & !FILE_A) & ((f >> 1) & !FILE_H)
}

/// Sum over `b` of the relative rank index (0 = own back rank), with three popcounts.
#[inline(always)]
pub const fn rel_rank_sum(c: Color, b: u64) -> i32 {
    let white =
        (b & RANK_BIT[0]).count_ones() + 2 * (b & RANK_BIT[1]).count_ones() + 4 * (b & RANK_BIT[2]).count_ones();
    match c {
        Color::White => white as i32,
        Color::Black => (7 * b.count_ones() - white) as i32,
    }
}

/// File distance from the nearer edge: 0 for a/h, 1 for b/g, 2 for c/f, 3 for d/e.
pub const FILE_CENTRALITY: [i32; 8] = [0, 1, 2, 3, 3, 2, 1, 0];

/// Square centrality: 3 on d4..e5, 2 on the ring around it, 1 on the next, 0 on the rim.
pub static CENTRALITY: [i32; 64] = {
    let mut t = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (FILE_CENTRALITY[sq & 7], FILE_CENTRALITY[sq >> 3]);
        t[sq] = if f < r { f } else { r };
        sq += 1;
    }
    t
};

/// The king area of Ethereal 12 for a king of colour `c` on `k`: the king's square, its
/// neighbours and the squares in front of those (3 files by up to 4 ranks), one file wider on
/// the edge (files a-c or f-h). By lookup ([`KING_AREA`]).
#[inline(always)]
pub fn king_area(c: Color, k: Square) -> u64 {
    KING_AREA[c as usize][k.to_usize()]
}

/// [`king_area`] by colour (`Color as usize`) and square.
static KING_AREA: [[u64; 64]; 2] = {
    let mut t = [[0; 64]; 2];
    let mut sq: usize = 0;
    while sq < 64 {
        let bit = 1u64 << sq;
        let row = bit | sideways(bit);
        let around = row | (row << 8) | (row >> 8);
        // One file wider on the edge.
        let wide = match sq & 7 {
            0 => around | (around << 1),
            7 => around | (around >> 1),
            _ => around,
        };
        t[0][sq] = wide | fwd(Color::Black, wide);
        t[1][sq] = wide | fwd(Color::White, wide);
        sq += 1;
    }
    t
};

/// The squares at most three king steps from each square (itself included): a knight outside
/// both kings' sets is in Siberia (four or more from the nearer king).
pub static WITHIN_3: [u64; 64] = {
    let mut t = [0; 64];
    let mut sq: usize = 0;
    while sq < 64 {
        let mut other: usize = 0;
        while other < 64 {
            if (sq & 7).abs_diff(other & 7) <= 3 && (sq >> 3).abs_diff(other >> 3) <= 3 {
                t[sq] |= 1u64 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    t
};

/// A rook's and a bishop's moves from each square on an empty board: only a slider on one of
/// these lines can attack the square, through pieces or not.
pub static ROOK_LINES: [u64; 64] = lines(false);
pub static BISHOP_LINES: [u64; 64] = lines(true);

/// The rook (or `diagonal`: bishop) lines of every square.
const fn lines(diagonal: bool) -> [u64; 64] {
    let mut t = [0; 64];
    let mut a: usize = 0;
    while a < 64 {
        let mut b: usize = 0;
        while b < 64 {
            let (files, ranks) = ((a & 7).abs_diff(b & 7), (a >> 3).abs_diff(b >> 3));
            let on_line = if diagonal { files == ranks } else { files == 0 || ranks == 0 };
            if a != b && on_line {
                t[a] |= 1u64 << b;
            }
            b += 1;
        }
        a += 1;
    }
    t
}

/// King steps between two squares (`DISTANCE[a][b]`, the larger of the file and rank
/// distances): one load where [`Square::distance`] computes both.
static DISTANCE: [[u8; 64]; 64] = {
    let mut t = [[0; 64]; 64];
    let mut a: usize = 0;
    while a < 64 {
        let mut b: usize = 0;
        while b < 64 {
            let (files, ranks) = ((a & 7).abs_diff(b & 7), (a >> 3).abs_diff(b >> 3));
            t[a][b] = if files > ranks { files } else { ranks } as u8;
            b += 1;
        }
        a += 1;
    }
    t
};

/// [`Square::distance`] by lookup.
#[inline(always)]
pub fn distance(a: Square, b: Square) -> i32 {
    i32::from(DISTANCE[a.to_usize()][b.to_usize()])
}

/// Squares strictly in front of rank `r` (white's view), per rank.
pub const fn ranks_above(r: usize) -> u64 {
    if r >= 7 { 0 } else { !0u64 << (8 * (r + 1)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_fills() {
        assert_eq!(CENTRE.count_ones(), 4);
        assert!(CENTRE & (1 << Square::D4.to_usize()) != 0);
        assert!(CENTRE_HOME & (1 << Square::E3.to_usize()) != 0);
        assert_eq!(rel(Color::Black, 1 << Square::A1.to_usize()), 1 << Square::A8.to_usize());
        assert_eq!(CENTRALITY[Square::E4.to_usize()], 3);
        assert_eq!(CENTRALITY[Square::A5.to_usize()], 0);
        assert_eq!(CENTRALITY[Square::C3.to_usize()], 2);
        assert_eq!(file_fill(1 << Square::C5.to_usize()), file_mask(2));
        let b = (1 << Square::A2.to_usize()) | (1 << Square::H7.to_usize());
        assert_eq!(rel_rank_sum(Color::White, b), 1 + 6);
        assert_eq!(rel_rank_sum(Color::Black, b), 6 + 1);
        assert_eq!(pawn_attacks(Color::White, 1 << Square::A2.to_usize()), 1 << Square::B3.to_usize());
        assert_eq!(ranks_above(6), 0xff00_0000_0000_0000);
        let duo = (1 << Square::C3.to_usize()) | (1 << Square::E3.to_usize());
        assert_eq!(pawn_double_attacks(Color::White, duo), 1 << Square::D4.to_usize());
        assert_eq!(pawn_double_attacks(Color::Black, duo), 1 << Square::D2.to_usize());
        assert_eq!(pawn_double_attacks(Color::White, 1 << Square::A2.to_usize()), 0);
        assert_eq!(KING_FLANK[0], FILE_A | FILE_A << 1 | FILE_A << 2);
        assert_eq!(KING_FLANK[4], FILES_CDEF);
        assert_eq!(KING_FLANK[7], FILE_H | FILE_H >> 1 | FILE_H >> 2);
        assert_eq!(KING_FLANK[6], FILE_H | FILE_H >> 1 | FILE_H >> 2 | FILE_H >> 3);
    }

    #[test]
    fn file_fill_is_both_fills() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..1000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Sparse sets too, as pawn sets are.
            for b in [x, x & x.rotate_left(23) & x.rotate_left(41), 0] {
                assert_eq!(file_fill(b), north_fill(b) | south_fill(b), "{b:#x}");
            }
        }
    }

    #[test]
    fn king_area_table_is_the_neighbours_and_the_squares_in_front() {
        for c in [Color::Black, Color::White] {
            for k in Square::ALL {
                let around = shakmaty::attacks::king_attacks(k).0 | (1u64 << k.to_usize());
                let area = around | fwd(c, around);
                let expected = match file_of(k) {
                    0 => area | (area << 1),
                    7 => area | (area >> 1),
                    _ => area,
                };
                assert_eq!(king_area(c, k), expected, "{c:?} {k}");
            }
        }
    }

    #[test]
    fn lines_are_the_empty_board_moves() {
        for sq in Square::ALL {
            let empty = shakmaty::Bitboard::EMPTY;
            assert_eq!(ROOK_LINES[sq.to_usize()], shakmaty::attacks::rook_attacks(sq, empty).0, "{sq}");
            assert_eq!(BISHOP_LINES[sq.to_usize()], shakmaty::attacks::bishop_attacks(sq, empty).0, "{sq}");
        }
    }

    #[test]
    fn distance_and_within_3_are_the_king_distance() {
        for a in Square::ALL {
            for b in Square::ALL {
                assert_eq!(WITHIN_3[a.to_usize()] & (1 << b.to_usize()) != 0, a.distance(b) <= 3, "{a} {b}");
                assert_eq!(distance(a, b), a.distance(b) as i32, "{a} {b}");
            }
        }
    }
}
