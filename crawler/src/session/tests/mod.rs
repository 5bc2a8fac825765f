//! Tests of the capped session: unit tests of its parts, then whole sessions against scripted
//! servers on 127.0.0.1 that also check, from the server side, what was sent.

mod script;
mod server;
mod session;
mod units;
mod verdicts;
