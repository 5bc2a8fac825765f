//! Where records go: the embedded store, ClickHouse, or both.

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

impl RecordSink for mcpcensus_store::clickhouse::ClickHouseSink {
    fn write(&mut self, record: &Record) -> Result<(), StoreError> {
        mcpcensus_store::clickhouse::ClickHouseSink::write(self, record)
    }
    fn flush(&mut self) -> Result<(), StoreError> {
        mcpcensus_store::clickhouse::ClickHouseSink::flush(self)
    }
    fn finish(self: Box<Self>) -> Result<(), StoreError> {
        mcpcensus_store::clickhouse::ClickHouseSink::finish(*self).map(|_| ())
    }
}

/// Writes every record to two sinks, the first one first and flushed (e.g. the embedded
/// store, then ClickHouse). Both are finished even if the first fails; the first error is returned.
pub struct TeeSink {
    pub first: Box<dyn RecordSink>,
    pub second: Box<dyn RecordSink>,
}

impl RecordSink for TeeSink {
    fn write(&mut self, record: &Record) -> Result<(), StoreError> {
        self.first.write(record)?;
        // Out of the first sink's buffer before the second sees the record, so a killed
        // process never leaves a record in ClickHouse that the store lost (a resume would
        // scan that site again and ClickHouse would hold two rows for it until they merge).
        self.first.flush()?;
        self.second.write(record)
    }
    fn flush(&mut self) -> Result<(), StoreError> {
        self.first.flush()?;
        self.second.flush()
    }
    fn finish(self: Box<Self>) -> Result<(), StoreError> {
        let first = self.first.finish();
        let second = self.second.finish();
        first.and(second)
    }
}
