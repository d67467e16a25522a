//! `selection = "racing"`: a generation ranked by racing instead of the paper's round robin
//! (issue 45).
//!
//! A round robin spends as many games on organisms that are clearly out as on those in doubt,
//! and at a few dozen games per organism it cannot rank organisms 20 Elo apart. Racing plays a
//! generation in rounds. In each round every organism still in the race plays one colour-swapped
//! game pair (one opening, both colours) against its neighbour in the current rating order, and
//! one against another racer drawn from a seeded RNG ([`round_pairs`]). After each round a
//! Bradley–Terry fit of all the generation's games ([`arena::stats::bradley_terry`], with
//! [`PRIOR_DRAWS`] virtual draws per organism against the field's centre, since after one round
//! most organisms have only wins or only losses) rates every organism with its standard error;
//! one whose upper bound (rating + z·error, z two-sided for `racing_confidence`) falls below the
//! elite-th best lower bound leaves the race ([`survivors`]; the elite is the GA's `elitism`, at
//! least 1). The race ends when only the elite is left, separated from the rest, or when the
//! generation's budget `racing_games` is spent: a round that would overrun it plays only its
//! first encounters, the neighbours from the top of the order first. Every organism's fitness
//! (selection, breeding, the elites) is its rating from all the generation's games, including
//! those it played before it left; a rating, not a score, since the schedule is unbalanced.
//!
//! Files per generation: for each round RR (from 01) the runner's `race-RR.pgn`, resume journal
//! `race-RR.state.jsonl` and results `race-RR.json`, and `crosstable.csv` with each pair's
//! points/games and every organism's rating. A round's encounters depend only on the seed and
//! the games of the rounds before, which a resumed run reads back from their journals, so
//! `--resume` rebuilds the same rounds, continues the unfinished one, and neither replays nor
//! loses a finished game. Rounds are played through the runner's [`play_match`] with the
//! round robin's match settings and executor, so `--broker` plays them on workers too.

use std::{collections::BTreeMap, time::Instant};

use arena::{
    engine::spec::EngineSpec,
    files::write_atomic,
    results::MatchResults,
    runner::{Tournament, play_match},
    stats::{
        Wdl,
        bradley_terry::{self, Ratings},
        phi_inverse,
    },
};
use rand::{Rng, rngs::StdRng};
use serde::{Deserialize, Serialize};

use super::{
    Coevolution, CoevolveError, CoevolveGeneration, Field, GenObserver, Table, crosstable_csv, fresh::Use, gen_dir,
    generation_record, journal,
};
use crate::{ga::generation_rng, progress::Progress};

/// Virtual draws per organism against the field's centre in every fit: after a round most
/// racers have only wins or only losses, whose maximum-likelihood ratings are infinite. One
/// draw weighs little beside a generation's games.
pub const PRIOR_DRAWS: f64 = 1.0;
/// The default `racing_confidence`.
pub const DEFAULT_CONFIDENCE: f64 = 0.95;
/// Salts the racing RNG apart from breeding's `generation_rng(seed, 0, g)`.
const RACE_SALT: u64 = 0x7261_6369_6e67_2d31;

/// How a generation ranks its organisms (`selection` in the coevolve config).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Scheme {
    /// The paper's: every organism plays every other `2 × openings_per_pair` games; fitness
    /// is points.
    #[default]
    RoundRobin,
    /// Rounds of game pairs among the organisms in doubt; fitness is a Bradley–Terry rating.
    Racing,
    /// Every organism plays the same games against a fixed pool (`[pool]`); fitness is its
    /// points ([`super::reference`]).
    Reference,
}

impl Scheme {
    pub fn is_round_robin(&self) -> bool {
        *self == Scheme::RoundRobin
    }
}

impl TryFrom<String> for Scheme {
    type Error = String;

    fn try_from(s: String) -> Result<Scheme, String> {
        match s.as_str() {
            "round-robin" => Ok(Scheme::RoundRobin),
            "racing" => Ok(Scheme::Racing),
            "reference" => Ok(Scheme::Reference),
            other => Err(format!(
                "selection = \"{other}\": expected \"round-robin\" (the paper's), \"racing\" or \"reference\""
            )),
        }
    }
}

impl From<Scheme> for String {
    fn from(s: Scheme) -> String {
        match s {
            Scheme::RoundRobin => "round-robin",
            Scheme::Racing => "racing",
            Scheme::Reference => "reference",
        }
        .to_string()
    }
}

/// An organism's Bradley–Terry rating at the end of its generation's race.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// Elo; the generation's mean is 0.
    pub elo: f64,
    /// Its standard error (one sigma, Elo) relative to the generation's mean.
    pub error: f64,
    /// The round (from 1) after which it left the race; `None`: it raced to the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dropped_after: Option<usize>,
}

/// Why a race ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RaceEnd {
    /// Only the elite was left in the race.
    Separated,
    /// The generation's game budget was spent first.
    Budget,
}

/// A generation's race: its rounds, and who played whom how often.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Race {
    pub rounds: usize,
    pub end: RaceEnd,
    /// The generation's game budget (`racing_games`, or the round robin's count).
    pub budget: u64,
    /// Games between each two organisms (the cross table's denominators).
    pub games: Vec<Vec<u64>>,
}

/// The games of a race so far: each pair's wins, draws and losses of its lower index.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pairs: BTreeMap<(usize, usize), Wdl>,
}

impl Tally {
    /// Adds `wdl`, `a`'s results against `b`.
    pub fn add(&mut self, a: usize, b: usize, wdl: Wdl) {
        let (key, wdl) = if a < b { ((a, b), wdl) } else { ((b, a), wdl.flipped()) };
        let t = self.pairs.entry(key).or_default();
        t.wins += wdl.wins;
        t.draws += wdl.draws;
        t.losses += wdl.losses;
    }

    pub fn games(&self) -> u64 {
        self.pairs.values().map(Wdl::games).sum()
    }

    /// `(a, b, a's results against b)` for every pair that played, `a < b`.
    pub fn results(&self) -> Vec<(usize, usize, Wdl)> {
        self.pairs.iter().map(|(&(a, b), &w)| (a, b, w)).collect()
    }

    /// The Bradley–Terry ratings of `players` organisms from these games.
    pub fn ratings(&self, players: usize) -> Result<Ratings, CoevolveError> {
        Ok(bradley_terry::fit(players, &self.results(), PRIOR_DRAWS)?)
    }
}

fn push_pair(pairs: &mut Vec<(usize, usize)>, a: usize, b: usize) {
    let p = (a.min(b), a.max(b));
    if !pairs.contains(&p) {
        pairs.push(p);
    }
}

/// A round's encounters among the racers `active`: each with its neighbour in the rating order
/// (best first, ties by index), then each with one other racer drawn from `rng`; each encounter
/// once, as (lower index, higher index), neighbours first.
pub fn round_pairs(active: &[usize], elo: &[f64], rng: &mut StdRng) -> Vec<(usize, usize)> {
    let mut order = active.to_vec();
    order.sort_by(|&a, &b| elo[b].total_cmp(&elo[a]).then(a.cmp(&b)));
    let mut pairs = Vec::new();
    for w in order.windows(2) {
        push_pair(&mut pairs, w[0], w[1]);
    }
    if order.len() > 2 {
        for p in 0..order.len() {
            let mut q = rng.random_range(0..order.len() - 1);
            if q >= p {
                q += 1;
            }
            push_pair(&mut pairs, order[p], order[q]);
        }
    }
    pairs
}

/// The racers of `active` that stay: those whose upper bound (rating + z·error) reaches the
/// `elite`-th best lower bound (rating − z·error) among them. The `elite` racers with the best
/// lower bounds always stay.
pub fn survivors(active: &[usize], r: &Ratings, z: f64, elite: usize) -> Vec<usize> {
    let mut lower: Vec<f64> = active.iter().map(|&i| r.elo[i] - z * r.error[i]).collect();
    lower.sort_by(|a, b| b.total_cmp(a));
    let Some(&bar) = lower.get(elite.clamp(1, active.len().max(1)) - 1) else { return active.to_vec() };
    active.iter().copied().filter(|&i| r.elo[i] + z * r.error[i] >= bar).collect()
}

/// z of a two-sided interval of `confidence`.
pub fn z_two_sided(confidence: f64) -> f64 {
    phi_inverse(0.5 + confidence / 2.0)
}

/// What a finished race leaves.
#[derive(Clone, Debug)]
pub struct RaceOutcome {
    pub tally: Tally,
    /// The ratings from every game of the race.
    pub ratings: Ratings,
    /// The round after which each organism left; `None`: it raced to the end.
    pub dropped: Vec<Option<usize>>,
    pub rounds: usize,
    pub end: RaceEnd,
    pub budget: u64,
}

/// A finished race's generation record: points, games and cross table from the tally, fitness
/// (and the best) from the ratings.
pub fn summarise_race(
    generation: usize,
    names: &[String],
    origins: &[String],
    race: &RaceOutcome,
    seconds: f64,
) -> CoevolveGeneration {
    let table = Table::from_pairs(names.len(), race.tally.results());
    let r = &race.ratings;
    let mut organisms = table.organisms(names, origins);
    for (i, o) in organisms.iter_mut().enumerate() {
        o.rating = Some(Rating { elo: r.elo[i], error: r.error[i], dropped_after: race.dropped[i] });
    }
    let mut g = generation_record(generation, organisms, table.cross, race.tally.games(), seconds);
    g.race = Some(Race { rounds: race.rounds, end: race.end, budget: race.budget, games: table.games });
    g
}

/// `name +R ± E` of each racer, best first (E: the bound's half width).
fn standings_line(names: &[String], active: &[usize], r: &Ratings, z: f64) -> String {
    let mut order = active.to_vec();
    order.sort_by(|&a, &b| r.elo[b].total_cmp(&r.elo[a]).then(a.cmp(&b)));
    order
        .iter()
        .map(|&i| format!("{} {:+.0} ± {:.0}", names[i], r.elo[i], z * r.error[i]))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Coevolution {
    /// Games of a generation's race of `size` organisms: `racing_games`, or the round robin's.
    pub fn racing_budget(&self, size: usize) -> u64 {
        if self.cfg.racing_games == 0 { self.round_robin_games(size) } else { self.cfg.racing_games }
    }

    /// Generation `g`'s race among `field` (its organism files written), to separate `elite`
    /// of them; `resume` continues the rounds a killed run journaled.
    pub(super) fn play_race(
        &self,
        g: usize,
        field: &Field,
        elite: usize,
        resume: bool,
        bar: &Progress,
    ) -> Result<CoevolveGeneration, CoevolveError> {
        let started = Instant::now();
        let names = &field.names;
        let n = names.len();
        let budget = self.racing_budget(n);
        let z = z_two_sided(self.cfg.racing_confidence);
        let elite = elite.max(1);
        let mut tally = Tally::default();
        let mut ratings = tally.ratings(n)?;
        let mut active: Vec<usize> = (0..n).collect();
        let mut dropped = vec![None; n];
        let mut round = 0;
        let end = loop {
            if active.len() <= elite {
                break RaceEnd::Separated;
            }
            let left = budget.saturating_sub(tally.games());
            let mut rng = generation_rng(self.cfg.seed ^ RACE_SALT, round as u64 + 1, g as u64);
            let mut pairs = round_pairs(&active, &ratings.elo, &mut rng);
            pairs.truncate(usize::try_from(left / 2).unwrap_or(usize::MAX));
            if pairs.is_empty() {
                break RaceEnd::Budget;
            }
            round += 1;
            let r = self.play_round(g, round, &field.engines, pairs, resume, bar)?;
            if r.games_played == 0 {
                // Never expected (forfeits count as games); it would loop for ever.
                return Err(CoevolveError::Config(format!("generation {g}: racing round {round} played no game")));
            }
            for p in &r.pairs {
                tally.add(p.first, p.second, p.wdl);
            }
            ratings = tally.ratings(n)?;
            let keep = survivors(&active, &ratings, z, elite);
            let out: Vec<usize> = active.iter().copied().filter(|i| !keep.contains(i)).collect();
            for &i in &out {
                dropped[i] = Some(round);
            }
            let out = if out.is_empty() {
                String::new()
            } else {
                format!("; out: {}", out.iter().map(|&i| names[i].as_str()).collect::<Vec<_>>().join(", "))
            };
            bar.suspend(|| {
                log::info!(
                    "generation {g}, racing round {round}: {} games ({}/{budget}); racing: {}{out}",
                    r.games_played,
                    tally.games(),
                    standings_line(names, &keep, &ratings, z)
                )
            });
            active = keep;
        };
        let race = RaceOutcome { tally, ratings, dropped, rounds: round, end, budget };
        let summary = summarise_race(g, names, &field.origins, &race, started.elapsed().as_secs_f64());
        let csv = gen_dir(&self.cfg.out_dir, g).join("crosstable.csv");
        write_atomic(&csv, crosstable_csv(&summary).as_bytes()).map_err(|e| CoevolveError::io(&csv, e))?;
        Ok(summary)
    }

    /// Racing round `round` (from 1) of generation `g`: one game pair per encounter of `pairs`,
    /// on an opening of its own, journaled in `race-RR.state.jsonl`.
    fn play_round(
        &self,
        g: usize,
        round: usize,
        engines: &[EngineSpec],
        pairs: Vec<(usize, usize)>,
        resume: bool,
        bar: &Progress,
    ) -> Result<MatchResults, CoevolveError> {
        let dir = gen_dir(&self.cfg.out_dir, g);
        let stem = format!("race-{round:02}");
        let mut m = self.base.clone();
        m.engines = engines.to_vec();
        m.tournament = Tournament::RoundRobin;
        m.pairs = pairs;
        m.games = 2;
        m.rounds = 1;
        // Fresh openings every round, reproducibly, and not the round robin's.
        let seed = crate::hash::mix64(
            self.cfg.seed.rotate_left(17)
                ^ (g as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ (round as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F),
        );
        self.deal(&mut m, g, engines.len(), Use::RacingRound(round), seed)?;
        m.event = "evochess coevolution: racing".into();
        journal(&mut m, &dir, &stem, &format!("{stem}.json"), resume);
        let mut obs = GenObserver::quiet(g, bar);
        Ok(play_match(&m, &mut obs)?)
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::coevolve::CoevolveConfig;

    fn wdl(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl { wins, draws, losses }
    }

    #[test]
    fn selection_is_configured_by_name() {
        let cfg =
            CoevolveConfig::parse("selection = \"racing\"\nracing_games = 120\nracing_confidence = 0.9\n").unwrap();
        assert_eq!((cfg.selection, cfg.racing_games, cfg.racing_confidence), (Scheme::Racing, 120, 0.9));
        assert_eq!(CoevolveConfig::default().selection, Scheme::RoundRobin);
        let e = CoevolveConfig::parse("selection = \"racin\"\n").unwrap_err().to_string();
        assert!(e.contains("selection = \"racin\"") && e.contains("\"racing\""), "{e}");
        // Part of the run's identity only when racing, so round-robin runs keep their fingerprint.
        let json = serde_json::to_string(&cfg).unwrap();
        assert!(json.contains("\"selection\":\"racing\"") && json.contains("\"racing_games\":120"), "{json}");
        let json = serde_json::to_string(&CoevolveConfig::default()).unwrap();
        assert!(!json.contains("round-robin") && !json.contains("racing"), "{json}");
        assert!((z_two_sided(0.95) - 1.959_964).abs() < 1e-5);
    }

    #[test]
    fn a_tally_adds_results_from_either_side() {
        let mut t = Tally::default();
        t.add(2, 0, wdl(1, 1, 0));
        t.add(0, 2, wdl(0, 0, 2));
        t.add(1, 2, wdl(1, 0, 1));
        assert_eq!(t.games(), 6);
        assert_eq!(t.results(), vec![(0, 2, wdl(0, 1, 3)), (1, 2, wdl(1, 0, 1))]);
        let r = t.ratings(3).unwrap();
        assert!(r.elo[2] > r.elo[1] && r.elo[1] > r.elo[0], "{r:?}");
    }

    #[test]
    fn a_round_pairs_neighbours_then_one_random_opponent_each() {
        let elo = [0.0, 50.0, -20.0, 10.0, 30.0, -40.0];
        let active = [0, 1, 3, 4, 5];
        let mut rng = StdRng::seed_from_u64(7);
        let pairs = round_pairs(&active, &elo, &mut rng);
        // Rating order 1, 4, 3, 0, 5: its neighbours come first.
        assert_eq!(pairs[..4], [(1, 4), (3, 4), (0, 3), (0, 5)]);
        assert!(pairs.len() > 4 && pairs.len() <= 9, "{pairs:?}");
        for (i, &(a, b)) in pairs.iter().enumerate() {
            assert!(a < b && active.contains(&a) && active.contains(&b), "{pairs:?}");
            assert!(!pairs[..i].contains(&(a, b)), "{pairs:?}");
        }
        // The same seed, the same round; two racers meet once.
        assert_eq!(round_pairs(&active, &elo, &mut StdRng::seed_from_u64(7)), pairs);
        assert_eq!(round_pairs(&[3, 1], &elo, &mut rng), vec![(1, 3)]);
        assert!(round_pairs(&[2], &elo, &mut rng).is_empty());
    }

    #[test]
    fn racers_whose_upper_bound_falls_below_the_elite_s_lower_bound_leave() {
        let r = Ratings { elo: vec![100.0, 40.0, -20.0, -120.0], error: vec![20.0, 20.0, 10.0, 30.0], iterations: 1 };
        // z = 2: lower bounds 60, 0, -40, -180; upper bounds 140, 80, 0, -60.
        assert_eq!(survivors(&[0, 1, 2, 3], &r, 2.0, 1), vec![0, 1]);
        // Two elites: the second-best lower bound is 0, which organism 2 just reaches.
        assert_eq!(survivors(&[0, 1, 2, 3], &r, 2.0, 2), vec![0, 1, 2]);
        assert_eq!(survivors(&[1, 2, 3], &r, 2.0, 1), vec![1, 2]);
        // Wide bounds keep everyone; an elite as large as the field too.
        assert_eq!(survivors(&[0, 1, 2, 3], &r, 10.0, 1), vec![0, 1, 2, 3]);
        assert_eq!(survivors(&[0, 3], &r, 2.0, 5), vec![0, 3]);
        assert!(survivors(&[], &r, 2.0, 1).is_empty());
    }

    #[test]
    fn a_race_s_record_holds_its_cross_table_and_ratings() {
        let mut t = Tally::default();
        t.add(0, 1, wdl(2, 0, 0));
        t.add(1, 2, wdl(1, 1, 0));
        let r = t.ratings(3).unwrap();
        let names: Vec<String> = (0..3).map(|i| format!("g1o{i}")).collect();
        let race = RaceOutcome {
            tally: t,
            ratings: r.clone(),
            dropped: vec![None, None, Some(1)],
            rounds: 1,
            end: RaceEnd::Budget,
            budget: 4,
        };
        let g = summarise_race(1, &names, &[], &race, 0.5);
        assert_eq!((g.best, g.games), (0, 4));
        assert_eq!(g.cross, vec![vec![0.0, 2.0, 0.0], vec![0.0, 0.0, 1.5], vec![0.0, 0.5, 0.0]]);
        let race = g.race.as_ref().unwrap();
        assert_eq!(race.games, vec![vec![0, 2, 0], vec![2, 0, 2], vec![0, 2, 0]]);
        assert_eq!((g.organisms[1].points, g.organisms[1].games, g.organisms[1].wdl), (1.5, 4, wdl(1, 1, 2)));
        assert_eq!(g.organisms[2].rating.as_ref().unwrap().dropped_after, Some(1));
        assert_eq!(g.organisms[0].fitness(), r.elo[0]);
        let csv = crosstable_csv(&g);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines[0],
            "organism,origin,g1o0,g1o1,g1o2,points,games,score,elo,elo_error,rating,rating_se,dropped_after"
        );
        // Points/games per pair; an empty cell where two organisms never met.
        assert!(lines[1].starts_with("g1o0,\"\",-,2/2,,2,2,"), "{csv}");
        assert!(lines[3].starts_with("g1o2,\"\",,0.5/2,-,0.5,2,") && lines[3].ends_with(",1"), "{csv}");
    }
}
