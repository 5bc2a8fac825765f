//! The MCP client over HTTP that the survey session and the deep probe share: JSON-RPC
//! messages, the SSE parser, the answer reader (JSON or event stream, the first message with
//! the request's id, a byte cap, the server's requests before it, an excerpt), an open event
//! stream, and the headers and challenges (RFC 9110 §11.6.1) of the transport. Each caller keeps only its own
//! rules: the session its three POSTs and verdict, the probe its budget and sequence.

mod answer;
mod challenge;
mod framing;
mod http;
mod message;
mod sse;
mod stream;

#[cfg(test)]
mod tests;

pub use answer::{answer_event, read_answer, read_excerpt, Body, NoAnswer, ReadAnswer};
pub use challenge::{Challenge, Challenges, Problem, MAX_CHALLENGES, MAX_PARAMS};
pub use framing::Framing;
pub use http::{challenge, rpc_headers, MCP_PROTOCOL_VERSION, MCP_SESSION_ID, RPC_ACCEPT};
pub use message::{
    answer_in, answer_in_body, answering_message, answers, id_matches, read_message, server_call,
    Answer, Message, RpcError,
};
pub use sse::{SseEvent, SseParser};
pub use stream::EventStream;
