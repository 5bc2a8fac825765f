//! Messages printed outside tracing (a stop, a signal) shaped like the JSON log lines.

/// A message as a JSON line shaped like the JSON log lines, for what is printed outside tracing.
pub fn json_line(level: &str, message: &str) -> String {
    serde_json::json!({
        "timestamp": humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string(),
        "level": level,
        "fields": { "message": message },
        "target": "mcpcensus",
    })
    .to_string()
}
