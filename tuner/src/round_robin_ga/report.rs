//! `tuner roundrobin-ga` reports, rewritten after every generation:
//!
//! * `crosstables.txt`: every generation's cross table (Table 6 layout), one after another;
//! * `reference.csv` / `reference.svg`: the reference player's points and place (Fig. 21);
//! * `averages.csv`: every gene's population average (evolving players) and the best player's
//!   value per generation; `averages.svg`: knight and bishop, average (Fig. 22) and best
//!   evolving player (Fig. 23).

use std::{io, path::Path};

use arena::files::write_atomic;
use plotters::style::RGBColor;

use super::record::GenerationRecord;
use crate::{
    chart::{self, Axis, Series},
    csv::Csv,
    space::SearchSpace,
};

pub fn reference_csv(history: &[GenerationRecord]) -> String {
    Csv::new()
        .column("generation", |h: &&GenerationRecord| h.generation.to_string())
        .column("points", |h| h.points().last().expect("reference").to_string())
        .column("place_first", |h| h.reference_place().0.to_string())
        .column("place_last", |h| h.reference_place().1.to_string())
        .column("players", |h| h.table.labels.len().to_string())
        .write(history)
}

fn average(h: &GenerationRecord, gene: usize) -> f64 {
    h.players.iter().map(|p| f64::from(p[gene])).sum::<f64>() / h.players.len().max(1) as f64
}

pub fn averages_csv(space: &SearchSpace, history: &[GenerationRecord]) -> String {
    let mut csv = Csv::new().column("generation", |h: &&GenerationRecord| h.generation.to_string());
    for (i, g) in space.genes.iter().enumerate() {
        csv.push(format!("avg_{}", g.name), move |h| format!("{:.2}", average(h, i)));
    }
    for (i, g) in space.genes.iter().enumerate() {
        csv.push(format!("best_{}", g.name), move |h| h.players[h.best()][i].to_string());
    }
    csv.write(history)
}

/// Writes every report into `dir`.
pub fn write_all(dir: &Path, space: &SearchSpace, history: &[GenerationRecord]) -> io::Result<()> {
    let tables: String = history.iter().map(|h| h.table.text(h.generation + 1) + "\n").collect();
    write_atomic(&dir.join("crosstables.txt"), tables.as_bytes())?;
    write_atomic(&dir.join("reference.csv"), reference_csv(history).as_bytes())?;
    write_atomic(&dir.join("averages.csv"), averages_csv(space, history).as_bytes())?;
    let players = history.first().map_or(10, |h| h.table.labels.len());
    let place: Vec<(usize, f64)> = history
        .iter()
        .map(|h| {
            let (a, b) = h.reference_place();
            (h.generation, (a + b) as f64 / 2.0)
        })
        .collect();
    // Places read best at the top, as in Fig. 21.
    let places = Axis { range: Some(0.5..players as f64 + 0.5), inverted: true, legend_below: true };
    let svg = chart::render(
        "place of the reference player (shared places at their middle)",
        "generation",
        "place",
        &[Series::new("reference player", RGBColor(200, 30, 30), place)],
        &places,
    )
    .map_err(io::Error::other)?;
    write_atomic(&dir.join("reference.svg"), svg.as_bytes())?;
    let gene = |name: &str| space.genes.iter().position(|g| g.name == name);
    let mut series: Vec<Series> = Vec::new();
    let colours = [RGBColor(30, 30, 200), RGBColor(30, 150, 30), RGBColor(120, 120, 220), RGBColor(120, 200, 120)];
    for (k, (name, best)) in
        [("knight", false), ("bishop", false), ("knight", true), ("bishop", true)].iter().enumerate()
    {
        if let Some(i) = gene(name) {
            let label = if *best { format!("{name}, best player") } else { format!("{name}, average") };
            let pts = history
                .iter()
                .map(|h| (h.generation, if *best { f64::from(h.players[h.best()][i]) } else { average(h, i) }))
                .collect();
            series.push(Series::new(label, colours[k], pts));
        }
    }
    let ys = series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (lo, hi) = if lo.is_finite() { (lo - 5.0, hi + 5.0) } else { (0.0, 1.0) };
    let values = Axis { range: Some(lo..hi), inverted: false, legend_below: true };
    let svg = chart::render("knight and bishop values", "generation", "centipawns", &series, &values)
        .map_err(io::Error::other)?;
    write_atomic(&dir.join("averages.svg"), svg.as_bytes())
}
