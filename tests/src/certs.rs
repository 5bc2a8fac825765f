//! Leaf certificates chosen by SNI, issued on first use and cached.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;

use crate::ca::TestCa;
use crate::registry::Registry;
use crate::site::{normalize_host, CertMode};
use crate::Error;

/// Cached certificates at most; past it, certificates are issued per handshake without caching.
const MAX_CACHED_CERTS: usize = 200_000;

/// Picks the certificate for a handshake: the named TLS site's (as its [`CertMode`] says), or
/// the fallback `localhost` one when the client sent no SNI or named no TLS site.
pub(crate) struct SniResolver {
    ca: Arc<TestCa>,
    registry: Arc<Registry>,
    fallback: Arc<CertifiedKey>,
    cache: Mutex<HashMap<(String, CertMode), Arc<CertifiedKey>>>,
}

impl fmt::Debug for SniResolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SniResolver").finish_non_exhaustive()
    }
}

impl SniResolver {
    pub(crate) fn new(ca: Arc<TestCa>, registry: Arc<Registry>) -> Result<Self, Error> {
        let fallback = ca.issue_fallback()?;
        Ok(Self {
            ca,
            registry,
            fallback,
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// The certificate for `name` in `mode`, from the cache or freshly issued.
    fn cert_for(&self, name: &str, mode: CertMode) -> Option<Arc<CertifiedKey>> {
        let key = (name.to_string(), mode);
        if let Some(hit) = self
            .cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
        {
            return Some(Arc::clone(hit));
        }
        // Issued outside the lock: two racing handshakes may both sign, which is harmless.
        let issued = match self.ca.issue(name, mode) {
            Ok(issued) => issued?,
            Err(e) => {
                tracing::warn!(error = %e, "leaf certificate issue failed");
                return None;
            }
        };
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        if cache.len() < MAX_CACHED_CERTS {
            cache.insert(key, Arc::clone(&issued));
        }
        Some(issued)
    }
}

impl ResolvesServerCert for SniResolver {
    fn resolve(&self, client_hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        let Some(sni) = client_hello.server_name() else {
            return Some(Arc::clone(&self.fallback));
        };
        let name = normalize_host(sni);
        match self.registry.site(&name) {
            Some(site) if site.serves_tls() => self.cert_for(&name, site.cert_mode()),
            _ => Some(Arc::clone(&self.fallback)),
        }
    }
}

/// The TLS server configuration: certificates by SNI, ALPN `h2` then `http/1.1`.
pub(crate) fn server_config(
    resolver: Arc<SniResolver>,
) -> Result<Arc<rustls::ServerConfig>, Error> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_cert_resolver(resolver);
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}
