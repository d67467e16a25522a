//! `tuner runs`: list the runs on a broker, or cancel one (see [`crate::broker::runs`]).

use anyhow::Context as _;

use crate::broker::{
    BrokerConfig,
    mac::Secret,
    runs::{self, RunState, RunSummary},
};

/// List the runs on a Redis broker, or cancel one: a run whose coordinator was killed stays
/// there, and workers keep playing it, until it is cancelled.
#[derive(clap::Args, Debug, Clone)]
pub struct RunsArgs {
    #[command(subcommand)]
    pub action: RunsAction,
    /// The broker: `redis://[user:pass@]HOST:PORT[/db]` (`rediss://` for TLS).
    #[arg(long, value_name = "URL", global = true)]
    pub broker: Option<String>,
    /// Prefix of the broker's keys (as the coordinators' --broker-namespace).
    #[arg(long, value_name = "NAME", default_value = BrokerConfig::DEFAULT_NAMESPACE, global = true)]
    pub broker_namespace: String,
}

#[derive(clap::Subcommand, Debug, Clone)]
pub enum RunsAction {
    /// One line per run: id, command, age, tasks queued, claimed and done, workers, last
    /// activity, state (running, orphaned: no coordinator, cancelled).
    List,
    /// Cancel a run: workers stop taking its tasks and drop the ones they hold, its queued
    /// tasks are removed, and its coordinator, if alive, stops with an error saying so.
    Cancel {
        /// The run's id, as `tuner runs list` shows it.
        id: String,
    },
}

pub fn run(args: RunsArgs) -> anyhow::Result<()> {
    let Some(url) = &args.broker else { anyhow::bail!("--broker URL is required: the Redis the runs are on") };
    if args.broker_namespace.is_empty() || args.broker_namespace.contains(char::is_whitespace) {
        anyhow::bail!("--broker-namespace `{}`: a non-empty name without spaces", args.broker_namespace);
    }
    // Listing and cancelling sign nothing: no secret file is read or created.
    let mut cfg = BrokerConfig::new(url, Secret::ephemeral())?;
    cfg.namespace = args.broker_namespace.clone();
    match args.action {
        RunsAction::List => {
            let list = runs::list(&cfg)?;
            print!("{}", table(&list));
            if list.is_empty() {
                eprintln!("no runs in namespace {}", cfg.namespace);
            }
        }
        RunsAction::Cancel { id } => {
            let done =
                runs::cancel(&cfg, &id).with_context(|| format!("cannot cancel run {}", evochess::one_line(&id)))?;
            println!(
                "cancelled run {id}: {} queued task(s) removed, {} claimed (their workers drop them)",
                done.queued, done.claimed
            );
            match done.coordinator {
                Some(c) => println!("its coordinator ({c}) stops within seconds"),
                None => println!("no coordinator held it"),
            }
        }
    }
    Ok(())
}

/// `tuner runs list`'s table: a header and a line per run, in aligned columns.
pub fn table(list: &[RunSummary]) -> String {
    let ago = |d: Option<std::time::Duration>| d.map_or_else(|| "-".into(), |d| format!("{} ago", runs::age(d)));
    let mut rows = vec![
        ["RUN", "COMMAND", "CREATED", "QUEUED", "CLAIMED", "DONE", "WORKERS", "ACTIVE", "STATE"].map(String::from),
    ];
    for r in list {
        let state = match &r.state {
            RunState::Running { coordinator } => format!("running ({coordinator})"),
            RunState::Orphaned => "orphaned (no coordinator)".into(),
            RunState::Cancelled { ago: when, by } => format!("cancelled {} by {by}", ago(*when)),
        };
        let workers = if r.workers.is_empty() {
            "0".to_string()
        } else {
            format!("{} ({})", r.workers.len(), r.workers.iter().cloned().collect::<Vec<_>>().join(", "))
        };
        rows.push([
            r.id.clone(),
            r.command.clone(),
            ago(r.created_ago),
            r.queued.to_string(),
            r.claimed.to_string(),
            r.done.to_string(),
            workers,
            ago(r.active_ago),
            state,
        ]);
    }
    let widths: Vec<usize> = (0..9).map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0)).collect();
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_table_aligns_every_column_and_names_each_state() {
        let run = |id: &str, state| RunSummary {
            id: id.into(),
            command: "spsa".into(),
            created_ago: Some(Duration::from_secs(3720)),
            queued: 12,
            claimed: 2,
            done: 140,
            workers: ["box-a".to_string(), "box-b".to_string()].into(),
            active_ago: Some(Duration::from_secs(4)),
            state,
        };
        let t = table(&[
            run("match-00ab", RunState::Running { coordinator: "h pid 7".into() }),
            run("evolve-1", RunState::Orphaned),
            run("search-2", RunState::Cancelled { ago: Some(Duration::from_secs(65)), by: "h pid 9".into() }),
        ]);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 4, "{t}");
        assert!(lines[0].starts_with("RUN         COMMAND  CREATED"), "{t}");
        assert!(lines[1].contains("1h02m ago") && lines[1].contains("2 (box-a, box-b)"), "{t}");
        assert!(lines[1].ends_with("running (h pid 7)"), "{t}");
        assert!(lines[2].ends_with("orphaned (no coordinator)"), "{t}");
        assert!(lines[3].ends_with("cancelled 1m05s ago by h pid 9"), "{t}");
        let column = |l: &str| l.find("QUEUED").or_else(|| l.find("12"));
        assert!(lines.iter().all(|l| column(l) == column(lines[0])), "{t}");
    }
}
