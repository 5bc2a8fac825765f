//! The crate's modules import only downward along the data path (see the layout in `lib.rs`).
//! A module may use any module before it in `LAYERS`, never one after it; tests are exempt.

use std::path::Path;

/// Modules in data-path order, lowest first.
const LAYERS: [&str; 16] = [
    "error",
    "rule",
    "capability",
    "input",
    "net",
    "verdict",
    "discovery",
    "readiness",
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

/// The sibling modules `text` (a file of folder `folder`) uses: `super::NAME`, `super::{NAME,
/// ...}` and `crate::FOLDER::NAME`, each once, among `siblings`.
fn sibling_uses(text: &str, folder: &str, siblings: &[String]) -> Vec<String> {
    let mut names = Vec::new();
    let mut take = |rest: &str| {
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if siblings.contains(&name) && !names.contains(&name) {
            names.push(name);
        }
    };
    let own = format!("crate::{folder}::");
    for prefix in ["super::", own.as_str()] {
        for (at, _) in text.match_indices(prefix) {
            let rest = &text[at + prefix.len()..];
            if let Some(group) = rest.strip_prefix('{') {
                // `super::{a::X, b}`: the first name of each item at the group's top level.
                let mut depth = 0usize;
                let mut start = true;
                for (i, c) in group.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        ',' if depth == 0 => start = true,
                        c if start && (c.is_ascii_alphanumeric() || c == '_') => {
                            take(&group[i..]);
                            start = false;
                        }
                        _ => {}
                    }
                }
            } else {
                take(rest);
            }
        }
    }
    names
}

/// A cycle in `graph` (module → modules it uses), as the path that closes it.
fn find_cycle(graph: &[(String, Vec<String>)]) -> Option<Vec<String>> {
    fn walk(
        node: &str,
        graph: &[(String, Vec<String>)],
        path: &mut Vec<String>,
        done: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle);
        }
        if done.iter().any(|n| n == node) {
            return None;
        }
        path.push(node.to_owned());
        let next = graph
            .iter()
            .find(|(n, _)| n == node)
            .map(|(_, e)| e.clone());
        for dep in next.unwrap_or_default() {
            if let Some(cycle) = walk(&dep, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.push(node.to_owned());
        None
    }
    let mut done = Vec::new();
    graph
        .iter()
        .find_map(|(node, _)| walk(node, graph, &mut Vec::new(), &mut done))
}

/// The files of one folder on the data path import each other without a cycle: a cycle means
/// a missing small module (shared types, facts) that both should import instead.
#[test]
fn no_folder_on_the_data_path_has_an_import_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut cycles = Vec::new();
    for folder in LAYERS {
        let dir = root.join(folder);
        if !dir.is_dir() {
            continue;
        }
        let files: Vec<(String, String)> = std::fs::read_dir(&dir)
            .expect("readable source dir")
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "rs"))
            .filter_map(|p| {
                let name = p.file_stem()?.to_string_lossy().into_owned();
                let skip = name == "mod" || name == "tests" || name.starts_with("tests_");
                (!skip).then(|| (name, std::fs::read_to_string(&p).expect("readable source")))
            })
            .collect();
        let names: Vec<String> = files.iter().map(|(n, _)| n.clone()).collect();
        let graph: Vec<(String, Vec<String>)> = files
            .iter()
            .map(|(name, text)| {
                let mut uses = sibling_uses(text, folder, &names);
                uses.retain(|u| u != name);
                (name.clone(), uses)
            })
            .collect();
        if let Some(cycle) = find_cycle(&graph) {
            cycles.push(format!("{folder}: {}", cycle.join(" → ")));
        }
    }
    assert!(cycles.is_empty(), "import cycles: {cycles:#?}");
}

#[test]
fn the_cycle_check_sees_each_way_of_naming_a_sibling() {
    let siblings: Vec<String> = ["site", "documents", "locate"].map(String::from).to_vec();
    let text = "use super::site::SiteScan;\nuse super::{documents::{a, b}, locate};\n";
    assert_eq!(
        sibling_uses(text, "scan", &siblings),
        ["site", "documents", "locate"]
    );
    let text = "fn f() { crate::scan::locate::go() }";
    assert_eq!(sibling_uses(text, "scan", &siblings), ["locate"]);
    let graph = vec![
        ("a".to_owned(), vec!["b".to_owned()]),
        ("b".to_owned(), vec!["c".to_owned()]),
        ("c".to_owned(), vec!["a".to_owned()]),
    ];
    assert_eq!(find_cycle(&graph).unwrap(), ["a", "b", "c", "a"]);
    let graph = vec![
        ("a".to_owned(), vec!["b".to_owned()]),
        ("b".to_owned(), vec![]),
    ];
    assert_eq!(find_cycle(&graph), None);
}
