use mcpcensus_store::{Severity, ToolCapability as T, ToolInfo};
use serde_json::{json, Value};

use super::words::{name_words, summary};
use super::*;

fn tags(name: &str, description: &str, annotations: Value, schema: Value) -> Vec<T> {
    let annotations = Some(&annotations).filter(|a| a.is_object());
    tag_tool(name, Some(description), annotations, Some(&schema)).list()
}

#[test]
fn names_split_at_separators_and_case_changes() {
    assert_eq!(name_words("getFileContents"), ["get", "file", "contents"]);
    assert_eq!(
        name_words("atlas-list-db_users.v2"),
        ["atlas", "list", "db", "users", "v2"]
    );
    assert_eq!(name_words("HTTPFetch"), ["httpfetch"]);
}

#[test]
fn the_summary_is_the_first_sentence() {
    assert_eq!(summary("  Sends mail. Then more."), "Sends mail");
    assert_eq!(summary("Reads v1.2 files\nand more"), "Reads v1.2 files");
    assert_eq!(summary("No stop at all"), "No stop at all");
}

#[test]
fn a_read_only_hint_lowers_nothing() {
    let sends = tags(
        "send_email",
        "Sends an email to the given address.",
        json!({"readOnlyHint": true}),
        json!({"properties": {"to": {}, "body": {}}}),
    );
    assert_eq!(sends, [T::Writes, T::SendsMessages]);
    let reads = tags(
        "list_files",
        "Lists files.",
        json!({"readOnlyHint": true}),
        json!({}),
    );
    assert_eq!(reads, [T::ReadOnly, T::ReadsPrivateData]);
}

#[test]
fn each_tag_from_name_description_schema_or_hint() {
    let none = json!({});
    assert_eq!(
        tags("delete_repo", "", none.clone(), none.clone()),
        [T::Writes, T::Destructive]
    );
    let hinted = tags("tidy", "", json!({"destructiveHint": true}), none.clone());
    assert_eq!(hinted, [T::Writes, T::Destructive]);
    let shell = tags(
        "run",
        "",
        none.clone(),
        json!({"properties": {"command": {}}}),
    );
    assert_eq!(shell, [T::Writes, T::ExecutesCode]);
    assert_eq!(
        tags(
            "create_refund",
            "Refunds a charge.",
            none.clone(),
            none.clone()
        ),
        [T::Writes, T::MovesMoney]
    );
    assert_eq!(
        tags(
            "fetch",
            "Fetches a URL from the internet.",
            none.clone(),
            none.clone()
        ),
        [T::ReadOnly, T::ReadsUntrustedContent]
    );
    // A word inside a longer word never matches; nothing known, no tag.
    assert!(!tags("undeleted_items", "", none.clone(), none.clone()).contains(&T::Destructive));
    assert!(tags("zzz", "Does things.", none.clone(), none).is_empty());
}

#[test]
fn the_same_tool_always_gets_the_same_tags() {
    let a = tags(
        "browser_evaluate",
        "Evaluate JavaScript on the page",
        json!({}),
        json!({}),
    );
    let b = tags(
        "browser_evaluate",
        "Evaluate JavaScript on the page",
        json!({}),
        json!({}),
    );
    assert_eq!(a, b);
    assert!(a.contains(&T::ExecutesCode));
}

fn tool(name: &str, caps: &[T]) -> ToolInfo {
    ToolInfo {
        name: name.into(),
        capabilities: caps.to_vec(),
        ..ToolInfo::default()
    }
}

#[test]
fn a_toxic_flow_names_the_first_source_and_sink() {
    let tools = [
        tool("list", &[T::ReadOnly]),
        tool("read_inbox", &[T::ReadOnly, T::ReadsUntrustedContent]),
        tool("send_mail", &[T::Writes, T::SendsMessages]),
        tool("pay", &[T::Writes, T::MovesMoney]),
    ];
    let f = toxic_flow(&tools, Some("https://a.example/mcp")).expect("a flow");
    assert_eq!(f.rule_id, "MCP-TOOLS-001");
    assert_eq!(f.severity, Severity::Reported);
    assert_eq!(f.tool.as_deref(), Some("read_inbox"));
    assert_eq!(
        f.evidence,
        "`read_inbox` reads untrusted content and `send_mail` sends messages \
         (1 tools read such data, 2 send, pay or run code)"
    );
    assert!(toxic_flow(&tools[..2], None).is_none());
    assert!(toxic_flow(&tools[2..], None).is_none());
}

/// docs/rules.md's row for a signal.
fn doc_row(s: &Signal) -> String {
    let list = |words: &[&str]| {
        let quoted: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
        quoted.join(" ")
    };
    let place = match s.place {
        Place::Annotation => format!("annotation `{}` = {}", s.hint, s.value),
        other => other.as_str().to_owned(),
    };
    let mut reads = if s.words.is_empty() {
        "—".to_owned()
    } else {
        list(s.words)
    };
    if !s.with.is_empty() {
        reads += &format!("; with {}", list(s.with));
    }
    if !s.unless.is_empty() {
        reads += &format!("; unless {}", list(s.unless));
    }
    if s.unless_writes {
        reads += "; only for a tool that does not write";
    }
    let adds: Vec<String> = s.adds.list().iter().map(|t| format!("`{t}`")).collect();
    format!(
        "| {} | {place} | {reads} | {} | {} |",
        s.id,
        adds.join(", "),
        s.reason
    )
}

#[test]
fn docs_list_the_table_row_for_row() {
    let docs = include_str!("../../../docs/rules.md");
    let want: Vec<String> = SIGNALS.iter().map(doc_row).collect();
    let found: Vec<&str> = docs
        .lines()
        .filter(|l| {
            SIGNALS
                .iter()
                .any(|s| l.starts_with(&format!("| {} |", s.id)))
        })
        .collect();
    assert_eq!(
        found, want,
        "docs/rules.md's capability table and capabilities.toml differ"
    );
}
