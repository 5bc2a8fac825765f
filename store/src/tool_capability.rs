//! What a tool can do, as the census tags it (docs/rules.md, "Tool capabilities"): the closed
//! list of tags and the per-server count of tools per tag. The crawler's capability table sets
//! them; reports and exports read them.

use rkyv::{Archive, Deserialize as FromRkyv, Serialize as ToRkyv};
use serde::{Deserialize, Serialize};

/// The version of the capability table that tagged a record's tools: bumped whenever a row is
/// added, removed or changes what it adds, so counts of different versions are not compared
/// as one.
pub const CAPABILITIES_VERSION: &str = "tools-1";

record_enum!(
    /// One thing a tool can do. A tool may carry several tags or none. Append only: the stored
    /// form numbers the values in this order, and reports list them in it.
    ToolCapability {
        /// It only reads: something says so and nothing adds an effect.
        ReadOnly => "read_only",
        /// It changes something: creates, updates, sends, pays, runs or deletes.
        Writes => "writes",
        /// It may delete, overwrite or irreversibly end something, or its server says it may.
        Destructive => "destructive",
        /// It runs code or commands the caller supplies (a shell, a script, SQL, page script).
        ExecutesCode => "executes_code",
        /// It charges, pays, refunds, bills or subscribes.
        MovesMoney => "moves_money",
        /// A public sink: it sends mail, chat, posts, comments or issues that others read.
        SendsMessages => "sends_messages",
        /// It returns text written by others: web pages, mail, messages, issues, comments.
        ReadsUntrustedContent => "reads_untrusted_content",
        /// It returns the user's own data: files, mail, accounts, databases, cookies.
        ReadsPrivateData => "reads_private_data",
    }
);

/// The tools of one server per tag, in [`ToolCapability::ALL`]'s order, after the number of
/// tools tagged (JSON: an object keyed by tag, every tag present).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, Archive, ToRkyv, FromRkyv,
)]
#[serde(deny_unknown_fields)]
pub struct ToolCapabilityCounts {
    /// The tools tagged: the record's kept tools (`tools`), with or without a tag.
    pub tools: u32,
    pub read_only: u32,
    pub writes: u32,
    pub destructive: u32,
    pub executes_code: u32,
    pub moves_money: u32,
    pub sends_messages: u32,
    pub reads_untrusted_content: u32,
    pub reads_private_data: u32,
}

impl ToolCapabilityCounts {
    /// The count for one tag.
    pub fn get(&self, tag: ToolCapability) -> u32 {
        *self.slot(tag)
    }

    fn slot(&self, tag: ToolCapability) -> &u32 {
        match tag {
            ToolCapability::ReadOnly => &self.read_only,
            ToolCapability::Writes => &self.writes,
            ToolCapability::Destructive => &self.destructive,
            ToolCapability::ExecutesCode => &self.executes_code,
            ToolCapability::MovesMoney => &self.moves_money,
            ToolCapability::SendsMessages => &self.sends_messages,
            ToolCapability::ReadsUntrustedContent => &self.reads_untrusted_content,
            ToolCapability::ReadsPrivateData => &self.reads_private_data,
        }
    }

    fn slot_mut(&mut self, tag: ToolCapability) -> &mut u32 {
        match tag {
            ToolCapability::ReadOnly => &mut self.read_only,
            ToolCapability::Writes => &mut self.writes,
            ToolCapability::Destructive => &mut self.destructive,
            ToolCapability::ExecutesCode => &mut self.executes_code,
            ToolCapability::MovesMoney => &mut self.moves_money,
            ToolCapability::SendsMessages => &mut self.sends_messages,
            ToolCapability::ReadsUntrustedContent => &mut self.reads_untrusted_content,
            ToolCapability::ReadsPrivateData => &mut self.reads_private_data,
        }
    }

    /// Counts each tag of each tool once.
    pub fn of<'a>(tools: impl IntoIterator<Item = &'a [ToolCapability]>) -> ToolCapabilityCounts {
        let mut counts = ToolCapabilityCounts::default();
        for tags in tools {
            counts.tools += 1;
            for &tag in tags {
                *counts.slot_mut(tag) += 1;
            }
        }
        counts
    }
}
