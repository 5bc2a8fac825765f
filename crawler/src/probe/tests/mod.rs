//! Unit tests of the probe's pure parts: rules, classification, checklist, auth, grades and
//! fingerprints; and the probe's deadline against a test server.

mod auth;
mod classify;
mod deadline;
mod grades;
mod paste;
mod registry;
mod rules;
mod server_urls;
