//! Task kinds registered with a worker from outside the broker: how an objective computed in
//! the worker's process (GM-move counts, node counts) travels without the broker naming it. The
//! objective's module implements [`TaskKind`] for its specs and tasks; the command that starts
//! a worker passes the kinds it serves in [`super::worker::WorkerConfig::kinds`]. The broker
//! checks a spec's signatures and routes its tasks by the spec's `kind`; only games, its own
//! kind, it reads itself.

use serde::Serialize;

/// A kind of in-process run a worker can serve.
pub trait TaskKind: Send + Sync {
    /// The `kind` of its specs.
    fn kind(&self) -> &'static str;
    /// A run's work, read from its spec (the whole JSON object) once per run.
    ///
    /// # Errors
    /// Why the spec cannot be served (the run's tasks become dead letters).
    fn prepare(&self, spec: serde_json::Value) -> Result<Box<dyn PreparedRun>, String>;
}

/// A run of a [`TaskKind`], ready to answer its tasks.
pub trait PreparedRun: Send + Sync {
    /// The answer's JSON to a task's body.
    ///
    /// # Errors
    /// Why the task cannot be answered (it becomes a dead letter).
    fn answer(&self, task: &str) -> Result<String, String>;
}

/// An answer's JSON; a value that does not serialise (a non-finite number from a forged task)
/// is a reason for a dead letter rather than a panic.
pub fn answer_json(value: &impl Serialize) -> Result<String, String> {
    serde_json::to_string(value).map_err(|e| format!("its answer does not serialise: {e}"))
}

/// The task kinds a worker serves, by their `kind`.
#[derive(Clone, Default)]
pub struct TaskKinds(Vec<std::sync::Arc<dyn TaskKind>>);

impl TaskKinds {
    pub fn new(kinds: Vec<std::sync::Arc<dyn TaskKind>>) -> TaskKinds {
        TaskKinds(kinds)
    }

    pub fn get(&self, kind: &str) -> Option<&dyn TaskKind> {
        self.0.iter().find(|k| k.kind() == kind).map(|k| &**k)
    }

    /// The kinds' names, for messages.
    pub fn names(&self) -> Vec<&'static str> {
        self.0.iter().map(|k| k.kind()).collect()
    }
}

impl std::fmt::Debug for TaskKinds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}
