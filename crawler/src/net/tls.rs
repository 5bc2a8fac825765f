//! The TLS client configuration: ring provider (aws-lc-rs with the `tls-aws-lc` feature),
//! webpki roots plus extra CA files (chain signatures remembered across sites), ALPN
//! http/1.1 (and h2 before it when HTTP/2 is offered).
//! Built once and shared; no process-wide default provider is installed.

use std::path::Path;
use std::sync::Arc;

// The one place the provider is chosen: every handshake and certificate check goes through it.
#[cfg(feature = "tls-aws-lc")]
use rustls::crypto::aws_lc_rs::default_provider;
#[cfg(not(feature = "tls-aws-lc"))]
use rustls::crypto::ring::default_provider;
use rustls::crypto::CryptoProvider;
use rustls::{CipherSuite, ClientConfig, RootCertStore};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::CertificateDer;

use super::error::NetError;
use super::signatures::ChainVerifier;

/// ALPN protocols offered when HTTP/2 is, in order of preference.
pub const ALPN_PROTOCOLS: [&[u8]; 2] = [b"h2", b"http/1.1"];
/// ALPN protocols offered otherwise.
pub const ALPN_HTTP1: [&[u8]; 1] = [b"http/1.1"];

/// Builds the client configuration trusting the webpki roots and every certificate in
/// `ca_files`, offering HTTP/2 if `offer_http2`.
pub fn client_config(
    ca_files: &[impl AsRef<Path>],
    offer_http2: bool,
) -> Result<Arc<ClientConfig>, NetError> {
    let mut roots = RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    for path in ca_files {
        let path = path.as_ref();
        let certs = CertificateDer::pem_file_iter(path)
            .and_then(|iter| iter.collect::<Result<Vec<_>, _>>())
            .map_err(|source| NetError::CaFile {
                path: path.to_owned(),
                source,
            })?;
        if certs.is_empty() {
            return Err(NetError::CaFile {
                path: path.to_owned(),
                source: rustls_pki_types::pem::Error::NoItemsFound,
            });
        }
        for cert in certs {
            roots.add(cert).map_err(|source| NetError::CaCertificate {
                path: path.to_owned(),
                source,
            })?;
        }
    }
    let provider = provider();
    let verifier =
        ChainVerifier::new(roots, &provider).map_err(|source| NetError::Tls { source })?;
    let mut config = ClientConfig::builder_with_provider(Arc::new(provider))
        .with_safe_default_protocol_versions()
        .map_err(|source| NetError::Tls { source })?
        // webpki's own verifier underneath, with the chain's signature checks remembered
        // (`signatures.rs`); nothing it checks is skipped.
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    let alpn: &[&[u8]] = if offer_http2 {
        &ALPN_PROTOCOLS
    } else {
        &ALPN_HTTP1
    };
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    Ok(Arc::new(config))
}

/// The provider with TLS 1.3's AES-128-GCM-SHA256 offered first, as browsers do (servers
/// mostly take the client's order): its key schedule hashes with SHA-256, which most current
/// CPUs run in hardware (SHA-NI, the ARMv8 SHA-2 instructions), where the provider's first
/// choice hashes with SHA-384.
fn provider() -> CryptoProvider {
    let mut provider = default_provider();
    provider
        .cipher_suites
        .sort_by_key(|suite| suite.suite() != CipherSuite::TLS13_AES_128_GCM_SHA256);
    provider
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aes_128_gcm_sha256_is_offered_first_and_nothing_is_dropped() {
        let config = client_config(&[] as &[&Path], false).expect("config");
        let offered: Vec<_> = config
            .crypto_provider()
            .cipher_suites
            .iter()
            .map(|s| s.suite())
            .collect();
        assert_eq!(offered[0], CipherSuite::TLS13_AES_128_GCM_SHA256);
        assert_eq!(offered.len(), default_provider().cipher_suites.len());
        assert_eq!(config.alpn_protocols, [b"http/1.1".to_vec()]);
    }
}
