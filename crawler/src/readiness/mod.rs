//! The readiness level, the pure part: how each agent-readiness check reads what the scan
//! fetched (robots.txt's AI rules and content signals, llms.txt's shape, the homepage's Link
//! relations and WebMCP markers, the skills index, the sitemap), and the negative control that
//! tells a file from a catch-all answer. Nothing here does I/O: the scan's readiness phase
//! fetches, these functions judge (docs/readiness.md).

mod bots;
mod control;
mod documents;
mod links;
mod llms;
mod robots;
mod table;
mod webmcp;

pub use bots::{Access, AI_CRAWLERS};
pub use control::{control_path, same_as_control, Control};
pub use documents::{read_markdown_answer, read_sitemap, read_skills_index};
pub use links::{agent_link_rels, content_usage_header, AGENT_RELS};
pub use llms::{read_llms, TextShape};
pub use robots::{read_robots_file, BotRule, RobotsFile};
pub use table::{Fetch, FetchRow, READINESS_CAP, READINESS_FETCHES};
pub use webmcp::web_mcp_forms;

#[cfg(test)]
mod tests;
