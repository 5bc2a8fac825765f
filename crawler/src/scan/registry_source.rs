//! The registry as the crawl's intake reads it: a name looked up, or the whole list page by
//! page, each under a site deadline of the server's time and through the guard and politeness
//! of the crawl's network. Intake runs on its own thread, so these calls block on the crawl's
//! runtime; no scan place is held while they wait.

use std::time::Duration;

use tokio::runtime::Handle;

use super::registry_error::lookup_timed_out;
use crate::net::{Net, ServerDeadline, SiteClient};
use crate::probe::{self, Listing, ListingError, Page, RegistryError, Resolved};

/// The registry at one URL, with its own connection pool.
pub struct RegistrySource {
    registry: String,
    client: SiteClient,
    deadline: Duration,
    runtime: Handle,
}

impl std::fmt::Debug for RegistrySource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegistrySource")
            .field("registry", &self.registry)
            .field("deadline", &self.deadline)
            .finish_non_exhaustive()
    }
}

impl RegistrySource {
    /// Built on the crawl's runtime (it panics outside one, as `Handle::current` does).
    pub fn new(net: &Net, registry: &str, deadline: Duration) -> RegistrySource {
        RegistrySource {
            registry: registry.to_owned(),
            client: net.site_client(),
            deadline,
            runtime: Handle::current(),
        }
    }

    /// The registry's URL.
    pub fn url(&self) -> &str {
        &self.registry
    }

    /// Looks `name` up, waiting at most the site deadline (blocking: call from intake's
    /// thread, never from the runtime).
    pub fn lookup(&self, name: &str) -> Result<Resolved, RegistryError> {
        let work = probe::resolve(&self.client, &self.registry, name);
        self.block(work).unwrap_or_else(|| Err(self.timed_out()))
    }

    /// A fresh listing of the whole registry.
    pub fn listing(&self) -> Listing {
        Listing::new(&self.registry)
    }

    /// The listing's next page, waiting at most the site deadline (blocking).
    pub fn next_page(&self, listing: &mut Listing) -> Result<Option<Page>, ListingError> {
        let page = listing.pages() + 1;
        self.block(listing.next(&self.client)).unwrap_or_else(|| {
            Err(ListingError::Page {
                page,
                source: self.timed_out(),
            })
        })
    }

    /// Runs `work` within a site deadline of the server's time: the client's own waits
    /// (its DNS slot, politeness) move it, as they move a site's.
    fn block<F: std::future::Future>(&self, work: F) -> Option<F::Output> {
        let deadline = ServerDeadline::after(self.deadline, self.client.waits().clone());
        // Built inside the runtime: intake's thread has no timer of its own, and the
        // deadline's sleep needs one when it is made.
        self.runtime.block_on(async { deadline.run(work).await })
    }

    fn timed_out(&self) -> RegistryError {
        lookup_timed_out(&self.registry, self.deadline)
    }
}
