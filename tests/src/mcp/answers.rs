//! Results a simulated MCP server computes, independent of transport and dialect.

use serde_json::{json, Map, Value};

use super::server::{Spec, META_SERVER_INFO};
use super::tools;

/// A JSON-RPC error to answer instead of a result.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RpcFailure {
    pub(crate) code: i64,
    pub(crate) message: String,
    pub(crate) data: Option<Value>,
}

impl RpcFailure {
    pub(crate) fn new(code: i64, message: &str) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }

    pub(crate) fn method_not_found() -> Self {
        Self::new(-32601, "Method not found")
    }
}

/// Changes a fault makes to a normal answer.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tweak {
    /// Answer this error instead of the result.
    pub(crate) error: Option<RpcFailure>,
    /// Pad the result to at least this many bytes.
    pub(crate) oversize: Option<usize>,
}

/// Which list a `*/list` request asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ListKind {
    Tools,
    Resources,
    Prompts,
}

impl ListKind {
    pub(crate) fn from_method(method: &str) -> Option<Self> {
        match method {
            "tools/list" => Some(Self::Tools),
            "resources/list" => Some(Self::Resources),
            "prompts/list" => Some(Self::Prompts),
            _ => None,
        }
    }

    fn key(self) -> &'static str {
        match self {
            Self::Tools => "tools",
            Self::Resources => "resources",
            Self::Prompts => "prompts",
        }
    }
}

/// The 2025-era `InitializeResult` for the version the client offered.
pub(crate) fn initialize_result(spec: &Spec, params: Option<&Value>) -> Value {
    let offered = params
        .and_then(|p| p.get("protocolVersion"))
        .and_then(Value::as_str);
    let mut result = json!({
        "protocolVersion": spec.negotiate(offered),
        "capabilities": spec.capabilities(),
        "serverInfo": spec.server_info(),
    });
    if let Some(text) = &spec.instructions {
        result["instructions"] = Value::String(text.clone());
    }
    result
}

/// The 2026-07-28 `DiscoverResult`.
pub(crate) fn discover_result(spec: &Spec) -> Value {
    let mut result = json!({
        "supportedVersions": spec.discover_versions,
        "capabilities": spec.capabilities(),
    });
    if let Some(text) = &spec.instructions {
        result["instructions"] = Value::String(text.clone());
    }
    modern_envelope(spec, &mut result, true);
    result
}

/// Adds `resultType`, `_meta.serverInfo` and (for lists) `ttlMs` and `cacheScope`.
pub(crate) fn modern_envelope(spec: &Spec, result: &mut Value, cacheable: bool) {
    let Some(object) = result.as_object_mut() else {
        return;
    };
    object.insert("resultType".into(), Value::String("complete".into()));
    let meta = object
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(meta) = meta.as_object_mut() {
        meta.insert(META_SERVER_INFO.into(), spec.server_info());
    }
    if cacheable {
        object.insert("ttlMs".into(), json!(spec.ttl_ms));
        object.insert("cacheScope".into(), Value::String(spec.cache_scope.clone()));
    }
}

/// Whether the server answers this list at all.
pub(crate) fn lists(spec: &Spec, kind: ListKind) -> bool {
    match kind {
        ListKind::Tools => spec.tools_capability,
        ListKind::Resources => !spec.resources.is_empty(),
        ListKind::Prompts => !spec.prompts.is_empty(),
    }
}

/// One page of a list; the cursor is `page-<offset>`.
pub(crate) fn list_page(
    spec: &Spec,
    kind: ListKind,
    params: Option<&Value>,
    oversize: Option<usize>,
) -> Result<Value, RpcFailure> {
    let items: Vec<Value> = match kind {
        ListKind::Tools => match oversize {
            Some(bytes) => tools::padded(&spec.tools, bytes),
            None => spec.tools.iter().map(tools::Tool::to_json).collect(),
        },
        ListKind::Resources => spec
            .resources
            .iter()
            .map(|(u, n)| tools::resource_json(u, n))
            .collect(),
        ListKind::Prompts => spec.prompts.iter().map(|n| tools::prompt_json(n)).collect(),
    };
    let start = match params.and_then(|p| p.get("cursor")) {
        None | Some(Value::Null) => 0,
        Some(cursor) => cursor
            .as_str()
            .and_then(|c| c.strip_prefix("page-"))
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|n| *n <= items.len())
            .ok_or_else(|| RpcFailure::new(-32602, "Invalid cursor"))?,
    };
    let size = spec.page_size.unwrap_or(usize::MAX);
    let end = start.saturating_add(size).min(items.len());
    let mut result = json!({ kind.key(): items[start..end] });
    if end < items.len() {
        result["nextCursor"] = Value::String(format!("page-{end}"));
    }
    if kind != ListKind::Tools {
        pad(&mut result, oversize);
    }
    Ok(result)
}

/// Adds `_meta.padding` so the result takes at least `oversize` bytes.
pub(crate) fn pad(result: &mut Value, oversize: Option<usize>) {
    let Some(bytes) = oversize else {
        return;
    };
    let Some(object) = result.as_object_mut() else {
        return;
    };
    let meta = object
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(meta) = meta.as_object_mut() {
        meta.insert("padding".into(), Value::String("x".repeat(bytes)));
    }
}

/// The 2025-era answer to a request (not a notification), as result or error.
pub(crate) fn answer_2025(
    spec: &Spec,
    method: &str,
    params: Option<&Value>,
    tweak: &Tweak,
) -> Result<Value, RpcFailure> {
    if let Some(error) = &tweak.error {
        return Err(error.clone());
    }
    let mut result = match method {
        "initialize" => initialize_result(spec, params),
        "ping" => json!({}),
        _ => match ListKind::from_method(method) {
            Some(kind) if lists(spec, kind) => {
                return list_page(spec, kind, params, tweak.oversize)
            }
            _ => return Err(RpcFailure::method_not_found()),
        },
    };
    pad(&mut result, tweak.oversize);
    Ok(result)
}

/// A JSON-RPC response message for `id`.
pub(crate) fn response(id: Value, outcome: Result<Value, RpcFailure>) -> Value {
    match outcome {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Err(e) => super::framing::rpc_error(id, e.code, &e.message, e.data),
    }
}
