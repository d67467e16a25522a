//! The default opening book, built into the binary so that a match with the default openings
//! runs from any directory: a book file that exists is read from disk; one that does not, but is
//! named the way the defaults name it (`openings/gnuchess-8ply.epd`), is served from here.

use std::path::{Component, Path};

/// Built-in books by their path relative to the repository root.
const BOOKS: &[(&str, &str)] = &[("openings/gnuchess-8ply.epd", include_str!("../../../openings/gnuchess-8ply.epd"))];

/// The built-in copy of the book `path` (`openings/x.epd` or `./openings/x.epd`), if there is one.
pub fn builtin(path: &Path) -> Option<&'static str> {
    find(BOOKS, path)
}

/// The text `table` holds for `path`, a relative path with or without `./` (`(name, text)`
/// pairs keyed by the path relative to the repository root); absolute paths are the user's own.
pub fn find(table: &[(&str, &'static str)], path: &Path) -> Option<&'static str> {
    let parts: Vec<&str> = path
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .map(|c| c.as_os_str().to_str())
        .collect::<Option<_>>()?;
    let key = parts.join("/");
    table.iter().find(|(name, _)| *name == key).map(|(_, text)| *text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_book_is_built_in_by_its_relative_path_only() {
        let book = builtin(Path::new("openings/gnuchess-8ply.epd")).expect("built in");
        assert_eq!(builtin(Path::new("./openings/gnuchess-8ply.epd")), Some(book));
        assert!(book.lines().count() > 100);
        assert!(builtin(Path::new("/openings/gnuchess-8ply.epd")).is_none(), "absolute paths are the user's own");
        assert!(builtin(Path::new("openings/no-such.epd")).is_none());
    }
}
