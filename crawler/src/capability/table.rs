//! The capability table's row type and its rows (made by `build.rs` from `capabilities.toml`),
//! and the small tag set a tool's signals add up to.

use mcpcensus_store::ToolCapability;

/// Where a signal is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// One annotation hint, equal to the row's value (a JSON boolean).
    Annotation,
    /// The words of the tool's name.
    Name,
    /// The words of the description's first sentence.
    Summary,
    /// The words of the whole description.
    Description,
    /// The input schema's top-level property names.
    Schema,
}

impl Place {
    /// The name docs/rules.md and the table use.
    pub fn as_str(self) -> &'static str {
        match self {
            Place::Annotation => "annotation",
            Place::Name => "name",
            Place::Summary => "summary",
            Place::Description => "description",
            Place::Schema => "schema",
        }
    }
}

/// One row of the capability table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Signal {
    pub id: &'static str,
    pub place: Place,
    /// The annotation read (annotation rows only).
    pub hint: &'static str,
    /// The value the hint must have.
    pub value: bool,
    /// Any of these (an entry with spaces is a phrase: its words in a row).
    pub words: &'static [&'static str],
    /// And one of these at another position, when not empty.
    pub with: &'static [&'static str],
    /// And none of these.
    pub unless: &'static [&'static str],
    /// Read only for a tool that does not write (its reading is what it is for).
    pub unless_writes: bool,
    pub adds: Tags,
    /// Why the row exists (docs/rules.md shows it).
    pub reason: &'static str,
}

/// A set of tags, one bit per [`ToolCapability`] in its order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tags(pub u8);

/// The tags that are effects: a tool with any of them writes.
const EFFECTS: Tags = Tags(1 << 2 | 1 << 3 | 1 << 4 | 1 << 5);

impl Tags {
    fn bit(tag: ToolCapability) -> u8 {
        let at = ToolCapability::ALL.iter().position(|t| *t == tag);
        1 << at.unwrap_or_default()
    }

    pub fn has(self, tag: ToolCapability) -> bool {
        self.0 & Tags::bit(tag) != 0
    }

    pub fn insert(&mut self, tag: ToolCapability) {
        self.0 |= Tags::bit(tag);
    }

    pub fn remove(&mut self, tag: ToolCapability) {
        self.0 &= !Tags::bit(tag);
    }

    pub fn add(&mut self, other: Tags) {
        self.0 |= other.0;
    }

    /// The table's two closing rules: an effect writes, and writing is not read-only.
    pub fn settle(&mut self) {
        if self.0 & EFFECTS.0 != 0 {
            self.insert(ToolCapability::Writes);
        }
        if self.has(ToolCapability::Writes) {
            self.remove(ToolCapability::ReadOnly);
        }
    }

    /// The tags, in [`ToolCapability::ALL`]'s order.
    pub fn list(self) -> Vec<ToolCapability> {
        let all = ToolCapability::ALL.iter().copied();
        all.filter(|t| self.has(*t)).collect()
    }
}

include!(concat!(env!("OUT_DIR"), "/capabilities.rs"));
