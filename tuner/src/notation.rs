//! Config values written as text in the notation users know from cutechess (`tc = "5+0.05"`,
//! `resign = "movecount=5 score=600"`) but typed from the moment a config is read.

use std::{fmt, str::FromStr};

use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error as _};

/// A value parsed from its text when the config is read, so a bad one fails at load (the TOML
/// error shows its key and line) rather than hours into a run. It serialises back to the text
/// as written, so a run's fingerprint does not depend on how the type prints itself.
#[derive(Clone, Debug)]
pub struct Parsed<T> {
    text: String,
    value: T,
}

impl<T> Parsed<T> {
    pub fn value(&self) -> &T {
        &self.value
    }

    pub fn text(&self) -> &str {
        &self.text
    }
}

impl<T: FromStr<Err: fmt::Display>> FromStr for Parsed<T> {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let value = text.parse().map_err(|e| format!("`{text}`: {e}"))?;
        Ok(Parsed { text: text.to_string(), value })
    }
}

impl<T> fmt::Display for Parsed<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Equal when written the same way (what the fingerprint sees).
impl<T> PartialEq for Parsed<T> {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl<T> Serialize for Parsed<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de, T: FromStr<Err: fmt::Display>> Deserialize<'de> for Parsed<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?.parse().map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena::{adjudicate::ResignRule, tc::ClockTc};

    #[derive(Debug, Deserialize, Serialize)]
    struct Config {
        tc: Parsed<ClockTc>,
        resign: Option<Parsed<ResignRule>>,
    }

    #[test]
    fn a_bad_value_fails_at_load_naming_its_key_and_a_good_one_keeps_its_text() {
        let e = toml::from_str::<Config>("tc = \"5+x\"\n").unwrap_err().to_string();
        assert!(e.contains("tc = ") && e.contains("`5+x`"), "{e}");
        let e = toml::from_str::<Config>("tc = \"5\"\nresign = \"movecount=5\"\n").unwrap_err().to_string();
        assert!(e.contains("resign") && e.contains("`movecount=5`"), "{e}");
        let c: Config = toml::from_str("tc = \"40/60+0.5\"\nresign = \"movecount=3 score=500\"\n").unwrap();
        assert_eq!(c.resign.as_ref().unwrap().value().movecount, 3);
        assert_eq!(c.tc.value(), &"40/60+0.5".parse::<ClockTc>().unwrap());
        assert_eq!(serde_json::to_string(&c).unwrap(), r#"{"tc":"40/60+0.5","resign":"movecount=3 score=500"}"#);
    }
}
