//! Authentication as the probe sees it without credentials (spec notes §7, the deep probe): where
//! the protected-resource metadata (RFC 9728) and the authorization-server metadata (RFC 8414 /
//! OpenID) are looked for, in the spec's order, and how the documents read are classified.

use mcpcensus_store::{AuthInfo, AuthKind};
use serde_json::Value;
use url::Url;

use crate::mcp::Challenges;

/// `grant_types_supported` value of RFC 7523 JWT bearer grants.
pub const JWT_BEARER_GRANT: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/// `authorization_grant_profiles_supported` value of ID-JAG (cross-app access).
pub const ID_JAG_PROFILE: &str = "urn:ietf:params:oauth:grant-profile:id-jag";
const PRM_WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// What the probe read about authentication after a 401 or 403.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AuthFacts {
    /// The `WWW-Authenticate` challenge, when one was sent.
    pub challenge: Option<String>,
    /// The protected-resource metadata read, and its URL.
    pub prm: Option<(String, Value)>,
    /// The authorization-server metadata read, and its URL.
    pub as_metadata: Option<(String, Value)>,
    /// Every metadata document read (answered with a JSON object).
    pub metadata_urls: Vec<String>,
}

/// The `resource_metadata` parameter (RFC 9728 §5.1) of the challenges: a `Bearer` one's
/// first, else any scheme's.
pub fn resource_metadata_param(challenge: &str) -> Option<String> {
    Challenges::parse(challenge)
        .param("Bearer", "resource_metadata")
        .filter(|value| !value.is_empty())
        .map(str::to_owned)
}

/// Where to look for the protected-resource metadata: the challenge's URL when it names one,
/// else the path-inserted well-known URI, then the root one.
pub fn prm_candidates(endpoint: &Url, challenge: Option<&str>) -> Vec<Url> {
    if let Some(url) = challenge
        .and_then(resource_metadata_param)
        .and_then(|u| endpoint.join(&u).ok())
    {
        return vec![url];
    }
    let mut out = Vec::new();
    let path = endpoint.path().trim_end_matches('/');
    if !path.is_empty() {
        if let Ok(u) = endpoint.join(&format!("{PRM_WELL_KNOWN}{path}")) {
            out.push(u);
        }
    }
    if let Ok(u) = endpoint.join(PRM_WELL_KNOWN) {
        out.push(u);
    }
    out
}

/// Where to look for an issuer's metadata, in the spec's order (RFC 8414, then OpenID).
pub fn as_metadata_candidates(issuer: &Url) -> Vec<Url> {
    let path = issuer.path().trim_end_matches('/');
    let join = |p: String| issuer.join(&p).ok();
    let list = if path.is_empty() {
        vec![
            join("/.well-known/oauth-authorization-server".to_owned()),
            join("/.well-known/openid-configuration".to_owned()),
        ]
    } else {
        vec![
            join(format!("/.well-known/oauth-authorization-server{path}")),
            join(format!("/.well-known/openid-configuration{path}")),
            join(format!("{path}/.well-known/openid-configuration")),
        ]
    };
    list.into_iter().flatten().collect()
}

/// The first authorization server a protected-resource document names.
pub fn first_authorization_server(prm: &Value) -> Option<Url> {
    prm.get("authorization_servers")?
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .find_map(|s| Url::parse(s).ok())
}

/// 2026-07-28: the document's `issuer` must equal the issuer the URL was built from.
pub fn issuer_matches(doc: &Value, issuer: &Url) -> bool {
    let want = issuer.as_str().trim_end_matches('/');
    doc.get("issuer")
        .and_then(Value::as_str)
        .is_some_and(|got| got.trim_end_matches('/') == want)
}

fn has_string(doc: &Value, key: &str, want: &str) -> bool {
    doc.get(key)
        .and_then(Value::as_array)
        .is_some_and(|items| items.iter().any(|v| v.as_str() == Some(want)))
}

/// The deep probe's kinds: Static key (refused, no OAuth metadata), OAuth CIMD
/// (`client_id_metadata_document_supported`), OAuth DCR (`registration_endpoint`, no CIMD), XAA
/// (a JWT-bearer grant or the ID-JAG profile, and no registration endpoint), Unknown (metadata
/// found, nothing recognised).
pub fn auth_kind(facts: &AuthFacts) -> AuthKind {
    let Some((_, doc)) = &facts.as_metadata else {
        return if facts.prm.is_some() {
            AuthKind::Unknown
        } else {
            AuthKind::StaticKey
        };
    };
    let registration = doc
        .get("registration_endpoint")
        .and_then(Value::as_str)
        .is_some_and(|s| !s.is_empty());
    if doc.get("client_id_metadata_document_supported") == Some(&Value::Bool(true)) {
        AuthKind::OauthCimd
    } else if registration {
        AuthKind::OauthDcr
    } else if has_string(
        doc,
        "authorization_grant_profiles_supported",
        ID_JAG_PROFILE,
    ) || has_string(doc, "grant_types_supported", JWT_BEARER_GRANT)
    {
        AuthKind::Xaa
    } else {
        AuthKind::Unknown
    }
}

/// The record's `auth` for a server that refused the probe.
pub fn classify_auth(facts: &AuthFacts) -> AuthInfo {
    AuthInfo {
        kind: auth_kind(facts),
        challenge: facts.challenge.clone(),
        resource_metadata_url: facts.prm.as_ref().map(|(u, _)| u.clone()),
        authorization_servers: facts
            .prm
            .as_ref()
            .and_then(|(_, d)| d.get("authorization_servers"))
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default(),
        metadata_urls: facts.metadata_urls.clone(),
    }
}

/// The record's `auth` for a server that answered without credentials.
pub fn no_auth() -> AuthInfo {
    AuthInfo {
        kind: AuthKind::None,
        challenge: None,
        resource_metadata_url: None,
        authorization_servers: Vec::new(),
        metadata_urls: Vec::new(),
    }
}

/// The record's `auth` for a server that answered but whose tool list was not seen, so whether
/// it needs credentials is not known.
pub fn unseen_auth() -> AuthInfo {
    AuthInfo {
        kind: AuthKind::Unknown,
        ..no_auth()
    }
}
