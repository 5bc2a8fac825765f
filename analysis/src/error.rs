//! Errors of the report engine.

#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    #[error(transparent)]
    Store(#[from] mcpcensus_store::StoreError),
    #[error("the store holds no run")]
    NoRun,
    #[error("ClickHouse report query {query}: {source}")]
    ClickHouse {
        query: String,
        source: clickhouse::error::Error,
    },
    #[error("the run manifest of {run_id} in ClickHouse's runs table: {source}")]
    Manifest {
        run_id: String,
        source: serde_json::Error,
    },
}
