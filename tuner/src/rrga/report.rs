//! `tuner roundrobin-ga` reports, rewritten after every generation:
//!
//! * `crosstables.txt`: every generation's cross table (Table 6 layout), one after another;
//! * `reference.csv` / `reference.svg`: the reference player's points and place (Fig. 21);
//! * `averages.csv`: every gene's population average (evolving players) and the best player's
//!   value per generation; `averages.svg`: knight and bishop, average (Fig. 22) and best
//!   evolving player (Fig. 23).

use std::{fmt::Write as _, io, path::Path};

use plotters::prelude::*;

use super::run::GenerationRecord;
use crate::{files::write_atomic, space::SearchSpace};

pub fn reference_csv(history: &[GenerationRecord]) -> String {
    let mut out = String::from("generation,points,place_first,place_last,players\n");
    for h in history {
        let (a, b) = h.reference_place();
        let _ = writeln!(
            out,
            "{},{},{a},{b},{}",
            h.generation,
            h.points().last().expect("reference"),
            h.table.labels.len()
        );
    }
    out
}

fn average(h: &GenerationRecord, gene: usize) -> f64 {
    h.players.iter().map(|p| f64::from(p[gene])).sum::<f64>() / h.players.len().max(1) as f64
}

pub fn averages_csv(space: &SearchSpace, history: &[GenerationRecord]) -> String {
    let mut out = String::from("generation");
    for prefix in ["avg", "best"] {
        for g in &space.genes {
            let _ = write!(out, ",{prefix}_{}", g.name);
        }
    }
    out.push('\n');
    for h in history {
        let _ = write!(out, "{}", h.generation);
        for i in 0..space.genes.len() {
            let _ = write!(out, ",{:.2}", average(h, i));
        }
        for v in &h.players[h.best()] {
            let _ = write!(out, ",{v}");
        }
        out.push('\n');
    }
    out
}

type Series = (String, RGBColor, Vec<(usize, f64)>);

fn chart(
    title: &str,
    y_label: &str,
    y: std::ops::Range<f64>,
    invert: bool,
    series: &[Series],
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 500)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let last = series.iter().flat_map(|s| s.2.iter().map(|p| p.0)).max().unwrap_or(1).max(1);
        // Places read best at the top, as in Fig. 21: plot -place with positive labels.
        let (lo, hi) = if invert { (-y.end, -y.start) } else { (y.start, y.end) };
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0..last, lo..hi)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("generation")
            .y_desc(y_label)
            .y_label_formatter(&|v| format!("{:.0}", if invert { -v } else { *v }))
            .draw()
            .map_err(|e| e.to_string())?;
        for (label, color, points) in series {
            let color = *color;
            let pts = points.iter().map(|&(x, v)| (x, if invert { -v } else { v }));
            chart
                .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
                .map_err(|e| e.to_string())?
                .label(label.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
            chart.draw_series(pts.map(|p| Circle::new(p, 3, color.filled()))).map_err(|e| e.to_string())?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
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
    let svg = chart(
        "place of the reference player (shared places at their middle)",
        "place",
        0.5..players as f64 + 0.5,
        true,
        &[("reference player".into(), RGBColor(200, 30, 30), place)],
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
            series.push((label, colours[k], pts));
        }
    }
    let ys = series.iter().flat_map(|s| s.2.iter().map(|p| p.1));
    let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (lo, hi) = if lo.is_finite() { (lo - 5.0, hi + 5.0) } else { (0.0, 1.0) };
    let svg = chart("knight and bishop values", "centipawns", lo..hi, false, &series).map_err(io::Error::other)?;
    write_atomic(&dir.join("averages.svg"), svg.as_bytes())
}
