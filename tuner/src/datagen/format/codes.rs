//! The codes records are made of: varints, zigzag score deltas and packed move codes, and the
//! cursor that reads them back.

pub(super) struct Cursor<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) at: usize,
}

impl Cursor<'_> {
    pub(super) fn byte(&mut self) -> Result<u8, String> {
        let b = *self.bytes.get(self.at).ok_or("truncated record")?;
        self.at += 1;
        Ok(b)
    }

    pub(super) fn varint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err("varint longer than 64 bits".into())
    }

    pub(super) fn fixed64(&mut self) -> Result<u64, String> {
        let mut b = [0u8; 8];
        for x in &mut b {
            *x = self.byte()?;
        }
        Ok(u64::from_le_bytes(b))
    }

    pub(super) fn fixed32(&mut self) -> Result<u32, String> {
        let mut b = [0u8; 4];
        for x in &mut b {
            *x = self.byte()?;
        }
        Ok(u32::from_le_bytes(b))
    }
}

/// Packs codes least significant bit first.
#[derive(Default)]
pub(super) struct BitWriter {
    bytes: Vec<u8>,
    acc: u32,
    held: u32,
}

impl BitWriter {
    pub(super) fn put(&mut self, value: u32, bits: u32) {
        self.acc |= value << self.held;
        self.held += bits;
        while self.held >= 8 {
            self.bytes.push(self.acc as u8);
            self.acc >>= 8;
            self.held -= 8;
        }
    }

    pub(super) fn finish(mut self) -> Vec<u8> {
        if self.held > 0 {
            self.bytes.push(self.acc as u8);
        }
        self.bytes
    }
}

/// Reads [`BitWriter`]'s codes from a cursor; the padding of the last byte is dropped with it.
pub(super) struct BitReader {
    pub(super) acc: u32,
    pub(super) held: u32,
}

impl BitReader {
    pub(super) fn get(&mut self, c: &mut Cursor<'_>, bits: u32) -> Result<u32, String> {
        while self.held < bits {
            self.acc |= u32::from(c.byte()?) << self.held;
            self.held += 8;
        }
        let v = self.acc & ((1u32 << bits) - 1);
        self.acc >>= bits;
        self.held -= bits;
        Ok(v)
    }
}

pub(super) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

pub(super) fn zigzag(v: i32) -> u64 {
    u64::from(((v << 1) ^ (v >> 31)) as u32)
}

pub(super) fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

#[cfg(test)]
mod tests {
    use super::super::code_bits;
    use super::*;

    #[test]
    fn varints_and_zigzag_round_trip() {
        for v in [0i32, 1, -1, 63, -64, 64, 1000, -31_999, 32_000, i32::MAX, i32::MIN] {
            let mut b = Vec::new();
            put_varint(&mut b, zigzag(v));
            let mut c = Cursor { bytes: &b, at: 0 };
            assert_eq!(unzigzag(c.varint().unwrap()), i64::from(v));
            assert_eq!(c.at, b.len());
            assert_eq!(b.len() == 1, (-64..64).contains(&v), "{v}");
        }
    }

    #[test]
    fn move_codes_take_the_bits_of_the_legal_move_count() {
        assert_eq!([1, 2, 3, 4, 5, 32, 33, 218].map(code_bits), [0, 1, 2, 2, 3, 5, 6, 8]);
        let mut w = BitWriter::default();
        let codes = [(0, 0), (1, 1), (5, 3), (200, 8), (0, 0), (31, 5), (2, 2)];
        for (v, b) in codes {
            w.put(v, b);
        }
        let bytes = w.finish();
        assert_eq!(bytes.len(), 3, "19 bits in 3 bytes");
        let (mut c, mut r) = (Cursor { bytes: &bytes, at: 0 }, BitReader { acc: 0, held: 0 });
        for (v, b) in codes {
            assert_eq!(r.get(&mut c, b).unwrap(), v);
        }
        assert_eq!(c.at, 3);
    }
}
