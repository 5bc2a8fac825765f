//! The chunked transfer coding's decoder (RFC 9112 §7.1), as strict as hyper's and for the same
//! reasons: a chunk-size line is hex digits (at least one), optional spaces or tabs, optional
//! extensions, then CRLF; every line of the coding ends in CRLF; extensions and trailers have a
//! budget for the whole body. Anything else is refused, never guessed at: a lenient decoder is
//! what lets a body be cut short or two parties read two different bodies from one stream.
//!
//! State is kept between calls, so the bytes can come in any pieces and each is looked at once.

use super::h1::WireError;

/// Bytes of chunk extensions read in one body, all chunks together (hyper's budget).
pub(crate) const MAX_EXTENSIONS: u64 = 16 * 1024;
/// Bytes of trailer section read after the last chunk (hyper's budget).
pub(crate) const MAX_TRAILERS: usize = 16 * 1024;
/// Trailer fields read after the last chunk (hyper's default header count).
pub(crate) const MAX_TRAILER_FIELDS: usize = 100;

/// Where the decoder is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before a chunk-size line: a hex digit must come.
    Start,
    /// Inside the size's hex digits.
    Size(u64),
    /// Spaces or tabs after the size: no digit may follow.
    SizeSpace(u64),
    /// Inside the chunk's extensions, up to the CR.
    Extension(u64),
    /// After the size line's CR: its LF.
    SizeLf(u64),
    /// Inside a chunk's data, this much left.
    Data(u64),
    /// After a chunk's data: its CR.
    DataCr,
    /// After a chunk's data and CR: its LF.
    DataLf,
    /// At the start of a trailer line, or of the final CRLF.
    LineStart,
    /// Inside a trailer line.
    Trailer,
    /// After a trailer line's CR.
    TrailerLf,
    /// After the final CR.
    EndLf,
    /// The body is complete.
    Done,
}

/// One step of the decoder over buffered bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ChunkStep {
    /// More bytes are needed.
    NeedMore,
    /// `consumed` bytes were framing; go on.
    Skip(usize),
    /// `len` bytes of data start at `start`; `start + len` bytes are consumed.
    Data { start: usize, len: usize },
    /// The body ended after `consumed` bytes.
    Done(usize),
}

/// The decoder of one chunked body.
#[derive(Debug)]
pub(crate) struct Chunked {
    state: State,
    /// Extension bytes read so far in this body.
    extensions: u64,
    /// The trailer section read so far (kept only when there is one, to be checked whole).
    trailers: Vec<u8>,
}

impl Default for Chunked {
    fn default() -> Self {
        Self::new()
    }
}

impl Chunked {
    pub(crate) fn new() -> Self {
        Self {
            state: State::Start,
            extensions: 0,
            trailers: Vec::new(),
        }
    }

    /// True inside a chunk's data (the next step hands data out).
    pub(crate) fn in_data(&self) -> bool {
        matches!(self.state, State::Data(_))
    }

    /// Decodes from the start of `buf`: framing bytes are consumed a byte at a time (each once,
    /// whatever the pieces) and skipped in one step; data is handed out in the next, from the
    /// buffer's start.
    pub(crate) fn step(&mut self, buf: &[u8]) -> Result<ChunkStep, WireError> {
        let mut at = 0;
        loop {
            if self.state == State::Done {
                return Ok(ChunkStep::Done(at));
            }
            if let State::Data(left) = self.state {
                // Framing consumed first, on its own: a caller may stop at the data.
                if at > 0 {
                    return Ok(ChunkStep::Skip(at));
                }
                let ready = buf.len();
                if ready == 0 {
                    return Ok(ChunkStep::NeedMore);
                }
                let len = usize::try_from(left).unwrap_or(usize::MAX).min(ready);
                let left = left - len as u64;
                self.state = if left == 0 {
                    State::DataCr
                } else {
                    State::Data(left)
                };
                return Ok(ChunkStep::Data { start: 0, len });
            }
            let Some(&byte) = buf.get(at) else {
                return Ok(if at == 0 {
                    ChunkStep::NeedMore
                } else {
                    ChunkStep::Skip(at)
                });
            };
            at += 1;
            self.state = self.next(byte)?;
        }
    }

    /// The state after one framing byte.
    fn next(&mut self, byte: u8) -> Result<State, WireError> {
        use State as S;
        Ok(match (self.state, byte) {
            (S::Start, _) => S::Size(add_digit(0, byte).ok_or(WireError::BadChunk)?),
            (S::Size(size), b' ' | b'\t') => S::SizeSpace(size),
            (S::Size(size), b';') | (S::SizeSpace(size), b';') => S::Extension(size),
            (S::Size(size), b'\r') | (S::SizeSpace(size), b'\r') => S::SizeLf(size),
            (S::Size(size), _) => S::Size(add_digit(size, byte).ok_or(WireError::BadChunk)?),
            (S::SizeSpace(size), b' ' | b'\t') => S::SizeSpace(size),
            (S::SizeSpace(_), _) => return Err(WireError::BadChunk),
            (S::Extension(size), b'\r') => S::SizeLf(size),
            // A bare LF inside an extension: a peer that ends lines at LF would read the rest
            // of this line as data (hyper refuses it for that reason).
            (S::Extension(_), b'\n') => return Err(WireError::BadChunk),
            (S::Extension(size), _) => {
                self.extensions += 1;
                if self.extensions >= MAX_EXTENSIONS {
                    return Err(WireError::ChunkExtensionsTooLong);
                }
                S::Extension(size)
            }
            (S::SizeLf(0), b'\n') => S::LineStart,
            (S::SizeLf(size), b'\n') => S::Data(size),
            (S::SizeLf(_), _) => return Err(WireError::BadChunk),
            (S::DataCr, b'\r') => S::DataLf,
            (S::DataLf, b'\n') => S::Start,
            (S::DataCr | S::DataLf, _) => return Err(WireError::BadChunk),
            (S::LineStart, b'\r') => {
                if !self.trailers.is_empty() {
                    self.keep_trailer(byte)?;
                }
                S::EndLf
            }
            (S::LineStart, _) => {
                self.keep_trailer(byte)?;
                S::Trailer
            }
            (S::Trailer, b'\r') => {
                self.keep_trailer(byte)?;
                S::TrailerLf
            }
            (S::Trailer, _) => {
                self.keep_trailer(byte)?;
                S::Trailer
            }
            (S::TrailerLf, b'\n') => {
                self.keep_trailer(byte)?;
                S::LineStart
            }
            (S::TrailerLf, _) => return Err(WireError::BadChunk),
            (S::EndLf, b'\n') => {
                if !self.trailers.is_empty() {
                    self.keep_trailer(byte)?;
                }
                self.check_trailers()?;
                S::Done
            }
            (S::EndLf, _) => return Err(WireError::BadChunk),
            (S::Data(_) | S::Done, _) => unreachable!("data and the end are not framing bytes"),
        })
    }

    /// Keeps a byte of the trailer section (its final CRLF included, as hyper counts it).
    fn keep_trailer(&mut self, byte: u8) -> Result<(), WireError> {
        self.trailers.push(byte);
        if self.trailers.len() >= MAX_TRAILERS {
            return Err(WireError::TrailersTooLong);
        }
        Ok(())
    }

    /// The trailer section must be header fields (they are read and dropped).
    fn check_trailers(&mut self) -> Result<(), WireError> {
        if self.trailers.is_empty() {
            return Ok(());
        }
        // Fields end at CRLF, and so does the section: counted and parsed as hyper does (a
        // field ended by a bare LF is one more than the room given, so refused).
        let lines = self.trailers.windows(2).filter(|w| w == b"\r\n").count();
        let count = lines.saturating_sub(1);
        if count > MAX_TRAILER_FIELDS {
            return Err(WireError::TrailersTooLong);
        }
        let mut fields = vec![httparse::EMPTY_HEADER; count];
        let complete = matches!(
            httparse::parse_headers(&self.trailers, &mut fields),
            Ok(httparse::Status::Complete(_))
        );
        drop(fields);
        self.trailers = Vec::new();
        if complete {
            Ok(())
        } else {
            Err(WireError::BadChunk)
        }
    }
}

/// `size` with one more hex digit, when `byte` is one and the size stays within a `u64`.
fn add_digit(size: u64, byte: u8) -> Option<u64> {
    let digit = char::from(byte).to_digit(16)?;
    size.checked_mul(16)?.checked_add(u64::from(digit))
}
