//! Game adjudication, checked after every move and only after the rules of chess (mate,
//! stalemate, repetition, 50 moves, insufficient material) had their say.
//!
//! Semantics follow cutechess's `gameadjudicator`:
//! * draw: from full move `movenumber` on, both engines' scores within ±`score` cp for `movecount`
//!   consecutive moves each;
//! * resign: a side's own score ≤ −`score` for `movecount` consecutive moves (with `twosided`, its
//!   opponent must also have scored ≥ `score` over its last `movecount` moves);
//! * max moves: after `moves` full moves the game is a draw, or (Belmonte 2013, §II) won by the
//!   side with more standard material (P=1, N=B=3, R=5, Q=9), drawn if equal;
//! * Syzygy: a position inside the tables right after a capture or pawn move gets the table's
//!   result (cursed wins and blessed losses are draws under the 50-move rule).
//!
//! A move without a score (an engine that printed no `info score`) resets the score counters.

use std::{path::PathBuf, str::FromStr, sync::Arc};

use serde::{Deserialize, Serialize};
use shakmaty::{ByColor, Chess, Color, Position, Role};
use shakmaty_syzygy::{Tablebase, Wdl};

use crate::{
    engine::uci::Score,
    outcome::{GameOutcome, GameResult, Termination},
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRule {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResignRule {
    pub movecount: u32,
    pub score: i32,
    pub twosided: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MaxMovesResult {
    Draw,
    /// Belmonte's rule: the side with more standard material wins.
    Material,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MaxMovesRule {
    pub moves: u32,
    pub result: MaxMovesResult,
}

/// All adjudication rules of a match (none by default).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdjudicationConfig {
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    pub maxmoves: Option<MaxMovesRule>,
    /// Syzygy directory (`-tb`).
    pub tb_path: Option<PathBuf>,
    /// Largest piece count adjudicated by tables (`-tbpieces`, default: all the tables have).
    pub tb_pieces: Option<usize>,
    /// Cursed wins and blessed losses (won or lost, but drawn by the 50-move rule) count as
    /// decisive (`-tbignore50`). Left out of match fingerprints when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tb_ignore_50: bool,
}

/// The adjudicated outcome of a WDL probe for the side to move `stm`.
fn tb_outcome(wdl: Wdl, stm: Color, ignore_50: bool) -> GameOutcome {
    match wdl {
        Wdl::Win => GameOutcome::win_for(stm),
        Wdl::CursedWin if ignore_50 => GameOutcome::win_for(stm),
        Wdl::Loss => GameOutcome::win_for(!stm),
        Wdl::BlessedLoss if ignore_50 => GameOutcome::win_for(!stm),
        Wdl::Draw | Wdl::CursedWin | Wdl::BlessedLoss => GameOutcome::Draw,
    }
}

fn kv_pairs(text: &str) -> Result<Vec<(String, String)>, String> {
    text.split_whitespace()
        .map(|t| {
            t.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())).ok_or(format!("`{t}` is not key=value"))
        })
        .collect()
}

fn num<T: FromStr>(k: &str, v: &str) -> Result<T, String> {
    v.parse().map_err(|_| format!("`{k}={v}`: expected a number"))
}

impl FromStr for DrawRule {
    type Err = String;
    /// `movenumber=N movecount=M score=S`.
    fn from_str(s: &str) -> Result<Self, String> {
        let mut r = DrawRule { movenumber: 0, movecount: 0, score: 0 };
        let mut seen = (false, false);
        for (k, v) in kv_pairs(s)? {
            match k.as_str() {
                "movenumber" => r.movenumber = num(&k, &v)?,
                "movecount" => (r.movecount, seen.0) = (num(&k, &v)?, true),
                "score" => (r.score, seen.1) = (num(&k, &v)?, true),
                _ => return Err(format!("draw adjudication: unknown key `{k}`")),
            }
        }
        if !(seen.0 && seen.1) || r.movecount == 0 {
            return Err("draw adjudication needs movecount=N (N > 0) and score=S".into());
        }
        Ok(r)
    }
}

impl FromStr for ResignRule {
    type Err = String;
    /// `movecount=N score=S [twosided=true]`.
    fn from_str(s: &str) -> Result<Self, String> {
        let mut r = ResignRule { movecount: 0, score: 0, twosided: false };
        let mut seen = (false, false);
        for (k, v) in kv_pairs(s)? {
            match k.as_str() {
                "movecount" => (r.movecount, seen.0) = (num(&k, &v)?, true),
                "score" => (r.score, seen.1) = (num(&k, &v)?, true),
                "twosided" => {
                    r.twosided = match v.as_str() {
                        "true" | "on" | "1" => true,
                        "false" | "off" | "0" => false,
                        _ => return Err(format!("`twosided={v}`: expected true or false")),
                    }
                }
                _ => return Err(format!("resign adjudication: unknown key `{k}`")),
            }
        }
        if !(seen.0 && seen.1) || r.movecount == 0 || r.score <= 0 {
            return Err("resign adjudication needs movecount=N (N > 0) and score=S (S > 0)".into());
        }
        Ok(r)
    }
}

impl FromStr for MaxMovesRule {
    type Err = String;
    /// `N` or `moves=N [result=draw|material]`.
    fn from_str(s: &str) -> Result<Self, String> {
        if let Ok(n) = s.trim().parse::<u32>() {
            return if n > 0 {
                Ok(MaxMovesRule { moves: n, result: MaxMovesResult::Draw })
            } else {
                Err("max moves must be positive".into())
            };
        }
        let mut r = MaxMovesRule { moves: 0, result: MaxMovesResult::Draw };
        for (k, v) in kv_pairs(s)? {
            match k.as_str() {
                "moves" => r.moves = num(&k, &v)?,
                "result" => {
                    r.result = match v.as_str() {
                        "draw" => MaxMovesResult::Draw,
                        "material" => MaxMovesResult::Material,
                        _ => return Err(format!("`result={v}`: expected draw or material")),
                    }
                }
                _ => return Err(format!("max moves: unknown key `{k}`")),
            }
        }
        if r.moves == 0 {
            return Err("max moves needs moves=N (N > 0)".into());
        }
        Ok(r)
    }
}

/// Standard material count of one side (P=1, N=B=3, R=5, Q=9).
pub fn material(pos: &Chess, color: Color) -> u32 {
    let b = pos.board();
    [(Role::Pawn, 1), (Role::Knight, 3), (Role::Bishop, 3), (Role::Rook, 5), (Role::Queen, 9)]
        .iter()
        .map(|&(role, v)| (b.by_piece(role.of(color)).count() as u32) * v)
        .sum()
}

/// Per-game adjudication state.
pub struct Adjudicator {
    cfg: AdjudicationConfig,
    tb: Option<Arc<Tablebase<Chess>>>,
    draw_count: u32,
    /// Consecutive moves with own score ≤ −S (losing) and ≥ S (winning), per side.
    losing: ByColor<u32>,
    winning: ByColor<u32>,
}

impl Adjudicator {
    pub fn new(cfg: &AdjudicationConfig, tb: Option<Arc<Tablebase<Chess>>>) -> Adjudicator {
        Adjudicator {
            cfg: cfg.clone(),
            tb,
            draw_count: 0,
            losing: ByColor::new_with(|_| 0),
            winning: ByColor::new_with(|_| 0),
        }
    }

    /// Called after `mover` played a move reaching `pos`, `plies` plies into the game.
    pub fn after_move(&mut self, pos: &Chess, mover: Color, score: Option<Score>, plies: u32) -> Option<GameResult> {
        if let Some(r) = self.tablebase(pos) {
            return Some(r);
        }
        let cp = score.map(Score::to_cp);
        if let Some(d) = self.cfg.draw {
            match cp {
                Some(s) if s.abs() <= d.score => self.draw_count += 1,
                _ => self.draw_count = 0,
            }
            if plies / 2 >= d.movenumber && self.draw_count >= 2 * d.movecount {
                return Some(GameResult::new(
                    GameOutcome::Draw,
                    Termination::Adjudication,
                    "Draw by adjudication: scores near zero",
                ));
            }
        }
        if let Some(r) = self.cfg.resign {
            let (l, w) = match cp {
                Some(s) => (s <= -r.score, s >= r.score),
                None => (false, false),
            };
            *self.losing.get_mut(mover) = if l { self.losing.get(mover) + 1 } else { 0 };
            *self.winning.get_mut(mover) = if w { self.winning.get(mover) + 1 } else { 0 };
            let loser_done = *self.losing.get(mover) >= r.movecount;
            let winner_agrees = !r.twosided || *self.winning.get(!mover) >= r.movecount;
            if loser_done && winner_agrees {
                let outcome = GameOutcome::win_for(!mover);
                let reason = format!("{} resigns (adjudication)", side_name(mover));
                return Some(GameResult::new(outcome, Termination::Adjudication, &reason));
            }
        }
        if let Some(m) = self.cfg.maxmoves
            && plies >= 2 * m.moves
        {
            return Some(match m.result {
                MaxMovesResult::Draw => {
                    GameResult::new(GameOutcome::Draw, Termination::Adjudication, "Draw by adjudication: maximum moves")
                }
                MaxMovesResult::Material => {
                    let (w, b) = (material(pos, Color::White), material(pos, Color::Black));
                    let outcome = match w.cmp(&b) {
                        std::cmp::Ordering::Greater => GameOutcome::WhiteWins,
                        std::cmp::Ordering::Less => GameOutcome::BlackWins,
                        std::cmp::Ordering::Equal => GameOutcome::Draw,
                    };
                    let reason = format!("Maximum moves reached, material {w}-{b}");
                    GameResult::new(outcome, Termination::Adjudication, &reason)
                }
            });
        }
        None
    }

    fn tablebase(&self, pos: &Chess) -> Option<GameResult> {
        let tb = self.tb.as_ref()?;
        let pieces = pos.board().occupied().count();
        let limit = self.cfg.tb_pieces.unwrap_or(usize::MAX).min(tb.max_pieces());
        if pos.halfmoves() != 0 || pieces > limit || !pos.castles().is_empty() {
            return None;
        }
        let wdl = tb.probe_wdl_after_zeroing(pos).ok()?;
        let outcome = tb_outcome(wdl, pos.turn(), self.cfg.tb_ignore_50);
        let reason = match outcome {
            GameOutcome::Draw => "Draw by adjudication: SyzygyTB".to_string(),
            o => format!("{} wins by adjudication: SyzygyTB", side_name(o.winner().expect("decisive"))),
        };
        Some(GameResult::new(outcome, Termination::Adjudication, &reason))
    }
}

pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Loads Syzygy tables for adjudication; an empty directory is an error (a typo would otherwise
/// silently disable the rule).
pub fn load_tablebase(path: &std::path::Path) -> Result<Arc<Tablebase<Chess>>, String> {
    let mut tb = Tablebase::new();
    let n = tb.add_directory(path).map_err(|e| format!("Syzygy path `{}`: {e}", path.display()))?;
    if n == 0 {
        return Err(format!("Syzygy path `{}` contains no table files", path.display()));
    }
    Ok(Arc::new(tb))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::parse_fen;

    #[test]
    fn parses_rules() {
        let d: DrawRule = "movenumber=40 movecount=8 score=10".parse().unwrap();
        assert_eq!(d, DrawRule { movenumber: 40, movecount: 8, score: 10 });
        let r: ResignRule = "movecount=3 score=600 twosided=true".parse().unwrap();
        assert!(r.twosided);
        assert!("movecount=3".parse::<ResignRule>().is_err());
        assert!("movecount=3 score=x".parse::<DrawRule>().unwrap_err().contains("score=x"));
        assert_eq!("150".parse::<MaxMovesRule>().unwrap().moves, 150);
        let m: MaxMovesRule = "moves=80 result=material".parse().unwrap();
        assert_eq!(m.result, MaxMovesResult::Material);
        assert!("moves=80 result=coin".parse::<MaxMovesRule>().is_err());
    }

    #[test]
    fn draw_needs_both_sides_for_movecount_moves() {
        let cfg = AdjudicationConfig {
            draw: Some(DrawRule { movenumber: 2, movecount: 2, score: 10 }),
            ..AdjudicationConfig::default()
        };
        let mut a = Adjudicator::new(&cfg, None);
        let pos = Chess::default();
        let mut ply = 0;
        let mut step = |a: &mut Adjudicator, s: i32| {
            ply += 1;
            let mover = if ply % 2 == 1 { Color::White } else { Color::Black };
            a.after_move(&pos, mover, Some(Score::Cp(s)), ply)
        };
        assert!(step(&mut a, 5).is_none());
        assert!(step(&mut a, -5).is_none());
        assert!(step(&mut a, 50).is_none()); // resets
        assert!(step(&mut a, 0).is_none());
        assert!(step(&mut a, 0).is_none());
        assert!(step(&mut a, 0).is_none());
        let r = step(&mut a, 0).unwrap();
        assert_eq!((r.outcome, r.termination), (GameOutcome::Draw, Termination::Adjudication));
    }

    #[test]
    fn resign_one_and_two_sided() {
        let pos = Chess::default();
        let cfg = |twosided| AdjudicationConfig {
            resign: Some(ResignRule { movecount: 2, score: 500, twosided }),
            ..AdjudicationConfig::default()
        };
        let mut a = Adjudicator::new(&cfg(false), None);
        assert!(a.after_move(&pos, Color::White, Some(Score::Cp(-600)), 1).is_none());
        assert!(a.after_move(&pos, Color::Black, Some(Score::Cp(0)), 2).is_none());
        let r = a.after_move(&pos, Color::White, Some(Score::Mate(-3)), 3).unwrap();
        assert_eq!(r.outcome, GameOutcome::BlackWins);
        assert_eq!(r.reason, "White resigns (adjudication)");
        // Two-sided: Black's own scores never agreed, so no adjudication.
        let mut a = Adjudicator::new(&cfg(true), None);
        assert!(a.after_move(&pos, Color::White, Some(Score::Cp(-600)), 1).is_none());
        assert!(a.after_move(&pos, Color::Black, Some(Score::Cp(0)), 2).is_none());
        assert!(a.after_move(&pos, Color::White, Some(Score::Cp(-600)), 3).is_none());
        assert!(a.after_move(&pos, Color::Black, Some(Score::Cp(700)), 4).is_none());
        assert!(a.after_move(&pos, Color::White, Some(Score::Cp(-600)), 5).is_none());
        assert!(a.after_move(&pos, Color::Black, Some(Score::Cp(700)), 6).is_none());
        assert_eq!(a.after_move(&pos, Color::White, Some(Score::Cp(-600)), 7).unwrap().outcome, GameOutcome::BlackWins);
    }

    #[test]
    fn max_moves_by_material() {
        let cfg = AdjudicationConfig {
            maxmoves: Some(MaxMovesRule { moves: 10, result: MaxMovesResult::Material }),
            ..AdjudicationConfig::default()
        };
        let mut a = Adjudicator::new(&cfg, None);
        // White: R + 2P = 7, Black: B + N = 6.
        let pos = parse_fen("4k3/8/2bn4/8/8/8/PP6/R3K3 w - - 0 30").unwrap();
        assert!(a.after_move(&pos, Color::Black, None, 19).is_none());
        let r = a.after_move(&pos, Color::Black, None, 20).unwrap();
        assert_eq!(r.outcome, GameOutcome::WhiteWins);
        assert!(r.reason.contains("7-6"), "{}", r.reason);
    }

    #[test]
    fn tbignore50_makes_cursed_wins_decisive() {
        for ignore in [false, true] {
            assert_eq!(tb_outcome(Wdl::Win, Color::Black, ignore), GameOutcome::BlackWins);
            assert_eq!(tb_outcome(Wdl::Loss, Color::Black, ignore), GameOutcome::WhiteWins);
            assert_eq!(tb_outcome(Wdl::Draw, Color::White, ignore), GameOutcome::Draw);
        }
        assert_eq!(tb_outcome(Wdl::CursedWin, Color::White, false), GameOutcome::Draw);
        assert_eq!(tb_outcome(Wdl::BlessedLoss, Color::White, false), GameOutcome::Draw);
        assert_eq!(tb_outcome(Wdl::CursedWin, Color::White, true), GameOutcome::WhiteWins);
        assert_eq!(tb_outcome(Wdl::BlessedLoss, Color::White, true), GameOutcome::BlackWins);
        // Off, the key stays out of serialised configs (match fingerprints of earlier runs).
        assert!(!serde_json::to_string(&AdjudicationConfig::default()).unwrap().contains("tb_ignore_50"));
    }

    #[test]
    fn syzygy_adjudication() {
        // The repository's fixture holds KQvK, KRvK and KNvK.
        let dir = evochess::data::fixture("syzygy");
        let tb = load_tablebase(&dir).unwrap();
        let cfg = AdjudicationConfig { tb_path: Some(dir), ..AdjudicationConfig::default() };
        let mut a = Adjudicator::new(&cfg, Some(tb));
        let won = parse_fen("8/8/8/8/8/2k5/8/KQ6 b - - 0 1").unwrap(); // KQ v K, black to move
        let r = a.after_move(&won, Color::White, None, 1).unwrap();
        assert_eq!(r.outcome, GameOutcome::WhiteWins);
        let drawn = parse_fen("8/8/8/8/8/2k5/8/KN6 b - - 0 1").unwrap();
        assert_eq!(a.after_move(&drawn, Color::White, None, 1).unwrap().outcome, GameOutcome::Draw);
        let not_zeroed = parse_fen("8/8/8/8/8/2k5/8/KQ6 b - - 3 1").unwrap();
        assert!(a.after_move(&not_zeroed, Color::White, None, 1).is_none());
    }
}
