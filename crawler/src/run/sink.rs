//! Where records go: the embedded store, or (later) ClickHouse.

use mcpcensus_store::{Record, RunWriter, StoreError};

/// A destination for records. Writes may buffer; `flush` makes them durable enough that a
/// crash loses nothing already flushed; `finish` makes everything durable.
pub trait RecordSink: Send {
    fn write(&mut self, record: &Record) -> Result<(), StoreError>;
    fn flush(&mut self) -> Result<(), StoreError>;
    fn finish(self: Box<Self>) -> Result<(), StoreError>;
}

impl RecordSink for RunWriter {
    fn write(&mut self, record: &Record) -> Result<(), StoreError> {
        self.append(record)
    }
    fn flush(&mut self) -> Result<(), StoreError> {
        RunWriter::flush(self)
    }
    fn finish(self: Box<Self>) -> Result<(), StoreError> {
        RunWriter::finish(*self)
    }
}

/// Collects records in memory (tests, `check`).
#[derive(Debug, Default)]
pub struct MemorySink {
    pub records: std::sync::Arc<std::sync::Mutex<Vec<Record>>>,
}

impl RecordSink for MemorySink {
    fn write(&mut self, record: &Record) -> Result<(), StoreError> {
        self.records
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(record.clone());
        Ok(())
    }
    fn flush(&mut self) -> Result<(), StoreError> {
        Ok(())
    }
    fn finish(self: Box<Self>) -> Result<(), StoreError> {
        Ok(())
    }
}
