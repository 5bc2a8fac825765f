//! Rows ClickHouse rejects for their content. A parse or type error from the server fails the
//! whole insert, so the batch is bisected until the rejected records are alone; the rest is
//! inserted and each rejected record goes, with the server's error text, to a dead-letter file
//! (`<store>/runs/<run>/dead-letter.jsonl`). Connection errors and timeouts are not content
//! errors: they go to the retries and the spool as before. Other server exceptions are
//! isolated the same way once part of the batch lands (see [`insert_isolating`]).

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::client::{Backoff, Connection};
use super::failure::{classify, InsertFailure};
use super::sink::insert_with_retry;
use crate::error::{io_err, StoreError};
use crate::inert::terminal_text;
use crate::record::Record;

/// The dead-letter file's name in a run's folder.
pub const DEAD_LETTER_FILE: &str = "dead-letter.jsonl";
/// Past this size the run stops: that many rejections mean the schema or the server is wrong,
/// not a few odd records.
pub const DEFAULT_DEAD_LETTER_MAX_BYTES: u64 = 64 * 1024 * 1024;

/// One line of the dead-letter file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeadLetter {
    pub record: Record,
    /// The server's error text.
    pub error: String,
}

/// The append-only dead-letter file, created on the first rejected record.
#[derive(Debug)]
pub struct DeadLetters {
    path: PathBuf,
    cap_bytes: u64,
    file: Option<File>,
    bytes: u64,
    /// Records written by this process.
    pub written: u64,
}

impl DeadLetters {
    pub fn new(path: impl Into<PathBuf>, cap_bytes: u64) -> DeadLetters {
        let path = path.into();
        let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
        DeadLetters {
            path,
            cap_bytes,
            file: None,
            bytes,
            written: 0,
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends (and syncs) one rejected record; fails once the file would pass its cap.
    pub fn append(&mut self, record: &Record, error: &StoreError) -> Result<(), StoreError> {
        let entry = DeadLetter {
            record: record.clone(),
            error: error_text(error),
        };
        let line = serde_json::to_string(&entry).unwrap_or_default() + "\n";
        if self.bytes + line.len() as u64 > self.cap_bytes {
            return Err(StoreError::DeadLetterFull {
                path: self.path.clone(),
                cap_bytes: self.cap_bytes,
            });
        }
        let file = match &mut self.file {
            Some(f) => f,
            None => {
                let file = open_cut(&self.path)?;
                self.bytes = file.metadata().map_or(0, |m| m.len());
                self.file.insert(file)
            }
        };
        file.write_all(line.as_bytes())
            .and_then(|()| file.sync_data())
            .map_err(io_err("writing the dead-letter file", &self.path))?;
        self.bytes += line.len() as u64;
        self.written += 1;
        // The input line and the server's error (quoting the record) are logged inert.
        tracing::error!(input = %terminal_text(&record.input), input_line = record.input_line, error = %terminal_text(&entry.error), file = %self.path.display(), "ClickHouse rejected a record; it is in the dead-letter file");
        Ok(())
    }
}

/// Opens the file for appending, first cutting a line a killed process left half-written.
fn open_cut(path: &Path) -> Result<File, StoreError> {
    let file = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
        .map_err(io_err("opening the dead-letter file", path))?;
    let text = std::fs::read(path).map_err(io_err("reading the dead-letter file", path))?;
    if text.last().is_some_and(|b| *b != b'\n') {
        let keep = text.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        file.set_len(keep as u64)
            .map_err(io_err("cutting the torn tail of", path))?;
    }
    Ok(file)
}

/// The error with its causes, as the server put it.
fn error_text(e: &StoreError) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// Reads a dead-letter file (missing: none); a line that does not parse is an error.
pub fn read_dead_letters(path: &Path) -> Result<Vec<DeadLetter>, StoreError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_err("reading the dead-letter file", path)(e)),
    };
    // A last line without its newline was torn by a kill: not written, so not counted.
    let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    whole
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|source| StoreError::DeadLetterLine {
                path: path.to_owned(),
                line: i + 1,
                source,
            })
        })
        .collect()
}

/// How a batch is inserted: retries, backoff and the per-call timeout.
pub(crate) struct InsertPolicy<'a> {
    pub timeout: Duration,
    pub attempts: u32,
    pub backoff: &'a Backoff,
}

/// Inserts `records`; with `dead` given, rows the server refuses are isolated by halving
/// the batch and each is written there alone with its error, the rest inserted:
/// - a content error always blames the rows;
/// - another server exception blames them only once some other part of the batch has
///   landed (a part failing that way before is put aside until one has; if none does, the
///   server refuses everything and it is an outage, not a row);
/// - an unavailable server is an outage at once.
///
/// The outer error is fatal (the dead-letter file cannot take the record); the inner one is
/// the outage (the caller spools the batch: a part that landed meanwhile is inserted again
/// later, which the tables collapse).
pub(crate) async fn insert_isolating(
    conn: &Connection,
    records: &[Record],
    policy: &InsertPolicy<'_>,
    failed_attempts: &mut u64,
    mut dead: Option<&mut DeadLetters>,
) -> Result<Result<(), StoreError>, StoreError> {
    // An explicit stack instead of recursion: the parts still to insert, in order.
    let mut pending = vec![records];
    // Parts that failed with a server exception before anything landed.
    let mut put_aside: Vec<(&[Record], StoreError)> = Vec::new();
    let mut landed = false;
    loop {
        let Some(part) = pending.pop() else {
            if put_aside.is_empty() {
                return Ok(Ok(()));
            }
            if !landed {
                // Every part failed: the server refuses inserts, whatever the rows.
                let (_, e) = put_aside.swap_remove(0);
                return Ok(Err(e));
            }
            pending.extend(put_aside.drain(..).map(|(p, _)| p));
            continue;
        };
        let result = insert_with_retry(
            conn,
            part,
            policy.timeout,
            policy.attempts,
            policy.backoff,
            failed_attempts,
        )
        .await;
        let e = match result {
            Ok(()) => {
                landed = true;
                continue;
            }
            Err(e) => e,
        };
        let Some(dead) = dead.as_deref_mut() else {
            return Ok(Err(e));
        };
        match classify(&e) {
            InsertFailure::Unavailable => return Ok(Err(e)),
            // The whole batch is halved first; a batch of one cannot be told apart.
            InsertFailure::Server if !landed && (part.len() < records.len() || part.len() == 1) => {
                put_aside.push((part, e));
            }
            InsertFailure::Content | InsertFailure::Server => {
                if let [record] = part {
                    dead.append(record, &e)?;
                } else {
                    let (a, b) = part.split_at(part.len() / 2);
                    pending.push(b);
                    pending.push(a);
                }
            }
        }
    }
}
