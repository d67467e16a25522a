//! The run directory: where each generation's files go, the parameter files a population is
//! read from, and the listing of a finished run.

use std::path::{Path, PathBuf};

use arena::runner::MatchConfig;

use super::CoevolveError;

/// Directory of generation `g`.
pub fn gen_dir(out_dir: &Path, g: usize) -> PathBuf {
    out_dir.join(format!("gen-{g:03}"))
}

/// Journals a match of generation directory `dir` in `<stem>.pgn`, `<stem>.state.jsonl` and
/// `results`, resuming only where a journal was left (a generation killed before that match
/// began has none).
pub(super) fn journal(m: &mut MatchConfig, dir: &Path, stem: &str, results: &str, resume: bool) {
    let state = dir.join(format!("{stem}.state.jsonl"));
    m.pgn_out = Some(dir.join(format!("{stem}.pgn")));
    m.results_out = Some(dir.join(results));
    m.resume = resume && state.is_file();
    m.state = Some(state);
}

/// Orders `run-2` before `run-10`: by the name with digit runs compared as numbers.
fn natural_key(name: &str) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut num: Option<u64> = None;
    for c in name.chars() {
        if let Some(d) = c.to_digit(10) {
            num = Some(num.unwrap_or(0).saturating_mul(10).saturating_add(u64::from(d)));
        } else {
            if let Some(n) = num.take() {
                out.push((std::mem::take(&mut text), n));
            }
            text.push(c);
        }
    }
    out.push((text, num.unwrap_or(0)));
    out
}

/// The `*.toml` files of `dir`, in natural name order.
pub fn parameter_files(dir: &Path) -> Result<Vec<PathBuf>, CoevolveError> {
    let rd = std::fs::read_dir(dir).map_err(|e| CoevolveError::io(dir, e))?;
    let mut files: Vec<PathBuf> = rd
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort_by_key(|p| natural_key(&p.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default()));
    Ok(files)
}

/// Every file under `out_dir`, for the final summary, one line each, except that each
/// generation's organism files (`g<G>o<I>.toml`) share one line; sorted, generation
/// directories in order.
pub fn output_listing(out_dir: &Path) -> Result<Vec<String>, CoevolveError> {
    fn organism(name: &str) -> bool {
        let Some((g, i)) = name.strip_prefix('g').and_then(|r| r.strip_suffix(".toml")).and_then(|r| r.split_once('o'))
        else {
            return false;
        };
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        digits(g) && digits(i)
    }
    fn entries(dir: &Path) -> Result<Vec<PathBuf>, CoevolveError> {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| CoevolveError::io(dir, e))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect();
        paths
            .sort_by_key(|p| natural_key(&p.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default()));
        Ok(paths)
    }
    let mut lines = Vec::new();
    let mut dirs = vec![out_dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let mut organisms = Vec::new();
        let mut subdirs = Vec::new();
        for path in entries(&dir)? {
            let name = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
            if path.is_dir() {
                subdirs.push(path);
            } else if organism(&name) {
                organisms.push(path);
            } else {
                lines.push(path.display().to_string());
            }
        }
        match organisms.as_slice() {
            [] => {}
            [only] => lines.push(only.display().to_string()),
            [first, .., last] => lines.push(format!(
                "{} ... {} ({} organisms)",
                first.display(),
                last.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default(),
                organisms.len()
            )),
        }
        // Depth first, in name order.
        dirs.extend(subdirs.into_iter().rev());
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_output_listing_names_every_file_and_groups_organisms() {
        let dir = std::env::temp_dir().join(format!("evochess-coevolve-listing-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for g in 0..2 {
            let gen_dir = gen_dir(&dir, g);
            std::fs::create_dir_all(&gen_dir).unwrap();
            for i in 0..11 {
                std::fs::write(gen_dir.join(format!("g{g}o{i}.toml")), "").unwrap();
            }
            std::fs::write(gen_dir.join("games.pgn"), "").unwrap();
        }
        std::fs::write(dir.join("gen-001/g1oX.toml"), "").unwrap();
        std::fs::write(dir.join("generations.csv"), "").unwrap();
        let shown: Vec<String> =
            output_listing(&dir).unwrap().iter().map(|l| l.replace(&format!("{}/", dir.display()), "")).collect();
        assert_eq!(
            shown,
            vec![
                "generations.csv",
                "gen-000/games.pgn",
                "gen-000/g0o0.toml ... g0o10.toml (11 organisms)",
                "gen-001/g1oX.toml",
                "gen-001/games.pgn",
                "gen-001/g1o0.toml ... g1o10.toml (11 organisms)",
            ]
        );
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(output_listing(&dir).unwrap_err().to_string().contains(&dir.display().to_string()));
    }

    #[test]
    fn natural_order_puts_run_2_before_run_10() {
        let mut names = vec!["run-10.toml", "run-2.toml", "run-1.toml"];
        names.sort_by_key(|n| natural_key(n));
        assert_eq!(names, vec!["run-1.toml", "run-2.toml", "run-10.toml"]);
    }
}
