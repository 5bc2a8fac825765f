//! One HTTP/1.1 exchange on a connection of the site's pool: the request written whole, the
//! head read into a buffer that exists only while the answer is being read, the body streamed
//! under its framing, and the connection handed back to the pool the moment its body ended
//! cleanly, so the site's next request in turn finds it.
//!
//! hyper's client keeps a task a connection with a request channel, an 8 KiB write buffer and
//! an 8 KiB read buffer for the connection's whole life (~25 KB, BENCHMARKS.md "Memory a site
//! in flight"); a site waits on its connection most of the time it is in flight (the server's
//! answer, the politeness between requests), so here an idle or waiting connection holds no
//! buffer at all.

use std::io;

use bytes::Bytes;
use http::Method;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::chunked::{ChunkStep, Chunked};
use super::connector::NetStream;
use super::h1::{self, Framing, Head, WireError};
use super::pool::{ConnKey, Pool};
use std::sync::Arc;

/// The room a read asks for: one TLS record's plaintext is up to 16 KiB, so a large answer
/// takes more reads, not a larger buffer.
const READ_SIZE: usize = 4096;

/// Why an exchange got no (complete) answer.
#[derive(Debug)]
pub(crate) enum ExchangeError {
    /// Reading or writing failed; `answered` once any byte of the answer had come.
    Io { error: io::Error, answered: bool },
    /// The server closed the connection before the head (or the body) ended.
    Closed { answered: bool },
    /// What came is not HTTP/1.1 as the client reads it.
    Wire(WireError),
}

impl ExchangeError {
    /// True when nothing of an answer came: a reused connection the server had closed.
    pub(crate) fn unanswered(&self) -> bool {
        matches!(
            self,
            Self::Io {
                answered: false,
                ..
            } | Self::Closed { answered: false }
        )
    }
}

impl std::fmt::Display for ExchangeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Io { error, .. } => write!(f, "connection error: {error}"),
            Self::Closed { answered: false } => f.write_str("connection closed without an answer"),
            Self::Closed { answered: true } => f.write_str("connection closed mid-answer"),
            Self::Wire(wire) => wire.fmt(f),
        }
    }
}

impl From<WireError> for ExchangeError {
    fn from(wire: WireError) -> Self {
        Self::Wire(wire)
    }
}

/// Where a connection goes back to once its answer is read.
pub(crate) struct Home {
    pub(crate) pool: Arc<Pool>,
    pub(crate) key: ConnKey,
}

/// Sends `request` (its bytes whole) on `io` and reads the answer's head; 1xx interim answers
/// (100 Continue, 103 Early Hints) are read past.
pub(crate) async fn exchange(
    mut io: NetStream,
    request: &[u8],
    method: &Method,
    home: Home,
) -> Result<(Head, H1Body), ExchangeError> {
    let unanswered = |error| ExchangeError::Io {
        error,
        answered: false,
    };
    io.write_all(request).await.map_err(unanswered)?;
    io.flush().await.map_err(unanswered)?;
    // No buffer is lent while the server thinks.
    io.readable().await.map_err(unanswered)?;
    let mut buf = Vec::with_capacity(READ_SIZE);
    let mut answered = false;
    let mut scan = HeadScan::default();
    loop {
        let parsed = if scan.worth_parsing(&buf) {
            h1::parse_head(&buf)?
        } else {
            None
        };
        if let Some((head, len)) = parsed {
            buf.drain(..len);
            scan = HeadScan::default();
            if head.status.is_informational() && head.status.as_u16() != 101 {
                continue;
            }
            let (framing, reusable) = h1::framing(method, &head)?;
            let body = H1Body::new(io, buf, framing, reusable, home);
            return Ok((head, body));
        }
        if buf.capacity() - buf.len() < READ_SIZE / 2 {
            buf.reserve(buf.len().max(READ_SIZE));
        }
        let n = io
            .read_buf(&mut buf)
            .await
            .map_err(|error| ExchangeError::Io {
                error,
                answered: answered || !buf.is_empty(),
            })?;
        if n == 0 {
            return Err(ExchangeError::Closed {
                answered: answered || !buf.is_empty(),
            });
        }
        answered = true;
    }
}

/// When a head read so far is worth parsing again. A head can only become complete, or newly
/// malformed past its first line, once a line has ended; so it is parsed when a read brought a
/// line end (at most one parse a header field: past [`h1::MAX_HEADERS`] it fails), while it
/// is still short (a status line that is not HTTP fails at its first bytes, as before), and at
/// the cap. Parsed on every read instead, a head trickled a byte at a time costs a parse of
/// up to [`h1::MAX_HEAD`] bytes for each byte: seconds of CPU for one hostile answer.
#[derive(Debug, Default)]
pub(crate) struct HeadScan {
    /// The bytes already looked at for a line end.
    seen: usize,
}

/// Heads this short are parsed on every read.
const SHORT_HEAD: usize = 1024;

impl HeadScan {
    pub(crate) fn worth_parsing(&mut self, buf: &[u8]) -> bool {
        let fresh = buf.get(self.seen..).unwrap_or_default();
        self.seen = buf.len();
        buf.len() <= SHORT_HEAD || buf.len() >= h1::MAX_HEAD || fresh.contains(&b'\n')
    }
}

/// Where the body is.
#[derive(Debug)]
enum State {
    /// This many bytes left.
    Length(u64),
    Chunked(Chunked),
    UntilClose,
    Done,
}

/// An HTTP/1.1 answer's body on its connection.
pub(crate) struct H1Body {
    io: Option<NetStream>,
    /// Bytes read past what was handed out: `buf[pos..]`.
    buf: Vec<u8>,
    pos: usize,
    state: State,
    reusable: bool,
    home: Option<Home>,
    /// A body that ends at the close ended without TLS's close_notify.
    unclean_end: bool,
}

impl std::fmt::Debug for H1Body {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("H1Body")
            .field("state", &self.state)
            .field("buffered", &(self.buf.len() - self.pos))
            .finish_non_exhaustive()
    }
}

impl Drop for H1Body {
    fn drop(&mut self) {
        if self.io.is_some() {
            self.skip_buffered();
        }
    }
}

impl H1Body {
    fn new(io: NetStream, buf: Vec<u8>, framing: Framing, reusable: bool, home: Home) -> Self {
        let state = match framing {
            Framing::Empty | Framing::Length(0) => State::Done,
            Framing::Length(n) => State::Length(n),
            Framing::Chunked => State::Chunked(Chunked::new()),
            Framing::UntilClose => State::UntilClose,
        };
        let mut body = Self {
            io: Some(io),
            buf,
            pos: 0,
            state: State::Length(0),
            reusable,
            home: Some(home),
            unclean_end: false,
        };
        if matches!(state, State::Done) {
            body.finish();
        } else {
            body.state = state;
            // An empty chunked body may have come whole with the head.
            let _ = body.settle();
        }
        body
    }

    /// The body's length when its head said it.
    pub(crate) fn exact_len(&self) -> Option<u64> {
        match self.state {
            State::Length(n) => Some(n),
            State::Done => Some(0),
            _ => None,
        }
    }

    /// True when the body ended at a close that TLS did not announce (no close_notify): it
    /// may have been cut short, and nothing on the wire can tell.
    pub(crate) fn closed_without_notify(&self) -> bool {
        self.unclean_end
    }

    /// The body ended: the connection goes home if it can carry another request.
    fn finish(&mut self) {
        self.state = State::Done;
        let io = self.io.take();
        let clean = self.pos == self.buf.len();
        self.buf = Vec::new();
        self.pos = 0;
        if let (Some(io), Some(home), true, true) = (io, self.home.take(), self.reusable, clean) {
            home.pool.put_h1(home.key, io);
        }
    }

    fn take(&mut self, len: usize) -> Bytes {
        let data = Bytes::copy_from_slice(&self.buf[self.pos..self.pos + len]);
        self.pos += len;
        data
    }

    /// Reads past chunked framing already buffered after the data handed out: when the body's
    /// end is there too, the connection goes home now, as it would with a `Content-Length`,
    /// even if the reader stops at the data it wanted (a capped read, an answer complete).
    fn settle(&mut self) -> Result<(), WireError> {
        while let State::Chunked(decoder) = &mut self.state {
            if decoder.in_data() {
                return Ok(());
            }
            match decoder.step(&self.buf[self.pos..])? {
                ChunkStep::Skip(n) => self.pos += n,
                ChunkStep::Done(n) => {
                    self.pos += n;
                    self.finish();
                }
                ChunkStep::NeedMore | ChunkStep::Data { .. } => return Ok(()),
            }
        }
        Ok(())
    }

    /// A body dropped unread (its head decided, the reader had what it wanted): when the rest
    /// of it is already buffered, it is passed over without a read and the connection goes
    /// home; otherwise the connection closes with the body.
    fn skip_buffered(&mut self) {
        loop {
            let buffered = self.buf.len() - self.pos;
            match &mut self.state {
                State::Length(left) => {
                    if buffered as u64 >= *left {
                        self.pos += usize::try_from(*left).unwrap_or(buffered);
                        self.finish();
                    }
                    return;
                }
                State::Chunked(decoder) => match decoder.step(&self.buf[self.pos..]) {
                    Ok(ChunkStep::Skip(n)) => self.pos += n,
                    Ok(ChunkStep::Data { start, len }) => self.pos += start + len,
                    Ok(ChunkStep::Done(n)) => {
                        self.pos += n;
                        self.finish();
                        return;
                    }
                    Ok(ChunkStep::NeedMore) | Err(_) => return,
                },
                State::UntilClose | State::Done => return,
            }
        }
    }

    /// Reads more from the connection; `Ok(false)` when it closed.
    async fn fill(&mut self) -> Result<bool, ExchangeError> {
        let Some(io) = self.io.as_mut() else {
            return Ok(false);
        };
        if self.pos > 0 {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        if self.buf.capacity() - self.buf.len() < READ_SIZE / 2 {
            self.buf.reserve(READ_SIZE);
        }
        let n = io
            .read_buf(&mut self.buf)
            .await
            .map_err(|error| ExchangeError::Io {
                error,
                answered: true,
            })?;
        Ok(n > 0)
    }

    /// The next piece of the body; `None` at its end. An error leaves the body ended and the
    /// connection dropped.
    pub(crate) async fn chunk(&mut self) -> Result<Option<Bytes>, ExchangeError> {
        let result = self.next_chunk().await;
        if result.is_err() {
            self.state = State::Done;
            self.io = None;
            self.buf = Vec::new();
            self.pos = 0;
        }
        result
    }

    async fn next_chunk(&mut self) -> Result<Option<Bytes>, ExchangeError> {
        loop {
            let buffered = self.buf.len() - self.pos;
            match &mut self.state {
                State::Done => return Ok(None),
                State::Length(left) => {
                    if buffered > 0 {
                        let len = usize::try_from(*left).unwrap_or(usize::MAX).min(buffered);
                        *left -= len as u64;
                        let ended = *left == 0;
                        let data = self.take(len);
                        if ended {
                            self.finish();
                        }
                        return Ok(Some(data));
                    }
                    if !self.fill().await? {
                        return Err(ExchangeError::Closed { answered: true });
                    }
                }
                State::UntilClose => {
                    if buffered > 0 {
                        return Ok(Some(self.take(buffered)));
                    }
                    match self.fill().await {
                        Ok(true) => {}
                        Ok(false) => {
                            self.reusable = false;
                            self.finish();
                            return Ok(None);
                        }
                        // TLS ended without close_notify: the body may be cut short, but
                        // browsers and curl take it as the end, and so does the client (the
                        // answer says so: `closed_without_notify`).
                        Err(ExchangeError::Io { error, .. })
                            if error.kind() == io::ErrorKind::UnexpectedEof =>
                        {
                            self.unclean_end = true;
                            self.reusable = false;
                            self.finish();
                            return Ok(None);
                        }
                        Err(other) => return Err(other),
                    }
                }
                State::Chunked(decoder) => match decoder.step(&self.buf[self.pos..])? {
                    ChunkStep::Skip(n) => self.pos += n,
                    ChunkStep::Data { start, len } => {
                        self.pos += start;
                        let data = self.take(len);
                        self.settle()?;
                        return Ok(Some(data));
                    }
                    ChunkStep::Done(n) => {
                        self.pos += n;
                        self.finish();
                        return Ok(None);
                    }
                    ChunkStep::NeedMore => {
                        if !self.fill().await? {
                            return Err(ExchangeError::Closed { answered: true });
                        }
                    }
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `head` a byte a read, as a hostile server trickles it; returns how many reads
    /// would parse it and whether the last (the one completing it) did.
    fn parses_of(head: &[u8]) -> (usize, bool) {
        let mut scan = HeadScan::default();
        let mut parses = 0;
        let mut last = false;
        for end in 1..=head.len() {
            last = scan.worth_parsing(&head[..end]);
            parses += usize::from(last);
        }
        (parses, last)
    }

    #[test]
    fn a_trickled_head_is_parsed_once_a_line_not_once_a_byte() {
        let field = format!("X-Pad: {}\r\n", "p".repeat(500));
        let head = format!("HTTP/1.1 200 OK\r\n{}\r\n", field.repeat(100));
        let (parses, last) = parses_of(head.as_bytes());
        assert!(last, "the read that ends the head parses it");
        // The first KiB byte by byte, then one a line: ~1,100, not the head's 50,000 bytes.
        assert!(
            parses <= SHORT_HEAD + 102,
            "{parses} parses of {} bytes",
            head.len()
        );
        let parsed = h1::parse_head(head.as_bytes())
            .expect("valid")
            .expect("whole");
        assert_eq!(parsed.0.headers.get_all("x-pad").iter().count(), 100);
    }

    #[test]
    fn a_head_that_is_not_http_is_still_parsed_at_its_first_bytes() {
        let mut scan = HeadScan::default();
        for end in 1..=8 {
            let garbage = &b"SSH-2.0-x"[..end];
            assert!(scan.worth_parsing(garbage));
        }
        assert_eq!(
            h1::parse_head(b"SSH-2.0").map(|p| p.is_some()),
            Err(WireError::MalformedHead)
        );
        // And past the short head, a read at the cap parses (it is too long).
        let mut scan = HeadScan::default();
        let long = vec![b'a'; h1::MAX_HEAD];
        assert!(!scan.worth_parsing(&long[..SHORT_HEAD + 1]));
        assert!(!scan.worth_parsing(&long[..SHORT_HEAD + 2]));
        assert!(scan.worth_parsing(&long));
    }
}
