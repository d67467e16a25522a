//! What a match prints: the progress bar and game lines as it goes, the rating reports in
//! cutechess's or fastchess's style, and the summary at its end.

use std::time::Duration;

use anyhow::bail;
use arena::{
    engine::{client::EngineClient, transport::Timeouts},
    game::{GameRecord, SearchWarning},
    results::{MatchResults, PairStats, SprtStatus, Standings, rating_report},
    runner::{MatchConfig, MatchObserver},
    stats::Sprt,
};

use crate::{
    cli::{
        fastchess_out::{self, EngineLabel, Labels, book_label},
        latency::Latencies,
        saved_match::Saving,
    },
    progress::Progress,
};

/// Progress bar, a line per game and the rating report every `interval` games.
pub(super) struct CliObserver {
    pub(super) bar: Progress,
    pub(super) interval: u64,
    /// Games counted at the last rating report: standings grow a pair at a time, so a count can
    /// be seen twice, and the final summary already reports the last one.
    pub(super) reported: u64,
    pub(super) planned: u64,
    pub(super) sprt: Option<Sprt>,
    pub(super) quiet: bool,
    /// Pentanomial figures in reports (`-report penta=`, off for the bayesian SPRT model).
    pub(super) penta: bool,
    /// fastchess's report blocks instead of cutechess's (`-output format=fastchess`).
    pub(super) fastchess: Option<Labels>,
    /// The -config file the standings are saved to.
    pub(super) saving: Option<Saving>,
    /// Each engine's think latencies (`-show-latency`).
    pub(super) latency: Option<Latencies>,
}

impl CliObserver {
    pub(super) fn say(&self, text: &str) {
        self.bar.suspend(|| println!("{text}"));
    }

    /// Saves the standings to the -config file when due. A failed save is only warned about:
    /// every finished pair is in the journal already, which is what a resume reads.
    fn autosave(&mut self, standings: &Standings) {
        if let Some(saving) = &mut self.saving
            && let Err(e) = saving.after_games(standings)
        {
            log::warn!("{}", evochess::error_chain(e.as_ref()));
        }
    }
}

impl MatchObserver for CliObserver {
    fn on_start(&mut self, planned: u64, done: u64, standings: &Standings) {
        self.bar.set_length(planned);
        self.bar.skip_to(done);
        (self.planned, self.reported) = (planned, done);
        if done > 0 {
            self.say(&format!("Resuming: {done} of {planned} games already played"));
        }
        self.autosave(standings);
    }

    fn on_game(&mut self, g: &GameRecord, s: &Standings) {
        self.bar.inc(1);
        if !self.quiet {
            self.say(&format!(
                "Finished game {} ({} vs {}): {} {{{}}}",
                g.game_number,
                g.white,
                g.black,
                g.result.outcome.pgn(),
                g.result.reason
            ));
        }
        // Standings grow a unit (game pair) at a time, so they already hold the pair's second
        // game when its first is announced: report after the unit's last game, the one whose
        // number is the standings' count, so `Finished game 2` comes before the report of 2.
        if self.interval > 0
            && g.game_number == s.games
            && s.games / self.interval > self.reported / self.interval
            && s.games < self.planned
        {
            self.reported = s.games;
            let sprt = self.sprt.as_ref().and_then(|sp| s.sprt_status(sp));
            let text = report_text(&s.pair_stats(), sprt.as_ref(), self.penta, self.fastchess.as_ref());
            self.say(text.trim_end());
        }
        if let Some(latency) = &mut self.latency {
            for line in latency.add(g) {
                log::info!("{line}");
            }
        }
        if g.game_number == s.games {
            self.autosave(s);
        }
        let t = &s.totals()[0];
        self.bar.set_message(format!("{}: {}-{}-{} (W-L-D)", t.name, t.wdl.wins, t.wdl.losses, t.wdl.draws));
    }

    fn on_warning(&mut self, w: &SearchWarning, game: u64) {
        // On stderr whatever -log says: the user must see it, and stdout is the match's.
        self.bar.suspend(|| eprintln!("warning: {w} (game {game}; not repeated for this engine)"));
    }

    fn on_finish(&mut self, _r: &MatchResults) {
        self.bar.finish_and_clear();
    }
}

/// `-output format=cutechess|fastchess`: whether fastchess's report blocks are printed.
pub(super) fn parse_output_style(tokens: &[String]) -> anyhow::Result<bool> {
    let mut fastchess = false;
    for t in tokens {
        match t.split_once('=') {
            Some(("format", "cutechess")) => fastchess = false,
            Some(("format", "fastchess")) => fastchess = true,
            _ => bail!("-output: unknown setting `{t}` (expected format=cutechess|fastchess)"),
        }
    }
    Ok(fastchess)
}

/// A rating report: fastchess's blocks with `labels`, else cutechess's report (without its
/// `Ptnml(0-2)` lines unless `penta`).
pub(super) fn report_text(
    pairs: &[PairStats],
    sprt: Option<&SprtStatus>,
    penta: bool,
    labels: Option<&Labels>,
) -> String {
    match labels {
        // SPRT needs a single pairing, so its line goes into that pairing's block.
        Some(l) => pairs.iter().filter(|p| p.games > 0).map(|p| fastchess_out::block(p, l, penta, sprt)).collect(),
        None => rating_report(pairs, sprt)
            .lines()
            .filter(|l| penta || !l.starts_with("Ptnml(0-2)"))
            .map(|l| format!("{l}\n"))
            .collect(),
    }
}

/// The header labels of fastchess's blocks. The engines' Threads and Hash values are only
/// known from their option declarations, so each is started once to read them.
pub(super) fn fastchess_labels(cfg: &MatchConfig) -> Labels {
    let timeouts = Timeouts {
        start: Duration::from_millis(cfg.start_timeout_ms),
        ping: Duration::from_millis(cfg.ping_timeout_ms),
        quit: Duration::from_millis(cfg.quit_timeout_ms),
    };
    let engines = cfg
        .engines
        .iter()
        .map(|spec| {
            // An engine that fails here fails again, with the full error, when the match starts.
            let declared = spec.start(timeouts).ok().and_then(|c| {
                // xboard engines declare no Threads/Hash defaults: the header shows NULL.
                let options = match &c {
                    EngineClient::Uci(u) => Some(u.options.clone()),
                    EngineClient::Xboard(_) => None,
                };
                c.quit();
                options
            });
            EngineLabel::new(spec, declared.as_deref())
        })
        .collect();
    let book = cfg.openings.as_ref().map(|o| book_label(&o.file.to_string_lossy())).unwrap_or_default();
    Labels { engines, book }
}

/// Prints the end-of-match summary.
pub fn print_summary(r: &MatchResults, report: &str) {
    println!("{}", report.trim_end());
    println!("Terminations: {}", r.terminations.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", "));
    for t in &r.totals {
        println!(
            "{}: {:.1}/{} points, {} forfeits ({} on time)",
            t.name, t.points, t.games, t.forfeits, t.time_forfeits
        );
    }
    let total_cpu = r.runner_cpu_seconds + r.engines_cpu_seconds;
    // A resumed match's clock started with this run: the rate counts only its own games.
    let this_run = r.games_played.saturating_sub(r.games_resumed);
    let resumed = if r.games_resumed > 0 {
        format!(" ({} resumed, {this_run} in this run)", r.games_resumed)
    } else {
        String::new()
    };
    println!(
        "{} games{resumed} in {:.1} s ({:.1} games/min); runner CPU {:.2} s = {:.1} % of all CPU ({:.2} s engines){}",
        r.games_played,
        r.wall_seconds,
        this_run as f64 * 60.0 / r.wall_seconds.max(1e-9),
        r.runner_cpu_seconds,
        if total_cpu > 0.0 { 100.0 * r.runner_cpu_seconds / total_cpu } else { 0.0 },
        r.engines_cpu_seconds,
        if r.stopped_early { "; stopped early by SPRT" } else { "" }
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn output_styles() {
        assert!(parse_output_style(&strings(&["format=fastchess"])).unwrap());
        assert!(!parse_output_style(&strings(&["format=cutechess"])).unwrap());
        assert!(parse_output_style(&strings(&["format=json"])).unwrap_err().to_string().contains("format=json"));
    }
}
