//! Static evaluation: `evaluate(&Chess, &EvalParams)` in centipawns from the side to move's view.

pub mod params;

use shakmaty::{Chess, Color, Position, Role};

pub use self::params::EvalParams;

/// Material only, tapered by game phase. (Placeholder until the full evaluation lands.)
pub fn evaluate(pos: &Chess, p: &EvalParams) -> i32 {
    let board = pos.board();
    let mut mg = 0;
    let mut eg = 0;
    let weights = [
        (Role::Pawn, p.pawn_mg, p.pawn_eg),
        (Role::Knight, p.knight_mg, p.knight_eg),
        (Role::Bishop, p.bishop_mg, p.bishop_eg),
        (Role::Rook, p.rook_mg, p.rook_eg),
        (Role::Queen, p.queen_mg, p.queen_eg),
    ];
    for (role, wmg, weg) in weights {
        let diff = (board.by_piece(role.of(Color::White)).count() as i32)
            - (board.by_piece(role.of(Color::Black)).count() as i32);
        mg += diff * wmg;
        eg += diff * weg;
    }
    let phase = phase(pos);
    let white = (mg * phase + eg * (24 - phase)) / 24;
    if pos.turn() == Color::White { white } else { -white }
}

/// Game phase 0 (bare kings and pawns) ..= 24 (all pieces): N,B = 1, R = 2, Q = 4.
pub fn phase(pos: &Chess) -> i32 {
    let b = pos.board();
    let p = (b.knights().count() + b.bishops().count() + 2 * b.rooks().count() + 4 * b.queens().count()) as i32;
    p.min(24)
}
