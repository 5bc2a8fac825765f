//! The readiness phase (`--readiness`): after the survey's phases, the agent-readiness checks
//! of the measured origin. It reads what the survey fetched (robots.txt, the homepage, the
//! surface documents, the server cards) and asks only what the survey did not (the table in
//! `crate::readiness`), through the same site client: the address guard, politeness,
//! robots.txt and the site deadline hold for every request. The phase's entry point is
//! `Context::readiness` in `phase.rs`.

mod home;
mod phase;
mod survey;
mod tally;

pub(super) use phase::Home;
