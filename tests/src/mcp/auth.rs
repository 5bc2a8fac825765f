//! Authorization as a crawler sees it without credentials (notes §7, the deep probe): bearer
//! challenges, protected-resource metadata (RFC 9728) and authorization-server metadata
//! (RFC 8414 / OpenID) in the DCR, CIMD, XAA and unrecognised variants.

use serde_json::{json, Value};

use crate::record::RecordedRequest;
use crate::reply::Reply;
use crate::site::Site;

/// `grant_types_supported` value of RFC 7523 JWT bearer grants (the weak XAA hint).
pub const JWT_BEARER_GRANT: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/// `authorization_grant_profiles_supported` value of ID-JAG (the XAA signal).
pub const ID_JAG_PROFILE: &str = "urn:ietf:params:oauth:grant-profile:id-jag";
/// Root of the protected-resource metadata well-known URIs.
pub const PRM_WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// `scheme://host[:port]` of the request's site (the port every simulated site shares).
pub fn origin_of(req: &RecordedRequest) -> String {
    origin_for(req, &req.host)
}

/// `https://host[:port]` for another simulated host reached on the same port as `req`.
pub(crate) fn origin_for(req: &RecordedRequest, host: &str) -> String {
    let (scheme, default) = if req.tls {
        ("https", 443)
    } else {
        ("http", 80)
    };
    let port = req.local.port();
    if port == default {
        format!("{scheme}://{host}")
    } else {
        format!("{scheme}://{host}:{port}")
    }
}

/// What an endpoint answers a request without a valid bearer token.
#[derive(Clone, Debug)]
pub enum Challenge {
    /// Python SDK: 401, `Bearer error="invalid_token", error_description="Authentication
    /// required", resource_metadata="<origin>/.well-known/oauth-protected-resource<path>"`.
    PythonSdk,
    /// 401 `Bearer error="invalid_token", error_description="…"`, no `resource_metadata`.
    NoResourceMetadata,
    /// 401 `Bearer resource_metadata="…"` plus `scope="…"` when given (the spec's example).
    Spec {
        /// The `scope` parameter.
        scope: Option<String>,
    },
    /// A static API key: 401 `Bearer realm="mcp"`, no OAuth metadata anywhere.
    StaticKey,
    /// 401 with no `WWW-Authenticate`.
    Bare401,
    /// 403 with a JSON error and no challenge.
    Forbidden,
    /// Any reply.
    Custom(Reply),
}

/// A bearer-token requirement on an endpoint.
#[derive(Clone, Debug)]
pub struct BearerAuth {
    challenge: Challenge,
    tokens: Vec<String>,
    metadata_url: Option<String>,
}

impl BearerAuth {
    /// Refuses every request lacking an accepted token with `challenge`.
    pub fn new(challenge: Challenge) -> Self {
        Self {
            challenge,
            tokens: Vec::new(),
            metadata_url: None,
        }
    }

    /// The Python SDK's challenge.
    pub fn python_sdk() -> Self {
        Self::new(Challenge::PythonSdk)
    }

    /// Lets requests with `Authorization: Bearer <token>` through.
    pub fn accept_token(mut self, token: &str) -> Self {
        self.tokens.push(token.into());
        self
    }

    /// The `resource_metadata` URL, instead of the path-inserted one on the request's origin.
    pub fn metadata_url(mut self, url: &str) -> Self {
        self.metadata_url = Some(url.into());
        self
    }

    fn metadata_for(&self, req: &RecordedRequest) -> String {
        self.metadata_url.clone().unwrap_or_else(|| {
            let path = req.path_only();
            let path = if path == "/" { "" } else { path };
            format!("{}{PRM_WELL_KNOWN}{path}", origin_of(req))
        })
    }

    fn refusal(&self, req: &RecordedRequest) -> Reply {
        let body =
            json!({"error": "invalid_token", "error_description": "Authentication required"});
        match &self.challenge {
            Challenge::PythonSdk => Reply::json(body).with_status(401).header(
                "www-authenticate",
                format!(
                    "Bearer error=\"invalid_token\", error_description=\"Authentication required\", resource_metadata=\"{}\"",
                    self.metadata_for(req)
                ),
            ),
            Challenge::NoResourceMetadata => Reply::json(body).with_status(401).header(
                "www-authenticate",
                "Bearer error=\"invalid_token\", error_description=\"Authentication required\"",
            ),
            Challenge::Spec { scope } => {
                let mut value = format!("Bearer resource_metadata=\"{}\"", self.metadata_for(req));
                if let Some(scope) = scope {
                    value.push_str(&format!(", scope=\"{scope}\""));
                }
                Reply::json(body)
                    .with_status(401)
                    .header("www-authenticate", value)
            }
            Challenge::StaticKey => Reply::json(json!({"error": "missing or invalid API key"}))
                .with_status(401)
                .header("www-authenticate", "Bearer realm=\"mcp\""),
            Challenge::Bare401 => Reply::json(json!({"error": "unauthorized"})).with_status(401),
            Challenge::Forbidden => Reply::json(json!({"error": "forbidden"})).with_status(403),
            Challenge::Custom(reply) => reply.clone(),
        }
    }
}

/// The refusal when `auth` is set and the request carries no accepted token.
pub(crate) fn check(auth: Option<&BearerAuth>, req: &RecordedRequest) -> Option<Reply> {
    let auth = auth?;
    let token = req
        .header("authorization")
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| t.trim());
    match token {
        Some(t) if auth.tokens.iter().any(|ok| ok == t) => None,
        _ => Some(auth.refusal(req)),
    }
}

/// Where protected-resource metadata is served.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WellKnownAt {
    /// `/.well-known/oauth-protected-resource<endpoint path>`.
    PathInserted,
    /// `/.well-known/oauth-protected-resource`.
    Root,
    /// Both.
    #[default]
    Both,
}

/// A protected-resource metadata document (RFC 9728).
#[derive(Clone, Debug, Default)]
pub struct ProtectedResource {
    auth_servers: Vec<String>,
    scopes: Vec<String>,
    resource_name: Option<String>,
    resource: Option<String>,
}

impl ProtectedResource {
    /// Names one authorization server: a simulated host (`"auth.test"`, reached on the shared
    /// port), a host and issuer path (`"auth.test/tenant1"`), or an absolute URL.
    pub fn new(auth_server: &str) -> Self {
        Self::default().auth_server(auth_server)
    }

    /// A document with no `authorization_servers` (invalid for MCP).
    pub fn without_auth_servers() -> Self {
        Self::default()
    }

    /// Adds an authorization server (same forms as [`ProtectedResource::new`]).
    pub fn auth_server(mut self, auth_server: &str) -> Self {
        self.auth_servers.push(auth_server.into());
        self
    }

    /// `scopes_supported`.
    pub fn scopes(mut self, scopes: &[&str]) -> Self {
        self.scopes = scopes.iter().map(|s| s.to_string()).collect();
        self
    }

    /// `resource_name`.
    pub fn resource_name(mut self, name: &str) -> Self {
        self.resource_name = Some(name.into());
        self
    }

    /// `resource`, instead of the endpoint URL on the request's origin.
    pub fn resource(mut self, url: &str) -> Self {
        self.resource = Some(url.into());
        self
    }

    /// The document as served to `req` for the endpoint at `endpoint_path`.
    pub fn document(&self, req: &RecordedRequest, endpoint_path: &str) -> Value {
        let servers: Vec<String> = self
            .auth_servers
            .iter()
            .map(|s| {
                if s.contains("://") {
                    s.clone()
                } else {
                    let (host, path) = s.split_once('/').unwrap_or((s, ""));
                    let path = if path.is_empty() {
                        String::new()
                    } else {
                        format!("/{path}")
                    };
                    format!("{}{path}", origin_for(req, host))
                }
            })
            .collect();
        let resource = self
            .resource
            .clone()
            .unwrap_or_else(|| format!("{}{endpoint_path}", origin_of(req)));
        let mut doc = json!({
            "resource": resource,
            "authorization_servers": servers,
            "bearer_methods_supported": ["header"],
        });
        if !self.scopes.is_empty() {
            doc["scopes_supported"] = json!(self.scopes);
        }
        if let Some(name) = &self.resource_name {
            doc["resource_name"] = json!(name);
        }
        doc
    }
}

/// How an authorization server lets clients register (what its metadata signals).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Registration {
    /// `registration_endpoint` (RFC 7591).
    Dcr,
    /// `client_id_metadata_document_supported: true`, no registration endpoint.
    Cimd,
    /// Both signals.
    CimdAndDcr,
    /// Cross-app access: no registration endpoint; `grant_types_supported` with the JWT
    /// bearer grant and/or `authorization_grant_profiles_supported` with ID-JAG.
    Xaa {
        /// Adds [`JWT_BEARER_GRANT`] to `grant_types_supported`.
        jwt_bearer: bool,
        /// Adds `authorization_grant_profiles_supported: [ID_JAG_PROFILE]`.
        id_jag: bool,
    },
    /// None of the above.
    Unknown,
}

/// Which well-known document names serve the metadata.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MetadataAt {
    /// `/.well-known/oauth-authorization-server[/issuer path]` (RFC 8414).
    #[default]
    OAuth,
    /// `/.well-known/openid-configuration[/issuer path]` and
    /// `[/issuer path]/.well-known/openid-configuration`.
    OpenId,
    /// All of them.
    Both,
}

/// An authorization server's metadata, with `issuer` equal to the URL it is served for.
#[derive(Clone, Debug)]
pub struct AuthServer {
    registration: Registration,
    issuer_path: String,
    at: MetadataAt,
    issuer_override: Option<String>,
    scopes: Vec<String>,
}

impl AuthServer {
    /// Metadata at the RFC 8414 root of the site, issuer = the site's origin.
    pub fn new(registration: Registration) -> Self {
        Self {
            registration,
            issuer_path: String::new(),
            at: MetadataAt::OAuth,
            issuer_override: None,
            scopes: Vec::new(),
        }
    }

    /// Dynamic client registration (what the Python SDK's example AS offers).
    pub fn dcr() -> Self {
        Self::new(Registration::Dcr)
    }

    /// Client ID metadata documents.
    pub fn cimd() -> Self {
        Self::new(Registration::Cimd)
    }

    /// Cross-app access with both signals.
    pub fn xaa() -> Self {
        Self::new(Registration::Xaa {
            jwt_bearer: true,
            id_jag: true,
        })
    }

    /// Nothing recognisable.
    pub fn unknown() -> Self {
        Self::new(Registration::Unknown)
    }

    /// The issuer's path (`"/tenant1"`), for issuers with a path.
    pub fn issuer_path(mut self, path: &str) -> Self {
        self.issuer_path = path.trim_end_matches('/').into();
        self
    }

    /// Which well-known names serve it.
    pub fn at(mut self, at: MetadataAt) -> Self {
        self.at = at;
        self
    }

    /// A wrong `issuer` (to test that clients reject a mismatch).
    pub fn issuer_override(mut self, issuer: &str) -> Self {
        self.issuer_override = Some(issuer.into());
        self
    }

    /// `scopes_supported`.
    pub fn scopes(mut self, scopes: &[&str]) -> Self {
        self.scopes = scopes.iter().map(|s| s.to_string()).collect();
        self
    }

    /// The paths the metadata is served at.
    pub fn paths(&self) -> Vec<String> {
        let p = &self.issuer_path;
        let mut paths = Vec::new();
        if matches!(self.at, MetadataAt::OAuth | MetadataAt::Both) {
            paths.push(format!("/.well-known/oauth-authorization-server{p}"));
        }
        if matches!(self.at, MetadataAt::OpenId | MetadataAt::Both) {
            paths.push(format!("/.well-known/openid-configuration{p}"));
            if !p.is_empty() {
                paths.push(format!("{p}/.well-known/openid-configuration"));
            }
        }
        paths
    }

    /// The document as served to `req`.
    pub fn document(&self, req: &RecordedRequest) -> Value {
        let issuer = self
            .issuer_override
            .clone()
            .unwrap_or_else(|| format!("{}{}", origin_of(req), self.issuer_path));
        let base = format!("{}{}", origin_of(req), self.issuer_path);
        let mut grants = vec![
            Value::from("authorization_code"),
            Value::from("refresh_token"),
        ];
        let mut doc = json!({
            "issuer": issuer,
            "authorization_endpoint": format!("{base}/authorize"),
            "token_endpoint": format!("{base}/token"),
            "response_types_supported": ["code"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["client_secret_post", "none"],
        });
        match self.registration {
            Registration::Dcr => doc["registration_endpoint"] = json!(format!("{base}/register")),
            Registration::Cimd => doc["client_id_metadata_document_supported"] = json!(true),
            Registration::CimdAndDcr => {
                doc["registration_endpoint"] = json!(format!("{base}/register"));
                doc["client_id_metadata_document_supported"] = json!(true);
            }
            Registration::Xaa { jwt_bearer, id_jag } => {
                if jwt_bearer {
                    grants.push(Value::from(JWT_BEARER_GRANT));
                }
                if id_jag {
                    doc["authorization_grant_profiles_supported"] = json!([ID_JAG_PROFILE]);
                }
            }
            Registration::Unknown => {}
        }
        doc["grant_types_supported"] = Value::Array(grants);
        if !self.scopes.is_empty() {
            doc["scopes_supported"] = json!(self.scopes);
        }
        if matches!(self.at, MetadataAt::OpenId | MetadataAt::Both) {
            doc["jwks_uri"] = json!(format!("{base}/jwks"));
            doc["subject_types_supported"] = json!(["public"]);
            doc["id_token_signing_alg_values_supported"] = json!(["RS256"]);
        }
        doc
    }
}

impl Site {
    /// Serves `prm` for the endpoint at `endpoint_path` at the path-inserted and/or root
    /// well-known URI.
    pub fn protected_resource(
        self,
        endpoint_path: &str,
        prm: &ProtectedResource,
        at: WellKnownAt,
    ) -> Self {
        let path = if endpoint_path == "/" {
            ""
        } else {
            endpoint_path
        };
        let mut paths = Vec::new();
        if matches!(at, WellKnownAt::PathInserted | WellKnownAt::Both) && !path.is_empty() {
            paths.push(format!("{PRM_WELL_KNOWN}{path}"));
        }
        if matches!(at, WellKnownAt::Root | WellKnownAt::Both) || path.is_empty() {
            paths.push(PRM_WELL_KNOWN.to_string());
        }
        let mut site = self;
        for well_known in paths {
            let prm = prm.clone();
            let endpoint = endpoint_path.to_string();
            site = site.route_method(
                "GET",
                &well_known,
                Reply::handler(move |req| Reply::json(prm.document(req, &endpoint))),
            );
        }
        site
    }

    /// Serves `server`'s metadata at its well-known paths.
    pub fn authorization_server(self, server: &AuthServer) -> Self {
        let mut site = self;
        for path in server.paths() {
            let server = server.clone();
            site = site.route_method(
                "GET",
                &path,
                Reply::handler(move |req| Reply::json(server.document(req))),
            );
        }
        site
    }
}
