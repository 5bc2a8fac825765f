//! `--shard K/N`: a stable split of the input by registrable domain, so a site and its
//! subdomains land in the same shard on every machine and every run.

use std::fmt;
use std::str::FromStr;

use xxhash_rust::xxh3::xxh3_64;

use super::normalize::{normalize, Line};

/// Shard `index` of `count` (0-based: `0/4` … `3/4`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Whether a key (a registrable domain, or the raw line of an invalid input) is ours.
    pub fn owns(&self, key: &str) -> bool {
        self.count == 1 || xxh3_64(key.as_bytes()) % u64::from(self.count) == u64::from(self.index)
    }

    /// Whether a site named by its origin (as a record or a re-scan's target list holds it) is
    /// ours: the rule the planner applies to the origin read as an input line. An origin that
    /// does not read as a site is kept, for the planner to judge as the line it becomes.
    pub fn owns_origin(&self, origin: &str) -> bool {
        if self.count == 1 {
            return true;
        }
        match normalize(origin) {
            Line::Target(target) => self.owns(&target.registrable_domain),
            Line::Skip | Line::Invalid(_) => true,
        }
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("shard {text:?}: expected K/N with 0 <= K < N, e.g. 0/4");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl TryFrom<String> for Shard {
    type Error = String;
    fn try_from(text: String) -> Result<Shard, String> {
        text.parse()
    }
}

impl From<Shard> for String {
    fn from(s: Shard) -> String {
        s.to_string()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}
