//! `-output format=fastchess`: fastchess's rating block, line for line as its
//! `app/src/matchmaking/output/output_fastchess.hpp` prints it for a head-to-head match:
//!
//! ```text
//! --------------------------------------------------
//! Results of New vs Base (0.601+0.006, 1t, 16MB, UHO_Lichess_4852_v1.epd):
//! Elo: -9.20 +/- 20.93, nElo: -11.50 +/- 26.11
//! LOS: 19.41 %, DrawRatio: 42.35 %, PairsRatio: 0.88
//! Games: 680, Wins: 248, Losses: 266, Draws: 166, Points: 331.0 (48.68 %)
//! Ptnml(0-2): [43, 61, 144, 55, 37], WL/DD Ratio: 4.76
//! LLR: 1.23 (41.8%) (-2.94, 2.94) [0.00, 5.00]
//! --------------------------------------------------
//! ```
//!
//! With pentanomial reports (the default, when games come in pairs) the Elo, nElo, LOS and
//! draw ratio are taken over pairs and the `Ptnml` line is printed; without them
//! (`-report penta=false`, unpaired games, or the bayesian SPRT model) they are taken over games
//! and `PairsRatio` and `Ptnml` are left out. The LLR line appears with `-sprt`, followed by
//! what its bounds are measured in (`[0.00, 5.00] normalized Elo`; fastchess prints no model).
//! Numbers are formatted as fastchess's fmt formats them, with one departure: fastchess prints
//! what its formulas give, `inf +/- nan` after a few games all won and `nan` for 0/0 ratios;
//! here an infinite Elo has no margin (`+inf (every game won)`, see
//! [`arena::stats::elo::elo_text`]) and an undefined figure is `n/a`. fishtest's worker
//! (`worker/games.py`) reads only the `Games:` and `Ptnml(0-2):` lines of this block, with
//! regexes.
//! With more than two engines each pairing gets a block of its own (fastchess prints a ranking
//! table instead).

use arena::{
    engine::{spec::EngineSpec, uci::OptionDecl},
    results::{PairStats, SprtStatus},
    stats::elo::elo_text,
    tc::SearchLimits,
};

const RULE: &str = "--------------------------------------------------\n";

/// What the `Results of` line says about each engine and the book.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Labels {
    /// Per engine, in configuration order: time control, `Threads`, `Hash`.
    pub engines: Vec<EngineLabel>,
    /// The opening file's name without its directory; empty without a book.
    pub book: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineLabel {
    pub tc: String,
    pub threads: String,
    pub hash: String,
}

impl EngineLabel {
    /// `declared` are the options the engine declared after `uci` (`None`: unknown, as when it
    /// could not be started); Threads and Hash show the value it plays with, `NULL` when it has
    /// no such option (fastchess's spelling).
    pub fn new(spec: &EngineSpec, declared: Option<&[OptionDecl]>) -> EngineLabel {
        let value = |name: &str, unit: &str| {
            let set = spec.options.iter().find(|(n, _)| n.trim().eq_ignore_ascii_case(name)).map(|(_, v)| v.clone());
            let default = declared
                .and_then(|d| d.iter().find(|o| o.name.eq_ignore_ascii_case(name)))
                .map(|o| o.default.clone().unwrap_or_default());
            match set.or(default) {
                Some(v) => format!("{v}{unit}"),
                None => "NULL".to_string(),
            }
        };
        EngineLabel { tc: time_label(&spec.limits), threads: value("Threads", "t"), hash: value("Hash", "MB") }
    }
}

impl Labels {
    /// `Results of A vs B (tc, threads, hash[, book]):`, each of the three given once when both
    /// engines agree and as `a - b` when they do not.
    fn header(&self, p: &PairStats) -> String {
        let (a, b) = (self.engines.get(p.first), self.engines.get(p.second));
        let both = |f: fn(&EngineLabel) -> &str| {
            let (x, y) = (a.map_or("", f), b.map_or("", f));
            if x == y { x.to_string() } else { format!("{x} - {y}") }
        };
        let book = if self.book.is_empty() { String::new() } else { format!(", {}", self.book) };
        format!(
            "Results of {} vs {} ({}, {}, {}{book}):",
            p.first_name,
            p.second_name,
            both(|e| e.tc.as_str()),
            both(|e| e.threads.as_str()),
            both(|e| e.hash.as_str())
        )
    }
}

/// The book's file name as fastchess shows it: what follows the last `/` or `\`.
pub fn book_label(path: &str) -> String {
    path.rsplit(['/', '\\']).next().unwrap_or_default().to_string()
}

/// fastchess's time-control label: `[moves/]secs[+inc]`, `secs/move`, `N plies` (depth) or
/// `N nodes`, the first that applies; empty without any.
pub fn time_label(l: &SearchLimits) -> String {
    if let Some(c) = l.clock {
        let moves = c.moves.map(|m| format!("{m}/")).unwrap_or_default();
        let inc = if c.inc_ms > 0 { format!("+{}", general2(c.inc_ms as f64 / 1000.0)) } else { String::new() };
        format!("{moves}{}{inc}", c.base_ms as f64 / 1000.0)
    } else if let Some(ms) = l.movetime_ms {
        format!("{}/move", ms as f64 / 1000.0)
    } else if let Some(d) = l.depth {
        format!("{d} plies")
    } else if let Some(n) = l.nodes {
        format!("{n} nodes")
    } else {
        String::new()
    }
}

/// `{:.N}` as fmt prints a double (the same digits as Rust), but NaN, a 0/0 of the formulas,
/// is `n/a`.
fn fixed(x: f64, decimals: usize) -> String {
    if x.is_nan() { "n/a".to_string() } else { format!("{x:.decimals$}") }
}

/// A percentage, `12.34 %`; `n/a` without the sign when undefined.
fn percent(x: f64) -> String {
    if x.is_nan() { "n/a".to_string() } else { format!("{x:.2} %") }
}

/// C's `%.2g` (fmt's `{:.2g}`, fastchess's increment): two significant digits, trailing zeros
/// dropped, exponent form below 1e-4 and from 100 on.
fn general2(x: f64) -> String {
    fn trim(s: &str) -> &str {
        if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.') } else { s }
    }
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    // The exponent after rounding to two digits decides the form, as in C.
    let sci = format!("{x:.1e}");
    let (mantissa, exp) = sci.split_once('e').expect("exponent form");
    let exp: i32 = exp.parse().expect("integer exponent");
    if (-4..2).contains(&exp) {
        let decimals = (1 - exp) as usize;
        trim(&format!("{x:.decimals$}")).to_string()
    } else {
        format!("{}e{}{:02}", trim(mantissa), if exp < 0 { '-' } else { '+' }, exp.abs())
    }
}

/// One pairing's block, rules included; `penta` asks for the pentanomial figures (used only
/// when the pairing has pairs).
pub fn block(p: &PairStats, labels: &Labels, penta: bool, sprt: Option<&SprtStatus>) -> String {
    let penta = penta && p.penta.pairs() > 0;
    let (w, d, l) = (p.wdl.wins, p.wdl.draws, p.wdl.losses);
    let games = w + d + l;
    let points = w as f64 + 0.5 * d as f64;
    let (elo, draw_ratio) = if penta {
        let pairs = p.penta.pairs() as f64;
        (p.penta.fastchess(), (p.penta.wl + p.penta.dd) as f64 / pairs * 100.0)
    } else {
        (p.wdl.fastchess(), d as f64 / games as f64 * 100.0)
    };
    let mut s = String::from(RULE);
    s.push_str(&labels.header(p));
    s.push('\n');
    s.push_str(&format!("Elo: {}, nElo: {}\n", elo_text(elo.elo, elo.error, 2), elo_text(elo.nelo, elo.nelo_error, 2)));
    let pairs_ratio = if penta {
        let q = &p.penta;
        format!(", PairsRatio: {}", fixed((q.ww + q.wd) as f64 / (q.ld + q.ll) as f64, 2))
    } else {
        String::new()
    };
    s.push_str(&format!("LOS: {}, DrawRatio: {}{pairs_ratio}\n", percent(elo.los * 100.0), percent(draw_ratio)));
    s.push_str(&format!(
        "Games: {games}, Wins: {w}, Losses: {l}, Draws: {d}, Points: {} ({} %)\n",
        fixed(points, 1),
        fixed(points / games as f64 * 100.0, 2)
    ));
    if penta {
        let b = p.penta.buckets();
        s.push_str(&format!(
            "Ptnml(0-2): [{}, {}, {}, {}, {}], WL/DD Ratio: {}\n",
            b[0],
            b[1],
            b[2],
            b[3],
            b[4],
            fixed(p.penta.wl as f64 / p.penta.dd as f64, 2)
        ));
    }
    if let Some(st) = sprt {
        s.push_str(&llr_line(st));
    }
    s.push_str(RULE);
    s
}

/// `LLR: 2.95 (100.2%) (-2.94, 2.94) [0.00, 5.00] normalized Elo`: fastchess's line and the
/// model its bounds are in.
pub fn llr_line(st: &SprtStatus) -> String {
    format!(
        "LLR: {} ({}%) ({}, {}) [{}, {}] {}\n",
        fixed(st.llr, 2),
        fixed(st.fraction() * 100.0, 1),
        fixed(st.lower, 2),
        fixed(st.upper, 2),
        fixed(st.elo0, 2),
        fixed(st.elo1, 2),
        st.model.unit()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `text` has the word NaN, in any case.
    fn has_nan(text: &str) -> bool {
        text.split(|c: char| !c.is_alphanumeric()).any(|w| w.eq_ignore_ascii_case("nan"))
    }
    use arena::{
        stats::{Penta, SprtDecision, SprtModel, Wdl},
        tc::ClockTc,
    };

    fn pair(wdl: Wdl, penta: Penta) -> PairStats {
        PairStats {
            first: 0,
            second: 1,
            first_name: "New-e443b2459e".into(),
            second_name: "Base-e443b2459e".into(),
            wdl,
            penta,
            elo: wdl.elo(),
            penta_elo: penta.elo(),
            points: wdl.wins as f64 + wdl.draws as f64 / 2.0,
            games: wdl.games(),
        }
    }

    /// The block fishtest's worker quotes (worker/games.py, `parse_fastchess_output`) as real
    /// fastchess output: W/L/D 248/266/166 and Ptnml [43, 61, 144, 55, 37] with WL/DD 4.76,
    /// i.e. WL 119, DD 25. The Elo figures were also recomputed in python3 from the formulas.
    #[test]
    fn reproduces_a_real_fastchess_block() {
        let p =
            pair(Wdl { wins: 248, draws: 166, losses: 266 }, Penta { ll: 43, ld: 61, dd: 25, wl: 119, wd: 55, ww: 37 });
        let clock = ClockTc { moves: None, base_ms: 601, inc_ms: 6 };
        let spec = EngineSpec {
            limits: SearchLimits { clock: Some(clock), ..SearchLimits::default() },
            options: vec![("Threads".into(), "1".into()), ("Hash".into(), "16".into())],
            ..EngineSpec::default()
        };
        let labels = Labels {
            engines: vec![EngineLabel::new(&spec, None); 2],
            book: book_label("/books/UHO_Lichess_4852_v1.epd"),
        };
        assert_eq!(
            block(&p, &labels, true, None),
            "--------------------------------------------------\n\
             Results of New-e443b2459e vs Base-e443b2459e (0.601+0.006, 1t, 16MB, UHO_Lichess_4852_v1.epd):\n\
             Elo: -9.20 +/- 20.93, nElo: -11.50 +/- 26.11\n\
             LOS: 19.41 %, DrawRatio: 42.35 %, PairsRatio: 0.88\n\
             Games: 680, Wins: 248, Losses: 266, Draws: 166, Points: 331.0 (48.68 %)\n\
             Ptnml(0-2): [43, 61, 144, 55, 37], WL/DD Ratio: 4.76\n\
             --------------------------------------------------\n"
        );
        // Without pentanomial reports: figures over games (python3, same formulas:
        // Elo −9.20 ± 22.74, nElo −10.58 ± 26.11, LOS 21.35 %, draws 166/680).
        let tri = block(&p, &labels, false, None);
        let lines: Vec<&str> = tri.lines().collect();
        assert_eq!(lines[2], "Elo: -9.20 +/- 22.74, nElo: -10.58 +/- 26.11");
        assert_eq!(lines[3], "LOS: 21.35 %, DrawRatio: 24.41 %");
        assert!(!tri.contains("Ptnml") && !tri.contains("PairsRatio"), "{tri}");
    }

    #[test]
    fn llr_line_and_degenerate_samples() {
        let st = SprtStatus {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            llr: -1.472_219_49,
            lower: -2.944_438_979,
            upper: 2.944_438_979,
            decision: SprtDecision::Continue,
            model: SprtModel::Normalized,
        };
        assert_eq!(llr_line(&st), "LLR: -1.47 (-50.0%) (-2.94, 2.94) [0.00, 5.00] normalized Elo\n");
        let bayes = SprtStatus { model: SprtModel::Bayesian, ..st.clone() };
        assert_eq!(llr_line(&bayes), "LLR: -1.47 (-50.0%) (-2.94, 2.94) [0.00, 5.00] BayesElo\n");
        // Only wins: fastchess prints `Elo: inf +/- nan, nElo: inf +/- nan` and a WL/DD ratio of
        // `nan` (0/0); here the Elo has no margin and the undefined ratio is n/a.
        let p = pair(Wdl { wins: 4, draws: 0, losses: 0 }, Penta { ww: 2, ..Penta::default() });
        let text = block(&p, &Labels::default(), true, Some(&st));
        assert!(!has_nan(&text), "{text}");
        assert!(text.contains("Elo: +inf (every game won), nElo: +inf (every game won)\n"), "{text}");
        assert!(text.contains("LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf\n"), "{text}");
        assert!(text.contains("Ptnml(0-2): [0, 0, 0, 0, 2], WL/DD Ratio: n/a\n"), "{text}");
        assert!(text.contains("Results of New-e443b2459e vs Base-e443b2459e (, , ):"), "{text}");
        assert!(text.contains("LLR: -1.47"), "{text}");
        // Draws only: no variance, so nElo and LOS are 0/0.
        let p = pair(Wdl { wins: 0, draws: 2, losses: 0 }, Penta { dd: 1, ..Penta::default() });
        let text = block(&p, &Labels::default(), true, None);
        assert!(!has_nan(&text), "{text}");
        assert!(text.contains("Elo: 0.00 +/- 0.00, nElo: n/a\n"), "{text}");
        assert!(text.contains("LOS: n/a, DrawRatio: 100.00 %, PairsRatio: n/a\n"), "{text}");
    }

    #[test]
    fn labels_as_fastchess_writes_them() {
        let clock = |moves, base_ms, inc_ms| SearchLimits {
            clock: Some(ClockTc { moves, base_ms, inc_ms }),
            ..SearchLimits::default()
        };
        assert_eq!(time_label(&clock(None, 8000, 80)), "8+0.08");
        assert_eq!(time_label(&clock(Some(40), 60_000, 0)), "40/60");
        assert_eq!(time_label(&clock(None, 10_000, 125)), "10+0.12");
        assert_eq!(time_label(&clock(None, 60_000, 100_000)), "60+1e+02");
        assert_eq!(time_label(&SearchLimits { movetime_ms: Some(250), ..SearchLimits::default() }), "0.25/move");
        let nodes = SearchLimits { nodes: Some(1500), ..SearchLimits::default() };
        assert_eq!(time_label(&nodes), "1500 nodes");
        assert_eq!(time_label(&SearchLimits { depth: Some(3), ..nodes }), "3 plies");
        assert_eq!(time_label(&SearchLimits::default()), "");
        // C's %.2g (python3 '%.2g' % x gives the same).
        for (x, want) in [(0.006, "0.006"), (1.0, "1"), (1.5, "1.5"), (2.25, "2.2"), (9.96, "10"), (1e-5, "1e-05")] {
            assert_eq!(general2(x), want, "{x}");
        }
        assert_eq!(fixed(f64::NAN, 2), "n/a");
        assert_eq!(fixed(f64::NEG_INFINITY, 2), "-inf");
        // Declared defaults, overridden by option.X=; NULL when the engine has no such option.
        let declared = [OptionDecl { name: "Hash".into(), kind: "spin".into(), default: Some("16".into()) }];
        let spec = EngineSpec { options: vec![("hash".into(), "64".into())], ..EngineSpec::default() };
        let l = EngineLabel::new(&spec, Some(&declared));
        assert_eq!((l.threads.as_str(), l.hash.as_str()), ("NULL", "64MB"));
        let l = EngineLabel::new(&EngineSpec::default(), Some(&declared));
        assert_eq!(l.hash, "16MB");
        let other = EngineLabel { tc: "1500 nodes".into(), ..l.clone() };
        let labels = Labels { engines: vec![l, other], book: String::new() };
        let p = pair(Wdl { wins: 1, draws: 0, losses: 1 }, Penta::default());
        assert_eq!(labels.header(&p), "Results of New-e443b2459e vs Base-e443b2459e ( - 1500 nodes, NULL, 16MB):");
        assert_eq!(book_label("C:\\books\\a.epd"), "a.epd");
        assert_eq!(book_label("a.pgn"), "a.pgn");
    }
}
