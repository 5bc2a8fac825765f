//! Unit tests of the probe's pure parts: rules, classification, checklist, auth, grades and
//! fingerprints.

mod auth;
mod classify;
mod grades;
mod paste;
mod registry;
mod rules;
mod server_urls;
