//! A middlegame/endgame score pair packed into one `i64`, so each term costs one add.
//!
//! The endgame half sits in the upper 32 bits, the middlegame half in the lower 32 (as in
//! Stockfish's `Score`, widened to 32-bit halves so large material sums never overflow).

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// `(mg, eg)` pair; each half must stay within `i32`.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct S(i64);

impl S {
    pub const ZERO: S = S(0);

    #[inline(always)]
    pub const fn new(mg: i32, eg: i32) -> S {
        S(((eg as i64) << 32) + mg as i64)
    }

    /// Middlegame half.
    #[inline(always)]
    pub const fn mg(self) -> i32 {
        self.0 as i32
    }

    /// Endgame half (rounds the borrow the middlegame half may have taken from it).
    #[inline(always)]
    pub const fn eg(self) -> i32 {
        ((self.0 + 0x8000_0000) >> 32) as i32
    }
}

impl std::fmt::Debug for S {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "S({}, {})", self.mg(), self.eg())
    }
}

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        S(self.0 + o.0)
    }
}

impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0)
    }
}

impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S(-self.0)
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        S(self.0 * i64::from(k))
    }
}

impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        self.0 += o.0;
    }
}

impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        self.0 -= o.0;
    }
}

#[cfg(test)]
mod tests {
    use super::S;

    #[test]
    fn packing_round_trips_signs_and_arithmetic() {
        for (mg, eg) in [(0, 0), (-1, 0), (5, -3), (-5, -3), (123_456, -654_321), (-40_000, 40_000)] {
            let s = S::new(mg, eg);
            assert_eq!((s.mg(), s.eg()), (mg, eg));
            assert_eq!(((-s).mg(), (-s).eg()), (-mg, -eg));
            let t = s * 7 - S::new(1, -2) + S::new(3, 4);
            assert_eq!((t.mg(), t.eg()), (mg * 7 + 2, eg * 7 + 6));
        }
    }
}
