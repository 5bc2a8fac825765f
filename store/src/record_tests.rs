//! The record's JSON contract: the enums' text forms, the renamed tool names field (written
//! under its new key alone since schema 3), the typed failure kinds, and a clear error for a
//! value no enum knows.

use serde_json::{json, Value};

use crate::testutil::full_record;
use crate::*;

fn as_json(r: &Record) -> Value {
    serde_json::to_value(r).unwrap()
}

#[test]
fn enums_are_written_as_their_text_forms() {
    let mut r = full_record("run", 0);
    r.probe = Some(ProbeDepth::Deep);
    r.discovery_source = Some(DiscoverySource::EndpointServerCard);
    r.migration_status = Some(MigrationStatus::ToMigrate);
    r.deprecated_features = vec![
        DeprecatedFeature::InitializeOnly,
        DeprecatedFeature::DynamicClientRegistration,
    ];
    r.checklist = vec![
        ChecklistStep::MoveToStreamableHttp,
        ChecklistStep::RerunScan,
    ];
    r.findings[0].severity = Severity::Reported;
    let j = as_json(&r);
    assert_eq!(j["probe"], "deep");
    assert_eq!(j["discovery_source"], "endpoint_server_card");
    assert_eq!(j["migration_status"], "to_migrate");
    assert_eq!(
        j["deprecated_features"],
        json!(["initialize_only", "dynamic_client_registration"])
    );
    assert_eq!(
        j["checklist"],
        json!(["move_to_streamable_http", "rerun_scan"])
    );
    assert_eq!(j["findings"][0]["severity"], "reported");
}

#[test]
fn tool_names_first_25_is_written_under_its_key_alone_in_place() {
    let mut r = full_record("run", 1);
    r.tool_names_first_25 = vec!["a".to_owned(), "b".to_owned()].into();
    let text = serde_json::to_string(&r).unwrap();
    let j: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(j[FIRST_TOOL_NAMES_KEY], json!(["a", "b"]));
    assert!(
        j.get(DEPRECATED_FIRST_TOOL_NAMES_KEY).is_none(),
        "schema 3 no longer writes the old key"
    );
    // Where schema 1 had its one key: right after `tool_names`, before `tools`.
    let at = |key: &str| text.find(&format!(",\"{key}\":[")).unwrap();
    assert!(at("tool_names") < at(FIRST_TOOL_NAMES_KEY));
    assert!(at(FIRST_TOOL_NAMES_KEY) < at("tools"));
    let back: Record = serde_json::from_value(j).unwrap();
    assert_eq!(back, r);
}

#[test]
fn failure_kinds_are_written_as_their_text_and_absent_ones_read_as_none() {
    let mut r = full_record("run", 3);
    r.reason_kind = Some(FailureKind::Dns);
    r.requests[0].error_kind = Some(FailureKind::LocalResource);
    let mut j = as_json(&r);
    assert_eq!(j["reason_kind"], "dns");
    assert_eq!(j["requests"][0]["error_kind"], "local_resource");
    // A schema 2 export line has neither key.
    j.as_object_mut().unwrap().remove("reason_kind");
    j["requests"][0]
        .as_object_mut()
        .unwrap()
        .remove("error_kind");
    let old: Record = serde_json::from_value(j).unwrap();
    assert_eq!(old.reason_kind, None);
    assert_eq!(old.requests[0].error_kind, None);
    for kind in FailureKind::ALL {
        assert_eq!(FailureKind::parse(kind.as_str()), Some(*kind));
    }
}

#[test]
fn either_key_reads_and_the_new_one_wins() {
    let r = full_record("run", 2);
    let mut j = as_json(&r);
    let object = j.as_object_mut().unwrap();
    object.remove(FIRST_TOOL_NAMES_KEY);
    object.insert(DEPRECATED_FIRST_TOOL_NAMES_KEY.into(), json!(["old"]));
    let old: Record = serde_json::from_value(j.clone()).unwrap();
    assert_eq!(old.tool_names_first_25.0, ["old"]);

    let object = j.as_object_mut().unwrap();
    object.insert(FIRST_TOOL_NAMES_KEY.into(), json!(["new"]));
    let both: Record = serde_json::from_value(j.clone()).unwrap();
    assert_eq!(both.tool_names_first_25.0, ["new"]);

    let object = j.as_object_mut().unwrap();
    object.remove(FIRST_TOOL_NAMES_KEY);
    object.remove(DEPRECATED_FIRST_TOOL_NAMES_KEY);
    let neither: Record = serde_json::from_value(j).unwrap();
    assert!(neither.tool_names_first_25.is_empty());
}

#[test]
fn a_value_no_enum_knows_is_an_error_naming_it() {
    let cases = [
        ("probe", json!("exhaustive")),
        ("discovery_source", json!("robots_txt")),
        ("migration_status", json!("migrated")),
        ("deprecated_features", json!(["batching"])),
        ("checklist", json!(["tools_list"])),
    ];
    for (field, value) in cases {
        let mut j = as_json(&full_record("run", 3));
        j[field] = value.clone();
        let text = serde_json::to_string(&j).unwrap();
        let err = serde_json::from_str::<Record>(&text)
            .unwrap_err()
            .to_string();
        let shown = value.as_array().map_or(&value, |a| &a[0]).as_str().unwrap();
        assert!(
            err.contains(&format!("unknown variant `{shown}`")),
            "{field}: {err}"
        );
    }
    let mut j = as_json(&full_record("run", 3));
    j["findings"][0]["severity"] = json!("critical");
    let err = serde_json::from_value::<Record>(j).unwrap_err().to_string();
    assert!(err.contains("unknown variant `critical`"), "{err}");
}
