//! evochess: a UCI chess engine whose every evaluation and search parameter loads from TOML.
//!
//! The engine core runs without stdin/stdout: [`engine::Engine`] is the facade the UCI loop,
//! the tests, `bench` and the tuner all drive. Parameters are declared once in
//! [`params`] (see [`eval::params`] and [`search::params`]). Code that only the tuner's
//! measurements run in-process lives in [`measure`].

pub mod bench;
pub mod book;
pub mod data;
pub mod engine;
pub mod eval;
pub mod input;
pub mod limits;
pub mod measure;
pub mod movepick;
pub mod params;
pub mod perft;
pub mod score;
pub mod search;
pub mod see;
pub mod tb;
pub mod timeman;
pub mod tt;
pub mod uci;
pub mod zobrist;

pub use engine::Engine;
pub use params::Params;

/// `err` and its causes as one line, `outer: cause: ...`, each text once: many error types
/// already quote their source in their own message, which `{:#}` would print twice.
pub fn error_chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut out = err.to_string();
    let mut cause = err.source();
    while let Some(c) = cause {
        let text = c.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        cause = c.source();
    }
    printable(&out).into_owned()
}

/// `text` with control characters other than newline and tab (NUL, ESC, CR ...) escaped as
/// `\x1b`: an error may carry bytes from a file or an engine, and raw ones would drive the
/// reader's terminal.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    escaped(text, |c| c.is_control() && c != '\n' && c != '\t', |_| None)
}

/// `text` from outside (an engine's line, a broker's message, a file's key) as one line: every
/// control character, newline, carriage return and tab included, is escaped (`\n`, `\r`, `\t`,
/// `\x1b`), and so are the Unicode line and paragraph separators (`\u{2028}`), so that it can
/// neither start a line of its own in a log, an error or an output file nor drive the reader's
/// terminal. Text without them comes back borrowed.
pub fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    let named = |c: char| match c {
        '\n' => Some("\\n"),
        '\r' => Some("\\r"),
        '\t' => Some("\\t"),
        _ => None,
    };
    escaped(text, |c| c.is_control() || c == '\u{2028}' || c == '\u{2029}', named)
}

/// `text` with every character `raw` picks escaped: by its `named` escape where it has one, else
/// as `\xNN` (`\u{NNNN}` above U+00FF). Borrowed when nothing needs escaping.
fn escaped(
    text: &str,
    raw: impl Fn(char) -> bool,
    named: impl Fn(char) -> Option<&'static str>,
) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(&raw) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match (raw(c), named(c)) {
            (false, _) => out.push(c),
            (true, Some(name)) => out.push_str(name),
            (true, None) if u32::from(c) <= 0xff => out.push_str(&format!("\\x{:02x}", u32::from(c))),
            (true, None) => out.push_str(&format!("\\u{{{:04x}}}", u32::from(c))),
        }
    }
    out.into()
}

#[cfg(test)]
mod tests {
    use super::{error_chain, one_line, printable};

    #[test]
    fn one_line_escapes_every_control_character() {
        assert_eq!(one_line("plain `key` é"), "plain `key` é");
        assert!(matches!(one_line("plain"), std::borrow::Cow::Borrowed(_)));
        assert_eq!(
            one_line("a\nb\r\nc\td\0e\x1b[2Jf\u{85}g\u{2028}h"),
            "a\\nb\\r\\nc\\td\\x00e\\x1b[2Jf\\x85g\\u{2028}h"
        );
        assert_eq!(one_line("x\n").lines().count(), 1);
    }

    #[derive(Debug, thiserror::Error)]
    enum Inner {
        #[error("disk full")]
        Full,
    }

    #[derive(Debug, thiserror::Error)]
    enum Outer {
        #[error("writing out.pgn: {source}")]
        Quoting { source: Inner },
        #[error("writing out.pgn")]
        Plain(#[source] Inner),
    }

    #[test]
    fn each_cause_is_printed_once() {
        assert_eq!(error_chain(&Outer::Quoting { source: Inner::Full }), "writing out.pgn: disk full");
        assert_eq!(error_chain(&Outer::Plain(Inner::Full)), "writing out.pgn: disk full");
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(printable("plain `key`"), "plain `key`");
        assert_eq!(printable("a\0b\x1b[31mc\nd\u{85}"), "a\\x00b\\x1b[31mc\nd\\x85");
    }
}
