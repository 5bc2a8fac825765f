//! The report's registry section: the official MCP registry's entries by the probers'
//! classes, counted by entry and by distinct endpoint URL, the URLs several entries share,
//! and the overlap of the listed endpoints with those discovery found on the web.

use mcpcensus_store::RegistryClass;
use serde::{Deserialize, Serialize};

/// A count per class (`mcpcensus_store::RegistryClass`), best first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegistryClasses {
    pub live: u64,
    pub auth_gated: u64,
    pub http_not_mcp: u64,
    pub dead: u64,
    pub no_verdict: u64,
    pub template: u64,
    pub not_probeable: u64,
}

impl RegistryClasses {
    /// The count of one class.
    pub fn of(&mut self, class: RegistryClass) -> &mut u64 {
        use RegistryClass as C;
        match class {
            C::Live => &mut self.live,
            C::AuthGated => &mut self.auth_gated,
            C::HttpNotMcp => &mut self.http_not_mcp,
            C::Dead => &mut self.dead,
            C::NoVerdict => &mut self.no_verdict,
            C::Template => &mut self.template,
            C::NotProbeable => &mut self.not_probeable,
        }
    }

    /// (class, count), in the classes' order.
    pub fn rows(&self) -> Vec<(&'static str, u64)> {
        let mut copy = self.clone();
        RegistryClass::ALL
            .iter()
            .map(|c| (c.as_str(), *copy.of(*c)))
            .collect()
    }

    pub fn total(&self) -> u64 {
        self.rows().iter().map(|(_, n)| n).sum()
    }
}

/// One endpoint URL and how many entries name it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FanOut {
    pub url: String,
    pub entries: u64,
}

/// The registry section. Each list holds as many items as the report's other lists.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegistryReport {
    /// Records of registry entries (invalid names left out).
    pub listed: u64,
    /// Entries by class; entries not measured for reasons of the run have none.
    pub by_entry: RegistryClasses,
    /// Distinct endpoint URLs (`endpoint_key`; a template by its text) by the best class any
    /// entry naming it got.
    pub by_url: RegistryClasses,
    /// Distinct endpoint URLs of the classed entries.
    pub urls: u64,
    /// URLs named by more than one entry.
    pub shared_urls: u64,
    /// The URLs named by the most entries (most first, then by URL), shared ones only.
    pub fan_outs: Vec<FanOut>,
    /// Entries whose remote is a template (unexpanded `{...}`): never requested.
    pub templates: u64,
    /// Entries whose server answered `notifications/initialized` with a 400.
    pub initialized_400: u64,
    /// Entries inside `http_not_mcp` whose endpoint answered a redirect (a sign-in page).
    pub signin_redirect: u64,
    /// Distinct endpoints found on the web and listed.
    pub web_and_registry: u64,
    /// Distinct endpoints found on the web, not listed.
    pub web_only: u64,
    /// Distinct endpoints listed, not found on the web.
    pub registry_only: u64,
    pub web_and_registry_origins: Vec<String>,
    pub web_only_origins: Vec<String>,
    pub registry_only_origins: Vec<String>,
}

impl RegistryReport {
    pub fn is_empty(&self) -> bool {
        self.listed == 0
    }

    /// The section's single counts, for every format: (key, count).
    pub fn totals(&self) -> [(&'static str, u64); 6] {
        [
            ("listed", self.listed),
            ("urls", self.urls),
            ("shared_urls", self.shared_urls),
            ("templates", self.templates),
            ("initialized_400", self.initialized_400),
            ("signin_redirect", self.signin_redirect),
        ]
    }

    /// The overlap counts: (key, count).
    pub fn overlap(&self) -> [(&'static str, u64); 3] {
        [
            ("web_and_registry", self.web_and_registry),
            ("web_only", self.web_only),
            ("registry_only", self.registry_only),
        ]
    }

    /// The origin lists behind the overlap counts: (key, origins).
    pub fn origin_lists(&self) -> [(&'static str, &[String]); 3] {
        [
            ("web_and_registry", &self.web_and_registry_origins),
            ("web_only", &self.web_only_origins),
            ("registry_only", &self.registry_only_origins),
        ]
    }
}
