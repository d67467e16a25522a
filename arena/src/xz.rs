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
struct Capped {
    data: Vec<u8>,
    cap: u64,
}

impl io::Write for Capped {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        if (self.data.len() + b.len()) as u64 > self.cap {
            return Err(io::Error::other(format!("unpacks to more than {} bytes", self.cap)));
        }
        self.data.extend_from_slice(b);
        Ok(b.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The whole decompressed stream, or why it could not be decoded (not xz, corrupt, over
/// [`MAX_XZ_BYTES`]).
pub fn decompress(input: &mut impl BufRead) -> Result<Vec<u8>, String> {
    decompress_at_most(input, MAX_XZ_BYTES)
}

/// [`decompress`] with its own cap on the decompressed size.
fn decompress_at_most(input: &mut impl BufRead, cap: u64) -> Result<Vec<u8>, String> {
    let mut out = Capped { data: Vec::new(), cap };
    lzma_rs::xz_decompress(input, &mut out).map_err(|e| e.to_string())?;
    Ok(out.data)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packed(data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        lzma_rs::xz_compress(&mut &data[..], &mut out).unwrap();
        out
    }

    #[test]
    fn a_stream_that_unpacks_past_the_cap_is_refused() {
        // A small file that unpacks large (the shape of an xz bomb): refused once it passes the
        // cap, not after filling memory.
        let bomb = packed(&[0u8; 100_000]);
        let e = decompress_at_most(&mut &bomb[..], 10_000).unwrap_err();
        assert!(e.contains("more than 10000 bytes"), "{e}");
        assert_eq!(decompress_at_most(&mut &bomb[..], 100_000).unwrap().len(), 100_000);
        assert_eq!(decompress(&mut &packed(b"e4 e5")[..]).unwrap(), b"e4 e5");
    }

    #[test]
    fn what_is_not_xz_is_an_error() {
        assert!(decompress(&mut &b"1. e4 e5"[..]).is_err());
    }
}
