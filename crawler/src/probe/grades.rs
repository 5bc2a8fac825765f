//! Tool description grades, A to F: eight deterministic criteria, each scored 0, 0.5 or 1 with
//! equal weight; the mean gives the letter (A ≥ 0.9, B ≥ 0.8, C ≥ 0.7, D ≥ 0.6, F below; no E,
//! as in school grades). Up to 50 tools are graded, the first by name when there are more.
//! `docs/rules.md` ("Tool description grades") documents the criteria.

use serde_json::Value;

use super::rules::{instruction_like, SteerLevel};

/// Most tools graded per server.
pub const MAX_GRADED: usize = 50;
/// The letters, best first; `Grades.counts` follows this order.
pub const LETTERS: [&str; 5] = ["A", "B", "C", "D", "F"];

/// One criterion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Criterion {
    /// A non-blank description exists.
    HasDescription,
    /// It says what the tool does: more than the tool's name, at least four words.
    SaysWhat,
    /// It says what the tool returns (or the tool has an `outputSchema`).
    SaysReturns,
    /// It says when to use the tool rather than another.
    SaysWhen,
    /// Every input property has a description.
    InputsDescribed,
    /// A sane length: 40 to 1024 characters (0.5 for 20–39 or 1025–2048).
    SaneLength,
    /// No instruction-like text (0.5 for steering, 0 for manipulation; see SW-MCP-011).
    NoInstructions,
    /// The name follows the spec: 1–128 characters of `A-Z a-z 0-9 _ - .`.
    NameValid,
}

impl Criterion {
    pub const ALL: [Criterion; 8] = [
        Criterion::HasDescription,
        Criterion::SaysWhat,
        Criterion::SaysReturns,
        Criterion::SaysWhen,
        Criterion::InputsDescribed,
        Criterion::SaneLength,
        Criterion::NoInstructions,
        Criterion::NameValid,
    ];
}

const RETURN_WORDS: &[&str] = &[
    " return",
    " returns",
    " returned",
    " responds with",
    " outputs",
    " yields",
    " gives back",
    " result",
    " results",
    " produces",
    " lists ",
    " list of",
];
const WHEN_WORDS: &[&str] = &[
    " use this when",
    " use when",
    " use this tool when",
    " use it when",
    " when you need",
    " when the user",
    " for example",
    " e g ",
    " instead of",
    " rather than",
    " useful for",
    " useful when",
    " use for",
    " use this to",
    " use this tool to",
    " use it to",
    " unlike ",
    " only when",
    " use before",
    " use after",
];

fn norm(text: &str) -> String {
    let mut out = String::from(" ");
    for c in text.chars().flat_map(char::to_lowercase) {
        out.push(if c.is_alphanumeric() { c } else { ' ' });
    }
    let collapsed: Vec<&str> = out.split_whitespace().collect();
    format!(" {} ", collapsed.join(" "))
}

/// The score of one criterion for one tool entry.
pub fn score(criterion: Criterion, tool: &Value) -> f64 {
    let name = tool.get("name").and_then(Value::as_str).unwrap_or("");
    let description = tool
        .get("description")
        .and_then(Value::as_str)
        .map(str::trim)
        .unwrap_or("");
    let text = norm(description);
    let words = text.split_whitespace().count();
    match criterion {
        Criterion::HasDescription => f64::from(u8::from(!description.is_empty())),
        Criterion::SaysWhat => {
            if description.is_empty() {
                0.0
            } else if text.trim() == norm(name).trim() || words < 4 {
                0.5
            } else {
                1.0
            }
        }
        Criterion::SaysReturns => {
            let schema = tool.get("outputSchema").is_some_and(Value::is_object);
            f64::from(u8::from(
                schema || RETURN_WORDS.iter().any(|w| text.contains(w)),
            ))
        }
        Criterion::SaysWhen => f64::from(u8::from(WHEN_WORDS.iter().any(|w| text.contains(w)))),
        Criterion::InputsDescribed => {
            let props = tool
                .get("inputSchema")
                .and_then(|s| s.get("properties"))
                .and_then(Value::as_object);
            let Some(props) = props.filter(|p| !p.is_empty()) else {
                return 1.0;
            };
            let described = props
                .values()
                .filter(|p| {
                    p.get("description")
                        .and_then(Value::as_str)
                        .is_some_and(|d| !d.trim().is_empty())
                })
                .count();
            if described == props.len() {
                1.0
            } else if described > 0 {
                0.5
            } else {
                0.0
            }
        }
        Criterion::SaneLength => match description.chars().count() {
            40..=1024 => 1.0,
            20..=39 | 1025..=2048 => 0.5,
            _ => 0.0,
        },
        Criterion::NoInstructions => match instruction_like(description).map(|m| m.level) {
            None => 1.0,
            Some(SteerLevel::Steering) => 0.5,
            Some(SteerLevel::Manipulative) => 0.0,
        },
        Criterion::NameValid => {
            let valid = (1..=128).contains(&name.len())
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
            f64::from(u8::from(valid))
        }
    }
}

/// A tool's grade.
#[derive(Debug, Clone, PartialEq)]
pub struct GradedTool {
    pub name: String,
    /// Mean of the criteria, 0 to 1.
    pub score: f64,
    pub letter: &'static str,
}

/// The letter for a mean score.
pub fn letter(score: f64) -> &'static str {
    match score {
        s if s >= 0.9 => "A",
        s if s >= 0.8 => "B",
        s if s >= 0.7 => "C",
        s if s >= 0.6 => "D",
        _ => "F",
    }
}

/// Grades one tool entry (one with a string name).
pub fn grade_tool(tool: &Value) -> GradedTool {
    let total: f64 = Criterion::ALL.iter().map(|c| score(*c, tool)).sum();
    let mean = total / Criterion::ALL.len() as f64;
    GradedTool {
        name: tool
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        score: mean,
        letter: letter(mean),
    }
}

/// The grades of one server.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolGrades {
    /// Graded tools, by name.
    pub tools: Vec<GradedTool>,
    pub not_graded: u32,
    /// The median letter (of an even count, the worse of the two middle ones).
    pub median: Option<&'static str>,
    /// Tools per letter, in [`LETTERS`] order.
    pub counts: Vec<u32>,
}

impl ToolGrades {
    pub fn to_record(&self) -> mcpcensus_store::Grades {
        mcpcensus_store::Grades {
            graded: u32::try_from(self.tools.len()).unwrap_or(u32::MAX),
            not_graded: self.not_graded,
            median: self.median.map(str::to_owned),
            counts: self.counts.clone(),
        }
    }

    pub fn letter_of(&self, name: &str) -> Option<&'static str> {
        self.tools.iter().find(|t| t.name == name).map(|t| t.letter)
    }
}

/// Grades up to 50 tools, the first by name; entries without a string name are not graded.
pub fn grade_tools(entries: &[Value]) -> ToolGrades {
    let mut named: Vec<&Value> = entries
        .iter()
        .filter(|t| t.get("name").is_some_and(Value::is_string))
        .collect();
    named.sort_by(|a, b| {
        let n = |t: &Value| {
            t.get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        n(a).cmp(&n(b))
    });
    let graded: Vec<GradedTool> = named
        .iter()
        .take(MAX_GRADED)
        .map(|t| grade_tool(t))
        .collect();
    let not_graded = u32::try_from(entries.len() - graded.len()).unwrap_or(u32::MAX);
    let mut counts = vec![0u32; LETTERS.len()];
    let mut ranks: Vec<usize> = Vec::new();
    for tool in &graded {
        let rank = LETTERS
            .iter()
            .position(|l| *l == tool.letter)
            .unwrap_or(LETTERS.len() - 1);
        counts[rank] += 1;
        ranks.push(rank);
    }
    ranks.sort_unstable();
    let median = (!ranks.is_empty()).then(|| LETTERS[ranks[ranks.len() / 2]]);
    ToolGrades {
        tools: graded,
        not_graded,
        median,
        counts,
    }
}
