//! Piece-square tables parametrised compactly: `pst(piece, sq) = file[piece][min(f, 7-f)] +
//! rank[piece][relative rank]`, mg and eg. Two equivalent sources:
//! [`Profiles`] reads the 72 profile entries straight from the parameters (cheap to build, used
//! by the free `evaluate`), [`PsqtTable`] expands them into 64-square tables once per parameter
//! set (used by [`super::Evaluator`]). A test checks they agree.

use shakmaty::{Board, Color, Role};

use super::{
    EvalParams, S,
    bits::{file_of, rel_rank},
    psqt_profiles::{file_terms, rank_terms},
};

/// Sums the piece-square terms of every piece, white minus black.
pub(crate) trait PsqtSource {
    fn score(&self, board: &Board) -> S;
}

const FILE_INDEX: [usize; 8] = [0, 1, 2, 3, 3, 2, 1, 0];

/// File and rank profiles gathered from the parameters.
#[derive(PartialEq)]
pub(crate) struct Profiles {
    file: [[S; 4]; 6],
    rank: [[S; 8]; 6],
}

impl Profiles {
    #[inline(always)]
    pub(crate) fn new(p: &EvalParams) -> Profiles {
        Profiles { file: file_terms(p), rank: rank_terms(p) }
    }

    #[inline(always)]
    fn entry(&self, role: usize, c: Color, sq: shakmaty::Square) -> S {
        self.file[role][FILE_INDEX[file_of(sq)]] + self.rank[role][rel_rank(c, sq)]
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
        PsqtTable { t }
    }
}

impl PsqtSource for PsqtTable {
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
