//! The crate's modules import only downward along the data path (see the layout in `lib.rs`).
//! A module may use any module before it in `LAYERS`, never one after it; tests are exempt.

use std::path::Path;

/// Modules in data-path order, lowest first.
const LAYERS: [&str; 13] = [
    "error",
    "rule",
    "input",
    "net",
    "discovery",
    "mcp",
    "session",
    "probe",
    "audit",
    "config",
    "scan",
    "run",
    "cli",
];

fn rank(module: &str) -> Option<usize> {
    LAYERS.iter().position(|m| *m == module)
}

fn visit(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("readable source dir")
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let rel = path
            .strip_prefix(root)
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/");
        if path.is_dir() {
            if !rel.ends_with("tests") {
                visit(&path, root, out);
            }
            continue;
        }
        if !rel.ends_with(".rs") || rel.ends_with("tests.rs") {
            continue;
        }
        let top = rel
            .split('/')
            .next()
            .unwrap_or_default()
            .trim_end_matches(".rs");
        let Some(own) = rank(top) else { continue };
        let text = std::fs::read_to_string(&path).expect("readable source");
        for (at, _) in text.match_indices("crate::") {
            let dep: String = text[at + 7..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            if rank(&dep).is_some_and(|r| r > own) {
                out.push((rel.clone(), dep));
            }
        }
    }
}

#[test]
fn modules_import_only_downward() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    visit(&root, &root, &mut found);
    found.sort();
    found.dedup();
    assert!(found.is_empty(), "upward imports: {found:?}");
}

#[test]
fn every_top_module_has_a_layer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(root.join("lib.rs")).expect("lib.rs");
    for line in lib.lines() {
        if let Some(name) = line.strip_prefix("pub mod ") {
            let name = name.trim_end_matches(';');
            assert!(rank(name).is_some(), "module {name} is not in LAYERS");
        }
    }
}
