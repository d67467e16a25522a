//! What a long command says before and while it works (issue 91, item 8).
//!
//! First, on stdout, its plan line ([`Plan`]): what it does, from what, its budget and an ETA
//! estimated from the budget per move ([`game_seconds`]). Then, on stderr, a progress bar
//! ([`Progress`], hidden when stderr is not a terminal) whose ETA is the run's own pace since
//! it began (or resumed): work done before the process started (a resume) is skipped, not
//! counted as done in no time, and until the first unit ends the bar shows the plan's estimate.
//!
//! Log lines written while a [`Progress`] bar is shown suspend it ([`init_logger`]), so they
//! land above it instead of inside it.

use std::{
    cell::Cell,
    fmt,
    sync::{
        Arc, Mutex, OnceLock,
        atomic::{AtomicBool, Ordering},
        mpsc,
    },
    time::{Duration, Instant},
};

use arena::{
    game::{GameRecord, SearchWarning},
    results::Standings,
    runner::MatchObserver,
    tc::{ClockTc, SearchLimits},
};
use evochess::{
    limits::Limits,
    params::Params,
    search::{Searcher, report::NullListener},
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle, WeakProgressBar};

/// Plies a game is assumed to last for an estimate (both sides' moves).
pub const PLIES_PER_GAME: f64 = 100.0;

/// `3 s`, `12 min`, `9 h 5 min`.
pub fn human_duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min", s / 60),
        _ => format!("{} h {} min", s / 3600, s % 3600 / 60),
    }
}

/// Seconds of a game at a clock: both clocks of a 60-move game.
pub fn clock_game_seconds(tc: &ClockTc) -> f64 {
    2.0 * (tc.base_ms as f64 + 60.0 * tc.inc_ms as f64) / 1000.0
}

/// Seconds of a game at `nodes` a move and `nps` nodes a second: [`PLIES_PER_GAME`] plies.
pub fn nodes_game_seconds(nodes: u64, nps: f64) -> Option<f64> {
    (nps > 0.0).then(|| PLIES_PER_GAME * nodes as f64 / nps)
}

/// The budget of a move under `limits`: `tc 5+0.05`, `400 nodes a move`, `depth 4`, joined by
/// "and" when several bound it.
pub fn limits_text(limits: &SearchLimits) -> String {
    let mut parts = Vec::new();
    if let Some(c) = &limits.clock {
        parts.push(format!("tc {c}"));
    }
    if let Some(ms) = limits.movetime_ms {
        parts.push(format!("{ms} ms a move"));
    }
    if let Some(n) = limits.nodes {
        parts.push(format!("{n} nodes a move"));
    }
    if let Some(d) = limits.depth {
        parts.push(format!("depth {d}"));
    }
    if parts.is_empty() { "no limit".to_string() } else { parts.join(" and ") }
}

/// An estimate of one game's seconds under `limits`: the least of what each limit allows (a
/// clock's whole time, a fixed time a move, a node or depth limit at this machine's speed as a
/// short in-process bench measures it). `None` when no limit can be estimated.
pub fn game_seconds(limits: &SearchLimits) -> Option<f64> {
    let clock = limits.clock.as_ref().map(clock_game_seconds);
    let movetime = limits.movetime_ms.map(|ms| PLIES_PER_GAME * ms as f64 / 1000.0);
    let nodes = limits.nodes.and_then(|n| nodes_game_seconds(n, measured_nps()?));
    let depth = limits.depth.and_then(depth_move_seconds).map(|s| PLIES_PER_GAME * s);
    [clock, movetime, nodes, depth].into_iter().flatten().reduce(f64::min)
}

/// The most a measurement may take; a slower one gives no estimate.
const MEASURE_LIMIT: Duration = Duration::from_secs(2);

/// Seconds of one move searched to `depth`: the bench's mean over its positions, searched in
/// this process, one thread; `None` when the bench takes longer than [`MEASURE_LIMIT`].
fn depth_move_seconds(depth: u32) -> Option<f64> {
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let flag = Arc::clone(&stop);
    let search = std::thread::spawn(move || {
        let r = evochess::bench::run_until(depth, &Params::default(), 1, &flag);
        let _ = tx.send(());
        r
    });
    if rx.recv_timeout(MEASURE_LIMIT).is_err() {
        stop.store(true, Ordering::Relaxed);
    }
    let r = search.join().ok().flatten()?;
    Some(r.elapsed.as_secs_f64() / evochess::bench::POSITIONS.len() as f64)
}

/// This machine's search speed, nodes a second: the first eight bench positions searched
/// for 4,000 nodes each in this process, one thread (measured once; a fraction of a second).
pub fn measured_nps() -> Option<f64> {
    static NPS: OnceLock<Option<f64>> = OnceLock::new();
    *NPS.get_or_init(|| {
        let mut searcher = Searcher::new(Params::default(), evochess::bench::BENCH_HASH_MB);
        let limits = Limits::nodes(4_000);
        let (started, mut nodes) = (Instant::now(), 0);
        for pos in evochess::bench::positions().iter().take(8) {
            searcher.clear();
            searcher.search(pos, &[], &limits, &AtomicBool::new(false), &mut NullListener);
            nodes += searcher.last_nodes();
        }
        let seconds = started.elapsed().as_secs_f64();
        (nodes > 0 && seconds > 0.0).then(|| nodes as f64 / seconds)
    })
}

/// `ETA about 2 h 10 min at 2 games at once`, or, without an estimate, what will give one.
pub fn eta_text(seconds: Option<f64>, at_once: usize, unit: &str) -> String {
    match seconds {
        Some(s) => {
            let at = if at_once > 1 { format!(" at {at_once} {unit} at once") } else { String::new() };
            format!("ETA about {}{at}", human_duration(s))
        }
        None => format!("ETA unknown until the first {unit} end (the progress bar then shows it)"),
    }
}

/// `units` that take `each` seconds, `at_once` of them at a time.
pub fn total_seconds(units: u64, each: Option<f64>, at_once: usize) -> Option<f64> {
    each.map(|s| s * units as f64 / at_once.max(1) as f64)
}

/// A command's plan line: `COMMAND: PART; PART; ...; ETA ...`.
#[derive(Clone, Debug)]
pub struct Plan {
    command: String,
    parts: Vec<String>,
    eta: String,
}

impl Plan {
    /// The plan of `command` (`spsa`, `quick`, ...).
    pub fn new(command: impl Into<String>) -> Plan {
        Plan { command: command.into(), parts: Vec::new(), eta: String::new() }
    }

    /// Adds a clause.
    pub fn part(mut self, text: impl Into<String>) -> Plan {
        self.parts.push(text.into());
        self
    }

    /// The closing ETA: `seconds` for the whole budget, `at_once` units at a time.
    pub fn eta(mut self, seconds: Option<f64>, at_once: usize, unit: &str) -> Plan {
        self.eta = eta_text(seconds, at_once, unit);
        self
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.command, self.parts.join("; "))?;
        if !self.eta.is_empty() {
            write!(f, "; {}", self.eta)?;
        }
        Ok(())
    }
}

/// What a bar times: since when, from which position, and the plan's seconds per unit.
#[derive(Clone, Copy, Debug)]
struct Pace {
    since: Instant,
    /// The position when the pace began: the units done before (a resume) are not timed.
    base: u64,
    /// The plan's estimate of a unit's seconds (concurrency included), shown until one ends.
    prior: Option<f64>,
}

impl Pace {
    /// Seconds left at `pos` of `len`, `elapsed` seconds after the pace began.
    fn eta(&self, pos: u64, len: u64, elapsed: f64) -> Option<f64> {
        let left = len.saturating_sub(pos) as f64;
        match pos.checked_sub(self.base).filter(|&d| d > 0) {
            Some(done) => Some(elapsed / done as f64 * left),
            None => self.prior.map(|s| (s * left - elapsed).max(0.0)),
        }
    }
}

/// The bar being shown, which log lines suspend.
static SHOWN: Mutex<Option<WeakProgressBar>> = Mutex::new(None);

thread_local! {
    /// Whether this thread is inside a [`Progress::suspend`] (whose bar is then hidden).
    static SUSPENDED: Cell<bool> = const { Cell::new(false) };
}

/// A progress bar over a run's units (games, generations, positions) on stderr, hidden when it
/// is not a terminal. Its `{left}` and ETA are computed when it is drawn, so they always match
/// its position; the ETA is the pace since the bar began or [`Progress::skip`] last moved it.
#[derive(Clone)]
pub struct Progress {
    bar: ProgressBar,
    pace: Arc<Mutex<Pace>>,
}

impl Progress {
    /// A bar of `len` `unit`s; `each` is the plan's seconds per unit (concurrency included),
    /// shown as the ETA until the first unit ends.
    pub fn new(len: u64, unit: &str, each: Option<f64>) -> Progress {
        Progress::with_target(len, unit, each, ProgressDrawTarget::stderr())
    }

    /// A bar that draws nothing (for tests and for callers that show no progress).
    pub fn hidden() -> Progress {
        Progress::with_target(0, "units", None, ProgressDrawTarget::hidden())
    }

    fn with_target(len: u64, unit: &str, each: Option<f64>, target: ProgressDrawTarget) -> Progress {
        let pace = Arc::new(Mutex::new(Pace { since: Instant::now(), base: 0, prior: each }));
        let bar = ProgressBar::with_draw_target(Some(len), target);
        let timed = Arc::clone(&pace);
        let style = ProgressStyle::with_template(&format!(
            "{{prefix}} [{{bar:30}}] {{pos}}/{{len}} {unit}, {{left}} left, ETA {{pace_eta}} {{msg}}"
        ))
        .expect("a valid template")
        .progress_chars("=> ")
        .with_key("left", |s: &ProgressState, w: &mut dyn fmt::Write| {
            let _ = write!(w, "{}", s.len().unwrap_or(0).saturating_sub(s.pos()));
        })
        .with_key("pace_eta", move |s: &ProgressState, w: &mut dyn fmt::Write| {
            let pace = *timed.lock().expect("pace lock");
            let eta = pace.eta(s.pos(), s.len().unwrap_or(0), pace.since.elapsed().as_secs_f64());
            let _ = write!(w, "{}", eta.map_or_else(|| "?".to_string(), human_duration));
        });
        bar.set_style(style);
        if !bar.is_hidden() {
            *SHOWN.lock().expect("shown bar lock") = Some(bar.downgrade());
        }
        Progress { bar, pace }
    }

    /// Moves the bar by `n` units done before this pace (replayed from a journal, a
    /// checkpoint's generations): they count as done but not as timed.
    pub fn skip(&self, n: u64) {
        // The pace first, and its lock released before the bar moves: drawing reads the pace.
        self.pace.lock().expect("pace lock").base += n;
        self.bar.inc(n);
    }

    /// Sets the position to `pos` units already done (see [`Progress::skip`]); the units timed
    /// so far stay timed.
    pub fn skip_to(&self, pos: u64) {
        // The bar's state is never locked under the pace's lock: drawing takes them the other way.
        let at = self.bar.position();
        {
            let mut pace = self.pace.lock().expect("pace lock");
            let timed = at.saturating_sub(pace.base);
            pace.base = pos.saturating_sub(timed);
        }
        self.bar.set_position(pos);
    }

    /// Runs `f` with the bar hidden (a log line above it); log lines suspend it by themselves.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        if SUSPENDED.get() {
            return f();
        }
        SUSPENDED.set(true);
        let r = self.bar.suspend(f);
        SUSPENDED.set(false);
        r
    }

    /// Removes the bar (and stops log lines suspending it).
    pub fn finish_and_clear(&self) {
        self.bar.finish_and_clear();
        let mut shown = SHOWN.lock().expect("shown bar lock");
        if shown.as_ref().and_then(WeakProgressBar::upgrade).is_none_or(|b| b.is_finished()) {
            *shown = None;
        }
    }

    /// The underlying bar.
    pub fn bar(&self) -> &ProgressBar {
        &self.bar
    }
}

impl std::ops::Deref for Progress {
    type Target = ProgressBar;

    fn deref(&self) -> &ProgressBar {
        &self.bar
    }
}

/// Moves a [`Progress`] a game at a time; the games a match replays from its journal are
/// skipped (done, not timed).
pub struct GameTicks<'a>(pub &'a Progress);

impl MatchObserver for GameTicks<'_> {
    fn on_start(&mut self, _: u64, done: u64, _: &Standings) {
        self.0.skip(done);
    }

    fn on_game(&mut self, _: &GameRecord, _: &Standings) {
        self.0.inc(1);
    }

    fn on_warning(&mut self, warning: &SearchWarning, game: u64) {
        self.0.suspend(|| log::warn!("{warning} (game {game}; not repeated for this engine)"));
    }
}

/// A logger that suspends the shown [`Progress`] bar around each line.
struct Suspending(env_logger::Logger);

impl log::Log for Suspending {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        self.0.enabled(metadata)
    }

    fn log(&self, record: &log::Record<'_>) {
        if !self.0.matches(record) {
            return;
        }
        let shown = SHOWN.lock().expect("shown bar lock").as_ref().and_then(WeakProgressBar::upgrade);
        match shown.filter(|b| !b.is_finished() && !SUSPENDED.get()) {
            Some(bar) => {
                SUSPENDED.set(true);
                bar.suspend(|| self.0.log(record));
                SUSPENDED.set(false);
            }
            None => self.0.log(record),
        }
    }

    fn flush(&self) {
        self.0.flush();
    }
}

/// Installs `builder`'s logger so that its lines suspend the shown progress bar.
///
/// # Errors
/// A logger is already installed.
pub fn init_logger(mut builder: env_logger::Builder) -> Result<(), log::SetLoggerError> {
    let logger = builder.build();
    let level = logger.filter();
    log::set_boxed_logger(Box::new(Suspending(logger)))?;
    log::set_max_level(level);
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::{io, sync::Mutex};

    use indicatif::TermLike;

    use super::*;

    #[test]
    fn durations_read_as_people_say_them() {
        assert_eq!(human_duration(0.4), "0 s");
        assert_eq!(human_duration(59.0), "59 s");
        assert_eq!(human_duration(61.0), "1 min");
        assert_eq!(human_duration(3600.0 * 9.0 + 300.0), "9 h 5 min");
        assert_eq!(human_duration(-3.0), "0 s");
    }

    #[test]
    fn a_game_lasts_its_clocks_or_its_moves_at_the_machines_speed() {
        let tc: ClockTc = "5+0.05".parse().unwrap();
        assert_eq!(clock_game_seconds(&tc), 16.0);
        assert_eq!(nodes_game_seconds(10_000, 500_000.0), Some(2.0));
        assert_eq!(nodes_game_seconds(10_000, 0.0), None);
        let limits = SearchLimits { movetime_ms: Some(100), clock: Some(tc), ..SearchLimits::default() };
        assert_eq!(game_seconds(&limits), Some(10.0), "the least of the limits");
        let nodes = game_seconds(&SearchLimits { nodes: Some(1000), ..SearchLimits::default() }).unwrap();
        assert!(nodes > 0.0 && nodes < 60.0, "{nodes}");
        assert_eq!(game_seconds(&SearchLimits::default()), None);
        assert_eq!(total_seconds(10, Some(16.0), 2), Some(80.0));
    }

    #[test]
    fn plan_lines_name_their_parts_and_eta() {
        let p = Plan::new("spsa").part("2 parameters").part("5 iterations").eta(Some(7200.0), 2, "games");
        assert_eq!(p.to_string(), "spsa: 2 parameters; 5 iterations; ETA about 2 h 0 min at 2 games at once");
        let p = Plan::new("quick").part("x").eta(None, 1, "games");
        assert!(p.to_string().starts_with("quick: x; ETA unknown until the first games end"), "{p}");
    }

    #[test]
    fn the_eta_is_the_pace_since_the_bar_began_without_the_skipped_units() {
        let pace = Pace { since: Instant::now(), base: 40, prior: Some(3.0) };
        // 40 units resumed, none timed yet: the plan's 3 s for each of the 60 left, less what passed.
        assert_eq!(pace.eta(40, 100, 10.0), Some(170.0));
        assert_eq!(pace.eta(40, 100, 1000.0), Some(0.0));
        // 10 timed units in 50 s: 5 s each for the 50 left.
        assert_eq!(pace.eta(50, 100, 50.0), Some(250.0));
        assert_eq!(Pace { prior: None, ..pace }.eta(40, 100, 10.0), None);
        assert_eq!(pace.eta(100, 100, 50.0), Some(0.0));
    }

    /// A terminal that keeps the last bar line drawn.
    #[derive(Debug, Default)]
    struct Screen(Mutex<String>);

    impl TermLike for &'static Screen {
        fn width(&self) -> u16 {
            200
        }
        fn move_cursor_up(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> io::Result<()> {
            self.write_str(s)
        }
        fn write_str(&self, s: &str) -> io::Result<()> {
            // The bar's own line; not the blanks that clear one.
            if s.contains(" games, ") {
                *self.0.lock().unwrap() = s.to_string();
            }
            Ok(())
        }
        fn clear_line(&self) -> io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> io::Result<()> {
            Ok(())
        }
    }

    /// The bar coevolve showed before: `left` one behind (a message set after the move, whose
    /// draw the rate limit drops) and `ETA 0s` (indicatif's estimate, reset at every match).
    #[test]
    fn the_bar_shows_what_is_left_and_an_eta_as_it_moves() {
        let screen: &'static Screen = Box::leak(Box::default());
        let target = ProgressDrawTarget::term_like_with_hz(Box::new(screen), 250);
        let p = Progress::with_target(10, "games", Some(2.0), target);
        p.skip(4);
        p.tick();
        let line = screen.0.lock().unwrap().clone();
        assert!(line.contains("4/10 games, 6 left, ETA 12 s"), "{line}");
        std::thread::sleep(Duration::from_millis(10));
        p.inc(1);
        std::thread::sleep(Duration::from_millis(10));
        p.tick();
        let line = screen.0.lock().unwrap().clone();
        assert!(line.contains("5/10 games, 5 left, ETA "), "{line}");
        assert!(!line.contains("ETA ?"), "{line}");
        std::thread::sleep(Duration::from_millis(10));
        p.skip_to(8);
        std::thread::sleep(Duration::from_millis(10));
        p.tick();
        let line = screen.0.lock().unwrap().clone();
        assert!(line.contains("8/10 games, 2 left, ETA "), "{line}");
    }
}
