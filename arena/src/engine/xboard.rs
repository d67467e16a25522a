//! The xboard (CECP) side of a game, modelled on cutechess's `xboardengine`.
//!
//! Start-up: `xboard`, `protover 2`, then the engine's `feature` lines, each answered `accepted`
//! or `rejected`, until `done=1`. An engine that says nothing of `done` within 2 s is taken for a
//! protocol-1 engine, as cutechess and xboard do; `done=0` extends the wait to the start timeout.
//! Declared `option=` features can be set (`option NAME=VALUE`).
//!
//! A game: `new`; `setboard FEN` only when the start is not the standard position (openings
//! reached by moves are played to the engine in force mode, so an engine without `setboard` can
//! play them; a FEN start for it is an [`EngineError::Unsupported`]); the clock (`level MPS BASE
//! INC`, or `st` for a fixed time per move); `sd` for a depth limit; `post`, `easy`, `force`; then
//! `ping`/`pong` as the sync. On its first turn the engine gets the moves it has not seen, in force
//! mode, then `time`/`otim` in centiseconds and `go`; on later turns, as in cutechess, `time`/`otim`
//! and the opponent's move, which it answers. The game ends with `force` and `result R {reason}`.
//!
//! What the engine says while it is on move:
//! * `move X` (or the protocol-1 form `N. ... X`): its move, in coordinate notation or SAN;
//! * `resign`, or a result claim that gives the game to its opponent: a resignation;
//! * `1/2-1/2 {…}` before its move: a draw claim that the move must make true under the rules,
//!   or the claimer loses (cutechess); a claim of its own win is never true when it is asked to
//!   move (the game loop stops at every result of the rules), so the claimer loses;
//! * `offer draw`: ignored: there is no draw by agreement, draws come from the rules or from
//!   adjudication;
//! * `Illegal move…` in answer to one of our (legal) moves: the engine is out of step and loses.
//!
//! Claims and offers that come after its move, while the opponent is on move, are ignored (the
//! rules have already judged that move); a `resign` sent then counts at its next turn. Signals
//! (`sigint`, `sigterm`) are never sent, whatever the engine asks: it is told `?` to move now
//! when its time is up, and killed after `quit` if it does not exit.

use std::{
    path::Path,
    time::{Duration, Instant},
};

use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, fen::Fen, san::San, uci::UciMove};

use crate::{
    engine::{
        reply::{BadMove, Reply},
        transport::{Conn, EngineError, Timeouts, Transport},
        uci::{Go, Score, SearchResult},
    },
    tc::{ClockTc, SearchLimits},
};

/// How long a protocol-2 engine may take to send `done=1` before it counts as protocol 1.
const PROTOVER_WAIT: Duration = Duration::from_secs(2);

/// How long an engine without `ping` gets to finish its output before a game (cutechess: 200 ms).
const NO_PING_SETTLE: Duration = Duration::from_millis(200);

/// A result claim: `1-0`, `0-1` or `1/2-1/2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    WhiteWins,
    BlackWins,
    Draw,
}

/// One line of `ply score time nodes pv` thinking output (after `post`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Thinking {
    pub depth: u32,
    /// Centipawns from the engine's point of view.
    pub score: i32,
    pub time_cs: u64,
    pub nodes: u64,
    pub pv_first: Option<String>,
}

/// Something an xboard engine printed, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XbLine {
    Features(Vec<(String, String)>),
    Move(String),
    Pong(u64),
    Resign,
    Claim {
        claim: Claim,
        comment: String,
    },
    OfferDraw,
    /// `Illegal move: X` or `Illegal move (reason): X`, the whole line.
    IllegalMove(String),
    /// `Error (…): …`, the whole line.
    Error(String),
    Thinking(Thinking),
    /// Anything else (`tellusererror`, `#` comments, board diagrams, …).
    Other(String),
}

impl XbLine {
    /// Parses one line. Never fails: unknown input is [`XbLine::Other`].
    pub fn parse(line: &str) -> XbLine {
        let trimmed = line.trim();
        let mut tokens = trimmed.split_whitespace();
        let Some(first) = tokens.next() else { return XbLine::Other(String::new()) };
        let rest = trimmed[first.len()..].trim_start();
        let claim = |claim| XbLine::Claim { claim, comment: rest.to_string() };
        match first {
            "feature" => XbLine::Features(parse_features(rest)),
            "move" => tokens.next().map_or_else(|| XbLine::Other(trimmed.to_string()), |m| XbLine::Move(m.to_string())),
            "pong" => {
                tokens.next().and_then(|n| n.parse().ok()).map_or(XbLine::Other(trimmed.to_string()), XbLine::Pong)
            }
            "resign" => XbLine::Resign,
            "1-0" => claim(Claim::WhiteWins),
            "0-1" => claim(Claim::BlackWins),
            "1/2-1/2" => claim(Claim::Draw),
            "offer" if tokens.next() == Some("draw") => XbLine::OfferDraw,
            _ if trimmed.starts_with("Illegal move") => XbLine::IllegalMove(trimmed.to_string()),
            _ if first.starts_with("Error") => XbLine::Error(trimmed.to_string()),
            _ => parse_old_move(first, tokens.clone())
                .or_else(|| parse_thinking(trimmed))
                .unwrap_or_else(|| XbLine::Other(trimmed.to_string())),
        }
    }
}

/// The protocol-1 move forms xboard still accepts: `1. ... e7e5` and `1... e7e5`.
fn parse_old_move<'a>(first: &str, mut rest: impl Iterator<Item = &'a str>) -> Option<XbLine> {
    let number = first.trim_end_matches('.');
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) || number.len() == first.len() {
        return None;
    }
    let mut next = rest.next()?;
    if next == "..." {
        next = rest.next()?;
    } else if !first.ends_with("...") {
        return None;
    }
    Some(XbLine::Move(next.to_string()))
}

/// `ply score time nodes [more numbers] pv…`; the ply may carry a marker such as `12&`.
fn parse_thinking(line: &str) -> Option<XbLine> {
    let mut t = line.split_whitespace();
    let depth = t.next()?.trim_end_matches(|c: char| !c.is_ascii_digit()).parse().ok()?;
    let score = t.next()?.parse().ok()?;
    let time_cs = t.next()?.parse().ok()?;
    let nodes = t.next()?.parse().ok()?;
    let pv_first = t.find(|tok| tok.parse::<f64>().is_err()).map(str::to_string);
    Some(XbLine::Thinking(Thinking { depth, score, time_cs, nodes, pv_first }))
}

/// The `name=value` pairs of a `feature` line; values are a token or a `"quoted string"`.
pub fn parse_features(args: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = args;
    loop {
        rest = rest.trim_start();
        let Some(eq) = rest.find('=') else { break };
        // Garbage before a name is skipped: the name is the last word before `=`.
        let name = rest[..eq].split_whitespace().last().unwrap_or("");
        let after = &rest[eq + 1..];
        let (value, next) = match after.strip_prefix('"') {
            Some(q) => q.find('"').map_or((q, ""), |end| (&q[..end], &q[end + 1..])),
            None => {
                let end = after.find(char::is_whitespace).unwrap_or(after.len());
                (&after[..end], &after[end..])
            }
        };
        if !name.is_empty() {
            out.push((name.to_string(), value.to_string()));
        }
        rest = next;
    }
    out
}

/// An `option="NAME -TYPE …"` feature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XbOption {
    pub name: String,
    /// `check`, `spin`, `slider`, `combo`, `string`, `file`, `path`, `button`, `save`, `reset`.
    pub kind: String,
    /// What follows the type: `DEFAULT MIN MAX` of a spin or slider, the default of a check,
    /// the choices of a combo (`A /// *B /// C`, the starred one the default).
    pub values: String,
}

impl XbOption {
    fn parse(value: &str) -> Option<XbOption> {
        let at = value.find(" -")?;
        let name = value[..at].trim();
        let after = value[at + 2..].trim_start();
        let kind = after.split_whitespace().next()?;
        let values = after[kind.len()..].trim().to_string();
        (!name.is_empty()).then(|| XbOption { name: name.to_string(), kind: kind.to_string(), values })
    }

    /// Why `value` is not one the declaration allows; `None` when it is, or when the declaration
    /// does not say. An xboard engine does not answer a setting, so a value out of its range
    /// would otherwise be clamped or ignored in silence.
    fn refuses(&self, value: &str) -> Option<String> {
        let value = value.trim();
        match self.kind.as_str() {
            "spin" | "slider" => {
                let Ok(v) = value.parse::<i64>() else { return Some("not an integer".into()) };
                let bounds: Result<Vec<i64>, _> = self.values.split_whitespace().map(str::parse).collect();
                match bounds.as_deref() {
                    Ok([_, min, max, ..]) if !(*min..=*max).contains(&v) => {
                        Some(format!("outside the declared range {min} to {max}"))
                    }
                    _ => None,
                }
            }
            "check" => (!matches!(value, "true" | "false" | "1" | "0")).then(|| "not true or false".into()),
            "combo" if !self.values.is_empty() => {
                let choices: Vec<&str> = self.values.split("///").map(|c| c.trim().trim_start_matches('*')).collect();
                (!choices.iter().any(|c| c.eq_ignore_ascii_case(value)))
                    .then(|| format!("not one of its choices ({})", choices.join(", ")))
            }
            _ => None,
        }
    }
}

/// Whether `line` is an engine's `Error (…): option …`, its answer to a setting it refuses.
fn is_option_error(line: &str) -> bool {
    matches!(XbLine::parse(line), XbLine::Error(_))
        && line.split_once("):").is_some_and(|(_, command)| command.trim_start().starts_with("option"))
}

/// What the engine declared, with the protocol's defaults for what it did not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    pub ping: bool,
    pub setboard: bool,
    /// Moves are exchanged in SAN rather than coordinate notation.
    pub san: bool,
    /// Our moves are sent as `usermove X` rather than a bare `X`.
    pub usermove: bool,
    /// The engine wants `time`/`otim`.
    pub time: bool,
    /// False: restart the engine for every game.
    pub reuse: bool,
    /// The protocol-2 handshake ended with `done=1`.
    pub done: bool,
    pub myname: Option<String>,
    pub options: Vec<XbOption>,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            ping: false,
            setboard: false,
            san: false,
            usermove: false,
            time: true,
            reuse: true,
            done: false,
            myname: None,
            options: Vec::new(),
        }
    }
}

impl Features {
    /// Records one feature; false for one this client rejects (it will not use it, and the
    /// engine must not rely on it).
    fn set(&mut self, name: &str, value: &str) -> bool {
        let on = value == "1";
        match name {
            "ping" => self.ping = on,
            "setboard" => self.setboard = on,
            "san" => self.san = on,
            "usermove" => self.usermove = on,
            "time" => self.time = on,
            "reuse" => self.reuse = on,
            "myname" => self.myname = Some(value.to_string()),
            "option" => match XbOption::parse(value) {
                Some(o) => self.options.push(o),
                None => return false,
            },
            // Announcements that change nothing here: signals are never sent; analysis, names,
            // colours and variants are never asked for (only standard chess is played).
            "variants" | "sigint" | "sigterm" | "draw" | "analyze" | "colors" | "name" | "ics" | "pause"
            | "playother" | "debug" | "memory" | "smp" | "nps" | "exclude" | "setscore" | "highlight" | "egt" => {}
            _ => return false,
        }
        true
    }
}

/// `level MPS BASE INC`: BASE in minutes or `MIN:SS` (whole seconds, rounded up so a sub-second
/// clock is not sent as none), INC in seconds. `time`/`otim` carry the exact clock anyway.
pub fn level_command(c: &ClockTc) -> String {
    let secs = c.base_ms.div_ceil(1000);
    let base =
        if secs.is_multiple_of(60) { format!("{}", secs / 60) } else { format!("{}:{:02}", secs / 60, secs % 60) };
    let inc = if c.inc_ms.is_multiple_of(1000) {
        format!("{}", c.inc_ms / 1000)
    } else {
        format!("{}", c.inc_ms as f64 / 1000.0)
    };
    format!("level {} {base} {inc}", c.moves.unwrap_or(0))
}

/// An engine's move in coordinate notation (leniently: `e7e8Q`, `e7e8=q`) or SAN (`O-O` also as
/// `0-0`); cutechess accepts both from any xboard engine.
///
/// # Errors
/// [`BadMove::Invalid`] when the text is neither notation, [`BadMove::Illegal`] when it names no
/// legal move here.
pub fn parse_move(pos: &Chess, text: &str) -> Result<Move, BadMove> {
    let t = text.trim_end_matches(['+', '#', '!', '?']);
    let coord = t.replace('=', "").to_ascii_lowercase();
    if let Ok(u) = coord.parse::<UciMove>() {
        return u.to_move(pos).map_err(|_| BadMove::Illegal);
    }
    let san = if t.starts_with("0-0") { t.replace('0', "O") } else { t.to_string() };
    match san.parse::<San>() {
        Ok(s) => s.to_move(pos).map_err(|_| BadMove::Illegal),
        Err(_) => Err(BadMove::Invalid),
    }
}

/// An xboard engine after feature negotiation.
pub struct XboardClient {
    conn: Conn,
    timeouts: Timeouts,
    pub features: Features,
    /// In force mode the engine plays neither side and only records the moves it is sent.
    force: bool,
    /// The position after the first `tracked_len` moves of the game, for move notation.
    tracked: Chess,
    tracked_len: usize,
    /// How many moves of the game the engine has: sent to it, or played by it.
    known: usize,
    last_ping: u64,
}

impl XboardClient {
    /// Spawns `cmd` and negotiates features.
    pub fn spawn(
        label: &str,
        cmd: &Path,
        args: &[String],
        dir: Option<&Path>,
        timeouts: Timeouts,
    ) -> Result<XboardClient, EngineError> {
        XboardClient::handshake(Conn::spawn(label, cmd, args, dir)?, timeouts)
    }

    /// Negotiates features with an engine on `transport`.
    pub fn start(label: &str, transport: Box<dyn Transport>, timeouts: Timeouts) -> Result<XboardClient, EngineError> {
        XboardClient::handshake(Conn::new(label, transport), timeouts)
    }

    fn handshake(conn: Conn, timeouts: Timeouts) -> Result<XboardClient, EngineError> {
        let mut c = XboardClient {
            conn,
            timeouts,
            features: Features::default(),
            force: false,
            tracked: Chess::default(),
            tracked_len: 0,
            known: 0,
            last_ping: 0,
        };
        c.conn.send("xboard", "feature")?;
        c.conn.send("protover 2", "feature")?;
        let mut deadline = Instant::now() + timeouts.start.min(PROTOVER_WAIT);
        let mut waiting_after_done0 = false;
        while !c.features.done {
            let Some(line) = c.conn.line_until(deadline, "feature done=1")? else {
                if waiting_after_done0 {
                    log::warn!("{}: no `feature done=1` after `done=0`; carrying on", c.label());
                }
                break;
            };
            let XbLine::Features(list) = XbLine::parse(&line) else { continue };
            for (name, value) in list {
                if name == "done" {
                    c.conn.send("accepted done", "feature")?;
                    if value == "1" {
                        c.features.done = true;
                    } else {
                        // done=0: the engine needs time to initialise (the protocol's own rule).
                        waiting_after_done0 = true;
                        deadline = Instant::now() + timeouts.start;
                    }
                } else {
                    let verdict = if c.features.set(&name, &value) { "accepted" } else { "rejected" };
                    c.conn.send(&format!("{verdict} {name}"), "feature")?;
                }
            }
        }
        Ok(c)
    }

    pub fn label(&self) -> &str {
        self.conn.label()
    }

    /// False once the engine crashed, failed to answer or fell out of step: restart it.
    pub fn is_healthy(&self) -> bool {
        self.conn.is_healthy()
    }

    /// The engine's `myname`, if it sent one.
    pub fn id_name(&self) -> Option<&str> {
        self.features.myname.as_deref()
    }

    /// `option NAME=VALUE` for an option the engine declared (names compared without case) with
    /// a value its declaration allows (a spin's range, a check's true/false, a combo's choices);
    /// `true`/`false` become 1/0 for a check box.
    ///
    /// # Errors
    /// [`EngineError::UnknownOption`] for an undeclared name, [`EngineError::Refused`] for a value
    /// out of the declaration, naming the option and value.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let Some(o) = self.features.options.iter().find(|o| o.name.eq_ignore_ascii_case(name.trim())) else {
            return Err(EngineError::UnknownOption {
                engine: self.label().to_string(),
                option: name.to_string(),
                declared: self.features.options.iter().map(|o| o.name.as_str()).collect::<Vec<_>>().join(", "),
            });
        };
        if let Some(why) = o.refuses(value) {
            return Err(EngineError::Refused {
                engine: self.label().to_string(),
                message: format!("option `{}` = `{value}`: {why}", o.name),
            });
        }
        let line = match (o.kind.as_str(), value) {
            ("button" | "save" | "reset", _) => format!("option {}", o.name),
            ("check", "true") => format!("option {}=1", o.name),
            ("check", "false") => format!("option {}=0", o.name),
            _ => format!("option {}={value}", o.name),
        };
        self.conn.send(&line, "option")
    }

    /// `ping N` → `pong N`, discarding whatever comes before (the end of the last game). An
    /// engine without `ping` is given a moment to finish its output instead.
    pub fn ping(&mut self) -> Result<(), EngineError> {
        self.sync().map(|_| ())
    }

    /// [`XboardClient::ping`] after `option` commands: the engine's first `Error (…): option …`
    /// on the way fails the start naming the engine, as a UCI engine's error for a `setoption`
    /// does. Playing on would pass its defaults off as the settings asked for.
    pub fn ping_checked(&mut self) -> Result<(), EngineError> {
        match self.sync()? {
            Some(line) => Err(EngineError::Refused { engine: self.label().to_string(), message: line }),
            None => Ok(()),
        }
    }

    /// The sync of [`XboardClient::ping`]; the first option error seen on the way, if any.
    fn sync(&mut self) -> Result<Option<String>, EngineError> {
        let mut error = None;
        let note = |error: &mut Option<String>, line: &str| {
            if error.is_none() && is_option_error(line) {
                *error = Some(line.trim().to_string());
            }
        };
        if !self.features.ping {
            let settle = Instant::now() + self.timeouts.ping.min(NO_PING_SETTLE);
            while let Some(line) = self.conn.line_until(settle, "pong")? {
                note(&mut error, &line);
            }
            return Ok(error);
        }
        self.last_ping += 1;
        let n = self.last_ping;
        self.conn.send(&format!("ping {n}"), "pong")?;
        let deadline = Instant::now() + self.timeouts.ping;
        loop {
            let line = self.conn.next_line(deadline, "pong")?;
            if XbLine::parse(&line) == XbLine::Pong(n) {
                return Ok(error);
            }
            note(&mut error, &line);
        }
    }

    /// Sets up a game from `start` under `limits` and syncs.
    ///
    /// # Errors
    /// [`EngineError::Unsupported`] for a start other than the standard position when the engine
    /// lacks `setboard`; a disconnect or a missing `pong`.
    pub fn new_game(&mut self, start: &Chess, limits: &SearchLimits) -> Result<(), EngineError> {
        self.conn.send("new", "new")?;
        self.force = false;
        if *start != Chess::default() {
            if !self.features.setboard {
                return Err(EngineError::Unsupported {
                    engine: self.label().to_string(),
                    what: "play from a FEN position: it has no `feature setboard=1`".into(),
                });
            }
            let fen = Fen::from_position(start, EnPassantMode::Legal);
            self.conn.send(&format!("setboard {fen}"), "setboard")?;
        }
        if let Some(c) = &limits.clock {
            self.conn.send(&level_command(c), "level")?;
        } else if let Some(ms) = limits.movetime_ms {
            self.conn.send(&format!("st {}", ms / 1000), "st")?;
        }
        if let Some(d) = limits.depth {
            self.conn.send(&format!("sd {d}"), "sd")?;
        }
        self.conn.send("post", "post")?; // thinking output: scores for adjudication
        self.conn.send("easy", "easy")?; // no pondering
        self.conn.send("force", "force")?;
        self.force = true;
        self.tracked = start.clone();
        self.tracked_len = 0;
        self.known = 0;
        self.ping()
    }

    fn move_text(&self, m: Move) -> String {
        let text = if self.features.san {
            San::from_move(&self.tracked, m).to_string()
        } else {
            m.to_uci(CastlingMode::Standard).to_string()
        };
        if self.features.usermove { format!("usermove {text}") } else { text }
    }

    fn out_of_step(&mut self, detail: String) -> EngineError {
        self.conn.set_healthy(false);
        EngineError::OutOfStep { engine: self.label().to_string(), detail }
    }

    fn rejected(&mut self, line: String) -> EngineError {
        self.conn.set_healthy(false);
        EngineError::Rejected { engine: self.label().to_string(), line }
    }

    /// The engine's turn in the game of `moves` (UCI, from the start given to
    /// [`XboardClient::new_game`]): sends what it has not seen and the clocks of `go`, then waits
    /// up to `deadline` for its move. On a timeout it is told `?` (move now) and given a short
    /// grace, so it stays usable for the next game if it answers.
    pub fn think(&mut self, moves: &[String], go: &Go, deadline: Duration) -> Result<Reply, EngineError> {
        // What it said while the opponent was on move: only a resignation still counts.
        for line in self.conn.drain() {
            match XbLine::parse(&line) {
                XbLine::Resign => return Ok(Reply::Resign),
                XbLine::IllegalMove(l) => return Err(self.rejected(l)),
                other => log::debug!("{}: ignoring `{other:?}` between moves", self.label()),
            }
        }
        if moves.len() < self.tracked_len {
            return Err(self.out_of_step(format!("{} moves, {} already seen", moves.len(), self.tracked_len)));
        }
        let mut unseen = Vec::new();
        for (i, text) in moves.iter().enumerate().skip(self.tracked_len) {
            let Some(m) = text.parse::<UciMove>().ok().and_then(|u| u.to_move(&self.tracked).ok()) else {
                return Err(self.out_of_step(format!("move {text} is not legal in its position")));
            };
            if i >= self.known {
                unseen.push(self.move_text(m));
            }
            self.tracked.play_unchecked(m);
        }
        self.tracked_len = moves.len();
        let side = self.tracked.turn();
        let (own, opp) = match side {
            Color::White => (go.wtime, go.btime),
            Color::Black => (go.btime, go.wtime),
        };
        let mut clocks = Vec::new();
        if let Some(own) = own.filter(|_| self.features.time) {
            clocks.push(format!("time {}", own / 10));
            clocks.push(format!("otim {}", opp.unwrap_or(own) / 10));
        }
        // Playing its colour, it answers the opponent's move; otherwise it is told the moves in
        // force mode and then `go`.
        let answers_move = !self.force && unseen.len() == 1;
        if !answers_move {
            if !self.force {
                self.conn.send("force", "move")?;
            }
            for m in &unseen {
                self.conn.send(m, "move")?;
            }
        }
        for c in &clocks {
            self.conn.send(c, "move")?;
        }
        let start = Instant::now();
        self.conn.send(if answers_move { &unseen[0] } else { "go" }, "move")?;
        self.force = false;
        self.known = moves.len();
        self.wait_for_move(side, start, deadline)
    }

    fn wait_for_move(&mut self, side: Color, start: Instant, deadline: Duration) -> Result<Reply, EngineError> {
        let end = start + deadline;
        let (mut score, mut depth, mut nodes, mut reported_ms) = (None, None, None, None);
        let mut claims_draw = false;
        loop {
            let line = match self.conn.next_line(end, "move") {
                Ok(line) => line,
                Err(e @ EngineError::Timeout { .. }) => {
                    self.move_now();
                    return Err(e);
                }
                Err(e) => return Err(e),
            };
            match XbLine::parse(&line) {
                XbLine::Move(mv) => {
                    self.known += 1;
                    let elapsed = start.elapsed();
                    let found = SearchResult { bestmove: mv, ponder: None, elapsed, score, depth, nodes, reported_ms };
                    return Ok(Reply::Move { found, claims_draw });
                }
                XbLine::Thinking(t) => {
                    score = Some(Score::Cp(t.score));
                    depth = Some(t.depth);
                    nodes = Some(t.nodes);
                    // Thinking output gives the time in centiseconds.
                    reported_ms = Some(t.time_cs.saturating_mul(10));
                }
                XbLine::Resign => return Ok(Reply::Resign),
                XbLine::Claim { claim: Claim::Draw, .. } => claims_draw = true,
                XbLine::Claim { claim, .. } => {
                    let own_win = (claim == Claim::WhiteWins) == (side == Color::White);
                    return Ok(if own_win { Reply::FalseClaim(line.trim().to_string()) } else { Reply::Resign });
                }
                XbLine::IllegalMove(l) => return Err(self.rejected(l)),
                other => log::debug!("{}: ignoring `{other:?}` while it thinks", self.label()),
            }
        }
    }

    /// After a timeout: `?` and a short grace for the move; an engine that answers stays usable.
    fn move_now(&mut self) {
        self.conn.set_healthy(true);
        let _ = self.conn.send("?", "move");
        let grace = Instant::now() + self.timeouts.ping.min(Duration::from_secs(1));
        loop {
            match self.conn.next_line(grace, "move") {
                Ok(l) if matches!(XbLine::parse(&l), XbLine::Move(_)) => break,
                Ok(_) => {}
                Err(_) => {
                    self.conn.set_healthy(false);
                    break;
                }
            }
        }
    }

    /// `force` and `result R {reason}` (`R` is `1-0`, `0-1`, `1/2-1/2` or `*`).
    pub fn end_game(&mut self, result: &str, reason: &str) {
        if !self.is_healthy() {
            return;
        }
        if !self.force {
            let _ = self.conn.send("force", "force");
            self.force = true;
        }
        let _ = self.conn.send(&format!("result {result} {{{reason}}}"), "result");
    }

    /// Whether the engine can play another game in this process (healthy, and no `reuse=0`).
    pub fn reusable(&self) -> bool {
        self.is_healthy() && self.features.reuse
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
        let f =
            XbLine::parse(r#"feature myname="Phalanx XXV" ping=1 option="Randomizer (0-50) -slider 0 0 50" done=0"#);
        let pairs = |v: &[(&str, &str)]| v.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect::<Vec<_>>();
        assert_eq!(
            f,
            XbLine::Features(pairs(&[
                ("myname", "Phalanx XXV"),
                ("ping", "1"),
                ("option", "Randomizer (0-50) -slider 0 0 50"),
                ("done", "0"),
            ]))
        );
        assert_eq!(XbLine::parse("move e7e5"), XbLine::Move("e7e5".into()));
        assert_eq!(XbLine::parse("1. ... e7e5"), XbLine::Move("e7e5".into()));
        assert_eq!(XbLine::parse("12... Nf6"), XbLine::Move("Nf6".into()));
        assert_eq!(XbLine::parse("pong 7"), XbLine::Pong(7));
        assert_eq!(XbLine::parse("resign"), XbLine::Resign);
        assert_eq!(XbLine::parse("offer draw"), XbLine::OfferDraw);
        assert_eq!(
            XbLine::parse("1/2-1/2 {Draw by repetition}"),
            XbLine::Claim { claim: Claim::Draw, comment: "{Draw by repetition}".into() }
        );
        assert!(matches!(XbLine::parse("0-1 {Black mates}"), XbLine::Claim { claim: Claim::BlackWins, .. }));
        assert_eq!(
            XbLine::parse("Illegal move (in check): e2e4"),
            XbLine::IllegalMove("Illegal move (in check): e2e4".into())
        );
        assert!(matches!(XbLine::parse("Error (unknown command): easy"), XbLine::Error(_)));
        assert_eq!(
            XbLine::parse("9& -31 153 48211 Nf3 Nc6 Nc3"),
            XbLine::Thinking(Thinking {
                depth: 9,
                score: -31,
                time_cs: 153,
                nodes: 48211,
                pv_first: Some("Nf3".into())
            })
        );
        let XbLine::Thinking(t) = XbLine::parse("12 25 100 5000 11 250000 0\te2e4 e7e5") else { panic!() };
        assert_eq!(t.pv_first.as_deref(), Some("e2e4"));
        // A move number alone, or a PV-less number, is not a move.
        assert!(matches!(XbLine::parse("1. e2e4"), XbLine::Other(_)));
        assert!(matches!(XbLine::parse("  +----+----+"), XbLine::Other(_)));
    }

    #[test]
    fn option_values_are_checked_against_their_declaration() {
        let o = |v: &str| XbOption::parse(v).unwrap();
        let spin = o("Skill Level -spin 10 0 20");
        assert_eq!((spin.name.as_str(), spin.kind.as_str(), spin.values.as_str()), ("Skill Level", "spin", "10 0 20"));
        assert_eq!(spin.refuses("20"), None);
        assert_eq!(spin.refuses("21").as_deref(), Some("outside the declared range 0 to 20"));
        assert_eq!(spin.refuses("high").as_deref(), Some("not an integer"));
        let check = o("Ponder -check 0");
        assert_eq!((check.refuses("true"), check.refuses("0")), (None, None));
        assert!(check.refuses("maybe").is_some());
        let combo = o("Style -combo Solid /// *Normal /// Risky");
        assert_eq!(combo.refuses("risky"), None);
        assert_eq!(combo.refuses("Wild").as_deref(), Some("not one of its choices (Solid, Normal, Risky)"));
        assert_eq!(o("Book -file book.bin").refuses("other.bin"), None);
        assert!(is_option_error("Error (bad value): option Skill Level=99"));
        assert!(!is_option_error("Error (unknown command): accepted"));
        assert!(!is_option_error("tellusererror option"));
    }

    #[test]
    fn level_commands() {
        let tc = |s: &str| level_command(&s.parse::<ClockTc>().unwrap());
        assert_eq!(tc("10+0.1"), "level 0 0:10 0.1");
        assert_eq!(tc("40/60+0.6"), "level 40 1 0.6");
        assert_eq!(tc("1:30+2"), "level 0 1:30 2");
        assert_eq!(tc("0.5+0.05"), "level 0 0:01 0.05");
    }

    #[test]
    fn moves_in_either_notation() {
        let pos = Chess::default();
        let uci = |m: Move| m.to_uci(CastlingMode::Standard).to_string();
        assert_eq!(parse_move(&pos, "e2e4").map(uci), Ok("e2e4".into()));
        assert_eq!(parse_move(&pos, "Nf3").map(uci), Ok("g1f3".into()));
        assert_eq!(parse_move(&pos, "e4+").map(uci), Ok("e2e4".into()));
        assert_eq!(parse_move(&pos, "e2e5"), Err(BadMove::Illegal));
        assert_eq!(parse_move(&pos, "Ke2"), Err(BadMove::Illegal));
        assert_eq!(parse_move(&pos, "xyzzy!"), Err(BadMove::Invalid));
        let promo: Chess =
            "8/P6k/8/8/8/8/8/K7 w - - 0 1".parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        for text in ["a7a8q", "a7a8Q", "a7a8=Q", "a8=Q"] {
            assert_eq!(parse_move(&promo, text).map(uci), Ok("a7a8q".into()), "{text}");
        }
        let castle: Chess =
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1".parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        for text in ["e1g1", "O-O", "0-0"] {
            assert_eq!(parse_move(&castle, text).map(uci), Ok("e1g1".into()), "{text}");
        }
    }

    /// An engine whose answers to `protover` are `features`; it records what it was sent.
    fn scripted(features: Vec<&'static str>, sent: std::sync::Arc<std::sync::Mutex<Vec<String>>>) -> XboardClient {
        let t = ScriptTransport::new(move |cmd| {
            sent.lock().unwrap().push(cmd.to_string());
            let out: Vec<String> = match cmd.split_whitespace().next() {
                Some("protover") => features.iter().map(|s| s.to_string()).collect(),
                Some("ping") => vec![format!("pong {}", &cmd[5..])],
                _ => vec![],
            };
            ScriptReply::Lines(out)
        });
        let to = Timeouts { start: Duration::from_millis(150), ping: Duration::from_millis(150), quit: Duration::ZERO };
        XboardClient::start("x", Box::new(t), to).unwrap()
    }

    #[test]
    fn features_are_answered_and_recorded() {
        let sent = std::sync::Arc::default();
        let mut c = scripted(
            vec![
                r#"feature ping=1 setboard=1 san=1 usermove=1 reuse=0 myname="X 1.0" variants="normal""#,
                r#"feature option="Skill Level -spin 10 0 20" option="Ponder -check 0" analyze=0 wizardry=1 done=1"#,
            ],
            std::sync::Arc::clone(&sent),
        );
        let f = &c.features;
        assert!(f.ping && f.setboard && f.san && f.usermove && f.time && !f.reuse && f.done);
        assert_eq!(c.id_name(), Some("X 1.0"));
        assert_eq!(
            f.options.iter().map(|o| (o.name.as_str(), o.kind.as_str())).collect::<Vec<_>>(),
            [("Skill Level", "spin"), ("Ponder", "check")]
        );
        c.set_option("skill level", "5").unwrap();
        c.set_option("Ponder", "false").unwrap();
        let e = c.set_option("Hash", "16").unwrap_err().to_string();
        assert!(e.contains("no option `Hash`") && e.contains("Skill Level, Ponder"), "{e}");
        c.ping().unwrap();
        let sent = sent.lock().unwrap();
        for line in
            ["xboard", "protover 2", "accepted ping", "accepted usermove", "accepted myname", "rejected wizardry"]
        {
            assert!(sent.iter().any(|s| s == line), "{line} not in {sent:?}");
        }
        assert_eq!(sent.iter().filter(|s| s.starts_with("accepted option")).count(), 2);
        assert!(sent.iter().any(|s| s == "option Skill Level=5") && sent.iter().any(|s| s == "option Ponder=0"));
        assert_eq!(sent.iter().filter(|s| *s == "accepted done").count(), 1);
        assert!(sent.last().unwrap().starts_with("ping "));
    }

    #[test]
    fn silence_means_protocol_one() {
        let c = scripted(vec![], std::sync::Arc::default());
        assert_eq!(c.features, Features::default());
        assert!(!c.features.done && c.features.time && !c.features.ping);
    }

    #[test]
    fn fen_start_needs_setboard() {
        let mut c = scripted(vec!["feature setboard=0 ping=1 done=1"], std::sync::Arc::default());
        let limits = SearchLimits::default();
        c.new_game(&Chess::default(), &limits).unwrap();
        let other =
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1".parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        let e = c.new_game(&other, &limits).unwrap_err();
        assert!(e.to_string().contains("setboard"), "{e}");
    }
}
