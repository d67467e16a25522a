//! Reading an input file that anyone may have named: the engine's `ParamsFile` and `BookFile`,
//! `evochess epd`, and every input file of the tuner go through [`read_capped`].
//!
//! A path can name something that is not a file: a FIFO (opening it blocks until a writer
//! comes), `/dev/zero` (reading never ends), a procfs entry (it reports size 0, and `/proc/kmsg`
//! blocks on read). So the path must name a regular file before and after it is opened, the
//! open is non-blocking (a FIFO swapped in between cannot hang it, a blocking procfs read fails
//! instead), and the bytes actually read are capped, whatever size the file reports.

use std::{
    fs::{File, OpenOptions},
    io::Read,
    path::Path,
};

use thiserror::Error;

/// Why an input file was not read; each names the file.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum InputError {
    #[error("`{path}`: {reason}")]
    Io { path: String, reason: String },
    #[error("`{path}` is not a regular file")]
    NotAFile { path: String },
    #[error("`{path}` is larger than {limit} bytes")]
    TooLarge { path: String, limit: u64 },
    #[error("`{path}` is not UTF-8 text (byte {at})")]
    NotText { path: String, at: usize },
}

impl InputError {
    /// What went wrong, without the file's name, for callers that name the file themselves.
    pub fn reason(&self) -> String {
        match self {
            InputError::Io { reason, .. } => reason.clone(),
            InputError::NotAFile { .. } => "not a regular file".into(),
            InputError::TooLarge { limit, .. } => format!("larger than {limit} bytes"),
            InputError::NotText { at, .. } => format!("not UTF-8 text (byte {at})"),
        }
    }
}

/// Largest data file read whole (PGN games, EPD books, self-play shards, journals): the biggest
/// shared file is about 30 MB unpacked; the cap is what keeps a procfs entry from filling memory.
pub const MAX_DATA_BYTES: u64 = 1 << 30;

/// Largest config, search space or parameter list read (the biggest is a few kB).
pub const MAX_CONFIG_BYTES: u64 = 4 << 20;

/// `O_NONBLOCK` where Rust's standard library does not name it.
#[cfg(any(target_os = "linux", target_os = "android"))]
const O_NONBLOCK: i32 = if cfg!(any(target_arch = "mips", target_arch = "mips64")) {
    0x80
} else if cfg!(target_arch = "sparc64") {
    0x4000
} else {
    0o4000
};
#[cfg(all(unix, not(any(target_os = "linux", target_os = "android"))))]
const O_NONBLOCK: i32 = 0x4;

/// Opens `path` for reading without blocking, as a regular file only.
pub fn open_regular(path: &Path) -> Result<File, InputError> {
    let shown = || path.display().to_string();
    let io = |e: std::io::Error| InputError::Io { path: shown(), reason: e.to_string() };
    if !std::fs::metadata(path).map_err(io)?.is_file() {
        return Err(InputError::NotAFile { path: shown() });
    }
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, O_NONBLOCK);
    let file = options.open(path).map_err(io)?;
    // Again on the open file, in case the path was swapped in between.
    if !file.metadata().map_err(io)?.is_file() {
        return Err(InputError::NotAFile { path: shown() });
    }
    Ok(file)
}

/// The bytes of the regular file at `path`, at most `limit` of them.
pub fn read_capped(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| InputError::Io { path: path.display().to_string(), reason: e.to_string() })?;
    if bytes.len() as u64 > limit {
        return Err(InputError::TooLarge { path: path.display().to_string(), limit });
    }
    Ok(bytes)
}

/// [`read_capped`] as UTF-8 text.
pub fn read_text(path: &Path, limit: u64) -> Result<String, InputError> {
    String::from_utf8(read_capped(path, limit)?)
        .map_err(|e| InputError::NotText { path: path.display().to_string(), at: e.utf8_error().valid_up_to() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_are_read_and_never_past_the_cap() {
        let dir = std::env::temp_dir().join(format!("evochess-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.txt");
        std::fs::write(&f, "hello").unwrap();
        assert_eq!(read_text(&f, 5).unwrap(), "hello");
        assert!(matches!(read_text(&f, 4), Err(InputError::TooLarge { limit: 4, .. })));
        assert!(matches!(read_capped(Path::new("/dev/zero"), 10), Err(InputError::NotAFile { .. })));
        assert!(matches!(read_capped(&dir, 10), Err(InputError::NotAFile { .. })));
        let e = read_capped(&dir.join("missing"), 10).unwrap_err().to_string();
        assert!(e.contains("missing"), "{e}");
        // procfs reports size 0 for files of any length: the cap is on what is read.
        if Path::new("/proc/self/maps").exists() {
            assert!(matches!(read_capped(Path::new("/proc/self/maps"), 16), Err(InputError::TooLarge { .. })));
        }
        std::fs::write(&f, [0xff, 0xfe]).unwrap();
        assert!(matches!(read_text(&f, 5), Err(InputError::NotText { at: 0, .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
