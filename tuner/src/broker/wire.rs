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

/// The most a games spec may ask of a worker. A task runs for as long as its limits say while
/// the worker's heartbeat keeps renewing its claim, so neither a takeover nor `--max-deliveries`
/// would end a forged one (a `wait_ms` of years, a search of 10^18 nodes): a worker refuses a
/// spec beyond these, and so does a coordinator before it publishes one.
pub mod caps {
    /// Pause before a worker's next game (`-wait`): one minute.
    pub const WAIT_MS: u64 = 60_000;
    /// Each of the stall, start-up, ping and quit timeouts: one hour.
    pub const TIMEOUT_MS: u64 = 3_600_000;
    /// Nodes of one search (`nodes=`): a billion.
    pub const NODES: u64 = 1_000_000_000;
    /// Depth of one search (`depth=`).
    pub const DEPTH: u32 = 255;
    /// A clock's base time (`tc=`): four hours.
    pub const CLOCK_MS: u64 = 4 * 3_600_000;
    /// A clock's increment and a fixed time per move (`st=`): ten minutes.
    pub const MOVE_MS: u64 = 600_000;
    /// Time an engine may overrun its clock (`timemargin=`): one minute.
    pub const MARGIN_MS: u64 = 60_000;
}

/// `field = value` when above `cap`, as a refusal names it.
fn over(field: &str, value: u64, cap: u64, unit: &str) -> Result<(), String> {
    if value > cap {
        return Err(format!("{field} = {value} is above the cap of {cap}{unit}"));
    }
    Ok(())
}

impl GamesSpec {
    /// Checks every limit of the spec against [`caps`].
    ///
    /// # Errors
    /// The first limit above its cap, with the field, its value and the cap.
    pub fn check_caps(&self) -> Result<(), String> {
        over("wait_ms", self.wait_ms, caps::WAIT_MS, " ms")?;
        for (field, ms) in [
            ("stall_timeout_ms", self.stall_timeout_ms),
            ("start_timeout_ms", self.start_timeout_ms),
            ("ping_timeout_ms", self.ping_timeout_ms),
            ("quit_timeout_ms", self.quit_timeout_ms),
        ] {
            over(field, ms, caps::TIMEOUT_MS, " ms")?;
        }
        for (i, e) in self.engines.iter().enumerate() {
            let who = format!("engine {i} ({:?})", e.name);
            check_limits(&e.limits).map_err(|why| format!("{who}: {why}"))?;
        }
        Ok(())
    }
}

/// Checks one engine's limits against [`caps`] (fields named as in the spec: `limits.nodes`).
///
/// # Errors
/// The first limit above its cap.
pub fn check_limits(l: &SearchLimits) -> Result<(), String> {
    if let Some(n) = l.nodes {
        over("limits.nodes", n, caps::NODES, " nodes")?;
    }
    if let Some(d) = l.depth {
        over("limits.depth", u64::from(d), u64::from(caps::DEPTH), " plies")?;
    }
    if let Some(ms) = l.movetime_ms {
        over("limits.movetime_ms", ms, caps::MOVE_MS, " ms")?;
    }
    if let Some(c) = &l.clock {
        over("limits.clock.base_ms", c.base_ms, caps::CLOCK_MS, " ms")?;
        over("limits.clock.inc_ms", c.inc_ms, caps::MOVE_MS, " ms")?;
    }
    over("limits.margin_ms", l.margin_ms, caps::MARGIN_MS, " ms")
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
    /// The entry's HMAC (see [`crate::broker::mac`]): of the task's body in a task, of the
    /// body, refusal or dead-letter note in an answer.
    pub const MAC: &str = "mac";
}

/// What follows a run's key for its spec's MAC (`NS:run:ID:spec_mac`).
pub const SPEC_MAC: &str = "spec_mac";

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
    fn limits_above_the_caps_are_named_with_the_cap() {
        assert_eq!(games_spec().check_caps(), Ok(()));
        let mut s = games_spec();
        s.wait_ms = 4_000_000_000_000;
        assert_eq!(s.check_caps().unwrap_err(), "wait_ms = 4000000000000 is above the cap of 60000 ms");
        let mut s = games_spec();
        s.engines[1].limits.nodes = Some(caps::NODES + 1);
        let e = s.check_caps().unwrap_err();
        assert!(e.starts_with("engine 1 (\"b\"): limits.nodes = 1000000001") && e.contains("cap of 1000000000"), "{e}");
        let mut s = games_spec();
        s.engines[0].limits.clock = Some(arena::tc::ClockTc { moves: None, base_ms: u64::MAX, inc_ms: 0 });
        assert!(s.check_caps().unwrap_err().contains("limits.clock.base_ms"));
        let mut s = games_spec();
        s.quit_timeout_ms = caps::TIMEOUT_MS;
        s.engines[0].limits =
            SearchLimits { depth: Some(caps::DEPTH), movetime_ms: Some(caps::MOVE_MS), ..s.engines[0].limits.clone() };
        assert_eq!(s.check_caps(), Ok(()), "the caps themselves are allowed");
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
