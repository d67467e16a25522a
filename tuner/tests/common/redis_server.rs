//! A redis-server of the test's own, for the broker tests (`#[path]`-included by each of them,
//! since the other test crates have no use for it).

use std::{
    net::TcpListener,
    process::{Child, Command, Stdio},
    thread,
    time::{Duration, Instant},
};

const REDIS: &str = "/usr/bin/redis-server";

/// A redis-server on a free loopback port, stopped when dropped.
pub struct Redis {
    child: Child,
    pub url: String,
}

impl Redis {
    /// Starts one, and makes sure the server that answers on the port is this child: tests run in
    /// parallel, and a port freed by `bind(0)` can be taken by another test's server before ours
    /// binds it (ours then exits, and the test talks to a server that dies with the other test).
    /// Such a start is retried on a fresh port.
    pub fn start() -> Redis {
        for _ in 0..20 {
            let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
            let mut child = Command::new(REDIS)
                .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("redis-server starts");
            let url = format!("redis://127.0.0.1:{port}/0");
            if Self::answers_as(&mut child, &url) {
                return Redis { child, url };
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        panic!("redis-server did not start on any of 20 ports");
    }

    /// Waits until `child` itself answers on `url` (its `process_id` in `INFO server`); false when
    /// it exits, another process answers, or 10 s pass.
    fn answers_as(child: &mut Child, url: &str) -> bool {
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(10) {
            if !matches!(child.try_wait(), Ok(None)) {
                return false;
            }
            let info = redis::Client::open(url)
                .and_then(|c| c.get_connection())
                .and_then(|mut con| redis::cmd("INFO").arg("server").query::<String>(&mut con));
            if let Ok(info) = info {
                let pid = info.lines().find_map(|l| l.strip_prefix("process_id:")).map(str::trim);
                return pid == Some(child.id().to_string().as_str());
            }
            thread::sleep(Duration::from_millis(20));
        }
        false
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
