//! `evolve --broker`: each organism's GM-move count is a task for `tuner worker`s. The run's
//! spec holds the training positions (once); a task holds one organism's evaluation weights;
//! the answer is the number of GM moves it finds, computed by the same code as a local run.

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    time::Duration,
};

use evochess::params::EvalParams;
use serde::{Deserialize, Serialize};

use super::{
    fitness::{FitnessSearch, Prepared, count_solved, prepare_all},
    positions::GmPosition,
};
use crate::{
    broker::{
        BrokerConfig, BrokerError,
        coordinator::{Coordinator, Patience},
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
        signatures: BTreeMap::from([(PROGRAM.to_string(), signature::library_signature_cached())]),
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
        let signatures = BTreeMap::from([(PROGRAM.to_string(), signature::library_signature_cached())]);
        let spec = FitnessSpec { positions: train.to_vec(), search, signatures };
        let spec_json = serde_json::to_string(&RunSpec::Fitness(spec.clone())).expect("spec serialises");
        let run = run_id("evolve", &format!("{fingerprint}\n{spec_json}"));
        RemoteFitness { broker, spec, spec_json, run }
    }

    /// GM moves found by each organism, in order. Equal organisms are one task; answers left
    /// by a coordinator that stopped mid-generation are used.
    pub fn count_solved(&self, organisms: &[EvalParams]) -> Result<Vec<u32>, BrokerError> {
        if organisms.is_empty() {
            return Ok(Vec::new());
        }
        let bodies: Vec<String> = organisms
            .iter()
            .map(|e| serde_json::to_string(&FitnessTask { eval: e.clone() }).expect("serialises"))
            .collect();
        let ids: Vec<String> = bodies.iter().map(|b| format!("o{:016x}", fnv1a(b))).collect();
        let wanted: HashSet<&str> = ids.iter().map(String::as_str).collect();
        let mut co = Coordinator::open(&self.broker, &self.run, &self.spec_json, true)?;
        let mut out: HashMap<String, String> = co.published(|t| wanted.contains(t))?;
        for (id, body) in ids.iter().zip(&bodies) {
            if !out.contains_key(id) {
                let entry = co.publish(id, body)?;
                out.insert(id.clone(), entry);
            }
        }
        let mut solved: HashMap<String, u32> = HashMap::new();
        let mut patience = Patience::default();
        let n = self.spec.positions.len() as u32;
        while !out.is_empty() {
            let answers = co.answers(Duration::from_secs(1))?;
            if answers.is_empty() {
                patience.waiting(co.run(), out.len());
            }
            for a in answers {
                co.drop_answer(&a.entry)?;
                let Some(entry) = out.get(&a.task).cloned() else {
                    log::debug!("broker: answer to task {} from {} is not awaited; dropped", a.task, a.worker);
                    continue;
                };
                let checked = a.body.clone().and_then(|body| {
                    let answer: FitnessAnswer = serde_json::from_str(&body).map_err(|e| e.to_string())?;
                    let bad = signature_mismatches(&self.spec.signatures, &answer.signatures);
                    if !bad.is_empty() {
                        return Err(format!("build differs: {}", bad.join("; ")));
                    }
                    if answer.solved > n {
                        return Err(format!("{} solved of {n} positions", answer.solved));
                    }
                    Ok(answer.solved)
                });
                match checked {
                    Ok(count) => {
                        co.drop_task(&entry)?;
                        out.remove(&a.task);
                        solved.insert(a.task.clone(), count);
                        patience.progress();
                    }
                    Err(why) if a.body.is_err() => {
                        log::warn!("broker: worker {} refused task {}: {why}", a.worker, a.task)
                    }
                    Err(why) => {
                        log::warn!("broker: rejected the answer of worker {} to task {}: {why}", a.worker, a.task);
                        co.drop_task(&entry)?;
                        let body = &bodies[ids.iter().position(|i| *i == a.task).expect("awaited ids are ours")];
                        let entry = co.publish(&a.task, body)?;
                        out.insert(a.task.clone(), entry);
                    }
                }
            }
        }
        co.close(true)?;
        Ok(ids.iter().map(|id| solved[id]).collect())
    }
}
