//! Line charts over generations, as SVG text: the one chart module of every evolution command
//! (fitness, node counts, piece values, places).

use std::ops::Range;

use plotters::prelude::*;

/// One line of a chart: `(x, y)` points.
pub struct Series {
    pub label: String,
    pub color: RGBColor,
    pub points: Vec<(usize, f64)>,
}

impl Series {
    pub fn new(label: impl Into<String>, color: RGBColor, points: Vec<(usize, f64)>) -> Series {
        Series { label: label.into(), color, points }
    }
}

/// Renders line series over an integer x axis (generations) as SVG text; the y axis starts at
/// zero unless a value is negative. Shared by every evolution command's charts.
pub fn render_lines_svg(title: &str, x_desc: &str, y_label: &str, series: &[Series]) -> Result<String, String> {
    render(title, x_desc, y_label, series, &Axis::default())
}

/// The most points a series draws: more than the plot's width in pixels, so thinning shows the
/// same line, while SPSA's 30,000 iterations of 63 values would make every chart (rewritten at
/// each checkpoint) tens of megabytes.
pub const MAX_POINTS: usize = 1000;

/// `points`, every k-th of them when there are more than [`MAX_POINTS`] (k the smallest that
/// fits), always with the last.
fn thinned(points: &[(usize, f64)]) -> impl Iterator<Item = &(usize, f64)> {
    let stride = points.len().div_ceil(MAX_POINTS).max(1);
    let last = points.len().saturating_sub(1);
    points.iter().enumerate().filter(move |(i, _)| i % stride == 0 || *i == last).map(|(_, p)| p)
}

/// How a chart's y axis is laid out.
#[derive(Clone, Debug, Default)]
pub struct Axis {
    /// Fixed range; by default the data's, padded, from zero unless a value is negative.
    pub range: Option<Range<f64>>,
    /// Larger values lower (places: first at the top); labels keep their sign.
    pub inverted: bool,
    /// Legend in the lower right corner instead of the upper right.
    pub legend_below: bool,
}

/// [`render_lines_svg`] with an explicit y axis.
pub fn render(title: &str, x_desc: &str, y_label: &str, series: &[Series], axis: &Axis) -> Result<String, String> {
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
        let (bottom, top) = match &axis.range {
            Some(r) => (r.start, r.end),
            None => (bottom, top),
        };
        let sign = if axis.inverted { -1.0 } else { 1.0 };
        let (bottom, top) = if axis.inverted { (-top, -bottom) } else { (bottom, top) };
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0..last, bottom..top)
            .map_err(|e| e.to_string())?;
        let positive = |v: &f64| format!("{:.0}", -v);
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(x_desc).y_desc(y_label);
        if axis.inverted {
            mesh.y_label_formatter(&positive);
        }
        mesh.draw().map_err(|e| e.to_string())?;
        for s in series {
            let color = s.color;
            let points: Vec<(usize, f64)> =
                thinned(&s.points).filter(|p| p.1.is_finite()).map(|&(x, y)| (x, sign * y)).collect();
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
            .position(if axis.legend_below { SeriesLabelPosition::LowerRight } else { SeriesLabelPosition::UpperRight })
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_series_are_thinned_to_the_plot_with_their_ends_and_short_ones_are_kept() {
        let short: Vec<(usize, f64)> = (0..MAX_POINTS).map(|i| (i, i as f64)).collect();
        assert_eq!(thinned(&short).count(), MAX_POINTS);
        let long: Vec<(usize, f64)> = (0..30_001).map(|i| (i, i as f64)).collect();
        let kept: Vec<_> = thinned(&long).copied().collect();
        assert!(kept.len() <= MAX_POINTS + 1, "{}", kept.len());
        assert_eq!(kept.first(), Some(&(0, 0.0)));
        assert_eq!(kept.last(), Some(&(30_000, 30_000.0)));
        // A chart of 30,000 points a series is no bigger than one of MAX_POINTS.
        let chart = |points: &[(usize, f64)]| {
            render_lines_svg("t", "x", "y", &[Series::new("a", RED, points.to_vec())]).unwrap().len()
        };
        assert!(chart(&long) < 2 * chart(&short), "{} vs {}", chart(&long), chart(&short));
    }
}
