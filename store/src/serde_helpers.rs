//! Serde adapters for the record's JSON form.

/// `Option<String>` holding JSON text, written out as the JSON value itself.
pub mod json_text {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(value: &Option<String>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            None => s.serialize_none(),
            Some(text) => match serde_json::from_str::<serde_json::Value>(text) {
                Ok(v) => v.serialize(s),
                // Kept as text rather than lost if it somehow is not JSON.
                Err(_) => s.serialize_str(text),
            },
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
        let value = Option::<serde_json::Value>::deserialize(d)?;
        Ok(value.map(|v| v.to_string()))
    }
}

/// Milliseconds since the epoch, written as an RFC 3339 UTC timestamp.
pub mod rfc3339_ms {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};
    use std::time::{Duration, UNIX_EPOCH};

    pub fn format(ms: u64) -> String {
        humantime::format_rfc3339_millis(UNIX_EPOCH + Duration::from_millis(ms)).to_string()
    }

    pub fn parse(text: &str) -> Result<u64, String> {
        let t = humantime::parse_rfc3339_weak(text).map_err(|e| format!("{text:?}: {e}"))?;
        let d = t.duration_since(UNIX_EPOCH).map_err(|e| e.to_string())?;
        Ok(d.as_millis() as u64)
    }

    pub fn serialize<S: Serializer>(ms: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format(*ms))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let text = String::deserialize(d)?;
        parse(&text).map_err(D::Error::custom)
    }
}

/// `Option<u64>` milliseconds since the epoch, written as an RFC 3339 timestamp or null.
pub mod rfc3339_ms_opt {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(ms: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match ms {
            Some(ms) => s.serialize_str(&super::rfc3339_ms::format(*ms)),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        match Option::<String>::deserialize(d)? {
            Some(text) => super::rfc3339_ms::parse(&text)
                .map(Some)
                .map_err(D::Error::custom),
            None => Ok(None),
        }
    }
}
