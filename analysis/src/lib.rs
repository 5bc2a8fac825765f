//! Reports over mcpcensus records (adoption, tool counts, trends).
//! The report engine lands with the reports issue; this crate holds its place in the workspace.
