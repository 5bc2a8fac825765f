//! The simulated web: virtual TLS sites, a DNS server and scripted behaviours on loopback.
