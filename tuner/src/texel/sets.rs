//! The training and validation sets of a tune: quiet positions of PGN games with their results,
//! or `tuner datagen`'s self-play positions as they are stored ([`super::selfplay`]).

use std::path::PathBuf;

use evochess::params::Params;
use shakmaty::{CastlingMode, Chess, fen::Fen};

use super::{
    config::{TexelConfig, TexelError},
    labelled::Labelled,
    quiet::Resolver,
    selfplay::selfplay_positions,
};
use crate::{
    evolve::positions::{GmPosition, load_or_extract},
    ga::par_map,
};

/// The quiet positions of `positions` (see [`super::quiet`]) with results, resolved under
/// `params` over `threads`; positions dropped on the way are counted in the second value.
pub fn quiet_positions(
    positions: &[GmPosition],
    params: &Params,
    threads: usize,
) -> Result<(Vec<Labelled>, usize), TexelError> {
    let parsed: Vec<(Chess, i8)> = positions
        .iter()
        .map(|p| {
            let outcome = p.outcome.ok_or_else(|| TexelError::Config(format!("position `{}` has no result", p.fen)))?;
            let fen: Fen = p.fen.parse().map_err(|e| TexelError::Config(format!("bad FEN `{}`: {e}", p.fen)))?;
            let pos = fen
                .into_position(CastlingMode::Standard)
                .map_err(|e| TexelError::Config(format!("bad position `{}`: {e}", p.fen)))?;
            Ok((pos, outcome))
        })
        .collect::<Result<_, TexelError>>()?;
    let chunks: Vec<&[(Chess, i8)]> = parsed.chunks(256).collect();
    let resolved: Vec<Option<Labelled>> = par_map(&chunks, threads, |chunk| {
        let mut resolver = Resolver::new(params);
        chunk
            .iter()
            .map(|(pos, outcome)| {
                let (quiet, plies) = resolver.resolve(pos)?;
                // The result is the side to move's: it changes hands with every ply played.
                let outcome = if plies % 2 == 0 { *outcome } else { -outcome };
                Some(Labelled { pos: quiet, result: (f64::from(outcome) + 1.0) / 2.0, score: None })
            })
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect();
    let dropped = resolved.iter().filter(|r| r.is_none()).count();
    Ok((resolved.into_iter().flatten().collect(), dropped))
}

/// The training and validation positions of `cfg` (from `pgn`, resolved to quiet ones under
/// `base`, or from `data`'s shards as they are), the count of positions dropped in each, and a
/// key identifying the inputs.
pub(super) type Sets = ((Vec<Labelled>, usize), (Vec<Labelled>, usize), String);

pub(super) fn load_sets(cfg: &TexelConfig, base: &Params, threads: usize) -> Result<Sets, TexelError> {
    if !cfg.data.is_empty() {
        let (train, validation, key) = selfplay_positions(
            &cfg.data,
            cfg.positions.train,
            cfg.positions.test,
            cfg.positions.seed,
            cfg.allow_mixed,
        )?;
        return Ok(((train, 0), (validation, 0), key));
    }
    std::fs::create_dir_all(&cfg.out_dir).map_err(|e| TexelError::io(&cfg.out_dir, e))?;
    // `../shared/data/...` (the shipped configs' games) is found in $EVOCHESS_DATA too.
    let pgn: Vec<PathBuf> = cfg.pgn.iter().map(|p| crate::paths::resolve_data_path(p)).collect();
    let set = load_or_extract(&pgn, &cfg.positions, &cfg.out_dir.join("positions.json"))?;
    let train = quiet_positions(&set.train, base, threads)?;
    let validation = quiet_positions(&set.test, base, threads)?;
    Ok((train, validation, set.key))
}
