//! Readable random names for individuals (Belmonte §II-A: "for quick identification").
//!
//! A name is two or three consonant-vowel syllables, capitalised ("Koravi"), optionally with a
//! final consonant; names are drawn until one is not already taken.

use rand::Rng;

const ONSETS: [&str; 18] =
    ["b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "dr", "st", "tr"];
const VOWELS: [&str; 6] = ["a", "e", "i", "o", "u", "ai"];
const CODAS: [&str; 5] = ["", "", "n", "r", "s"];

/// One random name (2-3 syllables).
pub fn random_name(rng: &mut impl Rng) -> String {
    let syllables = rng.random_range(2..=3);
    let mut s = String::new();
    for _ in 0..syllables {
        s.push_str(ONSETS[rng.random_range(0..ONSETS.len())]);
        s.push_str(VOWELS[rng.random_range(0..VOWELS.len())]);
    }
    s.push_str(CODAS[rng.random_range(0..CODAS.len())]);
    let mut c = s.chars();
    c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
}

/// A random name not in `taken` (case-insensitive).
pub fn unique_name<'a>(taken: impl IntoIterator<Item = &'a str> + Clone, rng: &mut impl Rng) -> String {
    loop {
        let n = random_name(rng);
        if !taken.clone().into_iter().any(|t| t.eq_ignore_ascii_case(&n)) {
            return n;
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    #[test]
    fn names_are_readable_and_unique() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut names: Vec<String> = Vec::new();
        for _ in 0..500 {
            let n = unique_name(names.iter().map(String::as_str), &mut rng);
            assert!(n.len() >= 4 && n.chars().all(|c| c.is_ascii_alphabetic()), "{n}");
            assert!(n.chars().next().unwrap().is_ascii_uppercase());
            names.push(n);
        }
    }
}
