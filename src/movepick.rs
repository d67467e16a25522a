//! Staged move picker (after Stockfish `movepick.cpp`, Carp `move_picker.rs`).
//!
//! Main search, not in check:
//!
//! ```text
//! TtMove -> Generate -> GoodNoisy -> Killer1 -> Killer2 -> Counter -> QuietInit -> Quiets -> BadNoisy
//! ```
//!
//! Quiescence: `TtMove (noisy only) -> Generate -> Noisy` (the caller applies SEE itself).
//! In check (both searches): `TtMove -> Generate -> Evasions` (every legal move, scored).
//!
//! In the main search the legal moves are generated in two steps, into one array laid out as
//!
//! ```text
//! [ bad noisy (moved here as found) | noisy not yet tried ..... | quiets ....... ]
//! 0                                end_bad           cur      end_noisy        len
//! ```
//!
//! Noisy moves are captures and queen promotions ([`gen_noisy`]), scored MVV-LVA plus capture
//! history and picked best-first; one that fails `SEE >= 0` is parked in the bad region and
//! tried last. The quiet moves ([`gen_quiets`]) are generated, scored and sorted only when the
//! quiet stage is reached: a node cut by a capture, a killer or the countermove never pays for
//! them. The TT move, killers and countermove are left out of that generation, so every legal
//! move is yielded exactly once (checked by `perft::movepicker_perft`). No allocation: the
//! array lives in the picker. Evasions are generated at once (every legal move).
//!
//! The TT move, killers and countermove handed in need not be legal: the TT move must have
//! been checked by the caller (`is_legal`), killers and countermove are checked here (a legal
//! quiet move of this position, not the TT move, not yielded before).

use std::mem::MaybeUninit;

use shakmaty::{Bitboard, CastlingSide, Chess, Color, Move, MoveList, Position, Rank, Role, Square, attacks};

use crate::{
    search::{
        history::{History, PieceTo},
        params::SearchParams,
    },
    see::{self, see_ge},
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TtMove,
    Generate,
    GoodNoisy,
    Killer1,
    Killer2,
    Counter,
    QuietInit,
    Quiets,
    BadNoisy,
    QsNoisy,
    Evasions,
    Done,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Main,
    Quiescence,
    Evasion,
}

/// Is `m` "noisy" (tried before quiet moves and in quiescence)?
#[inline]
pub fn is_noisy(m: Move) -> bool {
    m.is_capture() || m.promotion() == Some(Role::Queen)
}

/// Move picker for one node. See the module docs for the stages.
pub struct MovePicker {
    stage: Stage,
    kind: Kind,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    counter: Option<Move>,
    prev1: Option<PieceTo>,
    prev2: Option<PieceTo>,
    /// The squares the opponent attacks (empty with the threat history off).
    threats: Bitboard,
    moves: MoveList,
    /// Ordering score of `moves[i]`; entries below `moves.len()` are always initialised
    /// (left uninitialised beyond, so that creating a picker costs no 1 KiB memset).
    scores: [MaybeUninit<i32>; 256],
    cur: usize,
    end_noisy: usize,
    end_bad: usize,
    /// Number of legal moves once generated (evasions; the noisy ones in quiescence).
    legal: usize,
    /// The killers and the countermove yielded before the quiet moves were generated, which
    /// that generation leaves out.
    special_quiets: [Option<Move>; 3],
    /// Set by the search (late-move pruning): remaining quiet moves are skipped.
    pub skip_quiets: bool,
    /// The ordering bonus (`threat_escape_bonus`) of a quiet move that takes
    /// a knight or bishop out of a pawn's attack to a square no pawn attacks (the same penalty
    /// for walking into one), more for rooks and queens (scaled by value) and the attacks of
    /// every lesser piece; 0 = none.
    escape_bonus: i32,
    /// The capture history's weight in a noisy move's score, per 1,024 (`capture_history_weight`).
    capture_history_weight: i32,
}

impl MovePicker {
    /// Picker for a main-search node. `in_check` selects the evasion picker.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        in_check: bool,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
        prev1: Option<PieceTo>,
        prev2: Option<PieceTo>,
        threats: Bitboard,
    ) -> MovePicker {
        MovePicker {
            stage: if tt_move.is_some() { Stage::TtMove } else { Stage::Generate },
            kind: if in_check { Kind::Evasion } else { Kind::Main },
            tt_move,
            killers,
            counter,
            prev1,
            prev2,
            threats,
            moves: MoveList::new(),
            scores: [MaybeUninit::uninit(); 256],
            cur: 0,
            end_noisy: 0,
            end_bad: 0,
            legal: 0,
            special_quiets: [None; 3],
            skip_quiets: false,
            escape_bonus: 0,
            capture_history_weight: 32,
        }
    }

    /// The ordering weights the search parameters set: the escape bonus of quiet moves and the
    /// capture history's weight among noisy ones.
    pub fn weighted_by(mut self, sp: &SearchParams) -> MovePicker {
        self.escape_bonus = sp.threat_escape_bonus;
        self.capture_history_weight = sp.capture_history_weight;
        self
    }

    /// Picker for a quiescence node: noisy moves only, or every evasion when in check.
    pub fn new_qsearch(in_check: bool, tt_move: Option<Move>, prev1: Option<PieceTo>, threats: Bitboard) -> MovePicker {
        let tt_move = tt_move.filter(|&m| in_check || is_noisy(m));
        let mut mp = MovePicker::new(in_check, tt_move, [None; 2], None, prev1, None, threats);
        if !in_check {
            mp.kind = Kind::Quiescence;
        }
        mp
    }

    /// Number of legal moves of an evasion picker, once generated (see [`Self::generate_now`]).
    pub fn legal_count(&self) -> usize {
        self.legal
    }

    /// True once the picker is past the noisy moves that order before quiet ones.
    pub fn in_bad_noisy(&self) -> bool {
        self.stage == Stage::BadNoisy
    }

    /// Generates every legal move now (evasion nodes use this to know the reply count early).
    pub fn generate_now(&mut self, pos: &Chess, hist: &History) {
        if self.stage <= Stage::Generate && self.moves.is_empty() {
            self.generate(pos, hist);
        }
    }

    fn generate(&mut self, pos: &Chess, hist: &History) {
        let stm = pos.turn();
        self.cur = 0;
        self.end_bad = 0;
        if self.kind == Kind::Quiescence {
            // Captures only, without generating the quiet moves at all.
            let mut noisy = MoveList::new();
            gen_noisy(pos, &mut noisy);
            self.legal = noisy.len();
            self.moves.clear();
            let tt = self.tt_move;
            for &m in noisy.iter().filter(|&&m| Some(m) != tt) {
                self.push(m, noisy_score(stm, m, hist, self.capture_history_weight));
            }
            self.end_noisy = self.moves.len();
            return;
        }
        if self.kind == Kind::Main {
            // The noisy moves now, the quiet ones at the quiet stage (if it is reached).
            let mut noisy = MoveList::new();
            gen_noisy(pos, &mut noisy);
            self.moves.clear();
            let tt = self.tt_move;
            for &m in noisy.iter().filter(|&&m| Some(m) != tt) {
                self.push(m, noisy_score(stm, m, hist, self.capture_history_weight));
            }
            self.end_noisy = self.moves.len();
            return;
        }
        // Generated into a local (no copy of the whole array), then only the moves are copied.
        let legal = pos.legal_moves();
        self.legal = legal.len();
        self.moves.clear();
        let tt = self.tt_move;
        match self.kind {
            Kind::Evasion => {
                for &m in legal.iter().filter(|&&m| Some(m) != tt) {
                    let score = if is_noisy(m) {
                        1_000_000 + noisy_score(stm, m, hist, self.capture_history_weight)
                    } else {
                        hist.quiet_score(stm, m, self.prev1, self.prev2, self.threats)
                    };
                    self.push(m, score);
                }
                self.end_noisy = self.moves.len();
            }
            Kind::Main | Kind::Quiescence => unreachable!("generated above"),
        }
    }

    #[inline]
    fn push(&mut self, m: Move, score: i32) {
        self.scores[self.moves.len()] = MaybeUninit::new(score);
        self.moves.push(m);
    }

    #[inline]
    fn score(&self, i: usize) -> i32 {
        debug_assert!(i < self.moves.len());
        // SAFETY: every index below `moves.len()` was written by `push`, and
        // swaps keep that invariant (both arrays are swapped together).
        unsafe { self.scores[i].assume_init() }
    }

    /// Swaps the best-scored move of `cur..end` to `cur` and returns it.
    #[inline]
    fn select_best(&mut self, end: usize) -> Move {
        let mut best = self.cur;
        for i in self.cur + 1..end {
            if self.score(i) > self.score(best) {
                best = i;
            }
        }
        self.swap(self.cur, best);
        self.moves[self.cur]
    }

    #[inline]
    fn swap(&mut self, a: usize, b: usize) {
        self.moves.swap(a, b);
        self.scores.swap(a, b);
    }

    /// `m` if it is a legal quiet move here, neither the TT move nor one yielded before; it is
    /// recorded so that the quiet generation leaves it out.
    #[inline]
    fn take_quiet(&mut self, pos: &Chess, m: Option<Move>) -> Option<Move> {
        let m = m?;
        if Some(m) == self.tt_move || self.special_quiets.contains(&Some(m)) || !is_legal_quiet(pos, m) {
            return None;
        }
        let slot = self.special_quiets.iter_mut().find(|s| s.is_none()).expect("three slots for three moves");
        *slot = Some(m);
        Some(m)
    }

    /// The next move to search, or `None` when all have been yielded.
    pub fn next(&mut self, pos: &Chess, hist: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::Generate;
                    if let Some(m) = self.tt_move {
                        return Some(m);
                    }
                }
                Stage::Generate => {
                    if self.moves.is_empty() && self.legal == 0 {
                        self.generate(pos, hist);
                    }
                    self.stage = match self.kind {
                        Kind::Main => Stage::GoodNoisy,
                        Kind::Quiescence => Stage::QsNoisy,
                        Kind::Evasion => Stage::Evasions,
                    };
                }
                Stage::GoodNoisy => {
                    if self.cur >= self.end_noisy {
                        self.stage = Stage::Killer1;
                        continue;
                    }
                    let m = self.select_best(self.end_noisy);
                    if see_ge(pos, m, 0) {
                        self.cur += 1;
                        return Some(m);
                    }
                    // Losing capture: park it in the bad region, try it after the quiets.
                    self.swap(self.end_bad, self.cur);
                    self.end_bad += 1;
                    self.cur += 1;
                }
                Stage::Killer1 => {
                    self.stage = Stage::Killer2;
                    if !self.skip_quiets
                        && let Some(m) = self.take_quiet(pos, self.killers[0])
                    {
                        return Some(m);
                    }
                }
                Stage::Killer2 => {
                    self.stage = Stage::Counter;
                    if !self.skip_quiets
                        && let Some(m) = self.take_quiet(pos, self.killers[1])
                    {
                        return Some(m);
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::QuietInit;
                    // A countermove equal to a killer was taken with it or is not legal here.
                    if !self.skip_quiets
                        && let Some(m) = self.take_quiet(pos, self.counter)
                    {
                        return Some(m);
                    }
                }
                Stage::QuietInit => {
                    self.cur = self.end_noisy;
                    if !self.skip_quiets {
                        let stm = pos.turn();
                        let mut quiets = MoveList::new();
                        gen_quiets(pos, &mut quiets);
                        debug_assert_eq!(self.moves.len(), self.end_noisy);
                        let lesser = (self.escape_bonus > 0).then(|| LesserAttacks::new(pos.board(), !stm));
                        let (tt, special) = (self.tt_move, self.special_quiets);
                        // Sorted as one u64 key a move (the score, then the generation order for
                        // ties): cheaper than shifting moves and scores in two arrays, the same
                        // order as a stable sort, best first.
                        let mut keys = [0u64; 256];
                        let mut n = 0;
                        for (i, &m) in quiets.iter().enumerate() {
                            if Some(m) == tt || special.contains(&Some(m)) {
                                continue;
                            }
                            let mut sc = quiet_score(stm, m, hist, self.prev1, self.prev2, self.threats);
                            if let Some(lesser) = &lesser {
                                sc += lesser.escape(m) * self.escape_bonus * see::value(m.role())
                                    / see::value(Role::Knight);
                            }
                            keys[n] = sort_key(sc, i);
                            n += 1;
                        }
                        keys[..n].sort_unstable_by(|a, b| b.cmp(a));
                        for &key in &keys[..n] {
                            let (sc, i) = from_sort_key(key);
                            self.push(quiets[i], sc);
                        }
                    }
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if !self.skip_quiets && self.cur < self.moves.len() {
                        self.cur += 1;
                        return Some(self.moves[self.cur - 1]);
                    }
                    self.cur = 0;
                    self.stage = Stage::BadNoisy;
                }
                Stage::BadNoisy => {
                    if self.cur < self.end_bad {
                        self.cur += 1;
                        return Some(self.moves[self.cur - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::QsNoisy => {
                    if self.cur < self.end_noisy {
                        let m = self.select_best(self.end_noisy);
                        self.cur += 1;
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Evasions => {
                    if self.cur < self.moves.len() {
                        let m = self.select_best(self.moves.len());
                        self.cur += 1;
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

/// Appends every legal noisy move ([`is_noisy`]: captures, en passant, queen promotions) of
/// `pos`, which must not be in check. Faster than filtering `legal_moves()`: only attackers of
/// enemy pieces are considered, and legality needs only the pins (a king capture is checked
/// against the attackers of its target square).
pub fn gen_noisy(pos: &Chess, out: &mut MoveList) {
    let board = pos.board();
    let stm = pos.turn();
    let us = board.by_color(stm);
    let them = board.by_color(!stm);
    let occ = board.occupied();
    let Some(king) = board.king_of(stm) else { return };
    debug_assert!(!pos.is_check());

    let pinned = lone_blockers(board, king, them, us);
    let legal_from = |from: Square, to: Square| !pinned.contains(from) || attacks::aligned(from, to, king);
    let back_rank = if stm == Color::White { Rank::Eighth } else { Rank::First };
    let our_pawns = board.pawns() & us;

    for to in them & !board.kings() {
        let capture = board.role_at(to);
        let attackers = ((attacks::pawn_attacks(!stm, to) & board.pawns())
            | (attacks::knight_attacks(to) & board.knights())
            | (attacks::bishop_attacks(to, occ) & board.bishops_and_queens())
            | (attacks::rook_attacks(to, occ) & board.rooks_and_queens())
            | (attacks::king_attacks(to) & board.kings()))
            & us;
        for from in attackers {
            let role = board.role_at(from).expect("attacker on its square");
            if role == Role::King {
                if !king_step_is_safe(board, stm, king, to) {
                    continue;
                }
            } else if !legal_from(from, to) {
                continue;
            }
            if role == Role::Pawn && to.rank() == back_rank {
                for p in [Role::Queen, Role::Knight, Role::Rook, Role::Bishop] {
                    out.push(Move::Normal { role, from, capture, to, promotion: Some(p) });
                }
            } else {
                out.push(Move::Normal { role, from, capture, to, promotion: None });
            }
        }
    }
    // Quiet queen promotions.
    let seventh = if stm == Color::White { Rank::Seventh } else { Rank::Second };
    for from in our_pawns & Bitboard::from_rank(seventh) {
        let to = Square::from_coords(from.file(), back_rank);
        if !occ.contains(to) && legal_from(from, to) {
            out.push(Move::Normal { role: Role::Pawn, from, capture: None, to, promotion: Some(Role::Queen) });
        }
    }
    if pos.maybe_ep_square().is_some() {
        out.extend(pos.en_passant_moves());
    }
}

/// A pawn push's square offset for `stm`, the rank its double push starts from and the rank it
/// promotes on.
fn pawn_push_ranks(stm: Color) -> (i32, Rank, Rank) {
    match stm {
        Color::White => (8, Rank::Second, Rank::Eighth),
        Color::Black => (-8, Rank::Seventh, Rank::First),
    }
}

/// Appends every legal quiet move of `pos`, which must not be in check: what filtering
/// `legal_moves()` by "not [`is_noisy`]" gives (quiet underpromotions and castling included).
/// With [`gen_noisy`] it makes the whole legal list in two steps, so that a node cut by a
/// capture or a killer never generates its quiet moves.
pub fn gen_quiets(pos: &Chess, out: &mut MoveList) {
    let board = pos.board();
    let stm = pos.turn();
    let us = board.by_color(stm);
    let occ = board.occupied();
    let empty = !occ;
    let Some(king) = board.king_of(stm) else { return };
    debug_assert!(!pos.is_check());
    let pinned = lone_blockers(board, king, board.by_color(!stm), us);
    let legal_from = |from: Square, to: Square| !pinned.contains(from) || attacks::aligned(from, to, king);
    let (forward, start, back_rank) = pawn_push_ranks(stm);
    for from in board.pawns() & us {
        let Some(one) = from.offset(forward).filter(|&to| empty.contains(to)) else { continue };
        // A pinned pawn may push only along its pin, which holds for both squares ahead.
        if !legal_from(from, one) {
            continue;
        }
        if one.rank() == back_rank {
            // The queen's promotion is noisy.
            for p in [Role::Knight, Role::Rook, Role::Bishop] {
                out.push(Move::Normal { role: Role::Pawn, from, capture: None, to: one, promotion: Some(p) });
            }
            continue;
        }
        out.push(Move::Normal { role: Role::Pawn, from, capture: None, to: one, promotion: None });
        if from.rank() == start
            && let Some(two) = one.offset(forward).filter(|&to| empty.contains(to))
        {
            out.push(Move::Normal { role: Role::Pawn, from, capture: None, to: two, promotion: None });
        }
    }
    for from in us & !board.pawns() & !board.kings() {
        let role = board.role_at(from).expect("our piece on its square");
        for to in attacks::attacks(from, role.of(stm), occ) & empty {
            if legal_from(from, to) {
                out.push(Move::Normal { role, from, capture: None, to, promotion: None });
            }
        }
    }
    for to in attacks::king_attacks(king) & empty {
        if king_step_is_safe(board, stm, king, to) {
            out.push(Move::Normal { role: Role::King, from: king, capture: None, to, promotion: None });
        }
    }
    if pos.castles().has_color(stm) {
        out.extend(pos.castling_moves(CastlingSide::KingSide));
        out.extend(pos.castling_moves(CastlingSide::QueenSide));
    }
}

/// Whether `m`, a move remembered from another position (a killer, a countermove), is a legal
/// quiet move ([`is_noisy`] false) of `pos`, which must not be in check. Cheaper than
/// `is_legal`, which generates every move to the target square: not being in check, a quiet
/// move other than the king's is legal unless it uncovers one of the enemy's sliders.
pub fn is_legal_quiet(pos: &Chess, m: Move) -> bool {
    let Move::Normal { role, from, capture: None, to, promotion } = m else {
        return m.is_castle() && pos.is_legal(m);
    };
    let board = pos.board();
    let stm = pos.turn();
    let occ = board.occupied();
    if board.piece_at(from) != Some(role.of(stm)) || occ.contains(to) {
        return false;
    }
    let Some(king) = board.king_of(stm) else { return false };
    debug_assert!(!pos.is_check());
    let reaches = match role {
        Role::Pawn => {
            let (forward, start, back_rank) = pawn_push_ranks(stm);
            let one = from.offset(forward);
            let promotes = to.rank() == back_rank;
            let promotion_ok = if promotes {
                matches!(promotion, Some(Role::Knight | Role::Rook | Role::Bishop))
            } else {
                promotion.is_none()
            };
            promotion_ok
                && (one == Some(to)
                    || (from.rank() == start
                        && one.is_some_and(|one| !occ.contains(one) && one.offset(forward) == Some(to))))
        }
        Role::King => {
            return promotion.is_none()
                && attacks::king_attacks(from).contains(to)
                && king_step_is_safe(board, stm, king, to);
        }
        _ => promotion.is_none() && attacks::attacks(from, role.of(stm), occ).contains(to),
    };
    if !reaches {
        return false;
    }
    // Not in check, so only a slider the move uncovers can attack the king afterwards.
    let after = (occ ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
    let them = board.by_color(!stm);
    ((attacks::rook_attacks(king, after) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, after) & board.bishops_and_queens()))
        & them
        == Bitboard::EMPTY
}

/// Whether a normal move (quiet, capture or promotion) checks the opponent's king, by a
/// direct attack from its destination (as the promoted piece: an underpromotion, which the
/// picker counts as quiet, checks as a knight, rook or bishop) or by uncovering a slider.
/// Cheaper than making the move: the search's move-count and history pruning spare checks
/// with it before the child exists, and [`gen_quiet_checks`] tests its shields' moves. En
/// passant and castling count as not checking (they are rare and only lose that exemption).
#[inline]
pub fn move_gives_check(pos: &Chess, m: Move) -> bool {
    let Move::Normal { role, from, to, promotion, .. } = m else {
        return false;
    };
    let role = promotion.unwrap_or(role);
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(!us) else {
        return false;
    };
    let occupied = (board.occupied() ^ from) | to;
    // A king never checks directly (kings cannot stand side by side).
    if attacks::attacks(to, role.of(us), occupied).contains(king) {
        return true;
    }
    let ours = board.by_color(us) ^ from;
    let discovered = (attacks::bishop_attacks(king, occupied) & board.bishops_and_queens())
        | (attacks::rook_attacks(king, occupied) & board.rooks_and_queens());
    !(discovered & ours).is_empty()
}

/// Appends every legal quiet move of `pos` (not in check) that gives check: what filtering
/// `legal_moves()` by "not [`is_noisy`] and checking" gives (quiet underpromotions included),
/// castling excepted, without generating the other moves. A direct check goes to a square
/// that attacks the enemy king; a piece that shields that king from one of our sliders checks
/// with any move off the line. The quiescence search's checks run at every leaf, so this
/// must cost a fraction of a full generation.
pub fn gen_quiet_checks(pos: &Chess, out: &mut MoveList) {
    let board = pos.board();
    let stm = pos.turn();
    let us = board.by_color(stm);
    let occ = board.occupied();
    let (Some(king), Some(their_king)) = (board.king_of(stm), board.king_of(!stm)) else { return };
    debug_assert!(!pos.is_check());
    let pinned = lone_blockers(board, king, board.by_color(!stm), us);
    let legal_from = |from: Square, to: Square| !pinned.contains(from) || attacks::aligned(from, to, king);
    let shields = lone_blockers(board, their_king, us, us);
    let empty = !occ;
    // The squares from which each piece type attacks the enemy king.
    let (diagonal, straight) = (attacks::bishop_attacks(their_king, occ), attacks::rook_attacks(their_king, occ));
    let pawn_checking = attacks::pawn_attacks(!stm, their_king);
    let (forward, start, back_rank) = pawn_push_ranks(stm);
    let mut push = |m: Move, shield: bool| {
        if !shield || move_gives_check(pos, m) {
            out.push(m);
        }
    };
    for from in us {
        let role = board.role_at(from).expect("our piece on its square");
        let shield = shields.contains(from);
        match role {
            Role::Pawn => {
                let Some(one) = from.offset(forward).filter(|&to| empty.contains(to)) else { continue };
                let mut targets = Bitboard::from_square(one);
                if from.rank() == start
                    && let Some(two) = one.offset(forward).filter(|&to| empty.contains(to))
                {
                    targets.add(two);
                }
                for to in targets {
                    if !legal_from(from, to) {
                        continue;
                    }
                    if to.rank() == back_rank {
                        // Quiet underpromotions (the queen's is noisy) that check.
                        for p in [Role::Knight, Role::Rook, Role::Bishop] {
                            let m = Move::Normal { role, from, capture: None, to, promotion: Some(p) };
                            push(m, true);
                        }
                    } else if shield || pawn_checking.contains(to) {
                        push(Move::Normal { role, from, capture: None, to, promotion: None }, shield);
                    }
                }
            }
            Role::King => {
                if !shield {
                    continue;
                }
                for to in attacks::king_attacks(from) & empty {
                    if king_step_is_safe(board, stm, king, to) {
                        push(Move::Normal { role, from, capture: None, to, promotion: None }, true);
                    }
                }
            }
            _ => {
                let checking = match role {
                    Role::Knight => attacks::knight_attacks(their_king),
                    Role::Bishop => diagonal,
                    Role::Rook => straight,
                    _ => diagonal | straight,
                };
                let reach = attacks::attacks(from, role.of(stm), occ) & empty;
                for to in if shield { reach } else { reach & checking } {
                    if legal_from(from, to) {
                        push(Move::Normal { role, from, capture: None, to, promotion: None }, shield);
                    }
                }
            }
        }
    }
}

/// A quiet move's sort key: its score in the high half (biased so that the order of the keys is
/// the order of the scores) and, for equal scores, the earlier generated move the larger key.
fn sort_key(score: i32, index: usize) -> u64 {
    (u64::from(score.wrapping_sub(i32::MIN) as u32) << 32) | u64::from(u32::MAX - index as u32)
}

/// The score and the generation index a [`sort_key`] holds.
fn from_sort_key(key: u64) -> (i32, usize) {
    (((key >> 32) as u32 as i32).wrapping_add(i32::MIN), (u32::MAX - key as u32) as usize)
}

/// Whether `stm`'s king on `king` may step to `to`: no enemy piece attacks it once the king has
/// left its square (a slider behind the king would otherwise look blocked by the king itself).
fn king_step_is_safe(board: &shakmaty::Board, stm: Color, king: Square, to: Square) -> bool {
    board.attacks_to(to, !stm, board.occupied() ^ Bitboard::from_square(king)).is_empty()
}

/// The pieces of `own` that stand alone between `king` and one of `sliders` (bishops, rooks and
/// queens of one colour) on that slider's line: our pieces pinned to our king by enemy sliders,
/// or our pieces shielding the enemy king from our own sliders (moving them off the line checks).
fn lone_blockers(board: &shakmaty::Board, king: Square, sliders: Bitboard, own: Bitboard) -> Bitboard {
    let occ = board.occupied();
    let mut blockers = Bitboard(0);
    let snipers = (attacks::rook_attacks(king, Bitboard(0)) & board.rooks_and_queens()
        | attacks::bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens())
        & sliders;
    for s in snipers {
        if let Some(b) = (attacks::between(king, s) & occ).single_square()
            && own.contains(b)
        {
            blockers.add(b);
        }
    }
    blockers
}

/// The squares the opponent attacks with pieces worth less than each of ours: what a quiet
/// move escapes or walks into (after Stockfish's `threatenedByPawn/Minor/Rook`).
struct LesserAttacks {
    pawns: Bitboard,
    minors: Bitboard,
    rooks: Bitboard,
}

impl LesserAttacks {
    fn new(board: &shakmaty::Board, them: Color) -> LesserAttacks {
        let theirs = board.by_color(them);
        let occupied = board.occupied();
        let mut pawns = Bitboard::EMPTY;
        for sq in board.pawns() & theirs {
            pawns |= attacks::pawn_attacks(them, sq);
        }
        let mut minors = pawns;
        for sq in board.knights() & theirs {
            minors |= attacks::knight_attacks(sq);
        }
        for sq in board.bishops() & theirs {
            minors |= attacks::bishop_attacks(sq, occupied);
        }
        let mut rooks = minors;
        for sq in board.rooks() & theirs {
            rooks |= attacks::rook_attacks(sq, occupied);
        }
        LesserAttacks { pawns, minors, rooks }
    }

    /// +1 for a move out of a lesser piece's attack to safety from them, −1 for one into it,
    /// 0 otherwise (and for pawns and the king).
    fn escape(&self, m: Move) -> i32 {
        let attacked = match m.role() {
            Role::Knight | Role::Bishop => self.pawns,
            Role::Rook => self.minors,
            Role::Queen => self.rooks,
            Role::Pawn | Role::King => return 0,
        };
        let from = m.from().is_some_and(|s| attacked.contains(s));
        let to = attacked.contains(m.to());
        i32::from(from && !to) - i32::from(!from && to)
    }
}

/// MVV-LVA plus capture history: victims first, cheap attackers first among equal victims
/// (the history weighs `capture_history_weight` / 1,024 of its points).
#[inline]
fn noisy_score(stm: Color, m: Move, hist: &History, capture_history_weight: i32) -> i32 {
    see::gain(m) * 16 - m.role() as i32 + hist.capture_score(stm, m) * capture_history_weight / 1024
}

#[inline]
fn quiet_score(
    stm: Color,
    m: Move,
    hist: &History,
    prev1: Option<PieceTo>,
    prev2: Option<PieceTo>,
    threats: Bitboard,
) -> i32 {
    if m.is_promotion() {
        // Underpromotions: almost never right.
        return -100_000 + m.promotion().map_or(0, |r| r as i32);
    }
    hist.quiet_score(stm, m, prev1, prev2, threats)
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, fen::Fen};

    use super::*;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    /// The perft suite's positions (castling, en passant, promotions, pins, discovered checks).
    const PERFT_FENS: [&str; 8] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "8/8/8/2k5/2pP4/8/B7/4K3 b - d3 0 1",
        "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
    ];

    /// Runs `check` on each of `fens` and on every position one and two plies from it.
    fn for_positions_near(fens: &[&str], check: fn(&Chess)) {
        for fen in fens {
            let root = pos(fen);
            check(&root);
            for m in root.legal_moves() {
                let mut c = root.clone();
                c.play_unchecked(m);
                check(&c);
                for m2 in c.legal_moves() {
                    let mut c2 = c.clone();
                    c2.play_unchecked(m2);
                    check(&c2);
                }
            }
        }
    }

    #[test]
    fn good_captures_first_bad_captures_last() {
        // White: Qd1xd5 loses the queen to c6xd5 (bad); Nf3xe5 wins a pawn (good).
        let p = pos("4k3/8/2p5/3pp3/8/5N2/8/3QK3 w - - 0 1");
        let hist = History::new();
        let mut mp = MovePicker::new(false, None, [None; 2], None, None, None, Bitboard::EMPTY);
        let mut all = Vec::new();
        while let Some(m) = mp.next(&p, &hist) {
            all.push(m);
        }
        assert_eq!(all.len(), p.legal_moves().len());
        assert_eq!(all[0].to_string(), "Nf3xe5");
        assert_eq!(all.last().unwrap().to_string(), "Qd1xd5");
    }

    /// The dedicated noisy generator agrees with filtering the full legal move list, on the
    /// perft positions and every position one and two plies from them.
    #[test]
    fn gen_noisy_matches_legal_filter() {
        fn check(p: &Chess) {
            if p.is_check() {
                return;
            }
            let mut got = MoveList::new();
            gen_noisy(p, &mut got);
            let mut got: Vec<String> = got.iter().map(|m| format!("{m:?}")).collect();
            let mut want: Vec<String> =
                p.legal_moves().iter().filter(|&&m| is_noisy(m)).map(|m| format!("{m:?}")).collect();
            got.sort();
            want.sort();
            assert_eq!(got, want, "{}", shakmaty::fen::Fen::from_position(p, shakmaty::EnPassantMode::Legal));
        }
        for_positions_near(&PERFT_FENS, check);
    }

    /// A generator's moves in `p` are `want`, each as often, in any order.
    fn assert_same_moves(p: &Chess, got: &MoveList, want: impl IntoIterator<Item = Move>) {
        let mut got: Vec<String> = got.iter().map(|m| format!("{m:?}")).collect();
        let mut want: Vec<String> = want.into_iter().map(|m| format!("{m:?}")).collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{}", shakmaty::fen::Fen::from_position(p, shakmaty::EnPassantMode::Legal));
    }

    /// The quiet generator and the noisy one together give the legal move list, each move once,
    /// on the perft positions and every position one and two plies from them.
    #[test]
    fn gen_quiets_and_gen_noisy_make_the_legal_list() {
        fn check(p: &Chess) {
            if p.is_check() {
                return;
            }
            let mut got = MoveList::new();
            gen_quiets(p, &mut got);
            assert!(got.iter().all(|&m| !is_noisy(m)));
            gen_noisy(p, &mut got);
            assert_same_moves(p, &got, p.legal_moves());
        }
        for_positions_near(&PERFT_FENS, check);
        // Castling through and out of attacks, a pinned pawn's pushes, a queen promotion blocked.
        for_positions_near(
            &[
                "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                "r3k2r/8/8/8/8/5b2/8/R3K2R w KQkq - 0 1",
                "4k3/8/8/8/4r3/8/4P3/4K3 w - - 0 1",
                "3k4/8/8/8/8/8/1p6/1N2K3 b - - 0 1",
            ],
            check,
        );
    }

    /// The killers' legality test agrees with shakmaty's `is_legal` (and "not noisy") for every
    /// move of the positions one ply away, tried in each position near the perft positions.
    #[test]
    fn is_legal_quiet_matches_is_legal() {
        fn check(p: &Chess) {
            if p.is_check() {
                return;
            }
            // Moves of the side to move from the positions after a null move and after each
            // reply: what killers and countermoves are, moves of a nearby position.
            let mut candidates: std::collections::HashSet<Move> = p.legal_moves().into_iter().collect();
            for m in p.legal_moves() {
                let mut c = p.clone();
                c.play_unchecked(m);
                for reply in c.legal_moves() {
                    let mut c2 = c.clone();
                    c2.play_unchecked(reply);
                    candidates.extend(c2.legal_moves());
                }
            }
            for m in candidates {
                let want = !is_noisy(m) && p.is_legal(m);
                assert_eq!(
                    is_legal_quiet(p, m),
                    want,
                    "{m:?} in {}",
                    shakmaty::fen::Fen::from_position(p, shakmaty::EnPassantMode::Legal)
                );
            }
        }
        for fen in PERFT_FENS {
            let root = pos(fen);
            check(&root);
            for m in root.legal_moves() {
                let mut c = root.clone();
                c.play_unchecked(m);
                check(&c);
            }
        }
    }

    #[test]
    fn checks_match_making_the_move() {
        let cases = [
            // WAC.001 after Qg6 and a quiet reply: Qh7 mates; Rae1 does not check.
            ("2rr3k/pp3pp1/1nnqbNQp/3pN3/2pP4/2P5/PPB4P/R4RK1 w - - 0 1", "g6h7", true),
            ("2rr3k/pp3pp1/1nnqbNQp/3pN3/2pP4/2P5/PPB4P/R4RK1 w - - 0 1", "a1e1", false),
            // Direct checks, and near misses, by each piece type.
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", true),
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a7", false),
            ("4k3/8/8/8/6N1/8/8/4K3 w - - 0 1", "g4f6", true),
            ("4k3/8/8/4N3/8/8/8/4K3 w - - 0 1", "e5f7", false),
            ("4k3/8/8/8/8/8/8/1B2K3 w - - 0 1", "b1g6", true),
            ("4k3/8/8/8/8/8/8/1B2K3 w - - 0 1", "b1a2", false),
            ("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1", "d6d7", true),
            ("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", "d5d6", false),
            ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "d1a4", true),
            // Discovered checks: the knight uncovers the rook, the king uncovers the bishop.
            ("4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1", "e4c5", true),
            ("7k/8/8/8/8/8/1K6/B7 w - - 0 1", "b2a2", true),
            ("4k3/8/8/8/4N3/8/P7/4RK2 w - - 0 1", "a2a3", false),
            // Black to move.
            ("4k3/8/8/8/8/r7/8/6K1 b - - 0 1", "a3g3", true),
            ("4k3/8/8/8/8/r7/8/6K1 b - - 0 1", "a3a2", false),
            // Captures and promotions: WAC.049's queen sacrifice, a capture that does not
            // check, promotions to a queen and to a knight, a knight's check, a capturing one.
            ("2b3k1/4rrpp/p2p4/2pP2RQ/1pP1Pp1N/1P3P1P/1q6/6RK w - - 0 1", "h5h7", true),
            ("4k3/8/8/8/8/8/p7/R3K3 w - - 0 1", "a1a2", false),
            ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", true),
            ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", false),
            ("8/1P6/2k5/8/8/8/8/4K3 w - - 0 1", "b7b8n", true),
            ("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8q", true),
        ];
        for (fen, uci, expected) in cases {
            let pos = pos(fen);
            let m = uci.parse::<shakmaty::uci::UciMove>().unwrap().to_move(&pos).unwrap();
            let mut child = pos.clone();
            child.play_unchecked(m);
            assert_eq!(child.is_check(), expected, "the case itself is wrong: {fen} {uci}");
            assert_eq!(move_gives_check(&pos, m), expected, "{fen} {uci}");
        }
    }

    /// The quiet-check generator agrees with filtering the full legal move list (by making
    /// each move), on the perft positions and every position one and two plies from them.
    #[test]
    fn gen_quiet_checks_matches_legal_filter() {
        fn check(p: &Chess) {
            if p.is_check() {
                return;
            }
            let mut got = MoveList::new();
            gen_quiet_checks(p, &mut got);
            let gives_check = |m: Move| {
                let mut c = p.clone();
                c.play_unchecked(m);
                c.is_check()
            };
            let want = p.legal_moves().into_iter().filter(|&m| !is_noisy(m) && !m.is_castle() && gives_check(m));
            assert_same_moves(p, &got, want);
        }
        for_positions_near(&PERFT_FENS, check);
        // Discovered checks by a king, a pawn and a knight; a pawn checking as it promotes.
        for_positions_near(
            &[
                "4k3/8/8/8/4K3/8/8/4R3 w - - 0 1",
                "4k3/8/8/8/8/4P3/8/4R1K1 w - - 0 1",
                "7k/8/8/4N3/8/2B5/8/6K1 w - - 0 1",
                "3k4/1P6/8/8/8/8/8/6K1 w - - 0 1",
            ],
            check,
        );
    }

    #[test]
    fn qsearch_yields_only_noisy_and_tt_is_not_repeated() {
        let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        let hist = History::new();
        let captures: Vec<Move> = p.legal_moves().into_iter().filter(|&m| is_noisy(m)).collect();
        let mut mp = MovePicker::new_qsearch(false, Some(captures[3]), None, Bitboard::EMPTY);
        let mut got = Vec::new();
        while let Some(m) = mp.next(&p, &hist) {
            got.push(m);
        }
        assert_eq!(got[0], captures[3]);
        got.sort_by_key(|m| m.to_string());
        let mut want = captures.clone();
        want.sort_by_key(|m| m.to_string());
        assert_eq!(got, want);
    }

    #[test]
    fn sort_keys_order_by_score_then_by_generation_order() {
        let scored = [(5, 0), (-3, 1), (5, 2), (i32::MAX, 3), (i32::MIN, 4), (0, 5), (-3, 6)];
        let mut keys: Vec<u64> = scored.iter().map(|&(sc, i)| sort_key(sc, i)).collect();
        keys.sort_unstable_by(|a, b| b.cmp(a));
        let order: Vec<(i32, usize)> = keys.into_iter().map(from_sort_key).collect();
        let mut stable = scored.to_vec();
        stable.sort_by_key(|&(sc, _)| std::cmp::Reverse(sc));
        assert_eq!(order, stable);
    }

    #[test]
    fn a_quiet_escaping_a_lesser_attacker_is_told_from_one_walking_into_it() {
        // The knight on e5 is attacked by the d6 pawn, f3 by the e4 pawn; the rook on a1 by nothing.
        let p = pos("4k3/8/3p4/4N3/4p3/8/8/R3K3 w - - 0 1");
        let lesser = LesserAttacks::new(p.board(), Color::Black);
        let find = |uci: &str| {
            p.legal_moves().into_iter().find(|m| m.to_uci(CastlingMode::Standard).to_string() == uci).unwrap()
        };
        assert_eq!(lesser.escape(find("e5g4")), 1);
        // From one pawn's attack into another's: no escape.
        assert_eq!(lesser.escape(find("e5f3")), 0);
        assert_eq!(lesser.escape(find("a1a5")), 0);
        let p = pos("4k3/8/3p4/8/8/5N2/8/4K3 w - - 0 1");
        let lesser = LesserAttacks::new(p.board(), Color::Black);
        let find = |uci: &str| {
            p.legal_moves().into_iter().find(|m| m.to_uci(CastlingMode::Standard).to_string() == uci).unwrap()
        };
        assert_eq!(lesser.escape(find("f3e5")), -1);
        assert_eq!(lesser.escape(find("f3d4")), 0);
        // The king is never scored.
        assert_eq!(lesser.escape(find("e1e2")), 0);
    }
}
