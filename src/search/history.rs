//! Move-ordering memory: killers, countermoves, butterfly, continuation and capture histories.
//!
//! Every history is updated with the "gravity" formula `h += bonus - h * |bonus| / MAX`, which
//! keeps values within `±HISTORY_MAX` and lets old information decay.
//!
//! [`History`] is also where a search thread keeps the other tables it owns and carries from
//! one search to the next: the evaluation's pawn table (an exact cache, see
//! [`crate::eval::pawn_table`]).

use shakmaty::{Bitboard, Board, Color, File, Move, Role, Square, attacks};

use super::correction::CorrectionHistory;
use crate::{eval::PawnTable, score::MAX_PLY};

/// Bound of every history value.
pub const HISTORY_MAX: i32 = 16_384;

/// A (piece, destination) pair: what continuation histories and countermoves are keyed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo {
    /// 0..12: colour * 6 + role - 1.
    pub piece: u8,
    pub to: u8,
}

impl PieceTo {
    /// How many (piece, destination) pairs there are: the size of a table indexed by one.
    pub const COUNT: usize = 768;

    #[inline]
    pub fn new(color: Color, m: Move) -> PieceTo {
        let piece = color as u8 * 6 + m.role() as u8 - 1;
        PieceTo { piece, to: move_to(m) as u8 }
    }

    #[inline]
    pub(super) fn index(self) -> usize {
        usize::from(self.piece) * 64 + usize::from(self.to)
    }
}

/// Destination square as the history tables see it (a castling king goes to its real square).
#[inline]
pub fn move_to(m: Move) -> Square {
    match m {
        Move::Castle { king, rook } => {
            let file = if rook.file() > king.file() { shakmaty::File::G } else { shakmaty::File::C };
            Square::from_coords(file, king.rank())
        }
        _ => m.to(),
    }
}

#[inline]
fn from_sq(m: Move) -> usize {
    m.from().map_or(0, |s| s as usize)
}

/// Where a move of `stm` is in the butterfly table, `[colour][from threatened][to
/// threatened][from][to]`: `threats` are the squares the opponent attacks (empty with
/// `threat_history_use` off, so that every move reads the unthreatened quarter). A move out of
/// an attack and one into it are told apart (after Ethereal 13 and Berserk).
#[inline]
fn butterfly_index(stm: Color, m: Move, threats: Bitboard) -> usize {
    let to = move_to(m);
    let from_threatened = usize::from(m.from().is_some_and(|s| threats.contains(s)));
    let to_threatened = usize::from(threats.contains(to));
    (((stm as usize * 2 + from_threatened) * 2 + to_threatened) * 64 + from_sq(m)) * 64 + to as usize
}

/// Every square a piece of `color` attacks on `board` (the threat history's key).
pub fn attacked_by(board: &Board, color: Color) -> Bitboard {
    let occupied = board.occupied();
    let ours = board.by_color(color);
    let pawns = (board.pawns() & ours).0;
    let (west, east) = (pawns & !Bitboard::from_file(File::A).0, pawns & !Bitboard::from_file(File::H).0);
    let mut attacked = Bitboard(match color {
        Color::White => (west << 7) | (east << 9),
        Color::Black => (west >> 9) | (east >> 7),
    });
    for sq in board.knights() & ours {
        attacked |= attacks::knight_attacks(sq);
    }
    for sq in (board.bishops() | board.queens()) & ours {
        attacked |= attacks::bishop_attacks(sq, occupied);
    }
    for sq in (board.rooks() | board.queens()) & ours {
        attacked |= attacks::rook_attacks(sq, occupied);
    }
    for sq in board.kings() & ours {
        attacked |= attacks::king_attacks(sq);
    }
    attacked
}

#[inline]
fn gravity(h: &mut i16, bonus: i32) {
    gravity_within(h, bonus, HISTORY_MAX);
}

/// The gravity update with its bound `limit` (the correction history's is smaller).
#[inline]
pub(super) fn gravity_within(h: &mut i16, bonus: i32, limit: i32) {
    let v = i32::from(*h);
    let bonus = bonus.clamp(-limit, limit);
    *h = (v + bonus - v * bonus.abs() / limit) as i16;
}

/// All move-ordering tables of one searcher, its pawn table and its correction history (a few
/// MiB, heap allocated).
pub struct History {
    /// [colour][from threatened][to threatened][from][to]
    butterfly: Vec<i16>,
    /// [previous piece-to][piece-to]: 1-ply (countermove history) and 2-ply (follow-up) use the
    /// same table, as in Stockfish.
    continuation: Vec<i16>,
    /// [piece-to][captured role]
    capture: Vec<i16>,
    /// [previous piece-to] -> the move that refuted it.
    countermoves: Vec<Option<Move>>,
    /// Two quiet killers per ply.
    pub killers: [[Option<Move>; 2]; MAX_PLY + 2],
    /// The evaluation's pawn table of this thread. Never cleared: it only ever returns what
    /// the evaluation would compute.
    pub pawns: PawnTable,
    /// What the search learnt of the static evaluation's errors ([`super::correction`]).
    pub correction: CorrectionHistory,
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

impl History {
    pub fn new() -> History {
        History {
            butterfly: vec![0; 2 * 2 * 2 * 64 * 64],
            continuation: vec![0; PieceTo::COUNT * PieceTo::COUNT],
            capture: vec![0; PieceTo::COUNT * 7],
            countermoves: vec![None; PieceTo::COUNT],
            killers: [[None; 2]; MAX_PLY + 2],
            pawns: PawnTable::new(),
            correction: CorrectionHistory::new(),
        }
    }

    /// Forgets everything learnt (`ucinewgame`).
    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.continuation.fill(0);
        self.capture.fill(0);
        self.countermoves.fill(None);
        self.correction.clear();
        self.clear_killers();
    }

    pub fn clear_killers(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 2];
    }

    #[inline]
    pub fn butterfly(&self, stm: Color, m: Move, threats: Bitboard) -> i32 {
        i32::from(self.butterfly[butterfly_index(stm, m, threats)])
    }

    #[inline]
    pub fn continuation(&self, prev: Option<PieceTo>, cur: PieceTo) -> i32 {
        prev.map_or(0, |p| i32::from(self.continuation[p.index() * PieceTo::COUNT + cur.index()]))
    }

    /// Ordering score of a quiet move: butterfly plus the 1- and 2-ply continuation histories.
    #[inline]
    pub fn quiet_score(
        &self,
        stm: Color,
        m: Move,
        prev1: Option<PieceTo>,
        prev2: Option<PieceTo>,
        threats: Bitboard,
    ) -> i32 {
        let pt = PieceTo::new(stm, m);
        self.butterfly(stm, m, threats) + self.continuation(prev1, pt) + self.continuation(prev2, pt)
    }

    #[inline]
    pub fn capture_score(&self, stm: Color, m: Move) -> i32 {
        let captured = if m.is_en_passant() { Role::Pawn } else { m.capture().unwrap_or(Role::Pawn) };
        i32::from(self.capture[PieceTo::new(stm, m).index() * 7 + captured as usize])
    }

    #[inline]
    pub fn countermove(&self, prev: Option<PieceTo>) -> Option<Move> {
        prev.and_then(|p| self.countermoves[p.index()])
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move in all its tables.
    pub fn update_quiet(
        &mut self,
        stm: Color,
        m: Move,
        prev1: Option<PieceTo>,
        prev2: Option<PieceTo>,
        threats: Bitboard,
        bonus: i32,
    ) {
        let pt = PieceTo::new(stm, m);
        self.update_butterfly(stm, m, threats, bonus);
        for p in [prev1, prev2].into_iter().flatten() {
            gravity(&mut self.continuation[p.index() * PieceTo::COUNT + pt.index()], bonus);
        }
    }

    /// Rewards or punishes a quiet move in the butterfly table only.
    pub fn update_butterfly(&mut self, stm: Color, m: Move, threats: Bitboard, bonus: i32) {
        gravity(&mut self.butterfly[butterfly_index(stm, m, threats)], bonus);
    }

    /// Rewards or punishes `cur` in the continuation histories after `prev1` and `prev2` only
    /// (the re-search of a reduced move, a prior countermove).
    pub fn update_continuation(&mut self, prev1: Option<PieceTo>, prev2: Option<PieceTo>, cur: PieceTo, bonus: i32) {
        for p in [prev1, prev2].into_iter().flatten() {
            gravity(&mut self.continuation[p.index() * PieceTo::COUNT + cur.index()], bonus);
        }
    }

    pub fn update_capture(&mut self, stm: Color, m: Move, bonus: i32) {
        let captured = if m.is_en_passant() { Role::Pawn } else { m.capture().unwrap_or(Role::Pawn) };
        gravity(&mut self.capture[PieceTo::new(stm, m).index() * 7 + captured as usize], bonus);
    }

    /// Records a quiet move that caused a beta cutoff at `ply` after `prev`.
    pub fn record_cutoff(&mut self, ply: usize, m: Move, prev: Option<PieceTo>) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        if let Some(p) = prev {
            self.countermoves[p.index()] = Some(m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    fn board(fen: &str) -> Board {
        let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        pos.board().clone()
    }

    #[test]
    fn attacked_by_is_every_square_a_side_attacks() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 9",
            "8/2k5/3p4/p2P1p2/P2P1P2/8/1K6/8 b - - 0 1",
            "4k3/P6p/8/8/8/8/p6P/4K3 w - - 0 1",
        ] {
            let b = board(fen);
            for color in Color::ALL {
                let attacked = attacked_by(&b, color);
                for sq in Square::ALL {
                    let expected = b.attacks_to(sq, color, b.occupied()).any();
                    assert_eq!(attacked.contains(sq), expected, "{fen} {color:?} {sq}");
                }
            }
        }
    }

    #[test]
    fn the_threat_history_keeps_moves_from_and_to_attacked_squares_apart() {
        let pos = Chess::default();
        let m = pos.legal_moves().into_iter().find(|m| m.to() == Square::F3 && m.role() == Role::Knight).unwrap();
        let (from, to) = (Bitboard::from(Square::G1), Bitboard::from(Square::F3));
        let mut h = History::new();
        h.update_quiet(Color::White, m, None, None, from, 1_000);
        assert!(h.butterfly(Color::White, m, from) > 0);
        for other in [Bitboard::EMPTY, to, from | to] {
            assert_eq!(h.butterfly(Color::White, m, other), 0, "{other:?}");
        }
        // Threats elsewhere on the board do not change the table a move reads.
        assert_eq!(h.butterfly(Color::White, m, from | Bitboard::from(Square::A8)), h.butterfly(Color::White, m, from));
    }
}
