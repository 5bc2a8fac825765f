//! Unit tests of the probe's pure parts.
