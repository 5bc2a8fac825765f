//! HTTP/2 misbehaviour a hyper server never shows: a connection refused with GOAWAY, streams
//! reset, a send window that never opens, SETTINGS and CONTINUATION floods. A site with an
//! [`H2Fault`] is served by this module instead of hyper whenever the client negotiates h2.
//!
//! The faults on the MCP endpoint (GOAWAY, RST_STREAM, zero window) are served with the `h2`
//! crate: the homepage answers normally and names `/mcp`, so the survey's session meets the
//! fault. The floods are written as raw frames (the `h2` crate refuses to send them) from the
//! connection's first request on.

use std::time::Duration;

use bytes::Bytes;
use h2::Reason;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// What the site's HTTP/2 connections do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum H2Fault {
    /// A POST to `/mcp` gets GOAWAY (ENHANCE_YOUR_CALM) and the connection closes.
    GoAwayOnMcp,
    /// A POST to `/mcp` gets RST_STREAM (REFUSED_STREAM: "safe to retry"), every time.
    ResetOnMcp,
    /// The server's SETTINGS give every stream a send window of 0: no request body can be
    /// sent, so no POST ever arrives whole.
    ZeroWindow,
    /// Before any answer, SETTINGS frames without end (each asks for an ACK).
    SettingsFlood,
    /// The first request's answer is a HEADERS frame followed by CONTINUATION frames without end.
    ContinuationFlood,
    /// GOAWAY with last stream 0 before any answer: every request "not processed", on every
    /// connection (a client that retries such requests without a bound never stops).
    GoAwayAtOnce,
}

/// Frames (or bytes) a flood sends at most before it closes the connection.
const FLOOD_FRAMES: usize = 200_000;
/// How long a faulty connection is kept at most.
const CONN_LIMIT: Duration = Duration::from_secs(60);
/// The homepage of every faulty site: it names the MCP endpoint.
const HOME: &str = "<!doctype html><title>h2</title>";

const PREFACE_LEN: usize = 24;
const FRAME_HEADERS: u8 = 0x1;
const FRAME_SETTINGS: u8 = 0x4;
const FRAME_GOAWAY: u8 = 0x7;
const FRAME_CONTINUATION: u8 = 0x9;
const SETTINGS_MAX_CONCURRENT_STREAMS: u16 = 0x3;

/// Serves one TLS connection that negotiated h2, with `fault`.
pub(crate) async fn serve<S>(io: S, fault: H2Fault)
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let served = async {
        match fault {
            H2Fault::GoAwayOnMcp | H2Fault::ResetOnMcp | H2Fault::ZeroWindow => {
                with_h2(io, fault).await;
            }
            H2Fault::SettingsFlood | H2Fault::ContinuationFlood | H2Fault::GoAwayAtOnce => {
                if let Err(e) = raw(io, fault).await {
                    tracing::trace!(error = %e, ?fault, "raw h2 connection ended");
                }
            }
        }
    };
    let _ = tokio::time::timeout(CONN_LIMIT, served).await;
}

async fn with_h2<S>(io: S, fault: H2Fault)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let mut builder = h2::server::Builder::new();
    if fault == H2Fault::ZeroWindow {
        builder.initial_window_size(0);
    }
    let Ok(mut conn) = builder.handshake::<_, Bytes>(io).await else {
        return;
    };
    while let Some(Ok((request, mut respond))) = conn.accept().await {
        let is_mcp = request.uri().path() == "/mcp" && request.method() == http::Method::POST;
        if is_mcp && fault == H2Fault::GoAwayOnMcp {
            conn.abrupt_shutdown(Reason::ENHANCE_YOUR_CALM);
            // Polled on until the GOAWAY is out and the connection closes.
            while let Some(Ok(_)) = conn.accept().await {}
            return;
        }
        if is_mcp && fault == H2Fault::ResetOnMcp {
            respond.send_reset(Reason::REFUSED_STREAM);
            continue;
        }
        if is_mcp && fault == H2Fault::ZeroWindow {
            // The answer waits for a body the window never lets the client send.
            tokio::spawn(tokio::time::timeout(CONN_LIMIT, async move {
                let mut body = request.into_body();
                // Ends with the connection (an error), or never while it lives.
                while let Some(Ok(_)) = body.data().await {}
                drop(respond);
            }));
            continue;
        }
        // Everything else is plain.
        let (status, body) = if request.uri().path() == "/" {
            (200, HOME)
        } else {
            (404, "not found")
        };
        let mut answer = http::Response::builder()
            .status(status)
            .header("content-type", "text/html");
        if status == 200 {
            answer = answer.header("link", "</mcp>; rel=\"mcp\"");
        }
        let Ok(answer) = answer.body(()) else {
            return;
        };
        if let Ok(mut send) = respond.send_response(answer, false) {
            let _ = send.send_data(Bytes::from_static(body.as_bytes()), true);
        }
    }
}

/// One HTTP/2 frame: 9-byte header, then the payload.
fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let len = u32::try_from(payload.len())
        .unwrap_or(u32::MAX)
        .to_be_bytes();
    let mut out = Vec::with_capacity(9 + payload.len());
    out.extend_from_slice(&len[1..]);
    out.push(kind);
    out.push(flags);
    out.extend_from_slice(&(stream & 0x7fff_ffff).to_be_bytes());
    out.extend_from_slice(payload);
    out
}

/// An HPACK integer with an `n`-bit prefix (RFC 7541 §5.1), its first byte OR-ed with `high`.
fn hpack_int(value: usize, n: u32, high: u8, out: &mut Vec<u8>) {
    let max = (1usize << n) - 1;
    if value < max {
        out.push(high | value as u8);
        return;
    }
    out.push(high | max as u8);
    let mut rest = value - max;
    while rest >= 128 {
        out.push((rest % 128) as u8 | 0x80);
        rest /= 128;
    }
    out.push(rest as u8);
}

/// A literal header field without indexing, new name, no Huffman (RFC 7541 §6.2.2).
fn hpack_literal(name: &str, value: &str, out: &mut Vec<u8>) {
    out.push(0x00);
    hpack_int(name.len(), 7, 0, out);
    out.extend_from_slice(name.as_bytes());
    hpack_int(value.len(), 7, 0, out);
    out.extend_from_slice(value.as_bytes());
}

/// Reads the client's frames, discarding them; returns the stream of its first HEADERS.
async fn first_request<R: AsyncRead + Unpin>(read: &mut R) -> std::io::Result<u32> {
    let mut preface = [0u8; PREFACE_LEN];
    read.read_exact(&mut preface).await?;
    loop {
        let mut head = [0u8; 9];
        read.read_exact(&mut head).await?;
        let len = u32::from_be_bytes([0, head[0], head[1], head[2]]) as usize;
        let stream = u32::from_be_bytes([head[5], head[6], head[7], head[8]]) & 0x7fff_ffff;
        let mut payload = vec![0u8; len];
        read.read_exact(&mut payload).await?;
        if head[3] == FRAME_HEADERS {
            return Ok(stream);
        }
    }
}

async fn raw<S>(io: S, fault: H2Fault) -> std::io::Result<()>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (mut read, mut write) = tokio::io::split(io);
    write.write_all(&frame(FRAME_SETTINGS, 0, 0, &[])).await?;
    let stream = first_request(&mut read).await?;
    // From here the client's frames (ACKs, WINDOW_UPDATEs, RST_STREAM) are read and dropped,
    // so its writes never block on us.
    let drain = tokio::spawn(async move {
        let mut sink = vec![0u8; 16 * 1024];
        while matches!(read.read(&mut sink).await, Ok(n) if n > 0) {}
    });
    let result = match fault {
        H2Fault::SettingsFlood => settings_flood(&mut write).await,
        H2Fault::ContinuationFlood => continuation_flood(&mut write, stream).await,
        _ => {
            // Last stream 0, NO_ERROR: nothing was processed.
            let payload = [0u8; 8];
            write
                .write_all(&frame(FRAME_GOAWAY, 0, 0, &payload))
                .await?;
            write.shutdown().await
        }
    };
    drain.abort();
    result
}

async fn settings_flood<W: AsyncWrite + Unpin>(write: &mut W) -> std::io::Result<()> {
    let mut setting = Vec::with_capacity(6);
    setting.extend_from_slice(&SETTINGS_MAX_CONCURRENT_STREAMS.to_be_bytes());
    setting.extend_from_slice(&100u32.to_be_bytes());
    let one = frame(FRAME_SETTINGS, 0, 0, &setting);
    let batch: Vec<u8> = one.iter().copied().cycle().take(one.len() * 1000).collect();
    for _ in 0..FLOOD_FRAMES / 1000 {
        write.write_all(&batch).await?;
    }
    write.shutdown().await
}

async fn continuation_flood<W: AsyncWrite + Unpin>(
    write: &mut W,
    stream: u32,
) -> std::io::Result<()> {
    // `:status: 200` is entry 8 of the static table; END_HEADERS never comes.
    write
        .write_all(&frame(FRAME_HEADERS, 0, stream, &[0x88]))
        .await?;
    let mut block = Vec::new();
    for i in 0..16 {
        hpack_literal(&format!("x-flood-{i}"), &"f".repeat(1000), &mut block);
    }
    let one = frame(FRAME_CONTINUATION, 0, stream, &block);
    for _ in 0..FLOOD_FRAMES {
        write.write_all(&one).await?;
    }
    write.shutdown().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_have_the_nine_byte_header() {
        let f = frame(FRAME_GOAWAY, 0, 0x8000_0003, &[1, 2, 3]);
        assert_eq!(f, [0, 0, 3, 7, 0, 0, 0, 0, 3, 1, 2, 3]);
    }

    #[test]
    fn hpack_integers_follow_rfc_7541() {
        // C.1.1–C.1.3 of RFC 7541.
        let mut out = Vec::new();
        hpack_int(10, 5, 0, &mut out);
        assert_eq!(out, [10]);
        out.clear();
        hpack_int(1337, 5, 0, &mut out);
        assert_eq!(out, [31, 154, 10]);
        out.clear();
        hpack_int(42, 8, 0, &mut out);
        assert_eq!(out, [42]);
    }
}
