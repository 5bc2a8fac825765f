//! Streams lines from domain lists (files, `.gz` files, standard input) without holding them.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::normalize::MAX_LINE_BYTES;
use crate::error::InputError;

const READ_BUFFER_BYTES: usize = 256 * 1024;
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Where lines come from: a path, or `-` for standard input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Stdin,
    File(PathBuf),
}

impl Source {
    pub fn parse(arg: &str) -> Source {
        if arg == "-" {
            Source::Stdin
        } else {
            Source::File(PathBuf::from(arg))
        }
    }

    pub fn name(&self) -> String {
        match self {
            Source::Stdin => "-".to_owned(),
            Source::File(p) => p.display().to_string(),
        }
    }
}

/// One raw line.
#[derive(Debug)]
pub enum RawLine<'a> {
    Text(&'a str),
    /// Over [`MAX_LINE_BYTES`]; the rest of it was skipped.
    TooLong,
    NotUtf8,
}

/// Reads the lines of several sources in order, counting the (compressed) bytes consumed so
/// progress can show an ETA.
pub struct LineReader {
    sources: std::vec::IntoIter<Source>,
    current: Option<Box<dyn BufRead + Send>>,
    current_name: String,
    line_no: u64,
    buf: Vec<u8>,
    consumed: Arc<AtomicU64>,
    /// Each source read to its end, with its lines (the manifest records them per input).
    finished: Vec<(String, u64)>,
}

impl std::fmt::Debug for LineReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineReader")
            .field("source", &self.current_name)
            .field("line_no", &self.line_no)
            .finish_non_exhaustive()
    }
}

impl LineReader {
    pub fn new(sources: Vec<Source>) -> LineReader {
        LineReader {
            sources: sources.into_iter(),
            current: None,
            current_name: String::new(),
            line_no: 0,
            buf: Vec::with_capacity(256),
            consumed: Arc::new(AtomicU64::new(0)),
            finished: Vec::new(),
        }
    }

    /// Total size of the file sources, when all are files (for an ETA).
    pub fn total_bytes(sources: &[Source]) -> Option<u64> {
        sources.iter().try_fold(0u64, |sum, s| match s {
            Source::Stdin => None,
            Source::File(p) => std::fs::metadata(p).ok().map(|m| sum + m.len()),
        })
    }

    /// Bytes read from the underlying files so far (shared with the progress display).
    pub fn consumed(&self) -> Arc<AtomicU64> {
        self.consumed.clone()
    }

    /// The source and 1-based line number of the line last returned.
    pub fn position(&self) -> (&str, u64) {
        (&self.current_name, self.line_no)
    }

    /// The sources read to their end so far, each with its lines, in reading order (a source
    /// a stopped run did not finish is not among them).
    pub fn finished(&self) -> &[(String, u64)] {
        &self.finished
    }

    /// The next line, or `None` at the end of the last source.
    pub fn next_line(&mut self) -> Result<Option<RawLine<'_>>, InputError> {
        Ok(self.next_line_at()?.map(|(_, line)| line))
    }

    /// The next line with its 1-based number in its source (1: a new source's first line,
    /// where a header may be), or `None` at the end of the last source.
    pub fn next_line_at(&mut self) -> Result<Option<(u64, RawLine<'_>)>, InputError> {
        let Some(too_long) = self.advance()? else {
            return Ok(None);
        };
        let line = if too_long {
            RawLine::TooLong
        } else {
            match std::str::from_utf8(trim_newline(&self.buf)) {
                Ok(text) => RawLine::Text(text),
                Err(_) => RawLine::NotUtf8,
            }
        };
        Ok(Some((self.line_no, line)))
    }

    /// Reads the next line into `buf`: `Some(too_long)`, or `None` at the end.
    fn advance(&mut self) -> Result<Option<bool>, InputError> {
        loop {
            if self.current.is_none() {
                let Some(source) = self.sources.next() else {
                    return Ok(None);
                };
                self.current_name = source.name();
                self.line_no = 0;
                self.current = Some(open(&source, self.consumed.clone())?);
            }
            let reader = self.current.as_mut().expect("set above");
            self.buf.clear();
            let (read, too_long) =
                read_bounded_line(reader, &mut self.buf).map_err(|source| InputError::Read {
                    path: self.current_name.clone(),
                    line: self.line_no + 1,
                    source,
                })?;
            if read == 0 {
                self.current = None;
                self.finished
                    .push((std::mem::take(&mut self.current_name), self.line_no));
                continue;
            }
            self.line_no += 1;
            return Ok(Some(too_long));
        }
    }
}

fn trim_newline(mut bytes: &[u8]) -> &[u8] {
    while let [rest @ .., b'\n' | b'\r'] = bytes {
        bytes = rest;
    }
    bytes
}

/// Reads up to and including `\n`, keeping at most [`MAX_LINE_BYTES`] in `buf`.
/// Returns the bytes consumed and whether the line was longer than the limit.
fn read_bounded_line(reader: &mut dyn BufRead, buf: &mut Vec<u8>) -> io::Result<(usize, bool)> {
    let mut consumed = 0;
    let mut too_long = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok((consumed, too_long));
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if !too_long {
            if buf.len() + take > MAX_LINE_BYTES + 2 {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(&chunk[..take]);
            }
        }
        reader.consume(take);
        consumed += take;
        if done {
            return Ok((consumed, too_long));
        }
    }
}

fn open(source: &Source, consumed: Arc<AtomicU64>) -> Result<Box<dyn BufRead + Send>, InputError> {
    let (name, raw): (String, Box<dyn Read + Send>) = match source {
        Source::Stdin => ("-".to_owned(), Box::new(io::stdin())),
        Source::File(path) => (path.display().to_string(), Box::new(open_file(path)?)),
    };
    let counted = Counting {
        inner: raw,
        consumed,
    };
    let mut buffered = BufReader::with_capacity(READ_BUFFER_BYTES, counted);
    let head = buffered.fill_buf().map_err(|source| InputError::Read {
        path: name,
        line: 0,
        source,
    })?;
    if head.starts_with(&GZIP_MAGIC) {
        let decoder = flate2::bufread::MultiGzDecoder::new(buffered);
        Ok(Box::new(BufReader::with_capacity(
            READ_BUFFER_BYTES,
            decoder,
        )))
    } else {
        Ok(Box::new(buffered))
    }
}

fn open_file(path: &Path) -> Result<File, InputError> {
    File::open(path).map_err(|source| InputError::Open {
        path: path.display().to_string(),
        source,
    })
}

/// Counts bytes as they are read from the underlying file.
struct Counting {
    inner: Box<dyn Read + Send>,
    consumed: Arc<AtomicU64>,
}

impl Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}
