//! A throwaway CA and one leaf certificate for the names a test serves.

use std::io::Write as _;
use std::sync::Arc;

use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
use rustls::ServerConfig;
use rustls_pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

/// A CA, written to a PEM file for `NetOptions::ca_files`, and a leaf it signed.
pub struct TestPki {
    pub ca_file: tempfile::NamedTempFile,
    leaf: CertificateDer<'static>,
    key: Vec<u8>,
}

impl TestPki {
    /// A leaf certificate valid for each of `names`.
    pub fn for_names(names: &[&str]) -> Self {
        let ca_key = KeyPair::generate().expect("ca key");
        let mut ca_params = CertificateParams::new(Vec::<String>::new()).expect("ca params");
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        let ca_cert = ca_params.self_signed(&ca_key).expect("ca cert");
        let issuer = Issuer::new(ca_params, ca_key);
        let leaf_key = KeyPair::generate().expect("leaf key");
        let names = names.iter().map(|n| (*n).to_owned()).collect::<Vec<_>>();
        let leaf = CertificateParams::new(names)
            .expect("leaf params")
            .signed_by(&leaf_key, &issuer)
            .expect("leaf cert");
        let mut ca_file = tempfile::NamedTempFile::new().expect("temp file");
        ca_file
            .write_all(ca_cert.pem().as_bytes())
            .expect("write CA");
        Self {
            ca_file,
            leaf: leaf.der().clone(),
            key: leaf_key.serialize_der(),
        }
    }

    pub(super) fn server_config(&self, h2: bool) -> Arc<ServerConfig> {
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(self.key.clone()));
        let mut config =
            ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                .with_safe_default_protocol_versions()
                .expect("versions")
                .with_no_client_auth()
                .with_single_cert(vec![self.leaf.clone()], key)
                .expect("server config");
        config.alpn_protocols = if h2 {
            vec![b"h2".to_vec(), b"http/1.1".to_vec()]
        } else {
            vec![b"http/1.1".to_vec()]
        };
        Arc::new(config)
    }
}
