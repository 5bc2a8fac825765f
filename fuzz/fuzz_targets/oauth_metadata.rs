//! Protected-resource (RFC 9728) and authorization-server (RFC 8414) metadata documents.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcpcensus::probe::{
    as_metadata_candidates, classify_auth, first_authorization_server, issuer_matches, AuthFacts,
};

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    if let Some(issuer) = first_authorization_server(&doc) {
        let _ = as_metadata_candidates(&issuer);
        let _ = issuer_matches(&doc, &issuer);
    }
    let facts = AuthFacts {
        challenge: Some("Bearer".to_owned()),
        prm: Some((
            "https://fuzz.test/.well-known/oauth-protected-resource".to_owned(),
            doc.clone(),
        )),
        as_metadata: Some((
            "https://auth.fuzz.test/.well-known/oauth-authorization-server".to_owned(),
            doc,
        )),
        metadata_urls: Vec::new(),
    };
    let _ = classify_auth(&facts);
});
