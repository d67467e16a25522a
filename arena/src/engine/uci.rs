//! The UCI side of a game: a client over a [`Conn`].
//!
//! Like cutechess's `uciengine`: `uci`/`uciok` at start, `isready`/`readyok` as the ping after
//! `setoption` and `ucinewgame`, `position … moves …` then `go …`, and `quit` then kill at the end.
//! Every wait has a deadline, so a silent, crashed or babbling engine never blocks the runner:
//! the caller gets an [`EngineError`] and decides (the runner restarts the engine).

use std::{
    path::Path,
    time::{Duration, Instant},
};

use crate::engine::transport::{Conn, EngineError, Timeouts, Transport};

/// Something the engine printed, parsed (Carp/Rustic style: parse into an enum, act in one match).
#[derive(Clone, Debug, PartialEq)]
pub enum EngineLine {
    Id {
        key: String,
        value: String,
    },
    UciOk,
    ReadyOk,
    Option(OptionDecl),
    Info(Info),
    BestMove {
        mv: String,
        ponder: Option<String>,
    },
    /// Anything else, kept for logs (`copyprotection`, garbage, …).
    Other(String),
}

/// An `option name … type …` declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    pub name: String,
    pub kind: String,
    pub default: Option<String>,
}

/// A score as the engine reports it, from its own point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Score {
    Cp(i32),
    /// Mate in N moves; negative when the engine is being mated.
    Mate(i32),
}

impl Score {
    /// Centipawns for adjudication thresholds: mates map beyond any material score.
    pub fn to_cp(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => 100_000 - n,
            Score::Mate(n) => -100_000 - n,
        }
    }

    /// Score as cutechess writes it in PGN comments: `+0.31`, `+M5`, `-M2`.
    pub fn pgn(self) -> String {
        match self {
            Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
            Score::Mate(n) if n >= 0 => format!("+M{n}"),
            Score::Mate(n) => format!("-M{}", -n),
        }
    }
}

/// The fields of an `info` line the runner uses.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Info {
    pub depth: Option<u32>,
    pub multipv: Option<u32>,
    pub score: Option<Score>,
    /// `lowerbound`/`upperbound` scores are not exact; the runner ignores them for adjudication.
    pub bound: bool,
    pub nodes: Option<u64>,
    pub time_ms: Option<u64>,
    /// First move of the principal variation (the rest is not kept: parsing stays cheap).
    pub pv_first: Option<String>,
    pub string: Option<String>,
}

impl EngineLine {
    /// Parses one line of engine output. Never fails: unknown input is [`EngineLine::Other`].
    pub fn parse(line: &str) -> EngineLine {
        let mut tokens = line.split_whitespace();
        let Some(first) = tokens.next() else { return EngineLine::Other(String::new()) };
        match first {
            "uciok" => EngineLine::UciOk,
            "readyok" => EngineLine::ReadyOk,
            "id" => match tokens.next() {
                Some(key) => EngineLine::Id { key: key.to_string(), value: tokens.collect::<Vec<_>>().join(" ") },
                None => EngineLine::Other(line.to_string()),
            },
            "bestmove" => match tokens.next() {
                Some(mv) => {
                    let ponder = match (tokens.next(), tokens.next()) {
                        (Some("ponder"), Some(p)) => Some(p.to_string()),
                        _ => None,
                    };
                    EngineLine::BestMove { mv: mv.to_string(), ponder }
                }
                None => EngineLine::Other(line.to_string()),
            },
            "option" => parse_option(line).map_or_else(|| EngineLine::Other(line.to_string()), EngineLine::Option),
            "info" => EngineLine::Info(parse_info(tokens)),
            _ => EngineLine::Other(line.to_string()),
        }
    }
}

fn parse_option(line: &str) -> Option<OptionDecl> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let name_at = tokens.iter().position(|t| *t == "name")?;
    let type_at = tokens.iter().position(|t| *t == "type")?;
    if type_at <= name_at + 1 {
        return None;
    }
    let name = tokens[name_at + 1..type_at].join(" ");
    let kind = tokens.get(type_at + 1)?.to_string();
    let default = tokens.iter().position(|t| *t == "default").map(|d| {
        let end = tokens[d + 1..]
            .iter()
            .position(|t| matches!(*t, "min" | "max" | "var"))
            .map_or(tokens.len(), |e| d + 1 + e);
        tokens[d + 1..end].join(" ")
    });
    Some(OptionDecl { name, kind, default })
}

fn parse_info<'a>(mut tokens: impl Iterator<Item = &'a str>) -> Info {
    let mut info = Info::default();
    while let Some(t) = tokens.next() {
        match t {
            "depth" => info.depth = tokens.next().and_then(|v| v.parse().ok()),
            "multipv" => info.multipv = tokens.next().and_then(|v| v.parse().ok()),
            "nodes" => info.nodes = tokens.next().and_then(|v| v.parse().ok()),
            "time" => info.time_ms = tokens.next().and_then(|v| v.parse().ok()),
            "score" => {
                info.score = match (tokens.next(), tokens.next().and_then(|v| v.parse::<i32>().ok())) {
                    (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => None,
                }
            }
            "lowerbound" | "upperbound" => info.bound = true,
            "pv" => {
                info.pv_first = tokens.next().map(str::to_string);
                break; // the PV runs to the end of the line
            }
            "string" => {
                info.string = Some(tokens.by_ref().collect::<Vec<_>>().join(" "));
            }
            _ => {}
        }
    }
    info
}

/// What a finished search returned.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub bestmove: String,
    pub ponder: Option<String>,
    pub elapsed: Duration,
    /// Last exact score of the main line, from the engine's point of view.
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The search time the engine itself reported, in its last `info ... time` (fastchess's
    /// think latency is `elapsed` less this).
    pub reported_ms: Option<u64>,
}

/// `go` parameters as sent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    pub movetime: Option<u64>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
}

impl Go {
    /// The `go …` command line.
    pub fn command(&self) -> String {
        let mut s = String::from("go");
        let fields: [(&str, Option<u64>); 8] = [
            ("wtime", self.wtime),
            ("btime", self.btime),
            ("winc", self.winc),
            ("binc", self.binc),
            ("movestogo", self.movestogo.map(u64::from)),
            ("movetime", self.movetime),
            ("nodes", self.nodes),
            ("depth", self.depth.map(u64::from)),
        ];
        for (k, v) in fields {
            if let Some(v) = v {
                s.push_str(&format!(" {k} {v}"));
            }
        }
        if s == "go" {
            s.push_str(" infinite");
        }
        s
    }
}

/// A UCI engine after `uciok`.
pub struct UciClient {
    conn: Conn,
    timeouts: Timeouts,
    /// `id name`, if the engine sent one.
    pub id_name: Option<String>,
    pub options: Vec<OptionDecl>,
}

impl UciClient {
    /// Spawns `cmd` and completes the `uci` handshake.
    pub fn spawn(
        label: &str,
        cmd: &Path,
        args: &[String],
        dir: Option<&Path>,
        timeouts: Timeouts,
    ) -> Result<UciClient, EngineError> {
        UciClient::handshake(Conn::spawn(label, cmd, args, dir)?, timeouts)
    }

    /// Sends `uci` and waits for `uciok`, collecting the id and option declarations.
    pub fn start(label: &str, transport: Box<dyn Transport>, timeouts: Timeouts) -> Result<UciClient, EngineError> {
        UciClient::handshake(Conn::new(label, transport), timeouts)
    }

    fn handshake(conn: Conn, timeouts: Timeouts) -> Result<UciClient, EngineError> {
        let mut c = UciClient { conn, timeouts, id_name: None, options: Vec::new() };
        c.conn.send("uci", "uciok")?;
        let deadline = Instant::now() + timeouts.start;
        loop {
            match c.next_line(deadline, "uciok")? {
                EngineLine::UciOk => break,
                EngineLine::Id { key, value } if key == "name" => c.id_name = Some(value),
                EngineLine::Option(o) => c.options.push(o),
                _ => {}
            }
        }
        Ok(c)
    }

    pub fn label(&self) -> &str {
        self.conn.label()
    }

    /// False once the engine crashed or failed to answer: it must be restarted before reuse.
    pub fn is_healthy(&self) -> bool {
        self.conn.is_healthy()
    }

    fn next_line(&mut self, deadline: Instant, what: &'static str) -> Result<EngineLine, EngineError> {
        self.conn.next_line(deadline, what).map(|l| EngineLine::parse(&l))
    }

    /// Finds a declared option, case-insensitively (UCI option names are).
    pub fn find_option(&self, name: &str) -> Option<&OptionDecl> {
        self.options.iter().find(|o| o.name.eq_ignore_ascii_case(name.trim()))
    }

    /// `setoption name N value V` for a declared option; names and values may contain spaces.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let Some(decl) = self.find_option(name) else {
            return Err(EngineError::UnknownOption {
                engine: self.label().to_string(),
                option: name.to_string(),
                declared: self.options.iter().map(|o| o.name.as_str()).collect::<Vec<_>>().join(", "),
            });
        };
        let line = if decl.kind == "button" {
            format!("setoption name {}", decl.name)
        } else {
            format!("setoption name {} value {value}", decl.name)
        };
        self.conn.send(&line, "setoption")
    }

    /// `isready` → `readyok`, discarding whatever comes before (a stale `bestmove` after `stop`).
    pub fn ping(&mut self) -> Result<(), EngineError> {
        self.sync().map(|_| ())
    }

    /// `isready` → `readyok`; the first error seen on the way, if any: evochess's
    /// `info string error ...`, or Stockfish's `No such option: X`.
    fn sync(&mut self) -> Result<Option<String>, EngineError> {
        self.conn.send("isready", "readyok")?;
        let deadline = Instant::now() + self.timeouts.ping;
        let mut error = None;
        loop {
            match self.next_line(deadline, "readyok")? {
                EngineLine::ReadyOk => return Ok(error),
                EngineLine::Info(Info { string: Some(s), .. })
                    if error.is_none() && s.get(..5).is_some_and(|w| w.eq_ignore_ascii_case("error")) =>
                {
                    error = Some(s);
                }
                EngineLine::Other(s) if error.is_none() && s.starts_with("No such option") => error = Some(s),
                _ => {}
            }
        }
    }

    /// [`UciClient::set_option`], then the `isready` sync: an engine that answers with an error
    /// fails naming the option and value. Playing on with its default instead would pass an
    /// untuned engine off as the tuned one (a parameter file it cannot load).
    pub fn set_option_checked(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.set_option(name, value)?;
        match self.sync()? {
            Some(message) => Err(EngineError::Refused {
                engine: self.label().to_string(),
                message: format!("option `{name}` = `{value}`: {message}"),
            }),
            None => Ok(()),
        }
    }

    /// `ucinewgame` then the `isready` sync (cutechess and STYLE pitfall: sync before `go`).
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.conn.send("ucinewgame", "ucinewgame")?;
        self.ping()
    }

    /// `position startpos|fen F [moves …]`.
    pub fn position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), EngineError> {
        let mut line = match fen {
            Some(f) => format!("position fen {f}"),
            None => "position startpos".to_string(),
        };
        if !moves.is_empty() {
            line.push_str(" moves");
            for m in moves {
                line.push(' ');
                line.push_str(m);
            }
        }
        self.conn.send(&line, "position")
    }

    /// Sends `go` and waits until `bestmove` or `deadline` after sending. On a timeout the engine
    /// is told to `stop` and given a short grace to answer so the next game starts clean; if it
    /// does not, it is marked unhealthy (restart).
    pub fn go(&mut self, go: &Go, deadline: Duration) -> Result<SearchResult, EngineError> {
        let start = Instant::now();
        self.conn.send(&go.command(), "bestmove")?;
        let end = start + deadline;
        let mut score = None;
        let mut depth = None;
        let mut nodes = None;
        let mut reported_ms = None;
        loop {
            match self.next_line(end, "bestmove") {
                Ok(EngineLine::BestMove { mv, ponder }) => {
                    let elapsed = start.elapsed();
                    return Ok(SearchResult { bestmove: mv, ponder, elapsed, score, depth, nodes, reported_ms });
                }
                Ok(EngineLine::Info(info)) => {
                    reported_ms = info.time_ms.or(reported_ms);
                    if info.multipv.unwrap_or(1) == 1 {
                        if let Some(s) = info.score
                            && !info.bound
                        {
                            score = Some(s);
                            depth = info.depth.or(depth);
                        }
                        nodes = info.nodes.or(nodes);
                    }
                }
                Ok(other) => log::debug!("{}: ignoring `{other:?}` while searching", self.label()),
                Err(e @ EngineError::Timeout { .. }) => {
                    self.conn.set_healthy(true); // give it a chance to answer `stop`
                    let _ = self.conn.send("stop", "bestmove");
                    let grace = Instant::now() + self.timeouts.ping.min(Duration::from_secs(1));
                    loop {
                        match self.next_line(grace, "bestmove") {
                            Ok(EngineLine::BestMove { .. }) => break,
                            Ok(_) => {}
                            Err(_) => {
                                self.conn.set_healthy(false);
                                break;
                            }
                        }
                    }
                    return Err(e);
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// `quit`, then kill if the engine does not exit within the quit timeout.
    pub fn quit(self) {
        self.conn.quit("quit", self.timeouts.quit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::transport::{ScriptReply, ScriptTransport};

    #[test]
    fn parses_engine_lines() {
        assert_eq!(EngineLine::parse("uciok"), EngineLine::UciOk);
        assert_eq!(EngineLine::parse("  readyok  "), EngineLine::ReadyOk);
        assert_eq!(
            EngineLine::parse("id name Stockfish 16"),
            EngineLine::Id { key: "name".into(), value: "Stockfish 16".into() }
        );
        assert_eq!(
            EngineLine::parse("bestmove e2e4 ponder e7e5"),
            EngineLine::BestMove { mv: "e2e4".into(), ponder: Some("e7e5".into()) }
        );
        assert_eq!(EngineLine::parse("bestmove a7a8q"), EngineLine::BestMove { mv: "a7a8q".into(), ponder: None });
        assert_eq!(EngineLine::parse("bestmove"), EngineLine::Other("bestmove".into()));
        assert_eq!(EngineLine::parse("#!garbage ~~"), EngineLine::Other("#!garbage ~~".into()));
        let EngineLine::Option(o) = EngineLine::parse("option name Move Overhead type spin default 10 min 0 max 5000")
        else {
            panic!()
        };
        assert_eq!(o, OptionDecl { name: "Move Overhead".into(), kind: "spin".into(), default: Some("10".into()) });
        let EngineLine::Option(o) = EngineLine::parse("option name SyzygyPath type string default <empty>") else {
            panic!()
        };
        assert_eq!(o.default.as_deref(), Some("<empty>"));
        let EngineLine::Info(i) = EngineLine::parse(
            "info depth 12 seldepth 18 multipv 1 score cp -35 nodes 12345 nps 1 time 40 pv e2e4 e7e5",
        ) else {
            panic!()
        };
        assert_eq!(i.depth, Some(12));
        assert_eq!(i.score, Some(Score::Cp(-35)));
        assert_eq!(i.nodes, Some(12345));
        assert_eq!(i.pv_first.as_deref(), Some("e2e4"));
        assert!(!i.bound);
        let EngineLine::Info(i) = EngineLine::parse("info depth 3 score mate -2 lowerbound") else { panic!() };
        assert_eq!(i.score, Some(Score::Mate(-2)));
        assert!(i.bound);
    }

    #[test]
    fn score_conversions() {
        assert_eq!(Score::Cp(31).pgn(), "+0.31");
        assert_eq!(Score::Cp(-150).pgn(), "-1.50");
        assert_eq!(Score::Mate(5).pgn(), "+M5");
        assert_eq!(Score::Mate(-2).pgn(), "-M2");
        assert!(Score::Mate(3).to_cp() > Score::Mate(4).to_cp());
        assert!(Score::Mate(-3).to_cp() < -50_000);
    }

    #[test]
    fn go_command_forms() {
        let g = Go { wtime: Some(1000), btime: Some(900), winc: Some(10), binc: Some(10), ..Go::default() };
        assert_eq!(g.command(), "go wtime 1000 btime 900 winc 10 binc 10");
        assert_eq!(Go { nodes: Some(2000), ..Go::default() }.command(), "go nodes 2000");
        assert_eq!(Go { movetime: Some(50), depth: Some(3), ..Go::default() }.command(), "go movetime 50 depth 3");
        assert_eq!(Go::default().command(), "go infinite");
    }

    fn scripted(stall_on_go: bool) -> UciClient {
        let t = ScriptTransport::new(move |cmd| {
            let out: Vec<&str> = match cmd.split_whitespace().next() {
                Some("uci") => vec!["id name Scripted", "option name Move Overhead type spin default 10", "uciok"],
                Some("isready") => vec!["readyok"],
                Some("go") if stall_on_go => vec![],
                Some("go") => {
                    vec!["info depth 1 score cp 12 time 7", "info string no time", "garbage", "bestmove e2e4"]
                }
                Some("quit") => return ScriptReply::Crash,
                _ => vec![],
            };
            ScriptReply::Lines(out.into_iter().map(String::from).collect())
        });
        let to = Timeouts { start: Duration::from_millis(200), ping: Duration::from_millis(200), quit: Duration::ZERO };
        UciClient::start("s", Box::new(t), to).unwrap()
    }

    #[test]
    fn handshake_options_and_search() {
        let mut c = scripted(false);
        assert_eq!(c.id_name.as_deref(), Some("Scripted"));
        c.set_option("move overhead", "20").unwrap();
        let e = c.set_option("Hash", "16").unwrap_err();
        assert!(e.to_string().contains("no option `Hash`") && e.to_string().contains("Move Overhead"), "{e}");
        c.new_game().unwrap();
        c.position(None, &["e2e4".to_string()]).unwrap();
        let r = c.go(&Go { depth: Some(1), ..Go::default() }, Duration::from_secs(1)).unwrap();
        assert_eq!(r.bestmove, "e2e4");
        assert_eq!(r.score, Some(Score::Cp(12)));
        // The last `info ... time` counts, whatever info lines follow it.
        assert_eq!(r.reported_ms, Some(7));
        c.quit();
    }

    #[test]
    fn stall_times_out_and_marks_unhealthy() {
        let mut c = scripted(true);
        let e = c.go(&Go::default(), Duration::from_millis(30)).unwrap_err();
        assert!(matches!(e, EngineError::Timeout { what: "bestmove", .. }), "{e}");
        assert!(!c.is_healthy());
    }
}
