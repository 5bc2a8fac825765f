//! The whole registry (`registry:*`): `<registry>/v0.1/servers` (or `/v0/servers` when that
//! path is not found) read page by page with the answer's `metadata.nextCursor`, each name
//! taken once at the version the registry marks `isLatest`; older versions are counted and
//! skipped. An entry the registry does not mark (older registries) is taken as listed.

use serde_json::Value;
use url::Url;

use super::registry::{entry_of, get_list, latest_mark, resolve_entry, servers_url, API_PATHS};
use super::{RegistryError, Resolved};
use crate::net::SiteClient;

/// Entries asked for per page (the registry's own maximum is 100).
pub const PAGE_LIMIT: u32 = 100;
/// Most pages read: past it the cursor is taken to be looping (100 × 10,000 entries is far
/// beyond any registry today).
pub const MAX_PAGES: u32 = 10_000;

/// One name the registry lists, at its latest version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    pub name: String,
    /// Its first remote or its repository, or why it has neither.
    pub resolved: Result<Resolved, RegistryError>,
}

/// One page of the listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    pub listed: Vec<Listed>,
    /// Entries skipped as older versions of a name (`isLatest: false`).
    pub older_versions: u64,
    /// Items with no name: counted, nothing to scan.
    pub unnamed: u64,
    /// The cursor of the next page; `None` on the last.
    pub next_cursor: Option<String>,
}

/// Why the listing stopped before its last page.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ListingError {
    #[error("the registry listing failed on page {page}: {source}")]
    Page {
        page: u32,
        #[source]
        source: RegistryError,
    },
    #[error("the registry's cursor repeated or ran past {MAX_PAGES} pages at page {page}")]
    Cursor { page: u32 },
}

/// The list URL of one page under the API path `api`.
pub fn list_url(registry: &str, api: &str, cursor: Option<&str>) -> Result<Url, RegistryError> {
    let mut url = servers_url(registry, api)?;
    {
        let mut q = url.query_pairs_mut();
        q.append_pair("limit", &PAGE_LIMIT.to_string());
        if let Some(cursor) = cursor {
            q.append_pair("cursor", cursor);
        }
    }
    Ok(url)
}

/// Reads one page of a server list (the caller checked `servers` is a list).
pub fn read_page(doc: &Value) -> Page {
    let items = doc
        .get("servers")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let mut page = Page {
        listed: Vec::new(),
        older_versions: 0,
        unnamed: 0,
        next_cursor: doc
            .get("metadata")
            .and_then(|m| m.get("nextCursor").or_else(|| m.get("next_cursor")))
            .and_then(Value::as_str)
            .filter(|c| !c.is_empty())
            .map(str::to_owned),
    };
    for item in items {
        if latest_mark(item) == Some(false) {
            page.older_versions += 1;
            continue;
        }
        let (entry, name) = entry_of(item);
        let Some(name) = name else {
            page.unnamed += 1;
            continue;
        };
        page.listed.push(Listed {
            name: name.to_owned(),
            resolved: resolve_entry(entry, name),
        });
    }
    page
}

/// Reads the registry page by page; `next` is called once per page (stop by not calling
/// it again). The API path that answered the first page is kept for the rest.
#[derive(Debug)]
pub struct Listing {
    registry: String,
    apis: &'static [&'static str],
    cursor: Option<String>,
    /// Pages read so far.
    pages: u32,
    done: bool,
}

impl Listing {
    pub fn new(registry: &str) -> Listing {
        Listing {
            registry: registry.to_owned(),
            apis: &API_PATHS,
            cursor: None,
            pages: 0,
            done: false,
        }
    }

    /// Pages read so far.
    pub fn pages(&self) -> u32 {
        self.pages
    }

    /// The next page, `Ok(None)` after the last. An error ends the listing.
    pub async fn next(&mut self, client: &SiteClient) -> Result<Option<Page>, ListingError> {
        if self.done {
            return Ok(None);
        }
        let page_no = self.pages + 1;
        if page_no > MAX_PAGES {
            self.done = true;
            return Err(ListingError::Cursor { page: page_no });
        }
        let cursor = self.cursor.clone();
        let fetched = get_list(client, self.apis, |api| {
            list_url(&self.registry, api, cursor.as_deref())
        })
        .await;
        let (api, doc) = fetched.map_err(|source| {
            self.done = true;
            ListingError::Page {
                page: page_no,
                source,
            }
        })?;
        self.apis = match api {
            "v0" => &API_PATHS[1..],
            _ => &API_PATHS[..1],
        };
        self.pages = page_no;
        let page = read_page(&doc);
        match &page.next_cursor {
            Some(next) if Some(next) == self.cursor.as_ref() => {
                self.done = true;
                return Err(ListingError::Cursor { page: page_no });
            }
            Some(next) => self.cursor = Some(next.clone()),
            None => self.done = true,
        }
        Ok(Some(page))
    }
}
