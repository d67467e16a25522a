//! `evolve --broker`: each organism's GM-move count is a task for `tuner worker`s. The run's
//! spec holds the training positions (once); a task holds one organism's evaluation weights;
//! the answer is the number of GM moves it finds, computed by the same code as a local run.

use std::collections::BTreeMap;

use evochess::params::EvalParams;
use serde::{Deserialize, Serialize};

use super::{
    fitness::{FitnessSearch, Prepared, count_solved, prepare_all},
    positions::GmPosition,
};
use crate::{
    broker::{
        BrokerConfig, BrokerError,
        coordinator::gather,
        kinds::{PreparedRun, TaskKind, answer_json},
        run_id, signature,
        wire::{signature_mismatches, spec_json},
    },
    hash::fnv1a,
};

/// The `kind` of an evolve run's spec.
pub const KIND: &str = "fitness";

/// What every task of an evolve run shares.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitnessSpec {
    pub positions: Vec<GmPosition>,
    pub search: FitnessSearch,
    pub signatures: BTreeMap<String, String>,
}

impl FitnessSpec {
    /// The positions, expanded as a local run expands them.
    pub fn prepare(&self) -> Result<Vec<Prepared>, String> {
        let parsed = self.positions.iter().map(GmPosition::parse).collect::<Result<Vec<_>, _>>()?;
        let (prepared, dropped) = prepare_all(&parsed, 1);
        if dropped > 0 {
            return Err(format!("{dropped} position(s) of the spec have an illegal move"));
        }
        Ok(prepared)
    }
}

/// One organism.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitnessTask {
    pub eval: EvalParams,
}

/// A worker's count for one organism.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitnessAnswer {
    pub solved: u32,
    pub signatures: BTreeMap<String, String>,
}

/// What a worker computes for a task.
pub fn answer(spec: &FitnessSpec, prepared: &[Prepared], task: &FitnessTask) -> FitnessAnswer {
    FitnessAnswer {
        solved: count_solved(prepared, &task.eval, spec.search),
        signatures: signature::library_signatures(),
    }
}

/// The worker's side: evolve runs, registered with `tuner worker`.
pub struct FitnessKind;

impl TaskKind for FitnessKind {
    fn kind(&self) -> &'static str {
        KIND
    }

    fn prepare(&self, spec: serde_json::Value) -> Result<Box<dyn PreparedRun>, String> {
        let spec: FitnessSpec = serde_json::from_value(spec).map_err(|e| format!("unreadable run spec: {e}"))?;
        let prepared = spec.prepare()?;
        Ok(Box::new(FitnessRun { spec, prepared }))
    }
}

/// An evolve run's positions, expanded once per worker.
struct FitnessRun {
    spec: FitnessSpec,
    prepared: Vec<Prepared>,
}

impl PreparedRun for FitnessRun {
    fn answer(&self, task: &str) -> Result<String, String> {
        let task: FitnessTask = serde_json::from_str(task).map_err(|e| format!("not a fitness task: {e}"))?;
        answer_json(&answer(&self.spec, &self.prepared, &task))
    }
}

/// The coordinator's side: counts of organisms, computed by workers.
pub struct RemoteFitness {
    broker: BrokerConfig,
    spec: FitnessSpec,
    spec_json: String,
    run: String,
}

impl RemoteFitness {
    /// A remote fitness over `train` (the run's training positions), for the run identified by
    /// `fingerprint`.
    pub fn new(broker: BrokerConfig, train: &[GmPosition], search: FitnessSearch, fingerprint: &str) -> Self {
        let signatures = signature::library_signatures();
        let spec = FitnessSpec { positions: train.to_vec(), search, signatures };
        let spec_json = spec_json(KIND, &spec);
        let run = run_id("evolve", &format!("{fingerprint}\n{spec_json}"));
        RemoteFitness { broker, spec, spec_json, run }
    }

    /// GM moves found by each organism, in order. Equal organisms are one task; answers left
    /// by a coordinator that stopped mid-generation are used.
    pub fn count_solved(&self, organisms: &[EvalParams]) -> Result<Vec<u32>, BrokerError> {
        let tasks: Vec<(String, String)> = organisms
            .iter()
            .map(|e| {
                let body = serde_json::to_string(&FitnessTask { eval: e.clone() }).expect("serialises");
                (format!("o{:016x}", fnv1a(&body)), body)
            })
            .collect();
        let n = self.spec.positions.len() as u32;
        let solved = gather(&self.broker, &self.run, &self.spec_json, &tasks, |_, body| {
            let answer: FitnessAnswer = serde_json::from_str(body).map_err(|e| e.to_string())?;
            let bad = signature_mismatches(&self.spec.signatures, &answer.signatures);
            if !bad.is_empty() {
                return Err(format!("build differs: {}", bad.join("; ")));
            }
            if answer.solved > n {
                return Err(format!("{} solved of {n} positions", answer.solved));
            }
            Ok(answer.solved)
        })?;
        Ok(tasks.iter().map(|(id, _)| solved[id]).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{evolve::fitness::FitnessSearch, evolve::positions::GmPosition};

    #[test]
    fn the_spec_json_is_the_one_the_broker_always_stored() {
        // Written by the tuner at 49c4e69, when the broker's `RunSpec` enum held this spec:
        // run ids are hashes of it, so a coordinator resumed across the change finds its run.
        let before = r#"{"kind":"fitness","positions":[{"fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1","uci":"e7e5","outcome":-1},{"fen":"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1","uci":"e1d2"}],"search":"static","signatures":{"evochess-library":"bench 4977478"}}"#;
        let spec = FitnessSpec {
            positions: vec![
                GmPosition {
                    fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into(),
                    uci: "e7e5".into(),
                    outcome: Some(-1),
                },
                GmPosition { fen: "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1".into(), uci: "e1d2".into(), outcome: None },
            ],
            search: FitnessSearch::Static,
            signatures: [(signature::PROGRAM.to_string(), "bench 4977478".to_string())].into(),
        };
        assert_eq!(spec_json(KIND, &spec), before);
        // And the worker reads it back through the registered kind.
        let read = crate::broker::wire::RunSpec::parse(before.as_bytes()).unwrap();
        let crate::broker::wire::RunSpec::Task(t) = read else { panic!("not a task spec") };
        assert_eq!((t.kind.as_str(), &t.signatures), (KIND, &spec.signatures));
        let run = FitnessKind.prepare(t.json).unwrap();
        let e = run.answer("{}").unwrap_err();
        assert!(e.starts_with("not a fitness task"), "{e}");
    }
}
