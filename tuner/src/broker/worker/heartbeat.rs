//! The heartbeat: renews the claims of the tasks under way, and stops the games of a run
//! that was cancelled.

use std::{sync::atomic::Ordering, thread, time::Duration};

use redis::{Connection, RedisError};

use super::Shared;
use crate::broker::{BrokerConfig, GROUP, runs};

/// Renews the claim on every task being run, so that only a dead worker's tasks are reclaimed.
pub(super) fn heartbeat(shared: &Shared) {
    let broker = &shared.cfg.broker;
    let period = (broker.visibility / 4).max(Duration::from_millis(100));
    let mut con: Option<Connection> = None;
    while !shared.stop.load(Ordering::Relaxed) {
        thread::sleep(period.min(Duration::from_millis(250)));
        let held: Vec<(String, (String, String))> =
            shared.held.lock().expect("held").iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        if held.is_empty() {
            continue;
        }
        if con.is_none() {
            con = broker.connect().map_err(|e| log::warn!("heartbeat: {e}")).ok();
        }
        let Some(c) = con.as_mut() else { continue };
        // A cancelled run's tasks are gone: its games stop, its claims are not renewed.
        let mut cancelled = std::collections::HashSet::new();
        for run in held.iter().filter_map(|(_, (key, _))| run_of(broker, key)).collect::<std::collections::HashSet<_>>()
        {
            match runs::cancelled(broker, c, run) {
                Ok(Some(_)) => {
                    if let Some(flag) = shared.stops.lock().expect("stops").get(run)
                        && !flag.swap(true, Ordering::Relaxed)
                    {
                        log::warn!("run {run} was cancelled: stopping its games");
                    }
                    cancelled.insert(run.to_string());
                }
                Ok(None) => {}
                Err(e) => log::warn!("heartbeat: {}", broker.error(e)),
            }
        }
        for (entry, (key, consumer)) in held {
            if run_of(broker, &key).is_some_and(|r| cancelled.contains(r)) {
                continue;
            }
            let r: Result<redis::Value, RedisError> =
                redis::cmd("XCLAIM").arg(&key).arg(GROUP).arg(&consumer).arg(0).arg(&entry).arg("JUSTID").query(c);
            if let Err(e) = r {
                log::warn!("heartbeat: {}", broker.error(e));
                con = None;
                break;
            }
        }
        thread::sleep(period.saturating_sub(Duration::from_millis(250)));
    }
}

/// The run whose tasks stream is `key` (`NS:run:ID:tasks`).
fn run_of<'a>(broker: &BrokerConfig, key: &'a str) -> Option<&'a str> {
    key.strip_prefix(&format!("{}:run:", broker.namespace))?.strip_suffix(":tasks")
}
