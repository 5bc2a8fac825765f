//! Certificate-chain signatures checked once: a census meets the same issuer signatures on
//! site after site (every Let's Encrypt leaf's intermediate signed by its root, a hosting
//! provider's wildcard or multi-name certificate on thousands of names), and each check is a
//! public-key operation (an ECDSA P-256 verify costs more than the rest of a plain site's
//! requests together). Only the signature arithmetic is remembered: webpki still builds the path,
//! checks validity dates, key usage and the name on every connection, and the handshake's own
//! signature (fresh on every connection) is checked by the provider directly, never cached.
//!
//! A success is remembered under the SHA-256 of the algorithm, public key, message and signature
//! (length-prefixed), so only the very same check can hit; failures are never remembered. The
//! memory is bounded: two generations of at most [`GENERATION`] entries, a hit in the older one
//! moving it to the newer, so the few issuer signatures seen on every site stay while the
//! one-off leaf signatures age out.

use std::collections::HashSet;
use std::fmt;
use std::sync::{Arc, Mutex};

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::hash::Hash;
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, CryptoProvider};
use rustls::{DigitallySignedStruct, Error, RootCertStore, SignatureScheme};
use rustls_pki_types::{
    AlgorithmIdentifier, CertificateDer, InvalidSignature, ServerName,
    SignatureVerificationAlgorithm, UnixTime,
};

/// Entries in one generation of remembered signatures (32 bytes each and the set's overhead:
/// ~100 KB a generation at most).
pub const GENERATION: usize = 2048;

/// Successful signature checks, by digest.
pub struct SignatureCache {
    hash: &'static dyn Hash,
    generations: Mutex<Generations>,
}

#[derive(Default)]
struct Generations {
    newer: HashSet<Digest>,
    older: HashSet<Digest>,
    hits: u64,
}

type Digest = [u8; 32];

impl SignatureCache {
    /// A cache hashing with `hash` (the provider's SHA-256).
    pub fn new(hash: &'static dyn Hash) -> Self {
        Self {
            hash,
            generations: Mutex::default(),
        }
    }

    /// How many checks were answered from the cache.
    #[cfg(test)]
    pub fn hits(&self) -> u64 {
        self.lock().hits
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Generations> {
        // A panic while holding this lock leaves only sets of digests behind: still sound.
        self.generations
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn digest(&self, alg: &dyn SignatureVerificationAlgorithm, parts: [&[u8]; 3]) -> Digest {
        let mut context = self.hash.start();
        let ids = [alg.public_key_alg_id(), alg.signature_alg_id()];
        for part in ids.iter().map(AlgorithmIdentifier::as_ref).chain(parts) {
            context.update(&(part.len() as u64).to_be_bytes());
            context.update(part);
        }
        let output = context.finish();
        let mut digest = [0; 32];
        let bytes = output.as_ref();
        digest[..bytes.len().min(32)].copy_from_slice(&bytes[..bytes.len().min(32)]);
        digest
    }

    fn contains(&self, digest: &Digest) -> bool {
        let mut generations = self.lock();
        let found = generations.newer.contains(digest) || {
            let older = generations.older.remove(digest);
            if older {
                generations.insert(*digest);
            }
            older
        };
        generations.hits += u64::from(found);
        found
    }

    fn insert(&self, digest: Digest) {
        self.lock().insert(digest);
    }
}

impl Generations {
    fn insert(&mut self, digest: Digest) {
        if self.newer.len() >= GENERATION {
            self.older = std::mem::take(&mut self.newer);
        }
        self.newer.insert(digest);
    }
}

impl fmt::Debug for SignatureCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let generations = self.lock();
        f.debug_struct("SignatureCache")
            .field("newer", &generations.newer.len())
            .field("older", &generations.older.len())
            .field("hits", &generations.hits)
            .finish()
    }
}

/// One of the provider's algorithms, answering from the cache when it can.
struct Remembered {
    inner: &'static dyn SignatureVerificationAlgorithm,
    cache: Arc<SignatureCache>,
}

impl fmt::Debug for Remembered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Remembered({:?})", self.inner)
    }
}

impl SignatureVerificationAlgorithm for Remembered {
    fn verify_signature(
        &self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        let digest = self
            .cache
            .digest(self.inner, [public_key, message, signature]);
        if self.cache.contains(&digest) {
            return Ok(());
        }
        self.inner
            .verify_signature(public_key, message, signature)?;
        self.cache.insert(digest);
        Ok(())
    }

    fn public_key_alg_id(&self) -> AlgorithmIdentifier {
        self.inner.public_key_alg_id()
    }

    fn signature_alg_id(&self) -> AlgorithmIdentifier {
        self.inner.signature_alg_id()
    }

    fn fips(&self) -> bool {
        self.inner.fips()
    }
}

/// webpki's server-certificate verifier with the chain's signatures remembered, and the
/// handshake signature checked by the provider's own algorithms.
pub struct ChainVerifier {
    chains: Arc<WebPkiServerVerifier>,
    handshake: WebPkiSupportedAlgorithms,
    cache: Arc<SignatureCache>,
}

impl fmt::Debug for ChainVerifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChainVerifier")
            .field("cache", &self.cache)
            .finish_non_exhaustive()
    }
}

impl ChainVerifier {
    /// A verifier trusting `roots`, with `provider`'s algorithms. The remembering algorithms
    /// are leaked: rustls takes them by `'static` reference, and a crawl builds one client
    /// configuration (a few hundred bytes each time one is built).
    pub fn new(roots: RootCertStore, provider: &CryptoProvider) -> Result<Self, Error> {
        let algorithms = provider.signature_verification_algorithms;
        let hash = provider
            .cipher_suites
            .iter()
            .filter_map(|suite| suite.tls13())
            .map(|suite| suite.common.hash_provider)
            .find(|hash| hash.output_len() == 32)
            .ok_or_else(|| Error::General("the TLS provider has no SHA-256".into()))?;
        let cache = Arc::new(SignatureCache::new(hash));
        let remember = |alg: &'static dyn SignatureVerificationAlgorithm| {
            let wrapped: &'static dyn SignatureVerificationAlgorithm =
                Box::leak(Box::new(Remembered {
                    inner: alg,
                    cache: Arc::clone(&cache),
                }));
            wrapped
        };
        let all: &'static [&'static dyn SignatureVerificationAlgorithm] = Box::leak(
            algorithms
                .all
                .iter()
                .map(|alg| remember(*alg))
                .collect::<Vec<_>>()
                .into_boxed_slice(),
        );
        let mut chain_provider = provider.clone();
        chain_provider.signature_verification_algorithms = WebPkiSupportedAlgorithms {
            all,
            // webpki's chain checks use `all` only; the mapping serves handshake signatures,
            // which this verifier checks with the provider's own algorithms.
            mapping: algorithms.mapping,
        };
        let chains =
            WebPkiServerVerifier::builder_with_provider(Arc::new(roots), Arc::new(chain_provider))
                .build()
                .map_err(|e| Error::General(format!("certificate verifier: {e}")))?;
        Ok(Self {
            chains,
            handshake: algorithms,
            cache,
        })
    }

    /// The cache, to read its hits.
    #[cfg(test)]
    pub fn cache(&self) -> &SignatureCache {
        &self.cache
    }
}

impl ServerCertVerifier for ChainVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, Error> {
        self.chains
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        verify_tls12_signature(message, cert, dss, &self.handshake)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        verify_tls13_signature(message, cert, dss, &self.handshake)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.handshake.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use rcgen::{
        date_time_ymd, BasicConstraints, CertificateParams, DistinguishedName, DnType, IsCa,
        Issuer, KeyPair,
    };
    use rustls::crypto::ring::default_provider;

    use super::*;

    /// A CA named `cn`, and a leaf it signed for `*.bench.test`, valid until 2030.
    fn pki(cn: &str) -> (CertificateDer<'static>, CertificateDer<'static>) {
        let ca_key = KeyPair::generate().expect("ca key");
        let mut ca_params = CertificateParams::new(Vec::<String>::new()).expect("ca params");
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        let mut name = DistinguishedName::new();
        name.push(DnType::CommonName, cn);
        ca_params.distinguished_name = name;
        let ca = ca_params.self_signed(&ca_key).expect("ca cert");
        let issuer = Issuer::new(ca_params, ca_key);
        let mut leaf_params =
            CertificateParams::new(vec!["*.bench.test".to_owned()]).expect("leaf params");
        leaf_params.not_after = date_time_ymd(2030, 1, 1);
        let leaf = leaf_params
            .signed_by(&KeyPair::generate().expect("leaf key"), &issuer)
            .expect("leaf cert");
        (ca.der().clone(), leaf.der().clone())
    }

    fn verifier(ca: &CertificateDer<'static>) -> ChainVerifier {
        let mut roots = RootCertStore::empty();
        roots.add(ca.clone()).expect("root");
        ChainVerifier::new(roots, &default_provider()).expect("verifier")
    }

    fn at(year_secs: u64) -> UnixTime {
        UnixTime::since_unix_epoch(Duration::from_secs(year_secs))
    }

    const DEC_2026: u64 = 1_796_000_000;
    const JAN_2031: u64 = 1_925_000_000;

    fn check(
        v: &ChainVerifier,
        leaf: &CertificateDer<'_>,
        name: &'static str,
        now: u64,
    ) -> Result<ServerCertVerified, Error> {
        let name = ServerName::try_from(name).expect("name");
        v.verify_server_cert(leaf, &[], &name, &[], at(now))
    }

    #[test]
    fn the_chain_signature_is_checked_once_and_everything_else_on_every_connection() {
        let (ca, leaf) = pki("bench CA");
        let v = verifier(&ca);
        check(&v, &leaf, "site1.bench.test", DEC_2026).expect("first site");
        assert_eq!(v.cache().hits(), 0);
        check(&v, &leaf, "site2.bench.test", DEC_2026).expect("second site");
        assert_eq!(
            v.cache().hits(),
            1,
            "the CA's signature on the leaf is remembered"
        );
        // The name, the dates: still checked, with the signature remembered.
        let wrong_name = check(&v, &leaf, "site1.other.test", DEC_2026);
        assert!(
            matches!(wrong_name, Err(Error::InvalidCertificate(_))),
            "{wrong_name:?}"
        );
        let expired = check(&v, &leaf, "site1.bench.test", JAN_2031);
        assert!(
            matches!(expired, Err(Error::InvalidCertificate(_))),
            "{expired:?}"
        );
    }

    #[test]
    fn a_remembered_signature_never_vouches_for_another_certificate() {
        let (ca, leaf) = pki("bench CA");
        // Another CA with the same name: its leaf names the trusted CA as issuer.
        let (_, impostor) = pki("bench CA");
        let mut tampered = leaf.to_vec();
        let last = tampered.len() - 1;
        tampered[last] ^= 1;
        let tampered = CertificateDer::from(tampered);
        let v = verifier(&ca);
        for _ in 0..2 {
            check(&v, &leaf, "site1.bench.test", DEC_2026).expect("genuine");
            for bad in [&impostor, &tampered] {
                let result = check(&v, bad, "site1.bench.test", DEC_2026);
                assert!(
                    matches!(result, Err(Error::InvalidCertificate(_))),
                    "{result:?}"
                );
            }
        }
        assert_eq!(
            v.cache().hits(),
            1,
            "only the genuine leaf's second check hit"
        );
    }

    #[test]
    fn memory_stays_bounded_and_a_signature_seen_on_every_site_stays() {
        let cache = SignatureCache::new(default_hash());
        let common = [7; 32];
        cache.insert(common);
        for i in 0..(5 * GENERATION) as u32 {
            let mut one_off = [0; 32];
            one_off[..4].copy_from_slice(&i.to_be_bytes());
            one_off[31] = 1;
            assert!(!cache.contains(&one_off));
            cache.insert(one_off);
            assert!(cache.contains(&common), "lost after {i} one-off signatures");
            let generations = cache.lock();
            assert!(generations.newer.len() + generations.older.len() <= 2 * GENERATION);
        }
    }

    fn default_hash() -> &'static dyn Hash {
        default_provider()
            .cipher_suites
            .iter()
            .filter_map(|suite| suite.tls13())
            .map(|suite| suite.common.hash_provider)
            .find(|hash| hash.output_len() == 32)
            .expect("SHA-256")
    }
}
