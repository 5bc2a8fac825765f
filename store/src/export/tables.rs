//! Writes the flat tables ([`super::columns`]) as Parquet or CSV files in a folder, plus
//! `export.json` (what was exported, from which run, by which build). Rows are buffered a
//! bounded batch at a time; Parquet files carry the same provenance in their key-value
//! metadata.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, ListBuilder, StringBuilder, TimestampMillisecondBuilder, UInt64Builder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, TimeUnit};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use serde_json::{Map, Value};

use super::columns::{rows_of, Kind, Table, TABLES};
use crate::error::{io_err, StoreError};
use crate::inert::csv_cell;
use crate::record::Record;

/// Rows held per table before they are written (a Parquet row group at most this big).
pub const EXPORT_BATCH_ROWS: usize = 8192;
/// Parquet's zstd level: the library's default, a third of the size of uncompressed tables of
/// repetitive text for little CPU; readers need no setting.
pub const PARQUET_ZSTD_LEVEL: i32 = 3;
/// The time zone of the Parquet timestamps (the record's times are UTC).
const UTC: &str = "UTC";
/// The export's description, next to the tables.
pub const EXPORT_META_FILE: &str = "export.json";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    Parquet,
    Csv,
}

impl TableFormat {
    pub fn extension(self) -> &'static str {
        match self {
            TableFormat::Parquet => "parquet",
            TableFormat::Csv => "csv",
        }
    }
}

/// Rows written per table, in [`TABLES`] order.
pub type TableCounts = [u64; 3];

/// Writes `records` as `sites`, `tools` and `findings` files into `dir` (created if missing)
/// and `export.json` with `provenance` (e.g. the run's manifest) and the row counts. Stops at
/// the first error item.
pub fn write_tables(
    records: impl Iterator<Item = Result<Record, StoreError>>,
    dir: &Path,
    format: TableFormat,
    provenance: &Value,
) -> Result<TableCounts, StoreError> {
    std::fs::create_dir_all(dir).map_err(io_err("creating directory", dir))?;
    let meta = provenance.to_string();
    let mut sinks = Vec::new();
    for table in TABLES {
        let path = dir.join(format!("{}.{}", table.name, format.extension()));
        sinks.push(TableSink::create(table, path, format, &meta)?);
    }
    let mut counts = [0u64; 3];
    for record in records {
        for ((sink, rows), count) in sinks.iter_mut().zip(rows_of(&record?)).zip(&mut counts) {
            *count += rows.len() as u64;
            for row in rows {
                sink.push(row)?;
            }
        }
    }
    for sink in sinks {
        sink.finish()?;
    }
    let files: Map<String, Value> = TABLES
        .iter()
        .zip(counts)
        .map(|(t, n)| (format!("{}.{}", t.name, format.extension()), Value::from(n)))
        .collect();
    let description = serde_json::json!({
        "exported_by": format!("mcpcensus {}", env!("CARGO_PKG_VERSION")),
        "exported_at": crate::format_timestamp(crate::record::now_ms()),
        "format": format.extension(),
        "columns": "docs/records.md",
        "rows": files,
        "run": provenance,
    });
    let path = dir.join(EXPORT_META_FILE);
    let text = serde_json::to_string_pretty(&description).unwrap_or_default();
    std::fs::write(&path, text + "\n").map_err(io_err("writing", &path))?;
    Ok(counts)
}

enum Out {
    Parquet(Box<ArrowWriter<File>>, Arc<Schema>),
    Csv(BufWriter<File>),
}

struct TableSink {
    table: &'static Table,
    path: PathBuf,
    out: Out,
    rows: Vec<Map<String, Value>>,
}

impl TableSink {
    fn create(
        table: &'static Table,
        path: PathBuf,
        format: TableFormat,
        meta: &str,
    ) -> Result<TableSink, StoreError> {
        let file = File::create(&path).map_err(io_err("creating", &path))?;
        let out = match format {
            TableFormat::Parquet => {
                let schema = Arc::new(arrow_schema(table));
                let level = ZstdLevel::try_new(PARQUET_ZSTD_LEVEL)
                    .map_err(|source| parquet_err(&path, source))?;
                let props = WriterProperties::builder()
                    .set_compression(Compression::ZSTD(level))
                    .set_max_row_group_row_count(Some(EXPORT_BATCH_ROWS))
                    .set_key_value_metadata(Some(vec![
                        KeyValue::new("mcpcensus.table".into(), table.name.to_owned()),
                        KeyValue::new("mcpcensus.run".into(), meta.to_owned()),
                    ]))
                    .build();
                let writer = ArrowWriter::try_new(file, schema.clone(), Some(props))
                    .map_err(|source| parquet_err(&path, source))?;
                Out::Parquet(Box::new(writer), schema)
            }
            TableFormat::Csv => {
                let mut w = BufWriter::with_capacity(256 * 1024, file);
                let header: Vec<&str> = table.columns.iter().map(|(n, _)| *n).collect();
                writeln!(w, "{}", header.join(",")).map_err(io_err("writing", &path))?;
                Out::Csv(w)
            }
        };
        Ok(TableSink {
            table,
            path,
            out,
            rows: Vec::with_capacity(EXPORT_BATCH_ROWS),
        })
    }

    fn push(&mut self, row: Map<String, Value>) -> Result<(), StoreError> {
        self.rows.push(row);
        if self.rows.len() >= EXPORT_BATCH_ROWS {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), StoreError> {
        if self.rows.is_empty() {
            return Ok(());
        }
        match &mut self.out {
            Out::Parquet(writer, schema) => {
                let columns = self
                    .table
                    .columns
                    .iter()
                    .map(|(name, kind)| arrow_column(&self.rows, name, *kind))
                    .collect();
                let batch = RecordBatch::try_new(schema.clone(), columns)
                    .map_err(|e| parquet_err(&self.path, e.into()))?;
                writer
                    .write(&batch)
                    .map_err(|source| parquet_err(&self.path, source))?;
            }
            Out::Csv(w) => {
                let mut line = String::new();
                for row in &self.rows {
                    line.clear();
                    for (i, (name, _)) in self.table.columns.iter().enumerate() {
                        if i > 0 {
                            line.push(',');
                        }
                        csv_field(&mut line, &row[*name]);
                    }
                    line.push('\n');
                    w.write_all(line.as_bytes())
                        .map_err(io_err("writing", &self.path))?;
                }
            }
        }
        self.rows.clear();
        Ok(())
    }

    fn finish(mut self) -> Result<(), StoreError> {
        self.flush()?;
        match self.out {
            Out::Parquet(writer, _) => {
                writer
                    .close()
                    .map_err(|source| parquet_err(&self.path, source))?;
            }
            Out::Csv(mut w) => w.flush().map_err(io_err("writing", &self.path))?,
        }
        Ok(())
    }
}

fn parquet_err(path: &Path, source: parquet::errors::ParquetError) -> StoreError {
    StoreError::ExportTable {
        path: path.to_owned(),
        source,
    }
}

fn arrow_schema(table: &Table) -> Schema {
    let fields: Vec<Field> = table
        .columns
        .iter()
        .map(|(name, kind)| match kind {
            Kind::Str => Field::new(*name, DataType::Utf8, false),
            Kind::OptStr => Field::new(*name, DataType::Utf8, true),
            Kind::UInt => Field::new(*name, DataType::UInt64, false),
            Kind::OptUInt => Field::new(*name, DataType::UInt64, true),
            Kind::Bool => Field::new(*name, DataType::Boolean, false),
            Kind::Seconds | Kind::Millis => Field::new(
                *name,
                DataType::Timestamp(TimeUnit::Millisecond, Some(UTC.into())),
                false,
            ),
            Kind::List => Field::new(
                *name,
                DataType::List(Arc::new(Field::new("item", DataType::Utf8, true))),
                false,
            ),
        })
        .collect();
    Schema::new(fields)
}

fn arrow_column(rows: &[Map<String, Value>], name: &str, kind: Kind) -> ArrayRef {
    match kind {
        Kind::Str | Kind::OptStr => {
            let mut b = StringBuilder::with_capacity(rows.len(), rows.len() * 16);
            for row in rows {
                match row[name].as_str() {
                    Some(s) => b.append_value(s),
                    // A non-null column never sees null: `columns` tests the kinds.
                    None if kind == Kind::Str => b.append_value(""),
                    None => b.append_null(),
                }
            }
            Arc::new(b.finish())
        }
        Kind::UInt | Kind::OptUInt => {
            let mut b = UInt64Builder::with_capacity(rows.len());
            for row in rows {
                match row[name].as_u64() {
                    Some(n) => b.append_value(n),
                    None if kind == Kind::UInt => b.append_value(0),
                    None => b.append_null(),
                }
            }
            Arc::new(b.finish())
        }
        Kind::Bool => {
            let mut b = BooleanBuilder::with_capacity(rows.len());
            for row in rows {
                b.append_value(row[name].as_u64().is_some_and(|n| n != 0));
            }
            Arc::new(b.finish())
        }
        Kind::Seconds | Kind::Millis => {
            let per_unit: i64 = if kind == Kind::Seconds { 1000 } else { 1 };
            let mut b = TimestampMillisecondBuilder::with_capacity(rows.len());
            for row in rows {
                let n = row[name].as_u64().unwrap_or(0);
                let ms = i64::try_from(n)
                    .unwrap_or(i64::MAX)
                    .saturating_mul(per_unit);
                b.append_value(ms);
            }
            Arc::new(b.finish().with_timezone(UTC))
        }
        Kind::List => {
            let mut b = ListBuilder::new(StringBuilder::new());
            for row in rows {
                for item in row[name].as_array().into_iter().flatten() {
                    b.values().append_value(item.as_str().unwrap_or_default());
                }
                b.append(true);
            }
            Arc::new(b.finish())
        }
    }
}

/// One CSV field ([`csv_cell`]: RFC 4180 quoting, formula cells guarded). Nulls are empty
/// fields and empty strings `""`, so readers can tell them apart; lists are JSON arrays.
fn csv_field(line: &mut String, value: &Value) {
    match value {
        Value::Null => {}
        Value::String(s) => line.push_str(&csv_cell(s)),
        // Numbers, and lists as JSON arrays (they start with `[`).
        v => line.push_str(&csv_cell(&v.to_string())),
    }
}
