//! A redis-server of the test's own, for the broker tests (`#[path]`-included by each of them,
//! since the other test crates have no use for it).

use std::{
    net::TcpListener,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    thread,
    time::{Duration, Instant},
};

const REDIS: &str = "/usr/bin/redis-server";

/// The broker secret file this test process's coordinators and workers share (mode 0600), so
/// that no test reads or creates the user's own.
pub fn secret() -> &'static str {
    static PATH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let path = std::env::temp_dir().join(format!("evochess-broker-secret-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut f = options.open(&path).expect("the secret file is created");
        std::io::Write::write_all(&mut f, format!("test-secret-{:032}\n", std::process::id()).as_bytes()).unwrap();
        path.display().to_string()
    })
}

/// The key of [`secret`], to sign what a test writes to the broker itself.
#[allow(dead_code)] // only the tests that forge entries sign
pub fn key() -> tuner::broker::mac::Secret {
    tuner::broker::mac::Secret::load(Path::new(secret())).expect("the test's secret loads")
}

/// A redis-server on a free loopback port, stopped when dropped. A test may stop it and start it
/// again on the same port ([`Redis::down`], [`Redis::up`]): a restart forgets every key, unless
/// the server persists them ([`Redis::start_persistent`]).
pub struct Redis {
    child: Option<Child>,
    port: u16,
    /// The directory of its append-only file, when it keeps one.
    persist: Option<PathBuf>,
    pub url: String,
}

impl Redis {
    /// Starts one, and makes sure the server that answers on the port is this child: tests run in
    /// parallel, and a port freed by `bind(0)` can be taken by another test's server before ours
    /// binds it (ours then exits, and the test talks to a server that dies with the other test).
    /// Such a start is retried on a fresh port.
    pub fn start() -> Redis {
        Self::start_with(None)
    }

    /// Starts one that logs every write to an append-only file in `dir`, synced before it
    /// answers (`appendfsync always`), so a restart, even after SIGKILL, finds every key again.
    #[allow(dead_code)] // only the outage tests persist
    pub fn start_persistent(dir: &Path) -> Redis {
        Self::start_with(Some(dir.to_path_buf()))
    }

    fn start_with(persist: Option<PathBuf>) -> Redis {
        for _ in 0..20 {
            let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
            let url = format!("redis://127.0.0.1:{port}/0");
            if let Some(child) = Self::spawn_on(port, &url, persist.as_deref()) {
                return Redis { child: Some(child), port, persist, url };
            }
        }
        panic!("redis-server did not start on any of 20 ports");
    }

    /// Starts the server again on its port after [`Redis::down`].
    #[allow(dead_code)] // only the outage tests restart it
    pub fn up(&mut self) {
        assert!(self.child.is_none(), "redis-server is already up");
        let child = Self::spawn_on(self.port, &self.url, self.persist.as_deref());
        self.child = Some(child.unwrap_or_else(|| panic!("redis-server did not come back on port {}", self.port)));
    }

    /// Stops the server (SIGKILL): its keys are gone, unless it persists them.
    pub fn down(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// A redis-server on `port`, once it answers there itself; `None` (and no process) if not.
    fn spawn_on(port: u16, url: &str, persist: Option<&Path>) -> Option<Child> {
        let mut command = Command::new(REDIS);
        command.args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", ""]);
        match persist {
            Some(dir) => command.args(["--appendonly", "yes", "--appendfsync", "always"]).arg("--dir").arg(dir),
            None => command.args(["--appendonly", "no"]),
        };
        let mut child = command.stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("redis-server starts");
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

/// A `tuner worker` serving `redis` with the engines file `engines`, named `name` and logging
/// into `dir/<name>.log`, its claims visible for 2 s (a dead worker's task is soon taken over);
/// killed (SIGKILL) when dropped. Its temp dir is `dir`, so the private directory a killed worker
/// cannot remove stays with the test's scratch directory.
#[allow(dead_code)] // only the tests that run workers of their own
pub struct Worker(pub Child);

#[allow(dead_code)]
impl Worker {
    pub fn start(redis: &Redis, dir: &Path, name: &str, engines: &Path) -> Worker {
        let log = std::fs::File::create(dir.join(format!("{name}.log"))).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_tuner"))
            .args(["worker", "--broker", &redis.url, "--secret", secret(), "--engines", engines.to_str().unwrap()])
            .args(["--visibility", "2", "--name", name])
            .env("RUST_LOG", "info")
            .env("TMPDIR", dir)
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("worker starts");
        Worker(child)
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
