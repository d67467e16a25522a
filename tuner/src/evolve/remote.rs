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
        run_id, signature,
        wire::{RunSpec, signature_mismatches},
    },
    hash::fnv1a,
};

/// The signature key of the tuner's in-process evaluation and search.
pub const PROGRAM: &str = "evochess-library";

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
        let spec_json = serde_json::to_string(&RunSpec::Fitness(spec.clone())).expect("spec serialises");
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
