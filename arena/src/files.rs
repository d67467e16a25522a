//! Output files every command shares: atomic replacement, and the locks that keep two tuner
//! processes off one output.

use std::{
    fs::{self, File, OpenOptions},
    io::{self, Write},
    path::{Path, PathBuf},
};

/// Writes `bytes` to `path` via a temporary file and a rename, so a crash (or `kill -9`)
/// leaves either the old or the new file, never a torn one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    let tmp = tmp_path(path);
    {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    fs::rename(&tmp, path)
}

fn tmp_path(path: &Path) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    PathBuf::from(tmp)
}

/// Fails where [`write_atomic`] to `path` would for want of a writable directory, without
/// touching `path`: its temporary file is created and removed again.
pub fn probe_atomic(path: &Path) -> io::Result<()> {
    if path.is_dir() {
        return Err(io::Error::new(io::ErrorKind::IsADirectory, "is a directory"));
    }
    File::create(tmp_path(path))?;
    fs::remove_file(tmp_path(path))
}

/// Opens `path` for reading and writing (created if missing, never truncated here) under an
/// exclusive advisory lock, held while the handle lives: a second tuner process given the same
/// output gets an error instead of interleaving its games with the first's.
pub fn open_exclusive(path: &Path) -> io::Result<File> {
    let f = OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path)?;
    match f.try_lock() {
        Ok(()) => Ok(f),
        Err(fs::TryLockError::WouldBlock) => Err(io::Error::new(
            io::ErrorKind::ResourceBusy,
            "in use by another running tuner (it holds the file's lock); wait for it or choose another file",
        )),
        Err(fs::TryLockError::Error(e)) => Err(e),
    }
}

/// Locks an output directory for one run (`<dir>/.tuner.lock`, held while the returned file
/// lives): a second GA run on the same directory is refused before it writes anything.
pub fn lock_out_dir(dir: &Path) -> io::Result<File> {
    fs::create_dir_all(dir)?;
    open_exclusive(&dir.join(".tuner.lock"))
}
