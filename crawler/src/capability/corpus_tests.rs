//! Precision and recall of the capability table per tag on the labelled corpus of public
//! servers' tools (`crawler/tests/tool-corpus/`). The figures are printed (`cargo test -p
//! mcpcensus corpus -- --nocapture`) and go in docs/rules.md; the tags a researcher counts as
//! risk must stay at 0.9 or better.

use mcpcensus_store::ToolCapability;
use serde_json::Value;

use super::tag_tool;

/// Tags whose precision and recall must both be at least 0.9.
const HELD: [ToolCapability; 4] = [
    ToolCapability::Destructive,
    ToolCapability::ExecutesCode,
    ToolCapability::MovesMoney,
    ToolCapability::SendsMessages,
];

pub(super) fn corpus() -> Vec<Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tool-corpus/tools.json");
    let text = std::fs::read_to_string(path).expect("the corpus is in the repository");
    serde_json::from_str(&text).expect("the corpus is JSON")
}

#[derive(Default)]
struct Counts {
    tp: u32,
    fp: u32,
    fn_: u32,
}

fn ratio(hit: u32, of: u32) -> f64 {
    if of == 0 {
        1.0
    } else {
        f64::from(hit) / f64::from(of)
    }
}

#[test]
fn corpus_precision_and_recall_per_tag() {
    let tools = corpus();
    assert!(tools.len() >= 300, "{} tools", tools.len());
    let mut counts: Vec<Counts> = ToolCapability::ALL
        .iter()
        .map(|_| Counts::default())
        .collect();
    for t in &tools {
        let name = t["name"].as_str().expect("a name");
        let tags = tag_tool(
            name,
            t["description"].as_str(),
            Some(&t["annotations"]).filter(|a| a.is_object()),
            Some(&t["input_schema"]),
        );
        let labels: Vec<&str> = t["labels"]
            .as_array()
            .expect("labels")
            .iter()
            .map(|l| l.as_str().expect("a tag"))
            .collect();
        for (tag, c) in ToolCapability::ALL.iter().zip(counts.iter_mut()) {
            let labelled = labels.contains(&tag.as_str());
            match (tags.has(*tag), labelled) {
                (true, true) => c.tp += 1,
                (true, false) => c.fp += 1,
                (false, true) => c.fn_ += 1,
                (false, false) => {}
            }
        }
    }
    println!("| tag | labelled | tagged | precision | recall |");
    println!("|---|---|---|---|---|");
    for (tag, c) in ToolCapability::ALL.iter().zip(&counts) {
        let (p, r) = (ratio(c.tp, c.tp + c.fp), ratio(c.tp, c.tp + c.fn_));
        let (labelled, tagged) = (c.tp + c.fn_, c.tp + c.fp);
        println!("| `{tag}` | {labelled} | {tagged} | {p:.2} | {r:.2} |");
        if HELD.contains(tag) {
            assert!(
                p >= 0.9 && r >= 0.9,
                "{tag}: precision {p:.3}, recall {r:.3}"
            );
        }
    }
}
