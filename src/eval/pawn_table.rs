//! The pawn hash table: the pawn-only part of the evaluation ([`PawnStructure`]) cached by
//! pawn structure. A search meets the same few pawn structures millions of times; with the
//! table it computes each once. Beside it, the king terms that read the pawns and the two king
//! squares alone ([`KingPawnTerms`]: shelter and storm, file distance to the pawns, the
//! shelter penalties) are cached by both, and the material imbalance by the piece counts
//! ([`MaterialTable`]).
//!
//! One table per search thread (no locking), of a fixed size, always replacing. An entry
//! holds both sides' pawn bitboards, so a lookup never returns another structure's terms (no
//! key collisions), and the id of the [`Evaluator`](super::Evaluator) that filled it: the
//! cached terms depend on the evaluation parameters, and an evaluator built from other
//! parameters (a `setoption`, a `ParamsFile`, the tuner's next candidate) has another id, so
//! the entries of the old one never match again. Nothing ever needs clearing: whatever the
//! table returns is what [`pawns::structure`] would compute, and the evaluation with the table
//! equals the one without it ([`super::Evaluator::evaluate_cached`]).

use shakmaty::Color;

use super::{
    Ctx, EvalParams, S,
    imbalance::{MATERIAL_TABLE_ENTRIES, MaterialTable},
    king::{self, KingPawnTerms},
    pawns::{self, PawnStructure},
    term_tables::TermTables,
};
use crate::zobrist::pawn_key_of;

/// Entries of a table made by [`PawnTable::new`]: 4,096 entries of 64 bytes and as many
/// king entries of 56 bytes, 480 KiB, beside the material table's 24 KiB. A
/// search's pawn structures fit many times over, and the table stays small beside the
/// transposition table and the histories in the caches.
pub const PAWN_TABLE_ENTRIES: usize = 1 << 12;

/// One cache line.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Entry {
    /// Black's and white's pawns (`Color as usize` order, as in `Ctx`).
    pawns: [u64; 2],
    /// Id of the evaluator whose parameters computed `structure`; 0 for an empty entry (ids
    /// start at 1).
    evaluator: u64,
    structure: PawnStructure,
}

/// The [`KingPawnTerms`] of a pawn structure and the two king squares.
#[derive(Clone, Copy, Default)]
struct KingEntry {
    pawns: [u64; 2],
    evaluator: u64,
    /// White's king square, then Black's.
    kings: [u8; 2],
    terms: KingPawnTerms,
}

/// A pawn hash table of one search thread.
pub struct PawnTable {
    /// A power of two of them.
    entries: Vec<Entry>,
    /// As many, for the king terms, which read the king squares too.
    kings: Vec<KingEntry>,
    /// The material imbalance by piece counts (its own size, [`MATERIAL_TABLE_ENTRIES`]).
    material: MaterialTable,
}

impl Default for PawnTable {
    fn default() -> Self {
        PawnTable::new()
    }
}

impl PawnTable {
    /// A table of [`PAWN_TABLE_ENTRIES`] entries.
    pub fn new() -> PawnTable {
        PawnTable::with_entries(PAWN_TABLE_ENTRIES)
    }

    /// A table of `entries` entries, rounded up to a power of two.
    pub fn with_entries(entries: usize) -> PawnTable {
        let n = entries.max(1).next_power_of_two();
        PawnTable {
            entries: vec![Entry::default(); n],
            kings: vec![KingEntry::default(); n],
            material: MaterialTable::with_entries(MATERIAL_TABLE_ENTRIES),
        }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.entries.len() * size_of::<Entry>() + self.kings.len() * size_of::<KingEntry>() + self.material.bytes()
    }

    #[inline(always)]
    fn slot(&self, pawns: [u64; 2]) -> usize {
        (pawn_key_of(pawns[1], pawns[0]) as usize) & (self.entries.len() - 1)
    }

    /// The structure of black's and white's `pawns` as evaluator `id` computed it, if the
    /// table holds it.
    pub fn get(&self, pawns: [u64; 2], id: u64) -> Option<PawnStructure> {
        let e = &self.entries[self.slot(pawns)];
        (e.evaluator == id && e.pawns == pawns).then_some(e.structure)
    }

    /// The structure of `ctx`'s pawns under `p` (the parameters of evaluator `id`): from the
    /// table, or computed and stored.
    #[inline(always)]
    pub(super) fn probe(&mut self, ctx: &Ctx, p: &EvalParams, terms: Option<&TermTables>, id: u64) -> PawnStructure {
        let i = self.slot(ctx.pawns);
        let e = &mut self.entries[i];
        if e.evaluator == id && e.pawns == ctx.pawns {
            return e.structure;
        }
        let structure = pawns::structure(ctx, p, terms);
        *e = Entry { pawns: ctx.pawns, evaluator: id, structure };
        structure
    }

    /// [`king::pawn_terms`] of `ctx`, from the table when its pawns and king squares are
    /// there (the kings move seldom beside the pawns, so most lookups hit).
    #[inline(always)]
    pub(super) fn probe_kings(
        &mut self,
        ctx: &Ctx,
        p: &EvalParams,
        terms: Option<&TermTables>,
        id: u64,
    ) -> KingPawnTerms {
        let kings = [ctx.king[Color::White as usize] as u8, ctx.king[Color::Black as usize] as u8];
        // The king squares spread the slot (a multiplier keeps neighbouring squares apart).
        let spread = (u64::from(kings[0]) << 8 | u64::from(kings[1])).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
        let i = (self.slot(ctx.pawns) ^ spread as usize) & (self.kings.len() - 1);
        let e = &mut self.kings[i];
        if e.evaluator == id && e.pawns == ctx.pawns && e.kings == kings {
            return e.terms;
        }
        let computed = king::pawn_terms(ctx, p, terms);
        *e = KingEntry { pawns: ctx.pawns, evaluator: id, kings, terms: computed };
        computed
    }

    /// The material imbalance of `ctx` ([`super::imbalance::score`]), from the material table.
    #[inline(always)]
    pub(super) fn probe_imbalance(&mut self, ctx: &Ctx, p: &EvalParams, id: u64) -> S {
        self.material.probe(ctx, p, id)
    }
}

#[cfg(test)]
mod tests {
    use super::{Entry, KingEntry, PawnTable};

    #[test]
    fn entries_are_one_cache_line_and_tables_a_power_of_two() {
        assert_eq!(size_of::<Entry>(), 64);
        assert_eq!(size_of::<KingEntry>(), 56);
        // Plus the material table's 1,024 entries of 24 bytes, whatever the size.
        let material = (1 << 10) * 24;
        assert_eq!(PawnTable::new().bytes(), (1 << 12) * (64 + 56) + material);
        assert_eq!(PawnTable::with_entries(100).bytes(), 128 * (64 + 56) + material);
        assert_eq!(PawnTable::with_entries(0).bytes(), 64 + 56 + material);
    }
}
