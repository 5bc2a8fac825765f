//! Makes the rule constants (the discovery audit's and the deep probe's) from `src/rules.toml`,
//! so the table is data read once at build time and the code still names each rule as a
//! checked constant. Also names the build (target and profile) for the run manifests.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    rule: Vec<RuleRow>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleRow {
    #[serde(rename = "const")]
    name: String,
    id: String,
    severity: String,
    applies_to: String,
    title: String,
    fix: String,
}

const SOURCE: &str = "src/rules.toml";
const CAPABILITIES: &str = "src/capabilities.toml";

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SignalTable {
    signal: Vec<SignalRow>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SignalRow {
    id: String,
    place: String,
    #[serde(default)]
    hint: String,
    #[serde(default)]
    value: bool,
    #[serde(default)]
    words: Vec<String>,
    #[serde(default)]
    with: Vec<String>,
    #[serde(default)]
    unless: Vec<String>,
    #[serde(default)]
    unless_writes: bool,
    adds: Vec<String>,
    reason: String,
}

fn main() {
    println!("cargo:rerun-if-changed={SOURCE}");
    // The build the run manifests record (provenance.build): cargo sets both for build scripts.
    let target = std::env::var("TARGET").unwrap_or_else(|_| "unknown-target".into());
    let profile = std::env::var("PROFILE").unwrap_or_else(|_| "unknown-profile".into());
    println!("cargo:rustc-env=MCPCENSUS_BUILD={target} {profile}");
    let text = std::fs::read_to_string(SOURCE).unwrap_or_else(|e| panic!("{SOURCE}: {e}"));
    let table: Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{SOURCE}: {e}"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("rules.rs"), rust_of(&table)).expect("OUT_DIR is writable");
    println!("cargo:rerun-if-changed={CAPABILITIES}");
    let text =
        std::fs::read_to_string(CAPABILITIES).unwrap_or_else(|e| panic!("{CAPABILITIES}: {e}"));
    let signals: SignalTable =
        toml::from_str(&text).unwrap_or_else(|e| panic!("{CAPABILITIES}: {e}"));
    std::fs::write(out.join("capabilities.rs"), signals_of(&signals)).expect("OUT_DIR is writable");
}

/// `SIGNALS`, the capability table's rows as Rust, each checked: a known place and tag, words
/// in lowercase, a hint only on an annotation row.
fn signals_of(table: &SignalTable) -> String {
    const TAGS: [&str; 8] = [
        "read_only",
        "writes",
        "destructive",
        "executes_code",
        "moves_money",
        "sends_messages",
        "reads_untrusted_content",
        "reads_private_data",
    ];
    let mut ids = HashSet::new();
    let mut rows = Vec::new();
    for r in &table.signal {
        assert!(ids.insert(&r.id), "{CAPABILITIES}: id {} twice", r.id);
        let place = match r.place.as_str() {
            "annotation" => "Annotation",
            "name" => "Name",
            "summary" => "Summary",
            "description" => "Description",
            "schema" => "Schema",
            other => panic!("{CAPABILITIES}: {}: unknown place {other}", r.id),
        };
        assert_eq!(
            r.place == "annotation",
            !r.hint.is_empty(),
            "{CAPABILITIES}: {}: a hint goes with an annotation row, and only there",
            r.id
        );
        for w in r.words.iter().chain(&r.with).chain(&r.unless) {
            assert!(
                !w.is_empty()
                    && w.chars().all(|c| c.is_ascii_lowercase()
                        || c.is_ascii_digit()
                        || c == ' '
                        || c == '_'),
                "{CAPABILITIES}: {}: {w:?} is not lowercase words",
                r.id
            );
        }
        let adds: Vec<String> = r
            .adds
            .iter()
            .map(|tag| {
                let at = TAGS
                    .iter()
                    .position(|t| t == tag)
                    .unwrap_or_else(|| panic!("{CAPABILITIES}: {}: unknown tag {tag}", r.id));
                format!("1 << {at}")
            })
            .collect();
        rows.push(format!(
            "Signal {{ id: {:?}, place: Place::{place}, hint: {:?}, value: {}, words: &{:?}, \
             with: &{:?}, unless: &{:?}, unless_writes: {}, adds: Tags({}), reason: {:?} }}",
            r.id,
            r.hint,
            r.value,
            r.words,
            r.with,
            r.unless,
            r.unless_writes,
            adds.join(" | "),
            r.reason
        ));
    }
    format!(
        "/// The capability table's rows, in its order.\npub const SIGNALS: [Signal; {}] = [\n{}\n];\n",
        rows.len(),
        rows.join(",\n")
    )
}

fn rust_of(table: &Table) -> String {
    let (mut ids, mut names) = (HashSet::new(), HashSet::new());
    let mut code = String::new();
    for r in &table.rule {
        assert!(ids.insert(&r.id), "{SOURCE}: id {} twice", r.id);
        assert!(names.insert(&r.name), "{SOURCE}: const {} twice", r.name);
        let ok_name = r.name.chars().all(|c| c.is_ascii_uppercase() || c == '_');
        assert!(
            ok_name,
            "{SOURCE}: {} is not an upper-case constant name",
            r.name
        );
        let _ = writeln!(
            code,
            "/// {}: {}\npub const {}: Rule = Rule {{ id: {:?}, severity: Severity::{}, \
             applies_to: AppliesTo::{}, title: {:?}, fix: {:?} }};",
            r.id, r.title, r.name, r.id, r.severity, r.applies_to, r.title, r.fix
        );
    }
    let list: Vec<String> = table.rule.iter().map(|r| format!("&{}", r.name)).collect();
    let _ = writeln!(
        code,
        "/// Every rule, in the table's order.\npub const RULES: [&Rule; {}] = [{}];",
        list.len(),
        list.join(", ")
    );
    code
}
