//! UCI input: one line of text → one [`UciCommand`]. Pure parsing, no engine state.
//!
//! The parser is strict: an unknown command or a garbage token is an error naming the token, so
//! the loop can answer `info string error: ...` instead of guessing. Move *legality* is not
//! checked here (that needs the position); only the shape of the command is.
//!
//! ```
//! use evochess::uci::command::UciCommand;
//! let cmd: UciCommand = "setoption name Move Overhead value 50".parse().unwrap();
//! assert_eq!(cmd, UciCommand::SetOption { name: "Move Overhead".into(), value: Some("50".into()) });
//! ```

use std::{fmt, str::FromStr};

use thiserror::Error;

use crate::limits::Limits;

/// One command from the GUI (or a person typing), including the debugging extras
/// `d`, `eval`, `bench` and `perft`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciCommand {
    Uci,
    Debug(bool),
    IsReady,
    /// `setoption name <name> [value <value>]`; both may contain spaces.
    SetOption {
        name: String,
        value: Option<String>,
    },
    UciNewGame,
    /// `position startpos|fen <FEN> [moves ...]`; `fen == None` is the start position.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(GoCommand),
    Stop,
    PonderHit,
    Quit,
    /// `d`: print the board, FEN and hash key.
    Display,
    /// `eval`: print the static evaluation of the current position.
    Eval,
    /// `bench [depth]`: the fixed-position node-count signature.
    Bench {
        depth: Option<u32>,
    },
    /// `perft <depth>` (or Stockfish's `go perft <depth>`): move-generation count with a
    /// per-move breakdown.
    Perft {
        depth: u32,
    },
}

/// A parsed `go`. The parser knows no position, so `searchmoves` stays in UCI notation here;
/// the loop resolves it into [`Limits::searchmoves`] against the current position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    /// Every limit but the root moves (`limits.searchmoves` is empty).
    pub limits: Limits,
    /// `searchmoves` as sent.
    pub searchmoves: Vec<String>,
}

impl From<Limits> for GoCommand {
    fn from(limits: Limits) -> GoCommand {
        GoCommand { limits, searchmoves: Vec::new() }
    }
}

/// Why a line is not a valid command. Every variant names the offending text.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ParseCommandError {
    #[error("empty command")]
    Empty,
    #[error("unknown command `{0}`")]
    Unknown(String),
    #[error("`{command}` needs {what}")]
    Missing { command: &'static str, what: &'static str },
    #[error("`{command}`: expected {expected}, found `{found}`")]
    Expected { command: &'static str, expected: &'static str, found: String },
    #[error("`{command}`: unexpected token `{token}`")]
    Unexpected { command: &'static str, token: String },
    #[error("`{command}`: `{key}` expects {expected}, found `{value}`")]
    BadValue { command: &'static str, key: &'static str, value: String, expected: &'static str },
    #[error("`{command}`: `{key}` given twice")]
    Duplicate { command: &'static str, key: &'static str },
    /// A `go` with bad tokens: the first error, and the limits that were valid (bounded by
    /// [`bound_after_error`]), which the loop still searches so the GUI gets a `bestmove`.
    #[error("{error}")]
    Go { error: Box<ParseCommandError>, go: Box<GoCommand> },
}

/// Depth of the search run for a `go` whose errors left nothing to bound it.
pub const DEPTH_AFTER_ERROR: u32 = 1;

/// After an error in `go`, a search nothing bounds (no clock, depth, nodes, movetime or mate,
/// and not `infinite` or `ponder`, which the GUI asked for) would never send its `bestmove`:
/// bound it to [`DEPTH_AFTER_ERROR`].
pub fn bound_after_error(limits: &mut Limits) {
    if limits.is_unbounded() && !limits.infinite && !limits.ponder {
        limits.depth = Some(DEPTH_AFTER_ERROR);
    }
}

/// Longest token quoted back in an error; a 1 MB garbage line must not become a 1 MB reply.
const MAX_QUOTE: usize = 40;

/// `token`, shortened for quoting in an error message.
pub fn quote(token: &str) -> String {
    if token.chars().count() <= MAX_QUOTE {
        token.to_string()
    } else {
        let head: String = token.chars().take(MAX_QUOTE).collect();
        format!("{head}... ({} bytes)", token.len())
    }
}

/// Whitespace-separated tokens with their byte offsets, so a `setoption` value can be taken
/// verbatim from the line (paths may contain runs of spaces).
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &line[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &line[s..]));
    }
    out
}

impl FromStr for UciCommand {
    type Err = ParseCommandError;

    fn from_str(line: &str) -> Result<Self, Self::Err> {
        let toks = tokens(line);
        let Some(&(_, head)) = toks.first() else {
            return Err(ParseCommandError::Empty);
        };
        let args: Vec<&str> = toks[1..].iter().map(|&(_, t)| t).collect();
        let simple = |cmd: &'static str, value: UciCommand| match args.first() {
            None => Ok(value),
            Some(t) => Err(ParseCommandError::Unexpected { command: cmd, token: quote(t) }),
        };
        match head {
            "uci" => simple("uci", UciCommand::Uci),
            "isready" => simple("isready", UciCommand::IsReady),
            "ucinewgame" => simple("ucinewgame", UciCommand::UciNewGame),
            "stop" => simple("stop", UciCommand::Stop),
            "ponderhit" => simple("ponderhit", UciCommand::PonderHit),
            "quit" => simple("quit", UciCommand::Quit),
            "d" => simple("d", UciCommand::Display),
            "eval" => simple("eval", UciCommand::Eval),
            "debug" => match args.as_slice() {
                ["on"] => Ok(UciCommand::Debug(true)),
                ["off"] => Ok(UciCommand::Debug(false)),
                [] => Err(ParseCommandError::Missing { command: "debug", what: "`on` or `off`" }),
                [t, ..] => Err(ParseCommandError::Unexpected { command: "debug", token: quote(t) }),
            },
            "setoption" => parse_setoption(line, &toks[1..]),
            "position" => parse_position(&args),
            // Stockfish's spelling of perft, which perft-diffing tools send.
            "go" if args.first() == Some(&"perft") => parse_perft("go perft", &args[1..]),
            "go" => parse_go(&args).map(UciCommand::Go),
            "bench" => match args.as_slice() {
                [] => Ok(UciCommand::Bench { depth: None }),
                [d] => Ok(UciCommand::Bench { depth: Some(number("bench", "depth", d)?) }),
                [_, t, ..] => Err(ParseCommandError::Unexpected { command: "bench", token: quote(t) }),
            },
            "perft" => parse_perft("perft", &args),
            other => Err(ParseCommandError::Unknown(quote(other))),
        }
    }
}

fn number<T: FromStr>(command: &'static str, key: &'static str, value: &str) -> Result<T, ParseCommandError> {
    value.parse().map_err(|_| ParseCommandError::BadValue {
        command,
        key,
        value: quote(value),
        expected: if std::any::type_name::<T>().starts_with('i') { "an integer" } else { "a non-negative integer" },
    })
}

/// `perft <depth>`, or what follows `go perft`; `command` names the spelling in errors.
fn parse_perft(command: &'static str, args: &[&str]) -> Result<UciCommand, ParseCommandError> {
    match args {
        [] => Err(ParseCommandError::Missing { command, what: "a depth" }),
        [d] => Ok(UciCommand::Perft { depth: number(command, "depth", d)? }),
        [_, t, ..] => Err(ParseCommandError::Unexpected { command, token: quote(t) }),
    }
}

/// `setoption name <N...> [value <V...>]`: the name is re-joined with single spaces (names are
/// compared case-insensitively later); the value is the rest of the line verbatim.
fn parse_setoption(line: &str, toks: &[(usize, &str)]) -> Result<UciCommand, ParseCommandError> {
    const CMD: &str = "setoption";
    match toks.first() {
        None => return Err(ParseCommandError::Missing { command: CMD, what: "`name <option>`" }),
        Some(&(_, "name")) => {}
        Some(&(_, t)) => return Err(ParseCommandError::Expected { command: CMD, expected: "`name`", found: quote(t) }),
    }
    let rest = &toks[1..];
    let value_at = rest.iter().position(|&(_, t)| t == "value");
    let name_toks = &rest[..value_at.unwrap_or(rest.len())];
    if name_toks.is_empty() {
        return Err(ParseCommandError::Missing { command: CMD, what: "an option name after `name`" });
    }
    let name = name_toks.iter().map(|&(_, t)| t).collect::<Vec<_>>().join(" ");
    let value = value_at.map(|i| match rest.get(i + 1) {
        Some(&(offset, _)) => line[offset..].trim_end().to_string(),
        None => String::new(),
    });
    Ok(UciCommand::SetOption { name, value })
}

fn parse_position(args: &[&str]) -> Result<UciCommand, ParseCommandError> {
    const CMD: &str = "position";
    let (fen, rest) = match args.first() {
        None => return Err(ParseCommandError::Missing { command: CMD, what: "`startpos` or `fen <FEN>`" }),
        Some(&"startpos") => (None, &args[1..]),
        Some(&"fen") => {
            let end = args.iter().position(|&t| t == "moves").unwrap_or(args.len());
            if end == 1 {
                return Err(ParseCommandError::Missing { command: CMD, what: "a FEN after `fen`" });
            }
            (Some(args[1..end].join(" ")), &args[end..])
        }
        Some(t) => {
            return Err(ParseCommandError::Expected { command: CMD, expected: "`startpos` or `fen`", found: quote(t) });
        }
    };
    let moves = match rest.first() {
        None => Vec::new(),
        Some(&"moves") => rest[1..].iter().map(|m| m.to_string()).collect(),
        Some(t) => return Err(ParseCommandError::Expected { command: CMD, expected: "`moves`", found: quote(t) }),
    };
    Ok(UciCommand::Position { fen, moves })
}

/// Keywords that end a `searchmoves` list.
const GO_KEYWORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
];

/// `go` tokens -> limits. A bad token is skipped (with the value after it, unless that is a
/// keyword) and parsing goes on; the first error comes back with what was valid.
fn parse_go(args: &[&str]) -> Result<GoCommand, ParseCommandError> {
    const CMD: &str = "go";
    let mut limits = Limits::default();
    let mut searchmoves = Vec::new();
    let mut first_error: Option<ParseCommandError> = None;
    let mut i = 0;
    // Each keyword's value slot; a keyword given twice is an error rather than "last one wins".
    fn set<T>(slot: &mut Option<T>, key: &'static str, value: T) -> Result<(), ParseCommandError> {
        if slot.is_some() {
            return Err(ParseCommandError::Duplicate { command: "go", key });
        }
        *slot = Some(value);
        Ok(())
    }
    while i < args.len() {
        let key = args[i];
        i += 1;
        let result = (|| {
            if key == "infinite" || key == "ponder" {
                let (flag, key) =
                    if key == "infinite" { (&mut limits.infinite, "infinite") } else { (&mut limits.ponder, "ponder") };
                if *flag {
                    return Err(ParseCommandError::Duplicate { command: CMD, key });
                }
                *flag = true;
                return Ok(());
            }
            if key == "searchmoves" {
                let start = i;
                while i < args.len() && !GO_KEYWORDS.contains(&args[i]) {
                    searchmoves.push(args[i].to_string());
                    i += 1;
                }
                if i == start {
                    return Err(ParseCommandError::Missing {
                        command: CMD,
                        what: "at least one move after `searchmoves`",
                    });
                }
                return Ok(());
            }
            let Some(&key) = GO_KEYWORDS.iter().find(|&&k| k == key) else {
                return Err(ParseCommandError::Unexpected { command: CMD, token: quote(key) });
            };
            // A missing value, or a keyword where the value should be, leaves that keyword for
            // the next round.
            let Some(value) = args.get(i).filter(|v| !GO_KEYWORDS.contains(v)) else {
                return Err(ParseCommandError::BadValue {
                    command: CMD,
                    key,
                    value: String::new(),
                    expected: "a number",
                });
            };
            i += 1;
            match key {
                "wtime" => set(&mut limits.wtime, key, number(CMD, key, value)?),
                "btime" => set(&mut limits.btime, key, number(CMD, key, value)?),
                "winc" => set(&mut limits.winc, key, number(CMD, key, value)?),
                "binc" => set(&mut limits.binc, key, number(CMD, key, value)?),
                "movestogo" => set(&mut limits.movestogo, key, number(CMD, key, value)?),
                "movetime" => set(&mut limits.movetime, key, number(CMD, key, value)?),
                "depth" => set(&mut limits.depth, key, number(CMD, key, value)?),
                "nodes" => set(&mut limits.nodes, key, number(CMD, key, value)?),
                "mate" => set(&mut limits.mate, key, number(CMD, key, value)?),
                _ => unreachable!("every valued keyword is matched above"),
            }
        })();
        if let Err(e) = result {
            first_error.get_or_insert(e);
        }
    }
    match first_error {
        None => Ok(GoCommand { limits, searchmoves }),
        Some(error) => {
            bound_after_error(&mut limits);
            Err(ParseCommandError::Go { error: Box::new(error), go: Box::new(GoCommand { limits, searchmoves }) })
        }
    }
}

impl fmt::Display for UciCommand {
    /// The command as a GUI would send it (round-trips through [`FromStr`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciCommand::Uci => f.write_str("uci"),
            UciCommand::Debug(on) => write!(f, "debug {}", if *on { "on" } else { "off" }),
            UciCommand::IsReady => f.write_str("isready"),
            UciCommand::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(v) => write!(f, " value {v}"),
                    None => Ok(()),
                }
            }
            UciCommand::UciNewGame => f.write_str("ucinewgame"),
            UciCommand::Position { fen, moves } => {
                match fen {
                    Some(fen) => write!(f, "position fen {fen}")?,
                    None => f.write_str("position startpos")?,
                }
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            UciCommand::Go(GoCommand { limits: l, searchmoves }) => {
                f.write_str("go")?;
                let nums: [(&str, Option<i64>); 9] = [
                    ("wtime", l.wtime),
                    ("btime", l.btime),
                    ("winc", l.winc),
                    ("binc", l.binc),
                    ("movestogo", l.movestogo.map(i64::from)),
                    ("movetime", l.movetime.map(|v| v as i64)),
                    ("depth", l.depth.map(i64::from)),
                    ("nodes", l.nodes.map(|v| v as i64)),
                    ("mate", l.mate.map(i64::from)),
                ];
                for (k, v) in nums {
                    if let Some(v) = v {
                        write!(f, " {k} {v}")?;
                    }
                }
                if l.infinite {
                    f.write_str(" infinite")?;
                }
                if l.ponder {
                    f.write_str(" ponder")?;
                }
                if !searchmoves.is_empty() {
                    write!(f, " searchmoves {}", searchmoves.join(" "))?;
                }
                Ok(())
            }
            UciCommand::Stop => f.write_str("stop"),
            UciCommand::PonderHit => f.write_str("ponderhit"),
            UciCommand::Quit => f.write_str("quit"),
            UciCommand::Display => f.write_str("d"),
            UciCommand::Eval => f.write_str("eval"),
            UciCommand::Bench { depth: None } => f.write_str("bench"),
            UciCommand::Bench { depth: Some(d) } => write!(f, "bench {d}"),
            UciCommand::Perft { depth } => write!(f, "perft {depth}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<UciCommand, ParseCommandError> {
        s.parse()
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse("uci"), Ok(UciCommand::Uci));
        assert_eq!(parse("  isready \r"), Ok(UciCommand::IsReady));
        assert_eq!(parse("ucinewgame"), Ok(UciCommand::UciNewGame));
        assert_eq!(parse("stop"), Ok(UciCommand::Stop));
        assert_eq!(parse("ponderhit"), Ok(UciCommand::PonderHit));
        assert_eq!(parse("quit"), Ok(UciCommand::Quit));
        assert_eq!(parse("d"), Ok(UciCommand::Display));
        assert_eq!(parse("eval"), Ok(UciCommand::Eval));
        assert_eq!(parse("debug on"), Ok(UciCommand::Debug(true)));
        assert_eq!(parse("bench"), Ok(UciCommand::Bench { depth: None }));
        assert_eq!(parse("bench 7"), Ok(UciCommand::Bench { depth: Some(7) }));
        assert_eq!(parse("perft 3"), Ok(UciCommand::Perft { depth: 3 }));
        assert_eq!(parse("go perft 4"), Ok(UciCommand::Perft { depth: 4 }));
    }

    #[test]
    fn errors_name_the_culprit() {
        assert_eq!(parse(""), Err(ParseCommandError::Empty));
        assert_eq!(parse("   \t "), Err(ParseCommandError::Empty));
        assert_eq!(parse("foo bar"), Err(ParseCommandError::Unknown("foo".into())));
        assert_eq!(
            parse("isready now"),
            Err(ParseCommandError::Unexpected { command: "isready", token: "now".into() })
        );
        assert!(parse("perft").unwrap_err().to_string().contains("depth"));
        assert!(parse("perft x").unwrap_err().to_string().contains("`x`"));
        assert!(parse("perft -1").unwrap_err().to_string().contains("`-1`"));
        assert!(parse("go perft").unwrap_err().to_string().contains("go perft"));
        assert!(parse("go perft 3 x").unwrap_err().to_string().contains("`x`"));
        assert!(parse("debug maybe").unwrap_err().to_string().contains("maybe"));
        assert!(parse("UCI").is_err(), "commands are case-sensitive, as in the UCI spec");
    }

    #[test]
    fn huge_tokens_are_shortened_in_errors() {
        let line = "x".repeat(1 << 20);
        let msg = parse(&line).unwrap_err().to_string();
        assert!(msg.len() < 200, "{}", msg.len());
        assert!(msg.contains("1048576 bytes"), "{msg}");
    }

    #[test]
    fn setoption_names_and_values_with_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 100"),
            Ok(UciCommand::SetOption { name: "Move Overhead".into(), value: Some("100".into()) })
        );
        assert_eq!(
            parse("setoption name  Clear   Hash "),
            Ok(UciCommand::SetOption { name: "Clear Hash".into(), value: None })
        );
        assert_eq!(
            parse("setoption name SyzygyPath value /my tables/3  4 piece  "),
            Ok(UciCommand::SetOption { name: "SyzygyPath".into(), value: Some("/my tables/3  4 piece".into()) })
        );
        assert_eq!(
            parse("setoption name ParamsFile value"),
            Ok(UciCommand::SetOption { name: "ParamsFile".into(), value: Some(String::new()) })
        );
        assert!(matches!(parse("setoption"), Err(ParseCommandError::Missing { .. })));
        assert!(matches!(parse("setoption name"), Err(ParseCommandError::Missing { .. })));
        assert!(matches!(parse("setoption name value 3"), Err(ParseCommandError::Missing { .. })));
        assert_eq!(
            parse("setoption Hash value 3").unwrap_err().to_string(),
            "`setoption`: expected `name`, found `Hash`"
        );
    }

    #[test]
    fn position_variants() {
        assert_eq!(parse("position startpos"), Ok(UciCommand::Position { fen: None, moves: vec![] }));
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Ok(UciCommand::Position { fen: None, moves: vec!["e2e4".into(), "e7e5".into()] })
        );
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
        assert_eq!(
            parse(&format!("position fen {fen} moves c7c5")),
            Ok(UciCommand::Position { fen: Some(fen.into()), moves: vec!["c7c5".into()] })
        );
        assert_eq!(
            parse(&format!("position fen {fen}")),
            Ok(UciCommand::Position { fen: Some(fen.into()), moves: vec![] })
        );
        // An empty move list is accepted (some GUIs send it).
        assert_eq!(parse("position startpos moves"), Ok(UciCommand::Position { fen: None, moves: vec![] }));
        assert!(matches!(parse("position"), Err(ParseCommandError::Missing { .. })));
        assert!(matches!(parse("position fen"), Err(ParseCommandError::Missing { .. })));
        assert!(matches!(parse("position fen moves e2e4"), Err(ParseCommandError::Missing { .. })));
        assert!(matches!(parse("position start"), Err(ParseCommandError::Expected { .. })));
        assert_eq!(
            parse("position startpos e2e4").unwrap_err().to_string(),
            "`position`: expected `moves`, found `e2e4`"
        );
    }

    #[test]
    fn go_limits() {
        let limits = |line: &str| match parse(line) {
            Ok(UciCommand::Go(GoCommand { limits, searchmoves })) if searchmoves.is_empty() => limits,
            other => panic!("`{line}`: {other:?}"),
        };
        assert_eq!(
            limits("go wtime 1000 btime -20 winc 10 binc 0 movestogo 5"),
            Limits {
                wtime: Some(1000),
                btime: Some(-20),
                winc: Some(10),
                binc: Some(0),
                movestogo: Some(5),
                ..Limits::default()
            }
        );
        assert_eq!(parse("go"), Ok(UciCommand::Go(Limits::default().into())));
        assert_eq!(parse("go depth 5"), Ok(UciCommand::Go(Limits::depth(5).into())));
        assert_eq!(parse("go nodes 10000"), Ok(UciCommand::Go(Limits::nodes(10000).into())));
        let l = limits("go movetime 100 mate 3 infinite ponder");
        assert_eq!((l.movetime, l.mate, l.infinite, l.ponder), (Some(100), Some(3), true, true));
        let Ok(UciCommand::Go(go)) = parse("go searchmoves e2e4 d2d4 depth 3") else { panic!() };
        assert_eq!(go.searchmoves, vec!["e2e4".to_string(), "d2d4".to_string()]);
        assert_eq!(go.limits, Limits::depth(3));
        let l = limits("go wtime 500");
        assert_eq!((l.wtime, l.btime), (Some(500), None));
    }

    /// The first error of a bad `go` and the limits searched anyway.
    fn bad_go(line: &str) -> (ParseCommandError, Limits) {
        match parse(line) {
            Err(ParseCommandError::Go { error, go }) => (*error, go.limits),
            other => panic!("`{line}`: {other:?}"),
        }
    }

    #[test]
    fn go_garbage_is_reported_and_the_valid_limits_kept() {
        let (e, l) = bad_go("go fast");
        assert_eq!(e, ParseCommandError::Unexpected { command: "go", token: "fast".into() });
        assert_eq!(l, Limits::depth(DEPTH_AFTER_ERROR));
        assert!(bad_go("go depth").0.to_string().contains("depth"));
        assert!(bad_go("go depth deep").0.to_string().contains("`deep`"));
        assert!(bad_go("go movetime -5").0.to_string().contains("`-5`"));
        assert!(parse("go nodes 1e6").is_err());
        assert!(parse("go wtime 99999999999999999999999").is_err());
        let (e, l) = bad_go("go depth 3 depth 4");
        assert!(matches!(e, ParseCommandError::Duplicate { key: "depth", .. }));
        assert_eq!(l, Limits::depth(3), "the first one counts");
        assert!(matches!(bad_go("go infinite infinite"), (ParseCommandError::Duplicate { .. }, l) if l.infinite));
        assert!(matches!(bad_go("go searchmoves").0, ParseCommandError::Missing { .. }));
        // The valid limits around a bad token are kept, including a keyword where a value was due.
        let (_, l) = bad_go("go wtime 1000 btime soon winc 10");
        assert_eq!((l.wtime, l.btime, l.winc, l.depth), (Some(1000), None, Some(10), None));
        let (_, l) = bad_go("go depth nodes 500");
        assert_eq!((l.depth, l.nodes), (None, Some(500)));
        let (_, l) = bad_go("go infinite bogus");
        assert!(l.infinite && l.depth.is_none(), "an infinite search stays infinite: {l:?}");
    }

    #[test]
    fn display_round_trips() {
        for line in [
            "uci",
            "debug off",
            "setoption name Move Overhead value 30",
            "setoption name Clear Hash",
            "position startpos",
            "position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1 moves a1a2",
            "go wtime 100 btime 200 winc 1 binc 2 movestogo 3 movetime 4 depth 5 nodes 6 mate 7 infinite ponder searchmoves e2e4",
            "go",
            "bench 4",
            "perft 2",
        ] {
            let cmd = parse(line).unwrap();
            assert_eq!(cmd.to_string(), line);
            assert_eq!(parse(&cmd.to_string()), Ok(cmd));
        }
    }
}
