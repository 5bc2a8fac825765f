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
