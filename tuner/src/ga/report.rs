//! Per-generation statistics: a CSV table and an SVG chart in the style of David et al.'s
//! Fig. 2 (best and mean per generation, plus the test-set score of the best).

use std::{io, path::Path};

use arena::files::write_atomic;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use crate::{
    chart::{Series, render_lines_svg},
    csv::Csv,
};

/// One generation's summary. `metric` is the objective's readable measure (correct GM moves,
/// or mean absolute error against the mentor); `fitness` is what selection saw.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationStats {
    pub generation: usize,
    pub best_metric: f64,
    pub mean_metric: f64,
    /// The generation-best organism on the test set.
    pub test_metric: f64,
    pub best_fitness: f64,
    pub mean_fitness: f64,
    /// Wall time of the generation (not part of the deterministic result).
    pub seconds: f64,
}

/// Writes `generation,best_<m>,mean_<m>,test_<m>_of_best,best_fitness,mean_fitness,seconds`.
pub fn write_csv(path: &Path, metric: &str, history: &[GenerationStats]) -> io::Result<()> {
    let csv = Csv::new()
        .column("generation", |h: &&GenerationStats| h.generation.to_string())
        .column(format!("best_{metric}"), |h| h.best_metric.to_string())
        .column(format!("mean_{metric}"), |h| format!("{:.6}", h.mean_metric))
        .column(format!("test_{metric}_of_best"), |h| h.test_metric.to_string())
        .column("best_fitness", |h| h.best_fitness.to_string())
        .column("mean_fitness", |h| format!("{:.6}", h.mean_fitness))
        .column("seconds", |h| format!("{:.3}", h.seconds));
    write_atomic(path, csv.write(history).as_bytes())
}

/// Renders the chart as SVG text.
pub fn render_svg(title: &str, y_label: &str, history: &[GenerationStats]) -> Result<String, String> {
    let line = |label: &'static str, color, f: fn(&GenerationStats) -> f64| Series {
        label: label.to_string(),
        color,
        points: history.iter().map(|h| (h.generation, f(h))).collect(),
    };
    render_lines_svg(
        title,
        "generation",
        y_label,
        &[
            line("best organism", RGBColor(200, 30, 30), |h| h.best_metric),
            line("population average", RGBColor(30, 30, 200), |h| h.mean_metric),
            line("best organism, test set", RGBColor(30, 150, 30), |h| h.test_metric),
        ],
    )
}

/// Writes the chart to `path`.
pub fn write_svg(path: &Path, title: &str, y_label: &str, history: &[GenerationStats]) -> io::Result<()> {
    let svg = render_svg(title, y_label, history).map_err(io::Error::other)?;
    write_atomic(path, svg.as_bytes())
}
