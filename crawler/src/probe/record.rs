//! What the deep probe writes into a record: the classification, the tools (fingerprinted
//! and graded), the server rules' findings and the requests.

use mcpcensus_store::{ProbeDepth, Record};
use serde_json::json;

use super::classify::classify;
use super::fingerprint::{tool_fingerprint, tool_list_fingerprint};
use super::grades::grade_tools;
use super::rules::{server_rules, ListSource};
use super::sequence::ProbeReport;
use crate::session::read_tools;

impl ProbeReport {
    /// Writes the classification, the tools (fingerprinted and graded) and the server rules'
    /// findings into the record (the scan logs the requests, in the order they were sent), and
    /// why it stopped early when it did (`probe_note`). A probe whose first request got no
    /// answer writes no classification and no findings.
    pub fn apply_to(&self, record: &mut Record, tools_cap: usize) {
        record.probe = Some(ProbeDepth::Deep);
        record
            .refused_urls
            .extend(self.facts.refused_urls.iter().cloned());
        // Why it stopped is kept even when it learnt nothing: a reader must tell a probe that
        // ran out of time from one whose server had nothing more to say.
        record.probe_note.clone_from(&self.facts.note);
        if self.unreachable {
            return;
        }
        let facts = &self.facts;
        // A server the survey could not open (a 2026-07-28-only one) names itself here.
        if record.server_name.is_none() {
            record.server_name.clone_from(&self.server_name);
            record.server_version.clone_from(&self.server_version);
        }
        let c = classify(facts);
        if facts.https {
            record.transport = Some(c.transport);
        }
        record.auth.clone_from(&facts.auth);
        record.spec_version = c.spec_version;
        record.deprecated_features.clone_from(&c.deprecated);
        record.migration_status = c.status;
        record.checklist.clone_from(&c.checklist);
        if facts.tools.answered {
            let list = read_tools(&json!({"tools": facts.tools.entries}), tools_cap);
            record.tools = list.tools;
        }
        let grades = facts.tools.answered.then(|| {
            let mut grades = grade_tools(&facts.tools.entries);
            // Entries not kept were not graded either.
            let cut = u32::try_from(facts.tools.cut()).unwrap_or(u32::MAX);
            grades.not_graded = grades.not_graded.saturating_add(cut);
            grades
        });
        for tool in &mut record.tools {
            tool.fingerprint = Some(tool_fingerprint(tool));
            if let Some(g) = &grades {
                tool.grade = g.letter_of(&tool.name).map(str::to_owned);
            }
        }
        record.tool_list_fingerprint = tool_list_fingerprint(&record.tools);
        record.grades = grades.map(|g| g.to_record());
        record.findings.extend(server_rules(
            &facts.tools,
            ListSource::Probe,
            record.endpoint.as_deref(),
        ));
    }
}
