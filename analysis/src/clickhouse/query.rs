//! Sending one report query and reading its rows, with the query named in any error.

use clickhouse::query::Query;
use clickhouse::{RowOwned, RowRead};

use crate::error::AnalysisError;

fn err(name: &str) -> impl FnOnce(clickhouse::error::Error) -> AnalysisError + '_ {
    move |source| AnalysisError::ClickHouse {
        query: name.to_owned(),
        source,
    }
}

/// Every row of `query` (`name` says which query failed).
pub async fn all<T: RowOwned + RowRead>(query: Query, name: &str) -> Result<Vec<T>, AnalysisError> {
    query.fetch_all().await.map_err(err(name))
}

/// The one row of `query`.
pub async fn one<T: RowOwned + RowRead>(query: Query, name: &str) -> Result<T, AnalysisError> {
    query.fetch_one().await.map_err(err(name))
}
