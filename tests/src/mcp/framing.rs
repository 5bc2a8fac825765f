//! How answers leave a simulated MCP server: JSON or an event stream, and HTTP-level errors.

use serde_json::{json, Value};

use super::server::{Framing, Spec};
use crate::reply::Reply;
use crate::sse::SseEvent;

/// A JSON-RPC error object.
pub(crate) fn rpc_error(id: Value, code: i64, message: &str, data: Option<Value>) -> Value {
    let mut error = json!({"code": code, "message": message});
    if let Some(data) = data {
        error["data"] = data;
    }
    json!({"jsonrpc": "2.0", "id": id, "error": error})
}

/// An HTTP-level error: `status` with a JSON-RPC error body (id `null`), always JSON.
pub(crate) fn http_error(status: u16, code: i64, message: &str) -> Reply {
    Reply::json(rpc_error(Value::Null, code, message, None)).with_status(status)
}

/// [`http_error`] with `data`.
pub(crate) fn http_error_data(status: u16, code: i64, message: &str, data: Value) -> Reply {
    Reply::json(rpc_error(Value::Null, code, message, Some(data))).with_status(status)
}

/// A JSON-RPC answer (result or error object) framed as the server is configured, HTTP 200.
pub(crate) fn framed(spec: &Spec, message: &Value) -> Reply {
    match spec.framing {
        Framing::Json => Reply::json(message.clone()),
        Framing::Sse => sse_answer(spec, message),
    }
}

fn sse_answer(spec: &Spec, message: &Value) -> Reply {
    let style = &spec.sse;
    let mut events = Vec::new();
    let mut next_id = 1u64;
    if style.priming {
        let mut priming = SseEvent::priming("0");
        if let Some(ms) = style.retry_ms {
            priming = priming.retry(ms);
        }
        events.push(encode(priming, style.crlf));
    }
    for note in &style.notifications {
        events.push(message_event(
            note,
            style.ids.then_some(next_id),
            style.crlf,
        ));
        next_id += 1;
    }
    for _ in 0..style.keep_alives {
        events.push(encode(SseEvent::comment("keep-alive"), style.crlf));
    }
    events.push(message_event(
        message,
        style.ids.then_some(next_id),
        style.crlf,
    ));
    let events = events.into_iter().map(|e| e.after(style.gap));
    let reply = Reply::sse(events).header("x-accel-buffering", "no");
    if style.keep_open {
        reply.keep_open()
    } else {
        reply
    }
}

/// `event: message`, an optional id, and the JSON on one `data:` line.
pub(crate) fn message_event(message: &Value, id: Option<u64>, crlf: bool) -> SseEvent {
    let mut event = SseEvent::message(message);
    if let Some(id) = id {
        event = event.id(id.to_string());
    }
    encode(event, crlf)
}

/// The event as is, or rewritten with `\r\n` line ends.
fn encode(event: SseEvent, crlf: bool) -> SseEvent {
    if !crlf {
        return event;
    }
    let text = String::from_utf8_lossy(&event.encode()).replace('\n', "\r\n");
    SseEvent::raw(text).after(event.delay())
}
