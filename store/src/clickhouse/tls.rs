//! The HTTP(S) client under every ClickHouse request: `http://` and `https://` URLs, TLS by
//! rustls on the ring provider, trusting the webpki roots plus an optional CA file. The
//! `clickhouse` crate's own TLS features cannot take an extra CA, so its hyper client is built
//! here and handed to it.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use clickhouse::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client as HyperClient;
use hyper_util::rt::TokioExecutor;
use rustls::{ClientConfig, RootCertStore};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::CertificateDer;

use crate::error::StoreError;

/// The TCP connect deadline (the TLS handshake and the answer fall under each request's own).
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// TCP keep-alive on idle pooled connections (the crate's default client uses the same).
const TCP_KEEPALIVE: Duration = Duration::from_secs(60);
/// Idle pooled connections are dropped after this, as by the crate's default client: before
/// the server closes them (ClickHouse's keep-alive timeout is 3 s by default).
const POOL_IDLE_TIMEOUT: Duration = Duration::from_secs(2);

/// A `clickhouse::Client` with no URL yet whose requests go over plain HTTP or TLS, as the URL
/// says; `ca_file` (PEM, one or more certificates) is trusted besides the webpki roots. A
/// missing, unreadable or empty CA file is an error here, before any request.
pub fn base_client(ca_file: Option<&Path>) -> Result<Client, StoreError> {
    let tls = tls_config(ca_file)?;
    let mut http = HttpConnector::new();
    http.set_keepalive(Some(TCP_KEEPALIVE));
    http.set_connect_timeout(Some(CONNECT_TIMEOUT));
    // The HTTPS connector below passes http:// through and wraps https:// in TLS.
    http.enforce_http(false);
    let connector = hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(tls)
        .https_or_http()
        .enable_http1()
        .wrap_connector(http);
    let hyper = HyperClient::builder(TokioExecutor::new())
        .pool_idle_timeout(POOL_IDLE_TIMEOUT)
        .build(connector);
    Ok(Client::with_http_client(hyper))
}

/// The rustls client configuration: ring, safe default versions, webpki roots plus `ca_file`.
pub(crate) fn tls_config(ca_file: Option<&Path>) -> Result<ClientConfig, StoreError> {
    let mut roots = RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(path) = ca_file {
        for cert in read_ca_file(path)? {
            roots
                .add(cert)
                .map_err(|source| StoreError::ClickHouseCaCertificate {
                    path: path.to_owned(),
                    source,
                })?;
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    Ok(ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|source| StoreError::ClickHouseTls { source })?
        .with_root_certificates(roots)
        .with_no_client_auth())
}

fn read_ca_file(path: &Path) -> Result<Vec<CertificateDer<'static>>, StoreError> {
    let err = |source| StoreError::ClickHouseCaFile {
        path: path.to_owned(),
        source,
    };
    let certs = CertificateDer::pem_file_iter(path)
        .and_then(|iter| iter.collect::<Result<Vec<_>, _>>())
        .map_err(err)?;
    if certs.is_empty() {
        return Err(err(rustls_pki_types::pem::Error::NoItemsFound));
    }
    Ok(certs)
}
