//! `params/default.toml` and the declarations it is generated from.
//!
//! The default values live in one place: the declarations (`name: default, [min, max];` in
//! src/eval/params.rs and src/search/params.rs), compiled into the engine. `params/default.toml`
//! is generated from them: a header comment saying where the values come from (their lineage),
//! then every key and value ([`Params::values_toml`]; each key's doc and range stay in the
//! declaration, printed by `evochess params --dump`, not copied here). The header belongs to the
//! file: regenerating it (`UPDATE_DEFAULT_TOML=1 cargo test -p evochess --lib default_toml`)
//! keeps the header and rewrites only the values, and a test checks that the values below it are
//! the declarations'.
//!
//! Changing the defaults (what `tuner promote` does after an SPSA or Texel tune passes its SPRT)
//! therefore rewrites the values in the declarations ([`rewrite_declaration`], which touches
//! nothing but the value of each `name: value, [` line) and writes the file with a new header
//! ([`file_text`]): after a rebuild the engine plays exactly what the file says.

use thiserror::Error;

use super::{ParamSection, Params};

/// The first lines of every header: the file is generated, and how.
pub const PREAMBLE: &str = "\
# evochess's defaults, generated from the declarations in src/eval/params.rs and src/search/params.rs
# (`UPDATE_DEFAULT_TOML=1 cargo test -p evochess --lib default_toml`).
# Each key's doc and range: `evochess params --dump`.
";

/// The declaration files relative to the repository root, by section.
pub const DECLARATIONS: [(&str, &str); 2] = [("eval", "src/eval/params.rs"), ("search", "src/search/params.rs")];

/// `(header, values)` of a parameter file: the header is every line before the first one that
/// is neither a `#` comment nor blank.
pub fn split_header(text: &str) -> (&str, &str) {
    let mut end = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if !(t.is_empty() || t.starts_with('#')) {
            break;
        }
        end += line.len();
    }
    text.split_at(end)
}

/// The comment lines `lines`, each prefixed `# ` (`#` alone when empty), after [`PREAMBLE`].
pub fn header(lines: &[String]) -> String {
    let mut out = PREAMBLE.to_string();
    // `"".lines()` is empty: an empty line stays one.
    for l in lines.iter().flat_map(|l| if l.is_empty() { vec![""] } else { l.lines().collect() }) {
        out.push_str(if l.is_empty() { "#" } else { "# " });
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// The whole default file: `header` (its blank lines at the end made one) and `params`' values.
pub fn file_text(header: &str, params: &Params) -> String {
    format!("{}\n\n{}", header.trim_end(), params.values_toml())
}

/// A declaration file that cannot be rewritten.
#[derive(Debug, Error, PartialEq)]
pub enum DeclarationError {
    #[error("section `{section}`: no declaration line `{name}: VALUE, [MIN, MAX]` found")]
    Missing { section: &'static str, name: &'static str },
    #[error("section `{section}`: `{name}` is declared on {count} lines")]
    Repeated { section: &'static str, name: &'static str, count: usize },
    #[error("section `{section}`, line {line}: the default of `{name}` is `{found}`, not an integer literal")]
    NotLiteral { section: &'static str, name: &'static str, line: usize, found: String },
}

/// `source` (a file declaring section `S`) with each parameter's default replaced by its value
/// in `values`; every other byte is kept. Each parameter must be declared on exactly one line
/// `name: INTEGER, [`, so that the result is known to say what `values` says.
pub fn rewrite_declaration<S: ParamSection>(source: &str, values: &S) -> Result<String, DeclarationError> {
    let specs = S::specs();
    let mut seen = vec![0usize; specs.len()];
    let mut out = String::with_capacity(source.len());
    for (n, line) in source.split_inclusive('\n').enumerate() {
        let indent = line.len() - line.trim_start().len();
        let rest = &line[indent..];
        let found = rest.split_once(':').and_then(|(name, after)| {
            let i = specs.iter().position(|s| s.name == name)?;
            let (value, tail) = after.strip_prefix(' ')?.split_once(',')?;
            tail.trim_start().starts_with('[').then_some((i, value, tail))
        });
        let Some((i, value, tail)) = found else {
            out.push_str(line);
            continue;
        };
        let spec = &specs[i];
        if value.trim().parse::<i32>().is_err() {
            let found = value.trim().to_string();
            return Err(DeclarationError::NotLiteral { section: S::SECTION, name: spec.name, line: n + 1, found });
        }
        seen[i] += 1;
        out.push_str(&format!("{}{}: {},{tail}", &line[..indent], spec.name, values.get(i)));
    }
    for (spec, &count) in specs.iter().zip(&seen) {
        match count {
            1 => {}
            0 => return Err(DeclarationError::Missing { section: S::SECTION, name: spec.name }),
            count => return Err(DeclarationError::Repeated { section: S::SECTION, name: spec.name, count }),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{DEFAULT_TOML, EvalParams, FORMAT_KEY, PARAMS_FORMAT, SearchParams};

    const EVAL_SOURCE: &str = include_str!("../eval/params.rs");
    const SEARCH_SOURCE: &str = include_str!("../search/params.rs");

    #[test]
    fn rewriting_the_declarations_with_their_own_defaults_changes_nothing() {
        assert_eq!(rewrite_declaration(EVAL_SOURCE, &EvalParams::default()).unwrap(), EVAL_SOURCE);
        assert_eq!(rewrite_declaration(SEARCH_SOURCE, &SearchParams::default()).unwrap(), SEARCH_SOURCE);
    }

    #[test]
    fn a_rewrite_changes_exactly_the_changed_values() {
        let mut p = Params::default();
        p.merge_toml("[eval]\nqueen_mg = 1234\npst_king_rank_8_mg = -7\n").unwrap();
        let new = rewrite_declaration(EVAL_SOURCE, &p.eval).unwrap();
        let changed: Vec<(&str, &str)> = EVAL_SOURCE.lines().zip(new.lines()).filter(|(a, b)| a != b).collect();
        assert_eq!(changed.len(), 2, "{changed:?}");
        assert_eq!(changed[0].1.trim(), "queen_mg: 1234, [400, 5000];");
        assert_eq!(changed[1].1.trim(), "pst_king_rank_8_mg: -7, [-150, 150];");
        assert_eq!(new.lines().count(), EVAL_SOURCE.lines().count());
    }

    #[test]
    fn declarations_that_cannot_be_rewritten_are_named() {
        let gone = EVAL_SOURCE.replace("        tempo: ", "        // tempo: ");
        assert_eq!(
            rewrite_declaration(&gone, &EvalParams::default()),
            Err(DeclarationError::Missing { section: "eval", name: "tempo" })
        );
        // The line as declared today (its value is the tuner's and moves with each promotion).
        let tempo = format!("        tempo: {}, [0, 100];\n", EvalParams::default().tempo);
        assert!(EVAL_SOURCE.contains(&tempo), "{tempo}");
        let twice = EVAL_SOURCE.replace(&tempo, &tempo.repeat(2));
        assert!(matches!(
            rewrite_declaration(&twice, &EvalParams::default()),
            Err(DeclarationError::Repeated { name: "tempo", count: 2, .. })
        ));
        let computed = EVAL_SOURCE.replace(tempo.trim_start(), "tempo: 20 + 9, [0, 100];\n");
        let e = rewrite_declaration(&computed, &EvalParams::default()).unwrap_err();
        assert!(matches!(&e, DeclarationError::NotLiteral { name: "tempo", found, .. } if found == "20 + 9"), "{e}");
    }

    #[test]
    fn the_header_is_the_leading_comment_and_survives_regeneration() {
        let (head, values) = split_header(DEFAULT_TOML);
        assert!(head.starts_with(PREAMBLE), "{head}");
        assert!(values.starts_with(&format!("{FORMAT_KEY} = {PARAMS_FORMAT}\n")), "{values}");
        assert_eq!(file_text(head, &Params::default()), DEFAULT_TOML);
        let text =
            file_text(&header(&["lineage: a test".into(), String::new(), "two\nlines".into()]), &Params::default());
        assert!(text.starts_with(&format!("{PREAMBLE}# lineage: a test\n#\n# two\n# lines\n\nformat = ")), "{text}");
        assert_eq!(split_header(&text).0.lines().count(), 8);
        assert_eq!(Params::default().with_toml(&text).unwrap(), Params::default());
    }
}
