//! The checks: CRC-32, of a header, of a block (seeded with its run id) and of a whole shard.

/// The check of a block (its length and record): CRC-32 over the run id, then the block.
pub(super) fn block_check(run_id: u64, block: &[u8]) -> u32 {
    crc32(crc32(CRC_START, &run_id.to_le_bytes()), block)
}

/// CRC-32 (IEEE 802.3, reflected; the zlib one) continued from the state `crc`.
pub(super) fn crc32(crc: u32, bytes: &[u8]) -> u32 {
    !bytes.iter().fold(!crc, |c, &b| CRC_TABLE[((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8))
}

/// The CRC-32 of no bytes.
pub(super) const CRC_START: u32 = 0;

const CRC_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { 0xedb8_8320 ^ (c >> 1) } else { c >> 1 };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
};
