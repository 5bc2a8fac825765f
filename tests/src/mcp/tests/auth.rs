//! Bearer challenges, protected-resource metadata and authorization-server metadata.

use serde_json::json;

use super::*;
use crate::mcp::{
    AuthServer, BearerAuth, Challenge, McpServer, MetadataAt, ProtectedResource, Registration,
    WellKnownAt, ID_JAG_PROFILE, JWT_BEARER_GRANT,
};
use crate::selftest::client::get;

/// The quoted parameter `name` of a challenge.
fn param(challenge: &str, name: &str) -> Option<String> {
    let start = challenge.find(&format!("{name}=\""))? + name.len() + 2;
    let end = challenge[start..].find('"')? + start;
    Some(challenge[start..end].to_string())
}

async fn get_json(web: &SimWeb, url: &str) -> (u16, Value) {
    let rest = url.split_once("://").unwrap().1;
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let host = authority.split(':').next().unwrap();
    let answer = get(web, host, if path.is_empty() { "/" } else { path })
        .await
        .unwrap();
    (
        answer.status,
        serde_json::from_slice(&answer.body).unwrap_or(Value::Null),
    )
}

#[tokio::test]
async fn challenge_then_protected_resource_then_authorization_server() {
    let server =
        McpServer::python_stateless().bearer_auth(BearerAuth::python_sdk().accept_token("good"));
    let web = web([
        Site::new("locked.test")
            .mcp("/mcp", &server)
            .protected_resource(
                "/mcp",
                &ProtectedResource::new("auth.test").scopes(&["mcp"]),
                WellKnownAt::Both,
            ),
        Site::new("auth.test").authorization_server(&AuthServer::dcr()),
    ])
    .await;
    let refused = post(
        &web,
        "locked.test",
        "/mcp",
        &initialize(1, "2025-11-25"),
        &[],
    )
    .await;
    assert_eq!(refused.status, 401);
    let challenge = header(&refused, "www-authenticate").unwrap().to_string();
    assert!(challenge.starts_with("Bearer error=\"invalid_token\", error_description=\""));
    let prm_url = param(&challenge, "resource_metadata").unwrap();
    assert_eq!(
        prm_url,
        format!(
            "https://locked.test:{}/.well-known/oauth-protected-resource/mcp",
            web.port()
        )
    );
    assert_eq!(
        call(&web, "GET", "locked.test", "/mcp", &[("accept", "*/*")], "")
            .await
            .status,
        401
    );

    let (status, prm) = get_json(&web, &prm_url).await;
    assert_eq!(status, 200);
    assert_eq!(prm["resource"], web.url("locked.test", "/mcp"));
    assert_eq!(prm["scopes_supported"], json!(["mcp"]));
    let issuer = prm["authorization_servers"][0]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(issuer, web.origin("auth.test"));
    let (_, root) = get_json(
        &web,
        &web.url("locked.test", "/.well-known/oauth-protected-resource"),
    )
    .await;
    assert_eq!(root, prm);

    let (status, meta) = get_json(
        &web,
        &format!("{issuer}/.well-known/oauth-authorization-server"),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(meta["issuer"], issuer);
    assert_eq!(meta["code_challenge_methods_supported"], json!(["S256"]));
    assert_eq!(meta["registration_endpoint"], format!("{issuer}/register"));
    assert!(meta.get("client_id_metadata_document_supported").is_none());

    let allowed = post(
        &web,
        "locked.test",
        "/mcp",
        &initialize(1, "2025-11-25"),
        &[("authorization", "Bearer good")],
    )
    .await;
    assert_eq!(allowed.status, 200);
}

#[tokio::test]
async fn registration_variants_and_well_known_names() {
    let web = web([
        Site::new("cimd.test").authorization_server(&AuthServer::cimd()),
        Site::new("xaa.test").authorization_server(&AuthServer::new(Registration::Xaa {
            jwt_bearer: true,
            id_jag: false,
        })),
        Site::new("jag.test").authorization_server(
            &AuthServer::xaa()
                .issuer_path("/tenant1")
                .at(MetadataAt::Both),
        ),
        Site::new("unknown.test")
            .authorization_server(&AuthServer::unknown().at(MetadataAt::OpenId)),
    ])
    .await;
    let (_, cimd) = get_json(
        &web,
        &web.url("cimd.test", "/.well-known/oauth-authorization-server"),
    )
    .await;
    assert_eq!(cimd["client_id_metadata_document_supported"], true);
    assert!(cimd.get("registration_endpoint").is_none());

    let (_, xaa) = get_json(
        &web,
        &web.url("xaa.test", "/.well-known/oauth-authorization-server"),
    )
    .await;
    assert!(xaa["grant_types_supported"]
        .as_array()
        .unwrap()
        .contains(&json!(JWT_BEARER_GRANT)));
    assert!(xaa.get("authorization_grant_profiles_supported").is_none());
    assert!(xaa.get("registration_endpoint").is_none());

    let issuer = format!("{}/tenant1", web.origin("jag.test"));
    for path in [
        "/.well-known/oauth-authorization-server/tenant1",
        "/.well-known/openid-configuration/tenant1",
        "/tenant1/.well-known/openid-configuration",
    ] {
        let (status, doc) = get_json(&web, &web.url("jag.test", path)).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(doc["issuer"], issuer);
        assert_eq!(
            doc["authorization_grant_profiles_supported"],
            json!([ID_JAG_PROFILE])
        );
    }
    assert_eq!(
        get_json(
            &web,
            &web.url("jag.test", "/.well-known/oauth-authorization-server")
        )
        .await
        .0,
        404
    );

    let (status, unknown) = get_json(
        &web,
        &web.url("unknown.test", "/.well-known/openid-configuration"),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(unknown["code_challenge_methods_supported"], json!(["S256"]));
    for key in [
        "registration_endpoint",
        "client_id_metadata_document_supported",
        "authorization_grant_profiles_supported",
    ] {
        assert!(unknown.get(key).is_none(), "{key}");
    }
}

#[tokio::test]
async fn challenge_variants() {
    let web = web([
        Site::new("nometa.test").mcp(
            "/mcp",
            &McpServer::new().bearer_auth(BearerAuth::new(Challenge::NoResourceMetadata)),
        ),
        Site::new("key.test").mcp(
            "/mcp",
            &McpServer::new().bearer_auth(BearerAuth::new(Challenge::StaticKey)),
        ),
        Site::new("bare.test").mcp(
            "/mcp",
            &McpServer::new().bearer_auth(BearerAuth::new(Challenge::Bare401)),
        ),
        Site::new("forbid.test").mcp(
            "/mcp",
            &McpServer::new().bearer_auth(BearerAuth::new(Challenge::Forbidden)),
        ),
        Site::new("spec.test").mcp(
            "/api/mcp",
            &McpServer::new().bearer_auth(BearerAuth::new(Challenge::Spec {
                scope: Some("files:read".into()),
            })),
        ),
    ])
    .await;
    let init = initialize(1, "2025-11-25");
    let nometa = post(&web, "nometa.test", "/mcp", &init, &[]).await;
    let value = header(&nometa, "www-authenticate").unwrap();
    assert!(value.contains("invalid_token") && !value.contains("resource_metadata"));
    let key = post(&web, "key.test", "/mcp", &init, &[]).await;
    assert_eq!(
        (key.status, header(&key, "www-authenticate")),
        (401, Some("Bearer realm=\"mcp\""))
    );
    assert_eq!(
        get(&web, "key.test", "/.well-known/oauth-protected-resource")
            .await
            .unwrap()
            .status,
        404
    );
    let bare = post(&web, "bare.test", "/mcp", &init, &[]).await;
    assert_eq!(
        (bare.status, header(&bare, "www-authenticate")),
        (401, None)
    );
    assert_eq!(
        post(&web, "forbid.test", "/mcp", &init, &[]).await.status,
        403
    );
    let spec = post(&web, "spec.test", "/api/mcp", &init, &[]).await;
    let value = header(&spec, "www-authenticate").unwrap();
    assert_eq!(param(value, "scope").as_deref(), Some("files:read"));
    assert!(param(value, "resource_metadata")
        .unwrap()
        .ends_with("/.well-known/oauth-protected-resource/api/mcp"));
}
