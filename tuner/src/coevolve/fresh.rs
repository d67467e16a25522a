//! `fresh_openings = true`: the paper's method on openings that are never played twice
//! (issue 89, item 2; acceptance 4's "sound selection").
//!
//! Without it each match of a generation draws its openings from the book shuffled afresh with
//! a seed of its own, so a run can play an opening twice: with gnuchess-8ply's 200 openings it
//! must. A node-limited single-thread game is deterministic, so an elite that meets the same
//! opponent on the same opening with the same colours plays the same game again, and every
//! statistic built on the run's games (racing's ratings, the champion's SPRT) counts it twice.
//!
//! With it the run takes one seeded permutation of the book ([`Ledger`], the evolution
//! strategy's): the first `confirmation_openings` are held back for the confirmation match after
//! the run, and generation `g` owns the block of [`Blocks::size`] openings starting at
//! `g × size` of the rest. In its block come first the ranking's (the round robin's
//! `openings_per_pair`, every encounter on the same ones; racing's one a round, at most
//! `racing_games / 2` rounds; the pool's `pool_games / 2`), then the reference match's
//! (`reference_games / 2`), then the champion test's (`max_games / 2`). Openings a generation
//! does not use (a race that ended early, no test after it) are never played. Every draw follows
//! from the generation and the round alone, so `--resume` plays what the killed run did.

use arena::{openings::OpeningBook, runner::MatchConfig};

use super::{Coevolution, CoevolveError};
use crate::optimise::ledger::{CONFIRMATION, Ledger, RACING};

/// Which of a generation's matches draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Use {
    /// The round robin or the pool's gauntlet.
    Ranking,
    /// Racing round `r` (from 1).
    RacingRound(usize),
    /// The best against generation 0's champion.
    Reference,
    /// The best against the champion (the gate).
    Champion,
}

/// How many openings each part of a generation's block holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Blocks {
    pub ranking: usize,
    pub reference: usize,
    pub champion: usize,
}

impl Blocks {
    /// Openings a generation owns.
    pub fn size(&self) -> usize {
        self.ranking + self.reference + self.champion
    }

    /// `(offset in the block, count)` of a use; racing round `r` takes the block's `r`-th.
    fn part(&self, use_: Use) -> (usize, usize) {
        match use_ {
            Use::Ranking => (0, self.ranking),
            Use::RacingRound(r) => (r.saturating_sub(1), 1),
            Use::Reference => (self.ranking, self.reference),
            Use::Champion => (self.ranking + self.reference, self.champion),
        }
    }
}

impl Coevolution {
    /// The run's ledger when `fresh_openings` is on: the book counted, the confirmation slice
    /// reserved, the rest the generations' blocks.
    ///
    /// # Errors
    /// An unreadable book, or one smaller than the confirmation slice.
    pub(super) fn fresh_ledger(&self) -> Result<Option<Ledger>, CoevolveError> {
        if !self.cfg.fresh_openings {
            return Ok(None);
        }
        let book = self.base.openings.as_ref().expect("the coevolution's matches have a book");
        let size = OpeningBook::load(book, self.cfg.seed)
            .map_err(|e| CoevolveError::Config(format!("openings: {e}")))?
            .len()
            .unwrap_or(0);
        Ledger::standard(&book.file, size, self.cfg.seed, self.cfg.confirmation_openings, 0)
            .map(Some)
            .map_err(|e| CoevolveError::Config(format!("fresh_openings: {}: {e}", book.file.display())))
    }

    /// The parts of a generation's block for a population of `size`.
    pub(super) fn blocks(&self, size: usize) -> Blocks {
        let ranking = self.ranking_openings(size);
        let champion = if self.cfg.champion.is_off() { 0 } else { (self.cfg.champion.max_games / 2) as usize };
        Blocks { ranking, reference: (self.cfg.reference_games / 2) as usize, champion }
    }

    /// Refuses, before any game, a run of `generations` whose blocks the book cannot hold.
    pub(super) fn check_fresh_openings(&self, size: usize, generations: usize) -> Result<(), CoevolveError> {
        let Some(ledger) = &self.fresh else { return Ok(()) };
        let blocks = self.blocks(size);
        let needed = generations.saturating_mul(blocks.size());
        let left = ledger.remaining(RACING).unwrap_or(0);
        if needed > left {
            return Err(CoevolveError::Config(format!(
                "fresh_openings: {} has {} openings; {generations} generations of {} each ({} ranking, {} reference, {} \
                 champion test) need {needed} beside the {} held for confirmation (openings are never played twice in a \
                 run)",
                ledger.file.display(),
                ledger.book,
                blocks.size(),
                blocks.ranking,
                blocks.reference,
                blocks.champion,
                self.cfg.confirmation_openings
            )));
        }
        Ok(())
    }

    /// Sets `m`'s openings for generation `g`'s `use_` (population `size`): its slice of the
    /// ledger with `fresh_openings`, otherwise a shuffle of the book seeded by `seed`.
    pub(super) fn deal(
        &self,
        m: &mut MatchConfig,
        g: usize,
        size: usize,
        use_: Use,
        seed: u64,
    ) -> Result<(), CoevolveError> {
        let Some(ledger) = &self.fresh else {
            m.seed = seed;
            return Ok(());
        };
        let blocks = self.blocks(size);
        let (offset, count) = blocks.part(use_);
        if let Use::RacingRound(r) = use_
            && (r == 0 || r > blocks.ranking)
        {
            return Err(CoevolveError::Config(format!(
                "generation {g}: racing round {r} is past the {} rounds its budget allows",
                blocks.ranking
            )));
        }
        let draw = ledger
            .slice(RACING, g * blocks.size() + offset, count)
            .map_err(|e| CoevolveError::Config(format!("generation {g}: {e}")))?;
        let book = m.openings.as_ref().expect("the coevolution's matches have a book");
        m.openings = Some(draw.openings(book));
        m.seed = draw.seed;
        Ok(())
    }

    /// The plan line's openings: where they come from and how they are dealt.
    pub(super) fn openings_text(&self, size: usize) -> String {
        let file = self.cfg.openings.display();
        match &self.fresh {
            None => format!("openings: {file}, shuffled afresh for each match"),
            Some(ledger) => format!(
                "openings: {file} ({} openings, seed {}), never played twice: the first {} held back for confirmation, \
                 then {} a generation",
                ledger.book,
                ledger.seed,
                self.cfg.confirmation_openings,
                self.blocks(size).size()
            ),
        }
    }

    /// The confirmation slice the run never played, as `(start, count)`, with `fresh_openings`.
    pub fn confirmation_slice(&self) -> Option<(usize, usize)> {
        let ledger = self.fresh.as_ref()?;
        ledger.whole(CONFIRMATION).ok().map(|d| (d.start, d.count))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generation_s_block_holds_each_use_once_in_order() {
        let b = Blocks { ranking: 5, reference: 4, champion: 10 };
        assert_eq!(b.size(), 19);
        assert_eq!(b.part(Use::Ranking), (0, 5));
        assert_eq!(b.part(Use::RacingRound(1)), (0, 1));
        assert_eq!(b.part(Use::RacingRound(5)), (4, 1));
        assert_eq!(b.part(Use::Reference), (5, 4));
        assert_eq!(b.part(Use::Champion), (9, 10));
    }
}
