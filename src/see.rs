//! Static exchange evaluation: does a move win at least `threshold` centipawns once all
//! captures on its target square are played out, cheapest attacker first?
//!
//! The swap algorithm of Stockfish (`Position::see_ge`), using x-ray attackers revealed as
//! pieces leave the square's lines. Pins are ignored. SEE uses its own conventional piece values
//! (not the tunable evaluation), so that move ordering does not shift as evaluation weights evolve.

use shakmaty::{Bitboard, Chess, Color, Move, Position, Role, Square, attacks};

/// Piece values for exchange evaluation (king: effectively infinite).
pub const SEE_VALUES: [i32; 7] = [0, 100, 320, 330, 500, 950, 20_000];

/// Exchange value of a role.
#[inline]
pub fn value(role: Role) -> i32 {
    SEE_VALUES[role as usize]
}

/// Material the move captures immediately (a promotion counts its gain over the pawn).
#[inline]
pub fn gain(m: Move) -> i32 {
    let captured = match m {
        Move::EnPassant { .. } => value(Role::Pawn),
        _ => m.capture().map_or(0, value),
    };
    captured + m.promotion().map_or(0, |p| value(p) - value(Role::Pawn))
}

/// Exchange value of the piece standing on the target square once `m` is played (the promoted
/// piece for a promotion): what the opponent wins back by recapturing.
#[inline]
pub fn landing_value(m: Move) -> i32 {
    value(m.promotion().unwrap_or(m.role()))
}

#[inline]
fn attackers_to(pos: &Chess, sq: Square, occupied: Bitboard) -> Bitboard {
    let b = pos.board();
    (attacks::rook_attacks(sq, occupied) & b.rooks_and_queens())
        | (attacks::bishop_attacks(sq, occupied) & b.bishops_and_queens())
        | (attacks::knight_attacks(sq) & b.knights())
        | (attacks::king_attacks(sq) & b.kings())
        | (attacks::pawn_attacks(Color::White, sq) & b.pawns() & b.black())
        | (attacks::pawn_attacks(Color::Black, sq) & b.pawns() & b.white())
}

/// True if the static exchange after `m` is at least `threshold` for the side playing it.
pub fn see_ge(pos: &Chess, m: Move, threshold: i32) -> bool {
    let (from, to) = match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
        // Castling can neither win nor lose material.
        Move::Castle { .. } | Move::Put { .. } => return 0 >= threshold,
    };
    let mut swap = gain(m) - threshold;
    if swap < 0 {
        return false;
    }
    swap = landing_value(m) - swap;
    if swap <= 0 {
        return true;
    }

    let board = pos.board();
    let mut occupied = board.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(to);
    if let Move::EnPassant { from, to } = m {
        occupied ^= Bitboard::from_square(Square::from_coords(to.file(), from.rank()));
    }
    let mut attackers = attackers_to(pos, to, occupied);
    let mut stm = pos.turn();
    let mut res = true;
    let diagonal = board.bishops_and_queens();
    let straight = board.rooks_and_queens();

    loop {
        stm = !stm;
        attackers &= occupied;
        let stm_attackers = attackers & board.by_color(stm);
        if stm_attackers.is_empty() {
            break;
        }
        res = !res;
        // Least valuable attacker first; each capture may reveal an x-ray slider behind it.
        let mut found = None;
        for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let bb = stm_attackers & board.by_role(role);
            if let Some(sq) = bb.first() {
                found = Some((role, sq));
                break;
            }
        }
        match found {
            Some((role, sq)) => {
                swap = value(role) - swap;
                if swap < i32::from(res) {
                    break;
                }
                occupied ^= Bitboard::from_square(sq);
                if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
                    attackers |= attacks::bishop_attacks(to, occupied) & diagonal;
                }
                if matches!(role, Role::Rook | Role::Queen) {
                    attackers |= attacks::rook_attacks(to, occupied) & straight;
                }
            }
            None => {
                // Only the king is left: it may capture only if the opponent has nothing more.
                return if (attackers & !board.by_color(stm)).any() { !res } else { res };
            }
        }
    }
    res
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, fen::Fen, uci::UciMove};

    use super::*;

    fn check(fen: &str, uci: &str, threshold: i32, expected: bool) {
        let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        assert_eq!(see_ge(&pos, m, threshold), expected, "{fen} {uci} >= {threshold}");
    }

    #[test]
    fn exchanges() {
        // Rook takes a pawn defended by nothing: +100.
        check("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 100, true);
        check("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 101, false);
        // Knight takes a pawn defended by a knight-backed battery: loses the knight for a pawn.
        check("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", 0, false);
        check("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", -220, true);
        // Quiet move into a pawn attack.
        check("4k3/8/3p4/8/2N5/8/8/4K3 w - - 0 1", "c4b6", 0, true);
        check("4k3/8/2p5/8/2N5/8/8/4K3 w - - 0 1", "c4b6", 0, true);
        check("4k3/2p5/8/8/2N5/8/8/4K3 w - - 0 1", "c4b6", 0, false);
        // Queen takes a pawn defended by a pawn.
        check("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5", 0, false);
        // En passant and castling.
        check("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100, true);
        check("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", 0, true);
        // The king recaptures only when nothing defends the square any more.
        check("4k3/8/8/8/8/8/4r3/3K4 w - - 0 1", "d1e2", 500, true);
        check("8/8/4k3/4p3/8/8/8/K3R3 w - - 0 1", "e1e5", 0, false);
        check("8/8/4k3/4p3/8/8/4R3/K3R3 w - - 0 1", "e2e5", 100, true);
    }
}
