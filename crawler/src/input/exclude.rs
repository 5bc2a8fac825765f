//! The opt-out list: a listed domain excludes itself and all its subdomains.

use std::collections::HashSet;
use std::path::Path;

use super::normalize::{normalize, Line};
use super::reader::{LineReader, RawLine, Source};
use crate::error::InputError;

#[derive(Debug, Default, Clone)]
pub struct Exclusions {
    domains: HashSet<String>,
}

impl Exclusions {
    /// Reads opt-out files: one domain (or origin) a line, `#` comments. A line that is not a
    /// domain is an error: a silently ignored opt-out would scan a site that asked not to be.
    pub fn load(paths: &[impl AsRef<Path>]) -> Result<Exclusions, InputError> {
        let mut domains = HashSet::new();
        for path in paths {
            let path = path.as_ref();
            let mut reader = LineReader::new(vec![Source::File(path.to_owned())]);
            while let Some(raw) = reader.next_line()? {
                let parsed = match raw {
                    RawLine::Text(text) => normalize(text.trim_start_matches("*.")),
                    RawLine::TooLong => Line::Invalid("line too long".into()),
                    RawLine::NotUtf8 => Line::Invalid("not valid UTF-8".into()),
                };
                match parsed {
                    Line::Skip => {}
                    Line::Target(t) => {
                        domains.insert(t.host);
                    }
                    Line::Invalid(reason) => {
                        let (_, line) = reader.position();
                        return Err(InputError::Exclusion {
                            path: path.display().to_string(),
                            line,
                            reason: reason.into_owned(),
                        });
                    }
                }
            }
        }
        Ok(Exclusions { domains })
    }

    pub fn from_domains<I: IntoIterator<Item = String>>(domains: I) -> Exclusions {
        Exclusions {
            domains: domains.into_iter().collect(),
        }
    }

    pub fn len(&self) -> usize {
        self.domains.len()
    }

    pub fn is_empty(&self) -> bool {
        self.domains.is_empty()
    }

    /// The listed domain that covers `host` (the host itself or a parent), if any.
    pub fn covering(&self, host: &str) -> Option<&str> {
        if self.domains.is_empty() {
            return None;
        }
        // The same host however it is written: a trailing dot, upper case.
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        let mut rest = host.as_str();
        loop {
            if let Some(found) = self.domains.get(rest) {
                return Some(found);
            }
            rest = rest.split_once('.')?.1;
        }
    }
}
