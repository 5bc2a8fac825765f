//! The API and agent surface documents: what puts a site in the population the survey's MCP
//! check is asked of ("It is asked only of a site where the scan saw an API or agent
//! surface"), beside the MCP evidence. One reader per document; each says whether the answer
//! counts, and a 200 HTML page (a soft 404) never does.
//!
//! - RFC 9727's API catalog: a Linkset (`{"linkset": [...]}`, not empty), its `application/linkset`
//!   text form, or another JSON document (RFC 9727 lets a publisher negotiate other formats,
//!   and the survey's `Accept` does not name Linkset's).
//! - The A2A agent card: an object with a `name` and a `url`, `supportedInterfaces` or
//!   `skills` (A2A 0.2 and 0.3 cards have `url`; 1.0's `supportedInterfaces`).
//! - RFC 9728's protected resource metadata (`resource`) and RFC 8414's authorization server
//!   metadata (`issuer`).
//! - The OpenAPI document a `service-desc` link names: JSON or YAML with a top-level `openapi`
//!   or `swagger` key. There is no YAML parser here: a YAML document counts when one of its
//!   top-level lines is that key with a value, and a JSON body cut at the cap when its first
//!   key is.

use mcpcensus_store::SurfaceSignal;
use serde_json::{Map, Value};
use url::Url;

use super::document::{looks_like_html, read_json, read_object, trimmed, DocumentParse, JsonKind};
use super::links::{parse_link_header, FoundLink, LinkKind};
use super::site::MeasuredSite;

/// A surface document's reading: `Parsed` when it counts, with a note for the document's log
/// when the reading is worth saying (another format than the usual, a cut body).
pub type SurfaceParse = DocumentParse<Option<&'static str>>;

/// The top-level keys that make a document an OpenAPI (3.x) or Swagger (2.0) description.
const OPENAPI_KEYS: [&str; 2] = ["openapi", "swagger"];

/// Reads the document that gives `signal` when it counts. `truncated`: the body was cut at
/// the byte cap (only the OpenAPI document, which can be large, reads a cut body).
pub fn read_surface(
    signal: SurfaceSignal,
    content_type: Option<&str>,
    body: &[u8],
    truncated: bool,
) -> SurfaceParse {
    match signal {
        SurfaceSignal::ApiCatalog => parse_api_catalog(content_type, body),
        SurfaceSignal::A2aAgentCard => parse_agent_card(content_type, body),
        SurfaceSignal::OauthProtectedResource => parse_protected_resource(content_type, body),
        SurfaceSignal::OauthAuthorizationServer => parse_auth_server(content_type, body),
        SurfaceSignal::Openapi => parse_openapi(content_type, body, truncated),
        // Link relations and MCP evidence are not documents of their own.
        SurfaceSignal::Mcp
        | SurfaceSignal::AiCatalog
        | SurfaceSignal::ServiceDesc
        | SurfaceSignal::ServiceDoc => DocumentParse::WrongShape {
            reason: format!("{signal} is not read from a document of its own"),
        },
    }
}

/// The OpenAPI document the scan asks for: the first homepage `service-desc` link (the header's
/// before the HTML's) that names a URL on the measured site without a user name or password.
/// One GET at most: a site's API descriptions beyond the first add no evidence.
pub fn service_desc_url(links: &[FoundLink], measured: &MeasuredSite) -> Option<Url> {
    links
        .iter()
        .filter(|link| link.kind == LinkKind::ServiceDesc)
        .filter_map(FoundLink::url)
        .find(|url| measured.contains(url) && url.username().is_empty() && url.password().is_none())
}

/// `/.well-known/api-catalog`.
pub fn parse_api_catalog(content_type: Option<&str>, body: &[u8]) -> SurfaceParse {
    // Linkset's other media type: the Link header's syntax (RFC 9264 §4.1).
    if content_type == Some("application/linkset") && !looks_like_html(trimmed(body)) {
        let text = String::from_utf8_lossy(trimmed(body));
        return if parse_link_header(&text).is_empty() {
            DocumentParse::WrongShape {
                reason: "an application/linkset body without a link".to_owned(),
            }
        } else {
            DocumentParse::Parsed(Some("a Linkset in its Link header form"))
        };
    }
    match read_json(content_type, body) {
        DocumentParse::Parsed(Value::Object(object)) => match object.get("linkset") {
            Some(Value::Array(links)) if !links.is_empty() => DocumentParse::Parsed(None),
            Some(Value::Array(_)) => DocumentParse::WrongShape {
                reason: "an empty linkset".to_owned(),
            },
            Some(other) => DocumentParse::WrongShape {
                reason: format!(
                    "linkset is a {}, not an array",
                    JsonKind::of(other).as_str()
                ),
            },
            None if object.is_empty() => empty_document(),
            None => DocumentParse::Parsed(Some("JSON, not a Linkset (RFC 9727 allows others)")),
        },
        DocumentParse::Parsed(Value::Array(items)) if !items.is_empty() => {
            DocumentParse::Parsed(Some("JSON, not a Linkset (RFC 9727 allows others)"))
        }
        DocumentParse::Parsed(Value::Array(_)) => empty_document(),
        DocumentParse::Parsed(other) => DocumentParse::WrongShape {
            reason: format!("a JSON {}, not a catalog", JsonKind::of(&other).as_str()),
        },
        other => other.map(|_| None),
    }
}

fn empty_document() -> SurfaceParse {
    DocumentParse::WrongShape {
        reason: "an empty JSON document".to_owned(),
    }
}

/// `/.well-known/agent-card.json`.
pub fn parse_agent_card(content_type: Option<&str>, body: &[u8]) -> SurfaceParse {
    read_object(content_type, body).and_then(|card| {
        if !has_text(&card, "name") {
            return Err("no name string (an A2A agent card names its agent)".to_owned());
        }
        let reachable = has_text(&card, "url")
            || matches!(card.get("supportedInterfaces"), Some(Value::Array(_)))
            || matches!(card.get("skills"), Some(Value::Array(_)));
        if reachable {
            Ok(None)
        } else {
            Err("no url, supportedInterfaces or skills (an A2A agent card has one)".to_owned())
        }
    })
}

/// OAuth metadata at the root: an object whose `key` is a non-empty string.
fn parse_metadata(
    content_type: Option<&str>,
    body: &[u8],
    key: &'static str,
    rfc: &'static str,
) -> SurfaceParse {
    read_object(content_type, body).and_then(|object| {
        if has_text(&object, key) {
            Ok(None)
        } else {
            Err(format!("no {key} string ({rfc} metadata has one)"))
        }
    })
}

/// RFC 9728's `/.well-known/oauth-protected-resource`.
pub fn parse_protected_resource(content_type: Option<&str>, body: &[u8]) -> SurfaceParse {
    parse_metadata(content_type, body, "resource", "RFC 9728")
}

/// RFC 8414's `/.well-known/oauth-authorization-server`.
pub fn parse_auth_server(content_type: Option<&str>, body: &[u8]) -> SurfaceParse {
    parse_metadata(content_type, body, "issuer", "RFC 8414")
}

/// The OpenAPI document a `service-desc` link names.
pub fn parse_openapi(content_type: Option<&str>, body: &[u8], truncated: bool) -> SurfaceParse {
    let text = trimmed(body);
    if text.is_empty() {
        return DocumentParse::Empty;
    }
    if text.starts_with(b"{") || text.starts_with(b"[") {
        return match read_json(content_type, body) {
            DocumentParse::Parsed(Value::Object(object)) if names_openapi(&object) => {
                DocumentParse::Parsed(None)
            }
            DocumentParse::Parsed(_) => no_openapi_key(),
            DocumentParse::NotJson { .. } if truncated && first_key_is_openapi(text) => {
                DocumentParse::Parsed(Some("cut at the cap; its first key names OpenAPI"))
            }
            other => other.map(|_| None),
        };
    }
    if looks_like_html(text) {
        return DocumentParse::Html;
    }
    if yaml_names_openapi(text) {
        DocumentParse::Parsed(Some("YAML"))
    } else if content_type.is_some_and(super::document::is_html_type) {
        DocumentParse::Html
    } else {
        no_openapi_key()
    }
}

fn no_openapi_key<T>() -> DocumentParse<T> {
    DocumentParse::WrongShape {
        reason: "no top-level openapi or swagger key".to_owned(),
    }
}

fn names_openapi(object: &Map<String, Value>) -> bool {
    OPENAPI_KEYS.iter().any(|key| has_text(object, key))
}

fn has_text(object: &Map<String, Value>, key: &str) -> bool {
    matches!(object.get(key), Some(Value::String(text)) if !text.trim().is_empty())
}

/// A JSON body cut short whose first member is `"openapi"` or `"swagger"` with a string.
fn first_key_is_openapi(text: &[u8]) -> bool {
    let Some(rest) = text.strip_prefix(b"{") else {
        return false;
    };
    let rest = rest.trim_ascii_start();
    OPENAPI_KEYS.iter().any(|key| {
        let quoted = format!("\"{key}\"");
        rest.strip_prefix(quoted.as_bytes())
            .map(<[u8]>::trim_ascii_start)
            .and_then(|after| after.strip_prefix(b":"))
            .is_some_and(|value| value.trim_ascii_start().starts_with(b"\""))
    })
}

/// A YAML document with a top-level `openapi:` or `swagger:` line (the key bare or quoted)
/// and a value on it.
fn yaml_names_openapi(text: &[u8]) -> bool {
    String::from_utf8_lossy(text).lines().any(|line| {
        OPENAPI_KEYS.iter().any(|key| {
            [key.to_string(), format!("\"{key}\""), format!("'{key}'")]
                .iter()
                .filter_map(|k| line.strip_prefix(k.as_str()))
                .filter_map(|after| after.trim_start().strip_prefix(':'))
                .any(|value| {
                    let value = value.trim();
                    !value.is_empty() && !value.starts_with('#')
                })
        })
    })
}
