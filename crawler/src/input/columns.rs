//! Which column of a list line holds the site and which its rank: ranked lists come as
//! `rank,host` (Tranco, Umbrella), `origin,rank` under a header (CrUX, whose rank is its
//! bucket: 1000, 5000, …), a header with many columns (Majestic: `GlobalRank,TldRank,Domain,…`)
//! or `rank,domain,…` / `domain` (Cloudflare Radar). A header is read from the first line of
//! each source that is not blank or a comment; `--host-column` and `--rank-column` choose
//! where a list is ambiguous.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Header names read as the site's column, in order of preference (`Domain` before
/// Majestic's `IDN_Domain`).
pub const HOST_HEADERS: [&str; 7] = [
    "domain", "origin", "host", "hostname", "site", "url", "website",
];
/// Header names read as the rank's column, in order of preference (Majestic's `GlobalRank`
/// before its `TldRank`).
pub const RANK_HEADERS: [&str; 4] = ["rank", "globalrank", "global_rank", "position"];

/// A column named by the operator: a 1-based number or a header name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "ColumnText", into = "String")]
pub enum Column {
    Number(usize),
    Name(String),
}

impl FromStr for Column {
    type Err = String;

    fn from_str(s: &str) -> Result<Column, String> {
        let s = s.trim();
        if s.is_empty() {
            return Err("a column is a 1-based number or a header name".to_owned());
        }
        if s.bytes().all(|b| b.is_ascii_digit()) {
            return match s.parse::<usize>() {
                Ok(n) if n > 0 => Ok(Column::Number(n)),
                _ => Err(format!("column {s}: columns are numbered from 1")),
            };
        }
        Ok(Column::Name(s.to_ascii_lowercase()))
    }
}

/// A column as a config file writes it: `host_column = 3` or `host_column = "Domain"`.
#[derive(Deserialize)]
#[serde(untagged)]
enum ColumnText {
    Number(u64),
    Text(String),
}

impl TryFrom<ColumnText> for Column {
    type Error = String;
    fn try_from(c: ColumnText) -> Result<Column, String> {
        match c {
            ColumnText::Number(n) => n.to_string().parse(),
            ColumnText::Text(s) => s.parse(),
        }
    }
}

impl From<Column> for String {
    fn from(c: Column) -> String {
        c.to_string()
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Column::Number(n) => write!(f, "{n}"),
            Column::Name(name) => f.write_str(name),
        }
    }
}

/// The operator's choice of columns (`--host-column`, `--rank-column`); `None` reads the
/// header, or the unheaded shapes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ColumnChoice {
    pub host: Option<Column>,
    pub rank: Option<Column>,
}

/// What one line of a list holds.
#[derive(Debug, PartialEq, Eq)]
pub enum Fields<'a> {
    /// The source's header line: no site.
    Header,
    /// The site's text (to normalize) and its rank, when the line has one.
    Site { text: &'a str, rank: Option<u32> },
    /// The line cannot be read with the source's columns.
    Invalid(Cow<'static, str>),
}

/// Column indexes (0-based) of a source read as CSV.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Indexes {
    host: usize,
    rank: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// No line of this source read yet (its header, if any, comes first).
    Start,
    /// No header: `rank,host`, `host,rank` or a bare host, or the chosen numbered columns.
    Plain,
    /// Under a header (or chosen numbered columns): these columns.
    Csv(Indexes),
}

/// The reading of one list's lines, a source at a time.
#[derive(Debug, Clone)]
pub struct ListColumns {
    choice: ColumnChoice,
    state: State,
}

impl ListColumns {
    pub fn new(choice: ColumnChoice) -> ListColumns {
        ListColumns {
            choice,
            state: State::Start,
        }
    }

    /// A new source starts: its first line may be a header.
    pub fn new_source(&mut self) {
        self.state = State::Start;
    }

    /// Reads one line (blank and comment lines are the caller's: they are given back whole).
    pub fn read<'a>(&mut self, line: &'a str) -> Fields<'a> {
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            return Fields::Site { text, rank: None };
        }
        if self.state == State::Start {
            self.state = State::Plain;
            if let Some(header) = self.header(text) {
                return header;
            }
            if let Some(indexes) = self.numbered() {
                self.state = State::Csv(indexes);
            }
        }
        match self.state {
            State::Csv(indexes) => by_indexes(text, indexes),
            _ => plain(text),
        }
    }

    /// The first line, when it is a header: a comma-separated line with no number in it and
    /// a column named as a site or rank column (or as the operator chose), or a line that is
    /// only a site column's name.
    fn header(&mut self, text: &str) -> Option<Fields<'static>> {
        if !text.contains(',') {
            // A one-column list under its header (Radar's bucket files: `domain`).
            let name = text.to_ascii_lowercase();
            let chosen = matches!(&self.choice.host, Some(Column::Name(n)) if *n == name);
            if !(chosen || HOST_HEADERS.contains(&name.as_str())) {
                return None;
            }
            self.state = State::Csv(Indexes {
                host: 0,
                rank: None,
            });
            return Some(Fields::Header);
        }
        let names: Vec<String> = fields(text).map(str::to_ascii_lowercase).collect();
        if names
            .iter()
            .any(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        {
            return None;
        }
        let named = |choice: &Option<Column>, known: &[&str]| -> Option<usize> {
            match choice {
                Some(Column::Number(n)) => Some(n - 1),
                Some(Column::Name(name)) => names.iter().position(|n| n == name),
                None => known.iter().find_map(|k| names.iter().position(|n| n == k)),
            }
        };
        let host = named(&self.choice.host, &HOST_HEADERS);
        let rank = named(&self.choice.rank, &RANK_HEADERS);
        let chosen_name =
            |c: &Option<Column>| matches!(c, Some(Column::Name(n)) if names.contains(n));
        let known = names
            .iter()
            .any(|n| HOST_HEADERS.contains(&n.as_str()) || RANK_HEADERS.contains(&n.as_str()));
        if !known && !chosen_name(&self.choice.host) && !chosen_name(&self.choice.rank) {
            return None;
        }
        Some(match host {
            Some(host) => {
                self.state = State::Csv(Indexes { host, rank });
                Fields::Header
            }
            None => Fields::Invalid(
                format!(
                    "a header with no site column (one of {}): give --host-column",
                    HOST_HEADERS.join(", ")
                )
                .into(),
            ),
        })
    }

    /// The chosen columns when both are numbers (or the site's is and no rank is chosen).
    fn numbered(&self) -> Option<Indexes> {
        let Some(Column::Number(host)) = self.choice.host else {
            return None;
        };
        let rank = match self.choice.rank {
            Some(Column::Number(r)) => Some(r - 1),
            Some(Column::Name(_)) => return None,
            None => None,
        };
        Some(Indexes {
            host: host - 1,
            rank,
        })
    }
}

/// A CSV line's fields, trimmed and unquoted (site names hold no commas).
fn fields(text: &str) -> impl Iterator<Item = &str> {
    text.split(',').map(|f| {
        let f = f.trim();
        f.strip_prefix('"')
            .and_then(|f| f.strip_suffix('"'))
            .unwrap_or(f)
            .trim()
    })
}

fn by_indexes(text: &str, indexes: Indexes) -> Fields<'_> {
    let Some(host) = fields(text).nth(indexes.host) else {
        return Fields::Invalid(format!("no column {} (the site's)", indexes.host + 1).into());
    };
    let rank = indexes
        .rank
        .and_then(|i| fields(text).nth(i))
        .and_then(rank_of);
    Fields::Site { text: host, rank }
}

/// `rank,host` (a top list), `host,rank` (an unheaded CrUX line) or the line itself.
fn plain(text: &str) -> Fields<'_> {
    if let Some((a, b)) = text.split_once(',') {
        if let Some(rank) = rank_of(a.trim()) {
            return Fields::Site {
                text: b.trim(),
                rank: Some(rank),
            };
        }
        if !b.contains(',') {
            if let Some(rank) = rank_of(b.trim()) {
                return Fields::Site {
                    text: a.trim(),
                    rank: Some(rank),
                };
            }
        }
    }
    Fields::Site { text, rank: None }
}

/// A rank: a positive whole number that fits (a rank past 4 billion is no rank).
fn rank_of(field: &str) -> Option<u32> {
    if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    field.parse::<u32>().ok().filter(|r| *r > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(choice: ColumnChoice, lines: &[&'static str]) -> Vec<Fields<'static>> {
        let mut columns = ListColumns::new(choice);
        lines.iter().map(|l| columns.read(l)).collect()
    }

    fn site(text: &str, rank: Option<u32>) -> Fields<'_> {
        Fields::Site { text, rank }
    }

    #[test]
    fn tranco_and_umbrella_lines_keep_their_rank() {
        let got = read_all(
            ColumnChoice::default(),
            &["1,google.com", "2,a-very-long-name.example", "example.org"],
        );
        assert_eq!(
            got,
            [
                site("google.com", Some(1)),
                site("a-very-long-name.example", Some(2)),
                site("example.org", None)
            ]
        );
    }

    #[test]
    fn crux_reads_every_line_under_its_header() {
        let got = read_all(
            ColumnChoice::default(),
            &[
                "origin,rank",
                "https://www.google.com,1000",
                "https://example.org,5000",
            ],
        );
        assert_eq!(
            got,
            [
                Fields::Header,
                site("https://www.google.com", Some(1000)),
                site("https://example.org", Some(5000))
            ]
        );
    }

    #[test]
    fn majestic_takes_the_domain_and_the_global_rank() {
        let got = read_all(
            ColumnChoice::default(),
            &[
                "GlobalRank,TldRank,Domain,TLD,RefSubNets,RefIPs,IDN_Domain,IDN_TLD",
                "1,1,google.com,com,482000,2000000,google.com,com",
                "7,2,wikipedia.org,org,1,2,wikipedia.org,org",
            ],
        );
        assert_eq!(
            got,
            [
                Fields::Header,
                site("google.com", Some(1)),
                site("wikipedia.org", Some(7))
            ]
        );
    }

    #[test]
    fn radar_with_and_without_ranks() {
        let ranked = read_all(
            ColumnChoice::default(),
            &["rank,domain,categories", "3,example.com,\"Technology\""],
        );
        assert_eq!(ranked, [Fields::Header, site("example.com", Some(3))]);
        let bucket = read_all(ColumnChoice::default(), &["domain", "example.com"]);
        assert_eq!(bucket, [Fields::Header, site("example.com", None)]);
    }

    #[test]
    fn chosen_columns_by_number_and_by_name() {
        let numbered = ColumnChoice {
            host: Some("2".parse().unwrap()),
            rank: Some("3".parse().unwrap()),
        };
        assert_eq!(
            read_all(numbered, &["x,example.com,17", "y,other.example"]),
            [site("example.com", Some(17)), site("other.example", None)]
        );
        let named = ColumnChoice {
            host: Some("Target".parse().unwrap()),
            rank: Some("Pos".parse().unwrap()),
        };
        assert_eq!(
            read_all(named, &["Pos,Target", "4,example.com"]),
            [Fields::Header, site("example.com", Some(4))]
        );
    }

    #[test]
    fn a_header_without_a_site_column_says_so() {
        let got = read_all(ColumnChoice::default(), &["rank,name", "1,example.com"]);
        assert!(matches!(&got[0], Fields::Invalid(r) if r.contains("--host-column")));
        assert_eq!(got[1], site("example.com", Some(1)));
    }

    #[test]
    fn each_source_may_have_its_header_and_comments_come_first() {
        let mut columns = ListColumns::new(ColumnChoice::default());
        assert_eq!(columns.read("# CrUX 202611"), site("# CrUX 202611", None));
        assert_eq!(columns.read("origin,rank"), Fields::Header);
        assert_eq!(
            columns.read("https://a.example,1000"),
            site("https://a.example", Some(1000))
        );
        columns.new_source();
        assert_eq!(columns.read("5,b.example"), site("b.example", Some(5)));
        // A later line looking like a header is a line, not a header.
        assert_eq!(columns.read("origin,rank"), site("origin,rank", None));
    }

    #[test]
    fn a_config_names_a_column_by_number_or_by_name() {
        #[derive(Deserialize)]
        struct C {
            host_column: Column,
            rank_column: Column,
        }
        let c: C = toml::from_str("host_column = 3\nrank_column = \"GlobalRank\"").unwrap();
        assert_eq!(c.host_column, Column::Number(3));
        assert_eq!(c.rank_column, Column::Name("globalrank".into()));
        assert!(toml::from_str::<C>("host_column = 0\nrank_column = 1").is_err());
    }

    #[test]
    fn ranks_are_positive_numbers_that_fit() {
        assert_eq!(rank_of("0"), None);
        assert_eq!(rank_of("4294967296"), None);
        assert_eq!(rank_of("1e3"), None);
        assert_eq!(rank_of("4294967295"), Some(u32::MAX));
        assert!("0".parse::<Column>().is_err());
        assert!("".parse::<Column>().is_err());
    }
}
