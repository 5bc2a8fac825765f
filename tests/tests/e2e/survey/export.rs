//! The export, compared with the checked-in expected file.

use super::*;

fn expected_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/expected/survey.jsonl")
}

/// The export without what changes from run to run: run id, times, request durations,
/// session ids, and the web's port (`PORT`); one line per record, sorted by origin.
fn normalize(export: &str, port: u16) -> String {
    let mut lines: Vec<(String, String)> = export
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let mut record: Value = serde_json::from_str(line).unwrap();
            let object = record.as_object_mut().unwrap();
            for volatile in ["run_id", "scanned_at", "timings"] {
                object.remove(volatile);
            }
            if let Some(Value::Array(requests)) = object.get_mut("requests") {
                for request in requests {
                    let request = request.as_object_mut().unwrap();
                    request.remove("ms");
                    if let Some(Value::Array(headers)) = request.get_mut("headers") {
                        for header in headers {
                            if header["name"].as_str() == Some("mcp-session-id") {
                                header["value"] = Value::String("SESSION".into());
                            }
                        }
                    }
                }
            }
            replace_port(&mut record, port);
            let origin = record["origin"].as_str().unwrap_or_default().to_owned();
            (origin, serde_json::to_string(&record).unwrap())
        })
        .collect();
    lines.sort();
    lines.into_iter().map(|(_, line)| line + "\n").collect()
}

/// `:PORT` for `:{port}` in every string (only where no digit follows).
fn replace_port(value: &mut Value, port: u16) {
    match value {
        Value::String(text) => {
            let needle = format!(":{port}");
            let mut out = String::with_capacity(text.len());
            let mut rest = text.as_str();
            while let Some(at) = rest.find(&needle) {
                let after = &rest[at + needle.len()..];
                out.push_str(&rest[..at]);
                if after.starts_with(|c: char| c.is_ascii_digit()) {
                    out.push_str(&needle);
                } else {
                    out.push_str(":PORT");
                }
                rest = after;
            }
            out.push_str(rest);
            *text = out;
        }
        Value::Array(items) => items.iter_mut().for_each(|v| replace_port(v, port)),
        Value::Object(map) => map.values_mut().for_each(|v| replace_port(v, port)),
        _ => {}
    }
}

#[test]
fn export_matches_the_expected_file() {
    let fx = fixture();
    let actual = normalize(&fx.export, fx.port());
    assert_eq!(actual.lines().count(), SITES.len());
    let path = expected_path();
    if std::env::var_os("MCPCENSUS_BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (MCPCENSUS_BLESS=1 writes it; see the top of survey/mod.rs)",
            path.display()
        )
    });
    if actual == expected {
        return;
    }
    // Name the first record that differs, and keep the whole export for a diff.
    let kept = std::env::temp_dir().join(format!("survey.actual.{}.jsonl", std::process::id()));
    std::fs::write(&kept, &actual).unwrap();
    let origin = |line: &str| -> String {
        serde_json::from_str::<Value>(line)
            .ok()
            .and_then(|v| v["origin"].as_str().map(str::to_owned))
            .unwrap_or_default()
    };
    for (want, got) in expected.lines().zip(actual.lines()) {
        if want != got {
            panic!(
                "the export differs from {} at {} (whole export in {}; \
                 MCPCENSUS_BLESS=1 regenerates it)\nexpected: {want}\nactual:   {got}",
                path.display(),
                origin(got),
                kept.display()
            );
        }
    }
    panic!(
        "the export has {} records, {} expects {} (whole export in {})",
        actual.lines().count(),
        path.display(),
        expected.lines().count(),
        kept.display()
    );
}
