//! The ClickHouse sink: the schema, record-to-row mapping, a batching sink with retries and an
//! outage spool, and the replay of an embedded store or spool (`mcpcensus load`).
//! See `configs/clickhouse/schema.sql` and `docs/clickhouse.md`.

mod client;
mod cluster;
mod credentials;
mod dead_letter;
mod done;
mod failure;
mod insert;
mod last_scans;
mod live;
mod load;
mod rows;
mod schema;
pub mod sink;
mod spool;
mod stream;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_dead_letter;
#[cfg(test)]
mod tests_tls;
mod tls;

pub use client::{connect, Backoff, Connection, Password, Target, DEFAULT_QUERY_TIMEOUT};
pub use cluster::{cluster_schema_statements, init_cluster_schema, validate_cluster, ClusterDdl};
pub use credentials::{redact_url, split_credentials, UrlCredentials, REDACTED_PASSWORD};
pub use dead_letter::{
    read_dead_letters, DeadLetter, DeadLetters, DEAD_LETTER_FILE, DEFAULT_DEAD_LETTER_MAX_BYTES,
};
pub use done::{for_each_done_row, DoneRow};
pub use failure::{classify, is_content_error, InsertFailure};
pub use last_scans::{last_scans, LAST_SCANS_SQL};
pub use load::{load_dir, LoadSummary};
pub use rows::{site_key, FindingRow, RunPartRow, RunRow, SiteRow, ToolRow};
pub use schema::{init_schema, schema_statements, SCHEMA_SQL};
pub use sink::{insert_records, record_run, ClickHouseSink, LiveSinkStats, SinkOptions, SinkStats};
pub use spool::Spool;
pub use tls::{base_client, CONNECT_TIMEOUT};
