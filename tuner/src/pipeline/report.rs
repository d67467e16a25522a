//! `<out>/report.md`: every table and chart of David et al. §V from the stages' typed results.

use std::{fmt::Write as _, path::Path, time::Duration};

use arena::{results::PairStats, stats::elo::elo_from_score};
use evochess::params::Params;

use super::config::{MatchPlan, PipelineConfig};
use crate::{
    coevolve::CoevolveOutcome,
    epd::{self, PositionResult},
    evolve::{self, EvolveConfig},
    search_evolve::{NodeCount, SearchEvolveSummary},
    space::SearchSpace,
};
/// Wall time of each stage, for the report.
#[derive(Default)]
pub(super) struct Timings(pub(super) Vec<(&'static str, Duration)>);

/// Solve counts of one engine.
pub(super) struct SuiteRow {
    pub(super) name: String,
    pub(super) results: Vec<PositionResult>,
}

/// A finished verification match.
pub(super) struct MatchRow {
    pub(super) opponent: String,
    pub(super) plan: MatchPlan,
    pub(super) pair: PairStats,
    /// Losses on time (or by illegal move, crash, stall) of (EVOL*, opponent).
    pub(super) forfeits: (u64, u64),
}

/// David et al. Fig. 3 (average evolved values of ten runs, rounded), by gene name.
pub(super) const PAPER_FIG3: &[(&str, i32)] = &[
    ("knight_value", 521),
    ("bishop_value", 572),
    ("rook_value", 824),
    ("queen_value", 1710),
    ("pawn_advance_a", 3),
    ("pawn_advance_b", 6),
    ("passed_pawn_mult", 10),
    ("doubled_pawn_penalty", 14),
    ("isolated_pawn_penalty", 8),
    ("backward_pawn_penalty", 3),
    ("weak_square_penalty", 5),
    ("passed_pawn_enemy_king_dist", 7),
    ("knight_sq_mult", 6),
    ("knight_outpost_mult", 9),
    ("bishop_mobility", 4),
    ("bishop_pair", 28),
    ("rook_attack_king_file", 51),
    ("rook_attack_king_adj_file", 8),
    ("rook_attack_king_adj_file_abgh", 26),
    ("rook_7th_rank", 30),
    ("rook_connected", 6),
    ("rook_mobility", 4),
    ("rook_behind_passed_pawn", 40),
    ("rook_open_file", 27),
    ("rook_semi_open_file", 11),
    ("rook_atck_weak_pawn_open_column", 15),
    ("rook_column_mult", 6),
    ("queen_mobility", 2),
    ("king_no_friendly_pawn", 35),
    ("king_no_friendly_pawn_adj", 10),
    ("king_friendly_pawn_advanced1", 6),
    ("king_no_enemy_pawn", 17),
    ("king_no_enemy_pawn_adj", 9),
    ("king_pressure_mult", 4),
];

/// David et al. Table II (learned search values), by parameter name.
pub(super) const PAPER_TABLE2: &[(&str, i32)] = &[
    ("null_move_use", 1),
    ("null_move_reduction", 4),
    ("null_move_adaptivity_use", 1),
    ("null_move_adaptivity_depth", 6),
    ("futility_depth", 3),
    ("futility_margin_1", 112),
    ("futility_margin_2", 227),
    ("futility_margin_3", 506),
    ("multicut_use", 1),
    ("multicut_reduction", 4),
    ("multicut_depth", 6),
    ("multicut_move_num", 15),
    ("multicut_cut_num", 3),
    ("check_extension", 4),
    ("one_reply_extension", 4),
    ("recapture_extension", 2),
    ("passed_pawn_extension", 3),
    ("mate_threat_extension", 2),
];

pub(super) fn paper(table: &[(&str, i32)], name: &str) -> String {
    table.iter().find(|(n, _)| *n == name).map_or_else(|| "-".into(), |(_, v)| v.to_string())
}

pub(super) struct Report<'a> {
    pub(super) cfg: &'a PipelineConfig,
    pub(super) evolve_cfg: &'a EvolveConfig,
    /// The evolve runs, finished now or before a `--resume`.
    pub(super) evolved: &'a [evolve::runs::RunFile],
    pub(super) space: &'a SearchSpace,
    pub(super) co: &'a CoevolveOutcome,
    pub(super) se: &'a SearchEvolveSummary,
}

/// Copies `src` to `<out>/<name>` so the report's links stay inside its directory.
pub(super) fn copy_chart(out: &Path, src: &Path, name: &str) -> String {
    match std::fs::copy(src, out.join(name)) {
        Ok(_) => format!("![{name}]({name})\n"),
        Err(e) => format!("(chart {} missing: {e})\n", src.display()),
    }
}

impl Report<'_> {
    /// The report: its sections in the paper's order (each its own method, below).
    pub(super) fn render(
        &self,
        suites: &[SuiteRow],
        matches: &[MatchRow],
        skipped: &[String],
        timings: &Timings,
    ) -> anyhow::Result<String> {
        let mut s = String::new();
        self.write_header(&mut s, timings)?;
        self.write_evolution(&mut s)?;
        self.write_parameters(&mut s)?;
        self.write_coevolution(&mut s)?;
        self.write_search(&mut s)?;
        self.write_suites(&mut s, suites)?;
        self.write_matches(&mut s, matches, skipped)?;
        Ok(s)
    }

    /// The title, the configuration and each stage's wall time.
    fn write_header(&self, w: &mut String, timings: &Timings) -> std::fmt::Result {
        let out = &self.cfg.out_dir;
        writeln!(w, "# EVOL* pipeline report\n")?;
        writeln!(
            w,
            "David, Netanyahu & Wolf (2014), §V reproduced with evochess. Configuration: `{}`; engine parameter files in `params/`.\n",
            out.join("evolve.toml").display()
        )?;
        writeln!(w, "| stage | wall time |\n|---|---|")?;
        for (name, d) in &timings.0 {
            writeln!(w, "| {name} | {:.1} s |", d.as_secs_f64())?;
        }
        Ok(())
    }

    /// §V-A: the evolve runs (Fig. 2).
    fn write_evolution(&self, w: &mut String) -> std::fmt::Result {
        let out = &self.cfg.out_dir;
        let ev = self.evolve_cfg;
        writeln!(w, "\n## V-A. Evolution from grandmaster games (Fig. 2)\n")?;
        writeln!(
            w,
            "{} runs, population {}, {} generations, {} training / {} test positions.\n",
            ev.runs, ev.ga.population, ev.ga.generations, ev.positions.train, ev.positions.test
        )?;
        w.push_str(&copy_chart(out, &out.join("evolve/run-1/fitness.svg"), "fig2-evolution-run1.svg"));
        writeln!(w, "\n| run | best: positions solved (train) | test set |\n|---|---|---|")?;
        for r in self.evolved {
            let pct = |v: f64, n: usize| format!("{v} ({:.1}%)", 100.0 * v / n.max(1) as f64);
            writeln!(
                w,
                "| {} | {} | {} |",
                r.outcome.run,
                pct(r.outcome.train_metric, ev.positions.train),
                pct(r.outcome.test_metric, ev.positions.test)
            )?;
        }
        Ok(())
    }

    /// Fig. 3: the evolved evaluation parameters beside the coevolved ones and the paper's.
    fn write_parameters(&self, w: &mut String) -> std::fmt::Result {
        let out = &self.cfg.out_dir;
        let ev = self.evolve_cfg;
        writeln!(w, "\n## Evolved evaluation parameters (Fig. 3)\n")?;
        let runs: Vec<Params> =
            (1..=ev.runs).filter_map(|r| Params::load(out.join(format!("evolved/run-{r}.toml"))).ok()).collect();
        writeln!(
            w,
            "| parameter | mean of {} evolve runs | coevolved (EVOL*) | paper (Fig. 3) |\n|---|---|---|---|",
            runs.len()
        )?;
        for g in &self.space.genes {
            let mean = runs.iter().map(|p| f64::from(p.get(g.keys[0]))).sum::<f64>() / runs.len().max(1) as f64;
            writeln!(
                w,
                "| {} | {:.0} | {} | {} |",
                g.name,
                mean,
                self.co.params.get(g.keys[0]),
                paper(PAPER_FIG3, &g.name)
            )?;
        }
        Ok(())
    }

    /// §V-B: the coevolution, generation by generation.
    fn write_coevolution(&self, w: &mut String) -> std::fmt::Result {
        let out = &self.cfg.out_dir;
        writeln!(w, "\n## V-B. Coevolution\n")?;
        let h = &self.co.history;
        let n = h.first().map_or(0, |g| g.organisms.len());
        let games = h.first().map_or(0, |g| g.games);
        writeln!(w, "{n} organisms, {} generations, {games} games per generation.\n", h.len())?;
        w.push_str(&copy_chart(out, &out.join("coevolve/coevolution.svg"), "coevolution.svg"));
        writeln!(
            w,
            "\n| generation | best | points | score | Elo vs field (95% CI) | Elo vs generation 0's champion | mean score | worst score |\n|---|---|---|---|---|---|---|---|"
        )?;
        for g in h {
            let b = &g.organisms[g.best];
            let elo =
                b.elo.filter(|e| e.elo.is_finite()).map_or("-".into(), |e| format!("{:+.0} ± {:.0}", e.elo, e.error));
            let reference = match (&g.reference, g.generation) {
                (_, 0) => "0 (itself)".to_string(),
                (Some(r), _) => r.elo.map_or_else(
                    || format!("{}/{}", r.points, r.games),
                    |e| format!("{:+.0} ± {:.0} ({}/{})", e.elo, e.error, r.points, r.games),
                ),
                (None, _) => "-".to_string(),
            };
            writeln!(
                w,
                "| {} | {} | {}/{} | {:.1}% | {elo} | {reference} | {:.1}% | {:.1}% |",
                g.generation,
                g.best_name,
                b.points,
                b.games,
                100.0 * g.best_score(),
                100.0 * g.mean_score(),
                100.0 * g.worst_score()
            )?;
        }
        writeln!(w, "\nCross tables: `coevolve/gen-NNN/crosstable.csv`; games: `coevolve/gen-NNN/games.pgn`.")?;
        Ok(())
    }

    /// §V-C: the evolution of the search parameters (Fig. 4, Table II).
    fn write_search(&self, w: &mut String) -> std::fmt::Result {
        let out = &self.cfg.out_dir;
        let se = self.se;
        writeln!(w, "\n## V-C. Evolution of search parameters (Fig. 4)\n")?;
        w.push_str(&copy_chart(out, &out.join("search-evolve/nodes.svg"), "fig4-search-nodes.svg"));
        writeln!(w, "\nNode cap {} per position; {} generations.\n", se.node_cap, se.generations)?;
        writeln!(
            w,
            "| search parameters | training nodes | solved | held-out nodes | solved |\n|---|---|---|---|---|"
        )?;
        let row = |w: &mut String, label: &str, c: &(NodeCount, NodeCount)| {
            let _ = writeln!(
                w,
                "| {label} | {} | {}/{} | {} | {}/{} |",
                c.0.nodes, c.0.solved, c.0.positions, c.1.nodes, c.1.solved, c.1.positions
            );
        };
        row(w, "random initial best", &se.initial_best);
        row(w, "evolved (EVOL*)", &se.final_best);
        row(w, "params/default.toml", &se.default_search);
        writeln!(w, "\n### Learned search values (Table II)\n")?;
        writeln!(w, "| parameter | evolved | params/default.toml | paper (Table II) |\n|---|---|---|---|")?;
        for ((name, v), (_, d)) in se.values.iter().zip(&se.default_values) {
            writeln!(w, "| {name} | {v} | {d} | {} |", paper(PAPER_TABLE2, name))?;
        }
        Ok(())
    }

    /// Tables III and VII: each engine's suite solve counts.
    fn write_suites(&self, w: &mut String, suites: &[SuiteRow]) -> std::fmt::Result {
        let v = &self.cfg.verify;
        let limit = match (v.epd_movetime, v.epd_nodes) {
            (Some(t), _) => format!("{t} s per position"),
            (None, Some(n)) => format!("{n} nodes per position"),
            _ => "-".into(),
        };
        writeln!(w, "\n## Suite solve counts (Tables III and VII), {limit}\n")?;
        let suite_names: Vec<String> = suites
            .first()
            .map(|r| epd::summarize(&r.results).into_iter().map(|s| s.suite).collect())
            .unwrap_or_default();
        write!(w, "| engine |")?;
        for sname in &suite_names {
            write!(w, " {sname} |")?;
        }
        writeln!(w, " total |")?;
        writeln!(w, "|---|{}---|", "---|".repeat(suite_names.len()))?;
        for r in suites {
            write!(w, "| {} |", r.name)?;
            for sum in epd::summarize(&r.results) {
                write!(w, " {}/{} |", sum.solved, sum.total)?;
            }
            writeln!(w, " {}/{} |", r.results.iter().filter(|x| x.solved).count(), r.results.len())?;
        }
        Ok(())
    }

    /// Tables IV–VI: EVOL*'s matches, and the opponents skipped.
    fn write_matches(&self, w: &mut String, matches: &[MatchRow], skipped: &[String]) -> std::fmt::Result {
        writeln!(w, "\n## Matches (Tables IV–VI)\n")?;
        writeln!(
            w,
            "RD is David's Appendix B: RD = −400·log10(1/W − 1) for the winning rate W; the interval is the 95% \
             trinomial interval mapped through the same formula; the pentanomial estimate uses the game pairs.\n"
        )?;
        writeln!(
            w,
            "| match | time control | result (W-D-L) | points | W% | RD (App. B) | 95% CI | pentanomial Elo | forfeits (EVOL* - opponent) |\n|---|---|---|---|---|---|---|---|---|"
        )?;
        for m in matches {
            let p = &m.pair;
            let wr = p.wdl.score();
            let rd = elo_from_score(wr);
            // A 0% or 100% score has no finite Elo or interval.
            let finite = |e: &arena::stats::EloEstimate| e.elo.is_finite() && e.error.is_finite();
            let ci = p.elo.filter(finite).map_or("-".into(), |e| format!("± {:.1}", e.error));
            let penta = p.penta_elo.filter(finite).map_or("-".into(), |e| format!("{:+.1} ± {:.1}", e.elo, e.error));
            writeln!(
                w,
                "| EVOL* - {} | {} | {}-{}-{} | {:.1} - {:.1} | {:.1}% | {:+.1} | {ci} | {penta} | {} - {} |",
                m.opponent,
                m.plan.describe(),
                p.wdl.wins,
                p.wdl.draws,
                p.wdl.losses,
                p.points,
                p.games as f64 - p.points,
                100.0 * wr,
                rd,
                m.forfeits.0,
                m.forfeits.1
            )?;
        }
        for sk in skipped {
            writeln!(w, "\nSkipped: {sk}.")?;
        }
        writeln!(w, "\nPGN of every match: `matches/*.pgn`.")?;
        Ok(())
    }
}
