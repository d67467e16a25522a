//! `tuner worker`: serves the tasks that commands given `--broker` publish.

use std::{path::PathBuf, sync::Arc, time::Duration};

use anyhow::Context as _;

use crate::{
    broker::{
        BrokerConfig,
        kinds::TaskKinds,
        mac::Secret,
        worker::{self, EnginesFile, WorkerConfig},
    },
    evolve::remote::FitnessKind,
    search_evolve::remote::NodesKind,
};

/// Take games and fitness tasks from a Redis broker and run them here.
///
/// The engines a task names are looked up in the engines file (`[engines.NAME] cmd = ...`,
/// NAME being the file name of the coordinator's engine command); without one, only the
/// evochess next to this tuner. Each program's bench signature must equal the coordinator's.
/// `[engines.NAME.options]` lists the options a task may set (`Threads = { max = 4 }`,
/// `SyzygyPath = { dirs = ["/srv/syzygy"] }`, ...); a task asking for anything else goes to the
/// dead-letter stream.
///
/// Specs, tasks and answers are signed with the coordinator's secret file (--secret): a run
/// whose spec does not verify is not served, a task that does not verify is not run.
#[derive(clap::Args, Debug, Clone)]
pub struct WorkerArgs {
    /// The broker: `redis://[user:pass@]HOST:PORT[/db]` (`rediss://` for TLS).
    #[arg(long, value_name = "URL")]
    pub broker: String,
    /// Tasks run at once (0 = all cores).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// The programs this worker may run (TOML).
    #[arg(long, value_name = "FILE.toml")]
    pub engines: Option<PathBuf>,
    /// Prefix of the broker's keys (as the coordinator's --broker-namespace).
    #[arg(long, value_name = "NAME", default_value = BrokerConfig::DEFAULT_NAMESPACE)]
    pub namespace: String,
    /// Seconds without renewal after which another worker takes a task over.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub visibility: f64,
    /// This worker's name on the broker (default: HOST-PID): its task slots are the consumers
    /// NAME-0, NAME-1, ... of the streams' group, and the coordinator's log and the dead-letter
    /// notes name it so. Give each worker a name of its own; control characters are escaped
    /// when it is printed.
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Exit (status 0) after this many seconds without a task, as a batch job or a cloud
    /// instance that should stop when the run is over; without it the worker serves until
    /// killed (SIGTERM/SIGINT).
    #[arg(long, value_name = "SECONDS")]
    pub idle_exit: Option<f64>,
    /// A task handed out more often than this without an answer (its workers died on it) goes
    /// to the dead-letter stream, and its coordinator stops with the reason.
    #[arg(long, value_name = "N", default_value_t = WorkerConfig::DEFAULT_MAX_DELIVERIES)]
    pub max_deliveries: u64,
    /// A copy of the coordinator's secret file (its --broker-secret), mode 0600. Default:
    /// $XDG_CONFIG_HOME/evochess/broker.secret (or ~/.config/evochess/broker.secret), which a
    /// coordinator on this machine creates; a worker never creates one.
    #[arg(long, value_name = "FILE")]
    pub secret: Option<PathBuf>,
}

pub fn run(args: WorkerArgs) -> anyhow::Result<()> {
    let secret_path = match &args.secret {
        Some(p) => p.clone(),
        None => Secret::default_path()?,
    };
    let secret = Secret::load(&secret_path)?;
    log::info!("worker: checking and signing with the secret file {}", secret_path.display());
    let mut broker = BrokerConfig::new(&args.broker, secret)?;
    broker.namespace = args.namespace.clone();
    if !(args.visibility.is_finite() && args.visibility >= 0.5) {
        anyhow::bail!("--visibility {}: at least 0.5 seconds", args.visibility);
    }
    broker.visibility = Duration::from_secs_f64(args.visibility);
    let engines = match &args.engines {
        Some(p) => EnginesFile::load(p)?,
        None => EnginesFile::beside_tuner(),
    };
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_else(|_| "worker".into());
    let name = args.name.clone().unwrap_or_else(|| format!("{}-{}", host.trim(), std::process::id()));
    let concurrency = crate::ga::threads(args.concurrency);
    let idle_exit = match args.idle_exit {
        Some(s) if s.is_finite() && s >= 0.0 => Some(Duration::from_secs_f64(s)),
        Some(s) => anyhow::bail!("--idle-exit {s}: a number of seconds"),
        None => None,
    };
    if args.max_deliveries == 0 {
        anyhow::bail!("--max-deliveries 0: at least 1");
    }
    let max_deliveries = args.max_deliveries;
    // The in-process objectives a worker serves beside games.
    let kinds = TaskKinds::new(vec![Arc::new(FitnessKind), Arc::new(NodesKind)]);
    // SIGTERM and SIGINT stop the worker after it removed its directory (a second one ends it
    // at once).
    let interrupt = Some(crate::signals::catch_termination().context("installing the SIGTERM/SIGINT handler")?);
    let cfg = WorkerConfig { broker, concurrency, engines, name, idle_exit, max_deliveries, kinds, interrupt };
    let done = worker::run(cfg)?;
    match crate::signals::received() {
        Some(s) => eprintln!("worker: stopped by {}; {done} task(s) done", crate::signals::name(s)),
        None => eprintln!("worker: {done} task(s) done"),
    }
    Ok(())
}
