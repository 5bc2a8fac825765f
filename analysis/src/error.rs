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
}
