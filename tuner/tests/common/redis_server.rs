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
    pub fn start() -> Redis {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new(REDIS)
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server starts");
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed() < Duration::from_secs(10), "redis-server did not listen on {port}");
            thread::sleep(Duration::from_millis(20));
        }
        Redis { child, url: format!("redis://127.0.0.1:{port}/0") }
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
