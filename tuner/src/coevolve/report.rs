//! What a coevolution records and reports: each organism's and each generation's results, the
//! cross tables and `generations.csv`, and the chart of the champion's strength.

use arena::{
    results::MatchResults,
    stats::{EloEstimate, Wdl},
};
use plotters::style::RGBColor;
use serde::{Deserialize, Serialize};

use super::{
    champion::Challenge,
    racing::{Race, Rating},
    reference::PoolTable,
};
use crate::{
    csv::{Csv, quoted},
    ga::operators::elite_indices,
};

/// One organism's result in one generation's round robin.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrganismResult {
    pub name: String,
    /// Where it came from: a file name (generation 0), `elite` or `child`.
    pub origin: String,
    pub points: f64,
    pub games: u64,
    pub wdl: Wdl,
    /// Elo against the rest of the field with its 95% error (trinomial, David App. B formula
    /// for the point estimate: RD = −400·log10(1/W − 1)); `None` where it is infinite.
    pub elo: Option<EloEstimate>,
    /// Racing: the Bradley–Terry rating, the organism's fitness; `None` in a round robin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<Rating>,
}

impl OrganismResult {
    /// What selection maximised: the racing rating, or the round robin's points.
    pub fn fitness(&self) -> f64 {
        self.rating.as_ref().map_or(self.points, |r| r.elo)
    }
}

/// One generation's summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CoevolveGeneration {
    pub generation: usize,
    pub best: usize,
    pub best_name: String,
    pub organisms: Vec<OrganismResult>,
    /// Points of row against column (NaN-free: the diagonal is 0).
    pub cross: Vec<Vec<f64>>,
    pub games: u64,
    pub seconds: f64,
    /// The best organism's games against the reference (generation 0's champion); `None` in
    /// generation 0 (the champion is the reference: 0 Elo by definition), without
    /// `reference_games`, and in runs from before the reference.
    #[serde(default)]
    pub reference: Option<ReferenceResult>,
    /// The best organism's challenge of the run's champion (`[champion] gate = "sprt"`);
    /// `None` without the gate and in generations that do not challenge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge: Option<Challenge>,
    /// Racing: the rounds, why the race ended and the games of each pair; `None` for a round
    /// robin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub race: Option<Race>,
    /// Reference selection: every organism's games against each pool member; `None` otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<PoolTable>,
    /// The population's diversity ([`diversity`](super::diversity)); `None` in runs from before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diversity: Option<f64>,
}

/// A generation's best organism against the fixed reference.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReferenceResult {
    /// The reference's name (`g0oN`, its file in `gen-000/`).
    pub reference: String,
    /// The best organism's points.
    pub points: f64,
    pub games: u64,
    pub wdl: Wdl,
    /// The best organism's Elo against the reference with its 95% error; `None` where infinite.
    pub elo: Option<EloEstimate>,
}

impl CoevolveGeneration {
    fn score(&self, i: usize) -> f64 {
        let o = &self.organisms[i];
        if o.games == 0 { 0.0 } else { o.points / o.games as f64 }
    }

    pub fn best_score(&self) -> f64 {
        self.score(self.best)
    }

    pub fn mean_score(&self) -> f64 {
        (0..self.organisms.len()).map(|i| self.score(i)).sum::<f64>() / self.organisms.len().max(1) as f64
    }

    pub fn worst_score(&self) -> f64 {
        (0..self.organisms.len()).map(|i| self.score(i)).fold(f64::INFINITY, f64::min)
    }

    /// Rank (1 = best, ties share the better rank) of the previous generation's best organism,
    /// carried over unchanged by elitism: the noise check of the fitness. A fitness dominated
    /// by noise ranks last generation's winner like any organism (about n/2 on average); a
    /// meaningful one keeps it near the top. `None` in generation 0 or without elitism.
    pub fn elite_rank(&self) -> Option<usize> {
        let elite = self.organisms.iter().find(|o| o.origin.starts_with("elite"))?;
        Some(1 + self.organisms.iter().filter(|o| o.fitness() > elite.fitness()).count())
    }
}

/// Mean rank of the carried-over best over the generations that have one, and their number.
pub fn elite_rank_stability(history: &[CoevolveGeneration]) -> Option<(f64, usize)> {
    let ranks: Vec<usize> = history.iter().filter_map(CoevolveGeneration::elite_rank).collect();
    (!ranks.is_empty()).then(|| (ranks.iter().sum::<usize>() as f64 / ranks.len() as f64, ranks.len()))
}

/// A generation's games gathered per player: the cross table (points of row against column),
/// the games of each pair and each player's wins, draws and losses. Players are the organisms,
/// then any pool members (`selection = "reference"`).
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub cross: Vec<Vec<f64>>,
    pub games: Vec<Vec<u64>>,
    pub wdl: Vec<Wdl>,
}

impl Table {
    /// `players` players' table from each encounter's `(a, b, a's results against b)`.
    pub fn from_pairs(players: usize, pairs: impl IntoIterator<Item = (usize, usize, Wdl)>) -> Table {
        let mut t = Table {
            cross: vec![vec![0.0; players]; players],
            games: vec![vec![0; players]; players],
            wdl: vec![Wdl::default(); players],
        };
        for (a, b, w) in pairs {
            let points = w.wins as f64 + w.draws as f64 / 2.0;
            t.cross[a][b] += points;
            t.cross[b][a] += w.games() as f64 - points;
            t.games[a][b] += w.games();
            t.games[b][a] += w.games();
            for (i, w) in [(a, w), (b, w.flipped())] {
                t.wdl[i].wins += w.wins;
                t.wdl[i].draws += w.draws;
                t.wdl[i].losses += w.losses;
            }
        }
        t
    }

    /// The first `names.len()` players' results (no racing rating).
    pub fn organisms(&self, names: &[String], origins: &[String]) -> Vec<OrganismResult> {
        (0..names.len())
            .map(|i| OrganismResult {
                name: names[i].clone(),
                origin: origins.get(i).cloned().unwrap_or_default(),
                points: self.cross[i].iter().sum(),
                games: self.games[i].iter().sum(),
                wdl: self.wdl[i],
                // A 100% or 0% score (or an interval reaching it) has no finite Elo; JSON cannot hold it.
                elo: self.wdl[i].elo().filter(|e| e.elo.is_finite() && e.error.is_finite()),
                rating: None,
            })
            .collect()
    }
}

/// A generation's record from its organisms' results, `best` the fittest: the three selection
/// schemes fill in what is theirs (`race`, `pool`).
pub fn generation_record(
    generation: usize,
    organisms: Vec<OrganismResult>,
    cross: Vec<Vec<f64>>,
    games: u64,
    seconds: f64,
) -> CoevolveGeneration {
    let fitness: Vec<f64> = organisms.iter().map(OrganismResult::fitness).collect();
    let best = elite_indices(&fitness, 1)[0];
    CoevolveGeneration {
        generation,
        best,
        best_name: organisms[best].name.clone(),
        organisms,
        cross,
        games,
        seconds,
        reference: None,
        challenge: None,
        race: None,
        pool: None,
        diversity: None,
    }
}

/// Scores, cross table and Elo estimates of one finished round robin.
pub fn summarise(
    generation: usize,
    names: &[String],
    origins: &[String],
    r: &MatchResults,
    seconds: f64,
) -> CoevolveGeneration {
    let table = Table::from_pairs(names.len(), r.pairs.iter().map(|p| (p.first, p.second, p.wdl)));
    generation_record(generation, table.organisms(names, origins), table.cross, r.games_played, seconds)
}

fn fmt_elo(e: Option<EloEstimate>) -> (String, String) {
    match e {
        Some(e) if e.elo.is_finite() => (format!("{:.1}", e.elo), format!("{:.1}", e.error)),
        Some(e) => (format!("{}", e.elo), String::new()),
        None => (String::new(), String::new()),
    }
}

/// `organism,origin,<each opponent>,points,games,score,elo,elo_error` (row's points vs column);
/// after a race each cell is `points/games` (empty where the two never met), and the columns
/// `rating,rating_se,dropped_after` follow; after reference selection the opponents are the pool
/// members, each cell `points/games`.
pub fn crosstable_csv(g: &CoevolveGeneration) -> String {
    let mut csv = Csv::new()
        .column("organism", |&(_, o): &(usize, &OrganismResult)| o.name.clone())
        .column("origin", |&(_, o)| quoted(&o.origin));
    let games = g.race.as_ref().map(|r| &r.games);
    match &g.pool {
        // Reference selection: a column per pool member; the organisms never met.
        Some(pool) => {
            for (j, member) in pool.members.iter().enumerate() {
                csv.push(member, move |&(i, _)| format!("{}/{}", pool.points[i][j], pool.games[i][j]));
            }
        }
        None => {
            for (j, opponent) in g.organisms.iter().enumerate() {
                csv.push(&opponent.name, move |&(i, _)| match games {
                    _ if i == j => "-".to_string(),
                    Some(games) if games[i][j] == 0 => String::new(),
                    Some(games) => format!("{}/{}", g.cross[i][j], games[i][j]),
                    None => g.cross[i][j].to_string(),
                });
            }
        }
    }
    let csv = csv
        .column("points", |&(_, o)| o.points.to_string())
        .column("games", |&(_, o)| o.games.to_string())
        .column("score", |&(_, o)| format!("{:.4}", if o.games > 0 { o.points / o.games as f64 } else { 0.0 }))
        .column("elo", |&(_, o)| fmt_elo(o.elo).0)
        .column("elo_error", |&(_, o)| fmt_elo(o.elo).1);
    let csv = match g.race {
        Some(_) => {
            let rating = |o: &OrganismResult, f: fn(&Rating) -> String| o.rating.as_ref().map_or(String::new(), f);
            csv.column("rating", move |&(_, o)| rating(o, |r| format!("{:.1}", r.elo)))
                .column("rating_se", move |&(_, o)| rating(o, |r| format!("{:.1}", r.error)))
                .column("dropped_after", move |&(_, o)| {
                    rating(o, |r| r.dropped_after.map_or(String::new(), |d| d.to_string()))
                })
        }
        None => csv,
    };
    csv.write(g.organisms.iter().enumerate())
}

/// One row per generation: the best organism's score and Elo against the field, and the
/// population's mean and worst score.
pub fn generations_csv(history: &[CoevolveGeneration]) -> String {
    fn best(g: &CoevolveGeneration) -> &OrganismResult {
        &g.organisms[g.best]
    }
    let csv = Csv::new()
        .column("generation", |g: &&CoevolveGeneration| g.generation.to_string())
        .column("best", |g| g.best_name.clone())
        .column("best_points", |g| best(g).points.to_string())
        .column("best_games", |g| best(g).games.to_string())
        .column("best_score", |g| format!("{:.4}", g.best_score()))
        .column("best_elo", |g| fmt_elo(best(g).elo).0)
        .column("best_elo_error", |g| fmt_elo(best(g).elo).1);
    // After races: the best's rating (its fitness), the rounds and why the race ended.
    let csv = if history.iter().any(|g| g.race.is_some()) {
        let rating = |g: &CoevolveGeneration, f: fn(&Rating) -> f64| {
            best(g).rating.as_ref().map_or(String::new(), |r| format!("{:.1}", f(r)))
        };
        let race = |g: &CoevolveGeneration, f: fn(&Race) -> String| g.race.as_ref().map_or(String::new(), f);
        csv.column("best_rating", move |g: &&CoevolveGeneration| rating(g, |r| r.elo))
            .column("best_rating_se", move |g| rating(g, |r| r.error))
            .column("race_rounds", move |g| race(g, |r| r.rounds.to_string()))
            .column("race_end", move |g| race(g, |r| format!("{:?}", r.end).to_lowercase()))
    } else {
        csv
    };
    let csv = csv
        .column("mean_score", |g| format!("{:.4}", g.mean_score()))
        .column("worst_score", |g| format!("{:.4}", g.worst_score()))
        .column("games", |g| g.games.to_string())
        .column("seconds", |g| format!("{:.1}", g.seconds))
        .column("reference", |g| g.reference.as_ref().map_or(String::new(), |r| r.reference.clone()))
        .column("reference_points", |g| g.reference.as_ref().map_or(String::new(), |r| r.points.to_string()))
        .column("reference_games", |g| g.reference.as_ref().map_or(String::new(), |r| r.games.to_string()))
        .column("reference_elo", |g| fmt_elo(g.reference.as_ref().and_then(|r| r.elo)).0)
        .column("reference_elo_error", |g| fmt_elo(g.reference.as_ref().and_then(|r| r.elo)).1)
        .column("elite_rank", |g| g.elite_rank().map_or(String::new(), |r| r.to_string()))
        .column("diversity", |g| g.diversity.map_or(String::new(), |d| format!("{d:.4}")));
    csv.write(history)
}

/// The champion's strength across generations: each generation's best organism against the
/// fixed reference, generation 0's champion, in Elo with its 95% interval (generation 0 is the
/// reference itself: 0). A round robin's mean score is 50% by construction and its best score
/// is relative to a field that changes, so neither shows progress; this measure does.
pub fn render_svg(history: &[CoevolveGeneration]) -> Result<String, String> {
    let point = |g: &CoevolveGeneration, f: fn(&EloEstimate) -> f64| match (g.generation, &g.reference) {
        (0, _) => Some((0, 0.0)),
        (n, Some(r)) => r.elo.as_ref().map(|e| (n, f(e))),
        _ => None,
    };
    let line = |label: &str, color, f: fn(&EloEstimate) -> f64| crate::chart::Series {
        label: label.to_string(),
        color,
        points: history.iter().filter_map(|g| point(g, f)).collect(),
    };
    let games = history.iter().find_map(|g| g.reference.as_ref().map(|r| r.games)).unwrap_or(0);
    let reference = history.first().map_or_else(String::new, |g| g.best_name.clone());
    crate::chart::render_lines_svg(
        &format!("coevolution: each generation's champion vs generation 0's ({reference}), {games} games"),
        "generation",
        "Elo against generation 0's champion",
        &[
            line("champion", RGBColor(200, 30, 30), |e| e.elo),
            line("95% upper bound", RGBColor(150, 150, 150), |e| e.elo + e.error),
            line("95% lower bound", RGBColor(150, 150, 150), |e| e.elo - e.error),
        ],
    )
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::coevolve) fn organism(origin: &str, points: f64) -> OrganismResult {
        OrganismResult {
            name: String::new(),
            origin: origin.into(),
            points,
            games: 4,
            wdl: Wdl::default(),
            elo: None,
            rating: None,
        }
    }

    /// A generation record holding only `organisms` (every other field empty).
    pub(in crate::coevolve) fn generation(g: usize, organisms: Vec<OrganismResult>) -> CoevolveGeneration {
        CoevolveGeneration {
            generation: g,
            best: 0,
            best_name: String::new(),
            cross: Vec::new(),
            organisms,
            games: 0,
            seconds: 0.0,
            reference: None,
            challenge: None,
            race: None,
            pool: None,
            diversity: None,
        }
    }

    #[test]
    fn elite_rank_is_the_carried_over_best_s_place() {
        let generation = |organisms: Vec<OrganismResult>| generation(1, organisms);
        let g = generation(vec![organism("elite g0o2", 2.0), organism("child", 3.0), organism("child", 2.0)]);
        assert_eq!(g.elite_rank(), Some(2), "one organism scored more; a tie shares the better rank");
        let first = generation(vec![organism("run-1.toml", 2.0), organism("run-2.toml", 3.0)]);
        assert_eq!(first.elite_rank(), None);
        let top = generation(vec![organism("elite g1o0", 4.0), organism("child", 1.0)]);
        assert_eq!(elite_rank_stability(&[g, first, top]), Some((1.5, 2)));
    }

    #[test]
    fn a_checkpoint_of_the_older_format_still_resumes() {
        // Written before coevolve ran on the shared driver: `origins`, no `run`, no `metric`.
        let old = r#"{"fingerprint":"f","generation":0,"population":[{"bits":"0110"},{"bits":"1001"}],
            "origins":["a.toml","b.toml"],"fitness":[1.5,0.5],"history":[{"generation":0,"best":0,
            "best_name":"g0o0","organisms":[],"cross":[],"games":2,"seconds":1.0}]}"#;
        let path = std::env::temp_dir().join(format!("evochess-old-coevolve-{}.json", std::process::id()));
        std::fs::write(&path, old).unwrap();
        let c = crate::ga::checkpoint::Checkpoint::<crate::ga::driver::Population, CoevolveGeneration>::load(&path)
            .unwrap()
            .unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!((c.run, c.generation, c.state.fitness.clone(), c.state.best()), (0, 0, vec![1.5, 0.5], 0));
        assert!(c.state.metric.is_empty());
        assert_eq!(c.history[0].games, 2);
    }

    #[test]
    fn a_table_gathers_each_pair_s_games_from_either_side() {
        let w = |wins, draws, losses| Wdl { wins, draws, losses };
        let t = Table::from_pairs(3, [(0, 1, w(2, 1, 1)), (2, 0, w(1, 0, 1))]);
        assert_eq!(t.cross, vec![vec![0.0, 2.5, 1.0], vec![1.5, 0.0, 0.0], vec![1.0, 0.0, 0.0]]);
        assert_eq!(t.games, vec![vec![0, 4, 2], vec![4, 0, 0], vec![2, 0, 0]]);
        assert_eq!(t.wdl, vec![w(3, 1, 2), w(1, 1, 2), w(1, 0, 1)]);
        let names: Vec<String> = ["a", "b"].iter().map(|s| s.to_string()).collect();
        let o = t.organisms(&names, &[]);
        assert_eq!(o.len(), 2, "only the organisms, not the pool after them");
        assert_eq!((o[0].points, o[0].games, o[1].points, o[1].games), (3.5, 6, 1.5, 4));
        let g = generation_record(3, o, t.cross.clone(), 5, 1.0);
        assert_eq!((g.best, g.best_name.as_str(), g.games), (0, "a", 5));
    }
}
