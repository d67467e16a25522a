//! A redis-server of the test's own, for the broker tests (`#[path]`-included by each of them,
//! since the other test crates have no use for it).

use std::{
    net::TcpListener,
    process::{Child, Command, Stdio},
    thread,
    time::{Duration, Instant},
};

const REDIS: &str = "/usr/bin/redis-server";

/// A redis-server on a free loopback port, without persistence, stopped when dropped. A test
/// may stop it and start it again on the same port ([`Redis::down`], [`Redis::up`]): a restart
/// forgets every key.
pub struct Redis {
    child: Option<Child>,
    port: u16,
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
            let url = format!("redis://127.0.0.1:{port}/0");
            if let Some(child) = Self::spawn_on(port, &url) {
                return Redis { child: Some(child), port, url };
            }
        }
        panic!("redis-server did not start on any of 20 ports");
    }

    /// Starts the server again on its port after [`Redis::down`].
    #[allow(dead_code)] // only the outage tests restart it
    pub fn up(&mut self) {
        assert!(self.child.is_none(), "redis-server is already up");
        let child = Self::spawn_on(self.port, &self.url);
        self.child = Some(child.unwrap_or_else(|| panic!("redis-server did not come back on port {}", self.port)));
    }

    /// Stops the server (SIGKILL): its keys are gone.
    pub fn down(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// A redis-server on `port`, once it answers there itself; `None` (and no process) if not.
    fn spawn_on(port: u16, url: &str) -> Option<Child> {
        let mut child = Command::new(REDIS)
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server starts");
        if Self::answers_as(&mut child, url) {
            return Some(child);
        }
        let _ = child.kill();
        let _ = child.wait();
        None
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
        self.down();
    }
}
