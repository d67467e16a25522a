//! `tuner quick` reports, rewritten after every generation:
//!
//! * `generations.csv`: games (and the expected count), draws, cap, mean length; per piece the
//!   population mean, the corrected mean (bottom 20% excluded, Belmonte §III-A), that mean
//!   normalised over the pawn, and the generation's best individual raw and normalised;
//! * `individuals.csv`: every individual of every generation with its rank and origin;
//! * `values.svg` / `normalised.svg`: corrected means per generation (the paper's value curves);
//! * `games.svg`: games and draws per generation (§III-B), beside `N log2 N - N`;
//! * `summary.txt`: the last 5 generations' normalised means (Table 3.2) and the best two
//!   individuals normalised (Table 3.5), beside the paper's best, 1 : 3.834 : 3.781 : 5.525 : 7.343.

use std::{fmt::Write as _, io, path::Path};

use arena::files::write_atomic;
use plotters::style::RGBColor;

use super::{
    operators::{PIECES, normalised, tier},
    record::{GenerationRecord, Individual},
    tournament::{belmonte_estimate, expected_games},
};
use crate::{
    chart::{Series, render_lines_svg},
    csv::{Csv, quoted},
};

/// Belmonte's best normalised individual (R2, Table 3.5).
pub const PAPER_BEST: [f64; 5] = [1.0, 3.834, 3.781, 5.525, 7.343];

fn mean_values<'a>(inds: impl Iterator<Item = &'a Individual>) -> [f64; 5] {
    let mut sum = [0.0; 5];
    let mut n = 0.0;
    for i in inds {
        for (s, v) in sum.iter_mut().zip(i.values) {
            *s += f64::from(v);
        }
        n += 1.0;
    }
    sum.map(|s| if n > 0.0 { s / n } else { f64::NAN })
}

/// Mean piece values over the whole population.
pub fn population_mean(h: &GenerationRecord) -> [f64; 5] {
    mean_values(h.ranked.iter())
}

/// Mean piece values without the bottom 20% (ranked worst first).
pub fn corrected_mean(h: &GenerationRecord) -> [f64; 5] {
    mean_values(h.ranked.iter().skip(tier(h.ranked.len())))
}

fn as_f64(v: &[i32; 5]) -> [f64; 5] {
    v.map(f64::from)
}

/// Mean of the corrected means over the last `k` generations, normalised over the pawn.
pub fn last_generations_normalised(history: &[GenerationRecord], k: usize) -> [f64; 5] {
    let tail = &history[history.len().saturating_sub(k)..];
    let mut sum = [0.0; 5];
    for h in tail {
        for (s, v) in sum.iter_mut().zip(corrected_mean(h)) {
            *s += v;
        }
    }
    normalised(&sum)
}

fn ratio(v: &[f64; 5]) -> String {
    v.iter().map(|x| format!("{x:.3}")).collect::<Vec<_>>().join(" : ")
}

/// One log line per generation.
pub fn generation_line(h: &GenerationRecord) -> String {
    let best = h.ranked.last().expect("non-empty population");
    format!(
        "generation {}: {} comparisons (expected {:.1}), {} games, {} draws, {} capped at {} moves, mean {:.1} moves; best {} {} ({})",
        h.generation,
        h.comparisons,
        expected_games(h.ranked.len()),
        h.games,
        h.draws,
        h.capped,
        h.cap,
        h.mean_moves,
        best.name,
        ratio(&normalised(&as_f64(&best.values))),
        best.origin
    )
}

pub fn generations_csv(history: &[GenerationRecord]) -> String {
    let mut csv = Csv::new()
        .column("generation", |h: &&GenerationRecord| h.generation.to_string())
        .column("comparisons", |h| h.comparisons.to_string())
        .column("expected_comparisons", |h| format!("{:.2}", expected_games(h.ranked.len())))
        .column("belmonte_estimate", |h| format!("{:.2}", belmonte_estimate(h.ranked.len())))
        .column("games", |h| h.games.to_string())
        .column("draws", |h| h.draws.to_string())
        .column("white_wins", |h| h.white_wins.to_string())
        .column("black_wins", |h| h.black_wins.to_string())
        .column("capped", |h| h.capped.to_string())
        .column("cap", |h| h.cap.to_string())
        .column("mean_moves", |h| format!("{:.2}", h.mean_moves));
    fn best(h: &GenerationRecord) -> [f64; 5] {
        as_f64(&h.ranked.last().expect("non-empty").values)
    }
    type PieceValues = fn(&GenerationRecord) -> [f64; 5];
    let per_piece: [(&str, PieceValues); 5] = [
        ("mean", population_mean),
        ("corrected_mean", corrected_mean),
        ("norm", |h| normalised(&corrected_mean(h))),
        ("best", best),
        ("best_norm", |h| normalised(&best(h))),
    ];
    for (prefix, values) in per_piece {
        for (p, piece) in PIECES.iter().enumerate() {
            csv.push(format!("{prefix}_{piece}"), move |h| format!("{:.4}", values(h)[p]));
        }
    }
    csv.column("seconds", |h| format!("{:.2}", h.seconds)).write(history)
}

pub fn individuals_csv(history: &[GenerationRecord]) -> String {
    type Row<'h> = (usize, usize, &'h Individual);
    let mut csv = Csv::new()
        .column("generation", |&(g, _, _): &Row| g.to_string())
        .column("rank", |&(_, rank, _)| rank.to_string())
        .column("id", |&(_, _, i)| i.id.to_string())
        .column("name", |&(_, _, i)| i.name.clone())
        .column("origin", |&(_, _, i)| quoted(&i.origin));
    for (p, piece) in PIECES.iter().enumerate() {
        csv.push(*piece, move |&(_, _, i)| i.values[p].to_string());
    }
    for (p, piece) in PIECES.iter().enumerate().skip(1) {
        csv.push(format!("norm_{piece}"), move |&(_, _, i)| format!("{:.4}", normalised(&as_f64(&i.values))[p]));
    }
    csv.write(history.iter().flat_map(|h| h.ranked.iter().enumerate().map(|(rank, i)| (h.generation, rank, i))))
}

const COLOURS: [RGBColor; 5] = [
    RGBColor(120, 120, 120),
    RGBColor(30, 30, 200),
    RGBColor(30, 150, 30),
    RGBColor(200, 120, 0),
    RGBColor(200, 30, 30),
];

fn piece_series(history: &[GenerationRecord], f: impl Fn(&GenerationRecord) -> [f64; 5]) -> Vec<Series> {
    (0..5)
        .map(|p| Series::new(PIECES[p], COLOURS[p], history.iter().map(|h| (h.generation, f(h)[p])).collect()))
        .collect()
}

/// The final tables: last-5 normalised means and the elite beside the paper.
pub fn summary(history: &[GenerationRecord]) -> String {
    let mut out = String::new();
    let Some(last) = history.last() else { return out };
    let k = history.len().min(5);
    let _ = writeln!(out, "piece values normalised over the pawn (pawn : knight : bishop : rook : queen)");
    let _ = writeln!(out, "{:<34} {}", "paper, best individual (R2)", ratio(&PAPER_BEST));
    let _ = writeln!(
        out,
        "{:<34} {}",
        format!("mean of last {k} generations"),
        ratio(&last_generations_normalised(history, k))
    );
    for (i, ind) in last.ranked.iter().rev().take(2).enumerate() {
        let _ = writeln!(
            out,
            "{:<34} {}   raw {:?} ({})",
            format!("elite #{} {}", i + 1, ind.name),
            ratio(&normalised(&as_f64(&ind.values))),
            ind.values,
            ind.origin
        );
    }
    let _ = writeln!(out, "\nper generation (corrected mean, normalised), last {k}:");
    for h in &history[history.len() - k..] {
        let _ = writeln!(
            out,
            "  generation {:>3}: {}   comparisons {} games {} draws {}",
            h.generation,
            ratio(&normalised(&corrected_mean(h))),
            h.comparisons,
            h.games,
            h.draws
        );
    }
    let comparisons: usize = history.iter().map(|h| h.comparisons).sum();
    let white: usize = history.iter().map(|h| h.white_wins).sum();
    let black: usize = history.iter().map(|h| h.black_wins).sum();
    let games: usize = history.iter().map(|h| h.games).sum();
    let _ = writeln!(
        out,
        "\ncomparisons per generation: mean {:.2} (quick-sort expectation {:.2}, Belmonte's estimate {:.1})",
        comparisons as f64 / history.len() as f64,
        expected_games(last.ranked.len()),
        belmonte_estimate(last.ranked.len())
    );
    let _ = writeln!(out, "games: {games}, white won {white}, black won {black}, drawn {}", games - white - black);
    out
}

/// Writes every report into `dir`.
pub fn write_all(dir: &Path, history: &[GenerationRecord]) -> io::Result<()> {
    write_atomic(&dir.join("generations.csv"), generations_csv(history).as_bytes())?;
    write_atomic(&dir.join("individuals.csv"), individuals_csv(history).as_bytes())?;
    write_atomic(&dir.join("summary.txt"), summary(history).as_bytes())?;
    let charts = [
        (
            "values.svg",
            render_lines_svg(
                "piece values, population mean without the bottom 20%",
                "generation",
                "value",
                &piece_series(history, corrected_mean),
            ),
        ),
        (
            "normalised.svg",
            render_lines_svg(
                "piece values over the pawn, mean without the bottom 20%",
                "generation",
                "pawns",
                &piece_series(history, |h| normalised(&corrected_mean(h))),
            ),
        ),
        (
            "games.svg",
            render_lines_svg(
                "comparisons, games and draws per generation",
                "generation",
                "count",
                &[
                    Series::new(
                        "comparisons",
                        COLOURS[2],
                        history.iter().map(|h| (h.generation, h.comparisons as f64)).collect(),
                    ),
                    Series::new("games", COLOURS[1], history.iter().map(|h| (h.generation, h.games as f64)).collect()),
                    Series::new("draws", COLOURS[4], history.iter().map(|h| (h.generation, h.draws as f64)).collect()),
                    Series::new(
                        "N log2 N - N",
                        COLOURS[0],
                        history.iter().map(|h| (h.generation, belmonte_estimate(h.ranked.len()))).collect(),
                    ),
                ],
            ),
        ),
    ];
    for (name, svg) in charts {
        write_atomic(&dir.join(name), svg.map_err(io::Error::other)?.as_bytes())?;
    }
    Ok(())
}
