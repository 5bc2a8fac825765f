//! `WWW-Authenticate` challenges: the RFC 9110 parser over one line and over the input split
//! into several lines (at newlines), its `resource_metadata` parameter, where the protected
//! resource metadata is then looked for, and the auth classification.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcpcensus::mcp::{Challenges, MAX_CHALLENGES, MAX_PARAMS};
use mcpcensus::probe::{
    auth_kind, classify_auth, prm_candidates, resource_metadata_param, AuthFacts,
};

fuzz_target!(|data: &[u8]| {
    let challenge = String::from_utf8_lossy(data).into_owned();
    for read in [
        Challenges::parse(&challenge),
        Challenges::parse_lines(challenge.split('\n')),
    ] {
        assert!(read.challenges.len() <= MAX_CHALLENGES);
        assert!(read.challenges.iter().all(|c| c.params.len() <= MAX_PARAMS));
    }
    let _ = resource_metadata_param(&challenge);
    let endpoint = url::Url::parse("https://fuzz.test/mcp").expect("static URL");
    let _ = prm_candidates(&endpoint, Some(&challenge));
    let facts = AuthFacts {
        challenge: Some(challenge),
        ..AuthFacts::default()
    };
    let _ = auth_kind(&facts);
    let _ = classify_auth(&facts);
});
