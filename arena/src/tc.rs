//! Time controls in cutechess notation and the clock that enforces them.
//!
//! `tc=40/60+0.6` (40 moves in 60 s, 0.6 s increment), `tc=10+0.1`, `tc=1:30`, `tc=inf`;
//! `st=0.5` (fixed time per move); `nodes=`/`depth=` limits may be added to either.
//! A side that uses more than its clock plus `timemargin` forfeits (cutechess semantics:
//! the margin only excuses the overrun, the clock sent to the engine never goes below zero).

use std::{fmt, str::FromStr, time::Duration};

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A malformed `tc=`/`st=` value.
#[derive(Debug, Error, PartialEq)]
#[error("malformed time control `{text}`: {reason}")]
pub struct TcError {
    pub text: String,
    pub reason: String,
}

fn tc_err(text: &str, reason: impl Into<String>) -> TcError {
    TcError { text: text.to_string(), reason: reason.into() }
}

/// A clock time control: `[moves/]base[+inc]`, times in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockTc {
    /// Moves per period (`movestogo`), `None` for sudden death (with increment).
    pub moves: Option<u32>,
    pub base_ms: u64,
    pub inc_ms: u64,
}

/// Parses a number of seconds (`10`, `0.6`, `1:30`) into milliseconds.
fn parse_seconds(full: &str, s: &str) -> Result<u64, TcError> {
    let (min, sec) = match s.split_once(':') {
        Some((m, sec)) => (m.parse::<u64>().map_err(|_| tc_err(full, format!("bad minutes `{m}`")))?, sec),
        None => (0, s),
    };
    let secs: f64 = sec.parse().map_err(|_| tc_err(full, format!("bad seconds `{sec}`")))?;
    if !secs.is_finite() || secs < 0.0 {
        return Err(tc_err(full, format!("seconds must be non-negative, got `{sec}`")));
    }
    Ok(min * 60_000 + (secs * 1000.0).round() as u64)
}

impl FromStr for ClockTc {
    type Err = TcError;
    fn from_str(text: &str) -> Result<Self, TcError> {
        let s = text.trim();
        if s.is_empty() {
            return Err(tc_err(text, "empty"));
        }
        let (moves, rest) = match s.split_once('/') {
            Some((m, rest)) => {
                let n: u32 = m.parse().map_err(|_| tc_err(text, format!("bad move count `{m}`")))?;
                if n == 0 {
                    return Err(tc_err(text, "move count must be positive"));
                }
                (Some(n), rest)
            }
            None => (None, s),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (parse_seconds(text, b)?, parse_seconds(text, i)?),
            None => (parse_seconds(text, rest)?, 0),
        };
        if base == 0 && inc == 0 {
            return Err(tc_err(text, "no time at all"));
        }
        if base == 0 && moves.is_some() {
            return Err(tc_err(text, "a moves/time control needs a base time"));
        }
        Ok(ClockTc { moves, base_ms: base, inc_ms: inc })
    }
}

fn fmt_secs(ms: u64) -> String {
    if ms.is_multiple_of(1000) { format!("{}", ms / 1000) } else { format!("{}", ms as f64 / 1000.0) }
}

impl fmt::Display for ClockTc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", fmt_secs(self.base_ms))?;
        if self.inc_ms > 0 {
            write!(f, "+{}", fmt_secs(self.inc_ms))?;
        }
        Ok(())
    }
}

/// Parses `st=` seconds into milliseconds.
pub fn parse_movetime(text: &str) -> Result<u64, TcError> {
    let ms = parse_seconds(text, text.trim())?;
    if ms == 0 {
        return Err(tc_err(text, "move time must be positive"));
    }
    Ok(ms)
}

/// Everything that bounds one engine's search in a game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchLimits {
    /// `tc=`: a game clock.
    pub clock: Option<ClockTc>,
    /// `st=`: fixed milliseconds per move (`go movetime`).
    pub movetime_ms: Option<u64>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// `timemargin=`: milliseconds an engine may overrun its clock before it forfeits.
    pub margin_ms: u64,
}

impl SearchLimits {
    /// True when nothing but a node or depth limit (or nothing at all) bounds the search.
    pub fn is_untimed(&self) -> bool {
        self.clock.is_none() && self.movetime_ms.is_none()
    }

    /// The PGN `TimeControl` tag value (`40/60+0.6`, `0.5/move`, `-` when untimed).
    pub fn pgn_tag(&self) -> String {
        if let Some(c) = self.clock {
            return c.to_string();
        }
        if let Some(ms) = self.movetime_ms {
            return format!("{}/move", fmt_secs(ms));
        }
        "-".to_string()
    }
}

/// One side's clock during a game.
#[derive(Clone, Debug)]
pub struct Clock {
    limits: SearchLimits,
    left_ms: i64,
    moves_made: u32,
}

/// What `go` needs from both clocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoTimes {
    pub wtime: u64,
    pub btime: u64,
    pub winc: u64,
    pub binc: u64,
    pub movestogo: Option<u32>,
}

impl Clock {
    pub fn new(limits: &SearchLimits) -> Clock {
        let left_ms = limits.clock.map_or(0, |c| c.base_ms as i64);
        Clock { limits: limits.clone(), left_ms, moves_made: 0 }
    }

    pub fn limits(&self) -> &SearchLimits {
        &self.limits
    }

    /// Milliseconds left, never negative (what `go wtime` gets: cutechess #281).
    pub fn left_ms(&self) -> u64 {
        self.left_ms.max(0) as u64
    }

    /// Moves until the next time control, if the control has a move count.
    pub fn movestogo(&self) -> Option<u32> {
        let period = self.limits.clock?.moves?;
        Some(period - self.moves_made % period)
    }

    /// How long the engine may think before it forfeits (or stalls, for untimed searches).
    /// `stall` is used when nothing else bounds the search.
    pub fn deadline(&self, stall: Duration) -> Duration {
        let margin = self.limits.margin_ms;
        if self.limits.clock.is_some() {
            Duration::from_millis(self.left_ms() + margin)
        } else if let Some(st) = self.limits.movetime_ms {
            Duration::from_millis(st + margin)
        } else {
            stall
        }
    }

    /// Books a move that took `elapsed`. Returns false if the engine ran out of time.
    pub fn spend(&mut self, elapsed: Duration) -> bool {
        let ms = elapsed.as_millis() as i64;
        let margin = self.limits.margin_ms as i64;
        self.moves_made += 1;
        if let Some(c) = self.limits.clock {
            let over = ms > self.left_ms + margin;
            self.left_ms -= ms;
            if over {
                return false;
            }
            // A margin-excused overrun leaves the clock at zero, not below.
            self.left_ms = self.left_ms.max(0) + c.inc_ms as i64;
            if let Some(period) = c.moves
                && self.moves_made.is_multiple_of(period)
            {
                self.left_ms += c.base_ms as i64;
            }
            true
        } else if let Some(st) = self.limits.movetime_ms {
            ms <= st as i64 + margin
        } else {
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_cutechess_forms() {
        assert_eq!("40/60+0.6".parse(), Ok(ClockTc { moves: Some(40), base_ms: 60_000, inc_ms: 600 }));
        assert_eq!("10+0.1".parse(), Ok(ClockTc { moves: None, base_ms: 10_000, inc_ms: 100 }));
        assert_eq!("1:30".parse(), Ok(ClockTc { moves: None, base_ms: 90_000, inc_ms: 0 }));
        assert_eq!("0+1".parse(), Ok(ClockTc { moves: None, base_ms: 0, inc_ms: 1000 }));
        assert_eq!("40/60+0.6".parse::<ClockTc>().unwrap().to_string(), "40/60+0.6");
        assert_eq!("10+0.1".parse::<ClockTc>().unwrap().to_string(), "10+0.1");
    }

    #[test]
    fn rejects_malformed() {
        for bad in ["", "abc", "10+", "/10", "0/10", "-5", "10+x", "0", "40/0+1", "1:xx"] {
            let e = bad.parse::<ClockTc>().unwrap_err();
            assert!(e.to_string().contains("malformed time control"), "{bad}: {e}");
        }
        assert!(parse_movetime("0").is_err());
        assert_eq!(parse_movetime("0.05"), Ok(50));
    }

    #[test]
    fn clock_accounting_with_periods_and_margin() {
        let limits = SearchLimits { clock: Some("2/1+0.1".parse().unwrap()), margin_ms: 50, ..SearchLimits::default() };
        let mut c = Clock::new(&limits);
        assert_eq!(c.movestogo(), Some(2));
        assert!(c.spend(Duration::from_millis(400)));
        assert_eq!(c.left_ms(), 700);
        assert_eq!(c.movestogo(), Some(1));
        // End of the period: the base time is added again.
        assert!(c.spend(Duration::from_millis(200)));
        assert_eq!(c.left_ms(), 1600);
        assert_eq!(c.movestogo(), Some(2));
        // Overrun within the margin: not a loss, clock clamps at zero plus the increment.
        assert!(c.spend(Duration::from_millis(1640)));
        assert_eq!(c.left_ms(), 100);
        assert!(!c.spend(Duration::from_millis(151)));
    }

    #[test]
    fn movetime_limit() {
        let limits = SearchLimits { movetime_ms: Some(100), margin_ms: 10, ..SearchLimits::default() };
        let mut c = Clock::new(&limits);
        assert_eq!(c.deadline(Duration::from_secs(9)), Duration::from_millis(110));
        assert!(c.spend(Duration::from_millis(110)));
        assert!(!c.spend(Duration::from_millis(111)));
        let untimed = Clock::new(&SearchLimits { nodes: Some(5), ..SearchLimits::default() });
        assert_eq!(untimed.deadline(Duration::from_secs(9)), Duration::from_secs(9));
    }
}
