//! The writer: a shard's header, its blocks (a record each, checked) and its end block.

use shakmaty::{Chess, Color, EnPassantMode, Position, Square};

use super::{
    Filter, GameRecord, MAGIC, Origin, VERSION,
    check::{CRC_START, block_check, crc32},
    code_bits,
    codes::{BitWriter, put_varint, zigzag},
};
use arena::outcome::GameOutcome;

impl GameRecord {
    /// Appends the record's encoding to `out`.
    ///
    /// # Panics
    ///
    /// If a move is not legal in its position (the generator only records legal moves).
    pub fn encode(&self, out: &mut Vec<u8>) {
        put_varint(out, self.index);
        encode_position(&self.start, out);
        out.push(match self.outcome {
            GameOutcome::BlackWins => 0,
            GameOutcome::Draw => 1,
            GameOutcome::WhiteWins => 2,
        });
        put_varint(out, self.plies.len() as u64);
        let mut pos = self.start.clone();
        let mut bits = BitWriter::default();
        for &(mv, _) in &self.plies {
            let legal = pos.legal_moves();
            let i = legal.iter().position(|&m| m == mv).expect("recorded moves are legal");
            bits.put(i as u32, code_bits(legal.len()));
            pos.play_unchecked(mv);
        }
        out.extend_from_slice(&bits.finish());
        let mut prev = 0i32;
        for &(_, score) in &self.plies {
            put_varint(out, zigzag(score.wrapping_add(prev)));
            prev = score;
        }
    }
}

/// The header of a shard of `origin` read through `filter`.
pub fn header(filter: &Filter, origin: &Origin) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    h.push(VERSION);
    h.push(filter.flags());
    put_varint(&mut h, u64::from(filter.max_score.map_or(0, |m| m + 1)));
    h.extend_from_slice(&origin.run_id.to_le_bytes());
    h.extend_from_slice(&origin.params.to_le_bytes());
    put_varint(&mut h, u64::from(origin.shard));
    put_varint(&mut h, origin.first_game);
    let check = crc32(CRC_START, &h);
    h.extend_from_slice(&check.to_le_bytes());
    h
}

/// Appends `record` as a block of a shard of run `run_id`.
pub fn put_block(record: &GameRecord, run_id: u64, out: &mut Vec<u8>) {
    let mut payload = Vec::with_capacity(64 + 2 * record.plies.len());
    record.encode(&mut payload);
    let start = out.len();
    put_varint(out, payload.len() as u64);
    out.extend_from_slice(&payload);
    let check = block_check(run_id, &out[start..]);
    out.extend_from_slice(&check.to_le_bytes());
}

/// The end block of a shard whose bytes so far are `shard` and which holds `games` games.
pub fn end_block(shard: &[u8], games: u64) -> Vec<u8> {
    let mut end = vec![0];
    put_varint(&mut end, games);
    let check = crc32(crc32(CRC_START, shard), &end);
    end.extend_from_slice(&check.to_le_bytes());
    end
}

/// A whole closed shard of `games` (which must follow one by one from `origin.first_game`).
pub fn encode_shard(filter: &Filter, origin: &Origin, games: &[GameRecord]) -> Vec<u8> {
    let mut bytes = header(filter, origin);
    for g in games {
        put_block(g, origin.run_id, &mut bytes);
    }
    let end = end_block(&bytes, games.len() as u64);
    bytes.extend_from_slice(&end);
    bytes
}

/// Appends the compact encoding of `pos` (see the module docs).
pub fn encode_position(pos: &Chess, out: &mut Vec<u8>) {
    let board = pos.board();
    let occupied = board.occupied();
    out.extend_from_slice(&occupied.0.to_le_bytes());
    let mut nibbles = occupied.into_iter().map(|sq| {
        let p = board.piece_at(sq).expect("occupied");
        (p.role as u8 - 1) + if p.color == Color::Black { 6 } else { 0 }
    });
    while let Some(lo) = nibbles.next() {
        out.push(lo | (nibbles.next().unwrap_or(0) << 4));
    }
    let rights = pos.castles().castling_rights();
    let mut flags = u8::from(pos.turn() == Color::Black);
    for (bit, sq) in [Square::H1, Square::A1, Square::H8, Square::A8].into_iter().enumerate() {
        if rights.contains(sq) {
            flags |= 2 << bit;
        }
    }
    out.push(flags);
    out.push(pos.ep_square(EnPassantMode::Legal).map_or(255, |s| s as u8));
    put_varint(out, u64::from(pos.halfmoves()));
    put_varint(out, u64::from(pos.fullmoves().get()));
}
