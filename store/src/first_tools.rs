//! The record's `tool_names_first_25`. Schema 1 called it `tool_names_seed`; schema 2 wrote
//! the names under both keys; schema 3 writes only the new key. Reading accepts either, so
//! exports of every schema keep loading. Both keys in one object (schema 2's export) is a
//! normal input, which serde's `alias` would reject as a duplicate field: hence this
//! hand-written pair of impls, flattened into the record.

use std::fmt;
use std::ops::{Deref, DerefMut};

use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How many tool names the record keeps in [`FirstToolNames`].
pub const FIRST_TOOL_NAMES: usize = 25;
/// The JSON key.
pub const FIRST_TOOL_NAMES_KEY: &str = "tool_names_first_25";
/// The schema 1 and 2 key: still read, no longer written.
pub const DEPRECATED_FIRST_TOOL_NAMES_KEY: &str = "tool_names_seed";

/// The first [`FIRST_TOOL_NAMES`] tool names the server listed, in its order.
#[derive(
    Debug, Clone, PartialEq, Eq, Default, rkyv::Archive, rkyv::Serialize, rkyv::Deserialize,
)]
pub struct FirstToolNames(pub Vec<String>);

impl Deref for FirstToolNames {
    type Target = Vec<String>;
    fn deref(&self) -> &Vec<String> {
        &self.0
    }
}

impl DerefMut for FirstToolNames {
    fn deref_mut(&mut self) -> &mut Vec<String> {
        &mut self.0
    }
}

impl From<Vec<String>> for FirstToolNames {
    fn from(names: Vec<String>) -> Self {
        FirstToolNames(names)
    }
}

impl Serialize for FirstToolNames {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry(FIRST_TOOL_NAMES_KEY, &self.0)?;
        map.end()
    }
}

impl<'de> Deserialize<'de> for FirstToolNames {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(KeysVisitor)
    }
}

/// Reads the record's leftover keys: the new key wins, the old one is the fallback, neither
/// (a record from before tool names were kept) is an empty list.
struct KeysVisitor;

impl<'de> Visitor<'de> for KeysVisitor {
    type Value = FirstToolNames;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a record with `{FIRST_TOOL_NAMES_KEY}` or `{DEPRECATED_FIRST_TOOL_NAMES_KEY}`"
        )
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FirstToolNames, A::Error> {
        let (mut current, mut deprecated) = (None, None);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                FIRST_TOOL_NAMES_KEY => current = Some(map.next_value::<Vec<String>>()?),
                DEPRECATED_FIRST_TOOL_NAMES_KEY => {
                    deprecated = Some(map.next_value::<Vec<String>>()?);
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(FirstToolNames(current.or(deprecated).unwrap_or_default()))
    }
}
