//! The report from ClickHouse: the same [`Report`](crate::Report) as [`crate::build`], with
//! every count computed by the server (configs/clickhouse/queries/, valid on 18.16 and modern
//! servers). What comes back is counts, top lists and platforms, never the rows themselves;
//! percentages and the adoption arithmetic are done here from the counts, like the embedded
//! path, so both agree to the last digit.

mod build;
mod compare;
mod history;
mod query;
mod rows;
mod run;
mod runs;
pub mod shared;
pub mod sql;

pub use build::build_clickhouse;
