//! A tool as schemas 2 to 5 stored it: today's [`ToolInfo`] without `capabilities`. The field
//! order is the stored layout's: never reorder.

use rkyv::{Archive, Deserialize};

use crate::record::ToolInfo;

#[derive(Archive, Deserialize)]
#[cfg_attr(test, derive(rkyv::Serialize))]
pub(crate) struct ToolInfoV5 {
    name: String,
    title: Option<String>,
    description: Option<String>,
    annotations: Option<String>,
    input_schema_hash: Option<String>,
    fingerprint: Option<String>,
    grade: Option<String>,
}

/// Today's tools from a stored list (no capability tags: they were not read then).
pub(crate) fn now(tools: Vec<ToolInfoV5>) -> Vec<ToolInfo> {
    tools
        .into_iter()
        .map(|t| ToolInfo {
            name: t.name,
            title: t.title,
            description: t.description,
            annotations: t.annotations,
            input_schema_hash: t.input_schema_hash,
            fingerprint: t.fingerprint,
            grade: t.grade,
            capabilities: Vec::new(),
        })
        .collect()
}

/// Test support: the list as an earlier release stored it.
#[cfg(test)]
pub(crate) fn then(tools: Vec<ToolInfo>) -> Vec<ToolInfoV5> {
    tools
        .into_iter()
        .map(|t| ToolInfoV5 {
            name: t.name,
            title: t.title,
            description: t.description,
            annotations: t.annotations,
            input_schema_hash: t.input_schema_hash,
            fingerprint: t.fingerprint,
            grade: t.grade,
        })
        .collect()
}
