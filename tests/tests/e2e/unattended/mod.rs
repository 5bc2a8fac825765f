//! Unattended runs: signals, kill -9 and resume, a low open-files limit, a failing sink.

mod bounded;
mod dead_letter;
pub mod fixture;
mod json_logs;
mod kill;
mod kill_clickhouse;
mod limits;
mod reload;
mod signals;
mod sink;
