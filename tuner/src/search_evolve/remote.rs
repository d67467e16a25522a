//! `search-evolve --broker`: node counts on `tuner worker`s. The run's spec holds the training
//! positions and the node cap (once); a task is one organism's parameters on a chunk of the
//! positions, so a population of 10 still keeps many workers busy; the answer is the chunk's node
//! total and solved count, computed by the same [`solve_nodes`] as a local run.

use std::collections::BTreeMap;

use evochess::{measure::nodes_to_solve::solve_nodes, params::Params};
use serde::{Deserialize, Serialize};
use shakmaty::{CastlingMode, Chess, Move, fen::Fen, uci::UciMove};

use super::NodeCount;
use crate::{
    broker::{
        BrokerConfig, BrokerError,
        coordinator::gather,
        kinds::{PreparedRun, TaskKind, answer_json},
        run_id, signature,
        wire::{signature_mismatches, spec_json},
    },
    epd::SuitePosition,
    hash::fnv1a,
};

/// The `kind` of a search-evolve run's spec.
pub const KIND: &str = "nodes";

/// Positions per task.
const CHUNK: usize = 25;

/// One suite position as it travels: FEN and the moves in UCI notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodesPosition {
    pub fen: String,
    pub best: Vec<String>,
    pub avoid: Vec<String>,
}

/// What every task of a search-evolve run shares.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodesSpec {
    pub positions: Vec<NodesPosition>,
    pub node_cap: u64,
    pub signatures: BTreeMap<String, String>,
}

/// A position ready for [`solve_nodes`].
pub struct Parsed {
    pos: Chess,
    best: Vec<Move>,
    avoid: Vec<Move>,
}

impl NodesSpec {
    /// The positions, parsed (the worker's side).
    pub fn parse(&self) -> Result<Vec<Parsed>, String> {
        self.positions
            .iter()
            .map(|p| {
                let fen: Fen = p.fen.parse().map_err(|e| format!("bad FEN `{}`: {e}", p.fen))?;
                let pos: Chess =
                    fen.into_position(CastlingMode::Standard).map_err(|e| format!("bad position `{}`: {e}", p.fen))?;
                let moves = |list: &[String]| -> Result<Vec<Move>, String> {
                    list.iter()
                        .map(|m| {
                            let uci: UciMove = m.parse().map_err(|e| format!("bad move `{m}`: {e}"))?;
                            uci.to_move(&pos).map_err(|e| format!("illegal move `{m}` in `{}`: {e}", p.fen))
                        })
                        .collect()
                };
                Ok(Parsed { best: moves(&p.best)?, avoid: moves(&p.avoid)?, pos: pos.clone() })
            })
            .collect()
    }
}

/// One organism on positions `from..to`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodesTask {
    pub params: Params,
    pub from: usize,
    pub to: usize,
}

/// A chunk's totals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodesAnswer {
    pub nodes: u64,
    pub solved: usize,
    pub signatures: BTreeMap<String, String>,
}

/// What a worker computes for a task; `Err` for a chunk outside the spec.
pub fn answer(spec: &NodesSpec, parsed: &[Parsed], task: &NodesTask) -> Result<NodesAnswer, String> {
    let chunk = parsed
        .get(task.from..task.to)
        .ok_or_else(|| format!("positions {}..{} of {}", task.from, task.to, parsed.len()))?;
    let mut out = NodesAnswer { nodes: 0, solved: 0, signatures: signature::library_signatures() };
    for p in chunk {
        let r = solve_nodes(&p.pos, &task.params, &p.best, &p.avoid, spec.node_cap);
        out.nodes += r.cost(spec.node_cap);
        out.solved += usize::from(r.solved_at.is_some());
    }
    Ok(out)
}

/// The worker's side: search-evolve runs, registered with `tuner worker`.
pub struct NodesKind;

impl TaskKind for NodesKind {
    fn kind(&self) -> &'static str {
        KIND
    }

    fn prepare(&self, spec: serde_json::Value) -> Result<Box<dyn PreparedRun>, String> {
        let spec: NodesSpec = serde_json::from_value(spec).map_err(|e| format!("unreadable run spec: {e}"))?;
        // Each search would hold the task (and its claim) for as long as the cap says.
        let most = crate::broker::wire::caps::NODES;
        if spec.node_cap > most {
            return Err(format!("task limits: node_cap = {} is above the cap of {most} nodes", spec.node_cap));
        }
        let parsed = spec.parse()?;
        Ok(Box::new(NodesRun { spec, parsed }))
    }
}

/// A search-evolve run's positions, parsed once per worker.
struct NodesRun {
    spec: NodesSpec,
    parsed: Vec<Parsed>,
}

impl PreparedRun for NodesRun {
    fn answer(&self, task: &str) -> Result<String, String> {
        let task: NodesTask = serde_json::from_str(task).map_err(|e| format!("not a node-count task: {e}"))?;
        answer_json(&answer(&self.spec, &self.parsed, &task)?)
    }
}

/// The coordinator's side: node totals of organisms, computed by workers.
pub struct RemoteNodes {
    broker: BrokerConfig,
    spec: NodesSpec,
    spec_json: String,
    run: String,
}

impl RemoteNodes {
    pub fn new(broker: BrokerConfig, train: &[SuitePosition], node_cap: u64, fingerprint: &str) -> Self {
        let uci = |m: &Move| m.to_uci(CastlingMode::Standard).to_string();
        let positions = train
            .iter()
            .map(|p| NodesPosition {
                fen: p.fen.clone(),
                best: p.entry.best.iter().map(uci).collect(),
                avoid: p.entry.avoid.iter().map(uci).collect(),
            })
            .collect();
        let signatures = signature::library_signatures();
        let spec = NodesSpec { positions, node_cap, signatures };
        let spec_json = spec_json(KIND, &spec);
        let run = run_id("search", &format!("{fingerprint}\n{spec_json}"));
        RemoteNodes { broker, spec, spec_json, run }
    }

    /// Node totals of each parameter set on the training positions, in order.
    pub fn count(&self, organisms: &[Params]) -> Result<Vec<NodeCount>, BrokerError> {
        let n = self.spec.positions.len();
        let mut tasks = Vec::new();
        let mut owners = Vec::new();
        for (k, params) in organisms.iter().enumerate() {
            for from in (0..n).step_by(CHUNK) {
                let task = NodesTask { params: params.clone(), from, to: (from + CHUNK).min(n) };
                let body = serde_json::to_string(&task).expect("task serialises");
                tasks.push((format!("n{:016x}", fnv1a(&body)), body));
                owners.push((k, task.to - task.from));
            }
        }
        let sizes: std::collections::HashMap<&str, usize> =
            tasks.iter().zip(&owners).map(|((id, _), &(_, size))| (id.as_str(), size)).collect();
        let cap = self.spec.node_cap;
        let answers = gather(&self.broker, &self.run, &self.spec_json, &tasks, |task, body| {
            let a: NodesAnswer = serde_json::from_str(body).map_err(|e| e.to_string())?;
            let bad = signature_mismatches(&self.spec.signatures, &a.signatures);
            if !bad.is_empty() {
                return Err(format!("build differs: {}", bad.join("; ")));
            }
            let size = sizes.get(task).copied().unwrap_or(0);
            if a.solved > size || a.nodes > cap * size as u64 {
                return Err(format!("{} nodes, {} solved of {size} positions", a.nodes, a.solved));
            }
            Ok(a)
        })?;
        let mut out = vec![NodeCount { positions: n, ..NodeCount::default() }; organisms.len()];
        for ((id, _), &(k, _)) in tasks.iter().zip(&owners) {
            out[k].nodes += answers[id].nodes;
            out[k].solved += answers[id].solved;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spec_json_is_the_one_the_broker_always_stored() {
        // Written by the tuner at 49c4e69, when the broker's `RunSpec` enum held this spec.
        let before = r#"{"kind":"nodes","positions":[{"fen":"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1","best":["e1d2"],"avoid":["e2e4","e1f1"]}],"node_cap":250000,"signatures":{"evochess-library":"bench 4977478"}}"#;
        let spec = NodesSpec {
            positions: vec![NodesPosition {
                fen: "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1".into(),
                best: vec!["e1d2".into()],
                avoid: vec!["e2e4".into(), "e1f1".into()],
            }],
            node_cap: 250000,
            signatures: [(signature::PROGRAM.to_string(), "bench 4977478".to_string())].into(),
        };
        assert_eq!(spec_json(KIND, &spec), before);
        let crate::broker::wire::RunSpec::Task(t) = crate::broker::wire::RunSpec::parse(before.as_bytes()).unwrap()
        else {
            panic!("not a task spec")
        };
        let run = NodesKind.prepare(t.json).unwrap();
        let e = run.answer(r#"{"params":{},"from":0,"to":9}"#).unwrap_err();
        assert!(e.contains("node-count task") || e.contains("positions 0..9 of 1"), "{e}");
    }
}
