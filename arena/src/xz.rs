//! xz-compressed inputs (`.xz` opening books and GM game files), decoded in-process by lzma-rs.

use std::{
    io::{self, BufRead},
    path::Path,
};

/// Largest decompressed stream accepted (the biggest shared file unpacks to about 30 MB).
pub const MAX_XZ_BYTES: u64 = 1 << 30;

/// Whether `path` names an xz-compressed file (`.xz`).
pub fn is_xz(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("xz"))
}

/// A writer that refuses to grow past a limit, so a hostile `.xz` cannot fill memory.
struct Capped(Vec<u8>);

impl io::Write for Capped {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        if (self.0.len() + b.len()) as u64 > MAX_XZ_BYTES {
            return Err(io::Error::other(format!("unpacks to more than {MAX_XZ_BYTES} bytes")));
        }
        self.0.extend_from_slice(b);
        Ok(b.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The whole decompressed stream, or why it could not be decoded (not xz, corrupt, too large).
pub fn decompress(input: &mut impl BufRead) -> Result<Vec<u8>, String> {
    let mut out = Capped(Vec::new());
    lzma_rs::xz_decompress(input, &mut out).map_err(|e| e.to_string())?;
    Ok(out.0)
}
