//! Per-generation statistics: a CSV table and an SVG chart in the style of David et al.'s
//! Fig. 2 (best and mean per generation, plus the test-set score of the best).

use std::{fmt::Write as _, io, path::Path};

use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use crate::files::write_atomic;

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

/// Writes `generation,best_<m>,mean_<m>,test_<m>,best_fitness,mean_fitness,seconds`.
pub fn write_csv(path: &Path, metric: &str, history: &[GenerationStats]) -> io::Result<()> {
    let mut out =
        format!("generation,best_{metric},mean_{metric},test_{metric}_of_best,best_fitness,mean_fitness,seconds\n");
    for h in history {
        let _ = writeln!(
            out,
            "{},{},{:.6},{},{},{:.6},{:.3}",
            h.generation, h.best_metric, h.mean_metric, h.test_metric, h.best_fitness, h.mean_fitness, h.seconds
        );
    }
    write_atomic(path, out.as_bytes())
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

/// One line of a chart: `(x, y)` points.
pub struct Series {
    pub label: String,
    pub color: RGBColor,
    pub points: Vec<(usize, f64)>,
}

/// Renders line series over an integer x axis (generations) as SVG text; the y axis starts at
/// zero unless a value is negative. Shared by every evolution command's charts.
pub fn render_lines_svg(title: &str, x_desc: &str, y_label: &str, series: &[Series]) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 500)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let last = series.iter().flat_map(|s| s.points.iter().map(|p| p.0)).max().unwrap_or(1).max(1);
        let values = series.iter().flat_map(|s| s.points.iter().map(|p| p.1)).filter(|v| v.is_finite());
        let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
        // 5% of the data's range (of its size when flat), so that small changes of large values
        // still fill the axis.
        let pad = if hi > lo { (hi - lo) * 0.05 } else { (hi.abs() * 0.05).max(1.0) };
        let bottom = if lo >= 0.0 { (lo - pad).max(0.0) } else { lo - pad };
        // Headroom above the data for the legend (about 22 px per series of a ~400 px plot), so
        // that it never covers a curve.
        let legend_share = (series.len() as f64 * 22.0 + 24.0) / 400.0;
        let top = hi + pad + (hi + pad - bottom) * legend_share / (1.0 - legend_share);
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0..last, bottom..top)
            .map_err(|e| e.to_string())?;
        chart.configure_mesh().x_desc(x_desc).y_desc(y_label).draw().map_err(|e| e.to_string())?;
        for s in series {
            let color = s.color;
            let points: Vec<(usize, f64)> = s.points.iter().copied().filter(|p| p.1.is_finite()).collect();
            chart
                .draw_series(LineSeries::new(points.iter().copied(), color.stroke_width(2)))
                .map_err(|e| e.to_string())?
                .label(s.label.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
            // Points too: a one-generation run has no line to draw.
            chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled()))).map_err(|e| e.to_string())?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// Writes the chart to `path`.
pub fn write_svg(path: &Path, title: &str, y_label: &str, history: &[GenerationStats]) -> io::Result<()> {
    let svg = render_svg(title, y_label, history).map_err(io::Error::other)?;
    write_atomic(path, svg.as_bytes())
}
