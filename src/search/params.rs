//! Search parameters: David et al. Table I plus modern knobs. Declared once; see [`crate::params`].

crate::declare_params! {
    /// Selective-search parameters. Extensions are in quarter plies (4 = one ply).
    pub struct SearchParams in "search" {
        /// Use null-move pruning (0/1)
        null_move_use: 1, [0, 1];
        /// Null-move depth reduction R in plies
        null_move_reduction: 3, [0, 7];
    }
}
