//! MCP revisions as a card declares them: released dates, and everything else.

/// The released revisions, newest first (the discovery audit).
pub const RELEASED_REVISIONS: [&str; 5] = [
    "2026-07-28",
    "2025-11-25",
    "2025-06-18",
    "2025-03-26",
    "2024-11-05",
];
/// The first revision that does not count as "pre-2025-06".
const FIRST_CURRENT_REVISION: &str = "2025-06-18";

/// What a declared revision string is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Revision {
    /// One of [`RELEASED_REVISIONS`]; `pre_2025_06` for 2025-03-26 and 2024-11-05.
    Released { pre_2025_06: bool },
    /// Shaped like a date (`YYYY-MM-DD`) but never released.
    UnreleasedDate,
    /// A semantic version (`1.0`, `1.0.0`, `v2`).
    SemVer,
    /// Anything else, including a non-string item.
    Other,
}

impl Revision {
    pub fn is_recognised(self) -> bool {
        matches!(self, Revision::Released { .. })
    }

    /// Why an unrecognised revision is not one, for the evidence.
    pub fn why_unrecognised(self) -> Option<&'static str> {
        match self {
            Revision::Released { .. } => None,
            Revision::UnreleasedDate => Some("a date no revision was released on"),
            Revision::SemVer => Some("a semantic version; revisions are dates"),
            Revision::Other => Some("not a revision date"),
        }
    }
}

/// Classifies a revision exactly as written: a client compares strings, so `2025-11-25 ` with
/// a space is not 2025-11-25.
pub fn classify_revision(text: &str) -> Revision {
    if RELEASED_REVISIONS.contains(&text) {
        // Dates in this form order as strings.
        Revision::Released {
            pre_2025_06: text < FIRST_CURRENT_REVISION,
        }
    } else if is_date(text) {
        Revision::UnreleasedDate
    } else if is_semver(text) {
        Revision::SemVer
    } else {
        Revision::Other
    }
}

/// `YYYY-MM-DD` by shape (an impossible date such as 2025-13-40 is still "a date that was
/// never released").
fn is_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 10
        && bytes.iter().enumerate().all(|(index, byte)| match index {
            4 | 7 => *byte == b'-',
            _ => byte.is_ascii_digit(),
        })
}

/// `1.0`, `1.0.0`, `v2`, `1.0.0-beta.1`: two or three numeric dot-separated parts (or one
/// after a `v`), with an optional pre-release or build suffix.
fn is_semver(text: &str) -> bool {
    let (text, prefixed) = match text.strip_prefix(['v', 'V']) {
        Some(rest) => (rest, true),
        None => (text, false),
    };
    let core = text.split(['-', '+']).next().unwrap_or_default();
    let parts: Vec<&str> = core.split('.').collect();
    let numeric = |part: &&str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    (parts.len() > 1 || prefixed) && parts.len() <= 3 && parts.iter().all(numeric)
}
