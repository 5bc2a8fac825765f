//! Pasted lists: the accepted shapes and the limit.

use crate::probe::{grade_pasted, pasted_entries, PasteError};

#[test]
fn a_result_a_response_and_an_array_are_accepted() {
    let tools = r#"[{"name":"a","description":"Returns the time."}]"#;
    for text in [
        tools.to_owned(),
        format!(r#"{{"tools":{tools}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":{tools}}}}}"#),
    ] {
        assert_eq!(pasted_entries(&text).unwrap().len(), 1, "{text}");
    }
    assert_eq!(pasted_entries("{}"), Err(PasteError::NoTools));
    assert!(matches!(
        pasted_entries("nope"),
        Err(PasteError::NotJson(_))
    ));
    let many = format!("[{}]", vec![r#"{"name":"t"}"#; 201].join(","));
    assert_eq!(pasted_entries(&many), Err(PasteError::TooMany(201)));
}

#[test]
fn a_pasted_read_only_list_stays_high() {
    let text = r#"[{"name":"a","description":"Returns the time.",
        "annotations":{"readOnlyHint":true}}]"#;
    let report = grade_pasted(text).unwrap();
    assert_eq!(report.findings.len(), 1);
    assert_eq!(report.findings[0].severity.as_str(), "high");
    assert!(report.tools[0].fingerprint.is_some());
    assert!(report.tools[0].grade.is_some());
}
