//! Where the metadata is looked for, and the auth kinds.

use mcpcensus_store::AuthKind;
use serde_json::json;
use url::Url;

use crate::probe::{
    as_metadata_candidates, auth_kind, prm_candidates, resource_metadata_param, AuthFacts,
};

fn urls(list: Vec<Url>) -> Vec<String> {
    list.into_iter().map(String::from).collect()
}

#[test]
fn prm_is_looked_for_at_the_challenge_url_else_the_well_known_uris_in_order() {
    let endpoint = Url::parse("https://example.com/public/mcp").unwrap();
    assert_eq!(
        urls(prm_candidates(&endpoint, None)),
        [
            "https://example.com/.well-known/oauth-protected-resource/public/mcp",
            "https://example.com/.well-known/oauth-protected-resource"
        ]
    );
    let challenge = r#"Bearer resource_metadata="https://mcp.example.com/prm", scope="files:read""#;
    assert_eq!(
        resource_metadata_param(challenge).as_deref(),
        Some("https://mcp.example.com/prm")
    );
    assert_eq!(
        urls(prm_candidates(&endpoint, Some(challenge))),
        ["https://mcp.example.com/prm"]
    );
    assert_eq!(resource_metadata_param(r#"Bearer realm="mcp""#), None);
}

#[test]
fn resource_metadata_is_a_parameter_read_by_rfc_9110_not_a_substring() {
    // Text inside another parameter's quoted value is not a parameter.
    let challenge = r#"Basic realm="resource_metadata=https://decoy.test/, x", Bearer RESOURCE_METADATA="https://x/.well-known/oauth-protected-resource""#;
    assert_eq!(
        resource_metadata_param(challenge).as_deref(),
        Some("https://x/.well-known/oauth-protected-resource")
    );
    // A Bearer challenge's is preferred; another scheme's is read when no Bearer one has it.
    let challenge = r#"DPoP resource_metadata="https://dpop.test/prm", Bearer resource_metadata="https://bearer.test/prm""#;
    assert_eq!(
        resource_metadata_param(challenge).as_deref(),
        Some("https://bearer.test/prm")
    );
    assert_eq!(
        resource_metadata_param(r#"DPoP resource_metadata="https://dpop.test/prm""#).as_deref(),
        Some("https://dpop.test/prm")
    );
    // An escaped quote stays in the value; an empty value or a token68 is none.
    assert_eq!(
        resource_metadata_param(r#"Bearer resource_metadata="https://x.test/a\"b""#).as_deref(),
        Some(r#"https://x.test/a"b"#)
    );
    assert_eq!(
        resource_metadata_param(r#"Bearer resource_metadata="""#),
        None
    );
    assert_eq!(
        resource_metadata_param("Negotiate resource_metadata=="),
        None
    );
}

#[test]
fn as_metadata_paths_follow_the_spec_order() {
    let root = Url::parse("https://auth.example.com").unwrap();
    assert_eq!(
        urls(as_metadata_candidates(&root)),
        [
            "https://auth.example.com/.well-known/oauth-authorization-server",
            "https://auth.example.com/.well-known/openid-configuration"
        ]
    );
    let tenant = Url::parse("https://auth.example.com/tenant1").unwrap();
    assert_eq!(
        urls(as_metadata_candidates(&tenant)),
        [
            "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
            "https://auth.example.com/.well-known/openid-configuration/tenant1",
            "https://auth.example.com/tenant1/.well-known/openid-configuration"
        ]
    );
}

fn with_as(doc: serde_json::Value) -> AuthFacts {
    AuthFacts {
        prm: Some(("p".into(), json!({"authorization_servers": ["https://a"]}))),
        as_metadata: Some(("a".into(), doc)),
        ..AuthFacts::default()
    }
}

#[test]
fn auth_kinds() {
    assert_eq!(auth_kind(&AuthFacts::default()), AuthKind::StaticKey);
    let prm_only = AuthFacts {
        prm: Some(("p".into(), json!({}))),
        ..AuthFacts::default()
    };
    assert_eq!(auth_kind(&prm_only), AuthKind::Unknown);
    assert_eq!(
        auth_kind(&with_as(
            json!({"registration_endpoint": "https://a/register"})
        )),
        AuthKind::OauthDcr
    );
    assert_eq!(
        auth_kind(&with_as(
            json!({"registration_endpoint": "https://a/register",
            "client_id_metadata_document_supported": true})
        )),
        AuthKind::OauthCimd
    );
    assert_eq!(
        auth_kind(&with_as(json!({"authorization_grant_profiles_supported":
            ["urn:ietf:params:oauth:grant-profile:id-jag"]}))),
        AuthKind::Xaa
    );
    assert_eq!(
        auth_kind(&with_as(json!({"grant_types_supported":
            ["authorization_code", "urn:ietf:params:oauth:grant-type:jwt-bearer"]}))),
        AuthKind::Xaa
    );
    assert_eq!(
        auth_kind(&with_as(
            json!({"grant_types_supported": ["authorization_code"]})
        )),
        AuthKind::Unknown
    );
}
