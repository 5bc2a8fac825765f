//! Unattended runs: signals, kill -9 and resume, a low open-files limit, a failing sink.

mod bounded;
pub mod fixture;
mod json_logs;
mod kill;
mod limits;
mod signals;
mod sink;
