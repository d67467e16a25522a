//! HMAC-SHA256 of what travels through the broker, keyed from a secret file that never goes
//! to Redis: whoever can write to the broker but has no copy of the file can neither forge a
//! spec or task a worker runs nor an answer a coordinator counts.
//!
//! Each MAC covers a purpose (spec, task, answer, refusal, dead letter), the run id, the task
//! id and the body, each length-prefixed, so a MAC made for one of them verifies for no other:
//! an answer copied from another run, another task or a task's own entry is refused.
//!
//! The secret is the trimmed text of its file (at least [`MIN_SECRET_BYTES`] bytes; the file
//! this module creates holds 32 random bytes in hex). A file that others may read is refused,
//! as ssh refuses a private key.

use std::{
    fmt,
    io::Write,
    path::{Path, PathBuf},
};

use hmac::{Hmac, Mac};
use sha2::Sha256;
use thiserror::Error;

/// Shortest secret accepted (bytes of the file's trimmed text).
pub const MIN_SECRET_BYTES: usize = 32;
/// Largest secret file read.
const MAX_SECRET_FILE: u64 = 4096;
/// The secret's file name under the user's configuration directory.
const DEFAULT_FILE: &str = "broker.secret";
/// Versions the MAC's input, so a later layout cannot be confused with this one.
const DOMAIN: &[u8] = b"evochess-broker-mac-v1";

/// Why a secret could not be had.
#[derive(Debug, Error)]
pub enum SecretError {
    #[error("broker secret `{path}`: {reason}")]
    Unusable { path: String, reason: String },
    #[error(
        "broker secret `{path}` does not exist: copy the coordinator's secret file there (a coordinating command \
         creates one on its first --broker run), or name it with --secret FILE"
    )]
    Missing { path: String },
    #[error("no broker secret file given and neither XDG_CONFIG_HOME nor HOME is set: pass its path explicitly")]
    NoDefault,
}

/// What a MAC vouches for; part of its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A run's spec (`NS:run:ID:spec`), written by its coordinator.
    Spec,
    /// A task entry, written by its coordinator.
    Task,
    /// A worker's answer to a task.
    Answer,
    /// A worker's refusal of a run.
    Refusal,
    /// A worker's note that a task went to the dead-letter stream.
    Dead,
}

impl Purpose {
    fn tag(self) -> &'static [u8] {
        match self {
            Purpose::Spec => b"spec",
            Purpose::Task => b"task",
            Purpose::Answer => b"answer",
            Purpose::Refusal => b"refusal",
            Purpose::Dead => b"dead",
        }
    }
}

/// Why a MAC was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MacError {
    #[error("it has no MAC")]
    Missing,
    #[error("its MAC is not 64 hex digits")]
    Malformed,
    #[error("its MAC does not verify (forged or altered, or signed with another secret file)")]
    Mismatch,
}

/// The key shared by a coordinator and its workers.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(Vec<u8>);

// Never printed, not even in a debug dump of a config.
impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

impl Secret {
    /// A secret from its text (surrounding whitespace, such as a final newline, is not part of it).
    ///
    /// # Errors
    /// The reason when it is shorter than [`MIN_SECRET_BYTES`].
    pub fn from_text(text: &str) -> Result<Secret, String> {
        let key = text.trim().as_bytes();
        if key.len() < MIN_SECRET_BYTES {
            return Err(format!("{} bytes; at least {MIN_SECRET_BYTES} are needed", key.len()));
        }
        Ok(Secret(key.to_vec()))
    }

    /// A random secret of this process only: for a connection that signs and checks nothing
    /// (`tuner runs`), so that no secret file is read or created for it.
    pub fn ephemeral() -> Secret {
        let bytes: [u8; 32] = rand::random();
        Secret(bytes.to_vec())
    }

    /// Where a secret is looked for when none is named: `$XDG_CONFIG_HOME/evochess/broker.secret`,
    /// else `$HOME/.config/evochess/broker.secret`.
    ///
    /// # Errors
    /// [`SecretError::NoDefault`] when neither variable is set.
    pub fn default_path() -> Result<PathBuf, SecretError> {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let base = var("XDG_CONFIG_HOME").or_else(|| var("HOME").map(|h| h.join(".config")));
        base.map(|b| b.join("evochess").join(DEFAULT_FILE)).ok_or(SecretError::NoDefault)
    }

    /// Reads the secret of `path`: a regular file of at most 4 KiB that only its owner may read.
    ///
    /// # Errors
    /// [`SecretError::Missing`] when there is no file; [`SecretError::Unusable`] when it cannot
    /// be read, others may read it, or its secret is too short.
    pub fn load(path: &Path) -> Result<Secret, SecretError> {
        let unusable = |reason: String| SecretError::Unusable { path: path.display().to_string(), reason };
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(SecretError::Missing { path: path.display().to_string() });
            }
            Err(e) => return Err(unusable(e.to_string())),
        };
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = meta.permissions().mode() & 0o777;
            if mode & 0o077 != 0 {
                return Err(unusable(format!(
                    "others may read it (mode {mode:04o}); `chmod 600 {}` first",
                    path.display()
                )));
            }
        }
        #[cfg(not(unix))]
        let _ = meta;
        let text = evochess::input::read_text(path, MAX_SECRET_FILE).map_err(|e| unusable(e.to_string()))?;
        Secret::from_text(&text).map_err(unusable)
    }

    /// Reads the secret of `path`, or creates the file (mode 0600, its directory 0700) with 32
    /// random bytes in hex when there is none; `true` with a secret it created.
    ///
    /// # Errors
    /// As [`Secret::load`], and when the file cannot be created.
    pub fn load_or_create(path: &Path) -> Result<(Secret, bool), SecretError> {
        match Secret::load(path) {
            Err(SecretError::Missing { .. }) => {}
            other => return other.map(|s| (s, false)),
        }
        let unusable =
            |e: std::io::Error| SecretError::Unusable { path: path.display().to_string(), reason: e.to_string() };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            let mut builder = std::fs::DirBuilder::new();
            builder.recursive(true);
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            builder.create(dir).map_err(unusable)?;
        }
        let bytes: [u8; 32] = rand::random();
        let text: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let mut options = std::fs::OpenOptions::new();
        // create_new: two coordinators starting at once do not overwrite each other's secret.
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        match options.open(path) {
            Ok(mut f) => {
                f.write_all(format!("{text}\n").as_bytes()).and_then(|()| f.sync_all()).map_err(unusable)?;
                Ok((Secret::from_text(&text).expect("64 hex digits"), true))
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Secret::load(path).map(|s| (s, false)),
            Err(e) => Err(unusable(e)),
        }
    }

    fn mac(&self, purpose: Purpose, run: &str, task: &str, body: &[u8]) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes keys of any length");
        mac.update(DOMAIN);
        for part in [purpose.tag(), run.as_bytes(), task.as_bytes(), body] {
            mac.update(&(part.len() as u64).to_be_bytes());
            mac.update(part);
        }
        mac
    }

    /// The MAC of `body` as `purpose` for task `task` of run `run`, in lowercase hex.
    pub fn sign(&self, purpose: Purpose, run: &str, task: &str, body: &[u8]) -> String {
        self.mac(purpose, run, task, body).finalize().into_bytes().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Checks `mac` (hex, as [`Secret::sign`] writes it) in constant time.
    ///
    /// # Errors
    /// Why it is refused: absent, not 64 hex digits, or not this body's.
    pub fn verify(
        &self,
        purpose: Purpose,
        run: &str,
        task: &str,
        body: &[u8],
        mac: Option<&str>,
    ) -> Result<(), MacError> {
        let hex = mac.ok_or(MacError::Missing)?;
        let bytes = decode_hex(hex).ok_or(MacError::Malformed)?;
        if bytes.len() != 32 {
            return Err(MacError::Malformed);
        }
        self.mac(purpose, run, task, body).verify_slice(&bytes).map_err(|_| MacError::Mismatch)
    }
}

fn decode_hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len()).step_by(2).map(|i| s.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(c: char) -> Secret {
        Secret::from_text(&c.to_string().repeat(40)).unwrap()
    }

    #[test]
    fn the_mac_is_hmac_sha256_of_the_length_prefixed_parts() {
        // RFC 4231 test case 2 checks the crates' HMAC-SHA256 itself.
        let mut m = Hmac::<Sha256>::new_from_slice(b"Jefe").unwrap();
        m.update(b"what do ya want for nothing?");
        let hex: String = m.finalize().into_bytes().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        let s = secret('k');
        let mac = s.sign(Purpose::Answer, "run-1", "u0", b"{}");
        assert_eq!(mac.len(), 64);
        assert_eq!(s.verify(Purpose::Answer, "run-1", "u0", b"{}", Some(&mac)), Ok(()));
    }

    #[test]
    fn a_mac_verifies_for_nothing_else() {
        let s = secret('k');
        let mac = s.sign(Purpose::Answer, "run-1", "u0", b"{}");
        let check = |s: &Secret, p, run, task, body: &[u8]| s.verify(p, run, task, body, Some(&mac));
        assert_eq!(check(&s, Purpose::Task, "run-1", "u0", b"{}"), Err(MacError::Mismatch));
        assert_eq!(check(&s, Purpose::Answer, "run-2", "u0", b"{}"), Err(MacError::Mismatch));
        assert_eq!(check(&s, Purpose::Answer, "run-1", "u1", b"{}"), Err(MacError::Mismatch));
        assert_eq!(check(&s, Purpose::Answer, "run-1", "u0", b"{ }"), Err(MacError::Mismatch));
        assert_eq!(check(&secret('j'), Purpose::Answer, "run-1", "u0", b"{}"), Err(MacError::Mismatch));
        // Moving bytes between parts changes the lengths: no collision.
        let a = s.sign(Purpose::Answer, "run-1", "u0x", b"");
        assert_ne!(a, s.sign(Purpose::Answer, "run-1", "u0", b"x"));
        assert_eq!(s.verify(Purpose::Answer, "run-1", "u0", b"{}", None), Err(MacError::Missing));
        assert_eq!(s.verify(Purpose::Answer, "run-1", "u0", b"{}", Some("zz")), Err(MacError::Malformed));
        assert_eq!(s.verify(Purpose::Answer, "run-1", "u0", b"{}", Some(&mac[..62])), Err(MacError::Malformed));
        assert_eq!(s.verify(Purpose::Answer, "run-1", "u0", b"{}", Some("é")), Err(MacError::Malformed));
    }

    #[test]
    fn secret_files_are_created_private_and_refused_when_others_may_read_them() {
        let dir = std::env::temp_dir().join(format!("evochess-secret-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("conf/broker.secret");
        assert!(matches!(Secret::load(&path), Err(SecretError::Missing { .. })));
        let (made, created) = Secret::load_or_create(&path).unwrap();
        assert!(created);
        let (again, created) = Secret::load_or_create(&path).unwrap();
        assert!(!created);
        assert_eq!(made, again);
        assert_eq!(format!("{made:?}"), "Secret(***)");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
            assert_eq!(std::fs::metadata(path.parent().unwrap()).unwrap().permissions().mode() & 0o777, 0o700);
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
            let e = Secret::load(&path).unwrap_err().to_string();
            assert!(e.contains("mode 0644") && e.contains("chmod 600"), "{e}");
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        std::fs::write(&path, "short\n").unwrap();
        let e = Secret::load(&path).unwrap_err().to_string();
        assert!(e.contains("5 bytes") && e.contains("broker.secret"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
