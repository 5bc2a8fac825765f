//! Server cards and `/.well-known/mcp.json` manifests, read leniently. One struct serves both:
//! the manifest has no standard shape and in the wild it carries the same fields as the older
//! cards, so the audit reads every field of either from the same place.

use serde_json::{Map, Value};

use super::document::{not_an_object, raw_json, read_object, DocumentParse, Field, JsonKind};

/// A card or manifest as found. Every field keeps absent / wrong type / value apart.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedCard {
    /// `$schema`.
    pub schema: Field<String>,
    pub name: Field<String>,
    pub version: Field<String>,
    pub description: Field<String>,
    pub title: Field<String>,
    /// `websiteUrl`.
    pub website_url: Field<String>,
    pub remotes: Field<Vec<Remote>>,
    /// The current card must not carry tools; manifests and older cards do.
    pub tools: Field<Vec<ToolEntry>>,
    // The older shapes from here on.
    /// `serverInfo{name, version}`.
    pub server_info: Field<ServerInfo>,
    /// `transport{type, endpoint|url}`, or `transport: "<type>"`.
    pub transport: Field<LegacyTransport>,
    pub endpoint: Field<String>,
    pub url: Field<String>,
    pub capabilities: Field<Map<String, Value>>,
    pub resources: Field<Vec<Value>>,
    /// `protocolVersion` (manifests, older cards).
    pub protocol_version: Field<String>,
    /// A top-level `supportedProtocolVersions`, seen in some manifests.
    pub supported_protocol_versions: Field<Vec<String>>,
    /// The top-level keys, sorted.
    pub keys: Vec<String>,
}

/// One `remotes[]` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Remote {
    /// `Some` when the entry is not an object (then every field is absent).
    pub not_object: Option<JsonKind>,
    /// `type`.
    pub transport: Field<String>,
    pub url: Field<String>,
    /// Non-string items are kept as compact JSON, so they never look like a revision.
    pub supported_protocol_versions: Field<Vec<String>>,
    pub headers: Field<Vec<Value>>,
    pub variables: Field<Map<String, Value>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ServerInfo {
    pub name: Field<String>,
    pub version: Field<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct LegacyTransport {
    /// `type`, or the string `transport` itself.
    pub kind: Field<String>,
    /// `endpoint`, else `url`.
    pub url: Field<String>,
}

/// One `tools[]` item: an object, or a bare name.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolEntry {
    pub name: Field<String>,
    pub description: Field<String>,
    /// The item was a bare string, taken as the name.
    pub bare: bool,
}

impl ToolEntry {
    fn read(value: &Value) -> ToolEntry {
        match value {
            Value::String(name) => ToolEntry {
                name: Field::Present(name.clone()),
                description: Field::Absent,
                bare: true,
            },
            Value::Object(object) => ToolEntry {
                name: Field::string(object, "name"),
                description: Field::string(object, "description"),
                bare: false,
            },
            other => ToolEntry {
                name: Field::WrongType {
                    kind: JsonKind::of(other),
                    raw: raw_json(other),
                },
                description: Field::Absent,
                bare: false,
            },
        }
    }

    /// A description with something in it.
    pub fn has_description(&self) -> bool {
        self.description
            .text()
            .is_some_and(|text| !text.trim().is_empty())
    }
}

/// Which generation of shapes a document follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardShape {
    /// `$schema` or `remotes`.
    Current,
    /// Only pre-SEP fields (`serverInfo`, `transport`, `endpoint`, `url`, `capabilities`,
    /// `protocolVersion`).
    Older,
    /// None of the above.
    Unknown,
}

/// The transport a document declares for an endpoint URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RemoteTransport {
    StreamableHttp,
    Sse,
    /// A bare `url`/`endpoint` of the older shapes, which never carried a type.
    Implied,
    /// A `remotes[]` entry without `type` (the schema requires it).
    Missing,
    Other(String),
}

impl RemoteTransport {
    /// Exact, as a validating client compares: `Streamable-HTTP` is not `streamable-http`.
    fn of(declared: &Field<String>, absent: RemoteTransport) -> RemoteTransport {
        match declared {
            Field::Absent => absent,
            Field::WrongType { raw, .. } => RemoteTransport::Other(raw.clone()),
            Field::Present(text) => match text.as_str() {
                "streamable-http" => RemoteTransport::StreamableHttp,
                "sse" => RemoteTransport::Sse,
                _ => RemoteTransport::Other(text.clone()),
            },
        }
    }
}

/// Where in the document an endpoint URL came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RemoteSource {
    /// `remotes[i]`.
    Remote(usize),
    Transport,
    Endpoint,
    Url,
}

/// An endpoint URL as the document wrote it (possibly relative or templated).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteRef {
    pub url: String,
    pub transport: RemoteTransport,
    pub source: RemoteSource,
}

impl ParsedCard {
    fn read(object: &Map<String, Value>) -> ParsedCard {
        ParsedCard {
            schema: Field::string(object, "$schema"),
            name: Field::string(object, "name"),
            version: Field::string(object, "version"),
            description: Field::string(object, "description"),
            title: Field::string(object, "title"),
            website_url: Field::string(object, "websiteUrl"),
            remotes: Field::array(object, "remotes", Remote::read),
            tools: Field::array(object, "tools", ToolEntry::read),
            server_info: match Field::object(object, "serverInfo") {
                Field::Present(info) => Field::Present(ServerInfo {
                    name: Field::string(&info, "name"),
                    version: Field::string(&info, "version"),
                }),
                Field::Absent => Field::Absent,
                Field::WrongType { kind, raw } => Field::WrongType { kind, raw },
            },
            transport: LegacyTransport::read(object.get("transport")),
            endpoint: Field::string(object, "endpoint"),
            url: Field::string(object, "url"),
            capabilities: Field::object(object, "capabilities"),
            resources: Field::array(object, "resources", Value::clone),
            protocol_version: Field::string(object, "protocolVersion"),
            supported_protocol_versions: Field::array(
                object,
                "supportedProtocolVersions",
                text_or_json,
            ),
            keys: object.keys().cloned().collect(),
        }
    }

    pub fn shape(&self) -> CardShape {
        if self.schema.is_present() || self.remotes.is_present() {
            CardShape::Current
        } else if self.server_info.is_present()
            || self.transport.is_present()
            || self.endpoint.is_present()
            || self.url.is_present()
            || self.capabilities.is_present()
            || self.protocol_version.is_present()
        {
            CardShape::Older
        } else {
            CardShape::Unknown
        }
    }

    /// The server's name: `name`, else `serverInfo.name`.
    pub fn server_name(&self) -> Option<&str> {
        self.name
            .text()
            .or_else(|| self.server_info.get().and_then(|info| info.name.text()))
            .filter(|name| !name.trim().is_empty())
    }

    /// Whether the document names a server at all (the discovery audit's "hit"): a name or an
    /// endpoint URL. `{}` or a JSON error object served with 200 does not.
    pub fn names_server(&self) -> bool {
        self.server_name().is_some() || !self.remote_refs().is_empty()
    }

    /// The endpoint URLs the document names, in document order: each `remotes[]` entry with a
    /// string `url`. Only a document without `remotes` falls back to the older fields
    /// (`transport.endpoint|url`, then `endpoint`, then `url`): in a current card a stray
    /// top-level `url` is more likely a website than an endpoint.
    pub fn remote_refs(&self) -> Vec<RemoteRef> {
        if let Field::Present(remotes) = &self.remotes {
            return remotes
                .iter()
                .enumerate()
                .filter_map(|(index, remote)| {
                    Some(RemoteRef {
                        url: remote.url.text()?.to_owned(),
                        transport: RemoteTransport::of(&remote.transport, RemoteTransport::Missing),
                        source: RemoteSource::Remote(index),
                    })
                })
                .collect();
        }
        if self.remotes.is_present() {
            return Vec::new();
        }
        let declared = self
            .transport
            .get()
            .map_or(&Field::Absent, |transport| &transport.kind);
        let transport = RemoteTransport::of(declared, RemoteTransport::Implied);
        let legacy = [
            (
                self.transport.get().and_then(|t| t.url.text()),
                RemoteSource::Transport,
            ),
            (self.endpoint.text(), RemoteSource::Endpoint),
            (self.url.text(), RemoteSource::Url),
        ];
        legacy
            .into_iter()
            .filter_map(|(url, source)| {
                Some(RemoteRef {
                    url: url?.to_owned(),
                    transport: transport.clone(),
                    source,
                })
            })
            .collect()
    }
}

impl Remote {
    fn read(value: &Value) -> Remote {
        let empty = Map::new();
        let (object, not_object) = match value {
            Value::Object(object) => (object, None),
            other => (&empty, Some(JsonKind::of(other))),
        };
        Remote {
            not_object,
            transport: Field::string(object, "type"),
            url: Field::string(object, "url"),
            supported_protocol_versions: Field::array(
                object,
                "supportedProtocolVersions",
                text_or_json,
            ),
            headers: Field::array(object, "headers", Value::clone),
            variables: Field::object(object, "variables"),
        }
    }
}

impl LegacyTransport {
    fn read(value: Option<&Value>) -> Field<LegacyTransport> {
        match value {
            None => Field::Absent,
            Some(Value::String(kind)) => Field::Present(LegacyTransport {
                kind: Field::Present(kind.clone()),
                url: Field::Absent,
            }),
            Some(Value::Object(object)) => {
                let url = match Field::string(object, "endpoint") {
                    Field::Absent => Field::string(object, "url"),
                    endpoint => endpoint,
                };
                Field::Present(LegacyTransport {
                    kind: Field::string(object, "type"),
                    url,
                })
            }
            Some(other) => Field::WrongType {
                kind: JsonKind::of(other),
                raw: raw_json(other),
            },
        }
    }
}

fn text_or_json(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => raw_json(other),
    }
}

/// Reads a fetched card or manifest. `content_type` is the media type (see `media_type`).
pub fn parse_card(content_type: Option<&str>, body: &[u8]) -> DocumentParse<ParsedCard> {
    read_object(content_type, body).map(|object| ParsedCard::read(&object))
}

/// Reads a card given inline (an AI catalog entry's `data`).
pub fn parse_card_value(value: &Value) -> DocumentParse<ParsedCard> {
    match value {
        Value::Object(object) => DocumentParse::Parsed(ParsedCard::read(object)),
        other => not_an_object(other),
    }
}
