//! A scriptable xboard (CECP) engine for the runner's tests: it plays seeded random legal moves
//! and, on request, negotiates features in odd ways or misbehaves.
//!
//! ```text
//! fake-xboard [--seed N] [--no-features] [--done0-ms MS] [--usermove] [--san] [--no-ping]
//!             [--no-setboard] [--reuse0] [--option] [--refuse-options] [--old-moves] [--offer-draw]
//!             [--score CP]
//!             [--crash-after N] [--stall-after N] [--illegal-after N] [--slow-after N --slow-ms MS]
//!             [--resign-after N] [--reject-after N] [--claim-win-after N] [--claim-draw-after N]
//!             [--log FILE]
//! ```
//! It is strict where the runner must be careful: with `--usermove` a bare move (and without it
//! a `usermove` command) is an unknown command; with `--san` only SAN moves are understood, else
//! only coordinates; a move it cannot play gets `Illegal move`. "after N" counts the moves it
//! has made since the process started. `--log` appends every command received.
//! `--refuse-options` answers every `option` command with `Error (bad value): option …`.

use std::{
    io::{self, BufRead, Write},
    process, thread,
    time::Duration,
};

use shakmaty::{CastlingMode, Chess, Color, Move, Position, fen::Fen, san::San, uci::UciMove};

#[derive(Default)]
struct Behaviour {
    seed: u64,
    no_features: bool,
    done0_ms: Option<u64>,
    usermove: bool,
    san: bool,
    no_ping: bool,
    no_setboard: bool,
    reuse0: bool,
    option: bool,
    refuse_options: bool,
    old_moves: bool,
    offer_draw: bool,
    score: i32,
    crash_after: Option<u64>,
    stall_after: Option<u64>,
    illegal_after: Option<u64>,
    slow_after: Option<u64>,
    slow_ms: u64,
    resign_after: Option<u64>,
    reject_after: Option<u64>,
    claim_win_after: Option<u64>,
    claim_draw_after: Option<u64>,
    log: Option<String>,
}

fn die(msg: &str) -> ! {
    eprintln!("fake-xboard: {msg}");
    process::exit(2)
}

fn parse_args() -> Behaviour {
    let mut b = Behaviour { slow_ms: 1000, ..Behaviour::default() };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let mut on = true;
        match flag {
            "--no-features" => b.no_features = true,
            "--usermove" => b.usermove = true,
            "--san" => b.san = true,
            "--no-ping" => b.no_ping = true,
            "--no-setboard" => b.no_setboard = true,
            "--reuse0" => b.reuse0 = true,
            "--option" => b.option = true,
            "--refuse-options" => b.refuse_options = true,
            "--old-moves" => b.old_moves = true,
            "--offer-draw" => b.offer_draw = true,
            _ => on = false,
        }
        if on {
            i += 1;
            continue;
        }
        let val = args.get(i + 1).unwrap_or_else(|| die(&format!("{flag} needs a value")));
        let num = || val.parse::<u64>().unwrap_or_else(|_| die(&format!("{flag}: bad number")));
        match flag {
            "--seed" => b.seed = num(),
            "--done0-ms" => b.done0_ms = Some(num()),
            "--score" => b.score = val.parse().unwrap_or_else(|_| die("--score: bad number")),
            "--crash-after" => b.crash_after = Some(num()),
            "--stall-after" => b.stall_after = Some(num()),
            "--illegal-after" => b.illegal_after = Some(num()),
            "--slow-after" => b.slow_after = Some(num()),
            "--slow-ms" => b.slow_ms = num(),
            "--resign-after" => b.resign_after = Some(num()),
            "--reject-after" => b.reject_after = Some(num()),
            "--claim-win-after" => b.claim_win_after = Some(num()),
            "--claim-draw-after" => b.claim_draw_after = Some(num()),
            "--log" => b.log = Some(val.clone()),
            other => die(&format!("unknown argument {other}")),
        }
        i += 2;
    }
    b
}

/// splitmix64: a tiny deterministic generator, enough to pick moves.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

struct Engine {
    b: Behaviour,
    pos: Chess,
    /// The colour it plays; `None` in force mode.
    plays: Option<Color>,
    /// Moves made since the process started.
    moves_made: u64,
    /// Our moves received since the process started.
    received: u64,
}

impl Engine {
    fn say(&self, out: &mut impl Write, line: &str) {
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    fn parse_move(&self, text: &str) -> Option<Move> {
        if self.b.san {
            text.parse::<San>().ok()?.to_move(&self.pos).ok()
        } else {
            text.parse::<UciMove>().ok()?.to_move(&self.pos).ok()
        }
    }

    fn move_text(&self, m: Move) -> String {
        if self.b.san { San::from_move(&self.pos, m).to_string() } else { m.to_uci(CastlingMode::Standard).to_string() }
    }

    /// Our move arrived: play it, then answer if it is now this engine's turn.
    fn receive(&mut self, out: &mut impl Write, text: &str) {
        self.received += 1;
        let forced_reject = self.b.reject_after.is_some_and(|n| self.received > n);
        match self.parse_move(text) {
            Some(m) if !forced_reject => {
                self.pos.play_unchecked(m);
                if self.plays == Some(self.pos.turn()) {
                    self.think(out);
                }
            }
            _ => self.say(out, &format!("Illegal move: {text}")),
        }
    }

    fn think(&mut self, out: &mut impl Write) {
        self.moves_made += 1;
        let hit = |n: Option<u64>| n.is_some_and(|n| self.moves_made > n);
        if hit(self.b.crash_after) {
            process::abort();
        }
        if hit(self.b.stall_after) {
            loop {
                thread::sleep(Duration::from_secs(3600));
            }
        }
        if hit(self.b.slow_after) {
            thread::sleep(Duration::from_millis(self.b.slow_ms));
        }
        if hit(self.b.resign_after) {
            return self.say(out, "resign");
        }
        if hit(self.b.claim_win_after) {
            let claim = if self.pos.turn() == Color::White { "1-0" } else { "0-1" };
            return self.say(out, &format!("{claim} {{I win}}"));
        }
        if hit(self.b.claim_draw_after) {
            self.say(out, "1/2-1/2 {Draw by repetition}");
        }
        if self.b.offer_draw {
            self.say(out, "offer draw");
        }
        let moves = self.pos.legal_moves();
        if moves.is_empty() {
            return;
        }
        let m = moves[(mix(self.b.seed ^ mix(self.moves_made) ^ u64::from(self.pos.fullmoves().get()))
            % moves.len() as u64) as usize];
        let text = if hit(self.b.illegal_after) { "a1a1".to_string() } else { self.move_text(m) };
        self.say(out, &format!("1 {} 0 1 {text}", self.b.score));
        if self.b.old_moves {
            // The protocol-1 form marks the machine's move with `...`, whichever side it plays.
            self.say(out, &format!("{}. ... {text}", self.pos.fullmoves()));
        } else {
            self.say(out, &format!("move {text}"));
        }
        self.pos.play_unchecked(m);
    }

    fn features(&self, out: &mut impl Write) {
        let flag = |b: bool| u8::from(b);
        let mut line = format!(
            "feature myname=\"Fake Xboard\" ping={} setboard={} usermove={} san={} sigint=0 sigterm=0 reuse={} \
             colors=0 bogus=1",
            flag(!self.b.no_ping),
            flag(!self.b.no_setboard),
            flag(self.b.usermove),
            flag(self.b.san),
            flag(!self.b.reuse0),
        );
        if self.b.option {
            line.push_str(" option=\"Skill Level -spin 10 0 20\" option=\"Ponder -check 0\"");
        }
        self.say(out, &line);
        self.say(out, "feature done=1");
    }
}

fn main() {
    let b = parse_args();
    let mut log = b.log.as_ref().map(|p| {
        std::fs::OpenOptions::new().create(true).append(true).open(p).unwrap_or_else(|e| die(&format!("{p}: {e}")))
    });
    let mut e = Engine { b, pos: Chess::default(), plays: None, moves_made: 0, received: 0 };
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    let mut line = String::new();
    loop {
        line.clear();
        match stdin.lock().read_line(&mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let cmd = line.trim();
        if let Some(f) = &mut log {
            let _ = writeln!(f, "{cmd}");
        }
        let (word, rest) = cmd.split_once(' ').unwrap_or((cmd, ""));
        match word {
            "option" if e.b.refuse_options => e.say(&mut out, &format!("Error (bad value): {cmd}")),
            "xboard" | "accepted" | "rejected" | "level" | "st" | "sd" | "post" | "easy" | "time" | "otim" | "?"
            | "option" | "result" => {
                if word == "result" {
                    e.plays = None;
                }
            }
            "protover" if e.b.no_features => e.say(&mut out, "Error (unknown command): protover"),
            "protover" => {
                if let Some(ms) = e.b.done0_ms {
                    e.say(&mut out, "feature done=0");
                    thread::sleep(Duration::from_millis(ms));
                }
                e.features(&mut out);
            }
            "new" => {
                e.pos = Chess::default();
                e.plays = Some(Color::Black);
            }
            "setboard" if !e.b.no_setboard => {
                match rest.parse::<Fen>().ok().and_then(|f| f.into_position(CastlingMode::Standard).ok()) {
                    Some(p) => e.pos = p,
                    None => e.say(&mut out, "tellusererror Illegal position"),
                }
            }
            "force" => e.plays = None,
            "go" => {
                e.plays = Some(e.pos.turn());
                e.think(&mut out);
            }
            "ping" if !e.b.no_ping => e.say(&mut out, &format!("pong {rest}")),
            "usermove" if e.b.usermove => e.receive(&mut out, rest),
            "quit" => return,
            _ if !e.b.usermove && !cmd.contains(' ') && !cmd.is_empty() => e.receive(&mut out, cmd),
            _ => e.say(&mut out, &format!("Error (unknown command): {cmd}")),
        }
    }
}
