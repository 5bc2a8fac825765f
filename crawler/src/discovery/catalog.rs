//! The AI Catalog (`/.well-known/ai-catalog.json`): its entries, the cards and nested catalogs
//! they point to, and the walk state that keeps nested catalogs finite.

use std::collections::HashSet;

use serde_json::{Map, Value};
use url::Url;

use super::card::{parse_card_value, ParsedCard};
use super::document::{read_object, DocumentParse, Field, JsonKind};
use super::paths::{A2A_AGENT_CARD_MEDIA_TYPE, AI_CATALOG_MEDIA_TYPE, SERVER_CARD_MEDIA_TYPE};

/// Nesting levels below the site's catalog that are followed: the AI Catalog spec recommends
/// a maximum depth of 4. The site's catalog is depth 0.
pub const MAX_CATALOG_DEPTH: u8 = 4;
/// Catalogs fetched per site, the site's own included: depth alone lets a catalog that lists
/// ten catalogs at each level cost ten thousand fetches.
pub const MAX_CATALOG_FETCHES: usize = 10;
/// Catalog-listed cards fetched per site, for the same reason.
pub const MAX_CATALOG_CARD_FETCHES: usize = 20;
/// Inline cards read per site, over all its catalogs: a 256 KB catalog holds thousands.
pub const MAX_INLINE_CARDS: usize = 50;
/// Entries read of one catalog: a catalog at the size cap can hold ~85,000 entries, and every
/// one read costs an audit finding or two; past this many a catalog is not describing its own
/// servers, and the rest are counted, not read.
pub const MAX_CATALOG_ENTRIES: usize = 5_000;

#[derive(Debug, Clone, PartialEq)]
pub struct ParsedCatalog {
    /// `specVersion`.
    pub spec_version: Field<String>,
    /// The first [`MAX_CATALOG_ENTRIES`] entries.
    pub entries: Field<Vec<CatalogEntry>>,
    /// Entries past [`MAX_CATALOG_ENTRIES`], counted and not read.
    pub entries_unread: usize,
    /// The top-level keys, sorted.
    pub keys: Vec<String>,
}

/// Which key named the entry's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeKey {
    Type,
    /// The April 2026 spelling, renamed to `type` since.
    MediaType,
    Neither,
}

/// What an entry points to, by its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    ServerCard,
    Catalog,
    A2aAgentCard,
    /// A type outside the three the discovery audit defines (agent skills and plugins included).
    Unrecognised,
    /// No usable type.
    Untyped,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CatalogEntry {
    /// `Some` when the entry is not an object (then every field is absent).
    pub not_object: Option<JsonKind>,
    pub identifier: Field<String>,
    /// `type`, else `mediaType`.
    pub entry_type: Field<String>,
    pub type_key: TypeKey,
    pub url: Field<String>,
    /// The inline artifact (`data`); `null` counts as absent.
    pub data: Option<Value>,
    pub kind: EntryKind,
}

/// What makes an entry incomplete or unusable (the discovery audit's catalog findings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryProblem {
    NoIdentifier,
    NoType,
    NoUrlOrData,
    /// The spec wants exactly one of them.
    UrlAndData,
    UnrecognisedType(String),
}

impl CatalogEntry {
    fn read(value: &Value) -> CatalogEntry {
        let empty = Map::new();
        let (object, not_object) = match value {
            Value::Object(object) => (object, None),
            other => (&empty, Some(JsonKind::of(other))),
        };
        let (entry_type, type_key) = match Field::string(object, "type") {
            Field::Absent => match Field::string(object, "mediaType") {
                Field::Absent => (Field::Absent, TypeKey::Neither),
                found => (found, TypeKey::MediaType),
            },
            found => (found, TypeKey::Type),
        };
        let kind = match entry_type.text().map(essence).as_deref() {
            None | Some("") => EntryKind::Untyped,
            Some(SERVER_CARD_MEDIA_TYPE) => EntryKind::ServerCard,
            Some(AI_CATALOG_MEDIA_TYPE) => EntryKind::Catalog,
            Some(A2A_AGENT_CARD_MEDIA_TYPE) => EntryKind::A2aAgentCard,
            Some(_) => EntryKind::Unrecognised,
        };
        CatalogEntry {
            not_object,
            identifier: Field::string(object, "identifier"),
            entry_type,
            type_key,
            url: Field::string(object, "url"),
            data: object.get("data").filter(|data| !data.is_null()).cloned(),
            kind,
        }
    }

    pub fn problems(&self) -> Vec<EntryProblem> {
        let mut problems = Vec::new();
        if self.identifier.text().is_none_or(|id| id.trim().is_empty()) {
            problems.push(EntryProblem::NoIdentifier);
        }
        match self.kind {
            EntryKind::Untyped => problems.push(EntryProblem::NoType),
            EntryKind::Unrecognised => problems.push(EntryProblem::UnrecognisedType(
                self.entry_type.text().unwrap_or_default().to_owned(),
            )),
            _ => {}
        }
        match (self.url.text().is_some(), self.data.is_some()) {
            (false, false) => problems.push(EntryProblem::NoUrlOrData),
            (true, true) => problems.push(EntryProblem::UrlAndData),
            _ => {}
        }
        problems
    }
}

/// A media type compared as RFC 6838 does: case-insensitive, parameters dropped.
fn essence(text: &str) -> String {
    text.split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

impl ParsedCatalog {
    fn read(object: &Map<String, Value>) -> ParsedCatalog {
        let entries_unread = match object.get("entries") {
            Some(Value::Array(items)) => items.len().saturating_sub(MAX_CATALOG_ENTRIES),
            _ => 0,
        };
        ParsedCatalog {
            spec_version: Field::string(object, "specVersion"),
            entries: Field::array_capped(
                object,
                "entries",
                MAX_CATALOG_ENTRIES,
                CatalogEntry::read,
            ),
            entries_unread,
            keys: object.keys().cloned().collect(),
        }
    }

    /// The discovery audit's "an entry in /.well-known/ai-catalog.json": a server card entry
    /// with a url or inline data.
    pub fn has_server_card_entry(&self) -> bool {
        self.entries.get().is_some_and(|entries| {
            entries.iter().any(|entry| {
                entry.kind == EntryKind::ServerCard
                    && (entry.url.text().is_some() || entry.data.is_some())
            })
        })
    }
}

/// Reads a fetched catalog. `content_type` is the media type (see `media_type`).
pub fn parse_catalog(content_type: Option<&str>, body: &[u8]) -> DocumentParse<ParsedCatalog> {
    read_object(content_type, body).map(|object| ParsedCatalog::read(&object))
}

/// What a catalog asks the scan to do next, entry by entry.
#[derive(Debug, Clone, PartialEq)]
pub enum CatalogItem {
    /// Fetch this card (its remotes resolve against the card's URL).
    CardUrl { entry: usize, url: Url },
    /// A card given inline; its relative remotes resolve against the catalog's URL.
    InlineCard {
        entry: usize,
        card: DocumentParse<ParsedCard>,
    },
    /// Fetch this catalog at the parent's depth + 1 (ask `CatalogWalk` first).
    Catalog { entry: usize, url: Url },
    /// A card or catalog entry whose `url` does not resolve.
    BadUrl { entry: usize, url: String },
}

/// The server cards and nested catalogs a catalog lists, in document order; other types are
/// skipped. An entry with both `data` and `url` is taken by its `data` (no fetch needed). An
/// inline nested catalog is not followed: no deployment has been seen using one.
pub fn catalog_items(catalog: &ParsedCatalog, catalog_url: &Url) -> Vec<CatalogItem> {
    let Some(entries) = catalog.entries.get() else {
        return Vec::new();
    };
    entries
        .iter()
        .enumerate()
        .filter_map(|(entry, item)| {
            let is_card = item.kind == EntryKind::ServerCard;
            if !is_card && item.kind != EntryKind::Catalog {
                return None;
            }
            if let (true, Some(data)) = (is_card, &item.data) {
                let card = parse_card_value(data);
                return Some(CatalogItem::InlineCard { entry, card });
            }
            let raw = item.url.text()?;
            Some(match catalog_url.join(raw) {
                Ok(url) if is_card => CatalogItem::CardUrl { entry, url },
                Ok(url) => CatalogItem::Catalog { entry, url },
                Err(_) => CatalogItem::BadUrl {
                    entry,
                    url: raw.to_owned(),
                },
            })
        })
        .collect()
}

/// The answer to "may I fetch this?".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WalkStep {
    Fetch,
    /// Fetched before on this site: a cycle, or a card listed twice.
    AlreadyVisited,
    /// Deeper than `MAX_CATALOG_DEPTH`.
    TooDeep,
    /// The per-site fetch cap is spent.
    TooMany,
}

/// One site's catalog walk: the visited set (cycles) and the depth and count limits. The scan
/// asks before every catalog or catalog-listed card fetch; `Fetch` records the URL as visited.
#[derive(Debug, Default)]
pub struct CatalogWalk {
    catalogs: HashSet<String>,
    cards: HashSet<String>,
    inline: usize,
}

impl CatalogWalk {
    pub fn new() -> CatalogWalk {
        CatalogWalk::default()
    }

    /// `depth` is 0 for the site's catalog and the parent's depth + 1 for a nested one.
    pub fn visit_catalog(&mut self, url: &Url, depth: u8) -> WalkStep {
        let key = visit_key(url);
        if self.catalogs.contains(&key) {
            WalkStep::AlreadyVisited
        } else if depth > MAX_CATALOG_DEPTH {
            WalkStep::TooDeep
        } else if self.catalogs.len() >= MAX_CATALOG_FETCHES {
            WalkStep::TooMany
        } else {
            self.catalogs.insert(key);
            WalkStep::Fetch
        }
    }

    pub fn visit_card(&mut self, url: &Url) -> WalkStep {
        let key = visit_key(url);
        if self.cards.contains(&key) {
            WalkStep::AlreadyVisited
        } else if self.cards.len() >= MAX_CATALOG_CARD_FETCHES {
            WalkStep::TooMany
        } else {
            self.cards.insert(key);
            WalkStep::Fetch
        }
    }
}

impl CatalogWalk {
    /// Whether one more inline card is read (`TooMany` past [`MAX_INLINE_CARDS`]).
    pub fn visit_inline(&mut self) -> WalkStep {
        if self.inline >= MAX_INLINE_CARDS {
            return WalkStep::TooMany;
        }
        self.inline += 1;
        WalkStep::Fetch
    }
}

/// The fragment never reaches the server, so `a.json#x` and `a.json` are one fetch.
fn visit_key(url: &Url) -> String {
    let mut url = url.clone();
    url.set_fragment(None);
    url.into()
}
