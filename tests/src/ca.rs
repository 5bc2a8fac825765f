//! The test certificate authority: one CA per [`crate::SimWeb`], leaf certificates on demand.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use rcgen::{
    date_time_ymd, BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa,
    Issuer, KeyPair, KeyUsagePurpose, SanType, SerialNumber,
};
use rustls::crypto::ring::sign::any_supported_type;
use rustls::sign::{CertifiedKey, SigningKey};
use rustls_pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

use crate::site::CertMode;
use crate::Error;

/// Valid-from year of every certificate that is meant to be valid.
const VALID_FROM_YEAR: i32 = 2020;
/// Valid-until year of every certificate that is meant to be valid.
const VALID_UNTIL_YEAR: i32 = 2100;
/// The SAN put in certificates of [`CertMode::WrongHost`].
const WRONG_HOST: &str = "wrong-host.simweb.invalid";
/// Name of the certificate served when the SNI names no TLS site.
pub(crate) const FALLBACK_NAME: &str = "localhost";

/// A CA generated at start, and one key pair shared by all the leaf certificates it signs
/// (signing a leaf is cheap; generating keys is not needed per site).
pub struct TestCa {
    ca_pem: String,
    ca_der: CertificateDer<'static>,
    issuer: Issuer<'static, KeyPair>,
    leaf_key: KeyPair,
    leaf_signer: Arc<dyn SigningKey>,
    serial: AtomicU64,
}

impl fmt::Debug for TestCa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TestCa").finish_non_exhaustive()
    }
}

impl TestCa {
    /// Generates a fresh CA and leaf key pair.
    pub fn generate() -> Result<Self, Error> {
        let cert_err = |source| Error::Cert {
            name: "simweb test CA".into(),
            source,
        };
        let ca_key = KeyPair::generate().map_err(cert_err)?;
        let mut params = CertificateParams::new(Vec::<String>::new()).map_err(cert_err)?;
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name = rcgen::DistinguishedName::new();
        params
            .distinguished_name
            .push(DnType::CommonName, "mcpcensus simweb test CA");
        params
            .distinguished_name
            .push(DnType::OrganizationName, "mcpcensus tests");
        params.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        params.not_before = date_time_ymd(VALID_FROM_YEAR, 1, 1);
        params.not_after = date_time_ymd(VALID_UNTIL_YEAR, 1, 1);
        let ca_cert = params.self_signed(&ca_key).map_err(cert_err)?;
        let issuer = Issuer::new(params, ca_key);

        let leaf_key = KeyPair::generate().map_err(cert_err)?;
        let leaf_signer = signer_for(&leaf_key)?;
        Ok(Self {
            ca_pem: ca_cert.pem(),
            ca_der: ca_cert.der().clone(),
            issuer,
            leaf_key,
            leaf_signer,
            serial: AtomicU64::new(1),
        })
    }

    /// The CA certificate in PEM form (what `--ca-file` takes).
    pub fn pem(&self) -> &str {
        &self.ca_pem
    }

    /// The CA certificate in DER form (for a rustls root store).
    pub fn der(&self) -> &CertificateDer<'static> {
        &self.ca_der
    }

    /// Issues a leaf certificate for `name` that behaves as `mode` says.
    /// Returns `None` for [`CertMode::Missing`].
    pub fn issue(&self, name: &str, mode: CertMode) -> Result<Option<Arc<CertifiedKey>>, Error> {
        let sans = match mode {
            CertMode::Missing => return Ok(None),
            CertMode::WrongHost => vec![WRONG_HOST.to_string()],
            CertMode::Valid | CertMode::Expired | CertMode::SelfSigned => vec![name.to_string()],
        };
        let cert_err = |source| Error::Cert {
            name: name.to_string(),
            source,
        };
        let mut params = CertificateParams::new(sans).map_err(cert_err)?;
        params.distinguished_name = rcgen::DistinguishedName::new();
        params.distinguished_name.push(DnType::CommonName, name);
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        params.use_authority_key_identifier_extension = true;
        let serial = self.serial.fetch_add(1, Ordering::Relaxed);
        params.serial_number = Some(SerialNumber::from_slice(&serial.to_be_bytes()));
        if mode == CertMode::Expired {
            params.not_before = date_time_ymd(2001, 1, 1);
            params.not_after = date_time_ymd(2002, 1, 1);
        } else {
            params.not_before = date_time_ymd(VALID_FROM_YEAR, 1, 1);
            params.not_after = date_time_ymd(VALID_UNTIL_YEAR, 1, 1);
        }
        let cert = if mode == CertMode::SelfSigned {
            params.self_signed(&self.leaf_key)
        } else {
            params.signed_by(&self.leaf_key, &self.issuer)
        }
        .map_err(cert_err)?;
        Ok(Some(Arc::new(CertifiedKey::new(
            vec![cert.der().clone()],
            Arc::clone(&self.leaf_signer),
        ))))
    }

    /// The certificate served when the client sends no SNI or names no TLS site:
    /// valid for `localhost`, 127.0.0.1 and ::1 only, like a server's default virtual host.
    pub fn issue_fallback(&self) -> Result<Arc<CertifiedKey>, Error> {
        let cert_err = |source| Error::Cert {
            name: FALLBACK_NAME.into(),
            source,
        };
        let mut params =
            CertificateParams::new(vec![FALLBACK_NAME.to_string()]).map_err(cert_err)?;
        params.subject_alt_names.extend([
            SanType::IpAddress(IpAddr::V4(Ipv4Addr::LOCALHOST)),
            SanType::IpAddress(IpAddr::V6(Ipv6Addr::LOCALHOST)),
        ]);
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        params.not_before = date_time_ymd(VALID_FROM_YEAR, 1, 1);
        params.not_after = date_time_ymd(VALID_UNTIL_YEAR, 1, 1);
        let cert = params
            .signed_by(&self.leaf_key, &self.issuer)
            .map_err(cert_err)?;
        Ok(Arc::new(CertifiedKey::new(
            vec![cert.der().clone()],
            Arc::clone(&self.leaf_signer),
        )))
    }
}

fn signer_for(key: &KeyPair) -> Result<Arc<dyn SigningKey>, Error> {
    let der = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der()));
    Ok(any_supported_type(&der)?)
}
