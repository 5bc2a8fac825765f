//! The network core: resolver, address guard, politeness limits, HTTP client.
