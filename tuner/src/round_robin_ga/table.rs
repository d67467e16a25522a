//! The round robin's cross table in the layout of Aksenov's Table 6.
//!
//! Rows and columns are the players `1..N-1` and `const` (the reference player); a cell holds
//! the row player's two results against the column player, first with white, then with black
//! (`1`, `0`, `0.5`: "10.5" is a win with white and a draw with black); the diagonal is `+`.
//! With more than one game per colour (`games_per_pair` > 2) a cell holds the points with white
//! and with black summed, separated by a slash (`2.5/1`).
//! Then the points and the place in lower-case Roman numerals, shared places as `iii-iv`.
//!
//! ```
//! use tuner::round_robin_ga::table::{places, roman};
//! assert_eq!(roman(9), "ix");
//! assert_eq!(places(&[6.0, 12.0, 12.0, 5.5]), vec![(3, 3), (1, 2), (1, 2), (4, 4)]);
//! ```

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::csv::Csv;

/// One generation's results: `cells[i][j] = [row i with white vs j, row i with black vs j]`,
/// each the row player's points (1, 0.5, 0; summed over the games with that colour) or `None`
/// if not played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CrossTable {
    pub labels: Vec<String>,
    pub cells: Vec<Vec<[Option<f64>; 2]>>,
    /// Games recorded.
    #[serde(default)]
    pub played: usize,
    /// Most games any player had with one colour against one opponent.
    #[serde(default)]
    pub per_colour: usize,
}

impl CrossTable {
    pub fn new(labels: Vec<String>) -> CrossTable {
        let n = labels.len();
        CrossTable { labels, cells: vec![vec![[None, None]; n]; n], played: 0, per_colour: 0 }
    }

    /// Records a game: `white` scored `white_points`.
    pub fn add(&mut self, white: usize, black: usize, white_points: f64) {
        let add = |cell: &mut Option<f64>, p: f64| *cell = Some(cell.unwrap_or(0.0) + p);
        add(&mut self.cells[white][black][0], white_points);
        add(&mut self.cells[black][white][1], 1.0 - white_points);
        self.played += 1;
    }

    /// Sets how many games each colour of a pairing played, which decides the cell format.
    pub fn with_games_per_colour(mut self, games: usize) -> CrossTable {
        self.per_colour = games;
        self
    }

    pub fn points(&self) -> Vec<f64> {
        self.cells.iter().map(|row| row.iter().flat_map(|c| c.iter().flatten()).sum()).collect()
    }

    pub fn games(&self) -> usize {
        self.played
    }

    /// The table as text, titled `ROUND <round>` (Table 6).
    pub fn text(&self, round: usize) -> String {
        let n = self.labels.len();
        let points = self.points();
        let pl = places(&points);
        // Columns wide enough for the longest cell ("0.50.5") or label, plus a gap.
        let widest =
            (0..n).flat_map(|i| (0..n).map(move |j| (i, j))).map(|(i, j)| self.cell_text(self.cells[i][j]).len());
        let w = widest.chain(self.labels.iter().map(String::len)).max().unwrap_or(1) + 2;
        let mut out = format!("ROUND {round}\n{:<w$}", "");
        for l in &self.labels {
            let _ = write!(out, "{l:>w$}");
        }
        let _ = writeln!(out, "{:>8}{:>9}", "points", "place");
        for i in 0..n {
            let _ = write!(out, "{:<w$}", self.labels[i]);
            for j in 0..n {
                let cell = if i == j { "+".to_string() } else { self.cell_text(self.cells[i][j]) };
                let _ = write!(out, "{cell:>w$}");
            }
            let _ = writeln!(out, "{:>8}{:>9}", fmt_points(points[i]), place_text(pl[i]));
        }
        out
    }

    /// The table as CSV: `player,<labels...>,points,place`.
    pub fn csv(&self, round: usize) -> String {
        let points = self.points();
        let pl = places(&points);
        let mut csv =
            Csv::new().column("round", |_: &usize| round.to_string()).column("player", |&i| self.labels[i].clone());
        for (j, label) in self.labels.iter().enumerate() {
            csv.push(label, move |&i| if i == j { "+".to_string() } else { self.cell_text(self.cells[i][j]) });
        }
        let csv = csv.column("points", |&i| fmt_points(points[i])).column("place", |&i| place_text(pl[i]));
        csv.write(0..self.cells.len())
    }

    fn cell_text(&self, c: [Option<f64>; 2]) -> String {
        let parts = c.iter().map(|r| r.map_or("-".to_string(), fmt_points));
        if self.per_colour > 1 { parts.collect::<Vec<_>>().join("/") } else { parts.collect() }
    }
}

fn fmt_points(p: f64) -> String {
    if p.fract() == 0.0 { format!("{p:.0}") } else { format!("{p}") }
}

/// Each player's place range (1 = first) by points, ties sharing `(first, last)`.
pub fn places(points: &[f64]) -> Vec<(usize, usize)> {
    points
        .iter()
        .map(|&p| {
            let above = points.iter().filter(|&&q| q > p).count();
            let equal = points.iter().filter(|&&q| q == p).count();
            (above + 1, above + equal)
        })
        .collect()
}

/// `ix`, `v-vi`.
pub fn place_text((a, b): (usize, usize)) -> String {
    if a == b { roman(a) } else { format!("{}-{}", roman(a), roman(b)) }
}

/// Lower-case Roman numeral of `n` (1..3999).
pub fn roman(mut n: usize) -> String {
    const TABLE: [(usize, &str); 13] = [
        (1000, "m"),
        (900, "cm"),
        (500, "d"),
        (400, "cd"),
        (100, "c"),
        (90, "xc"),
        (50, "l"),
        (40, "xl"),
        (10, "x"),
        (9, "ix"),
        (5, "v"),
        (4, "iv"),
        (1, "i"),
    ];
    let mut s = String::new();
    for (v, r) in TABLE {
        while n >= v {
            s.push_str(r);
            n -= v;
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table6_row_layout() {
        // Table 6, players 1 and 3 vs each other: 1 scored "00" against 3, 3 scored "11".
        let mut t = CrossTable::new(vec!["1".into(), "2".into(), "const".into()]);
        t.add(0, 1, 0.0);
        t.add(1, 0, 1.0);
        t.add(0, 2, 1.0);
        t.add(2, 0, 0.5);
        t.add(1, 2, 0.5);
        t.add(2, 1, 0.5);
        assert_eq!(t.points(), vec![1.5, 3.0, 1.5]);
        assert_eq!(t.games(), 6);
        let text = t.text(23);
        assert!(text.starts_with("ROUND 23\n"), "{text}");
        let row1 = text.lines().nth(2).unwrap();
        assert_eq!(row1.split_whitespace().collect::<Vec<_>>(), vec!["1", "+", "00", "10.5", "1.5", "ii-iii"]);
        let row_const = text.lines().nth(4).unwrap();
        assert_eq!(
            row_const.split_whitespace().collect::<Vec<_>>(),
            vec!["const", "0.50", "0.50.5", "+", "1.5", "ii-iii"]
        );
        assert!(t.csv(23).contains("23,2,11,+,0.50.5,3,i\n"), "{}", t.csv(23));
        assert_eq!(roman(14), "xiv");

        // Four games a pair: points per colour are summed, the cell is "white/black".
        let mut t = CrossTable::new(vec!["1".into(), "const".into()]).with_games_per_colour(2);
        for (w, b, p) in [(0, 1, 1.0), (0, 1, 0.5), (1, 0, 0.0), (1, 0, 1.0)] {
            t.add(w, b, p);
        }
        assert_eq!((t.points(), t.games()), (vec![2.5, 1.5], 4));
        let row1 = t.text(1).lines().nth(2).unwrap().split_whitespace().map(String::from).collect::<Vec<_>>();
        assert_eq!(row1, vec!["1", "+", "1.5/1", "2.5", "i"]);
        assert_eq!(place_text((5, 6)), "v-vi");
    }
}
