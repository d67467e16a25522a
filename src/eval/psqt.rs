//! Piece-square tables parametrised as profiles plus squares: `pst(piece, sq) =
//! file[piece][min(f, 7-f)] + rank[piece][relative rank] + square[piece][relative rank, min(f, 7-f)]`,
//! mg and eg. The profiles give the coarse shape with few parameters (what a GA can search);
//! the left-right mirrored square terms what an additive shape misses (what a gradient fit over
//! millions of positions can set). Two equivalent sources: [`Profiles`] reads the entries
//! straight from the parameters (used by the free `evaluate`), [`PsqtTable`] expands them into
//! 64-square tables once per parameter set (used by [`super::Evaluator`]). A test checks they
//! agree.

use shakmaty::{Board, Color, Role};

use super::{
    EvalParams, S,
    bits::{file_of, rel_rank},
    mobility_tables::MobilityTable,
    psqt_profiles::{file_terms, rank_terms, square_terms},
    term_tables::TermTables,
};

/// Sums the piece-square terms of every piece, white minus black.
pub(crate) trait PsqtSource {
    fn score(&self, board: &Board) -> S;

    /// The mobility tables when expanded; `None`: read them from the parameters.
    #[inline(always)]
    fn mobility(&self) -> Option<&MobilityTable> {
        None
    }

    /// The per-position term tables when expanded; `None`: read them from the parameters.
    #[inline(always)]
    fn terms(&self) -> Option<&TermTables> {
        None
    }
}

const FILE_INDEX: [usize; 8] = [0, 1, 2, 3, 3, 2, 1, 0];

/// File and rank profiles and square terms gathered from the parameters.
#[derive(PartialEq)]
pub(crate) struct Profiles {
    file: [[S; 4]; 6],
    rank: [[S; 8]; 6],
    square: [[S; 32]; 6],
}

/// Index of `sq` in a role's square terms from `c`'s side: relative rank, then mirrored file.
#[inline(always)]
pub(crate) fn square_index(c: Color, sq: shakmaty::Square) -> usize {
    rel_rank(c, sq) * 4 + FILE_INDEX[file_of(sq)]
}

impl Profiles {
    #[inline(always)]
    pub(crate) fn new(p: &EvalParams) -> Profiles {
        Profiles { file: file_terms(p), rank: rank_terms(p), square: square_terms(p) }
    }

    /// These square terms with `p`'s file and rank profiles: what a change of a profile
    /// parameter does, without gathering the square terms again.
    #[inline(always)]
    pub(crate) fn with_file_and_rank_of(&self, p: &EvalParams) -> Profiles {
        Profiles { file: file_terms(p), rank: rank_terms(p), square: self.square }
    }

    #[inline(always)]
    fn entry(&self, role: usize, c: Color, sq: shakmaty::Square) -> S {
        self.file[role][FILE_INDEX[file_of(sq)]]
            + self.rank[role][rel_rank(c, sq)]
            + self.square[role][square_index(c, sq)]
    }

    /// If `other` differs from `self` in exactly one square term and nothing else: its role, its
    /// index ([`square_index`]) and whether the middlegame half moved (else the endgame's).
    pub(crate) fn single_square_change(&self, other: &Profiles) -> Option<(usize, usize, bool)> {
        if self.file != other.file || self.rank != other.rank {
            return None;
        }
        let mut changed = None;
        for role in 0..6 {
            for i in 0..32 {
                let (a, b) = (self.square[role][i], other.square[role][i]);
                if a != b {
                    let mg = a.mg() != b.mg();
                    if changed.is_some() || (mg && a.eg() != b.eg()) {
                        return None;
                    }
                    changed = Some((role, i, mg));
                }
            }
        }
        changed
    }
}

impl PsqtSource for Profiles {
    #[inline(always)]
    fn score(&self, board: &Board) -> S {
        let mut s = S::ZERO;
        let white = board.white();
        for (i, role) in Role::ALL.into_iter().enumerate() {
            let bb = board.by_role(role);
            for sq in bb & white {
                s += self.entry(i, Color::White, sq);
            }
            for sq in bb & !white {
                s -= self.entry(i, Color::Black, sq);
            }
        }
        s
    }
}

/// Full 64-square tables `[colour][role][square]`, signed from white's view.
#[derive(Clone)]
pub struct PsqtTable {
    t: [[[S; 64]; 6]; 2],
    /// The mobility tables, expanded alongside (one lookup per piece in the search).
    mobility: MobilityTable,
    /// The other per-position tables, likewise.
    terms: TermTables,
}

impl PsqtTable {
    pub fn new(p: &EvalParams) -> PsqtTable {
        let prof = Profiles::new(p);
        let mut t = [[[S::ZERO; 64]; 6]; 2];
        for (ci, c) in [Color::Black, Color::White].into_iter().enumerate() {
            for (role, table) in t[ci].iter_mut().enumerate() {
                for (i, e) in table.iter_mut().enumerate() {
                    let v = prof.entry(role, c, shakmaty::Square::new(i as u32));
                    *e = if c == Color::White { v } else { -v };
                }
            }
        }
        PsqtTable { t, mobility: MobilityTable::new(p), terms: TermTables::new(p) }
    }
}

impl PsqtSource for PsqtTable {
    #[inline(always)]
    fn mobility(&self) -> Option<&MobilityTable> {
        Some(&self.mobility)
    }

    #[inline(always)]
    fn terms(&self) -> Option<&TermTables> {
        Some(&self.terms)
    }

    #[inline(always)]
    fn score(&self, board: &Board) -> S {
        let mut s = S::ZERO;
        let white = board.white();
        for (i, role) in Role::ALL.into_iter().enumerate() {
            let bb = board.by_role(role);
            for sq in bb & white {
                s += self.t[1][i][sq.to_usize()];
            }
            for sq in bb & !white {
                s += self.t[0][i][sq.to_usize()];
            }
        }
        s
    }
}
