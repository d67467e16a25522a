//! Evaluation parameters (centipawns). Declared once; see [`crate::params`].

crate::declare_params! {
    /// Weights of every evaluation term.
    pub struct EvalParams in "eval" {
        /// Pawn value, middlegame
        pawn_mg: 100, [50, 200];
        /// Pawn value, endgame
        pawn_eg: 120, [50, 250];
        /// Knight value, middlegame
        knight_mg: 320, [100, 2000];
        /// Knight value, endgame
        knight_eg: 300, [100, 2000];
        /// Bishop value, middlegame
        bishop_mg: 330, [100, 2000];
        /// Bishop value, endgame
        bishop_eg: 320, [100, 2000];
        /// Rook value, middlegame
        rook_mg: 480, [200, 3000];
        /// Rook value, endgame
        rook_eg: 520, [200, 3000];
        /// Queen value, middlegame
        queen_mg: 950, [400, 5000];
        /// Queen value, endgame
        queen_eg: 970, [400, 5000];
    }
}
