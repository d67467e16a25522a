//! What travels through the broker: a run's spec (once per run), tasks and answers (JSON in
//! stream entries). Engines travel by program name and settings, never as a command line.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use arena::{
    adjudicate::AdjudicationConfig, engine::client::Protocol, game::GameRecord, openings::Opening, runner::Unit,
    tc::SearchLimits,
};

/// One engine of a game run, as a worker needs it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoteEngine {
    /// The name in the match (PGN tags, standings).
    pub name: String,
    /// The program, looked up in the worker's engines file (the coordinator's command's file name).
    pub program: String,
    pub proto: Protocol,
    pub options: Vec<(String, String)>,
    pub limits: SearchLimits,
    /// evochess parameter TOML, as text: the worker writes it to a file of its own.
    pub params: Option<String>,
    pub restart: bool,
}

/// Everything a worker needs to play any unit of a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GamesSpec {
    pub engines: Vec<RemoteEngine>,
    pub adjudication: AdjudicationConfig,
    pub stall_timeout_ms: u64,
    pub start_timeout_ms: u64,
    pub ping_timeout_ms: u64,
    pub quit_timeout_ms: u64,
    pub wait_ms: u64,
    /// Bench signature of each program on the coordinator's machine.
    pub signatures: BTreeMap<String, String>,
}

/// The `kind` of a games run's spec.
pub const GAMES: &str = "games";

/// A run's spec, stored once under `NS:run:ID:spec`: a JSON object whose `kind` names what its
/// tasks are: games, played by the broker's own [`super::games`], or a task kind registered
/// with the worker from outside ([`super::kinds::TaskKind`]), which the broker reads no further
/// than its `signatures`.
#[derive(Clone, Debug, PartialEq)]
pub enum RunSpec {
    Games(GamesSpec),
    Task(TaskSpec),
}

/// The spec of a run of a registered task kind.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskSpec {
    pub kind: String,
    /// The programs its tasks run, with the coordinator's signatures.
    pub signatures: BTreeMap<String, String>,
    /// The whole spec, `kind` included, for the kind to read.
    pub json: serde_json::Value,
}

impl RunSpec {
    /// Reads a spec's JSON.
    ///
    /// # Errors
    /// Why it is not a spec: not JSON, no `kind`, no `signatures`, a games spec that does not read.
    pub fn parse(bytes: &[u8]) -> Result<RunSpec, String> {
        #[derive(Deserialize)]
        struct Head {
            kind: String,
            signatures: BTreeMap<String, String>,
        }
        let json: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
        let head = Head::deserialize(&json).map_err(|e| e.to_string())?;
        if head.kind == GAMES {
            return serde_json::from_value(json).map(RunSpec::Games).map_err(|e| e.to_string());
        }
        Ok(RunSpec::Task(TaskSpec { kind: head.kind, signatures: head.signatures, json }))
    }

    /// The programs a worker must have, with the coordinator's signatures.
    pub fn signatures(&self) -> &BTreeMap<String, String> {
        match self {
            RunSpec::Games(g) => &g.signatures,
            RunSpec::Task(t) => &t.signatures,
        }
    }
}

/// A spec's JSON: `{"kind": KIND, ...}` with the spec's own fields after the tag (the form the
/// broker's specs have always had, so run ids, made from it, stay the same).
pub fn spec_json<T: Serialize>(kind: &str, spec: &T) -> String {
    #[derive(Serialize)]
    struct Tagged<'a, T> {
        kind: &'a str,
        #[serde(flatten)]
        spec: &'a T,
    }
    serde_json::to_string(&Tagged { kind, spec }).expect("spec serialises")
}

/// One unit of a match: a game, or a pair of games on one opening.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GamesTask {
    pub unit: u64,
    pub round: u32,
    pub opening_index: u64,
    /// (white, black) engine indices of each game.
    pub games: Vec<(usize, usize)>,
    pub opening: Opening,
}

impl GamesTask {
    /// The arena's unit this task plays.
    pub fn unit(&self) -> Unit {
        Unit { id: self.unit, round: self.round, opening_index: self.opening_index, games: self.games.clone() }
    }
}

/// A worker's answer to a [`GamesTask`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GamesAnswer {
    pub games: Vec<GameRecord>,
    /// The signatures the worker's programs gave.
    pub signatures: BTreeMap<String, String>,
}

/// Field names of stream entries.
pub mod field {
    /// The task's id (a unit number, an organism index): the key of idempotent collection.
    pub const TASK: &str = "task";
    /// JSON of the task or of the answer.
    pub const BODY: &str = "body";
    /// The consumer name of the worker that answered.
    pub const WORKER: &str = "worker";
    /// In place of a body: why the worker would not run the run's tasks.
    pub const REFUSED: &str = "refused";
    /// In place of a body: the task went to the dead-letter stream, and why.
    pub const DEAD: &str = "dead";
    /// In a dead-letter entry: the run, the task's entry id and the reason.
    pub const RUN: &str = "run";
    pub const ENTRY: &str = "entry";
    pub const REASON: &str = "reason";
}

/// Checks a worker's answer to a games task against the task: one record per game (all of them,
/// none aborted), the right engines in the right colours.
pub fn check_games_answer(task: &GamesTask, answer: &GamesAnswer, names: &[String]) -> Result<(), String> {
    if answer.games.len() != task.games.len() {
        return Err(format!("{} games for a task of {}", answer.games.len(), task.games.len()));
    }
    for (g, &(w, b)) in answer.games.iter().zip(&task.games) {
        if (g.white_index, g.black_index) != (w, b) {
            return Err(format!(
                "game with engines {} v {}, the task asked for {w} v {b}",
                g.white_index, g.black_index
            ));
        }
        let name = |i: usize| names.get(i).map_or("?", String::as_str);
        if g.white != name(w) || g.black != name(b) {
            return Err(format!("game between `{}` and `{}`, not `{}` and `{}`", g.white, g.black, name(w), name(b)));
        }
        if g.result.termination == arena::outcome::Termination::Aborted {
            return Err("an aborted game".into());
        }
        if g.round != task.round || g.opening_index != task.opening_index {
            return Err(format!("game of round {} opening {}, not of the task's", g.round, g.opening_index));
        }
    }
    Ok(())
}

/// Differences between the coordinator's and a worker's signatures, one line per program.
pub fn signature_mismatches(wanted: &BTreeMap<String, String>, got: &BTreeMap<String, String>) -> Vec<String> {
    wanted
        .iter()
        .filter_map(|(program, want)| match got.get(program) {
            Some(g) if g == want => None,
            Some(g) => Some(format!("`{program}`: this build gives {g}, the coordinator's gives {want}")),
            None => Some(format!("`{program}`: no signature")),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games_spec() -> GamesSpec {
        let engine = |name: &str| RemoteEngine {
            name: name.into(),
            program: "evochess".into(),
            proto: Protocol::Uci,
            options: vec![("Hash".into(), "16".into())],
            limits: SearchLimits { nodes: Some(50), ..SearchLimits::default() },
            params: Some("[eval]\n".into()),
            restart: false,
        };
        GamesSpec {
            engines: vec![engine("a"), engine("b")],
            adjudication: AdjudicationConfig::default(),
            stall_timeout_ms: 30000,
            start_timeout_ms: 30000,
            ping_timeout_ms: 30000,
            quit_timeout_ms: 2000,
            wait_ms: 0,
            signatures: [("evochess".to_string(), "bench 1".to_string())].into(),
        }
    }

    #[test]
    fn a_games_spec_is_the_json_the_tagged_enum_wrote_and_reads_back() {
        // The form of the broker's specs until its `RunSpec` stopped naming the objectives'
        // specs: an internally tagged enum. Run ids hash this text, so it must not change.
        #[derive(Serialize)]
        #[serde(tag = "kind", rename_all = "snake_case")]
        enum Before {
            Games(GamesSpec),
        }
        let spec = games_spec();
        let json = spec_json(GAMES, &spec);
        assert_eq!(json, serde_json::to_string(&Before::Games(spec.clone())).unwrap());
        assert_eq!(RunSpec::parse(json.as_bytes()).unwrap(), RunSpec::Games(spec));
    }

    #[test]
    fn other_kinds_are_left_to_their_registration_and_bad_specs_named() {
        let spec = RunSpec::parse(br#"{"kind":"fitness","signatures":{"p":"bench 2"},"x":[1]}"#).unwrap();
        let RunSpec::Task(t) = &spec else { panic!("{spec:?}") };
        assert_eq!(t.kind, "fitness");
        assert_eq!(spec.signatures(), &BTreeMap::from([("p".to_string(), "bench 2".to_string())]));
        assert_eq!(t.json["x"][0], 1);
        assert!(RunSpec::parse(br#"{"signatures":{}}"#).unwrap_err().contains("kind"));
        assert!(RunSpec::parse(br#"{"kind":"fitness"}"#).unwrap_err().contains("signatures"));
        assert!(RunSpec::parse(br#"{"kind":"games","signatures":{}}"#).unwrap_err().contains("engines"));
        assert!(RunSpec::parse(b"\xff").is_err());
    }
}
